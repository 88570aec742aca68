"""LocalStorage against other processes: concurrent editors, SIGKILL mid-write, symlink-swap races."""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from sandbox import Sandbox, load_policy
from sandbox.attack.inotify import Watcher
from sandbox.attack.race import race_commands
from sandbox.storage import LocalStorage, _fs
from sandbox.storage._fs import TEMP_PREFIX, rename_exchange
from tests.unit.test_local_storage import full_walk

RACE_SECONDS = float(os.environ.get("MEMORY_SANDBOX_RACE_SECONDS", "10"))
KILL_POINTS = int(os.environ.get("MEMORY_SANDBOX_KILL_POINTS", "120"))
# Kill points are drawn from the first KILL_STEPS file-system changes of a writer (about 30 calls).
KILL_STEPS = 300
# The race runs RACE_SECONDS and at least this much work, however long that takes on a busy machine.
MIN_SWAPS, MIN_RACE_ROUNDS = 1000, 200
FORK = multiprocessing.get_context("fork")


def sandbox_on(root: Path) -> Sandbox:
    return Sandbox(policy=load_policy("default"), storage=LocalStorage(root))


# -- no lost updates ---------------------------------------------------------------------------


def _inserter(root: Path, worker: int, count: int, start: Any) -> None:
    sandbox = sandbox_on(root)
    start.wait()
    for n in range(count):
        result = sandbox.execute(
            {"command": "insert", "path": "/memories/shared.md", "insert_line": 0, "insert_text": f"w{worker}-{n}"}
        )
        assert not result.is_error, result.content


@pytest.mark.slow
def test_concurrent_inserts_lose_nothing(tmp_path: Path) -> None:
    """4 processes x 200 inserts into one file: all 800 lines present."""
    root = tmp_path / "store"
    sandbox_on(root).execute({"command": "create", "path": "/memories/shared.md", "file_text": ""})
    start = FORK.Event()
    workers = [FORK.Process(target=_inserter, args=(root, w, 200, start)) for w in range(4)]
    for process in workers:
        process.start()
    start.set()
    for process in workers:
        process.join(timeout=240)
        assert process.exitcode == 0
    lines = (root / "shared.md").read_text().splitlines()
    assert sorted(lines) == sorted(f"w{w}-{n}" for w in range(4) for n in range(200))


# -- crash safety ------------------------------------------------------------------------------

FILES = [f"v{i}.md" for i in range(3)]
MOVERS = [f"m{i}.md" for i in range(2)]


def version_text(name: str, version: int) -> str:
    """The full content of one version of a file: a header and 40..240 lines of its own stamp."""
    lines = 40 + (version * 37) % 200
    return f"{name} version {version}\n" + "".join(f"{name}:{version}:{k:04d} {'x' * 60}\n" for k in range(lines))


def current_version(root: Path, name: str) -> int | None:
    path = root / name
    if not path.exists():
        return None
    text = path.read_text()
    version = int(text.split("\n", 1)[0].rsplit(" ", 1)[1])
    assert text == version_text(name, version), f"{name} is not a whole version"
    return version


def _writer_stream(root: Path, seed: int) -> None:
    """Write forever: whole-file edits, appends, creates, deletes and moves, each from the state on disk."""
    sandbox = sandbox_on(root)
    rng = random.Random(seed)
    while True:
        name = rng.choice(FILES)
        version = current_version(root, name)
        if version is None:
            sandbox.execute({"command": "create", "path": f"/memories/{name}", "file_text": version_text(name, 0)})
        elif rng.random() < 0.1:
            sandbox.execute({"command": "delete", "path": f"/memories/{name}"})
        else:
            old, new = version_text(name, version), version_text(name, version + 1)
            sandbox.execute({"command": "str_replace", "path": f"/memories/{name}", "old_str": old, "new_str": new})
        log = sum(1 for _ in (root / "log.md").open()) if (root / "log.md").exists() else None
        if log is None:
            sandbox.execute({"command": "create", "path": "/memories/log.md", "file_text": ""})
        else:
            sandbox.execute(
                {"command": "insert", "path": "/memories/log.md", "insert_line": log, "insert_text": f"entry {log}"}
            )
        mover = rng.choice(MOVERS)
        here, there = ("a", "b") if (root / "a" / mover).exists() else ("b", "a")
        sandbox.execute(
            {"command": "rename", "old_path": f"/memories/{here}/{mover}", "new_path": f"/memories/{there}/{mover}"}
        )


