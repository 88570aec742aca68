"""Random command sequences through the sandbox on InMemoryStorage and LocalStorage side by side,
against a plain model of what memory should hold, checking the invariants of DESIGN.md section 5
after every step: nothing outside the root, the root intact, no secret stored, usage within the
quota and equal to what is stored, exactly one audit decision per call, identical results.

The model is written from the tool's documented behaviour, not from the sandbox's code: files
and folders in dictionaries, the quota and the file limits as numbers, redaction as the
replacement of a known secret by its marker.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test

from sandbox import Sandbox
from sandbox.decision import ListAuditSink
from sandbox.paths import canonicalize
from sandbox.policy import parse_policy
from sandbox.storage import InMemoryStorage, LocalStorage, Usage
from sandbox.storage.base import StorageAdapter

SECRET = "sk-ant-api03-" + "Q7x" * 31 + "AA"  # the shape of an Anthropic API key (108 characters)
MARKER = "[REDACTED:anthropic-api-key]"
MAX_BYTES, MAX_FILES, MAX_FILE_BYTES, MAX_FILE_LINES = 400, 3, 200, 8
POLICY = parse_policy(
    'schema_version = 1\nid = "machine"\nrevision = 1\n'
    f"[limits]\nmax_file_bytes = {MAX_FILE_BYTES}\nmax_file_lines = {MAX_FILE_LINES}\n"
    f"[quota]\nmax_bytes = {MAX_BYTES}\nmax_files = {MAX_FILES}\n",
    source="machine.toml",
)
FILES = ["/memories/a.md", "/memories/b.md", "/memories/d/c.md", "/memories/d/e/f.md"]
FOLDERS = ["/memories/d", "/memories/d/e", "/memories/g"]
TEXTS = [
    "",
    "z",
    "one\n",
    "one\ntwo\n",
    "alpha beta",
    "x" * 150,
    "y" * 200,
    "y" * 201,
    f"key {SECRET}\n",
    "l\n" * 7,
    "sk-ant-api03-",
    SECRET[13:],
]
NEEDLES = ["one", "two", "beta", "x" * 20, "\n", "sk-ant-api03-", "zzz"]


class Model:
    """What memory should hold: files (path -> text) and folders."""

    def __init__(self) -> None:
        self.files: dict[str, str] = {}
        self.folders: set[str] = set()

    def usage(self) -> Usage:
        return Usage(sum(len(text.encode()) for text in self.files.values()), len(self.files), len(self.folders))

    def new_folders(self, path: str) -> int:
        """How many folders a write or move to ``path`` makes."""
        return len(set(self.parents(path)) - self.folders)

    def exists(self, path: str) -> bool:
        return path in self.files or path in self.folders

    def parents(self, path: str) -> list[str]:
        parts = path.split("/")[2:-1]
        return ["/memories/" + "/".join(parts[: i + 1]) for i in range(len(parts))]

    def blocked(self, path: str) -> bool:
        """A file stands where a folder of ``path`` is needed."""
        return any(parent in self.files for parent in self.parents(path))

    def stored(self, text: str) -> str:
        return text.replace(SECRET, MARKER)

    def fits(self, text: str, replacing: str | None, folders: int = 0) -> bool:
        """Whether a file with ``text`` fits the file limits and the quota (instead of ``replacing``),
        with ``folders`` new folders (folders count against the quota, as many as files by default)."""
        size = len(text.encode())
        lines = text.count("\n") + (1 if text and not text.endswith("\n") else 0)
        if size > MAX_FILE_BYTES or lines > MAX_FILE_LINES:
            return False
        usage = self.usage()
        grow = size - (len(replacing.encode()) if replacing is not None else 0)
        if grow > 0 and usage.bytes + grow > MAX_BYTES:
            return False
        if folders and usage.folders + folders > MAX_FILES:
            return False
        return replacing is not None or usage.files + 1 <= MAX_FILES

    # each returns whether the command succeeds, applying it if so

    def create(self, path: str, text: str) -> bool:
        stored = self.stored(text)
        if self.exists(path) or self.blocked(path) or not self.fits(stored, None, self.new_folders(path)):
            return False
        self.folders.update(self.parents(path))
        self.files[path] = stored
        return True

    def str_replace(self, path: str, old: str, new: str) -> bool:
        text = self.files.get(path)
        if text is None or text.count(old) != 1:
            return False
        return self._edit(path, self.stored(text.replace(old, new)))

    def insert(self, path: str, line: int, insert: str) -> bool:
        text = self.files.get(path)
        if text is None:
            return False
        lines = text.split("\n")
        if lines[-1] == "":
            lines.pop()
        if not 0 <= line <= len(lines):
            return False
        lines.insert(line, insert.rstrip("\n"))
        return self._edit(path, self.stored("\n".join(lines) + "\n"))

    def _edit(self, path: str, text: str) -> bool:
        if not self.fits(text, self.files[path]):
            return False
        self.files[path] = text
        return True

    def delete(self, path: str) -> bool:
        if not self.exists(path):
            return False
        self.files = {p: t for p, t in self.files.items() if p != path and not p.startswith(path + "/")}
        self.folders = {f for f in self.folders if f != path and not f.startswith(path + "/")}
        return True

    def rename(self, old: str, new: str) -> bool:
        if not self.exists(old) or self.exists(new) or new.startswith(old + "/") or self.blocked(new):
            return False
        made = self.new_folders(new)
        if made and self.usage().folders + made > MAX_FILES:
            return False

        def moved(p: str) -> str:
            return new + p[len(old) :] if p == old or p.startswith(old + "/") else p

        self.folders = {moved(f) for f in self.folders} | set(self.parents(new))
        self.files = {moved(p): t for p, t in self.files.items()}
        return True


def _stored_files(storage: StorageAdapter) -> dict[str, str]:
    """Every file a store holds, by walking it through the adapter."""
    out: dict[str, str] = {}

    def walk(folder: str) -> None:
        with storage.scan(canonicalize(folder)) as entries:
            listed = list(entries)
        for entry in listed:
            if entry.name.startswith("."):
                continue
            path = f"{folder}/{entry.name}"
            if entry.is_dir:
                walk(path)
            else:
                out[path] = storage.read(canonicalize(path)).decode()

    walk("/memories")
    return out


class SandboxMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.base = Path(tempfile.mkdtemp(prefix="memory-sandbox-machine-"))
        (self.base / "outside.txt").write_text("CANARY outside\n")
        (self.base / "memories_backup").mkdir()
        self.audits = {"memory": ListAuditSink(), "local": ListAuditSink()}
        self.storages: dict[str, StorageAdapter] = {
            "memory": InMemoryStorage(),
            "local": LocalStorage(self.base / "memories", durability="none"),
        }
        self.sandboxes = {
            name: Sandbox(policy=POLICY, storage=storage, audit=self.audits[name])
            for name, storage in self.storages.items()
        }
        self.model = Model()
        self.calls = 0

    def teardown(self) -> None:
        local = self.storages["local"]
        if isinstance(local, LocalStorage):
            local.close()
        shutil.rmtree(self.base, ignore_errors=True)

    def _run(self, command: dict[str, Any], expected: bool | None) -> None:
        self.calls += 1
        answers = {}
        for name, sandbox in self.sandboxes.items():
            result = sandbox.execute(command)
            answers[name] = (result.is_error, result.content)
        assert answers["memory"] == answers["local"], (command, answers)
        is_error, content = answers["memory"]
        assert SECRET not in str(content)
        if expected is not None:
            assert (not is_error) == expected, (command, content, self.model.files)

    @rule(path=st.sampled_from(FILES + FOLDERS + ["/memories"]))
    def view(self, path: str) -> None:
        self._run({"command": "view", "path": path}, path in self.model.files or path in self.model.folders or None)

    @rule(path=st.sampled_from(FILES), text=st.sampled_from(TEXTS))
    def create(self, path: str, text: str) -> None:
        self._run({"command": "create", "path": path, "file_text": text}, self.model.create(path, text))

    @rule(path=st.sampled_from(FILES), old=st.sampled_from(NEEDLES), new=st.sampled_from(TEXTS))
    def str_replace(self, path: str, old: str, new: str) -> None:
        expected = self.model.str_replace(path, old, new)
        self._run({"command": "str_replace", "path": path, "old_str": old, "new_str": new}, expected)

    @rule(path=st.sampled_from(FILES), line=st.integers(-1, 9), text=st.sampled_from(TEXTS))
    def insert(self, path: str, line: int, text: str) -> None:
        expected = self.model.insert(path, line, text)
        self._run({"command": "insert", "path": path, "insert_line": line, "insert_text": text}, expected)

    @rule(path=st.sampled_from(FILES + FOLDERS))
    def delete(self, path: str) -> None:
        self._run({"command": "delete", "path": path}, self.model.delete(path))

    @rule(old=st.sampled_from(FILES + FOLDERS), new=st.sampled_from(FILES + FOLDERS))
    def rename(self, old: str, new: str) -> None:
        self._run({"command": "rename", "old_path": old, "new_path": new}, self.model.rename(old, new))

    @precondition(lambda self: self.calls > 0)
    @rule(spelling=st.sampled_from(["/memories", "/memories/", "/memories/d/..", "/memories/../memories"]))
    def attack_root(self, spelling: str) -> None:
        self._run({"command": "delete", "path": spelling}, False)
        self._run({"command": "rename", "old_path": spelling, "new_path": "/memories/g"}, False)

    @invariant()
    def memory_is_the_model(self) -> None:
        for name, storage in self.storages.items():
            assert _stored_files(storage) == self.model.files, name
            assert storage.usage() == self.model.usage(), name

    @invariant()
    def within_quota_and_no_secret(self) -> None:
        usage = self.model.usage()
        assert usage.bytes <= MAX_BYTES and usage.files <= MAX_FILES
        for path in (self.base / "memories").rglob("*"):
            if path.is_file():
                assert SECRET.encode() not in path.read_bytes(), path

    @invariant()
    def nothing_outside_and_root_intact(self) -> None:
        assert sorted(p.name for p in self.base.iterdir()) == ["memories", "memories_backup", "outside.txt"]
        assert (self.base / "outside.txt").read_text() == "CANARY outside\n"
        assert not any((self.base / "memories_backup").iterdir())
        assert (self.base / "memories").is_dir() and not (self.base / "memories").is_symlink()

    @invariant()
    def one_decision_per_call(self) -> None:
        for audit in self.audits.values():
            assert len(audit.outcomes) == self.calls


def test_sandbox_against_the_model() -> None:
    run_state_machine_as_test(
        SandboxMachine,
        settings=settings(
            max_examples=settings().max_examples // 3,  # ci: 100 sequences; fuzz: thousands
            stateful_step_count=40,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )
