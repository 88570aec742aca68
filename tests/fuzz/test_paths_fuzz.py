"""Properties of canonicalize() over hostile and random input."""

from __future__ import annotations

import os
import posixpath
import unicodedata
import urllib.parse

from hypothesis import example, given

from sandbox.errors import PathDenied
from sandbox.paths import canonicalize
from tests.strategies import any_paths, dangerous_paths


def downstream_views(text: str) -> list[str]:
    """What later layers might make of a canonical path: decode, NFKC, backslash as separator."""
    decoded = text
    for _ in range(3):
        decoded = urllib.parse.unquote(decoded)
    nfkc = unicodedata.normalize("NFKC", decoded)
    return [text, decoded, nfkc, nfkc.replace("\\", "/")]


def assert_inside(text: str) -> None:
    for view in downstream_views(text):
        resolved = posixpath.normpath(view)
        assert resolved == "/memories" or resolved.startswith("/memories/"), (text, view)


@given(dangerous_paths)
@example("/memories/%2e%2e/x")
@example("/memories/%252e%252e%252fx")
@example("/memories/\uff0e\uff0e\uff0fx")
@example("/memories/%c0%ae%c0%ae/x")
@example("/memories\\..\\x")
@example("/memories/a\u2215..\u2215b")
@example("/memories/\u2025/x")
@example("/memories/%25u002e/x")
def test_dangerous_alphabet_rejected_or_inside(raw: str) -> None:
    """Any string of dots, slashes, escapes and look-alikes is refused or stays inside /memories."""
    try:
        path = canonicalize(raw)
    except PathDenied:
        return
    assert_inside(str(path))


@given(any_paths)
@example("/memories/notes-e\u0301.md")
@example("/memories/a/../b")
@example("/memories/%2561.md")
def test_idempotent(raw: str) -> None:
    """Canonicalising a canonical path gives it back unchanged."""
    try:
        path = canonicalize(raw)
    except PathDenied:
        return
    assert canonicalize(str(path)) == path
    assert str(canonicalize(str(path))) == str(path)


@given(any_paths)
@example("/memories/../x")
@example("/memories/a/../../x")
def test_never_outside_a_real_root(raw: str) -> None:
    """Joined onto a host folder, a canonical path never leaves it."""
    try:
        path = canonicalize(raw)
    except PathDenied:
        return
    base = "/srv/store"
    joined = os.path.normpath(os.path.join(base, *path.parts))
    assert joined == base or joined.startswith(base + "/")
    assert all(part not in ("", ".", "..") and "/" not in part and "\x00" not in part for part in path.parts)


@given(any_paths)
def test_denial_messages_are_clean(raw: str) -> None:
    """A denial message is short, category-level and never echoes the input."""
    try:
        canonicalize(raw)
    except PathDenied as exc:
        assert exc.message.startswith("Error: Access denied: ")
        assert len(exc.message) < 120
        assert len(raw) < 12 or raw not in exc.message
