"""Versions: what every change replaced, kept with its provenance, so a poisoned session can be undone.

Before a write session changes a path, the runner shelves a :class:`Version` of it: the
content the path held (or that nothing did), which call changed it (the decision id that
links it to the audit chain, the session, principal and caller), and the digest the chain
recorded for the new content. A store that keeps history (:class:`Shelf`) stores versions in
the same session as the change, where the model can never address them (a reserved file of
the folder store, a table of the database stores), so a version is as durable as the write
it precedes.

Versions are bounded by the policy's ``[history]`` section (:class:`Keeping`): each path keeps
its newest ``keep_versions``; versions older than ``keep_days`` go; ``max_bytes`` bounds them
all. One version is never dropped for room: the first version each session made of a path
while that session is younger than ``keep_days``, which holds the state from before the
session (what a rollback restores). When only such versions are left and the budget is
spent, the write is refused (:class:`HistoryFull`): history is never lost to a flood.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Final, Literal, Protocol, cast, runtime_checkable

from sandbox.decision import CallContext
from sandbox.errors import Denied, OperationFailed
from sandbox.paths import ROOT, MemoryPath

if TYPE_CHECKING:
    from sandbox.storage.base import Tree, Writer

__all__ = [
    "OVERHEAD",
    "Change",
    "HistoryFull",
    "Horizon",
    "Keeping",
    "Origin",
    "Scrub",
    "Shelf",
    "Version",
    "admit",
    "as_shelf",
    "decode_meta",
    "encode_meta",
    "held",
    "lineage",
    "redacted",
    "redundant",
    "scrubbed",
    "version_path",
    "versions_before_move",
    "versions_before_put",
    "versions_before_remove",
]

Change = Literal["create", "edit", "delete", "rename"]
Caller = Literal["model", "code_execution", "rollback", "operator"]
#: Bytes a version counts against the budget besides its content (its record).
OVERHEAD: Final = 256
_DAY: Final = 86_400.0


class HistoryFull(Denied):
    """Keeping the version a change needs would spend the history budget on versions that must stay."""

    code = "history_full"

    def __init__(self) -> None:
        super().__init__(
            "Error: Access denied: the memory's history of changes is full, so this change could not be"
            " undone later; it was not made. An operator can review the history, roll back and drop versions.",
            rule_id="history.max_bytes",
        )


@dataclass(frozen=True, slots=True)
class Origin:
    """Who made a change: the decision that carried it and the call's context."""

    decision_id: str
    time: float
    context: CallContext = field(default_factory=CallContext)
    #: The digest of the written content as the audit chain recorded it (None for deletes and moves).
    content_digest: str | None = None
    caller: Caller = "model"


@dataclass(frozen=True, slots=True)
class Version:
    """One path as it stood before one change, and who changed it. ``seq`` is given by the store."""

    change: Change
    path: str
    time: float
    decision_id: str
    #: Whether anything was at ``path`` before the change (False for a create).
    existed: bool = True
    is_dir: bool = False
    #: The file's content before the change (None: a folder, nothing there, or erased by redaction);
    #: of a write held for review (``quarantined``), the content it would have written.
    content: bytes | None = None
    #: Where a rename moved ``path`` to.
    new_path: str | None = None
    #: Folders the change made (missing parents of a created or moved path), shallowest first.
    made: tuple[str, ...] = ()
    scope: str | None = None
    principal: str | None = None
    session: str | None = None
    caller: Caller = "model"
    #: The digest of the new content as the audit chain recorded it.
    content_digest: str | None = None
    redacted: bool = False
    quarantined: bool = False
    #: Of a held edit: sha256 of the file as it was when the write was held (a release of it
    #: checks the file is still that one; the model can read that file, so the digest tells nothing).
    base: str | None = None
    seq: int = 0
    #: The content's length when it was read without its content (``shelved(content=False)``).
    length: int | None = None

    @property
    def size(self) -> int:
        """What the version counts against the history budget."""
        if self.length is not None:
            return OVERHEAD + self.length
        return OVERHEAD + (len(self.content) if self.content is not None else 0)

    def touches(self, path: str) -> bool:
        """Whether this change touched ``path``, something below it, or a folder above it."""
        return any(_overlap(mine, path) for mine in (self.path, self.new_path) if mine is not None)


def lineage(path: str) -> tuple[str, ...]:
    """``path`` and every folder above it below ``/memories``: ``/memories/a``, ``/memories/a/b``, ..."""
    parts = path.split("/")[2:]
    return tuple("/memories/" + "/".join(parts[:depth]) for depth in range(1, len(parts) + 1))


def version_path(text: str) -> MemoryPath:
    """The path a version names, name for name as the store listed it (never decoded again: a
    name another tool wrote, such as ``x%2Fy.md``, is restored under the same name)."""
    head, _, rest = text.partition("/memories/")
    names = tuple(rest.split("/")) if rest else ()
    if head or not names or any(name in ("", ".", "..") for name in names):
        raise OperationFailed("Error: A version names a path that cannot be restored.")
    return ROOT.below(names)