def check_whole(root: Path) -> None:
    for name in FILES:
        current_version(root, name)
    log = (root / "log.md").read_text() if (root / "log.md").exists() else ""
    assert log == "".join(f"entry {n}\n" for n in range(log.count("\n"))), "log.md is not a whole prefix"
    for mover in MOVERS:
        places = [root / side / mover for side in ("a", "b") if (root / side / mover).exists()]
        assert len(places) == 1, f"{mover} found {len(places)} times"
        assert places[0].read_text() == f"moving file {mover}\n"


# Every step that changes a file system: the audit events of the calls that create, move or remove
# names, and the three calls that raise none (write, pwrite, fsync), wrapped below.
_CHANGING_EVENTS = frozenset({"os.rename", "os.remove", "os.rmdir", "os.mkdir", "os.link", "os.truncate", "os.chmod"})
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


def _die_at_step(step: int) -> None:
    """In a forked child: SIGKILL this process just before its ``step``-th file-system change.

    The kill point is chosen by counting changes, not by a timer, so the same seed kills at the
    same instant of the same write however busy the machine is.
    """
    count = 0

    def tick() -> None:
        nonlocal count
        count += 1
        if count == step:
            os.kill(os.getpid(), signal.SIGKILL)

    def hook(event: str, args: tuple[Any, ...]) -> None:
        opens_for_writing = event == "open" and isinstance(args[2], int) and args[2] & _WRITE_FLAGS
        if opens_for_writing or event in _CHANGING_EVENTS:
            tick()

    def counted(real: Any) -> Any:
        def call(*args: Any) -> Any:
            tick()
            return real(*args)

        return call

    sys.addaudithook(hook)
    for name in ("write", "pwrite", "fsync"):
        setattr(os, name, counted(getattr(os, name)))
    _fs._call_renameat2 = counted(_fs._call_renameat2)  # renameat2 goes through ctypes


@pytest.mark.slow
def test_sigkill_mid_write_leaves_whole_files(tmp_path: Path) -> None:
    """Killed before each kind of file-system step, writers leave every file whole and no temp file visible."""
    root = tmp_path / "store"
    setup = sandbox_on(root)
    for mover in MOVERS:
        setup.execute({"command": "create", "path": f"/memories/a/{mover}", "file_text": f"moving file {mover}\n"})
    rng = random.Random(2026)
    mid_write = 0
    for point in range(KILL_POINTS):
        step = rng.randrange(1, KILL_STEPS)
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child never returns
            try:
                _die_at_step(step)
                _writer_stream(root, point)
            finally:
                os._exit(0)
        _, status = os.waitpid(pid, 0)
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, f"writer {point} was not killed"
        # A dirty state means the kill landed while a write held the store's lock.
        mid_write += b"dirty" in (root / ".memory-sandbox" / "state").read_bytes()
        check_whole(root)
        listing = setup.execute({"command": "view", "path": "/memories"}).content
        assert TEMP_PREFIX not in str(listing)
    print(f"\nkill points: {KILL_POINTS}, landed mid-write: {mid_write}")
    assert mid_write >= KILL_POINTS // 4
    with LocalStorage(root) as reopened:
        assert not list(root.rglob(f"{TEMP_PREFIX}*"))
        assert reopened.usage() == full_walk(root)


# -- symlink-swap races ------------------------------------------------------------------------


def _exchange_flipper(root: Path, stop: Any, swaps: Any) -> None:
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    count = 0
    while not stop.is_set():
        rename_exchange(fd, "flip", fd, "flip_link")
        count += 1
        swaps.value = count


