"""Text helpers: line windows, numbering, sizes, truncation."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from sandbox.views import count_lines, human_size, numbered, split_lines, truncate_view, view_window

texts = st.text(st.sampled_from(["a", "b", "\n", "\r", " ", "é"]), max_size=60)


class TestViewWindow:
    @given(texts, st.integers(1, 30), st.integers(-1, 30))
    @example("", 1, -1)
    @example("a\n", 2, -1)
    @example("a\n\n", 2, -1)
    @example("a\nb", 2, 2)
    def test_matches_plain_split(self, text: str, first: int, end: int) -> None:
        """With room for everything, the window is exactly the lines a full split gives."""
        lines = split_lines(text)
        window = view_window(text, first, end, max_chars=10_000)
        if first > max(len(lines), 1):
            assert window is None
        else:
            expected = lines[first - 1 :] if end == -1 else lines[first - 1 : max(end, first - 1)]
            assert window == expected[: (end - first + 1) if end != -1 else None]
        assert count_lines(text) == len(lines)

    def test_bounded_by_max_chars(self) -> None:
        """Only about max_chars characters of text are split."""
        window = view_window("x\n" * 100_000, 1, -1, max_chars=100)
        assert window is not None and len(window) <= 51

    def test_huge_single_line(self) -> None:
        """A single huge line is shown as its prefix, not dropped."""
        window = view_window("y" * 50_000, 1, -1, max_chars=100)
        assert window == ["y" * 101]


class TestFormatting:
    def test_numbered(self) -> None:
        """Numbers are right-aligned in six columns and followed by a tab."""
        assert numbered(["a", "b"], 9) == "     9\ta\n    10\tb"

    @pytest.mark.parametrize(
        ("size", "text"),
        [(0, "0B"), (1023, "1023B"), (1024, "1.0K"), (1536, "1.5K"), (12 * 1024, "12K"), (1258291, "1.2M")],
    )
    def test_human_size(self, size: int, text: str) -> None:
        """Sizes read as du -h shows them."""
        assert human_size(size) == text

    def test_truncate_hint_names_next_line(self) -> None:
        """A cut on a line boundary names the next line to view."""
        text = numbered([f"line {n} " + "z" * 40 for n in range(1, 500)], 1)
        cut = truncate_view(text, 2000)
        assert len(cut) <= 2000
        shown = int(cut.splitlines()[-2].split("\t")[0])
        assert cut.endswith(f"view with view_range [{shown + 1}, -1].]")

    def test_truncate_leaves_short_text(self) -> None:
        """Text under the limit is returned unchanged."""
        assert truncate_view("short", 2000) == "short"
