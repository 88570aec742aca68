"""The audit chain's records: how a line is hashed, rendered and dated, and the files a log spans."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any, Final

from sandbox.errors import SandboxError

__all__ = ["GENESIS", "AuditError", "append_whole", "dumps", "line_hash", "rfc3339", "rotated_segments"]

GENESIS: Final = "0" * 64


class AuditError(SandboxError):
    """The audit log could not be written; the call is refused (fail closed)."""

    code = "audit_error"
    exit_code = 4


def line_hash(line: bytes) -> str:
    """The chain hash of one log line (its bytes without the newline)."""
    return hashlib.sha256(line.rstrip(b"\n")).hexdigest()


def rotated_segments(log: Path) -> list[Path]:
    """The log's files in chain order: ``<log>.1``, ``<log>.2``, ..., then ``<log>``."""
    numbered = []
    for candidate in log.parent.glob(log.name + ".*"):
        suffix = candidate.name[len(log.name) + 1 :]
        if suffix.isdigit():
            numbered.append((int(suffix), candidate))
    return [path for _, path in sorted(numbered)] + ([log] if log.exists() else [])


_SECOND: list[tuple[int, str]] = [(-1, "")]


def rfc3339(ns: int) -> str:
    """UTC time with microseconds, ``2026-11-30T05:04:12.309013Z``; the per-second prefix is cached."""
    seconds, micros = divmod(ns // 1000, 1_000_000)
    cached, prefix = _SECOND[0]
    if seconds != cached:
        prefix = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds))
        _SECOND[0] = (seconds, prefix)
    return f"{prefix}.{micros:06d}Z"


def dumps(value: Any, **_: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def append_whole(fd: int, data: bytes, size: int) -> None:
    """Append all of ``data`` to a file of ``size`` bytes, or cut the file back to ``size`` and raise:
    a write cut short (no space left, a file size limit) never leaves part of a line behind."""
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    except OSError:
        with contextlib.suppress(OSError):  # were this to fail too, the next open seals the torn line
            os.ftruncate(fd, size)
        raise
