"""A minimal inotify watcher (ctypes, Linux), to prove that nothing touched a folder.

Watching a folder reports every open, read, write, create, delete and move of it
and of the files directly in it, by any process: the symlink-swap races watch the
folders outside the store and require silence. :func:`available` says whether the
kernel offers inotify; elsewhere callers fall back to comparing snapshots.
"""

from __future__ import annotations

import ctypes
import errno
import os
import struct
from collections import Counter
from pathlib import Path

IN_ACCESS = 0x001
IN_MODIFY = 0x002
IN_ATTRIB = 0x004
IN_CLOSE_WRITE = 0x008
IN_OPEN = 0x020
IN_MOVED_FROM = 0x040
IN_MOVED_TO = 0x080
IN_CREATE = 0x100
IN_DELETE = 0x200
IN_DELETE_SELF = 0x400
IN_MOVE_SELF = 0x800
IN_ISDIR = 0x40000000
ALL_EVENTS = 0xFFF
#: Events that change something (reads and opens left out).
CHANGES = IN_MODIFY | IN_ATTRIB | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF

__all__ = ["ALL_EVENTS", "CHANGES", "Watcher", "available"]

NAMES = {
    IN_ACCESS: "read",
    IN_MODIFY: "write",
    IN_ATTRIB: "attrib",
    IN_CLOSE_WRITE: "close_write",
    IN_OPEN: "open",
    IN_MOVED_FROM: "moved_from",
    IN_MOVED_TO: "moved_to",
    IN_CREATE: "create",
    IN_DELETE: "delete",
    IN_DELETE_SELF: "delete_self",
    IN_MOVE_SELF: "move_self",
}

_libc = ctypes.CDLL(None, use_errno=True)


def available() -> bool:
    """Whether inotify can be used here."""
    return hasattr(_libc, "inotify_init1")


_EVENT = struct.Struct("iIII")


class Watcher:
    """Collects inotify events on a set of folders until closed."""

    def __init__(self, folders: list[Path], mask: int = ALL_EVENTS) -> None:
        self.fd: int = _libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if self.fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1 failed")
        self.folders: dict[int, str] = {}
        for folder in folders:
            wd: int = _libc.inotify_add_watch(self.fd, os.fsencode(folder), mask)
            if wd < 0:
                raise OSError(ctypes.get_errno(), f"inotify_add_watch failed for {folder}")
            self.folders[wd] = str(folder)
        self.events: Counter[str] = Counter()

    def drain(self) -> Counter[str]:
        """Read all pending events into ``events``; return them."""
        while True:
            try:
                data = os.read(self.fd, 65536)
            except BlockingIOError:
                return self.events
            except OSError as exc:  # pragma: no cover - inotify queue trouble
                if exc.errno == errno.EINTR:
                    continue
                raise
            offset = 0
            while offset < len(data):
                wd, mask, _cookie, length = _EVENT.unpack_from(data, offset)
                name = data[offset + _EVENT.size : offset + _EVENT.size + length].rstrip(b"\0").decode()
                offset += _EVENT.size + length
                for bit, label in NAMES.items():
                    if mask & bit:
                        self.events[f"{label}:{self.folders.get(wd, '?')}/{name}"] += 1

    def close(self) -> None:
        os.close(self.fd)
