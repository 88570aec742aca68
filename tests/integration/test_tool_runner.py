"""The real anthropic client's tool runner, driven by a scripted Messages API on loopback."""

from __future__ import annotations

from typing import Any

import anthropic
import pytest

from sandbox import Sandbox, load_policy
from sandbox.integrations.anthropic import AsyncSandboxedMemoryTool, SandboxedMemoryTool
from sandbox.paths import canonicalize
from sandbox.storage import InMemoryStorage
from tests.messages_server import ScriptedMessages, serve

TURNS: list[list[dict[str, Any]]] = [
    [{"command": "view", "path": "/memories"}],
    [
        {"command": "create", "path": "/memories/notes.md", "file_text": "likes tea\n"},
        {"command": "view", "path": "/memories/../../etc/passwd"},
    ],
    [
        {"command": "delete", "path": "/memories/"},
        {"command": "str_replace", "path": "/memories/notes.md", "old_str": "tea"},
        {"command": "insert", "path": "/memories/notes.md", "insert_line": 1.5, "insert_text": "x"},
    ],
]
EXPECTED: list[tuple[bool, str]] = [
    (False, "Here're the files and directories up to 2 levels deep in /memories"),
    (False, "File created successfully at: /memories/notes.md"),
    (True, "Error: Access denied: the path climbs above /memories"),
    (True, "Error: Access denied: /memories itself cannot be deleted"),
    (False, "The memory file has been edited."),
    (True, "Error: Invalid `insert_line`: must be an integer"),
]


def check(script: ScriptedMessages, storage: InMemoryStorage) -> None:
    results = script.tool_results()
    assert len(results) == len(EXPECTED)
    for block, (is_error, start) in zip(results, EXPECTED, strict=True):
        assert bool(block.get("is_error")) is is_error, block
        assert block["content"].startswith(start), block
    assert storage.read(canonicalize("/memories/notes.md")) == b"likes \n"
    assert script.requests[0]["tools"] == [{"type": "memory_20250818", "name": "memory"}]


def test_sync_tool_runner() -> None:
    """SandboxedMemoryTool answers the real client's tool runner, refusing hostile calls."""
    storage = InMemoryStorage()
    tool = SandboxedMemoryTool(Sandbox(policy=load_policy("default"), storage=storage))
    script = ScriptedMessages(TURNS)
    with serve(script) as url:
        client = anthropic.Anthropic(api_key="test-key", base_url=url, max_retries=0)
        runner = client.beta.messages.tool_runner(
            model="claude-test", max_tokens=256, tools=[tool], messages=[{"role": "user", "content": "hi"}]
        )
        final = runner.until_done()
    assert final.content[0].type == "text"
    check(script, storage)


@pytest.mark.anyio
async def test_async_tool_runner() -> None:
    """AsyncSandboxedMemoryTool answers the real async client's tool runner."""
    storage = InMemoryStorage()
    tool = AsyncSandboxedMemoryTool(Sandbox(policy=load_policy("default"), storage=storage))
    script = ScriptedMessages(TURNS)
    with serve(script) as url:
        client = anthropic.AsyncAnthropic(api_key="test-key", base_url=url, max_retries=0)
        runner = client.beta.messages.tool_runner(
            model="claude-test", max_tokens=256, tools=[tool], messages=[{"role": "user", "content": "hi"}]
        )
        await runner.until_done()
    check(script, storage)
