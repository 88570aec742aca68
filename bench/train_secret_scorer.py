"""Train the secret scorer shipped as ``policies/secrets/scorer.json``, and measure it held out.

The training documents are the labelled secret corpora the rules have already
been measured on (``tests/corpora/secrets_blind`` to ``secrets_blind_v11``, eleven
authors), each a group: the threshold is where 0.3% of the ordinary tokens are
flagged by a model trained without their corpus. A corpus not yet measured
(a new blind one) is never read here before its first run. Training is
deterministic; ``tests/unit/test_secret_scorer.py`` checks that the shipped file
is what this script writes.

``--held-out`` measures what the scorer adds where it has not seen the text:
each corpus in turn is written through a sandbox with the default policy whose
scorer was trained without it (the rules as shipped), next to the rules alone.

    python bench/train_secret_scorer.py [--check | --held-out]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from _shipped import write_or_check

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sandbox.secret_scorer import Labelled, TokenModel, examples, train, without

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT / "tests" / "corpora"
TRAINING = ("secrets_blind", *(f"secrets_blind_v{number}" for number in range(2, 12)))
MODEL = ROOT / "policies" / "secrets" / "scorer.json"


def documents() -> list[Labelled]:
    out: list[Labelled] = []
    for group, name in enumerate(TRAINING):
        with (CORPORA / name / "corpus.jsonl").open(encoding="utf-8") as lines:
            for record in map(json.loads, lines):
                spans = tuple((span["start"], span["end"]) for span in record["secrets"])
                out.append(Labelled(record["text"], spans, group))
    return out


def held_out(model: TokenModel, corpus: list[Labelled]) -> None:
    # Imported here: the bench's scoring is only needed for this measure.
    from secret_scan import blind_corpus, score  # noqa: PLC0415

    from sandbox import load_policy  # noqa: PLC0415
    from sandbox.redaction import SecretGuard  # noqa: PLC0415

    section = load_policy("default").secrets
    rules_only = SecretGuard(section.model_copy(update={"scorer": False}))
    tokens = examples(corpus)
    print("| corpus | secrets | recall, rules | recall, with scorer | keep, rules | keep, with scorer |")
    print("|---|---:|---:|---:|---:|---:|")
    for group, name in enumerate(TRAINING):
        trained = without(tokens, group)
        fold = TokenModel(trained.weights, trained.bias, model.threshold, {})
        labelled = blind_corpus(CORPORA / name / "corpus.jsonl")
        alone, scored = score(labelled, rules_only), score(labelled, SecretGuard(section, scorer=fold))
        count = sum(counts[1] for counts in alone.gone.values())
        print(
            f"| {name} | {count} | {alone.totals(alone.gone):.3f} | {scored.totals(scored.gone):.3f} "
            f"| {alone.totals(alone.kept):.3f} | {scored.totals(scored.kept):.3f} |"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail when the shipped model is not what training gives")
    parser.add_argument("--held-out", action="store_true", help="measure each corpus with a model trained without it")
    args = parser.parse_args()
    start = time.perf_counter()
    corpus = documents()
    model = train(corpus)
    seconds = time.perf_counter() - start
    if args.held_out:
        held_out(model, corpus)
        return 0
    return write_or_check(model, MODEL, ROOT, check=args.check, seconds=seconds)


if __name__ == "__main__":
    sys.exit(main())
