"""The storage contract for PostgresStorage, on a real PostgreSQL server: every scope in one database."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from sandbox.storage.postgres import PostgresDatabase, PostgresStorage
from tests.contract.contract import StorageContract


class TestPostgresStorage(StorageContract):
    @pytest.fixture
    def scoped(self, pg_dsn: str) -> Iterator[Callable[[str], PostgresStorage]]:
        with PostgresDatabase(pg_dsn, max_size=2) as database:
            yield database.storage
