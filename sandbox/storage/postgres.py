"""``PostgresStorage``: memory in PostgreSQL, shared by a fleet of workers on many hosts.

Files and folders are rows of ``memory_entries`` keyed by ``(scope, path)``; each
scope's usage is a row of ``memory_usage``. Every command is one transaction at
READ COMMITTED that first locks its scope's usage row, so the writers of a scope
take turns across every worker: the quota check and the write happen together,
an edit reads the latest content under the lock and no edit is lost. ``create``
and ``rename`` never overwrite because the primary key refuses a second row, not
because of a look beforehand. Every statement names the scope; with
``row_security`` the database enforces it too (see :meth:`PostgresDatabase.migrate`).

Lost connections, serialization failures and deadlocks are retried a few times;
then the call fails with a short storage error. A transaction either commits or
leaves nothing; if the connection drops during the commit itself, the error says
the outcome is unknown rather than guessing.

The schema is made and upgraded by the library (``memory-sandbox db migrate``),
under an advisory lock, so workers starting together do it once.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any, Final

import psycopg
import psycopg.errors
import psycopg_pool
from psycopg import sql
from psycopg.pq import TransactionStatus

from sandbox.errors import StorageError
from sandbox.storage.sql import SCHEMA, Cursor, Migration, SqlStorage, migrate

__all__ = ["MIGRATIONS", "PostgresDatabase", "PostgresStorage", "describe_dsn"]

_TYPES: Final = {"text": 'TEXT COLLATE "C"', "blob": "BYTEA"}  # "C": code point order, as the other adapters
#: pg_advisory_xact_lock key serializing migrations ("memsbx" in ASCII).
_MIGRATION_LOCK: Final = 0x6D656D736278
_SCOPE_SETTING: Final = "memory_sandbox.scope"
_LOCKED_CONTENT: Final = (
    "SELECT is_dir, content, size, modified FROM memory_entries WHERE scope = ? AND path = ? FOR UPDATE"
)

#: Appends line ``p_seq`` to a chain if the chain ends at ``p_seq - 1`` with a line whose hash
#: is ``p_prev``, in one statement under the chain's advisory lock: no rows back means
#: appended; else the chain's true end (seq, hash) comes back and the caller renders again.
#: Each statement of a VOLATILE PL/pgSQL function sees the data committed before it
#: started, so the end is read after the lock is held.
_AUDIT_APPEND: Final = """
CREATE FUNCTION memory_audit_append(
    p_log TEXT, p_lock BIGINT, p_seq BIGINT, p_prev TEXT, p_line TEXT, p_witness BOOLEAN, p_sync BOOLEAN
) RETURNS TABLE (end_seq BIGINT, end_hash TEXT) LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    last_seq BIGINT;
    last_hash TEXT;
BEGIN
    PERFORM pg_advisory_xact_lock(p_lock);
    PERFORM set_config('synchronous_commit', CASE WHEN p_sync THEN 'on' ELSE 'off' END, true);
    SELECT a.seq, encode(sha256(convert_to(a.line, 'UTF8')), 'hex') INTO last_seq, last_hash
        FROM memory_audit a WHERE a.log = p_log ORDER BY a.seq DESC LIMIT 1;
    last_seq := COALESCE(last_seq, 0);
    last_hash := COALESCE(last_hash, repeat('0', 64));
    IF last_seq <> p_seq - 1 OR last_hash <> p_prev THEN
        RETURN QUERY SELECT last_seq, last_hash;
        RETURN;
    END IF;
    INSERT INTO memory_audit (log, seq, line) VALUES (p_log, p_seq, p_line);
    IF p_witness THEN
        INSERT INTO memory_audit_witness (log, seq, line) VALUES (p_log, p_seq, p_line);
    END IF;
END
$fn$
"""

#: The first ``memory_audit_append_next`` (migration audit-2, kept as applied): audit-3 replaces it
#: with :data:`_AUDIT_APPEND_KEYED`, which also recognises a record sent again.
_AUDIT_APPEND_NEXT: Final = """
CREATE FUNCTION memory_audit_append_next(
    p_log TEXT, p_lock BIGINT, p_middle TEXT, p_tail TEXT, p_sync BOOLEAN
) RETURNS TABLE (end_seq BIGINT, end_line TEXT) LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    last_seq BIGINT;
    last_hash TEXT;
    new_line TEXT;
