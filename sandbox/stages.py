"""Policy stages: small configured callables ``(Effect) -> Effect``.

The runner applies them in order to a call's :class:`~sandbox.effects.Effect`,
each to the output of the one before, after the call was planned and before
storage is touched. A stage judges what the call changes and reveals (a moved
folder with its whole subtree, the new content of an edited file), not only the
paths the model named. It refuses by raising a :class:`~sandbox.errors.Denied`,
never by returning a flag, and records what it did (a redaction, say) as a
:class:`~sandbox.decision.Note`. A new rule is a new stage, never an edit of the
runner's loop.

Stages that judge a change skip a call whose plan failed (nothing changes): it
answers with its own failure, after the checks of what it asked for.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from typing import ClassVar

from sandbox.commands import Create, Delete, Insert, Rename, StrReplace, View, operation_paths, written_text
from sandbox.decision import Note
from sandbox.effects import Effect
from sandbox.errors import Denied, InjectionRejected, LimitExceeded, OperationFailed, QuotaExceeded, RateLimited
from sandbox.globs import Glob
from sandbox.injection import InjectionScan
from sandbox.injection_scorer import ScoredLines
from sandbox.paths import MemoryPath
from sandbox.policy import AccessRule, LimitsSection, PathsSection, QuotaSection
from sandbox.redaction import SecretGuard
from sandbox.storage.base import Usage
from sandbox.storage.rate import ProcessRate, RateCounter
from sandbox.views import count_lines

__all__ = [
    "AccessRules",
    "PathRules",
    "QuotaEnforcer",
    "RateLimiter",
    "RootGuard",
    "SecretScanner",
    "SizeLimiter",
    "Stage",
    "TwinGuard",
]

Stage = Callable[[Effect], Effect]
_IMAGES = (".png", ".jpg", ".jpeg")
_CLEAN_PATHS = 4096  # paths a SecretScanner remembers as holding no secret


class RootGuard:
    """Keeps ``/memories`` itself: no delete, rename, replace or write of the root,
    and no folder moved into itself.

    Paths are canonical here, so every spelling of the root (``/memories/``,
    ``/memories/.``, ``/memories/a/..``, ``%2fmemories``) is the same root.
    """

    def __repr__(self) -> str:
        return "RootGuard()"

    def __call__(self, effect: Effect) -> Effect:
        op = effect.op
        if isinstance(op, Delete) and op.path.is_root:
            raise Denied("Error: Access denied: /memories itself cannot be deleted", rule_id="root.delete")
        if isinstance(op, Rename):
            if op.old_path.is_root:
                raise Denied("Error: Access denied: /memories itself cannot be renamed", rule_id="root.rename")
            if op.new_path.is_root:
                raise Denied("Error: Access denied: /memories itself cannot be replaced", rule_id="root.replace")
            if op.new_path.is_relative_to(op.old_path):
                raise Denied(
                    f"Error: Access denied: {op.old_path} cannot be moved into itself",
                    rule_id="rename.into_itself",
                )
        if isinstance(op, Create | StrReplace | Insert) and op.path.is_root:
            raise Denied("Error: Access denied: /memories is a folder, not a file", rule_id="root.write")
        return effect


class PathRules:
    """``[paths]`` for everything a call makes exist: depth and length of the new path and of every path
    moved with it (a renamed folder brings its whole subtree), and file extensions."""

    def __init__(self, section: PathsSection) -> None:
        self._max_depth = section.max_depth
        self._max_bytes = section.max_path_bytes
        self._extensions = frozenset(section.allowed_extensions)

    def __repr__(self) -> str:
        return f"PathRules(max_depth={self._max_depth}, allowed_extensions={sorted(self._extensions)})"

    def __call__(self, effect: Effect) -> Effect:
        op = effect.op
        if isinstance(op, Create):
            self._check(op.path, 0, 0)
            if self._extensions and op.path.suffix not in self._extensions:
                raise _extension_denied(op.path, self._extensions)
        elif isinstance(op, Rename):
            tree = effect.tree if effect.failure is None else None
            self._check(op.new_path, tree.depth if tree else 0, tree.extra_bytes if tree else 0)
            # A renamed file keeps an allowed extension; folders (no extension either side) move freely.
            renamed_file = bool(op.new_path.suffix or op.old_path.suffix)
            if self._extensions and renamed_file and op.new_path.suffix not in self._extensions:
                raise _extension_denied(op.new_path, self._extensions)
        return effect

    def _check(self, target: MemoryPath, depth_below: int, bytes_below: int) -> None:
        what = f"the deepest path moved to {target}" if depth_below else f"{target}'s depth"
        depth = len(target.parts) + depth_below
        if depth > self._max_depth:
            raise LimitExceeded("paths.max_depth", what, depth, self._max_depth, "levels")
        length = len(str(target).encode("utf-8")) + bytes_below
        if length > self._max_bytes:
            raise LimitExceeded("paths.max_path_bytes", f"the longest path moved to {target}", length, self._max_bytes)


def _extension_denied(path: MemoryPath, allowed: frozenset[str]) -> Denied:
    return Denied(
        f"Error: Access denied: {path}: only {', '.join(sorted(allowed))} files may be written",
        rule_id="paths.allowed_extensions",
    )


class AccessRules:
    """``[[rules]]``: allow or deny commands on path globs; deny wins, then allow, then the default.

    Judged on every path a call touches: a delete or rename of a folder acts on each path
    below it too, and a rename may not move a path the caller may not ``view`` to where it could.
    A path the caller may not ``view`` cannot be named by any other command either, existing or not.
    """

    def __init__(self, rules: tuple[AccessRule, ...], default_effect: str) -> None:
        self._rules = tuple((rule, tuple(Glob(g) for g in rule.paths), frozenset(rule.commands)) for rule in rules)
        self._default_allows = default_effect == "allow"

    def __repr__(self) -> str:
        ids = [rule.id for rule, _, _ in self._rules]
        return f"AccessRules({ids}, default={'allow' if self._default_allows else 'deny'})"

    def refusal(self, command: str, path: MemoryPath | str) -> Denied | None:
        """The denial of ``command`` on ``path``, or None when it is allowed."""
        allowed = self._default_allows
        for rule, globs, commands in self._rules:
            if command not in commands or not any(glob.matches(path) for glob in globs):
                continue
            if rule.effect == "deny":
                reason = f": {rule.reason}" if rule.reason else ""
                return Denied(f"Error: Access denied: {command} of {path} is not allowed{reason}", rule_id=rule.id)
            allowed = True
        if allowed:
            return None
        return Denied(f"Error: Access denied: {command} of {path} is not allowed", rule_id="rules.default")

    def __call__(self, effect: Effect) -> Effect:
        command = effect.op.command
        for path in _touched(effect):
            denied = self.refusal(command, path)
            if denied is not None:
                raise denied
        if command != "view":
            for path in operation_paths(effect.op):
                if self.refusal("view", path):
                    # A path the caller may not view is one it may not name at all: were a create
                    # there to answer "already exists", the answer would tell that a hidden file does.
                    raise Denied(f"Error: Access denied: {command} of {path} is not allowed", rule_id="rules.hidden")
        if isinstance(effect.op, Rename):
            for old, new in effect.moved():
                if new is not None and self.refusal("view", old) and not self.refusal("view", new):
                    # Moving a hidden file where it can be viewed would reveal it.
                    raise Denied(f"Error: Access denied: rename of {effect.op.old_path} is not allowed",
                                 rule_id="rules.reveal")  # fmt: skip
        return effect


def _touched(effect: Effect) -> Iterator[MemoryPath | str]:
    """The named paths, then every path below a deleted or moved folder, at both ends of a move."""
    yield from operation_paths(effect.op)
    for index, (old, new) in enumerate(effect.moved()):
        if index:  # the first is the named path itself
            yield old
            if new is not None:
                yield new


class SecretScanner:
    """Keeps secrets out of storage: redacts or rejects them in written text, rejects them in paths.

    Scans the text a call adds (``file_text``, ``new_str``, ``insert_text``; ``old_str`` is only a
    search key and is never stored) and an edited file's whole new content, so a secret assembled
    over several edits (``AKIA`` in one, the rest in the next) is caught too.
    """

    def __init__(self, guard: SecretGuard) -> None:
        self._guard = guard
        # Paths found to hold no secret: the check depends on the path alone, and calls name the
        # same few paths again and again. Bounded: emptied when full.
        self._clean: set[MemoryPath] = set()

    def __repr__(self) -> str:
        return f"SecretScanner({self._guard!r})"

    def __call__(self, effect: Effect) -> Effect:
        op = effect.op
        for path in operation_paths(op):
            if path not in self._clean:
                self._guard.check_path(path)  # raises for a path holding a secret, which is never kept
                if len(self._clean) >= _CLEAN_PATHS:
                    self._clean.clear()
                self._clean.add(path)
        if effect.written is None or isinstance(op, View | Delete | Rename):
            return effect
        path = op.path
        text, notes = self._guard.scan_write(effect.written, path)
        effect = replace(effect, written=text, notes=(*effect.notes, *notes))
        if isinstance(op, Create) or effect.content is None or not (effect.prefix or effect.suffix):
            return effect
        whole, more = self._guard.scan_write(effect.content, path)
        if whole == effect.content:
            return effect
        return replace(effect, prefix="", written=whole, suffix="", notes=(*effect.notes, *more))


class InjectionScanner:
    """``[injection]``: text aimed at an AI agent, or hidden from a reader, in a written file.

    Scans an edited file's whole new content (after secret redaction), so an
    instruction assembled over several edits is found too. A finding is
    recorded (the decision names the rule), flagged (also named in the reply,
    so the model reads the text as data), quarantined (kept as a version for an
    operator, the file left unchanged) or refused, by the rule's action.
    """

    def __init__(self, scan: InjectionScan) -> None:
        self._scan = scan
        # The scorer's sums of lines this sandbox wrote (its own: no scope can time another's writes).
        self._lines: ScoredLines = {}

    def __repr__(self) -> str:
        return f"InjectionScanner({self._scan!r})"

    def __call__(self, effect: Effect) -> Effect:
        if effect.written is None or isinstance(effect.op, View | Delete | Rename):
            return effect
        findings = self._scan.find(effect.content or effect.written, self._lines)
        if not findings:
            return effect
        refused = [finding.rule_id for finding in findings if finding.action == "reject"]
        if refused:
            raise InjectionRejected(refused[0])
        actions = {finding.rule_id: finding.action for finding in findings}
        shown = {"flag": "flagged", "quarantine": "quarantined"}
        notes = tuple(Note(f"injection.{rule}", shown.get(action, "recorded")) for rule, action in actions.items())
        flags = tuple(f"injection.{rule}" for rule, action in actions.items() if action == "flag")
        held = tuple(f"injection.{rule}" for rule, action in actions.items() if action == "quarantine")
        return replace(
            effect,
            notes=(*effect.notes, *notes),
            flags=(*effect.flags, *flags),
            quarantine=(*effect.quarantine, *held),
        )


class SizeLimiter:
    """``[limits]``: the text one command adds, a written file's size and lines (after redaction), images viewed."""

    def __init__(self, section: LimitsSection) -> None:
        self._max_write = section.max_write_bytes
        self._max_file = section.max_file_bytes
        self._max_lines = section.max_file_lines
        self._max_image = section.max_image_bytes

    def __repr__(self) -> str:
        return f"SizeLimiter(max_write_bytes={self._max_write}, max_file_bytes={self._max_file})"

    def __call__(self, effect: Effect) -> Effect:
        op = effect.op
        if isinstance(op, View):
            entry = effect.entry
            if entry is not None and not entry.is_dir and op.path.suffix in _IMAGES and entry.size > self._max_image:
                raise OperationFailed(f"Error: The image {op.path} is larger than {self._max_image:,} bytes")
            return effect
        text = written_text(op)
        if text is None or isinstance(op, Delete | Rename):
            return effect
        size = len(text.encode("utf-8"))
        if size > self._max_write:
            raise LimitExceeded("limits.max_write_bytes", "this write", size, self._max_write)
        content = effect.content
        if content is None:
            return effect
        lines = count_lines(content)
        if lines > self._max_lines:
            raise LimitExceeded("limits.max_file_lines", str(op.path), lines, self._max_lines, "lines")
        size = len(content.encode("utf-8"))
        if size > self._max_file:
            raise LimitExceeded("limits.max_file_bytes", str(op.path), size, self._max_file)
        return effect


