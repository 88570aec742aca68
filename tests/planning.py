"""Effects for stage tests: a command planned against a store (an empty one unless given)."""

from __future__ import annotations

from sandbox.commands import Operation
from sandbox.decision import CallContext
from sandbox.effects import Effect, PlainLens, plan
from sandbox.storage import InMemoryStorage
from sandbox.storage.base import Reader


def planned(op: Operation, context: CallContext | None = None, storage: Reader | None = None) -> Effect:
    """``op`` resolved against ``storage`` (default: an empty in-memory store), seen as stored."""
    return plan(op, storage if storage is not None else InMemoryStorage(), PlainLens(), context or CallContext())
