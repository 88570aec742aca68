"""Text helpers shared by every backend: line splitting, numbering, sizes, truncation."""

from __future__ import annotations

import re
from typing import Final

__all__ = [
    "MAX_LINES",
    "count_lines",
    "human_size",
    "numbered",
    "quote_for_error",
    "split_lines",
    "truncate_view",
    "view_window",
]

#: Files with more lines are refused by ``view``, as the tool documentation says.
MAX_LINES: Final = 999_999
_NUMBER_WIDTH: Final = len(str(MAX_LINES))
_QUOTE_LIMIT: Final = 200
_LINE_NUMBER = re.compile(r" *(\d+)\t")
_HINT_ROOM: Final = 200


def split_lines(text: str) -> list[str]:
    """Lines split on LF (a CR stays in its line); a final newline adds no empty line."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def count_lines(text: str) -> int:
    """How many lines :func:`split_lines` would give, without building them."""
    return text.count("\n") + (1 if text and not text.endswith("\n") else 0)


def view_window(text: str, first: int, end: int, max_chars: int) -> list[str] | None:
    """Lines ``first``..``end`` (1-based; ``end`` -1 means to the last line) as far as
    ``max_chars`` characters of them reach, or None when ``first`` is past the last line.

    Shown text cannot exceed ``max_chars``, so only that much of the file after
    line ``first`` is split: a view costs the same on a 1 KB and a 1 MB file.
    """
    rest = text
    if first > 1:
        parts = text.split("\n", first - 1)
        if len(parts) < first or parts[-1] == "":
            return None
        rest = parts[-1]
    window = rest[: max_chars + 1]
    lines = window.split("\n")
    if len(window) == len(rest) and lines[-1] == "":
        lines.pop()  # the file's final newline ends the last line; it does not start another
    return lines if end == -1 else lines[: end - first + 1]


def numbered(lines: list[str], first: int) -> str:
    """Lines prefixed with 6-wide right-aligned numbers and a tab, counting from ``first``."""
    return "\n".join([str(number).rjust(_NUMBER_WIDTH) + "\t" + line for number, line in enumerate(lines, first)])


def human_size(size: int) -> str:
    """A size as ``du -h`` shows it: ``512B``, ``4.0K``, ``12K``, ``1.2M``."""
    if size < 1024:
        return f"{size}B"
    value = float(size)
    for unit in "KMGT":
        value /= 1024
        if value < 1024 or unit == "T":
            return f"{value:.1f}{unit}" if value < 10 else f"{value:.0f}{unit}"
    raise AssertionError("unreachable")  # pragma: no cover


def quote_for_error(text: str) -> str:
    """Echo model text in an error, cut to a sane length."""
    return text if len(text) <= _QUOTE_LIMIT else text[:_QUOTE_LIMIT] + "..."


def truncate_view(text: str, max_chars: int) -> str:
    """Cut view output at ``max_chars``, on a line boundary when one is near, with a hint to read on."""
    if len(text) <= max_chars:
        return text
    limit = max_chars - _HINT_ROOM
    cut = text.rfind("\n", 0, limit)
    line_is_cut = cut < limit // 2
    kept = text[:limit] if line_is_cut else text[:cut]
    number = _LINE_NUMBER.match(kept, kept.rfind("\n") + 1)
    if number is None:
        where = " Use view_range to read less at once."
    else:
        where = f" For more, view with view_range [{int(number.group(1)) + (0 if line_is_cut else 1)}, -1]."
    return f"{kept}\n[Output truncated at {max_chars:,} characters.{where}]"