BEGIN
    PERFORM pg_advisory_xact_lock(p_lock);
    PERFORM set_config('synchronous_commit', CASE WHEN p_sync THEN 'on' ELSE 'off' END, true);
    SELECT a.seq, encode(sha256(convert_to(a.line, 'UTF8')), 'hex') INTO last_seq, last_hash
        FROM memory_audit a WHERE a.log = p_log ORDER BY a.seq DESC LIMIT 1;
    last_seq := COALESCE(last_seq, 0);
    last_hash := COALESCE(last_hash, repeat('0', 64));
    new_line := '{{"seq":' || (last_seq + 1) || ',"time":"'
        || to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
        || '",' || p_middle || ',"prev":"' || last_hash || '",' || p_tail;
    INSERT INTO memory_audit (log, seq, line) VALUES (p_log, last_seq + 1, new_line);
    RETURN QUERY SELECT last_seq + 1, new_line;
END
$fn$
"""

#: (audit-3) Appends a record at the chain's end, whatever that is, in one statement under the chain's
#: advisory lock: the writer sends the record's fields (``p_middle``, between ``time`` and
#: ``prev``) and its end (``p_tail``, after ``prev``); the server gives it the next ``seq``, its
#: own clock's time and the hash of the last line, and answers the line as stored. No writer
#: renders a line again because another one got there first. ``p_key`` (the decision and the
#: event) makes a repeat harmless: a record already stored under it is answered, not stored
#: again (a try whose answer a lost connection took may still be running when the writer tries
#: again). (Braces doubled: migrations are formatted with the column types.)
_AUDIT_APPEND_KEYED: Final = """
CREATE FUNCTION memory_audit_append_next(
    p_log TEXT, p_lock BIGINT, p_key TEXT, p_middle TEXT, p_tail TEXT, p_sync BOOLEAN
) RETURNS TABLE (end_seq BIGINT, end_line TEXT) LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    last_seq BIGINT;
    last_hash TEXT;
    new_line TEXT;
BEGIN
    PERFORM pg_advisory_xact_lock(p_lock);
    RETURN QUERY SELECT a.seq, a.line FROM memory_audit a WHERE a.log = p_log AND a.record_key = p_key;
    IF FOUND THEN
        RETURN;
    END IF;
    PERFORM set_config('synchronous_commit', CASE WHEN p_sync THEN 'on' ELSE 'off' END, true);
    SELECT a.seq, encode(sha256(convert_to(a.line, 'UTF8')), 'hex') INTO last_seq, last_hash
        FROM memory_audit a WHERE a.log = p_log ORDER BY a.seq DESC LIMIT 1;
    last_seq := COALESCE(last_seq, 0);
    last_hash := COALESCE(last_hash, repeat('0', 64));
    new_line := '{{"seq":' || (last_seq + 1) || ',"time":"'
        || to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
        || '",' || p_middle || ',"prev":"' || last_hash || '",' || p_tail;
    INSERT INTO memory_audit (log, seq, line, record_key) VALUES (p_log, last_seq + 1, new_line, p_key);
    RETURN QUERY SELECT last_seq + 1, new_line;
END
$fn$
"""

#: Takes one call from a scope's bucket (see :mod:`sandbox.storage.rate`) by the server's clock:
#: 0 when taken, else the seconds until a call is free. The buckets are an UNLOGGED table: never
#: written to the WAL nor fsynced (a crash empties it, which starts every bucket full).
_RATE_TAKE: Final = """
CREATE FUNCTION memory_rate_take(p_scope TEXT, p_per_minute INTEGER) RETURNS DOUBLE PRECISION
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    now_s DOUBLE PRECISION := extract(epoch FROM clock_timestamp());
    left_ DOUBLE PRECISION;
    stamp_ DOUBLE PRECISION;
