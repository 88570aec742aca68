"""``HandlerStorage``: an existing memory handler seen as a store, from its own answers.

Wrap mode puts the whole sandbox in front of a handler the user already has (a
``BetaAbstractMemoryTool``, the SDK's ``BetaLocalFilesystemMemoryTool``, any
object with ``call(dict)`` or a plain callable, sync or async). The handler is
read through its own ``view`` answers: listings give an index of names (built on
first use, two levels at a time), file views give content and exact sizes. Every
policy check then judges the call's effect against that index like any store:
quota (bytes, files, folders), file limits after an edit, depth of what a rename
moves, twins, access rules, redaction, no oracle.

Writes reach the handler as its own commands, with canonical paths only: a create
as ``create``, a move as ``rename``, a removal as ``delete``, and an edited file's
new content as one ``str_replace`` of the file's whole current content (so an edit
is a compare-and-swap: if the file changed meanwhile, the handler finds no match
and nothing is written). An empty file takes its first content by ``insert``.
A ``ToolError`` from the handler becomes a short error with host paths scrubbed.
"""

from __future__ import annotations

import base64
import inspect
import os
import re
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any, Final, cast

import anyio.from_thread
from anthropic.lib.tools import ToolError

from sandbox.errors import (
    AlreadyExists,
    HandlerError,
    NotADirectory,
    NotAFile,
    NotFound,
    PathDenied,
)
from sandbox.paths import ROOT, MemoryPath
from sandbox.storage.base import DIR_SIZE, Entry, Node, Tree, Usage, WriteShortcuts
from sandbox.storage.rate import FileRate, open_rate_file

__all__ = ["HandlerStorage", "UnreadableHandler", "handler_error", "scrub_host_paths"]

_LISTED = re.compile(r"([^\t\n]+)\t(/memories(?:/[^\t\n]*)?)")
_EXACT_SIZE = re.compile(r"(\d+)B")  # listings give sizes under 1 KiB in bytes
_NUMBERED = re.compile(r" *(\d+)\t(.*)", re.S)
_CONTENT_HEADER = re.compile(r"Here's the content of [^\n]* with line numbers:\n?")
_MAX_ERROR_CHARS: Final = 2000
_MAX_WINDOWS: Final = 10_000
# Absolute paths other than /memories/...: POSIX, Windows drive and UNC forms.
_HOST_PATH = re.compile(
    r"""(?<![\w/.~-])/(?!memories(?![^/\s'"`]))[^\s'"`,;)\]]+"""
    r"""|\b[A-Za-z]:[\\/][^\s'"`,;)\]]*"""
    r"""|\\\\[^\s'"`,;)\]]+"""
)


def scrub_host_paths(text: str) -> str:
    """Replace every absolute path outside ``/memories`` with ``[path]``."""
    return _HOST_PATH.sub("[path]", text)


class UnreadableHandler(HandlerError):
    """The handler's ``view`` answers cannot be read as listings or file views."""


