"""The audit log: records, the chain, checkpoints, tamper detection, fail closed, several writers."""

from __future__ import annotations

import fcntl
import json
import multiprocessing
import os
import random
import resource
import shutil
import signal
import struct
import threading
from pathlib import Path
from typing import Any

import pytest

from sandbox import Sandbox, canonicalize, load_policy
from sandbox.audit import AuditLog, line_hash, rotated_segments
from sandbox.audit.records import AuditError
from sandbox.audit.verify import AuditUnreadable, verify
from sandbox.decision import CallContext, Decision, ListAuditSink
from sandbox.storage import InMemoryStorage, LocalStorage
from tests.secrets_corpus import SECRET_MAKERS

FORK = multiprocessing.get_context("fork")
GHP = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"


def session(box: Sandbox, calls: int = 30) -> None:
    for n in range(calls):
        box.execute({"command": "create", "path": f"/memories/n{n}.md", "file_text": f"note {n}\n"})
        box.execute({"command": "view", "path": f"/memories/n{n}.md"})
    box.execute({"command": "view", "path": "/memories/../../etc/passwd"})
    box.execute({"command": "delete", "path": "/memories/"})


@pytest.fixture
def log(tmp_path: Path) -> Path:
    """A closed log of about 90 records with a checkpoint every 10."""
    path = tmp_path / "orig" / "audit.jsonl"
    with AuditLog.open(path, checkpoint_every=10) as audit:
        session(Sandbox(policy=load_policy("default"), storage=InMemoryStorage(), audit=audit))
    return path


def copy_log(log: Path, where: Path) -> Path:
    where.mkdir()
    for name in os.listdir(log.parent):
        shutil.copy2(log.parent / name, where / name)
    return where / log.name


def lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


