"""``memory-sandbox audit verify|query|export|report``: the compliance review."""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sandbox.cli.common import iso_time
from sandbox.cli.exits import UsageError
from sandbox.cli.progress import progress_bar

if TYPE_CHECKING:
    from sandbox.audit.review import Filters, Selection
    from sandbox.audit.verify import VerifyReport
    from sandbox.storage.postgres import PostgresDatabase

__all__ = ["add_audit_commands"]

_PROGRESS_FROM = 8 * 1024 * 1024  # show a progress bar for logs at least this large


def add_audit_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    audit = commands.add_parser("audit", help="verify, query, export and report on audit logs")
    sub = audit.add_subparsers(dest="audit_command", metavar="ACTION", required=True)
    check = sub.add_parser("verify", help="check the chain, the signed checkpoints and the witness")
    _add_log(check)
    check.set_defaults(handler=_sourced(_verify))
    query = sub.add_parser("query", help="records matching filters (the chain is verified first)")
    _add_log(query)
    _add_filters(query)
    query.add_argument("--format", choices=("table", "jsonl", "csv", "ocsf"), default="table")
    query.set_defaults(handler=_sourced(_query))
    export = sub.add_parser("export", help="export records, or a bundle for an auditor")
    _add_log(export)
    _add_filters(export)
    export.add_argument(
        "--format",
        choices=("csv", "jsonl", "ocsf", "bundle"),
        required=True,
        help="ocsf: OCSF 1.6.0 File System Activity events (class 1001), one JSON object per line",
    )
    export.add_argument("--out", type=Path, default=None, help="output file or bundle folder (default: stdout)")
    export.set_defaults(handler=_sourced(_export))
    report = sub.add_parser("report", help="counts, top denials, redactions, anomalies; --html for a page")
    _add_log(report)
    _add_filters(report)
    report.add_argument("--html", type=Path, default=None, help="write a self-contained HTML page here")
    report.set_defaults(handler=_sourced(_report))
    rotate = sub.add_parser(
        "rotate-key", help="sign a log with a new key from now on (announced in the chain, signed by the old one)"
    )
    rotate.add_argument("log", type=Path, help="the audit log (audit.jsonl)")
    rotate.add_argument("--key", type=Path, default=None, help="the log's private key file (default: LOG.key)")
    rotate.set_defaults(handler=_rotate)


def _witness_place(text: str) -> Path | str:
    """A witness on the command line: a file, or a PostgreSQL DSN kept as given."""
    return text if text.startswith(("postgresql://", "postgres://")) else Path(text)


def _add_log(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "log", type=Path, nargs="?", help="the audit log (audit.jsonl); rotated files beside it are read too"
    )
    parser.add_argument("--dsn", default=None, help="read the audit chain from this PostgreSQL database instead")
    parser.add_argument("--log-name", default="audit", help="the chain's name in the database (default: audit)")
    parser.add_argument(
        "--witness",
        type=_witness_place,
        action="append",
        default=None,
        help="a witness file, or a witness database's postgresql:// DSN (a reader role), to check the log "
        "against; repeat for several (default: LOG.witness)",
    )
    parser.add_argument(
        "--key", type=Path, default=None, help="public (or HMAC) key (default: LOG.pub; required with --dsn)"
    )


