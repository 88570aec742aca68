"""``memory-sandbox policy lint|show|explain|test``."""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING

from sandbox.cli.common import add_policy_option, policy_from, readable_text
from sandbox.cli.exits import UsageError

if TYPE_CHECKING:
    from sandbox.explain import CaseResult

__all__ = ["add_policy_commands"]


def add_policy_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    policy = commands.add_parser("policy", help="check, show, explain and test policies")
    sub = policy.add_subparsers(dest="policy_command", metavar="ACTION", required=True)
    lint = sub.add_parser("lint", help="validate policy files (exit 1 on any error)")
    lint.add_argument("files", nargs="+", type=Path)
    lint.set_defaults(handler=_lint)
    show = sub.add_parser("show", help="print a policy with every default filled in, as TOML")
    show.add_argument("name", help="profile name or policy file")
    show.set_defaults(handler=_show)
    why = sub.add_parser("explain", help="what each stage would decide for one tool input (no storage)")
    add_policy_option(why)
    why.add_argument("input", help='the tool input as JSON, e.g. \'{"command": "view", "path": "/memories"}\'')
    why.set_defaults(handler=_explain)
    test = sub.add_parser("test", help="run policy test cases, or the examples of secret rule packs, written in TOML")
    test.add_argument("files", nargs="+", type=Path, help="test case files, or rule pack files (their rules' examples)")
    test.set_defaults(handler=_test)


def _lint(args: argparse.Namespace) -> int:
    from sandbox.errors import PolicyError  # noqa: PLC0415 - lazy: start-up
    from sandbox.policy import load_policy  # noqa: PLC0415 - lazy: start-up
    from sandbox.redaction import SecretGuard  # noqa: PLC0415 - lazy: start-up

    failed = 0
    for path in args.files:
        try:
            policy = load_policy(readable_text(path))
            if policy.secrets.enabled:
                SecretGuard(policy.secrets)  # packs load and rule ids exist
        except (PolicyError, UsageError) as exc:  # each file is reported, and the next one checked
            failed += 1
            print(exc.message, file=sys.stderr)
        else:
            print(f"{path.name}: ok ({policy.id} r{policy.revision})")
    return 1 if failed else 0


def _show(args: argparse.Namespace) -> int:
    from sandbox.cli.toml_text import dumps  # noqa: PLC0415 - lazy: start-up
    from sandbox.policy import load_policy  # noqa: PLC0415 - lazy: start-up

    name = args.name
    policy = load_policy(Path(name) if name.endswith(".toml") else name)
    print(dumps(policy.model_dump(mode="json")), end="")
    return 0


def _explain(args: argparse.Namespace) -> int:
    from sandbox.explain import explain, final_decision  # noqa: PLC0415 - lazy: start-up

    policy = policy_from(args)
    try:
        tool_input = json.loads(args.input)
    except json.JSONDecodeError as exc:
        print(f"memory-sandbox: the input is not JSON: {exc}", file=sys.stderr)
        return 2
    verdicts = explain(policy, tool_input)
    width = max(len(v.stage) for v in verdicts)
    for verdict in verdicts:
        rule = f" [{verdict.rule_id}]" if verdict.rule_id else ""
        message = f"  {verdict.message}" if verdict.message else ""
        print(f"{verdict.stage:<{width}}  {verdict.verdict}{rule}{message}")
    decision, rule = final_decision(verdicts)
    print(f"decision: {decision}" + (f" [{rule}]" if rule else "") + f" (policy {policy.id} r{policy.revision})")
    return 0


def _test(args: argparse.Namespace) -> int:
    from sandbox.explain import run_tests  # noqa: PLC0415 - lazy: start-up

    results = [
        result
        for path in args.files
        for result in (_pack_examples(path) if _is_pack(readable_text(path)) else run_tests(path))
    ]
    for result in results:
        print(f"{'PASS' if result.passed else 'FAIL'}: {result.file}: {result.name}: {result.detail}")
    failed = sum(not result.passed for result in results)
    print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


def _is_pack(path: Path) -> bool:
    """A secret rule pack (``[[rules]]``, no ``[[cases]]``); anything else is read as a test file."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False  # run_tests reports what is wrong with it
    return "rules" in data and "cases" not in data


def _pack_examples(path: Path) -> list[CaseResult]:
    """One result per rule: its examples, run with the rule alone."""
    from sandbox.explain import CaseResult  # noqa: PLC0415 - lazy: start-up
    from sandbox.secrets import check_examples, load_pack  # noqa: PLC0415 - lazy: start-up

    pack = load_pack(path)
    _, failures = check_examples(pack)
    results = []
    for rule in pack.rules:
        examples = pack.examples.get(rule.id)
        if examples is None:
            results.append(CaseResult(path.name, rule.id, False, "no examples: give it [rules.examples]"))
            continue
        wrong = [str(failure) for failure in failures if failure.rule_id == rule.id]
        count = len(examples.positive) + len(examples.negative)
        results.append(CaseResult(path.name, rule.id, not wrong, "; ".join(wrong) or f"{count} examples"))
    return results
