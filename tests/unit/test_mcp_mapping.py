"""The pieces of the MCP server and of ``attack --mcp`` that need no process: mappings, templates, claims,
token files."""

from __future__ import annotations

from pathlib import Path

import pytest

from sandbox.attack.mcp_maps import BUILTIN, MISSING, builtin_for_server, fill, load_mapping
from sandbox.mcp.http import is_loopback, load_token_file
from sandbox.mcp.server import claimed_principal


class TestFill:
    def test_exact_template_keeps_the_fields_type(self) -> None:
        """ "{insert_line}" becomes the int, "{view_range}" the list."""
        assert fill({"n": "{insert_line}", "r": "{view_range}"}, {"insert_line": 3, "view_range": [1, 2]}) == {
            "n": 3,
            "r": [1, 2],
        }

    def test_missing_field_leaves_the_argument_out(self) -> None:
        """A field the command lacks is not sent at all (the server sees a missing argument)."""
        assert fill({"path": "{path}", "content": "{file_text}"}, {"path": "/m"}) == {"path": "/m"}

    def test_nested_and_literal(self) -> None:
        """Lists and tables are filled inside; other strings (even with braces inside) are sent as written."""
        template = {"edits": [{"oldText": "{old_str}"}], "mode": "a {old_str} b", "dry": False}
        assert fill(template, {"old_str": "x"}) == {"edits": [{"oldText": "x"}], "mode": "a {old_str} b", "dry": False}
        assert fill("{path}", {}) is MISSING


class TestMappings:
    def test_builtins_chosen_by_server_name(self) -> None:
        """Our server and the reference filesystem server are known by their serverInfo names."""
        assert builtin_for_server("memory-sandbox") is BUILTIN["memory-sandbox"]
        assert builtin_for_server("secure-filesystem-server") is BUILTIN["filesystem"]
        assert builtin_for_server("something-else") is None and builtin_for_server(None) is None

    def test_unsupported_commands(self) -> None:
        """The reference server has no delete and no insert; a tool the server does not list does not count."""
        tools = {"read_text_file", "list_directory", "write_file", "edit_file", "move_file"}
        assert BUILTIN["filesystem"].unsupported(tools) == ["insert", "delete"]
        assert BUILTIN["filesystem"].unsupported(tools - {"move_file"}) == ["insert", "delete", "rename"]

    def test_user_mapping(self, tmp_path: Path) -> None:
        """A TOML file: tools tried in order, memories prefix, commands left out are unsupported."""
        path = tmp_path / "m.toml"
        path.write_text('memories = ""\n[[view]]\ntool = "a"\n[[view]]\ntool = "b"\narguments = { p = "{path}" }\n')
        mapping = load_mapping(path)
        assert [route.tool for route in mapping.routes["view"]] == ["a", "b"] and mapping.memories == ""
        assert mapping.routes["view"][1].fields() == {"path"}
        assert mapping.unsupported({"a", "b"}) == ["create", "str_replace", "insert", "delete", "rename"]

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            ('[[vieww]]\ntool = "a"\n', "unknown keys ['vieww']"),
            ("[[view]]\narguments = {}\n", "need tool = NAME"),
            ('view = "a"\n', "need tool = NAME"),
            ("memories = 3\n", "are strings"),
            ("[[view]\n", "not valid TOML"),
        ],
    )
    def test_bad_user_mapping(self, tmp_path: Path, text: str, message: str) -> None:
        path = tmp_path / "m.toml"
        path.write_text(text)
        with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
            load_mapping(path)


class TestClaims:
    def test_claimed_principal(self) -> None:
        """What a client says about itself is marked as claimed, without control characters, cut short."""
        assert claimed_principal("Claude Code", "2.1.0") == "claimed:Claude Code/2.1.0"
        assert claimed_principal("evil\nname\x1b[31m", 7) == "claimed:evilname[31m/?"
        assert claimed_principal("x" * 500, "") == f"claimed:{'x' * 64}/?"


class TestTokens:
    def test_token_file(self, tmp_path: Path) -> None:
        """Tokens map to scopes; short tokens, other tables and readable files are refused."""
        path = tmp_path / "t.toml"
        path.write_text('[tokens]\n"' + "k" * 30 + '" = "alice"\n')
        path.chmod(0o600)
        assert load_token_file(path) == {"k" * 30: "alice"}
        path.write_text('[tokens]\n"short" = "alice"\n')
        with pytest.raises(ValueError, match="at least 24"):
            load_token_file(path)
        path.write_text('[tokens]\n"' + "k" * 30 + '" = "alice"\n[other]\n')
        with pytest.raises(ValueError, match="one \\[tokens\\] table"):
            load_token_file(path)
        path.chmod(0o640)
        with pytest.raises(ValueError, match="readable by others"):
            load_token_file(path)

    def test_loopback(self) -> None:
        assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost") and is_loopback("127.1.2.3")
        assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.2") and not is_loopback("example.com")  # noqa: S104 - a value under test
