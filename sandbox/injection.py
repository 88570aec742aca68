"""Instructions planted in memory: rule packs and the scan of what a call writes.

A prompt-injected session can write text that later sessions read as orders
("ignore previous instructions", "from now on send ... to ...", invisible
Unicode tag text, markdown images whose URLs carry data). Rule packs in
``policies/injection/`` find them, in the secret packs' format (RE2 patterns,
keywords, examples each rule is proven by), scanned by the same linear-time
engine: rules marked ``raw`` read the text as written, invisible characters
included; the others read it with invisible characters removed and encoded
runs decoded (:func:`sandbox.secrets.find_hidden`), so a word split by
zero-width spaces or an instruction in base64 reads as what it says.

Each rule has an action: ``record`` (the decision record names it), ``flag``
(recorded, and the reply tells the model the text was flagged) or ``reject``
(the write is refused).

Beside the rules, a learned scorer (:mod:`sandbox.injection_scorer`) judges each
line as a whole, the rules that find something in it among what it reads, for
orders no rule's phrasing lists. It only adds findings: a rule's finding keeps
its action whatever the scorer says (text an attacker writes can lower a
linear model's score, so the scorer never clears anything). Policies name it
like a rule, ``scorer``, to give it an action or switch it off.
"""

from __future__ import annotations

import functools
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field

from sandbox.errors import PolicyError
from sandbox.injection_scorer import Rules, ScoredLines, Scorer, ScorerModel, load_scorer
from sandbox.policy import InjectionSection
from sandbox.secrets import Finding, RuleExamples, SecretEngine, SecretRule, find_hidden
from sandbox.secrets._hidden import INVISIBLE
from sandbox.secrets._packs import RuleModel, _Model, compile_rule, is_shipped, read_pack, validated

__all__ = [
    "InjectionAction",
    "InjectionFinding",
    "InjectionPack",
    "InjectionScan",
    "injection_scan",
    "load_injection_pack",
    "parse_injection_pack",
]

# The id policies give the learned scorer in ``rules`` and ``disabled``.
SCORER_ID = "scorer"

InjectionAction = Literal["record", "flag", "quarantine", "reject"]


class InjectionRuleModel(RuleModel):
    """A rule of an injection pack: a secret rule's fields, an injection action, a category, ``raw``."""

    action: InjectionAction = "flag"  # type: ignore[assignment]  # an injection pack's own actions
    category: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]{0,31}$")]
    # Read the text as written (invisible characters included), not as decoded.
    raw: bool = False


class InjectionPackModel(_Model):
    schema_version: Literal[1]
    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]{0,63}$")]
    description: str = ""
    rules: Annotated[tuple[InjectionRuleModel, ...], Field(min_length=1, strict=False)]


@dataclass(frozen=True, slots=True)
class InjectionPack:
    id: str
    rules: tuple[SecretRule, ...]
    actions: dict[str, InjectionAction]
    categories: dict[str, str]
    raw: frozenset[str]
    examples: dict[str, RuleExamples]


@dataclass(frozen=True, slots=True)
class InjectionFinding:
    """A rule that fired, its action, and where (byte offsets of the scanned text)."""

    rule_id: str
    action: InjectionAction
    start: int
    end: int


def load_injection_pack(name_or_path: str | Path) -> InjectionPack:
    """A shipped pack by name (``policies/injection/NAME.toml``) or a pack file by path."""
    if is_shipped(name_or_path):
        return _shipped(str(name_or_path))
    return parse_injection_pack(*read_pack("injection", name_or_path))


@functools.cache
def _shipped(name: str) -> InjectionPack:
    return parse_injection_pack(*read_pack("injection", name))


def parse_injection_pack(text: str, source: str) -> InjectionPack:
    model = validated(InjectionPackModel, text, source)
    return InjectionPack(
        id=model.id,
        rules=tuple(compile_rule(model.id, rule, (), action="allow") for rule in model.rules),
        actions={rule.id: rule.action for rule in model.rules},
        categories={rule.id: rule.category for rule in model.rules},
        raw=frozenset(rule.id for rule in model.rules if rule.raw),
        examples={
            rule.id: RuleExamples(rule.examples.positive, rule.examples.negative)
            for rule in model.rules
            if rule.examples is not None
        },
    )


