"""A ``file:`` store's layout: no folder a model sees as /memories holds another scope's memory, an
audit file or a key; what a folder is comes from its manifest; the older layout is refused until
migrated, and migrates whole.

Before the layout, ``--store file:DIR --scope alice`` kept alice's memory in ``DIR/alice`` and her
log, witness and keys in ``DIR``: any command run on ``DIR`` without a scope opened it as memory,
and the model there could read alice's notes and overwrite her signing key.
"""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from sandbox import Sandbox, load_policy
from sandbox.audit import AuditLog, verify
from sandbox.errors import StorageError
from sandbox.paths import canonicalize
from sandbox.storage import LocalStorage
from sandbox.storage.layout import migrate_first_layout, read_manifest
from sandbox.storage.sqlite import SQLiteStorage
from tests.unit.test_cli import run

NOTES = canonicalize("/memories/notes.md")


def _sandbox(store: LocalStorage) -> Sandbox:
    return Sandbox(policy=load_policy("default"), storage=store)


def first_layout(base: Path, scopes: tuple[str, ...] = ("alice", "bob")) -> Path:
    """A folder of scopes as the first layout left it: ``base/<scope>/`` side by side with
    ``base/<scope>.audit.jsonl`` and its witness, lock and keys, and no manifests."""
    for scope in scopes:
        with LocalStorage(base / scope) as store:
            store.create(NOTES, f"{scope}'s notes\n".encode())
        (base / scope / ".memory-sandbox" / "manifest.json").unlink()
        log = AuditLog.open(base / f"{scope}.audit.jsonl")
        sandbox = Sandbox(policy=load_policy("default"), storage=LocalStorage(base / "scratch"), audit=log)
        sandbox.execute({"command": "view", "path": "/memories"})
        sandbox.close()
        log.close()  # the closing checkpoint, in the log and its witness
    shutil.rmtree(base / "scratch")
    return base


