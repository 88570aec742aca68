"""``memory-sandbox attack --sarif``: a SARIF 2.1.0 log code scanning accepts, one result per finding."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sandbox.attack import FAMILIES
from tests.integration.test_attack import attack

LEVELS = {"none", "note", "warning", "error"}


def sarif_run(tmp_path: Path, *options: str) -> tuple[dict[str, Any], dict[str, Any]]:
    out = tmp_path / "attack.sarif"
    _, output, report = attack(tmp_path, "sandbox.attack.targets:sdk", "--families", "hardlink,malformed",
                               "--race-seconds", "0", "--sarif", str(out), *options)  # fmt: skip
    assert out.exists(), output
    log: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return log, report


def check_structure(log: dict[str, Any]) -> dict[str, Any]:
    """The fields SARIF 2.1.0 and code-scanning uploads require, and rule references that resolve."""
    assert log["version"] == "2.1.0" and log["$schema"].endswith("sarif-2.1.0.json")
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] and driver["version"]
    ids = [rule["id"] for rule in driver["rules"]]
    assert len(ids) == len(set(ids)) and all(i.startswith("attack/") and i[7:] in FAMILIES for i in ids)
    for rule in driver["rules"]:
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"]
    for result in run["results"]:
        assert driver["rules"][result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] in LEVELS and result["message"]["text"]
        (location,) = result["locations"]
        uri = location["physicalLocation"]["artifactLocation"]["uri"]
        assert uri == "sandbox/attack/targets.py" and not uri.startswith("/")
        assert len(result["partialFingerprints"]["memorySandboxCase/v1"]) == 32
    return run


def test_strict_sarif_has_one_result_per_finding(tmp_path: Path) -> None:
    """With --strict, every escape, accepted attack, crash, hang and disclosure is a result under its family's rule."""
    log, report = sarif_run(tmp_path, "--strict")
    run = check_structure(log)
    assert len(run["results"]) == sum(report["totals"].values()) > 0
    by_rule: dict[str, int] = {}
    for result in run["results"]:
        by_rule[result["ruleId"]] = by_rule.get(result["ruleId"], 0) + 1
    expected = {f"attack/{family}": sum(v for k, v in counts.items() if k != "cases")
                for family, counts in report["families"].items()}  # fmt: skip
    assert by_rule == {rule: count for rule, count in expected.items() if count}
    assert {r["ruleId"] for r in run["results"]} == {"attack/hardlink", "attack/malformed"}
    assert len({json.dumps(r["partialFingerprints"]) for r in run["results"]}) == len(run["results"])


def test_sarif_without_strict_lists_escapes_only(tmp_path: Path) -> None:
    """Without --strict, only real escapes are results, all of them errors."""
    log, report = sarif_run(tmp_path)
    run = check_structure(log)
    assert len(run["results"]) == report["totals"]["escape"] > 0
    assert all(r["level"] == "error" and r["properties"]["category"] == "escape" for r in run["results"])
    assert run["properties"]["passed"] is False
