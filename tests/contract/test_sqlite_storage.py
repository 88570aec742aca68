"""The storage contract for SQLiteStorage: every scope in one real database file."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from sandbox.storage.sqlite import SQLiteDatabase, SQLiteStorage
from tests.contract.contract import StorageContract


class TestSQLiteStorage(StorageContract):
    @pytest.fixture
    def scoped(self, tmp_path: Path) -> Iterator[Callable[[str], SQLiteStorage]]:
        with SQLiteDatabase(tmp_path / "memory.db") as database:
            yield database.storage
