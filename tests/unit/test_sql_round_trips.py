"""A call on a SQL store is one transaction of a few statements, whatever the folder holds.

Counted on SQLite (every statement the connection runs, traced), with the default policy:
history kept, names indexed. PostgreSQL runs the same statements (``sandbox.storage.sql``),
each a round trip to its server, so these budgets are its round trips too. A change that
adds a lookup to a call fails here, not only in a benchmark.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox import Sandbox, load_policy
from sandbox.decision import ListAuditSink
from sandbox.storage.sqlite import SQLiteDatabase

#: Statements a call may run, BEGIN and COMMIT included.
BUDGET = {
    "view": 3,  # the file's row
    "create": 10,  # lock and usage, the path and its folders, look-alike names, a version, the row, usage
    "str_replace": 9,  # lock, the file, a version, the row, usage
    "insert": 9,
    "rename": 13,  # lock, both paths and their folders, the tree, look-alike names, a version, a folder, the move
    "delete": 11,  # lock, the tree, its content for the version, the removal and usage
}

CALLS = [
    {"command": "view", "path": "/memories/a/y.md"},
    {"command": "str_replace", "path": "/memories/a/y.md", "old_str": "hello", "new_str": "bye"},
    {"command": "insert", "path": "/memories/a/y.md", "insert_line": 1, "insert_text": "more\n"},
    {"command": "rename", "old_path": "/memories/a/y.md", "new_path": "/memories/b/y.md"},
    {"command": "delete", "path": "/memories/b/y.md"},
]


@pytest.fixture
def traced(tmp_path: Path) -> Iterator[tuple[Sandbox, list[str]]]:
    with SQLiteDatabase(tmp_path / "memory.db") as database:
        box = Sandbox(policy=load_policy("default"), storage=database.storage("s"), audit=ListAuditSink())
        for n in range(50):  # a folder with neighbours: no call reads them
            box.execute({"command": "create", "path": f"/memories/a/n{n}.md", "file_text": "x\n"})
        statements: list[str] = []
        database._connection.set_trace_callback(statements.append)
        yield box, statements


def test_each_call_is_one_transaction_within_its_budget(traced: tuple[Sandbox, list[str]]) -> None:
    box, statements = traced
    ran = {}
    for call in [{"command": "create", "path": "/memories/a/y.md", "file_text": "hello\n"}, *CALLS]:
        statements.clear()
        result = box.execute(call)
        assert not result.is_error, result.content
        ran[str(call["command"])] = list(statements)
    for command, run in ran.items():
        assert [s.split()[0] for s in run].count("BEGIN") == 1, (command, run)
        assert len(run) <= BUDGET[command], (command, len(run), run)
