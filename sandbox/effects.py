"""Effects: what a command would change and reveal, resolved against the store before anything happens.

:func:`plan` reads the state a command acts on (in the same storage session that
will apply it) and returns an :class:`Effect`: the entry at the path, the text
the caller would see, the new content of a written file, the tree a delete
removes or a rename moves, the folders a write makes, an existing sibling the
new name would twin, and the usage before. Policy stages judge the effect, not
the request: a moved folder brings its whole subtree, a deleted one everything
in it.

A plan never raises for the command's own failure ("does not exist", "did not
appear verbatim"): it records it in :attr:`Effect.failure`, raised only after
every stage has judged the call, so that no denial depends on whether a match
was found. Edits match on the text the caller may see (:class:`Lens`), never on
what it may not: a guess at a redacted secret or a hidden file answers exactly
as a wrong guess.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Final, Literal, Protocol

from sandbox.commands import Create, Delete, Insert, Operation, Rename, StrReplace, View, written_text
from sandbox.decision import CallContext, Note
from sandbox.errors import FileTooLarge, NotADirectory, NotAFile, NotFound, OperationFailed, PathDenied
from sandbox.names import case_key, look_alike, lookalike_key
from sandbox.paths import MemoryPath
from sandbox.storage.base import Entry, Reader, Tree, Usage
from sandbox.views import quote_for_error, split_lines

__all__ = ["NO_CHANGE", "Effect", "Lens", "PlainLens", "Twin", "decode", "missing_folders", "plan"]

NO_CHANGE: Final = Usage(0, 0, 0)
_MAX_LISTED_LINES: Final = 20


class Lens(Protocol):
    """What the caller may see: secrets redacted from stored text, and paths hidden from it."""

    def reveal(self, text: str, path: MemoryPath) -> tuple[str, tuple[Note, ...]]:
        """Stored text as the caller may see it, and what was redacted."""
        ...

    def shows(self, path: MemoryPath) -> bool:
        """Whether the caller may see that ``path`` exists (hidden files are not listed and cannot be edited)."""
        ...


class PlainLens:
    """Everything shown as stored."""

    def __repr__(self) -> str:
        return "PlainLens()"

    def reveal(self, text: str, path: MemoryPath) -> tuple[str, tuple[Note, ...]]:
        return text, ()

    def shows(self, path: MemoryPath) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class Twin:
    """An existing sibling whose name folds to the same key as a name the call makes."""

    path: MemoryPath
    existing: str
    kind: Literal["case", "lookalike"]


@dataclass(frozen=True, slots=True)
class Effect:
    """A command resolved against the store: what it reads, writes, removes, moves and makes."""

    op: Operation
    context: CallContext
    #: What the store held before the call (writes only; a view reads no usage).
    usage: Usage = NO_CHANGE
    notes: tuple[Note, ...] = ()
    #: The command's own answer when it cannot be done; raised after every stage has judged.
    failure: OperationFailed | None = None
    #: What is at the command's (source) path before the call.
    entry: Entry | None = None
    #: ``view`` of a file: the text the caller may see.
    text: str | None = None
    #: An edited file's content as stored (what its version keeps).
    stored: bytes | None = None
    #: A written file's new content is ``prefix + written + suffix``; ``written`` is what the call adds.
    prefix: str = ""
    written: str | None = None
    suffix: str = ""
    #: ``str_replace``: the first line the change touches, for the snippet.
    changed_line: int = 0
    #: ``delete`` / ``rename``: everything that goes or moves.
    tree: Tree | None = None
    #: Folders the call makes (missing parents of a created or moved path), shallowest first.
    new_folders: tuple[MemoryPath, ...] = ()
    twin: Twin | None = None
    #: Rules whose findings the reply to the model names (text flagged as planted instructions).
    flags: tuple[str, ...] = ()
    #: Rules that hold the write for review: kept as a quarantined version, the file left as it is.
    quarantine: tuple[str, ...] = ()

    def with_note(self, rule_id: str, reason: str) -> Effect:
        return replace(self, notes=(*self.notes, Note(rule_id, reason)))

    @property
    def content(self) -> str | None:
        """The whole new content of the file the call writes (a create's even when it fails: it is all request)."""
        if self.written is None or (self.failure is not None and not isinstance(self.op, Create)):
            return None
        return self.prefix + self.written + self.suffix

    @property
    def delta(self) -> Usage:
        """How the store's usage changes if the call goes ahead."""
        if self.failure is not None:
            return NO_CHANGE
        op, folders = self.op, len(self.new_folders)
        if isinstance(op, Create | StrReplace | Insert):
            size = len((self.content or "").encode("utf-8"))
            before = self.entry.size if self.entry is not None and not isinstance(op, Create) else 0
            return Usage(size - before, int(isinstance(op, Create)), folders)
        if isinstance(op, Delete) and self.tree is not None:
            gone = self.tree.usage
            return Usage(-gone.bytes, -gone.files, -gone.folders)
        return Usage(0, 0, folders)

    def moved(self) -> Iterator[tuple[str, str | None]]:
        """Each path a delete removes or a rename moves, with its new path (None when removed)."""
        op, tree = self.op, self.tree
        if tree is None or self.failure is not None:
            return
        source = op.old_path if isinstance(op, Rename) else op.path
        target = op.new_path if isinstance(op, Rename) else None
        for node in tree.nodes:
            below = "".join("/" + part for part in node.parts)
            yield f"{source}{below}", (f"{target}{below}" if target is not None else None)


def decode(content: bytes, path: MemoryPath) -> str:
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError:
        raise OperationFailed(f"Error: The file {path} is not UTF-8 text and cannot be shown or edited") from None


def plan(
    op: Operation, reader: Reader, lens: Lens, context: CallContext, *, max_read_bytes: int | None = None
) -> Effect:
    """Resolve ``op`` against the state ``reader`` sees; a view or edit reads no file over ``max_read_bytes``."""
    effect = Effect(op, context, usage=NO_CHANGE if isinstance(op, View) else reader.usage(), written=_written(op))
    try:
        if isinstance(op, View):
            return _view(effect, op, reader, lens, max_read_bytes)
        if isinstance(op, Create):
            return _create(effect, op, reader, lens)
        if isinstance(op, StrReplace):
            return _str_replace(effect, op, reader, lens, max_read_bytes)
        if isinstance(op, Insert):
            return _insert(effect, op, reader, lens, max_read_bytes)
        if isinstance(op, Delete):
            return _delete(effect, op, reader, lens)
        return _rename(effect, op, reader, lens)
    except OperationFailed as failure:
        return replace(effect, failure=failure)


def _written(op: Operation) -> str | None:
    """The text a command adds, as it will stand in the file (an inserted line ends in one newline)."""
    if isinstance(op, Insert):
        return op.insert_text.rstrip("\n") + "\n"
    return written_text(op)


def _missing_view(path: MemoryPath) -> OperationFailed:
    return OperationFailed(f"The path {path} does not exist. Please provide a valid path.")


def _visible(reader: Reader, lens: Lens, path: MemoryPath, missing: OperationFailed) -> Entry:
    """The entry at ``path`` if it exists and the caller may see it, else ``missing``."""
    try:
        entry = reader.stat(path)
    except NotADirectory as exc:
        raise OperationFailed(exc.message) from None
    if entry is None or not lens.shows(path):
        raise missing
    return entry


def _view(effect: Effect, op: View, reader: Reader, lens: Lens, max_bytes: int | None) -> Effect:
    if op.path.is_root or op.path.suffix in (".png", ".jpg", ".jpeg"):
        entry = _visible(reader, lens, op.path, _missing_view(op.path))
        return replace(effect, entry=entry)  # listed or sent as an image when applied
    try:
        entry, data = _file(reader, lens, op.path, _missing_view(op.path), max_bytes)
    except NotAFile:
        # One read for the common case (a file); a folder is listed instead.
        return replace(effect, entry=_visible(reader, lens, op.path, _missing_view(op.path)))
    text, notes = lens.reveal(decode(data, op.path), op.path)
    return replace(effect, entry=entry, text=text, notes=(*effect.notes, *notes))


def _file(
    reader: Reader, lens: Lens, path: MemoryPath, missing: OperationFailed, max_bytes: int | None = None
) -> tuple[Entry, bytes]:
    """The entry and content of a file the caller may see (NotAFile for a folder), else ``missing``;
    FileTooLarge past ``max_bytes`` (read no further where the adapter can tell first)."""
    if not lens.shows(path):
        raise missing
    try:
        data = _read(reader, path, max_bytes)
    except NotFound:
        raise missing from None
    except NotADirectory as exc:
        raise OperationFailed(exc.message) from None
    return Entry(path.name, is_dir=False, size=len(data)), data


def _read(reader: Reader, path: MemoryPath, max_bytes: int | None) -> bytes:
    if max_bytes is None:
        return reader.read(path)
    bounded = getattr(reader, "read_at_most", None)  # adapters that can tell the size before reading
    data: bytes = bounded(path, max_bytes) if callable(bounded) else reader.read(path)
    if len(data) > max_bytes:
        raise FileTooLarge(path, len(data), max_bytes)
    return data


def _edited(effect: Effect, path: MemoryPath, reader: Reader, lens: Lens, max_bytes: int | None) -> tuple[Effect, str]:
    """The entry and the visible text of a file to edit (none over ``max_bytes`` is read)."""
    try:
        entry, data = _file(reader, lens, path, _missing_view(path), max_bytes)
    except NotAFile:
        raise OperationFailed(f"Error: The path {path} is a folder, not a file") from None
    text, notes = lens.reveal(decode(data, path), path)
    return replace(effect, entry=entry, stored=data, notes=(*effect.notes, *notes)), text


def _str_replace(effect: Effect, op: StrReplace, reader: Reader, lens: Lens, max_bytes: int | None) -> Effect:
    effect, text = _edited(effect, op.path, reader, lens, max_bytes)
    first = text.find(op.old_str)
    if first < 0:
        raise OperationFailed(
            f"No replacement was performed, old_str `{quote_for_error(op.old_str)}` "
            f"did not appear verbatim in {op.path}."
        )
    if text.find(op.old_str, first + 1) >= 0:
        raise OperationFailed(
            f"No replacement was performed. Multiple occurrences of old_str `{quote_for_error(op.old_str)}` "
            f"in lines: {_occurrence_lines(text, op.old_str)}. Please ensure it is unique"
        )
    return replace(
        effect,
        prefix=text[:first],
        suffix=text[first + len(op.old_str) :],
        changed_line=text.count("\n", 0, first) + 1,
    )


def _insert(effect: Effect, op: Insert, reader: Reader, lens: Lens, max_bytes: int | None) -> Effect:
    effect, text = _edited(effect, op.path, reader, lens, max_bytes)
    lines = split_lines(text)
    if not 0 <= op.insert_line <= len(lines):
        raise OperationFailed(
            f"Error: Invalid `insert_line` parameter: {op.insert_line}. It should be within the range "
            f"of lines of the file: [0, {len(lines)}]"
        )
    head, tail = lines[: op.insert_line], lines[op.insert_line :]
    return replace(effect, prefix="".join(f"{line}\n" for line in head), suffix="".join(f"{line}\n" for line in tail))


def _create(effect: Effect, op: Create, reader: Reader, lens: Lens) -> Effect:
    folders = _destination(reader, op.path, OperationFailed(f"Error: File {op.path} already exists"))
    top = folders[0] if folders else op.path
    return replace(effect, new_folders=folders, twin=_twin(reader, lens, top, leaving=None))


def _destination(reader: Reader, path: MemoryPath, exists: OperationFailed) -> tuple[MemoryPath, ...]:
    """The folders a new ``path`` needs made (``exists`` when something is at it already): a few
    lookups, whatever the size of its folder. The path is looked up first: a SQL store reads the
    folders above it in the same statement."""
    try:
        taken = reader.stat(path) is not None
    except NotADirectory as exc:
        raise OperationFailed(exc.message) from None
    if taken:
        raise exists
    return missing_folders(reader, path.parent)


def _delete(effect: Effect, op: Delete, reader: Reader, lens: Lens) -> Effect:
    missing = OperationFailed(f"Error: The path {op.path} does not exist")
    if op.path.is_root or not lens.shows(op.path):
        raise missing
    try:
        tree = reader.tree(op.path)
    except NotFound:
        raise missing from None
    except NotADirectory as exc:
        raise OperationFailed(exc.message) from None
    top = tree.nodes[0]
    return replace(effect, entry=Entry(op.path.name, top.is_dir, top.size), tree=tree)


def _rename(effect: Effect, op: Rename, reader: Reader, lens: Lens) -> Effect:
    if op.old_path.is_root:
        raise OperationFailed(f"Error: The path {op.old_path} does not exist")
    entry = _visible(reader, lens, op.old_path, OperationFailed(f"Error: The path {op.old_path} does not exist"))
    exists = OperationFailed(f"Error: The destination {op.new_path} already exists")
    if op.new_path.is_root or op.new_path.is_relative_to(op.old_path):
        raise exists
    folders = _destination(reader, op.new_path, exists)
    top = folders[0] if folders else op.new_path
    leaving = op.old_path.name if top.parent == op.old_path.parent else None
    return replace(
        effect,
        entry=entry,
        tree=reader.tree(op.old_path),
        new_folders=folders,
        twin=_twin(reader, lens, top, leaving=leaving),
    )


def missing_folders(reader: Reader, folder: MemoryPath) -> tuple[MemoryPath, ...]:
    """The folders from ``folder`` up that do not exist yet, shallowest first (a file on the way fails)."""
    missing: list[MemoryPath] = []
    while not folder.is_root:
        try:
            entry = reader.stat(folder)
        except NotADirectory as exc:
            raise OperationFailed(exc.message) from None
        if entry is not None:
            if not entry.is_dir:
                raise OperationFailed(NotADirectory(folder).message)
            break
        missing.append(folder)
        folder = folder.parent
    return tuple(reversed(missing))


def _twin(reader: Reader, lens: Lens, path: MemoryPath, *, leaving: str | None) -> Twin | None:
    """An existing sibling of ``path`` (other than ``leaving``), that the caller may see, whose name
    folds like its name (a refusal naming a hidden sibling would reveal it).

    Names that fold alike by case look alike too, so the siblings under the
    name's look-alike key are all the candidates: an adapter that indexes its
    names by that key (``alike``) answers without listing the folder.
    """
    if path.is_root:
        return None
    key = lookalike_key(path.name)
    indexed = getattr(reader, "alike", None)
    if callable(indexed):
        candidates: list[str] = indexed(path.parent, key)
    else:
        candidates = [name for name in reader.names(path.parent) if lookalike_key(name) == key]
    folded = case_key(path.name)
    lookalike: Twin | None = None
    for name in sorted(candidates):
        if name in (path.name, leaving) or not _shown(lens, path.parent, name):
            continue
        if case_key(name) == folded:
            return Twin(path, name, "case")
        if lookalike is None and look_alike(path.name, name):
            lookalike = Twin(path, name, "lookalike")
    return lookalike


def _shown(lens: Lens, folder: MemoryPath, name: str) -> bool:
    """Whether the caller may see the entry ``name`` in ``folder`` (a name no path can spell is not hidden by rules)."""
    try:
        return lens.shows(folder.child(name))
    except PathDenied:
        return True


def _occurrence_lines(text: str, needle: str) -> str:
    found: list[str] = []
    position = text.find(needle)
    while position >= 0 and len(found) < _MAX_LISTED_LINES:
        found.append(str(text.count("\n", 0, position) + 1))
        position = text.find(needle, position + 1)
    return ", ".join(found) + (", ..." if position >= 0 else "")
