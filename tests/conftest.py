"""Shared test configuration: hypothesis profiles, the async backend, a PostgreSQL server."""

from __future__ import annotations

import os
import shutil
import subprocess  # nosec B404 - starts the test database server
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import psycopg
import pytest
from hypothesis import HealthCheck, settings

# `ci` is fast and runs in .ci/run; `fuzz` is long (HYPOTHESIS_PROFILE=fuzz pytest tests/fuzz);
# `dev` is lighter for quick local runs. The example database is never committed.
settings.register_profile("ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile("fuzz", max_examples=50_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

PG_DSN_ENV: Final = "MEMORY_SANDBOX_PG_DSN"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """A PostgreSQL server: $MEMORY_SANDBOX_PG_DSN, else a throwaway cluster started by .ci/postgres.

    Without a server the PostgreSQL tests skip on a developer's machine and fail in CI.
    """
    dsn = os.environ.get(PG_DSN_ENV)
    if dsn:
        yield dsn
        return
    folder = tempfile.mkdtemp(prefix="memory-sandbox-pg-")
    script = Path(__file__).resolve().parent.parent / ".ci" / "postgres"
    started = subprocess.run(  # noqa: S603 - our own script, fixed arguments
        [script, "start", folder], capture_output=True, text=True, timeout=180, check=False
    )
    if started.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        reason = f"no PostgreSQL server (set {PG_DSN_ENV}): {started.stderr.strip()[-300:]}"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    try:
        yield started.stdout.strip()
    finally:
        subprocess.run([script, "stop", folder], capture_output=True, timeout=120, check=False)  # noqa: S603 - as above
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def pg_dsn(pg_server: str) -> Iterator[str]:
    """A DSN whose tables live in a fresh schema of their own, dropped after the test."""
    schema = "test_" + uuid.uuid4().hex[:12]
    with psycopg.connect(pg_server, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")  # type: ignore[call-overload]  # a generated name
    try:
        yield psycopg.conninfo.make_conninfo(pg_server, options=f"-c search_path={schema}")
    finally:
        with psycopg.connect(pg_server, autocommit=True) as connection:
            connection.execute(f"DROP SCHEMA {schema} CASCADE")  # type: ignore[call-overload]  # a generated name
