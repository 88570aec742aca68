"""Secret detection: rule packs, a linear-time matcher, and redaction.

Rule packs (``policies/secrets/*.toml``) are validated by pydantic and compiled
with RE2, whose matching time is linear in the input whatever the pattern, since
the text is attacker-influenced. :class:`SecretEngine` tries a rule that says
where its keywords sit in its matches only at those places (found by one
hyperscan pass, or one RE2 pass where hyperscan is not installed), scans other
rules in passes of their own or of their group, and each rule finds exactly
what a pass of its own would; a work budget keeps the whole scan linear on
crafted text. A value is a finding unless an allowlist marks it as a known dummy
or its entropy is below the rule's minimum. Findings carry offsets and rule
ids, never the value.
"""

from __future__ import annotations

import functools
import math
import re
import time
import tomllib
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Final, Literal, NamedTuple

import re2
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

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


def _compile(pattern: str) -> Any:
    return re2.compile(pattern.encode("ascii"), _options())


def _compile_bytes(pattern: bytes) -> Any:
    return re2.compile(pattern, _options(capture=False))


def _check_re2(pattern: str) -> str:
    if not pattern.isascii():
        raise ValueError("patterns are ASCII (they match UTF-8 text byte by byte); write other bytes as \\xHH")
    try:
        _compile(pattern)
    except re2.error:
        raise ValueError(
            "not a valid RE2 pattern (no backreferences or look-around; repeats of at most 1000)"
        ) from None
    return pattern


_MAX_KEYWORD_OFFSET: Final = 64


# A bracketed class of printable ASCII, not negated, escapes only of punctuation or \w \d \s
# \t \n \r: it can only match single ASCII bytes, so a run of them is found byte by byte.
_ASCII_CLASS: Final = re.compile(
    r"\[(?!\^)(?:[\x20-\x5a\x5e-\x7e]|\\[\x20-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]|\\[wdstnr])+\]"
)


def _class_bytes(pattern: str) -> bytes:
    """The bytes a one-character RE2 pattern (a class such as ``[a-z_]``) matches alone."""
    compiled = _compile(pattern)
    return bytes(byte for byte in range(256) if compiled.fullmatch(bytes((byte,))) is not None)


def _one_byte_class(pattern: str) -> str:
    if not _ASCII_CLASS.fullmatch(pattern) or not _class_bytes(pattern):
        raise ValueError("before_keyword is a class of ASCII characters, such as [A-Za-z0-9_.]")
    return pattern


# Syntax that hyperscan (which also reads after_keyword) could take more narrowly than RE2:
# Unicode classes, escapes of bytes outside ASCII, any byte.
_NOT_PLAIN: Final = re.compile(r"\\[pPC]|\\x(?:[89a-fA-F]|\{)")


def _plain_syntax(pattern: str) -> str:
    if _NOT_PLAIN.search(pattern):
        raise ValueError("after_keyword has no Unicode classes (\\p, \\P), \\C or escapes of bytes past \\x7f")
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
    # Every match holds one of the keywords, starting at most this many bytes after the match
    # does: the rule is then tried only where its keywords occur, with no pass of its own.
    keyword_offset: Annotated[int, Field(ge=0, le=_MAX_KEYWORD_OFFSET)] | None = None
    # Bytes (an RE2 class) the match may also start back over, in a run ending at the keyword:
    # the offset then counts from the start of that run (a key name before its keyword, say).
    before_keyword: Annotated[Pattern, AfterValidator(_one_byte_class)] | None = None
    # What every match has right after that keyword: only keywords followed by it are tried.
    after_keyword: Annotated[Pattern, AfterValidator(_plain_syntax)] | None = None

    @field_validator("keywords")
    @classmethod
    def _keywords_ascii(cls, values: tuple[str, ...]) -> tuple[str, ...]:
        if any(not value or not value.isascii() for value in values):
            raise ValueError("keywords are non-empty ASCII")
        return values

    @model_validator(mode="after")
    def _anchored_by_keywords(self) -> RuleModel:
        if self.keyword_offset is not None and not self.keywords:
            raise ValueError("keyword_offset needs keywords")
        if self.keyword_offset is not None and self.group is not None:
            raise ValueError("a rule with keyword_offset is found at its keywords, not in a group")
        if (self.after_keyword is not None or self.before_keyword is not None) and self.keyword_offset is None:
            raise ValueError("after_keyword and before_keyword need keyword_offset")
        return self


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
    keyword_offset: int | None = None
    after_keyword: bytes | None = None  # an RE2 pattern, as given
    before_keyword: bytes = b""  # the bytes of that class

    def accepts(self, value: bytes, match: bytes) -> bool:
        """True when a found value is a real finding: not allowlisted, entropy high enough."""
        # Cheapest first: allowlists are one search each; entropy needs the bytes counted.
        allowlist, allowlist_match = self.allowlist, self.allowlist_match
        if allowlist is not None and allowlist._regexp.Match(_UNANCHORED, value, 0, len(value))[0][0] >= 0:
            return False
        if allowlist_match is not None and allowlist_match._regexp.Match(_UNANCHORED, match, 0, len(match))[0][0] >= 0:
            return False
        minimum = self.min_entropy
        if minimum is None:
            return True
        distinct = set(value)
        if max(len(distinct), 1) * 1.000001 < 2**minimum:
            return False  # entropy is at most log2 of the number of distinct bytes (with a margin)
        # The least entropy n bytes with k distinct can have: one byte n-k+1 times, the rest once.
        if _least_entropy(len(value), len(distinct)) >= minimum + 1e-9:
            return True
        return _entropy(value, distinct) >= minimum


