"""The folder store's versions: an append-only log in its reserved folder, read back by an index.

A version record is a header line (``V``, a CRC-32 of the record, the version without its
content as JSON, the content's length) followed by the content and a newline; ``D`` lines
name dropped versions and the history's new :class:`~sandbox.history.Horizon`. Appends happen
under the store's write lock and are fsynced before the change they precede.

A crash can leave only the last record incomplete or garbled: a record that fails its CRC or
runs past the end of the file, with nothing whole after it, is cut off by the next writer.
A bad record with whole records after it is damage, not a crash: every write then fails
(``history is damaged``) rather than drop acknowledged versions. Dropped versions stay in
the file until they are most of it; the log is then rewritten whole (a temp file renamed
over it), so content that was dropped, or erased by ``history redact``, leaves the disk.
Another process that rewrote the log is noticed by the log's name, before each use.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import zlib
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from typing import Final

from sandbox.errors import StorageError
from sandbox.history import OVERHEAD, Horizon, Version, decode_meta, encode_meta, lineage

__all__ = ["VersionLog"]

_COMPACT_AT: Final = 1024 * 1024
_VERSION: Final = b"V "
_DROP: Final = b"D "


@dataclass(slots=True)
class _Kept:
    version: Version  # without its content
    offset: int  # where its content starts
    length: int  # -1: none


class _Damaged(Exception):
    """A record that is not whole, with whole records after it."""


class VersionLog:
    """One store's versions; every method but :meth:`close` runs under the store's write lock."""

    def __init__(
        self,
        open_log: Callable[[], int],
        stat_log: Callable[[], os.stat_result | None],
        replace_log: Callable[[bytes], None],
        *,
        sync: bool,
    ) -> None:
        self._open, self._stat, self._replace, self._sync = open_log, stat_log, replace_log, sync
        self._fd: int | None = None
        self._identity: tuple[int, int] | None = None
        self._kept: dict[int, _Kept] = {}
        self._by_path: dict[str, set[int]] = {}  # the seqs of the versions naming each path (or new path)
        self._parsed = 0  # bytes of the file read into the index
        self._garbage = 0  # bytes of dropped records still in the file
        self._bytes = 0
        self._next_seq = 1
        self._horizon = Horizon()

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd, self._identity = None, None

    def forget_process(self) -> None:
        """In a forked child: drop the inherited descriptor's state (the file is read again)."""
        self.close()
        self._reset()

    # the Shelf methods

    def shelve(self, versions: Sequence[Version]) -> list[Version]:
        fd = self._refresh()
        stored, chunks = [], []
        offset = self._parsed
        for version in versions:
            kept = replace(version, seq=self._next_seq)
            self._next_seq += 1
            record, content_at = _record(kept)
            chunks.append(record)
            self._index(kept, offset + content_at, len(kept.content) if kept.content is not None else -1)
            offset += len(record)
            stored.append(kept)
        self._append(fd, b"".join(chunks))
        return stored

    def shelved(self, path: str | None = None, *, content: bool = True) -> list[Version]:
        fd = self._refresh()
        if path is None:
            seqs = sorted(self._kept)
        else:
            seqs = sorted({seq for folder in lineage(path) for seq in self._by_path.get(folder, ())})
        found = []
        for seq in seqs:
            kept = self._kept[seq]
            version = kept.version
            if content:
                data = _pread(fd, kept.length, kept.offset) if kept.length >= 0 else None
                version = replace(version, length=None, content=data)
            found.append(version)
        return found

    def unshelve(self, seqs: Collection[int], horizon: Horizon | None = None) -> None:
        fd = self._refresh()
        gone = sorted(seq for seq in seqs if seq in self._kept)
        if not gone and horizon is None:
            return
        horizon = horizon or self._horizon
        line = json.dumps({"drop": gone, "every": horizon.every, "sessions": horizon.sessions}).encode("ascii")
        self._append(fd, _DROP + line + b"\n")
        for seq in gone:
            self._drop(seq)
        self._horizon = horizon
        if self._garbage > max(_COMPACT_AT, self._parsed - self._garbage):
            self._compact()

    def horizon(self) -> Horizon:
        self._refresh()
        return self._horizon

    def reshelve(self, version: Version) -> None:
        """Replace a kept version's record (a redaction, a release from quarantine); the old one is
        dropped and the log rewritten, so erased content is gone from the disk."""
        fd = self._refresh()
        if version.seq not in self._kept:
            return
        record, content_at = _record(version)
        offset = self._parsed
        self._append(fd, record)
        self._drop(version.seq)
        self._index(version, offset + content_at, len(version.content) if version.content is not None else -1)
        self._compact()

    def shelf_bytes(self) -> int:
        self._refresh()
        return self._bytes

    # internals

    def _reset(self) -> None:
        self._kept, self._by_path, self._parsed, self._garbage, self._bytes, self._next_seq = {}, {}, 0, 0, 0, 1
        self._horizon = Horizon()

    def _index(self, version: Version, offset: int, length: int) -> None:
        if version.seq in self._kept:
            self._drop(version.seq)
        self._kept[version.seq] = _Kept(replace(version, content=None, length=max(length, 0)), offset, length)
        for named in (version.path, version.new_path):
            if named is not None:
                self._by_path.setdefault(named, set()).add(version.seq)
        self._bytes += _size(version, length)
        self._next_seq = max(self._next_seq, version.seq + 1)

    def _drop(self, seq: int) -> None:
        kept = self._kept.pop(seq)
        for named in (kept.version.path, kept.version.new_path):
            if named is not None:
                seqs = self._by_path.get(named)
                if seqs is not None:
                    seqs.discard(seq)
                    if not seqs:
                        del self._by_path[named]
        size = _size(kept.version, kept.length)
        self._bytes -= size
        self._garbage += size

    def _refresh(self) -> int:
        """The log's descriptor, the index brought up to the file as its name finds it now."""
        now = self._stat()
        identity = (now.st_dev, now.st_ino) if now is not None else None
        if self._fd is None or identity is None or identity != self._identity:
            # First use, or rewritten by another process: open the current file and read it whole.
            self.close()
            self._fd = self._open()
            st = os.fstat(self._fd)
            self._identity = (st.st_dev, st.st_ino)
            self._reset()
        size = os.fstat(self._fd).st_size
        if size < self._parsed:
            self._reset()
        if size > self._parsed:
            self._read_tail(self._fd, size)
        return self._fd

    def _read_tail(self, fd: int, size: int) -> None:
        try:
            self._parse(fd, size)
        except (ValueError, TypeError, KeyError, _Damaged) as exc:
            self._reset()
            self._identity = None
            raise StorageError("Error: The memory store's history is damaged.", detail=type(exc).__name__) from None

    def _parse(self, fd: int, size: int) -> None:
        data = _pread(fd, size - self._parsed, self._parsed)
        at = 0
        while at < len(data):
            end = data.find(b"\n", at)
            if end < 0:
                break  # torn: its writer died mid-header
            line = data[at:end]
            if line.startswith(_DROP):
                fields = json.loads(line[2:])
                for seq in fields["drop"]:
                    if int(seq) in self._kept:
                        self._drop(int(seq))
                self._horizon = Horizon(float(fields["every"]), float(fields["sessions"]))
                self._garbage += end + 1 - at
                at = end + 1
                continue
            parsed = _header(line)
            if parsed is None:
                if _whole_after(data, end + 1):
                    raise _Damaged
                break  # torn
            crc, meta, length = parsed
            start, stop = end + 1, end + 1 + max(length, 0)
            content = data[start:stop]
            whole = stop < len(data) and data[stop : stop + 1] == b"\n"
            if not whole or zlib.crc32(meta + b" " + str(length).encode() + b"\n" + content) != crc:
                if _whole_after(data, min(stop + 1, len(data))):
                    raise _Damaged
                break  # torn: the last record, garbled or short
            self._index(decode_meta(meta, None), self._parsed + start, length)
            at = stop + 1
        self._parsed += at
        if self._parsed < size:
            os.ftruncate(fd, self._parsed)  # a torn record (we hold the write lock)

    def _append(self, fd: int, data: bytes) -> None:
        failure = ""
        try:
            if os.pwrite(fd, data, self._parsed) != len(data):
                failure = "short write"
            elif self._sync:
                os.fsync(fd)
        except OSError as exc:
            failure = errno.errorcode.get(exc.errno or 0, "unknown")
        if failure:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, self._parsed)
            self._reset()
            self._identity = None
            raise StorageError("Error: The memory store could not keep the change's version.", detail=failure)
        self._parsed += len(data)

    def _compact(self) -> None:
        fd = self._refresh()
        chunks = []
        for seq in sorted(self._kept):
            kept = self._kept[seq]
            content = _pread(fd, kept.length, kept.offset) if kept.length >= 0 else None
            chunks.append(_record(replace(kept.version, content=content, length=None))[0])
        horizon = self._horizon
        if horizon != Horizon():
            line = json.dumps({"drop": [], "every": horizon.every, "sessions": horizon.sessions}).encode("ascii")
            chunks.append(_DROP + line + b"\n")
        self._replace(b"".join(chunks))
        self.close()
        self._reset()


