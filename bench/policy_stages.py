"""Cost of each policy stage per call, in microseconds (median of many calls).

python bench/policy_stages.py
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from sandbox.commands import canonicalize_command, parse_command
from sandbox.pipeline import Scans, default_stages
from sandbox.policy import load_policy
from sandbox.stages import RateLimiter, Request

NOTE = "- The team deploys on Thursdays after the standup; remember the release checklist.\n" * 12
CALLS = {
    "view": {"command": "view", "path": "/memories/projects/alpha/notes.md"},
    "create 1 KB": {"command": "create", "path": "/memories/projects/alpha/notes.md", "file_text": NOTE},
    "str_replace": {
        "command": "str_replace",
        "path": "/memories/notes.md",
        "old_str": "Thursdays",
        "new_str": "Fridays",
    },
}


def median_us(run: Callable[[], object], reps: int = 5000) -> float:
    for _ in range(200):
        run()
    samples = []
    for _ in range(reps):
        start = time.perf_counter_ns()
        run()
        samples.append(time.perf_counter_ns() - start)
    return statistics.median(samples) / 1000


def main() -> None:
    for profile in ("default", "strict"):
        policy = load_policy(profile)
        # The rate limiter is measured with a bucket that never empties, so it lets every call through.
        compiled = default_stages(policy, Scans.of(policy))
        stages = tuple(RateLimiter(10**9) if isinstance(s, RateLimiter) else s for s in compiled)
        print(f"\n{profile} profile: stages {[type(s).__name__ for s in stages]}")
        print("| call | parse | canonicalize | " + " | ".join(type(s).__name__ for s in stages) + " | all stages |")
        print("|---|" + "---:|" * (len(stages) + 3))
        for name, raw in CALLS.items():
            parsed = parse_command(raw, max_string_bytes=policy.limits.max_string_bytes)
            request = Request(canonicalize_command(parsed, policy.path_limits))
            cells = [
                median_us(
                    lambda raw=raw, limit=policy.limits.max_string_bytes: parse_command(raw, max_string_bytes=limit)
                ),
                median_us(lambda parsed=parsed, limits=policy.path_limits: canonicalize_command(parsed, limits)),
            ]
            for stage in stages:
                cells.append(median_us(lambda stage=stage, request=request: stage(request)))
            total = median_us(lambda request=request, stages=stages: [stage(request) for stage in stages])
            print(f"| {name} | " + " | ".join(f"{c:.1f}" for c in cells) + f" | {total:.1f} |")


if __name__ == "__main__":
    main()
