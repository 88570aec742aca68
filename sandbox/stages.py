"""Policy stages: small configured callables ``(Request) -> Request``.

The runner applies them in order, each to the output of the one before. A stage
refuses by raising a :class:`~sandbox.errors.Denied`, never by returning a
flag; it records what it did (a redaction, say) as a
:class:`~sandbox.decision.Note` on the request it returns. A new rule is a new
stage, never an edit of the runner's loop.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from sandbox.commands import Create, Delete, Insert, Operation, Rename, StrReplace, operation_paths
from sandbox.decision import CallContext, Note
from sandbox.errors import Denied
from sandbox.redaction import SecretGuard

__all__ = ["Request", "RootGuard", "SecretScanner", "Stage"]


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
