"""Audit log speed: records written per second (flush durability) and records verified per second.

python bench/audit.py [--records 50000]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from sandbox.audit import AuditLog
from sandbox.audit.verify import verify
from sandbox.decision import CallContext, Decision, Note


def decision(n: int) -> Decision:
    return Decision(
        decision_id=f"bench-{n:x}",
        started_ns=time.time_ns(),
        context=CallContext(scope="alice", principal="agent-7", tool_use_id=f"toolu_{n:08d}"),
        policy_id="default",
        policy_revision=1,
        command="str_replace",
        paths=(f"/memories/projects/alpha/notes-{n % 50}.md",),
        verdict="redact" if n % 10 == 0 else "allow",
        notes=(Note("secret.github-pat", "redacted"),) if n % 10 == 0 else (),
        outcome="ok",
        latency_ns=123_000,
        content_digest="ab" * 32,
        size_before=1200,
        size_after=1234,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=50_000)
    args = parser.parse_args()
    decisions = [decision(n) for n in range(args.records // 2)]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "audit.jsonl"
        with AuditLog.open(path, durability="flush", checkpoint_every=1000) as log:
            start = time.perf_counter()
            for item in decisions:
                log.intent(item)
                log.outcome(item)
            written = time.perf_counter() - start
        size = path.stat().st_size
        start = time.perf_counter()
        report = verify(path)
        checked = time.perf_counter() - start
        assert report.ok, report.summary()
        print(f"{report.records:,} records ({size / report.records:.0f} bytes each), durability flush")
        print(f"write:  {len(decisions) * 2 / written:,.0f} records/s")
        print(f"verify: {report.records / checked:,.0f} records/s ({size / checked / 1e6:.0f} MB/s)")


if __name__ == "__main__":
    main()