class _Source:
    """Where the records come from: a log file (and its rotated files), or a database's chain."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.database: PostgresDatabase | None = None
        if (args.log is None) == (args.dsn is None):
            raise UsageError("give either an audit log file or --dsn")
        if args.log is not None and args.log.is_dir():
            raise UsageError(f"{args.log} is a folder; give the audit log file (audit.jsonl)")
        if args.dsn is not None:
            if args.key is None:
                raise UsageError("--dsn needs --key (the public key, or the HMAC key, that signed the checkpoints)")
            from sandbox.storage.postgres import PostgresDatabase  # noqa: PLC0415 - psycopg only when asked for

            self.database = PostgresDatabase(args.dsn, max_size=2, migrate=False)

    def close(self) -> None:
        if self.database is not None:
            self.database.close()

    def records(self) -> Iterator[dict[str, Any]]:
        if self.database is not None:
            from sandbox.audit.postgres import read_postgres_records  # noqa: PLC0415 - psycopg only when asked for

            return read_postgres_records(self.database, self.args.log_name)
        from sandbox.audit.verify import read_records  # noqa: PLC0415 - lazy: start-up

        return read_records(self.args.log)

    def verify(self) -> VerifyReport:
        if self.database is not None:
            from sandbox.audit.postgres import verify_postgres  # noqa: PLC0415 - psycopg only when asked for

            return verify_postgres(self.database, key_file=self.args.key, log=self.args.log_name)
        return _checked_file(self.args)

    def dump(self, folder: Path) -> Path:
        """The chain as a log file (and witness, and key) in ``folder``, for a bundle."""
        if self.database is None:
            return Path(self.args.log)
        from sandbox.audit.keys import public_key  # noqa: PLC0415 - lazy: start-up
        from sandbox.audit.postgres import dump_postgres  # noqa: PLC0415 - psycopg only when asked for

        key = public_key(self.args.key)  # a private key given as --key is refused, never copied
        log = dump_postgres(self.database, folder / "audit.jsonl", log=self.args.log_name)
        Path(f"{log}.pub").write_bytes(key)
        return log


def _sourced(run: Callable[[argparse.Namespace, _Source], int]) -> Callable[[argparse.Namespace], int]:
    def handler(args: argparse.Namespace) -> int:
        source = _Source(args)
        try:
            return run(args, source)
        finally:
            source.close()

    return handler


def _add_filters(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--since", type=iso_time, default=None, help="ISO 8601 time")
    parser.add_argument("--until", type=iso_time, default=None, help="ISO 8601 time")
    for name in ("scope", "principal", "command", "rule"):
        parser.add_argument(f"--{name}", default=None)
    parser.add_argument("--decision", choices=("allow", "deny", "redact"), default=None)
    parser.add_argument("--path", default=None, help="path glob, e.g. '/memories/projects/**'")


def _filters(args: argparse.Namespace) -> Filters:
    from sandbox.audit.review import Filters  # noqa: PLC0415 - lazy: start-up

    return Filters(
        since=args.since, until=args.until, scope=args.scope, principal=args.principal,
        command=args.command, decision=args.decision, rule=args.rule, path=args.path,
    )  # fmt: skip


def _checked_file(args: argparse.Namespace) -> VerifyReport:
    from sandbox.audit.verify import verify  # noqa: PLC0415 - lazy: start-up

    big = args.log.exists() and args.log.stat().st_size >= _PROGRESS_FROM
    bar = progress_bar("verifying") if big else None
    try:
        return verify(args.log, witness=args.witness, key_file=args.key, progress=bar)
    finally:
        if bar is not None:
            bar.close()


def _rotate(args: argparse.Namespace) -> int:
    from sandbox.audit import AuditLog  # noqa: PLC0415 - lazy: start-up

    if not args.log.is_file():
        raise UsageError(f"no audit log at {args.log}")
    key = args.key or Path(f"{args.log}.key")
    if not key.is_file():
        raise UsageError(f"no private key at {key}: give the log's key with --key")
    log = AuditLog.open(args.log, key_file=key)
    try:
        old = log.verify()
        if not old.ok:
            print(old.summary())
            return 1
        new_id = log.rotate_key_file()
    finally:
        log.close()
    current = old.rotations[-1] if old.rotations else old.key_id
    print(f"key rotated: {current} -> {new_id}; the old private key is gone")
    print(f"reviewers keep verifying with the first public key ({args.log.name}.pub); the chain announces the rest")
    return 0


def _verify(args: argparse.Namespace, source: _Source) -> int:
    report = source.verify()
    print(report.summary())
    for warning in report.warnings:
        print(f"warning: {warning}")
    return 0 if report.ok else 1


def _query(args: argparse.Namespace, source: _Source) -> int:
    from sandbox.audit.review import write_rows  # noqa: PLC0415 - lazy: start-up

    report = source.verify()
    print(f"chain {'verified' if report.ok else 'NOT verified'}: {report.summary()}", file=sys.stderr)
    selection = _selection(args)
    count = write_rows(selection.of(source.records()), args.format, sys.stdout)
    print(f"{count} records", file=sys.stderr)
    _tell_unreadable(selection)
    return 0 if report.ok else 1


def _selection(args: argparse.Namespace) -> Selection:
    from sandbox.audit.review import Selection  # noqa: PLC0415 - lazy: start-up

    return Selection(_filters(args))


def _tell_unreadable(selection: Selection) -> None:
    if selection.unreadable:
        print(f"warning: {selection.unreadable} records the filters could not read were left out", file=sys.stderr)


def _export(args: argparse.Namespace, source: _Source) -> int:
    from sandbox.audit.review import export_bundle, summarize, write_rows  # noqa: PLC0415 - lazy: start-up

    report = source.verify()
    if args.format == "bundle":
        if args.out is None:
            raise UsageError("a bundle needs --out FOLDER")
        if args.out.exists():
            raise UsageError(f"{args.out} already exists; a bundle is written to a new folder")
        selection = _selection(args)
        summary = summarize(selection.of(source.records()))
        _tell_unreadable(selection)
        with tempfile.TemporaryDirectory(prefix="memory-sandbox-bundle-") as staging:
            export_bundle(source.dump(Path(staging)), args.out, report, summary)
        print(f"bundle written to {args.out} ({report.summary()})")
        return 0 if report.ok else 1
    selection = _selection(args)
    rows = selection.of(source.records())
    if args.out is None:
        write_rows(rows, args.format, sys.stdout)
    else:
        with args.out.open("w", encoding="utf-8", newline="") as out:
            write_rows(rows, args.format, out)
    _tell_unreadable(selection)
    return 0 if report.ok else 1


def _report(args: argparse.Namespace, source: _Source) -> int:
    from sandbox.audit.review import render_html, render_text, summarize  # noqa: PLC0415 - lazy: start-up

    report = source.verify()
    selection = _selection(args)
    summary = summarize(selection.of(source.records()), decisions=args.html is not None)
    print(render_text(summary, report), end="")
    _tell_unreadable(selection)
    if args.html is not None:
        args.html.write_text(render_html(summary, report), encoding="utf-8")
        print(f"HTML report written to {args.html}")
    return 0 if report.ok else 1
