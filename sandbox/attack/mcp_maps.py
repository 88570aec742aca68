"""How the six memory commands map onto an MCP server's tools, for ``attack --mcp``.

A mapping names, for each command, the tools to try in order (the first answer that is
not an error wins: a reference server reads a file with one tool and lists a folder
with another) and their arguments, written as templates: a string that is exactly
``"{field}"`` becomes that field of the memory command, with its type (a field the
command lacks leaves the argument out); anything else is sent as written. Paths in the
memory command start with ``/memories``; ``memories`` says what that prefix becomes in
the server's paths (``"{root}"``, the folder on disk, for file servers). A command
with no tools is *unsupported*: its cases are reported, not run.

A user mapping is a TOML file of the same shape::

    memories = "{root}"
    [[view]]
    tool = "read_text_file"
    arguments = { path = "{path}" }
    [[create]]
    tool = "write_file"
    arguments = { path = "{path}", content = "{file_text}" }
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from sandbox.commands import COMMAND_NAMES

__all__ = ["BUILTIN", "MISSING", "PATH_FIELDS", "Mapping", "Route", "builtin_for_server", "fill", "load_mapping"]

#: The memory command fields that hold paths (their ``/memories`` prefix is translated).
PATH_FIELDS: Final = ("path", "old_path", "new_path")


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


#: What :func:`fill` gives for a template naming a field the command lacks.
MISSING: Final = _Missing()


@dataclass(frozen=True)
class Route:
    """One tool call a command can become."""

    tool: str
    arguments: dict[str, Any]

    def fields(self) -> set[str]:
        """The memory command fields the arguments carry."""
        return set(_fields(self.arguments))


@dataclass(frozen=True)
class Mapping:
    name: str
    memories: str
    routes: dict[str, tuple[Route, ...]] = field(default_factory=dict)
    #: The serverInfo name that selects this mapping when none is given.
    server: str | None = None

    def unsupported(self, tools: set[str]) -> list[str]:
        """Commands with no route to a tool the server lists."""
        return [name for name in COMMAND_NAMES if not any(r.tool in tools for r in self.routes.get(name, ()))]


def fill(template: Any, fields: dict[str, Any]) -> Any:
    """The template with every ``"{field}"`` string replaced by that field's value (MISSING if absent)."""
    if isinstance(template, str):
        if template.startswith("{") and template.endswith("}") and template[1:-1].isidentifier():
            return fields.get(template[1:-1], MISSING)
        return template
    if isinstance(template, dict):
        filled = {key: fill(value, fields) for key, value in template.items()}
        return {key: value for key, value in filled.items() if value is not MISSING}
    if isinstance(template, list):
        return [fill(item, fields) for item in template]
    return template


def _fields(template: Any) -> Iterator[str]:
    if isinstance(template, str) and template.startswith("{") and template.endswith("}"):
        yield template[1:-1]
    elif isinstance(template, dict):
        for value in template.values():
            yield from _fields(value)
    elif isinstance(template, list):
        for item in template:
            yield from _fields(item)


def _mapping(data: dict[str, Any], name: str) -> Mapping:
    memories = data.get("memories", "/memories")
    server = data.get("server")
    if not isinstance(memories, str) or (server is not None and not isinstance(server, str)):
        raise ValueError(f"{name}: 'memories' and 'server' are strings")
    unknown = set(data) - {"memories", "server", *COMMAND_NAMES}
    if unknown:
        raise ValueError(f"{name}: unknown keys {sorted(unknown)} (commands are {', '.join(COMMAND_NAMES)})")
    routes: dict[str, tuple[Route, ...]] = {}
    for command in COMMAND_NAMES:
        entries = data.get(command, [])
        if not isinstance(entries, list) or not all(
            isinstance(e, dict) and isinstance(e.get("tool"), str) and isinstance(e.get("arguments", {}), dict)
            for e in entries
        ):
            raise ValueError(f"{name}: [[{command}]] entries need tool = NAME and arguments = {{...}}")
        routes[command] = tuple(Route(e["tool"], dict(e.get("arguments", {}))) for e in entries)
    return Mapping(name=name, memories=memories, routes=routes, server=server)


def load_mapping(path: Path) -> Mapping:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"cannot read the mapping {path.name}: {type(exc).__name__}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path.name} is not valid TOML: {exc}") from None
    return _mapping(data, path.name)


#: Built-in mappings by name: ours passes each command through unchanged (the arguments are filled
#: in below); the reference filesystem server's has no delete and no insert.
BUILTIN: Final[dict[str, Mapping]] = {
    "memory-sandbox": _mapping(
        {
            "server": "memory-sandbox",
            "memories": "/memories",
            "view": [{"tool": "view", "arguments": {"path": "{path}", "view_range": "{view_range}"}}],
            "create": [{"tool": "create", "arguments": {"path": "{path}", "file_text": "{file_text}"}}],
            "str_replace": [
                {"tool": "str_replace", "arguments": {"path": "{path}", "old_str": "{old_str}", "new_str": "{new_str}"}}
            ],
            "insert": [
                {
                    "tool": "insert",
                    "arguments": {"path": "{path}", "insert_line": "{insert_line}", "insert_text": "{insert_text}"},
                }
            ],
            "delete": [{"tool": "delete", "arguments": {"path": "{path}"}}],
            "rename": [{"tool": "rename", "arguments": {"old_path": "{old_path}", "new_path": "{new_path}"}}],
        },
        "memory-sandbox",
    ),
    "filesystem": _mapping(
        {
            "server": "secure-filesystem-server",
            "memories": "{root}",
            "view": [
                {"tool": "read_text_file", "arguments": {"path": "{path}"}},
                {"tool": "list_directory", "arguments": {"path": "{path}"}},
            ],
            "create": [{"tool": "write_file", "arguments": {"path": "{path}", "content": "{file_text}"}}],
            "str_replace": [
                {
                    "tool": "edit_file",
                    "arguments": {"path": "{path}", "edits": [{"oldText": "{old_str}", "newText": "{new_str}"}]},
                }
            ],
            "rename": [{"tool": "move_file", "arguments": {"source": "{old_path}", "destination": "{new_path}"}}],
        },
        "filesystem",
    ),
}


def builtin_for_server(server_name: str | None) -> Mapping | None:
    return next((m for m in BUILTIN.values() if server_name is not None and m.server == server_name), None)
