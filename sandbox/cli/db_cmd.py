"""``memory-sandbox db migrate``: make or upgrade the schema of a PostgreSQL store;
``memory-sandbox db witness-setup``: make the table of an insert-only audit witness."""

from __future__ import annotations

import argparse

from sandbox.cli.progress import progress_bar

__all__ = ["add_db_commands"]


def add_db_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    db = commands.add_parser("db", help="manage the schema of a PostgreSQL store")
    sub = db.add_subparsers(dest="db_command", metavar="ACTION", required=True)
    migrate = sub.add_parser("migrate", help="apply the schema migrations not yet applied (safe to run again)")
    migrate.add_argument("--dsn", required=True, help="the database, as a libpq URL or key=value string")
    migrate.add_argument(
        "--row-security",
        choices=("on", "off"),
        default=None,
        help="enable (and force) or disable the scope row-security policies on the storage tables",
    )
    migrate.set_defaults(handler=_migrate)
    witness = sub.add_parser(
        "witness-setup",
        help="make memory_witness, which the writer role may only insert into (an off-host audit witness)",
    )
    witness.add_argument("--dsn", required=True, help="the witness database, as its owner (not the writer)")
    witness.add_argument("--writer", required=True, help="the role audit logs connect as: INSERT only")
    witness.add_argument("--reader", default=None, help="a role for `audit verify --witness`: SELECT only")
    witness.set_defaults(handler=_witness_setup)


def _migrate(args: argparse.Namespace) -> int:
    from sandbox.storage.postgres import PostgresDatabase, describe_dsn  # noqa: PLC0415 - psycopg only when asked for

    with PostgresDatabase(args.dsn, max_size=1, migrate=False) as database:
        applied = database.migrate(
            row_security=None if args.row_security is None else args.row_security == "on",
            progress=progress_bar("migrating"),
        )
    target = describe_dsn(args.dsn)
    print(f"applied {', '.join(applied)} to {target}" if applied else f"schema of {target} is up to date")
    if args.row_security is not None:
        print(f"row security {args.row_security} for memory_entries, memory_usage")
    return 0


def _witness_setup(args: argparse.Namespace) -> int:
    from sandbox.audit.witness import setup_database_witness  # noqa: PLC0415 - psycopg only when asked for
    from sandbox.storage.postgres import describe_dsn  # noqa: PLC0415 - psycopg only when asked for

    setup_database_witness(args.dsn, args.writer, args.reader)
    reader = f", {args.reader} may read it" if args.reader else ""
    print(f"memory_witness ready in {describe_dsn(args.dsn)}: {args.writer} may only insert{reader}")
    return 0
