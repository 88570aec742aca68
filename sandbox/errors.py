"""The one exception tree of memory-sandbox.

Every error the engine raises derives from :class:`SandboxError`. Each class has a
stable ``code`` (written to the audit log) and an ``exit_code`` (used by the CLI),
and carries ``message``: the short text the model sees. That text is category-level:
it never holds a host path, file content, a matched secret or a Python repr.
Details for reviewers go in ``detail`` and only ever reach the audit log.

::

    SandboxError
    ├── InvalidCommand       the tool input is malformed (bad types, missing fields, ...)
    ├── Denied               the policy refused the call
    │   ├── PathDenied       the path is not a safe name inside /memories
    │   ├── SecretRejected   the content or path holds a secret the policy rejects
    │   ├── LimitExceeded    a size, line, depth or name limit would be passed
    │   ├── QuotaExceeded    the scope would hold more bytes or files than its quota
    │   ├── RateLimited      the scope made too many calls this minute
    │   └── UnsafeEntry      the store found a symlink, hard link or special file on the way
    ├── OperationFailed      the command is valid but cannot be done; message is a reference string
    │   ├── NotFound         raised by storage adapters, reworded by the store per command
    │   ├── AlreadyExists
    │   ├── NotADirectory    a parent of the path is a file
    │   ├── NotAFile         a folder (or special file) where a file is needed
    │   └── FileTooLarge     a stored file (written by another tool) is over the size a view reads
    ├── StorageError         the storage backend failed
    ├── HandlerError         a wrapped memory handler raised
    ├── InternalError        a bug: anything unexpected, mapped by the runner (fail closed)
    ├── KeyRefused           a key missing, unreadable, or private where a public one must go
    └── PolicyError          a policy file is invalid (start-up, never per call)

This module imports nothing from the package, so every other module may import it.
"""

from __future__ import annotations

__all__ = [
    "AlreadyExists",
    "Denied",
    "FileTooLarge",
    "HandlerError",
    "InternalError",
    "InvalidCommand",
    "KeyRefused",
    "LimitExceeded",
    "NotADirectory",
    "NotAFile",
    "NotFound",
    "OperationFailed",
    "PathDenied",
    "PolicyError",
    "QuotaExceeded",
    "RateLimited",
    "SandboxError",
    "SecretRejected",
    "StorageError",
    "UnsafeEntry",
]


class SandboxError(Exception):
    """Root of every error raised by memory-sandbox."""

    code = "error"
    exit_code = 1

    def __init__(self, message: str, *, detail: str = "", rule_id: str = "") -> None:
        super().__init__(message)
        self.message = message
        #: For the audit log only; may name internals, never a secret value.
        self.detail = detail
        #: The policy rule (or check) that produced the error, when there is one.
        self.rule_id = rule_id

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, rule_id={self.rule_id!r})"


class InvalidCommand(SandboxError):
    """The tool input does not describe a valid memory command."""

    code = "invalid_command"
    exit_code = 2


class Denied(SandboxError):
    """The policy refused the call; nothing was changed."""

    code = "denied"
    exit_code = 3


class PathDenied(Denied):
    """A path is not a safe, canonical name inside ``/memories``."""

    code = "path_denied"

    def __init__(self, category: str, reason: str) -> None:
        super().__init__(f"Error: Access denied: {reason}", rule_id=f"path.{category}")
        self.category = category


class UnsafeEntry(Denied):
    """A store refused to act on a symlink, a multiply-linked file or a special file."""

    code = "unsafe_entry"

    def __init__(self, shown_path: str, kind: str) -> None:
        reasons = {
            "symlink": "is a symbolic link; the store never follows links",
            "hardlink": "has several hard links; the store refuses it",
            "special": "is not a regular file or folder",
            "changed": "changed while the store was opening it; try again",
        }
        super().__init__(f"Error: Access denied: {shown_path} {reasons[kind]}", rule_id=f"store.{kind}")
        self.kind = kind


class SecretRejected(Denied):
    """A secret matched a rule whose action is ``reject``; nothing was stored.

    The message names the rule, never the value.
    """

    code = "secret_rejected"

    def __init__(self, rule_id: str, where: str = "the content") -> None:
        super().__init__(
            f"Error: Access denied: {where} holds a secret (rule {rule_id}); nothing was stored",
            rule_id=f"secret.{rule_id}",
        )