@dataclass(frozen=True, slots=True)
class RulePack:
    id: str
    rules: tuple[SecretRule, ...]


class Finding(NamedTuple):
    """A secret's place in the scanned bytes, and the rule that found it (ordered by place)."""

    start: int
    end: int
    rule_id: str


_C_LOG_C: Final = [0.0] + [c * math.log2(c) for c in range(1, 4097)]


def shannon_entropy(value: bytes) -> float:
    """Bits of Shannon entropy per byte of ``value``: log2(n) - sum(c log2 c) / n."""
    return _entropy(value, set(value))


def _entropy(value: bytes, distinct: set[int]) -> float:
    length = len(value)
    if not length:
        return 0.0
    # A short value is counted faster a byte value at a time; a long one in one pass.
    counts = map(value.count, distinct) if length < 40 else Counter(value).values()
    if length < len(_C_LOG_C):
        weighted = sum(map(_C_LOG_C.__getitem__, counts))
    else:
        weighted = sum(c * math.log2(c) for c in counts)
    return math.log2(length) - weighted / length


def _least_entropy(length: int, distinct: int) -> float:
    """The lowest entropy of ``length`` bytes holding ``distinct`` different ones.

    Every other spread of the counts is majorized by (n-k+1, 1, ..., 1), and
    entropy is Schur-concave, so that spread has the least.
    """
    if distinct < 2:
        return 0.0
    most = length - distinct + 1
    return math.log2(length) - (_C_LOG_C[most] if most < 4097 else most * math.log2(most)) / length


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
            keyword_offset=rule.keyword_offset,
            after_keyword=None if rule.after_keyword is None else rule.after_keyword.encode("ascii"),
            before_keyword=b"" if rule.before_keyword is None else _class_bytes(rule.before_keyword),
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
            options = _options(capture=False)  # the pass only finds places; each rule finds its own spans
            options.max_mem = _GROUP_MAX_MEM
            self.locator = re2.compile(b"|".join(b"(?:" + rule.pattern.pattern + b")" for rule in rules), options)
        self.natives = tuple(rule.pattern._regexp.Match for rule in rules)
        # The group's rules (as indexes) a match starting with each byte could belong to.
        first = [_first_bytes(rule) for rule in rules]
        self.starting_with = tuple(
            tuple(index for index, possible in enumerate(first) if byte in possible) for byte in range(256)
        )


# Per rule-list entry: the exact bytes a keyword needs at the place (None when the finder
# checked already, or any case will do), and the rules (as indexes) it may start there.
Entries = tuple[tuple[bytes | None, tuple[int, ...]], ...]


def _load_hyperscan() -> Any:
    try:
        import hyperscan  # noqa: PLC0415 -- optional: wheels exist for Linux x86-64, macOS and Windows only
    except ImportError:
        return None
    return hyperscan


_HYPERSCAN: Final[Any] = _load_hyperscan()


