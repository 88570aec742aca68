"""Records that stop naming what a user stored once the user's scope is erased.

With ``[audit] pseudonymize = true`` every path, unknown field name and digest a
record would hold is replaced by a pseudonym keyed with a secret of the scope
(HMAC-SHA256). The secret lives with the scope's memory (a file under the store's
reserved folder, or a row of the database) and ``memory-sandbox purge`` destroys it
with the memory: the log keeps verifying, since records are never rewritten, but
nobody can tell any more which path a pseudonym stood for, nor test a guess.

Until then a pseudonym is stable within the scope, so a reviewer still sees that
two calls touched the same file, and whoever holds the store can compute the
pseudonym of a path (:meth:`Pseudonyms.path`) to find its records.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from dataclasses import replace
from typing import Final, Protocol, runtime_checkable

from sandbox.decision import Decision, Note

__all__ = ["PREFIX", "KeepsPseudonymKey", "Pseudonyms"]

#: What a pseudonymised path starts with: not a path any call can name.
PREFIX: Final = "~p:"
_PATH_IN_TEXT = re.compile(r"/memories(?:/[^\s'\"`,;)\]]*)?")


@runtime_checkable
class KeepsPseudonymKey(Protocol):
    """A store that keeps a secret per scope, destroyed when the scope is erased."""

    def pseudonym_key(self) -> bytes:
        """The scope's secret (made on first use, the same for every process of the store)."""
        ...


class Pseudonyms:
    """Pseudonyms keyed by one scope's secret."""

    __slots__ = ("_key",)

    def __init__(self, key: bytes) -> None:
        if len(key) < 16:
            raise ValueError("a pseudonym key has at least 16 bytes")
        self._key = key

    def __repr__(self) -> str:
        return "Pseudonyms()"

    def _mac(self, label: bytes, data: bytes) -> bytes:
        return hmac.new(self._key, label + b"\0" + data, hashlib.sha256).digest()

    def path(self, text: str) -> str:
        """The pseudonym of a path (or of any name the model chose)."""
        mac = self._mac(b"path", text.encode("utf-8", "surrogatepass"))
        return PREFIX + base64.b32encode(mac[:15]).decode("ascii").lower()

    def digest(self, data: bytes) -> str:
        """A digest of written text or a raw path, keyed by the scope's secret."""
        return "hmac-sha256:" + self._mac(b"digest", data).hex()

    def text(self, text: str, paths: tuple[str, ...]) -> str:
        """A reason or detail with every path it mentions replaced by its pseudonym."""
        for path in sorted(paths, key=len, reverse=True):
            if path and path in text:
                text = text.replace(path, self.path(path))
        return _PATH_IN_TEXT.sub(lambda match: self.path(match.group(0)), text)

    def decision(self, decision: Decision) -> Decision:
        """The decision as it is recorded: nothing in it names what the scope stored."""
        paths = decision.paths
        return replace(
            decision,
            paths=tuple(self.path(path) for path in paths),
            extra_fields=tuple(self.path(name) for name in decision.extra_fields),
            notes=tuple(Note(note.rule_id, self.text(note.reason, paths)) for note in decision.notes),
            error_detail=self.text(decision.error_detail, paths),
        )
