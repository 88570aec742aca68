"""Drop-in memory tools for the ``anthropic`` SDK's tool runner.

``SandboxedMemoryTool`` is a ``BetaAbstractMemoryTool`` and
``AsyncSandboxedMemoryTool`` a ``BetaAsyncAbstractMemoryTool``: pass either in
``tools=[...]`` to ``client.beta.messages.tool_runner``. Every call goes through
the sandbox; a refusal or failure raises the SDK's ``ToolError``, so the tool
result carries ``is_error: true`` and a short text, never a traceback.
"""

from __future__ import annotations

import inspect
from typing import Any, cast

from anthropic.lib.tools import (
    BetaAbstractMemoryTool,
    BetaAsyncAbstractMemoryTool,
    BetaFunctionToolResultType,
    ToolError,
)
from anthropic.types.beta import BetaCacheControlEphemeralParam

from sandbox.decision import AuditSink, CallContext, NullAuditSink
from sandbox.errors import PolicyError, SandboxError
from sandbox.pipeline import Sandbox, ToolResult
from sandbox.policy import Policy, load_policy
from sandbox.storage.handler import HandlerStorage

__all__ = ["AsyncSandboxedMemoryTool", "SandboxedMemoryTool"]


def _returned(result: ToolResult) -> BetaFunctionToolResultType:
    if result.is_error:
        raise ToolError(cast(BetaFunctionToolResultType, result.content))
    return cast(BetaFunctionToolResultType, result.content)


def _wrapped_sandbox(handler: object, policy: Policy | None, audit: AuditSink | None) -> Sandbox:
    """The whole sandbox in front of ``handler``, judging every call on the handler's own state.

    A sync handler is read at once (an async one on its first call): one that cannot answer
    ``view`` with listings and numbered file views is refused, naming what could not be enforced.
    """
    policy = policy or load_policy("default")
    storage = HandlerStorage(handler)
    if not storage.is_async:
        try:
            storage.usage()
        except (SandboxError, TypeError) as exc:
            raise PolicyError(
                "the wrapped handler cannot answer `view` with listings and numbered file views, so the sandbox "
                f"cannot enforce {', '.join(state_keys(policy))} ({exc})"
            ) from None
    sandbox = Sandbox(policy=policy, storage=storage, audit=audit)
    if audit is None and isinstance(sandbox.audit, NullAuditSink) and policy.audit.sink != "none":
        raise PolicyError(
            "wrap mode records every decision, but the wrapped handler names no folder to keep the log beside "
            '(no memory_root): pass audit=AuditLog.open(PATH), set [audit] sink to a file path, or sink = "none" '
            "to record nothing"
        )
    return sandbox


def state_keys(policy: Policy) -> list[str]:
    """The keys of a policy judged against stored state (what a store must be able to answer)."""
    quota = policy.quota
    keys = [key for key, value in (("quota.max_bytes", quota.max_bytes), ("quota.max_files", quota.max_files),
                                   ("quota.max_folders", quota.folder_limit)) if value is not None]  # fmt: skip
    keys += ["limits.max_file_bytes", "limits.max_file_lines", "paths.max_depth", "paths.max_path_bytes"]
    keys += [f"paths.{kind}_collisions" for kind, setting in (("case", policy.paths.case_collisions),
             ("lookalike", policy.paths.lookalike_collisions)) if setting == "refuse"]  # fmt: skip
    if policy.rules or policy.default_effect == "deny":
        keys.append("rules")
    if policy.secrets.enabled and policy.secrets.scan_reads:
        keys.append("secrets.scan_reads")
    return keys


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
        if inspect.iscoroutinefunction(getattr(handler, "call", handler)):
            raise TypeError("an async handler needs AsyncSandboxedMemoryTool.wrap")
        return cls(_wrapped_sandbox(handler, policy, audit))

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
