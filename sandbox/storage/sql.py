"""The storage contract over SQL, shared by :mod:`sqlite` and :mod:`postgres`.

Files and folders are rows keyed by ``(scope, path)``, where ``path`` is the
canonical path below ``/memories`` ("a/b.md"; the root is implicit). A read is
one transaction; a write session (:meth:`SqlStorage.writing`) is one transaction
that first locks the scope's usage row, so writers of one scope, on any machine,
take turns: the call is planned, judged and applied against the same state, and
no edit is lost. Creates and moves rely on the primary key, not on a check before
acting, to never overwrite. Every query names the scope.
"""

from __future__ import annotations

import secrets
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import replace
from typing import Any, Final, TypeAlias, TypeVar

from sandbox.errors import (
    AlreadyExists,
    FileTooLarge,
    NotADirectory,
    NotAFile,
    NotFound,
    SandboxError,
    StorageError,
)
from sandbox.history import OVERHEAD, Horizon, Version, decode_meta, encode_meta, lineage
from sandbox.names import lookalike_key
from sandbox.paths import MemoryPath
from sandbox.storage.base import DIR_SIZE, Entry, Node, Tree, Usage, Writer, WriteShortcuts

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
    (
        # Folders count against the quota too.
        "storage-2-folders",
        (
            "ALTER TABLE memory_usage ADD COLUMN folders BIGINT NOT NULL DEFAULT 0",
            "UPDATE memory_usage SET folders = (SELECT COUNT(*) FROM memory_entries e"
            " WHERE e.scope = memory_usage.scope AND e.is_dir)",
        ),
    ),
    (
        # A secret per scope (pseudonymised audit records), deleted when the scope is erased.
        "storage-3-scope-keys",
        ("CREATE TABLE memory_scope_keys (scope {text} PRIMARY KEY, pseudonym_key {blob} NOT NULL)",),
    ),
    (
        # Each name's look-alike key (sandbox.names.lookalike_key), so that a create or rename finds
        # the siblings its name would twin by index, not by listing the folder. Rows written before
        # have none (NULL) and are keyed when read.
        "storage-4-name-keys",
        (
            "ALTER TABLE memory_entries ADD COLUMN look_key {text}",
            "CREATE INDEX memory_entries_look ON memory_entries (scope, parent, look_key)",
        ),
    ),
    (
        # Versions (sandbox.history): what each change replaced, with its provenance, written in the
        # change's transaction. The usage row counts their bytes and gives out their numbers.
        "storage-5-versions",
        (
            "CREATE TABLE memory_versions ("
            " scope {text} NOT NULL, seq BIGINT NOT NULL, path {text} NOT NULL, new_path {text},"
            " meta {text} NOT NULL, content {blob}, size BIGINT NOT NULL, PRIMARY KEY (scope, seq))",
            "CREATE INDEX memory_versions_path ON memory_versions (scope, path)",
            "CREATE INDEX memory_versions_new_path ON memory_versions (scope, new_path)",
            "ALTER TABLE memory_usage ADD COLUMN history_bytes BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE memory_usage ADD COLUMN history_seq BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE memory_usage ADD COLUMN history_every DOUBLE PRECISION NOT NULL DEFAULT 0",
            "ALTER TABLE memory_usage ADD COLUMN history_sessions DOUBLE PRECISION NOT NULL DEFAULT 0",
        ),
    ),
)


def migrate(
    cur: Cursor,
    migrations: tuple[Migration, ...],
    types: dict[str, str],
    progress: Callable[[int, int], None] | None = None,
) -> list[str]:
    """Apply the migrations not yet recorded, inside the caller's (locked) transaction; return their names.

    ``progress(done, total)`` is called after each migration to apply.
    """
    cur.run("CREATE TABLE IF NOT EXISTS memory_schema (name TEXT PRIMARY KEY, applied DOUBLE PRECISION NOT NULL)")
    done = {row[0] for row in cur.run("SELECT name FROM memory_schema")}
    unknown = done - {name for name, _ in migrations}
    if unknown:
        raise StorageError(
            "Error: The memory database has a newer schema than this version understands.",
            detail=", ".join(sorted(unknown)),
        )
    applied: list[str] = []
    pending = [(name, statements) for name, statements in migrations if name not in done]
    for name, statements in pending:
        for statement in statements:
            cur.run(statement.format(**types))
        cur.run("INSERT INTO memory_schema (name, applied) VALUES (?, ?)", (name, time.time()))
        applied.append(name)
        if progress is not None:
            progress(len(applied), len(pending))
    return applied


