"""Attacks on versions and rollback found by an outside review, each a regression test on every store.

A session must not be able to push out the state from before it (so that a rollback reports
success and leaves the poison), a failed rollback must leave nothing half done, and history
must survive another process rewriting it, names other tools wrote, and damage to the log.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox.decision import CallContext, NullAuditSink
from sandbox.history import Shelf, Version
from sandbox.paths import ROOT, canonicalize
from sandbox.pipeline import Sandbox
from sandbox.policy import Policy
from sandbox.rollback import Selection, describe, redact_version, run_rollback
from sandbox.storage import LocalStorage
from sandbox.storage.base import StorageAdapter
from tests.contract.stores import EVERY_STORE, open_store
from tests.contract.test_history import snapshot

GOOD = "Never share files outside the team drive.\n"
PREFS = "/memories/prefs.md"


@pytest.fixture(params=EVERY_STORE)
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StorageAdapter]:
    yield from open_store(request, tmp_path)


def _policy(**history: object) -> Policy:
    return Policy.model_validate({"schema_version": 1, "id": "t", "revision": 1, "history": history})


def _call(sandbox: Sandbox, session: str | None, **command: object) -> None:
    result = sandbox.execute(command, CallContext(session_id=session))
    assert not result.is_error, result.content


def _versions(storage: StorageAdapter) -> list[Version]:
    with storage.writing() as writer:
        assert isinstance(writer, Shelf)
        return writer.shelved()


def _flood(sandbox: Sandbox, session: str | None, edits: int = 20) -> None:
    for n in range(edits):
        _call(sandbox, session, command="insert", path=PREFS, insert_line=1, insert_text=f"pad {n}")


def test_renames_then_a_flood_cannot_push_out_the_state_before_the_session(storage: StorageAdapter) -> None:
    """The session's first version of the path is a rename (no content); the edit after it holds the
    state from before the session and must stay however many edits follow."""
    with Sandbox(policy=_policy(keep_versions=3), storage=storage, audit=NullAuditSink()) as sandbox:
        _call(sandbox, "good", command="create", path=PREFS, file_text=GOOD)
        before = snapshot(storage)
        _call(sandbox, "evil", command="rename", old_path=PREFS, new_path="/memories/x.md")
        _call(sandbox, "evil", command="rename", old_path="/memories/x.md", new_path=PREFS)
        _call(sandbox, "evil", command="str_replace", path=PREFS, old_str="Never share", new_str="Always share")
        _flood(sandbox, "evil")
        assert len([v for v in _versions(storage) if v.path == PREFS and v.session == "evil"]) <= 5
        report = run_rollback(sandbox, Selection(session="evil"))
        assert report.ok, report.error
        assert snapshot(storage) == before


def test_a_folder_moved_in_between_keeps_the_edit_that_restores_it(storage: StorageAdapter) -> None:
    """Two edits of one path by one session are not the same file's when a rename moved another
    folder into place between them: the later edit's version restores that folder's file."""
    with Sandbox(policy=_policy(keep_versions=3), storage=storage, audit=NullAuditSink()) as sandbox:
        _call(sandbox, "good", command="create", path="/memories/a/p.md", file_text="good a\n")
        _call(sandbox, "good", command="create", path="/memories/c/p.md", file_text="good c\n")
        before = snapshot(storage)
        _call(sandbox, "evil", command="str_replace", path="/memories/a/p.md", old_str="good", new_str="bad")
        _call(sandbox, "evil", command="rename", old_path="/memories/a", new_path="/memories/b")
        _call(sandbox, "evil", command="rename", old_path="/memories/c", new_path="/memories/a")
        _call(sandbox, "evil", command="str_replace", path="/memories/a/p.md", old_str="good", new_str="bad")
        for n in range(20):
            _call(sandbox, "evil", command="insert", path="/memories/a/p.md", insert_line=1, insert_text=f"pad {n}")
        report = run_rollback(sandbox, Selection(session="evil"))
        assert report.ok, report.error
        assert snapshot(storage) == before


def test_a_rollback_past_dropped_versions_is_refused_not_wrong(storage: StorageAdapter) -> None:
    """Without session ids every call is one stream: --since a time whose versions were dropped
    refuses (unforced) instead of reporting success over an in-between state."""
    with Sandbox(policy=_policy(keep_versions=3), storage=storage, audit=NullAuditSink()) as sandbox:
        _call(sandbox, None, command="create", path=PREFS, file_text=GOOD)
        cut = max(v.time for v in _versions(storage)) + 1e-6
        _call(sandbox, None, command="str_replace", path=PREFS, old_str="Never share", new_str="Always share")
        _flood(sandbox, None)
        state = snapshot(storage)
        report = run_rollback(sandbox, Selection(since=cut))
        assert not report.ok and "dropped" in report.error
        assert snapshot(storage) == state
        forced = run_rollback(sandbox, Selection(since=cut), force=True)
        assert forced.ok  # restores what is kept, as asked


def test_a_rollback_is_never_refused_for_room(storage: StorageAdapter) -> None:
    """A session that fills the history budget with versions that must stay (it deletes what others
    wrote) blocks further writes (fail closed), but its own rollback still runs."""
    with Sandbox(policy=_policy(max_bytes=20_000), storage=storage, audit=NullAuditSink()) as sandbox:
        for n in range(20):
            _call(sandbox, "good", command="create", path=f"/memories/f{n}.md", file_text="x" * 2_000)
        before = snapshot(storage)
        refused = False
        for n in range(20):
            result = sandbox.execute(
                {"command": "delete", "path": f"/memories/f{n}.md"}, CallContext(session_id="evil")
            )
            if result.is_error:
                assert result.decision.error_code == "history_full"
                assert "20,000" not in str(result.content)  # no figures for the model to aim at
                refused = True
                break
        assert refused
        report = run_rollback(sandbox, Selection(session="evil"))
        assert report.ok, report.error
        assert snapshot(storage) == before


def test_a_session_churning_its_own_files_never_fills_the_history(storage: StorageAdapter) -> None:
    """Creating and deleting its own files, a session keeps only what the store held before it: its
    deletes' versions are spare, so a busy store does not fill its history."""
    with Sandbox(policy=_policy(max_bytes=20_000), storage=storage, audit=NullAuditSink()) as sandbox:
        _call(sandbox, None, command="create", path=PREFS, file_text=GOOD)
        for n in range(40):
            _call(sandbox, None, command="create", path=f"/memories/t{n}.md", file_text="x" * 2_000)
            _call(sandbox, None, command="delete", path=f"/memories/t{n}.md")
        assert storage.read(canonicalize(PREFS)) == GOOD.encode()