BEGIN
    INSERT INTO memory_rate AS r (scope, tokens, stamp) VALUES (p_scope, p_per_minute, now_s)
        ON CONFLICT (scope) DO UPDATE SET scope = r.scope RETURNING r.tokens, r.stamp INTO left_, stamp_;
    left_ := LEAST(p_per_minute::DOUBLE PRECISION, left_ + GREATEST(0, now_s - stamp_) * p_per_minute / 60.0);
    IF left_ < 1.0 THEN
        UPDATE memory_rate SET tokens = left_, stamp = now_s WHERE scope = p_scope;
        RETURN (1.0 - left_) * 60.0 / p_per_minute;
    END IF;
    UPDATE memory_rate SET tokens = left_ - 1.0, stamp = now_s WHERE scope = p_scope;
    RETURN 0.0;
END
$fn$
"""

#: Storage tables, the audit chain, and the row-security policies (inactive until enabled).
MIGRATIONS: Final[tuple[Migration, ...]] = (
    *SCHEMA,
    (
        "audit-1",
        (
            "CREATE TABLE memory_audit (log {text} NOT NULL, seq BIGINT NOT NULL, line TEXT NOT NULL,"
            " PRIMARY KEY (log, seq))",
            "CREATE TABLE memory_audit_witness (log {text} NOT NULL, seq BIGINT NOT NULL, line TEXT NOT NULL,"
            " PRIMARY KEY (log, seq))",
            _AUDIT_APPEND,
        ),
    ),
    (
        "row-security-1",
        tuple(
            f"CREATE POLICY {table}_scope ON {table}"
            f" USING (scope = current_setting('{_SCOPE_SETTING}', true))"
            f" WITH CHECK (scope = current_setting('{_SCOPE_SETTING}', true))"
            for table in ("memory_entries", "memory_usage")
        ),
    ),
    (
        "scope-state-1",
        (
            "CREATE POLICY memory_scope_keys_scope ON memory_scope_keys"
            f" USING (scope = current_setting('{_SCOPE_SETTING}', true))"
            f" WITH CHECK (scope = current_setting('{_SCOPE_SETTING}', true))",
            "CREATE UNLOGGED TABLE memory_rate (scope {text} PRIMARY KEY,"
            " tokens DOUBLE PRECISION NOT NULL, stamp DOUBLE PRECISION NOT NULL)",
            _RATE_TAKE,
            f"CREATE POLICY memory_rate_scope ON memory_rate USING (scope = current_setting('{_SCOPE_SETTING}', true))"
            f" WITH CHECK (scope = current_setting('{_SCOPE_SETTING}', true))",
        ),
    ),
    (
        "history-1",
        (
            "CREATE POLICY memory_versions_scope ON memory_versions"
            f" USING (scope = current_setting('{_SCOPE_SETTING}', true))"
            f" WITH CHECK (scope = current_setting('{_SCOPE_SETTING}', true))",
        ),
    ),
    ("audit-2", (_AUDIT_APPEND_NEXT,)),
    (
        "audit-3",
        (
            "ALTER TABLE memory_audit ADD COLUMN record_key {text}",
            "CREATE UNIQUE INDEX memory_audit_record_key ON memory_audit (log, record_key)",
            "DROP FUNCTION memory_audit_append_next(TEXT, BIGINT, TEXT, TEXT, BOOLEAN)",
            _AUDIT_APPEND_KEYED,
        ),
    ),
)

_SCOPED_TABLES: Final = ("memory_entries", "memory_usage", "memory_rate", "memory_scope_keys", "memory_versions")


def describe_dsn(dsn: str) -> str:
    """The DSN without its password, for messages and reprs."""
    try:
        params = psycopg.conninfo.conninfo_to_dict(dsn)
    except psycopg.Error:
        return "postgresql://[unparsable DSN]"
    host, port, name = params.get("host", ""), params.get("port", ""), params.get("dbname", "")
    return f"postgresql://{host}{':' + str(port) if port else ''}/{name}"


class _PgCursor(Cursor):
    __slots__ = ("_connection", "_prefix", "_statements")

    def __init__(
        self, connection: psycopg.Connection[Any], statements: dict[str, str], prefix: _Prefix | None = None
    ) -> None:
        self._connection = connection
        self._statements = statements
        self._prefix = prefix

    def run(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        statement = self._statements.get(sql)
        if statement is None:
            statement = self._statements[sql] = sql.replace("?", "%s")
        if self._prefix is not None:
            return self._run_prefixed(statement, params)
        cursor = self._connection.execute(statement, params)
        return cursor.fetchall() if cursor.description is not None else []

    def _run_prefixed(self, statement: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """The first statement sent in one message after the prefix (client-side binding, one round trip)."""
        (query, answer), self._prefix = self._prefix, None  # type: ignore[misc]  # set: checked by the caller
        cursor = psycopg.ClientCursor(self._connection)
        cursor.execute(query.as_string(self._connection).replace("%", "%%") + "; " + statement, params)
        answer(_take_answer(cursor))
        return cursor.fetchall() if cursor.description is not None else []


#: A statement to send with a cursor's first one, and what to do with its one value.
_Prefix = tuple[sql.Composable, Callable[[float], None]]


def _connect_options(dsn: str, timeout: float) -> dict[str, Any]:
    """Options of the first connection: the pool's timeout as libpq's, unless the DSN sets its own."""
    options: dict[str, Any] = {"autocommit": True, "application_name": "memory-sandbox"}
    if "connect_timeout" not in psycopg.conninfo.conninfo_to_dict(dsn):
        options["connect_timeout"] = max(1, round(timeout))
    return options


class PostgresDatabase:
    """A pool of connections to one PostgreSQL database holding the memory of any number of scopes.

    Open one per worker process and take an adapter per scope with :meth:`storage`;
    the adapters share the pool. ``row_security`` sets the scope of every
    transaction for the database's row-level security policies.
    """

    def __init__(
        self,
        dsn: str,
        *,
        min_size: int = 1,
        max_size: int = 8,
        timeout: float = 30.0,
        row_security: bool = False,
        migrate: bool = True,
    ) -> None:
        self.description = describe_dsn(dsn)
        self.row_security = row_security
        self._statements: dict[str, str] = {}
        self._calls = threading.local()  # each thread's running call (its rate window)
        self._pool = psycopg_pool.ConnectionPool(
            dsn,
            min_size=min_size,
            max_size=max_size,
            timeout=timeout,
            open=False,
            kwargs={"autocommit": True, "application_name": "memory-sandbox"},
            name="memory-sandbox",
        )
        # Audit appends and tools get connections of their own: a call writes its intent record
        # while its storage session holds a connection, so sharing one pool could starve it.
        self._side = psycopg_pool.ConnectionPool(
            dsn,
            min_size=0,
            max_size=2,
            timeout=timeout,
            open=False,
            kwargs={"autocommit": True, "application_name": "memory-sandbox-audit"},
            name="memory-sandbox-audit",
        )
        try:
            # One direct connection first: a refused or unreachable server is reported at once,
            # where the pool would keep retrying for the whole timeout.
            with psycopg.connect(dsn, **_connect_options(dsn, timeout)) as probe:
                encoding = probe.execute("SHOW server_encoding").fetchone()
            _require_utf8(encoding)
            self._pool.open(wait=True, timeout=timeout)
            self._side.open()
            self.applied = self.migrate() if migrate else []
        except (psycopg.Error, psycopg_pool.PoolTimeout) as exc:
            self.close()
            raise StorageError(
                f"Error: The memory database {self.description} cannot be reached.", detail=type(exc).__name__
            ) from None
        except BaseException:
            self.close()
            raise

    def __repr__(self) -> str:
        return f"PostgresDatabase({self.description!r})"

    def __enter__(self) -> PostgresDatabase:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def storage(self, scope: str = "default") -> PostgresStorage:
        """The adapter of one scope; it shares this database's pool."""
        return PostgresStorage(self, scope)

    def migrate(
        self, *, row_security: bool | None = None, progress: Callable[[int, int], None] | None = None
    ) -> list[str]:
        """Bring the schema up to date (once, whoever runs it first); return the migrations applied.

        ``row_security`` True enables and forces the scope policies on the storage tables
        (from then on every transaction must set its scope, which adapters of a database
        opened with ``row_security=True`` do); False disables them; None leaves them.
        ``progress(done, total)`` is called after each migration applied.
        """
        with self._pool.connection() as connection, connection.transaction():
            connection.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            applied = migrate(_PgCursor(connection, self._statements), MIGRATIONS, _TYPES, progress)
            if row_security is not None:
                action = "ENABLE" if row_security else "DISABLE"
                force = "FORCE" if row_security else "NO FORCE"
                for table in _SCOPED_TABLES:
                    connection.execute(f"ALTER TABLE {table} {action} ROW LEVEL SECURITY")
                    connection.execute(f"ALTER TABLE {table} {force} ROW LEVEL SECURITY")
        return applied

    def close(self) -> None:
        self._pool.close()
        self._side.close()

    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection in autocommit mode for the audit sink and tools, from a pool apart from the stores'."""
        with self._side.connection() as connection:
            yield connection

    @contextmanager
    def transaction(self, scope: str, *, single: bool = False) -> Iterator[Cursor]:
        """One transaction for ``scope`` (``single``: one statement, run on its own).

        The first transaction of a call in a rate window (:meth:`rate_window`) takes the call from
        the scope's bucket in the same message as its ``BEGIN``: no round trip of its own.
        """
        window: _Window | None = getattr(self._calls, "window", None)
        take = window if window is not None and window.scope == scope and window.wait is None else None
        with self._pool.connection() as connection:
            if single and not self.row_security:
                # One statement on its own: the take goes in the same message, ahead of it.
                prefix = None if take is None else (_taken(scope, take), take.answer)
                yield _PgCursor(connection, self._statements, prefix)
                return
            cursor = _PgCursor(connection, self._statements)
            committing = False
            try:
                opening = None if take is None else _taken(scope, take)
                with _begun(connection, opening, self._scoped(scope)) as wait:
                    if take is not None:
                        take.wait = wait
                    yield cursor
                    committing = True
            except psycopg.OperationalError as exc:
                if committing and not _rolled_back(exc):
                    raise StorageError(
                        "Error: The memory store lost its connection while saving; the change may or may not "
                        "have been made. View the file before trying again.",
                        detail=type(exc).__name__,
                    ) from None
                raise

    def _scoped(self, scope: str) -> list[sql.Composable]:
        """What a transaction runs right after its ``BEGIN``: the scope, for row security."""
        if not self.row_security:
            return []
        return [sql.SQL("SELECT set_config({}, {}, true)").format(sql.Literal(_SCOPE_SETTING), sql.Literal(scope))]

    @contextmanager
    def rate_window(self, scope: str, per_minute: int) -> Iterator[None]:
        """The span of one call of ``scope`` in this thread: its first transaction takes the call."""
        self._calls.window = _Window(scope, per_minute)
        try:
            yield
        finally:
            self._calls.window = None

    def take_rate(self, scope: str, per_minute: int) -> float:
        """Take one call of ``scope``: the answer of the call's first transaction, else one statement."""
        window: _Window | None = getattr(self._calls, "window", None)
        if window is not None and window.scope == scope:
            wait, window.wait = window.wait, -1.0  # a call takes once
            if wait is not None and wait >= 0.0:
                return wait
        with self.transaction(scope, single=True) as cur:
            rows = cur.run("SELECT memory_rate_take(?, ?)", (scope, per_minute))
        return float(rows[0][0])


