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
from dataclasses import replace
from typing import Final, Protocol, runtime_checkable

from sandbox.decision import Decision, Note

__all__ = ["PREFIX", "WITHHELD", "KeepsPseudonymKey", "Pseudonyms"]

#: What a pseudonymised path starts with: not a path any call can name.
PREFIX: Final = "~p:"
#: What a pseudonymised record holds in place of a reason or error detail.
WITHHELD: Final = "(withheld: pseudonymized record)"


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

    def decision(self, decision: Decision) -> Decision:
        """The decision as it is recorded: nothing in it names what the scope stored.

        Reasons and error details are free text that may quote a path (a case twin's, cut short, with
        spaces) or model input, so they are withheld whole; the rule ids and error code say why.
        """
        return replace(
            decision,
            paths=tuple(self.path(path) for path in decision.paths),
            extra_fields=tuple(self.path(name) for name in decision.extra_fields),
            notes=tuple(Note(note.rule_id, WITHHELD) for note in decision.notes),
            error_detail=WITHHELD if decision.error_detail else "",
        )
