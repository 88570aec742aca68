"""Secret detection: rule packs, a linear-time matcher, and redaction.

Rule packs (``policies/secrets/*.toml``) are validated by pydantic and compiled
with RE2, whose matching time is linear in the input whatever the pattern, since
the text is attacker-influenced. :class:`SecretEngine` runs rules only where
their keywords occur and locates the rules of one group with one pass, while
each rule finds exactly what a pass of its own would; a work budget keeps the
whole scan linear on crafted text. A value is a finding unless an allowlist
marks it as a known dummy or its entropy is below the rule's minimum. Findings
carry offsets and rule ids, never the value.
"""

from __future__ import annotations

import math
import re
import time
import tomllib
from collections import Counter
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Final, Literal

import re2
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator

from sandbox.errors import PolicyError

__all__ = [
    "Action",
    "Finding",
    "RulePack",
    "ScanBudget",
    "SecretEngine",
    "SecretRule",
    "load_pack",
    "redact",
    "shannon_entropy",
]

Action = Literal["redact", "reject", "allow"]
_PACK_NAME: Final = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
_MARKER: Final = b"[REDACTED:%s]"


# The binding's own match call returns spans without building match objects: half the cost
# of ``search`` per call, which counts when a scan makes thousands of calls.
_UNANCHORED: Final = re2._re2.RE2.Anchor.UNANCHORED
_ANCHORED: Final = re2._re2.RE2.Anchor.ANCHOR_START


def _spans(pattern: Any, data: bytes, position: int, anchor: Any) -> list[tuple[int, int]]:
    """Spans of the whole match and each group, ``(-1, -1)`` first when there is no match."""
    spans: list[tuple[int, int]] = pattern._regexp.Match(anchor, data, position, len(data))
    return spans


def _compile(pattern: str) -> Any:
    options = re2.Options()
    options.log_errors = False
    return re2.compile(pattern.encode("utf-8"), options)


def _compile_bytes(pattern: bytes) -> Any:
    options = re2.Options()
    options.never_capture = True
    options.log_errors = False
    return re2.compile(pattern, options)


def _check_re2(pattern: str) -> str:
    try:
        _compile(pattern)
    except re2.error:
        raise ValueError(
            "not a valid RE2 pattern (no backreferences or look-around; repeats of at most 1000)"
        ) from None
    return pattern


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


# TOML arrays arrive as lists: the container is lax, its items stay strict.
Strings = Annotated[tuple[str, ...], Field(strict=False)]
Pattern = Annotated[str, AfterValidator(_check_re2)]
Patterns = Annotated[tuple[Pattern, ...], Field(strict=False)]


class RuleModel(_Model):
    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]{0,63}$")]
    description: Annotated[str, Field(min_length=1)]
    pattern: Annotated[Pattern, Field(min_length=1)]
    keywords: Strings = ()
    min_entropy: Annotated[float, Field(ge=0, le=8)] | None = None
    allowlist: Patterns = ()
    allowlist_match: Patterns = ()
    action: Action = "redact"
    # Rules of one group are scanned together, in one pass; without a group a rule scans alone.
    group: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]{0,63}$")] | None = None

    @field_validator("keywords")
    @classmethod
    def _keywords_ascii(cls, values: tuple[str, ...]) -> tuple[str, ...]:
        if any(not value or not value.isascii() for value in values):
            raise ValueError("keywords are non-empty ASCII")
        return values


class PackModel(_Model):
    schema_version: Literal[1]
    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]{0,63}$")]
    description: str = ""
    allowlist: Patterns = ()
    rules: Annotated[tuple[RuleModel, ...], Field(min_length=1, strict=False)]