@dataclass(slots=True)
class _Window:
    """One call's rate window: what to take, and (once its first transaction began) the answer."""

    scope: str
    per_minute: int
    wait: float | None = None

    def answer(self, wait: float) -> None:
        self.wait = wait


def _taken(scope: str, window: _Window) -> sql.Composable:
    """The rate take as a transaction of its own, to send ahead of a call's first statement in the same
    message: committed at once, so a call that then fails or is refused has still used its turn, and
    the bucket's row is locked for the take only. (A COMMIT in a message's implicit transaction draws
    a warning, which the take's own SET LOCAL silences.)"""
    return sql.SQL("SET LOCAL client_min_messages = error; SELECT memory_rate_take({}, {}); COMMIT").format(
        sql.Literal(scope), sql.Literal(window.per_minute)
    )


#: Where the take's value is among the results of a message that starts with :func:`_taken`.
_TAKE_RESULT: Final = 1


@contextmanager
def _begun(
    connection: psycopg.Connection[Any], take: sql.Composable | None, scoped: list[sql.Composable]
) -> Iterator[float | None]:
    """A transaction on an autocommit connection; the rate ``take`` (committed on its own) and the
    ``scoped`` statements are sent in one message with its ``BEGIN``. Yields the take's answer."""
    if take is None and not scoped:
        with connection.transaction():
            yield None
        return
    parts = [take] if take is not None else []
    result = connection.execute(sql.SQL("; ").join([*parts, sql.SQL("BEGIN"), *scoped]))
    wait = _take_answer(result) if take is not None else None
    try:
        yield wait
    except BaseException:
        if connection.info.transaction_status != TransactionStatus.UNKNOWN:
            with contextlib.suppress(psycopg.Error):
                connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")


