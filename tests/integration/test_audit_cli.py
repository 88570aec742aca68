"""The compliance review from the installed console script: verify, query, export, report (HTML in Chromium)."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.unit.test_cli import EXAMPLES, run


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The audit log of the injection example replayed on the embedded default store."""
    folder = tmp_path_factory.mktemp("review")
    assert run("replay", str(EXAMPLES / "prompt-injection.jsonl"), cwd=folder).returncode == 0
    return folder / "memory.audit.jsonl"


def test_verify_ok_and_tampered(log: Path, tmp_path: Path) -> None:
    """verify exits 0 on the intact log, 1 on a tampered copy naming the bad record, 2 when unreadable."""
    ok = run("audit", "verify", str(log))
    assert ok.returncode == 0 and ok.stdout.startswith("OK: ")
    for name in os.listdir(log.parent):
        if name.startswith(log.name):
            shutil.copy2(log.parent / name, tmp_path / name)
    copy = tmp_path / log.name
    body = copy.read_bytes().splitlines(keepends=True)
    del body[3]
    copy.write_bytes(b"".join(body))
    bad = run("audit", "verify", str(copy))
    assert bad.returncode == 1 and "TAMPERED: memory.audit.jsonl:4 (seq 5)" in bad.stdout
    assert run("audit", "verify", str(tmp_path / "missing.jsonl")).returncode == 2


def test_query_filters_and_formats(log: Path) -> None:
    """query verifies first, then filters by decision and rule, as a table, JSON lines or CSV."""
    table = run("audit", "query", str(log), "--decision", "deny")
    assert table.returncode == 0 and "chain verified" in table.stderr and "14 records" in table.stderr
    lines = [
        json.loads(line)
        for line in run("audit", "query", str(log), "--rule", "root.delete", "--format", "jsonl").stdout.splitlines()
    ]
    assert len(lines) == 2 and all(r["rules"] == ["root.delete"] for r in lines)
    rows = list(
        csv.DictReader(
            io.StringIO(run("audit", "query", str(log), "--path", "/memories/project/**", "--format", "csv").stdout)
        )
    )
    assert rows and all("/memories/project" in row["paths"] for row in rows)
    assert run("audit", "query", str(log), "--since", "2999-01-01").stderr.strip().endswith("0 records")


def test_export_bundle(log: Path, tmp_path: Path) -> None:
    """export --format bundle writes the log, witness, public key, verification, the report (text and
    HTML) and a manifest of digests."""
    out = tmp_path / "bundle"
    result = run("audit", "export", str(log), "--format", "bundle", "--out", str(out))
    assert result.returncode == 0
    manifest = json.loads((out / "manifest.json").read_text())["sha256"]
    assert {
        "memory.audit.jsonl",
        "memory.audit.jsonl.witness",
        "memory.audit.jsonl.pub",
        "verification.json",
        "report.txt",
        "report.html",
    } <= manifest.keys()
    assert (out / "report.txt").read_text().startswith("Integrity: OK")
    for name, digest in manifest.items():
        assert hashlib.sha256((out / name).read_bytes()).hexdigest() == digest
    assert json.loads((out / "verification.json").read_text())["ok"] is True
    assert run("audit", "verify", str(out / "memory.audit.jsonl")).returncode == 0


def test_report_text_and_html_in_chromium(log: Path, tmp_path: Path) -> None:
    """report prints counts and anomalies; --html writes one static page that Chromium renders with charts."""
    page = tmp_path / "report.html"
    result = run("audit", "report", str(log), "--html", str(page))
    assert result.returncode == 0
    assert result.stdout.startswith("Integrity: OK") and "Secrets redacted, by rule:" in result.stdout
    assert "anthropic-api-key" in result.stdout and "traversal attempts" in result.stdout
    source = page.read_text()
    assert "http://" not in source and "https://" not in source and "<script" not in source
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is required in CI (.ci/run installs it)")
        pytest.skip("Chromium not installed")
    profile = tmp_path / "profile"
    rendered = subprocess.run(  # noqa: S603 - fixed argv
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run",
         "--disable-sync", "--disable-component-update", f"--user-data-dir={profile}", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    dom = rendered.stdout
    assert rendered.returncode == 0, rendered.stderr[-2000:]
    assert 'id="integrity"' in dom and "Integrity: OK" in dom
    assert dom.count("<rect") >= 10 and dom.count("<svg") >= 5
