"""Headless Chromium for the tests of the HTML report: the page's DOM after its script ran, and a screenshot."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
from pathlib import Path

import pytest


def chromium() -> str:
    """Chromium's path; a skip where it is missing, a failure in CI (``.ci/run`` installs it)."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is required in CI (.ci/run installs it)")
        pytest.skip("Chromium not installed")
    return found


def _run(profile: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    argv = [
        chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--no-first-run", "--disable-sync", "--disable-component-update", f"--user-data-dir={profile}", *arguments,
    ]  # fmt: skip
    done = subprocess.run(argv, capture_output=True, text=True, timeout=180, check=False)  # noqa: S603 - fixed argv
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def dom(page: Path, profile: Path, fragment: str = "") -> str:
    """The page's DOM once loaded (its script has run), opened at ``#fragment``."""
    url = page.as_uri() + (f"#{fragment}" if fragment else "")
    return _run(profile, "--dump-dom", url).stdout


def screenshot(page: Path, profile: Path, out: Path, size: tuple[int, int] = (1400, 900)) -> tuple[int, int]:
    """A PNG of the page's first screen; returns its width and height as the PNG header states them."""
    _run(profile, f"--window-size={size[0]},{size[1]}", f"--screenshot={out}", page.as_uri())
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height
