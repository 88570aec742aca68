"""``memory-sandbox replay|expire|purge``: commands that act on a store."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from sandbox.cli.common import add_store_options, checked_store, iso_time, open_sandbox, policy_from
from sandbox.cli.exits import FINDING, REFUSED, UsageError
from sandbox.cli.progress import progress_bar
from sandbox.display import printable

if TYPE_CHECKING:
    from sandbox.decision import CallContext
    from sandbox.pipeline import Sandbox
    from sandbox.policy import Policy
    from sandbox.storage.url import Stores

__all__ = ["add_store_commands"]


def add_store_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    run = commands.add_parser("replay", help="replay recorded memory-tool calls through the sandbox")
    run.add_argument("session", type=Path, help="JSON lines file, one tool_use input per line")
    add_store_options(run, "the scope to use (calls that name a scope use their own)", creates=True)
    run.set_defaults(handler=_replay)
    old = commands.add_parser("expire", help="delete files past their time to live ([retention])")
    add_store_options(old, "only this scope", creates=False)
    old.add_argument("--now", type=iso_time, default=None, help="the time to measure ages from (default: now)")
    old.add_argument("--dry-run", action="store_true", help="list what would expire; delete nothing")
    old.set_defaults(handler=_expire)
    erase = commands.add_parser("purge", help="erase a scope entirely (for erasure requests)")
    add_store_options(erase, "the scope to erase (required)", creates=False)
    erase.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    erase.set_defaults(handler=_purge)
    store = commands.add_parser("store", help="manage a store's folder layout")
    sub = store.add_subparsers(dest="store_command", metavar="ACTION", required=True)
    move = sub.add_parser(
        "migrate", help="move a folder of scopes of the older layout to scopes/ and audit/ (safe to run again)"
    )
    move.add_argument("--store", required=True, help="the folder of scopes: file:DIR")
    move.set_defaults(handler=_migrate)


def _replay(args: argparse.Namespace) -> int:
    from sandbox.storage.url import open_stores  # noqa: PLC0415 - lazy: start-up

    policy = policy_from(args)
    try:
        lines = args.session.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        reason = "not UTF-8 text" if isinstance(exc, UnicodeDecodeError) else (exc.strerror or "unreadable").lower()
        raise UsageError(f"cannot read {args.session}: {reason}") from None
    args.store = checked_store(args)
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

    url = checked_store(args)
    policy = policy_from(args)
    retention = policy.retention
    if retention.ttl_days is None and not any(rule.ttl_days is not None for rule in retention.rules):
        print(
            f"policy {policy.id} sets no time to live ([retention] ttl_days, or a rule's): nothing can expire",
            file=sys.stderr,
        )
        return 0
    now = args.now.timestamp() if args.now else None
    with open_stores(url) as stores:
        _require_scope(stores, url, args.scope)
        sandbox = open_sandbox(policy, stores, args.scope)
        try:
            report = expire(sandbox, now, dry_run=args.dry_run, progress=progress_bar("expiring"))
        finally:
            sandbox.close()
    verb = "would expire" if args.dry_run else "expired"
    for path in report.deleted:
        print(f"{verb} {printable(path)}")
    for path in report.failed:
        print(f"could not expire {printable(path)}", file=sys.stderr)
    print(f"{report.examined} files examined, {len(report.deleted)} {verb}, {report.pinned} pinned")
    return 1 if report.failed else 0


def _purge(args: argparse.Namespace) -> int:
    from sandbox.retention import purge  # noqa: PLC0415 - lazy: start-up
    from sandbox.storage.url import open_stores, shown_url  # noqa: PLC0415 - lazy: start-up

    if not args.scope:
        raise UsageError("purge needs --scope (the scope to erase)")
    url = checked_store(args)
    with open_stores(url) as stores:
        _require_scope(stores, url, args.scope)
        if not args.yes and not _confirmed(
            f"Erase every memory of scope {args.scope!r} in {shown_url(url)}?", args.scope
        ):
            print("memory-sandbox: not confirmed; nothing erased", file=sys.stderr)
            return REFUSED
        sandbox = open_sandbox(policy_from(args), stores, args.scope)
        deleted = purge(sandbox, progress=progress_bar("erasing"))
        sandbox.close()
        storage = getattr(sandbox.backend, "storage", None)
        erase = getattr(storage, "erase", None)
        if callable(erase):
            erase()  # the scope's folder (or rows) and the store's own records of it, whatever is left
        left = _left_behind(storage)
    print(f"purged scope {args.scope!r}: {len(deleted)} top-level entries erased one by one, then the store")
    if left:
        print(f"memory-sandbox: scope {args.scope!r} is not erased: {left}", file=sys.stderr)
        return FINDING
    return 0


def _left_behind(storage: object) -> str:
    """What an erased store still holds (empty when nothing): its folder on disk, or rows in a database."""
    root = getattr(storage, "root_path", None)
    if isinstance(root, str) and getattr(storage, "scope", None) is None:
        return f"{os.path.basename(root)} still exists" if os.path.lexists(root) else ""
    usage = getattr(storage, "usage", None)
    if callable(usage):
        held = usage()
        if held.files or held.folders:
            return f"{held.files} files and {held.folders} folders remain"
    return ""


def _migrate(args: argparse.Namespace) -> int:
    from sandbox.storage.layout import migrate_first_layout  # noqa: PLC0415 - lazy: start-up
    from sandbox.storage.url import storage_root  # noqa: PLC0415 - lazy: start-up

    if not args.store.startswith("file:"):
        raise UsageError("store migrate moves folders: give --store file:DIR")
    folder = storage_root(args.store)
    if not os.path.isdir(folder):
        raise UsageError(f"no store at {args.store}: check the spelling")
    moved = migrate_first_layout(folder)
    if moved:
        print(f"moved {len(moved)} scopes to scopes/ and their audit logs to audit/: {', '.join(moved)}")
    else:
        print(f"{args.store} already has the current layout; nothing moved")
    return 0


def _confirmed(question: str, scope: str) -> bool:
    """The scope id typed back (on a terminal, or piped in); no input at all is a usage error, not a no."""
    if sys.stdin is None:
        raise UsageError("purge asks for confirmation and there is no input; pass --yes to erase without asking")
    if sys.stdin.isatty():
        print(f"{question} Type the scope id to confirm: ", end="", file=sys.stderr, flush=True)
    answer = sys.stdin.readline()
    if not answer:
        raise UsageError("purge asks for confirmation and the input ended; pass --yes to erase without asking")
    return answer.strip() == scope


def _require_scope(stores: Stores, url: str, scope: str | None) -> None:
    """A named scope must hold something: a misspelt scope is an error, not an erasure of nothing."""
    if scope is None:
        return
    from sandbox.paths import ROOT  # noqa: PLC0415 - lazy: start-up
    from sandbox.storage.local import scope_root  # noqa: PLC0415 - lazy: start-up
    from sandbox.storage.url import shown_url, storage_root  # noqa: PLC0415 - lazy: start-up

    if url.startswith("file:"):
        found = os.path.isdir(scope_root(storage_root(url), scope))
    else:
        storage = stores.storage(scope)
        with storage.scan(ROOT) as entries:
            found = next(iter(entries), None) is not None
        exists = getattr(storage, "exists", None)
        found = found or (callable(exists) and bool(exists()))  # emptied, but its usage or secret remains
    if not found:
        raise UsageError(f"no scope {scope!r} in {shown_url(url)}")