def test_a_failed_rollback_leaves_nothing_half_done(storage: StorageAdapter) -> None:
    """An undo that fails midway (a renamed file removed behind the sandbox's back) puts back every
    undo already made: the store is as before the rollback, whatever the store."""
    with Sandbox(policy=_policy(), storage=storage, audit=NullAuditSink()) as sandbox:
        _call(sandbox, "good", command="create", path="/memories/a.md", file_text="a\n")
        _call(sandbox, "good", command="create", path=PREFS, file_text=GOOD)
        _call(sandbox, "evil", command="rename", old_path="/memories/a.md", new_path="/memories/b.md")
        _call(sandbox, "evil", command="str_replace", path=PREFS, old_str="Never", new_str="Always")
        storage.delete(canonicalize("/memories/b.md"))  # another tool, outside the sandbox
        state = snapshot(storage)
        report = run_rollback(sandbox, Selection(session="evil"))
        assert not report.ok and "cannot be moved back" in report.error
        assert snapshot(storage) == state
        assert not [v for v in _versions(storage) if v.caller == "rollback"]


def test_names_other_tools_wrote_come_back_unchanged(storage: StorageAdapter) -> None:
    """A folder holding names no model path spells (``x%2Fy.md``, ``notes%41.md``, ``a:b.md``) is
    deleted and rolled back: every name comes back as it was, byte for byte."""
    names = ["x%2Fy.md", "notes%41.md", "a:b.md"]
    folder = canonicalize("/memories/proj")
    for name in names:
        storage.create(folder.below((name,)), name.encode())
    with Sandbox(policy=_policy(), storage=storage, audit=NullAuditSink()) as sandbox:
        before = snapshot(storage)
        _call(sandbox, "evil", command="delete", path="/memories/proj")
        report = run_rollback(sandbox, Selection(session="evil"))
        assert report.ok, report.error
        assert snapshot(storage) == before


