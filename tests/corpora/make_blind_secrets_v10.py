from __future__ import annotations

# Generate secrets_blind_v10: a held-out, labelled corpus of memory-file documents.
#
# Run ``python3 tests/corpora/make_blind_secrets_v10.py`` (or ``--out DIR``).  Standard library only, one seeded
# ``random.Random``; the output does not depend on the clock, the environment or ``PYTHONHASHSEED``.
import argparse
import base64
import csv
import datetime as dt
import hashlib
import hmac
import io
import json
import math
import random
import re
import struct
import sys
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

SEED = 61_803_398
R = random.Random(SEED)

DIGITS = "0123456789"
UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
LOWER = "abcdefghijklmnopqrstuvwxyz"
HEX = "0123456789abcdef"
HEXU = "0123456789ABCDEF"
ALNUM = DIGITS + UPPER + LOWER
UALNUM = DIGITS + UPPER
LALNUM = LOWER + DIGITS
URLSAFE = ALNUM + "-_"
B64CHARS = UPPER + LOWER + DIGITS + "+/"
B32 = UPPER + "234567"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


class CorpusError(RuntimeError):
    """Raised when a generated document or the corpus breaks one of the checks."""


class Reject(Exception):
    """A renderer cannot place a value in its syntax; the document is generated again."""


# ---------------------------------------------------------------------------------------------------------------
# random helpers and encoders


def rs(alphabet: str, n: int) -> str:
    return "".join(R.choice(alphabet) for _ in range(n))


def rbytes(n: int) -> bytes:
    return R.getrandbits(8 * n).to_bytes(n, "big")


def pick(seq):
    return R.choice(seq)


def chance(p: float) -> bool:
    return R.random() < p


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def b62(n: int, width: int) -> str:
    out = ""
    while n:
        n, r = divmod(n, 62)
        out = ALNUM[r] + out
    return out.rjust(width, "0")


def crc_token(prefix: str, body_len: int = 30) -> str:
    """GitHub / npm style: random base62 body followed by the base62 CRC32 of the body (6 characters)."""
    body = rs(ALNUM, body_len)
    return prefix + body + b62(zlib.crc32(body.encode()), 6)


def b58(data: bytes) -> str:
    n = int.from_bytes(data, "big")
    out = ""
    while n:
        n, r = divmod(n, 58)
        out = B58[r] + out
    pad = len(data) - len(data.lstrip(b"\0"))
    return "1" * pad + out


def b58check(payload: bytes) -> str:
    digest = hashlib.sha256(hashlib.sha256(payload).digest()).digest()
    return b58(payload + digest[:4])


def _bech32_polymod(values: list[int]) -> int:
    gen = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)
    chk = 1
    for v in values:
        top = chk >> 25
        chk = ((chk & 0x1FFFFFF) << 5) ^ v
        for i in range(5):
            if (top >> i) & 1:
                chk ^= gen[i]
    return chk


def convertbits(data: bytes, frombits: int = 8, tobits: int = 5) -> list[int]:
    acc = bits = 0
    out = []
    maxv = (1 << tobits) - 1
    for b in data:
        acc = (acc << frombits) | b
        bits += frombits
        while bits >= tobits:
            bits -= tobits
            out.append((acc >> bits) & maxv)
    if bits:
        out.append((acc << (tobits - bits)) & maxv)
    return out


