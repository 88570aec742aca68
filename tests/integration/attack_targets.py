"""Handlers with known faults, for tests of ``memory-sandbox attack`` (loaded by file path)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from anthropic.tools import BetaLocalFilesystemMemoryTool

from sandbox import Sandbox, load_policy
from sandbox.attack.targets import audit_elsewhere, sandboxed
from sandbox.integrations.anthropic import AsyncSandboxedMemoryTool
from sandbox.storage import LocalStorage


def elsewhere(root: Path) -> BetaLocalFilesystemMemoryTool:
    """Maps /memories onto a folder beside the root, not onto the root."""
    return BetaLocalFilesystemMemoryTool(str(root.parent / "other"))


def hangs_on_hardlink_view(root: Path) -> Any:
    """A plain callable that never answers one kind of call."""
    inner = sandboxed(root)

    def handle(command: Any) -> Any:
        if isinstance(command, dict) and command.get("command") == "view" and "hardlink" in str(command.get("path")):
            time.sleep(3600)
        return inner.call(command)

    return handle


def crashes_on_delete(root: Path) -> Any:
    """An object whose call raises a plain exception (not the tool's error) for every delete."""
    inner = sandboxed(root)

    class Handler:
        def call(self, command: Any) -> Any:
            if isinstance(command, dict) and command.get("command") == "delete":
                raise KeyError("deletes are broken")
            return inner.call(command)

    return Handler()


def async_sandboxed(root: Path) -> AsyncSandboxedMemoryTool:
    storage = LocalStorage(root)
    return AsyncSandboxedMemoryTool(Sandbox(policy=load_policy("default"), storage=storage, audit=audit_elsewhere()))
