"""canonicalize(): one regression row per attack, one per benign form."""

from __future__ import annotations

import unicodedata

import pytest

from sandbox.errors import PathDenied
from sandbox.paths import ROOT, MemoryPath, PathLimits, canonicalize, is_canonical_name

# (family, raw path, expected denial category). Every row is an attack seen in the
# wild or in a handler's advisory; each must be refused with that category.
ATTACKS: list[tuple[str, str, str]] = [
    # ../ in every position
    ("dotdot", "/memories/../etc/passwd", "traversal"),
    ("dotdot", "/memories/..", "traversal"),
    ("dotdot", "/memories/../", "traversal"),
    ("dotdot", "/memories/a/../../etc", "traversal"),
    ("dotdot", "/memories/a/b/../../../x", "traversal"),
    ("dotdot", "/memories/./../x", "traversal"),
    ("dotdot", "/memories//..//x", "traversal"),
    ("dotdot", "/memories/../memories/x", "traversal"),
    ("dotdot", "/../memories/x", "outside_root"),
    ("dotdot", "../memories/x", "outside_root"),
    ("dotdot", "/memories/../../../../../../../../etc/shadow", "traversal"),
    # percent-encoding, single
    ("percent", "/memories/%2e%2e/x", "traversal"),
    ("percent", "/memories/%2E%2E/x", "traversal"),
    ("percent", "/memories%2f..%2f..%2fetc", "traversal"),
    ("percent", "/memories/..%2fx", "traversal"),
    ("percent", "/memories/%2e%2e%2f%2e%2e%2fetc", "traversal"),
    ("percent", "%2fmemories%2f..%2fx", "traversal"),
    ("percent", "/memories/.%2e/x", "traversal"),
    ("percent", "/memories/%00.md", "control_character"),
    ("percent", "/memories/%5c..%5cx", "reserved_character"),
    # double and triple encoding
    ("double_encoding", "/memories/%252e%252e/x", "traversal"),
    ("double_encoding", "/memories/%252e%252e%252fx", "traversal"),
    ("double_encoding", "/memories%252f..%252fx", "traversal"),
    ("triple_encoding", "/memories/%25252e%25252e/x", "traversal"),
    ("triple_encoding", "/memories/%2525252e%2525252e/x", "traversal"),
    ("over_encoding", "/memories/%252525252e%252525252e/x", "encoding"),
    # %u forms
    ("percent_u", "/memories/%u002e%u002e/x", "encoding"),
    ("percent_u", "/memories/%U002E%U002E%u2215x", "encoding"),
    ("percent_u", "/memories/%25u002e/x", "encoding"),
    # overlong UTF-8
    ("overlong_utf8", "/memories/%c0%ae%c0%ae/x", "encoding"),
    ("overlong_utf8", "/memories/%c0%2e%c0%2e/x", "encoding"),
    ("overlong_utf8", "/memories/%e0%80%ae%e0%80%ae/x", "encoding"),
    ("overlong_utf8", "/memories/%f0%80%80%ae/x", "encoding"),
    ("overlong_utf8", "/memories/%c0%af", "encoding"),
    ("overlong_utf8", "/memories/%c1%9c", "encoding"),
    ("invalid_utf8", "/memories/%ed%a0%80.md", "encoding"),
    ("invalid_utf8", "/memories/%ff%fe.md", "encoding"),
    ("invalid_utf8", "/memories/\ud800.md", "encoding"),
    # full-width and other look-alike dots and slashes
    ("lookalike", "/memories/\uff0e\uff0e/x", "lookalike"),
    ("lookalike", "/memories/\uff0e\uff0e\uff0fx", "lookalike"),
    ("lookalike", "/memories/a\uff0fb", "lookalike"),
    ("lookalike", "/memories/\u2024\u2024/x", "lookalike"),
    ("lookalike", "/memories/\u2025/x", "lookalike"),
    ("lookalike", "/memories/\u2026", "lookalike"),
    ("lookalike", "/memories/a\u2215..\u2215b", "lookalike"),
    ("lookalike", "/memories/a\u2044b", "lookalike"),
    ("lookalike", "/memories/a\u29f8b", "lookalike"),
    ("lookalike", "/memories/\ufe52\ufe52/x", "lookalike"),
    ("lookalike", "/memories/a\uff3cb", "lookalike"),
    ("lookalike", "/memories/a\ufe68b", "lookalike"),
    ("lookalike", "/memories/a\u2216b", "lookalike"),
    ("lookalike", "/memories/notes\uff1amd", "lookalike"),
    ("lookalike", "/memories/a\u3002md", "lookalike"),
    ("lookalike", "/memories/%ef%bc%8e%ef%bc%8e/x", "lookalike"),
    ("lookalike", "/memories/\uff05\uff12\uff45.md", "lookalike"),
    ("lookalike", "/memories/a\u00a0b.md", "lookalike"),
    ("lookalike", "/memories/\u0338notes.md", "lookalike"),
    # zero-width and bidi characters
    ("invisible", "/memories/no\u200btes.md", "invisible_character"),
    ("invisible", "/memories/notes\u200d.md", "invisible_character"),
    ("invisible", "/memories/\u200c..\u200c/x", "invisible_character"),
    ("invisible", "/memories/\ufeffnotes.md", "invisible_character"),
    ("invisible", "/memories/evil\u202egpj.md", "invisible_character"),
    ("invisible", "/memories/a\u2066b\u2069.md", "invisible_character"),
    ("invisible", "/memories/soft\u00adhyphen.md", "invisible_character"),
    ("invisible", "/memories/line\u2028sep.md", "invisible_character"),
    ("invisible", "/memories/priv\ue000.md", "invisible_character"),
    ("invisible", "/memories/unassigned\U000e0080.md", "invisible_character"),
    ("invisible", "/memories/%e2%80%8b.md", "invisible_character"),
    # default-ignorable marks and fillers of other categories: a grapheme joiner, variation
    # selectors not after a symbol, Hangul fillers (each rendered as nothing)
    ("invisible", "/memories/notes\u034f.md", "invisible_character"),
    ("invisible", "/memories/notes\ufe0f.md", "invisible_character"),
    ("invisible", "/memories/notes\U000e0100.md", "invisible_character"),
    ("invisible", "/memories/note\u3164s.md", "invisible_character"),
    ("invisible", "/memories/\u2764\ufe0f\ufe0f.md", "invisible_character"),
    # backslash, drive letters and UNC forms
    ("backslash", "/memories\\..\\..\\etc", "reserved_character"),
    ("backslash", "/memories/..\\x", "reserved_character"),
    ("backslash", "\\memories\\x", "reserved_character"),
    ("drive", "C:/memories/x", "reserved_character"),
    ("drive", "/memories/C:/Windows/win.ini", "reserved_character"),
    ("drive", "C:\\Windows\\System32", "reserved_character"),
    ("unc", "//server/share/memories/x", "unc"),
    ("unc", "//memories/x", "unc"),
    ("unc", "\\\\server\\share", "reserved_character"),
    ("unc", "%2f%2fserver/memories", "unc"),
    # NUL and control characters
    ("control", "/memories/notes.md\x00.png", "control_character"),
    ("control", "/memories/\x00", "control_character"),
    ("control", "/memories/a\nb.md", "control_character"),
    ("control", "/memories/a\rb.md", "control_character"),
    ("control", "/memories/a\tb.md", "control_character"),
    ("control", "/memories/a\x1b[31mb.md", "control_character"),
    ("control", "/memories/a\x7fb.md", "control_character"),
    ("control", "/memories/a\x85b.md", "invisible_character"),
    ("control", "/memories/%0a.md", "control_character"),
    # absolute paths elsewhere
    ("absolute", "/etc/passwd", "outside_root"),
    ("absolute", "/", "outside_root"),
    ("absolute", "/tmp/memories/x", "outside_root"),
    ("absolute", "memories/x", "outside_root"),
    ("absolute", "x.md", "outside_root"),
    ("absolute", "~/memories", "outside_root"),
    ("absolute", "file:///memories/x", "reserved_character"),
    ("absolute", "/./memories/x", "outside_root"),
    # prefix confusion
    ("prefix", "/memoriesX", "outside_root"),
    ("prefix", "/memories_backup/x", "outside_root"),
    ("prefix", "/memories-old", "outside_root"),
    ("prefix", "/memories.md", "outside_root"),
    ("prefix", "/Memories/x", "outside_root"),
    ("prefix", "/MEMORIES", "outside_root"),
    ("prefix", "/memories%20/x", "outside_root"),
    ("prefix", "/memories\u200b/x", "invisible_character"),
    ("prefix", "/mem%6fries/../../x", "traversal"),
    # trailing dots and spaces
    ("trailing", "/memories/notes.md.", "trailing_dot_space"),
    ("trailing", "/memories/notes.md ", "trailing_dot_space"),
    ("trailing", "/memories/notes.md. . ", "trailing_dot_space"),
    ("trailing", "/memories/folder./x.md", "trailing_dot_space"),
    ("trailing", "/memories/ leading.md", "trailing_dot_space"),
    ("trailing", "/memories/.. /x", "dot_name"),
    ("trailing", "/memories/ /x", "dot_name"),
    ("dot_only", "/memories/...", "dot_name"),
    ("dot_only", "/memories/..../x", "dot_name"),
    # very long paths and names
    ("long", "/memories/" + "a" * 256, "too_long"),
    ("long", "/memories/" + "\u00e9" * 128, "too_long"),
    ("long", "/memories/" + "/".join(["abcdefgh"] * 120), "too_long"),
    ("long", "/memories/" + "%61" * 1100, "too_long"),
    # Windows device names, 8.3 names, alternate data streams
    ("device", "/memories/CON", "device_name"),
    ("device", "/memories/nul.txt", "device_name"),
    ("device", "/memories/COM1.md", "device_name"),
    ("device", "/memories/lpt1", "device_name"),
    ("device", "/memories/aux.tar.gz", "device_name"),
    ("device", "/memories/PRN .md", "device_name"),
    ("device", "/memories/COM\u00b9.md", "device_name"),
    ("device", "/memories/CONIN$", "device_name"),
    ("short_name", "/memories/NOTES~1.MD", "short_name"),
    ("short_name", "/memories/progra~1/x", "short_name"),
    ("ads", "/memories/notes.md:hidden", "reserved_character"),
    ("ads", "/memories/notes.md::$DATA", "reserved_character"),
    # other characters Windows reserves
    ("reserved", "/memories/a*b.md", "reserved_character"),
    ("reserved", "/memories/a?b.md", "reserved_character"),
    ("reserved", "/memories/a|b.md", "reserved_character"),
    ("reserved", '/memories/a"b.md', "reserved_character"),
    ("reserved", "/memories/<a>.md", "reserved_character"),
    # the store's own files
    ("reserved", "/memories/.memory-sandbox/state", "reserved_name"),
    ("reserved", "/memories/a/.memory-sandbox-tmp-1-2", "reserved_name"),
    ("reserved", "/memories/%2ememory-sandbox", "reserved_name"),
    # the same folder on a case-insensitive file system (APFS, NTFS folds case and the long s)
    ("reserved", "/memories/.Memory-Sandbox/manifest.json", "reserved_name"),
    ("reserved", "/memories/.MEMORY-SANDBOX", "reserved_name"),
    ("reserved", "/memories/.memory-\u017fandbox/rate", "reserved_name"),
    # empty
    ("empty", "", "empty"),
]

