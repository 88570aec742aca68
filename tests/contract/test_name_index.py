"""Twins found by an index of folded names, not by listing the folder, and never missed for it.

A create or rename refuses a name that differs only in case, or only by look-alike
letters, from a sibling. Stores keep their names under look-alike keys (local files:
per folder, between write sessions; SQL: an indexed column), so the check costs a
few lookups whatever the folder's size. These tests show the index is used (no
listing after the first) and never stale: after renames, deletes, folders made on
the way, writes by another store object or process, files planted behind the
store's back, and rows written before the index existed.
"""

from __future__ import annotations

import fcntl
import os
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sandbox import Sandbox, canonicalize
from sandbox.decision import ListAuditSink
from sandbox.names import lookalike_key
from sandbox.policy import load_policy
from sandbox.storage import LocalStorage
from sandbox.storage import _keys as keys_module
from sandbox.storage.base import StorageAdapter
from sandbox.storage.postgres import PostgresDatabase
from sandbox.storage.sql import SqlStorage
from sandbox.storage.sqlite import SQLiteDatabase
from tests.contract.stores import EVERY_STORE, open_store

Call = Callable[..., tuple[bool, str]]


@pytest.fixture(params=EVERY_STORE)
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StorageAdapter]:
    yield from open_store(request, tmp_path)


@pytest.fixture(params=["local", "sqlite", "postgres"])
def indexed(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StorageAdapter]:
    """The stores that index names (the in-memory one lists a dictionary's keys)."""
    yield from open_store(request, tmp_path)


def caller(storage: StorageAdapter) -> Call:
    box = Sandbox(policy=load_policy("default"), storage=storage, audit=ListAuditSink())

    def call(**command: Any) -> tuple[bool, str]:
        result = box.execute(command)
        return result.is_error, str(result.content)

    return call


def refused(result: tuple[bool, str]) -> bool:
    return result[0] and ("differs only in case from" in result[1] or "looks like" in result[1])


def test_index_follows_every_change(storage: StorageAdapter) -> None:
    """Renames, deletes and folders made on the way change which names are twins, on every store."""
    call = caller(storage)
    assert not call(command="create", path="/memories/a.md", file_text="x")[0]
    assert not call(command="rename", old_path="/memories/a.md", new_path="/memories/b.md")[0]
    assert not call(command="create", path="/memories/A.md", file_text="x")[0]  # a.md is gone
    assert refused(call(command="create", path="/memories/B.md", file_text="x"))
    assert not call(command="delete", path="/memories/b.md")[0]
    assert not call(command="create", path="/memories/B.md", file_text="x")[0]
    # A folder made by a create is a sibling like any other, and moves with a rename.
    assert not call(command="create", path="/memories/dir/x.md", file_text="x")[0]
    assert refused(call(command="create", path="/memories/DIR/y.md", file_text="x"))
    assert refused(call(command="create", path="/memories/d\u0456r/y.md", file_text="x"))  # Cyrillic i
    assert not call(command="rename", old_path="/memories/dir", new_path="/memories/moved")[0]
    assert not call(command="create", path="/memories/DIR/y.md", file_text="x")[0]
    assert refused(call(command="create", path="/memories/MOVED", file_text="x"))
    # Inside a moved folder, its names came along.
    assert refused(call(command="create", path="/memories/moved/X.md", file_text="x"))
    # A rename to a twin of its own old name in the same folder is not a twin of itself.
    assert not call(command="rename", old_path="/memories/B.md", new_path="/memories/b.md")[0]
    assert refused(call(command="rename", old_path="/memories/A.md", new_path="/memories/Moved"))


@pytest.mark.parametrize(
    ("existing", "twin"),
    [
        ("cat.md", "\u03f2at.md"),  # Greek lunate sigma: NFKC and case folding made it look like an o
        ("bob.md", "\u042cob.md"),  # Cyrillic soft sign, listed only under the letter it looks like
        ("log.md", "\u04c0og.md"),  # Cyrillic palochka
        ("\u2764.md", "\u2764\ufe0f.md"),  # the same emoji in its emoji presentation
    ],
)
def test_look_alikes_the_data_lists_either_way(storage: StorageAdapter, existing: str, twin: str) -> None:
    """Look-alikes the confusables data lists under either character, or that normalising or case
    folding turns into another letter's look-alike, are twins."""
    call = caller(storage)
    assert not call(command="create", path=f"/memories/{existing}", file_text="x")[0]
    assert refused(call(command="create", path=f"/memories/{twin}", file_text="x"))


