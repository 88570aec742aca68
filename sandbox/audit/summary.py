"""What a set of decision records adds up to: counts, anomalies, and the decisions a report shows.

Both reports (text and HTML) are drawn from one :class:`Summary`, built in one pass over the
outcome records whatever the size of the log: the decisions it keeps are bounded.
"""

from __future__ import annotations

import datetime
from collections import Counter, defaultdict, deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

__all__ = [
    "ROW_LIMIT",
    "TABLE_COLUMNS",
    "Decisions",
    "Session",
    "Summary",
    "cell_text",
    "parse_time",
    "sections",
    "summarize",
]

#: Rows the table holds at most: every denied, redacted or failed call first, then the latest others.
ROW_LIMIT: Final = 5_000
#: Marks kept per session for its timeline.
MARK_LIMIT: Final = 400
#: The HTML table's columns: (heading, record field, characters shown).
TABLE_COLUMNS: Final = (
    ("time", "time", 32),
    ("scope", "scope", 64),
    ("principal", "principal", 64),
    ("session", "session_id", 64),
    ("command", "command", 24),
    ("path", "paths", 160),
    ("verdict", "decision", 16),
    ("rule", "rules", 160),
    ("reason", "reasons", 240),
    ("outcome", "outcome", 24),
)
#: The order a reviewer reads verdicts in.
_VERDICT_RANK: Final = {"deny": 0, "redact": 1, "error": 2}
_TRAVERSAL: Final = frozenset({"path.traversal", "path.outside_root", "path.encoding", "path.lookalike", "path.unc"})
_BURST: Final = (10, 60.0)  # this many denials within this many seconds, in one scope


def parse_time(text: str) -> datetime.datetime:
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


def cell_text(value: Any) -> str:
    """A record field as one line of text: lists joined by spaces, nothing for a missing field."""
    if value is None:
        return ""
    if isinstance(value, list):
        return " ".join(str(item) for item in value)
    return str(value)


def _flagged(record: dict[str, Any]) -> bool:
    return record.get("decision") != "allow" or record.get("outcome") not in (None, "ok")


@dataclass
class Session:
    first: str
    last: str
    scope: str
    principal: str
    verdicts: Counter[str] = field(default_factory=Counter)
    marks: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Decisions:
    """The decisions a report shows, bounded whatever the size of the log."""

    total: int = 0
    flagged: list[dict[str, Any]] = field(default_factory=list)
    others: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=ROW_LIMIT))
    sessions: dict[str, Session] = field(default_factory=dict)

    def add(self, record: dict[str, Any]) -> None:
        self.total += 1
        row = {key: cell_text(record.get(key)) for _, key, _ in TABLE_COLUMNS}
        row["paths"] = row["paths"] or "(refused before canonicalisation)"
        if _flagged(record):
            if len(self.flagged) < ROW_LIMIT:
                self.flagged.append(row)
        else:
            self.others.append(row)
        name, moment, verdict = row["session_id"] or "(no session)", row["time"], row["decision"]
        session = self.sessions.get(name)
        if session is None:
            session = self.sessions[name] = Session(moment, moment, row["scope"], row["principal"])
        session.last = max(session.last, moment)
        session.first = min(session.first, moment)
        session.verdicts[verdict] += 1
        if len(session.marks) < MARK_LIMIT:
            session.marks.append((moment, verdict))

    def rows(self) -> list[dict[str, str]]:
        """Denied, redacted and failed calls first (each by time), then the latest allowed ones."""
        room = ROW_LIMIT - len(self.flagged)
        others = list(self.others)[-room:] if room > 0 else []
        flagged = sorted(self.flagged, key=lambda row: (_VERDICT_RANK.get(row["decision"], 3), row["time"]))
        return flagged + others


def sections(summary: Summary) -> list[tuple[str, Counter[str]]]:
    """The counts both reports show, titled."""
    periods = Counter({day: sum(counts.values()) for day, counts in summary.by_period.items()})
    return [
        ("Calls per day", periods),
        ("By command", summary.by_command),
        ("By rule", summary.by_rule),
        ("By scope", summary.by_scope),
        ("Top denied paths", summary.denied_paths),
        ("Secrets redacted, by rule", summary.secrets_redacted),
        ("Quota and limit hits", summary.limit_hits),
    ]


@dataclass
class Summary:
    calls: int = 0
    by_period: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    by_decision: Counter[str] = field(default_factory=Counter)
    by_command: Counter[str] = field(default_factory=Counter)
    by_rule: Counter[str] = field(default_factory=Counter)
    by_scope: Counter[str] = field(default_factory=Counter)
    denied_paths: Counter[str] = field(default_factory=Counter)
    secrets_redacted: Counter[str] = field(default_factory=Counter)
    limit_hits: Counter[str] = field(default_factory=Counter)
    traversal_attempts: int = 0
    bursts: list[str] = field(default_factory=list)
    decisions: Decisions = field(default_factory=Decisions)


def summarize(records: Iterable[dict[str, Any]], *, decisions: bool = True) -> Summary:
    """Counts by period (day), decision, command, rule and scope, and the anomalies; with
    ``decisions``, also the rows and session timelines the HTML report shows (a text report skips them)."""
    summary = Summary()
    recent: dict[str, list[datetime.datetime]] = defaultdict(list)
    flagged: set[str] = set()
    for record in records:
        if record.get("event") != "outcome":
            continue
        summary.calls += 1
        if decisions:
            summary.decisions.add(record)
        moment = parse_time(record["time"])
        decision, scope = record.get("decision", "?"), record.get("scope") or "(none)"
        summary.by_period[moment.date().isoformat()][decision] += 1
        summary.by_decision[decision] += 1
        summary.by_command[record.get("command") or "(malformed)"] += 1
        summary.by_scope[scope] += 1
        rules = record.get("rules", [])
        summary.by_rule.update(rules)
        for rule in rules:
            if rule.startswith("secret.") and decision == "redact":
                summary.secrets_redacted[rule] += 1
            if rule.startswith(("quota.", "limits.")):
                summary.limit_hits[rule] += 1
        if decision == "deny":
            summary.denied_paths.update(record.get("paths") or ["(path refused before canonicalisation)"])
            summary.traversal_attempts += bool(_TRAVERSAL.intersection(rules))
            window = [t for t in recent[scope] if (moment - t).total_seconds() <= _BURST[1]] + [moment]
            recent[scope] = window
            if len(window) >= _BURST[0] and scope not in flagged:
                flagged.add(scope)
                seconds = f"{_BURST[1]:.0f} s"
                summary.bursts.append(f"{len(window)} denials within {seconds} in scope {scope} at {record['time']}")
    return summary
