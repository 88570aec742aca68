"""What several commands share: the policy option and the sandbox of a scope.

Modules of this package import the engine inside the functions that use it, so that
``memory-sandbox --help`` and a mistyped command answer at once (start-up is measured
by ``bench/cli_startup.py``).
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import urllib.parse
from pathlib import Path
from typing import TYPE_CHECKING, Final

from sandbox.cli.exits import UsageError

if TYPE_CHECKING:
    from sandbox.decision import AuditSink
    from sandbox.pipeline import Sandbox, Scans
    from sandbox.policy import Policy
    from sandbox.storage.url import Stores

__all__ = [
    "DEFAULT_STORE",
    "POLICY_ENV",
    "add_policy_option",
    "add_store_options",
    "checked_store",
    "iso_time",
    "open_sandbox",
    "policy_from",
    "readable_text",
]

DEFAULT_STORE: Final = "file:./memory"
#: Names the policy (a profile or a file) when --policy is not given; it can only name one.
POLICY_ENV: Final = "MEMORY_SANDBOX_POLICY"


def add_policy_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--policy",
        default=None,
        help=f"profile name or policy file (default: ${POLICY_ENV}, else the default profile)",
    )


def add_store_options(parser: argparse.ArgumentParser, scope_help: str, *, creates: bool) -> None:
    """--store, --scope and --policy; ``creates``: the command may make a new store (with --create)."""
    parser.add_argument(
        "--store",
        default=None,
        help=f"store URL: file:DIR, sqlite:FILE, postgresql://..., memory: (default: {DEFAULT_STORE})",
    )
    parser.add_argument("--scope", default=None, help=scope_help)
    if creates:
        parser.add_argument(
            "--create",
            action="store_true",
            help="make the store named by --store if it does not exist (the default store is made on first use)",
        )
    add_policy_option(parser)


def checked_store(args: argparse.Namespace) -> str:
    """The store URL of the command: a named folder or file store must exist, unless --create is given.

    A misspelt ``--store file:./memroy`` would otherwise start a new, empty store with a key of
    its own, and every later command would look in the wrong place without a word.
    """
    url: str = args.store or DEFAULT_STORE
    scheme = urllib.parse.urlsplit(url).scheme
    if scheme not in ("file", "sqlite"):
        return url
    from sandbox.storage.url import storage_root  # noqa: PLC0415 - lazy: start-up

    root = Path(storage_root(url))
    if root.exists():
        return url
    if not (getattr(args, "create", False) or (args.store is None and hasattr(args, "create"))):
        hint = ", or pass --create to make a new one" if hasattr(args, "create") else ""
        raise UsageError(f"no store at {url}: check the spelling{hint}")
    missing = [folder for folder in reversed(root.parents) if not folder.exists()]
    made = [f"folder {folder}" for folder in missing]
    if scheme == "file":
        root.mkdir(mode=0o700, parents=True)
        made.append(f"folder {root}")
    else:
        root.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        made.append(f"database file {root}")
    print(f"memory-sandbox: new store {url}: created {', '.join(made)}", file=sys.stderr)
    return url


def policy_from(args: argparse.Namespace) -> Policy:
    from sandbox.policy import load_policy  # noqa: PLC0415 - the engine only when a command runs

    return load_policy(args.policy or os.environ.get(POLICY_ENV) or "default")


def open_sandbox(
    policy: Policy, stores: Stores, scope: str | None, *, audit: AuditSink | None = None, scans: Scans | None = None
) -> Sandbox:
    """The sandbox of one scope of the stores a URL names (None: the store itself / its default scope);
    ``audit`` and ``scans``: a log and compiled scans shared by the sandboxes of several scopes."""
    from sandbox.pipeline import Sandbox  # noqa: PLC0415 - the engine only when a command runs

    return Sandbox(policy=policy, storage=stores.storage(scope), scope=scope, audit=audit, scans=scans)


def iso_time(text: str) -> datetime.datetime:
    """An ISO 8601 time from the command line (UTC when no offset is given); a typo is a usage error."""
    try:
        moment = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an ISO 8601 time: {text!r} (e.g. 2026-12-01T09:30Z)") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=datetime.UTC)


def readable_text(path: Path) -> Path:
    """``path`` if it is a UTF-8 text file; else a usage error saying what is wrong with it, in words."""
    try:
        path.read_bytes().decode("utf-8")
    except IsADirectoryError:
        raise UsageError(f"{path} is a folder, not a file") from None
    except FileNotFoundError:
        raise UsageError(f"no file {path}") from None
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {(exc.strerror or 'unreadable').lower()}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path} is not UTF-8 text") from None
    return path
