"""Properties of command parsing and the runner over arbitrary tool input."""

from __future__ import annotations

from typing import Any

from hypothesis import example, given

from sandbox import Sandbox, load_policy
from sandbox.commands import parse_command
from sandbox.errors import InvalidCommand
from sandbox.storage import InMemoryStorage
from tests.strategies import tool_inputs


@given(tool_inputs)
@example({"command": "view", "path": "/memories", "view_range": [True, False]})
@example({"command": "insert", "path": "/memories/a", "insert_line": 1.0, "insert_text": "x"})
@example({"command": "view", "path": "/memories/\ud800"})
def test_parse_raises_only_invalid_command(raw: Any) -> None:
    """Parsing any input either succeeds or raises InvalidCommand, nothing else."""
    try:
        parse_command(raw, max_string_bytes=4096)
    except InvalidCommand as exc:
        assert exc.message.startswith("Error: Invalid")


@given(tool_inputs)
@example({"command": "delete", "path": "/memories/"})
@example({"command": "rename", "old_path": "/memories", "new_path": "/memories/x"})
def test_runner_never_raises_and_root_survives(raw: Any) -> None:
    """The runner answers every input without raising, and the root and its files survive refusals."""
    sandbox = Sandbox(policy=load_policy("default"), storage=InMemoryStorage())
    sandbox.execute({"command": "create", "path": "/memories/keep.md", "file_text": "k"})
    result = sandbox.execute(raw)
    assert isinstance(result.content, str | list)
    if result.is_error:
        assert isinstance(result.content, str) and "Traceback" not in result.content
    listing = sandbox.execute({"command": "view", "path": "/memories"})
    assert not listing.is_error
