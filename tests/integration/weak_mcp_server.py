"""A deliberately weak MCP file server, for the attack gate's tests: ``python weak_mcp_server.py ROOT``.

Its five tools (read, write, replace, remove, move; no insert) join the path they are
given onto ROOT as text, with no check at all: ``..`` climbs out, symlinks are followed,
errors name host paths. ``attack --mcp`` must fail it and name those escapes.
``python weak_mcp_server.py ROOT --hang-on TEXT`` also hangs on calls with an argument holding TEXT.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

ROOT = sys.argv[1]
#: ``--hang-on TEXT``: a call with an argument holding TEXT never returns.
HANG_ON = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--hang-on" else ""


def _path(value: Any) -> str:
    return os.path.join(ROOT, str(value).lstrip("/"))  # the weakness: no normalisation, no containment


def _run(name: str, args: dict[str, Any]) -> str:
    if HANG_ON and any(HANG_ON in str(value) for value in args.values()):
        time.sleep(3600)  # blocks the whole server, as a stuck synchronous handler does
    if name == "read":
        path = _path(args["path"])
        if os.path.isdir(path):
            return "\n".join(sorted(os.listdir(path)))
        with open(path, encoding="utf-8", errors="replace") as file:
            return file.read()
    if name == "write":
        path = _path(args["path"])
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as file:
            file.write(str(args["text"]))
        return f"wrote {path}"
    if name == "replace":
        path = _path(args["path"])
        with open(path, encoding="utf-8") as file:
            text = file.read()
        with open(path, "w", encoding="utf-8") as file:
            file.write(text.replace(str(args["old"]), str(args.get("new", ""))))
        return f"edited {path}"
    if name == "remove":
        path = _path(args["path"])
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        else:
            os.remove(path)
        return f"removed {path}"
    if name == "move":
        os.replace(_path(args["source"]), _path(args["target"]))
        return "moved"
    raise ValueError(f"no tool {name}")


async def _list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
    schema = {"type": "object"}
    return types.ListToolsResult(
        tools=[types.Tool(name=name, input_schema=schema) for name in ("read", "write", "replace", "remove", "move")]
    )


async def _call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    try:
        text, error = _run(params.name, dict(params.arguments or {})), False
    except (OSError, KeyError, ValueError) as exc:
        text, error = f"{type(exc).__name__}: {exc}", True
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=error)


async def main() -> None:
    server: Server[Any] = Server("weak-files", version="0.0.1", on_list_tools=_list_tools, on_call_tool=_call_tool)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
