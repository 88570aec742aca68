"""``memory-sandbox db migrate``: make or upgrade the schema of a PostgreSQL store."""

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
