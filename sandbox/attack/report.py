"""Results of an attack run: counts by family and command, examples, and the renderings
(text for people; JSON, JUnit XML and SARIF for CI)."""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any, Final

from sandbox.attack.race import RaceResult
from sandbox.attack.sequences import SEQUENCE_FAMILIES

__all__ = ["ALWAYS_FAILING", "CATEGORIES", "Finding", "Results", "failing", "render_junit", "render_text", "to_json"]

#: What a case can count as, worst first. "escape" and "bypass" fail a run; the others fail it with --strict.
CATEGORIES: Final = ("escape", "bypass", "accepted", "unguarded", "crash", "hang", "disclosure")
#: What fails a run without --strict: out of /memories, or past the handler's own refusals.
ALWAYS_FAILING: Final = ("escape", "bypass")
_EXAMPLES_PER_CATEGORY: Final = 25
#: Findings kept one by one (for SARIF); code scanning shows at most 5,000 results of a run.
_FINDINGS_KEPT: Final = 5_000
#: Families whose escapes no front end can prevent: the handler opens the files itself.
_HANDLER_OWN_ACCESS: Final = frozenset({"hardlink", "race"})


@dataclass(frozen=True)
class Finding:
    """One case that counts as one category: what was sent, and why it counts."""

    family: str
    command: str
    category: str
    input: str
    why: str


@dataclass
class Results:
    handler: str
    description: dict[str, Any]
    seconds: float = 0.0
    payloads: int = 0
    counts: dict[tuple[str, str], Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    examples: dict[str, list[dict[str, Any]]] = field(default_factory=lambda: defaultdict(list))
    race: RaceResult | None = None
    worker_restarts: int = 0
    findings: list[Finding] = field(default_factory=list)
    findings_dropped: int = 0

    def add(self, family: str, slot: str, command: Any, categories: dict[str, str]) -> None:
        """One case: ``categories`` maps each category it counts as to why."""
        counter = self.counts[(family, slot)]
        counter["cases"] += 1
        for category, why in categories.items():
            counter[category] += 1
            if category not in CATEGORIES:  # a case not run (unsupported, skipped): counted, not a finding
                pass
            elif len(self.findings) < _FINDINGS_KEPT:
                self.findings.append(Finding(family, slot, category, _short(command), why))
            else:
                self.findings_dropped += 1
            if len(self.examples[category]) < _EXAMPLES_PER_CATEGORY:
                self.examples[category].append(
                    {"family": family, "command": slot, "input": _short(command), "why": why}
                )

    def total(self, category: str) -> int:
        count = sum(counter[category] for counter in self.counts.values())
        if category == "escape" and self.race is not None and self.race.escaped:
            count += 1
        return count

    @property
    def cases(self) -> int:
        return sum(counter["cases"] for counter in self.counts.values())

    @property
    def families(self) -> list[str]:
        return sorted({family for family, _ in self.counts})

    def failed(self, *, strict: bool) -> bool:
        return any(self.total(category) for category in failing(strict=strict))

    def by(self, index: int) -> dict[str, Counter[str]]:
        """Counts grouped by family (0) or by command slot (1)."""
        grouped: dict[str, Counter[str]] = defaultdict(Counter)
        for key, counter in self.counts.items():
            grouped[key[index]].update(counter)
        return dict(sorted(grouped.items()))

    @property
    def wrap_mode(self) -> bool:
        return bool(self.description.get("wrap_mode"))

    def own_access_escapes(self) -> int:
        """Escapes in the families only the wrapped handler itself could prevent."""
        count = sum(counter["escape"] for (family, _), counter in self.counts.items() if family in _HANDLER_OWN_ACCESS)
        return count + (1 if self.race is not None and self.race.escaped else 0)


def failing(*, strict: bool) -> tuple[str, ...]:
    """The categories that fail a run."""
    return CATEGORIES if strict else ALWAYS_FAILING


def _short(command: Any) -> str:
    text = json.dumps(command, ensure_ascii=True, default=str)
    return text if len(text) <= 160 else text[:150] + f"... ({len(text):,} chars)"


def render_text(results: Results, *, strict: bool) -> str:
    sequences = [family for family in results.families if family in SEQUENCE_FAMILIES]
    store = " keeping memory in a store of its own" if results.description.get("store") else ""
    lines = [
        f"memory-sandbox attack: {results.handler} ({results.description.get('type', '?')}){store}",
        f"{results.cases:,} cases ({results.payloads:,} hostile paths in every path slot of the 6 commands"
        + (", the root in every spelling" if "root" in results.families else "")
        + (", malformed input" if "malformed" in results.families else "")
        + (f", {len(sequences)} multi-call families" if sequences else "")
        + f") in {len(results.families)} families, {results.seconds:.1f} s",
    ]
    totals = {category: results.total(category) for category in CATEGORIES}
    verdict = "FAIL" if results.failed(strict=strict) else "PASS"
    lines.append(
        f"{verdict}: {totals['escape']} real escapes, {totals['bypass']} bypasses, {totals['accepted']} attacks "
        f"accepted, {totals['unguarded']} unguarded, {totals['crash']} crashes, {totals['hang']} hangs, "
        f"{totals['disclosure']} host-path disclosures" + (" (--strict)" if strict else "")
    )
    if results.total("unsupported"):
        lacking = results.description.get("unsupported") or []
        reasons = [f"the server has no tool for {', '.join(lacking)}"] if lacking else []
        if results.by(0).get("malformed", Counter())["unsupported"]:
            reasons.append("some malformed input cannot be sent as an MCP tool call")
        lines.append(f"unsupported: {results.total('unsupported'):,} cases not run ({'; '.join(reasons)})")
    if results.total("skipped"):
        lines.append(f"skipped: {results.total('skipped')} multi-call cases had nothing to attack "
                     "(no planted file is read-only or hidden from view)")  # fmt: skip
    lines.append("")
    header = (f"{'family':<22}{'cases':>7}{'escapes':>9}{'bypasses':>10}{'accepted':>10}{'unguarded':>11}"
              f"{'crashes':>9}{'hangs':>7}{'disclosures':>13}")  # fmt: skip
    for title, grouped in (("by family", results.by(0)), ("by command", results.by(1))):
        lines += [title, header]
        for name, counter in grouped.items():
            lines.append(
                f"{name:<22}{counter['cases']:>7}{counter['escape']:>9}{counter['bypass']:>10}{counter['accepted']:>10}"
                f"{counter['unguarded']:>11}{counter['crash']:>9}{counter['hang']:>7}{counter['disclosure']:>13}"
            )
        lines.append("")
    race = results.race
    if race is not None:
        state = "ESCAPED" if race.escaped else "no escape"
        lines.append(
            f"race: {race.seconds:g} s, {race.calls:,} calls against {race.swaps:,} folder/symlink swaps: {state}"
        )
        for command, text in race.leaks[:5]:
            lines.append(f"  output showed a canary: {_short(command)} -> {text[:100]!r}")
        for event in race.outside_events[:5]:
            lines.append(f"  outside the root: {event}")
        lines.append("")
    for category in CATEGORIES:
        for example in results.examples.get(category, [])[:8]:
            lines.append(f"{category:<10} {example['family']}/{example['command']}: {example['input']}")
            lines.append(f"{'':<10} {example['why']}")
    if results.wrap_mode and results.own_access_escapes():
        lines += [
            "",
            "wrap mode: the sandbox checks every command before the wrapped handler sees it, but the handler opens",
            "the files itself, so hard links planted in its folder and folders swapped for symlinks while it works",
            f"(hardlink, race: {results.own_access_escapes()} escapes above) are the wrapped handler's to prevent.",
            "Use the sandbox's own stores (LocalStorage, SQLite, PostgreSQL) for that protection.",
        ]
    return "\n".join(lines) + "\n"


def to_json(results: Results, *, strict: bool) -> dict[str, Any]:
    race = results.race
    return {
        "handler": results.handler,
        "handler_type": results.description.get("type"),
        "wrap_mode": results.wrap_mode,
        "passed": not results.failed(strict=strict),
        "strict": strict,
        "seconds": round(results.seconds, 2),
        "cases": results.cases,
        "payloads": results.payloads,
        "totals": {category: results.total(category) for category in CATEGORIES},
        "unsupported": {"cases": results.total("unsupported"), "commands": results.description.get("unsupported", [])},
        "skipped": results.total("skipped"),
        "store": results.description.get("store", "the root on disk"),
        "families": {name: dict(counter) for name, counter in results.by(0).items()},
        "commands": {name: dict(counter) for name, counter in results.by(1).items()},
        "race": None
        if race is None
        else {
            "seconds": race.seconds,
            "calls": race.calls,
            "swaps": race.swaps,
            "escaped": race.escaped,
            "leaks": [{"input": _short(c), "output": t} for c, t in race.leaks],
            "outside": race.outside_events,
        },
        "examples": {category: results.examples.get(category, []) for category in CATEGORIES},
        "worker_restarts": results.worker_restarts,
    }


_INVALID_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd]")


