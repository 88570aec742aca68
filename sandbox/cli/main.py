"""Entry point of the ``memory-sandbox`` command: parse arguments, call the library, map exit codes."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from sandbox import __version__
from sandbox.decision import CallContext
from sandbox.errors import SandboxError
from sandbox.pipeline import Sandbox
from sandbox.policy import load_policy
from sandbox.replay import ReplaySummary, format_row, read_session, replay
from sandbox.storage.url import open_storage

__all__ = ["build_parser", "main"]

DEFAULT_STORE = "file:./memory"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="memory-sandbox",
        description="A policy engine that makes Claude's memory tool safe to run in production.",
    )
    parser.add_argument("--version", action="version", version=f"memory-sandbox {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    run = commands.add_parser("replay", help="replay recorded memory-tool calls through the sandbox")
    run.add_argument("session", type=Path, help="JSON lines file, one tool_use input per line")
    run.add_argument("--store", default=DEFAULT_STORE, help=f"store URL (default: {DEFAULT_STORE})")
    run.add_argument("--policy", default="default", help="profile name or policy file (default: default)")
    run.set_defaults(handler=_replay)
    return parser


def _replay(args: argparse.Namespace) -> int:
    policy = load_policy(args.policy)
    sandbox = Sandbox(policy=policy, storage=open_storage(args.store))
    try:
        lines = args.session.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        print(f"memory-sandbox: cannot read {args.session}: {exc.__class__.__name__}", file=sys.stderr)
        return 2
    summary = ReplaySummary()
    print(f"Replaying {args.session} (policy {policy.id} r{policy.revision}, store {args.store})")

    def sandbox_for(_: CallContext) -> Sandbox:
        return sandbox

    for row in replay(read_session(lines), sandbox_for):
        summary.add(row)
        print(format_row(row))
    print(f"\n{summary.total} calls: {summary.allowed} allowed, {sum(summary.denied.values())} denied", end="")
    print(f", {sum(summary.failed.values())} failed" if summary.failed else "")
    for rule, count in sorted(summary.denied.items()):
        print(f"  denied by {rule}: {count}")
    for code, count in sorted(summary.failed.items()):
        print(f"  failed ({code}): {count}")
    if summary.redacted:
        found = ", ".join(f"{rule} x{count}" for rule, count in sorted(summary.redacted.items()))
        print(f"secrets redacted: {sum(summary.redacted.values())} ({found})")
    return 0


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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
