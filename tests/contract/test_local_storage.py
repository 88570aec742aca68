"""The storage contract for LocalStorage, on a real folder (a folder per scope)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from sandbox.storage import LocalStorage
from tests.contract.contract import StorageContract


class TestLocalStorage(StorageContract):
    @pytest.fixture
    def scoped(self, tmp_path: Path) -> Iterator[Callable[[str], LocalStorage]]:
        opened: dict[str, LocalStorage] = {}
        yield lambda scope: opened.setdefault(scope, LocalStorage.for_scope(tmp_path / "scopes", scope))
        for store in opened.values():
            store.close()
