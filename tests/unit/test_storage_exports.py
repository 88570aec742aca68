"""Every store is importable from ``sandbox.storage``; PostgreSQL's needs psycopg only when asked for."""

from __future__ import annotations

import subprocess
import sys

import sandbox.storage
from sandbox.storage import PostgresDatabase, PostgresStorage, SQLiteDatabase, SQLiteStorage
from sandbox.storage.postgres import PostgresStorage as PostgresHome
from sandbox.storage.sqlite import SQLiteStorage as SQLiteHome

# Runs in a fresh interpreter in which psycopg cannot be imported.
WITHOUT_PSYCOPG = """
import sys
sys.modules["psycopg"] = None  # an import of it raises ModuleNotFoundError, as when it is not installed
from sandbox.storage import LocalStorage, SQLiteStorage
try:
    from sandbox.storage import PostgresStorage
except ImportError as exc:
    print(type(exc).__name__, exc)
"""


def test_every_store_is_exported() -> None:
    """The names are the adapters' own classes, and listed in __all__."""
    assert SQLiteStorage is SQLiteHome and PostgresStorage is PostgresHome
    assert SQLiteDatabase.__name__ == "SQLiteDatabase" and PostgresDatabase.__name__ == "PostgresDatabase"
    assert {"SQLiteStorage", "PostgresStorage"} <= set(sandbox.storage.__all__) <= set(dir(sandbox.storage))


def test_missing_psycopg_names_the_extra() -> None:
    """Without psycopg the other stores import, and PostgresStorage says which extra to install."""
    done = subprocess.run(  # noqa: S603 - fixed argv
        [sys.executable, "-c", WITHOUT_PSYCOPG], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.startswith("ModuleNotFoundError PostgresStorage needs psycopg")
    assert "pip install 'memory-sandbox[postgres]'" in done.stdout
