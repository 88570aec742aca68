"""``InMemoryStorage``: the reference adapter, a tree of dicts behind one lock.

It defines the behaviour every other adapter must match (the contract tests
compare them), so it favours plainness over speed.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypeAlias

from sandbox.errors import AlreadyExists, NotADirectory, NotAFile, NotFound
from sandbox.paths import MemoryPath
from sandbox.storage.base import DIR_SIZE, Edit, Entry

__all__ = ["InMemoryStorage"]

_Folder: TypeAlias = dict[str, "_Node"]
_Node: TypeAlias = "_Folder | bytes"


class InMemoryStorage:
    """Memory held in process memory; thread-safe, gone when the object is."""

    def __init__(self) -> None:
        self._root: _Folder = {}
        self._lock = threading.RLock()

    def __repr__(self) -> str:
        return "InMemoryStorage()"

    def stat(self, path: MemoryPath) -> Entry | None:
        with self._lock:
            node = self._find(path)
            if node is None:
                return None
            return _entry(path.name, node)

    @contextmanager
    def scan(self, path: MemoryPath) -> Iterator[Iterator[Entry]]:
        with self._lock:
            folder = self._folder(path)
            entries = [_entry(name, folder[name]) for name in sorted(folder)]
        yield iter(entries)

    def read(self, path: MemoryPath) -> bytes:
        with self._lock:
            node = self._find(path)
            if node is None:
                raise NotFound(path)
            if isinstance(node, dict):
                raise NotAFile(path)
            return node

    def create(self, path: MemoryPath, data: bytes) -> None:
        with self._lock:
            parent = self._make_folders(path.parent)
            if path.is_root or path.name in parent:
                raise AlreadyExists(path)
            parent[path.name] = bytes(data)

    def modify(self, path: MemoryPath, edit: Edit) -> bytes:
        with self._lock:
            content = self.read(path)
            new = bytes(edit(content))
            self._folder(path.parent)[path.name] = new
            return new

    def delete(self, path: MemoryPath) -> None:
        with self._lock:
            if path.is_root or self._find(path) is None:
                raise NotFound(path)
            del self._folder(path.parent)[path.name]

    def rename(self, old: MemoryPath, new: MemoryPath) -> None:
        with self._lock:
            node = self._find(old)
            if old.is_root or node is None:
                raise NotFound(old)
            if new.is_relative_to(old):
                # A folder moved into itself would vanish from the tree.
                raise AlreadyExists(new)
            target = self._make_folders(new.parent)
            if new.is_root or new.name in target:
                raise AlreadyExists(new)
            target[new.name] = node
            del self._folder(old.parent)[old.name]

    def _find(self, path: MemoryPath) -> _Node | None:
        node: _Node = self._root
        for name in path.parts:
            if not isinstance(node, dict) or name not in node:
                return None
            node = node[name]
        return node

    def _folder(self, path: MemoryPath) -> _Folder:
        node = self._find(path)
        if node is None:
            raise NotFound(path)
        if not isinstance(node, dict):
            raise NotADirectory(path)
        return node

    def _make_folders(self, path: MemoryPath) -> _Folder:
        folder = self._root
        for name in path.parts:
            node = folder.setdefault(name, {})
            if not isinstance(node, dict):
                raise NotADirectory(path)
            folder = node
        return folder


def _entry(name: str, node: _Node) -> Entry:
    if isinstance(node, dict):
        return Entry(name, is_dir=True, size=DIR_SIZE)
    return Entry(name, is_dir=False, size=len(node))
