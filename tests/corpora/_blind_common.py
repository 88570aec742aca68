"""Shared pieces of the blind secrets corpus generator: alphabets, encodings, checksums, items.

Everything here is derived from public descriptions of the formats (provider documentation and
public write-ups of token layouts), never from this project's detection rules.
"""

from __future__ import annotations

import base64
import random
import string
import zlib
from dataclasses import dataclass, field

__all__ = [
    "B32",
    "B62",
    "B64",
    "B64URL",
    "BECH32",
    "DIGITS",
    "HEX",
    "LOWER_ALNUM",
    "UPPER_ALNUM",
    "Item",
    "Piece",
    "b64",
    "b64url",
    "bech32_encode",
    "crc24",
    "crc32_base62",
    "mark",
    "plain",
    "rand",
    "uuid4",
]

DIGITS = string.digits
HEX = "0123456789abcdef"
B62 = string.digits + string.ascii_uppercase + string.ascii_lowercase
B64 = string.ascii_uppercase + string.ascii_lowercase + string.digits + "+/"
B64URL = string.ascii_uppercase + string.ascii_lowercase + string.digits + "-_"
B32 = string.ascii_uppercase + "234567"
UPPER_ALNUM = string.ascii_uppercase + string.digits
LOWER_ALNUM = string.ascii_lowercase + string.digits
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"

# A piece of text: (text, role, kind). role is "secret", "lookalike" or None for plain text.
Piece = tuple[str, str | None, str | None]


def plain(text: str) -> Piece:
    return (text, None, None)


def mark(role: str, kind: str, text: str) -> Piece:
    return (text, role, kind)


@dataclass
class Item:
    """One labelled value and the ways it may be written into a document.

    `value` is the value expression (plain and marked pieces), `keys` are snake_case names it is
    assigned to in config text, `label` is how a person names it in prose. `block` values span
    lines, `raw` values are code or literals that are never quoted, `header` values are HTTP
    header values (the key is the header name). `contexts` limits where the item may appear.
    """

    kind: str
    role: str
    value: list[Piece]
    keys: tuple[str, ...]
    label: str
    block: bool = False
    raw: bool = False
    header: bool = False
    contexts: tuple[str, ...] = ()
    prose: tuple[str, ...] = ()
    extra: list[Item] = field(default_factory=list)


def rand(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def uuid4(rng: random.Random) -> str:
    h = rand(rng, HEX, 32)
    variant = rng.choice("89ab")
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{variant}{h[17:20]}-{h[20:32]}"


def b64(data: bytes, *, pad: bool = True) -> str:
    out = base64.b64encode(data).decode("ascii")
    return out if pad else out.rstrip("=")


def b64url(data: bytes, *, pad: bool = False) -> str:
    out = base64.urlsafe_b64encode(data).decode("ascii")
    return out if pad else out.rstrip("=")


def crc32_base62(body: str) -> str:
    """GitHub's and npm's token checksum: CRC32 of the random part, base62 (0-9A-Za-z), 6 chars."""
    n = zlib.crc32(body.encode("ascii")) & 0xFFFFFFFF
    digits = ""
    while n:
        n, r = divmod(n, 62)
        digits = B62[r] + digits
    return digits.rjust(6, "0")


def crc24(data: bytes) -> int:
    """The OpenPGP armor checksum (RFC 4880, section 6.1)."""
    crc = 0xB704CE
    for byte in data:
        crc ^= byte << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


def _bech32_polymod(values: list[int]) -> int:
    gen = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)
    chk = 1
    for v in values:
        top = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ v
        for i in range(5):
            chk ^= gen[i] if (top >> i) & 1 else 0
    return chk


def bech32_encode(hrp: str, data: bytes) -> str:
    """BIP-173 bech32 (the encoding age uses for its keys), lower case."""
    acc, bits, five = 0, 0, []
    for byte in data:
        acc = (acc << 8) | byte
        bits += 8
        while bits >= 5:
            bits -= 5
            five.append((acc >> bits) & 31)
    if bits:
        five.append((acc << (5 - bits)) & 31)
    expanded = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]
    polymod = _bech32_polymod([*expanded, *five, 0, 0, 0, 0, 0, 0]) ^ 1
    checksum = [(polymod >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(BECH32[d] for d in five + checksum)
