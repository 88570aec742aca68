"""Handlers to attack, as ``memory-sandbox attack --handler sandbox.attack.targets:NAME``.

* ``sandboxed``: ``SandboxedMemoryTool`` on ``LocalStorage(root)`` with :func:`gate_policy`,
  its audit log in a folder of its own outside the attacked tree;
* ``sandboxed_sqlite``, ``sandboxed_postgres``: the same on a SQLite file outside the tree and
  on the PostgreSQL database ``MEMORY_SANDBOX_PG_DSN`` names (a new scope each time), each
  filled with the root's files first, as an operator would import them;
* ``sdk``: the SDK's ``BetaLocalFilesystemMemoryTool`` (its ``/memories`` is ``base/memories``,
  so it is given the root's parent);
* ``wrapped_sdk``: the SDK's handler behind ``SandboxedMemoryTool.wrap`` with :func:`gate_policy`.

Your own factory has the same shape: ``factory(root: pathlib.Path)`` returns a handler
whose ``/memories`` is ``root`` itself (or that keeps memory in a store of its own).
"""

from __future__ import annotations

import multiprocessing.util
import os
import secrets
import shutil
import stat
import tempfile
from importlib import resources
from pathlib import Path
from typing import Final, TypeVar

from anthropic.tools import BetaLocalFilesystemMemoryTool

from sandbox.audit import AuditLog
from sandbox.integrations.anthropic import SandboxedMemoryTool
from sandbox.paths import canonicalize
from sandbox.pipeline import Sandbox
from sandbox.policy import Policy, parse_policy
from sandbox.storage.local import LocalStorage
from sandbox.storage.sql import SqlStorage
from sandbox.storage.sqlite import SQLiteStorage

__all__ = [
    "GATE_RULES",
    "audit_elsewhere",
    "gate_policy",
    "sandboxed",
    "sandboxed_postgres",
    "sandboxed_sqlite",
    "sdk",
    "wrapped_sdk",
]

_Store = TypeVar("_Store", bound=SqlStorage)


def audit_elsewhere() -> AuditLog:
    """An audit log in a new folder of its own: every file the handler writes outside its root
    counts as an escape, so a sandbox under attack keeps its log out of the attacked tree."""
    return AuditLog.open(_scratch("memory-sandbox-attack-audit-") / "audit.jsonl")


#: What the gate's policy adds to the default profile: the planted rules file is read-only and
#: the planted diary hidden, so the multi-call families have something to attack.
GATE_RULES: Final = """
[[rules]]
id = "policies-read-only"
effect = "deny"
commands = ["create", "str_replace", "insert", "delete", "rename"]
paths = ["/memories/policies/**"]
reason = "the policies folder is maintained by the operators"

[[rules]]
id = "private-hidden"
effect = "deny"
commands = ["view"]
paths = ["/memories/private/**"]
"""


def gate_policy() -> Policy:
    """The default profile with :data:`GATE_RULES`."""
    default = (resources.files("policies") / "default.toml").read_text(encoding="utf-8")
    return parse_policy(default + GATE_RULES, source="default.toml with the attack gate's rules")


def sandboxed(root: Path) -> SandboxedMemoryTool:
    return SandboxedMemoryTool(Sandbox(policy=gate_policy(), storage=LocalStorage(root), audit=audit_elsewhere()))


def sandboxed_sqlite(root: Path) -> SandboxedMemoryTool:
    folder = _scratch("memory-sandbox-attack-sqlite-")
    storage = _imported(SQLiteStorage(folder / "memory.db", durability="none"), root)
    return SandboxedMemoryTool(Sandbox(policy=gate_policy(), storage=storage, audit=audit_elsewhere()))


def sandboxed_postgres(root: Path) -> SandboxedMemoryTool:
    from sandbox.storage.postgres import PostgresStorage  # noqa: PLC0415 - psycopg only for this target

    dsn = os.environ.get("MEMORY_SANDBOX_PG_DSN")
    if not dsn:
        raise RuntimeError("set MEMORY_SANDBOX_PG_DSN to the PostgreSQL database to attack")
    storage = _imported(PostgresStorage(dsn, scope=f"attack-{secrets.token_hex(6)}"), root)
    return SandboxedMemoryTool(Sandbox(policy=gate_policy(), storage=storage, audit=audit_elsewhere()))


def _scratch(prefix: str) -> Path:
    """A new folder, removed when the worker process ends (multiprocessing runs its finalizers)."""
    folder = tempfile.mkdtemp(prefix=prefix)
    multiprocessing.util.Finalize(None, shutil.rmtree, args=(folder,), kwargs={"ignore_errors": True}, exitpriority=0)
    return Path(folder)


def _imported(storage: _Store, root: Path) -> _Store:
    """``storage`` holding a copy of the ordinary files below ``root`` (no links, no hard-linked files)."""
    for top, _, names in os.walk(root):
        for name in names:
            path = Path(top) / name
            info = path.lstat()
            if stat.S_ISREG(info.st_mode) and info.st_nlink == 1:
                storage.create(canonicalize("/memories/" + path.relative_to(root).as_posix()), path.read_bytes())
    return storage


def sdk(root: Path) -> BetaLocalFilesystemMemoryTool:
    if root.name != "memories":
        raise ValueError("the SDK's handler serves <base>/memories: the root must be named 'memories'")
    return BetaLocalFilesystemMemoryTool(str(root.parent))


def wrapped_sdk(root: Path) -> SandboxedMemoryTool:
    return SandboxedMemoryTool.wrap(sdk(root), policy=gate_policy(), audit=audit_elsewhere())
