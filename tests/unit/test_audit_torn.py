"""A full disk never breaks the chain: a failed append leaves no partial line, a torn tail (a crash
mid-write) is sealed on open by a chained record stating what was cut, and verification explains the
gap and checks everything after it. Before, the torn line made every later record unverifiable."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox import Sandbox, load_policy
from sandbox.audit import AuditLog
from sandbox.audit.verify import verify
from sandbox.storage import InMemoryStorage

TORN = b'{"seq":41,"time":"2026-12-01T10:00:00.000000Z","event":"intent","decision_id":"d1","sc'


def calls(log: Path, count: int, tag: str = "a") -> int:
    """Run ``count`` creates through a sandbox logging to ``log``; how many were allowed."""
    audit = AuditLog.open(log)
    sandbox = Sandbox(policy=load_policy("default"), storage=InMemoryStorage(), audit=audit)
    allowed = 0
    for index in range(count):
        result = sandbox.execute({"command": "create", "path": f"/memories/{tag}{index}.md", "file_text": "x\n"})
        allowed += not result.is_error
    sandbox.close()
    audit.close()  # its closing checkpoint
    return allowed


def test_a_torn_tail_is_sealed_on_open_and_the_chain_verifies_past_it(tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    calls(log, 5)
    with log.open("ab") as out:
        out.write(TORN)  # a crash in the middle of a write
    torn = verify(log)
    assert not torn.ok and "incomplete" in str(torn.problem)
    calls(log, 5, "b")  # the next writer seals the torn line first
    report = verify(log)
    assert report.ok, report.summary()
    assert report.records == 5 * 2 + 5 * 2 + 2 + 1  # intents, outcomes, closing checkpoints, the seal
    assert any("sealed by record" in warning and f"{len(TORN)} bytes" in warning for warning in report.warnings)
    assert TORN in log.read_bytes()  # kept, not erased


def test_a_sealed_gap_still_binds_what_follows(tmp_path: Path) -> None:
    """Changing the torn bytes, or a record after the seal, is found."""
    log = tmp_path / "audit.jsonl"
    calls(log, 3)
    with log.open("ab") as out:
        out.write(TORN)
    calls(log, 3, "b")
    data = log.read_bytes()
    log.write_bytes(data.replace(TORN, TORN.replace(b"41", b"42")))
    assert not verify(log).ok
    log.write_bytes(data.replace(b"/memories/b2.md", b"/memories/c2.md"))
    report = verify(log)
    assert not report.ok and "modified" in str(report.problem)


def test_a_failed_append_leaves_no_partial_line(tmp_path: Path) -> None:
    """Under a file size limit the writes stop part-way; each is cut back, the calls are refused,
    and once the limit is lifted the log goes on and verifies with no gap at all."""
    log = tmp_path / "audit.jsonl"
    calls(log, 2)
    script = textwrap.dedent(f"""
        import resource, sys
        sys.path.insert(0, {str(Path(__file__).parents[2])!r})
        from tests.unit.test_audit_torn import calls
        from pathlib import Path
        log = Path({str(log)!r})
        hard = resource.getrlimit(resource.RLIMIT_FSIZE)[1]
        resource.setrlimit(resource.RLIMIT_FSIZE, (log.stat().st_size + 2000, hard))
        allowed = calls(log, 20, "limited")
        assert log.read_bytes().endswith(b"\\n"), "a partial line was left behind"
        resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))
        print(allowed, calls(log, 3, "after"))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False)  # noqa: S603 - fixed argv
    assert done.returncode == 0, done.stderr
    limited, after = map(int, done.stdout.split())
    assert 0 < limited < 20 and after == 3
    report = verify(log)
    assert report.ok and not [w for w in report.warnings if "sealed" in w], report.summary()


@contextlib.contextmanager
def small_filesystem(folder: Path, size: str) -> Iterator[Path]:
    folder.mkdir()
    command = ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)]
    mounted = subprocess.run(command, capture_output=True, text=True, check=False)  # noqa: S603 - fixed argv, mount from PATH
    if mounted.returncode != 0:
        reason = f"cannot mount a tmpfs here: {mounted.stderr.strip()}"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)  # noqa: S603, S607 - fixed argv, umount from PATH


def test_filling_a_real_filesystem_then_freeing_space(tmp_path: Path) -> None:
    """On a 256 KiB tmpfs filled by a ballast file and the log itself, calls are refused while the disk
    is full, nothing torn is left, and after the ballast goes the log goes on and verifies."""
    with small_filesystem(tmp_path / "small", "256k") as small:
        log = small / "audit.jsonl"
        calls(log, 2)
        ballast = small / "ballast"
        with contextlib.suppress(OSError), ballast.open("wb") as out:
            while True:
                out.write(b"\0" * 4096)
                out.flush()
        ballast.write_bytes(ballast.read_bytes()[: -16 * 1024])  # leave a little room for the log
        allowed = calls(log, 200, "full")
        assert allowed < 200 and log.read_bytes().endswith(b"\n")
        ballast.unlink()
        assert calls(log, 5, "freed") == 5
        report = verify(log)
        assert report.ok, report.summary()
