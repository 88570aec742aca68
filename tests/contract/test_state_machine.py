"""Random command sequences on every store side by side: every answer must be the same.

A hypothesis state machine sends each command to InMemoryStorage (the reference),
LocalStorage, SQLiteStorage, PostgresStorage and wrap mode, under one policy with a
small quota, and requires the same error flag and the same text from all of them,
then the same listing of the whole tree and the same usage. Paths come from a
small alphabet, so commands collide: files inside files, renames onto folders,
folders into themselves, edits of missing files, quota refusals.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from sandbox import Sandbox
from sandbox.decision import NullAuditSink
from sandbox.integrations.anthropic import SandboxedMemoryTool
from sandbox.policy import parse_policy
from sandbox.storage import InMemoryStorage, LocalStorage
from sandbox.storage.base import StorageAdapter
from sandbox.storage.postgres import PostgresDatabase
from sandbox.storage.sqlite import SQLiteDatabase

POLICY = parse_policy(
    'schema_version = 1\nid = "machine"\nrevision = 1\n'
    "[limits]\nmax_file_lines = 12\n"
    "[quota]\nmax_bytes = 160\nmax_files = 7\n",
    source="machine.toml",
)

NAMES = ["a", "b.md", "c", "Notes.md"]
paths = st.one_of(
    st.lists(st.sampled_from(NAMES), min_size=1, max_size=3).map(lambda parts: "/memories/" + "/".join(parts)),
    st.sampled_from(["/memories", "/memories/", "/memories/a/..", "/memories/a/../b.md", "/memories/notes.md"]),
)
texts = st.sampled_from(["", "x", "one\ntwo\n", "one\ntwo\nthree", "héllo ✓\n", "x" * 70, "a\n" * 11, "two"])
needles = st.sampled_from(["one", "two", "x", "\n", "zzz", "héllo"])

Store = tuple[StorageAdapter, Sandbox]


class SideBySide(RuleBasedStateMachine):
    """One command at a time, to every store."""

    def __init__(self, makers: dict[str, Callable[[], Store]]) -> None:
        super().__init__()
        self.stores = {name: make() for name, make in makers.items()}

    def _all(self, command: dict[str, Any]) -> Any:
        answers = {}
        for name, (_, sandbox) in self.stores.items():
            result = sandbox.execute(command)
            answers[name] = (result.is_error, result.content)
        reference = answers["memory"]
        for name, answer in answers.items():
            assert answer == reference, f"{name} answered {answer!r} where memory answered {reference!r} to {command!r}"
        return reference

    @rule(path=paths, view_range=st.none() | st.tuples(st.integers(-1, 4), st.integers(-1, 5)).map(list))
    def view(self, path: str, view_range: list[int] | None) -> None:
        command: dict[str, Any] = {"command": "view", "path": path}
        if view_range is not None:
            command["view_range"] = view_range
        self._all(command)

    @rule(path=paths, text=texts)
    def create(self, path: str, text: str) -> None:
        self._all({"command": "create", "path": path, "file_text": text})

    @rule(path=paths, old=needles, new=texts)
    def str_replace(self, path: str, old: str, new: str) -> None:
        self._all({"command": "str_replace", "path": path, "old_str": old, "new_str": new})

    @rule(path=paths, line=st.integers(-1, 5), text=texts)
    def insert(self, path: str, line: int, text: str) -> None:
        self._all({"command": "insert", "path": path, "insert_line": line, "insert_text": text})

    @rule(path=paths)
    def delete(self, path: str) -> None:
        self._all({"command": "delete", "path": path})

    @rule(old=paths, new=paths)
    def rename(self, old: str, new: str) -> None:
        self._all({"command": "rename", "old_path": old, "new_path": new})

    @invariant()
    def same_tree_and_usage(self) -> None:
        self._all({"command": "view", "path": "/memories"})
        usages = {name: storage.usage() for name, (storage, _) in self.stores.items()}
        assert len(set(usages.values())) == 1, usages


@pytest.fixture
def makers(pg_dsn: str) -> Iterator[dict[str, Callable[[], Store]]]:
    folder = tempfile.mkdtemp(prefix="memory-sandbox-machine-")
    with SQLiteDatabase(f"{folder}/memory.db", durability="none") as lite, PostgresDatabase(pg_dsn) as pg:

        def over(storage: StorageAdapter) -> Store:
            return storage, Sandbox(policy=POLICY, storage=storage, audit=NullAuditSink())

        def wrapped() -> Store:
            storage = InMemoryStorage()
            handler = SandboxedMemoryTool(Sandbox(policy=POLICY, storage=storage, audit=NullAuditSink()))
            return storage, SandboxedMemoryTool.wrap(handler, policy=POLICY, audit=NullAuditSink()).sandbox

        def fresh() -> str:
            return uuid.uuid4().hex

        yield {
            "memory": lambda: over(InMemoryStorage()),
            "local": lambda: over(LocalStorage(f"{folder}/{fresh()}", durability="none")),
            "sqlite": lambda: over(lite.storage(fresh())),
            "postgres": lambda: over(pg.storage(fresh())),
            "wrap": wrapped,
        }
    shutil.rmtree(folder, ignore_errors=True)


def test_every_store_answers_alike(makers: dict[str, Callable[[], Store]]) -> None:
    run_state_machine_as_test(
        lambda: SideBySide(makers),
        settings=settings(
            max_examples=int(os.environ.get("MACHINE_EXAMPLES", "60")),
            stateful_step_count=30,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
        ),
    )
