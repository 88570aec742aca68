"""Multi-call attacks: sequences of calls that may each be allowed, judged on the state they leave.

A single-call corpus cannot find what composes: renames that nest a folder deeper than any
create may reach, renames that leave a folder behind each time, guesses at a redacted key or
a hidden file whose answers differ when right, moves of a folder above a read-only file. Each
family here first measures what the handler refuses to one call (how deep a create may go,
how many files it takes, whether it redacts the planted key, hides the planted diary, guards
the planted rules file), then composes calls to get past it:

* ``bypass``: the sequence reached what the handler refuses to a single call (a file deeper
  than any create may go, a read-only file changed, a redacted key or hidden file read, an
  answer that tells a right guess from a wrong one). Fails every run, like an escape.
* ``unguarded``: the handler sets no bound to get past (no depth limit, no bound on files or
  folders, a planted key shown by ``view``, name twins accepted). Fails a ``--strict`` run.
* ``skipped``: nothing to attack (no planted file is read-only or hidden): counted, no finding.

The families know the planted files from :class:`~sandbox.attack.world.World`; they reach
the handler only through its answers (and, for a handler keeping memory in the root on disk,
the tree itself).
"""

from __future__ import annotations

import re
import secrets
import string
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Final

from sandbox.attack.world import World

__all__ = ["SEQUENCE_FAMILIES", "Outcome", "Session", "run_family"]

Call = Callable[[Any], tuple[str, str]]

#: The deepest create the depth probe tries, and the most files the bound probe makes.
_DEPTH_CAP: Final = 128
_FILE_CAP: Final = 1100
#: Renames past the handler's own bound on files before a folder flood counts as unbounded.
_FLOOD_MARGIN: Final = 50
#: A run of this many characters of the planted key in an answer shows the key.
_KEY_WINDOW: Final = 16


@dataclass(frozen=True)
class Outcome:
    """One composed case: the command that composes it, what was done, and what it counts as."""

    slot: str
    summary: str
    categories: dict[str, str]


@dataclass
class Session:
    """The calls of one family: every answer checked for escapes as a single call's would be."""

    world: World
    send: Call
    on_disk: bool
    tag: str = field(default_factory=lambda: secrets.token_hex(3))
    calls: int = 0
    _trouble: dict[str, str] = field(default_factory=dict)

    def call(self, command: dict[str, Any]) -> tuple[str, str]:
        status, text = self.send(command)
        self.calls += 1
        given = [value for value in command.values() if isinstance(value, str)]
        for finding in self.world.examine_output(text, given):
            self._trouble.setdefault(finding.kind, f"{finding.detail} (after {command['command']})")
        if status in ("crash", "hang"):
            self._trouble.setdefault(status, f"{command['command']}: {text[:160]}")
        return status, text

    def ok(self, command: dict[str, Any]) -> bool:
        return self.call(command)[0] == "ok"

    def outcome(self, slot: str, summary: str, **categories: str | None) -> Outcome:
        """The case's categories (those given as None do not count), with any escape, crash or hang
        its calls met since the last outcome."""
        merged = {**self._trouble, **{name: why for name, why in categories.items() if why is not None}}
        self._trouble = {}
        return Outcome(slot, summary, merged)

    def view(self, path: str) -> str:
        status, text = self.call({"command": "view", "path": path})
        return text if status == "ok" else ""


def _shows(text: str, secret: str) -> bool:
    """Whether ``text`` holds a run of ``_KEY_WINDOW`` characters of ``secret``."""
    return any(secret[i : i + _KEY_WINDOW] in text for i in range(len(secret) - _KEY_WINDOW + 1))


def _alike(answer: tuple[str, str], *variable: str) -> tuple[str, str]:
    """An answer with the parts the attacker chose (paths, guesses) blanked out, for comparison."""
    status, text = answer
    for part in sorted(variable, key=len, reverse=True):
        text = text.replace(part, "<>")
    return status, re.sub(r"\d+(\.\d+)?K?\b", "#", text)  # sizes and line numbers may differ


# nested_renames


def _depth_path(base: str, depth: int) -> str:
    """A file ``depth`` names below /memories: ``base`` (one name), one-letter folders, the file."""
    return "/".join([base, *["d"] * (depth - 2), "f.md"])


