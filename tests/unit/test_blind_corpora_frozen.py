"""The blind secrets corpora v2 to v12 are frozen: digests, reproduction from the seed, labels.

Held-out data built without reading the rules (tests/corpora/secrets_blind_v2/README.md,
secrets_blind_v3/README.md, secrets_blind_v4/README.md,
secrets_blind_v5/README.md, secrets_blind_v6/README.md,
secrets_blind_v7/README.md, secrets_blind_v8/README.md, secrets_blind_v9/README.md,
secrets_blind_v10/README.md, secrets_blind_v11/README.md and secrets_blind_v12/README.md); these tests read it as plain data and import nothing from the library.
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

CORPORA = Path(__file__).resolve().parents[1] / "corpora"
# Version: (documents, documents holding secrets, least secret kinds and examples of each, same for look-alikes).
SHAPES = {
    2: (1500, 825, (60, 15), (30, 30)),
    3: (1200, 600, (50, 15), (30, 30)),
    4: (1200, 600, (80, 15), (35, 30)),
    5: (1200, 600, (80, 15), (35, 30)),
    6: (1200, 600, (160, 16), (45, 33)),
    7: (1200, 610, (200, 16), (50, 32)),
    8: (1200, 600, (170, 15), (47, 32)),
    9: (1200, 598, (170, 16), (48, 33)),
    10: (1200, 604, (200, 16), (56, 32)),
    11: (1200, 600, (221, 15), (64, 32)),
    12: (1200, 600, (203, 15), (61, 32)),
}


@pytest.fixture(scope="module", params=sorted(SHAPES))
def version(request: pytest.FixtureRequest) -> int:
    return int(request.param)


def _corpus(version: int) -> Path:
    return CORPORA / f"secrets_blind_v{version}" / "corpus.jsonl"


@pytest.fixture(scope="module")
def records(version: int) -> list[dict[str, Any]]:
    with _corpus(version).open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def test_digest_matches_sha256sums(version: int) -> None:
    """corpus.jsonl hashes to the digest committed in SHA256SUMS."""
    corpus = _corpus(version)
    digest, name = (corpus.parent / "SHA256SUMS").read_text(encoding="ascii").split()
    assert (name, hashlib.sha256(corpus.read_bytes()).hexdigest()) == ("corpus.jsonl", digest)


def test_generator_reproduces_the_committed_bytes(version: int, tmp_path: Path) -> None:
    """Running the seeded generator again writes the same corpus, byte for byte."""
    argv = [sys.executable, str(CORPORA / f"make_blind_secrets_v{version}.py"), "--out", str(tmp_path)]
    subprocess.run(argv, check=True, capture_output=True, timeout=240)  # noqa: S603 - our own script, fixed argv
    assert (tmp_path / "corpus.jsonl").read_bytes() == _corpus(version).read_bytes()


def test_labels_slice_out_their_values_and_never_overlap(version: int, records: list[dict[str, Any]]) -> None:
    """text[start:end] == value for every span; spans of a document never overlap; ids are unique."""
    bad = []
    for record in records:
        spans = sorted((s["start"], s["end"], s["value"]) for s in record["secrets"] + record["lookalikes"])
        bad += [record["id"] for start, end, value in spans if record["text"][start:end] != value]
        bad += [record["id"] for a, b in itertools.pairwise(spans) if a[1] > b[0]]
    assert bad == [] and len({r["id"] for r in records}) == len(records) == SHAPES[version][0]


def test_kinds_and_mix(version: int, records: list[dict[str, Any]]) -> None:
    """Enough secret and look-alike kinds, each often enough; the documented share holds secrets."""
    _, holding, (secret_kinds, per_secret), (lookalike_kinds, per_lookalike) = SHAPES[version]
    secrets = Counter(s["kind"] for r in records for s in r["secrets"])
    lookalikes = Counter(s["kind"] for r in records for s in r["lookalikes"])
    assert len(secrets) >= secret_kinds and min(secrets.values()) >= per_secret
    assert len(lookalikes) >= lookalike_kinds and min(lookalikes.values()) >= per_lookalike
    assert sum(bool(r["secrets"]) for r in records) == holding
