"""``audit export --format ocsf``: each decision as an OCSF 1.6.0 File System Activity event."""

from __future__ import annotations

import json
from pathlib import Path

from sandbox import Sandbox, load_policy
from sandbox.audit import AuditLog
from sandbox.audit.ocsf import OCSF_VERSION
from sandbox.decision import CallContext
from sandbox.storage import LocalStorage
from tests.unit.test_cli import run

#: What OCSF requires of every File System Activity event (base event and class).
REQUIRED = ("activity_id", "category_uid", "class_uid", "severity_id", "time", "type_uid", "metadata", "actor", "file")
AKIA = "AKIAZ7Q3K5RT2PLM4QWE"


def test_each_decision_is_one_file_system_activity_event(tmp_path: Path) -> None:
    log = tmp_path / "audit" / "audit.jsonl"
    log.parent.mkdir()
    audit = AuditLog.open(log)
    sandbox = Sandbox(policy=load_policy("default"), storage=LocalStorage(tmp_path / "m"), audit=audit)
    context = CallContext(scope="alice", principal="agent-7")
    for command in (
        {"command": "create", "path": "/memories/a.md", "file_text": f"key {AKIA}\n"},
        {"command": "view", "path": "/memories/a.md"},
        {"command": "str_replace", "path": "/memories/a.md", "old_str": "key ", "new_str": "k "},
        {"command": "rename", "old_path": "/memories/a.md", "new_path": "/memories/b.md"},
        {"command": "view", "path": "/memories/../etc/passwd"},
        {"command": "delete", "path": "/memories/b.md"},
        {"command": "chmod", "path": "/memories/b.md"},
    ):
        sandbox.execute(command, context)
    sandbox.close()
    audit.close()
    out = tmp_path / "events.jsonl"
    result = run("audit", "export", str(log), "--format", "ocsf", "--out", str(out))
    assert result.returncode == 0, result.stderr
    events = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(events) == 7
    for event in events:
        assert all(key in event for key in REQUIRED), event
        assert event["class_uid"] == 1001 and event["category_uid"] == 1
        assert event["type_uid"] == 100100 + event["activity_id"]
        assert event["metadata"]["version"] == OCSF_VERSION and event["metadata"]["product"]["name"] == "memory-sandbox"
        assert isinstance(event["time"], int) and event["time"] > 1_700_000_000_000
        assert event["actor"]["user"]["uid"] == "agent-7" and event["unmapped"]["scope"] == "alice"
        assert isinstance(event["unmapped"]["chain"]["seq"], int) and len(event["unmapped"]["chain"]["prev"]) == 64
    activities = [(e["activity_id"], e["action"], e["status"]) for e in events]
    assert activities == [
        (1, "Allowed", "Success"),  # create, the key redacted
        (2, "Allowed", "Success"),
        (3, "Allowed", "Success"),
        (5, "Allowed", "Success"),
        (2, "Denied", "Failure"),
        (4, "Allowed", "Success"),
        (99, "Denied", "Failure"),
    ]
    assert events[0]["severity_id"] == 2 and events[0]["unmapped"]["decision"] == "redact"
    assert events[3]["file"]["path"] == "/memories/a.md" and events[3]["file_result"]["path"] == "/memories/b.md"
    assert events[4]["severity_id"] == 3 and events[4]["unmapped"]["rules"]
    assert AKIA not in out.read_text()
