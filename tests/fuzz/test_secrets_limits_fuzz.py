"""Hypothesis properties for secrets and limits, through the whole sandbox.

* A secret of any rule's format, written in any of the ways a model can (create, edit,
  assembled over two edits), never reaches storage, the answer or the decision record.
* Whatever is written, every stored file stays within the file limits, and a refused
  write leaves the file as it was.
"""

from __future__ import annotations

import random

from hypothesis import example, given
from hypothesis import strategies as st

from sandbox import Sandbox, load_policy
from sandbox.decision import ListAuditSink
from sandbox.paths import canonicalize
from sandbox.policy import parse_policy
from sandbox.storage import InMemoryStorage
from tests.secrets_corpus import PROSE, SECRET_MAKERS

PATH = canonicalize("/memories/notes.md")
prose_lines = st.lists(st.sampled_from(PROSE), max_size=3).map("\n".join)


def _sandbox() -> tuple[Sandbox, InMemoryStorage, ListAuditSink]:
    storage, audit = InMemoryStorage(), ListAuditSink()
    return Sandbox(policy=load_policy("default"), storage=storage, audit=audit), storage, audit


def _leaked(value: str, storage: InMemoryStorage, audit: ListAuditSink, answers: list[object]) -> list[str]:
    places = []
    if storage.stat(PATH) is not None and value in storage.read(PATH).decode("utf-8", "replace"):
        places.append("storage")
    if any(value in str(answer) for answer in answers):
        places.append("answer")
    if any(value in repr(decision) for decision in audit.outcomes + audit.intents):
        places.append("decision record")
    return places


@given(rule=st.sampled_from(sorted(SECRET_MAKERS)), seed=st.integers(0, 2**32), before=prose_lines, after=prose_lines,
       how=st.sampled_from(["create", "str_replace", "insert", "assembled"]))  # fmt: skip
@example(rule="aws-access-key-id", seed=1, before="", after="", how="assembled")
@example(rule="private-key", seed=2, before="notes", after="", how="insert")
def test_no_secret_reaches_storage(rule: str, seed: int, before: str, after: str, how: str) -> None:
    value, line = SECRET_MAKERS[rule](random.Random(seed))
    sandbox, storage, audit = _sandbox()
    answers: list[object] = []

    def run(command: dict[str, object]) -> None:
        answers.append(sandbox.execute({"path": str(PATH), **command}).content)

    text = f"{before}\n{line}\n{after}\n"
    if how == "create":
        run({"command": "create", "file_text": text})
    elif how == "str_replace":
        run({"command": "create", "file_text": f"{before}\nPLACEHOLDER\n{after}\n"})
        run({"command": "str_replace", "old_str": "PLACEHOLDER", "new_str": line})
    elif how == "insert":
        run({"command": "create", "file_text": f"{before}\n{after}\n"})
        run({"command": "insert", "insert_line": 1, "insert_text": line})
    else:  # the line written in two edits, each harmless alone
        cut = line.index(value) + len(value) // 2
        run({"command": "create", "file_text": f"{before}\n{line[:cut]}SPLIT\n{after}\n"})
        run({"command": "str_replace", "old_str": "SPLIT", "new_str": line[cut:]})
    assert not _leaked(value, storage, audit, answers), (rule, how)


LIMITS = parse_policy(
    'schema_version = 1\nid = "limits"\nrevision = 1\n[limits]\nmax_file_bytes = 300\nmax_file_lines = 6\n',
    source="limits.toml",
)
writes = st.one_of(
    st.tuples(st.just("create"), st.text(max_size=400), st.just(0)),
    st.tuples(st.just("insert"), st.text(max_size=120), st.integers(-1, 8)),
    st.tuples(st.just("str_replace"), st.text(max_size=200), st.just(0)),
)


@given(st.lists(writes, max_size=12))
@example([("create", "a" * 300, 0), ("insert", "b", 0)])
@example([("create", "1\n2\n3\n4\n5\n", 0), ("insert", "6\n7", 5)])
def test_files_stay_within_limits(steps: list[tuple[str, str, int]]) -> None:
    storage = InMemoryStorage()
    sandbox = Sandbox(policy=LIMITS, storage=storage, audit=ListAuditSink())
    for kind, text, line in steps:
        before = storage.read(PATH) if storage.stat(PATH) is not None else None
        if kind == "create":
            command = {"command": "create", "path": str(PATH), "file_text": text}
        elif kind == "insert":
            command = {"command": "insert", "path": str(PATH), "insert_line": line, "insert_text": text}
        else:
            old = before.decode()[:3] if before else "x"
            command = {"command": "str_replace", "path": str(PATH), "old_str": old or "x", "new_str": text}
        result = sandbox.execute(command)
        after = storage.read(PATH) if storage.stat(PATH) is not None else None
        if result.is_error:
            assert after == before, command
        if after is not None:
            stored = after.decode()
            assert len(after) <= 300
            assert stored.count("\n") + (1 if stored and not stored.endswith("\n") else 0) <= 6