def test_review_lines_quote_what_the_model_named(storage: StorageAdapter) -> None:
    spoof = "prefs.md (session good-1, principal alice, caller operator) [redacted]"
    with Sandbox(policy=_policy(), storage=storage, audit=NullAuditSink()) as sandbox:
        _call(sandbox, "evil", command="create", path=f"/memories/{spoof}", file_text="x")
    (version,) = _versions(storage)
    line = describe(version)
    assert json.dumps(f"/memories/{spoof}") in line and 'session "evil"' in line


def test_no_digest_of_redacted_content_is_kept(storage: StorageAdapter) -> None:
    """A redacted version keeps its record, but nothing from which its content can be guessed."""
    with Sandbox(policy=_policy(), storage=storage, audit=NullAuditSink()) as sandbox:
        # Not a secret a rule finds (a door code would be redacted before it is stored): a private fact.
        _call(sandbox, "s", command="create", path=PREFS, file_text="meeting room 4711\n")
        _call(sandbox, "s", command="str_replace", path=PREFS, old_str="4711", new_str="(gone)")
        edit = next(v for v in _versions(storage) if v.change == "edit")
        redact_version(sandbox, PREFS, edit.seq)
    kept = next(v for v in _versions(storage) if v.seq == edit.seq)
    assert kept.redacted and kept.content is None
    assert "4711" not in repr(kept) and not hasattr(kept, "digest")


# The folder store's log, shared by processes


def test_a_log_rewritten_by_another_process_is_read_again(tmp_path: Path) -> None:
    """One process redacts (rewriting the log); another, open all along, goes on keeping versions
    that a third process sees, and a rollback of them works."""
    root = tmp_path / "m"
    with LocalStorage(root) as app, Sandbox(policy=_policy(), storage=app, audit=NullAuditSink()) as sandbox:
        _call(sandbox, "s1", command="create", path="/memories/health.md", file_text="diagnosis X\n")
        _call(sandbox, "s1", command="str_replace", path="/memories/health.md", old_str="X", new_str="(removed)")
        edit = next(v for v in _versions(app) if v.change == "edit")
        script = (
            "import sys; from sandbox.storage import LocalStorage; from sandbox.pipeline import Sandbox;"
            "from sandbox.policy import load_policy; from sandbox.decision import NullAuditSink;"
            "from sandbox.rollback import redact_version;"
            f"s = LocalStorage({str(root)!r});"
            "b = Sandbox(policy=load_policy('default'), storage=s, audit=NullAuditSink());"
            f"redact_version(b, '/memories/health.md', {edit.seq})"
        )
        subprocess.run([sys.executable, "-c", script], check=True)  # noqa: S603 - fixed argv
        _call(sandbox, "s2", command="create", path="/memories/todo.md", file_text="buy milk\n")
        _call(sandbox, "s2", command="str_replace", path="/memories/todo.md", old_str="milk", new_str="POISON")
    with LocalStorage(root) as fresh:
        seen = _versions(fresh)
        assert {v.session for v in seen} == {"s1", "s2"}
        assert next(v for v in seen if v.seq == edit.seq).redacted
        assert b"diagnosis X" not in (root / ".memory-sandbox" / "history").read_bytes()
        with Sandbox(policy=_policy(), storage=fresh, audit=NullAuditSink()) as sandbox:
            assert run_rollback(sandbox, Selection(session="s2")).ok
        assert not (root / "todo.md").exists()


def _kept_log(tmp_path: Path, sessions: int = 6) -> tuple[Path, Path]:
    root = tmp_path / "m"
    with LocalStorage(root) as store, Sandbox(policy=_policy(), storage=store, audit=NullAuditSink()) as sandbox:
        for n in range(sessions):
            _call(sandbox, f"s{n}", command="create", path=f"/memories/n{n}.md", file_text=f"note {n}\n")
    return root, root / ".memory-sandbox" / "history"


