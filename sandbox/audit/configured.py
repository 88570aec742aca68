"""The audit log a policy's ``[audit]`` section asks for, for the store a sandbox runs on."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, cast

from sandbox.audit.chain import ChainedAuditSink
from sandbox.audit.file_log import AuditLog
from sandbox.audit.keys import load_signer
from sandbox.audit.records import AuditError
from sandbox.policy import AuditSection

if TYPE_CHECKING:
    from sandbox.storage.postgres import PostgresDatabase

__all__ = ["open_configured"]


def open_configured(section: AuditSection, storage: object) -> ChainedAuditSink | None:
    """The log a policy's ``[audit]`` section asks for; None for "none", or "beside-store" without a place.

    "beside-store" is a file beside a folder or database file, and the database's own audit
    chain for a PostgreSQL store (one chain for every worker, so it needs one ``key_file``).
    """
    if section.sink == "none":
        return None
    if section.sink == "beside-store":
        database = _postgres_database(storage)
        if database is not None:
            from sandbox.audit.postgres import PostgresAuditLog  # noqa: PLC0415 - psycopg only for PostgreSQL

            if not section.key_file:
                raise AuditError(
                    "Error: An audit log in PostgreSQL needs [audit] key_file (one signing key for every worker)."
                )
            return PostgresAuditLog(database, load_signer(Path(section.key_file)), settings=section)
        place = getattr(storage, "audit_path", None)  # a folder store says where (never inside memory)
        if place is None:
            root = getattr(storage, "root_path", None)  # a database file: beside it
            if root is None:
                return None
            place = f"{root}.audit.jsonl"
        path = Path(place)
    else:
        path = Path(section.sink)
    key_file = Path(section.key_file) if section.key_file else Path(f"{path}.key")
    return AuditLog(
        path.absolute(), load_signer(key_file), witness=Path(f"{path}.witness"), settings=section, key_file=key_file
    )


def _postgres_database(storage: object) -> PostgresDatabase | None:
    """The database of a PostgreSQL store (whose module is loaded if ``storage`` is one), else None."""
    module = sys.modules.get("sandbox.storage.postgres")
    if module is None or not isinstance(storage, module.PostgresStorage):
        return None
    return cast("PostgresDatabase", storage.database)
