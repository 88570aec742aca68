"""The storage contract for InMemoryStorage, the reference adapter."""

from __future__ import annotations

import pytest

from sandbox.storage import InMemoryStorage
from tests.contract.contract import StorageContract


class TestInMemoryStorage(StorageContract):
    @pytest.fixture
    def storage(self) -> InMemoryStorage:
        return InMemoryStorage()
