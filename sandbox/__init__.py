"""memory-sandbox: a policy engine that makes Claude's memory tool safe to run.

::

    from sandbox import Sandbox, load_policy
    from sandbox.storage import InMemoryStorage
    from sandbox.integrations.anthropic import SandboxedMemoryTool

    tool = SandboxedMemoryTool(Sandbox(policy=load_policy("default"), storage=InMemoryStorage()))
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sandbox.decision import CallContext, Decision
    from sandbox.errors import SandboxError
    from sandbox.paths import MemoryPath, canonicalize
    from sandbox.pipeline import Sandbox, ToolResult
    from sandbox.policy import Policy, load_policy

    __version__: str

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

# Loaded on first use (PEP 562): the engine pulls in pydantic, structlog and the secret
# engine, and `memory-sandbox --help` (a module of this package) must not wait for them.
_HOMES = {
    "CallContext": "sandbox.decision",
    "Decision": "sandbox.decision",
    "MemoryPath": "sandbox.paths",
    "Policy": "sandbox.policy",
    "Sandbox": "sandbox.pipeline",
    "SandboxError": "sandbox.errors",
    "ToolResult": "sandbox.pipeline",
    "canonicalize": "sandbox.paths",
    "load_policy": "sandbox.policy",
}


def __getattr__(name: str) -> Any:
    if name == "__version__":
        value: Any = _version()
    elif name in _HOMES:
        value = getattr(importlib.import_module(_HOMES[name]), name)
    else:
        raise AttributeError(f"module 'sandbox' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415 - only when asked for

    try:
        return version("memory-sandbox")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
        return "0+unknown"
