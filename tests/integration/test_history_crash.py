"""Versions of the folder store survive a writer killed at any file-system step.

A child edits one file again and again, reporting each acknowledged call on a pipe, and is
killed just before its n-th file-system change (counted, not timed: the same seed kills at the
same instant however busy the machine is). Afterwards every acknowledged edit has its version,
a record the kill tore is cut off by the next writer, and rolling the session back restores the
file as it was before the session.
"""

from __future__ import annotations

import os
import random
import signal
from pathlib import Path

import pytest

from sandbox import Sandbox, load_policy
from sandbox.decision import CallContext, NullAuditSink
from sandbox.history import Shelf
from sandbox.paths import canonicalize
from sandbox.policy import HistorySection
from sandbox.rollback import Selection, run_rollback
from sandbox.storage import LocalStorage
from tests.integration.test_local_processes import _die_at_step

PATH = "/memories/notes.md"
FIRST = "line 0\n"
SESSION = CallContext(session_id="killed")
KILL_POINTS = 40
# Every version stays (none is evicted), so a missing one can only have been lost.
POLICY = load_policy("default").model_copy(update={"history": HistorySection(keep_versions=1000)})


def _editor(root: Path, report: int) -> None:
    with Sandbox(policy=POLICY, storage=LocalStorage(root)) as sandbox:
        for n in range(1, 60):
            call = {"command": "insert", "path": PATH, "insert_line": n, "insert_text": f"line {n}"}
            result = sandbox.execute(call, SESSION)
            if not result.is_error:
                os.write(report, f"{n}\n".encode())


def _acknowledged(read_end: int) -> list[int]:
    data = b""
    while chunk := os.read(read_end, 65536):
        data += chunk
    return [int(line) for line in data.split()]


@pytest.mark.slow
def test_every_acknowledged_write_keeps_its_version(tmp_path: Path) -> None:
    rng = random.Random(2026)
    for point in range(KILL_POINTS):
        root = tmp_path / f"store{point}"
        with Sandbox(policy=POLICY, storage=LocalStorage(root)) as setup:
            assert not setup.execute({"command": "create", "path": PATH, "file_text": FIRST}).is_error
        read_end, write_end = os.pipe()
        step = rng.randrange(1, 400)
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child never returns
            try:
                os.close(read_end)
                _die_at_step(step)
                _editor(root, write_end)
            finally:
                os._exit(0)
        os.close(write_end)
        _, status = os.waitpid(pid, 0)
        acked = _acknowledged(read_end)
        os.close(read_end)
        assert os.WIFSIGNALED(status), f"editor {point} was not killed"
        with LocalStorage(root) as store, store.writing() as writer:
            assert isinstance(writer, Shelf)
            kept = [v for v in writer.shelved() if v.session == "killed"]
            contents = {v.content for v in kept}
            for n in acked:
                before = "".join(f"line {k}\n" for k in range(n)).encode()
                assert before in contents, f"kill point {point}: the version before acknowledged edit {n} is lost"
        with Sandbox(policy=POLICY, storage=LocalStorage(root)) as sandbox:
            # The next writer cuts off a torn record and goes on; the session can be undone.
            assert not sandbox.execute({"command": "create", "path": "/memories/after.md", "file_text": "x"}).is_error
            report = run_rollback(sandbox, Selection(session="killed"))
            assert report.ok, report.error
            storage = LocalStorage(root)
            assert storage.read(canonicalize(PATH)) == FIRST.encode()
            storage.close()


def _sql_editor(kind: str, where: str, session: str, report: int) -> None:
    from sandbox.storage.postgres import PostgresDatabase  # noqa: PLC0415 - in the child only
    from sandbox.storage.sqlite import SQLiteDatabase  # noqa: PLC0415 - in the child only

    database = SQLiteDatabase(where) if kind == "sqlite" else PostgresDatabase(where, max_size=1)
    with database, Sandbox(policy=POLICY, storage=database.storage("killed"), audit=NullAuditSink()) as sandbox:
        for n in range(1, 400):
            call = {"command": "insert", "path": PATH, "insert_line": n, "insert_text": f"line {n}"}
            if not sandbox.execute(call, CallContext(session_id=session)).is_error:
                os.write(report, f"{n}\n".encode())


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_killed_database_writer_loses_no_acknowledged_version(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """The versions of the database stores are written in the change's transaction: a writer killed
    (SIGKILL, after a number of acknowledged calls counted by the parent) loses none of them."""
    from sandbox.storage.postgres import PostgresDatabase  # noqa: PLC0415 - the database stores here
    from sandbox.storage.sqlite import SQLiteDatabase  # noqa: PLC0415 - the database stores here

    where = str(tmp_path / "m.db") if kind == "sqlite" else request.getfixturevalue("pg_dsn")

    def opened() -> SQLiteDatabase | PostgresDatabase:
        return SQLiteDatabase(where) if kind == "sqlite" else PostgresDatabase(where, max_size=1)

    with opened() as database, Sandbox(policy=POLICY, storage=database.storage("killed"), audit=NullAuditSink()) as box:
        assert not box.execute({"command": "create", "path": PATH, "file_text": FIRST}).is_error
    for stop_after in (5, 29):
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child never returns
            try:
                os.close(read_end)
                _sql_editor(kind, where, f"killed-{stop_after}", write_end)
            finally:
                os._exit(0)
        os.close(write_end)
        seen = b""
        while seen.count(b"\n") < stop_after:
            chunk = os.read(read_end, 4096)
            assert chunk, "the editor stopped before it was killed"
            seen += chunk
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        seen += _acknowledged_bytes(read_end)
        os.close(read_end)
        acked = [int(line) for line in seen.split()]
        with opened() as database, database.storage("killed").writing() as writer:
            assert isinstance(writer, Shelf)
            contents = {v.content for v in writer.shelved() if v.session == f"killed-{stop_after}"}
        assert len(acked) >= stop_after
        for n in acked:
            assert "".join(f"line {k}\n" for k in range(n)).encode() in contents, f"version before edit {n} lost"
        with (
            opened() as database,
            Sandbox(policy=POLICY, storage=database.storage("killed"), audit=NullAuditSink()) as box,
        ):
            assert run_rollback(box, Selection(session=f"killed-{stop_after}")).ok
            assert database.storage("killed").read(canonicalize(PATH)) == FIRST.encode()


def _acknowledged_bytes(read_end: int) -> bytes:
    data = b""
    while chunk := os.read(read_end, 65536):
        data += chunk
    return data