def _refused_depth(s: Session, base: str) -> int | None:
    """The shallowest depth a create is refused at (None: none up to the cap)."""
    accepted, depth = 1, 2
    while depth <= _DEPTH_CAP and s.ok({"command": "create", "path": _depth_path(base, depth), "file_text": "d\n"}):
        accepted, depth = depth, depth * 2
    if depth > _DEPTH_CAP:
        return None
    refused = depth
    while refused - accepted > 1:
        middle = (accepted + refused) // 2
        if s.ok({"command": "create", "path": _depth_path(base, middle), "file_text": "d\n"}):
            accepted = middle
        else:
            refused = middle
    return refused


def nested_renames(s: Session) -> Iterator[Outcome]:
    """Rename two folders into each other by turns: each rename's own path is short, the tree grows."""
    base = f"/memories/nest-{s.tag}"
    refused = _refused_depth(s, base)
    s.call({"command": "delete", "path": base})
    if refused is None:
        yield s.outcome(
            "create",
            f"creates {_DEPTH_CAP} levels deep",
            unguarded=f"a create {_DEPTH_CAP} levels below /memories is accepted: no depth limit",
        )
        return
    extra = refused - 4  # folders a rename's own path adds: base/q/<extra>/p is refused - 1 deep
    if extra < 1:
        yield s.outcome("rename", "renames", skipped=f"creates are refused {refused} levels deep: nothing to nest")
        return
    s.call({"command": "create", "path": f"{base}/p/f.md", "file_text": "deep\n"})
    top, other, depth, renames = "p", "q", 3, 0
    for _ in range(4):
        target = "/".join([base, other, *["x"] * extra, top])
        if not s.ok({"command": "rename", "old_path": f"{base}/{top}", "new_path": target}):
            break
        depth, renames, top, other = depth + extra + 1, renames + 1, other, top
    deepest = max(depth if renames else 0, s.world.deepest() if s.on_disk else 0)
    summary = f"{renames} folder renames of {extra + 3}-level paths into each other"
    s.call({"command": "delete", "path": base})
    why = f"left a file {deepest} levels deep; a create {refused} deep is refused"
    yield s.outcome("rename", summary, bypass=why if deepest >= refused else None)


# folder_flood


def folder_flood(s: Session) -> Iterator[Outcome]:
    """Rename one file from folder to folder: each rename leaves an empty folder behind."""
    base = f"/memories/flood-{s.tag}"
    made = 0
    while made < _FILE_CAP and s.ok({"command": "create", "path": f"{base}/f{made}.md", "file_text": "f\n"}):
        made += 1
    s.call({"command": "delete", "path": base})
    bound = made if made < _FILE_CAP else None
    renames = _FILE_CAP if bound is None else bound + _FLOOD_MARGIN
    s.call({"command": "create", "path": f"{base}/0/f.md", "file_text": "f\n"})
    moved = 0
    while moved < renames and s.ok(
        {"command": "rename", "old_path": f"{base}/{moved}/f.md", "new_path": f"{base}/{moved + 1}/f.md"}
    ):
        moved += 1
    left = s.world.folders_below(base.removeprefix("/memories/")) if s.on_disk else moved + 1
    s.call({"command": "delete", "path": base})
    summary = f"{moved} renames of one file from folder to folder"
    why = None
    if bound is None:
        why = f"{_FILE_CAP} files and then {left} folders accepted: no bound"
    elif moved >= renames:
        why = f"{left} folders left behind; the handler takes at most {bound} files"
    yield s.outcome("rename", summary, unguarded=why)


# oracle_redacted


