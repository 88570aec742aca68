"""Hypothesis strategies shared by the fuzz tests."""

from __future__ import annotations

from hypothesis import strategies as st

# Pieces an attacker builds escapes from: dots, slashes, escapes, look-alikes, controls.
DANGEROUS_PIECES = [
    ".", "..", "/", "\\", "%", "%2e", "%2E", "%2f", "%2F", "%5c", "%25", "%00", "%c0%ae", "%c0%af",
    "%e0%80%ae", "%u002e", "%u2215", "0", "2", "5", "e", "f", "c", "a",
    "\uff0e", "\uff0f", "\u2024", "\u2025", "\u2215", "\u2044", "\ufe52", "\uff3c", "\u3002",
    "\x00", "\n", "\u200d", "\u200b", "\u202e", "\ufeff", "\u0301", " ", ":", "~1",
    "memories", "memoriesX", "etc", "CON", "nul",
]  # fmt: skip

dangerous_paths = st.one_of(
    st.lists(st.sampled_from(DANGEROUS_PIECES), max_size=14).map(lambda pieces: "/memories" + "".join(pieces)),
    st.lists(st.sampled_from(DANGEROUS_PIECES), max_size=14).map("".join),
)

name_chars = st.characters(codec="utf-8", exclude_characters="/")
names = st.text(name_chars, min_size=1, max_size=20)
any_paths = st.one_of(
    st.text(max_size=60),
    st.lists(names, max_size=5).map(lambda parts: "/memories/" + "/".join(parts)),
    dangerous_paths,
)

json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=30), st.binary(max_size=8)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)),
    max_leaves=8,
)
command_names = st.sampled_from(["view", "create", "str_replace", "insert", "delete", "rename", "bogus", ""])
field_names = st.sampled_from(
    ["command", "path", "old_path", "new_path", "file_text", "old_str", "new_str", "insert_line", "insert_text",
     "view_range", "extra"]
)  # fmt: skip
tool_inputs = st.one_of(
    json_values,
    st.dictionaries(field_names, st.one_of(json_values, any_paths), max_size=6).flatmap(
        lambda fields: command_names.map(lambda name: {**fields, "command": name})
    ),
)