class TestRecords:
    def test_fields_and_chain(self, log: Path) -> None:
        """Records carry seq, time, decision, rules, policy, prev; the chain verifies."""
        records = [json.loads(line) for line in lines(log)]
        assert [r["seq"] for r in records] == list(range(1, len(records) + 1))
        outcome = next(r for r in records if r["event"] == "outcome" and r["command"] == "create")
        assert {
            "time",
            "decision_id",
            "paths",
            "decision",
            "rules",
            "policy",
            "outcome",
            "latency_us",
            "prev",
        } <= outcome.keys()
        assert (
            outcome["size_before"] == 0
            and outcome["size_after"] == len("note 0\n")
            and len(outcome["content_hmac"]) == 64
        )
        denied = next(r for r in records if r.get("rules") == ["path.traversal"])
        assert denied["decision"] == "deny" and len(denied["raw_path_digests"]) == 1
        report = verify(log)
        assert report.ok and report.checkpoints >= 8 and report.witnessed == report.checkpoints

    def test_intent_written_before_storage(self, tmp_path: Path) -> None:
        """A write's intent record comes before its outcome; refused calls have only an outcome."""
        with AuditLog.open(tmp_path / "a.jsonl") as audit:
            box = Sandbox(policy=load_policy("default"), storage=InMemoryStorage(), audit=audit)
            box.execute({"command": "create", "path": "/memories/a.md", "file_text": "x"})
            box.execute({"command": "view", "path": "/etc"})
        events = [(r["event"], r.get("command")) for r in map(json.loads, lines(tmp_path / "a.jsonl"))]
        assert events[:3] == [("intent", "create"), ("outcome", "create"), ("outcome", "view")]

    def test_read_leaves_one_record(self, tmp_path: Path) -> None:
        """A view, which changes nothing, leaves one record (its outcome, written before the answer is
        returned), also when it reveals a redacted secret; a write leaves two."""
        with AuditLog.open(tmp_path / "a.jsonl") as audit:
            storage = InMemoryStorage()
            storage.create(canonicalize("/memories/k.md"), b"token ghp_" + b"aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW11ySowm\n")
            box = Sandbox(policy=load_policy("default"), storage=storage, audit=audit)
            box.execute({"command": "view", "path": "/memories/k.md"})
            box.execute({"command": "view", "path": "/memories"})
            box.execute({"command": "create", "path": "/memories/a.md", "file_text": "x"})
        records = [r for r in map(json.loads, lines(tmp_path / "a.jsonl")) if r["event"] in ("intent", "outcome")]
        assert [(r["event"], r["command"]) for r in records] == [
            ("outcome", "view"),
            ("outcome", "view"),
            ("intent", "create"),
            ("outcome", "create"),
        ]
        assert records[0]["decision"] == "redact" and records[0]["rules"] == ["secret.github-pat"]

    def test_read_unrecorded_reveals_nothing(self) -> None:
        """A read whose one record cannot be written answers with an error, not with what it read."""

        class LosesOutcomes(ListAuditSink):
            def outcome(self, decision: Decision) -> None:
                raise AuditError("Error: The audit log is full; the call was refused.")

        storage = InMemoryStorage()
        storage.create(canonicalize("/memories/k.md"), b"the plan is in the blue folder\n")
        result = Sandbox(policy=load_policy("default"), storage=storage, audit=LosesOutcomes()).execute(
            {"command": "view", "path": "/memories/k.md"}
        )
        assert result.is_error and "blue folder" not in str(result.content) and "audit record" in str(result.content)

    def test_identifiers_and_policy_switches(self, tmp_path: Path) -> None:
        """Identifiers the application gives are recorded unless the policy says not to."""
        with AuditLog.open(tmp_path / "a.jsonl", log_session=False) as audit:
            box = Sandbox(policy=load_policy("default"), storage=InMemoryStorage(), audit=audit)
            box.execute({"command": "view", "path": "/memories"}, CallContext("s1", "alice", "sess", "toolu_9"))
        record = json.loads(lines(tmp_path / "a.jsonl")[0])
        assert (record["scope"], record["principal"], record["tool_use_id"]) == ("s1", "alice", "toolu_9")
        assert "session_id" not in record

    @pytest.mark.parametrize("maker", sorted(SECRET_MAKERS))
    def test_no_secret_content_or_host_path(self, tmp_path: Path, maker: str) -> None:
        """Logs hold no secret value, no file content and no host path, whatever the calls carried."""
        value, line = SECRET_MAKERS[maker](random.Random(maker))
        root = tmp_path / "store"
        with Sandbox(policy=load_policy("default"), storage=LocalStorage(root)) as box:
            for command in (
                {"command": "create", "path": "/memories/a.md", "file_text": f"private words {line}\n"},
                {"command": "str_replace", "path": "/memories/a.md", "old_str": "private", "new_str": line},
                {"command": "str_replace", "path": "/memories/a.md", "old_str": f"gone {line}", "new_str": "x"},
                {"command": "create", "path": f"/memories/x-{line}.md", "file_text": "x"},
                {"command": "view", "path": "/memories/a.md"},
            ):
                box.execute(command)
        text = Path(f"{root}.audit.jsonl").read_text() + Path(f"{root}.audit.jsonl.witness").read_text()
        assert value not in text and "private words" not in text and str(tmp_path) not in text


def tamper(kind: str, log: Path) -> None:
    """Alter a copied log the way an attacker (or an accident) would."""
    body = lines(log)
    middle = len(body) // 2
    if kind == "modify":
        record = json.loads(body[middle])
        record["decision"] = "allow" if record.get("decision") != "allow" else "deny"
        body[middle] = json.dumps(record, separators=(",", ":")).encode() + b"\n"
    elif kind == "delete":
        del body[middle]
    elif kind == "insert":
        body.insert(middle, body[middle - 1])
    elif kind == "reorder":
        body[middle], body[middle + 1] = body[middle + 1], body[middle]
    elif kind == "duplicate":
        body.insert(middle + 1, body[middle])
    elif kind == "truncate":
        body = body[: middle + 3]
    elif kind == "torn":
        body[-1] = body[-1][:20]
    elif kind == "forged_checkpoint":
        index = next(i for i, line in enumerate(body) if b'"checkpoint"' in line)
        record = json.loads(body[index])
        record["sig"] = record["sig"][::-1]
        body[index] = json.dumps(record, separators=(",", ":")).encode() + b"\n"
    elif kind == "rehashed":
        # Change a record, then recompute every later prev: only the signatures still catch it.
        record = json.loads(body[middle])
        record["rules"] = ["forged"]
        body[middle] = json.dumps(record, separators=(",", ":")).encode() + b"\n"
        for i in range(middle + 1, len(body)):
            later = json.loads(body[i])
            later["prev"] = line_hash(body[i - 1])
            body[i] = json.dumps(later, separators=(",", ":")).encode() + b"\n"
    elif kind == "modify_last":
        record = json.loads(body[-2])
        record["outcome"] = "ok" if record.get("outcome") != "ok" else "error"
        body[-2] = json.dumps(record, separators=(",", ":")).encode() + b"\n"
    log.write_bytes(b"".join(body))


