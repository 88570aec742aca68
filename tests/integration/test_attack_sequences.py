"""``memory-sandbox attack``'s multi-call families: what they find in a handler that checks only the
paths a call names, what they report of the SDK's handler, and that the sandbox passes them."""

from __future__ import annotations

from pathlib import Path

import pytest

from sandbox.attack import SEQUENCES
from tests.integration.test_attack import TARGETS, attack

ALL = ",".join(SEQUENCES)
NO_FLOOD = ",".join(family for family in SEQUENCES if family != "folder_flood")


@pytest.mark.slow
def test_named_path_checks_fall_to_compositions(tmp_path: Path) -> None:
    """Depth capped on the named path, redaction and hiding in view only, a read-only folder checked by
    name: each is bypassed by a sequence of calls, and a bypass fails the run without --strict."""
    code, output, report = attack(tmp_path, f"{TARGETS}:names_only", "--families", NO_FLOOD, "--race-seconds", "0")
    families = report["families"]
    for family in ("nested_renames", "oracle_redacted", "oracle_hidden", "ancestor_moves"):
        assert families[family].get("bypass", 0) >= 1, (family, output)
    assert code == 1 and "bypass" in output and report["totals"]["escape"] == 0


@pytest.mark.slow
def test_sdk_handler_reported(tmp_path: Path) -> None:
    """The SDK's handler has no depth limit, no bound on files or folders, shows a planted key, takes
    name twins, and protects or hides nothing: reported, failing only --strict."""
    code, output, report = attack(tmp_path, "sandbox.attack.targets:sdk", "--families", ALL, "--race-seconds", "0")
    families = report["families"]
    for family in ("nested_renames", "folder_flood", "oracle_redacted", "twin_names"):
        assert families[family].get("unguarded", 0) >= 1, (family, output)
    assert families["ancestor_moves"]["skipped"] == families["oracle_hidden"]["skipped"] == 1
    assert code == 0 and report["totals"]["bypass"] == report["totals"]["escape"] == 0
    strict, _, _ = attack(tmp_path, "sandbox.attack.targets:sdk", "--families", "twin_names", "--strict",
                          "--race-seconds", "0")  # fmt: skip
    assert strict == 1


@pytest.mark.slow
def test_sandbox_on_its_own_store_passes(tmp_path: Path) -> None:
    """The sandbox on a SQLite store (memory kept off the attacked tree) passes every family --strict,
    with nothing skipped: the gate's policy makes the planted rules read-only and the diary hidden."""
    code, output, report = attack(
        tmp_path, "sandbox.attack.targets:sandboxed_sqlite", "--families", ALL, "--strict", "--race-seconds", "0"
    )
    assert code == 0, output
    assert report["store"] == "its own" and report["skipped"] == 0 and report["cases"] >= 25
