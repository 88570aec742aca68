"""Handlers to attack, as ``memory-sandbox attack --handler sandbox.attack.targets:NAME``.

* ``sandboxed``: ``SandboxedMemoryTool`` on ``LocalStorage(root)`` with the default policy,
  its audit log in a folder of its own outside the attacked tree;
* ``sdk``: the SDK's ``BetaLocalFilesystemMemoryTool`` (its ``/memories`` is ``base/memories``,
  so it is given the root's parent);
* ``wrapped_sdk``: the SDK's handler behind ``SandboxedMemoryTool.wrap``.

Your own factory has the same shape: ``factory(root: pathlib.Path)`` returns a handler
whose ``/memories`` is ``root`` itself.
"""

from __future__ import annotations

import multiprocessing.util
import shutil
import tempfile
from pathlib import Path

from anthropic.tools import BetaLocalFilesystemMemoryTool

from sandbox.audit import AuditLog
from sandbox.integrations.anthropic import SandboxedMemoryTool
from sandbox.pipeline import Sandbox
from sandbox.policy import load_policy
from sandbox.storage.local import LocalStorage

__all__ = ["audit_elsewhere", "sandboxed", "sdk", "wrapped_sdk"]


def audit_elsewhere() -> AuditLog:
    """An audit log in a new folder of its own: every file the handler writes outside its root
    counts as an escape, so a sandbox under attack keeps its log out of the attacked tree."""
    folder = tempfile.mkdtemp(prefix="memory-sandbox-attack-audit-")
    # Removed when the worker process ends (multiprocessing runs its finalizers; atexit it does not).
    multiprocessing.util.Finalize(None, shutil.rmtree, args=(folder,), kwargs={"ignore_errors": True}, exitpriority=0)
    return AuditLog.open(Path(folder) / "audit.jsonl")


def sandboxed(root: Path) -> SandboxedMemoryTool:
    return SandboxedMemoryTool(
        Sandbox(policy=load_policy("default"), storage=LocalStorage(root), audit=audit_elsewhere())
    )


def sdk(root: Path) -> BetaLocalFilesystemMemoryTool:
    if root.name != "memories":
        raise ValueError("the SDK's handler serves <base>/memories: the root must be named 'memories'")
    return BetaLocalFilesystemMemoryTool(str(root.parent))


def wrapped_sdk(root: Path) -> SandboxedMemoryTool:
    return SandboxedMemoryTool.wrap(sdk(root), policy=load_policy("default"), audit=audit_elsewhere())
