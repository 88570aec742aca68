"""Retention: expire files past their time to live, and erase a scope on request.

Both act on a sandbox's store directly (they are the operator's, not the model's)
and record every deletion as a decision, intent before the change.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Protocol, cast

from sandbox.decision import Note
from sandbox.errors import PathDenied, SandboxError
from sandbox.globs import Glob
from sandbox.paths import ROOT, MemoryPath, is_canonical_name
from sandbox.pipeline import Sandbox
from sandbox.storage.base import Edit, StorageAdapter
from sandbox.store import Store

__all__ = ["ExpiryReport", "ManagedStorage", "expire", "managed_storage", "purge", "stored_files"]

_DAY = 86_400.0
#: Told (done, total) as a long run goes (the command line draws a bar on a terminal).
Progress = Callable[[int, int], None]


class ManagedStorage(StorageAdapter, Protocol):
    """A store the operator's tools act on: the adapter contract and its one-call writes."""

    def delete(self, path: MemoryPath) -> None: ...

    def modify(self, path: MemoryPath, edit: Edit) -> bytes: ...


@dataclass
class ExpiryReport:
    examined: int = 0
    pinned: int = 0
    deleted: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)


def managed_storage(sandbox: Sandbox) -> ManagedStorage:
    if not isinstance(sandbox.backend, Store):
        raise SandboxError("Error: retention works on the sandbox's own stores, not on a wrapped handler")
    return cast(ManagedStorage, sandbox.backend.storage)


def stored_files(storage: StorageAdapter) -> Iterator[tuple[MemoryPath | None, str, float]]:
    """Every file of a store: its path (None when no model path can name it), how to show it, last change."""
    for node in storage.tree(ROOT).nodes:
        if node.is_dir:
            continue
        shown = "/memories/" + "/".join(node.parts)
        try:
            path = functools.reduce(MemoryPath.child, node.parts, ROOT)
        except PathDenied:
            yield None, shown, node.modified
            continue
        yield path, shown, node.modified


def expire(
    sandbox: Sandbox, now: float | None = None, *, dry_run: bool = False, progress: Progress | None = None
) -> ExpiryReport:
    """Delete every file whose time to live (``[retention]``) has passed; pinned globs are kept.

    One bad entry never stops the run: a file that cannot be deleted (or named) is reported as failed.
    ``dry_run``: list in ``deleted`` what would be deleted, and delete (and record) nothing.
    ``progress(done, total)`` is called after each file.
    """
    section = sandbox.policy.retention
    rules = [(Glob(rule.glob), rule.ttl_days) for rule in section.rules]
    pinned = [Glob(glob) for glob in section.pinned]
    storage = managed_storage(sandbox)
    now = time.time() if now is None else now
    report = ExpiryReport()
    files = list(stored_files(storage))
    for path, shown, modified in files:
        if progress is not None:
            progress(report.examined, len(files))
        report.examined += 1
        if path is None:
            report.failed.append(sandbox.scrubbed((shown[:200],))[0])
            continue
        if any(glob.matches(path) for glob in pinned):
            report.pinned += 1
            continue
        ttl = next((days for glob, days in rules if glob.matches(path)), section.ttl_days)
        if ttl is None or now - modified <= ttl * _DAY:
            continue
        if dry_run:
            report.deleted.append(str(path))
            continue
        note = Note("retention.ttl", f"unchanged for more than {ttl} days")
        done = sandbox.administer("expire", path, functools.partial(_delete, storage, path), note)
        (report.deleted if done else report.failed).append(str(path))
    if progress is not None and files:
        progress(len(files), len(files))
    return report


def purge(sandbox: Sandbox, *, progress: Progress | None = None) -> list[str]:
    """Delete everything in the sandbox's store (an erasure request); return what was deleted.

    Each top-level entry is deleted and recorded on its own; one that fails does not stop the rest
    (the caller then erases the store whole, and reports what remains). ``progress(done, total)``
    is called after each entry.
    """
    storage = managed_storage(sandbox)
    with storage.scan(ROOT) as entries:
        names = [entry.name for entry in entries if is_canonical_name(entry.name)]
    deleted = []
    for done, name in enumerate(names, 1):
        path = ROOT.child(name)
        note = Note("retention.purge", "erasure")
        if sandbox.administer("purge", path, functools.partial(_delete, storage, path), note):
            deleted.append(str(path))
        if progress is not None:
            progress(done, len(names))
    return deleted


def _delete(storage: ManagedStorage, path: MemoryPath, _decision: str) -> None:
    storage.delete(path)
