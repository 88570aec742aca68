"""Text from the model (or the app) made safe to show a person: on a terminal, in a table, in a spreadsheet.

A path, an ``old_str``, a scope or a principal may hold escape sequences that move the cursor
or erase a line (a DENY row rewritten as an allow), bidi overrides that reorder what is read,
invisible characters, or a formula a spreadsheet would run. :func:`printable` shows each such
character escaped (``\\x1b``, ``\\u202e``) and a backslash doubled, so an escape shown is never
ambiguous with text that spelt one; :func:`spreadsheet_cell` also defuses a cell that a
spreadsheet would read as a formula, as OWASP's advice on CSV injection says.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Final

__all__ = ["json_line", "printable", "shortened", "spreadsheet_cell"]

#: Controls (C0, DEL, C1), format characters (bidi controls, zero-width characters), lone
#: surrogates, line and paragraph separators: shown escaped.
_HIDDEN_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
#: A quick test for text that needs no escaping (most of it): printable ASCII but the backslash.
_PLAIN: Final = re.compile(r"[ -\[\]-~]*")
#: What starts a formula in Excel, LibreOffice and Google Sheets.
_FORMULA_START: Final = ("=", "+", "-", "@", "\t", "\r")


def _escaped(char: str, keep_newlines: bool) -> str:
    if char == "\n" and keep_newlines:
        return char
    if char == "\\":
        return "\\\\"
    if unicodedata.category(char) not in _HIDDEN_CATEGORIES:
        return char
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` with every control, format, surrogate and separator character shown escaped, and each
    backslash doubled (a path spelling ``\\x1b`` shows as ``\\\\x1b``, never as an escape)."""
    if _PLAIN.fullmatch(text):
        return text
    return "".join(_escaped(char, keep_newlines) for char in text)


def shortened(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[: max(limit - 3, 0)] + "..."


def spreadsheet_cell(text: str) -> str:
    """A printable cell that a spreadsheet shows as text, never runs: a leading ``'`` before a formula start."""
    if text.startswith(_FORMULA_START):
        text = "'" + text
    return printable(text)


def json_line(value: object) -> str:
    """``value`` as one line of JSON in which every character :func:`printable` would escape is a JSON
    escape (JSON itself escapes only C0 controls, so C1 controls and bidi overrides would reach a terminal)."""
    text = json.dumps(value, ensure_ascii=False)
    if _PLAIN.fullmatch(text):
        return text
    return "".join(
        json.dumps(char)[1:-1] if unicodedata.category(char) in _HIDDEN_CATEGORIES else char for char in text
    )
