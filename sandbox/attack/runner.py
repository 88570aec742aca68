"""An attack run: plant the world, probe the handler's mapping, run every case, race, report."""

from __future__ import annotations

import os
import secrets
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from sandbox.attack.corpus import Case, cases, payloads
from sandbox.attack.race import run_race
from sandbox.attack.report import Results
from sandbox.attack.sequences import SEQUENCE_FAMILIES, run_family
from sandbox.attack.worker import HandlerWorker, WorkerFailed
from sandbox.attack.world import ENV_CANARY, World

__all__ = ["ProbeFailed", "WorkerFailed", "run_attack"]

Progress = Callable[[int, int, Results], None]


class ProbeFailed(RuntimeError):
    """The handler does not map ``/memories`` onto the root it was given."""


def run_attack(
    spec: str,
    *,
    race_seconds: float = 5.0,
    timeout: float = 10.0,
    families: set[str] | None = None,
    progress: Progress | None = None,
    env: dict[str, str] | None = None,
    label: str | None = None,
) -> Results:
    """Attack the handler ``module:factory`` names; raise ProbeFailed or WorkerFailed when it cannot be.

    ``env`` is added to the worker's environment (how an MCP target reaches it); ``label`` names the
    handler in the report instead of ``spec``.
    """
    began = time.monotonic()
    folder = Path(tempfile.mkdtemp(prefix="memory-sandbox-attack-"))
    try:
        world = World(folder / "world")
        world.plant()
        worker_env = {**(env or {}), ENV_CANARY: world.env_canary}
        worker = HandlerWorker(spec, world.root, world.cwd, worker_env, timeout=timeout)
        try:
            on_disk = _probe(world, worker)
            world.settle()
            description = worker.description if on_disk else {**worker.description, "store": "its own"}
            results = Results(handler=label or spec, description=description)
            results.payloads = sum(1 for p in payloads(world) if families is None or p.family in families)
            planned = list(cases(world, families))
            sequences = [name for name in SEQUENCE_FAMILIES if families is None or name in families]
            total = len(planned) + len(sequences)
            for done, case in enumerate(planned, 1):
                _run_case(world, worker, results, case)
                if progress is not None and (done % 100 == 0 or done == total):
                    progress(done, total, results)
            for done, name in enumerate(sequences, len(planned) + 1):
                _run_sequence(world, worker, results, name, on_disk=on_disk)
                if progress is not None:
                    progress(done, total, results)
            if race_seconds > 0 and (families is None or "race" in families):
                results.race = run_race(world, worker, race_seconds)
            results.worker_restarts = worker.restarts
        finally:
            worker.stop()
        results.seconds = time.monotonic() - began
        return results
    finally:
        _remove_world(folder)


def _run_case(world: World, worker: HandlerWorker, results: Results, case: Case) -> None:
    root_before = os.lstat(world.root).st_ino
    command = case.command
    status, text = worker.call(command)
    if status == "unsupported":
        results.add(case.family, case.slot, command, {"unsupported": text})
        return
    findings = world.examine(text, _strings(command))
    categories: dict[str, str] = {}
    escapes = [finding.detail for finding in findings if finding.kind == "escape"]
    if escapes:
        categories["escape"] = "; ".join(dict.fromkeys(escapes))
    elif status == "ok" and case.must_refuse:
        categories["accepted"] = f"answered as a success: {text[:120]!r}"
    if status == "crash":
        categories["crash"] = text
    elif status == "hang":
        categories["hang"] = text
    if any(finding.kind == "disclosure" for finding in findings):
        categories["disclosure"] = f"the answer names a host path: {text[:160]!r}"
    results.add(case.family, case.slot, command, categories)
    if escapes or world.root_changed():
        world.restore()
        root_after = os.lstat(world.root).st_ino
        if root_after != root_before:
            worker.restart()  # it held the old root open
            world.settle()


def _run_sequence(world: World, worker: HandlerWorker, results: Results, name: str, *, on_disk: bool) -> None:
    """One multi-call family, then the world and the handler as they were (a store of its own: new)."""
    for outcome in run_family(name, world, worker.call, on_disk=on_disk):
        results.add(name, outcome.slot, outcome.summary, outcome.categories)
    world.restore()
    worker.restart()
    world.settle()


def _strings(value: object) -> list[str]:
    """Every string in a tool input (what the attacker wrote)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _strings(item)]
    if isinstance(value, list | tuple):
        return [text for item in value for text in _strings(item)]
    return []


def _probe(world: World, worker: HandlerWorker) -> bool:
    """Check that the handler maps /memories onto the root, or keeps it in a store of its own.

    Create a file through it and find it in the root (True), or nowhere on disk but in the
    handler's own ``view`` of it (False: a database store); anywhere else is a mistake.
    """
    name = f"probe-{secrets.token_hex(6)}.md"
    content = f"probe {secrets.token_hex(8)}\n"
    path = f"/memories/{name}"
    status, text = worker.call({"command": "create", "path": path, "file_text": content})
    expected = world.root / name
    if expected.is_file() and expected.read_text() == content:
        worker.call({"command": "delete", "path": path})
        if expected.exists():
            expected.unlink()
        return True
    found = [Path(top) / name for top, _, files in os.walk(world.base) if name in files]  # links not followed
    if found:
        where = found[0].parent
        raise ProbeFailed(
            f"the factory maps /memories onto {where}, not onto the root it was given ({world.root}); "
            "factory(root) must return a handler whose /memories is root itself"
        )
    if status == "ok" and content.strip() in worker.call({"command": "view", "path": path})[1]:
        worker.call({"command": "delete", "path": path})
        return False
    raise ProbeFailed(f"creating {path} through the handler left no file in its root ({status}: {text[:200]})")


def _remove_world(folder: Path) -> None:
    # A handler may have left folders unreadable; os.walk follows no symlink out of the tree.
    for top, folders, _ in os.walk(folder):
        for name in folders:
            path = os.path.join(top, name)
            if not os.path.islink(path):
                os.chmod(path, 0o700)
    shutil.rmtree(folder, ignore_errors=True)
