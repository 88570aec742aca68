"""Apply the current secret and injection rules to what a store already holds.

Rule packs change: a rule added today should protect the notes written
yesterday. :func:`rescan` reads every file of a sandbox's store with the
sandbox's own secret rules and reports what it finds (rule ids and counts,
never a value); with ``apply`` it redacts each file in place, every change
recorded as a decision (intent before the change), like expiry and purge.
The content versions keep (:mod:`sandbox.history`) is scanned and redacted too.

The same files and versions are read with the sandbox's injection rules and
scorer: what they find now (text planted for the agent, stored before a rule
or the scorer knew it) is reported by rule id, never changed: which session
wrote it, and undoing that session, is for an operator (``memory-sandbox
history``, ``rollback``).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from sandbox.decision import Note
from sandbox.errors import PolicyError, SandboxError
from sandbox.history import Shelf, version_path
from sandbox.paths import MemoryPath
from sandbox.pipeline import Sandbox
from sandbox.redaction import SecretGuard
from sandbox.retention import ManagedStorage, managed_storage, stored_files
from sandbox.secrets import Finding, redact
from sandbox.storage.base import Edit

__all__ = ["FileFindings", "RescanReport", "rescan"]


@dataclass(frozen=True, slots=True)
class FileFindings:
    """What was found in one stored file or version: how many of each rule."""

    path: str
    rules: dict[str, int]
    redacted: bool = False


@dataclass
class RescanReport:
    examined: int = 0
    skipped: list[str] = field(default_factory=list)  # not UTF-8 text: not scanned
    found: list[FileFindings] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)  # redaction refused or failed (recorded)
    # Files and versions holding text the injection rules or scorer find (reported, never changed).
    planted: list[FileFindings] = field(default_factory=list)


def rescan(sandbox: Sandbox, *, apply: bool = False) -> RescanReport:
    """Scan every stored file with the sandbox's secret rules; with ``apply``, redact what they find.

    What a rule's action allows for a path (``allow``) is reported by no one and
    left alone; everything else found is redacted, as a write would have been
    (a ``reject`` rule cannot refuse what is already stored, so it redacts).
    Files and versions are read with the injection scan too; its findings are
    reported in ``planted`` and left as they are.
    """
    guard = sandbox.secrets
    if guard is None and sandbox.injection is None:
        raise PolicyError("secret and injection scanning are both off in this policy: nothing to rescan")
    storage = managed_storage(sandbox)
    report = RescanReport()
    for path, raw, _ in list(stored_files(storage)):
        report.examined += 1
        shown = guard.scrub(raw) if guard is not None else raw  # a rule added since may find a secret in a name
        if path is None:
            report.skipped.append(shown[:200])  # a name no model path can address
            continue
        action = None
        if apply and guard is not None:
            action = functools.partial(_modify, storage, path, functools.partial(_redacted, guard, path))
        _judge(sandbox, guard, report, shown, path, data=storage.read(path), what="", action=action)
    _rescan_versions(sandbox, guard, storage, report, apply=apply)
    return report


def _rescan_versions(
    sandbox: Sandbox, guard: SecretGuard | None, storage: ManagedStorage, report: RescanReport, *, apply: bool
) -> None:
    """The same for the content versions keep (a file's past may hold a key a rule now knows)."""
    with storage.writing() as writer:
        if not isinstance(writer, Shelf):
            return
        kept = [version for version in writer.shelved() if version.content is not None]
    for version in kept:
        report.examined += 1
        shown = f"{guard.scrub(version.path) if guard is not None else version.path} (version {version.seq})"
        try:
            path = version_path(version.path)
        except SandboxError:
            report.skipped.append(shown[:200])
            continue
        action = None
        if apply and guard is not None:
            action = functools.partial(_redact_version, storage, guard, path, version.seq)
        what = f"version {version.seq} "
        _judge(sandbox, guard, report, shown, path, data=version.content or b"", what=what, action=action)


def _judge(
    sandbox: Sandbox,
    guard: SecretGuard | None,
    report: RescanReport,
    shown: str,
    path: MemoryPath,
    *,
    data: bytes,
    what: str,
    action: Callable[[str], None] | None,
) -> None:
    """Report the secrets and planted text in ``data`` (UTF-8 text only); with an ``action``, redact
    the secrets as a decision."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        report.skipped.append(shown)
        return
    if sandbox.injection is not None:
        planted = Counter(finding.rule_id for finding in sandbox.injection.find(text))
        if planted:
            report.planted.append(FileFindings(shown, dict(sorted(planted.items()))))
    if guard is None:
        return
    rules = Counter(finding.rule_id for finding in _findings(guard, path, data))
    if not rules:
        return
    done = False
    if action is not None:
        note = Note("secret.rescan", f"{what}redacted by rescan: " + ", ".join(sorted(rules)))
        done = sandbox.administer("rescan", path, action, note)
        if not done:
            report.failed.append(shown)
    report.found.append(FileFindings(shown, dict(sorted(rules.items())), done))


def _redact_version(storage: ManagedStorage, guard: SecretGuard, path: MemoryPath, seq: int, _decision: str) -> None:
    with storage.writing() as writer:
        if not isinstance(writer, Shelf):
            raise PolicyError("the store no longer keeps versions")
        for version in writer.shelved(str(path)):
            if version.seq == seq and version.content is not None:
                writer.reshelve(replace(version, content=_redacted(guard, path, version.content)))


def _findings(guard: SecretGuard, path: MemoryPath, data: bytes) -> list[Finding]:
    return [finding for finding in guard.find(data) if guard.action(finding.rule_id, path) != "allow"]


def _redacted(guard: SecretGuard, path: MemoryPath, current: bytes) -> bytes:
    """The file's bytes as they are at the moment of the change, redacted."""
    return redact(current, _findings(guard, path, current))


def _modify(storage: ManagedStorage, path: MemoryPath, edit: Edit, _decision: str) -> None:
    storage.modify(path, edit)
