"""The audit chain in a JSON-lines file, its checkpoints also in a witness file.

Writers in several processes keep one chain: each append holds an ``flock`` on ``<log>.lock``
and picks up the chain from the file's last line. An append that must be durable is fsynced
after that lock is let go, under a second one (``<log>.synced``, which also holds how much of
the file is durable): writers that appended meanwhile share one fsync (group commit), and none
returns before its own line is durable. Rotation by size renames the file to
``<log>.N`` and carries the chain on in a new one. An append that cannot be written whole is
cut back; a line torn by a crash is sealed by the next writer (see :mod:`sandbox.audit.verify`).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
import struct
import threading
import time
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final, cast

from sandbox.audit.chain import ChainedAuditSink
from sandbox.audit.keys import Signer, load_signer, load_verifier, new_key_file
from sandbox.audit.records import GENESIS, AuditError, append_whole, dumps, line_hash, rfc3339, rotated_segments
from sandbox.audit.verify import VerifyReport, verify
from sandbox.policy import AuditSection

__all__ = ["AuditLog"]

_TAIL_CHUNK: Final = 8192
_NEXT_KEY: Final = re.compile(r"\.[^/]+\.next-[0-9a-f]{8}")
#: ``<log>.synced``: the inode of the log file and how many of its bytes are durable.
_SYNCED: Final = struct.Struct("<QQ")


class AuditLog(ChainedAuditSink):
    """The audit chain in a JSON-lines file (rotated by size), its witness in a second file."""

    def __init__(
        self, path: Path, signer: Signer, *, witness: Path, settings: AuditSection, key_file: Path | None = None
    ) -> None:
        super().__init__(signer, settings, name=path.name)
        self.path = path
        self.witness = witness
        #: Where the signing key is kept: re-read before a checkpoint when another process rotated it.
        self.key_file = key_file
        self._key_stamp = _stamp(key_file)
        self._next_key: Path | None = None
        self._rotate_bytes = settings.rotate_bytes
        self._lock_fd = os.open(f"{path}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
        self._sync_fd = os.open(f"{path}.synced", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
        self._sync_lock = threading.Lock()
        self._fd = -1
        self._inode = 0
        self._size = -1
        self._journaled: set[int] = set()  # witnesses whose owed checkpoints are kept on disk
        with self._locked():
            self._finish_rotation()  # open the file, pick up the chain, finish a rotation cut short
            for index in range(len(self._witnesses)):
                self._owed[index] = self._owed_journal(index, [], [], load=True)
        self._finalizer = weakref.finalize(self, AuditLog._close_quietly, weakref.ref(self))

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        *,
        key_file: str | os.PathLike[str] | None = None,
        local_witness: str | os.PathLike[str] | None = None,
        **settings: Any,
    ) -> AuditLog:
        """Open (or start) the log at ``path``; the key defaults to ``<path>.key`` (made if missing),
        the local witness to ``<path>.witness``.

        ``settings`` are those of a policy's ``[audit]`` section: ``durability``,
        ``checkpoint_every``, ``rotate_bytes``, ``log_principal``, ``log_session``,
        ``log_tool_use``, and the off-host ``witness`` folders and ``witness_command``.
        """
        log = Path(path)
        log.parent.mkdir(parents=True, exist_ok=True)
        signer = load_signer(Path(key_file) if key_file else Path(f"{log}.key"))
        witness_path = Path(local_witness) if local_witness else Path(f"{log}.witness")
        key_path = Path(key_file) if key_file else Path(f"{log}.key")
        return cls(log, signer, witness=witness_path, settings=AuditSection(**settings), key_file=key_path)

    def __repr__(self) -> str:
        return f"AuditLog({self.path.name!r}, {self._signer.kind}, durability={self._durability!r})"

    def verify(self) -> VerifyReport:
        """The whole chain from its first key: the published ``.pub`` beside the key file (the key the
        chain started with, when it was rotated since), else the signer's own."""
        anchor = self.key_file.with_suffix(".pub") if self.key_file is not None else None
        verifier = load_verifier(anchor) if anchor is not None and anchor.is_file() else self._signer.verifier()
        return verify(self.path, witness=self.witness, verifier=verifier)

    def rotate_key_file(self) -> str:
        """Rotate to a new Ed25519 key made beside the key file, which then replaces it (the old private
        key is gone); returns the new key id. Every writer of the log signs with the new key from its
        next checkpoint on; reviewers keep verifying with the first public key (``.pub``)."""
        if self.key_file is None or self.key_file != Path(f"{self.path}.key"):
            # A key file of another name may sign other logs too (a policy's [audit] key_file for every
            # scope): those logs would go on with a key their chains never announced.
            raise AuditError("Error: Only a log's own key (<log>.key) can be rotated; this one may sign other logs.")
        self._next_key = new_key_file(self.key_file)
        marker = self._rotation_marker()
        written = False
        try:
            new = load_signer(self._next_key)
            self.rotate_key(new)
            written = True
        finally:
            if not written and self._next_key is not None:  # the rotation never reached the log: undo it
                self._next_key_pub().unlink(missing_ok=True)
                self._next_key.unlink(missing_ok=True)
                self._next_key = None
                marker.unlink(missing_ok=True)
        return new.key_id

    def _keep_owed(self, index: int, owed: list[bytes], delivered: list[bytes]) -> None:
        if owed or index in self._journaled:
            self._owed_journal(index, owed, delivered)

    def _owed_journal(
        self, index: int, owed: list[bytes], delivered: list[bytes], *, load: bool = False
    ) -> list[bytes]:
        """``<log>.owed-<id>``: the checkpoints a witness has not taken, shared by every writer of the log.

        Adds ``owed``, drops ``delivered``, returns what it holds then. Never read for a witness that
        always took its checkpoints, so the file costs nothing until a witness is down.
        """
        identity = self._witnesses[index].identity.encode("utf-8", "surrogatepass")
        path = f"{self.path}.owed-{hashlib.sha256(identity).hexdigest()[:16]}"
        flags = os.O_RDWR | os.O_CLOEXEC | os.O_NOFOLLOW | (0 if load else os.O_CREAT)
        try:
            fd = os.open(path, flags, 0o600)
        except FileNotFoundError:
            return []
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            gone = set(delivered)
            kept = [line for line in _read_fd(fd).splitlines(keepends=True) if _whole_record(line)]
            lines = [line for line in kept if line not in gone]
            lines += [line for line in owed if line not in lines]
            if not load:
                data = b"".join(lines)
                os.pwrite(fd, data, 0)  # then cut: a crash between leaves whole lines, read back above
                os.ftruncate(fd, len(data))
                os.fsync(fd)
        finally:
            os.close(fd)
        if lines:
            self._journaled.add(index)
        else:
            self._journaled.discard(index)
        return lines

    def _rotation_starting(self) -> None:
        # Under the log's lock, which the rotation holds until the key is installed: another writer
        # sees the marker only if this one died (or failed) midway.
        if self._next_key is not None:
            _write_synced(self._rotation_marker(), self._next_key.name)

    def _rotation_marker(self) -> Path:
        key = self.key_file or Path("/nonexistent")
        return key.with_name(f"{key.name}.rotating")

    def _finish_rotation(self) -> None:
        """Inside the lock: finish a rotation whose writer died between its record and installing the key.

        The marker names the next key. If the log announces that key, it is installed (every later
        checkpoint must be signed by it); if not, the rotation never happened and its key is removed.
        """
        if self.key_file is None or self._next_key is not None:  # none, or this writer is rotating now
            return
        marker = self._rotation_marker()
        try:
            name = marker.read_text(encoding="ascii").strip()
        except FileNotFoundError:
            return
        except (OSError, UnicodeDecodeError):
            raise AuditError("Error: The audit key's rotation marker cannot be read; the call was refused.") from None
        if not _NEXT_KEY.fullmatch(name) or not name.startswith(f".{self.key_file.name}.next-"):
            raise AuditError("Error: The audit key's rotation marker is damaged; the call was refused.")
        upcoming = self.key_file.with_name(name)
        new = load_signer(upcoming) if upcoming.is_file() else None
        if new is not None and self._announced(new.key_id):
            self._next_key = upcoming
            self._signer = new
            self._installed(new)
            return
        upcoming.unlink(missing_ok=True)
        upcoming.with_suffix(".pub").unlink(missing_ok=True)
        marker.unlink(missing_ok=True)

    def _announced(self, key_id: str) -> bool:
        """Whether the last two files of the log hold a rotation to ``key_id``."""
        needle = f'"new_key_id":"{key_id}"'.encode()
        for segment in rotated_segments(self.path)[-2:]:
            with contextlib.suppress(FileNotFoundError), segment.open("rb") as source:
                for line in source:
                    if needle in line and json.loads(line).get("event") == "key_rotation":
                        return True
        return False

    def _next_key_pub(self) -> Path:
        return (self._next_key or Path("/nonexistent")).with_suffix(".pub")

    def _installed(self, signer: Signer) -> None:
        if self._next_key is None or self.key_file is None:
            return
        self._next_key_pub().unlink(missing_ok=True)
        os.replace(self._next_key, self.key_file)
        self._next_key = None
        fd = os.open(self.key_file.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        self._rotation_marker().unlink(missing_ok=True)  # the key is in place: the rotation is whole
        self._key_stamp = _stamp(self.key_file)

    def _refresh_signer(self) -> None:
        self._finish_rotation()
        if self.key_file is None or _stamp(self.key_file) == self._key_stamp:
            return
        self._signer = load_signer(self.key_file)
        self._key_stamp = _stamp(self.key_file)

    def _release(self) -> None:
        # After the appends and fsyncs under way (locks taken in the order _make_durable takes them):
        # a descriptor closed under a writer could be reused by another file and written into.
        with self._sync_lock, self._thread_lock:
            for fd in (self._fd, self._lock_fd, self._sync_fd):
                if fd >= 0:
                    with contextlib.suppress(OSError):
                        os.close(fd)
            self._fd = self._lock_fd = self._sync_fd = -1

    @staticmethod
    def _close_quietly(ref: weakref.ReferenceType[AuditLog]) -> None:
        log = ref()
        if log is not None:
            log.close()

    # the file

    def _after_append(self, *, sync: bool) -> tuple[int, int, int] | None:
        # What makes the append durable later: the file as written (a descriptor of its own, which a
        # rotation or another thread's reopening leaves alone), its inode, its size after the line.
        owed = (os.dup(self._fd), self._inode, self._size) if sync else None
        if self._size >= self._rotate_bytes:
            self._rotate()
        return owed

    def _make_durable(self, owed: object) -> None:
        """Make the log durable up to the end of an append. One fsync covers every line written
        before it, so a writer whose line another writer's fsync covered returns at once."""
        fd, inode, end = cast(tuple[int, int, int], owed)  # what _after_append returned
        try:
            with self._sync_lock:
                if self._sync_fd < 0:
                    raise AuditError("Error: The audit log is closed; the call was refused.")
                fcntl.flock(self._sync_fd, fcntl.LOCK_EX)
                try:
                    done = os.pread(self._sync_fd, _SYNCED.size, 0)
                    synced_inode, synced_end = _SYNCED.unpack(done) if len(done) == _SYNCED.size else (0, 0)
                    if synced_inode != inode or synced_end < end:
                        whole = self._whole_size(fd)
                        self._fsync(fd)
                        os.pwrite(self._sync_fd, _SYNCED.pack(inode, whole), 0)
                finally:
                    fcntl.flock(self._sync_fd, fcntl.LOCK_UN)
        except OSError as exc:
            raise AuditError("Error: The audit log cannot be made durable; the call was refused.") from exc
        finally:
            os.close(fd)

    def _whole_size(self, fd: int) -> int:
        """The size of the file ``fd`` as the log's lock leaves it: whole lines only (an append that
        fails midway is cut back before that lock is let go, so a size read without it may count
        bytes that are about to go)."""
        with self._thread_lock:
            if self._lock_fd < 0:
                raise AuditError("Error: The audit log is closed; the call was refused.")
            fcntl.flock(self._lock_fd, fcntl.LOCK_EX)
            try:
                return os.fstat(fd).st_size
            finally:
                fcntl.flock(self._lock_fd, fcntl.LOCK_UN)

    def _store_line(self, line: bytes, *, witness: bool = False) -> None:
        try:
            append_whole(self._fd, line, self._size)
        except OSError as exc:
            detail = str(exc.errno)
            raise AuditError("Error: The audit log cannot be written; the call was refused.", detail=detail) from None
        self._size += len(line)
        if witness:
            self._witness(line)

    def _witness(self, line: bytes) -> None:
        self._fsync(self._fd)
        try:
            fd = os.open(self.witness, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)
            try:
                append_whole(fd, line, os.fstat(fd).st_size)
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as exc:
            raise AuditError("Error: The audit witness cannot be written; the call was refused.") from exc

    def _rotate(self) -> None:
        self._write_checkpoint()
        numbers = [int(p.name.rsplit(".", 1)[1]) for p in rotated_segments(self.path) if p != self.path]
        os.rename(self.path, f"{self.path}.{max(numbers, default=0) + 1}")
        os.close(self._fd)
        self._open_file()

    def _open_file(self) -> None:
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW
        try:
            self._fd = os.open(self.path, flags | os.O_EXCL, 0o600)
        except FileExistsError:
            self._fd = os.open(self.path, flags, 0o600)
        else:
            # A new file (under the log's lock): what <log>.synced says is of another, whose inode
            # number a new file may be given again once it is freed.
            os.pwrite(self._sync_fd, bytes(_SYNCED.size), 0)
        self._size = -1  # unknown: the tail is read again

    @contextlib.contextmanager
    def _locked(self, *, sync: bool = True) -> Iterator[None]:
        with self._thread_lock:
            if self._lock_fd < 0:
                raise AuditError("Error: The audit log is closed; the call was refused.")
            fcntl.flock(self._lock_fd, fcntl.LOCK_EX)
            try:
                self._follow_file()
                yield
            except OSError as exc:
                raise AuditError("Error: The audit log cannot be written; the call was refused.") from exc
            finally:
                fcntl.flock(self._lock_fd, fcntl.LOCK_UN)

    def _follow_file(self) -> None:
        """Point at the current file and the chain's last line (another process may have written or rotated)."""
        try:
            current = os.stat(self.path).st_ino
        except FileNotFoundError:
            current = None
        held = os.fstat(self._fd) if self._fd >= 0 else None
        if held is None or current != held.st_ino:
            if self._fd >= 0:
                os.close(self._fd)
                self._fd = -1
            self._open_file()
            held = os.fstat(self._fd)
        self._inode = held.st_ino
        if held.st_size != self._size:
            self._read_tail(held.st_size)

    def _read_tail(self, size: int) -> None:
        """Take the chain's end from the last complete line; seal a torn one first (see :meth:`_seal`)."""
        self._size = size
        last, torn = _last_line(self.path) if size else (None, b"")
        previous = rotated_segments(self.path)[:-1] if last is None else []  # (a folder listing: only then)
        if previous:  # nothing whole in this file yet: the chain ends in the one before
            last, _ = _last_line(previous[-1])
        if last is None:
            self._seq, self._last = 0, GENESIS
        else:
            try:
                self._seq = int(json.loads(last)["seq"])
            except (ValueError, KeyError, TypeError):
                raise AuditError("Error: The audit log ends in a damaged record; the call was refused.") from None
            self._last = line_hash(last)
        if torn and size:
            self._seal(torn, size - len(torn))

    def _seal(self, torn: bytes, offset: int) -> None:
        """End a torn last line (a write cut short by a full disk or a crash) and chain a record stating
        what was cut, so that verification explains the gap and checks everything after it. The torn
        bytes stay in the file; nothing is appended after them until they are sealed."""
        record = {
            "seq": self._seq + 1,
            "time": rfc3339(time.time_ns()),
            "event": "sealed",
            "torn": {"offset": offset, "length": len(torn), "sha256": hashlib.sha256(torn).hexdigest()},
            "prev": self._last,
        }
        line = dumps(record).encode("utf-8") + b"\n"
        self._store_line(b"\n" + line)
        self._fsync(self._fd)
        self._seq, self._last = self._seq + 1, line_hash(line)
        self._since_checkpoint += 1

    @staticmethod
    def _fsync(fd: int) -> None:
        try:
            os.fsync(fd)
        except OSError as exc:
            raise AuditError("Error: The audit log cannot be made durable; the call was refused.") from exc


def _whole_record(line: bytes) -> bool:
    """Whether a journal line is a whole JSON record (a line cut by a crash is not)."""
    if not line.endswith(b"\n"):
        return False
    try:
        return isinstance(json.loads(line), dict)
    except ValueError:
        return False


def _read_fd(fd: int) -> bytes:
    data = b""
    while chunk := os.pread(fd, 65536, len(data)):
        data += chunk
    return data


def _write_synced(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(text)
        out.flush()
        os.fsync(out.fileno())


def _stamp(path: Path | None) -> tuple[int, int] | None:
    """What tells a replaced file from the one read: its inode and change time."""
    if path is None:
        return None
    try:
        status = os.stat(path)
    except OSError:
        return None
    return status.st_ino, status.st_ctime_ns


def _last_line(path: Path) -> tuple[bytes | None, bytes]:
    """The file's last complete line (None if it has none) and the torn bytes after it (b"" if none)."""
    with open(path, "rb") as log:
        end = log.seek(0, os.SEEK_END)
        start = max(0, end - _TAIL_CHUNK)
        while True:
            log.seek(start)
            tail = log.read(end - start)
            if tail.count(b"\n") >= 2 or start == 0:
                break
            start = max(0, start - _TAIL_CHUNK)
    ended = tail.rfind(b"\n") + 1
    torn, body = tail[ended:], tail[:ended]
    if not body:
        return None, torn
    return body[body.rfind(b"\n", 0, len(body) - 1) + 1 :], torn
