"""The HTML audit report in headless Chromium: the decisions table is there, filters and sorts in the
browser, and a log holding markup in every field the model or the app controls executes nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sandbox.audit.summary import ROW_LIMIT, Decisions, summarize
from sandbox.decision import CallContext
from tests.integration import browser
from tests.unit.test_cli import run
from tests.unit.test_review_output import audited_sandbox

#: Markup that, if it ever became markup, marks the page: an image's error handler and a script.
MARK = "document.body.setAttribute('data-pwned','1')"
PAYLOAD = f'</script><img src=x onerror="{MARK}"><script>{MARK}</script><svg onload="{MARK}">'
ROW = re.compile(r"<tr class=\"(\w+)\" data-verdict=\"\w+\"( hidden=\"\")?>")


def _visible(dom: str) -> list[str]:
    """The verdicts of the table rows the page shows (rows its script hid left out)."""
    return [match.group(1) for match in ROW.finditer(dom) if not match.group(2)]


def _report(log: Path, page: Path) -> None:
    result = run("audit", "report", str(log), "--html", str(page))
    assert result.returncode == 0, result.stderr


@pytest.fixture
def markup_log(tmp_path: Path) -> Path:
    """A verified log with markup in scope, principal, session, paths (allowed and refused) and a redaction."""
    sandbox, log = audited_sandbox(tmp_path)
    context = CallContext(scope=PAYLOAD, principal=PAYLOAD, session_id=PAYLOAD)
    calls = [
        {"command": "create", "path": f"/memories/{PAYLOAD.replace('/', '_')}.md", "file_text": "x\n"},
        {"command": "view", "path": f"/memories/../{PAYLOAD}"},
        {"command": "create", "path": "/memories/k.md", "file_text": "key AKIAZ7Q3K5RT2PLM4QWE here\n"},
        {"command": PAYLOAD, "path": PAYLOAD},
    ]
    for call in calls:
        sandbox.execute(call, context)
    sandbox.close()
    return log


def test_markup_in_every_field_executes_nothing(markup_log: Path, tmp_path: Path) -> None:
    """Markup from the log is shown as text: no element it names exists in the page Chromium built, and
    the page's policy would stop a script it did not ship (only its own script, pinned by digest)."""
    page = tmp_path / "report.html"
    _report(markup_log, page)
    source = page.read_text()
    assert source.count("<script>") == 1 and "Content-Security-Policy" in source and "script-src 'sha256-" in source
    assert "<img" not in source and "<svg onload" not in source
    rendered = browser.dom(page, tmp_path / "profile")
    assert re.search(r"<body[^>]*data-pwned", rendered) is None  # no handler or script of the log's ran
    assert "<img" not in rendered and "onload=" not in rendered.replace("&lt;svg onload=", "")
    assert rendered.count("&lt;/script&gt;&lt;img src=x onerror=") >= 4  # scope, principal, session, a path
    assert len(_visible(rendered)) == 4


def test_table_filters_and_sorts_in_the_browser(replayed_log: Path, tmp_path: Path) -> None:
    """The decisions table lists every call, denied and redacted first; the page's own script filters it
    by verdict and text and sorts it by a column (driven through the address, as a shared link would)."""
    page = tmp_path / "report.html"
    _report(replayed_log, page)
    profile = tmp_path / "profile"
    everything = _visible(browser.dom(page, profile))
    assert len(everything) == 31 and everything[:15] == ["deny"] * 14 + ["redact"]
    assert set(everything[15:]) == {"allow"}
    denied = browser.dom(page, profile, "verdict=deny")
    assert _visible(denied) == ["deny"] * 14 and "14 of 31 decisions shown" in denied
    traversal = browser.dom(page, profile, "q=path.traversal")
    assert _visible(traversal) == ["deny"] * 3 and "3 of 31 decisions shown" in traversal
    by_verdict = _visible(browser.dom(page, profile, "sort=6"))  # the verdict column, ascending
    assert by_verdict == sorted(everything)
    width, height = browser.screenshot(page, profile, tmp_path / "report.png")
    assert (width, height) == (1400, 900)


def test_table_is_bounded_and_keeps_what_was_refused() -> None:
    """However long the log, the table holds ROW_LIMIT rows: every refused call, then the latest others."""
    decisions = Decisions()
    for n in range(ROW_LIMIT + 500):
        decisions.add(
            {"time": f"2026-12-01T00:00:{n:06d}Z", "decision": "allow", "outcome": "ok", "paths": [f"/m/{n}"]}
        )
        if n % 1000 == 0:
            decisions.add({"time": f"2026-12-01T00:00:{n:06d}Z", "decision": "deny", "rules": ["path.traversal"]})
    rows = decisions.rows()
    assert len(rows) == ROW_LIMIT and decisions.total == ROW_LIMIT + 506
    assert [row["decision"] for row in rows[:6]] == ["deny"] * 6
    assert rows[-1]["paths"] == f"/m/{ROW_LIMIT + 499}" and rows[6]["paths"] == f"/m/{506}"


def test_a_text_report_keeps_no_rows() -> None:
    """The rows and timelines are the HTML report's: a text report counts without building them."""
    records = [{"event": "outcome", "time": "2026-12-01T00:00:00.000000Z", "decision": "deny", "command": "view"}] * 3
    counted = summarize(records, decisions=False)
    assert counted.calls == 3 and counted.by_decision["deny"] == 3 and counted.decisions.total == 0
    assert summarize(records).decisions.total == 3
