"""The audit chain in PostgreSQL: one serialized order of records across every worker.

:class:`PostgresAuditLog` writes exactly the records of the file log (same fields,
same ``seq``/``prev`` chain, same signed checkpoints) as rows of ``memory_audit``,
keyed by log name and ``seq``; checkpoints are also copied to
``memory_audit_witness``. Each line is appended by one statement,
``memory_audit_append_next``, which takes the log's advisory lock and puts the record
at the chain's end, giving it the next ``seq``, the server's time and the hash of the
line before; so workers on any number of hosts extend one chain, in one order, at one
round trip per record however many write at once. A signed record (a checkpoint, whose
signature covers ``seq`` and ``prev``) goes through ``memory_audit_append``, which
inserts it only if the chain still ends where the writer signed it, else answers the
true end to sign again. A connection lost mid-append is retried, and a line that did
reach the table before the loss is recognised, not written twice: by its key (decision and
event) for a record of a call, by its seq and hash for a checkpoint.
:func:`verify_postgres` checks it exactly as :func:`~sandbox.audit.verify.verify`
checks a file.

Grant the workers' role only ``SELECT, INSERT`` on the two audit tables (and
``EXECUTE`` on the two functions): then no worker can rewrite or cut the chain, and the
signatures show any change made by someone who can.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final, LiteralString

import psycopg
import structlog

from sandbox.audit.chain import ChainedAuditSink
from sandbox.audit.keys import Signer, Verifier, load_signer, review_verifier
from sandbox.audit.records import AuditError, dumps, line_hash
from sandbox.audit.verify import AuditUnreadable, VerifyReport, check_witness, verify_lines
from sandbox.policy import AuditSection
from sandbox.storage.postgres import PostgresDatabase

__all__ = ["PostgresAuditLog", "dump_postgres", "read_postgres_records", "verify_postgres"]

_ATTEMPTS: Final = 3  # lost connections per line
_MAX_TRIES: Final = 200  # renderings per line while other workers keep appending


def lock_key(log: str) -> int:
    """The advisory lock of one log: a signed 64-bit number from its name."""
    digest = hashlib.sha256(b"memory-sandbox audit\0" + log.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


class _Moved(AuditError):
    """Another writer extended the chain since this one last looked; render the line again."""


class PostgresAuditLog(ChainedAuditSink):
    """The audit chain named ``log`` in a PostgreSQL database, shared by every worker."""

    def __init__(
        self,
        database: PostgresDatabase,
        signer: Signer,
        *,
        log: str = "audit",
        settings: AuditSection,
        owned: bool = False,
    ) -> None:
        super().__init__(signer, settings, name=log)
        self.database = database
        self.log = log
        self._owned = owned
        self._key = lock_key(log)
        self._sync = True
        # Renders a record with its seq, time and prev left empty, for the server to fill in.
        self._draft = _Draft()
        self._drafter = structlog.BoundLogger(
            self._draft, processors=[structlog.processors.JSONRenderer(serializer=dumps)], context={}
        )

    def rotate_key(self, new: Signer) -> None:
        """Refused: every worker signs a database chain with the one key file the policy names, and a
        worker still holding the old key would sign checkpoints the rotated chain no longer accepts."""
        raise AuditError("Error: The key of a database chain is shared by every worker; rotating it is not supported.")

    @classmethod
    def open(
        cls, database: PostgresDatabase | str, *, key_file: str | Path, log: str = "audit", **settings: Any
    ) -> PostgresAuditLog:
        """Open the chain ``log`` of a database (or of a DSN, pooled for this log alone).

        ``key_file`` is the signing key (made if missing); every worker of a fleet
        uses the same one. ``settings`` are those of a policy's ``[audit]`` section.
        """
        signer = load_signer(Path(key_file))
        owned = not isinstance(database, PostgresDatabase)
        db = database if isinstance(database, PostgresDatabase) else PostgresDatabase(database, max_size=2)
        return cls(db, signer, log=log, settings=AuditSection(**settings), owned=owned)

    def __repr__(self) -> str:
        return f"PostgresAuditLog({self.database.description!r}, log={self.log!r}, {self._signer.kind})"

    def _append(self, event: str, fields: dict[str, Any], *, sync: bool) -> None:
        for _ in range(_MAX_TRIES):
            try:
                super()._append(event, fields, sync=sync)
            except _Moved:
                continue  # rendered again at the chain's true end
            else:
                return
        raise AuditError("Error: The audit log is too busy; the call was refused.")

    def _record(self, event: str, fields: dict[str, Any]) -> None:
        self._drafter.msg(event, seq=0, time="", **fields, prev="")
        parts = _parts(self._draft.line)
        decision = fields.get("decision_id")
        if parts is None or not isinstance(decision, str):  # not the shape the server fills in
            super()._record(event, fields)
            return
        row = self._execute(
            "SELECT end_seq, end_line FROM memory_audit_append_next(%s, %s, %s, %s, %s, %s)",
            (self.log, self._key, f"{decision}/{event}", *parts, self._sync),
        )
        if row is None or _parts(str(row[1])) != parts:  # none, or another record under this key
            raise AuditError("Error: The audit log cannot be written; the call was refused.")
        self._seq, self._last = int(row[0]), line_hash(str(row[1]).encode("utf-8"))
        self._since_checkpoint += 1

    def _execute(self, statement: LiteralString, params: tuple[Any, ...]) -> tuple[Any, ...] | None:
        """One statement's first row, on a connection of its own, run again after a lost connection
        (each statement it runs is one that may run twice: a repeat changes nothing)."""
        lost = 0
        while True:
            try:
                with self.database.connection() as connection:
                    return connection.execute(statement, params).fetchone()
            except psycopg.OperationalError as exc:
                lost += 1
                if lost == _ATTEMPTS or (exc.sqlstate is not None and not exc.sqlstate.startswith(("08", "57P"))):
                    raise AuditError(
                        "Error: The audit log cannot be written; the call was refused.", detail=type(exc).__name__
                    ) from None
            except psycopg.Error as exc:
                raise AuditError(
                    "Error: The audit log cannot be written; the call was refused.", detail=type(exc).__name__
                ) from None

    def _write_checkpoint(self) -> None:
        for _ in range(_MAX_TRIES):
            try:
                super()._write_checkpoint()
            except _Moved:
                continue
            else:
                return
        raise AuditError("Error: The audit log is too busy; the call was refused.")

    @contextmanager
    def _locked(self, *, sync: bool = True) -> Iterator[None]:
        # The chain's end is checked by the database as each line is appended, not held here.
        with self._thread_lock:
            self._sync = sync
            yield

    def verify(self) -> VerifyReport:
        """Check the whole chain now, with this log's own key."""
        return verify_postgres(self.database, verifier=self._signer.verifier(), log=self.log)

    def _store_line(self, line: bytes, *, witness: bool = False) -> None:
        """Append at ``_seq + 1`` after ``_last`` in one statement, or learn the true end and raise _Moved."""
        text = line.rstrip(b"\n").decode("utf-8")
        moved = self._execute(
            "SELECT end_seq, end_hash FROM memory_audit_append(%s, %s, %s, %s, %s, %s, %s)",
            (self.log, self._key, self._seq + 1, self._last, text, witness, self._sync),
        )
        if moved is None:
            return
        end_seq, end_hash = int(moved[0]), str(moved[1])
        if end_seq == self._seq + 1 and end_hash == line_hash(line):
            return  # this very line, appended by a try whose answer the lost connection took
        self._seq, self._last = end_seq, end_hash
        raise _Moved("Error: The audit chain moved on; the line is rendered again.")

    def _after_append(self, *, sync: bool) -> None:
        return None  # each append commits (synchronously when asked) on its own

    def _release(self) -> None:
        if self._owned:
            self.database.close()


