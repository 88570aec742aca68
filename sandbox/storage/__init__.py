"""Storage adapters: where memory lives. All accept canonical ``MemoryPath`` keys only."""

from __future__ import annotations

from sandbox.storage.base import Entry, StorageAdapter, Usage
from sandbox.storage.local import LocalStorage
from sandbox.storage.memory import InMemoryStorage

__all__ = ["Entry", "InMemoryStorage", "LocalStorage", "StorageAdapter", "Usage"]
