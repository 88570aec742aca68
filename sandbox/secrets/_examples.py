"""Running the examples a pack carries for its rules, each rule alone.

A positive example is a text the rule must find a secret in; a negative one a
text it must find nothing in. Each rule runs in an engine of its own, so an
example passes because of that rule and no other (a broad rule catching a
narrow rule's secrets would otherwise hide that the narrow rule is broken).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from sandbox.secrets._engine import SecretEngine
from sandbox.secrets._packs import RulePack

__all__ = ["ExampleFailure", "check_examples"]


@dataclass(frozen=True, slots=True)
class ExampleFailure:
    """One example a rule got wrong; ``index`` counts from 0 in the rule's list."""

    rule_id: str
    kind: Literal["positive", "negative"]
    index: int

    def __str__(self) -> str:
        wrong = "finds nothing in" if self.kind == "positive" else "finds a secret in"
        return f"rule {self.rule_id} {wrong} its {self.kind} example {self.index + 1}"


def check_examples(pack: RulePack) -> tuple[int, list[ExampleFailure]]:
    """The number of examples run, and those each rule, alone, gets wrong."""
    failures: list[ExampleFailure] = []
    run = 0
    for rule in pack.rules:
        examples = pack.examples.get(rule.id)
        if examples is None:
            continue
        engine = SecretEngine((rule,))
        for index, text in enumerate(examples.positive):
            run += 1
            if not engine.find(text.encode("utf-8")):
                failures.append(ExampleFailure(rule.id, "positive", index))
        for index, text in enumerate(examples.negative):
            run += 1
            if engine.find(text.encode("utf-8")):
                failures.append(ExampleFailure(rule.id, "negative", index))
    return run, failures
