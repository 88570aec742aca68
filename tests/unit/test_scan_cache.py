"""A sandbox does not scan a file it read before again, and what it shows is what a fresh scan
of the whole file shows: same redactions, same notes, each path's own actions."""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from sandbox import Sandbox
from sandbox.decision import NullAuditSink
from sandbox.paths import MemoryPath, canonicalize
from sandbox.policy import parse_policy
from sandbox.redaction import ScanCache, SecretGuard
from sandbox.storage import LocalStorage
from tests.secrets_corpus import SECRET_MAKERS, generate, pem

POLICY = parse_policy(
    'schema_version = 1\nid = "c"\nrevision = 1\n[[secrets.paths]]\nglob = "/memories/public/**"\naction = "allow"\n',
    source="c",
)
GUARD = SecretGuard(POLICY.secrets)
DOCUMENTS = [document.text for document in generate(seed=7, documents=60)]
PATHS = [canonicalize("/memories/notes.md"), canonicalize("/memories/public/keys.md")]
KEY = pem(random.Random(3), "RSA PRIVATE KEY")


@given(
    parts=st.lists(st.sampled_from(DOCUMENTS), min_size=1, max_size=8),
    padding=st.integers(0, 6000),
    key_at=st.none() | st.integers(0, 8),
)
@example(parts=[DOCUMENTS[0]], padding=5000, key_at=0)  # a private key that starts the file
@example(parts=[DOCUMENTS[1]], padding=4000, key_at=1)  # one that ends it, unterminated below
@settings(max_examples=60, deadline=None)
def test_a_text_read_again_is_redacted_as_a_fresh_scan_does(parts: list[str], padding: int, key_at: int | None) -> None:
    pieces = ["notes " * (padding // 6), *parts]
    if key_at is not None:
        pieces.insert(min(key_at, len(pieces)), KEY if key_at % 2 == 0 else KEY.rsplit("\n", 1)[0])
    text = "\n".join(pieces) + "\n"
    seen = ScanCache(entries=2)
    for path in PATHS:  # the findings are shared, each path's actions are its own
        fresh = GUARD.scan_read(text, path)
        assert GUARD.scan_read(text, path, seen) == fresh
        assert GUARD.scan_read(text, path, seen) == fresh
    assert len(seen) <= 2


def test_a_file_another_tool_changed_is_scanned_again(tmp_path: Path) -> None:
    """A file viewed without a secret, then rewritten by another tool with one (the same size):
    the next view redacts it."""
    box = Sandbox(policy=POLICY, storage=LocalStorage(tmp_path / "store"), audit=NullAuditSink())
    value, line = SECRET_MAKERS["github-pat"](random.Random(5))
    plain = "x" * len(line)
    filler = "\n".join(["an ordinary note line"] * 400)
    box.execute({"command": "create", "path": "/memories/n.md", "file_text": f"{filler}\n{plain}\n"})
    for _ in range(2):
        shown = box.execute({"command": "view", "path": "/memories/n.md"})
        assert not shown.is_error and plain in str(shown.content)
    (tmp_path / "store" / "n.md").write_text(f"{filler}\n{line}\n")
    shown = box.execute({"command": "view", "path": "/memories/n.md"})
    assert not shown.is_error and value not in str(shown.content) and "REDACTED" in str(shown.content).upper()


def test_the_cache_is_bounded_and_keeps_the_latest() -> None:
    seen = ScanCache(entries=3)
    texts = [f"{n} " + "words " * 1000 for n in range(5)]
    path: MemoryPath = PATHS[0]
    for text in texts:
        GUARD.scan_read(text, path, seen)
    assert len(seen) == 3
    GUARD.scan_read("short text, not kept", path, seen)  # under 4 KiB: scanned each time, never kept
    assert len(seen) == 3
