"""``memory-sandbox rescan``: the current secret and injection rules applied to what a store holds."""

from __future__ import annotations

import argparse

from sandbox.cli.common import add_store_options, checked_store, open_sandbox, policy_from
from sandbox.display import printable

__all__ = ["add_rescan_command"]


def add_rescan_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "rescan",
        help="scan stored files and versions with the current secret and injection rules (report; --apply "
        "redacts secrets; planted text is reported only)",
    )
    add_store_options(parser, "the scope to scan (default: the store's own)", creates=False)
    parser.add_argument("--apply", action="store_true", help="redact what is found, each change recorded")
    parser.set_defaults(handler=_rescan)


def _rescan(args: argparse.Namespace) -> int:
    from sandbox.rescan import rescan  # noqa: PLC0415 - lazy: start-up
    from sandbox.storage.url import open_stores, shown_url  # noqa: PLC0415 - lazy: start-up

    policy = policy_from(args)
    url = checked_store(args)
    with open_stores(url) as stores:
        sandbox = open_sandbox(policy, stores, args.scope)
        try:
            report = rescan(sandbox, apply=args.apply)
        finally:
            sandbox.close()
    print(f"Rescanned {shown_url(url)} (policy {policy.id} r{policy.revision})")
    for found in report.found:
        rules = ", ".join(f"{rule} x{count}" for rule, count in found.rules.items())
        state = "redacted" if found.redacted else ("NOT redacted" if args.apply else "found")
        print(f"{state}: {printable(found.path)}: {rules}")
    for found in report.planted:
        rules = ", ".join(f"{rule} x{count}" for rule, count in found.rules.items())
        print(f"planted text: {printable(found.path)}: {rules}")
    for path in report.skipped:
        print(f"skipped (not UTF-8 text): {printable(path)}")
    secrets = sum(sum(found.rules.values()) for found in report.found)
    print(f"{report.examined} files examined, {len(report.found)} holding {secrets} secrets", end="")
    print(f", {len(report.found) - len(report.failed)} redacted" if args.apply else " (--apply redacts them)")
    if report.planted:
        print(
            f"{len(report.planted)} holding text planted for the agent: left as they are; see who wrote it with "
            "`memory-sandbox history PATH` and undo a session with `memory-sandbox rollback --session S`"
        )
    if report.failed or report.planted:
        return 1
    return 0 if args.apply or not report.found else 1