class _Draft:
    """The end of the drafting pipeline: keeps the line rendered last."""

    def __init__(self) -> None:
        self.line = ""

    def msg(self, message: str) -> None:
        self.line = message


_HEAD: Final = '{"seq":'
_TIME: Final = ',"time":"'
_PREV: Final = ',"prev":"'


def _parts(line: str) -> tuple[str, str] | None:
    """A record line's fields between ``time`` and ``prev``, and what follows ``prev``; None if the
    line is not ``{"seq":…,"time":"…",<fields>,"prev":"…",<tail>`` with fields. Values are JSON
    strings, which escape every quote, so the markers cannot occur inside one."""
    at = line.find(_TIME)
    if not line.startswith(_HEAD) or at < 0:
        return None
    start = line.find('",', at + len(_TIME)) + 2
    end = line.rfind(_PREV)
    close = line.find('",', end + len(_PREV)) if end >= 0 else -1
    if start < 2 or end <= start or close < 0:
        return None
    return line[start:end], line[close + 2 :]


_SELECT: Final[dict[str, LiteralString]] = {
    "memory_audit": "SELECT seq, line FROM memory_audit WHERE log = %s ORDER BY seq",
    "memory_audit_witness": "SELECT seq, line FROM memory_audit_witness WHERE log = %s ORDER BY seq",
}


