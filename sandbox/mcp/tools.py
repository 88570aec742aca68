"""The six memory commands as MCP tools: names, input schemas and results.

The schemas describe what the memory tool takes; they are advice to the client, not
a check: every call still goes through the sandbox's own parser, which refuses what
does not fit with the same one-line error the memory tool gives.
"""

from __future__ import annotations

from typing import Any, Final

import mcp_types as types

from sandbox.commands import COMMAND_NAMES, Content

__all__ = ["TOOL_NAMES", "list_tools", "to_result"]

_PATH: Final = {"type": "string", "description": "A path under /memories, e.g. /memories/notes.md"}

_SCHEMAS: Final[dict[str, tuple[str, dict[str, Any], tuple[str, ...]]]] = {
    "view": (
        "Show a directory listing (two levels deep) or a file's lines, numbered; view_range picks lines.",
        {
            "path": _PATH,
            "view_range": {
                "type": "array",
                "items": {"type": "integer"},
                "minItems": 2,
                "maxItems": 2,
                "description": "[first, last] line, 1-based; last -1 means to the end",
            },
        },
        ("path",),
    ),
    "create": (
        "Create a file, or overwrite it, with the given text.",
        {"path": _PATH, "file_text": {"type": "string"}},
        ("path", "file_text"),
    ),
    "str_replace": (
        "Replace the one occurrence of old_str in a file with new_str (omitted: delete it).",
        {"path": _PATH, "old_str": {"type": "string"}, "new_str": {"type": "string"}},
        ("path", "old_str"),
    ),
    "insert": (
        "Insert text after line insert_line of a file (0: at the top).",
        {"path": _PATH, "insert_line": {"type": "integer", "minimum": 0}, "insert_text": {"type": "string"}},
        ("path", "insert_line", "insert_text"),
    ),
    "delete": ("Delete a file or a directory and everything in it.", {"path": _PATH}, ("path",)),
    "rename": (
        "Rename or move a file or directory.",
        {"old_path": _PATH, "new_path": _PATH},
        ("old_path", "new_path"),
    ),
}

#: The tool names: the memory tool's command names.
TOOL_NAMES: Final = COMMAND_NAMES
_READ_ONLY: Final = frozenset({"view"})


def list_tools() -> list[types.Tool]:
    """The six tools, in the memory tool's order."""
    tools = []
    for name in COMMAND_NAMES:
        description, properties, required = _SCHEMAS[name]
        tools.append(
            types.Tool(
                name=name,
                description=f"{description} Memory lives under /memories.",
                input_schema={"type": "object", "properties": properties, "required": list(required)},
                annotations=types.ToolAnnotations(
                    read_only_hint=name in _READ_ONLY,
                    destructive_hint=name in {"delete", "rename", "create"},
                    open_world_hint=False,
                ),
            )
        )
    return tools


def to_result(content: Content, *, is_error: bool) -> types.CallToolResult:
    """A sandbox answer as a tool result: text as text, image blocks as images."""
    if isinstance(content, str):
        blocks: list[types.ContentBlock] = [types.TextContent(type="text", text=content)]
    else:
        blocks = [_block(block) for block in content]
    return types.CallToolResult(content=blocks, is_error=is_error)


def _block(block: dict[str, Any]) -> types.TextContent | types.ImageContent:
    if block.get("type") == "image":
        source = block.get("source") or {}
        return types.ImageContent(
            type="image", data=str(source.get("data", "")), mime_type=str(source.get("media_type", ""))
        )
    return types.TextContent(type="text", text=str(block.get("text", "")))
