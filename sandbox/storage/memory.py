"""``InMemoryStorage``: the reference adapter, a tree of dicts behind one lock.

It defines the behaviour every other adapter must match (the contract tests
compare them), so it favours plainness over speed.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import TypeAlias

from sandbox.errors import AlreadyExists, NotADirectory, NotAFile, NotFound
from sandbox.history import Horizon, Version, lineage
from sandbox.paths import MemoryPath
from sandbox.storage.base import DIR_SIZE, Entry, Node, Tree, Usage, WriteShortcuts

__all__ = ["InMemoryStorage"]


@dataclass(slots=True)
class _File:
    data: bytes
    modified: float


_Folder: TypeAlias = dict[str, "_Node"]
_Node: TypeAlias = "_Folder | _File"


class InMemoryStorage(WriteShortcuts):
    """Memory held in process memory; thread-safe, gone when the object is.

    The adapter is its own write session: :meth:`writing` holds the lock and yields the adapter.
    """

    def __init__(self) -> None:
        self._root: _Folder = {}
        self._lock = threading.RLock()
        self._usage = Usage(0, 0, 0)
        self._pseudonym_key = secrets.token_bytes(32)
        self._versions: dict[int, Version] = {}
        self._next_seq = 1
        self._horizon = Horizon()

    def __repr__(self) -> str:
        return "InMemoryStorage()"

    def pseudonym_key(self) -> bytes:
        """The store's secret for pseudonymised records: gone with the object, like its memory."""
        return self._pseudonym_key

    @contextmanager
    def writing(self) -> Iterator[InMemoryStorage]:
        with self._lock:
            yield self

    def stat(self, path: MemoryPath) -> Entry | None:
        with self._lock:
            node = self._find(path)
            return None if node is None else _entry(path.name, node)

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

    def tree(self, path: MemoryPath) -> Tree:
        with self._lock:
            node = self._find(path)
            if node is None:
                raise NotFound(path)
            nodes: list[Node] = []
            pending: list[tuple[tuple[str, ...], _Node]] = [((), node)]
            while pending:
                parts, current = pending.pop()
                if isinstance(current, _File):
                    nodes.append(Node(parts, is_dir=False, size=len(current.data), modified=current.modified))
                    continue
                nodes.append(Node(parts, is_dir=True))
                pending.extend(((*parts, name), child) for name, child in sorted(current.items(), reverse=True))
            return Tree(tuple(nodes))

    def usage(self) -> Usage:
        with self._lock:
            return self._usage

    # the write session

    def put(self, path: MemoryPath, data: bytes, *, new: bool) -> None:
        with self._lock:
            if not new:
                node = self._file(path)
                self._grow(Usage(len(data) - len(node.data), 0))
                node.data, node.modified = bytes(data), time.time()
                return
            if path.is_root or self._find(path) is not None:
                raise AlreadyExists(path)
            parent = self._make_folders(path.parent)
            parent[path.name] = _File(bytes(data), time.time())
            self._grow(Usage(len(data), 1))

    def remove(self, path: MemoryPath) -> None:
        with self._lock:
            node = None if path.is_root else self._find(path)
            if node is None:
                raise NotFound(path)
            removed = self.tree(path).usage
            del self._folder(path.parent)[path.name]
            self._grow(Usage(-removed.bytes, -removed.files, -removed.folders))

    def move(self, old: MemoryPath, new: MemoryPath) -> None:
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

    # versions (sandbox.history.Shelf)

    def shelve(self, versions: Sequence[Version]) -> list[Version]:
        with self._lock:
            stored = []
            for version in versions:
                kept = replace(version, seq=self._next_seq)
                self._versions[kept.seq] = kept
                self._next_seq += 1
                stored.append(kept)
            return stored

    def shelved(self, path: str | None = None, *, content: bool = True) -> list[Version]:
        with self._lock:
            kept = list(self._versions.values())
        if path is None:
            return kept
        above = set(lineage(path))
        return [version for version in kept if version.path in above or version.new_path in above]

    def unshelve(self, seqs: Collection[int], horizon: Horizon | None = None) -> None:
        with self._lock:
            for seq in seqs:
                self._versions.pop(seq, None)
            if horizon is not None:
                self._horizon = horizon

    def horizon(self) -> Horizon:
        with self._lock:
            return self._horizon

    def reshelve(self, version: Version) -> None:
        with self._lock:
            if version.seq in self._versions:
                self._versions[version.seq] = version

    def shelf_bytes(self) -> int:
        with self._lock:
            return sum(version.size for version in self._versions.values())

    def make_folder(self, path: MemoryPath) -> None:
        with self._lock:
            if self._find(path) is None:
                self._make_folders(path)
            else:
                self._folder(path)

    def _grow(self, change: Usage) -> None:
        self._usage = self._usage + change

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
            node = folder.get(name)
            if node is None:
                node = folder[name] = {}
                self._grow(Usage(0, 0, 1))
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