def _take_answer(result: psycopg.Cursor[Any]) -> float:
    """The take's value among a message's results, leaving the cursor on the last one."""
    answer = 0.0
    index = 0
    while True:
        if index == _TAKE_RESULT:
            row = result.fetchone()
            answer = float(row[0]) if row is not None else 0.0
        if not result.nextset():
            return answer
        index += 1


class PostgresRate:
    """A scope's bucket in ``memory_rate``, taken with the call's first transaction where it can be."""

    def __init__(self, database: PostgresDatabase, scope: str) -> None:
        self._database, self._scope = database, scope

    def __repr__(self) -> str:
        return f"PostgresRate(scope={self._scope!r})"

    def window(self, per_minute: int) -> AbstractContextManager[None]:
        return self._database.rate_window(self._scope, per_minute)

    def take(self, per_minute: int) -> float:
        return self._database.take_rate(self._scope, per_minute)


def _require_utf8(encoding: tuple[Any, ...] | None) -> None:
    if encoding is None or str(encoding[0]).upper() not in ("UTF8", "UTF-8"):
        raise StorageError("Error: The memory database must use the UTF8 encoding.")


def _rolled_back(exc: BaseException) -> bool:
    """Whether the server certainly rolled the transaction back (a conflict, not a lost connection)."""
    return isinstance(exc, (psycopg.errors.SerializationFailure, psycopg.errors.DeadlockDetected))


