"""The injection corpora are frozen: digests, reproduction from the seed, spans.

Held-out data built without reading the rules (tests/corpora/injection_blind*/README.md) and the
scorer's training set (tests/corpora/injection_train/README.md, written without sight of the blind
ones); these tests read it as plain data and import nothing from the library.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

CORPORA = Path(__file__).resolve().parents[1] / "corpora"
# Folder: (generator, documents, injected documents).
SHAPES = {
    "injection_blind": ("make_blind_injection.py", 2000, 900),
    "injection_blind_v2": ("make_blind_injection_v2.py", 2000, 900),
    "injection_blind_v3": ("make_blind_injection_v3.py", 2000, 900),
    "injection_blind_v4": ("make_blind_injection_v4.py", 2000, 942),
    "injection_train": ("make_injection_train.py", 6000, 2700),
}


@pytest.fixture(scope="module", params=sorted(SHAPES))
def folder(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def records(folder: str) -> list[dict[str, Any]]:
    with (CORPORA / folder / "corpus.jsonl").open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def test_digest_matches_sha256sums(folder: str) -> None:
    """corpus.jsonl hashes to the digest committed in SHA256SUMS."""
    corpus = CORPORA / folder / "corpus.jsonl"
    digest, name = (corpus.parent / "SHA256SUMS").read_text(encoding="ascii").split()
    assert (name, hashlib.sha256(corpus.read_bytes()).hexdigest()) == ("corpus.jsonl", digest)


def test_generator_reproduces_the_committed_bytes(folder: str, tmp_path: Path) -> None:
    """Running the seeded generator again writes the same corpus, byte for byte."""
    argv = [sys.executable, str(CORPORA / SHAPES[folder][0]), "--out", str(tmp_path)]
    subprocess.run(argv, check=True, capture_output=True, timeout=240)  # noqa: S603 - our own script, fixed argv
    assert (tmp_path / "corpus.jsonl").read_bytes() == (CORPORA / folder / "corpus.jsonl").read_bytes()


def test_spans_and_labels(folder: str, records: list[dict[str, Any]]) -> None:
    """Spans are sorted, inside the text and never overlap; a file is injected exactly when it has spans."""
    _, documents, injected = SHAPES[folder]
    bad = []
    for record in records:
        spans = [(span["start"], span["end"]) for span in record["spans"]]
        bad += [record["id"] for start, end in spans if not 0 <= start < end <= len(record["text"])]
        bad += [record["id"] for a, b in itertools.pairwise(spans) if a[1] > b[0]]
        bad += [record["id"]] if record["injected"] != bool(spans) else []
    assert bad == []
    assert len({record["id"] for record in records}) == len(records) == documents
    assert sum(record["injected"] for record in records) == injected
