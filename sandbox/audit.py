"""The tamper-evident audit log: one JSON object per line, each chained to the line before.

``AuditLog`` is an :class:`~sandbox.decision.AuditSink`. Every line carries ``prev``,
the SHA-256 of the exact bytes of the previous line (without its newline), and a
``seq`` number; every ``checkpoint_every`` records, at rotation and at close, a
checkpoint signed with the log's key is written to the log and to a separate
witness file (``audit.jsonl.witness`` for ``audit.jsonl``), so a cut tail is found
too. Writers in several processes keep one chain: each append holds an ``flock``
on ``<log>.lock`` and picks up the chain from the file's last line. Rotation by
size renames the file to ``<log>.N`` and carries the chain on in a new one.

Records are rendered by a structlog pipeline built for each log (never the
application's global structlog configuration). They hold canonical paths, rule
ids, reasons, sizes and keyed digests, never file content, a secret or a host path.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import threading
import time
import weakref
from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import structlog

from sandbox.audit_keys import Signer, load_signer
from sandbox.decision import Decision
from sandbox.errors import SandboxError
from sandbox.policy import AuditSection

if TYPE_CHECKING:
    from sandbox.audit_verify import VerifyReport

__all__ = ["GENESIS", "AuditError", "AuditLog", "ChainedAuditSink", "line_hash", "open_configured", "rotated_segments"]

GENESIS: Final = "0" * 64
_WRITES: Final = frozenset({"create", "str_replace", "insert", "delete", "rename", "expire", "purge"})
_TAIL_CHUNK: Final = 8192


class AuditError(SandboxError):
    """The audit log could not be written; the call is refused (fail closed)."""

    code = "audit_error"
    exit_code = 4


def line_hash(line: bytes) -> str:
    """The chain hash of one log line (its bytes without the newline)."""
    return hashlib.sha256(line.rstrip(b"\n")).hexdigest()


def rotated_segments(log: Path) -> list[Path]:
    """The log's files in chain order: ``<log>.1``, ``<log>.2``, ..., then ``<log>``."""
    numbered = []
    for candidate in log.parent.glob(log.name + ".*"):
        suffix = candidate.name[len(log.name) + 1 :]
        if suffix.isdigit():
            numbered.append((int(suffix), candidate))
    return [path for _, path in sorted(numbered)] + ([log] if log.exists() else [])


_SECOND: list[tuple[int, str]] = [(-1, "")]


def _rfc3339(ns: int) -> str:
    """UTC time with microseconds, ``2026-11-30T05:04:12.309013Z``; the per-second prefix is cached."""
    seconds, micros = divmod(ns // 1000, 1_000_000)
    cached, prefix = _SECOND[0]
    if seconds != cached:
        prefix = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds))
        _SECOND[0] = (seconds, prefix)
    return f"{prefix}.{micros:06d}Z"


class _LineWriter:
    """The structlog "logger" at the end of the pipeline: hands a rendered line to its sink."""

    def __init__(self, owner: ChainedAuditSink) -> None:
        self._owner = owner

    def msg(self, message: str) -> None:
        self._owner._write_line(message.encode("utf-8") + b"\n")