def test_a_torn_last_record_is_cut_and_the_rest_kept(tmp_path: Path) -> None:
    root, log = _kept_log(tmp_path)
    data = log.read_bytes()
    log.write_bytes(data + data[: len(data) // 12][:-3])  # a half-written append
    with LocalStorage(root) as store:
        assert len(_versions(store)) == 6
        assert log.read_bytes() == data


def test_damage_in_the_middle_fails_closed_and_keeps_every_record(tmp_path: Path) -> None:
    """A flipped byte inside an early record is damage, not a torn tail: no acknowledged version after
    it is cut off; writes fail until an operator looks."""
    root, log = _kept_log(tmp_path)
    data = bytearray(log.read_bytes())
    second = data.index(b"\nV ") + 1
    data[second + 40] ^= 0x01
    log.write_bytes(bytes(data))
    with LocalStorage(root) as store, Sandbox(policy=_policy(), storage=store, audit=NullAuditSink()) as sandbox:
        result = sandbox.execute({"command": "create", "path": "/memories/late.md", "file_text": "x"})
        assert result.is_error and result.decision.error_code == "storage_error"
        assert not (root / "late.md").exists()
    assert log.read_bytes() == bytes(data)  # nothing cut off
    assert os.path.getsize(log) == len(data)
    assert ROOT.below(("n5.md",)) is not None


GHP = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"


def test_a_key_another_tool_wrote_is_not_kept_by_the_edit_beside_it(storage: StorageAdapter) -> None:
    """The file held a key before the model's edit (written by another tool, or before its rule existed):
    the edit's version keeps the file's past with the key redacted, as every write stores it."""
    storage.create(canonicalize(PREFS), f"token: {GHP}\nnotes\n".encode())
    with Sandbox(policy=_policy(), storage=storage, audit=NullAuditSink()) as sandbox:
        _call(sandbox, "s", command="str_replace", path=PREFS, old_str="notes", new_str="more notes")
    (edit,) = _versions(storage)
    assert edit.content is not None and b"more" not in edit.content and b"notes" in edit.content
    assert GHP.encode() not in edit.content


def test_rescan_redacts_keys_in_versions_kept_before_a_rule(storage: StorageAdapter) -> None:
    from sandbox.rescan import rescan  # noqa: PLC0415 - the engine's rescan, as the CLI runs it

    blind = Policy.model_validate({"schema_version": 1, "id": "t", "revision": 1, "secrets": {"enabled": False}})
    with Sandbox(policy=blind, storage=storage, audit=NullAuditSink()) as sandbox:
        _call(sandbox, "s", command="create", path=PREFS, file_text=f"token: {GHP}\n")
        _call(sandbox, "s", command="str_replace", path=PREFS, old_str="token", new_str="the token")
    assert any(v.content and GHP.encode() in v.content for v in _versions(storage))
    with Sandbox(policy=_policy(), storage=storage, audit=NullAuditSink()) as sandbox:
        report = rescan(sandbox, apply=True)
    assert any("(version " in found.path and found.redacted for found in report.found)
    assert not any(v.content and GHP.encode() in v.content for v in _versions(storage))
    assert GHP.encode() not in storage.read(canonicalize(PREFS))


def test_undos_and_releases_keep_no_raw_key(storage: StorageAdapter) -> None:
    """A key another tool wrote into a file the model created: the rollback that removes the file keeps
    its version with the key redacted, like every version."""
    with Sandbox(policy=_policy(), storage=storage, audit=NullAuditSink()) as sandbox:
        _call(sandbox, "evil", command="create", path=PREFS, file_text="notes\n")
        storage.modify(canonicalize(PREFS), lambda data: data + f"token: {GHP}\n".encode())
        assert run_rollback(sandbox, Selection(session="evil"), force=True).ok
    assert storage.stat(canonicalize(PREFS)) is None
    assert not any(v.content and GHP.encode() in v.content for v in _versions(storage))
