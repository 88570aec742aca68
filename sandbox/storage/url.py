"""Stores chosen by URL, everywhere the CLI takes a store: ``memory://``, ``file:///srv/memory``."""

from __future__ import annotations

import urllib.parse

from sandbox.errors import StorageError
from sandbox.storage.base import StorageAdapter
from sandbox.storage.memory import InMemoryStorage

__all__ = ["open_storage"]


def open_storage(url: str) -> StorageAdapter:
    """The storage adapter a URL names; raise :class:`StorageError` for an unknown scheme."""
    scheme = urllib.parse.urlsplit(url).scheme
    if scheme == "memory":
        return InMemoryStorage()
    raise StorageError(f"unsupported store URL scheme {scheme!r} (supported: memory://)")
