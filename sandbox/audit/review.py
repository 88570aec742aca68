"""Reviewing an audit log: query, export and report, for compliance reviewers.

Queries and reports read the outcome records (one per call; intent records carry
the same decision, written before storage was touched). Every entry point here
works on records the caller has verified first; the CLI always verifies and says so.
"""

from __future__ import annotations

import csv
import datetime
import hashlib
import io
import json
import shutil
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from sandbox.audit.html import render_html
from sandbox.audit.keys import public_key
from sandbox.audit.ocsf import to_ocsf
from sandbox.audit.records import rotated_segments
from sandbox.audit.summary import Summary, cell_text, parse_time, sections, summarize
from sandbox.audit.verify import VerifyReport
from sandbox.display import json_line, printable, shortened, spreadsheet_cell
from sandbox.globs import Glob

__all__ = [
    "Filters",
    "Selection",
    "Summary",
    "export_bundle",
    "render_html",
    "render_text",
    "select",
    "summarize",
    "write_rows",
]

COLUMNS: Final = ("time", "scope", "principal", "command", "paths", "decision", "rules", "outcome", "error")
#: How much of a table cell shows (rule ids whole: a reviewer filters by them).
_CELL_LIMITS: Final = {"paths": 64, "rules": 160}
#: What an empty cell means, where it means something.
_EMPTY: Final = {"paths": "(refused before canonicalisation)"}


@dataclass(frozen=True)
class Filters:
    since: datetime.datetime | None = None
    until: datetime.datetime | None = None
    scope: str | None = None
    principal: str | None = None
    command: str | None = None
    decision: str | None = None
    rule: str | None = None
    path: str | None = None

    def accepts(self, record: dict[str, Any]) -> bool:
        if record.get("event") != "outcome":
            return False
        moment = parse_time(record["time"])
        if (self.since and moment < self.since) or (self.until and moment > self.until):
            return False
        for key in ("scope", "principal", "command", "decision"):
            wanted = getattr(self, key)
            if wanted is not None and record.get(key) != wanted:
                return False
        if self.rule is not None and not {self.rule, f"secret.{self.rule}"} & set(record.get("rules", ())):
            return False  # a secret rule matches with or without its "secret." prefix
        # Recorded paths are matched as written: one the policy allowed but the default limits would
        # refuse (or a scrubbed one) is still a path to match, never a reason to stop the review.
        return self.path is None or any(Glob(self.path).matches(str(p)) for p in record.get("paths", ()))


@dataclass
class Selection:
    """The records ``filters`` accept; a record they cannot read (no time, a field of the wrong
    type) is counted in ``unreadable``, never a reason to stop the review."""

    filters: Filters
    unreadable: int = 0

    def of(self, records: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        for record in records:
            try:
                accepted = self.filters.accepts(record)
            except (KeyError, TypeError, ValueError, AttributeError):
                self.unreadable += 1
                continue
            if accepted:
                yield record


def select(records: Iterable[dict[str, Any]], filters: Filters) -> Iterator[dict[str, Any]]:
    return Selection(filters).of(records)


def write_rows(records: Iterable[dict[str, Any]], fmt: str, out: io.TextIOBase | Any) -> int:
    """Write records as ``table``, ``jsonl``, ``csv`` or ``ocsf`` (OCSF events, one JSON per line); return how many."""
    count = 0
    if fmt in ("jsonl", "ocsf"):
        version = _version() if fmt == "ocsf" else ""
        for record in records:
            shown = to_ocsf(record, product_version=version) if fmt == "ocsf" else record
            out.write(json_line(shown) + "\n")
            count += 1
        return count
    rows = [[cell_text(record.get(column)) or _EMPTY.get(column, "") for column in COLUMNS] for record in records]
    if fmt == "csv":
        writer = csv.writer(out)
        writer.writerow(COLUMNS)
        writer.writerows([spreadsheet_cell(value) for value in row] for row in rows)
        return len(rows)
    rows = [[printable(value) for value in row] for row in rows]
    limits = [_CELL_LIMITS.get(column, 48) for column in COLUMNS]
    widths = [max([len(c)] + [min(len(r[i]), limits[i]) for r in rows]) for i, c in enumerate(COLUMNS)]
    out.write("  ".join(c.ljust(w) for c, w in zip(COLUMNS, widths, strict=True)).rstrip() + "\n")
    for row in rows:
        cells = [shortened(v, limit).ljust(w) for v, limit, w in zip(row, limits, widths, strict=True)]
        out.write("  ".join(cells).rstrip() + "\n")
    return len(rows)


def _version() -> str:
    import sandbox  # noqa: PLC0415 - the package's version, read once per export

    return str(sandbox.__version__)


def export_bundle(log: Path, folder: Path, report: VerifyReport, summary: Summary) -> Path:
    """A folder for an auditor: the log files, the witness and public key, the verification, the report
    (text and HTML) of the records selected, and a manifest of every file's digest."""
    published = Path(f"{log}.pub")
    key = public_key(published) if published.exists() else None  # refuses a private key before anything is written
    folder.mkdir(parents=True, exist_ok=False)
    for source in [*rotated_segments(log), Path(f"{log}.witness")]:
        if source.exists():
            shutil.copy2(source, folder / source.name)
    if key is not None:
        (folder / published.name).write_bytes(key)
    verification = {"ok": report.ok, "summary": report.summary(), "warnings": report.warnings, "records": summary.calls}
    (folder / "verification.json").write_text(json.dumps(verification, indent=2) + "\n")
    (folder / "report.txt").write_text(render_text(summary, report), encoding="utf-8")
    (folder / "report.html").write_text(render_html(summary, report), encoding="utf-8")
    digests = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}
    (folder / "manifest.json").write_text(json.dumps({"sha256": digests}, indent=2) + "\n")
    return folder


def render_text(summary: Summary, report: VerifyReport) -> str:
    lines = [f"Integrity: {report.summary()}", *[f"  warning: {w}" for w in report.warnings], ""]
    decisions = ", ".join(f"{printable(k)} {v}" for k, v in summary.by_decision.most_common())
    lines.append(f"{summary.calls} calls: {decisions}")
    for title, counter in sections(summary):
        lines.append(f"\n{title}:")
        lines += [f"  {count:>7}  {printable(name)}" for name, count in counter.most_common(15)] or ["  (none)"]
    lines.append(f"\nAnomalies: {summary.traversal_attempts} traversal attempts")
    lines += [f"  burst: {printable(burst)}" for burst in summary.bursts]
    return "\n".join(lines) + "\n"
