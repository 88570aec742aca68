"""Per-call cost of two source trees of memory-sandbox, measured interleaved in one run.

The policy work of a call (parse, canonicalise, plan, stages, render) is compared without the disk:
``LocalStorage(durability="none")`` and no audit log, so that fsync noise on a busy machine does not
swamp a difference of a few percent. Each round runs every command in a fresh process for each tree,
tree A then tree B then B then A and so on, and reports the median over rounds of each process's
median; the ratio B/A is what changed.

    python bench/interleaved.py /path/to/base-tree /path/to/head-tree [--rounds 6] [--reps 300]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

_CHILD = r"""
import json, shutil, statistics, sys, tempfile, time
from sandbox import Sandbox, load_policy
from sandbox.decision import NullAuditSink
from sandbox.storage import LocalStorage

reps = int(sys.argv[1])
folder = tempfile.mkdtemp()
box = Sandbox(policy=load_policy("default"), storage=LocalStorage(folder + "/s", durability="none"),
              audit=NullAuditSink())
text = "".join(f"memory line {n:03d} of about forty bytes\n" for n in range(26))[:1023] + "\n"
box.execute({"command": "create", "path": "/memories/base.md", "file_text": text})

def timed(make):
    samples = []
    for n in range(reps):
        command = make(n)
        start = time.perf_counter_ns()
        result = box.execute(command)
        samples.append(time.perf_counter_ns() - start)
        assert not result.is_error, (command, result.content)
    return statistics.median(samples) / 1000

out = {
    "view 1 KB": timed(lambda n: {"command": "view", "path": "/memories/base.md"}),
    "create 1 KB": timed(lambda n: {"command": "create", "path": f"/memories/c/{n}.md", "file_text": text}),
    "str_replace 1 KB": timed(lambda n: {"command": "str_replace", "path": f"/memories/c/{n}.md",
                                         "old_str": "line 007", "new_str": "line seven"}),
    "insert 1 KB": timed(lambda n: {"command": "insert", "path": f"/memories/c/{n}.md", "insert_line": 1,
                                    "insert_text": "inserted"}),
    "rename 1 KB": timed(lambda n: {"command": "rename", "old_path": f"/memories/c/{n}.md",
                                    "new_path": f"/memories/d/{n}.md"}),
    "delete 1 KB": timed(lambda n: {"command": "delete", "path": f"/memories/d/{n}.md"}),
    "view /memories": timed(lambda n: {"command": "view", "path": "/memories"}),
}
shutil.rmtree(folder)
print(json.dumps(out))
"""


def run(tree: Path, reps: int) -> dict[str, float]:
    done = subprocess.run(  # noqa: S603 - fixed argv: this interpreter and a code string of this file
        [sys.executable, "-c", _CHILD, str(reps)],
        capture_output=True, text=True, check=True, env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    result: dict[str, float] = json.loads(done.stdout)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path)
    parser.add_argument("head", type=Path)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--reps", type=int, default=300)
    args = parser.parse_args()
    samples: dict[str, list[dict[str, float]]] = {"base": [], "head": []}
    for round_ in range(args.rounds):
        order = ("base", "head") if round_ % 2 == 0 else ("head", "base")
        for name in order:
            samples[name].append(run(getattr(args, name), args.reps))
    print(f"{'command':<18} {'base (µs)':>10} {'head (µs)':>10} {'head/base':>10}")
    for command in samples["base"][0]:
        base = statistics.median(s[command] for s in samples["base"])
        head = statistics.median(s[command] for s in samples["head"])
        print(f"{command:<18} {base:>10.1f} {head:>10.1f} {head / base:>9.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
