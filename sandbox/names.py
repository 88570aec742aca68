"""Keys under which two names collide: by case, and by look (Unicode TR39 confusables).

Two names in one folder that differ only in case collide on case-insensitive file
systems and in sync tools; two that differ only by look-alike letters (a Cyrillic
``\u043e`` for a Latin ``o``, a Greek ``\u0391`` for an ``A``) fool the reader of a listing.
:func:`case_key` and :func:`lookalike_key` give each name a key; a new name whose
key equals an existing sibling's is a twin.

The look-alike key maps every non-ASCII character that Unicode's confusables data
says looks like an ASCII character to that character (the data is the
``confusable-homoglyphs`` package's copy of ``confusables.txt``, loaded on the
first non-ASCII name). Two names that are both plain ASCII are never look-alike
twins: ``file1.md`` and ``filel.md`` are ordinary names, not an attack.
"""

from __future__ import annotations

import functools
import json
import unicodedata
from importlib import resources

from sandbox.paths import INVISIBLE_MARKS

__all__ = ["case_key", "look_alike", "lookalike_key"]


def case_key(name: str) -> str:
    """The key under which names collide on case-insensitive systems (full-width forms folded too)."""
    return unicodedata.normalize("NFKC", name).casefold()


def lookalike_key(name: str) -> str:
    """The key of how a name looks (TR39's skeleton, case folded): look-alikes of ASCII characters made
    ASCII, marks kept (``café`` and ``cafe`` are told apart by their accent), invisible marks dropped.

    Look-alikes are mapped before normalising and case folding as well as after: both can turn one
    into a letter that looks like another (Greek lunate sigma U+03F2, which looks like ``c``, becomes
    a final sigma under NFKC and folds to a sigma, which looks like ``o``).
    """
    folded = case_key(name)
    if folded.isascii():
        return folded
    table = _ascii_lookalikes()

    def mapped(text: str) -> str:
        return "".join(table.get(char, char) for char in unicodedata.normalize("NFD", text))

    visible = "".join(char for char in name if char not in INVISIBLE_MARKS)
    return mapped(mapped(unicodedata.normalize("NFKC", mapped(visible))).casefold())


def look_alike(one: str, other: str) -> bool:
    """Whether two names look alike though one holds a character the other does not (never two ASCII names)."""
    if one.isascii() and other.isascii():
        return False
    return lookalike_key(one) == lookalike_key(other)


@functools.cache
def _ascii_lookalikes() -> dict[str, str]:
    """Each non-ASCII character that looks like an ASCII letter, digit or sign, to that character."""
    source = resources.files("confusable_homoglyphs") / "confusables.json"
    data: dict[str, list[dict[str, str]]] = json.loads(source.read_text(encoding="utf-8"))
    table: dict[str, str] = {}
    for char, entries in data.items():
        if len(char) != 1 or char.isascii():
            continue
        ascii_forms = sorted(e["c"] for e in entries if len(e["c"]) == 1 and e["c"].isascii() and e["c"].isprintable())
        if ascii_forms:
            table[char] = ascii_forms[0].casefold()
    # The data lists some look-alikes only under the ASCII character they look like.
    for char, entries in sorted(data.items()):
        if len(char) == 1 and char.isascii() and char.isprintable():
            for entry in entries:
                other = entry["c"]
                if len(other) == 1 and not other.isascii():
                    table.setdefault(other, char.casefold())
    return table
