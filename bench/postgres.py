"""A fleet against one PostgreSQL server: 1, 8 and 32 worker processes x 500 mixed commands on 50 scopes.

Every worker runs the sandbox (default policy plus a small quota, the audit chain in
the same database) over PostgresStorage with its own connection pool, and sends
its share of a seeded command mix: views, creates, inserts into a file every worker
of a scope edits, str_replace, deletes and renames. The run reports commands per
second and p50/p99 latency per command, then checks:

* no quota was exceeded: the scopes' usage, sampled every 20 ms during the run and
  summed from the rows at the end, never passes the quota, and usage rows are exact;
* no edit was lost: every insert a worker was told succeeded is in the shared file;
* the audit chain verifies, with one intent per allowed write and one outcome per call.

The same mix, run the same way through the SDK's ``BetaLocalFilesystemMemoryTool`` on
local folders (one per scope) in the same run, gives the reference rate and shows
what unlocked concurrent edits do: its lost inserts are counted too.

Each fleet size runs on a fresh schema. Where the CPU went is reported per command: the
workers' own (Python: policy, scans, the driver), the server's (its processes on this
host, when it runs here) and what the host left idle, so a run limited by the machine's
cores shows it.

    python bench/postgres.py [--dsn URL] [--workers 1,8,32] [--commands 500] [--scopes 50] [--json out.json]

Without --dsn (or $MEMORY_SANDBOX_PG_DSN) a throwaway cluster is started with .ci/postgres.
Exit status 1 if a check fails.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import random
import resource
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import psycopg.conninfo
from anthropic.lib.tools import ToolError
from anthropic.tools import BetaLocalFilesystemMemoryTool
from pg_server import NoServer, fresh_schema, server  # bench/, beside this script

from sandbox import Sandbox
from sandbox.audit.postgres import PostgresAuditLog, verify_postgres
from sandbox.policy import parse_policy
from sandbox.scopes import Scopes
from sandbox.storage.postgres import PostgresDatabase

FORK = multiprocessing.get_context("fork")
MAX_BYTES, MAX_FILES = 3000, 6
SHARED = "/memories/shared.md"
MIX = [("view", 25), ("create", 20), ("insert", 25), ("str_replace", 10), ("delete", 12), ("rename", 8)]


def policy_text(key: Path) -> str:
    return (
        f'schema_version = 1\nid = "fleet-bench"\nrevision = 1\n'
        f"[quota]\nmax_bytes = {MAX_BYTES}\nmax_files = {MAX_FILES}\n"
        f'[audit]\nkey_file = "{key}"\n'
    )


def workload(worker: int, count: int, scopes: int) -> Iterator[tuple[str, dict[str, Any], str | None]]:
    """(scope, command, marker of a tracked insert or None), seeded per worker.

    Each worker edits, renames and deletes only files it created (as far as it knows:
    a create the quota refused leaves a later command on that file failing, as it would
    for a model), and inserts into the scope's shared file, which every worker edits.
    """
    rng = random.Random(worker)  # noqa: S311 - a reproducible workload, nothing secret
    kinds = [kind for kind, weight in MIX for _ in range(weight)]
    files: dict[str, list[tuple[str, int]]] = defaultdict(list)  # scope -> this worker's (path, token) there
    for i in range(count):
        scope = f"scope-{rng.randrange(scopes):02d}"
        mine = files[scope]
        kind = rng.choice(kinds)
        if kind in ("str_replace", "delete", "rename") and not mine:
            kind = "create"
        if kind == "view":
            yield scope, {"command": "view", "path": rng.choice([SHARED, "/memories", *(p for p, _ in mine[:1])])}, None
        elif kind == "create":
            path = f"/memories/w{worker}/f{i}.md"
            mine.append((path, i))
            text = f"token-{i}\n" + "remembered fact\n" * rng.randrange(3, 40)
            yield scope, {"command": "create", "path": path, "file_text": text}, None
        elif kind == "insert":
            marker = f"w{worker}-i{i}"
            yield scope, {"command": "insert", "path": SHARED, "insert_line": 0, "insert_text": marker}, marker
        elif kind == "str_replace":
            path, token = rng.choice(mine)
            edit = {"old_str": f"token-{token}\n", "new_str": f"token-{token}\nseen\n"}
            yield scope, {"command": "str_replace", "path": path, **edit}, None
        elif kind == "delete":
            path, _ = mine.pop(rng.randrange(len(mine)))
            yield scope, {"command": "delete", "path": path}, None
        else:
            path, token = mine.pop(rng.randrange(len(mine)))
            target = f"/memories/w{worker}/moved/r{i}.md"
            mine.append((target, token))
            yield scope, {"command": "rename", "old_path": path, "new_path": target}, None


def sandbox_worker(worker: int, out: Path, start: Any, dsn: str, key: Path, count: int, scopes: int) -> None:  # noqa: PLR0917 - a process target
    # One pool and one audit sink per worker process, shared by the sandboxes of every scope.
    policy = parse_policy(policy_text(key), source="fleet-bench.toml")
    results: list[tuple[str, int, str | None, str | None]] = []
    with PostgresDatabase(dsn, max_size=2) as db, PostgresAuditLog.open(db, key_file=key) as log:
        scoped = Scopes(policy=policy, storage_for=db.storage, audit_for=lambda _scope: log)
        start.wait()
        for scope, command, marker in workload(worker, count, scopes):
            began = time.perf_counter_ns()
            result = scoped.for_scope(scope).execute(command)
            elapsed = time.perf_counter_ns() - began
            error = result.decision.error_code if result.is_error else None
            results.append((command["command"], elapsed, error, f"{scope}|{marker}" if marker and not error else None))
    out.write_text(json.dumps(results))


def sdk_worker(worker: int, out: Path, start: Any, base: Path, count: int, scopes: int) -> None:  # noqa: PLR0917 - a process target
    results: list[tuple[str, int, str | None, str | None]] = []
    handlers: dict[str, BetaLocalFilesystemMemoryTool] = {}
    start.wait()
    for scope, command, marker in workload(worker, count, scopes):
        if scope not in handlers:
            handlers[scope] = BetaLocalFilesystemMemoryTool(str(base / scope))
        began = time.perf_counter_ns()
        try:
            handlers[scope].call(command)
            error = None
        except (ToolError, OSError) as exc:
            error = type(exc).__name__
        elapsed = time.perf_counter_ns() - began
        results.append((command["command"], elapsed, error, f"{scope}|{marker}" if marker and not error else None))
    out.write_text(json.dumps(results))


def server_cpu_s() -> float | None:
    """CPU seconds used so far by the PostgreSQL processes on this host (None: none found here)."""
    ticks, found = 0, False
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue  # ended meanwhile
        name, fields = text[text.index("(") + 1 : text.rindex(")")], text[text.rindex(")") + 2 :].split()
        if name.startswith("postgres"):
            found = True
            # utime, stime, and cutime, cstime: the backends that exited (the postmaster waited for them)
            ticks += sum(int(value) for value in fields[11:15])
    return ticks / os.sysconf("SC_CLK_TCK") if found else None


def host_busy_s() -> float:
    """CPU seconds this host's cores spent busy so far (all processes)."""
    fields = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def cpu_breakdown(
    wall: float, commands: int, before: dict[str, float | None], after: dict[str, float | None]
) -> dict[str, Any]:
    """CPU per command: the workers', the server's (on this host), the rest, and what was idle."""
    per = 1000.0 / commands
    spent = {key: (after[key] or 0.0) - (before[key] or 0.0) for key in before}
    cores = os.cpu_count() or 1
    return {
        "workers_ms": round(spent["workers"] * per, 2),
        "server_ms": round(spent["server"] * per, 2) if before["server"] is not None else None,
        "other_ms": round((spent["host"] - spent["workers"] - spent["server"]) * per, 2),
        "idle_ms": round(max(0.0, wall * cores - spent["host"]) * per, 2),
        "cores": cores,
    }


