"""``memory-sandbox attack --mcp``: the gate drives MCP servers over stdio. Ours passes --strict; a weak
one fails naming its escapes; the reference filesystem server (Node) is scored with its own mapping."""

from __future__ import annotations

import json
import os
import shutil
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from tests.integration.test_attack import RACE, SAMPLE
from tests.unit.test_cli import run

SCRIPT = shutil.which("memory-sandbox") or str(Path(sys.executable).parent / "memory-sandbox")
WEAK = Path(__file__).with_name("weak_mcp_server.py")
OURS = f"{SCRIPT} mcp --store file:{{root}} --audit-log {{scratch}}/audit.jsonl"
#: The weak server's five tools, in a user mapping: its paths are relative to its root, it has no insert.
WEAK_MAP = """
memories = ""
[[view]]
tool = "read"
arguments = { path = "{path}" }
[[create]]
tool = "write"
arguments = { path = "{path}", text = "{file_text}" }
[[str_replace]]
tool = "replace"
arguments = { path = "{path}", old = "{old_str}", new = "{new_str}" }
[[delete]]
tool = "remove"
arguments = { path = "{path}" }
[[rename]]
tool = "move"
arguments = { source = "{old_path}", target = "{new_path}" }
"""


def attack(tmp_path: Path, server: str, *options: str) -> tuple[int, str, dict[str, Any]]:
    out = tmp_path / "report.json"
    result = run("attack", "--mcp", server, "--json", str(out), *options, cwd=tmp_path, timeout=1200)
    report = json.loads(out.read_text()) if out.exists() else {}
    return result.returncode, result.stdout + result.stderr, report


@pytest.mark.slow
def test_our_server_passes_strict(tmp_path: Path) -> None:
    """memory-sandbox mcp over stdio: a family of each kind, the race, --strict: nothing, and nothing
    unsupported (the whole gate runs against the same server in .ci/run)."""
    xml = tmp_path / "attack.xml"
    code, output, report = attack(
        tmp_path, OURS, "--strict", "--race-seconds", RACE, "--junit-xml", str(xml), "--families", f"{SAMPLE},race"
    )
    assert code == 0, output
    assert report["handler_type"].startswith("MCP server memory-sandbox") and report["passed"]
    assert report["cases"] >= 2_000 and all(count == 0 for count in report["totals"].values()), report["totals"]
    # Every command has its tool; only malformed input no tool call can carry (not an object, bytes) is not sent.
    assert report["unsupported"]["commands"] == [] and report["unsupported"]["cases"] < 20
    assert report["families"]["malformed"]["unsupported"] == report["unsupported"]["cases"]
    assert report["race"]["calls"] > 100 and not report["race"]["escaped"]
    suite = ET.parse(xml).getroot()  # noqa: S314 - our own report
    assert suite.get("failures") == "0" and int(suite.get("tests", "0")) > 40


def test_weak_server_fails_naming_its_escapes(tmp_path: Path) -> None:
    """Naive path joins: exit 1, the escape families named in text, JSON, JUnit and SARIF (which points at the
    server's script); insert is unsupported."""
    mapping = tmp_path / "weak.toml"
    mapping.write_text(WEAK_MAP)
    xml, sarif = tmp_path / "attack.xml", tmp_path / "attack.sarif"
    (tmp_path / "servers").mkdir()
    shutil.copy(WEAK, tmp_path / "servers" / WEAK.name)  # a relative path in the command is the gate's folder's
    code, output, report = attack(
        tmp_path, f"{sys.executable} servers/{WEAK.name} {{root}}", "--mcp-map", str(mapping),
        "--families", "dotdot,symlink,hardlink,race", "--race-seconds", RACE, "--junit-xml", str(xml),
        "--sarif", str(sarif),
    )  # fmt: skip
    assert code == 1, output
    escaped = {family for family, counts in report["families"].items() if counts.get("escape")}
    assert {"dotdot", "symlink", "hardlink"} <= escaped, report["families"]
    assert report["race"]["escaped"]
    assert "FAIL:" in output and "escape     dotdot/" in output and "ESCAPED" in output
    assert report["unsupported"]["commands"] == ["insert"]
    assert report["commands"]["insert"]["unsupported"] == report["commands"]["insert"]["cases"] > 0
    assert report["commands"]["insert"].get("escape", 0) == 0  # not run, so neither failed nor passed
    cases = list(ET.parse(xml).getroot())  # noqa: S314 - our own report
    failed = {case.get("classname") for case in cases if case.find("failure") is not None}
    assert {"attack.dotdot", "attack.symlink", "attack.race"} <= failed
    skipped = [case for case in cases if case.find("skipped") is not None]
    assert skipped and all(case.get("name") == "insert" for case in skipped)
    (results,) = [run["results"] for run in json.loads(sarif.read_text())["runs"]]
    assert len(results) == report["totals"]["escape"]  # not --strict: escapes only, no unsupported case
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
    assert uris == {f"servers/{WEAK.name}"}


