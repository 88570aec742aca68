"""``memory-sandbox attack``: score any memory handler against escapes from ``/memories``.

:mod:`world` builds the folder tree a handler is attacked in (canaries outside its
root, planted links inside) and tells what changed; :mod:`corpus` generates the
attacks; :mod:`worker` runs the handler in a process of its own; :mod:`race` swaps
folders for symlinks while the handler works; :mod:`runner` puts it together and
:mod:`sequences` composes calls into multi-call attacks; :mod:`report` renders the results;
:mod:`targets` are the handlers we attack in CI.
"""

from __future__ import annotations

from typing import Final

__all__ = ["FAMILIES", "SEQUENCES"]

#: The multi-call families (:mod:`sequences`): compositions of calls, judged on what they leave.
SEQUENCES: Final = (
    "nested_renames",
    "folder_flood",
    "oracle_redacted",
    "oracle_hidden",
    "ancestor_moves",
    "twin_names",
)

#: Every attack family, in the order they run; ``--families`` takes any of them.
#: Kept here, free of imports, so the command line checks a typo before loading anything
#: (a test holds it equal to what the corpus generates).
FAMILIES: Final = (
    "dotdot",
    "dot_segments",
    "percent",
    "double_encoding",
    "triple_encoding",
    "percent_u",
    "overlong_utf8",
    "fullwidth",
    "lookalike_dots",
    "lookalike_slashes",
    "invisible",
    "bidi",
    "backslash",
    "nul_control",
    "trailing_dots_spaces",
    "absolute",
    "host_files",
    "prefix_confusion",
    "relative",
    "windows_drive",
    "unc",
    "symlink",
    "hardlink",
    "long",
    "device_names",
    "short_names_streams",
    "root",
    "malformed",
    *SEQUENCES,
    "race",
)
