"""What several commands share: the policy option and the sandbox of a scope."""

from __future__ import annotations

import argparse
import os
from typing import Final

from sandbox.pipeline import Sandbox
from sandbox.policy import Policy, load_policy
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
    return load_policy(args.policy or os.environ.get(POLICY_ENV) or "default")


def open_sandbox(policy: Policy, stores: Stores, scope: str | None) -> Sandbox:
    """The sandbox of one scope of the stores a URL names (None: the store itself / its default scope)."""
    return Sandbox(policy=policy, storage=stores.storage(scope), scope=scope)
