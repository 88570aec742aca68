"""The six memory commands, written once over any :class:`StorageAdapter`.

A call runs in one storage session (:meth:`Store.transaction`): the command is
planned against the state it reads (:func:`~sandbox.effects.plan`), judged by the
caller's policy stages, then applied exactly as planned, so nothing moves between
the judgment and the change. The store carries out plans and renders answers; it
decides nothing. Output and error texts are the memory tool's reference strings
(DESIGN.md section 4), so the model sees what it was trained on whatever the
adapter. Paths echoed back are canonical ``/memories/...`` forms, never host paths.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

import anyio.to_thread

from sandbox.commands import Content, Create, Delete, Insert, Operation, Rename, Reply, StrReplace, View
from sandbox.decision import CallContext
from sandbox.effects import Effect, Lens, PlainLens, plan
from sandbox.errors import AlreadyExists, InjectionRejected, NotADirectory, NotFound, OperationFailed
from sandbox.history import (
    Keeping,
    Origin,
    Scrub,
    Shelf,
    Version,
    admit,
    as_shelf,
    held,
    scrubbed,
    versions_before_move,
    versions_before_put,
    versions_before_remove,
)
from sandbox.paths import MemoryPath, is_canonical_name
from sandbox.provenance import (
    TooLarge,
    foreign_lines,
    line_authors,
    provenance_note,
    unknown_lines,
)
from sandbox.storage.base import DIR_SIZE, Reader, StorageAdapter, Writer
from sandbox.views import (
    MAX_LINES,
    count_lines,
    human_size,
    numbered,
    split_lines,
    truncate_view,
    view_window,
)

__all__ = ["IMAGE_TYPES", "Store", "Transaction"]

IMAGE_TYPES: Final = {".png": ("image/png", b"\x89PNG\r\n\x1a\n"), ".jpg": ("image/jpeg", b"\xff\xd8\xff")}
IMAGE_TYPES[".jpeg"] = IMAGE_TYPES[".jpg"]
_EXCLUDED: Final = frozenset({"node_modules"})
_SNIPPET_CONTEXT: Final = 3
_DEFAULT_VIEW_CHARS: Final = 16_000


class Store:
    """Runs canonical operations on a storage adapter and renders the results.

    ``lens`` says what the caller may see (redactions, hidden paths); ``max_view_chars``
    is where view output is cut, with a hint to use ``view_range``.
    """

    def __init__(
        self,
        storage: StorageAdapter,
        *,
        lens: Lens | None = None,
        max_view_chars: int = _DEFAULT_VIEW_CHARS,
        max_read_bytes: int | None = None,
        keeping: Keeping | None = None,
        scrub: Scrub | None = None,
        annotate_views: bool = False,
    ) -> None:
        self.storage = storage
        #: Whether a view notes the lines another principal's session wrote (sandbox.provenance).
        self.annotate_views = annotate_views
        #: What a version's content goes through before it is kept (the policy's secret redaction).
        self.scrub = scrub
        #: How many versions of what changes are kept (None: none, or a store that keeps no history).
        self.keeping = keeping
        self.lens: Lens = lens or PlainLens()
        self.max_view_chars = max_view_chars
        #: A view of a file larger than this (written by another tool) fails without reading it.
        self.max_read_bytes = max_read_bytes

    def __repr__(self) -> str:
        return f"Store({self.storage!r})"

    @contextmanager
    def transaction(self, op: Operation) -> Iterator[Transaction]:
        """One call's session: a write holds the store's write lock from plan to apply."""
        if isinstance(op, View):
            if not self.annotate_views:
                yield Transaction(self, self.storage, None)
                return
            with self.storage.writing() as session:  # the file and its versions as of one moment
                yield Transaction(self, session, None)
            return
        with self.storage.writing() as writer:
            yield Transaction(self, writer, writer)

    def run(self, op: Operation, context: CallContext | None = None) -> Reply:
        """Plan and apply ``op`` with no policy (tools and tests)."""
        with self.transaction(op) as transaction:
            return transaction.apply(transaction.plan(op, context or CallContext()))

    async def arun(self, op: Operation, context: CallContext | None = None) -> Reply:
        return await anyio.to_thread.run_sync(self.run, op, context)


class Transaction:
    """Plan, then apply, in one storage session."""

    __slots__ = ("_reader", "_store", "_writer")

    def __init__(self, store: Store, reader: Reader, writer: Writer | None) -> None:
        self._store, self._reader, self._writer = store, reader, writer

    def plan(self, op: Operation, context: CallContext) -> Effect:
        return plan(op, self._reader, self._store.lens, context, max_read_bytes=self._store.max_read_bytes)

    def apply(self, effect: Effect, origin: Origin | None = None) -> Reply:
        """Carry out a judged effect (raise its failure if it has one) and render the answer.

        With an ``origin`` and a store that keeps history, the version of what the call
        replaces is kept first, in the same session (HistoryFull refuses the call).
        """
        if effect.failure is not None:
            raise effect.failure
        op = effect.op
        if isinstance(op, View):
            return self._view(effect, op, origin)
        writer = self._writer
        if writer is None:
            raise TypeError("a write was planned outside a write session")
        keeping = self._store.keeping
        shelf = as_shelf(writer) if origin is not None and keeping is not None else None
        if effect.quarantine:
            # Held for an operator: kept as a version only. Where no version can be kept, refused.
            if shelf is None or origin is None or keeping is None:
                raise InjectionRejected(effect.quarantine[0].removeprefix("injection."))
            return self._hold(writer, shelf, effect, origin, keeping)
        if shelf is not None and origin is not None and keeping is not None:
            versions = _versions(writer, effect, origin)
            if self._store.scrub is not None:
                versions = [scrubbed(version, self._store.scrub) for version in versions]
            admit(shelf, versions, keeping, origin.time)
        with _reword(missing=f"The path {op.path if not isinstance(op, Rename) else op.old_path} does not exist"):
            if isinstance(op, Create):
                data = (effect.content or "").encode("utf-8")
                writer.put(op.path, data, new=True)
                return Reply(f"File created successfully at: {op.path}", sizes=(0, len(data)))
            if isinstance(op, StrReplace | Insert):
                return self._edit(writer, effect, op)
            if isinstance(op, Delete):
                writer.remove(op.path)
                return Reply(f"Successfully deleted {op.path}")
            writer.move(op.old_path, op.new_path)
            return Reply(f"Successfully renamed {op.old_path} to {op.new_path}")

    def _hold(self, writer: Writer, shelf: Shelf, effect: Effect, origin: Origin, keeping: Keeping) -> Reply:
        op = effect.op
        if not isinstance(op, Create | StrReplace | Insert):
            raise TypeError("only a write of content is held")
        data = (effect.content or "").encode("utf-8")
        base = (
            None if isinstance(op, Create) else (effect.stored if effect.stored is not None else writer.read(op.path))
        )
        admit(shelf, [held(op.path, origin, data, base=base)], keeping, origin.time)
        return Reply(
            f"The write to {op.path} is held for review: it may carry instructions aimed at an AI agent"
            f" ({', '.join(effect.quarantine)}). The file was not changed."
        )

    def _edit(self, writer: Writer, effect: Effect, op: StrReplace | Insert) -> Reply:
        text = effect.content or ""
        data = text.encode("utf-8")
        writer.put(op.path, data, new=False)
        sizes = (effect.entry.size if effect.entry is not None else 0, len(data))
        if isinstance(op, Insert):
            return Reply(f"The file {op.path} has been edited.", sizes=sizes)
        lines = split_lines(text)
        first = max(1, effect.changed_line - _SNIPPET_CONTEXT)
        last = min(len(lines), effect.changed_line + (effect.written or "").count("\n") + _SNIPPET_CONTEXT)
        snippet = truncate_view(numbered(lines[first - 1 : last], first), self._store.max_view_chars)
        return Reply(
            "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n" + snippet,
            sizes=sizes,
        )

    def _view(self, effect: Effect, op: View, origin: Origin | None = None) -> Reply:
        entry = effect.entry
        if entry is None:
            raise TypeError("a view was planned without finding its entry")
        if entry.is_dir:
            with _reword(missing=f"The path {op.path} does not exist. Please provide a valid path."):
                return Reply(self._list(op.path))
        if effect.text is None:
            return Reply(self._image(op.path))
        text, max_chars = effect.text, self._store.max_view_chars
        # Every line takes at least one byte: only a file that large can be over the limit.
        if entry.size > MAX_LINES and count_lines(text) > MAX_LINES:
            raise OperationFailed(f"File {op.path} exceeds maximum line limit of 999,999 lines.")
        first, end = op.view_range or (1, -1)
        lines = view_window(text, first, end, max_chars)
        if lines is None:
            raise OperationFailed(
                f"Error: Invalid `view_range`: {[first, end]}. Its first element `{first}` should be "
                f"within the range of lines of the file: [1, {count_lines(text)}]"
            )
        header = f"Here's the content of {op.path} with line numbers:\n"
        note = self._provenance(op.path, text, first, len(lines), origin)
        return Reply(truncate_view(header + numbered(lines, first), max(max_chars - len(note), max_chars // 2)) + note)

    def _provenance(self, path: MemoryPath, text: str, first: int, count: int, origin: Origin | None) -> str:
        """The note naming the shown lines another principal's session wrote, and those no record
        accounts for ("" when there are none, or when the policy does not ask for it)."""
        shelf = as_shelf(self._reader) if self._store.annotate_views and origin is not None else None
        if shelf is None or origin is None:
            return ""
        principal = origin.context.principal
        if principal is None:
            return ""
        try:
            authors = line_authors(self._history_of(shelf, path), str(path), text, horizon=shelf.horizon().every)
        except TooLarge:
            return provenance_note((), too_large=True)
        return provenance_note(
            foreign_lines(authors, principal, first, count), unknown_lines(authors, principal, first, count)
        )

    @staticmethod
    def _history_of(shelf: Shelf, path: MemoryPath) -> list[Version]:
        """The versions of the file at ``path`` and of wherever renames brought it from."""
        versions: dict[int, Version] = {}
        pending, seen = [str(path)], set()
        while pending:
            named = pending.pop()
            seen.add(named)
            for version in shelf.shelved(named):
                versions[version.seq] = version
                moved = version.new_path
                if moved is not None and (named == moved or named.startswith(moved + "/")):
                    source = version.path + named[len(moved) :]
                    if source not in seen:
                        pending.append(source)
        return list(versions.values())

    def _list(self, path: MemoryPath) -> str:
        max_chars = self._store.max_view_chars
        header = (
            f"Here're the files and directories up to 2 levels deep in {path}, excluding hidden items and node_modules:"
        )
        lines = [header, f"{human_size(DIR_SIZE)}\t{path}"]
        budget = max_chars - len(header) - len(lines[1]) - 200
        for line in self._walk(path, depth=1):
            budget -= len(line) + 1
            if budget < 0:
                lines.append(f"[Listing truncated at {max_chars:,} characters: view a subfolder to see more.]")
                break
            lines.append(line)
        return "\n".join(lines)

    def _walk(self, folder: MemoryPath, depth: int) -> Iterator[str]:
        # Sorted, depth-first, two levels, hidden items and node_modules left out;
        # lazy, so a caller that has enough output stops the scan. Names the model
        # could not address (written by other tools) and paths hidden from it are not listed.
        shows = self._store.lens.shows
        with self._reader.scan(folder) as entries:
            for entry in entries:
                if entry.name.startswith(".") or entry.name in _EXCLUDED or not is_canonical_name(entry.name):
                    continue
                path = folder.child(entry.name)
                if not shows(path):
                    continue
                if not entry.is_dir:
                    yield f"{human_size(entry.size)}\t{path}"
                    continue
                yield f"{human_size(entry.size)}\t{path}/"
                if depth < 2:
                    yield from self._walk(path, depth + 1)

    def _image(self, path: MemoryPath) -> Content:
        media_type, magic = IMAGE_TYPES[path.suffix]
        with _reword(missing=f"The path {path} does not exist. Please provide a valid path."):
            data = self._reader.read(path)
        if not data.startswith(magic):
            raise OperationFailed(f"Error: The file {path} is not a valid {media_type.split('/')[1].upper()} image")
        encoded = base64.b64encode(data).decode("ascii")
        return [{"type": "image", "source": {"type": "base64", "media_type": media_type, "data": encoded}}]


def _versions(writer: Writer, effect: Effect, origin: Origin) -> list[Version]:
    """The versions of what a judged write replaces."""
    op = effect.op
    if isinstance(op, Create):
        return versions_before_put(op.path, origin, before=None, made=effect.new_folders)
    if isinstance(op, StrReplace | Insert):
        before = effect.stored if effect.stored is not None else writer.read(op.path)
        return versions_before_put(op.path, origin, before=before)
    if isinstance(op, Delete):
        tree = effect.tree if effect.tree is not None else writer.tree(op.path)
        return versions_before_remove(writer, op.path, tree, origin)
    if isinstance(op, Rename):
        is_dir = effect.entry.is_dir if effect.entry is not None else False
        return versions_before_move(op.old_path, op.new_path, origin, is_dir=is_dir, made=effect.new_folders)
    return []


@contextmanager
def _reword(*, missing: str = "", exists: str = "") -> Iterator[None]:
    """Give an adapter's NotFound / AlreadyExists the reference text of the running command."""
    try:
        yield
    except NotFound as exc:
        raise OperationFailed(missing or exc.message) from None
    except AlreadyExists as exc:
        raise OperationFailed(exists or exc.message) from None
    except NotADirectory as exc:
        raise OperationFailed(exc.message) from None
