"""A PostgreSQL witness written by an insert-only role: it receives every checkpoint, its role can
neither read, change nor delete what it wrote, a role that could is refused, and ``audit verify
--witness postgresql://...`` finds a tail cut from the log and its local witness alike."""

from __future__ import annotations

import secrets
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import psycopg.errors
import pytest

from sandbox import Sandbox, load_policy
from sandbox.audit import AuditLog, verify
from sandbox.storage import InMemoryStorage
from tests.unit.test_audit_witness import _cut_after_checkpoint, _write
from tests.unit.test_cli import run


@dataclass(frozen=True)
class Roles:
    admin: str
    writer: str
    reader: str
    writer_name: str


def _url(dsn: str, user: str, password: str) -> str:
    """The DSN as a postgresql:// URL for ``user`` (a policy names a database witness by URL)."""
    params = psycopg.conninfo.conninfo_to_dict(dsn)
    options = params.get("options")
    query = urllib.parse.urlencode({"options": options}, quote_via=urllib.parse.quote) if options else ""
    host, port, name = params.get("host", "127.0.0.1"), params.get("port", 5432), params["dbname"]
    return f"postgresql://{user}:{password}@{host}:{port}/{name}" + (f"?{query}" if query else "")


@pytest.fixture
def roles(pg_dsn: str) -> Iterator[Roles]:
    """A writer and a reader role that may log in and use the test's schema, and nothing else yet."""
    tag = secrets.token_hex(4)
    writer, reader, password = f"witness_writer_{tag}", f"witness_reader_{tag}", secrets.token_hex(12)
    params = psycopg.conninfo.conninfo_to_dict(pg_dsn)
    schema = str(params["options"]).rsplit("=", 1)[1]
    with psycopg.connect(pg_dsn, autocommit=True) as connection:
        for role in (writer, reader):
            connection.execute(f"CREATE ROLE {role} LOGIN PASSWORD '{password}'")
            connection.execute(f"GRANT USAGE ON SCHEMA {schema} TO {role}")
    admin = _url(pg_dsn, str(params["user"]), str(params["password"]))
    yield Roles(admin, _url(pg_dsn, writer, password), _url(pg_dsn, reader, password), writer)
    with psycopg.connect(pg_dsn, autocommit=True) as connection:
        connection.execute(f"DROP TABLE IF EXISTS {schema}.memory_witness")
        for role in (writer, reader):
            connection.execute(f"DROP OWNED BY {role}")
            connection.execute(f"DROP ROLE {role}")


def _setup(roles: Roles) -> None:
    done = run(
        "db", "witness-setup", "--dsn", roles.admin, "--writer", roles.writer_name, "--reader", _name(roles.reader)
    )
    assert done.returncode == 0, done.stderr
    assert "may only insert" in done.stdout and "password" not in done.stdout


def _name(url: str) -> str:
    return str(urllib.parse.urlsplit(url).username)


def test_a_tail_cut_with_the_local_witness_is_found_in_the_database(roles: Roles, tmp_path: Path) -> None:
    _setup(roles)
    log_path = tmp_path / "audit.jsonl"
    _write(AuditLog.open(log_path, checkpoint_every=10, witness=[roles.writer]), 30)
    before = verify(log_path, witness=[Path(f"{log_path}.witness"), roles.reader])
    assert before.ok and [count for _, count in before.witnesses] == [6, 6]
    _cut_after_checkpoint(log_path, 2)
    assert verify(log_path).ok  # the log and its own witness agree: the cut is invisible locally
    cli = run("audit", "verify", str(log_path), "--witness", roles.reader)
    assert cli.returncode == 1 and "TAMPERED" in cli.stdout, cli.stdout + cli.stderr
    assert "missing from the log" in cli.stdout
    assert roles.reader.split(":")[2].split("@")[0] not in cli.stdout + cli.stderr  # no password shown


