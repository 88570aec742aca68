"""A stateful attacker: compositions of allowed calls on every store and wrap mode, judged after every step.

Each store (in memory, local files, SQLite, PostgreSQL, and the sandbox wrapped around the SDK's
own filesystem handler) holds, planted behind the sandbox's back, a read-only file, a file a view
rule hides and a file holding an API key. Rules compose calls the way an attacker does: nested
renames that deepen a tree, moves and deletes of ancestors of protected paths, create/delete loops,
renames that leave folders behind, guesses at the redacted key and the hidden text, listings of
protected folders. After every step, on every store:

- every path is within ``max_depth`` and ``max_path_bytes``;
- usage equals a recount of what is stored and is within the quota, folders included;
- the protected and hidden files are unchanged, and no answer shows the key or the hidden text;
- a right and a wrong guess at hidden content get the same answer, and any command naming the
  hidden file gets the answer it gets naming a missing file beside it;
- each call's decision record is bounded in size;
- every store answers every call alike.

``ATTACKER_EXAMPLES`` and ``ATTACKER_STEPS`` set how many sequences of how many steps run (10 x 25 in
CI; ``ATTACKER_EXAMPLES=300 ATTACKER_STEPS=50`` for a long run).
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import tempfile
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from anthropic.tools import BetaLocalFilesystemMemoryTool
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from sandbox import Sandbox, canonicalize
from sandbox.decision import ListAuditSink
from sandbox.integrations.anthropic import SandboxedMemoryTool
from sandbox.policy import parse_policy
from sandbox.storage import InMemoryStorage, LocalStorage, Usage
from sandbox.storage.base import Reader
from sandbox.storage.postgres import PostgresDatabase
from sandbox.storage.sqlite import SQLiteDatabase

KEY = "sk-ant-api03-" + "Q7x" * 31 + "AA"
HIDDEN = "the launch code is 4711"
MAX_DEPTH, MAX_PATH, MAX_FILES, MAX_BYTES = 4, 60, 6, 2000
MAX_RECORD_BYTES = 16_384
POLICY = parse_policy(
    'schema_version = 1\nid = "attacker"\nrevision = 1\n'
    f"[paths]\nmax_depth = {MAX_DEPTH}\nmax_path_bytes = {MAX_PATH}\n"
    f"[quota]\nmax_files = {MAX_FILES}\nmax_bytes = {MAX_BYTES}\n"
    '[[rules]]\nid = "p-read-only"\neffect = "deny"\n'
    'commands = ["create", "str_replace", "insert", "delete", "rename"]\npaths = ["/memories/p/**"]\n'
    '[[rules]]\nid = "h-hidden"\neffect = "deny"\ncommands = ["view"]\npaths = ["/memories/h/**"]\n',
    source="attacker.toml",
)
PLANTED = {"p/rule.md": "rules stay\n", "h/secret.md": HIDDEN + "\n", "k.md": f"key {KEY}\nend\n"}

NAMES = ["a", "b", "t", "x.md", "p", "h", "N.md", "n.md", "\u0445.md"]  # "\u0445" is Cyrillic, like "x"
paths = st.lists(st.sampled_from(NAMES), min_size=1, max_size=3).map(lambda parts: "/memories/" + "/".join(parts))
texts = st.sampled_from(["", "one\n", "x" * 300, f"new {KEY[:20]}", "two\nlines\n"])

Store = tuple[Reader, Sandbox, ListAuditSink]


def _walk(reader: Reader) -> Iterator[tuple[str, bool, int]]:
    for node in reader.tree(canonicalize("/memories")).nodes[1:]:
        yield "/memories/" + "/".join(node.parts), node.is_dir, node.size


class Attacker(RuleBasedStateMachine):
    def __init__(self, makers: dict[str, Callable[[], Store]]) -> None:
        super().__init__()
        self.stores = {name: make() for name, make in makers.items()}

    def _all(self, command: dict[str, Any]) -> tuple[bool, str]:
        answers = {}
        for name, (_, sandbox, audit) in self.stores.items():
            result = sandbox.execute(command)
            answers[name] = (result.is_error, str(result.content))
            record = json.dumps(dataclasses.asdict(audit.outcomes[-1]), default=str)
            assert len(record.encode()) <= MAX_RECORD_BYTES, (name, len(record))
        reference = answers["memory"]
        for name, answer in answers.items():
            assert answer == reference, f"{name} answered {answer!r}, memory {reference!r} to {command!r}"
        assert KEY[13:40] not in reference[1] and HIDDEN not in reference[1], command
        return reference

    @rule(path=paths, text=texts)
    def create(self, path: str, text: str) -> None:
        self._all({"command": "create", "path": path, "file_text": text})

    @rule(path=paths, text=texts)
    def create_then_delete(self, path: str, text: str) -> None:
        if not self._all({"command": "create", "path": path, "file_text": text})[0]:
            self._all({"command": "delete", "path": path})

    @rule(old=paths, new=paths)
    def rename(self, old: str, new: str) -> None:
        self._all({"command": "rename", "old_path": old, "new_path": new})

    @rule(name=st.sampled_from(["a", "b", "t"]), into=st.sampled_from(["a", "b", "t", "p", "h"]))
    def nest(self, name: str, into: str) -> None:
        """Move a folder one level deeper under another: the move that used to deepen trees unboundedly."""
        self._all({"command": "rename", "old_path": f"/memories/{name}", "new_path": f"/memories/{into}/{name}"})

    @rule(path=st.sampled_from(["/memories/p", "/memories/h", "/memories/p/rule.md", "/memories/h/secret.md"]))
    def attack_protected(self, path: str) -> None:
        self._all({"command": "delete", "path": path})
        self._all({"command": "rename", "old_path": path, "new_path": "/memories/stolen"})
        self._all({"command": "view", "path": path})

    @rule(path=paths)
    def delete(self, path: str) -> None:
        self._all({"command": "delete", "path": path})

    @rule(path=st.sampled_from(["/memories", "/memories/h", "/memories/p", "/memories/a"]))
    def listing(self, path: str) -> None:
        self._all({"command": "view", "path": path})

    @rule(
        aim=st.sampled_from(
            [
                ("/memories/k.md", KEY[:24], "sk-ant-api03-ZZZZZZZZZZZ"),
                ("/memories/h/secret.md", "launch code", "no such words"),
            ]
        ),
        command=st.sampled_from(["str_replace", "insert"]),
    )
    def guess(self, aim: tuple[str, str, str], command: str) -> None:
        """A right and a wrong guess at content the caller may not see answer alike."""
        path, right, wrong = aim
        if command == "insert":
            self._all({"command": "insert", "path": path, "insert_line": 1, "insert_text": "inserted"})
            return
        shown = self._all({"command": "view", "path": path})[1]
        if right in shown or wrong in shown:
            return  # the attacker wrote it in view itself: not hidden content any more
        answers = [
            re.sub(r"old_str `.*` did not", "old_str `?` did not", text, flags=re.S)
            for _, text in (
                self._all({"command": "str_replace", "path": path, "old_str": guess, "new_str": "x"})
                for guess in (right, wrong)
            )
        ]
        assert answers[0] == answers[1], answers

    @rule(
        command=st.sampled_from(
            [
                {"command": "create", "path": "<>", "file_text": "x\n"},
                {"command": "rename", "old_path": "/memories/k.md", "new_path": "<>"},
                {"command": "rename", "old_path": "<>", "new_path": "/memories/out.md"},
                {"command": "str_replace", "path": "<>", "old_str": "launch", "new_str": "x"},
                {"command": "insert", "path": "<>", "insert_line": 0, "insert_text": "x\n"},
                {"command": "delete", "path": "<>"},
            ]
        )
    )
    def name_hidden(self, command: dict[str, Any]) -> None:
        """A command naming a hidden file answers as one naming a missing file beside it (a create
        there once answered "already exists")."""
        answers = []
        for path in ("/memories/h/secret.md", "/memories/h/none.md"):
            aimed = {key: path if value == "<>" else value for key, value in command.items()}
            answers.append(self._all(aimed)[1].replace(path, "<>"))
        assert answers[0] == answers[1], answers

    @invariant()
    def limits_hold_for_what_exists(self) -> None:
        for name, (reader, _, _) in self.stores.items():
            found = list(_walk(reader))
            for path, _, _ in found:
                assert path.count("/") - 1 <= MAX_DEPTH, (name, path)
                assert len(path.encode()) <= MAX_PATH, (name, path)
            files = [size for _, is_dir, size in found if not is_dir]
            recount = Usage(sum(files), len(files), len(found) - len(files))
            if name != "wrap":  # the wrapped handler's usage is the sandbox's index of it
                assert reader.usage() == recount, name
            assert recount.files <= MAX_FILES + 3 and recount.folders <= MAX_FILES + 2  # + what was planted
            assert recount.bytes <= MAX_BYTES + sum(len(text) for text in PLANTED.values())

    @invariant()
    def protected_paths_unchanged(self) -> None:
        for name, (reader, _, _) in self.stores.items():
            for path in ("p/rule.md", "h/secret.md"):
                assert reader.read(canonicalize(f"/memories/{path}")).decode() == PLANTED[path], (name, path)


def _planted(storage: Any) -> Any:
    for path, text in PLANTED.items():
        storage.create(canonicalize(f"/memories/{path}"), text.encode())
    return storage


@pytest.fixture
def makers(pg_dsn: str) -> Iterator[dict[str, Callable[[], Store]]]:
    folder = tempfile.mkdtemp(prefix="memory-sandbox-attacker-")
    with SQLiteDatabase(f"{folder}/memory.db", durability="none") as lite, PostgresDatabase(pg_dsn) as pg:

        def over(storage: Any) -> Store:
            audit = ListAuditSink()
            return _planted(storage), Sandbox(policy=POLICY, storage=storage, audit=audit), audit

        def wrapped() -> Store:
            root = Path(folder) / uuid.uuid4().hex
            for path, text in PLANTED.items():
                (root / "memories" / path).parent.mkdir(parents=True, exist_ok=True)
                (root / "memories" / path).write_text(text)
            audit = ListAuditSink()
            tool = SandboxedMemoryTool.wrap(BetaLocalFilesystemMemoryTool(str(root)), policy=POLICY, audit=audit)
            storage = tool.sandbox.backend.storage  # type: ignore[attr-defined]
            return storage, tool.sandbox, audit

        yield {
            "memory": lambda: over(InMemoryStorage()),
            "local": lambda: over(LocalStorage(f"{folder}/{uuid.uuid4().hex}", durability="none")),
            "sqlite": lambda: over(lite.storage(uuid.uuid4().hex)),
            "postgres": lambda: over(pg.storage(uuid.uuid4().hex)),
            "wrap": wrapped,
        }
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.timeout(1800)
def test_attacker_composing_calls(makers: dict[str, Callable[[], Store]]) -> None:
    run_state_machine_as_test(
        lambda: Attacker(makers),
        settings=settings(
            max_examples=int(os.environ.get("ATTACKER_EXAMPLES", "10")),
            stateful_step_count=int(os.environ.get("ATTACKER_STEPS", "25")),
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
        ),
    )
