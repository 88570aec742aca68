"""Scopes are isolated from each other; retention expires and purges, every deletion recorded."""

from __future__ import annotations

import gc
import os
import shutil
import time
from pathlib import Path

import pytest

from sandbox import Sandbox, load_policy
from sandbox.audit import AuditLog
from sandbox.audit.verify import verify
from sandbox.decision import CallContext, ListAuditSink
from sandbox.paths import canonicalize
from sandbox.pipeline import Scans
from sandbox.policy import parse_policy
from sandbox.retention import expire, purge
from sandbox.scopes import Scopes
from sandbox.storage import InMemoryStorage, LocalStorage, Usage

BASE = 'schema_version = 1\nid = "t"\nrevision = 1\n'
DAY = 86_400


class TestScopes:
    def test_scope_cannot_read_list_or_touch_another(self, tmp_path: Path) -> None:
        """Scope B can neither read, list, nor change the usage of scope A, whatever it sends."""
        scopes = Scopes.local(tmp_path, policy=load_policy("default"))
        alice, bob = scopes.for_scope("alice"), scopes.for_scope("bob")
        alice.execute({"command": "create", "path": "/memories/diary.md", "file_text": "alice's secret plans"})
        before = alice.backend.storage.usage()  # type: ignore[attr-defined]
        attempts = [
            {"command": "view", "path": "/memories"},
            {"command": "view", "path": "/memories/diary.md"},
            {"command": "view", "path": "/memories/../alice/diary.md"},
            {"command": "view", "path": "/memories/%2e%2e/alice/diary.md"},
            {"command": "delete", "path": "/memories/../alice"},
            {"command": "rename", "old_path": "/memories/../alice/diary.md", "new_path": "/memories/stolen.md"},
            {"command": "create", "path": "/memories/../alice/x.md", "file_text": "x" * 1000},
        ]
        outputs = [str(bob.execute(a, CallContext(scope="alice")).content) for a in attempts]
        assert all("plans" not in out for out in outputs)
        assert outputs[0].splitlines()[1:] == ["4.0K\t/memories"]  # bob's listing shows nothing of alice's
        assert outputs[1] == "The path /memories/diary.md does not exist. Please provide a valid path."
        assert alice.backend.storage.usage() == before  # type: ignore[attr-defined]
        assert (tmp_path / "scopes" / "alice" / "diary.md").read_text() == "alice's secret plans"

    def test_scopes_share_one_compilation_of_the_scans(self) -> None:
        """The rule engines are built once for every scope (not ~0.1 s per new scope), and still redact
        and refuse in each scope alone."""
        stores: dict[str, InMemoryStorage] = {}
        scopes = Scopes(policy=load_policy("default"), storage_for=lambda s: stores.setdefault(s, InMemoryStorage()))
        a, b = scopes.for_scope("a"), scopes.for_scope("b")
        assert a.secrets is not None and a.secrets is b.secrets
        scanners = [[s for s in box.stages if type(s).__name__ == "InjectionScanner"] for box in (a, b)]
        assert scanners[0] and scanners[0][0]._scan is scanners[1][0]._scan  # type: ignore[attr-defined]
        key = "ghp_" + "x7Kq2mV9pR4tY8wL3nB6zC1dF5gH0jS2aE7u"
        for box, scope in ((a, "a"), (b, "b")):
            box.execute({"command": "create", "path": "/memories/k.md", "file_text": f"key {key}\n"})
            assert key not in stores[scope].read(canonicalize("/memories/k.md")).decode()

    def test_scans_of_another_policy_are_refused(self) -> None:
        """A sandbox never runs with scans compiled from a policy other than its own."""
        other = Scans.of(parse_policy(BASE + "[secrets]\nenabled = false\n", source="t"))
        with pytest.raises(TypeError, match="compiled from this sandbox's policy"):
            Sandbox(policy=load_policy("default"), storage=InMemoryStorage(), scans=other)
        guard = Scans.of(load_policy("default")).secrets
        with pytest.raises(TypeError, match="replaces secrets"):
            Sandbox(
                policy=load_policy("default"),
                storage=InMemoryStorage(),
                secrets=guard,
                scans=Scans.of(load_policy("default")),
            )

    def test_each_scope_has_its_own_quota(self) -> None:
        """Filling one scope's quota leaves another's untouched."""
        stores: dict[str, InMemoryStorage] = {}
        scopes = Scopes(
            policy=parse_policy(BASE + "[quota]\nmax_files = 1\n", source="t"),
            storage_for=lambda scope: stores.setdefault(scope, InMemoryStorage()),
        )
        a, b = scopes.for_scope("a"), scopes.for_scope("b")
        a.execute({"command": "create", "path": "/memories/1.md", "file_text": "x"})
        assert a.execute({"command": "create", "path": "/memories/2.md", "file_text": "x"}).is_error
        assert not b.execute({"command": "create", "path": "/memories/1.md", "file_text": "x"}).is_error

    def test_records_carry_the_scope(self) -> None:
        """A scope's sandbox stamps its scope on every record, whatever the caller claims."""
        audit = ListAuditSink()
        scopes = Scopes(
            policy=load_policy("default"), storage_for=lambda _: InMemoryStorage(), audit_for=lambda _: audit
        )
        scopes.for_scope("alice").execute({"command": "view", "path": "/memories"}, CallContext(scope="mallory"))
        assert audit.outcomes[0].context.scope == "alice"

    def test_cache_bounded(self) -> None:
        """At most max_open sandboxes stay open; the least recently used go first."""
        scopes = Scopes(policy=load_policy("default"), storage_for=lambda _: InMemoryStorage(), max_open=2)
        first = scopes.for_scope("a")
        scopes.for_scope("b")
        assert scopes.for_scope("a") is first
        scopes.for_scope("c")
        assert scopes.for_scope("a") is first and scopes.for_scope("b") is not None

    def test_eviction_closes_the_scope_whole(self, tmp_path: Path) -> None:
        """An evicted scope's log gets its closing checkpoint (its last records signed) and its
        descriptors back, for a log the scope opened itself and for one ``audit_for`` gave."""
        fds = Path("/proc/self/fd")
        for audit_for in (None, lambda scope: AuditLog.open(tmp_path / "logs" / f"{scope}.jsonl")):
            gc.collect()  # descriptors of earlier tests' garbage are closed now, not midway through this one
            before = len(list(fds.iterdir()))
            scopes = Scopes(
                policy=load_policy("default"),
                storage_for=lambda scope: LocalStorage(tmp_path / "memory" / scope),
                audit_for=audit_for,
                max_open=1,
            )
            for scope in ("a", "b", "c"):
                scopes.for_scope(scope).execute({"command": "create", "path": "/memories/x.md", "file_text": "x"})
            for scope in ("a", "b"):  # evicted
                log = (
                    tmp_path / "logs" / f"{scope}.jsonl" if audit_for else tmp_path / "memory" / f"{scope}.audit.jsonl"
                )
                report = verify(log)
                assert report.ok and report.checkpoints >= 1 and report.witnessed >= 1, (scope, report.summary())
            scopes.close()
            assert len(list(fds.iterdir())) == before
            shutil.rmtree(tmp_path / "memory")

    @pytest.mark.parametrize("bad", ["", "x" * 200])
    def test_bad_scope_ids(self, bad: str) -> None:
        """Empty and over-long scope ids are refused."""
        with pytest.raises(ValueError):
            Scopes(policy=load_policy("default"), storage_for=lambda _: InMemoryStorage()).for_scope(bad)