def _overlap(a: str, b: str) -> bool:
    return a == b or a.startswith(b + "/") or b.startswith(a + "/")


@runtime_checkable
class Shelf(Protocol):
    """A write session that keeps versions in the same transaction (or under the same lock) as the change."""

    def shelve(self, versions: Sequence[Version]) -> list[Version]:
        """Store versions (giving each the next ``seq``) before the change they precede; return them stored."""
        ...

    def shelved(self, path: str | None = None, *, content: bool = True) -> list[Version]:
        """Every version kept, oldest first; with ``path``, the versions whose path or new path is
        ``path`` or a folder above it (every change that moved or wrote what stands at ``path``).
        Without ``content``, versions carry their content's length only (cheap, for eviction)."""
        ...

    def unshelve(self, seqs: Collection[int], horizon: Horizon | None = None) -> None:
        """Drop versions, and record how far back history is now incomplete (:class:`Horizon`)."""
        ...

    def horizon(self) -> Horizon:
        """How far back history is complete (see :class:`Horizon`)."""
        ...

    def reshelve(self, version: Version) -> None:
        """Replace the kept version of the same ``seq`` (a redaction, a release from quarantine)."""
        ...

    def shelf_bytes(self) -> int:
        """What the kept versions count against the budget (:attr:`Version.size` summed)."""
        ...

    def make_folder(self, path: MemoryPath) -> None:
        """Make a folder (and its missing parents); nothing happens when it exists."""
        ...


def as_shelf(writer: object) -> Shelf | None:
    """``writer`` as a :class:`Shelf` when its store keeps versions (a plain look-up: a runtime
    protocol check on every write costs more than the version it decides on)."""
    return cast("Shelf", writer) if callable(getattr(writer, "shelve", None)) else None


@dataclass(frozen=True, slots=True)
class Horizon:
    """The newest time of a dropped version (0.0: none dropped): before it, history has gaps.

    ``every`` counts every dropped version (so ``rollback --since T`` is exact only when T is
    after it); ``sessions`` counts only versions a session's rollback needed (dropped for age:
    versions an undo of their session overwrites anyway are dropped without moving it).
    """

    every: float = 0.0
    sessions: float = 0.0

    def moved(self, dropped: Iterable[Version], redundant: Collection[int]) -> Horizon:
        every, sessions = self.every, self.sessions
        for version in dropped:
            if version.quarantined:
                continue  # held, never applied: no undo needed it
            every = max(every, version.time)
            if version.seq not in redundant:
                sessions = max(sessions, version.time)
        return Horizon(every, sessions)


@dataclass(frozen=True, slots=True)
class Keeping:
    """How many versions stay: per path, by age, and in bytes (the ``[history]`` section)."""

    keep_versions: int = 20
    keep_days: float = 30.0
    max_bytes: int = 64 * 1024 * 1024

    def droppable(self, versions: Sequence[Version], now: float) -> tuple[list[Version], set[int]]:
        """The versions that may go, oldest first, and which of them a session's undo never needs.

        A version may go when it is older than ``keep_days``, or when an undo of its session
        overwrites what it restores anyway (:func:`redundant`). Every other version is the only
        record of a state some recent session's rollback must restore: it stays.
        """
        old = now - self.keep_days * _DAY
        spare = redundant(versions)
        return [version for version in versions if version.time < old or version.seq in spare], spare


def redundant(versions: Sequence[Version]) -> set[int]:
    """The file versions whose undo a rollback of their session overwrites anyway (and writes held for
    review, which changed nothing).

    Undone newest first, a change of file ``P`` by session S puts back what ``P`` was before it; the
    session's first version of ``P``, undone last, writes ``P``'s content (an edit or delete) or
    removes ``P`` (a create) whatever is there. So every later version of ``P`` by S is spare, unless a
    rename by S touched ``P`` (or a folder above it) in between: a move undone brings other content
    to (or takes it from) ``P``, and the undos after it need the versions before it. A session that
    creates and deletes its own files keeps only what the store held before it.
    """
    restoring: dict[tuple[str | None, str], int] = {}
    spare: set[int] = set()
    for version in sorted(versions, key=_seq):
        if version.quarantined:
            spare.add(version.seq)  # a write held for review changed nothing: no undo needs it
            continue
        if version.change == "rename":
            for key in [key for key in restoring if key[0] == version.session and version.touches(key[1])]:
                del restoring[key]
            continue
        if version.is_dir:
            continue  # a folder made or removed: its undo moves no content
        key = (version.session, version.path)
        if key in restoring:
            spare.add(version.seq)
        else:
            restoring[key] = version.seq
    return spare


def _seq(version: Version) -> int:
    return version.seq


