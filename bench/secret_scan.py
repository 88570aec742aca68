"""Secret scanning speed: our engine next to detect-secrets, on the same text, in one run.

Texts come from the labeled corpus generator (tests/secrets_corpus.py): memory
files in every format (markdown notes, JSON, YAML, .env, prose). "plain notes"
has neither secrets nor look-alikes; "typical" has secrets in 2% of documents
(every rule represented) and hard negatives (public look-alikes) in 10%;
"dense" has both in every document (about one secret per 300 bytes). Our time
includes redaction. detect-secrets (``pip install detect-secrets``) scans the
same text from a file with its default plugins. A second table scans texts
crafted against the scanner (tests/secrets_corpus.py CRAFTED) at the size and at
twice the size: the scan is linear when the second time is about twice the first.
The engine finds rule keywords with hyperscan when it is installed; one more row
shows typical text with RE2 finding them instead.

    python bench/secret_scan.py [--size 1048576] [--skip-detect-secrets]

(Not ``bench/secrets.py``: a script of that name would shadow the standard
library's ``secrets`` module for every script run from this folder.)
"""

from __future__ import annotations

import argparse
import importlib.metadata
import statistics
import sys
import tempfile
import time
from pathlib import Path

# The repository root, for tests.secrets_corpus.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sandbox import Sandbox, load_policy
from sandbox.policy import parse_policy
from sandbox.secrets import SecretEngine, load_pack, redact
from sandbox.storage import InMemoryStorage
from tests.secrets_corpus import CRAFTED, mixed_text

TEXTS = {"plain notes": (0.0, 0.0), "typical": (0.02, 0.10), "dense": (1.0, 1.0)}


def ours_mb_per_s(engine: SecretEngine, data: bytes, runs: int = 7) -> tuple[float, int]:
    engine.find(data)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        findings = engine.find(data)
        redact(data, findings)
        times.append(time.perf_counter() - start)
    return len(data) / statistics.median(times) / 1e6, len(findings)


def crafted_ms(engine: SecretEngine, data: bytes, runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        redact(data, engine.find(data))
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1 << 20)
    parser.add_argument("--skip-detect-secrets", action="store_true")
    args = parser.parse_args()
    engine = SecretEngine(load_pack("builtin").rules)
    print(f"{engine}; texts of {args.size:,} bytes")
    print("| text | findings | memory-sandbox MB/s | detect-secrets MB/s | speed-up |")
    print("|---|---:|---:|---:|---:|")
    for name, (secret_share, negative_share) in TEXTS.items():
        text = mixed_text(args.size, secret_share=secret_share, negative_share=negative_share)
        ours, findings = ours_mb_per_s(engine, text.encode())
        if args.skip_detect_secrets:
            print(f"| {name} | {findings} | {ours:.1f} | - | - |")
            continue
        theirs, _ = detect_secrets_mb_per_s(text)
        print(f"| {name} | {findings} | {ours:.1f} | {theirs:.2f} | {ours / theirs:.0f}x |")
    # Where hyperscan is not installed, RE2 finds the keywords (and the broad rules scan alone).
    without = SecretEngine(load_pack("builtin").rules, native=False)
    typical = mixed_text(args.size, secret_share=0.02, negative_share=0.10).encode()
    ours, findings = ours_mb_per_s(without, typical)
    print(f"| typical, keywords by RE2 | {findings} | {ours:.1f} | - | - |")
    version = importlib.metadata.version("detect-secrets") if not args.skip_detect_secrets else "-"
    print(f"detect-secrets {version}")
    print()
    print(f"| crafted text | ms at {args.size:,} bytes | ms at twice that | ratio |")
    print("|---|---:|---:|---:|")
    for name, make in CRAFTED.items():
        once, twice = (crafted_ms(engine, make(size)) for size in (args.size, 2 * args.size))
        print(f"| {name} | {once:.1f} | {twice:.1f} | {twice / once:.1f} |")
    plain = mixed_text(1024, seed=3, secret_share=0.0, negative_share=0.0)
    holding = mixed_text(1024, seed=5, secret_share=1.0, negative_share=1.0)
    print(
        f"1 KB create, added by scanning: {write_overhead_us(plain):.1f} µs (plain notes), "
        f"{write_overhead_us(holding):.1f} µs (holding secrets, redacted)"
    )


if __name__ == "__main__":
    main()
