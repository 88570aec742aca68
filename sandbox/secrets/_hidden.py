"""Secrets the patterns cannot see as written: invisible characters inside, encodings around.

:func:`find_hidden` is what the policy layer scans with. It removes Unicode
format characters (category Cf: zero-width spaces and joiners, bidi controls,
the byte order mark, tags) and the other invisible default-ignorable ones
(variation selectors, fillers) before the engine runs, then maps each finding
back so the redaction covers the original span, invisible characters and all.
It then decodes runs of base64, hex, percent-encoding and JSON string escapes
of at least :data:`MIN_RUN` characters and scans what they decode to (a few
levels deep, within a byte budget linear in the text); a secret found inside
redacts the whole encoded run. Only runs that decode to text are scanned
again: binary (images, digests, random keys) is passed over.
"""

from __future__ import annotations

import binascii
import bisect
import json
import re
import urllib.parse
from dataclasses import dataclass
from typing import Final

from sandbox.secrets._engine import SecretEngine
from sandbox.secrets._re2 import UNANCHORED, compile_bytes, native
from sandbox.secrets._rules import Finding, merge

__all__ = ["INVISIBLE", "MIN_RUN", "Unwrapping", "find_hidden"]

MIN_RUN: Final = 24

# Category Cf, and the invisible default-ignorable characters of other categories
# (combining grapheme joiner, Hangul fillers, Mongolian and variation selectors).
_INVISIBLE: Final = re.compile(
    "[\u00ad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u115f\u1160\u17b4\u17b5"
    "\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufe00-\ufe0f\ufeff"
    "\uffa0\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U00013438\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f\U000e0100-\U000e01ef]+"
)

INVISIBLE: Final = _INVISIBLE

# Runs that may be an encoding: base64 (standard or URL-safe, also dotted as in JWTs),
# hex and percent-encoding share these characters.
_RUN: Final = compile_bytes(rb"[A-Za-z0-9+/=_\-%.~]{" + str(MIN_RUN).encode() + rb",}")
# A stretch of a line holding JSON string escapes, up to a quote or a line end.
_ESCAPE: Final = rb"\\u[0-9A-Fa-f]{4}"
_ESCAPED_CHAR: Final = rb'(?:\\u[0-9A-Fa-f]{4}|\\[\\/"bfnrt]|[^"\\\r\n])*'
_ESCAPED: Final = compile_bytes(_ESCAPED_CHAR + _ESCAPE + _ESCAPED_CHAR)
_PERCENT: Final = re.compile(rb"%[0-9A-Fa-f]{2}")
_BASE64: Final = re.compile(rb"[A-Za-z0-9+/]+|[A-Za-z0-9_\-]+")
_ALPHANUMERIC: Final = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_STANDARD: Final = _ALPHANUMERIC + b"+/"
_URL_SAFE: Final = _ALPHANUMERIC + b"-_"
_URL_TO_STANDARD: Final = bytes.maketrans(b"-_", b"+/")
_HEX_DIGITS: Final = b"0123456789abcdefABCDEF"
# Control characters other than tab, newline and carriage return: decoded bytes holding
# them are binary, not text a secret would be written in.
_TEXT_BYTES: Final = bytes(range(0x20, 0x7F)) + b"\t\n\r" + bytes(range(0x80, 0x100))
_CONTROL: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffd]")


@dataclass(frozen=True, slots=True)
class Unwrapping:
    """How far the encoded runs are followed: levels, bytes per run, bytes in all per byte of text."""

    depth: int = 2
    max_run: int = 1 << 16
    floor_bytes: int = 1 << 16
    bytes_per_byte: int = 2


def find_hidden(engine: SecretEngine, data: bytes, unwrapping: Unwrapping | None = None) -> list[Finding]:
    """Every finding in ``data``, also behind invisible characters and inside encoded runs."""
    limits = unwrapping or Unwrapping()
    budget = [limits.floor_bytes + limits.bytes_per_byte * len(data)]
    return _find(engine, data, limits, limits.depth, budget)


def _find(engine: SecretEngine, data: bytes, limits: Unwrapping, depth: int, budget: list[int]) -> list[Finding]:
    found = _find_visible(engine, data)
    if depth > 0:
        found.extend(_find_encoded(engine, data, limits, depth, budget))
    return merge(found) if len(found) > 1 else found


