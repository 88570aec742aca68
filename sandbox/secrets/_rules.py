"""Compiled rules, findings, entropy and redaction: what a scan works with and gives back."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Any, Final, Literal, NamedTuple

from sandbox.secrets._checksums import CHECKSUMS, Checksum
from sandbox.secrets._re2 import found_in, matches_whole

__all__ = ["Action", "Finding", "SecretRule", "merge", "redact", "shannon_entropy"]

Action = Literal["redact", "reject", "allow"]
_MARKER: Final = b"[REDACTED:%s]"
_HEX_DIGITS: Final = b"0123456789abcdefABCDEF"


@dataclass(frozen=True, slots=True)
class SecretRule:
    """A compiled rule. Patterns work on UTF-8 bytes."""

    id: str
    description: str
    action: Action
    pattern: Any
    secret_group: int
    keywords: tuple[bytes, ...]
    min_entropy: float | None
    allowlist: Any  # one RE2 alternation of the pack's and the rule's allowlists, or None
    allowlist_match: Any
    group: str
    keyword_offset: int | None = None
    after_keyword: bytes | None = None  # an RE2 pattern, as given
    before_keyword: bytes = b""  # the bytes of that class
    checksum: Checksum | None = None
    # The minimum for a value of 32 or more hex digits, which carry at most 4 bits a character.
    min_entropy_hex: float | None = None

    def accepts(self, value: bytes, context: bytes) -> bool:
        """True when a found value is a real finding: not allowlisted, entropy high enough.

        ``value`` is the secret; ``context`` the part of the match before it (a
        key name, say). A value allowlist must match the whole value, never a
        part: a real key with ``-example`` after it is still a real key. A value
        whose checksum holds is real whatever it looks like.
        """
        checksum = self.checksum
        if checksum is not None and CHECKSUMS[checksum](value):
            return True
        # Cheapest first: allowlists are one match each; entropy needs the bytes counted.
        allowlist, allowlist_match = self.allowlist, self.allowlist_match
        if allowlist is not None and matches_whole(allowlist, value):
            return False
        if allowlist_match is not None and found_in(allowlist_match, context):
            return False
        minimum = self.min_entropy
        if self.min_entropy_hex is not None and len(value) >= 32 and not value.strip(_HEX_DIGITS):
            minimum = self.min_entropy_hex
        if minimum is None:
            return True
        distinct = set(value)
        if max(len(distinct), 1) * 1.000001 < 2**minimum:
            return False  # entropy is at most log2 of the number of distinct bytes (with a margin)
        # The least entropy n bytes with k distinct can have: one byte n-k+1 times, the rest once.
        if _least_entropy(len(value), len(distinct)) >= minimum + 1e-9:
            return True
        return _entropy(value, distinct) >= minimum


class Finding(NamedTuple):
    """A secret's place in the scanned bytes, and the rule that found it (ordered by place)."""

    start: int
    end: int
    rule_id: str


_C_LOG_C: Final = [0.0] + [c * math.log2(c) for c in range(1, 4097)]


def shannon_entropy(value: bytes) -> float:
    """Bits of Shannon entropy per byte of ``value``: log2(n) - sum(c log2 c) / n."""
    return _entropy(value, set(value))


def _entropy(value: bytes, distinct: set[int]) -> float:
    length = len(value)
    if not length:
        return 0.0
    # A short value is counted faster a byte value at a time; a long one in one pass.
    counts = map(value.count, distinct) if length < 40 else Counter(value).values()
    if length < len(_C_LOG_C):
        weighted = sum(map(_C_LOG_C.__getitem__, counts))
    else:
        weighted = sum(c * math.log2(c) for c in counts)
    return math.log2(length) - weighted / length


def _least_entropy(length: int, distinct: int) -> float:
    """The lowest entropy of ``length`` bytes holding ``distinct`` different ones.

    Every other spread of the counts is majorized by (n-k+1, 1, ..., 1), and
    entropy is Schur-concave, so that spread has the least.
    """
    if distinct < 2:
        return 0.0
    most = length - distinct + 1
    return math.log2(length) - (_C_LOG_C[most] if most < 4097 else most * math.log2(most)) / length


def merge(findings: list[Finding]) -> list[Finding]:
    """Overlapping findings become one, spanning both, named by the longer.

    Of two as long, a provider's rule names it rather than a ``generic-*`` one
    (``[REDACTED:github-pat]`` says more than the rule that saw a token in prose).
    """
    merged: list[Finding] = []
    for finding in sorted(findings):
        if merged and finding.start < merged[-1].end:
            last = merged[-1]
            longer = last if _weight(last) >= _weight(finding) else finding
            merged[-1] = Finding(last.start, max(last.end, finding.end), longer.rule_id)
        else:
            merged.append(finding)
    return merged


def _weight(finding: Finding) -> tuple[int, bool]:
    return finding.end - finding.start, not finding.rule_id.startswith("generic-")


def redact(data: bytes, findings: list[Finding], *, keep_lines: bool = False) -> bytes:
    """Replace each finding's whole span by ``[REDACTED:<rule-id>]``.

    With ``keep_lines`` the newlines inside a span are kept after the marker, so
    line numbers of a viewed file still match the stored file.
    """
    out: list[bytes] = []
    position = 0
    for finding in findings:
        out.append(data[position : finding.start])
        out.append(_MARKER % finding.rule_id.encode("ascii"))
        if keep_lines:
            out.append(b"\n" * data.count(b"\n", finding.start, finding.end))
        position = finding.end
    out.append(data[position:])
    return b"".join(out)
