"""Quotas hold under concurrent writers in several processes, at every instant."""

from __future__ import annotations

import multiprocessing
import random
import time
from pathlib import Path
from typing import Any

import pytest

from sandbox import Sandbox
from sandbox.policy import parse_policy
from sandbox.storage import LocalStorage, Usage
from tests.unit.test_local_storage import full_walk

FORK = multiprocessing.get_context("fork")
MAX_BYTES, MAX_FILES = 40_000, 120
POLICY = f'schema_version = 1\nid = "q"\nrevision = 1\n[quota]\nmax_bytes = {MAX_BYTES}\nmax_files = {MAX_FILES}\n'


def _writer(root: Path, worker: int, start: Any, refusals: Any) -> None:
    """Create and grow files until the quota has refused this worker many times."""
    sandbox = Sandbox(policy=parse_policy(POLICY, source="q"), storage=LocalStorage(root))
    rng = random.Random(worker)
    refused = 0
    start.wait()
    n = 0
    while refused < 200:
        n += 1
        if rng.random() < 0.6:
            command = {
                "command": "create",
                "path": f"/memories/w{worker}/f{n}.md",
                "file_text": "x" * rng.randrange(50, 900),
            }
        else:
            command = {"command": "insert", "path": f"/memories/w{worker}/f{rng.randrange(1, n + 1)}.md",
                       "insert_line": 0, "insert_text": "y" * rng.randrange(10, 400)}  # fmt: skip
        result = sandbox.execute(command)
        if result.decision.error_code == "quota_exceeded":
            refused += 1
    with refusals.get_lock():
        refusals.value += refused


@pytest.mark.slow
def test_quota_never_exceeded_by_four_processes(tmp_path: Path) -> None:
    """4 processes writing at once into one scope: neither the store's usage nor a full walk passes the quota."""
    root = tmp_path / "scope"
    store = LocalStorage(root)
    start, refusals = FORK.Event(), FORK.Value("q", 0)
    writers = [FORK.Process(target=_writer, args=(root, w, start, refusals)) for w in range(4)]
    for process in writers:
        process.start()
    start.set()
    samples = walks = 0
    peak = Usage(0, 0)
    # Writers only create and grow files, so usage only rises: any walk, even one that
    # is not atomic, sums to no more than the usage at its end.
    while any(process.is_alive() for process in writers):
        usage, walk = store.usage(), full_walk(root)
        samples += 1
        walks += 1
        assert usage.bytes <= MAX_BYTES and usage.files <= MAX_FILES, usage
        assert walk.bytes <= MAX_BYTES and walk.files <= MAX_FILES, walk
        peak = Usage(max(peak.bytes, walk.bytes), max(peak.files, walk.files))
        time.sleep(0.001)
    for process in writers:
        process.join(timeout=120)
        assert process.exitcode == 0
    final = store.usage()
    print(f"\nquota: {samples} samples, peak walk {peak}, final {final}, refusals {refusals.value}")
    assert final == full_walk(root)
    assert refusals.value == 4 * 200
    assert final.bytes > MAX_BYTES - 1000 or final.files == MAX_FILES  # the quota was really reached
