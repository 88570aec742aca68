"""An MCP server over stdio as the handler under attack (``memory-sandbox attack --mcp "COMMAND"``).

The gate's worker process builds :class:`McpHandler` through :func:`from_environment`:
it starts the server (``{root}`` in its command is the attacked folder, ``{scratch}`` a
folder outside the planted tree for the server's own files, such as an audit log), in
the world's working directory and with the environment canary, connects the ``mcp``
SDK's client, and turns each memory command into tool calls by a
:class:`~sandbox.attack.mcp_maps.Mapping`. A tool result with ``isError`` (or a
JSON-RPC error) is a refusal; a command with no tool, or input no MCP call can carry
(not an object, not JSON), is *unsupported*; a server that dies is a crash and is
started again for the next call. A hang is the gate's to notice, as for any handler.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing.util
import os
import shlex
import sys
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import anyio
import anyio.from_thread
from anthropic.lib.tools import ToolError
from mcp import Client, Implementation, MCPError, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp_types import CONNECTION_CLOSED

from sandbox import __version__
from sandbox.attack.mcp_maps import BUILTIN, PATH_FIELDS, Mapping, builtin_for_server, fill, load_mapping
from sandbox.attack.worker import Unsupported
from sandbox.attack.world import World
from sandbox.commands import COMMAND_NAMES

__all__ = ["ENV_MCP", "McpHandler", "McpTarget", "from_environment"]

#: The environment variable carrying the target to the worker (removed before the server starts).
ENV_MCP: Final = "MEMORY_SANDBOX_ATTACK_MCP"
SPEC: Final = "sandbox.attack.mcp_target:from_environment"
#: Runs a command that the kernel kills when its parent thread ends (PR_SET_PDEATHSIG survives exec).
_DIE_WITH_PARENT: Final = (
    "import ctypes, os, signal, sys; ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL); "
    "os.execvp(sys.argv[1], sys.argv[1:])"
)


@dataclass(frozen=True)
class McpTarget:
    """What ``--mcp`` and ``--mcp-map`` name: the server's command, and a mapping (built-in name or file)."""

    command: str
    mapping: str | None = None

    def __post_init__(self) -> None:
        argv = shlex.split(self.command)
        if not argv:
            raise ValueError("--mcp needs the server's command")
        if not any("{root}" in arg for arg in argv):
            raise ValueError("--mcp: the server's command must name the attacked folder as {root}")
        if self.mapping is not None and self.mapping not in BUILTIN:
            load_mapping(Path(self.mapping))  # refuse a bad file before any world is planted

    def environment(self) -> dict[str, str]:
        mapping = self.mapping if self.mapping is None or self.mapping in BUILTIN else str(Path(self.mapping).resolve())
        # The server runs in the planted working folder: relative paths to files here are made absolute.
        argv = [os.path.abspath(arg) if _relative_file(arg) else arg for arg in shlex.split(self.command)]
        return {ENV_MCP: json.dumps({"argv": argv, "mapping": mapping})}


def _relative_file(arg: str) -> bool:
    return "/" in arg and not os.path.isabs(arg) and not arg.startswith("-") and os.path.exists(arg)


def from_environment(root: Path) -> McpHandler:
    """The worker's factory: the target from :data:`ENV_MCP`, attacked in ``root``."""
    target = json.loads(os.environ.pop(ENV_MCP))
    base = root
    for _ in Path(World.ROOT).parts:
        base = base.parent
    scratch = base.parent / "mcp-server-files"  # beside the planted tree, removed with it
    scratch.mkdir(exist_ok=True)
    argv = [arg.replace("{root}", str(root)).replace("{scratch}", str(scratch)) for arg in target["argv"]]
    name = target["mapping"]
    mapping = None if name is None else BUILTIN[name] if name in BUILTIN else load_mapping(Path(name))
    return McpHandler(argv, root, mapping)


