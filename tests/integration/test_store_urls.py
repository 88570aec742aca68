"""Stores chosen by URL in the CLI: the same replay, expire and purge on a folder, a SQLite
file and a PostgreSQL database; passwords never printed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sandbox.paths import canonicalize
from sandbox.storage.url import Stores, open_stores, shown_url
from tests.unit.test_cli import run

SESSION = (
    '{"input": {"command": "create", "path": "/memories/a.md", "file_text": "x"}, "scope": "alice"}\n'
    '{"input": {"command": "create", "path": "/memories/b.md", "file_text": "yy"}, "scope": "bob"}\n'
    '{"input": {"command": "view", "path": "/memories/../../etc/passwd"}, "scope": "bob"}\n'
)


@pytest.fixture(params=["file", "sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "file":
        return f"file://{tmp_path}/base"
    if request.param == "sqlite":
        return f"sqlite://{tmp_path}/memory.db"
    return str(request.getfixturevalue("pg_dsn_url"))


def _exists(url: str, scope: str, path: str) -> bool:
    with open_stores(url) as stores:
        return stores.storage(scope).stat(canonicalize(path)) is not None


def test_replay_expire_purge(store_url: str, tmp_path: Path) -> None:
    """The CLI's store commands behave alike on every kind of store."""
    policy = tmp_path / "p.toml"
    policy.write_text(
        f'schema_version = 1\nid = "p"\nrevision = 1\n[retention]\nttl_days = 1\n[audit]\nkey_file = "{tmp_path}/k.key"\n'
    )
    session = tmp_path / "s.jsonl"
    session.write_text(SESSION)
    result = run("replay", str(session), "--store", store_url, "--create", "--policy", str(policy), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "3 calls: 2 allowed, 1 denied" in result.stdout
    assert result.stdout.count("audit") >= 2 and "TAMPERED" not in result.stdout
    if ":***@" in shown_url(store_url):
        password = store_url.split(":")[2].split("@", maxsplit=1)[0]
        assert password not in result.stdout + result.stderr
    assert _exists(store_url, "alice", "/memories/a.md") and _exists(store_url, "bob", "/memories/b.md")

    expired = run("expire", "--store", store_url, "--scope", "alice", "--policy", str(policy), "--now", "2099-01-01")
    assert expired.returncode == 0 and "expired /memories/a.md" in expired.stdout, expired.stderr
    assert not _exists(store_url, "alice", "/memories/a.md") and _exists(store_url, "bob", "/memories/b.md")

    purged = run("purge", "--store", store_url, "--scope", "bob", "--yes", "--policy", str(policy))
    assert purged.returncode == 0 and "purged scope 'bob'" in purged.stdout, purged.stderr
    with open_stores(store_url) as stores:
        assert stores.storage("bob").usage().files == 0
        assert stores.storage("bob").stat(canonicalize("/memories/b.md")) is None


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://app:s3cret@db:5432/mem", "postgresql://app:***@db:5432/mem"),
        ("postgresql://app@db/mem", "postgresql://app@db/mem"),
        ("file:///srv/memory", "file:///srv/memory"),
    ],
)
def test_shown_url_hides_passwords(url: str, shown: str) -> None:
    assert shown_url(url) == shown


def test_unknown_scheme_and_memory(tmp_path: Path) -> None:
    """memory: gives an adapter per scope; an unknown scheme is refused by name."""
    stores: Stores = open_stores("memory:")
    make: Callable[[str], object] = stores.storage
    assert make("a") is make("a") and make("a") is not make("b")
    with pytest.raises(Exception, match="unsupported store URL scheme 'ftp'"):
        open_stores("ftp://x")
