"""What several commands share: the policy option and opening a store by URL."""

from __future__ import annotations

import argparse
import os
from typing import Final

from sandbox.pipeline import Sandbox
from sandbox.policy import Policy, load_policy
from sandbox.storage.local import LocalStorage
from sandbox.storage.url import open_storage, storage_root

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


def open_sandbox(policy: Policy, store: str, scope: str | None) -> Sandbox:
    """The sandbox of a store URL; with a scope, that scope's folder under a file store."""
    if scope is None:
        return Sandbox(policy=policy, storage=open_storage(store))
    if not store.startswith("file:"):
        raise ValueError("--scope needs a file: store (a folder holding one folder per scope)")
    return Sandbox(policy=policy, storage=LocalStorage.for_scope(storage_root(store), scope), scope=scope)
