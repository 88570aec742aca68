"""CLI start-up: median wall time of `memory-sandbox --help` and of commands that never talk to Claude.

python bench/cli_startup.py [--runs 5]

Each command runs as a fresh process of the installed console script, as a user or a CI
job starts it; the target for `--help` is under 0.3 s.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def script() -> str:
    return shutil.which("memory-sandbox") or str(Path(sys.executable).parent / "memory-sandbox")


def timed(argv: list[str], cwd: Path, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([script(), *argv], cwd=cwd, capture_output=True, check=False)  # noqa: S603 - fixed argv
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory(prefix="memory-sandbox-bench-") as folder:
        cwd = Path(folder)
        replay = [script(), "replay", str(EXAMPLES / "prompt-injection.jsonl")]
        subprocess.run(replay, cwd=cwd, check=True, capture_output=True)  # noqa: S603 - fixed argv
        commands = {
            "--help": ["--help"],
            "audit verify": ["audit", "verify", "memory.audit.jsonl"],
            "policy lint": ["policy", "lint", "nonexistent.toml"],
            "attack --help": ["attack", "--help"],
        }
        print(f"median of {runs} runs, {sys.platform}, Python {sys.version.split()[0]}")
        for name, argv in commands.items():
            print(f"  memory-sandbox {name:<14} {timed(argv, cwd, runs):6.3f} s")


if __name__ == "__main__":
    main()
