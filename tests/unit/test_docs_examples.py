"""The examples of README.md and docs/ that are marked ``<!-- run -->`` run as written.

A marked ``python`` block is executed (the blocks of one page share a namespace, in order);
in a marked ``console`` block every ``$ `` line is run by bash (a ``<<'END'`` here-document
takes the lines up to ``END``), must exit 0, and must print each line shown under it (``...``
standing for any text). Each page runs in a fresh folder holding the repository's ``examples/``
and ``policies/``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
MARK = "<!-- run -->"
BLOCK = re.compile(r"<!-- run -->\n```(python|console)\n(.*?)^```", re.S | re.M)
HEREDOC = re.compile(r"<<'(\w+)'")
BASH = shutil.which("bash") or "/bin/bash"


def blocks(page: Path) -> list[tuple[str, str]]:
    return [(kind, body) for kind, body in BLOCK.findall(page.read_text(encoding="utf-8"))]


def console_steps(body: str) -> list[tuple[str, list[str]]]:
    """The commands of a console block, each with the output lines shown under it."""
    steps: list[tuple[str, list[str]]] = []
    lines = iter(body.splitlines())
    for line in lines:
        if line.startswith("$ "):
            command = [line[2:]]
            heredoc = HEREDOC.search(line)
            if heredoc:
                for more in lines:
                    command.append(more)
                    if more == heredoc.group(1):
                        break
            steps.append(("\n".join(command), []))
        elif line.strip() and steps:
            steps[-1][1].append(line.strip())
    return steps


def run_console(body: str, folder: Path) -> None:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    env.pop("MEMORY_SANDBOX_POLICY", None)
    for command, shown in console_steps(body):
        done = subprocess.run(  # noqa: S603 - the docs' own commands, in a throwaway folder
            [BASH, "-c", command], cwd=folder, env=env, capture_output=True, text=True, timeout=300, check=False
        )
        assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
        for line in shown:
            assert shows(line, done.stdout + done.stderr), f"{command}: {line!r} not in\n{done.stdout}{done.stderr}"


def shows(line: str, output: str) -> bool:
    """The output holds the line shown; ``...`` in it stands for any text (a count, a key id)."""
    pattern = ".*?".join(re.escape(part) for part in line.split("..."))
    return re.search(pattern, output) is not None


def folder_for(tmp_path: Path) -> Path:
    for name in ("examples", "policies"):
        (tmp_path / name).symlink_to(ROOT / name, target_is_directory=True)
    return tmp_path


def test_every_mark_is_followed_by_a_block() -> None:
    """A mark with no runnable block after it would silently run nothing."""
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        assert text.count(MARK) == len(blocks(page)), page.name
    assert sum(len(blocks(page)) for page in PAGES) >= 10


@pytest.mark.parametrize("page", [p for p in PAGES if MARK in p.read_text(encoding="utf-8")], ids=lambda p: p.name)
def test_examples_run(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every marked example of the page runs, and prints what the page shows."""
    folder = folder_for(tmp_path)
    monkeypatch.chdir(folder)
    namespace: dict[str, object] = {"__name__": f"docs_{page.stem.replace('-', '_')}"}
    for kind, body in blocks(page):
        if kind == "python":
            exec(compile(body, str(page), "exec"), namespace)  # noqa: S102 - the docs' own example
        else:
            run_console(body, folder)
