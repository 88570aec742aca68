"""The memory-sandbox command, run as an installed console script."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox import __version__
from sandbox.policy import load_policy
from tests.trees import plant_chain

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def run(*args: str, cwd: Path | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    script = shutil.which("memory-sandbox") or str(Path(sys.executable).parent / "memory-sandbox")
    return subprocess.run([script, *args], capture_output=True, text=True, timeout=timeout, cwd=cwd, check=False)  # noqa: S603 - fixed argv


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
        assert "31 calls: 17 allowed, 14 denied" in result.stdout
        assert "secrets redacted: 2 (secret.anthropic-api-key x1, secret.aws-access-key-id x1)" in result.stdout
        # Filling the disk: the 2 MB write is over the write limit, the 1 MB copies stop at the quota.
        assert "denied by limits.max_write_bytes: 1" in result.stdout
        assert (
            "denied by quota.max_bytes: 2" in result.stdout
            and "    ... 8 allow, 1 DENY (quota.max_bytes)" in result.stdout
        )
        assert "quota: 10,000,195 of 10,485,760 bytes, 12 of 1000 files" in result.stdout
        assert "audit: OK: " in result.stdout
        assert (tmp_path / "memory" / "project" / "notes.md").read_text().endswith("- deploy on Fridays\n")
        stored = (tmp_path / "memory" / "project" / "credentials.md").read_text()
        assert "sk-ant-api03" not in stored and "[REDACTED:anthropic-api-key]" in stored

    def test_replay_ordinary_session(self, tmp_path: Path) -> None:
        """Three conversations of project notes: everything allowed but two mistakes the model corrects."""
        result = run("replay", str(EXAMPLES / "ordinary-session.jsonl"), cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert "21 calls: 19 allowed, 0 denied, 2 ordinary errors" in result.stdout
        todo = (tmp_path / "memory" / "atlas" / "todo.md").read_text()
        assert "- [ ] review the API with Dana" in todo and "draft the API (due Friday)" in todo
        assert (tmp_path / "memory" / "atlas" / "notes" / "meetings" / "2026-11-26.md").exists()

    def test_replay_fleet_session(self, tmp_path: Path) -> None:
        """Three scopes in one store: each its own folder, quota and audit log; Bob never reaches Alice."""
        result = run("replay", str(EXAMPLES / "fleet-session.jsonl"), "--store", "file:fleet", "--create", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert "16 calls: 12 allowed, 3 denied, 1 ordinary errors" in result.stdout
        assert "bob: /memories/alice/preferences.md" in result.stdout
        for scope in ("alice", "bob", "team-atlas"):
            assert f"audit ({scope}): OK: " in result.stdout
        assert "green tea" in (tmp_path / "fleet" / "scopes" / "alice" / "preferences.md").read_text()
        assert "coffee" in (tmp_path / "fleet" / "scopes" / "bob" / "preferences.md").read_text()
        deploy = (tmp_path / "fleet" / "scopes" / "team-atlas" / "atlas" / "deploy.md").read_text()
        assert "ghp_" not in deploy and "[REDACTED:github-pat]" in deploy

    def test_replay_repeat_and_text_bytes(self, tmp_path: Path) -> None:
        """A repeated line runs N times with {n} counted; text_bytes fills the text field."""
        session = tmp_path / "s.jsonl"
        session.write_text(
            '{"input": {"command": "create", "path": "/memories/f{n}.md", "file_text": ""}, "repeat": 5, "text_bytes": 10}\n'
        )
        result = run("replay", str(session), "--store", "file:m", "--create", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert "5 calls: 5 allowed, 0 denied" in result.stdout and "    ... 2 allow" in result.stdout
        assert sorted(p.name for p in (tmp_path / "m").glob("f*.md")) == [f"f{n}.md" for n in range(1, 6)]
        assert (tmp_path / "m" / "f3.md").read_text() == "A" * 10

    def test_replay_bad_lines_are_refusals(self, tmp_path: Path) -> None:
        """Malformed lines are refused by the sandbox, not crashes of the CLI."""
        session = tmp_path / "s.jsonl"
        session.write_text('not json\n[1, 2]\n{"input": {"command": "view", "path": "/memories"}, "scope": "a"}\n')
        result = run("replay", str(session), "--store", f"file://{tmp_path}/store", "--scope", "a", "--create")
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


POLICIES = Path(__file__).resolve().parents[2] / "policies"


class TestPolicyCli:
    def test_lint_shipped_and_broken(self, tmp_path: Path) -> None:
        """lint passes the shipped profiles and fails a broken file with file, key and reason."""
        broken = tmp_path / "broken.toml"
        broken.write_text(
            'schema_version = 1\nid = "b"\nrevision = 1\n[quota]\nmax_bytes = 0\n[secrets]\nrules = {nope = "allow"}\n'
        )
        ok = run(
            "policy", "lint", *(str(POLICIES / f"{name}.toml") for name in ("default", "strict", "permissive-dev"))
        )
        assert ok.returncode == 0 and ok.stdout.count(": ok") == 3
        bad = run("policy", "lint", str(broken))
        assert bad.returncode == 1 and "broken.toml: quota.max_bytes: value must be > 0" in bad.stderr

    def test_lint_unknown_rule_id(self, tmp_path: Path) -> None:
        """A valid file naming an unknown secret rule fails lint."""
        typo = tmp_path / "typo.toml"
        typo.write_text('schema_version = 1\nid = "b"\nrevision = 1\n[secrets]\nrules = {github-patt = "allow"}\n')
        result = run("policy", "lint", str(typo))
        assert result.returncode == 1 and "unknown rule id 'github-patt'" in result.stderr

    def test_show_round_trips(self, tmp_path: Path) -> None:
        """show prints the resolved policy as TOML that loads back to the same policy."""
        result = run("policy", "show", "strict")
        assert (
            result.returncode == 0 and "[quota]" in result.stdout and "max_operations_per_minute = 120" in result.stdout
        )
        copy = tmp_path / "strict.toml"
        copy.write_text(result.stdout)
        assert load_policy(copy) == load_policy("strict")

    def test_explain(self) -> None:
        """explain prints each stage's verdict and the decision, touching no storage."""
        command = '{"command": "create", "path": "/memories/tools/run.exe", "file_text": "x"}'
        result = run("policy", "explain", "--policy", "strict", command)
        assert result.returncode == 0
        assert re.search(r"^PathRules +deny \[paths\.allowed_extensions\] ", result.stdout, re.MULTILINE)
        assert re.search(r"^AccessRules +deny \[no-executables\] ", result.stdout, re.MULTILINE)
        assert re.search(r"^InjectionScanner +allow$", result.stdout, re.MULTILINE)
        assert result.stdout.strip().endswith("decision: deny [paths.allowed_extensions] (policy strict r1)")

    def test_explain_env_names_policy(self, tmp_path: Path) -> None:
        """MEMORY_SANDBOX_POLICY names the policy when --policy is not given."""
        script = shutil.which("memory-sandbox") or str(Path(sys.executable).parent / "memory-sandbox")
        env = {**os.environ, "MEMORY_SANDBOX_POLICY": "strict"}
        result = subprocess.run(  # noqa: S603 - fixed argv
            [script, "policy", "explain", '{"command": "view", "path": "/memories"}'],
            capture_output=True,
            text=True,
            env=env,
            check=False,
            timeout=60,
        )
        assert "(policy strict r1)" in result.stdout

    def test_shipped_policy_tests_pass(self) -> None:
        """Every shipped profile's policy tests pass."""
        files = sorted(str(p) for p in (POLICIES / "tests").glob("*.toml"))
        assert len(files) == 3
        result = run("policy", "test", *files)
        assert result.returncode == 0, result.stdout
        assert " 0 failed" in result.stdout

    def test_failing_case_fails(self, tmp_path: Path) -> None:
        """A case whose expectation does not hold makes policy test exit 1."""
        cases = tmp_path / "t.toml"
        cases.write_text(
            'policy = "default"\n[[cases]]\nname = "wrong"\ninput = { command = "view", path = "/etc" }\nexpect = "allow"\n'
        )
        result = run("policy", "test", str(cases))
        assert (
            result.returncode == 1
            and "FAIL: t.toml: wrong: expected allow, got deny (path.outside_root)" in result.stdout
        )


