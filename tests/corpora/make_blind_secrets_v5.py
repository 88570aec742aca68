#!/usr/bin/env python3
"""Generator for ``secrets_blind_v5``, a held-out corpus for the secret-detection engine.

The corpus holds 1,200 documents shaped like files an AI assistant keeps in its
``/memories`` folder (project journals, terminal sessions, chat transcripts, meeting
notes, config dumps, CI logs, emails, tickets, notebooks, ...). Each document lists
the secrets it contains and the look-alikes (public values that must not be flagged).

This script was written blind: without reading the engine, its policies, benchmarks,
documentation, tests or earlier corpora (only the v4 README, for the file format and
the labelling conventions). Standard library only; one seeded ``random.Random``; the
output bytes do not depend on ``PYTHONHASHSEED``, the clock or the machine.

Usage: ``python3 tests/corpora/make_blind_secrets_v5.py [--out DIR]``
"""

# The prose tables hold Russian, Turkish, Korean, Hindi, Vietnamese... text on purpose.
# ruff: noqa: RUF001

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import itertools
import json
import math
import random
import re
import statistics
import time
import zlib
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

SEED = 20270105
N_DOCS = 1200
N_SECRET_DOCS = 600
MIN_SECRET_EXAMPLES = 15
MIN_SECRET_CONTEXTS = 8
MIN_LOOKALIKE_EXAMPLES = 30
DEFAULT_OUT = Path(__file__).resolve().parent / "secrets_blind_v5"

R = random.Random(SEED)
T = TypeVar("T")

DIGITS = "0123456789"
LOWER = "abcdefghijklmnopqrstuvwxyz"
UPPER = LOWER.upper()
LETTERS = UPPER + LOWER
ALNUM = DIGITS + UPPER + LOWER
HEX = "0123456789abcdef"
B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
URLSAFE = ALNUM + "-_"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


# --------------------------------------------------------------------------------------
# small random helpers
# --------------------------------------------------------------------------------------


def rs(n: int, alphabet: str = ALNUM) -> str:
    """Random string of ``n`` characters from ``alphabet``."""
    return "".join(R.choice(alphabet) for _ in range(n))


def rb(n: int) -> bytes:
    return R.randbytes(n)


def pick(seq: list[T] | tuple[T, ...]) -> T:
    return R.choice(seq)


def chance(p: float) -> bool:
    return R.random() < p


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def uuid4() -> str:
    h = bytearray(rb(16))
    h[6] = (h[6] & 0x0F) | 0x40
    h[8] = (h[8] & 0x3F) | 0x80
    s = h.hex()
    return f"{s[:8]}-{s[8:12]}-{s[12:16]}-{s[16:20]}-{s[20:]}"


def hexs(n: int) -> str:
    return rs(n, HEX)


def digits(n: int) -> str:
    return str(R.randint(1, 9)) + rs(n - 1, DIGITS)


def base62(num: int, width: int) -> str:
    out = ""
    while num:
        num, r = divmod(num, 62)
        out = ALNUM[r] + out
    return out.rjust(width, "0")


def crc_token(prefix: str, body_len: int = 30) -> str:
    """``prefix`` + random base62 body + 6-char base62 CRC32 of the body (GitHub / npm style)."""
    body = rs(body_len)
    return prefix + body + base62(zlib.crc32(body.encode()) & 0xFFFFFFFF, 6)


def rdate(y0: int = 2024, y1: int = 2026) -> tuple[int, int, int]:
    return R.randint(y0, y1), R.randint(1, 12), R.randint(1, 28)


def iso_date() -> str:
    y, m, d = rdate()
    return f"{y:04d}-{m:02d}-{d:02d}"


def iso_ts() -> str:
    return f"{iso_date()}T{R.randint(0, 23):02d}:{R.randint(0, 59):02d}:{R.randint(0, 59):02d}Z"


def hm() -> str:
    return f"{R.randint(7, 23):02d}:{R.randint(0, 59):02d}"


def json_escape(s: str) -> str:
    """JSON string body (no quotes); private-use marker characters pass through."""
    return json.dumps(s, ensure_ascii=False)[1:-1]


# --------------------------------------------------------------------------------------
# labels are carried inside the text by private-use marker characters
# --------------------------------------------------------------------------------------

OPEN_BASE = 0xF0000
CLOSE = "\ue001"
KIND_LIST: list[tuple[str, bool]] = []
KIND_INDEX: dict[tuple[str, bool], int] = {}
MARK_RE = re.compile("([\U000f0000-\U000f0fff])|(\ue001)")


def mark(kind: str, value: str, secret: bool) -> str:
    key = (kind, secret)
    if key not in KIND_INDEX:
        KIND_INDEX[key] = len(KIND_LIST)
        KIND_LIST.append(key)
    return chr(OPEN_BASE + KIND_INDEX[key]) + value + CLOSE


def S(kind: str, value: str) -> str:
    return mark(kind, value, True)


def L(kind: str, value: str) -> str:
    return mark(kind, value, False)


def extract(marked: str) -> tuple[str, list[dict[str, object]], list[dict[str, object]]]:
    """Strip the markers; return clean text, secret labels and look-alike labels."""
    out: list[str] = []
    pos = 0
    length = 0
    open_at: tuple[int, int] | None = None
    secrets: list[dict[str, object]] = []
    looks: list[dict[str, object]] = []
    for m in MARK_RE.finditer(marked):
        chunk = marked[pos : m.start()]
        out.append(chunk)
        length += len(chunk)
        pos = m.end()
        if m.group(1):
            if open_at is not None:
                raise ValueError("nested label")
            open_at = (ord(m.group(1)) - OPEN_BASE, length)
        else:
            if open_at is None:
                raise ValueError("unbalanced label")
            kind, secret = KIND_LIST[open_at[0]]
            label = {"kind": kind, "value": "", "start": open_at[1], "end": length}
            (secrets if secret else looks).append(label)
            open_at = None
    out.append(marked[pos:])
    if open_at is not None:
        raise ValueError("unclosed label")
    text = "".join(out)
    for lab in secrets + looks:
        lab["value"] = text[int(lab["start"]) : int(lab["end"])]  # type: ignore[call-overload]
    return text, secrets, looks


def wrap_marked(m: str, width: int) -> str:
    """Hard-wrap the labelled value inside ``m`` every ``width`` characters."""
    out: list[str] = []
    inside = False
    n = 0
    for ch in m:
        if OPEN_BASE <= ord(ch) < OPEN_BASE + 4096:
            inside = True
            out.append(ch)
            continue
        if ch == CLOSE:
            inside = False
        elif inside:
            if n and n % width == 0:
                out.append("\n")
            n += 1
        out.append(ch)
    return "".join(out)


# --------------------------------------------------------------------------------------
# DER / PEM
# --------------------------------------------------------------------------------------


def der_len(n: int) -> bytes:
    if n < 0x80:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


def der(tag: int, body: bytes) -> bytes:
    return bytes([tag]) + der_len(len(body)) + body


