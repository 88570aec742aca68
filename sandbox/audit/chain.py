"""The audit chain: records, one JSON object per line, each chained to the line before.

:class:`ChainedAuditSink` is an :class:`~sandbox.decision.AuditSink`: every line carries
``prev``, the SHA-256 of the exact bytes of the previous line (without its newline), and a
``seq`` number; every ``checkpoint_every`` records, at rotation and at close, a checkpoint
signed with the log's key is written to the log and to a witness. Where the lines are kept is
a subclass's business: a file (:mod:`sandbox.audit.file_log`) or a database table
(:mod:`sandbox.audit.postgres`).

Records are rendered by a structlog pipeline built for each log (never the application's
global structlog configuration). They hold canonical paths, rule ids, reasons, sizes and keyed
digests, never file content, a secret or a host path.
"""

from __future__ import annotations

import contextlib
import threading
import time
from abc import ABC, abstractmethod
from contextlib import AbstractContextManager
from typing import Any, Final

import structlog

from sandbox.audit.keys import Signer
from sandbox.audit.records import GENESIS, AuditError, dumps, line_hash, rfc3339
from sandbox.audit.verify import VerifyReport
from sandbox.audit.witness import witnesses_of
from sandbox.decision import Decision
from sandbox.policy import AuditSection

__all__ = ["ChainedAuditSink"]

_WRITES: Final = frozenset({"create", "str_replace", "insert", "delete", "rename", "expire", "purge"})


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

    def __init__(self, signer: Signer, settings: AuditSection, *, name: str) -> None:
        self._signer = signer
        # Off-host witnesses of every checkpoint, beside the sink's own (sandbox.audit.witness).
        self._witnesses = witnesses_of(settings.witness, settings.witness_command, name, signer.key_id)
        # Checkpoints a witness has not taken yet, per witness: delivered before the next record,
        # and until they are, every call is refused (a witness is never silently behind).
        self._owed: list[list[bytes]] = [[] for _ in self._witnesses]
        self._durability = settings.durability
        self._checkpoint_every = settings.checkpoint_every
        self._identifiers = (settings.log_principal, settings.log_session, settings.log_tool_use)
        self._thread_lock = threading.Lock()
        self._seq, self._last, self._since_checkpoint = 0, GENESIS, 0
        self._closed = False
        self._logger = structlog.BoundLogger(
            _LineWriter(self),
            processors=[structlog.processors.JSONRenderer(serializer=dumps)],
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
    def _after_append(self, *, sync: bool) -> object | None:
        """What follows an append inside the lock (a file log rotates); what is owed to make it
        durable once the lock is let go (``sync``), for :meth:`_make_durable`, or None."""

    def _make_durable(self, owed: object) -> None:  # noqa: B027 - a hook: a sink whose appends are durable has nothing to do
        """After the lock is let go: make an append durable (a file log shares one fsync among the
        writers that appended meanwhile). Raises AuditError if it cannot."""

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
        fields["started"] = rfc3339(decision.started_ns)
        return fields

    def _append(self, event: str, fields: dict[str, Any], *, sync: bool) -> None:
        if self._closed:
            raise AuditError("Error: The audit log is closed; the call was refused.")
        if any(self._owed):
            self._deliver()
        with self._locked(sync=sync):
            self._record(event, fields)
            if self._since_checkpoint >= self._checkpoint_every:
                self._write_checkpoint()
            owed = self._after_append(sync=sync)
        if owed is not None:
            self._make_durable(owed)

    def _record(self, event: str, fields: dict[str, Any]) -> None:
        """Render one record at the chain's end and keep it (inside the lock)."""
        # seq, time and prev are read under the lock, right before the line is rendered.
        self._logger.msg(event, seq=self._seq + 1, time=rfc3339(time.time_ns()), **fields, prev=self._last)

    def _write_line(self, line: bytes, *, witness: bool = False) -> None:
        self._store_line(line, witness=witness)
        self._seq += 1
        self._last = line_hash(line)
        self._since_checkpoint += 1

    def rotate_key(self, new: Signer) -> None:
        """Sign from now on with ``new``: a checkpoint, then a ``key_rotation`` record announcing ``new``'s
        public key, both signed with the current key, so a reviewer holding the first public key follows
        every rotation. Both go to every witness. Ed25519 only: an HMAC key cannot be announced."""
        if self._signer.public_text() is None or new.public_text() is None:
            raise AuditError("Error: Key rotation needs Ed25519 keys; an HMAC key cannot be announced in the log.")
        with self._locked():
            self._rotation_starting()
            self._write_checkpoint()
            public = str(new.public_text())
            announced = {"new_key_id": new.key_id, "new_alg": new.kind, "public_key": public}
            self._emit_signed(self._signed("key_rotation", f"|key_rotation|{new.key_id}|{public}", announced))
            self._signer = new
            self._installed(new)

    def _refresh_signer(self) -> None:  # noqa: B027 - a hook: a sink that keeps no key file has nothing to do
        """Before a checkpoint: pick up a key another process rotated to (a file log re-reads its key file)."""

    def _rotation_starting(self) -> None:  # noqa: B027 - a hook: a sink that keeps no key file has nothing to do
        """Inside the lock, before a rotation writes anything: note it, so a crash can be finished."""

    def _installed(self, signer: Signer) -> None:  # noqa: B027 - a hook: a sink that keeps no key file has nothing to do
        """After a rotation, inside the lock: keep ``signer`` where every writer finds it."""

    def _emit_signed(self, line: bytes) -> None:
        """Append a signed line (checkpoint or rotation) and hand it to every witness."""
        self._write_line(line, witness=True)
        self._since_checkpoint = 0
        for owed in self._owed:
            owed.append(line)
        with contextlib.suppress(AuditError):  # what a witness could not take is owed, and refuses the next call
            self._deliver()

    def _write_checkpoint(self) -> None:
        self._refresh_signer()
        self._emit_signed(self._signed("checkpoint", "", {}))

    def _signed(self, event: str, also_signed: str, fields: dict[str, str]) -> bytes:
        """The next record, signed with the key in force over ``seq|prev|time`` and ``also_signed``."""
        stamp = rfc3339(time.time_ns())
        payload = f"{self._seq + 1}|{self._last}|{stamp}{also_signed}".encode("ascii")
        record = {
            "seq": self._seq + 1,
            "time": stamp,
            "event": event,
            "key_id": self._signer.key_id,
            "alg": self._signer.kind,
            **fields,
            "sig": self._signer.sign(payload),
            "prev": self._last,
        }
        return dumps(record).encode("utf-8") + b"\n"

    def _deliver(self) -> None:
        """Hand each witness the checkpoints it is owed, in order; raise if one still cannot take them.

        What a witness could not take is also kept on disk (:meth:`_keep_owed`), so a restart does not
        forget it: the next writer to open the log owes it still, and refuses calls until it is taken.
        """
        failure: AuditError | None = None
        for index, (witness, owed) in enumerate(zip(self._witnesses, self._owed, strict=True)):
            delivered: list[bytes] = []
            try:
                while owed:
                    witness.receive(owed[0])
                    delivered.append(owed.pop(0))
            except AuditError as exc:
                failure = failure or exc
                self._keep_owed(index, owed, delivered)
                continue
            if delivered:
                self._keep_owed(index, owed, delivered)
        if failure is not None:
            raise failure

    def _keep_owed(self, index: int, owed: list[bytes], delivered: list[bytes]) -> None:  # noqa: B027 - a hook
        """Record that witness ``index`` is still owed ``owed`` and has taken ``delivered`` (a sink that
        keeps no files has nowhere to)."""