def _lines(database: PostgresDatabase, table: str, log: str) -> Iterator[tuple[int, bytes]]:
    # A named (server-side) cursor streams the chain instead of loading it whole.
    with (
        database.connection() as connection,
        connection.transaction(),
        connection.cursor(name=f"memory_sandbox_{table}") as cursor,
    ):
        cursor.itersize = 5000
        cursor.execute(_SELECT[table], (log,))
        for seq, line in cursor:
            yield int(seq), line.encode("utf-8") + b"\n"


def verify_postgres(
    database: PostgresDatabase, *, key_file: Path | None = None, verifier: Verifier | None = None, log: str = "audit"
) -> VerifyReport:
    """Check the chain ``log`` in the database: every record chained, checkpoints signed, witness matched."""
    if verifier is None:
        if key_file is None:
            raise AuditUnreadable("Error: verifying needs the public key (or the HMAC key) of the log")
        verifier = review_verifier(key_file)
    report = VerifyReport(segments=[f"memory_audit[{log}]"], key_id=verifier.key_id)
    try:
        chain = verify_lines(
            ((f"memory_audit[{log}]", seq, line) for seq, line in _lines(database, "memory_audit", log)),
            verifier,
            report,
        )
        if report.records == 0 and report.ok:
            raise AuditUnreadable(f"Error: no audit records for log {log!r} in {database.description}")
        if report.ok:
            witnessed = [line.rstrip(b"\n") for _, line in _lines(database, "memory_audit_witness", log)]
            check_witness(f"memory_audit_witness[{log}]", witnessed, chain.checkpoints, report)
    except psycopg.Error as exc:
        raise AuditUnreadable(f"Error: cannot read the audit log ({type(exc).__name__})") from None
    return report


def dump_postgres(database: PostgresDatabase, path: Path, *, log: str = "audit") -> Path:
    """Write the chain ``log`` as a file log at ``path`` (and its witness beside it), verifiable offline."""
    with path.open("wb") as out:
        for _, line in _lines(database, "memory_audit", log):
            out.write(line)
    with open(f"{path}.witness", "wb") as out:
        for _, line in _lines(database, "memory_audit_witness", log):
            out.write(line)
    return path


def read_postgres_records(database: PostgresDatabase, log: str = "audit") -> Iterator[dict[str, Any]]:
    """Every record of the chain ``log``, in order (parse only; verify separately)."""
    for _, line in _lines(database, "memory_audit", log):
        yield json.loads(line)
