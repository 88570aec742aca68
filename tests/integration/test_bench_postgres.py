"""bench/postgres.py stays runnable: a small fleet run passes its three checks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "postgres.py"


def test_small_fleet_run_passes_its_checks(pg_server: str, tmp_path: Path) -> None:
    out = tmp_path / "fleet.json"
    result = subprocess.run(  # noqa: S603 - our own script, fixed arguments
        [sys.executable, str(BENCH), "--dsn", pg_server, "--workers", "3", "--commands", "60", "--scopes", "4",
         "--json", str(out)],
        capture_output=True, text=True, timeout=240, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(out.read_text())
    assert report["sandbox"]["commands"] == 180
    assert all(check["ok"] for check in report["checks"].values())
    assert report["checks"]["quota"]["refusals"] > 0  # 4 scopes, 3 workers: the quota is reached
    assert report["checks"]["edits"]["inserts_acknowledged"] > 0
    assert "check audit:  OK" in result.stdout
