"""Witnesses off the host: places that receive each signed checkpoint and the log's writer cannot rewrite.

The local witness (``<log>.witness``) sits beside the log, so whoever can trim the log can trim it
too. A policy names more in ``[audit]``:

* ``witness = ["/mnt/other-volume/witness", ...]``: folders (another volume, an append-only or
  write-once mount, a folder only the witness's owner can change), which must exist (a folder on a
  volume that is not mounted is refused, never made on the local disk); each checkpoint is appended
  to ``<folder>/<log name>-<key id>.witness`` and made durable;
* ``witness = ["postgresql://witness-writer@other-host/db", ...]``: a PostgreSQL table
  (``memory_witness``, made by ``memory-sandbox db witness-setup``) that the DSN's role may only
  insert into: it can neither read, change nor delete a row, and a role that could is refused;
* ``witness_command = "..."``: a program run for each checkpoint with the checkpoint line on its
  standard input (say, to S3 Object Lock, or to an RFC 3161 time-stamp authority); it must exit 0
  within 30 s. ``MEMORY_SANDBOX_AUDIT_LOG`` and ``MEMORY_SANDBOX_AUDIT_KEY_ID`` name the log.

A witness that cannot take a checkpoint refuses the call that wrote it (fail closed), as a log
that cannot be written does. ``memory-sandbox audit verify LOG --witness FILE`` (repeatable) checks
the log against each: a witnessed checkpoint missing from the log, or different, is tampering,
even when the local witness was trimmed together with the log.
"""

from __future__ import annotations

import os
import shlex
import subprocess  # the operator's witness command, never model input # nosec B404
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Protocol

from sandbox.audit.records import AuditError, append_whole

__all__ = [
    "CommandWitness",
    "FolderWitness",
    "PostgresWitness",
    "Witness",
    "is_database_witness",
    "read_database_witness",
    "setup_database_witness",
    "witness_file_name",
    "witnesses_of",
]

_COMMAND_SECONDS: Final = 30.0
_CONNECT_SECONDS: Final = 10
_TABLE: Final = "memory_witness"
#: True when the connected role, or any role it may SET ROLE to, could change, delete or replace
#: witnessed rows: table or column UPDATE, DELETE, TRUNCATE, owning the table or its schema (an
#: owner drops and remakes it), being a superuser, or creating tables anywhere (a table of the same
#: name earlier on its search path would take the rows instead).
_CAN_REWRITE: Final = """
SELECT EXISTS (
    SELECT 1 FROM pg_roles r, pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.oid = 'memory_witness'::regclass
      AND pg_has_role(current_user, r.oid, 'MEMBER')
      AND (r.rolsuper OR r.oid = c.relowner OR r.oid = n.nspowner
           OR has_table_privilege(r.oid, c.oid, 'UPDATE') OR has_table_privilege(r.oid, c.oid, 'DELETE')
           OR has_table_privilege(r.oid, c.oid, 'TRUNCATE') OR has_any_column_privilege(r.oid, c.oid, 'UPDATE'))
) OR EXISTS (
    -- a schema it may create in could hold a table of the same name ahead of the witness's
    SELECT 1 FROM pg_namespace s
    WHERE s.nspname !~ '^pg_' AND s.nspname <> 'information_schema'
      AND has_schema_privilege(current_user, s.oid, 'CREATE')
)
"""


class Witness(Protocol):
    def receive(self, line: bytes) -> None:
        """Keep one checkpoint line (with its newline), durably, or raise :class:`AuditError`."""

    @property
    def identity(self) -> str:
        """What tells this witness from others of the log (never shown: it may hold a password)."""


def witness_file_name(log_name: str, key_id: str) -> str:
    """The file a folder witness keeps a log's checkpoints in: named by the log and its key, so two
    logs of the same name (different stores, different keys) never share one."""
    return f"{log_name}-{key_id}.witness"


@dataclass(frozen=True)
class FolderWitness:
    path: Path

    @property
    def identity(self) -> str:
        return f"folder:{self.path}"

    def receive(self, line: bytes) -> None:
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
            try:
                append_whole(fd, line, os.fstat(fd).st_size)  # never a torn line in the witness either
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as exc:
            raise AuditError(
                "Error: The audit witness cannot be written; the call was refused.", detail=str(exc.errno)
            ) from None