BENIGN: list[tuple[str, str]] = [
    ("/memories", "/memories"),
    ("/memories/", "/memories"),
    ("/memories/.", "/memories"),
    ("/memories/a/..", "/memories"),
    ("%2fmemories", "/memories"),
    ("/memories//notes.md", "/memories/notes.md"),
    ("/memories/./notes.md", "/memories/notes.md"),
    ("/memories/a/../notes.md", "/memories/notes.md"),
    ("/memories/notes-\u00e9.md", "/memories/notes-\u00e9.md"),
    ("/memories/notes-e\u0301.md", "/memories/notes-\u00e9.md"),
    ("/memories/v1.2.md", "/memories/v1.2.md"),
    ("/memories/v1.2.3-beta.md", "/memories/v1.2.3-beta.md"),
    ("/memories/a..b.md", "/memories/a..b.md"),
    ("/memories/..notes.md", "/memories/..notes.md"),
    ("/memories/...md", "/memories/...md"),
    ("/memories/.config", "/memories/.config"),
    ("/memories/.hidden.md", "/memories/.hidden.md"),
    ("/memories/my notes.md", "/memories/my notes.md"),
    ("/memories/[draft] plan.md", "/memories/[draft] plan.md"),
    ("/memories/{braces}.md", "/memories/{braces}.md"),
    ("/memories/c++ notes.md", "/memories/c++ notes.md"),
    ("/memories/a,b.md", "/memories/a,b.md"),
    ("/memories/it's.md", "/memories/it's.md"),
    ("/memories/what!.md", "/memories/what!.md"),
    ("/memories/a&b.md", "/memories/a&b.md"),
    ("/memories/a=b.md", "/memories/a=b.md"),
    ("/memories/user@example.md", "/memories/user@example.md"),
    ("/memories/hash#tag.md", "/memories/hash#tag.md"),
    ("/memories/semi;colon.md", "/memories/semi;colon.md"),
    ("/memories/dollar$sign.md", "/memories/dollar$sign.md"),
    ("/memories/notes (1).md", "/memories/notes (1).md"),
    ("/memories/100%.md", "/memories/100%.md"),
    ("/memories/~tilde.md", "/memories/~tilde.md"),
    (
        "/memories/\u0437\u0430\u043c\u0435\u0442\u043a\u0438.md",
        "/memories/\u0437\u0430\u043c\u0435\u0442\u043a\u0438.md",
    ),
    ("/memories/\u4e2d\u6587\u7b14\u8bb0.md", "/memories/\u4e2d\u6587\u7b14\u8bb0.md"),
    ("/memories/\U0001f9e0.md", "/memories/\U0001f9e0.md"),
    ("/memories/\u00b7middle\u00b7dot.md", "/memories/\u00b7middle\u00b7dot.md"),
    ("/memories/etc/passwd", "/memories/etc/passwd"),
    ("/memories/memories/x.md", "/memories/memories/x.md"),
    ("/memories/projects/alpha/notes.md", "/memories/projects/alpha/notes.md"),
    ("/memories/my%20notes.md", "/memories/my notes.md"),
    ("/memories/CONTRIBUTING.md", "/memories/CONTRIBUTING.md"),
    ("/memories/console.md", "/memories/console.md"),
    ("/memories/" + "a" * 255, "/memories/" + "a" * 255),
    ("/memories/\u2764\ufe0f.md", "/memories/\u2764\ufe0f.md"),  # an emoji in its emoji presentation
]