def oracle_redacted(s: Session) -> Iterator[Outcome]:
    """Guess at a key ``view`` redacts through edits, whose answers must not tell right from wrong."""
    path, key = f"/memories/{World.KEYS}", s.world.key
    body = key[len("sk-ant-api03-") :]
    shown = s.view(path)
    if _shows(shown, body):
        yield s.outcome("view", "view of a planted API key", unguarded="view shows a key planted in memory")
        return
    for known in (4, 12, len(key) - 1):
        right, wrong = key[: known + 1], key[:known] + _other(key[known])
        answers = [
            _alike(s.call({"command": "str_replace", "path": path, "old_str": g, "new_str": g}), g)
            for g in (right, wrong)
        ]
        summary = f"str_replace guesses of the key's first {known + 1} characters, right and wrong"
        apart = answers[0] != answers[1]
        why = f"a right and a wrong guess answer apart: {answers[0][1][:80]!r}"
        yield s.outcome("str_replace", summary, bypass=why if apart else None)
    line = next((text.split("\t", 1)[-1] for text in shown.splitlines() if "anthropic" in text), "")
    edits: list[dict[str, Any] | None] = [
        {"command": "str_replace", "path": path, "old_str": line, "new_str": line + " "} if line else None,
        {"command": "insert", "path": path, "insert_line": 0, "insert_text": "note\n"},
        {"command": "str_replace", "path": path, "old_str": key[:16], "new_str": "A" * 16},
    ]
    for edit in filter(None, edits):
        answer = s.call(edit)
        summary = f"{edit['command']} next to or over the key, then view"
        shows = _shows(answer[1], body) or _shows(s.view(path), body[4:])
        yield s.outcome(edit["command"], summary, bypass="the rest of the key shows after an edit" if shows else None)


def _other(char: str) -> str:
    return next(c for c in string.ascii_letters if c != char)


# oracle_hidden


def oracle_hidden(s: Session) -> Iterator[Outcome]:
    """Name a file ``view`` hides in every command: the answers must be those for a missing file."""
    hidden, token = f"/memories/{World.HIDDEN}", s.world.hidden_token
    if token in s.view(hidden):
        yield s.outcome("view", "view of the planted diary", skipped="the handler hides no planted file")
        return
    folder, name = World.HIDDEN.split("/")
    free, out = f"/memories/{folder}/none-{s.tag}.md", f"/memories/out-{s.tag}.md"
    spares = {hidden: f"/memories/spare-{s.tag}-1.md", free: f"/memories/spare-{s.tag}-2.md"}
    for spare in spares.values():
        s.call({"command": "create", "path": spare, "file_text": "spare\n"})
    guess = f"diary: {token[:6]}"
    templates: list[Callable[[str], dict[str, Any]]] = [
        lambda p: {"command": "str_replace", "path": p, "old_str": guess, "new_str": "x"},
        lambda p: {"command": "str_replace", "path": p, "old_str": "no such text", "new_str": "x"},
        lambda p: {"command": "insert", "path": p, "insert_line": 1, "insert_text": "x\n"},
        lambda p: {"command": "view", "path": p, "view_range": [1, 1]},
        lambda p: {"command": "create", "path": p, "file_text": "x\n"},
        lambda p: {"command": "rename", "old_path": spares[p], "new_path": p},
        lambda p: {"command": "rename", "old_path": p, "new_path": out},
        lambda p: {"command": "delete", "path": p},
    ]
    for template in templates:
        one, two = template(hidden), template(free)
        answers = [_alike(s.call(one), hidden, spares[hidden], guess), _alike(s.call(two), free, spares[free], guess)]
        summary = f"{one['command']} naming the hidden file, and naming a missing one beside it"
        why = None
        if token in s.view(out):
            why = "the hidden file's content shows after it was moved"
        elif answers[0] != answers[1]:
            why = f"the answers tell a hidden file from a missing one: {answers[0][1][:80]!r}"
        yield s.outcome(one["command"], summary, bypass=why)
    listings = s.view("/memories") + s.view(f"/memories/{folder}")
    moved = f"/memories/open-{s.tag}"
    renamed = s.ok({"command": "rename", "old_path": f"/memories/{folder}", "new_path": moved})
    shown = renamed and token in s.view(f"{moved}/{name}")
    summary = "listings, then a rename of the hidden file's folder and a view of it there"
    why = None
    if shown:
        why = "the hidden file's content shows after its folder was moved"
    elif name in listings:
        why = "a listing names the file view hides"
    yield s.outcome("rename", summary, bypass=why)


# ancestor_moves


