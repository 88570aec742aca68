"""Worker processes started together, for tests of concurrent writers."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from typing import Any

FORK = multiprocessing.get_context("fork")


def run_together(target: Callable[..., None], worker_args: Sequence[tuple[Any, ...]], timeout: float = 120) -> None:
    """Start one process per argument tuple, release them at once (an Event passed last), and
    require that every one finishes cleanly."""
    start = FORK.Event()
    workers = [FORK.Process(target=target, args=(*args, start)) for args in worker_args]
    for process in workers:
        process.start()
    start.set()
    for process in workers:
        process.join(timeout=timeout)
        assert process.exitcode == 0, f"a worker ended with {process.exitcode}"
