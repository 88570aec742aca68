"""Canonical memory paths: the one door from model text to a storage key.

:func:`canonicalize` is the only way to build a :class:`MemoryPath` from text. It
follows "canonicalize, then contain": decode, normalise, reject what is left
dangerous, allow only safe characters per name, resolve ``.`` and ``..``
lexically, and check containment in ``/memories``. Each check names the attack
it blocks. Storage adapters accept ``MemoryPath`` only, so nothing else reaches
them.
"""

from __future__ import annotations

import re
import unicodedata
import urllib.parse
from dataclasses import dataclass
from typing import Final, final

from sandbox.errors import PathDenied

__all__ = [
    "DEFAULT_LIMITS",
    "RESERVED_PREFIX",
    "ROOT",
    "MemoryPath",
    "PathLimits",
    "canonicalize",
    "is_canonical_name",
]

ROOT_TEXT: Final = "/memories"
#: Names the store keeps for itself (lock and usage state, temp files): no model path may use them.
RESERVED_PREFIX: Final = ".memory-sandbox"

_PERCENT_BYTE = re.compile(r"%[0-9A-Fa-f]{2}")
# IIS-style %uXXXX escapes: no standard decoder accepts them, some servers do.
_PERCENT_U = re.compile(r"%[uU][0-9A-Fa-f]{4}")

# Printable ASCII a name may hold. Allowlist, not denylist: "\" (Windows
# separator), ":" (drive letters, NTFS alternate data streams) and the other
# characters Windows reserves ("*?"<>|") are refused because stores get synced,
# backed up and served from other systems.
_ASCII_ALLOWED: Final = frozenset(chr(c) for c in range(0x20, 0x7F)) - frozenset('\\:*?"<>|/')
_ASCII_PATH: Final = _ASCII_ALLOWED | {"/"}

# Characters that look like a dot, slash or backslash but do not become one
# under NFKC. Those that do (full-width dot and solidus, one-dot leader, small
# full stop, ...) are caught by the NFKC test in _check_character.
_LOOKALIKES: Final = frozenset(
    "\u2027"  # hyphenation point
    "\u2044"  # fraction slash
    "\u2215"  # division slash
    "\u2216"  # set minus
    "\u2571\u2572"  # box drawings diagonals
    "\u27cb\u27cd"  # mathematical rising / falling diagonal
    "\u29f5\u29f8\u29f9"  # reverse solidus operator, big solidus, big reverse solidus
    "\u2e31"  # word separator middle dot
    "\u3002\uff61"  # ideographic full stops (IDNA treats them as dots)
)
# What a look-alike may turn into under NFKC, in a handler that normalises later.
_NFKC_DANGEROUS: Final = frozenset("./\\:%")
_REFUSED_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_COMBINING: Final = frozenset({"Mn", "Mc", "Me"})
# Invisible characters of other categories than Cf (Unicode's default-ignorable marks and fillers):
# the combining grapheme joiner, Hangul and halfwidth fillers, Khmer inherent vowels, Mongolian and
# other variation selectors. A variation selector right after a symbol (an emoji's presentation) is
# accepted; anywhere else they make two different names look the same.
_VARIATION_SELECTORS: Final = frozenset(
    [chr(c) for c in range(0xFE00, 0xFE10)] + [chr(c) for c in range(0xE0100, 0xE01F0)]
)
INVISIBLE_MARKS: Final = _VARIATION_SELECTORS | frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u3164\uffa0"
)

