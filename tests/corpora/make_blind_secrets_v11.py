from __future__ import annotations

# Write the `secrets_blind_v11` corpus: 1,200 labelled documents for measuring the secret-detection engine.
#
# The corpus was written blind to the engine: see `secrets_blind_v11/README.md` for what was read and run.
# Regenerate with `python3 tests/corpora/make_blind_secrets_v11.py` (or `--out DIR`).
#
# Every generated value is wrapped in a private-use marker (U+E000 + its index in the document's table, closed by
# U+F8FF) before any escaping or framing; renderers escape the marked text and the offsets are read off the final
# text while the markers are stripped.  Everything is drawn from one seeded `random.Random`.
import argparse
import base64
import hashlib
import hmac
import itertools
import json
import random
import re
import sys
import zlib
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

SEED = 86420135
R = random.Random(SEED)
N_DOCS = 1200
ID_PREFIX = "blind11-"

DIGITS = "0123456789"
LOWER = "abcdefghijklmnopqrstuvwxyz"
UPPER = LOWER.upper()
ALNUM = UPPER + LOWER + DIGITS
ALNUM_LO = LOWER + DIGITS
ALNUM_UP = UPPER + DIGITS
HEX = "0123456789abcdef"
HEX_UP = HEX.upper()
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"
B32 = UPPER + "234567"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
BASE62 = DIGITS + UPPER + LOWER
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def rs(chars: str, n: int) -> str:
    return "".join(R.choice(chars) for _ in range(n))


def rb(n: int) -> bytes:
    return R.randbytes(n)


def pick(seq):
    return seq[R.randrange(len(seq))]


def choose(*makers):
    """Call one of ``makers``, chosen at random."""
    return pick(makers)()


def chance(p: float) -> bool:
    return R.random() < p


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def rhex(n_bytes: int) -> str:
    return rb(n_bytes).hex()


def ruuid() -> str:
    h = bytearray(rb(16))
    h[6] = (h[6] & 0x0F) | 0x40
    h[8] = (h[8] & 0x3F) | 0x80
    s = h.hex()
    return f"{s[:8]}-{s[8:12]}-{s[12:16]}-{s[16:20]}-{s[20:]}"


def base62(n: int, width: int) -> str:
    out = ""
    while n:
        n, r = divmod(n, 62)
        out = BASE62[r] + out
    return out.rjust(width, "0")


def crc32_b62_token(prefix: str, n: int) -> str:
    """Prefix + n random base62 characters + the base62 CRC32 of those characters (GitHub / npm style)."""
    body = rs(ALNUM, n)
    return prefix + body + base62(zlib.crc32(body.encode()), 6)


def sha1(data: bytes) -> bytes:
    return hashlib.sha1(data, usedforsecurity=False).digest()


def md5hex(data: bytes) -> str:
    return hashlib.md5(data, usedforsecurity=False).hexdigest()


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


# ---------------------------------------------------------------------------------------------------- Ed25519 / X25519

