"""Finding the places of rule keywords: one hyperscan pass, or one RE2 pass.

An anchored rule (one declaring ``keyword_offset``) is tried only before its
keywords' places; these finders list those places, in order, each with the
rules to try there.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any, Final

from sandbox.secrets._re2 import LOCATOR_MAX_MEM, UNANCHORED, keyword_pattern, locator, native
from sandbox.secrets._rules import SecretRule

__all__ = ["HYPERSCAN", "Entries", "NativeKeywords", "Re2Keywords"]

Entries = tuple[tuple[bytes | None, tuple[int, ...]], ...]


def _load_hyperscan() -> Any:
    try:
        import hyperscan  # noqa: PLC0415 -- optional: wheels exist for Linux x86-64, macOS and Windows only
    except ImportError:
        return None
    return hyperscan


HYPERSCAN: Final[Any] = _load_hyperscan()


class Re2Keywords:
    """Keywords found by one RE2 pass, one place at a time.

    The pass reports one alternative per place: the longest keyword there
    (with what follows it, for rules that say), and every other keyword at
    that place is a prefix of it, so the table gives all their rules.
    """

    __slots__ = ("followed", "locator", "table")

    def __init__(self, rules: tuple[SecretRule, ...]) -> None:
        owners: dict[bytes, list[int]] = {}
        for index, rule in enumerate(rules):
            for keyword in rule.keywords:
                owners.setdefault(keyword, []).append(index)
        keywords = sorted(owners, key=lambda keyword: (-len(keyword), keyword))
        # A keyword all of whose rules say what follows it is looked for with that after it.
        after: dict[bytes, bytes] = {}
        for keyword in keywords:
            followers = {rules[index].after_keyword for index in owners[keyword]}
            if None not in followers:
                after[keyword] = b"(?:" + b"|".join(b"(?:" + f + b")" for f in sorted(filter(None, followers))) + b")"
        self.locator = locator([b"|".join(keyword_pattern(k) + after.get(k, b"") for k in keywords)], LOCATOR_MAX_MEM)
        # Such keywords are found with more than the keyword; by length, longest first: each
        # lower-cased, with the exact bytes it needs (None when any case will do).
        followed: dict[int, dict[bytes, tuple[bytes | None, ...]]] = {}
        for keyword in after:
            same = followed.setdefault(len(keyword), {})
            same[keyword.lower()] = (*same.get(keyword.lower(), ()), None if keyword == keyword.lower() else keyword)
        self.followed = sorted(followed.items(), reverse=True)
        # Keyed by the keyword lower-cased, and as written (the usual case, found without lowering).
        self.table: dict[bytes, Entries] = {
            key: tuple(
                (None if keyword == keyword.lower() else keyword, tuple(owners[keyword]))
                for keyword in keywords
                if found.lower().startswith(keyword.lower())
            )
            for found in keywords
            for key in (found, found.lower())
        }

    def hits(self, data: bytes) -> Iterator[tuple[int, int, Entries]]:
        """Each place where a keyword starts, in order: the place, the bytes the pass went on, the entries."""
        locate, table, size = native(self.locator), self.table, len(data)
        position = 0
        while True:
            start, end = locate(UNANCHORED, data, position, size)[0]
            if start < 0:
                return
            found = data[start:end]
            yield start, end - position, table.get(found) or table.get(found.lower()) or self._entries(found)
            position = start + 1

    def _entries(self, found: bytes) -> Entries:
        """The entries for a keyword found with what follows it: the longest it starts with."""
        lowered = found.lower()
        for length, keywords in self.followed:
            for exact in keywords.get(lowered[:length], ()):
                if exact is None or found.startswith(exact):
                    return self.table[lowered[:length]]
        return self.table[found]  # not reached: the found text starts with one of them


def _re2_spaces(pattern: bytes) -> bytes:
    """``pattern`` with ``\\s`` and ``\\S`` spelled out as RE2 reads them, for hyperscan.

    RE2's ``\\s`` is tab, newline, form feed, carriage return and space;
    hyperscan's (PCRE's) also takes the vertical tab, so ``[^\\s]`` would refuse
    a byte the rule's own pattern accepts, and a place would be missed. A
    ``\\S`` inside a class has no spelling here: ValueError.
    """
    out, position, size, in_class = bytearray(), 0, len(pattern), False
    while position < size:
        byte = pattern[position : position + 1]
        if byte == b"\\" and position + 1 < size:
            escape = pattern[position : position + 2]
            if escape == b"\\s":
                out += b"\\t\\n\\f\\r " if in_class else b"[\\t\\n\\f\\r ]"
            elif escape == b"\\S":
                if in_class:
                    raise ValueError("\\S inside a class")
                out += b"[^\\t\\n\\f\\r ]"
            else:
                out += escape
            position += 2
            continue
        out += byte
        position += 1
        if byte == b"[" and not in_class:
            in_class = True
            for opening in (b"^", b"]"):  # a negation, then a ] that is a member, open a class
                if pattern[position : position + 1] == opening:
                    out += opening
                    position += 1
        elif byte == b"]" and in_class:
            in_class = False
    return bytes(out)


def _literal(keyword: bytes) -> bytes:
    """A keyword as a hyperscan expression: a lower-case one matches any case, one with a capital exactly."""
    literal = b"".join(bytes((byte,)) if chr(byte).isalnum() else b"\\x%02x" % byte for byte in keyword)
    return b"(?i:" + literal + b")" if keyword == keyword.lower() else literal


@functools.lru_cache(maxsize=16)
def _hyperscan_database(expressions: tuple[bytes, ...], flags: tuple[int, ...]) -> Any:
    """A compiled hyperscan database, shared by every engine that needs the same one.

    Compiling takes tens of milliseconds (the broad rules' continuations), and
    a sandbox may be built per request, so databases are cached the way the
    ``re`` module caches patterns: the result depends only on the arguments, and
    a database is read-only (each scan has a scratch of its own).
    """
    database = HYPERSCAN.Database()
    database.compile(
        expressions=list(expressions), ids=list(range(len(expressions))), elements=len(expressions), flags=list(flags)
    )
    return database


class NativeKeywords:
    """Keywords found by one hyperscan pass, every place at once.

    One expression per keyword and what its rules say follows it (matched from
    the keyword's start), so each place names exactly the rules to try there.
    Hyperscan matches bytes and folds ASCII case only, like the RE2 patterns
    here, so it finds a superset of the places a rule's matches need.

    The same pass tells which of the ``present`` keywords occur at all (those of
    rules scanning in passes of their own): each such keyword is reported once.
    """

    __slots__ = ("backs", "database", "entries", "first_present", "literals", "present", "scratch")

    def __init__(
        self, rules: tuple[SecretRule, ...], *, follow: bool, present: tuple[tuple[bytes, ...], ...] = ()
    ) -> None:
        hyperscan = HYPERSCAN
        groups: dict[tuple[bytes, bytes | None], list[int]] = {}
        for index, rule in enumerate(rules):
            for keyword in rule.keywords:
                groups.setdefault((keyword, rule.after_keyword if follow else None), []).append(index)
        expressions, flags = [], []
        # Bytes from a match's end back to the keyword's start, or -1 when hyperscan reports the start.
        self.backs: list[int] = []
        self.entries: list[Entries] = []
        # Each expression's keyword, and whether any case will do (it is lower-cased then).
        self.literals: list[tuple[bytes, bool]] = []
        for (keyword, after), indexes in groups.items():
            literal = _literal(keyword)
            expressions.append(literal if after is None else literal + b"(?:" + _re2_spaces(after) + b")")
            flags.append(0 if after is None else hyperscan.HS_FLAG_SOM_LEFTMOST)
            self.backs.append(len(keyword) if after is None else -1)
            self.entries.append(((None, tuple(indexes)),))
            self.literals.append((keyword, keyword == keyword.lower()))
        # Each keyword of ``present`` once, reported at most once a scan, with the indexes
        # (into ``present``) of the keyword sets holding it.
        owners: dict[bytes, list[int]] = {}
        for index, keywords in enumerate(present):
            for keyword in keywords:
                owners.setdefault(keyword, []).append(index)
        self.first_present = len(expressions)
        self.present = tuple(tuple(indexes) for indexes in owners.values())
        for keyword in owners:
            expressions.append(_literal(keyword))
            flags.append(hyperscan.HS_FLAG_SINGLEMATCH)
        self.database = _hyperscan_database(tuple(expressions), tuple(flags))
        self.scratch = hyperscan.Scratch(self.database)

    @classmethod
    def build(cls, rules: tuple[SecretRule, ...], present: tuple[tuple[bytes, ...], ...] = ()) -> NativeKeywords | None:
        """A finder for these rules, if hyperscan is installed and takes their patterns."""
        if HYPERSCAN is None or not rules:
            return None
        for follow in (True, False):  # without what follows the keywords, if that does not compile
            try:
                return cls(rules, follow=follow, present=present)
            except (HYPERSCAN.error, ValueError):
                continue
        return None

    def places(self, data: bytes, limit: int, byte_limit: int) -> list[tuple[int, int]] | None:
        """Each (place, expression) where a keyword starts, in order (see :meth:`scan`)."""
        scanned = self.scan(data, limit, byte_limit)
        return None if scanned is None else scanned[1]

    def scan(self, data: bytes, limit: int, byte_limit: int) -> tuple[set[int], list[tuple[int, int]]] | None:
        """The ``present`` keyword sets found (as indexes), and each (place, expression) where a keyword starts.

        None past ``limit`` places reported, or past ``byte_limit`` bytes searched
        again (crafted text): the caller then scans each rule alone.
        """
        backs, found, first_present, present = self.backs, set(), self.first_present, self.present
        reach: dict[tuple[int, int], int] = {}  # how far a keyword's continuation ran from a place
        sets: set[int] = set()
        reports = 0

        def on_match(expression: int, start: int, end: int, _flags: int, _context: object) -> bool:
            nonlocal reports
            if expression >= first_present:
                sets.update(present[expression - first_present])
                return False
            reports += 1
            back = backs[expression]
            if back >= 0:
                found.add((end - back, expression))
            else:
                found.add((start, expression))
                reach[start, expression] = end  # reports come in order of their ends
            return reports > limit  # True stops the scan

        try:
            # A scratch of its own per scan: hyperscan releases the GIL, so threads may scan at once.
            self.database.scan(data, match_event_handler=on_match, scratch=self.scratch.clone())
        except HYPERSCAN.ScanTerminated:
            return None
        # For each end hyperscan reports only the leftmost start, so a place whose continuation
        # ends where that of an earlier place of the same keyword does is not reported: take
        # every place of the keyword inside the span reached instead (more places, never fewer).
        searched = 0
        lowered = data.lower() if reach else data
        for (start, expression), end in reach.items():
            searched += end - start
            if searched > byte_limit:
                return None
            keyword, any_case = self.literals[expression]
            text = lowered if any_case else data
            at = text.find(keyword, start + 1, end)
            while at >= 0:
                found.add((at, expression))
                at = text.find(keyword, at + 1, end)
        return sets, sorted(found)
