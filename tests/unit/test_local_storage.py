"""LocalStorage on real folders: links, special files, modes, temp files, usage, scopes."""

from __future__ import annotations

import os
import random
import socket
import stat
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sandbox import Sandbox, load_policy
from sandbox.errors import AlreadyExists, UnsafeEntry
from sandbox.paths import canonicalize
from sandbox.storage import LocalStorage, Usage
from sandbox.storage._fs import TEMP_PREFIX
from sandbox.storage.local import scope_folder_name

CANARY = "canary-3b7e1c-outside-content"


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder outside the store holding a canary file."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.txt").write_text(CANARY)
    return folder


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return tmp_path / "store"


@pytest.fixture
def store(root: Path) -> Iterator[LocalStorage]:
    with LocalStorage(root) as storage:
        yield storage


def tool(store: LocalStorage) -> Any:
    sandbox = Sandbox(policy=load_policy("default"), storage=store)

    def call(**command: Any) -> tuple[bool, Any]:
        result = sandbox.execute(command)
        return result.is_error, result.content

    return call


def every_command(path: str) -> list[dict[str, Any]]:
    return [
        {"command": "view", "path": path},
        {"command": "create", "path": path + "/new.md", "file_text": "x"},
        {"command": "create", "path": path, "file_text": "x"},
        {"command": "str_replace", "path": path, "old_str": "canary", "new_str": "pwned"},
        {"command": "insert", "path": path, "insert_line": 0, "insert_text": "pwned"},
        {"command": "delete", "path": path},
        {"command": "rename", "old_path": path, "new_path": "/memories/moved"},
        {"command": "rename", "old_path": "/memories/own.md", "new_path": path + "/own.md"},
    ]


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


class TestSymlinks:
    @pytest.mark.parametrize("kind", ["absolute_dir", "relative_dir", "absolute_file", "dangling", "loop", "chained"])
    def test_planted_link_refused_everywhere(self, store: LocalStorage, root: Path, outside: Path, kind: str) -> None:
        """A symlink in the store is refused by every command, never followed."""
        call = tool(store)
        call(command="create", path="/memories/own.md", file_text="own")
        link = root / "link"
        if kind == "absolute_dir":
            link.symlink_to(outside)
        elif kind == "relative_dir":
            link.symlink_to(os.path.relpath(outside, root))
        elif kind == "absolute_file":
            link.symlink_to(outside / "secret.txt")
        elif kind == "dangling":
            link.symlink_to(outside / "does-not-exist")
        elif kind == "loop":
            link.symlink_to(link)
        else:
            (root / "hop").symlink_to(outside)
            link.symlink_to(root / "hop")
        before = snapshot(outside)
        for command in every_command("/memories/link") + every_command("/memories/link/secret.txt"):
            is_error, content = call(**command)
            assert is_error and CANARY not in str(content), (command, content)
        assert snapshot(outside) == before
        assert link.is_symlink()

    def test_listing_skips_links(self, store: LocalStorage, root: Path, outside: Path) -> None:
        """view lists neither the link nor anything behind it."""
        (root / "link").symlink_to(outside)
        (root / "flink.md").symlink_to(outside / "secret.txt")
        call = tool(store)
        call(command="create", path="/memories/a/b.md", file_text="x")
        (root / "a" / "inner").symlink_to(outside)
        _, listing = call(command="view", path="/memories")
        assert "link" not in listing and "secret" not in listing and "inner" not in listing
        assert "/memories/a/b.md" in listing

    def test_link_message_names_canonical_path(self, store: LocalStorage, root: Path, outside: Path) -> None:
        """The refusal names the link's canonical path and no host path."""
        (root / "link").symlink_to(outside)
        is_error, content = tool(store)(command="view", path="/memories/link/secret.txt")
        assert is_error
        assert content == "Error: Access denied: /memories/link is a symbolic link; the store never follows links"
        assert str(outside) not in content and str(root) not in content


class TestHardLinksAndSpecialFiles:
    def test_hard_link_refused(self, store: LocalStorage, root: Path, outside: Path) -> None:
        """A file with a second hard link (maybe outside) is neither read nor edited nor listed."""
        os.link(outside / "secret.txt", root / "alias.txt")
        call = tool(store)
        for command in every_command("/memories/alias.txt")[:5]:
            is_error, content = call(**command)
            assert is_error and CANARY not in str(content), command
        assert (outside / "secret.txt").read_text() == CANARY
        assert "alias" not in call(command="view", path="/memories")[1]

    def test_fifo_refused_without_blocking(self, store: LocalStorage, root: Path) -> None:
        """A FIFO is refused at once (opening it for reading would block)."""
        os.mkfifo(root / "pipe.md")
        result: list[Any] = []
        worker = threading.Thread(target=lambda: result.append(tool(store)(command="view", path="/memories/pipe.md")))
        worker.start()
        worker.join(timeout=60)
        assert not worker.is_alive(), "view of a FIFO blocked"
        assert result[0] == (True, "Error: Access denied: /memories/pipe.md is not a regular file or folder")

    def test_socket_refused(self, store: LocalStorage, root: Path) -> None:
        """A Unix socket is refused and not listed."""
        server = socket.socket(socket.AF_UNIX)
        try:
            server.bind(str(root / "sock"))
            call = tool(store)
            assert call(command="view", path="/memories/sock")[0]
            assert "sock" not in call(command="view", path="/memories")[1]
        finally:
            server.close()


