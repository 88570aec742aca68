"""Rollback, for any two sessions of calls: undoing the second leaves exactly what the first left.

Hypothesis composes calls over a handful of names (so creates, edits, renames and deletes of
files and folders collide, nest and move each other's parents), runs a first session, takes a
snapshot, runs a second, and rolls the second back: the store must equal the snapshot, on
every store. Rolling the rollback back must give the second session's state again.
"""

from __future__ import annotations

import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from sandbox.decision import CallContext, NullAuditSink
from sandbox.history import Shelf
from sandbox.pipeline import Sandbox
from sandbox.policy import Policy
from sandbox.rollback import Selection, run_rollback
from sandbox.storage import InMemoryStorage, LocalStorage
from sandbox.storage.base import StorageAdapter
from sandbox.storage.sqlite import SQLiteDatabase
from tests.contract.test_history import snapshot

POLICY = Policy.model_validate({"schema_version": 1, "id": "fuzz", "revision": 1, "history": {"keep_versions": 1000}})
NAMES = ["a", "b", "a/c", "a/c/d", "b/e"]
FILES = ["x.md", "y.md"]
paths = st.builds(lambda folder, name: f"/memories/{folder}/{name}", st.sampled_from(NAMES), st.sampled_from(FILES))
places = st.one_of(paths, st.sampled_from([f"/memories/{name}" for name in NAMES]))
texts = st.sampled_from(["one\n", "two\nlines\n", "", "three\n"])

calls = st.one_of(
    st.builds(lambda p, t: {"command": "create", "path": p, "file_text": t}, paths, texts),
    st.builds(lambda p, t: {"command": "str_replace", "path": p, "old_str": "e", "new_str": t}, paths, texts),
    st.builds(lambda p, t: {"command": "insert", "path": p, "insert_line": 0, "insert_text": t}, paths, texts),
    st.builds(lambda p: {"command": "delete", "path": p}, places),
    st.builds(lambda old, new: {"command": "rename", "old_path": old, "new_path": new}, places, places),
)
sessions = st.lists(calls, max_size=12)

# A folder the second session renames, with a file the first session made in it; a delete of a
# folder whose parent the same session made; a rename into a folder a create just made.
NESTED = [{"command": "create", "path": "/memories/a/c/x.md", "file_text": "one\n"}]
MOVES = [
    {"command": "rename", "old_path": "/memories/a", "new_path": "/memories/b/e"},
    {"command": "create", "path": "/memories/a/x.md", "file_text": "two\nlines\n"},
    {"command": "delete", "path": "/memories/b"},
]


@contextmanager
def opened(kind: str) -> Iterator[StorageAdapter]:
    with tempfile.TemporaryDirectory() as folder:
        if kind == "memory":
            yield InMemoryStorage()
        elif kind == "local":
            with LocalStorage(Path(folder) / "m", durability="none") as store:
                yield store
        else:
            with SQLiteDatabase(Path(folder) / "m.db", durability="none") as database:
                yield database.storage(uuid.uuid4().hex)


def _two_sessions(
    sandbox: Sandbox, storage: StorageAdapter, first: list[dict[str, object]], second: list[dict[str, object]]
) -> tuple[dict[str, bytes | None], dict[str, bytes | None]]:
    """Run two sessions of calls; the store's contents after the first, and after the second."""
    for call in first:
        sandbox.execute(call, CallContext(session_id="first"))
    before = snapshot(storage)
    for call in second:
        sandbox.execute(call, CallContext(session_id="second"))
    return before, snapshot(storage)


@pytest.mark.parametrize("kind", ["memory", "local", "sqlite"])
@settings(max_examples=60, deadline=None)
@example(first=NESTED, second=MOVES)
@example(
    first=[{"command": "create", "path": "/memories/a/x.md", "file_text": "one\n"}],
    second=[
        {"command": "delete", "path": "/memories/a"},
        {"command": "create", "path": "/memories/a/c/y.md", "file_text": ""},
        {"command": "rename", "old_path": "/memories/a", "new_path": "/memories/b"},
    ],
)
@given(first=sessions, second=sessions)
def test_rollback_restores_the_state_before_the_session(
    kind: str, first: list[dict[str, object]], second: list[dict[str, object]]
) -> None:
    with opened(kind) as storage, Sandbox(policy=POLICY, storage=storage, audit=NullAuditSink()) as sandbox:
        before, after = _two_sessions(sandbox, storage, first, second)
        report = run_rollback(sandbox, Selection(session="second"))
        assert report.ok, report.error
        assert snapshot(storage) == before
        with storage.writing() as writer:
            assert isinstance(writer, Shelf)
            undone = {v.session for v in writer.shelved() if v.caller == "rollback"}
        for session in undone:
            assert run_rollback(sandbox, Selection(session=session)).ok
        assert snapshot(storage) == after


TIGHT = Policy.model_validate({"schema_version": 1, "id": "fuzz", "revision": 1, "history": {"keep_versions": 1}})


@pytest.mark.parametrize("kind", ["memory", "local"])
@settings(max_examples=60, deadline=None)
@example(
    first=[{"command": "create", "path": "/memories/a/x.md", "file_text": "one\n"}],
    second=[
        {"command": "str_replace", "path": "/memories/a/x.md", "old_str": "e", "new_str": "two\n"},
        {"command": "delete", "path": "/memories/a"},
        {"command": "create", "path": "/memories/a/x.md", "file_text": "three\n"},
        {"command": "rename", "old_path": "/memories/a", "new_path": "/memories/b"},
        {"command": "create", "path": "/memories/a/x.md", "file_text": ""},
    ],
)
@given(first=sessions, second=sessions)
def test_with_versions_dropped_a_rollback_is_exact_or_refused(
    kind: str, first: list[dict[str, object]], second: list[dict[str, object]]
) -> None:
    """keep_versions = 1 drops every version it may: a rollback of a session then either restores the
    state before it exactly or is refused; it never reports success over another state."""
    with opened(kind) as storage, Sandbox(policy=TIGHT, storage=storage, audit=NullAuditSink()) as sandbox:
        before, after = _two_sessions(sandbox, storage, first, second)
        report = run_rollback(sandbox, Selection(session="second"))
        if report.ok:
            assert snapshot(storage) == before
        else:
            assert "dropped" in report.error or "Later changes" in report.error, report.error
            assert snapshot(storage) == after