class ChainedAuditSink(ABC):
    """An append-only, hash-chained, checkpointed record of decisions, wherever its lines are kept.

    Subclasses keep lines (:meth:`_store_line`) and give
    :meth:`_locked`, which serializes appends among all writers and sets ``_seq``
    and ``_last`` to the chain's end as every writer sees it.
    """

    def __init__(self, signer: Signer, settings: AuditSection) -> None:
        self._signer = signer
        self._durability = settings.durability
        self._checkpoint_every = settings.checkpoint_every
        self._identifiers = (settings.log_principal, settings.log_session, settings.log_tool_use)
        self._thread_lock = threading.Lock()
        self._seq, self._last, self._since_checkpoint = 0, GENESIS, 0
        self._closed = False
        self._logger = structlog.BoundLogger(
            _LineWriter(self),
            processors=[structlog.processors.JSONRenderer(serializer=_dumps)],
            context={},
        )

    def __enter__(self) -> ChainedAuditSink:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @abstractmethod
    def verify(self) -> VerifyReport:
        """Check the whole chain as it stands (records, signed checkpoints, witness)."""

    @abstractmethod
    def _locked(self, *, sync: bool = True) -> AbstractContextManager[None]:
        """Exclusive use of the chain's end, for every writer anywhere; ``sync``: make it durable."""

    @abstractmethod
    def _store_line(self, line: bytes, *, witness: bool = False) -> None:
        """Append one rendered line (with its newline) to the chain as record ``_seq + 1``.

        ``witness``: the line is a checkpoint; also keep it where the log's own writer
        cannot quietly cut it.
        """

    @abstractmethod
    def _release(self) -> None:
        """Free what the sink holds; called once, at close."""

    @abstractmethod
    def _after_append(self, *, sync: bool) -> None:
        """What follows an append inside the lock (a file log fsyncs and rotates)."""

    # the AuditSink protocol

    def intent(self, decision: Decision) -> None:
        sync = self._durability == "fsync-all" or (self._durability == "fsync" and decision.command in _WRITES)
        self._append("intent", self._fields(decision, intent=True), sync=sync)

    def outcome(self, decision: Decision) -> None:
        self._append("outcome", self._fields(decision, intent=False), sync=self._durability == "fsync-all")

    def keyed_digest(self, data: bytes) -> str | None:
        return self._signer.digest(data)

    def checkpoint(self) -> None:
        """Write a signed checkpoint now (to the log and the witness), unless the last record is one."""
        with self._locked():
            if self._since_checkpoint or self._seq == 0:
                self._write_checkpoint()

    def close(self) -> None:
        """Write the closing checkpoint and release what the sink holds; idempotent."""
        if self._closed:
            return
        with contextlib.suppress(AuditError):
            self.checkpoint()
        self._closed = True
        self._release()

    # the chain

    def _fields(self, decision: Decision, *, intent: bool) -> dict[str, Any]:
        context = decision.context
        principal, session, tool_use = self._identifiers
        fields: dict[str, Any] = {"decision_id": decision.decision_id}
        if context.scope is not None:
            fields["scope"] = context.scope
        if principal and context.principal is not None:
            fields["principal"] = context.principal
        if session and context.session_id is not None:
            fields["session_id"] = context.session_id
        if tool_use and context.tool_use_id is not None:
            fields["tool_use_id"] = context.tool_use_id
        fields["command"] = decision.command
        fields["paths"] = decision.paths
        fields["decision"] = decision.verdict
        fields["rules"] = [note.rule_id for note in decision.notes]
        fields["reasons"] = [note.reason for note in decision.notes]
        fields["policy"] = {"id": decision.policy_id, "revision": decision.policy_revision}
        if decision.raw_path_digests:
            fields["raw_path_digests"] = decision.raw_path_digests
        if decision.extra_fields:
            fields["extra_fields"] = decision.extra_fields
        if decision.content_digest is not None:
            fields["content_hmac"] = decision.content_digest
        if not intent:
            fields["outcome"] = decision.outcome
            if decision.error_code is not None:
                fields["error"] = decision.error_code
            if decision.size_before is not None:
                fields["size_before"], fields["size_after"] = decision.size_before, decision.size_after
            fields["latency_us"] = decision.latency_ns // 1000
        fields["started"] = _rfc3339(decision.started_ns)
        return fields

    def _append(self, event: str, fields: dict[str, Any], *, sync: bool) -> None:
        if self._closed:
            raise AuditError("Error: The audit log is closed; the call was refused.")
        with self._locked(sync=sync):
            # seq, time and prev are read under the lock, right before the line is rendered.
            self._logger.msg(event, seq=self._seq + 1, time=_rfc3339(time.time_ns()), **fields, prev=self._last)
            if self._since_checkpoint >= self._checkpoint_every:
                self._write_checkpoint()
            self._after_append(sync=sync)

    def _write_line(self, line: bytes, *, witness: bool = False) -> None:
        self._store_line(line, witness=witness)
        self._seq += 1
        self._last = line_hash(line)
        self._since_checkpoint += 1

    def _write_checkpoint(self) -> None:
        stamp = _rfc3339(time.time_ns())
        payload = f"{self._seq + 1}|{self._last}|{stamp}".encode("ascii")
        record = {
            "seq": self._seq + 1,
            "time": stamp,
            "event": "checkpoint",
            "key_id": self._signer.key_id,
            "alg": self._signer.kind,
            "sig": self._signer.sign(payload),
            "prev": self._last,
        }
        line = _dumps(record).encode("utf-8") + b"\n"
        self._write_line(line, witness=True)
        self._since_checkpoint = 0


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
        from sandbox.audit_verify import verify  # noqa: PLC0415 - the verifier imports this module

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
            "time": _rfc3339(time.time_ns()),
            "event": "sealed",
            "torn": {"offset": offset, "length": len(torn), "sha256": hashlib.sha256(torn).hexdigest()},
            "prev": self._last,
        }
        line = _dumps(record).encode("utf-8") + b"\n"
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


def _dumps(value: Any, **_: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def open_configured(section: AuditSection, storage: object) -> ChainedAuditSink | None:
    """The log a policy's ``[audit]`` section asks for; None for "none", or "beside-store" without a place.

    "beside-store" is a file beside a folder or database file, and the database's own
    audit chain for a store that offers one (``open_beside_audit``).
    """
    if section.sink == "none":
        return None
    if section.sink == "beside-store":
        beside = getattr(storage, "open_beside_audit", None)
        if callable(beside):
            sink = beside(section)
            if not isinstance(sink, ChainedAuditSink):
                raise AuditError("Error: The store offered no usable audit log; the call was refused.")
            return sink
        root = getattr(storage, "root_path", None)
        if root is None:
            return None
        path = Path(f"{root}.audit.jsonl")
    else:
        path = Path(section.sink)
    key_file = Path(section.key_file) if section.key_file else Path(f"{path}.key")
    return AuditLog(path.absolute(), load_signer(key_file), witness=Path(f"{path}.witness"), settings=section)
