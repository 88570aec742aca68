"""OpenTelemetry metrics from the audit sink wrapper, read back through the SDK's in-memory reader."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader

from sandbox import Sandbox, load_policy
from sandbox.decision import ListAuditSink
from sandbox.metrics import MeteredAuditSink
from sandbox.storage import InMemoryStorage

KEY = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
# Runs a sandbox with the default audit settings and reports whether OpenTelemetry was imported.
UNMETERED = """
import sys
from sandbox import Sandbox, load_policy
from sandbox.storage import InMemoryStorage
Sandbox(policy=load_policy("default"), storage=InMemoryStorage()).execute({"command": "view", "path": "/memories"})
print(any(name.startswith("opentelemetry") for name in sys.modules))
"""


@dataclass
class Metered:
    sandbox: Sandbox
    audit: MeteredAuditSink
    inner: ListAuditSink
    storage: InMemoryStorage
    reader: InMemoryMetricReader

    def points(self, name: str) -> list[Any]:
        data = self.reader.get_metrics_data()
        assert data is not None
        return [
            point
            for resource in data.resource_metrics
            for scope in resource.scope_metrics
            for metric in scope.metrics
            if metric.name == name
            for point in metric.data.data_points
        ]

    def by(self, name: str, *keys: str) -> dict[tuple[str, ...], Any]:
        return {tuple(str(p.attributes.get(key)) for key in keys): p for p in self.points(name)}


@pytest.fixture
def metered() -> Iterator[Metered]:
    reader = InMemoryMetricReader()
    provider = MeterProvider(metric_readers=[reader])
    inner = ListAuditSink()
    audit = MeteredAuditSink(inner, meter=provider.get_meter("memory-sandbox-test"))
    storage = InMemoryStorage()
    yield Metered(Sandbox(policy=load_policy("default"), storage=storage, audit=audit), audit, inner, storage, reader)
    provider.shutdown()


def calls(sandbox: Sandbox) -> None:
    sandbox.execute({"command": "create", "path": "/memories/a.md", "file_text": "tea\n"})
    sandbox.execute({"command": "create", "path": "/memories/k.md", "file_text": f"token {KEY}\n"})
    sandbox.execute({"command": "view", "path": "/memories/../../.env"})
    sandbox.execute({"command": "delete", "path": "/memories"})
    sandbox.execute({"command": "view", "path": "/memories/missing.md"})


class TestMeteredAuditSink:
    def test_decisions_by_verdict_and_outcome(self, metered: Metered) -> None:
        """Each call is counted once, under its command, verdict and outcome."""
        calls(metered.sandbox)
        counts = {
            key: p.value for key, p in metered.by("memory_sandbox.decisions", "command", "verdict", "outcome").items()
        }
        assert counts == {
            ("create", "allow", "ok"): 1,
            ("create", "redact", "ok"): 1,
            ("view", "deny", "denied"): 1,
            ("delete", "deny", "denied"): 1,
            ("view", "allow", "error"): 1,
        }

    def test_rule_hits(self, metered: Metered) -> None:
        """Every rule a decision names is counted, with the decision's verdict."""
        calls(metered.sandbox)
        hits = {key: p.value for key, p in metered.by("memory_sandbox.rule.hits", "rule", "verdict").items()}
        assert hits[("path.traversal", "deny")] == 1 and hits[("root.delete", "deny")] == 1
        assert hits[("secret.github-pat", "redact")] == 1

    def test_latency_per_command(self, metered: Metered) -> None:
        """Each call's latency lands in the duration histogram of its command, in seconds."""
        calls(metered.sandbox)
        durations = metered.by("memory_sandbox.call.duration", "command", "outcome")
        assert durations[("create", "ok")].count == 2 and durations[("view", "denied")].count == 1
        recorded = sum(d.latency_ns for d in metered.inner.outcomes if d.command == "create") / 1e9
        assert durations[("create", "ok")].sum == pytest.approx(recorded)

    def test_quota_utilization(self, metered: Metered) -> None:
        """A watched scope reports the share of its byte and file quota in use."""
        metered.audit.watch_quota("alice", metered.storage, metered.sandbox.policy.quota)
        metered.sandbox.execute({"command": "create", "path": "/memories/a.md", "file_text": "x" * 1024})
        shares = {
            key: p.value for key, p in metered.by("memory_sandbox.quota.utilization", "scope", "resource").items()
        }
        quota = metered.sandbox.policy.quota
        assert quota.max_bytes is not None and quota.max_files is not None
        assert shares == {("alice", "bytes"): 1024 / quota.max_bytes, ("alice", "files"): 1 / quota.max_files}

    def test_forwards_everything(self, metered: Metered) -> None:
        """The inner sink still receives every intent and outcome; decisions are unchanged."""
        calls(metered.sandbox)
        assert len(metered.inner.outcomes) == 5 and metered.inner.intents
        assert metered.audit.keyed_digest(b"x") == metered.inner.keyed_digest(b"x")

    def test_off_costs_nothing(self) -> None:
        """Without the wrapper, running a sandbox never imports OpenTelemetry."""
        done = subprocess.run(  # noqa: S603 - fixed argv
            [sys.executable, "-c", UNMETERED], capture_output=True, text=True, timeout=60, check=True
        )
        assert done.stdout.strip() == "False"
