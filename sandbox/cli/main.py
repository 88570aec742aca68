"""Entry point of the ``memory-sandbox`` command: parse arguments, call the library, map exit codes."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from sandbox.cli.attack_cmd import add_attack_command
from sandbox.cli.audit_cmd import add_audit_commands
from sandbox.cli.chat_cmd import add_chat_command
from sandbox.cli.db_cmd import add_db_commands
from sandbox.cli.exits import EXIT_CODES, Parser, run_command
from sandbox.cli.history_cmd import add_history_commands
from sandbox.cli.mcp_cmd import add_mcp_command
from sandbox.cli.policy_cmd import add_policy_commands
from sandbox.cli.rescan_cmd import add_rescan_command
from sandbox.cli.store_cmd import add_store_commands

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    # Typed as the base class (argparse's subparser action is invariant); subcommands are Parsers too.
    parser: argparse.ArgumentParser = Parser(
        prog="memory-sandbox",
        description="A policy engine that makes Claude's memory tool safe to run in production.",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_Version, help="show the version and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    add_store_commands(commands)
    add_history_commands(commands)
    add_chat_command(commands)
    add_policy_commands(commands)
    add_audit_commands(commands)
    add_db_commands(commands)
    add_attack_command(commands)
    add_mcp_command(commands)
    add_rescan_command(commands)
    return parser


class _Version(argparse.Action):
    """``--version``, reading the installed version only when asked (importlib.metadata is slow to load)."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:  # noqa: A002 - argparse's name
        super().__init__(option_strings, dest, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        from sandbox import __version__  # noqa: PLC0415 - lazy: start-up

        print(f"memory-sandbox {__version__}")
        parser.exit()


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 0
    return run_command(handler, args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
