"""Fixtures the integration tests share."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from tests.unit.test_cli import EXAMPLES, run


@pytest.fixture(scope="module")
def replayed_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The audit log of the injection example replayed on the embedded default store."""
    folder = tmp_path_factory.mktemp("review")
    assert run("replay", str(EXAMPLES / "prompt-injection.jsonl"), cwd=folder).returncode == 0
    return folder / "memory.audit.jsonl"


@pytest.fixture
def pg_dsn_url(pg_server: str, pg_dsn: str) -> str:
    """The test schema's DSN as a postgresql:// URL (libpq options in the query string)."""
    params = psycopg.conninfo.conninfo_to_dict(pg_dsn)
    options = str(params["options"]).replace(" ", "%20").replace("=", "%3D")
    return (
        f"postgresql://{params['user']}:{params['password']}@{params['host']}:{params['port']}/{params['dbname']}"
        f"?options={options}"
    )
