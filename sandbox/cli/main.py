"""Entry point of the ``memory-sandbox`` command: parse arguments, call the library, map exit codes."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from sandbox import __version__
from sandbox.cli.attack_cmd import add_attack_command
from sandbox.cli.audit_cmd import add_audit_commands
from sandbox.cli.chat_cmd import add_chat_command
from sandbox.cli.db_cmd import add_db_commands
from sandbox.cli.policy_cmd import add_policy_commands
from sandbox.cli.rescan_cmd import add_rescan_command
from sandbox.cli.store_cmd import add_store_commands
from sandbox.errors import SandboxError

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="memory-sandbox",
        description="A policy engine that makes Claude's memory tool safe to run in production.",
    )
    parser.add_argument("--version", action="version", version=f"memory-sandbox {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    add_store_commands(commands)
    add_chat_command(commands)
    add_policy_commands(commands)
    add_audit_commands(commands)
    add_db_commands(commands)
    add_attack_command(commands)
    add_rescan_command(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 0
    try:
        return int(handler(args))
    except SandboxError as exc:
        print(f"memory-sandbox: {exc.message}", file=sys.stderr)
        return exc.exit_code
    except (ValueError, OSError) as exc:
        print(f"memory-sandbox: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