class TestLayout:
    def test_scopes_live_apart_from_their_logs_and_keys(self, tmp_path: Path) -> None:
        """Memory under scopes/<name>/, logs and keys under audit/ (0700): nothing but memory and the
        store's control folder in any folder a model sees."""
        base = tmp_path / "fleet"
        for scope in ("alice", "bob"):
            store = LocalStorage.for_scope(base, scope)
            sandbox = _sandbox(store)
            sandbox.execute({"command": "create", "path": "/memories/notes.md", "file_text": f"{scope}\n"})
            sandbox.close()
            store.close()
            assert store.audit_path == str(base / "audit" / f"{scope}.audit.jsonl")
        assert sorted(p.name for p in base.iterdir()) == [".memory-sandbox", "audit", "scopes"]
        for scope in ("alice", "bob"):
            assert sorted(p.name for p in (base / "scopes" / scope).iterdir()) == [".memory-sandbox", "notes.md"]
        logs = sorted(p.name for p in (base / "audit").iterdir())
        assert "alice.audit.jsonl" in logs and "alice.audit.jsonl.key" in logs
        assert (base / "audit").stat().st_mode & 0o777 == 0o700
        assert (base / "audit" / "alice.audit.jsonl.key").stat().st_mode & 0o077 == 0
        assert read_manifest(str(base)).kind == "scopes"  # type: ignore[union-attr]
        manifest = read_manifest(str(base / "scopes" / "alice"))
        assert manifest is not None and (manifest.kind, manifest.scope) == ("memory", "alice")

    def test_a_folder_of_scopes_is_never_opened_as_memory(self, tmp_path: Path) -> None:
        base = tmp_path / "fleet"
        LocalStorage.for_scope(base, "alice").close()
        with pytest.raises(StorageError, match="holds the scopes of a multi-scope store"):
            LocalStorage(base)

    def test_a_memory_folder_never_holds_scopes(self, tmp_path: Path) -> None:
        """A store's memory folder (this layout, or a store from before manifests) takes no scopes."""
        LocalStorage(tmp_path / "memory").close()
        with pytest.raises(StorageError, match="is the memory of one store"):
            LocalStorage.for_scope(tmp_path / "memory", "alice")
        LocalStorage(tmp_path / "older").close()
        (tmp_path / "older" / ".memory-sandbox" / "manifest.json").unlink()
        with pytest.raises(StorageError, match="is the memory of one store"):
            LocalStorage.for_scope(tmp_path / "older", "alice")

    def test_no_store_inside_another_stores_memory(self, tmp_path: Path) -> None:
        """A store (or a folder of scopes) inside another store's memory, at any depth, is refused:
        the outer store's model would see its files, log and keys."""
        LocalStorage(tmp_path / "outer").close()
        with pytest.raises(StorageError, match="lies inside the memory of store outer"):
            LocalStorage(tmp_path / "outer" / "deep" / "er" / "inner")
        with pytest.raises(StorageError, match="lies inside the memory of store outer"):
            LocalStorage.for_scope(tmp_path / "outer" / "x" / "fleet", "alice")
        assert sorted(p.name for p in (tmp_path / "outer").iterdir()) == [".memory-sandbox"]  # nothing made

    def test_no_folder_holding_a_store_deep_down_becomes_a_store(self, tmp_path: Path) -> None:
        """The other way round: a folder with a store anywhere below it (made first) is never claimed as
        memory or as a folder of scopes, since its model or scopes would reach that store's files."""
        LocalStorage(tmp_path / "top" / "a" / "b" / "inner").close()
        LocalStorage.for_scope(tmp_path / "top2" / "x" / "y" / "fleet", "alice").close()
        for outer in (tmp_path / "top", tmp_path / "top2"):
            with pytest.raises(StorageError, match="holds the folder of another store"):
                LocalStorage(outer)
            with pytest.raises(StorageError, match="holds the folder of another store"):
                LocalStorage.for_scope(outer, "bob")
            assert not (outer / ".memory-sandbox").exists()  # nothing claimed

    def test_a_database_store_and_a_folder_store_never_nest(self, tmp_path: Path) -> None:
        """A folder holding a SQLite store with its decision log is not claimed as memory (its model
        would read the log and empty the rate file); a SQLite database inside memory is refused."""
        with Sandbox(policy=load_policy("default"), storage=SQLiteStorage(tmp_path / "top" / "data" / "m.db")) as box:
            assert not box.execute({"command": "create", "path": "/memories/a.md", "file_text": "x"}).is_error
        with pytest.raises(StorageError, match="holds the folder of another store"):
            LocalStorage(tmp_path / "top")
        LocalStorage(tmp_path / "memory").close()
        with pytest.raises(StorageError, match="lies inside the memory of store memory"):
            SQLiteStorage(tmp_path / "memory" / "sub" / "m.db")
        assert not (tmp_path / "memory" / "sub").exists()

    def test_a_model_cannot_make_its_folder_look_like_scopes(self, tmp_path: Path) -> None:
        """What marks a folder is under the store's reserved name, which no model path can spell, so
        nothing a model writes makes its own store unopenable or another's readable."""
        store = LocalStorage(tmp_path / "memory")
        sandbox = _sandbox(store)
        for path in ("/memories/scopes/alice/notes.md", "/memories/audit/x.audit.jsonl", "/memories/x/.memory-sandbox"):
            sandbox.execute({"command": "create", "path": path, "file_text": "x"})
        assert sandbox.execute({"command": "create", "path": "/memories/.memory-sandbox/manifest.json",
                                "file_text": '{"kind": "scopes", "layout": 2}'}).is_error  # fmt: skip
        sandbox.close()
        store.close()
        LocalStorage(tmp_path / "memory").close()
        assert read_manifest(str(tmp_path / "memory")).kind == "memory"  # type: ignore[union-attr]

    def test_damaged_or_newer_manifests_are_refused(self, tmp_path: Path) -> None:
        LocalStorage(tmp_path / "m").close()
        manifest = tmp_path / "m" / ".memory-sandbox" / "manifest.json"
        manifest.write_text("{not json")
        with pytest.raises(StorageError, match="damaged"):
            LocalStorage(tmp_path / "m")
        manifest.write_text(json.dumps({"kind": "memory", "layout": 99}))
        with pytest.raises(StorageError, match="layout 99"):
            LocalStorage(tmp_path / "m")


