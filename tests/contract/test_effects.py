"""Sequences of allowed calls judged on what they change and reveal, on every store.

Each class is one finding of an attacker who composes calls: depth through renames, folders
for free, an oracle on redacted or hidden content, access rules that saw only named paths,
redaction that grows a file past its limit, odd input that escaped the runner, look-alike
twins. Every test failed before policy was judged on effects.
"""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from sandbox import Sandbox, canonicalize
from sandbox.decision import ListAuditSink
from sandbox.policy import Policy, parse_policy
from sandbox.storage import Usage
from sandbox.storage.base import StorageAdapter
from tests.contract.stores import EVERY_STORE, open_store
from tests.trees import plant_chain

BASE = 'schema_version = 1\nid = "effects"\nrevision = 1\n'
KEY = "sk-ant-api03-" + "Q7x" * 31 + "AA"  # the shape of an Anthropic API key
AKIA = "AKIAZ7Q3K5RT2PLM4QWE"


def policy(extra: str = "") -> Policy:
    return parse_policy(BASE + extra, source="effects.toml")


@pytest.fixture(params=EVERY_STORE)
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StorageAdapter]:
    yield from open_store(request, tmp_path)


Call = Callable[..., tuple[bool, str]]


def make(rules: Policy, storage: StorageAdapter, audit: ListAuditSink | None = None) -> Sandbox:
    return Sandbox(policy=rules, storage=storage, audit=audit or ListAuditSink())


def caller(box: Sandbox) -> Call:
    def call(**command: Any) -> tuple[bool, str]:
        result = box.execute(command)
        return result.is_error, str(result.content)

    return call


def every_path(storage: StorageAdapter) -> list[str]:
    return ["/memories/" + "/".join(node.parts) for node in storage.tree(canonicalize("/memories")).nodes[1:]]


class TestDepthThroughRenames:
    def test_nesting_renames_never_pass_max_depth(self, storage: StorageAdapter) -> None:
        """Each rename's target is shallow, but what moves with it is not: no path ends deeper than max_depth."""
        call = caller(make(policy("[paths]\nmax_depth = 6\n"), storage))
        call(command="create", path="/memories/t0/x.md", file_text="x")
        refused = 0
        for i in range(12):
            is_error, text = call(command="rename", old_path=f"/memories/t{i}", new_path=f"/memories/t{i + 1}/t{i}")
            refused += is_error and "paths.max_depth" in text
            if is_error:
                break
        assert refused == 1
        assert max(path.count("/") - 1 for path in every_path(storage)) <= 6

    def test_moved_path_length_judged(self, storage: StorageAdapter) -> None:
        """The longest path moved with a folder is judged against max_path_bytes, not only the target."""
        call = caller(make(policy("[paths]\nmax_path_bytes = 60\n"), storage))
        assert not call(command="create", path="/memories/a/" + "n" * 30 + ".md", file_text="x")[0]
        is_error, text = call(command="rename", old_path="/memories/a", new_path="/memories/" + "b" * 20)
        assert is_error and "paths.max_path_bytes" in text


class TestFoldersCount:
    def test_renames_cannot_leave_folders_beyond_the_quota(self, storage: StorageAdapter) -> None:
        """A 1-byte file moved through new folders: folders count against max_folders (default max_files)."""
        call = caller(make(policy("[quota]\nmax_files = 5\n"), storage))
        call(command="create", path="/memories/f0/x.md", file_text="x")
        outcomes = [call(command="rename", old_path=f"/memories/f{i}/x.md", new_path=f"/memories/f{i + 1}/x.md")
                    for i in range(8)]  # fmt: skip
        assert [is_error for is_error, _ in outcomes] == [False] * 4 + [True] * 4
        assert "quota.max_folders" in outcomes[4][1]
        assert storage.usage() == Usage(1, 1, 5)

    def test_deleting_folders_frees_the_quota(self, storage: StorageAdapter) -> None:
        """Empty folders left behind can be deleted, and then new ones made."""
        call = caller(make(policy("[quota]\nmax_files = 2\nmax_folders = 2\n"), storage))
        call(command="create", path="/memories/a/b/x.md", file_text="x")
        assert call(command="create", path="/memories/c/y.md", file_text="y")[0]
        call(command="rename", old_path="/memories/a/b/x.md", new_path="/memories/x.md")
        call(command="delete", path="/memories/a")
        assert not call(command="create", path="/memories/c/y.md", file_text="y")[0]
        assert storage.usage() == Usage(2, 2, 1)


