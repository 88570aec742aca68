"""Checksums that some token formats carry, so a real token can be told from a look-alike.

GitHub's tokens (``ghp_``, ``gho_``, ``ghu_``, ``ghs_``, ``ghr_``) and npm's
(``npm_``) end in six base62 digits (0-9, A-Z, a-z) holding the CRC32 of the
thirty random characters before them (github.blog, "Behind GitHub's new
authentication token formats", 2021; npm adopted the same format). A value
whose checksum holds is a real token whatever else it looks like.

A Discord bot token opens with the bot's user id (a decimal snowflake of 17 to
20 digits) in base64, before its first dot (discord.com/developers/docs,
"Reference: Authentication"; the id is the token's public part).

A Bitcoin private key in wallet import format is base58check: a version byte
(0x80, or 0xef on testnet), 32 key bytes, 0x01 for a compressed key, and the
first four bytes of the double SHA-256 of all that (en.bitcoin.it/wiki/WIF).
"""

from __future__ import annotations

import binascii
import hashlib
import zlib
from collections.abc import Callable
from typing import Final, Literal

__all__ = ["CHECKSUMS", "Checksum", "crc32_base62", "discord_snowflake", "wif_base58check"]

Checksum = Literal["crc32-base62", "discord-snowflake", "wif-base58check"]

_BASE62: Final = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_BASE58: Final = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


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


def discord_snowflake(value: bytes) -> bool:
    """Whether the part before the first dot is the base64 of 17 to 20 decimal digits (a Discord id)."""
    head = value.split(b".", 1)[0].replace(b"-", b"+").replace(b"_", b"/")
    try:
        decoded = binascii.a2b_base64(head + b"=" * (-len(head) % 4), strict_mode=True)
    except binascii.Error:
        return False
    return 17 <= len(decoded) <= 20 and decoded.isdigit() and decoded.isascii()


def wif_base58check(value: bytes) -> bool:
    """Whether ``value`` is a base58check private key: version 0x80 or 0xef, 32 bytes, 0x01 or not, checksum."""
    number = 0
    for byte in value:
        digit = _BASE58.find(bytes((byte,)))
        if digit < 0:
            return False
        number = number * 58 + digit
    for size in (37, 38):
        if number < 256**size:
            raw = number.to_bytes(size, "big")
            payload, check = raw[:-4], raw[-4:]
            if (
                payload[0] in {0x80, 0xEF}
                and (size == 37 or payload[-1] == 0x01)
                and hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4] == check
            ):
                return True
    return False


CHECKSUMS: Final[dict[str, Callable[[bytes], bool]]] = {
    "crc32-base62": crc32_base62,
    "discord-snowflake": discord_snowflake,
    "wif-base58check": wif_base58check,
}