class TestCanonicalizeAttacks:
    @pytest.mark.parametrize(
        ("family", "raw", "category"), ATTACKS, ids=[f"{f}-{i}" for i, (f, _, _) in enumerate(ATTACKS)]
    )
    def test_refused_with_category(self, family: str, raw: str, category: str) -> None:
        """Each attack spelling is refused, with the category that names it."""
        with pytest.raises(PathDenied) as info:
            canonicalize(raw)
        assert info.value.category == category

    @pytest.mark.parametrize(("family", "raw", "category"), ATTACKS[:40])
    def test_message_does_not_echo_input(self, family: str, raw: str, category: str) -> None:
        """Denials state a category; they never echo the attacker's text."""
        with pytest.raises(PathDenied) as info:
            canonicalize(raw)
        assert info.value.message.startswith("Error: Access denied: ")
        assert raw not in info.value.message or raw == ""

    def test_families_cover_design(self) -> None:
        """The table covers every attack family DESIGN.md section 5 lists."""
        families = {family for family, _, _ in ATTACKS}
        expected = {
            "dotdot", "percent", "double_encoding", "triple_encoding", "percent_u", "overlong_utf8",
            "lookalike", "invisible", "backslash", "drive", "unc", "control", "absolute", "prefix",
            "trailing", "dot_only", "long", "device", "short_name", "ads",
        }  # fmt: skip
        assert expected <= families


