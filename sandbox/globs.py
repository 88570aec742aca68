"""Path globs for policies: ``/memories/credentials/**``, ``**/*.exe``.

``*`` matches within one name, ``?`` one character of a name, and ``**`` as a
whole segment any number of names (none included), so ``/memories/a/**`` covers
the folder ``a`` itself and everything below it. A glob that does not start with
``/`` is relative to ``/memories``. Globs compile to RE2 patterns and match
canonical paths only.
"""

from __future__ import annotations

import re
from typing import Any

import re2

from sandbox.paths import MemoryPath

__all__ = ["Glob"]


class Glob:
    """A compiled path glob."""

    __slots__ = ("_regex", "text")

    def __init__(self, text: str) -> None:
        if not text or "\\" in text or "\x00" in text:
            raise ValueError("a glob is a non-empty /memories path pattern")
        absolute = text if text.startswith("/") else "/memories/" + text
        segments = absolute.split("/")
        if segments[1] != "memories" or any(s in (".", "..") for s in segments):
            raise ValueError("a glob must stay inside /memories")
        regex = "/memories"
        for segment in segments[2:]:
            regex += "(?:/[^/]+)*" if segment == "**" else "/" + _translate(segment)
        self.text = text
        self._regex: Any = re2.compile(regex)

    def __repr__(self) -> str:
        return f"Glob({self.text!r})"

    def matches(self, path: MemoryPath | str) -> bool:
        return self._regex.fullmatch(str(path)) is not None


def _translate(segment: str) -> str:
    if not segment:
        raise ValueError("a glob has no empty segments")
    return "".join("[^/]*" if c == "*" else "[^/]" if c == "?" else re.escape(c) for c in segment)
