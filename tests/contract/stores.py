"""Stores of every kind for tests that run one scenario on each (the parameter names the kind)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox.storage import InMemoryStorage, LocalStorage
from sandbox.storage.base import StorageAdapter
from sandbox.storage.postgres import PostgresDatabase
from sandbox.storage.sqlite import SQLiteDatabase

__all__ = ["EVERY_STORE", "open_store"]

EVERY_STORE = ["memory", "local", "sqlite", "postgres"]


def open_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StorageAdapter]:
    """A fresh store of the kind ``request.param`` names (PostgreSQL: a scope of its own in a fresh schema)."""
    if request.param == "memory":
        yield InMemoryStorage()
    elif request.param == "local":
        with LocalStorage(tmp_path / "store", durability="none") as store:
            yield store
    elif request.param == "sqlite":
        with SQLiteDatabase(tmp_path / "memory.db", durability="none") as database:
            yield database.storage("s")
    else:
        dsn = request.getfixturevalue("pg_dsn")
        with PostgresDatabase(dsn, max_size=2) as database:
            yield database.storage(uuid.uuid4().hex)
