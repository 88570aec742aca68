"""``memory-sandbox history|diff|rollback``: review what changed in a store, and undo it.

Everything shown comes from the store's versions (model-written paths and text among it),
so it is printed escaped (:func:`~sandbox.display.printable`): a path or a line of memory can
never rewrite the terminal an operator reviews it on.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from sandbox.cli.common import add_store_options, checked_store, iso_time, open_sandbox, policy_from
from sandbox.cli.exits import FINDING, REFUSED, UsageError
from sandbox.display import printable

if TYPE_CHECKING:
    from sandbox.history import Version
    from sandbox.pipeline import Sandbox
    from sandbox.storage.base import StorageAdapter

__all__ = ["add_history_commands"]

_T = TypeVar("_T")


def add_history_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    shown = commands.add_parser(
        "history",
        help="the versions kept of a path (or of the whole store), with diffs; `history redact PATH --version N`"
        " erases one version's content",
        usage="%(prog)s [PATH] [--no-diff] [--quarantined] | %(prog)s redact PATH --version N"
        " | %(prog)s release PATH --version N | %(prog)s drop (--session S | --decision ID) [--yes]",
    )
    shown.add_argument("words", nargs="*", metavar="PATH", help="a /memories path (default: every version)")
    shown.add_argument("--no-diff", action="store_true", help="list versions only")
    shown.add_argument("--quarantined", action="store_true", help="only the writes held for review")
    shown.add_argument(
        "--version", dest="number", type=int, metavar="N", default=None, help="with redact: the version to erase"
    )
    shown.add_argument("--session", default=None, help="with drop: the session whose versions go")
    shown.add_argument("--decision", default=None, help="with drop: the decision whose versions go")
    shown.add_argument("--yes", action="store_true", help="with drop: drop them (without it, only list them)")
    add_store_options(shown, "the scope to look at", creates=False)
    shown.set_defaults(handler=_history)
    diff = commands.add_parser("diff", help="what one session changed, as diffs")
    diff.add_argument("--session", required=True, help="the session id the application recorded")
    add_store_options(diff, "the scope to look at", creates=False)
    diff.set_defaults(handler=_diff)
    undo = commands.add_parser("rollback", help="put back the state from before a session, a time or a decision")
    chosen = undo.add_mutually_exclusive_group(required=True)
    chosen.add_argument("--session", help="undo every change of this session")
    chosen.add_argument("--since", type=iso_time, help="undo every change since this time (ISO 8601)")
    chosen.add_argument("--decision", help="undo the changes of one decision (its id in the audit log)")
    undo.add_argument("--dry-run", action="store_true", help="show what would be undone; change nothing")
    undo.add_argument("--force", action="store_true", help="undo even where later sessions changed the same paths")
    undo.add_argument("--operator", default=None, help="who rolls back (recorded as the principal)")
    add_store_options(undo, "the scope to roll back", creates=False)
    undo.set_defaults(handler=_rollback)


def _versions(args: argparse.Namespace) -> tuple[list[Version], dict[str, bytes | None]]:
    """Every version of the store's scope, and the current content of each path they name."""
    from sandbox.history import Shelf  # noqa: PLC0415 - lazy: start-up
    from sandbox.storage.url import open_stores  # noqa: PLC0415 - lazy: start-up

    url = checked_store(args)
    with open_stores(url) as stores:
        storage = stores.storage(args.scope)
        with storage.writing() as writer:
            if not isinstance(writer, Shelf):
                raise UsageError(f"{url} keeps no versions")
            versions = writer.shelved()
        paths = {_chase(version, versions)[1] for version in versions} | {v.path for v in versions if v.quarantined}
        return versions, _current(storage, paths)


def _current(storage: StorageAdapter, paths: set[str]) -> dict[str, bytes | None]:
    """What the store holds now at each of ``paths`` (None: nothing, or a folder)."""
    from sandbox.errors import SandboxError  # noqa: PLC0415 - lazy: start-up
    from sandbox.history import version_path  # noqa: PLC0415 - lazy: start-up

    now: dict[str, bytes | None] = {}
    for text in paths:
        try:
            path = version_path(text)
            entry = storage.stat(path)
            now[text] = storage.read(path) if entry is not None and not entry.is_dir else None
        except SandboxError:
            now[text] = None
    return now


def _chase(version: Version, versions: list[Version]) -> tuple[Version | None, str]:
    """Where what ``version``'s change wrote went: the next version of it (a later change of the
    same file, followed through renames of it or of a folder above it), or, when none, its path now."""
    path = version.new_path if version.change == "rename" and version.new_path else version.path
    for later in versions:
        if later.seq <= version.seq or later.quarantined:
            continue
        if later.path == path and later.change != "rename":
            return later, path
        if later.change == "rename" and later.new_path and (path == later.path or path.startswith(later.path + "/")):
            path = later.new_path + path[len(later.path) :]
    return None, path


def _after(version: Version, versions: list[Version], now: dict[str, bytes | None]) -> bytes | Version | None:
    """The content ``version.path`` had right after the change: the next version's (that version when
    its content was erased), or today's."""
    later, path = _chase(version, versions)
    if later is None:
        return now.get(path)
    if later.redacted:
        return later
    return later.content if later.existed and not later.is_dir else None


