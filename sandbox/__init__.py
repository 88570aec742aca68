"""memory-sandbox: a policy engine that makes Claude's memory tool safe to run.

::

    from sandbox import Sandbox, load_policy
    from sandbox.storage import InMemoryStorage
    from sandbox.integrations.anthropic import SandboxedMemoryTool

    tool = SandboxedMemoryTool(Sandbox(policy=load_policy("default"), storage=InMemoryStorage()))
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from sandbox.decision import CallContext, Decision
from sandbox.errors import SandboxError
from sandbox.paths import MemoryPath, canonicalize
from sandbox.pipeline import Sandbox, ToolResult
from sandbox.policy import Policy, load_policy

try:
    __version__ = version("memory-sandbox")
except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
    __version__ = "0+unknown"

__all__ = [
    "CallContext",
    "Decision",
    "MemoryPath",
    "Policy",
    "Sandbox",
    "SandboxError",
    "ToolResult",
    "__version__",
    "canonicalize",
    "load_policy",
]
