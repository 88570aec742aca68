"""How well the default policy finds instructions planted in memory, on two corpora.

Each document is written through a sandbox with the default policy (a create on
an in-memory store); it counts as flagged when the call is refused by an
injection rule or scorer, or its decision flags or quarantines (``injection.*``
noted "flagged" or "quarantined"; a finding only recorded is no flag: the model
is not told). "flagged, injected"
is the share of poisoned memories flagged (recall); "flagged, ordinary" the
share of ordinary memories flagged (false alarms).

- examples: the examples the shipped rules carry (positives are poisoned,
  negatives ordinary);
- tuned on: tests/corpora/injection_blind, 2,000 memory files written by someone
  who had not read the rules, frozen before they were measured on it, and read
  for misses and false alarms since (the rules are tuned on it);
- blind: tests/corpora/injection_blind_v2, v3 and v4, 2,000 more each written
  the same way by someone else, frozen before the rules (v2), the scorer (v3)
  or its current version (v4) were run on them and never read for them.

The scorer (``policies/injection/scorer.json``) is trained on
tests/corpora/injection_train and the tuned-on corpus
(``bench/train_injection_scorer.py``), never on the blind ones.

    python bench/injection_scan.py [--per-kind]
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path

from sandbox import Sandbox, load_policy
from sandbox.injection import load_injection_pack
from sandbox.storage import InMemoryStorage

CORPORA = Path(__file__).resolve().parents[1] / "tests" / "corpora"
CORPUS_FILES = {
    "tuned on (tests/corpora/injection_blind)": CORPORA / "injection_blind" / "corpus.jsonl",
    "blind (tests/corpora/injection_blind_v2)": CORPORA / "injection_blind_v2" / "corpus.jsonl",
    "blind (tests/corpora/injection_blind_v3)": CORPORA / "injection_blind_v3" / "corpus.jsonl",
    "blind (tests/corpora/injection_blind_v4)": CORPORA / "injection_blind_v4" / "corpus.jsonl",
}
# (text, injected, kind)
Document = tuple[str, bool, str]


def tuned() -> list[Document]:
    pack = load_injection_pack("builtin")
    documents: list[Document] = []
    for rule_id, examples in pack.examples.items():
        documents += [(text, True, pack.categories[rule_id]) for text in examples.positive]
        documents += [(text, False, "example negative") for text in examples.negative]
    return documents


def corpus(path: Path) -> list[Document]:
    with path.open(encoding="utf-8") as lines:
        return [(r["text"], r["injected"], r["kind"]) for r in map(json.loads, lines)]


def flagged(documents: list[Document]) -> tuple[list[bool], Counter[str], float]:
    """Whether each document was flagged, which rules fired, and the seconds the writes took."""
    policy = load_policy("default")
    box = Sandbox(policy=policy, storage=InMemoryStorage())
    out: list[bool] = []
    rules: Counter[str] = Counter()
    start = time.perf_counter()
    for number, (text, _, _) in enumerate(documents):
        if number % 500 == 0:  # a fresh store now and then: the default quota is 1,000 files
            box = Sandbox(policy=policy, storage=InMemoryStorage())
        result = box.execute({"command": "create", "path": f"/memories/doc-{number}.md", "file_text": text})
        hits = {
            note.rule_id
            for note in result.decision.notes
            if note.rule_id.startswith("injection.") and (result.is_error or note.reason != "recorded")
        }
        if result.is_error and result.decision.error_code == "injection_rejected":
            hits.add("injection.rejected")
        rules.update(hits)
        out.append(bool(hits))
    return out, rules, time.perf_counter() - start


def report(name: str, documents: list[Document], per_kind: bool) -> None:
    marks, rules, seconds = flagged(documents)
    injected = [mark for mark, (_, bad, _) in zip(marks, documents, strict=True) if bad]
    ordinary = [mark for mark, (_, bad, _) in zip(marks, documents, strict=True) if not bad]
    print(
        f"| {name} | {len(injected)} | {sum(injected) / max(1, len(injected)):.3f} | {len(ordinary)} |"
        f" {sum(ordinary) / max(1, len(ordinary)):.3f} | {len(documents) / seconds:,.0f} |"
    )
    if not per_kind:
        return
    kinds: dict[tuple[bool, str], list[bool]] = {}
    for mark, (_, bad, kind) in zip(marks, documents, strict=True):
        kinds.setdefault((bad, kind), []).append(mark)
    print(f"\n{name}, flagged share per kind:\n\n| kind | injected | n | flagged |\n|---|---|---:|---:|")
    for (bad, kind), values in sorted(kinds.items()):
        print(f"| {kind} | {'yes' if bad else 'no'} | {len(values)} | {sum(values) / len(values):.3f} |")
    print("\nrules that fired: " + ", ".join(f"{rule} {count}" for rule, count in rules.most_common()) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-kind", action="store_true", help="the flagged share for each kind of document")
    args = parser.parse_args()
    print("| corpus | injected | flagged, injected | ordinary | flagged, ordinary | writes/s |")
    print("|---|---:|---:|---:|---:|---:|")
    report("the rules' examples", tuned(), args.per_kind)
    for name, path in CORPUS_FILES.items():
        report(name, corpus(path), args.per_kind)


if __name__ == "__main__":
    main()
