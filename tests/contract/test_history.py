"""Versions and rollback, the same on every store: a poisoned session undone byte for byte.

The scenario is ``examples/poisoned-session.jsonl``: a session builds notes, a second one
(steered by injected text) rewrites, plants, moves and deletes. Rolling back the second
session must leave the store exactly as the first left it, record the rollback in a chain
that still verifies, and keep versions of the rollback itself.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox.audit import AuditLog, verify
from sandbox.decision import CallContext, NullAuditSink
from sandbox.errors import PathDenied
from sandbox.history import HistoryFull, Shelf, Version
from sandbox.paths import ROOT, canonicalize
from sandbox.pipeline import Sandbox
from sandbox.policy import Policy
from sandbox.rollback import Selection, run_rollback
from sandbox.storage import LocalStorage
from sandbox.storage.base import StorageAdapter
from tests.contract.stores import EVERY_STORE, open_store

EXAMPLE = Path(__file__).parents[2] / "examples" / "poisoned-session.jsonl"


@pytest.fixture(params=EVERY_STORE)
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StorageAdapter]:
    yield from open_store(request, tmp_path)


def _policy(**history: object) -> Policy:
    return Policy.model_validate({"schema_version": 1, "id": "t", "revision": 1, "history": history})


def _calls() -> list[tuple[dict[str, object], CallContext]]:
    calls = []
    for line in EXAMPLE.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            record = json.loads(line)
            calls.append((record["input"], CallContext(principal=record["principal"], session_id=record["session_id"])))
    return calls


def snapshot(storage: StorageAdapter) -> dict[str, bytes | None]:
    """Every path below /memories with its content (None for a folder)."""
    tree = storage.tree(ROOT)
    return {
        "/".join(node.parts): None if node.is_dir else storage.read(ROOT.below(node.parts))
        for node in tree.nodes
        if node.parts
    }


def versions(storage: StorageAdapter) -> list[Version]:
    with storage.writing() as writer:
        assert isinstance(writer, Shelf)
        return writer.shelved()


def _run(sandbox: Sandbox, session: str) -> None:
    for command, context in _calls():
        if context.session_id == session:
            result = sandbox.execute(command, context)
            assert not result.is_error, result.content


def test_poisoned_session_undone_byte_for_byte(storage: StorageAdapter, tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    with Sandbox(policy=_policy(), storage=storage, audit=AuditLog.open(log)) as sandbox:
        _run(sandbox, "good-1")
        before = snapshot(storage)
        _run(sandbox, "poisoned-1")
        assert snapshot(storage) != before
        report = run_rollback(sandbox, Selection(session="poisoned-1"), operator="ops")
        assert report.ok, report.error
        assert snapshot(storage) == before
    records = [json.loads(line) for line in log.read_text().splitlines()]
    rollback = [r for r in records if r.get("command") == "rollback"]
    assert [r["event"] for r in rollback] == ["intent", "outcome"] and rollback[1]["outcome"] == "ok"
    assert "/memories/standing-orders.md" in rollback[0]["paths"]
    assert verify(log).ok
    # The rollback kept versions of its own, under a session of its own: it can be undone too.
    undone = [v for v in versions(storage) if v.caller == "rollback"]
    assert undone and {v.session for v in undone} == {f"rollback-{rollback[0]['decision_id']}"}
    assert all(v.principal == "ops" for v in undone)


def test_a_rollback_can_itself_be_rolled_back(storage: StorageAdapter) -> None:
    with Sandbox(policy=_policy(), storage=storage, audit=NullAuditSink()) as sandbox:
        _run(sandbox, "good-1")
        _run(sandbox, "poisoned-1")
        poisoned = snapshot(storage)
        first = run_rollback(sandbox, Selection(session="poisoned-1"))
        assert first.ok
        again = {v.session for v in versions(storage) if v.caller == "rollback"}
        (session,) = again
        assert run_rollback(sandbox, Selection(session=session)).ok
        assert snapshot(storage) == poisoned


def test_versions_carry_provenance_linked_to_the_chain(storage: StorageAdapter, tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    with Sandbox(policy=_policy(), storage=storage, audit=AuditLog.open(log)) as sandbox:
        _run(sandbox, "good-1")
    records = {r["decision_id"]: r for r in map(json.loads, log.read_text().splitlines()) if "decision_id" in r}
    kept = versions(storage)
    edit = next(v for v in kept if v.change == "edit" and v.path == "/memories/projects/atlas/notes.md")
    assert edit.content == b"# Atlas\nMigration to PostgreSQL 16 planned for March.\nOwner: Priya. Reviewer: Tom.\n"
    assert (edit.session, edit.principal, edit.caller) == ("good-1", "alice", "model")
    record = records[edit.decision_id]
    assert record["command"] == "str_replace"
    assert edit.content_digest is not None and edit.content_digest == record["content_hmac"]
    create = next(v for v in kept if v.change == "create" and v.path == "/memories/projects/atlas/notes.md")
    assert not create.existed and create.content is None
    assert create.made == ("/memories/projects", "/memories/projects/atlas")


def test_rollback_refuses_to_overwrite_a_later_session(storage: StorageAdapter) -> None:
    with Sandbox(policy=_policy(), storage=storage, audit=NullAuditSink()) as sandbox:
        _run(sandbox, "good-1")
        _run(sandbox, "poisoned-1")
        later = CallContext(principal="alice", session_id="good-2")
        fix = {"command": "str_replace", "path": "/memories/preferences.md", "old_str": "Answers", "new_str": "Replies"}
        assert not sandbox.execute(fix, later).is_error
        state = snapshot(storage)
        report = run_rollback(sandbox, Selection(session="poisoned-1"))
        assert not report.ok and "good-2" in report.error
        assert snapshot(storage) == state  # refused: nothing changed
        assert run_rollback(sandbox, Selection(session="poisoned-1"), force=True).ok
        restored = snapshot(storage)["preferences.md"] or b""
        assert b"Never share files outside the team drive." in restored
        assert b"standing-orders" not in restored


def test_rollback_since_a_time_and_of_one_decision(storage: StorageAdapter) -> None:
    with Sandbox(policy=_policy(), storage=storage, audit=NullAuditSink()) as sandbox:
        _run(sandbox, "good-1")
        before = snapshot(storage)
        cut = max(v.time for v in versions(storage))
        _run(sandbox, "poisoned-1")
        poisoned = [v for v in versions(storage) if v.session == "poisoned-1"]
        delete = next(v for v in poisoned if v.change == "delete")
        assert run_rollback(sandbox, Selection(decision=delete.decision_id)).ok
        assert snapshot(storage)["projects/atlas/notes.md"] == before["projects/atlas/notes.md"]
        assert "standing-orders.md" in snapshot(storage)  # other decisions stand
        assert run_rollback(sandbox, Selection(since=cut + 1e-6), force=True).ok
        assert snapshot(storage) == before


def test_a_flood_of_edits_keeps_the_state_from_before_the_session(storage: StorageAdapter) -> None:
    with Sandbox(policy=_policy(keep_versions=3), storage=storage, audit=NullAuditSink()) as sandbox:
        path = "/memories/notes.md"
        assert not sandbox.execute({"command": "create", "path": path, "file_text": "good\n"}).is_error
        flood = CallContext(session_id="flood")
        for n in range(12):
            edit = {"command": "str_replace", "path": path, "old_str": "\n", "new_str": f" {n}\n"}
            assert not sandbox.execute(edit, flood).is_error
        mine = [v for v in versions(storage) if v.path == path and v.session == "flood"]
        assert len(mine) <= 4  # three newest, and the first: the state from before the session
        assert mine[0].content == b"good\n"
        assert run_rollback(sandbox, Selection(session="flood")).ok
        assert storage.read(canonicalize(path)) == b"good\n"


def test_a_full_history_refuses_the_write_and_changes_nothing(storage: StorageAdapter) -> None:
    policy = _policy(max_bytes=4096)
    with Sandbox(policy=policy, storage=storage, audit=NullAuditSink()) as sandbox:
        for n in range(3):
            create = {"command": "create", "path": f"/memories/f{n}.md", "file_text": "x" * 1000}
            assert not sandbox.execute(create).is_error
        session = CallContext(session_id="s")
        refused = None
        for n in range(3):
            result = sandbox.execute({"command": "delete", "path": f"/memories/f{n}.md"}, session)
            if result.is_error:
                refused = (n, result)
                break
        assert refused is not None, "three deletes of 1,000 bytes fit a 4,096-byte history"
        n, result = refused
        assert "history of changes is full" in str(result.content)
        assert result.decision.error_code == HistoryFull.code
        assert storage.stat(canonicalize(f"/memories/f{n}.md")) is not None  # not deleted
        with storage.writing() as writer:
            assert isinstance(writer, Shelf)
            assert writer.shelf_bytes() <= 4096


def test_versions_are_never_addressable_by_the_model(storage: StorageAdapter) -> None:
    with Sandbox(policy=_policy(), storage=storage, audit=NullAuditSink()) as sandbox:
        _run(sandbox, "good-1")
        for path in ("/memories/.memory-sandbox/history", "/memories/.memory-sandbox"):
            result = sandbox.execute({"command": "view", "path": path})
            assert result.is_error
        with pytest.raises(PathDenied):
            canonicalize("/memories/.memory-sandbox/history")
        listing = str(sandbox.execute({"command": "view", "path": "/memories"}).content)
        assert "history" not in listing and ".memory-sandbox" not in listing


def test_history_off_keeps_nothing(storage: StorageAdapter) -> None:
    with Sandbox(policy=_policy(enabled=False), storage=storage, audit=NullAuditSink()) as sandbox:
        _run(sandbox, "good-1")
    assert versions(storage) == []


@pytest.fixture(params=[kind for kind in EVERY_STORE if kind != "memory"])
def erasable(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StorageAdapter]:
    """Every store that outlives its object (the in-memory one is erased by dropping it)."""
    yield from open_store(request, tmp_path)


def test_erasing_a_scope_erases_its_versions(erasable: StorageAdapter) -> None:
    storage = erasable
    erase = storage.erase  # type: ignore[attr-defined]
    with Sandbox(policy=_policy(), storage=storage, audit=NullAuditSink()) as sandbox:
        _run(sandbox, "good-1")
    assert versions(storage)
    erase()
    if isinstance(storage, LocalStorage):
        assert not Path(storage.root_path).exists()
    else:
        assert versions(storage) == []
