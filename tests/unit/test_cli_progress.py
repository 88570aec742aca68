"""Long runs show a progress bar on a terminal (stderr), and nothing of it in a pipe."""

from __future__ import annotations

import io
import os
import pty
import shutil
import subprocess
import sys
from pathlib import Path

from sandbox.cli.progress import progress_bar
from tests.unit.test_cli import run

POLICY = 'schema_version = 1\nid = "p"\nrevision = 1\n[retention]\nttl_days = 1\n'


def on_terminal(*args: str) -> tuple[int, str, str]:
    """Run the command with a terminal as its stderr (stdout a pipe): exit code, stdout, the terminal's text."""
    script = shutil.which("memory-sandbox") or str(Path(sys.executable).parent / "memory-sandbox")
    master, slave = pty.openpty()
    try:
        process = subprocess.Popen(  # noqa: S603 - fixed argv
            [script, *args], stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL, text=True
        )
        os.close(slave)
        slave = -1
        shown = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the terminal closed with the process
                break
            if not chunk:
                break
            shown += chunk
        stdout = process.stdout.read() if process.stdout else ""
        return process.wait(timeout=60), stdout, shown.decode(errors="replace")
    finally:
        os.close(master)
        if slave >= 0:
            os.close(slave)


def fill(store: Path, scope: str, files: int) -> None:
    """Files in a scope of a folder of scopes (``store/scopes/<scope>``), written by another tool."""
    for index in range(files):
        (store / "scopes" / scope / f"d{index % 3}").mkdir(parents=True, exist_ok=True)
        (store / "scopes" / scope / f"d{index % 3}" / f"f{index}.md").write_text("x\n")


def test_expire_and_purge_draw_a_bar_on_a_terminal(tmp_path: Path) -> None:
    (tmp_path / "p.toml").write_text(POLICY)
    fill(tmp_path / "base", "alice", 30)
    fill(tmp_path / "base", "bob", 30)
    store = f"file://{tmp_path}/base"
    code, stdout, shown = on_terminal(
        "expire", "--store", store, "--scope", "alice", "--policy", str(tmp_path / "p.toml"), "--now", "2099-01-01"
    )
    assert code == 0 and "30 files examined, 30 expired" in stdout
    assert "expiring [" in shown and "30/30" in shown and "expiring" not in stdout
    code, stdout, shown = on_terminal("purge", "--store", store, "--scope", "bob", "--yes")
    assert code == 0 and "erasing [" in shown and "3/3" in shown and "erasing" not in stdout


def test_no_bar_in_a_pipe(tmp_path: Path) -> None:
    (tmp_path / "p.toml").write_text(POLICY)
    fill(tmp_path / "base", "alice", 5)
    store = f"file://{tmp_path}/base"
    result = run(
        "expire", "--store", store, "--scope", "alice", "--policy", str(tmp_path / "p.toml"), "--now", "2099-01-01"
    )
    assert result.returncode == 0 and result.stderr == ""
    result = run("purge", "--store", store, "--scope", "alice", "--yes")
    assert result.returncode == 0 and result.stderr == ""


def test_db_migrate_draws_a_bar_on_a_terminal(pg_dsn: str) -> None:
    """A new database gets every migration, one step of the bar each; run again, there is nothing to draw."""
    code, stdout, shown = on_terminal("db", "migrate", "--dsn", pg_dsn)
    assert code == 0 and stdout.startswith("applied ") and "migrating [" in shown, (stdout, shown)
    code, stdout, shown = on_terminal("db", "migrate", "--dsn", pg_dsn)
    assert code == 0 and "up to date" in stdout and "migrating" not in shown


def test_the_bar_redraws_in_place_and_ends_its_line() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    bar = progress_bar("working", terminal)
    assert bar is not None and progress_bar("working", io.StringIO()) is None
    bar(1, 2)
    bar(2, 2, "done")
    text = terminal.getvalue()
    assert text.startswith("\rworking [") and text.endswith("2/2 done\n") and text.count("\n") == 1
    stopped = progress_bar("stopping", terminal)
    assert stopped is not None
    stopped(1, 4)  # a first step always draws; later ones at most ten times a second
    stopped.close()
    stopped.close()
    assert terminal.getvalue().endswith("1/4\n") and terminal.getvalue().count("\n") == 2