def cpu_now() -> dict[str, float | None]:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"workers": children.ru_utime + children.ru_stime, "server": server_cpu_s(), "host": host_busy_s()}


def run_fleet(target: Any, args: tuple[Any, ...], workers: int, folder: Path) -> tuple[float, list[Any]]:
    """Run the workers together; return wall seconds and every worker's results."""
    start = FORK.Event()
    outs = [folder / f"worker-{w}.json" for w in range(workers)]
    processes = [FORK.Process(target=target, args=(w, outs[w], start, *args)) for w in range(workers)]
    for process in processes:
        process.start()
    time.sleep(1.0)  # every worker connected and waiting
    began = time.perf_counter()
    start.set()
    for process in processes:
        process.join(timeout=1800)
        if process.exitcode != 0:
            raise SystemExit(f"a worker failed (exit {process.exitcode})")
    wall = time.perf_counter() - began
    return wall, [row for out in outs for row in json.loads(out.read_text())]


def summarize(wall: float, results: list[Any]) -> dict[str, Any]:
    by_command: dict[str, list[int]] = defaultdict(list)
    for command, elapsed, _, _ in results:
        by_command[command].append(elapsed)
        by_command["all"].append(elapsed)
    latency = {}
    for command, values in sorted(by_command.items()):
        values.sort()
        latency[command] = {
            "count": len(values),
            "p50_ms": round(statistics.median(values) / 1e6, 2),
            "p99_ms": round(values[min(len(values) - 1, int(len(values) * 0.99))] / 1e6, 2),
        }
    return {
        "commands": len(results),
        "succeeded": sum(1 for row in results if row[2] is None),
        "errors": dict(sorted(Counter(row[2] for row in results if row[2] is not None).items())),
        "wall_s": round(wall, 2),
        "commands_per_s": round(len(results) / wall, 1),
        "latency": latency,
    }


