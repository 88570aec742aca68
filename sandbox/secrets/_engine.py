"""The scan: every rule's findings in a text, in time linear in its length.

:class:`SecretEngine` tries a rule that says where its keywords sit in its
matches only at those places (found by one hyperscan pass, or one RE2 pass
where hyperscan is not installed), scans other rules in passes of their own or
of their group, and each rule finds exactly what a pass of its own would; a
work budget keeps the whole scan linear on crafted text.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from sandbox.secrets._keywords import Entries, NativeKeywords, Re2Keywords
from sandbox.secrets._re2 import (
    ANCHORED,
    LOCATOR_MAX_MEM,
    UNANCHORED,
    compile_bytes,
    first_bytes,
    keyword_pattern,
    keyword_set,
    locator,
    native,
    starts_at_boundary,
)
from sandbox.secrets._rules import Finding, SecretRule, merge

__all__ = ["ScanBudget", "SecretEngine"]


# Keywords are first looked for in this many bytes, then in parts four times larger.
_KEYWORDS_FIRST: Final = 16384
_NEAR: Final = 256  # bytes either side of a finding where its rule's keyword is looked for first
# RE2's \b is an ASCII word boundary (bytes past 0x7f are not word bytes here).
_WORD: Final = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


@dataclass(frozen=True, slots=True)
class ScanBudget:
    """How much work finding rules together may take before each rule scans alone.

    Each rule's findings are its own leftmost, non-overlapping matches whichever
    way they are found; the budget only chooses the way. A group's shared pass
    visits every place where some rule of the group starts a match, and anchored
    rules are tried at every place of their keywords; crafted text can make those
    visits cost time quadratic in its length (many overlapping starts of long
    matches). Past ``floor_bytes`` plus ``bytes_per_byte`` bytes of matches seen
    (or searched again for hidden keyword places) per byte of text, past
    ``floor_ns`` plus ``ns_per_byte`` nanoseconds per byte, or past
    ``floor_places`` plus one keyword place reported by hyperscan per
    ``bytes_per_place`` bytes, each rule finishes the text with a pass of its
    own, which is linear.
    """

    bytes_per_byte: int = 8
    floor_bytes: int = 65536
    ns_per_byte: int = 150
    floor_ns: int = 20_000_000
    bytes_per_place: int = 16
    floor_places: int = 4096

    def limits(self, size: int) -> tuple[int, int]:
        """Bytes of matches a pass over ``size`` bytes may see, and when its time is up."""
        deadline = time.monotonic_ns() + self.floor_ns + self.ns_per_byte * size
        return self.floor_bytes + self.bytes_per_byte * size, deadline


class SecretEngine:
    """Finds secrets in bytes with a set of rules, in time linear in the input.

    A rule finds what ``rule.pattern.finditer`` would on its own: its leftmost,
    non-overlapping matches, kept when its allowlists and entropy minimum let
    them, and only when one of the rule's keywords occurs in the text. A first
    pass for every rule's keywords ends the scan of a text holding none: with
    hyperscan, the same pass that finds the anchored rules' places; otherwise a
    ``re2.Set`` of literals (in a long text it stops once every pass has one:
    then all rules run, and a rule's findings count once its keyword is seen
    anywhere). Rules that declare ``keyword_offset`` are then tried anchored at
    the places before their keywords (see :class:`_Anchors`), the keywords
    found by hyperscan when ``native`` and installed, else by RE2 (then rules
    with ``before_keyword``, whose keywords are common, scan alone instead). The
    other rules scan in a pass of their own, or their group's: one pass of their
    patterns as one alternation, visiting every place where one of them starts a
    match. Each way keeps to the :class:`ScanBudget`; past it, the rules finish
    with passes of their own, so crafted text cannot make the scan quadratic.
    """

    def __init__(self, rules: tuple[SecretRule, ...], *, budget: ScanBudget | None = None, native: bool = True) -> None:
        self.rules = rules
        self.budget = budget or ScanBudget()
        members: dict[str, list[SecretRule]] = {}
        # An offset needs keywords to count (pack files cannot leave them out; code can).
        anchorable = tuple(rule for rule in rules if rule.keyword_offset is not None and rule.keywords)
        keyed = tuple(rule for rule in rules if rule.keywords)
        # Hyperscan's pass also tells which other rules' keywords occur (no second pass then).
        present = tuple(() if rule in anchorable else rule.keywords for rule in keyed)
        finder = NativeKeywords.build(anchorable, present) if native else None
        # With RE2 finding keywords, a rule that may start back over a run (a key name) scans
        # alone: its keywords are common, and trying it at each costs more than its own pass.
        anchored = anchorable if finder is not None else tuple(rule for rule in anchorable if not rule.before_keyword)
        for rule in rules:
            if rule not in anchored:
                members.setdefault(rule.group, []).append(rule)
        self._groups = tuple(_Group(tuple(group)) for group in members.values())
        place = {rule.id: (g, i) for g, group in enumerate(self._groups) for i, rule in enumerate(group.rules)}
        self._anchors = _Anchors(anchored, finder) if anchored else None
        # The anchored rules take the place after the groups: one pass finds all of them.
        self._anchored_at = len(self._groups)
        place.update({rule.id: (self._anchored_at, i) for i, rule in enumerate(anchored)})
        # Rules without keywords run on every text; the others only where a keyword occurs.
        self._always = tuple(place[rule.id] for rule in rules if not rule.keywords)
        self._keyed = tuple(place[rule.id] for rule in keyed)
        # With hyperscan, places found stand for every anchored rule by the first one's index:
        # the places say which rules to try where.
        self._native = finder
        self._anchors_hit = next((hit for hit, rule in enumerate(keyed) if rule in anchored), -1)
        keyword_patterns = [
            b"|".join(keyword_pattern(keyword) for keyword in rule.keywords) for rule in rules if rule.keywords
        ]
        self._keywords = keyword_set(keyword_patterns)
        # For a text whose first part already holds a keyword of every group (see _keyword_hits).
        self._keyed_groups = frozenset(group for group, _ in self._keyed)
        # Anchored rules need no check: each of their matches holds its keyword.
        self._keyed_ids = {
            rule.id: hit for hit, rule in enumerate(rule for rule in rules if rule.keywords) if rule not in anchored
        }
        self._keyword_searches = tuple(compile_bytes(pattern) for pattern in keyword_patterns)
        self._keyword_overlap = max((len(k) for rule in rules for k in rule.keywords), default=1) - 1

    def __repr__(self) -> str:
        anchors = self._anchors
        anchored = len(anchors.rules) if anchors else 0
        finder = "hyperscan" if anchors and isinstance(anchors.finder, NativeKeywords) else "RE2"
        passes = len(self._groups)
        return f"SecretEngine({len(self.rules)} rules: {anchored} found at keywords by {finder}, {passes} passes)"

    def find(self, data: bytes) -> list[Finding]:
        """Every finding in ``data``, overlaps merged, in order."""
        hits, scanned, places = self._keywords_in(data)
        partial = scanned < len(data)
        if not hits and not self._always and not partial:
            return []  # the common case: no rule's keyword occurs
        candidates = (*self._always, *self._keyed) if partial else (*self._always, *(self._keyed[h] for h in hits))
        active: dict[int, set[int]] = {}
        for group, index in candidates:
            active.setdefault(group, set()).add(index)
        found: list[Finding] = []
        if active.pop(self._anchored_at, None) is not None and self._anchors is not None:
            self._scan_anchored(self._anchors, data, found, places)
        for group in sorted(active):
            self._scan(self._groups[group], active[group], data, found)
        if partial:
            found = self._keyed_only(found, hits, data, scanned)
        return merge(found)

    def _keywords_in(self, data: bytes) -> tuple[set[int], int, Iterable[tuple[int, int, Entries]] | None]:
        """Rules whose keywords occur, how far the text was looked at, and the anchored rules' places.

        With hyperscan one pass gives all three; past its budget of places
        (crafted text) nothing is known, every rule runs and the anchored ones
        scan alone (places None). With RE2 the places are found as they are
        needed, in a pass of their own.
        """
        finder, size, budget = self._native, len(data), self.budget
        if finder is None:
            hits, scanned = self._keyword_hits(data)
            finding = self._anchors.finder if self._anchors is not None else None
            return hits, scanned, finding.hits(data) if isinstance(finding, Re2Keywords) else None
        limit = budget.floor_places + size // budget.bytes_per_place
        scan = finder.scan(data, limit, budget.floor_bytes + budget.bytes_per_byte * size)
        if scan is None:
            return set(), 0, None
        hits, places = scan
        if places:
            hits.add(self._anchors_hit)
        by_expression = finder.entries
        return hits, size, ((start, 0, by_expression[expression]) for start, expression in places)

    def _keyword_hits(self, data: bytes) -> tuple[set[int], int]:
        """Rules (as keyword-set indexes) whose keywords occur, and how far the text was looked at.

        A long text is looked at in growing parts; once every group has a rule
        whose keyword occurred, the rest is not looked at here: every rule then
        runs, and :meth:`_keyed_only` drops what a rule without a keyword found.
        """
        size = len(data)
        if not self._keyed:
            return set(), size
        if size <= _KEYWORDS_FIRST:
            return set(self._keywords.Match(data) or ()), size
        view = memoryview(data)
        hits: set[int] = set()
        start, end = 0, _KEYWORDS_FIRST
        while True:
            # Each part starts early enough that a keyword across the border is whole in it.
            hits.update(self._keywords.Match(view[max(0, start - self._keyword_overlap) : end]) or ())
            if end >= size:
                return hits, size
            if self._keyed_groups <= {self._keyed[hit][0] for hit in hits}:
                return hits, end
            start, end = end, min(size, end * 4)

    def _keyed_only(self, found: list[Finding], hits: set[int], data: bytes, scanned: int) -> list[Finding]:
        """The findings of rules whose keywords occur, looking past ``scanned`` where needed.

        A keyword near the finding (usually inside its match) shows the keyword
        occurs; otherwise the rest of the text is searched, once per rule.
        """
        occurs = dict.fromkeys(hits, True)
        kept = []
        for finding in found:
            hit = self._keyed_ids.get(finding.rule_id)
            if hit is not None and not occurs.get(hit):
                search = self._keyword_searches[hit]
                if search.search(data, max(0, finding.start - _NEAR), finding.end + _NEAR) is not None:
                    occurs[hit] = True
                elif hit not in occurs:
                    occurs[hit] = search.search(data, max(0, scanned - self._keyword_overlap)) is not None
                if not occurs[hit]:
                    continue
            kept.append(finding)
        return kept

    def _scan(self, group: _Group, active: set[int], data: bytes, found: list[Finding]) -> None:
        rules = group.rules
        # Where each rule's next match may start: the end of its previous one.
        cursors = dict.fromkeys(active, 0)
        if len(active) > 1:
            self._scan_together(group, cursors, data, found)
        for index, cursor in cursors.items():
            if cursor >= 0:  # the rest of this rule's text, in a pass of its own
                _scan_alone(rules[index], cursor, data, found)

    def _scan_together(self, group: _Group, cursors: dict[int, int], data: bytes, found: list[Finding]) -> None:
        """Visit every start of the group's matches, in order; stop early past the budget.

        On return ``cursors`` holds, per rule, where its pass alone must go on
        from, or -1 when the text is done for it.
        """
        size = len(data)
        seen_limit, deadline = self.budget.limits(size)
        rules, starting_with = group.rules, group.starting_with
        locate, natives = native(group.locator), group.natives
        seen = position = 0
        while True:
            start, end = locate(UNANCHORED, data, position, size)[0]
            if start < 0:
                break
            seen += end - position
            for index in starting_with[data[start]]:
                cursor = cursors.get(index)
                if cursor is None or cursor > start:
                    continue  # not a candidate, or inside its own previous match
                spans = natives[index](ANCHORED, data, start, size)  # runs only as far as the match
                if spans[0][0] >= 0:
                    _record(rules[index], spans, data, found)
                    stop = spans[0][1]
                    seen += stop - start
                    cursors[index] = stop if stop > start else start + 1
            position = start + 1
            if seen > seen_limit or time.monotonic_ns() > deadline:
                for index, cursor in cursors.items():
                    cursors[index] = max(cursor, position)
                return
        for index in cursors:
            cursors[index] = -1

    def _scan_anchored(
        self, anchors: _Anchors, data: bytes, found: list[Finding], places: Iterable[tuple[int, int, Entries]] | None
    ) -> None:
        """Try each anchored rule at the places before its keywords, in order.

        A rule's match starts within its offset (and run) before one of its
        keywords, so trying those places in order, past its previous match and
        the places already tried, finds what a pass of its own would. Past the
        budget each rule finishes with such a pass, from the first place not yet
        tried for it.
        """
        size = len(data)
        seen_limit, deadline = self.budget.limits(size)
        natives, offsets, starts, runs = anchors.natives, anchors.offsets, anchors.starts, anchors.runs
        boundaries = anchors.boundaries
        count = len(anchors.rules)
        cursors = [0] * count  # where each rule's next match may start: the end of its previous one
        tried = [-1] * count  # the last place each rule was tried at, or ruled out
        seen = 0
        for start, advanced, entries in places or ():
            seen += advanced
            for exact, indexes in entries:
                if exact is not None and not data.startswith(exact, start):
                    continue
                for index in indexes:
                    floor = cursors[index] if cursors[index] > tried[index] else tried[index] + 1
                    place = start
                    if runs[index]:  # the match may start back over a run of these bytes
                        place = _run_start(data, min(start, floor + offsets[index]), start, runs[index])
                    place = max(place - offsets[index], floor)  # the places before are decided
                    tried[index] = start
                    bounded = boundaries[index]
                    while place <= start:
                        # A match of a rule starting with \b starts where a word does or ends.
                        if data[place] in starts[index] and (
                            not bounded or (place > 0 and data[place - 1] in _WORD) != (data[place] in _WORD)
                        ):
                            spans = natives[index](ANCHORED, data, place, size)
                            if spans[0][0] >= 0:
                                _record(anchors.rules[index], spans, data, found)
                                stop = spans[0][1]
                                seen += stop - place
                                place = cursors[index] = stop if stop > place else place + 1
                                continue
                        place += 1
            if seen > seen_limit or time.monotonic_ns() > deadline:
                break
        else:
            if places is not None:
                return  # every keyword's places tried
        for number, rule in enumerate(anchors.rules):
            _scan_alone(rule, max(cursors[number], tried[number] + 1), data, found)


def _run_start(data: bytes, low: int, end: int, run: bytes) -> int:
    """Where the run of ``run`` bytes that ends at ``end`` starts, looking back no further than ``low``."""
    near = max(low, end - 64)
    rest = data[near:end].rstrip(run)
    if rest or near == low:
        return near + len(rest)
    return low + len(data[low:end].rstrip(run))


def _scan_alone(rule: SecretRule, position: int, data: bytes, found: list[Finding]) -> None:
    """The rule's leftmost, non-overlapping matches from ``position`` on."""
    match, size = native(rule.pattern), len(data)
    while True:
        spans = match(UNANCHORED, data, position, size)
        start, end = spans[0]
        if start < 0:
            return
        _record(rule, spans, data, found)
        position = end if end > start else start + 1


