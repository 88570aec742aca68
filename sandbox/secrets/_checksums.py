"""Checksums that some token formats carry, so a real token can be told from a look-alike.

GitHub's tokens (``ghp_``, ``gho_``, ``ghu_``, ``ghs_``, ``ghr_``) and npm's
(``npm_``) end in six base62 digits (0-9, A-Z, a-z) holding the CRC32 of the
thirty random characters before them (github.blog, "Behind GitHub's new
authentication token formats", 2021; npm adopted the same format). A value
whose checksum holds is a real token whatever else it looks like.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Final, Literal

__all__ = ["CHECKSUMS", "Checksum", "crc32_base62"]

Checksum = Literal["crc32-base62"]

_BASE62: Final = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def crc32_base62(value: bytes) -> bool:
    """Whether the last 6 characters are the base62 CRC32 of the 30 before them, after the prefix."""
    body = value.rsplit(b"_", 1)[-1]
    if len(body) != 36:
        return False
    number = zlib.crc32(body[:30])
    digits = bytearray()
    for _ in range(6):
        number, digit = divmod(number, 62)
        digits.append(_BASE62[digit])
    return number == 0 and bytes(reversed(digits)) == body[30:]


CHECKSUMS: Final[dict[str, Callable[[bytes], bool]]] = {"crc32-base62": crc32_base62}
