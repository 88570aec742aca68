"""Optional OpenTelemetry metrics: decisions by verdict and rule, latency per command, quota use.

Off by default and free when off: nothing in the engine imports this module, and it is the only
one that imports ``opentelemetry`` (the ``otel`` extra installs the API; the application brings
its SDK and exporter). Turn it on by wrapping the audit sink a sandbox writes to::

    from opentelemetry import metrics
    from sandbox.metrics import MeteredAuditSink

    audit = MeteredAuditSink(AuditLog.open("audit.jsonl"), meter=metrics.get_meter("memory-sandbox"))
    sandbox = Sandbox(policy=policy, storage=storage, audit=audit)
    audit.watch_quota("alice", storage, policy.quota)

The wrapper observes each decision as the runner reports its outcome, then forwards it; it
never changes a decision and never refuses a call (the inner sink still decides that at intent).
Instruments (attribute names in brackets):

* ``memory_sandbox.decisions`` counter: calls, by [command, verdict, outcome];
* ``memory_sandbox.rule.hits`` counter: findings, by [rule, verdict] (one per rule a call names);
* ``memory_sandbox.call.duration`` histogram, seconds: by [command, outcome];
* ``memory_sandbox.quota.utilization`` gauge, 0..1: by [scope, resource] (bytes, files), for the
  stores passed to :meth:`MeteredAuditSink.watch_quota`.

Scopes are not an attribute of the per-call instruments unless ``scope_attribute=True``: a
fleet has one scope per user, and a label per user would grow without bound.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING

from opentelemetry.metrics import CallbackOptions, Meter, Observation

if TYPE_CHECKING:
    from sandbox.decision import AuditSink, Decision
    from sandbox.policy import QuotaSection
    from sandbox.storage.base import StorageAdapter

__all__ = ["MeteredAuditSink"]

_NONE = "none"


class MeteredAuditSink:
    """An audit sink that counts every decision it forwards to ``inner``."""

    def __init__(self, inner: AuditSink, *, meter: Meter, scope_attribute: bool = False) -> None:
        self.inner = inner
        self._scope_attribute = scope_attribute
        self._decisions = meter.create_counter(
            "memory_sandbox.decisions", unit="{call}", description="memory tool calls, by verdict and outcome"
        )
        self._rules = meter.create_counter(
            "memory_sandbox.rule.hits", unit="{finding}", description="policy rules that fired, by rule id"
        )
        self._duration = meter.create_histogram(
            "memory_sandbox.call.duration", unit="s", description="time from parsing a call to its answer"
        )
        self._watched: dict[str, tuple[StorageAdapter, QuotaSection]] = {}
        self._lock = threading.Lock()
        meter.create_observable_gauge(
            "memory_sandbox.quota.utilization",
            callbacks=[self._observe_quota],
            unit="1",
            description="share of a scope's quota in use, bytes and files",
        )

    def __repr__(self) -> str:
        return f"MeteredAuditSink({self.inner!r})"

    def intent(self, decision: Decision) -> None:
        self.inner.intent(decision)

    def outcome(self, decision: Decision) -> None:
        try:
            self.inner.outcome(decision)
        finally:  # counted whether or not the inner sink managed to record it
            self._count(decision)

    def keyed_digest(self, data: bytes) -> str | None:
        return self.inner.keyed_digest(data)

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if callable(close):
            close()

    def watch_quota(self, scope: str, storage: StorageAdapter, quota: QuotaSection) -> None:
        """Report the share of ``quota`` that ``storage`` (the scope's store) uses, at each collection."""
        with self._lock:
            self._watched[scope] = (storage, quota)

    def _count(self, decision: Decision) -> None:
        command = decision.command or _NONE
        attributes: dict[str, str] = {"command": command, "verdict": decision.verdict, "outcome": decision.outcome}
        if self._scope_attribute:
            attributes["scope"] = decision.context.scope or _NONE
        self._decisions.add(1, attributes)
        for rule in dict.fromkeys(decision.rule_ids):
            self._rules.add(1, {"rule": rule, "verdict": decision.verdict})
        timing: dict[str, str] = {key: attributes[key] for key in ("command", "outcome", "scope") if key in attributes}
        self._duration.record(decision.latency_ns / 1e9, timing)

    def _observe_quota(self, options: CallbackOptions) -> Iterable[Observation]:
        with self._lock:
            watched = list(self._watched.items())
        for scope, (storage, quota) in watched:
            usage = storage.usage()
            shares = (("bytes", usage.bytes, quota.max_bytes), ("files", usage.files, quota.max_files))
            for resource, used, limit in shares:
                if limit:
                    yield Observation(used / limit, {"scope": scope, "resource": resource})
