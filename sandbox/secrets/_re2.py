"""Everything that touches the RE2 binding, and its internals, in one place.

Patterns are compiled in Latin-1 mode (text is matched byte by byte, as its
UTF-8 bytes) with errors kept quiet. The engine calls the binding's own match
method (:func:`native`), which returns spans without building match objects:
half the cost of ``search`` per call, which counts when a scan makes thousands
of calls. Should the binding change, this module is the one to follow it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any, Final

import re2

__all__ = [
    "ANCHORED",
    "LOCATOR_MAX_MEM",
    "UNANCHORED",
    "Error",
    "NativeMatch",
    "alternation",
    "check_pattern",
    "class_bytes",
    "compile_bytes",
    "compile_pattern",
    "escape",
    "first_bytes",
    "found_in",
    "keyword_pattern",
    "keyword_set",
    "locator",
    "matches_whole",
    "native",
    "one_byte_class",
    "starts_at_boundary",
]

UNANCHORED: Final = re2._re2.RE2.Anchor.UNANCHORED
ANCHORED: Final = re2._re2.RE2.Anchor.ANCHOR_START
_WHOLE: Final = re2._re2.RE2.Anchor.ANCHOR_BOTH
Error: Final = re2.error
# The DFA cache of a pass over many patterns at once (a group's, or the keywords' with what follows
# them): below ~8 MB it thrashes on typical text, and RE2 falls back to its much slower NFA.
LOCATOR_MAX_MEM: Final = 32 << 20

# (anchor, text, start, end) -> the spans of the match and its groups; (-1, -1) for no match.
NativeMatch = Callable[[Any, bytes, int, int], list[tuple[int, int]]]


def _options(*, capture: bool = True) -> Any:
    """RE2 options for every pattern here: bytes as Latin-1 characters, quiet errors.

    Text is matched byte by byte (its UTF-8 bytes), so case folding is ASCII
    only (in UTF-8 mode ``(?i)s`` would also match U+017F), which is also what
    the hyperscan locator does; patterns are ASCII, so their meaning does not
    depend on the mode otherwise.
    """
    options = re2.Options()
    options.encoding = re2.Options.Encoding.LATIN1
    options.never_capture = not capture
    options.log_errors = False
    return options


def compile_pattern(pattern: str) -> Any:
    """A rule's pattern, with its capture groups (the ``secret`` group marks what to redact)."""
    return re2.compile(pattern.encode("ascii"), _options())


def compile_bytes(pattern: bytes) -> Any:
    """A pattern that only finds places (no capture groups: cheaper)."""
    return re2.compile(pattern, _options(capture=False))


def escape(literal: bytes) -> bytes:
    escaped: bytes = re2.escape(literal)
    return escaped


def native(compiled: Any) -> NativeMatch:
    """The binding's match method of a compiled pattern."""
    match: NativeMatch = compiled._regexp.Match
    return match


def found_in(compiled: Any, data: bytes) -> bool:
    """Whether ``compiled`` matches anywhere in ``data``."""
    return bool(compiled._regexp.Match(UNANCHORED, data, 0, len(data))[0][0] >= 0)


def matches_whole(compiled: Any, data: bytes) -> bool:
    """Whether ``compiled`` matches all of ``data`` (never a part of it)."""
    return bool(compiled._regexp.Match(_WHOLE, data, 0, len(data))[0][0] >= 0)


def check_pattern(pattern: str) -> str:
    if not pattern.isascii():
        raise ValueError("patterns are ASCII (they match UTF-8 text byte by byte); write other bytes as \\xHH")
    try:
        compile_pattern(pattern)
    except re2.error:
        raise ValueError(
            "not a valid RE2 pattern (no backreferences or look-around; repeats of at most 1000)"
        ) from None
    return pattern


# A bracketed class of printable ASCII, not negated, escapes only of punctuation or \w \d \s
# \t \n \r: it can only match single ASCII bytes, so a run of them is found byte by byte.
_ASCII_CLASS: Final = re.compile(
    r"\[(?!\^)(?:[\x20-\x5a\x5e-\x7e]|\\[\x20-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]|\\[wdstnr])+\]"
)


def class_bytes(pattern: str) -> bytes:
    """The bytes a one-character RE2 pattern (a class such as ``[a-z_]``) matches alone."""
    compiled = compile_pattern(pattern)
    return bytes(byte for byte in range(256) if compiled.fullmatch(bytes((byte,))) is not None)


def one_byte_class(pattern: str) -> str:
    if not _ASCII_CLASS.fullmatch(pattern) or not class_bytes(pattern):
        raise ValueError("before_keyword is a class of ASCII characters, such as [A-Za-z0-9_.]")
    return pattern


def keyword_pattern(keyword: bytes) -> bytes:
    """A keyword as a pattern: a lower-case one matches any case, one with a capital exactly."""
    literal = escape(keyword)
    return literal if keyword != keyword.lower() else b"(?i:" + literal + b")"


def alternation(patterns: tuple[str, ...]) -> Any:
    """One RE2 pattern matching where any of ``patterns`` would (each keeps its own flags)."""
    return compile_pattern("|".join(f"(?:{pattern})" for pattern in patterns)) if patterns else None


def first_bytes(compiled: Any) -> frozenset[int]:
    """Every byte a match of ``compiled`` can start with (a superset, from RE2's possible match range)."""
    ok, low, high = compiled._regexp.PossibleMatchRange(8)
    if not ok or not low or not high:
        return frozenset(range(256))
    return frozenset(range(low[0], high[0] + 1))


# Flags such as (?i), then \b.
_FLAGS_THEN_BOUNDARY: Final = re.compile(rb"(?:\(\?[a-zA-Z]+\))?\\b")


def starts_at_boundary(pattern: bytes) -> bool:
    """Whether every match of ``pattern`` starts at a word boundary.

    That is: it opens with ``\b`` (after its flags) and has no ``|`` outside groups.
    """
    opening = _FLAGS_THEN_BOUNDARY.match(pattern)
    if opening is None:
        return False
    depth, position, size = 0, opening.end(), len(pattern)
    while position < size:
        byte = pattern[position : position + 1]
        if byte == b"\\":
            position += 2
            continue
        if byte == b"[":  # a class: its brackets and bars are characters ("[]..." and "[^]..." open with one)
            position += 2 if pattern[position + 1 : position + 2] == b"^" else 1
            if pattern[position : position + 1] == b"]":
                position += 1
            while position < size and pattern[position : position + 1] != b"]":
                position += 2 if pattern[position : position + 1] == b"\\" else 1
        elif byte == b"(":
            depth += 1
        elif byte == b")":
            depth -= 1
        elif byte == b"|" and depth == 0:
            return False
        position += 1
    return True


def locator(patterns: Iterable[bytes], max_mem: int) -> Any:
    """One pass finding where any of ``patterns`` starts a match (no captures, a larger DFA cache)."""
    options = _options(capture=False)
    options.max_mem = max_mem
    return re2.compile(b"|".join(b"(?:" + pattern + b")" for pattern in patterns), options)


def keyword_set(patterns: Iterable[bytes]) -> Any:
    """A ``re2.Set`` of patterns, compiled when it has any: ``Match(data)`` lists the indexes found."""
    found = re2.Set.SearchSet(_options(capture=False))
    count = 0
    for pattern in patterns:
        found.Add(pattern)
        count += 1
    if count:
        found.Compile()
    return found
