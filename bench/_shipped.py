"""Writing a trained model where the package ships it, or checking that the shipped one is what training gives."""

from __future__ import annotations

from pathlib import Path

from sandbox.linear import LinearModel


def write_or_check(model: LinearModel, path: Path, root: Path, *, check: bool, seconds: float) -> int:
    """With ``check``: 0 when ``path`` holds exactly what ``model`` dumps, else 1. Otherwise write it."""
    text = model.dumps()
    name = path.relative_to(root)
    if check:
        same = path.read_text(encoding="utf-8") == text
        print(f"{name}: {'as trained' if same else 'differs from what training gives'}")
        return 0 if same else 1
    path.write_text(text, encoding="utf-8")
    print(f"wrote {name} ({len(text):,} bytes) in {seconds:.1f} s; threshold {model.threshold:.4f}")
    return 0