class UsageSampler(threading.Thread):
    """Reads every scope's usage row, and the rows' own sums, while the fleet runs."""

    def __init__(self, dsn: str) -> None:
        super().__init__(daemon=True)
        self.dsn = dsn
        self.samples = 0
        self.peak_bytes = self.peak_files = 0
        self.stop = threading.Event()

    def run(self) -> None:
        with psycopg.connect(self.dsn, autocommit=True) as connection:
            while not self.stop.is_set():
                rows = (
                    connection.execute(
                        "SELECT COALESCE(max(bytes), 0), COALESCE(max(files), 0) FROM memory_usage"
                    ).fetchall()
                    + connection.execute(
                        "SELECT COALESCE(max(b), 0), COALESCE(max(f), 0) FROM (SELECT sum(size) AS b, count(*) AS f"
                        " FROM memory_entries WHERE NOT is_dir GROUP BY scope) AS sums"
                    ).fetchall()
                )
                for peak_bytes, peak_files in rows:
                    self.peak_bytes = max(self.peak_bytes, int(peak_bytes))
                    self.peak_files = max(self.peak_files, int(peak_files))
                self.samples += 1
                time.sleep(0.02)


def check_sandbox_run(dsn: str, key: Path, results: list[Any], sampler: UsageSampler, scopes: int) -> dict[str, Any]:
    checks: dict[str, Any] = {}
    with psycopg.connect(dsn, autocommit=True) as connection:
        sums = connection.execute(
            "SELECT u.scope, u.bytes, u.files, COALESCE(e.b, 0), COALESCE(e.f, 0) FROM memory_usage u LEFT JOIN"
            " (SELECT scope, sum(size) AS b, count(*) AS f FROM memory_entries WHERE NOT is_dir GROUP BY scope) e"
            " ON e.scope = u.scope"
        ).fetchall()
        shared: dict[str, bytes] = {
            str(scope): bytes(content)
            for scope, content in connection.execute(
                "SELECT scope, content FROM memory_entries WHERE path = 'shared.md'"
            ).fetchall()
        }
    over = [row[0] for row in sums if row[3] > MAX_BYTES or row[4] > MAX_FILES]
    inexact = [row[0] for row in sums if (row[1], row[2]) != (row[3], row[4])]
    checks["quota"] = {
        "ok": not over and not inexact and sampler.peak_bytes <= MAX_BYTES and sampler.peak_files <= MAX_FILES,
        "samples": sampler.samples,
        "peak_bytes": sampler.peak_bytes,
        "peak_files": sampler.peak_files,
        "limit": [MAX_BYTES, MAX_FILES],
        "scopes_over": over,
        "usage_rows_inexact": inexact,
        "refusals": sum(1 for row in results if row[2] == "quota_exceeded"),
    }
    checks["edits"] = lost_edits(results, shared)
    with PostgresDatabase(dsn, max_size=1) as db:
        report = verify_postgres(db, key_file=key.with_suffix(".pub"))
        with db.connection() as connection:
            events = dict(
                connection.execute("SELECT line::json->>'event', count(*) FROM memory_audit GROUP BY 1").fetchall()
            )
    calls = len(results) + scopes  # the run's calls and the setup's one create per scope
    checks["audit"] = {
        "ok": report.ok and events.get("outcome") == calls,
        "summary": report.summary(),
        "outcomes": events.get("outcome"),
        "intents": events.get("intent"),
        "calls": calls,
    }
    return checks