KINDS = [
    "modify",
    "delete",
    "insert",
    "reorder",
    "duplicate",
    "truncate",
    "torn",
    "forged_checkpoint",
    "rehashed",
    "modify_last",
]


class TestTamperDetection:
    @pytest.mark.parametrize("kind", KINDS)
    def test_detected(self, log: Path, tmp_path: Path, kind: str) -> None:
        """Each kind of tampering is caught, and the first bad record is named."""
        copy = copy_log(log, tmp_path / kind)
        tamper(kind, copy)
        report = verify(copy)
        assert not report.ok, kind
        assert report.problem is not None and report.problem.line >= 1
        assert report.summary().startswith("TAMPERED: ")

    def test_checkpoint_signed_with_another_key_refused(self, log: Path, tmp_path: Path) -> None:
        """Verifying with another key pair's public key fails at the first checkpoint."""
        other = tmp_path / "other" / "x.jsonl"
        AuditLog.open(other).close()
        report = verify(log, key_file=Path(f"{other}.pub"))
        assert not report.ok and "signature" in report.problem.reason  # type: ignore[union-attr]

    def test_witness_altered(self, log: Path, tmp_path: Path) -> None:
        """A witness line that differs from the log's checkpoint is caught."""
        copy = copy_log(log, tmp_path / "w")
        witness = Path(f"{copy}.witness")
        witness.write_bytes(witness.read_bytes().replace(b'"checkpoint"', b'"checkpoint" ', 1))
        assert not verify(copy).ok

    def test_unreadable(self, tmp_path: Path) -> None:
        """A missing log is unreadable, not tampered."""
        with pytest.raises(AuditUnreadable):
            verify(tmp_path / "none.jsonl")


def _fill_disk_then_call(log: Path, root: Path, result: Any) -> None:
    audit = AuditLog.open(log)
    box = Sandbox(policy=load_policy("default"), storage=LocalStorage(root), audit=audit)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (log.stat().st_size + 10, resource.RLIM_INFINITY))
    outcome = box.execute({"command": "create", "path": "/memories/new.md", "file_text": "x"})
    result.put((outcome.is_error, outcome.content, outcome.decision.error_code))


class TestFailClosed:
    def test_unwritable_log_refuses_the_call(self, tmp_path: Path) -> None:
        """When the intent record cannot be written (file too large), the call is refused and storage untouched."""
        log, root = tmp_path / "a.jsonl", tmp_path / "store"
        result = FORK.Queue()
        child = FORK.Process(target=_fill_disk_then_call, args=(log, root, result))
        child.start()
        child.join(timeout=60)
        is_error, content, code = result.get(timeout=5)
        assert is_error and code == "audit_error"
        assert content == "Error: The audit log cannot be written; the call was refused."
        assert not (root / "new.md").exists()

    def test_closed_log_refuses(self) -> None:
        """A closed log refuses every later call."""
        audit = AuditLog.open(Path(os.environ.get("TMPDIR", "/tmp")) / f"closed-{os.getpid()}.jsonl")
        audit.close()
        box = Sandbox(policy=load_policy("default"), storage=InMemoryStorage(), audit=audit)
        result = box.execute({"command": "create", "path": "/memories/a.md", "file_text": "x"})
        assert result.is_error and result.decision.error_code == "audit_error"


def _appender(path: Path, worker: int, count: int) -> None:
    with AuditLog.open(path, durability="flush", checkpoint_every=50) as audit:
        box = Sandbox(policy=load_policy("default"), storage=InMemoryStorage(), audit=audit)
        for n in range(count):
            box.execute({"command": "view", "path": f"/memories/w{worker}-{n}"}, CallContext(scope=f"w{worker}"))


