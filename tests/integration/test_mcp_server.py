"""``memory-sandbox mcp`` as a real process, driven by the ``mcp`` SDK's own client over stdio and
streamable HTTP: every command, errors, policy denials, bearer tokens and the audit chain afterwards."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client, Implementation, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from sandbox.commands import COMMAND_NAMES
from sandbox.pipeline import Sandbox
from sandbox.policy import load_policy
from sandbox.storage.local import LocalStorage
from tests.unit.test_cli import run

SCRIPT = shutil.which("memory-sandbox") or str(Path(sys.executable).parent / "memory-sandbox")
CLIENT = Implementation(name="test-client", version="1.0")
TOKEN_A = "alice-" + "a" * 40
TOKEN_B = "bob-" + "b" * 40

#: (tool, arguments): every command, ordinary errors among them, in the order a model might send them.
SESSION: list[tuple[str, dict[str, Any]]] = [
    ("view", {"path": "/memories"}),
    ("create", {"path": "/memories/notes/todo.md", "file_text": "one\ntwo\nthree\n"}),
    ("view", {"path": "/memories/notes/todo.md"}),
    ("view", {"path": "/memories/notes/todo.md", "view_range": [2, 3]}),
    ("str_replace", {"path": "/memories/notes/todo.md", "old_str": "two", "new_str": "TWO"}),
    ("str_replace", {"path": "/memories/notes/todo.md", "old_str": "absent", "new_str": "x"}),
    ("insert", {"path": "/memories/notes/todo.md", "insert_line": 1, "insert_text": "one and a half\n"}),
    ("insert", {"path": "/memories/notes/todo.md", "insert_line": 99, "insert_text": "x\n"}),
    ("rename", {"old_path": "/memories/notes/todo.md", "new_path": "/memories/done.md"}),
    ("view", {"path": "/memories/notes/todo.md"}),
    ("view", {"path": "/memories/done.md"}),
    ("view", {"path": "/memories/../etc/passwd"}),
    ("create", {"path": "/memories/x.md"}),
    ("delete", {"path": "/memories/done.md"}),
    ("view", {"path": "/memories"}),
]


def texts(result: Any) -> str:
    return "\n".join(block.text for block in result.content)


@asynccontextmanager
async def stdio_client(store: Path, *extra: str) -> AsyncIterator[Client]:
    params = StdioServerParameters(
        command=SCRIPT, args=["mcp", "--store", f"file:{store}", "--create", *extra], cwd=store.parent
    )
    async with Client(params, client_info=CLIENT) as client:
        yield client


def audit_records(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def verify(log: Path) -> None:
    result = run("audit", "verify", str(log))
    assert result.returncode == 0 and result.stdout.startswith("OK:"), result.stdout + result.stderr


def test_stdio_every_command_answers_as_the_memory_tool(tmp_path: Path) -> None:
    """The six tools answer exactly what Sandbox.execute answers for the same commands; the log verifies."""

    async def session() -> list[tuple[str, bool]]:
        async with stdio_client(tmp_path / "memory") as client:
            listed = await client.list_tools()
            assert tuple(tool.name for tool in listed.tools) == COMMAND_NAMES
            schemas = {tool.name: tool.input_schema for tool in listed.tools}
            assert schemas["rename"]["required"] == ["old_path", "new_path"]
            answers = []
            for name, arguments in SESSION:
                result = await client.call_tool(name, arguments)
                answers.append((texts(result), bool(result.is_error)))
            return answers

    answers = anyio.run(session)
    expected = Sandbox(policy=load_policy("default"), storage=LocalStorage(tmp_path / "direct"), audit=None)
    for (name, arguments), (text, is_error) in zip(SESSION, answers, strict=True):
        direct = expected.execute({**arguments, "command": name})
        shown = direct.content if isinstance(direct.content, str) else json.dumps(direct.content)
        assert (text, is_error) == (shown, direct.is_error), (name, arguments)
    errors = [i for i, (_, is_error) in enumerate(answers) if is_error]
    assert errors == [5, 7, 9, 11, 12], answers  # no match, bad line, moved away, traversal, missing field
    assert "Access denied" in answers[11][0]

    log = tmp_path / "memory.audit.jsonl"
    verify(log)
    calls = [r for r in audit_records(log) if r.get("event") == "outcome"]
    assert len(calls) == len(SESSION)
    assert {r["principal"] for r in calls} == {"claimed:test-client/1.0"}
    assert len({r["session_id"] for r in calls}) == 1 and calls[0]["session_id"].startswith("stdio-")
    assert len({r["tool_use_id"] for r in calls}) == len(SESSION)
    commands = [name for name, _ in SESSION]
    commands[12] = None  # input the parser refused is recorded without a command
    assert [r["command"] for r in calls] == commands
    assert calls[11]["decision"] == "deny" and calls[11]["rules"] == ["path.traversal"]


def test_stdio_policy_denial_unknown_tool_and_command_field(tmp_path: Path) -> None:
    """A policy rule refuses (isError, rule in the log); an unknown tool is an error; the tool's name, not a
    "command" argument, decides the command; --scope puts the memory in the scope's folder."""
    store = tmp_path / "memory"

    async def session() -> None:
        async with stdio_client(store, "--policy", "strict", "--scope", "carol") as client:
            denied = await client.call_tool("create", {"path": "/memories/policies/p.md", "file_text": "x"})
            assert denied.is_error and "Access denied" in texts(denied)
            unknown = await client.call_tool("format_disk", {"path": "/"})
            assert unknown.is_error and "Unknown tool" in texts(unknown)
            made = await client.call_tool("create", {"path": "/memories/keep.md", "file_text": "kept\n"})
            assert not made.is_error, texts(made)
            viewed = await client.call_tool("view", {"path": "/memories/keep.md", "command": "delete"})
            assert not viewed.is_error and "kept" in texts(viewed)

    anyio.run(session)
    assert (store / "scopes" / "carol" / "keep.md").read_text() == "kept\n"
    log = store / "audit" / "carol.audit.jsonl"
    verify(log)
    calls = [r for r in audit_records(log) if r.get("event") == "outcome"]
    assert [r["command"] for r in calls] == ["create", "create", "view"]
    assert calls[0]["decision"] == "deny" and calls[0]["rules"] == ["policies-read-only"]
    assert all(r["scope"] == "carol" for r in calls)