class HandlerStorage(WriteShortcuts):
    """A memory handler as a storage adapter; one process's calls take turns on it."""

    def __init__(self, handler: object) -> None:
        function = getattr(handler, "call", handler)
        if not callable(function):
            raise TypeError("the handler must have a call(dict) method or be callable")
        self._handler = handler
        self._function: Callable[[dict[str, Any]], object] = function
        self.is_async = inspect.iscoroutinefunction(function)
        self._lock = threading.RLock()
        self._index: dict[tuple[str, ...], int | None] | None = None  # parts -> size, None for a folder
        self._rate: FileRate | None = None

    def __repr__(self) -> str:
        return f"HandlerStorage({type(self._handler).__name__})"

    @property
    def root_path(self) -> str | None:
        """The folder the handler keeps memory in, when it says (the SDK's handlers: ``memory_root``);
        a log "beside the store" goes beside it, outside what the model can reach."""
        root = getattr(self._handler, "memory_root", None)
        return None if root is None else os.fspath(root)

    def rate_counter(self) -> FileRate | None:
        """The call allowance, shared by every process wrapping a handler of the same folder: in
        ``<folder>.rate`` beside it (where its log goes), outside what the model can reach. None
        for a handler that names no folder (the buckets stay in this process)."""
        root = self.root_path
        if root is None:
            return None
        if self._rate is None:
            path = f"{os.path.realpath(root)}.rate"  # one folder, however it is spelled: one bucket
            self._rate = FileRate(lambda: open_rate_file(path))
        return self._rate

    # the handler's answers

    def _call(self, command: dict[str, Any]) -> str:
        result = self._answer(command)
        if not isinstance(result, str):
            raise UnreadableHandler("Error: The memory handler answered with something other than text.")
        return result

    def _answer(self, command: dict[str, Any]) -> str | bytes:
        """The handler's answer: text, or the bytes of the one image block it sent."""
        try:
            result = anyio.from_thread.run(self._await, command) if self.is_async else self._function(command)
        except ToolError as exc:
            raise handler_error(exc) from None
        if inspect.isawaitable(result):
            getattr(result, "close", lambda: None)()  # a sync call() that returned a coroutine
            raise TypeError("the handler returned an awaitable from a sync call")
        if isinstance(result, list) and len(result) == 1 and isinstance(result[0], dict):
            source = result[0].get("source") or {}
            if result[0].get("type") == "image" and isinstance(source.get("data"), str):
                return base64.b64decode(source["data"], validate=True)
        if not isinstance(result, str):
            raise UnreadableHandler("Error: The memory handler answered with something other than text.")
        return result

    async def _await(self, command: dict[str, Any]) -> object:
        return await cast(Awaitable[object], self._function(command))

    def _listing(self, folder: MemoryPath) -> list[tuple[tuple[str, ...], bool, int | None]]:
        """What a view of ``folder`` lists: (parts, is_dir, size in bytes where the listing gives it exactly)."""
        text = self._call({"command": "view", "path": str(folder)})
        lines = text.split("\n")
        if not lines or not lines[0].startswith("Here're the files and directories"):
            raise UnreadableHandler(f"Error: The memory handler's view of {folder} is not a listing.")
        found: list[tuple[tuple[str, ...], bool, int | None]] = []
        for line in lines[1:]:
            match = _LISTED.fullmatch(line)
            if match is None:
                raise UnreadableHandler(f"Error: The memory handler's listing of {folder} is cut or unreadable.")
            shown = match.group(2)
            exact = _EXACT_SIZE.fullmatch(match.group(1))
            parts = tuple(part for part in shown[len("/memories") :].split("/") if part)
            if parts == folder.parts:
                continue
            if parts[: len(folder.parts)] != folder.parts or len(parts) > len(folder.parts) + 2:
                raise UnreadableHandler(f"Error: The memory handler listed a path outside {folder}.")
            found.append((parts, shown.endswith("/"), int(exact.group(1)) if exact else None))
        return found

    def _content(self, path: MemoryPath, first: str | None = None) -> str:
        """A file's whole content from the handler's numbered view (read in windows if it cuts its output).

        ``first`` is an answer to a plain view of the file already in hand.
        """
        lines: list[str] = []
        start = 1
        for _ in range(_MAX_WINDOWS):
            command: dict[str, Any] = {"command": "view", "path": str(path)}
            if start > 1:
                command["view_range"] = [start, -1]
            text = first if first is not None and start == 1 else self._call(command)
            header = _CONTENT_HEADER.match(text)
            if header is None:
                raise NotAFile(path) if text.startswith("Here're the files") else _unreadable(path)
            body = text[header.end() :].split("\n")
            numbered = [_NUMBERED.fullmatch(line) for line in body]
            complete = all(numbered)
            if not complete:
                # Cut output: keep the lines before the cut (the last numbered one may be partial).
                kept = numbered[: numbered.index(None)]
                numbered = kept[:-1] if len(kept) > 1 else kept
            for match in numbered:
                if match is None or int(match.group(1)) != start:
                    raise _unreadable(path)
                lines.append(match.group(2))
                start += 1
            if complete or not numbered:
                return "\n".join(lines)
        raise _unreadable(path)

    # the index

    def _known(self) -> dict[tuple[str, ...], int | None]:
        with self._lock:
            if self._index is None:
                self._index = self._build_index()
            return self._index

    def _build_index(self) -> dict[tuple[str, ...], int | None]:
        index: dict[tuple[str, ...], int | None] = {}
        folders = [ROOT]
        while folders:
            folder = folders.pop()
            for parts, is_dir, listed in self._listing(folder):
                try:
                    path = _path(parts)
                except PathDenied:
                    continue  # a name no model path can address: not the sandbox's to count
                if is_dir:
                    index[parts] = None
                    if len(parts) == len(folder.parts) + 2:
                        folders.append(path)
                else:
                    # A view may hide a final newline; a size the listing gives in bytes does not.
                    index[parts] = listed if listed is not None else len(self._content(path).encode("utf-8"))
        return index

    # reads

    def stat(self, path: MemoryPath) -> Entry | None:
        if path.is_root:
            return Entry(path.name, is_dir=True, size=DIR_SIZE)
        index = self._known()
        for depth in range(1, len(path.parts)):
            above = path.parts[:depth]
            if above in index and index[above] is not None:
                raise NotADirectory("/memories/" + "/".join(above))
        if path.parts not in index and not self._probe(path):
            return None
        size = index[path.parts]
        return Entry(path.name, is_dir=size is None, size=DIR_SIZE if size is None else size)

    def _probe(self, path: MemoryPath) -> bool:
        """Ask the handler whether a path the index does not know exists (written behind the sandbox's back)."""
        size: int | None
        try:
            answer = self._answer({"command": "view", "path": str(path)})
        except HandlerError as exc:
            if "does not exist" in exc.message:
                return False
            size = 0  # there, but the handler will not show it: its own error comes when it is read
        else:
            if isinstance(answer, str) and answer.startswith("Here're the files"):
                size = None
            else:
                size = len(answer) if isinstance(answer, bytes) else len(self._content(path).encode("utf-8"))
        with self._lock:
            self._known()[path.parts] = size
        return True

    @contextmanager
    def scan(self, path: MemoryPath) -> Iterator[Iterator[Entry]]:
        yield iter([self.stat(path.child(name)) or Entry(name, False, 0) for name in sorted(self.names(path))])

    def names(self, path: MemoryPath) -> list[str]:
        entry = self.stat(path)
        if entry is None:
            raise NotFound(path)
        if not entry.is_dir:
            raise NotADirectory(path)
        depth = len(path.parts)
        return [parts[-1] for parts in self._known() if len(parts) == depth + 1 and parts[:depth] == path.parts]

    def read(self, path: MemoryPath) -> bytes:
        entry = self.stat(path)
        if entry is None:
            raise NotFound(path)
        if entry.is_dir:
            raise NotAFile(path)
        answer = self._answer({"command": "view", "path": str(path)})
        return answer if isinstance(answer, bytes) else self._content(path, answer).encode("utf-8")

    def tree(self, path: MemoryPath) -> Tree:
        entry = self.stat(path)
        if entry is None:
            raise NotFound(path)
        depth = len(path.parts)
        below = sorted((parts, size) for parts, size in self._known().items() if parts[:depth] == path.parts)
        nodes = [Node(parts[depth:], size is None, size or 0) for parts, size in below if len(parts) > depth]
        return Tree((Node((), entry.is_dir, 0 if entry.is_dir else entry.size), *nodes))

    def usage(self) -> Usage:
        sizes = list(self._known().values())
        files = [size for size in sizes if size is not None]
        return Usage(sum(files), len(files), len(sizes) - len(files))

    # writes

    @contextmanager
    def writing(self) -> Iterator[HandlerStorage]:
        with self._lock:
            yield self

    def put(self, path: MemoryPath, data: bytes, *, new: bool) -> None:
        text = data.decode("utf-8")
        with self._lock:
            index = self._known()
            if new:
                if path.parts in index:
                    raise AlreadyExists(path)
                self._call({"command": "create", "path": str(path), "file_text": text})
                for depth in range(1, len(path.parts)):
                    index.setdefault(path.parts[:depth], None)
                index[path.parts] = len(data)
            else:
                index[path.parts] = len(self._replace(path, self._content(path), text).encode("utf-8"))

    def _replace(self, path: MemoryPath, shown: str, text: str) -> str:
        """Replace a file's whole content, as a compare-and-swap on what its view showed.

        A view that leaves out a final newline (``a`` for ``a\n``; the SDK's never does) is met by
        trying the shown content with that newline first, keeping the newline in the new content.
        """
        kept = text if text.endswith("\n") else text + "\n"
        try:
            self._call({"command": "str_replace", "path": str(path), "old_str": shown + "\n", "new_str": kept})
        except HandlerError:
            pass  # no such final newline: the file is as shown
        else:
            return kept
        if shown:
            self._call({"command": "str_replace", "path": str(path), "old_str": shown, "new_str": text})
        else:
            self._call({"command": "insert", "path": str(path), "insert_line": 0, "insert_text": text})
        return text

    def remove(self, path: MemoryPath) -> None:
        with self._lock:
            if self.stat(path) is None:
                raise NotFound(path)
            self._call({"command": "delete", "path": str(path)})
            index = self._known()
            for parts in [parts for parts in index if parts[: len(path.parts)] == path.parts]:
                del index[parts]

    def move(self, old: MemoryPath, new: MemoryPath) -> None:
        with self._lock:
            if self.stat(old) is None:
                raise NotFound(old)
            if self.stat(new) is not None:
                raise AlreadyExists(new)
            self._call({"command": "rename", "old_path": str(old), "new_path": str(new)})
            index, cut = self._known(), len(old.parts)
            for parts in [parts for parts in index if parts[:cut] == old.parts]:
                index[new.parts + parts[cut:]] = index.pop(parts)
            for depth in range(1, len(new.parts)):
                index.setdefault(new.parts[:depth], None)


def handler_error(exc: ToolError) -> HandlerError:
    """A handler's ToolError as a short error for the model, host paths scrubbed out."""
    text = exc.content if isinstance(exc.content, str) else str(exc)
    text = scrub_host_paths(text)
    if len(text) > _MAX_ERROR_CHARS:
        text = text[:_MAX_ERROR_CHARS] + "..."
    return HandlerError(text, detail="the wrapped handler raised ToolError")


def _unreadable(path: MemoryPath) -> UnreadableHandler:
    return UnreadableHandler(f"Error: The memory handler's view of {path} is not a numbered file view.")


def _path(parts: tuple[str, ...]) -> MemoryPath:
    path = ROOT
    for part in parts:
        path = path.child(part)
    return path
