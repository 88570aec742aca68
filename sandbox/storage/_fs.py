"""Descriptor-relative file primitives for :mod:`sandbox.storage.local` (Linux and other POSIX).

Everything here acts relative to an open directory descriptor and never follows
a symbolic link. ``renameat2`` comes from libc through ctypes: the standard
library has no rename that refuses to overwrite.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import secrets
import stat
from collections.abc import Iterator
from typing import Final

from sandbox.paths import RESERVED_PREFIX
from sandbox.storage.base import Usage

__all__ = [
    "DIR_FLAGS",
    "READ_FLAGS",
    "TEMP_PREFIX",
    "fsync_dir",
    "read_all",
    "remove_tree",
    "rename_exchange",
    "rename_noreplace",
    "walk",
    "write_temp",
]

DIR_FLAGS: Final = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
# O_NONBLOCK: opening a FIFO planted in the store must not hang the call.
READ_FLAGS: Final = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_TEMP_FLAGS: Final = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
TEMP_PREFIX: Final = RESERVED_PREFIX + "-tmp-"
FILE_MODE: Final = 0o600

#: One entry found by :func:`walk`: its names below the top, whether a folder, size, last change.
Found = tuple[tuple[str, ...], bool, int, float]
_VANISHED: Final = frozenset({errno.ENOENT, errno.ENOTDIR, errno.ELOOP})
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


def read_at_most(fd: int, limit: int) -> bytes:
    """Read a file descriptor to its end or ``limit`` bytes, whichever comes first."""
    chunks: list[bytes] = []
    left = limit
    while left > 0 and (chunk := os.read(fd, min(left, 1 << 20))):
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def read_all(fd: int, size_hint: int) -> bytes:
    """Read a file descriptor to its end."""
    chunks = []
    while chunk := os.read(fd, max(size_hint + 1, 65536)):
        chunks.append(chunk)
    return b"".join(chunks)


def remove_tree(parent: int, name: str) -> Usage:
    """Remove the folder ``name`` and everything in it, never following a link; return what went.

    Unlike ``shutil.rmtree``, which opens a folder and only then compares it with
    what it saw, no step here opens anything but a real folder (``O_NOFOLLOW``),
    so a folder swapped for a link meanwhile is never entered, even briefly. It
    holds three descriptors whatever the depth: the folders two levels down are
    moved up into the folder being removed (under hidden names) and removed from
    there, so a tree thousands of levels deep goes like a flat one.
    """
    removed = Usage(0, 0, 1)
    top = os.open(name, DIR_FLAGS, dir_fd=parent)
    try:
        while True:
            removed += _clear_files(top)
            folders = [entry.name for entry in _listing(top) if entry.is_dir(follow_symlinks=False)]
            if not folders:
                break
            for folder in folders:
                removed += _lift_and_remove(top, folder)
    finally:
        os.close(top)
    os.rmdir(name, dir_fd=parent)
    return removed


def _listing(fd: int) -> list[os.DirEntry[str]]:
    with os.scandir(fd) as found:
        return list(found)


def _clear_files(folder: int) -> Usage:
    """Unlink every entry of ``folder`` that is not a real folder (links are unlinked, never followed)."""
    size = files = 0
    for entry in _listing(folder):
        if entry.is_dir(follow_symlinks=False):
            continue
        with contextlib.suppress(FileNotFoundError):
            st = entry.stat(follow_symlinks=False)
            os.unlink(entry.name, dir_fd=folder)  # unlink never follows a link
            if stat.S_ISREG(st.st_mode):
                size, files = size + st.st_size, files + 1
    return Usage(size, files, 0)


def _lift_and_remove(top: int, name: str) -> Usage:
    """Move the subfolders of ``top/name`` up into ``top``, unlink its files, remove it."""
    try:
        fd = os.open(name, DIR_FLAGS, dir_fd=top)
    except OSError as exc:
        if exc.errno not in (errno.ENOTDIR, errno.ELOOP):
            raise
        os.unlink(name, dir_fd=top)  # swapped for a link or a file since it was listed
        return Usage(0, 0, 0)
    try:
        removed = _clear_files(fd)
        for entry in _listing(fd):
            if entry.is_dir(follow_symlinks=False):
                os.rename(entry.name, f"{TEMP_PREFIX}rm-{secrets.token_hex(8)}", src_dir_fd=fd, dst_dir_fd=top)
    finally:
        os.close(fd)
    os.rmdir(name, dir_fd=top)
    return removed + Usage(0, 0, 1)


def walk(top: int, *, keep: int = 32, remove_temp: bool = False) -> Iterator[Found]:
    """Every entry below the folder descriptor ``top`` (left open), parents first, as (names, is_dir, size, mtime).

    Never follows a link and skips the store's own entries. At most ``keep`` descriptors are
    open at once whatever the depth: a deeper folder's ancestors are closed and opened again,
    one no-follow step at a time from the nearest one still open, when the walk climbs back.
    With ``remove_temp``, temp files and folders left by a writer that died are removed.
    """
    path: list[str] = []
    fds: list[int | None] = [top]
    pending: list[list[Found]] = [_entries_of(top, remove_temp)]
    try:
        while pending:
            if not pending[-1]:
                pending.pop()
                fd = fds.pop()
                if fd is not None and fds:
                    os.close(fd)
                if path:
                    path.pop()
                continue
            names, is_dir, size, modified = pending[-1].pop()
            yield (*path, *names), is_dir, size, modified
            if not is_dir:
                continue
            name = names[0]
            try:
                child = os.open(name, DIR_FLAGS, dir_fd=_reopen(top, path, fds))
            except OSError as exc:
                if exc.errno not in _VANISHED:
                    raise
                continue  # removed, or swapped for a link, since it was listed
            path.append(name)
            fds.append(child)
            _close_shallowest(fds, keep)
            pending.append(_entries_of(child, remove_temp))
    finally:
        for fd in fds[1:]:
            if fd is not None:
                os.close(fd)


def _entries_of(folder: int, remove_temp: bool) -> list[Found]:
    """A folder's entries in reverse name order (popped in order)."""
    found: list[Found] = []
    for entry in _listing(folder):
        try:
            if entry.name.startswith(TEMP_PREFIX):
                if remove_temp:
                    _remove_entry(folder, entry)
                continue
            if entry.name.startswith(RESERVED_PREFIX) or entry.is_symlink():
                continue
            if entry.is_dir(follow_symlinks=False):
                found.append(((entry.name,), True, 0, 0.0))
            elif entry.is_file(follow_symlinks=False):
                st = entry.stat(follow_symlinks=False)
                found.append(((entry.name,), False, st.st_size, st.st_mtime))
        except OSError as exc:
            if exc.errno not in _VANISHED:
                raise
    return sorted(found, reverse=True)


