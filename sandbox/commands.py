"""The six memory commands: parsed once at the edge, immutable inside.

:func:`parse_command` validates untrusted tool input with pydantic and returns a
:class:`ParsedCommand` whose strings are still raw (``raw_path``...). Only
:func:`canonicalize_command` turns those into :class:`~sandbox.paths.MemoryPath`
and yields one of the frozen operations (:class:`View`, :class:`Create`, ...)
that stages and backends work on. Parsing never raises anything but
:class:`~sandbox.errors.InvalidCommand`, with a short message naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, StrictInt, StrictStr, ValidationError

from sandbox.decision import Note
from sandbox.errors import InvalidCommand
from sandbox.paths import DEFAULT_LIMITS, MemoryPath, PathLimits, canonicalize

__all__ = [
    "COMMAND_NAMES",
    "EXTRA_NAME_CHARS",
    "Content",
    "Create",
    "Delete",
    "Insert",
    "Operation",
    "ParsedCommand",
    "Rename",
    "Reply",
    "StrReplace",
    "View",
    "canonicalize_command",
    "operation_paths",
    "parse_command",
    "written_text",
]

# Extra fields are remembered by name only (values may hold anything), and only so many; a name
# is kept long enough to be scrubbed of secrets whole, then cut (EXTRA_NAME_CHARS) for the record.
_MAX_EXTRA_NAMES: Final = 16
_MAX_EXTRA_NAME_SCAN: Final = 4096
EXTRA_NAME_CHARS: Final = 64
# Line numbers beyond any file's reach; bigger integers are refused as field errors.
_MAX_LINE_NUMBER: Final = 2**31 - 1


class _Model(BaseModel):
    # The API may add fields; they are ignored here and reported to the audit log.
    model_config = ConfigDict(extra="ignore", frozen=True)


class _ViewInput(_Model):
    command: Literal["view"]
    path: StrictStr
    view_range: tuple[StrictInt, StrictInt] | None = None


class _CreateInput(_Model):
    command: Literal["create"]
    path: StrictStr
    file_text: StrictStr


class _StrReplaceInput(_Model):
    command: Literal["str_replace"]
    path: StrictStr
    old_str: StrictStr
    # Omitted means "delete old_str", as the tool's documentation says.
    new_str: StrictStr = ""


class _InsertInput(_Model):
    command: Literal["insert"]
    path: StrictStr
    insert_line: StrictInt
    insert_text: StrictStr


class _DeleteInput(_Model):
    command: Literal["delete"]
    path: StrictStr


class _RenameInput(_Model):
    command: Literal["rename"]
    old_path: StrictStr
    new_path: StrictStr


_MODELS: Final[Mapping[str, type[_Model]]] = {
    "view": _ViewInput,
    "create": _CreateInput,
    "str_replace": _StrReplaceInput,
    "insert": _InsertInput,
    "delete": _DeleteInput,
    "rename": _RenameInput,
}
COMMAND_NAMES: Final = tuple(_MODELS)


@dataclass(frozen=True, slots=True)
class ParsedCommand:
    """A well-formed command whose paths are not yet canonical."""

    name: str
    fields: Mapping[str, Any]
    extra_fields: tuple[str, ...] = ()

    @property
    def raw_paths(self) -> tuple[str, ...]:
        return tuple(self.fields[key] for key in ("path", "old_path", "new_path") if key in self.fields)


@dataclass(frozen=True, slots=True)
class View:
    path: MemoryPath
    view_range: tuple[int, int] | None = None
    command: Literal["view"] = "view"


@dataclass(frozen=True, slots=True)
class Create:
    path: MemoryPath
    file_text: str
    command: Literal["create"] = "create"


@dataclass(frozen=True, slots=True)
class StrReplace:
    path: MemoryPath
    old_str: str
    new_str: str
    command: Literal["str_replace"] = "str_replace"


@dataclass(frozen=True, slots=True)
class Insert:
    path: MemoryPath
    insert_line: int
    insert_text: str
    command: Literal["insert"] = "insert"


@dataclass(frozen=True, slots=True)
class Delete:
    path: MemoryPath
    command: Literal["delete"] = "delete"


@dataclass(frozen=True, slots=True)
class Rename:
    old_path: MemoryPath
    new_path: MemoryPath
    command: Literal["rename"] = "rename"


Operation = View | Create | StrReplace | Insert | Delete | Rename

#: What a command returns to the model: text, or content blocks (an image for ``view``).
Content = str | list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Reply:
    """A backend's answer: the content for the model and what it noted (redactions, say)."""

    content: Content
    notes: tuple[Note, ...] = ()
    # The written file's size before and after (bytes), for the record.
    sizes: tuple[int, int] | None = None


def written_text(op: Operation) -> str | None:
    """The text an operation adds to storage (file_text, new_str, insert_text), if any."""
    if isinstance(op, Create):
        return op.file_text
    if isinstance(op, StrReplace):
        return op.new_str
    if isinstance(op, Insert):
        return op.insert_text
    return None