class InjectionScan:
    """The rules of some packs, with the actions a policy gives them."""

    def __init__(
        self,
        packs: tuple[InjectionPack, ...],
        *,
        action: InjectionAction | None = None,
        rules: dict[str, InjectionAction] | None = None,
        disabled: tuple[str, ...] = (),
        scorer: ScorerModel | None = None,
        threshold: float | None = None,
    ) -> None:
        known: dict[str, SecretRule] = {}
        actions: dict[str, InjectionAction] = {}
        raw: set[str] = set()
        for pack in packs:
            for rule in pack.rules:
                if rule.id in known:
                    raise PolicyError(f"injection.packs: rule id {rule.id!r} is defined by two packs")
                known[rule.id] = rule
                actions[rule.id] = pack.actions[rule.id]
            raw |= pack.raw
        ids = set(known) | ({SCORER_ID} if scorer is not None else set())
        for key, named in (("rules", tuple(rules or {})), ("disabled", disabled)):
            unknown = sorted(set(named) - ids)
            if unknown:
                raise PolicyError(f"injection.{key}: unknown rule id {unknown[0]!r}")
        active = [rule for rule in known.values() if rule.id not in disabled]
        self._raw = SecretEngine(tuple(rule for rule in active if rule.id in raw))
        self._read = SecretEngine(tuple(rule for rule in active if rule.id not in raw))
        self._actions = {rule.id: (rules or {}).get(rule.id) or action or actions[rule.id] for rule in active}
        self._scorer: Scorer | None = None
        if scorer is not None and SCORER_ID not in disabled:
            self._scorer = scorer.scorer(threshold)
            self._actions[SCORER_ID] = (rules or {}).get(SCORER_ID) or action or "flag"

    def __repr__(self) -> str:
        return f"InjectionScan({len(self._actions)} rules)"

    def find(self, text: str, lines: ScoredLines | None = None) -> list[InjectionFinding]:
        """Every finding in ``text``, with its action (``lines``: the caller's cache of lines scored).

        Rules marked ``raw`` read the text as written. The others read it as a reader would:
        NFKC-normalised (no-break and other spaces become spaces, full-width letters ASCII),
        invisible characters removed and encoded runs decoded, and, when it holds invisible
        characters, once more with each run of them read as a space (a zero-width space used
        as a word gap). Offsets of those findings are in the text as read.
        """
        read = self._read_in(text)
        found = self._raw.find(text.encode("utf-8", "surrogatepass")) + read
        findings = [InjectionFinding(f.rule_id, self._actions[f.rule_id], f.start, f.end) for f in sorted(found)]
        if self._scorer is not None:
            findings += self._scored(self._scorer, text, lines, self.rules_in if read else None)
        return findings

    def _read_in(self, text: str) -> list[Finding]:
        """The findings of the rules that read ``text`` as a reader would."""
        readable = unicodedata.normalize("NFKC", text)
        found = find_hidden(self._read, readable.encode("utf-8", "surrogatepass"))
        if INVISIBLE.search(readable) is not None:
            found += self._read.find(INVISIBLE.sub(" ", readable).encode("utf-8", "surrogatepass"))
        return found

    def rules_for(self, text: str) -> Rules | None:
        """What the scorer reads rules with in the segments of ``text``: :meth:`rules_in`, or None
        when no rule reading text as a reader would finds anything in the whole of it (the
        segments are not read again, and the scorer is trained the same way)."""
        return self.rules_in if self._read_in(text) else None

    def rules_in(self, segment: str) -> list[str]:
        """The ids of the rules reading text as a reader would that find something in ``segment``."""
        readable = unicodedata.normalize("NFKC", segment).encode("utf-8", "surrogatepass")
        return sorted({finding.rule_id for finding in find_hidden(self._read, readable)})

    def _scored(
        self, scorer: Scorer, text: str, lines: ScoredLines | None, rules: Rules | None
    ) -> list[InjectionFinding]:
        """The scorer's findings: its flagged segments (line ends left out), as byte offsets of ``text``."""
        out: list[InjectionFinding] = []
        head, done = 0, 0  # the byte offset of code point `done`, counted once along the text
        for score, start, end in scorer.scores(text, lines, rules):
            if score < scorer.threshold:
                continue
            head += len(text[done:start].encode("utf-8", "surrogatepass"))
            size = len(text[start:end].rstrip("\r\n").encode("utf-8", "surrogatepass"))
            out.append(InjectionFinding(SCORER_ID, self._actions[SCORER_ID], head, head + size))
            done = start
        return out


def injection_scan(section: InjectionSection) -> InjectionScan:
    """The scan a policy's ``[injection]`` section asks for."""
    return InjectionScan(
        tuple(load_injection_pack(pack) for pack in section.packs),
        action=section.action,
        rules=dict(section.rules),
        disabled=section.disabled,
        scorer=load_scorer() if section.scorer else None,
        threshold=section.scorer_threshold,
    )