class TestSharedAndRotated:
    def test_four_processes_one_chain(self, tmp_path: Path) -> None:
        """Four processes appending to one log at once keep one valid chain."""
        path = tmp_path / "shared.jsonl"
        AuditLog.open(path).close()
        workers = [FORK.Process(target=_appender, args=(path, w, 150)) for w in range(4)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(timeout=120)
            assert worker.exitcode == 0
        report = verify(path)
        outcomes = [r for r in map(json.loads, lines(path)) if r["event"] == "outcome"]
        assert report.ok, report.summary()
        assert len(outcomes) == 600 and {r["scope"] for r in outcomes} == {"w0", "w1", "w2", "w3"}

    def test_durable_writers_share_fsyncs(self, tmp_path: Path) -> None:
        """Writers (threads, processes) of one log share fsyncs: how much of the file is durable is
        kept in ``<log>.synced``, and a writer whose line is already covered fsyncs nothing; one whose
        line is not covered cannot return without an fsync that succeeds."""
        path = tmp_path / "g.jsonl"
        first, second = AuditLog.open(path), AuditLog.open(path)  # two writers, as two processes
        box = Sandbox(policy=load_policy("default"), storage=InMemoryStorage(), audit=first)
        box.execute({"command": "create", "path": "/memories/a.md", "file_text": "x"})  # a durable intent
        early = path.stat().st_size
        inode, synced = struct.unpack("<QQ", (tmp_path / "g.jsonl.synced").read_bytes())
        assert inode == path.stat().st_ino and 0 < synced <= early
        Sandbox(policy=load_policy("default"), storage=InMemoryStorage(), audit=second).execute(
            {"command": "create", "path": "/memories/b.md", "file_text": "y"}
        )
        assert struct.unpack("<QQ", (tmp_path / "g.jsonl.synced").read_bytes())[1] > synced
        reader, writer = os.pipe()  # a descriptor that cannot be fsynced: only an fsync attempt fails
        try:
            first._make_durable((os.dup(reader), inode, early))  # covered by the second writer's fsync
            with pytest.raises(AuditError, match="durable"):
                first._make_durable((os.dup(reader), inode, path.stat().st_size + 1))  # not covered
        finally:
            os.close(reader)
            os.close(writer)
        first.close()
        second.close()
        assert verify(path).ok

    def test_durable_end_counts_whole_lines_only(self, tmp_path: Path) -> None:
        """An fsync claims only the lines whole under the log's lock: the bytes of another writer's
        append in progress, which a full disk would cut back, are never counted as durable."""
        path = tmp_path / "w.jsonl"
        writer = AuditLog.open(path)
        Sandbox(policy=load_policy("default"), storage=InMemoryStorage(), audit=writer).execute(
            {"command": "create", "path": "/memories/a.md", "file_text": "x"}
        )
        whole = path.stat().st_size
        lock = os.open(f"{path}.lock", os.O_RDWR)
        fcntl.flock(lock, fcntl.LOCK_EX)  # another writer's append, midway: it holds the log's lock
        with path.open("ab") as log:
            log.write(b'{"seq":99,"time":"partial')
        fd = os.open(path, os.O_WRONLY)
        claimed = threading.Thread(target=writer._make_durable, args=((fd, path.stat().st_ino, whole + 1),))
        claimed.start()
        claimed.join(timeout=1.0)
        os.truncate(path, whole)  # that append failed: cut back before its writer lets the lock go
        fcntl.flock(lock, fcntl.LOCK_UN)
        os.close(lock)
        claimed.join()
        assert struct.unpack("<QQ", (tmp_path / "w.jsonl.synced").read_bytes()) == (path.stat().st_ino, whole)
        writer.close()
        assert verify(path).ok

    def test_a_new_log_file_starts_with_nothing_durable(self, tmp_path: Path) -> None:
        """A log file made again (its inode number may be the old one's) owes its durability to no
        fsync of the file before it."""
        path = tmp_path / "n.jsonl"
        with AuditLog.open(path) as first:
            Sandbox(policy=load_policy("default"), storage=InMemoryStorage(), audit=first).execute(
                {"command": "create", "path": "/memories/a.md", "file_text": "x"}
            )
        assert struct.unpack("<QQ", (tmp_path / "n.jsonl.synced").read_bytes())[1] > 0
        path.unlink()
        with AuditLog.open(path) as again:  # makes the file anew
            assert (tmp_path / "n.jsonl.synced").read_bytes() == bytes(16)
            Sandbox(policy=load_policy("default"), storage=InMemoryStorage(), audit=again).execute(
                {"command": "create", "path": "/memories/b.md", "file_text": "y"}
            )
            inode, durable = struct.unpack("<QQ", (tmp_path / "n.jsonl.synced").read_bytes())
            assert inode == path.stat().st_ino and 0 < durable <= path.stat().st_size

    def test_close_waits_for_an_append_under_way(self, tmp_path: Path) -> None:
        """Closing a log another thread is appending to waits for that append: its descriptors are
        never closed under it (a reused descriptor number could send the line into another file)."""
        path = tmp_path / "c.jsonl"
        audit = AuditLog.open(path)
        audit.checkpoint()  # what close() does first; an append may start right after it
        with audit._thread_lock:  # that append, under way in this thread
            closing = threading.Thread(target=audit._release)  # the rest of close()
            closing.start()
            closing.join(timeout=0.5)
            assert closing.is_alive() and os.fstat(audit._fd).st_ino == path.stat().st_ino
        closing.join()
        assert audit._fd == -1 and verify(path).ok
        audit._closed = True  # closed by hand above

    def test_threads_writing_durably_keep_one_chain(self, tmp_path: Path) -> None:
        """Eight threads writing durable records at once: every record is in one verified chain."""
        path = tmp_path / "t.jsonl"
        with AuditLog.open(path, checkpoint_every=40) as audit:

            def writer(worker: int) -> None:
                box = Sandbox(policy=load_policy("default"), storage=InMemoryStorage(), audit=audit)
                for n in range(25):
                    box.execute(
                        {"command": "create", "path": f"/memories/{n}.md", "file_text": "x"},
                        CallContext(scope=f"t{worker}"),
                    )

            threads = [threading.Thread(target=writer, args=(w,)) for w in range(8)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        records = [json.loads(line) for line in lines(path)]
        assert verify(path).ok
        assert sum(r["event"] == "intent" for r in records) == sum(r["event"] == "outcome" for r in records) == 200

    def test_rotation_keeps_the_chain(self, tmp_path: Path) -> None:
        """Rotation by size splits the log into files that verify as one chain."""
        path = tmp_path / "r.jsonl"
        with AuditLog.open(path, rotate_bytes=4000, checkpoint_every=1000) as audit:
            session(Sandbox(policy=load_policy("default"), storage=InMemoryStorage(), audit=audit), 20)
        segments = rotated_segments(path)
        assert len(segments) >= 3
        report = verify(path)
        assert report.ok and report.segments == [p.name for p in segments]
        first_of_second = json.loads(segments[1].read_bytes().splitlines()[0])
        assert first_of_second["seq"] > 1

    def test_deleting_a_rotated_file_is_caught(self, tmp_path: Path) -> None:
        """Removing a middle file of a rotated log breaks the chain."""
        path = tmp_path / "r.jsonl"
        with AuditLog.open(path, rotate_bytes=4000) as audit:
            session(Sandbox(policy=load_policy("default"), storage=InMemoryStorage(), audit=audit), 20)
        rotated_segments(path)[1].unlink()
        assert not verify(path).ok

    def test_default_log_beside_the_store(self, tmp_path: Path) -> None:
        """With no sink given, the default policy puts the log beside a LocalStorage root."""
        with Sandbox(policy=load_policy("default"), storage=LocalStorage(tmp_path / "mem")) as box:
            box.execute({"command": "view", "path": "/memories"})
        assert verify(tmp_path / "mem.audit.jsonl").ok
        assert (tmp_path / "mem.audit.jsonl.witness").exists() and (tmp_path / "mem.audit.jsonl.pub").exists()