def test_mapping_and_command_mistakes(tmp_path: Path) -> None:
    """A command without {root}, a server no built-in mapping knows, or a mapping that puts /memories
    elsewhere: the server cannot be attacked (exit 2)."""
    code, output, _ = attack(tmp_path, f"{sys.executable} {WEAK}")
    assert code == 2 and "{root}" in output
    code, output, _ = attack(tmp_path, f"{sys.executable} {WEAK} {{root}}", "--race-seconds", "0")
    assert code == 2 and "no built-in mapping for the server 'weak-files'" in output and "Traceback" not in output
    mapping = tmp_path / "wrong.toml"
    mapping.write_text(WEAK_MAP.replace('memories = ""', 'memories = "/memories"'))  # it would write in root/memories
    code, output, _ = attack(tmp_path, f"{sys.executable} {WEAK} {{root}}", "--mcp-map", str(mapping))
    assert code == 2 and "not onto the root it was given" in output and "the mapping's `memories`" in output


def _reference_server() -> Path | None:
    folder = Path(os.environ.get("MEMORY_SANDBOX_MCP_REFERENCE", Path.home() / ".cache/memory-sandbox/mcp-reference"))
    server = folder / "node_modules/.bin/mcp-server-filesystem"
    if shutil.which("node") and server.exists():
        return server
    if os.environ.get("CI"):
        pytest.fail("CI installs the reference MCP server with .ci/install-mcp-reference; it is missing")
    pytest.skip("the reference MCP filesystem server is not installed (.ci/install-mcp-reference)")


@pytest.mark.slow
def test_reference_filesystem_server_scored(tmp_path: Path) -> None:
    """The reference server, unmodified, allowed only the attacked folder: chosen mapping by its name, delete and
    insert unsupported, and the planted links and the swap race escape it."""
    server = _reference_server()
    code, output, report = attack(
        tmp_path, f"{server} {{root}}", "--families", "symlink,dotdot,trailing_dots_spaces,race", "--race-seconds", RACE
    )
    assert code == 1, output
    assert report["handler_type"].startswith("MCP server secure-filesystem-server")
    assert report["unsupported"]["commands"] == ["insert", "delete"]
    assert report["families"]["symlink"]["escape"] > 0 and report["race"]["escaped"]
    assert report["totals"]["disclosure"] > 0  # its answers name the allowed folder's host path


def test_typescript_sdk_memory_tool_scored(tmp_path: Path) -> None:
    """The TypeScript SDK's memory tool, served over MCP by ts_memory_mcp_server.cjs: the planted hard link
    lets it write outside its folder."""
    packages = _reference_server().parents[2]  # type: ignore[union-attr]  # skipped or failed when None
    wrapper = Path(__file__).with_name("ts_memory_mcp_server.cjs")
    code, output, report = attack(
        tmp_path, f"{shutil.which('node')} {wrapper} {{root}} {packages}", "--mcp-map", "memory-sandbox",
        "--families", "hardlink", "--race-seconds", "0",
    )  # fmt: skip
    assert code == 1, output
    assert report["handler_type"].startswith("MCP server anthropic-ts-memory-tool")
    assert report["families"]["hardlink"]["escape"] > 0 and report["unsupported"]["cases"] == 0


def _processes_naming(text: str) -> list[str]:
    """Command lines of running processes that contain ``text``."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if text in command:
            found.append(command)
    return found


@pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads /proc; the server is killed by PR_SET_PDEATHSIG"
)
def test_hung_server_counted_and_killed(tmp_path: Path) -> None:
    """A server stuck in a tool call is a hang; the worker is restarted and the stuck server dies with it.
    Only the family's two str_replace calls (new text PWNED) hang: each hang costs the timeout and a restart."""
    mapping = tmp_path / "weak.toml"
    mapping.write_text(WEAK_MAP)
    marker = f"hang-marker-{tmp_path.name}"
    code, output, report = attack(
        tmp_path, f"{sys.executable} {WEAK} {{root}} --hang-on PWNED {marker}", "--mcp-map", str(mapping),
        "--families", "hardlink", "--race-seconds", "0", "--timeout", "2", "--strict",
    )  # fmt: skip
    assert code == 1, output
    hung = report["totals"]["hang"]
    assert hung >= 2 and report["worker_restarts"] == hung  # more only if the machine is slow past 2 s
    assert _processes_naming(marker) == []