def _remove_entry(folder: int, entry: os.DirEntry[str]) -> None:
    if entry.is_dir(follow_symlinks=False):
        remove_tree(folder, entry.name)
    else:
        os.unlink(entry.name, dir_fd=folder)


def _reopen(top: int, path: list[str], fds: list[int | None]) -> int:
    """The descriptor of the current folder, opened again from its nearest open ancestor if closed."""
    current = fds[-1]
    if current is not None:
        return current
    nearest, fd = next((depth, fd) for depth, fd in reversed(list(enumerate(fds))) if fd is not None)
    for depth in range(nearest, len(path)):
        child = os.open(path[depth], DIR_FLAGS, dir_fd=fd)
        if depth != nearest:
            os.close(fd)
        fd = child
    fds[-1] = fd
    return fd


def _close_shallowest(fds: list[int | None], keep: int) -> None:
    open_owned = [(depth, fd) for depth, fd in enumerate(fds) if fd is not None and depth]
    if len(open_owned) > keep:
        depth, fd = open_owned[0]
        os.close(fd)
        fds[depth] = None


def fsync_dir(dir_fd: int, *, sync: bool) -> None:
    """Make a folder's entries (a rename, a new name) durable."""
    if sync:
        os.fsync(dir_fd)


def publish_once(path: str | os.PathLike[str], data: bytes) -> None:
    """Create ``path`` holding ``data`` (mode 0o600) unless it exists; safe against racing processes.

    The data is written to a temp file beside it first and linked into place, so no process ever
    reads a half-written file, and the first process to link wins (a key, a store's manifest).
    """
    target = os.fspath(path)
    folder, name = os.path.split(target)
    temp = os.path.join(folder, f".{name}.{os.getpid()}-{secrets.token_hex(4)}")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        with contextlib.suppress(FileExistsError):
            os.link(temp, target)
    finally:
        os.remove(temp)
