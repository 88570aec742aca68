"""Every subcommand, given bad input, answers with one short line and a documented exit code: never a traceback."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox.cli.main import build_parser
from tests.unit.test_cli import EXAMPLES, run

DOCUMENTED = {1, 2, 3}
# Internals that must never reach a person: Python reprs, errno numbers, argparse's function names.
LEAKS = re.compile(
    r"Traceback|\[Errno|Error:.*Error|invalid _\w+ value|Broken pipe|File exists|<\w+ object|\.py\", line"
)
# Blocks the import of some packages, as on a machine where an extra is not installed.
BLOCKER = """
import importlib.abc, sys

class _Blocked(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {blocked!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, _Blocked())
"""
# The folder (a sitecustomize.py) each extra's packages are blocked by.
WITHOUT = {"no-psycopg": ("psycopg", "psycopg_pool"), "no-mcp": ("mcp", "mcp_types")}
# The connection pool waits 30 s for a server that never answers: one case stands for the
# commands that open a PostgreSQL database (they share PostgresDatabase and its error).
UNREACHABLE = "postgresql://nobody@127.0.0.1:1/none?connect_timeout=1"
ATTACK = ("attack", "--handler", "sandbox.attack.targets:sandboxed", "--race-seconds", "0")

# (argv, how stdin is given, psycopg importable, exit code)
CASES: dict[str, tuple[tuple[str, ...], str, bool, int]] = {
    "no such command": (("bogus",), "null", True, 2),
    "replay: no session": (("replay",), "null", True, 2),
    "replay: missing file": (("replay", "missing.jsonl"), "null", True, 2),
    "replay: a folder": (("replay", "."), "null", True, 2),
    "replay: not UTF-8": (("replay", "binary.bin"), "null", True, 2),
    "replay: unknown store scheme": (("replay", "session.jsonl", "--store", "ftp://x"), "null", True, 2),
    "replay: misspelt store": (("replay", "session.jsonl", "--store", "file:./memroy"), "null", True, 2),
    "replay: unknown policy": (("replay", "session.jsonl", "--policy", "nope"), "null", True, 2),
    "replay: broken policy": (("replay", "session.jsonl", "--policy", "broken.toml"), "null", True, 2),
    "replay: postgres without psycopg": (("replay", "session.jsonl", "--store", UNREACHABLE), "null", False, 2),
    "rescan: misspelt store": (("rescan", "--store", "file:./memroy"), "null", True, 2),
    "rescan: unknown policy": (("rescan", "--policy", "nope"), "null", True, 2),
    "rescan: postgres without psycopg": (("rescan", "--store", UNREACHABLE), "null", False, 2),
    "expire: bad time": (("expire", "--now", "yesterday"), "null", True, 2),
    "expire: no store": (("expire", "--store", "file:nowhere", "--policy", "ttl.toml"), "null", True, 2),
    "expire: unknown scope": (
        ("expire", "--store", "file:memory", "--scope", "nobody", "--policy", "ttl.toml"),
        "null",
        True,
        2,
    ),
    "purge: no scope": (("purge", "--store", "file:memory"), "null", True, 2),
    "history: no such store": (("history", "--store", "file:nowhere"), "null", True, 2),
    "history: two paths": (("history", "/memories/a.md", "/memories/b.md"), "null", True, 2),
    "history: redact without a version": (("history", "redact", "/memories/a.md"), "null", True, 2),
    "history: redact a path out of /memories": (
        ("history", "redact", "/etc/passwd", "--version", "1"),
        "null",
        True,
        1,
    ),
    "history: redact a version not kept": (
        ("history", "redact", "/memories/a.md", "--version", "999"),
        "null",
        True,
        1,
    ),
    "diff: no session": (("diff",), "null", True, 2),
    "diff: unknown session": (("diff", "--session", "nobody"), "null", True, 1),
    "rollback: nothing chosen": (("rollback",), "null", True, 2),
    "rollback: two choices": (("rollback", "--session", "a", "--decision", "b"), "null", True, 2),
    "rollback: not a time": (("rollback", "--since", "yesterday"), "null", True, 2),
    "rollback: unknown session": (("rollback", "--session", "nobody"), "null", True, 1),
    "purge: unknown scope": (("purge", "--store", "file:memory", "--scope", "nobody", "--yes"), "null", True, 2),
    "purge: no terminal": (("purge", "--store", "file:fleet", "--scope", "alice"), "null", True, 2),
    "purge: stdin closed": (("purge", "--store", "file:fleet", "--scope", "alice"), "closed", True, 2),
    "purge: not confirmed": (("purge", "--store", "file:fleet", "--scope", "alice"), "no", True, 3),
    "store: no action": (("store",), "null", True, 2),
    "store migrate: no such folder": (("store", "migrate", "--store", "file:nowhere"), "null", True, 2),
    "store migrate: not a folder store": (("store", "migrate", "--store", "sqlite:m.db"), "null", True, 2),
    "db witness-setup: unreachable": (
        ("db", "witness-setup", "--dsn", "postgresql://w@127.0.0.1:9/none", "--writer", "w"),
        "null",
        True,
        2,
    ),
    "store migrate: a memory folder": (("store", "migrate", "--store", "file:memory"), "null", True, 2),
    "replay: a folder of scopes as memory": (("replay", "session.jsonl", "--store", "file:fleet"), "null", True, 2),
    "chat: bad number": (("chat", "--max-tokens", "many"), "null", True, 2),
    "chat: no API key": (("chat",), "closed", True, 2),
    "policy: no action": (("policy",), "null", True, 2),
    "policy lint: missing file": (("policy", "lint", "missing.toml"), "null", True, 1),
    "policy lint: broken file": (("policy", "lint", "broken.toml"), "null", True, 1),
    "policy show: unknown": (("policy", "show", "nope"), "null", True, 2),
    "policy show: not TOML": (("policy", "show", "binary.toml"), "null", True, 2),
    "policy explain: not JSON": (("policy", "explain", "{"), "null", True, 2),
    "policy test: missing file": (("policy", "test", "missing.toml"), "null", True, 2),
    "policy test: not UTF-8": (("policy", "test", "binary.toml"), "null", True, 2),
    "audit: no action": (("audit",), "null", True, 2),
    "audit verify: missing log": (("audit", "verify", "missing.jsonl"), "null", True, 2),
    "audit rotate-key: missing log": (("audit", "rotate-key", "missing.jsonl"), "null", True, 2),
    "audit rotate-key: no private key": (
        ("audit", "rotate-key", "memory.audit.jsonl", "--key", "k.key"),
        "null",
        True,
        2,
    ),
    "audit verify: a folder": (("audit", "verify", "."), "null", True, 2),
    "audit verify: no log, no dsn": (("audit", "verify"), "null", True, 2),
    "audit verify: dsn without key": (("audit", "verify", "--dsn", UNREACHABLE), "null", True, 2),
    "audit verify: dsn without psycopg": (
        ("audit", "verify", "--dsn", UNREACHABLE, "--key", "k.pub"),
        "null",
        False,
        2,
    ),
    "audit query: bad time": (("audit", "query", "memory.audit.jsonl", "--since", "soon"), "null", True, 2),
    "audit query: bad format": (("audit", "query", "memory.audit.jsonl", "--format", "xml"), "null", True, 2),
    "audit export: bundle without out": (
        ("audit", "export", "memory.audit.jsonl", "--format", "bundle"),
        "null",
        True,
        2,
    ),
    "audit export: bundle folder exists": (
        ("audit", "export", "memory.audit.jsonl", "--format", "bundle", "--out", "."),
        "null",
        True,
        2,
    ),
    "audit export: no such folder": (
        ("audit", "export", "memory.audit.jsonl", "--format", "csv", "--out", "no/x.csv"),
        "null",
        True,
        2,
    ),
    "audit report: no such folder": (("audit", "report", "memory.audit.jsonl", "--html", "no/x.html"), "null", True, 2),
    "db: no action": (("db",), "null", True, 2),
    "db migrate: no dsn": (("db", "migrate"), "null", True, 2),
    "db migrate: without psycopg": (("db", "migrate", "--dsn", UNREACHABLE), "null", False, 2),
    "db migrate: unreachable": (("db", "migrate", "--dsn", UNREACHABLE), "null", True, 2),
    "attack: no handler": (("attack",), "null", True, 2),
    "attack: unknown family": ((*ATTACK, "--families", "dotdot,dotdto"), "null", True, 2),
    "attack: unknown module": (("attack", "--handler", "nope.nothing:make", "--race-seconds", "0"), "null", True, 2),
    "attack: not module:factory": (("attack", "--handler", "nope", "--race-seconds", "0"), "null", True, 2),
    "attack: missing file": (("attack", "--handler", "myapp/none.py:make", "--race-seconds", "0"), "null", True, 2),
    "attack: no such report folder": ((*ATTACK, "--families", "root", "--json", "no/r.json"), "null", True, 2),
    "attack: bad timeout": ((*ATTACK, "--timeout", "soon"), "null", True, 2),
    "attack: --mcp-map without --mcp": ((*ATTACK, "--mcp-map", "filesystem"), "null", True, 2),
    "attack: --mcp and --handler": ((*ATTACK, "--mcp", "memory-sandbox mcp --store file:{root}"), "null", True, 2),
    "attack: --mcp without {root}": (("attack", "--mcp", "memory-sandbox mcp", "--race-seconds", "0"), "null", True, 2),
    "attack: --mcp, unknown mapping file": (
        ("attack", "--mcp", "server {root}", "--mcp-map", "missing.toml", "--race-seconds", "0"),
        "null",
        True,
        2,
    ),
    "mcp: misspelt store": (("mcp", "--store", "file:./memroy"), "null", True, 2),
    "mcp: unknown policy": (("mcp", "--policy", "nope"), "null", True, 2),
    "mcp: bad port": (("mcp", "--http", "--port", "many"), "null", True, 2),
    "mcp: tokens without --http": (("mcp", "--token-file", "tokens.toml"), "null", True, 2),
    "mcp: token file readable by others": (
        ("mcp", "--http", "--port", "0", "--token-file", "tokens.toml"),
        "null",
        True,
        2,
    ),
    "mcp: token file and --scope": (
        ("mcp", "--http", "--port", "0", "--token-file", "tokens.toml", "--scope", "bob"),
        "null",
        True,
        2,
    ),
    "mcp: public address without tokens": (
        ("mcp", "--http", "--host", "0.0.0.0", "--port", "0"),  # noqa: S104 - the refused bind under test
        "null",
        True,
        2,
    ),
    "mcp: postgres without psycopg": (("mcp", "--store", UNREACHABLE), "null", False, 2),
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A working folder with a store and its audit log, a fleet store, and unreadable files."""
    here = tmp_path_factory.mktemp("errors")
    assert run("replay", str(EXAMPLES / "prompt-injection.jsonl"), cwd=here).returncode == 0
    assert (
        run("replay", str(EXAMPLES / "fleet-session.jsonl"), "--store", "file:fleet", "--create", cwd=here).returncode
        == 0
    )
    (here / "session.jsonl").write_text('{"command": "view", "path": "/memories"}\n')
    (here / "binary.bin").write_bytes(b"\xff\xfe\x00")
    (here / "binary.toml").write_bytes(b"\xff\xfe\x00")
    (here / "broken.toml").write_text("schema_version = [\n")
    (here / "ttl.toml").write_text('schema_version = 1\nid = "ttl"\nrevision = 1\n[retention]\nttl_days = 1\n')
    (here / "k.pub").write_text("not a key\n")
    tokens = here / "tokens.toml"
    tokens.write_text('[tokens]\n"' + "t" * 32 + '" = "alice"\n')
    tokens.chmod(0o644)  # readable by others: refused
    for name, blocked in WITHOUT.items():
        (here / name).mkdir()
        (here / name / "sitecustomize.py").write_text(BLOCKER.format(blocked=blocked))
    return here


def command(
    argv: tuple[str, ...], folder: Path, *, stdin: str, psycopg: bool, without: str | None = None
) -> subprocess.CompletedProcess[str]:
    """The command run in ``folder``; ``without``: a key of WITHOUT (``psycopg=False`` is ``no-psycopg``)."""
    script = shutil.which("memory-sandbox") or str(Path(sys.executable).parent / "memory-sandbox")
    env = {key: value for key, value in os.environ.items() if key not in ("ANTHROPIC_API_KEY", "MEMORY_SANDBOX_POLICY")}
    env.pop("MEMORY_SANDBOX_MCP_TOKEN", None)
    blocked = without or (None if psycopg else "no-psycopg")
    if blocked is not None:
        env["PYTHONPATH"] = str(folder / blocked)
    given = {"null": subprocess.DEVNULL, "closed": None, "no": None}[stdin]
    # "closed": the command starts with no stdin at all (as from `cmd <&-`).
    close_fds = stdin != "closed"
    done = subprocess.run(  # noqa: S603 - fixed argv
        [script, *argv] if close_fds else ["sh", "-c", 'exec "$0" "$@" <&-', script, *argv],
        stdin=given,
        input="no\n" if stdin == "no" else None,
        capture_output=True,
        text=True,
        cwd=folder,
        env=env,
        timeout=120,
        check=False,
    )
    return done


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_bad_input_is_one_line_and_a_documented_code(case: str, folder: Path) -> None:
    """The command fails with its documented exit code and one line on stderr, naming no internals."""
    argv, stdin, psycopg, code = CASES[case]
    done = command(argv, folder, stdin=stdin, psycopg=psycopg)
    errors = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == code and done.returncode in DOCUMENTED, done.stderr
    assert errors and not LEAKS.search(done.stderr), done.stderr
    assert len(errors) == 1 or argv[0] == "chat", done.stderr  # chat's own advice on getting a key is a paragraph


def test_missing_postgres_extra_is_named(folder: Path) -> None:
    """Without psycopg, PostgreSQL commands name the extra that installs it."""
    done = command(("db", "migrate", "--dsn", UNREACHABLE), folder, stdin="null", psycopg=False)
    assert "pip install 'memory-sandbox[postgres]'" in done.stderr


def test_missing_mcp_extra_is_named(folder: Path) -> None:
    """Without the mcp SDK, the MCP server and the MCP attack name the extra that installs it."""
    for argv in (("mcp",), ("attack", "--mcp", "memory-sandbox mcp --store file:{root}", "--race-seconds", "0")):
        done = command(argv, folder, stdin="null", psycopg=True, without="no-mcp")
        assert done.returncode == 2, done.stderr
        assert len(done.stderr.splitlines()) == 1, done.stderr
        assert done.stderr.rstrip().endswith(": pip install 'memory-sandbox[mcp]'"), done.stderr


def test_every_subcommand_has_a_bad_input_case() -> None:
    """The table above covers every command and action the parser knows."""
    covered = {" ".join(a for a in argv[:2] if not a.startswith("-") and "." not in a) for argv, *_ in CASES.values()}
    for name in _commands(build_parser()):
        assert name in covered or any(c.startswith(name + " ") for c in covered), name


def test_closed_pipe_is_quiet(folder: Path) -> None:
    """A reader that went away (``| head``) stops the command without a word, with a documented code."""
    script = shutil.which("memory-sandbox") or str(Path(sys.executable).parent / "memory-sandbox")
    reader, writer = os.pipe()
    os.close(reader)  # closed before the command starts: its first write meets a closed pipe
    try:
        done = subprocess.run(  # noqa: S603 - fixed argv
            [script, "policy", "show", "strict"],
            cwd=folder,
            stdout=writer,
            stderr=subprocess.PIPE,
            timeout=60,
            check=False,
        )
    finally:
        os.close(writer)
    assert done.returncode == 2 and done.stderr == b""


def _commands(parser: object, prefix: str = "") -> list[str]:
    import argparse  # noqa: PLC0415 - only the parser walk needs it

    assert isinstance(parser, argparse.ArgumentParser)
    names = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                full = f"{prefix} {name}".strip()
                names.append(full)
                names += _commands(sub, full)
    return names
