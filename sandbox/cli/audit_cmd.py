"""``memory-sandbox audit verify|query|export|report``: the compliance review."""

from __future__ import annotations

import argparse
import datetime
import sys
from pathlib import Path

from sandbox.audit_review import Filters, export_bundle, render_html, render_text, select, summarize, write_rows
from sandbox.audit_verify import VerifyReport, read_records, verify

__all__ = ["add_audit_commands"]

_PROGRESS_FROM = 8 * 1024 * 1024  # show a progress bar for logs at least this large


def add_audit_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    audit = commands.add_parser("audit", help="verify, query, export and report on audit logs")
    sub = audit.add_subparsers(dest="audit_command", metavar="ACTION", required=True)
    check = sub.add_parser("verify", help="check the chain, the signed checkpoints and the witness")
    _add_log(check)
    check.set_defaults(handler=_verify)
    query = sub.add_parser("query", help="records matching filters (the chain is verified first)")
    _add_log(query)
    _add_filters(query)
    query.add_argument("--format", choices=("table", "jsonl", "csv"), default="table")
    query.set_defaults(handler=_query)
    export = sub.add_parser("export", help="export records, or a bundle for an auditor")
    _add_log(export)
    _add_filters(export)
    export.add_argument("--format", choices=("csv", "jsonl", "bundle"), required=True)
    export.add_argument("--out", type=Path, default=None, help="output file or bundle folder (default: stdout)")
    export.set_defaults(handler=_export)
    report = sub.add_parser("report", help="counts, top denials, redactions, anomalies; --html for a page")
    _add_log(report)
    _add_filters(report)
    report.add_argument("--html", type=Path, default=None, help="write a self-contained HTML page here")
    report.set_defaults(handler=_report)


def _add_log(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("log", type=Path, help="the audit log (audit.jsonl); rotated files beside it are read too")
    parser.add_argument("--witness", type=Path, default=None, help="witness file (default: LOG.witness)")
    parser.add_argument("--key", type=Path, default=None, help="public (or HMAC) key (default: LOG.pub)")


def _add_filters(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--since", type=_when, default=None, help="ISO 8601 time")
    parser.add_argument("--until", type=_when, default=None, help="ISO 8601 time")
    for name in ("scope", "principal", "command", "rule"):
        parser.add_argument(f"--{name}", default=None)
    parser.add_argument("--decision", choices=("allow", "deny", "redact"), default=None)
    parser.add_argument("--path", default=None, help="path glob, e.g. '/memories/projects/**'")


def _when(text: str) -> datetime.datetime:
    moment = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    return moment if moment.tzinfo else moment.replace(tzinfo=datetime.UTC)


def _filters(args: argparse.Namespace) -> Filters:
    return Filters(
        since=args.since, until=args.until, scope=args.scope, principal=args.principal,
        command=args.command, decision=args.decision, rule=args.rule, path=args.path,
    )  # fmt: skip


def _checked(args: argparse.Namespace) -> VerifyReport:
    show = sys.stderr.isatty() and args.log.exists() and args.log.stat().st_size >= _PROGRESS_FROM

    def progress(done: int, total: int) -> None:
        if show:
            filled = round(30 * done / max(total, 1))
            print(f"\rverifying [{'#' * filled}{'.' * (30 - filled)}] {done * 100 // max(total, 1)}%",
                  end="", file=sys.stderr)  # fmt: skip

    report = verify(args.log, witness=args.witness, key_file=args.key, progress=progress)
    if show:
        print(file=sys.stderr)
    return report


def _verify(args: argparse.Namespace) -> int:
    report = _checked(args)
    print(report.summary())
    for warning in report.warnings:
        print(f"warning: {warning}")
    return 0 if report.ok else 1


def _query(args: argparse.Namespace) -> int:
    report = _checked(args)
    print(f"chain {'verified' if report.ok else 'NOT verified'}: {report.summary()}", file=sys.stderr)
    count = write_rows(select(read_records(args.log), _filters(args)), args.format, sys.stdout)
    print(f"{count} records", file=sys.stderr)
    return 0 if report.ok else 1


def _export(args: argparse.Namespace) -> int:
    report = _checked(args)
    if args.format == "bundle":
        if args.out is None:
            print("memory-sandbox: a bundle needs --out FOLDER", file=sys.stderr)
            return 2
        records = sum(1 for _ in select(read_records(args.log), _filters(args)))
        export_bundle(args.log, args.out, report, records)
        print(f"bundle written to {args.out} ({report.summary()})")
        return 0 if report.ok else 1
    rows = select(read_records(args.log), _filters(args))
    if args.out is None:
        write_rows(rows, args.format, sys.stdout)
    else:
        with args.out.open("w", encoding="utf-8", newline="") as out:
            write_rows(rows, args.format, out)
    return 0 if report.ok else 1


def _report(args: argparse.Namespace) -> int:
    report = _checked(args)
    summary = summarize(select(read_records(args.log), _filters(args)))
    print(render_text(summary, report), end="")
    if args.html is not None:
        args.html.write_text(render_html(summary, report), encoding="utf-8")
        print(f"HTML report written to {args.html}")
    return 0 if report.ok else 1
