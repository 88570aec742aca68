"""The tamper-evident audit log and its review.

One package, layered without cycles, each module importing only those listed before it:

* :mod:`~sandbox.audit.records`: how a line is hashed, rendered and dated; the files a log spans;
* :mod:`~sandbox.audit.keys`: signing and verifying keys (Ed25519, or HMAC for a shared secret);
* :mod:`~sandbox.audit.verify`: walking a chain, its checkpoints and witness;
* :mod:`~sandbox.audit.chain`: :class:`ChainedAuditSink`, the chain wherever its lines are kept;
* :mod:`~sandbox.audit.file_log`: :class:`AuditLog`, the chain in JSON-lines files;
* :mod:`~sandbox.audit.postgres`: the chain in PostgreSQL (imports psycopg; load it when needed);
* :mod:`~sandbox.audit.configured`: the log a policy's ``[audit]`` section asks for;
* :mod:`~sandbox.audit.summary`, :mod:`~sandbox.audit.ocsf`, :mod:`~sandbox.audit.html`,
  :mod:`~sandbox.audit.review`: what a reviewer reads (query, export, reports).
"""

from __future__ import annotations

from sandbox.audit.chain import ChainedAuditSink
from sandbox.audit.configured import open_configured
from sandbox.audit.file_log import AuditLog
from sandbox.audit.records import GENESIS, AuditError, line_hash, rotated_segments
from sandbox.audit.verify import AuditUnreadable, VerifyReport, read_records, verify

__all__ = [
    "GENESIS",
    "AuditError",
    "AuditLog",
    "AuditUnreadable",
    "ChainedAuditSink",
    "VerifyReport",
    "line_hash",
    "open_configured",
    "read_records",
    "rotated_segments",
    "verify",
]
