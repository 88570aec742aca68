"""The symlink-swap race: folders inside the root become symlinks to the outside and back,
as fast as two processes can, while the handler works in them.

One process swaps ``flip`` and ``flip_link`` (a symlink to the outside) with
``RENAME_EXCHANGE``; the other renames ``plain`` away, puts a symlink in its place and
renames it back. Meanwhile the handler runs views, creates, edits, deletes and renames
in both folders. A handler that checks a path and then opens it by name loses this
race: its output shows an outside canary, or something outside changes (inotify on
Linux sees even a file created and removed again).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sandbox.attack import inotify
from sandbox.attack.worker import HandlerWorker
from sandbox.attack.world import World
from sandbox.storage._fs import rename_exchange

__all__ = ["RaceResult", "run_race"]

_FORK = multiprocessing.get_context("fork")


@dataclass
class RaceResult:
    seconds: float
    calls: int = 0
    swaps: int = 0
    leaks: list[tuple[Any, str]] = field(default_factory=list)
    outside_events: list[str] = field(default_factory=list)
    statuses: dict[str, int] = field(default_factory=dict)

    @property
    def escaped(self) -> bool:
        return bool(self.leaks or self.outside_events)


def _exchanger(root: str, stop: Any, swaps: Any) -> None:
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    count = 0
    while not stop.is_set():
        try:
            rename_exchange(fd, "flip", fd, "flip_link")
        except OSError:
            continue  # the handler moved or deleted one of them; go on
        count += 1
    swaps.value = count


def _renamer(root: str, outside: str, stop: Any, swaps: Any) -> None:
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    count = extra = 0
    while not stop.is_set():
        try:
            os.rename("plain", "plain_away", src_dir_fd=fd, dst_dir_fd=fd)
        except OSError:
            os.makedirs(os.path.join(root, "plain"), exist_ok=True)
            continue
        try:
            os.symlink(outside, "plain", dir_fd=fd)
            os.unlink("plain", dir_fd=fd)
        except OSError:
            pass  # the handler made a "plain" meanwhile; it is moved aside below
        for _ in range(100):
            try:
                os.rename("plain_away", "plain", src_dir_fd=fd, dst_dir_fd=fd)
                break
            except FileNotFoundError:
                break
            except OSError:
                extra += 1
                with contextlib.suppress(OSError):
                    os.rename("plain", f"plain_extra_{extra}", src_dir_fd=fd, dst_dir_fd=fd)
        count += 1
    swaps.value = count


def race_commands(n: int) -> list[dict[str, Any]]:
    commands: list[dict[str, Any]] = []
    for folder in ("flip", "plain"):
        base = f"/memories/{folder}"
        commands += [
            {"command": "view", "path": base},
            {"command": "view", "path": f"{base}/secret.txt"},
            {"command": "view", "path": f"{base}/sub/inner.txt"},
            {"command": "create", "path": f"{base}/new-{n}.md", "file_text": "model text"},
            {"command": "create", "path": f"{base}/sub/new-{n}.md", "file_text": "model text"},
            {"command": "str_replace", "path": f"{base}/secret.txt", "old_str": "CANARY", "new_str": "PWNED"},
            {"command": "insert", "path": f"{base}/secret.txt", "insert_line": 0, "insert_text": "PWNED"},
            {"command": "delete", "path": f"{base}/sub/inner.txt"},
            {"command": "rename", "old_path": f"{base}/secret.txt", "new_path": f"/memories/stolen-{folder}.txt"},
            {"command": "delete", "path": f"/memories/stolen-{folder}.txt"},
        ]
    return commands


def run_race(world: World, worker: HandlerWorker, seconds: float) -> RaceResult:
    """Race for ``seconds``; the world is restored afterwards."""
    result = RaceResult(seconds)
    root, outside = world.root, world.race_outside
    for folder in ("flip", "plain"):
        (root / folder / "sub").mkdir(parents=True, exist_ok=True)
        (root / folder / "note.md").write_text("hello\n")
        (root / folder / "sub" / "keep.md").write_text("x\n")
    (root / "flip_link").symlink_to(outside)
    before = world.tree_changes()
    watcher = inotify.Watcher([outside, outside / "sub"], inotify.CHANGES) if inotify.available() else None
    stop, counts = _FORK.Event(), [_FORK.Value("q", 0), _FORK.Value("q", 0)]
    flippers = [
        _FORK.Process(target=_exchanger, args=(str(root), stop, counts[0]), daemon=True),
        _FORK.Process(target=_renamer, args=(str(root), str(outside), stop, counts[1]), daemon=True),
    ]
    for process in flippers:
        process.start()
    try:
        answer = worker.loop(race_commands(1), seconds, world.tokens + world.names)
    finally:
        stop.set()
        for process in flippers:
            process.join(timeout=10)
    result.calls, result.statuses = answer["calls"], answer["statuses"]
    result.leaks = [(command, text) for command, text in answer["leaks"]]
    result.swaps = counts[0].value + counts[1].value
    if watcher is not None:
        result.outside_events = sorted(watcher.drain())
        watcher.close()
    after = [finding.detail for finding in world.tree_changes() if finding not in before]
    result.outside_events += [detail for detail in after if "outside" in detail or "canary" in detail]
    for name in ("flip", "flip_link", "plain", "plain_away"):
        _clear(root / name)
    for stray in root.glob("plain_extra_*"):
        _clear(stray)
    world.restore()
    return result


def _clear(path: Path) -> None:
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path, ignore_errors=True)
