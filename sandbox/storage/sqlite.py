"""``SQLiteStorage``: memory in one SQLite database file, for a single host.

The database runs in WAL mode, so readers never wait for the writer. Every
command is one transaction; a write begins ``IMMEDIATE``, which takes the
database's write lock first, so the quota check, the write and the usage update
happen together whichever process on the host writes. Any number of scopes live
in one file (a ``scope`` column, indexed with the path); an adapter serves one.

``durability`` maps to ``PRAGMA synchronous``: ``full`` (FULL: every commit is on
disk when the call returns), ``atomic`` (NORMAL: a commit survives a crash of the
process, the last ones may be lost with the machine) or ``none`` (OFF).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, Final

from sandbox.errors import StorageError
from sandbox.storage.layout import refuse_nested
from sandbox.storage.local import Durability
from sandbox.storage.rate import FileRate, open_rate_file
from sandbox.storage.sql import SCHEMA, Cursor, SqlStorage, migrate

__all__ = ["SQLiteDatabase", "SQLiteStorage"]

_SYNCHRONOUS: Final = {"full": "FULL", "atomic": "NORMAL", "none": "OFF"}
_TYPES: Final = {"text": "TEXT", "blob": "BLOB"}  # TEXT compares as memcmp of UTF-8: code point order


class _SQLiteCursor(Cursor):
    __slots__ = ("_connection",)

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection

    def run(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return self._connection.execute(sql, params).fetchall()


class SQLiteDatabase:
    """One SQLite file holding the memory of any number of scopes; thread-safe.

    Open one per process and take an adapter per scope with :meth:`storage`.
    """

    def __init__(self, path: str | os.PathLike[str], *, durability: Durability = "full", timeout: float = 30.0) -> None:
        if durability not in _SYNCHRONOUS:
            raise ValueError(f"durability is one of {', '.join(_SYNCHRONOUS)}")
        self.path = Path(path).absolute()
        self._lock = threading.Lock()
        refuse_nested(str(self.path))  # never where a folder store's model would see the database
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # Made private before SQLite opens it; SQLite gives its -wal and -shm files the same mode.
            os.close(os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600))
            self._connection = sqlite3.connect(
                self.path, timeout=timeout, isolation_level=None, check_same_thread=False
            )
            self._connection.execute("PRAGMA journal_mode = WAL")
            self._connection.execute(f"PRAGMA synchronous = {_SYNCHRONOUS[durability]}")
            with self.transaction(write=True) as cur:
                self.applied = migrate(cur, SCHEMA, _TYPES)
        except (sqlite3.Error, OSError) as exc:
            raise StorageError("Error: The memory database cannot be opened.", detail=type(exc).__name__) from None

    def __repr__(self) -> str:
        return f"SQLiteDatabase({self.path.name!r})"

    def __enter__(self) -> SQLiteDatabase:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def rate_file(self, scope: str) -> str:
        """Where a scope's call allowance is kept: a folder beside the database, a file per scope."""
        return os.path.join(f"{self.path}-rate", hashlib.sha256(scope.encode("utf-8", "replace")).hexdigest())

    def storage(self, scope: str = "default") -> SQLiteStorage:
        """The adapter of one scope; it shares this database's connection."""
        return SQLiteStorage(self, scope)

    def close(self) -> None:
        with self._lock:
            self._connection.close()

    @contextmanager
    def transaction(self, *, write: bool) -> Iterator[Cursor]:
        """One transaction: ``BEGIN IMMEDIATE`` for a write (the write lock first), else a snapshot."""
        with self._lock:
            connection = self._connection
            connection.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield _SQLiteCursor(connection)
                connection.execute("COMMIT")
            except BaseException:
                if connection.in_transaction:
                    connection.execute("ROLLBACK")
                raise


class SQLiteStorage(SqlStorage):
    """The memory of one scope in a SQLite file.

    ``SQLiteStorage("memory.db")`` opens the file for itself (closed by :meth:`close`);
    ``SQLiteDatabase("memory.db").storage(scope)`` shares one connection among scopes.
    """

    def __init__(
        self,
        database: SQLiteDatabase | str | os.PathLike[str],
        scope: str = "default",
        *,
        durability: Durability = "full",
    ) -> None:
        super().__init__(scope)
        self._owned = not isinstance(database, SQLiteDatabase)
        self.database = (
            database if isinstance(database, SQLiteDatabase) else SQLiteDatabase(database, durability=durability)
        )
        self._rate = FileRate(self._open_rate)

    def _open_rate(self) -> int:
        path = self.database.rate_file(self.scope)
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        return open_rate_file(path)

    def rate_counter(self) -> FileRate:
        """The scope's call allowance, shared by every process that opens the database."""
        return self._rate

    def erase(self) -> None:
        super().erase()
        self._rate.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.database.rate_file(self.scope))

    def __repr__(self) -> str:
        return f"SQLiteStorage({self.database.path.name!r}, scope={self.scope!r})"

    @property
    def root_path(self) -> str:
        """The database file (the default audit log goes beside it)."""
        return str(self.database.path)

    def close(self) -> None:
        self._rate.close()
        if self._owned:
            self.database.close()

    def __enter__(self) -> SQLiteStorage:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _transaction(self, *, write: bool, single: bool) -> AbstractContextManager[Cursor]:
        return self.database.transaction(write=write)

    _select_paths = (
        "SELECT path, is_dir, size, modified FROM memory_entries"
        " WHERE scope = ? AND path IN (SELECT value FROM json_each(?))"
    )

    def _path_list(self, paths: list[str]) -> Any:
        return json.dumps(paths)

    _backend_errors = (sqlite3.Error,)

    def _is_duplicate(self, exc: BaseException) -> bool:
        return isinstance(exc, sqlite3.IntegrityError)

    def _is_retryable(self, exc: BaseException) -> bool:
        return isinstance(exc, sqlite3.OperationalError) and any(word in str(exc) for word in ("locked", "busy"))
