"""Rule packs: the TOML format, validated by pydantic, compiled into :class:`RulePack`.

A pack is ``schema_version``, ``id``, a pack-wide ``allowlist`` and ``[[rules]]``.
Each rule may carry ``[rules.examples]``: texts it must find a secret in
(``positive``) and texts it must find none in (``negative``), at least two of
each; :func:`check_examples` runs them, each rule alone, so a rule is proven by
its own examples and not by whichever other rule happens to catch them.
"""

from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Annotated, Final, Literal, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from sandbox.errors import PolicyError
from sandbox.secrets._checksums import Checksum
from sandbox.secrets._re2 import alternation, check_pattern, class_bytes, compile_pattern, one_byte_class
from sandbox.secrets._rules import Action, SecretRule

__all__ = [
    "PackModel",
    "RuleExamples",
    "RuleModel",
    "RulePack",
    "compile_rule",
    "is_shipped",
    "load_pack",
    "parse_pack",
    "read_pack",
    "validated",
]

_PACK_NAME: Final = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
_MAX_KEYWORD_OFFSET: Final = 96


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
Pattern = Annotated[str, AfterValidator(check_pattern)]
Patterns = Annotated[tuple[Pattern, ...], Field(strict=False)]


class ExamplesModel(_Model):
    positive: Annotated[Strings, Field(min_length=2)]
    negative: Annotated[Strings, Field(min_length=2)]


class RuleModel(_Model):
    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]{0,63}$")]
    description: Annotated[str, Field(min_length=1)]
    # Where the format is documented (the provider's own page, as a URL).
    source: str = ""
    pattern: Annotated[Pattern, Field(min_length=1)]
    keywords: Strings = ()
    min_entropy: Annotated[float, Field(ge=0, le=8)] | None = None
    # For values of 32 or more hex digits (at most 4 bits a character): a lower minimum.
    min_entropy_hex: Annotated[float, Field(ge=0, le=4)] | None = None
    # A checksum the format carries: a value whose checksum holds skips allowlists and entropy.
    checksum: Checksum | None = None
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
    before_keyword: Annotated[Pattern, AfterValidator(one_byte_class)] | None = None
    # What every match has right after that keyword: only keywords followed by it are tried.
    after_keyword: Annotated[Pattern, AfterValidator(_plain_syntax)] | None = None
    # Texts the rule must find a secret in, and texts it must leave alone (see check_examples).
    examples: ExamplesModel | None = None

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
class RuleExamples:
    """Texts a rule must find a secret in, and texts it must find none in."""

    positive: tuple[str, ...]
    negative: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RulePack:
    id: str
    rules: tuple[SecretRule, ...]
    # Rule id -> its examples, for the rules that carry them.
    examples: dict[str, RuleExamples] = field(default_factory=dict, compare=False)
    # The pack-wide allowlist, as written (each rule holds it compiled with its own).
    allowlist: tuple[str, ...] = ()


def is_shipped(name_or_path: str | Path) -> bool:
    """Whether a policy names a shipped pack (a bare name) rather than a pack file."""
    return isinstance(name_or_path, str) and _PACK_NAME.fullmatch(name_or_path) is not None


def read_pack(folder: str, name_or_path: str | Path) -> tuple[str, str]:
    """The TOML of a shipped pack (``policies/<folder>/NAME.toml``) or of a pack file, and the name
    it is reported by. Shipped packs cannot change while the process runs, so loaders cache what
    they compile from them; a pack file is read again each time, so an edit takes effect."""
    if is_shipped(name_or_path):
        entry = resources.files("policies") / folder / f"{name_or_path}.toml"
        if not entry.is_file():
            raise PolicyError(f"{name_or_path}: no such {folder} rule pack")
        return entry.read_text(encoding="utf-8"), f"{folder}/{name_or_path}.toml"
    path = Path(name_or_path)
    try:
        return path.read_text(encoding="utf-8"), path.name
    except (OSError, UnicodeDecodeError) as exc:
        raise PolicyError(f"{path.name}: cannot read rule pack ({type(exc).__name__})") from None


def load_pack(name_or_path: str | Path) -> RulePack:
    """A shipped pack by name (``policies/secrets/NAME.toml``) or a pack file by path."""
    if is_shipped(name_or_path):
        return _shipped_pack(str(name_or_path))
    return parse_pack(*read_pack("secrets", name_or_path))


@functools.cache
def _shipped_pack(name: str) -> RulePack:
    return parse_pack(*read_pack("secrets", name))


def compile_rule(
    pack_id: str, rule: RuleModel, pack_allowlist: tuple[str, ...], *, action: Action | None = None
) -> SecretRule:
    """A rule of a pack, compiled (``action``: in place of the rule's own, for packs whose actions differ)."""
    pattern = compile_pattern(rule.pattern)
    return SecretRule(
        id=rule.id,
        description=rule.description,
        action=action or rule.action,
        pattern=pattern,
        secret_group=pattern.groupindex.get(b"secret", 0),
        keywords=tuple(keyword.encode("utf-8") for keyword in rule.keywords),
        min_entropy=rule.min_entropy,
        min_entropy_hex=rule.min_entropy_hex,
        allowlist=alternation(pack_allowlist + rule.allowlist),
        allowlist_match=alternation(rule.allowlist_match),
        group=f"{pack_id}/{rule.group or rule.id}",
        keyword_offset=rule.keyword_offset,
        after_keyword=None if rule.after_keyword is None else rule.after_keyword.encode("ascii"),
        before_keyword=b"" if rule.before_keyword is None else class_bytes(rule.before_keyword),
        checksum=rule.checksum,
    )


_PackT = TypeVar("_PackT", bound=BaseModel)


def validated(model: type[_PackT], text: str, source: str) -> _PackT:
    """A pack's TOML validated as ``model``, with unique rule ids; PolicyError naming each wrong field."""
    try:
        pack = model.model_validate(tomllib.loads(text))
    except tomllib.TOMLDecodeError as exc:
        raise PolicyError(f"{source}: invalid TOML: {exc}") from None
    except ValidationError as exc:
        lines = [
            f"{source}: {'.'.join(str(p) for p in err['loc'])}: {err['msg'].removeprefix('Value error, ')}"
            for err in exc.errors(include_url=False)
        ]
        raise PolicyError("\n".join(lines)) from None
    ids = [rule.id for rule in getattr(pack, "rules", ())]
    if len(ids) != len(set(ids)):
        raise PolicyError(f"{source}: rules: duplicate rule id")
    return pack


def parse_pack(text: str, source: str) -> RulePack:
    model = validated(PackModel, text, source)
    rules = tuple(compile_rule(model.id, rule, model.allowlist) for rule in model.rules)
    examples = {
        rule.id: RuleExamples(rule.examples.positive, rule.examples.negative)
        for rule in model.rules
        if rule.examples is not None
    }
    return RulePack(model.id, rules, examples, model.allowlist)
