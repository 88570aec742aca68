"""Drop-in memory tools for the ``anthropic`` SDK's tool runner.

``SandboxedMemoryTool`` is a ``BetaAbstractMemoryTool`` and
``AsyncSandboxedMemoryTool`` a ``BetaAsyncAbstractMemoryTool``: pass either in
``tools=[...]`` to ``client.beta.messages.tool_runner``. Every call goes through
the sandbox; a refusal or failure raises the SDK's ``ToolError``, so the tool
result carries ``is_error: true`` and a short text, never a traceback.
"""

from __future__ import annotations

from typing import Any, cast

from anthropic.lib.tools import (
    BetaAbstractMemoryTool,
    BetaAsyncAbstractMemoryTool,
    BetaFunctionToolResultType,
    ToolError,
)
from anthropic.types.beta import BetaCacheControlEphemeralParam

from sandbox.decision import AuditSink, CallContext
from sandbox.pipeline import Sandbox, ToolResult
from sandbox.policy import Policy, load_policy
from sandbox.redaction import SecretGuard
from sandbox.storage.wrapped import WrappedHandler

__all__ = ["AsyncSandboxedMemoryTool", "SandboxedMemoryTool"]


def _returned(result: ToolResult) -> BetaFunctionToolResultType:
    if result.is_error:
        raise ToolError(cast(BetaFunctionToolResultType, result.content))
    return cast(BetaFunctionToolResultType, result.content)


def _wrapped_sandbox(handler: object, policy: Policy | None, audit: AuditSink | None) -> Sandbox:
    policy = policy or load_policy("default")
    secrets = SecretGuard(policy.secrets) if policy.secrets.enabled else None
    backend = WrappedHandler(handler, max_view_chars=policy.limits.max_view_chars, secrets=secrets)
    return Sandbox(policy=policy, backend=backend, audit=audit, secrets=secrets)


def _as_input(command: Any) -> object:
    # The SDK hands typed command models to view()/create()/...; the sandbox parses dicts.
    return command.to_dict() if hasattr(command, "to_dict") else command


class _SandboxHolder:
    """What both tools hold: the sandbox, and the call context given to every call."""

    def __init__(
        self,
        sandbox: Sandbox,
        *,
        context: CallContext | None = None,
        cache_control: BetaCacheControlEphemeralParam | None = None,
    ) -> None:
        super().__init__(cache_control=cache_control)  # type: ignore[call-arg]  # the SDK base, next in the MRO
        self.sandbox = sandbox
        self.context = context


class SandboxedMemoryTool(_SandboxHolder, BetaAbstractMemoryTool):
    """The memory tool, every call checked by a :class:`~sandbox.pipeline.Sandbox`."""

    @classmethod
    def wrap(
        cls, handler: object, *, policy: Policy | None = None, audit: AuditSink | None = None
    ) -> SandboxedMemoryTool:
        """Put the sandbox in front of an existing sync handler (default policy unless given)."""
        sandbox = _wrapped_sandbox(handler, policy, audit)
        if cast(WrappedHandler, sandbox.backend).is_async:
            raise TypeError("an async handler needs AsyncSandboxedMemoryTool.wrap")
        return cls(sandbox)

    def call(self, input: object) -> BetaFunctionToolResultType:  # noqa: A002 - the SDK's name
        return _returned(self.sandbox.execute(input, self.context))

    def execute(self, command: Any) -> BetaFunctionToolResultType:
        return self.call(_as_input(command))

    # The SDK declares one abstract method per command; all take the same road.
    view = create = str_replace = insert = delete = rename = execute


class AsyncSandboxedMemoryTool(_SandboxHolder, BetaAsyncAbstractMemoryTool):
    """The async memory tool; store work runs in a worker thread, async handlers are awaited."""

    @classmethod
    def wrap(
        cls, handler: object, *, policy: Policy | None = None, audit: AuditSink | None = None
    ) -> AsyncSandboxedMemoryTool:
        """Put the sandbox in front of an existing handler, sync or async."""
        return cls(_wrapped_sandbox(handler, policy, audit))

    async def call(self, input: object) -> BetaFunctionToolResultType:  # noqa: A002 - the SDK's name
        # Stores block: the whole call runs off the event loop (an async wrapped handler is awaited on it).
        return _returned(await self.sandbox.aexecute(input, self.context))

    async def execute(self, command: Any) -> BetaFunctionToolResultType:
        return await self.call(_as_input(command))

    view = create = str_replace = insert = delete = rename = execute