class Cursor(ABC):
    """What the shared code needs of a transaction: run a statement, fetch rows.

    In a write transaction ``usage`` is the scope's usage and ``kept`` the bytes of its versions,
    read as its row was locked; ``rows`` holds the entries the transaction has looked up (by key:
    ``(is_dir, size, modified)``, None for no row), dropped by every change of an entry. A write
    transaction holds the scope's lock, so what it looked up stays true until it changes it.
    """

    usage: Usage | None = None
    kept: int | None = None
    rows: dict[str, tuple[bool, int, float] | None] | None = None

    @abstractmethod
    def run(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]: ...


_SELECT_CONTENT: Final = "SELECT is_dir, content, size, modified FROM memory_entries WHERE scope = ? AND path = ?"


def _key(path: MemoryPath) -> str:
    return "/".join(path.parts)


def _parent(key: str) -> str:
    return key.rpartition("/")[0]


def _ancestors(key: str) -> list[str]:
    """The keys of the folders above ``key``, nearest first (the root, "", left out)."""
    parts = key.split("/")
    return ["/".join(parts[:depth]) for depth in range(len(parts) - 1, 0, -1)]


def _shown(key: str) -> str:
    return "/memories/" + key if key else "/memories"


class SqlStorage(WriteShortcuts, ABC):
    """A storage adapter for one scope of a SQL database.

    Subclasses open transactions (:meth:`_transaction`) and say which backend
    errors are retryable or a key violation; everything else the backend raises
    becomes a :class:`StorageError` here. A read is retried up to ``attempts``
    times; a write session only while it starts (nothing of it ran yet).
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

    #: The exception classes of the backend (mapped to StorageError at this edge).
    _backend_errors: tuple[type[BaseException], ...] = ()

    #: Selects ``path, is_dir, size, modified`` of the rows of a scope whose path is in a list (one parameter).
    _select_paths: str

    @abstractmethod
    def _path_list(self, paths: list[str]) -> Any:
        """The list of paths as the one parameter of :attr:`_select_paths`."""

    #: Reads a file's row for an edit, locking it until the transaction ends where the database can.
    _select_content_locked: str = _SELECT_CONTENT

    def _transact(self, body: Callable[[Cursor], _T], *, write: bool, single: bool = False) -> _T:
        """Run ``body`` in one transaction, again if it failed as a whole and may be retried."""
        for attempt in range(1, self.attempts + 1):
            try:
                with self._transaction(write=write, single=single) as cur:
                    if write:
                        self._lock_usage(cur)
                    return body(cur)
            except SandboxError:
                raise
            except Exception as exc:  # noqa: BLE001 - every backend error ends here, retried or mapped
                if attempt < self.attempts and self._is_retryable(exc):
                    time.sleep(0.01 * 2**attempt)
                    continue
                raise StorageError("Error: The memory store failed.", detail=type(exc).__name__) from None
        raise AssertionError("unreachable")  # pragma: no cover

    def _lock_usage(self, cur: Cursor) -> None:
        """Lock the scope's usage row (making it if missing): the scope's writers take turns from here."""
        rows = cur.run(
            "INSERT INTO memory_usage (scope) VALUES (?)"
            " ON CONFLICT (scope) DO UPDATE SET scope = excluded.scope RETURNING bytes, files, folders, history_bytes",
            (self.scope,),
        )
        cur.usage = Usage(int(rows[0][0]), int(rows[0][1]), int(rows[0][2]))
        cur.kept = int(rows[0][3])

    @contextmanager
    def writing(self) -> Iterator[_SqlSession]:
        """One write transaction, the scope's usage row locked from its start to its end."""
        try:
            with self._started_write() as cur:
                yield _SqlSession(self, cur)
        except self._backend_errors as exc:
            raise StorageError("Error: The memory store failed.", detail=type(exc).__name__) from None

    @contextmanager
    def _started_write(self) -> Iterator[Cursor]:
        """A write transaction with the usage row locked; retried while nothing of the session ran."""
        for attempt in range(1, self.attempts + 1):
            transaction = self._transaction(write=True, single=False)
            cur = transaction.__enter__()
            try:
                self._lock_usage(cur)
            except Exception as exc:
                transaction.__exit__(type(exc), exc, exc.__traceback__)
                if attempt < self.attempts and self._is_retryable(exc):
                    time.sleep(0.01 * 2**attempt)
                    continue
                raise
            break
        with _entered(transaction):
            yield cur

    def _write(self, body: Callable[[Writer], _T]) -> _T:
        """A one-call write, run again when its transaction failed as a whole (a lost connection)."""
        return self._transact(lambda cur: body(_SqlSession(self, cur)), write=True)

    # reads, each its own transaction

    def stat(self, path: MemoryPath) -> Entry | None:
        return self._transact(lambda cur: self._stat(cur, path), write=False)

    @contextmanager
    def scan(self, path: MemoryPath) -> Iterator[Iterator[Entry]]:
        rows = self._transact(lambda cur: self._scan(cur, path), write=False)
        yield iter(rows)

    def names(self, path: MemoryPath) -> list[str]:
        return self._transact(lambda cur: self._names(cur, path), write=False)

    def read(self, path: MemoryPath) -> bytes:
        return self.read_at_most(path, None)

    def read_at_most(self, path: MemoryPath, max_bytes: int | None) -> bytes:
        """The content of a file; FileTooLarge past ``max_bytes`` (the content is not fetched)."""
        if path.is_root:
            raise NotAFile(path)
        if max_bytes is None:
            return self._transact(lambda cur: self._content(cur, path, lock=False), write=False, single=True)
        return self._transact(lambda cur: self._bounded(cur, path, max_bytes), write=False, single=True)

    def tree(self, path: MemoryPath) -> Tree:
        return self._transact(lambda cur: self._tree(cur, path), write=False)

    def usage(self) -> Usage:
        return self._transact(self._usage, write=False, single=True)

    def erase(self) -> None:
        """Remove everything of this scope, usage row included (an erasure request)."""

        def body(cur: Cursor) -> None:
            for statement in self._erase_statements:
                cur.run(statement, (self.scope,))

        self._transact(body, write=True)

    #: What erases a scope: every table holding its rows (the usage row, which writers lock, last).
    _erase_statements: tuple[str, ...] = (
        "DELETE FROM memory_entries WHERE scope = ?",
        "DELETE FROM memory_versions WHERE scope = ?",
        "DELETE FROM memory_scope_keys WHERE scope = ?",
        "DELETE FROM memory_usage WHERE scope = ?",
    )

    def exists(self) -> bool:
        """Whether the database holds anything of this scope (memory, usage, a secret), even when empty."""

        def body(cur: Cursor) -> bool:
            rows = cur.run(
                "SELECT 1 FROM memory_usage WHERE scope = ? UNION ALL SELECT 1 FROM memory_scope_keys WHERE scope = ?",
                (self.scope, self.scope),
            )
            return bool(rows)

        return self._transact(body, write=False)

    def pseudonym_key(self) -> bytes:
        """The scope's secret for pseudonymised records (made by the first caller); erased with the scope."""

        def body(cur: Cursor) -> bytes:
            cur.run(
                "INSERT INTO memory_scope_keys (scope, pseudonym_key) VALUES (?, ?) ON CONFLICT (scope) DO NOTHING",
                (self.scope, secrets.token_bytes(32)),
            )
            rows = cur.run("SELECT pseudonym_key FROM memory_scope_keys WHERE scope = ?", (self.scope,))
            return bytes(rows[0][0])

        return self._transact(body, write=True)

    # inside a transaction

    def _stat(self, cur: Cursor, path: MemoryPath) -> Entry | None:
        if path.is_root:
            return Entry(path.name, is_dir=True, size=DIR_SIZE)
        key = _key(path)
        row = self._rows(cur, [key, *_ancestors(key)])[key]  # the folders above too: one statement
        if row is not None:
            return _entry(path.name, *row)
        self._explain_missing(cur, key)
        return None

    def _scan(self, cur: Cursor, path: MemoryPath) -> list[Entry]:
        self._require_folder(cur, _key(path))
        rows = cur.run(
            "SELECT name, is_dir, size, modified FROM memory_entries WHERE scope = ? AND parent = ? ORDER BY name",
            (self.scope, _key(path)),
        )
        return [_entry(*row) for row in rows]

    def _alike(self, cur: Cursor, path: MemoryPath, key: str) -> list[str]:
        """The names in a folder whose look-alike key is ``key``: by index (rows written before
        keys were kept are keyed here)."""
        rows = cur.run(
            "SELECT name, look_key FROM memory_entries"
            " WHERE scope = ? AND parent = ? AND (look_key = ? OR look_key IS NULL)",
            (self.scope, _key(path), key),
        )
        return [str(name) for name, kept in rows if (kept if kept is not None else lookalike_key(str(name))) == key]

    def _names(self, cur: Cursor, path: MemoryPath) -> list[str]:
        self._require_folder(cur, _key(path))
        rows = cur.run("SELECT name FROM memory_entries WHERE scope = ? AND parent = ?", (self.scope, _key(path)))
        return [row[0] for row in rows]

    def _tree(self, cur: Cursor, path: MemoryPath) -> Tree:
        if path.is_root:
            rows = cur.run("SELECT path, is_dir, size, modified FROM memory_entries WHERE scope = ?", (self.scope,))
            below = sorted((_node(tuple(row[0].split("/")), *row[1:]) for row in rows), key=_parts)
            return Tree((Node((), is_dir=True), *below))
        key = _key(path)
        rows = cur.run(
            "SELECT path, is_dir, size, modified FROM memory_entries"
            " WHERE scope = ? AND (path = ? OR (path >= ? AND path < ?))",
            (self.scope, key, key + "/", key + "0"),  # every "key/..." sorts in [key/, key0): '/' + 1 == '0'
        )
        if not rows:
            self._explain_missing(cur, key)
            raise NotFound(path)
        cut = len(key) + 1
        nodes = sorted(
            (_node(tuple(row[0][cut:].split("/")) if row[0] != key else (), *row[1:]) for row in rows), key=_parts
        )
        return Tree(tuple(nodes))

    def _put(self, cur: Cursor, path: MemoryPath, data: bytes, *, new: bool) -> None:
        if path.is_root:
            raise AlreadyExists(path) if new else NotAFile(path)
        key = _key(path)
        if not new:
            row = self._rows(cur, [key])[key]  # known from the plan's read of the file, most often
            if row is None:
                self._explain_missing(cur, key)
                raise NotFound(path)
            if row[0]:
                raise NotAFile(path)
            cur.rows = None  # entries change
            cur.run(
                "UPDATE memory_entries SET content = ?, size = ?, modified = ? WHERE scope = ? AND path = ?",
                (data, len(data), time.time(), self.scope, key),
            )
            self._grow(cur, Usage(len(data) - row[1], 0))
            return
        folders = self._make_folders(cur, _parent(key))
        cur.rows = None  # entries change
        try:
            cur.run(
                "INSERT INTO memory_entries (scope, path, parent, name, look_key, is_dir, content, size, modified)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    self.scope,
                    key,
                    _parent(key),
                    path.name,
                    lookalike_key(path.name),
                    False,
                    data,
                    len(data),
                    time.time(),
                ),
            )
        except Exception as exc:
            if self._is_duplicate(exc):
                raise AlreadyExists(path) from None  # the key decides, not a look beforehand
            raise
        self._grow(cur, Usage(len(data), 1, folders))

    def _remove(self, cur: Cursor, path: MemoryPath) -> None:
        if path.is_root:
            raise NotFound(path)
        key = _key(path)
        tree = (self.scope, key, key + "/", key + "0")
        if self._is_dir(cur, key) is None:
            self._explain_missing(cur, key)
            raise NotFound(path)
        totals = cur.run(
            "SELECT COALESCE(SUM(CASE WHEN is_dir THEN 0 ELSE size END), 0),"
            " COALESCE(SUM(CASE WHEN is_dir THEN 0 ELSE 1 END), 0),"
            " COALESCE(SUM(CASE WHEN is_dir THEN 1 ELSE 0 END), 0)"
            " FROM memory_entries WHERE scope = ? AND (path = ? OR (path >= ? AND path < ?))",
            tree,
        )
        cur.rows = None  # entries change
        cur.run("DELETE FROM memory_entries WHERE scope = ? AND (path = ? OR (path >= ? AND path < ?))", tree)
        self._grow(cur, Usage(-int(totals[0][0]), -int(totals[0][1]), -int(totals[0][2])))

    def _move(self, cur: Cursor, old: MemoryPath, new: MemoryPath) -> None:
        if old.is_root:
            raise NotFound(old)
        if new.is_root or new.is_relative_to(old):
            raise AlreadyExists(new)
        source, target = _key(old), _key(new)
        cut = len(source) + 1
        tree = (self.scope, source, source + "/", source + "0")
        if self._is_dir(cur, source) is None:
            self._explain_missing(cur, source)
            raise NotFound(old)
        folders = self._make_folders(cur, _parent(target))
        cur.rows = None  # entries change
        try:
            # The tree moves in one statement; a row already at a new key fails the whole move.
            cur.run(
                "UPDATE memory_entries SET path = ? || substr(path, ?),"
                " parent = CASE WHEN path = ? THEN ? ELSE ? || substr(parent, ?) END,"
                " name = CASE WHEN path = ? THEN ? ELSE name END,"
                " look_key = CASE WHEN path = ? THEN ? ELSE look_key END"
                " WHERE scope = ? AND (path = ? OR (path >= ? AND path < ?))",
                (
                    target,
                    cut,
                    source,
                    _parent(target),
                    target,
                    cut,
                    source,
                    new.name,
                    source,
                    lookalike_key(new.name),
                    *tree,
                ),
            )
        except Exception as exc:
            if self._is_duplicate(exc):
                raise AlreadyExists(new) from None
            raise
        self._grow(cur, Usage(0, 0, folders))

    # versions (sandbox.history.Shelf), in the write transaction

    def _shelve(self, cur: Cursor, versions: Sequence[Version]) -> list[Version]:
        if not versions:
            return []
        total = sum(version.size for version in versions)
        rows = cur.run(
            "UPDATE memory_usage SET history_seq = history_seq + ?, history_bytes = history_bytes + ?"
            " WHERE scope = ? RETURNING history_seq, history_bytes",
            (len(versions), total, self.scope),
        )
        first = int(rows[0][0]) - len(versions) + 1
        cur.kept = int(rows[0][1])
        stored = [replace(version, seq=first + n) for n, version in enumerate(versions)]
        for version in stored:
            self._put_version(cur, version)
        return stored

    def _put_version(self, cur: Cursor, version: Version) -> None:
        cur.run(
            "INSERT INTO memory_versions (scope, seq, path, new_path, meta, content, size)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                self.scope,
                version.seq,
                version.path,
                version.new_path,
                encode_meta(version),
                version.content,
                version.size,
            ),
        )

    def _shelved(self, cur: Cursor, path: str | None, *, content: bool = True) -> list[Version]:
        select = _WITH_CONTENT if content else _WITHOUT_CONTENT
        if path is None:
            rows = cur.run(select + " ORDER BY seq", (self.scope,))
        else:
            above = lineage(path)
            either = " OR ".join(["path = ? OR new_path = ?"] * len(above))
            rows = cur.run(
                select + " AND (" + either + ") ORDER BY seq",
                (self.scope, *(key for folder in above for key in (folder, folder))),
            )
        found = [decode_meta(str(meta), bytes(data) if data is not None else None) for meta, data, _ in rows]
        if content:
            return found
        return [
            replace(version, length=int(size) - OVERHEAD) for version, (_, _, size) in zip(found, rows, strict=True)
        ]

    def _unshelve(self, cur: Cursor, seqs: Collection[int], horizon: Horizon | None) -> None:
        for seq in sorted(seqs):
            rows = cur.run("DELETE FROM memory_versions WHERE scope = ? AND seq = ? RETURNING size", (self.scope, seq))
            if rows:
                cur.run(
                    "UPDATE memory_usage SET history_bytes = history_bytes - ? WHERE scope = ?",
                    (int(rows[0][0]), self.scope),
                )
                if cur.kept is not None:
                    cur.kept -= int(rows[0][0])
        if horizon is not None:
            cur.run(
                "UPDATE memory_usage SET history_every = ?, history_sessions = ? WHERE scope = ?",
                (horizon.every, horizon.sessions, self.scope),
            )

    def _horizon(self, cur: Cursor) -> Horizon:
        rows = cur.run("SELECT history_every, history_sessions FROM memory_usage WHERE scope = ?", (self.scope,))
        return Horizon(float(rows[0][0]), float(rows[0][1])) if rows else Horizon()

    def _reshelve(self, cur: Cursor, version: Version) -> None:
        rows = cur.run(
            "DELETE FROM memory_versions WHERE scope = ? AND seq = ? RETURNING size", (self.scope, version.seq)
        )
        if rows:
            self._put_version(cur, version)
            cur.run(
                "UPDATE memory_usage SET history_bytes = history_bytes + ? WHERE scope = ?",
                (version.size - int(rows[0][0]), self.scope),
            )
            if cur.kept is not None:
                cur.kept += version.size - int(rows[0][0])

    def _shelf_bytes(self, cur: Cursor) -> int:
        if cur.kept is not None:
            return cur.kept
        rows = cur.run("SELECT history_bytes FROM memory_usage WHERE scope = ?", (self.scope,))
        return int(rows[0][0]) if rows else 0

    def _make_folder(self, cur: Cursor, path: MemoryPath) -> None:
        self._grow(cur, Usage(0, 0, self._make_folders(cur, _key(path))))

    def _usage(self, cur: Cursor) -> Usage:
        if cur.usage is not None:
            return cur.usage
        rows = cur.run("SELECT bytes, files, folders FROM memory_usage WHERE scope = ?", (self.scope,))
        return Usage(int(rows[0][0]), int(rows[0][1]), int(rows[0][2])) if rows else Usage(0, 0, 0)

    def _grow(self, cur: Cursor, change: Usage) -> None:
        if change != Usage(0, 0, 0):
            if cur.usage is not None:
                cur.usage = cur.usage + change
            cur.run(
                "UPDATE memory_usage SET bytes = bytes + ?, files = files + ?, folders = folders + ? WHERE scope = ?",
                (change.bytes, change.files, change.folders, self.scope),
            )

    def _content(self, cur: Cursor, path: MemoryPath, *, lock: bool) -> bytes:
        statement = self._select_content_locked if lock else _SELECT_CONTENT
        key = _key(path)
        rows = cur.run(statement, (self.scope, key))
        if not rows:
            self._explain_missing(cur, key)
            raise NotFound(path)
        is_dir, content, size, modified = rows[0]
        if cur.rows is not None or lock:
            cur.rows = (cur.rows or {}) | {key: (bool(is_dir), int(size), float(modified))}
        if is_dir:
            raise NotAFile(path)
        return bytes(content)

    def _bounded(self, cur: Cursor, path: MemoryPath, max_bytes: int) -> bytes:
        rows = cur.run(
            "SELECT is_dir, CASE WHEN size > ? THEN NULL ELSE content END, size"
            " FROM memory_entries WHERE scope = ? AND path = ?",
            (max_bytes, self.scope, _key(path)),
        )
        if not rows:
            self._explain_missing(cur, _key(path))
            raise NotFound(path)
        if rows[0][0]:
            raise NotAFile(path)
        if rows[0][1] is None:
            raise FileTooLarge(path, int(rows[0][2]), max_bytes)
        return bytes(rows[0][1])

    def _rows(self, cur: Cursor, keys: list[str]) -> dict[str, tuple[bool, int, float] | None]:
        """The rows of ``keys``: those the transaction looked up already, the others in one statement."""
        known = cur.rows if cur.rows is not None else {}
        missing = [key for key in keys if key not in known]
        if missing:
            for key, is_dir, size, modified in cur.run(self._select_paths, (self.scope, self._path_list(missing))):
                known[str(key)] = (bool(is_dir), int(size), float(modified))
            for key in missing:
                known.setdefault(key, None)
            cur.rows = known
        return {key: known[key] for key in keys}

    def _is_dir(self, cur: Cursor, key: str) -> bool | None:
        row = self._rows(cur, [key])[key]
        return row[0] if row is not None else None

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
        ancestors = _ancestors(key)
        rows = self._rows(cur, ancestors)
        for ancestor in ancestors:  # nearest first
            row = rows[ancestor]
            if row is not None:
                if not row[0]:
                    raise NotADirectory(_shown(ancestor))
                return

    def _make_folders(self, cur: Cursor, key: str) -> int:
        """Make every missing folder of ``key`` (two statements); return how many. A file on the way fails."""
        if not key:
            return 0
        folders = [*reversed(_ancestors(key)), key]  # from the top
        found = self._rows(cur, folders)
        now, made = time.time(), 0
        for folder in folders:
            row = found[folder]
            if row is None:
                cur.rows = None  # entries change
                name = folder.rpartition("/")[2]
                cur.run(
                    "INSERT INTO memory_entries (scope, path, parent, name, look_key, is_dir, content, size, modified)"
                    " VALUES (?, ?, ?, ?, ?, ?, NULL, 0, ?)",
                    (self.scope, folder, _parent(folder), name, lookalike_key(name), True, now),
                )
                made += 1
            elif not row[0]:
                raise NotADirectory(_shown(folder))
        return made