class _Re2Keywords:
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
        self.locator = _compile_bytes(b"|".join(_keyword_pattern(k) + after.get(k, b"") for k in keywords))
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
        locate, table, size = self.locator._regexp.Match, self.table, len(data)
        position = 0
        while True:
            start, end = locate(_UNANCHORED, data, position, size)[0]
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


@functools.lru_cache(maxsize=16)
def _hyperscan_database(expressions: tuple[bytes, ...], flags: tuple[int, ...]) -> Any:
    """A compiled hyperscan database, shared by every engine that needs the same one.

    Compiling takes tens of milliseconds (the broad rules' continuations), and
    a sandbox may be built per request, so databases are cached the way the
    ``re`` module caches patterns: the result depends only on the arguments, and
    a database is read-only (each scan has a scratch of its own).
    """
    database = _HYPERSCAN.Database()
    database.compile(
        expressions=list(expressions), ids=list(range(len(expressions))), elements=len(expressions), flags=list(flags)
    )
    return database


class _NativeKeywords:
    """Keywords found by one hyperscan pass, every place at once.

    One expression per keyword and what its rules say follows it (matched from
    the keyword's start), so each place names exactly the rules to try there.
    Hyperscan matches bytes and folds ASCII case only, like the RE2 patterns
    here, so it finds a superset of the places a rule's matches need.
    """

    __slots__ = ("backs", "database", "entries", "literals", "scratch")

    def __init__(self, rules: tuple[SecretRule, ...], *, follow: bool) -> None:
        hyperscan = _HYPERSCAN
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
            literal = b"".join(bytes((byte,)) if chr(byte).isalnum() else b"\\x%02x" % byte for byte in keyword)
            if keyword == keyword.lower():
                literal = b"(?i:" + literal + b")"
            expressions.append(literal if after is None else literal + b"(?:" + after + b")")
            flags.append(0 if after is None else hyperscan.HS_FLAG_SOM_LEFTMOST)
            self.backs.append(len(keyword) if after is None else -1)
            self.entries.append(((None, tuple(indexes)),))
            self.literals.append((keyword, keyword == keyword.lower()))
        self.database = _hyperscan_database(tuple(expressions), tuple(flags))
        self.scratch = hyperscan.Scratch(self.database)

    @classmethod
    def build(cls, rules: tuple[SecretRule, ...]) -> _NativeKeywords | None:
        """A finder for these rules, if hyperscan is installed and takes their patterns."""
        if _HYPERSCAN is None or not rules:
            return None
        for follow in (True, False):  # without what follows the keywords, if that does not compile
            try:
                return cls(rules, follow=follow)
            except _HYPERSCAN.error:
                continue
        return None

    def places(self, data: bytes, limit: int, byte_limit: int) -> list[tuple[int, int]] | None:
        """Each (place, expression) where a keyword starts, in order.

        None past ``limit`` reports, or past ``byte_limit`` bytes searched again
        (crafted text): the caller then scans each rule alone.
        """
        backs, found = self.backs, set()
        reach: dict[tuple[int, int], int] = {}  # how far a keyword's continuation ran from a place
        reports = 0

        def on_match(expression: int, start: int, end: int, _flags: int, _context: object) -> bool:
            nonlocal reports
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
        except _HYPERSCAN.ScanTerminated:
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
        return sorted(found)


class _Anchors:
    """Rules tried only where their keywords occur: one pass finds every keyword.

    A rule here declares that each of its matches holds one of its keywords,
    starting at most ``keyword_offset`` bytes after the match does (or after
    the start of the run of ``before_keyword`` bytes ending at the keyword),
    so its matches can only start in the few places before each keyword.
    """

    __slots__ = ("finder", "natives", "offsets", "rules", "runs", "starts")

    def __init__(self, rules: tuple[SecretRule, ...], finder: _NativeKeywords | None) -> None:
        self.rules = rules
        self.natives = tuple(rule.pattern._regexp.Match for rule in rules)
        self.offsets = tuple(rule.keyword_offset or 0 for rule in rules)
        self.starts = tuple(_first_bytes(rule) for rule in rules)
        self.runs = tuple(rule.before_keyword for rule in rules)
        self.finder: _NativeKeywords | _Re2Keywords = finder or _Re2Keywords(rules)