@dataclass(frozen=True, slots=True)
class SecretRule:
    """A compiled rule. Patterns work on UTF-8 bytes."""

    id: str
    description: str
    action: Action
    pattern: Any
    secret_group: int
    keywords: tuple[bytes, ...]
    min_entropy: float | None
    allowlist: Any  # one RE2 alternation of the pack's and the rule's allowlists, or None
    allowlist_match: Any
    group: str

    def accepts(self, value: bytes, match: bytes) -> bool:
        """True when a found value is a real finding: not allowlisted, entropy high enough."""
        if self.min_entropy is not None and max(len(set(value)), 1) * 1.000001 < 2**self.min_entropy:
            return False  # entropy is at most log2 of the number of distinct bytes (with a margin)
        if self.allowlist is not None and _spans(self.allowlist, value, 0, _UNANCHORED)[0][0] >= 0:
            return False
        if self.allowlist_match is not None and _spans(self.allowlist_match, match, 0, _UNANCHORED)[0][0] >= 0:
            return False
        return self.min_entropy is None or shannon_entropy(value) >= self.min_entropy


@dataclass(frozen=True, slots=True)
class RulePack:
    id: str
    rules: tuple[SecretRule, ...]


@dataclass(frozen=True, slots=True)
class Finding:
    """A secret's place in the scanned bytes, and the rule that found it."""

    start: int
    end: int
    rule_id: str


_C_LOG_C: Final = [0.0] + [c * math.log2(c) for c in range(1, 4097)]


def shannon_entropy(value: bytes) -> float:
    """Bits of Shannon entropy per byte of ``value``: log2(n) - sum(c log2 c) / n."""
    length = len(value)
    if not length:
        return 0.0
    table = _C_LOG_C
    weighted = sum(table[c] if c < 4097 else c * math.log2(c) for c in Counter(value).values())
    return math.log2(length) - weighted / length


