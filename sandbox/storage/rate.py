"""Rate allowances shared by every process and worker of one store.

``[quota] max_operations_per_minute`` is a token bucket per scope: ``per_minute``
calls a minute, in bursts of up to as many. The bucket lives where the scope's
memory lives, so N workers of one store share one allowance (not N), and closing
or evicting a scope's sandbox does not fill it again:

- :class:`FileRate`: a 16-byte record in a small file under a reserved name beside
  the scope's memory (local folders, SQLite), locked with ``flock`` and written in
  place, never fsynced: losing the last second of counting in a crash is harmless.
- PostgreSQL keeps buckets in an UNLOGGED table (see :mod:`sandbox.storage.postgres`).
- :class:`ProcessRate`: in memory, for stores that live in one process.

A bucket is judged by the clock of the place that keeps it (``time.time`` for
files, the server's clock for PostgreSQL), so workers with skewed clocks agree.
"""

from __future__ import annotations

import fcntl
import math
import os
import stat
import struct
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Final, Protocol, runtime_checkable

from sandbox.errors import StorageError

__all__ = ["FileRate", "ProcessRate", "RateCounter", "SharesRate", "open_rate_file", "refill"]

_RECORD: Final = struct.Struct("<dd")  # tokens left, when they were counted (Unix time)


@runtime_checkable
class RateCounter(Protocol):
    """The call allowance of one scope."""

    def take(self, per_minute: int) -> float:
        """Take one call: 0.0 when taken, else the seconds until one is free (nothing taken)."""
        ...

    def window(self, per_minute: int) -> AbstractContextManager[None]:
        """The span of one call: a counter whose store is remote may take the call together with the
        call's first statement inside it, so the take costs no round trip of its own."""
        ...


@runtime_checkable
class SharesRate(Protocol):
    """A storage adapter that keeps its scope's call allowance where every process sees it."""

    def rate_counter(self) -> RateCounter | None:
        """The shared allowance; None when this adapter has nowhere to keep it (buckets stay in process)."""
        ...


def refill(tokens: float, stamp: float, now: float, per_minute: int) -> tuple[float, float, float]:
    """One take from a bucket holding ``tokens`` at ``stamp``: (tokens left, stamp, seconds to wait).

    A clock that went back (or a record from the future) counts as no time passed.
    """
    tokens = min(float(per_minute), tokens + max(0.0, now - stamp) * per_minute / 60.0)
    if tokens < 1.0:
        return tokens, now, (1.0 - tokens) * 60.0 / per_minute
    return tokens - 1.0, now, 0.0


def open_rate_file(path: str) -> int:
    """A bucket's file outside a store's reserved folder (SQLite, wrap mode): made 0600 if missing, never
    followed through a link, and refused unless it is a regular file of this user's with one link (a file
    another user made first could hold a bucket frozen in the future)."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except OSError:
        raise StorageError("Error: The rate limit's state beside the memory cannot be opened.") from None
    status = os.fstat(fd)
    if not stat.S_ISREG(status.st_mode) or status.st_uid != os.getuid() or status.st_nlink != 1:
        os.close(fd)
        raise StorageError("Error: The rate limit's state beside the memory is not this store's own file.")
    os.fchmod(fd, 0o600)
    return fd


class ProcessRate:
    """Buckets by key kept in this process (stores that exist only here, and tests with a clock)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._buckets: dict[str | None, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return "ProcessRate()"

    def take(self, per_minute: int, key: str | None = None) -> float:
        now = self._clock()
        with self._lock:
            tokens, stamp = self._buckets.get(key, (float(per_minute), now))
            tokens, stamp, wait = refill(tokens, stamp, now, per_minute)
            self._buckets[key] = (tokens, stamp)
        return wait

    def window(self, per_minute: int) -> AbstractContextManager[None]:
        return nullcontext()


class FileRate:
    """A bucket in a file of its own, shared by every process that opens the same file.

    The file is opened (made 0600) on first use, not at construction, so a store that
    never limits its rate never makes it. A record that is missing or unreadable
    counts as a full bucket.
    """

    def __init__(self, open_file: Callable[[], int], clock: Callable[[], float] = time.time) -> None:
        self._open_file = open_file
        self._clock = clock
        self._fd: int | None = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return "FileRate()"

    def take(self, per_minute: int) -> float:
        with self._locked() as fd:
            raw = os.pread(fd, _RECORD.size, 0)
            now = self._clock()
            tokens, stamp = _RECORD.unpack(raw) if len(raw) == _RECORD.size else (float(per_minute), now)
            if not (math.isfinite(tokens) and tokens >= 0.0 and math.isfinite(stamp)):  # torn: start full
                tokens, stamp = float(per_minute), now
            # A worker with a higher limit may have left more: this one's limit caps it (refill does).
            tokens, stamp, wait = refill(tokens, stamp, now, per_minute)
            os.pwrite(fd, _RECORD.pack(tokens, stamp), 0)  # no fsync: a lost count is harmless
        return wait

    def window(self, per_minute: int) -> AbstractContextManager[None]:
        return nullcontext()

    def close(self) -> None:
        with self._lock:
            fd, self._fd = self._fd, None
            if fd is not None:
                os.close(fd)

    @contextmanager
    def _locked(self) -> Iterator[int]:
        with self._lock:
            if self._fd is None:
                self._fd = self._open_file()
            fcntl.flock(self._fd, fcntl.LOCK_EX)
            try:
                yield self._fd
            finally:
                fcntl.flock(self._fd, fcntl.LOCK_UN)
