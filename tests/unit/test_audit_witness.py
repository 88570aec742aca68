"""Witnesses off the host: a tail cut from the log and from its local witness alike, which the local
check cannot see, is found against a witness kept elsewhere; a witness that cannot take a
checkpoint refuses the call (fail closed)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from sandbox import Sandbox, load_policy
from sandbox.audit import AuditError, AuditLog, verify
from sandbox.audit.witness import witness_file_name
from sandbox.storage import InMemoryStorage
from tests.unit.test_cli import run

#: A witness command: appends its stdin to the file it is given (stands for S3 Object Lock, a TSA...).
APPEND = "import sys; open(sys.argv[1], 'ab').write(sys.stdin.buffer.read())"


def _write(log: AuditLog, calls: int) -> None:
    sandbox = Sandbox(policy=load_policy("default"), storage=InMemoryStorage(), audit=log)
    for n in range(calls):
        sandbox.execute({"command": "create", "path": f"/memories/n{n}.md", "file_text": "x\n"})
    sandbox.close()
    log.close()


def _cut_after_checkpoint(log: Path, keep: int) -> None:
    """Cut the log after its ``keep``-th checkpoint and its local witness to the same checkpoints: a
    consistent prefix, which the log and its own witness alone show as whole."""
    lines = log.read_bytes().splitlines(keepends=True)
    ends = [i for i, line in enumerate(lines) if json.loads(line)["event"] == "checkpoint"]
    log.write_bytes(b"".join(lines[: ends[keep - 1] + 1]))
    local = Path(f"{log}.witness")
    local.write_bytes(b"".join(local.read_bytes().splitlines(keepends=True)[:keep]))


def test_a_tail_cut_with_the_local_witness_is_found_off_host(tmp_path: Path) -> None:
    off_host = tmp_path / "other-volume"
    off_host.mkdir()
    log_path = tmp_path / "audit.jsonl"
    log = AuditLog.open(log_path, checkpoint_every=10, witness=[str(off_host)])
    _write(log, 30)
    witness = off_host / witness_file_name("audit.jsonl", log._signer.key_id)
    assert witness.read_bytes() == Path(f"{log_path}.witness").read_bytes()  # every checkpoint, both places
    before = verify(log_path, witness=[Path(f"{log_path}.witness"), witness])
    assert before.ok and before.witnesses == [("audit.jsonl.witness", 6), (witness.name, 6)] and before.witnessed == 6
    _cut_after_checkpoint(log_path, 2)
    assert verify(log_path).ok  # the log and its own witness agree: the cut is invisible locally
    report = verify(log_path, witness=witness)
    assert not report.ok and "missing from the log (the log was cut or altered)" in str(report.problem)
    cli = run("audit", "verify", str(log_path), "--witness", str(log_path) + ".witness", "--witness", str(witness))
    assert cli.returncode == 1 and "TAMPERED" in cli.stdout and witness.name in cli.stdout


def test_a_witness_command_receives_every_checkpoint(tmp_path: Path) -> None:
    received = tmp_path / "received"
    log_path = tmp_path / "audit.jsonl"
    command = f'{sys.executable} -c "{APPEND}" {received}'
    _write(AuditLog.open(log_path, checkpoint_every=10, witness_command=command), 12)
    assert received.read_bytes() == Path(f"{log_path}.witness").read_bytes()
    assert verify(log_path, witness=received).witnessed == 3


def test_a_witness_that_cannot_take_a_checkpoint_refuses_the_calls_after(tmp_path: Path) -> None:
    """The checkpoint stays in the log; the witness is owed it, and every call is refused until the
    witness takes it: a witness is never silently behind."""
    log_path, flag = tmp_path / "audit.jsonl", tmp_path / "witness-down"
    received = tmp_path / "received"
    down = f"import os, sys; sys.exit(3) if os.path.exists({str(flag)!r}) else None; {APPEND}"
    log = AuditLog.open(log_path, checkpoint_every=4, witness_command=f'{sys.executable} -c "{down}" {received}')
    sandbox = Sandbox(policy=load_policy("default"), storage=InMemoryStorage(), audit=log)
    flag.touch()
    calls = [{"command": "create", "path": f"/memories/n{n}.md", "file_text": "x"} for n in range(4)]
    results = [sandbox.execute(call) for call in calls[:3]]
    assert [r.is_error for r in results] == [False, False, True]  # the checkpoint came with call 2's record
    assert "audit" in str(results[-1].content).lower() and "exit 3" not in str(results[-1].content)
    flag.unlink()  # the witness is back: it gets what it was owed, and calls go on
    assert not sandbox.execute(calls[3]).is_error
    sandbox.close()
    log.close()
    assert received.read_bytes() == Path(f"{log_path}.witness").read_bytes()


def test_a_missing_witness_folder_is_refused_not_made(tmp_path: Path) -> None:
    """A witness folder on a volume that is not mounted would otherwise be made on the local disk."""
    absent = tmp_path / "offsite-volume" / "witness"
    with pytest.raises(AuditError, match="witness folder witness does not exist"):
        AuditLog.open(tmp_path / "audit.jsonl", witness=[str(absent)])
    assert not (tmp_path / "offsite-volume").exists()


def test_what_a_witness_is_owed_survives_a_restart(tmp_path: Path) -> None:
    """A checkpoint a witness could not take is kept on disk: after the writer restarts (a new process
    opens the log) calls are still refused until the witness has it, and verify warns meanwhile."""
    log_path, flag = tmp_path / "audit.jsonl", tmp_path / "witness-down"
    received = tmp_path / "received"
    down = f"import os, sys; sys.exit(3) if os.path.exists({str(flag)!r}) else None; {APPEND}"
    command = f'{sys.executable} -c "{down}" {received}'
    calls = [{"command": "create", "path": f"/memories/n{n}.md", "file_text": "x"} for n in range(6)]
    flag.touch()
    log = AuditLog.open(log_path, checkpoint_every=4, witness_command=command)
    sandbox = Sandbox(policy=load_policy("default"), storage=InMemoryStorage(), audit=log)
    assert [sandbox.execute(call).is_error for call in calls[:3]] == [False, False, True]
    sandbox.close()
    log.close()  # the writer stops while the witness is down
    report = verify(log_path)
    assert report.ok and any("not yet taken by an off-host witness" in w for w in report.warnings)
    log = AuditLog.open(log_path, checkpoint_every=4, witness_command=command)  # a new writer
    sandbox = Sandbox(policy=load_policy("default"), storage=InMemoryStorage(), audit=log)
    assert sandbox.execute(calls[3]).is_error  # still owed: refused
    flag.unlink()
    assert not sandbox.execute(calls[4]).is_error
    sandbox.close()
    log.close()
    assert received.read_bytes() == Path(f"{log_path}.witness").read_bytes()  # every checkpoint, none lost
    assert not any("off-host witness" in w for w in verify(log_path).warnings)
