"""The second blind secrets corpus is frozen: its digest, its reproduction from the seed, and its labels.

Held-out data built without reading the rules (tests/corpora/secrets_blind_v2/README.md); these tests
read it as plain data and import nothing from the library.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

FOLDER = Path(__file__).resolve().parents[1] / "corpora" / "secrets_blind_v2"
CORPUS = FOLDER / "corpus.jsonl"
GENERATOR = FOLDER.parent / "make_blind_secrets_v2.py"


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    with CORPUS.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def test_digest_matches_sha256sums() -> None:
    """corpus.jsonl hashes to the digest committed in SHA256SUMS."""
    digest, name = (FOLDER / "SHA256SUMS").read_text(encoding="ascii").split()
    assert (name, hashlib.sha256(CORPUS.read_bytes()).hexdigest()) == ("corpus.jsonl", digest)


def test_generator_reproduces_the_committed_bytes(tmp_path: Path) -> None:
    """Running the seeded generator again writes the same corpus, byte for byte."""
    argv = [sys.executable, str(GENERATOR), "--out", str(tmp_path)]
    subprocess.run(argv, check=True, capture_output=True, timeout=240)  # noqa: S603 - our own script, fixed argv
    assert (tmp_path / "corpus.jsonl").read_bytes() == CORPUS.read_bytes()


def test_labels_slice_out_their_values_and_never_overlap(records: list[dict[str, Any]]) -> None:
    """text[start:end] == value for every span; spans of a document never overlap; ids are unique."""
    bad = []
    for record in records:
        spans = sorted((s["start"], s["end"], s["value"]) for s in record["secrets"] + record["lookalikes"])
        bad += [record["id"] for start, end, value in spans if record["text"][start:end] != value]
        bad += [record["id"] for a, b in itertools.pairwise(spans) if a[1] > b[0]]
    assert bad == [] and len({r["id"] for r in records}) == len(records) == 1500


def test_kinds_and_mix(records: list[dict[str, Any]]) -> None:
    """At least 60 secret kinds (15 of each) and 30 look-alike kinds (30 of each); 55% of documents hold secrets."""
    secrets = Counter(s["kind"] for r in records for s in r["secrets"])
    lookalikes = Counter(s["kind"] for r in records for s in r["lookalikes"])
    assert len(secrets) >= 60 and min(secrets.values()) >= 15
    assert len(lookalikes) >= 30 and min(lookalikes.values()) >= 30
    assert sum(bool(r["secrets"]) for r in records) == 825
