"""Handlers with known faults, for tests of ``memory-sandbox attack`` (loaded by file path)."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from anthropic.lib.tools import ToolError
from anthropic.tools import BetaLocalFilesystemMemoryTool

from sandbox import Sandbox, load_policy
from sandbox.attack.targets import audit_elsewhere, sandboxed, sdk
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


def names_only(root: Path) -> Any:
    """The SDK's handler behind checks of the named paths only, as handlers were before policy was judged
    on effects: ``view`` redacts keys and hides ``private/``, the named path's depth is capped at 8, and
    commands naming a path below ``policies/`` are refused. Each falls to a multi-call family."""
    inner = sdk(root)

    def named(command: dict[str, Any]) -> list[str]:
        return [str(command[key]) for key in ("path", "old_path", "new_path") if key in command]

    def handle(command: Any) -> Any:
        paths = named(command)
        if command.get("command") == "view":
            if any(path.startswith("/memories/private/") for path in paths):
                raise ToolError("Error: Access denied")
            return re.sub(r"sk-ant-api03-[\w-]+", "[REDACTED]", inner.call(command))
        if any(path.startswith("/memories/policies/") for path in paths):
            raise ToolError("Error: Access denied")
        if any(path.count("/") - 1 > 8 for path in paths):
            raise ToolError("Error: The path is too deep")
        return inner.call(command)

    return handle
