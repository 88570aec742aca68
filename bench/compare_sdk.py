"""Latency of SandboxedMemoryTool on LocalStorage against the SDK's BetaLocalFilesystemMemoryTool.

Both handlers run in one process, in one run, on the same folder (the SDK's
``base/memories`` is the sandbox store's root). Each command is timed call by
call with ``time.perf_counter_ns`` after a warm-up; the median is reported, and
the ratio ours/SDK against the targets of DESIGN.md section 6.

    python bench/compare_sdk.py [--reps 200] [--markdown]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from anthropic.lib.tools import ToolError
from anthropic.tools import BetaLocalFilesystemMemoryTool

from sandbox import Sandbox, load_policy
from sandbox.integrations.anthropic import SandboxedMemoryTool
from sandbox.policy import AuditSection, HistorySection, QuotaSection
from sandbox.storage import LocalStorage
from sandbox.storage.local import Durability
from sandbox.store import Transaction

Handler = Callable[[dict[str, Any]], Any]
# The default policy (secret scanning both ways, the audit log beside the store with fsynced
# intent records of writes), its quota lifted so that the 10,000-file stores fit, and its history
# budget too (versions are kept as by default; thousands of 100 KB files planted and then edited or
# deleted within minutes would fill the default 64 MiB with versions that must stay).
POLICY = load_policy("default").model_copy(
    update={
        "quota": QuotaSection(max_bytes=None, max_files=None),
        "history": HistorySection(max_bytes=1 << 40),
    }
)
NO_AUDIT = POLICY.model_copy(update={"audit": AuditSection(sink="none")})
# (column title, policy, LocalStorage durability)
CONFIGS: list[tuple[str, Any, Durability]] = [
    ("default policy", POLICY, "full"),
    ("no audit log", NO_AUDIT, "full"),
    ("no audit log, atomic", NO_AUDIT, "atomic"),
]
READ_TARGET, WRITE_TARGET, LISTING_TARGET = 0.6, 1.0, 0.05


def call(handler: Any, command: dict[str, Any]) -> Any:
    try:
        return handler.call(command)
    except ToolError as exc:
        raise AssertionError(f"benchmark command failed: {command['command']}: {exc}") from None


def paired_medians(runs: dict[str, Callable[[int], object]], reps: int, warmup: int) -> dict[str, float]:
    """Median µs per handler, the handlers' calls interleaved so both see the same disk weather."""
    samples: dict[str, list[int]] = {label: [] for label in runs}
    for i in range(warmup + reps):
        for label, run in runs.items():
            start = time.perf_counter_ns()
            run(i)
            elapsed = time.perf_counter_ns() - start
            if i >= warmup:
                samples[label].append(elapsed)
    return {label: statistics.median(values) / 1000 for label, values in samples.items()}


