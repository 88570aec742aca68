"""The storage contract for InMemoryStorage, the reference adapter (one instance per scope)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sandbox.storage import InMemoryStorage
from tests.contract.contract import StorageContract


class TestInMemoryStorage(StorageContract):
    @pytest.fixture
    def scoped(self) -> Callable[[str], InMemoryStorage]:
        scopes: dict[str, InMemoryStorage] = {}
        return lambda scope: scopes.setdefault(scope, InMemoryStorage())