class TestCanonicalizeBenign:
    @pytest.mark.parametrize(("raw", "expected"), BENIGN)
    def test_accepted(self, raw: str, expected: str) -> None:
        """Ordinary names pass, untouched but for canonical form."""
        assert str(canonicalize(raw)) == expected

    def test_nfc_and_nfd_name_one_file(self) -> None:
        """The precomposed and decomposed spellings of a name are the same path."""
        nfc = canonicalize("/memories/" + unicodedata.normalize("NFC", "caf\u00e9.md"))
        nfd = canonicalize("/memories/" + unicodedata.normalize("NFD", "caf\u00e9.md"))
        assert nfc == nfd and hash(nfc) == hash(nfd)

    def test_idempotent_on_benign(self) -> None:
        """Canonicalising a canonical path gives the same path."""
        for raw, _ in BENIGN:
            path = canonicalize(raw)
            assert canonicalize(str(path)) == path


class TestLimits:
    def test_custom_path_limit(self) -> None:
        """A smaller configured path limit is applied."""
        with pytest.raises(PathDenied) as info:
            canonicalize("/memories/" + "a" * 60, PathLimits(max_path_bytes=64))
        assert info.value.category == "too_long"

    def test_decode_rounds_bound(self) -> None:
        """A path needing more decoding passes than configured is refused."""
        with pytest.raises(PathDenied) as info:
            canonicalize("/memories/%252e.md", PathLimits(max_decode_rounds=1))
        assert info.value.category == "encoding"

    def test_name_limit_in_bytes(self) -> None:
        """Name length is counted in UTF-8 bytes, not characters."""
        canonicalize("/memories/" + "\u00e9" * 127)
        with pytest.raises(PathDenied):
            canonicalize("/memories/" + "\u00e9" * 128)


