"""Stores chosen by URL, everywhere the CLI takes a store.

* ``file:///srv/memory`` (or a relative ``file:memory``): :class:`LocalStorage`, a
  folder per scope below it when a scope is named, else the folder itself;
* ``sqlite:///var/memory.db`` (or ``sqlite:memory.db``): :class:`SQLiteStorage`,
  every scope in that one file;
* ``postgresql://user@host/db`` (any libpq URL, password from ``~/.pgpass`` or
  ``PGPASSWORD`` preferably): :class:`PostgresStorage`, every scope in that database;
* ``memory://``: :class:`InMemoryStorage`, gone when the process ends.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Callable

from sandbox.errors import StorageError
from sandbox.storage.base import StorageAdapter
from sandbox.storage.local import LocalStorage
from sandbox.storage.memory import InMemoryStorage

__all__ = ["DEFAULT_SCOPE", "Stores", "open_stores", "shown_url", "storage_root"]

#: The scope of a database store when no scope is named.
DEFAULT_SCOPE = "default"
_SCHEMES = "file:, sqlite:, postgresql:, memory:"


def storage_root(url: str) -> str:
    """The file or folder a ``file:`` or ``sqlite:`` URL names (``scheme:///abs/path`` or ``scheme:relative``)."""
    parts = urllib.parse.urlsplit(url)
    if parts.netloc not in ("", "localhost"):
        raise StorageError(f"{parts.scheme} URLs name a local path, not host {parts.netloc!r}")
    path = urllib.parse.unquote(parts.path)
    if not path:
        raise StorageError(f"the {parts.scheme} URL names no path")
    return path


def shown_url(url: str) -> str:
    """The URL with any password replaced by ``***``, for output and logs."""
    parts = urllib.parse.urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    return urllib.parse.urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))


class Stores:
    """The stores one URL names: an adapter per scope, sharing one connection or pool."""

    def __init__(self, url: str) -> None:
        scheme = urllib.parse.urlsplit(url).scheme
        self.url = url
        self._close: Callable[[], None] = lambda: None
        self._opened: dict[str | None, StorageAdapter] = {}
        self._make: Callable[[str | None], StorageAdapter]
        if scheme == "memory":
            self._make = lambda _scope: InMemoryStorage()
        elif scheme == "file":
            root = storage_root(url)
            self._make = lambda scope: LocalStorage(root) if scope is None else LocalStorage.for_scope(root, scope)
        elif scheme == "sqlite":
            from sandbox.storage.sqlite import SQLiteDatabase  # noqa: PLC0415 - only when asked for

            lite = SQLiteDatabase(storage_root(url))
            self._make, self._close = (lambda scope: lite.storage(scope or DEFAULT_SCOPE)), lite.close
        elif scheme in ("postgresql", "postgres"):
            try:
                from sandbox.storage.postgres import PostgresDatabase  # noqa: PLC0415 - psycopg only when asked for
            except ImportError:
                raise StorageError("PostgreSQL stores need psycopg: pip install 'memory-sandbox[postgres]'") from None
            pg = PostgresDatabase(url)
            self._make, self._close = (lambda scope: pg.storage(scope or DEFAULT_SCOPE)), pg.close
        else:
            raise StorageError(f"unsupported store URL scheme {scheme!r} (supported: {_SCHEMES})")

    def __repr__(self) -> str:
        return f"Stores({shown_url(self.url)!r}, open={len(self._opened)})"

    def __enter__(self) -> Stores:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def storage(self, scope: str | None = None) -> StorageAdapter:
        """The adapter of a scope (None: the store itself, or the default scope of a database)."""
        if scope not in self._opened:
            self._opened[scope] = self._make(scope)
        return self._opened[scope]

    def close(self) -> None:
        for storage in self._opened.values():
            close = getattr(storage, "close", None)
            if callable(close):
                close()
        self._opened.clear()
        self._close()


def open_stores(url: str) -> Stores:
    """The stores a URL names; :class:`StorageError` for an unknown scheme or an unreachable database."""
    return Stores(url)
