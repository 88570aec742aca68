"""Policy stages: small configured callables ``(Request) -> Request``.

The runner applies them in order, each to the output of the one before. A stage
refuses by raising a :class:`~sandbox.errors.Denied`, never by returning a
flag; it records what it did (a redaction, say) as a
:class:`~sandbox.decision.Note` on the request it returns. A new rule is a new
stage, never an edit of the runner's loop.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from sandbox.commands import Create, Delete, Insert, Operation, Rename, StrReplace, operation_paths
from sandbox.decision import CallContext, Note
from sandbox.errors import Denied, LimitExceeded, RateLimited
from sandbox.globs import Glob
from sandbox.paths import MemoryPath
from sandbox.policy import AccessRule, LimitsSection, PathsSection
from sandbox.redaction import SecretGuard

__all__ = [
    "AccessRules",
    "PathRules",
    "RateLimiter",
    "Request",
    "RootGuard",
    "SecretScanner",
    "SizeLimiter",
    "Stage",
]


@dataclass(frozen=True, slots=True)
class Request:
    """A canonical operation on its way to storage, with what stages noted about it."""

    op: Operation
    context: CallContext = field(default_factory=CallContext)
    notes: tuple[Note, ...] = ()

    def with_note(self, rule_id: str, reason: str) -> Request:
        return replace(self, notes=(*self.notes, Note(rule_id, reason)))


Stage = Callable[[Request], Request]


class RootGuard:
    """Keeps ``/memories`` itself: no delete, rename, replace or write of the root,
    and no folder moved into itself.

    Paths are canonical here, so every spelling of the root (``/memories/``,
    ``/memories/.``, ``/memories/a/..``, ``%2fmemories``) is the same root.
    """

    def __repr__(self) -> str:
        return "RootGuard()"

    def __call__(self, request: Request) -> Request:
        op = request.op
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
        return request


class SecretScanner:
    """Keeps secrets out of storage: redacts or rejects them in written text, rejects them in paths.

    Scans ``create.file_text``, ``str_replace.new_str`` and ``insert.insert_text``
    (``old_str`` is only a search key and is never stored). The store scans each
    edited file's whole new content too, so a secret assembled over several edits
    is caught there.
    """

    def __init__(self, guard: SecretGuard) -> None:
        self._guard = guard

    def __repr__(self) -> str:
        return f"SecretScanner({self._guard!r})"

    def __call__(self, request: Request) -> Request:
        op = request.op
        for path in operation_paths(op):
            self._guard.check_path(path)
        if isinstance(op, Create):
            text, notes = self._guard.scan_write(op.file_text, op.path)
            op = replace(op, file_text=text)
        elif isinstance(op, StrReplace):
            text, notes = self._guard.scan_write(op.new_str, op.path)
            op = replace(op, new_str=text)
        elif isinstance(op, Insert):
            text, notes = self._guard.scan_write(op.insert_text, op.path)
            op = replace(op, insert_text=text)
        else:
            return request
        return replace(request, op=op, notes=(*request.notes, *notes)) if notes else request


class PathRules:
    """Depth and file extensions of written paths (``[paths]``)."""

    def __init__(self, section: PathsSection) -> None:
        self._max_depth = section.max_depth
        self._extensions = frozenset(section.allowed_extensions)

    def __repr__(self) -> str:
        return f"PathRules(max_depth={self._max_depth}, allowed_extensions={sorted(self._extensions)})"

    def __call__(self, request: Request) -> Request:
        op = request.op
        target = op.path if isinstance(op, Create) else op.new_path if isinstance(op, Rename) else None
        if target is None:
            return request
        if len(target.parts) > self._max_depth:
            raise LimitExceeded("paths.max_depth", f"{target}'s depth", len(target.parts), self._max_depth, "levels")
        if self._extensions and isinstance(op, Create) and target.suffix not in self._extensions:
            raise _extension_denied(target, self._extensions)
        # A renamed file keeps an allowed extension; folders (no extension either side) move freely.
        renamed_file = isinstance(op, Rename) and bool(target.suffix or op.old_path.suffix)
        if self._extensions and renamed_file and target.suffix not in self._extensions:
            raise _extension_denied(target, self._extensions)
        return request


def _extension_denied(path: MemoryPath, allowed: frozenset[str]) -> Denied:
    return Denied(
        f"Error: Access denied: {path}: only {', '.join(sorted(allowed))} files may be written",
        rule_id="paths.allowed_extensions",
    )


class AccessRules:
    """``[[rules]]``: allow or deny commands on path globs; deny wins, then allow, then the default."""

    def __init__(self, rules: tuple[AccessRule, ...], default_effect: str) -> None:
        self._rules = tuple((rule, tuple(Glob(g) for g in rule.paths), frozenset(rule.commands)) for rule in rules)
        self._default_allows = default_effect == "allow"

    def __repr__(self) -> str:
        ids = [rule.id for rule, _, _ in self._rules]
        return f"AccessRules({ids}, default={'allow' if self._default_allows else 'deny'})"

    def __call__(self, request: Request) -> Request:
        command = request.op.command
        for path in operation_paths(request.op):
            allowed = self._default_allows
            for rule, globs, commands in self._rules:
                if command not in commands or not any(glob.matches(path) for glob in globs):
                    continue
                if rule.effect == "deny":
                    reason = f": {rule.reason}" if rule.reason else ""
                    raise Denied(f"Error: Access denied: {command} of {path} is not allowed{reason}", rule_id=rule.id)
                allowed = True
            if not allowed:
                raise Denied(f"Error: Access denied: {command} of {path} is not allowed", rule_id="rules.default")
        return request


class SizeLimiter:
    """``[limits]`` on what one command writes: its text, and the size of a created file."""

    def __init__(self, section: LimitsSection) -> None:
        self._max_write = section.max_write_bytes
        self._max_file = section.max_file_bytes
        self._max_lines = section.max_file_lines

    def __repr__(self) -> str:
        return f"SizeLimiter(max_write_bytes={self._max_write}, max_file_bytes={self._max_file})"

    def __call__(self, request: Request) -> Request:
        op = request.op
        text = (
            op.file_text
            if isinstance(op, Create)
            else op.new_str
            if isinstance(op, StrReplace)
            else op.insert_text
            if isinstance(op, Insert)
            else None
        )
        if text is None:
            return request
        size = len(text.encode("utf-8"))
        if size > self._max_write:
            raise LimitExceeded("limits.max_write_bytes", "this write", size, self._max_write)
        if isinstance(op, Create):
            # The store checks edited files' new size; a new file's size is known here.
            if size > self._max_file:
                raise LimitExceeded("limits.max_file_bytes", f"{op.path}", size, self._max_file)
            lines = text.count("\n") + (not text.endswith("\n") and bool(text))
            if lines > self._max_lines:
                raise LimitExceeded("limits.max_file_lines", f"{op.path}", lines, self._max_lines, "lines")
        return request


class RateLimiter:
    """A token bucket per scope: ``per_minute`` calls a minute, in bursts of up to as many."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self._per_minute = per_minute
        self._rate = per_minute / 60.0
        self._clock = clock
        self._buckets: dict[str | None, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"RateLimiter(per_minute={self._per_minute})"

    def __call__(self, request: Request) -> Request:
        scope = request.context.scope
        now = self._clock()
        with self._lock:
            tokens, stamp = self._buckets.get(scope, (float(self._per_minute), now))
            tokens = min(float(self._per_minute), tokens + (now - stamp) * self._rate)
            if tokens < 1.0:
                self._buckets[scope] = (tokens, now)
                raise RateLimited(self._per_minute, (1.0 - tokens) / self._rate)
            self._buckets[scope] = (tokens - 1.0, now)
        return request
