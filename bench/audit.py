"""Audit log speed: records written per second (flush durability), records verified per second,
and durable intents per second with 1 and 8 writers (threads, then processes) sharing fsyncs.

python bench/audit.py [--records 50000] [--durable 400]
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

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
    parser.add_argument("--durable", type=int, default=300, help="durable intents per writer")
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
    durable(args.durable)


def _intents(path: Path, count: int, start: Any) -> None:
    with AuditLog.open(path, durability="fsync") as log:
        start.wait()
        for n in range(count):
            log.intent(decision(n))


def durable(count: int, rounds: int = 5) -> None:
    """Durable intents per second (each fsynced before it returns) by 1 and 8 writers of one log;
    the three set-ups take turns, ``rounds`` times, and the median is shown (fsync times swing)."""
    setups = (("thread", 1), ("threads", 8), ("processes", 8))
    rates: dict[tuple[str, int], list[float]] = {setup: [] for setup in setups}
    for _ in range(rounds):
        for kind, writers in setups:
            rates[kind, writers].append(writers * count / _durable_run(kind, writers, count))
    for (kind, writers), values in rates.items():
        print(f"durable intents, {writers} {kind}: {statistics.median(values):,.0f}/s (median of {rounds})")


def _durable_run(kind: str, writers: int, count: int) -> float:
    """Seconds for ``writers`` threads or processes to write ``count`` durable intents each."""
    fork = multiprocessing.get_context("fork")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "audit.jsonl"
        AuditLog.open(path).close()
        start: Any = threading.Event() if kind != "processes" else fork.Event()
        make: Any = threading.Thread if kind != "processes" else fork.Process
        runners = [make(target=_intents, args=(path, count, start)) for _ in range(writers)]
        for runner in runners:
            runner.start()
        time.sleep(0.3)
        began = time.perf_counter()
        start.set()
        for runner in runners:
            runner.join()
        took = time.perf_counter() - began
        assert verify(path).ok
    return took


if __name__ == "__main__":
    main()