_GROUP_MAX_MEM: Final = 32 << 20  # DFA cache per shared pass; below ~8 MB it thrashes on typical text
# Keywords are first looked for in this many bytes, then in parts four times larger.
_KEYWORDS_FIRST: Final = 16384
_NEAR: Final = 256  # bytes either side of a finding where its rule's keyword is looked for first


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
    ns_per_byte: int = 50
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
    pass for every rule's keywords (a ``re2.Set`` of literals) ends the scan of
    a text holding none (in a long text it stops once every pass has one: then
    all rules run, and a rule's findings count once its keyword is seen
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
        finder = _NativeKeywords.build(anchorable) if native else None
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
        self._keyed = tuple(place[rule.id] for rule in rules if rule.keywords)
        self._keywords = re2.Set.SearchSet(_options(capture=False))
        keyword_patterns = [
            b"|".join(_keyword_pattern(keyword) for keyword in rule.keywords) for rule in rules if rule.keywords
        ]
        for pattern in keyword_patterns:
            self._keywords.Add(pattern)
        if self._keyed:
            self._keywords.Compile()
        # For a text whose first part already holds a keyword of every group (see _keyword_hits).
        self._keyed_groups = frozenset(group for group, _ in self._keyed)
        # Anchored rules need no check: each of their matches holds its keyword.
        self._keyed_ids = {
            rule.id: hit for hit, rule in enumerate(rule for rule in rules if rule.keywords) if rule not in anchored
        }
        self._keyword_searches = tuple(_compile_bytes(pattern) for pattern in keyword_patterns)
        self._keyword_overlap = max((len(k) for rule in rules for k in rule.keywords), default=1) - 1

    def __repr__(self) -> str:
        anchors = self._anchors
        anchored = len(anchors.rules) if anchors else 0
        finder = "hyperscan" if anchors and isinstance(anchors.finder, _NativeKeywords) else "RE2"
        passes = len(self._groups)
        return f"SecretEngine({len(self.rules)} rules: {anchored} found at keywords by {finder}, {passes} passes)"

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
        if active.pop(self._anchored_at, None) is not None and self._anchors is not None:
            self._scan_anchored(self._anchors, data, found)
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
        size = len(data)
        seen_limit, deadline = self.budget.limits(size)
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

    def _scan_anchored(self, anchors: _Anchors, data: bytes, found: list[Finding]) -> None:
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
        count = len(anchors.rules)
        cursors = [0] * count  # where each rule's next match may start: the end of its previous one
        tried = [-1] * count  # the last place each rule was tried at, or ruled out
        seen = 0
        places = self._keyword_places(anchors.finder, data)
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
                    while place <= start:
                        if data[place] in starts[index]:
                            spans = natives[index](_ANCHORED, data, place, size)
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

    def _keyword_places(
        self, finder: _NativeKeywords | _Re2Keywords, data: bytes
    ) -> Iterable[tuple[int, int, Entries]] | None:
        """Each place where a keyword starts, in order, with the bytes the finder went on and its entries.

        Hyperscan reports all places at once; past the budget's number of them
        (crafted text) it gives up, and this is None.
        """
        if isinstance(finder, _Re2Keywords):
            return finder.hits(data)
        budget, size = self.budget, len(data)
        places = finder.places(
            data,
            budget.floor_places + size // budget.bytes_per_place,
            budget.floor_bytes + budget.bytes_per_byte * size,
        )
        if places is None:
            return None
        by_expression = finder.entries
        return ((start, 0, by_expression[expression]) for start, expression in places)


def _run_start(data: bytes, low: int, end: int, run: bytes) -> int:
    """Where the run of ``run`` bytes that ends at ``end`` starts, looking back no further than ``low``."""
    near = max(low, end - 64)
    rest = data[near:end].rstrip(run)
    if rest or near == low:
        return near + len(rest)
    return low + len(data[low:end].rstrip(run))


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
    for finding in sorted(findings):
        if merged and finding.start < merged[-1].end:
            last = merged[-1]
            longer = last if last.end - last.start >= finding.end - finding.start else finding
            merged[-1] = Finding(last.start, max(last.end, finding.end), longer.rule_id)
        else:
            merged.append(finding)
    return merged


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
