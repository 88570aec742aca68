"""Secret detection: rule packs, a linear-time matcher, and redaction.

Rule packs (``policies/secrets/*.toml``) are validated by pydantic and compiled
with RE2, whose matching time is linear in the input whatever the pattern, since
the text is attacker-influenced. :class:`SecretEngine` finds every rule's
matches, each rule exactly what a pass of its own would, in time linear in the
text. A value is a finding unless an allowlist marks it as a known dummy or its
entropy is below the rule's minimum. Findings carry offsets and rule ids, never
the value.

Modules: ``_re2`` (the RE2 binding, the one place its internals are used),
``_rules`` (compiled rules, findings, entropy, redaction), ``_packs`` (the pack
format and loader), ``_keywords`` (finding keyword places), ``_engine`` (the
scan), ``_hidden`` (invisible characters and encoded runs), ``_checksums`` (token
checksums), ``_examples`` (running the examples packs carry for their rules).
"""

from __future__ import annotations

from sandbox.secrets._engine import ScanBudget, SecretEngine
from sandbox.secrets._examples import ExampleFailure, check_examples
from sandbox.secrets._hidden import Unwrapping, find_hidden
from sandbox.secrets._keywords import NativeKeywords as _NativeKeywords  # noqa: F401 -- tests reach engine internals
from sandbox.secrets._packs import RuleExamples, RulePack, load_pack
from sandbox.secrets._re2 import compile_bytes as _compile_bytes  # noqa: F401 -- tests reach engine internals
from sandbox.secrets._rules import Action, Finding, SecretRule, redact, shannon_entropy
from sandbox.secrets._rules import merge as _merge  # noqa: F401 -- tests reach engine internals

__all__ = [
    "Action",
    "ExampleFailure",
    "Finding",
    "RuleExamples",
    "RulePack",
    "ScanBudget",
    "SecretEngine",
    "SecretRule",
    "Unwrapping",
    "check_examples",
    "find_hidden",
    "load_pack",
    "redact",
    "shannon_entropy",
]