def _find_visible(engine: SecretEngine, data: bytes) -> list[Finding]:
    """The engine's findings with invisible characters removed, in the original's offsets."""
    if data.isascii():
        return engine.find(data)
    try:
        text = data.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return engine.find(data)
    if _INVISIBLE.search(text) is None:
        return engine.find(data)
    # Kept pieces: (offset in the stripped bytes, offset in the original bytes).
    stripped: list[bytes] = []
    starts: list[int] = []
    origins: list[int] = []
    kept = original = 0
    position = 0
    for match in _INVISIBLE.finditer(text):
        piece = text[position : match.start()].encode("utf-8", "surrogatepass")
        starts.append(kept)
        origins.append(original)
        stripped.append(piece)
        kept += len(piece)
        original += len(piece) + len(match.group().encode("utf-8"))
        position = match.end()
    piece = text[position:].encode("utf-8", "surrogatepass")
    starts.append(kept)
    origins.append(original)
    stripped.append(piece)

    def at(offset: int) -> int:
        index = bisect.bisect_right(starts, offset) - 1
        return origins[index] + offset - starts[index]

    # A finding's end maps from its last byte, so invisible characters after it stay outside.
    return [Finding(at(f.start), at(f.end - 1) + 1, f.rule_id) for f in engine.find(b"".join(stripped))]


def _find_encoded(
    engine: SecretEngine, data: bytes, limits: Unwrapping, depth: int, budget: list[int]
) -> list[Finding]:
    """Findings for encoded runs whose decoded text holds a secret: each covers its whole run."""
    found: list[Finding] = []
    for locator, decode in ((_RUN, _decodings), (_ESCAPED, _unescaped)):
        if locator is _ESCAPED and b"\\u" not in data:
            continue  # the usual case: no JSON escapes, no second pass
        locate, size, position = native(locator), len(data), 0
        while budget[0] > 0:
            start, end = locate(UNANCHORED, data, position, size)[0]
            if start < 0:
                break
            position = end if end > start else start + 1
            for low, high in _bounded(data, start, end, limits.max_run):
                for decoded in decode(data[low:high]):
                    budget[0] -= len(decoded)
                    inner = _find(engine, decoded, limits, depth - 1, budget)
                    if inner:
                        found.append(Finding(low, high, inner[0].rule_id))
                        break
    return found


def _bounded(data: bytes, start: int, end: int, max_run: int) -> list[tuple[int, int]]:
    """The run, or the parts of a run longer than ``max_run`` between its dots that are not: a value
    behind a long run of filler joined to it by a dot is still decoded."""
    if end - start < MIN_RUN:
        return []
    if end - start <= max_run:
        return [(start, end)]
    parts, low = [], start
    while low < end:
        dot = data.find(b".", low, end)
        high = end if dot < 0 else dot
        if MIN_RUN <= high - low <= max_run:
            parts.append((low, high))
        low = high + 1
    return parts


def _decodings(run: bytes) -> list[bytes]:
    """What a run decodes to as text, in each encoding it may be written in."""
    candidates: list[bytes] = []
    if b"%" in run:
        if len(_PERCENT.findall(run)) >= 2:
            candidates.append(urllib.parse.unquote_to_bytes(run))
    else:
        for piece in run.strip(b"=.~-_").split(b"."):
            if len(piece) < MIN_RUN:
                continue
            # The first few characters tell binary from text: most runs are decoded no further.
            hex_digits = not len(piece) % 2 and not piece.translate(None, _HEX_DIGITS)
            if hex_digits and _texty(bytes.fromhex(piece[:16].decode("ascii"))):
                candidates.append(bytes.fromhex(piece.decode("ascii")))
            for value in _base64_values(piece):
                if _texty(_base64_decoded(value[:16])):
                    candidates.append(_base64_decoded(value))
    return [text for text in candidates if text and _is_text(text)]


def _base64_values(piece: bytes) -> list[bytes]:
    """The runs of ``piece`` in one base64 alphabet, between padding, long enough to decode.

    A run in one alphabet is one value: a URL-safe value whose first characters
    are also standard ones is not cut at its first ``-`` or ``_``.
    """
    values = []
    for part in piece.split(b"="):
        if len(part) < MIN_RUN:
            continue
        if not part.translate(None, _STANDARD) or not part.translate(None, _URL_SAFE):
            values.append(part)  # the usual case: one alphabet
        else:
            values.extend(value for value in _BASE64.findall(part) if len(value) >= MIN_RUN)
    return values


def _unescaped(run: bytes) -> list[bytes]:
    """A stretch of JSON string content with its escapes decoded."""
    try:
        text = str(json.loads(b'"' + run + b'"')).encode("utf-8", "surrogatepass")
    except ValueError:
        return []
    return [text] if _is_text(text) else []


def _base64_decoded(value: bytes) -> bytes:
    body = value.rstrip(b"=")
    # A value holds one alphabet (see _BASE64): the URL-safe one is decoded as the standard one.
    padded = body.translate(_URL_TO_STANDARD) + b"=" * (-len(body) % 4)
    try:
        return binascii.a2b_base64(padded, strict_mode=True)
    except binascii.Error:
        return b""


def _texty(head: bytes) -> bool:
    """Whether bytes hold only printable ASCII, tab, newline, carriage return or UTF-8 lead and trail bytes."""
    return bool(head) and not head.translate(None, _TEXT_BYTES)


def _is_text(decoded: bytes) -> bool:
    """Whether decoded bytes are UTF-8 text without control characters (not binary)."""
    try:
        text = decoded.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return _CONTROL.search(text) is None