@contextmanager
def http_server(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """The server on a free port; its URL. Stopped with SIGTERM (as a service manager would)."""
    process = subprocess.Popen(  # noqa: S603 - fixed argv
        [SCRIPT, "mcp", "--http", "--port", "0", "--create", *args],
        cwd=tmp_path,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )
    try:
        assert process.stderr is not None
        shown = ""  # a new store is announced (--create) before the address
        while not (found := re.search(r"serving (http://\S+)", shown)) and (line := process.stderr.readline()):
            shown += line
        assert found, shown + process.stderr.read()
        yield found.group(1)
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 0


def http_client(url: str, token: str | None) -> Client:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return Client(streamable_http_client(url, http_client=httpx2.AsyncClient(headers=headers)), client_info=CLIENT)


def post_status(url: str, token: str | None) -> int:
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    body = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    return httpx2.post(url, json=body, headers=headers, timeout=30).status_code


def test_http_token_file_gives_each_token_its_scope(tmp_path: Path) -> None:
    """Two tokens, two scopes: each sees only its own memory; no token or a wrong one gets 401."""
    tokens = tmp_path / "tokens.toml"
    tokens.write_text(f'[tokens]\n"{TOKEN_A}" = "alice"\n"{TOKEN_B}" = "bob"\n')
    tokens.chmod(0o600)
    store = tmp_path / "memory"

    async def session(url: str) -> None:
        async with http_client(url, TOKEN_A) as alice:
            made = await alice.call_tool("create", {"path": "/memories/a.md", "file_text": "alice's\n"})
            assert not made.is_error, texts(made)
            denied = await alice.call_tool("delete", {"path": "/memories/../bob"})
            assert denied.is_error and "Access denied" in texts(denied)
        async with http_client(url, TOKEN_B) as bob:
            missing = await bob.call_tool("view", {"path": "/memories/a.md"})
            assert missing.is_error and "does not exist" in texts(missing)
            listing = await bob.call_tool("view", {"path": "/memories"})
            assert not listing.is_error and "a.md" not in texts(listing)

    with http_server(tmp_path, "--store", f"file:{store}", "--token-file", str(tokens)) as url:
        assert post_status(url, None) == 401
        assert post_status(url, "alice-" + "x" * 40) == 401
        assert post_status(url, TOKEN_A) != 401
        anyio.run(session, url)
    assert (store / "scopes" / "alice" / "a.md").read_text() == "alice's\n"
    assert not (store / "scopes" / "bob" / "a.md").exists()
    for scope in ("alice", "bob"):
        log = store / "audit" / f"{scope}.audit.jsonl"
        verify(log)
        calls = [r for r in audit_records(log) if r.get("event") == "outcome"]
        assert calls and all(r["scope"] == scope and r["principal"] == "claimed:test-client/1.0" for r in calls)
        assert all(r["session_id"] and not r["session_id"].startswith("stdio-") for r in calls)


def test_http_loopback_without_token_and_non_local_bind(tmp_path: Path) -> None:
    """On 127.0.0.1 no token is needed; any other address is refused without one, and enforced with one."""
    store = tmp_path / "memory"

    async def session(url: str, token: str | None) -> None:
        async with http_client(url, token) as client:
            made = await client.call_tool("create", {"path": "/memories/n.md", "file_text": "n\n"})
            assert not made.is_error, texts(made)

    with http_server(tmp_path, "--store", f"file:{store}") as url:
        anyio.run(session, url, None)
    anywhere = "0.0.0.0"  # noqa: S104 - the non-local bind under test
    refused = run("mcp", "--http", "--host", anywhere, "--port", "0", "--store", f"file:{store}", cwd=tmp_path)
    assert refused.returncode == 2 and "without bearer tokens" in refused.stderr
    fleet = tmp_path / "fleet"  # a folder of scopes: the memory folder above takes none
    with http_server(tmp_path, "--host", anywhere, "--store", f"file:{fleet}", "--scope", "dan",
                     env={"MEMORY_SANDBOX_MCP_TOKEN": TOKEN_A}) as served:  # fmt: skip
        url = served.replace(anywhere, "127.0.0.1")
        assert post_status(url, None) == 401 and post_status(url, TOKEN_B) == 401
        anyio.run(session, url, TOKEN_A)
    assert (fleet / "scopes" / "dan" / "n.md").is_file()
    verify(fleet / "audit" / "dan.audit.jsonl")


@pytest.mark.parametrize(
    ("args", "env", "message"),
    [
        (["--http", "--token-file", "{tokens}"], {}, "readable by others"),
        (["--http"], {"MEMORY_SANDBOX_MCP_TOKEN": "short"}, "at least 24 characters"),
        ([], {"MEMORY_SANDBOX_MCP_TOKEN": TOKEN_A}, "apply to --http only"),
        (["--http", "--token-file", "{tokens}", "--scope", "x"], {}, "do not combine"),
    ],
)
def test_bad_token_configuration_refused(tmp_path: Path, args: list[str], env: dict[str, str], message: str) -> None:
    tokens = tmp_path / "tokens.toml"
    tokens.write_text(f'[tokens]\n"{TOKEN_A}" = "alice"\n')
    tokens.chmod(0o644)
    argv = [SCRIPT, "mcp", "--port", "0", *(arg.format(tokens=tokens) for arg in args)]
    result = subprocess.run(argv, capture_output=True, text=True, timeout=60, cwd=tmp_path,  # noqa: S603 - fixed argv
                            env={**os.environ, **env}, stdin=subprocess.DEVNULL, check=False)  # fmt: skip
    assert result.returncode == 2 and message in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


def test_other_commands_never_import_the_mcp_sdk() -> None:
    code = "import sys; from sandbox.cli.main import build_parser; build_parser(); print(any(m == 'mcp' or m.startswith('mcp.') for m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)  # noqa: S603 - fixed argv
    assert result.stdout.strip() == "False"
