"""The six storage operations over SQL, shared by :mod:`sqlite` and :mod:`postgres`.

Files and folders are rows keyed by ``(scope, path)``, where ``path`` is the
canonical path below ``/memories`` ("a/b.md"; the root is implicit). Every
operation is one transaction. Writes first lock the scope's usage row, so writers
of one scope, on any machine, take turns: the quota check and the write happen
together, and no edit is lost. ``create`` and ``rename`` rely on the primary key,
not on a check before acting, to never overwrite. Every query names the scope.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Final, TypeAlias, TypeVar

from sandbox.errors import AlreadyExists, NotADirectory, NotAFile, NotFound, QuotaExceeded, SandboxError, StorageError
from sandbox.paths import MemoryPath
from sandbox.storage.base import DIR_SIZE, Edit, Entry, Quota, Usage

__all__ = ["SCHEMA", "Cursor", "Migration", "SqlStorage", "migrate"]

_T = TypeVar("_T")

#: A named schema change: applied once, in order, recorded in ``memory_schema``.
Migration: TypeAlias = tuple[str, tuple[str, ...]]

#: The storage tables. ``{text}`` and ``{blob}`` are the dialect's types; text must
#: compare and sort by code point (bytes of UTF-8), as the other adapters sort names.
SCHEMA: Final[tuple[Migration, ...]] = (
    (
        "storage-1",
        (
            "CREATE TABLE memory_entries ("
            " scope {text} NOT NULL, path {text} NOT NULL, parent {text} NOT NULL, name {text} NOT NULL,"
            " is_dir BOOLEAN NOT NULL, content {blob}, size BIGINT NOT NULL DEFAULT 0,"
            " modified DOUBLE PRECISION NOT NULL, PRIMARY KEY (scope, path))",
            "CREATE INDEX memory_entries_folder ON memory_entries (scope, parent, name)",
            "CREATE TABLE memory_usage ("
            " scope {text} PRIMARY KEY, bytes BIGINT NOT NULL DEFAULT 0, files BIGINT NOT NULL DEFAULT 0)",
        ),
    ),
)


def migrate(cur: Cursor, migrations: tuple[Migration, ...], types: dict[str, str]) -> list[str]:
    """Apply the migrations not yet recorded, inside the caller's (locked) transaction; return their names."""
    cur.run("CREATE TABLE IF NOT EXISTS memory_schema (name TEXT PRIMARY KEY, applied DOUBLE PRECISION NOT NULL)")
    done = {row[0] for row in cur.run("SELECT name FROM memory_schema")}
    unknown = done - {name for name, _ in migrations}
    if unknown:
        raise StorageError(
            "Error: The memory database has a newer schema than this version understands.",
            detail=", ".join(sorted(unknown)),
        )
    applied = []
    for name, statements in migrations:
        if name in done:
            continue
        for statement in statements:
            cur.run(statement.format(**types))
        cur.run("INSERT INTO memory_schema (name, applied) VALUES (?, ?)", (name, time.time()))
        applied.append(name)
    return applied


class Cursor(ABC):
    """What the shared code needs of a transaction: run a statement, fetch rows.

    In a write transaction ``usage`` is the scope's usage, read as its row was locked.
    """

    usage: Usage | None = None

    @abstractmethod
    def run(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]: ...


def _key(path: MemoryPath) -> str:
    return "/".join(path.parts)


def _parent(key: str) -> str:
    return key.rpartition("/")[0]


def _shown(key: str) -> str:
    return "/memories/" + key if key else "/memories"


