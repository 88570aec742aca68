"""The audit chain in a JSON-lines file, its checkpoints also in a witness file.

Writers in several processes keep one chain: each append holds an ``flock`` on ``<log>.lock``
and picks up the chain from the file's last line. Rotation by size renames the file to
``<log>.N`` and carries the chain on in a new one. An append that cannot be written whole is
cut back; a line torn by a crash is sealed by the next writer (see :mod:`sandbox.audit.verify`).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import time
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from sandbox.audit.chain import ChainedAuditSink
from sandbox.audit.keys import Signer, load_signer
from sandbox.audit.records import GENESIS, AuditError, dumps, line_hash, rfc3339, rotated_segments
from sandbox.audit.verify import VerifyReport, verify
from sandbox.policy import AuditSection

__all__ = ["AuditLog"]

_TAIL_CHUNK: Final = 8192


class AuditLog(ChainedAuditSink):
    """The audit chain in a JSON-lines file (rotated by size), its witness in a second file."""

    def __init__(self, path: Path, signer: Signer, *, witness: Path, settings: AuditSection) -> None:
        super().__init__(signer, settings)
        self.path = path
        self.witness = witness
        self._rotate_bytes = settings.rotate_bytes
        self._lock_fd = os.open(f"{path}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
        self._fd = -1
        self._size = -1
        with self._locked():
            pass  # open the file and pick up the chain now, so a bad log fails at start-up
        self._finalizer = weakref.finalize(self, AuditLog._close_quietly, weakref.ref(self))

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        *,
        key_file: str | os.PathLike[str] | None = None,
        witness: str | os.PathLike[str] | None = None,
        **settings: Any,
    ) -> AuditLog:
        """Open (or start) the log at ``path``; the key defaults to ``<path>.key`` (made if missing).

        ``settings`` are those of a policy's ``[audit]`` section: ``durability``,
        ``checkpoint_every``, ``rotate_bytes``, ``log_principal``, ``log_session``,
        ``log_tool_use``.
        """
        log = Path(path)
        log.parent.mkdir(parents=True, exist_ok=True)
        signer = load_signer(Path(key_file) if key_file else Path(f"{log}.key"))
        witness_path = Path(witness) if witness else Path(f"{log}.witness")
        return cls(log, signer, witness=witness_path, settings=AuditSection(**settings))

    def __repr__(self) -> str:
        return f"AuditLog({self.path.name!r}, {self._signer.kind}, durability={self._durability!r})"

    def verify(self) -> VerifyReport:
        return verify(self.path, witness=self.witness, verifier=self._signer.verifier())

    def _release(self) -> None:
        for fd in (self._fd, self._lock_fd):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._fd = self._lock_fd = -1

    @staticmethod
    def _close_quietly(ref: weakref.ReferenceType[AuditLog]) -> None:
        log = ref()
        if log is not None:
            log.close()

    # the file

    def _after_append(self, *, sync: bool) -> None:
        if sync:
            self._fsync(self._fd)
        if self._size >= self._rotate_bytes:
            self._rotate()

    def _store_line(self, line: bytes, *, witness: bool = False) -> None:
        try:
            _append_whole(self._fd, line, self._size)
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
                _append_whole(fd, line, os.fstat(fd).st_size)
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
        self._fd = os.open(self.path, flags, 0o600)
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
        if held.st_size != self._size:
            self._read_tail(held.st_size)

    def _read_tail(self, size: int) -> None:
        """Take the chain's end from the last complete line; seal a torn one first (see :meth:`_seal`)."""
        self._size = size
        last, torn = _last_line(self.path) if size else (None, b"")
        previous = rotated_segments(self.path)[:-1]
        if last is None and previous:  # nothing whole in this file yet: the chain ends in the one before
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


def _append_whole(fd: int, data: bytes, size: int) -> None:
    """Append all of ``data`` to a file of ``size`` bytes, or cut the file back to ``size`` and raise:
    a write cut short (no space left, a file size limit) never leaves part of a line behind."""
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    except OSError:
        with contextlib.suppress(OSError):  # were this to fail too, the next open seals the torn line
            os.ftruncate(fd, size)
        raise


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
