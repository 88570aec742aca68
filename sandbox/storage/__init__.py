"""Storage adapters: where memory lives. All accept canonical ``MemoryPath`` keys only."""

from __future__ import annotations

from sandbox.storage.base import Entry, StorageAdapter
from sandbox.storage.memory import InMemoryStorage

__all__ = ["Entry", "InMemoryStorage", "StorageAdapter"]