# Windows device names, refused with any extension ("nul.txt", "COM1.md").
_DEVICE_NAMES: Final = frozenset(
    ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$", "CLOCK$"]
    + [f"{dev}{n}" for dev in ("COM", "LPT") for n in [*"0123456789", "\u00b9", "\u00b2", "\u00b3"]]
)
# 8.3 short names ("NOTES~1.MD") alias a long name on FAT and NTFS.
_SHORT_NAME = re.compile(r"[^.~]{1,6}~[0-9]+(\.[^.]{1,3})?", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class PathLimits:
    """Bounds applied while canonicalising; configured by the policy's ``[paths]``."""

    max_path_bytes: int = 1024
    max_name_bytes: int = 255
    max_decode_rounds: int = 4
    # Refuse Windows device names and 8.3 short names (reserved characters are always refused).
    portable_names: bool = True


DEFAULT_LIMITS: Final = PathLimits()
_TOKEN: Final = object()


@final
class MemoryPath:
    """A canonical path inside ``/memories``: NFC, no ``.``/``..``, every name checked.

    Build one with :func:`canonicalize`; the constructor refuses other callers.
    """

    __slots__ = ("_parts", "_text")

    def __init__(self, parts: tuple[str, ...], token: object) -> None:
        if token is not _TOKEN:
            raise TypeError("MemoryPath is built by sandbox.paths.canonicalize() only")
        self._parts = parts
        self._text = ROOT_TEXT + "".join("/" + part for part in parts)

    @property
    def parts(self) -> tuple[str, ...]:
        """The names below ``/memories``; empty for the root."""
        return self._parts

    @property
    def is_root(self) -> bool:
        return not self._parts

    @property
    def name(self) -> str:
        """The last name, or ``"memories"`` for the root."""
        return self._parts[-1] if self._parts else ROOT_TEXT[1:]

    @property
    def parent(self) -> MemoryPath:
        """The containing folder; the root is its own parent."""
        return MemoryPath(self._parts[:-1], _TOKEN) if self._parts else self

    @property
    def suffix(self) -> str:
        """The lower-cased extension of the last name, with its dot (``".md"``), or ``""``."""
        _, dot, ext = self.name.rpartition(".")
        return "." + ext.lower() if dot and ext else ""

    def child(self, untrusted_name: str, limits: PathLimits = DEFAULT_LIMITS) -> MemoryPath:
        """The path of one name inside this folder, checked as :func:`canonicalize` checks names.

        Used for names read back from storage; raises :class:`PathDenied` unless
        ``untrusted_name`` is already canonical (so the model could address it).
        """
        _check_canonical_name(untrusted_name, limits)
        path = MemoryPath((*self._parts, untrusted_name), _TOKEN)
        if len(path._text.encode("utf-8")) > limits.max_path_bytes:
            raise PathDenied("too_long", f"the path is longer than {limits.max_path_bytes} bytes")
        return path

    def below(self, names: tuple[str, ...]) -> MemoryPath:
        """The path of ``names`` below this folder, as a store listed them (a tree's nodes).

        The names are the store's own, so they are taken as they are: the adapters act on them
        name by name, never through a host path.
        """
        return MemoryPath((*self._parts, *names), _TOKEN) if names else self

    def is_relative_to(self, other: MemoryPath) -> bool:
        """True when ``self`` is ``other`` or lies inside it."""
        return self._parts[: len(other._parts)] == other._parts

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"MemoryPath({self._text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MemoryPath) and self._parts == other._parts

    def __lt__(self, other: MemoryPath) -> bool:
        return self._parts < other._parts

    def __hash__(self) -> int:
        return hash(self._parts)


ROOT: Final = MemoryPath((), _TOKEN)


def canonicalize(untrusted_path: str, limits: PathLimits = DEFAULT_LIMITS) -> MemoryPath:
    """Turn a model-supplied path into a :class:`MemoryPath`, or raise :class:`PathDenied`."""
    if not isinstance(untrusted_path, str):
        raise PathDenied("type", "the path must be a string")
    if not untrusted_path:
        raise PathDenied("empty", "the path is empty")
    # Bound the work before decoding: an encoded byte takes three characters.
    if len(untrusted_path) > 3 * limits.max_path_bytes:
        raise PathDenied("too_long", f"the path is longer than {limits.max_path_bytes} bytes")
    try:
        untrusted_path.encode("utf-8")
    except UnicodeEncodeError:
        # Lone surrogates: no file system name can hold them.
        raise PathDenied("encoding", "the path is not valid UTF-8 text") from None
    # "%2e%2e%2f" and its double and triple encodings must mean "../" here,
    # because some later layer (a proxy, a handler, a shell) may decode them.
    text = _percent_decode(untrusted_path, limits.max_decode_rounds)
    # NFC so that "é" typed precomposed or decomposed names one file, not twins.
    text = unicodedata.normalize("NFC", text)
    if not (text.isascii() and _ASCII_PATH.issuperset(text)):  # the common case needs no per-character look
        for char in text:
            _check_character(char)
    if text.startswith("//"):
        # "//server/share" is a UNC path on Windows and some POSIX hosts.
        raise PathDenied("unc", "network (UNC) paths are not accepted")
    segments = text.split("/")
    # Exact segment match: "/memoriesX" and "/memories_backup" are siblings of
    # the root, not inside it, and are refused rather than remapped.
    if len(segments) < 2 or segments[0] != "" or segments[1] != ROOT_TEXT[1:]:
        raise PathDenied("outside_root", "the path is outside /memories")
    parts = _resolve(segments[2:], limits)
    path = MemoryPath(parts, _TOKEN)
    if len(str(path).encode("utf-8")) > limits.max_path_bytes:
        raise PathDenied("too_long", f"the path is longer than {limits.max_path_bytes} bytes")
    return path


def _resolve(segments: list[str], limits: PathLimits) -> tuple[str, ...]:
    """Resolve "." and ".." lexically below the root, checking every name kept."""
    parts: list[str] = []
    for segment in segments:
        if segment in ("", "."):
            continue
        if segment == "..":
            if not parts:
                raise PathDenied("traversal", "the path climbs above /memories")
            parts.pop()
            continue
        _check_name(segment, limits)
        parts.append(segment)
    return tuple(parts)


def is_canonical_name(untrusted_name: str, limits: PathLimits = DEFAULT_LIMITS) -> bool:
    """True when a single name would come out of :func:`canonicalize` unchanged."""
    try:
        _check_canonical_name(untrusted_name, limits)
    except PathDenied:
        return False
    return True


def _check_canonical_name(name: str, limits: PathLimits) -> None:
    if name in ("", ".", "..") or "/" in name:
        raise PathDenied("name", "not a single file or folder name")
    if _PERCENT_BYTE.search(name) or _PERCENT_U.search(name):
        raise PathDenied("encoding", "the name holds percent-escapes")
    ascii_name = name.isascii()
    if not ascii_name and not unicodedata.is_normalized("NFC", name):
        raise PathDenied("name", "the name is not in Unicode NFC form")
    if not (ascii_name and _ASCII_ALLOWED.issuperset(name)):
        for char in name:
            _check_character(char)
    _check_name(name, limits)


def _percent_decode(text: str, max_rounds: int) -> str:
    """Percent-decode until stable, at most ``max_rounds`` times, as strict UTF-8."""
    for _ in range(max_rounds):
        if _PERCENT_U.search(text):
            raise PathDenied("encoding", "%u escapes are not accepted")
        if not _PERCENT_BYTE.search(text):
            return text
        try:
            # Strict decoding refuses overlong forms ("%c0%ae" for ".") and
            # encoded surrogates, which lenient decoders turn into dots.
            text = urllib.parse.unquote_to_bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise PathDenied("encoding", "the path holds invalid or overlong UTF-8 escapes") from None
    if _PERCENT_U.search(text) or _PERCENT_BYTE.search(text):
        raise PathDenied("encoding", "the path is percent-encoded too many times")
    return text


def _check_character(char: str) -> None:
    if char in _ASCII_ALLOWED or char == "/":
        return
    if char.isascii():
        if char.isprintable():
            raise PathDenied("reserved_character", "the path holds a character reserved on some systems")
        # NUL truncates C strings; other controls hide in logs and terminals.
        raise PathDenied("control_character", "the path holds a control character")
    category = unicodedata.category(char)
    if category in _REFUSED_CATEGORIES:
        # Zero-width and bidi controls make two different names look the same.
        raise PathDenied("invisible_character", "the path holds an invisible or control character")
    if category == "Zs":
        raise PathDenied("lookalike", "the path holds a look-alike space")
    if char in _LOOKALIKES or not _NFKC_DANGEROUS.isdisjoint(unicodedata.normalize("NFKC", char)):
        # Full-width dots and slashes become "../" under NFKC or a "best fit" code page.
        raise PathDenied("lookalike", "the path holds a look-alike dot, slash or colon")


def _check_marks(name: str) -> None:
    """Refuse combining marks that make a name look like a path: an overlay (a long solidus drawn
    through a letter, ``..\u0338etc``), or any mark on a dot or a character that folds to one."""
    previous = ""
    for index, char in enumerate(name):
        if char in INVISIBLE_MARKS and not (
            char in _VARIATION_SELECTORS and index and unicodedata.category(name[index - 1]) == "So"
        ):
            raise PathDenied("invisible_character", "the path holds an invisible or control character")
        if unicodedata.combining(char) == 1 or (
            unicodedata.category(char) in _COMBINING and not _NFKC_DANGEROUS.isdisjoint(previous)
        ):
            raise PathDenied("lookalike", "the path holds a combining mark over a dot or slash, or an overlay")
        if unicodedata.category(char) not in _COMBINING:
            previous = unicodedata.normalize("NFKC", char)


def _check_name(name: str, limits: PathLimits) -> None:
    if len(name.encode("utf-8")) > limits.max_name_bytes:
        raise PathDenied("too_long", f"a name is longer than {limits.max_name_bytes} bytes")
    if not name.strip(". "):
        # "..." and other dot-only names mean the parent on some systems.
        raise PathDenied("dot_name", "a name made only of dots or spaces is not accepted")
    if name[-1] in ". " or name[0] == " ":
        # Windows drops trailing dots and spaces: "notes.md." is "notes.md" there.
        raise PathDenied("trailing_dot_space", "a name may not end in a dot or space, or start with a space")
    # Compared folded: on a case-insensitive file system ".Memory-Sandbox" is the store's own folder.
    if unicodedata.normalize("NFKC", name).casefold().startswith(RESERVED_PREFIX):
        raise PathDenied("reserved_name", f"names starting with {RESERVED_PREFIX} are reserved by the store")
    if unicodedata.category(name[0]) in _COMBINING:
        raise PathDenied("lookalike", "a name may not start with a combining mark")
    if not name.isascii():
        _check_marks(name)
    if not limits.portable_names:
        return
    if name.split(".", 1)[0].rstrip(" ").upper() in _DEVICE_NAMES:
        raise PathDenied("device_name", "Windows device names (CON, NUL, COM1, ...) are not accepted")
    if _SHORT_NAME.fullmatch(name):
        raise PathDenied("short_name", "8.3 short names (NOTES~1.MD) are not accepted")