def text(size: int) -> str:
    line = "- a remembered fact about the project, kept for later sessions\n"
    return (line * (size // len(line) + 1))[:size]


Case = tuple[str, str, Callable[[Any, int], Any], str | None]


def cases(size: int) -> list[Case]:
    """(name, kind, run(handler, i), prefix of the files it needs or None); ``i`` names a fresh file."""
    body = "MARKER line kept once\n" + text(size)
    label = f"{size // 1024} KB"

    def view(handler: Any, i: int) -> Any:
        return call(handler, {"command": "view", "path": "/memories/base.md"})

    def view_range(handler: Any, i: int) -> Any:
        return call(handler, {"command": "view", "path": "/memories/base.md", "view_range": [2, 20]})

    def create(handler: Any, i: int) -> Any:
        return call(handler, {"command": "create", "path": f"/memories/new/cr-{i}.md", "file_text": body})

    def str_replace(handler: Any, i: int) -> Any:
        edit = {"command": "str_replace", "path": f"/memories/ed-{i}.md", "old_str": "MARKER", "new_str": "EDITED"}
        return call(handler, edit)

    def insert(handler: Any, i: int) -> Any:
        edit = {"command": "insert", "path": f"/memories/in-{i}.md", "insert_line": 1, "insert_text": "new fact"}
        return call(handler, edit)

    def delete(handler: Any, i: int) -> Any:
        return call(handler, {"command": "delete", "path": f"/memories/de-{i}.md"})

    def rename(handler: Any, i: int) -> Any:
        move = {"command": "rename", "old_path": f"/memories/mv-{i}.md", "new_path": f"/memories/moved/mv-{i}.md"}
        return call(handler, move)

    return [
        (f"view file {label}", "read", view, None),
        (f"view range {label}", "read", view_range, None),
        (f"create {label}", "write", create, None),
        (f"str_replace {label}", "write", str_replace, "ed"),
        (f"insert {label}", "write", insert, "in"),
        (f"delete {label}", "write", delete, "de"),
        (f"rename {label}", "write", rename, "mv"),
    ]


def fresh(base: Path, plant: Callable[[Path], None], policy: Any, durability: Durability) -> tuple[Path, Any, Any]:
    """A new folder with planted files, the SDK handler on it and our tool on the same files.

    Files are planted before either handler opens the folder, as a store's earlier
    sessions would have left them.
    """
    shutil.rmtree(base, ignore_errors=True)
    root = base / "memories"
    root.mkdir(parents=True)
    plant(root)
    sdk = BetaLocalFilesystemMemoryTool(str(base))
    storage = LocalStorage(root, durability=durability)
    ours = SandboxedMemoryTool(Sandbox(policy=policy, storage=storage))
    return root, sdk, ours


def measure(
    reps: int, warmup: int, workdir: Path, policy: Any, durability: Durability
) -> list[tuple[str, str, float, float]]:
    """(row, kind, SDK µs, ours µs) for every command, in one configuration."""
    rows: list[tuple[str, str, float, float]] = []
    offsets = {"sdk": 0, "ours": 10**6}  # each handler works on its own files, never the other's
    for size in (1024, 100 * 1024):
        body = "MARKER line kept once\n" + text(size)
        needed = [prefix for _, _, _, prefix in cases(size) if prefix]

        def plant(root: Path, body: str = body, needed: list[str] = needed, size: int = size) -> None:
            (root / "base.md").write_text(text(size))
            for prefix in needed:
                for offset in offsets.values():
                    for i in range(warmup + reps):
                        (root / f"{prefix}-{offset + i}.md").write_text(body)

        _, sdk, ours = fresh(workdir / "store", plant, policy, durability)
        for name, kind, run, _ in cases(size):
            timings = paired_medians(
                {
                    label: (lambda i, h=handler, b=offsets[label], r=run: r(h, b + i))
                    for label, handler in (("sdk", sdk), ("ours", ours))
                },
                reps,
                warmup,
            )
            rows.append((name, kind, timings["sdk"], timings["ours"]))
    for count in (10, 1000, 10_000):

        def notes(root: Path, count: int = count) -> None:
            for n in range(count):
                (root / f"note-{n:05d}.md").write_text("x" * 100)

        _, sdk, ours = fresh(workdir / "store", notes, policy, durability)
        listing_reps = max(5, reps // (1 + count // 200))
        listing = {"command": "view", "path": "/memories"}
        timings = paired_medians(
            {label: (lambda i, h=handler, c=listing: call(h, c)) for label, handler in (("sdk", sdk), ("ours", ours))},
            listing_reps,
            2,
        )
        # The 0.05x target is for the 10,000-file store; smaller listings are reads like any other.
        kind = "listing" if count >= 10_000 else "read"
        rows.append((f"view /memories, {count:,} files", kind, timings["sdk"], timings["ours"]))
        # A create beside them: the check for case and look-alike twins must not grow with the folder.
        # Each handler writes in a folder of its own here: the SDK's writes in ours would be writes
        # behind the store's back, which make it list the folder again.
        _, sdk, _ = fresh(workdir / "sdk-store", notes, policy, durability)
        timings = paired_medians(
            {
                label: (lambda i, h=handler, b=offsets[label]: call(h, _new_note(b + i)))
                for label, handler in (("sdk", sdk), ("ours", ours))
            },
            reps,
            warmup,
        )
        rows.append((f"create in a folder of {count:,} files", "write", timings["sdk"], timings["ours"]))
    return rows


def _new_note(i: int) -> dict[str, Any]:
    return {"command": "create", "path": f"/memories/new-{i}.md", "file_text": text(1024)}


def report(results: list[list[tuple[str, str, float, float]]], markdown: bool) -> str:
    """One row per command: the SDK's median and, per configuration, ours and the ratio."""
    targets = {"read": READ_TARGET, "write": WRITE_TARGET, "listing": LISTING_TARGET}
    head = "| command | target | SDK (µs) | " + " | ".join(f"{title} (µs, ratio)" for title, _, _ in CONFIGS) + " |"
    lines = [
        f"{datetime.date.today().isoformat()}, {platform.machine()}, {os.cpu_count()} cores,"
        f" Python {platform.python_version()}, {platform.system()} {platform.release()}",
        "",
        head,
        "|---|---:|---:|" + "---:|" * len(CONFIGS),
    ]
    for index, (name, kind, sdk, _) in enumerate(results[0]):
        cells = []
        for config in results:
            _, _, their, ours = config[index]
            ratio = ours / their
            mark = "" if ratio <= targets[kind] else " **missed**"
            cells.append(f"{ours:,.0f} ({ratio:.2f}x{mark})")
        lines.append(f"| {name} | ≤ {targets[kind]}x | {sdk:,.0f} | " + " | ".join(cells) + " |")
    for title, config in zip((title for title, _, _ in CONFIGS), results, strict=True):
        creates = {name: ours for name, _, _, ours in config if name.startswith("create in a folder of")}
        small, large = creates["create in a folder of 10 files"], creates["create in a folder of 10,000 files"]
        lines.append(f"{title}: create in a folder of 10,000 files / of 10 files = {large / small:.2f} (target ≤ 1.2)")
    out = "\n".join(lines)
    return out if markdown else out.replace("|", " ").replace("---:", "").replace("---", "").replace("**", "")


def breakdown(reps: int, workdir: Path) -> str:
    """Where a call's time goes, default policy, 1 KB files: mean µs per call in each piece.

    Pieces are timed by wrapping them in one sandbox (parsing and canonicalising the
    command; reading what the plan needs; each policy stage; the intent record; applying
    the change; the outcome record); "rest" is the call's time outside them (the store's
    write lock and session, building the decision, the tool's wrapper).
    """
    root = workdir / "breakdown"
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    box = Sandbox(policy=POLICY, storage=LocalStorage(root))
    spent: dict[str, int] = {}

    def timed(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter_ns()
            try:
                return function(*args, **kwargs)
            finally:
                spent[name] = spent.get(name, 0) + time.perf_counter_ns() - start

        return run

    box._admit = timed("parse, paths", box._admit)  # type: ignore[method-assign]
    box.stages = tuple(timed(type(stage).__name__, stage) for stage in box.stages)
    audit: Any = box.audit
    audit.intent = timed("intent record", audit.intent)
    audit.outcome = timed("outcome record", audit.outcome)
    plan, apply = Transaction.plan, Transaction.apply
    Transaction.plan = timed("plan (reads)", plan)  # type: ignore[method-assign]
    Transaction.apply = timed("apply (writes)", apply)  # type: ignore[method-assign]
    body = text(1024)
    commands: dict[str, Callable[[int], dict[str, Any]]] = {
        "view": lambda i: {"command": "view", "path": f"/memories/f{i % 50}.md"},
        "create": lambda i: {"command": "create", "path": f"/memories/c{i}.md", "file_text": body},
        "str_replace": lambda i: {
            "command": "str_replace",
            "path": f"/memories/c{i}.md",
            "old_str": "MARKER",
            "new_str": "EDITED",
        },
        "rename": lambda i: {"command": "rename", "old_path": f"/memories/c{i}.md", "new_path": f"/memories/r{i}.md"},
        "delete": lambda i: {"command": "delete", "path": f"/memories/r{i}.md"},
    }
    try:
        for i in range(50):
            box.execute({"command": "create", "path": f"/memories/f{i}.md", "file_text": body})
        columns: dict[str, dict[str, float]] = {}
        body = "MARKER\n" + body
        for name, make in commands.items():
            spent.clear()
            start = time.perf_counter_ns()
            for i in range(reps):
                result = box.execute(make(i))
                assert not result.is_error, (name, result.content)
            total = time.perf_counter_ns() - start
            columns[name] = {piece: ns / reps / 1000 for piece, ns in spent.items()}
            columns[name]["rest"] = (total - sum(spent.values())) / reps / 1000
            columns[name]["total"] = total / reps / 1000
    finally:
        Transaction.plan, Transaction.apply = plan, apply  # type: ignore[method-assign]
        box.close()
    pieces = list(dict.fromkeys(piece for column in columns.values() for piece in column))
    lines = ["| piece (mean µs a call) | " + " | ".join(columns) + " |", "|---|" + "---:|" * len(columns)]
    for piece in pieces:
        cells = [f"{column[piece]:.0f}" if piece in column else "-" for column in columns.values()]
        lines.append(f"| {piece} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--dir", type=Path, default=None, help="folder to run in (default: a temp folder on /tmp)")
    parser.add_argument("--breakdown-only", action="store_true", help="only where a call's time goes")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as workdir:
        if not args.breakdown_only:
            results = [measure(args.reps, args.warmup, Path(workdir), policy, level) for _, policy, level in CONFIGS]
            print(report(results, args.markdown))
            print()
        print(breakdown(args.reps, Path(workdir)))


if __name__ == "__main__":
    main()
