"""Rescanning a store: what was stored before a rule existed is found, and redacted on request."""

from __future__ import annotations

from pathlib import Path

import pytest

from sandbox import Sandbox, load_policy
from sandbox.decision import ListAuditSink
from sandbox.errors import PolicyError
from sandbox.paths import canonicalize
from sandbox.policy import parse_policy
from sandbox.rescan import rescan
from sandbox.storage import InMemoryStorage, LocalStorage
from tests.unit.test_cli import run

TOKEN = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
KEY = "AKIA" + "Q7ZP3MRX2LW9TK4B"
# A policy from before the GitHub token rule (and the scorer): what it stores keeps the token.
OLD = 'schema_version = 1\nid = "old"\nrevision = 1\n[secrets]\ndisabled = ["github-pat", "secret-scorer"]\n'


def old_store(storage: InMemoryStorage | LocalStorage) -> None:
    with Sandbox(policy=parse_policy(OLD, source="old"), storage=storage, audit=ListAuditSink()) as box:
        for path, text in [
            ("/memories/a/deploy.md", f"push with {TOKEN}\nkey {KEY}\n"),
            ("/memories/notes.md", "nothing secret here\n"),
            ("/memories/b/c/ci.md", f"ci pushes as {TOKEN} daily\n"),
        ]:
            assert not box.execute({"command": "create", "path": path, "file_text": text}).is_error


class TestRescan:
    def test_report_finds_without_changing(self) -> None:
        """Without apply, the files holding secrets are reported by rule, and nothing changes."""
        storage = InMemoryStorage()
        old_store(storage)
        audit = ListAuditSink()
        report = rescan(Sandbox(policy=load_policy("default"), storage=storage, audit=audit))
        assert report.examined == 3
        assert [(f.path, f.rules, f.redacted) for f in report.found] == [
            ("/memories/a/deploy.md", {"github-pat": 1}, False),
            ("/memories/b/c/ci.md", {"github-pat": 1}, False),
        ]
        assert TOKEN in storage.read(canonicalize("/memories/b/c/ci.md")).decode()
        assert audit.outcomes == []

    def test_apply_redacts_and_records(self) -> None:
        """With apply, each file is redacted in place and each change leaves an intent and an outcome."""
        storage = InMemoryStorage()
        old_store(storage)
        audit = ListAuditSink()
        report = rescan(Sandbox(policy=load_policy("default"), storage=storage, audit=audit), apply=True)
        assert [f.redacted for f in report.found] == [True, True] and report.failed == []
        stored = storage.read(canonicalize("/memories/a/deploy.md")).decode()
        assert stored == "push with [REDACTED:github-pat]\nkey [REDACTED:aws-access-key-id]\n"
        assert [d.command for d in audit.intents] == ["rescan", "rescan"]
        assert [d.outcome for d in audit.outcomes] == ["ok", "ok"]
        assert all(TOKEN not in repr(d) for d in audit.intents + audit.outcomes)
        again = rescan(Sandbox(policy=load_policy("default"), storage=storage, audit=ListAuditSink()))
        assert again.found == []

    def test_allowed_rule_left_alone(self) -> None:
        """A rule whose action the policy sets to allow is neither reported nor redacted."""
        storage = InMemoryStorage()
        old_store(storage)
        policy = parse_policy(
            'schema_version = 1\nid = "p"\nrevision = 1\n[secrets.rules]\ngithub-pat = "allow"\n', source="p"
        )
        report = rescan(Sandbox(policy=policy, storage=storage, audit=ListAuditSink()), apply=True)
        assert report.found == []

    def test_nothing_to_scan_refused(self) -> None:
        """A policy that scans neither for secrets nor for planted text cannot rescan."""
        text = 'schema_version = 1\nid = "p"\nrevision = 1\n[secrets]\nenabled = false\n[injection]\nenabled = false\n'
        with pytest.raises(PolicyError, match="both off"):
            rescan(Sandbox(policy=parse_policy(text, source="p"), storage=InMemoryStorage(), audit=ListAuditSink()))


class TestRescanCli:
    def test_report_then_apply(self, tmp_path: Path) -> None:
        """rescan exits 1 when stored secrets are found; --apply redacts them, and a rescan is clean."""
        old_store(LocalStorage(tmp_path / "memory"))
        store = f"file:{tmp_path / 'memory'}"
        found = run("rescan", "--store", store)
        assert found.returncode == 1, found.stderr
        assert "found: /memories/b/c/ci.md: github-pat x1" in found.stdout
        assert "3 files examined, 2 holding 2 secrets (--apply redacts them)" in found.stdout
        applied = run("rescan", "--store", store, "--apply")
        assert applied.returncode == 0, applied.stderr
        assert "redacted: /memories/a/deploy.md: github-pat x1" in applied.stdout
        assert TOKEN not in (tmp_path / "memory" / "a" / "deploy.md").read_text()
        clean = run("rescan", "--store", store)
        assert clean.returncode == 0 and "0 holding 0 secrets" in clean.stdout