def test_the_writer_can_only_insert(roles: Roles, tmp_path: Path) -> None:
    """The writer's role cannot read, change or delete witnessed rows, nor make the table again."""
    _setup(roles)
    log_path = tmp_path / "audit.jsonl"
    _write(AuditLog.open(log_path, checkpoint_every=5, witness=[roles.writer]), 10)
    checkpoints = len(Path(f"{log_path}.witness").read_bytes().splitlines())
    with psycopg.connect(roles.writer, autocommit=True) as connection:
        for statement in (
            "SELECT line FROM memory_witness",
            "UPDATE memory_witness SET line = 'x'",
            "DELETE FROM memory_witness",
            "TRUNCATE memory_witness",
            "DROP TABLE memory_witness",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                connection.execute(statement)
    with psycopg.connect(roles.reader, autocommit=True) as connection:
        assert connection.execute("SELECT count(*) FROM memory_witness").fetchone() == (checkpoints,)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            connection.execute("DELETE FROM memory_witness")


#: Ways a writer role could still rewrite the witness; each must be refused. ``{w}`` is the writer,
#: ``{s}`` the witness's schema; the second statement undoes the first.
REWRITERS = {
    "table DELETE": ("GRANT DELETE ON memory_witness TO {w}", "REVOKE DELETE ON memory_witness FROM {w}"),
    "column UPDATE": (
        "GRANT UPDATE (line) ON memory_witness TO {w}",
        "REVOKE UPDATE (line) ON memory_witness FROM {w}",
    ),
    "schema owner": ("ALTER SCHEMA {s} OWNER TO {w}", "ALTER SCHEMA {s} OWNER TO CURRENT_USER"),
    "CREATE in a schema": ("GRANT CREATE ON SCHEMA {s} TO {w}", "REVOKE CREATE ON SCHEMA {s} FROM {w}"),
    "member of a role with DELETE, not inheriting": (
        "CREATE ROLE {w}_del NOLOGIN; GRANT DELETE ON memory_witness TO {w}_del; GRANT {w}_del TO {w};"
        " ALTER ROLE {w} NOINHERIT",
        "REVOKE {w}_del FROM {w}; DROP OWNED BY {w}_del; DROP ROLE {w}_del",
    ),
}


@pytest.mark.parametrize("way", sorted(REWRITERS))
def test_a_role_that_could_rewrite_the_witness_is_refused(roles: Roles, pg_dsn: str, tmp_path: Path, way: str) -> None:
    """A writer that could change, delete or shadow witnessed rows is no witness: the call that brings a
    checkpoint is refused, naming why."""
    _setup(roles)
    schema = str(psycopg.conninfo.conninfo_to_dict(pg_dsn)["options"]).rsplit("=", 1)[1]
    grant, undo = (text.format(w=roles.writer_name, s=schema) for text in REWRITERS[way])
    with psycopg.connect(pg_dsn, autocommit=True) as connection:
        connection.execute(grant)
    try:
        log = AuditLog.open(tmp_path / "audit.jsonl", checkpoint_every=2, witness=[roles.writer])
        sandbox = Sandbox(policy=load_policy("default"), storage=InMemoryStorage(), audit=log)
        calls = [{"command": "create", "path": f"/memories/{n}.md", "file_text": "x"} for n in range(3)]
        results = [sandbox.execute(call) for call in calls]
        assert results[0].is_error is False and results[-1].is_error
        assert "can change or delete witnessed rows" in str(results[-1].content)
        sandbox.close()
        log.close()
    finally:
        with psycopg.connect(pg_dsn, autocommit=True) as connection:
            connection.execute(undo)


def test_a_witness_holding_nothing_of_the_log_fails_verify(roles: Roles, tmp_path: Path) -> None:
    """A database witness with no rows for the log (emptied, or the log renamed) vouches for nothing."""
    _setup(roles)
    log_path = tmp_path / "audit.jsonl"
    _write(AuditLog.open(log_path, checkpoint_every=10, witness=[roles.writer]), 30)
    renamed = tmp_path / "audit-2026-12-01.jsonl"
    for suffix in ("", ".witness", ".key", ".pub"):
        Path(f"{log_path}{suffix}").rename(f"{renamed}{suffix}")
    report = verify(renamed, witness=roles.reader)
    assert not report.ok and "holds none of the log's checkpoints" in str(report.problem)


def test_setup_refuses_a_writer_that_owns_the_table(roles: Roles, pg_dsn: str) -> None:
    owner = str(psycopg.conninfo.conninfo_to_dict(pg_dsn)["user"])
    done = run("db", "witness-setup", "--dsn", roles.admin, "--writer", owner)
    assert done.returncode != 0 and "must not own the witness table" in done.stderr
    assert "Traceback" not in done.stderr