class TestRetention:
    POLICY = BASE + (
        "[retention]\nttl_days = 30\npinned = ['/memories/README.md']\n"
        "[[retention.rules]]\nglob = '/memories/scratch/**'\nttl_days = 1\n"
    )

    def make(self, tmp_path: Path) -> tuple[Sandbox, ListAuditSink, Path]:
        audit = ListAuditSink()
        root = tmp_path / "store"
        box = Sandbox(policy=parse_policy(self.POLICY, source="t"), storage=LocalStorage(root), audit=audit)
        for name in ("README.md", "notes.md", "scratch/tmp.md", "scratch/deep/old.md", "fresh.md"):
            box.execute({"command": "create", "path": f"/memories/{name}", "file_text": name})
        return box, audit, root

    def test_expire_by_ttl_rule_and_pin(self, tmp_path: Path) -> None:
        """Files past their TTL go (the first matching rule wins), pinned ones stay, each deletion recorded."""
        box, audit, root = self.make(tmp_path)
        now = time.time()
        for name, age in (("README.md", 400), ("notes.md", 40), ("scratch/tmp.md", 2), ("scratch/deep/old.md", 0.5)):
            os.utime(root / name, (now - age * DAY, now - age * DAY))
        report = expire(box, now)
        assert sorted(report.deleted) == ["/memories/notes.md", "/memories/scratch/tmp.md"]
        assert report.pinned == 1 and report.examined == 5
        assert (
            (root / "README.md").exists() and (root / "fresh.md").exists() and (root / "scratch/deep/old.md").exists()
        )
        expired = [d for d in audit.outcomes if d.command == "expire"]
        assert [d.paths for d in expired] == [("/memories/notes.md",), ("/memories/scratch/tmp.md",)]
        assert all(d.outcome == "ok" and d.rule_ids == ("retention.ttl",) for d in expired)
        assert len([d for d in audit.intents if d.command == "expire"]) == 2

    def test_no_ttl_keeps_everything(self) -> None:
        """Without a TTL nothing expires."""
        box = Sandbox(policy=load_policy("default"), storage=InMemoryStorage())
        box.execute({"command": "create", "path": "/memories/a.md", "file_text": "x"})
        assert expire(box, time.time() + 10_000 * DAY).deleted == []

    def test_purge_erases_everything(self, tmp_path: Path) -> None:
        """purge deletes every entry of the scope, recording each."""
        box, audit, _ = self.make(tmp_path)
        deleted = purge(box)
        assert sorted(deleted) == [
            "/memories/README.md",
            "/memories/fresh.md",
            "/memories/notes.md",
            "/memories/scratch",
        ]
        assert box.backend.storage.usage() == Usage(0, 0)  # type: ignore[attr-defined]
        assert {d.command for d in audit.outcomes[-4:]} == {"purge"}

    def test_erase_removes_the_scope_folder(self, tmp_path: Path) -> None:
        """LocalStorage.erase removes the whole folder, the store's own files with it."""
        store = LocalStorage.for_scope(tmp_path, "alice")
        Sandbox(policy=load_policy("default"), storage=store).execute(
            {"command": "create", "path": "/memories/a.md", "file_text": "x"}
        )
        store.erase()
        assert not (tmp_path / "scopes" / "alice").exists()
