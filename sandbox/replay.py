"""Replay recorded memory-tool calls through a sandbox and summarise the decisions.

A session file holds one JSON object per line: either a tool_use input as Claude
sends it (``{"command": "view", "path": "/memories"}``) or an envelope
``{"input": {...}, "scope": "alice", "tool_use_id": "toolu_..."}``. Blank lines
and lines starting with ``#`` are skipped.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from sandbox.decision import CallContext
from sandbox.pipeline import Sandbox, ToolResult

__all__ = ["ReplayRow", "ReplaySummary", "format_row", "read_session", "replay"]

_MAX_CELL = 60


@dataclass(frozen=True, slots=True)
class ReplayRow:
    number: int
    tool_input: object
    result: ToolResult

    @property
    def shown_path(self) -> str:
        """The canonical path(s), or for a refused path the raw text, escaped, marked ``raw:``."""
        if self.result.decision.paths:
            return " -> ".join(self.result.decision.paths)
        if isinstance(self.tool_input, dict):
            raw = self.tool_input.get("path", self.tool_input.get("old_path"))
            if isinstance(raw, str):
                return "raw: " + raw.encode("unicode_escape").decode("ascii")
        return "-"

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
    redacted: Counter[str] = field(default_factory=Counter)

    def add(self, row: ReplayRow) -> None:
        decision = row.result.decision
        for rule_id in decision.rule_ids:
            if rule_id.startswith("secret.") and decision.verdict == "redact":
                self.redacted[rule_id.removeprefix("secret.")] += 1
        if decision.outcome == "ok":
            self.allowed += 1
        elif decision.outcome == "denied":
            self.denied[decision.rule_ids[-1] if decision.rule_ids else decision.error_code or "denied"] += 1
        else:
            self.failed[decision.error_code or "error"] += 1

    @property
    def total(self) -> int:
        return self.allowed + sum(self.denied.values()) + sum(self.failed.values())


def read_session(lines: Iterable[str]) -> Iterator[tuple[object, CallContext]]:
    """Each recorded call's tool input and context. A line that is not JSON is passed on as text."""
    for raw_line in lines:
        line = raw_line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            record: Any = json.loads(line)
        except json.JSONDecodeError:
            # Replayed as is: the sandbox refuses it as a malformed command.
            yield line, CallContext()
            continue
        if isinstance(record, dict) and isinstance(record.get("input"), dict):
            context = CallContext(
                scope=_text(record.get("scope")),
                principal=_text(record.get("principal")),
                session_id=_text(record.get("session_id")),
                tool_use_id=_text(record.get("tool_use_id")),
            )
            yield record["input"], context
        else:
            yield record, CallContext()


def replay(
    calls: Iterable[tuple[object, CallContext]], sandbox_for: Callable[[CallContext], Sandbox]
) -> Iterator[ReplayRow]:
    """Run each call through the sandbox for its context; yield one row per call."""
    for number, (tool_input, context) in enumerate(calls, 1):
        yield ReplayRow(number, tool_input, sandbox_for(context).execute(tool_input, context))


def format_row(row: ReplayRow) -> str:
    """One table line: number, command, canonical path, decision with rule ids, first line of the result."""
    decision = row.result.decision
    verdict = {"ok": "allow", "denied": "DENY", "error": "error"}.get(decision.outcome, decision.outcome)
    if decision.outcome == "ok" and decision.verdict == "redact":
        verdict = "REDACT"
    if decision.rule_ids:
        verdict += f" ({', '.join(decision.rule_ids)})"
    return " | ".join(
        [
            f"{row.number:>3}",
            f"{decision.command or '?':<11}",
            f"{_cell(row.shown_path, 40):<40}",
            f"{_cell(verdict, 34):<34}",
            _cell(row.first_line, _MAX_CELL),
        ]
    )


def _cell(text: str, width: int) -> str:
    text = text.replace("\t", " ").replace("\r", " ")
    return text if len(text) <= width else text[: width - 3] + "..."


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None