class QuotaEnforcer:
    """``[quota]``: what the scope holds after the call (bytes, files, folders) stays within its quota.

    Judged in the call's storage session, against the usage read there, so concurrent
    writers cannot overshoot it together.
    """

    def __init__(self, section: QuotaSection) -> None:
        self._limits = (
            ("quota.max_bytes", section.max_bytes, "bytes"),
            ("quota.max_files", section.max_files, "files"),
            ("quota.max_folders", section.folder_limit, "folders"),
        )

    def __repr__(self) -> str:
        return "QuotaEnforcer(" + ", ".join(f"{limit.split('.')[1]}={value}" for limit, value, _ in self._limits) + ")"

    def __call__(self, effect: Effect) -> Effect:
        delta = effect.delta
        if effect.failure is not None or delta == Usage(0, 0, 0):
            return effect
        after = effect.usage + delta
        for (limit, maximum, unit), grow, total in zip(
            self._limits, (delta.bytes, delta.files, delta.folders), (after.bytes, after.files, after.folders),
            strict=True,
        ):  # fmt: skip
            if maximum is not None and grow > 0 and total > maximum:
                raise QuotaExceeded(limit, total, maximum, unit)
        return effect


class TwinGuard:
    """``[paths] case_collisions`` and ``lookalike_collisions``: no name that differs only in case, or
    only by look-alike letters, from an existing sibling."""

    _REASONS: ClassVar[dict[str, str]] = {"case": "differs only in case from", "lookalike": "looks like"}

    def __init__(self, section: PathsSection) -> None:
        settings = {"case": section.case_collisions, "lookalike": section.lookalike_collisions}
        self._refused = {kind for kind, setting in settings.items() if setting == "refuse"}

    def __repr__(self) -> str:
        return f"TwinGuard(refused={sorted(self._refused)})"

    def __call__(self, effect: Effect) -> Effect:
        twin = effect.twin
        if twin is None or effect.failure is not None or twin.kind not in self._refused:
            return effect
        raise Denied(
            f"Error: Access denied: {twin.path} {self._REASONS[twin.kind]} {twin.path.parent}/{twin.existing}",
            rule_id=f"paths.{twin.kind}_collisions",
        )


class RateLimiter:
    """A token bucket per scope: ``per_minute`` calls a minute, in bursts of up to as many.

    With a ``counter`` from the store (:class:`~sandbox.storage.rate.SharesRate`) every process
    and worker of the store shares the scope's bucket; without one the buckets live in this
    object, by the scope each call names.
    """

    def __init__(
        self, per_minute: int, counter: RateCounter | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._per_minute = per_minute
        self._counter = counter
        self._own = ProcessRate(clock)

    def __repr__(self) -> str:
        return f"RateLimiter(per_minute={self._per_minute}, counter={self._counter or self._own!r})"

    def window(self) -> AbstractContextManager[None]:
        """The span of one call (see :meth:`RateCounter.window`); the runner enters it around the call."""
        return self._counter.window(self._per_minute) if self._counter is not None else nullcontext()

    def __call__(self, effect: Effect) -> Effect:
        counter = self._counter
        if counter is not None:
            wait = counter.take(self._per_minute)
        else:
            wait = self._own.take(self._per_minute, effect.context.scope)
        if wait > 0.0:
            raise RateLimited(self._per_minute, wait)
        return effect
