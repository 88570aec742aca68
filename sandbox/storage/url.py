"""Stores chosen by URL, everywhere the CLI takes a store.

``file:///srv/memory`` (or a relative ``file:memory``) is a :class:`LocalStorage`
rooted there; ``memory://`` is an :class:`InMemoryStorage` that lasts as long as
the process.
"""

from __future__ import annotations

import urllib.parse

from sandbox.errors import StorageError
from sandbox.storage.base import StorageAdapter
from sandbox.storage.local import LocalStorage
from sandbox.storage.memory import InMemoryStorage

__all__ = ["open_storage", "storage_root"]


def storage_root(url: str) -> str:
    """The folder a ``file:`` URL names (``file:///abs/path`` or ``file:relative/path``)."""
    parts = urllib.parse.urlsplit(url)
    if parts.netloc not in ("", "localhost"):
        raise StorageError(f"file URLs name a local folder, not host {parts.netloc!r}")
    path = urllib.parse.unquote(parts.path)
    if not path:
        raise StorageError("the file URL names no folder")
    return path


def open_storage(url: str) -> StorageAdapter:
    """The storage adapter a URL names; raise :class:`StorageError` for an unknown scheme."""
    scheme = urllib.parse.urlsplit(url).scheme
    if scheme == "memory":
        return InMemoryStorage()
    if scheme == "file":
        return LocalStorage(storage_root(url))
    raise StorageError(f"unsupported store URL scheme {scheme!r} (supported: file://, memory://)")