def operation_paths(op: Operation) -> tuple[MemoryPath, ...]:
    """Every path an operation touches, source first."""
    if isinstance(op, Rename):
        return (op.old_path, op.new_path)
    return (op.path,)


def parse_command(untrusted_input: object, *, max_string_bytes: int) -> ParsedCommand:
    """Validate tool input; raise :class:`InvalidCommand` naming the field on any defect."""
    if not isinstance(untrusted_input, Mapping):
        raise InvalidCommand("Error: Invalid command: the tool input must be a JSON object")
    name = untrusted_input.get("command")
    if not isinstance(name, str) or name not in _MODELS:
        # The unknown value is not echoed: it is attacker text of any length.
        raise InvalidCommand(
            "Error: Invalid `command`: expected one of " + ", ".join(COMMAND_NAMES),
        )
    model = _MODELS[name]
    try:
        parsed = model.model_validate(untrusted_input)
    except ValidationError as exc:
        raise InvalidCommand(_describe(exc), detail=f"{name}: validation failed") from None
    fields = parsed.model_dump(exclude={"command"})
    for key, value in fields.items():
        if isinstance(value, str):
            _check_text(key, value, max_string_bytes)
    if fields.get("view_range") is not None:
        _check_view_range(fields["view_range"])
    if abs(fields.get("insert_line", 0)) > _MAX_LINE_NUMBER:
        raise InvalidCommand(f"Error: Invalid `insert_line`: at most {_MAX_LINE_NUMBER:,}")
    if name == "str_replace" and not fields["old_str"]:
        raise InvalidCommand("Error: Invalid `old_str`: it must not be empty")
    return ParsedCommand(name=name, fields=fields, extra_fields=_extra_names(untrusted_input, model))


def canonicalize_command(parsed: ParsedCommand, limits: PathLimits = DEFAULT_LIMITS) -> Operation:
    """Canonicalise every path of a parsed command (raises :class:`PathDenied`)."""
    f = parsed.fields

    def path(key: str) -> MemoryPath:
        return canonicalize(f[key], limits)

    if parsed.name == "view":
        return View(path("path"), f["view_range"])
    if parsed.name == "create":
        return Create(path("path"), f["file_text"])
    if parsed.name == "str_replace":
        return StrReplace(path("path"), f["old_str"], f["new_str"])
    if parsed.name == "insert":
        return Insert(path("path"), f["insert_line"], f["insert_text"])
    if parsed.name == "delete":
        return Delete(path("path"))
    return Rename(path("old_path"), path("new_path"))


def _check_text(field: str, value: str, max_bytes: int) -> None:
    # A str holds at most 4 UTF-8 bytes per character: skip the encode when it cannot be over.
    if len(value) * 4 > max_bytes and len(value.encode("utf-8", "surrogatepass")) > max_bytes:
        raise InvalidCommand(f"Error: Invalid `{field}`: longer than {max_bytes} bytes")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidCommand(f"Error: Invalid `{field}`: not valid UTF-8 text (lone surrogate)") from None


def _check_view_range(view_range: tuple[int, int]) -> None:
    start, end = view_range
    if max(abs(start), abs(end)) > _MAX_LINE_NUMBER:
        raise InvalidCommand(f"Error: Invalid `view_range`: line numbers are at most {_MAX_LINE_NUMBER:,}")
    if start < 1:
        raise InvalidCommand("Error: Invalid `view_range`: the first line is 1")
    if end != -1 and end < start:
        raise InvalidCommand("Error: Invalid `view_range`: [start, end] with end >= start, or end = -1")


def _describe(exc: ValidationError) -> str:
    error = exc.errors(include_url=False, include_input=False)[0]
    loc = error["loc"]
    field = str(loc[0]) if loc else "input"
    kind = error["type"]
    if kind == "missing":
        return f"Error: Invalid command: missing required field `{field}`"
    if field == "view_range":
        return "Error: Invalid `view_range`: expected two integers [start, end]"
    if kind.startswith("string"):
        return f"Error: Invalid `{field}`: must be a string"
    if kind.startswith("int"):
        return f"Error: Invalid `{field}`: must be an integer"
    return f"Error: Invalid `{field}`: wrong type or value"


def _extra_names(untrusted_input: Mapping[Any, Any], model: type[_Model]) -> tuple[str, ...]:
    """Names of unknown fields, safe to encode anywhere (lone surrogates escaped), not yet cut."""
    known = model.model_fields.keys()
    extra = (_encodable(str(key)[:_MAX_EXTRA_NAME_SCAN]) for key in untrusted_input if key not in known)
    return tuple(sorted(extra)[:_MAX_EXTRA_NAMES])


def _encodable(text: str) -> str:
    return text.encode("utf-8", "backslashreplace").decode("utf-8")
