"""Decision records as OCSF events, for a SIEM: File System Activity (class 1001), OCSF 1.6.0.

Each outcome record becomes one event: the command is the activity (``create`` 1 Create,
``view`` 2 Read, ``str_replace``/``insert`` 3 Update, ``delete`` 4 Delete, ``rename`` 5
Rename; anything else 99 Other), the verdict the action (``allow`` and ``redact`` 1 Allowed,
``deny`` 2 Denied, in the ``security_control`` profile) and the severity (1 Informational, 2 Low
for a redaction, 3 Medium for a denial), the outcome the status. OCSF has no attribute for a
record's place in a hash chain, so the chain (``seq``, ``prev``), the rules and reasons and the
policy go under ``unmapped``, as the schema says for fields it does not define; verify the log
itself before trusting an export.
"""

from __future__ import annotations

import datetime
from typing import Any, Final

__all__ = ["OCSF_VERSION", "to_ocsf"]

OCSF_VERSION: Final = "1.6.0"
_CLASS_UID: Final = 1001  # File System Activity
_CATEGORY_UID: Final = 1  # System Activity
_ACTIVITIES: Final = {
    "create": (1, "Create"),
    "view": (2, "Read"),
    "str_replace": (3, "Update"),
    "insert": (3, "Update"),
    "delete": (4, "Delete"),
    "rename": (5, "Rename"),
}
_ACTIONS: Final = {"allow": (1, "Allowed"), "redact": (1, "Allowed"), "deny": (2, "Denied")}
_SEVERITIES: Final = {"allow": (1, "Informational"), "redact": (2, "Low"), "deny": (3, "Medium")}


def to_ocsf(record: dict[str, Any], *, product_version: str) -> dict[str, Any]:
    """One outcome record as an OCSF File System Activity event."""
    command = record.get("command")
    activity_id, activity = _ACTIVITIES.get(command or "", (99, "Other"))
    decision = str(record.get("decision", ""))
    action_id, action = _ACTIONS.get(decision, (0, "Unknown"))
    severity_id, severity = _SEVERITIES.get(decision, (0, "Unknown"))
    succeeded = record.get("outcome") == "ok"
    paths = [str(path) for path in record.get("paths") or []]
    moment = datetime.datetime.fromisoformat(str(record["time"]).replace("Z", "+00:00"))
    event: dict[str, Any] = {
        "class_uid": _CLASS_UID,
        "class_name": "File System Activity",
        "category_uid": _CATEGORY_UID,
        "category_name": "System Activity",
        "activity_id": activity_id,
        "activity_name": activity if activity_id != 99 else str(command or "malformed"),
        "type_uid": _CLASS_UID * 100 + activity_id,
        "time": int(moment.timestamp() * 1000),
        "severity_id": severity_id,
        "severity": severity,
        "action_id": action_id,
        "action": action,
        "status_id": 1 if succeeded else 2,
        "status": "Success" if succeeded else "Failure",
        "metadata": {
            "version": OCSF_VERSION,
            "profiles": ["security_control"],
            "product": {"name": "memory-sandbox", "vendor_name": "memory-sandbox", "version": product_version},
            "original_event_uid": str(record.get("decision_id", "")),
            "original_time": str(record["time"]),
            "log_name": "memory-sandbox audit log",
        },
        "actor": {"user": {"uid": str(record.get("principal") or record.get("scope") or "model")}},
        "file": {"path": paths[0] if paths else "", "name": paths[0].rsplit("/", 1)[-1] if paths else "", "type_id": 0},
        "unmapped": {
            "scope": record.get("scope"),
            "session_id": record.get("session_id"),
            "decision": decision,
            "rules": record.get("rules", []),
            "reasons": record.get("reasons", []),
            "policy": record.get("policy"),
            "chain": {"seq": record.get("seq"), "prev": record.get("prev")},
        },
    }
    if record.get("error") is not None:
        event["status_detail"] = str(record["error"])
    if len(paths) > 1:  # a rename: the file it became
        event["file_result"] = {"path": paths[1], "name": paths[1].rsplit("/", 1)[-1], "type_id": 0}
    return event