def load_pack(name_or_path: str | Path) -> RulePack:
    """A shipped pack by name (``policies/secrets/NAME.toml``) or a pack file by path."""
    if isinstance(name_or_path, str) and _PACK_NAME.fullmatch(name_or_path):
        entry = resources.files("policies") / "secrets" / f"{name_or_path}.toml"
        if not entry.is_file():
            raise PolicyError(f"{name_or_path}: no such secret rule pack")
        return _parse_pack(entry.read_text(encoding="utf-8"), f"secrets/{name_or_path}.toml")
    path = Path(name_or_path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PolicyError(f"{path.name}: cannot read rule pack ({type(exc).__name__})") from None
    return _parse_pack(text, path.name)


def _parse_pack(text: str, source: str) -> RulePack:
    try:
        model = PackModel.model_validate(tomllib.loads(text))
    except tomllib.TOMLDecodeError as exc:
        raise PolicyError(f"{source}: invalid TOML: {exc}") from None
    except ValidationError as exc:
        lines = [
            f"{source}: {'.'.join(str(p) for p in err['loc'])}: {err['msg'].removeprefix('Value error, ')}"
            for err in exc.errors(include_url=False)
        ]
        raise PolicyError("\n".join(lines)) from None
    ids = [rule.id for rule in model.rules]
    if len(ids) != len(set(ids)):
        raise PolicyError(f"{source}: rules: duplicate rule id")
    rules = tuple(
        SecretRule(
            id=rule.id,
            description=rule.description,
            action=rule.action,
            pattern=_compile(rule.pattern),
            secret_group=_compile(rule.pattern).groupindex.get(b"secret", 0),
            keywords=tuple(keyword.encode("utf-8") for keyword in rule.keywords),
            min_entropy=rule.min_entropy,
            allowlist=_alternation(model.allowlist + rule.allowlist),
            allowlist_match=_alternation(rule.allowlist_match),
            group=f"{model.id}/{rule.group or rule.id}",
        )
        for rule in model.rules
    )
    return RulePack(model.id, rules)


def _keyword_pattern(keyword: bytes) -> bytes:
    literal: bytes = re2.escape(keyword)
    return literal if keyword != keyword.lower() else b"(?i:" + literal + b")"


def _alternation(patterns: tuple[str, ...]) -> Any:
    """One RE2 pattern matching where any of ``patterns`` would (each keeps its own flags)."""
    return _compile("|".join(f"(?:{pattern})" for pattern in patterns)) if patterns else None


def _first_bytes(rule: SecretRule) -> frozenset[int]:
    """Every byte a match of ``rule`` can start with (a superset, from RE2's possible match range)."""
    ok, low, high = rule.pattern._regexp.PossibleMatchRange(8)
    if not ok or not low or not high:
        return frozenset(range(256))
    return frozenset(range(low[0], high[0] + 1))


class _Group:
    """Rules located together: one pass of their patterns as one alternation."""

    __slots__ = ("locator", "natives", "rules", "starting_with")

    def __init__(self, rules: tuple[SecretRule, ...]) -> None:
        self.rules = rules
        if len(rules) == 1:
            self.locator = rules[0].pattern  # a rule alone never needs a shared pass
        else:
            options = re2.Options()
            options.never_capture = True  # the pass only finds places; each rule finds its own spans
            options.max_mem = _GROUP_MAX_MEM
            options.log_errors = False
            self.locator = re2.compile(b"|".join(b"(?:" + rule.pattern.pattern + b")" for rule in rules), options)
        self.natives = tuple(rule.pattern._regexp.Match for rule in rules)
        # The group's rules (as indexes) a match starting with each byte could belong to.
        first = [_first_bytes(rule) for rule in rules]
        self.starting_with = tuple(
            tuple(index for index, possible in enumerate(first) if byte in possible) for byte in range(256)
        )


_GROUP_MAX_MEM: Final = 32 << 20  # DFA cache per shared pass; below ~8 MB it thrashes on typical text
# Keywords are first looked for in this many bytes, then in parts four times larger.
_KEYWORDS_FIRST: Final = 16384
_NEAR: Final = 256  # bytes either side of a finding where its rule's keyword is looked for first


@dataclass(frozen=True, slots=True)
class ScanBudget:
    """How much work locating a group's matches together may take before its rules scan alone.

    Each rule's findings are its own leftmost, non-overlapping matches whichever
    way they are found; the budget only chooses the way. The shared pass visits
    every place where some rule of the group starts a match, and crafted text can
    make those visits cost time quadratic in its length (many overlapping starts
    of long matches). Past ``floor_bytes`` plus ``bytes_per_byte`` bytes of
    matches seen per byte of text, or past ``floor_ns`` plus ``ns_per_byte``
    nanoseconds per byte, each rule finishes the text with a pass of its own,
    which is linear.
    """

    bytes_per_byte: int = 8
    floor_bytes: int = 65536
    ns_per_byte: int = 50
    floor_ns: int = 20_000_000


class SecretEngine:
    """Finds secrets in bytes with a set of rules, in time linear in the input.

    A rule finds what ``rule.pattern.finditer`` would on its own: its leftmost,
    non-overlapping matches, kept when its allowlists and entropy minimum let
    them, and only when one of the rule's keywords occurs in the text. Three
    steps make that fast: one pass for every rule's keywords (a ``re2.Set`` of
    literals) picks the candidate rules (in a long text, only until every group
    has one: then all rules run, and a rule's findings count once its keyword is
    seen anywhere); a group of several candidates makes one pass with its
    patterns as one alternation, visiting every
    place where one of them starts a match; at such a place each candidate that
    can start with that byte and is not inside its own previous match is matched
    anchored. A group whose pass goes over its :class:`ScanBudget` hands the rest
    of the text to one pass per rule, so crafted text cannot make the scan
    quadratic.
    """

    def __init__(self, rules: tuple[SecretRule, ...], *, budget: ScanBudget | None = None) -> None:
        self.rules = rules
        self.budget = budget or ScanBudget()
        members: dict[str, list[SecretRule]] = {}
        for rule in rules:
            members.setdefault(rule.group, []).append(rule)
        self._groups = tuple(_Group(tuple(group)) for group in members.values())
        place = {rule.id: (g, i) for g, group in enumerate(self._groups) for i, rule in enumerate(group.rules)}
        # Rules without keywords run on every text; the others only where a keyword occurs.
        self._always = tuple(place[rule.id] for rule in rules if not rule.keywords)
        self._keyed = tuple(place[rule.id] for rule in rules if rule.keywords)
        self._keywords = re2.Set.SearchSet()
        keyword_patterns = [
            b"|".join(_keyword_pattern(keyword) for keyword in rule.keywords) for rule in rules if rule.keywords
        ]
        for pattern in keyword_patterns:
            self._keywords.Add(pattern)
        if self._keyed:
            self._keywords.Compile()
        # For a text whose first part already holds a keyword of every group (see _keyword_hits).
        self._keyed_groups = frozenset(group for group, _ in self._keyed)
        self._keyed_ids = {rule.id: hit for hit, rule in enumerate(rule for rule in rules if rule.keywords)}
        self._keyword_searches = tuple(_compile_bytes(pattern) for pattern in keyword_patterns)
        self._keyword_overlap = max((len(k) for rule in rules for k in rule.keywords), default=1) - 1

    def __repr__(self) -> str:
        return f"SecretEngine({len(self.rules)} rules, {len(self._groups)} groups)"

    def find(self, data: bytes) -> list[Finding]:
        """Every finding in ``data``, overlaps merged, in order."""
        hits, scanned = self._keyword_hits(data)
        if not hits and not self._always:
            return []  # the common case: no rule's keyword occurs
        partial = scanned < len(data)
        candidates = (*self._always, *self._keyed) if partial else (*self._always, *(self._keyed[h] for h in hits))
        active: dict[int, set[int]] = {}
        for group, index in candidates:
            active.setdefault(group, set()).add(index)
        found: list[Finding] = []
        for group in sorted(active):
            self._scan(self._groups[group], active[group], data, found)
        if partial:
            found = self._keyed_only(found, hits, data, scanned)
        return _merge(found)

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
        budget, size = self.budget, len(data)
        seen_limit = budget.floor_bytes + budget.bytes_per_byte * size
        deadline = time.monotonic_ns() + budget.floor_ns + budget.ns_per_byte * size
        rules, starting_with = group.rules, group.starting_with
        locate, natives = group.locator._regexp.Match, group.natives
        seen = position = 0
        while True:
            start, end = locate(_UNANCHORED, data, position, size)[0]
            if start < 0:
                break
            seen += end - position
            for index in starting_with[data[start]]:
                cursor = cursors.get(index)
                if cursor is None or cursor > start:
                    continue  # not a candidate, or inside its own previous match
                spans = natives[index](_ANCHORED, data, start, size)  # runs only as far as the match
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


def _scan_alone(rule: SecretRule, position: int, data: bytes, found: list[Finding]) -> None:
    """The rule's leftmost, non-overlapping matches from ``position`` on."""
    native, size = rule.pattern._regexp.Match, len(data)
    while True:
        spans = native(_UNANCHORED, data, position, size)
        start, end = spans[0]
        if start < 0:
            return
        _record(rule, spans, data, found)
        position = end if end > start else start + 1


def _record(rule: SecretRule, spans: list[tuple[int, int]], data: bytes, found: list[Finding]) -> None:
    start, end = spans[rule.secret_group]
    if start < end and rule.accepts(data[start:end], data[spans[0][0] : spans[0][1]]):
        found.append(Finding(start, end, rule.id))


def _merge(findings: list[Finding]) -> list[Finding]:
    """Overlapping findings become one, spanning both, named by the longer."""
    merged: list[Finding] = []
    for finding in sorted(findings, key=_span):
        if merged and finding.start < merged[-1].end:
            last = merged[-1]
            longer = last if last.end - last.start >= finding.end - finding.start else finding
            merged[-1] = Finding(last.start, max(last.end, finding.end), longer.rule_id)
        else:
            merged.append(finding)
    return merged


def _span(finding: Finding) -> tuple[int, int]:
    return finding.start, finding.end


def redact(data: bytes, findings: list[Finding], *, keep_lines: bool = False) -> bytes:
    """Replace each finding's whole span by ``[REDACTED:<rule-id>]``.

    With ``keep_lines`` the newlines inside a span are kept after the marker, so
    line numbers of a viewed file still match the stored file.
    """
    out: list[bytes] = []
    position = 0
    for finding in findings:
        out.append(data[position : finding.start])
        out.append(_MARKER % finding.rule_id.encode("ascii"))
        if keep_lines:
            out.append(b"\n" * data.count(b"\n", finding.start, finding.end))
        position = finding.end
    out.append(data[position:])
    return b"".join(out)
