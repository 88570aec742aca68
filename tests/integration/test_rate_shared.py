"""``max_operations_per_minute`` is one allowance per scope of a store: shared by every process and
worker, and kept when a scope's sandbox is closed or evicted.

A bucket holds ``per_minute`` calls and refills at ``per_minute`` a minute. Over a run of ``t``
seconds a scope can therefore be allowed at most ``per_minute * (1 + t / 60)`` calls, whatever
the number of processes: the bounds below are computed from the measured time, so a slow
machine makes them looser, never wrong.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from anthropic.tools import BetaLocalFilesystemMemoryTool

from sandbox import Sandbox
from sandbox.decision import NullAuditSink
from sandbox.policy import Policy, parse_policy
from sandbox.scopes import Scopes
from sandbox.storage import LocalStorage
from sandbox.storage.base import StorageAdapter
from sandbox.storage.handler import HandlerStorage
from sandbox.storage.postgres import PostgresDatabase, PostgresStorage
from sandbox.storage.sqlite import SQLiteStorage
from tests.processes import FORK, run_together

PER_MINUTE = 12
WORKERS = 3
CALLS = 2 * PER_MINUTE  # each worker alone tries twice the allowance
VIEW = {"command": "view", "path": "/memories"}


def policy(per_minute: int = PER_MINUTE) -> Policy:
    text = f'schema_version = 1\nid = "r"\nrevision = 1\n[quota]\nmax_operations_per_minute = {per_minute}\n'
    return parse_policy(text, source="r")


def _stores(tmp_path: Path, pg_dsn: str | None) -> dict[str, Callable[[], StorageAdapter]]:
    stores: dict[str, Callable[[], StorageAdapter]] = {
        "local": lambda: LocalStorage(tmp_path / "memory", durability="none"),
        "sqlite": lambda: SQLiteStorage(tmp_path / "memory.db", "alice", durability="none"),
        # wrap mode: the SDK's own handler on one folder, wrapped in each process
        "wrap": lambda: HandlerStorage(BetaLocalFilesystemMemoryTool(str(tmp_path / "sdk"))),
    }
    if pg_dsn is not None:
        stores["postgres"] = lambda: PostgresStorage(PostgresDatabase(pg_dsn, max_size=2), "alice")
    return stores


@pytest.fixture(params=["local", "sqlite", "postgres", "wrap"])
def open_store(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], StorageAdapter]:
    dsn = request.getfixturevalue("pg_dsn") if request.param == "postgres" else None
    return _stores(tmp_path, dsn)[request.param]


def _caller(open_store: Callable[[], StorageAdapter], allowed: Any, refused: Any, start: Any) -> None:
    storage = open_store()
    with Sandbox(policy=policy(), storage=storage, audit=_null()) as sandbox:
        start.wait()
        for _ in range(CALLS):
            result = sandbox.execute(VIEW)
            counter = refused if result.decision.error_code == "rate_limited" else allowed
            with counter.get_lock():
                counter.value += 1
    getattr(storage, "close", lambda: None)()


def _null() -> NullAuditSink:
    return NullAuditSink()


def _bound(seconds: float) -> float:
    return PER_MINUTE * (1 + seconds / 60.0)


def test_processes_share_one_allowance(open_store: Callable[[], StorageAdapter]) -> None:
    """Three processes of one store, each trying twice the allowance: together they get it once."""
    open_store()  # made (and migrated) before the workers race to do it
    allowed, refused = FORK.Value("q", 0), FORK.Value("q", 0)
    began = time.monotonic()
    run_together(_caller, [(open_store, allowed, refused)] * WORKERS)
    elapsed = time.monotonic() - began
    assert allowed.value + refused.value == WORKERS * CALLS
    assert PER_MINUTE <= allowed.value <= _bound(elapsed), (allowed.value, elapsed)


def test_closing_a_sandbox_keeps_the_allowance(open_store: Callable[[], StorageAdapter]) -> None:
    """A sandbox closed and built again on the same store starts from what is left, not full."""
    began = time.monotonic()
    allowed = 0
    for _ in range(3):
        with Sandbox(policy=policy(), storage=open_store(), audit=_null()) as sandbox:
            allowed += sum(not sandbox.execute(VIEW).is_error for _ in range(PER_MINUTE))
    assert PER_MINUTE <= allowed <= _bound(time.monotonic() - began)


def test_calls_that_fail_use_the_allowance_too(open_store: Callable[[], StorageAdapter]) -> None:
    """A call that fails after its turn was taken (an edit of a missing file, a probe) has used it: the
    take is never undone with the call, so failures are no free oracle."""
    began = time.monotonic()
    probe = {"command": "str_replace", "path": "/memories/missing.md", "old_str": "a", "new_str": "b"}
    with Sandbox(policy=policy(), storage=open_store(), audit=_null()) as sandbox:
        codes = [sandbox.execute(probe).decision.error_code for _ in range(CALLS)]
    let_through = sum(code != "rate_limited" for code in codes)
    assert PER_MINUTE <= let_through <= _bound(time.monotonic() - began), codes


def test_eviction_keeps_the_allowance(tmp_path: Path) -> None:
    """A scope evicted from :class:`Scopes` (at most one open) is still out of calls when it comes back."""
    began = time.monotonic()
    scopes = Scopes(
        policy=policy(),
        storage_for=lambda scope: LocalStorage.for_scope(tmp_path / "scopes", scope, durability="none"),
        audit_for=lambda scope: _null(),
        max_open=1,
    )
    try:
        allowed = 0
        for _ in range(3):
            allowed += sum(not scopes.for_scope("alice").execute(VIEW).is_error for _ in range(PER_MINUTE))
            assert not scopes.for_scope("bob").execute(VIEW).is_error  # alice is evicted
        assert PER_MINUTE <= allowed <= _bound(time.monotonic() - began)
    finally:
        scopes.close()


def test_a_refusal_says_when_to_retry(tmp_path: Path) -> None:
    """Past the allowance a call is refused naming the limit and a wait of at most a call's refill time.
    (Up to ten allowances are tried: only a machine taking minutes for them would see no refusal.)"""
    with Sandbox(policy=policy(), storage=LocalStorage(tmp_path / "m"), audit=_null()) as sandbox:
        results = [sandbox.execute(VIEW) for _ in range(PER_MINUTE)]
        assert not any(result.is_error for result in results)  # a full bucket holds PER_MINUTE calls
        last = next(result for _ in range(10 * PER_MINUTE) if (result := sandbox.execute(VIEW)).is_error)
    assert last.decision.rule_ids == ("quota.max_operations_per_minute",)
    text = str(last.content)
    assert f"rate limit of {PER_MINUTE} operations per minute" in text
    wait = float(text.rsplit("retry in ", 1)[1].split(" s", 1)[0])
    assert 0.0 < wait <= 60.0 / PER_MINUTE


def test_a_check_takes_no_call(tmp_path: Path) -> None:
    """``Sandbox.check`` judges a command without touching the store: it uses none of the allowance."""
    with Sandbox(policy=policy(), storage=LocalStorage(tmp_path / "m"), audit=_null()) as sandbox:
        for _ in range(3 * PER_MINUTE):
            sandbox.check(VIEW)
        assert not (tmp_path / "m" / ".memory-sandbox" / "rate").exists()
        assert not any(sandbox.execute(VIEW).is_error for _ in range(PER_MINUTE))


def test_the_local_bucket_is_never_fsynced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Taking a call writes the bucket in place and never calls fsync or fdatasync."""
    with Sandbox(policy=policy(), storage=LocalStorage(tmp_path / "m"), audit=_null()) as sandbox:
        sandbox.execute(VIEW)  # the bucket's file exists from here
        synced: list[int] = []
        monkeypatch.setattr(os, "fsync", synced.append)
        monkeypatch.setattr(os, "fdatasync", synced.append)
        for _ in range(5):
            sandbox.execute(VIEW)
    assert synced == []
    assert (tmp_path / "m" / ".memory-sandbox" / "rate").stat().st_size == 16