class McpHandler:
    """A memory handler (``call(command) -> text``) that is an MCP server in a process of its own."""

    def __init__(self, argv: list[str], root: Path, mapping: Mapping | None) -> None:
        self.argv, self.root = argv, root
        self._portal_cm = anyio.from_thread.start_blocking_portal()
        self._portal = self._portal_cm.__enter__()
        self._client_cm: AbstractContextManager[Client] | None = None
        self._errlog = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the handler
        self._client = self._connect()
        # The worker process ends by returning: stop the server and the event loop's thread before it exits.
        multiprocessing.util.Finalize(self, self.close, exitpriority=10)
        server = self._client.server_info
        self.server_name = server.name if server is not None else None
        self.server_version = server.version if server is not None else None
        chosen = mapping or builtin_for_server(self.server_name)
        if chosen is None:
            raise ValueError(
                f"no built-in mapping for the server {self.server_name!r} (built in: {', '.join(BUILTIN)}); "
                "give one with --mcp-map FILE.toml"
            )
        self.mapping = chosen
        tools = self._portal.call(self._client.list_tools)
        self.tools = {tool.name for tool in tools.tools}
        self.unsupported = chosen.unsupported(self.tools)
        if len(self.unsupported) == len(COMMAND_NAMES):
            raise ValueError(f"the mapping {chosen.name!r} routes no command to a tool the server lists")
        self.description = {
            "type": f"MCP server {self.server_name or '?'} {self.server_version or ''}".rstrip(),
            "mapping": chosen.name,
            "unsupported": self.unsupported,
        }

    def _connect(self) -> Client:
        argv = self.argv
        if sys.platform == "linux":
            # A hung worker is killed, and its server with it: the kernel sends SIGKILL to the server when the
            # thread that started it ends (a server blocked in a tool call would never read the end of its input).
            argv = [sys.executable, "-c", _DIE_WITH_PARENT, *argv]
        params = StdioServerParameters(command=argv[0], args=argv[1:], env=dict(os.environ), cwd=os.getcwd())
        client = Client(
            stdio_client(params, errlog=self._errlog),
            client_info=Implementation(name="memory-sandbox-attack", version=__version__),
        )
        self._client_cm = self._portal.wrap_async_context_manager(client)
        return self._client_cm.__enter__()

    def _reconnect(self) -> None:
        if self._client_cm is not None:
            # The old connection is dead already (its exit may fail any way); a new one follows.
            with contextlib.suppress(Exception):
                self._client_cm.__exit__(None, None, None)
            self._client_cm = None
        self._client = self._connect()

    def call(self, command: Any) -> str:
        if not isinstance(command, dict) or command.get("command") not in COMMAND_NAMES:
            raise Unsupported("not a memory command an MCP tool call can carry")
        routes = [route for route in self.mapping.routes.get(command["command"], ()) if route.tool in self.tools]
        if not routes:
            raise Unsupported(f"the server has no tool for {command['command']}")
        carried = set().union(*(route.fields() for route in routes))
        dropped = sorted(key for key in command if key != "command" and key not in carried)
        if dropped:
            # A field no tool takes would be dropped silently, and the answer judged as if it had been seen.
            raise Unsupported(f"the server's tools take no {', '.join(map(str, dropped))}")
        fields = {key: self._translate(key, value) for key, value in command.items()}
        errors: list[str] = []
        for route in routes:
            arguments = fill(route.arguments, fields)
            try:
                json.dumps(arguments, ensure_ascii=False).encode("utf-8")
            except (TypeError, ValueError) as exc:
                raise Unsupported(f"the input cannot be sent as JSON ({type(exc).__name__})") from None
            text, is_error = self._call_tool(route.tool, arguments)
            if not is_error:
                return text
            errors.append(text)
        raise ToolError("\n".join(errors))

    def _translate(self, key: str, value: Any) -> Any:
        """A memory path in the server's terms: its ``/memories`` prefix becomes the mapping's."""
        if key not in PATH_FIELDS or not isinstance(value, str) or not value.startswith("/memories"):
            return value
        return self.mapping.memories.replace("{root}", str(self.root)) + value[len("/memories") :]

    def _call_tool(self, tool: str, arguments: dict[str, Any]) -> tuple[str, bool]:
        try:
            result = self._portal.call(self._client.call_tool, tool, arguments)
        except MCPError as exc:
            if exc.code != CONNECTION_CLOSED:
                return f"JSON-RPC error {exc.error.code}: {exc.error.message}", True
            self._reconnect()
            raise RuntimeError("the MCP server closed the connection") from None
        except Exception as exc:  # noqa: BLE001 - a crash of the server is what is being measured
            # The server died or broke the protocol: a crash; the next call starts it again.
            self._reconnect()
            raise RuntimeError(f"the MCP server failed: {type(exc).__name__}") from None
        parts = []
        for block in result.content:
            text = getattr(block, "text", None)
            parts.append(text if isinstance(text, str) else block.model_dump_json())
        return "\n".join(parts), bool(result.is_error)

    def close(self) -> None:
        client, self._client_cm = self._client_cm, None
        if client is not None:
            with contextlib.suppress(Exception):  # a server that died already may fail its exit any way
                client.__exit__(None, None, None)
            self._portal_cm.__exit__(None, None, None)
            self._errlog.close()
