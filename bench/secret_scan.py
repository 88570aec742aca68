"""Secret scanning speed: our engine next to detect-secrets, on the same text, in one run.

Texts come from the labeled corpus generator (tests/secrets_corpus.py): memory
files in every format (markdown notes, JSON, YAML, .env, prose). "plain notes"
has neither secrets nor look-alikes; "typical" has secrets in 2% of documents
(every rule represented) and hard negatives (public look-alikes) in 10%;
"dense" has both in every document (about one secret per 300 bytes). Our time
includes redaction and what the sandbox scans beyond the rules (invisible
characters removed, encoded runs decoded and scanned again:
sandbox.secrets.find_hidden). detect-secrets (``pip install detect-secrets``)
scans the same text from a file with its default plugins. A second table scans texts
crafted against the scanner (tests/secrets_corpus.py CRAFTED) at the size and at
twice the size: the scan is linear when the second time is about twice the first.
The engine finds rule keywords with hyperscan when it is installed; one more row
shows typical text with RE2 finding them instead.

Quality is measured on two labelled corpora, each document written through a
sandbox with the default policy: the generated one (tests/secrets_corpus.py,
written with the rules in mind) and the blind one (tests/corpora/secrets_blind,
written from the formats' public descriptions by someone who had not read the
rules, frozen before the rules were changed against it). "recall" is the share
of secrets gone from what is stored, "keep" the share of public look-alikes
stored intact, "precision" the share of redacted spans that cover a labelled
secret (on the blind corpus, whose labels carry offsets). Per kind too.

    python bench/secret_scan.py [--size 1048576] [--skip-detect-secrets] [--quality-only] [--per-kind]

(Not ``bench/secrets.py``: a script of that name would shadow the standard
library's ``secrets`` module for every script run from this folder.)
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

# The repository root, for tests.secrets_corpus.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sandbox import Sandbox, load_policy
from sandbox.paths import canonicalize
from sandbox.policy import parse_policy
from sandbox.redaction import SecretGuard
from sandbox.secret_scorer import SecretScorer
from sandbox.secrets import Finding, SecretEngine, find_hidden, load_pack, redact
from sandbox.storage import InMemoryStorage
from tests.secrets_corpus import CRAFTED, generate, mixed_text

CORPORA = Path(__file__).resolve().parents[1] / "tests" / "corpora"
BLIND = {
    "blind (tests/corpora/secrets_blind)": CORPORA / "secrets_blind" / "corpus.jsonl",
    "blind v2 (tests/corpora/secrets_blind_v2)": CORPORA / "secrets_blind_v2" / "corpus.jsonl",
    "blind v3 (tests/corpora/secrets_blind_v3)": CORPORA / "secrets_blind_v3" / "corpus.jsonl",
    "blind v4 (tests/corpora/secrets_blind_v4)": CORPORA / "secrets_blind_v4" / "corpus.jsonl",
    "blind v5 (tests/corpora/secrets_blind_v5)": CORPORA / "secrets_blind_v5" / "corpus.jsonl",
    "blind v6 (tests/corpora/secrets_blind_v6)": CORPORA / "secrets_blind_v6" / "corpus.jsonl",
    "blind v7 (tests/corpora/secrets_blind_v7)": CORPORA / "secrets_blind_v7" / "corpus.jsonl",
    "blind v8 (tests/corpora/secrets_blind_v8)": CORPORA / "secrets_blind_v8" / "corpus.jsonl",
    "blind v9 (tests/corpora/secrets_blind_v9)": CORPORA / "secrets_blind_v9" / "corpus.jsonl",
    "blind v10 (tests/corpora/secrets_blind_v10)": CORPORA / "secrets_blind_v10" / "corpus.jsonl",
    "blind v11 (tests/corpora/secrets_blind_v11)": CORPORA / "secrets_blind_v11" / "corpus.jsonl",
}
# A labelled document: its text, its secrets and its look-alikes as (kind, value, start, end);
# offsets are -1 where the corpus does not give them.
Labelled = tuple[str, list[tuple[str, str, int, int]], list[tuple[str, str, int, int]]]

TEXTS = {"plain notes": (0.0, 0.0), "typical": (0.02, 0.10), "dense": (1.0, 1.0)}


def full_scan(engine: SecretEngine, scorer: SecretScorer | None) -> Callable[[bytes], list[Finding]]:
    """What the sandbox scans a text with: the rules (behind invisible characters and inside
    encoded runs), then the scorer on the tokens no rule found."""

    def scan(data: bytes) -> list[Finding]:
        found = find_hidden(engine, data)
        scored = scorer.find(data, found) if scorer is not None else []
        return sorted(found + scored) if scored else found

    return scan


def ours_mb_per_s(scan: Callable[[bytes], list[Finding]], data: bytes, runs: int = 7) -> tuple[float, int]:
    scan(data)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        findings = scan(data)
        redact(data, findings)
        times.append(time.perf_counter() - start)
    return len(data) / statistics.median(times) / 1e6, len(findings)


def crafted_ms(scan: Callable[[bytes], list[Finding]], data: bytes, runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        redact(data, scan(data))
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def detect_secrets_mb_per_s(text: str) -> tuple[float, int]:
    # Imported here: detect-secrets is only needed for the comparison (--skip-detect-secrets).
    from detect_secrets import SecretsCollection  # noqa: PLC0415
    from detect_secrets.settings import default_settings  # noqa: PLC0415

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "memory.md"
        path.write_text(text)
        with default_settings():
            collection = SecretsCollection()
            start = time.perf_counter()
            collection.scan_file(str(path))
            elapsed = time.perf_counter() - start
    return len(text.encode()) / elapsed / 1e6, sum(len(found) for _, found in collection.data.items())


def write_overhead_us(text: str, reps: int = 2000) -> float:
    """Median added latency of a create with secret scanning on, against scanning off."""
    on = Sandbox(policy=load_policy("default"), storage=InMemoryStorage())
    off_policy = parse_policy(
        'schema_version = 1\nid = "off"\nrevision = 1\n[secrets]\nenabled = false\n', source="off"
    )
    off = Sandbox(policy=off_policy, storage=InMemoryStorage())
    medians = []
    for box in (on, off):
        samples = []
        for n in range(reps + 100):
            start = time.perf_counter_ns()
            box.execute({"command": "create", "path": f"/memories/f{n}.md", "file_text": text})
            samples.append(time.perf_counter_ns() - start)
        medians.append(statistics.median(samples[100:]) / 1000)
    return medians[0] - medians[1]


def generated_corpus() -> list[Labelled]:
    return [
        (doc.text, [(k, v, -1, -1) for k, v in doc.secrets], [(k, v, -1, -1) for k, v in doc.negatives])
        for seed in (11, 12)
        for doc in generate(seed, documents=400)
    ]


def blind_corpus(path: Path) -> list[Labelled]:
    out: list[Labelled] = []
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            labels = [
                [(s["kind"], s["value"], s["start"], s["end"]) for s in record[field]]
                for field in ("secrets", "lookalikes")
            ]
            out.append((record["text"], labels[0], labels[1]))
    return out


class Scores:
    """Per kind: secrets gone of secrets written; look-alikes kept of look-alikes written."""

    def __init__(self) -> None:
        self.gone: dict[str, list[int]] = {}
        self.kept: dict[str, list[int]] = {}
        self.spans = [0, 0]  # redacted spans covering a labelled secret, all redacted spans

    @staticmethod
    def _add(table: dict[str, list[int]], kind: str, hit: bool) -> None:
        counts = table.setdefault(kind, [0, 0])
        counts[0] += hit
        counts[1] += 1

    def totals(self, table: dict[str, list[int]]) -> float:
        return sum(c[0] for c in table.values()) / max(1, sum(c[1] for c in table.values()))


def score(documents: list[Labelled], guard: SecretGuard | None = None) -> Scores:
    """Write each document through a sandbox with the default policy (its secret scanning
    ``guard``'s, when given) and compare what is stored."""
    policy = load_policy("default")
    guard = guard or Sandbox(policy=policy, storage=InMemoryStorage()).secrets
    scores = Scores()
    for number, (text, secrets, lookalikes) in enumerate(documents):
        if number % 500 == 0:  # a fresh store now and then: the default quota is 1,000 files
            storage = InMemoryStorage()
            sandbox = Sandbox(policy=policy, storage=storage, secrets=guard)
        path = f"/memories/doc-{number}.md"
        result = sandbox.execute({"command": "create", "path": path, "file_text": text})
        stored = "" if result.is_error else storage.read(canonicalize(path)).decode("utf-8")
        for kind, value, _, _ in secrets:
            scores._add(scores.gone, kind, value not in stored)
        for kind, value, _, _ in lookalikes:
            scores._add(scores.kept, kind, value in stored)
        if sandbox.secrets is not None and secrets and secrets[0][2] >= 0:
            data = text.encode("utf-8")
            labelled = [(len(text[:start].encode()), len(text[:end].encode())) for _, _, start, end in secrets]
            for finding in sandbox.secrets.find(data):
                scores.spans[1] += 1
                scores.spans[0] += any(finding.start < end and start < finding.end for start, end in labelled)
    return scores


def report_quality(name: str, scores: Scores, per_kind: bool) -> None:
    precision = f"{scores.spans[0] / scores.spans[1]:.3f}" if scores.spans[1] else "-"
    secrets, lookalikes = (sum(c[1] for c in table.values()) for table in (scores.gone, scores.kept))
    print(
        f"| {name} | {secrets} | {scores.totals(scores.gone):.3f} | {lookalikes} | "
        f"{scores.totals(scores.kept):.3f} | {precision} |"
    )
    if not per_kind:
        return
    for label, table in (("recall", scores.gone), ("keep", scores.kept)):
        rows = sorted(table.items(), key=lambda item: (item[1][0] / item[1][1], item[0]))
        print(f"\n{name}, {label} per kind (lowest first):\n")
        print(f"| kind | n | {label} |\n|---|---:|---:|")
        for kind, (hit, total) in rows:
            print(f"| {kind} | {total} | {hit / total:.3f} |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1 << 20)
    parser.add_argument("--skip-detect-secrets", action="store_true")
    parser.add_argument("--quality-only", action="store_true", help="only the corpus figures")
    parser.add_argument("--per-kind", action="store_true", help="recall and keep for each kind")
    args = parser.parse_args()
    print("| corpus | secrets | recall | look-alikes | keep | precision |")
    print("|---|---:|---:|---:|---:|---:|")
    corpora = [("generated (tests/secrets_corpus.py)", generated_corpus())]
    corpora += [(name, blind_corpus(path)) for name, path in BLIND.items() if path.exists()]
    for name, documents in corpora:
        report_quality(name, score(documents), args.per_kind)
    if args.quality_only:
        return
    print()
    engine = SecretEngine(load_pack("builtin").rules)
    scorer = SecretGuard(load_policy("default").secrets).scorer
    scan = full_scan(engine, scorer)
    print(f"{engine}, {scorer}; texts of {args.size:,} bytes")
    print("| text | findings | memory-sandbox MB/s | detect-secrets MB/s | speed-up |")
    print("|---|---:|---:|---:|---:|")
    for name, (secret_share, negative_share) in TEXTS.items():
        text = mixed_text(args.size, secret_share=secret_share, negative_share=negative_share)
        ours, findings = ours_mb_per_s(scan, text.encode())
        if args.skip_detect_secrets:
            print(f"| {name} | {findings} | {ours:.1f} | - | - |")
            continue
        theirs, _ = detect_secrets_mb_per_s(text)
        print(f"| {name} | {findings} | {ours:.1f} | {theirs:.2f} | {ours / theirs:.0f}x |")
    typical = mixed_text(args.size, secret_share=0.02, negative_share=0.10).encode()
    ours, findings = ours_mb_per_s(full_scan(engine, None), typical)
    print(f"| typical, rules only (scorer off) | {findings} | {ours:.1f} | - | - |")
    # Where hyperscan is not installed, RE2 finds the keywords (and the broad rules scan alone).
    without = SecretEngine(load_pack("builtin").rules, native=False)
    ours, findings = ours_mb_per_s(full_scan(without, scorer), typical)
    print(f"| typical, keywords by RE2 | {findings} | {ours:.1f} | - | - |")
    version = importlib.metadata.version("detect-secrets") if not args.skip_detect_secrets else "-"
    print(f"detect-secrets {version}")
    print()
    print(f"| crafted text | ms at {args.size:,} bytes | ms at twice that | ratio |")
    print("|---|---:|---:|---:|")
    for name, make in CRAFTED.items():
        once, twice = (crafted_ms(scan, make(size)) for size in (args.size, 2 * args.size))
        print(f"| {name} | {once:.1f} | {twice:.1f} | {twice / once:.1f} |")
    plain = mixed_text(1024, seed=3, secret_share=0.0, negative_share=0.0)
    holding = mixed_text(1024, seed=5, secret_share=1.0, negative_share=1.0)
    print(
        f"1 KB create, added by scanning: {write_overhead_us(plain):.1f} µs (plain notes), "
        f"{write_overhead_us(holding):.1f} µs (holding secrets, redacted)"
    )


if __name__ == "__main__":
    main()