def der_int(v: int) -> bytes:
    return der(0x02, v.to_bytes(max(1, (v.bit_length() + 8) // 8), "big"))


def der_seq(*parts: bytes) -> bytes:
    return der(0x30, b"".join(parts))


def der_oid(dotted: str) -> bytes:
    nums = [int(x) for x in dotted.split(".")]
    body = bytearray([40 * nums[0] + nums[1]])
    for num in nums[2:]:
        chunk = [num & 0x7F]
        rest = num >> 7
        while rest:
            chunk.append(0x80 | (rest & 0x7F))
            rest >>= 7
        body.extend(reversed(chunk))
    return der(0x06, bytes(body))


def der_bits(data: bytes) -> bytes:
    return der(0x03, b"\x00" + data)


def pem(label: str, data: bytes, width: int = 64) -> str:
    s = b64(data)
    lines = [s[i : i + width] for i in range(0, len(s), width)]
    return f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----"


OID_RSA = "1.2.840.113549.1.1.1"
OID_EC = "1.2.840.10045.2.1"
OID_P256 = "1.2.840.10045.3.1.7"
OID_ED25519 = "1.3.101.112"
OID_ECDSA_SHA256 = "1.2.840.10045.4.3.2"


# --------------------------------------------------------------------------------------
# RSA (pure Python primes)
# --------------------------------------------------------------------------------------


def _small_primes(limit: int) -> list[int]:
    sieve = bytearray([1]) * (limit + 1)
    sieve[0:2] = b"\x00\x00"
    for i in range(2, int(limit**0.5) + 1):
        if sieve[i]:
            sieve[i * i :: i] = bytearray(len(sieve[i * i :: i]))
    return [i for i in range(limit + 1) if sieve[i]]


SMALL_PRIMES = _small_primes(2500)


def is_probable_prime(n: int, rounds: int = 12) -> bool:
    for p in SMALL_PRIMES:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for _ in range(rounds):
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


def gen_prime(bits: int) -> int:
    while True:
        c = R.getrandbits(bits) | (3 << (bits - 2)) | 1
        if is_probable_prime(c):
            return c


def rsa_key(bits: int = 2048) -> tuple[int, int, int, int, int]:
    e = 65537
    while True:
        p, q = gen_prime(bits // 2), gen_prime(bits // 2)
        if p == q:
            continue
        p, q = max(p, q), min(p, q)
        phi = (p - 1) * (q - 1)
        if math.gcd(e, phi) != 1 or (p * q).bit_length() != bits:
            continue
        return p * q, e, pow(e, -1, phi), p, q


def rsa_pkcs1_der(n: int, e: int, d: int, p: int, q: int) -> bytes:
    return der_seq(
        der_int(0), der_int(n), der_int(e), der_int(d), der_int(p), der_int(q),
        der_int(d % (p - 1)), der_int(d % (q - 1)), der_int(pow(q, -1, p)),
    )  # fmt: skip


def rsa_private_pem(pkcs8: bool) -> str:
    key = rsa_key()
    body = rsa_pkcs1_der(*key)
    if not pkcs8:
        return pem("RSA PRIVATE KEY", body)
    return pem("PRIVATE KEY", der_seq(der_int(0), der_seq(der_oid(OID_RSA), b"\x05\x00"), der(0x04, body)))


# --------------------------------------------------------------------------------------
# P-256
# --------------------------------------------------------------------------------------

P256_P = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF
P256_N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
P256_G = (
    0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
    0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5,
)
Point = tuple[int, int] | None


def ec_add(a: Point, b: Point) -> Point:
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
    return x, (lam * (a[0] - x) - a[1]) % p


def ec_mul(k: int, pt: Point = P256_G) -> Point:
    acc: Point = None
    while k:
        if k & 1:
            acc = ec_add(acc, pt)
        pt = ec_add(pt, pt)
        k >>= 1
    return acc


def ec_keypair() -> tuple[int, bytes]:
    d = R.randrange(1, P256_N)
    q = ec_mul(d)
    if q is None:
        raise ValueError("bad scalar")
    return d, b"\x04" + q[0].to_bytes(32, "big") + q[1].to_bytes(32, "big")


def ecdsa_sign(d: int, digest: bytes) -> tuple[int, int]:
    z = int.from_bytes(digest, "big")
    while True:
        k = R.randrange(1, P256_N)
        pt = ec_mul(k)
        if pt is None:
            continue
        r = pt[0] % P256_N
        s = pow(k, -1, P256_N) * (z + r * d) % P256_N
        if r and s:
            return r, s


def ec_private_pem(d: int, pub: bytes, pkcs8: bool) -> str:
    if not pkcs8:
        body = der_seq(
            der_int(1), der(0x04, d.to_bytes(32, "big")), der(0xA0, der_oid(OID_P256)), der(0xA1, der_bits(pub))
        )
        return pem("EC PRIVATE KEY", body)
    inner = der_seq(der_int(1), der(0x04, d.to_bytes(32, "big")), der(0xA1, der_bits(pub)))
    body = der_seq(der_int(0), der_seq(der_oid(OID_EC), der_oid(OID_P256)), der(0x04, inner))
    return pem("PRIVATE KEY", body)


def ec_spki(pub: bytes) -> bytes:
    return der_seq(der_seq(der_oid(OID_EC), der_oid(OID_P256)), der_bits(pub))


def self_signed_cert(cn: str, d: int, pub: bytes) -> bytes:
    name = der_seq(der(0x31, der_seq(der_oid("2.5.4.3"), der(0x0C, cn.encode()))))
    y = R.randint(2024, 2026)
    validity = der_seq(
        der(0x17, f"{y % 100:02d}0{R.randint(1, 9)}01000000Z".encode()),
        der(0x17, f"{(y + 2) % 100:02d}0101000000Z".encode()),
    )
    alg = der_seq(der_oid(OID_ECDSA_SHA256))
    serial = int.from_bytes(rb(16), "big") >> 1
    tbs = der_seq(der(0xA0, der_int(2)), der_int(serial), alg, name, validity, name, ec_spki(pub))
    r, s = ecdsa_sign(d, hashlib.sha256(tbs).digest())
    return der_seq(tbs, alg, der_bits(der_seq(der_int(r), der_int(s))))


# --------------------------------------------------------------------------------------
# Ed25519 / X25519
# --------------------------------------------------------------------------------------

ED_P = 2**255 - 19
ED_D = -121665 * pow(121666, -1, ED_P) % ED_P
EdPoint = tuple[int, int, int, int]


def _ed_recover_x(y: int, sign: int) -> int:
    x2 = (y * y - 1) * pow(ED_D * y * y + 1, -1, ED_P) % ED_P
    x = pow(x2, (ED_P + 3) // 8, ED_P)
    if (x * x - x2) % ED_P:
        x = x * pow(2, (ED_P - 1) // 4, ED_P) % ED_P
    if x & 1 != sign:
        x = ED_P - x
    return x


_ED_GY = 4 * pow(5, -1, ED_P) % ED_P
_ED_GX = _ed_recover_x(_ED_GY, 0)
ED_G: EdPoint = (_ED_GX, _ED_GY, 1, _ED_GX * _ED_GY % ED_P)


def ed_add(a: EdPoint, b: EdPoint) -> EdPoint:
    p = ED_P
    aa = (a[1] - a[0]) * (b[1] - b[0]) % p
    bb = (a[1] + a[0]) * (b[1] + b[0]) % p
    cc = a[3] * 2 * ED_D * b[3] % p
    dd = a[2] * 2 * b[2] % p
    e, f, g, h = bb - aa, dd - cc, dd + cc, bb + aa
    return e * f % p, g * h % p, f * g % p, e * h % p


def ed25519_public(seed: bytes) -> bytes:
    h = hashlib.sha512(seed).digest()
    a = int.from_bytes(h[:32], "little")
    a &= (1 << 254) - 8
    a |= 1 << 254
    acc: EdPoint = (0, 1, 1, 0)
    pt = ED_G
    while a:
        if a & 1:
            acc = ed_add(acc, pt)
        pt = ed_add(pt, pt)
        a >>= 1
    zi = pow(acc[2], -1, ED_P)
    x, y = acc[0] * zi % ED_P, acc[1] * zi % ED_P
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def x25519_public(k: bytes) -> bytes:
    kb = bytearray(k)
    kb[0] &= 248
    kb[31] &= 127
    kb[31] |= 64
    scalar = int.from_bytes(kb, "little")
    p = ED_P
    x1, x2, z2, x3, z3, swap = 9, 1, 0, 9, 1, 0
    for t in reversed(range(255)):
        kt = (scalar >> t) & 1
        swap ^= kt
        if swap:
            x2, x3, z2, z3 = x3, x2, z3, z2
        swap = kt
        a, b = x2 + z2, x2 - z2
        aa, bb = a * a % p, b * b % p
        e = aa - bb
        c, d = x3 + z3, x3 - z3
        da, cb = d * a % p, c * b % p
        x3 = (da + cb) ** 2 % p
        z3 = x1 * (da - cb) ** 2 % p
        x2 = aa * bb % p
        z2 = e * (aa + 121665 * e) % p
    if swap:
        x2, z2 = x3, z3
    return (x2 * pow(z2, p - 2, p) % p).to_bytes(32, "little")


def clamp25519(k: bytes) -> bytes:
    kb = bytearray(k)
    kb[0] &= 248
    kb[31] &= 127
    kb[31] |= 64
    return bytes(kb)


def ssh_string(b: bytes) -> bytes:
    return len(b).to_bytes(4, "big") + b


def ssh_ed25519_blob(pub: bytes) -> bytes:
    return ssh_string(b"ssh-ed25519") + ssh_string(pub)


def openssh_private(seed: bytes, pub: bytes, comment: str) -> str:
    check = rb(4)
    priv = check + check + ssh_ed25519_blob(pub) + ssh_string(seed + pub) + ssh_string(comment.encode())
    pad = 1
    while len(priv) % 8:
        priv += bytes([pad])
        pad += 1
    body = b"openssh-key-v1\x00" + ssh_string(b"none") + ssh_string(b"none") + ssh_string(b"")
    body += (1).to_bytes(4, "big") + ssh_string(ssh_ed25519_blob(pub)) + ssh_string(priv)
    return pem("OPENSSH PRIVATE KEY", body, 70)


def ed25519_private_pem(seed: bytes) -> str:
    return pem("PRIVATE KEY", bytes.fromhex("302e020100300506032b657004220420") + seed)


def ed25519_public_pem(pub: bytes) -> str:
    return pem("PUBLIC KEY", bytes.fromhex("302a300506032b6570032100") + pub)


# --------------------------------------------------------------------------------------
# checksummed encodings
# --------------------------------------------------------------------------------------

BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def _bech32_polymod(values: list[int]) -> int:
    gen = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
    chk = 1
    for v in values:
        top = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ v
        for i in range(5):
            if (top >> i) & 1:
                chk ^= gen[i]
    return chk


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


def bech32_encode(hrp: str, data: list[int]) -> str:
    expanded = [ord(x) >> 5 for x in hrp] + [0] + [ord(x) & 31 for x in hrp]
    polymod = _bech32_polymod([*expanded, *data, 0, 0, 0, 0, 0, 0]) ^ 1
    checksum = [(polymod >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(BECH32[d] for d in data + checksum)


def base58check(payload: bytes) -> str:
    full = payload + hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    num = int.from_bytes(full, "big")
    out = ""
    while num:
        num, r = divmod(num, 58)
        out = B58[r] + out
    return "1" * (len(full) - len(full.lstrip(b"\x00"))) + out


def jwt_hs256(payload: dict[str, object], key: bytes) -> str:
    head = b64u(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    body = b64u(json.dumps(payload, separators=(",", ":")).encode())
    sig = hmac.new(key, f"{head}.{body}".encode(), hashlib.sha256).digest()
    return f"{head}.{body}.{b64u(sig)}"


def jwt_es256(payload: dict[str, object], kid: str) -> str:
    d, _pub = ec_keypair()
    head = b64u(json.dumps({"alg": "ES256", "typ": "JWT", "kid": kid}, separators=(",", ":")).encode())
    body = b64u(json.dumps(payload, separators=(",", ":")).encode())
    r, s = ecdsa_sign(d, hashlib.sha256(f"{head}.{body}".encode()).digest())
    return f"{head}.{body}.{b64u(r.to_bytes(32, 'big') + s.to_bytes(32, 'big'))}"


def macaroon_v2(location: bytes, identifier: bytes, caveats: list[bytes], root: bytes) -> bytes:
    def fld(t: int, data: bytes) -> bytes:
        return (
            bytes([t, len(data)]) + data
            if len(data) < 128
            else bytes([t, 0x80 | (len(data) & 0x7F), len(data) >> 7]) + data
        )

    sig = hmac.new(
        hmac.new(b"macaroons-key-generator", root, hashlib.sha256).digest(), identifier, hashlib.sha256
    ).digest()
    for c in caveats:
        sig = hmac.new(sig, c, hashlib.sha256).digest()
    out = b"\x02" + fld(1, location) + fld(2, identifier) + b"\x00"
    for c in caveats:
        out += fld(2, c) + b"\x00"
    return out + b"\x00" + fld(6, sig)


def iban(country: str, bban: str) -> str:
    def num(s: str) -> str:
        return "".join(str(int(ch, 36)) for ch in s)

    check = 98 - int(num(bban + country + "00")) % 97
    return f"{country}{check:02d}{bban}"


def isbn13() -> str:
    body = pick(["978", "979"]) + rs(9, DIGITS)
    total = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(body))
    return body + str((10 - total % 10) % 10)


def ulid() -> str:
    return rs(1, "01") + rs(25, CROCKFORD)


# --------------------------------------------------------------------------------------
# items: one labelled value plus the names and forms a document can show it in
# --------------------------------------------------------------------------------------


@dataclass
class Item:
    kind: str
    secret: bool
    m: str  # marked value as it would be assigned (may hold unlabelled text around the label)
    name: str  # ENV_STYLE name
    svc: str  # how prose refers to it ("Stripe", "commit")
    header: tuple[str, str] | None = None  # (header name, marked header value)
    cli: str | None = None  # a shell command holding the value
    block: str | None = None  # a multi-line file form (service-account JSON, kubeconfig...)
    expr: bool = False  # value is a code expression / reference, written unquoted
    multiline: bool = False


Group = list[Item]

ORGS = ["acme", "northwind", "globex", "initech", "hooli", "vandelay", "tyrell", "wonka", "oceanic", "kestrel",
        "bluebird", "lumen", "ferro", "orbitly", "pinecrest", "tidewater", "quokka", "marlin", "saltbox", "heron"]  # fmt: skip
PROJECTS = ["billing-api", "atlas", "harbor", "ledger", "pantry", "nightjar", "quill", "orchard", "beacon", "tessera",
            "switchyard", "mercury", "compass", "driftwood", "paper-trail", "kiln", "sundial", "relay", "canopy", "fjord",
            "lighthouse", "mosaic", "ticketing", "ingest", "payroll-sync", "storefront"]  # fmt: skip
DB_USERS = ["app", "svc_billing", "deploy", "admin", "readonly", "etl_worker", "analytics", "django", "rails", "backend",
            "migrator", "reporting", "api_rw", "metabase", "airflow", "keycloak"]  # fmt: skip
PEOPLE = ["Ayşe", "Minji", "Dmitri", "Priya", "Linnea", "Thanh", "João", "Kasia", "Sam", "Alex", "Jordan", "Rahul",
          "Elif", "Jiwoo", "Olga", "Erik", "Huong", "Beatriz", "Tomasz", "Maya", "Chris", "Noah", "Leila", "Kenji"]  # fmt: skip
WORDS = ["maple", "orbit", "falcon", "tundra", "velvet", "copper", "lantern", "harbor", "pepper", "quartz", "nimbus",
         "meadow", "cobalt", "saffron", "glacier", "ember", "walrus", "biscuit", "thistle", "juniper", "pixel", "rocket",
         "marble", "cactus", "kayak", "sparrow", "violet", "onyx", "pumpkin", "zephyr"]  # fmt: skip
PW_SYMBOLS = "!#%^*-_=+.~@"


def org() -> str:
    return pick(ORGS)


def host(kind: str = "db") -> str:
    o = org()
    return pick([
        f"{kind}-{pick(['prod', 'staging', 'dev', 'eu1', 'us2'])}-{R.randint(1, 4)}.{o}.internal",
        f"{kind}.{o}-corp.net",
        f"10.{R.randint(0, 40)}.{R.randint(0, 255)}.{R.randint(2, 250)}",
        f"{o}-{kind}.{pick(['cluster-c9x2', 'cxq1', 'abc123'])}.{pick(['eu-west-1', 'us-east-1', 'ap-south-1'])}.rds.amazonaws.com",
        f"{kind}{R.randint(1, 3)}.{o}.lan",
    ])  # fmt: skip


def human_pw() -> str:
    w1, w2 = pick(WORDS), pick(WORDS)
    return pick([
        f"{w1.capitalize()}{pick(PW_SYMBOLS)}{w2.capitalize()}{R.randint(10, 9999)}",
        f"{w1}-{w2}-{w1[:2]}{R.randint(10, 99)}",
        f"{pick(['Summer', 'Winter', 'Autumn', 'Spring', 'Lente', 'Kış', 'Zima'])}{R.randint(2019, 2026)}{pick('!#*.')}{rs(2, UPPER)}",
        f"{w1.capitalize()}{R.randint(100, 999)}{pick(PW_SYMBOLS)}{w2}",
        f"{w1[0].upper()}{w1[1:]}{pick(PW_SYMBOLS)}{rs(5, ALNUM)}{pick(PW_SYMBOLS)}",
    ])  # fmt: skip


def random_pw(lo: int = 14, hi: int = 28) -> str:
    n = R.randint(lo, hi)
    body = list(rs(n - 2, ALNUM) + pick(PW_SYMBOLS) + pick(DIGITS))
    R.shuffle(body)
    return "".join(body)


def password() -> str:
    return human_pw() if chance(0.45) else random_pw()


def url_quote(pw: str) -> str:
    safe = ALNUM + "-_.~"
    return "".join(ch if ch in safe else f"%{ord(ch):02X}" for ch in pw)


def sec(
    kind: str,
    value: str,
    names: list[str] | str,
    svc: str,
    *,
    header: tuple[str, str] | None = None,
    cli: str | None = None,
    tpl: str | None = None,
    block: str | None = None,
) -> Item:
    """A secret item. ``tpl`` (with ``{v}``) wraps the label in unlabelled text (DSNs, cookies)."""
    m = S(kind, value)
    full = tpl.replace("{v}", m) if tpl else m
    return Item(
        kind=kind,
        secret=True,
        m=full,
        name=names if isinstance(names, str) else pick(names),
        svc=svc,
        header=(header[0], header[1] + m) if header else None,
        cli=cli.replace("{v}", m) if cli else None,
        block=block.replace("{v}", m) if block else None,
        multiline="\n" in full,
    )


NEUTRAL = [("LOG_LEVEL", "info"), ("TIMEOUT_SECONDS", "30"), ("MAX_CONNECTIONS", "50"), ("REGION", "eu-west-1"), ("WORKERS", "4"),
           ("FEATURE_FLAGS", "new_checkout,dark_mode"), ("RETRY_BACKOFF_MS", "250"), ("CACHE_TTL", "300"), ("DB_USER", "app"),
           ("CORS_ORIGINS", "https://app.example.com"), ("BUCKET", "assets-public"), ("SMTP_PORT", "587"), ("TZ", "Europe/Istanbul"),
           ("DB_HOST", "db.internal"), ("QUEUE", "default"), ("SENTRY_ENVIRONMENT", "production"), ("RATE_LIMIT_PER_MIN", "600"),
           ("USE_TLS", "true"), ("METRICS_PORT", "9102"), ("LOCALE", "sv_SE"), ("PAGE_SIZE", "100"), ("OTEL_SERVICE_NAME", "api")]  # fmt: skip


def neutral_group(n: int) -> Group:
    return [Item("", False, v, k, k.lower().replace("_", " ")) for k, v in R.sample(NEUTRAL, n)]


def look(
    kind: str, value: str, names: list[str] | str, what: str, *, tpl: str | None = None, expr: bool = False
) -> Item:
    m = L(kind, value)
    full = tpl.replace("{v}", m) if tpl else m
    return Item(
        kind, False, full, names if isinstance(names, str) else pick(names), what, expr=expr, multiline="\n" in full
    )


Gen = Callable[[str], Group]
SECRET_GENS: dict[str, tuple[str, Gen]] = {}
LOOK_GENS: dict[str, tuple[str, Gen]] = {}


def skind(kind: str, desc: str) -> Callable[[Gen], Gen]:
    def deco(fn: Gen) -> Gen:
        SECRET_GENS[kind] = (desc, fn)
        return fn

    return deco


def lkind(kind: str, desc: str) -> Callable[[Gen], Gen]:
    def deco(fn: Gen) -> Gen:
        LOOK_GENS[kind] = (desc, fn)
        return fn

    return deco


BEARER = ("Authorization", "Bearer ")


def bearer_cli(url: str) -> str:
    return pick([
        f'curl -sS -H "Authorization: Bearer {{v}}" {url}',
        f"curl -s {url} -H 'Authorization: Bearer {{v}}' | jq .",
        f'http GET {url} "Authorization:Bearer {{v}}"',
    ])  # fmt: skip


# ---- cloud ---------------------------------------------------------------------------


def aws_key_id(prefix: str = "AKIA") -> Item:
    return sec("aws_access_key_id", prefix + rs(16, UPPER + "234567"),
               ["AWS_ACCESS_KEY_ID", "aws_access_key_id", "AccessKeyId", "access_key"], "AWS",
               cli="aws configure set aws_access_key_id {v}")  # fmt: skip


def aws_secret() -> Item:
    return sec("aws_secret_access_key", rs(40, ALNUM + "+/"),
               ["AWS_SECRET_ACCESS_KEY", "aws_secret_access_key", "SecretAccessKey", "secret_key"], "AWS",
               cli="aws configure set aws_secret_access_key {v}")  # fmt: skip


@skind("aws_access_key_id", "`AKIA` / `ASIA` + 16 characters; labelled because it travels with its secret")
def _g_aws_id(ctx: str) -> Group:
    return [aws_key_id(pick(["AKIA", "AKIA", "ASIA"]))]


@skind("aws_secret_access_key", "40 characters of `[A-Za-z0-9+/]`, usually next to its key id")
def _g_aws_secret(ctx: str) -> Group:
    return [aws_key_id(), aws_secret()] if chance(0.8) else [aws_secret()]


@skind("aws_session_token", "STS session token, base64 starting `IQoJb3JpZ2luX2Vj` (with `ASIA` id and secret)")
def _g_aws_session(ctx: str) -> Group:
    tok = b64(b"!\n\torigin_ec\x10" + rb(R.choice([280, 330, 410])))
    item = sec("aws_session_token", tok, ["AWS_SESSION_TOKEN", "aws_session_token", "SessionToken"], "AWS STS",
               cli="aws configure set aws_session_token {v}")  # fmt: skip
    return [aws_key_id("ASIA"), aws_secret(), item]


@skind("gcp_service_account_key", "2048-bit RSA PKCS #8 key inside service-account JSON (with its `\\n` escapes)")
def _g_gcp_sa(ctx: str) -> Group:
    project = f"{org()}-{pick(['prod', 'data', 'ml', 'infra'])}-{R.randint(100000, 999999)}"
    key = rsa_private_pem(True).replace("\n", "\\n")
    kid = L("key_identifier", hexs(40))
    email = f"{pick(['ci-deployer', 'bq-loader', 'terraform', 'vertex-runner'])}@{project}.iam.gserviceaccount.com"
    client_id = digits(21)
    fields = [("type", '"service_account"'), ("project_id", f'"{project}"'), ("private_key_id", f'"{kid}"'),
              ("private_key", '"{v}\\n"'), ("client_email", f'"{email}"'), ("client_id", f'"{client_id}"'),
              ("auth_uri", '"https://accounts.google.com/o/oauth2/auth"'), ("token_uri", '"https://oauth2.googleapis.com/token"')]  # fmt: skip
    compact = "{" + ",".join(f'"{k}":{v}' for k, v in fields) + "}"
    pretty = "{\n" + ",\n".join(f'  "{k}": {v}' for k, v in fields) + "\n}"
    return [sec("gcp_service_account_key", key, ["GOOGLE_CREDENTIALS", "GCP_SA_KEY", "GOOGLE_APPLICATION_CREDENTIALS_JSON", "gcp_credentials"],
                "the GCP service account", tpl=compact, block=pretty)]  # fmt: skip


@skind("google_api_key", "`AIza` + 35 characters (server-side Maps / Gemini / YouTube Data keys)")
def _g_google_api(ctx: str) -> Group:
    v = "AIza" + rs(35, URLSAFE)
    return [sec("google_api_key", v, ["GEMINI_API_KEY", "GOOGLE_MAPS_SERVER_KEY", "YOUTUBE_API_KEY", "GOOGLE_API_KEY", "places_api_key"],
                pick(["Gemini", "Google Maps (server)", "YouTube Data API"]),
                cli=pick(["curl 'https://generativelanguage.googleapis.com/v1beta/models?key={v}'",
                          "curl 'https://maps.googleapis.com/maps/api/geocode/json?address=Oslo&key={v}'"]))]  # fmt: skip


@skind("azure_storage_account_key", "88-character base64 account key, bare or as `AccountKey=` in a connection string")
def _g_azure_storage(ctx: str) -> Group:
    v = b64(rb(64))
    acct = f"{org()}{pick(['prod', 'data', 'logs', 'backup'])}{R.randint(1, 99)}"
    if chance(0.6):
        tpl = f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={{v}};EndpointSuffix=core.windows.net"
        return [
            sec(
                "azure_storage_account_key",
                v,
                ["AZURE_STORAGE_CONNECTION_STRING", "AzureWebJobsStorage", "StorageConnection"],
                "Azure Storage",
                tpl=tpl,
            )
        ]
    return [sec("azure_storage_account_key", v, ["AZURE_STORAGE_KEY", "AZURE_STORAGE_ACCOUNT_KEY", "storage_account_key"], "Azure Storage",
                cli=f"az storage blob list --account-name {acct} --container-name backups --account-key {{v}}")]  # fmt: skip


@skind(
    "azure_ad_client_secret",
    "Entra ID client secret: 3 characters + digit + `Q~` + 34 (the client id is a look-alike)",
)
def _g_azure_client_secret(ctx: str) -> Group:
    v = rs(3, ALNUM) + rs(1, DIGITS) + "Q~" + rs(34, ALNUM + "_.~-")
    cid = look("oauth_client_id", uuid4(), ["AZURE_CLIENT_ID", "client_id", "ClientId"], "client id")
    secret = sec("azure_ad_client_secret", v, ["AZURE_CLIENT_SECRET", "client_secret", "ClientSecret"], "Entra ID app",
                 cli=f"az login --service-principal -u {uuid4()} -p {{v}} --tenant {uuid4()}")  # fmt: skip
    return [cid, secret] if chance(0.6) else [secret]


@skind("azure_sas_signature", "URL-encoded `sig=` of an Azure SAS URL (only the signature)")
def _g_azure_sas(ctx: str) -> Group:
    sig = b64(rb(32)).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    acct = f"{org()}{pick(['files', 'exports', 'media'])}"
    y, m, d = rdate(2025, 2027)
    url = (f"https://{acct}.blob.core.windows.net/{pick(['exports', 'backups', 'uploads'])}/{pick(['report.csv', 'dump.sql.gz', 'model.bin'])}"
           f"?sv=2022-11-02&ss=b&srt=co&sp={pick(['r', 'rl', 'racwdl'])}&se={y}-{m:02d}-{d:02d}T18:00:00Z&spr=https&sig={{v}}")  # fmt: skip
    return [sec("azure_sas_signature", sig, ["SAS_URL", "AZURE_BLOB_SAS_URL", "export_url"], "the SAS link", tpl=url)]


@skind("digitalocean_token", "`dop_v1_` + 64 hex")
def _g_do(ctx: str) -> Group:
    return [sec("digitalocean_token", "dop_v1_" + hexs(64), ["DIGITALOCEAN_TOKEN", "DO_API_TOKEN", "do_token"], "DigitalOcean",
                header=BEARER, cli="doctl auth init --access-token {v}")]  # fmt: skip


@skind("ibm_cloud_api_key", "44 characters `[A-Za-z0-9_-]` (name only)")
def _g_ibm(ctx: str) -> Group:
    return [sec("ibm_cloud_api_key", rs(44, URLSAFE), ["IBMCLOUD_API_KEY", "IC_API_KEY", "ibm_api_key"], "IBM Cloud",
                cli="ibmcloud login --apikey {v} -r eu-de")]  # fmt: skip


@skind("cloudflare_api_token", "40 characters `[A-Za-z0-9_-]` (name or `Bearer` to api.cloudflare.com)")
def _g_cf(ctx: str) -> Group:
    return [sec("cloudflare_api_token", rs(40, URLSAFE), ["CLOUDFLARE_API_TOKEN", "CF_API_TOKEN", "cf_dns_token"], "Cloudflare",
                header=BEARER, cli=bearer_cli("https://api.cloudflare.com/client/v4/user/tokens/verify"))]  # fmt: skip


@skind("hetzner_cloud_token", "64 alphanumerics (name only)")
def _g_hetzner(ctx: str) -> Group:
    return [sec("hetzner_cloud_token", rs(64), ["HCLOUD_TOKEN", "HETZNER_TOKEN", "hcloud_token"], "Hetzner",
                header=BEARER, cli="hcloud context create prod  # token: {v}")]  # fmt: skip


# ---- PaaS ----------------------------------------------------------------------------


@skind("heroku_api_key", "`HRKU-AA` + 58 characters, or a UUID under a Heroku name")
def _g_heroku(ctx: str) -> Group:
    v = "HRKU-AA" + rs(58, URLSAFE) if chance(0.6) else uuid4()
    return [sec("heroku_api_key", v, ["HEROKU_API_KEY", "heroku_api_key", "HEROKU_TOKEN"], "Heroku", header=BEARER,
                cli="HEROKU_API_KEY={v} heroku apps --team " + org())]  # fmt: skip


@skind("flyio_token", "`fo1_` + 43 characters")
def _g_fly(ctx: str) -> Group:
    return [sec("flyio_token", "fo1_" + rs(43, URLSAFE), ["FLY_API_TOKEN", "fly_token"], "Fly.io", header=BEARER,
                cli="FLY_API_TOKEN={v} flyctl deploy --remote-only")]  # fmt: skip


@skind("netlify_token", "`nfp_` + 40 alphanumerics")
def _g_netlify(ctx: str) -> Group:
    return [sec("netlify_token", "nfp_" + rs(40), ["NETLIFY_AUTH_TOKEN", "netlify_token"], "Netlify", header=BEARER,
                cli="netlify deploy --prod --auth {v}")]  # fmt: skip


@skind("vercel_token", "24 alphanumerics (name only)")
def _g_vercel(ctx: str) -> Group:
    return [
        sec(
            "vercel_token",
            rs(24),
            ["VERCEL_TOKEN", "vercel_token"],
            "Vercel",
            header=BEARER,
            cli="vercel deploy --prod --token {v}",
        )
    ]


@skind("render_api_key", "`rnd_` + 32 alphanumerics")
def _g_render(ctx: str) -> Group:
    return [sec("render_api_key", "rnd_" + rs(32), ["RENDER_API_KEY", "render_key"], "Render", header=BEARER,
                cli=bearer_cli("https://api.render.com/v1/services?limit=20"))]  # fmt: skip


@skind("supabase_access_token", "`sbp_` + 40 hex personal access token")
def _g_supabase(ctx: str) -> Group:
    return [sec("supabase_access_token", "sbp_" + hexs(40), ["SUPABASE_ACCESS_TOKEN", "supabase_pat"], "Supabase", header=BEARER,
                cli="SUPABASE_ACCESS_TOKEN={v} supabase link --project-ref " + rs(20, LOWER))]  # fmt: skip


# ---- source hosting, CI/CD, infra ------------------------------------------------------


@skind("github_pat_classic", "`ghp_` + 30 base62 + 6-character base62 CRC32")
def _g_ghp(ctx: str) -> Group:
    return [sec("github_pat_classic", crc_token("ghp_"), ["GITHUB_TOKEN", "GH_TOKEN", "GITHUB_PAT", "github_token"], "GitHub",
                header=pick([BEARER, ("Authorization", "token ")]),
                cli=pick(["echo {v} | gh auth login --with-token", "git clone https://x-access-token:{v}@github.com/" + org() + "/" + pick(PROJECTS) + ".git"]))]  # fmt: skip


@skind("github_fine_grained_pat", "`github_pat_11` + 20 + `_` + 59")
def _g_ghfg(ctx: str) -> Group:
    v = "github_pat_11" + rs(20, UPPER + DIGITS) + "_" + rs(59)
    return [sec("github_fine_grained_pat", v, ["GITHUB_TOKEN", "GH_PAT", "RENOVATE_TOKEN", "gh_fine_grained"], "GitHub", header=BEARER,
                cli="GH_TOKEN={v} gh release create v" + f"{R.randint(0, 4)}.{R.randint(0, 20)}.{R.randint(0, 9)}")]  # fmt: skip


@skind(
    "github_app_token", "`gho_` / `ghu_` / `ghs_` / `ghr_` + 30 + CRC32 (OAuth, user-to-server, installation, refresh)"
)
def _g_ghapp(ctx: str) -> Group:
    p = pick(["gho_", "ghu_", "ghs_", "ghr_"])
    name = {
        "gho_": "GITHUB_OAUTH_TOKEN",
        "ghu_": "GITHUB_USER_TOKEN",
        "ghs_": "INSTALLATION_TOKEN",
        "ghr_": "GITHUB_REFRESH_TOKEN",
    }[p]
    return [
        sec("github_app_token", crc_token(p), [name, name.lower()], "GitHub app", header=("Authorization", "token "))
    ]


@skind("gitlab_token", "`glpat-` + 20 (or routable `glpat-...`), `glrt-`, `gldt-`, `glptt-` + 40 hex")
def _g_gitlab(ctx: str) -> Group:
    v = pick([
        "glpat-" + rs(20, URLSAFE),
        "glpat-" + rs(27, URLSAFE) + ".01." + rs(9, LOWER + DIGITS),
        "glrt-" + rs(20, URLSAFE),
        "gldt-" + rs(20, URLSAFE),
        "glptt-" + hexs(40),
    ])  # fmt: skip
    return [sec("gitlab_token", v, ["GITLAB_TOKEN", "CI_JOB_PAT", "GITLAB_PAT", "gitlab_private_token"], "GitLab",
                header=("PRIVATE-TOKEN", ""), cli="glab auth login --hostname gitlab.com --token {v}")]  # fmt: skip


@skind("bitbucket_app_password", "`ATBB` + 32 alphanumerics + 8 hex")
def _g_bitbucket(ctx: str) -> Group:
    v = "ATBB" + rs(32) + hexs(8).upper()
    return [sec("bitbucket_app_password", v, ["BITBUCKET_APP_PASSWORD", "BB_APP_PASSWORD"], "Bitbucket",
                cli="git clone https://" + pick(DB_USERS) + ":{v}@bitbucket.org/" + org() + "/" + pick(PROJECTS) + ".git")]  # fmt: skip


@skind("azure_devops_pat", "52 characters `[a-z2-7]`, or the 84-character format with `AZDO` at 76-80")
def _g_ado(ctx: str) -> Group:
    v = rs(52, LOWER + "234567") if chance(0.5) else rs(76) + "AZDO" + rs(4)
    return [sec("azure_devops_pat", v, ["AZURE_DEVOPS_EXT_PAT", "ADO_PAT", "SYSTEM_ACCESSTOKEN_OVERRIDE", "azdo_pat"], "Azure DevOps",
                cli="echo {v} | az devops login --organization https://dev.azure.com/" + org())]  # fmt: skip


@skind("circleci_token", "`CCIPAT_` + 22 + `_` + 40 hex")
def _g_circle(ctx: str) -> Group:
    return [sec("circleci_token", "CCIPAT_" + rs(22, B58) + "_" + hexs(40), ["CIRCLECI_TOKEN", "CIRCLE_TOKEN"], "CircleCI",
                header=("Circle-Token", ""), cli="circleci setup --no-prompt --token {v}")]  # fmt: skip


@skind("buildkite_token", "`bkua_` + 40 hex")
def _g_buildkite(ctx: str) -> Group:
    return [sec("buildkite_token", "bkua_" + hexs(40), ["BUILDKITE_API_TOKEN", "BUILDKITE_TOKEN"], "Buildkite", header=BEARER,
                cli=bearer_cli("https://api.buildkite.com/v2/organizations/" + org() + "/builds"))]  # fmt: skip


@skind("jenkins_api_token", "`11` + 32 hex (user is unlabelled)")
def _g_jenkins(ctx: str) -> Group:
    user = pick(DB_USERS + PEOPLE[:6]).lower()
    return [sec("jenkins_api_token", "11" + hexs(32), ["JENKINS_API_TOKEN", "JENKINS_TOKEN", "jenkins_token"], "Jenkins",
                cli=f"curl -X POST -u {user}:{{v}} https://ci.{org()}.io/job/{pick(PROJECTS)}/build")]  # fmt: skip


@skind("sonarqube_token", "`squ_` / `sqp_` / `sqa_` + 40 hex")
def _g_sonar(ctx: str) -> Group:
    return [sec("sonarqube_token", pick(["squ_", "sqp_", "sqa_"]) + hexs(40), ["SONAR_TOKEN", "sonar.token", "SONARQUBE_TOKEN"], "SonarQube",
                cli="sonar-scanner -Dsonar.projectKey=" + pick(PROJECTS) + " -Dsonar.token={v}")]  # fmt: skip


@skind("terraform_cloud_token", "14 + `.atlasv1.` + 67")
def _g_tfc(ctx: str) -> Group:
    v = rs(14) + ".atlasv1." + rs(67)
    return [sec("terraform_cloud_token", v, ["TF_TOKEN_app_terraform_io", "TFC_TOKEN", "ATLAS_TOKEN"], "Terraform Cloud", header=BEARER,
                block='credentials "app.terraform.io" {\n  token = "{v}"\n}')]  # fmt: skip


@skind("vault_token", "`hvs.` (short and long forms), `hvb.` batch tokens")
def _g_vault(ctx: str) -> Group:
    v = pick(["hvs." + rs(24), "hvs.CAESI" + rs(86, URLSAFE), "hvb.AAAAAQ" + rs(120, URLSAFE)])
    return [sec("vault_token", v, ["VAULT_TOKEN", "vault_token"], "Vault", header=("X-Vault-Token", ""),
                cli="VAULT_TOKEN={v} vault kv get secret/" + pick(PROJECTS))]  # fmt: skip


@skind("doppler_token", "`dp.pt.` / `dp.st.<config>.` / `dp.sa.` tokens")
def _g_doppler(ctx: str) -> Group:
    v = pick(["dp.pt." + rs(43), f"dp.st.{pick(['prd', 'stg', 'dev'])}." + rs(40), "dp.sa." + rs(43)])
    return [
        sec(
            "doppler_token",
            v,
            ["DOPPLER_TOKEN", "doppler_service_token"],
            "Doppler",
            cli="doppler run --token {v} -- npm start",
        )
    ]


@skind("pulumi_access_token", "`pul-` + 40 hex")
def _g_pulumi(ctx: str) -> Group:
    return [
        sec(
            "pulumi_access_token",
            "pul-" + hexs(40),
            ["PULUMI_ACCESS_TOKEN"],
            "Pulumi",
            cli="PULUMI_ACCESS_TOKEN={v} pulumi up --yes",
        )
    ]


@skind("databricks_token", "`dapi` + 32 hex (optionally `-2`)")
def _g_databricks(ctx: str) -> Group:
    v = "dapi" + hexs(32) + pick(["", "", "-2", "-3"])
    return [sec("databricks_token", v, ["DATABRICKS_TOKEN", "databricks_pat"], "Databricks", header=BEARER,
                cli=bearer_cli(f"https://adb-{digits(16)}.{R.randint(1, 19)}.azuredatabricks.net/api/2.0/clusters/list"))]  # fmt: skip


# ---- package registries --------------------------------------------------------------


@skind("npm_token", "`npm_` + 30 + CRC32 (base62)")
def _g_npm(ctx: str) -> Group:
    return [sec("npm_token", crc_token("npm_"), ["NPM_TOKEN", "NODE_AUTH_TOKEN", "npm_auth_token"], "npm",
                cli="npm config set //registry.npmjs.org/:_authToken {v}")]  # fmt: skip


@skind("pypi_token", "`pypi-` + base64url macaroon (location `pypi.org`, UUID id, caveat, real HMAC chain)")
def _g_pypi(ctx: str) -> Group:
    cav = pick(
        [
            b'{"version": 1, "permissions": "user"}',
            json.dumps({"version": 1, "permissions": {"projects": [pick(PROJECTS)]}}).encode(),
        ]
    )
    v = "pypi-" + b64u(macaroon_v2(b"pypi.org", uuid4().encode(), [cav], rb(32)))
    return [sec("pypi_token", v, ["PYPI_TOKEN", "TWINE_PASSWORD", "UV_PUBLISH_TOKEN", "pypi_api_token"], "PyPI",
                cli="twine upload -u __token__ -p {v} dist/*")]  # fmt: skip


@skind("rubygems_api_key", "`rubygems_` + 48 hex")
def _g_rubygems(ctx: str) -> Group:
    return [sec("rubygems_api_key", "rubygems_" + hexs(48), ["GEM_HOST_API_KEY", "RUBYGEMS_API_KEY"], "RubyGems",
                cli="GEM_HOST_API_KEY={v} gem push pkg/*.gem")]  # fmt: skip


@skind("nuget_api_key", "`oy2` + 43 `[a-z0-9]`")
def _g_nuget(ctx: str) -> Group:
    return [sec("nuget_api_key", "oy2" + rs(43, LOWER + DIGITS), ["NUGET_API_KEY", "NuGetApiKey"], "NuGet",
                cli="dotnet nuget push bin/Release/*.nupkg -k {v} -s https://api.nuget.org/v3/index.json")]  # fmt: skip


@skind("cratesio_token", "`cio` + 32 alphanumerics")
def _g_crates(ctx: str) -> Group:
    return [
        sec(
            "cratesio_token",
            "cio" + rs(32),
            ["CARGO_REGISTRY_TOKEN", "CRATES_IO_TOKEN"],
            "crates.io",
            cli="cargo login {v}",
        )
    ]


@skind("dockerhub_pat", "`dckr_pat_` + 27 characters")
def _g_docker(ctx: str) -> Group:
    user = pick([*DB_USERS, "ci-bot", org() + "bot"])
    return [sec("dockerhub_pat", "dckr_pat_" + rs(27, URLSAFE), ["DOCKERHUB_TOKEN", "DOCKER_PASSWORD", "REGISTRY_PASSWORD"], "Docker Hub",
                cli=f"echo {{v}} | docker login -u {user} --password-stdin")]  # fmt: skip


# ---- payments --------------------------------------------------------------------------


@skind("stripe_secret_key", "`sk_live_` + 24, or `sk_live_51` + 97")
def _g_stripe_sk(ctx: str) -> Group:
    v = "sk_live_" + (rs(24) if chance(0.4) else "51" + rs(97))
    return [sec("stripe_secret_key", v, ["STRIPE_SECRET_KEY", "STRIPE_API_KEY", "stripe_sk"], "Stripe", header=BEARER,
                cli="curl https://api.stripe.com/v1/charges -u {v}:")]  # fmt: skip


@skind("stripe_restricted_key", "`rk_live_` + 24, or `rk_live_51` + 97")
def _g_stripe_rk(ctx: str) -> Group:
    v = "rk_live_" + (rs(24) if chance(0.4) else "51" + rs(97))
    return [
        sec(
            "stripe_restricted_key",
            v,
            ["STRIPE_RESTRICTED_KEY", "STRIPE_READONLY_KEY"],
            "Stripe (restricted)",
            header=BEARER,
        )
    ]


@skind("stripe_webhook_secret", "`whsec_` + 32 alphanumerics")
def _g_stripe_wh(ctx: str) -> Group:
    return [
        sec(
            "stripe_webhook_secret",
            "whsec_" + rs(32),
            ["STRIPE_WEBHOOK_SECRET", "STRIPE_ENDPOINT_SECRET"],
            "Stripe webhook",
        )
    ]


@skind("square_access_token", "`EAAA` + 60 characters, or `sq0csp-` + 43 application secret")
def _g_square(ctx: str) -> Group:
    v = "EAAA" + rs(60, URLSAFE) if chance(0.65) else "sq0csp-" + rs(43, URLSAFE)
    return [sec("square_access_token", v, ["SQUARE_ACCESS_TOKEN", "SQUARE_APP_SECRET"], "Square", header=BEARER)]


@skind("paypal_client_secret", "80 characters starting `E` (the `A...` client id is a look-alike)")
def _g_paypal(ctx: str) -> Group:
    cid = look("oauth_client_id", "A" + rs(79, URLSAFE), ["PAYPAL_CLIENT_ID", "paypal_client_id"], "PayPal client id")
    s = sec("paypal_client_secret", "E" + rs(79, URLSAFE), ["PAYPAL_CLIENT_SECRET", "PAYPAL_SECRET"], "PayPal")
    return [cid, s] if chance(0.6) else [s]


@skind("shopify_access_token", "`shpat_` / `shpca_` / `shppa_` / `shpss_` + 32 hex")
def _g_shopify(ctx: str) -> Group:
    p = pick(["shpat_", "shpat_", "shpca_", "shppa_", "shpss_"])
    return [sec("shopify_access_token", p + hexs(32), ["SHOPIFY_ACCESS_TOKEN", "SHOPIFY_ADMIN_TOKEN", "SHOPIFY_API_SECRET"], "Shopify",
                header=("X-Shopify-Access-Token", ""))]  # fmt: skip


@skind("paystack_secret_key", "`sk_live_` + 40 hex")
def _g_paystack(ctx: str) -> Group:
    return [sec("paystack_secret_key", "sk_live_" + hexs(40), ["PAYSTACK_SECRET_KEY"], "Paystack", header=BEARER)]


@skind("flutterwave_secret_key", "`FLWSECK-` + 32 hex + `-X`")
def _g_flutterwave(ctx: str) -> Group:
    return [
        sec(
            "flutterwave_secret_key",
            "FLWSECK-" + hexs(32) + "-X",
            ["FLW_SECRET_KEY", "FLUTTERWAVE_SECRET"],
            "Flutterwave",
            header=BEARER,
        )
    ]


@skind("mollie_api_key", "`live_` + 30 alphanumerics")
def _g_mollie(ctx: str) -> Group:
    return [sec("mollie_api_key", "live_" + rs(30), ["MOLLIE_API_KEY", "mollie_key"], "Mollie", header=BEARER)]


# ---- messaging and email -----------------------------------------------------------------


@skind("slack_bot_token", "`xoxb-` digits-digits-24")
def _g_slack_bot(ctx: str) -> Group:
    v = f"xoxb-{digits(R.choice([11, 12, 13]))}-{digits(13)}-{rs(24)}"
    return [sec("slack_bot_token", v, ["SLACK_BOT_TOKEN", "slack_token", "SLACK_TOKEN"], "Slack bot", header=BEARER,
                cli="curl -s -X POST https://slack.com/api/chat.postMessage -H 'Authorization: Bearer {v}' -d channel=C0" + rs(9, UPPER + DIGITS) + " -d text=hi")]  # fmt: skip


@skind("slack_user_token", "`xoxp-` 4 groups, last 32 hex")
def _g_slack_user(ctx: str) -> Group:
    v = f"xoxp-{digits(12)}-{digits(12)}-{digits(13)}-{hexs(32)}"
    return [sec("slack_user_token", v, ["SLACK_USER_TOKEN", "slack_user_token"], "Slack (user)", header=BEARER)]


@skind("slack_app_token", "`xapp-1-A...-<13 digits>-<64 hex>`")
def _g_slack_app(ctx: str) -> Group:
    v = f"xapp-1-A{rs(10, UPPER + DIGITS)}-{digits(13)}-{hexs(64)}"
    return [sec("slack_app_token", v, ["SLACK_APP_TOKEN", "socket_mode_token"], "Slack socket mode")]


@skind("slack_webhook_url", "whole `https://hooks.slack.com/services/T.../B.../...` URL")
def _g_slack_hook(ctx: str) -> Group:
    v = f"https://hooks.slack.com/services/T{rs(R.choice([8, 10]), UPPER + DIGITS)}/B{rs(R.choice([8, 10]), UPPER + DIGITS)}/{rs(24)}"
    return [sec("slack_webhook_url", v, ["SLACK_WEBHOOK_URL", "slack_webhook", "ALERT_WEBHOOK"], "Slack webhook",
                cli="curl -X POST -H 'Content-type: application/json' --data '{\"text\":\"deploy done\"}' {v}")]  # fmt: skip


@skind("discord_bot_token", "base64(user id) + `.` + 6 + `.` + 38")
def _g_discord_bot(ctx: str) -> Group:
    v = b64u(digits(18).encode()) + "." + rs(6, URLSAFE) + "." + rs(38, URLSAFE)
    return [
        sec(
            "discord_bot_token",
            v,
            ["DISCORD_TOKEN", "DISCORD_BOT_TOKEN", "bot_token"],
            "Discord bot",
            header=("Authorization", "Bot "),
        )
    ]


@skind("discord_webhook_url", "whole `https://discord.com/api/webhooks/<id>/<68>` URL")
def _g_discord_hook(ctx: str) -> Group:
    v = f"https://{pick(['discord.com', 'discordapp.com'])}/api/webhooks/{digits(19)}/{rs(68, URLSAFE)}"
    return [sec("discord_webhook_url", v, ["DISCORD_WEBHOOK_URL", "discord_webhook"], "Discord webhook")]


@skind("telegram_bot_token", "`<bot id>:AA` + 33 characters")
def _g_telegram(ctx: str) -> Group:
    v = f"{digits(R.choice([9, 10]))}:AA{rs(33, URLSAFE)}"
    return [sec("telegram_bot_token", v, ["TELEGRAM_BOT_TOKEN", "TG_TOKEN", "telegram_token"], "Telegram bot",
                cli="curl https://api.telegram.org/bot{v}/getUpdates")]  # fmt: skip


@skind("twilio_auth_token", "32 hex auth token (the `AC...` Account SID is a look-alike)")
def _g_twilio(ctx: str) -> Group:
    sid = look("account_identifier", "AC" + hexs(32), ["TWILIO_ACCOUNT_SID", "account_sid"], "Account SID")
    tok = sec("twilio_auth_token", hexs(32), ["TWILIO_AUTH_TOKEN", "twilio_token", "auth_token"], "Twilio")
    return [sid, tok] if chance(0.7) else [tok]


@skind("sendgrid_api_key", "`SG.` + 22 + `.` + 43")
def _g_sendgrid(ctx: str) -> Group:
    return [
        sec(
            "sendgrid_api_key",
            "SG." + rs(22, URLSAFE) + "." + rs(43, URLSAFE),
            ["SENDGRID_API_KEY", "EMAIL_API_KEY", "sendgrid_key"],
            "SendGrid",
            header=BEARER,
        )
    ]


@skind("mailgun_api_key", "`key-` + 32 hex, or `<32 hex>-<8 hex>-<8 hex>`")
def _g_mailgun(ctx: str) -> Group:
    v = "key-" + hexs(32) if chance(0.5) else f"{hexs(32)}-{hexs(8)}-{hexs(8)}"
    return [sec("mailgun_api_key", v, ["MAILGUN_API_KEY", "MG_API_KEY"], "Mailgun",
                cli="curl -s --user 'api:{v}' https://api.mailgun.net/v3/mg." + org() + ".com/messages -F to=ops@example.org -F text=test")]  # fmt: skip


@skind("mailchimp_api_key", "32 hex + `-us<N>`")
def _g_mailchimp(ctx: str) -> Group:
    return [
        sec("mailchimp_api_key", f"{hexs(32)}-us{R.randint(1, 21)}", ["MAILCHIMP_API_KEY", "MC_API_KEY"], "Mailchimp")
    ]


@skind("postmark_server_token", "UUID server token (only the name or `X-Postmark-Server-Token` tells)")
def _g_postmark(ctx: str) -> Group:
    return [
        sec(
            "postmark_server_token",
            uuid4(),
            ["POSTMARK_SERVER_TOKEN", "POSTMARK_API_TOKEN"],
            "Postmark",
            header=("X-Postmark-Server-Token", ""),
        )
    ]


@skind("brevo_api_key", "`xkeysib-` + 64 hex + `-` + 16")
def _g_brevo(ctx: str) -> Group:
    return [
        sec(
            "brevo_api_key",
            f"xkeysib-{hexs(64)}-{rs(16)}",
            ["BREVO_API_KEY", "SENDINBLUE_API_KEY"],
            "Brevo",
            header=("api-key", ""),
        )
    ]


@skind("msteams_webhook_url", "whole `*.webhook.office.com/webhookb2/...` URL")
def _g_teams(ctx: str) -> Group:
    v = f"https://{org()}.webhook.office.com/webhookb2/{uuid4()}@{uuid4()}/IncomingWebhook/{hexs(32)}/{uuid4()}"
    return [sec("msteams_webhook_url", v, ["TEAMS_WEBHOOK_URL", "teams_webhook"], "Teams webhook")]


# ---- AI / ML -----------------------------------------------------------------------------


@skind("openai_api_key", "`sk-proj-` / `sk-svcacct-` ... `T3BlbkFJ` ..., legacy `sk-` 20 + `T3BlbkFJ` + 20")
def _g_openai(ctx: str) -> Group:
    v = pick([
        "sk-proj-" + rs(74, URLSAFE) + "T3BlbkFJ" + rs(74, URLSAFE),
        "sk-svcacct-" + rs(74, URLSAFE) + "T3BlbkFJ" + rs(74, URLSAFE),
        "sk-" + rs(20) + "T3BlbkFJ" + rs(20),
    ])  # fmt: skip
    return [sec("openai_api_key", v, ["OPENAI_API_KEY", "openai_key", "OPENAI_KEY"], "OpenAI", header=BEARER,
                cli=bearer_cli("https://api.openai.com/v1/models"))]  # fmt: skip


@skind("anthropic_api_key", "`sk-ant-api03-` + 93 + `AA`")
def _g_anthropic(ctx: str) -> Group:
    return [sec("anthropic_api_key", "sk-ant-api03-" + rs(93, URLSAFE) + "AA", ["ANTHROPIC_API_KEY", "anthropic_key", "CLAUDE_API_KEY"], "Anthropic",
                header=("x-api-key", ""))]  # fmt: skip


@skind("huggingface_token", "`hf_` + 34 letters")
def _g_hf(ctx: str) -> Group:
    return [sec("huggingface_token", "hf_" + rs(34, LETTERS), ["HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "hf_token"], "Hugging Face",
                header=BEARER, cli="huggingface-cli login --token {v}")]  # fmt: skip


@skind("replicate_api_token", "`r8_` + 37 alphanumerics")
def _g_replicate(ctx: str) -> Group:
    return [sec("replicate_api_token", "r8_" + rs(37), ["REPLICATE_API_TOKEN"], "Replicate", header=BEARER)]


@skind("groq_api_key", "`gsk_` + 52 alphanumerics")
def _g_groq(ctx: str) -> Group:
    return [sec("groq_api_key", "gsk_" + rs(52), ["GROQ_API_KEY"], "Groq", header=BEARER)]


@skind("cohere_api_key", "40 alphanumerics (name only)")
def _g_cohere(ctx: str) -> Group:
    return [sec("cohere_api_key", rs(40), ["COHERE_API_KEY", "CO_API_KEY"], "Cohere", header=BEARER)]


@skind("mistral_api_key", "32 alphanumerics (name only)")
def _g_mistral(ctx: str) -> Group:
    return [sec("mistral_api_key", rs(32), ["MISTRAL_API_KEY"], "Mistral", header=BEARER)]


@skind("perplexity_api_key", "`pplx-` + 48 alphanumerics")
def _g_pplx(ctx: str) -> Group:
    return [
        sec("perplexity_api_key", "pplx-" + rs(48), ["PERPLEXITY_API_KEY", "PPLX_API_KEY"], "Perplexity", header=BEARER)
    ]


@skind("xai_api_key", "`xai-` + 80 alphanumerics")
def _g_xai(ctx: str) -> Group:
    return [sec("xai_api_key", "xai-" + rs(80), ["XAI_API_KEY", "GROK_API_KEY"], "xAI", header=BEARER)]


@skind("elevenlabs_api_key", "`sk_` + 48 hex")
def _g_eleven(ctx: str) -> Group:
    return [
        sec(
            "elevenlabs_api_key",
            "sk_" + hexs(48),
            ["ELEVENLABS_API_KEY", "XI_API_KEY"],
            "ElevenLabs",
            header=("xi-api-key", ""),
        )
    ]


@skind("langsmith_api_key", "`lsv2_pt_` / `lsv2_sk_` + 32 hex + `_` + 10 hex")
def _g_langsmith(ctx: str) -> Group:
    v = pick(["lsv2_pt_", "lsv2_sk_"]) + hexs(32) + "_" + hexs(10)
    return [
        sec("langsmith_api_key", v, ["LANGSMITH_API_KEY", "LANGCHAIN_API_KEY"], "LangSmith", header=("x-api-key", ""))
    ]


@skind("pinecone_api_key", "`pcsk_` + 6 + `_` + 63 (base58)")
def _g_pinecone(ctx: str) -> Group:
    return [
        sec(
            "pinecone_api_key",
            "pcsk_" + rs(6, B58) + "_" + rs(63, B58),
            ["PINECONE_API_KEY"],
            "Pinecone",
            header=("Api-Key", ""),
        )
    ]


# ---- observability -------------------------------------------------------------------------


@skind("datadog_api_key", "32 hex (name or `DD-API-KEY`)")
def _g_dd_api(ctx: str) -> Group:
    return [sec("datadog_api_key", hexs(32), ["DD_API_KEY", "DATADOG_API_KEY", "datadog_api_key"], "Datadog", header=("DD-API-KEY", ""),
                cli='DD_API_KEY={v} DD_SITE="datadoghq.eu" bash -c "$(curl -L https://install.datadoghq.com/scripts/install_script_agent7.sh)"')]  # fmt: skip


@skind("datadog_app_key", "40 hex (name or `DD-APPLICATION-KEY`)")
def _g_dd_app(ctx: str) -> Group:
    return [
        sec(
            "datadog_app_key",
            hexs(40),
            ["DD_APP_KEY", "DATADOG_APP_KEY"],
            "Datadog app key",
            header=("DD-APPLICATION-KEY", ""),
        )
    ]


@skind("newrelic_license_key", "36 hex + `NRAL`")
def _g_nr_license(ctx: str) -> Group:
    return [
        sec(
            "newrelic_license_key",
            hexs(36) + "NRAL",
            ["NEW_RELIC_LICENSE_KEY", "NRIA_LICENSE_KEY", "license_key"],
            "New Relic",
        )
    ]


@skind("newrelic_user_api_key", "`NRAK-` + 27")
def _g_nr_user(ctx: str) -> Group:
    return [
        sec(
            "newrelic_user_api_key",
            "NRAK-" + rs(27, UPPER + DIGITS),
            ["NEW_RELIC_API_KEY", "NEWRELIC_USER_KEY"],
            "New Relic",
            header=("Api-Key", ""),
        )
    ]


@skind("sentry_auth_token", "`sntrys_` + base64 JSON + `_` + 43, or `sntryu_` + 64 hex")
def _g_sentry(ctx: str) -> Group:
    if chance(0.5):
        claims = {
            "iat": R.randint(1_700_000_000, 1_790_000_000),
            "url": "https://sentry.io",
            "region_url": "https://de.sentry.io",
            "org": org(),
        }
        v = "sntrys_" + b64(json.dumps(claims, separators=(",", ":")).encode()).rstrip("=") + "_" + rs(43, URLSAFE)
    else:
        v = "sntryu_" + hexs(64)
    return [
        sec(
            "sentry_auth_token",
            v,
            ["SENTRY_AUTH_TOKEN"],
            "Sentry",
            header=BEARER,
            cli="sentry-cli --auth-token {v} releases new $VERSION",
        )
    ]


@skind("grafana_service_account_token", "`glsa_` + 32 + `_` + 8 hex")
def _g_grafana(ctx: str) -> Group:
    return [
        sec(
            "grafana_service_account_token",
            "glsa_" + rs(32) + "_" + hexs(8),
            ["GRAFANA_TOKEN", "GRAFANA_SA_TOKEN", "grafana_api_key"],
            "Grafana",
            header=BEARER,
        )
    ]


@skind("dynatrace_token", "`dt0c01.` + 24 + `.` + 64")
def _g_dynatrace(ctx: str) -> Group:
    v = "dt0c01." + rs(24, UPPER + DIGITS) + "." + rs(64, UPPER + DIGITS)
    return [
        sec(
            "dynatrace_token",
            v,
            ["DT_API_TOKEN", "DYNATRACE_TOKEN"],
            "Dynatrace",
            header=("Authorization", "Api-Token "),
        )
    ]


@skind("splunk_hec_token", "UUID after `Splunk ` / under a HEC name")
def _g_splunk(ctx: str) -> Group:
    return [
        sec(
            "splunk_hec_token",
            uuid4(),
            ["SPLUNK_HEC_TOKEN", "hec_token"],
            "Splunk HEC",
            header=("Authorization", "Splunk "),
        )
    ]


# ---- identity ------------------------------------------------------------------------------


@skind("okta_api_token", "`00` + 40 characters (`SSWS`)")
def _g_okta(ctx: str) -> Group:
    return [
        sec(
            "okta_api_token",
            "00" + rs(40, URLSAFE),
            ["OKTA_API_TOKEN", "OKTA_CLIENT_TOKEN"],
            "Okta",
            header=("Authorization", "SSWS "),
        )
    ]


@skind("oauth_client_secret", "Google `GOCSPX-`, GitHub 40 hex, Auth0 64, Keycloak 32 (client ids are look-alikes)")
def _g_oauth_secret(ctx: str) -> Group:
    flavour = pick(["google", "github", "auth0", "keycloak"])
    if flavour == "google":
        cid = f"{digits(12)}-{rs(32, LOWER + DIGITS)}.apps.googleusercontent.com"
        v, svc = "GOCSPX-" + rs(28, URLSAFE), "Google OAuth"
    elif flavour == "github":
        cid, v, svc = pick(["Iv1." + hexs(16), "Ov23li" + rs(14)]), hexs(40), "GitHub OAuth app"
    elif flavour == "auth0":
        cid, v, svc = rs(32), rs(64, URLSAFE), "Auth0"
    else:
        cid, v, svc = pick(PROJECTS) + "-backend", rs(32), "Keycloak"
    c = look("oauth_client_id", cid, ["OAUTH_CLIENT_ID", "client_id", "CLIENT_ID"], "client id")
    s = sec("oauth_client_secret", v, ["OAUTH_CLIENT_SECRET", "client_secret", "CLIENT_SECRET"], svc)
    return [c, s] if chance(0.75) else [s]


@skind("onepassword_service_token", "`ops_` + base64url JSON service-account token")
def _g_op(ctx: str) -> Group:
    claims = {"signInAddress": f"{org()}.1password.com", "userAuth": {"method": "SRPg-4096", "alg": "PBES2g-HS256", "iterations": 650000,
              "salt": b64u(rb(16))}, "email": f"{rs(13, LOWER)}@1passwordserviceaccounts.com", "srpX": hexs(64),
              "muk": {"alg": "A256GCM", "ext": True, "k": b64u(rb(32)), "key_ops": ["encrypt", "decrypt"], "kty": "oct", "kid": "mp"}}  # fmt: skip
    v = "ops_" + b64u(json.dumps(claims, separators=(",", ":")).encode())
    return [sec("onepassword_service_token", v, ["OP_SERVICE_ACCOUNT_TOKEN"], "1Password service account")]


# ---- SaaS ------------------------------------------------------------------------------------


@skind("atlassian_api_token", "`ATATT3xFfGF0` + 170 + `=` + 8 hex")
def _g_atlassian(ctx: str) -> Group:
    v = "ATATT3xFfGF0" + rs(170, URLSAFE) + "=" + hexs(8).upper()
    return [sec("atlassian_api_token", v, ["JIRA_API_TOKEN", "ATLASSIAN_API_TOKEN", "CONFLUENCE_TOKEN"], "Jira",
                cli=f"curl -u {rs(6, LOWER)}@{org()}.com:{{v}} https://{org()}.atlassian.net/rest/api/3/myself")]  # fmt: skip


@skind("linear_api_key", "`lin_api_` + 40 alphanumerics")
def _g_linear(ctx: str) -> Group:
    return [sec("linear_api_key", "lin_api_" + rs(40), ["LINEAR_API_KEY"], "Linear", header=("Authorization", ""))]


@skind("notion_token", "`ntn_` + 11 digits + 35, or legacy `secret_` + 43")
def _g_notion(ctx: str) -> Group:
    v = "ntn_" + digits(11) + rs(35) if chance(0.6) else "secret_" + rs(43)
    return [sec("notion_token", v, ["NOTION_TOKEN", "NOTION_API_KEY", "notion_secret"], "Notion", header=BEARER)]


@skind("airtable_pat", "`pat` + 14 + `.` + 64 hex")
def _g_airtable(ctx: str) -> Group:
    return [
        sec(
            "airtable_pat",
            "pat" + rs(14) + "." + hexs(64),
            ["AIRTABLE_TOKEN", "AIRTABLE_API_KEY"],
            "Airtable",
            header=BEARER,
        )
    ]


@skind("figma_pat", "`figd_` + 40 characters")
def _g_figma(ctx: str) -> Group:
    return [
        sec(
            "figma_pat",
            "figd_" + rs(40, URLSAFE),
            ["FIGMA_TOKEN", "FIGMA_ACCESS_TOKEN"],
            "Figma",
            header=("X-Figma-Token", ""),
        )
    ]


@skind("hubspot_private_app_token", "`pat-na1-` / `pat-eu1-` + UUID")
def _g_hubspot(ctx: str) -> Group:
    return [
        sec(
            "hubspot_private_app_token",
            pick(["pat-na1-", "pat-eu1-"]) + uuid4(),
            ["HUBSPOT_ACCESS_TOKEN", "HUBSPOT_TOKEN"],
            "HubSpot",
            header=BEARER,
        )
    ]


@skind("postman_api_key", "`PMAK-` + 24 hex + `-` + 34 hex")
def _g_postman(ctx: str) -> Group:
    return [
        sec("postman_api_key", f"PMAK-{hexs(24)}-{hexs(34)}", ["POSTMAN_API_KEY"], "Postman", header=("X-Api-Key", ""))
    ]


@skind("mapbox_secret_token", "`sk.` + base64url JSON + `.` + 22")
def _g_mapbox_sk(ctx: str) -> Group:
    body = b64u(json.dumps({"u": rs(8, LOWER), "a": rs(25, LOWER + DIGITS)}, separators=(",", ":")).encode())
    return [
        sec(
            "mapbox_secret_token",
            f"sk.{body}.{rs(22, URLSAFE)}",
            ["MAPBOX_SECRET_TOKEN", "MAPBOX_DOWNLOADS_TOKEN"],
            "Mapbox (secret)",
        )
    ]


@skind("algolia_admin_key", "32 hex admin key (the app id is a look-alike)")
def _g_algolia(ctx: str) -> Group:
    app = look("account_identifier", rs(10, UPPER + DIGITS), ["ALGOLIA_APP_ID", "algolia_app_id"], "Algolia app id")
    key = sec(
        "algolia_admin_key",
        hexs(32),
        ["ALGOLIA_ADMIN_KEY", "ALGOLIA_WRITE_KEY"],
        "Algolia admin",
        header=("X-Algolia-API-Key", ""),
    )
    return [app, key] if chance(0.6) else [key]


# ---- databases and other passwords in URLs -------------------------------------------------


def _db(kind: str, svc: str, forms: list[tuple[str, str | None, list[str]]], pw: str) -> Group:
    tpl, cli, names = pick(forms)
    enc = url_quote(pw) if "://" in tpl or "@tcp(" in tpl else pw
    return [sec(kind, enc, names, svc, tpl=tpl, cli=cli)]


@skind(
    "postgres_password",
    "password in `postgres://` URLs, libpq / JDBC / Npgsql strings, `PGPASSWORD`, `.pgpass`, `ALTER ROLE`",
)
def _g_pg(ctx: str) -> Group:
    u, h, db = pick(DB_USERS), host("pg"), pick(PROJECTS).replace("-", "_")
    forms = [
        (f"postgres://{u}:{{v}}@{h}:5432/{db}?sslmode=require", f'psql "postgres://{u}:{{v}}@{h}:5432/{db}"', ["DATABASE_URL", "POSTGRES_URL", "db_url"]),
        (f"postgresql+psycopg://{u}:{{v}}@{h}/{db}", None, ["SQLALCHEMY_DATABASE_URI", "DB_DSN"]),
        (f"host={h} port=5432 dbname={db} user={u} password={{v}} sslmode=verify-full", None, ["PG_CONN", "libpq_dsn"]),
        (f"jdbc:postgresql://{h}:5432/{db}?user={u}&password={{v}}", None, ["JDBC_URL", "spring.datasource.url"]),
        (f"Host={h};Database={db};Username={u};Password={{v}};SSL Mode=Require", None, ["ConnectionStrings__Default", "PgConnection"]),
        ("{v}", f"PGPASSWORD={{v}} psql -h {h} -U {u} -d {db}", ["PGPASSWORD", "POSTGRES_PASSWORD", "DB_PASSWORD"]),
        (f"{h}:5432:{db}:{u}:{{v}}", None, ["pgpass_line"]),
        (f"ALTER ROLE {u} WITH LOGIN PASSWORD '{{v}}';", None, ["rotate_sql"]),
    ]  # fmt: skip
    return _db("postgres_password", "Postgres", forms, password())


@skind("mysql_password", "password in `mysql://` URLs, Go DSN, JDBC, `-p'...'`, `my.cnf`, `CREATE USER`")
def _g_mysql(ctx: str) -> Group:
    u, h, db = pick(DB_USERS), host("mysql"), pick(PROJECTS).replace("-", "_")
    forms = [
        (f"mysql://{u}:{{v}}@{h}:3306/{db}", None, ["DATABASE_URL", "MYSQL_URL"]),
        (f"{u}:{{v}}@tcp({h}:3306)/{db}?parseTime=true", None, ["MYSQL_DSN", "dsn"]),
        (f"jdbc:mysql://{h}:3306/{db}?user={u}&password={{v}}&useSSL=true", None, ["JDBC_URL"]),
        ("{v}", f"mysql -h {h} -u {u} -p'{{v}}' {db}", ["MYSQL_PASSWORD", "MYSQL_ROOT_PASSWORD", "DB_PASS"]),
        (f"CREATE USER '{u}'@'%' IDENTIFIED BY '{{v}}';", None, ["grant_sql"]),
        (f"mysql+pymysql://{u}:{{v}}@{h}/{db}?charset=utf8mb4", None, ["SQLALCHEMY_URL"]),
    ]  # fmt: skip
    return _db("mysql_password", "MySQL", forms, password())


@skind("mongodb_password", "password in `mongodb://` / `mongodb+srv://` URIs, `mongosh --password`")
def _g_mongo(ctx: str) -> Group:
    u, db = pick(DB_USERS), pick(PROJECTS).replace("-", "")
    cl = f"cluster{R.randint(0, 3)}.{rs(5, LOWER + DIGITS)}.mongodb.net"
    forms = [
        (f"mongodb+srv://{u}:{{v}}@{cl}/{db}?retryWrites=true&w=majority", f'mongosh "mongodb+srv://{u}:{{v}}@{cl}/{db}"', ["MONGODB_URI", "MONGO_URL"]),
        (f"mongodb://{u}:{{v}}@{host('mongo')}:27017/{db}?authSource=admin", None, ["MONGO_URI", "mongo_dsn"]),
        ("{v}", f"mongosh --host {host('mongo')} -u {u} --password '{{v}}' --authenticationDatabase admin", ["MONGO_INITDB_ROOT_PASSWORD", "MONGO_PASSWORD"]),
    ]  # fmt: skip
    return _db("mongodb_password", "MongoDB", forms, password())


@skind(
    "redis_password", "password in `redis://` / `rediss://` URLs, StackExchange syntax, `redis-cli -a`, `requirepass`"
)
def _g_redis(ctx: str) -> Group:
    h = host("cache")
    forms = [
        (f"redis://:{{v}}@{h}:6379/0", None, ["REDIS_URL", "CACHE_URL"]),
        (f"rediss://default:{{v}}@{h}:6380", None, ["REDIS_TLS_URL", "BROKER_URL"]),
        (f"{h}:6380,password={{v}},ssl=True,abortConnect=False", None, ["Redis__Configuration", "RedisConnection"]),
        ("{v}", f"redis-cli -h {h} -p 6379 -a '{{v}}' --no-auth-warning ping", ["REDIS_PASSWORD"]),
        ("requirepass {v}", None, ["redis_conf"]),
    ]  # fmt: skip
    return _db("redis_password", "Redis", forms, random_pw(16, 40) if chance(0.7) else human_pw())


@skind("mssql_password", "password in ADO.NET / ODBC strings, `mssql+pyodbc://`, `sqlcmd -P`")
def _g_mssql(ctx: str) -> Group:
    h, db, u = (
        f"{org()}-sql.database.windows.net",
        pick(PROJECTS).replace("-", ""),
        pick(["sa", "app_user", "reporting"]),
    )
    forms = [
        (f"Server=tcp:{h},1433;Initial Catalog={db};User ID={u};Password={{v}};Encrypt=True;TrustServerCertificate=False;", None, ["ConnectionStrings__Sql", "SQL_CONN"]),
        (f"Driver={{ODBC Driver 18 for SQL Server}};Server={h};Database={db};Uid={u};Pwd={{v}};", None, ["ODBC_CONN"]),
        (f"mssql+pyodbc://{u}:{{v}}@{h}/{db}?driver=ODBC+Driver+18+for+SQL+Server", None, ["DATABASE_URL"]),
        ("{v}", f"sqlcmd -S {h} -U {u} -P '{{v}}' -d {db} -Q 'SELECT 1'", ["MSSQL_SA_PASSWORD", "SA_PASSWORD"]),
    ]  # fmt: skip
    return _db("mssql_password", "SQL Server", forms, random_pw(16, 24) if chance(0.6) else human_pw())


@skind("amqp_password", "password in `amqp://` / `amqps://` URLs, `RABBITMQ_DEFAULT_PASS`")
def _g_amqp(ctx: str) -> Group:
    u, h = pick(["guest_ops", "worker", "celery", "events"]), host("mq")
    forms = [
        (f"amqps://{u}:{{v}}@{h}:5671/{pick(['prod', '%2F', 'jobs'])}", None, ["AMQP_URL", "CELERY_BROKER_URL", "RABBITMQ_URL"]),
        ("{v}", None, ["RABBITMQ_DEFAULT_PASS", "RABBIT_PASSWORD"]),
    ]  # fmt: skip
    return _db("amqp_password", "RabbitMQ", forms, password())


@skind("smtp_password", "SMTP passwords: `smtp://` URLs, `EMAIL_HOST_PASSWORD`, `swaks --auth-password`")
def _g_smtp(ctx: str) -> Group:
    u = f"{pick(['noreply', 'alerts', 'postmaster', 'billing'])}@{org()}.com"
    h = pick(["smtp.office365.com", "smtp.gmail.com", f"mail.{org()}.com", "email-smtp.eu-west-1.amazonaws.com"])
    pw = password() if chance(0.6) else rs(4, LOWER) + " " + rs(4, LOWER) + " " + rs(4, LOWER) + " " + rs(4, LOWER)
    forms = [
        (f"smtp://{url_quote(u)}:{{v}}@{h}:587", None, ["SMTP_URL", "MAILER_DSN", "EMAIL_URL"]),
        ("{v}", f"swaks --to ops@{org()}.com --server {h}:587 -tls --auth-user {u} --auth-password '{{v}}'", ["EMAIL_HOST_PASSWORD", "SMTP_PASSWORD", "MAIL_PASSWORD"]),
    ]  # fmt: skip
    tpl, cli, names = pick(forms)
    enc = url_quote(pw) if "://" in tpl else pw
    return [sec("smtp_password", enc, names, "SMTP", tpl=tpl, cli=cli)]


@skind("url_credential_password", "password in `https://user:pass@`, `ftp://`, proxy URLs and `.netrc` lines")
def _g_urlpw(ctx: str) -> Group:
    u, pw = pick([*DB_USERS, "ci", "jenkins", "builder"]), password()
    forms = [
        (f"https://{u}:{{v}}@git.{org()}.io/{pick(PROJECTS)}.git", None, ["GIT_REMOTE", "REPO_URL"]),
        (f"ftp://{u}:{{v}}@ftp.{org()}.com/incoming/", None, ["FTP_URL"]),
        (f"http://{u}:{{v}}@proxy.{org()}.internal:3128", None, ["HTTPS_PROXY", "http_proxy"]),
        (f"https://{u}:{{v}}@nexus.{org()}.io/repository/pypi-internal/simple", f"pip install --index-url https://{u}:{{v}}@nexus.{org()}.io/repository/pypi/simple {pick(PROJECTS)}", ["PIP_INDEX_URL"]),
        (f"machine nexus.{org()}.io login {u} password {{v}}", None, ["netrc"]),
    ]  # fmt: skip
    tpl, cli, names = pick(forms)
    enc = url_quote(pw) if "://" in tpl else pw
    return [sec("url_credential_password", enc, names, "the internal mirror", tpl=tpl, cli=cli)]


# ---- private keys ------------------------------------------------------------------------------


@skind("rsa_private_key", "real 2048-bit RSA key, PKCS #1 or PKCS #8 PEM")
def _g_rsa(ctx: str) -> Group:
    return [
        sec(
            "rsa_private_key",
            rsa_private_pem(chance(0.5)),
            ["TLS_KEY", "PRIVATE_KEY", "JWT_PRIVATE_KEY", "server.key"],
            "the TLS key",
        )
    ]


@skind("ec_private_key", "real P-256 key, SEC 1 or PKCS #8 PEM")
def _g_ec(ctx: str) -> Group:
    d, pub = ec_keypair()
    return [
        sec(
            "ec_private_key",
            ec_private_pem(d, pub, chance(0.5)),
            ["SIGNING_KEY", "APNS_KEY", "EC_PRIVATE_KEY", "tls.key"],
            "the signing key",
        )
    ]


@skind("ed25519_private_key", "PKCS #8 Ed25519 PEM")
def _g_ed(ctx: str) -> Group:
    return [
        sec(
            "ed25519_private_key",
            ed25519_private_pem(rb(32)),
            ["ED25519_KEY", "LICENSE_SIGNING_KEY", "PRIVATE_KEY"],
            "the Ed25519 key",
        )
    ]


@skind("openssh_private_key", "`openssh-key-v1` Ed25519 key embedding its public key")
def _g_openssh(ctx: str) -> Group:
    seed = rb(32)
    pub = ed25519_public(seed)
    comment = f"{pick(DB_USERS)}@{pick(PROJECTS)}"
    key = sec(
        "openssh_private_key",
        openssh_private(seed, pub, comment),
        ["SSH_PRIVATE_KEY", "DEPLOY_KEY", "id_ed25519"],
        "the deploy key",
    )
    if chance(0.4):
        return [
            key,
            look(
                "ssh_public_key",
                "ssh-ed25519 " + b64(ssh_ed25519_blob(pub)) + " " + comment,
                ["SSH_PUBLIC_KEY", "id_ed25519.pub"],
                "public key",
            ),
        ]
    return [key]


@skind(
    "kube_client_key_data",
    "base64 of a P-256 PEM key as kubeconfig `client-key-data` (certificate data is a look-alike)",
)
def _g_kube(ctx: str) -> Group:
    d, pub = ec_keypair()
    key_b64 = b64((ec_private_pem(d, pub, False) + "\n").encode())
    cert_b64 = b64((pem("CERTIFICATE", self_signed_cert(f"system:{pick(DB_USERS)}", d, pub)) + "\n").encode())
    cluster = f"{pick(['prod', 'staging', 'k3s', 'gke'])}-{org()}"
    block = (f"apiVersion: v1\nkind: Config\nclusters:\n- name: {cluster}\n  cluster:\n    server: https://{host('k8s')}:6443\n"
             f"users:\n- name: admin\n  user:\n    client-certificate-data: {L('certificate', cert_b64)}\n    client-key-data: {{v}}\n"
             f"contexts:\n- name: {cluster}\n  context: {{cluster: {cluster}, user: admin}}\ncurrent-context: {cluster}")  # fmt: skip
    return [
        sec("kube_client_key_data", key_b64, ["client-key-data", "KUBE_CLIENT_KEY_DATA"], "the kubeconfig", block=block)
    ]


@skind("wireguard_private_key", "base64 X25519 private key (`PrivateKey =`; the derived public key is a look-alike)")
def _g_wg(ctx: str) -> Group:
    k = clamp25519(rb(32))
    priv = sec("wireguard_private_key", b64(k), ["WG_PRIVATE_KEY", "PrivateKey", "wg_private_key"], "WireGuard")
    pub = look("wireguard_public_key", b64(x25519_public(k)), ["PublicKey", "WG_PUBLIC_KEY"], "WireGuard public key")
    return [priv, pub] if chance(0.6) else [priv]


@skind("age_secret_key", "`AGE-SECRET-KEY-1` + bech32 (real X25519 key; the `age1...` recipient is a look-alike)")
def _g_age(ctx: str) -> Group:
    k = rb(32)
    priv = sec(
        "age_secret_key",
        bech32_encode("age-secret-key-", convertbits(k, 8, 5)).upper(),
        ["SOPS_AGE_KEY", "AGE_KEY", "age_identity"],
        "age",
    )
    pub = look(
        "age_recipient",
        bech32_encode("age", convertbits(x25519_public(k), 8, 5)),
        ["AGE_RECIPIENT", "recipient"],
        "age recipient",
    )
    return [pub, priv] if chance(0.5) else [priv]


# ---- tokens, cookies and generic secrets ------------------------------------------------------


@skind("jwt", "HS256 (real HMAC) and ES256 (real ECDSA) JWTs: service-role keys, long-lived API tokens")
def _g_jwt(ctx: str) -> Group:
    now = R.randint(1_700_000_000, 1_790_000_000)
    payload: dict[str, object] = pick([
        {"iss": "supabase", "ref": rs(20, LOWER), "role": "service_role", "iat": now, "exp": now + 315_360_000},
        {"sub": uuid4(), "scope": "admin:all", "iat": now, "exp": now + 31_536_000},
        {"sub": f"svc-{pick(PROJECTS)}", "aud": f"https://api.{org()}.com", "iat": now},
        {"user_id": R.randint(1000, 99999), "is_staff": True, "iat": now, "exp": now + 2_592_000},
    ])  # fmt: skip
    v = jwt_hs256(payload, rb(32)) if chance(0.65) else jwt_es256(payload, rs(10, LOWER + DIGITS))
    return [
        sec(
            "jwt",
            v,
            ["SUPABASE_SERVICE_ROLE_KEY", "API_JWT", "ACCESS_TOKEN", "SERVICE_TOKEN", "jwt"],
            "the service token",
            header=BEARER,
        )
    ]


@skind("http_basic_auth", "base64(`user:password`) after `Basic `")
def _g_basic(ctx: str) -> Group:
    v = b64(f"{pick([*DB_USERS, 'admin', 'ops', 'api'])}:{password()}".encode())
    return [
        sec(
            "http_basic_auth",
            v,
            ["AUTH_HEADER", "BASIC_AUTH", "basic_auth_header"],
            "basic auth",
            tpl="Basic {v}",
            header=("Authorization", "Basic "),
        )
    ]


@skind("bearer_token", "opaque token after `Bearer ` or in an access-token variable")
def _g_bearer(ctx: str) -> Group:
    v = pick([rs(R.randint(32, 64), URLSAFE), "at_" + rs(40), hexs(64), b64(rb(36))])
    return [sec("bearer_token", v, ["ACCESS_TOKEN", "API_TOKEN", "PARTNER_TOKEN", "auth_token"], "the partner API", header=BEARER,
                cli=bearer_cli(f"https://api.{org()}.com/v2/{pick(['orders', 'invoices', 'users/me', 'reports'])}"))]  # fmt: skip


@skind(
    "session_cookie",
    "cookie values (`sessionid`, `connect.sid`, Rails, `PHPSESSID`, `laravel_session`); only the value",
)
def _g_cookie(ctx: str) -> Group:
    name, v = pick([
        ("sessionid", rs(32, LOWER + DIGITS)),
        ("connect.sid", "s%3A" + rs(32, URLSAFE) + "." + b64(rb(32)).rstrip("=").replace("+", "%2B").replace("/", "%2F")),
        (f"_{pick(PROJECTS).replace('-', '_')}_session", b64(rb(90)).replace("=", "%3D") + "--" + hexs(40)),
        ("PHPSESSID", rs(26, LOWER + DIGITS)),
        ("laravel_session", b64(json.dumps({"iv": b64(rb(16)), "value": b64(rb(48)), "mac": hexs(64)}).encode()).replace("=", "%3D")),
    ])  # fmt: skip
    return [
        sec(
            "session_cookie",
            v,
            ["SESSION_COOKIE", "COOKIE", "cookie"],
            "my session",
            tpl=f"{name}={{v}}",
            header=("Cookie", f"{name}="),
        )
    ]


@skind("app_secret_key", "Django `SECRET_KEY`, Rails `secret_key_base`, Flask / NextAuth / session secrets")
def _g_appsecret(ctx: str) -> Group:
    v, names = pick([
        (rs(50, LOWER + DIGITS + "!@#%^&*(-_=+)"), ["SECRET_KEY", "DJANGO_SECRET_KEY"]),
        (hexs(128), ["SECRET_KEY_BASE", "secret_key_base"]),
        (b64(rb(32)), ["NEXTAUTH_SECRET", "AUTH_SECRET"]),
        (hexs(48), ["FLASK_SECRET_KEY", "SESSION_SECRET", "COOKIE_SECRET"]),
    ])  # fmt: skip
    return [sec("app_secret_key", v, names, "the app secret")]


@skind(
    "generic_password", "human and random passwords under many names (admin, LDAP, Wi-Fi, keystore, VPN, `sshpass -p`)"
)
def _g_password(ctx: str) -> Group:
    pw = password()
    names = ["ADMIN_PASSWORD", "LDAP_BIND_PASSWORD", "KEYSTORE_PASSWORD", "wifi_password", "VPN_PASSWORD", "grafana_admin_password",
             "NAS_PASSWORD", "ROUTER_ADMIN_PASS", "JENKINS_ADMIN_PASSWORD", "pfx_password", "SFTP_PASSWORD"]  # fmt: skip
    cli = pick([f"sshpass -p '{{v}}' ssh {pick(DB_USERS)}@{host('bastion')}",
                "keytool -importkeystore -srckeystore old.jks -destkeystore new.p12 -deststoretype PKCS12 -srcstorepass '{v}'",
                f"ldapsearch -x -H ldaps://ldap.{org()}.com -D 'cn=admin,dc={org()},dc=com' -w '{{v}}' -b 'dc={org()},dc=com'", None])  # fmt: skip
    return [
        sec(
            "generic_password",
            pw,
            names,
            pick(["the admin login", "the NAS", "the office Wi-Fi", "the VPN", "LDAP"]),
            cli=cli,
        )
    ]


@skind("generic_api_key", "32-64 character keys for in-house or unnamed services (names, `X-Api-Key`)")
def _g_apikey(ctx: str) -> Group:
    v = pick([rs(R.randint(32, 64)), hexs(40), f"{org()}_live_{rs(32)}", b64u(rb(32)), f"ak_{rs(8, LOWER)}_{rs(32)}"])
    return [sec("generic_api_key", v, ["API_KEY", "INTERNAL_API_KEY", "PARTNER_API_KEY", "x_api_key", "apiKey", "SEARCH_ADMIN_KEY"],
                pick(["the partner API", "the internal API", "the vendor portal"]), header=("X-Api-Key", ""))]  # fmt: skip


@skind(
    "encryption_key", "32-byte keys as hex / base64, Laravel `base64:`, Fernet, Rails `master.key`, Vault unseal keys"
)
def _g_enckey(ctx: str) -> Group:
    form = pick(["hex", "b64", "laravel", "fernet", "master", "unseal"])
    if form == "laravel":
        return [sec("encryption_key", b64(rb(32)), ["APP_KEY"], "Laravel", tpl="base64:{v}")]
    v, names = {
        "hex": (hexs(64), ["ENCRYPTION_KEY", "AES_KEY", "DATA_KEY"]),
        "b64": (b64(rb(32)), ["ENCRYPTION_KEY", "FIELD_ENCRYPTION_KEY", "MASTER_KEY"]),
        "fernet": (base64.urlsafe_b64encode(rb(32)).decode(), ["FERNET_KEY", "AIRFLOW__CORE__FERNET_KEY"]),
        "master": (hexs(32), ["RAILS_MASTER_KEY", "master.key"]),
        "unseal": (b64(rb(33)), ["VAULT_UNSEAL_KEY_1", "unseal_key"]),
    }[form]
    return [sec("encryption_key", v, names, "the encryption key")]


@skind("totp_seed", "base32 TOTP seed, bare or in an `otpauth://` URI")
def _g_totp(ctx: str) -> Group:
    seed = rs(pick([16, 26, 32]), B32)
    issuer = pick(["GitHub", "AWS", "Okta", org().capitalize(), "Cloudflare", "npm"])
    if chance(0.5):
        tpl = f"otpauth://totp/{issuer}:{pick(DB_USERS)}%40{org()}.com?secret={{v}}&issuer={issuer}&digits=6"
        return [sec("totp_seed", seed, ["OTP_URI", "totp_uri"], f"{issuer} 2FA", tpl=tpl)]
    return [sec("totp_seed", seed, ["TOTP_SECRET", "MFA_SEED", "otp_secret"], f"{issuer} 2FA",
                cli="oathtool --totp -b {v}")]  # fmt: skip


@skind(
    "webhook_signing_secret",
    "webhook signing secrets: Svix / Clerk `whsec_` + base64, GitHub / GitLab / Shopify hex secrets",
)
def _g_webhook(ctx: str) -> Group:
    v, names, svc = pick([
        ("whsec_" + b64(rb(24)), ["SVIX_WEBHOOK_SECRET", "CLERK_WEBHOOK_SECRET"], "Clerk webhook"),
        (hexs(40), ["GITHUB_WEBHOOK_SECRET", "WEBHOOK_SECRET"], "GitHub webhook"),
        (rs(32, URLSAFE), ["GITLAB_WEBHOOK_TOKEN", "X_GITLAB_TOKEN"], "GitLab webhook"),
        (hexs(64), ["SHOPIFY_WEBHOOK_SECRET", "HMAC_SECRET"], "Shopify webhook"),
    ])  # fmt: skip
    return [sec("webhook_signing_secret", v, names, svc)]


# --------------------------------------------------------------------------------------
# look-alikes: public values that must not be reported
# --------------------------------------------------------------------------------------

CODE_CTX = {"python", "notebook", "javascript", "go", "powershell"}


def env_ref_text(ctx: str, var: str) -> tuple[str, bool]:
    if ctx in ("python", "notebook"):
        return pick([f'os.environ["{var}"]', f'os.getenv("{var}")', f"os.environ.get('{var}')"]), True
    if ctx == "javascript":
        return pick([f"process.env.{var}", f"process.env['{var}']", f"import.meta.env.{var}"]), True
    if ctx == "go":
        return f'os.Getenv("{var}")', True
    if ctx == "powershell":
        return f"$env:{var}", True
    return pick([f"${{{var}}}", f"${var}", f"${{{var}:?unset}}", f"${{{var}:-}}", f"%{var}%"]), False


@lkind("git_sha", "full and short commit SHAs (`git log`, pinned actions, `index` lines)")
def _l_git(ctx: str) -> Group:
    v = hexs(40) if chance(0.6) else hexs(R.choice([7, 8, 10, 12]))
    return [look("git_sha", v, ["GIT_COMMIT", "COMMIT_SHA", "revision", "sha", "BUILD_SHA"], "commit")]


@lkind("sha256_checksum", "SHA-256 digests of files (`sha256sum`, pip `--hash`, release notes)")
def _l_sha256(ctx: str) -> Group:
    v = hashlib.sha256(rb(20)).hexdigest()
    return [look("sha256_checksum", v, ["SHA256", "checksum", "sha256sum", "artifact_sha256"], "sha256")]


@lkind("md5_or_etag", "MD5 checksums and S3 ETags")
def _l_md5(ctx: str) -> Group:
    v = hashlib.md5(rb(20), usedforsecurity=False).hexdigest()
    return [look("md5_or_etag", v, ["ETag", "md5", "content_md5", "MD5SUM"], "ETag")]


@lkind("uuid", "UUIDs used as ids (tenants, projects, workspaces, records)")
def _l_uuid(ctx: str) -> Group:
    return [
        look(
            "uuid",
            uuid4(),
            ["TENANT_ID", "project_id", "workspace_id", "correlation_id", "customer_id", "AZURE_SUBSCRIPTION_ID"],
            "id",
        )
    ]


@lkind("ulid", "ULIDs")
def _l_ulid(ctx: str) -> Group:
    return [look("ulid", ulid(), ["event_id", "order_id", "job_id", "RUN_ID"], "event id")]


@lkind("request_id", "request ids: Stripe `req_`, AWS `x-amz-request-id`, Cloudflare ray, Azure correlation")
def _l_reqid(ctx: str) -> Group:
    v = pick(
        [
            "req_" + rs(14),
            rs(16, "0123456789ABCDEF"),
            f"{hexs(16)}-{pick(['FRA', 'AMS', 'IAD', 'SIN', 'ARN'])}",
            rs(20, UPPER + DIGITS),
        ]
    )
    return [look("request_id", v, ["request_id", "x-request-id", "cf-ray", "RequestId"], "request id")]


@lkind("semver", "versions")
def _l_semver(ctx: str) -> Group:
    v = pick([f"{R.randint(0, 5)}.{R.randint(0, 30)}.{R.randint(0, 20)}", f"v{R.randint(1, 4)}.{R.randint(0, 19)}.{R.randint(0, 9)}-rc.{R.randint(1, 4)}",
              f"{R.randint(1, 3)}.{R.randint(0, 12)}.{R.randint(0, 9)}+build.{R.randint(100, 9999)}"])  # fmt: skip
    return [look("semver", v, ["VERSION", "version", "APP_VERSION", "chart_version"], "version")]


@lkind("stripe_publishable_key", "`pk_live_...` publishable keys")
def _l_stripe_pk(ctx: str) -> Group:
    v = "pk_live_" + (rs(24) if chance(0.4) else "51" + rs(97))
    return [
        look(
            "stripe_publishable_key",
            v,
            ["STRIPE_PUBLISHABLE_KEY", "NEXT_PUBLIC_STRIPE_KEY", "publishableKey"],
            "publishable key",
        )
    ]


@lkind("oauth_client_id", "OAuth client ids: Google, GitHub, Entra, Auth0, PayPal")
def _l_client_id(ctx: str) -> Group:
    v = pick(
        [
            f"{digits(12)}-{rs(32, LOWER + DIGITS)}.apps.googleusercontent.com",
            "Iv1." + hexs(16),
            "Ov23li" + rs(14),
            uuid4(),
            rs(32),
        ]
    )
    return [look("oauth_client_id", v, ["CLIENT_ID", "OAUTH_CLIENT_ID", "clientId", "GOOGLE_CLIENT_ID"], "client id")]


AWS_DOC_KEYS = [("AKIAIOSFODNN7EXAMPLE", "AWS_ACCESS_KEY_ID"), ("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "AWS_SECRET_ACCESS_KEY"),
                ("AKIAI44QH8DHBEXAMPLE", "aws_access_key_id"), ("je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY", "aws_secret_access_key")]  # fmt: skip


@lkind("aws_example_key", "AWS documentation keys ending in `EXAMPLE` / `EXAMPLEKEY`")
def _l_aws_example(ctx: str) -> Group:
    v, n = pick(AWS_DOC_KEYS)
    return [look("aws_example_key", v, n, "the AWS docs example key")]


DOC_SAMPLES = [
    ("sk_test_4eC39HqLyjWDarjtT1zdp7dc", "STRIPE_SECRET_KEY", "Stripe docs test key"),
    ("pk_test_TYooMQauvdEDq54NiTphI7jx", "STRIPE_PUBLISHABLE_KEY", "Stripe docs publishable key"),
    ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ."
     "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c", "token", "jwt.io sample"),
    ("JBSWY3DPEHPK3PXP", "TOTP_SECRET", "the base32 example from the otpauth docs"),
    ("xoxb-not-a-real-token-this-will-not-work", "SLACK_BOT_TOKEN", "Slack docs token"),
]  # fmt: skip


@lkind(
    "documented_example",
    "sample values printed in provider docs (Stripe test keys, jwt.io token, otpauth example, Slack docs)",
)
def _l_doc(ctx: str) -> Group:
    v, n, what = pick(DOC_SAMPLES)
    return [look("documented_example", v, n, what)]


@lkind("placeholder", "placeholders: `<your-api-key>`, `changeme`, `xxxx...`, `REPLACE_ME`, `sk_live_XXXX...`")
def _l_placeholder(ctx: str) -> Group:
    v = pick(["<your-api-key>", "changeme", "x" * R.randint(12, 32), "REPLACE_ME", "sk_live_" + "X" * 24, "YOUR_TOKEN_HERE",
              "<paste token here>", "TODO-set-me", "your-password", "dummy", "ghp_" + "x" * 36, "<SECRET>", "********-****-****-****-************"])  # fmt: skip
    return [look("placeholder", v, ["API_KEY", "TOKEN", "PASSWORD", "SECRET_KEY", "api_token"], "placeholder")]


@lkind("env_reference", "references to environment variables (`${X}`, `$X`, `%X%`, `os.environ[...]`, `process.env.X`)")
def _l_envref(ctx: str) -> Group:
    var = pick(
        [
            "STRIPE_SECRET_KEY",
            "DATABASE_PASSWORD",
            "OPENAI_API_KEY",
            "GITHUB_TOKEN",
            "SLACK_WEBHOOK_URL",
            "DB_PASS",
            "JWT_SECRET",
            "NPM_TOKEN",
        ]
    )
    v, expr = env_ref_text(ctx, var)
    return [look("env_reference", v, [var, var.lower(), "secret"], "env var", expr=expr)]


@lkind("secret_manager_reference", "secret-manager names and paths (`op://`, Vault, AWS / GCP / Azure secret ids, SSM)")
def _l_smref(ctx: str) -> Group:
    p = pick(PROJECTS)
    v = pick([
        f"op://{pick(['Engineering', 'Prod', 'Shared'])}/{p}/credential",
        f"vault:secret/data/{p}#api_key",
        f"arn:aws:secretsmanager:{pick(['eu-west-1', 'us-east-1'])}:{digits(12)}:secret:prod/{p}/db-{rs(6)}",
        f"projects/{digits(12)}/secrets/{p}-api-key/versions/latest",
        f"@Microsoft.KeyVault(SecretUri=https://kv-{org()}.vault.azure.net/secrets/{p}-db/)",
        f"ssm:/prod/{p}/stripe_key",
        f"sm://{org()}-prod/{p}-token",
    ])  # fmt: skip
    return [
        look("secret_manager_reference", v, ["API_KEY", "DB_PASSWORD", "secret_ref", "valueFrom"], "secret reference")
    ]


@lkind(
    "template_reference", "template expressions: `${{ secrets.X }}`, Helm / Jinja / ERB / Terraform / Azure Pipelines"
)
def _l_tpl(ctx: str) -> Group:
    var = pick(["NPM_TOKEN", "DEPLOY_KEY", "DB_PASSWORD", "SLACK_WEBHOOK", "PYPI_TOKEN", "AWS_SECRET_ACCESS_KEY"])
    if ctx == "github_actions":
        v = f"${{{{ secrets.{var} }}}}"
    elif ctx == "hcl":
        v = f"${{var.{var.lower()}}}"
    else:
        v = pick([f"${{{{ secrets.{var} }}}}", f"{{{{ .Values.{var.lower()} }}}}", f"{{{{ vault_{var.lower()} }}}}",
                  f"<%= ENV['{var}'] %>", f"$({var})", f"#{{{var}}}#", f"{{{{ lookup('env', '{var}') }}}}"])  # fmt: skip
    return [look("template_reference", v, [var, var.lower(), "password"], "template value")]


@lkind("ssh_public_key", "real `ssh-ed25519` public keys")
def _l_sshpub(ctx: str) -> Group:
    pub = ed25519_public(rb(32))
    return [look("ssh_public_key", f"ssh-ed25519 {b64(ssh_ed25519_blob(pub))} {pick(PEOPLE).lower()}@{pick(['laptop', 'mbp', 'workstation', 'ci'])}",
                 ["SSH_PUBLIC_KEY", "authorized_key", "ssh_pubkey"], "public key")]  # fmt: skip


@lkind("public_key_pem", "`BEGIN PUBLIC KEY` PEM (P-256 and Ed25519)")
def _l_pubpem(ctx: str) -> Group:
    if chance(0.5):
        _d, pub = ec_keypair()
        v = pem("PUBLIC KEY", ec_spki(pub))
    else:
        v = ed25519_public_pem(ed25519_public(rb(32)))
    return [
        look("public_key_pem", v, ["JWT_PUBLIC_KEY", "PUBLIC_KEY", "verify_key", "webhook_public_key"], "public key")
    ]


@lkind("certificate", "real self-signed X.509 certificates (PEM, or base64 in kubeconfig)")
def _l_cert(ctx: str) -> Group:
    d, pub = ec_keypair()
    v = pem("CERTIFICATE", self_signed_cert(f"{pick(PROJECTS)}.{org()}.internal", d, pub))
    return [look("certificate", v, ["TLS_CERT", "CA_CERT", "ca.crt", "certificate"], "certificate")]


@lkind(
    "encrypted_value",
    "encrypted blobs: SOPS `ENC[...]`, Ansible Vault, sealed-secrets `AgB...`, Jenkins `{AQAAABAAAAAQ...}`",
)
def _l_enc(ctx: str) -> Group:
    v = pick([
        f"ENC[AES256_GCM,data:{b64(rb(R.randint(12, 40)))},iv:{b64(rb(32))},tag:{b64(rb(16))},type:str]",
        "AgB" + b64(rb(R.randint(200, 300))).rstrip("="),
        "{AQAAABAAAAAQ" + b64(rb(48)) + "}",
        "$ANSIBLE_VAULT;1.1;AES256\n" + "\n".join(hexs(80) for _ in range(R.randint(3, 5))),
    ])  # fmt: skip
    return [
        look("encrypted_value", v, ["db_password", "API_KEY", "encrypted_secret", "vault_api_token"], "encrypted value")
    ]


@lkind("base64_text", "base64 of ordinary text / JSON / config")
def _l_b64(ctx: str) -> Group:
    plain = pick([
        json.dumps({"env": pick(["prod", "staging"]), "region": pick(["eu-west-1", "us-east-1"]), "replicas": R.randint(1, 9)}),
        f"hello from {pick(PROJECTS)} {R.randint(1, 999)}",
        f"[core]\n\tbare = false\n\tname = {pick(PROJECTS)}\n",
        f"user-agent: {pick(PROJECTS)}/{R.randint(1, 9)}.{R.randint(0, 9)}",
        "The quick brown fox jumps over the lazy dog " + str(R.randint(1, 99)),
    ])  # fmt: skip
    return [look("base64_text", b64(plain.encode()), ["payload", "data", "CONFIG_B64", "body"], "base64 payload")]


@lkind("long_identifier", "long identifiers: test / class / function names, slugs")
def _l_ident(ctx: str) -> Group:
    w = [pick(WORDS) for _ in range(R.randint(4, 7))]
    v = pick(["test_" + "_".join(w), "".join(x.capitalize() for x in w) + pick(["Factory", "Handler", "Controller", "Provider"]),
              "-".join(w) + "-" + rs(5, LOWER + DIGITS), w[0] + "".join(x.capitalize() for x in w[1:])])  # fmt: skip
    return [look("long_identifier", v, ["test_name", "handler", "slug", "class_name"], "identifier")]


@lkind("url", "URLs without credentials (some with harmless query strings)")
def _l_url(ctx: str) -> Group:
    v = pick([f"https://{org()}.atlassian.net/browse/{rs(3, UPPER)}-{R.randint(10, 9999)}", f"https://grafana.{org()}.io/d/{rs(9, LOWER + DIGITS)}/latency?orgId=1&from=now-6h",
              f"https://github.com/{org()}/{pick(PROJECTS)}/pull/{R.randint(10, 3000)}", f"https://api.{org()}.com/v{R.randint(1, 3)}/health?verbose=true",
              f"https://docs.{org()}.dev/runbooks/{pick(PROJECTS)}#rotate-keys"])  # fmt: skip
    return [look("url", v, ["DOCS_URL", "dashboard", "link", "HEALTHCHECK_URL"], "link")]


@lkind("cloud_resource_id", "ARNs, GCP resource names, Azure resource ids")
def _l_cloudid(ctx: str) -> Group:
    v = pick([
        f"arn:aws:iam::{digits(12)}:role/{pick(PROJECTS)}-deployer",
        f"arn:aws:s3:::{org()}-{pick(['logs', 'artifacts', 'backups'])}-{R.randint(1, 99)}",
        f"arn:aws:lambda:eu-west-1:{digits(12)}:function:{pick(PROJECTS)}",
        f"/subscriptions/{uuid4()}/resourceGroups/rg-{pick(PROJECTS)}/providers/Microsoft.Web/sites/{pick(PROJECTS)}",
        f"projects/{org()}-prod/locations/europe-west1/services/{pick(PROJECTS)}",
        f"ocid1.instance.oc1.eu-frankfurt-1.{rs(60, LOWER + DIGITS)}",
    ])  # fmt: skip
    return [look("cloud_resource_id", v, ["ROLE_ARN", "resource_id", "bucket_arn", "SERVICE_NAME"], "resource id")]


@lkind("iban", "IBANs with valid check digits")
def _l_iban(ctx: str) -> Group:
    v = pick([iban("DE", rs(18, DIGITS)), iban("NL", rs(4, UPPER) + rs(10, DIGITS)), iban("SE", rs(20, DIGITS)), iban("TR", rs(22, DIGITS)),
              iban("GB", rs(4, UPPER) + rs(14, DIGITS)), iban("PL", rs(24, DIGITS))])  # fmt: skip
    return [look("iban", v, ["IBAN", "iban", "payout_account"], "IBAN")]


@lkind("isbn", "ISBN-13 with valid check digits")
def _l_isbn(ctx: str) -> Group:
    return [look("isbn", isbn13(), ["isbn", "ISBN"], "ISBN")]


@lkind("test_card_number", "card numbers published as test numbers in payment docs")
def _l_card(ctx: str) -> Group:
    v = pick(["4242424242424242", "4000056655665556", "5555555555554444", "2223003122003222", "378282246310005", "6011111111111117",
              "4000000000009995", "4000002500003155", "4242 4242 4242 4242"])  # fmt: skip
    return [look("test_card_number", v, ["test_card", "card_number", "CARD"], "test card")]


@lkind("crypto_address", "bitcoin bech32 and base58check addresses, lowercase Ethereum addresses")
def _l_crypto(ctx: str) -> Group:
    v = pick(
        [
            bech32_encode("bc", [0, *convertbits(rb(20), 8, 5)]),
            base58check(b"\x00" + rb(20)),
            base58check(b"\x05" + rb(20)),
            "0x" + hexs(40),
        ]
    )
    return [look("crypto_address", v, ["donation_address", "wallet", "payout_address"], "wallet address")]


@lkind("masked_value", "masked or redacted values (`sk_live_...abcd`, `****`, `[REDACTED]`)")
def _l_masked(ctx: str) -> Group:
    v = pick([f"sk_live_...{rs(4)}", f"ghp_{'*' * 32}{rs(4)}", "*" * R.randint(8, 16), "[REDACTED]", f"xoxb-****-****-{rs(4)}",
              f"AKIA************{rs(4, UPPER + DIGITS)}", "<redacted>", f"{'•' * 12}{rs(4, HEX)}", f"sk-...{rs(4)}"])  # fmt: skip
    return [look("masked_value", v, ["API_KEY", "token", "password", "STRIPE_SECRET_KEY"], "masked value")]


@lkind("url_slug_id", "random-looking public ids in URLs: YouTube, Google Docs, Figma, Notion, Loom")
def _l_slug(ctx: str) -> Group:
    kind = pick(["yt", "gdoc", "figma", "notion", "loom"])
    v, tpl = {
        "yt": (rs(11, URLSAFE), "https://www.youtube.com/watch?v={v}"),
        "gdoc": (rs(44, URLSAFE), "https://docs.google.com/document/d/{v}/edit"),
        "figma": (rs(22), "https://www.figma.com/file/{v}/Design-System"),
        "notion": (hexs(32), "https://www.notion.so/" + org() + "/Runbook-{v}"),
        "loom": (hexs(32), "https://www.loom.com/share/{v}"),
    }[kind]
    return [look("url_slug_id", v, ["video", "doc", "design", "runbook"], "link", tpl=tpl)]


@lkind("short_link", "short links (`bit.ly`, `t.co`, `youtu.be`, `aka.ms`)")
def _l_short(ctx: str) -> Group:
    v = pick([f"https://bit.ly/{rs(7)}", f"https://t.co/{rs(10)}", f"https://youtu.be/{rs(11, URLSAFE)}", f"https://aka.ms/{pick(WORDS)}{rs(3, LOWER)}",
              f"https://tinyurl.com/{rs(8, LOWER + DIGITS)}"])  # fmt: skip
    return [look("short_link", v, ["link", "short_url", "invite"], "short link")]


@lkind("container_digest", "`sha256:` image digests")
def _l_digest(ctx: str) -> Group:
    img = pick(
        [
            f"ghcr.io/{org()}/{pick(PROJECTS)}",
            "docker.io/library/postgres",
            "public.ecr.aws/nginx/nginx",
            f"{org()}.azurecr.io/api",
        ]
    )
    return [
        look(
            "container_digest",
            "sha256:" + hashlib.sha256(rb(16)).hexdigest(),
            ["IMAGE_DIGEST", "digest", "image"],
            "image digest",
            tpl=img + "@{v}",
        )
    ]


@lkind("npm_integrity", "`sha512-` integrity strings from lockfiles")
def _l_npm_int(ctx: str) -> Group:
    return [look("npm_integrity", "sha512-" + b64(hashlib.sha512(rb(16)).digest()), ["integrity"], "integrity hash")]


@lkind("sri_integrity", "`sha384-` / `sha256-` subresource-integrity hashes")
def _l_sri(ctx: str) -> Group:
    v = pick(["sha384-" + b64(hashlib.sha384(rb(16)).digest()), "sha256-" + b64(hashlib.sha256(rb(16)).digest())])
    return [look("sri_integrity", v, ["integrity", "SRI_HASH"], "SRI hash")]


@lkind("public_site_key", "public site keys: Mapbox `pk.`, reCAPTCHA, Turnstile")
def _l_sitekey(ctx: str) -> Group:
    body = b64u(json.dumps({"u": rs(8, LOWER), "a": rs(25, LOWER + DIGITS)}, separators=(",", ":")).encode())
    v = pick([f"pk.{body}.{rs(22, URLSAFE)}", "6L" + rs(38, URLSAFE), "0x4AAAAAAA" + rs(14, URLSAFE)])
    return [
        look(
            "public_site_key",
            v,
            ["MAPBOX_PUBLIC_TOKEN", "RECAPTCHA_SITE_KEY", "TURNSTILE_SITE_KEY", "NEXT_PUBLIC_MAPBOX_TOKEN"],
            "site key",
        )
    ]


@lkind("firebase_web_api_key", "`AIza...` keys inside Firebase web configs / public env names")
def _l_firebase(ctx: str) -> Group:
    return [
        look(
            "firebase_web_api_key",
            "AIza" + rs(35, URLSAFE),
            ["NEXT_PUBLIC_FIREBASE_API_KEY", "VITE_FIREBASE_API_KEY", "firebaseConfig.apiKey"],
            "Firebase web config key",
        )
    ]


@lkind(
    "account_identifier",
    "account ids: AWS account numbers, Twilio SIDs, Stripe `acct_`, Slack team ids, Algolia app ids",
)
def _l_acct(ctx: str) -> Group:
    v, n = pick([(digits(12), "AWS_ACCOUNT_ID"), ("AC" + hexs(32), "TWILIO_ACCOUNT_SID"), ("acct_1" + rs(15), "stripe_account"),
                 ("T0" + rs(8, UPPER + DIGITS), "SLACK_TEAM_ID"), ("MG" + hexs(32), "MESSAGING_SERVICE_SID")])  # fmt: skip
    return [look("account_identifier", v, n, "account id")]


@lkind("key_fingerprint", "SSH `SHA256:` fingerprints, PGP fingerprints, MD5 colon fingerprints")
def _l_fpr(ctx: str) -> Group:
    v = pick(
        [
            "SHA256:" + b64(rb(32)).rstrip("="),
            " ".join(rs(4, "0123456789ABCDEF") for _ in range(10)),
            ":".join(hexs(2) for _ in range(16)),
        ]
    )
    return [look("key_fingerprint", v, ["fingerprint", "host_key", "GPG_FINGERPRINT"], "fingerprint")]


@lkind("key_identifier", "key ids: GCP `private_key_id`, KMS key ids, JWT `kid`, GPG long ids")
def _l_kid(ctx: str) -> Group:
    v = pick([hexs(40), f"mrk-{hexs(32)}", uuid4(), rs(16, "0123456789ABCDEF"), f"kid-{rs(10, LOWER + DIGITS)}"])
    return [look("key_identifier", v, ["KMS_KEY_ID", "kid", "private_key_id", "signing_key_id"], "key id")]


@lkind("trace_id", "W3C `traceparent`, X-Ray and OpenTelemetry trace ids")
def _l_trace(ctx: str) -> Group:
    v = pick([f"00-{hexs(32)}-{hexs(16)}-01", f"Root=1-{hexs(8)}-{hexs(24)}", hexs(32)])
    return [look("trace_id", v, ["traceparent", "trace_id", "X-Amzn-Trace-Id"], "trace id")]


@lkind("k8s_pod_name", "pod names with ReplicaSet hash suffixes")
def _l_pod(ctx: str) -> Group:
    v = f"{pick(PROJECTS)}-{rs(R.choice([9, 10]), 'bcdfghjklmnpqrstvwxz2456789')}-{rs(5, 'bcdfghjklmnpqrstvwxz2456789')}"
    return [look("k8s_pod_name", v, ["pod", "POD_NAME", "hostname"], "pod")]


@lkind("asset_hash", "content-hashed asset file names")
def _l_asset(ctx: str) -> Group:
    v = pick(
        [
            f"main.{hexs(8)}.js",
            f"app-{hexs(16)}.css",
            f"vendor.{hexs(20)}.chunk.js",
            f"{pick(WORDS)}-{rs(8, ALNUM + '_-')}.woff2",
        ]
    )
    return [look("asset_hash", v, ["bundle", "asset", "entry"], "bundle")]


@lkind("wireguard_public_key", "WireGuard public keys (X25519, derived)")
def _l_wgpub(ctx: str) -> Group:
    return [
        look(
            "wireguard_public_key", b64(x25519_public(rb(32))), ["PublicKey", "peer_public_key"], "WireGuard public key"
        )
    ]


@lkind("age_recipient", "`age1...` recipients (bech32, derived)")
def _l_agepub(ctx: str) -> Group:
    return [
        look(
            "age_recipient",
            bech32_encode("age", convertbits(x25519_public(rb(32)), 8, 5)),
            ["AGE_RECIPIENT", "age_recipients", "recipient"],
            "age recipient",
        )
    ]


@lkind("go_sum_hash", "`go.sum` `h1:` hashes")
def _l_gosum(ctx: str) -> Group:
    mod = pick(
        [
            "github.com/aws/aws-sdk-go-v2",
            "golang.org/x/crypto",
            "github.com/jackc/pgx/v5",
            "go.uber.org/zap",
            "github.com/stretchr/testify",
        ]
    )
    return [
        look(
            "go_sum_hash",
            "h1:" + b64(rb(32)),
            ["go.sum"],
            "go.sum hash",
            tpl=f"{mod} v{R.randint(0, 2)}.{R.randint(0, 40)}.{R.randint(0, 9)} {{v}}",
        )
    ]


@lkind("tx_hash", "blockchain transaction hashes (`0x` + 64 hex)")
def _l_tx(ctx: str) -> Group:
    return [look("tx_hash", "0x" + hexs(64), ["tx", "tx_hash", "transaction"], "transaction")]


@lkind("container_id", "Docker container ids (64 or 12 hex)")
def _l_cid(ctx: str) -> Group:
    return [look("container_id", hexs(64) if chance(0.5) else hexs(12), ["container", "CONTAINER_ID"], "container")]


# --------------------------------------------------------------------------------------
# prose in nine languages
# --------------------------------------------------------------------------------------

WORD_KEYS = ["notes", "journal", "meeting", "attendees", "agenda", "actions", "decisions", "onboarding", "remember", "debug",
             "migration", "description", "steps", "comments", "summary", "cause", "fix", "next", "user", "assistant", "old",
             "new", "status", "setup", "review"]  # fmt: skip

LANG: dict[str, dict[str, list[str]]] = {
    "en": {
        "words": ["Notes", "Project journal", "Meeting notes", "Attendees", "Agenda", "Action items", "Decisions", "Onboarding checklist",
                  "Things to remember about the user", "Debugging diary", "Migration notes", "Description", "Steps to reproduce", "Comments",
                  "Summary", "Root cause", "Fix", "Next steps", "User", "Assistant", "old", "new", "status", "Setup", "Review notes"],
        "bare": ["the new one is {v}", "use {v} for staging", "ok this one works: {v}", "rotated again, current value {v}", "paste {v} when it prompts",
                 "{v} (prod, do not share)", "they sent me {v} over chat, saving it here", "temporary until Friday: {v}",
                 "fallback if the vault is down: {v}", "copied from the old laptop: {v}", "try {v} first, then the backup one",
                 "working value as of this morning -> {v}"],
        "svc": ["The {svc} one is {v}", "{svc} creds: {v}", "{svc} -> {v}", "for {svc} use {v}", "new {svc} value after rotation: {v}",
                "{svc} (prod): {v}", "reminder, {svc} = {v}", "{svc} again, in case I lose it: {v}"],
        "look": ["{what}: {v}", "for reference the {what} is {v}", "{what} {v} (public, fine to share)", "checked {what} {v}, matches",
                 "noting the {what} here: {v}"],
        "filler": ["Deploys moved to Thursdays.", "User prefers short, direct answers.", "The staging database is reset every night.",
                   "The flaky test in the payments module is still not fixed.", "Standup was cut by 15 minutes.",
                   "Backups now go to the office NAS instead of S3.", "Log level is temporarily DEBUG; remember to revert.",
                   "New intern starts on Monday.", "The migration script must not run twice.", "Release notes are not written yet.",
                   "Cache hit rate dropped compared to last week.", "Nobody remembers why the cron runs at 03:17.",
                   "The vendor said the sandbox will be down for maintenance.", "Ask before touching the billing tables.",
                   "Latency p99 is back under 300 ms after the index change.", "Docs for the new endpoint are half done.",
                   "CI takes 14 minutes now; the Docker layer cache is cold.", "We agreed to drop Python 3.9 support next quarter."],
        "facts": ["User lives in Lisbon, timezone WET.", "Prefers code examples in TypeScript.", "Dislikes early meetings.", "Their dog is called Biscuit.",
                  "Wants commit messages in imperative mood.", "Uses a Dvorak keyboard.", "Is vegetarian; remember for team lunch."],
        "paste": ["here's what I have:", "this is the config that fails:", "pasting the env for context:", "output below:"],
        "reply": ["Got it. The error comes from the second line.", "That value is now in this transcript; consider rotating it once we are done.",
                  "The config looks fine; the problem is the port.", "Try restarting the worker after changing that."],
        "greet": ["Hi {name},", "Hello {name},", "Hey {name} -"],
        "bye": ["Thanks,", "Cheers,", "Best,"],
    },
    "tr": {
        "words": ["Notlar", "Proje günlüğü", "Toplantı notları", "Katılımcılar", "Gündem", "Yapılacaklar", "Kararlar", "İşe alışma listesi",
                  "Kullanıcı hakkında hatırlanacaklar", "Hata ayıklama günlüğü", "Taşıma notları", "Açıklama", "Tekrarlama adımları", "Yorumlar",
                  "Özet", "Kök neden", "Çözüm", "Sonraki adımlar", "Kullanıcı", "Asistan", "eski", "yeni", "durum", "Kurulum", "İnceleme notları"],
        "bare": ["yenisi bu: {v}", "staging için {v} kullan", "tamam, bu çalışıyor: {v}", "yine değiştirildi, güncel değer {v}",
                 "sorduğunda {v} yapıştır", "{v} (prod, kimseyle paylaşma)", "Cuma'ya kadar geçici: {v}"],
        "svc": ["{svc} için olan: {v}", "{svc} bilgileri: {v}", "{svc} -> {v}", "{svc} yenilendi, yeni değer: {v}"],
        "look": ["{what}: {v}", "not olarak {what}: {v}", "{what} {v} (herkese açık, sorun yok)"],
        "filler": ["Dağıtım artık perşembe günleri yapılıyor.", "Kullanıcı kısa ve net cevapları tercih ediyor.", "Test ortamı her gece sıfırlanıyor.",
                   "Ödeme modülündeki kararsız test hâlâ düzeltilmedi.", "Toplantı 15 dakika kısaltıldı.",
                   "Yedekler artık S3 yerine ofisteki NAS'a gidiyor.", "Log seviyesi geçici olarak DEBUG, geri almayı unutma.",
                   "Yeni stajyer pazartesi başlıyor.", "Taşıma betiği iki kez çalıştırılmamalı.", "Sürüm notları henüz yazılmadı."],
        "facts": ["Kullanıcı İstanbul'da yaşıyor, saat dilimi UTC+3.", "Kod örneklerinde Python tercih ediyor.", "Sabah toplantılarını sevmiyor.",
                  "Kedisinin adı Pamuk."],
        "paste": ["elimdeki bu:", "hata veren yapılandırma bu:", "bağlam için env dosyası:"],
        "reply": ["Anladım, hata ikinci satırdan geliyor.", "Bu değer artık sohbette görünüyor, işimiz bitince değiştirmeni öneririm.",
                  "Yapılandırma doğru görünüyor, sorun portta."],
        "greet": ["Merhaba {name},", "Selam {name},"],
        "bye": ["Teşekkürler,", "Kolay gelsin,"],
    },
    "ko": {
        "words": ["메모", "프로젝트 일지", "회의록", "참석자", "안건", "할 일", "결정 사항", "온보딩 체크리스트", "사용자에 대해 기억할 것",
                  "디버깅 일지", "마이그레이션 노트", "설명", "재현 절차", "댓글", "요약", "근본 원인", "수정", "다음 단계", "사용자",
                  "어시스턴트", "이전", "새", "상태", "설정", "리뷰 메모"],
        "bare": ["새 값은 {v} 입니다", "스테이징에서는 {v} 사용", "이건 작동함: {v}", "또 교체됨, 현재 값 {v}", "물어보면 {v} 붙여넣기",
                 "{v} (운영용, 공유 금지)", "금요일까지 임시: {v}"],
        "svc": ["{svc} 키: {v}", "{svc} 계정 정보: {v}", "{svc} -> {v}", "{svc} 교체 후 새 값: {v}"],
        "look": ["{what}: {v}", "참고용 {what}: {v}", "{what} {v} (공개값, 공유해도 됨)"],
        "filler": ["배포는 이제 목요일에 진행한다.", "사용자는 짧고 명확한 답변을 선호한다.", "테스트 환경은 매일 밤 초기화된다.",
                   "결제 모듈의 불안정한 테스트는 아직 수정되지 않았다.", "회의 시간이 15분 줄었다.",
                   "로그 레벨을 임시로 DEBUG로 바꿨으니 되돌리는 것 잊지 말 것.", "신입 인턴이 월요일에 합류한다.",
                   "마이그레이션 스크립트는 두 번 실행하면 안 된다.", "릴리스 노트는 아직 작성되지 않았다.", "캐시 적중률이 지난주보다 떨어졌다."],
        "facts": ["사용자는 서울에 살고 시간대는 KST이다.", "코드 예시는 TypeScript를 선호한다.", "오전 회의를 싫어한다.", "반려견 이름은 콩이."],
        "paste": ["지금 가진 건 이거예요:", "실패하는 설정입니다:", "참고로 env 붙여요:"],
        "reply": ["알겠습니다. 오류는 두 번째 줄에서 납니다.", "이 값이 대화에 노출됐으니 끝나면 교체하는 걸 권합니다.", "설정은 괜찮아 보이고, 문제는 포트입니다."],
        "greet": ["{name}님 안녕하세요,", "{name}님,"],
        "bye": ["감사합니다.", "수고하세요."],
    },
    "ru": {
        "words": ["Заметки", "Журнал проекта", "Протокол встречи", "Участники", "Повестка", "Задачи", "Решения", "Чеклист онбординга",
                  "Что помнить о пользователе", "Дневник отладки", "Заметки по миграции", "Описание", "Шаги воспроизведения", "Комментарии",
                  "Итог", "Причина", "Исправление", "Дальше", "Пользователь", "Ассистент", "старое", "новое", "статус", "Настройка",
                  "Заметки к ревью"],
        "bare": ["новый вот: {v}", "для стейджинга используй {v}", "этот работает: {v}", "опять ротировали, текущее значение {v}",
                 "вставь {v}, когда спросит", "{v} (прод, никому не показывать)", "временно до пятницы: {v}"],
        "svc": ["для {svc}: {v}", "доступы {svc}: {v}", "{svc} -> {v}", "после ротации {svc} новое значение: {v}"],
        "look": ["{what}: {v}", "для справки, {what}: {v}", "{what} {v} (публичное, можно делиться)"],
        "filler": ["Деплой теперь по четвергам.", "Пользователь предпочитает короткие и точные ответы.", "Тестовое окружение сбрасывается каждую ночь.",
                   "Нестабильный тест в модуле платежей всё ещё не починен.", "Созвон сократили на 15 минут.",
                   "Бэкапы теперь идут на локальный NAS, а не в S3.", "Уровень логов временно DEBUG, не забыть вернуть.",
                   "Новый стажёр выходит в понедельник.", "Скрипт миграции нельзя запускать дважды.", "Релизные заметки ещё не написаны."],
        "facts": ["Пользователь живёт в Казани, часовой пояс MSK.", "Предпочитает примеры кода на Go.", "Не любит утренние созвоны.", "Кота зовут Барсик."],
        "paste": ["вот что у меня есть:", "вот конфиг, который падает:", "для контекста кидаю env:"],
        "reply": ["Понял. Ошибка во второй строке.", "Это значение теперь в переписке, лучше его потом сменить.", "Конфиг выглядит нормально, проблема в порте."],
        "greet": ["Привет, {name}!", "Здравствуйте, {name},"],
        "bye": ["Спасибо,", "С уважением,"],
    },
    "hi": {
        "words": ["नोट्स", "प्रोजेक्ट डायरी", "मीटिंग नोट्स", "उपस्थित", "एजेंडा", "काम", "फ़ैसले", "ऑनबोर्डिंग चेकलिस्ट",
                  "उपयोगकर्ता के बारे में याद रखने की बातें", "डीबगिंग डायरी", "माइग्रेशन नोट्स", "विवरण", "दोहराने के चरण", "टिप्पणियाँ",
                  "सारांश", "मूल कारण", "समाधान", "अगले कदम", "उपयोगकर्ता", "सहायक", "पुराना", "नया", "स्थिति", "सेटअप", "रिव्यू नोट्स"],
        "bare": ["नया वाला यह है: {v}", "staging के लिए {v} इस्तेमाल करो", "यह वाला काम करता है: {v}", "फिर से बदला गया, अभी का मान {v}",
                 "जब पूछे तब {v} पेस्ट करना", "{v} (prod, किसी से शेयर मत करना)", "शुक्रवार तक अस्थायी: {v}"],
        "svc": ["{svc} वाला: {v}", "{svc} की जानकारी: {v}", "{svc} -> {v}", "{svc} बदलने के बाद नया मान: {v}"],
        "look": ["{what}: {v}", "संदर्भ के लिए {what}: {v}", "{what} {v} (सार्वजनिक है, शेयर कर सकते हैं)"],
        "filler": ["डिप्लॉय अब गुरुवार को होता है।", "उपयोगकर्ता छोटे और साफ़ जवाब पसंद करते हैं।", "टेस्ट एनवायरनमेंट हर रात रीसेट होता है।",
                   "पेमेंट मॉड्यूल का अस्थिर टेस्ट अभी तक ठीक नहीं हुआ।", "मीटिंग 15 मिनट छोटी कर दी गई।",
                   "लॉग लेवल अस्थायी रूप से DEBUG है, वापस करना मत भूलना।", "नया इंटर्न सोमवार से शुरू करेगा।",
                   "माइग्रेशन स्क्रिप्ट दो बार नहीं चलानी चाहिए।", "रिलीज़ नोट्स अभी लिखे नहीं गए।", "बैकअप अब लोकल NAS पर जाते हैं।"],
        "facts": ["उपयोगकर्ता पुणे में रहते हैं, समय क्षेत्र IST है।", "कोड उदाहरण Python में पसंद करते हैं।", "सुबह की मीटिंग पसंद नहीं करते।",
                  "बिल्ली का नाम मिष्टी है।"],
        "paste": ["मेरे पास यह है:", "यह कॉन्फ़िग फेल हो रहा है:", "संदर्भ के लिए env:"],
        "reply": ["समझ गया, गलती दूसरी लाइन में है।", "यह मान अब बातचीत में है, काम खत्म होने पर इसे बदल दें।", "कॉन्फ़िग ठीक है, समस्या पोर्ट में है।"],
        "greet": ["नमस्ते {name},", "{name} जी,"],
        "bye": ["धन्यवाद,", "शुभकामनाएँ,"],
    },
    "sv": {
        "words": ["Anteckningar", "Projektdagbok", "Mötesanteckningar", "Deltagare", "Dagordning", "Att göra", "Beslut", "Checklista för onboarding",
                  "Saker att minnas om användaren", "Felsökningsdagbok", "Migreringsanteckningar", "Beskrivning", "Steg för att återskapa",
                  "Kommentarer", "Sammanfattning", "Grundorsak", "Åtgärd", "Nästa steg", "Användare", "Assistent", "gammal", "ny", "status",
                  "Installation", "Granskningsanteckningar"],
        "bare": ["den nya är {v}", "använd {v} för staging", "okej, den här funkar: {v}", "roterad igen, nuvarande värde {v}",
                 "klistra in {v} när den frågar", "{v} (prod, dela inte)", "tillfällig till fredag: {v}"],
        "svc": ["{svc}-nyckeln är {v}", "{svc} inlogg: {v}", "{svc} -> {v}", "nytt {svc}-värde efter rotation: {v}"],
        "look": ["{what}: {v}", "för referens, {what}: {v}", "{what} {v} (offentligt, går bra att dela)"],
        "filler": ["Driftsättning sker nu på torsdagar.", "Användaren föredrar korta och raka svar.", "Testmiljön återställs varje natt.",
                   "Det instabila testet i betalmodulen är fortfarande inte fixat.", "Mötet kortades med 15 minuter.",
                   "Loggnivån är tillfälligt DEBUG, glöm inte att ändra tillbaka.", "Den nya praktikanten börjar på måndag.",
                   "Migreringsskriptet får inte köras två gånger.", "Releasenoteringarna är inte skrivna än.", "Fika kl 15 varje onsdag."],
        "facts": ["Användaren bor i Göteborg, tidszon CET.", "Föredrar kodexempel i Rust.", "Gillar inte morgonmöten.", "Hunden heter Sixten."],
        "paste": ["det här har jag:", "det här är konfigen som failar:", "klistrar in env för sammanhang:"],
        "reply": ["Uppfattat, felet kommer från andra raden.", "Värdet syns nu i konversationen, byt det när vi är klara.", "Konfigen ser bra ut, problemet är porten."],
        "greet": ["Hej {name},", "Hallå {name},"],
        "bye": ["Tack,", "Mvh,"],
    },
    "vi": {
        "words": ["Ghi chú", "Nhật ký dự án", "Biên bản họp", "Người tham dự", "Chương trình", "Việc cần làm", "Quyết định", "Danh sách onboarding",
                  "Những điều cần nhớ về người dùng", "Nhật ký gỡ lỗi", "Ghi chú chuyển đổi", "Mô tả", "Các bước tái hiện", "Bình luận",
                  "Tóm tắt", "Nguyên nhân gốc", "Cách sửa", "Bước tiếp theo", "Người dùng", "Trợ lý", "cũ", "mới", "trạng thái", "Cài đặt",
                  "Ghi chú review"],
        "bare": ["cái mới là {v}", "dùng {v} cho staging", "cái này chạy được: {v}", "lại đổi rồi, giá trị hiện tại {v}", "dán {v} khi nó hỏi",
                 "{v} (prod, không chia sẻ)", "tạm thời đến thứ Sáu: {v}"],
        "svc": ["khóa {svc}: {v}", "thông tin đăng nhập {svc}: {v}", "{svc} -> {v}", "giá trị {svc} mới sau khi đổi: {v}"],
        "look": ["{what}: {v}", "để tham khảo, {what}: {v}", "{what} {v} (công khai, chia sẻ được)"],
        "filler": ["Việc triển khai giờ làm vào thứ Năm.", "Người dùng thích câu trả lời ngắn gọn, rõ ràng.", "Môi trường test được reset mỗi đêm.",
                   "Test chập chờn trong module thanh toán vẫn chưa được sửa.", "Cuộc họp được rút ngắn 15 phút.",
                   "Mức log tạm thời là DEBUG, nhớ đổi lại.", "Thực tập sinh mới bắt đầu vào thứ Hai.",
                   "Không được chạy script migration hai lần.", "Ghi chú phát hành chưa được viết.", "Bản sao lưu giờ lưu trên NAS nội bộ."],
        "facts": ["Người dùng sống ở Đà Nẵng, múi giờ ICT.", "Thích ví dụ code bằng Kotlin.", "Không thích họp buổi sáng.", "Con mèo tên là Mướp."],
        "paste": ["đây là cái tôi có:", "đây là cấu hình bị lỗi:", "dán env để tham khảo:"],
        "reply": ["Đã hiểu, lỗi nằm ở dòng thứ hai.", "Giá trị này giờ đã nằm trong cuộc trò chuyện, nên đổi nó sau khi xong.", "Cấu hình ổn, vấn đề là cổng."],
        "greet": ["Chào {name},", "Anh/chị {name} thân mến,"],
        "bye": ["Cảm ơn,", "Trân trọng,"],
    },
    "pt": {
        "words": ["Notas", "Diário do projeto", "Ata de reunião", "Participantes", "Pauta", "Pendências", "Decisões", "Checklist de onboarding",
                  "Coisas para lembrar sobre o usuário", "Diário de depuração", "Notas de migração", "Descrição", "Passos para reproduzir",
                  "Comentários", "Resumo", "Causa raiz", "Correção", "Próximos passos", "Usuário", "Assistente", "antigo", "novo", "status",
                  "Configuração", "Notas de revisão"],
        "bare": ["a nova é {v}", "usa {v} pra staging", "ok, essa funciona: {v}", "rotacionada de novo, valor atual {v}", "cola {v} quando pedir",
                 "{v} (prod, não compartilhar)", "temporária até sexta: {v}"],
        "svc": ["a do {svc} é {v}", "credenciais {svc}: {v}", "{svc} -> {v}", "novo valor do {svc} depois da rotação: {v}"],
        "look": ["{what}: {v}", "pra referência, {what}: {v}", "{what} {v} (público, pode compartilhar)"],
        "filler": ["O deploy agora é às quintas.", "O usuário prefere respostas curtas e diretas.", "O ambiente de teste é resetado toda noite.",
                   "O teste instável do módulo de pagamentos ainda não foi corrigido.", "A reunião foi encurtada em 15 minutos.",
                   "O nível de log está em DEBUG temporariamente, lembrar de voltar.", "O novo estagiário começa na segunda.",
                   "O script de migração não pode rodar duas vezes.", "As notas de versão ainda não foram escritas.", "Os backups agora vão para o NAS local."],
        "facts": ["O usuário mora em Recife, fuso BRT.", "Prefere exemplos de código em Elixir.", "Não gosta de reuniões de manhã.", "A cachorra se chama Paçoca."],
        "paste": ["é isso que eu tenho:", "essa é a config que falha:", "colando o env pra contexto:"],
        "reply": ["Entendi, o erro vem da segunda linha.", "Esse valor agora está na conversa; vale rotacionar depois.", "A config parece ok, o problema é a porta."],
        "greet": ["Oi {name},", "Olá {name},"],
        "bye": ["Valeu,", "Abraços,"],
    },
    "pl": {
        "words": ["Notatki", "Dziennik projektu", "Notatki ze spotkania", "Uczestnicy", "Agenda", "Zadania", "Decyzje", "Checklista wdrożeniowa",
                  "Co pamiętać o użytkowniku", "Dziennik debugowania", "Notatki z migracji", "Opis", "Kroki do odtworzenia", "Komentarze",
                  "Podsumowanie", "Przyczyna", "Poprawka", "Następne kroki", "Użytkownik", "Asystent", "stare", "nowe", "status", "Konfiguracja",
                  "Notatki z przeglądu"],
        "bare": ["nowy to {v}", "do stagingu użyj {v}", "ok, ten działa: {v}", "znowu zrotowany, aktualna wartość {v}", "wklej {v}, jak zapyta",
                 "{v} (prod, nie udostępniać)", "tymczasowo do piątku: {v}"],
        "svc": ["ten do {svc}: {v}", "dane logowania {svc}: {v}", "{svc} -> {v}", "nowa wartość {svc} po rotacji: {v}"],
        "look": ["{what}: {v}", "dla porządku, {what}: {v}", "{what} {v} (publiczne, można udostępniać)"],
        "filler": ["Wdrożenia są teraz w czwartki.", "Użytkownik woli krótkie i konkretne odpowiedzi.", "Środowisko testowe jest resetowane co noc.",
                   "Niestabilny test w module płatności nadal nie jest naprawiony.", "Spotkanie skrócono o 15 minut.",
                   "Poziom logów tymczasowo DEBUG, nie zapomnieć przywrócić.", "Nowy stażysta zaczyna w poniedziałek.",
                   "Skryptu migracji nie wolno uruchamiać dwa razy.", "Notatki do wydania jeszcze nie są napisane.", "Kopie zapasowe idą teraz na lokalny NAS."],
        "facts": ["Użytkownik mieszka w Gdańsku, strefa CET.", "Woli przykłady kodu w Javie.", "Nie lubi porannych spotkań.", "Kot ma na imię Mruczek."],
        "paste": ["to mam:", "to jest config, który się wywala:", "wklejam env dla kontekstu:"],
        "reply": ["Jasne, błąd jest w drugiej linii.", "Ta wartość jest teraz w rozmowie, warto ją potem zmienić.", "Config wygląda dobrze, problemem jest port."],
        "greet": ["Cześć {name},", "Dzień dobry {name},"],
        "bye": ["Dzięki,", "Pozdrawiam,"],
    },
}  # fmt: skip

LANG_NAMES = {"en": "English", "tr": "Turkish", "ko": "Korean", "ru": "Russian", "hi": "Hindi", "sv": "Swedish",
              "vi": "Vietnamese", "pt": "Portuguese", "pl": "Polish"}  # fmt: skip


def word(lang: str, key: str) -> str:
    return LANG[lang]["words"][WORD_KEYS.index(key)]


# --------------------------------------------------------------------------------------
# rendering helpers
# --------------------------------------------------------------------------------------


class Doc:
    """One document being rendered: its context, language and the groups of items to place."""

    def __init__(self, ctx: str, lang: str, groups: list[Group]) -> None:
        self.ctx = ctx
        self.lang = lang
        self.groups = groups
        self.project = pick(PROJECTS)
        self.org = org()
        self.used: set[str] = set()

    def items(self) -> list[Item]:
        return [it for g in self.groups for it in g]

    def tr(self, key: str) -> str:
        return pick(LANG[self.lang][key])

    def w(self, key: str) -> str:
        return word(self.lang, key)

    def fill(self, n: int) -> list[str]:
        out = []
        for _ in range(n):
            pool = [x for x in LANG[self.lang]["filler"] if x not in self.used]
            if pool and chance(0.7):
                out.append(pick(pool))
                self.used.add(out[-1])
            else:
                out.append(tech_filler())
        return out

    def filler(self) -> str:
        return self.fill(1)[0]


def tech_filler() -> str:
    """Language-neutral journal noise: merges, deploys, numbers."""
    return pick([
        f"PR #{R.randint(10, 4000)} merged",
        f"deploy {R.randint(1, 4)}.{R.randint(0, 30)}.{R.randint(0, 9)} -> {pick(['staging', 'prod', 'canary'])} ✓",
        f"p99 {R.randint(90, 900)} ms, error rate {R.randint(0, 40) / 10}%",
        f"`make {pick(['migrate', 'lint', 'e2e', 'seed'])}` OK",
        f"{pick(PEOPLE)} on call this week",
        f"TODO: {pick(WORDS)} {pick(['cleanup', 'refactor', 'docs', 'tests'])}",
        f"{pick(['disk', 'memory', 'cpu'])} at {R.randint(40, 97)}% on {pick(['db', 'worker', 'cache'])}-{R.randint(1, 4)}",
        f"{pick(['ticket', 'incident'])} {rs(3, UPPER)}-{R.randint(10, 999)} {pick(['closed', 'reopened', 'escalated'])}",
    ])  # fmt: skip


def env_name(n: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", n).strip("_").upper()


def snake(n: str) -> str:
    return env_name(n).lower()


def camel(n: str) -> str:
    p = snake(n).split("_")
    return p[0] + "".join(x.capitalize() for x in p[1:])


def kebab(n: str) -> str:
    return snake(n).replace("_", "-")


def plain(m: str) -> str:
    return MARK_RE.sub("", m)


def esc_nl(m: str) -> str:
    return m.replace("\n", "\\n")


def indent_cont(m: str, pad: str) -> str:
    """Indent the continuation lines of ``m`` (labels keep the indentation, as they appear)."""
    return m.replace("\n", "\n" + pad)


def xml_escape(m: str) -> str:
    return m.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def svc_slug(it: Item) -> str:
    return kebab(it.svc.removeprefix("the ").removeprefix("my ")) or "misc"


def block_key(it: Item) -> str:
    return (
        "kubeconfig"
        if (it.block or "").startswith("apiVersion")
        else pick(["service_account", "credentials_json", "gcp_key"])
    )


def svc_of(d: Doc, it: Item) -> str:
    s = it.svc
    if d.lang != "en":
        for lead in ("the ", "my "):
            if s.startswith(lead):
                s = s[len(lead) :]
    return s


def say(d: Doc, it: Item, v: str) -> str:
    if not it.kind:
        return f"{it.svc}: {v}"
    if it.secret:
        tpl = d.tr("bare") if chance(0.45) else d.tr("svc")
        return tpl.replace("{svc}", svc_of(d, it)).replace("{v}", v)
    return d.tr("look").replace("{what}", it.svc).replace("{v}", v)


def fence(body: str, lang: str = "") -> str:
    return f"```{lang}\n{body}\n```"


def needs_quote(m: str) -> bool:
    p = plain(m)
    return any(c in p for c in " #;'\"$&|<>`{}") or p.startswith(("*", "@", "!", "%", "&", "["))


# ---- one key / value in many syntaxes ---------------------------------------------------


def kv_env(it: Item) -> str:
    n = env_name(it.name)
    if it.multiline:
        return f'{n}="{esc_nl(it.m)}"'
    q = '"' if needs_quote(it.m) else pick(["", "", '"', "'"])
    if q == "'" and "'" in plain(it.m):
        q = '"'
    sep = pick(["=", "=", "=", "=", " = ", "= ", "=\t"]) if not q else "="
    return f"{pick(['', '', '', 'export '])}{n}{sep}{q}{it.m}{q}"


def kv_yaml(it: Item, pad: str = "", style: Callable[[str], str] | None = None) -> str:
    k = (style or pick([snake, env_name, camel, snake]))(it.name)
    if it.multiline:
        return f"{pad}{k}: {pick(['|', '|-', '|'])}\n{pad}  " + indent_cont(it.m, pad + "  ")
    p = plain(it.m)
    if needs_quote(it.m) or ": " in p or p[:1] in "-?[{!&*>|%@`":
        return f'{pad}{k}: "{json_escape(it.m)}"'
    q = pick(["", "", '"', "'"])
    if q == '"':
        return f'{pad}{k}: "{json_escape(it.m)}"'
    return f"{pad}{k}: {q}{it.m}{q}"


def kv_json(it: Item, pad: str = "  ", style: Callable[[str], str] | None = None) -> str:
    return f'{pad}"{(style or pick([snake, camel, env_name]))(it.name)}": "{json_escape(it.m)}"'


def kv_toml(it: Item) -> str:
    k = snake(it.name)
    if it.multiline:
        return f'{k} = """\n{it.m}\n"""'
    if "'" not in plain(it.m) and chance(0.3):
        return f"{k} = '{it.m}'"
    return f'{k} = "{json_escape(it.m)}"'


def kv_ini(it: Item) -> str:
    k = pick([snake, camel])(it.name)
    return f"{k}{pick([' = ', '=', ' = '])}{indent_cont(it.m, '    ')}"


def kv_props(it: Item) -> str:
    k = it.name if "." in it.name else snake(it.name).replace("_", pick([".", "-", "."]))
    return f"{k}{pick(['=', ' = ', ': '])}{esc_nl(it.m)}"


def kv_xml(it: Item) -> str:
    if it.multiline:
        return f"<{camel(it.name)}>{xml_escape(it.m)}</{camel(it.name)}>"
    return pick([f'<add key="{env_name(it.name)}" value="{xml_escape(it.m)}" />', f"<{camel(it.name)}>{xml_escape(it.m)}</{camel(it.name)}>",
                 f'<property name="{snake(it.name).replace("_", ".")}" value="{xml_escape(it.m)}"/>'])  # fmt: skip


def kv_hcl(it: Item, pad: str = "  ") -> str:
    if it.multiline:
        return f"{pad}{snake(it.name)} = <<-EOT\n{it.m}\nEOT"
    if it.expr:
        return f"{pad}{snake(it.name)} = {it.m}"
    return f'{pad}{snake(it.name)} = "{json_escape(it.m)}"'


def kv_python(it: Item, pad: str = "") -> str:
    n = env_name(it.name)
    if it.expr:
        return f"{pad}{n} = {it.m}"
    if it.multiline:
        return f'{pad}{n} = """{it.m}"""'
    q = "'" if '"' in plain(it.m) else pick(['"', "'"])
    return pick([f"{pad}{n} = {q}{it.m}{q}", f"{pad}os.environ[{q}{n}{q}] = {q}{it.m}{q}", f"{pad}{snake(it.name)} = {q}{it.m}{q}",
                 f"{pad}os.environ.setdefault({q}{n}{q}, {q}{it.m}{q})"])  # fmt: skip


def kv_js(it: Item, pad: str = "") -> str:
    if it.expr:
        return f"{pad}const {camel(it.name)} = {it.m};"
    if it.multiline:
        return f"{pad}const {camel(it.name)} = `{it.m}`;"
    q = "'" if '"' in plain(it.m) else pick(['"', "'"])
    return pick([f"{pad}const {camel(it.name)} = {q}{it.m}{q};", f"{pad}process.env.{env_name(it.name)} ??= {q}{it.m}{q};",
                 f"{pad}export const {env_name(it.name)} = {q}{it.m}{q};", f"{pad}let {camel(it.name)} = {q}{it.m}{q}; // TODO move to env"])  # fmt: skip


def kv_go(it: Item, pad: str = "\t") -> str:
    name = camel(it.name)
    if it.expr:
        return f"{pad}{name} := {it.m}"
    if it.multiline or '"' in plain(it.m) or "\\" in plain(it.m):
        return f"{pad}{name} := `{it.m}`"
    return pick(
        [
            f'{pad}{name} := "{it.m}"',
            f'{pad}const {name} = "{it.m}"',
            f'{pad}os.Setenv("{env_name(it.name)}", "{it.m}")',
        ]
    )


def kv_shell(it: Item) -> str:
    n = env_name(it.name)
    if it.multiline:
        return f"{n}=\"$(cat <<'EOF'\n{it.m}\nEOF\n)\""
    if it.expr:
        return f"export {n}={it.m}"
    q = "'" if "'" not in plain(it.m) else '"'
    return pick(
        [
            f"export {n}={q}{it.m}{q}",
            f"{n}={q}{it.m}{q}",
            f"export {n}={q}{it.m}{q}  # {pick(['prod', 'staging', 'tmp'])}",
        ]
    )


def kv_powershell(it: Item) -> str:
    n = env_name(it.name)
    if it.expr:
        return f"${camel(it.name)} = {it.m}"
    if it.multiline:
        return f'${camel(it.name)} = @"\n{it.m}\n"@'
    return pick([f'$env:{n} = "{it.m}"', f"${camel(it.name)} = '{it.m}'",
                 f"[Environment]::SetEnvironmentVariable('{n}', '{it.m}', 'User')"])  # fmt: skip


def kv_docker(it: Item) -> str:
    n = env_name(it.name)
    if it.multiline:
        return f'ENV {n}="{esc_nl(it.m)}"'
    q = '"' if needs_quote(it.m) else ""
    return f"{pick(['ENV', 'ENV', 'ARG'])} {n}={q}{it.m}{q}"


def kv_sql(it: Item) -> str:
    p = plain(it.m)
    if p.startswith(("ALTER ROLE", "CREATE USER", "requirepass")):
        return it.m if not p.startswith("requirepass") else f"-- redis.conf: {it.m}"
    m = it.m.replace("'", "''")
    return pick([
        f"INSERT INTO app_settings (name, value) VALUES ('{snake(it.name)}', '{m}');",  # noqa: S608 - SQL text for a document, never executed
        f"UPDATE integrations SET credential = '{m}' WHERE provider = '{svc_slug(it)}';",  # noqa: S608
        f"-- {it.svc}: {it.m}",
    ])  # fmt: skip


def kv_csv_field(m: str) -> str:
    p = plain(m)
    if any(c in p for c in ',"\n'):
        return '"' + m.replace('"', '""') + '"'
    return m


def cli_of(it: Item) -> str:
    if it.cli and chance(0.75):
        return it.cli
    if it.header and chance(0.5):
        h, v = it.header
        return f'curl -sS https://api.{org()}.com/{pick(["v1/me", "v2/ping", "status"])} -H "{h}: {v}"'
    return kv_shell(it)


def prose_item(d: Doc, it: Item) -> str:
    """One item written into markdown / plain prose."""
    if it.block and chance(0.55):
        return say(
            d, it, "\n" + fence(it.block, pick(["", "json", "yaml", "hcl"]) if it.block.startswith("{") else "") + "\n"
        ).rstrip()
    if it.multiline:
        return say(d, it, "\n" + fence(it.m) + "\n").rstrip()
    r = R.random()
    if not it.secret:
        if r < 0.55:
            return say(d, it, pick([it.m, f"`{it.m}`"]))
        if r < 0.8:
            return f"{pick([it.name, snake(it.name)])}: {it.m}"
        return f"`{env_name(it.name)}={it.m}`"
    if r < 0.58:
        return say(d, it, pick([it.m, it.m, f"`{it.m}`", f"**{it.m}**"]))
    if r < 0.75:
        return f"`{kv_env(it)}`"
    if r < 0.88:
        return f"{pick([it.name, env_name(it.name)])}{pick([': ', ' = ', ' -> ', ':  '])}{it.m}"
    if it.header:
        return f"{pick(['header', 'Header', 'auth']) if d.lang == 'en' else 'HTTP'}: `{it.header[0]}: {it.header[1]}`"
    return say(d, it, it.m)


KV_BY_SYNTAX: dict[str, Callable[[Item], str]] = {
    "env": kv_env, "yaml": kv_yaml, "json": kv_json, "toml": kv_toml, "ini": kv_ini, "properties": kv_props, "xml": kv_xml,
    "hcl": kv_hcl, "python": kv_python, "javascript": kv_js, "go": kv_go, "shell": kv_shell, "powershell": kv_powershell,
    "dockerfile": kv_docker, "sql": kv_sql,
}  # fmt: skip


def snippet(items: list[Item], syntax: str | None = None) -> str:
    """A fenced snippet holding ``items`` in one syntax (picked if not given)."""
    syntax = syntax or pick(["env", "env", "yaml", "json", "shell", "toml", "python", "ini"])
    if syntax == "json":
        body = "{\n" + ",\n".join(kv_json(it) for it in items) + "\n}"
    else:
        body = "\n".join(KV_BY_SYNTAX[syntax](it) for it in items)
    return fence(body, {"env": pick(["", "env", "dotenv"]), "shell": "bash"}.get(syntax, syntax))


def group_prose(d: Doc, g: Group) -> str:
    """A whole group in prose: either one snippet, or one line per item."""
    if len(g) > 1 and chance(0.5) and not any(it.block for it in g):
        return d.tr("paste") + "\n" + snippet(g) if chance(0.5) else snippet(g)
    return "\n".join(prose_item(d, it) for it in g)


def bullets(lines: list[str], mark: str = "- ", pad: str = "  ") -> str:
    return "\n".join(mark + indent_cont(x, pad) for x in lines)


def frame_memory(d: Doc, body: str, name: str) -> str:
    """Wrap a narrative body as a memory file: plain markdown mostly, sometimes JSON- or YAML-framed."""
    r = R.random()
    path = f"/memories/{name}"
    if r < 0.1:
        obj = {"path": path, "updated": iso_ts(), "tags": [d.project, d.ctx.replace("_", "-")]}
        head = json.dumps(obj, ensure_ascii=False)[:-1]
        return head + ', "content": "' + json_escape(body) + '"}'
    if r < 0.16:
        return f"path: {path}\nupdated: {iso_date()}\nkind: {d.ctx}\ncontent: |\n  " + indent_cont(body, "  ")
    if r < 0.35:
        return f"---\ntitle: {d.project} {d.ctx.replace('_', ' ')}\nupdated: {iso_date()}\n---\n\n{body}"
    return body


# --------------------------------------------------------------------------------------
# narrative contexts
# --------------------------------------------------------------------------------------


def scatter(sections: list[list[str]], pieces: list[str]) -> None:
    for p in pieces:
        s = pick(sections)
        s.insert(R.randint(0, len(s)), p)


def r_journal(d: Doc) -> str:
    n = max(2, len(d.groups) + R.randint(0, 3)) + (R.randint(5, 16) if chance(0.35) else 0)
    dates = sorted({iso_date() for _ in range(n)})
    sections = [[f"- {x}" for x in d.fill(R.randint(1, 4))] for _ in dates]
    pieces = []
    for g in d.groups:
        p = group_prose(d, g)
        pieces.append(p if p.startswith("```") or chance(0.3) else "- " + indent_cont(p, "  "))
    scatter(sections, pieces)
    body = f"# {d.project}: {d.w('journal')}\n\n" + "\n\n".join(
        f"## {dt}\n" + "\n".join(s) for dt, s in zip(dates, sections, strict=True)
    )
    return frame_memory(d, body, f"{d.project}/journal.md")


NORMAL_CMDS = [
    ("git status -sb", "## main...origin/main\n M src/config.py"),
    ("ls", "Dockerfile  Makefile  README.md  docker-compose.yml  src  tests"),
    ("docker compose ps", "NAME       IMAGE        STATUS\napi-1      api:dev      Up 2 hours\ndb-1       postgres:16  Up 2 hours (healthy)"),
    ("make test", "pytest -q\n........................................ [100%]\n40 passed in 3.21s"),
    ("kubectl config current-context", "prod-eu-west-1"),
    ("uptime", " 14:02:11 up 12 days,  3:04,  2 users,  load average: 0.31, 0.22, 0.18"),
    ("df -h /", "Filesystem      Size  Used Avail Use% Mounted on\n/dev/nvme0n1p1   97G   61G   36G  63% /"),
    ("node --version", "v20.11.1"),
    ("python -V", "Python 3.11.7"),
]  # fmt: skip
OK_OUTPUTS = ["", "", "OK", "Login Succeeded", '{"ok":true}', "HTTP/2 200", "Configured.", "done", "✓ Logged in", "200"]


def look_cmd(it: Item) -> tuple[str, str]:
    """A shell command whose output shows the look-alike ``it``."""
    k, m = it.kind, it.m
    if k == "git_sha":
        return (
            ("git rev-parse HEAD", m)
            if len(plain(m)) == 40
            else ("git log --oneline -1", f"{m} {pick(['fix flaky test', 'bump deps', 'wip'])}")
        )
    if k == "sha256_checksum":
        return "sha256sum dist/app.tar.gz", f"{m}  dist/app.tar.gz"
    if k == "md5_or_etag":
        return "md5sum backup.sql.gz", f"{m}  backup.sql.gz"
    if k == "k8s_pod_name":
        return (
            "kubectl get pods -n prod",
            f"NAME                              READY   STATUS    RESTARTS   AGE\n{m}   1/1     Running   0          3d2h",
        )
    if k == "container_id":
        return "docker ps -q --filter name=api", m
    if k == "semver":
        return f"{pick(['helm', 'terraform', 'app'])} --version", m
    if k in ("ssh_public_key", "public_key_pem", "certificate", "wireguard_public_key"):
        return pick(["cat ~/.ssh/id_ed25519.pub", "cat public.pem", "wg show wg0 public-key"]), m
    return (
        f"grep -rn {snake(it.name)} config/",
        f"config/{pick(['app', 'prod', 'default'])}.yml:{R.randint(2, 90)}:  {snake(it.name)}: {m}",
    )


def r_terminal(d: Doc) -> str:
    u = pick([p.lower() for p in PEOPLE if p.isascii()] + ["dev", "ubuntu", "ec2-user"])
    h = pick(["devbox", "laptop", f"ip-10-0-{R.randint(0, 9)}-{R.randint(2, 250)}", "build-01", "bastion"])
    prompt = pick([f"{u}@{h}:~/{d.project}$ ", "$ ", f"➜  {d.project} git:(main) ", f"[{u}@{h} {d.project}]$ ", "% "])
    blocks: list[str] = []
    for g in d.groups:
        if len(g) > 1 and all(it.secret for it in g) and chance(0.5):
            blocks.append(
                f"{prompt}cat .env.{pick(['production', 'local', 'staging'])}\n" + "\n".join(kv_env(it) for it in g)
            )
            continue
        for it in g:
            if it.secret:
                cmd = cli_of(it)
                out = pick(OK_OUTPUTS) if not cmd.startswith(("export ", env_name(it.name) + "=")) else ""
                blocks.append(f"{prompt}{cmd}" + (f"\n{out}" if out else ""))
            else:
                c, o = look_cmd(it)
                blocks.append(f"{prompt}{c}\n{o}")
    for c, o in R.sample(NORMAL_CMDS, R.randint(1, 3)):
        blocks.insert(R.randint(0, len(blocks)), f"{prompt}{c}\n{o}")
    session = "\n".join(blocks)
    lead = f"{d.filler()}\n\n" if chance(0.6) else ""
    tail = f"\n\n{d.filler()}" if chance(0.4) else ""
    body = lead + (fence(session, pick(["", "console", "text", "bash"])) if chance(0.75) else session) + tail
    return frame_memory(d, body, f"sessions/{iso_date()}-{pick(['deploy', 'debug', 'setup'])}.md")


def r_chat(d: Doc) -> str:
    u, a = d.w("user"), d.w("assistant")
    style = pick(["bold", "plain", "heading", "arrow"])

    def turn(who: str, text: str) -> str:
        return {
            "bold": f"**{who}:** {text}",
            "plain": f"{who}: {text}",
            "heading": f"### {who}\n{text}",
            "arrow": f"> {who}\n{text}",
        }[style]

    turns = [turn(u if i % 2 == 0 else a, d.filler()) for i in range(R.choice([0, 0, 2, 4, 6]))]
    for g in d.groups:
        if chance(0.55):
            turns.append(
                turn(u, d.tr("paste") + "\n" + (snippet(g) if all(not it.block for it in g) else group_prose(d, g)))
            )
        else:
            turns.append(turn(u, group_prose(d, g)))
        turns.append(turn(a, d.tr("reply")))
    head = f"# {pick(['Chat', 'Transcript', 'Conversation'])} {iso_date()} ({d.project})\n\n" if chance(0.7) else ""
    return frame_memory(d, head + "\n\n".join(turns), f"chats/{iso_date()}.md")


def r_meeting(d: Doc) -> str:
    people = R.sample(PEOPLE, R.randint(3, 6))
    agenda = bullets(d.fill(R.randint(2, 3)))
    notes = [f"- {x}" for x in d.fill(R.randint(1, 6))]
    actions = [f"- [ ] @{pick(people)} {x}" for x in d.fill(R.randint(1, 2))]
    for g in d.groups:
        p = group_prose(d, g)
        target = actions if chance(0.3) and "```" not in p else notes
        lead = f"- [ ] @{pick(people)} " if target is actions else "- "
        target.insert(R.randint(0, len(target)), lead + indent_cont(p, "  "))
    body = (f"# {d.w('meeting')}: {d.project} ({iso_date()})\n\n{d.w('attendees')}: {', '.join(people)}\n\n## {d.w('agenda')}\n{agenda}\n\n"
            f"## {d.w('decisions')}\n" + "\n".join(notes) + f"\n\n## {d.w('actions')}\n" + "\n".join(actions))  # fmt: skip
    return frame_memory(d, body, f"meetings/{iso_date()}.md")


ONBOARD_STEPS = ["Install Docker Desktop", "Clone the monorepo", "Join #eng-alerts", "Request VPN access", "Set up 2FA on GitHub",
                 "Read the incident runbook", "Get added to the on-call rota", "Install the pre-commit hooks"]  # fmt: skip


def r_onboarding(d: Doc) -> str:
    lines = [f"- [{pick(['x', ' '])}] {s}" for s in R.sample(ONBOARD_STEPS, R.randint(2, 4))]
    for g in d.groups:
        sub = "\n".join("  - " + indent_cont(prose_item(d, it), "    ") for it in g)
        title = g[-1].svc if g[-1].secret else d.filler()
        lines.insert(R.randint(0, len(lines)), f"- [{pick(['x', 'x', ' '])}] {title}\n{sub}")
    body = f"# {d.w('onboarding')}: {d.project}\n\n{d.filler()}\n\n" + "\n".join(lines)
    return frame_memory(d, body, f"onboarding/{d.project}.md")


def r_user_facts(d: Doc) -> str:
    facts = [f"- {x}" for x in R.sample(LANG[d.lang]["facts"], R.randint(2, 4))]
    for g in d.groups:
        for it in g:
            facts.insert(R.randint(0, len(facts)), "- " + indent_cont(prose_item(d, it), "  "))
    who = pick(PEOPLE)
    body = f"# {d.w('remember')} ({who})\n\n" + "\n".join(facts)
    return frame_memory(d, body, pick(["user.md", "about_user.md", f"people/{who.lower()}.md"]))


def log_line(it: Item) -> str:
    ts = f"{iso_date()} {hm()}:{R.randint(0, 59):02d},{R.randint(0, 999):03d}"
    if it.header and chance(0.6):
        h, v = it.header
        return f"{ts} DEBUG urllib3.connectionpool: send: b'GET /v1/{pick(['sync', 'items', 'me'])} HTTP/1.1\\r\\n{h}: {v}\\r\\n'"
    v = esc_nl(it.m)
    return pick([f"{ts} INFO  config loaded {snake(it.name)}={v}", f"{ts} WARN  using fallback {env_name(it.name)}='{v}'",
                 f"[{ts}] DEBUG settings: {{'{snake(it.name)}': '{v}'}}"])  # fmt: skip


def r_debug_diary(d: Doc) -> str:
    entries = [f"**{hm()}** {x}" for x in d.fill(R.randint(2, 8))]
    for g in d.groups:
        if chance(0.5):
            entries.insert(
                R.randint(0, len(entries)),
                f"**{hm()}** {d.filler()}\n" + fence("\n".join(log_line(it) for it in g), "log"),
            )
        else:
            entries.insert(R.randint(0, len(entries)), f"**{hm()}** " + group_prose(d, g))
    body = (
        f"# {d.w('debug')}: {d.project} ({iso_date()})\n\n"
        + "\n\n".join(entries)
        + f"\n\n**{d.w('cause')}:** {d.filler()}"
    )
    return frame_memory(d, body, f"debug/{d.project}-{iso_date()}.md")


def r_migration(d: Doc) -> str:
    old, new = pick(
        [
            ("Heroku", "Fly.io"),
            ("MySQL 5.7", "Postgres 16"),
            ("Jenkins", "GitHub Actions"),
            ("EC2", "ECS Fargate"),
            ("Travis", "CircleCI"),
        ]
    )
    rows = ["| region | eu-west-1 | eu-central-1 | |", "| replicas | 2 | 3 | |"]
    extra: list[str] = []
    for g in d.groups:
        for it in g:
            if it.multiline or it.block or "|" in plain(it.m):
                extra.append(prose_item(d, it))
            elif it.secret:
                rows.insert(
                    R.randint(0, len(rows)),
                    f"| `{env_name(it.name)}` | {pick(['(unchanged)', '-', 'see vault'])} | `{it.m}` | {pick(['rotated', 'new', d.w('new')])} |",
                )
            else:
                rows.insert(R.randint(0, len(rows)), f"| {snake(it.name)} | {it.m} | {pick(['same', it.m])} | |")
    table = f"| key | {d.w('old')} | {d.w('new')} | {d.w('status')} |\n|---|---|---|---|\n" + "\n".join(rows)
    body = (
        f"# {d.w('migration')}: {old} -> {new}\n\n{d.filler()}\n\n{table}\n"
        + ("\n" + "\n\n".join(extra) if extra else "")
        + f"\n\n## {d.w('next')}\n"
        + bullets(d.fill(2))
    )
    return frame_memory(d, body, f"migrations/{kebab(old)}-to-{kebab(new)}.md")


def look_shell(it: Item) -> str:
    k, m = it.kind, it.m
    return {
        "git_sha": f"git checkout {m}",
        "container_digest": f"docker pull {m}",
        "sha256_checksum": f"echo '{m}  app.tar.gz' | sha256sum -c",
        "k8s_pod_name": f"kubectl logs -f {m} -n prod",
        "url": f"open '{m}'",
        "short_link": f"curl -sIL {m} | grep -i location",
        "semver": f"git tag {m if plain(m).startswith('v') else 'v' + m}",
        "container_id": f"docker logs --tail 50 {m}",
        "url_slug_id": f"yt-dlp '{m}'",
        "trace_id": f"grep {m} /var/log/app/*.log",
        "request_id": f"grep -r {m} logs/",
    }.get(k, f"export {env_name(it.name)}={m}" if not it.multiline else f"echo '{esc_nl(m)}'")


def r_shell_history(d: Doc) -> str:
    cmds = [
        "cd ~/src/" + d.project,
        "git pull --rebase",
        "docker compose up -d",
        "ls -la",
        "vim .env",
        "history | tail",
    ]
    R.shuffle(cmds)
    cmds = cmds[: R.randint(2, 5)]
    for g in d.groups:
        for it in g:
            c = cli_of(it) if it.secret else look_shell(it)
            cmds.insert(R.randint(0, len(cmds)), c)
    style = pick(["bash", "zsh", "plain"])
    start = R.randint(1_700_000_000, 1_790_000_000)
    if style == "bash":
        first = R.randint(100, 1900)
        lines = [f"{first + i:5d}  {c}" for i, c in enumerate(cmds)]
    elif style == "zsh":
        lines = [f": {start + 37 * i}:0;{c}" for i, c in enumerate(cmds)]
    else:
        lines = cmds
    head = pick(
        [f"# {pick(['~/.bash_history', '~/.zsh_history', 'history'])} ({d.project})\n", f"{d.filler()}\n\n", ""]
    )
    body = head + (fence("\n".join(lines)) if chance(0.5) else "\n".join(lines))
    return frame_memory(d, body, f"shell/{pick(['history', 'zsh_history', 'bash_history'])}-{iso_date()}.txt")


def r_ci_log(d: Doc) -> str:
    y, mo, da = rdate()
    sec = R.randint(0, 3000)

    def ts() -> str:
        nonlocal sec
        sec += R.randint(0, 7)
        return f"{y}-{mo:02d}-{da:02d}T{10 + sec // 3600:02d}:{sec // 60 % 60:02d}:{sec % 60:02d}.{rs(7, DIGITS)}Z"

    out = ["##[group]Run actions/checkout@v4", "##[endgroup]", "##[group]Run ./scripts/deploy.sh"]
    for g in d.groups:
        for it in g:
            if it.secret:
                line = pick(
                    [
                        f"+ {cli_of(it)}",
                        f"+ export {env_name(it.name)}={esc_nl(it.m)}",
                        f"{env_name(it.name)}={esc_nl(it.m)}",
                    ]
                )
            else:
                line = pick([f"{it.svc}: {it.m}", f"+ {look_shell(it)}", f"{snake(it.name)}={esc_nl(it.m)}"])
            out.append(esc_nl(line))
    out.insert(R.randint(3, len(out)), f"{pick(['Successfully built', 'Pushed', 'Deployed'])} {d.project}")
    out += ["##[endgroup]", "Post job cleanup.", "Cleaning up orphan processes"]
    out = [f"{ts()} {x}" for x in out]
    head = f"CI {pick(['run', 'job', 'build'])} #{R.randint(100, 99999)} ({d.project}, {pick(['main', 'release', 'fix/' + pick(WORDS)])})\n\n"
    return frame_memory(
        d, head + fence("\n".join(out), "text") + f"\n\n{d.filler()}", f"ci/{d.project}-{R.randint(100, 9999)}.md"
    )


def r_crash_report(d: Doc) -> str:
    mod = f"/srv/{d.project}/app"
    tb = ("Traceback (most recent call last):\n"
          f'  File "{mod}/client.py", line {R.randint(20, 300)}, in fetch\n    resp = session.get(url, headers=headers, timeout=10)\n'
          f'  File "{mod}/retry.py", line {R.randint(20, 300)}, in wrapped\n    return fn(*args, **kwargs)\n'
          f"requests.exceptions.HTTPError: {pick(['401 Client Error: Unauthorized', '403 Client Error: Forbidden', '500 Server Error'])} "
          f"for url: https://api.{d.org}.com/v{R.randint(1, 3)}/{pick(['sync', 'orders', 'events'])}")  # fmt: skip
    local_lines, env_lines = [], []
    wrap = chance(0.3)
    for g in d.groups:
        for it in g:
            if chance(0.5) and not it.multiline:
                val = f"'{it.m}'" if not it.expr else it.m
                local_lines.append(f"    {snake(it.name)} = {val}")
            else:
                v = wrap_marked(it.m, 76) if wrap and not it.multiline and len(plain(it.m)) > 90 else esc_nl(it.m)
                env_lines.append(f"{env_name(it.name)}={v}")
    parts = [f"# crash {iso_ts()} ({d.project})", d.filler(), fence(tb, "pytb")]
    if local_lines:
        parts.append("Locals (frame 0):\n" + fence("\n".join(local_lines)))
    if env_lines:
        parts.append(("Environment (wrapped):\n" if wrap else "Environment:\n") + fence("\n".join(env_lines)))
    return frame_memory(d, "\n\n".join(parts), f"crashes/{d.project}-{iso_date()}.md")


def r_email(d: Doc) -> str:
    a, b = R.sample(PEOPLE, 2)
    mail = {x: f"{x.lower().encode('ascii', 'ignore').decode() or 'user'}@{d.org}.com" for x in (a, b)}
    head = (f"From: {a} <{mail[a]}>\nTo: {b} <{mail[b]}>\nSubject: {pick(['Re: ', 'Fwd: ', ''])}{d.project} {pick(['access', 'credentials', 'setup', 'handover'])}\n"
            f"Date: {pick(['Mon', 'Tue', 'Wed', 'Thu', 'Fri'])}, {R.randint(1, 28):02d} {pick(['Jan', 'Mar', 'Jun', 'Sep', 'Nov'])} {R.randint(2024, 2026)} {hm()}:00 +0{R.randint(0, 3)}00\n"
            f"Message-ID: <{ulid().lower()}@mail.{d.org}.com>")  # fmt: skip
    if chance(0.35):
        for g in d.groups:
            for it in g:
                if it.kind and len(plain(it.m)) > 90 and not it.multiline:
                    it.m = wrap_marked(it.m, 72)
    body = [d.tr("greet").replace("{name}", b), *d.fill(R.randint(1, 3))]
    quoted: list[str] = []
    for g in d.groups:
        (quoted if chance(0.3) else body).append(group_prose(d, g))
    body += [d.tr("bye"), a]
    text = head + "\n\n" + "\n\n".join(body)
    if quoted:
        q = "\n\n".join([d.filler(), *quoted])
        text += f"\n\nOn {iso_date()}, {b} wrote:\n> " + indent_cont(q, "> ")
    return frame_memory(d, text, f"mail/{iso_date()}-{kebab(d.project)}.eml.md")


def r_ticket(d: Doc) -> str:
    key = f"{rs(3, UPPER)}-{R.randint(10, 9999)}"
    people = R.sample(PEOPLE, 3)
    desc, comments = [d.filler()], []
    for g in d.groups:
        p = group_prose(d, g)
        if chance(0.5):
            desc.append(p)
        else:
            comments.append(f"**{pick(people)}** ({iso_date()}): {p}")
    comments.append(f"**{pick(people)}** ({iso_date()}): {d.filler()}")
    steps = "\n".join(f"{i}. {x}" for i, x in enumerate(d.fill(2), 1))
    body = (f"# {key}: {d.project} {pick(['auth failures', 'integration broken', 'rotate credentials', 'flaky deploy'])}\n\n"
            f"Status: {pick(['Open', 'In Progress', 'Done'])} | Priority: {pick(['P1', 'P2', 'P3'])} | Assignee: {people[0]}\n\n"
            f"## {d.w('description')}\n" + "\n\n".join(desc) + f"\n\n## {d.w('steps')}\n{steps}\n\n## {d.w('comments')}\n" + "\n\n".join(comments))  # fmt: skip
    return frame_memory(d, body, f"tickets/{key}.md")


def r_notebook(d: Doc) -> str:
    def src(lines: list[str]) -> list[str]:
        return [x + "\n" for x in lines[:-1]] + lines[-1:]

    cells: list[dict[str, object]] = [
        {"cell_type": "markdown", "metadata": {}, "source": src([f"# {d.project}", d.filler()])}
    ]
    code = ["import os", "import requests"]
    outputs: list[str] = []
    for g in d.groups:
        for it in g:
            if it.secret or chance(0.5):
                flat = Item(it.kind, it.secret, esc_nl(it.m), it.name, it.svc, expr=it.expr)
                code.append(kv_python(flat))
            else:
                outputs.append(f"{it.svc}: {it.m}")
    code.append(f"resp = requests.get('https://api.{d.org}.com/v1/status')")
    cells.append({"cell_type": "code", "execution_count": R.randint(1, 40), "metadata": {},
                  "outputs": [{"name": "stdout", "output_type": "stream", "text": src(outputs or ["200"])}], "source": src(code)})  # fmt: skip
    nb = {
        "cells": cells,
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(nb, ensure_ascii=False, indent=1)


REVIEW_REMARKS = ["please don't commit real credentials, use the secret store", "this needs to come from the environment", "nit: rename this",
                  "LGTM once the key is rotated", "why is this hard-coded?", "can we move this to SOPS?"]  # fmt: skip


def r_code_review(d: Doc) -> str:
    parts = [f"# {d.w('review')}: PR #{R.randint(10, 4000)} ({d.org}/{d.project})", d.filler()]
    for g in d.groups:
        syntax, path = pick(
            [
                ("python", "app/settings.py"),
                ("yaml", "deploy/values.yaml"),
                ("env", ".env.example"),
                ("javascript", "src/config.js"),
            ]
        )
        old = [f" # {pick(WORDS)} settings" if syntax in ("python", "yaml", "env") else " // settings"]
        new = []
        for it in g:
            line = KV_BY_SYNTAX[syntax](it)
            new.append("\n".join("+" + x for x in line.split("\n")))
        hunk = f"@@ -{R.randint(1, 80)},{R.randint(3, 9)} +{R.randint(1, 80)},{R.randint(3, 9)} @@\n" + "\n".join(
            old + new
        )
        parts.append(
            f"**{pick(PEOPLE)}** on `{path}`:\n"
            + fence(f"--- a/{path}\n+++ b/{path}\n{hunk}", "diff")
            + f"\n> {pick(REVIEW_REMARKS)}"
        )
    return frame_memory(d, "\n\n".join(parts), f"reviews/{d.project}-{R.randint(10, 999)}.md")


def r_quick_note(d: Doc) -> str:
    lines = [prose_item(d, it) for g in d.groups for it in g]
    if chance(0.6):
        lines.insert(R.randint(0, len(lines)), d.filler())
    return frame_memory(d, "\n".join(lines), f"{pick(['scratch', 'todo', 'inbox', 'misc'])}.txt")


# --------------------------------------------------------------------------------------
# structured files
# --------------------------------------------------------------------------------------

SECTIONS = [
    "database",
    "payments",
    "integrations",
    "auth",
    "storage",
    "notifications",
    "observability",
    "ci",
    "deploy",
    "mail",
    "ai",
]


def section_split(d: Doc) -> list[tuple[str, list[Item]]]:
    names = R.sample(SECTIONS, min(len(SECTIONS), max(1, min(len(d.groups), R.randint(1, 3)))))
    out: dict[str, list[Item]] = {n: [] for n in names}
    for g in d.groups:
        out[pick(names)].extend(g)
    return [(n, its) for n, its in out.items() if its]


def r_json(d: Doc) -> str:
    blocks = [
        f'  "_note": "{json_escape(d.filler())}"',
        f'  "service": "{d.project}"',
        f'  "environment": "{pick(["production", "staging", "dev"])}"',
    ]
    for name, its in section_split(d):
        inner = []
        for it in its:
            if it.block and it.block.startswith("{"):
                inner.append(f'    "{block_key(it)}": ' + indent_cont(it.block, "    "))
            else:
                inner.append(kv_json(it, "    "))
        blocks.append(f'  "{name}": {{\n' + ",\n".join(inner) + "\n  }")
    R.shuffle(blocks)
    return "{\n" + ",\n".join(blocks) + "\n}"


def r_yaml(d: Doc) -> str:
    style = pick([snake, snake, camel, kebab])
    out = [
        f"# {d.filler()}",
        f"app:\n  name: {d.project}\n  env: {pick(['production', 'staging'])}\n  port: {pick([8080, 3000, 8000])}",
    ]
    for name, its in section_split(d):
        lines = []
        for it in its:
            if it.block:
                lines.append(f"  {style(block_key(it))}: |\n    " + indent_cont(it.block, "    "))
            else:
                lines.append(kv_yaml(it, "  ", style))
        out.append(f"{name}:\n" + "\n".join(lines))
    return "\n".join(out)


def r_toml(d: Doc) -> str:
    out = [f"# {d.filler()}", f'[app]\nname = "{d.project}"\nworkers = {R.randint(2, 16)}']
    for name, its in section_split(d):
        out.append(f"\n[{name}]\n" + "\n".join(kv_toml(it) for it in its))
    return "\n".join(out)


def r_ini(d: Doc) -> str:
    c = pick([";", "#"])
    out = [f"{c} {d.filler()}", f"[general]\nname = {d.project}\ndebug = false"]
    for name, its in section_split(d):
        out.append(f"\n[{name}]\n" + "\n".join(kv_ini(it) for it in its))
    return "\n".join(out)


def r_env(d: Doc) -> str:
    lines = [
        f"# {d.filler()}",
        f"NODE_ENV={pick(['production', 'development'])}",
        f"PORT={pick([3000, 8080, 5000])}",
        f"APP_NAME={d.project}",
    ]
    for g in d.groups:
        if chance(0.3):
            lines.append(f"\n# {g[-1].svc}")
        lines.extend(kv_env(it) for it in g)
    if chance(0.4):
        lines.insert(R.randint(1, len(lines)), f"# {d.filler()}")
    return "\n".join(lines)


def r_xml(d: Doc) -> str:
    if chance(0.5):
        inner = "\n".join("    " + kv_xml(it) for it in d.items())
        return (f'<?xml version="1.0" encoding="utf-8"?>\n<!-- {d.filler()} -->\n<configuration>\n  <appSettings>\n{inner}\n  </appSettings>\n'
                f'  <system.web><compilation debug="false" targetFramework="4.8" /></system.web>\n</configuration>')  # fmt: skip
    servers = []
    for it in d.items():
        servers.append(f"    <server>\n      <id>{svc_slug(it)}</id>\n      <username>{pick(DB_USERS)}</username>\n"
                       f"      <password>{xml_escape(it.m)}</password>\n    </server>")  # fmt: skip
    return f"<settings>\n  <!-- {d.filler()} -->\n  <servers>\n" + "\n".join(servers) + "\n  </servers>\n</settings>"


def r_hcl(d: Doc) -> str:
    out = [f"# {d.filler()}"]
    for g in d.groups:
        form = pick(["tfvars", "variable", "provider", "locals"])
        if form == "tfvars":
            out.append("\n".join(kv_hcl(it, "") for it in g))
        elif form == "variable":
            for it in g:
                out.append(
                    f'variable "{snake(it.name)}" {{\n  type      = string\n  sensitive = {pick(["true", "false"])}\n'
                    + kv_hcl(it).replace(f"  {snake(it.name)} =", "  default  =", 1)
                    + "\n}"
                )
        elif form == "provider":
            out.append(
                f'provider "{pick(["aws", "cloudflare", "datadog", "github", "vault"])}" {{\n'
                + "\n".join(kv_hcl(it) for it in g)
                + "\n}"
            )
        else:
            out.append("locals {\n" + "\n".join(kv_hcl(it) for it in g) + "\n}")
    return "\n\n".join(out)


def r_properties(d: Doc) -> str:
    lines = [f"# {d.filler()}", f"spring.application.name={d.project}", f"server.port={pick([8080, 8443, 9090])}"]
    for it in d.items():
        lines.append(kv_props(it))
    return "\n".join(lines)


def r_csv(d: Doc) -> str:
    rows = ["service,environment,name,value,owner,last_rotated,notes"]
    for it in d.items():
        note = kv_csv_field(d.filler()) if chance(0.3) else ""
        rows.append(
            ",".join(
                [
                    svc_slug(it),
                    pick(["prod", "staging", "dev"]),
                    env_name(it.name),
                    kv_csv_field(it.m),
                    pick(PEOPLE),
                    iso_date(),
                    note,
                ]
            )
        )
    return "\n".join(rows)


# --------------------------------------------------------------------------------------
# code and infrastructure files
# --------------------------------------------------------------------------------------


def r_python(d: Doc) -> str:
    out = [f'"""{d.project} client. {d.filler()}"""', "import os", "", "import requests", ""]
    for it in d.items():
        if it.header and chance(0.4):
            h, v = it.header
            out.append(f'HEADERS = {{"{h}": "{v}", "Accept": "application/json"}}')
        else:
            out.append(kv_python(it))
    out += [
        "",
        "",
        "def main() -> None:",
        f"    resp = requests.get('https://api.{d.org}.com/v1/ping', timeout=5)",
        "    resp.raise_for_status()",
    ]
    return "\n".join(out)


def r_javascript(d: Doc) -> str:
    out = [f"// {d.filler()}", "import fetch from 'node-fetch';", ""]
    for it in d.items():
        if it.header and chance(0.4):
            h, v = it.header
            out.append(
                f"const res = await fetch('https://api.{d.org}.com/v2/{pick(['me', 'items'])}', {{\n  headers: {{ '{h}': '{v}' }},\n}});"
            )
        else:
            out.append(kv_js(it))
    return "\n".join(out)


def r_go(d: Doc) -> str:
    body = []
    for it in d.items():
        if it.header and chance(0.4):
            h, v = it.header
            body.append(f'\treq.Header.Set("{h}", "{v}")')
        else:
            body.append(kv_go(it))
    return (f"// {d.filler()}\npackage main\n\nimport (\n\t\"net/http\"\n\t\"os\"\n)\n\nfunc main() {{\n"
            f"\treq, _ := http.NewRequest(\"GET\", \"https://api.{d.org}.com/v1/health\", nil)\n" + "\n".join(body) + "\n\t_ = req\n}")  # fmt: skip


def r_sql(d: Doc) -> str:
    out = [f"-- {d.filler()}", f"-- migration {R.randint(1, 400):04d}_{pick(WORDS)}.sql", "BEGIN;"]
    for it in d.items():
        out.append(kv_sql(it))
    out.append("COMMIT;")
    return "\n".join(out)


def r_powershell(d: Doc) -> str:
    out = [f"# {d.filler()}", "$ErrorActionPreference = 'Stop'"]
    for it in d.items():
        if it.header and chance(0.4):
            h, v = it.header
            out.append(f"Invoke-RestMethod -Uri 'https://api.{d.org}.com/v1/status' -Headers @{{ '{h}' = '{v}' }}")
        else:
            out.append(kv_powershell(it))
    return "\n".join(out)


def r_docker_compose(d: Doc) -> str:
    listy = chance(0.5)
    env = []
    for it in d.items():
        if listy and not it.multiline:
            env.append(f"      - {env_name(it.name)}={it.m}")
        else:
            env.append(kv_yaml(it, "      ", env_name))
    kw = "environment:"
    return (f"# {d.filler()}\nservices:\n  {d.project}:\n    image: ghcr.io/{d.org}/{d.project}:{R.randint(1, 9)}.{R.randint(0, 20)}\n"
            f"    ports:\n      - \"{pick([8080, 3000])}:{pick([8080, 3000])}\"\n    {kw}\n" + "\n".join(env) + "\n  db:\n    image: postgres:16\n")  # fmt: skip


def r_kubernetes(d: Doc) -> str:
    secrets = [it for it in d.items() if it.secret]
    looks = [it for it in d.items() if not it.secret]
    docs = []
    if secrets:
        docs.append(f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {d.project}-secrets\n  namespace: {pick(['prod', 'default', 'apps'])}\ntype: Opaque\nstringData:\n"
                    + "\n".join(kv_yaml(it, "  ", env_name) for it in secrets))  # fmt: skip
    if looks:
        docs.append(
            f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {d.project}-config\ndata:\n"
            + "\n".join(kv_yaml(it, "  ", env_name) for it in looks)
        )
    return f"# {d.filler()}\n" + "\n---\n".join(docs)


def r_github_actions(d: Doc) -> str:
    env = [kv_yaml(it, "  ", env_name) for it in d.items()]
    return (f"# {d.filler()}\nname: deploy\non:\n  push:\n    branches: [main]\nenv:\n" + "\n".join(env) +
            "\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: ./scripts/deploy.sh\n")  # fmt: skip


def r_dockerfile(d: Doc) -> str:
    out = [
        f"# {d.filler()}",
        f"FROM {pick(['python:3.12-slim', 'node:20-alpine', 'golang:1.22', 'ruby:3.3'])}",
        "WORKDIR /app",
    ]
    for it in d.items():
        if it.secret and it.cli and chance(0.4) and not it.multiline:
            out.append(f"RUN {it.cli}")
        else:
            out.append(kv_docker(it))
    out += ["COPY . .", f'CMD ["./{d.project}"]']
    return "\n".join(out)


RESP_HEADER = {"request_id": "x-request-id", "md5_or_etag": "etag", "trace_id": "traceparent", "semver": "x-api-version", "url": "link",
               "ulid": "x-event-id", "uuid": "x-correlation-id", "date_time": "date"}  # fmt: skip


def r_http(d: Doc) -> str:
    hdrs, body_items, resp = [], [], []
    for it in d.items():
        if it.secret and it.header and chance(0.7):
            hdrs.append(f"{it.header[0]}: {it.header[1]}")
        elif it.secret:
            body_items.append(it)
        elif it.kind in RESP_HEADER:
            resp.append(f"{RESP_HEADER[it.kind]}: {it.m}")
        else:
            body_items.append(it)
    path = f"/v{R.randint(1, 3)}/{pick(['integrations', 'settings', 'tokens', 'webhooks'])}"
    body = "{\n" + ",\n".join(kv_json(it, "  ", camel) for it in body_items) + "\n}" if body_items else ""
    req = (
        f"POST {path} HTTP/1.1\nHost: api.{d.org}.com\nContent-Type: application/json\n"
        + "".join(h + "\n" for h in hdrs)
        + "\n"
        + body
    )
    res = f"HTTP/1.1 {pick(['200 OK', '201 Created', '401 Unauthorized'])}\ncontent-type: application/json\n" + "".join(
        r + "\n" for r in resp
    )
    return f"{d.filler()}\n\n" + fence(req.rstrip(), "http") + "\n\n" + fence(res.rstrip(), "http")


def r_systemd(d: Doc) -> str:
    env = []
    for it in d.items():
        v = esc_nl(it.m)
        env.append(pick([f'Environment="{env_name(it.name)}={v}"', f"Environment={env_name(it.name)}={v}"]))
    return (f"# {d.filler()}\n[Unit]\nDescription={d.project} worker\nAfter=network-online.target\n\n[Service]\nUser={pick(DB_USERS)}\n"
            + "\n".join(env) + f"\nExecStart=/opt/{d.project}/bin/{d.project} --config /etc/{d.project}/config.toml\nRestart=on-failure\n\n[Install]\nWantedBy=multi-user.target")  # fmt: skip


RENDERERS: dict[str, Callable[[Doc], str]] = {
    "journal": r_journal, "terminal": r_terminal, "chat": r_chat, "meeting_notes": r_meeting, "onboarding": r_onboarding,
    "user_facts": r_user_facts, "debug_diary": r_debug_diary, "migration_notes": r_migration, "shell_history": r_shell_history,
    "ci_log": r_ci_log, "crash_report": r_crash_report, "email": r_email, "ticket": r_ticket, "notebook": r_notebook,
    "code_review": r_code_review, "quick_note": r_quick_note,
    "json": r_json, "yaml": r_yaml, "toml": r_toml, "ini": r_ini, "env": r_env, "xml": r_xml, "hcl": r_hcl,
    "properties": r_properties, "csv": r_csv,
    "python": r_python, "javascript": r_javascript, "go": r_go, "sql": r_sql, "powershell": r_powershell,
    "docker_compose": r_docker_compose, "kubernetes": r_kubernetes, "github_actions": r_github_actions,
    "dockerfile": r_dockerfile, "http": r_http, "systemd": r_systemd,
}  # fmt: skip
NARRATIVE = list(RENDERERS)[:16]


# --------------------------------------------------------------------------------------
# planning: which documents hold which kinds
# --------------------------------------------------------------------------------------

CONTEXTS = list(RENDERERS)
SECRET_TARGET = 16
LOOK_TARGET = 32
LANG_WEIGHTS = {
    "en": 0.52,
    "tr": 0.06,
    "ko": 0.06,
    "ru": 0.06,
    "hi": 0.06,
    "sv": 0.06,
    "vi": 0.06,
    "pt": 0.06,
    "pl": 0.06,
}


@dataclass
class Plan:
    ctx: str
    lang: str
    secret_kinds: list[str]
    look_kinds: list[str]


def spread(docs: list[int], total: int, weight: Callable[[int], float], cap: int, base: int) -> dict[int, int]:
    """Hand out ``total`` slots over ``docs``: ``base`` each, the rest by weight, at most ``cap`` per document."""
    n = dict.fromkeys(docs, base)
    left = total - base * len(docs)
    weights = [weight(i) for i in docs]
    while left > 0:
        i = R.choices(docs, weights)[0]
        if n[i] < cap:
            n[i] += 1
            left -= 1
    return n


def fill_kinds(
    order: list[int], counts: dict[int, int], ctxs: list[str], kinds: list[str], target: int
) -> dict[int, list[str]]:
    remaining = dict.fromkeys(kinds, target)
    seen: dict[str, set[str]] = {k: set() for k in kinds}
    out: dict[int, list[str]] = {}
    for i in order:
        chosen: list[str] = []
        for _ in range(counts[i]):
            cands = [k for k in kinds if remaining[k] > 0 and k not in chosen]
            if not cands:
                break
            best = max(cands, key=lambda k: remaining[k] + (4 if ctxs[i] not in seen[k] else 0) + R.random())
            chosen.append(best)
            remaining[best] -= 1
            seen[best].add(ctxs[i])
        out[i] = chosen
    if any(remaining.values()):
        raise RuntimeError(f"unplaced kinds: {[k for k, v in remaining.items() if v]}")
    return out


def make_plan() -> list[Plan]:
    ctxs = [CONTEXTS[i % len(CONTEXTS)] for i in range(N_DOCS)]
    R.shuffle(ctxs)
    by_ctx: dict[str, list[int]] = defaultdict(list)
    for i, c in enumerate(ctxs):
        by_ctx[c].append(i)
    lists = [R.sample(by_ctx[c], len(by_ctx[c])) for c in CONTEXTS]
    secret = [False] * N_DOCS
    marked, k = 0, 0
    while marked < N_SECRET_DOCS:
        for lst in lists:
            if k < len(lst) and marked < N_SECRET_DOCS:
                secret[lst[k]] = True
                marked += 1
        k += 1
    secret_docs = [i for i in range(N_DOCS) if secret[i]]
    plain_docs = [i for i in range(N_DOCS) if not secret[i]]
    dense = {
        "env",
        "json",
        "yaml",
        "toml",
        "ini",
        "hcl",
        "properties",
        "csv",
        "xml",
        "docker_compose",
        "kubernetes",
        "github_actions",
        "systemd",
    }
    s_counts = spread(secret_docs, len(SECRET_GENS) * SECRET_TARGET, lambda i: 2.2 if ctxs[i] in dense else 1.0, 6, 1)
    all_docs = list(range(N_DOCS))
    l_counts = spread(all_docs, len(LOOK_GENS) * LOOK_TARGET, lambda i: 1.0 if secret[i] else 2.0, 4, 0)
    for i in plain_docs:
        l_counts[i] = max(1, l_counts[i])
    overflow = sum(l_counts.values()) - len(LOOK_GENS) * LOOK_TARGET
    while overflow > 0:
        i = pick(all_docs)
        if l_counts[i] > (1 if not secret[i] else 0):
            l_counts[i] -= 1
            overflow -= 1
    s_kinds = fill_kinds(R.sample(secret_docs, len(secret_docs)), s_counts, ctxs, list(SECRET_GENS), SECRET_TARGET)
    l_kinds = fill_kinds(R.sample(all_docs, len(all_docs)), l_counts, ctxs, list(LOOK_GENS), LOOK_TARGET)
    langs = list(LANG_WEIGHTS)
    return [
        Plan(ctxs[i], R.choices(langs, [LANG_WEIGHTS[x] for x in langs])[0], s_kinds.get(i, []), l_kinds[i])
        for i in range(N_DOCS)
    ]


# --------------------------------------------------------------------------------------
# building and checking
# --------------------------------------------------------------------------------------

Record = dict[str, object]


def build_doc(idx: int, p: Plan) -> Record:
    groups = [SECRET_GENS[k][1](p.ctx) for k in p.secret_kinds] + [LOOK_GENS[k][1](p.ctx) for k in p.look_kinds]
    n_neutral = R.randint(3, 8) if p.ctx not in NARRATIVE else R.choice([0, 0, 1, 2])
    if n_neutral:
        groups.append(neutral_group(n_neutral))
    R.shuffle(groups)
    d = Doc(p.ctx, p.lang, groups)
    marked = RENDERERS[p.ctx](d)
    text, secrets, looks = extract(marked)
    secrets.sort(key=lambda x: int(x["start"]))  # type: ignore[call-overload]
    looks.sort(key=lambda x: int(x["start"]))  # type: ignore[call-overload]
    return {
        "id": f"blind5-{idx + 1:04d}",
        "context": p.ctx,
        "text": text,
        "secrets": secrets,
        "lookalikes": looks,
        "_lang": p.lang,
    }


def check_doc(rec: Record) -> None:
    text = str(rec["text"])
    rid = rec["id"]
    if MARK_RE.search(text):
        raise ValueError(f"{rid}: marker left in text")
    labels = list(rec["secrets"]) + list(rec["lookalikes"])  # type: ignore[call-overload]
    if not labels:
        raise ValueError(f"{rid}: no labelled value")
    for lst in (rec["secrets"], rec["lookalikes"]):
        starts = [int(x["start"]) for x in lst]  # type: ignore[attr-defined]
        if starts != sorted(starts):
            raise ValueError(f"{rid}: labels not sorted")
    spans = sorted((int(x["start"]), int(x["end"])) for x in labels)
    for x in labels:
        s, e, v = int(x["start"]), int(x["end"]), str(x["value"])
        if text[s:e] != v or not v or e <= s:
            raise ValueError(f"{rid}: bad offsets for {x['kind']}")
    for (_s1, e1), (s2, _e2) in itertools.pairwise(spans):
        if s2 < e1:
            raise ValueError(f"{rid}: overlapping labels")
    label_at = {(int(x["start"]), str(x["value"])) for x in labels}
    for x in rec["secrets"]:  # type: ignore[attr-defined]
        v = str(x["value"])
        pos = text.find(v)
        while pos != -1:
            if (pos, v) not in label_at:
                raise ValueError(f"{rid}: secret {x['kind']} also appears unlabelled at {pos}")
            pos = text.find(v, pos + 1)


def check_corpus(recs: list[Record]) -> None:
    ids = [r["id"] for r in recs]
    if len(set(ids)) != len(ids) or len(recs) != N_DOCS:
        raise ValueError("ids not unique or wrong document count")
    n_secret = sum(1 for r in recs if r["secrets"])
    if n_secret != N_SECRET_DOCS:
        raise ValueError(f"{n_secret} secret documents, expected {N_SECRET_DOCS}")
    s_count: Counter[str] = Counter()
    s_ctx: dict[str, set[str]] = defaultdict(set)
    l_count: Counter[str] = Counter()
    for r in recs:
        for x in r["secrets"]:  # type: ignore[attr-defined]
            s_count[x["kind"]] += 1
            s_ctx[x["kind"]].add(str(r["context"]))
        for x in r["lookalikes"]:  # type: ignore[attr-defined]
            l_count[x["kind"]] += 1
    bad = [k for k in SECRET_GENS if s_count[k] < MIN_SECRET_EXAMPLES or len(s_ctx[k]) < MIN_SECRET_CONTEXTS]
    bad += [k for k in LOOK_GENS if l_count[k] < MIN_LOOKALIKE_EXAMPLES]
    if bad or len(s_count) < 80 or len(l_count) < 35:
        raise ValueError(f"per-kind minimums not met: {bad}")
    langs = {str(r["_lang"]) for r in recs}
    if len(langs - {"en"}) < 6:
        raise ValueError("fewer than six non-English languages")


def public(rec: Record) -> Record:
    return {k: rec[k] for k in ("id", "context", "text", "secrets", "lookalikes")}


# --------------------------------------------------------------------------------------
# README
# --------------------------------------------------------------------------------------

CONTEXT_DESC = {
    "journal": "long-running project journal with dated entries", "terminal": "copy-pasted terminal session with prompts and output",
    "chat": "user / assistant transcript", "meeting_notes": "meeting notes with decisions and action items",
    "onboarding": "onboarding checklist with sub-bullets", "user_facts": "things to remember about the user",
    "debug_diary": "timestamped debugging diary with log excerpts", "migration_notes": "migration notes with an old / new table",
    "shell_history": "bash / zsh history", "ci_log": "CI job log with timestamps", "crash_report": "traceback with locals and environment",
    "email": "pasted email with headers and a quoted reply", "ticket": "issue tracker ticket with comments", "notebook": "Jupyter notebook JSON",
    "code_review": "pull-request review comments with diff hunks", "quick_note": "short scratch note",
    "json": "JSON config", "yaml": "YAML config", "toml": "TOML config", "ini": "INI config", "env": "`.env` file", "xml": "`app.config` / Maven `settings.xml`",
    "hcl": "Terraform / HCL", "properties": "Java `.properties`", "csv": "credential inventory spreadsheet export",
    "python": "Python module", "javascript": "JavaScript module", "go": "Go program", "sql": "SQL migration", "powershell": "PowerShell script",
    "docker_compose": "Compose file", "kubernetes": "Kubernetes Secret / ConfigMap", "github_actions": "GitHub Actions workflow",
    "dockerfile": "Dockerfile", "http": "raw HTTP request and response", "systemd": "systemd unit with `Environment=` lines",
}  # fmt: skip


def fmt_int(n: int) -> str:
    return f"{n:,}"


def make_readme(recs: list[Record], digest: str) -> str:
    s_count: Counter[str] = Counter()
    s_ctx: dict[str, set[str]] = defaultdict(set)
    l_count: Counter[str] = Counter()
    ctx_docs: Counter[str] = Counter()
    ctx_secret: Counter[str] = Counter()
    langs: Counter[str] = Counter()
    for r in recs:
        c = str(r["context"])
        ctx_docs[c] += 1
        ctx_secret[c] += bool(r["secrets"])
        langs[str(r["_lang"])] += 1
        for x in r["secrets"]:  # type: ignore[attr-defined]
            s_count[x["kind"]] += 1
            s_ctx[x["kind"]].add(c)
        for x in r["lookalikes"]:  # type: ignore[attr-defined]
            l_count[x["kind"]] += 1
    n = len(recs)
    n_sec = sum(1 for r in recs if r["secrets"])
    n_look = sum(1 for r in recs if r["lookalikes"])
    lengths = [len(str(r["text"])) for r in recs]
    non_ascii = sum(1 for r in recs if not str(r["text"]).isascii())
    narrative_secrets = sum(len(r["secrets"]) for r in recs if r["context"] in NARRATIVE)  # type: ignore[arg-type, misc]
    multiline = sum(1 for r in recs for x in r["secrets"] if "\n" in x["value"])  # type: ignore[attr-defined]
    out = [
        "# secrets_blind_v5",
        "",
        f"A held-out test corpus for the secret-detection engine: {fmt_int(n)} documents of the sort an AI assistant keeps in its "
        "`/memories` folder: long project journals, pasted terminal sessions, chat transcripts, meeting notes, onboarding checklists, "
        "notes about the user, debugging diaries, migration notes, shell history, CI logs, crash reports, emails, tickets, notebooks, "
        "review comments, and structured files (JSON, YAML, TOML, INI, `.env`, XML, HCL, properties, CSV) next to code and infrastructure "
        "files. Every document lists the secrets it holds (to be reported) and the look-alikes it holds (public values that must not be reported).",
        "",
        "## How it was built",
        "",
        "- Generator: [`../make_blind_secrets_v5.py`](../make_blind_secrets_v5.py), Python 3.11 standard library only, one "
        f"`random.Random({SEED})`. The bytes written do not depend on `PYTHONHASHSEED`, the clock or the machine (no set is iterated, "
        "no system randomness is used).",
        "- Regenerate with `python3 tests/corpora/make_blind_secrets_v5.py` (or `--out DIR`). A run takes about 12 seconds here; "
        "most of it is spent finding RSA primes.",
        "- Labels are carried through rendering by private-use marker characters wrapped around each value, so whatever happens to the "
        "text afterwards (JSON escaping, YAML or blockquote indentation, diff prefixes, hard wraps) the offsets are read off the final text.",
        "- Before anything is written the script checks that every span slices out its value, that spans are sorted and never overlap, "
        "that ids are unique, that every document has a labelled value, that no labelled secret also occurs unlabelled in its document, "
        f"the share of secret documents, the per-kind minimums (secrets: at least {MIN_SECRET_EXAMPLES} examples in at least "
        f"{MIN_SECRET_CONTEXTS} contexts; look-alikes: at least {MIN_LOOKALIKE_EXAMPLES} examples) and the `SHA256SUMS` line. Any "
        "failure raises.",
        "- Written blind. I did not open, read, grep, list or run anything under `sandbox/`, `policies/`, `bench/`, `docs/` or `tests/`, "
        "except `tests/corpora/secrets_blind_v4/README.md`, read only for the file format, the labelling conventions and the layout of "
        "this file (its templates, phrasing and kind list were not reused). No other corpus or generator under `tests/corpora/` was "
        "looked at, the `sandbox` package was never imported, the project's scanner was never run, and the repository's git history was "
        "not read. `pyproject.toml` was read for its ruff settings only. Token formats follow providers' public documentation.",
        "- Values are random but structurally real where the format allows: GitHub and npm tokens end in the base62 CRC32 of their body; "
        "PyPI tokens are v2 macaroons with a valid HMAC chain; JWTs carry real HS256 or ES256 signatures; RSA (2048-bit, primes found "
        "in pure Python), P-256 and Ed25519 keys are real key pairs; OpenSSH keys embed their matching public key; kubeconfig "
        "`client-key-data` holds a real key next to a real self-signed certificate for it; age keys and recipients, WireGuard key pairs, "
        "bech32 and base58check addresses, IBANs and ISBNs have correct checksums. Documented sample values (AWS `...EXAMPLE` keys, "
        "Stripe docs test keys, the jwt.io token) are look-alikes.",
        "",
        "## File format",
        "",
        "`corpus.jsonl`: one JSON object per line, UTF-8, written with `ensure_ascii=False`, keys in this order:",
        "",
        "```json",
        '{"id": "blind5-0001", "context": "journal", "text": "...", "secrets": [{"kind": "...", "value": "...", "start": 0, "end": 0}], "lookalikes": []}',
        "```",
        "",
        "- `start` / `end` are Python code-point offsets into `text`, and `text[start:end] == value`. Each list is sorted by `start`; no two "
        "spans of a document overlap (secrets and look-alikes together).",
        "- `context` names the shape of the document (table below). Narrative documents are usually markdown; some are wrapped as a "
        "JSON memory record (the body is one JSON string) or a YAML record (the body is an indented block scalar), and some carry "
        "front matter. Structured and code documents are the file itself, with a comment (or a `_note` key, or a notes column) in the "
        "document's language.",
        "",
        "## Labelling",
        "",
        "- Only the sensitive part is labelled: the password in a DSN, URL, connection string or `.netrc` line (not the user or host); "
        "the `sig=` value of an Azure SAS URL; the credential after `Bearer `, `Basic `, `token `, `Bot `, `SSWS `, `Splunk `, "
        "`Api-Token `; the cookie value after `name=`; the base64 after Laravel's `base64:`; the seed inside an `otpauth://` URI; "
        "the private key inside a service-account JSON. Slack, Discord and Teams webhook URLs are labelled whole.",
        "- AWS access key ids are labelled as secrets (they travel with their secret key). Companions that are not secret are labelled "
        "as look-alikes: OAuth client ids, Twilio account SIDs, Algolia app ids, GCP `private_key_id`, the public half of a WireGuard or "
        "age key pair, SSH public keys, the kubeconfig client certificate. Users, hosts, ports, regions and plain config values "
        "(`LOG_LEVEL=info`, `WORKERS=4`) are left unlabelled and are not secrets either.",
        "- A value is labelled exactly as it appears in the text: inside JSON (including a JSON-framed memory file or a notebook) it keeps "
        "its escapes (`\\n`, `\\\"`); in a YAML block scalar, an INI continuation or a YAML-framed memory file it keeps the indentation of "
        "its continuation lines; in a quoted email reply it keeps the `> ` prefixes; in a diff it keeps the `+` prefixes; in XML it keeps "
        "entity escapes; in a CSV field it keeps doubled quotes; a token hard-wrapped by a mail client or a crash dump keeps its newlines.",
        f"- {fmt_int(narrative_secrets)} secret spans sit in narrative documents, many of them in bare prose with no key name nearby "
        "(\"the new one is ...\", \"use ... for staging\") or named only by the service (\"the Stripe one ...\", \"Twilio creds: ...\"); "
        f"{fmt_int(multiline)} secret spans run over several lines.",
        "",
        "## Numbers",
        "",
        f"- {fmt_int(n)} documents; {fmt_int(n_sec)} ({100 * n_sec // n}%) hold at least one secret; {fmt_int(n_look)} hold look-alikes; "
        "every document has at least one labelled value.",
        f"- {fmt_int(sum(s_count.values()))} secret spans over {len(s_count)} kinds (at least {min(s_count.values())} each, each kind "
        f"in at least {min(len(v) for v in s_ctx.values())} different contexts).",
        f"- {fmt_int(sum(l_count.values()))} look-alike spans over {len(l_count)} kinds (at least {min(l_count.values())} each).",
        f"- Length: {fmt_int(min(lengths))} to {fmt_int(max(lengths))} characters, median {fmt_int(int(statistics.median(lengths)))}; "
        f"{fmt_int(non_ascii)} documents contain non-ASCII text.",
        f"- {len(ctx_docs)} contexts; prose in {len(langs)} languages: "
        + ", ".join(f"{LANG_NAMES[k]} {v}" for k, v in sorted(langs.items(), key=lambda kv: (-kv[1], kv[0])))
        + ".",
        "",
        "## Secret kinds",
        "",
        "| kind | format | examples | contexts |",
        "| --- | --- | ---: | ---: |",
    ]  # fmt: skip
    for k in sorted(SECRET_GENS):
        out.append(f"| `{k}` | {SECRET_GENS[k][0]} | {s_count[k]} | {len(s_ctx[k])} |")
    out += ["", "## Look-alike kinds", "", "| kind | what | examples |", "| --- | --- | ---: |"]
    for k in sorted(LOOK_GENS):
        out.append(f"| `{k}` | {LOOK_GENS[k][0]} | {l_count[k]} |")
    out += ["", "## Contexts", "", "| context | what | documents | with secrets |", "| --- | --- | ---: | ---: |"]
    for c in sorted(ctx_docs, key=lambda c: (-ctx_docs[c], c)):
        out.append(f"| `{c}` | {CONTEXT_DESC[c]} | {ctx_docs[c]} | {ctx_secret[c]} |")
    out += ["", "## Checksum", "", "`SHA256SUMS`:", "", "```", f"{digest}  corpus.jsonl", "```", ""]
    return "\n".join(out)


# --------------------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Generate the blind secret-detection corpus secrets_blind_v5.")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"output folder (default: {DEFAULT_OUT})")
    args = ap.parse_args(argv)
    started = time.perf_counter()
    plan = make_plan()
    recs = [build_doc(i, p) for i, p in enumerate(plan)]
    for r in recs:
        check_doc(r)
    check_corpus(recs)
    data = "".join(json.dumps(public(r), ensure_ascii=False) + "\n" for r in recs).encode("utf-8")
    for line, r in zip(data.decode("utf-8").splitlines(), recs, strict=True):
        back = json.loads(line)
        if list(back) != ["id", "context", "text", "secrets", "lookalikes"] or back != public(r):
            raise ValueError(f"{r['id']}: JSON round trip changed the record")
    digest = hashlib.sha256(data).hexdigest()
    sums = f"{digest}  corpus.jsonl\n"
    if not re.fullmatch(r"[0-9a-f]{64}  corpus\.jsonl\n", sums):
        raise ValueError("bad SHA256SUMS line")
    readme = make_readme(recs, digest)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    (out / "corpus.jsonl").write_bytes(data)
    (out / "SHA256SUMS").write_bytes(sums.encode())
    (out / "README.md").write_bytes(readme.encode("utf-8"))
    if hashlib.sha256((out / "corpus.jsonl").read_bytes()).hexdigest() != digest:
        raise ValueError("corpus.jsonl on disk does not match its checksum")
    n_sec = sum(1 for r in recs if r["secrets"])
    n_s = sum(len(r["secrets"]) for r in recs)  # type: ignore[arg-type, misc]
    n_l = sum(len(r["lookalikes"]) for r in recs)  # type: ignore[arg-type, misc]
    print(f"wrote {out}: {len(recs)} documents, {n_sec} with secrets, {n_s} secret spans / {len(SECRET_GENS)} kinds, "
          f"{n_l} look-alike spans / {len(LOOK_GENS)} kinds, {time.perf_counter() - started:.1f}s")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
