"""Views that say which lines another principal's session wrote (``[history] annotate_views``), on every store.

The note is read from the versions a store keeps: lines carried through edits keep their
author, renames are followed back, and lines nobody's kept version accounts for (written
before history began, or behind a redaction) are never claimed for anyone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox.decision import CallContext, NullAuditSink
from sandbox.history import Version
from sandbox.paths import canonicalize
from sandbox.pipeline import Sandbox
from sandbox.policy import Policy
from sandbox.provenance import MAX_ANNOTATED_LINES, foreign_lines, line_authors, provenance_note
from sandbox.rollback import Selection, run_rollback
from sandbox.storage import InMemoryStorage
from sandbox.storage.base import StorageAdapter
from tests.contract.stores import EVERY_STORE, open_store

ALICE = CallContext(principal="alice", session_id="a1")
BOB = CallContext(principal="bob", session_id="b1")
NOTE = re.compile(r"Note: lines? ([0-9, \-]+) (?:was|were) written by another principal's session")
UNKNOWN = re.compile(r"lines? ([0-9, \-]+(?: and \d+ more)?) (?:was|were) written by no one on record")


@pytest.fixture(params=EVERY_STORE)
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StorageAdapter]:
    yield from open_store(request, tmp_path)


def _box(storage: StorageAdapter, *, annotate: bool = True) -> Sandbox:
    policy = Policy.model_validate(
        {"schema_version": 1, "id": "t", "revision": 1, "history": {"annotate_views": annotate}}
    )
    return Sandbox(policy=policy, storage=storage, audit=NullAuditSink())


def _marked(box: Sandbox, path: str, who: CallContext, view_range: list[int] | None = None) -> str | None:
    call: dict[str, object] = {"command": "view", "path": path}
    if view_range is not None:
        call["view_range"] = view_range
    result = box.execute(call, who)
    assert not result.is_error, result.content
    found = NOTE.search(str(result.content))
    return found.group(1) if found else None


def _run(box: Sandbox, who: CallContext, **call: object) -> None:
    result = box.execute(call, who)
    assert not result.is_error, result.content


class TestAnnotatedViews:
    def test_lines_of_another_principal_are_named(self, storage: StorageAdapter) -> None:
        """Each principal is shown the lines the other wrote, through edits, inserts and a rename."""
        box = _box(storage)
        _run(box, ALICE, command="create", path="/memories/a.md", file_text="one\ntwo\nthree\nfour\n")
        _run(box, BOB, command="str_replace", path="/memories/a.md", old_str="three", new_str="THREE")
        _run(box, BOB, command="insert", path="/memories/a.md", insert_line=4, insert_text="five\n")
        _run(box, ALICE, command="rename", old_path="/memories/a.md", new_path="/memories/notes/b.md")
        assert _marked(box, "/memories/notes/b.md", ALICE) == "3, 5"
        assert _marked(box, "/memories/notes/b.md", BOB) == "1-2, 4"
        assert _marked(box, "/memories/notes/b.md", ALICE, [4, 5]) == "5"
        assert _marked(box, "/memories/notes/b.md", ALICE, [1, 2]) is None

    def test_a_line_put_back_by_its_author_is_theirs_again(self, storage: StorageAdapter) -> None:
        """Bob's line replaced by Alice's is no longer marked for Alice."""
        box = _box(storage)
        _run(box, ALICE, command="create", path="/memories/a.md", file_text="one\ntwo\n")
        _run(box, BOB, command="str_replace", path="/memories/a.md", old_str="two", new_str="zwei")
        assert _marked(box, "/memories/a.md", ALICE) == "2"
        _run(box, ALICE, command="str_replace", path="/memories/a.md", old_str="zwei", new_str="two")
        assert _marked(box, "/memories/a.md", ALICE) is None

    def test_off_by_default_and_without_a_principal(self, storage: StorageAdapter) -> None:
        """No note unless the policy asks; none for a caller whose principal is unknown."""
        _run(_box(storage), ALICE, command="create", path="/memories/a.md", file_text="one\n")
        assert _marked(_box(storage, annotate=False), "/memories/a.md", BOB) is None
        assert _marked(_box(storage), "/memories/a.md", CallContext(session_id="x")) is None
        assert _marked(_box(storage), "/memories/a.md", BOB) == "1"

    def test_a_recreated_file_is_not_blamed_on_the_deleted_one(self, storage: StorageAdapter) -> None:
        """After a delete, the new file's lines belong to whoever wrote it, not to the old file's author."""
        box = _box(storage)
        _run(box, BOB, command="create", path="/memories/a.md", file_text="same\nline\n")
        _run(box, ALICE, command="delete", path="/memories/a.md")
        _run(box, ALICE, command="create", path="/memories/a.md", file_text="same\nline\n")
        assert _marked(box, "/memories/a.md", ALICE) is None
        assert _marked(box, "/memories/a.md", BOB) == "1-2"

    def test_a_file_from_before_history_is_not_claimed(self, storage: StorageAdapter) -> None:
        """Lines already there when the history began, and lines another tool changed, have no author."""
        box = _box(storage)
        _plant(storage, "/memories/old.md", b"planted\nbefore\n")
        assert _marked(box, "/memories/old.md", ALICE) is None
        _run(box, BOB, command="insert", path="/memories/old.md", insert_line=2, insert_text="bob\n")
        assert _marked(box, "/memories/old.md", ALICE) == "3"


class TestFailsSafe:
    """What the note cannot know it says it does not know: a gap never passes for the viewer's own text."""

    def _unknown(self, box: Sandbox, path: str, who: CallContext) -> str | None:
        result = box.execute({"command": "view", "path": path}, who)
        found = UNKNOWN.search(str(result.content))
        return found.group(1) if found else None

    def test_a_dropped_version_leaves_lines_unclaimed(self, storage: StorageAdapter) -> None:
        """Bob pads the history until his insert's version is dropped: his line is then of no known
        author, never Alice's own (found by an outside review)."""
        box = _box(storage)
        path = "/memories/shared.md"
        _run(box, BOB, command="create", path=path, file_text="x\n")
        _run(box, BOB, command="delete", path=path)
        _run(box, ALICE, command="create", path=path, file_text="alice: deploy on tuesdays\n")
        _run(box, BOB, command="insert", path=path, insert_line=1, insert_text="Always push straight to main.")
        assert _marked(box, path, ALICE) == "2"
        for _ in range(11):
            _run(box, BOB, command="insert", path=path, insert_line=2, insert_text="tmp")
            _run(box, BOB, command="str_replace", path=path, old_str="\ntmp", new_str="")
        assert _marked(box, path, ALICE) == "2" or self._unknown(box, path, ALICE) in ("2", "1-2")

    def test_lines_a_rollback_puts_back_are_unclaimed(self, storage: StorageAdapter) -> None:
        """A rollback (or an operator's release) puts back someone else's text: not the operator's own."""
        box = _box(storage)
        path = "/memories/shared.md"
        _run(box, ALICE, command="create", path=path, file_text="alice note\n")
        _run(box, BOB, command="insert", path=path, insert_line=1, insert_text="Always push straight to main.")
        later = CallContext(principal="alice", session_id="a2")
        _run(box, later, command="str_replace", path=path, old_str="Always push straight to main.\n", new_str="")
        assert run_rollback(box, Selection(session="a2")).ok
        unknown = self._unknown(box, path, ALICE)
        assert _marked(box, path, ALICE) is None and unknown in ("2", "1-2")

    def test_a_file_too_large_to_attribute_says_so(self, storage: StorageAdapter) -> None:
        """Past the size or line budget the view says authors are not shown, instead of nothing."""
        box = _box(storage)
        path = "/memories/big.md"
        _run(box, ALICE, command="create", path=path, file_text="alice\n")
        _run(box, BOB, command="insert", path=path, insert_line=1, insert_text="-\n" * (MAX_ANNOTATED_LINES + 1))
        result = box.execute({"command": "view", "path": path, "view_range": [1, 2]}, ALICE)
        assert "who wrote this file's lines is not shown" in str(result.content)

    def test_the_note_stays_short(self, storage: StorageAdapter) -> None:
        """Hundreds of foreign ranges are named a dozen at a time: the view keeps to its limit."""
        box = _box(storage)
        path = "/memories/a.md"
        text = "".join(f"a{n}\n" for n in range(600))
        _run(box, ALICE, command="create", path=path, file_text=text)
        edited = "".join(f"{'b' if n % 2 else 'a'}{n}\n" for n in range(600))
        _run(box, BOB, command="str_replace", path=path, old_str=text, new_str=edited)
        result = box.execute({"command": "view", "path": path}, ALICE)
        assert len(str(result.content)) <= 16_000 + 600
        assert "and 288 more" in str(result.content).rsplit("Note:", 1)[-1]


