"""``memory-sandbox attack`` from the installed console script: what it finds in the SDK's handler,
in wrap mode and in ours, its reports, and how it treats handlers that hang, crash or map elsewhere."""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from sandbox.attack import FAMILIES, SEQUENCES
from tests.unit.test_cli import run

TARGETS = Path(__file__).with_name("attack_targets.py")
RACE = os.environ.get("MEMORY_SANDBOX_ATTACK_RACE_SECONDS", "3")


def attack(tmp_path: Path, handler: str, *options: str) -> tuple[int, str, dict[str, Any]]:
    out = tmp_path / "report.json"
    result = run("attack", "--handler", handler, "--json", str(out), *options, cwd=tmp_path, timeout=600)
    report = json.loads(out.read_text()) if out.exists() else {}
    return result.returncode, result.stdout + result.stderr, report


@pytest.mark.slow
def test_sdk_handler_weaknesses_found(tmp_path: Path) -> None:
    """The SDK's handler: hard-link reads and the swap race escape; malformed input is accepted or crashes it."""
    code, output, report = attack(
        tmp_path, "sandbox.attack.targets:sdk", "--families", "hardlink,malformed,symlink,race", "--race-seconds", RACE
    )
    assert code == 1, output
    families = report["families"]
    assert families["hardlink"]["escape"] >= 2
    assert report["race"]["escaped"], report["race"]
    assert families["malformed"]["crash"] >= 10 and families["malformed"].get("accepted", 0) >= 1
    assert "FAIL:" in output and "race:" in output and "ESCAPED" in output


#: A family of each kind (encodings, look-alikes, links, the root, malformed input, a composition):
#: the whole gate runs against the same tool in .ci/run, every family, --strict.
SAMPLE = "dotdot,double_encoding,lookalike_dots,symlink,hardlink,root,malformed,nested_renames,oracle_hidden"
#: Every single-call family (the multi-call ones run in wrap mode in .ci/run).
SINGLE_CALL = ",".join(family for family in FAMILIES if family not in SEQUENCES)


@pytest.mark.slow
def test_sandboxed_tool_passes_strict(tmp_path: Path) -> None:
    """SandboxedMemoryTool on LocalStorage: a family of each kind, the race, --strict: nothing at all."""
    xml = tmp_path / "attack.xml"
    code, output, report = attack(
        tmp_path, "sandbox.attack.targets:sandboxed", "--strict", "--race-seconds", RACE, "--junit-xml", str(xml),
        "--families", f"{SAMPLE},race",
    )  # fmt: skip
    assert code == 0, output
    assert report["passed"] and report["cases"] >= 2_000
    assert set(report["families"]) == set(SAMPLE.split(","))
    assert all(count == 0 for count in report["totals"].values()), report["totals"]
    assert report["race"]["calls"] > 100 and report["race"]["swaps"] > 1000 and not report["race"]["escaped"]
    suite = ET.parse(xml).getroot()  # noqa: S314 - our own report
    assert suite.get("failures") == "0" and int(suite.get("tests", "0")) > 40


@pytest.mark.slow
def test_wrap_mode_escapes_only_through_the_wrapped_handlers_own_file_access(tmp_path: Path) -> None:
    """Wrapped, the SDK's handler gets only clean, canonical commands: what escapes is the hard link and
    the race, which the report says wrap mode cannot fix."""
    code, output, report = attack(
        tmp_path, "sandbox.attack.targets:wrapped_sdk", "--race-seconds", RACE, "--families", f"{SINGLE_CALL}"
    )
    assert code == 1
    escaped = {name for name, counts in report["families"].items() if counts.get("escape")}
    assert escaped <= {"hardlink"}, escaped
    assert report["totals"]["crash"] == 0 and report["totals"]["disclosure"] == 0
    assert report["wrap_mode"] and "wrap mode: the sandbox checks every command" in output


def test_reports_and_exit_codes(tmp_path: Path) -> None:
    """JSON and JUnit reports carry the counts; --strict fails on accepted attacks too."""
    xml = tmp_path / "a.xml"
    code, _, report = attack(tmp_path, "sandbox.attack.targets:sdk", "--families", "malformed", "--race-seconds", "0",
                             "--junit-xml", str(xml))  # fmt: skip
    assert code == 0 and report["totals"]["escape"] == 0 and report["totals"]["crash"] > 0  # crashes fail only --strict
    suite = ET.parse(xml).getroot()  # noqa: S314 - our own report
    assert suite.get("failures") == "0"
    code, _, report = attack(tmp_path, "sandbox.attack.targets:sdk", "--families", "malformed", "--race-seconds", "0",
                             "--strict", "--junit-xml", str(xml))  # fmt: skip
    assert code == 1 and not report["passed"]
    failures = [case for case in ET.parse(xml).getroot() if case.find("failure") is not None]  # noqa: S314
    assert failures and all(case.get("classname") == "attack.malformed" for case in failures)


def test_factory_mapping_elsewhere_is_refused(tmp_path: Path) -> None:
    code, output, _ = attack(tmp_path, f"{TARGETS}:elsewhere", "--race-seconds", "0")
    assert code == 2 and "maps /memories onto" in output and "not onto the root it was given" in output


def test_bad_factory_spec(tmp_path: Path) -> None:
    code, output, _ = attack(tmp_path, "no_such_module_x:factory", "--race-seconds", "0")
    assert code == 2 and "the factory failed" in output and "ModuleNotFoundError" in output


def test_hang_counted_and_worker_restarted(tmp_path: Path) -> None:
    code, _, report = attack(tmp_path, f"{TARGETS}:hangs_on_hardlink_view", "--families", "hardlink",
                                  "--race-seconds", "0", "--timeout", "2", "--strict")  # fmt: skip
    assert code == 1 and report["totals"]["hang"] == 2 and report["worker_restarts"] == 2
    assert report["families"]["hardlink"]["cases"] == 14 and report["totals"]["escape"] == 0


def test_crash_counted(tmp_path: Path) -> None:
    code, _, report = attack(tmp_path, f"{TARGETS}:crashes_on_delete", "--families", "dotdot", "--race-seconds", "0")
    assert code == 0 and report["commands"]["delete"]["crash"] == report["commands"]["delete"]["cases"] > 0
    assert report["examples"]["crash"][0]["why"].startswith("KeyError")


def test_async_handler(tmp_path: Path) -> None:
    code, output, report = attack(tmp_path, f"{TARGETS}:async_sandboxed", "--families", "dotdot,symlink,hardlink",
                                  "--race-seconds", "0", "--strict")  # fmt: skip
    assert code == 0, output
    assert report["cases"] == 7 * (28 + 15 + 2)
