"""Keys over time: a log rotated to a new key verifies from its first public key, every rotation
announced in the chain and signed by the key before; a forged rotation is tampering; a writer in
another process signs with the new key from its next checkpoint on."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sandbox import Sandbox, load_policy
from sandbox.audit import AuditError, AuditLog, verify
from sandbox.audit.keys import load_signer
from sandbox.storage import InMemoryStorage
from tests.unit.test_cli import run


def _calls(log: AuditLog, count: int, start: int = 0) -> None:
    sandbox = Sandbox(policy=load_policy("default"), storage=InMemoryStorage(), audit=log)
    for n in range(start, start + count):
        assert not sandbox.execute({"command": "create", "path": f"/memories/n{n}.md", "file_text": "x"}).is_error


def _rotated_once(tmp_path: Path) -> tuple[Path, list[str], int]:
    """A log with two calls and one rotation: its path, its lines, and the rotation's line index."""
    path = tmp_path / "audit.jsonl"
    log = AuditLog.open(path)
    _calls(log, 2)
    log.rotate_key_file()
    log.close()
    lines = path.read_text().splitlines(keepends=True)
    return path, lines, next(i for i, line in enumerate(lines) if '"key_rotation"' in line)


def test_rotated_log_verifies_from_its_first_key(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    log = AuditLog.open(path, checkpoint_every=5)
    first = log._signer.key_id
    old_private = Path(f"{path}.key").read_bytes()
    published = Path(f"{path}.pub").read_bytes()
    _calls(log, 4)
    second = log.rotate_key_file()
    _calls(log, 4, start=4)
    third = log.rotate_key_file()
    _calls(log, 4, start=8)
    log.close()
    assert len({first, second, third}) == 3
    assert Path(f"{path}.key").read_bytes() != old_private and Path(f"{path}.pub").read_bytes() == published
    assert not list(tmp_path.glob(".*next*"))  # no new key left behind
    report = verify(path)  # with the first public key, beside the log
    assert report.ok, report.summary()
    assert report.key_id == first and report.rotations == [second, third]
    assert f"(key {first} -> {second} -> {third})" in report.summary()
    rotations = [json.loads(line) for line in path.read_text().splitlines() if '"key_rotation"' in line]
    assert [r["new_key_id"] for r in rotations] == [second, third] and rotations[0]["key_id"] == first


def test_a_forged_rotation_is_tampering(tmp_path: Path) -> None:
    """A rotation announcing another key than the one signed for (a key the forger holds) is refused."""
    path, lines, at = _rotated_once(tmp_path)
    forger = load_signer(tmp_path / "forger.key")
    record = json.loads(lines[at])
    record["new_key_id"], record["public_key"] = forger.key_id, forger.public_text()
    path.write_text("".join([*lines[:at], json.dumps(record, separators=(",", ":")) + "\n"]))
    report = verify(path)
    assert not report.ok and "the key rotation's signature does not verify" in str(report.problem)


def test_another_writer_signs_with_the_new_key(tmp_path: Path) -> None:
    """Two writers of one log (as two processes): the one that did not rotate re-reads the key file
    before its next checkpoint, so every later checkpoint verifies under the rotated key."""
    path = tmp_path / "audit.jsonl"
    rotating, other = AuditLog.open(path, checkpoint_every=3), AuditLog.open(path, checkpoint_every=3)
    _calls(rotating, 2)
    new = rotating.rotate_key_file()
    _calls(other, 4, start=10)
    other.close()
    rotating.close()
    report = verify(path)
    assert report.ok and report.rotations == [new] and report.checkpoints >= 3, report.summary()


def test_cli_rotates_and_an_hmac_log_refuses(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    log = AuditLog.open(path)
    _calls(log, 2)
    log.close()
    rotated = run("audit", "rotate-key", str(path))
    assert rotated.returncode == 0 and "key rotated:" in rotated.stdout, rotated.stderr
    assert run("audit", "verify", str(path)).returncode == 0
    (tmp_path / "h.jsonl.key").write_text("hmac-sha256:" + "ab" * 32 + "\n")
    hmac_log = AuditLog.open(tmp_path / "h.jsonl")
    with pytest.raises(AuditError, match="needs Ed25519 keys"):
        hmac_log.rotate_key_file()
    hmac_log.close()


def test_a_shared_key_file_is_not_rotated(tmp_path: Path) -> None:
    """A key file named by the policy may sign every scope's log: rotating it for one would leave the
    others signing with a key their chains never announced."""
    shared = tmp_path / "keys" / "audit.key"
    shared.parent.mkdir()
    logs = [AuditLog.open(tmp_path / f"{name}.jsonl", key_file=shared) for name in ("alice", "bob")]
    with pytest.raises(AuditError, match="Only a log's own key"):
        logs[0].rotate_key_file()
    for log in logs:
        log.close()
        assert verify(Path(f"{log.path}"), key_file=shared.with_suffix(".pub")).ok


def test_a_rotation_cannot_pass_for_a_checkpoint(tmp_path: Path) -> None:
    """Signed payloads name what they sign: a rotation rewritten as a checkpoint (its announcement
    folded into the time) does not verify, so a rotation cannot be hidden."""
    path, lines, at = _rotated_once(tmp_path)
    rotation = json.loads(lines[at])
    disguised = {
        "seq": rotation["seq"], "time": f"{rotation['time']}|key_rotation|{rotation['new_key_id']}|{rotation['public_key']}",
        "event": "checkpoint", "key_id": rotation["key_id"], "alg": rotation["alg"], "sig": rotation["sig"],
        "prev": rotation["prev"],
    }  # fmt: skip
    path.write_text("".join([*lines[:at], json.dumps(disguised, separators=(",", ":")) + "\n"]))
    Path(f"{path}.witness").write_text("".join(Path(f"{path}.witness").read_text().splitlines(keepends=True)[:1]))
    report = verify(path)
    assert not report.ok and "time is not a time" in str(report.problem)


def _die_during_rotation(path: Path, step: str) -> None:
    """In a child process: start rotating the log's key and die (``os._exit``) at ``step``, as a crash
    would: no ``finally`` runs, nothing is cleaned up."""

    def die(*_: object) -> None:
        os._exit(9)

    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child dies before coverage could be written
        log = AuditLog.open(path)
        if step == "before-record":
            log._emit_signed = die  # type: ignore[method-assign]
        else:
            log._installed = die  # type: ignore[method-assign]
        log.rotate_key_file()
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 9


@pytest.mark.parametrize("step", ["before-record", "before-install"])
def test_a_rotation_cut_short_by_a_crash_is_finished_or_undone(tmp_path: Path, step: str) -> None:
    """A writer that dies after announcing the new key but before installing it leaves a log whose next
    checkpoints would be signed by the old key; the next writer installs the announced key first. One
    that dies before the announcement leaves nothing: its key is removed and the old one signs on."""
    path = tmp_path / "audit.jsonl"
    log = AuditLog.open(path, checkpoint_every=4)
    first = log._signer.key_id
    _calls(log, 3)
    log.close()
    _die_during_rotation(path, step)
    leftovers = sorted(p.name for p in tmp_path.iterdir() if ".next-" in p.name or p.name.endswith(".rotating"))
    assert leftovers  # the crash left the next key and the marker behind
    log = AuditLog.open(path, checkpoint_every=4)
    _calls(log, 6, start=3)
    log.close()
    report = verify(path)
    assert report.ok, report.problem
    rotated = step == "before-install"
    assert report.rotations == ([load_signer(Path(f"{path}.key")).key_id] if rotated else [])
    assert (load_signer(Path(f"{path}.key")).key_id != first) is rotated
    assert not [p for p in tmp_path.iterdir() if ".next-" in p.name or p.name.endswith(".rotating")]
