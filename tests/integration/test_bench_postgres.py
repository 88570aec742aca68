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
        [sys.executable, str(BENCH), "--dsn", pg_server, "--workers", "1,3", "--commands", "60", "--scopes", "4",
         "--json", str(out)],
        capture_output=True, text=True, timeout=240, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    one, fleet = json.loads(out.read_text())["runs"]
    assert (one["workers"], one["sandbox"]["commands"], fleet["workers"], fleet["sandbox"]["commands"]) == (
        1,
        60,
        3,
        180,
    )
    assert all(check["ok"] for run in (one, fleet) for check in run["checks"].values())
    assert fleet["checks"]["quota"]["refusals"] > 0  # 4 scopes, 3 workers: the quota is reached
    assert fleet["checks"]["edits"]["inserts_acknowledged"] > 0
    assert fleet["sandbox"]["cpu_per_command"]["workers_ms"] > 0  # the workers' CPU was counted
    assert result.stdout.count("check audit:  OK") == 2