class SqlStorage(ABC):
    """A storage adapter for one scope of a SQL database.

    Subclasses open transactions (:meth:`_transaction`) and say which backend
    errors are retryable or a key violation; everything else the backend raises
    becomes a :class:`StorageError` here, after at most ``attempts`` tries.
    """

    attempts: int = 4

    def __init__(self, scope: str) -> None:
        if not isinstance(scope, str) or not scope or len(scope.encode("utf-8", "replace")) > 128:
            raise ValueError("a scope id is a non-empty string of at most 128 bytes")
        self.scope = scope

    @abstractmethod
    def _transaction(self, *, write: bool, single: bool) -> AbstractContextManager[Cursor]:
        """One transaction (``single``: the body runs one statement, which may be its own transaction).

        A failure while committing, when the outcome is unknown, raises StorageError itself.
        """

    @abstractmethod
    def _is_duplicate(self, exc: BaseException) -> bool:
        """Whether ``exc`` is a primary-key violation."""

    @abstractmethod
    def _is_retryable(self, exc: BaseException) -> bool:
        """Whether the transaction failed as a whole and may simply run again (lost connection, conflict)."""

    #: Selects ``path, is_dir`` of the rows of a scope whose path is in a list (one parameter).
    _select_paths: str

    @abstractmethod
    def _path_list(self, paths: list[str]) -> Any:
        """The list of paths as the one parameter of :attr:`_select_paths`."""

    #: Reads a file's row for an edit, locking it until the transaction ends where the database can.
    _select_content_locked: str = "SELECT is_dir, content FROM memory_entries WHERE scope = ? AND path = ?"

    def _transact(self, body: Callable[[Cursor], _T], *, write: bool, single: bool = False) -> _T:
        """Run ``body`` in one transaction, again if it failed as a whole and may be retried.

        A write transaction first locks the scope's usage row (making it if missing), so
        the writers of one scope take turns, on every host, until the transaction ends.
        """
        for attempt in range(1, self.attempts + 1):
            try:
                with self._transaction(write=write, single=single) as cur:
                    if write:
                        rows = cur.run(
                            "INSERT INTO memory_usage (scope) VALUES (?)"
                            " ON CONFLICT (scope) DO UPDATE SET scope = excluded.scope RETURNING bytes, files",
                            (self.scope,),
                        )
                        cur.usage = Usage(int(rows[0][0]), int(rows[0][1]))
                    return body(cur)
            except SandboxError:
                raise
            except Exception as exc:  # noqa: BLE001 - every backend error ends here, retried or mapped
                if attempt < self.attempts and self._is_retryable(exc):
                    time.sleep(0.01 * 2**attempt)
                    continue
                raise StorageError("Error: The memory store failed.", detail=type(exc).__name__) from None
        raise AssertionError("unreachable")  # pragma: no cover

    # reads

    def stat(self, path: MemoryPath) -> Entry | None:
        if path.is_root:
            return Entry(path.name, is_dir=True, size=DIR_SIZE)
        rows = self._transact(
            lambda cur: cur.run(
                "SELECT is_dir, size, modified FROM memory_entries WHERE scope = ? AND path = ?",
                (self.scope, _key(path)),
            ),
            write=False,
            single=True,
        )
        return _entry(path.name, *rows[0][:3]) if rows else None

    @contextmanager
    def scan(self, path: MemoryPath) -> Iterator[Iterator[Entry]]:
        def body(cur: Cursor) -> list[tuple[Any, ...]]:
            self._require_folder(cur, _key(path))
            return cur.run(
                "SELECT name, is_dir, size, modified FROM memory_entries WHERE scope = ? AND parent = ? ORDER BY name",
                (self.scope, _key(path)),
            )

        rows = self._transact(body, write=False)
        yield iter([_entry(*row) for row in rows])

    def names(self, path: MemoryPath) -> list[str]:
        def body(cur: Cursor) -> list[str]:
            self._require_folder(cur, _key(path))
            rows = cur.run("SELECT name FROM memory_entries WHERE scope = ? AND parent = ?", (self.scope, _key(path)))
            return [row[0] for row in rows]

        return self._transact(body, write=False)

    def read(self, path: MemoryPath) -> bytes:
        if path.is_root:
            raise NotAFile(path)
        return self._transact(lambda cur: self._content(cur, path, lock=False), write=False, single=True)

    def usage(self) -> Usage:
        return self._transact(self._usage, write=False, single=True)

    # writes

    def create(self, path: MemoryPath, data: bytes, quota: Quota | None = None) -> None:
        if path.is_root:
            raise AlreadyExists(path)
        key = _key(path)

        def body(cur: Cursor) -> None:
            if quota is not None:
                try:
                    quota.check(self._usage(cur), len(data), 1)
                except QuotaExceeded:
                    # As every adapter answers: a taken name or a file in the way comes before the quota.
                    if self._is_dir(cur, key) is not None:
                        raise AlreadyExists(path) from None
                    self._explain_missing(cur, key)
                    raise
            self._make_folders(cur, _parent(key))
            try:
                cur.run(
                    "INSERT INTO memory_entries (scope, path, parent, name, is_dir, content, size, modified)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (self.scope, key, _parent(key), path.name, False, data, len(data), time.time()),
                )
            except Exception as exc:
                if self._is_duplicate(exc):
                    raise AlreadyExists(path) from None  # the key decides, not a look beforehand
                raise
            self._grow(cur, len(data), 1)

        self._transact(body, write=True)

    def modify(self, path: MemoryPath, edit: Edit, quota: Quota | None = None) -> bytes:
        if path.is_root:
            raise NotAFile(path)

        def body(cur: Cursor) -> bytes:
            content = self._content(cur, path, lock=True)
            new = bytes(edit(content))
            if quota is not None:
                quota.check(self._usage(cur), len(new) - len(content), 0)
            cur.run(
                "UPDATE memory_entries SET content = ?, size = ?, modified = ? WHERE scope = ? AND path = ?",
                (new, len(new), time.time(), self.scope, _key(path)),
            )
            self._grow(cur, len(new) - len(content), 0)
            return new

        return self._transact(body, write=True)

    def delete(self, path: MemoryPath) -> None:
        if path.is_root:
            raise NotFound(path)
        key = _key(path)
        tree = (self.scope, key, key + "/", key + "0")  # every "key/..." sorts in [key/, key0): '/' + 1 == '0'

        def body(cur: Cursor) -> None:
            if self._is_dir(cur, key) is None:
                self._explain_missing(cur, key)
                raise NotFound(path)
            totals = cur.run(
                "SELECT COALESCE(SUM(size), 0), COUNT(*) FROM memory_entries WHERE scope = ? AND NOT is_dir"
                " AND (path = ? OR (path >= ? AND path < ?))",
                tree,
            )
            cur.run("DELETE FROM memory_entries WHERE scope = ? AND (path = ? OR (path >= ? AND path < ?))", tree)
            self._grow(cur, -int(totals[0][0]), -int(totals[0][1]))

        self._transact(body, write=True)

    def rename(self, old: MemoryPath, new: MemoryPath) -> None:
        if old.is_root:
            raise NotFound(old)
        if new.is_root or new.is_relative_to(old):
            raise AlreadyExists(new)
        source, target = _key(old), _key(new)
        cut = len(source) + 1
        tree = (self.scope, source, source + "/", source + "0")

        def body(cur: Cursor) -> None:
            if self._is_dir(cur, source) is None:
                self._explain_missing(cur, source)
                raise NotFound(old)
            self._make_folders(cur, _parent(target))
            try:
                # The tree moves in one statement; a row already at a new key fails the whole move.
                cur.run(
                    "UPDATE memory_entries SET path = ? || substr(path, ?),"
                    " parent = CASE WHEN path = ? THEN ? ELSE ? || substr(parent, ?) END,"
                    " name = CASE WHEN path = ? THEN ? ELSE name END"
                    " WHERE scope = ? AND (path = ? OR (path >= ? AND path < ?))",
                    (target, cut, source, _parent(target), target, cut, source, new.name, *tree),
                )
            except Exception as exc:
                if self._is_duplicate(exc):
                    raise AlreadyExists(new) from None
                raise

        self._transact(body, write=True)

    def erase(self) -> None:
        """Remove everything of this scope, usage row included (an erasure request)."""

        def body(cur: Cursor) -> None:
            cur.run("DELETE FROM memory_entries WHERE scope = ?", (self.scope,))
            cur.run("DELETE FROM memory_usage WHERE scope = ?", (self.scope,))

        self._transact(body, write=True)

    # helpers inside a transaction

    def _usage(self, cur: Cursor) -> Usage:
        if cur.usage is not None:
            return cur.usage
        rows = cur.run("SELECT bytes, files FROM memory_usage WHERE scope = ?", (self.scope,))
        return Usage(int(rows[0][0]), int(rows[0][1])) if rows else Usage(0, 0)

    def _grow(self, cur: Cursor, size: int, files: int) -> None:
        if size or files:
            if cur.usage is not None:
                cur.usage = Usage(cur.usage.bytes + size, cur.usage.files + files)
            cur.run(
                "UPDATE memory_usage SET bytes = bytes + ?, files = files + ? WHERE scope = ?",
                (size, files, self.scope),
            )

    def _content(self, cur: Cursor, path: MemoryPath, *, lock: bool) -> bytes:
        statement = (
            self._select_content_locked
            if lock
            else "SELECT is_dir, content FROM memory_entries WHERE scope = ? AND path = ?"
        )
        rows = cur.run(statement, (self.scope, _key(path)))
        if not rows:
            self._explain_missing(cur, _key(path))
            raise NotFound(path)
        if rows[0][0]:
            raise NotAFile(path)
        return bytes(rows[0][1])

    def _is_dir(self, cur: Cursor, key: str) -> bool | None:
        rows = cur.run("SELECT is_dir FROM memory_entries WHERE scope = ? AND path = ?", (self.scope, key))
        return bool(rows[0][0]) if rows else None

    def _require_folder(self, cur: Cursor, key: str) -> None:
        if not key:
            return
        is_dir = self._is_dir(cur, key)
        if is_dir is None:
            self._explain_missing(cur, key)
            raise NotFound(_shown(key))
        if not is_dir:
            raise NotADirectory(_shown(key))

    def _explain_missing(self, cur: Cursor, key: str) -> None:
        """Raise NotADirectory naming the file where a folder of missing ``key`` should be, if any."""
        ancestor = _parent(key)
        while ancestor:
            is_dir = self._is_dir(cur, ancestor)
            if is_dir is not None:
                if not is_dir:
                    raise NotADirectory(_shown(ancestor))
                return
            ancestor = _parent(ancestor)

    def _make_folders(self, cur: Cursor, key: str) -> None:
        """Make every missing folder of ``key`` (two statements); a file on the way makes the write fail."""
        if not key:
            return
        parts = key.split("/")
        folders = ["/".join(parts[:depth]) for depth in range(1, len(parts) + 1)]
        found = dict(cur.run(self._select_paths, (self.scope, self._path_list(folders))))
        now = time.time()
        for folder in folders:
            if folder not in found:
                cur.run(
                    "INSERT INTO memory_entries (scope, path, parent, name, is_dir, content, size, modified)"
                    " VALUES (?, ?, ?, ?, ?, NULL, 0, ?)",
                    (self.scope, folder, _parent(folder), folder.rpartition("/")[2], True, now),
                )
            elif not found[folder]:
                raise NotADirectory(_shown(folder))


def _entry(name: str, is_dir: Any, size: Any, modified: Any) -> Entry:
    return Entry(name, is_dir=bool(is_dir), size=DIR_SIZE if is_dir else int(size), modified=float(modified))
