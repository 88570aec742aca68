"""A progress bar for long runs, on a terminal only: on stderr, redrawn in place, never in a pipe."""

from __future__ import annotations

import sys
import time
from typing import Final, TextIO

__all__ = ["Progress", "progress_bar"]

_WIDTH: Final = 30
#: Redraws at most this often (a bar redrawn for each of a million files would cost more than the work).
_INTERVAL: Final = 0.1


class Progress:
    """``progress(done, total, detail)`` redraws the bar; the last step (done == total) ends its line."""

    def __init__(self, label: str, stream: TextIO) -> None:
        self._label, self._stream, self._drawn, self._open = label, stream, 0.0, False

    def __call__(self, done: int, total: int, detail: str = "") -> None:
        last = done >= total
        now = time.monotonic()
        if not last and now - self._drawn < _INTERVAL:
            return
        self._drawn, self._open = now, not last
        filled = round(_WIDTH * done / max(total, 1))
        line = f"\r{self._label} [{'#' * filled}{'.' * (_WIDTH - filled)}] {done:,}/{total:,}"
        print(line + (f" {detail}" if detail else ""), end="\n" if last else "", file=self._stream, flush=True)

    def close(self) -> None:
        """End a bar left unfinished (a run that stopped early), so what follows starts a line of its own."""
        if self._open:
            print(file=self._stream, flush=True)
            self._open = False


def progress_bar(label: str, stream: TextIO | None = None) -> Progress | None:
    """A bar labelled ``label`` when ``stream`` (stderr) is a terminal; None otherwise."""
    stream = sys.stderr if stream is None else stream
    return Progress(label, stream) if stream.isatty() else None
