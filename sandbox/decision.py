"""Decisions: what the runner hands to the audit sink for every call.

The runner builds one :class:`Decision` per call. It calls :meth:`AuditSink.intent`
before storage is touched (a sink that raises there denies the call) and
:meth:`AuditSink.outcome` exactly once when the call ends, allowed or not.
A decision never holds file content, a secret value or a host path.
"""

from __future__ import annotations

import hashlib
import hmac
import threading
from dataclasses import dataclass, field
from typing import Final, Literal, Protocol

__all__ = [
    "MAX_NOTES",
    "MAX_NOTE_CHARS",
    "AuditSink",
    "CallContext",
    "Decision",
    "ListAuditSink",
    "Note",
    "NullAuditSink",
    "Outcome",
    "Verdict",
    "bounded_notes",
]

Verdict = Literal["allow", "deny", "redact"]
Outcome = Literal["pending", "ok", "error", "denied"]


@dataclass(frozen=True, slots=True)
class CallContext:
    """Who is calling, as the application tells it; every field is optional."""

    scope: str | None = None
    principal: str | None = None
    session_id: str | None = None
    tool_use_id: str | None = None


@dataclass(frozen=True, slots=True)
class Note:
    """A stage's finding: the rule that fired and why (never the offending value)."""

    rule_id: str
    reason: str


@dataclass(frozen=True, slots=True)
class Decision:
    """The record of one call."""

    decision_id: str
    started_ns: int
    context: CallContext
    policy_id: str
    policy_revision: int
    command: str | None = None
    paths: tuple[str, ...] = ()
    extra_fields: tuple[str, ...] = ()
    verdict: Verdict = "allow"
    notes: tuple[Note, ...] = ()
    outcome: Outcome = "pending"
    error_code: str | None = None
    error_detail: str = ""
    latency_ns: int = 0
    # Keyed digests (by the audit sink's key): of raw paths that differed from their
    # canonical form, and of the text the call wrote. Never the text itself.
    raw_path_digests: tuple[str, ...] = ()
    content_digest: str | None = None
    # The file's size before and after a write (bytes), when the backend reports it.
    size_before: int | None = None
    size_after: int | None = None

    @property
    def rule_ids(self) -> tuple[str, ...]:
        return tuple(note.rule_id for note in self.notes)


#: A record holds at most this many notes (one per rule, with a count) and this much of each text.
MAX_NOTES: Final = 24
MAX_NOTE_CHARS: Final = 200


def bounded_notes(notes: tuple[Note, ...]) -> tuple[Note, ...]:
    """Notes for one record: one per rule (a count when it fired more than once), at most
    :data:`MAX_NOTES` of them, each reason cut, so a call's record has a fixed maximum size
    (a file holding ten thousand secrets is one note, not ten thousand)."""
    counts: dict[str, int] = {}
    reasons: dict[str, str] = {}
    for note in notes:
        counts[note.rule_id] = counts.get(note.rule_id, 0) + 1
        reasons.setdefault(note.rule_id, note.reason)
    if (
        len(counts) == len(notes)
        and len(notes) <= MAX_NOTES
        and all(len(note.reason) <= MAX_NOTE_CHARS and len(note.rule_id) <= MAX_NOTE_CHARS for note in notes)
    ):
        return notes
    kept = [
        Note(rule[:MAX_NOTE_CHARS], _cut(reasons[rule] + (f" (x{count})" if count > 1 else "")))
        for rule, count in list(counts.items())[:MAX_NOTES]
    ]
    if len(counts) > MAX_NOTES:
        kept.append(Note("record.notes_cut", f"{len(counts) - MAX_NOTES} more rules fired"))
    return tuple(kept)


def _cut(text: str) -> str:
    return text if len(text) <= MAX_NOTE_CHARS else text[: MAX_NOTE_CHARS - 3] + "..."


class AuditSink(Protocol):
    """Receives decisions. ``intent`` may raise to refuse the call (fail closed)."""

    def intent(self, decision: Decision) -> None: ...

    def outcome(self, decision: Decision) -> None: ...

    def keyed_digest(self, data: bytes) -> str | None:
        """A keyed digest of ``data`` for records (raw paths, written text), or None to record none."""
        ...


class NullAuditSink:
    """Keeps nothing."""

    def __repr__(self) -> str:
        return "NullAuditSink()"

    def intent(self, decision: Decision) -> None:
        return None

    def outcome(self, decision: Decision) -> None:
        return None

    def keyed_digest(self, data: bytes) -> str | None:
        return None


@dataclass
class ListAuditSink:
    """Keeps decisions in lists, for tests and short-lived tools."""

    intents: list[Decision] = field(default_factory=list)
    outcomes: list[Decision] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def intent(self, decision: Decision) -> None:
        with self._lock:
            self.intents.append(decision)

    def outcome(self, decision: Decision) -> None:
        with self._lock:
            self.outcomes.append(decision)

    def keyed_digest(self, data: bytes) -> str | None:
        # Tests only: a fixed key, so digests are comparable across runs.
        return hmac.new(b"list-audit-sink", data, hashlib.sha256).hexdigest()
