"""Fixtures the integration tests share."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.test_cli import EXAMPLES, run


@pytest.fixture(scope="module")
def replayed_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The audit log of the injection example replayed on the embedded default store."""
    folder = tmp_path_factory.mktemp("review")
    assert run("replay", str(EXAMPLES / "prompt-injection.jsonl"), cwd=folder).returncode == 0
    return folder / "memory.audit.jsonl"