def ancestor_moves(s: Session) -> Iterator[Outcome]:
    """Change a file the handler refuses to change, by moving or deleting what is around it."""
    path, token = f"/memories/{World.PROTECTED}", s.world.protected_token
    folder = f"/memories/{World.PROTECTED.split('/')[0]}"
    original = s.world.fixtures[World.PROTECTED].decode()
    if s.ok({"command": "str_replace", "path": path, "old_str": token, "new_str": token[::-1]}) or s.ok(
        {"command": "delete", "path": path}
    ):
        yield s.outcome(
            "str_replace", "a direct edit of the planted rules file", skipped="no planted file is read-only"
        )
        return
    spare, spare_folder = f"/memories/spare-{s.tag}.md", f"/memories/spare-{s.tag}"
    s.call({"command": "create", "path": spare, "file_text": "replacement\n"})
    s.call({"command": "create", "path": f"{spare_folder}/rules.md", "file_text": "replacement\n"})
    steps = [
        {"command": "rename", "old_path": folder, "new_path": f"/memories/moved-{s.tag}"},
        {"command": "delete", "path": folder},
        {"command": "rename", "old_path": path, "new_path": f"/memories/out-{s.tag}.md"},
        {"command": "rename", "old_path": spare, "new_path": path},
        {"command": "rename", "old_path": spare_folder, "new_path": folder},
        {"command": "rename", "old_path": "/memories", "new_path": f"/memories/inner-{s.tag}"},
    ]
    for step in steps:
        s.call(step)
        intact = _intact_on_disk(s, original) if s.on_disk else f"rules: {token}" in s.view(path)
        summary = f"{step['command']} of {next(v for k, v in step.items() if k != 'command')} around a read-only file"
        yield s.outcome(step["command"], summary, bypass=None if intact else "the read-only file changed or went away")
        if not intact:
            return


def _intact_on_disk(s: Session, original: str) -> bool:
    try:
        return (s.world.root / World.PROTECTED).read_text(encoding="utf-8") == original
    except (OSError, UnicodeDecodeError):
        return False


# twin_names


def twin_names(s: Session) -> Iterator[Outcome]:
    """Give a second file the name of the first in another case or in look-alike letters."""
    base = f"/memories/twins-{s.tag}"
    s.call({"command": "create", "path": f"{base}/Notes.md", "file_text": "first\n"})
    twins = {
        "notes.md": "a case twin",
        "N\u043etes.md": "a look-alike twin (Cyrillic o)",
        "\uff2eotes.md": "a look-alike twin (full-width N)",
    }
    for name, what in twins.items():
        taken = s.ok({"command": "create", "path": f"{base}/{name}", "file_text": "second\n"})
        why = f"{what} of an existing name accepted"
        yield s.outcome("create", f"create {what} of Notes.md", unguarded=why if taken else None)
    s.call({"command": "create", "path": f"{base}/other.md", "file_text": "other\n"})
    taken = s.ok({"command": "rename", "old_path": f"{base}/other.md", "new_path": f"{base}/NOTES.md"})
    why = "a rename onto a case twin accepted"
    yield s.outcome("rename", "rename onto a case twin", unguarded=why if taken else None)
    s.call({"command": "delete", "path": base})


FAMILY_RUNNERS: Final[dict[str, Callable[[Session], Iterator[Outcome]]]] = {
    "nested_renames": nested_renames,
    "folder_flood": folder_flood,
    "oracle_redacted": oracle_redacted,
    "oracle_hidden": oracle_hidden,
    "ancestor_moves": ancestor_moves,
    "twin_names": twin_names,
}
#: In the order they run (``sandbox.attack.SEQUENCES``, which the command line checks, is held equal by a test).
SEQUENCE_FAMILIES: Final = tuple(FAMILY_RUNNERS)


def run_family(name: str, world: World, send: Call, *, on_disk: bool) -> Iterator[Outcome]:
    """The outcomes of one multi-call family against the handler ``send`` reaches."""
    session = Session(world, send, on_disk)
    yield from FAMILY_RUNNERS[name](session)
    if on_disk:
        changes = [finding.detail for finding in world.tree_changes() if finding.kind == "escape"]
        if changes:
            yield Outcome("sequence", f"the tree after {session.calls} calls", {"escape": "; ".join(changes)})