def lost_edits(results: list[Any], shared: dict[str, bytes]) -> dict[str, Any]:
    expected: dict[str, set[str]] = defaultdict(set)
    for row in results:
        if row[3] is not None:
            scope, marker = row[3].split("|", 1)
            expected[scope].add(marker)
    lost = 0
    for scope, markers in expected.items():
        present = set(shared.get(scope, b"").decode("utf-8", "replace").splitlines())
        lost += len(markers - present)
    told = sum(len(markers) for markers in expected.values())
    return {"ok": lost == 0, "inserts_acknowledged": told, "lost": lost}


def prepare_shared(dsn: str, key: Path, scopes: int) -> None:
    policy = parse_policy(policy_text(key), source="fleet-bench.toml")
    with PostgresDatabase(dsn, max_size=1) as db, PostgresAuditLog.open(db, key_file=key) as log:
        for n in range(scopes):
            sandbox = Sandbox(policy=policy, storage=db.storage(f"scope-{n:02d}"), audit=log, scope=f"scope-{n:02d}")
            sandbox.execute({"command": "create", "path": SHARED, "file_text": ""})


def _counts(text: str) -> list[int]:
    counts = [int(part) for part in text.split(",")]
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError("fleet sizes are positive numbers, e.g. 1,8,32")
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dsn", default=os.environ.get("MEMORY_SANDBOX_PG_DSN"))
    parser.add_argument("--workers", type=_counts, default=[1, 8, 32], help="fleet sizes, comma-separated")
    parser.add_argument("--commands", type=int, default=500, help="per worker")
    parser.add_argument("--scopes", type=int, default=50)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    report: dict[str, Any] = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "commands_per_worker": args.commands,
        "scopes": args.scopes,
    }
    try:
        return run(args, report)
    except NoServer as exc:
        raise SystemExit(f"no PostgreSQL server: {exc}") from None


def run(args: argparse.Namespace, report: dict[str, Any]) -> int:
    report["runs"] = []
    with server(args.dsn) as dsn:
        for workers in args.workers:
            report["runs"].append(fleet(dsn, workers, args.commands, args.scopes))
            print_run(report, report["runs"][-1])
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0 if all(check["ok"] for run in report["runs"] for check in run["checks"].values()) else 1


