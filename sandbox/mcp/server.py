"""The MCP server: the six memory tools, each call run by the sandbox of the caller's scope.

Who the caller is comes from the server's own configuration, never from the client:
the scope is fixed per server (``--scope``) or per bearer token (set on the HTTP
request by :mod:`sandbox.mcp.http`). What the client says about itself (its name and
version from ``clientInfo``) is recorded as a claim, in the decision's ``principal``
as ``claimed:NAME/VERSION``, beside the session id; it decides nothing.
"""

from __future__ import annotations

import secrets
import threading
import unicodedata
from collections.abc import Callable
from typing import Any, Final

import anyio.to_thread
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server

from sandbox import __version__
from sandbox.decision import CallContext
from sandbox.mcp.tools import TOOL_NAMES, list_tools, to_result
from sandbox.pipeline import Sandbox

__all__ = ["SCOPE_KEY", "MemoryServer", "claimed_principal", "serve_stdio"]

#: The ASGI scope key under which the HTTP gate leaves the scope a bearer token grants.
SCOPE_KEY: Final = "memory_sandbox.scope"
_NO_SCOPE: Final = object()
_CLAIM_CHARS: Final = 64
_INSTRUCTIONS: Final = (
    "Persistent memory: six tools (view, create, str_replace, insert, delete, rename) on files under "
    "/memories. View /memories first to see what is already known."
)


def claimed_principal(name: object, version: object) -> str:
    """``claimed:NAME/VERSION`` from what a client declared, cut short and without control characters."""
    return f"claimed:{_clean(name)}/{_clean(version)}"


def _clean(value: object) -> str:
    text = value if isinstance(value, str) else "?"
    text = "".join(ch for ch in text if unicodedata.category(ch)[0] not in "CZ" or ch == " ")
    return (text.strip() or "?")[:_CLAIM_CHARS]


class MemoryServer:
    """One store and policy served over MCP; one sandbox per scope, opened on first use."""

    def __init__(
        self,
        open_sandbox: Callable[[str | None], Sandbox],
        *,
        scope: str | None = None,
        per_token_scopes: bool = False,
    ) -> None:
        self._open = open_sandbox
        self._scope = scope
        self._per_token = per_token_scopes
        self._sandboxes: dict[str | None, Sandbox] = {}
        self._lock = threading.Lock()
        # stdio serves one client per process: that connection is the session.
        self.stdio_session = f"stdio-{secrets.token_hex(8)}"
        self.server: Server[Any] = Server(
            "memory-sandbox",
            version=__version__,
            instructions=_INSTRUCTIONS,
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
        )

    def sandbox(self, scope: str | None) -> Sandbox:
        with self._lock:
            if scope not in self._sandboxes:
                self._sandboxes[scope] = self._open(scope)
            return self._sandboxes[scope]

    def close(self) -> None:
        """Close every sandbox opened (their audit logs get a closing checkpoint)."""
        with self._lock:
            sandboxes, self._sandboxes = list(self._sandboxes.values()), {}
        for sandbox in sandboxes:
            sandbox.close()

    async def _list_tools(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=list_tools())

    async def _call_tool(
        self, ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        if params.name not in TOOL_NAMES:
            return to_result(
                f"Error: Unknown tool {params.name[:64]!r}; the tools are {', '.join(TOOL_NAMES)}", is_error=True
            )
        scope = self._scope_of(ctx)
        if scope is _NO_SCOPE:
            # The HTTP gate lets no request through without a token; this is the fail-closed backstop.
            return to_result("Error: The call carries no valid bearer token; it was refused.", is_error=True)
        # The tool's name is the command: a "command" in the arguments cannot turn a view into a delete.
        arguments = {**(params.arguments or {}), "command": params.name}
        context = CallContext(
            principal=self._claimed(ctx),
            session_id=self._session_of(ctx),
            tool_use_id=None if ctx.request_id is None else str(ctx.request_id),
        )
        sandbox = self.sandbox(scope)  # type: ignore[arg-type]  # not _NO_SCOPE: checked above
        result = await anyio.to_thread.run_sync(sandbox.execute, arguments, context)
        return to_result(result.content, is_error=result.is_error)

    def _scope_of(self, ctx: ServerRequestContext[Any]) -> str | object | None:
        if not self._per_token:
            return self._scope
        request = ctx.request
        asgi_scope = getattr(request, "scope", None)
        if not isinstance(asgi_scope, dict) or SCOPE_KEY not in asgi_scope:
            return _NO_SCOPE
        granted = asgi_scope[SCOPE_KEY]
        return granted if granted is None or isinstance(granted, str) else _NO_SCOPE

    def _session_of(self, ctx: ServerRequestContext[Any]) -> str:
        headers = getattr(ctx.request, "headers", None)
        session = headers.get("mcp-session-id") if headers is not None else None
        if isinstance(session, str) and session:
            return _clean(session)
        return self.stdio_session if ctx.request is None else "http-stateless"

    @staticmethod
    def _claimed(ctx: ServerRequestContext[Any]) -> str | None:
        client = ctx.session.client_params
        if client is None:
            return None
        return claimed_principal(client.client_info.name, client.client_info.version)


def serve_stdio(memory: MemoryServer) -> None:
    """Serve one client over this process's stdin and stdout until it hangs up."""
    from mcp.server.stdio import stdio_server  # noqa: PLC0415 - stdio only when asked for

    async def run() -> None:
        async with stdio_server() as (read, write):
            await memory.server.run(read, write, memory.server.create_initialization_options())

    anyio.run(run)
