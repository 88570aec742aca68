"""Witnesses off the host: places that receive each signed checkpoint and the log's writer cannot rewrite.

The local witness (``<log>.witness``) sits beside the log, so whoever can trim the log can trim it
too. A policy names more in ``[audit]``:

* ``witness = ["/mnt/other-volume/witness", ...]``: folders (another volume, an append-only or
  write-once mount, a folder only the witness's owner can change), which must exist (a folder on a
  volume that is not mounted is refused, never made on the local disk); each checkpoint is appended
  to ``<folder>/<log name>-<key id>.witness`` and made durable;
* ``witness_command = "..."``: a program run for each checkpoint with the checkpoint line on its
  standard input (say, to S3 Object Lock, or to an RFC 3161 time-stamp authority); it must exit 0
  within 30 s. ``MEMORY_SANDBOX_AUDIT_LOG`` and ``MEMORY_SANDBOX_AUDIT_KEY_ID`` name the log.

A witness that cannot take a checkpoint refuses the call that wrote it (fail closed), as a log
that cannot be written does. ``memory-sandbox audit verify LOG --witness FILE`` (repeatable) checks
the log against each: a witnessed checkpoint missing from the log, or different, is tampering,
even when the local witness was trimmed together with the log.
"""

from __future__ import annotations

import os
import shlex
import subprocess  # the operator's witness command, never model input # nosec B404
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Protocol

from sandbox.audit.records import AuditError, append_whole

__all__ = ["CommandWitness", "FolderWitness", "Witness", "witness_file_name", "witnesses_of"]

_COMMAND_SECONDS: Final = 30.0


class Witness(Protocol):
    def receive(self, line: bytes) -> None:
        """Keep one checkpoint line (with its newline), durably, or raise :class:`AuditError`."""


def witness_file_name(log_name: str, key_id: str) -> str:
    """The file a folder witness keeps a log's checkpoints in: named by the log and its key, so two
    logs of the same name (different stores, different keys) never share one."""
    return f"{log_name}-{key_id}.witness"


@dataclass(frozen=True)
class FolderWitness:
    path: Path

    def receive(self, line: bytes) -> None:
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
            try:
                append_whole(fd, line, os.fstat(fd).st_size)  # never a torn line in the witness either
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as exc:
            raise AuditError(
                "Error: The audit witness cannot be written; the call was refused.", detail=str(exc.errno)
            ) from None


@dataclass(frozen=True)
class CommandWitness:
    argv: tuple[str, ...]
    log_name: str
    key_id: str

    def receive(self, line: bytes) -> None:
        env = {**os.environ, "MEMORY_SANDBOX_AUDIT_LOG": self.log_name, "MEMORY_SANDBOX_AUDIT_KEY_ID": self.key_id}
        try:
            done = subprocess.run(  # noqa: S603 - the operator's own command from the policy, no shell # nosec B603
                self.argv, input=line, capture_output=True, timeout=_COMMAND_SECONDS, env=env, check=False
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise AuditError(
                "Error: The audit witness cannot be reached; the call was refused.", detail=type(exc).__name__
            ) from None
        if done.returncode != 0:
            raise AuditError(
                "Error: The audit witness refused the checkpoint; the call was refused.",
                detail=f"exit {done.returncode}",
            )


def witnesses_of(folders: tuple[str, ...], command: str | None, log_name: str, key_id: str) -> tuple[Witness, ...]:
    """The witnesses a policy's ``[audit]`` section names, for one log."""
    found: list[Witness] = []
    for folder in folders:
        place = Path(folder)
        if not place.is_dir():  # never made here: an unmounted volume would put the witness beside the log
            raise AuditError(f"Error: The audit witness folder {place.name} does not exist; nothing was recorded.")
        found.append(FolderWitness(place / witness_file_name(log_name, key_id)))
    if command:
        found.append(CommandWitness(tuple(shlex.split(command)), log_name, key_id))
    return tuple(found)
