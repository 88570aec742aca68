"""What each stage of a policy would decide for a command, without touching storage.

:func:`explain` runs parsing, canonicalisation and every stage of the policy on one
tool input and reports each verdict; the stages run independently, so a denial
early on does not hide what later stages think. The command is planned against an
empty store, so checks of stored state (quota, a file's size after an edit, case
twins) say only what they would on an empty store, and are listed as not evaluated.
:func:`run_tests` checks policy test cases written in TOML against these verdicts,
like ``opa test``.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from sandbox.commands import canonicalize_command, operation_paths, parse_command
from sandbox.decision import CallContext
from sandbox.effects import PlainLens, plan
from sandbox.errors import PolicyError, SandboxError
from sandbox.pipeline import Scans, default_stages
from sandbox.policy import Policy, load_policy
from sandbox.storage.memory import InMemoryStorage

__all__ = ["CaseResult", "StageVerdict", "explain", "final_decision", "run_tests"]

Verdict = Literal["allow", "deny", "redact", "not evaluated"]
_STORE_CHECKS = "quota, file size and lines after an edit, case twins, the stored content's secrets"


@dataclass(frozen=True, slots=True)
class StageVerdict:
    stage: str
    verdict: Verdict
    rule_id: str = ""
    message: str = ""


def explain(policy: Policy, untrusted_input: object, context: CallContext | None = None) -> list[StageVerdict]:
    """The verdict of each step for one tool input."""
    try:
        parsed = parse_command(untrusted_input, max_string_bytes=policy.limits.max_string_bytes)
    except SandboxError as exc:
        return [StageVerdict("parse", "deny", exc.rule_id or exc.code, exc.message)]
    verdicts = [StageVerdict("parse", "allow")]
    try:
        op = canonicalize_command(parsed, policy.path_limits)
    except SandboxError as exc:
        return [*verdicts, StageVerdict("canonicalize", "deny", exc.rule_id, exc.message)]
    verdicts.append(StageVerdict("canonicalize", "allow", message=" ".join(str(p) for p in operation_paths(op))))
    effect = plan(op, InMemoryStorage(), PlainLens(), context or CallContext())
    for stage in default_stages(policy, Scans.of(policy)):
        name = type(stage).__name__
        try:
            out = stage(effect)
        except SandboxError as exc:
            verdicts.append(StageVerdict(name, "deny", exc.rule_id, exc.message))
            continue
        new_notes = out.notes[len(effect.notes) :]
        if new_notes:
            rules = ", ".join(note.rule_id for note in new_notes)
            # Redactions change what is stored; other notes (flagged instructions) only record.
            verdict: Verdict = "redact" if any(note.rule_id.startswith("secret.") for note in new_notes) else "allow"
            verdicts.append(StageVerdict(name, verdict, rules, "; ".join(note.reason for note in new_notes)))
        else:
            verdicts.append(StageVerdict(name, "allow"))
    verdicts.append(StageVerdict("store", "not evaluated", message=f"needs storage: {_STORE_CHECKS}"))
    return verdicts


def final_decision(verdicts: list[StageVerdict]) -> tuple[str, str]:
    """The call's decision and rule id: the first denial, else redact if any stage redacted, else allow."""
    for verdict in verdicts:
        if verdict.verdict == "deny":
            return "deny", verdict.rule_id
    redactions = [v.rule_id for v in verdicts if v.verdict == "redact"]
    return ("redact", redactions[0].split(", ")[0]) if redactions else ("allow", "")


@dataclass(frozen=True, slots=True)
class CaseResult:
    file: str
    name: str
    passed: bool
    detail: str


def run_tests(path: Path) -> list[CaseResult]:
    """Run the cases of one policy test file.

    The file names its ``policy`` (a profile or a path relative to the file) and lists
    ``[[cases]]`` with ``name``, ``input`` (the tool input), ``expect`` (allow, deny or
    redact) and optionally ``rule`` (the rule id the decision must name).
    """
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise PolicyError(f"{path.name}: cannot read test file ({exc})") from None
    policy_name = data.get("policy", "default")
    cases = data.get("cases")
    if not isinstance(policy_name, str) or not isinstance(cases, list) or not cases:
        raise PolicyError(f"{path.name}: a test file has `policy` (a string) and at least one [[cases]] table")
    candidate = path.parent / policy_name
    policy = load_policy(candidate if candidate.suffix == ".toml" else policy_name)
    return [_run_case(path.name, policy, index, case) for index, case in enumerate(cases)]


def _run_case(file: str, policy: Policy, index: int, case: Any) -> CaseResult:
    if not isinstance(case, dict) or not {"name", "input", "expect"} <= case.keys():
        raise PolicyError(f"{file}: cases.{index}: needs name, input and expect")
    unknown = set(case) - {"name", "input", "expect", "rule"}
    if unknown:
        raise PolicyError(f"{file}: cases.{index}.{sorted(unknown)[0]}: unknown key")
    decision, rule = final_decision(explain(policy, case["input"]))
    expected_rule = case.get("rule")
    passed = decision == case["expect"] and (expected_rule is None or expected_rule == rule)
    got = f"{decision}" + (f" ({rule})" if rule else "")
    want = f"{case['expect']}" + (f" ({expected_rule})" if expected_rule else "")
    detail = got if passed else f"expected {want}, got {got}; input {json.dumps(case['input'])[:120]}"
    return CaseResult(file, str(case["name"]), passed, detail)
