"""Shared test configuration: hypothesis profiles and the async backend."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

# `ci` is fast and runs in .ci/run; `fuzz` is long (HYPOTHESIS_PROFILE=fuzz pytest tests/fuzz);
# `dev` is lighter for quick local runs. The example database is never committed.
settings.register_profile("ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile("fuzz", max_examples=50_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