class TestFilesOnDisk:
    def test_plain_files(self, store: LocalStorage, root: Path) -> None:
        """/memories maps onto the root itself; files are plain and readable by a person."""
        tool(store)(command="create", path="/memories/notes/today.md", file_text="hello\n")
        assert (root / "notes" / "today.md").read_text() == "hello\n"

    @pytest.mark.parametrize("umask", [0o000, 0o022, 0o077])
    def test_modes_whatever_the_umask(self, tmp_path: Path, umask: int) -> None:
        """Files are 0o600 and folders 0o700, whatever the umask."""
        old = os.umask(umask)
        try:
            with LocalStorage(tmp_path / "s") as store:
                call = tool(store)
                call(command="create", path="/memories/a/b/c.md", file_text="x")
                call(command="str_replace", path="/memories/a/b/c.md", old_str="x", new_str="y")
                call(command="rename", old_path="/memories/a/b/c.md", new_path="/memories/d/e.md")
        finally:
            os.umask(old)
        for folder in ("s", "s/a", "s/a/b", "s/d"):
            assert stat.S_IMODE((tmp_path / folder).stat().st_mode) == 0o700, folder
        assert stat.S_IMODE((tmp_path / "s/d/e.md").stat().st_mode) == 0o600

    def test_control_files_hidden_and_reserved(self, store: LocalStorage, root: Path) -> None:
        """The store's own state is hidden from view and unreachable by model paths."""
        call = tool(store)
        assert (root / ".memory-sandbox").is_dir()
        assert ".memory-sandbox" not in call(command="view", path="/memories")[1]
        is_error, content = call(command="delete", path="/memories/.memory-sandbox")
        assert is_error and "reserved" in content
        assert (root / ".memory-sandbox").is_dir()

    def test_temp_files_hidden_uncounted_and_cleaned(self, root: Path) -> None:
        """Crash leftovers are hidden from view, not counted, and removed when the store opens."""
        with LocalStorage(root) as store:
            tool(store)(command="create", path="/memories/a/x.md", file_text="12345")
        leftover = root / "a" / f"{TEMP_PREFIX}999-deadbeef"
        leftover.write_text("half-written")
        lifted = root / "a" / f"{TEMP_PREFIX}rm-0123"  # a folder half-way through a removal
        (lifted / "deep").mkdir(parents=True)
        (lifted / "deep" / "f.md").write_text("gone")
        with LocalStorage(root) as store:
            assert not leftover.exists() and not lifted.exists()
            assert store.usage() == Usage(5, 1, 1)
            assert TEMP_PREFIX not in tool(store)(command="view", path="/memories")[1]

    def test_rename_no_overwrite_against_racing_creator(self, store: LocalStorage, root: Path) -> None:
        """A file appearing at the destination during rename is never overwritten."""
        source, target = canonicalize("/memories/src.md"), canonicalize("/memories/dst.md")
        for _ in range(200):
            store.create(source, b"A")
            barrier = threading.Barrier(2)
            created: list[bool] = []

            def racer(barrier: threading.Barrier = barrier, created: list[bool] = created) -> None:
                barrier.wait()
                try:
                    fd = os.open(root / "dst.md", os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
                except FileExistsError:
                    created.append(False)
                    return
                os.write(fd, b"B")
                os.close(fd)
                created.append(True)

            thread = threading.Thread(target=racer)
            thread.start()
            barrier.wait()
            try:
                store.rename(source, target)
                renamed = True
            except AlreadyExists:
                renamed = False
            thread.join()
            assert renamed != created[0]
            assert (root / "dst.md").read_bytes() == (b"A" if renamed else b"B")
            assert (root / "src.md").exists() != renamed
            for name in ("src.md", "dst.md"):
                (root / name).unlink(missing_ok=True)
        store.recount()


def full_walk(root: Path) -> Usage:
    """Usage by an independent walk of the folder: bytes and files, and folders (the root not counted)."""
    found = [
        p
        for p in root.rglob("*")
        if not p.is_symlink() and not any(part.startswith(".memory-sandbox") for part in p.parts)
    ]
    sizes = [p.stat().st_size for p in found if p.is_file()]
    return Usage(sum(sizes), len(sizes), sum(1 for p in found if p.is_dir()))


class TestUsage:
    def test_incremental_usage_matches_full_walk(self, store: LocalStorage, root: Path) -> None:
        """After many random operations the O(1) usage equals a full walk."""
        rng = random.Random(7)
        call = tool(store)
        names = [f"/memories/{d}/{f}.md" for d in ("a", "b", "c/d") for f in ("x", "y", "z")]
        for _ in range(600):
            path = rng.choice(names)
            action = rng.randrange(6)
            if action == 0:
                call(command="create", path=path, file_text="t" * rng.randrange(0, 300))
            elif action == 1:
                call(command="str_replace", path=path, old_str="t", new_str="uu" * rng.randrange(0, 5))
            elif action == 2:
                call(command="insert", path=path, insert_line=0, insert_text="line")
            elif action == 3:
                call(command="delete", path=rng.choice([*names, "/memories/a", "/memories/c"]))
            elif action == 4:
                call(command="rename", old_path=path, new_path=rng.choice(names))
            else:
                call(command="view", path=path)
            assert store.usage() == full_walk(root)

    def test_usage_shared_across_instances(self, root: Path) -> None:
        """Two store objects on one folder (two processes, say) see one usage figure."""
        with LocalStorage(root) as first, LocalStorage(root) as second:
            first.create(canonicalize("/memories/a.md"), b"abc")
            second.create(canonicalize("/memories/b.md"), b"de")
            assert first.usage() == second.usage() == Usage(5, 2)

    def test_files_behind_the_back_recounted_once(self, root: Path) -> None:
        """Deleting files the store never counted does not leave usage wrong (or negative)."""
        with LocalStorage(root) as store:
            for n in range(5):
                (root / f"foreign-{n}.md").write_bytes(b"x" * 100)
            for n in range(5):
                store.delete(canonicalize(f"/memories/foreign-{n}.md"))
                assert store.usage() == full_walk(root)

    def test_dirty_state_recounted(self, root: Path) -> None:
        """A writer that died mid-call leaves the state dirty; the next writer recounts."""
        with LocalStorage(root) as store:
            store.create(canonicalize("/memories/a.md"), b"abc")
            (root / "b.md").write_bytes(b"written behind the store's back")
            state = root / ".memory-sandbox" / "state"
            state.write_text(state.read_text().replace("clean", "dirty"))
            assert store.usage() == full_walk(root)


class TestScopes:
    @pytest.mark.parametrize(
        "scope",
        ["alice", "team_7", "Alice", "../etc", "a/b", ".", "..", ".memory-sandbox", "a\x00b", "\u0430lice", "x" * 64],
    )
    def test_scope_folder_is_one_plain_child(self, tmp_path: Path, scope: str) -> None:
        """Every scope id maps to one folder directly under base, never elsewhere."""
        name = scope_folder_name(scope)
        assert "/" not in name and name not in (".", "..") and "\x00" not in name
        assert not name.startswith(".") and name == name.lower()
        with LocalStorage.for_scope(tmp_path / "base", scope) as store:
            store.create(canonicalize("/memories/x.md"), b"x")
        assert (tmp_path / "base" / "scopes" / name / "x.md").exists()

    def test_distinct_ids_distinct_folders(self) -> None:
        """Ids differing only in case, or in look-alike letters, get different folders."""
        ids = ["alice", "Alice", "ALICE", "\u0430lice", "alice ", "alice\u200b", "=abc", "a-b", "a_b"]
        assert len({scope_folder_name(i) for i in ids}) == len(ids)

    @pytest.mark.parametrize("bad", ["", "x" * 200])
    def test_invalid_scope_ids(self, bad: str) -> None:
        """Empty and over-long scope ids are refused."""
        with pytest.raises(ValueError):
            scope_folder_name(bad)

    def test_scopes_isolated(self, tmp_path: Path) -> None:
        """One scope cannot see or reach another's files."""
        with LocalStorage.for_scope(tmp_path, "alice") as alice, LocalStorage.for_scope(tmp_path, "bob") as bob:
            tool(alice)(command="create", path="/memories/diary.md", file_text="alice's")
            call = tool(bob)
            assert "diary" not in call(command="view", path="/memories")[1]
            assert call(command="view", path="/memories/../alice/diary.md")[0]
            assert bob.usage() == Usage(0, 0)


class TestUnsafeEntryErrors:
    def test_adapter_raises_unsafe_entry(self, store: LocalStorage, root: Path, outside: Path) -> None:
        """At the adapter level, a link is an UnsafeEntry with a stable rule id."""
        (root / "l").symlink_to(outside / "secret.txt")
        with pytest.raises(UnsafeEntry) as info:
            store.read(canonicalize("/memories/l"))
        assert info.value.rule_id == "store.symlink"