def _rename_flipper(root: Path, outside: Path, stop: Any, swaps: Any) -> None:
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    count = extra = 0

    def move_aside() -> None:
        # The sandbox may create "plain" while the real one is away (a create makes its
        # folders); that is allowed, so put the new folder aside and go on flipping.
        nonlocal extra
        extra += 1
        os.rename("plain", f"plain_extra_{extra}", src_dir_fd=fd, dst_dir_fd=fd)

    while not stop.is_set():
        os.rename("plain", "plain_away", src_dir_fd=fd, dst_dir_fd=fd)
        while True:
            try:
                os.symlink(outside, "plain", dir_fd=fd)
                break
            except FileExistsError:
                move_aside()
        os.unlink("plain", dir_fd=fd)
        while True:
            try:
                os.rename("plain_away", "plain", src_dir_fd=fd, dst_dir_fd=fd)
                break
            except OSError:
                move_aside()
        count += 1
        swaps.value = count


@pytest.mark.slow
def test_symlink_swap_race_never_escapes(tmp_path: Path) -> None:
    """Folders swapped for symlinks as fast as two processes can: zero touches outside the store."""
    root, outside = tmp_path / "store", tmp_path / "outside"
    (outside / "sub").mkdir(parents=True)
    canary = "canary-race-" + os.urandom(8).hex()
    (outside / "secret.txt").write_text(canary)
    (outside / "sub" / "inner.txt").write_text(canary)
    sandbox = sandbox_on(root)
    for folder in ("flip", "plain"):
        sandbox.execute({"command": "create", "path": f"/memories/{folder}/note.md", "file_text": "hello\n"})
        sandbox.execute({"command": "create", "path": f"/memories/{folder}/sub/keep.md", "file_text": "x"})
    (root / "flip_link").symlink_to(outside)
    before = {p: p.read_bytes() for p in outside.rglob("*") if p.is_file()}

    watcher = Watcher([outside, outside / "sub"])
    stop, swaps = FORK.Event(), [FORK.Value("q", 0, lock=False), FORK.Value("q", 0, lock=False)]
    flippers = [
        FORK.Process(target=_exchange_flipper, args=(root, stop, swaps[0])),
        FORK.Process(target=_rename_flipper, args=(root, outside, stop, swaps[1])),
    ]
    for process in flippers:
        process.start()
    outcomes: Counter[str] = Counter()
    start, n = time.monotonic(), 0

    def raced_enough() -> bool:
        # Work done, not time spent, ends the race: on a busy machine it simply runs longer.
        enough = min(swaps[0].value, swaps[1].value) >= MIN_SWAPS and n >= MIN_RACE_ROUNDS
        return enough and time.monotonic() - start >= RACE_SECONDS

    try:
        while not raced_enough() and time.monotonic() - start < RACE_SECONDS * 20:
            n += 1
            for command in race_commands(n):
                result = sandbox.execute(command)
                assert canary not in str(result.content), command
                outcomes[f"{command['command']}:{result.decision.outcome}"] += 1
    finally:
        stop.set()
        for process in flippers:
            process.join(timeout=30)
    events = watcher.drain()
    watcher.close()
    print(f"\nrace: {sum(outcomes.values())} calls, {swaps[0].value} exchanges, {swaps[1].value} renames")
    print("race outcomes:", dict(sorted(outcomes.items())))
    assert min(swaps[0].value, swaps[1].value) >= MIN_SWAPS and n >= MIN_RACE_ROUNDS
    assert not events, f"outside touched: {dict(events)}"
    assert {p: p.read_bytes() for p in outside.rglob("*") if p.is_file()} == before
    assert all(canary not in p.read_text() for p in root.rglob("*") if p.is_file() and not p.is_symlink())


def test_watcher_sees_reads_and_writes(tmp_path: Path) -> None:
    """Positive control: the watcher the race test relies on does report a read and a create."""
    (tmp_path / "f.txt").write_text("x")
    watcher = Watcher([tmp_path])
    (tmp_path / "f.txt").read_text()
    (tmp_path / "g.txt").write_text("y")
    events = watcher.drain()
    watcher.close()
    assert events[f"read:{tmp_path}/f.txt"] and events[f"create:{tmp_path}/g.txt"]