_WITH_CONTENT: Final = "SELECT meta, content, size FROM memory_versions WHERE scope = ?"
_WITHOUT_CONTENT: Final = "SELECT meta, NULL, size FROM memory_versions WHERE scope = ?"


class _SqlSession:
    """A write session of a :class:`SqlStorage`: every read and write on its one transaction."""

    __slots__ = ("_cur", "_storage")

    def __init__(self, storage: SqlStorage, cur: Cursor) -> None:
        self._storage, self._cur = storage, cur

    def stat(self, path: MemoryPath) -> Entry | None:
        return self._storage._stat(self._cur, path)

    @contextmanager
    def scan(self, path: MemoryPath) -> Iterator[Iterator[Entry]]:
        yield iter(self._storage._scan(self._cur, path))

    def names(self, path: MemoryPath) -> list[str]:
        return self._storage._names(self._cur, path)

    def alike(self, path: MemoryPath, key: str) -> list[str]:
        return self._storage._alike(self._cur, path, key)

    def read(self, path: MemoryPath) -> bytes:
        if path.is_root:
            raise NotAFile(path)
        return self._storage._content(self._cur, path, lock=True)

    def tree(self, path: MemoryPath) -> Tree:
        return self._storage._tree(self._cur, path)

    def usage(self) -> Usage:
        return self._storage._usage(self._cur)

    def put(self, path: MemoryPath, data: bytes, *, new: bool) -> None:
        self._storage._put(self._cur, path, data, new=new)

    def remove(self, path: MemoryPath) -> None:
        self._storage._remove(self._cur, path)

    def move(self, old: MemoryPath, new: MemoryPath) -> None:
        self._storage._move(self._cur, old, new)

    def shelve(self, versions: Sequence[Version]) -> list[Version]:
        return self._storage._shelve(self._cur, versions)

    def shelved(self, path: str | None = None, *, content: bool = True) -> list[Version]:
        return self._storage._shelved(self._cur, path, content=content)

    def unshelve(self, seqs: Collection[int], horizon: Horizon | None = None) -> None:
        self._storage._unshelve(self._cur, seqs, horizon)

    def horizon(self) -> Horizon:
        return self._storage._horizon(self._cur)

    def reshelve(self, version: Version) -> None:
        self._storage._reshelve(self._cur, version)

    def shelf_bytes(self) -> int:
        return self._storage._shelf_bytes(self._cur)

    def make_folder(self, path: MemoryPath) -> None:
        self._storage._make_folder(self._cur, path)


@contextmanager
def _entered(context: AbstractContextManager[Cursor]) -> Iterator[None]:
    """Exit an already entered context when this block ends, passing on how it ended."""
    try:
        yield
    except BaseException as exc:
        if not context.__exit__(type(exc), exc, exc.__traceback__):
            raise
    else:
        context.__exit__(None, None, None)


def _parts(node: Node) -> tuple[str, ...]:
    return node.parts


def _node(parts: tuple[str, ...], is_dir: Any, size: Any, modified: Any) -> Node:
    return Node(parts, bool(is_dir), 0 if is_dir else int(size), float(modified))


def _entry(name: str, is_dir: Any, size: Any, modified: Any) -> Entry:
    return Entry(name, is_dir=bool(is_dir), size=DIR_SIZE if is_dir else int(size), modified=float(modified))
