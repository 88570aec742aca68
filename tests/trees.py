"""Folder trees planted behind a store's back, for tests of walks and removals."""

from __future__ import annotations

import os
from pathlib import Path


def plant_chain(top: Path, depth: int, name: str = "d") -> None:
    """A chain of ``depth`` nested folders ``name`` under ``top`` with a file ``f.md`` at its bottom.

    Made one descriptor at a time: deeper than any path string reaches.
    """
    fd = os.open(top, os.O_RDONLY)
    for _ in range(depth):
        os.mkdir(name, dir_fd=fd)
        child = os.open(name, os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = child
    os.close(os.open("f.md", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=fd))
    os.close(fd)