def _record(version: Version) -> tuple[bytes, int]:
    """A version's record, and where its content starts in it."""
    meta = encode_meta(replace(version, content=None)).encode("utf-8")
    length = len(version.content) if version.content is not None else -1
    content = version.content or b""
    body = meta + b" " + str(length).encode("ascii") + b"\n"
    head = _VERSION + f"{zlib.crc32(body + content):08x} ".encode("ascii") + body
    return head + content + b"\n", len(head)


def _header(line: bytes) -> tuple[int, bytes, int] | None:
    """The CRC, version JSON and content length of a version record's header, or None if it is not one."""
    if not line.startswith(_VERSION) or len(line) < 12 or line[10:11] != b" ":
        return None
    try:
        crc = int(line[2:10], 16)
        meta, _, length = line[11:].rpartition(b" ")
        return crc, meta, int(length)
    except ValueError:
        return None


def _whole_after(data: bytes, at: int) -> bool:
    """Whether a whole record starts at a line beginning after ``at`` (so what came before is damage)."""
    while True:
        end = data.find(b"\n", at)
        if end < 0:
            return False
        line = data[at:end]
        if line.startswith(_DROP):
            try:
                json.loads(line[2:])
            except ValueError:
                pass
            else:
                return True
        parsed = _header(line)
        if parsed is not None:
            crc, meta, length = parsed
            stop = end + 1 + max(length, 0)
            content = data[end + 1 : stop]
            body = meta + b" " + str(length).encode() + b"\n"
            if stop < len(data) and data[stop : stop + 1] == b"\n" and zlib.crc32(body + content) == crc:
                return True
        at = end + 1


def _size(version: Version, length: int) -> int:
    return OVERHEAD + max(length, 0)


def _pread(fd: int, length: int, offset: int) -> bytes:
    if length <= 0:
        return b""
    data = os.pread(fd, length, offset)
    if len(data) != length:
        raise StorageError("Error: The memory store's history is damaged.", detail="short read")
    return data