@pytest.fixture
def traced_pg(pg_dsn: str, tmp_path: Path) -> Iterator[tuple[PostgresDatabase, Path]]:
    """A database whose one pooled connection writes libpq's protocol trace to a file."""
    database = PostgresDatabase(pg_dsn, min_size=1, max_size=1)
    trace = tmp_path / "trace"
    with trace.open("w") as sink:
        with database._pool.connection() as connection:
            connection.pgconn.trace(sink.fileno())
        yield database, trace
        with database._pool.connection() as connection:
            connection.pgconn.untrace()
    database.close()


def _round_trips(trace: Path) -> int:
    """Messages the client sent that wait for the server: simple queries and Syncs."""
    return sum(
        1 for line in trace.read_text().splitlines() if "\tF\t" in line and ("\tQuery\t" in line or "\tSync" in line)
    )


def test_postgres_takes_the_call_in_no_round_trip_of_its_own(traced_pg: tuple[PostgresDatabase, Path]) -> None:
    """A view and a create cost as many round trips with the rate limit as without it."""
    database, trace = traced_pg
    costs: dict[bool, list[int]] = {}
    for limited in (False, True):
        box = Sandbox(
            policy=policy() if limited else parse_policy('schema_version = 1\nid = "r"\nrevision = 1\n', source="r"),
            storage=database.storage(f"s{limited}"),
            audit=_null(),
        )
        box.execute({"command": "create", "path": "/memories/a.md", "file_text": "x"})
        calls = [
            VIEW,
            {"command": "view", "path": "/memories/a.md"},
            {"command": "create", "path": "/memories/b.md", "file_text": "y"},
        ]
        costs[limited] = []
        for call in calls:
            before = _round_trips(trace)
            assert not box.execute(call).is_error
            costs[limited].append(_round_trips(trace) - before)
    assert costs[True] == costs[False], costs


@pytest.mark.parametrize("planted", ["link", "folder"])
def test_wrap_mode_never_follows_what_stands_at_the_rate_path(tmp_path: Path, planted: str) -> None:
    """Something else at ``<folder>.rate`` (a link, a folder) is refused with a clear error, never followed."""
    handler = BetaLocalFilesystemMemoryTool(str(tmp_path / "sdk"))
    target = tmp_path / "elsewhere"
    target.write_bytes(b"keep")
    rate = Path(f"{os.path.realpath(handler.memory_root)}.rate")
    rate.parent.mkdir(parents=True, exist_ok=True)
    if planted == "link":
        rate.symlink_to(target)
    else:
        rate.mkdir()
    with Sandbox(policy=policy(), storage=HandlerStorage(handler), audit=_null()) as sandbox:
        result = sandbox.execute(VIEW)
    assert result.is_error and result.decision.error_code == "storage_error"
    assert "rate limit's state" in str(result.content)
    assert target.read_bytes() == b"keep"