@dataclass(frozen=True)
class CommandWitness:
    argv: tuple[str, ...]
    log_name: str
    key_id: str

    @property
    def identity(self) -> str:
        return "command:" + shlex.join(self.argv)

    def receive(self, line: bytes) -> None:
        env = {**os.environ, "MEMORY_SANDBOX_AUDIT_LOG": self.log_name, "MEMORY_SANDBOX_AUDIT_KEY_ID": self.key_id}
        try:
            done = subprocess.run(  # noqa: S603 - the operator's own command from the policy, no shell # nosec B603
                self.argv, input=line, capture_output=True, timeout=_COMMAND_SECONDS, env=env, check=False
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise AuditError(
                "Error: The audit witness cannot be reached; the call was refused.", detail=type(exc).__name__
            ) from None
        if done.returncode != 0:
            raise AuditError(
                "Error: The audit witness refused the checkpoint; the call was refused.",
                detail=f"exit {done.returncode}",
            )


def is_database_witness(place: str | os.PathLike[str]) -> bool:
    """Whether a witness named in a policy or on the command line is a PostgreSQL DSN."""
    return isinstance(place, str) and place.startswith(("postgresql://", "postgres://"))


@dataclass(frozen=True)
class PostgresWitness:
    """Checkpoints inserted into ``memory_witness`` by a role that may do nothing else there."""

    dsn: str
    log_name: str
    key_id: str

    @property
    def identity(self) -> str:
        parts = urllib.parse.urlsplit(self.dsn)  # the password left out: the identity names a file
        return f"postgresql:{parts.username}@{parts.hostname}:{parts.port}{parts.path}?{parts.query}"

    def receive(self, line: bytes) -> None:
        import psycopg  # noqa: PLC0415 - only for a database witness

        try:
            with psycopg.connect(self.dsn, autocommit=True, connect_timeout=_CONNECT_SECONDS) as connection:
                row = connection.execute(_CAN_REWRITE).fetchone()
                if row is None or row[0] is not False:
                    raise AuditError(
                        "Error: The audit witness's database role can change or delete witnessed rows, so it "
                        "is no witness; the call was refused. Give it INSERT only (memory-sandbox db witness-setup)."
                    )
                connection.execute(
                    "INSERT INTO memory_witness (log, key_id, line) VALUES (%s, %s, %s)",
                    (self.log_name, self.key_id, line.decode("utf-8").rstrip("\n")),
                )
        except psycopg.Error as exc:
            raise AuditError(
                "Error: The audit witness database cannot be written; the call was refused.",
                detail=type(exc).__name__,
            ) from None


def setup_database_witness(dsn: str, writer: str, reader: str | None) -> None:
    """Make ``memory_witness`` (as the DSN's role, its owner) and let ``writer`` insert and ``reader`` read.

    The writer is refused if it is the owner or would be given more: its witness could be rewritten.
    """
    import psycopg  # noqa: PLC0415 - only for a database witness

    try:
        _setup(psycopg.connect(dsn, autocommit=True, connect_timeout=_CONNECT_SECONDS), writer, reader)
    except psycopg.Error as exc:
        reason = exc.diag.message_primary or (str(exc).splitlines() or [type(exc).__name__])[0][:200]
        raise AuditError(f"Error: The witness table could not be made: {reason}") from None


def _setup(connection: Any, writer: str, reader: str | None) -> None:
    from psycopg import sql  # noqa: PLC0415 - only for a database witness

    with connection:
        owner = connection.execute("SELECT current_user").fetchone()
        if owner is not None and owner[0] == writer:
            raise AuditError("Error: The witness writer must not own the witness table (an owner can delete rows).")
        with connection.transaction():
            connection.execute(
                "CREATE TABLE IF NOT EXISTS memory_witness (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
                " log TEXT NOT NULL, key_id TEXT NOT NULL, line TEXT NOT NULL,"
                " received TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp())"
            )
            table = sql.Identifier(_TABLE)
            connection.execute(sql.SQL("REVOKE ALL ON {} FROM PUBLIC").format(table))
            connection.execute(sql.SQL("REVOKE ALL ON {} FROM {}").format(table, sql.Identifier(writer)))
            connection.execute(sql.SQL("GRANT INSERT ON {} TO {}").format(table, sql.Identifier(writer)))
            if reader is not None:
                connection.execute(sql.SQL("GRANT SELECT ON {} TO {}").format(table, sql.Identifier(reader)))


def read_database_witness(dsn: str, log_name: str, key_ids: list[str]) -> list[bytes]:
    """The checkpoint lines a database witness holds for one log (by its name and keys), in order."""
    import psycopg  # noqa: PLC0415 - only for a database witness

    with psycopg.connect(dsn, autocommit=True, connect_timeout=_CONNECT_SECONDS) as connection:
        rows = connection.execute(
            "SELECT line FROM memory_witness WHERE log = %s AND key_id = ANY(%s) ORDER BY id", (log_name, key_ids)
        ).fetchall()
    return [str(row[0]).encode("utf-8") for row in rows]


def witnesses_of(folders: tuple[str, ...], command: str | None, log_name: str, key_id: str) -> tuple[Witness, ...]:
    """The witnesses a policy's ``[audit]`` section names, for one log."""
    found: list[Witness] = []
    for folder in folders:
        if is_database_witness(folder):
            found.append(PostgresWitness(folder, log_name, key_id))
            continue
        place = Path(folder)
        if not place.is_dir():  # never made here: an unmounted volume would put the witness beside the log
            raise AuditError(f"Error: The audit witness folder {place.name} does not exist; nothing was recorded.")
        found.append(FolderWitness(place / witness_file_name(log_name, key_id)))
    if command:
        found.append(CommandWitness(tuple(shlex.split(command)), log_name, key_id))
    return tuple(found)
