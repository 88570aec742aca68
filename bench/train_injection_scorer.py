"""Train the injection scorer shipped as ``policies/injection/scorer.json``.

The training documents are the corpora the injection work is allowed to read:
``tests/corpora/injection_train`` (written for training, without sight of the
test corpora) and ``tests/corpora/injection_blind`` (the corpus the rules are
tuned on). The model reads which of the shipped rules find something in each
line (``policies/injection/builtin.toml``), so a change of the rules needs the
model trained again. The blind corpora (``injection_blind_v2`` and later) are never read
here: they measure the model (``bench/injection_scan.py``). Training is
deterministic; ``tests/unit/test_injection_scorer.py`` checks that the shipped
file is what this script writes.

    python bench/train_injection_scorer.py [--check]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from _shipped import write_or_check

from sandbox.injection import InjectionScan, load_injection_pack
from sandbox.injection_scorer import Labelled, train

ROOT = Path(__file__).resolve().parents[1]
TRAINING = (
    ROOT / "tests" / "corpora" / "injection_train" / "corpus.jsonl",
    ROOT / "tests" / "corpora" / "injection_blind" / "corpus.jsonl",
)
MODEL = ROOT / "policies" / "injection" / "scorer.json"


def documents() -> list[Labelled]:
    out: list[Labelled] = []
    for path in TRAINING:
        with path.open(encoding="utf-8") as lines:
            for record in map(json.loads, lines):
                spans = tuple((span["start"], span["end"]) for span in record["spans"])
                out.append(Labelled(record["text"], spans))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail when the shipped model is not what training gives")
    args = parser.parse_args()
    start = time.perf_counter()
    rules = InjectionScan((load_injection_pack("builtin"),))
    model = train(documents(), rules=rules.rules_for)
    return write_or_check(model, MODEL, ROOT, check=args.check, seconds=time.perf_counter() - start)


if __name__ == "__main__":
    sys.exit(main())
