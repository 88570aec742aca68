"""The attack gate's figures for MCP memory and file servers, as a dated Markdown table.

Runs ``memory-sandbox attack --mcp`` (every family, a swap race) against, one after the other:
``memory-sandbox mcp`` (ours), the reference filesystem server
``@modelcontextprotocol/server-filesystem`` and the Anthropic TypeScript SDK's memory tool served
over MCP by ``tests/integration/ts_memory_mcp_server.cjs``. The npm packages are the ones
``.ci/install-mcp-reference`` installs; servers that need Node are left out where it is missing.

    .ci/install-mcp-reference            # once: prints the packages' folder
    python bench/mcp_attack.py [--race-seconds 5] [--packages FOLDER]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SCRIPT = shutil.which("memory-sandbox") or str(Path(sys.executable).parent / "memory-sandbox")
DEFAULT_PACKAGES = Path(
    os.environ.get("MEMORY_SANDBOX_MCP_REFERENCE", Path.home() / ".cache/memory-sandbox/mcp-reference")
)


def targets(packages: Path) -> list[tuple[str, str, list[str]]]:
    """(title, --mcp command, extra options) of every server that can run here."""
    found = [
        (
            "memory-sandbox mcp (default policy)",
            f"{SCRIPT} mcp --store file:{{root}} --audit-log {{scratch}}/a.jsonl",
            [],
        )
    ]
    node = shutil.which("node")
    reference = packages / "node_modules/.bin/mcp-server-filesystem"
    if node and reference.exists():
        found.append(("@modelcontextprotocol/server-filesystem 2026.8.31", f"{reference} {{root}}", []))
        wrapper = REPO / "tests/integration/ts_memory_mcp_server.cjs"
        found.append(
            ("@anthropic-ai/sdk 1.14.0 memory tool (over MCP)", f"{node} {wrapper} {{root}} {packages}",
             ["--mcp-map", "memory-sandbox"])
        )  # fmt: skip
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--race-seconds", default="5")
    parser.add_argument("--packages", type=Path, default=DEFAULT_PACKAGES)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for title, command, extra in targets(args.packages):
            out = Path(folder) / "report.json"
            argv = [SCRIPT, "attack", "--mcp", command, "--race-seconds", args.race_seconds, "--json", str(out), *extra]
            subprocess.run(argv, cwd=folder, capture_output=True, check=False)  # noqa: S603 - fixed argv
            report = json.loads(out.read_text())
            totals, race = report["totals"], report["race"]
            # The worker keeps the first 20 answers that showed a canary; every change outside is kept.
            shown = (
                f"{len(race['leaks'])}{'+' if len(race['leaks']) >= 20 else ''} answers, {len(race['outside'])} changes"
            )
            race_cell = f"ESCAPED ({shown})" if race["escaped"] else "no escape"
            lacking = ", ".join(report["unsupported"]["commands"]) or "-"
            rows.append(
                f"| {title} | {report['cases']:,} | {totals['escape'] - (1 if race['escaped'] else 0):,} "
                f"| {race_cell} in {race['calls']:,} calls | {totals['accepted']:,} | {totals['crash']:,} "
                f"| {totals['hang']:,} | {totals['disclosure']:,} | {lacking} | {report['unsupported']['cases']:,} |"
            )
    print(f"Measured {datetime.date.today().isoformat()} with `python bench/mcp_attack.py --race-seconds "
          f"{args.race_seconds}` (Python {sys.version.split()[0]}, {os.cpu_count()} CPUs).\n")  # fmt: skip
    print("| server | cases | escapes | swap race | accepted | crashes | hangs | host-path disclosures "
          "| unsupported commands | cases not run |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|---:|")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
