"""The HTML audit report: one self-contained file a reviewer opens offline.

What a reviewer looks for first: whether the log is intact (checkpoints, key, witness), then the
decisions, denied and redacted ones first, in a table they can search, filter by verdict and sort,
then each session on a timeline, then the counts. Every value that came from the model or the app
is shown escaped (HTML, then control and bidi characters as ``\\x1b``-style text); the page loads
nothing and runs only its own script, which a Content-Security-Policy pins by digest, so a log
holding markup shows it as text and executes nothing.

The table starts filtered when the address carries ``#q=TEXT&verdict=VERDICT&sort=COLUMN``, so a
reviewer can share a filtered view (and the tests drive the page in a browser that way).
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import html
from collections import Counter
from typing import Final

from sandbox.audit.summary import ROW_LIMIT, TABLE_COLUMNS, Decisions, Session, Summary, sections
from sandbox.audit.verify import VerifyReport
from sandbox.display import printable, shortened

__all__ = ["render_html"]

#: Sessions drawn on the timeline, most flagged first.
SESSION_LIMIT: Final = 60

_COLOURS: Final = {"deny": "#d93025", "redact": "#e37400", "allow": "#1e8e3e"}

_STYLE: Final = (
    "body{font:14px system-ui,sans-serif;margin:2em;max-width:90em}h1{font-size:1.4em}"
    ".ok{background:#e6f4ea;border-left:6px solid #1e8e3e}"
    ".tampered{background:#fce8e6;border-left:6px solid #d93025}"
    ".integrity{padding:.8em}table{border-collapse:collapse}td,th{padding:2px 8px;text-align:left}"
    "#decisions td{border-top:1px solid #ddd;vertical-align:top;overflow-wrap:anywhere;max-width:28em}"
    "#decisions td:first-child{white-space:nowrap}"
    "#decisions th{cursor:pointer;background:#f1f3f4;position:sticky;top:0}"
    "#decisions th[aria-sort=ascending]::after{content:' \\25b2'}"
    "#decisions th[aria-sort=descending]::after{content:' \\25bc'}"
    "tr.deny{background:#fce8e6}tr.redact{background:#fef7e0}svg text{font-size:11px}"
    "dl{display:grid;grid-template-columns:max-content auto;gap:2px 12px}dt{font-weight:600}"
)

#: Filter, sort, and the starting view from the address; it reads cells as text only.
_SCRIPT: Final = """(function () {
  var table = document.getElementById("decisions");
  var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
  var search = document.getElementById("search"), verdict = document.getElementById("verdict");
  var shown = document.getElementById("shown"), heads = table.tHead.rows[0].cells;
  function apply() {
    var q = search.value.toLowerCase(), v = verdict.value, n = 0;
    rows.forEach(function (row) {
      var keep = (!v || row.getAttribute("data-verdict") === v) &&
                 (!q || row.textContent.toLowerCase().indexOf(q) !== -1);
      row.hidden = !keep;
      n += keep ? 1 : 0;
    });
    shown.textContent = n + " of " + rows.length + " decisions shown";
  }
  function sortBy(index) {
    var head = heads[index], up = head.getAttribute("aria-sort") !== "ascending";
    Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
    head.setAttribute("aria-sort", up ? "ascending" : "descending");
    rows.sort(function (a, b) {
      var x = a.cells[index].textContent, y = b.cells[index].textContent;
      return (x < y ? -1 : x > y ? 1 : 0) * (up ? 1 : -1);
    });
    rows.forEach(function (row) { body.appendChild(row); });
  }
  Array.prototype.forEach.call(heads, function (head, index) {
    head.addEventListener("click", function () { sortBy(index); });
  });
  search.addEventListener("input", apply);
  verdict.addEventListener("change", apply);
  var start = new URLSearchParams(location.hash.slice(1));
  if (start.has("q")) { search.value = start.get("q"); }
  if (start.has("verdict")) { verdict.value = start.get("verdict"); }
  if (start.has("sort") && heads[Number(start.get("sort"))]) { sortBy(Number(start.get("sort"))); }
  apply();
})();"""


def _digest(source: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(source.encode()).digest()).decode() + "'"


#: Nothing loads from anywhere; only this page's own style and script run.
_POLICY: Final = f"default-src 'none'; style-src {_digest(_STYLE)}; script-src {_digest(_SCRIPT)}; base-uri 'none'"


def _shown(text: str, limit: int) -> str:
    """Model or app text as HTML: invisible and control characters escaped, cut, then HTML-escaped."""
    return html.escape(shortened(printable(text), limit))


def render_html(summary: Summary, report: VerifyReport) -> str:
    """The whole page: integrity evidence, the decisions table, the session timeline, the counts."""
    status = "ok" if report.ok else "tampered"
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<meta http-equiv='Content-Security-Policy' content=\"{_POLICY}\">",
        "<title>memory-sandbox audit report</title>",
        f"<style>{_STYLE}</style></head><body><h1>memory-sandbox audit report</h1>",
        *_integrity(report, status),
        f"<p id='totals'>{summary.calls} calls: "
        + ", ".join(f"{_shown(k, 32)} {v}" for k, v in summary.by_decision.most_common())
        + "</p>",
        *_table(summary.decisions),
        *_timeline(summary.decisions),
    ]
    for title, counter in sections(summary):
        parts.append(f"<h2>{html.escape(title)}</h2>{_bars(counter)}")
    parts.append(f"<h2>Anomalies</h2><p id='anomalies'>{summary.traversal_attempts} traversal attempts</p><ul>")
    parts += [f"<li>{_shown(burst, 300)}</li>" for burst in summary.bursts]
    parts.append(f"</ul><script>{_SCRIPT}</script></body></html>")
    return "\n".join(parts) + "\n"


def _integrity(report: VerifyReport, status: str) -> list[str]:
    witness = (
        "; ".join(f"{name}: agrees ({count} checkpoints)" for name, count in report.witnesses)
        if report.witnesses
        else "none given or none witnessed"
    )
    facts = [
        ("verdict", "intact" if report.ok else "TAMPERED"),
        ("records checked", str(report.records)),
        ("log files", ", ".join(report.segments) or "(none)"),
        ("signed checkpoints", str(report.checkpoints)),
        ("signing key", report.key_id or "(none)"),
        ("witness", witness),
    ]
    return [
        f"<div class='integrity {status}' id='integrity'><strong>Integrity: {_shown(report.summary(), 400)}</strong>",
        "<dl>" + "".join(f"<dt>{html.escape(k)}</dt><dd>{_shown(v, 400)}</dd>" for k, v in facts) + "</dl>",
        *[f"<br>warning: {_shown(w, 400)}" for w in report.warnings],
        "</div>",
    ]


def _table(decisions: Decisions) -> list[str]:
    rows = decisions.rows()
    left_out = decisions.total - len(rows)
    note = f" ({left_out} allowed calls left out: the table holds {ROW_LIMIT})" if left_out else ""
    options = "".join(f"<option value='{v}'>{v}</option>" for v in ("deny", "redact", "allow"))
    heads = "".join(f"<th scope='col'>{heading}</th>" for heading, _, _ in TABLE_COLUMNS)
    parts = [
        "<h2>Decisions</h2>",
        f"<p>Denied and redacted calls first.{html.escape(note)}</p>",
        "<p><label>Search <input id='search' type='search' size='40'></label> "
        f"<label>Verdict <select id='verdict'><option value=''>any</option>{options}</select></label> "
        f"<span id='shown'>{len(rows)} of {len(rows)} decisions shown</span></p>",
        f"<table id='decisions'><thead><tr>{heads}</tr></thead><tbody>",
    ]
    for row in rows:
        verdict = html.escape(row["decision"], quote=True)
        cells = "".join(f"<td>{_shown(row[key], limit)}</td>" for _, key, limit in TABLE_COLUMNS)
        parts.append(f"<tr class='{verdict}' data-verdict='{verdict}'>{cells}</tr>")
    parts.append("</tbody></table>")
    return parts


def _moment(text: str) -> float:
    try:
        return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return 0.0


def _timeline(decisions: Decisions) -> list[str]:
    sessions = sorted(
        decisions.sessions.items(),
        key=lambda item: (-(item[1].verdicts["deny"] + item[1].verdicts["redact"]), item[1].first),
    )[:SESSION_LIMIT]
    parts = ["<h2>Sessions</h2>"]
    if not sessions:
        return [*parts, "<p>(none)</p>"]
    parts.append(
        "<table id='sessions'><thead><tr><th>session</th><th>scope</th><th>principal</th><th>first</th>"
        "<th>last</th><th>calls</th><th>denied</th><th>redacted</th><th>timeline</th></tr></thead><tbody>"
    )
    for name, session in sessions:
        calls = sum(session.verdicts.values())
        facts = (name, session.scope, session.principal, session.first, session.last)
        cells = "".join(f"<td>{_shown(fact, 64)}</td>" for fact in facts)
        counts = f"<td>{calls}</td><td>{session.verdicts['deny']}</td><td>{session.verdicts['redact']}</td>"
        parts.append(f"<tr>{cells}{counts}<td>{_strip(session)}</td></tr>")
    parts.append("</tbody></table>")
    return parts


def _strip(session: Session) -> str:
    """Each call of a session as a tick between its first and last call, coloured by verdict."""
    start, end = _moment(session.first), _moment(session.last)
    span = max(end - start, 1e-6)
    ticks = []
    for moment, verdict in session.marks:
        x = 2 + round(296 * (_moment(moment) - start) / span) if end > start else 150
        colour = _COLOURS.get(verdict, "#5f6368")
        ticks.append(f"<rect x='{x}' y='2' width='2' height='14' fill='{colour}'></rect>")
    return f"<svg class='timeline' width='300' height='18' role='img'>{''.join(ticks)}</svg>"


def _bars(counter: Counter[str]) -> str:
    items = counter.most_common(15)
    if not items:
        return "<p>(none)</p>"
    top, height = max(count for _, count in items), 18
    rows = []
    for index, (name, count) in enumerate(items):
        width = max(1, round(300 * count / top))
        y = index * height
        rows.append(
            f"<rect x='220' y='{y + 2}' width='{width}' height='{height - 4}' fill='#4a7bd0'></rect>"
            f"<text x='215' y='{y + 13}' text-anchor='end'>{_shown(name, 40)}</text>"
            f"<text x='{225 + width}' y='{y + 13}'>{count}</text>"
        )
    return f"<svg class='chart' width='600' height='{len(items) * height}' role='img'>{''.join(rows)}</svg>"
