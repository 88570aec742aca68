"""Start-up of the memory-sandbox command: help and the review commands load neither the SDK nor MCP."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.unit.test_cli import EXAMPLES, run

POLICIES = Path(__file__).resolve().parents[2] / "policies"
HEAVY = ("anthropic", "mcp")
# Runs the command in this interpreter, then writes which heavy packages it loaded to the file in argv[1].
PROBE = """
import json, sys
from sandbox.cli.main import main
out, argv = sys.argv[1], sys.argv[2:]
try:
    code = main(argv)
except SystemExit as exc:
    code = exc.code
loaded = sorted({name.split(".")[0] for name in sys.modules} & {"anthropic", "mcp"})
with open(out, "w") as fh:
    json.dump({"code": code, "loaded": loaded}, fh)
"""


def probe(tmp_path: Path, *argv: str, cwd: Path) -> dict[str, object]:
    out = tmp_path / "probe.json"
    done = subprocess.run(  # noqa: S603 - fixed argv
        [sys.executable, "-c", PROBE, str(out), *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(out.read_text())
    return result


@pytest.fixture(scope="module")
def review_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the audit log of the injection example, replayed on the default store."""
    folder = tmp_path_factory.mktemp("startup")
    assert run("replay", str(EXAMPLES / "prompt-injection.jsonl"), cwd=folder).returncode == 0
    return folder


REVIEW_COMMANDS = [
    ("--help",),
    ("mcp", "--help"),
    ("audit", "verify", "memory.audit.jsonl"),
    ("audit", "query", "memory.audit.jsonl", "--decision", "deny"),
    ("audit", "export", "memory.audit.jsonl", "--format", "csv"),
    ("audit", "report", "memory.audit.jsonl", "--html", "report.html"),
    ("policy", "lint", str(POLICIES / "default.toml")),
    ("policy", "show", "strict"),
    ("policy", "explain", '{"command": "view", "path": "/memories/../etc"}'),
    ("policy", "test", str(POLICIES / "tests" / "default.toml")),
]


@pytest.mark.parametrize("argv", REVIEW_COMMANDS, ids=" ".join)
def test_review_commands_load_no_sdk(argv: tuple[str, ...], review_folder: Path, tmp_path: Path) -> None:
    """The command succeeds without importing anthropic or mcp."""
    result = probe(tmp_path, *argv, cwd=review_folder)
    assert result == {"code": 0, "loaded": []}


def test_probe_sees_the_sdk_when_loaded(review_folder: Path, tmp_path: Path) -> None:
    """The probe is not blind: the attack command's help is cheap, but running the gate loads the SDK."""
    result = probe(
        tmp_path, "attack", "--handler", "sandbox.attack.targets:sandboxed", "--race-seconds", "0",
        "--families", "dotdot", cwd=review_folder,
    )  # fmt: skip
    assert "anthropic" in result["loaded"]  # type: ignore[operator]