def admit(
    shelf: Shelf, versions: Sequence[Version], keeping: Keeping, now: float, *, enforce: bool = True
) -> list[Version]:
    """Shelve ``versions`` and drop what ``keeping`` lets go (:meth:`Keeping.droppable`).

    HistoryFull, before anything is kept or dropped, when the budget cannot hold the new versions
    beside those that must stay; unless not ``enforce`` (a rollback's own versions: an undo is never
    refused for room, and keeps about what it undoes).
    """
    total = shelf.shelf_bytes() + sum(version.size for version in versions)
    dropped: dict[int, Version] = {}
    spare: set[int] = set()
    if total > keeping.max_bytes:
        candidates, spare = keeping.droppable(shelf.shelved(content=False), now)
        for version in candidates:  # oldest first
            if total <= keeping.max_bytes:
                break
            dropped[version.seq] = version
            total -= version.size
        if total > keeping.max_bytes and enforce:
            raise HistoryFull()
    stored = shelf.shelve(versions)
    old = now - keeping.keep_days * _DAY
    for path in {version.path for version in stored}:
        touching = shelf.shelved(path, content=False)
        own = [version for version in touching if version.path == path and version.seq not in dropped]
        candidates, path_spare = keeping.droppable(touching, now)
        spare |= path_spare
        excess = len(own) - keeping.keep_versions
        for version in candidates:
            if version.path != path or version.seq in dropped:
                continue
            if excess > 0 or version.time < old:
                dropped[version.seq] = version
                excess -= 1
    if dropped:
        shelf.unshelve(dropped, shelf.horizon().moved(dropped.values(), spare))
    return stored


def _version(change: Change, path: MemoryPath, origin: Origin, **fields: Any) -> Version:
    context = origin.context
    return Version(
        change=change,
        path=str(path),
        time=origin.time,
        decision_id=origin.decision_id,
        scope=context.scope,
        principal=context.principal,
        session=context.session_id,
        caller=origin.caller,
        content_digest=origin.content_digest,
        **fields,
    )


def versions_before_put(
    path: MemoryPath, origin: Origin, *, before: bytes | None, made: Sequence[MemoryPath] = ()
) -> list[Version]:
    """The version a write of ``path`` replaces: ``before`` is its content (None: a new file)."""
    if before is None:
        return [_version("create", path, origin, existed=False, made=tuple(map(str, made)))]
    return [_version("edit", path, origin, content=before)]


#: A version's content on its way to the history: the policy's secret redaction (content, its path).
Scrub = Callable[[bytes, MemoryPath], bytes]


def scrubbed(version: Version, scrub: Scrub) -> Version:
    """``version`` with its content through ``scrub`` (a version keeps no secret the policy redacts)."""
    if version.content is None:
        return version
    return replace(version, content=scrub(version.content, version_path(version.path)))


def held(path: MemoryPath, origin: Origin, content: bytes, *, base: bytes | None) -> Version:
    """A write held for review (quarantined): the content it would have written, not applied;
    ``base`` is the file it would have replaced (None: a create)."""
    change: Change = "edit" if base is not None else "create"
    digest = hashlib.sha256(base).hexdigest() if base is not None else None
    return _version(change, path, origin, existed=base is not None, content=content, quarantined=True, base=digest)


def versions_before_remove(reader: Writer, path: MemoryPath, tree: Tree, origin: Origin) -> list[Version]:
    """A version of everything a delete removes: the folders and every file's content, top first."""
    kept: list[Version] = []
    for node in tree.nodes:
        below = path.below(node.parts)
        if node.is_dir:
            kept.append(_version("delete", below, origin, is_dir=True))
        else:
            kept.append(_version("delete", below, origin, content=reader.read(below)))
    return kept


def versions_before_move(
    old: MemoryPath, new: MemoryPath, origin: Origin, *, is_dir: bool, made: Sequence[MemoryPath] = ()
) -> list[Version]:
    """The version of a rename: where it went (a move keeps content, so none is copied)."""
    return [_version("rename", old, origin, is_dir=is_dir, new_path=str(new), made=tuple(map(str, made)))]


# records, as the stores keep them

_META_FIELDS: Final = (
    "change",
    "path",
    "time",
    "decision_id",
    "existed",
    "is_dir",
    "new_path",
    "made",
    "scope",
    "principal",
    "session",
    "caller",
    "content_digest",
    "redacted",
    "quarantined",
    "base",
    "seq",
)


def encode_meta(version: Version) -> str:
    """A version's record without its content, as one line of JSON."""
    return json.dumps({name: getattr(version, name) for name in _META_FIELDS}, separators=(",", ":"))


def decode_meta(text: str | bytes, content: bytes | None) -> Version:
    """A version from :func:`encode_meta`'s record and its content."""
    fields = json.loads(text)
    fields["made"] = tuple(fields.get("made") or ())
    return Version(content=content, **{name: fields[name] for name in _META_FIELDS if name in fields})


def redacted(version: Version) -> Version:
    return replace(version, content=None, redacted=True)
