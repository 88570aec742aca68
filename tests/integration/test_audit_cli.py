"""The compliance review from the installed console script: verify, query, export, report (HTML in Chromium)."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import shutil
from pathlib import Path

from tests.integration import browser
from tests.unit.test_cli import run


def test_verify_ok_and_tampered(replayed_log: Path, tmp_path: Path) -> None:
    """verify exits 0 on the intact log, 1 on a tampered copy naming the bad record, 2 when unreadable."""
    ok = run("audit", "verify", str(replayed_log))
    assert ok.returncode == 0 and ok.stdout.startswith("OK: ")
    for name in os.listdir(replayed_log.parent):
        if name.startswith(replayed_log.name):
            shutil.copy2(replayed_log.parent / name, tmp_path / name)
    copy = tmp_path / replayed_log.name
    body = copy.read_bytes().splitlines(keepends=True)
    del body[3]
    copy.write_bytes(b"".join(body))
    bad = run("audit", "verify", str(copy))
    assert bad.returncode == 1 and "TAMPERED: memory.audit.jsonl:4 (seq 5)" in bad.stdout
    assert run("audit", "verify", str(tmp_path / "missing.jsonl")).returncode == 2


def test_query_filters_and_formats(replayed_log: Path) -> None:
    """query verifies first, then filters by decision and rule, as a table, JSON lines or CSV."""
    table = run("audit", "query", str(replayed_log), "--decision", "deny")
    assert table.returncode == 0 and "chain verified" in table.stderr and "14 records" in table.stderr
    lines = [
        json.loads(line)
        for line in run(
            "audit", "query", str(replayed_log), "--rule", "root.delete", "--format", "jsonl"
        ).stdout.splitlines()
    ]
    assert len(lines) == 2 and all(r["rules"] == ["root.delete"] for r in lines)
    rows = list(
        csv.DictReader(
            io.StringIO(
                run("audit", "query", str(replayed_log), "--path", "/memories/project/**", "--format", "csv").stdout
            )
        )
    )
    assert rows and all("/memories/project" in row["paths"] for row in rows)
    assert run("audit", "query", str(replayed_log), "--since", "2999-01-01").stderr.strip().endswith("0 records")


def test_export_bundle(replayed_log: Path, tmp_path: Path) -> None:
    """export --format bundle writes the replayed_log, witness, public key, verification, the report (text and
    HTML) and a manifest of digests."""
    out = tmp_path / "bundle"
    result = run("audit", "export", str(replayed_log), "--format", "bundle", "--out", str(out))
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


def test_report_text_and_html_in_chromium(replayed_log: Path, tmp_path: Path) -> None:
    """report prints counts and anomalies; --html writes one self-contained page (it fetches nothing)
    that Chromium renders with the integrity evidence, the decisions, the sessions and the charts."""
    page = tmp_path / "report.html"
    result = run("audit", "report", str(replayed_log), "--html", str(page))
    assert result.returncode == 0
    assert result.stdout.startswith("Integrity: OK") and "Secrets redacted, by rule:" in result.stdout
    assert "anthropic-api-key" in result.stdout and "traversal attempts" in result.stdout
    source = page.read_text()
    assert "http://" not in source and "https://" not in source and "default-src 'none'" in source
    dom = browser.dom(page, tmp_path / "profile")
    assert 'id="integrity"' in dom and "Integrity: OK" in dom and "<dt>signing key</dt>" in dom
    assert 'id="decisions"' in dom and 'id="sessions"' in dom and "31 of 31 decisions shown" in dom
    assert dom.count("<rect") >= 10 and dom.count("<svg") >= 5
