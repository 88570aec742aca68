"""What several commands share: the policy option and the sandbox of a scope.

Modules of this package import the engine inside the functions that use it, so that
``memory-sandbox --help`` and a mistyped command answer at once (start-up is measured
by ``bench/cli_startup.py``).
"""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from sandbox.pipeline import Sandbox
    from sandbox.policy import Policy
    from sandbox.storage.url import Stores

__all__ = ["DEFAULT_STORE", "POLICY_ENV", "add_policy_option", "open_sandbox", "policy_from"]

DEFAULT_STORE: Final = "file:./memory"
#: Names the policy (a profile or a file) when --policy is not given; it can only name one.
POLICY_ENV: Final = "MEMORY_SANDBOX_POLICY"


def add_policy_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--policy",
        default=None,
        help=f"profile name or policy file (default: ${POLICY_ENV}, else the default profile)",
    )


def policy_from(args: argparse.Namespace) -> Policy:
    from sandbox.policy import load_policy  # noqa: PLC0415 - the engine only when a command runs

    return load_policy(args.policy or os.environ.get(POLICY_ENV) or "default")


def open_sandbox(policy: Policy, stores: Stores, scope: str | None) -> Sandbox:
    """The sandbox of one scope of the stores a URL names (None: the store itself / its default scope)."""
    from sandbox.pipeline import Sandbox  # noqa: PLC0415 - the engine only when a command runs

    return Sandbox(policy=policy, storage=stores.storage(scope), scope=scope)