class TestRetentionCli:
    def test_expire_and_purge(self, tmp_path: Path) -> None:
        """expire deletes what is past its TTL; purge --yes erases a scope's folder."""
        policy = tmp_path / "p.toml"
        policy.write_text('schema_version = 1\nid = "p"\nrevision = 1\n[retention]\nttl_days = 1\n')
        session = tmp_path / "s.jsonl"
        session.write_text(
            '{"input": {"command": "create", "path": "/memories/a.md", "file_text": "x"}, "scope": "alice"}\n'
            '{"input": {"command": "create", "path": "/memories/b.md", "file_text": "y"}, "scope": "bob"}\n'
        )
        store = f"file://{tmp_path}/base"
        assert run("replay", str(session), "--store", store, "--create", "--policy", str(policy)).returncode == 0
        scopes = tmp_path / "base" / "scopes"
        assert (scopes / "alice" / "a.md").exists() and (scopes / "bob" / "b.md").exists()
        later = "2099-01-01T00:00:00"
        result = run("expire", "--store", store, "--scope", "alice", "--policy", str(policy), "--now", later)
        assert result.returncode == 0 and "expired /memories/a.md" in result.stdout
        assert not (scopes / "alice" / "a.md").exists() and (scopes / "bob" / "b.md").exists()
        purged = run("purge", "--store", store, "--scope", "bob", "--yes")
        assert purged.returncode == 0 and "purged scope 'bob'" in purged.stdout
        assert not (scopes / "bob").exists() and (scopes / "alice").exists()

    def test_purge_erases_what_no_model_path_can_name(self, tmp_path: Path) -> None:
        """purge erases a scope holding a tree 1,100 levels deep and names no model path can address."""
        scope = tmp_path / "base" / "scopes" / "dave"
        (scope / "ok.md").parent.mkdir(parents=True)
        (scope / "ok.md").write_text("x")
        (scope / "bad:name").write_text("written by another tool")
        plant_chain(scope, 1100)
        result = run("purge", "--store", f"file://{tmp_path}/base", "--scope", "dave", "--yes")
        assert result.returncode == 0, result.stderr
        assert not scope.exists()

    def test_purge_asks_first(self, tmp_path: Path) -> None:
        """Without --yes, purge asks and erases nothing unless the scope id is typed back."""
        script = shutil.which("memory-sandbox") or str(Path(sys.executable).parent / "memory-sandbox")
        (tmp_path / "base" / "scopes" / "carol").mkdir(parents=True)
        (tmp_path / "base" / "scopes" / "carol" / "keep.md").write_text("k")
        result = subprocess.run(  # noqa: S603 - fixed argv
            [script, "purge", "--store", f"file://{tmp_path}/base", "--scope", "carol"],
            input="no\n",
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
        )
        assert result.returncode == 3 and "not confirmed; nothing erased" in result.stderr
        assert (tmp_path / "base" / "scopes" / "carol" / "keep.md").exists()
