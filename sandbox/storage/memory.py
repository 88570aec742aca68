"""``InMemoryStorage``: the reference adapter, a tree of dicts behind one lock.

It defines the behaviour every other adapter must match (the contract tests
compare them), so it favours plainness over speed.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeAlias

from sandbox.errors import AlreadyExists, NotADirectory, NotAFile, NotFound
from sandbox.paths import MemoryPath
from sandbox.storage.base import DIR_SIZE, Edit, Entry, Quota, Usage

__all__ = ["InMemoryStorage"]


@dataclass(slots=True)
class _File:
    data: bytes
    modified: float


_Folder: TypeAlias = dict[str, "_Node"]
_Node: TypeAlias = "_Folder | _File"


class InMemoryStorage:
    """Memory held in process memory; thread-safe, gone when the object is."""

    def __init__(self) -> None:
        self._root: _Folder = {}
        self._lock = threading.RLock()
        self._usage = Usage(0, 0)

    def __repr__(self) -> str:
        return "InMemoryStorage()"

    def stat(self, path: MemoryPath) -> Entry | None:
        with self._lock:
            try:
                node = self._find(path)
            except NotADirectory:
                return None
            if node is None:
                return None
            return _entry(path.name, node)

    @contextmanager
    def scan(self, path: MemoryPath) -> Iterator[Iterator[Entry]]:
        with self._lock:
            folder = self._folder(path)
            entries = [_entry(name, folder[name]) for name in sorted(folder)]
        yield iter(entries)

    def names(self, path: MemoryPath) -> list[str]:
        with self._lock:
            return list(self._folder(path))

    def read(self, path: MemoryPath) -> bytes:
        with self._lock:
            return self._file(path).data

    def create(self, path: MemoryPath, data: bytes, quota: Quota | None = None) -> None:
        with self._lock:
            if path.is_root or self._find(path) is not None:
                raise AlreadyExists(path)
            if quota is not None:
                quota.check(self._usage, len(data), 1)
            parent = self._make_folders(path.parent)
            parent[path.name] = _File(bytes(data), time.time())
            self._grow(len(data), 1)

    def modify(self, path: MemoryPath, edit: Edit, quota: Quota | None = None) -> bytes:
        with self._lock:
            node = self._file(path)
            new = bytes(edit(node.data))
            if quota is not None:
                quota.check(self._usage, len(new) - len(node.data), 0)
            self._grow(len(new) - len(node.data), 0)
            node.data, node.modified = new, time.time()
            return new

    def delete(self, path: MemoryPath) -> None:
        with self._lock:
            node = None if path.is_root else self._find(path)
            if node is None:
                raise NotFound(path)
            size, files = _tree_usage(node)
            del self._folder(path.parent)[path.name]
            self._grow(-size, -files)

    def rename(self, old: MemoryPath, new: MemoryPath) -> None:
        with self._lock:
            node = self._find(old)
            if old.is_root or node is None:
                raise NotFound(old)
            if new.is_relative_to(old):
                # A folder moved into itself would vanish from the tree.
                raise AlreadyExists(new)
            if new.is_root or self._find(new) is not None:
                raise AlreadyExists(new)
            target = self._make_folders(new.parent)
            target[new.name] = node
            del self._folder(old.parent)[old.name]

    def usage(self) -> Usage:
        with self._lock:
            return self._usage

    def _grow(self, size: int, files: int) -> None:
        self._usage = Usage(self._usage.bytes + size, self._usage.files + files)

    def _find(self, path: MemoryPath) -> _Node | None:
        node: _Node = self._root
        for depth, name in enumerate(path.parts):
            if not isinstance(node, dict):
                # A file stands where a folder is needed: name it, as every adapter does.
                raise NotADirectory(_prefix(path, depth))
            if name not in node:
                return None
            node = node[name]
        return node

    def _file(self, path: MemoryPath) -> _File:
        node = self._find(path)
        if node is None:
            raise NotFound(path)
        if isinstance(node, dict):
            raise NotAFile(path)
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
        for depth, name in enumerate(path.parts, 1):
            node = folder.setdefault(name, {})
            if not isinstance(node, dict):
                raise NotADirectory(_prefix(path, depth))
            folder = node
        return folder


def _prefix(path: MemoryPath, depth: int) -> str:
    return "/memories/" + "/".join(path.parts[:depth])


def _entry(name: str, node: _Node) -> Entry:
    if isinstance(node, dict):
        return Entry(name, is_dir=True, size=DIR_SIZE)
    return Entry(name, is_dir=False, size=len(node.data), modified=node.modified)


def _tree_usage(node: _Node) -> tuple[int, int]:
    if isinstance(node, _File):
        return len(node.data), 1
    totals = [_tree_usage(child) for child in node.values()]
    return sum(t[0] for t in totals), sum(t[1] for t in totals)
