"""The blind secrets corpus is frozen: its digest, its reproduction from the seed, and its labels.

The corpus is held-out data for measuring the secret rules, so these tests read it as plain data
and import nothing from the library.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import re
import string
import subprocess
import sys
import zlib
from collections import Counter
from pathlib import Path

import pytest

CORPORA = Path(__file__).resolve().parents[1] / "corpora"
FOLDER = CORPORA / "secrets_blind"
CORPUS = FOLDER / "corpus.jsonl"
GENERATOR = CORPORA / "make_blind_secrets.py"
CONTEXTS = {"markdown", "env", "shell", "yaml", "json", "toml", "ini", "python", "javascript", "go", "http", "log"}
Record = dict[str, object]
Span = dict[str, object]


@pytest.fixture(scope="module")
def records() -> list[Record]:
    with CORPUS.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def _spans(record: Record, field: str) -> list[Span]:
    spans = record[field]
    assert isinstance(spans, list)
    return spans


def _all(records: list[Record], field: str) -> list[Span]:
    return [span for record in records for span in _spans(record, field)]


def _kinds(records: list[Record], field: str) -> Counter[str]:
    return Counter(str(span["kind"]) for span in _all(records, field))


def test_digest_matches_sha256sums() -> None:
    """corpus.jsonl hashes to the digest committed in SHA256SUMS."""
    digest, name = (FOLDER / "SHA256SUMS").read_text(encoding="ascii").split()
    assert (name, hashlib.sha256(CORPUS.read_bytes()).hexdigest()) == ("corpus.jsonl", digest)


def test_generator_reproduces_the_committed_bytes(tmp_path: Path) -> None:
    """Running the seeded generator again writes the same corpus and digest file, byte for byte."""
    argv = [sys.executable, str(GENERATOR), "--out", str(tmp_path)]
    subprocess.run(argv, check=True, capture_output=True, timeout=240)  # noqa: S603 - our own script, fixed argv
    fresh = [(tmp_path / name).read_bytes() for name in ("corpus.jsonl", "SHA256SUMS")]
    assert fresh == [CORPUS.read_bytes(), (FOLDER / "SHA256SUMS").read_bytes()]


def test_corpus_stays_small() -> None:
    """The frozen corpus stays under 8 MB."""
    assert CORPUS.stat().st_size < 8 * 1024 * 1024


def test_records_have_the_documented_fields(records: list[Record]) -> None:
    """Every record has exactly id, context, text, secrets and lookalikes, with a known context."""
    bad = [
        r["id"]
        for r in records
        if list(r) != ["id", "context", "text", "secrets", "lookalikes"] or r["context"] not in CONTEXTS
    ]
    assert bad == []


def test_ids_are_unique(records: list[Record]) -> None:
    """Record ids are unique."""
    assert len({r["id"] for r in records}) == len(records) == 3000


def test_every_offset_slices_out_its_value(records: list[Record]) -> None:
    """text[start:end] == value for every labelled span (character offsets)."""
    bad = []
    for record in records:
        text = str(record["text"])
        for span in _spans(record, "secrets") + _spans(record, "lookalikes"):
            start, end = int(str(span["start"])), int(str(span["end"]))
            if not (0 <= start < end <= len(text)) or text[start:end] != span["value"]:
                bad.append((record["id"], span["kind"]))
    assert bad == []


def test_spans_never_overlap(records: list[Record]) -> None:
    """No two labelled spans of a document overlap."""
    bad = []
    for record in records:
        spans = sorted(
            (int(str(s["start"])), int(str(s["end"]))) for s in _spans(record, "secrets") + _spans(record, "lookalikes")
        )
        bad += [record["id"] for a, b in itertools.pairwise(spans) if a[1] > b[0]]
    assert bad == []


def test_at_least_forty_secret_kinds(records: list[Record]) -> None:
    """The corpus labels at least 40 secret kinds, each at least 20 times."""
    counts = _kinds(records, "secrets")
    assert len(counts) >= 40 and min(counts.values()) >= 20


def test_at_least_twenty_four_lookalike_kinds(records: list[Record]) -> None:
    """The corpus labels at least 24 public look-alike kinds, each at least 20 times."""
    counts = _kinds(records, "lookalikes")
    assert len(counts) >= 24 and min(counts.values()) >= 20


def test_document_mix(records: list[Record]) -> None:
    """About 40% of documents hold secrets, about 60% look-alikes; some both, some neither."""
    secrets = [bool(r["secrets"]) for r in records]
    looks = [bool(r["lookalikes"]) for r in records]
    both = sum(s and k for s, k in zip(secrets, looks, strict=True))
    neither = sum(not s and not k for s, k in zip(secrets, looks, strict=True))
    shares = (round(sum(secrets) / 3000, 1), round(sum(looks) / 3000, 1))
    assert shares == (0.4, 0.6) and both > 300 and neither > 300


def test_no_value_is_both_secret_and_public(records: list[Record]) -> None:
    """No value is labelled a secret in one place and a look-alike in another."""
    secret_values = {span["value"] for span in _all(records, "secrets")}
    assert secret_values.isdisjoint(span["value"] for span in _all(records, "lookalikes"))


_B62 = string.digits + string.ascii_uppercase + string.ascii_lowercase


def _base62_crc(body: str) -> str:
    n, out = zlib.crc32(body.encode()), ""
    for _ in range(6):
        n, r = divmod(n, 62)
        out = _B62[r] + out
    return out


def test_github_classic_and_npm_tokens_carry_valid_checksums(records: list[Record]) -> None:
    """ghp_/gho_/ghs_/ghu_/ghr_/npm_ tokens end in the CRC32 of their body, base62-encoded."""
    kinds = {"github_classic_pat", "github_oauth_token", "github_app_token", "github_refresh_token", "npm_token"}
    tokens = [str(s["value"]) for s in _all(records, "secrets") if s["kind"] in kinds]
    assert tokens and all(len(t) == 40 and _base62_crc(t[4:34]) == t[34:] for t in tokens)


def test_pgp_blocks_carry_valid_armor_checksums(records: list[Record]) -> None:
    """Each PGP private key block ends with the CRC24 of its body (RFC 4880)."""

    def crc24(data: bytes) -> int:
        crc = 0xB704CE
        for byte in data:
            crc ^= byte << 16
            for _ in range(8):
                crc = (crc << 1) ^ (0x1864CFB if crc & 0x800000 else 0)
        return crc & 0xFFFFFF

    blocks = [str(s["value"]) for s in _all(records, "secrets") if s["kind"] == "pgp_private_key"]
    ok = []
    for written in blocks:
        # As written: JSON strings escape the newlines, YAML block scalars indent them.
        block = "\n".join(line.strip() for line in written.replace("\\n", "\n").splitlines())
        body = re.search(r"\n\n(.*)\n=(....)\n", block, re.S)
        assert body is not None
        raw = base64.b64decode(body.group(1).replace("\n", ""))
        ok.append(crc24(raw).to_bytes(3, "big") == base64.b64decode(body.group(2)))
    assert ok and all(ok)


def test_ibans_have_valid_check_digits(records: list[Record]) -> None:
    """Every IBAN look-alike passes the ISO 13616 mod-97 check."""
    ibans = [str(s["value"]).replace(" ", "") for s in _all(records, "lookalikes") if s["kind"] == "iban"]
    assert ibans and all(int("".join(str(int(c, 36)) for c in i[4:] + i[:4])) % 97 == 1 for i in ibans)
