"""Wrap mode: the sandbox's pipeline in front of a memory handler the user already has.

The handler may be a ``BetaAbstractMemoryTool`` (or its async sibling), any object
with a ``call(dict)`` method, or a plain callable taking the command dict, sync
or async. It receives only canonical ``/memories/...`` paths and complete
commands (``new_str`` always present). A ``ToolError`` it raises reaches the model
with any host path scrubbed out; any other exception propagates to the runner,
which turns it into a short internal error (no Python repr reaches the model).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, Final, cast

import anyio.from_thread
from anthropic.lib.tools import ToolError

from sandbox.commands import Create, Delete, Insert, Operation, Rename, Reply, StrReplace, View, written_text
from sandbox.decision import CallContext, Note
from sandbox.effects import Effect
from sandbox.errors import HandlerError
from sandbox.redaction import SecretGuard
from sandbox.views import truncate_view

__all__ = ["WrappedHandler", "operation_input", "scrub_host_paths"]

_MAX_ERROR_CHARS: Final = 2000
# Absolute paths other than /memories/...: POSIX, Windows drive and UNC forms.
_HOST_PATH = re.compile(
    r"""(?<![\w/.~-])/(?!memories(?![^/\s'"`]))[^\s'"`,;)\]]+"""
    r"""|\b[A-Za-z]:[\\/][^\s'"`,;)\]]*"""
    r"""|\\\\[^\s'"`,;)\]]+"""
)


def scrub_host_paths(text: str) -> str:
    """Replace every absolute path outside ``/memories`` with ``[path]``."""
    return _HOST_PATH.sub("[path]", text)


def operation_input(op: Operation) -> dict[str, Any]:
    """The tool input a memory handler expects for a canonical operation."""
    if isinstance(op, View):
        view: dict[str, Any] = {"command": "view", "path": str(op.path)}
        if op.view_range is not None:
            view["view_range"] = list(op.view_range)
        return view
    if isinstance(op, Create):
        return {"command": "create", "path": str(op.path), "file_text": op.file_text}
    if isinstance(op, StrReplace):
        return {"command": "str_replace", "path": str(op.path), "old_str": op.old_str, "new_str": op.new_str}
    if isinstance(op, Insert):
        return {
            "command": "insert",
            "path": str(op.path),
            "insert_line": op.insert_line,
            "insert_text": op.insert_text,
        }
    if isinstance(op, Delete):
        return {"command": "delete", "path": str(op.path)}
    if isinstance(op, Rename):
        return {"command": "rename", "old_path": str(op.old_path), "new_path": str(op.new_path)}
    raise TypeError(f"not an operation: {type(op).__name__}")


class WrappedHandler:
    """A backend that forwards canonical operations to an existing handler.

    The handler is called from the runner's thread; an async handler is awaited on the
    event loop that started the call (the runner then runs in a worker thread).
    """

    def __init__(self, handler: object, *, max_view_chars: int, secrets: SecretGuard | None = None) -> None:
        function = getattr(handler, "call", handler)
        if not callable(function):
            raise TypeError("the handler must have a call(dict) method or be callable")
        self._handler = handler
        self._function: Callable[[dict[str, Any]], object] = function
        self.is_async = inspect.iscoroutinefunction(function)
        self._max_view_chars = max_view_chars
        self._secrets = secrets

    def __repr__(self) -> str:
        return f"WrappedHandler({type(self._handler).__name__})"

    @contextmanager
    def transaction(self, op: Operation) -> Iterator[WrappedHandler]:
        yield self

    def plan(self, op: Operation, context: CallContext) -> Effect:
        return Effect(op, context, written=written_text(op))

    def apply(self, effect: Effect) -> Reply:
        op = _as_written(effect)
        try:
            if self.is_async:
                result = anyio.from_thread.run(self._await, operation_input(op))
            else:
                result = self._function(operation_input(op))
        except ToolError as exc:
            raise _handler_error(exc) from None
        except RuntimeError as exc:
            if self.is_async and "event loop" in str(exc).lower():
                raise TypeError("an async handler needs AsyncSandboxedMemoryTool (or Sandbox.aexecute)") from None
            raise
        return self._finish(op, result)

    async def _await(self, command: dict[str, Any]) -> object:
        return await cast(Awaitable[object], self._function(command))

    def _finish(self, op: Operation, result: object) -> Reply:
        if inspect.isawaitable(result):
            # A sync call() that returned a coroutine: close it so it does not warn.
            getattr(result, "close", lambda: None)()
            raise TypeError("the handler returned an awaitable from a sync call")
        if isinstance(result, list | tuple):
            return Reply([dict(block) for block in result])
        if not isinstance(result, str):
            raise TypeError(f"the handler returned {type(result).__name__}, not text or content blocks")
        if not isinstance(op, View):
            return Reply(result)
        notes: tuple[Note, ...] = ()
        if self._secrets is not None:
            # The handler's files may hold secrets written before the sandbox stood in front of it.
            result, notes = self._secrets.scan_read(result, op.path)
        return Reply(truncate_view(result, self._max_view_chars), notes)


def _as_written(effect: Effect) -> Operation:
    """The operation with the text the stages let through (secrets redacted)."""
    op, text = effect.op, effect.written
    if text is None:
        return op
    if isinstance(op, Create):
        return replace(op, file_text=effect.content or "")
    if isinstance(op, StrReplace):
        return replace(op, new_str=text)
    if isinstance(op, Insert):
        return replace(op, insert_text=text)
    return op


def _handler_error(exc: ToolError) -> HandlerError:
    text = exc.content if isinstance(exc.content, str) else str(exc)
    text = scrub_host_paths(text)
    if len(text) > _MAX_ERROR_CHARS:
        text = text[:_MAX_ERROR_CHARS] + "..."
    return HandlerError(text, detail="the wrapped handler raised ToolError")