class TestNoOracle:
    @pytest.fixture
    def planted(self, storage: StorageAdapter) -> StorageAdapter:
        storage.create(canonicalize("/memories/keys.md"), f"prod key: {KEY}\nend\n".encode())
        return storage

    @pytest.mark.parametrize("profile", ["", '[secrets]\naction = "reject"\n'])
    def test_right_and_wrong_guesses_answer_alike(self, planted: StorageAdapter, profile: str) -> None:
        """A guess at a redacted key answers exactly as a wrong guess, under redact and under reject."""
        call = caller(make(policy(profile), planted))
        for shape in ("{}", "key: {}"):
            answers = set()
            for guess in (KEY[:16], KEY[:30], KEY, "sk-ant-api03-ZZZ"):
                old_str = shape.format(guess)
                is_error, text = call(command="str_replace", path="/memories/keys.md", old_str=old_str, new_str="x")
                # The echo of old_str is the caller's own text (scrubbed when it has a key's shape).
                answers.add((is_error, re.sub(r"old_str `.*` did not", "old_str `?` did not", text, flags=re.S)))
            assert len(answers) == 1, answers
            assert "did not appear verbatim" in answers.pop()[1]
        assert KEY.encode() in planted.read(canonicalize("/memories/keys.md"))  # nothing written

    def test_an_edit_next_to_a_key_cannot_reveal_it(self, planted: StorageAdapter) -> None:
        """Editing the text just before a redacted key stores the visible text: the key never shows."""
        call = caller(make(policy(), planted))
        is_error, snippet = call(command="str_replace", path="/memories/keys.md", old_str="prod key: ", new_str="x")
        assert not is_error and KEY[13:40] not in snippet
        assert KEY[13:40] not in call(command="view", path="/memories/keys.md")[1]
        assert KEY[13:40].encode() not in planted.read(canonicalize("/memories/keys.md"))

    def test_hidden_files_cannot_be_named_by_any_command(self, storage: StorageAdapter) -> None:
        """Every command on a path a view rule hides answers the same whether a file is there or not,
        whatever the guess (a create there once answered "already exists"), and changes nothing."""
        hide = '[[rules]]\nid = "private"\neffect = "deny"\ncommands = ["view"]\npaths = ["/memories/private/**"]\n'
        storage.create(canonicalize("/memories/private/p.md"), b"the launch code is 0000\n")
        storage.create(canonicalize("/memories/open.md"), b"open\n")
        call = caller(make(policy(hide), storage))

        def answers(path: str) -> list[str]:
            commands: list[dict[str, Any]] = [
                {"command": "create", "path": path, "file_text": "x\n"},
                {"command": "str_replace", "path": path, "old_str": "launch code", "new_str": "y"},
                {"command": "str_replace", "path": path, "old_str": "no such text", "new_str": "y"},
                {"command": "insert", "path": path, "insert_line": 0, "insert_text": "x\n"},
                {"command": "delete", "path": path},
                {"command": "rename", "old_path": path, "new_path": "/memories/out.md"},
                {"command": "rename", "old_path": "/memories/open.md", "new_path": path},
            ]
            return [call(**command)[1].replace(path, "<path>") for command in commands]

        assert answers("/memories/private/p.md") == answers("/memories/private/none.md")
        assert all("Access denied" in answer for answer in answers("/memories/private/p.md"))
        assert "private" not in call(command="view", path="/memories")[1]
        assert call(command="rename", old_path="/memories/private", new_path="/memories/open")[0]
        assert storage.read(canonicalize("/memories/private/p.md")) == b"the launch code is 0000\n"
        assert storage.stat(canonicalize("/memories/private/none.md")) is None
        assert storage.read(canonicalize("/memories/open.md")) == b"open\n"

    def test_a_twin_of_a_hidden_name_does_not_reveal_it(self, storage: StorageAdapter) -> None:
        """A case or look-alike twin of a hidden folder answers as a twin of nothing: the refusal
        named the hidden sibling (/memories/HR differs only in case from /memories/hr)."""
        hide = '[[rules]]\nid = "hr"\neffect = "deny"\npaths = ["/memories/hr/**", "/memories/hr"]\n'
        storage.create(canonicalize("/memories/hr/salaries.md"), b"x\n")
        call = caller(make(policy(hide), storage))
        first = call(command="create", path="/memories/HR/x.md", file_text="x\n")
        assert first == (False, "File created successfully at: /memories/HR/x.md"), first
        # A look-alike of both is refused for the visible one only.
        is_error, text = call(command="create", path="/memories/h\u0433/x.md", file_text="x\n")
        assert is_error and "/memories/HR" in text and "/memories/hr" not in text, text


class TestAccessRulesOnEffects:
    RULE = (
        '[[rules]]\nid = "policies-read-only"\neffect = "deny"\n'
        'commands = ["create", "str_replace", "insert", "delete", "rename"]\npaths = ["/memories/team/policies/**"]\n'
    )

    def test_ancestors_cannot_be_moved_or_deleted(self, storage: StorageAdapter) -> None:
        """Renaming or deleting a folder above a read-only path acts on that path too: refused."""
        storage.create(canonicalize("/memories/team/policies/p.md"), b"rule\n")
        storage.create(canonicalize("/memories/team/notes.md"), b"notes\n")
        call = caller(make(policy(self.RULE), storage))
        for command in (
            {"command": "rename", "old_path": "/memories/team", "new_path": "/memories/elsewhere"},
            {"command": "delete", "path": "/memories/team"},
        ):
            is_error, text = call(**command)
            assert (is_error and "policies-read-only" in text) or "not allowed" in text
        assert storage.read(canonicalize("/memories/team/policies/p.md")) == b"rule\n"
        assert not call(command="delete", path="/memories/team/notes.md")[0]