def fleet(dsn: str, workers: int, commands: int, scopes: int) -> dict[str, Any]:
    """One fleet size: the sandbox on a fresh schema, then the SDK on fresh folders, and the checks."""
    result: dict[str, Any] = {"workers": workers}
    with tempfile.TemporaryDirectory(prefix="memory-sandbox-bench-") as tmp:
        folder, key = Path(tmp), Path(tmp) / "fleet.key"
        with fresh_schema(dsn, "bench") as schema_dsn, psycopg.connect(schema_dsn) as info:
            result["server"] = str(info.execute("SHOW server_version").fetchone()[0])  # type: ignore[index]
            prepare_shared(schema_dsn, key, scopes)
            sampler = UsageSampler(schema_dsn)
            sampler.start()
            before = cpu_now()
            wall, results = run_fleet(sandbox_worker, (schema_dsn, key, commands, scopes), workers, folder)
            after = cpu_now()
            sampler.stop.set()
            sampler.join()
            result["sandbox"] = summarize(wall, results)
            result["sandbox"]["cpu_per_command"] = cpu_breakdown(wall, len(results), before, after)
            result["checks"] = check_sandbox_run(schema_dsn, key, results, sampler, scopes)
        base = folder / "sdk"
        for n in range(scopes):
            handler = BetaLocalFilesystemMemoryTool(str(base / f"scope-{n:02d}"))
            handler.call({"command": "create", "path": SHARED, "file_text": ""})
        wall, sdk_results = run_fleet(sdk_worker, (base, commands, scopes), workers, folder)
        result["sdk_local_files"] = summarize(wall, sdk_results)
        shared = {f"scope-{n:02d}": (base / f"scope-{n:02d}" / "memories" / "shared.md").read_bytes()
                  for n in range(scopes)}  # fmt: skip
        result["sdk_local_files"]["edits"] = lost_edits(sdk_results, shared)
    result["ratio_commands_per_s"] = round(
        result["sandbox"]["commands_per_s"] / result["sdk_local_files"]["commands_per_s"], 3
    )
    return result


def print_run(report: dict[str, Any], run: dict[str, Any]) -> None:
    sandbox, sdk, checks = run["sandbox"], run["sdk_local_files"], run["checks"]
    print(f"\n{run['workers']} workers x {report['commands_per_worker']} commands on {report['scopes']} scopes, "
          f"PostgreSQL {run['server']}, {report['machine']}")  # fmt: skip
    print(f"sandbox on PostgreSQL: {sandbox['commands_per_s']:,} commands/s ({sandbox['commands']} in "
          f"{sandbox['wall_s']} s, {sandbox['succeeded']} succeeded; errors {sandbox['errors']})")  # fmt: skip
    print(f"SDK local files:       {sdk['commands_per_s']:,} commands/s; ratio sandbox/SDK "
          f"{run['ratio_commands_per_s']}")  # fmt: skip
    cpu = sandbox["cpu_per_command"]
    server_ms = "not on this host" if cpu["server_ms"] is None else f"{cpu['server_ms']} ms"
    print(f"CPU a command:         workers {cpu['workers_ms']} ms, server {server_ms}, other {cpu['other_ms']} ms, "
          f"idle {cpu['idle_ms']} ms ({cpu['cores']} cores)")  # fmt: skip
    print("latency (ms)        sandbox p50   p99      SDK p50   p99")
    for command, row in sandbox["latency"].items():
        ref = sdk["latency"].get(command, {"p50_ms": 0, "p99_ms": 0})
        print(f"  {command:<12} {row['count']:>6} {row['p50_ms']:>9} {row['p99_ms']:>6} "
              f"{ref['p50_ms']:>11} {ref['p99_ms']:>6}")  # fmt: skip
    quota, edits, audit = checks["quota"], checks["edits"], checks["audit"]
    print(f"check quota:  {'OK' if quota['ok'] else 'FAILED'}: peak {quota['peak_bytes']} bytes / "
          f"{quota['peak_files']} files in {quota['samples']} samples (limit {quota['limit'][0]} / "
          f"{quota['limit'][1]}), usage rows exact, {quota['refusals']} refusals")  # fmt: skip
    print(f"check edits:  {'OK' if edits['ok'] else 'FAILED'}: {edits['inserts_acknowledged']} acknowledged inserts, "
          f"{edits['lost']} lost (SDK handler: {sdk['edits']['lost']} of "
          f"{sdk['edits']['inserts_acknowledged']} lost)")  # fmt: skip
    print(f"check audit:  {'OK' if audit['ok'] else 'FAILED'}: {audit['summary']}; "
          f"{audit['outcomes']} outcomes for {audit['calls']} calls, {audit['intents']} intents")  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
