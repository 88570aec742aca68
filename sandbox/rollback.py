"""Undo: put back what a session (or every call since a time, or one decision) changed.

A rollback reads the versions the store kept (:mod:`sandbox.history`), picks the changes
to undo, and undoes them newest first in one write session: an edit's old content is
written back, a deleted file or folder is made again with its content, a rename is moved
back, a created file and the folders its create made are removed. Each undo keeps its own
version (caller ``rollback``), so a rollback can be rolled back, and the whole rollback is
one audit decision (intent before the first change). When a later session changed a path
the rollback would touch, nothing is done unless ``force`` is given: the later change
would be lost.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from sandbox.commands import Create, Insert, Operation, StrReplace
from sandbox.decision import CallContext, Note
from sandbox.effects import PlainLens, missing_folders, plan
from sandbox.errors import OperationFailed, SandboxError
from sandbox.history import (
    Horizon,
    Keeping,
    Origin,
    Scrub,
    Shelf,
    Version,
    admit,
    redacted,
    scrubbed,
    version_path,
    versions_before_move,
    versions_before_put,
    versions_before_remove,
)
from sandbox.paths import MemoryPath
from sandbox.stages import InjectionScanner, RateLimiter
from sandbox.storage.base import Writer
from sandbox.store import Store, Transaction

if TYPE_CHECKING:
    from sandbox.pipeline import Sandbox

__all__ = [
    "Rollback",
    "RollbackRefused",
    "RollbackReport",
    "Selection",
    "describe",
    "diff_lines",
    "drop_versions",
    "plan_rollback",
    "redact_version",
    "release_version",
    "roll_back",
    "run_rollback",
    "select",
]


@dataclass(frozen=True, slots=True)
class Selection:
    """Which changes to undo: a session's, every change since a time, or one decision's."""

    session: str | None = None
    since: float | None = None
    decision: str | None = None

    def __post_init__(self) -> None:
        if sum(value is not None for value in (self.session, self.since, self.decision)) != 1:
            raise ValueError("choose exactly one of session, since and decision")

    def __str__(self) -> str:
        if self.session is not None:
            return f"session {self.session}"
        if self.decision is not None:
            return f"decision {self.decision}"
        return f"changes since {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime(self.since or 0))}"

    def picks(self, version: Version) -> bool:
        if self.session is not None:
            return version.session == self.session
        if self.decision is not None:
            return version.decision_id == self.decision
        return version.time >= (self.since or 0.0)


def select(versions: Sequence[Version], selection: Selection) -> list[Version]:
    """The versions of the chosen changes, oldest first (writes held for review changed nothing)."""
    return [version for version in versions if selection.picks(version) and not version.quarantined]


@dataclass(frozen=True, slots=True)
class Rollback:
    """What a rollback would undo (newest first), and the later changes it would overwrite."""

    selection: Selection
    undo: tuple[Version, ...]
    conflicts: tuple[Version, ...] = ()
    #: Undos that cannot be done (content erased by redaction).
    lost: tuple[Version, ...] = ()
    #: When versions the undo needs were dropped (keep_versions, keep_days, max_bytes): the time
    #: before which history has gaps, so the undo would leave an in-between state.
    gap: float | None = None

    @property
    def paths(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for version in reversed(self.undo):
            seen.setdefault(version.path, None)
            if version.new_path is not None:
                seen.setdefault(version.new_path, None)
        return tuple(seen)


def plan_rollback(versions: Sequence[Version], selection: Selection, horizon: Horizon | None = None) -> Rollback:
    """The undo of ``selection`` over a store's versions (oldest first, as :meth:`Shelf.shelved` gives
    them); ``horizon`` says how far back they are complete (:class:`~sandbox.history.Horizon`)."""
    chosen = select(versions, selection)
    if not chosen:
        return Rollback(selection, ())
    horizon = horizon or Horizon()
    # --since needs every version after its time; a session (or a decision) those its undo restores.
    edge = horizon.every if selection.since is not None else horizon.sessions
    start = selection.since if selection.since is not None else chosen[0].time
    gap = edge if edge and edge >= start else None
    first = chosen[0].seq
    picked = {version.seq for version in chosen}
    touched = {path for version in chosen for path in (version.path, version.new_path) if path is not None}
    conflicts = tuple(
        version
        for version in versions
        if version.seq > first
        and version.seq not in picked
        and not version.quarantined
        and any(version.touches(path) for path in touched)
    )
    lost = tuple(version for version in chosen if version.redacted and version.change in ("edit", "delete"))
    return Rollback(selection, tuple(reversed(chosen)), conflicts, lost, gap)


def roll_back(
    writer: Writer,
    rollback: Rollback,
    origin: Origin,
    keeping: Keeping | None,
    *,
    force: bool = False,
    done: list[str] | None = None,
    scrub: Scrub | None = None,
) -> list[str]:
    """Undo ``rollback`` in a write session; return one line per change made (or, forced, skipped).

    Unforced, raises :class:`OperationFailed` naming the first undo the store's state does not
    allow (changed behind the sandbox's back: later sessions were refused before); the session
    ends with it (a database store rolls back, a folder store keeps the undos made). Forced, such
    an undo is skipped and named.
    """
    if not isinstance(writer, Shelf):
        raise OperationFailed("Error: This store keeps no versions, so nothing can be rolled back.")
    done = [] if done is None else done
    undo = _Undo(writer, origin, keeping, force=force, scrub=scrub)
    for version in rollback.undo:
        if version in rollback.lost:
            done.append(f"skipped {version.path}: its content was erased")
            continue
        done.extend(undo.version(version))
    return done


class _Undo:
    """Undo primitives on one write session, each keeping the version of what it replaces."""

    def __init__(
        self, writer: Writer, origin: Origin, keeping: Keeping | None, *, force: bool, scrub: Scrub | None = None
    ) -> None:
        self.writer, self.origin, self.keeping, self.force, self.scrub = writer, origin, keeping, force, scrub

    def _cannot(self, reason: str) -> str:
        if not self.force:
            raise OperationFailed(f"Error: {reason}")
        return f"skipped: {reason}"

    def version(self, version: Version) -> Iterator[str]:
        path = version_path(version.path)
        if version.change == "create":
            if version.is_dir:
                yield from self._unmake((version.path,))
            elif self._is_file(path):
                yield from self._remove(path)
            yield from self._unmake(version.made)
        elif version.change == "edit" or (version.change == "delete" and not version.is_dir):
            if version.content is None:
                raise OperationFailed(f"Error: The content of {version.path} before version {version.seq} was erased.")
            yield from self.write(path, version.content)
        elif version.change == "delete":
            if self.writer.stat(path) is None:
                made = missing_folders(self.writer, path.parent)
                self._keep(
                    [replace(v, is_dir=True) for v in versions_before_put(path, self.origin, before=None, made=made)]
                )
                _shelf(self.writer).make_folder(path)
                yield f"made folder {path}"
        else:
            moved = version_path(version.new_path or "")
            if self.writer.stat(moved) is None:
                yield self._cannot(f"{moved} is gone, so it cannot be moved back to {path}.")
                return
            if self.writer.stat(path) is not None:
                yield self._cannot(f"{path} exists again, so {moved} cannot be moved back.")
                return
            made = missing_folders(self.writer, path.parent)
            self._keep(versions_before_move(moved, path, self.origin, is_dir=version.is_dir, made=made))
            self.writer.move(moved, path)
            yield f"moved {moved} back to {path}"
            yield from self._unmake(version.made)

    def _is_file(self, path: MemoryPath) -> bool:
        entry = self.writer.stat(path)
        return entry is not None and not entry.is_dir

    def _keep(self, versions: list[Version]) -> None:
        if self.keeping is not None:
            if self.scrub is not None:
                versions = [scrubbed(version, self.scrub) for version in versions]
            # An undo is never refused for room: it keeps about what it undoes.
            admit(_shelf(self.writer), versions, self.keeping, self.origin.time, enforce=False)

    def write(self, path: MemoryPath, content: bytes) -> Iterator[str]:
        entry = self.writer.stat(path)
        if entry is not None and entry.is_dir:
            yield from self._remove(path)
            entry = None
        if entry is None:
            made = missing_folders(self.writer, path.parent)
            self._keep(versions_before_put(path, self.origin, before=None, made=made))
            self.writer.put(path, content, new=True)
            yield f"restored {path} ({len(content):,} bytes)"
            return
        current = self.writer.read(path)
        if current == content:
            return
        self._keep(versions_before_put(path, self.origin, before=current))
        self.writer.put(path, content, new=False)
        yield f"restored {path} ({len(content):,} bytes)"

    def _remove(self, path: MemoryPath) -> Iterator[str]:
        self._keep(versions_before_remove(self.writer, path, self.writer.tree(path), self.origin))
        self.writer.remove(path)
        yield f"removed {path}"

    def _unmake(self, made: tuple[str, ...]) -> Iterator[str]:
        """Remove the folders a change made, deepest first, where they are empty again."""
        for text in reversed(made):
            folder = version_path(text)
            entry = self.writer.stat(folder)
            if entry is not None and entry.is_dir and not self.writer.names(folder):
                yield from self._remove(folder)


def _shelf(writer: Writer) -> Shelf:
    if not isinstance(writer, Shelf):
        raise OperationFailed("Error: This store keeps no versions, so nothing can be rolled back.")
    return writer


def describe(version: Version) -> str:
    """One line: when, what, which path, by whom (texts as recorded; callers print them safely)."""
    when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(version.time))
    # Quoted: a name may hold spaces, brackets and commas, never a closing quote left as it is.
    what = f"{version.change} {json.dumps(version.path, ensure_ascii=False)}"
    if version.new_path is not None:
        what += f" -> {json.dumps(version.new_path, ensure_ascii=False)}"
    if version.is_dir:
        what += " (folder)"
    who = ", ".join(
        f"{name} {json.dumps(value, ensure_ascii=False)}"
        for name, value in (
            ("session", version.session),
            ("principal", version.principal),
            ("caller", version.caller),
            ("decision", version.decision_id),
        )
        if value
    )
    flags = "".join(
        f" [{flag}]" for flag, on in (("redacted", version.redacted), ("quarantined", version.quarantined)) if on
    )
    return f"#{version.seq} {when} {what} ({who}){flags}"


def diff_lines(before: bytes | None, after: bytes | None, path: str) -> list[str]:
    """A unified diff of two contents of ``path`` (undecodable bytes shown as replacement characters)."""
    old = (before or b"").decode("utf-8", "replace").splitlines(keepends=True)
    new = (after or b"").decode("utf-8", "replace").splitlines(keepends=True)
    return [line.rstrip("\n") for line in difflib.unified_diff(old, new, f"{path} (before)", f"{path} (after)")]


def rollback_origin(decision_id: str, operator: str | None, scope: str | None) -> Origin:
    """Who a rollback's changes are by: the operator, in a session of their own."""
    return Origin(
        decision_id,
        time.time(),
        CallContext(scope=scope, principal=operator, session_id=f"rollback-{decision_id}"),
        caller="rollback",
    )


class RollbackRefused(OperationFailed):
    """A rollback that would overwrite later changes, or restore erased content, without ``force``."""

    code = "rollback_refused"


@dataclass(slots=True)
class RollbackReport:
    """What a rollback did (or, dry, would do)."""

    plan: Rollback
    done: list[str]
    ok: bool
    error: str = ""


def _store_of(sandbox: Sandbox) -> Store:
    store = sandbox.backend
    if not isinstance(store, Store):
        raise OperationFailed("Error: A wrapped handler keeps no versions, so nothing can be rolled back.")
    return store


def redact_version(sandbox: Sandbox, path: str, seq: int) -> Version:
    """Erase the content of version ``seq`` of ``path`` from the history, as one audited decision.

    The version's record stays (its digest still matches what the chain recorded); its content is
    gone from the store (the folder store rewrites its log). Returns the version as it was.
    """
    storage = _store_of(sandbox).storage
    found: list[Version] = []
    errors: list[str] = []

    def action(_decision: str) -> None:
        with storage.writing() as writer:
            shelf = _shelf(writer)
            matches = [v for v in shelf.shelved(path) if v.seq == seq and v.path == path]
            if not matches:
                errors.append(f"Error: No version {seq} of {path} is kept.")
                raise OperationFailed(errors[-1])
            found.append(matches[0])
            shelf.reshelve(redacted(matches[0]))

    if not sandbox.administer("history-redact", version_path(path), action, Note("history.redact", f"version {seq}")):
        raise OperationFailed(errors[0] if errors else f"Error: Version {seq} of {path} could not be redacted.")
    return found[0]


def release_version(sandbox: Sandbox, path: str, seq: int, *, operator: str | None = None) -> Version:
    """Apply a write held for review (quarantined version ``seq`` of ``path``) as one audited decision.

    The write is judged again, as the call that made it, against the store as it is now: every
    stage of the policy but the injection scan that held it (quota, size, names, access rules,
    secrets). It is refused when the file is no longer the one the write was held for (changed,
    removed, or something now at a created path), so a release never overwrites later work or a
    folder. The held version goes; the change keeps a version of what it replaced. Returns it.
    """
    store = _store_of(sandbox)
    storage = store.storage
    found: list[Version] = []
    errors: list[str] = []

    def action(decision_id: str) -> None:
        try:
            with storage.writing() as writer:
                shelf = _shelf(writer)
                matches = [v for v in shelf.shelved(path) if v.seq == seq and v.path == path and v.quarantined]
                if not matches or matches[0].content is None:
                    raise OperationFailed(f"Error: Version {seq} of {path} is not a write held for review.")
                version = matches[0]
                context = CallContext(scope=sandbox.scope, principal=version.principal, session_id=version.session)
                effect = plan(_released(writer, version), writer, PlainLens(), context)
                for stage in sandbox.stages:
                    if not isinstance(stage, InjectionScanner | RateLimiter):
                        effect = stage(effect)
                who = CallContext(scope=sandbox.scope, principal=operator, session_id=f"release-{decision_id}")
                Transaction(store, writer, writer).apply(
                    effect, Origin(decision_id, time.time(), who, caller="operator")
                )
                shelf.unshelve([seq])
                found.append(version)
        except SandboxError as exc:
            errors.append(exc.message)
            raise

    if not sandbox.administer("history-release", version_path(path), action, Note("history.release", f"version {seq}")):
        raise OperationFailed(errors[0] if errors else f"Error: Version {seq} of {path} could not be released.")
    return found[0]


def _released(writer: Writer, version: Version) -> Operation:
    """The held write as a command on the file as it is now (refused when it is not the held-for file)."""
    target = version_path(version.path)
    text = (version.content or b"").decode("utf-8")
    entry = writer.stat(target)
    if not version.existed:
        if entry is not None:
            raise OperationFailed(f"Error: Something is at {version.path} now; the held create is not released.")
        return Create(target, text)
    if entry is None or entry.is_dir:
        raise OperationFailed(f"Error: {version.path} is no longer the file the write was held for.")
    current = writer.read(target)
    if version.base is None or hashlib.sha256(current).hexdigest() != version.base:
        raise OperationFailed(f"Error: {version.path} changed since the write was held; review it again.")
    if current:
        return StrReplace(target, current.decode("utf-8"), text)
    if text == text.rstrip("\n") + "\n":
        return Insert(target, 0, text)
    raise OperationFailed(f"Error: The held write of {version.path} cannot be applied to an empty file.")


def drop_versions(sandbox: Sandbox, selection: Selection) -> list[Version]:
    """Drop the versions of ``selection`` from the history, as one audited decision: what they held can
    no longer be restored (an operator frees a full history of a session already reviewed)."""
    storage = _store_of(sandbox).storage
    with storage.writing() as writer:
        chosen = [version for version in _shelf(writer).shelved(content=False) if selection.picks(version)]
    if not chosen:
        return []
    dropped: list[Version] = []

    def action(_decision: str) -> None:
        with storage.writing() as writer:
            shelf = _shelf(writer)
            gone = [version for version in shelf.shelved(content=False) if selection.picks(version)]
            shelf.unshelve([version.seq for version in gone], shelf.horizon().moved(gone, ()))
            dropped.extend(gone)

    note = Note("history.drop", f"drop the versions of {selection}: {len(chosen)}")
    if not sandbox.administer("history-drop", sorted({version.path for version in chosen}), action, note):
        raise OperationFailed(f"Error: The versions of {selection} could not be dropped.")
    return dropped


def run_rollback(
    sandbox: Sandbox,
    selection: Selection,
    *,
    force: bool = False,
    dry_run: bool = False,
    operator: str | None = None,
) -> RollbackReport:
    """Undo ``selection`` on the sandbox's store as one audited decision (see the module's text)."""
    store = _store_of(sandbox)
    storage = store.storage
    with storage.writing() as writer:
        shelf = _shelf(writer)
        plan = plan_rollback(shelf.shelved(), selection, shelf.horizon())
    if dry_run or not plan.undo:
        return RollbackReport(plan, [], ok=True)
    done: list[str] = []
    errors: list[str] = []

    def action(decision_id: str) -> None:
        origin = rollback_origin(decision_id, operator, sandbox.scope)
        try:
            with storage.writing() as writer:
                # Planned again under the store's lock: nothing changes between this plan and the undo.
                shelf = _shelf(writer)
                current = plan_rollback(shelf.shelved(), selection, shelf.horizon())
                _check(current, force=force)
                try:
                    roll_back(writer, current, origin, store.keeping, force=force, done=done, scrub=store.scrub)
                except SandboxError:
                    _compensate(writer, decision_id, origin)
                    done.clear()
                    raise
        except SandboxError as exc:
            errors.append(exc.message)
            raise

    note = Note("history.rollback", f"undo {selection}: {len(plan.undo)} versions{' (forced)' if force else ''}")
    ok = sandbox.administer("rollback", plan.paths, action, note)
    return RollbackReport(plan, done, ok=ok, error=errors[0] if errors else ("" if ok else "the rollback failed"))


def _compensate(writer: Writer, decision_id: str, origin: Origin) -> None:
    """Put back what a failed rollback changed (a database store's transaction ends undone anyway;
    a folder store needs it): its own versions undone, newest first, then dropped."""
    shelf = _shelf(writer)
    own = plan_rollback(shelf.shelved(), Selection(decision=decision_id))
    roll_back(writer, own, origin, None, force=True)
    shelf.unshelve([version.seq for version in own.undo])


def _check(plan: Rollback, *, force: bool) -> None:
    if force:
        return
    if plan.gap is not None:
        when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(plan.gap))
        raise RollbackRefused(
            f"Error: Versions this undo needs were dropped (history is complete only after {when});"
            " rolling back would leave an in-between state. Use --force to restore what is kept."
        )
    if plan.conflicts:
        later = sorted({version.session or "(no session)" for version in plan.conflicts})
        raise RollbackRefused(
            f"Error: Later changes by {', '.join(later)} touch the same paths ({len(plan.conflicts)} versions);"
            " rolling back would overwrite them. Review with `memory-sandbox diff`, then use --force."
        )
    if plan.lost:
        raise RollbackRefused(
            f"Error: {len(plan.lost)} versions to restore had their content erased (history redact);"
            " use --force to restore the rest."
        )