def _record(rule: SecretRule, spans: list[tuple[int, int]], data: bytes, found: list[Finding]) -> None:
    start, end = spans[rule.secret_group]
    if start < end and rule.accepts(data[start:end], data[spans[0][0] : start]):
        found.append(Finding(start, end, rule.id))


class _Group:
    """Rules located together: one pass of their patterns as one alternation."""

    __slots__ = ("locator", "natives", "rules", "starting_with")

    def __init__(self, rules: tuple[SecretRule, ...]) -> None:
        self.rules = rules
        if len(rules) == 1:
            self.locator = rules[0].pattern  # a rule alone never needs a shared pass
        else:
            # The pass only finds places; each rule finds its own spans.
            self.locator = locator((rule.pattern.pattern for rule in rules), LOCATOR_MAX_MEM)
        self.natives = tuple(native(rule.pattern) for rule in rules)
        # The group's rules (as indexes) a match starting with each byte could belong to.
        first = [first_bytes(rule.pattern) for rule in rules]
        self.starting_with = tuple(
            tuple(index for index, possible in enumerate(first) if byte in possible) for byte in range(256)
        )


class _Anchors:
    """Rules tried only where their keywords occur: one pass finds every keyword.

    A rule here declares that each of its matches holds one of its keywords,
    starting at most ``keyword_offset`` bytes after the match does (or after
    the start of the run of ``before_keyword`` bytes ending at the keyword),
    so its matches can only start in the few places before each keyword.
    """

    __slots__ = ("boundaries", "finder", "natives", "offsets", "rules", "runs", "starts")

    def __init__(self, rules: tuple[SecretRule, ...], finder: NativeKeywords | None) -> None:
        self.rules = rules
        self.natives = tuple(native(rule.pattern) for rule in rules)
        self.offsets = tuple(rule.keyword_offset or 0 for rule in rules)
        self.starts = tuple(first_bytes(rule.pattern) for rule in rules)
        self.runs = tuple(rule.before_keyword for rule in rules)
        self.boundaries = tuple(starts_at_boundary(rule.pattern.pattern) for rule in rules)
        self.finder: NativeKeywords | Re2Keywords = finder or Re2Keywords(rules)
