"""``[audit] pseudonymize``: records name no path, field or content of a scope, and once the scope is
purged its secret is gone, while the log still verifies."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sandbox import Sandbox
from sandbox.audit.pseudonyms import PREFIX, Pseudonyms
from sandbox.audit.records import AuditError
from sandbox.policy import parse_policy
from sandbox.storage import LocalStorage
from sandbox.storage.base import StorageAdapter
from sandbox.storage.handler import HandlerStorage
from sandbox.storage.postgres import PostgresDatabase
from sandbox.storage.sqlite import SQLiteDatabase
from tests.unit.test_cli import run

POLICY = (
    'schema_version = 1\nid = "p"\nrevision = 1\n[paths]\ncase_collisions = "refuse"\n'
    '[[rules]]\nid = "ro"\neffect = "deny"\npaths = ["/memories/ro/**"]\nreason = "read only"\n'
    "[audit]\npseudonymize = true\n"
)
SECRET_NAME = "diagnosis-of-alice"
#: Words of paths that reach reasons in other forms: a case twin's name with spaces, a path that
#: is a substring of another, a long path cut short in a reason.
PRIVATE_WORDS = ("Smith", "HIV", "Quincy", "cancer")
CALLS = [
    {"command": "create", "path": f"/memories/{SECRET_NAME}.md", "file_text": "private words"},
    {"command": "str_replace", "path": f"/memories/{SECRET_NAME}.md", "old_str": "words", "new_str": "text"},
    {"command": "view", "path": f"/memories/{SECRET_NAME}.md"},
    {"command": "view", "path": f"/memories/{SECRET_NAME}-missing.md"},  # fails: the path is in the error
    {"command": "create", "path": f"/memories/{SECRET_NAME}.md", "file_text": "again"},  # exists
    {"command": "rename", "old_path": f"/memories/{SECRET_NAME}.md", "new_path": f"/memories/x/{SECRET_NAME}.txt"},
    {"command": "create", "path": "/memories/../etc/" + SECRET_NAME, "file_text": "x"},  # refused escape
    {"command": "view", "path": "/memories", SECRET_NAME: 1},  # an unknown field named by the model
    {"command": "create", "path": "/memories/John Smith HIV.md", "file_text": "x"},
    {"command": "create", "path": "/memories/john smith hiv.md", "file_text": "x"},  # a case twin: refused
    {"command": "create", "path": "/memories/JoSmithHIV.md", "file_text": "x"},
    {"command": "create", "path": "/memories/Jo", "file_text": "x"},
    {"command": "rename", "old_path": "/memories/Jo", "new_path": "/memories/josmithhiv.md"},  # twin of a longer one
    {"command": "create", "path": "/memories/ro/Quincy Jones diagnosed with cancer " + "x" * 220, "file_text": "x"},
]


def _records(log: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def _replay(storage: StorageAdapter) -> Sandbox:
    sandbox = Sandbox(policy=parse_policy(POLICY, source="p"), storage=storage, scope="alice")
    for call in CALLS:
        sandbox.execute(call)
    sandbox.close()
    return sandbox


def test_records_name_nothing_the_scope_stored(tmp_path: Path) -> None:
    """No record holds a path, a field name or an unkeyed digest of what was written; one path is one
    pseudonym throughout, so a reviewer still follows a file from call to call."""
    storage = LocalStorage.for_scope(tmp_path / "base", "alice")
    _replay(storage)
    log = Path(storage.audit_path)
    text = log.read_text()
    assert SECRET_NAME not in text
    for word in PRIVATE_WORDS:
        assert word.lower() not in text.lower(), word
    for written in (b"private words", b"private text", b"again"):
        assert hashlib.sha256(written).hexdigest() not in text
    calls = [record for record in _records(log) if record.get("kind") == "decision" or "paths" in record]
    shown = [path for record in calls for path in record.get("paths", [])]  # type: ignore[union-attr]
    assert shown and all(path.startswith(PREFIX) for path in shown)
    pseudonyms = Pseudonyms(storage.pseudonym_key())
    first = pseudonyms.path(f"/memories/{SECRET_NAME}.md")
    assert sum(path == first for path in shown) >= 6  # create, replace, view, exists, rename: intent and outcome
    assert run("audit", "verify", str(log)).returncode == 0


def test_purge_destroys_the_secret_and_the_log_still_verifies(tmp_path: Path) -> None:
    """After ``memory-sandbox purge`` the scope's secret no longer exists anywhere in the store, no
    record changed, and ``audit verify`` passes."""
    policy = tmp_path / "p.toml"
    policy.write_text(POLICY)
    storage = LocalStorage.for_scope(tmp_path / "base", "alice")
    key_file = Path(storage.root_path) / ".memory-sandbox" / "pseudonyms.key"
    _replay(storage)
    storage.close()
    assert key_file.stat().st_mode & 0o777 == 0o600
    log = Path(storage.audit_path)
    before = log.read_bytes()
    result = run("purge", "--store", f"file:{tmp_path / 'base'}", "--scope", "alice", "--yes", "--policy", str(policy))
    assert result.returncode == 0, result.stderr
    assert not key_file.exists() and not Path(storage.root_path).exists()
    after = log.read_bytes()
    assert after.startswith(before) and SECRET_NAME.encode() not in after
    verified = run("audit", "verify", str(log))
    assert verified.returncode == 0, verified.stdout + verified.stderr


@pytest.fixture(params=["sqlite", "postgres"])
def database_store(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[str], StorageAdapter]:
    if request.param == "sqlite":
        sqlite = SQLiteDatabase(tmp_path / "m.db")
        request.addfinalizer(sqlite.close)
        return sqlite.storage
    postgres = PostgresDatabase(request.getfixturevalue("pg_dsn"))
    request.addfinalizer(postgres.close)
    return postgres.storage


def test_database_stores_keep_one_secret_per_scope_until_erased(
    database_store: Callable[[str], StorageAdapter],
) -> None:
    """Every adapter of a scope reads the same secret, other scopes get their own, and erasing the scope
    deletes it (the next use makes a new one)."""
    alice, again, bob = database_store("alice"), database_store("alice"), database_store("bob")
    key = alice.pseudonym_key()  # type: ignore[attr-defined]
    assert len(key) == 32 and again.pseudonym_key() == key  # type: ignore[attr-defined]
    assert bob.pseudonym_key() != key  # type: ignore[attr-defined]
    alice.erase()  # type: ignore[attr-defined]
    assert database_store("alice").pseudonym_key() != key  # type: ignore[attr-defined]
    assert bob.pseudonym_key() != key  # type: ignore[attr-defined]


def test_a_store_without_a_secret_refuses(tmp_path: Path) -> None:
    """Wrap mode keeps no per-scope secret that an erasure could destroy: the policy is refused."""
    policy = parse_policy(POLICY.replace("[audit]\n", f'[audit]\nsink = "{tmp_path / "log.jsonl"}"\n'), source="p")
    with pytest.raises(AuditError, match="pseudonymize needs a store"):
        Sandbox(policy=policy, storage=HandlerStorage(lambda command: "ok"))
    assert not list(tmp_path.glob("log.jsonl.*witness*"))


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_purge_reaches_a_scope_the_model_emptied(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """A scope whose files were all deleted still has its secret (and usage, and rate bucket): purge
    must find it and erase them, not answer that there is no such scope."""
    policy = tmp_path / "p.toml"
    key = f'key_file = "{tmp_path / "audit.key"}"\n'  # a PostgreSQL chain needs one (every worker signs)
    policy.write_text(POLICY + key + "[quota]\nmax_operations_per_minute = 100\n")
    if kind == "sqlite":
        url = f"sqlite:{tmp_path / 'm.db'}"
        database: Any = SQLiteDatabase(tmp_path / "m.db")
    else:
        url = request.getfixturevalue("pg_dsn_url")
        database = PostgresDatabase(url)
    storage = database.storage("alice")
    sandbox = Sandbox(policy=parse_policy(policy.read_text(), source="p"), storage=storage, scope="alice")
    sandbox.execute({"command": "create", "path": "/memories/a.md", "file_text": "x"})
    sandbox.execute({"command": "delete", "path": "/memories/a.md"})
    sandbox.close()
    secret = storage.pseudonym_key()
    result = run("purge", "--store", url, "--scope", "alice", "--yes", "--policy", str(policy))
    assert result.returncode == 0, result.stderr
    assert not storage.exists()
    assert database.storage("alice").pseudonym_key() != secret  # the old secret is gone: a new one was made
    if kind == "postgres":
        with database.connection() as connection:
            assert connection.execute("SELECT count(*) FROM memory_rate WHERE scope = 'alice'").fetchone() == (0,)
    database.close()