def _count_listings(storage: StorageAdapter, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A counter of folder listings the store makes from now on."""
    listings = [0]
    if isinstance(storage, LocalStorage):
        listdir = os.listdir

        def counted(*args: Any, **kwargs: Any) -> list[str]:
            listings[0] += 1
            return listdir(*args, **kwargs)

        monkeypatch.setattr(os, "listdir", counted)
    else:
        assert isinstance(storage, SqlStorage)
        names = SqlStorage._names

        def counted_names(self: SqlStorage, cur: Any, path: Any) -> list[str]:
            listings[0] += 1
            return names(self, cur, path)

        monkeypatch.setattr(SqlStorage, "_names", counted_names)
    return listings


def test_creates_list_no_folder(indexed: StorageAdapter, monkeypatch: pytest.MonkeyPatch) -> None:
    """Creates and renames in a folder of 300 files list it at most once (the first, to index it)."""
    storage = indexed
    call = caller(storage)
    for n in range(300):
        assert not call(command="create", path=f"/memories/big/n{n}.md", file_text="x")[0]
    listings = _count_listings(storage, monkeypatch)
    for n in range(300, 340):
        assert not call(command="create", path=f"/memories/big/n{n}.md", file_text="x")[0]
    assert not call(command="rename", old_path="/memories/big/n3.md", new_path="/memories/big/m3.md")[0]
    assert refused(call(command="create", path="/memories/big/N7.md", file_text="x"))
    assert listings[0] <= 1, listings


class TestLocalKeysNeverStale:
    def test_other_store_objects_seen_by_generation(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """A twin written through another store object (another process, say) is seen, even when
        the folder's times say nothing changed: every write session moves the store's generation."""
        monkeypatch.setattr(keys_module, "_signature", lambda folder: (0, 0, 0))  # times tell nothing
        with LocalStorage(tmp_path / "s", durability="none") as one, LocalStorage(tmp_path / "s") as two:
            first, second = caller(one), caller(two)
            assert not first(command="create", path="/memories/a.md", file_text="x")[0]  # one keeps the keys
            assert not second(command="create", path="/memories/b.md", file_text="x")[0]
            assert refused(first(command="create", path="/memories/B.md", file_text="x"))
            assert not second(command="delete", path="/memories/b.md")[0]
            assert not first(command="create", path="/memories/B.md", file_text="x")[0]

    def test_file_planted_behind_the_store_seen_by_the_folder_times(self, tmp_path: Path) -> None:
        """A twin planted by another tool (no write session) is seen: the folder changed under the keys."""
        with LocalStorage(tmp_path / "s", durability="none") as store:
            call = caller(store)
            assert not call(command="create", path="/memories/sub/a.md", file_text="x")[0]
            assert not call(command="create", path="/memories/sub/b.md", file_text="x")[0]  # keys kept
            (tmp_path / "s" / "sub" / "planted.md").write_text("x")
            assert refused(call(command="create", path="/memories/sub/PLANTED.md", file_text="x"))
            (tmp_path / "s" / "sub" / "planted.md").unlink()
            assert not call(command="create", path="/memories/sub/PLANTED.md", file_text="x")[0]

    def test_file_planted_before_a_delete_still_seen(self, tmp_path: Path) -> None:
        """A delete right after a plant (no listing between) does not take the planted name's absence
        for the store's own change: the keys of a folder changed behind its back are dropped."""
        with LocalStorage(tmp_path / "s", durability="none") as store:
            call = caller(store)
            assert not call(command="create", path="/memories/sub/a.md", file_text="x")[0]
            assert not call(command="create", path="/memories/sub/b.md", file_text="x")[0]  # keys kept
            (tmp_path / "s" / "sub" / "planted.md").write_text("x")
            assert not call(command="delete", path="/memories/sub/a.md")[0]
            assert refused(call(command="create", path="/memories/sub/PLANTED.md", file_text="x"))

    def test_forked_store_object_takes_its_own_lock(self, tmp_path: Path) -> None:
        """A store object inherited across fork locks on a description of its own: while the child
        holds the store's lock the parent cannot take it (before, both held it at once, and the
        parent kept keys that missed the child's write)."""
        with LocalStorage(tmp_path / "s", durability="none") as store:
            caller(store)(command="create", path="/memories/a.md", file_text="x")
            entered, release = os.pipe(), os.pipe()
            pid = os.fork()
            if pid == 0:  # the child: hold the lock until the parent has looked
                code = 1
                try:
                    with store.writing():
                        os.write(entered[1], b"in")
                        os.read(release[0], 1)
                    code = 0
                finally:
                    os._exit(code)
            try:
                assert os.read(entered[0], 2) == b"in"
                with pytest.raises(BlockingIOError):
                    fcntl.flock(store._state_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            finally:
                os.write(release[1], b"x")
                assert os.waitpid(pid, 0)[1] == 0
            for fd in (*entered, *release):
                os.close(fd)

    def test_failed_session_drops_the_keys(self, tmp_path: Path) -> None:
        """A session that fails in the backend leaves nothing kept: the next one lists again."""
        with LocalStorage(tmp_path / "s", durability="none") as store:
            call = caller(store)
            assert not call(command="create", path="/memories/a.md", file_text="x")[0]
            with pytest.raises(RuntimeError), store.writing():
                raise RuntimeError("the backend failed midway")
            assert store._keys.generation is None
            assert refused(call(command="create", path="/memories/A.md", file_text="x"))

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(
        st.lists(
            st.tuples(
                st.sampled_from(["create", "rename", "delete", "plant"]),
                st.sampled_from(["", "d/", "D/", "d/e/"]),
                st.sampled_from(["a", "A", "\u0430", "b", "B", "d", "D", "e"]),
                st.sampled_from(["", "d/", "D/"]),
                st.sampled_from(["a", "A", "b", "\u0432", "e"]),
            ),
            max_size=25,
        )
    )
    def test_keys_equal_a_fresh_listing(self, tmp_path_factory: pytest.TempPathFactory, steps: list[Any]) -> None:
        """After any sequence of writes (and files planted behind the store's back), every folder's
        kept keys give what a fresh listing gives."""
        root = tmp_path_factory.mktemp("keys")
        with LocalStorage(root, durability="none") as store:
            for action, folder, name, other_folder, other_name in steps:
                path, other = f"/memories/{folder}{name}", f"/memories/{other_folder}{other_name}"
                with store.writing() as writer:
                    try:
                        if action == "create":
                            writer.put(canonicalize(path), b"x", new=True)
                        elif action == "rename":
                            writer.move(canonicalize(path), canonicalize(other))
                        elif action == "delete":
                            writer.remove(canonicalize(path))
                        else:
                            (root / folder).mkdir(parents=True, exist_ok=True)
                            (root / folder / name).write_text("x")
                    except Exception:  # noqa: BLE001, S110 - refusals (missing, taken, a file on the way) change nothing
                        pass
                with store.writing() as writer:
                    for dirpath, dirnames, filenames in os.walk(root):
                        dirnames[:] = [d for d in dirnames if not d.startswith(".memory-sandbox")]
                        relative = os.path.relpath(dirpath, root)
                        folder_path = canonicalize("/memories" if relative == "." else f"/memories/{relative}")
                        listed = [n for n in dirnames + filenames if not n.startswith(".memory-sandbox")]
                        for probe in {*listed, "a", "A", "b", "d", "e", "\u0430"}:
                            key = lookalike_key(probe)
                            expected = sorted(n for n in listed if lookalike_key(n) == key)
                            assert writer.alike(folder_path, key) == expected, (folder_path, probe)  # type: ignore[attr-defined]


class TestSqlRowsWithoutKeys:
    @pytest.fixture(params=["sqlite", "postgres"])
    def sql(self, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[SqlStorage, Callable[[str], None]]]:
        if request.param == "sqlite":
            with SQLiteDatabase(tmp_path / "memory.db", durability="none") as database:
                storage = database.storage("s")
                yield storage, lambda sql: storage._transact(lambda cur: cur.run(sql), write=True)
        else:
            dsn = request.getfixturevalue("pg_dsn")
            with PostgresDatabase(dsn, max_size=2) as database:
                storage = database.storage(uuid.uuid4().hex)
                yield storage, lambda sql: storage._transact(lambda cur: cur.run(sql), write=True)

    def test_rows_written_before_the_index_are_keyed_when_read(
        self, sql: tuple[SqlStorage, Callable[[str], None]]
    ) -> None:
        """Rows of a database written before names were keyed (look_key NULL) still make twins."""
        storage, run = sql
        call = caller(storage)
        assert not call(command="create", path="/memories/notes.md", file_text="x")[0]
        assert not call(command="create", path="/memories/dir/x.md", file_text="x")[0]
        run("UPDATE memory_entries SET look_key = NULL")
        assert refused(call(command="create", path="/memories/NOTES.md", file_text="x"))
        assert refused(call(command="create", path="/memories/n\u043etes.md", file_text="x"))
        assert refused(call(command="create", path="/memories/Dir/y.md", file_text="x"))
        assert not call(command="create", path="/memories/other.md", file_text="x")[0]
