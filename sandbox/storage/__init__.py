"""Storage adapters: where memory lives. All accept canonical ``MemoryPath`` keys only.

``LocalStorage`` and ``InMemoryStorage`` need nothing beyond the package; ``SQLiteStorage``
(and ``SQLiteDatabase``) load on first use; ``PostgresStorage`` (and ``PostgresDatabase``)
need psycopg, from the ``postgres`` extra, which is imported only when they are asked for.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from sandbox.storage.base import Entry, StorageAdapter, Usage
from sandbox.storage.local import LocalStorage
from sandbox.storage.memory import InMemoryStorage

if TYPE_CHECKING:
    from sandbox.storage.postgres import PostgresDatabase, PostgresStorage
    from sandbox.storage.sqlite import SQLiteDatabase, SQLiteStorage

__all__ = [
    "Entry",
    "InMemoryStorage",
    "LocalStorage",
    "PostgresDatabase",
    "PostgresStorage",
    "SQLiteDatabase",
    "SQLiteStorage",
    "StorageAdapter",
    "Usage",
]

_LAZY = {
    "PostgresDatabase": "sandbox.storage.postgres",
    "PostgresStorage": "sandbox.storage.postgres",
    "SQLiteDatabase": "sandbox.storage.sqlite",
    "SQLiteStorage": "sandbox.storage.sqlite",
}
_POSTGRES_PACKAGES = ("psycopg", "psycopg_pool")


def __getattr__(name: str) -> Any:
    home = _LAZY.get(name)
    if home is None:
        raise AttributeError(f"module 'sandbox.storage' has no attribute {name!r}")
    try:
        module = importlib.import_module(home)
    except ModuleNotFoundError as exc:
        if (exc.name or "").partition(".")[0] not in _POSTGRES_PACKAGES:
            raise
        raise ModuleNotFoundError(
            f"{name} needs psycopg, which is not installed: pip install 'memory-sandbox[postgres]'", name=exc.name
        ) from None
    value = getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
