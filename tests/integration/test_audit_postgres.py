"""The audit chain in PostgreSQL: one order across worker processes, every change found,
the same review commands as for a file log."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from sandbox import Sandbox
from sandbox.audit import AuditError
from sandbox.audit.keys import load_signer
from sandbox.audit.postgres import PostgresAuditLog, _parts, lock_key, verify_postgres
from sandbox.cli.main import main
from sandbox.paths import canonicalize
from sandbox.policy import parse_policy
from sandbox.storage.postgres import PostgresDatabase
from tests.integration.test_postgres import _admin, _kill_workers
from tests.processes import run_together

CALLS = 60


def _policy(key: Path, checkpoint_every: int = 25) -> Any:
    return parse_policy(
        f'schema_version = 1\nid = "fleet"\nrevision = 1\n[audit]\nkey_file = "{key}"\n'
        f"checkpoint_every = {checkpoint_every}\n",
        source="fleet.toml",
    )


def _worker(dsn: str, key: Path, worker: int, start: Any) -> None:
    with PostgresDatabase(dsn, max_size=1) as db:
        sandbox = Sandbox(policy=_policy(key), storage=db.storage(f"user-{worker}"), scope=f"user-{worker}")
        start.wait()
        for i in range(CALLS):
            path = f"/memories/n{i % 5}.md"
            sandbox.execute({"command": "create", "path": path, "file_text": f"{worker}-{i}"})
            sandbox.execute({"command": "view", "path": "/memories/../etc"})  # denied: outcome only
        sandbox.close()


@pytest.fixture
def key(tmp_path: Path) -> Path:
    return tmp_path / "fleet.key"


@pytest.fixture
def chain(pg_dsn: str, key: Path) -> Iterator[PostgresDatabase]:
    """A chain written by four worker processes at once."""
    PostgresDatabase(pg_dsn).close()  # schema first, so workers do not all wait on it
    run_together(_worker, [(pg_dsn, key, w) for w in range(4)])
    with PostgresDatabase(pg_dsn) as db:
        yield db


def _pub(key: Path) -> Path:
    return key.with_suffix(".pub")


class TestChain:
    def test_four_workers_one_chain(self, chain: PostgresDatabase, key: Path, pg_dsn: str) -> None:
        """Every record of every worker is in one unbroken chain, in one order, and verifies."""
        report = verify_postgres(chain, key_file=_pub(key))
        assert report.ok, report.summary()
        rows = _admin(pg_dsn, "SELECT line FROM memory_audit WHERE log = 'audit' ORDER BY seq")
        events = [json.loads(row[0])["event"] for row in rows]
        # each create: intent + outcome; each denied view: outcome only
        assert events.count("intent") == 4 * CALLS and events.count("outcome") == 4 * 2 * CALLS
        assert report.records == len(rows) and report.checkpoints == events.count("checkpoint") >= 4
        assert report.witnessed == report.checkpoints
        scopes = {json.loads(row[0]).get("scope") for row in rows}
        assert scopes >= {f"user-{w}" for w in range(4)}

    def test_records_put_at_the_end_by_the_server(self, chain: PostgresDatabase, pg_dsn: str) -> None:
        """Records of four writers at once are placed by the server: seq, its clock's time (in the
        log's format, never going back) and prev are filled in under the chain's lock; the fields
        are the writer's own. Checkpoints, which are signed, carry the writer's time."""
        rows = _admin(pg_dsn, "SELECT line FROM memory_audit WHERE log = 'audit' ORDER BY seq")
        records = [json.loads(row[0]) for row in rows]
        placed = [record for record in records if record["event"] != "checkpoint"]
        assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z", r["time"]) for r in placed)
        assert [r["time"] for r in placed] == sorted(r["time"] for r in placed)
        assert all(list(r)[:2] == ["seq", "time"] and list(r)[-2:] == ["prev", "event"] for r in placed)
        assert all(r["decision_id"] and r["command"] in ("create", "view") for r in placed)

    def test_a_record_sent_again_is_stored_once(self, pg_dsn: str, key: Path) -> None:
        """A record sent again (its first try's answer lost, that try perhaps still running) is
        answered with the line stored the first time, not stored twice; another record under the
        same key is refused, not taken for this one."""
        with PostgresDatabase(pg_dsn) as db:
            log = PostgresAuditLog.open(db, key_file=key, log="again")
            sandbox = Sandbox(policy=_policy(key), storage=db.storage("s"), audit=log)
            sandbox.execute({"command": "create", "path": "/memories/a.md", "file_text": "x"})
            rows = _admin(pg_dsn, "SELECT seq, line, record_key FROM memory_audit WHERE log = 'again' ORDER BY seq")
            seq, line, record = rows[0]
            parts = _parts(line)
            assert parts is not None and record.endswith("/intent")
            call = "SELECT end_seq, end_line FROM memory_audit_append_next(%s, %s, %s, %s, %s, %s)"
            again = _admin(pg_dsn, call, ("again", lock_key("again"), record, *parts, True))
            assert again == [(seq, line)]
            assert _admin(pg_dsn, "SELECT count(*) FROM memory_audit WHERE log = 'again'") == [(len(rows),)]
            with pytest.raises(AuditError):  # the same key with other fields: the answer is not taken
                log._record("intent", {"decision_id": record.split("/")[0], "command": "delete"})
            sandbox.close()
            log.close()
            assert verify_postgres(db, key_file=_pub(key), log="again").ok

    def test_modified_record_found(self, chain: PostgresDatabase, key: Path, pg_dsn: str) -> None:
        _admin(pg_dsn, "UPDATE memory_audit SET line = replace(line, '\"seq\":40,', '\"seq\":40 ,') WHERE seq = 40")
        report = verify_postgres(chain, key_file=_pub(key))
        assert not report.ok and report.problem is not None and report.problem.line == 41
        assert "modified" in report.problem.reason

    def test_deleted_record_found(self, chain: PostgresDatabase, key: Path, pg_dsn: str) -> None:
        _admin(pg_dsn, "DELETE FROM memory_audit WHERE seq = 100")
        report = verify_postgres(chain, key_file=_pub(key))
        assert report.problem is not None and report.problem.seq == 101

    def test_cut_tail_found_by_witness(self, chain: PostgresDatabase, key: Path, pg_dsn: str) -> None:
        """Cutting the chain's end, checkpoints and all, leaves a valid-looking chain the witness exposes."""
        last = _admin(pg_dsn, "SELECT max(seq) FROM memory_audit_witness")[0][0]
        _admin(pg_dsn, "DELETE FROM memory_audit WHERE seq >= %s", (last - 3,))
        report = verify_postgres(chain, key_file=_pub(key))
        assert report.problem is not None and "missing from the log" in report.problem.reason

    def test_forged_checkpoint_found(self, chain: PostgresDatabase, key: Path, pg_dsn: str, tmp_path: Path) -> None:
        """A chain rebuilt with another key fails on the first checkpoint's signature."""
        other = tmp_path / "other.key"
        rows = _admin(pg_dsn, "SELECT seq FROM memory_audit WHERE line LIKE '%%\"checkpoint\"%%' ORDER BY seq")
        assert rows
        load_signer(other)  # a key pair of its own: not the one that signed
        report = verify_postgres(chain, key_file=_pub(other))
        assert report.problem is not None and report.problem.seq == rows[0][0]
        assert "signature" in report.problem.reason


class TestReview:
    def test_cli_verify_query_and_bundle(
        self, chain: PostgresDatabase, key: Path, pg_dsn: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """audit verify/query/export --dsn work as on a file; the bundle verifies offline."""
        assert main(["audit", "verify", "--dsn", pg_dsn, "--key", str(_pub(key))]) == 0
        assert capsys.readouterr().out.startswith("OK: ")
        assert main(["audit", "query", "--dsn", pg_dsn, "--key", str(_pub(key)), "--scope", "user-2",
                     "--decision", "deny", "--format", "jsonl"]) == 0  # fmt: skip
        rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert len(rows) == CALLS and {row["scope"] for row in rows} == {"user-2"}
        bundle = tmp_path / "bundle"
        assert main(["audit", "export", "--dsn", pg_dsn, "--key", str(_pub(key)), "--format", "bundle",
                     "--out", str(bundle)]) == 0  # fmt: skip
        assert main(["audit", "verify", str(bundle / "audit.jsonl")]) == 0
        _admin(pg_dsn, "DELETE FROM memory_audit WHERE seq = 7")
        assert main(["audit", "verify", "--dsn", pg_dsn, "--key", str(_pub(key))]) == 1
        assert "TAMPERED" in capsys.readouterr().out

    def test_cli_needs_a_key_with_dsn(self, pg_dsn: str, capsys: pytest.CaptureFixture[str]) -> None:
        assert main(["audit", "verify", "--dsn", pg_dsn]) == 2
        assert "--dsn needs --key" in capsys.readouterr().err


class TestFailClosed:
    def test_no_key_file_refuses_to_start(self, pg_dsn: str) -> None:
        """A database store with the default beside-store sink but no key file does not start."""
        policy = parse_policy('schema_version = 1\nid = "p"\nrevision = 1\n', source="p.toml")
        with PostgresDatabase(pg_dsn) as db, pytest.raises(AuditError) as caught:
            Sandbox(policy=policy, storage=db.storage("s"))
        assert "key_file" in caught.value.message

    def test_lost_connection_retried(self, pg_dsn: str, key: Path) -> None:
        """Connections killed between calls: the next call's records are written after a retry."""
        with PostgresDatabase(pg_dsn) as db:
            sandbox = Sandbox(policy=_policy(key), storage=db.storage("s"))
            assert not sandbox.execute({"command": "create", "path": "/memories/a.md", "file_text": "x"}).is_error
            _kill_workers(pg_dsn)
            assert not sandbox.execute({"command": "view", "path": "/memories/a.md"}).is_error
            sandbox.close()
            assert verify_postgres(db, key_file=_pub(key)).ok

    def test_unwritable_chain_refuses_the_call(self, pg_dsn: str, key: Path) -> None:
        """When records cannot be written (here: the table is gone), calls are refused and change nothing."""
        with PostgresDatabase(pg_dsn) as db:
            log = PostgresAuditLog.open(db, key_file=key)
            sandbox = Sandbox(policy=_policy(key), storage=db.storage("s"), audit=log)
            _admin(pg_dsn, "ALTER TABLE memory_audit RENAME TO memory_audit_moved")
            result = sandbox.execute({"command": "create", "path": "/memories/a.md", "file_text": "x"})
            assert result.is_error and "audit" in str(result.content)
            assert db.storage("s").stat(canonicalize("/memories/a.md")) is None
            with psycopg.connect(pg_dsn, autocommit=True) as connection:
                connection.execute("ALTER TABLE memory_audit_moved RENAME TO memory_audit")
