"""A PostgreSQL server for benchmarks and tests: a throwaway cluster, and fresh schemas in it."""

from __future__ import annotations

import shutil
import subprocess  # starts the throwaway cluster with .ci/postgres
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import psycopg.conninfo

__all__ = ["NoServer", "fresh_schema", "server", "throwaway_server"]

SCRIPT = Path(__file__).resolve().parent.parent / ".ci" / "postgres"


class NoServer(RuntimeError):
    """The cluster did not start (no server binaries, or they failed)."""


@contextmanager
def throwaway_server() -> Iterator[str]:
    """Start a cluster on 127.0.0.1 with .ci/postgres; yield its DSN; stop and remove it after."""
    folder = tempfile.mkdtemp(prefix="memory-sandbox-pg-")
    started = subprocess.run(  # noqa: S603 - our own script, fixed arguments
        [SCRIPT, "start", folder], capture_output=True, text=True, timeout=180, check=False
    )
    if started.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        raise NoServer(started.stderr.strip()[-300:])
    try:
        yield started.stdout.strip()
    finally:
        subprocess.run([SCRIPT, "stop", folder], capture_output=True, timeout=120, check=False)  # noqa: S603 - as above
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def server(dsn: str | None) -> Iterator[str]:
    """The server ``dsn`` names, else a throwaway cluster (NoServer if none starts)."""
    if dsn:
        yield dsn
        return
    with throwaway_server() as started:
        yield started


@contextmanager
def fresh_schema(dsn: str, prefix: str = "run") -> Iterator[str]:
    """A DSN whose tables live in a new schema of their own, dropped afterwards."""
    schema = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(dsn, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    try:
        yield psycopg.conninfo.make_conninfo(dsn, options=f"-c search_path={schema}")
    finally:
        with psycopg.connect(dsn, autocommit=True) as connection:
            connection.execute(f"DROP SCHEMA {schema} CASCADE")