def _xml(text: str) -> str:
    text = _INVALID_XML.sub("?", text)
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
        .replace("'", "&apos;")
    )  # fmt: skip


def render_junit(results: Results, *, strict: bool) -> str:
    """One test case per family and command slot (and the race); a failure where it counts."""
    failing_here = failing(strict=strict)
    cases: list[str] = []
    failures = 0
    for (family, slot), counter in sorted(results.counts.items()):
        bad = {category: counter[category] for category in failing_here if counter[category]}
        body = ""
        if bad:
            failures += 1
            summary = ", ".join(f"{count} {category}" for category, count in bad.items())
            examples = [
                f"{e['why']}: {e['input']}"
                for category in bad
                for e in results.examples.get(category, [])
                if e["family"] == family and e["command"] == slot
            ]
            body = f'<failure message="{_xml(summary)}">{_xml(chr(10).join(examples))}</failure>'
        elif counter["unsupported"] == counter["cases"]:
            body = '<skipped message="the server has no tool for this command"/>'
        cases.append(f'<testcase classname="attack.{_xml(family)}" name="{_xml(slot)}">{body}</testcase>')
    if results.race is not None:
        race = results.race
        body = ""
        if race.escaped:
            failures += 1
            detail = [f"{_short(c)} -> {t[:200]}" for c, t in race.leaks] + race.outside_events
            body = f'<failure message="the symlink-swap race escaped">{_xml(chr(10).join(detail))}</failure>'
        cases.append(f'<testcase classname="attack.race" name="symlink_swap">{body}</testcase>')
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<testsuite name="memory-sandbox attack" tests="{len(cases)}" failures="{failures}" errors="0" '
        f'time="{results.seconds:.2f}">\n' + "\n".join(cases) + "\n</testsuite>\n"
    )
