"""The storage adapter contract: reads of state, and a write session that applies plans.

An adapter stores bytes under :class:`~sandbox.paths.MemoryPath` keys and knows
nothing of commands, policies or output formats. It answers questions about
state (:class:`Reader`) and, inside :meth:`StorageAdapter.writing`, applies
exactly the changes it is told (:class:`Writer`): the caller plans and judges a
call against the state it reads in the same session, so nothing moves between
the judgment and the change. Adapters signal the ordinary failures with
:class:`~sandbox.errors.NotFound`, :class:`~sandbox.errors.AlreadyExists`,
:class:`~sandbox.errors.NotADirectory` and :class:`~sandbox.errors.NotAFile`,
and map everything else their backend raises to
:class:`~sandbox.errors.StorageError` at their edge.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Final, Protocol, TypeVar, runtime_checkable

from sandbox.errors import AlreadyExists, NotAFile, NotFound
from sandbox.paths import MemoryPath

__all__ = [
    "DIR_SIZE",
    "Edit",
    "Entry",
    "Node",
    "Reader",
    "StorageAdapter",
    "Tree",
    "Usage",
    "WriteShortcuts",
    "Writer",
]

#: The size a folder reports in listings, as ``du`` shows an ext4 folder
#: ("4.0K"). A constant keeps listings identical across adapters.
DIR_SIZE: Final = 4096

_T = TypeVar("_T")

#: A read-modify-write step for :meth:`WriteShortcuts.modify`: current bytes in, new bytes out.
Edit = Callable[[bytes], bytes]


@dataclass(frozen=True, slots=True)
class Entry:
    """One listed item: its name inside its folder, kind, size in bytes, last change (Unix time)."""

    name: str
    is_dir: bool
    size: int
    modified: float = 0.0


@dataclass(frozen=True, slots=True)
class Usage:
    """What a store holds: bytes in files, files, and folders (the root not counted)."""

    bytes: int
    files: int
    folders: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(self.bytes + other.bytes, self.files + other.files, self.folders + other.folders)


@dataclass(frozen=True, slots=True)
class Node:
    """One entry of a :class:`Tree`: its names below the tree's top (``()`` is the top itself)."""

    parts: tuple[str, ...]
    is_dir: bool
    size: int = 0
    modified: float = 0.0


@dataclass(frozen=True, slots=True)
class Tree:
    """A path and everything below it: what a delete removes and a rename moves. The top comes first."""

    nodes: tuple[Node, ...]

    @property
    def usage(self) -> Usage:
        files = [node.size for node in self.nodes if not node.is_dir]
        return Usage(sum(files), len(files), len(self.nodes) - len(files))

    @property
    def depth(self) -> int:
        """How many names the deepest entry lies below the top (0 for a file or an empty folder)."""
        return max(len(node.parts) for node in self.nodes)

    @property
    def extra_bytes(self) -> int:
        """How many bytes the longest path below the top adds to the top's own path."""
        return max(sum(len(part.encode("utf-8")) + 1 for part in node.parts) for node in self.nodes)


@runtime_checkable
class Reader(Protocol):
    """Questions about state. ``/memories`` itself always exists and is a folder."""

    def stat(self, path: MemoryPath) -> Entry | None:
        """The entry at ``path``, or None when nothing is there.

        Raises NotADirectory naming the file when a file stands where a folder of ``path`` is needed.
        """
        ...

    def scan(self, path: MemoryPath) -> AbstractContextManager[Iterator[Entry]]:
        """The entries of a folder, sorted by name, sized lazily so a caller may stop early.

        Raises NotFound when nothing is at ``path`` and NotADirectory when it is a file.
        """
        ...

    def names(self, path: MemoryPath) -> list[str]:
        """The names in a folder, unsorted, without the store's own files; cheaper than :meth:`scan`."""
        ...

    def read(self, path: MemoryPath) -> bytes:
        """The content of a regular file."""
        ...

    def tree(self, path: MemoryPath) -> Tree:
        """The entry at ``path`` and every entry below it (NotFound when nothing is there)."""
        ...

    def usage(self) -> Usage:
        """Bytes, files and folders held now, kept up to date so that reading it costs O(1)."""
        ...


@runtime_checkable
class Writer(Reader, Protocol):
    """A write session: reads see its own changes; no other writer changes the store meanwhile."""

    def put(self, path: MemoryPath, data: bytes, *, new: bool) -> None:
        """Write a whole file atomically: a new one (making missing folders; AlreadyExists if
        anything is there) or, with ``new`` False, the content of an existing regular file."""
        ...

    def remove(self, path: MemoryPath) -> None:
        """Remove a file, or a folder with everything in it."""
        ...

    def move(self, old: MemoryPath, new: MemoryPath) -> None:
        """Move a file or folder, making missing folders; never overwrite (AlreadyExists)."""
        ...


@runtime_checkable
class StorageAdapter(Reader, Protocol):
    """Where memory lives: reads on their own, writes in a session that holds the store's write lock."""

    def writing(self) -> AbstractContextManager[Writer]:
        """A write session: writers of the store, in every process, take turns."""
        ...


class WriteShortcuts:
    """One-call writes, each in a write session of its own, for tools and tests that plant or edit
    content directly. An adapter whose backend may drop a session midway (a lost connection)
    overrides :meth:`_write` to run the body again."""

    def writing(self) -> AbstractContextManager[Writer]:
        raise NotImplementedError

    def _write(self, body: Callable[[Writer], _T]) -> _T:
        with self.writing() as writer:
            return body(writer)

    def create(self, path: MemoryPath, data: bytes) -> None:
        """Write a new file, making missing folders; never overwrite (AlreadyExists)."""
        self._write(lambda writer: writer.put(path, data, new=True))

    def modify(self, path: MemoryPath, edit: Edit) -> bytes:
        """Replace a file's content by ``edit(content)`` atomically; return the new content."""

        def body(writer: Writer) -> bytes:
            entry = writer.stat(path)
            if entry is None:
                raise NotFound(path)
            if entry.is_dir:
                raise NotAFile(path)
            new = bytes(edit(writer.read(path)))
            writer.put(path, new, new=False)
            return new

        return self._write(body)

    def delete(self, path: MemoryPath) -> None:
        """Remove a file, or a folder with everything in it."""
        if path.is_root:
            raise NotFound(path)
        self._write(lambda writer: writer.remove(path))

    def rename(self, old: MemoryPath, new: MemoryPath) -> None:
        """Move a file or folder; never overwrite (AlreadyExists)."""
        if old.is_root:
            raise NotFound(old)
        if new.is_root or new.is_relative_to(old):
            raise AlreadyExists(new)
        self._write(lambda writer: writer.move(old, new))
