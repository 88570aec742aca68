#!/usr/bin/env python3
"""Generates the blind secrets corpus: memory files with labelled secrets and public look-alikes.

Built from public descriptions of the token formats and from how people write notes and config,
without reference to this project's detection rules (see secrets_blind/README.md). Seeded and
stdlib-only, so the committed corpus.jsonl can be reproduced byte for byte:

    python3 tests/corpora/make_blind_secrets.py                # rewrite secrets_blind/
    python3 tests/corpora/make_blind_secrets.py --out /tmp/x   # write elsewhere
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path

# The helper modules sit beside this script; it runs as a script, not as part of a package.
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _blind_common import Item, Piece
from _blind_docs import render_markdown
from _blind_lookalikes import LOOKALIKE_KINDS
from _blind_render import allowed, render_config
from _blind_secrets import SECRET_KINDS

SEED = 20261201
DOCUMENTS = 3000
CORPUS = "corpus.jsonl"
SUMS = "SHA256SUMS"
# Share of documents by format: most memory files are markdown, the rest are pasted config.
CONTEXTS = [
    ("markdown", 40),
    ("env", 8),
    ("yaml", 8),
    ("json", 7),
    ("shell", 6),
    ("python", 6),
    ("javascript", 5),
    ("log", 5),
    ("toml", 4),
    ("ini", 4),
    ("go", 4),
    ("http", 3),
]

# Kinds dealt twice per round: the generic detectors and the formats that carry no prefix, which
# are where scanners differ most, get more samples for their per-kind figures.
DOUBLE = (
    "generic_password",
    "generic_secret",
    "generic_api_key",
    "twilio_auth_token",
    "aws_secret_access_key",
    "azure_storage_account_key",
    "azure_ad_client_secret",
    "bearer_token",
)

Gen = Callable[[random.Random], Item]


class Deck:
    """Deals kinds in shuffled rounds, so every kind is drawn about equally often."""

    def __init__(self, kinds: list[tuple[str, Gen]], rng: random.Random) -> None:
        self._kinds = [gen for name, gen in kinds for _ in range(2 if name in DOUBLE else 1)]
        self._cards: list[Gen] = []
        self._rng = rng

    def draw(self) -> Gen:
        if not self._cards:
            self._cards = list(self._kinds)
            self._rng.shuffle(self._cards)
        return self._cards.pop()


def _context(items: list[Item], rng: random.Random) -> str:
    names = [name for name, _ in CONTEXTS if all(allowed(item, name) for item in items)]
    weights = [weight for name, weight in CONTEXTS if name in names]
    return rng.choices(names, weights)[0]


def _record(doc_id: str, context: str, pieces: list[Piece]) -> dict[str, object]:
    text, spans, at = [], {"secret": [], "lookalike": []}, 0
    for chunk, role, kind in pieces:
        if role in spans and kind is not None:
            spans[role].append({"kind": kind, "value": chunk, "start": at, "end": at + len(chunk)})
        text.append(chunk)
        at += len(chunk)
    return {
        "id": doc_id,
        "context": context,
        "text": "".join(text),
        "secrets": spans["secret"],
        "lookalikes": spans["lookalike"],
    }


def build(seed: int = SEED, count: int = DOCUMENTS) -> list[dict[str, object]]:
    rng = random.Random(seed)
    secrets, lookalikes = Deck(SECRET_KINDS, rng), Deck(LOOKALIKE_KINDS, rng)
    records = []
    for n in range(count):
        chosen: list[Item] = []
        if rng.random() < 0.40:
            chosen += [secrets.draw()(rng) for _ in range(rng.choice([1, 1, 2, 2, 3, 3, 4, 5, 6]))]
        if rng.random() < 0.60:
            chosen += [lookalikes.draw()(rng) for _ in range(rng.choice([1, 1, 2, 2, 3, 4]))]
        items = [one for item in chosen for one in (item, *item.extra)]
        rng.shuffle(items)
        context = _context(items, rng)
        pieces = render_markdown(items, rng) if context == "markdown" else render_config(context, items, rng)
        records.append(_record(f"blind-{n + 1:04d}", context, pieces))
    return records


def write(out: Path, seed: int = SEED, count: int = DOCUMENTS) -> str:
    out.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(record, ensure_ascii=False) + "\n" for record in build(seed, count)]
    data = "".join(lines).encode("utf-8")
    (out / CORPUS).write_bytes(data)
    digest = hashlib.sha256(data).hexdigest()
    (out / SUMS).write_text(f"{digest}  {CORPUS}\n", encoding="ascii")
    return digest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "secrets_blind")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--count", type=int, default=DOCUMENTS)
    args = parser.parse_args(argv)
    digest = write(args.out, args.seed, args.count)
    print(f"{digest}  {args.out / CORPUS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
