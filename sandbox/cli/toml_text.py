"""A small TOML writer for ``policy show``: plain tables, arrays of tables, scalars and lists."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

__all__ = ["dumps"]


def dumps(data: Mapping[str, Any]) -> str:
    """TOML text for nested mappings of strings, numbers, booleans and lists (None values are left out)."""
    lines: list[str] = []
    _table(lines, (), data)
    return "\n".join(lines).strip() + "\n"


def _table(lines: list[str], prefix: tuple[str, ...], data: Mapping[str, Any]) -> None:
    tables: list[tuple[str, Any]] = []
    for key, value in data.items():
        if value is None:
            continue
        if isinstance(value, Mapping) and value and not (prefix and _inline(value)):
            tables.append((key, value))
        elif isinstance(value, list | tuple) and value and all(isinstance(v, Mapping) for v in value):
            tables.append((key, list(value)))
        else:
            lines.append(f"{_key(key)} = {_value(value)}")
    for key, value in tables:
        name = ".".join(_key(part) for part in (*prefix, key))
        if isinstance(value, list):
            for item in value:
                lines += ["", f"[[{name}]]"]
                _table(lines, (*prefix, key), item)
        else:
            lines += ["", f"[{name}]"]
            _table(lines, (*prefix, key), value)


def _inline(value: Mapping[str, Any]) -> bool:
    """Inside a table, small mappings of scalars (per-rule actions, say) read best inline."""
    return all(isinstance(v, str | int | float | bool) for v in value.values()) and len(value) <= 4


def _key(key: str) -> str:
    return key if key.replace("_", "").replace("-", "").isalnum() else json.dumps(key)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items() if v is not None) + " }"
    return "[" + ", ".join(_value(v) for v in value) + "]"