class PostgresStorage(SqlStorage):
    """The memory of one scope in PostgreSQL.

    ``PostgresStorage(dsn)`` opens a pool for itself (closed by :meth:`close`);
    ``PostgresDatabase(dsn).storage(scope)`` shares one pool among scopes.
    """

    def __init__(self, database: PostgresDatabase | str, scope: str = "default") -> None:
        super().__init__(scope)
        self._owned = not isinstance(database, PostgresDatabase)
        self.database = database if isinstance(database, PostgresDatabase) else PostgresDatabase(database)

    def __repr__(self) -> str:
        return f"PostgresStorage({self.database.description!r}, scope={self.scope!r})"

    def close(self) -> None:
        if self._owned:
            self.database.close()

    def __enter__(self) -> PostgresStorage:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _transaction(self, *, write: bool, single: bool) -> Any:
        return self.database.transaction(self.scope, single=single and not write)

    def rate_counter(self) -> PostgresRate:
        """The scope's call allowance, shared by every worker of the database (an UNLOGGED table)."""
        return PostgresRate(self.database, self.scope)

    _select_content_locked = _LOCKED_CONTENT
    _erase_statements = (
        "DELETE FROM memory_entries WHERE scope = ?",
        "DELETE FROM memory_versions WHERE scope = ?",
        "DELETE FROM memory_scope_keys WHERE scope = ?",
        "DELETE FROM memory_rate WHERE scope = ?",
        "DELETE FROM memory_usage WHERE scope = ?",
    )
    _select_paths = "SELECT path, is_dir, size, modified FROM memory_entries WHERE scope = ? AND path = ANY(?)"

    def _path_list(self, paths: list[str]) -> Any:
        return paths

    _backend_errors = (psycopg.Error, psycopg_pool.PoolTimeout)

    def _is_duplicate(self, exc: BaseException) -> bool:
        return isinstance(exc, psycopg.errors.UniqueViolation)

    def _is_retryable(self, exc: BaseException) -> bool:
        if isinstance(exc, psycopg_pool.PoolTimeout):
            return False  # already waited its full timeout for a connection
        if _rolled_back(exc):
            return True
        # A lost or refused connection (SQLSTATE class 08, an admin shutdown, or none at all).
        return isinstance(exc, psycopg.OperationalError) and (
            exc.sqlstate is None or exc.sqlstate.startswith("08") or exc.sqlstate.startswith("57P")
        )
