"""parse_command(): untrusted tool input in, a ParsedCommand or InvalidCommand out."""

from __future__ import annotations

from typing import Any

import pytest

from sandbox.commands import Create, Rename, StrReplace, View, canonicalize_command, parse_command
from sandbox.errors import InvalidCommand

LIMIT = 1024


def parse(raw: object) -> Any:
    return parse_command(raw, max_string_bytes=LIMIT)


# (input, a fragment the message must contain): each names the faulty field.
MALFORMED: list[tuple[object, str]] = [
    (None, "JSON object"),
    ("view /memories", "JSON object"),
    (["view"], "JSON object"),
    ({}, "`command`"),
    ({"command": "cat", "path": "/memories"}, "`command`"),
    ({"command": 1, "path": "/memories"}, "`command`"),
    ({"command": None}, "`command`"),
    ({"command": "VIEW", "path": "/memories"}, "`command`"),
    ({"command": "view"}, "missing required field `path`"),
    ({"command": "view", "path": ["/memories"]}, "`path`: must be a string"),
    ({"command": "view", "path": None}, "`path`: must be a string"),
    ({"command": "view", "path": 7}, "`path`: must be a string"),
    ({"command": "view", "path": b"/memories"}, "`path`: must be a string"),
    ({"command": "view", "path": {"a": 1}}, "`path`: must be a string"),
    ({"command": "view", "path": "/memories", "view_range": [1]}, "`view_range`"),
    ({"command": "view", "path": "/memories", "view_range": [1, 2, 3]}, "`view_range`"),
    ({"command": "view", "path": "/memories", "view_range": [1.0, 2]}, "`view_range`"),
    ({"command": "view", "path": "/memories", "view_range": [True, 2]}, "`view_range`"),
    ({"command": "view", "path": "/memories", "view_range": "1,2"}, "`view_range`"),
    ({"command": "view", "path": "/memories", "view_range": [5, 2]}, "`view_range`"),
    ({"command": "view", "path": "/memories", "view_range": [0, 2]}, "`view_range`"),
    ({"command": "view", "path": "/memories", "view_range": [2, -2]}, "`view_range`"),
    ({"command": "create", "path": "/memories/a"}, "missing required field `file_text`"),
    ({"command": "create", "file_text": "x"}, "missing required field `path`"),
    ({"command": "create", "path": "/memories/a", "file_text": 5}, "`file_text`: must be a string"),
    ({"command": "create", "path": "/memories/a", "file_text": "x" * (LIMIT + 1)}, "`file_text`: longer than"),
    ({"command": "create", "path": "/memories/a", "file_text": "\u00e9" * (LIMIT // 2 + 1)}, "`file_text`: longer than"),
    ({"command": "create", "path": "/memories/a", "file_text": "a\ud800b"}, "`file_text`: not valid UTF-8"),
    ({"command": "create", "path": "/memories/\udfff", "file_text": ""}, "`path`: not valid UTF-8"),
    ({"command": "str_replace", "path": "/memories/a", "new_str": "x"}, "missing required field `old_str`"),
    ({"command": "str_replace", "path": "/memories/a", "old_str": ""}, "`old_str`: it must not be empty"),
    ({"command": "str_replace", "path": "/memories/a", "old_str": "x", "new_str": None}, "`new_str`"),
    ({"command": "insert", "path": "/memories/a", "insert_text": "x"}, "missing required field `insert_line`"),
    ({"command": "insert", "path": "/memories/a", "insert_line": 1.0, "insert_text": "x"}, "`insert_line`: must be an integer"),
    ({"command": "insert", "path": "/memories/a", "insert_line": "1", "insert_text": "x"}, "`insert_line`: must be an integer"),
    ({"command": "insert", "path": "/memories/a", "insert_line": True, "insert_text": "x"}, "`insert_line`: must be an integer"),
    ({"command": "insert", "path": "/memories/a", "insert_line": 0}, "missing required field `insert_text`"),
    ({"command": "delete"}, "missing required field `path`"),
    ({"command": "rename", "old_path": "/memories/a"}, "missing required field `new_path`"),
    ({"command": "rename", "new_path": "/memories/a"}, "missing required field `old_path`"),
    ({"command": "rename", "old_path": 1, "new_path": "/memories/a"}, "`old_path`: must be a string"),
]  # fmt: skip


class TestParseMalformed:
    @pytest.mark.parametrize(("raw", "fragment"), MALFORMED)
    def test_refused_naming_field(self, raw: object, fragment: str) -> None:
        """Malformed input raises InvalidCommand whose message names the problem."""
        with pytest.raises(InvalidCommand) as info:
            parse(raw)
        assert fragment in info.value.message

    @pytest.mark.parametrize(("raw", "fragment"), MALFORMED)
    def test_message_is_short_and_clean(self, raw: object, fragment: str) -> None:
        """Messages are one short line: no repr, no echo of the input."""
        with pytest.raises(InvalidCommand) as info:
            parse(raw)
        message = info.value.message
        assert len(message) < 160 and "\n" not in message
        assert "Traceback" not in message and "pydantic" not in message and "input_value" not in message

    def test_unknown_command_not_echoed(self) -> None:
        """An unknown command name is not echoed back (it is attacker text)."""
        with pytest.raises(InvalidCommand) as info:
            parse({"command": "rm -rf /; echo pwned", "path": "/memories"})
        assert "pwned" not in info.value.message


class TestParseValid:
    def test_extra_fields_ignored_but_remembered(self) -> None:
        """Unknown fields do not fail parsing; their names are kept for the audit record."""
        parsed = parse({"command": "view", "path": "/memories", "cache": True, "zeta": 1})
        assert parsed.extra_fields == ("cache", "zeta")
        assert "cache" not in parsed.fields

    def test_omitted_new_str_means_delete(self) -> None:
        """str_replace without new_str replaces with the empty string."""
        parsed = parse({"command": "str_replace", "path": "/memories/a", "old_str": "x"})
        assert parsed.fields["new_str"] == ""

    def test_view_range_list_accepted(self) -> None:
        """view_range arrives as a JSON list and becomes a tuple."""
        op = canonicalize_command(parse({"command": "view", "path": "/memories/a", "view_range": [2, -1]}))
        assert isinstance(op, View) and op.view_range == (2, -1)

    def test_canonical_operation(self) -> None:
        """Canonicalising a parsed command yields an operation over MemoryPaths."""
        op = canonicalize_command(parse({"command": "create", "path": "/memories/a/../b.md", "file_text": "x"}))
        assert isinstance(op, Create) and str(op.path) == "/memories/b.md"

    def test_rename_paths(self) -> None:
        """Both rename paths are canonicalised."""
        raw = {"command": "rename", "old_path": "/memories/a", "new_path": "%2Fmemories%2Fb"}
        op = canonicalize_command(parse(raw))
        assert isinstance(op, Rename) and str(op.new_path) == "/memories/b"

    def test_string_at_limit_accepted(self) -> None:
        """A string exactly at the byte limit is accepted."""
        parsed = parse({"command": "str_replace", "path": "/memories/a", "old_str": "x" * LIMIT})
        op = canonicalize_command(parsed)
        assert isinstance(op, StrReplace) and len(op.old_str) == LIMIT
