"""The names of a local store's folders under their look-alike keys, kept between calls.

A create or rename must find any sibling whose name folds like the new one
(:func:`sandbox.names.lookalike_key`); listing the folder for that costs O(files
in the folder) on every call. :class:`FolderKeys` lists a folder once and then
answers by key, for as long as it can tell nothing else changed the folder:

- every write session of the store, in any process, moves the store's
  *generation* (kept in its state file, under the write lock); keys kept at
  another generation than the one a session finds are dropped;
- the session that writes keeps the keys of the folders it changes up to date
  itself, and notes each folder's new signature (inode, modification and change
  times) after its own change;
- a folder whose signature differs from the one noted was changed behind the
  store's back (another tool): it is listed again.

A tool that changes a folder behind the store's back within the same clock tick
as the store's own last change to it is not seen until the folder changes
again; writers that go through the store (any process) are always seen.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from sandbox.names import lookalike_key

__all__ = ["FolderKeys", "Parts"]

Parts = tuple[str, ...]
_Signature = tuple[int, int, int]


def _signature(folder: int) -> _Signature:
    st = os.fstat(folder)
    return st.st_ino, st.st_mtime_ns, st.st_ctime_ns


class FolderKeys:
    """Per folder (by its path's parts): its signature when last seen, and its names by look-alike key.

    Used only inside the store's write sessions (one at a time per store
    object, under its thread lock).
    """

    __slots__ = ("_folders", "generation")

    def __init__(self) -> None:
        self._folders: dict[Parts, tuple[_Signature, dict[str, set[str]]]] = {}
        #: The store generation the kept keys are right for; None: nothing kept is trusted.
        self.generation: int | None = None

    def begin(self, generation: int | None) -> None:
        """A write session starts and finds the store at ``generation``."""
        if generation is None or generation != self.generation:
            self._folders.clear()
        self.generation = generation

    def clear(self) -> None:
        self._folders.clear()
        self.generation = None

    def alike(self, parts: Parts, folder: int, key: str, names: Callable[[], list[str]]) -> list[str]:
        """The names in the folder at ``parts`` (open as ``folder``) whose look-alike key is ``key``."""
        signature = _signature(folder)
        kept = self._folders.get(parts)
        if kept is None or kept[0] != signature:
            by_key: dict[str, set[str]] = {}
            for name in names():
                by_key.setdefault(lookalike_key(name), set()).add(name)
            kept = self._folders[parts] = (signature, by_key)
        return sorted(kept[1].get(key, ()))

    def before(self, parts: Parts, folder: int) -> _Signature | None:
        """The signature of a kept folder just before the session changes it (None if not kept)."""
        return _signature(folder) if parts in self._folders else None

    def changed(
        self,
        parts: Parts,
        folder: int,
        before: _Signature | None,
        *,
        added: str | None = None,
        removed: str | None = None,
    ) -> None:
        """The session changed the folder at ``parts`` (open as ``folder``), whose signature was
        ``before``: a name added, removed, both, or neither (a file's content replaced)."""
        kept = self._folders.get(parts)
        if kept is None:
            return
        if kept[0] != before:  # changed behind the store's back since it was listed
            del self._folders[parts]
            return
        by_key = kept[1]
        if removed is not None:
            key = lookalike_key(removed)
            same = by_key.get(key, set())
            same.discard(removed)
            if not same:
                by_key.pop(key, None)
        if added is not None:
            by_key.setdefault(lookalike_key(added), set()).add(added)
        self._folders[parts] = (_signature(folder), by_key)

    def forget(self, parts: Parts) -> None:
        """Drop what is kept for the folder at ``parts`` and every folder below it."""
        for kept in [kept for kept in self._folders if kept[: len(parts)] == parts]:
            del self._folders[kept]
