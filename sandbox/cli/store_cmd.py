"""``memory-sandbox replay|expire|purge``: commands that act on a store."""

from __future__ import annotations

import argparse
import datetime
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from sandbox.cli.common import DEFAULT_STORE, add_policy_option, open_sandbox, policy_from

if TYPE_CHECKING:
    from sandbox.decision import CallContext
    from sandbox.pipeline import Sandbox
    from sandbox.policy import Policy
    from sandbox.storage.url import Stores

__all__ = ["add_store_commands"]


def _add_store_option(parser: argparse.ArgumentParser, scope_help: str) -> None:
    parser.add_argument(
        "--store",
        default=DEFAULT_STORE,
        help=f"store URL: file:DIR, sqlite:FILE, postgresql://..., memory: (default: {DEFAULT_STORE})",
    )
    parser.add_argument("--scope", default=None, help=scope_help)
    add_policy_option(parser)


def add_store_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    run = commands.add_parser("replay", help="replay recorded memory-tool calls through the sandbox")
    run.add_argument("session", type=Path, help="JSON lines file, one tool_use input per line")
    _add_store_option(run, "the scope to use (calls that name a scope use their own)")
    run.set_defaults(handler=_replay)
    old = commands.add_parser("expire", help="delete files past their time to live ([retention])")
    _add_store_option(old, "only this scope")
    old.add_argument("--now", default=None, help="the time to measure ages from (ISO 8601; default: now)")
    old.set_defaults(handler=_expire)
    erase = commands.add_parser("purge", help="erase a scope entirely (for erasure requests)")
    _add_store_option(erase, "the scope to erase (required)")
    erase.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    erase.set_defaults(handler=_purge)


def _replay(args: argparse.Namespace) -> int:
    from sandbox.storage.url import open_stores  # noqa: PLC0415 - lazy: start-up

    policy = policy_from(args)
    try:
        lines = args.session.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        print(f"memory-sandbox: cannot read {args.session}: {type(exc).__name__}", file=sys.stderr)
        return 2
    with open_stores(args.store) as stores:
        return _replay_into(args, policy, stores, lines)


def _replay_into(args: argparse.Namespace, policy: Policy, stores: Stores, lines: list[str]) -> int:
    from sandbox.audit import ChainedAuditSink  # noqa: PLC0415 - lazy: start-up
    from sandbox.replay import Printer, ReplaySummary, read_session, replay  # noqa: PLC0415 - lazy: start-up
    from sandbox.storage.url import shown_url  # noqa: PLC0415 - lazy: start-up

    sandboxes: dict[str | None, Sandbox] = {}

    def sandbox_for(context: CallContext) -> Sandbox:  # one sandbox per scope, opened on first use
        scope = context.scope or args.scope
        if scope not in sandboxes:
            sandboxes[scope] = open_sandbox(policy, stores, scope)
        return sandboxes[scope]

    summary = ReplaySummary()
    print(f"Replaying {args.session} (policy {policy.id} r{policy.revision}, store {shown_url(args.store)})")
    printer = Printer()
    for row in replay(read_session(lines), sandbox_for):
        summary.add(row)
        for line in printer.lines(row):
            print(line)
    print(f"\n{summary.total} calls: {summary.allowed} allowed, {sum(summary.denied.values())} denied", end="")
    print(f", {sum(summary.corrected.values())} ordinary errors" if summary.corrected else "", end="")
    print(f", {sum(summary.failed.values())} failed" if summary.failed else "")
    for rule, count in sorted(summary.denied.items()):
        print(f"  denied by {rule}: {count}")
    if summary.corrected:
        by_command = ", ".join(f"{command} {count}" for command, count in sorted(summary.corrected.items()))
        print(f"  ordinary errors the model can correct (missing file, no unique match, bad line): {by_command}")
    for code, count in sorted(summary.failed.items()):
        print(f"  failed ({code}): {count}")
    if summary.redacted:
        found = ", ".join(f"{rule} x{count}" for rule, count in sorted(summary.redacted.items()))
        print(f"secrets redacted: {sum(summary.redacted.values())} ({found})")
    for scope, sandbox in sorted(sandboxes.items(), key=lambda item: item[0] or ""):
        storage = getattr(sandbox.backend, "storage", None)
        if storage is not None:
            used, quota = storage.usage(), policy.quota
            print(
                f"quota{f' ({scope})' if scope else ''}: {used.bytes:,} of {quota.max_bytes or 0:,} bytes, "
                f"{used.files} of {quota.max_files or 0} files"
            )
        sandbox.close()
        if isinstance(sandbox.audit, ChainedAuditSink):
            where = getattr(sandbox.audit, "path", None) or repr(sandbox.audit)
            print(f"audit{f' ({scope})' if scope else ''}: {sandbox.audit.verify().summary()} [{where}]")
    return 0


def _expire(args: argparse.Namespace) -> int:
    from sandbox.retention import expire  # noqa: PLC0415 - lazy: start-up
    from sandbox.storage.url import open_stores  # noqa: PLC0415 - lazy: start-up

    now = datetime.datetime.fromisoformat(args.now).timestamp() if args.now else None
    with open_stores(args.store) as stores:
        sandbox = open_sandbox(policy_from(args), stores, args.scope)
        report = expire(sandbox, now)
        sandbox.close()
    for path in report.deleted:
        print(f"expired {path}")
    for path in report.failed:
        print(f"could not expire {path}", file=sys.stderr)
    print(f"{report.examined} files examined, {len(report.deleted)} expired, {report.pinned} pinned")
    return 1 if report.failed else 0


def _purge(args: argparse.Namespace) -> int:
    from sandbox.retention import purge  # noqa: PLC0415 - lazy: start-up
    from sandbox.storage.url import open_stores, shown_url  # noqa: PLC0415 - lazy: start-up

    if not args.scope:
        print("memory-sandbox: purge needs --scope (the scope to erase)", file=sys.stderr)
        return 2
    if not args.yes:
        answer = input(
            f"Erase every memory of scope {args.scope!r} in {shown_url(args.store)}? Type the scope id to confirm: "
        )
        if answer.strip() != args.scope:
            print("Nothing erased.")
            return 1
    with open_stores(args.store) as stores:
        sandbox = open_sandbox(policy_from(args), stores, args.scope)
        deleted = purge(sandbox)
        sandbox.close()
        storage = getattr(sandbox.backend, "storage", None)
        erase = getattr(storage, "erase", None)
        if callable(erase):
            erase()  # the scope's folder (or rows) and the store's own records of it
    print(f"purged scope {args.scope!r}: {len(deleted)} top-level entries erased")
    return 0
