"""Descriptor-relative file primitives for :mod:`sandbox.storage.local` (Linux and other POSIX).

Everything here acts relative to an open directory descriptor and never follows
a symbolic link. ``renameat2`` comes from libc through ctypes: the standard
library has no rename that refuses to overwrite.
"""

from __future__ import annotations

import ctypes
import errno
import os
import secrets
from typing import Final

from sandbox.paths import RESERVED_PREFIX

__all__ = [
    "DIR_FLAGS",
    "READ_FLAGS",
    "TEMP_PREFIX",
    "fsync_dir",
    "read_all",
    "remove_tree",
    "rename_exchange",
    "rename_noreplace",
    "write_temp",
]

DIR_FLAGS: Final = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
# O_NONBLOCK: opening a FIFO planted in the store must not hang the call.
READ_FLAGS: Final = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_TEMP_FLAGS: Final = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
TEMP_PREFIX: Final = RESERVED_PREFIX + "-tmp-"
FILE_MODE: Final = 0o600

_RENAME_NOREPLACE: Final = 1
_RENAME_EXCHANGE: Final = 2

_libc = ctypes.CDLL(None, use_errno=True)
_renameat2 = getattr(_libc, "renameat2", None)
if _renameat2 is not None:
    _renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    _renameat2.restype = ctypes.c_int


def _call_renameat2(src_dir: int, src: str, dst_dir: int, dst: str, flags: int) -> None:
    if _renameat2 is None:
        raise OSError(errno.ENOSYS, "renameat2 is not available")
    if _renameat2(src_dir, os.fsencode(src), dst_dir, os.fsencode(dst), flags) != 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code))


def rename_noreplace(src_dir: int, src: str, dst_dir: int, dst: str) -> None:
    """Rename ``src`` to ``dst``; fail with EEXIST rather than replace anything at ``dst``.

    Falls back to link-then-unlink (files only) where the kernel or file system
    lacks ``RENAME_NOREPLACE``; never to check-then-rename, which races.
    """
    try:
        _call_renameat2(src_dir, src, dst_dir, dst, _RENAME_NOREPLACE)
    except OSError as exc:
        if exc.errno not in (errno.ENOSYS, errno.EINVAL):
            raise
        os.link(src, dst, src_dir_fd=src_dir, dst_dir_fd=dst_dir, follow_symlinks=False)
        os.unlink(src, dir_fd=src_dir)


def rename_exchange(src_dir: int, src: str, dst_dir: int, dst: str) -> None:
    """Swap two names atomically (``RENAME_EXCHANGE``); used by the race tests."""
    _call_renameat2(src_dir, src, dst_dir, dst, _RENAME_EXCHANGE)


def write_temp(dir_fd: int, data: bytes, *, sync: bool) -> str:
    """Write ``data`` to a new hidden temp file in the folder; return its name.

    The file is created exclusively with mode 0o600 whatever the umask, written
    in full and, when ``sync``, fsynced before the caller renames it into place.
    """
    name = f"{TEMP_PREFIX}{os.getpid()}-{secrets.token_hex(6)}"
    fd = os.open(name, _TEMP_FLAGS, FILE_MODE, dir_fd=dir_fd)
    try:
        os.fchmod(fd, FILE_MODE)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        if sync:
            os.fsync(fd)
    except BaseException:
        os.close(fd)
        os.unlink(name, dir_fd=dir_fd)
        raise
    os.close(fd)
    return name


def read_all(fd: int, size_hint: int) -> bytes:
    """Read a file descriptor to its end."""
    chunks = []
    while chunk := os.read(fd, max(size_hint + 1, 65536)):
        chunks.append(chunk)
    return b"".join(chunks)


def remove_tree(parent: int, name: str) -> None:
    """Remove the folder ``name`` and everything in it, never following a link.

    Unlike ``shutil.rmtree``, which opens a folder and only then compares it with
    what it saw, no step here opens anything but a real folder (``O_NOFOLLOW``),
    so a folder swapped for a link meanwhile is never entered, even briefly.
    """
    fd = os.open(name, DIR_FLAGS, dir_fd=parent)
    try:
        with os.scandir(fd) as found:
            entries = [(entry.name, entry.is_dir(follow_symlinks=False)) for entry in found]
        for child, is_dir in entries:
            if is_dir:
                try:
                    remove_tree(fd, child)
                    continue
                except OSError as exc:
                    if exc.errno not in (errno.ENOTDIR, errno.ELOOP):
                        raise
                    # Swapped for a link or file since it was listed: unlink that instead.
            os.unlink(child, dir_fd=fd)  # unlink never follows a link
    finally:
        os.close(fd)
    os.rmdir(name, dir_fd=parent)


def fsync_dir(dir_fd: int, *, sync: bool) -> None:
    """Make a folder's entries (a rename, a new name) durable."""
    if sync:
        os.fsync(dir_fd)
