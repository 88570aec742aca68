"""PostgresStorage against a real server: migrations, workers in several processes, lost
connections, row-level security, collation, and the errors a bad DSN gets."""

from __future__ import annotations

import contextlib
import os
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import psycopg.conninfo
import pytest

from sandbox import Sandbox
from sandbox.decision import NullAuditSink
from sandbox.errors import StorageError
from sandbox.paths import canonicalize
from sandbox.policy import parse_policy
from sandbox.storage import InMemoryStorage, Usage
from sandbox.storage.postgres import PostgresDatabase, PostgresStorage, describe_dsn
from tests.processes import FORK, run_together
from tests.unit.test_cli import run

A = canonicalize("/memories/a.md")


@pytest.fixture
def database(pg_dsn: str) -> Iterator[PostgresDatabase]:
    with PostgresDatabase(pg_dsn, max_size=4) as db:
        yield db


def _admin(dsn: str, statement: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    with psycopg.connect(dsn, autocommit=True) as connection:
        cursor = connection.execute(statement, params)
        return cursor.fetchall() if cursor.description is not None else []


def _kill_workers(dsn: str) -> int:
    """Terminate every memory-sandbox connection this process holds to the server (what a failover
    or restart does to it); connections of other test processes running beside it are left alone."""
    rows = _admin(
        dsn,
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
        " WHERE application_name = 'memory-sandbox' AND pid <> pg_backend_pid() AND client_port = ANY(%s)",
        (sorted(_own_tcp_ports()),),
    )
    return len(rows)


def _own_tcp_ports() -> set[int]:
    """The local ports of this process's TCP sockets (Linux: /proc)."""
    fds = Path("/proc/self/fd")
    inodes = set()
    for fd in fds.iterdir():
        with contextlib.suppress(OSError):
            target = os.readlink(fd)
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    ports = set()
    for table in ("/proc/self/net/tcp", "/proc/self/net/tcp6"):
        with contextlib.suppress(OSError), open(table, encoding="ascii") as lines:
            for line in list(lines)[1:]:
                fields = line.split()
                if fields[9] in inodes:
                    ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


class TestSchema:
    def test_migrations_applied_once_by_concurrent_workers(self, pg_dsn: str) -> None:
        """Workers starting together make the schema once; the others find it done."""
        applied: list[list[str]] = []
        errors: list[BaseException] = []

        def start() -> None:
            try:
                with PostgresDatabase(pg_dsn, max_size=1) as db:
                    applied.append(db.applied)
            except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
                errors.append(exc)

        threads = [threading.Thread(target=start) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not errors
        assert sorted(name for names in applied for name in names) == [
            "audit-1",
            "audit-2",
            "audit-3",
            "history-1",
            "row-security-1",
            "scope-state-1",
            "storage-1",
            "storage-2-folders",
            "storage-3-scope-keys",
            "storage-4-name-keys",
            "storage-5-versions",
        ]
        assert _admin(pg_dsn, "SELECT count(*) FROM memory_schema") == [(11,)]

    def test_newer_schema_refused(self, pg_dsn: str) -> None:
        """A database upgraded by a newer version is not written by an older one."""
        PostgresDatabase(pg_dsn).close()
        _admin(pg_dsn, "INSERT INTO memory_schema (name, applied) VALUES ('storage-9', 0)")
        with pytest.raises(StorageError) as caught:
            PostgresDatabase(pg_dsn)
        assert "newer schema" in caught.value.message

    def test_bad_dsn_errors_are_short_and_secret_free(self, pg_dsn: str) -> None:
        """A wrong password or a closed port gets a short error naming the database, never the password."""
        wrong = psycopg.conninfo.make_conninfo(pg_dsn, password="not-the-password-x9")
        with pytest.raises(StorageError) as caught:
            PostgresDatabase(wrong, timeout=3)
        assert "cannot be reached" in caught.value.message
        assert "not-the-password-x9" not in caught.value.message + repr(caught.value)
        closed = psycopg.conninfo.make_conninfo(pg_dsn, port="1", password="sekrit-pw")
        with pytest.raises(StorageError) as caught:
            PostgresDatabase(closed, timeout=2)
        assert "sekrit" not in str(caught.value) and "127.0.0.1:1" in caught.value.message
        assert describe_dsn("postgresql://u:pw@db.example:5433/mem") == "postgresql://db.example:5433/mem"


class TestData:
    def test_bytes_and_large_files(self, database: PostgresDatabase) -> None:
        """Any bytes, a NUL included, and megabytes come back exactly."""
        store = database.storage("s")
        blob = bytes(range(256)) * 8192  # 2 MiB
        store.create(A, blob)
        assert store.read(A) == blob
        assert store.usage() == Usage(len(blob), 1)

    def test_code_point_order_whatever_the_database_collation(self, pg_server: str) -> None:
        """Listings sort by code point, as every adapter does, even in a database whose default
        collation (ICU en-US here) sorts otherwise."""
        name = "collate_" + uuid.uuid4().hex[:10]
        _admin(
            pg_server,
            f"CREATE DATABASE {name} TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'",
        )
        try:
            dsn = psycopg.conninfo.make_conninfo(pg_server, dbname=name)
            assert _admin(dsn, "SELECT 'a' < 'B' COLLATE \"default\"") == [(True,)]  # not code point order
            names = ["b.md", "B.md", "a.md", "_x.md", "é.md", "Z.md", "a-b.md", "a.b.md", "ab.md", "a/c.md"]
            with PostgresDatabase(dsn) as db:
                pg = Sandbox(policy=_policy(case_collisions="allow"), storage=db.storage("s"), audit=NullAuditSink())
                ref = Sandbox(policy=_policy(case_collisions="allow"), storage=InMemoryStorage(), audit=NullAuditSink())
                for sandbox in (pg, ref):
                    for item in names:
                        assert not sandbox.execute(
                            {"command": "create", "path": f"/memories/{item}", "file_text": "x"}
                        ).is_error
                listing = pg.execute({"command": "view", "path": "/memories"}).content
                assert listing == ref.execute({"command": "view", "path": "/memories"}).content
                assert isinstance(listing, str) and listing.index("B.md") < listing.index("a.md")
        finally:
            _admin(pg_server, f"DROP DATABASE {name} WITH (FORCE)")


def _policy(**paths: str) -> Any:
    extra = "".join(f'{key} = "{value}"\n' for key, value in paths.items())
    return parse_policy(f'schema_version = 1\nid = "pg"\nrevision = 1\n[paths]\n{extra}', source="pg.toml")


class TestLostConnections:
    def test_retried_after_every_connection_was_killed(self, database: PostgresDatabase, pg_dsn: str) -> None:
        """A restart or failover between calls costs a retry, not an error."""
        store = database.storage("s")
        store.create(A, b"one")
        assert _kill_workers(pg_dsn) >= 1
        assert store.read(A) == b"one"
        store.create(canonicalize("/memories/b.md"), b"two")
        assert store.usage() == Usage(6, 2)

    def test_edit_interrupted_mid_transaction_applied_once(self, database: PostgresDatabase, pg_dsn: str) -> None:
        """A connection lost in the middle of an edit rolls it back; the retry applies it exactly once."""
        store = database.storage("s")
        store.create(A, b"line\n")
        calls = []

        def edit(content: bytes) -> bytes:
            calls.append(content)
            if len(calls) == 1:
                _kill_workers(pg_dsn)  # the edit's own transaction dies before it writes
            return content + b"added\n"

        assert store.modify(A, edit) == b"line\nadded\n"
        assert len(calls) == 2 and calls[1] == b"line\n"
        assert store.read(A) == b"line\nadded\n"
        assert store.usage() == Usage(11, 1)

    def test_retries_are_bounded(self, database: PostgresDatabase, pg_dsn: str) -> None:
        """When every try loses its connection the call ends in a short storage error; nothing changed.

        A try may also lose its connection before the edit runs (the kill of the try before can land
        on the connection the pool hands out next, depending on load), so the edit runs at least once
        and at most once per try."""
        store = database.storage("s")
        store.create(A, b"keep")
        calls = []

        def edit(content: bytes) -> bytes:
            calls.append(1)
            _kill_workers(pg_dsn)
            return b"changed"

        with pytest.raises(StorageError) as caught:
            store.modify(A, edit)
        assert caught.value.message == "Error: The memory store failed."
        assert 1 <= len(calls) <= PostgresStorage.attempts
        assert store.read(A) == b"keep" and store.usage() == Usage(4, 1)


class TestRowSecurity:
    @pytest.fixture
    def worker_dsn(self, pg_dsn: str) -> Iterator[str]:
        """A role with only row access to the storage tables, as fleet workers should have."""
        role, password = "worker_" + uuid.uuid4().hex[:10], uuid.uuid4().hex
        schema = _admin(pg_dsn, "SELECT current_schema()")[0][0]
        with PostgresDatabase(pg_dsn) as owner:
            owner.migrate(row_security=True)
        _admin(pg_dsn, f"CREATE ROLE {role} LOGIN PASSWORD '{password}'")
        _admin(pg_dsn, f"GRANT USAGE ON SCHEMA {schema} TO {role}")
        _admin(pg_dsn, f"GRANT SELECT, INSERT, UPDATE, DELETE ON memory_entries, memory_usage TO {role}")
        _admin(pg_dsn, f"GRANT SELECT ON memory_schema TO {role}")
        try:
            yield psycopg.conninfo.make_conninfo(pg_dsn, user=role, password=password)
        finally:
            _admin(pg_dsn, f"DROP OWNED BY {role}")
            _admin(pg_dsn, f"DROP ROLE {role}")

    def test_database_enforces_the_scope(self, worker_dsn: str) -> None:
        """With row security on, a worker sees only the scope its transaction names; a query
        that names none sees nothing, and an adapter that does not set it cannot write."""
        with PostgresDatabase(worker_dsn, row_security=True, migrate=False) as db:
            db.storage("alice").create(A, b"alice's")
            db.storage("bob").create(A, b"bob's")
            assert db.storage("alice").read(A) == b"alice's"
            assert db.storage("bob").usage() == Usage(5, 1)
        assert _admin(worker_dsn, "SELECT count(*) FROM memory_entries") == [(0,)]
        with psycopg.connect(worker_dsn) as connection:
            connection.execute("SELECT set_config('memory_sandbox.scope', 'bob', true)")
            assert connection.execute("SELECT content FROM memory_entries").fetchall() == [(b"bob's",)]
        with PostgresDatabase(worker_dsn, migrate=False) as unscoped, pytest.raises(StorageError):
            unscoped.storage("mallory").create(A, b"x")


def _editor(dsn: str, scope: str, worker: int, count: int, start: Any) -> None:
    with PostgresDatabase(dsn, max_size=1) as db:
        sandbox = Sandbox(policy=_policy(), storage=db.storage(scope), audit=NullAuditSink())
        start.wait()
        for i in range(count):
            result = sandbox.execute(
                {"command": "insert", "path": "/memories/shared.md", "insert_line": 0, "insert_text": f"w{worker}-{i}"}
            )
            assert not result.is_error, result.content


def _creator(dsn: str, scope: str, worker: int, count: int, refusals: Any, start: Any) -> None:  # noqa: PLR0917 - a process target
    policy = parse_policy('schema_version = 1\nid = "q"\nrevision = 1\n[quota]\nmax_files = 50\n', source="q.toml")
    with PostgresDatabase(dsn, max_size=1) as db:
        sandbox = Sandbox(policy=policy, storage=db.storage(scope), audit=NullAuditSink())
        start.wait()
        refused = 0
        for i in range(count):
            result = sandbox.execute({"command": "create", "path": f"/memories/w{worker}/{i}.md", "file_text": "x" * i})
            refused += result.decision.error_code == "quota_exceeded"
    with refusals.get_lock():
        refusals.value += refused


class TestWorkers:
    def test_concurrent_edits_never_lost(self, database: PostgresDatabase, pg_dsn: str) -> None:
        """4 processes inserting into one file at once: every line arrives, usage is exact."""
        database.storage("team").create(canonicalize("/memories/shared.md"), b"")
        run_together(_editor, [(pg_dsn, "team", w, 60) for w in range(4)])
        content = database.storage("team").read(canonicalize("/memories/shared.md"))
        lines = content.decode().splitlines()
        assert sorted(lines) == sorted(f"w{w}-{i}" for w in range(4) for i in range(60))
        assert database.storage("team").usage() == Usage(len(content), 1)

    def test_quota_atomic_across_processes(self, database: PostgresDatabase, pg_dsn: str) -> None:
        """4 processes creating 30 files each under a 50-file quota: exactly 50 exist, 70 refused."""
        refusals = FORK.Value("q", 0)
        run_together(_creator, [(pg_dsn, "q", w, 30, refusals) for w in range(4)])
        rows = _admin(pg_dsn, "SELECT count(*), sum(size) FROM memory_entries WHERE scope = 'q' AND NOT is_dir")
        assert rows[0][0] == 50 and refusals.value == 70
        # A worker whose first create met a full quota made no folder: count the folders that exist.
        folders = _admin(pg_dsn, "SELECT count(*) FROM memory_entries WHERE scope = 'q' AND is_dir")[0][0]
        assert 1 <= folders <= 4
        assert database.storage("q").usage() == Usage(int(rows[0][1]), 50, folders)


def test_db_migrate_cli_never_prints_the_password(pg_dsn: str) -> None:
    """`memory-sandbox db migrate` applies the schema once, then says it is up to date; the DSN's
    password (URL or key=value form) is never printed."""
    password = str(psycopg.conninfo.conninfo_to_dict(pg_dsn)["password"])
    first = run("db", "migrate", "--dsn", pg_dsn)
    assert (
        first.returncode == 0
        and "applied storage-1, storage-2-folders, storage-3-scope-keys, storage-4-name-keys, storage-5-versions,"
        " audit-1, row-security-1, scope-state-1, history-1"
        in first.stdout
    ), first.stderr
    again = run("db", "migrate", "--dsn", pg_dsn, "--row-security", "on")
    assert again.returncode == 0 and "is up to date" in again.stdout and "row security on" in again.stdout
    assert password not in first.stdout + first.stderr + again.stdout + again.stderr
