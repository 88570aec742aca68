"""The memory-sandbox command, run as an installed console script."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox import __version__

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    script = shutil.which("memory-sandbox") or str(Path(sys.executable).parent / "memory-sandbox")
    return subprocess.run([script, *args], capture_output=True, text=True, timeout=60, cwd=cwd, check=False)  # noqa: S603 - fixed argv


class TestCli:
    def test_version(self) -> None:
        """--version prints the package version."""
        result = run("--version")
        assert result.returncode == 0 and result.stdout.strip() == f"memory-sandbox {__version__}"

    def test_help(self) -> None:
        """--help lists the commands."""
        result = run("--help")
        assert result.returncode == 0 and "replay" in result.stdout

    def test_replay_injection_example(self, tmp_path: Path) -> None:
        """The injection example replays on the embedded default store, every attack refused."""
        result = run("replay", str(EXAMPLES / "prompt-injection.jsonl"), cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        lines = [line for line in result.stdout.splitlines() if " | " in line]
        attacks = [line for line in lines if "raw:" in line or "root." in line or "into_itself" in line]
        assert attacks and all("DENY" in line for line in attacks)
        assert "18 calls: 7 allowed, 11 denied" in result.stdout
        assert "secrets redacted: 2 (anthropic-api-key x1, aws-access-key-id x1)" in result.stdout
        assert (tmp_path / "memory" / "project" / "notes.md").read_text().endswith("- deploy on Fridays\n")
        stored = (tmp_path / "memory" / "project" / "credentials.md").read_text()
        assert "sk-ant-api03" not in stored and "[REDACTED:anthropic-api-key]" in stored

    def test_replay_bad_lines_are_refusals(self, tmp_path: Path) -> None:
        """Malformed lines are refused by the sandbox, not crashes of the CLI."""
        session = tmp_path / "s.jsonl"
        session.write_text('not json\n[1, 2]\n{"input": {"command": "view", "path": "/memories"}, "scope": "a"}\n')
        result = run("replay", str(session), "--store", f"file://{tmp_path}/store")
        assert result.returncode == 0, result.stderr
        assert "3 calls: 1 allowed, 2 denied" in result.stdout
        assert (tmp_path / "store").is_dir()

    def test_bad_policy_fails_start(self, tmp_path: Path) -> None:
        """A policy that does not load stops the command with its error."""
        policy = tmp_path / "bad.toml"
        policy.write_text("schema_version = 1\nid = 'x'\nrevision = 1\n[paths]\nmax_path_bytes = -1\n")
        session = tmp_path / "s.jsonl"
        session.write_text(json.dumps({"command": "view", "path": "/memories"}) + "\n")
        result = run("replay", str(session), "--policy", str(policy), cwd=tmp_path)
        assert result.returncode == 2 and "bad.toml: paths.max_path_bytes: value must be > 0" in result.stderr

    @pytest.mark.parametrize("url", ["ftp://x", "nope"])
    def test_unknown_store(self, tmp_path: Path, url: str) -> None:
        """An unknown store URL is a clear error."""
        session = tmp_path / "s.jsonl"
        session.write_text("{}\n")
        result = run("replay", str(session), "--store", url, cwd=tmp_path)
        assert result.returncode != 0 and "unsupported store URL" in result.stderr
