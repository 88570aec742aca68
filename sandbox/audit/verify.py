"""Verifying an audit log: every record chained, every checkpoint signed, the witness matched.

:func:`verify` walks the log's files in chain order and stops at the first bad
record, naming its file, line, sequence number and what is wrong. It finds a
modified, deleted, inserted, reordered or duplicated record (the next ``prev`` or
``seq`` does not fit), a forged checkpoint (its signature does not verify with the
log's public key) and a cut tail (a checkpoint of the witness file is missing from
the log).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from sandbox.audit.keys import Verifier, announced_verifier, review_verifier
from sandbox.audit.records import GENESIS, line_hash, rotated_segments
from sandbox.audit.witness import is_database_witness, read_database_witness
from sandbox.errors import KeyRefused, SandboxError

__all__ = [
    "AuditUnreadable", "Problem", "VerifyReport", "check_witness", "default_key_file", "read_records", "verify",
    "verify_lines",
]  # fmt: skip


class AuditUnreadable(SandboxError):
    """The log (or its key) cannot be read at all."""

    code = "audit_unreadable"
    exit_code = 2


@dataclass(frozen=True)
class Problem:
    file: str
    line: int
    seq: int | None
    reason: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" + (f" (seq {self.seq})" if self.seq is not None else "")
        return f"{where}: {self.reason}"


@dataclass
class VerifyReport:
    records: int = 0
    checkpoints: int = 0
    witnessed: int = 0
    segments: list[str] = field(default_factory=list)
    problem: Problem | None = None
    warnings: list[str] = field(default_factory=list)
    key_id: str = ""
    #: The keys the chain was rotated to, in order, after ``key_id``.
    rotations: list[str] = field(default_factory=list)
    #: Each witness checked: its file name and how many of the log's checkpoints it holds.
    witnesses: list[tuple[str, int]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.problem is None

    def summary(self) -> str:
        if self.problem is not None:
            return f"TAMPERED: {self.problem}"
        return (
            f"OK: {self.records} records in {len(self.segments)} file(s), {self.checkpoints} signed checkpoints "
            f"(key {self.key_id}{''.join(f' -> {key}' for key in self.rotations)}), {self.witnessed} witnessed"
        )


def default_key_file(log: Path) -> Path:
    """The public key beside the log; without one, say what to give (never fall back to the private key)."""
    public = Path(f"{log}.pub")
    if not public.exists():
        raise KeyRefused(
            f"Error: no public key beside the log ({public.name}); give it with --key "
            "(for an HMAC-signed log, its key file)"
        )
    return public


def verify(
    log: Path,
    *,
    witness: Path | str | Sequence[Path | str] | None = None,
    key_file: Path | None = None,
    verifier: Verifier | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> VerifyReport:
    """Check the whole chain of ``log``; the witness and key beside it are used unless given.

    ``witness``: one witness file or several (the log's own, off-host ones): every checkpoint each
    holds must be in the log, byte for byte, so a tail cut from the log and its local witness alike
    is still found by a witness kept elsewhere.
    """
    segments = rotated_segments(log)
    if not segments:
        raise AuditUnreadable(f"Error: no audit log at {log.name}")
    verifier = verifier or review_verifier(key_file or default_key_file(log))
    report = VerifyReport(segments=[p.name for p in segments], key_id=verifier.key_id)
    total = sum(p.stat().st_size for p in segments)

    def lines() -> Iterator[tuple[str, int, bytes]]:
        done = 0
        for path in segments:
            with path.open("rb") as source:
                for number, line in enumerate(source, 1):
                    yield path.name, number, line
                    done += len(line)
                    if progress is not None and number % 20_000 == 0:
                        progress(done, total)
        if progress is not None:
            progress(total, total)

    try:
        chain = verify_lines(lines(), verifier, report)
    except OSError as exc:
        raise AuditUnreadable(f"Error: cannot read the audit log ({type(exc).__name__})") from None
    if not report.ok:
        return report
    owed = _owed_journals(log)
    given = [witness] if isinstance(witness, Path | str) else list(witness or ())
    for witness_place in given or [Path(f"{log}.witness")]:
        if is_database_witness(witness_place):
            name, witnessed = _database_witness(str(witness_place), log.name, [report.key_id, *report.rotations])
        else:
            witness_file = Path(witness_place)
            name = witness_file.name
            try:
                witnessed = witness_file.read_bytes().splitlines()
            except FileNotFoundError:
                if given:
                    raise AuditUnreadable(f"Error: no witness file at {witness_file.name}") from None
                report.warnings.append("no witness file: a cut tail cannot be detected")
                return report
            except OSError as exc:
                raise AuditUnreadable(f"Error: cannot read the witness file ({type(exc).__name__})") from None
        report.witnessed = 0
        if not witnessed and chain.checkpoints and not owed:
            # Every checkpoint went to every witness (or is owed to it): one holding none of them was
            # emptied, or holds another log's (a renamed log, another key), so it vouches for nothing.
            report.problem = Problem(name, 0, None, "the witness holds none of the log's checkpoints")
            return report
        check_witness(name, witnessed, chain.checkpoints, report)
        if not report.ok:
            return report
        report.witnesses.append((name, report.witnessed))
    report.witnessed = max(count for _, count in report.witnesses)  # the checkpoints some witness holds
    report.warnings += [f"{count} checkpoint(s) not yet taken by an off-host witness ({name})" for name, count in owed]
    return report


def verify_lines(lines: Iterable[tuple[str, int, bytes]], verifier: Verifier, report: VerifyReport) -> _Chain:
    """Walk ``(source, number, line)`` along the chain, counting into ``report``; stop at the first problem."""
    chain = _Chain(verifier)
    for name, number, line in lines:
        problem = chain.check(name, number, line)
        if problem is not None:
            report.problem = problem
            break
        report.records += chain.torn is None
    if report.problem is None and chain.torn is not None:
        name, number, _, _ = chain.torn
        report.problem = Problem(name, number, None, "not a well-formed audit record")
    report.checkpoints = len(chain.checkpoints) - len(chain.rotations)
    report.rotations = list(chain.rotations)
    report.warnings += chain.gaps
    return chain


#: The time a record carries: what :func:`sandbox.audit.records.rfc3339` writes.
_RFC3339: Final = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z")


class _Chain:
    """The state of a walk along the chain: the last record's seq and hash, the checkpoints seen."""

    def __init__(self, verifier: Verifier) -> None:
        self.verifier = verifier
        self.seq: int | None = None
        self.prev = ""
        self.checkpoints: dict[int, str] = {}
        #: The keys the chain was handed to, in order (each announced and signed by the one before).
        self.rotations: list[str] = []
        #: A line that is no record, held until the next line shows it was sealed: (file, line, offset, bytes).
        self.torn: tuple[str, int, int, bytes] | None = None
        #: The sealed gaps, told to the reader as warnings.
        self.gaps: list[str] = []
        self._file, self._offset = "", 0

    def check(self, name: str, number: int, line: bytes) -> Problem | None:
        if name != self._file:
            self._file, self._offset = name, 0
        offset, self._offset = self._offset, self._offset + len(line)
        if not line.endswith(b"\n"):
            return Problem(name, number, None, "the last record is incomplete (a cut or torn write)")
        try:
            record = json.loads(line)
            seq, prev, event = record["seq"], record["prev"], record["event"]
        except (ValueError, KeyError, TypeError):
            if self.torn is not None:
                return Problem(*self.torn[:2], None, "not a well-formed audit record")
            self.torn = (name, number, offset, line[:-1])
            return None
        problem = self._sealing(name, number, record)
        if problem is not None:
            return problem
        if self.seq is None:
            if prev != GENESIS or seq != 1:
                reason = "the chain does not start at its beginning (earlier records are gone)"
                return Problem(name, number, seq, reason)
        elif seq != self.seq + 1:
            reason = (
                f"sequence {seq} where {self.seq + 1} was expected "
                "(a record was deleted, inserted, reordered or duplicated)"
            )
            return Problem(name, number, seq, reason)
        elif prev != self.prev:
            return Problem(
                name, number, seq, "prev is not the hash of the record before (a record was modified or moved)"
            )
        if event in ("checkpoint", "key_rotation"):
            problem = (
                self._checkpoint(name, number, record)
                if event == "checkpoint"
                else self._rotation(name, number, record)
            )
            if problem is not None:
                return problem
            self.checkpoints[seq] = line_hash(line)
        self.seq, self.prev = seq, line_hash(line)
        return None

    def _checkpoint(self, name: str, number: int, record: dict[str, Any]) -> Problem | None:
        if not isinstance(record.get("time"), str) or not _RFC3339.fullmatch(record["time"]):
            return Problem(name, number, record["seq"], "the checkpoint's time is not a time (a record made over)")
        payload = f"{record['seq']}|{record['prev']}|{record.get('time')}".encode()
        if not isinstance(record.get("sig"), str) or not self.verifier.verify(payload, record["sig"]):
            return Problem(
                name, number, record["seq"], "the checkpoint's signature does not verify (forged, or another key)"
            )
        return None

    def _rotation(self, name: str, number: int, record: dict[str, Any]) -> Problem | None:
        """A key rotation, signed by the key in force, hands the chain to the key it announces."""
        seq, new_id, public = record["seq"], record.get("new_key_id"), record.get("public_key")
        payload = f"{seq}|{record['prev']}|{record.get('time')}|key_rotation|{new_id}|{public}".encode()
        if not isinstance(record.get("sig"), str) or not self.verifier.verify(payload, record["sig"]):
            return Problem(name, number, seq, "the key rotation's signature does not verify (forged, or another key)")
        announced = announced_verifier(record.get("new_alg"), new_id, public)
        if announced is None:
            return Problem(name, number, seq, "the key rotation announces no usable Ed25519 key")
        self.verifier = announced
        self.rotations.append(announced.key_id)
        return None

    def _sealing(self, name: str, number: int, record: dict[str, Any]) -> Problem | None:
        """A torn line must be followed by the record sealing it, which states its place, size and digest."""
        torn, self.torn = self.torn, None
        sealed = record.get("torn") if record.get("event") == "sealed" else None
        if torn is None and sealed is None:
            return None
        if torn is None:
            return Problem(name, number, record.get("seq"), "a record seals a torn write that is not there")
        torn_name, torn_number, offset, data = torn
        stated = {"offset": offset, "length": len(data), "sha256": hashlib.sha256(data).hexdigest()}
        if sealed != stated:
            return Problem(torn_name, torn_number, None, "not a well-formed audit record")
        self.gaps.append(
            f"{torn_name} line {torn_number}: {len(data)} bytes of a write cut short (a full disk or a crash) "
            f"were sealed by record {record.get('seq')}; the records around them verify"
        )
        return None


def _owed_journals(log: Path) -> list[tuple[str, int]]:
    """The journals of checkpoints a witness has not taken yet (``<log>.owed-<id>``), with their counts."""
    found = []
    for journal in sorted(log.parent.glob(f"{log.name}.owed-*")):
        with contextlib.suppress(OSError):
            count = len(journal.read_bytes().splitlines())
            if count:
                found.append((journal.name, count))
    return found


def _database_witness(dsn: str, log_name: str, key_ids: list[str]) -> tuple[str, list[bytes]]:
    """A database witness's name (no password) and the checkpoint lines it holds for the log."""
    import psycopg  # noqa: PLC0415 - only for a database witness

    from sandbox.storage.postgres import describe_dsn  # noqa: PLC0415 - psycopg only for a database witness

    try:
        return describe_dsn(dsn), read_database_witness(dsn, log_name, key_ids)
    except psycopg.Error as exc:
        raise AuditUnreadable(f"Error: cannot read the witness database ({type(exc).__name__})") from None


def check_witness(name: str, lines: list[bytes], checkpoints: dict[int, str], report: VerifyReport) -> None:
    """Every witnessed checkpoint must be in the log, byte for byte."""
    for number, line in enumerate(lines, 1):
        try:
            seq = json.loads(line)["seq"]
        except (ValueError, KeyError, TypeError):
            report.problem = Problem(name, number, None, "not a well-formed witness record")
            return
        if seq not in checkpoints:
            reason = f"the witnessed checkpoint {seq} is missing from the log (the log was cut or altered)"
            report.problem = Problem(name, number, seq, reason)
            return
        if checkpoints[seq] != line_hash(line):
            report.problem = Problem(name, number, seq, f"the log's checkpoint {seq} differs from its witness")
            return
        report.witnessed += 1


def read_records(log: Path) -> Iterator[dict[str, Any]]:
    """Every record of the log, in chain order (parse only; verify separately)."""
    for path in rotated_segments(log):
        with path.open("rb") as source:
            for line in source:
                if not line.endswith(b"\n"):
                    continue
                try:
                    yield json.loads(line)
                except ValueError:  # the torn bytes of a sealed write; verification speaks of them
                    continue
