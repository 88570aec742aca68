"""The runner and its stages: one decision per call, fail closed, nothing half-done."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from sandbox import Sandbox, load_policy
from sandbox.commands import Content, Create, Delete, Operation, Rename, View
from sandbox.decision import CallContext, Decision, ListAuditSink
from sandbox.effects import Effect
from sandbox.errors import Denied, StorageError
from sandbox.paths import canonicalize
from sandbox.stages import RootGuard
from sandbox.storage import InMemoryStorage
from tests.planning import planned


def request(op: Operation) -> Effect:
    return planned(op)


class TestRootGuard:
    guard = RootGuard()

    @pytest.mark.parametrize("raw", ["/memories", "/memories/", "/memories/.", "/memories/a/..", "%2fmemories"])
    def test_delete_root_denied(self, raw: str) -> None:
        """Deleting the root is denied whatever its spelling."""
        with pytest.raises(Denied) as info:
            self.guard(request(Delete(canonicalize(raw))))
        assert info.value.rule_id == "root.delete"

    def test_rename_root_denied(self) -> None:
        """Renaming the root is denied."""
        with pytest.raises(Denied) as info:
            self.guard(request(Rename(canonicalize("/memories/"), canonicalize("/memories/x"))))
        assert info.value.rule_id == "root.rename"

    def test_replace_root_denied(self) -> None:
        """Renaming something onto the root is denied."""
        with pytest.raises(Denied) as info:
            self.guard(request(Rename(canonicalize("/memories/x"), canonicalize("/memories/y/.."))))
        assert info.value.rule_id == "root.replace"

    def test_into_itself_denied(self) -> None:
        """Moving a folder into itself is denied."""
        with pytest.raises(Denied) as info:
            self.guard(request(Rename(canonicalize("/memories/a"), canonicalize("/memories/a/b/c"))))
        assert info.value.rule_id == "rename.into_itself"

    def test_write_root_denied(self) -> None:
        """The root cannot be written as a file."""
        with pytest.raises(Denied) as info:
            self.guard(request(Create(canonicalize("/memories/"), "x")))
        assert info.value.rule_id == "root.write"

    def test_ordinary_calls_pass(self) -> None:
        """Calls on paths below the root pass unchanged."""
        req = request(Rename(canonicalize("/memories/a"), canonicalize("/memories/ab")))
        assert self.guard(req) is req

    def test_repr_shows_stage(self) -> None:
        """A stage shows itself in reprs."""
        assert repr(self.guard) == "RootGuard()"


class ExplodingBackend:
    """A backend that fails in a given way."""

    def __init__(self, exc: Exception) -> None:
        self.exc = exc
        self.calls = 0

    @contextmanager
    def transaction(self, op: Operation) -> Iterator[ExplodingBackend]:
        yield self

    def plan(self, op: Operation, context: CallContext) -> Effect:
        return Effect(op, context)

    def apply(self, effect: Effect) -> Content:
        self.calls += 1
        raise self.exc


class FailingIntentSink(ListAuditSink):
    def intent(self, decision: Decision) -> None:
        raise StorageError("Error: the audit log cannot be written; the call was refused.")


class TestRunner:
    def make(self, **kwargs: Any) -> Sandbox:
        kwargs.setdefault("storage", InMemoryStorage())
        return Sandbox(policy=load_policy("default"), **kwargs)

    def test_bug_becomes_short_error(self) -> None:
        """An unexpected exception is a short internal error: no repr, no text of the exception."""
        audit = ListAuditSink()
        secret_text = "/home/alice/.ssh/id_rsa sk-ant-api03-leak"
        sandbox = Sandbox(
            policy=load_policy("default"), backend=ExplodingBackend(RuntimeError(secret_text)), audit=audit
        )
        result = sandbox.execute({"command": "view", "path": "/memories"})
        assert result.is_error
        assert result.content == "Error: The memory sandbox failed internally; the call was refused."
        assert audit.outcomes[0].error_code == "internal_error"
        assert audit.outcomes[0].error_detail == "RuntimeError"
        assert secret_text not in repr(audit.outcomes[0])

    def test_audit_intent_failure_denies_before_storage(self) -> None:
        """If the intent record cannot be written, storage is never touched."""
        backend = ExplodingBackend(RuntimeError("must not run"))
        sandbox = Sandbox(policy=load_policy("default"), backend=backend, audit=FailingIntentSink())
        result = sandbox.execute({"command": "create", "path": "/memories/a", "file_text": "x"})
        assert result.is_error and "audit log" in str(result.content)
        assert backend.calls == 0

    def test_denied_call_not_sent_to_backend(self) -> None:
        """A denied call never reaches the backend, and its outcome is 'denied'."""
        backend = ExplodingBackend(RuntimeError("must not run"))
        audit = ListAuditSink()
        sandbox = Sandbox(policy=load_policy("default"), backend=backend, audit=audit)
        result = sandbox.execute({"command": "delete", "path": "/memories/"})
        assert result.is_error and backend.calls == 0
        assert (audit.outcomes[0].outcome, audit.outcomes[0].rule_ids) == ("denied", ("root.delete",))
        assert audit.intents == []

    def test_decision_fields(self) -> None:
        """The decision names command, canonical paths, extra field names, policy and context."""
        audit = ListAuditSink()
        sandbox = self.make(audit=audit)
        context = CallContext(scope="alice", tool_use_id="toolu_1")
        sandbox.execute({"command": "view", "path": "/memories/./a/../", "extra": 1}, context)
        decision = audit.outcomes[0]
        assert decision.command == "view"
        assert decision.paths == ("/memories",)
        assert decision.extra_fields == ("extra",)
        assert (decision.policy_id, decision.policy_revision) == ("default", 1)
        assert decision.context == context
        assert decision.latency_ns > 0

    def test_interrupt_still_recorded(self) -> None:
        """A KeyboardInterrupt in the backend propagates, and the call is still recorded."""
        audit = ListAuditSink()
        sandbox = Sandbox(policy=load_policy("default"), backend=ExplodingBackend(KeyboardInterrupt()), audit=audit)  # type: ignore[arg-type]
        with pytest.raises(KeyboardInterrupt):
            sandbox.execute({"command": "view", "path": "/memories"})
        assert audit.outcomes[0].error_code == "interrupted"

    def test_check_touches_nothing(self) -> None:
        """check() runs the stages without storage or audit."""
        audit = ListAuditSink()
        sandbox = self.make(audit=audit)
        req = sandbox.check({"command": "view", "path": "%2fmemories%2fa"})
        assert isinstance(req.op, View) and str(req.op.path) == "/memories/a"
        assert audit.outcomes == []

    def test_needs_one_backend(self) -> None:
        """A sandbox takes storage or a backend, not both, not neither."""
        with pytest.raises(TypeError):
            Sandbox(policy=load_policy("default"))

    def test_two_policies_side_by_side(self) -> None:
        """Sandboxes with different policies do not affect each other."""
        strict = Sandbox(policy=load_policy("strict"), storage=InMemoryStorage())
        default = self.make()
        long_name = "/memories/" + "a" * 200
        assert strict.execute({"command": "view", "path": long_name}).is_error
        assert "does not exist" in str(default.execute({"command": "view", "path": long_name}).content)

    @pytest.mark.anyio
    async def test_async_runner(self) -> None:
        """aexecute runs the same pipeline."""
        sandbox = self.make()
        result = await sandbox.aexecute({"command": "create", "path": "/memories/a.md", "file_text": "x"})
        assert result.content == "File created successfully at: /memories/a.md"
        denied = await sandbox.aexecute({"command": "view", "path": "/memoriesX"})
        assert denied.is_error
