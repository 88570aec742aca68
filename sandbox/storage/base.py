"""The storage adapter contract: few methods, canonical paths only.

An adapter stores bytes under :class:`~sandbox.paths.MemoryPath` keys and knows
nothing of commands, policies or output formats; :mod:`sandbox.store` builds
the six memory commands on top of it, once for every adapter. Adapters signal
the ordinary failures with :class:`~sandbox.errors.NotFound`,
:class:`~sandbox.errors.AlreadyExists`, :class:`~sandbox.errors.NotADirectory`
and :class:`~sandbox.errors.NotAFile`, and map everything else their backend
raises to :class:`~sandbox.errors.StorageError` at their edge.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Final, Protocol, runtime_checkable

from sandbox.errors import QuotaExceeded
from sandbox.paths import MemoryPath

__all__ = ["DIR_SIZE", "Edit", "Entry", "Quota", "StorageAdapter", "Usage"]

#: The size a folder reports in listings, as ``du`` shows an ext4 folder
#: ("4.0K"). A constant keeps listings identical across adapters.
DIR_SIZE: Final = 4096

#: A read-modify-write step: current bytes in, new bytes out. It may raise
#: (for instance :class:`~sandbox.errors.OperationFailed`) and then nothing is written.
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
    """What a store holds: bytes in files and the number of files (folders are free)."""

    bytes: int
    files: int


@dataclass(frozen=True, slots=True)
class Quota:
    """The most a store may hold. Adapters check it inside the write's own critical section,
    against their usage at that instant, so concurrent writers cannot overshoot it together."""

    max_bytes: int | None = None
    max_files: int | None = None

    def check(self, usage: Usage, add_bytes: int, add_files: int) -> None:
        """Raise :class:`QuotaExceeded` if growing by this much would pass a limit."""
        if self.max_bytes is not None and add_bytes > 0 and usage.bytes + add_bytes > self.max_bytes:
            raise QuotaExceeded("quota.max_bytes", usage.bytes + add_bytes, self.max_bytes, "bytes")
        if self.max_files is not None and add_files > 0 and usage.files + add_files > self.max_files:
            raise QuotaExceeded("quota.max_files", usage.files + add_files, self.max_files, "files")


@runtime_checkable
class StorageAdapter(Protocol):
    """Where memory lives. ``/memories`` itself always exists and is a folder."""

    def stat(self, path: MemoryPath) -> Entry | None:
        """The entry at ``path``, or None when nothing is there."""
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

    def create(self, path: MemoryPath, data: bytes, quota: Quota | None = None) -> None:
        """Write a new file, creating missing folders; never overwrite (AlreadyExists)."""
        ...

    def modify(self, path: MemoryPath, edit: Edit, quota: Quota | None = None) -> bytes:
        """Replace a file's content by ``edit(content)`` atomically; return the new content.

        Concurrent ``modify`` calls on one file never lose an edit.
        """
        ...

    def delete(self, path: MemoryPath) -> None:
        """Remove a file, or a folder with everything in it."""
        ...

    def rename(self, old: MemoryPath, new: MemoryPath) -> None:
        """Move a file or folder, creating missing folders; never overwrite (AlreadyExists)."""
        ...

    def usage(self) -> Usage:
        """Bytes and files held now, kept up to date so that reading it costs O(1)."""
        ...
