"""Secret detection: rule packs, a linear-time matcher, and redaction.

Rule packs (``policies/secrets/*.toml``) are validated by pydantic and compiled
with RE2, whose matching time is linear in the input whatever the pattern, since
the text is attacker-influenced. :class:`SecretEngine` runs rules only where
their keywords occur and scans rules of one group in one pass. A value is a
finding unless an allowlist marks it as a known dummy or its entropy is below
the rule's minimum. Findings carry offsets and rule ids, never the value.
"""

from __future__ import annotations

import math
import re
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
    "SecretEngine",
    "SecretRule",
    "load_pack",
    "redact",
    "shannon_entropy",
]

Action = Literal["redact", "reject", "allow"]
_PACK_NAME: Final = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
_MARKER: Final = b"[REDACTED:%s]"


def _compile(pattern: str) -> Any:
    options = re2.Options()
    options.log_errors = False
    return re2.compile(pattern.encode("utf-8"), options)


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
        if self.allowlist is not None and self.allowlist.search(value):
            return False
        if self.allowlist_match is not None and self.allowlist_match.search(match):
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


class _Group:
    """Rules scanned in one pass: their patterns as one alternation."""

    __slots__ = ("rules", "scan")

    def __init__(self, rules: tuple[SecretRule, ...]) -> None:
        self.rules = rules
        if len(rules) == 1:
            self.scan = rules[0].pattern
        else:
            options = re2.Options()
            options.never_capture = True  # the pass only finds places; each rule finds its own spans
            options.max_mem = _GROUP_MAX_MEM
            options.log_errors = False
            self.scan = re2.compile(b"|".join(b"(?:" + rule.pattern.pattern + b")" for rule in rules), options)


_GROUP_MAX_MEM: Final = 32 << 20


class SecretEngine:
    """Finds secrets in bytes with a set of rules, in time linear in the input.

    Three steps: one pass for every rule's keywords (a ``re2.Set`` of literals)
    picks the candidate rules; each group holding a candidate makes one pass with
    its rules' patterns as one alternation, visiting every place where one of
    them starts a match (overlapping ones too); at each place every candidate
    rule of the group is matched anchored, so each rule finds what a pass of its
    own would. Group patterns should start at an anchor (a literal, ``\\b``):
    an anchored match then stays short and the whole scan linear.
    """

    def __init__(self, rules: tuple[SecretRule, ...]) -> None:
        self.rules = rules
        members: dict[str, list[SecretRule]] = {}
        for rule in rules:
            members.setdefault(rule.group, []).append(rule)
        self._groups = tuple(_Group(tuple(group)) for group in members.values())
        group_of = {rule.id: index for index, group in enumerate(self._groups) for rule in group.rules}
        # Rules without keywords run on every text; the others only where a keyword occurs.
        self._always = tuple((group_of[rule.id], rule) for rule in rules if not rule.keywords)
        self._keyed = tuple((group_of[rule.id], rule) for rule in rules if rule.keywords)
        self._keywords = re2.Set.SearchSet()
        for _, rule in self._keyed:
            self._keywords.Add(b"|".join(_keyword_pattern(keyword) for keyword in rule.keywords))
        if self._keyed:
            self._keywords.Compile()

    def __repr__(self) -> str:
        return f"SecretEngine({len(self.rules)} rules, {len(self._groups)} groups)"

    def find(self, data: bytes) -> list[Finding]:
        """Every finding in ``data``, overlaps merged, in order."""
        hits = self._keywords.Match(data) if self._keyed else None
        if not hits and not self._always:
            return []  # the common case: no rule's keyword occurs
        active: dict[int, list[SecretRule]] = {}
        for index, rule in (*self._always, *(self._keyed[hit] for hit in hits or ())):
            active.setdefault(index, []).append(rule)
        found: list[Finding] = []
        for index in sorted(active):
            group, rules = self._groups[index], active[index]
            if len(group.rules) == 1:
                _collect(rules[0], group.scan.finditer(data), data, found)
                continue
            # Every place where one of the group's patterns starts a match, overlapping
            # ones included: each search resumes one byte after the last start.
            position = 0
            while (place := group.scan.search(data, position)) is not None:
                start = place.start()
                for rule in rules:
                    match = rule.pattern.match(data, start)  # anchored: runs only as far as the match
                    if match is not None:
                        _collect(rule, (match,), data, found)
                position = start + 1
        return _merge(found)


def _collect(rule: SecretRule, matches: Any, data: bytes, found: list[Finding]) -> None:
    for match in matches:
        start, end = match.span(rule.secret_group)
        if start < end and rule.accepts(data[start:end], match.group(0)):
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