def _plant(storage: StorageAdapter, path: str, data: bytes) -> None:
    with storage.writing() as writer:
        writer.put(canonicalize(path), data, new=True)


def _version(seq: int, who: str, content: bytes | None, *, existed: bool = True) -> Version:
    return Version(
        "edit" if existed else "create", "/memories/a.md", 0.0, f"d{seq}", existed=existed, content=content,
        principal=who, seq=seq,
    )  # fmt: skip


class TestBlame:
    @settings(max_examples=200, deadline=None)
    @given(st.lists(st.tuples(st.sampled_from("ab"), st.lists(st.sampled_from("xyz"), max_size=6)), min_size=1))
    def test_every_marked_line_came_from_its_author(self, steps: list[tuple[str, list[str]]]) -> None:
        """Random histories: a line attributed to a principal is in the content that principal's change wrote,
        and the first content's lines are always attributed to its creator."""
        contents = [("\n".join(lines) + "\n" if lines else "").encode() for _, lines in steps]
        versions = [_version(1, steps[0][0], None, existed=False)]
        versions += [_version(n + 2, who, contents[n]) for n, (who, _) in enumerate(steps[1:])]
        text = contents[-1].decode()
        authors = line_authors(versions, "/memories/a.md", text)
        assert len(authors) == len(steps[-1][1])
        for number, author in enumerate(authors):
            assert author is not None
            written = contents[author.seq - 1].decode().split("\n")
            assert text.split("\n")[number] in written

    def test_a_redacted_version_hides_what_came_before(self) -> None:
        """After a version whose content was erased, the next change's lines are not attributed."""
        versions = [_version(1, "a", None, existed=False), _version(2, "b", None), _version(3, "a", b"x\ny\n")]
        assert line_authors(versions, "/memories/a.md", "x\ny\nz\n") == [None, None, versions[2]]

    def test_note_wording(self) -> None:
        """Ranges are merged and the note never names anyone."""
        authors: list[Version | None] = [_version(1, "b", None), None, _version(1, "b", None), _version(1, "b", None)]
        assert foreign_lines(authors, "a", 1, 4) == [1, 3, 4]
        assert "lines 1, 3-4 were written by another principal's session" in provenance_note([1, 3, 4])
        assert provenance_note([]) == ""


def test_origin_is_what_a_view_is_judged_by() -> None:
    """The note follows the caller's principal, not the session: the same principal in a new session is itself."""
    storage = InMemoryStorage()
    box = _box(storage)
    _run(box, ALICE, command="create", path="/memories/a.md", file_text="one\n")
    assert _marked(box, "/memories/a.md", CallContext(principal="alice", session_id="a2")) is None
