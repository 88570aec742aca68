"""The storage contract for LocalStorage, on a real folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox.storage import LocalStorage
from tests.contract.contract import StorageContract


class TestLocalStorage(StorageContract):
    @pytest.fixture
    def storage(self, tmp_path: Path) -> Iterator[LocalStorage]:
        with LocalStorage(tmp_path / "store") as store:
            yield store
