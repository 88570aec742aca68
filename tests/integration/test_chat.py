"""``memory-sandbox chat`` against a scripted Messages API on loopback, through the real client."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.messages_server import ScriptedMessages, serve
from tests.unit.test_cli import run

TURNS = [
    [{"command": "view", "path": "/memories"}],
    [
        {"command": "create", "path": "/memories/prefs.md", "file_text": "likes tea\n"},
        {"command": "view", "path": "/memories/../../.env"},
    ],
]


def test_chat_without_key_explains_and_exits_2(tmp_path: Path) -> None:
    script = str(Path(sys.executable).parent / "memory-sandbox")
    env = {k: v for k, v in os.environ.items() if k != "ANTHROPIC_API_KEY"}
    result = subprocess.run(  # noqa: S603 - fixed argv
        [script, "chat"], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60, check=False
    )
    assert result.returncode == 2
    assert "export ANTHROPIC_API_KEY=" in result.stderr and "memory-sandbox replay" in result.stderr


def test_chat_turns_through_the_sandbox(tmp_path: Path) -> None:
    """Two user turns: memory calls answered by the sandbox (the hostile one refused), the
    conversation carried from one turn to the next, the note stored."""
    script = ScriptedMessages(TURNS)
    with serve(script) as url:
        env = {**os.environ, "ANTHROPIC_API_KEY": "test-key", "ANTHROPIC_BASE_URL": url}
        result = subprocess.run(  # noqa: S603 - fixed argv
            [str(Path(sys.executable).parent / "memory-sandbox"), "chat", "--store", f"file:{tmp_path}/memory", "--create",
             "--model", "claude-test"],
            input="remember that I like tea\nwhat do I like?\n", capture_output=True, text=True, env=env,
            cwd=tmp_path, timeout=120, check=False,
        )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.count("claude> Done.") == 2
    assert "File created successfully at: /memories/prefs.md" in out
    assert "Error: Access denied: the path climbs above /memories" in out
    assert (tmp_path / "memory" / "prefs.md").read_text() == "likes tea\n"
    second_turn = script.requests[-1]["messages"]
    assert [m["role"] for m in second_turn] == ["user", "assistant", "user", "assistant", "user", "assistant", "user"]
    assert second_turn[-1]["content"] == "what do I like?"
    results = script.tool_results()
    assert [bool(r.get("is_error")) for r in results] == [False, False, True]
    assert script.requests[0]["model"] == "claude-test"
    assert script.requests[0]["tools"] == [{"type": "memory_20250818", "name": "memory"}]
    assert run("audit", "verify", str(tmp_path / "memory.audit.jsonl")).returncode == 0
