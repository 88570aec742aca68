"""One sandbox per scope: each user, team or agent gets its own storage and its own quota.

:class:`Scopes` builds the sandbox of a scope on first use from one policy and a
storage factory, and keeps a bounded number open. A scope's sandbox holds only
that scope's storage, so no call through it can read, list or change another
scope's memory or usage, whatever the call says.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Final

from sandbox.decision import AuditSink
from sandbox.pipeline import Sandbox, Scans
from sandbox.policy import Policy
from sandbox.storage.base import StorageAdapter
from sandbox.storage.local import Durability, LocalStorage

__all__ = ["Scopes"]

_MAX_SCOPE_ID: Final = 128


class Scopes:
    """Sandboxes by scope id, built lazily, at most ``max_open`` kept open (least recently used go)."""

    def __init__(
        self,
        *,
        policy: Policy,
        storage_for: Callable[[str], StorageAdapter],
        audit_for: Callable[[str], AuditSink] | None = None,
        max_open: int = 256,
    ) -> None:
        self.policy = policy
        self._storage_for = storage_for
        self._audit_for = audit_for
        self._max_open = max_open
        self._open: OrderedDict[str, Sandbox] = OrderedDict()
        self._lock = threading.Lock()
        self._scans: Scans | None = None  # compiled at the first scope, shared by every scope's sandbox

    @classmethod
    def local(cls, base: str | os.PathLike[str], *, policy: Policy, durability: Durability = "full") -> Scopes:
        """Scopes as folders under ``base`` (``LocalStorage.for_scope``)."""
        return cls(policy=policy, storage_for=lambda scope: LocalStorage.for_scope(base, scope, durability=durability))

    def __repr__(self) -> str:
        return f"Scopes(policy={self.policy.id!r}, open={len(self._open)})"

    def for_scope(self, scope_id: str) -> Sandbox:
        """The sandbox of one scope."""
        if not isinstance(scope_id, str) or not scope_id or len(scope_id.encode("utf-8", "replace")) > _MAX_SCOPE_ID:
            raise ValueError(f"a scope id is a non-empty string of at most {_MAX_SCOPE_ID} bytes")
        with self._lock:
            sandbox = self._open.get(scope_id)
            if sandbox is not None:
                self._open.move_to_end(scope_id)
                return sandbox
            audit = self._audit_for(scope_id) if self._audit_for is not None else None
            self._scans = self._scans or Scans.of(self.policy)
            storage = self._storage_for(scope_id)
            sandbox = Sandbox(policy=self.policy, storage=storage, audit=audit, scans=self._scans, scope=scope_id)
            self._open[scope_id] = sandbox
            while len(self._open) > self._max_open:
                _, evicted = self._open.popitem(last=False)
                self._close(evicted)
            return sandbox

    def close(self) -> None:
        with self._lock:
            while self._open:
                self._close(self._open.popitem()[1])

    def _close(self, sandbox: Sandbox) -> None:
        """Close all a scope's sandbox holds: its audit log (the closing checkpoint signs the scope's last
        records; the log's descriptors are freed), whoever opened it, then its storage."""
        sandbox.close()
        audit = sandbox.audit if self._audit_for is not None else None
        for resource in (audit, getattr(sandbox.backend, "storage", None)):
            close = getattr(resource, "close", None)
            if callable(close):
                close()
