"""A file over ``limits.max_file_bytes`` (written by another tool) is refused by ``view`` with an error
naming the limit, and on stores that can tell its size first, without reading any of it."""

from __future__ import annotations

import os
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from sandbox import Sandbox
from sandbox.decision import NullAuditSink
from sandbox.paths import canonicalize
from sandbox.pipeline import ToolResult
from sandbox.policy import parse_policy
from sandbox.storage import InMemoryStorage, LocalStorage
from sandbox.storage._fs import read_at_most
from sandbox.storage.base import StorageAdapter
from sandbox.storage.sqlite import SQLiteStorage

POLICY = 'schema_version = 1\nid = "b"\nrevision = 1\n[limits]\nmax_file_bytes = 1048576\n'
BIG = 64 * 1024 * 1024


def _sandbox(storage: StorageAdapter) -> Sandbox:
    return Sandbox(policy=parse_policy(POLICY, source="b"), storage=storage, audit=NullAuditSink())


def _traced(box: Sandbox, command: dict[str, object]) -> tuple[ToolResult, int]:
    """The call's result and the peak of memory Python allocated while it ran."""
    tracemalloc.start()
    try:
        result = box.execute(command)
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_planted_64_mb_file_is_refused_unread(tmp_path: Path) -> None:
    """Local folder: the size is known from the open file, so nothing of 64 MB is read (a sparse file
    here: reading it would allocate 64 MB)."""
    storage = LocalStorage(tmp_path / "m")
    with (tmp_path / "m" / "big.md").open("wb") as planted:
        planted.truncate(BIG)
    result, peak = _traced(_sandbox(storage), {"command": "view", "path": "/memories/big.md", "view_range": [1, 3]})
    assert result.is_error and result.decision.error_code == "failed"
    assert str(result.content) == (
        "Error: The file /memories/big.md is 67,108,864 bytes, over the 1,048,576 bytes a memory file may hold "
        "(limits.max_file_bytes); it was not read"
    )
    assert peak < 8 * 1024 * 1024, peak


@pytest.mark.parametrize("kind", ["sqlite", "memory"])
def test_every_store_refuses_an_oversized_view(kind: str, tmp_path: Path) -> None:
    """SQLite does not fetch the content past the limit; any other store reads, then refuses alike."""
    opened: dict[str, Callable[[], StorageAdapter]] = {
        "sqlite": lambda: SQLiteStorage(tmp_path / "m.db"),
        "memory": InMemoryStorage,
    }
    storage = opened[kind]()
    storage.create(canonicalize("/memories/big.md"), b"x" * (1024 * 1024 + 1))  # type: ignore[attr-defined]
    storage.create(canonicalize("/memories/ok.md"), b"y\n" * 1000)  # type: ignore[attr-defined]
    box = _sandbox(storage)
    refused = box.execute({"command": "view", "path": "/memories/big.md"})
    assert refused.is_error and "1,048,577 bytes, over the 1,048,576 bytes" in str(refused.content)
    assert not box.execute({"command": "view", "path": "/memories/ok.md", "view_range": [1, 1]}).is_error


@pytest.mark.parametrize(
    "command",
    [
        {"command": "str_replace", "path": "/memories/big.md", "old_str": "zz", "new_str": "y"},
        {"command": "insert", "path": "/memories/big.md", "insert_line": 0, "insert_text": "y"},
    ],
)
def test_edits_of_a_planted_file_read_none_of_it(tmp_path: Path, command: dict[str, object]) -> None:
    """An edit must read the file first: past the limit it is refused the same way, unread."""
    storage = LocalStorage(tmp_path / "m")
    with (tmp_path / "m" / "big.md").open("wb") as planted:
        planted.truncate(BIG)
    result, peak = _traced(_sandbox(storage), command)
    assert result.is_error and "over the 1,048,576 bytes a memory file may hold" in str(result.content)
    assert peak < 8 * 1024 * 1024, peak


def test_a_bounded_read_stops_at_its_limit(tmp_path: Path) -> None:
    """What a file grown by another tool after its size was taken can cost: the limit and one byte."""
    big = tmp_path / "grows.md"
    big.write_bytes(b"z" * 10_000)
    fd = os.open(big, os.O_RDONLY)
    try:
        assert read_at_most(fd, 101) == b"z" * 101
    finally:
        os.close(fd)