def _print_change(version: Version, versions: list[Version], now: dict[str, bytes | None], *, diff: bool) -> None:
    from sandbox.rollback import describe, diff_lines  # noqa: PLC0415 - lazy: start-up

    print(printable(describe(version)))
    if not diff or version.is_dir or version.change == "rename":
        return
    if version.quarantined:
        # Held for review: what the write would make of the file as it is now.
        print("    (held for review; release with `history release PATH --version N`)")
        for line in diff_lines(now.get(version.path), version.content, version.path):
            print("    " + printable(line))
        return
    before = version.content if version.existed else None
    if version.redacted:
        print("    (content erased by history redact)")
        return
    after = _after(version, versions, now)
    if not isinstance(after, bytes | None):
        print(f"    (what followed was erased by history redact: version {after.seq})")
        return
    for line in diff_lines(before, after, version.path):
        print("    " + printable(line))


def _history(args: argparse.Namespace) -> int:
    words = args.words
    if words[:1] in (["redact"], ["release"]):
        if len(words) != 2 or args.number is None:
            raise UsageError(f"usage: memory-sandbox history {words[0]} PATH --version N")
        args.path = words[1]
        return _redact(args) if words[0] == "redact" else _release(args)
    if words[:1] == ["drop"]:
        if len(words) != 1 or (args.session is None) == (args.decision is None):
            raise UsageError("usage: memory-sandbox history drop (--session S | --decision ID) [--yes]")
        return _drop(args)
    if args.session is not None or args.decision is not None or args.yes:
        raise UsageError("--session, --decision and --yes go with history drop")
    if len(words) > 1 or args.number is not None:
        raise UsageError("history takes one PATH; to erase a version: history redact PATH --version N")
    args.path = words[0] if words else None
    versions, now = _versions(args)
    shown = [
        v
        for v in versions
        if (args.path is None or args.path in (v.path, v.new_path)) and (v.quarantined or not args.quarantined)
    ]
    for version in shown:
        _print_change(version, versions, now, diff=not args.no_diff)
    print(f"{len(shown)} versions" + (f" of {printable(args.path)}" if args.path else ""))
    return 0


def _on_sandbox(args: argparse.Namespace, work: Callable[[Sandbox], _T]) -> _T:
    """``work`` on the sandbox of the command's store and scope, closed after."""
    from sandbox.storage.url import open_stores  # noqa: PLC0415 - lazy: start-up

    with open_stores(checked_store(args)) as stores:
        sandbox = open_sandbox(policy_from(args), stores, args.scope)
        try:
            return work(sandbox)
        finally:
            sandbox.close()


def _redact(args: argparse.Namespace) -> int:
    from sandbox.rollback import redact_version  # noqa: PLC0415 - lazy: start-up

    version = _on_sandbox(args, lambda sandbox: redact_version(sandbox, args.path, args.number))
    print(f"erased the content of version {version.seq} of {printable(version.path)} (its record and digest stay)")
    return 0


def _release(args: argparse.Namespace) -> int:
    from sandbox.rollback import release_version  # noqa: PLC0415 - lazy: start-up

    version = _on_sandbox(args, lambda sandbox: release_version(sandbox, args.path, args.number))
    print(f"released version {version.seq}: {printable(version.path)} now holds the write that was held")
    return 0


def _drop(args: argparse.Namespace) -> int:
    from sandbox.rollback import Selection, describe, drop_versions  # noqa: PLC0415 - lazy: start-up

    selection = Selection(session=args.session, decision=args.decision)
    if not args.yes:
        versions, _ = _versions(args)
        chosen = [version for version in versions if selection.picks(version)]
        for version in chosen:
            print("would drop " + printable(describe(version)))
        print(
            f"{len(chosen)} versions of {printable(str(selection))}; add --yes to drop them (they cannot be restored)"
        )
        return 0
    dropped = _on_sandbox(args, lambda sandbox: drop_versions(sandbox, selection))
    if not dropped:
        print(f"no versions of {printable(str(selection))}", file=sys.stderr)
        return FINDING
    print(f"dropped {len(dropped)} versions of {printable(str(selection))}")
    return 0


def _diff(args: argparse.Namespace) -> int:
    versions, now = _versions(args)
    mine = [v for v in versions if v.session == args.session]
    if not mine:
        print(f"no versions of session {printable(args.session)}", file=sys.stderr)
        return FINDING
    for version in mine:
        _print_change(version, versions, now, diff=True)
    print(f"session {printable(args.session)}: {len(mine)} changes kept")
    return 0


def _rollback(args: argparse.Namespace) -> int:
    from sandbox.rollback import Selection, describe, run_rollback  # noqa: PLC0415 - lazy: start-up

    selection = Selection(
        session=args.session,
        since=args.since.timestamp() if args.since is not None else None,
        decision=args.decision,
    )
    report = _on_sandbox(
        args,
        lambda sandbox: run_rollback(
            sandbox, selection, force=args.force, dry_run=args.dry_run, operator=args.operator
        ),
    )
    plan = report.plan
    if not plan.undo:
        print(f"nothing to roll back: no versions of {printable(str(selection))}", file=sys.stderr)
        return FINDING
    if args.dry_run:
        for version in plan.undo:
            print("would undo " + printable(describe(version)))
        for version in plan.conflicts:
            print("later change " + printable(describe(version)))
        verdict = "would be refused without --force" if plan.conflicts else "would go ahead"
        print(f"{len(plan.undo)} changes to undo; {len(plan.conflicts)} later changes in the way: {verdict}")
        return 0
    for line in report.done:
        print(printable(line))
    if not report.ok:
        print(f"memory-sandbox: rollback refused: {printable(report.error)}", file=sys.stderr)
        return REFUSED
    print(f"rolled back {printable(str(selection))}: {len(plan.undo)} changes undone, {len(report.done)} steps")
    return 0
