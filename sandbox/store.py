"""The six memory commands, written once over any :class:`StorageAdapter`.

Output and error texts are the memory tool's reference strings (DESIGN.md
section 4), so the model sees what it was trained on whatever the adapter.
Paths echoed back are canonical ``/memories/...`` forms, never host paths.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

import anyio.to_thread

from sandbox.commands import Content, Create, Delete, Insert, Operation, Rename, Reply, StrReplace, View
from sandbox.decision import Note
from sandbox.errors import AlreadyExists, Denied, LimitExceeded, NotADirectory, NotAFile, NotFound, OperationFailed
from sandbox.paths import MemoryPath, is_canonical_name
from sandbox.policy import Policy
from sandbox.redaction import SecretGuard
from sandbox.storage.base import DIR_SIZE, Quota, StorageAdapter
from sandbox.views import (
    MAX_LINES,
    count_lines,
    human_size,
    numbered,
    quote_for_error,
    split_lines,
    truncate_view,
    view_window,
)

__all__ = ["Store"]

_IMAGE_TYPES: Final = {".png": ("image/png", b"\x89PNG\r\n\x1a\n"), ".jpg": ("image/jpeg", b"\xff\xd8\xff")}
_IMAGE_TYPES[".jpeg"] = _IMAGE_TYPES[".jpg"]
_EXCLUDED: Final = frozenset({"node_modules"})
_SNIPPET_CONTEXT: Final = 3
_MAX_LISTED_LINES: Final = 20


class Store:
    """Runs canonical operations on a storage adapter and renders the results."""

    def __init__(self, storage: StorageAdapter, policy: Policy, *, secrets: SecretGuard | None = None) -> None:
        self.storage = storage
        self._max_view_chars = policy.limits.max_view_chars
        self._max_image_bytes = policy.limits.max_image_bytes
        self._max_file_bytes = policy.limits.max_file_bytes
        self._max_file_lines = policy.limits.max_file_lines
        self._refuse_case_twins = policy.paths.case_collisions == "refuse"
        self._quota = Quota(policy.quota.max_bytes, policy.quota.max_files)
        self._secrets = secrets

    def __repr__(self) -> str:
        return f"Store({self.storage!r})"

    def run(self, op: Operation) -> Reply:
        if isinstance(op, View):
            return self._view(op)
        if isinstance(op, Create):
            return Reply(self._create(op), sizes=(0, len(op.file_text.encode("utf-8"))))
        if isinstance(op, StrReplace):
            return self._str_replace(op)
        if isinstance(op, Insert):
            return self._insert(op)
        if isinstance(op, Delete):
            return Reply(self._delete(op))
        return Reply(self._rename(op))

    async def arun(self, op: Operation) -> Reply:
        return await anyio.to_thread.run_sync(self.run, op)

    def _view(self, op: View) -> Reply:
        missing = f"The path {op.path} does not exist. Please provide a valid path."
        try:
            with _reword(missing=missing):
                if op.path.suffix in _IMAGE_TYPES and not op.path.is_root:
                    return Reply(self._image(op.path))
                data = self.storage.read(op.path)
        except NotAFile as exc:
            # One call for the common case (a file); a folder is listed instead.
            entry = self.storage.stat(op.path)
            if entry is None or not entry.is_dir:
                raise OperationFailed(exc.message) from None
            with _reword(missing=missing):
                return Reply(self._list(op.path))
        text = _decode(data, op.path)
        notes: tuple[Note, ...] = ()
        if self._secrets is not None:
            # Content stored before the sandbox (or by other tools) may hold secrets.
            text, notes = self._secrets.scan_read(text, op.path)
        # Every line takes at least one byte: only a file that large can be over the limit.
        if len(data) > MAX_LINES and count_lines(text) > MAX_LINES:
            raise OperationFailed(f"File {op.path} exceeds maximum line limit of 999,999 lines.")
        first, end = op.view_range or (1, -1)
        lines = view_window(text, first, end, self._max_view_chars)
        if lines is None:
            total = count_lines(text)
            raise OperationFailed(
                f"Error: Invalid `view_range`: {[first, end]}. Its first element `{first}` should be "
                f"within the range of lines of the file: [1, {total}]"
            )
        header = f"Here's the content of {op.path} with line numbers:\n"
        return Reply(truncate_view(header + numbered(lines, first), self._max_view_chars), notes)

    def _list(self, path: MemoryPath) -> str:
        header = (
            f"Here're the files and directories up to 2 levels deep in {path}, excluding hidden items and node_modules:"
        )
        lines = [header, f"{human_size(DIR_SIZE)}\t{path}"]
        budget = self._max_view_chars - len(header) - len(lines[1]) - 200
        for line in self._walk(path, depth=1):
            budget -= len(line) + 1
            if budget < 0:
                lines.append(
                    f"[Listing truncated at {self._max_view_chars:,} characters: view a subfolder to see more.]"
                )
                break
            lines.append(line)
        return "\n".join(lines)

    def _walk(self, folder: MemoryPath, depth: int) -> Iterator[str]:
        # Sorted, depth-first, two levels, hidden items and node_modules left out;
        # lazy, so a caller that has enough output stops the scan. Names the model
        # could not address (written by other tools) are not listed either.
        with self.storage.scan(folder) as entries:
            for entry in entries:
                if entry.name.startswith(".") or entry.name in _EXCLUDED or not is_canonical_name(entry.name):
                    continue
                if not entry.is_dir:
                    yield f"{human_size(entry.size)}\t{folder}/{entry.name}"
                    continue
                yield f"{human_size(entry.size)}\t{folder}/{entry.name}/"
                if depth < 2:
                    yield from self._walk(folder.child(entry.name), depth + 1)

    def _image(self, path: MemoryPath) -> Content:
        media_type, magic = _IMAGE_TYPES[path.suffix]
        entry = self.storage.stat(path)
        if entry is None:
            raise NotFound(path)
        if entry.is_dir:
            raise NotAFile(path)
        if entry.size > self._max_image_bytes:
            raise OperationFailed(f"Error: The image {path} is larger than {self._max_image_bytes:,} bytes")
        data = self.storage.read(path)
        if len(data) > self._max_image_bytes:
            raise OperationFailed(f"Error: The image {path} is larger than {self._max_image_bytes:,} bytes")
        if not data.startswith(magic):
            raise OperationFailed(f"Error: The file {path} is not a valid {media_type.split('/')[1].upper()} image")
        encoded = base64.b64encode(data).decode("ascii")
        return [{"type": "image", "source": {"type": "base64", "media_type": media_type, "data": encoded}}]

    def _create(self, op: Create) -> str:
        self._check_case_twin(op.path)
        with _reword(exists=f"Error: File {op.path} already exists"):
            self.storage.create(op.path, op.file_text.encode("utf-8"), self._quota)
        return f"File created successfully at: {op.path}"

    def _check_case_twin(self, path: MemoryPath) -> None:
        """Refuse a name that differs only in case from one already in its folder."""
        if not self._refuse_case_twins or path.is_root:
            return
        try:
            names = self.storage.names(path.parent)
        except (NotFound, NotADirectory):
            return  # the folder is made by the write, or the write fails on its own
        folded = path.name.casefold()
        for name in names:
            if name != path.name and name.casefold() == folded:
                raise Denied(
                    f"Error: Access denied: {path} differs only in case from {path.parent}/{name}",
                    rule_id="paths.case_collisions",
                )

    def _str_replace(self, op: StrReplace) -> Reply:
        changed_line = 0
        notes: tuple[Note, ...] = ()
        size_before = 0

        def edit(content: bytes) -> bytes:
            nonlocal changed_line, notes, size_before
            size_before = len(content)
            text = _decode(content, op.path)
            first = text.find(op.old_str)
            if first < 0:
                raise OperationFailed(
                    f"No replacement was performed, old_str `{quote_for_error(op.old_str)}` "
                    f"did not appear verbatim in {op.path}."
                )
            if text.find(op.old_str, first + 1) >= 0:
                raise OperationFailed(
                    f"No replacement was performed. Multiple occurrences of old_str "
                    f"`{quote_for_error(op.old_str)}` in lines: {_occurrence_lines(text, op.old_str)}. "
                    "Please ensure it is unique"
                )
            changed_line = text.count("\n", 0, first) + 1
            new_text, notes = self._checked(text[:first] + op.new_str + text[first + len(op.old_str) :], op.path)
            return new_text.encode("utf-8")

        with _reword(missing=f"The path {op.path} does not exist. Please provide a valid path."):
            new_bytes = self.storage.modify(op.path, edit, self._quota)
        new_text = new_bytes.decode("utf-8")
        lines = split_lines(new_text)
        first = max(1, changed_line - _SNIPPET_CONTEXT)
        last = min(len(lines), changed_line + op.new_str.count("\n") + _SNIPPET_CONTEXT)
        snippet = truncate_view(numbered(lines[first - 1 : last], first), self._max_view_chars)
        return Reply(
            "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n" + snippet,
            notes,
            (size_before, len(new_bytes)),
        )

    def _insert(self, op: Insert) -> Reply:
        notes: tuple[Note, ...] = ()
        size_before = 0

        def edit(content: bytes) -> bytes:
            nonlocal notes, size_before
            size_before = len(content)
            lines = split_lines(_decode(content, op.path))
            if not 0 <= op.insert_line <= len(lines):
                raise OperationFailed(
                    f"Error: Invalid `insert_line` parameter: {op.insert_line}. It should be within the range "
                    f"of lines of the file: [0, {len(lines)}]"
                )
            lines.insert(op.insert_line, op.insert_text.rstrip("\n"))
            new_text, notes = self._checked("\n".join(lines) + "\n", op.path)
            return new_text.encode("utf-8")

        with _reword(missing=f"The path {op.path} does not exist. Please provide a valid path."):
            new_bytes = self.storage.modify(op.path, edit, self._quota)
        return Reply(f"The file {op.path} has been edited.", notes, (size_before, len(new_bytes)))

    def _checked(self, text: str, path: MemoryPath) -> tuple[str, tuple[Note, ...]]:
        """An edited file's whole new content, checked against the file limits and scanned:
        a secret assembled over several edits (``AKIA`` in one, the rest in the next) is caught here."""
        lines = count_lines(text)
        if lines > self._max_file_lines:
            raise LimitExceeded("limits.max_file_lines", str(path), lines, self._max_file_lines, "lines")
        if self._secrets is not None:
            text, notes = self._secrets.scan_write(text, path)
        else:
            notes = ()
        size = len(text.encode("utf-8"))
        if size > self._max_file_bytes:
            raise LimitExceeded("limits.max_file_bytes", str(path), size, self._max_file_bytes)
        return text, notes

    def _delete(self, op: Delete) -> str:
        with _reword(missing=f"Error: The path {op.path} does not exist"):
            self.storage.delete(op.path)
        return f"Successfully deleted {op.path}"

    def _rename(self, op: Rename) -> str:
        self._check_case_twin(op.new_path)
        with _reword(
            missing=f"Error: The path {op.old_path} does not exist",
            exists=f"Error: The destination {op.new_path} already exists",
        ):
            self.storage.rename(op.old_path, op.new_path)
        return f"Successfully renamed {op.old_path} to {op.new_path}"


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


def _decode(content: bytes, path: MemoryPath) -> str:
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError:
        raise OperationFailed(f"Error: The file {path} is not UTF-8 text and cannot be shown or edited") from None


def _occurrence_lines(text: str, needle: str) -> str:
    found: list[str] = []
    position = text.find(needle)
    while position >= 0 and len(found) < _MAX_LISTED_LINES:
        found.append(str(text.count("\n", 0, position) + 1))
        position = text.find(needle, position + 1)
    return ", ".join(found) + (", ..." if position >= 0 else "")