class TestBoundedRecordsAndContent:
    def test_redaction_cannot_grow_a_file_past_its_limit(self, storage: StorageAdapter) -> None:
        """A create that fits before redaction but not after is refused (the marker is longer than the key)."""
        call = caller(make(policy("[limits]\nmax_file_bytes = 100\n"), storage))
        text = "x" * 79 + " " + AKIA
        is_error, answer = call(command="create", path="/memories/a.md", file_text=text)
        assert is_error and "limits.max_file_bytes" in answer
        assert storage.stat(canonicalize("/memories/a.md")) is None

    def test_one_call_one_bounded_record(self, storage: StorageAdapter) -> None:
        """Two thousand secrets in one write are one note with a count: the record stays small."""
        audit = ListAuditSink()
        call = caller(make(policy(), storage, audit))
        assert not call(command="create", path="/memories/keys.md", file_text=f"key {AKIA}\n" * 2000)[0]
        decision = audit.outcomes[-1]
        assert len(decision.notes) == 1 and decision.notes[0].reason.endswith("(x2000)")
        assert len(json.dumps(dataclasses.asdict(decision), default=str)) < 4096


class TestOddInput:
    def test_surrogate_field_name_is_recorded_not_raised(self, storage: StorageAdapter) -> None:
        """An unknown field whose name is a lone surrogate is recorded (escaped); the call goes on."""
        audit = ListAuditSink()
        result = make(policy(), storage, audit).execute({"command": "view", "path": "/memories", "\udcff": 1})
        assert not result.is_error and audit.outcomes[0].extra_fields == ("\\udcff",)

    @pytest.mark.parametrize("field", [{"view_range": [2**70, 2**71]}, {"view_range": [1, -(2**80)]}])
    def test_huge_view_range_is_a_field_error(self, storage: StorageAdapter, field: dict[str, Any]) -> None:
        """Integers beyond any line number are a field error, not an internal one."""
        result = make(policy(), storage).execute({"command": "view", "path": "/memories", **field})
        assert result.is_error and result.decision.error_code == "invalid_command"

    def test_secret_in_field_name_scrubbed_before_cut(self, storage: StorageAdapter) -> None:
        """A secret in an unknown field's name never reaches the record, not even its first characters."""
        audit = ListAuditSink()
        make(policy(), storage, audit).execute({"command": "view", "path": "/memories", "x" * 40 + " " + KEY: 1})
        assert KEY[:20] not in audit.outcomes[0].extra_fields[0]


class TestLookalikeTwins:
    @pytest.mark.parametrize("twin", ["n\u043etes.md", "\uff4eotes.md", "NOTES.md", "n\u03bftes.md"])
    def test_twins_refused(self, storage: StorageAdapter, twin: str) -> None:
        """A Cyrillic, Greek, full-width or case twin of an existing name is refused, by create and rename."""
        call = caller(make(policy(), storage))
        call(command="create", path="/memories/notes.md", file_text="x")
        is_error, text = call(command="create", path=f"/memories/{twin}", file_text="y")
        assert is_error and re.search(r"differs only in case from|looks like", text), text
        call(command="create", path="/memories/other.md", file_text="z")
        assert call(command="rename", old_path="/memories/other.md", new_path=f"/memories/{twin}")[0]

    def test_ordinary_names_still_accepted(self, storage: StorageAdapter) -> None:
        """Names of any script and ASCII names that merely look close (1 and l) live side by side."""
        call = caller(make(policy(), storage))
        for name in (
            "заметки.md",
            "中文笔记.md",
            "🧠.md",
            "file1.md",
            "filel.md",
            "café.md",
            "cafe.md",
            "notes (1).md",
        ):
            assert not call(command="create", path=f"/memories/{name}", file_text="x")[0], name

    def test_overlays_refused(self, storage: StorageAdapter) -> None:
        """Combining overlays and marks on dots are refused in names (``..\\u0338etc``)."""
        call = caller(make(policy(), storage))
        for name in ("..\u0338etc", "a\u20d2b.md", ".\u0301x.md"):
            is_error, text = call(command="create", path=f"/memories/{name}", file_text="x")
            assert is_error and "Access denied" in text, name


def test_deep_and_wide_trees_open_count_and_erase_with_few_descriptors(tmp_path: Path) -> None:
    """A store holding 1,100 sibling folders and a chain 1,100 levels deep (planted behind its back)
    opens, recounts and is erased under a 64-descriptor limit."""
    root = tmp_path / "store"
    for i in range(1100):
        (root / "wide" / f"d{i}").mkdir(parents=True)
    plant_chain(root, 1100, "a")
    script = (
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))\n"
        "from sandbox.storage import LocalStorage\n"
        "store = LocalStorage(sys.argv[1])\n"
        "print(store.usage())\n"
        "store.erase()\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(root)], capture_output=True, text=True, check=False)  # noqa: S603 - fixed argv
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Usage(bytes=0, files=1, folders=2201)" in done.stdout
    assert not root.exists()