class TestFirstLayout:
    def test_refused_both_ways_until_migrated(self, tmp_path: Path) -> None:
        """The older layout opens neither as memory (a model there would read every scope) nor as
        scopes; both errors name the command that migrates it."""
        base = first_layout(tmp_path / "fleet")
        with pytest.raises(StorageError, match="store migrate --store file:fleet"):
            LocalStorage(base)
        with pytest.raises(StorageError, match="store migrate --store file:fleet"):
            LocalStorage.for_scope(base, "alice")

    def test_unscoped_replay_reads_nothing_of_the_scopes(self, tmp_path: Path) -> None:
        """Through the CLI: a session run on the folder without a scope is refused before any call."""
        first_layout(tmp_path / "fleet")
        session = tmp_path / "s.jsonl"
        session.write_text(json.dumps({"input": {"command": "view", "path": "/memories/alice/notes.md"}}) + "\n")
        result = run("replay", str(session), "--store", "file:fleet", cwd=tmp_path)
        assert result.returncode != 0 and "alice's notes" not in result.stdout
        assert "store migrate" in result.stderr and "Traceback" not in result.stderr

    def test_migrates_whole_and_verifies(self, tmp_path: Path) -> None:
        base = first_layout(tmp_path / "fleet")
        result = run("store", "migrate", "--store", "file:fleet", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert "moved 2 scopes" in result.stdout
        assert sorted(p.name for p in base.iterdir()) == [".memory-sandbox", "audit", "scopes"]
        for scope in ("alice", "bob"):
            store = LocalStorage.for_scope(base, scope)
            assert store.read(NOTES) == f"{scope}'s notes\n".encode()
            store.close()
            log = base / "audit" / f"{scope}.audit.jsonl"
            report = verify(log)
            assert report.ok and report.witnessed >= 1 and Path(f"{log}.key").exists(), report
        again = run("store", "migrate", "--store", "file:fleet", cwd=tmp_path)
        assert again.returncode == 0 and "nothing moved" in again.stdout
        with pytest.raises(StorageError, match="holds the scopes"):
            LocalStorage(base)

    def test_memory_of_no_scope_is_not_moved_or_lost(self, tmp_path: Path) -> None:
        """Files written in the folder itself (a session run there without a scope) belong to no scope:
        migration stops and names them; nothing is moved."""
        base = first_layout(tmp_path / "fleet")
        (base / "stray.md").write_text("written without a scope\n")
        with pytest.raises(StorageError, match=r"1 entries of no scope \(stray.md\)"):
            migrate_first_layout(str(base))
        assert (base / "alice" / "notes.md").exists() and (base / "alice.audit.jsonl").exists()


class TestReviewFindings:
    """Each found by an outside review of the layout; each failed before its fix."""

    def test_a_scopes_audit_folder_and_scopes_folder_never_open_as_memory(self, tmp_path: Path) -> None:
        base = tmp_path / "fleet"
        LocalStorage.for_scope(base, "alice").close()
        for inside in (base / "audit", base / "scopes", base / "audit" / "x", base / "other"):
            with pytest.raises(StorageError, match="lies inside the folder of scopes fleet"):
                LocalStorage(inside)
        with pytest.raises(StorageError, match="lies inside the memory of store alice"):
            LocalStorage(base / "scopes" / "alice" / "x")
        with pytest.raises(StorageError, match="lies inside the folder of scopes"):
            LocalStorage.for_scope(base / "scopes" / "x", "bob")

    def test_a_symbolic_link_does_not_hide_an_enclosing_memory(self, tmp_path: Path) -> None:
        LocalStorage(tmp_path / "memory").close()
        (tmp_path / "memory" / "sub").mkdir()
        (tmp_path / "link").symlink_to(tmp_path / "memory" / "sub")
        with pytest.raises(StorageError, match="lies inside the memory of store memory"):
            LocalStorage.for_scope(tmp_path / "link" / "fleet", "bob")

    @pytest.mark.parametrize("named", ["audit", "scopes"])
    def test_migrating_scopes_named_like_the_layout_keeps_them_apart(self, tmp_path: Path, named: str) -> None:
        base = first_layout(tmp_path / "fleet", ("alice", named))
        assert sorted(migrate_first_layout(str(base))) == sorted(["alice", named])
        assert sorted(p.name for p in (base / "scopes").iterdir()) == sorted(["alice", named])
        assert sorted(p.name for p in (base / "scopes" / named).iterdir()) == [".memory-sandbox", "notes.md"]
        assert (base / "audit" / "alice.audit.jsonl.key").exists() and (
            base / "audit" / f"{named}.audit.jsonl"
        ).exists()
        store = LocalStorage.for_scope(base, named)
        assert store.read(NOTES) == f"{named}'s notes\n".encode()
        store.close()

    def test_racing_claims_never_put_memory_over_scopes(self, tmp_path: Path) -> None:
        """A folder claimed at once as memory and as scopes ends as one of them, whole."""
        for trial in range(30):
            folder = tmp_path / f"race{trial}"
            errors: list[BaseException] = []

            def attempt(opener: Callable[[], LocalStorage], errors: list[BaseException] = errors) -> None:
                try:
                    opener().close()
                except StorageError as exc:
                    errors.append(exc)

            threads = [
                threading.Thread(target=attempt, args=(lambda f=folder: LocalStorage.for_scope(f, "alice"),)),
                threading.Thread(target=attempt, args=(lambda f=folder: LocalStorage(f),)),
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            manifest = read_manifest(str(folder))
            assert manifest is not None and len(errors) == 1, (trial, errors)
            children = {p.name for p in folder.iterdir()}
            assert (manifest.kind == "memory") == ("scopes" not in children and "audit" not in children), trial


def test_names_in_a_refused_migration_are_shown_escaped(tmp_path: Path) -> None:
    """A name written at the top of the folder (by another tool, or a session run there) reaches the
    operator's terminal only escaped."""
    base = first_layout(tmp_path / "fleet", ("alice",))
    (base / "\x1b[2Jerase.md").write_text("x")
    with pytest.raises(StorageError) as refused:
        migrate_first_layout(str(base))
    assert "\x1b" not in str(refused.value) and "\\x1b[2Jerase.md" in str(refused.value)