ED_P = 2**255 - 19
ED_L = 2**252 + 27742317777372353535851937790883648493
ED_D = -121665 * pow(121666, -1, ED_P) % ED_P
ED_I = pow(2, (ED_P - 1) // 4, ED_P)


def _ed_xrecover(y: int) -> int:
    xx = (y * y - 1) * pow(ED_D * y * y + 1, -1, ED_P)
    x = pow(xx, (ED_P + 3) // 8, ED_P)
    if (x * x - xx) % ED_P:
        x = x * ED_I % ED_P
    if x % 2:
        x = ED_P - x
    return x


ED_BY = 4 * pow(5, -1, ED_P) % ED_P
ED_BX = _ed_xrecover(ED_BY)
ED_B = (ED_BX, ED_BY, 1, ED_BX * ED_BY % ED_P)


def _ed_add(p, q):
    x1, y1, z1, t1 = p
    x2, y2, z2, t2 = q
    a = (y1 - x1) * (y2 - x2) % ED_P
    b = (y1 + x1) * (y2 + x2) % ED_P
    c = t1 * 2 * ED_D * t2 % ED_P
    d = z1 * 2 * z2 % ED_P
    e, f, g, h = b - a, d - c, d + c, b + a
    return (e * f % ED_P, g * h % ED_P, f * g % ED_P, e * h % ED_P)


def _ed_mul(s: int, p):
    q = (0, 1, 1, 0)
    while s:
        if s & 1:
            q = _ed_add(q, p)
        p = _ed_add(p, p)
        s >>= 1
    return q


def _ed_encode(p) -> bytes:
    x, y, z, _ = p
    zi = pow(z, -1, ED_P)
    x, y = x * zi % ED_P, y * zi % ED_P
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def _ed_expand(seed: bytes) -> tuple[int, bytes]:
    h = hashlib.sha512(seed).digest()
    a = int.from_bytes(h[:32], "little")
    a &= (1 << 254) - 8
    a |= 1 << 254
    return a, h[32:]


def ed25519_public(seed: bytes) -> bytes:
    return _ed_encode(_ed_mul(_ed_expand(seed)[0], ED_B))


def ed25519_sign(seed: bytes, msg: bytes) -> bytes:
    a, prefix = _ed_expand(seed)
    pub = _ed_encode(_ed_mul(a, ED_B))
    r = int.from_bytes(hashlib.sha512(prefix + msg).digest(), "little") % ED_L
    rr = _ed_encode(_ed_mul(r, ED_B))
    k = int.from_bytes(hashlib.sha512(rr + pub + msg).digest(), "little") % ED_L
    return rr + ((r + k * a) % ED_L).to_bytes(32, "little")


def x25519(k: bytes, u: bytes) -> bytes:
    p = ED_P
    kk = bytearray(k)
    kk[0] &= 248
    kk[31] &= 127
    kk[31] |= 64
    scalar = int.from_bytes(kk, "little")
    x1 = int.from_bytes(u, "little") & ((1 << 255) - 1)
    x2, z2, x3, z3, swap = 1, 0, x1, 1, 0
    for t in reversed(range(255)):
        bit = (scalar >> t) & 1
        swap ^= bit
        if swap:
            x2, x3, z2, z3 = x3, x2, z3, z2
        swap = bit
        aa_, bb_ = (x2 + z2) ** 2 % p, (x2 - z2) ** 2 % p
        e = aa_ - bb_
        da = (x3 - z3) * (x2 + z2) % p
        cb = (x3 + z3) * (x2 - z2) % p
        x3, z3 = (da + cb) ** 2 % p, x1 * (da - cb) ** 2 % p
        x2, z2 = aa_ * bb_ % p, e * (aa_ + 121665 * e) % p
    if swap:
        x2, z2 = x3, z3
    return (x2 * pow(z2, p - 2, p) % p).to_bytes(32, "little")


def x25519_keypair() -> tuple[bytes, bytes]:
    k = bytearray(rb(32))
    k[0] &= 248
    k[31] &= 127
    k[31] |= 64
    return bytes(k), x25519(bytes(k), (9).to_bytes(32, "little"))


# ---------------------------------------------------------------------------------------------------- P-256 / ECDSA

P256_P = 2**256 - 2**224 + 2**192 + 2**96 - 1
P256_B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
P256_N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
P256_G = (
    0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
    0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5,
)


def _ec_add(p1, p2):
    if p1 is None:
        return p2
    if p2 is None:
        return p1
    pp = P256_P
    if p1[0] == p2[0]:
        if (p1[1] + p2[1]) % pp == 0:
            return None
        lam = (3 * p1[0] * p1[0] - 3) * pow(2 * p1[1], -1, pp) % pp
    else:
        lam = (p2[1] - p1[1]) * pow(p2[0] - p1[0], -1, pp) % pp
    x3 = (lam * lam - p1[0] - p2[0]) % pp
    return (x3, (lam * (p1[0] - x3) - p1[1]) % pp)


def _jac_double(pt, p: int, a: int):
    x1, y1, z1 = pt
    if y1 == 0:
        return None
    yy = y1 * y1 % p
    s = 4 * x1 * yy % p
    m = (3 * x1 * x1 + a * pow(z1, 4, p)) % p
    x3 = (m * m - 2 * s) % p
    return (x3, (m * (s - x3) - 8 * yy * yy) % p, 2 * y1 * z1 % p)


def _jac_add(p1, p2, p: int, a: int):
    if p1 is None:
        return p2
    if p2 is None:
        return p1
    x1, y1, z1 = p1
    x2, y2, z2 = p2
    z1z1, z2z2 = z1 * z1 % p, z2 * z2 % p
    u1, u2 = x1 * z2z2 % p, x2 * z1z1 % p
    s1, s2 = y1 * z2 * z2z2 % p, y2 * z1 * z1z1 % p
    if u1 == u2:
        return _jac_double(p1, p, a) if s1 == s2 else None
    h, r = u2 - u1, s2 - s1
    hh = h * h % p
    hhh = h * hh % p
    v = u1 * hh % p
    x3 = (r * r - hhh - 2 * v) % p
    return (x3, (r * (v - x3) - s1 * hhh) % p, h * z1 * z2 % p)


def curve_mul(k: int, pt, p: int, a: int):
    """Scalar multiplication in Jacobian coordinates; returns an affine point or None."""
    acc, cur = None, (pt[0], pt[1], 1)
    while k:
        if k & 1:
            acc = _jac_add(acc, cur, p, a)
        cur = _jac_double(cur, p, a)
        k >>= 1
    if acc is None:
        return None
    zi = pow(acc[2], -1, p)
    return (acc[0] * zi * zi % p, acc[1] * zi * zi * zi % p)


def ec_mul(k: int, pt=P256_G):
    return curve_mul(k, pt, P256_P, P256_P - 3)


def ec_point_bytes(pt) -> bytes:
    return b"\x04" + pt[0].to_bytes(32, "big") + pt[1].to_bytes(32, "big")


def ecdsa_sign(d: int, msg: bytes) -> tuple[int, int]:
    z = int.from_bytes(sha256(msg), "big")
    while True:
        k = R.randrange(1, P256_N)
        r = ec_mul(k)[0] % P256_N
        s = pow(k, -1, P256_N) * (z + r * d) % P256_N
        if r and s:
            return r, s


def ecdsa_verify(pub, msg: bytes, r: int, s: int) -> bool:
    z = int.from_bytes(sha256(msg), "big")
    w = pow(s, -1, P256_N)
    pt = _ec_add(ec_mul(z * w % P256_N), ec_mul(r * w % P256_N, pub))
    return pt is not None and pt[0] % P256_N == r


# ---------------------------------------------------------------------------------------------------- DER / PEM


def der_len(n: int) -> bytes:
    if n < 0x80:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


def der(tag: int, content: bytes) -> bytes:
    return bytes([tag]) + der_len(len(content)) + content


def der_int(n: int) -> bytes:
    return der(0x02, n.to_bytes(n.bit_length() // 8 + 1, "big"))


def der_seq(*parts: bytes) -> bytes:
    return der(0x30, b"".join(parts))


def der_set(*parts: bytes) -> bytes:
    return der(0x31, b"".join(parts))


def der_oid(dotted: str) -> bytes:
    nums = [int(x) for x in dotted.split(".")]
    out = bytearray([40 * nums[0] + nums[1]])
    for num in nums[2:]:
        chunk = [num & 0x7F]
        rest = num >> 7
        while rest:
            chunk.append(0x80 | (rest & 0x7F))
            rest >>= 7
        out.extend(reversed(chunk))
    return der(0x06, bytes(out))


def der_bits(data: bytes) -> bytes:
    return der(0x03, b"\x00" + data)


def der_octets(data: bytes) -> bytes:
    return der(0x04, data)


def der_ctx(n: int, content: bytes) -> bytes:
    return der(0xA0 | n, content)


NULL = b"\x05\x00"
OID_EC_PUBLIC = der_oid("1.2.840.10045.2.1")
OID_P256 = der_oid("1.2.840.10045.3.1.7")
OID_ECDSA_SHA256 = der_oid("1.2.840.10045.4.3.2")
OID_RSA = der_oid("1.2.840.113549.1.1.1")
OID_ED25519 = der_oid("1.3.101.112")


def pem(label: str, data: bytes, width: int = 64) -> str:
    body = b64(data)
    lines = [body[i : i + width] for i in range(0, len(body), width)]
    return f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----"


def der_name(cn: str, org: str) -> bytes:
    return der_seq(
        der_set(der_seq(der_oid("2.5.4.10"), der(0x0C, org.encode()))),
        der_set(der_seq(der_oid("2.5.4.3"), der(0x0C, cn.encode()))),
    )


def x509_self_signed(cn: str, org: str, year: int) -> tuple[str, int]:
    """A self-signed P-256 certificate (real ECDSA signature over the TBSCertificate) and its private scalar."""
    d = R.randrange(1, P256_N)
    pub = ec_mul(d)
    spki = der_seq(der_seq(OID_EC_PUBLIC, OID_P256), der_bits(ec_point_bytes(pub)))
    name = der_name(cn, org)
    month, day = R.randint(1, 12), R.randint(1, 28)
    validity = der_seq(
        der(0x17, f"{year % 100:02d}{month:02d}{day:02d}090000Z".encode()),
        der(0x17, f"{(year + 1) % 100:02d}{month:02d}{day:02d}090000Z".encode()),
    )
    san = der_seq(der_oid("2.5.29.17"), der_octets(der_seq(der(0x82, cn.encode()))))
    basic = der_seq(der_oid("2.5.29.19"), der(0x01, b"\xff"), der_octets(der_seq()))
    tbs = der_seq(
        der_ctx(0, der_int(2)),
        der_int(int.from_bytes(rb(16), "big") >> 1),
        der_seq(OID_ECDSA_SHA256),
        name,
        validity,
        name,
        spki,
        der_ctx(3, der_seq(san, basic)),
    )
    r, s = ecdsa_sign(d, tbs)
    if not ecdsa_verify(pub, tbs, r, s):
        raise RuntimeError("ECDSA self-check failed")
    cert = der_seq(tbs, der_seq(OID_ECDSA_SHA256), der_bits(der_seq(der_int(r), der_int(s))))
    return pem("CERTIFICATE", cert), d


def ec_private_pem(pkcs8: bool) -> str:
    d = R.randrange(1, P256_N)
    pub = ec_point_bytes(ec_mul(d))
    if pkcs8:
        inner = der_seq(der_int(1), der_octets(d.to_bytes(32, "big")), der(0xA1, der_bits(pub)))
        return pem("PRIVATE KEY", der_seq(der_int(0), der_seq(OID_EC_PUBLIC, OID_P256), der_octets(inner)))
    sec1 = der_seq(der_int(1), der_octets(d.to_bytes(32, "big")), der_ctx(0, OID_P256), der(0xA1, der_bits(pub)))
    return pem("EC PRIVATE KEY", sec1)


def ec_public_pem() -> str:
    pub = ec_point_bytes(ec_mul(R.randrange(1, P256_N)))
    return pem("PUBLIC KEY", der_seq(der_seq(OID_EC_PUBLIC, OID_P256), der_bits(pub)))


def ed25519_private_pem(seed: bytes) -> str:
    return pem("PRIVATE KEY", der_seq(der_int(0), der_seq(OID_ED25519), der_octets(der_octets(seed))))


def ed25519_public_pem(seed: bytes) -> str:
    return pem("PUBLIC KEY", der_seq(der_seq(OID_ED25519), der_bits(ed25519_public(seed))))


# ---------------------------------------------------------------------------------------------------- RSA


def _odd_primes_below(n: int) -> list[int]:
    sieve = bytearray([1]) * n
    sieve[0:2] = b"\x00\x00"
    for i in range(2, int(n**0.5) + 1):
        if sieve[i]:
            sieve[i * i :: i] = bytes(len(range(i * i, n, i)))
    return [i for i in range(3, n) if sieve[i]]


SIEVE_PRIMES = _odd_primes_below(65536)
SIEVE_SPAN = 8192


def _miller_rabin(n: int) -> bool:
    if pow(2, n - 1, n) != 1:
        return False
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for _ in range(4):
        x = pow(R.randrange(2, n - 2), d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def _prime(bits: int) -> int:
    """A random prime of ``bits`` bits: sieve a window of odd candidates by the primes below 2**16, then Miller-Rabin."""
    while True:
        base = R.getrandbits(bits) | (3 << (bits - 2)) | 1
        window = bytearray([1]) * SIEVE_SPAN
        for p in SIEVE_PRIMES:
            i = (p - base % p) * ((p + 1) // 2) % p
            window[i::p] = bytes(len(range(i, SIEVE_SPAN, p)))
        for i in range(SIEVE_SPAN):
            if window[i]:
                c = base + 2 * i
                if c.bit_length() == bits and (c - 1) % 65537 and _miller_rabin(c):
                    return c


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

    def pem(self, pkcs8: bool) -> str:
        if pkcs8:
            return pem("PRIVATE KEY", der_seq(der_int(0), der_seq(OID_RSA, NULL), der_octets(self.pkcs1())))
        return pem("RSA PRIVATE KEY", self.pkcs1())

    def sign_sha256(self, msg: bytes) -> bytes:
        k = (self.n.bit_length() + 7) // 8
        t = bytes.fromhex("3031300d060960864801650304020105000420") + sha256(msg)
        em = b"\x00\x01" + b"\xff" * (k - 3 - len(t)) + b"\x00" + t
        sig = pow(int.from_bytes(em, "big"), self.d, self.n)
        if pow(sig, self.e, self.n) != int.from_bytes(em, "big"):
            raise RuntimeError("RSA self-check failed")
        return sig.to_bytes(k, "big")


def rsa_key(bits: int = 2048) -> RsaKey:
    e = 65537
    while True:
        p, q = _prime(bits // 2), _prime(bits // 2)
        n = p * q
        if p != q and n.bit_length() == bits:
            break
    lam = (p - 1) * (q - 1) // _gcd(p - 1, q - 1)
    key = RsaKey(n, e, pow(e, -1, lam), max(p, q), min(p, q))
    m = R.randrange(2, n)
    if pow(pow(m, e, n), key.d, n) != m:
        raise RuntimeError("RSA key self-check failed")
    return key


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


# ---------------------------------------------------------------------------------------------------- JWT


def _jwt_json(obj: dict) -> bytes:
    return json.dumps(obj, separators=(",", ":")).encode()


def jwt_hs256(payload: dict, secret: bytes, extra_header: dict | None = None) -> str:
    header = {"alg": "HS256", "typ": "JWT"} | (extra_header or {})
    signing = b64u(_jwt_json(header)) + "." + b64u(_jwt_json(payload))
    return signing + "." + b64u(hmac.new(secret, signing.encode(), hashlib.sha256).digest())


def jwt_rs256(payload: dict, key: RsaKey, kid: str) -> str:
    signing = b64u(_jwt_json({"alg": "RS256", "kid": kid})) + "." + b64u(_jwt_json(payload))
    return signing + "." + b64u(key.sign_sha256(signing.encode()))


def jwt_eddsa(payload: dict, seed: bytes) -> str:
    signing = b64u(_jwt_json({"alg": "EdDSA", "typ": "JWT"})) + "." + b64u(_jwt_json(payload))
    return signing + "." + b64u(ed25519_sign(seed, signing.encode()))


# ---------------------------------------------------------------------------------------------------- Keccak / EIP-55


def _keccak_constants() -> tuple[list[int], list[int]]:
    def rc_bit(t: int) -> int:
        r = 1
        for _ in range(t % 255):
            r <<= 1
            if r & 0x100:
                r ^= 0x171
        return r & 1

    rcs = []
    for i in range(24):
        v = 0
        for j in range(7):
            if rc_bit(j + 7 * i):
                v |= 1 << (2**j - 1)
        rcs.append(v)
    rot = [0] * 25
    x, y = 1, 0
    for t in range(24):
        rot[x + 5 * y] = ((t + 1) * (t + 2) // 2) % 64
        x, y = y, (2 * x + 3 * y) % 5
    return rcs, rot


KECCAK_RC, KECCAK_ROT = _keccak_constants()
MASK64 = (1 << 64) - 1


def _rol(v: int, n: int) -> int:
    return ((v << n) | (v >> (64 - n))) & MASK64 if n else v


def _keccak_f(a: list[int]) -> list[int]:
    for rnd in range(24):
        c = [a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20] for x in range(5)]
        dd = [c[(x - 1) % 5] ^ _rol(c[(x + 1) % 5], 1) for x in range(5)]
        a = [a[i] ^ dd[i % 5] for i in range(25)]
        b = [0] * 25
        for x in range(5):
            for y in range(5):
                b[y + 5 * ((2 * x + 3 * y) % 5)] = _rol(a[x + 5 * y], KECCAK_ROT[x + 5 * y])
        a = [b[i] ^ ((~b[(i % 5 + 1) % 5 + 5 * (i // 5)]) & b[(i % 5 + 2) % 5 + 5 * (i // 5)]) for i in range(25)]
        a[0] ^= KECCAK_RC[rnd]
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


def eip55(addr20: bytes) -> str:
    lower = addr20.hex()
    h = keccak256(lower.encode()).hex()
    return "0x" + "".join(ch.upper() if int(h[i], 16) >= 8 else ch for i, ch in enumerate(lower))


# ---------------------------------------------------------------------------------------------------- bech32 / base58 / CRCs

BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
BECH32M_CONST = 0x2BC830A3


def _bech32_polymod(values: list[int]) -> int:
    gen = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
    chk = 1
    for v in values:
        top = chk >> 25
        chk = ((chk & 0x1FFFFFF) << 5) ^ v
        for i in range(5):
            if (top >> i) & 1:
                chk ^= gen[i]
    return chk


def _hrp_expand(hrp: str) -> list[int]:
    return [ord(x) >> 5 for x in hrp] + [0] + [ord(x) & 31 for x in hrp]


def convertbits(data: bytes, frombits: int, tobits: int) -> list[int]:
    acc, bits, out = 0, 0, []
    maxv = (1 << tobits) - 1
    for value in data:
        acc = (acc << frombits) | value
        bits += frombits
        while bits >= tobits:
            bits -= tobits
            out.append((acc >> bits) & maxv)
    if bits:
        out.append((acc << (tobits - bits)) & maxv)
    return out


def bech32_encode(hrp: str, data: list[int], const: int = 1) -> str:
    poly = _bech32_polymod([*_hrp_expand(hrp), *data, 0, 0, 0, 0, 0, 0]) ^ const
    checksum = [(poly >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(BECH32[d] for d in data + checksum)


def bech32_verify(s: str) -> bool:
    hrp, _, data = s.lower().rpartition("1")
    values = [BECH32.index(c) for c in data]
    return _bech32_polymod(_hrp_expand(hrp) + values) in (1, BECH32M_CONST)


def segwit_address(witver: int, program: bytes, hrp: str = "bc") -> str:
    return bech32_encode(hrp, [witver, *convertbits(program, 8, 5)], BECH32M_CONST if witver else 1)


def b58encode(data: bytes) -> str:
    n = int.from_bytes(data, "big")
    out = ""
    while n:
        n, r = divmod(n, 58)
        out = B58[r] + out
    pad = len(data) - len(data.lstrip(b"\x00"))
    return "1" * pad + out


def b58check(payload: bytes) -> str:
    return b58encode(payload + sha256(sha256(payload))[:4])


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


def luhn_complete(partial: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(partial)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return partial + str((10 - total % 10) % 10)


def luhn_ok(number: str) -> bool:
    digits = [int(c) for c in number if c.isdigit()]
    return luhn_complete("".join(map(str, digits[:-1]))) == "".join(map(str, digits))


# ---------------------------------------------------------------------------------------------------- SSH / PGP / PuTTY


def sshstr(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


def openssh_ed25519(seed: bytes, comment: str) -> tuple[str, str]:
    pub = ed25519_public(seed)
    pubblob = sshstr(b"ssh-ed25519") + sshstr(pub)
    check = rb(4)
    priv = check + check + sshstr(b"ssh-ed25519") + sshstr(pub) + sshstr(seed + pub) + sshstr(comment.encode())
    pad = 1
    while len(priv) % 8:
        priv += bytes([pad])
        pad += 1
    blob = b"openssh-key-v1\x00" + sshstr(b"none") + sshstr(b"none") + sshstr(b"")
    blob += (1).to_bytes(4, "big") + sshstr(pubblob) + sshstr(priv)
    body = b64(blob)
    lines = [body[i : i + 70] for i in range(0, len(body), 70)]
    text = "-----BEGIN OPENSSH PRIVATE KEY-----\n" + "\n".join(lines) + "\n-----END OPENSSH PRIVATE KEY-----"
    return text, f"ssh-ed25519 {b64(pubblob)} {comment}"


def ssh_ecdsa_public(comment: str) -> str:
    pub = ec_point_bytes(ec_mul(R.randrange(1, P256_N)))
    blob = sshstr(b"ecdsa-sha2-nistp256") + sshstr(b"nistp256") + sshstr(pub)
    return f"ecdsa-sha2-nistp256 {b64(blob)} {comment}"


def ssh_fingerprint(public_line: str) -> str:
    blob = base64.b64decode(public_line.split()[1])
    return "SHA256:" + b64(sha256(blob)).rstrip("=")


def putty_ed25519(seed: bytes, comment: str) -> str:
    pub = ed25519_public(seed)
    pubblob = sshstr(b"ssh-ed25519") + sshstr(pub)
    privblob = sshstr(seed)
    macdata = sshstr(b"ssh-ed25519") + sshstr(b"none") + sshstr(comment.encode()) + sshstr(pubblob) + sshstr(privblob)
    mac = hmac.new(b"", macdata, hashlib.sha256).hexdigest()
    pub_b64, priv_b64 = b64(pubblob), b64(privblob)
    pub_lines = [pub_b64[i : i + 64] for i in range(0, len(pub_b64), 64)]
    priv_lines = [priv_b64[i : i + 64] for i in range(0, len(priv_b64), 64)]
    return "\n".join(
        [
            "PuTTY-User-Key-File-3: ssh-ed25519",
            "Encryption: none",
            f"Comment: {comment}",
            f"Public-Lines: {len(pub_lines)}",
            *pub_lines,
            f"Private-Lines: {len(priv_lines)}",
            *priv_lines,
            f"Private-MAC: {mac}",
        ]
    )


def _pgp_packet(tag: int, body: bytes) -> bytes:
    n = len(body)
    if n < 192:
        head = bytes([n])
    elif n < 8384:
        head = bytes([((n - 192) >> 8) + 192, (n - 192) & 0xFF])
    else:
        head = b"\xff" + n.to_bytes(4, "big")
    return bytes([0xC0 | tag]) + head + body


def _mpi(data: bytes) -> bytes:
    n = int.from_bytes(data, "big")
    return n.bit_length().to_bytes(2, "big") + n.to_bytes((n.bit_length() + 7) // 8, "big")


def _pgp_sub(kind: int, data: bytes) -> bytes:
    return bytes([len(data) + 1, kind]) + data


PGP_ED25519_OID = bytes.fromhex("2B06010401DA470F01")


def pgp_armor(label: str, data: bytes, comment: str | None) -> str:
    body = b64(data)
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    head = f"-----BEGIN PGP {label}-----\n" + (f"Comment: {comment}\n" if comment else "") + "\n"
    tail = "=" + b64(crc24(data).to_bytes(3, "big")) + f"\n-----END PGP {label}-----"
    return head + "\n".join(lines) + "\n" + tail


def pgp_ed25519(seed: bytes, uid: str, created: int, secret: bool) -> tuple[str, str]:
    """An armored v4 EdDSA key (key packet, user id, self-signature with a real Ed25519 signature) and its fingerprint."""
    pub = ed25519_public(seed)
    pub_body = b"\x04" + created.to_bytes(4, "big") + b"\x16" + bytes([len(PGP_ED25519_OID)]) + PGP_ED25519_OID
    pub_body += _mpi(b"\x40" + pub)
    fpr = sha1(b"\x99" + len(pub_body).to_bytes(2, "big") + pub_body)
    uid_b = uid.encode()
    hashed = _pgp_sub(2, created.to_bytes(4, "big")) + _pgp_sub(27, b"\x03") + _pgp_sub(33, b"\x04" + fpr)
    hashed += _pgp_sub(11, b"\x09\x08\x07\x02")
    sig_data = b"\x04\x13\x16\x08" + len(hashed).to_bytes(2, "big") + hashed
    digest = sha256(
        b"\x99"
        + len(pub_body).to_bytes(2, "big")
        + pub_body
        + b"\xb4"
        + len(uid_b).to_bytes(4, "big")
        + uid_b
        + sig_data
        + b"\x04\xff"
        + len(sig_data).to_bytes(4, "big")
    )
    sig = ed25519_sign(seed, digest)
    unhashed = _pgp_sub(16, fpr[-8:])
    sig_body = sig_data + len(unhashed).to_bytes(2, "big") + unhashed + digest[:2] + _mpi(sig[:32]) + _mpi(sig[32:])
    if secret:
        sec = _mpi(seed)
        key_packet = _pgp_packet(5, pub_body + b"\x00" + sec + (sum(sec) & 0xFFFF).to_bytes(2, "big"))
        label = "PRIVATE KEY BLOCK"
    else:
        key_packet = _pgp_packet(6, pub_body)
        label = "PUBLIC KEY BLOCK"
    data = key_packet + _pgp_packet(13, uid_b) + _pgp_packet(2, sig_body)
    return pgp_armor(label, data, None), fpr.hex().upper()


# ---------------------------------------------------------------------------------------------------- macaroons (PyPI)


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _mfield(kind: int, data: bytes) -> bytes:
    return bytes([kind]) + _varint(len(data)) + data


def pypi_token(project: str | None) -> str:
    """A v2 macaroon with location ``pypi.org`` and a real HMAC-SHA-256 caveat chain, as PyPI issues them."""
    key = rb(32)
    ident = ruuid().encode()
    sig = hmac.new(key, ident, hashlib.sha256).digest()
    perms: object = {"projects": [project]} if project else "user"
    caveats = [json.dumps({"version": 1, "permissions": perms}, separators=(",", ":")).encode()]
    if chance(0.5):
        caveats.append(
            json.dumps({"nbf": 1735689600 + R.randrange(10**7), "exp": 1767225600 + R.randrange(10**7)}).encode()
        )
    out = b"\x02" + _mfield(1, b"pypi.org") + _mfield(2, ident) + b"\x00"
    for cav in caveats:
        sig = hmac.new(sig, cav, hashlib.sha256).digest()
        out += _mfield(2, cav) + b"\x00"
    out += b"\x00" + _mfield(6, sig)
    return "pypi-" + b64u(out)


# ---------------------------------------------------------------------------------------------------- self tests


def _sha3_matches() -> bool:
    return all(keccak256(x, 0x06) == hashlib.sha3_256(x).digest() for x in (b"", b"abc", bytes(range(256)) * 2))


def _p256_ok() -> bool:
    gx, gy = P256_G
    return gy * gy % P256_P == (gx**3 - 3 * gx + P256_B) % P256_P and ec_mul(P256_N) is None


def _jwt_io_ok() -> bool:
    signing = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ"
    return b64u(hmac.new(b"your-256-bit-secret", signing.encode(), hashlib.sha256).digest()) == JWT_IO_SIG


def self_test() -> None:
    """Check the hand-written primitives against published test vectors before generating anything."""
    seed = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
    alice = bytes.fromhex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a")
    ed_sig = "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
    bip173 = segwit_address(0, bytes.fromhex("751e76e8199196d454941c45d1b3a323f1433bd6"))
    checks = [
        (
            "Ed25519 public key (RFC 8032 test 1)",
            lambda: ed25519_public(seed).hex() == "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
        ),
        ("Ed25519 signature (RFC 8032 test 1)", lambda: ed25519_sign(seed, b"").hex() == ed_sig),
        (
            "X25519 (RFC 7748)",
            lambda: (
                x25519(alice, (9).to_bytes(32, "little")).hex()
                == "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"
            ),
        ),
        ("Keccak permutation against hashlib.sha3_256", _sha3_matches),
        (
            "Keccak-256 of the empty string",
            lambda: keccak256(b"").hex() == "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470",
        ),
        (
            "EIP-55",
            lambda: all(
                eip55(bytes.fromhex(a[2:])) == a
                for a in ("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359")
            ),
        ),
        ("secp256k1 address of private key 1", lambda: eth_address(1) == "0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf"),
        ("BIP 173", lambda: bip173 == "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"),
        ("CRC-16/XMODEM check value", lambda: crc16_xmodem(b"123456789") == 0x31C3),
        ("CRC-24/OpenPGP check value", lambda: crc24(b"123456789") == 0x21CF02),
        ("P-256 parameters", _p256_ok),
        ("jwt.io example token", _jwt_io_ok),
        ("Luhn on the test cards", lambda: all(luhn_ok(c) for c in TEST_CARDS)),
    ]
    for name, ok in checks:
        if not ok():
            raise RuntimeError(f"self-test failed: {name}")


JWT_IO_SIG = "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
TEST_CARDS = [
    "4242424242424242",
    "4000056655665556",
    "5555555555554444",
    "2223003122003222",
    "5200828282828210",
    "378282246310005",
    "371449635398431",
    "6011111111111117",
    "3056930009020004",
    "3566002020360505",
    "6200000000000005",
    "4111111111111111",
    "4012888888881881",
    "5105105105105100",
    "4000000000003220",
]


# ---------------------------------------------------------------------------------------------------- languages

LANGS = ["en", "es", "de", "fr", "pt", "it", "nl", "pl", "ja", "zh"]
LANG_NAMES = {
    "en": "English",
    "es": "Spanish",
    "de": "German",
    "fr": "French",
    "pt": "Portuguese",
    "it": "Italian",
    "nl": "Dutch",
    "pl": "Polish",
    "ja": "Japanese",
    "zh": "Chinese",
}

# Sentences that introduce a secret in English prose; {L} is the label, {V} the value.
EN_PHRASES = [
    "The {L} is {V}.",
    "{L}: {V}",
    "{L} = {V}",
    "Use {V} for the {L}.",
    "Set the {L} to {V} this morning.",
    "New {L} after the rotation: {V}",
    "Rotated the {L}; the new one is {V} .",
    "{V} is the {L} - don't share it.",
    "For reference, {L} -> {V}",
    "Ops handed me {V} as the {L}.",
    "Note to self: {L} is {V}",
    "If the deploy fails, check that the {L} still equals {V}.",
    "The {L} we got from the vendor: {V}",
    "I pasted {V} into the {L} field and it worked.",
    "Remember the {L} ({V}) expires at the end of the quarter.",
    "Temporary {L}: {V} (delete after the migration)",
    "Jamie says the {L} is {V}.",
    "Current {L} \u2014 {V}",
    "{L} (prod): {V}",
    "Saving this here so I don't lose it: {L} {V}",
    "Login worked with {V} as the {L}.",
    "Don't forget the {L}: {V}",
    "The old {L} was revoked; use {V} from now on.",
    "Here's the {L} you asked for: {V}",
    "Can you try {V}? That should be the {L}.",
    "Got the {L} from the admin console: {V}",
    "In case the vault is down, the {L} is {V}.",
    "{L}, copied from the dashboard: {V}",
    "Quick note \u2014 {L} = {V}",
    "After the reset, the {L} became {V}.",
    "We're using {V} as the {L} until Friday.",
    "The {L} for staging is {V}.",
    "Paste {V} when it prompts for the {L}.",
    "Typed {V} for the {L} and got in.",
    "My {L}: {V}",
    "Our {L} is literally {V}, please change it.",
    "FYI the {L} ends up being {V}.",
    "Looks like the {L} is {V} (found it in the old wiki).",
    "It wants the {L}; give it {V}.",
    "I generated a fresh {L}: {V}",
    "Backup copy of the {L}: {V}",
    "The {L} lives in the vault, but for now: {V}",
    "Double-check: is the {L} still {V}?",
    "Sharing the {L} over chat, sorry: {V}",
    "Replace the placeholder with {V} (the {L}).",
    "It only worked once I exported the {L} as {V}.",
    "The contractor's {L} was {V}.",
    "Key point from the call: the {L} is {V}.",
    "According to the handover doc the {L} is {V}.",
    "{V} <- that's the {L}.",
    "Just in case: {L} {V}",
    "The {L} ({V}) is also used by the nightly cron job.",
    "The password manager entry says {L} = {V}.",
    "Finally found the {L}: {V}",
    "Reminder that {V} is the {L} for the shared account.",
    "The support engineer read out the {L} as {V}.",
    "When asked for the {L}, enter {V}.",
    "I'll keep the {L} here for now: {V}",
    "The old laptop had the {L} saved as {V}.",
    "Confirmed the {L} is {V} by logging in.",
    "The {L} that finally worked: {V}",
    "Write down the {L} somewhere safe: {V}",
    "Fallback {L} if SSO breaks: {V}",
    "Added {V} as the {L} in the CI settings.",
    "You'll need the {L}, which is {V}.",
    "Changed the {L} to {V}; tell the team.",
    "The {L} printed by the setup script was {V}.",
    "Heads up, the {L} is now {V}.",
    "Mind you, {V} is still the live {L}.",
    "Priya rotated it, so the {L} should read {V} now.",
]

PHRASES = {
    "es": [
        "El valor de {L} es {V}.",
        "{L}: {V}",
        "Nuevo valor de {L} tras la rotación: {V}",
        "Usa {V} como {L}.",
        "Lo apunto aquí para no perderlo: {L} = {V}",
        "Si te pide {L}, pon {V}.",
        "He cambiado {L}, ahora es {V}.",
        "{V} es {L}, no lo compartas.",
        "Me lo pasó el admin ({L}): {V}",
        "Nota: {L} \u2192 {V}",
        "Ojo, {L} sigue siendo {V} hasta el viernes.",
    ],
    "de": [
        "Der Wert für {L} ist {V}.",
        "{L}: {V}",
        "Neu nach der Rotation \u2013 {L}: {V}",
        "Bitte {V} als {L} eintragen.",
        "Zur Erinnerung: {L} lautet {V}",
        "Falls nach {L} gefragt wird: {V}",
        "Hab {L} geändert, jetzt {V}.",
        "{V} ist {L}, nicht weitergeben!",
        "Vom Admin bekommen ({L}): {V}",
        "Notiz: {L} = {V}",
        "Achtung, {L} ist immer noch {V}.",
    ],
    "fr": [
        "La valeur de {L} est {V}.",
        "{L} : {V}",
        "Nouvelle valeur de {L} après la rotation : {V}",
        "Utilise {V} comme {L}.",
        "Pour mémoire, {L} = {V}",
        "Si on te demande {L}, mets {V}.",
        "J'ai changé {L}, c'est maintenant {V}.",
        "{V} correspond à {L}, ne pas partager.",
        "Reçu de l'admin ({L}) : {V}",
        "Note : {L} \u2192 {V}",
        "Attention, {L} reste {V} jusqu'à vendredi.",
    ],
    "pt": [
        "O valor de {L} é {V}.",
        "{L}: {V}",
        "Novo valor de {L} depois da rotação: {V}",
        "Usa {V} como {L}.",
        "Pra não esquecer: {L} = {V}",
        "Se pedir {L}, coloca {V}.",
        "Troquei {L}, agora é {V}.",
        "{V} é {L}, não compartilhe.",
        "O admin me passou ({L}): {V}",
        "Anotação: {L} \u2192 {V}",
        "Atenção, {L} continua {V} até sexta.",
    ],
    "it": [
        "Il valore di {L} è {V}.",
        "{L}: {V}",
        "Nuovo valore di {L} dopo la rotazione: {V}",
        "Usa {V} come {L}.",
        "Promemoria: {L} = {V}",
        "Se chiede {L}, inserisci {V}.",
        "Ho cambiato {L}, ora è {V}.",
        "{V} è {L}, non condividerlo.",
        "Ricevuto dall'admin ({L}): {V}",
        "Nota: {L} \u2192 {V}",
        "Attenzione, {L} resta {V} fino a venerdì.",
    ],
    "nl": [
        "De waarde van {L} is {V}.",
        "{L}: {V}",
        "Nieuwe waarde van {L} na de rotatie: {V}",
        "Gebruik {V} als {L}.",
        "Geheugensteuntje: {L} = {V}",
        "Als om {L} wordt gevraagd, vul {V} in.",
        "Ik heb {L} gewijzigd, nu {V}.",
        "{V} is {L}, niet delen.",
        "Van de beheerder gekregen ({L}): {V}",
        "Notitie: {L} \u2192 {V}",
        "Let op, {L} blijft {V} tot vrijdag.",
    ],
    "pl": [
        "Wartość {L} to {V}.",
        "{L}: {V}",
        "Nowa wartość {L} po rotacji: {V}",
        "Użyj {V} jako {L}.",
        "Dla pamięci: {L} = {V}",
        "Jeśli zapyta o {L}, wpisz {V}.",
        "Zmieniłem {L}, teraz to {V}.",
        "{V} to {L}, nie udostępniaj.",
        "Od admina ({L}): {V}",
        "Notatka: {L} \u2192 {V}",
        "Uwaga, {L} to nadal {V} do piątku.",
    ],
    "ja": [
        "{L}は {V} です。",
        "{L}\uff1a{V}",
        "ローテーション後の新しい{L}: {V}",
        "{L}として {V} を使ってください。",
        "忘れないようにメモ: {L} = {V}",
        "{L}を聞かれたら {V} を入力。",
        "{L}を変更しました。今は {V} です。",
        "{V} は{L}なので共有しないこと。",
        "管理者から受け取った{L}: {V}",
        "メモ\uff1a{L} \u2192 {V}",
        "金曜日までは{L}は {V} のままです。",
    ],
    "zh": [
        "{L}是 {V}。",
        "{L}\uff1a{V}",
        "轮换后的新{L}\uff1a{V}",
        "请使用 {V} 作为{L}。",
        "备忘\uff1a{L} = {V}",
        "如果提示输入{L}\uff0c填 {V}。",
        "我把{L}改成了 {V}。",
        "{V} 是{L}\uff0c不要外传。",
        "管理员给的{L}\uff1a{V}",
        "笔记\uff1a{L} \u2192 {V}",
        "周五之前{L}还是 {V}。",
    ],
}

# A label on its own line, the value on the next one.
NEXTLINE = {
    "en": ["{L}:", "{L} (copy exactly):", "{L} below", "{L} \u2193", "Here is the {L}:"],
    "es": ["{L}:", "{L} (copiar tal cual):"],
    "de": ["{L}:", "{L} (genau so kopieren):"],
    "fr": ["{L} :", "{L} (à copier tel quel) :"],
    "pt": ["{L}:", "{L} (copiar exatamente):"],
    "it": ["{L}:", "{L} (copiare così com'è):"],
    "nl": ["{L}:", "{L} (precies zo kopiëren):"],
    "pl": ["{L}:", "{L} (skopiuj dokładnie):"],
    "ja": ["{L}:", "{L}\uff08そのままコピー\uff09:"],
    "zh": ["{L}:", "{L}\uff08原样复制\uff09:"],
}

# Neutral sentences around a public value (look-alike).
LA_PHRASES = {
    "en": [
        "{L}: {V}",
        "The {L} is {V}.",
        "See {L} {V} for details.",
        "Pinned the {L} to {V}.",
        "({L} {V})",
        "Logged {L} {V} in the tracker.",
        "For the record, {L} {V} is public and fine to share.",
        "Compare against {L} {V} before merging.",
    ],
    "es": ["{L}: {V}", "Referencia ({L}): {V}", "Para comparar, {L} {V}."],
    "de": ["{L}: {V}", "Referenz ({L}): {V}", "Zum Vergleich: {L} {V}."],
    "fr": ["{L} : {V}", "Référence ({L}) : {V}", "Pour comparer, {L} {V}."],
    "pt": ["{L}: {V}", "Referência ({L}): {V}", "Para comparar, {L} {V}."],
    "it": ["{L}: {V}", "Riferimento ({L}): {V}", "Per confronto, {L} {V}."],
    "nl": ["{L}: {V}", "Referentie ({L}): {V}", "Ter vergelijking: {L} {V}."],
    "pl": ["{L}: {V}", "Odniesienie ({L}): {V}", "Dla porównania: {L} {V}."],
    "ja": ["{L}: {V}", "参考\uff08{L}\uff09: {V}", "比較用の{L}は {V} です。"],
    "zh": ["{L}: {V}", "参考\uff08{L}\uff09: {V}", "对比用的{L}是 {V}。"],
}

# Labels of everyday secrets, translated; provider labels stay in English in every language.
CONCEPTS = {
    "wifi": {
        "en": ["home Wi-Fi password", "Wi-Fi password", "WPA2 passphrase", "guest Wi-Fi password"],
        "es": ["la contraseña del wifi de casa", "clave del wifi"],
        "de": ["das WLAN-Passwort", "WLAN-Schlüssel"],
        "fr": ["le mot de passe du wifi", "clé WPA du wifi"],
        "pt": ["a senha do wifi de casa", "senha do wifi"],
        "it": ["la password del wifi di casa", "password wifi"],
        "nl": ["het wifi-wachtwoord", "wifi-wachtwoord thuis"],
        "pl": ["hasło do wifi", "hasło do domowego wifi"],
        "ja": ["自宅Wi-Fiのパスワード", "Wi-Fiパスワード"],
        "zh": ["家里Wi-Fi密码", "无线网密码"],
    },
    "router": {
        "en": ["router admin password", "password for the router's web UI", "NAS admin password"],
        "es": ["la contraseña de administración del router"],
        "de": ["das Router-Admin-Passwort", "Passwort der Fritzbox"],
        "fr": ["le mot de passe admin de la box"],
        "pt": ["a senha de admin do roteador"],
        "it": ["la password admin del router"],
        "nl": ["het beheerderswachtwoord van de router"],
        "pl": ["hasło administratora routera"],
        "ja": ["ルーター管理画面のパスワード"],
        "zh": ["路由器管理密码"],
    },
    "pin": {
        "en": ["phone unlock PIN", "banking app PIN", "loyalty card PIN", "voicemail PIN", "debit card app PIN"],
        "es": ["el PIN de la app del banco", "PIN del móvil"],
        "de": ["die PIN der Banking-App", "Handy-PIN"],
        "fr": ["le code PIN de l'appli bancaire", "code de déverrouillage du téléphone"],
        "pt": ["o PIN do app do banco", "PIN do celular"],
        "it": ["il PIN dell'app della banca", "PIN del telefono"],
        "nl": ["de pincode van de bankapp", "telefoon-pincode"],
        "pl": ["PIN do aplikacji bankowej", "PIN do telefonu"],
        "ja": ["銀行アプリの暗証番号", "スマホのPIN"],
        "zh": ["银行App的PIN码", "手机解锁PIN"],
    },
    "door": {
        "en": ["front door code", "garage keypad code", "alarm disarm code", "building entry code", "key safe code"],
        "es": ["el código de la puerta", "código de la alarma"],
        "de": ["der Türcode", "Code der Alarmanlage"],
        "fr": ["le digicode de l'immeuble", "code de l'alarme"],
        "pt": ["o código da porta", "código do alarme"],
        "it": ["il codice del portone", "codice dell'allarme"],
        "nl": ["de deurcode", "code van het alarm"],
        "pl": ["kod do drzwi", "kod alarmu"],
        "ja": ["玄関のオートロック番号", "警報装置の解除コード"],
        "zh": ["门禁密码", "报警器解除码"],
    },
    "puk": {
        "en": ["SIM PUK code", "PUK for the work SIM"],
        "es": ["el PUK de la SIM"],
        "de": ["die PUK der SIM-Karte"],
        "fr": ["le code PUK de la carte SIM"],
        "pt": ["o PUK do chip"],
        "it": ["il PUK della SIM"],
        "nl": ["de PUK-code van de simkaart"],
        "pl": ["kod PUK karty SIM"],
        "ja": ["SIMのPUKコード"],
        "zh": ["SIM卡的PUK码"],
    },
    "recovery": {
        "en": ["2FA backup codes", "recovery codes", "one-time backup codes"],
        "es": ["los códigos de recuperación"],
        "de": ["die Wiederherstellungscodes"],
        "fr": ["les codes de secours"],
        "pt": ["os códigos de recuperação"],
        "it": ["i codici di recupero"],
        "nl": ["de herstelcodes"],
        "pl": ["kody zapasowe"],
        "ja": ["二段階認証のバックアップコード"],
        "zh": ["两步验证的备用码"],
    },
    "password": {
        "en": ["password", "login password", "account password"],
        "es": ["la contraseña"],
        "de": ["das Passwort"],
        "fr": ["le mot de passe"],
        "pt": ["a senha"],
        "it": ["la password"],
        "nl": ["het wachtwoord"],
        "pl": ["hasło"],
        "ja": ["パスワード"],
        "zh": ["密码"],
    },
    "bank": {
        "en": ["online banking password", "password for the bank portal", "insurance portal password"],
        "es": ["la contraseña de la banca online"],
        "de": ["das Onlinebanking-Passwort"],
        "fr": ["le mot de passe de la banque en ligne"],
        "pt": ["a senha do internet banking"],
        "it": ["la password dell'home banking"],
        "nl": ["het wachtwoord van internetbankieren"],
        "pl": ["hasło do bankowości internetowej"],
        "ja": ["ネットバンキングのパスワード"],
        "zh": ["网银登录密码"],
    },
    "master": {
        "en": ["password manager master password", "Bitwarden master password", "1Password account password"],
        "es": ["la contraseña maestra del gestor"],
        "de": ["das Master-Passwort des Passwortmanagers"],
        "fr": ["le mot de passe maître du gestionnaire"],
        "pt": ["a senha mestra do gerenciador"],
        "it": ["la password principale del gestore"],
        "nl": ["het hoofdwachtwoord van de wachtwoordmanager"],
        "pl": ["hasło główne menedżera haseł"],
        "ja": ["パスワードマネージャーのマスターパスワード"],
        "zh": ["密码管理器主密码"],
    },
    "licence": {
        "en": ["licence key", "product key", "serial key for the software"],
        "es": ["la clave de licencia"],
        "de": ["der Lizenzschlüssel"],
        "fr": ["la clé de licence"],
        "pt": ["a chave de licença"],
        "it": ["la chiave di licenza"],
        "nl": ["de licentiesleutel"],
        "pl": ["klucz licencyjny"],
        "ja": ["ライセンスキー"],
        "zh": ["软件许可证密钥"],
    },
    "disk": {
        "en": ["BitLocker recovery key", "disk encryption recovery key"],
        "es": ["la clave de recuperación de BitLocker"],
        "de": ["der BitLocker-Wiederherstellungsschlüssel"],
        "fr": ["la clé de récupération BitLocker"],
        "pt": ["a chave de recuperação do BitLocker"],
        "it": ["la chiave di ripristino BitLocker"],
        "nl": ["de BitLocker-herstelsleutel"],
        "pl": ["klucz odzyskiwania BitLocker"],
        "ja": ["BitLockerの回復キー"],
        "zh": ["BitLocker恢复密钥"],
    },
    "answer": {
        "en": ["security question answer", "answer to the security question", "memorable word for the bank"],
        "es": ["la respuesta a la pregunta de seguridad"],
        "de": ["die Antwort auf die Sicherheitsfrage"],
        "fr": ["la réponse à la question secrète"],
        "pt": ["a resposta da pergunta de segurança"],
        "it": ["la risposta alla domanda di sicurezza"],
        "nl": ["het antwoord op de beveiligingsvraag"],
        "pl": ["odpowiedź na pytanie bezpieczeństwa"],
        "ja": ["秘密の質問の答え"],
        "zh": ["安全问题的答案"],
    },
}

FILLER = {
    "es": [
        "Hoy por fin terminé la migración del servicio de pagos.",
        "Mañana revisamos los logs con el equipo de plataforma.",
        "El despliegue de la versión nueva falló dos veces por un timeout.",
        "Hay que actualizar la documentación antes del viernes.",
        "La reunión con el proveedor se movió al martes a las diez.",
        "Recordar renovar el seguro del coche este mes.",
        "El técnico viene el jueves a revisar la caldera.",
        "Los tests de integración tardan casi veinte minutos.",
        "Pendiente: pedir acceso al bucket de staging.",
        "Quedamos en rotar todas las credenciales después del incidente.",
        "El cliente reportó errores 502 intermitentes desde el lunes.",
        "Todavía no sabemos por qué se llena el disco del nodo tres.",
    ],
    "de": [
        "Heute endlich die Migration des Zahlungsdienstes abgeschlossen.",
        "Morgen gehen wir die Logs mit dem Plattform-Team durch.",
        "Das Deployment der neuen Version ist zweimal am Timeout gescheitert.",
        "Die Doku muss bis Freitag aktualisiert werden.",
        "Das Treffen mit dem Dienstleister wurde auf Dienstag verschoben.",
        "Nicht vergessen, die Kfz-Versicherung diesen Monat zu verlängern.",
        "Der Techniker kommt am Donnerstag wegen der Heizung.",
        "Die Integrationstests dauern fast zwanzig Minuten.",
        "Offen: Zugriff auf den Staging-Bucket beantragen.",
        "Wir rotieren nach dem Vorfall alle Zugangsdaten.",
        "Der Kunde meldet seit Montag sporadische 502-Fehler.",
        "Warum die Platte auf Knoten drei vollläuft, ist noch unklar.",
    ],
    "fr": [
        "Migration du service de paiement enfin terminée aujourd'hui.",
        "Demain on relit les logs avec l'équipe plateforme.",
        "Le déploiement de la nouvelle version a échoué deux fois sur un timeout.",
        "Il faut mettre la doc à jour avant vendredi.",
        "La réunion avec le prestataire est décalée à mardi dix heures.",
        "Penser à renouveler l'assurance auto ce mois-ci.",
        "Le technicien passe jeudi pour la chaudière.",
        "Les tests d'intégration prennent presque vingt minutes.",
        "À faire : demander l'accès au bucket de préprod.",
        "On a convenu de faire tourner tous les identifiants après l'incident.",
        "Le client signale des erreurs 502 intermittentes depuis lundi.",
        "On ne sait toujours pas pourquoi le disque du nœud trois se remplit.",
    ],
    "pt": [
        "Hoje finalmente terminei a migração do serviço de pagamentos.",
        "Amanhã revisamos os logs com o time de plataforma.",
        "O deploy da versão nova falhou duas vezes por timeout.",
        "Precisamos atualizar a documentação até sexta.",
        "A reunião com o fornecedor foi remarcada para terça às dez.",
        "Lembrar de renovar o seguro do carro este mês.",
        "O técnico vem na quinta ver o aquecedor.",
        "Os testes de integração levam quase vinte minutos.",
        "Pendente: pedir acesso ao bucket de homologação.",
        "Combinamos de rotacionar todas as credenciais depois do incidente.",
        "O cliente relatou erros 502 intermitentes desde segunda.",
        "Ainda não sabemos por que o disco do nó três está enchendo.",
    ],
    "it": [
        "Oggi ho finalmente chiuso la migrazione del servizio pagamenti.",
        "Domani rivediamo i log con il team piattaforma.",
        "Il deploy della nuova versione è fallito due volte per timeout.",
        "Bisogna aggiornare la documentazione entro venerdì.",
        "La riunione con il fornitore è stata spostata a martedì alle dieci.",
        "Ricordarsi di rinnovare l'assicurazione dell'auto questo mese.",
        "Il tecnico passa giovedì per la caldaia.",
        "I test di integrazione durano quasi venti minuti.",
        "Da fare: chiedere l'accesso al bucket di staging.",
        "Abbiamo deciso di ruotare tutte le credenziali dopo l'incidente.",
        "Il cliente segnala errori 502 intermittenti da lunedì.",
        "Non sappiamo ancora perché il disco del nodo tre si riempie.",
    ],
    "nl": [
        "Vandaag eindelijk de migratie van de betaaldienst afgerond.",
        "Morgen lopen we de logs door met het platformteam.",
        "De uitrol van de nieuwe versie faalde twee keer op een time-out.",
        "De documentatie moet voor vrijdag bijgewerkt zijn.",
        "Het overleg met de leverancier is verzet naar dinsdag tien uur.",
        "Niet vergeten de autoverzekering deze maand te verlengen.",
        "De monteur komt donderdag voor de cv-ketel.",
        "De integratietests duren bijna twintig minuten.",
        "Nog doen: toegang tot de staging-bucket aanvragen.",
        "We hebben afgesproken na het incident alle inloggegevens te roteren.",
        "De klant meldt sinds maandag af en toe 502-fouten.",
        "Waarom de schijf van node drie volloopt is nog onduidelijk.",
    ],
    "pl": [
        "Dziś wreszcie skończyłem migrację serwisu płatności.",
        "Jutro przeglądamy logi z zespołem platformy.",
        "Wdrożenie nowej wersji dwa razy padło na timeoucie.",
        "Trzeba zaktualizować dokumentację do piątku.",
        "Spotkanie z dostawcą przeniesione na wtorek na dziesiątą.",
        "Pamiętać o odnowieniu ubezpieczenia samochodu w tym miesiącu.",
        "Serwisant przyjdzie w czwartek do pieca.",
        "Testy integracyjne trwają prawie dwadzieścia minut.",
        "Do zrobienia: poprosić o dostęp do bucketu stagingowego.",
        "Ustaliliśmy, że po incydencie rotujemy wszystkie dane dostępowe.",
        "Klient zgłasza sporadyczne błędy 502 od poniedziałku.",
        "Nadal nie wiemy, dlaczego zapełnia się dysk na węźle trzecim.",
    ],
    "ja": [
        "今日やっと決済サービスの移行が終わった。",
        "明日はプラットフォームチームとログを確認する。",
        "新バージョンのデプロイがタイムアウトで二回失敗した。",
        "金曜日までにドキュメントを更新する必要がある。",
        "ベンダーとの打ち合わせは火曜日の十時に変更。",
        "今月中に車の保険を更新すること。",
        "木曜日に給湯器の点検が来る。",
        "結合テストに二十分近くかかっている。",
        "TODO: ステージングのバケットへのアクセスを申請する。",
        "インシデントの後で認証情報をすべてローテーションすることにした。",
        "月曜日から断続的に502エラーが出ているとお客様から報告あり。",
        "\u30ceード3のディスクが埋まる原因はまだ不明。",
    ],
    "zh": [
        "今天终于完成了支付服务的迁移。",
        "明天和平台组一起看日志。",
        "新版本部署因为超时失败了两次。",
        "周五之前需要更新文档。",
        "和供应商的会议改到周二上午十点。",
        "记得这个月续保车险。",
        "周四师傅来检查热水器。",
        "集成测试要跑将近二十分钟。",
        "待办\uff1a申请预发环境存储桶的访问权限。",
        "事故之后我们决定轮换所有凭据。",
        "客户反馈从周一开始偶尔出现502错误。",
        "还不清楚三号节点的磁盘为什么会被写满。",
    ],
}

COMMENTS = {
    "en": [
        "TODO: move this to the secret store before the audit",
        "temporary, remove after the migration",
        "values for the staging environment",
        "do not commit (again)",
        "copied from the old server",
        "rotated on Monday",
        "ask Priya before changing anything here",
        "local overrides",
        "shared with the data team",
        "kept here until the vault is set up",
    ],
    "es": [
        "TODO: mover esto al gestor de secretos",
        "temporal, borrar tras la migración",
        "valores de staging",
        "copiado del servidor viejo",
    ],
    "de": [
        "TODO: in den Secret-Store verschieben",
        "vorübergehend, nach der Migration löschen",
        "Werte für Staging",
        "vom alten Server kopiert",
    ],
    "fr": [
        "TODO : déplacer dans le coffre à secrets",
        "temporaire, à supprimer après la migration",
        "valeurs de préprod",
        "copié depuis l'ancien serveur",
    ],
    "pt": [
        "TODO: mover para o cofre de segredos",
        "temporário, apagar depois da migração",
        "valores de homologação",
        "copiado do servidor antigo",
    ],
    "it": [
        "TODO: spostare nel secret store",
        "temporaneo, rimuovere dopo la migrazione",
        "valori per lo staging",
        "copiato dal vecchio server",
    ],
    "nl": [
        "TODO: naar de secret store verplaatsen",
        "tijdelijk, na de migratie verwijderen",
        "waarden voor staging",
        "gekopieerd van de oude server",
    ],
    "pl": [
        "TODO: przenieść do sejfu na sekrety",
        "tymczasowe, usunąć po migracji",
        "wartości dla stagingu",
        "skopiowane ze starego serwera",
    ],
    "ja": [
        "TODO: シークレットストアに移すこと",
        "一時的な設定、移行後に削除",
        "ステージング環境の値",
        "旧サーバーからコピー",
    ],
    "zh": ["TODO\uff1a迁移到密钥管理服务", "临时配置\uff0c迁移后删除", "预发环境的配置", "从旧服务器复制过来的"],
}

TITLES = {
    "en": ["Notes", "Status", "Follow-up", "Working notes", "Summary"],
    "es": ["Notas", "Seguimiento", "Resumen"],
    "de": ["Notizen", "Nachtrag", "Zusammenfassung"],
    "fr": ["Notes", "Suivi", "Résumé"],
    "pt": ["Anotações", "Acompanhamento", "Resumo"],
    "it": ["Appunti", "Aggiornamento", "Riepilogo"],
    "nl": ["Aantekeningen", "Opvolging", "Samenvatting"],
    "pl": ["Notatki", "Podsumowanie", "Ustalenia"],
    "ja": ["メモ", "作業記録", "まとめ"],
    "zh": ["笔记", "工作记录", "总结"],
}

# ---------------------------------------------------------------------------------------------------- English filler

EN_DEV = [
    "Spent the morning chasing a flaky test in the billing module.",
    "The staging deploy is green again after pinning the base image.",
    "We agreed to move config into the secret manager next sprint.",
    "Latency on the search endpoint doubled after the index rebuild.",
    "Migrated the cron jobs to the new scheduler; two still fail on retries.",
    "The webhook handler now verifies signatures before parsing the body.",
    "Need to bump the SDK before the old API version is retired.",
    "Local dev works with docker compose, prod uses the Helm chart.",
    "CI takes 14 minutes; most of it is the integration suite.",
    "Rollback plan: redeploy the previous tag and flush the cache.",
    "The queue consumer crashes when a message has no tenant field.",
    "Feature flag for the new checkout is at 20% of traffic.",
    "Reminder: the certificate on the internal gateway renews itself via ACME.",
    "Code freeze starts Thursday at noon.",
    "Added retries with jitter to the upstream client.",
    "The mobile team needs the new endpoint documented by Monday.",
    "Switched the ORM to lazy loading for the reports page.",
    "Database connection pool was exhausted during the load test.",
    "The terraform plan shows three resources to replace; double-check before applying.",
    "Nobody remembers why the legacy importer runs at 03:17.",
]
EN_OPS = [
    "Paged at 02:40 for elevated 5xx on the edge.",
    "Traffic recovered after scaling the worker pool to twelve replicas.",
    "Root cause: an expired credential in the sync job.",
    "Customer impact was limited to EU tenants for about 35 minutes.",
    "Action item: add an alert on token expiry.",
    "Disk on the primary filled up because log rotation was disabled.",
    "Failover to the replica took longer than the runbook says.",
    "We rotated every key that had been in the leaked log bundle.",
    "The status page was updated at 03:05 and again at 03:40.",
    "Next review of this incident is on the 14th.",
]
EN_PERSONAL = [
    "Car insurance renewal is due on the 12th; compare quotes first.",
    "Dentist moved to Tuesday 9:30.",
    "The landlord wants the meter reading by Friday.",
    "Mum's birthday dinner is at the Italian place on Saturday.",
    "Kids' swimming lessons restart in September.",
    "Gym membership auto-renews in March, cancel before then.",
    "Passport expires next year; book the appointment early.",
    "Cleaner comes every other Wednesday.",
    "The boiler service is booked for the 3rd between 8 and 12.",
    "Return the library books before the trip.",
    "Electricity tariff changes in April; check the new rate.",
    "Vet appointment for the cat on Thursday afternoon.",
]
EN_FILLER = EN_DEV + EN_OPS


# ---------------------------------------------------------------------------------------------------- documents, entries, kinds

MARK_BASE = 0xE000
MARK_LIMIT = 0xF000
MARK_CLOSE = "\uf8ff"


@dataclass
class Entry:
    kind: str
    name: str
    label: str
    frag: str
    secret: bool = True
    codes: list[str] = field(default_factory=list)


class Doc:
    def __init__(self, ctx: str, lang: str, family: str) -> None:
        self.ctx = ctx
        self.lang = lang
        self.family = family
        self.table: list[tuple[str, bool, str]] = []
        self.used_filler: set[str] = set()

    def mark(self, kind: str, shown: str, raw: str | None = None, secret: bool = True) -> str:
        idx = len(self.table)
        if MARK_BASE + idx >= MARK_LIMIT:
            raise RuntimeError("too many marked values in one document")
        self.table.append((kind, secret, shown if raw is None else raw))
        return chr(MARK_BASE + idx) + shown + MARK_CLOSE

    def la(self, kind: str, shown: str) -> str:
        return self.mark(kind, shown, secret=False)

    def concept(self, key: str) -> str:
        table = CONCEPTS[key]
        return pick(table.get(self.lang, table["en"]))


@dataclass
class KindInfo:
    name: str
    common: bool
    desc: str
    gen: object = None
    n: int = 15
    where: str = "all"


KINDS: dict[str, KindInfo] = {}
LOOKALIKES: dict[str, KindInfo] = {}


def secret_kind(name: str, common: bool, desc: str, n: int = 15, where: str = "all"):
    def deco(fn):
        KINDS[name] = KindInfo(name, common, desc, fn, n, where)
        return fn

    return deco


def partner_kind(name: str, common: bool, desc: str) -> None:
    KINDS[name] = KindInfo(name, common, desc, None, 0)


def token_kind(name, common, desc, make, names, labels, headers=(), n=15, where="all") -> None:  # noqa: PLR0917 - rows of a data table
    def gen(d: Doc) -> list[Entry]:
        v = make()
        if headers and chance(0.3):
            hname, tmpl = pick(headers)
            return [Entry(name, hname, pick(labels), tmpl.format(d.mark(name, v)))]
        return [Entry(name, pick(names), pick(labels), d.mark(name, v))]

    KINDS[name] = KindInfo(name, common, desc, gen, n, where)


# ---------------------------------------------------------------------------------------------------- shared pools

FIRST = [
    "alex",
    "priya",
    "jonas",
    "mei",
    "tomasz",
    "lucia",
    "sam",
    "noor",
    "ines",
    "dmitri",
    "kenji",
    "ana",
    "olu",
    "freya",
]
SURNAMES = ["Okafor", "Lindqvist", "Moreau", "Tanaka", "Kowalski", "Rossi", "Haddad", "Fischer", "Silva", "Nguyen"]
ORGS = ["acme", "northwind", "globex", "initech", "umbrella", "hooli", "vandelay", "tyrell", "wonka", "stark"]
PROJECTS = ["billing", "checkout", "ledger", "atlas", "orion", "harbor", "quill", "beacon", "nimbus", "falcon", "relay"]
DOMAINS = ["example.com", "example.org", "example.net", "corp.example.com", "internal.example.io"]
DB_HOSTS = [
    "db-prod-1.internal",
    "pg.staging.internal",
    "10.0.3.21",
    "mysql-primary.svc.cluster.local",
    "db.example.com",
    "postgres",
    "localhost",
    "rds-main.c9akciq32.eu-west-1.rds.amazonaws.com",
]
WORDS = [
    "amber",
    "anchor",
    "apple",
    "arrow",
    "autumn",
    "badger",
    "bamboo",
    "banjo",
    "basil",
    "beacon",
    "birch",
    "bishop",
    "blossom",
    "bottle",
    "breeze",
    "bronze",
    "cactus",
    "canyon",
    "carbon",
    "castle",
    "cedar",
    "cherry",
    "cinder",
    "clover",
    "cobalt",
    "comet",
    "copper",
    "coral",
    "cotton",
    "crane",
    "crystal",
    "dahlia",
    "delta",
    "desert",
    "dragon",
    "ember",
    "falcon",
    "fern",
    "fiddle",
    "garnet",
    "ginger",
    "glacier",
    "granite",
    "harbor",
    "hazel",
    "helium",
    "heron",
    "indigo",
    "iris",
    "ivory",
    "jasper",
    "juniper",
    "kettle",
    "kiwi",
    "lagoon",
    "lantern",
    "lemon",
    "lilac",
    "linen",
    "lotus",
    "maple",
    "marble",
    "meadow",
    "mercury",
    "mint",
    "monsoon",
    "mosaic",
    "nectar",
    "nickel",
    "nutmeg",
    "oasis",
    "olive",
    "onyx",
    "orbit",
    "orchid",
    "otter",
    "pebble",
    "pepper",
    "pilot",
    "plum",
    "polar",
    "poppy",
    "prism",
    "quartz",
    "quill",
    "raven",
    "ribbon",
    "river",
    "saffron",
    "salmon",
    "sapphire",
    "sierra",
    "silver",
    "sparrow",
    "spruce",
    "summit",
    "tango",
    "thistle",
    "thunder",
    "tiger",
    "topaz",
    "tulip",
    "tundra",
    "velvet",
    "violet",
    "walnut",
    "willow",
    "winter",
    "zephyr",
]
SYMBOLS = "!@#$%^&*-_=+?.,:;~"
TRICKY = "\"'\\$`%&<>|#"


def username() -> str:
    return pick(FIRST) + pick(["", ".", "_"]) + pick(SURNAMES).lower()[: R.randint(1, 8)]


def email_addr() -> str:
    return f"{pick(FIRST)}.{pick(SURNAMES).lower()}@{pick(DOMAINS)}"


def _pw_random() -> str:
    while True:
        pw = rs(ALNUM + SYMBOLS, R.randint(12, 22))
        if any(c in SYMBOLS for c in pw) and any(c.isdigit() for c in pw):
            return pw


def _pw_leet() -> str:
    w = pick(WORDS) + pick(WORDS)
    w = w.replace("a", "@").replace("o", "0").replace("e", "3").replace("i", "1")
    return w[0].upper() + w[1:] + pick(SYMBOLS) + str(R.randint(100, 999))


def _pw_pron() -> str:
    cons, vow = "bcdfghjklmnprstvz", "aeiou"
    parts = ["".join(pick(cons) + pick(vow) for _ in range(3)) for _ in range(3)]
    return "-".join(p.capitalize() for p in parts) + str(R.randint(10, 99))


def _pw_nospace() -> str:
    while True:
        pw = rs(ALNUM + "!#%*-_=+?.", R.randint(12, 20))
        if any(not c.isalnum() for c in pw):
            return pw


def _pw_tricky() -> str:
    """Quotes, backslashes and shell metacharacters, to exercise every escaping rule."""
    chars = list(rs(ALNUM, R.randint(10, 16)))
    for _ in range(R.randint(2, 3)):
        chars.insert(R.randrange(1, len(chars)), pick(TRICKY))
    return "".join(chars)


PASSWORD_STYLES = {
    "random": _pw_random,
    "word": lambda: pick(WORDS).capitalize() + pick(WORDS).capitalize() + str(R.randint(10, 2029)) + pick("!?#$*."),
    "phrase": lambda: pick("-._").join(pick(WORDS) for _ in range(R.randint(4, 5))) + str(R.randint(1, 99)),
    "phrase_space": lambda: " ".join(pick(WORDS) for _ in range(4)) + " " + str(R.randint(10, 99)),
    "leet": _pw_leet,
    "long": lambda: rs(ALNUM, R.randint(28, 40)),
    "pron": _pw_pron,
    "url": lambda: rs(ALNUM, R.randint(14, 24)) + pick(["", "-", "_", "."]) + rs(ALNUM, 4),
    "nospace": _pw_nospace,
    "tricky": _pw_tricky,
}


def password(style: str | None = None) -> str:
    style = style or pick(["random", "random", "word", "phrase", "leet", "long", "pron", "tricky", "phrase_space"])
    return PASSWORD_STYLES[style]()


def pct(s: str) -> str:
    safe = ALNUM + "-._~"
    return "".join(c if c in safe else "".join(f"%{b:02X}" for b in c.encode()) for c in s)


# ---------------------------------------------------------------------------------------------------- token kinds (common)

H_BEARER = ("Authorization", "Bearer {}")

token_kind(
    "github_classic_pat",
    True,
    "`ghp_` + 30 base62 + 6-character base62 CRC32",
    lambda: crc32_b62_token("ghp_", 30),
    ["github_token", "gh_token", "github_pat", "git_token", "homebrew_github_api_token"],
    ["GitHub token", "GitHub personal access token", "classic PAT for the deploy bot"],
    [H_BEARER, ("Authorization", "token {}")],
)
token_kind(
    "github_fine_grained_pat",
    True,
    "`github_pat_11` + 20 + `_` + 59",
    lambda: "github_pat_11" + rs(ALNUM_UP, 20) + "_" + rs(ALNUM, 59),
    ["github_token", "gh_pat", "github_fine_grained_token", "renovate_token"],
    ["fine-grained GitHub token", "GitHub PAT (fine-grained, repo scoped)"],
    [H_BEARER],
)
token_kind(
    "github_oauth_token",
    True,
    "`gho_` + 30 base62 + CRC32",
    lambda: crc32_b62_token("gho_", 30),
    ["gh_oauth_token", "github_oauth_token", "oauth_token"],
    ["GitHub OAuth token from `gh auth token`", "gh CLI OAuth token"],
    [H_BEARER],
)
token_kind(
    "github_app_token",
    True,
    "`ghs_` installation / `ghu_` user-to-server token + CRC32",
    lambda: crc32_b62_token(pick(["ghs_", "ghs_", "ghu_"]), 30),
    ["github_app_token", "installation_token", "gh_app_token"],
    ["GitHub App installation token", "ghs token the app minted"],
    [H_BEARER],
)
token_kind(
    "github_refresh_token",
    True,
    "`ghr_` + 76 base62",
    lambda: "ghr_" + rs(ALNUM, 76),
    ["github_refresh_token", "gh_refresh_token"],
    ["GitHub App refresh token", "ghr refresh token"],
)
token_kind(
    "gitlab_pat",
    True,
    "`glpat-` + 20",
    lambda: "glpat-" + rs(ALNUM + "-_", 20),
    ["gitlab_token", "gitlab_pat", "ci_job_token_override", "gl_token"],
    ["GitLab personal access token", "GitLab token with api scope"],
    [("PRIVATE-TOKEN", "{}")],
)
token_kind(
    "gitlab_runner_token",
    True,
    "`glrt-` + 20 runner authentication token",
    lambda: "glrt-" + rs(ALNUM + "-_", 20),
    ["runner_token", "gitlab_runner_token", "registration_token"],
    ["GitLab runner token", "runner authentication token"],
)
token_kind(
    "gitlab_deploy_token",
    True,
    "`gldt-` + 20",
    lambda: "gldt-" + rs(ALNUM + "-_", 20),
    ["deploy_token", "gitlab_deploy_token", "registry_password"],
    ["GitLab deploy token", "deploy token for the registry"],
)
token_kind(
    "bitbucket_app_password",
    True,
    "`ATBB` + 32 + 8 hex",
    lambda: "ATBB" + rs(ALNUM, 32) + rs(HEX_UP, 8),
    ["bitbucket_app_password", "bb_app_password", "bitbucket_password"],
    ["Bitbucket app password", "app password for the Bitbucket bot user"],
)
token_kind(
    "atlassian_api_token",
    True,
    "`ATATT3xFfGF0` + 171 + `=` + 8 hex",
    lambda: "ATATT3xFfGF0" + rs(B64URL, 171) + "=" + rs(HEX_UP, 8),
    ["jira_api_token", "confluence_token", "atlassian_api_token"],
    ["Jira API token", "Atlassian API token", "Confluence API token"],
)
token_kind(
    "circleci_token",
    True,
    "`CCIPAT_` + 22 + `_` + 40 hex",
    lambda: "CCIPAT_" + rs(ALNUM, 22) + "_" + rhex(20),
    ["circleci_token", "circle_token"],
    ["CircleCI personal API token", "CircleCI token"],
    [("Circle-Token", "{}")],
)
token_kind(
    "jenkins_api_token",
    True,
    "`11` + 32 hex",
    lambda: "11" + rhex(16),
    ["jenkins_api_token", "jenkins_token", "jenkins_password"],
    ["Jenkins API token", "API token of the jenkins admin user"],
)
token_kind(
    "sonarqube_token",
    True,
    "`squ_` / `sqp_` / `sqa_` + 40 hex",
    lambda: pick(["squ_", "sqp_", "sqa_"]) + rhex(20),
    ["sonar_token", "sonar_login", "sonarqube_token"],
    ["SonarQube token", "Sonar analysis token"],
)
token_kind(
    "snyk_token",
    True,
    "UUID (name only)",
    ruuid,
    ["snyk_token", "snyk_api_token"],
    ["Snyk API token", "Snyk token for the CI scan"],
)
token_kind(
    "dockerhub_pat",
    True,
    "`dckr_pat_` + 27",
    lambda: "dckr_pat_" + rs(B64URL, 27),
    ["dockerhub_token", "docker_password", "registry_token", "docker_hub_pat"],
    ["Docker Hub access token", "Docker Hub PAT"],
)
token_kind(
    "npm_token",
    True,
    "`npm_` + 30 + base62 CRC32",
    lambda: crc32_b62_token("npm_", 30),
    ["npm_token", "node_auth_token", "npm_auth_token"],
    ["npm automation token", "npm publish token"],
)
token_kind(
    "nuget_api_key",
    True,
    "`oy2` + 43 `[a-z0-9]`",
    lambda: "oy2" + rs(ALNUM_LO, 43),
    ["nuget_api_key", "nuget_key"],
    ["NuGet API key", "nuget.org push key"],
    [("X-NuGet-ApiKey", "{}")],
)
token_kind(
    "rubygems_api_key",
    True,
    "`rubygems_` + 48 hex",
    lambda: "rubygems_" + rhex(24),
    ["gem_host_api_key", "rubygems_api_key"],
    ["RubyGems API key", "gem push key"],
)
token_kind(
    "cratesio_token",
    True,
    "`cio` + 32",
    lambda: "cio" + rs(ALNUM, 32),
    ["cargo_registry_token", "crates_io_token"],
    ["crates.io token", "cargo publish token"],
)
token_kind(
    "linear_api_key",
    True,
    "`lin_api_` + 40",
    lambda: "lin_api_" + rs(ALNUM, 40),
    ["linear_api_key", "linear_token"],
    ["Linear API key", "Linear personal key"],
)
token_kind(
    "notion_token",
    True,
    "`ntn_` + 11 digits + 35, or `secret_` + 43",
    lambda: "ntn_" + rs(DIGITS, 11) + rs(ALNUM, 35) if chance(0.6) else "secret_" + rs(ALNUM, 43),
    ["notion_token", "notion_api_key", "notion_integration_secret"],
    ["Notion integration token", "Notion internal integration secret"],
    [H_BEARER],
)
token_kind(
    "airtable_pat",
    True,
    "`pat` + 14 + `.` + 64 hex",
    lambda: "pat" + rs(ALNUM, 14) + "." + rhex(32),
    ["airtable_token", "airtable_pat", "airtable_api_key"],
    ["Airtable personal access token", "Airtable PAT"],
    [H_BEARER],
)
token_kind(
    "figma_pat",
    True,
    "`figd_` + 40",
    lambda: "figd_" + rs(B64URL, 40),
    ["figma_token", "figma_access_token"],
    ["Figma personal access token", "Figma token for the design-token export"],
    [("X-Figma-Token", "{}")],
)
token_kind(
    "hubspot_private_app_token",
    True,
    "`pat-na1-` / `pat-eu1-` + UUID",
    lambda: pick(["pat-na1-", "pat-eu1-"]) + ruuid(),
    ["hubspot_token", "hubspot_access_token", "hs_private_app_token"],
    ["HubSpot private app token", "HubSpot access token"],
    [H_BEARER],
)
token_kind(
    "zendesk_api_token",
    True,
    "40 alphanumerics (name only)",
    lambda: rs(ALNUM, 40),
    ["zendesk_api_token", "zendesk_token"],
    ["Zendesk API token", "Zendesk token for the support sync"],
)
token_kind(
    "postman_api_key",
    True,
    "`PMAK-` + 24 hex + `-` + 34 hex",
    lambda: "PMAK-" + rhex(12) + "-" + rhex(17),
    ["postman_api_key", "postman_key"],
    ["Postman API key"],
    [("X-Api-Key", "{}")],
)
token_kind(
    "okta_api_token",
    True,
    "`00` + 40 (SSWS token)",
    lambda: "00" + rs(B64URL, 40),
    ["okta_api_token", "okta_token"],
    ["Okta API token", "Okta SSWS token"],
    [("Authorization", "SSWS {}")],
)
token_kind(
    "auth0_client_secret",
    True,
    "64 characters of an Auth0 application (name only)",
    lambda: rs(B64URL, 64),
    ["auth0_client_secret", "auth0_secret"],
    ["Auth0 client secret", "Auth0 M2M app secret"],
)
token_kind(
    "pagerduty_api_key",
    True,
    "20-character REST key (`Token token=`)",
    lambda: pick(["u+", "y_", ""]) + rs(ALNUM + "_-", 18),
    ["pagerduty_token", "pd_api_key", "pagerduty_api_key"],
    ["PagerDuty REST API key", "PagerDuty token"],
    [("Authorization", "Token token={}")],
)
token_kind(
    "grafana_service_account_token",
    True,
    "`glsa_` + 32 + `_` + 8 hex",
    lambda: "glsa_" + rs(ALNUM, 32) + "_" + rhex(4),
    ["grafana_token", "grafana_api_key", "grafana_sa_token"],
    ["Grafana service account token"],
    [H_BEARER],
)
token_kind(
    "datadog_api_key",
    True,
    "32 hex (name or `DD-API-KEY`)",
    lambda: rhex(16),
    ["dd_api_key", "datadog_api_key"],
    ["Datadog API key"],
    [("DD-API-KEY", "{}")],
)
token_kind(
    "datadog_app_key",
    True,
    "40 hex (name or `DD-APPLICATION-KEY`)",
    lambda: rhex(20),
    ["dd_app_key", "datadog_app_key", "dd_application_key"],
    ["Datadog application key"],
    [("DD-APPLICATION-KEY", "{}")],
)
token_kind(
    "newrelic_license_key",
    True,
    "36 hex + `NRAL`",
    lambda: rhex(18) + "NRAL",
    ["new_relic_license_key", "nr_license_key"],
    ["New Relic license key", "New Relic ingest key"],
)
token_kind(
    "newrelic_user_api_key",
    True,
    "`NRAK-` + 27",
    lambda: "NRAK-" + rs(ALNUM_UP, 27),
    ["new_relic_api_key", "newrelic_user_key"],
    ["New Relic user API key"],
    [("API-Key", "{}")],
)
token_kind(
    "splunk_hec_token",
    True,
    "UUID (`Authorization: Splunk`)",
    lambda: ruuid().upper() if chance(0.3) else ruuid(),
    ["splunk_hec_token", "hec_token"],
    ["Splunk HEC token", "HTTP event collector token"],
    [("Authorization", "Splunk {}")],
)
token_kind(
    "slack_bot_token",
    True,
    "`xoxb-` + digits-digits-24",
    lambda: f"xoxb-{rs(DIGITS, 12)}-{rs(DIGITS, 13)}-{rs(ALNUM, 24)}",
    ["slack_bot_token", "slack_token", "bot_token"],
    ["Slack bot token", "bot token for the alerts app"],
    [H_BEARER],
)
token_kind(
    "slack_user_token",
    True,
    "`xoxp-` + digits + 32 hex",
    lambda: f"xoxp-{rs(DIGITS, 12)}-{rs(DIGITS, 12)}-{rs(DIGITS, 13)}-{rhex(16)}",
    ["slack_user_token", "slack_legacy_token"],
    ["Slack user token", "xoxp token for the export script"],
    [H_BEARER],
)
token_kind(
    "slack_app_token",
    True,
    "`xapp-1-A` + id + digits + 64 hex",
    lambda: f"xapp-1-A{rs(ALNUM_UP, 10)}-{rs(DIGITS, 13)}-{rhex(32)}",
    ["slack_app_token", "socket_mode_token"],
    ["Slack app-level token (socket mode)"],
)
token_kind(
    "discord_bot_token",
    True,
    "base64(id) + `.` + 6 + `.` + 38",
    lambda: b64(str(R.randint(10**17, 10**18 - 1)).encode()).rstrip("=") + "." + rs(B64URL, 6) + "." + rs(B64URL, 38),
    ["discord_token", "discord_bot_token", "bot_token"],
    ["Discord bot token"],
    [("Authorization", "Bot {}")],
)
token_kind(
    "telegram_bot_token",
    True,
    "`<bot id>:AA` + 33",
    lambda: f"{R.randint(10**8, 10**10 - 1)}:AA{rs(B64URL, 33)}",
    ["telegram_bot_token", "tg_token", "bot_token"],
    ["Telegram bot token", "token from BotFather"],
)
token_kind(
    "twilio_auth_token",
    True,
    "32 hex (name only; the `AC` SID is a look-alike)",
    lambda: rhex(16),
    ["twilio_auth_token"],
    ["Twilio auth token"],
)
token_kind(
    "sendgrid_api_key",
    True,
    "`SG.` + 22 + `.` + 43",
    lambda: "SG." + rs(B64URL, 22) + "." + rs(B64URL, 43),
    ["sendgrid_api_key", "smtp_password", "sendgrid_key"],
    ["SendGrid API key"],
    [H_BEARER],
)
token_kind(
    "mailgun_api_key",
    True,
    "`key-` + 32 hex, or 32 hex + 2 x 8 hex",
    lambda: "key-" + rhex(16) if chance(0.5) else f"{rhex(16)}-{rhex(4)}-{rhex(4)}",
    ["mailgun_api_key", "mailgun_key"],
    ["Mailgun API key", "Mailgun private key"],
)
token_kind(
    "mailchimp_api_key",
    True,
    "32 hex + `-us<N>`",
    lambda: f"{rhex(16)}-us{R.randint(1, 21)}",
    ["mailchimp_api_key", "mc_api_key"],
    ["Mailchimp API key"],
)
token_kind(
    "postmark_server_token",
    True,
    "UUID server token (name or header)",
    ruuid,
    ["postmark_server_token", "postmark_api_token"],
    ["Postmark server token"],
    [("X-Postmark-Server-Token", "{}")],
)
token_kind(
    "brevo_api_key",
    True,
    "`xkeysib-` + 64 hex + `-` + 16",
    lambda: "xkeysib-" + rhex(32) + "-" + rs(ALNUM, 16),
    ["brevo_api_key", "sendinblue_api_key"],
    ["Brevo (Sendinblue) API key"],
    [("api-key", "{}")],
)
token_kind(
    "resend_api_key",
    True,
    "`re_` + 8 + `_` + 24",
    lambda: "re_" + rs(ALNUM, 8) + "_" + rs(ALNUM, 24),
    ["resend_api_key"],
    ["Resend API key"],
    [H_BEARER],
)
token_kind(
    "stripe_secret_key",
    True,
    "`sk_live_` + 24, or `sk_live_51` + 97",
    lambda: "sk_live_" + (rs(ALNUM, 24) if chance(0.4) else "51" + rs(ALNUM, 97)),
    ["stripe_secret_key", "stripe_api_key", "stripe_sk"],
    ["Stripe live secret key", "Stripe secret key"],
    [H_BEARER],
)
token_kind(
    "stripe_restricted_key",
    True,
    "`rk_live_` + 24, or `rk_live_51` + 97",
    lambda: "rk_live_" + (rs(ALNUM, 24) if chance(0.4) else "51" + rs(ALNUM, 97)),
    ["stripe_restricted_key", "stripe_rk"],
    ["Stripe restricted key", "restricted Stripe key for reporting"],
    [H_BEARER],
)
token_kind(
    "stripe_webhook_secret",
    True,
    "`whsec_` + 32",
    lambda: "whsec_" + rs(ALNUM, 32),
    ["stripe_webhook_secret", "stripe_endpoint_secret"],
    ["Stripe webhook signing secret", "whsec for the payments endpoint"],
)
token_kind(
    "paypal_client_secret",
    True,
    "`E` + 79 (the `A` client id is a look-alike)",
    lambda: "E" + rs(B64URL, 79),
    ["paypal_client_secret", "paypal_secret"],
    ["PayPal client secret", "PayPal live app secret"],
)
token_kind(
    "square_access_token",
    True,
    "`EAAA` + 60",
    lambda: "EAAA" + rs(B64URL, 60),
    ["square_access_token", "square_token"],
    ["Square access token"],
    [H_BEARER],
)
token_kind(
    "shopify_access_token",
    True,
    "`shpat_` / `shpca_` / `shppa_` + 32 hex",
    lambda: pick(["shpat_", "shpat_", "shpca_", "shppa_"]) + rhex(16),
    ["shopify_access_token", "shopify_admin_token"],
    ["Shopify Admin API access token"],
    [("X-Shopify-Access-Token", "{}")],
)
token_kind(
    "openai_api_key",
    True,
    "`sk-proj-` / `sk-svcacct-` / `sk-` with `T3BlbkFJ` inside",
    lambda: (
        pick(["sk-proj-", "sk-svcacct-", "sk-"]) + rs(B64URL, 74) + "T3BlbkFJ" + rs(B64URL, 74)
        if chance(0.8)
        else "sk-" + rs(ALNUM, 20) + "T3BlbkFJ" + rs(ALNUM, 20)
    ),
    ["openai_api_key", "openai_key", "llm_api_key"],
    ["OpenAI API key", "OpenAI project key"],
    [H_BEARER],
)
token_kind(
    "anthropic_api_key",
    True,
    "`sk-ant-api03-` + 93 + `AA`",
    lambda: "sk-ant-api03-" + rs(B64URL, 93) + "AA",
    ["anthropic_api_key", "claude_api_key"],
    ["Anthropic API key", "Claude API key"],
    [("x-api-key", "{}")],
)
token_kind(
    "huggingface_token",
    True,
    "`hf_` + 34 letters",
    lambda: "hf_" + rs(UPPER + LOWER, 34),
    ["hf_token", "huggingface_hub_token", "hugging_face_token"],
    ["Hugging Face token", "HF write token"],
    [H_BEARER],
)
token_kind(
    "replicate_api_token",
    True,
    "`r8_` + 37",
    lambda: "r8_" + rs(ALNUM, 37),
    ["replicate_api_token"],
    ["Replicate API token"],
    [H_BEARER],
)
token_kind(
    "groq_api_key",
    True,
    "`gsk_` + 52",
    lambda: "gsk_" + rs(ALNUM, 52),
    ["groq_api_key"],
    ["Groq API key"],
    [H_BEARER],
)
token_kind(
    "mistral_api_key",
    True,
    "32 alphanumerics (name only)",
    lambda: rs(ALNUM, 32),
    ["mistral_api_key"],
    ["Mistral API key", "La Plateforme key"],
)
token_kind(
    "cohere_api_key",
    True,
    "40 alphanumerics (name only)",
    lambda: rs(ALNUM, 40),
    ["cohere_api_key", "co_api_key"],
    ["Cohere API key"],
)
token_kind(
    "perplexity_api_key",
    True,
    "`pplx-` + 48",
    lambda: "pplx-" + rs(ALNUM, 48),
    ["perplexity_api_key", "pplx_api_key"],
    ["Perplexity API key"],
    [H_BEARER],
)
token_kind(
    "openrouter_api_key",
    True,
    "`sk-or-v1-` + 64 hex",
    lambda: "sk-or-v1-" + rhex(32),
    ["openrouter_api_key"],
    ["OpenRouter key"],
    [H_BEARER],
)
token_kind(
    "deepseek_api_key",
    True,
    "`sk-` + 32 hex",
    lambda: "sk-" + rhex(16),
    ["deepseek_api_key"],
    ["DeepSeek API key"],
    [H_BEARER],
)
token_kind(
    "xai_api_key",
    True,
    "`xai-` + 80",
    lambda: "xai-" + rs(ALNUM, 80),
    ["xai_api_key", "grok_api_key"],
    ["xAI API key", "Grok API key"],
    [H_BEARER],
)
token_kind(
    "langsmith_api_key",
    True,
    "`lsv2_pt_` / `lsv2_sk_` + 32 hex + `_` + 10 hex",
    lambda: pick(["lsv2_pt_", "lsv2_sk_"]) + rhex(16) + "_" + rhex(5),
    ["langsmith_api_key", "langchain_api_key"],
    ["LangSmith API key"],
)
token_kind(
    "pinecone_api_key",
    True,
    "`pcsk_` + 5 + `_` + 63",
    lambda: "pcsk_" + rs(ALNUM, 5) + "_" + rs(ALNUM, 63),
    ["pinecone_api_key"],
    ["Pinecone API key"],
    [("Api-Key", "{}")],
)
token_kind(
    "wandb_api_key",
    True,
    "40 hex (name only)",
    lambda: rhex(20),
    ["wandb_api_key"],
    ["Weights & Biases API key", "wandb key"],
)
token_kind(
    "elevenlabs_api_key",
    True,
    "`sk_` + 48 hex",
    lambda: "sk_" + rhex(24),
    ["elevenlabs_api_key", "xi_api_key"],
    ["ElevenLabs API key"],
    [("xi-api-key", "{}")],
)
token_kind(
    "google_api_key",
    True,
    "`AIza` + 35, used server-side (Gemini, Maps web service)",
    lambda: "AIza" + rs(B64URL, 35),
    ["gemini_api_key", "google_api_key", "google_maps_server_key", "youtube_api_key"],
    ["Gemini API key", "server-side Google API key", "Maps web-service key (server only)"],
    [("x-goog-api-key", "{}")],
)
token_kind(
    "google_oauth_client_secret",
    True,
    "`GOCSPX-` + 28",
    lambda: "GOCSPX-" + rs(B64URL, 28),
    ["google_client_secret", "oauth_client_secret", "gcp_oauth_secret"],
    ["Google OAuth client secret"],
)
token_kind(
    "google_oauth_refresh_token",
    True,
    "`1//0` + ~100",
    lambda: "1//0" + rs(ALNUM, 2) + rs(B64URL, 96),
    ["google_refresh_token", "gdrive_refresh_token", "refresh_token"],
    ["Google OAuth refresh token", "refresh token for the Drive sync"],
)
token_kind(
    "google_oauth_access_token",
    True,
    "`ya29.` + 150-200",
    lambda: "ya29." + rs(B64URL, R.randint(150, 200)),
    ["google_access_token", "gcloud_access_token"],
    ["Google access token from `gcloud auth print-access-token`"],
    [H_BEARER],
)
token_kind(
    "azure_client_secret",
    True,
    "3 + digit + `Q~` + 34 (tenant and client ids are look-alikes)",
    lambda: rs(ALNUM, 3) + pick(DIGITS) + "Q~" + rs(ALNUM + "_.~-", 34),
    ["azure_client_secret", "arm_client_secret", "client_secret"],
    ["Entra ID app client secret", "Azure AD client secret"],
)
token_kind(
    "azure_devops_pat",
    True,
    "52 characters `[a-z2-7]`",
    lambda: rs(LOWER + "234567", 52),
    ["azure_devops_pat", "ado_pat", "azure_devops_ext_pat", "system_accesstoken"],
    ["Azure DevOps PAT"],
)
token_kind(
    "azure_openai_api_key",
    True,
    "32 hex (name or `api-key` header)",
    lambda: rhex(16),
    ["azure_openai_api_key", "azure_openai_key", "aoai_key"],
    ["Azure OpenAI key"],
    [("api-key", "{}")],
)
token_kind(
    "digitalocean_token",
    True,
    "`dop_v1_` / `doo_v1_` + 64 hex",
    lambda: pick(["dop_v1_", "dop_v1_", "doo_v1_"]) + rhex(32),
    ["digitalocean_token", "do_token", "digitalocean_access_token"],
    ["DigitalOcean API token"],
    [H_BEARER],
)
token_kind(
    "cloudflare_api_token",
    True,
    "40 characters (name or bearer)",
    lambda: rs(B64URL, 40),
    ["cloudflare_api_token", "cf_api_token", "cf_dns_api_token"],
    ["Cloudflare API token", "Cloudflare DNS edit token"],
    [H_BEARER],
)
token_kind(
    "cloudflare_global_api_key",
    True,
    "37 hex (`X-Auth-Key`)",
    lambda: rhex(18) + pick(HEX),
    ["cloudflare_api_key", "cf_api_key", "cf_global_key"],
    ["Cloudflare global API key"],
    [("X-Auth-Key", "{}")],
)
token_kind(
    "vercel_token",
    True,
    "24 alphanumerics (name only)",
    lambda: rs(ALNUM, 24),
    ["vercel_token"],
    ["Vercel token"],
    [H_BEARER],
)
token_kind(
    "netlify_token",
    True,
    "`nfp_` + 40",
    lambda: "nfp_" + rs(ALNUM, 40),
    ["netlify_auth_token", "netlify_token"],
    ["Netlify personal access token"],
)
token_kind(
    "heroku_api_key",
    True,
    "UUID (name only) or `HRKU-AA` + 58",
    lambda: ruuid() if chance(0.5) else "HRKU-AA" + rs(B64URL, 58),
    ["heroku_api_key", "heroku_token"],
    ["Heroku API key"],
)
token_kind(
    "supabase_access_token",
    True,
    "`sbp_` + 40 hex",
    lambda: "sbp_" + rhex(20),
    ["supabase_access_token"],
    ["Supabase personal access token"],
)
token_kind(
    "planetscale_password",
    True,
    "`pscale_pw_` + 43 (or `pscale_tkn_` service token)",
    lambda: pick(["pscale_pw_", "pscale_pw_", "pscale_tkn_"]) + rs(B64URL, 43),
    ["planetscale_password", "database_password", "pscale_token"],
    ["PlanetScale password", "PlanetScale service token"],
)
token_kind(
    "firebase_fcm_server_key",
    True,
    "legacy FCM server key `AAAA` + 7 + `:APA91b` + 134",
    lambda: "AAAA" + rs(B64URL, 7) + ":APA91b" + rs(B64URL, 134),
    ["fcm_server_key", "firebase_server_key"],
    ["FCM server key", "legacy Firebase Cloud Messaging key"],
    [("Authorization", "key={}")],
)
token_kind(
    "databricks_token",
    True,
    "`dapi` + 32 hex",
    lambda: "dapi" + rhex(16) + pick(["", "", "-2", "-3"]),
    ["databricks_token", "databricks_pat"],
    ["Databricks PAT"],
    [H_BEARER],
)
token_kind(
    "minio_secret_key",
    True,
    "MinIO root password / secret key (40)",
    lambda: rs(ALNUM + "+/", 40),
    ["minio_root_password", "minio_secret_key", "s3_secret_key"],
    ["MinIO secret key", "MinIO root password"],
)
token_kind(
    "vault_token",
    True,
    "`hvs.` + 24, or `hvs.CAESI` + 86",
    lambda: "hvs." + rs(ALNUM, 24) if chance(0.5) else "hvs.CAESI" + rs(B64URL, 86),
    ["vault_token"],
    ["Vault token", "Vault root token"],
    [("X-Vault-Token", "{}")],
)
token_kind(
    "terraform_cloud_token",
    True,
    "14 + `.atlasv1.` + 67",
    lambda: rs(ALNUM, 14) + ".atlasv1." + rs(ALNUM, 67),
    ["tfe_token", "tf_token_app_terraform_io", "terraform_cloud_token"],
    ["Terraform Cloud token"],
    [H_BEARER],
)
token_kind(
    "pulumi_access_token",
    True,
    "`pul-` + 40 hex",
    lambda: "pul-" + rhex(20),
    ["pulumi_access_token"],
    ["Pulumi access token"],
)
token_kind(
    "doppler_token",
    True,
    "`dp.st.<config>.` / `dp.pt.` + 43",
    lambda: "dp.st." + pick(["prd", "stg", "dev"]) + "." + rs(ALNUM, 40) if chance(0.5) else "dp.pt." + rs(ALNUM, 43),
    ["doppler_token"],
    ["Doppler service token", "Doppler personal token"],
)
token_kind(
    "jfrog_access_token",
    True,
    "JFrog identity token (base64 of `reftkn:01:...`) or `AKCp` API key",
    lambda: (
        b64(f"reftkn:01:{R.randint(1700000000, 1799999999)}:{rs(ALNUM, 27)}".encode()).rstrip("=")
        if chance(0.6)
        else "AKCp" + rs(ALNUM, 69)
    ),
    ["artifactory_token", "jfrog_access_token", "jfrog_password"],
    ["Artifactory identity token", "JFrog access token"],
    [H_BEARER],
)
token_kind(
    "tailscale_auth_key",
    True,
    "`tskey-auth-` / `tskey-api-` + id + `CNTRL-` + 32",
    lambda: f"tskey-{pick(['auth', 'auth', 'api'])}-k{rs(ALNUM, 10)}CNTRL-{rs(ALNUM, 32)}",
    ["ts_authkey", "tailscale_auth_key"],
    ["Tailscale auth key", "Tailscale API key"],
)
token_kind(
    "ngrok_authtoken",
    True,
    "`2` + 26 + `_` + 21",
    lambda: "2" + rs(ALNUM, 26) + "_" + rs(ALNUM, 21),
    ["ngrok_authtoken"],
    ["ngrok authtoken"],
)
token_kind(
    "mapbox_secret_token",
    True,
    "`sk.` + base64url JSON + `.` + 22",
    lambda: (
        "sk."
        + b64u(
            json.dumps({"u": username().replace(".", ""), "a": "cl" + rs(ALNUM_LO, 23)}, separators=(",", ":")).encode()
        )
        + "."
        + rs(B64URL, 22)
    ),
    ["mapbox_secret_token", "mapbox_download_token"],
    ["Mapbox secret token (downloads:read)"],
)
token_kind(
    "algolia_admin_key",
    True,
    "32 hex admin key (the app id is a look-alike)",
    lambda: rhex(16),
    ["algolia_admin_key", "algolia_write_key"],
    ["Algolia admin API key"],
    [("X-Algolia-API-Key", "{}")],
)
token_kind(
    "twitter_bearer_token",
    True,
    "`AAAAAAAAAAAAAAAAAAAAA` + 80-100 (app-only bearer token)",
    lambda: "AAAAAAAAAAAAAAAAAAAAA" + rs(ALNUM, 20) + "%3D" + rs(ALNUM, 50),
    ["twitter_bearer_token", "x_bearer_token"],
    ["Twitter/X bearer token"],
    [H_BEARER],
)
token_kind(
    "meta_access_token",
    True,
    "`EAA` + app letter + 150-200",
    lambda: "EAA" + pick("BGJKZ") + rs(ALNUM, R.randint(150, 200)),
    ["facebook_access_token", "meta_page_token", "whatsapp_token", "instagram_token"],
    ["Meta page access token", "WhatsApp Cloud API token"],
    [H_BEARER],
)
token_kind(
    "dropbox_access_token",
    True,
    "`sl.` + ~140 (short-lived access token)",
    lambda: "sl." + pick(["B", "u."]) + rs(B64URL, R.randint(130, 150)),
    ["dropbox_access_token", "dropbox_token"],
    ["Dropbox access token"],
    [H_BEARER],
)
token_kind(
    "sentry_auth_token",
    True,
    "`sntryu_` + 64 hex, or `sntrys_` + base64 JSON + `_` + 43",
    lambda: (
        "sntryu_" + rhex(32)
        if chance(0.5)
        else "sntrys_"
        + b64(
            json.dumps(
                {"iat": R.randint(1700000000, 1760000000), "url": "https://sentry.io", "org": pick(ORGS)},
                separators=(",", ":"),
            ).encode()
        ).rstrip("=")
        + "_"
        + rs(B64, 43)
    ),
    ["sentry_auth_token"],
    ["Sentry auth token", "Sentry org token for source maps"],
    [H_BEARER],
)

# ---------------------------------------------------------------------------------------------------- token kinds (less common)

token_kind(
    "gitlab_pipeline_trigger_token",
    False,
    "`glptt-` + 40 hex",
    lambda: "glptt-" + rhex(20),
    ["trigger_token", "gitlab_trigger_token"],
    ["GitLab pipeline trigger token"],
)
token_kind(
    "linode_token",
    False,
    "64 hex (name only)",
    lambda: rhex(32),
    ["linode_token", "linode_cli_token"],
    ["Linode API token", "Akamai/Linode PAT"],
)
token_kind(
    "hetzner_cloud_token",
    False,
    "64 alphanumerics (name only)",
    lambda: rs(ALNUM, 64),
    ["hcloud_token", "hetzner_token"],
    ["Hetzner Cloud API token"],
)
token_kind(
    "vultr_api_key",
    False,
    "36 upper-case alphanumerics (name only)",
    lambda: rs(ALNUM_UP, 36),
    ["vultr_api_key"],
    ["Vultr API key"],
)
token_kind(
    "ibm_cloud_api_key",
    False,
    "44 characters `[A-Za-z0-9_-]` (name only)",
    lambda: rs(B64URL, 44),
    ["ibmcloud_api_key", "ic_api_key"],
    ["IBM Cloud API key"],
)
token_kind(
    "cloudflare_origin_ca_key",
    False,
    "`v1.0-` + 24 hex + `-` + 146 hex",
    lambda: "v1.0-" + rhex(12) + "-" + rhex(73),
    ["cf_origin_ca_key", "cloudflare_origin_ca_key"],
    ["Cloudflare Origin CA key"],
    [("X-Auth-User-Service-Key", "{}")],
)
token_kind(
    "fly_io_token",
    False,
    "`fm2_` macaroon after `FlyV1 `",
    lambda: "fm2_" + rs(B64, R.randint(220, 260)),
    ["fly_api_token", "fly_access_token"],
    ["Fly.io deploy token"],
    [("Authorization", "FlyV1 {}")],
)
token_kind(
    "railway_token",
    False,
    "UUID (name only)",
    ruuid,
    ["railway_token", "railway_api_token"],
    ["Railway project token"],
)
token_kind(
    "render_api_key",
    False,
    "`rnd_` + 32",
    lambda: "rnd_" + rs(ALNUM, 32),
    ["render_api_key"],
    ["Render API key"],
    [H_BEARER],
)
token_kind(
    "upstash_redis_token",
    False,
    "Upstash REST token (`A` + base64, name only)",
    lambda: "A" + pick("XYZ") + rs(ALNUM, 2) + "AAIncDE" + rs(B64URL, 50),
    ["upstash_redis_rest_token", "kv_rest_api_token"],
    ["Upstash Redis REST token"],
)
token_kind(
    "vault_unseal_key",
    False,
    "base64 32-byte Vault unseal share",
    lambda: b64(rb(32)),
    ["vault_unseal_key", "unseal_key_1", "unseal_key"],
    ["Vault unseal key", "unseal key share #1"],
)
token_kind(
    "consul_acl_token",
    False,
    "UUID (name or `X-Consul-Token`)",
    ruuid,
    ["consul_http_token", "consul_acl_token"],
    ["Consul ACL token", "Consul bootstrap token"],
    [("X-Consul-Token", "{}")],
)
token_kind(
    "kubeadm_join_token",
    False,
    "`[a-z0-9]{6}.[a-z0-9]{16}` bootstrap token",
    lambda: rs(ALNUM_LO, 6) + "." + rs(ALNUM_LO, 16),
    ["kubeadm_token", "bootstrap_token", "k3s_token"],
    ["kubeadm bootstrap token", "cluster join token"],
)
token_kind(
    "docker_swarm_join_token",
    False,
    "`SWMTKN-1-` + 50 + `-` + 25",
    lambda: "SWMTKN-1-" + rs(ALNUM_LO, 50) + "-" + rs(ALNUM_LO, 25),
    ["swarm_join_token", "swarm_worker_token"],
    ["Docker Swarm join token"],
)
token_kind(
    "rancher_api_token",
    False,
    "`token-` + 5 + `:` + 54",
    lambda: "token-" + rs(ALNUM_LO, 5) + ":" + rs(ALNUM_LO, 54),
    ["rancher_token", "cattle_token"],
    ["Rancher API token"],
    [H_BEARER],
)
token_kind(
    "asana_pat",
    False,
    "`2/` + 16 digits + `/` + 16 digits + `:` + 32 hex",
    lambda: f"2/{rs(DIGITS, 16)}/{rs(DIGITS, 16)}:{rhex(16)}",
    ["asana_token", "asana_pat"],
    ["Asana PAT"],
    [H_BEARER],
)
token_kind(
    "clickup_api_token",
    False,
    "`pk_` + 8 digits + `_` + 32 upper-case alphanumerics",
    lambda: f"pk_{rs(DIGITS, 8)}_{rs(ALNUM_UP, 32)}",
    ["clickup_token", "clickup_api_key"],
    ["ClickUp personal token"],
)
token_kind(
    "opsgenie_api_key",
    False,
    "UUID (`GenieKey`)",
    ruuid,
    ["opsgenie_api_key"],
    ["Opsgenie API key"],
    [("Authorization", "GenieKey {}")],
)
token_kind(
    "honeycomb_api_key",
    False,
    "22 alphanumerics (`X-Honeycomb-Team`)",
    lambda: rs(ALNUM, 22),
    ["honeycomb_api_key", "honeycomb_write_key"],
    ["Honeycomb API key"],
    [("X-Honeycomb-Team", "{}")],
)
token_kind(
    "grafana_cloud_token",
    False,
    "`glc_` + base64 JSON",
    lambda: (
        "glc_"
        + b64(
            json.dumps(
                {
                    "o": str(R.randint(100000, 999999)),
                    "n": f"stack-{R.randint(100000, 999999)}-hm-write",
                    "k": rs(ALNUM, 32),
                    "m": {"r": pick(["prod-us-east-0", "prod-eu-west-2"])},
                },
                separators=(",", ":"),
            ).encode()
        )
    ),
    ["grafana_cloud_token", "gcloud_hosted_metrics_key"],
    ["Grafana Cloud access policy token"],
)
token_kind(
    "launchdarkly_sdk_key",
    False,
    "`sdk-` + UUID (server-side SDK key)",
    lambda: "sdk-" + ruuid(),
    ["launchdarkly_sdk_key", "ld_sdk_key"],
    ["LaunchDarkly server SDK key"],
)
token_kind(
    "codecov_token",
    False,
    "UUID upload token (name only)",
    ruuid,
    ["codecov_token"],
    ["Codecov upload token"],
)
token_kind(
    "gitea_token",
    False,
    "40 hex (name only)",
    lambda: rhex(20),
    ["gitea_token", "forgejo_token"],
    ["Gitea access token", "Forgejo token"],
    [("Authorization", "token {}")],
)
token_kind(
    "pusher_app_secret",
    False,
    "20 hex app secret (the app key is a look-alike)",
    lambda: rhex(10),
    ["pusher_app_secret", "pusher_secret"],
    ["Pusher app secret"],
)
token_kind(
    "braintree_access_token",
    False,
    "`access_token$production$` + 16 + `$` + 32 hex",
    lambda: f"access_token$production${rs(ALNUM_LO, 16)}${rhex(16)}",
    ["braintree_access_token"],
    ["Braintree access token"],
)
token_kind(
    "razorpay_key_secret",
    False,
    "24 alphanumerics (the `rzp_live_` key id is a look-alike)",
    lambda: rs(ALNUM, 24),
    ["razorpay_key_secret"],
    ["Razorpay key secret"],
)
token_kind(
    "adyen_api_key",
    False,
    "`AQE` + base64 segments",
    lambda: "AQE" + rs(B64, 37) + "=-" + rs(B64, 43) + "=-" + rs(ALNUM + "<>,.()", 24),
    ["adyen_api_key"],
    ["Adyen API key"],
    [("X-API-Key", "{}")],
)
token_kind(
    "plaid_secret",
    False,
    "30 hex (name only; the client id is a look-alike)",
    lambda: rhex(15),
    ["plaid_secret"],
    ["Plaid secret"],
)
token_kind(
    "tavily_api_key",
    False,
    "`tvly-` / `tvly-dev-` + 32",
    lambda: pick(["tvly-", "tvly-dev-"]) + rs(ALNUM, 32),
    ["tavily_api_key"],
    ["Tavily API key"],
)
token_kind(
    "together_api_key",
    False,
    "64 hex (name only)",
    lambda: rhex(32),
    ["together_api_key"],
    ["Together AI key"],
    [H_BEARER],
)
token_kind(
    "fireworks_api_key",
    False,
    "`fw_` + 24",
    lambda: "fw_" + rs(ALNUM, 24),
    ["fireworks_api_key"],
    ["Fireworks AI key"],
)
token_kind(
    "assemblyai_api_key",
    False,
    "32 hex (name only)",
    lambda: rhex(16),
    ["assemblyai_api_key"],
    ["AssemblyAI key"],
    [("Authorization", "{}")],
)
token_kind(
    "openweathermap_api_key",
    False,
    "32 hex (name or `appid=`)",
    lambda: rhex(16),
    ["owm_api_key", "openweather_api_key", "weather_api_key"],
    ["OpenWeatherMap API key"],
)
token_kind(
    "spotify_client_secret",
    False,
    "32 hex (name only)",
    lambda: rhex(16),
    ["spotify_client_secret", "spotipy_client_secret"],
    ["Spotify client secret"],
)
token_kind(
    "twitch_client_secret",
    False,
    "30 lower-case alphanumerics",
    lambda: rs(ALNUM_LO, 30),
    ["twitch_client_secret"],
    ["Twitch client secret"],
)
token_kind(
    "steam_web_api_key",
    False,
    "32 upper-case hex",
    lambda: rs(HEX_UP, 32),
    ["steam_api_key", "steam_web_api_key"],
    ["Steam Web API key"],
)
token_kind(
    "ipinfo_token",
    False,
    "14 hex",
    lambda: rhex(7),
    ["ipinfo_token"],
    ["ipinfo.io token"],
)
token_kind(
    "plex_token",
    False,
    "20-character `X-Plex-Token`",
    lambda: rs(ALNUM + "-_", 20),
    ["plex_token", "x_plex_token"],
    ["Plex token"],
    [("X-Plex-Token", "{}")],
)
token_kind(
    "octoprint_api_key",
    False,
    "32 upper-case alphanumerics",
    lambda: rs(ALNUM_UP, 32),
    ["octoprint_api_key"],
    ["OctoPrint API key"],
    [("X-Api-Key", "{}")],
)
token_kind(
    "erlang_cookie",
    False,
    "20 upper-case letters",
    lambda: rs(UPPER, 20),
    ["erlang_cookie", "rabbitmq_erlang_cookie", "release_cookie"],
    ["Erlang cookie", ".erlang.cookie of the RabbitMQ nodes"],
)


# ---------------------------------------------------------------------------------------------------- secp256k1 (Ethereum)

K1_P = 2**256 - 2**32 - 977
K1_N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
K1_G = (
    0x79BE667EF9DCBBAC55A06295CE870B07029BFCDB2DCE28D959F2815B16F81798,
    0x483ADA7726A3C4655DA4FBFC0E1108A8FD17B448A68554199C47D08FFB10D4B8,
)


def eth_address(priv: int) -> str:
    pt = curve_mul(priv, K1_G, K1_P, 0)
    return eip55(keccak256(pt[0].to_bytes(32, "big") + pt[1].to_bytes(32, "big"))[-20:])


# ---------------------------------------------------------------------------------------------------- companions (look-alikes)


def la_entry(d: Doc, kind: str, name: str, label: str, value: str) -> Entry:
    return Entry(kind, name, label, d.la(kind, value), secret=False)


def google_client_id() -> str:
    return f"{rs(DIGITS, 12)}-{rs(ALNUM_LO, 32)}.apps.googleusercontent.com"


COMPANIONS = {
    "twilio_auth_token": lambda d: la_entry(
        d, "account_identifier", "twilio_account_sid", "Twilio account SID", "AC" + rhex(16)
    ),
    "algolia_admin_key": lambda d: la_entry(
        d, "account_identifier", "algolia_app_id", "Algolia application id", rs(ALNUM_UP, 10)
    ),
    "razorpay_key_secret": lambda d: la_entry(
        d, "account_identifier", "razorpay_key_id", "Razorpay key id", "rzp_live_" + rs(ALNUM, 14)
    ),
    "plaid_secret": lambda d: la_entry(d, "account_identifier", "plaid_client_id", "Plaid client id", rhex(12)),
    "pusher_app_secret": lambda d: la_entry(
        d, "public_client_key", "pusher_app_key", "Pusher app key (public)", rhex(10)
    ),
    "paypal_client_secret": lambda d: la_entry(
        d, "oauth_client_id", "paypal_client_id", "PayPal client id", "A" + rs(B64URL, 79)
    ),
    "azure_client_secret": lambda d: la_entry(d, "tenant_id", "azure_tenant_id", "tenant id", ruuid()),
    "google_oauth_client_secret": lambda d: la_entry(
        d, "oauth_client_id", "google_client_id", "OAuth client id", google_client_id()
    ),
    "spotify_client_secret": lambda d: la_entry(
        d, "oauth_client_id", "spotify_client_id", "Spotify client id", rhex(16)
    ),
    "twitch_client_secret": lambda d: la_entry(
        d, "oauth_client_id", "twitch_client_id", "Twitch client id", rs(ALNUM_LO, 30)
    ),
    "auth0_client_secret": lambda d: la_entry(
        d, "oauth_client_id", "auth0_client_id", "Auth0 client id", rs(ALNUM, 32)
    ),
    "launchdarkly_sdk_key": lambda d: la_entry(
        d, "public_client_key", "launchdarkly_client_side_id", "client-side id", rhex(12)
    ),
}

# ---------------------------------------------------------------------------------------------------- bundles


@secret_kind("aws_access_key_id", True, "`AKIA` / `ASIA` + 16 base32 (labelled: travels with its secret)")
def _aws(d: Doc) -> list[Entry]:
    kid = "AKIA" + rs(B32, 16)
    sec = rs(ALNUM + "+/", 40)
    return [
        Entry("aws_access_key_id", "aws_access_key_id", "AWS access key id", d.mark("aws_access_key_id", kid)),
        Entry(
            "aws_secret_access_key",
            "aws_secret_access_key",
            "AWS secret access key",
            d.mark("aws_secret_access_key", sec),
        ),
    ]


partner_kind("aws_secret_access_key", True, "40 characters `[A-Za-z0-9+/]` next to its key id")


@secret_kind(
    "aws_session_token", True, "base64 STS session token (`IQoJb3JpZ2luX2Vj...`) with its `ASIA` id and secret"
)
def _aws_sts(d: Doc) -> list[Entry]:
    tok = b64(b"!\n\torigin_ec" + rb(R.choice([420, 480, 540])))
    return [
        Entry(
            "aws_access_key_id",
            "aws_access_key_id",
            "temporary AWS key id",
            d.mark("aws_access_key_id", "ASIA" + rs(B32, 16)),
        ),
        Entry(
            "aws_secret_access_key",
            "aws_secret_access_key",
            "AWS secret key",
            d.mark("aws_secret_access_key", rs(ALNUM + "+/", 40)),
        ),
        Entry("aws_session_token", "aws_session_token", "AWS session token", d.mark("aws_session_token", tok)),
    ]


def _pair_kind(primary, partner, common, desc1, desc2, make1, make2, name1, name2, label1, label2):  # noqa: PLR0917 - rows of a data table
    @secret_kind(primary, common, desc1)
    def gen(d: Doc) -> list[Entry]:
        return [
            Entry(primary, name1, label1, d.mark(primary, make1())),
            Entry(partner, name2, label2, d.mark(partner, make2())),
        ]

    partner_kind(partner, common, desc2)


_pair_kind(
    "alibaba_access_key_id",
    "alibaba_access_key_secret",
    False,
    "`LTAI5t` + 18 (labelled: travels with its secret)",
    "30 alphanumerics next to its `LTAI` id",
    lambda: "LTAI5t" + rs(ALNUM, 18),
    lambda: rs(ALNUM, 30),
    "alibaba_cloud_access_key_id",
    "alibaba_cloud_access_key_secret",
    "Alibaba Cloud AccessKey ID",
    "AccessKey secret",
)
_pair_kind(
    "tencent_secret_id",
    "tencent_secret_key",
    False,
    "`AKID` + 32 (labelled: travels with its secret)",
    "32 alphanumerics next to its `AKID` id",
    lambda: "AKID" + rs(ALNUM, 32),
    lambda: rs(ALNUM, 32),
    "tencentcloud_secret_id",
    "tencentcloud_secret_key",
    "Tencent Cloud SecretId",
    "SecretKey",
)
_pair_kind(
    "backblaze_b2_key_id",
    "backblaze_b2_application_key",
    False,
    "25 hex key id `00...` (labelled: travels with its secret)",
    "`K00` + 28 application key",
    lambda: "00" + pick("345") + rhex(11),
    lambda: "K00" + pick("1234") + rs(B64, 27),
    "b2_application_key_id",
    "b2_application_key",
    "B2 keyID",
    "B2 application key",
)
_pair_kind(
    "digitalocean_spaces_key",
    "digitalocean_spaces_secret",
    False,
    "`DO00` + 16 Spaces access key (labelled: travels with its secret)",
    "43-character Spaces secret",
    lambda: "DO00" + rs(ALNUM_UP, 16),
    lambda: rs(ALNUM + "+/", 43),
    "spaces_access_key_id",
    "spaces_secret_access_key",
    "Spaces access key",
    "Spaces secret",
)


@secret_kind("twilio_api_key_secret", True, "32-character API key secret (the `SK` sid is a look-alike)")
def _twilio_api(d: Doc) -> list[Entry]:
    return [
        la_entry(d, "account_identifier", "twilio_api_key_sid", "API key SID", "SK" + rhex(16)),
        Entry(
            "twilio_api_key_secret",
            "twilio_api_secret",
            "Twilio API key secret",
            d.mark("twilio_api_key_secret", rs(ALNUM, 32)),
        ),
    ]


@secret_kind("langfuse_secret_key", False, "`sk-lf-` + UUID (the `pk-lf-` key is a look-alike)")
def _langfuse(d: Doc) -> list[Entry]:
    return [
        la_entry(d, "public_client_key", "langfuse_public_key", "Langfuse public key", "pk-lf-" + ruuid()),
        Entry(
            "langfuse_secret_key",
            "langfuse_secret_key",
            "Langfuse secret key",
            d.mark("langfuse_secret_key", "sk-lf-" + ruuid()),
        ),
    ]


# ---------------------------------------------------------------------------------------------------- connection strings and URLs


def _pw_for_url() -> str:
    return password(pick(["url", "url", "random", "word", "phrase"]))


def _url_entry(d: Doc, kind: str, name: str, label: str, scheme: str, user: str, hostport: str, rest: str) -> Entry:  # noqa: PLR0917 - rows of a data table
    pw = _pw_for_url()
    return Entry(kind, name, label, f"{scheme}://{user}:{d.mark(kind, pct(pw), pw)}@{hostport}{rest}")


def _bare_pw(d: Doc, kind: str, names: list[str], label: str, style: str | None = None) -> Entry:
    return Entry(kind, pick(names), label, d.mark(kind, password(style)))


@secret_kind("postgres_password", True, "password in `postgres://` URLs, libpq / JDBC strings, `PGPASSWORD`")
def _pg(d: Doc) -> list[Entry]:
    host, db, user = pick(DB_HOSTS), pick(PROJECTS), pick(["app", "postgres", "readonly", "svc_" + pick(PROJECTS)])
    form = R.randrange(5)
    if form == 0:
        return [
            _url_entry(
                d,
                "postgres_password",
                "database_url",
                "Postgres URL",
                pick(["postgres", "postgresql"]),
                user,
                f"{host}:5432",
                f"/{db}?sslmode=require",
            )
        ]
    if form == 1:
        pw = password("nospace")
        return [
            Entry(
                "postgres_password",
                "pg_dsn",
                "libpq connection string",
                f"host={host} port=5432 dbname={db} user={user} password={d.mark('postgres_password', pw)} sslmode=verify-full",
            )
        ]
    if form == 2:
        pw = password("url")
        return [
            Entry(
                "postgres_password",
                "jdbc_url",
                "JDBC URL",
                f"jdbc:postgresql://{host}:5432/{db}?user={user}&password={d.mark('postgres_password', pw)}",
            )
        ]
    return [
        _bare_pw(
            d,
            "postgres_password",
            ["pgpassword", "postgres_password", "db_password", "database_password"],
            "Postgres password",
        )
    ]


@secret_kind("mysql_password", True, "password in `mysql://` URLs, Go DSNs, JDBC, `MYSQL_ROOT_PASSWORD`")
def _mysql(d: Doc) -> list[Entry]:
    host, db = pick(DB_HOSTS), pick(PROJECTS)
    form = R.randrange(4)
    if form == 0:
        return [
            _url_entry(
                d,
                "mysql_password",
                "database_url",
                "MySQL URL",
                pick(["mysql", "mysql2", "mariadb"]),
                pick(["root", "app", "wp_user"]),
                f"{host}:3306",
                f"/{db}",
            )
        ]
    if form == 1:
        pw = password("url")
        return [
            Entry(
                "mysql_password",
                "mysql_dsn",
                "Go MySQL DSN",
                f"app:{d.mark('mysql_password', pw)}@tcp({host}:3306)/{db}?parseTime=true&tls=preferred",
            )
        ]
    return [
        _bare_pw(
            d,
            "mysql_password",
            ["mysql_root_password", "mysql_password", "db_pass", "wordpress_db_password"],
            "MySQL password",
        )
    ]


@secret_kind("mongodb_password", True, "password in `mongodb://` / `mongodb+srv://` URIs")
def _mongo(d: Doc) -> list[Entry]:
    if chance(0.7):
        cluster = f"cluster{R.randint(0, 3)}.{rs(ALNUM_LO, 5)}.mongodb.net"
        if chance(0.6):
            return [
                _url_entry(
                    d,
                    "mongodb_password",
                    "mongodb_uri",
                    "MongoDB Atlas URI",
                    "mongodb+srv",
                    pick(["app", "admin", "etl"]),
                    cluster,
                    f"/{pick(PROJECTS)}?retryWrites=true&w=majority",
                )
            ]
        return [
            _url_entry(
                d,
                "mongodb_password",
                "mongo_url",
                "Mongo URL",
                "mongodb",
                "root",
                f"{pick(DB_HOSTS)}:27017",
                "/?authSource=admin",
            )
        ]
    return [
        _bare_pw(d, "mongodb_password", ["mongo_initdb_root_password", "mongodb_password"], "MongoDB root password")
    ]


@secret_kind("redis_password", True, "password in `redis://` / `rediss://` URLs, `REDIS_PASSWORD`, `requirepass`")
def _redis(d: Doc) -> list[Entry]:
    form = R.randrange(3)
    if form == 0:
        host = pick(["redis:6379", "cache.internal:6379", f"{rs(ALNUM_LO, 8)}.upstash.io:6379", "127.0.0.1:6380"])
        return [
            _url_entry(
                d,
                "redis_password",
                "redis_url",
                "Redis URL",
                pick(["redis", "rediss"]),
                pick(["", "default"]),
                host,
                "/0",
            )
        ]
    if form == 1:
        return [
            Entry("redis_password", "requirepass", "Redis requirepass", d.mark("redis_password", password("nospace")))
        ]
    return [_bare_pw(d, "redis_password", ["redis_password", "redis_auth", "cache_password"], "Redis password")]


@secret_kind("mssql_password", True, "password in ADO.NET strings, `MSSQL_SA_PASSWORD`")
def _mssql(d: Doc) -> list[Entry]:
    if chance(0.6):
        pw = password(pick(["url", "nospace", "word"]))
        server = pick(["tcp:acme-sql.database.windows.net,1433", "SQLPROD01\\INST1", "localhost,1433"])
        frag = f"Server={server};Initial Catalog={pick(PROJECTS)};User ID={pick(['sa', 'app_user'])};Password={d.mark('mssql_password', pw)};Encrypt=True;TrustServerCertificate=False;"
        return [Entry("mssql_password", "connection_string", "SQL Server connection string", frag)]
    return [
        _bare_pw(
            d,
            "mssql_password",
            ["mssql_sa_password", "sa_password", "sql_password"],
            "SQL Server sa password",
            "nospace",
        )
    ]


@secret_kind("amqp_password", True, "password in `amqp://` / `amqps://` URLs, `RABBITMQ_DEFAULT_PASS`")
def _amqp(d: Doc) -> list[Entry]:
    if chance(0.6):
        return [
            _url_entry(
                d,
                "amqp_password",
                "amqp_url",
                "RabbitMQ URL",
                pick(["amqp", "amqps"]),
                pick(["guest_ops", "app", "celery"]),
                pick(["rabbitmq:5672", "mq.internal:5671"]),
                "/" + pick(PROJECTS),
            )
        ]
    return [
        _bare_pw(
            d, "amqp_password", ["rabbitmq_default_pass", "rabbitmq_password", "broker_password"], "RabbitMQ password"
        )
    ]


@secret_kind("smtp_password", True, "SMTP password under `SMTP_PASSWORD` or in `smtp://` URLs")
def _smtp(d: Doc) -> list[Entry]:
    if chance(0.35):
        return [
            _url_entry(
                d,
                "smtp_password",
                "smtp_url",
                "SMTP URL",
                pick(["smtp", "smtps"]),
                pick(["postmaster", "noreply"]) + "%40" + pick(DOMAINS),
                pick(["smtp.example.com:587", "mail.example.org:465"]),
                "",
            )
        ]
    return [
        _bare_pw(
            d, "smtp_password", ["smtp_password", "email_host_password", "mail_password", "smtp_pass"], "SMTP password"
        )
    ]


@secret_kind("url_credential_password", True, "password in `https://user:pass@`, proxy, `ftp://`, `sftp://` URLs")
def _urlcred(d: Doc) -> list[Entry]:
    scheme, host, rest, name = pick(
        [
            ("https", "git.example.com", "/platform/infra.git", "git_remote"),
            ("http", "proxy.corp.example.com:3128", "", "https_proxy"),
            ("ftp", "ftp.example.net", "/incoming/", "ftp_url"),
            ("sftp", "files.example.org:22", "/upload", "sftp_url"),
            ("https", "nexus.example.io", "/repository/pypi/simple", "pip_index_url"),
            ("https", "registry.example.com", "/v2/", "registry_url"),
        ]
    )
    return [
        _url_entry(
            d, "url_credential_password", name, "URL with credentials", scheme, username().replace(".", ""), host, rest
        )
    ]


@secret_kind("snowflake_password", True, "password in `snowflake://` URLs, `SNOWSQL_PWD`")
def _snow(d: Doc) -> list[Entry]:
    if chance(0.5):
        acct = f"{rs(ALNUM_LO, 7)}-{rs(ALNUM_LO, 7)}"
        return [
            _url_entry(
                d,
                "snowflake_password",
                "snowflake_url",
                "Snowflake URL",
                "snowflake",
                pick(["etl_user", "dbt"]),
                acct,
                "/ANALYTICS/PUBLIC?warehouse=COMPUTE_WH&role=TRANSFORMER",
            )
        ]
    return [
        _bare_pw(d, "snowflake_password", ["snowsql_pwd", "snowflake_password", "dbt_password"], "Snowflake password")
    ]


@secret_kind("clickhouse_password", True, "password in `clickhouse://` URLs, `CLICKHOUSE_PASSWORD`")
def _ch(d: Doc) -> list[Entry]:
    if chance(0.5):
        return [
            _url_entry(
                d,
                "clickhouse_password",
                "clickhouse_url",
                "ClickHouse URL",
                "clickhouse",
                "default",
                f"{rs(ALNUM_LO, 10)}.eu-central-1.aws.clickhouse.cloud:8443",
                "/default?secure=true",
            )
        ]
    return [_bare_pw(d, "clickhouse_password", ["clickhouse_password", "ch_password"], "ClickHouse password")]


@secret_kind("elasticsearch_password", True, "password of the `elastic` user, alone or in a URL")
def _es(d: Doc) -> list[Entry]:
    if chance(0.5):
        return [
            _url_entry(
                d,
                "elasticsearch_password",
                "elasticsearch_url",
                "Elasticsearch URL",
                "https",
                "elastic",
                f"es-{pick(PROJECTS)}.example.com:9200",
                "",
            )
        ]
    return [_bare_pw(d, "elasticsearch_password", ["elastic_password", "es_password"], "password of the elastic user")]


@secret_kind("kafka_sasl_password", True, "SASL password in a JAAS config, `sasl.password`, `KAFKA_SASL_PASSWORD`")
def _kafka(d: Doc) -> list[Entry]:
    pw = password(pick(["url", "random", "long"]))
    if "\\" in pw or '"' in pw:
        pw = password("url")
    if chance(0.5):
        frag = f'org.apache.kafka.common.security.plain.PlainLoginModule required username="{rs(ALNUM_UP, 16)}" password="{d.mark("kafka_sasl_password", pw)}";'
        return [Entry("kafka_sasl_password", "sasl_jaas_config", "Kafka JAAS config", frag)]
    return [
        Entry(
            "kafka_sasl_password",
            pick(["sasl_password", "kafka_sasl_password", "kafka_password"]),
            "Kafka SASL password",
            d.mark("kafka_sasl_password", pw),
        )
    ]


@secret_kind("elastic_api_key", True, "base64(`id:api_key`) after `ApiKey ` or under a name")
def _elastic_key(d: Doc) -> list[Entry]:
    v = b64(f"{rs(B64URL, 20)}:{rs(B64URL, 22)}".encode())
    if chance(0.5):
        return [
            Entry("elastic_api_key", "Authorization", "Elasticsearch API key", "ApiKey " + d.mark("elastic_api_key", v))
        ]
    return [
        Entry(
            "elastic_api_key", pick(["elastic_api_key", "es_api_key"]), "Elastic API key", d.mark("elastic_api_key", v)
        )
    ]


@secret_kind("azure_storage_account_key", True, "88-character base64 account key (alone or as `AccountKey=`)")
def _az_storage(d: Doc) -> list[Entry]:
    key = b64(rb(64))
    acct = pick(PROJECTS) + rs(ALNUM_LO, 4) + pick(["prod", "sa", "data"])
    if chance(0.6):
        frag = f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={d.mark('azure_storage_account_key', key)};EndpointSuffix=core.windows.net"
        return [
            Entry("azure_storage_account_key", "azure_storage_connection_string", "storage connection string", frag)
        ]
    return [
        Entry(
            "azure_storage_account_key",
            pick(["azure_storage_key", "azure_storage_account_key", "storage_account_key"]),
            "storage account key",
            d.mark("azure_storage_account_key", key),
        )
    ]


@secret_kind("azure_sas_signature", True, "URL-encoded `sig=` of a SAS URL")
def _az_sas(d: Doc) -> list[Entry]:
    sig = b64(rb(32))
    acct = pick(PROJECTS) + rs(ALNUM_LO, 5)
    url = (
        f"https://{acct}.blob.core.windows.net/{pick(['backups', 'exports', 'uploads'])}/{pick(['db.bak', 'report.csv', 'model.bin'])}"
        f"?sv=2022-11-02&ss=b&srt=co&sp=rl&se=2026-0{R.randint(1, 9)}-1{R.randint(0, 9)}T00:00:00Z&spr=https&sig="
    )
    return [Entry("azure_sas_signature", "sas_url", "SAS URL", url + d.mark("azure_sas_signature", pct(sig), sig))]


@secret_kind(
    "azure_service_bus_key", True, "44-character `SharedAccessKey=` of a Service Bus / Event Hubs connection string"
)
def _az_sb(d: Doc) -> list[Entry]:
    ns = pick(PROJECTS) + "-" + pick(["bus", "events", "sb"])
    frag = f"Endpoint=sb://{ns}.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={d.mark('azure_service_bus_key', b64(rb(32)))}"
    if chance(0.3):
        frag += ";EntityPath=" + pick(["orders", "telemetry"])
    return [Entry("azure_service_bus_key", "servicebus_connection_string", "Service Bus connection string", frag)]


@secret_kind("docker_config_auth", True, "base64(`user:password`) `auth` of a Docker config")
def _docker_auth(d: Doc) -> list[Entry]:
    reg = pick(
        [
            "https://index.docker.io/v1/",
            "ghcr.io",
            "registry.gitlab.com",
            "123456789012.dkr.ecr.eu-west-1.amazonaws.com",
            "harbor.example.com",
        ]
    )
    auth = b64(f"{username().replace('.', '')}:{password('url')}".encode())
    frag = '{"auths":{"' + reg + '":{"auth":"' + d.mark("docker_config_auth", auth) + '"}}}'
    return [
        Entry(
            "docker_config_auth",
            pick(["docker_auth_config", "dockerconfigjson", "docker_config"]),
            "Docker config.json",
            frag,
        )
    ]


@secret_kind("cloudinary_api_secret", True, "secret inside `cloudinary://<key>:<secret>@<cloud>` or under a name")
def _cloudinary(d: Doc) -> list[Entry]:
    sec = rs(B64URL, 27)
    if chance(0.6):
        return [
            Entry(
                "cloudinary_api_secret",
                "cloudinary_url",
                "Cloudinary URL",
                f"cloudinary://{rs(DIGITS, 15)}:{d.mark('cloudinary_api_secret', sec)}@{pick(PROJECTS)}-media",
            )
        ]
    return [
        Entry(
            "cloudinary_api_secret",
            "cloudinary_api_secret",
            "Cloudinary API secret",
            d.mark("cloudinary_api_secret", sec),
        )
    ]


def _webhook_kind(name, desc, make, names, label):
    @secret_kind(name, True, desc)
    def gen(d: Doc) -> list[Entry]:
        return [Entry(name, pick(names), label, d.mark(name, make()))]


_webhook_kind(
    "slack_webhook_url",
    "whole `hooks.slack.com/services/T/B/24` URL",
    lambda: f"https://hooks.slack.com/services/T{rs(ALNUM_UP, 9)}/B{rs(ALNUM_UP, 10)}/{rs(ALNUM, 24)}",
    ["slack_webhook_url", "slack_webhook", "alert_webhook"],
    "Slack incoming webhook",
)
_webhook_kind(
    "discord_webhook_url",
    "whole `discord.com/api/webhooks/<id>/<68>` URL",
    lambda: (
        f"https://{pick(['discord.com', 'discordapp.com'])}/api/webhooks/{R.randint(10**17, 10**19 - 1)}/{rs(B64URL, 68)}"
    ),
    ["discord_webhook_url", "discord_webhook"],
    "Discord webhook",
)
_webhook_kind(
    "msteams_webhook_url",
    "whole `*.webhook.office.com/webhookb2/...` URL",
    lambda: (
        f"https://{pick(ORGS)}.webhook.office.com/webhookb2/{ruuid()}@{ruuid()}/IncomingWebhook/{rhex(16)}/{ruuid()}"
    ),
    ["teams_webhook_url", "msteams_webhook"],
    "Teams incoming webhook",
)


@secret_kind("ifttt_webhook_key", False, "22-character Maker key in a `maker.ifttt.com` URL")
def _ifttt(d: Doc) -> list[Entry]:
    key = rs(B64URL, 22)
    if chance(0.6):
        ev = pick(["garage_open", "doorbell", "low_battery", "backup_done"])
        return [
            Entry(
                "ifttt_webhook_key",
                "ifttt_url",
                "IFTTT webhook",
                f"https://maker.ifttt.com/trigger/{ev}/with/key/{d.mark('ifttt_webhook_key', key)}",
            )
        ]
    return [Entry("ifttt_webhook_key", "ifttt_key", "IFTTT Maker key", d.mark("ifttt_webhook_key", key))]


# ---------------------------------------------------------------------------------------------------- structured keys and signed tokens

RSA_SIGNERS: list[RsaKey] = []


def rsa_signer() -> RsaKey:
    if len(RSA_SIGNERS) < 2:
        RSA_SIGNERS.append(rsa_key())
    return pick(RSA_SIGNERS)


def key_comment() -> str:
    return f"{pick(FIRST)}@{pick(['laptop', 'build-01', 'bastion', 'mbp', 'deploy'])}"


@secret_kind(
    "rsa_private_key", True, "2048-bit RSA key pair, PKCS #1 or PKCS #8 PEM (real key, seeded)", where="multiline"
)
def _rsa(d: Doc) -> list[Entry]:
    text = rsa_key().pem(pkcs8=chance(0.5))
    return [
        Entry(
            "rsa_private_key",
            pick(["private_key", "tls_key", "jwt_private_key", "github_app_private_key"]),
            "RSA private key",
            d.mark("rsa_private_key", text),
        )
    ]


@secret_kind(
    "gcp_service_account_key", True, "`private_key` of a service-account JSON (real RSA key, `\\n` escapes kept)"
)
def _gcp(d: Doc) -> list[Entry]:
    key = rsa_key()
    body = key.pem(pkcs8=True).replace("\n", "\\n")
    project = f"{pick(PROJECTS)}-{pick(['prod', 'dev', 'data'])}-{R.randint(100000, 999999)}"
    sa = f"{pick(['ci-deployer', 'bq-loader', 'terraform', 'backup'])}@{project}.iam.gserviceaccount.com"
    parts = [
        ('"type"', '"service_account"'),
        ('"project_id"', f'"{project}"'),
        ('"private_key_id"', '"' + d.la("key_identifier", rhex(20)) + '"'),
        ('"private_key"', '"' + d.mark("gcp_service_account_key", body, key.pem(pkcs8=True)) + '\\n"'),
        ('"client_email"', f'"{sa}"'),
        ('"client_id"', f'"1{rs(DIGITS, 20)}"'),
        ('"auth_uri"', '"https://accounts.google.com/o/oauth2/auth"'),
        ('"token_uri"', '"https://oauth2.googleapis.com/token"'),
    ]
    if d.family in ("narr", "tool") and chance(0.6):
        frag = "{\n" + ",\n".join(f"  {k}: {v}" for k, v in parts) + "\n}"
    else:
        frag = "{" + ", ".join(f"{k}: {v}" for k, v in parts) + "}"
    return [
        Entry(
            "gcp_service_account_key",
            pick(["google_credentials", "gcp_sa_key", "google_application_credentials_json"]),
            "service account JSON",
            frag,
        )
    ]


@secret_kind(
    "ec_private_key",
    True,
    "P-256 key, SEC 1 or PKCS #8 PEM (public point derived; also Apple `.p8` keys)",
    where="multiline",
)
def _ec(d: Doc) -> list[Entry]:
    text = ec_private_pem(pkcs8=chance(0.5))
    return [
        Entry(
            "ec_private_key",
            pick(["ec_private_key", "apns_auth_key", "signing_key", "app_store_connect_key"]),
            "EC private key",
            d.mark("ec_private_key", text),
        )
    ]


@secret_kind("openssh_private_key", True, "`openssh-key-v1` Ed25519 key (public half derived)", where="multiline")
def _openssh(d: Doc) -> list[Entry]:
    text, pub = openssh_ed25519(rb(32), key_comment())
    out = [
        Entry(
            "openssh_private_key",
            pick(["ssh_private_key", "deploy_key", "id_ed25519"]),
            "SSH private key",
            d.mark("openssh_private_key", text),
        )
    ]
    if chance(0.4):
        out.insert(0, la_entry(d, "ssh_public_key", "ssh_public_key", "public half", pub))
    return out


@secret_kind(
    "pgp_private_key", True, "armored OpenPGP Ed25519 secret key with self-signature and CRC-24", where="multiline"
)
def _pgp(d: Doc) -> list[Entry]:
    uid = f"{pick(FIRST).capitalize()} {pick(SURNAMES)} <{email_addr()}>"
    text, fpr = pgp_ed25519(rb(32), uid, R.randint(1600000000, 1750000000), secret=True)
    out = [
        Entry(
            "pgp_private_key",
            pick(["gpg_private_key", "signing_key", "pgp_secret_key"]),
            "GPG private key",
            d.mark("pgp_private_key", text),
        )
    ]
    if chance(0.4):
        out.insert(0, la_entry(d, "key_fingerprint", "gpg_fingerprint", "fingerprint", fpr))
    return out


@secret_kind(
    "putty_private_key", False, "PuTTY PPK v3 Ed25519 key with its HMAC-SHA-256 `Private-MAC`", where="multiline"
)
def _ppk(d: Doc) -> list[Entry]:
    text = putty_ed25519(rb(32), f"{pick(['eddsa-key-', 'winscp-', 'ops-'])}{R.randint(20200101, 20251231)}")
    return [Entry("putty_private_key", "ppk", "PuTTY key", d.mark("putty_private_key", text))]


@secret_kind("age_secret_key", False, "`AGE-SECRET-KEY-1` + bech32 (recipient derived, a look-alike)")
def _age(d: Doc) -> list[Entry]:
    priv, pub = x25519_keypair()
    sk = bech32_encode("age-secret-key-", convertbits(priv, 8, 5)).upper()
    out = [
        Entry(
            "age_secret_key",
            pick(["sops_age_key", "age_identity", "age_key"]),
            "age identity",
            d.mark("age_secret_key", sk),
        )
    ]
    if chance(0.5):
        out.insert(
            0, la_entry(d, "age_recipient", "age_recipient", "public key", bech32_encode("age", convertbits(pub, 8, 5)))
        )
    return out


@secret_kind("wireguard_private_key", True, "base64 clamped X25519 private key (peer public key derived, a look-alike)")
def _wg(d: Doc) -> list[Entry]:
    priv, _ = x25519_keypair()
    out = [
        Entry(
            "wireguard_private_key",
            pick(["wg_private_key", "private_key", "wireguard_private_key"]),
            "WireGuard private key",
            d.mark("wireguard_private_key", b64(priv)),
        )
    ]
    if chance(0.5):
        out.append(la_entry(d, "wireguard_public_key", "peer_public_key", "peer public key", b64(x25519_keypair()[1])))
    return out


@secret_kind("vpn_preshared_key", True, "IPsec / WireGuard pre-shared keys")
def _psk(d: Doc) -> list[Entry]:
    v = b64(rb(32)) if chance(0.5) else rs(ALNUM + "-_.!", R.randint(24, 40))
    return [
        Entry(
            "vpn_preshared_key",
            pick(["preshared_key", "ipsec_psk", "vpn_psk"]),
            pick(["VPN pre-shared key", "IPsec PSK", "WireGuard PresharedKey"]),
            d.mark("vpn_preshared_key", v),
        )
    ]


@secret_kind(
    "ethereum_private_key", False, "64 hex (optionally `0x`) under a private-key name (address derived, a look-alike)"
)
def _eth(d: Doc) -> list[Entry]:
    k = R.randrange(1, K1_N)
    hexk = ("0x" if chance(0.5) else "") + k.to_bytes(32, "big").hex()
    out = [
        Entry(
            "ethereum_private_key",
            pick(["private_key", "deployer_private_key", "wallet_private_key", "eth_private_key"]),
            "wallet private key",
            d.mark("ethereum_private_key", hexk),
        )
    ]
    if chance(0.5):
        out.insert(0, la_entry(d, "crypto_address", "wallet_address", "wallet address", eth_address(k)))
    return out


@secret_kind("bitcoin_wif_private_key", False, "WIF compressed key (base58check)")
def _wif(d: Doc) -> list[Entry]:
    wif = b58check(b"\x80" + rb(32) + b"\x01")
    return [
        Entry(
            "bitcoin_wif_private_key",
            pick(["wif", "btc_private_key", "hot_wallet_wif"]),
            "bitcoin private key (WIF)",
            d.mark("bitcoin_wif_private_key", wif),
        )
    ]


@secret_kind("nats_nkey_seed", False, "`SU` + 56 base32 user seed with CRC-16")
def _nkey(d: Doc) -> list[Entry]:
    prefix = 20 << 3
    raw = bytes([(18 << 3) | (prefix >> 5), (prefix & 31) << 3]) + rb(32)
    raw += crc16_xmodem(raw).to_bytes(2, "little")
    seed = base64.b32encode(raw).decode().rstrip("=")
    return [
        Entry(
            "nats_nkey_seed",
            pick(["nkey_seed", "nats_seed", "nats_user_seed"]),
            "NATS nkey seed",
            d.mark("nats_nkey_seed", seed),
        )
    ]


@secret_kind("pypi_token", True, "`pypi-` + v2 macaroon (location `pypi.org`, HMAC chain)")
def _pypi(d: Doc) -> list[Entry]:
    tok = pypi_token(pick([None, pick(PROJECTS) + "-client"]))
    return [
        Entry(
            "pypi_token",
            pick(["pypi_token", "twine_password", "pypi_api_token"]),
            "PyPI API token",
            d.mark("pypi_token", tok),
        )
    ]


@secret_kind("supabase_service_role_key", True, "HS256 JWT with `role: service_role`, or `sb_secret_` + 32")
def _supa(d: Doc) -> list[Entry]:
    if chance(0.75):
        iat = R.randint(1690000000, 1750000000)
        v = jwt_hs256(
            {"iss": "supabase", "ref": rs(LOWER, 20), "role": "service_role", "iat": iat, "exp": iat + 315360000},
            rb(32),
        )
    else:
        v = "sb_secret_" + rs(B64URL, 32)
    return [
        Entry(
            "supabase_service_role_key",
            pick(["supabase_service_role_key", "supabase_service_key", "service_role_key"]),
            "Supabase service role key",
            d.mark("supabase_service_role_key", v),
        )
    ]


@secret_kind("kubernetes_service_account_token", True, "RS256 service-account JWT signed by a seeded RSA key")
def _k8s_token(d: Doc) -> list[Entry]:
    ns, sa = pick(["default", "ci", "monitoring", "argocd"]), pick(["deployer", "ci-bot", "prometheus", "admin-user"])
    iat = R.randint(1700000000, 1760000000)
    payload = {
        "aud": ["https://kubernetes.default.svc.cluster.local"],
        "exp": iat + 31536000,
        "iat": iat,
        "iss": "https://kubernetes.default.svc.cluster.local",
        "kubernetes.io": {"namespace": ns, "serviceaccount": {"name": sa, "uid": ruuid()}},
        "sub": f"system:serviceaccount:{ns}:{sa}",
    }
    tok = jwt_rs256(payload, rsa_signer(), b64u(rb(32)))
    if chance(0.3):
        return [
            Entry(
                "kubernetes_service_account_token",
                "Authorization",
                "cluster bearer token",
                "Bearer " + d.mark("kubernetes_service_account_token", tok),
            )
        ]
    return [
        Entry(
            "kubernetes_service_account_token",
            pick(["kube_token", "k8s_token", "sa_token"]),
            "Kubernetes service-account token",
            d.mark("kubernetes_service_account_token", tok),
        )
    ]


@secret_kind("kubeconfig_client_key_data", True, "base64 of a PEM key in `client-key-data`")
def _kcfg(d: Doc) -> list[Entry]:
    v = b64((ec_private_pem(pkcs8=False) + "\n").encode())
    return [
        Entry(
            "kubeconfig_client_key_data",
            "client-key-data",
            "kubeconfig client-key-data",
            d.mark("kubeconfig_client_key_data", v),
        )
    ]


@secret_kind("k8s_secret_data", True, "base64 of a password in a Secret's `data:` (or `echo -n ... | base64` output)")
def _k8s_secret(d: Doc) -> list[Entry]:
    v = b64(password(pick(["url", "random", "long", "word"])).encode())
    return [
        Entry(
            "k8s_secret_data",
            pick(["password", "db-password", "api-token", "admin-password"]),
            "base64 password in the Secret",
            d.mark("k8s_secret_data", v),
        )
    ]


@secret_kind("home_assistant_token", False, "long-lived access token (HS256 JWT)")
def _hass(d: Doc) -> list[Entry]:
    iat = R.randint(1650000000, 1750000000)
    v = jwt_hs256({"iss": rhex(16), "iat": iat, "exp": iat + 315360000}, rb(32))
    return [
        Entry(
            "home_assistant_token",
            pick(["hass_token", "home_assistant_token", "ha_token"]),
            "Home Assistant long-lived token",
            d.mark("home_assistant_token", v),
        )
    ]


@secret_kind("turso_auth_token", False, "EdDSA JWT with a real Ed25519 signature")
def _turso(d: Doc) -> list[Entry]:
    v = jwt_eddsa({"a": pick(["rw", "ro"]), "iat": R.randint(1700000000, 1760000000), "id": ruuid()}, rb(32))
    return [
        Entry(
            "turso_auth_token",
            pick(["turso_auth_token", "libsql_auth_token"]),
            "Turso auth token",
            d.mark("turso_auth_token", v),
        )
    ]


@secret_kind("onepassword_service_account_token", True, "`ops_` + base64url JSON")
def _ops(d: Doc) -> list[Entry]:
    body = {
        "signInAddress": "my.1password.com",
        "userAuth": {"method": "SRPg-4096", "alg": "PBES2g-HS256", "iterations": 650000, "salt": b64u(rb(16))},
        "email": rs(ALNUM_LO, 13) + "@1passwordserviceaccounts.com",
        "srpX": rhex(32),
        "muk": {
            "alg": "A256GCM",
            "ext": False,
            "k": b64u(rb(32)),
            "key_ops": ["decrypt", "encrypt"],
            "kty": "oct",
            "kid": "mp",
        },
        "secretKey": "A3-" + "-".join(rs(ALNUM_UP, n) for n in (6, 6, 5, 5, 5, 5)),
        "deviceUuid": rs(ALNUM_LO, 26),
    }
    v = "ops_" + b64u(json.dumps(body, separators=(",", ":")).encode())
    return [
        Entry(
            "onepassword_service_account_token",
            "op_service_account_token",
            "1Password service account token",
            d.mark("onepassword_service_account_token", v),
        )
    ]


# ---------------------------------------------------------------------------------------------------- generic secrets

GENERIC_PW_LABELS = [
    "VPN password",
    "jump host password",
    "sudo password on the build box",
    "admin password for the staging CMS",
    "SFTP password for the vendor drop",
    "shared support mailbox password",
    "Grafana admin password",
    "Jenkins admin password",
    "root password of the old NAS",
    "WordPress admin password",
    "password for the test account",
    "Keycloak admin password",
    "pgAdmin login",
    "password of the service user",
    "Windows local admin password",
    "ansible become password",
]


@secret_kind(
    "password", True, "account passwords of every style (random, passphrase, leet, pronounceable, tricky quoting)", n=40
)
def _password(d: Doc) -> list[Entry]:
    label = d.concept("password") if d.lang != "en" and chance(0.5) else pick(GENERIC_PW_LABELS)
    names = [
        "password",
        "admin_password",
        "user_password",
        "login_password",
        "root_password",
        "grafana_admin_password",
        "pass",
        "passwd",
        "pwd",
        "secret_password",
    ]
    return [Entry("password", pick(names), label, d.mark("password", password()))]


@secret_kind(
    "personal_account_password",
    False,
    "passwords of personal accounts (bank, insurance, utilities, shops, streaming)",
    where="personal",
)
def _personal_pw(d: Doc) -> list[Entry]:
    if d.lang == "en":
        label = pick(
            [
                "online banking password",
                "password for the insurance portal",
                "energy supplier account password",
                "Netflix password",
                "supermarket loyalty account password",
                "council tax portal password",
                "pension portal password",
                "mobile carrier account password",
                "Amazon password",
                "NHS app password",
            ]
        )
    else:
        label = d.concept("bank")
    return [
        Entry(
            "personal_account_password",
            "password",
            label,
            d.mark("personal_account_password", password(pick(["word", "random", "leet", "phrase"]))),
        )
    ]


@secret_kind(
    "generic_api_key", True, "API keys with no provider prefix, given only by a name or the sentence around them", n=30
)
def _generic_key(d: Doc) -> list[Entry]:
    v = choose(
        lambda: rhex(16), lambda: rhex(24), lambda: rs(ALNUM, 40), lambda: rs(B64URL, 48), lambda: rs(ALNUM, 32), ruuid
    )
    vendor = pick(
        [
            "partner",
            "geocoding",
            "payments gateway",
            "shipping",
            "SMS",
            "internal",
            "search",
            "analytics export",
            "translation",
        ]
    )
    label = f"{vendor} API key"
    names = [
        "api_key",
        "partner_api_key",
        "internal_api_key",
        "x_api_key",
        "service_api_key",
        "apikey",
        "shipping_api_key",
        "geocoder_key",
    ]
    if chance(0.25):
        return [
            Entry("generic_api_key", pick(["X-API-Key", "X-Api-Key", "apikey"]), label, d.mark("generic_api_key", v))
        ]
    return [Entry("generic_api_key", pick(names), label, d.mark("generic_api_key", v))]


@secret_kind("bearer_token", True, "opaque access tokens after `Bearer ` or named access tokens", n=20)
def _bearer(d: Doc) -> list[Entry]:
    v = choose(lambda: rs(B64URL, 43), lambda: rhex(32), lambda: rs(ALNUM, 64), lambda: rs(B64URL, 86))
    if chance(0.6):
        return [Entry("bearer_token", "Authorization", "API bearer token", "Bearer " + d.mark("bearer_token", v))]
    return [
        Entry(
            "bearer_token",
            pick(["access_token", "auth_token", "api_token", "service_token"]),
            "access token",
            d.mark("bearer_token", v),
        )
    ]


@secret_kind("basic_auth_credentials", True, "base64(`user:password`) after `Basic `")
def _basic(d: Doc) -> list[Entry]:
    v = b64(f"{username().replace('.', '')}:{password('nospace')}".encode())
    return [
        Entry(
            "basic_auth_credentials",
            "Authorization",
            "Basic auth header",
            "Basic " + d.mark("basic_auth_credentials", v),
        )
    ]


@secret_kind("session_cookie", True, "session cookie values after `name=`")
def _cookie(d: Doc) -> list[Entry]:
    name, make = pick(
        [
            ("sessionid", lambda: rs(ALNUM_LO, 32)),
            ("PHPSESSID", lambda: rs(ALNUM_LO, 26)),
            ("JSESSIONID", lambda: rs(HEX_UP, 32)),
            (
                "connect.sid",
                lambda: "s%3A" + rs(B64URL, 32) + "." + rs(B64, 43).replace("/", "%2F").replace("+", "%2B"),
            ),
            ("_myapp_session", lambda: rs(B64, 120).replace("+", "%2B").replace("/", "%2F") + "--" + rhex(20)),
            ("laravel_session", lambda: "eyJpdiI6" + rs(B64URL, 150)),
            (
                "__Secure-next-auth.session-token",
                lambda: (
                    "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0.."
                    + rs(B64URL, 22)
                    + "."
                    + rs(B64URL, 160)
                    + "."
                    + rs(B64URL, 22)
                ),
            ),
        ]
    )
    v = make()
    return [Entry("session_cookie", "Cookie", "session cookie", f"{name}={d.mark('session_cookie', v)}")]


@secret_kind("jwt_access_token", True, "signed user JWTs (HS256 / RS256) used as access tokens")
def _jwt(d: Doc) -> list[Entry]:
    iat = R.randint(1700000000, 1760000000)
    payload = {
        "sub": ruuid(),
        "email": email_addr(),
        "scope": pick(["read write", "admin", "orders:read"]),
        "iat": iat,
        "exp": iat + 3600 * R.randint(1, 720),
    }
    v = jwt_hs256(payload, rb(32)) if chance(0.6) else jwt_rs256(payload, rsa_signer(), rhex(8))
    if chance(0.5):
        return [Entry("jwt_access_token", "Authorization", "user JWT", "Bearer " + d.mark("jwt_access_token", v))]
    return [
        Entry(
            "jwt_access_token",
            pick(["access_token", "id_token", "jwt"]),
            "JWT access token",
            d.mark("jwt_access_token", v),
        )
    ]


@secret_kind("jwt_signing_secret", True, "HMAC secrets for signing JWTs (`JWT_SECRET`)")
def _jwt_secret(d: Doc) -> list[Entry]:
    v = choose(lambda: rhex(32), lambda: rs(ALNUM, 48), lambda: b64(rb(48)), lambda: password("phrase"))
    return [
        Entry(
            "jwt_signing_secret",
            pick(["jwt_secret", "jwt_secret_key", "auth_secret", "nextauth_secret", "token_signing_key"]),
            "JWT signing secret",
            d.mark("jwt_signing_secret", v),
        )
    ]


@secret_kind("app_secret_key", True, "Django `SECRET_KEY`, Rails `secret_key_base`, Laravel `APP_KEY`, Flask, Phoenix")
def _app_secret(d: Doc) -> list[Entry]:
    name, v = pick(
        [
            (
                "secret_key",
                lambda: (
                    "django-insecure-" + rs(LOWER + DIGITS + "!@#%^&*(-_=+)", 50)
                    if chance(0.3)
                    else rs(LOWER + DIGITS + "!@#%^&*(-_=+)", 50)
                ),
            ),
            ("secret_key_base", lambda: rhex(64)),
            ("app_key", lambda: "base64:" + b64(rb(32))),
            ("flask_secret_key", lambda: rhex(24)),
            ("secret_key_base", lambda: rs(B64, 64)),
        ]
    )
    return [Entry("app_secret_key", name, "app secret key", d.mark("app_secret_key", v()))]


@secret_kind("encryption_key", True, "32-byte data keys as hex / base64, Fernet keys, `ENCRYPTION_KEY`")
def _enc(d: Doc) -> list[Entry]:
    v = choose(
        lambda: rhex(32),
        lambda: b64(rb(32)),
        lambda: base64.urlsafe_b64encode(rb(32)).decode(),
        lambda: "base64:" + b64(rb(32)),
    )
    return [
        Entry(
            "encryption_key",
            pick(["encryption_key", "data_key", "fernet_key", "field_encryption_key", "aes_key", "master_key"]),
            "encryption key",
            d.mark("encryption_key", v),
        )
    ]


@secret_kind("webhook_signing_secret", True, "HMAC secrets for webhook signatures (GitHub, Shopify, in-house)")
def _whsec(d: Doc) -> list[Entry]:
    v = choose(lambda: rhex(32), lambda: rs(ALNUM, 40), lambda: b64(rb(32)))
    return [
        Entry(
            "webhook_signing_secret",
            pick(["webhook_secret", "github_webhook_secret", "signing_secret", "hmac_secret"]),
            "webhook signing secret",
            d.mark("webhook_signing_secret", v),
        )
    ]


@secret_kind("oauth_client_secret", True, "OAuth client secret of an unnamed app")
def _oauth(d: Doc) -> list[Entry]:
    v = choose(lambda: rs(ALNUM, 40), lambda: rs(B64URL, 64), lambda: rhex(20))
    out = [
        Entry(
            "oauth_client_secret",
            pick(["client_secret", "oauth_client_secret", "oidc_client_secret", "sso_client_secret"]),
            "OAuth client secret",
            d.mark("oauth_client_secret", v),
        )
    ]
    if chance(0.5):
        out.insert(0, la_entry(d, "oauth_client_id", "client_id", "client id", choose(ruuid, lambda: rs(ALNUM, 20))))
    return out


@secret_kind("ldap_bind_password", True, "LDAP / Active Directory bind password")
def _ldap(d: Doc) -> list[Entry]:
    return [
        _bare_pw(
            d,
            "ldap_bind_password",
            ["ldap_bind_password", "bind_password", "ldap_password", "ad_bind_pw"],
            "LDAP bind password",
        )
    ]


@secret_kind("keystore_password", True, "Java / Android keystore and key passwords")
def _keystore(d: Doc) -> list[Entry]:
    return [
        _bare_pw(
            d,
            "keystore_password",
            [
                "store_password",
                "key_password",
                "keystore_password",
                "android_keystore_password",
                "ssl_keystore_password",
            ],
            "keystore password",
            pick(["nospace", "word", "url"]),
        )
    ]


@secret_kind("totp_seed", True, "base32 TOTP seed (alone or in an `otpauth://` URI)")
def _totp(d: Doc) -> list[Entry]:
    seed = base64.b32encode(rb(20)).decode()
    if chance(0.5):
        issuer = pick(["GitHub", "AWS", "Okta", "Proton", "Coinbase", "Grafana"])
        uri = f"otpauth://totp/{issuer}:{email_addr().replace('@', '%40')}?secret={d.mark('totp_seed', seed)}&issuer={issuer}&algorithm=SHA1&digits=6&period=30"
        return [Entry("totp_seed", "otpauth_uri", "2FA setup URI", uri)]
    return [Entry("totp_seed", pick(["totp_secret", "mfa_seed", "otp_secret"]), "TOTP seed", d.mark("totp_seed", seed))]


@secret_kind("recovery_code", True, "2FA backup / recovery codes (each code labelled)", n=12, where="personal_tech")
def _recovery(d: Doc) -> list[Entry]:
    make = pick(
        [
            lambda: f"{rhex(3)[:5]}-{rhex(3)[:5]}",
            lambda: f"{rs(DIGITS, 4)} {rs(DIGITS, 4)}",
            lambda: rs(ALNUM_LO, 10),
            lambda: f"{rs(ALNUM_LO, 4)}-{rs(ALNUM_LO, 4)}",
            lambda: rs(DIGITS, 8),
        ]
    )
    codes = [d.mark("recovery_code", make()) for _ in range(R.randint(4, 10))]
    return [Entry("recovery_code", "recovery_codes", d.concept("recovery"), "", codes=codes)]


# ---------------------------------------------------------------------------------------------------- personal secrets


@secret_kind("wifi_password", False, "Wi-Fi / WPA passphrases (also in `WIFI:` QR strings)", where="personal_plus")
def _wifi(d: Doc) -> list[Entry]:
    pw = password(pick(["word", "phrase", "random", "pron", "phrase_space"]))
    if chance(0.25) and " " not in pw and not any(c in pw for c in ';,:\\"'):
        ssid = pick(
            ["Vodafone-4F2A", "FRITZ!Box 7590 KL", "BT-Hub6-73XQ", "Casa_Lopez", "TP-Link_9C3E", "Livebox-61A0"]
        )
        return [
            Entry(
                "wifi_password", "wifi_qr", "Wi-Fi QR payload", f"WIFI:T:WPA;S:{ssid};P:{d.mark('wifi_password', pw)};;"
            )
        ]
    return [
        Entry(
            "wifi_password",
            pick(["wifi_password", "wpa_passphrase", "psk"]),
            d.concept("wifi"),
            d.mark("wifi_password", pw),
        )
    ]


@secret_kind("router_admin_password", False, "router / NAS admin passwords", where="personal_plus")
def _router(d: Doc) -> list[Entry]:
    return [
        Entry(
            "router_admin_password",
            pick(["router_password", "admin_password", "nas_password"]),
            d.concept("router"),
            d.mark("router_admin_password", password()),
        )
    ]


@secret_kind(
    "device_pin", False, "named PINs of 6+ digits (phone, banking app, loyalty card, voicemail)", where="personal"
)
def _pin(d: Doc) -> list[Entry]:
    return [
        Entry(
            "device_pin",
            "pin",
            d.concept("pin"),
            d.mark("device_pin", str(R.randint(1, 9)) + rs(DIGITS, R.randint(5, 7))),
        )
    ]


@secret_kind("door_access_code", False, "door, garage, alarm and key-safe codes of 6+ digits", where="personal")
def _door(d: Doc) -> list[Entry]:
    return [
        Entry(
            "door_access_code",
            "door_code",
            d.concept("door"),
            d.mark("door_access_code", str(R.randint(1, 9)) + rs(DIGITS, R.randint(5, 7))),
        )
    ]


@secret_kind("sim_puk_code", False, "8-digit SIM PUK codes", where="personal")
def _puk(d: Doc) -> list[Entry]:
    return [
        Entry("sim_puk_code", "puk", d.concept("puk"), d.mark("sim_puk_code", str(R.randint(1, 9)) + rs(DIGITS, 7)))
    ]


@secret_kind(
    "app_specific_password",
    False,
    "Apple / Google app-specific passwords (`xxxx-xxxx-xxxx-xxxx`, `xxxx xxxx xxxx xxxx`)",
    where="personal_tech",
)
def _app_pw(d: Doc) -> list[Entry]:
    sep = pick(["-", " "])
    v = sep.join(rs(LOWER, 4) for _ in range(4))
    label = pick(
        [
            "app-specific password for Thunderbird",
            "Gmail app password",
            "iCloud app-specific password",
            "app password for the NAS mail alerts",
        ]
    )
    return [Entry("app_specific_password", "app_password", label, d.mark("app_specific_password", v))]


@secret_kind(
    "bitlocker_recovery_key",
    False,
    "48-digit BitLocker recovery key (each block a multiple of 11)",
    where="personal_tech",
)
def _bitlocker(d: Doc) -> list[Entry]:
    v = "-".join(f"{11 * R.randrange(65536):06d}" for _ in range(8))
    return [Entry("bitlocker_recovery_key", "recovery_key", d.concept("disk"), d.mark("bitlocker_recovery_key", v))]


@secret_kind(
    "filevault_recovery_key", False, "FileVault / Apple account recovery keys (groups of 4)", where="personal_tech"
)
def _filevault(d: Doc) -> list[Entry]:
    groups = 6 if chance(0.6) else 7
    v = "-".join(rs(ALNUM_UP.replace("O", "").replace("0", ""), 4) for _ in range(groups))
    label = (
        pick(["FileVault recovery key", "Apple account recovery key"]) if d.lang == "en" else "FileVault recovery key"
    )
    return [Entry("filevault_recovery_key", "recovery_key", label, d.mark("filevault_recovery_key", v))]


@secret_kind(
    "software_license_key",
    False,
    "product / licence keys (5x5 base-24, grouped hex, vendor formats)",
    where="personal_tech",
)
def _licence(d: Doc) -> list[Entry]:
    v = choose(
        lambda: "-".join(rs("BCDFGHJKMPQRTVWXY2346789", 5) for _ in range(5)),
        lambda: "-".join(rs(HEX_UP, 4) for _ in range(4)),
        lambda: "-".join(rs(ALNUM_UP, 6) for _ in range(4)),
        lambda: pick(["LIC", "PRO", "ENT"]) + "-" + "-".join(rs(ALNUM_UP, 5) for _ in range(3)),
    )
    product = pick(
        ["Office", "Windows 11 Pro", "JetBrains", "Sublime Text", "Affinity Photo", "Parallels", "CAD suite"]
    )
    label = f"{product} licence key" if d.lang == "en" else d.concept("licence") + f" ({product})"
    return [Entry("software_license_key", "license_key", label, d.mark("software_license_key", v))]


@secret_kind("master_password", False, "password-manager master passwords and passphrases", where="personal")
def _master(d: Doc) -> list[Entry]:
    return [
        Entry(
            "master_password",
            "master_password",
            d.concept("master"),
            d.mark("master_password", password(pick(["phrase", "phrase_space", "long", "leet"]))),
        )
    ]


SECURITY_ANSWERS = [
    "Pemberton",
    "Vasquez-Ortega",
    "Little Chalfont",
    "Marigold Lane",
    "Sqn Ldr Biscuit",
    "Okonkwo",
    "Villa Rosmarino",
    "Kowalczyk",
    "Tamsin Achterberg",
    "Ravenscroft",
    "Quillon",
    "Bergström",
]


@secret_kind("security_question_answer", False, "answers to security questions / memorable words", where="personal")
def _answer(d: Doc) -> list[Entry]:
    v = pick(SECURITY_ANSWERS) + pick(["", "", str(R.randint(1, 99)), pick(["Grove", "Street", "Farm"])])
    return [
        Entry("security_question_answer", "security_answer", d.concept("answer"), d.mark("security_question_answer", v))
    ]


# ---------------------------------------------------------------------------------------------------- look-alike kinds


def lookalike(name: str, desc: str, n: int = 32, where: str = "any"):
    def deco(fn):
        LOOKALIKES[name] = KindInfo(name, False, desc, fn, n, where)
        return fn

    return deco


def _la(kind: str, names: list[str], labels: list[str], make):
    @lookalike(kind, "")
    def gen(d: Doc) -> list[Entry]:
        return [la_entry(d, kind, pick(names), pick(labels), make())]

    return gen


def ulid() -> str:
    t = R.randint(1700000000000, 1760000000000)
    head = ""
    for _ in range(10):
        t, r = divmod(t, 32)
        head = CROCKFORD[r] + head
    return head + rs(CROCKFORD, 16)


def ups_tracking() -> str:
    body = rs(ALNUM_UP, 6) + pick(["01", "02", "03", "12", "13"]) + rs(DIGITS, 7)
    total = 0
    for i, ch in enumerate(body):
        v = int(ch) if ch.isdigit() else (ord(ch) - ord("A") + 2) % 10
        total += v * (2 if i % 2 else 1)
    return "1Z" + body + str((10 - total % 10) % 10)


def usps_tracking() -> str:
    body = "9400" + rs(DIGITS, 17)
    total = sum(int(c) * (3 if i % 2 == 0 else 1) for i, c in enumerate(reversed(body)))
    return body + str((10 - total % 10) % 10)


VIN_MAP = {**{str(i): i for i in range(10)}, **dict(zip("ABCDEFGH", range(1, 9), strict=True))}
VIN_MAP |= (
    dict(zip("JKLMN", range(1, 6), strict=True)) | {"P": 7, "R": 9} | dict(zip("STUVWXYZ", range(2, 10), strict=True))
)
VIN_WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2]


def vin() -> str:
    chars = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"
    v = list(
        pick(["1HG", "WVW", "JTD", "5YJ", "WBA", "VF1", "ZFA"]) + rs(chars, 5) + "0" + rs(chars, 2) + rs(DIGITS, 6)
    )
    total = sum(VIN_MAP[c] * w for c, w in zip(v, VIN_WEIGHTS, strict=True))
    v[8] = "X" if total % 11 == 10 else str(total % 11)
    return "".join(v)


def iban() -> str:
    cc, bban = pick(
        [
            ("DE", lambda: rs(DIGITS, 18)),
            ("GB", lambda: pick(["NWBK", "BARC", "MIDL", "LOYD"]) + rs(DIGITS, 14)),
            ("FR", lambda: rs(DIGITS, 10) + rs(ALNUM_UP, 11) + rs(DIGITS, 2)),
            ("NL", lambda: pick(["ABNA", "INGB", "RABO"]) + rs(DIGITS, 10)),
            ("ES", lambda: rs(DIGITS, 20)),
            ("IT", lambda: pick(UPPER) + rs(DIGITS, 10) + rs(ALNUM_UP, 12)),
            ("PL", lambda: rs(DIGITS, 24)),
        ]
    )
    b = bban()
    num = "".join(str(int(c, 36)) for c in b + cc + "00")
    check = 98 - int(num) % 97
    s = f"{cc}{check:02d}{b}"
    return " ".join(s[i : i + 4] for i in range(0, len(s), 4)) if chance(0.5) else s


def isbn13() -> str:
    body = "978" + rs(DIGITS, 9)
    total = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(body))
    s = body + str((10 - total % 10) % 10)
    return f"{s[:3]}-{s[3]}-{s[4:8]}-{s[8:12]}-{s[12]}" if chance(0.5) else s


def sentence_b64() -> str:
    text = pick(
        [
            "Hello from the staging cluster, all good here.",
            "The quick brown fox jumps over the lazy dog",
            '{"theme":"dark","lang":"en","beta":false}',
            "user preferences: compact mode, no sounds",
            "build 1842 passed on main",
            "Thanks for the coffee this morning!",
            "lorem ipsum dolor sit amet, consectetur",
            '{"page":2,"per_page":50,"sort":"created_at"}',
        ]
    )
    return b64(text.encode())


_la(
    "uuid",
    ["user_id", "job_id", "correlation_id", "tenant_uuid", "device_id"],
    ["user id", "job id", "correlation id", "device id"],
    ruuid,
)
_la(
    "git_commit_sha",
    ["commit", "git_sha", "revision", "base_ref"],
    ["commit", "merge commit", "revision"],
    lambda: sha1(rb(24)).hex(),
)
_la(
    "container_digest",
    ["image_digest", "digest"],
    ["image digest", "base image digest"],
    lambda: (
        "sha256:" + sha256(rb(32)).hex()
        if chance(0.6)
        else f"{pick(['ghcr.io/acme/api', 'nginx', 'python'])}@sha256:{sha256(rb(32)).hex()}"
    ),
)
_la(
    "sha256_checksum",
    ["sha256", "checksum", "sha256sum"],
    ["SHA-256 of the release tarball", "checksum of the installer"],
    lambda: sha256(rb(32)).hex(),
)
_la(
    "md5_checksum",
    ["md5", "etag", "content_md5"],
    ["MD5 of the dump", "S3 ETag"],
    lambda: md5hex(rb(16)) + (f"-{R.randint(2, 40)}" if chance(0.2) else ""),
)
_la(
    "ssh_public_key",
    ["ssh_public_key", "authorized_key"],
    ["public SSH key", "deploy key (public part)"],
    lambda: openssh_ed25519(rb(32), key_comment())[1] if chance(0.6) else ssh_ecdsa_public(key_comment()),
)
_la(
    "key_fingerprint",
    ["fingerprint", "host_key_fingerprint"],
    ["SSH host key fingerprint", "GPG fingerprint", "key fingerprint"],
    lambda: choose(
        lambda: ssh_fingerprint(openssh_ed25519(rb(32), "x")[1]),
        lambda: ":".join(rhex(1) for _ in range(16)),
        lambda: " ".join(rhex(2).upper() for _ in range(10)),
    ),
)


@lookalike("certificate", "self-signed X.509 certificates (PEM, real ECDSA signature)", where="multiline")
def _cert(d: Doc) -> list[Entry]:
    cn = f"{pick(['api', 'auth', 'grafana', 'vpn', 'mail'])}.{pick(DOMAINS)}"
    return [
        la_entry(
            d,
            "certificate",
            pick(["tls_cert", "certificate", "ca_cert"]),
            "certificate",
            x509_self_signed(cn, pick(ORGS).capitalize(), R.randint(2023, 2025))[0],
        )
    ]


@lookalike("public_key_pem", "`BEGIN PUBLIC KEY` PEM (P-256 or Ed25519)", where="multiline")
def _pubpem(d: Doc) -> list[Entry]:
    v = ec_public_pem() if chance(0.5) else ed25519_public_pem(rb(32))
    return [la_entry(d, "public_key_pem", pick(["public_key", "jwt_public_key", "verify_key"]), "public key", v)]


@lookalike("pgp_public_key", "armored OpenPGP public keys (self-signed, CRC-24)", where="multiline")
def _pgppub(d: Doc) -> list[Entry]:
    uid = f"{pick(FIRST).capitalize()} {pick(SURNAMES)} <{email_addr()}>"
    return [
        la_entry(
            d,
            "pgp_public_key",
            "gpg_public_key",
            "public GPG key",
            pgp_ed25519(rb(32), uid, R.randint(1600000000, 1750000000), secret=False)[0],
        )
    ]


PLACEHOLDERS = [
    "<your-api-key>",
    "changeme",
    "REPLACE_ME",
    "xxxxxxxxxxxxxxxxxxxxxxxx",
    "sk_live_XXXXXXXXXXXXXXXXXXXXXXXX",
    "your_password_here",
    "<PASSWORD>",
    "TODO-set-me",
    "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "AKIAXXXXXXXXXXXXXXXX",
    "insert-token-here",
    "<redacted>",
    "dummy-secret-for-tests",
    "00000000-0000-0000-0000-000000000000",
    "my-secret-key",
    "${PASSWORD}",
]
_la(
    "placeholder",
    ["api_key", "password", "token", "secret_key", "client_secret"],
    ["placeholder", "value in the example config"],
    lambda: pick(PLACEHOLDERS),
)
_la(
    "template_reference",
    ["password", "api_key", "token", "db_password"],
    ["templated value", "reference resolved at deploy time"],
    lambda: pick(
        [
            "${{ secrets.DEPLOY_TOKEN }}",
            "${{ secrets.AWS_SECRET_ACCESS_KEY }}",
            "{{ .Values.db.password }}",
            "{{ vault_db_password }}",
            "${var.db_password}",
            "<%= ENV['API_KEY'] %>",
            "%(smtp_password)s",
            "#{SMTP_PASSWORD}",
            "{{ secrets.stripe_key }}",
            "$(SONAR_TOKEN)",
        ]
    ),
)
_la(
    "env_reference",
    ["password", "api_key", "token", "database_url"],
    ["value from the environment", "environment reference"],
    lambda: pick(
        [
            "$DB_PASSWORD",
            "${STRIPE_SECRET_KEY}",
            "${OPENAI_API_KEY:?missing}",
            "%API_KEY%",
            "$env:API_TOKEN",
            "${REDIS_PASSWORD:-}",
            "$GITHUB_TOKEN",
            "env:SLACK_BOT_TOKEN",
        ]
    ),
)
_la(
    "aws_example_key",
    ["aws_access_key_id", "aws_secret_access_key"],
    ["example key from the AWS docs"],
    lambda: pick(
        [
            "AKIAIOSFODNN7EXAMPLE",
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "AKIAI44QH8DHBEXAMPLE",
            "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY",
        ]
    ),
)
_la(
    "documented_example",
    ["token", "example_jwt", "api_key", "secret"],
    ["sample from the docs", "documentation example"],
    lambda: pick(
        [
            "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ."
            + JWT_IO_SIG,
            "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
            "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ",
            "xoxb-not-a-real-token-this-will-not-work",
        ]
    ),
)
_la("base64_text", ["payload", "state", "data", "cursor"], ["encoded payload", "state parameter"], sentence_b64)
_la("test_card_number", ["card_number", "test_card"], ["test card", "sandbox card number"], lambda: pick(TEST_CARDS))
_la("iban", ["iban", "payee_iban"], ["IBAN", "landlord's IBAN"], iban)
_la(
    "tracking_number",
    ["tracking_number", "tracking"],
    ["tracking number", "parcel tracking"],
    lambda: ups_tracking() if chance(0.5) else usps_tracking() if chance(0.5) else rs(DIGITS, 10),
)
_la(
    "order_number",
    ["order_id", "order_number"],
    ["order number", "order"],
    lambda: choose(
        lambda: f"{rs(DIGITS, 3)}-{rs(DIGITS, 7)}-{rs(DIGITS, 7)}",
        lambda: f"ORD-2025-{rs(DIGITS, 6)}",
        lambda: "#" + rs(DIGITS, 6),
    ),
)
_la(
    "serial_number",
    ["serial", "serial_number", "asset_tag"],
    ["serial number", "device serial"],
    lambda: choose(
        lambda: "C02" + rs(ALNUM_UP, 9), lambda: "5CG" + rs(DIGITS, 4) + rs(ALNUM_UP, 3), lambda: "SN-" + rs(DIGITS, 10)
    ),
)
_la("imei", ["imei"], ["IMEI", "phone IMEI"], lambda: luhn_complete(pick(["35", "86", "49"]) + rs(DIGITS, 12)))
_la("vin", ["vin"], ["VIN", "car VIN"], vin)
_la(
    "file_path",
    ["key_file", "credentials_file", "cert_path"],
    ["path to the key file", "credentials file"],
    lambda: pick(
        [
            "~/.ssh/id_ed25519",
            "/etc/ssl/private/server.key",
            "~/.aws/credentials",
            "C:\\Users\\ops\\.kube\\config",
            "/run/secrets/db_password",
            "./certs/client-key.pem",
            "~/.config/gcloud/application_default_credentials.json",
            "/var/lib/jenkins/secrets/initialAdminPassword",
        ]
    ),
)
_la(
    "url",
    ["endpoint", "base_url", "docs_url"],
    ["endpoint", "dashboard link"],
    lambda: (
        pick(["https://api.", "https://console.", "https://status."])
        + pick(DOMAINS)
        + pick(["/v2/orders", "/login", "/", "/docs/auth#tokens", "/projects/42/settings"])
    ),
)
_la(
    "semver",
    ["version", "image_tag", "sdk_version"],
    ["version", "release"],
    lambda: (
        f"{R.randint(0, 9)}.{R.randint(0, 30)}.{R.randint(0, 40)}" + pick(["", "", "-rc.1", "-beta.3", "+build.1842"])
    ),
)
_la(
    "timestamp",
    ["created_at", "expires_at", "timestamp"],
    ["timestamp", "expiry"],
    lambda: (
        f"2025-{R.randint(1, 12):02d}-{R.randint(1, 28):02d}T{R.randint(0, 23):02d}:{R.randint(0, 59):02d}:{R.randint(0, 59):02d}Z"
        if chance(0.6)
        else str(R.randint(1700000000000, 1760000000000))
    ),
)
_la(
    "k8s_resource_name",
    ["pod", "replicaset"],
    ["pod", "ReplicaSet"],
    lambda: (
        f"{pick(PROJECTS)}-{pick(['api', 'worker', 'web'])}-{rs('bcdfghjklmnpqrstvwxz2456789', 10)}"
        + (f"-{rs('bcdfghjklmnpqrstvwxz2456789', 5)}" if chance(0.7) else "")
    ),
)
_la(
    "stripe_publishable_key",
    ["stripe_publishable_key", "next_public_stripe_key", "pk"],
    ["Stripe publishable key"],
    lambda: "pk_live_" + (rs(ALNUM, 24) if chance(0.4) else "51" + rs(ALNUM, 97)),
)
_la(
    "public_client_key",
    ["posthog_key", "clerk_publishable_key", "pusher_key", "public_key"],
    ["client-side key", "publishable key"],
    lambda: choose(
        lambda: "phc_" + rs(ALNUM, 43),
        lambda: "pk_live_" + b64(f"clerk.{pick(DOMAINS)}$".encode()).rstrip("="),
        lambda: "pk-lf-" + ruuid(),
        lambda: rhex(10),
    ),
)


@lookalike("publishable_anon_key", "Supabase anon JWTs (role `anon`) and `sb_publishable_` keys")
def _anon(d: Doc) -> list[Entry]:
    iat = R.randint(1690000000, 1750000000)
    v = (
        jwt_hs256({"iss": "supabase", "ref": rs(LOWER, 20), "role": "anon", "iat": iat, "exp": iat + 315360000}, rb(32))
        if chance(0.7)
        else "sb_publishable_" + rs(B64URL, 32)
    )
    return [
        la_entry(
            d,
            "publishable_anon_key",
            pick(["supabase_anon_key", "next_public_supabase_anon_key"]),
            "Supabase anon key",
            v,
        )
    ]


_la(
    "firebase_web_api_key",
    ["apiKey", "firebase_api_key"],
    ["Firebase web config apiKey"],
    lambda: "AIza" + rs(B64URL, 35),
)
_la(
    "public_site_key",
    ["recaptcha_site_key", "turnstile_site_key", "sitekey"],
    ["reCAPTCHA site key", "Turnstile site key"],
    lambda: "6L" + rs(B64URL, 38) if chance(0.5) else "0x4AAAAAAA" + rs(B64URL, 14),
)
_la(
    "mapbox_public_token",
    ["mapbox_access_token", "next_public_mapbox_token"],
    ["Mapbox public token"],
    lambda: (
        "pk."
        + b64u(
            json.dumps({"u": pick(FIRST) + pick(ORGS), "a": "cl" + rs(ALNUM_LO, 23)}, separators=(",", ":")).encode()
        )
        + "."
        + rs(B64URL, 22)
    ),
)
_la(
    "sentry_dsn",
    ["sentry_dsn", "dsn"],
    ["Sentry DSN"],
    lambda: (
        f"https://{rhex(16)}@o{R.randint(100000, 4999999)}.ingest.{pick(['', 'us.', 'de.'])}sentry.io/{R.randint(1000000, 4999999)}"
    ),
)
_la(
    "analytics_id",
    ["ga_measurement_id", "gtm_id", "pixel_id"],
    ["GA4 measurement id", "GTM container", "Meta pixel id"],
    lambda: choose(
        lambda: "G-" + rs(ALNUM_UP, 10),
        lambda: "GTM-" + rs(ALNUM_UP, 7),
        lambda: f"UA-{rs(DIGITS, 8)}-1",
        lambda: rs(DIGITS, 16),
    ),
)
_la(
    "oauth_client_id",
    ["client_id", "google_client_id", "azure_client_id", "github_client_id"],
    ["OAuth client id", "app (client) id"],
    lambda: choose(google_client_id, ruuid, lambda: "Iv1." + rhex(8), lambda: "Ov23li" + rs(ALNUM, 14)),
)
_la(
    "account_identifier",
    ["aws_account_id", "stripe_account", "cloudflare_account_id", "slack_team_id"],
    ["AWS account id", "connected account", "Cloudflare account id", "Slack workspace id"],
    lambda: choose(
        lambda: rs(DIGITS, 12), lambda: "acct_1" + rs(ALNUM, 15), lambda: rhex(16), lambda: "T0" + rs(ALNUM_UP, 8)
    ),
)
_la("tenant_id", ["azure_tenant_id", "tenant_id", "directory_id"], ["Entra tenant id", "directory (tenant) id"], ruuid)
_la(
    "cloud_resource_id",
    ["role_arn", "resource_id", "bucket_arn"],
    ["role ARN", "resource id"],
    lambda: choose(
        lambda: f"arn:aws:iam::{rs(DIGITS, 12)}:role/{pick(PROJECTS)}-deployer",
        lambda: f"arn:aws:s3:::{pick(ORGS)}-{pick(PROJECTS)}-artifacts",
        lambda: (
            f"/subscriptions/{ruuid()}/resourceGroups/rg-{pick(PROJECTS)}/providers/Microsoft.KeyVault/vaults/kv-{pick(PROJECTS)}"
        ),
        lambda: f"projects/{pick(PROJECTS)}-prod/locations/europe-west1/services/{pick(PROJECTS)}-api",
    ),
)
_la(
    "request_id",
    ["request_id", "x_request_id", "cf_ray"],
    ["request id", "CF-Ray"],
    lambda: choose(
        lambda: "req_" + rs(ALNUM, 14),
        lambda: rs(HEX_UP, 16),
        lambda: rhex(8) + "-" + pick(["FRA", "LHR", "IAD", "NRT"]),
    ),
)
_la(
    "trace_id",
    ["trace_id", "traceparent", "x_amzn_trace_id"],
    ["trace id", "traceparent"],
    lambda: choose(lambda: f"00-{rhex(16)}-{rhex(8)}-01", lambda: f"Root=1-{rhex(4)}-{rhex(12)}", lambda: rhex(16)),
)


def _bcrypt_b64(n: int) -> str:
    return rs("./" + ALNUM, n)


_la(
    "password_hash",
    ["password_hash", "hashed_password", "htpasswd"],
    ["password hash", "stored password hash", "hash from the users table"],
    lambda: choose(
        lambda: f"$2b$12${_bcrypt_b64(53)}",
        lambda: f"$argon2id$v=19$m=65536,t=3,p=4${b64(rb(16)).rstrip('=')}${b64(rb(32)).rstrip('=')}",
        lambda: f"pbkdf2_sha256$870000${rs(ALNUM, 22)}${b64(rb(32))}",
        lambda: f"$6$rounds=656000${_bcrypt_b64(16)}${_bcrypt_b64(86)}",
    ),
)
_la(
    "masked_value",
    ["api_key", "password", "token"],
    ["masked value", "redacted key"],
    lambda: pick(
        [
            "sk_live_" + "*" * 20 + rs(ALNUM, 4),
            "********",
            "[REDACTED]",
            "xoxb-****-****",
            "\u2022" * 8 + rs(DIGITS, 4),
            "ghp_" + "*" * 10 + rs(ALNUM, 4),
            "***",
        ]
    ),
)
_la(
    "encrypted_value",
    ["password", "api_key", "ciphertext"],
    ["SOPS-encrypted value", "ciphertext blob"],
    lambda: choose(
        lambda: f"ENC[AES256_GCM,data:{b64(rb(18))},iv:{b64(rb(32))},tag:{b64(rb(16))},type:str]",
        lambda: "AgB" + rs(B64, 120) + "==",
        lambda: "AQICAHh" + rs(B64, 150) + "==",
        lambda: "vault:v1:" + b64(rb(40)),
    ),
)
_la(
    "secret_manager_reference",
    ["password", "api_key", "db_password"],
    ["secret reference", "pointer to the vault entry"],
    lambda: pick(
        [
            f"op://{pick(['Private', 'Engineering', 'Infra'])}/{pick(PROJECTS)}/password",
            f"vault:secret/data/{pick(PROJECTS)}#password",
            f"arn:aws:secretsmanager:eu-west-1:{rs(DIGITS, 12)}:secret:prod/{pick(PROJECTS)}/db-{rs(ALNUM, 6)}",
            f"projects/{pick(PROJECTS)}-prod/secrets/api-key/versions/latest",
            f"@Microsoft.KeyVault(SecretUri=https://kv-{pick(PROJECTS)}.vault.azure.net/secrets/db-password/)",
            f"ssm:/{pick(PROJECTS)}/prod/api_key",
        ]
    ),
)
_la("ulid", ["event_id", "ulid"], ["event id"], ulid)
_la(
    "mac_address",
    ["mac", "hw_address"],
    ["MAC address"],
    lambda: ":".join(rhex(1) for _ in range(6)) if chance(0.7) else "-".join(rhex(1).upper() for _ in range(6)),
)
_la(
    "ip_address",
    ["host", "ip", "allowed_cidr"],
    ["IP address", "allow-listed range"],
    lambda: choose(
        lambda: f"10.{R.randint(0, 255)}.{R.randint(0, 255)}.{R.randint(1, 254)}",
        lambda: f"192.168.{R.randint(0, 255)}.{R.randint(1, 254)}",
        lambda: f"203.0.113.{R.randint(1, 254)}/32",
        lambda: f"2001:db8:{rhex(2)}::{rhex(2)}",
    ),
)
_la(
    "crypto_address",
    ["wallet_address", "btc_address", "eth_address"],
    ["donation address", "wallet address"],
    lambda: choose(lambda: segwit_address(0, rb(20)), lambda: segwit_address(1, rb(32)), lambda: eip55(rb(20))),
)
_la("tx_hash", ["tx_hash", "txid"], ["transaction hash"], lambda: ("0x" if chance(0.5) else "") + rhex(32))
_la(
    "wireguard_public_key",
    ["public_key", "peer_public_key"],
    ["WireGuard public key"],
    lambda: b64(x25519_keypair()[1]),
)
_la(
    "age_recipient",
    ["age_recipient", "sops_age_recipient"],
    ["age recipient"],
    lambda: bech32_encode("age", convertbits(x25519_keypair()[1], 8, 5)),
)
_la("npm_integrity", ["integrity"], ["lockfile integrity"], lambda: "sha512-" + b64(rb(64)))
_la("sri_integrity", ["integrity", "sri"], ["SRI hash"], lambda: "sha384-" + b64(rb(48)))
_la("go_sum_hash", ["go_sum"], ["go.sum hash"], lambda: "h1:" + b64(rb(32)))
_la(
    "content_hashed_filename",
    ["asset", "bundle"],
    ["bundle file", "hashed asset"],
    lambda: (
        pick(["main.", "app-", "vendor.", "runtime~main."])
        + rhex(pick([4, 8]))
        + pick([".js", ".css", ".chunk.js", ".woff2"])
    ),
)
_la("isbn", ["isbn"], ["ISBN"], isbn13)
_la(
    "key_identifier",
    ["kid", "key_id", "kms_key_id", "private_key_id"],
    ["key id", "KMS key id", "signing key id"],
    lambda: choose(
        ruuid, lambda: "mrk-" + rhex(16), lambda: rhex(20), lambda: rs(ALNUM_UP, 10), lambda: rs(HEX_UP, 16)
    ),
)
_la(
    "docker_image_ref",
    ["image"],
    ["image"],
    lambda: (
        pick(["ghcr.io/", "registry.gitlab.com/", "", "public.ecr.aws/"])
        + pick(["acme/api", "postgres", "redis", "grafana/grafana", "library/nginx"])
        + ":"
        + pick(["16.3-alpine", "7.2", "1.27", "v2.14.1", "2025.03.1"])
    ),
)
_la(
    "long_identifier",
    ["test_name", "flag", "handler"],
    ["test", "feature flag"],
    lambda: (
        pick(
            [
                "test_refresh_token_is_rejected_after_password_change",
                "ENABLE_EXPERIMENTAL_CHECKOUT_FLOW_FOR_BETA_USERS",
                "shouldRotateSigningKeyWhenPreviousKeyIsExpired",
                "handle_customer_subscription_updated_webhook",
                "AbstractSingletonProxyFactoryBeanConfiguration",
                "test_api_key_header_is_redacted_in_debug_logs",
            ]
        )
        + pick(["", "", "_v2", "Legacy"])
    ),
)
_la(
    "document_id",
    ["doc_url"],
    ["spec doc", "shared sheet"],
    lambda: f"https://docs.google.com/{pick(['document', 'spreadsheets'])}/d/1{rs(B64URL, 43)}/edit",
)
_la(
    "short_id",
    ["video", "link"],
    ["recording", "short link"],
    lambda: choose(lambda: "https://youtu.be/" + rs(B64URL, 11), lambda: "https://bit.ly/" + rs(ALNUM, 7)),
)
_la(
    "payment_object_id",
    ["customer_id", "payment_intent", "subscription_id"],
    ["Stripe customer", "payment intent", "subscription"],
    lambda: pick(["cus_", "pi_", "sub_", "in_", "ch_"]) + (rs(ALNUM, 14) if chance(0.5) else "3" + rs(ALNUM, 23)),
)


LA_DESC = {
    "uuid": "UUIDs used as ids",
    "git_commit_sha": "40-hex commit SHAs",
    "container_digest": "`sha256:` image digests (bare or `image@sha256:`)",
    "sha256_checksum": "SHA-256 file digests",
    "md5_checksum": "MD5 checksums and multipart S3 ETags",
    "ssh_public_key": "`ssh-ed25519` (derived from a seed) / `ecdsa-sha2-nistp256` public keys",
    "key_fingerprint": "SSH `SHA256:` (computed from a real key blob), MD5 and PGP fingerprints",
    "certificate": "self-signed P-256 X.509 certificates (PEM, real ECDSA signature, verified)",
    "public_key_pem": "`BEGIN PUBLIC KEY` PEM (P-256 or Ed25519 SPKI)",
    "pgp_public_key": "armored OpenPGP Ed25519 public keys with self-signature and CRC-24",
    "placeholder": "placeholders (`<your-api-key>`, `changeme`, `REPLACE_ME`, `sk_live_XXXX...`, all-zero UUID)",
    "template_reference": "template expressions (`${{ secrets.X }}`, Helm, Jinja, Terraform, ERB, Azure DevOps)",
    "env_reference": "environment-variable references (`$X`, `${X:-}`, `%X%`, `$env:X`)",
    "aws_example_key": "AWS documentation keys ending in `EXAMPLE` / `EXAMPLEKEY`",
    "documented_example": "published samples (jwt.io token, verified against its documented secret; Stripe docs test key; RFC 6238 seed; Slack docs token)",
    "base64_text": "base64 of ordinary text and JSON",
    "test_card_number": "documented test card numbers (Luhn-checked)",
    "iban": "IBANs with valid ISO 13616 check digits",
    "tracking_number": "UPS `1Z` (check digit), USPS (mod-10) and DHL tracking numbers",
    "order_number": "shop order numbers",
    "serial_number": "device serial numbers and asset tags",
    "imei": "IMEIs with a Luhn check digit",
    "vin": "vehicle identification numbers with a valid check digit",
    "file_path": "paths to key and credential files",
    "url": "URLs without credentials",
    "semver": "version strings",
    "timestamp": "ISO-8601 timestamps and epoch milliseconds",
    "k8s_resource_name": "pod and ReplicaSet names with hash suffixes",
    "stripe_publishable_key": "`pk_live_` publishable keys",
    "public_client_key": "client-side keys: PostHog `phc_`, Clerk `pk_live_`, Langfuse `pk-lf-`, Pusher / LaunchDarkly client ids",
    "publishable_anon_key": "Supabase anon JWTs (role `anon`, real HS256 signature) and `sb_publishable_` keys",
    "firebase_web_api_key": "`AIza` key of a Firebase web config",
    "public_site_key": "reCAPTCHA and Turnstile site keys",
    "mapbox_public_token": "Mapbox `pk.` public tokens",
    "sentry_dsn": "Sentry DSNs (public by design)",
    "analytics_id": "GA4, GTM, UA and Meta pixel ids",
    "oauth_client_id": "OAuth client ids (Google, Entra, GitHub App, PayPal, Spotify, Twitch, Auth0)",
    "account_identifier": "account ids (AWS account, Twilio `AC` / `SK` SIDs, Stripe `acct_`, Cloudflare, Slack, Algolia app id, `rzp_live_` key id, Plaid client id)",
    "tenant_id": "Entra directory (tenant) ids",
    "cloud_resource_id": "ARNs, Azure resource ids, GCP resource names",
    "request_id": "request ids (`req_`, `x-amz-request-id`, CF-Ray)",
    "trace_id": "W3C traceparent, X-Ray and hex trace ids",
    "password_hash": "bcrypt, argon2id, Django PBKDF2 and sha512-crypt hashes",
    "masked_value": "masked or redacted values",
    "encrypted_value": "SOPS `ENC[...]`, sealed-secret, KMS and Vault transit ciphertexts",
    "secret_manager_reference": "secret-manager references (`op://`, Vault, AWS, GCP, Key Vault, SSM)",
    "ulid": "ULIDs",
    "mac_address": "MAC addresses",
    "ip_address": "IPv4 / IPv6 addresses and CIDRs (private or documentation ranges)",
    "crypto_address": "bech32 / bech32m bitcoin and EIP-55 Ethereum addresses (some derived from their secp256k1 key)",
    "tx_hash": "transaction hashes",
    "wireguard_public_key": "WireGuard public keys (X25519)",
    "age_recipient": "`age1` recipients (bech32 of an X25519 key)",
    "npm_integrity": "`sha512-` lockfile integrity",
    "sri_integrity": "`sha384-` subresource integrity",
    "go_sum_hash": "`h1:` module hashes",
    "content_hashed_filename": "content-hashed asset file names",
    "isbn": "ISBN-13 with valid check digits",
    "key_identifier": "key ids: KMS ids, JWT `kid`, `private_key_id`, GPG long ids, Apple key ids",
    "docker_image_ref": "image references with tags",
    "long_identifier": "long identifiers (test, flag and class names)",
    "document_id": "Google Docs / Sheets ids inside links",
    "short_id": "video ids and short-link codes inside links",
    "payment_object_id": "Stripe object ids (`cus_`, `pi_`, `sub_`, `in_`, `ch_`)",
}

# ---------------------------------------------------------------------------------------------------- escaping

MARK_RE = re.compile("[\ue000-\uefff\uf8ff]")


def unmark(s: str) -> str:
    return MARK_RE.sub("", s)


def val(e: Entry, sep: str = ", ") -> str:
    return sep.join(e.codes) if e.codes else e.frag


def esc_c(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


esc_json = esc_c


def esc_single(s: str) -> str:
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n") + "'"


def py_str(s: str) -> str:
    u = unmark(s)
    if "'" in u and '"' not in u:
        return '"' + s.replace("\\", "\\\\").replace("\n", "\\n") + '"'
    return pick([esc_single, esc_c])(s) if "'" not in u else esc_c(s)


def sh_single(s: str) -> str:
    return "'" + s.replace("'", "'\\''") + "'"


def sh_double(s: str) -> str:
    return '"' + re.sub(r'([\\"$`])', r"\\\1", s) + '"'


SAFE_WORD = re.compile(r"[A-Za-z0-9_./:@%+=,~-]+")


def sh_word(s: str) -> str:
    u = unmark(s)
    if SAFE_WORD.fullmatch(u) and chance(0.6):
        return s
    return sh_single(s) if chance(0.7) or "'" in u else sh_double(s)


YAML_PLAIN = re.compile(r"[A-Za-z_./@+~-][A-Za-z0-9_./@+=,%~-]*")


def yaml_scalar(s: str, indent: int) -> str:
    u = unmark(s)
    if "\n" in u:
        pad = " " * (indent + 2)
        return "|\n" + pad + s.replace("\n", "\n" + pad)
    if YAML_PLAIN.fullmatch(u) and u.lower() not in ("yes", "no", "true", "false", "null", "on", "off") and chance(0.6):
        return s
    if chance(0.5) and "\\" not in u:
        return "'" + s.replace("'", "''") + "'"
    return esc_c(s)


def toml_str(s: str) -> str:
    u = unmark(s)
    if "\n" in u:
        return "'''\n" + s + "'''" if "'''" not in u else esc_c(s)
    if "'" not in u and chance(0.4):
        return "'" + s + "'"
    return esc_c(s)


def xml_text(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def xml_attr(s: str) -> str:
    return xml_text(s).replace('"', "&quot;").replace("\n", "&#10;")


def props_val(s: str) -> str:
    out = s.replace("\\", "\\\\").replace("\n", "\\n")
    return "\\" + out if unmark(out).startswith(" ") else out


def hcl_str(s: str) -> str:
    return esc_c(s).replace("${", "$${").replace("%{", "%%{")


def csv_cell(s: str) -> str:
    u = unmark(s)
    if any(c in u for c in ',"\n') or u != u.strip() or chance(0.15):
        return '"' + s.replace('"', '""') + '"'
    return s


def md_cell(s: str) -> str:
    return s.replace("|", "\\|")


def sql_str(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def ps_single(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def ps_double(s: str) -> str:
    return '"' + s.replace("`", "``").replace('"', '`"').replace("$", "`$") + '"'


def ident(name: str, style: str) -> str:
    words = [w for w in re.split(r"[^A-Za-z0-9]+", name) if w]
    words = [w.lower() for w in words] or ["value"]
    if style == "upper":
        return "_".join(w.upper() for w in words)
    if style == "camel":
        return words[0] + "".join(w.capitalize() for w in words[1:])
    if style == "pascal":
        return "".join(w.capitalize() for w in words)
    if style == "kebab":
        return "-".join(words)
    if style == "dot":
        return ".".join(words)
    return "_".join(words)


def entry_name(e: Entry, style: str) -> str:
    return ident(e.name + ("_header" if e.name[:1].isupper() else ""), style)


# ---------------------------------------------------------------------------------------------------- prose helpers


def filler(d: Doc, topic: str = "dev") -> str:
    pool = (
        {"dev": EN_DEV, "ops": EN_OPS, "personal": EN_PERSONAL}.get(topic, EN_FILLER)
        if d.lang == "en"
        else FILLER[d.lang]
    )
    s = pick(pool)
    for _ in range(8):
        if s not in d.used_filler:
            break
        s = pick(pool)
    d.used_filler.add(s)
    return s


def fill_lines(d: Doc, k: int, topic: str = "dev") -> list[str]:
    out: list[str] = []
    while len(out) < k:
        s = filler(d, topic)
        if s not in out:
            out.append(s)
    return out


def comment_text(d: Doc) -> str:
    return pick(COMMENTS[d.lang])


def title(d: Doc) -> str:
    return pick(TITLES[d.lang])


def rdate() -> str:
    return f"2025-{R.randint(1, 12):02d}-{R.randint(1, 28):02d}"


def rtime() -> str:
    return f"{R.randint(0, 23):02d}:{R.randint(0, 59):02d}"


def cap_label(label: str) -> str:
    return label[:1].upper() + label[1:] if label[:1].islower() else label


def prose(d: Doc, e: Entry, allow_block: bool = True) -> str:
    """One sentence (or a label line and a value line) presenting an entry in the document's language."""
    v = val(e, pick([", ", " ", " / "]))
    multi = "\n" in unmark(v)
    if e.codes and chance(0.5):
        head = pick(NEXTLINE[d.lang]).format(L=e.label)
        bullet = pick(["", "- ", "* "])
        return head + "\n" + "\n".join(bullet + c for c in e.codes)
    if multi or (allow_block and chance(0.16)):
        head = pick(NEXTLINE[d.lang]).format(L=e.label)
        if multi and allow_block and chance(0.6):
            return head + "\n```\n" + v + "\n```"
        return head + "\n" + v
    if chance(0.12):
        v = "`" + v + "`"
    pool = (EN_PHRASES if d.lang == "en" else PHRASES[d.lang]) if e.secret else LA_PHRASES[d.lang]
    tmpl = pick(pool)
    if e.secret:
        PHRASE_USE[(d.lang, tmpl)] += 1
    label = cap_label(e.label) if tmpl.startswith("{L}") else e.label
    return tmpl.format(L=label, V=v)


def prose_blocks(d: Doc, entries: list[Entry], topic: str, bullets: float = 0.3) -> list[str]:
    blocks: list[str] = []
    for e in entries:
        if chance(0.45):
            blocks.append(filler(d, topic))
        line = prose(d, e)
        if chance(bullets) and "\n" not in unmark(line):
            line = pick(["- ", "* ", "\u2022 "]) + line
        blocks.append(line)
    if chance(0.7):
        blocks.append(filler(d, topic))
    return blocks


def hard_wrap(text: str, width: int) -> str:
    """Wrap at spaces; words longer than the width are cut. Markers never count and never start or end a line."""
    out_lines: list[str] = []
    for para in text.split("\n"):
        line, vis = "", 0
        for word in para.split(" "):
            wvis = len(unmark(word))
            if vis and vis + 1 + wvis > width:
                out_lines.append(line)
                line, vis = "", 0
            if vis:
                line += " "
                vis += 1
            for ch in word:
                is_mark = MARK_RE.fullmatch(ch) is not None
                if not is_mark and vis >= width:
                    # keep an opening marker with the character after it
                    moved = ""
                    while line and MARK_BASE <= ord(line[-1]) < MARK_LIMIT - 1:
                        moved = line[-1] + moved
                        line = line[:-1]
                    out_lines.append(line)
                    line, vis = moved, 0
                line += ch
                if not is_mark:
                    vis += 1
        out_lines.append(line)
    return "\n".join(out_lines)


# ---------------------------------------------------------------------------------------------------- narrative contexts


def header_date(d: Doc) -> str:
    return rdate()


def r_dev_notes(d: Doc, entries: list[Entry]) -> str:
    head = f"# {title(d)}: {pick(PROJECTS)} ({rdate()})"
    return head + "\n\n" + "\n\n".join(prose_blocks(d, entries, "dev", 0.4)) + "\n"


def r_assistant_memory(d: Doc, entries: list[Entry]) -> str:
    frame = R.randrange(4)
    blocks = [prose(d, e, allow_block=frame != 3) for e in entries]
    if frame == 0:
        facts = [filler(d, "personal" if chance(0.5) else "dev") for _ in range(R.randint(1, 3))]
        body = "\n".join(f"- {x}" for x in facts + blocks)
        heading = "# Memory" if d.lang == "en" else f"# {title(d)}"
        return f"{heading}\n\n_Last updated {rdate()}_\n\n{body}\n"
    if frame == 1:
        recs = []
        for b in blocks:
            rec = f'{{"id": "mem_{rs(ALNUM_LO, 12)}", "created_at": "{rdate()}T{rtime()}:00Z", "type": "{pick(["user_fact", "credential", "preference", "project_note"])}", "content": {esc_json(b)}}}'
            recs.append(rec)
        return "[\n  " + ",\n  ".join(recs) + "\n]\n"
    if frame == 2:
        parts = []
        for b in blocks:
            body = "    " + b.replace("\n", "\n    ")
            parts.append(
                f"- id: mem-{R.randint(1000, 9999)}\n  scope: {pick(['user', 'project', 'global'])}\n  content: |\n{body}"
            )
        return "memories:\n" + "\n".join(parts) + "\n"
    return "\n".join(f"[{rdate()}] {b}" for b in [*blocks, filler(d, "dev")]) + "\n"


def r_chat_log(d: Doc, entries: list[Entry]) -> str:
    people = R.sample(FIRST, 3)
    clock = [R.randint(7 * 60, 11 * 60)]

    def rtime() -> str:
        clock[0] += R.randint(0, 9)
        return f"{clock[0] // 60:02d}:{clock[0] % 60:02d}"

    lines = []
    acks = {
        "en": ["ok thanks", "one sec", "done", "still 401 for me", "works now", "\U0001f44d"],
        "ja": ["了解", "ありがとう"],
        "zh": ["好的", "收到"],
    }
    for e in entries:
        if chance(0.4):
            lines.append(f"[{rtime()}] {pick(people)}: {filler(d)}")
        lines.append(f"[{rtime()}] {pick(people)}: {prose(d, e)}")
        if chance(0.5):
            lines.append(f"[{rtime()}] {pick(people)}: {pick(acks.get(d.lang, ['ok', '+1']))}")
    return f"#{pick(PROJECTS)}-{pick(['dev', 'ops', 'oncall', 'random'])}\n" + "\n".join(lines) + "\n"


URL_TOOLS = {
    "postgres": "psql",
    "postgresql": "psql",
    "mongodb": "mongosh",
    "mongodb+srv": "mongosh",
    "redis": "redis-cli -u",
    "rediss": "redis-cli --tls -u",
    "mysql": "mysqlsh --uri",
    "mysql2": "mysqlsh --uri",
    "mariadb": "mariadb-dump --uri",
    "amqp": "celery -A tasks worker -b",
    "amqps": "celery -A tasks worker -b",
    "snowflake": "python load.py --dsn",
    "clickhouse": "clickhouse-client --connection",
    "sftp": "lftp",
    "ftp": "lftp",
    "smtp": "swaks --server",
    "smtps": "swaks --server",
}
TOOLS = [
    "acmectl login",
    "vendor-cli auth",
    "./deploy.sh",
    "./scripts/sync.py",
    "make release",
    "python manage.py import_orders",
    "node scripts/backfill.js",
]


def _cli_option(e: Entry) -> str:
    n = e.name.lower()
    if any(w in n for w in ("pass", "pwd", "psk")):
        return pick(["--password", "--db-password", "--pass"])
    if "secret" in n:
        return pick(["--secret", "--client-secret"])
    if "key" in n:
        return pick(["--api-key", "--key"])
    return pick(["--token", "--auth-token"])


def _cmd_line(d: Doc, e: Entry) -> str:
    """A shell command that carries the entry (used by runbooks, terminals, histories, CI logs)."""
    v = val(e, " ")
    u = unmark(v)
    name = e.name.lower()
    if e.name[:1].isupper():
        return f"curl -sS -H {sh_single(e.name + ': ' + v)} https://api.{pick(DOMAINS)}/v1/{pick(['me', 'status', 'orders'])}"
    if "://" in u and not u.startswith("{"):
        scheme = u.split("://", 1)[0]
        if scheme in URL_TOOLS:
            return f"{URL_TOOLS[scheme]} {sh_single(v)}"
        if "hooks" in u or "webhook" in u:
            return (
                f"curl -X POST -H 'Content-Type: application/json' -d '{{\"text\":\"deploy finished\"}}' {sh_single(v)}"
            )
        return f"{'git clone' if u.endswith('.git') else 'curl -fsS'} {sh_single(v)}"
    r = R.randrange(5)
    if r == 0:
        opt = _cli_option(e)
        sep = "=" if chance(0.5) else " "
        return f"{pick(TOOLS)} {opt}{sep}{sh_word(v)}"
    if r == 1 and "\n" not in u:
        return f"terraform apply -var {sh_single(ident(e.name, 'snake') + '=' + v)}"
    if r == 2 and any(w in name for w in ("pass", "pwd")) and "\n" not in u:
        return f"mysql -h {pick(DB_HOSTS)} -u {pick(['root', 'app'])} -p{sh_word(v)}"
    if r == 2 and any(w in name for w in ("docker", "registry", "ghcr", "github")):
        return f"echo {sh_word(v)} | docker login {pick(['ghcr.io', 'registry.gitlab.com', 'docker.io'])} -u {pick(FIRST)} --password-stdin"
    return f"export {entry_name(e, 'upper')}={sh_word(v)}"


def r_runbook(d: Doc, entries: list[Entry]) -> str:
    out = [f"# Runbook: {pick(['rotate credentials for', 'restore', 'bootstrap', 'fail over'])} {pick(PROJECTS)}", ""]
    step = 1
    for e in entries:
        out.append(f"## {step}. {filler(d, 'ops')}")
        step += 1
        if chance(0.5) or "\n" in unmark(val(e)):
            out.append(prose(d, e))
        else:
            if d.lang == "en":
                out += [pick(["Run:", "Then:", "On the bastion:"]), ""]
            out.append("    " + _cmd_line(d, e).replace("\n", "\n    "))
        out.append("")
    return "\n".join(out)


def r_incident_report(d: Doc, entries: list[Entry]) -> str:
    out = [
        f"## INC-{R.randint(2023, 2025)}-{R.randint(100, 999)}: {filler(d, 'ops')}",
        f"Severity: SEV{R.randint(1, 3)} | Status: {pick(['resolved', 'monitoring', 'postmortem'])} | {rdate()}",
        "",
        "### Timeline",
    ]
    times = sorted(rtime() for _ in range(R.randint(2, 4)))
    out += [f"- {t} UTC {filler(d, 'ops')}" for t in times]
    out += ["", "### Exposed values" if d.lang == "en" else f"### {title(d)}"]
    out += prose_blocks(d, entries, "ops", 0.5)
    out += ["", "### Action items", f"- [ ] {filler(d, 'ops')}"]
    return "\n".join(out) + "\n"


def r_meeting_minutes(d: Doc, entries: list[Entry]) -> str:
    who = ", ".join(n.capitalize() for n in R.sample(FIRST, 4))
    out = [f"{title(d)} \u2014 {pick(PROJECTS)} sync, {rdate()}", f"Attendees: {who}", ""]
    for e in entries:
        out.append(f"- {prose(d, e)}")
        if chance(0.5):
            out.append(f"- {filler(d)}")
    out += ["", f"AI: {pick(FIRST).capitalize()} \u2014 {filler(d)}"]
    return "\n".join(out) + "\n"


def r_email(d: Doc, entries: list[Entry]) -> str:
    a, b = email_addr(), email_addr()
    split = R.randint(0, len(entries))
    new, old = entries[:split], entries[split:]
    greet = {
        "en": "Hi",
        "es": "Hola",
        "de": "Hallo",
        "fr": "Bonjour",
        "pt": "Oi",
        "it": "Ciao",
        "nl": "Hoi",
        "pl": "Cześć",
        "ja": "お疲れさまです。",
        "zh": "你好\uff0c",
    }[d.lang]
    salutation = greet if d.lang in ("ja", "zh") else f"{greet} {b.split('.')[0].capitalize()},"
    out = [
        f"From: {a}",
        f"To: {b}",
        f"Date: {rdate()} {rtime()}",
        f"Subject: Re: {title(d)} {pick(PROJECTS)}",
        "",
        salutation,
        "",
    ]
    out += prose_blocks(d, new, "dev", 0.2) if new else [filler(d)]
    out += ["", "--", a.split("@")[0].replace(".", " ").title(), ""]
    old_body = (
        [greet.rstrip(",") + ("," if d.lang not in ("ja", "zh") else ""), "", *prose_blocks(d, old, "dev", 0.2)]
        if old
        else [filler(d)]
    )
    out.append(f"On {rdate()} at {rtime()}, {b} wrote:")
    quoted = "\n".join(old_body)
    out.append("> " + quoted.replace("\n", "\n> "))
    return "\n".join(out) + "\n"


def r_ticket(d: Doc, entries: list[Entry]) -> str:
    key = f"{pick(['OPS', 'SEC', 'INFRA', 'HELP', 'PLAT'])}-{R.randint(100, 9999)}"
    out = [
        f"[{key}] {filler(d)}",
        f"Type: {pick(['Task', 'Bug', 'Incident', 'Request'])} | Priority: {pick(['High', 'Medium', 'Low'])} | Reporter: {pick(FIRST)}",
        "",
        "Description:",
    ]
    half = len(entries) // 2
    out += [prose(d, e) for e in entries[:half]] or [filler(d)]
    out += ["", "Comments:"]
    for e in entries[half:]:
        out.append(f"--- {pick(FIRST)} ({rdate()} {rtime()})")
        out.append(prose(d, e))
    return "\n".join(out) + "\n"


def r_wiki_page(d: Doc, entries: list[Entry]) -> str:
    out = [
        f"# {pick(PROJECTS).capitalize()} \u2014 {pick(['access', 'setup', 'environments', 'onboarding'])}",
        "",
        filler(d),
        "",
    ]
    table = [e for e in entries if "\n" not in unmark(val(e)) and chance(0.5)]
    rest = [e for e in entries if e not in table]
    if table:
        out += ["| What | Value | Notes |", "| --- | --- | --- |"]
        for e in table:
            out.append(f"| {md_cell(e.label)} | {md_cell(val(e, ' '))} | {md_cell(filler(d))} |")
        out.append("")
    out += prose_blocks(d, rest, "dev", 0.3)
    return "\n".join(out) + "\n"


def r_personal_notes(d: Doc, entries: list[Entry]) -> str:
    heads = {"en": ["Home", "House stuff", "Admin", "Misc"], "ja": ["家のこと"], "zh": ["家里的事"]}
    out = [f"## {pick(heads.get(d.lang, [title(d)]))}", ""]
    out += prose_blocks(d, entries, "personal", 0.5)
    return "\n".join(out) + "\n"


def r_todo_list(d: Doc, entries: list[Entry]) -> str:
    out = [f"# TODO {rdate()}", ""]
    for e in entries:
        if chance(0.5):
            out.append(f"- [{pick([' ', 'x'])}] {filler(d)}")
        line = prose(d, e, allow_block=False)
        out.append(f"- [{pick([' ', 'x'])}] " + line.replace("\n", "\n  "))
    return "\n".join(out) + "\n"


def r_handover(d: Doc, entries: list[Entry]) -> str:
    name = pick(FIRST).capitalize()
    head = {"en": f"Handover for {name} (while I'm away {rdate()} \u2013 {rdate()})"}.get(
        d.lang, f"{title(d)} \u2014 {name}"
    )
    out = [head, "=" * 20, ""]
    out += prose_blocks(d, entries, pick(["dev", "personal", "ops"]), 0.5)
    return "\n".join(out) + "\n"


def r_code_review(d: Doc, entries: list[Entry]) -> str:
    spec = pick([CODE_SPECS["python"], CODE_SPECS["javascript"], CODE_SPECS["go"], CODE_SPECS["ruby"]])
    out = [f"Review: PR #{R.randint(100, 4000)} \u2014 {filler(d)}", ""]
    for e in entries:
        out.append(
            f"{pick(['src/config', 'app/settings', 'internal/client', 'lib/api'])}.{spec.ext} line {R.randint(3, 300)}:"
        )
        out.append("```diff")
        code = code_assign(spec, e)
        out.append("+" + code.replace("\n", "\n+"))
        out.append("```")
        remarks = {
            "en": [
                "This is a live credential, please move it to the secret store.",
                "Same value as prod?",
                "nit: rename",
                "Please don't commit this.",
            ],
        }
        out.append("> " + pick(remarks.get(d.lang, [comment_text(d)])))
        out.append("")
    return "\n".join(out)


def r_forum_post(d: Doc, entries: list[Entry]) -> str:
    lang = pick(["python", "javascript", "bash", "php", "go"])
    spec = CODE_SPECS[lang]
    intro = {
        "en": f"Title: 401 Unauthorized when calling the API from {lang}\n\nI keep getting 401 even though my credentials look right. Here's what I have:",
    }.get(d.lang, f"{title(d)}: 401 ({lang})\n\n{filler(d)}")
    body = [intro, "", f"```{lang}"]
    body += [code_assign(spec, e) for e in entries]
    body += [
        "```",
        "",
        pick(["Any idea what I'm doing wrong?", "Thanks in advance!", "EDIT: still failing."])
        if d.lang == "en"
        else filler(d),
    ]
    return "\n".join(body) + "\n"


def r_journal(d: Doc, entries: list[Entry]) -> str:
    out = []
    for chunk in (entries[: len(entries) // 2 + 1], entries[len(entries) // 2 + 1 :]):
        if not chunk:
            continue
        out.append(f"{rdate()} ({pick(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'])})")
        out += prose_blocks(d, chunk, pick(["personal", "dev"]), 0.1)
        out.append("")
    return "\n".join(out)


def r_account_list(d: Doc, entries: list[Entry]) -> str:
    out = [
        pick(["Accounts", "Logins", "Passwords (old list)", "Konten", "Comptes", "Cuentas", "アカウント", "账号"]),
        "=" * 12,
        "",
    ]
    for e in entries:
        out.append(cap_label(e.label))
        if e.secret and chance(0.5):
            out.append(f"  login: {email_addr()}")
        if e.codes:
            out += [f"  {c}" for c in e.codes]
        else:
            key = pick(["pw", "pass", "value", "code", "key"])
            out.append(f"  {key}: " + val(e).replace("\n", "\n  "))
        out.append("")
    return "\n".join(out)


def r_scratch(d: Doc, entries: list[Entry]) -> str:
    text = " ".join(
        prose(d, e, allow_block=False).replace("\n", " ") + " " + (filler(d) if chance(0.5) else "") for e in entries
    )
    return hard_wrap(text.strip(), R.randint(56, 78)) + "\n"


TEXT_Q = {
    "en": "what's the {L} again?",
    "es": "¿cuál era {L}?",
    "de": "wie war nochmal {L}?",
    "fr": "c'est quoi déjà {L} ?",
    "pt": "qual é mesmo {L}?",
    "it": "qual era {L}?",
    "nl": "wat was {L} ook alweer?",
    "pl": "jakie było {L}?",
    "ja": "{L}って何だっけ\uff1f",
    "zh": "{L}是多少来着\uff1f",
}


def r_text_messages(d: Doc, entries: list[Entry]) -> str:
    other = pick(["Mum", "Dad", "Sam", "Ana", "Landlord", "Neighbour", "Kenji", "Lucia"])
    lines = []
    for e in entries:
        day = f"[{pick(['Mon', 'Tue', 'Sat', 'Sun'])} {rtime()}]"
        if e.secret and chance(0.6) and not e.codes and "\n" not in unmark(e.frag):
            lines.append(f"{day} {other}: {TEXT_Q[d.lang].format(L=e.label)}")
            lines.append(f"{day} Me: {e.frag}")
        else:
            lines.append(f"{day} Me: {prose(d, e, allow_block=False)}")
        if chance(0.4):
            lines.append(f"{day} {other}: " + pick(["thanks!", "got it", "ok", "\u2764\ufe0f"]))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------------- tool output


def prompt() -> str:
    return f"{pick(FIRST)}@{pick(['laptop', 'build-01', 'bastion', 'dev-vm'])}:~/{pick(PROJECTS)}$ "


def r_terminal(d: Doc, entries: list[Entry]) -> str:
    out = []
    if d.lang != "en":
        out.append(f"# {comment_text(d)}")
    for e in entries:
        v = val(e, "\n")
        multi = "\n" in unmark(v)
        if not e.secret and chance(0.6):
            out.append(prompt() + pick(["acmectl describe", "cat release.json | jq .", "vendor-cli info"]))
            out.append(f"{e.name}: {v}")
            continue
        if multi:
            out.append(
                prompt()
                + f"cat {pick(['~/.ssh/id_ed25519', 'key.pem', 'backup-codes.txt', 'secrets/sa.json', 'tls.key'])}"
            )
            out.append(v)
            continue
        choice = R.randrange(3)
        if choice == 0:
            out.append(prompt() + _cmd_line(d, e))
            out.append(pick(["", "OK", '{"ok":true}', "HTTP/1.1 200 OK", "Logged in."]))
        elif choice == 1:
            out.append(prompt() + f"echo ${entry_name(e, 'upper')}")
            out.append(v)
        else:
            out.append(prompt() + "grep -i " + pick(["key", "token", "pass", "secret"]) + " .env")
            out.append(f"{entry_name(e, 'upper')}={v}")
    out.append(prompt())
    return "\n".join(x for x in out if x is not None) + "\n"


def r_shell_history(d: Doc, entries: list[Entry]) -> str:
    n = R.randint(100, 1900)
    out = []
    for e in entries:
        for _ in range(R.randint(0, 2)):
            out.append(
                pick(
                    [
                        "git status",
                        "ls -la",
                        "kubectl get pods -n prod",
                        "docker ps",
                        "cd ..",
                        "make test",
                        "vim .env",
                        "history | grep curl",
                    ]
                )
            )
        if e.secret:
            out.append(_cmd_line(d, e))
        else:
            out.append(f"acmectl config set {entry_name(e, 'kebab')} {sh_word(val(e, ' '))}")
    return "\n".join(f"{n + i:5d}  {c}" for i, c in enumerate(out)) + "\n"


def r_ci_log(d: Doc, entries: list[Entry]) -> str:
    t0 = f"2025-{R.randint(1, 12):02d}-{R.randint(1, 28):02d}T{R.randint(0, 23):02d}:{R.randint(0, 59):02d}"

    tick = [R.randint(0, 200)]

    def ts() -> str:
        tick[0] += R.randint(0, 40)
        return f"{t0}:{tick[0] // 100 % 60:02d}.{tick[0] % 100:02d}{rs(DIGITS, 5)}Z"

    out = [f"{ts()} ##[group]Run ./scripts/deploy.sh {pick(['staging', 'production'])}"]
    for e in entries:
        v = val(e, " ")
        r = R.randrange(3)
        if r == 0:
            out.append(f"{ts()} + {_cmd_line(d, e)}")
        elif r == 1:
            out.append(f"{ts()}   {entry_name(e, 'upper')}: {v}")
        else:
            out.append(f"{ts()} [debug] {e.label}: {v}")
        if chance(0.3):
            out.append(f"{ts()}   {pick(['SECRET_TOKEN', 'NPM_TOKEN'])}: ***")
    out += [f"{ts()} ##[endgroup]", f"{ts()} Deploy finished with exit code {pick([0, 0, 1])}"]
    return "\n".join(out) + "\n"


def r_app_log(d: Doc, entries: list[Entry]) -> str:
    style = R.randrange(3)
    out = []
    for e in entries:
        v = val(e, " ")
        stamp = f"2025-{R.randint(1, 12):02d}-{R.randint(1, 28):02d}T{rtime()}:{R.randint(0, 59):02d}.{R.randint(0, 999):03d}Z"
        key = entry_name(e, "snake")
        msg = pick(
            [
                "connecting to upstream",
                "loaded config",
                "request failed",
                "retrying with credentials",
                "auth header built",
            ]
        )
        if style == 0:
            out.append(
                f'{{"ts":"{stamp}","level":"{pick(["debug", "info", "warn"])}","msg":"{msg}","{key}":{esc_json(v)}}}'
            )
        elif style == 1:
            out.append(f"ts={stamp} level=debug msg={esc_c(msg)} {key}={esc_c(v)}")
        else:
            out.append(f"{stamp} DEBUG [{pick(['http', 'db', 'auth'])}] {msg}: {key}={v}")
    return "\n".join(out) + "\n"


def r_stack_trace(d: Doc, entries: list[Entry]) -> str:
    flavour = R.randrange(3)
    if flavour == 0:
        out = ["Traceback (most recent call last):"]
        out.append(f'  File "/srv/{pick(PROJECTS)}/app/clients.py", line {R.randint(10, 300)}, in connect')
        out.append("    return Client(**settings)")
        out.append('  File "/usr/local/lib/python3.12/site-packages/httpx/_client.py", line 1012, in send')
        out.append("    raise HTTPStatusError(message, request=request, response=self)")
        out.append(
            f"httpx.HTTPStatusError: Client error '401 Unauthorized' for url 'https://api.{pick(DOMAINS)}/v1/token'"
        )
        out.append("")
        out.append("Local variables in connect():")
        for e in entries:
            out.append(f"    {entry_name(e, 'snake')} = {esc_single(val(e, ' '))}")
        return "\n".join(out) + "\n"
    if flavour == 1:
        out = [f'Exception in thread "main" com.{pick(ORGS)}.client.AuthException: 401 from upstream']
        for e in entries:
            out.append(f"\tat com.{pick(ORGS)}.client.Http.send(Http.java:{R.randint(20, 400)})")
            out.append(f"Caused by: java.lang.IllegalStateException: rejected {entry_name(e, 'camel')}={val(e, ' ')}")
        out.append("\t... 12 more")
        return "\n".join(out) + "\n"
    out = [
        "AxiosError: Request failed with status code 401",
        "    at settle (node_modules/axios/lib/core/settle.js:19:12)",
        "  config: {",
        "    headers: {",
    ]
    for e in entries:
        out.append(f"      {entry_name(e, 'camel')}: {esc_single(val(e, ' '))},")
    out += ["    },", "    method: 'post'", "  }"]
    return "\n".join(out) + "\n"


def r_http_dump(d: Doc, entries: list[Entry]) -> str:
    host = f"api.{pick(DOMAINS)}"
    heads = [e for e in entries if e.name[:1].isupper()]
    body = [e for e in entries if not e.name[:1].isupper()]
    out = [
        f"$ curl -v https://{host}/v1/{pick(['charges', 'messages', 'sync'])}",
        f"*   Trying 203.0.113.{R.randint(2, 250)}:443...",
        "> POST /v1/sync HTTP/2",
        f"> Host: {host}",
    ]
    out += [f"> {e.name}: {val(e)}" for e in heads]
    out += ["> User-Agent: curl/8.5.0", "> Content-Type: application/json", ">"]
    if body:
        out.append("{" + ", ".join(f"{esc_json(entry_name(e, 'snake'))}: {esc_json(val(e))}" for e in body) + "}")
    out += [f"< HTTP/2 {pick([200, 401, 403, 502])}", "< content-type: application/json", '{"ok": false}']
    return "\n".join(out) + "\n"


def r_git_diff(d: Doc, entries: list[Entry]) -> str:
    fmt = pick(["env", "yaml", "py"])
    path = {"env": ".env", "yaml": "config/settings.yaml", "py": "app/settings.py"}[fmt]
    added = []
    for e in entries:
        v = val(e, ",")
        if fmt == "env":
            quoted = sh_double(v) if "\n" in unmark(v) else sh_word(v)
            added.append(f"{entry_name(e, 'upper')}={quoted}")
        elif fmt == "yaml":
            added.append(f"{entry_name(e, 'snake')}: {yaml_scalar(v, 0)}")
        else:
            added.append(code_assign(CODE_SPECS["python"], e))
    out = [
        f"diff --git a/{path} b/{path}",
        f"index {rhex(4)[:7]}..{rhex(4)[:7]} 100644",
        f"--- a/{path}",
        f"+++ b/{path}",
        f"@@ -1,3 +1,{len(added) + 3} @@",
    ]
    out.append(" # " + comment_text(d))
    out.append("-" + {"env": "API_KEY=", "yaml": "api_key: REPLACE_ME", "py": "API_KEY = None"}[fmt])
    out += ["+" + a.replace("\n", "\n+") for a in added]
    out.append(" " + {"env": "DEBUG=false", "yaml": "debug: false", "py": "DEBUG = False"}[fmt])
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------------- code


def _no(*bad: str):
    """A multi-line literal builder usable only when none of ``bad`` occurs in the (unmarked) value."""

    def deco(fn):
        def wrapped(s: str) -> str | None:
            u = unmark(s)
            return None if any(b in u for b in bad) else fn(s)

        return wrapped

    return deco


def ruby_single(s: str) -> str:
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def php_single(s: str) -> str:
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def dart_single(s: str) -> str:
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'").replace("$", "\\$").replace("\n", "\\n") + "'"


def js_str(s: str) -> str:
    return esc_single(s) if chance(0.6) else esc_c(s)


def js_template(s: str) -> str:
    return "`" + s.replace("\\", "\\\\").replace("`", "\\`").replace("${", "\\${") + "`"


@dataclass
class CodeSpec:
    ext: str
    comment: str
    style: str
    assign: list[str]
    string: object
    multi: object
    listfmt: str
    header: list[str]
    footer: list[str]
    open_: str = ""
    close: str = ""
    indent: str = ""


CODE_SPECS: dict[str, CodeSpec] = {
    "python": CodeSpec(
        "py",
        "#",
        "upper",
        ["{n} = {v}", "{n}: str = {v}", 'os.environ.setdefault("{n}", {v})'],
        py_str,
        _no('"""', "\\")(lambda s: '"""' + s + '"""'),
        "[{}]",
        ["import os", "import requests"],
        [
            "",
            "def make_session() -> requests.Session:",
            "    s = requests.Session()",
            "    s.headers['User-Agent'] = 'sync/1.4'",
            "    return s",
        ],
    ),
    "javascript": CodeSpec(
        "js",
        "//",
        "camel",
        ["const {n} = {v};", "let {n} = {v};", "process.env.{N} ??= {v};"],
        js_str,
        js_template,
        "[{}]",
        ["'use strict';", "const axios = require('axios');"],
        ["", "module.exports = { client: axios.create({ timeout: 5000 }) };"],
    ),
    "typescript": CodeSpec(
        "ts",
        "//",
        "camel",
        ["export const {n}: string = {v};", "const {n} = {v} as const;"],
        js_str,
        js_template,
        "[{}]",
        ["import { createClient } from './client';"],
        ["", "export default createClient({ retries: 3 });"],
    ),
    "go": CodeSpec(
        "go",
        "//",
        "camel",
        ["\t{n} = {v}"],
        esc_c,
        _no("`")(lambda s: "`" + s + "`"),
        "[]string{{{}}}",
        ["package config", "", 'import "os"', "", "var _ = os.Getenv", "", "const ("],
        [")"],
    ),
    "java": CodeSpec(
        "java",
        "//",
        "upper",
        ["    private static final String {n} = {v};", "    static final String {n} = {v};"],
        esc_c,
        _no("\\", '"""')(lambda s: '"""\n' + s + '"""'),
        "List.of({})",
        ["package com.example.config;", "", "import java.util.List;", "", "public final class Secrets {"],
        ["", "    private Secrets() {}", "}"],
    ),
    "kotlin": CodeSpec(
        "kt",
        "//",
        "upper",
        ["    const val {n} = {v}", "    val {n} = {v}"],
        lambda s: esc_c(s).replace("$", "\\$"),
        _no("$", '"""')(lambda s: '"""' + s + '"""'),
        "listOf({})",
        ["package com.example.config", "", "object Secrets {"],
        ["}"],
    ),
    "csharp": CodeSpec(
        "cs",
        "//",
        "pascal",
        ["    public const string {n} = {v};", "    internal static readonly string {n} = {v};"],
        lambda s: esc_c(s) if chance(0.7) else '@"' + s.replace('"', '""') + '"',
        lambda s: '@"' + s.replace('"', '""') + '"',
        "new[] {{ {} }}",
        ["namespace Acme.Config;", "", "public static class Secrets", "{"],
        ["}"],
    ),
    "ruby": CodeSpec(
        "rb",
        "#",
        "upper",
        ["{n} = {v}", "ENV['{n}'] ||= {v}"],
        lambda s: ruby_single(s) if chance(0.6) else esc_c(s).replace("#{", "\\#{"),
        lambda s: "<<~KEY\n  " + s.replace("\n", "\n  ") + "\n  KEY",
        "[{}]",
        ["# frozen_string_literal: true", "", "require 'net/http'"],
        ["", "Net::HTTP.start('api.example.com', 443, use_ssl: true) { |http| http }"],
    ),
    "php": CodeSpec(
        "php",
        "//",
        "snake",
        ["    '{s}' => {v},"],
        lambda s: php_single(s) if chance(0.7) else esc_c(s).replace("$", "\\$"),
        php_single,
        "[{}]",
        ["<?php", "", "declare(strict_types=1);", "", "return ["],
        ["];"],
    ),
    "rust": CodeSpec(
        "rs",
        "//",
        "upper",
        ["pub const {n}: &str = {v};", "const {n}: &str = {v};"],
        esc_c,
        _no('"#')(lambda s: 'r#"' + s + '"#'),
        "&[{}]",
        ["use std::env;", ""],
        ["", "pub fn endpoint() -> String {", '    env::var("API_URL").unwrap_or_default()', "}"],
    ),
    "swift": CodeSpec(
        "swift",
        "//",
        "camel",
        ["    static let {n} = {v}", "    static let {n}: String = {v}"],
        esc_c,
        _no("\\", '"""')(lambda s: '"""\n' + s + '\n"""'),
        "[{}]",
        ["import Foundation", "", "enum Secrets {"],
        ["}"],
    ),
    "bash": CodeSpec(
        "sh",
        "#",
        "upper",
        ["export {n}={w}", "{n}={w}", "readonly {n}={w}"],
        sh_word,
        sh_single,
        "({})",
        ["#!/usr/bin/env bash", "set -euo pipefail", ""],
        ["", 'curl -fsS "$API_URL/health" >/dev/null && echo ok'],
    ),
    "powershell": CodeSpec(
        "ps1",
        "#",
        "pascal",
        ["$env:{N} = {v}", "${n} = {v}", "Set-Variable -Name {n} -Value {v}"],
        lambda s: ps_single(s) if chance(0.7) else ps_double(s),
        _no("\n'@")(lambda s: "@'\n" + s + "\n'@"),
        "@({})",
        ["#Requires -Version 7", "Set-StrictMode -Version Latest", ""],
        ["", "Invoke-RestMethod -Uri $env:API_URL -Method Get | Out-Null"],
    ),
    "c_cpp": CodeSpec(
        "c",
        "//",
        "upper",
        ["static const char *{n} = {v};", "#define {n} {v}", "constexpr const char {n}[] = {v};"],
        esc_c,
        _no(')KEY"')(lambda s: 'R"KEY(' + s + ')KEY"'),
        "{{ {} }}",
        ["#include <stdio.h>", "#include <string.h>", ""],
        ["", "int main(void) { return 0; }"],
    ),
    "elixir": CodeSpec(
        "exs",
        "#",
        "snake",
        ["config :app, {s}: {v}", "config :app, App.Client, {s}: {v}"],
        lambda s: esc_c(s).replace("#{", "\\#{"),
        lambda s: '"""\n' + s.replace("\\", "\\\\").replace("#{", "\\#{") + '\n"""',
        "[{}]",
        ["import Config", ""],
        ["", "config :logger, level: :info"],
    ),
    "dart": CodeSpec(
        "dart",
        "//",
        "camel",
        ["const {n} = {v};", "final String {n} = {v};"],
        dart_single,
        _no("'''")(lambda s: "'''" + s.replace("\\", "\\\\").replace("$", "\\$") + "'''"),
        "[{}]",
        ["import 'package:http/http.dart' as http;", ""],
        ["", "Future<void> ping() async => http.get(Uri.parse('https://api.example.com/ping'));"],
    ),
    "lua": CodeSpec(
        "lua",
        "--",
        "snake",
        ["local {s} = {v}", "config.{s} = {v}"],
        lambda s: esc_c(s) if chance(0.6) else esc_single(s),
        _no("]]")(lambda s: "[[" + s + "]]"),
        "{{ {} }}",
        ["local config = {}", ""],
        ["", "return config"],
    ),
}
CODE_SPECS["notebook"] = CodeSpec("py", "#", "upper", ["{n} = {v}"], py_str, None, "[{}]", [], [])


def code_lit(spec: CodeSpec, e: Entry) -> str:
    if e.codes:
        return spec.listfmt.format(", ".join(spec.string(c) for c in e.codes))
    v = e.frag
    if "\n" in unmark(v) and spec.multi is not None:
        out = spec.multi(v)
        if out is not None:
            return out
    return spec.string(v)


def code_assign(spec: CodeSpec, e: Entry) -> str:
    lit = code_lit(spec, e)
    n = entry_name(e, spec.style)
    templates = [t for t in spec.assign if "\n" not in unmark(lit) or not t.startswith("#define")]
    tmpl = pick(templates)
    return tmpl.format(n=n, N=entry_name(e, "upper"), s=entry_name(e, "snake"), v=lit, w=lit)


def r_code(d: Doc, entries: list[Entry], lang: str) -> str:
    spec = CODE_SPECS[lang]
    lines = list(spec.header)
    cpref = spec.comment + " "
    lines.insert(0 if lang not in ("php", "bash") else 1, cpref + comment_text(d))
    for e in entries:
        if chance(0.25):
            pad = "    " if spec.header and spec.header[-1].endswith(("{", "[")) else ("\t" if lang == "go" else "")
            lines.append(pad + cpref + comment_text(d))
        lines.append(code_assign(spec, e))
    lines += spec.footer
    return "\n".join(lines) + "\n"


def r_sql(d: Doc, entries: list[Entry]) -> str:
    out = [f"-- {comment_text(d)}", f"-- {rdate()} migration {R.randint(1, 300):04d}", "BEGIN;"]
    for e in entries:
        v = val(e, " ")
        r = R.randrange(4)
        pw_like = any(w in e.name.lower() for w in ("pass", "pwd"))
        if e.secret and pw_like and r == 0:
            out.append(f"CREATE USER {pick(['app_rw', 'report_ro', 'etl'])} WITH PASSWORD {sql_str(v)};")
        elif e.secret and pw_like and r == 1:
            out.append(f"ALTER ROLE {pick(['app', 'grafana'])} PASSWORD {sql_str(v)};")
        elif r == 2:
            out.append(f"UPDATE settings SET value = {sql_str(v)} WHERE key = {sql_str(entry_name(e, 'snake'))};")  # noqa: S608 - test data, not a query
        else:
            column = pick(["secret", "config_value", "credential"])
            key = sql_str(entry_name(e, "snake"))
            stmt = f"INSERT INTO integrations (name, {column}) VALUES ({key}, {sql_str(v)});"  # noqa: S608 - test data
            out.append(stmt)
    out.append("COMMIT;")
    return "\n".join(out) + "\n"


def r_notebook(d: Doc, entries: list[Entry]) -> str:
    spec = CODE_SPECS["notebook"]
    src = (
        ["import os", "import pandas as pd", ""]
        + [code_assign(spec, e) for e in entries]
        + ["", "df = pd.read_csv('export.csv')", "df.head()"]
    )
    md = [f"# {title(d)}", "", comment_text(d)]

    def cell_src(lines: list[str]) -> str:
        items = [esc_json(x + "\n") for x in lines[:-1]] + [esc_json(lines[-1])]
        return "[\n    " + ",\n    ".join(items) + "\n   ]"

    cells = [
        '  {\n   "cell_type": "markdown",\n   "metadata": {},\n   "source": ' + cell_src(md) + "\n  }",
        '  {\n   "cell_type": "code",\n   "execution_count": '
        + str(R.randint(1, 40))
        + ',\n   "metadata": {},\n   "outputs": [],\n   "source": '
        + cell_src(src)
        + "\n  }",
    ]
    return (
        '{\n "cells": [\n'
        + ",\n".join(cells)
        + '\n ],\n "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},\n "nbformat": 4,\n "nbformat_minor": 5\n}\n'
    )


# ---------------------------------------------------------------------------------------------------- structured


def groups(entries: list[Entry]) -> list[tuple[str, list[Entry]]]:
    names = ["database", "api", "auth", "services", "storage", "mail", "integrations", "payments"]
    k = 1 if len(entries) < 3 else R.randint(1, 3)
    secs = R.sample(names, k)
    out: list[tuple[str, list[Entry]]] = [(s, []) for s in secs]
    for i, e in enumerate(entries):
        out[i % k][1].append(e)
    return [g for g in out if g[1]]


def r_dotenv(d: Doc, entries: list[Entry]) -> str:
    out = [f"# {comment_text(d)}", f"APP_ENV={pick(['production', 'staging', 'local'])}"]
    for e in entries:
        v = val(e, ",")
        u = unmark(v)
        name = entry_name(e, "upper")
        if "\n" in u:
            dq = v.replace("\\", "\\\\").replace('"', '\\"')
            line = f'{name}="{dq}"'
        elif SAFE_WORD.fullmatch(u) and chance(0.6):
            line = f"{name}={v}"
        elif "'" not in u and chance(0.6):
            line = f"{name}='{v}'"
        else:
            line = f"{name}={esc_c(v)}"
        if chance(0.15):
            line = "export " + line
        if chance(0.2):
            out.append(f"# {comment_text(d)}")
        out.append(line)
    return "\n".join(out) + "\n"


def json_val(e: Entry) -> str:
    if e.codes:
        return "[" + ", ".join(esc_json(c) for c in e.codes) + "]"
    return esc_json(e.frag)


def r_json_config(d: Doc, entries: list[Entry]) -> str:
    style = pick(["camel", "snake"])
    parts = [f'  "_comment": {esc_json(comment_text(d))}']
    for sec, es in groups(entries):
        inner = ",\n".join(f"    {esc_json(entry_name(e, style))}: {json_val(e)}" for e in es)
        parts.append(f'  "{sec}": {{\n{inner}\n  }}')
    return "{\n" + ",\n".join(parts) + "\n}\n"


def yaml_entry(e: Entry, indent: int, style: str) -> str:
    pad = " " * indent
    key = entry_name(e, style)
    if e.codes:
        return f"{pad}{key}:\n" + "\n".join(f"{pad}  - {yaml_scalar(c, indent + 2)}" for c in e.codes)
    return f"{pad}{key}: {yaml_scalar(e.frag, indent)}"


def r_yaml_config(d: Doc, entries: list[Entry]) -> str:
    style = pick(["snake", "camel", "kebab"])
    out = [f"# {comment_text(d)}"]
    for sec, es in groups(entries):
        out.append(f"{sec}:")
        out += [yaml_entry(e, 2, style) for e in es]
    return "\n".join(out) + "\n"


def r_toml(d: Doc, entries: list[Entry]) -> str:
    out = [f"# {comment_text(d)}", f'title = "{pick(PROJECTS)}"', ""]
    for sec, es in groups(entries):
        out.append(f"[{sec}]")
        for e in es:
            v = "[" + ", ".join(toml_str(c) for c in e.codes) + "]" if e.codes else toml_str(e.frag)
            out.append(f"{entry_name(e, 'snake')} = {v}")
        out.append("")
    return "\n".join(out)


def r_ini(d: Doc, entries: list[Entry]) -> str:
    double_pct = chance(0.5)
    out = [f"; {comment_text(d)}"]
    for sec, es in groups(entries):
        out.append(f"[{sec}]")
        for e in es:
            v = val(e, ",")
            if double_pct:
                v = v.replace("%", "%%")
            v = v.replace("\n", "\n    ")
            out.append(f"{entry_name(e, 'snake')} {pick(['=', '=', ':'])} {v}")
        out.append("")
    return "\n".join(out)


def r_properties(d: Doc, entries: list[Entry]) -> str:
    out = [f"# {comment_text(d)}"]
    prefix = pick(["spring.datasource.", "app.", "integration.", ""])
    for e in entries:
        out.append(
            f"{prefix}{entry_name(e, pick(['dot', 'kebab', 'camel']))}{pick(['=', ' = ', ': '])}{props_val(val(e, ','))}"
        )
    return "\n".join(out) + "\n"


def r_xml_config(d: Doc, entries: list[Entry]) -> str:
    flavour = R.randrange(3)
    if flavour == 0:
        rows = [f'    <add key="{entry_name(e, "pascal")}" value="{xml_attr(val(e, ","))}" />' for e in entries]
        return (
            f'<?xml version="1.0" encoding="utf-8"?>\n<configuration>\n  <!-- {xml_text(comment_text(d))} -->\n  <appSettings>\n'
            + "\n".join(rows)
            + "\n  </appSettings>\n</configuration>\n"
        )
    if flavour == 1:
        rows = [
            f"    <server>\n      <id>{entry_name(e, 'kebab')}</id>\n      <username>{pick(FIRST)}</username>\n      <password>{xml_text(val(e, ','))}</password>\n    </server>"
            for e in entries
        ]
        return (
            f"<settings>\n  <!-- {xml_text(comment_text(d))} -->\n  <servers>\n"
            + "\n".join(rows)
            + "\n  </servers>\n</settings>\n"
        )
    rows = [
        f"  <property>\n    <name>{entry_name(e, 'dot')}</name>\n    <value>{xml_text(val(e, ','))}</value>\n  </property>"
        for e in entries
    ]
    return (
        f'<?xml version="1.0"?>\n<!-- {xml_text(comment_text(d))} -->\n<configuration>\n'
        + "\n".join(rows)
        + "\n</configuration>\n"
    )


def r_terraform(d: Doc, entries: list[Entry]) -> str:
    out = [f"# {comment_text(d)}"]
    for e in entries:
        v = val(e, ",")
        u = unmark(v)
        lit = f"<<EOT\n{v}\nEOT" if "\n" in u and "EOT" not in u else hcl_str(v)
        r = R.randrange(3)
        name = entry_name(e, "snake")
        if r == 0:
            out.append(f'variable "{name}" {{\n  type      = string\n  default   = {lit}\n  sensitive = true\n}}')
        elif r == 1:
            out.append(
                f'resource "{pick(["vault_generic_secret", "kubernetes_secret", "github_actions_secret"])}" "{name}" {{\n  {pick(["plaintext_value", "data_json", "value"])} = {lit}\n}}'
            )
        else:
            out.append(f"locals {{\n  {name} = {lit}\n}}")
        out.append("")
    return "\n".join(out)


def r_dockerfile(d: Doc, entries: list[Entry]) -> str:
    out = [
        f"FROM {pick(['python:3.12-slim', 'node:20-alpine', 'golang:1.22', 'eclipse-temurin:21-jre'])}",
        f"# {comment_text(d)}",
        "WORKDIR /app",
    ]
    for e in entries:
        v = val(e, ",")
        name = entry_name(e, "upper")
        dq = '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$") + '"'
        r = R.randrange(3)
        if r == 0:
            out.append(f"ENV {name}={dq}")
        elif r == 1:
            out.append(f"ARG {name}={dq}")
        else:
            out.append(f"RUN {_cmd_line(d, e)}")
    out += [
        "COPY . .",
        f'CMD ["{pick(["python", "node", "./server"])}", "{pick(["app.py", "index.js", "--port=8080"])}"]',
    ]
    return "\n".join(out) + "\n"


def r_docker_compose(d: Doc, entries: list[Entry]) -> str:
    svc = pick(["api", "worker", "web", "app"])
    out = [
        "services:",
        f"  {svc}:",
        f"    image: {pick(['ghcr.io/acme/api:1.8.2', 'node:20', 'postgres:16'])}",
        f"    # {comment_text(d)}",
        "    environment:",
    ]
    as_list = chance(0.4) and not any("\n" in unmark(val(e, ",")) for e in entries)
    for e in entries:
        v = val(e, ",")
        if as_list and "\n" not in unmark(v):
            out.append(f"      - {yaml_scalar(entry_name(e, 'upper') + '=' + v, 6)}")
        else:
            out.append(f"      {entry_name(e, 'upper')}: {yaml_scalar(v, 6)}")
    out += ["    ports:", '      - "8080:8080"']
    return "\n".join(out) + "\n"


def r_kubernetes(d: Doc, entries: list[Entry]) -> str:
    data = [e for e in entries if e.kind == "k8s_secret_data"]
    rest = [e for e in entries if e.kind != "k8s_secret_data"]
    name = f"{pick(PROJECTS)}-{pick(['secrets', 'config', 'creds'])}"
    kind = "Secret" if any(e.secret for e in entries) else "ConfigMap"
    out = [
        "apiVersion: v1",
        f"kind: {kind}",
        "metadata:",
        f"  name: {name}",
        f"  namespace: {pick(['default', 'prod', 'staging'])}",
        f"  # {comment_text(d)}",
    ]
    if kind == "ConfigMap":
        return "\n".join([*out, "data:", *[yaml_entry(e, 2, "kebab") for e in entries]]) + "\n"
    out.append("type: Opaque")
    if data:
        out.append("data:")
        out += [f"  {entry_name(e, 'kebab')}: {e.frag}" for e in data]
    if rest:
        out.append("stringData:")
        out += [yaml_entry(e, 2, pick(["snake", "kebab"])) for e in rest]
    return "\n".join(out) + "\n"


def r_github_actions(d: Doc, entries: list[Entry]) -> str:
    out = [
        f"name: {pick(['deploy', 'release', 'nightly'])}",
        "on:",
        "  push:",
        "    branches: [main]",
        f"# {comment_text(d)}",
        "env:",
    ]
    half = max(1, len(entries) // 2)
    out += [f"  {entry_name(e, 'upper')}: {yaml_scalar(val(e, ','), 2)}" for e in entries[:half]]
    out += [
        "jobs:",
        "  deploy:",
        "    runs-on: ubuntu-latest",
        "    steps:",
        "      - uses: actions/checkout@v4",
        "      - name: Deploy",
        "        run: |",
    ]
    pad = " " * 10
    for e in entries[half:]:
        out.append(pad + _cmd_line(d, e).replace("\n", "\n" + pad))
    out.append(pad + "./scripts/deploy.sh")
    return "\n".join(out) + "\n"


def r_gitlab_ci(d: Doc, entries: list[Entry]) -> str:
    out = [f"# {comment_text(d)}", "variables:"]
    half = max(1, len(entries) // 2)
    out += [f"  {entry_name(e, 'upper')}: {yaml_scalar(val(e, ','), 2)}" for e in entries[:half]]
    out += ["", "deploy:", "  stage: deploy", f"  image: {pick(['alpine:3.20', 'python:3.12'])}", "  script:"]
    for e in entries[half:]:
        cmd = _cmd_line(d, e)
        out.append(
            "    - "
            + (
                yaml_scalar(cmd, 4)
                if ": " in unmark(cmd) or unmark(cmd).startswith(("'", '"'))
                else cmd.replace("\n", "\n      ")
            )
        )
    out.append("    - ./deploy.sh")
    return "\n".join(out) + "\n"


def r_csv(d: Doc, entries: list[Entry]) -> str:
    header = pick(
        [
            ["service", "username", "password", "notes"],
            ["name", "value", "owner", "last_rotated"],
            ["account", "login", "secret", "url"],
        ]
    )
    out = [",".join(header)]
    for e in entries:
        v = val(e, " ")
        second = pick([email_addr(), pick(FIRST), ""]) if header[1] != "value" else v
        third = v if header[1] != "value" else pick(FIRST)
        last = pick([filler(d), rdate(), ""]) if header[3] != "url" else f"https://{pick(DOMAINS)}/login"
        out.append(",".join(csv_cell(x) for x in [e.label, second, third, last]))
    return "\n".join(out) + "\n"


def r_markdown_table(d: Doc, entries: list[Entry]) -> str:
    out = [
        f"**{title(d)}** \u2014 {comment_text(d)}",
        "",
        "| Service | Account | Secret | Notes |",
        "| --- | --- | --- | --- |",
    ]
    for e in entries:
        out.append(
            f"| {md_cell(e.label)} | {pick([email_addr(), pick(FIRST), '-'])} | {md_cell(val(e, ' '))} | {md_cell(filler(d) if chance(0.5) else rdate())} |"
        )
    return "\n".join(out) + "\n"


def r_dotfile(d: Doc, entries: list[Entry]) -> str:
    flavour = pick(["bashrc", "credentials", "npmrc", "netrc", "pgpass"])
    if flavour == "bashrc":
        out = [
            f"# ~/.{pick(['bashrc', 'zshrc', 'profile'])}",
            f"# {comment_text(d)}",
            'export PATH="$HOME/.local/bin:$PATH"',
        ]
        out += [f"export {entry_name(e, 'upper')}={sh_word(val(e, ','))}" for e in entries]
    elif flavour == "credentials":
        out = [
            f"# ~/.{pick(['aws/credentials', 'my.cnf', 'pypirc'])}",
            f"# {comment_text(d)}",
            f"[{pick(['default', 'client', 'pypi'])}]",
        ]
        out += [f"{entry_name(e, 'snake')} = {val(e, ',')}" for e in entries]
    elif flavour == "npmrc":
        out = ["# ~/.npmrc", f"# {comment_text(d)}", "registry=https://registry.npmjs.org/"]
        for e in entries:
            if e.kind in ("npm_token", "github_classic_pat", "gitlab_pat"):
                out.append(
                    f"//{pick(['registry.npmjs.org', 'npm.pkg.github.com', 'gitlab.example.com/api/v4/packages/npm'])}/:_authToken={val(e)}"
                )
            else:
                out.append(f"{entry_name(e, 'kebab')}={val(e, ',')}")
    elif flavour == "netrc":
        out = ["# ~/.netrc", f"# {comment_text(d)}"]
        for e in entries:
            v = val(e, ",")
            if not e.secret or "://" in unmark(v) or e.name[:1].isupper():
                out.append(f"# {entry_name(e, 'snake')}: {v}")
                continue
            if any(c in unmark(v) for c in " \t\"'\\"):
                v = '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
            out.append(
                f"machine {pick(['api', 'git', 'ftp', 'registry'])}.{pick(DOMAINS)} login {pick(FIRST)} password {v}"
            )
    else:
        out = ["# ~/.pgpass  (host:port:database:user:password)", f"# {comment_text(d)}"]
        for e in entries:
            v = val(e, ",").replace("\\", "\\\\").replace(":", "\\:")
            out.append(
                f"{pick(DB_HOSTS).replace(':', '')}:5432:{pick(PROJECTS)}:{pick(['app', 'postgres', 'report'])}:{v}"
            )
    return "\n".join(out) + "\n"


def r_nginx(d: Doc, entries: list[Entry]) -> str:
    out = [
        "server {",
        "    listen 443 ssl;",
        f"    server_name {pick(['api', 'hooks', 'edge'])}.{pick(DOMAINS)};",
        f"    # {comment_text(d)}",
        "    location / {",
    ]
    for e in entries:
        v = '"' + val(e, ",").replace("\\", "\\\\").replace('"', '\\"') + '"'
        if e.name[:1].isupper():
            out.append(f"        proxy_set_header {e.name} {v};")
        else:
            out.append(f"        set ${entry_name(e, 'snake')} {v};")
    out += ["        proxy_pass http://127.0.0.1:8080;", "    }", "}"]
    return "\n".join(out) + "\n"


def r_systemd(d: Doc, entries: list[Entry]) -> str:
    out = [
        "[Unit]",
        f"Description={pick(PROJECTS).capitalize()} worker",
        "After=network-online.target",
        "",
        "[Service]",
        f"# {comment_text(d)}",
    ]
    last = None
    for e in entries:
        v = val(e, ",").replace("%", "%%")
        if chance(0.25) and last is None:
            last = f"ExecStart=/usr/local/bin/{pick(PROJECTS)} --{entry_name(e, 'kebab')}={sh_word(v)}"
            continue
        quoted = v.replace("\\", "\\\\").replace('"', '\\"')
        out.append(f'Environment="{entry_name(e, "upper")}={quoted}"')
    out.append(last or f"ExecStart=/usr/local/bin/{pick(PROJECTS)} serve")
    out += ["Restart=on-failure", "", "[Install]", "WantedBy=multi-user.target"]
    return "\n".join(out) + "\n"


def r_ansible(d: Doc, entries: list[Entry]) -> str:
    if chance(0.3) and all(not e.codes and SAFE_WORD.fullmatch(unmark(e.frag)) for e in entries):
        out = ["# inventory.ini", f"# {comment_text(d)}", "[web]"]
        for i, e in enumerate(entries):
            out.append(
                f"web{i + 1} ansible_host=10.0.{R.randint(0, 9)}.{R.randint(2, 250)} {entry_name(e, 'snake')}={e.frag}"
            )
        return "\n".join(out) + "\n"
    out = [
        "---",
        f"# group_vars/{pick(['all', 'prod', 'db'])}.yml",
        f"# {comment_text(d)}",
        f"ansible_user: {pick(['deploy', 'ubuntu'])}",
    ]
    out += [yaml_entry(e, 0, "snake") for e in entries]
    return "\n".join(out) + "\n"


RENDERERS = {
    "dev_notes": r_dev_notes,
    "assistant_memory": r_assistant_memory,
    "chat_log": r_chat_log,
    "runbook": r_runbook,
    "incident_report": r_incident_report,
    "meeting_minutes": r_meeting_minutes,
    "email": r_email,
    "ticket": r_ticket,
    "wiki_page": r_wiki_page,
    "personal_notes": r_personal_notes,
    "todo_list": r_todo_list,
    "handover": r_handover,
    "code_review": r_code_review,
    "forum_post": r_forum_post,
    "journal": r_journal,
    "account_list": r_account_list,
    "scratch": r_scratch,
    "text_messages": r_text_messages,
    "terminal": r_terminal,
    "shell_history": r_shell_history,
    "ci_log": r_ci_log,
    "app_log": r_app_log,
    "stack_trace": r_stack_trace,
    "http_dump": r_http_dump,
    "git_diff": r_git_diff,
    "dotenv": r_dotenv,
    "json_config": r_json_config,
    "yaml_config": r_yaml_config,
    "toml": r_toml,
    "ini": r_ini,
    "properties": r_properties,
    "xml_config": r_xml_config,
    "terraform": r_terraform,
    "dockerfile": r_dockerfile,
    "docker_compose": r_docker_compose,
    "kubernetes": r_kubernetes,
    "github_actions": r_github_actions,
    "gitlab_ci": r_gitlab_ci,
    "csv": r_csv,
    "markdown_table": r_markdown_table,
    "dotfile": r_dotfile,
    "nginx": r_nginx,
    "systemd": r_systemd,
    "ansible": r_ansible,
    "sql": r_sql,
    "notebook": r_notebook,
}
for _lang in (
    "python",
    "javascript",
    "typescript",
    "go",
    "java",
    "kotlin",
    "csharp",
    "ruby",
    "php",
    "rust",
    "swift",
    "bash",
    "powershell",
    "c_cpp",
    "elixir",
    "dart",
    "lua",
):
    RENDERERS[_lang] = lambda d, es, _l=_lang: r_code(d, es, _l)


# ---------------------------------------------------------------------------------------------------- contexts and plan

CONTEXTS = [
    ("dev_notes", "narrative", 30),
    ("assistant_memory", "narrative", 34),
    ("chat_log", "narrative", 28),
    ("runbook", "narrative", 26),
    ("incident_report", "narrative", 24),
    ("meeting_minutes", "narrative", 22),
    ("email", "narrative", 28),
    ("ticket", "narrative", 24),
    ("wiki_page", "narrative", 22),
    ("personal_notes", "narrative", 34),
    ("todo_list", "narrative", 20),
    ("handover", "narrative", 20),
    ("code_review", "narrative", 20),
    ("forum_post", "narrative", 20),
    ("journal", "narrative", 20),
    ("account_list", "narrative", 20),
    ("scratch", "narrative", 20),
    ("text_messages", "narrative", 16),
    ("terminal", "tool output", 22),
    ("shell_history", "tool output", 20),
    ("ci_log", "tool output", 20),
    ("app_log", "tool output", 20),
    ("stack_trace", "tool output", 20),
    ("http_dump", "tool output", 18),
    ("git_diff", "tool output", 18),
    ("dotenv", "structured", 26),
    ("json_config", "structured", 20),
    ("yaml_config", "structured", 20),
    ("toml", "structured", 16),
    ("ini", "structured", 16),
    ("properties", "structured", 16),
    ("xml_config", "structured", 16),
    ("terraform", "structured", 16),
    ("dockerfile", "structured", 14),
    ("docker_compose", "structured", 18),
    ("kubernetes", "structured", 18),
    ("github_actions", "structured", 14),
    ("gitlab_ci", "structured", 14),
    ("csv", "structured", 18),
    ("markdown_table", "structured", 16),
    ("dotfile", "structured", 16),
    ("nginx", "structured", 12),
    ("systemd", "structured", 12),
    ("ansible", "structured", 12),
    ("python", "code", 30),
    ("javascript", "code", 22),
    ("typescript", "code", 22),
    ("go", "code", 20),
    ("java", "code", 18),
    ("kotlin", "code", 14),
    ("csharp", "code", 16),
    ("ruby", "code", 16),
    ("php", "code", 16),
    ("rust", "code", 16),
    ("swift", "code", 14),
    ("bash", "code", 20),
    ("powershell", "code", 16),
    ("sql", "code", 14),
    ("notebook", "code", 16),
    ("c_cpp", "code", 14),
    ("elixir", "code", 12),
    ("dart", "code", 14),
    ("lua", "code", 14),
]
FAMILY = {c: f for c, f, _ in CONTEXTS}
FAMILY_CODE = {"narrative": "narr", "tool output": "tool", "structured": "struct", "code": "code"}
ALL_CTX = [c for c, _, _ in CONTEXTS]
NO_MULTILINE = {
    "markdown_table",
    "dockerfile",
    "shell_history",
    "nginx",
    "systemd",
    "ci_log",
    "app_log",
    "dotfile",
    "scratch",
    "text_messages",
}
PERSONAL = [
    "personal_notes",
    "account_list",
    "journal",
    "chat_log",
    "text_messages",
    "email",
    "todo_list",
    "assistant_memory",
    "scratch",
    "csv",
    "markdown_table",
    "handover",
]
WHERE = {
    "all": [c for c in ALL_CTX if c != "text_messages"],
    "any": ALL_CTX,
    "multiline": [c for c in ALL_CTX if c not in NO_MULTILINE],
    "personal": PERSONAL,
    "personal_plus": [
        *PERSONAL,
        "yaml_config",
        "ansible",
        "terminal",
        "shell_history",
        "bash",
        "runbook",
        "wiki_page",
        "docker_compose",
        "json_config",
        "ticket",
    ],
    "personal_tech": [
        *PERSONAL,
        "ticket",
        "wiki_page",
        "terminal",
        "powershell",
        "runbook",
        "dev_notes",
        "json_config",
        "meeting_minutes",
    ],
}
SECRET_SHARE = 0.5
NON_ENGLISH_SHARE = 0.33


@dataclass
class Plan:
    idx: int
    ctx: str
    lang: str
    has_secret: bool
    cap: int = 0
    secrets: list[str] = field(default_factory=list)
    looks: list[str] = field(default_factory=list)


def make_plan() -> list[Plan]:
    plans: list[Plan] = []
    foreign = [lang for lang in LANGS if lang != "en"]
    rot = 0
    for ctx, _fam, count in CONTEXTS:
        n_sec = round(count * SECRET_SHARE)
        flags = [True] * n_sec + [False] * (count - n_sec)
        R.shuffle(flags)
        n_foreign = round(count * NON_ENGLISH_SHARE)
        langs = []
        for _ in range(n_foreign):
            langs.append(foreign[rot % len(foreign)])
            rot += 1
        langs += ["en"] * (count - n_foreign)
        R.shuffle(langs)
        plans += [Plan(0, ctx, lang, flag) for flag, lang in zip(flags, langs, strict=True)]
    R.shuffle(plans)
    for i, p in enumerate(plans):
        p.idx = i
    return plans


def assign(kinds: dict[str, KindInfo], attr: str, docs: list[Plan], weight, must_fill: list[Plan]) -> None:
    """Spread ``n`` slots of every kind over ``docs``: allowed contexts only, least-used context first, most room first."""
    slots = sum(k.n for k in kinds.values())
    weights = [weight(p) for p in docs]
    factor = slots / sum(weights)
    for p, w in zip(docs, weights, strict=True):
        p.cap = max(1, round(w * factor + R.uniform(-1.2, 1.2)))
    lists = {p.idx: getattr(p, attr) for p in docs}
    by_ctx: dict[str, list[Plan]] = defaultdict(list)
    for p in docs:
        by_ctx[p.ctx].append(p)
    order = sorted(kinds.values(), key=lambda k: (len(WHERE[k.where]), k.name))
    for k in order:
        allowed = [c for c in WHERE[k.where] if by_ctx[c]]
        used: Counter = Counter()
        mine: set[int] = set()
        for _ in range(k.n):
            free = [c for c in allowed if any(q.idx not in mine for q in by_ctx[c])]
            low = min(used[c] for c in free)
            least = [c for c in free if used[c] == low]
            roomy = [c for c in least if any(q.idx not in mine and len(lists[q.idx]) < q.cap for q in by_ctx[c])]
            ctx = pick(roomy or least)
            cands = [q for q in by_ctx[ctx] if q.idx not in mine]
            room = max(q.cap - len(lists[q.idx]) for q in cands)
            p = pick([q for q in cands if q.cap - len(lists[q.idx]) >= room - 1])
            lists[p.idx].append(k.name)
            mine.add(p.idx)
            used[ctx] += 1
    for p in must_fill:
        if lists[p.idx]:
            continue
        for q in sorted(docs, key=lambda q: (-len(lists[q.idx]), q.idx)):
            movable = [name for name in lists[q.idx] if p.ctx in WHERE[kinds[name].where]]
            if len(lists[q.idx]) >= 3 and movable:
                lists[q.idx].remove(movable[0])
                lists[p.idx].append(movable[0])
                break


# ---------------------------------------------------------------------------------------------------- building documents


class Regenerate(Exception):
    pass


PHRASE_USE: Counter = Counter()


def resolve(marked: str, table: list[tuple[str, bool, str]]) -> tuple[str, list[tuple[int, int, int]]]:
    out: list[str] = []
    spans: list[tuple[int, int, int]] = []
    pos, open_idx, start = 0, -1, 0
    seen: set[int] = set()
    for ch in marked:
        o = ord(ch)
        if MARK_BASE <= o < MARK_LIMIT:
            if open_idx >= 0:
                raise RuntimeError("nested marker")
            open_idx, start = o - MARK_BASE, pos
        elif ch == MARK_CLOSE:
            if open_idx < 0:
                raise RuntimeError("stray closing marker")
            if open_idx in seen:
                raise Regenerate("value rendered twice")
            seen.add(open_idx)
            spans.append((open_idx, start, pos))
            open_idx = -1
        else:
            out.append(ch)
            pos += 1
    if open_idx >= 0:
        raise RuntimeError("unclosed marker")
    if len(seen) != len(table):
        raise Regenerate("value dropped by a renderer")
    return "".join(out), spans


def alnum_subsequence(raw: str, shown: str) -> bool:
    it = iter(shown)
    return all(ch in it for ch in raw if ch.isalnum())


def check_doc(text: str, spans: list[tuple[int, int, int]], table: list[tuple[str, bool, str]]) -> None:
    ordered = sorted(spans, key=lambda s: s[1])
    for (_, _, e1), (_, s2, _) in itertools.pairwise(ordered):
        if s2 < e1:
            raise RuntimeError("overlapping spans")
    for idx, s, e in spans:
        value = text[s:e]
        kind, _secret, raw = table[idx]
        if not value or value != value.strip():
            raise RuntimeError(f"empty or padded span for {kind}: {value!r}")
        if not alnum_subsequence(raw, value):
            raise RuntimeError(f"span of {kind} lost characters: {value!r} vs {raw!r}")
    for idx, s, e in spans:
        kind, secret, raw = table[idx]
        if not secret:
            continue
        value = text[s:e]
        for probe in (value,) if value == raw else (value, raw):
            if len(probe) < 4:
                raise RuntimeError(f"secret too short to check: {kind}")
            at = text.find(probe)
            while at >= 0:
                inside = any(
                    s2 <= at and at + len(probe) <= e2 and table[i2][1] and table[i2][2] == raw for i2, s2, e2 in spans
                )
                if not inside:
                    raise Regenerate(f"{kind} also occurs unlabelled")
                at = text.find(probe, at + 1)


def group_entries(d: Doc, p: Plan) -> list[Entry]:
    groups_: list[list[Entry]] = []
    for name in p.secrets:
        es = KINDS[name].gen(d)
        comp = COMPANIONS.get(name)
        if comp and chance(0.55):
            es.insert(0, comp(d))
        groups_.append(es)
    for name in p.looks:
        groups_.append(LOOKALIKES[name].gen(d))
    R.shuffle(groups_)
    entries = [e for g in groups_ for e in g]
    seen: set[str] = set()
    for e in entries:
        while ident(e.name, "snake") in seen:
            if e.name[:1].isupper():
                e.name = pick(["X-Upstream-", "X-Backend-", "X-Forwarded-"]) + e.name
            else:
                e.name += pick(["_2", "_old", "_backup", "_staging", "_prod"])
        seen.add(ident(e.name, "snake"))
    return entries


def build(p: Plan) -> dict:
    for _attempt in range(40):
        d = Doc(p.ctx, p.lang, FAMILY_CODE[FAMILY[p.ctx]])
        entries = group_entries(d, p)
        marked = RENDERERS[p.ctx](d, entries)
        try:
            text, spans = resolve(marked, d.table)
            check_doc(text, spans, d.table)
        except Regenerate:
            continue
        secrets, looks = [], []
        for idx, s, e in sorted(spans, key=lambda t: t[1]):
            kind, secret, _raw = d.table[idx]
            (secrets if secret else looks).append({"kind": kind, "value": text[s:e], "start": s, "end": e})
        return {
            "id": f"{ID_PREFIX}{p.idx + 1:04d}",
            "context": p.ctx,
            "text": text,
            "secrets": secrets,
            "lookalikes": looks,
            "_lang": p.lang,
        }
    raise RuntimeError(f"could not build document {p.idx} ({p.ctx})")


# ---------------------------------------------------------------------------------------------------- checks, output, README

MIN_SECRET_KINDS = 150
MIN_SECRET_EXAMPLES = 15
MIN_SECRET_CONTEXTS = 8
MIN_RARE_KINDS = 30
MIN_COMMON_SHARE = 0.65
MIN_LA_KINDS = 45
MIN_LA_EXAMPLES = 30
MIN_EN_PHRASES = 60


def verify_record(rec: dict) -> None:
    text = rec["text"]
    all_spans = []
    for key in ("secrets", "lookalikes"):
        starts = [s["start"] for s in rec[key]]
        if starts != sorted(starts):
            raise RuntimeError(f"{rec['id']}: {key} not sorted")
        for s in rec[key]:
            if text[s["start"] : s["end"]] != s["value"]:
                raise RuntimeError(f"{rec['id']}: span does not slice out its value")
            all_spans.append((s["start"], s["end"]))
    all_spans.sort()
    for (_, e1), (s2, _) in itertools.pairwise(all_spans):
        if s2 < e1:
            raise RuntimeError(f"{rec['id']}: overlapping spans")
    if not all_spans:
        raise RuntimeError(f"{rec['id']}: no labelled value")
    for s in rec["secrets"]:
        at = text.find(s["value"])
        while at >= 0:
            if not any(o["start"] <= at and at + len(s["value"]) <= o["end"] for o in rec["secrets"]):
                raise RuntimeError(f"{rec['id']}: labelled secret {s['kind']} also occurs unlabelled")
            at = text.find(s["value"], at + 1)


def stats(records: list[dict]) -> dict:
    st: dict = {
        "kind_n": Counter(),
        "kind_ctx": defaultdict(set),
        "la_n": Counter(),
        "la_ctx": defaultdict(set),
        "ctx_docs": Counter(),
        "ctx_secret": Counter(),
        "lang": Counter(),
    }
    for rec in records:
        st["ctx_docs"][rec["context"]] += 1
        st["lang"][rec["_lang"]] += 1
        if rec["secrets"]:
            st["ctx_secret"][rec["context"]] += 1
        for s in rec["secrets"]:
            st["kind_n"][s["kind"]] += 1
            st["kind_ctx"][s["kind"]].add(rec["context"])
        for s in rec["lookalikes"]:
            st["la_n"][s["kind"]] += 1
            st["la_ctx"][s["kind"]].add(rec["context"])
    return st


def check_corpus(records: list[dict], st: dict) -> None:
    ids = [r["id"] for r in records]
    if len(ids) != N_DOCS or len(set(ids)) != N_DOCS:
        raise RuntimeError("ids are not unique or the document count is wrong")
    for rec in records:
        verify_record(rec)
    share = sum(1 for r in records if r["secrets"]) / N_DOCS
    if not 0.45 <= share <= 0.55:
        raise RuntimeError(f"share of documents with secrets out of range: {share:.3f}")
    kinds = list(st["kind_n"])
    if len(kinds) < MIN_SECRET_KINDS:
        raise RuntimeError(f"only {len(kinds)} secret kinds")
    for k in kinds:
        if st["kind_n"][k] < MIN_SECRET_EXAMPLES or len(st["kind_ctx"][k]) < MIN_SECRET_CONTEXTS:
            raise RuntimeError(f"secret kind {k}: {st['kind_n'][k]} examples in {len(st['kind_ctx'][k])} contexts")
    if set(kinds) != set(KINDS):
        raise RuntimeError("a registered secret kind never occurs")
    common = sum(1 for k in kinds if KINDS[k].common)
    if common / len(kinds) < MIN_COMMON_SHARE or len(kinds) - common < MIN_RARE_KINDS:
        raise RuntimeError(f"common / rare balance off: {common} of {len(kinds)}")
    las = list(st["la_n"])
    if len(las) < MIN_LA_KINDS or any(st["la_n"][k] < MIN_LA_EXAMPLES for k in las):
        raise RuntimeError("look-alike kinds below their minimum")
    foreign = sum(n for lang, n in st["lang"].items() if lang != "en") / N_DOCS
    if not 0.25 <= foreign <= 0.40 or len([lang for lang in st["lang"] if lang != "en"]) < 6:
        raise RuntimeError(f"non-English share out of range: {foreign:.3f}")
    if len({t for (lang, t) in PHRASE_USE if lang == "en"}) < MIN_EN_PHRASES:
        raise RuntimeError("too few English phrasings used")


WHAT_I_READ = """\
- Written blind. What I read: `tests/corpora/secrets_blind_v10/README.md` (allowed by the brief) for the file format, the labelling conventions and the README layout, and the `[tool.ruff]` section of `pyproject.toml`. \
What I ran: `cat` on that README and `sed -n` to print the ruff section; `ls` on the two v11 paths (to check they did not exist yet); `python3 --version`; `.venv/bin/ruff --version`; `which` for a few compilers; `python3 -c 'import yaml'` to see whether PyYAML is installed; \
`.venv/bin/ruff check` (also with `--statistics`, `--output-format concise` and `--fix`) and `.venv/bin/ruff format` on this generator only; this generator itself (also with `--out` under `/tmp`, under `python3 -m cProfile`, under `time`, and with different `PYTHONHASHSEED` values to compare digests); \
`mkdir`, `cat`, `cp`, `sed`, `grep`, `awk`, `cut`, `head`, `tail`, `diff` and `sha256sum` (also `-c`) on this generator, its draft parts under `/tmp/v11` and its output; and throwaway Python snippets under `/tmp/v11`: editing the draft parts, timing RSA key generation, trying the key and token helpers, \
and reading the generated corpus back to audit it (printing documents with their spans; parsing the JSON, notebook, YAML (PyYAML of the system Python), TOML, INI, XML and CSV documents; `ast.parse` on the Python code; `bash -n` on the shell scripts; `node --check` on the JavaScript; `rustc --emit=metadata` on the Rust and `javac` on the Java documents). \
Nothing else under `tests/` (apart from this generator and the files it writes) and nothing under `sandbox/`, `policies/`, `bench/` or `docs/` was opened, listed, grepped or run; no other generator or corpus was opened and `tests/corpora/` was not listed; no git command was run; \
the `sandbox` package was never imported and no scanner of the project was run; no secret scanner's code or rules were searched for or read, and the `search` tool was not used. Every template, phrase and filler sentence was written for this corpus; token formats come from providers' public documentation as I remember it.
"""


def readme(records: list[dict], st: dict, digest: str) -> str:
    n_secret_docs = sum(1 for r in records if r["secrets"])
    n_la_docs = sum(1 for r in records if r["lookalikes"])
    n_sec = sum(st["kind_n"].values())
    n_la = sum(st["la_n"].values())
    lengths = sorted(len(r["text"]) for r in records)
    non_ascii = sum(1 for r in records if any(ord(c) > 127 for c in r["text"]))
    multiline = sum(1 for r in records for s in r["secrets"] if "\n" in s["value"])
    narrative_spans = sum(len(r["secrets"]) for r in records if FAMILY[r["context"]] == "narrative")
    kinds = sorted(st["kind_n"])
    common = [k for k in kinds if KINDS[k].common]
    foreign = sum(n for lang, n in st["lang"].items() if lang != "en")
    en_phr = len({t for (lang, t) in PHRASE_USE if lang == "en"})
    other_phr = len({(lang, t) for (lang, t) in PHRASE_USE if lang != "en"})
    fam_counts = Counter(FAMILY[c] for c in ALL_CTX)
    lang_text = ", ".join(f"{LANG_NAMES[lang]} {st['lang'][lang]}" for lang in LANGS)
    lines = [
        "# secrets_blind_v11",
        "",
        f"A held-out, labelled test corpus for the secret-detection engine, written blind to it: {N_DOCS:,} documents of the kind people and AI assistants keep as memory notes. "
        "Narrative notes (dev notes, assistant memory, chat logs, runbooks, incident reports, meeting minutes, e-mails, tickets, wiki pages, personal notes, to-do lists, handovers, code reviews, forum posts, journals, account lists, scratch notes, text messages) "
        "and tool output (terminal sessions, shell history, CI logs, application logs, stack traces, HTTP dumps, git diffs) sit next to structured files "
        "(dotenv, JSON, YAML, TOML, INI, properties, XML, Terraform, Dockerfile, Compose, Kubernetes, GitHub Actions, GitLab CI, CSV, Markdown tables, dotfiles, nginx, systemd, Ansible) "
        "and code (Python, JavaScript, TypeScript, Go, Java, Kotlin, C#, Ruby, PHP, Rust, Swift, Bash, PowerShell, SQL, Jupyter notebooks, C/C++, Elixir, Dart, Lua). "
        "Each document lists the secrets it holds (to be reported) and the look-alikes it holds (public values that must not be reported).",
        "",
        "## How it was built",
        "",
        f"- Generator: [`../make_blind_secrets_v11.py`](../make_blind_secrets_v11.py), Python 3.11 standard library only, one `random.Random({SEED})`; no clock, environment or system randomness is read, no set is iterated while writing, and `PYTHONHASHSEED` does not change the output.",
        "- Regenerate with `python3 tests/corpora/make_blind_secrets_v11.py` (or `--out DIR`). A run takes well under twenty seconds, most of it spent generating real 2048-bit RSA keys in pure Python.",
        "- Documents are planned first: each context gets its share of documents with secrets (half) and of non-English documents (33%); every secret kind is then spread over documents of the contexts it fits, least-used context first, and the look-alike kinds the same way over all documents.",
        "- Every generated value is wrapped in private-use marker characters (U+E000 + its index in a per-document table, closed by U+F8FF) before any escaping or framing. Renderers escape and frame the marked text "
        "(JSON strings and records, YAML plain / single / double-quoted and block scalars, TOML basic, literal and multi-line strings, INI continuation lines and `%%`, properties escapes, XML text and attribute entities, HCL strings with `$${` and heredocs, "
        "Dockerfile `ENV` quoting, systemd `%%` and quote escapes, nginx strings, CSV quote doubling, Markdown table pipes, `.netrc` quoting, `.pgpass` `\\:` escapes, string literals of seventeen languages (raw strings, text blocks, heredocs, here-strings, verbatim and template literals), "
        "shell single / double quoting, Python reprs, logfmt, `> ` e-mail quoting, `+` diff prefixes, indented runbook and CI blocks, hard wrapping, notebook source lines); the offsets are read off the final text while the markers are stripped. "
        "A nested, stray or unclosed marker raises; a value that a renderer dropped or duplicated makes the document be generated again.",
        "- A document in which a labelled secret (as labelled, or as generated) also occurs outside a span of the same secret is generated again with fresh values.",
        f"- Before writing, the script checks: every span slices out its value, each list is sorted, no two spans overlap, no span is empty or padded with whitespace, every labelled value contains the alphanumerics of the generated value in order, ids are unique, every document has a labelled value, no labelled secret occurs unlabelled, 45-55% of documents hold a secret, at least {MIN_SECRET_KINDS} secret kinds with at least {MIN_SECRET_EXAMPLES} examples each in at least {MIN_SECRET_CONTEXTS} contexts, at least {MIN_RARE_KINDS} less common kinds and at least {MIN_COMMON_SHARE:.0%} common ones, at least {MIN_LA_KINDS} look-alike kinds with at least {MIN_LA_EXAMPLES} examples each, 25-40% non-English documents in at least six languages, at least {MIN_EN_PHRASES} English phrasings. After writing, `corpus.jsonl` is read back, every record is checked again and its SHA-256 compared with `SHA256SUMS`. Any failure raises.",
        "- Self-tests run first: Ed25519 (RFC 8032 test 1), X25519 (RFC 7748), Keccak against `hashlib.sha3_256` and the empty-string Keccak-256 digest, EIP-55 and BIP 173 vectors, CRC-16/XMODEM and CRC-24/OpenPGP check values, the P-256 parameters, the jwt.io example token against its documented secret, Luhn on every test card.",
        WHAT_I_READ.rstrip(),
        "- Structure where the format allows: GitHub `ghp_` / `gho_` / `ghs_` / `ghu_` and npm tokens end in the base62 CRC32 of their random part; PyPI tokens are v2 macaroons (location `pypi.org`) with an HMAC-SHA-256 chain over their caveats; "
        "JWTs carry real signatures (HS256 user tokens, Supabase and Home Assistant tokens, RS256 Kubernetes service-account and user tokens signed by seeded RSA keys, EdDSA Turso tokens); RSA keys are real 2048-bit key pairs (PKCS #1 / PKCS #8, also inside GCP service-account JSON); "
        "EC keys are P-256 with the derived public point (SEC 1 / PKCS #8, also base64 in `client-key-data`); X.509 certificates are self-signed with a real ECDSA signature that is verified; OpenSSH, PuTTY (PPK v3 with its HMAC-SHA-256 MAC) and PGP keys carry the Ed25519 public key derived from the seed; "
        "PGP blocks carry a self-signature made with Ed25519 over the SHA-256 of key, user id and signature trailer, and a correct CRC-24 line; age identities and recipients and bitcoin addresses are valid bech32 / bech32m; WireGuard public keys and age recipients are X25519 derivations; "
        "Ethereum addresses next to their private key are derived over secp256k1 and Keccak-256 with the EIP-55 checksum; WIF keys are valid base58check; NATS seeds carry their CRC-16; BitLocker recovery keys have blocks divisible by 11; "
        "IBANs, ISBNs, IMEIs, VINs, UPS / USPS tracking numbers and test card numbers have valid check digits; SSH fingerprints are computed from real key blobs.",
        "",
        "## File format",
        "",
        "`corpus.jsonl`: one JSON object per line, UTF-8, `ensure_ascii=False`, keys in this order:",
        "",
        "```json",
        '{"id": "blind11-0001", "context": "dev_notes", "text": "...", "secrets": [{"kind": "...", "value": "...", "start": 0, "end": 0}], "lookalikes": []}',
        "```",
        "",
        "- `start` / `end` are Python code-point offsets into `text`, `text[start:end] == value`; each list is sorted by `start`; no two spans of a document overlap (both lists together).",
        "- `context` names the shape of the document (table below). `assistant_memory` documents come as a Markdown memory file, a JSON array of memory records (each body one JSON string), a YAML list (bodies in `content: |` block scalars) or dated one-line records. Structured files and code carry a comment in the document's language (CSV: a notes column, Markdown tables: a note line).",
        "",
        "## Labelling",
        "",
        "- Only the sensitive part is labelled: the password inside a URL, DSN, JDBC / libpq / Go DSN / ADO.NET string or Kafka JAAS config (not user or host); the `sig=` value of an Azure SAS URL; the `AccountKey=` / `SharedAccessKey=` of Azure connection strings; the secret in `cloudinary://key:secret@cloud`; the `secret=` of an `otpauth://` URI; the `P:` of a `WIFI:` QR payload; the key in a `maker.ifttt.com` URL; "
        "the credential after `Bearer `, `Basic `, `ApiKey `, `Bot `, `token `, `Token token=`, `SSWS `, `Splunk `, `GenieKey `, `FlyV1 `, `key=` and in `X-API-Key`-style headers; the cookie value after `name=`; the `auth` of a Docker config; the `private_key` inside a service-account JSON (with its `\\n` escapes). "
        "Slack, Discord and Teams webhook URLs are labelled whole. PEM, OpenSSH, PuTTY and PGP keys are labelled from their first to their last line. Each 2FA recovery code of a list is its own span.",
        "- Key ids that travel with their secret are secrets too: AWS `AKIA` / `ASIA`, Alibaba `LTAI`, Tencent `AKID`, Backblaze B2 key ids, DigitalOcean Spaces `DO00` keys. Companions that are not secret are look-alikes: Twilio `AC` / `SK` SIDs, Algolia app ids, `rzp_live_` key ids, Plaid client ids (`account_identifier`); OAuth client ids of Google, PayPal, Spotify, Twitch and Auth0 apps (`oauth_client_id`); Entra tenant ids; Langfuse `pk-lf-`, Pusher app keys and LaunchDarkly client-side ids (`public_client_key`); the `private_key_id` of a service-account JSON (`key_identifier`); public halves of SSH, age and WireGuard keys, PGP fingerprints and wallet addresses.",
        "- A value is labelled exactly as it appears: inside JSON (a JSON file, a notebook, a JSON log line, an HTTP body or a JSON memory record) it keeps its escapes; in a YAML block scalar, an INI continuation, an indented runbook or CI block, a Ruby squiggly heredoc or a YAML memory record it keeps the indentation of its continuation lines; "
        "in a quoted e-mail reply it keeps the `> ` prefixes; in a diff (also inside a code review) it keeps the `+` prefixes; in XML it keeps entity escapes; in CSV it keeps doubled quotes; in properties files, systemd units, C-like string literals, Python reprs in tracebacks and logfmt lines a line break is `\\n` and quotes and backslashes keep their escapes; "
        "SQL, PowerShell and C# verbatim literals keep doubled quotes; shell words keep `'\\''`; Markdown table cells keep `\\|`; INI files using interpolation and systemd units keep `%%`; a value hard-wrapped in a scratch note keeps its newlines; URL passwords are labelled percent-encoded.",
        f"- {narrative_spans:,} secret spans sit in narrative documents, many in bare prose; {multiline} secret spans run over several lines.",
        "",
        "## Numbers",
        "",
        f"- {N_DOCS:,} documents; {n_secret_docs} ({n_secret_docs / N_DOCS:.0%}) hold at least one secret; {n_la_docs} hold look-alikes; every document has at least one labelled value.",
        f"- {n_sec:,} secret spans over {len(kinds)} kinds ({min(st['kind_n'].values())} to {max(st['kind_n'].values())} examples each, each kind in {min(len(v) for v in st['kind_ctx'].values())} to {max(len(v) for v in st['kind_ctx'].values())} contexts); {len(common)} kinds ({len(common) / len(kinds):.0%}) are ones I consider common in developers' notes (marked *common*), the other {len(kinds) - len(common)} less common providers, formats and everyday secrets that scanners rarely cover.",
        f"- {n_la:,} look-alike spans over {len(st['la_n'])} kinds ({min(st['la_n'].values())} to {max(st['la_n'].values())} each).",
        f"- Length: {lengths[0]:,} to {lengths[-1]:,} characters, median {lengths[len(lengths) // 2]:,}; {non_ascii} documents contain non-ASCII text.",
        f"- {len(ALL_CTX)} contexts ({fam_counts['narrative']} narrative, {fam_counts['tool output']} tool output, {fam_counts['structured']} structured, {fam_counts['code']} code); prose and comments in {len(st['lang'])} languages: {lang_text} ({foreign / N_DOCS:.0%} non-English); {en_phr} English phrasings and {other_phr} phrasings in the other languages introduce a secret in prose.",
        "",
        "## Secret kinds",
        "",
        "| kind | format | examples | contexts |",
        "| --- | --- | ---: | ---: |",
    ]
    for k in kinds:
        tag = " *common*" if KINDS[k].common else ""
        lines.append(f"| `{k}`{tag} | {KINDS[k].desc} | {st['kind_n'][k]} | {len(st['kind_ctx'][k])} |")
    lines += ["", "## Look-alike kinds", "", "| kind | what | examples | contexts |", "| --- | --- | ---: | ---: |"]
    for k in sorted(st["la_n"]):
        lines.append(f"| `{k}` | {LA_DESC[k]} | {st['la_n'][k]} | {len(st['la_ctx'][k])} |")
    lines += ["", "## Contexts", "", "| context | family | documents | with secrets |", "| --- | --- | ---: | ---: |"]
    for c in sorted(ALL_CTX):
        lines.append(f"| `{c}` | {FAMILY[c]} | {st['ctx_docs'][c]} | {st['ctx_secret'][c]} |")
    lines += ["", "## Checksum", "", "`SHA256SUMS`:", "", "```", f"{digest}  corpus.jsonl", "```", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Write the secrets_blind_v11 corpus (corpus.jsonl, SHA256SUMS, README.md)."
    )
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "secrets_blind_v11")
    args = parser.parse_args(argv)
    self_test()
    plans = make_plan()
    secret_docs = [p for p in plans if p.has_secret]
    sec_base = {"narrative": 3.6, "tool output": 4.2, "structured": 6.0, "code": 4.8}
    assign(
        {k: v for k, v in KINDS.items() if v.n}, "secrets", secret_docs, lambda p: sec_base[FAMILY[p.ctx]], secret_docs
    )
    plain_docs = [p for p in plans if not p.has_secret]
    assign(LOOKALIKES, "looks", plans, lambda p: 0.55 if p.has_secret else 3.0, plain_docs)
    records = [build(p) for p in plans]
    st = stats(records)
    check_corpus(records, st)
    body = "".join(
        json.dumps({k: v for k, v in r.items() if not k.startswith("_")}, ensure_ascii=False) + "\n" for r in records
    )
    data = body.encode("utf-8")
    digest = hashlib.sha256(data).hexdigest()
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "corpus.jsonl").write_bytes(data)
    (args.out / "SHA256SUMS").write_text(f"{digest}  corpus.jsonl\n", encoding="utf-8")
    (args.out / "README.md").write_text(readme(records, st, digest), encoding="utf-8")
    back = (args.out / "corpus.jsonl").read_bytes()
    want = (args.out / "SHA256SUMS").read_text(encoding="utf-8").split()[0]
    if hashlib.sha256(back).hexdigest() != want:
        raise RuntimeError("corpus.jsonl does not match SHA256SUMS")
    reread = [json.loads(line) for line in back.decode("utf-8").splitlines()]
    for rec in reread:
        verify_record(rec)
    if [r["id"] for r in reread] != [r["id"] for r in records]:
        raise RuntimeError("read-back ids differ")
    print(f"wrote {len(records)} documents to {args.out} (sha256 {digest})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
