"""Replay recorded memory-tool calls through a sandbox and summarise the decisions.

A session file holds one JSON object per line: either a tool_use input as Claude
sends it (``{"command": "view", "path": "/memories"}``) or an envelope
``{"input": {...}, "scope": "alice", "principal": "...", "session_id": "...",
"tool_use_id": "toolu_..."}``. Blank lines and lines starting with ``#`` are skipped.

Two envelope fields record bulky sessions compactly: ``"text_bytes": N`` makes the
input's text (``file_text``, ``insert_text`` or ``new_str``) N bytes of filler, and
``"repeat": N`` sends the call N times, ``{n}`` in its strings counting 1..N.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from sandbox.decision import CallContext
from sandbox.display import printable, shortened
from sandbox.pipeline import Sandbox, ToolResult

__all__ = ["Call", "Printer", "ReplayRow", "ReplaySummary", "format_row", "read_session", "replay"]

_MAX_CELL = 60
_MAX_RAW = 60  # characters of a refused raw path shown (escaped)


_MAX_REPEAT = 100_000
_MAX_TEXT_BYTES = 64 * 1024 * 1024
_TEXT_FIELDS = ("file_text", "insert_text", "new_str")


@dataclass(frozen=True, slots=True)
class Call:
    """One recorded call: the tool input, its context, and which repeat of its line it is (1..N of N)."""

    tool_input: object
    context: CallContext
    repeat: tuple[int, int] = (1, 1)


@dataclass(frozen=True, slots=True)
class ReplayRow:
    number: int
    tool_input: object
    result: ToolResult
    repeat: tuple[int, int] = (1, 1)
    scope: str | None = None

    raw_path: str | None = None  # a refused path as the model wrote it, secrets scrubbed

    @property
    def shown_path(self) -> str:
        """The canonical path(s), or for a refused path the raw text scrubbed, escaped and cut, marked
        ``raw:``; scope first."""
        prefix = f"{printable(self.scope)}: " if self.scope else ""
        if self.result.decision.paths:
            return prefix + " -> ".join(printable(path) for path in self.result.decision.paths)
        if self.raw_path is not None:
            return prefix + "raw: " + shortened(self.raw_path.encode("unicode_escape").decode("ascii"), _MAX_RAW)
        return prefix + "-"

    @property
    def first_line(self) -> str:
        content = self.result.content
        if isinstance(content, list):
            return f"[{len(content)} content block(s)]"
        return content.split("\n", 1)[0]


@dataclass
class ReplaySummary:
    allowed: int = 0
    denied: Counter[str] = field(default_factory=Counter)
    failed: Counter[str] = field(default_factory=Counter)
    corrected: Counter[str] = field(default_factory=Counter)  # the tool's ordinary errors, by command
    redacted: Counter[str] = field(default_factory=Counter)

    def add(self, row: ReplayRow) -> None:
        decision = row.result.decision
        for rule_id in decision.rule_ids:
            if rule_id.startswith("secret.") and decision.verdict == "redact":
                self.redacted[rule_id] += 1
        if decision.outcome == "ok":
            self.allowed += 1
        elif decision.outcome == "denied":
            self.denied[decision.rule_ids[-1] if decision.rule_ids else decision.error_code or "denied"] += 1
        elif decision.error_code == "failed":
            self.corrected[decision.command or "?"] += 1
        else:
            self.failed[decision.error_code or "error"] += 1

    @property
    def total(self) -> int:
        return self.allowed + sum(self.denied.values()) + sum(self.failed.values()) + sum(self.corrected.values())


def read_session(lines: Iterable[str]) -> Iterator[Call]:
    """Each recorded call. A line that is not JSON is passed on as text (the sandbox refuses it)."""
    for raw_line in lines:
        line = raw_line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            record: Any = json.loads(line)
        except json.JSONDecodeError:
            yield Call(line, CallContext())
            continue
        if not (isinstance(record, dict) and isinstance(record.get("input"), dict)):
            yield Call(record, CallContext())
            continue
        context = CallContext(
            scope=_text(record.get("scope")),
            principal=_text(record.get("principal")),
            session_id=_text(record.get("session_id")),
            tool_use_id=_text(record.get("tool_use_id")),
        )
        tool_input = dict(record["input"])
        size = _count(record.get("text_bytes"), _MAX_TEXT_BYTES)
        if size is not None:
            for name in _TEXT_FIELDS:
                if name in tool_input:
                    tool_input[name] = "A" * size
        times = _count(record.get("repeat"), _MAX_REPEAT) or 1
        for n in range(1, times + 1):
            yield Call(_numbered(tool_input, n) if times > 1 else tool_input, context, (n, times))


def _count(value: object, maximum: int) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= maximum:
        return value
    return None


def _numbered(value: Any, n: int) -> Any:
    if isinstance(value, str):
        return value.replace("{n}", str(n))
    if isinstance(value, dict):
        return {key: _numbered(item, n) for key, item in value.items()}
    if isinstance(value, list):
        return [_numbered(item, n) for item in value]
    return value


def replay(calls: Iterable[Call], sandbox_for: Callable[[CallContext], Sandbox]) -> Iterator[ReplayRow]:
    """Run each call through the sandbox for its context; yield one row per call."""
    for number, call in enumerate(calls, 1):
        sandbox = sandbox_for(call.context)
        result = sandbox.execute(call.tool_input, call.context)
        raw = None
        if not result.decision.paths and isinstance(call.tool_input, dict):
            named = call.tool_input.get("path", call.tool_input.get("old_path"))
            raw = sandbox.scrubbed((named,))[0] if isinstance(named, str) else None
        yield ReplayRow(number, call.tool_input, result, call.repeat, call.context.scope, raw)


class Printer:
    """Rows as table lines; of a repeated call, the first two and the last, and a tally of the rest."""

    def __init__(self) -> None:
        self._skipped: Counter[str] = Counter()

    def lines(self, row: ReplayRow) -> list[str]:
        n, times = row.repeat
        if times <= 3 or n <= 2 or n == times:
            return [*self._flush(), format_row(row)] if n == times else [format_row(row)]
        self._skipped[_verdict(row)] += 1
        return []

    def _flush(self) -> list[str]:
        if not self._skipped:
            return []
        tally = ", ".join(f"{count} {verdict}" for verdict, count in self._skipped.most_common())
        self._skipped.clear()
        return [f"    ... {tally}"]


def format_row(row: ReplayRow) -> str:
    """One table line: number, command, canonical path, decision with rule ids, first line of the result."""
    decision = row.result.decision
    return " | ".join(
        [
            f"{row.number:>4}",
            f"{decision.command or '?':<11}",
            f"{_cell(row.shown_path, 40):<40}",
            f"{_cell(_verdict(row), 34):<34}",
            _cell(row.first_line, _MAX_CELL),
        ]
    )


def _verdict(row: ReplayRow) -> str:
    decision = row.result.decision
    verdict = {"ok": "allow", "denied": "DENY", "error": "error"}.get(decision.outcome, decision.outcome)
    if decision.outcome == "ok" and decision.verdict == "redact":
        verdict = "REDACT"
    if decision.rule_ids:
        verdict += f" ({', '.join(decision.rule_ids)})"
    return verdict


def _cell(text: str, width: int) -> str:
    return shortened(printable(text), width)


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None
