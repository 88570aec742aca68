"""What the caller of one sandbox may see, as its policy says: the :class:`~sandbox.effects.Lens` of a policy.

Stored text is shown with every secret the policy does not allow redacted (when
``[secrets] scan_reads`` is on), and a path on which a ``[[rules]]`` entry denies
``view`` is hidden: not listed, and no edit can find it. Plans match edits on what
this lens shows, so no answer depends on what it hides.
"""

from __future__ import annotations

from sandbox.decision import Note
from sandbox.paths import MemoryPath
from sandbox.redaction import ScanCache, SecretGuard
from sandbox.stages import AccessRules

__all__ = ["PolicyLens"]


class PolicyLens:
    """Redaction by a :class:`SecretGuard`, hiding by the ``view`` rules of :class:`AccessRules`."""

    def __init__(self, secrets: SecretGuard | None, rules: AccessRules | None) -> None:
        self._secrets = secrets
        self._rules = rules
        self._seen = ScanCache()  # this sandbox's reads: a file viewed again unchanged is not scanned again

    def __repr__(self) -> str:
        return f"PolicyLens(secrets={self._secrets!r}, rules={self._rules!r})"

    def reveal(self, text: str, path: MemoryPath) -> tuple[str, tuple[Note, ...]]:
        if self._secrets is None:
            return text, ()
        return self._secrets.scan_read(text, path, self._seen)

    def shows(self, path: MemoryPath) -> bool:
        return path.is_root or self._rules is None or self._rules.refusal("view", path) is None