def bech32(hrp: str, data5: list[int], const: int = 1) -> str:
    expanded = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]
    poly = _bech32_polymod([*expanded, *data5, 0, 0, 0, 0, 0, 0]) ^ const
    check = [(poly >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(BECH32[d] for d in data5 + check)


def crc24(data: bytes) -> int:
    crc = 0xB704CE
    for byte in data:
        crc ^= byte << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


def crc16_xmodem(data: bytes) -> int:
    crc = 0
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def luhn_ok(number: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(number)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


# ---------------------------------------------------------------------------------------------------------------
# DER / PEM


def der_len(n: int) -> bytes:
    if n < 128:
        return bytes([n])
    raw = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(raw)]) + raw


def der(tag: int, content: bytes) -> bytes:
    return bytes([tag]) + der_len(len(content)) + content


def der_int(n: int) -> bytes:
    return der(0x02, n.to_bytes(max(1, (n.bit_length() + 8) // 8), "big"))


def der_seq(*parts: bytes) -> bytes:
    return der(0x30, b"".join(parts))


def der_oid(dotted: str) -> bytes:
    nums = [int(x) for x in dotted.split(".")]
    out = bytearray([40 * nums[0] + nums[1]])
    for num in nums[2:]:
        rest = num
        chunk = [rest & 0x7F]
        rest >>= 7
        while rest:
            chunk.append(0x80 | (rest & 0x7F))
            rest >>= 7
        out.extend(reversed(chunk))
    return der(0x06, bytes(out))


def der_bits(data: bytes) -> bytes:
    return der(0x03, b"\0" + data)


def der_octets(data: bytes) -> bytes:
    return der(0x04, data)


DER_NULL = b"\x05\x00"
OID_RSA = "1.2.840.113549.1.1.1"
OID_EC = "1.2.840.10045.2.1"
OID_P256 = "1.2.840.10045.3.1.7"
OID_ED25519 = "1.3.101.112"
OID_ECDSA_SHA256 = "1.2.840.10045.4.3.2"


def pem(label: str, data: bytes, width: int = 64) -> str:
    text = b64(data)
    lines = [text[i : i + width] for i in range(0, len(text), width)]
    return f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----"


# ---------------------------------------------------------------------------------------------------------------
# RSA (real key pairs, seeded)


def _sieve(limit: int) -> list[int]:
    flags = bytearray([1]) * limit
    flags[0:2] = b"\0\0"
    for i in range(2, math.isqrt(limit) + 1):
        if flags[i]:
            flags[i * i :: i] = bytearray(len(range(i * i, limit, i)))
    return [i for i in range(3, limit) if flags[i]]


_SMALL_PRIMES = _sieve(60000)


def _probable_prime(n: int) -> bool:
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for a in (3, 5, 7, 11, 13, 17):
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def _random_prime(bits: int) -> int:
    """Incremental search from a random odd start, sieving a window by the small primes first."""
    window = 4096
    while True:
        start = R.getrandbits(bits) | (3 << (bits - 2)) | 1
        alive = bytearray([1]) * window
        for p in _SMALL_PRIMES:
            j = (-start) % p
            if j % 2:
                j += p
            alive[j // 2 :: p] = bytes(len(range(j // 2, window, p)))
        for k in range(window):
            if alive[k]:
                n = start + 2 * k
                if n.bit_length() == bits and pow(2, n - 1, n) == 1 and _probable_prime(n):
                    return n


@dataclass
class RsaKey:
    n: int
    e: int
    d: int
    p: int
    q: int

    def pkcs1(self) -> bytes:
        p, q, d = self.p, self.q, self.d
        return der_seq(
            der_int(0),
            der_int(self.n),
            der_int(self.e),
            der_int(d),
            der_int(p),
            der_int(q),
            der_int(d % (p - 1)),
            der_int(d % (q - 1)),
            der_int(pow(q, -1, p)),
        )

    def pkcs8(self) -> bytes:
        return der_seq(der_int(0), der_seq(der_oid(OID_RSA), DER_NULL), der_octets(self.pkcs1()))

    def spki(self) -> bytes:
        return der_seq(der_seq(der_oid(OID_RSA), DER_NULL), der_bits(der_seq(der_int(self.n), der_int(self.e))))

    def sign_sha256(self, msg: bytes) -> bytes:
        prefix = bytes.fromhex("3031300d060960864801650304020105000420")
        digest_info = prefix + hashlib.sha256(msg).digest()
        k = (self.n.bit_length() + 7) // 8
        em = b"\0\1" + b"\xff" * (k - len(digest_info) - 3) + b"\0" + digest_info
        return pow(int.from_bytes(em, "big"), self.d, self.n).to_bytes(k, "big")


def rsa_key(bits: int = 2048) -> RsaKey:
    e = 65537
    while True:
        p, q = _random_prime(bits // 2), _random_prime(bits // 2)
        phi = (p - 1) * (q - 1)
        if p != q and math.gcd(e, phi) == 1 and (p * q).bit_length() == bits:
            return RsaKey(p * q, e, pow(e, -1, phi), max(p, q), min(p, q))


# ---------------------------------------------------------------------------------------------------------------
# NIST P-256 (affine arithmetic; keys, SPKI and real ECDSA signatures for certificates)

P256_P = 2**256 - 2**224 + 2**192 + 2**96 - 1
P256_N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
P256_G = (
    0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
    0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5,
)
P256_B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B


def _ec_add(a, b):
    if a is None:
        return b
    if b is None:
        return a
    p = P256_P
    if a[0] == b[0]:
        if (a[1] + b[1]) % p == 0:
            return None
        lam = (3 * a[0] * a[0] - 3) * pow(2 * a[1], -1, p) % p
    else:
        lam = (b[1] - a[1]) * pow(b[0] - a[0], -1, p) % p
    x = (lam * lam - a[0] - b[0]) % p
    return (x, (lam * (a[0] - x) - a[1]) % p)


def ec_mul(k: int, point=P256_G):
    result = None
    addend = point
    while k:
        if k & 1:
            result = _ec_add(result, addend)
        addend = _ec_add(addend, addend)
        k >>= 1
    return result


@dataclass
class EcKey:
    d: int
    x: int
    y: int

    def point(self) -> bytes:
        return b"\x04" + self.x.to_bytes(32, "big") + self.y.to_bytes(32, "big")

    def sec1(self, with_params: bool = True) -> bytes:
        parts = [der_int(1), der_octets(self.d.to_bytes(32, "big"))]
        if with_params:
            parts.append(der(0xA0, der_oid(OID_P256)))
        parts.append(der(0xA1, der_bits(self.point())))
        return der_seq(*parts)

    def pkcs8(self) -> bytes:
        algo = der_seq(der_oid(OID_EC), der_oid(OID_P256))
        return der_seq(der_int(0), algo, der_octets(self.sec1(with_params=False)))

    def spki(self) -> bytes:
        return der_seq(der_seq(der_oid(OID_EC), der_oid(OID_P256)), der_bits(self.point()))

    def sign(self, msg: bytes) -> bytes:
        z = int.from_bytes(hashlib.sha256(msg).digest(), "big")
        while True:
            k = R.randrange(1, P256_N)
            r = ec_mul(k)[0] % P256_N
            s = pow(k, -1, P256_N) * (z + r * self.d) % P256_N
            if r and s:
                return der_seq(der_int(r), der_int(s))


def ec_key() -> EcKey:
    d = R.randrange(1, P256_N)
    x, y = ec_mul(d)
    if (y * y - (x * x * x - 3 * x + P256_B)) % P256_P:
        raise CorpusError("P-256 point is not on the curve")
    return EcKey(d, x, y)


# ---------------------------------------------------------------------------------------------------------------
# Ed25519 / X25519 (RFC 8032 / RFC 7748)

ED_P = 2**255 - 19
ED_L = 2**252 + 27742317777372353535851937790883648493
ED_D = -121665 * pow(121666, -1, ED_P) % ED_P
ED_I = pow(2, (ED_P - 1) // 4, ED_P)


def _ed_recover_x(y: int, sign: int) -> int:
    x2 = (y * y - 1) * pow(ED_D * y * y + 1, -1, ED_P) % ED_P
    x = pow(x2, (ED_P + 3) // 8, ED_P)
    if (x * x - x2) % ED_P:
        x = x * ED_I % ED_P
    if x & 1 != sign:
        x = ED_P - x
    return x


_ED_GY = 4 * pow(5, -1, ED_P) % ED_P
_ED_GX = _ed_recover_x(_ED_GY, 0)
ED_G = (_ED_GX, _ED_GY, 1, _ED_GX * _ED_GY % ED_P)


def _ed_add(a, b):
    p = ED_P
    aa = (a[1] - a[0]) * (b[1] - b[0]) % p
    bb = (a[1] + a[0]) * (b[1] + b[0]) % p
    cc = 2 * a[3] * b[3] * ED_D % p
    dd = 2 * a[2] * b[2] % p
    e, f, g, h = bb - aa, dd - cc, dd + cc, bb + aa
    return (e * f % p, g * h % p, f * g % p, e * h % p)


def _ed_mul(k: int, point=ED_G):
    result = (0, 1, 1, 0)
    while k:
        if k & 1:
            result = _ed_add(result, point)
        point = _ed_add(point, point)
        k >>= 1
    return result


def _ed_compress(point) -> bytes:
    zinv = pow(point[2], -1, ED_P)
    x, y = point[0] * zinv % ED_P, point[1] * zinv % ED_P
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def _ed_expand(seed: bytes) -> tuple[int, bytes]:
    h = hashlib.sha512(seed).digest()
    a = int.from_bytes(h[:32], "little")
    a &= (1 << 254) - 8
    a |= 1 << 254
    return a, h[32:]


def ed_public(seed: bytes) -> bytes:
    return _ed_compress(_ed_mul(_ed_expand(seed)[0]))


def ed_sign(seed: bytes, msg: bytes) -> bytes:
    a, prefix = _ed_expand(seed)
    pub = _ed_compress(_ed_mul(a))
    r = int.from_bytes(hashlib.sha512(prefix + msg).digest(), "little") % ED_L
    big_r = _ed_compress(_ed_mul(r))
    h = int.from_bytes(hashlib.sha512(big_r + pub + msg).digest(), "little") % ED_L
    return big_r + ((r + h * a) % ED_L).to_bytes(32, "little")


def x25519_clamp(k: bytes) -> bytes:
    b = bytearray(k)
    b[0] &= 248
    b[31] &= 127
    b[31] |= 64
    return bytes(b)


def x25519_base(k: bytes) -> bytes:
    p = ED_P
    scalar = int.from_bytes(x25519_clamp(k), "little")
    x1, x2, z2, x3, z3, swap = 9, 1, 0, 9, 1, 0
    for t in reversed(range(255)):
        bit = (scalar >> t) & 1
        swap ^= bit
        if swap:
            x2, x3, z2, z3 = x3, x2, z3, z2
        swap = bit
        a, b = x2 + z2, x2 - z2
        aa, bb = a * a % p, b * b % p
        e = aa - bb
        c, d = x3 + z3, x3 - z3
        da, cb = d * a % p, c * b % p
        x3, z3 = (da + cb) ** 2 % p, x1 * (da - cb) ** 2 % p
        x2, z2 = aa * bb % p, e * (aa + 121665 * e) % p
    if swap:
        x2, z2 = x3, z3
    return (x2 * pow(z2, p - 2, p) % p).to_bytes(32, "little")


# ---------------------------------------------------------------------------------------------------------------
# Keccak (for EIP-55 checksummed Ethereum addresses); the permutation is checked against hashlib.sha3_256


def _keccak_rc_bit(t: int) -> int:
    reg = 1
    for _ in range(t % 255):
        reg <<= 1
        if reg & 0x100:
            reg ^= 0x171
    return reg & 1


_KECCAK_RC = [sum(_keccak_rc_bit(j + 7 * rnd) << ((1 << j) - 1) for j in range(7)) for rnd in range(24)]


def _keccak_rotations() -> list[int]:
    rot = [0] * 25
    x, y = 1, 0
    for t in range(24):
        rot[x + 5 * y] = ((t + 1) * (t + 2) // 2) % 64
        x, y = y, (2 * x + 3 * y) % 5
    return rot


_KECCAK_ROT = _keccak_rotations()
_M64 = (1 << 64) - 1


def _rol(v: int, n: int) -> int:
    return ((v << n) | (v >> (64 - n))) & _M64 if n else v


def _keccak_f(a: list[int]) -> list[int]:
    for rnd in range(24):
        c = [a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20] for x in range(5)]
        d = [c[(x - 1) % 5] ^ _rol(c[(x + 1) % 5], 1) for x in range(5)]
        a = [a[i] ^ d[i % 5] for i in range(25)]
        b = [0] * 25
        for x in range(5):
            for y in range(5):
                b[y + 5 * ((2 * x + 3 * y) % 5)] = _rol(a[x + 5 * y], _KECCAK_ROT[x + 5 * y])
        a = [b[i] ^ ((~b[(i % 5 + 1) % 5 + 5 * (i // 5)]) & b[(i % 5 + 2) % 5 + 5 * (i // 5)]) for i in range(25)]
        a[0] ^= _KECCAK_RC[rnd]
    return a


def keccak256(data: bytes, pad: int = 0x01) -> bytes:
    rate = 136
    msg = bytearray(data) + bytes([pad])
    while len(msg) % rate:
        msg.append(0)
    msg[-1] |= 0x80
    state = [0] * 25
    for off in range(0, len(msg), rate):
        block = msg[off : off + rate]
        for i in range(rate // 8):
            state[i] ^= int.from_bytes(block[8 * i : 8 * i + 8], "little")
        state = _keccak_f(state)
    return b"".join(state[i].to_bytes(8, "little") for i in range(4))


if keccak256(b"blind corpus", pad=0x06) != hashlib.sha3_256(b"blind corpus").digest():
    raise CorpusError("Keccak permutation self-test failed")


def eip55(addr20: bytes) -> str:
    low = addr20.hex()
    h = keccak256(low.encode()).hex()
    return "0x" + "".join(c.upper() if c.isalpha() and int(h[i], 16) >= 8 else c for i, c in enumerate(low))


# ---------------------------------------------------------------------------------------------------------------
# JWT helpers


def _jcompact(obj) -> bytes:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()


def jwt_hs256(payload: dict, key: bytes | None = None, header: dict | None = None) -> str:
    head = b64u(_jcompact(header or {"alg": "HS256", "typ": "JWT"})) + "." + b64u(_jcompact(payload))
    sig = hmac.new(key or rbytes(32), head.encode(), hashlib.sha256).digest()
    return head + "." + b64u(sig)


def jwt_rs256(payload: dict, key: RsaKey, kid: str) -> str:
    head = b64u(_jcompact({"alg": "RS256", "kid": kid})) + "." + b64u(_jcompact(payload))
    return head + "." + b64u(key.sign_sha256(head.encode()))


def jwt_eddsa(payload: dict, seed: bytes) -> str:
    head = b64u(_jcompact({"alg": "EdDSA", "typ": "JWT"})) + "." + b64u(_jcompact(payload))
    return head + "." + b64u(ed_sign(seed, head.encode()))


def epoch() -> int:
    return R.randrange(1_704_067_200, 1_782_864_000)


def rdate() -> dt.date:
    return dt.date(2024, 1, 1) + dt.timedelta(days=R.randrange(0, 900))


def rtime() -> str:
    return f"{R.randrange(6, 23):02d}:{R.randrange(60):02d}"


def uuid4() -> str:
    n = R.getrandbits(128)
    n = (n & ~(0xF << 76)) | (4 << 76)
    n = (n & ~(0x3 << 62)) | (0x2 << 62)
    h = f"{n:032x}"
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def sstr(data: bytes) -> bytes:
    """SSH wire-format string."""
    return struct.pack(">I", len(data)) + data


# ---------------------------------------------------------------------------------------------------------------
# values, entries and the kind registry

OPEN0 = 0xE000
CLOSE = "\uf8ff"
MAX_VALS = 0x1000
MARKS = re.compile("[\ue000-\uefff\uf8ff]")


def plain(text: str) -> str:
    return MARKS.sub("", text)


@dataclass
class Val:
    kind: str
    secret: bool
    value: str
    idx: int = -1

    def mark(self, shown: str | None = None) -> str:
        if not 0 <= self.idx < MAX_VALS:
            raise CorpusError(f"value of kind {self.kind} has no marker index")
        return chr(OPEN0 + self.idx) + (self.value if shown is None else shown) + CLOSE


@dataclass
class Entry:
    kind: str
    parts: list
    names: tuple[str, ...]
    product: str = ""
    noun: str = "key"
    label: str = ""
    cat: str = "token"
    header: str = ""
    name: str = ""

    @property
    def secret(self) -> bool:
        return any(isinstance(p, Val) and p.secret for p in self.parts)

    def vals(self) -> list[Val]:
        return [p for p in self.parts if isinstance(p, Val)]

    def plain(self) -> str:
        return "".join(p if isinstance(p, str) else p.value for p in self.parts)

    @property
    def multiline(self) -> bool:
        return "\n" in self.plain()

    def text(self, wrap: int = 0) -> str:
        out = []
        for p in self.parts:
            if isinstance(p, str):
                out.append(p)
            elif wrap and len(p.value) > wrap + 8 and "\n" not in p.value:
                out.append(p.mark("\n".join(p.value[i : i + wrap] for i in range(0, len(p.value), wrap))))
            else:
                out.append(p.mark())
        return "".join(out)


@dataclass
class KindInfo:
    name: str
    secret: bool
    common: bool
    fmt: str


KINDS: dict[str, KindInfo] = {}
GENS: dict[str, Callable[[], list[Entry]]] = {}


def kind(name: str, common: bool, fmt: str, secret: bool = True) -> None:
    if name in KINDS:
        raise CorpusError(f"kind {name} registered twice")
    KINDS[name] = KindInfo(name, secret, common, fmt)


def unit(name: str, common: bool, fmt: str, gen: Callable[[], list[Entry]], secret: bool = True) -> None:
    kind(name, common, fmt, secret)
    GENS[name] = gen


def S(kind_: str, value: str, *spec: str, cat: str = "token", header: str = "") -> Entry:
    """One secret value; `spec` is (names, product, noun, label)."""
    names, product, noun, label = spec
    return Entry(kind_, [Val(kind_, True, value)], tuple(names.split()), product, noun, label, cat, header)


def L(kind_: str, value: str, names: str, label: str, cat: str = "id") -> Entry:
    return Entry(kind_, [Val(kind_, False, value)], tuple(names.split()), "", "id", label, cat)


def sv(kind_: str, value: str) -> Val:
    return Val(kind_, True, value)


def lv(kind_: str, value: str) -> Val:
    return Val(kind_, False, value)


def ent(kind_: str, parts: list, *spec: str, cat: str = "token", header: str = "") -> Entry:
    """A value with unlabelled context around it (a URL, a header, a JSON document); `spec` as for `S`."""
    names, product, noun, label = spec
    return Entry(kind_, parts, tuple(names.split()), product, noun, label, cat, header)


def simple(name: str, common: bool, fmt: str, *spec, cat: str = "token", header: str = "") -> None:
    """Register a one-value kind; `spec` is (product, noun, names, label, make)."""
    product, noun, names, label, make = spec
    unit(name, common, fmt, lambda: [S(name, make(), names, product, noun, label, cat=cat, header=header)])


# ---------------------------------------------------------------------------------------------------------------
# shared vocabularies

WORDS = [
    "harbor",
    "violet",
    "quartz",
    "maple",
    "orbit",
    "cactus",
    "lantern",
    "pepper",
    "glacier",
    "falcon",
    "meadow",
    "copper",
    "tundra",
    "nimbus",
    "walnut",
    "saffron",
    "ember",
    "bramble",
    "pixel",
    "cobalt",
    "juniper",
    "marble",
    "otter",
    "sable",
    "thistle",
    "velvet",
    "willow",
    "zephyr",
    "anchor",
    "basil",
    "cedar",
    "dune",
    "fennel",
    "gravel",
    "hazel",
    "indigo",
    "jasper",
    "kelp",
    "lichen",
    "mango",
    "nectar",
    "olive",
    "pebble",
    "quill",
    "raven",
    "sorrel",
]
ACCENTED = [
    "Café",
    "Ñandú",
    "Größe",
    "Überall",
    "Straße",
    "Été",
    "Ação",
    "Müsli",
    "Fjörð",
    "Zürich",
    "Kraków",
    "Ørsted",
    "Señal",
    "Crème",
    "ねこ",
    "東京",
    "Ísafjörður",
]
FIRST = [
    "Priya",
    "Dana",
    "Marco",
    "Lena",
    "Tomás",
    "Aiko",
    "Jonas",
    "Chloé",
    "Ravi",
    "Sofia",
    "Mateus",
    "Ingrid",
    "Kenji",
    "Amara",
    "Lucas",
    "Noor",
    "Elif",
    "Hugo",
    "Mei",
    "Oskar",
    "Valeria",
    "Yusuf",
    "Greta",
    "Pablo",
    "Hana",
    "Theo",
    "Ananya",
    "Rafael",
    "Bea",
    "Wen",
]
SURNAMES = [
    "Shah",
    "Okafor",
    "Rossi",
    "Becker",
    "García",
    "Tanaka",
    "Novak",
    "Dubois",
    "Silva",
    "Larsen",
    "Kim",
    "Haddad",
    "Moreau",
    "Chen",
    "Ferreira",
]
ORGS = [
    "northwind",
    "globex",
    "initech",
    "umbrella-labs",
    "acme-data",
    "halcyon",
    "bluefin",
    "tidepool",
    "orchard",
    "kestrel",
    "lumen",
    "brightpath",
]
TLDS = ["io", "com", "dev", "net", "co", "app"]
SERVICES = [
    "billing",
    "api",
    "worker",
    "gateway",
    "auth",
    "search",
    "ingest",
    "reports",
    "notifier",
    "scheduler",
    "payments",
    "ledger",
    "catalog",
    "media",
    "exporter",
    "webhooks",
    "analytics",
    "checkout",
    "inventory",
]
ENVS = ["prod", "staging", "dev", "qa", "sandbox", "preprod"]
REGIONS = ["eu-west-1", "us-east-1", "eu-central-1", "ap-southeast-2", "us-west-2", "ap-northeast-1", "sa-east-1"]


def org() -> str:
    return pick(ORGS)


def domain() -> str:
    return f"{org()}.{pick(TLDS)}"


def person() -> str:
    return pick(FIRST)


def username() -> str:
    return pick([person().lower(), f"svc_{pick(SERVICES)}", f"{pick(SERVICES)}_app", "deploy", "admin", "app"])


def host(svc: str = "") -> str:
    svc = svc or pick(SERVICES)
    return pick(
        [
            f"{svc}-db.internal",
            f"{svc}.{pick(ENVS)}.{domain()}",
            f"10.{R.randrange(0, 40)}.{R.randrange(0, 255)}.{R.randrange(2, 250)}",
            f"{svc}-{pick(ENVS)}.c{rs(LALNUM, 10)}.{pick(REGIONS)}.rds.amazonaws.com",
            f"db-{R.randrange(1, 9)}.{pick(ENVS)}.local",
        ]
    )


def password() -> str:
    style = R.randrange(10)
    if style == 0:
        return pick(WORDS).capitalize() + str(R.randrange(1985, 2027)) + pick("!#$%&*?@.")
    if style == 1:
        return rs(ALNUM + "!@#%^&*-_=+", R.randrange(14, 25))
    if style == 2:
        return "-".join(pick(WORDS) for _ in range(R.randrange(3, 5))) + str(R.randrange(10, 99))
    if style == 3:
        leet = str.maketrans({"a": "4", "e": "3", "i": "1", "o": "0", "s": "5"})
        return (
            pick(WORDS).capitalize().translate(leet) + pick("&#%!") + pick(WORDS).translate(leet) + str(R.randrange(9))
        )
    if style == 4:
        return rs(ALNUM, R.randrange(12, 21))
    if style == 5:
        chars = list(rs(ALNUM, R.randrange(10, 16)))
        for _ in range(R.randrange(2, 4)):
            chars.insert(R.randrange(1, len(chars)), pick("\"'\\$`<>&%;:{}"))
        return "".join(chars)
    if style == 6:
        return pick(ACCENTED) + pick("-_.#") + pick(ACCENTED) + str(R.randrange(10, 99))
    if style == 7:
        return pick(WORDS).capitalize() + pick(WORDS).capitalize() + str(R.randrange(100, 9999))
    if style == 8:
        return rs(HEX, 20)
    return pick(WORDS) + pick(" _") + pick(WORDS) + pick(" _") + pick(WORDS) + pick("!?.")


def safe_password() -> str:
    """A password usable unquoted in connection strings, INI files and command lines."""
    while True:
        pw = password()
        if re.fullmatch(r"[A-Za-z0-9!#%*+,.^_=@-]{8,}", pw):
            return pw


def urlpw(pw: str) -> str:
    return quote(pw, safe="")


# ---------------------------------------------------------------------------------------------------------------
# secret kinds: cloud providers

C, U = True, False  # common / less common


def aws_id(prefix: str) -> str:
    return prefix + rs(B32, 16)


def gen_aws() -> list[Entry]:
    kid = S(
        "aws_access_key_id",
        aws_id("AKIA"),
        "aws_access_key_id access_key_id aws_key_id",
        "AWS",
        "key",
        "AWS access key id",
    )
    sec = S(
        "aws_secret_access_key",
        rs(ALNUM + "+/", 40),
        "aws_secret_access_key secret_access_key aws_secret_key",
        "AWS",
        "secret",
        "AWS secret access key",
    )
    return [kid, sec]


def gen_aws_session() -> list[Entry]:
    kid, sec = gen_aws()
    kid.parts[0].value = aws_id("ASIA")
    tok = base64.b64encode(b"!\n\torigin_ec" + rbytes(R.randrange(240, 420))).decode()
    return [
        kid,
        sec,
        S("aws_session_token", tok, "aws_session_token session_token", "AWS", "token", "AWS session token"),
    ]


kind("aws_access_key_id", C, "`AKIA` / `ASIA` + 16 base32 (labelled: travels with its secret)")
unit("aws_secret_access_key", C, "40 characters `[A-Za-z0-9+/]` next to its key id", gen_aws)
unit(
    "aws_session_token",
    C,
    "base64 STS session token (`IQoJb3JpZ2luX2Vj...`) with its `ASIA` id and secret",
    gen_aws_session,
)


def gen_gcp_sa() -> list[Entry]:
    key = rsa_key()
    project = f"{org()}-{pick(SERVICES)}-{R.randrange(100000, 999999)}"
    account = f"{pick(SERVICES)}-{pick(['sa', 'runner', 'deployer', 'bot'])}"
    pem_text = pem("PRIVATE KEY", key.pkcs8()).replace("\n", "\\n") + "\\n"
    head = '{"type": "service_account", "project_id": "' + project + '", "private_key_id": "'
    mid = '", "private_key": "'
    tail = (
        f'", "client_email": "{account}@{project}.iam.gserviceaccount.com", "client_id": "'
        f'{R.randrange(10**20, 10**21)}", "auth_uri": "https://accounts.google.com/o/oauth2/auth", '
        '"token_uri": "https://oauth2.googleapis.com/token"}'
    )
    parts = [head, lv("key_identifier", rs(HEX, 40)), mid, sv("gcp_service_account_key", pem_text), tail]
    names = "google_credentials gcp_sa_key service_account_json google_application_credentials_json"
    return [
        ent("gcp_service_account_key", parts, names, "Google Cloud", "privkey", "GCP service-account key", cat="json")
    ]


unit("gcp_service_account_key", C, "PKCS #8 RSA key (`\\n`-escaped) inside a service-account JSON", gen_gcp_sa)

simple(
    "google_api_key",
    C,
    "`AIza` + 35 (server-side / Gemini key)",
    "Google",
    "apikey",
    "google_api_key gemini_api_key google_maps_server_key youtube_api_key places_api_key",
    "Google API key",
    lambda: "AIza" + rs(URLSAFE, 35),
    header="x-goog-api-key: {}",
)


def google_client_id() -> str:
    return f"{R.randrange(10**11, 10**12)}-{rs(LALNUM, 32)}.apps.googleusercontent.com"


def gen_google_oauth() -> list[Entry]:
    cid = L("oauth_client_id", google_client_id(), "google_client_id oauth_client_id", "OAuth client id")
    sec = S(
        "google_oauth_client_secret",
        "GOCSPX-" + rs(URLSAFE, 28),
        "google_client_secret oauth_client_secret",
        "Google",
        "secret",
        "Google OAuth client secret",
    )
    return [cid, sec]


unit("google_oauth_client_secret", C, "`GOCSPX-` + 28 (its client id is a look-alike)", gen_google_oauth)
simple(
    "google_oauth_refresh_token",
    C,
    "`1//0` + 99",
    "Google",
    "token",
    "google_refresh_token refresh_token gdrive_refresh_token",
    "Google OAuth refresh token",
    lambda: "1//0" + pick("gei3") + rs(URLSAFE, 98),
)
simple(
    "google_oauth_access_token",
    C,
    "`ya29.` + 150-200",
    "Google",
    "token",
    "google_access_token access_token",
    "Google OAuth access token",
    lambda: "ya29.a0" + rs(URLSAFE, R.randrange(150, 200)),
)


def gen_azure_storage() -> list[Entry]:
    acct = f"{org().replace('-', '')}{pick(['prod', 'data', 'logs', 'assets'])}{R.randrange(10, 99)}"
    key = b64(rbytes(64))
    if chance(0.6):
        parts = [
            f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey=",
            sv("azure_storage_account_key", key),
            ";EndpointSuffix=core.windows.net",
        ]
        return [
            ent(
                "azure_storage_account_key",
                parts,
                "azure_storage_connection_string storage_connection_string",
                "Azure Storage",
                "dsn",
                "Azure Storage connection string",
                cat="dsn",
            )
        ]
    return [
        S(
            "azure_storage_account_key",
            key,
            "azure_storage_key azure_storage_account_key storage_account_key",
            "Azure Storage",
            "key",
            "Azure Storage account key",
        )
    ]


unit("azure_storage_account_key", C, "88-character base64 account key (alone or as `AccountKey=`)", gen_azure_storage)


def gen_azure_sas() -> list[Entry]:
    acct = f"{org().replace('-', '')}{R.randrange(10, 99)}"
    start = rdate()
    sig = quote(b64(rbytes(32)), safe="")
    url = (
        f"https://{acct}.blob.core.windows.net/{pick(['exports', 'backups', 'uploads', 'reports'])}"
        f"/{pick(['daily', 'q3', 'archive'])}.{pick(['csv', 'parquet', 'zip'])}?sv=2022-11-02&ss=b&srt=co&sp=rl"
        f"&se={start + dt.timedelta(days=30)}T00:00:00Z&st={start}T00:00:00Z&spr=https&sig="
    )
    return [
        ent(
            "azure_sas_signature",
            [url, sv("azure_sas_signature", sig)],
            "sas_url blob_sas_url export_url",
            "Azure Storage",
            "token",
            "Azure SAS URL",
            cat="dsn",
        )
    ]


unit("azure_sas_signature", C, "URL-encoded `sig=` of a SAS URL", gen_azure_sas)


def gen_azure_ad() -> list[Entry]:
    tenant = L("tenant_id", uuid4(), "azure_tenant_id tenant_id", "tenant id")
    client = L("oauth_client_id", uuid4(), "azure_client_id client_id app_id", "app (client) id")
    secret = rs(ALNUM, 3) + pick(DIGITS) + "Q~" + rs(ALNUM + "_.~-", 34)
    sec = S(
        "azure_ad_client_secret",
        secret,
        "azure_client_secret client_secret",
        "Entra ID",
        "secret",
        "Entra ID client secret",
    )
    return [tenant, client, sec]


unit("azure_ad_client_secret", C, "3 + digit + `Q~` + 34 (tenant and client ids are look-alikes)", gen_azure_ad)
simple(
    "azure_devops_pat",
    C,
    "52 characters `[a-z2-7]`",
    "Azure DevOps",
    "token",
    "azure_devops_pat ado_pat azure_devops_ext_pat system_accesstoken",
    "Azure DevOps PAT",
    lambda: rs(LOWER + "234567", 52),
)
simple(
    "azure_openai_api_key",
    C,
    "32 hex (name or `api-key` header)",
    "Azure OpenAI",
    "apikey",
    "azure_openai_api_key azure_openai_key aoai_key",
    "Azure OpenAI key",
    lambda: rs(HEX, 32),
    header="api-key: {}",
)


def gen_service_bus() -> list[Entry]:
    ns = f"{org()}-{pick(ENVS)}-bus"
    parts = [
        f"Endpoint=sb://{ns}.servicebus.windows.net/;SharedAccessKeyName={pick(['RootManageSharedAccessKey', 'send-only', 'listen'])};SharedAccessKey=",
        sv("azure_service_bus_key", b64(rbytes(32))),
    ]
    if chance(0.4):
        parts.append(f";EntityPath={pick(['orders', 'events', 'invoices'])}")
    return [
        ent(
            "azure_service_bus_key",
            parts,
            "servicebus_connection_string service_bus_connection azure_servicebus_conn",
            "Azure Service Bus",
            "dsn",
            "Service Bus connection string",
            cat="dsn",
        )
    ]


unit(
    "azure_service_bus_key",
    C,
    "44-character `SharedAccessKey=` of a Service Bus / Event Hubs connection string",
    gen_service_bus,
)


def gen_cosmos() -> list[Entry]:
    acct = f"{org()}-{pick(['cosmos', 'docs', 'catalog'])}"
    key = b64(rbytes(64))
    if chance(0.5):
        parts = [
            f"AccountEndpoint=https://{acct}.documents.azure.com:443/;AccountKey=",
            sv("azure_cosmos_key", key),
            ";",
        ]
        return [
            ent(
                "azure_cosmos_key",
                parts,
                "cosmos_connection_string cosmosdb_connection",
                "Cosmos DB",
                "dsn",
                "Cosmos DB connection string",
                cat="dsn",
            )
        ]
    return [
        S(
            "azure_cosmos_key",
            key,
            "cosmos_key cosmosdb_primary_key cosmos_master_key",
            "Cosmos DB",
            "key",
            "Cosmos DB primary key",
        )
    ]


unit("azure_cosmos_key", C, "88-character base64 Cosmos DB key", gen_cosmos)


def gen_alibaba() -> list[Entry]:
    return [
        S(
            "alibaba_access_key_id",
            "LTAI5t" + rs(ALNUM, 18),
            "alibaba_access_key_id alicloud_access_key",
            "Alibaba Cloud",
            "key",
            "Alibaba Cloud AccessKey ID",
        ),
        S(
            "alibaba_access_key_secret",
            rs(ALNUM, 30),
            "alibaba_access_key_secret alicloud_secret_key",
            "Alibaba Cloud",
            "secret",
            "Alibaba Cloud AccessKey secret",
        ),
    ]


kind("alibaba_access_key_id", U, "`LTAI5t` + 18 (labelled: travels with its secret)")
unit("alibaba_access_key_secret", U, "30 alphanumerics next to its `LTAI` id", gen_alibaba)


def gen_scaleway() -> list[Entry]:
    return [
        S(
            "scaleway_access_key",
            "SCW" + rs(UALNUM, 17),
            "scw_access_key scaleway_access_key",
            "Scaleway",
            "key",
            "Scaleway access key",
        ),
        S(
            "scaleway_secret_key",
            uuid4(),
            "scw_secret_key scaleway_secret_key",
            "Scaleway",
            "secret",
            "Scaleway secret key",
        ),
    ]


kind("scaleway_access_key", U, "`SCW` + 17 (labelled: travels with its secret)")
unit("scaleway_secret_key", U, "UUID secret key next to its `SCW` access key", gen_scaleway)
simple(
    "yandex_cloud_api_key",
    U,
    "`AQVN` + 36",
    "Yandex Cloud",
    "apikey",
    "yc_api_key yandex_api_key",
    "Yandex Cloud API key",
    lambda: "AQVN" + rs(URLSAFE, 36),
    header="Authorization: Api-Key {}",
)
simple(
    "heroku_api_key",
    C,
    "`HRKU-AA` + 58, or a legacy UUID under a Heroku name",
    "Heroku",
    "apikey",
    "heroku_api_key heroku_token",
    "Heroku API key",
    lambda: pick(["HRKU-AA" + rs(URLSAFE, 58), uuid4()]),
)
simple(
    "digitalocean_token",
    C,
    "`dop_v1_` / `doo_v1_` + 64 hex",
    "DigitalOcean",
    "token",
    "digitalocean_token do_token digitalocean_access_token",
    "DigitalOcean token",
    lambda: pick(["dop_v1_", "dop_v1_", "doo_v1_"]) + rs(HEX, 64),
)
simple(
    "netlify_token",
    C,
    "`nfp_` + 40",
    "Netlify",
    "token",
    "netlify_auth_token netlify_token",
    "Netlify token",
    lambda: "nfp_" + rs(ALNUM, 40),
)
simple(
    "vercel_token",
    C,
    "24 alphanumerics (name only)",
    "Vercel",
    "token",
    "vercel_token vercel_api_token",
    "Vercel token",
    lambda: rs(ALNUM, 24),
)
simple(
    "cloudflare_api_token",
    C,
    "40 characters (name or bearer)",
    "Cloudflare",
    "token",
    "cloudflare_api_token cf_api_token cloudflare_token",
    "Cloudflare API token",
    lambda: rs(URLSAFE, 40),
)
simple(
    "cloudflare_global_api_key",
    C,
    "37 hex (`X-Auth-Key`)",
    "Cloudflare",
    "apikey",
    "cloudflare_api_key cf_api_key cloudflare_global_key",
    "Cloudflare global API key",
    lambda: rs(HEX, 37),
    header="X-Auth-Key: {}",
)
simple(
    "flyio_token",
    U,
    "`fo1_` + 43",
    "Fly.io",
    "token",
    "fly_api_token fly_access_token",
    "Fly.io token",
    lambda: "fo1_" + rs(URLSAFE, 43),
)
simple(
    "render_api_key",
    U,
    "`rnd_` + 32",
    "Render",
    "apikey",
    "render_api_key",
    "Render API key",
    lambda: "rnd_" + rs(ALNUM, 32),
)
simple(
    "linode_token",
    U,
    "64 hex (name only)",
    "Linode",
    "token",
    "linode_token linode_cli_token",
    "Linode token",
    lambda: rs(HEX, 64),
)
simple(
    "hetzner_cloud_token",
    U,
    "64 alphanumerics (name only)",
    "Hetzner Cloud",
    "token",
    "hcloud_token hetzner_token",
    "Hetzner Cloud token",
    lambda: rs(ALNUM, 64),
)
simple(
    "supabase_access_token",
    C,
    "`sbp_` + 40 hex",
    "Supabase",
    "token",
    "supabase_access_token",
    "Supabase access token",
    lambda: "sbp_" + rs(HEX, 40),
)


def supabase_jwt(role: str) -> str:
    iat = epoch()
    payload = {"iss": "supabase", "ref": rs(LOWER, 20), "role": role, "iat": iat, "exp": iat + 315_360_000}
    return jwt_hs256(payload)


simple(
    "supabase_service_role_key",
    C,
    "HS256 JWT with `role: service_role`, or `sb_secret_` + 32",
    "Supabase",
    "key",
    "supabase_service_role_key supabase_service_key supabase_secret_key",
    "Supabase service-role key",
    lambda: pick([supabase_jwt("service_role"), supabase_jwt("service_role"), "sb_secret_" + rs(URLSAFE, 32)]),
)
simple(
    "fcm_server_key",
    C,
    "`AAAA` + 7 + `:APA91b` + 134",
    "Firebase Cloud Messaging",
    "key",
    "fcm_server_key firebase_server_key",
    "FCM server key",
    lambda: "AAAA" + rs(URLSAFE, 7) + ":APA91b" + rs(URLSAFE, 134),
    header="Authorization: key={}",
)


# ---------------------------------------------------------------------------------------------------------------
# secret kinds: code hosting, CI/CD, registries

simple(
    "github_pat_classic",
    C,
    "`ghp_` + 30 base62 + base62 CRC32",
    "GitHub",
    "token",
    "github_token gh_token github_pat gh_pat",
    "GitHub personal access token",
    lambda: crc_token("ghp_"),
    header="Authorization: token {}",
)
simple(
    "github_app_token",
    C,
    "`ghs_` / `gho_` / `ghu_` + 30 + CRC32",
    "GitHub",
    "token",
    "github_app_token gh_installation_token github_oauth_token",
    "GitHub app token",
    lambda: crc_token(pick(["ghs_", "gho_", "ghu_"])),
)
simple(
    "github_fine_grained_pat",
    C,
    "`github_pat_11` + 20 + `_` + 59",
    "GitHub",
    "token",
    "github_token gh_fine_grained_token github_pat",
    "GitHub fine-grained token",
    lambda: "github_pat_11" + rs(UALNUM, 20) + "_" + rs(ALNUM, 59),
)
simple(
    "gitlab_pat",
    C,
    "`glpat-` + 20",
    "GitLab",
    "token",
    "gitlab_token gitlab_pat gl_token private_token",
    "GitLab personal access token",
    lambda: "glpat-" + rs(URLSAFE, 20),
    header="PRIVATE-TOKEN: {}",
)
simple(
    "gitlab_runner_token",
    C,
    "`glrt-` + 20",
    "GitLab",
    "token",
    "runner_token gitlab_runner_token ci_runner_token",
    "GitLab runner token",
    lambda: "glrt-" + rs(URLSAFE, 20),
)
simple(
    "gitlab_deploy_token",
    C,
    "`gldt-` + 20",
    "GitLab",
    "token",
    "gitlab_deploy_token deploy_token",
    "GitLab deploy token",
    lambda: "gldt-" + rs(URLSAFE, 20),
)
simple(
    "gitlab_trigger_token",
    U,
    "`glptt-` + 40 hex",
    "GitLab",
    "token",
    "trigger_token gitlab_trigger_token",
    "GitLab pipeline trigger token",
    lambda: "glptt-" + rs(HEX, 40),
)
simple(
    "bitbucket_app_password",
    C,
    "`ATBB` + 32 + 8 hex",
    "Bitbucket",
    "password",
    "bitbucket_app_password bitbucket_password bb_app_password",
    "Bitbucket app password",
    lambda: "ATBB" + rs(ALNUM, 32) + rs(HEXU, 8),
)
simple(
    "atlassian_api_token",
    C,
    "`ATATT3xFfGF0` + 171 + `=` + 8 hex",
    "Atlassian",
    "token",
    "jira_api_token atlassian_api_token confluence_token",
    "Jira / Atlassian API token",
    lambda: "ATATT3xFfGF0" + rs(URLSAFE, 171) + "=" + rs(HEXU, 8),
)
simple(
    "circleci_token",
    C,
    "`CCIPAT_` + 22 + `_` + 40 hex",
    "CircleCI",
    "token",
    "circleci_token circle_token",
    "CircleCI token",
    lambda: "CCIPAT_" + rs(ALNUM, 22) + "_" + rs(HEX, 40),
    header="Circle-Token: {}",
)
simple(
    "jenkins_api_token",
    C,
    "`11` + 32 hex",
    "Jenkins",
    "token",
    "jenkins_api_token jenkins_token jenkins_password",
    "Jenkins API token",
    lambda: "11" + rs(HEX, 32),
)
simple(
    "sonarqube_token",
    C,
    "`squ_` / `sqp_` / `sqa_` + 40 hex",
    "SonarQube",
    "token",
    "sonar_token sonarqube_token",
    "SonarQube token",
    lambda: pick(["squ_", "sqp_", "sqa_"]) + rs(HEX, 40),
)
simple(
    "snyk_token",
    C,
    "UUID (name only)",
    "Snyk",
    "token",
    "snyk_token snyk_api_token",
    "Snyk token",
    uuid4,
    header="Authorization: token {}",
)
simple(
    "buildkite_token",
    U,
    "`bkua_` + 40 hex",
    "Buildkite",
    "token",
    "buildkite_api_token buildkite_token",
    "Buildkite API token",
    lambda: "bkua_" + rs(HEX, 40),
)
simple(
    "octopus_deploy_api_key",
    U,
    "`API-` + 26 upper-case alphanumerics",
    "Octopus Deploy",
    "apikey",
    "octopus_api_key octopus_cli_api_key",
    "Octopus Deploy API key",
    lambda: "API-" + rs(UALNUM, 26),
    header="X-Octopus-ApiKey: {}",
)
simple(
    "harness_pat",
    U,
    "`pat.` + 22 + `.` + 24 hex + `.` + 20",
    "Harness",
    "token",
    "harness_api_key harness_pat",
    "Harness token",
    lambda: "pat." + rs(URLSAFE, 22) + "." + rs(HEX, 24) + "." + rs(ALNUM, 20),
    header="x-api-key: {}",
)
simple(
    "npm_token",
    C,
    "`npm_` + 30 + CRC32",
    "npm",
    "token",
    "npm_token node_auth_token npm_auth_token",
    "npm token",
    lambda: crc_token("npm_"),
)


def pypi_token() -> str:
    ident = json.dumps({"version": 1, "uuid": uuid4()}, separators=(",", ":")).encode()
    caveats = [json.dumps([1, [pick(SERVICES) + "-client"]], separators=(",", ":")).encode()] if chance(0.5) else []
    key = rbytes(32)
    sig = hmac.new(key, ident, hashlib.sha256).digest()
    for cav in caveats:
        sig = hmac.new(sig, cav, hashlib.sha256).digest()

    def field(t: int, data: bytes) -> bytes:
        return bytes([t, len(data)]) + data

    body = b"\x02" + field(1, b"pypi.org") + field(2, ident) + b"\x00"
    for cav in caveats:
        body += field(2, cav) + b"\x00"
    body += b"\x00" + field(6, sig)
    return "pypi-" + b64u(body)


simple(
    "pypi_token",
    C,
    "`pypi-` + v2 macaroon (location `pypi.org`, HMAC chain)",
    "PyPI",
    "token",
    "pypi_token pypi_api_token twine_password",
    "PyPI token",
    pypi_token,
)
simple(
    "nuget_api_key",
    C,
    "`oy2` + 43 `[a-z0-9]`",
    "NuGet",
    "apikey",
    "nuget_api_key nuget_key",
    "NuGet API key",
    lambda: "oy2" + rs(LALNUM, 43),
    header="X-NuGet-ApiKey: {}",
)
simple(
    "rubygems_api_key",
    C,
    "`rubygems_` + 48 hex",
    "RubyGems",
    "apikey",
    "gem_host_api_key rubygems_api_key",
    "RubyGems API key",
    lambda: "rubygems_" + rs(HEX, 48),
)
simple(
    "dockerhub_pat",
    C,
    "`dckr_pat_` + 27",
    "Docker Hub",
    "token",
    "dockerhub_token docker_password docker_hub_pat",
    "Docker Hub token",
    lambda: "dckr_pat_" + rs(URLSAFE, 27),
)


def gen_docker_auth() -> list[Entry]:
    reg = pick(["ghcr.io", "registry.gitlab.com", "index.docker.io/v1/", f"registry.{domain()}", "quay.io"])
    auth = b64(
        f"{username()}:{pick([safe_password(), 'glpat-' + rs(URLSAFE, 20), 'dckr_pat_' + rs(URLSAFE, 27)])}".encode()
    )
    parts = ['{"auths": {"' + reg + '": {"auth": "', sv("docker_registry_auth", auth), '"}}}']
    return [
        ent(
            "docker_registry_auth",
            parts,
            "docker_auth_config dockerconfigjson registry_auth",
            "Docker registry",
            "credentials",
            "Docker registry auth",
            cat="json",
        )
    ]


unit("docker_registry_auth", C, "base64(`user:password`) `auth` of a Docker config", gen_docker_auth)
simple(
    "cratesio_token",
    C,
    "`cio` + 32",
    "crates.io",
    "token",
    "cargo_registry_token cratesio_token",
    "crates.io token",
    lambda: "cio" + rs(ALNUM, 32),
)
simple(
    "clojars_token",
    U,
    "`CLOJARS_` + 60 hex",
    "Clojars",
    "token",
    "clojars_token clojars_password",
    "Clojars deploy token",
    lambda: "CLOJARS_" + rs(HEX, 60),
)
simple(
    "jfrog_token",
    C,
    "`AKCp` + 69",
    "JFrog Artifactory",
    "apikey",
    "artifactory_api_key jfrog_api_key artifactory_password",
    "Artifactory API key",
    lambda: "AKCp" + pick("58") + rs(ALNUM, 68),
    header="X-JFrog-Art-Api: {}",
)
simple(
    "vault_token",
    C,
    "`hvs.` + 24, or `hvs.CAESI` + 86",
    "Vault",
    "token",
    "vault_token vault_root_token",
    "Vault token",
    lambda: pick(["hvs." + rs(ALNUM, 24), "hvs.CAESI" + rs(URLSAFE, 86)]),
    header="X-Vault-Token: {}",
)
simple(
    "terraform_cloud_token",
    C,
    "14 + `.atlasv1.` + 67",
    "Terraform Cloud",
    "token",
    "tfe_token tf_token_app_terraform_io terraform_cloud_token",
    "Terraform Cloud token",
    lambda: rs(ALNUM, 14) + ".atlasv1." + rs(ALNUM, 67),
)
simple(
    "doppler_token",
    C,
    "`dp.st.<config>.` / `dp.pt.` + 43",
    "Doppler",
    "token",
    "doppler_token",
    "Doppler token",
    lambda: pick([f"dp.st.{pick(ENVS)}.", "dp.pt."]) + rs(ALNUM, 43),
)


def onepassword_token() -> str:
    payload = {
        "signInAddress": "my.1password.com",
        "userAuth": {"method": "SRPg-4096", "alg": "PBES2g-HS256", "iterations": 650000, "salt": b64u(rbytes(16))},
        "email": f"{rs(LALNUM, 14)}@1passwordserviceaccounts.com",
        "srpX": rbytes(32).hex(),
        "muk": {
            "alg": "A256GCM",
            "ext": True,
            "k": b64u(rbytes(32)),
            "key_ops": ["encrypt", "decrypt"],
            "kty": "oct",
            "kid": "mp",
        },
        "secretKey": "A3-" + "-".join(rs(UALNUM, n) for n in (6, 6, 5, 5, 5, 5)),
        "throttleSecret": {"seed": rbytes(32).hex(), "uuid": rs(UALNUM, 26)},
        "deviceUuid": rs(LALNUM, 26),
    }
    return "ops_" + b64u(_jcompact(payload))


simple(
    "onepassword_service_token",
    C,
    "`ops_` + base64url JSON",
    "1Password",
    "token",
    "op_service_account_token",
    "1Password service-account token",
    onepassword_token,
)
simple(
    "postman_api_key",
    C,
    "`PMAK-` + 24 hex + `-` + 34 hex",
    "Postman",
    "apikey",
    "postman_api_key",
    "Postman API key",
    lambda: "PMAK-" + rs(HEX, 24) + "-" + rs(HEX, 34),
    header="X-Api-Key: {}",
)
simple(
    "ngrok_authtoken",
    C,
    "`2` + 26 + `_` + 21",
    "ngrok",
    "token",
    "ngrok_authtoken ngrok_auth_token",
    "ngrok authtoken",
    lambda: "2" + rs(ALNUM, 26) + "_" + rs(ALNUM, 21),
)
simple(
    "tailscale_key",
    C,
    "`tskey-auth-` / `tskey-api-` + id + `CNTRL-` + 33",
    "Tailscale",
    "key",
    "ts_authkey tailscale_authkey tailscale_api_key",
    "Tailscale key",
    lambda: f"tskey-{pick(['auth', 'auth', 'api'])}-k{rs(ALNUM, 10)}CNTRL-{rs(ALNUM, 33)}",
)
simple(
    "pulumi_access_token",
    U,
    "`pul-` + 40 hex",
    "Pulumi",
    "token",
    "pulumi_access_token",
    "Pulumi access token",
    lambda: "pul-" + rs(HEX, 40),
)
simple(
    "infracost_api_key",
    U,
    "`ico-` + 32",
    "Infracost",
    "apikey",
    "infracost_api_key",
    "Infracost API key",
    lambda: "ico-" + rs(ALNUM, 32),
)
simple(
    "prefect_api_key",
    U,
    "`pnu_` + 36",
    "Prefect",
    "apikey",
    "prefect_api_key",
    "Prefect API key",
    lambda: "pnu_" + rs(ALNUM, 36),
)
simple(
    "sourcegraph_token",
    U,
    "`sgp_` + 16 hex + `_` + 40 hex",
    "Sourcegraph",
    "token",
    "src_access_token sourcegraph_token",
    "Sourcegraph token",
    lambda: "sgp_" + rs(HEX, 16) + "_" + rs(HEX, 40),
)
simple(
    "launchdarkly_sdk_key",
    U,
    "`sdk-` + UUID (server-side SDK key)",
    "LaunchDarkly",
    "key",
    "launchdarkly_sdk_key ld_sdk_key",
    "LaunchDarkly SDK key",
    lambda: "sdk-" + uuid4(),
)
simple(
    "readme_api_key",
    U,
    "`rdme_` + 70 hex",
    "ReadMe",
    "apikey",
    "readme_api_key rdme_api_key",
    "ReadMe API key",
    lambda: "rdme_" + rs(HEX, 70),
)


# ---------------------------------------------------------------------------------------------------------------
# secret kinds: messaging, email, collaboration


def gen_slack_bot() -> list[Entry]:
    tok = f"xoxb-{R.randrange(10**10, 10**13)}-{R.randrange(10**10, 10**13)}-{rs(ALNUM, 24)}"
    return [S("slack_bot_token", tok, "slack_bot_token slack_token bot_token", "Slack", "token", "Slack bot token")]


unit("slack_bot_token", C, "`xoxb-` digits-digits-24", gen_slack_bot)
simple(
    "slack_user_token",
    C,
    "`xoxp-` + 4 groups, last 32 hex",
    "Slack",
    "token",
    "slack_user_token slack_token",
    "Slack user token",
    lambda: (
        f"xoxp-{R.randrange(10**10, 10**13)}-{R.randrange(10**10, 10**13)}-{R.randrange(10**12, 10**13)}-{rs(HEX, 32)}"
    ),
)
simple(
    "slack_app_token",
    C,
    "`xapp-1-A` + id + digits + 64 hex",
    "Slack",
    "token",
    "slack_app_token socket_mode_token",
    "Slack app-level token",
    lambda: f"xapp-1-A{rs(UALNUM, 10)}-{R.randrange(10**12, 10**13)}-{rs(HEX, 64)}",
)
simple(
    "slack_webhook_url",
    C,
    "whole `hooks.slack.com/services/T/B/24` URL",
    "Slack",
    "webhook",
    "slack_webhook_url slack_webhook alerts_webhook",
    "Slack webhook URL",
    lambda: f"https://hooks.slack.com/services/T{rs(UALNUM, 10)}/B{rs(UALNUM, 10)}/{rs(ALNUM, 24)}",
    cat="webhook",
)


def snowflake_id() -> int:
    return R.randrange(10**17, 10**19)


simple(
    "discord_bot_token",
    C,
    "base64(id) + `.` + 6 + `.` + 38",
    "Discord",
    "token",
    "discord_bot_token discord_token",
    "Discord bot token",
    lambda: b64(str(snowflake_id()).encode()).rstrip("=") + "." + rs(URLSAFE, 6) + "." + rs(URLSAFE, 38),
    header="Authorization: Bot {}",
)
simple(
    "discord_webhook_url",
    C,
    "whole `discord.com/api/webhooks/<id>/<68>` URL",
    "Discord",
    "webhook",
    "discord_webhook_url discord_webhook",
    "Discord webhook URL",
    lambda: f"https://discord.com/api/webhooks/{snowflake_id()}/{rs(URLSAFE, 68)}",
    cat="webhook",
)
simple(
    "msteams_webhook_url",
    C,
    "whole `*.webhook.office.com/webhookb2/...` URL",
    "Microsoft Teams",
    "webhook",
    "teams_webhook_url msteams_webhook",
    "Teams webhook URL",
    lambda: (
        f"https://{org().replace('-', '')}.webhook.office.com/webhookb2/{uuid4()}@{uuid4()}/IncomingWebhook/"
        f"{rs(HEX, 32)}/{uuid4()}"
    ),
    cat="webhook",
)
simple(
    "mattermost_webhook_url",
    U,
    "whole `/hooks/<26>` incoming-webhook URL",
    "Mattermost",
    "webhook",
    "mattermost_webhook_url mm_webhook",
    "Mattermost webhook URL",
    lambda: f"https://chat.{domain()}/hooks/{rs(LALNUM, 26)}",
    cat="webhook",
)
simple(
    "zapier_webhook_url",
    U,
    "whole `hooks.zapier.com/hooks/catch/<id>/<key>/` URL",
    "Zapier",
    "webhook",
    "zapier_webhook_url zap_hook",
    "Zapier catch hook",
    lambda: f"https://hooks.zapier.com/hooks/catch/{R.randrange(10**6, 10**8)}/{rs(LALNUM, 7)}/",
    cat="webhook",
)
simple(
    "telegram_bot_token",
    C,
    "`<bot id>:AA` + 33",
    "Telegram",
    "token",
    "telegram_bot_token tg_bot_token bot_token",
    "Telegram bot token",
    lambda: f"{R.randrange(10**8, 10**10)}:AA{rs(URLSAFE, 33)}",
)


def gen_twilio() -> list[Entry]:
    sid = L("account_identifier", "AC" + rs(HEX, 32), "twilio_account_sid account_sid", "Twilio account SID")
    tok = S("twilio_auth_token", rs(HEX, 32), "twilio_auth_token auth_token", "Twilio", "token", "Twilio auth token")
    return [sid, tok]


unit("twilio_auth_token", C, "32 hex (name only; the `AC` SID is a look-alike)", gen_twilio)
simple(
    "twilio_api_key_secret",
    C,
    "32-character API key secret",
    "Twilio",
    "secret",
    "twilio_api_secret twilio_api_key_secret",
    "Twilio API key secret",
    lambda: rs(ALNUM, 32),
)
simple(
    "sendgrid_api_key",
    C,
    "`SG.` + 22 + `.` + 43",
    "SendGrid",
    "apikey",
    "sendgrid_api_key email_api_key",
    "SendGrid API key",
    lambda: "SG." + rs(URLSAFE, 22) + "." + rs(URLSAFE, 43),
)
simple(
    "mailgun_api_key",
    C,
    "`key-` + 32 hex, or 32 hex + 2 x 8 hex",
    "Mailgun",
    "apikey",
    "mailgun_api_key mailgun_key",
    "Mailgun API key",
    lambda: pick(["key-" + rs(HEX, 32), f"{rs(HEX, 32)}-{rs(HEX, 8)}-{rs(HEX, 8)}"]),
)
simple(
    "mailchimp_api_key",
    C,
    "32 hex + `-us<N>`",
    "Mailchimp",
    "apikey",
    "mailchimp_api_key mc_api_key",
    "Mailchimp API key",
    lambda: rs(HEX, 32) + f"-us{R.randrange(1, 22)}",
)
simple(
    "postmark_server_token",
    C,
    "UUID server token (name or header)",
    "Postmark",
    "token",
    "postmark_server_token postmark_api_token",
    "Postmark server token",
    uuid4,
    header="X-Postmark-Server-Token: {}",
)
simple(
    "resend_api_key",
    C,
    "`re_` + 8 + `_` + 24",
    "Resend",
    "apikey",
    "resend_api_key",
    "Resend API key",
    lambda: "re_" + rs(ALNUM, 8) + "_" + rs(ALNUM, 24),
)
simple(
    "brevo_api_key",
    U,
    "`xkeysib-` + 64 hex + `-` + 16",
    "Brevo",
    "apikey",
    "brevo_api_key sendinblue_api_key",
    "Brevo API key",
    lambda: "xkeysib-" + rs(HEX, 64) + "-" + rs(ALNUM, 16),
    header="api-key: {}",
)
simple(
    "linear_api_key",
    C,
    "`lin_api_` + 40",
    "Linear",
    "apikey",
    "linear_api_key",
    "Linear API key",
    lambda: "lin_api_" + rs(ALNUM, 40),
)
simple(
    "notion_token",
    C,
    "`ntn_` + 11 digits + 35, or `secret_` + 43",
    "Notion",
    "token",
    "notion_token notion_api_key notion_integration_token",
    "Notion integration token",
    lambda: pick(["ntn_" + rs(DIGITS, 11) + rs(ALNUM, 35), "secret_" + rs(ALNUM, 43)]),
)
simple(
    "airtable_pat",
    C,
    "`pat` + 14 + `.` + 64 hex",
    "Airtable",
    "token",
    "airtable_token airtable_pat airtable_api_key",
    "Airtable token",
    lambda: "pat" + rs(ALNUM, 14) + "." + rs(HEX, 64),
)
simple(
    "figma_pat",
    C,
    "`figd_` + 40",
    "Figma",
    "token",
    "figma_token figma_pat",
    "Figma token",
    lambda: "figd_" + rs(URLSAFE, 40),
    header="X-Figma-Token: {}",
)
simple(
    "hubspot_private_app_token",
    C,
    "`pat-na1-` / `pat-eu1-` + UUID",
    "HubSpot",
    "token",
    "hubspot_access_token hubspot_token",
    "HubSpot private-app token",
    lambda: f"pat-{pick(['na1', 'eu1'])}-{uuid4()}",
)
simple(
    "zendesk_api_token",
    C,
    "40 alphanumerics (name only)",
    "Zendesk",
    "token",
    "zendesk_api_token zendesk_token",
    "Zendesk API token",
    lambda: rs(ALNUM, 40),
)
simple(
    "asana_pat",
    U,
    "`2/` + 16 digits + `/` + 16 digits + `:` + 32 hex",
    "Asana",
    "token",
    "asana_pat asana_token",
    "Asana token",
    lambda: f"2/{rs(DIGITS, 16)}/{rs(DIGITS, 16)}:{rs(HEX, 32)}",
)
simple(
    "contentful_management_token",
    U,
    "`CFPAT-` + 43",
    "Contentful",
    "token",
    "contentful_management_token contentful_cma_token",
    "Contentful management token",
    lambda: "CFPAT-" + rs(URLSAFE, 43),
)
simple(
    "typeform_pat",
    U,
    "`tfp_` + 44 + `_` + 14",
    "Typeform",
    "token",
    "typeform_token",
    "Typeform token",
    lambda: "tfp_" + rs(ALNUM, 44) + "_" + rs(ALNUM, 14),
)
simple(
    "ably_api_key",
    U,
    "`<app>.<key>:<43>`",
    "Ably",
    "apikey",
    "ably_api_key ably_key",
    "Ably API key",
    lambda: rs(ALNUM, 6) + "." + rs(URLSAFE, 6) + ":" + rs(URLSAFE, 43),
)


# ---------------------------------------------------------------------------------------------------------------
# secret kinds: AI, data, observability

simple(
    "openai_api_key",
    C,
    "`sk-proj-` / `sk-svcacct-` / `sk-` with `T3BlbkFJ` inside",
    "OpenAI",
    "apikey",
    "openai_api_key openai_key llm_api_key",
    "OpenAI API key",
    lambda: pick(
        [
            "sk-proj-" + rs(URLSAFE, 74) + "T3BlbkFJ" + rs(URLSAFE, 74),
            "sk-svcacct-" + rs(URLSAFE, 74) + "T3BlbkFJ" + rs(URLSAFE, 74),
            "sk-" + rs(ALNUM, 20) + "T3BlbkFJ" + rs(ALNUM, 20),
        ]
    ),
)
simple(
    "anthropic_api_key",
    C,
    "`sk-ant-api03-` + 93 + `AA`",
    "Anthropic",
    "apikey",
    "anthropic_api_key claude_api_key",
    "Anthropic API key",
    lambda: "sk-ant-api03-" + rs(URLSAFE, 93) + "AA",
    header="x-api-key: {}",
)
simple(
    "anthropic_admin_key",
    U,
    "`sk-ant-admin01-` + 93 + `AA`",
    "Anthropic",
    "key",
    "anthropic_admin_key",
    "Anthropic admin key",
    lambda: "sk-ant-admin01-" + rs(URLSAFE, 93) + "AA",
    header="x-api-key: {}",
)
simple(
    "huggingface_token",
    C,
    "`hf_` + 34 letters",
    "Hugging Face",
    "token",
    "hf_token huggingface_token huggingfacehub_api_token",
    "Hugging Face token",
    lambda: "hf_" + rs(UPPER + LOWER, 34),
)
simple(
    "replicate_api_token",
    C,
    "`r8_` + 37",
    "Replicate",
    "token",
    "replicate_api_token",
    "Replicate token",
    lambda: "r8_" + rs(ALNUM, 37),
)
simple(
    "groq_api_key", C, "`gsk_` + 52", "Groq", "apikey", "groq_api_key", "Groq API key", lambda: "gsk_" + rs(ALNUM, 52)
)
simple(
    "xai_api_key",
    C,
    "`xai-` + 80",
    "xAI",
    "apikey",
    "xai_api_key grok_api_key",
    "xAI API key",
    lambda: "xai-" + rs(ALNUM, 80),
)
simple(
    "mistral_api_key",
    C,
    "32 alphanumerics (name only)",
    "Mistral",
    "apikey",
    "mistral_api_key",
    "Mistral API key",
    lambda: rs(ALNUM, 32),
)
simple(
    "cohere_api_key",
    C,
    "40 alphanumerics (name only)",
    "Cohere",
    "apikey",
    "cohere_api_key co_api_key",
    "Cohere API key",
    lambda: rs(ALNUM, 40),
)
simple(
    "perplexity_api_key",
    C,
    "`pplx-` + 48",
    "Perplexity",
    "apikey",
    "perplexity_api_key pplx_api_key",
    "Perplexity API key",
    lambda: "pplx-" + rs(ALNUM, 48),
)
simple(
    "openrouter_api_key",
    C,
    "`sk-or-v1-` + 64 hex",
    "OpenRouter",
    "apikey",
    "openrouter_api_key",
    "OpenRouter key",
    lambda: "sk-or-v1-" + rs(HEX, 64),
)
simple(
    "deepseek_api_key",
    C,
    "`sk-` + 32 hex",
    "DeepSeek",
    "apikey",
    "deepseek_api_key",
    "DeepSeek API key",
    lambda: "sk-" + rs(HEX, 32),
)
simple(
    "langsmith_api_key",
    C,
    "`lsv2_pt_` / `lsv2_sk_` + 32 hex + `_` + 10 hex",
    "LangSmith",
    "apikey",
    "langsmith_api_key langchain_api_key",
    "LangSmith API key",
    lambda: f"lsv2_{pick(['pt', 'sk'])}_{rs(HEX, 32)}_{rs(HEX, 10)}",
)
simple(
    "pinecone_api_key",
    C,
    "`pcsk_` + 5 + `_` + 63",
    "Pinecone",
    "apikey",
    "pinecone_api_key",
    "Pinecone API key",
    lambda: "pcsk_" + rs(ALNUM, 5) + "_" + rs(ALNUM, 63),
    header="Api-Key: {}",
)
simple(
    "wandb_api_key",
    C,
    "40 hex (name only)",
    "Weights & Biases",
    "apikey",
    "wandb_api_key",
    "W&B API key",
    lambda: rs(HEX, 40),
)
simple(
    "elevenlabs_api_key",
    C,
    "`sk_` + 48 hex",
    "ElevenLabs",
    "apikey",
    "elevenlabs_api_key xi_api_key",
    "ElevenLabs API key",
    lambda: "sk_" + rs(HEX, 48),
    header="xi-api-key: {}",
)


def gen_langfuse() -> list[Entry]:
    return [
        L("public_client_key", "pk-lf-" + uuid4(), "langfuse_public_key", "Langfuse public key"),
        S(
            "langfuse_secret_key",
            "sk-lf-" + uuid4(),
            "langfuse_secret_key",
            "Langfuse",
            "secret",
            "Langfuse secret key",
        ),
    ]


unit("langfuse_secret_key", U, "`sk-lf-` + UUID (the `pk-lf-` key is a look-alike)", gen_langfuse)
simple(
    "datadog_api_key",
    C,
    "32 hex (name or `DD-API-KEY`)",
    "Datadog",
    "apikey",
    "dd_api_key datadog_api_key",
    "Datadog API key",
    lambda: rs(HEX, 32),
    header="DD-API-KEY: {}",
)
simple(
    "datadog_app_key",
    C,
    "40 hex (name or `DD-APPLICATION-KEY`)",
    "Datadog",
    "key",
    "dd_app_key datadog_app_key dd_application_key",
    "Datadog application key",
    lambda: rs(HEX, 40),
    header="DD-APPLICATION-KEY: {}",
)
simple(
    "newrelic_user_api_key",
    C,
    "`NRAK-` + 27",
    "New Relic",
    "apikey",
    "new_relic_api_key newrelic_api_key",
    "New Relic user key",
    lambda: "NRAK-" + rs(UALNUM, 27),
    header="Api-Key: {}",
)
simple(
    "newrelic_license_key",
    C,
    "36 hex + `NRAL`",
    "New Relic",
    "key",
    "new_relic_license_key nr_license_key",
    "New Relic license key",
    lambda: rs(HEX, 36) + "NRAL",
)


def sentry_org_token() -> str:
    slug = f"{org()}"
    payload = {"iat": epoch() + 0.25, "url": "https://sentry.io", "region_url": "https://us.sentry.io", "org": slug}
    return "sntrys_" + b64(_jcompact(payload)).rstrip("=") + "_" + rs(URLSAFE, 43)


simple(
    "sentry_auth_token",
    C,
    "`sntryu_` + 64 hex, or `sntrys_` + base64 JSON + `_` + 43",
    "Sentry",
    "token",
    "sentry_auth_token",
    "Sentry auth token",
    lambda: pick(["sntryu_" + rs(HEX, 64), sentry_org_token()]),
)
simple(
    "grafana_service_account_token",
    C,
    "`glsa_` + 32 + `_` + 8 hex",
    "Grafana",
    "token",
    "grafana_token grafana_service_account_token grafana_api_key",
    "Grafana service-account token",
    lambda: "glsa_" + rs(ALNUM, 32) + "_" + rs(HEX, 8),
)


def grafana_cloud_token() -> str:
    payload = {
        "o": str(R.randrange(100000, 9999999)),
        "n": f"stack-{R.randrange(100000, 999999)}-{pick(['hm', 'hl', 'ht'])}-{pick(['read', 'write', 'alloy'])}",
        "k": rs(ALNUM, 24),
        "m": {"r": pick(["us", "eu", "prod-eu-west-2"])},
    }
    return "glc_" + b64(_jcompact(payload)).rstrip("=")


simple(
    "grafana_cloud_token",
    U,
    "`glc_` + base64 JSON",
    "Grafana Cloud",
    "token",
    "grafana_cloud_token gcloud_access_policy_token",
    "Grafana Cloud token",
    grafana_cloud_token,
)
simple(
    "pagerduty_api_key",
    C,
    "20-character REST key (`Token token=`)",
    "PagerDuty",
    "apikey",
    "pagerduty_api_key pd_api_key pagerduty_token",
    "PagerDuty API key",
    lambda: rs(URLSAFE + "+", 20),
    header="Authorization: Token token={}",
)
simple(
    "splunk_hec_token",
    C,
    "UUID (`Authorization: Splunk`)",
    "Splunk",
    "token",
    "splunk_hec_token hec_token",
    "Splunk HEC token",
    uuid4,
    header="Authorization: Splunk {}",
)
simple(
    "honeycomb_api_key",
    U,
    "`hcaik_` + 58 lowercase alphanumerics",
    "Honeycomb",
    "apikey",
    "honeycomb_api_key honeycomb_write_key",
    "Honeycomb API key",
    lambda: "hcaik_" + rs(LALNUM, 58),
    header="x-honeycomb-team: {}",
)
simple(
    "dynatrace_token",
    U,
    "`dt0c01.` + 24 + `.` + 64",
    "Dynatrace",
    "token",
    "dt_api_token dynatrace_token",
    "Dynatrace token",
    lambda: "dt0c01." + rs(UALNUM, 24) + "." + rs(UALNUM, 64),
    header="Authorization: Api-Token {}",
)
simple(
    "influxdb_token",
    C,
    "86 characters base64url + `==`",
    "InfluxDB",
    "token",
    "influxdb_token influx_token",
    "InfluxDB token",
    lambda: rs(URLSAFE, 86) + "==",
    header="Authorization: Token {}",
)


def gen_algolia() -> list[Entry]:
    return [
        L("account_identifier", rs(UALNUM, 10), "algolia_app_id", "Algolia app id"),
        S(
            "algolia_admin_key",
            rs(HEX, 32),
            "algolia_admin_key algolia_api_key algolia_write_key",
            "Algolia",
            "apikey",
            "Algolia admin key",
            header="X-Algolia-API-Key: {}",
        ),
    ]


unit("algolia_admin_key", C, "32 hex admin key (the app id is a look-alike)", gen_algolia)


def mapbox_token(prefix: str) -> str:
    body = b64u(_jcompact({"u": person().lower() + rs(LALNUM, 3), "a": rs(LALNUM, 25)}))
    return f"{prefix}.{body}.{rs(URLSAFE, 22)}"


simple(
    "mapbox_secret_token",
    C,
    "`sk.` + base64url JSON + `.` + 22",
    "Mapbox",
    "token",
    "mapbox_secret_token mapbox_download_token",
    "Mapbox secret token",
    lambda: mapbox_token("sk"),
)


def gen_cloudinary() -> list[Entry]:
    parts = [f"cloudinary://{R.randrange(10**14, 10**15)}:", sv("cloudinary_api_secret", rs(URLSAFE, 27)), f"@{org()}"]
    return [ent("cloudinary_api_secret", parts, "cloudinary_url", "Cloudinary", "dsn", "Cloudinary URL", cat="dsn")]


unit("cloudinary_api_secret", C, "secret inside `cloudinary://<key>:<secret>@<cloud>`", gen_cloudinary)
simple(
    "posthog_personal_api_key",
    U,
    "`phx_` + 43",
    "PostHog",
    "apikey",
    "posthog_personal_api_key posthog_api_key",
    "PostHog personal API key",
    lambda: "phx_" + rs(ALNUM, 43),
)


# ---------------------------------------------------------------------------------------------------------------
# secret kinds: payments and commerce

simple(
    "stripe_secret_key",
    C,
    "`sk_live_` + 24, or `sk_live_51` + 97",
    "Stripe",
    "key",
    "stripe_secret_key stripe_api_key stripe_key",
    "Stripe secret key",
    lambda: pick(["sk_live_" + rs(ALNUM, 24), "sk_live_51" + rs(ALNUM, 97)]),
)
simple(
    "stripe_restricted_key",
    C,
    "`rk_live_` + 24, or `rk_live_51` + 97",
    "Stripe",
    "key",
    "stripe_restricted_key stripe_rk stripe_reporting_key",
    "Stripe restricted key",
    lambda: pick(["rk_live_" + rs(ALNUM, 24), "rk_live_51" + rs(ALNUM, 97)]),
)
simple(
    "stripe_webhook_secret",
    C,
    "`whsec_` + 32",
    "Stripe",
    "secret",
    "stripe_webhook_secret stripe_signing_secret",
    "Stripe webhook signing secret",
    lambda: "whsec_" + rs(ALNUM, 32),
)
simple(
    "shopify_access_token",
    C,
    "`shpat_` / `shpca_` / `shppa_` + 32 hex",
    "Shopify",
    "token",
    "shopify_access_token shopify_admin_token",
    "Shopify Admin API token",
    lambda: pick(["shpat_", "shpca_", "shppa_"]) + rs(HEX, 32),
    header="X-Shopify-Access-Token: {}",
)
simple(
    "shopify_shared_secret",
    U,
    "`shpss_` + 32 hex",
    "Shopify",
    "secret",
    "shopify_api_secret shopify_shared_secret",
    "Shopify app shared secret",
    lambda: "shpss_" + rs(HEX, 32),
)
simple(
    "square_access_token",
    C,
    "`EAAA` + 60",
    "Square",
    "token",
    "square_access_token",
    "Square access token",
    lambda: "EAAA" + rs(URLSAFE, 60),
)


def gen_paypal() -> list[Entry]:
    return [
        L("oauth_client_id", "A" + rs(URLSAFE, 79), "paypal_client_id", "PayPal client id"),
        S(
            "paypal_client_secret",
            "E" + rs(URLSAFE, 79),
            "paypal_client_secret paypal_secret",
            "PayPal",
            "secret",
            "PayPal client secret",
        ),
    ]


unit("paypal_client_secret", C, "`E` + 79 (name only; the client id is a look-alike)", gen_paypal)
simple(
    "meta_access_token",
    C,
    "`EAA` + app letter + 150-200",
    "Meta",
    "token",
    "facebook_access_token fb_page_token whatsapp_token meta_access_token",
    "Meta Graph API token",
    lambda: "EAA" + pick("BGJI") + rs(ALNUM, R.randrange(150, 200)),
)


def gen_razorpay() -> list[Entry]:
    return [
        L("account_identifier", "rzp_live_" + rs(ALNUM, 14), "razorpay_key_id", "Razorpay key id"),
        S(
            "razorpay_key_secret",
            rs(ALNUM, 24),
            "razorpay_key_secret razorpay_secret",
            "Razorpay",
            "secret",
            "Razorpay key secret",
        ),
    ]


unit("razorpay_key_secret", U, "24 alphanumerics (the `rzp_live_` key id is a look-alike)", gen_razorpay)
simple(
    "shippo_api_token",
    U,
    "`shippo_live_` + 40 hex",
    "Shippo",
    "token",
    "shippo_api_token shippo_token",
    "Shippo token",
    lambda: "shippo_live_" + rs(HEX, 40),
    header="Authorization: ShippoToken {}",
)
simple(
    "easypost_api_key",
    U,
    "`EZAK` + 54 hex",
    "EasyPost",
    "apikey",
    "easypost_api_key",
    "EasyPost API key",
    lambda: "EZAK" + rs(HEX, 54),
)
simple(
    "duffel_token",
    U,
    "`duffel_live_` + 43",
    "Duffel",
    "token",
    "duffel_access_token",
    "Duffel token",
    lambda: "duffel_live_" + rs(URLSAFE, 43),
)
simple(
    "braintree_access_token",
    U,
    "`access_token$production$` + 16 + `$` + 32 hex",
    "Braintree",
    "token",
    "braintree_access_token",
    "Braintree access token",
    lambda: f"access_token$production${rs(LALNUM, 16)}${rs(HEX, 32)}",
)


def gen_woo() -> list[Entry]:
    return [
        S(
            "woocommerce_consumer_key",
            "ck_" + rs(HEX, 40),
            "woocommerce_consumer_key wc_consumer_key",
            "WooCommerce",
            "key",
            "WooCommerce consumer key",
        ),
        S(
            "woocommerce_consumer_secret",
            "cs_" + rs(HEX, 40),
            "woocommerce_consumer_secret wc_consumer_secret",
            "WooCommerce",
            "secret",
            "WooCommerce consumer secret",
        ),
    ]


kind("woocommerce_consumer_key", U, "`ck_` + 40 hex (labelled: travels with its secret)")
unit("woocommerce_consumer_secret", U, "`cs_` + 40 hex", gen_woo)
simple(
    "adafruit_io_key",
    U,
    "`aio_` + 28",
    "Adafruit IO",
    "key",
    "adafruit_io_key aio_key",
    "Adafruit IO key",
    lambda: "aio_" + rs(ALNUM, 28),
)


# ---------------------------------------------------------------------------------------------------------------
# secret kinds: keys and key material


def rsa_pem() -> str:
    key = rsa_key()
    return pem("RSA PRIVATE KEY", key.pkcs1()) if chance(0.5) else pem("PRIVATE KEY", key.pkcs8())


simple(
    "rsa_private_key",
    C,
    "2048-bit RSA key pair, PKCS #1 or PKCS #8 PEM (real key, seeded)",
    "RSA",
    "privkey",
    "private_key rsa_private_key jwt_private_key github_app_private_key tls_key signing_key",
    "RSA private key",
    rsa_pem,
    cat="pem",
)


def ec_pem() -> str:
    key = ec_key()
    return pem("EC PRIVATE KEY", key.sec1()) if chance(0.5) else pem("PRIVATE KEY", key.pkcs8())


simple(
    "ec_private_key",
    C,
    "P-256 key, SEC 1 or PKCS #8 PEM (public point derived)",
    "EC",
    "privkey",
    "ec_private_key apple_p8_key tls_key private_key apns_auth_key",
    "EC private key",
    ec_pem,
    cat="pem",
)


def openssh_key() -> str:
    seed = rbytes(32)
    pub = ed_public(seed)
    comment = f"{person().lower()}@{pick(['laptop', 'build-01', 'bastion', 'mbp', 'ci'])}".encode()
    pub_blob = sstr(b"ssh-ed25519") + sstr(pub)
    check = rbytes(4)
    priv = check + check + sstr(b"ssh-ed25519") + sstr(pub) + sstr(seed + pub) + sstr(comment)
    priv += bytes(range(1, 1 + (-len(priv)) % 8))
    blob = b"openssh-key-v1\0" + sstr(b"none") + sstr(b"none") + sstr(b"") + struct.pack(">I", 1)
    blob += sstr(pub_blob) + sstr(priv)
    return pem("OPENSSH PRIVATE KEY", blob, width=70)


simple(
    "openssh_private_key",
    C,
    "`openssh-key-v1` Ed25519 key (public half derived)",
    "OpenSSH",
    "privkey",
    "ssh_private_key deploy_key id_ed25519 ssh_key",
    "SSH private key",
    openssh_key,
    cat="pem",
)


def pgp_key() -> str:
    seed = rbytes(32)
    pub = ed_public(seed)
    created = struct.pack(">I", epoch())
    oid = bytes.fromhex("2b06010401da470f01")
    point = b"\x40" + pub
    body = b"\x04" + created + b"\x16" + bytes([len(oid)]) + oid + struct.pack(">H", 263) + point
    secret_int = int.from_bytes(seed, "big")
    mpi = struct.pack(">H", secret_int.bit_length()) + seed.lstrip(b"\0")
    body += b"\x00" + mpi + struct.pack(">H", sum(mpi) % 65536)
    uid = f"{person()} {pick(SURNAMES)} <{person().lower()}@{domain()}>".encode()
    packets = b"\xc5" + bytes([len(body)]) + body + b"\xcd" + bytes([len(uid)]) + uid
    text = b64(packets)
    lines = [text[i : i + 64] for i in range(0, len(text), 64)]
    crc = b64(crc24(packets).to_bytes(3, "big"))
    return (
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n"
        + "\n".join(lines)
        + f"\n={crc}\n-----END PGP PRIVATE KEY BLOCK-----"
    )


simple(
    "pgp_private_key",
    C,
    "armored OpenPGP Ed25519 secret-key + user-ID packets with a CRC-24 line",
    "PGP",
    "privkey",
    "gpg_private_key pgp_private_key signing_key gpg_key",
    "PGP private key",
    pgp_key,
    cat="pem",
)


def putty_key() -> str:
    seed = rbytes(32)
    pub_blob = sstr(b"ssh-ed25519") + sstr(ed_public(seed))
    priv_blob = sstr(seed)
    comment = f"eddsa-key-{rdate().strftime('%Y%m%d')}"
    mac_data = sstr(b"ssh-ed25519") + sstr(b"none") + sstr(comment.encode()) + sstr(pub_blob) + sstr(priv_blob)
    mac = hmac.new(b"", mac_data, hashlib.sha256).hexdigest()
    pub_text, priv_text = b64(pub_blob), b64(priv_blob)
    pub_lines = [pub_text[i : i + 64] for i in range(0, len(pub_text), 64)]
    return (
        f"PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: {comment}\nPublic-Lines: {len(pub_lines)}\n"
        + "\n".join(pub_lines)
        + f"\nPrivate-Lines: 1\n{priv_text}\nPrivate-MAC: {mac}"
    )


simple(
    "putty_private_key",
    U,
    "PuTTY PPK v3 Ed25519 key with its HMAC-SHA-256 `Private-MAC`",
    "PuTTY",
    "privkey",
    "putty_key ppk_key",
    "PuTTY private key",
    putty_key,
    cat="pem",
)


def age_identity() -> str:
    return bech32("age-secret-key-", convertbits(rbytes(32))).upper()


simple(
    "age_secret_key",
    U,
    "`AGE-SECRET-KEY-1` + bech32",
    "age",
    "privkey",
    "sops_age_key age_identity age_key",
    "age identity",
    age_identity,
)
simple(
    "wireguard_private_key",
    C,
    "base64 clamped X25519 private key",
    "WireGuard",
    "privkey",
    "wireguard_private_key wg_private_key private_key",
    "WireGuard private key",
    lambda: b64(x25519_clamp(rbytes(32))),
)


def nats_seed() -> str:
    raw = bytes([(18 << 3) | ((20 << 3) >> 5), ((20 << 3) & 31) << 3]) + rbytes(32)
    raw += crc16_xmodem(raw).to_bytes(2, "little")
    return base64.b32encode(raw).decode().rstrip("=")


simple(
    "nats_nkey_seed",
    U,
    "`SU` + 56 base32 user seed with CRC-16",
    "NATS",
    "seed",
    "nats_nkey_seed nkey_seed nats_seed",
    "NATS nkey seed",
    nats_seed,
)
simple(
    "ethereum_private_key",
    U,
    "64 hex (optionally `0x`) under a private-key name",
    "Ethereum",
    "privkey",
    "eth_private_key deployer_private_key wallet_private_key private_key",
    "Ethereum private key",
    lambda: pick(["0x", ""]) + rbytes(32).hex(),
)
simple(
    "bitcoin_wif_private_key",
    U,
    "WIF compressed key (base58check)",
    "Bitcoin",
    "privkey",
    "btc_wif bitcoin_private_key wallet_wif",
    "Bitcoin WIF key",
    lambda: b58check(b"\x80" + rbytes(32) + b"\x01"),
)


def solana_keypair() -> str:
    seed = rbytes(32)
    return "[" + ",".join(str(b) for b in seed + ed_public(seed)) + "]"


simple(
    "solana_keypair",
    U,
    "64-byte keypair JSON array (public half derived)",
    "Solana",
    "privkey",
    "solana_keypair solana_private_key id_json",
    "Solana keypair",
    solana_keypair,
)


def turso_token() -> str:
    return jwt_eddsa({"a": pick(["rw", "ro"]), "iat": epoch(), "id": uuid4()}, rbytes(32))


simple(
    "turso_auth_token",
    U,
    "EdDSA JWT with a real Ed25519 signature",
    "Turso",
    "token",
    "turso_auth_token libsql_auth_token",
    "Turso auth token",
    turso_token,
)


def k8s_cluster_key() -> tuple[RsaKey, str]:
    return rsa_key(), b64u(rbytes(32))


_CLUSTER_KEYS: list[tuple[RsaKey, str]] = []


def k8s_sa_token() -> str:
    if len(_CLUSTER_KEYS) < 3:
        _CLUSTER_KEYS.append(k8s_cluster_key())
    key, kid = pick(_CLUSTER_KEYS)
    iat = epoch()
    ns = pick(["default", "ci", "monitoring", "payments", "kube-system", "argocd"])
    sa = pick(["deployer", "gitlab-runner", "prometheus", "argocd-server", "default", "backup"])
    payload = {
        "aud": ["https://kubernetes.default.svc.cluster.local"],
        "exp": iat + 31536000,
        "iat": iat,
        "iss": "https://kubernetes.default.svc.cluster.local",
        "kubernetes.io": {"namespace": ns, "serviceaccount": {"name": sa, "uid": uuid4()}},
        "nbf": iat,
        "sub": f"system:serviceaccount:{ns}:{sa}",
    }
    return jwt_rs256(payload, key, kid)


simple(
    "k8s_service_account_token",
    C,
    "RS256 service-account JWT (real signature)",
    "Kubernetes",
    "token",
    "kube_token k8s_token sa_token kubernetes_token",
    "Kubernetes service-account token",
    k8s_sa_token,
)
simple(
    "kubeconfig_client_key",
    C,
    "base64 of an EC private-key PEM (`client-key-data`)",
    "kubeconfig",
    "privkey",
    "client_key_data kube_client_key",
    "kubeconfig client key",
    lambda: b64(ec_pem().encode() + b"\n"),
)
simple(
    "kubeadm_bootstrap_token",
    U,
    "`[a-z0-9]{6}.[a-z0-9]{16}`",
    "kubeadm",
    "token",
    "bootstrap_token kubeadm_token join_token",
    "kubeadm bootstrap token",
    lambda: rs(LALNUM, 6) + "." + rs(LALNUM, 16),
)
simple(
    "k3s_cluster_token",
    U,
    "`K10` + 64 hex + `::server:` + 32 hex",
    "k3s",
    "token",
    "k3s_token k3s_cluster_secret",
    "k3s join token",
    lambda: "K10" + rs(HEX, 64) + "::server:" + rs(HEX, 32),
)
simple(
    "docker_swarm_join_token",
    U,
    "`SWMTKN-1-` + 50 + `-` + 25",
    "Docker Swarm",
    "token",
    "swarm_join_token worker_join_token",
    "Swarm join token",
    lambda: "SWMTKN-1-" + rs(LALNUM, 50) + "-" + rs(LALNUM, 25),
)
simple(
    "erlang_cookie",
    U,
    "20 upper-case letters",
    "Erlang",
    "secret",
    "erlang_cookie rabbitmq_erlang_cookie release_cookie",
    "Erlang cookie",
    lambda: rs(UPPER, 20),
)


def gen_confluent() -> list[Entry]:
    return [
        S(
            "confluent_api_key",
            rs(UALNUM, 16),
            "confluent_api_key kafka_api_key sasl_username",
            "Confluent Cloud",
            "key",
            "Confluent API key",
        ),
        S(
            "confluent_api_secret",
            rs(ALNUM + "+/", 64),
            "confluent_api_secret kafka_api_secret sasl_password",
            "Confluent Cloud",
            "secret",
            "Confluent API secret",
        ),
    ]


kind("confluent_api_key", U, "16 upper-case alphanumerics (labelled: travels with its secret)")
unit("confluent_api_secret", U, "64 characters next to its key", gen_confluent)


# ---------------------------------------------------------------------------------------------------------------
# secret kinds: generic secrets (no provider prefix)

GENERIC_KEY_NAMES = (
    "api_key apikey service_api_key partner_api_key x_api_key vendor_api_key client_key access_key internal_api_key"
)


def generic_blob() -> str:
    return pick([rs(HEX, 32), rs(HEX, 40), rs(ALNUM, 32), rs(ALNUM, 48), b64(rbytes(30)), rs(URLSAFE, 40), rs(HEX, 64)])


simple(
    "generic_api_key",
    C,
    "API key without a prefix, known only by its name or sentence",
    "",
    "apikey",
    GENERIC_KEY_NAMES,
    "API key",
    generic_blob,
    header="X-API-Key: {}",
)
simple(
    "generic_access_token",
    C,
    "opaque access token without a prefix",
    "",
    "token",
    "access_token auth_token api_token service_token integration_token",
    "access token",
    lambda: pick([rs(URLSAFE, 43), rs(HEX, 64), rs(ALNUM, 40), b64u(rbytes(48))]),
)
simple(
    "oauth_client_secret",
    C,
    "OAuth client secret of an unnamed app",
    "",
    "secret",
    "client_secret oauth_client_secret oidc_client_secret keycloak_client_secret",
    "OAuth client secret",
    lambda: pick([rs(URLSAFE, 40), rs(ALNUM, 32), rs(HEX, 48)]),
)
simple(
    "webhook_signing_secret",
    C,
    "HMAC secret for webhook signatures",
    "",
    "secret",
    "webhook_secret signing_secret hmac_secret github_webhook_secret webhook_signing_key",
    "webhook signing secret",
    lambda: pick([rs(ALNUM, 32), rs(HEX, 64), b64(rbytes(32))]),
)
simple(
    "generic_password",
    C,
    "human and random passwords under ordinary names",
    "",
    "password",
    "password admin_password root_password service_password app_password passwd login_password",
    "password",
    password,
    cat="password",
)


def gen_bearer() -> list[Entry]:
    tok = pick([rs(URLSAFE, R.randrange(30, 60)), rs(HEX, 40), b64u(rbytes(32))])
    return [
        ent(
            "bearer_token",
            ["Bearer ", sv("bearer_token", tok)],
            "authorization auth_header authorization_header",
            "",
            "token",
            "bearer token",
            cat="header",
            header="Authorization: {}",
        )
    ]


unit("bearer_token", C, "opaque token after `Bearer `", gen_bearer)


def gen_basic() -> list[Entry]:
    cred = b64(f"{username()}:{pick([safe_password(), rs(ALNUM, 24)])}".encode())
    return [
        ent(
            "http_basic_auth",
            ["Basic ", sv("http_basic_auth", cred)],
            "authorization basic_auth_header auth_header",
            "",
            "credentials",
            "basic-auth header",
            cat="header",
            header="Authorization: {}",
        )
    ]


unit("http_basic_auth", C, "base64(`user:password`) after `Basic `", gen_basic)


def cookie_value() -> tuple[str, str]:
    style = R.randrange(6)
    if style == 0:
        body = b64u(_jcompact({"_user_id": str(R.randrange(1, 99999)), "_fresh": True, "csrf_token": rs(HEX, 40)}))
        return "session", f"{body}.{b64u(rbytes(4))}.{rs(URLSAFE, 27)}"
    if style == 1:
        return "connect.sid", f"s%3A{rs(URLSAFE, 32)}.{quote(b64(rbytes(32)).rstrip('='), safe='')}"
    if style == 2:
        return "sessionid", rs(LALNUM, 32)
    if style == 3:
        return "_" + pick(SERVICES) + "_session", f"{quote(b64(rbytes(R.randrange(90, 160))), safe='')}--{rs(HEX, 40)}"
    if style == 4:
        return "laravel_session", quote(
            b64(_jcompact({"iv": b64(rbytes(16)), "value": b64(rbytes(48)), "mac": rs(HEX, 64), "tag": ""})), safe=""
        )
    return pick(["JSESSIONID", "PHPSESSID"]), rs(HEXU, 32) if chance(0.5) else rs(LALNUM, 26)


def gen_cookie() -> list[Entry]:
    name, value = cookie_value()
    return [
        ent(
            "session_cookie",
            [f"{name}=", sv("session_cookie", value)],
            "cookie session_cookie auth_cookie",
            "",
            "cookie",
            "session cookie",
            cat="cookie",
            header="Cookie: {}",
        )
    ]


unit("session_cookie", C, "session cookie values after `name=`", gen_cookie)


def user_jwt() -> str:
    iat = epoch()
    payload = {
        "sub": str(R.randrange(1000, 999999)),
        "email": f"{person().lower()}@{domain()}",
        "role": pick(["admin", "user", "editor", "support"]),
        "iat": iat,
        "exp": iat + pick([900, 3600, 86400]),
    }
    return jwt_hs256(payload)


simple(
    "jwt",
    C,
    "HS256 JWT with a real HMAC signature",
    "",
    "token",
    "jwt access_token id_token auth_token session_jwt",
    "JWT",
    user_jwt,
)
simple(
    "jwt_signing_secret",
    C,
    "HMAC secret that signs JWTs",
    "",
    "secret",
    "jwt_secret jwt_signing_key auth_secret nextauth_secret token_secret",
    "JWT signing secret",
    lambda: pick([rs(ALNUM, 48), b64(rbytes(48)), rs(HEX, 64), rs(ALNUM + "!@#%^&*", 32)]),
)
simple(
    "encryption_key",
    C,
    "32-byte keys as hex / base64, Fernet keys",
    "",
    "key",
    "encryption_key data_encryption_key aes_key master_key field_encryption_key fernet_key",
    "encryption key",
    lambda: pick([b64(rbytes(32)), rbytes(32).hex(), b64u(rbytes(32)) + "=", b64(rbytes(16))]),
)


def app_secret() -> tuple[str, str]:
    style = R.randrange(4)
    if style == 0:
        return "django_secret_key secret_key", pick(["django-insecure-", ""]) + rs(LALNUM + "!@#$%^&*(-_=+)", 50)
    if style == 1:
        return "secret_key_base rails_secret_key_base", rs(HEX, 128)
    if style == 2:
        return "flask_secret_key secret_key session_secret", rs(HEX, 64)
    return "app_key laravel_app_key", "base64:" + b64(rbytes(32))


def gen_app_secret() -> list[Entry]:
    names, value = app_secret()
    return [S("app_secret_key", value, names, "", "secret", "framework secret key")]


unit("app_secret_key", C, "Django `SECRET_KEY`, Rails `secret_key_base`, Flask, Laravel `APP_KEY`", gen_app_secret)


def totp_secret() -> str:
    return pick([rs(B32, 16), rs(B32, 32), base64.b32encode(rbytes(20)).decode()])


def gen_totp() -> list[Entry]:
    seed = totp_secret()
    if chance(0.4):
        who = f"{person().lower()}@{domain()}"
        issuer = pick(["GitHub", "AWS", "Okta", "Cloudflare", "Acme VPN", "Google"])
        parts = [f"otpauth://totp/{quote(issuer)}:{who}?secret=", sv("totp_seed", seed), f"&issuer={quote(issuer)}"]
        return [ent("totp_seed", parts, "otpauth_uri totp_uri mfa_uri", issuer, "seed", "TOTP URI", cat="dsn")]
    return [S("totp_seed", seed, "totp_secret mfa_secret otp_seed two_factor_secret", "", "seed", "TOTP seed")]


unit("totp_seed", C, "base32 TOTP seed (alone or in an `otpauth://` URI)", gen_totp)


def gen_recovery() -> list[Entry]:
    style = R.randrange(3)
    count = R.randrange(2, 5)
    if style == 0:
        codes = [f"{rs(LALNUM, 5)}-{rs(LALNUM, 5)}" for _ in range(count)]
    elif style == 1:
        codes = [f"{rs(DIGITS, 4)} {rs(DIGITS, 4)}" for _ in range(count)]
    else:
        codes = [rs(UALNUM, 4) + "-" + rs(UALNUM, 4) + "-" + rs(UALNUM, 4) for _ in range(count)]
    parts: list = []
    for i, code in enumerate(codes):
        if i:
            parts.append(pick([", ", " ", " / "]))
        parts.append(sv("recovery_code", code))
    product = pick(["GitHub", "Google", "Microsoft", "Proton", "Bitwarden", "Dropbox", "AWS root", "Okta"])
    return [
        ent(
            "recovery_code",
            parts,
            "recovery_codes backup_codes mfa_backup_codes",
            product,
            "code",
            f"{product} recovery codes",
            cat="password",
        )
    ]


unit("recovery_code", C, "2FA backup / recovery codes (each code labelled)", gen_recovery)
simple(
    "wifi_password",
    C,
    "Wi-Fi / WPA passphrase",
    "",
    "wifi",
    "wifi_password wlan_key wpa_psk guest_wifi_password",
    "Wi-Fi password",
    lambda: pick([password(), "-".join(pick(WORDS) for _ in range(3)), rs(ALNUM, 12)]),
    cat="password",
)
simple(
    "keystore_password",
    C,
    "Java / Android keystore and key passwords",
    "",
    "password",
    "keystore_password store_password key_password signing_store_password",
    "keystore password",
    password,
    cat="password",
)
simple(
    "vpn_preshared_key",
    C,
    "IPsec / WireGuard pre-shared keys",
    "",
    "key",
    "preshared_key ipsec_psk vpn_psk wg_preshared_key",
    "VPN pre-shared key",
    lambda: pick([b64(rbytes(32)), rs(ALNUM, 32), password()]),
)
simple(
    "ldap_bind_password",
    C,
    "LDAP bind password",
    "LDAP",
    "password",
    "ldap_bind_password bind_password ldap_password ad_bind_password",
    "LDAP bind password",
    password,
    cat="password",
)
simple(
    "minio_secret_key",
    C,
    "MinIO root password / secret key (40)",
    "MinIO",
    "secret",
    "minio_root_password minio_secret_key",
    "MinIO secret key",
    lambda: rs(ALNUM, 40),
)


def gen_elastic_key() -> list[Entry]:
    cred = b64(f"{rs(URLSAFE, 20)}:{rs(URLSAFE, 22)}".encode())
    return [
        ent(
            "elastic_api_key",
            ["ApiKey ", sv("elastic_api_key", cred)],
            "elastic_authorization es_auth_header",
            "Elasticsearch",
            "apikey",
            "Elasticsearch API key",
            cat="header",
            header="Authorization: {}",
        )
    ]


unit("elastic_api_key", C, "base64(`id:api_key`) after `ApiKey `", gen_elastic_key)


# ---------------------------------------------------------------------------------------------------------------
# secret kinds: database and URL credentials (only the password is labelled)


def dsn_entry(k: str, parts: list, names: str, product: str, label: str) -> list[Entry]:
    return [ent(k, parts, names, product, "dsn", label, cat="dsn")]


def pw_entry(k: str, names: str, product: str, label: str, pw: str | None = None) -> list[Entry]:
    return [S(k, pw or password(), names, product, "password", label, cat="password")]


def gen_postgres() -> list[Entry]:
    k = "postgres_password"
    user, db, h = username(), pick(SERVICES), host()
    style = R.randrange(5)
    pw = password()
    if style == 0:
        return dsn_entry(
            k,
            [f"postgres://{user}:", sv(k, urlpw(pw)), f"@{h}:5432/{db}?sslmode=require"],
            "database_url db_url postgres_url",
            "PostgreSQL",
            "Postgres URL",
        )
    if style == 1:
        return dsn_entry(
            k,
            [f"host={h} port=5432 dbname={db} user={user} password=", sv(k, safe_password()), " sslmode=verify-full"],
            "pg_dsn postgres_dsn libpq_conninfo",
            "PostgreSQL",
            "libpq string",
        )
    if style == 2:
        return dsn_entry(
            k,
            [f"jdbc:postgresql://{h}:5432/{db}?user={user}&password=", sv(k, urlpw(pw))],
            "spring_datasource_url jdbc_url",
            "PostgreSQL",
            "JDBC URL",
        )
    if style == 3:
        return dsn_entry(
            k,
            [f"postgresql+psycopg://{user}:", sv(k, urlpw(pw)), f"@{h}/{db}"],
            "sqlalchemy_database_uri database_url",
            "PostgreSQL",
            "SQLAlchemy URL",
        )
    return pw_entry(
        k, "pgpassword postgres_password db_password postgresql_password", "PostgreSQL", "Postgres password", pw
    )


unit("postgres_password", C, "password in `postgres://` URLs, libpq / JDBC strings, `PGPASSWORD`", gen_postgres)


def gen_mysql() -> list[Entry]:
    k = "mysql_password"
    user, db, h = username(), pick(SERVICES), host()
    style = R.randrange(4)
    if style == 0:
        return dsn_entry(
            k,
            [f"mysql://{user}:", sv(k, urlpw(password())), f"@{h}:3306/{db}"],
            "database_url mysql_url",
            "MySQL",
            "MySQL URL",
        )
    if style == 1:
        return dsn_entry(
            k,
            [f"{user}:", sv(k, safe_password()), f"@tcp({h}:3306)/{db}?parseTime=true"],
            "mysql_dsn db_dsn",
            "MySQL",
            "Go MySQL DSN",
        )
    if style == 2:
        return dsn_entry(
            k,
            [f"jdbc:mysql://{h}:3306/{db}?user={user}&password=", sv(k, urlpw(password())), "&useSSL=true"],
            "jdbc_url spring_datasource_url",
            "MySQL",
            "JDBC URL",
        )
    return pw_entry(
        k, "mysql_password mysql_root_password db_password mariadb_root_password", "MySQL", "MySQL password"
    )


unit("mysql_password", C, "password in `mysql://` URLs, Go DSNs, JDBC, `MYSQL_PASSWORD`", gen_mysql)


def gen_mongo() -> list[Entry]:
    k = "mongodb_password"
    user = username()
    if chance(0.7):
        cluster = f"{pick(['cluster0', 'prod-shard', 'main'])}.{rs(LALNUM, 5)}.mongodb.net"
        return dsn_entry(
            k,
            [
                f"mongodb+srv://{user}:",
                sv(k, urlpw(password())),
                f"@{cluster}/{pick(SERVICES)}?retryWrites=true&w=majority",
            ],
            "mongodb_uri mongo_url database_url",
            "MongoDB",
            "MongoDB URI",
        )
    return pw_entry(k, "mongo_initdb_root_password mongodb_password mongo_password", "MongoDB", "MongoDB password")


unit("mongodb_password", C, "password in `mongodb://` / `mongodb+srv://` URIs", gen_mongo)


def gen_redis() -> list[Entry]:
    k = "redis_password"
    style = R.randrange(3)
    if style == 0:
        return dsn_entry(
            k,
            ["redis://:", sv(k, urlpw(password())), f"@{host('cache')}:6379/0"],
            "redis_url cache_url celery_broker_url",
            "Redis",
            "Redis URL",
        )
    if style == 1:
        return dsn_entry(
            k,
            [
                "rediss://default:",
                sv(k, rs(ALNUM, 32)),
                f"@{pick(['eu1', 'us1'])}-{pick(WORDS)}-{R.randrange(10000, 99999)}.upstash.io:6379",
            ],
            "redis_url upstash_redis_url",
            "Redis",
            "Redis URL",
        )
    return pw_entry(k, "redis_password requirepass redis_auth", "Redis", "Redis password")


unit("redis_password", C, "password in `redis://` / `rediss://` URLs, `REDIS_PASSWORD`", gen_redis)


def ado_password() -> str:
    while True:
        pw = password()
        if not re.search(r"[;'\"{}\s\\]", pw):
            return pw


def gen_mssql() -> list[Entry]:
    k = "mssql_password"
    if chance(0.65):
        server = pick([f"tcp:{org()}-sql.database.windows.net,1433", f"{host()},1433", "localhost\\SQLEXPRESS"])
        parts = [
            f"Server={server};Initial Catalog={pick(SERVICES)};User ID={username()};Password=",
            sv(k, ado_password()),
            ";Encrypt=True;TrustServerCertificate=False;",
        ]
        return dsn_entry(
            k,
            parts,
            "connection_string default_connection sql_connection_string",
            "SQL Server",
            "SQL Server connection string",
        )
    return pw_entry(k, "mssql_sa_password sa_password mssql_password", "SQL Server", "SQL Server password")


unit("mssql_password", C, "password in ADO.NET strings, `MSSQL_SA_PASSWORD`", gen_mssql)


def gen_amqp() -> list[Entry]:
    k = "amqp_password"
    if chance(0.7):
        return dsn_entry(
            k,
            [
                f"{pick(['amqp', 'amqps'])}://{username()}:",
                sv(k, urlpw(password())),
                f"@{host('mq')}:{pick(['5672', '5671'])}/{pick(['%2F', 'orders', 'prod'])}",
            ],
            "amqp_url rabbitmq_url celery_broker_url broker_url",
            "RabbitMQ",
            "AMQP URL",
        )
    return pw_entry(k, "rabbitmq_default_pass rabbitmq_password amqp_password", "RabbitMQ", "RabbitMQ password")


unit("amqp_password", C, "password in `amqp://` / `amqps://` URLs, `RABBITMQ_DEFAULT_PASS`", gen_amqp)


def gen_snowflake() -> list[Entry]:
    k = "snowflake_password"
    if chance(0.6):
        acct = (
            f"{rs(LOWER, 2)}{R.randrange(10000, 99999)}.{pick(['eu-central-1', 'us-east-2.aws', 'west-europe.azure'])}"
        )
        return dsn_entry(
            k,
            [
                f"snowflake://{username()}:",
                sv(k, urlpw(password())),
                f"@{acct}/{pick(['ANALYTICS', 'RAW', 'MARTS'])}/PUBLIC?warehouse=COMPUTE_WH&role=TRANSFORMER",
            ],
            "snowflake_url dbt_snowflake_url",
            "Snowflake",
            "Snowflake URL",
        )
    return pw_entry(k, "snowsql_pwd snowflake_password dbt_password", "Snowflake", "Snowflake password")


unit("snowflake_password", C, "password in `snowflake://` URLs, `SNOWSQL_PWD`", gen_snowflake)


def gen_clickhouse() -> list[Entry]:
    k = "clickhouse_password"
    if chance(0.5):
        return dsn_entry(
            k,
            ["clickhouse://default:", sv(k, urlpw(password())), f"@{host('olap')}:9440/analytics?secure=true"],
            "clickhouse_url clickhouse_dsn",
            "ClickHouse",
            "ClickHouse URL",
        )
    return pw_entry(k, "clickhouse_password ch_password", "ClickHouse", "ClickHouse password")


unit("clickhouse_password", C, "password in `clickhouse://` URLs, `CLICKHOUSE_PASSWORD`", gen_clickhouse)


def gen_elastic_pw() -> list[Entry]:
    k = "elasticsearch_password"
    if chance(0.5):
        return dsn_entry(
            k,
            ["https://elastic:", sv(k, urlpw(password())), f"@{host('search')}:9200"],
            "elasticsearch_url es_url",
            "Elasticsearch",
            "Elasticsearch URL",
        )
    return pw_entry(k, "elastic_password elasticsearch_password es_password", "Elasticsearch", "elastic password")


unit("elasticsearch_password", C, "password of the `elastic` user, alone or in a URL", gen_elastic_pw)


def gen_kafka() -> list[Entry]:
    k = "kafka_sasl_password"
    if chance(0.5):
        parts = [
            f'org.apache.kafka.common.security.scram.ScramLoginModule required username="{username()}" password="',
            sv(k, safe_password()),
            '";',
        ]
        return dsn_entry(k, parts, "sasl_jaas_config kafka_jaas_config", "Kafka", "Kafka JAAS config")
    return pw_entry(k, "kafka_sasl_password kafka_password sasl_password", "Kafka", "Kafka SASL password")


unit("kafka_sasl_password", C, "SASL password in a JAAS config or `KAFKA_SASL_PASSWORD`", gen_kafka)


def gen_smtp() -> list[Entry]:
    k = "smtp_password"
    if chance(0.4):
        return dsn_entry(
            k,
            [
                f"smtp://{username()}%40{domain()}:",
                sv(k, urlpw(password())),
                f"@{pick(['smtp.gmail.com', 'smtp.office365.com', 'email-smtp.eu-west-1.amazonaws.com'])}:587",
            ],
            "smtp_url email_url mailer_dsn",
            "SMTP",
            "SMTP URL",
        )
    return pw_entry(k, "smtp_password email_host_password mail_password smtp_pass", "SMTP", "SMTP password")


unit("smtp_password", C, "SMTP password under `SMTP_PASSWORD` or in `smtp://` URLs", gen_smtp)


def gen_url_cred() -> list[Entry]:
    k = "url_credential_password"
    user, pw = username(), urlpw(password())
    style = R.randrange(4)
    if style == 0:
        pre = f"https://{user}:"
        post = f"@git.{domain()}/{pick(SERVICES)}/{pick(SERVICES)}.git"
        names = "git_remote_url repo_url"
    elif style == 1:
        pre, post, names = f"http://{user}:", f"@proxy.{domain()}:3128", "http_proxy https_proxy"
    elif style == 2:
        pre, post, names = f"ftp://{user}:", f"@ftp.{domain()}/outgoing/", "ftp_url export_target"
    else:
        pre, post, names = f"sftp://{user}:", f"@files.{domain()}:22/upload", "sftp_url partner_drop"
    return dsn_entry(k, [pre, sv(k, pw), post], names, "", "URL with credentials")


unit("url_credential_password", C, "password in `https://user:pass@`, proxy, `ftp://`, `sftp://` URLs", gen_url_cred)


# ---------------------------------------------------------------------------------------------------------------
# look-alike kinds (public values a careless scanner would flag)

SECRETISH = (
    "api_key password client_secret token db_password secret_key access_token auth_token stripe_secret_key "
    "github_token openai_api_key private_key webhook_secret smtp_password aws_secret_access_key slack_bot_token"
)


def look(name: str, fmt: str, gen: Callable[[], list[Entry]]) -> None:
    unit(name, True, fmt, gen, secret=False)


def one_look(name: str, fmt: str, names: str, label: str, make: Callable[[], str], *, cat: str = "id") -> None:
    look(name, fmt, lambda: [L(name, make(), names, label, cat)])


def variant_look(name: str, fmt: str, label: str, variants: list[tuple[str, Callable[[], str]]]) -> None:
    """A look-alike kind with several shapes; each shape comes with the names it is stored under."""

    def gen() -> list[Entry]:
        names, make = pick(variants)
        return [L(name, make(), names, label)]

    look(name, fmt, gen)


def sha1_blob() -> str:
    data = rbytes(R.randrange(40, 400))
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


one_look(
    "uuid", "UUIDs used as ids", "correlation_id tenant_uuid user_id installation_id workspace_id job_id", "UUID", uuid4
)
one_look(
    "git_sha", "commit SHAs (SHA-1 of a blob)", "commit_sha git_sha build_revision source_version", "commit", sha1_blob
)
one_look(
    "sha256_checksum",
    "SHA-256 file digests",
    "sha256 checksum artifact_sha256 expected_sha256",
    "SHA-256 checksum",
    lambda: hashlib.sha256(rbytes(64)).hexdigest(),
)
one_look(
    "md5_or_etag",
    "MD5 checksums and S3 ETags",
    "etag md5 content_md5",
    "ETag",
    lambda: pick([hashlib.md5(rbytes(64), usedforsecurity=False).hexdigest(), f"{rs(HEX, 32)}-{R.randrange(2, 40)}"]),
)


def image_name() -> str:
    return pick(
        [
            f"ghcr.io/{org()}/{pick(SERVICES)}",
            f"{pick(['postgres', 'redis', 'nginx', 'python', 'node'])}",
            f"registry.gitlab.com/{org()}/{pick(SERVICES)}",
            f"quay.io/{org()}/{pick(SERVICES)}",
        ]
    )


look(
    "container_digest",
    "`sha256:` image digests",
    lambda: [
        Entry(
            "container_digest",
            [image_name() + "@", lv("container_digest", "sha256:" + rs(HEX, 64))],
            ("image", "image_ref", "base_image"),
            "",
            "id",
            "image digest",
            "id",
        )
    ],
)
one_look(
    "npm_integrity",
    "`sha512-` lockfile integrity",
    "integrity",
    "lockfile integrity",
    lambda: "sha512-" + b64(rbytes(64)),
)
one_look(
    "sri_integrity",
    "`sha384-` subresource integrity",
    "integrity sri_hash",
    "SRI hash",
    lambda: "sha384-" + b64(rbytes(48)),
)


def password_hash() -> str:
    style = R.randrange(4)
    if style == 0:
        return f"$2b${pick(['10', '12', '12', '14'])}$" + rs("./" + ALNUM, 53)
    if style == 1:
        return f"$argon2id$v=19$m=65536,t=3,p=4${b64(rbytes(16)).rstrip('=')}${b64(rbytes(32)).rstrip('=')}"
    if style == 2:
        return "$6$" + rs(ALNUM + "./", 16) + "$" + rs(ALNUM + "./", 86)
    return f"pbkdf2_sha256$870000${rs(ALNUM, 22)}${b64(rbytes(32))}"


one_look(
    "password_hash",
    "bcrypt, argon2id, sha512-crypt and Django PBKDF2 hashes",
    "password_hash hashed_password admin_password_hash htpasswd_hash",
    "password hash",
    password_hash,
)
BASE64_TEXTS = [
    "Deploy finished at 14:02 UTC",
    '{"theme":"dark","lang":"pt-BR","beta":true}',
    "hello from the staging cluster",
    "user:preferences:v2",
    "The quick brown fox jumps over the lazy dog",
    "meeting moved to thursday",
    "release notes: fixed the CSV export",
    "<svg width='16' height='16'></svg>",
    "feature-flag:new-checkout=on",
    "Content-Type: text/plain; charset=utf-8",
    "Bonjour tout le monde",
    "weekly report, week 32",
    "ping",
]
one_look(
    "base64_text",
    "base64 of ordinary text",
    "payload message_b64 encoded_banner data",
    "base64 payload",
    lambda: b64(pick(BASE64_TEXTS).encode() + pick([b"", b"\n", b" (v" + str(R.randrange(9)).encode() + b")"])),
)


def ed25519_spki(pub: bytes) -> bytes:
    return der_seq(der_seq(der_oid(OID_ED25519)), der_bits(pub))


def public_key_pem() -> str:
    if chance(0.6):
        return pem("PUBLIC KEY", ec_key().spki())
    return pem("PUBLIC KEY", ed25519_spki(ed_public(rbytes(32))))


one_look(
    "public_key_pem",
    "`BEGIN PUBLIC KEY` PEM (P-256 or Ed25519)",
    "public_key jwt_public_key verification_key",
    "public key",
    public_key_pem,
    cat="pem",
)


def x509_name(cn: str, o: str) -> bytes:
    def rdn(oid: str, value: str) -> bytes:
        return der(0x31, der_seq(der_oid(oid), der(0x0C, value.encode())))

    return der_seq(rdn("2.5.4.6", pick(["DE", "US", "PT", "FR", "JP", "NL"])), rdn("2.5.4.10", o), rdn("2.5.4.3", cn))


def certificate() -> str:
    key = ec_key()
    cn = f"{pick(SERVICES)}.{domain()}"
    name = x509_name(cn, org().title())
    start = rdate()
    end = start + dt.timedelta(days=pick([90, 365, 397, 825]))
    validity = der_seq(
        der(0x17, start.strftime("%y%m%d").encode() + b"000000Z"),
        der(0x17, end.strftime("%y%m%d").encode() + b"235959Z"),
    )
    san = der_seq(der_oid("2.5.29.17"), der_octets(der_seq(der(0x82, cn.encode()))))
    basic = der_seq(der_oid("2.5.29.19"), b"\x01\x01\xff", der_octets(der_seq()))
    tbs = der_seq(
        der(0xA0, der_int(2)),
        der_int(int.from_bytes(rbytes(16), "big") >> 1),
        der_seq(der_oid(OID_ECDSA_SHA256)),
        name,
        validity,
        name,
        key.spki(),
        der(0xA3, der_seq(san, basic)),
    )
    cert = der_seq(tbs, der_seq(der_oid(OID_ECDSA_SHA256)), der_bits(key.sign(tbs)))
    return pem("CERTIFICATE", cert)


one_look(
    "certificate",
    "self-signed X.509 certificates (PEM, real ECDSA signature)",
    "tls_cert certificate ca_cert ssl_certificate",
    "certificate",
    certificate,
    cat="pem",
)


def ssh_pub() -> str:
    comment = f"{person().lower()}@{pick(['laptop', 'build-01', 'mbp', 'bastion'])}"
    if chance(0.7):
        return "ssh-ed25519 " + b64(sstr(b"ssh-ed25519") + sstr(ed_public(rbytes(32)))) + " " + comment
    blob = sstr(b"ecdsa-sha2-nistp256") + sstr(b"nistp256") + sstr(ec_key().point())
    return "ecdsa-sha2-nistp256 " + b64(blob) + " " + comment


one_look(
    "ssh_public_key",
    "`ssh-ed25519` / `ecdsa-sha2-nistp256` public keys",
    "ssh_public_key authorized_key deploy_key_pub",
    "SSH public key",
    ssh_pub,
)


def fingerprint() -> str:
    style = R.randrange(3)
    if style == 0:
        return "SHA256:" + b64(rbytes(32)).rstrip("=")
    if style == 1:
        return ":".join(rs(HEX, 2) for _ in range(16))
    return " ".join(rs(HEXU, 4) for _ in range(10))


one_look(
    "key_fingerprint",
    "SSH `SHA256:`, MD5 and PGP fingerprints",
    "fingerprint key_fingerprint host_key_fingerprint",
    "key fingerprint",
    fingerprint,
)
one_look(
    "wireguard_public_key",
    "WireGuard public keys (X25519)",
    "public_key peer_public_key wg_public_key",
    "WireGuard public key",
    lambda: b64(x25519_base(rbytes(32))),
)
one_look(
    "age_recipient",
    "`age1` recipients (bech32)",
    "age_recipient sops_age_recipients",
    "age recipient",
    lambda: bech32("age", convertbits(x25519_base(rbytes(32)))),
)
PLACEHOLDERS = [
    "<your-api-key>",
    "changeme",
    "xxxxxxxxxxxxxxxxxxxxxxxx",
    "REPLACE_ME",
    "sk_live_XXXXXXXXXXXXXXXXXXXXXXXX",
    "your_token_here",
    "<password>",
    "TODO-set-me",
    "dummy",
    "example-secret",
    "insert-key-here",
    "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "AKIAXXXXXXXXXXXXXXXX",
    "<INSERT_TOKEN>",
    "secret123-placeholder",
    "CHANGE_ME_IN_PROD",
    "0000000000000000",
    "[your key]",
    "YOUR_SLACK_WEBHOOK_URL",
    "<paste-token-here>",
]
one_look(
    "placeholder",
    "placeholders (`<your-api-key>`, `changeme`, `REPLACE_ME`, `sk_live_XXXX`)",
    SECRETISH,
    "placeholder",
    lambda: pick(PLACEHOLDERS),
)
ENV_VARS = [
    "DB_PASSWORD",
    "STRIPE_SECRET_KEY",
    "API_TOKEN",
    "GITHUB_TOKEN",
    "OPENAI_API_KEY",
    "SLACK_BOT_TOKEN",
    "AZURE_CLIENT_SECRET",
    "SENDGRID_API_KEY",
    "AWS_SECRET_ACCESS_KEY",
    "REDIS_PASSWORD",
    "JWT_SECRET",
    "NPM_TOKEN",
]


def env_ref() -> str:
    var = pick(ENV_VARS)
    return pick(
        [
            f"${{{var}}}",
            f"${var}",
            f"%{var}%",
            f"${{env:{var}}}",
            f"${{{var}:?missing}}",
            f"$env:{var}",
            f"process.env.{var}",
            f'os.environ["{var}"]',
            f"ENV.fetch('{var}')",
            f'System.getenv("{var}")',
        ]
    )


one_look(
    "env_reference", "environment-variable references in shell, code and config", SECRETISH, "env reference", env_ref
)


def template_ref() -> str:
    var = pick(ENV_VARS)
    low = var.lower()
    return pick(
        [
            f"${{{{ secrets.{var} }}}}",
            f"{{{{ .Values.{low.replace('_', '.')} }}}}",
            f"{{{{ vault_{low} }}}}",
            f"${{var.{low}}}",
            f"<%= ENV['{var}'] %>",
            f"{{{{ lookup('env', '{var}') }}}}",
            f"#{{{var}}}",
            f"$({var})",
            f"{{{{ .Env.{var} }}}}",
        ]
    )


one_look(
    "template_reference",
    "template expressions (`${{ secrets.X }}`, Helm, Jinja, Terraform, ERB)",
    SECRETISH,
    "template reference",
    template_ref,
)


def secret_ref() -> str:
    svc = pick(SERVICES)
    return pick(
        [
            f"op://{pick(['Private', 'Engineering', 'Prod'])}/{svc.title()}/{pick(['password', 'credential', 'api key'])}",
            f"vault:secret/data/{svc}#{pick(['password', 'api_key', 'token'])}",
            f"arn:aws:secretsmanager:{pick(REGIONS)}:{rs(DIGITS, 12)}:secret:{pick(ENVS)}/{svc}-{rs(ALNUM, 6)}",
            f"projects/{R.randrange(10**11, 10**12)}/secrets/{svc}-api-key/versions/latest",
            f"@Microsoft.KeyVault(SecretUri=https://kv-{org()}.vault.azure.net/secrets/{svc}-secret/)",
            f"ssm:/{pick(ENVS)}/{svc}/token",
            f"sm://{pick(ENVS)}-{svc}-db-password",
        ]
    )


one_look(
    "secret_manager_reference",
    "secret-manager paths (`op://`, Vault, AWS, GCP, Azure Key Vault, SSM)",
    SECRETISH,
    "secret reference",
    secret_ref,
)


def masked() -> str:
    return pick(
        [
            "********",
            "••••••••••••",
            "[REDACTED]",
            "sk_live_" + "*" * 20 + rs(ALNUM, 4),
            "ghp_" + "*" * 32 + rs(ALNUM, 4),
            "xoxb-***",
            "****-****-****-" + rs(DIGITS, 4),
            "AKIA" + "*" * 12 + rs(UPPER, 4),
            "<redacted>",
            "***",
            rs(ALNUM, 4) + "…" + rs(ALNUM, 4),
            "sk-...." + rs(ALNUM, 4),
        ]
    )


one_look("masked_value", "masked or redacted values", SECRETISH, "masked value", masked)
JWT_IO = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ"
    ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)
RFC7519_JWT = (
    "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9p"
    "c19yb290Ijp0cnVlfQ.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
)
RFC7515_KEY = "AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"


def _check_documented_jwts() -> None:
    head, _, sig = JWT_IO.rpartition(".")
    if b64u(hmac.new(b"your-256-bit-secret", head.encode(), hashlib.sha256).digest()) != sig:
        raise CorpusError("jwt.io example does not verify")
    head, _, sig = RFC7519_JWT.rpartition(".")
    key = base64.urlsafe_b64decode(RFC7515_KEY + "==")
    if b64u(hmac.new(key, head.encode(), hashlib.sha256).digest()) != sig:
        raise CorpusError("RFC 7519 example does not verify")


_check_documented_jwts()
DOC_EXAMPLES = [
    JWT_IO,
    RFC7519_JWT,
    "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
    "pk_test_TYooMQauvdEDq54NiTphI7jx",
    base64.b32encode(b"12345678901234567890").decode(),
    "xoxb-not-a-real-token-this-will-not-work",
]
one_look(
    "documented_example",
    "sample values published in docs (jwt.io and RFC 7519 tokens, Stripe docs test keys, RFC 6238 seed)",
    "example_token sample_key test_key demo_token",
    "documented example",
    lambda: pick(DOC_EXAMPLES),
)


def gen_aws_example() -> list[Entry]:
    kid, secret = pick(
        [
            ("AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
            ("AKIAI44QH8DHBEXAMPLE", "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY"),
        ]
    )
    out = [L("aws_example_key", kid, "aws_access_key_id access_key_id", "AWS example key id")]
    if chance(0.7):
        out.append(L("aws_example_key", secret, "aws_secret_access_key secret_access_key", "AWS example secret"))
    return out


look("aws_example_key", "AWS documentation keys ending in `EXAMPLE` / `EXAMPLEKEY`", gen_aws_example)
one_look(
    "stripe_publishable_key",
    "`pk_live_` publishable keys",
    "stripe_publishable_key next_public_stripe_key stripe_pk",
    "Stripe publishable key",
    lambda: pick(["pk_live_" + rs(ALNUM, 24), "pk_live_51" + rs(ALNUM, 97)]),
)
one_look(
    "publishable_anon_key",
    "Supabase anon JWTs (role `anon`) and `sb_publishable_` keys",
    "supabase_anon_key next_public_supabase_anon_key supabase_publishable_key",
    "Supabase anon key",
    lambda: pick([supabase_jwt("anon"), supabase_jwt("anon"), "sb_publishable_" + rs(URLSAFE, 31)]),
)
one_look(
    "firebase_web_api_key",
    "`AIza` key of a Firebase web config",
    "firebase_api_key next_public_firebase_api_key vite_firebase_api_key",
    "Firebase web API key",
    lambda: "AIza" + rs(URLSAFE, 35),
)


variant_look(
    "public_client_key",
    "client-side keys: PostHog `phc_`, Clerk `pk_live_`, LaunchDarkly client id, Langfuse `pk-lf-`",
    "client-side key",
    [
        ("posthog_key next_public_posthog_key posthog_project_api_key", lambda: "phc_" + rs(ALNUM, 43)),
        (
            "clerk_publishable_key next_public_clerk_publishable_key",
            lambda: "pk_live_" + b64(f"clerk.{domain()}$".encode()).rstrip("="),
        ),
        ("launchdarkly_client_id ld_client_side_id", lambda: rs(HEX, 24)),
        ("langfuse_public_key", lambda: "pk-lf-" + uuid4()),
    ],
)
variant_look(
    "public_site_key",
    "site keys: Mapbox `pk.`, reCAPTCHA, Turnstile",
    "site key",
    [
        ("mapbox_public_token next_public_mapbox_token mapbox_access_token", lambda: mapbox_token("pk")),
        ("recaptcha_site_key next_public_recaptcha_site_key", lambda: "6L" + rs(URLSAFE, 38)),
        ("turnstile_site_key cf_turnstile_sitekey", lambda: "0x4AAAAAAA" + rs(URLSAFE, 14)),
    ],
)
one_look(
    "sentry_dsn",
    "Sentry DSNs (public by design)",
    "sentry_dsn next_public_sentry_dsn",
    "Sentry DSN",
    lambda: (
        f"https://{rs(HEX, 32)}@o{R.randrange(10**5, 10**7)}.ingest.{pick(['', 'us.', 'de.'])}sentry.io/{R.randrange(10**6, 10**7)}"
    ),
)
variant_look(
    "oauth_client_id",
    "OAuth client ids (Google, GitHub, Entra, Auth0)",
    "OAuth client id",
    [
        ("google_client_id oauth_client_id", google_client_id),
        ("github_client_id gh_app_client_id", lambda: pick(["Iv1." + rs(HEX, 16), "Ov23li" + rs(ALNUM, 14)])),
        ("azure_client_id client_id", uuid4),
        ("auth0_client_id client_id", lambda: rs(ALNUM, 32)),
    ],
)
one_look("tenant_id", "Entra directory (tenant) ids", "tenant_id azure_tenant_id directory_id", "tenant id", uuid4)


variant_look(
    "account_identifier",
    "account ids (AWS account, Twilio `AC` SID, Stripe `acct_`, Slack team, Algolia app, Cloudflare account)",
    "account id",
    [
        ("aws_account_id account_id", lambda: rs(DIGITS, 12)),
        ("twilio_account_sid account_sid", lambda: "AC" + rs(HEX, 32)),
        ("stripe_account stripe_connected_account", lambda: "acct_1" + rs(ALNUM, 15)),
        ("slack_team_id team_id", lambda: "T" + rs(UALNUM, 10)),
        ("algolia_app_id", lambda: rs(UALNUM, 10)),
        ("cloudflare_account_id cf_account_id", lambda: rs(HEX, 32)),
        ("gcp_project_number project_number", lambda: str(R.randrange(10**11, 10**12))),
    ],
)
variant_look(
    "key_identifier",
    "key ids: KMS ARNs, JWT `kid`, `private_key_id`, GPG long ids, Apple key ids",
    "key id",
    [
        ("kms_key_arn kms_key_id", lambda: f"arn:aws:kms:{pick(REGIONS)}:{rs(DIGITS, 12)}:key/{uuid4()}"),
        ("jwt_kid kid", lambda: b64u(rbytes(32))),
        ("private_key_id", lambda: rs(HEX, 40)),
        ("gpg_key_id signing_key_id", lambda: rs(HEXU, 16)),
        ("apple_key_id apns_key_id", lambda: rs(UALNUM, 10)),
    ],
)
TEST_CARDS = [
    "4242424242424242",
    "4000056655665556",
    "5555555555554444",
    "378282246310005",
    "4111111111111111",
    "6011111111111117",
    "5105105105105100",
    "4000000000003220",
]


def test_card() -> str:
    card = pick(TEST_CARDS)
    if not luhn_ok(card):
        raise CorpusError("test card fails Luhn")
    if chance(0.5) and len(card) == 16:
        return " ".join(card[i : i + 4] for i in range(0, 16, 4))
    return card


one_look("test_card_number", "documented test card numbers", "test_card card_number", "test card", test_card)


def iban() -> str:
    country, bban = pick(
        [
            ("DE", rs(DIGITS, 18)),
            ("GB", rs(UPPER, 4) + rs(DIGITS, 14)),
            ("FR", rs(DIGITS, 23)),
            ("ES", rs(DIGITS, 20)),
            ("NL", rs(UPPER, 4) + rs(DIGITS, 10)),
            ("PT", rs(DIGITS, 21)),
        ]
    )
    numeric = "".join(str(int(c, 36)) for c in bban + country + "00")
    check = 98 - int(numeric) % 97
    raw = f"{country}{check:02d}{bban}"
    return " ".join(raw[i : i + 4] for i in range(0, len(raw), 4)) if chance(0.5) else raw


one_look("iban", "IBANs with valid check digits", "iban payout_iban", "IBAN", iban)


def isbn() -> str:
    body = pick(["978", "979"]) + rs(DIGITS, 9)
    check = (10 - sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(body)) % 10) % 10
    return body + str(check)


one_look("isbn", "ISBN-13 with valid check digits", "isbn", "ISBN", isbn)


def crypto_address() -> str:
    style = R.randrange(4)
    if style == 0:
        return bech32("bc", [0, *convertbits(rbytes(20))])
    if style == 1:
        return bech32("bc", [1, *convertbits(rbytes(32))], const=0x2BC830A3)
    if style == 2:
        return eip55(rbytes(20))
    return b58(ed_public(rbytes(32)))


one_look(
    "crypto_address",
    "bitcoin bech32 / bech32m, EIP-55 Ethereum and Solana addresses",
    "wallet_address deposit_address",
    "wallet address",
    crypto_address,
)
one_look("tx_hash", "transaction hashes", "tx_hash txid", "transaction hash", lambda: pick(["0x", ""]) + rs(HEX, 64))
one_look("ulid", "ULIDs", "event_id ulid", "ULID", lambda: pick("01") + rs(CROCKFORD, 25))
one_look(
    "trace_id",
    "W3C traceparent, X-Ray and hex trace ids",
    "traceparent trace_id",
    "trace id",
    lambda: pick([f"00-{rs(HEX, 32)}-{rs(HEX, 16)}-01", f"Root=1-{rs(HEX, 8)}-{rs(HEX, 24)}", rs(HEX, 32)]),
)
one_look(
    "request_id",
    "request ids (`req_`, `x-amz-request-id`, CF ray)",
    "request_id x_request_id",
    "request id",
    lambda: pick(["req_" + rs(ALNUM, 14), rs(HEXU, 16), f"{rs(HEX, 16)}-{pick(['FRA', 'AMS', 'IAD', 'NRT', 'GRU'])}"]),
)


def timestamp() -> str:
    e = epoch()
    if chance(0.5):
        return str(e * 1000 + R.randrange(1000))
    return dt.datetime.fromtimestamp(e, dt.UTC).strftime("%Y-%m-%dT%H:%M:%S") + f".{R.randrange(1000):03d}Z"


one_look(
    "timestamp",
    "ISO-8601 timestamps and epoch milliseconds",
    "created_at updated_at expires_at",
    "timestamp",
    timestamp,
)
one_look(
    "semver",
    "versions",
    "version app_version chart_version",
    "version",
    lambda: (
        pick(["v", ""])
        + f"{R.randrange(0, 9)}.{R.randrange(0, 30)}.{R.randrange(0, 20)}"
        + pick(["", "", f"-rc.{R.randrange(1, 5)}", f"-beta.{R.randrange(1, 9)}+build.{R.randrange(10, 999)}"])
    ),
)
one_look(
    "ip_address",
    "IPv4 / IPv6 addresses and CIDRs",
    "bind_address allowed_cidr peer_ip",
    "IP address",
    lambda: pick(
        [
            f"10.{R.randrange(256)}.{R.randrange(256)}.{R.randrange(1, 255)}",
            f"192.168.{R.randrange(256)}.{R.randrange(1, 255)}",
            f"203.0.113.{R.randrange(1, 255)}",
            f"172.{R.randrange(16, 32)}.0.0/16",
            f"2001:db8:{rs(HEX, 4)}::{rs(HEX, 3)}",
        ]
    ),
)
one_look(
    "mac_address",
    "MAC addresses",
    "mac_address hwaddr",
    "MAC address",
    lambda: pick([":", "-"]).join(rs(HEX, 2) for _ in range(6)),
)


def url() -> str:
    return pick(
        [
            f"https://grafana.{domain()}/d/{rs(ALNUM, 9)}/api-latency?orgId=1&from=now-6h&to=now",
            f"https://github.com/{org()}/{pick(SERVICES)}/pull/{R.randrange(10, 4000)}",
            f"https://{pick(SERVICES)}.{domain()}/v2/{pick(['invoices', 'users', 'jobs'])}?page={R.randrange(1, 9)}&sort=desc",
            f"https://console.cloud.google.com/run/detail/{pick(REGIONS)}/{pick(SERVICES)}/metrics?project={org()}-prod",
            f"https://s3.{pick(REGIONS)}.amazonaws.com/{org()}-public-assets/logo.svg",
            f"https://{org()}.atlassian.net/browse/{pick(['OPS', 'PAY', 'INFRA'])}-{R.randrange(100, 9999)}",
        ]
    )


one_look("url", "URLs without credentials", "dashboard_url base_url callback_url docs_url", "URL", url)


def file_path() -> str:
    user = person().lower()
    return pick(
        [
            "~/.ssh/id_ed25519",
            "/etc/ssl/private/server.key",
            f"C:\\Users\\{user}\\.aws\\credentials",
            "/var/run/secrets/kubernetes.io/serviceaccount/token",
            f"./secrets/{pick(ENVS)}.enc.yaml",
            f"/home/{user}/.config/gcloud/application_default_credentials.json",
            "~/.docker/config.json",
            f"/opt/{pick(SERVICES)}/conf/keystore.p12",
            f"D:\\deploy\\{pick(SERVICES)}\\appsettings.Production.json",
        ]
    )


one_look(
    "file_path",
    "paths to key and credential files",
    "key_file credentials_file cert_path keystore_path",
    "file path",
    file_path,
)
POD_CHARS = "bcdfghjklmnpqrstvwxz2456789"
one_look(
    "k8s_resource_name",
    "pod and ReplicaSet names with hash suffixes",
    "pod pod_name replicaset",
    "pod name",
    lambda: f"{pick(SERVICES)}-{rs(POD_CHARS, 10)}-{rs(POD_CHARS, 5)}",
)


def long_ident() -> str:
    words = [pick(WORDS + SERVICES) for _ in range(R.randrange(4, 7))]
    style = R.randrange(3)
    if style == 0:
        return "test_" + "_".join(words) + "_" + pick(["succeeds", "raises", "is_idempotent", "when_token_expired"])
    if style == 1:
        return words[0] + "".join(w.title() for w in words[1:]) + pick(["Handler", "Factory", "Provider", "Resolver"])
    return "".join(w.title() for w in words) + pick(["Exception", "Config", "Client", "Service"])


one_look(
    "long_identifier",
    "long identifiers (test, function and class names)",
    "test_name handler class_name",
    "identifier",
    long_ident,
)


def encrypted() -> str:
    style = R.randrange(4)
    if style == 0:
        return f"ENC[AES256_GCM,data:{b64(rbytes(R.randrange(12, 40)))},iv:{b64(rbytes(32))},tag:{b64(rbytes(16))},type:str]"
    if style == 1:
        body = rbytes(R.randrange(60, 120)).hex()
        lines = [body[i : i + 80] for i in range(0, len(body), 80)]
        return "$ANSIBLE_VAULT;1.1;AES256\n" + "\n".join(lines)
    if style == 2:
        return "AgB" + b64(rbytes(R.randrange(200, 300)))
    return "AQICAHh" + b64(rbytes(R.randrange(120, 180)))


one_look(
    "encrypted_value",
    "SOPS `ENC[...]`, Ansible Vault, sealed-secret and KMS ciphertext blobs",
    SECRETISH,
    "ciphertext",
    encrypted,
)
one_look(
    "docker_image_ref",
    "image references with tags",
    "image base_image runner_image",
    "image",
    lambda: pick(
        [
            f"ghcr.io/{org()}/{pick(SERVICES)}:{R.randrange(1, 5)}.{R.randrange(0, 20)}.{R.randrange(0, 9)}",
            f"{rs(DIGITS, 12)}.dkr.ecr.{pick(REGIONS)}.amazonaws.com/{pick(SERVICES)}:{rs(HEX, 7)}",
            f"docker.io/library/{pick(['postgres:16.3-alpine', 'redis:7.2', 'node:20-bookworm-slim'])}",
            f"registry.gitlab.com/{org()}/{pick(SERVICES)}/ci:{pick(ENVS)}-{rs(HEX, 8)}",
        ]
    ),
)


def cloud_resource() -> str:
    return pick(
        [
            f"arn:aws:iam::{rs(DIGITS, 12)}:role/{pick(SERVICES)}-{pick(['deployer', 'reader', 'lambda-exec'])}",
            f"arn:aws:lambda:{pick(REGIONS)}:{rs(DIGITS, 12)}:function:{pick(SERVICES)}-{pick(ENVS)}",
            f"/subscriptions/{uuid4()}/resourceGroups/rg-{pick(SERVICES)}-{pick(ENVS)}/providers/Microsoft.Web/sites/{pick(SERVICES)}",
            f"projects/{org()}-{pick(ENVS)}/locations/{pick(REGIONS)}/functions/{pick(SERVICES)}",
        ]
    )


one_look(
    "cloud_resource_id",
    "ARNs, Azure resource ids, GCP resource names",
    "role_arn resource_id function_arn",
    "resource id",
    cloud_resource,
)
look(
    "go_sum_hash",
    "`h1:` module hashes from `go.sum`",
    lambda: [
        Entry(
            "go_sum_hash",
            [
                f"github.com/{org()}/{pick(WORDS)} v{R.randrange(0, 3)}.{R.randrange(0, 30)}.{R.randrange(0, 9)} ",
                lv("go_sum_hash", "h1:" + b64(rbytes(32))),
            ],
            ("go_sum",),
            "",
            "id",
            "go.sum hash",
            "id",
        )
    ],
)


def doc_link() -> list:
    style = R.randrange(3)
    if style == 0:
        return [
            f"https://docs.google.com/{pick(['document', 'spreadsheets'])}/d/",
            lv("document_id", rs(URLSAFE, 44)),
            "/edit",
        ]
    if style == 1:
        return [
            f"https://www.notion.so/{org()}/{pick(WORDS).title()}-{pick(WORDS).title()}-",
            lv("document_id", rs(HEX, 32)),
        ]
    return ["https://www.figma.com/design/", lv("document_id", rs(ALNUM, 22)), f"/{pick(SERVICES).title()}-UI"]


look(
    "document_id",
    "Google Docs / Sheets, Notion and Figma document ids inside links",
    lambda: [Entry("document_id", doc_link(), ("doc_url", "spec_url", "design_url"), "", "id", "doc link", "id")],
)
variant_look(
    "analytics_id",
    "analytics ids (`G-`, `GTM-`, `UA-`, pixel ids)",
    "analytics id",
    [
        ("ga_measurement_id next_public_ga_id", lambda: "G-" + rs(UALNUM, 10)),
        ("gtm_id gtm_container_id", lambda: "GTM-" + rs(UALNUM, 7)),
        ("ga_tracking_id", lambda: f"UA-{rs(DIGITS, 8)}-1"),
        ("meta_pixel_id fb_pixel_id", lambda: rs(DIGITS, 16)),
    ],
)
one_look(
    "content_hashed_filename",
    "content-hashed asset file names",
    "asset bundle entry_chunk",
    "asset file",
    lambda: pick(
        [
            f"main.{rs(HEX, 8)}.js",
            f"app-{rs(LALNUM, 8)}.css",
            f"chunk-vendors.{rs(HEX, 20)}.js",
            f"index-{rs(URLSAFE, 8)}.mjs",
        ]
    ),
)
look(
    "short_id",
    "video ids and short-link codes inside links",
    lambda: [
        Entry(
            "short_id",
            [
                pick(["https://youtu.be/", "https://bit.ly/", "https://www.youtube.com/watch?v="]),
                lv("short_id", rs(URLSAFE, 11) if chance(0.6) else rs(ALNUM, 7)),
            ],
            ("video_url", "short_link"),
            "",
            "id",
            "link",
            "id",
        )
    ],
)


# ---------------------------------------------------------------------------------------------------------------
# languages: labels, phrasings, filler text

LANGS = ["en", "es", "de", "fr", "pt", "it", "ja", "zh"]
LANG_NAMES = {
    "en": "English",
    "es": "Spanish",
    "de": "German",
    "fr": "French",
    "pt": "Portuguese",
    "it": "Italian",
    "ja": "Japanese",
    "zh": "Chinese",
}

NOUNS: dict[str, dict[str, tuple[str, str]]] = {
    "es": {
        "key": ("la clave de {p}", "la clave"),
        "apikey": ("la API key de {p}", "la API key"),
        "token": ("el token de {p}", "el token"),
        "password": ("la contraseña de {p}", "la contraseña"),
        "secret": ("el secreto de {p}", "el secreto"),
        "webhook": ("el webhook de {p}", "el webhook"),
        "privkey": ("la clave privada de {p}", "la clave privada"),
        "cookie": ("la cookie de sesión de {p}", "la cookie de sesión"),
        "seed": ("la semilla TOTP de {p}", "la semilla TOTP"),
        "dsn": ("la cadena de conexión de {p}", "la cadena de conexión"),
        "code": ("los códigos de recuperación de {p}", "los códigos de recuperación"),
        "wifi": ("la contraseña del wifi", "la contraseña del wifi"),
        "credentials": ("las credenciales de {p}", "las credenciales"),
    },
    "de": {
        "key": ("der {p}-Schlüssel", "der Schlüssel"),
        "apikey": ("der {p}-API-Key", "der API-Key"),
        "token": ("das {p}-Token", "das Token"),
        "password": ("das {p}-Passwort", "das Passwort"),
        "secret": ("das {p}-Secret", "das Secret"),
        "webhook": ("die {p}-Webhook-URL", "die Webhook-URL"),
        "privkey": ("der private {p}-Schlüssel", "der private Schlüssel"),
        "cookie": ("das {p}-Session-Cookie", "das Session-Cookie"),
        "seed": ("das {p}-TOTP-Secret", "das TOTP-Secret"),
        "dsn": ("der {p}-Connection-String", "der Connection-String"),
        "code": ("die {p}-Wiederherstellungscodes", "die Wiederherstellungscodes"),
        "wifi": ("das WLAN-Passwort", "das WLAN-Passwort"),
        "credentials": ("die {p}-Zugangsdaten", "die Zugangsdaten"),
    },
    "fr": {
        "key": ("la clé {p}", "la clé"),
        "apikey": ("la clé API {p}", "la clé API"),
        "token": ("le token {p}", "le token"),
        "password": ("le mot de passe {p}", "le mot de passe"),
        "secret": ("le secret {p}", "le secret"),
        "webhook": ("le webhook {p}", "le webhook"),
        "privkey": ("la clé privée {p}", "la clé privée"),
        "cookie": ("le cookie de session {p}", "le cookie de session"),
        "seed": ("le secret TOTP {p}", "le secret TOTP"),
        "dsn": ("la chaîne de connexion {p}", "la chaîne de connexion"),
        "code": ("les codes de récupération {p}", "les codes de récupération"),
        "wifi": ("le mot de passe du wifi", "le mot de passe du wifi"),
        "credentials": ("les identifiants {p}", "les identifiants"),
    },
    "pt": {
        "key": ("a chave do {p}", "a chave"),
        "apikey": ("a API key do {p}", "a API key"),
        "token": ("o token do {p}", "o token"),
        "password": ("a senha do {p}", "a senha"),
        "secret": ("o secret do {p}", "o secret"),
        "webhook": ("o webhook do {p}", "o webhook"),
        "privkey": ("a chave privada do {p}", "a chave privada"),
        "cookie": ("o cookie de sessão do {p}", "o cookie de sessão"),
        "seed": ("a seed TOTP do {p}", "a seed TOTP"),
        "dsn": ("a string de conexão do {p}", "a string de conexão"),
        "code": ("os códigos de recuperação do {p}", "os códigos de recuperação"),
        "wifi": ("a senha do wi-fi", "a senha do wi-fi"),
        "credentials": ("as credenciais do {p}", "as credenciais"),
    },
    "it": {
        "key": ("la chiave di {p}", "la chiave"),
        "apikey": ("la API key di {p}", "la API key"),
        "token": ("il token di {p}", "il token"),
        "password": ("la password di {p}", "la password"),
        "secret": ("il secret di {p}", "il secret"),
        "webhook": ("il webhook di {p}", "il webhook"),
        "privkey": ("la chiave privata di {p}", "la chiave privata"),
        "cookie": ("il cookie di sessione di {p}", "il cookie di sessione"),
        "seed": ("il seed TOTP di {p}", "il seed TOTP"),
        "dsn": ("la stringa di connessione di {p}", "la stringa di connessione"),
        "code": ("i codici di recupero di {p}", "i codici di recupero"),
        "wifi": ("la password del wifi", "la password del wifi"),
        "credentials": ("le credenziali di {p}", "le credenziali"),
    },
    "ja": {
        "key": ("{p}のキー", "キー"),
        "apikey": ("{p}のAPIキー", "APIキー"),
        "token": ("{p}のトークン", "トークン"),
        "password": ("{p}のパスワード", "パスワード"),
        "secret": ("{p}のシークレット", "シークレット"),
        "webhook": ("{p}のWebhook URL", "Webhook URL"),
        "privkey": ("{p}の秘密鍵", "秘密鍵"),
        "cookie": ("{p}のセッションCookie", "セッションCookie"),
        "seed": ("{p}のTOTPシード", "TOTPシード"),
        "dsn": ("{p}の接続文字列", "接続文字列"),
        "code": ("{p}のリカバリーコード", "リカバリーコード"),
        "wifi": ("Wi-Fiのパスワード", "Wi-Fiのパスワード"),
        "credentials": ("{p}の認証情報", "認証情報"),
    },
    "zh": {
        "key": ("{p} 的密钥", "密钥"),
        "apikey": ("{p} 的 API Key", "API Key"),
        "token": ("{p} 的令牌", "令牌"),
        "password": ("{p} 的密码", "密码"),
        "secret": ("{p} 的 secret", "secret"),
        "webhook": ("{p} 的 Webhook 地址", "Webhook 地址"),
        "privkey": ("{p} 的私钥", "私钥"),
        "cookie": ("{p} 的会话 Cookie", "会话 Cookie"),
        "seed": ("{p} 的 TOTP 种子", "TOTP 种子"),
        "dsn": ("{p} 的连接串", "连接串"),
        "code": ("{p} 的恢复码", "恢复码"),
        "wifi": ("Wi-Fi 密码", "Wi-Fi 密码"),
        "credentials": ("{p} 的凭据", "凭据"),
    },
}

SECRET_PHRASES: dict[str, list[str]] = {
    "en": [
        "the new {label} is {v}",
        "they sent me {v} as the {label}",
        "{Label}: {v}",
        "rotated the {label} today, new value {v}",
        "use {v} for the {label} until the migration is done",
        "pasting the {label} here so I don't lose it: {v}",
        "{who} gave us {v} ({label})",
        "remember: {label} = {v}",
        "if the {label} stops working, the backup one is {v}",
        "the {label} we ended up using was {v}",
        "got a fresh {label} from the dashboard: {v}",
        "for reference, {label} -> {v}",
        "note to self: the {label} is {v}",
        "{v} is the {label} for staging",
        "copied the {label} out of 1Password: {v}",
        "{who} DM'd me the {label}: {v}",
        "the {label} (do not share) is {v}",
        "I set the {label} to {v}",
        "temporary {label}: {v}, expires end of month",
        "here's the {label} you asked for: {v}",
        "login works with {v} as the {label}",
        "swapped in {v} as the {label}",
        "current {label} → {v}",
        "the {label} in prod is still {v}",
        "old {label} revoked; replacement is {v}",
        "{Label} (prod): {v}",
        "the vendor's onboarding email contained the {label} {v}",
        "support reset it, so the {label} is now {v}",
        "try {v}, that's the {label} from the vault",
        "the {label} for the demo account is {v}",
        "I generated a {label}: {v}",
        "writing down the {label} before I forget: {v}",
        "CI needs the {label}, which is {v}",
        "the {label} that finally worked: {v}",
        "keep {v} handy, it's the {label}",
        "{who} says the {label} is {v}",
        "new creds landed, {label} {v}",
        "IT reset the {label} to {v}",
        "careful, this is the prod {label}: {v}",
        "paste {v} into the {label} field",
        "the {label} was shown only once on creation: {v}",
        "setting {name} to {v} fixed the 401",
        "{v} ({label}, read/write scope)",
        "we share {v} as the team {label}",
        "backup {label}: {v}",
        "the {label} they emailed over is {v}",
        "if it asks for the {label}, enter {v}",
        "my personal {label} is {v}",
        "{label} changed from the default to {v}",
        "they read me the {label} over the phone: {v}",
        "the {label} lives in my notes now: {v}",
        "the one I used locally was {v} ({label})",
        "re the {label}: it's {v}",
        "saved {v} as the {label} in the password manager too",
        "found the {label} in the old wiki: {v}",
        "the {label} on the sticky note says {v}",
        "{Label}:\n{v}",
        "{Label} below\n\n{v}",
        "the {label} got leaked in a screenshot, the new one is {v}",
        "double-check the {label}, I have {v}",
        "for the record, {v} is what's configured as the {label}",
        "the user asked me to remember their {label}: {v}",
        "user's {label}: {v}",
    ],
    "es": [
        "{Label} es {v}",
        "{Label} (nuevo valor): {v}",
        "Me pasaron {label} por Slack: {v}",
        "Ojo: {label} ahora es {v}",
        "Rotamos {label}; valor actual: {v}",
        "Apunto {label} para no olvidarme: {v}",
        "{who} me mandó {label}: {v}",
        "Si falla, prueba con {v} ({label})",
        "En producción, {label} sigue siendo {v}",
        "Guardé {label} también en el gestor: {v}",
        "Actualicé {name} a {v} y ya no da 401",
        "El proveedor nos envió {label}: {v}",
        "{Label}:\n{v}",
        "Copio aquí {label} (no compartir): {v}",
        "El usuario me pidió recordar {label}: {v}",
    ],
    "de": [
        "{Label} ist {v}",
        "{Label} lautet jetzt {v}",
        "{Label} wurde rotiert, neu: {v}",
        "Von {who} bekommen: {v} ({label})",
        "Notiz an mich: {label} = {v}",
        "Falls es hakt: {v} ({label})",
        "{Label} für Staging: {v}",
        "Nicht teilen! {Label}: {v}",
        "{name} auf {v} gesetzt, jetzt klappt der Login",
        "Der Dienstleister hat das geschickt: {v} ({label})",
        "Aktuell gültig: {v} ({label})",
        "{Label} (aus dem Passwortmanager): {v}",
        "{Label}:\n{v}",
        "Der Nutzer möchte, dass ich mir das merke: {label} = {v}",
    ],
    "fr": [
        "{Label} est {v}",
        "{Label} : {v}",
        "Nouvelle valeur pour {label} : {v}",
        "{who} m'a envoyé {label} : {v}",
        "Note pour moi : {label} = {v}",
        "On a fait tourner {label}, la valeur actuelle est {v}",
        "Si ça casse, essayer {v} ({label})",
        "En prod, {label} reste {v}",
        "J'ai mis {name} à {v} et l'erreur 401 a disparu",
        "Le prestataire nous a transmis {label} : {v}",
        "À ne pas partager : {label} = {v}",
        "Copié depuis le gestionnaire de mots de passe : {v} ({label})",
        "{Label} :\n{v}",
        "L'utilisateur m'a demandé de retenir {label} : {v}",
    ],
    "pt": [
        "{Label} é {v}",
        "{Label}: {v}",
        "Recebi {label} por e-mail: {v}",
        "Anotando {label} para não esquecer: {v}",
        "Rotacionamos {label}; valor atual: {v}",
        "Se der erro, tenta {v} ({label})",
        "Em produção, {label} continua {v}",
        "Troquei {name} para {v} e o 401 sumiu",
        "O fornecedor mandou {label}: {v}",
        "Não compartilhar! {Label}: {v}",
        "{who} passou {label} no chat: {v}",
        "Salvei {label} no cofre também: {v}",
        "{Label}:\n{v}",
        "O usuário pediu para eu lembrar {label}: {v}",
    ],
    "it": [
        "{Label} è {v}",
        "{Label}: {v}",
        "{who} mi ha mandato {label}: {v}",
        "Nota per me: {label} = {v}",
        "Abbiamo ruotato {label}, il valore attuale è {v}",
        "Se non funziona, prova {v} ({label})",
        "In produzione {label} è ancora {v}",
        "Ho impostato {name} a {v} e il 401 è sparito",
        "Il fornitore ci ha inviato {label}: {v}",
        "Da non condividere: {label} = {v}",
        "Copiato dal password manager: {v} ({label})",
        "{Label}:\n{v}",
        "L'utente mi ha chiesto di ricordare {label}: {v}",
    ],
    "ja": [
        "{label}は {v} です",
        "{label}: {v}",
        "新しい{label}: {v}",
        "{who}さんから{label}をもらった: {v}",
        "メモ: {label} = {v}",
        "{label}をローテーションした。今の値は {v}",
        "うまくいかない場合は {v} を試す ({label})",
        "本番の{label}はまだ {v}",
        "{name} を {v} に設定したら401が直った",
        "ベンダーから届いた{label}: {v}",
        "共有禁止! {label}: {v}",
        "{label}:\n{v}",
        "ユーザーに{label}を覚えておくよう頼まれた: {v}",
    ],
    "zh": [
        "{label}是 {v}",
        "{label}: {v}",
        "新的{label}: {v}",
        "{who} 发给我的{label}: {v}",
        "备忘: {label} = {v}",
        "{label}已经轮换, 现在是 {v}",
        "如果不行就试试 {v} ({label})",
        "生产环境的{label}还是 {v}",
        "把 {name} 改成 {v} 之后 401 就没了",
        "供应商发来的{label}: {v}",
        "不要外传! {label}: {v}",
        "{label}:\n{v}",
        "用户让我记住{label}: {v}",
    ],
}

MULTILINE_PHRASES: dict[str, list[str]] = {
    "en": [
        "{Label}:\n{v}",
        "{Label} below\n\n{v}",
        "here's the {label}:\n\n{v}",
        "pasted the {label} (keep private):\n{v}",
        "{who} sent the {label}, saving it here:\n{v}",
    ],
    "es": ["{Label}:\n{v}", "Aquí va {label}:\n\n{v}", "{who} me pasó {label}, lo guardo aquí:\n{v}"],
    "de": ["{Label}:\n{v}", "Hier ist {label}:\n\n{v}", "Von {who} bekommen ({label}):\n{v}"],
    "fr": ["{Label} :\n{v}", "Voici {label} :\n\n{v}", "{who} m'a envoyé {label}, je le garde ici :\n{v}"],
    "pt": ["{Label}:\n{v}", "Segue {label}:\n\n{v}", "{who} mandou {label}, guardando aqui:\n{v}"],
    "it": ["{Label}:\n{v}", "Ecco {label}:\n\n{v}", "{who} mi ha passato {label}, lo salvo qui:\n{v}"],
    "ja": ["{label}:\n{v}", "{label}を貼っておく:\n\n{v}", "{who}さんから届いた{label}:\n{v}"],
    "zh": ["{label}:\n{v}", "{label}贴在这里:\n\n{v}", "{who} 发来的{label}:\n{v}"],
}

LOOK_PHRASES: dict[str, list[str]] = {
    "en": [
        "{Label}: {v}",
        "the {label} is {v}",
        "see {v}",
        "({label} {v})",
        "{label} {v}, public, fine to share",
        "noting the {label} {v} for the ticket",
        "reference: {v}",
        "{v} is just the {label}, not a secret",
        "compare against {label} {v}",
        "logged {label} {v}",
        "the {label} in the config is {v}",
        "{Label} → {v}",
    ],
    "es": ["{Label}: {v}", "ver {v}", "referencia: {v}", "({label} {v})", "{v} (solo es {label}, no es secreto)"],
    "de": ["{Label}: {v}", "siehe {v}", "Referenz: {v}", "({label} {v})", "{v} (nur {label}, nicht geheim)"],
    "fr": ["{Label} : {v}", "voir {v}", "référence : {v}", "({label} {v})", "{v} (juste {label}, pas un secret)"],
    "pt": ["{Label}: {v}", "ver {v}", "referência: {v}", "({label} {v})", "{v} (só {label}, não é segredo)"],
    "it": ["{Label}: {v}", "vedi {v}", "riferimento: {v}", "({label} {v})", "{v} (solo {label}, non è un segreto)"],
    "ja": ["{label}: {v}", "参照: {v}", "({label} {v})", "{v} ({label}なので秘密ではない)"],
    "zh": ["{label}: {v}", "参考: {v}", "({label} {v})", "{v} (只是{label}, 不是密钥)"],
}

FILLER: dict[str, list[str]] = {
    "en": [
        "Spent most of the morning chasing a flaky integration test.",
        "Migrated the billing worker to the new queue; latency looks fine so far.",
        "Need to ask Dana about the staging database snapshot.",
        "The deploy pipeline took 14 minutes again, mostly the Docker build.",
        "Quarterly access review is due next week.",
        "Moved the nightly cron to 02:30 UTC so it stops fighting the backup window.",
        "Pairing with Ravi on the search relevance tweaks tomorrow.",
        "Reminder to self: update the runbook after the failover drill.",
        "Customer reported duplicate emails; probably the retry logic in the notifier.",
        "Bumped the Postgres pool size from 10 to 20, watch the connection count.",
        "The feature flag for the new checkout is at 25% rollout.",
        "Half the team is off on Friday, so no deploys after Thursday noon.",
        "Logs are noisy because of the health checks; add a filter.",
        "Terraform plan shows drift on the security group again.",
        "Budget alert fired for the analytics project, mostly BigQuery scans.",
        "Docs for the webhook retries are out of date.",
        "Tried the newer model for summaries, output is shorter and cheaper.",
        "Renewed the domain for another two years.",
        "The mobile build is blocked on the App Store review.",
        "Load test: p95 at 180 ms with 400 rps, good enough for launch.",
        "Opened a ticket with the vendor about the rate limits.",
        "Kubernetes upgrade to 1.30 is scheduled for the 12th.",
        "Removed two unused IAM users during cleanup.",
        "The CSV export breaks on names with commas; needs proper quoting.",
        "Disk usage on the log volume is at 81%.",
        "Sprint demo went fine, product wants the bulk edit sooner.",
        "I keep forgetting the VPN has to be on for the internal Grafana.",
        "Cache hit rate dropped after the deploy, investigating.",
        "Wrote a small script to clean up old preview environments.",
        "Need to double check the timezone handling in the scheduler.",
        "The staging cluster is running out of IPs in the subnet.",
        "Holiday freeze starts on the 20th.",
        "Everything green in CI after pinning the library version.",
        "Reviewed the security questionnaire for the new customer.",
        "The queue backlog cleared after scaling the workers to 6.",
        "Asked legal whether we can keep call recordings for 90 days.",
        "Next step: write the migration and test it on a copy of prod.",
        "Nobody remembers why the legacy cron still exists.",
        "The on-call phone was quiet last night, only one disk alert.",
        "Switched the team docs from Confluence to the repo wiki.",
    ],
    "es": [
        "Pasé la mañana persiguiendo un test de integración inestable.",
        "Migramos el worker de facturación a la nueva cola; la latencia va bien.",
        "Tengo que preguntar a Dana por el snapshot de la base de staging.",
        "El pipeline de despliegue tardó 14 minutos otra vez.",
        "La revisión trimestral de accesos es la semana que viene.",
        "Moví el cron nocturno a las 02:30 UTC para no chocar con el backup.",
        "El flag del nuevo checkout está al 25 %.",
        "Los logs tienen mucho ruido por los health checks.",
        "Terraform vuelve a mostrar drift en el security group.",
        "El cliente reportó correos duplicados; seguramente son los reintentos.",
        "Subí el pool de Postgres de 10 a 20 conexiones.",
        "La actualización de Kubernetes está prevista para el día 12.",
        "Todo en verde en CI después de fijar la versión de la librería.",
        "El viernes no hay despliegues, media oficina está de vacaciones.",
        "Siguiente paso: escribir la migración y probarla con una copia de prod.",
    ],
    "de": [
        "Den ganzen Vormittag einem wackeligen Integrationstest hinterhergejagt.",
        "Der Billing-Worker läuft jetzt auf der neuen Queue, Latenz sieht gut aus.",
        "Muss Dana noch wegen des Staging-Snapshots fragen.",
        "Die Deploy-Pipeline hat wieder 14 Minuten gebraucht.",
        "Der quartalsweise Access-Review ist nächste Woche fällig.",
        "Nächtlichen Cronjob auf 02:30 UTC verschoben, wegen des Backup-Fensters.",
        "Das Feature-Flag für den neuen Checkout steht auf 25 %.",
        "Die Logs sind wegen der Health-Checks sehr laut.",
        "Terraform zeigt wieder Drift bei der Security Group.",
        "Kunde meldet doppelte Mails, vermutlich die Retry-Logik.",
        "Postgres-Pool von 10 auf 20 erhöht.",
        "Das Kubernetes-Upgrade ist für den 12. geplant.",
        "CI ist wieder grün, nachdem die Library-Version gepinnt wurde.",
        "Freitag keine Deploys, die Hälfte des Teams ist im Urlaub.",
        "Nächster Schritt: Migration schreiben und auf einer Prod-Kopie testen.",
    ],
    "fr": [
        "Passé la matinée sur un test d'intégration instable.",
        "Le worker de facturation tourne maintenant sur la nouvelle file, latence correcte.",
        "Il faut que je demande à Dana pour le snapshot de la base de staging.",
        "Le pipeline de déploiement a encore pris 14 minutes.",
        "La revue trimestrielle des accès est la semaine prochaine.",
        "Cron de nuit déplacé à 02:30 UTC pour éviter la fenêtre de sauvegarde.",
        "Le feature flag du nouveau checkout est à 25 %.",
        "Les logs sont très bruyants à cause des health checks.",
        "Terraform montre encore du drift sur le security group.",
        "Un client signale des e-mails en double, sûrement la logique de retry.",
        "Pool Postgres passé de 10 à 20 connexions.",
        "La montée de version Kubernetes est prévue pour le 12.",
        "Tout est vert en CI depuis qu'on a figé la version de la lib.",
        "Pas de déploiement vendredi, la moitié de l'équipe est en congé.",
        "Prochaine étape : écrire la migration et la tester sur une copie de la prod.",
    ],
    "pt": [
        "Passei a manhã atrás de um teste de integração instável.",
        "Migramos o worker de cobrança para a fila nova; a latência está ok.",
        "Preciso perguntar à Dana sobre o snapshot do banco de staging.",
        "O pipeline de deploy levou 14 minutos de novo.",
        "A revisão trimestral de acessos é na semana que vem.",
        "Mudei o cron noturno para 02:30 UTC por causa da janela de backup.",
        "A feature flag do novo checkout está em 25%.",
        "Os logs estão muito barulhentos por causa dos health checks.",
        "O Terraform mostra drift no security group outra vez.",
        "Um cliente reclamou de e-mails duplicados; deve ser o retry.",
        "Aumentei o pool do Postgres de 10 para 20.",
        "O upgrade do Kubernetes está marcado para o dia 12.",
        "CI verde depois de fixar a versão da biblioteca.",
        "Sexta sem deploy, metade do time está de folga.",
        "Próximo passo: escrever a migração e testar numa cópia de produção.",
    ],
    "it": [
        "Passato la mattina dietro a un test di integrazione instabile.",
        "Il worker di fatturazione ora usa la nuova coda, la latenza è ok.",
        "Devo chiedere a Dana dello snapshot del database di staging.",
        "La pipeline di deploy ha impiegato di nuovo 14 minuti.",
        "La revisione trimestrale degli accessi è la settimana prossima.",
        "Spostato il cron notturno alle 02:30 UTC per evitare la finestra di backup.",
        "Il feature flag del nuovo checkout è al 25%.",
        "I log sono molto rumorosi per colpa degli health check.",
        "Terraform mostra di nuovo drift sul security group.",
        "Un cliente segnala email duplicate, probabilmente i retry.",
        "Portato il pool di Postgres da 10 a 20 connessioni.",
        "L'aggiornamento di Kubernetes è previsto per il 12.",
        "CI tutta verde dopo aver fissato la versione della libreria.",
        "Venerdì niente deploy, metà del team è in ferie.",
        "Prossimo passo: scrivere la migrazione e provarla su una copia di produzione.",
    ],
    "ja": [
        "午前中はずっと不安定な結合テストを追いかけていた。",
        "請求ワーカーを新しいキューに移行した。レイテンシは問題なし。",
        "ステージングDBのスナップショットについてDanaさんに確認する。",
        "デプロイのパイプラインがまた14分かかった。",
        "四半期のアクセスレビューは来週が期限。",
        "バックアップと重ならないように夜間cronを02:30 UTCに移動。",
        "新しいチェックアウトのフィーチャーフラグは25%。",
        "ヘルスチェックのせいでログがうるさい。",
        "Terraformでまたセキュリティグループのドリフトが出ている。",
        "顧客から重複メールの報告。たぶんリトライ処理。",
        "Postgresのプールを10から20に増やした。",
        "Kubernetesのアップグレードは12日の予定。",
        "ライブラリのバージョンを固定したらCIが全部通った。",
        "金曜はデプロイ禁止、チームの半分が休み。",
        "次はマイグレーションを書いて本番のコピーで試す。",
    ],
    "zh": [
        "上午一直在追一个不稳定的集成测试。",
        "计费 worker 已经迁移到新队列, 延迟正常。",
        "要问一下 Dana 关于 staging 数据库快照的事。",
        "部署流水线又花了 14 分钟。",
        "季度权限审查下周截止。",
        "把夜间 cron 挪到 02:30 UTC, 避开备份窗口。",
        "新结账流程的 feature flag 现在是 25%。",
        "因为健康检查, 日志特别吵。",
        "Terraform 又显示安全组有漂移。",
        "客户反馈收到重复邮件, 可能是重试逻辑。",
        "把 Postgres 连接池从 10 调到 20。",
        "Kubernetes 升级定在 12 号。",
        "固定了库版本以后 CI 全绿。",
        "周五不发布, 一半同事休假。",
        "下一步: 写迁移脚本, 在生产副本上测试。",
    ],
}

USER_FACTS: dict[str, list[str]] = {
    "en": [
        "Prefers short answers with the code first.",
        "Works from Lisbon, usually online 9:00-18:00.",
        "Uses a MacBook with zsh and VS Code.",
        "Allergic to peanuts (came up when ordering team lunch).",
        "Likes the dark theme and metric units.",
        "Is preparing for the AWS Solutions Architect exam.",
        "Runs a small online shop on the side.",
        "Doesn't want reminders on weekends.",
        "Has a cat called Miso.",
        "Replies in English unless asked otherwise.",
    ],
    "es": [
        "Prefiere respuestas cortas, con el código primero.",
        "Trabaja desde Valencia, horario 9:00-18:00.",
        "Usa Linux con fish y Neovim.",
        "No quiere recordatorios el fin de semana.",
        "Tiene un perro que se llama Coco.",
    ],
    "de": [
        "Mag kurze Antworten, Code zuerst.",
        "Arbeitet aus Leipzig, meist 8:30-17:00 erreichbar.",
        "Nutzt Linux mit zsh und IntelliJ.",
        "Keine Erinnerungen am Wochenende.",
        "Bereitet sich auf die CKA-Prüfung vor.",
    ],
    "fr": [
        "Préfère les réponses courtes, avec le code d'abord.",
        "Travaille depuis Lyon, joignable 9h-18h.",
        "Utilise un Mac avec zsh et VS Code.",
        "Pas de rappels le week-end.",
        "A un chat qui s'appelle Pixel.",
    ],
    "pt": [
        "Prefere respostas curtas, com o código primeiro.",
        "Trabalha de Porto Alegre, online das 9h às 18h.",
        "Usa Windows com WSL e VS Code.",
        "Não quer lembretes no fim de semana.",
        "Está estudando para a certificação da AWS.",
    ],
    "it": [
        "Preferisce risposte brevi, prima il codice.",
        "Lavora da Bologna, di solito online 9-18.",
        "Usa un Mac con zsh e PyCharm.",
        "Niente promemoria nel weekend.",
        "Ha un gatto che si chiama Biscotto.",
    ],
    "ja": [
        "回答は短めでコードを先に見せてほしい。",
        "大阪から在宅勤務、だいたい9時から18時。",
        "MacとVS Codeを使っている。",
        "週末のリマインダーは不要。",
        "猫を飼っている (名前はきなこ)。",
    ],
    "zh": [
        "喜欢简短的回答, 先给代码。",
        "在杭州远程办公, 一般 9 点到 18 点在线。",
        "用 Mac 和 VS Code。",
        "周末不要提醒。",
        "养了一只叫豆豆的猫。",
    ],
}

CHAT: dict[str, list[str]] = {
    "en": [
        "ok, trying now",
        "works 👍",
        "thanks!",
        "that did it",
        "hmm still 403",
        "deploying now",
        "can you double-check?",
        "np",
        "which env?",
        "on it",
        "lgtm",
        "rolled back",
        "ah right",
        "ping me when it's done",
    ],
    "es": ["vale, lo pruebo", "funciona 👍", "¡gracias!", "sigue dando 403", "¿qué entorno?", "lo miro", "desplegando"],
    "de": [
        "ok, probiere es",
        "läuft 👍",
        "danke!",
        "immer noch 403",
        "welche Umgebung?",
        "schaue ich mir an",
        "deploye jetzt",
    ],
    "fr": [
        "ok je teste",
        "ça marche 👍",
        "merci !",
        "toujours 403",
        "quel environnement ?",
        "je regarde",
        "je déploie",
    ],
    "pt": ["ok, testando", "funcionou 👍", "valeu!", "ainda 403", "qual ambiente?", "vou ver", "subindo agora"],
    "it": ["ok, provo", "funziona 👍", "grazie!", "ancora 403", "quale ambiente?", "ci guardo", "sto deployando"],
    "ja": ["了解、試します", "動いた 👍", "ありがとう!", "まだ403", "どの環境?", "見てみます", "デプロイ中"],
    "zh": ["好, 我试试", "可以了 👍", "谢谢!", "还是 403", "哪个环境?", "我看看", "正在部署"],
}

HEAD: dict[str, dict[str, str]] = {
    "en": {
        "notes": "Notes",
        "meeting": "Meeting notes",
        "attendees": "Attendees",
        "actions": "Action items",
        "summary": "Summary",
        "timeline": "Timeline",
        "root_cause": "Root cause",
        "steps": "Steps",
        "context": "Context",
        "credentials": "Credentials",
        "description": "Description",
        "comments": "Comments",
        "status": "Status",
        "handover": "Handover",
        "open": "Open items",
        "access": "Access",
        "config": "Configuration",
        "about": "About the user",
        "todo": "To do",
        "impact": "Impact",
        "followups": "Follow-ups",
        "memory": "Memory",
    },
    "es": {
        "notes": "Notas",
        "meeting": "Acta de reunión",
        "attendees": "Asistentes",
        "actions": "Acciones",
        "summary": "Resumen",
        "timeline": "Cronología",
        "root_cause": "Causa raíz",
        "steps": "Pasos",
        "context": "Contexto",
        "credentials": "Credenciales",
        "description": "Descripción",
        "comments": "Comentarios",
        "status": "Estado",
        "handover": "Traspaso de guardia",
        "open": "Pendientes",
        "access": "Accesos",
        "config": "Configuración",
        "about": "Sobre el usuario",
        "todo": "Por hacer",
        "impact": "Impacto",
        "followups": "Seguimiento",
        "memory": "Memoria",
    },
    "de": {
        "notes": "Notizen",
        "meeting": "Besprechungsnotizen",
        "attendees": "Teilnehmende",
        "actions": "Aufgaben",
        "summary": "Zusammenfassung",
        "timeline": "Zeitverlauf",
        "root_cause": "Ursache",
        "steps": "Schritte",
        "context": "Kontext",
        "credentials": "Zugangsdaten",
        "description": "Beschreibung",
        "comments": "Kommentare",
        "status": "Status",
        "handover": "Übergabe",
        "open": "Offene Punkte",
        "access": "Zugänge",
        "config": "Konfiguration",
        "about": "Über den Nutzer",
        "todo": "To-do",
        "impact": "Auswirkung",
        "followups": "Nacharbeiten",
        "memory": "Gedächtnis",
    },
    "fr": {
        "notes": "Notes",
        "meeting": "Compte rendu de réunion",
        "attendees": "Participants",
        "actions": "Actions",
        "summary": "Résumé",
        "timeline": "Chronologie",
        "root_cause": "Cause racine",
        "steps": "Étapes",
        "context": "Contexte",
        "credentials": "Identifiants",
        "description": "Description",
        "comments": "Commentaires",
        "status": "Statut",
        "handover": "Passation",
        "open": "Points ouverts",
        "access": "Accès",
        "config": "Configuration",
        "about": "À propos de l'utilisateur",
        "todo": "À faire",
        "impact": "Impact",
        "followups": "Suites",
        "memory": "Mémoire",
    },
    "pt": {
        "notes": "Notas",
        "meeting": "Ata da reunião",
        "attendees": "Participantes",
        "actions": "Ações",
        "summary": "Resumo",
        "timeline": "Linha do tempo",
        "root_cause": "Causa raiz",
        "steps": "Passos",
        "context": "Contexto",
        "credentials": "Credenciais",
        "description": "Descrição",
        "comments": "Comentários",
        "status": "Status",
        "handover": "Passagem de turno",
        "open": "Pendências",
        "access": "Acessos",
        "config": "Configuração",
        "about": "Sobre o usuário",
        "todo": "A fazer",
        "impact": "Impacto",
        "followups": "Próximos passos",
        "memory": "Memória",
    },
    "it": {
        "notes": "Note",
        "meeting": "Verbale della riunione",
        "attendees": "Partecipanti",
        "actions": "Azioni",
        "summary": "Riepilogo",
        "timeline": "Cronologia",
        "root_cause": "Causa principale",
        "steps": "Passi",
        "context": "Contesto",
        "credentials": "Credenziali",
        "description": "Descrizione",
        "comments": "Commenti",
        "status": "Stato",
        "handover": "Passaggio di consegne",
        "open": "Punti aperti",
        "access": "Accessi",
        "config": "Configurazione",
        "about": "Sull'utente",
        "todo": "Da fare",
        "impact": "Impatto",
        "followups": "Seguiti",
        "memory": "Memoria",
    },
    "ja": {
        "notes": "メモ",
        "meeting": "議事録",
        "attendees": "参加者",
        "actions": "アクションアイテム",
        "summary": "概要",
        "timeline": "タイムライン",
        "root_cause": "根本原因",
        "steps": "手順",
        "context": "背景",
        "credentials": "認証情報",
        "description": "説明",
        "comments": "コメント",
        "status": "ステータス",
        "handover": "引き継ぎ",
        "open": "未対応",
        "access": "アクセス",
        "config": "設定",
        "about": "ユーザーについて",
        "todo": "TODO",
        "impact": "影響",
        "followups": "フォローアップ",
        "memory": "記憶",
    },
    "zh": {
        "notes": "笔记",
        "meeting": "会议纪要",
        "attendees": "参会人",
        "actions": "待办事项",
        "summary": "概述",
        "timeline": "时间线",
        "root_cause": "根因",
        "steps": "步骤",
        "context": "背景",
        "credentials": "凭据",
        "description": "描述",
        "comments": "评论",
        "status": "状态",
        "handover": "交接",
        "open": "未完成事项",
        "access": "访问",
        "config": "配置",
        "about": "关于用户",
        "todo": "待办",
        "impact": "影响",
        "followups": "后续",
        "memory": "记忆",
    },
}

COMMENTS: dict[str, list[str]] = {
    "en": [
        "rotated {date}, ask {who} before changing",
        "local overrides, do not commit",
        "prod values, keep in sync with the vault",
        "temporary until the migration lands",
        "copied from the old server",
        "staging only",
        "TODO move these to the secret manager",
        "generated by the setup script on {date}",
    ],
    "es": [
        "rotado el {date}, pregunta a {who} antes de cambiar",
        "valores locales, no subir al repo",
        "valores de prod, mantener igual que en el vault",
        "temporal hasta la migración",
        "copiado del servidor viejo",
    ],
    "de": [
        "rotiert am {date}, vor Änderungen {who} fragen",
        "lokale Overrides, nicht committen",
        "Prod-Werte, synchron mit dem Vault halten",
        "vorübergehend bis zur Migration",
        "vom alten Server kopiert",
    ],
    "fr": [
        "changé le {date}, demander à {who} avant de modifier",
        "surcharges locales, ne pas committer",
        "valeurs de prod, garder en phase avec le coffre",
        "temporaire jusqu'à la migration",
        "copié depuis l'ancien serveur",
    ],
    "pt": [
        "rotacionado em {date}, falar com {who} antes de mudar",
        "overrides locais, não commitar",
        "valores de produção, manter igual ao cofre",
        "temporário até a migração",
        "copiado do servidor antigo",
    ],
    "it": [
        "ruotato il {date}, chiedere a {who} prima di cambiare",
        "override locali, non committare",
        "valori di produzione, tenerli allineati al vault",
        "temporaneo fino alla migrazione",
        "copiato dal vecchio server",
    ],
    "ja": [
        "{date}にローテーション済み。変更前に{who}さんに確認",
        "ローカル用。コミットしないこと",
        "本番の値。Vaultと同期すること",
        "移行が終わるまでの一時的な設定",
        "旧サーバーからコピー",
    ],
    "zh": [
        "{date} 已轮换, 修改前先问 {who}",
        "本地覆盖配置, 不要提交",
        "生产环境的值, 和 Vault 保持一致",
        "迁移完成前临时使用",
        "从旧服务器复制过来的",
    ],
}

SUBJECTS: dict[str, list[str]] = {
    "en": [
        "access for the new contractor",
        "credentials for the staging env",
        "vendor onboarding",
        "re: integration keys",
        "handover before my leave",
        "the thing we discussed",
    ],
    "es": ["accesos para el nuevo proveedor", "credenciales de staging", "re: claves de la integración"],
    "de": ["Zugänge für den neuen Dienstleister", "Zugangsdaten Staging", "AW: Integrationsschlüssel"],
    "fr": ["accès pour le nouveau prestataire", "identifiants de staging", "re : clés de l'intégration"],
    "pt": ["acessos para o novo fornecedor", "credenciais de staging", "re: chaves da integração"],
    "it": ["accessi per il nuovo fornitore", "credenziali di staging", "re: chiavi dell'integrazione"],
    "ja": ["新しい委託先のアクセス", "ステージングの認証情報", "Re: 連携用のキー"],
    "zh": ["新供应商的访问权限", "staging 环境凭据", "回复: 集成密钥"],
}
GREET = {
    "en": ("Hi {who},", "Thanks,"),
    "es": ("Hola {who}:", "Gracias,"),
    "de": ("Hallo {who},", "Viele Grüße"),
    "fr": ("Bonjour {who},", "Merci,"),
    "pt": ("Oi {who},", "Abraço,"),
    "it": ("Ciao {who},", "Grazie,"),
    "ja": ("{who}さん", "よろしくお願いします。"),
    "zh": ("{who} 你好,", "谢谢!"),
}
WROTE = {
    "en": "On {date}, {who} wrote:",
    "es": "El {date}, {who} escribió:",
    "de": "Am {date} schrieb {who}:",
    "fr": "Le {date}, {who} a écrit :",
    "pt": "Em {date}, {who} escreveu:",
    "it": "Il {date} {who} ha scritto:",
    "ja": "{date} {who} さんは書きました:",
    "zh": "{date}, {who} 写道:",
}


def noun_label(e: Entry, lang: str) -> str:
    if lang == "en":
        return e.label
    with_p, without = NOUNS[lang].get(e.noun, NOUNS[lang]["key"])
    if e.product:
        return with_p.format(p=e.product)
    return without


def cap(s: str) -> str:
    return s[:1].upper() + s[1:]


# ---------------------------------------------------------------------------------------------------------------
# documents and shared rendering helpers


@dataclass
class Doc:
    ctx: str
    lang: str
    groups: list[list[Entry]]
    date: dt.date
    wrap: int = 0
    used: list | None = None
    said: list | None = None

    @property
    def entries(self) -> list[Entry]:
        return [e for g in self.groups for e in g]

    def comment(self) -> str:
        return pick(COMMENTS[self.lang]).format(date=self.date.isoformat(), who=person())

    def fill(self) -> str:
        if self.said is None:
            self.said = []
        fresh = [f for f in FILLER[self.lang] if f not in self.said]
        line = pick(fresh or FILLER[self.lang])
        self.said.append(line)
        return line

    def head(self, key: str) -> str:
        return HEAD[self.lang][key]

    def sub(self, groups: list[list[Entry]]) -> Doc:
        return Doc(self.ctx, self.lang, groups, self.date, self.wrap, self.used, self.said)


FILL_KV = [
    ("log_level", "info"),
    ("port", 8080),
    ("node_env", "production"),
    ("region", "eu-west-1"),
    ("timeout_seconds", 30),
    ("feature_new_checkout", True),
    ("max_connections", 20),
    ("cache_ttl", 300),
    ("debug", False),
    ("workers", 4),
    ("base_url", "https://api.internal.example"),
    ("timezone", "Europe/Lisbon"),
    ("retry_attempts", 3),
    ("sentry_environment", "staging"),
    ("queue_name", "jobs-default"),
    ("metrics_enabled", True),
    ("bucket", "reports-archive"),
]


def fills(n: int) -> list[tuple[str, object]]:
    return R.sample(FILL_KV, n)


def mixed(d: Doc, nfill: int) -> list:
    """Entries in document order with filler (name, value) pairs spread between them."""
    items: list = list(d.entries)
    for kv in fills(nfill):
        items.insert(R.randrange(len(items) + 1), kv)
    return items


def up(n: str) -> str:
    return n.upper()


def camel(n: str) -> str:
    parts = n.split("_")
    return parts[0] + "".join(p.title() for p in parts[1:])


def pascal(n: str) -> str:
    return "".join(p.title() for p in n.split("_"))


def kebab(n: str) -> str:
    return n.replace("_", "-")


def c_escape(s: str, q: str = '"', extra: dict[str, str] | None = None) -> str:
    out = []
    for ch in s:
        if ch == "\\":
            out.append("\\\\")
        elif ch == q:
            out.append("\\" + q)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif extra and ch in extra:
            out.append(extra[ch])
        else:
            out.append(ch)
    return "".join(out)


def dq(s: str, extra: dict[str, str] | None = None) -> str:
    return '"' + c_escape(s, '"', extra) + '"'


def py_repr(s: str) -> str:
    p = plain(s)
    q = '"' if "'" in p and '"' not in p else "'"
    return q + c_escape(s, q) + q


SH_SAFE = re.compile(r"[A-Za-z0-9_./:@%+=,-]+")


def sh(s: str) -> str:
    p = plain(s)
    if SH_SAFE.fullmatch(p):
        return s
    if "'" not in p:
        return "'" + s + "'"
    return "'" + s.replace("'", "'\\''") + "'"


def fmt_scalar(v: object, style: str) -> str:
    if isinstance(v, bool):
        return {"py": str(v), "json": json.dumps(v)}.get(style, "true" if v else "false")
    if isinstance(v, int):
        return str(v)
    return str(v)


YAML_PLAIN = re.compile(r"[A-Za-z0-9_./+][A-Za-z0-9_./:@+=,~ -]*")
YAML_RESERVED = {"true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"}


def yaml_scalar(s: str, indent: int) -> str:
    p = plain(s)
    if "\n" in p:
        pad = " " * (indent + 2)
        return pick(["|", "|-"]) + "\n" + "\n".join(pad + line if plain(line) else line for line in s.split("\n"))
    numeric = re.fullmatch(r"0x[0-9a-fA-F]+|[-+]?[0-9][0-9_:.eE+-]*|\.[0-9]+|[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ].*", p)
    if (
        YAML_PLAIN.fullmatch(p)
        and p.lower() not in YAML_RESERVED
        and not numeric
        and ": " not in p
        and " #" not in p
        and not p.endswith((" ", ":"))
    ):
        return s
    if '"' not in p and "\\" not in p and chance(0.4):
        return '"' + s + '"'
    return "'" + s.replace("'", "''") + "'"


def yaml_value(v: object, indent: int) -> str:
    if isinstance(v, str):
        return yaml_scalar(v, indent)
    return fmt_scalar(v, "yaml")


def env_q(s: str) -> str:
    p = plain(s)
    if "\n" in p:
        return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if re.fullmatch(r"[A-Za-z0-9_./:@%+=,-]*", p):
        return s
    if "'" not in p:
        return "'" + s + "'"
    return '"' + c_escape(s, '"', {"$": "\\$", "`": "\\`"}) + '"'


def xml_text(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def xml_attr(s: str) -> str:
    return xml_text(s).replace('"', "&quot;").replace("\n", "&#10;")


def props_escape(s: str) -> str:
    out = c_escape(s, "\0")
    return "\\ " + out[1:] if out.startswith(" ") else out


def hcl_str(s: str) -> str:
    return '"' + c_escape(s, '"').replace("${", "$${").replace("%{", "%%{") + '"'


def toml_str(s: str) -> str:
    p = plain(s)
    if "\n" in p and "'''" not in p:
        return "'''\n" + s + "'''"
    return json.dumps(s, ensure_ascii=False)


def one_line(e: Entry) -> None:
    if e.multiline:
        raise Reject("multi-line value in a single-line syntax")


def bearerish(e: Entry) -> bool:
    """Whether the entry is something one sends in an HTTP header."""
    return bool(e.header) or e.cat in ("header", "cookie") or (e.cat == "token" and e.noun in ("token", "apikey"))


def hdr_line(e: Entry, v: str) -> str:
    """An HTTP header carrying the entry; `v` is the (escaped) marked fragment."""
    if e.header:
        return e.header.format(v)
    if e.cat in ("header", "cookie"):
        return ("Cookie: " if e.cat == "cookie" else "Authorization: ") + v
    return "Authorization: Bearer " + v


def api_url() -> str:
    return f"https://api.{domain()}/v{R.randrange(1, 4)}/{pick(['status', 'invoices', 'events', 'me', 'jobs'])}"


# ---------------------------------------------------------------------------------------------------------------
# structured files


def r_env(d: Doc) -> str:
    lines = [f"# {d.comment()}"] if chance(0.85) else []
    export = "export " if chance(0.2) else ""
    for it in mixed(d, R.randrange(1, 5)):
        if isinstance(it, Entry):
            lines.append(f"{export}{up(it.name)}={env_q(it.text())}")
        else:
            lines.append(f"{export}{up(it[0])}={fmt_scalar(it[1], 'env')}")
        if chance(0.12):
            lines.append("")
    return "\n".join(lines) + "\n"


def r_json(d: Doc) -> str:
    case = pick([camel, str])
    raws: dict[str, str] = {}
    obj: dict = {}
    if chance(0.3):
        obj["_comment"] = d.comment()
    target = obj
    if chance(0.5):
        obj["app"] = {case(k): v for k, v in fills(R.randrange(1, 4))}
        target = obj.setdefault(pick(["integrations", "secrets", "services", "credentials"]), {})
    for e in d.entries:
        if e.cat == "json":
            token = f"@@RAW{len(raws)}@@"
            raws[token] = e.text()
            target[case(e.name)] = token
        else:
            target[case(e.name)] = e.text()
    text = json.dumps(obj, indent=2, ensure_ascii=False)
    for token, raw in raws.items():
        text = text.replace(f'"{token}"', raw)
    return text + "\n"


def r_yaml(d: Doc) -> str:
    lines = [f"# {d.comment()}"] if chance(0.8) else []
    case = pick([str, kebab])
    lines.append("app:")
    for k, v in fills(R.randrange(1, 4)):
        lines.append(f"  {case(k)}: {yaml_value(v, 2)}")
    lines.append(pick(["integrations:", "secrets:", "credentials:", "services:"]))
    for e in d.entries:
        lines.append(f"  {case(e.name)}: {yaml_scalar(e.text(), 2)}")
    return "\n".join(lines) + "\n"


def r_toml(d: Doc) -> str:
    lines = [f"# {d.comment()}", "", "[app]"]
    for k, v in fills(R.randrange(1, 4)):
        lines.append(f"{k} = {json.dumps(v) if not isinstance(v, bool) else fmt_scalar(v, 'toml')}")
    lines += ["", f"[{pick(['secrets', 'integrations', 'providers'])}]"]
    for e in d.entries:
        lines.append(f"{e.name} = {toml_str(e.text())}")
    return "\n".join(lines) + "\n"


def r_ini(d: Doc) -> str:
    lines = [f"{pick(['#', ';'])} {d.comment()}", "", f"[{pick(['app', 'main', 'default'])}]"]
    for k, v in fills(R.randrange(1, 3)):
        lines.append(f"{k} = {fmt_scalar(v, 'ini')}")
    lines += ["", f"[{pick(['credentials', 'secrets', 'auth', 'external'])}]"]
    for e in d.entries:
        text = e.text()
        p = plain(text)
        if p != p.strip():
            raise Reject("leading / trailing blanks in INI")
        if "\n" in p:
            lines.append(f"{e.name} =\n    " + text.replace("\n", "\n    "))
        else:
            lines.append(f"{e.name} = {text}")
    return "\n".join(lines) + "\n"


def r_properties(d: Doc) -> str:
    prefix = pick(["app", "spring.datasource", "integration", "service", "acme"])
    lines = [f"# {d.comment()}"]
    for it in mixed(d, R.randrange(1, 4)):
        if isinstance(it, Entry):
            lines.append(f"{prefix}.{kebab(it.name)}={props_escape(it.text())}")
        else:
            lines.append(f"{prefix}.{kebab(it[0])}={fmt_scalar(it[1], 'props')}")
    return "\n".join(lines) + "\n"


def r_xml(d: Doc) -> str:
    comment = d.comment().replace("--", "-")
    style = R.randrange(3)
    if style == 1 and any(e.cat not in ("token", "password") or e.multiline for e in d.entries):
        style = 2
    if style == 0:
        lines = [
            '<?xml version="1.0" encoding="utf-8"?>',
            "<configuration>",
            f"  <!-- {comment} -->",
            "  <appSettings>",
        ]
        for k, v in fills(R.randrange(1, 3)):
            lines.append(f'    <add key="{pascal(k)}" value="{fmt_scalar(v, "xml")}" />')
        tail = []
        for e in d.entries:
            if e.multiline:
                tail.append(f"    <{pascal(e.name)}>\n{xml_text(e.text())}\n    </{pascal(e.name)}>")
            else:
                lines.append(f'    <add key="{pascal(e.name)}" value="{xml_attr(e.text())}" />')
        lines.append("  </appSettings>")
        if tail:
            lines += ["  <secrets>", *tail, "  </secrets>"]
        lines.append("</configuration>")
        return "\n".join(lines) + "\n"
    if style == 1:
        lines = ["<settings>", f"  <!-- {comment} -->", "  <servers>"]
        for e in d.entries:
            lines += [
                "    <server>",
                f"      <id>{kebab(e.name)}</id>",
                f"      <username>{username()}</username>",
                f"      <password>{xml_text(e.text())}</password>",
                "    </server>",
            ]
        lines += ["  </servers>", "</settings>"]
        return "\n".join(lines) + "\n"
    lines = ['<?xml version="1.0"?>', f"<!-- {comment} -->", "<config>"]
    for k, v in fills(R.randrange(1, 3)):
        lines.append(f"  <{camel(k)}>{fmt_scalar(v, 'xml')}</{camel(k)}>")
    for e in d.entries:
        lines.append(f"  <{camel(e.name)}>{xml_text(e.text())}</{camel(e.name)}>")
    lines.append("</config>")
    return "\n".join(lines) + "\n"


def r_hcl(d: Doc) -> str:
    lines = [f"# {d.comment()}", ""]
    style = R.randrange(2)
    for e in d.entries:
        text = e.text()
        value = f"<<EOT\n{text}\nEOT" if e.multiline else hcl_str(text)
        if style == 0:
            sens = "\n  sensitive = true" if e.secret else ""
            lines += [f'variable "{e.name}" {{', "  type      = string" + sens, f"  default   = {value}", "}", ""]
        else:
            lines.append(f"{e.name} = {value}")
    if style == 1:
        for k, v in fills(R.randrange(1, 3)):
            lines.append(f"{k} = {json.dumps(v)}")
    return "\n".join(lines).rstrip() + "\n"


def r_dockerfile(d: Doc) -> str:
    base = pick(
        ["python:3.12-slim", "node:20-bookworm-slim", "golang:1.22-alpine", "eclipse-temurin:21-jre", "ruby:3.3"]
    )
    lines = [f"# {d.comment()}", f"FROM {base}", "WORKDIR /app"]
    for e in d.entries:
        one_line(e)
        text, p = e.text(), e.plain()
        if not re.fullmatch(r"[A-Za-z0-9_./:@%+=,-]+", p):
            text = dq(text, {"$": "\\$"})
        lines.append(f"{pick(['ENV', 'ENV', 'ARG'])} {up(e.name)}={text}")
    lines += [
        "COPY . .",
        pick(
            [
                "RUN pip install --no-cache-dir -r requirements.txt",
                "RUN npm ci --omit=dev",
                "RUN go build -o /bin/app ./cmd/app",
                "RUN bundle install",
            ]
        ),
        f"EXPOSE {pick(['8080', '3000', '8000'])}",
        pick(['CMD ["python", "-m", "app"]', 'CMD ["node", "server.js"]', 'ENTRYPOINT ["/bin/app"]']),
    ]
    return "\n".join(lines) + "\n"


def r_compose(d: Doc) -> str:
    svc = pick(SERVICES)
    listed = chance(0.4) and not any(e.multiline for e in d.entries)
    lines = [
        f"# {d.comment()}",
        "services:",
        f"  {svc}:",
        f"    image: ghcr.io/{org()}/{svc}:latest",
        "    environment:",
    ]
    for it in mixed(d, R.randrange(1, 3)):
        name, val = (up(it.name), it.text()) if isinstance(it, Entry) else (up(it[0]), fmt_scalar(it[1], "env"))
        if listed:
            lines.append(f"      - {yaml_scalar(name + '=' + val, 6)}")
        else:
            lines.append(f"      {name}: {yaml_value(val, 6)}")
    lines += [
        "    ports:",
        f'      - "{pick(["8080", "3000", "8000"])}:8080"',
        "    depends_on:",
        "      - db",
        "  db:",
        "    image: postgres:16-alpine",
        "    volumes:",
        "      - pgdata:/var/lib/postgresql/data",
        "volumes:",
        "  pgdata: {}",
    ]
    return "\n".join(lines) + "\n"


def r_k8s(d: Doc) -> str:
    name, ns = (
        f"{pick(SERVICES)}-{pick(['secrets', 'config', 'env'])}",
        pick(["prod", "staging", "payments", "default"]),
    )
    lines = [f"# {d.comment()}"]
    if chance(0.6):
        kind_ = pick(["Secret", "Secret", "ConfigMap"])
        lines += ["apiVersion: v1", f"kind: {kind_}", "metadata:", f"  name: {name}", f"  namespace: {ns}"]
        if kind_ == "Secret":
            lines += ["type: Opaque", "stringData:"]
        else:
            lines.append("data:")
        for e in d.entries:
            lines.append(f"  {up(e.name) if chance(0.5) else kebab(e.name)}: {yaml_scalar(e.text(), 2)}")
        return "\n".join(lines) + "\n"
    lines += [
        "apiVersion: apps/v1",
        "kind: Deployment",
        "metadata:",
        f"  name: {name}",
        f"  namespace: {ns}",
        "spec:",
        "  replicas: 2",
        "  template:",
        "    spec:",
        "      containers:",
        f"        - name: {pick(SERVICES)}",
        f"          image: ghcr.io/{org()}/{pick(SERVICES)}:{R.randrange(1, 4)}.{R.randrange(0, 20)}.0",
        "          env:",
    ]
    for it in mixed(d, R.randrange(1, 3)):
        name_, val = (up(it.name), it.text()) if isinstance(it, Entry) else (up(it[0]), fmt_scalar(it[1], "env"))
        lines += [
            f"            - name: {name_}",
            f"              value: {yaml_value(val if isinstance(it, Entry) else str(val), 14)}",
        ]
    return "\n".join(lines) + "\n"


def r_github_actions(d: Doc) -> str:
    lines = [
        f"# {d.comment()}",
        f"name: {pick(['deploy', 'release', 'nightly', 'ci'])}",
        "on:",
        "  push:",
        "    branches: [main]",
        "env:",
    ]
    ents = d.entries
    split = R.randrange(len(ents) + 1)
    for e in ents[:split]:
        lines.append(f"  {up(e.name)}: {yaml_scalar(e.text(), 2)}")
    lines += [f"  {up(k)}: {yaml_value(v, 2)}" for k, v in fills(1)]
    lines += ["jobs:", "  deploy:", "    runs-on: ubuntu-latest", "    env:"]
    run_lines = []
    for e in ents[split:]:
        if not e.multiline and bearerish(e) and chance(0.4):
            run_lines.append(f"curl -fsS -H {sh(hdr_line(e, e.text()))} {api_url()}")
        else:
            lines.append(f"      {up(e.name)}: {yaml_scalar(e.text(), 6)}")
    lines += [f"      {up(k)}: {yaml_value(v, 6)}" for k, v in fills(1)]
    lines += ["    steps:", "      - uses: actions/checkout@v4", "      - name: Deploy", "        run: |"]
    lines += [f"          {ln}" for ln in [*run_lines, "./scripts/deploy.sh"]]
    return "\n".join(lines) + "\n"


def r_gitlab_ci(d: Doc) -> str:
    lines = [f"# {d.comment()}", "stages: [build, deploy]", "", "variables:"]
    script = []
    for e in d.entries:
        if not e.multiline and bearerish(e) and chance(0.35):
            script.append(f'curl --fail -H "{c_escape(hdr_line(e, e.text()))}" {api_url()}')
        else:
            lines.append(f"  {up(e.name)}: {yaml_scalar(e.text(), 2)}")
    lines += [f"  {up(k)}: {yaml_value(v, 2)}" for k, v in fills(R.randrange(1, 3))]
    lines += ["", "deploy:", "  stage: deploy", "  image: alpine:3.20", "  script:"]
    for cmd in ["apk add --no-cache curl", *script, "./deploy.sh"]:
        lines.append(f"    - {yaml_scalar(cmd, 4)}")
    lines += ["  only:", "    - main"]
    return "\n".join(lines) + "\n"


def csv_note(d: Doc) -> str:
    return d.fill() if chance(0.5) else d.comment()


def r_csv(d: Doc) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(
        pick(
            [
                ["service", "environment", "username", "secret", "notes"],
                ["system", "env", "login", "value", "comment"],
                ["name", "env", "user", "credential", "remarks"],
            ]
        )
    )
    rows = []
    for e in d.entries:
        rows.append([e.product or e.label or e.name, pick(ENVS), username(), e.text(), csv_note(d)])
    for _ in range(R.randrange(0, 3)):
        rows.insert(
            R.randrange(len(rows) + 1),
            [pick(["Grafana", "Jira", "Okta", "VPN"]), pick(ENVS), "sso", "(SSO)", csv_note(d)],
        )
    w.writerows(rows)
    return buf.getvalue()


DOTFILE_SIMPLE = {
    "npm_token": ("~/.npmrc", "//registry.npmjs.org/:_authToken={}"),
    "pypi_token": ("~/.pypirc", "[pypi]\n  username = __token__\n  password = {}"),
    "rubygems_api_key": ("~/.gem/credentials", "---\n:rubygems_api_key: {}"),
    "ssh_public_key": ("~/.ssh/authorized_keys", "{}"),
}
GIT_TOKENS = ("github_pat_classic", "github_fine_grained_pat", "gitlab_pat")


def dotfile_place(e: Entry) -> tuple[str, str]:
    """The dotfile an entry would live in, and its line there."""
    t, k = e.text(), e.kind
    if k in DOTFILE_SIMPLE:
        path, tpl = DOTFILE_SIMPLE[k]
        return path, tpl.format(t)
    if k in ("aws_access_key_id", "aws_secret_access_key", "aws_session_token"):
        return "~/.aws/credentials", f"{e.name if e.name.startswith('aws_') else 'aws_' + e.name} = {t}"
    if k in ("heroku_api_key", "generic_password") and not e.multiline:
        machine = pick(["api.heroku.com", "git." + domain(), "ftp." + domain()])
        return "~/.netrc", f"machine {machine}\n  login {username()}\n  password {t}"
    if k == "postgres_password" and e.cat == "password":
        escaped = t.replace("\\", "\\\\").replace(":", "\\:")
        return "~/.pgpass", f"{host()}:5432:*:{username()}:{escaped}"
    if k in GIT_TOKENS:
        return "~/.git-credentials", f"https://{username()}:{t}@{'gitlab.com' if k == 'gitlab_pat' else 'github.com'}"
    if k == "cratesio_token":
        return "~/.cargo/credentials.toml", f"[registry]\ntoken = {toml_str(t)}"
    if e.cat == "json":
        return "~/.docker/config.json", t
    if e.cat == "pem":
        return pick(["~/.ssh/id_deploy", "~/keys/" + e.name + ".pem", "~/.config/keys/" + e.name]), t
    return "~/.zshrc", f"export {up(e.name)}={env_q(t)}"


def r_dotfile(d: Doc) -> str:
    files: dict[str, list[str]] = {"~/.zshrc": [f"# {d.comment()}", 'export PATH="$HOME/.local/bin:$PATH"']}
    for e in d.entries:
        path, line = dotfile_place(e)
        files.setdefault(path, []).append(line)
    if chance(0.5):
        files["~/.zshrc"].append(pick(["alias k=kubectl", "alias gs='git status'", 'eval "$(direnv hook zsh)"']))
    style = pick(["==> {} <==", "# {}", "--- {}"])
    return "\n\n".join(style.format(path) + "\n" + "\n".join(body) for path, body in files.items()) + "\n"


def systemd_q(s: str) -> str:
    return c_escape(s, '"').replace("%", "%%")


def r_systemd(d: Doc) -> str:
    svc = pick(SERVICES)
    lines = [
        f"# {d.comment()}",
        "[Unit]",
        f"Description={svc} service",
        "After=network-online.target",
        "",
        "[Service]",
        f"User={svc}",
    ]
    for e in d.entries:
        one_line(e)
        lines.append(f'Environment="{up(e.name)}={systemd_q(e.text())}"')
    lines += [f"Environment={up(k)}={fmt_scalar(v, 'env')}" for k, v in fills(R.randrange(1, 3))]
    lines += [
        f"ExecStart=/usr/local/bin/{svc} --config /etc/{svc}/config.yaml",
        "Restart=on-failure",
        "",
        "[Install]",
        "WantedBy=multi-user.target",
    ]
    return "\n".join(lines) + "\n"


def r_nginx(d: Doc) -> str:
    lines = [
        f"# {d.comment()}",
        "server {",
        "    listen 443 ssl;",
        f"    server_name {pick(SERVICES)}.{domain()};",
        "",
        "    location / {",
        f"        proxy_pass http://{pick(SERVICES)}_upstream;",
    ]
    for e in d.entries:
        one_line(e)
        if "$" in e.plain():
            raise Reject("nginx string")
        if bearerish(e) and e.secret and chance(0.7):
            name, _, value = hdr_line(e, e.text()).partition(": ")
            lines.append(f'        proxy_set_header {name} "{c_escape(value)}";')
        else:
            lines.append(f'        set ${e.name} "{c_escape(e.text())}";')
    lines += ["    }", "}"]
    return "\n".join(lines) + "\n"


def r_markdown_table(d: Doc) -> str:
    lines = [
        f"## {d.head('credentials')}",
        "",
        pick([d.fill(), d.comment()]),
        "",
        "| service | env | value | owner | notes |",
        "| --- | --- | --- | --- | --- |",
    ]
    for e in d.entries:
        one_line(e)
        text = e.text().replace("|", "\\|")
        cell = text if "`" in e.plain() else f"`{text}`"
        lines.append(
            f"| {e.product or e.label} | {pick(ENVS)} | {cell} | {person()} | {pick([d.date.isoformat(), '-', 'rotated'])} |"
        )
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------------------------
# code in many languages


def ml(s: str) -> bool:
    return "\n" in plain(s)


def indent_cont(s: str, pad: str) -> str:
    return s.replace("\n", "\n" + pad)


def first_token(d: Doc) -> Entry | None:
    for e in d.entries:
        if e.secret and bearerish(e) and not e.multiline:
            return e
    return None


def py_lit(s: str) -> str:
    p = plain(s)
    if "\n" in p and '"""' not in p and not p.endswith(('"', "\\")):
        return '"""' + s.replace("\\", "\\\\") + '"""'
    return py_repr(s) if chance(0.5) else dq(s)


def r_python(d: Doc) -> str:
    style = R.randrange(3)
    lines = [f"# {d.comment()}", "import os", "", "import requests", ""]
    ref = {}
    if style == 1:
        lines.append("CONFIG = {")
    for it in mixed(d, R.randrange(1, 3)):
        name = it.name if isinstance(it, Entry) else it[0]
        if isinstance(it, Entry):
            lit = py_lit(it.text())
        elif style == 2 or isinstance(it[1], str):
            lit = py_repr(str(it[1]))
        else:
            lit = repr(it[1])
        if style == 0:
            lines.append(f"{up(name)} = {lit}")
            ref[name] = up(name)
        elif style == 1:
            lines.append(f'    "{name}": {lit},')
            ref[name] = f'CONFIG["{name}"]'
        else:
            lines.append(f'os.environ.setdefault("{up(name)}", {lit})')
            ref[name] = f'os.environ["{up(name)}"]'
    if style == 1:
        lines.append("}")
    tok = first_token(d)
    if tok:
        hname, _, hval = hdr_line(tok, "{" + ref[tok.name].replace('"', "'") + "}").partition(": ")
        lines += [
            "",
            "",
            f"def fetch_{pick(['status', 'invoices', 'events'])}() -> dict:",
            f'    headers = {{"{hname}": f"{hval}"}}',
            f'    resp = requests.get("{api_url()}", headers=headers, timeout=10)',
            "    resp.raise_for_status()",
            "    return resp.json()",
        ]
    return "\n".join(lines) + "\n"


def js_lit(s: str) -> str:
    if ml(s):
        return "`" + s.replace("\\", "\\\\").replace("`", "\\`").replace("${", "\\${") + "`"
    q = pick(["'", '"'])
    return q + c_escape(s, q) + q


def r_js(d: Doc, ts: bool = False) -> str:
    lines = [f"// {d.comment()}"]
    style = R.randrange(2)
    if ts:
        lines += ["import axios from 'axios';", "", "interface AppConfig {"]
        lines += [f"  {camel(e.name)}: string;" for e in d.entries]
        lines += ["}", "", "export const config: AppConfig = {"]
        style = 1
    elif style == 1:
        lines += ["const axios = require('axios');", "", "module.exports.config = {"]
    else:
        lines += ["const axios = require('axios');", ""]
    for e in d.entries:
        if style == 1:
            lines.append(f"  {camel(e.name)}: {js_lit(e.text())},")
        else:
            lines.append(f"const {up(e.name)} = {js_lit(e.text())};")
    if style == 1:
        lines.append("};")
    tok = first_token(d)
    if tok:
        ref = f"config.{camel(tok.name)}" if style == 1 else up(tok.name)
        name, _, value = hdr_line(tok, "${" + ref + "}").partition(": ")
        lines += [
            "",
            f"{'export ' if ts else ''}async function {pick(['loadStatus', 'syncInvoices', 'pollEvents'])}() {{",
            f"  const res = await axios.get('{api_url()}', {{",
            f"    headers: {{ '{name}': `{value}` }},",
            "  });",
            "  return res.data;",
            "}",
        ]
    return "\n".join(lines) + "\n"


def r_typescript(d: Doc) -> str:
    return r_js(d, ts=True)


def r_javascript(d: Doc) -> str:
    return r_js(d)


def go_lit(s: str) -> str:
    if ml(s) and "`" not in plain(s):
        return "`" + s + "`"
    return dq(s)


def r_go(d: Doc) -> str:
    lines = [f"// {d.comment()}", "package config", "", 'import "os"', ""]
    if chance(0.5):
        lines.append("const (")
        lines += [f"\t{camel(e.name)} = {go_lit(e.text())}" for e in d.entries]
        lines.append(")")
    else:
        lines += ["type Settings struct {"] + [f"\t{pascal(e.name)} string" for e in d.entries] + ["}", ""]
        lines.append("var Default = Settings{")
        lines += [f"\t{pascal(e.name)}: {go_lit(e.text())}," for e in d.entries]
        lines.append("}")
    lines += [
        "",
        "func Env(key, fallback string) string {",
        "\tif v, ok := os.LookupEnv(key); ok {",
        "\t\treturn v",
        "\t}",
        "\treturn fallback",
        "}",
    ]
    return "\n".join(lines) + "\n"


def java_lit(s: str, pad: str) -> str:
    if ml(s):
        body = s.replace("\\", "\\\\").replace('"""', '\\"""')
        return '"""\n' + pad + indent_cont(body, pad) + '"""'
    return dq(s)


def r_java(d: Doc) -> str:
    cls = pick(["AppSecrets", "PaymentConfig", "Credentials", "IntegrationSettings"])
    lines = [f"// {d.comment()}", f"package com.{org().replace('-', '')}.config;", "", f"public final class {cls} {{"]
    for e in d.entries:
        lines.append(f"    public static final String {up(e.name)} = {java_lit(e.text(), '            ')};")
    lines += [
        f"    public static final int {up(k)} = {v};"
        for k, v in fills(3)
        if isinstance(v, int) and not isinstance(v, bool)
    ]
    lines += ["", f"    private {cls}() {{", "    }", "}"]
    return "\n".join(lines) + "\n"


def r_kotlin(d: Doc) -> str:
    lines = [f"// {d.comment()}", f"package com.{org().replace('-', '')}.app", "", "object Secrets {"]
    for e in d.entries:
        t = e.text()
        lit = '"""' + t.replace("$", "${'$'}") + '"""' if ml(t) else dq(t, {"$": "\\$"})
        lines.append(f"    {'const ' if not ml(t) else ''}val {up(e.name) if chance(0.5) else camel(e.name)} = {lit}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def rb_lit(s: str) -> str:
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def r_ruby(d: Doc) -> str:
    lines = [f"# {d.comment()}", "# frozen_string_literal: true", "", f"module {pascal(pick(SERVICES))}"]
    for e in d.entries:
        t = e.text()
        if ml(t):
            lines.append(f"  {up(e.name)} = <<~KEY\n    {indent_cont(t, '    ')}\n  KEY")
        elif chance(0.5):
            lines.append(f"  ENV['{up(e.name)}'] ||= {rb_lit(t)}")
        else:
            lines.append(f"  {up(e.name)} = {rb_lit(t)}")
    lines.append("end")
    return "\n".join(lines) + "\n"


def r_php(d: Doc) -> str:
    lines = ["<?php", f"// {d.comment()}", "", "return ["]
    for it in mixed(d, R.randrange(1, 3)):
        if isinstance(it, Entry):
            t = it.text()
            lit = f"<<<'KEY'\n{t}\nKEY" if ml(t) else rb_lit(t)
            lines.append(f"    '{it.name}' => {lit},")
        else:
            lines.append(f"    '{it[0]}' => {json.dumps(it[1]) if not isinstance(it[1], str) else rb_lit(it[1])},")
    lines.append("];")
    return "\n".join(lines) + "\n"


def r_rust(d: Doc) -> str:
    lines = [f"// {d.comment()}"]
    for e in d.entries:
        t = e.text()
        lit = f'r#"{t}"#' if ml(t) and '"#' not in plain(t) else dq(t)
        lines.append(f"pub const {up(e.name)}: &str = {lit};")
    lines += [
        "",
        "pub fn user_agent() -> String {",
        f'    format!("{pick(SERVICES)}/{{}}", env!("CARGO_PKG_VERSION"))',
        "}",
    ]
    return "\n".join(lines) + "\n"


def r_csharp(d: Doc) -> str:
    lines = [
        f"// {d.comment()}",
        f"namespace {pascal(org().replace('-', '_'))}.Config;",
        "",
        "public static class Secrets",
        "{",
    ]
    for e in d.entries:
        t = e.text()
        lit = '@"' + t.replace('"', '""') + '"' if ml(t) or chance(0.2) else dq(t)
        lines.append(f"    public const string {pascal(e.name)} = {lit};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def r_swift(d: Doc) -> str:
    lines = [f"// {d.comment()}", "import Foundation", "", "enum Secrets {"]
    for e in d.entries:
        t = e.text()
        if ml(t):
            pad = "        "
            lit = '"""\n' + pad + indent_cont(t.replace("\\", "\\\\"), pad) + "\n" + pad + '"""'
        else:
            lit = dq(t)
        lines.append(f"    static let {camel(e.name)} = {lit}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def r_dart(d: Doc) -> str:
    lines = [f"// {d.comment()}", "class Env {"]
    for e in d.entries:
        t = e.text()
        if ml(t):
            lit = "'''" + t.replace("\\", "\\\\").replace("$", "\\$") + "'''"
        else:
            lit = "'" + c_escape(t, "'", {"$": "\\$"}) + "'"
        lines.append(f"  static const {camel(e.name)} = {lit};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def r_bash(d: Doc) -> str:
    lines = ["#!/usr/bin/env bash", f"# {d.comment()}", "set -euo pipefail", ""]
    for e in d.entries:
        t = e.text()
        if ml(t):
            lines.append(f"cat > /tmp/{e.name}.pem <<'EOF'\n{t}\nEOF")
        else:
            lines.append(f"export {up(e.name)}={sh(t)}")
    tok = first_token(d)
    if tok:
        lines += ["", f'curl -fsS -H "{hdr_line(tok, "${" + up(tok.name) + "}")}" {api_url()}']
    return "\n".join(lines) + "\n"


def ps_lit(s: str) -> str:
    if ml(s) and "'@" not in plain(s):
        return "@'\n" + s + "\n'@"
    return "'" + s.replace("'", "''") + "'"


def r_powershell(d: Doc) -> str:
    lines = [f"# {d.comment()}"]
    for e in d.entries:
        lines.append(f"{pick(['$env:', '$'])}{pascal(e.name)} = {ps_lit(e.text())}")
    tok = first_token(d)
    if tok:
        name, _, value = hdr_line(tok, "$" + pascal(tok.name)).partition(": ")
        lines += [
            "",
            f'$Headers = @{{ "{name}" = "{value}" }}',
            f"Invoke-RestMethod -Uri '{api_url()}' -Headers $Headers",
        ]
    return "\n".join(lines) + "\n"


def sql_lit(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def r_sql(d: Doc) -> str:
    lines = [f"-- {d.comment()}"]
    for e in d.entries:
        lit = sql_lit(e.text())
        if e.cat == "password" and chance(0.6):
            lines.append(
                pick(
                    [
                        f"CREATE USER {username()} WITH PASSWORD {lit};",
                        f"ALTER ROLE {username()} PASSWORD {lit};",
                        f"ALTER USER '{username()}'@'%' IDENTIFIED BY {lit};",
                    ]
                )
            )
        else:
            table = pick(["integrations", "api_credentials", "settings", "tenant_config"])
            lines.append(f"INSERT INTO {table} (name, value, updated_at)\nVALUES ('{e.name}', {lit}, now());")
    return "\n".join(lines) + "\n"


def r_notebook(d: Doc) -> str:
    md = [f"## {d.head('notes')}\n", "\n", d.fill() + "\n", d.comment()]
    code = ["import os\n"]
    for e in d.entries:
        one_line(e)
        code.append(f"os.environ[{py_repr(up(e.name))}] = {py_lit(e.text())}\n")
    code[-1] = code[-1].rstrip("\n")
    nb = {
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": md},
            {"cell_type": "code", "execution_count": R.randrange(1, 40), "metadata": {}, "outputs": [], "source": code},
        ],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------------------------------------------------------
# prose, narrative documents and tool output


def label_of(e: Entry, lang: str) -> str:
    return noun_label(e, lang) if e.secret else e.label


def say(d: Doc, e: Entry) -> str:
    lang = d.lang
    if e.secret:
        tpl = pick(MULTILINE_PHRASES[lang] if e.multiline else SECRET_PHRASES[lang])
    elif e.multiline:
        tpl = "{Label} :\n{v}" if lang == "fr" else "{Label}:\n{v}"
    else:
        tpl = pick(LOOK_PHRASES[lang])
    if d.used is not None and e.secret:
        d.used.append((lang, tpl))
    label = label_of(e, lang)
    return tpl.format(label=label, Label=cap(label), v=e.text(wrap=d.wrap), who=person(), name=up(e.name))


def say_group(d: Doc, g: list[Entry]) -> list[str]:
    """The first entry in a phrasing; companions (key ids, secrets, look-alike ids) as `label: value` lines."""
    out = [say(d, g[0])]
    sep = " : " if d.lang == "fr" else ": "
    for e in g[1:]:
        out.append(cap(label_of(e, d.lang)) + sep + e.text(wrap=d.wrap))
    return out


def bullets(d: Doc, g: list[Entry], mark: str = "- ") -> str:
    lines = say_group(d, g)
    return mark + lines[0] + "".join("\n" + " " * len(mark) + ln for ln in lines[1:])


def interleave(d: Doc, blocks: list[str], fill_rate: float, mark: str = "- ") -> list[str]:
    out = []
    for b in blocks:
        while chance(fill_rate):
            out.append(mark + d.fill())
        out.append(b)
    if chance(0.5):
        out.append(mark + d.fill())
    return out


def r_journal(d: Doc) -> str:
    blocks = [bullets(d, g) for g in d.groups]
    head = pick([f"# {d.date.isoformat()}", f"## {d.date.strftime('%Y-%m-%d (%a)')}", f"{d.date.isoformat()}:"])
    return head + "\n\n" + "\n".join(interleave(d, blocks, 0.45)) + "\n"


def r_chat(d: Doc) -> str:
    people = [f"{a} {b}" for a, b in zip(R.sample(FIRST, 3), R.sample(SURNAMES, 3), strict=True)]
    lines = []
    h, m = R.randrange(8, 18), R.randrange(60)
    style = R.randrange(2)

    def line(who: str, text: str) -> None:
        nonlocal m
        m += R.randrange(1, 6)
        stamp = f"{h + m // 60:02d}:{m % 60:02d}"
        lines.append(
            f"[{stamp}] {who.split(maxsplit=1)[0].lower()}: {text}" if style == 0 else f"{who}  {stamp}\n{text}\n"
        )

    for g in d.groups:
        if chance(0.6):
            line(pick(people), pick(CHAT[d.lang]) if chance(0.5) else d.fill())
        line(pick(people), "\n".join(say_group(d, g)))
        if chance(0.5):
            line(pick(people), pick(CHAT[d.lang]))
    return "\n".join(lines).rstrip() + "\n"


def r_meeting(d: Doc) -> str:
    people = R.sample(FIRST, R.randrange(3, 6))
    half = R.randrange(len(d.groups) + 1)
    notes = interleave(d, [bullets(d, g) for g in d.groups[:half]], 0.5)
    actions = [f"- [ ] {pick(people)}: {d.fill()}"] + [bullets(d, g, "- [ ] ") for g in d.groups[half:]]
    return (
        f"# {d.head('meeting')}: {pick(SERVICES)} ({d.date.isoformat()})\n{d.head('attendees')}: {', '.join(people)}\n\n"
        f"## {d.head('notes')}\n" + "\n".join(notes) + f"\n\n## {d.head('actions')}\n" + "\n".join(actions) + "\n"
    )


def r_checklist(d: Doc) -> str:
    items = []
    for g in d.groups:
        if chance(0.5):
            items.append(f"- [x] {d.fill()}")
        items.append(bullets(d, g, pick(["- [ ] ", "- [x] "])))
    return f"## {d.head('todo')}: {pick(SERVICES)} {pick(ENVS)} ({d.date.isoformat()})\n\n" + "\n".join(items) + "\n"


def r_user_notes(d: Doc) -> str:
    facts = [f"- {f}" for f in R.sample(USER_FACTS[d.lang], R.randrange(2, 4))]
    blocks = [bullets(d, g) for g in d.groups]
    body = facts + blocks
    R.shuffle(body)
    return f"# {d.head('about')}\n\n" + "\n".join(body) + "\n"


def r_assistant_memory(d: Doc) -> str:
    out = []
    for g in d.groups:
        if chance(0.5):
            out.append(f"- [{rdate().isoformat()}] {pick(USER_FACTS[d.lang])}")
        out.append(bullets(d, g, f"- [{rdate().isoformat()}] "))
    return f"## {d.head('memory')}\n\n" + "\n".join(out) + "\n"


def snippet(d: Doc, groups: list[list[Entry]]) -> str:
    fn, lang_tag = pick(
        [(r_env, "bash"), (r_yaml, "yaml"), (r_json, "json"), (r_bash, "bash"), (r_python, "python"), (r_toml, "toml")]
    )
    return f"```{lang_tag}\n{fn(d.sub(groups)).rstrip()}\n```"


def split_groups(d: Doc) -> tuple[list[list[Entry]], list[list[Entry]]]:
    groups = list(d.groups)
    k = R.randrange(len(groups) + 1)
    return groups[:k], groups[k:]


def r_debug_diary(d: Doc) -> str:
    code_groups, prose_groups = split_groups(d)
    parts = [
        f"# {d.head('notes')}: {pick(SERVICES)} {pick(['401s', 'timeouts', 'broken deploy', 'flaky job'])}",
        d.fill(),
    ]
    for g in prose_groups:
        parts.append(" ".join([d.fill()] if chance(0.5) else []) + ("\n" if chance(0.3) else " ").join(say_group(d, g)))
    if code_groups:
        parts.insert(R.randrange(1, len(parts) + 1), snippet(d, code_groups))
    parts.append(d.fill())
    return "\n\n".join(p.strip() for p in parts) + "\n"


def r_postmortem(d: Doc) -> str:
    t = R.randrange(8, 20) * 60
    tl = []
    for g in d.groups:
        t += R.randrange(3, 40)
        tl.append(bullets(d, g, f"- {t // 60:02d}:{t % 60:02d} UTC: "))
    return (
        f"# {d.head('summary')}: {pick(SERVICES)} {pick(['outage', 'credential leak', 'degraded API', 'failed rotation'])}\n\n"
        f"## {d.head('summary')}\n{d.fill()} {d.fill()}\n\n## {d.head('impact')}\n{d.fill()}\n\n"
        f"## {d.head('timeline')}\n" + "\n".join(tl) + f"\n\n## {d.head('root_cause')}\n{d.fill()}\n\n"
        f"## {d.head('followups')}\n- [ ] {d.fill()}\n"
    )


def command(e: Entry) -> str | None:
    """A shell command that carries the entry, or None when the entry is better shown as file output."""
    if e.multiline or e.cat == "pem":
        return None
    t = e.text()
    cat, k = e.cat, e.kind
    if cat == "webhook":
        return f"curl -X POST -H 'Content-Type: application/json' -d '{{\"text\": \"deploy finished\"}}' {t}"
    if cat == "dsn":
        tool = {
            "postgres_password": "psql",
            "mongodb_password": "mongosh",
            "redis_password": "redis-cli -u",
            "mysql_password": "mycli",
            "amqp_password": "rabbitmqadmin --uri",
            "clickhouse_password": "clickhouse-client --uri",
            "snowflake_password": "snowsql --connection-url",
        }.get(k)
        return f"{tool} {sh(t)}" if tool else f"export {up(e.name)}={sh(t)}"
    if cat == "password":
        u, h = username(), host()
        return pick(
            {
                "mysql_password": [f"mysql -h {h} -u {u} -p{sh(t)}"],
                "postgres_password": [f"PGPASSWORD={sh(t)} psql -h {h} -U {u}"],
                "redis_password": [f"redis-cli -h {h} -a {sh(t)} ping"],
                "ldap_bind_password": [
                    f"ldapsearch -x -H ldaps://ldap.{domain()} -D 'cn=admin,dc=corp,dc=local' -w {sh(t)} '(uid={u})'"
                ],
                "mssql_password": [f"sqlcmd -S {h} -U sa -P {sh(t)} -Q 'SELECT 1'"],
                "wifi_password": [f"nmcli dev wifi connect '{pick(ORGS)}-guest' password {sh(t)}"],
                "keystore_password": [f"keytool -list -keystore release.jks -storepass {sh(t)}"],
            }.get(
                k,
                [
                    f"sshpass -p {sh(t)} ssh {u}@{h}",
                    f"htpasswd -b /etc/nginx/.htpasswd {u} {sh(t)}",
                    f"docker login -u {u} -p {sh(t)} registry.{domain()}",
                    f"mysql -u {u} --password={sh(t)}",
                    f"{pick(SERVICES)}-cli login --user {u} --password {sh(t)}",
                ],
            )
        )
    if cat in ("header", "cookie"):
        flag = "-b" if cat == "cookie" else "-H"
        val = t if cat == "cookie" else hdr_line(e, t)
        return f"curl -s {flag} {sh(val)} {api_url()}"
    if cat == "json":
        return f"echo {sh(t)} > ~/.docker/config.json"
    special = {
        "npm_token": f"npm config set //registry.npmjs.org/:_authToken {sh(t)}",
        "github_pat_classic": f"echo {sh(t)} | gh auth login --with-token",
        "dockerhub_pat": f"echo {sh(t)} | docker login -u {username()} --password-stdin",
        "vault_token": f"VAULT_TOKEN={sh(t)} vault kv get secret/{pick(SERVICES)}",
        "heroku_api_key": f"HEROKU_API_KEY={sh(t)} heroku apps",
        "aws_secret_access_key": f"aws configure set aws_secret_access_key {sh(t)}",
        "aws_access_key_id": f"aws configure set aws_access_key_id {sh(t)}",
        "ngrok_authtoken": f"ngrok config add-authtoken {sh(t)}",
        "tailscale_key": f"sudo tailscale up --authkey={sh(t)}",
        "kubeadm_bootstrap_token": f"kubeadm join 10.0.0.10:6443 --token {sh(t)} --discovery-token-unsafe-skip-ca-verification",
        "k3s_cluster_token": f"curl -sfL https://get.k3s.io | K3S_URL=https://10.0.0.10:6443 K3S_TOKEN={sh(t)} sh -",
        "docker_swarm_join_token": f"docker swarm join --token {sh(t)} 10.0.0.10:2377",
        "pypi_token": f"twine upload -u __token__ -p {sh(t)} dist/*",
    }
    if k in special and chance(0.7):
        return special[k]
    if bearerish(e) and chance(0.4):
        return f"curl -s -H {sh(hdr_line(e, t))} {api_url()}"
    return pick(
        [
            f"export {up(e.name)}={sh(t)}",
            f"kubectl create secret generic {pick(SERVICES)}-secrets --from-literal={kebab(e.name)}={sh(t)}",
            f"gh secret set {up(e.name)} --body {sh(t)}",
            f"docker run --rm -e {up(e.name)}={sh(t)} ghcr.io/{org()}/{pick(SERVICES)}:latest",
            f"{pick(SERVICES)}-cli --{kebab(e.name)} {sh(t)} sync",
            f"fly secrets set {up(e.name)}={sh(t)}",
        ]
    )


def look_cmd(e: Entry) -> tuple[str, str]:
    t = e.text()
    k = e.kind
    table = {
        "git_sha": ("git rev-parse HEAD", t),
        "uuid": ("uuidgen | tr A-Z a-z", t),
        "sha256_checksum": (
            f"sha256sum {pick(SERVICES)}-linux-amd64.tar.gz",
            f"{t}  {pick(SERVICES)}-linux-amd64.tar.gz",
        ),
        "k8s_resource_name": (
            "kubectl get pods -n prod",
            f"NAME                              READY   STATUS    RESTARTS   AGE\n{t}   1/1     Running   0          3d",
        ),
        "container_digest": (f"docker pull {t}", "Status: Image is up to date"),
        "docker_image_ref": (f"docker pull {t}", "Status: Downloaded newer image"),
        "semver": (f"{pick(SERVICES)} --version", t),
        "ip_address": ("ip -brief addr show eth0", f"eth0             UP             {t}"),
        "url": (f"curl -sI {sh(t)}", "HTTP/2 200"),
        "ssh_public_key": ("cat ~/.ssh/id_ed25519.pub", t),
        "key_fingerprint": ("ssh-keygen -lf ~/.ssh/id_ed25519.pub", f"256 {t} (ED25519)"),
    }
    if k in table:
        return table[k]
    return pick(
        [
            (f"grep -rn {up(e.name)} .env.example", f".env.example:{R.randrange(2, 40)}:{up(e.name)}={t}"),
            (f"jq -r .{e.name} config.json", t),
            (f"echo ${up(e.name)}", t),
        ]
    )


def pem_cmd(e: Entry) -> tuple[str, str]:
    return (
        f"cat {pick(['~/.ssh/id_ed25519', '~/keys/' + e.name + '.pem', './secrets/' + e.name, '/etc/ssl/private/app.key'])}",
        e.text(),
    )


def cmds(d: Doc, skip: list[Entry] | None = None) -> list[tuple[str, str]]:
    out = []
    for g in d.groups:
        for e in g:
            if skip and any(e is x for x in skip):
                continue
            if not e.secret:
                out.append(look_cmd(e))
                continue
            c = command(e)
            out.append(
                pem_cmd(e) if c is None else (c, pick(["", "", "HTTP/2 200", '{"ok":true}', "Login Succeeded", "done"]))
            )
    return out


def r_terminal(d: Doc) -> str:
    user, hostn = person().lower(), pick(["mbp", "dev-box", "bastion", "build-01"])
    prompt = pick([f"{user}@{hostn}:~/src/{pick(SERVICES)}$ ", "$ ", f"[{user}@{hostn} ~]$ ", "% "])
    lines = [f"# {d.comment()}"] if chance(0.5) else []
    for c, out in cmds(d):
        if chance(0.3):
            lines.append(prompt + pick(["git status -sb", "ls", "kubectl config current-context", "make test"]))
        lines.append(prompt + c)
        if out:
            lines.append(out)
    return "\n".join(lines) + "\n"


def r_shell_history(d: Doc) -> str:
    n = R.randrange(100, 2000)
    lines = []
    for c, out in cmds(d):
        lines.append(f"{n:5d}  {c}")
        if plain(out) != out:
            lines.append(out)
        n += R.randrange(1, 6)
        if chance(0.4):
            lines.append(
                f"{n:5d}  {pick(['git pull', 'ls -la', 'cd ..', 'docker ps', 'kubectl get pods', 'vim .env'])}"
            )
            n += 1
    return "\n".join(lines) + "\n"


def r_ci_log(d: Doc) -> str:
    base = dt.datetime(d.date.year, d.date.month, d.date.day, R.randrange(0, 23), R.randrange(60), tzinfo=dt.UTC)
    multiline = any(e.multiline for e in d.entries)
    lines = []
    tick = [0]

    def emit(text: str) -> None:
        tick[0] += R.randrange(1, 900)
        if multiline:
            lines.append(text)
        else:
            ts = (base + dt.timedelta(milliseconds=tick[0])).strftime("%Y-%m-%dT%H:%M:%S.%f") + "0Z"
            lines.append(f"{ts} {text}")

    emit(f"##[group]Run ./scripts/{pick(['deploy', 'release', 'smoke-test'])}.sh")
    emit("shell: /usr/bin/bash -e {0}")
    emit("env:")
    in_env = [e for e in d.entries if not e.secret and not e.multiline and chance(0.5)]
    for e in in_env:
        emit(f"  {up(e.name)}: {e.text()}")
    emit("##[endgroup]")
    for c, out in cmds(d, in_env):
        if c.startswith(("echo", "cat")) and out:
            emit(f"+ {c}")
            emit(out)
        else:
            emit(f"+ {c}")
            if out:
                emit(out)
    emit(pick(["Deployment finished", "Error: Process completed with exit code 1.", "ok"]))
    return "\n".join(lines) + "\n"


def r_stack_trace(d: Doc) -> str:
    style = R.randrange(3)
    svc = pick(SERVICES)
    if style == 0:
        lines = [
            "Traceback (most recent call last):",
            f'  File "/app/{svc}/client.py", line {R.randrange(20, 300)}, in sync',
            "    resp = session.post(url, headers=headers, json=payload, timeout=5)",
            '  File "/usr/local/lib/python3.12/site-packages/requests/sessions.py", line 637, in post',
            '    return self.request("POST", url, data=data, json=json, **kwargs)',
            f"requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: {api_url()}",
            "",
            "Local variables in sync():",
        ]
        for e in d.entries:
            lines.append(f"    {e.name} = {py_repr(e.text())}")
        return "\n".join(lines) + "\n"
    if style == 1:
        lines = [
            "Error: Request failed with status code 403",
            "    at createError (/srv/app/node_modules/axios/lib/core/createError.js:16:15)",
            "    at settle (/srv/app/node_modules/axios/lib/core/settle.js:17:12)",
            "  config: {",
            f"    url: '{api_url()}',",
            "    method: 'post',",
            "    headers: {",
        ]
        for e in d.entries:
            lines.append(f"      '{kebab(e.name)}': '{c_escape(e.text(), chr(39))}',")
        lines += ["    },", "  },", "  code: 'ERR_BAD_REQUEST'"]
        return "\n".join(lines) + "\n"
    lines = [
        f"com.zaxxer.hikari.pool.HikariPool$PoolInitializationException: Failed to initialize pool: {pick(['FATAL: password authentication failed', 'Access denied for user'])}",
        "\tat com.zaxxer.hikari.pool.HikariPool.throwPoolInitializationException(HikariPool.java:596)",
        "\tat com.zaxxer.hikari.pool.HikariPool.checkFailFast(HikariPool.java:582)",
        f"\tat com.{org().replace('-', '')}.{svc}.Application.main(Application.java:{R.randrange(10, 90)})",
        "HikariPool-1 - configuration:",
    ]
    for e in d.entries:
        lines.append(f"{camel(e.name)}........................{c_escape(e.text(), chr(0))}")
    return "\n".join(lines) + "\n"


def r_app_log(d: Doc) -> str:
    lines = []
    style = R.randrange(2)
    for e in d.entries:
        ts = dt.datetime.fromtimestamp(epoch(), dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        if style == 0:
            rec = {
                "ts": ts,
                "level": pick(["debug", "info", "warn"]),
                "msg": pick(["outgoing request", "config loaded", "retrying call"]),
                e.name: e.text(),
            }
            lines.append(json.dumps(rec, ensure_ascii=False))
        else:
            v = e.text()
            v = dq(v) if re.search(r'[\s"=\\]', plain(v)) else v
            lines.append(
                f'ts={ts} level={pick(["debug", "info"])} msg="{pick(["config loaded", "calling upstream"])}" {e.name}={v}'
            )
        if chance(0.4):
            lines.append(
                json.dumps({"ts": ts, "level": "info", "msg": d.fill()}, ensure_ascii=False)
                if style == 0
                else f"ts={ts} level=info msg={dq(d.fill())}"
            )
    return "\n".join(lines) + "\n"


def r_runbook(d: Doc) -> str:
    lines = [
        f"# Runbook: {pick(SERVICES)} {pick(['key rotation', 'failover', 'restore from backup', 'new environment'])}",
        "",
        f"## {d.head('steps')}",
        "",
    ]
    n = 1
    pad = "       "
    for g in d.groups:
        if chance(0.4):
            lines.append(f"{n}. {d.fill()}")
            n += 1
        e = g[0]
        c = command(e) if len(g) == 1 else None
        if c and e.secret and chance(0.6):
            lines += [f"{n}. {pick(['Run', 'Export', 'Then'])}:", "", pad + indent_cont(c, pad), ""]
        elif e.multiline and chance(0.6):
            lines += [f"{n}. {cap(label_of(e, d.lang))}:", "", pad + indent_cont(e.text(), pad), ""]
            lines += [f"   {cap(label_of(x, d.lang))}: {x.text()}" for x in g[1:]]
        else:
            said = say_group(d, g)
            lines.append(f"{n}. " + "\n   ".join(indent_cont(s, "   ") for s in said))
        n += 1
    return "\n".join(lines).rstrip() + "\n"


def r_wiki(d: Doc) -> str:
    code_groups, rest = split_groups(d)
    table_groups = [g for g in rest if len(g) == 1 and not g[0].multiline and "|" not in g[0].plain() and chance(0.5)]
    prose_groups = [g for g in rest if not any(g is t for t in table_groups)]
    parts = [f"# {pick(SERVICES).title()} {pick(['service', 'integration', 'platform'])}", d.fill()]
    if code_groups:
        parts += [f"## {d.head('config')}", snippet(d, code_groups)]
    if table_groups:
        rows = ["| name | value | notes |", "| --- | --- | --- |"]
        rows += [
            f"| {g[0].name} | `{g[0].text()}` | {pick(['', d.date.isoformat(), person()])} |" for g in table_groups
        ]
        parts += [f"## {d.head('credentials')}", "\n".join(rows)]
    for g in prose_groups:
        parts.append("\n".join(say_group(d, g)))
    parts.append(d.fill())
    return "\n\n".join(parts) + "\n"


def r_ticket(d: Doc) -> str:
    key = f"{pick(['OPS', 'SEC', 'PAY', 'INFRA', 'SUP'])}-{R.randrange(100, 9999)}"
    parts = [
        f"{key}: {d.fill()}",
        f"{d.head('status')}: {pick(['In progress', 'Open', 'Blocked', 'Done'])}   Reporter: {person()}",
        "",
        f"## {d.head('description')}",
        d.fill(),
    ]
    half = R.randrange(len(d.groups) + 1)
    parts += ["\n".join(say_group(d, g)) for g in d.groups[:half]]
    parts += ["", f"## {d.head('comments')}"]
    for g in d.groups[half:]:
        parts.append(f"**{person()}** ({rdate().isoformat()}): " + "\n".join(say_group(d, g)))
    return "\n".join(parts) + "\n"


def r_scratch(d: Doc) -> str:
    d.wrap = pick([40, 48, 56, 64, 76])
    parts = [pick(["scratch", "tmp", "notes", "misc", "wip"]) + f" {d.date.isoformat()}"]
    for g in d.groups:
        if chance(0.35):
            parts.append(d.fill())
        if chance(0.5):
            parts.append(cap(label_of(g[0], d.lang)) + "\n" + g[0].text(wrap=d.wrap))
            parts += [cap(label_of(e, d.lang)) + ": " + e.text(wrap=d.wrap) for e in g[1:]]
        else:
            parts += say_group(d, g)
        if chance(0.3):
            parts.append(pick(["---", "", "..."]))
    return "\n".join(parts) + "\n"


def r_email(d: Doc) -> str:
    a, b = R.sample(FIRST, 2)
    dom_a, dom_b = domain(), domain()
    k = R.randrange(len(d.groups) + 1)
    hi, bye = GREET[d.lang]
    body = [hi.format(who=b), "", d.fill()]
    body += ["\n".join(say_group(d, g)) for g in d.groups[:k]]
    body += ["", bye, a]
    quoted_lines = [hi.format(who=a), "", d.fill(), *["\n".join(say_group(d, g)) for g in d.groups[k:]], "", b]
    quoted = "\n".join(quoted_lines)
    sent = rdate()
    when = f"{sent.isoformat()} {rtime()}"
    before = f"{(sent - dt.timedelta(days=R.randrange(0, 4))).isoformat()} {rtime()}"
    head = [
        f"From: {a} <{a.lower()}@{dom_a}>",
        f"To: {b} <{b.lower()}@{dom_b}>",
        f"Date: {when}",
        f"Subject: {pick(SUBJECTS[d.lang])}",
        "",
    ]
    text = "\n".join(head + body)
    if k < len(d.groups) or chance(0.3):
        text += (
            "\n\n"
            + WROTE[d.lang].format(date=before, who=b)
            + "\n"
            + "\n".join("> " + ln if ln else ">" for ln in quoted.split("\n"))
        )
    return text + "\n"


def r_code_review(d: Doc) -> str:
    code_groups, prose_groups = split_groups(d)
    if not code_groups:
        code_groups, prose_groups = prose_groups[:1], prose_groups[1:]
    fn, path = pick(
        [
            (r_python, "app/settings.py"),
            (r_env, ".env.production"),
            (r_yaml, "config/values.yaml"),
            (r_js, "src/config.js"),
            (r_toml, "config/app.toml"),
            (r_go, "internal/config/config.go"),
        ]
    )
    added = fn(d.sub(code_groups)).rstrip("\n").split("\n")
    n_old = R.randrange(5, 120)
    hunk = [
        f"diff --git a/{path} b/{path}",
        f"index {rs(HEX, 7)}..{rs(HEX, 7)} 100644",
        f"--- a/{path}",
        f"+++ b/{path}",
        f"@@ -{n_old},3 +{n_old},{len(added) + 3} @@",
    ]
    hunk += [" "] + ["+" + ln for ln in added] + [" ", " "]
    who = person()
    parts = [f"PR #{R.randrange(10, 4000)}: {d.fill()}", f"{who}:", "```diff", "\n".join(hunk), "```"]
    for g in prose_groups:
        parts.append(f"{person()}: " + "\n".join(say_group(d, g)))
    parts.append(f"{who}: {pick(CHAT[d.lang])}")
    return "\n".join(parts) + "\n"


def r_handover(d: Doc) -> str:
    half = R.randrange(len(d.groups) + 1)
    opened = [f"- {d.fill()}"] + [bullets(d, g) for g in d.groups[:half]]
    access = [bullets(d, g) for g in d.groups[half:]] or [f"- {d.fill()}"]
    return (
        f"# {d.head('handover')} {d.date.isoformat()}\n\n## {d.head('open')}\n"
        + "\n".join(opened)
        + f"\n\n## {d.head('access')}\n"
        + "\n".join(access)
        + "\n"
    )


# ---------------------------------------------------------------------------------------------------------------
# contexts, framing and assembly


@dataclass
class Context:
    name: str
    family: str
    render: Callable[[Doc], str]
    single_line: bool = False


CONTEXTS = [
    Context("journal", "narrative", r_journal),
    Context("chat", "narrative", r_chat),
    Context("meeting_notes", "narrative", r_meeting),
    Context("checklist", "narrative", r_checklist),
    Context("user_notes", "narrative", r_user_notes),
    Context("assistant_memory", "narrative", r_assistant_memory),
    Context("debug_diary", "narrative", r_debug_diary),
    Context("postmortem", "narrative", r_postmortem),
    Context("runbook", "narrative", r_runbook),
    Context("wiki", "narrative", r_wiki),
    Context("ticket", "narrative", r_ticket),
    Context("scratch", "narrative", r_scratch),
    Context("email", "narrative", r_email),
    Context("code_review", "narrative", r_code_review),
    Context("handover", "narrative", r_handover),
    Context("terminal", "tool output", r_terminal),
    Context("shell_history", "tool output", r_shell_history),
    Context("ci_log", "tool output", r_ci_log),
    Context("stack_trace", "tool output", r_stack_trace),
    Context("app_log", "tool output", r_app_log),
    Context("env", "structured", r_env),
    Context("json", "structured", r_json),
    Context("yaml", "structured", r_yaml),
    Context("toml", "structured", r_toml),
    Context("ini", "structured", r_ini),
    Context("properties", "structured", r_properties),
    Context("xml", "structured", r_xml),
    Context("hcl", "structured", r_hcl),
    Context("dockerfile", "structured", r_dockerfile, single_line=True),
    Context("docker_compose", "structured", r_compose),
    Context("kubernetes", "structured", r_k8s),
    Context("github_actions", "structured", r_github_actions),
    Context("gitlab_ci", "structured", r_gitlab_ci),
    Context("csv", "structured", r_csv),
    Context("dotfile", "structured", r_dotfile),
    Context("systemd", "structured", r_systemd, single_line=True),
    Context("nginx", "structured", r_nginx, single_line=True),
    Context("markdown_table", "structured", r_markdown_table, single_line=True),
    Context("python", "code", r_python),
    Context("javascript", "code", r_javascript),
    Context("typescript", "code", r_typescript),
    Context("go", "code", r_go),
    Context("java", "code", r_java),
    Context("kotlin", "code", r_kotlin),
    Context("ruby", "code", r_ruby),
    Context("php", "code", r_php),
    Context("rust", "code", r_rust),
    Context("csharp", "code", r_csharp),
    Context("swift", "code", r_swift),
    Context("dart", "code", r_dart),
    Context("bash", "code", r_bash),
    Context("powershell", "code", r_powershell),
    Context("sql", "code", r_sql),
    Context("notebook", "code", r_notebook, single_line=True),
]
CTX = {c.name: c for c in CONTEXTS}
MULTILINE_KINDS = {
    "rsa_private_key",
    "ec_private_key",
    "openssh_private_key",
    "pgp_private_key",
    "putty_private_key",
    "public_key_pem",
    "certificate",
    "encrypted_value",
}
N_DOCS = 1200
SECRET_COPIES = 16
LOOK_COPIES = 32


def frame(d: Doc, body: str) -> tuple[str, str]:
    """Narrative documents are sometimes stored as a JSON or YAML memory record, or carry front matter."""
    if CTX[d.ctx].family != "narrative":
        return body, "none"
    roll = R.random()
    tags = R.sample(["ops", "secrets", "billing", "infra", "personal", "todo", "vendor", "oncall", "ci"], 2)
    stamp = f"{d.date.isoformat()}T{rtime()}:00Z"
    if roll < 0.12:
        rec = {"id": "mem_" + pick("01") + rs(CROCKFORD, 25), "created_at": stamp, "tags": tags, "content": body}
        return json.dumps(rec, indent=2, ensure_ascii=False) + "\n", "json"
    if roll < 0.22:
        inner = "\n".join("  " + ln if plain(ln) else ln for ln in body.rstrip("\n").split("\n"))
        return f"id: mem-{rs(LALNUM, 10)}\ncreated: {stamp}\ntags: [{', '.join(tags)}]\ncontent: |\n{inner}\n", "yaml"
    if roll < 0.38:
        first = body.split("\n", 1)[0]
        title = plain(first).lstrip("# ").replace('"', "'")[:60] if plain(first) == first else f"{d.ctx} {d.date}"
        return f'---\ntitle: "{title}"\ndate: {d.date.isoformat()}\ntags: [{", ".join(tags)}]\n---\n\n{body}', "front"
    return body, "none"


def assign_names(groups: list[list[Entry]]) -> None:
    used: list[str] = []
    for g in groups:
        for e in g:
            options = [n for n in e.names if n not in used]
            name = pick(options) if options else f"{e.names[0]}_{len(used) + 1}"
            e.name = name
            used.append(name)


def strip_marks(text: str, vals: list[Val]) -> tuple[str, list[tuple[Val, int, int]]]:
    out: list[str] = []
    spans = []
    open_idx = -1
    start = 0
    for ch in text:
        o = ord(ch)
        if OPEN0 <= o < OPEN0 + MAX_VALS:
            if open_idx >= 0:
                raise CorpusError("nested marker")
            open_idx, start = o - OPEN0, len(out)
        elif ch == CLOSE:
            if open_idx < 0:
                raise CorpusError("stray closing marker")
            if open_idx >= len(vals):
                raise CorpusError("marker index out of range")
            spans.append((vals[open_idx], start, len(out)))
            open_idx = -1
        else:
            out.append(ch)
    if open_idx >= 0:
        raise CorpusError("unclosed marker")
    seen = Counter(id(v) for v, _, _ in spans)
    if sorted(seen.values()) != [1] * len(vals) or len(seen) != len(vals):
        raise Reject("a renderer dropped or duplicated a value")
    return "".join(out), sorted(spans, key=lambda s: s[1])


def alnum_subsequence(small: str, big: str) -> bool:
    it = iter(c for c in big if c.isalnum())
    return all(any(c == b for b in it) for c in small if c.isalnum())


def check_doc(text: str, spans: list[tuple[Val, int, int]]) -> None:
    last_end = -1
    for v, s, e in spans:
        if s < last_end:
            raise CorpusError("overlapping spans")
        if e <= s:
            raise CorpusError("empty span")
        last_end = e
        if not alnum_subsequence(v.value, text[s:e]):
            raise CorpusError(f"span of {v.kind} lost characters of its value")
    secret_spans = [(s, e) for v, s, e in spans if v.secret]
    for v, s, e in spans:
        if not v.secret:
            continue
        for needle in [text[s:e]] + ([v.value] if v.value != text[s:e] else []):
            if len(needle) < 6:
                continue
            pos = text.find(needle)
            while pos >= 0:
                if not any(a <= pos and pos + len(needle) <= b for a, b in secret_spans):
                    raise Reject(f"{v.kind} occurs unlabelled")
                pos = text.find(needle, pos + 1)


@dataclass
class Plan:
    ctx: str
    lang: str
    units: list[str]
    weight: float = 1.0


FAMILY_WEIGHT = {"narrative": 1.6, "tool output": 1.2, "structured": 1.0, "code": 0.6}
CONTEXT_WEIGHT = {
    "env": 1.4,
    "yaml": 1.3,
    "json": 1.2,
    "docker_compose": 1.1,
    "kubernetes": 1.1,
    "python": 1.1,
    "bash": 1.0,
    "javascript": 0.9,
    "typescript": 0.9,
    "go": 0.75,
}


def weight(c: Context) -> float:
    return CONTEXT_WEIGHT.get(c.name, FAMILY_WEIGHT[c.family])


def context_counts() -> dict[str, int]:
    """Documents per context: narrative notes weigh most, code least; largest remainders fill up to N_DOCS."""
    total = sum(weight(c) for c in CONTEXTS)
    exact = {c.name: N_DOCS * weight(c) / total for c in CONTEXTS}
    counts = {name: int(x) for name, x in exact.items()}
    by_remainder = sorted(exact, key=lambda name: (counts[name] - exact[name], name))
    for name in by_remainder[: N_DOCS - sum(counts.values())]:
        counts[name] += 1
    return counts


def build_plan() -> list[Plan]:
    ctxs = [name for name, count in context_counts().items() for _ in range(count)]
    R.shuffle(ctxs)
    langs = ["en"] * 800 + [LANGS[1 + i % 7] for i in range(400)]
    R.shuffle(langs)
    plans = [Plan(c, lang, []) for c, lang in zip(ctxs, langs, strict=True)]
    seen_ctx: Counter = Counter()
    secret_docs = []
    for p in plans:
        seen_ctx[p.ctx] += 1
        if seen_ctx[p.ctx] % 2 == 1:
            secret_docs.append(p)
    secret_units = [k for k, info in KINDS.items() if info.secret and k in GENS for _ in range(SECRET_COPIES)]
    look_units = [k for k, info in KINDS.items() if not info.secret and k in GENS for _ in range(LOOK_COPIES)]
    R.shuffle(secret_units)
    R.shuffle(look_units)
    kind_ctx: dict[str, list[str]] = {}
    for p in secret_docs:
        p.weight = min(R.paretovariate(0.9), 12.0)
    distribute(secret_docs, secret_units, kind_ctx, cap_=18)
    non_secret = [p for p in plans if not p.units]
    distribute(non_secret, look_units[: len(non_secret)], kind_ctx, cap_=9)
    rest = look_units[len(non_secret) :]
    for k in rest:
        pool = non_secret if chance(0.6) else plans
        place(pool, k, kind_ctx, cap_=6)
    return plans


NGINX_EXCLUDED = {"braintree_access_token", "password_hash"}


def compatible(p: Plan, k: str) -> bool:
    if p.ctx == "nginx" and k in NGINX_EXCLUDED:
        return False
    return not (CTX[p.ctx].single_line and k in MULTILINE_KINDS) and k not in p.units


def place(pool: list[Plan], k: str, kind_ctx: dict[str, list[str]], cap_: int) -> None:
    best = None
    weights = [p.weight for p in pool]
    for _ in range(40):
        p = R.choices(pool, weights)[0]
        if len(p.units) >= cap_ or not compatible(p, k):
            continue
        if best is None:
            best = p
        if p.ctx not in kind_ctx.get(k, []):
            best = p
            break
    if best is None:
        raise CorpusError(f"no document can take a {k}")
    best.units.append(k)
    kind_ctx.setdefault(k, []).append(best.ctx)


def distribute(docs: list[Plan], units: list[str], kind_ctx: dict[str, list[str]], cap_: int) -> None:
    units = list(units)
    for p in docs:
        for i, k in enumerate(units):
            if compatible(p, k):
                p.units.append(k)
                kind_ctx.setdefault(k, []).append(p.ctx)
                del units[i]
                break
    for k in units:
        place(docs, k, kind_ctx, cap_)


def render_doc(plan: Plan) -> tuple[str, list[tuple[Val, int, int]], list, str]:
    for _attempt in range(60):
        groups = [GENS[k]() for k in plan.units]
        R.shuffle(groups)
        assign_names(groups)
        vals = [v for g in groups for e in g for v in e.vals()]
        for i, v in enumerate(vals):
            v.idx = i
        used: list = []
        d = Doc(plan.ctx, plan.lang, groups, rdate(), used=used)
        try:
            framed, how = frame(d, CTX[plan.ctx].render(d))
            text, spans = strip_marks(framed, vals)
            check_doc(text, spans)
        except Reject:
            continue
        return text, spans, used, how
    raise CorpusError(f"could not render a {plan.ctx} document")


# ---------------------------------------------------------------------------------------------------------------
# corpus, checks, README


def span_record(v: Val, text: str, s: int, e: int) -> dict:
    return {"kind": v.kind, "value": text[s:e], "start": s, "end": e}


def build_corpus() -> tuple[list[dict], dict]:
    plans = build_plan()
    records = []
    phrases: Counter = Counter()
    frames: Counter = Counter()
    for i, plan in enumerate(plans, 1):
        text, spans, used, how = render_doc(plan)
        phrases.update(used)
        frames[how] += 1
        records.append(
            {
                "id": f"blind10-{i:04d}",
                "context": plan.ctx,
                "text": text,
                "secrets": [span_record(v, text, s, e) for v, s, e in spans if v.secret],
                "lookalikes": [span_record(v, text, s, e) for v, s, e in spans if not v.secret],
                "_lang": plan.lang,
            }
        )
    return records, {"phrases": phrases, "frames": frames}


def collect(records: list[dict], extra: dict) -> dict:
    st: dict = {"kind_n": Counter(), "kind_ctx": {}, "ctx_docs": Counter(), "ctx_secret": Counter(), "lang": Counter()}
    st.update(extra)
    for rec in records:
        st["ctx_docs"][rec["context"]] += 1
        st["lang"][rec["_lang"]] += 1
        if rec["secrets"]:
            st["ctx_secret"][rec["context"]] += 1
        for sp in rec["secrets"] + rec["lookalikes"]:
            st["kind_n"][sp["kind"]] += 1
            ctxs = st["kind_ctx"].setdefault(sp["kind"], [])
            if rec["context"] not in ctxs:
                ctxs.append(rec["context"])
    secret_spans = [sp for r in records for sp in r["secrets"]]
    look_spans = [sp for r in records for sp in r["lookalikes"]]
    st["n_secret_spans"] = len(secret_spans)
    st["n_look_spans"] = len(look_spans)
    st["secret_kinds"] = sorted({sp["kind"] for sp in secret_spans})
    st["look_kinds"] = sorted({sp["kind"] for sp in look_spans})
    st["secret_docs"] = sum(1 for r in records if r["secrets"])
    st["look_docs"] = sum(1 for r in records if r["lookalikes"])
    st["multiline_secret"] = sum(1 for sp in secret_spans if "\n" in sp["value"])
    st["narrative_secret"] = sum(len(r["secrets"]) for r in records if CTX[r["context"]].family == "narrative")
    lengths = sorted(len(r["text"]) for r in records)
    st["len"] = (lengths[0], lengths[len(lengths) // 2], lengths[-1])
    st["non_ascii"] = sum(1 for r in records if any(ord(c) > 127 for c in r["text"]))
    st["en_phrases"] = sorted({t for (lang, t) in st["phrases"] if lang == "en"})
    st["other_phrases"] = len({(lang, t) for (lang, t) in st["phrases"] if lang != "en"})
    return st


def verify_records(records: list[dict]) -> None:
    ids = [r["id"] for r in records]
    if len(records) != N_DOCS or len(set(ids)) != len(ids):
        raise CorpusError("document count or id uniqueness")
    for r in records:
        spans = sorted(r["secrets"] + r["lookalikes"], key=lambda sp: sp["start"])
        if not spans:
            raise CorpusError(f"{r['id']} has no labelled value")
        for lst in (r["secrets"], r["lookalikes"]):
            if [sp["start"] for sp in lst] != sorted(sp["start"] for sp in lst):
                raise CorpusError(f"{r['id']} spans not sorted")
        prev = 0
        for sp in spans:
            if r["text"][sp["start"] : sp["end"]] != sp["value"] or sp["start"] < prev:
                raise CorpusError(f"{r['id']} span check failed")
            prev = sp["end"]


def verify_mix(st: dict) -> None:
    share = st["secret_docs"] / N_DOCS
    if not 0.45 <= share <= 0.55:
        raise CorpusError(f"secret share {share:.2f}")
    skinds, lkinds = st["secret_kinds"], st["look_kinds"]
    if len(skinds) < 110:
        raise CorpusError("fewer than 110 secret kinds")
    for k in skinds:
        if st["kind_n"][k] < 15 or len(st["kind_ctx"][k]) < 8:
            raise CorpusError(f"secret kind {k}: {st['kind_n'][k]} examples in {len(st['kind_ctx'][k])} contexts")
    if len(lkinds) < 40 or any(st["kind_n"][k] < 30 for k in lkinds):
        raise CorpusError("look-alike kinds or counts too low")
    common = [k for k in skinds if KINDS[k].common]
    if len(skinds) - len(common) < 25 or len(common) / len(skinds) < 0.70:
        raise CorpusError("common / less common mix")
    non_en = N_DOCS - st["lang"]["en"]
    if not 0.25 <= non_en / N_DOCS <= 0.40 or len([lang for lang in st["lang"] if lang != "en"]) < 5:
        raise CorpusError("language mix")
    if len(st["en_phrases"]) < 50:
        raise CorpusError(f"only {len(st['en_phrases'])} English phrasings used")
    unknown = [k for k in skinds + lkinds if k not in KINDS]
    if unknown:
        raise CorpusError(f"unregistered kinds {unknown}")


def n(x: int) -> str:
    return f"{x:,}"


def readme(st: dict, digest: str) -> str:
    skinds, lkinds = st["secret_kinds"], st["look_kinds"]
    common = [k for k in skinds if KINDS[k].common]
    secret_counts = [st["kind_n"][k] for k in skinds]
    look_counts = [st["kind_n"][k] for k in lkinds]
    ctx_counts = [len(st["kind_ctx"][k]) for k in skinds]
    fams = Counter(c.family for c in CONTEXTS)
    langs = ", ".join(f"{LANG_NAMES[lang]} {st['lang'][lang]}" for lang in LANGS)
    non_en = N_DOCS - st["lang"]["en"]
    narrative = [c.name for c in CONTEXTS if c.family == "narrative"]
    tool = [c.name for c in CONTEXTS if c.family == "tool output"]
    structured = [c.name for c in CONTEXTS if c.family == "structured"]
    code = [c.name for c in CONTEXTS if c.family == "code"]
    frames = st["frames"]
    out = [
        "# secrets_blind_v10",
        "",
        f"A held-out, labelled test corpus for the secret-detection engine, written blind to it: {n(N_DOCS)} documents of the "
        "kind people and AI assistants keep as memory notes. Narrative notes ("
        + ", ".join(narrative)
        + ") and tool output ("
        + ", ".join(tool)
        + ") sit next to structured files ("
        + ", ".join(structured)
        + ") and code ("
        + ", ".join(code)
        + "). Each document lists the secrets it holds "
        "(to be reported) and the look-alikes it holds (public values that must not be reported).",
        "",
        "## How it was built",
        "",
        f"- Generator: [`../make_blind_secrets_v10.py`](../make_blind_secrets_v10.py), Python 3.11 standard library only, "
        f"one `random.Random({SEED})`; no clock, environment or system randomness is read, no set is iterated while "
        "writing, and `PYTHONHASHSEED` does not change the output.",
        "- Regenerate with `python3 tests/corpora/make_blind_secrets_v10.py` (or `--out DIR`). A run takes about ten "
        "seconds, most of it spent generating real RSA key pairs in pure Python.",
        "- Every generated value is wrapped in private-use marker characters (U+E000 + its index in a per-document table, "
        "closed by U+F8FF) before any escaping or framing. Renderers escape and frame the marked text (JSON strings, JSON "
        "records, YAML plain / quoted / block scalars, TOML basic and multi-line literal strings, INI continuation lines, "
        "properties escapes, XML text and attribute entities, HCL strings and heredocs, systemd `%%` and quote escapes, "
        "nginx strings, CSV quote doubling, Markdown table pipes, string literals of sixteen languages, shell quoting, "
        "`> ` e-mail quoting, `+` diff prefixes, indented runbook blocks, hard wrapping, memory-record framing); the "
        "offsets are read off the final text while the markers are stripped. A nested, stray or unclosed marker raises; a "
        "value that a renderer dropped or duplicated makes the document be generated again.",
        "- A document in which a labelled secret (as labelled, or as generated) also occurs outside a labelled secret span "
        "is generated again with fresh values.",
        "- Before writing, the script checks: every span slices out its value, each list is sorted, no two spans overlap, "
        "every labelled value contains the alphanumerics of the generated value in order, ids are unique, every document "
        "has a labelled value, no labelled secret occurs unlabelled, 45-55% of documents hold a secret, at least 110 secret "
        "kinds with at least 15 examples each in at least 8 contexts, at least 25 less common kinds and at least 70% common "
        "ones, at least 40 look-alike kinds with at least 30 examples each, 25-40% non-English documents in at least five "
        "languages, at least 50 English phrasings. After writing, `corpus.jsonl` is read back and its SHA-256 compared "
        "with `SHA256SUMS`. Any failure raises.",
        "- Written blind. What I read: `tests/corpora/secrets_blind_v9/README.md` (allowed by the brief) for the file "
        "format, the labelling conventions and the README layout, and the `[tool.ruff]` section of `pyproject.toml`. "
        "What I ran: `cat` on that README, `awk` to print the ruff section, `ls` on the two v10 paths (to check they did "
        "not exist yet), `python3 --version`, `.venv/bin/ruff --version`, `.venv/bin/ruff check` (also with `--fix`) and "
        "`.venv/bin/ruff format` on this generator only, this generator itself, `mkdir` / `cat` / `cp` / `sed` / `grep` / `wc` / `head` / `time` on "
        "this generator and its drafts under `/tmp`, `ls` and `sha256sum -c` on the output directory, and throwaway Python snippets under `/tmp`: timing pure-Python prime "
        "generation; checking the Ed25519, X25519, Keccak, EIP-55 and bech32 helpers against the RFC 8032, RFC 7748, "
        "EIP-55 and BIP 173 test vectors; reading the generated corpus back to audit it (spans, unlabelled repeats, "
        "parsing the JSON, YAML (PyYAML of the system Python), TOML, INI, XML and CSV documents, `ast.parse` on the "
        "Python and notebook code, `bash -n` on the shell scripts, `node --check` on the JavaScript, `javac` on the "
        "Java and `rustc --emit=metadata` on the Rust documents, after `which` showed those tools). Nothing else under "
        "`tests/` (apart from this generator and the files it writes) and nothing under `sandbox/`, `policies/`, "
        "`bench/` or `docs/` was opened, listed, "
        "grepped or run; no other generator or corpus was opened and `tests/corpora/` was not listed; no git command was "
        "run; the `sandbox` package was never imported and no scanner of the project was run; no secret scanner's code or "
        "rules were searched for or read (the `search` tool was not used at all). Every template, phrase and filler sentence was written for this corpus; token "
        "formats come from providers' public documentation as I remember it.",
        "- Structure where the format allows: GitHub `ghp_` / `ghs_` / `gho_` / `ghu_` and npm tokens end in the base62 "
        "CRC32 of their random part; PyPI tokens are v2 macaroons (location `pypi.org`) with an HMAC chain over their "
        "caveats; JWTs carry real signatures (HS256 user tokens and Supabase keys, RS256 Kubernetes service-account tokens "
        "signed by seeded RSA keys, EdDSA Turso tokens); RSA keys are real 2048-bit key pairs (PKCS #1 / PKCS #8, also "
        "inside GCP service-account JSON); EC keys are P-256 with the derived public point; X.509 certificates are "
        "self-signed with a real ECDSA signature; OpenSSH, PuTTY (PPK v3 with its HMAC-SHA-256 MAC), Solana and PGP "
        "keys carry the Ed25519 public key derived from the seed; PGP blocks carry a correct CRC-24 line; age identities "
        "and recipients and bitcoin addresses are valid bech32 / bech32m; WireGuard public keys and age recipients are "
        "X25519 derivations; WIF keys are valid base58check; NATS seeds carry their CRC-16; Ethereum addresses carry the "
        "EIP-55 checksum (Keccak-256 implemented and self-tested against `hashlib.sha3_256`); IBANs, ISBNs and test card "
        "numbers have valid check digits; documented example JWTs (jwt.io, RFC 7519) are verified against their "
        "published keys before use.",
        "",
        "## File format",
        "",
        "`corpus.jsonl`: one JSON object per line, UTF-8, `ensure_ascii=False`, keys in this order:",
        "",
        "```json",
        '{"id": "blind10-0001", "context": "journal", "text": "...", "secrets": [{"kind": "...", "value": "...", "start": 0, '
        '"end": 0}], "lookalikes": []}',
        "```",
        "",
        "- `start` / `end` are Python code-point offsets into `text`, `text[start:end] == value`; each list is sorted by "
        "`start`; no two spans of a document overlap (both lists together).",
        f"- `context` names the shape of the document (table below). Of the {n(sum(st['ctx_docs'][c] for c in narrative))} "
        f"narrative documents, {frames['json']} are wrapped as a JSON memory record (the body is one JSON string), "
        f"{frames['yaml']} as a YAML record (body in a `content: |` block scalar) and {frames['front']} carry front "
        "matter. Structured files and code carry a comment (CSV: a notes column, Markdown tables: a note line) in the "
        "document's language.",
        "",
        "## Labelling",
        "",
        "- Only the sensitive part is labelled: the password inside a URL, DSN, JDBC / libpq / Go DSN / ADO.NET string or "
        "Kafka JAAS config (not user or host); the `sig=` value of an Azure SAS URL; the `AccountKey=` / "
        "`SharedAccessKey=` of Azure connection strings; the secret in `cloudinary://key:secret@cloud`; the `secret=` of "
        "an `otpauth://` URI; the credential after `Bearer `, `Basic `, `ApiKey `, `Bot `, `Token token=`, `Api-Token `, "
        "`Splunk `, `ShippoToken `, `key=` and in `X-API-Key`-style headers; the cookie value after `name=`; the `auth` "
        "of a Docker config; the private key inside a service-account JSON (with its `\\n` escapes). Slack, Discord, "
        "Teams, Mattermost and Zapier webhook URLs are labelled whole. PEM, OpenSSH, PuTTY and PGP keys are labelled from "
        "their first to their last line. Each 2FA recovery code of a list is its own span.",
        "- Key ids that travel with their secret are secrets too: AWS `AKIA` / `ASIA`, Alibaba `LTAI`, Scaleway `SCW`, "
        "Confluent Cloud keys, WooCommerce `ck_`. Companions that are not secret are look-alikes: Twilio `AC` SIDs, "
        "Algolia app ids, `rzp_live_` key ids (`account_identifier`), OAuth client ids of Google, Entra and PayPal apps "
        "(`oauth_client_id`), Entra tenant ids, Langfuse `pk-lf-` keys (`public_client_key`), the `private_key_id` of a "
        "service-account JSON (`key_identifier`).",
        "- A value is labelled exactly as it appears: inside JSON (a JSON file, a notebook, a JSON log line or a "
        "JSON-framed memory record) it keeps its escapes; in a YAML block scalar, an INI continuation, an indented runbook "
        "block, a Java text block, a Swift multi-line string, a Ruby squiggly heredoc or a YAML-framed record it keeps the "
        "indentation of its continuation lines; in a quoted e-mail reply it keeps the `> ` prefixes; in a diff it keeps "
        "the `+` prefixes; in XML it keeps entity escapes; in CSV it keeps doubled quotes; in properties files, systemd "
        "units, C-like string literals, Python reprs in tracebacks and logfmt lines a line break is `\\n` and quotes and "
        "backslashes keep their escapes; SQL, PowerShell and C# verbatim literals keep doubled quotes; shell words keep "
        "`'\\''`; Markdown table cells keep `\\|`; a value hard-wrapped in a scratch note keeps its newlines; URL "
        "passwords are labelled percent-encoded.",
        f"- {n(st['narrative_secret'])} secret spans sit in narrative documents, many in bare prose; "
        f"{n(st['multiline_secret'])} secret spans run over several lines.",
        "",
        "## Numbers",
        "",
        f"- {n(N_DOCS)} documents; {n(st['secret_docs'])} ({round(100 * st['secret_docs'] / N_DOCS)}%) hold at least one "
        f"secret; {n(st['look_docs'])} hold look-alikes; every document has at least one labelled value.",
        f"- {n(st['n_secret_spans'])} secret spans over {len(skinds)} kinds ({min(secret_counts)} to {max(secret_counts)} "
        f"examples each, each kind in {min(ctx_counts)} to {max(ctx_counts)} contexts); {len(common)} kinds "
        f"({round(100 * len(common) / len(skinds))}%) are ones I consider common in developers' notes (marked *common*), "
        f"the other {len(skinds) - len(common)} less common providers and formats.",
        f"- {n(st['n_look_spans'])} look-alike spans over {len(lkinds)} kinds ({min(look_counts)} to {max(look_counts)} "
        "each).",
        f"- Length: {n(st['len'][0])} to {n(st['len'][2])} characters, median {n(st['len'][1])}; {n(st['non_ascii'])} "
        "documents contain non-ASCII text.",
        f"- {len(CONTEXTS)} contexts ({fams['narrative']} narrative, {fams['tool output']} tool output, "
        f"{fams['structured']} structured, {fams['code']} code); prose and comments in {len(LANGS)} languages: {langs} "
        f"({round(100 * non_en / N_DOCS)}% non-English); {len(st['en_phrases'])} English phrasings and "
        f"{st['other_phrases']} phrasings in the other languages introduce a secret in prose.",
        "",
        "## Secret kinds",
        "",
        "| kind | format | examples | contexts |",
        "| --- | --- | ---: | ---: |",
    ]
    for k in skinds:
        mark = " *common*" if KINDS[k].common else ""
        out.append(f"| `{k}`{mark} | {KINDS[k].fmt} | {st['kind_n'][k]} | {len(st['kind_ctx'][k])} |")
    out += ["", "## Look-alike kinds", "", "| kind | what | examples | contexts |", "| --- | --- | ---: | ---: |"]
    for k in lkinds:
        out.append(f"| `{k}` | {KINDS[k].fmt} | {st['kind_n'][k]} | {len(st['kind_ctx'][k])} |")
    out += ["", "## Contexts", "", "| context | family | documents | with secrets |", "| --- | --- | ---: | ---: |"]
    for c in sorted(CONTEXTS, key=lambda c: c.name):
        out.append(f"| `{c.name}` | {c.family} | {st['ctx_docs'][c.name]} | {st['ctx_secret'][c.name]} |")
    out += ["", "## Checksum", "", "`SHA256SUMS`:", "", "```", f"{digest}  corpus.jsonl", "```", ""]
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description="Write the secrets_blind_v10 corpus.")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "secrets_blind_v10")
    args = parser.parse_args()
    records, extra = build_corpus()
    st = collect(records, extra)
    verify_records(records)
    verify_mix(st)
    lines = []
    for r in records:
        rec = {k: r[k] for k in ("id", "context", "text", "secrets", "lookalikes")}
        lines.append(json.dumps(rec, ensure_ascii=False) + "\n")
    data = "".join(lines).encode("utf-8")
    digest = hashlib.sha256(data).hexdigest()
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    (out / "corpus.jsonl").write_bytes(data)
    (out / "SHA256SUMS").write_text(f"{digest}  corpus.jsonl\n", encoding="utf-8")
    (out / "README.md").write_text(readme(st, digest), encoding="utf-8")
    back = hashlib.sha256((out / "corpus.jsonl").read_bytes()).hexdigest()
    listed = (out / "SHA256SUMS").read_text(encoding="utf-8").split()[0]
    if back != digest or listed != digest:
        raise CorpusError("corpus.jsonl does not match SHA256SUMS after writing")
    reread = [json.loads(line) for line in (out / "corpus.jsonl").read_text(encoding="utf-8").splitlines()]
    for rec in reread:
        for sp in rec["secrets"] + rec["lookalikes"]:
            if rec["text"][sp["start"] : sp["end"]] != sp["value"]:
                raise CorpusError(f"{rec['id']}: span does not survive the round trip")
    sys.stdout.write(f"wrote {len(records)} documents to {out} (sha256 {digest})\n")


if __name__ == "__main__":
    main()