class InjectionRejected(Denied):
    """Text planted for an AI agent (or hidden from a reader) matched a rule whose action is ``reject``."""

    code = "injection_rejected"

    def __init__(self, rule_id: str) -> None:
        super().__init__(
            "Error: Access denied: the content holds text aimed at an AI agent or hidden from a reader"
            f" (rule injection.{rule_id}); nothing was stored",
            rule_id=f"injection.{rule_id}",
        )


class LimitExceeded(Denied):
    """A limit of the policy's ``[limits]`` or ``[paths]`` would be passed; the message names it."""

    code = "limit_exceeded"

    def __init__(self, limit: str, what: str, value: int, maximum: int, unit: str = "bytes") -> None:
        super().__init__(
            f"Error: Access denied: {what} would be {value:,} {unit}; the limit is {maximum:,} {unit} ({limit})",
            rule_id=limit,
        )


class QuotaExceeded(Denied):
    """The scope would hold more than its quota; nothing was written."""

    code = "quota_exceeded"

    def __init__(self, limit: str, value: int, maximum: int, unit: str) -> None:
        super().__init__(
            f"Error: Access denied: quota exceeded: this memory would hold {value:,} {unit}; "
            f"the quota is {maximum:,} {unit} ({limit}). Delete something first.",
            rule_id=limit,
        )


class RateLimited(Denied):
    """The scope called too often; the message says when to try again."""

    code = "rate_limited"

    def __init__(self, per_minute: int, retry_after: float) -> None:
        super().__init__(
            f"Error: Access denied: rate limit of {per_minute} operations per minute reached; "
            f"retry in {retry_after:.1f} s",
            rule_id="quota.max_operations_per_minute",
        )
        self.retry_after = retry_after


class OperationFailed(SandboxError):
    """A valid command that cannot be carried out (missing file, existing target, ...).

    ``message`` is one of the memory tool's reference strings.
    """

    code = "failed"
    exit_code = 1


class NotFound(OperationFailed):
    """Nothing exists at the path."""

    def __init__(self, path: object) -> None:
        super().__init__(f"Error: The path {path} does not exist")
        self.path = path


class AlreadyExists(OperationFailed):
    """Something already exists at the path."""

    def __init__(self, path: object) -> None:
        super().__init__(f"Error: The destination {path} already exists")
        self.path = path


class NotADirectory(OperationFailed):
    """A file stands where the path needs a folder; ``path`` names that file."""

    def __init__(self, path: object) -> None:
        super().__init__(f"Error: The path {path} is a file, not a folder")
        self.path = path


class NotAFile(OperationFailed):
    """The path is a folder, or not a regular file, where a file is needed."""

    def __init__(self, path: object, what: str = "a folder") -> None:
        super().__init__(f"Error: The path {path} is {what}, not a file")
        self.path = path


class FileTooLarge(OperationFailed):
    """A stored file is larger than a view reads (``limits.max_file_bytes``); nothing of it was read."""

    def __init__(self, path: object, size: int, limit: int) -> None:
        super().__init__(
            f"Error: The file {path} is {size:,} bytes, over the {limit:,} bytes a memory file may hold "
            "(limits.max_file_bytes); it was not read"
        )
        self.path = path


class StorageError(SandboxError):
    """The storage backend failed; the call changed nothing it could not undo."""

    code = "storage_error"
    exit_code = 4


class HandlerError(SandboxError):
    """A wrapped memory handler raised; its text was scrubbed before reaching the model."""

    code = "handler_error"
    exit_code = 4


class InternalError(SandboxError):
    """An unexpected exception, turned into a denial by the runner."""

    code = "internal_error"
    exit_code = 70


class KeyRefused(SandboxError):
    """A key missing, unreadable, or of the wrong kind (a private key where only a public key may go)."""

    code = "key_refused"
    exit_code = 2


class PolicyError(SandboxError):
    """A policy file could not be loaded; start-up stops (fail closed)."""

    code = "policy_error"
    exit_code = 2
