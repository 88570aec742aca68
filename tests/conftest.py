"""Shared test configuration: hypothesis profiles, the async backend, a PostgreSQL server."""

from __future__ import annotations

import os
import sys

# CI runs the secret engine's tests once more as on a machine hyperscan has no wheels for: there,
# importing it fails, and here it fails the same way (set before anything imports the engine).
if os.environ.get("MEMORY_SANDBOX_WITHOUT_HYPERSCAN") == "1":
    sys.modules["hyperscan"] = None  # type: ignore[assignment]
from collections.abc import Iterator
from typing import Final

import pytest
from hypothesis import HealthCheck, settings

from bench.pg_server import NoServer, fresh_schema, server

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
    try:
        with server(os.environ.get(PG_DSN_ENV)) as dsn:
            yield dsn
    except NoServer as exc:
        reason = f"no PostgreSQL server (set {PG_DSN_ENV}): {exc}"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)


@pytest.fixture
def pg_dsn(pg_server: str) -> Iterator[str]:
    """A DSN whose tables live in a fresh schema of their own, dropped after the test."""
    with fresh_schema(pg_server, "test") as dsn:
        yield dsn