class TestMemoryPath:
    def test_only_canonicalize_constructs(self) -> None:
        """MemoryPath cannot be built from raw parts outside paths.py."""
        with pytest.raises(TypeError):
            MemoryPath(("..",), object())

    def test_root(self) -> None:
        """The root is its own parent and has no parts."""
        assert ROOT.is_root and ROOT.parent == ROOT and str(ROOT) == "/memories"

    def test_is_relative_to(self) -> None:
        """Containment compares whole names, not string prefixes."""
        a = canonicalize("/memories/a")
        assert canonicalize("/memories/a/b").is_relative_to(a)
        assert not canonicalize("/memories/ab").is_relative_to(a)

    def test_suffix(self) -> None:
        """The suffix is the lower-cased last extension."""
        assert canonicalize("/memories/x/Photo.PNG").suffix == ".png"
        assert canonicalize("/memories/.config").suffix == ".config"
        assert canonicalize("/memories/README").suffix == ""

    @pytest.mark.parametrize("name", ["..", ".", "", "a/b", "a%2fb", "e\u0301", "CON", "a\x00", "a:b"])
    def test_child_refuses_non_canonical_names(self, name: str) -> None:
        """Names read back from storage must already be canonical to be listed or used."""
        with pytest.raises(PathDenied):
            ROOT.child(name)
        assert not is_canonical_name(name)

    def test_child_accepts_canonical_name(self) -> None:
        """A canonical name read from storage gives the same path canonicalize gives."""
        assert ROOT.child("notes.md") == canonicalize("/memories/notes.md")
