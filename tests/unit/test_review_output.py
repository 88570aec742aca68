"""Review output never trusts model text: no escape sequence, bidi override or formula reaches a
terminal, a table or a spreadsheet; a refused path is shown scrubbed and cut; filters never stop a
review; a private key never leaves in a bundle. Each test failed before output was neutralised."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import example, given
from hypothesis import strategies as st

from sandbox import Sandbox, load_policy
from sandbox.audit import AuditLog
from sandbox.decision import CallContext
from sandbox.display import printable, spreadsheet_cell
from sandbox.storage import LocalStorage
from tests.unit.test_cli import run

AKIA = "AKIAZ7Q3K5RT2PLM4QWE"
#: Erase the line, move up, colour: what would rewrite a DENY row on a terminal (C0 and C1 forms).
ERASE = "\x1b[2K\x1b[1A\x1b[32m"
CSI = "\x9b2K"
BIDI = "\u202eevil\u202c"
RAW_BYTES = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200b-\u200f]")


def test_printable_escapes_what_a_terminal_would_act_on() -> None:
    assert printable("a\x1bb\x9bc\u202ed\u200be\u2028f\tg") == "a\\x1bb\\x9bc\\u202ed\\u200be\\u2028f\\x09g"
    assert printable("ordinary text, naïve, 日本語") == "ordinary text, naïve, 日本語"
    assert printable("two\nlines", keep_newlines=True) == "two\nlines" and printable("a\nb") == "a\\x0ab"
    assert printable("\ud800") == "\\ud800"


@example("\\x1b")  # text spelling an escape: shown with its backslash doubled, never as ESC
@example("\\\x1b")
@given(st.text())
def test_printable_can_be_read_back_exactly(text: str) -> None:
    """What is shown is unambiguous: every escape decodes back to the text it stands for."""
    shown = printable(text)
    assert not RAW_BYTES.search(shown)
    assert shown.encode("ascii", "backslashreplace").decode("unicode_escape") == text


@pytest.mark.parametrize("cell", ["=1+1", "+1", "-1", "@SUM(A1)", "\t=1", "\r=1"])
def test_spreadsheet_cells_never_start_a_formula(cell: str) -> None:
    assert spreadsheet_cell(cell).startswith("'")


def test_replay_shows_model_text_escaped_and_refused_paths_scrubbed(tmp_path: Path) -> None:
    session = tmp_path / "s.jsonl"
    calls = [
        {"command": "create", "path": "/memories/a.md", "file_text": "one\n"},
        {"command": "str_replace", "path": "/memories/a.md", "old_str": f"x{ERASE}{CSI}{BIDI}", "new_str": "y"},
        {"command": "view", "path": f"/memories/../{AKIA}/{'d' * 300}"},
    ]
    session.write_text("".join(json.dumps({"input": call}) + "\n" for call in calls))
    result = run("replay", str(session), "--store", f"file:{tmp_path}/m", "--create", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert not RAW_BYTES.search(result.stdout), result.stdout
    assert "\\x1b" in result.stdout
    assert AKIA not in result.stdout and "raw: " in result.stdout
    raw_line = next(line for line in result.stdout.splitlines() if "raw: " in line)
    assert len(raw_line) < 200


def test_chat_narration_is_escaped(capsys: pytest.CaptureFixture[str]) -> None:
    from sandbox.cli.chat_cmd import _narrate  # noqa: PLC0415 - the function under test

    _narrate({"command": "view", "path": f"/memories/{CSI}{BIDI}"}, f"answer {ERASE}")
    shown = capsys.readouterr().out
    assert not RAW_BYTES.search(shown) and "\\x9b" in shown and "\\x1b" in shown


def audited_sandbox(tmp_path: Path) -> tuple[Sandbox, Path]:
    """A sandbox on local files with the default policy, recording to a log of its own."""
    log = tmp_path / "audit" / "audit.jsonl"
    log.parent.mkdir()
    audit = AuditLog.open(log)
    return Sandbox(policy=load_policy("default"), storage=LocalStorage(tmp_path / "m"), audit=audit), log


@pytest.fixture
def hostile_log(tmp_path: Path) -> Path:
    """A verified log whose scope, principal and paths hold escapes, bidi and formulas."""
    sandbox, log = audited_sandbox(tmp_path)
    context = CallContext(scope='=HYPERLINK("http://x")', principal=f"@{ERASE}{BIDI}", session_id=f"+{CSI}")
    sandbox.execute({"command": "create", "path": "/memories/=cmd.md", "file_text": "x\n"}, context)
    sandbox.execute({"command": "create", "path": f"/memories/{'n' * 40}/{'m' * 1020}.md", "file_text": "x"}, context)
    sandbox.execute({"command": "view", "path": f"/memories/../{ERASE}"}, context)
    sandbox.execute({"command": "create", "path": "/memories/k.md", "file_text": f"k {AKIA} and more words\n"})
    sandbox.close()
    return log


def test_rule_ids_shown_whole_and_accepted_either_way(hostile_log: Path) -> None:
    """A secret rule's id is printed whole (secret.aws-access-key-id) and found with or without its
    prefix; a path refused before canonicalisation is named as such, not left blank."""
    table = run("audit", "query", str(hostile_log))
    assert "secret.aws-access-key-id" in table.stdout and "(refused before canonicalisation)" in table.stdout
    short = run("audit", "query", str(hostile_log), "--rule", "aws-access-key-id", "--format", "jsonl")
    full = run("audit", "query", str(hostile_log), "--rule", "secret.aws-access-key-id", "--format", "jsonl")
    assert short.stdout == full.stdout and len(short.stdout.splitlines()) == 1


def test_query_table_and_csv_are_neutralised(hostile_log: Path, tmp_path: Path) -> None:
    table = run("audit", "query", str(hostile_log))
    assert table.returncode == 0, table.stderr
    assert not RAW_BYTES.search(table.stdout) and "\\x1b" in table.stdout
    out = tmp_path / "rows.csv"
    exported = run("audit", "export", str(hostile_log), "--format", "csv", "--out", str(out))
    assert exported.returncode == 0, exported.stderr
    rows = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8"))))
    for row in rows[1:]:
        assert all(not cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in row), row
        assert not any(RAW_BYTES.search(cell) for cell in row), row
    for fmt in ("jsonl", "ocsf"):  # JSON escapes only C0 controls: C1 and bidi must not reach the terminal
        lines = run("audit", "query", str(hostile_log), "--format", fmt)
        assert lines.returncode == 0 and not RAW_BYTES.search(lines.stdout), fmt
        assert all(json.loads(line) for line in lines.stdout.splitlines())
    report = run("audit", "report", str(hostile_log))
    assert report.returncode == 0 and not RAW_BYTES.search(report.stdout)


def test_a_path_filter_never_stops_the_review(hostile_log: Path) -> None:
    """A recorded path the default limits would refuse (over 1,024 bytes) is matched, not an error."""
    for command in ("query", "report", "export"):
        result = run(
            "audit",
            command,
            str(hostile_log),
            "--path",
            "/memories/**",
            *(["--format", "jsonl"] if command == "export" else []),
        )
        assert result.returncode == 0, (command, result.stderr)


def test_a_bundle_never_carries_a_private_key(hostile_log: Path, tmp_path: Path) -> None:
    private = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    published = Path(f"{hostile_log}.pub")
    published.write_bytes(private)
    result = run("audit", "export", str(hostile_log), "--format", "bundle", "--out", str(tmp_path / "bundle"))
    assert result.returncode == 2 and "private" in result.stderr
    assert not (tmp_path / "bundle").exists()


def test_verify_needs_the_public_key_and_never_writes_one(hostile_log: Path, tmp_path: Path) -> None:
    """Without the .pub, verify does not fall back to the private key (nor write a new .pub): it says what
    to give, exit 2. A private key given as --key is refused, exit 2; a missing one too, never 1 (tampered)."""
    published = Path(f"{hostile_log}.pub")
    private = Path(f"{hostile_log}.key")
    assert run("audit", "verify", str(hostile_log)).returncode == 0
    saved = published.read_bytes()
    published.unlink()
    result = run("audit", "verify", str(hostile_log))
    assert result.returncode == 2 and "no public key" in result.stderr and not published.exists()
    result = run("audit", "verify", str(hostile_log), "--key", str(private))
    assert result.returncode == 2 and "private key" in result.stderr and not published.exists()
    result = run("audit", "verify", str(hostile_log), "--key", str(tmp_path / "nothing.pub"))
    assert result.returncode == 2 and "no audit key" in result.stderr
    published.write_bytes(saved)
    assert run("audit", "verify", str(hostile_log), "--key", str(published)).returncode == 0
