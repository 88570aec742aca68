#!/usr/bin/env python3
"""Build the secrets_blind_v6 corpus: labelled /memories documents for the secret scanner.

Standard library only, one seeded ``random.Random``; the output does not depend on the
clock, ``PYTHONHASHSEED`` or the machine. Run ``python3 tests/corpora/make_blind_secrets_v6.py``
(``--out DIR`` to write elsewhere).
"""
# ruff: noqa: RUF001, PLR0912, PLR0917 -- prose in other scripts; long render functions and helpers of a frozen generator

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import json
import random
import re
import string
import struct
import time
import zlib
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

SEED = 20270206
N_DOCS = 1200
PER_SECRET_KIND = 16
PER_LOOK_KIND = 32
MIN_SECRET_EXAMPLES = 15
MIN_SECRET_CONTEXTS = 8
MIN_LOOK_EXAMPLES = 30
MIN_SECRET_KINDS = 110
MIN_LOOK_KINDS = 40

R = random.Random(SEED)

ALNUM = string.ascii_letters + string.digits
LOWER_ALNUM = string.ascii_lowercase + string.digits
UPPER_ALNUM = string.ascii_uppercase + string.digits
HEXD = "0123456789abcdef"
URLSAFE = ALNUM + "-_"
B62 = string.digits + string.ascii_uppercase + string.ascii_lowercase
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

# Label markers: private-use characters that survive every rendering step.
M_OPEN, M_MID, M_CLOSE = "\ue000", "\ue001", "\ue002"
MARK_RE = re.compile("\ue000([sl]):([a-z0-9_]+)\ue001(.*?)\ue002", re.DOTALL)

STATE: dict[str, int] = {"wrap": 0}


def rs(n: int, alpha: str = ALNUM) -> str:
    return "".join(R.choice(alpha) for _ in range(n))


def rhex(n: int) -> str:
    return rs(n, HEXD)


def rb(n: int) -> bytes:
    return R.randbytes(n)


def b64(b: bytes) -> str:
    return base64.b64encode(b).decode()


def b64u(b: bytes) -> str:
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def ruuid() -> str:
    b = bytearray(rb(16))
    b[6] = (b[6] & 0x0F) | 0x40
    b[8] = (b[8] & 0x3F) | 0x80
    h = b.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def digits(n: int) -> str:
    return str(R.randint(1, 9)) + rs(n - 1, string.digits)


def base62(num: int, width: int) -> str:
    out = ""
    while num:
        num, rem = divmod(num, 62)
        out = B62[rem] + out
    return out.rjust(width, "0")


def crc_token(prefix: str, n: int = 30) -> str:
    body = rs(n)
    return prefix + body + base62(zlib.crc32(body.encode()), 6)


def wrap_value(value: str, width: int) -> str:
    return "\n".join(value[i : i + width] for i in range(0, len(value), width))


def S(kind: str, value: str) -> str:
    """Mark a secret. A document may ask for long one-line values to be hard-wrapped."""
    width = STATE["wrap"]
    if width and "\n" not in value and len(value) > width + 12:
        value = wrap_value(value, width)
    return f"{M_OPEN}s:{kind}{M_MID}{value}{M_CLOSE}"


def L(kind: str, value: str) -> str:
    return f"{M_OPEN}l:{kind}{M_MID}{value}{M_CLOSE}"


# ---------------------------------------------------------------------------
# Small crypto: P-256, Ed25519, X25519, bech32, DER, PEM, CRC24.

P256_P = 2**256 - 2**224 + 2**192 + 2**96 - 1
P256_N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
P256_G = (
    0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
    0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5,
)


def _ec_add(a: tuple[int, int] | None, b: tuple[int, int] | None) -> tuple[int, int] | None:
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


def ec_mul(k: int, pt: tuple[int, int] = P256_G) -> tuple[int, int]:
    acc = None
    add = pt
    while k:
        if k & 1:
            acc = _ec_add(acc, add)
        add = _ec_add(add, add)
        k >>= 1
    assert acc is not None
    return acc


ED_P = 2**255 - 19
ED_D = -121665 * pow(121666, -1, ED_P) % ED_P
ED_L = 2**252 + 27742317777372353535851937790883648493


def _ed_xrecover(y: int) -> int:
    xx = (y * y - 1) * pow(ED_D * y * y + 1, -1, ED_P)
    x = pow(xx, (ED_P + 3) // 8, ED_P)
    if (x * x - xx) % ED_P:
        x = x * pow(2, (ED_P - 1) // 4, ED_P) % ED_P
    if x % 2:
        x = ED_P - x
    return x


_ED_GY = 4 * pow(5, -1, ED_P) % ED_P
_ED_GX = _ed_xrecover(_ED_GY)
ED_G = (_ED_GX, _ED_GY, 1, _ED_GX * _ED_GY % ED_P)


def _ed_add(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    p = ED_P
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    aa = (y1 - x1) * (y2 - x2) % p
    bb = (y1 + x1) * (y2 + x2) % p
    cc = t1 * 2 * ED_D * t2 % p
    dd = z1 * 2 * z2 % p
    e, f, g, h = bb - aa, dd - cc, dd + cc, bb + aa
    return e * f % p, g * h % p, f * g % p, e * h % p


def ed25519_public(seed: bytes) -> bytes:
    h = hashlib.sha512(seed).digest()
    a = int.from_bytes(h[:32], "little")
    a &= (1 << 254) - 8
    a |= 1 << 254
    acc = (0, 1, 1, 0)
    add = ED_G
    while a:
        if a & 1:
            acc = _ed_add(acc, add)
        add = _ed_add(add, add)
        a >>= 1
    zi = pow(acc[2], -1, ED_P)
    x, y = acc[0] * zi % ED_P, acc[1] * zi % ED_P
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def x25519_public(priv: bytes) -> bytes:
    p = ED_P
    k = int.from_bytes(priv, "little")
    k &= ~7
    k &= ~(128 << 8 * 31)
    k |= 64 << 8 * 31
    x1, x2, z2, x3, z3, swap = 9, 1, 0, 9, 1, 0
    for t in reversed(range(255)):
        bit = (k >> t) & 1
        swap ^= bit
        if swap:
            x2, x3, z2, z3 = x3, x2, z3, z2
        swap = bit
        a = x2 + z2
        aa = a * a % p
        b = x2 - z2
        bb = b * b % p
        e = aa - bb
        c = x3 + z3
        d = x3 - z3
        da = d * a % p
        cb = c * b % p
        x3 = (da + cb) ** 2 % p
        z3 = x1 * (da - cb) ** 2 % p
        x2 = aa * bb % p
        z2 = e * (aa + 121665 * e) % p
    if swap:
        x2, z2 = x3, z3
    return (x2 * pow(z2, p - 2, p) % p).to_bytes(32, "little")


def clamp25519(b: bytes) -> bytes:
    a = bytearray(b)
    a[0] &= 248
    a[31] &= 127
    a[31] |= 64
    return bytes(a)


BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def _bech_polymod(values: list[int]) -> int:
    gen = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
    chk = 1
    for v in values:
        top = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ v
        for i in range(5):
            chk ^= gen[i] if ((top >> i) & 1) else 0
    return chk


def _convertbits(data: bytes, frm: int = 8, to: int = 5) -> list[int]:
    acc = bits = 0
    out = []
    for v in data:
        acc = (acc << frm) | v
        bits += frm
        while bits >= to:
            bits -= to
            out.append((acc >> bits) & ((1 << to) - 1))
    if bits:
        out.append((acc << (to - bits)) & ((1 << to) - 1))
    return out


def bech32(hrp: str, data5: list[int]) -> str:
    exp = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]
    pm = _bech_polymod([*exp, *data5, 0, 0, 0, 0, 0, 0]) ^ 1
    chk = [(pm >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(BECH[d] for d in data5 + chk)


def der_len(n: int) -> bytes:
    if n < 0x80:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


def tlv(tag: int, content: bytes) -> bytes:
    return bytes([tag]) + der_len(len(content)) + content


def der_int(v: int) -> bytes:
    b = v.to_bytes(max(1, (v.bit_length() + 8) // 8), "big")
    return tlv(0x02, b)


def seq(*items: bytes) -> bytes:
    return tlv(0x30, b"".join(items))


OID_RSA = bytes.fromhex("06092a864886f70d010101")
OID_ECPUB = bytes.fromhex("06072a8648ce3d0201")
OID_P256 = bytes.fromhex("06082a8648ce3d030107")
OID_ECDSA256 = bytes.fromhex("06082a8648ce3d040302")
OID_ED25519 = bytes.fromhex("06032b6570")
OID_CN = bytes.fromhex("0603550403")


def pem(label: str, der: bytes, width: int = 64) -> str:
    body = b64(der)
    lines = [body[i : i + width] for i in range(0, len(body), width)]
    return f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----"


def rand_int_bits(bits: int) -> int:
    return R.getrandbits(bits) | (1 << (bits - 1)) | 1


def rsa_private_pem() -> str:
    """Structurally valid RSA DER (right sizes and layout) filled with random integers."""
    n = rand_int_bits(2048)
    parts = [der_int(0), der_int(n), der_int(65537), der_int(R.getrandbits(2047) | 1)]
    parts += [der_int(rand_int_bits(1024)) for _ in range(5)]
    pkcs1 = seq(*parts)
    if R.random() < 0.5:
        return pem("RSA PRIVATE KEY", pkcs1)
    return pem("PRIVATE KEY", seq(der_int(0), seq(OID_RSA, b"\x05\x00"), tlv(0x04, pkcs1)))


def ec_keypair() -> tuple[int, bytes]:
    d = R.randrange(1, P256_N)
    x, y = ec_mul(d)
    return d, b"\x04" + x.to_bytes(32, "big") + y.to_bytes(32, "big")


def ec_private_pem(pkcs8: bool | None = None) -> str:
    d, pub = ec_keypair()
    if pkcs8 is None:
        pkcs8 = R.random() < 0.5
    if pkcs8:
        inner = seq(der_int(1), tlv(0x04, d.to_bytes(32, "big")), tlv(0xA1, tlv(0x03, b"\x00" + pub)))
        return pem("PRIVATE KEY", seq(der_int(0), seq(OID_ECPUB, OID_P256), tlv(0x04, inner)))
    sec1 = seq(der_int(1), tlv(0x04, d.to_bytes(32, "big")), tlv(0xA0, OID_P256), tlv(0xA1, tlv(0x03, b"\x00" + pub)))
    return pem("EC PRIVATE KEY", sec1)


def ec_public_pem() -> str:
    _, pub = ec_keypair()
    return pem("PUBLIC KEY", seq(seq(OID_ECPUB, OID_P256), tlv(0x03, b"\x00" + pub)))


def ed_public_pem() -> str:
    pub = ed25519_public(rb(32))
    return pem("PUBLIC KEY", seq(seq(OID_ED25519), tlv(0x03, b"\x00" + pub)))


def ed25519_private_pem() -> str:
    return pem("PRIVATE KEY", seq(der_int(0), seq(OID_ED25519), tlv(0x04, tlv(0x04, rb(32)))))


def _utctime(year: int, month: int, day: int) -> bytes:
    return tlv(0x17, f"{year % 100:02d}{month:02d}{day:02d}000000Z".encode())


def certificate_pem(cn: str) -> str:
    """A real self-signed P-256 certificate (ECDSA signature over the TBS)."""
    d, pub = ec_keypair()
    name = seq(tlv(0x31, seq(OID_CN, tlv(0x0C, cn.encode()))))
    year = R.randint(2024, 2026)
    tbs = seq(
        tlv(0xA0, der_int(2)),
        der_int(R.getrandbits(63) | 1),
        seq(OID_ECDSA256),
        name,
        seq(_utctime(year, R.randint(1, 12), R.randint(1, 28)), _utctime(year + 1, R.randint(1, 12), 28)),
        name,
        seq(seq(OID_ECPUB, OID_P256), tlv(0x03, b"\x00" + pub)),
    )
    z = int.from_bytes(hashlib.sha256(tbs).digest(), "big")
    while True:
        k = R.randrange(1, P256_N)
        r = ec_mul(k)[0] % P256_N
        s = pow(k, -1, P256_N) * (z + r * d) % P256_N
        if r and s:
            break
    cert = seq(tbs, seq(OID_ECDSA256), tlv(0x03, b"\x00" + seq(der_int(r), der_int(s))))
    return pem("CERTIFICATE", cert)


def _sshstr(b: bytes) -> bytes:
    return struct.pack(">I", len(b)) + b


def ssh_ed25519_blob(pub: bytes) -> bytes:
    return _sshstr(b"ssh-ed25519") + _sshstr(pub)


def openssh_private_key(comment: str) -> str:
    seed = rb(32)
    pub = ed25519_public(seed)
    check = rb(4)
    priv = check + check + ssh_ed25519_blob(pub) + _sshstr(seed + pub) + _sshstr(comment.encode())
    pad = 1
    while len(priv) % 8:
        priv += bytes([pad])
        pad += 1
    body = (
        b"openssh-key-v1\x00"
        + _sshstr(b"none")
        + _sshstr(b"none")
        + _sshstr(b"")
        + struct.pack(">I", 1)
        + _sshstr(ssh_ed25519_blob(pub))
        + _sshstr(priv)
    )
    return pem("OPENSSH PRIVATE KEY", body, 70)


def ssh_public_key(comment: str) -> str:
    return "ssh-ed25519 " + b64(ssh_ed25519_blob(ed25519_public(rb(32)))) + " " + comment


def crc24(data: bytes) -> int:
    crc = 0xB704CE
    for byte in data:
        crc ^= byte << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


def pgp_private_block() -> str:
    payload = b"\x04" + struct.pack(">I", R.randint(1_600_000_000, 1_780_000_000)) + b"\x16" + rb(R.randint(300, 420))
    body = b"\x95" + struct.pack(">H", len(payload)) + payload
    text = b64(body)
    lines = [text[i : i + 64] for i in range(0, len(text), 64)]
    chk = b64(crc24(body).to_bytes(3, "big"))
    return (
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n"
        + "\n".join(lines)
        + f"\n={chk}\n-----END PGP PRIVATE KEY BLOCK-----"
    )


def putty_private_key() -> str:
    """PPK v3, unencrypted: the MAC is HMAC-SHA-256 with an empty key over the file's fields."""
    seed = rb(32)
    pub_blob = ssh_ed25519_blob(ed25519_public(seed))
    priv_blob = _sshstr(seed)
    comment = f"eddsa-key-2026{R.randint(1, 12):02d}{R.randint(1, 28):02d}"
    mac_data = b"".join(_sshstr(x) for x in (b"ssh-ed25519", b"none", comment.encode(), pub_blob, priv_blob))
    mac = hmac.new(b"", mac_data, hashlib.sha256).hexdigest()
    pub = b64(pub_blob)
    plines = [pub[i : i + 64] for i in range(0, len(pub), 64)]
    return (
        f"PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: {comment}\n"
        f"Public-Lines: {len(plines)}\n"
        + "\n".join(plines)
        + f"\nPrivate-Lines: 1\n{b64(priv_blob)}\nPrivate-MAC: {mac}"
    )


def crc_sum_iban(country: str, bban: str) -> str:
    raw = bban + country + "00"
    num = "".join(str(int(c, 36)) for c in raw)
    check = 98 - int(num) % 97
    return f"{country}{check:02d}{bban}"


def isbn13() -> str:
    body = "978" + rs(9, string.digits)
    total = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(body))
    return body + str((10 - total % 10) % 10)


def jwt_hs256(payload: dict[str, object], key: bytes) -> str:
    head = b64u(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    body = b64u(json.dumps(payload, separators=(",", ":")).encode())
    sig = hmac.new(key, f"{head}.{body}".encode(), hashlib.sha256).digest()
    return f"{head}.{body}.{b64u(sig)}"


def pypi_macaroon() -> str:
    def fld(t: int, data: bytes) -> bytes:
        return bytes([t, len(data)]) + data

    ident = json.dumps({"version": 1, "nonce": rhex(32)}, separators=(",", ":")).encode()
    caveat = json.dumps([1, {"project_ids": [ruuid()]}] if R.random() < 0.5 else [0, None]).encode()
    key = hmac.new(b"macaroons-key-generator", rb(32), hashlib.sha256).digest()
    sig = hmac.new(key, ident, hashlib.sha256).digest()
    sig = hmac.new(sig, caveat, hashlib.sha256).digest()
    raw = b"\x02" + fld(1, b"pypi.org") + fld(2, ident) + b"\x00" + fld(2, caveat) + b"\x00\x00" + fld(6, sig)
    return "pypi-" + b64u(raw)


# ---------------------------------------------------------------------------
# Names used across documents.

FIRST = [
    "Amara",
    "Bruno",
    "Chidi",
    "Dana",
    "Elif",
    "Farid",
    "Greta",
    "Hiro",
    "Ines",
    "Jonas",
    "Keiko",
    "Lars",
    "Maya",
    "Nikhil",
    "Olga",
    "Pavel",
    "Quinn",
    "Rosa",
    "Sami",
    "Tereza",
    "Umar",
    "Vera",
    "Wen",
    "Yusuf",
]
PROJECTS = [
    "ledgerline",
    "tidepool",
    "quillstack",
    "orchard-api",
    "beacon",
    "ferrite",
    "lumen-pay",
    "harbormaster",
    "pinecrest",
    "copperleaf",
    "nightjar",
    "atlas-sync",
    "marigold",
    "riverbed",
    "sparrow-ci",
    "kelp",
]
HOSTS = [
    "db-main.internal",
    "pg-replica-2.corp.lan",
    "10.20.4.17",
    "mysql.staging.svc",
    "cache-01.prod.lan",
    "mongo-a.cluster.local",
    "sql-eu.database.windows.net",
    "rabbit.mq.internal",
    "smtp.mailhub.io",
]
WORDS = [
    "Harbor",
    "Tulip",
    "Copper",
    "Falcon",
    "Maple",
    "Orbit",
    "Velvet",
    "Cobalt",
    "Juniper",
    "Saffron",
    "Quartz",
    "Lantern",
    "Meadow",
    "Pebble",
    "Thistle",
    "Walnut",
    "Ember",
    "Glacier",
    "Nimbus",
    "Otter",
]


def user() -> str:
    return R.choice(FIRST).lower() + R.choice(["", ".ops", "_svc", "-admin", "42", ""])


def project() -> str:
    return R.choice(PROJECTS)


def password(human: bool | None = None) -> str:
    if human is None:
        human = R.random() < 0.45
    if human:
        return (
            R.choice(WORDS)
            + R.choice(["-", "_", ".", "!", ""])
            + R.choice(WORDS).lower()
            + str(R.randint(10, 9999))
            + R.choice(["!", "*", "~", ""])
        )
    return rs(1, string.ascii_letters) + rs(R.randint(15, 27), ALNUM + "!-_.*~")


def url_password() -> str:
    return rs(1, string.ascii_letters) + rs(R.randint(14, 24), ALNUM + "-_.~")


# ---------------------------------------------------------------------------
# Entries: a thing to place in a document, as key/value fields.


@dataclass
class Entry:
    kind: str
    cat: str
    service: str
    fields: list[tuple[str, str]]
    header: str | None = None
    multiline: bool = False
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def value(self) -> str:
        return self.fields[-1][1]

    @property
    def key(self) -> str:
        return self.fields[-1][0]


@dataclass
class Spec:
    kind: str
    cat: str
    service: str
    make: Callable[[], list[tuple[str, str]]]
    header: str | None
    multiline: bool
    fmt: str


SECRET_SPECS: dict[str, Spec] = {}
LOOK_SPECS: dict[str, Spec] = {}


def reg(kind: str, service: str, fmt: str, header: str | None = "Authorization: Bearer", multiline: bool = False):
    def deco(fn: Callable[[], list[tuple[str, str]]]) -> Callable[[], list[tuple[str, str]]]:
        SECRET_SPECS[kind] = Spec(kind, "s", service, fn, header, multiline, fmt)
        return fn

    return deco


def simple(
    kind: str,
    service: str,
    fmt: str,
    keys: list[str],
    gen: Callable[[], str],
    header: str | None = "Authorization: Bearer",
) -> None:
    def make() -> list[tuple[str, str]]:
        return [(R.choice(keys), S(kind, gen()))]

    SECRET_SPECS[kind] = Spec(kind, "s", service, make, header, False, fmt)


def look(kind: str, what: str, fmt: str, multiline: bool = False):
    def deco(fn: Callable[[], list[tuple[str, str]]]) -> Callable[[], list[tuple[str, str]]]:
        LOOK_SPECS[kind] = Spec(kind, "l", what, fn, None, multiline, fmt)
        return fn

    return deco


def lsimple(kind: str, what: str, fmt: str, keys: list[str], gen: Callable[[], str]) -> None:
    def make() -> list[tuple[str, str]]:
        return [(R.choice(keys), L(kind, gen()))]

    LOOK_SPECS[kind] = Spec(kind, "l", what, make, None, False, fmt)


# --- cloud ------------------------------------------------------------------


def aws_key_id(session: bool = False) -> str:
    return ("ASIA" if session else "AKIA") + rs(16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")


def aws_secret() -> str:
    return rs(40, ALNUM + "+/")


@reg("aws_access_key_id", "AWS", "`AKIA` + 16 base32 characters (labelled: it travels with its secret)", None)
def _aws_id() -> list[tuple[str, str]]:
    return [
        ("AWS_ACCESS_KEY_ID", S("aws_access_key_id", aws_key_id())),
        ("AWS_SECRET_ACCESS_KEY", S("aws_secret_access_key", aws_secret())),
    ]


@reg("aws_secret_access_key", "AWS", "40 characters of `[A-Za-z0-9+/]`, next to its key id", None)
def _aws_secret() -> list[tuple[str, str]]:
    return [
        ("aws_access_key_id", S("aws_access_key_id", aws_key_id())),
        ("aws_secret_access_key", S("aws_secret_access_key", aws_secret())),
    ]


@reg("aws_session_token", "AWS STS", "`IQoJb3JpZ2luX2Vj` + base64 STS session token, with `ASIA` id and secret", None)
def _aws_sts() -> list[tuple[str, str]]:
    tok = "IQoJb3JpZ2luX2Vj" + b64(rb(R.randint(280, 420)))
    return [
        ("AWS_ACCESS_KEY_ID", S("aws_access_key_id", aws_key_id(True))),
        ("AWS_SECRET_ACCESS_KEY", S("aws_secret_access_key", aws_secret())),
        ("AWS_SESSION_TOKEN", S("aws_session_token", tok)),
    ]


@reg(
    "azure_storage_account_key",
    "Azure Storage",
    "88-character base64 account key, bare or `AccountKey=` in a connection string",
    None,
)
def _azure_storage() -> list[tuple[str, str]]:
    key = b64(rb(64))
    acct = R.choice(["stledger", "tidepoolprod", "quilldata", "orchardblobs"]) + rs(3, string.digits)
    if R.random() < 0.6:
        return [
            (
                "AZURE_STORAGE_CONNECTION_STRING",
                f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={S('azure_storage_account_key', key)};EndpointSuffix=core.windows.net",
            )
        ]
    return [("AZURE_STORAGE_ACCOUNT", acct), ("AZURE_STORAGE_KEY", S("azure_storage_account_key", key))]


@reg("azure_sas_signature", "Azure SAS", "URL-encoded `sig=` value of a SAS URL (only the signature)", None)
def _azure_sas() -> list[tuple[str, str]]:
    sig = b64(rb(32)).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    acct = R.choice(["stexports", "backupsweu", "mediaingest"])
    url = (
        f"https://{acct}.blob.core.windows.net/{R.choice(['exports', 'backups', 'uploads'])}/{R.choice(['q3.csv', 'db.bak', 'batch.zip'])}"
        f"?sv=2022-11-02&ss=b&srt=co&sp=rl&se=2026-0{R.randint(1, 9)}-1{R.randint(0, 9)}T00:00:00Z&spr=https&sig={S('azure_sas_signature', sig)}"
    )
    return [("SAS_URL", url)]


@reg(
    "azure_ad_client_secret",
    "Entra ID app",
    "3 characters + digit + `Q~` + 34 (client and tenant ids are look-alikes)",
    None,
)
def _azure_ad() -> list[tuple[str, str]]:
    sec = rs(3) + rs(1, string.digits) + "Q~" + rs(34, ALNUM + "_.~-")
    return [
        ("AZURE_TENANT_ID", L("uuid", ruuid())),
        ("AZURE_CLIENT_ID", L("oauth_client_id", ruuid())),
        ("AZURE_CLIENT_SECRET", S("azure_ad_client_secret", sec)),
    ]


def _sa_json() -> str:
    keypem = rsa_private_pem().replace("RSA PRIVATE KEY", "PRIVATE KEY")
    proj = project() + "-" + digits(6)
    return (
        '{"type": "service_account", "project_id": "'
        + proj
        + '", "private_key_id": "'
        + L("key_identifier", rhex(40))
        + '", "private_key": "'
        + S("gcp_service_account_key", keypem.replace("\n", "\\n") + "\\n")
        + '", "client_email": "deployer@'
        + proj
        + '.iam.gserviceaccount.com", "client_id": "'
        + digits(21)
        + '", "token_uri": "https://oauth2.googleapis.com/token"}'
    )


@reg(
    "gcp_service_account_key",
    "GCP service account",
    "PKCS #8 RSA key inside service-account JSON (with its `\\n` escapes)",
    None,
)
def _gcp() -> list[tuple[str, str]]:
    return [("GOOGLE_CREDENTIALS_JSON", _sa_json())]


@reg("alibaba_access_key_id", "Alibaba Cloud", "`LTAI` + 20 alphanumerics (labelled: it travels with its secret)", None)
def _ali_id() -> list[tuple[str, str]]:
    return [
        ("ALIBABA_CLOUD_ACCESS_KEY_ID", S("alibaba_access_key_id", "LTAI" + rs(20))),
        ("ALIBABA_CLOUD_ACCESS_KEY_SECRET", S("alibaba_access_key_secret", rs(30))),
    ]


@reg("alibaba_access_key_secret", "Alibaba Cloud", "30 alphanumerics next to its `LTAI` id", None)
def _ali_sec() -> list[tuple[str, str]]:
    return [
        ("access_key_id", S("alibaba_access_key_id", "LTAI" + rs(20))),
        ("access_key_secret", S("alibaba_access_key_secret", rs(30))),
    ]


@reg("tencent_secret_id", "Tencent Cloud", "`AKID` + 32 alphanumerics (labelled: it travels with its key)", None)
def _tc_id() -> list[tuple[str, str]]:
    return [
        ("TENCENTCLOUD_SECRET_ID", S("tencent_secret_id", "AKID" + rs(32))),
        ("TENCENTCLOUD_SECRET_KEY", S("tencent_secret_key", rs(32))),
    ]


@reg("tencent_secret_key", "Tencent Cloud", "32 alphanumerics next to its `AKID` id", None)
def _tc_key() -> list[tuple[str, str]]:
    return [("SecretId", S("tencent_secret_id", "AKID" + rs(32))), ("SecretKey", S("tencent_secret_key", rs(32)))]


simple(
    "digitalocean_token",
    "DigitalOcean",
    "`dop_v1_` / `doo_v1_` + 64 hex",
    ["DIGITALOCEAN_TOKEN", "DO_API_TOKEN"],
    lambda: R.choice(["dop_v1_", "dop_v1_", "doo_v1_"]) + rhex(64),
)
simple(
    "ibm_cloud_api_key",
    "IBM Cloud",
    "44 characters `[A-Za-z0-9_-]` (name only)",
    ["IBMCLOUD_API_KEY", "IC_API_KEY"],
    lambda: rs(44, URLSAFE),
    None,
)
simple("heroku_api_key", "Heroku", "`HRKU-AA` + 58 characters", ["HEROKU_API_KEY"], lambda: "HRKU-AA" + rs(58, URLSAFE))
simple(
    "cloudflare_api_token",
    "Cloudflare",
    "40 characters `[A-Za-z0-9_-]` (name or bearer)",
    ["CLOUDFLARE_API_TOKEN", "CF_API_TOKEN"],
    lambda: rs(40, URLSAFE),
)
simple(
    "cloudflare_global_api_key",
    "Cloudflare global key",
    "37 hex (`X-Auth-Key`)",
    ["CLOUDFLARE_API_KEY", "CF_GLOBAL_KEY"],
    lambda: rhex(37),
    "X-Auth-Key:",
)
simple(
    "cloudflare_origin_ca_key",
    "Cloudflare Origin CA",
    "`v1.0-` + 24 hex + `-` + 146 hex",
    ["CF_ORIGIN_CA_KEY"],
    lambda: "v1.0-" + rhex(24) + "-" + rhex(146),
    "X-Auth-User-Service-Key:",
)
simple("flyio_token", "Fly.io", "`fo1_` + 43 characters", ["FLY_API_TOKEN"], lambda: "fo1_" + rs(43, URLSAFE))
simple("vercel_token", "Vercel", "24 alphanumerics (name only)", ["VERCEL_TOKEN"], lambda: rs(24))
simple("netlify_token", "Netlify", "`nfp_` + 40 alphanumerics", ["NETLIFY_AUTH_TOKEN"], lambda: "nfp_" + rs(40))
simple("render_api_key", "Render", "`rnd_` + 32 alphanumerics", ["RENDER_API_KEY"], lambda: "rnd_" + rs(32))
simple(
    "scalingo_api_token",
    "Scalingo",
    "`tk-us-` + 48 characters",
    ["SCALINGO_API_TOKEN"],
    lambda: "tk-us-" + rs(48, URLSAFE),
)
simple("supabase_access_token", "Supabase", "`sbp_` + 40 hex", ["SUPABASE_ACCESS_TOKEN"], lambda: "sbp_" + rhex(40))
simple(
    "terraform_cloud_token",
    "Terraform Cloud",
    "14 + `.atlasv1.` + 67",
    ["TFE_TOKEN", "TF_TOKEN_app_terraform_io"],
    lambda: rs(14) + ".atlasv1." + rs(67),
)
simple("pulumi_access_token", "Pulumi", "`pul-` + 40 hex", ["PULUMI_ACCESS_TOKEN"], lambda: "pul-" + rhex(40))
simple(
    "yandex_api_key",
    "Yandex Cloud",
    "`AQVN` + 36 characters",
    ["YC_API_KEY", "YANDEX_API_KEY"],
    lambda: "AQVN" + rs(36, URLSAFE),
    "Authorization: Api-Key",
)


@reg(
    "planetscale_token",
    "PlanetScale",
    "`pscale_tkn_` / `pscale_pw_` + 43 (service tokens and database passwords)",
    None,
)
def _pscale() -> list[tuple[str, str]]:
    if R.random() < 0.5:
        pw = "pscale_pw_" + rs(43, URLSAFE)
        return [
            (
                "DATABASE_URL",
                f'mysql://{rs(12, LOWER_ALNUM)}:{S("planetscale_token", pw)}@aws.connect.psdb.cloud/{project()}?ssl={{"rejectUnauthorized":true}}',
            )
        ]
    return [
        ("PLANETSCALE_SERVICE_TOKEN_ID", rs(12, LOWER_ALNUM)),
        ("PLANETSCALE_SERVICE_TOKEN", S("planetscale_token", "pscale_tkn_" + rs(43, URLSAFE))),
    ]


@reg("vault_token", "Vault", "`hvs.` short and long forms, `hvb.` batch tokens", "X-Vault-Token:")
def _vault() -> list[tuple[str, str]]:
    r = R.random()
    tok = (
        "hvs." + rs(24)
        if r < 0.5
        else (
            "hvs.CAESI" + rs(R.randint(80, 100), URLSAFE)
            if r < 0.8
            else "hvb.AAAAAQ" + rs(R.randint(120, 140), URLSAFE)
        )
    )
    return [("VAULT_TOKEN", S("vault_token", tok))]


@reg("doppler_token", "Doppler", "`dp.pt.` / `dp.st.<config>.` / `dp.sa.` / `dp.ct.` + 43", None)
def _doppler() -> list[tuple[str, str]]:
    pre = R.choice(["dp.pt.", f"dp.st.{R.choice(['dev', 'stg', 'prd'])}.", "dp.sa.", "dp.ct."])
    return [("DOPPLER_TOKEN", S("doppler_token", pre + rs(43)))]


@reg("onepassword_service_token", "1Password service account", "`ops_` + base64url JSON", None)
def _ops() -> list[tuple[str, str]]:
    body = {
        "signInAddress": "my.1password.com",
        "userAuth": {"method": "SRPg-4096", "alg": "PBES2g-HS256", "iterations": 650000, "salt": b64u(rb(16))},
        "email": rs(13, LOWER_ALNUM) + "@1passwordserviceaccounts.com",
        "srpX": rhex(64),
        "muk": {
            "alg": "A256GCM",
            "ext": True,
            "k": b64u(rb(32)),
            "key_ops": ["encrypt", "decrypt"],
            "kty": "oct",
            "kid": "mp",
        },
        "secretKey": "A3-" + rs(6, UPPER_ALNUM) + "-" + rs(26, UPPER_ALNUM),
        "throttleSecret": {"seed": rhex(64), "uuid": rs(26, UPPER_ALNUM)},
        "deviceUuid": rs(26, LOWER_ALNUM),
    }
    return [
        (
            "OP_SERVICE_ACCOUNT_TOKEN",
            S("onepassword_service_token", "ops_" + b64u(json.dumps(body, separators=(",", ":")).encode())),
        )
    ]


OP_ALPHA = "ABCDEFGHJKLMNPQRSTVWXYZ23456789"
simple(
    "onepassword_account_secret_key",
    "1Password account",
    "`A3-` + 6 + 6 + 5 x 5 groups (account Secret Key)",
    ["OP_SECRET_KEY", "1password_secret_key"],
    lambda: "A3-" + "-".join([rs(6, OP_ALPHA), rs(6, OP_ALPHA)] + [rs(5, OP_ALPHA) for _ in range(4)]),
    None,
)

# --- CI/CD, code hosting, developer tools -----------------------------------

simple(
    "github_pat_classic",
    "GitHub",
    "`ghp_` + 30 base62 + base62 CRC32",
    ["GITHUB_TOKEN", "GH_TOKEN", "GITHUB_PAT"],
    lambda: crc_token("ghp_"),
    "Authorization: token",
)
simple(
    "github_app_token",
    "GitHub App",
    "`gho_` / `ghu_` / `ghs_` / `ghr_` + 30 + CRC32",
    ["GH_APP_TOKEN", "GITHUB_OAUTH_TOKEN"],
    lambda: crc_token(R.choice(["gho_", "ghu_", "ghs_", "ghr_"])),
)
simple(
    "github_fine_grained_pat",
    "GitHub fine-grained",
    "`github_pat_11` + 20 + `_` + 59",
    ["GITHUB_TOKEN", "GH_PAT"],
    lambda: "github_pat_11" + rs(20, UPPER_ALNUM) + "_" + rs(59),
)
simple(
    "gitlab_token",
    "GitLab",
    "`glpat-` + 20, `gldt-` + 20, `glptt-` + 40 hex",
    ["GITLAB_TOKEN", "CI_JOB_TOKEN_OVERRIDE", "GL_TOKEN"],
    lambda: R.choice(
        ["glpat-" + rs(20, URLSAFE), "glpat-" + rs(20, URLSAFE), "gldt-" + rs(20, URLSAFE), "glptt-" + rhex(40)]
    ),
    "PRIVATE-TOKEN:",
)
simple(
    "gitlab_runner_token",
    "GitLab runner",
    "`glrt-` + 20 authentication tokens, `GR1348941` + 20 registration tokens",
    ["RUNNER_TOKEN", "REGISTRATION_TOKEN"],
    lambda: R.choice(["glrt-", "GR1348941"]) + rs(20, URLSAFE),
    None,
)
simple(
    "bitbucket_app_password",
    "Bitbucket",
    "`ATBB` + 32 alphanumerics + 8 hex",
    ["BITBUCKET_APP_PASSWORD"],
    lambda: "ATBB" + rs(32) + rhex(8).upper(),
    None,
)
simple(
    "circleci_token",
    "CircleCI",
    "`CCIPAT_` + 22 + `_` + 40 hex",
    ["CIRCLECI_TOKEN", "CIRCLE_TOKEN"],
    lambda: "CCIPAT_" + rs(22) + "_" + rhex(40),
    "Circle-Token:",
)
simple("buildkite_token", "Buildkite", "`bkua_` + 40 hex", ["BUILDKITE_API_TOKEN"], lambda: "bkua_" + rhex(40))
simple(
    "jenkins_api_token",
    "Jenkins",
    "`11` + 32 hex",
    ["JENKINS_API_TOKEN", "JENKINS_TOKEN"],
    lambda: "11" + rhex(32),
    None,
)
simple(
    "azure_devops_pat",
    "Azure DevOps",
    "52 characters `[a-z2-7]`",
    ["AZURE_DEVOPS_EXT_PAT", "ADO_PAT"],
    lambda: rs(52, "abcdefghijklmnopqrstuvwxyz234567"),
    None,
)
simple(
    "dockerhub_pat",
    "Docker Hub",
    "`dckr_pat_` + 27 characters",
    ["DOCKERHUB_TOKEN", "DOCKER_PASSWORD"],
    lambda: "dckr_pat_" + rs(27, URLSAFE),
    None,
)
simple(
    "sonarqube_token",
    "SonarQube",
    "`squ_` / `sqp_` / `sqa_` + 40 hex",
    ["SONAR_TOKEN"],
    lambda: R.choice(["squ_", "sqp_", "sqa_"]) + rhex(40),
)
simple("snyk_token", "Snyk", "UUID under a Snyk name", ["SNYK_TOKEN"], ruuid, "Authorization: token")
simple(
    "harness_pat",
    "Harness",
    "`pat.` + 22 + `.` + 24 + `.` + 20",
    ["HARNESS_API_KEY", "HARNESS_PLATFORM_API_KEY"],
    lambda: "pat." + rs(22, URLSAFE) + "." + rhex(24) + "." + rs(20),
    "x-api-key:",
)
simple(
    "octopus_deploy_api_key",
    "Octopus Deploy",
    "`API-` + 26 upper-case alphanumerics",
    ["OCTOPUS_API_KEY", "OCTOPUS_CLI_API_KEY"],
    lambda: "API-" + rs(26, UPPER_ALNUM),
    "X-Octopus-ApiKey:",
)
simple(
    "atlassian_api_token",
    "Atlassian",
    "`ATATT3xFfGF0` + 170 + `=` + 8 hex",
    ["JIRA_API_TOKEN", "CONFLUENCE_TOKEN", "ATLASSIAN_API_TOKEN"],
    lambda: "ATATT3xFfGF0" + rs(170, URLSAFE) + "=" + rhex(8).upper(),
    None,
)
simple(
    "linear_api_key",
    "Linear",
    "`lin_api_` + 40 alphanumerics",
    ["LINEAR_API_KEY"],
    lambda: "lin_api_" + rs(40),
    "Authorization:",
)
simple(
    "asana_pat",
    "Asana",
    "`2/` + 16 digits + `/` + 16 digits + `:` + 32 hex",
    ["ASANA_PAT", "ASANA_ACCESS_TOKEN"],
    lambda: f"2/{digits(16)}/{digits(16)}:{rhex(32)}",
)
simple(
    "clickup_pat",
    "ClickUp",
    "`pk_` + digits + `_` + 32 upper-case alphanumerics",
    ["CLICKUP_API_TOKEN"],
    lambda: f"pk_{digits(R.randint(7, 9))}_{rs(32, UPPER_ALNUM)}",
    "Authorization:",
)
simple(
    "figma_pat",
    "Figma",
    "`figd_` + 40 characters",
    ["FIGMA_TOKEN"],
    lambda: "figd_" + rs(40, URLSAFE),
    "X-Figma-Token:",
)
simple(
    "notion_token",
    "Notion",
    "`ntn_` + 11 digits + 35, or legacy `secret_` + 43",
    ["NOTION_TOKEN", "NOTION_API_KEY"],
    lambda: R.choice(["ntn_" + digits(11) + rs(35), "secret_" + rs(43)]),
)
simple(
    "airtable_pat",
    "Airtable",
    "`pat` + 14 + `.` + 64 hex",
    ["AIRTABLE_PAT", "AIRTABLE_TOKEN"],
    lambda: "pat" + rs(14) + "." + rhex(64),
)
simple(
    "postman_api_key",
    "Postman",
    "`PMAK-` + 24 hex + `-` + 34 hex",
    ["POSTMAN_API_KEY"],
    lambda: "PMAK-" + rhex(24) + "-" + rhex(34),
    "X-Api-Key:",
)
simple(
    "contentful_pat",
    "Contentful",
    "`CFPAT-` + 43 characters",
    ["CONTENTFUL_MANAGEMENT_TOKEN", "CONTENTFUL_PAT"],
    lambda: "CFPAT-" + rs(43, URLSAFE),
)
simple("typeform_pat", "Typeform", "`tfp_` + 44 + `_` + 14", ["TYPEFORM_TOKEN"], lambda: "tfp_" + rs(44) + "_" + rs(14))
simple(
    "intercom_access_token",
    "Intercom",
    "base64 of `tok:<id>:1:0` (starts `dG9rOj`)",
    ["INTERCOM_ACCESS_TOKEN"],
    lambda: b64(f"tok:{rhex(8)}_{rhex(4)}_{rhex(4)}_{rhex(4)}_{rhex(12)}:1:0".encode()),
)
simple(
    "zendesk_api_token",
    "Zendesk",
    "40 alphanumerics (name only)",
    ["ZENDESK_API_TOKEN", "ZD_TOKEN"],
    lambda: rs(40),
    None,
)
simple(
    "readme_api_key",
    "ReadMe",
    "`rdme_` + 70 `[a-z0-9]`",
    ["README_API_KEY", "RDME_API_KEY"],
    lambda: "rdme_" + rs(70, LOWER_ALNUM),
    None,
)
simple("prefect_api_key", "Prefect Cloud", "`pnu_` + 36 alphanumerics", ["PREFECT_API_KEY"], lambda: "pnu_" + rs(36))
simple("frameio_token", "Frame.io", "`fio-u-` + 64 characters", ["FRAMEIO_TOKEN"], lambda: "fio-u-" + rs(64, URLSAFE))
simple(
    "dropbox_access_token",
    "Dropbox",
    "`sl.` + 135+ characters (short-lived access token)",
    ["DROPBOX_ACCESS_TOKEN"],
    lambda: "sl." + rs(1, "BCu") + rs(R.randint(134, 140), URLSAFE),
)

# --- package registries -----------------------------------------------------

simple(
    "npm_token", "npm", "`npm_` + 30 + base62 CRC32", ["NPM_TOKEN", "NODE_AUTH_TOKEN"], lambda: crc_token("npm_"), None
)
simple(
    "pypi_token",
    "PyPI",
    "`pypi-` + base64url v2 macaroon (location `pypi.org`, real HMAC chain)",
    ["PYPI_API_TOKEN", "TWINE_PASSWORD", "UV_PUBLISH_TOKEN"],
    pypi_macaroon,
    None,
)
simple(
    "rubygems_api_key",
    "RubyGems",
    "`rubygems_` + 48 hex",
    ["GEM_HOST_API_KEY", "RUBYGEMS_API_KEY"],
    lambda: "rubygems_" + rhex(48),
    None,
)
simple(
    "nuget_api_key",
    "NuGet",
    "`oy2` + 43 `[a-z0-9]`",
    ["NUGET_API_KEY"],
    lambda: "oy2" + rs(43, LOWER_ALNUM),
    "X-NuGet-ApiKey:",
)
simple(
    "cratesio_token", "crates.io", "`cio` + 32 alphanumerics", ["CARGO_REGISTRY_TOKEN"], lambda: "cio" + rs(32), None
)
simple(
    "clojars_token",
    "Clojars",
    "`CLOJARS_` + 60 `[a-z0-9]` deploy token",
    ["CLOJARS_PASSWORD", "CLOJARS_DEPLOY_TOKEN"],
    lambda: "CLOJARS_" + rs(60, LOWER_ALNUM),
    None,
)
simple(
    "jfrog_token",
    "JFrog Artifactory",
    "`AKCp` + 69 API keys, `cmVmdGtuOjAxOj` reference tokens",
    ["ARTIFACTORY_API_KEY", "JFROG_ACCESS_TOKEN"],
    lambda: R.choice(["AKCp" + rs(69), b64(f"reftkn:01:{digits(10)}:{rs(32)}".encode()).rstrip("=")]),
    "X-JFrog-Art-Api:",
)

# --- payments ---------------------------------------------------------------

simple(
    "stripe_secret_key",
    "Stripe",
    "`sk_live_` + 24, or `sk_live_51` + 97",
    ["STRIPE_SECRET_KEY", "STRIPE_API_KEY"],
    lambda: R.choice(["sk_live_" + rs(24), "sk_live_51" + rs(97)]),
)
simple(
    "stripe_restricted_key",
    "Stripe restricted",
    "`rk_live_` + 24, or `rk_live_51` + 97",
    ["STRIPE_RESTRICTED_KEY"],
    lambda: R.choice(["rk_live_" + rs(24), "rk_live_51" + rs(97)]),
)
simple(
    "stripe_webhook_secret",
    "Stripe webhook",
    "`whsec_` + 32 alphanumerics",
    ["STRIPE_WEBHOOK_SECRET"],
    lambda: "whsec_" + rs(32),
    None,
)
simple(
    "square_access_token",
    "Square",
    "`EAAA` + 60, or `sq0csp-` + 43",
    ["SQUARE_ACCESS_TOKEN", "SQUARE_APP_SECRET"],
    lambda: R.choice(["EAAA" + rs(60, URLSAFE), "sq0csp-" + rs(43, URLSAFE)]),
)
simple("paystack_secret_key", "Paystack", "`sk_live_` + 40 hex", ["PAYSTACK_SECRET_KEY"], lambda: "sk_live_" + rhex(40))
simple(
    "flutterwave_secret_key",
    "Flutterwave",
    "`FLWSECK-` + 32 hex + `-X`",
    ["FLW_SECRET_KEY"],
    lambda: "FLWSECK-" + rhex(32) + "-X",
)
simple("mollie_api_key", "Mollie", "`live_` + 30 alphanumerics", ["MOLLIE_API_KEY"], lambda: "live_" + rs(30))
simple(
    "shopify_access_token",
    "Shopify",
    "`shpat_` / `shpca_` / `shppa_` / `shpss_` + 32 hex",
    ["SHOPIFY_ACCESS_TOKEN", "SHOPIFY_API_SECRET"],
    lambda: R.choice(["shpat_", "shpca_", "shppa_", "shpss_"]) + rhex(32),
    "X-Shopify-Access-Token:",
)
simple(
    "braintree_access_token",
    "Braintree",
    "`access_token$production$` + 16 + `$` + 32 hex",
    ["BRAINTREE_ACCESS_TOKEN"],
    lambda: f"access_token$production${rs(16, LOWER_ALNUM)}${rhex(32)}",
    None,
)
simple(
    "duffel_api_token",
    "Duffel",
    "`duffel_live_` + 43 characters",
    ["DUFFEL_ACCESS_TOKEN"],
    lambda: "duffel_live_" + rs(43, URLSAFE),
)
simple(
    "easypost_api_key",
    "EasyPost",
    "`EZAK` + 54 alphanumerics",
    ["EASYPOST_API_KEY"],
    lambda: "EZAK" + rs(54, LOWER_ALNUM),
    None,
)
simple(
    "shippo_api_token",
    "Shippo",
    "`shippo_live_` + 40 hex",
    ["SHIPPO_API_TOKEN"],
    lambda: "shippo_live_" + rhex(40),
    "Authorization: ShippoToken",
)


@reg("paypal_client_secret", "PayPal", "80 characters starting `E` (the `A...` client id is a look-alike)", None)
def _paypal() -> list[tuple[str, str]]:
    return [
        ("PAYPAL_CLIENT_ID", L("oauth_client_id", "A" + rs(79, URLSAFE))),
        ("PAYPAL_CLIENT_SECRET", S("paypal_client_secret", "E" + rs(79, URLSAFE))),
    ]


@reg("razorpay_key_secret", "Razorpay", "24 alphanumerics next to the public `rzp_live_` key id (a look-alike)", None)
def _razorpay() -> list[tuple[str, str]]:
    return [
        ("RAZORPAY_KEY_ID", L("public_client_key", "rzp_live_" + rs(14))),
        ("RAZORPAY_KEY_SECRET", S("razorpay_key_secret", rs(24))),
    ]


@reg("plaid_secret", "Plaid", "30 hex secret (the 24-hex client id is a look-alike)", None)
def _plaid() -> list[tuple[str, str]]:
    return [("PLAID_CLIENT_ID", L("account_identifier", rhex(24))), ("PLAID_SECRET", S("plaid_secret", rhex(30)))]


# --- messaging --------------------------------------------------------------

simple(
    "slack_bot_token",
    "Slack bot",
    "`xoxb-` digits-digits-24",
    ["SLACK_BOT_TOKEN"],
    lambda: f"xoxb-{digits(R.randint(10, 13))}-{digits(R.randint(10, 13))}-{rs(24)}",
)
simple(
    "slack_user_token",
    "Slack user",
    "`xoxp-` 4 groups, last 32 hex",
    ["SLACK_USER_TOKEN"],
    lambda: f"xoxp-{digits(11)}-{digits(11)}-{digits(13)}-{rhex(32)}",
)
simple(
    "slack_app_token",
    "Slack app-level",
    "`xapp-1-A...-<13 digits>-<64 hex>`",
    ["SLACK_APP_TOKEN"],
    lambda: f"xapp-1-A{rs(10, UPPER_ALNUM)}-{digits(13)}-{rhex(64)}",
)
simple(
    "slack_webhook_url",
    "Slack webhook",
    "whole `https://hooks.slack.com/services/T.../B.../...` URL",
    ["SLACK_WEBHOOK_URL"],
    lambda: (
        f"https://hooks.slack.com/services/T{rs(R.randint(8, 10), UPPER_ALNUM)}/B{rs(R.randint(8, 10), UPPER_ALNUM)}/{rs(24)}"
    ),
    None,
)
simple(
    "discord_bot_token",
    "Discord bot",
    "base64(user id) + `.` + 6 + `.` + 38",
    ["DISCORD_TOKEN", "DISCORD_BOT_TOKEN"],
    lambda: b64u(digits(R.randint(18, 19)).encode()) + "." + rs(6, URLSAFE) + "." + rs(38, URLSAFE),
    "Authorization: Bot",
)
simple(
    "discord_webhook_url",
    "Discord webhook",
    "whole `https://discord.com/api/webhooks/<id>/<68>` URL",
    ["DISCORD_WEBHOOK_URL"],
    lambda: f"https://discord.com/api/webhooks/{digits(19)}/{rs(68, URLSAFE)}",
    None,
)
simple(
    "msteams_webhook_url",
    "Teams webhook",
    "whole `*.webhook.office.com/webhookb2/...` URL",
    ["TEAMS_WEBHOOK_URL"],
    lambda: (
        f"https://{R.choice(['contoso', 'acmecorp', 'fabrikam'])}.webhook.office.com/webhookb2/{ruuid()}@{ruuid()}/IncomingWebhook/{rhex(32)}/{ruuid()}"
        + R.choice(["", "/V2" + rs(43, URLSAFE)])
    ),
    None,
)
simple(
    "google_chat_webhook_url",
    "Google Chat webhook",
    "whole `chat.googleapis.com/v1/spaces/.../messages?key=...&token=...` URL",
    ["GCHAT_WEBHOOK_URL", "GOOGLE_CHAT_WEBHOOK"],
    lambda: (
        f"https://chat.googleapis.com/v1/spaces/AAAA{rs(7, URLSAFE)}/messages?key=AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI&token={rs(43, URLSAFE)}%3D"
    ),
    None,
)
simple(
    "telegram_bot_token",
    "Telegram bot",
    "`<bot id>:AA` + 33 characters",
    ["TELEGRAM_BOT_TOKEN"],
    lambda: f"{digits(R.randint(9, 10))}:AA{rs(33, URLSAFE)}",
    None,
)
simple(
    "sendgrid_api_key",
    "SendGrid",
    "`SG.` + 22 + `.` + 43",
    ["SENDGRID_API_KEY"],
    lambda: "SG." + rs(22, URLSAFE) + "." + rs(43, URLSAFE),
)
simple("mailgun_api_key", "Mailgun", "`key-` + 32 hex", ["MAILGUN_API_KEY"], lambda: "key-" + rhex(32), None)
simple(
    "mailchimp_api_key",
    "Mailchimp",
    "32 hex + `-us<N>`",
    ["MAILCHIMP_API_KEY"],
    lambda: rhex(32) + f"-us{R.randint(1, 21)}",
)
simple(
    "postmark_server_token",
    "Postmark",
    "UUID server token (name or `X-Postmark-Server-Token`)",
    ["POSTMARK_SERVER_TOKEN"],
    ruuid,
    "X-Postmark-Server-Token:",
)
simple(
    "brevo_api_key",
    "Brevo",
    "`xkeysib-` + 64 hex + `-` + 16",
    ["BREVO_API_KEY", "SENDINBLUE_API_KEY"],
    lambda: "xkeysib-" + rhex(64) + "-" + rs(16),
    "api-key:",
)


@reg("twilio_auth_token", "Twilio", "32 hex auth token (the `AC...` Account SID is a look-alike)", None)
def _twilio() -> list[tuple[str, str]]:
    return [
        ("TWILIO_ACCOUNT_SID", L("account_identifier", "AC" + rhex(32))),
        ("TWILIO_AUTH_TOKEN", S("twilio_auth_token", rhex(32))),
    ]


# --- AI / ML ----------------------------------------------------------------

simple(
    "openai_api_key",
    "OpenAI",
    "`sk-proj-` / `sk-svcacct-` ... `T3BlbkFJ` ..., legacy `sk-` 20 + `T3BlbkFJ` + 20",
    ["OPENAI_API_KEY"],
    lambda: R.choice(
        [
            "sk-proj-" + rs(74, URLSAFE) + "T3BlbkFJ" + rs(74, URLSAFE),
            "sk-svcacct-" + rs(74, URLSAFE) + "T3BlbkFJ" + rs(74, URLSAFE),
            "sk-" + rs(20) + "T3BlbkFJ" + rs(20),
        ]
    ),
)
simple(
    "anthropic_api_key",
    "Anthropic",
    "`sk-ant-api03-` + 93 + `AA`",
    ["ANTHROPIC_API_KEY"],
    lambda: "sk-ant-api03-" + rs(93, URLSAFE) + "AA",
    "x-api-key:",
)
simple(
    "anthropic_admin_key",
    "Anthropic Admin API",
    "`sk-ant-admin01-` + 93 + `AA`",
    ["ANTHROPIC_ADMIN_KEY"],
    lambda: "sk-ant-admin01-" + rs(93, URLSAFE) + "AA",
    "x-api-key:",
)
simple(
    "huggingface_token",
    "Hugging Face",
    "`hf_` + 34 letters",
    ["HF_TOKEN", "HUGGINGFACE_HUB_TOKEN"],
    lambda: "hf_" + rs(34, string.ascii_letters),
)
simple("replicate_api_token", "Replicate", "`r8_` + 37 alphanumerics", ["REPLICATE_API_TOKEN"], lambda: "r8_" + rs(37))
simple("groq_api_key", "Groq", "`gsk_` + 52 alphanumerics", ["GROQ_API_KEY"], lambda: "gsk_" + rs(52))
simple(
    "perplexity_api_key", "Perplexity", "`pplx-` + 48 alphanumerics", ["PERPLEXITY_API_KEY"], lambda: "pplx-" + rs(48)
)
simple("xai_api_key", "xAI", "`xai-` + 80 alphanumerics", ["XAI_API_KEY"], lambda: "xai-" + rs(80))
simple("cohere_api_key", "Cohere", "40 alphanumerics (name only)", ["COHERE_API_KEY", "CO_API_KEY"], lambda: rs(40))
simple("mistral_api_key", "Mistral", "32 alphanumerics (name only)", ["MISTRAL_API_KEY"], lambda: rs(32))
simple(
    "pinecone_api_key",
    "Pinecone",
    "`pcsk_` + 6 + `_` + 63 (base58)",
    ["PINECONE_API_KEY"],
    lambda: "pcsk_" + rs(6, B58) + "_" + rs(63, B58),
    "Api-Key:",
)
simple(
    "langsmith_api_key",
    "LangSmith",
    "`lsv2_pt_` / `lsv2_sk_` + 32 hex + `_` + 10 hex",
    ["LANGSMITH_API_KEY", "LANGCHAIN_API_KEY"],
    lambda: R.choice(["lsv2_pt_", "lsv2_sk_"]) + rhex(32) + "_" + rhex(10),
    "x-api-key:",
)
simple(
    "elevenlabs_api_key",
    "ElevenLabs",
    "`sk_` + 48 hex",
    ["ELEVENLABS_API_KEY", "XI_API_KEY"],
    lambda: "sk_" + rhex(48),
    "xi-api-key:",
)
simple("deepseek_api_key", "DeepSeek", "`sk-` + 32 hex", ["DEEPSEEK_API_KEY"], lambda: "sk-" + rhex(32))
simple(
    "openrouter_api_key", "OpenRouter", "`sk-or-v1-` + 64 hex", ["OPENROUTER_API_KEY"], lambda: "sk-or-v1-" + rhex(64)
)
simple("wandb_api_key", "Weights & Biases", "40 hex (name only)", ["WANDB_API_KEY"], lambda: rhex(40), None)
simple(
    "google_api_key",
    "Google API",
    "`AIza` + 35 characters (server-side Gemini / Maps / YouTube keys)",
    ["GEMINI_API_KEY", "GOOGLE_MAPS_SERVER_KEY", "YOUTUBE_API_KEY"],
    lambda: "AIza" + rs(35, URLSAFE),
    "x-goog-api-key:",
)

# --- observability ----------------------------------------------------------

simple(
    "datadog_api_key",
    "Datadog",
    "32 hex (name or `DD-API-KEY`)",
    ["DD_API_KEY", "DATADOG_API_KEY"],
    lambda: rhex(32),
    "DD-API-KEY:",
)
simple(
    "datadog_app_key",
    "Datadog application",
    "40 hex (name or `DD-APPLICATION-KEY`)",
    ["DD_APP_KEY", "DATADOG_APP_KEY"],
    lambda: rhex(40),
    "DD-APPLICATION-KEY:",
)
simple(
    "newrelic_license_key",
    "New Relic ingest",
    "36 hex + `NRAL`",
    ["NEW_RELIC_LICENSE_KEY"],
    lambda: rhex(36) + "NRAL",
    "Api-Key:",
)
simple(
    "newrelic_user_api_key",
    "New Relic user",
    "`NRAK-` + 27",
    ["NEW_RELIC_API_KEY"],
    lambda: "NRAK-" + rs(27, UPPER_ALNUM),
    "API-Key:",
)
simple(
    "sentry_auth_token",
    "Sentry",
    "`sntrys_` + base64 JSON + `_` + 43, or `sntryu_` + 64 hex",
    ["SENTRY_AUTH_TOKEN"],
    lambda: R.choice(
        [
            "sntryu_" + rhex(64),
            "sntrys_"
            + b64(
                json.dumps(
                    {
                        "iat": R.randint(1_700_000_000, 1_790_000_000),
                        "url": "https://sentry.io",
                        "region_url": "https://us.sentry.io",
                        "org": project(),
                    },
                    separators=(",", ":"),
                ).encode()
            ).rstrip("=")
            + "_"
            + rs(43, ALNUM + "+/"),
        ]
    ),
)
simple(
    "grafana_service_account_token",
    "Grafana",
    "`glsa_` + 32 + `_` + 8 hex",
    ["GRAFANA_TOKEN", "GF_SA_TOKEN"],
    lambda: "glsa_" + rs(32) + "_" + rhex(8),
)
simple(
    "grafana_cloud_token",
    "Grafana Cloud",
    "`glc_` + base64 JSON access-policy token",
    ["GRAFANA_CLOUD_TOKEN", "GRAFANA_CLOUD_API_KEY"],
    lambda: (
        "glc_"
        + b64(
            json.dumps(
                {
                    "o": digits(6),
                    "n": f"{project()}-write-{rs(4, LOWER_ALNUM)}",
                    "k": rs(24),
                    "m": {"r": R.choice(["prod-us-east-0", "prod-eu-west-2", "prod-ap-southeast-1"])},
                },
                separators=(",", ":"),
            ).encode()
        )
    ),
)
simple(
    "dynatrace_token",
    "Dynatrace",
    "`dt0c01.` + 24 + `.` + 64",
    ["DT_API_TOKEN", "DYNATRACE_TOKEN"],
    lambda: "dt0c01." + rs(24, UPPER_ALNUM) + "." + rs(64, UPPER_ALNUM),
    "Authorization: Api-Token",
)
simple(
    "splunk_hec_token",
    "Splunk HEC",
    "UUID after `Splunk ` / under a HEC name",
    ["SPLUNK_HEC_TOKEN"],
    lambda: ruuid().upper() if R.random() < 0.4 else ruuid(),
    "Authorization: Splunk",
)
simple(
    "honeycomb_api_key",
    "Honeycomb",
    "22 alphanumerics (name or `x-honeycomb-team`)",
    ["HONEYCOMB_API_KEY", "HONEYCOMB_WRITEKEY"],
    lambda: rs(22),
    "x-honeycomb-team:",
)
simple(
    "pagerduty_api_token",
    "PagerDuty",
    "20 characters (`u+...` user tokens) after `Token token=`",
    ["PAGERDUTY_TOKEN", "PD_API_KEY"],
    lambda: R.choice(["u+", ""]) + rs(20 if R.random() < 0.5 else 18, URLSAFE),
    "Authorization: Token token=",
)
simple("opsgenie_api_key", "Opsgenie", "UUID after `GenieKey `", ["OPSGENIE_API_KEY"], ruuid, "Authorization: GenieKey")
simple(
    "rollbar_access_token",
    "Rollbar",
    "32 hex (name or `X-Rollbar-Access-Token`)",
    ["ROLLBAR_ACCESS_TOKEN", "ROLLBAR_SERVER_TOKEN"],
    lambda: rhex(32),
    "X-Rollbar-Access-Token:",
)
simple(
    "launchdarkly_key",
    "LaunchDarkly",
    "`sdk-` / `api-` + UUID",
    ["LAUNCHDARKLY_SDK_KEY", "LD_API_KEY"],
    lambda: R.choice(["sdk-", "api-"]) + ruuid(),
    "Authorization:",
)
simple(
    "mixpanel_api_secret",
    "Mixpanel",
    "32 hex project secret (the project token is a look-alike)",
    ["MIXPANEL_API_SECRET", "MIXPANEL_SECRET"],
    lambda: rhex(32),
    None,
)
simple(
    "posthog_personal_api_key",
    "PostHog personal",
    "`phx_` + 47 alphanumerics (the `phc_` project key is a look-alike)",
    ["POSTHOG_PERSONAL_API_KEY"],
    lambda: "phx_" + rs(47),
)
simple(
    "axiom_token", "Axiom", "`xaat-` / `xapt-` + UUID", ["AXIOM_TOKEN"], lambda: R.choice(["xaat-", "xapt-"]) + ruuid()
)


@reg("sumologic_access_key", "Sumo Logic", "64 alphanumerics (the `su...` access id is a look-alike)", None)
def _sumo() -> list[tuple[str, str]]:
    return [
        ("SUMO_ACCESS_ID", L("account_identifier", "su" + rs(12))),
        ("SUMO_ACCESS_KEY", S("sumologic_access_key", rs(64))),
    ]


# --- identity ---------------------------------------------------------------

simple(
    "okta_api_token",
    "Okta",
    "`00` + 40 characters (`SSWS`)",
    ["OKTA_API_TOKEN", "OKTA_CLIENT_TOKEN"],
    lambda: "00" + rs(40, URLSAFE),
    "Authorization: SSWS",
)


@reg(
    "oauth_client_secret",
    "OAuth app",
    "Google `GOCSPX-`, GitHub 40 hex, Auth0 64, Keycloak 32 (client ids are look-alikes)",
    None,
)
def _oauth() -> list[tuple[str, str]]:
    r = R.randrange(4)
    if r == 0:
        cid, sec = f"{digits(12)}-{rs(32, LOWER_ALNUM)}.apps.googleusercontent.com", "GOCSPX-" + rs(28, URLSAFE)
    elif r == 1:
        cid, sec = R.choice(["Iv1." + rhex(16), "Ov23li" + rs(14)]), rhex(40)
    elif r == 2:
        cid, sec = rs(32), rs(64, URLSAFE)
    else:
        cid, sec = project() + "-backend", rs(32)
    return [("OAUTH_CLIENT_ID", L("oauth_client_id", cid)), ("OAUTH_CLIENT_SECRET", S("oauth_client_secret", sec))]


@reg("adobe_client_secret", "Adobe Developer", "`p8e-` + 32 alphanumerics (the 32-hex client id is a look-alike)", None)
def _adobe() -> list[tuple[str, str]]:
    return [
        ("ADOBE_CLIENT_ID", L("oauth_client_id", rhex(32))),
        ("ADOBE_CLIENT_SECRET", S("adobe_client_secret", "p8e-" + rs(32, ALNUM + "-_"))),
    ]


@reg("jwt", "JWT", "HS256 JWTs with real HMAC signatures: service-role keys, long-lived API tokens")
def _jwt() -> list[tuple[str, str]]:
    now = R.randint(1_700_000_000, 1_790_000_000)
    if R.random() < 0.4:
        payload: dict[str, object] = {
            "iss": "supabase",
            "ref": rs(20, string.ascii_lowercase),
            "role": "service_role",
            "iat": now,
            "exp": now + 315_360_000,
        }
        key = "SUPABASE_SERVICE_ROLE_KEY"
    else:
        payload = {
            "sub": R.choice(["svc-", "ci-", "bot-"]) + project(),
            "scope": R.choice(["admin", "write:all", "ingest"]),
            "iat": now,
            "exp": now + R.choice([31_536_000, 157_680_000]),
        }
        key = R.choice(["API_JWT", "SERVICE_TOKEN", "INTERNAL_JWT"])
    return [(key, S("jwt", jwt_hs256(payload, rb(32))))]


# --- private keys -----------------------------------------------------------


@reg("rsa_private_key", "RSA key", "2048-bit RSA key, PKCS #1 or PKCS #8 PEM (structurally valid DER)", None, True)
def _rsa() -> list[tuple[str, str]]:
    return [
        (R.choice(["TLS_KEY", "JWT_PRIVATE_KEY", "SAML_SP_KEY", "deploy.pem"]), S("rsa_private_key", rsa_private_pem()))
    ]


@reg("ec_private_key", "EC key", "real P-256 key, SEC 1 or PKCS #8 PEM", None, True)
def _ec() -> list[tuple[str, str]]:
    return [
        (
            R.choice(["APPLE_PUSH_KEY", "SIGNING_KEY", "tls.key", "ES256_PRIVATE_KEY"]),
            S("ec_private_key", ec_private_pem()),
        )
    ]


@reg("ed25519_private_key", "Ed25519 key", "PKCS #8 Ed25519 PEM", None, True)
def _ed() -> list[tuple[str, str]]:
    return [
        (
            R.choice(["ED25519_SIGNING_KEY", "webhook_signer.pem", "NODE_KEY"]),
            S("ed25519_private_key", ed25519_private_pem()),
        )
    ]


@reg("openssh_private_key", "SSH key", "`openssh-key-v1` Ed25519 key embedding its real public key", None, True)
def _openssh() -> list[tuple[str, str]]:
    return [
        (
            R.choice(["DEPLOY_SSH_KEY", "SSH_PRIVATE_KEY", "id_ed25519"]),
            S("openssh_private_key", openssh_private_key(f"{user()}@{project()}")),
        )
    ]


@reg(
    "pgp_private_key",
    "PGP key",
    "armored `PGP PRIVATE KEY BLOCK` (v4 EdDSA packet header, random body) with a correct CRC-24 line",
    None,
    True,
)
def _pgp() -> list[tuple[str, str]]:
    return [
        (R.choice(["GPG_PRIVATE_KEY", "RELEASE_SIGNING_KEY", "signing.asc"]), S("pgp_private_key", pgp_private_block()))
    ]


@reg(
    "putty_private_key",
    "PuTTY key",
    "`PuTTY-User-Key-File-3` Ed25519 key file (unencrypted, real public key and MAC)",
    None,
    True,
)
def _putty() -> list[tuple[str, str]]:
    return [(R.choice(["bastion.ppk", "PUTTY_KEY", "jumpbox.ppk"]), S("putty_private_key", putty_private_key()))]


@reg("age_secret_key", "age", "`AGE-SECRET-KEY-1` + bech32 (the `age1...` recipient is a look-alike)", None)
def _age() -> list[tuple[str, str]]:
    priv = rb(32)
    sk = bech32("age-secret-key-", _convertbits(priv)).upper()
    return [
        ("age recipient", L("age_recipient", bech32("age", _convertbits(x25519_public(priv))))),
        ("SOPS_AGE_KEY", S("age_secret_key", sk)),
    ]


@reg("wireguard_private_key", "WireGuard", "base64 X25519 private key (the derived public key is a look-alike)", None)
def _wg() -> list[tuple[str, str]]:
    priv = clamp25519(rb(32))
    return [
        ("PublicKey", L("wireguard_public_key", b64(x25519_public(priv)))),
        ("PrivateKey", S("wireguard_private_key", b64(priv))),
    ]


@reg(
    "kube_client_key_data",
    "kubeconfig",
    "base64 of a P-256 PEM as `client-key-data` (certificate data is a look-alike)",
    None,
)
def _kube() -> list[tuple[str, str]]:
    cert = certificate_pem("system:admin")
    return [
        ("client-certificate-data", L("certificate", b64(cert.encode()))),
        ("client-key-data", S("kube_client_key_data", b64(ec_private_pem(False).encode()))),
    ]


# --- databases and passwords -------------------------------------------------


@reg(
    "postgres_password",
    "Postgres",
    "password in `postgres://` URLs, libpq / JDBC strings, `PGPASSWORD`, `.pgpass`",
    None,
)
def _pg() -> list[tuple[str, str]]:
    pw, u, h, db = url_password(), user(), R.choice(HOSTS), project().replace("-", "_")
    r = R.randrange(5)
    if r == 0:
        return [("DATABASE_URL", f"postgres://{u}:{S('postgres_password', pw)}@{h}:5432/{db}")]
    if r == 1:
        return [
            ("PG_DSN", f"host={h} port=5432 dbname={db} user={u} password={S('postgres_password', pw)} sslmode=require")
        ]
    if r == 2:
        return [
            ("spring.datasource.url", f"jdbc:postgresql://{h}:5432/{db}"),
            ("spring.datasource.password", S("postgres_password", pw)),
        ]
    if r == 3:
        return [("PGUSER", u), ("PGPASSWORD", S("postgres_password", pw))]
    return [("SQLALCHEMY_DATABASE_URI", f"postgresql+psycopg://{u}:{S('postgres_password', pw)}@{h}/{db}")]


@reg("mysql_password", "MySQL", "password in `mysql://` URLs, Go DSNs, JDBC, `MYSQL_PASSWORD`", None)
def _mysql() -> list[tuple[str, str]]:
    pw, u, h, db = url_password(), user(), R.choice(HOSTS), project().replace("-", "_")
    r = R.randrange(4)
    if r == 0:
        return [("DATABASE_URL", f"mysql://{u}:{S('mysql_password', pw)}@{h}:3306/{db}")]
    if r == 1:
        return [("MYSQL_DSN", f"{u}:{S('mysql_password', pw)}@tcp({h}:3306)/{db}?parseTime=true")]
    if r == 2:
        return [("MYSQL_USER", u), ("MYSQL_PASSWORD", S("mysql_password", pw))]
    return [("jdbc.url", f"jdbc:mysql://{h}:3306/{db}?user={u}&password={S('mysql_password', pw)}")]


@reg("mongodb_password", "MongoDB", "password in `mongodb://` / `mongodb+srv://` URIs", None)
def _mongo() -> list[tuple[str, str]]:
    pw, u = url_password(), user()
    if R.random() < 0.6:
        return [
            (
                "MONGODB_URI",
                f"mongodb+srv://{u}:{S('mongodb_password', pw)}@cluster0.{rs(5, LOWER_ALNUM)}.mongodb.net/{project()}?retryWrites=true&w=majority",
            )
        ]
    return [("MONGO_URL", f"mongodb://{u}:{S('mongodb_password', pw)}@{R.choice(HOSTS)}:27017/admin?authSource=admin")]


@reg("redis_password", "Redis", "password in `redis://` / `rediss://` URLs, `REDIS_PASSWORD`, `requirepass`", None)
def _redis() -> list[tuple[str, str]]:
    pw = url_password()
    r = R.randrange(3)
    if r == 0:
        return [
            (
                "REDIS_URL",
                f"{R.choice(['redis', 'rediss'])}://default:{S('redis_password', pw)}@{R.choice(HOSTS)}:6379/0",
            )
        ]
    if r == 1:
        return [("REDIS_PASSWORD", S("redis_password", pw))]
    return [("CACHE_URL", f"redis://:{S('redis_password', pw)}@{R.choice(HOSTS)}:6380")]


@reg("mssql_password", "SQL Server", "password in ADO.NET / ODBC connection strings, `mssql+pyodbc://`", None)
def _mssql() -> list[tuple[str, str]]:
    pw, u = url_password(), user()
    if R.random() < 0.6:
        return [
            (
                "ConnectionStrings__Default",
                f"Server=tcp:{R.choice(HOSTS)},1433;Initial Catalog={project()};User ID={u};Password={S('mssql_password', pw)};Encrypt=True;",
            )
        ]
    return [
        (
            "MSSQL_URL",
            f"mssql+pyodbc://{u}:{S('mssql_password', pw)}@{R.choice(HOSTS)}/{project()}?driver=ODBC+Driver+18+for+SQL+Server",
        )
    ]


@reg("amqp_password", "RabbitMQ", "password in `amqp://` / `amqps://` URLs, `RABBITMQ_DEFAULT_PASS`", None)
def _amqp() -> list[tuple[str, str]]:
    pw, u = url_password(), user()
    if R.random() < 0.6:
        return [
            (
                "AMQP_URL",
                f"{R.choice(['amqp', 'amqps'])}://{u}:{S('amqp_password', pw)}@{R.choice(HOSTS)}:5672/{R.choice(['%2F', 'jobs', 'events'])}",
            )
        ]
    return [("RABBITMQ_DEFAULT_USER", u), ("RABBITMQ_DEFAULT_PASS", S("amqp_password", pw))]


@reg("smtp_password", "SMTP", "SMTP passwords: `smtp://` URLs, `EMAIL_HOST_PASSWORD`, `SMTP_PASS`", None)
def _smtp() -> list[tuple[str, str]]:
    pw, u = url_password(), user()
    if R.random() < 0.5:
        return [
            (
                "SMTP_URL",
                f"smtp://{u}%40{project()}.io:{S('smtp_password', pw)}@smtp.{R.choice(['mailhub.io', 'office365.com', 'fastmail.com'])}:587",
            )
        ]
    return [("EMAIL_HOST_USER", f"{u}@{project()}.io"), ("EMAIL_HOST_PASSWORD", S("smtp_password", pw))]


@reg("url_credential_password", "private repository", "password in `https://user:pass@`, `ftp://`, proxy URLs", None)
def _urlcred() -> list[tuple[str, str]]:
    pw, u = url_password(), user()
    host = R.choice(
        [
            "git.internal.example.net",
            "proxy.corp.lan:3128",
            "ftp.partner-files.net",
            "nexus.build.lan/repository/pypi/simple",
        ]
    )
    scheme = "ftp" if host.startswith("ftp") else ("http" if "proxy" in host else "https")
    key = {"ftp": "FTP_URL", "http": "HTTPS_PROXY"}.get(scheme, "REPO_URL")
    return [(key, f"{scheme}://{u}:{S('url_credential_password', pw)}@{host}")]


simple(
    "generic_password",
    "account",
    "human and random passwords under ordinary names (admin, LDAP, Wi-Fi, keystore, VPN)",
    [
        "ADMIN_PASSWORD",
        "LDAP_BIND_PASSWORD",
        "KEYSTORE_PASSWORD",
        "WIFI_PSK",
        "VPN_PASSWORD",
        "ROOT_PASSWORD",
        "GRAFANA_ADMIN_PASSWORD",
        "db_password",
    ],
    password,
    None,
)
simple(
    "generic_api_key",
    "internal API",
    "32-64 character keys for in-house or unnamed services",
    ["API_KEY", "INTERNAL_API_KEY", "PARTNER_API_KEY", "X_API_KEY", "SERVICE_KEY"],
    lambda: rs(R.choice([32, 40, 48, 64]), R.choice([ALNUM, HEXD, URLSAFE])),
    "X-Api-Key:",
)
simple(
    "bearer_token",
    "API gateway",
    "opaque token after `Bearer ` or in an access-token variable",
    ["ACCESS_TOKEN", "AUTH_TOKEN", "API_BEARER"],
    lambda: rs(R.randint(40, 72), URLSAFE + "."),
)


@reg("http_basic_auth", "Basic auth", "base64(`user:password`) after `Basic `", "Authorization: Basic")
def _basic() -> list[tuple[str, str]]:
    return [("BASIC_AUTH_HEADER", "Basic " + S("http_basic_auth", b64(f"{user()}:{password()}".encode())))]


@reg(
    "session_cookie",
    "session cookie",
    "cookie values (`sessionid`, `connect.sid`, Rails, `PHPSESSID`, `laravel_session`); only the value",
    None,
)
def _cookie() -> list[tuple[str, str]]:
    r = R.randrange(5)
    if r == 0:
        name, val = "sessionid", rs(32, LOWER_ALNUM)
    elif r == 1:
        name, val = "connect.sid", "s%3A" + rs(32, URLSAFE) + "." + rs(43, ALNUM + "%")
    elif r == 2:
        name, val = (
            f"_{project().replace('-', '_')}_session",
            b64(rb(R.randint(90, 140))).replace("=", "%3D") + "--" + rhex(40),
        )
    elif r == 3:
        name, val = "PHPSESSID", rs(26, "abcdefghijklmnopqrstuv0123456789")
    else:
        name, val = (
            "laravel_session",
            b64(
                json.dumps(
                    {"iv": b64(rb(16)), "value": b64(rb(48)), "mac": rhex(64), "tag": ""}, separators=(",", ":")
                ).encode()
            ).replace("=", "%3D"),
        )
    return [("Cookie", f"{name}={S('session_cookie', val)}")]


@reg(
    "app_secret_key",
    "app framework",
    "Django `SECRET_KEY`, Rails `secret_key_base`, Flask / NextAuth / session secrets",
    None,
)
def _appkey() -> list[tuple[str, str]]:
    r = R.randrange(4)
    if r == 0:
        return [("DJANGO_SECRET_KEY", S("app_secret_key", rs(50, string.ascii_lowercase + string.digits + "!@^*-_=+")))]
    if r == 1:
        return [("SECRET_KEY_BASE", S("app_secret_key", rhex(128)))]
    if r == 2:
        return [("NEXTAUTH_SECRET", S("app_secret_key", b64(rb(32))))]
    return [("FLASK_SECRET_KEY", S("app_secret_key", rhex(R.choice([32, 48, 64]))))]


@reg(
    "encryption_key",
    "encryption",
    "32-byte keys as hex / base64, Laravel `base64:`, Fernet, Rails `master.key`, Vault unseal keys",
    None,
)
def _enc() -> list[tuple[str, str]]:
    r = R.randrange(5)
    if r == 0:
        return [("APP_KEY", "base64:" + S("encryption_key", b64(rb(32))))]
    if r == 1:
        return [("FERNET_KEY", S("encryption_key", base64.urlsafe_b64encode(rb(32)).decode()))]
    if r == 2:
        return [("master.key", S("encryption_key", rhex(32)))]
    if r == 3:
        return [("Unseal Key 1", S("encryption_key", b64(rb(33))))]
    return [("DATA_ENCRYPTION_KEY", S("encryption_key", rhex(64)))]


@reg(
    "webhook_signing_secret",
    "webhook signing",
    "Svix / Clerk `whsec_` + base64, GitHub / GitLab / Shopify hex secrets",
    None,
)
def _whsig() -> list[tuple[str, str]]:
    r = R.randrange(3)
    if r == 0:
        return [("CLERK_WEBHOOK_SECRET", S("webhook_signing_secret", "whsec_" + b64(rb(24))))]
    if r == 1:
        return [("GITHUB_WEBHOOK_SECRET", S("webhook_signing_secret", rhex(40)))]
    return [("SHOPIFY_WEBHOOK_SECRET", S("webhook_signing_secret", rhex(64)))]


@reg("totp_seed", "2FA", "base32 TOTP seed, bare or in an `otpauth://` URI", None)
def _totp() -> list[tuple[str, str]]:
    seed = base64.b32encode(rb(R.choice([10, 20]))).decode().rstrip("=")
    if R.random() < 0.5:
        return [
            (
                "otpauth",
                f"otpauth://totp/{project()}:{user()}?secret={S('totp_seed', seed)}&issuer={project()}&digits=6",
            )
        ]
    return [("TOTP_SECRET", S("totp_seed", seed))]


@reg("mapbox_secret_token", "Mapbox", "`sk.` + base64url JSON + `.` + 22")
def _mapbox() -> list[tuple[str, str]]:
    body = b64u(json.dumps({"u": user().replace(".", ""), "a": rs(25, LOWER_ALNUM)}, separators=(",", ":")).encode())
    return [("MAPBOX_SECRET_TOKEN", S("mapbox_secret_token", "sk." + body + "." + rs(22, URLSAFE)))]


simple(
    "databricks_token",
    "Databricks",
    "`dapi` + 32 hex (optionally `-2`)",
    ["DATABRICKS_TOKEN"],
    lambda: "dapi" + rhex(32) + R.choice(["", "-2"]),
)
simple(
    "hubspot_private_app_token",
    "HubSpot",
    "`pat-na1-` / `pat-eu1-` + UUID",
    ["HUBSPOT_ACCESS_TOKEN"],
    lambda: R.choice(["pat-na1-", "pat-eu1-"]) + ruuid(),
)

# ---------------------------------------------------------------------------
# Look-alikes.

AWS_DOC = [
    ("AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
    ("AKIAI44QH8DHBEXAMPLE", "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY"),
]


@look("aws_example_key", "AWS documentation example key", "AWS documentation keys ending in `EXAMPLE` / `EXAMPLEKEY`")
def _l_aws() -> list[tuple[str, str]]:
    kid, sec = R.choice(AWS_DOC)
    if R.random() < 0.5:
        return [("AWS_ACCESS_KEY_ID", L("aws_example_key", kid)), ("AWS_SECRET_ACCESS_KEY", L("aws_example_key", sec))]
    return [("aws_access_key_id", L("aws_example_key", kid))]


DOC_EXAMPLES = [
    "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
    "pk_test_TYooMQauvdEDq54NiTphI7jx",
    "JBSWY3DPEHPK3PXP",
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    "4242424242424242",
]
lsimple(
    "documented_example",
    "sample value printed in the provider's docs",
    "sample values from provider docs (Stripe docs test keys, jwt.io token, the Google Authenticator example seed)",
    ["STRIPE_TEST_KEY", "EXAMPLE_TOKEN", "sample"],
    lambda: R.choice(DOC_EXAMPLES[:4]),
)
lsimple(
    "placeholder",
    "placeholder",
    "placeholders: `<your-api-key>`, `changeme`, `xxxx...`, `REPLACE_ME`",
    ["API_KEY", "DB_PASSWORD", "SECRET", "TOKEN"],
    lambda: R.choice(
        [
            "<your-api-key>",
            "changeme",
            "x" * R.randint(16, 40),
            "REPLACE_ME",
            "<paste token here>",
            "YOUR_TOKEN_HERE",
            "sk_live_" + "X" * 24,
            "TODO-fill-in",
            "ghp_" + "x" * 36,
            "<redacted-in-repo>",
            "dummy-password",
            "********",
        ]
    ),
)
lsimple(
    "env_reference",
    "environment reference",
    "references to environment variables (`${X}`, `$X`, `%X%`, `os.environ[...]`, `process.env.X`)",
    ["password", "token", "API_KEY"],
    lambda: R.choice(
        [
            "${DB_PASSWORD}",
            "$STRIPE_SECRET_KEY",
            "%GITHUB_TOKEN%",
            'os.environ["OPENAI_API_KEY"]',
            "process.env.SLACK_BOT_TOKEN",
            "${env:AZURE_CLIENT_SECRET}",
            'System.getenv("DB_PASS")',
            'ENV.fetch("SENDGRID_API_KEY")',
            "$(cat /run/secrets/db_password)",
            "${REDIS_PASSWORD:?missing}",
        ]
    ),
)
lsimple(
    "template_reference",
    "template expression",
    "template expressions: `${{ secrets.X }}`, Helm / Jinja / Terraform / Azure Pipelines",
    ["token", "password", "api_key"],
    lambda: R.choice(
        [
            "${{ secrets.NPM_TOKEN }}",
            "{{ .Values.db.password }}",
            "{{ vault_db_password }}",
            "${var.datadog_api_key}",
            "$(ARM_CLIENT_SECRET)",
            "{{ lookup('env', 'API_TOKEN') }}",
            "${{ secrets.AWS_SECRET_ACCESS_KEY }}",
            "<%= ENV['SMTP_PASSWORD'] %>",
            "{{ .Env.GITHUB_TOKEN }}",
        ]
    ),
)
lsimple(
    "secret_manager_reference",
    "secret-manager reference",
    "secret-manager names and paths (`op://`, Vault, AWS / GCP / Azure secret ids, SSM)",
    ["source", "secretRef", "password_ref"],
    lambda: R.choice(
        [
            f"op://Engineering/{project()}/credential",
            f"vault:secret/data/{project()}/db#password",
            f"arn:aws:secretsmanager:eu-west-1:{digits(12)}:secret:{project()}/prod-{rs(6)}",
            f"projects/{project()}/secrets/api-key/versions/latest",
            f"@Microsoft.KeyVault(SecretUri=https://kv-{project()}.vault.azure.net/secrets/DbPassword/)",
            f"ssm:/{project()}/prod/stripe_key",
            f"doppler://{project()}/prd/DATABASE_URL",
        ]
    ),
)
lsimple(
    "masked_value",
    "masked value",
    "masked or redacted values (`sk_live_...abcd`, `****`, `[REDACTED]`)",
    ["token", "key", "secret"],
    lambda: R.choice(
        [
            f"sk_live_...{rs(4)}",
            "****************",
            "[REDACTED]",
            f"ghp_{'*' * 32}{rs(4)}",
            f"xoxb-***-{rs(4)}",
            f"AKIA************{rs(4, UPPER_ALNUM)}",
            "••••••••",
            f"{rs(4)}…{rs(4)}",
            "<masked>",
        ]
    ),
)
lsimple(
    "git_sha", "commit", "full and short commit SHAs", ["commit", "sha", "ref"], lambda: rhex(R.choice([40, 40, 7, 12]))
)
lsimple("sha256_checksum", "SHA-256 digest", "SHA-256 digests of files", ["sha256", "checksum"], lambda: rhex(64))
lsimple("sha512_checksum", "SHA-512 digest", "SHA-512 digests (128 hex)", ["sha512", "digest"], lambda: rhex(128))
lsimple(
    "md5_or_etag",
    "MD5 / ETag",
    "MD5 checksums and S3 ETags",
    ["etag", "md5"],
    lambda: rhex(32) + R.choice(["", "", f"-{R.randint(2, 40)}"]),
)
lsimple(
    "npm_integrity",
    "lockfile integrity",
    "`sha512-` integrity strings from lockfiles",
    ["integrity"],
    lambda: "sha512-" + b64(rb(64)),
)
lsimple(
    "sri_integrity",
    "subresource integrity",
    "`sha384-` / `sha256-` subresource-integrity hashes",
    ["integrity"],
    lambda: R.choice(["sha384-" + b64(rb(48)), "sha256-" + b64(rb(32))]),
)
lsimple("go_sum_hash", "go.sum hash", "`go.sum` `h1:` hashes", ["h1"], lambda: "h1:" + b64(rb(32)))
lsimple(
    "container_digest", "image digest", "`sha256:` image digests", ["digest", "image"], lambda: "sha256:" + rhex(64)
)
lsimple(
    "container_id",
    "container id",
    "Docker container ids (64 or 12 hex)",
    ["container"],
    lambda: rhex(R.choice([64, 12])),
)
lsimple(
    "uuid",
    "UUID",
    "UUIDs used as ids (tenants, projects, workspaces, records)",
    ["tenant_id", "workspace_id", "project_id", "record_id"],
    ruuid,
)
lsimple(
    "request_id",
    "request id",
    "request ids: Stripe `req_`, `x-amz-request-id`, Cloudflare ray, `X-Request-Id`",
    ["request_id", "x-request-id"],
    lambda: R.choice(
        ["req_" + rs(14), rhex(16).upper(), rhex(16) + "-" + R.choice(["AMS", "FRA", "IAD", "NRT"]), ruuid()]
    ),
)
lsimple(
    "trace_id",
    "trace id",
    "W3C `traceparent`, X-Ray and OpenTelemetry trace ids",
    ["traceparent", "trace_id"],
    lambda: R.choice([f"00-{rhex(32)}-{rhex(16)}-01", f"1-{rhex(8)}-{rhex(24)}", rhex(32)]),
)
lsimple(
    "account_identifier",
    "account id",
    "account ids: AWS account numbers, Twilio SIDs, Stripe `acct_`, Slack team ids, Plaid client ids",
    ["account_id", "account"],
    lambda: R.choice([digits(12), "AC" + rhex(32), "acct_1" + rs(15), "T0" + rs(8, UPPER_ALNUM)]),
)
lsimple(
    "oauth_client_id",
    "OAuth client id",
    "OAuth client ids: Google, GitHub, Entra, Auth0, PayPal, Adobe",
    ["client_id", "CLIENT_ID"],
    lambda: R.choice(
        [
            f"{digits(12)}-{rs(32, LOWER_ALNUM)}.apps.googleusercontent.com",
            "Iv1." + rhex(16),
            "Ov23li" + rs(14),
            ruuid(),
            rs(32),
        ]
    ),
)
lsimple(
    "public_client_key",
    "public client key",
    "keys meant to ship to clients: PostHog `phc_`, Razorpay `rzp_live_` key ids, LaunchDarkly client-side ids, Segment write keys",
    ["public_key", "client_key"],
    lambda: R.choice(["phc_" + rs(43), "rzp_live_" + rs(14), rhex(24), rs(32)]),
)
lsimple(
    "stripe_publishable_key",
    "publishable key",
    "`pk_live_...` publishable keys",
    ["STRIPE_PUBLISHABLE_KEY", "publishableKey"],
    lambda: R.choice(["pk_live_" + rs(24), "pk_live_51" + rs(97)]),
)


@look("firebase_web_api_key", "Firebase web config", "`AIza...` keys inside Firebase web configs (shipped to browsers)")
def _l_firebase() -> list[tuple[str, str]]:
    p = project() + "-" + rs(5, LOWER_ALNUM)
    return [
        (
            "NEXT_PUBLIC_FIREBASE_API_KEY" if R.random() < 0.4 else "apiKey",
            L("firebase_web_api_key", "AIza" + rs(35, URLSAFE)),
        ),
        ("authDomain", f"{p}.firebaseapp.com"),
        ("projectId", p),
        ("appId", f"1:{digits(12)}:web:{rhex(22)}"),
    ]


lsimple(
    "public_site_key",
    "public site key",
    "public site keys: Mapbox `pk.`, reCAPTCHA, Turnstile",
    ["site_key", "MAPBOX_PUBLIC_TOKEN"],
    lambda: R.choice(
        [
            "pk."
            + b64u(json.dumps({"u": user().replace(".", ""), "a": rs(25, LOWER_ALNUM)}, separators=(",", ":")).encode())
            + "."
            + rs(22, URLSAFE),
            "6L" + rs(38, URLSAFE),
            "0x4AAAAAAA" + rs(12, URLSAFE),
        ]
    ),
)
lsimple(
    "base64_text",
    "base64 of plain text",
    "base64 of ordinary text / JSON / config",
    ["payload", "data"],
    lambda: b64(
        R.choice(
            [
                b'{"theme":"dark","lang":"en"}',
                b"hello from the build bot",
                f"user={user()};role=viewer".encode(),
                b"apiVersion: v1\nkind: ConfigMap\n",
                f"{project()} release notes".encode(),
            ]
        )
    ),
)
lsimple(
    "k8s_pod_name",
    "pod",
    "pod names with ReplicaSet hash suffixes",
    ["pod"],
    lambda: (
        f"{project()}-{R.choice(['api', 'worker', 'web'])}-{rs(R.choice([9, 10]), 'bcdfghjklmnpqrstvwxz2456789')}-{rs(5, 'bcdfghjklmnpqrstvwxz2456789')}"
    ),
)
lsimple(
    "long_identifier",
    "identifier",
    "long identifiers: test / class / function names, slugs",
    ["name", "test"],
    lambda: R.choice(
        [
            "test_rotate_credentials_when_provider_returns_429_and_retry_budget_exhausted",
            "AbstractSingletonProxyFactoryBeanConfigurationResolver",
            f"{project()}-{project()}-migration-backfill-{digits(8)}",
            "handleIncomingWebhookSignatureVerificationFailure",
            "ShouldReconnectAfterTransientBrokerDisconnectTest",
        ]
    ),
)
lsimple(
    "semver",
    "version",
    "versions",
    ["version"],
    lambda: (
        f"{R.randint(0, 12)}.{R.randint(0, 30)}.{R.randint(0, 40)}"
        + R.choice(["", "", "-rc.1", "-beta.3", "+build." + digits(4)])
    ),
)
lsimple(
    "timestamp",
    "timestamp",
    "ISO-8601 timestamps and epoch milliseconds",
    ["created_at", "ts"],
    lambda: R.choice(
        [
            f"2026-{R.randint(1, 12):02d}-{R.randint(1, 28):02d}T{R.randint(0, 23):02d}:{R.randint(0, 59):02d}:{R.randint(0, 59):02d}.{rs(3, string.digits)}Z",
            str(R.randint(1_700_000_000_000, 1_790_000_000_000)),
        ]
    ),
)
lsimple(
    "iban",
    "IBAN",
    "IBANs with valid check digits",
    ["iban"],
    lambda: R.choice(
        [
            crc_sum_iban("DE", rs(18, string.digits)),
            crc_sum_iban("FR", rs(23, string.digits)),
            crc_sum_iban("NL", "ABNA" + rs(10, string.digits)),
        ]
    ),
)
lsimple("isbn", "ISBN", "ISBN-13 with valid check digits", ["isbn"], isbn13)
lsimple(
    "crypto_address",
    "wallet address",
    "bitcoin bech32 addresses, lowercase Ethereum addresses",
    ["address", "wallet"],
    lambda: R.choice([bech32("bc", [0, *_convertbits(rb(20))]), "0x" + rhex(40)]),
)
lsimple("tx_hash", "transaction hash", "blockchain transaction hashes (`0x` + 64 hex)", ["tx"], lambda: "0x" + rhex(64))
lsimple(
    "asset_hash",
    "hashed asset",
    "content-hashed asset file names",
    ["asset"],
    lambda: (
        R.choice(["main", "vendor", "app", "chunk-" + rs(4, LOWER_ALNUM)])
        + "."
        + rhex(R.choice([8, 16, 20]))
        + R.choice([".js", ".css", ".woff2"])
    ),
)
lsimple("ulid", "ULID", "ULIDs", ["id"], lambda: "01" + rs(24, "0123456789ABCDEFGHJKMNPQRSTVWXYZ"))
lsimple(
    "url",
    "URL",
    "URLs without credentials (some with harmless query strings)",
    ["url", "endpoint"],
    lambda: R.choice(
        [
            f"https://{project()}.example.com/api/v2/status",
            f"https://grafana.{project()}.io/d/{rs(9)}/overview?orgId=1&from=now-6h",
            f"https://github.com/{project()}/{project()}/pull/{R.randint(10, 4000)}",
            "https://docs.internal.example.net/runbooks/rotate",
        ]
    ),
)
lsimple(
    "url_slug_id",
    "public document id",
    "random-looking public ids in URLs: YouTube, Google Docs, Figma, Loom",
    ["link"],
    lambda: R.choice(
        [
            f"https://www.youtube.com/watch?v={rs(11, URLSAFE)}",
            f"https://docs.google.com/document/d/{rs(44, URLSAFE)}/edit",
            f"https://www.figma.com/file/{rs(22)}/Design",
            f"https://www.loom.com/share/{rhex(32)}",
        ]
    ),
)
lsimple(
    "test_card_number",
    "test card",
    "card numbers published as test numbers in payment docs",
    ["card"],
    lambda: R.choice(
        ["4242 4242 4242 4242", "4000056655665556", "5555555555554444", "4000 0000 0000 9995", "378282246310005"]
    ),
)
lsimple(
    "key_fingerprint",
    "key fingerprint",
    "SSH `SHA256:` fingerprints, PGP fingerprints, MD5 colon fingerprints",
    ["fingerprint"],
    lambda: R.choice(
        [
            "SHA256:" + b64(rb(32)).rstrip("="),
            " ".join(rhex(4).upper() for _ in range(10)),
            ":".join(rhex(2) for _ in range(16)),
        ]
    ),
)
lsimple(
    "key_identifier",
    "key id",
    "key ids: GCP `private_key_id`, KMS key ids, JWT `kid`, GPG long ids",
    ["kid", "key_id"],
    lambda: R.choice([rhex(40), "mrk-" + rhex(32), ruuid(), rhex(16).upper()]),
)
lsimple(
    "ip_address",
    "IP address",
    "IPv4 / IPv6 addresses and CIDRs",
    ["ip", "cidr"],
    lambda: R.choice(
        [
            f"10.{R.randint(0, 255)}.{R.randint(0, 255)}.{R.randint(1, 254)}",
            f"172.{R.randint(16, 31)}.0.0/16",
            f"2001:db8:{rhex(4)}::{rhex(3)}",
        ]
    ),
)


@look("ssh_public_key", "SSH public key", "real `ssh-ed25519` public keys")
def _l_sshpub() -> list[tuple[str, str]]:
    return [("authorized_keys", L("ssh_public_key", ssh_public_key(f"{user()}@laptop")))]


@look("public_key_pem", "public key", "`BEGIN PUBLIC KEY` PEM (P-256 and Ed25519)", True)
def _l_pub() -> list[tuple[str, str]]:
    return [("JWT_PUBLIC_KEY", L("public_key_pem", ec_public_pem() if R.random() < 0.6 else ed_public_pem()))]


@look("certificate", "certificate", "real self-signed P-256 X.509 certificates (PEM, or base64 in kubeconfig)", True)
def _l_cert() -> list[tuple[str, str]]:
    return [("TLS_CERT", L("certificate", certificate_pem(f"{project()}.internal")))]


@look("encrypted_value", "encrypted blob", "encrypted blobs: SOPS `ENC[...]`, Ansible Vault, sealed-secrets `AgB...`")
def _l_enc() -> list[tuple[str, str]]:
    r = R.randrange(3)
    if r == 0:
        v = f"ENC[AES256_GCM,data:{b64(rb(R.randint(12, 30)))},iv:{b64(rb(32))},tag:{b64(rb(16))},type:str]"
    elif r == 1:
        v = "$ANSIBLE_VAULT;1.1;AES256 " + rhex(R.randint(100, 160))
    else:
        v = "AgB" + b64(rb(R.randint(180, 260)))
    return [("password", L("encrypted_value", v))]


@look("wireguard_public_key", "WireGuard peer key", "WireGuard public keys (X25519, derived)")
def _l_wg() -> list[tuple[str, str]]:
    return [("PublicKey", L("wireguard_public_key", b64(x25519_public(clamp25519(rb(32))))))]


@look("age_recipient", "age recipient", "`age1...` recipients (bech32, derived from a key)")
def _l_age() -> list[tuple[str, str]]:
    return [("recipient", L("age_recipient", bech32("age", _convertbits(x25519_public(rb(32))))))]


# ---------------------------------------------------------------------------
# Languages: phrases written for this corpus.

LANGS: dict[str, dict[str, list[str]]] = {
    "en": {
        "fill": [
            "Spent most of the morning chasing a flaky integration test.",
            "The staging deploy finally went green after the third retry.",
            "Reminder: the quarterly access review is due next Thursday.",
            "Latency on the checkout path dropped to 180 ms p95 after the index change.",
            "We agreed to keep the old endpoint alive until the mobile release ships.",
            "Rebased the feature branch; two conflicts in the migration files.",
            "The on-call handover doc is out of date again.",
            "Nobody owns the cron job that prunes old exports; flagged it.",
            "Load test at 2k rps held, CPU on the workers peaked at 70%.",
            "Moved the nightly report to 03:30 UTC so it stops colliding with backups.",
        ],
        "svc": [
            "rotated the {svc} key, the new one is {v}",
            "{svc} creds for prod: {v}",
            "pasting the {svc} token here so I don't lose it again: {v}",
            "the {svc} one is {v} (old one revoked)",
            "{svc} gave us {v}, stored it nowhere else yet",
            "if the {svc} call fails again, try with {v}",
        ],
        "bare": [
            "new one is {v}",
            "use {v} for staging",
            "it's {v} until Friday",
            "this worked: {v}",
            "temporary, delete after the demo: {v}",
        ],
        "look": [
            "{what}: {v}",
            "for reference the {what} is {v}",
            "{what} {v} (public, fine to share)",
            "noted the {what} {v}",
        ],
        "comment": [
            "set by ops, ask before changing",
            "copied from the old box",
            "values for the shared staging stack",
            "keep in sync with the runbook",
        ],
        "words": [
            "Journal",
            "Meeting notes",
            "Onboarding",
            "About the user",
            "Debugging",
            "Post-mortem",
            "Runbook",
            "Ticket",
            "Notes",
            "Decisions",
            "Action items",
            "Summary",
            "Timeline",
            "Root cause",
        ],
        "user": [
            "The user prefers short answers with commands first.",
            "They work in Lisbon time and start late.",
            "They maintain the billing service alone.",
            "They dislike YAML anchors and asked me not to use them.",
            "Their laptop is an M3 with 16 GB; Docker builds are slow.",
        ],
        "reply": [
            "Got it. I'd move that into the secret store and reference it from the deploy config.",
            "Thanks, noted. Want me to add a reminder to rotate it next month?",
            "Understood; I'll keep it out of the repo and the CI logs.",
            "Done. The service restarted cleanly with the new value.",
        ],
    },
    "de": {
        "fill": [
            "Den halben Vormittag mit einem wackligen Integrationstest verbracht.",
            "Das Staging-Deployment lief erst beim dritten Versuch durch.",
            "Die Zugriffsprüfung für das Quartal ist nächsten Donnerstag fällig.",
            "Nach dem neuen Index liegt die Latenz bei 180 ms (p95).",
            "Der alte Endpunkt bleibt, bis die App-Version draußen ist.",
            "Niemand fühlt sich für den Cronjob zuständig, der alte Exporte löscht.",
        ],
        "svc": [
            "{svc}-Schlüssel rotiert, der neue lautet {v}",
            "Zugang für {svc} (Produktion): {v}",
            "das {svc}-Token notiere ich hier: {v}",
            "für {svc} gilt jetzt {v}",
        ],
        "bare": [
            "der neue ist {v}",
            "für Staging {v} nehmen",
            "gilt bis Freitag: {v}",
            "nur für die Demo, danach löschen: {v}",
        ],
        "look": ["{what}: {v}", "zur Info, {what}: {v}", "{what} {v} (öffentlich)"],
        "comment": [
            "vom Betrieb gesetzt, bitte nicht ändern",
            "vom alten Server übernommen",
            "Werte für die gemeinsame Staging-Umgebung",
        ],
        "words": [
            "Tagebuch",
            "Besprechungsnotizen",
            "Einarbeitung",
            "Über den Nutzer",
            "Fehlersuche",
            "Nachbetrachtung",
            "Betriebshandbuch",
            "Ticket",
            "Notizen",
            "Entscheidungen",
            "Aufgaben",
            "Zusammenfassung",
            "Zeitablauf",
            "Ursache",
        ],
        "user": [
            "Der Nutzer möchte kurze Antworten, Befehle zuerst.",
            "Arbeitet von Hamburg aus, meist ab 10 Uhr.",
            "Betreut den Abrechnungsdienst allein.",
        ],
        "reply": [
            "Verstanden, ich lege es im Secret-Store ab.",
            "Notiert. Soll ich eine Erinnerung zum Rotieren anlegen?",
            "Alles klar, der Dienst ist mit dem neuen Wert neu gestartet.",
        ],
    },
    "fr": {
        "fill": [
            "Passé la matinée sur un test d'intégration capricieux.",
            "Le déploiement en préproduction est enfin passé au troisième essai.",
            "La revue des accès du trimestre est prévue jeudi prochain.",
            "Après l'ajout de l'index, la latence tombe à 180 ms au p95.",
            "On garde l'ancien point d'accès jusqu'à la sortie de l'appli mobile.",
            "Personne ne s'occupe de la tâche cron qui purge les exports.",
        ],
        "svc": [
            "clé {svc} renouvelée, la nouvelle est {v}",
            "identifiants {svc} pour la prod : {v}",
            "je colle le jeton {svc} ici : {v}",
            "pour {svc}, utiliser {v}",
        ],
        "bare": [
            "la nouvelle est {v}",
            "prendre {v} pour la préprod",
            "valable jusqu'à vendredi : {v}",
            "provisoire, à supprimer après la démo : {v}",
        ],
        "look": ["{what} : {v}", "pour mémoire, {what} : {v}", "{what} {v} (public)"],
        "comment": [
            "défini par l'équipe exploitation",
            "repris de l'ancien serveur",
            "valeurs de l'environnement de préproduction",
        ],
        "words": [
            "Journal",
            "Compte rendu de réunion",
            "Intégration",
            "À propos de l'utilisateur",
            "Débogage",
            "Post-mortem",
            "Procédure",
            "Ticket",
            "Notes",
            "Décisions",
            "Actions",
            "Résumé",
            "Chronologie",
            "Cause",
        ],
        "user": [
            "L'utilisateur préfère des réponses courtes.",
            "Travaille depuis Lyon, plutôt l'après-midi.",
            "S'occupe seul du service de facturation.",
        ],
        "reply": [
            "Compris, je le range dans le coffre à secrets.",
            "Noté. Je mets un rappel pour le renouveler le mois prochain ?",
            "C'est fait, le service a redémarré avec la nouvelle valeur.",
        ],
    },
    "es": {
        "fill": [
            "Pasé la mañana persiguiendo un test de integración inestable.",
            "El despliegue a staging salió bien al tercer intento.",
            "La revisión trimestral de accesos vence el jueves.",
            "Con el índice nuevo la latencia bajó a 180 ms en p95.",
            "Mantenemos el endpoint viejo hasta que salga la app móvil.",
            "Nadie es dueño del cron que borra exportaciones viejas.",
        ],
        "svc": [
            "roté la clave de {svc}, la nueva es {v}",
            "credenciales de {svc} para prod: {v}",
            "dejo aquí el token de {svc}: {v}",
            "para {svc} usar {v}",
        ],
        "bare": [
            "la nueva es {v}",
            "usa {v} en staging",
            "vale hasta el viernes: {v}",
            "temporal, borrar después de la demo: {v}",
        ],
        "look": ["{what}: {v}", "como referencia, {what}: {v}", "{what} {v} (es público)"],
        "comment": [
            "lo define operaciones, no tocar",
            "copiado del servidor viejo",
            "valores del entorno compartido de staging",
        ],
        "words": [
            "Diario",
            "Notas de reunión",
            "Incorporación",
            "Sobre el usuario",
            "Depuración",
            "Post mortem",
            "Procedimiento",
            "Ticket",
            "Notas",
            "Decisiones",
            "Tareas",
            "Resumen",
            "Cronología",
            "Causa raíz",
        ],
        "user": [
            "Prefiere respuestas cortas con el comando primero.",
            "Trabaja desde Valencia.",
            "Mantiene solo el servicio de facturación.",
        ],
        "reply": [
            "Entendido, lo paso al gestor de secretos.",
            "Anotado. ¿Pongo un recordatorio para rotarlo el mes que viene?",
            "Hecho, el servicio arrancó bien con el valor nuevo.",
        ],
    },
    "ja": {
        "fill": [
            "午前中は不安定な結合テストの調査に費やした。",
            "ステージングへのデプロイは3回目でようやく成功。",
            "四半期のアクセス棚卸しは来週木曜が期限。",
            "インデックス追加後、p95レイテンシが180msまで下がった。",
            "モバイル版のリリースまで旧エンドポイントは残す。",
            "古いエクスポートを消すcronの担当者がいない。",
        ],
        "svc": [
            "{svc}のキーをローテーションした。新しいキーは {v}",
            "本番の{svc}認証情報: {v}",
            "{svc}のトークンをここに貼っておく: {v}",
            "{svc}は {v} を使うこと",
        ],
        "bare": ["新しいのは {v}", "ステージングでは {v} を使う", "金曜まで有効: {v}", "デモ用、終わったら削除: {v}"],
        "look": ["{what}: {v}", "参考までに{what}は {v}", "{what} {v}(公開情報)"],
        "comment": ["運用チームが設定、変更前に相談", "旧サーバーから移植", "共有ステージング環境の値"],
        "words": [
            "作業日誌",
            "議事録",
            "オンボーディング",
            "ユーザーについて",
            "デバッグ",
            "ポストモーテム",
            "手順書",
            "チケット",
            "メモ",
            "決定事項",
            "アクション",
            "概要",
            "経緯",
            "根本原因",
        ],
        "user": [
            "ユーザーは短い回答を好む。コマンドを先に。",
            "大阪在住、午後から作業することが多い。",
            "請求サービスを一人で保守している。",
        ],
        "reply": [
            "了解です。シークレットストアに移しておきます。",
            "メモしました。来月ローテーションのリマインダーを入れますか?",
            "完了。新しい値でサービスが正常に再起動しました。",
        ],
    },
    "zh": {
        "fill": [
            "上午一直在排查一个不稳定的集成测试。",
            "预发环境的部署第三次才成功。",
            "本季度的权限审查下周四截止。",
            "加了索引之后，p95 延迟降到 180 毫秒。",
            "移动端发版之前旧接口先保留。",
            "清理旧导出文件的定时任务没人负责。",
        ],
        "svc": [
            "{svc} 的密钥已轮换，新的是 {v}",
            "{svc} 生产环境凭据：{v}",
            "先把 {svc} 的令牌记在这里：{v}",
            "{svc} 现在用 {v}",
        ],
        "bare": ["新的是 {v}", "预发环境用 {v}", "周五前有效：{v}", "临时的，演示后删除：{v}"],
        "look": ["{what}：{v}", "备查，{what}是 {v}", "{what} {v}（公开信息）"],
        "comment": ["由运维设置，修改前先沟通", "从旧服务器迁移过来", "共享预发环境的配置"],
        "words": [
            "工作日志",
            "会议纪要",
            "入职清单",
            "关于用户",
            "调试记录",
            "事故复盘",
            "运维手册",
            "工单",
            "笔记",
            "决定",
            "待办",
            "摘要",
            "时间线",
            "根因",
        ],
        "user": ["用户喜欢简短的回答，先给命令。", "在深圳工作，习惯晚上处理问题。", "一个人维护计费服务。"],
        "reply": [
            "明白，我会把它放进密钥管理服务。",
            "已记下。要不要下个月提醒你轮换？",
            "好了，服务已用新值正常重启。",
        ],
    },
    "it": {
        "fill": [
            "Mattinata passata dietro a un test di integrazione instabile.",
            "Il deploy in staging è andato a buon fine al terzo tentativo.",
            "La revisione trimestrale degli accessi scade giovedì.",
            "Con il nuovo indice la latenza p95 è scesa a 180 ms.",
            "Teniamo il vecchio endpoint finché non esce l'app mobile.",
            "Nessuno gestisce il cron che cancella le vecchie esportazioni.",
        ],
        "svc": [
            "ruotata la chiave {svc}, la nuova è {v}",
            "credenziali {svc} di produzione: {v}",
            "incollo qui il token {svc}: {v}",
            "per {svc} usare {v}",
        ],
        "bare": [
            "la nuova è {v}",
            "in staging usa {v}",
            "valida fino a venerdì: {v}",
            "temporanea, da cancellare dopo la demo: {v}",
        ],
        "look": ["{what}: {v}", "per riferimento, {what}: {v}", "{what} {v} (pubblico)"],
        "comment": [
            "impostato dal team operativo",
            "copiato dal vecchio server",
            "valori dell'ambiente di staging condiviso",
        ],
        "words": [
            "Diario",
            "Verbale della riunione",
            "Inserimento",
            "Sull'utente",
            "Debug",
            "Post-mortem",
            "Procedura",
            "Ticket",
            "Note",
            "Decisioni",
            "Azioni",
            "Riepilogo",
            "Cronologia",
            "Causa",
        ],
        "user": [
            "L'utente preferisce risposte brevi.",
            "Lavora da Torino, spesso la sera.",
            "Segue da solo il servizio di fatturazione.",
        ],
        "reply": [
            "Capito, lo sposto nel gestore dei segreti.",
            "Annotato. Metto un promemoria per ruotarlo il mese prossimo?",
            "Fatto, il servizio è ripartito con il nuovo valore.",
        ],
    },
    "id": {
        "fill": [
            "Pagi ini habis untuk mengejar tes integrasi yang tidak stabil.",
            "Deploy ke staging akhirnya berhasil di percobaan ketiga.",
            "Tinjauan akses kuartal ini jatuh tempo Kamis depan.",
            "Setelah indeks baru, latensi p95 turun ke 180 ms.",
            "Endpoint lama tetap hidup sampai aplikasi mobile rilis.",
            "Belum ada pemilik untuk cron yang menghapus ekspor lama.",
        ],
        "svc": [
            "kunci {svc} sudah dirotasi, yang baru {v}",
            "kredensial {svc} produksi: {v}",
            "simpan token {svc} di sini dulu: {v}",
            "untuk {svc} pakai {v}",
        ],
        "bare": [
            "yang baru {v}",
            "pakai {v} untuk staging",
            "berlaku sampai Jumat: {v}",
            "sementara, hapus setelah demo: {v}",
        ],
        "look": ["{what}: {v}", "sebagai referensi, {what}: {v}", "{what} {v} (publik)"],
        "comment": [
            "diatur oleh tim ops, tanya dulu sebelum diubah",
            "disalin dari server lama",
            "nilai untuk staging bersama",
        ],
        "words": [
            "Jurnal",
            "Catatan rapat",
            "Orientasi",
            "Tentang pengguna",
            "Debugging",
            "Post-mortem",
            "Panduan operasi",
            "Tiket",
            "Catatan",
            "Keputusan",
            "Tindak lanjut",
            "Ringkasan",
            "Kronologi",
            "Akar masalah",
        ],
        "user": [
            "Pengguna suka jawaban singkat, perintah dulu.",
            "Bekerja dari Bandung.",
            "Mengurus layanan penagihan sendirian.",
        ],
        "reply": [
            "Baik, saya pindahkan ke penyimpanan rahasia.",
            "Sudah dicatat. Mau saya pasang pengingat rotasi bulan depan?",
            "Selesai, layanan sudah jalan lagi dengan nilai baru.",
        ],
    },
    "ar": {
        "fill": [
            "قضيت الصباح في تتبع اختبار تكامل غير مستقر.",
            "نجح النشر على بيئة الاختبار في المحاولة الثالثة.",
            "مراجعة الصلاحيات الفصلية مستحقة يوم الخميس القادم.",
            "بعد إضافة الفهرس انخفض زمن الاستجابة إلى 180 ملي ثانية.",
            "سنبقي الواجهة القديمة حتى يصدر تطبيق الجوال.",
            "لا أحد مسؤول عن المهمة المجدولة التي تحذف الملفات القديمة.",
        ],
        "svc": [
            "تم تدوير مفتاح {svc}، المفتاح الجديد هو {v}",
            "بيانات دخول {svc} للإنتاج: {v}",
            "أحفظ رمز {svc} هنا: {v}",
            "استخدم {v} مع {svc}",
        ],
        "bare": ["الجديد هو {v}", "استخدم {v} لبيئة الاختبار", "صالح حتى الجمعة: {v}", "مؤقت، يحذف بعد العرض: {v}"],
        "look": ["{what}: {v}", "للمرجع، {what}: {v}", "{what} {v} (عام)"],
        "comment": ["يضبطه فريق العمليات", "منقول من الخادم القديم", "قيم بيئة الاختبار المشتركة"],
        "words": [
            "يوميات",
            "محضر اجتماع",
            "تهيئة",
            "عن المستخدم",
            "تصحيح الأخطاء",
            "مراجعة الحادث",
            "دليل التشغيل",
            "تذكرة",
            "ملاحظات",
            "قرارات",
            "مهام",
            "ملخص",
            "التسلسل الزمني",
            "السبب الجذري",
        ],
        "user": ["يفضل المستخدم الإجابات القصيرة.", "يعمل من عمّان.", "يدير خدمة الفوترة وحده."],
        "reply": [
            "فهمت، سأنقله إلى خزنة الأسرار.",
            "تم التدوين. هل أضيف تذكيرًا لتدويره الشهر القادم؟",
            "تم، أعيد تشغيل الخدمة بالقيمة الجديدة.",
        ],
    },
    "uk": {
        "fill": [
            "Пів ранку ловив нестабільний інтеграційний тест.",
            "Розгортання на staging пройшло лише з третьої спроби.",
            "Квартальний перегляд доступів треба здати в четвер.",
            "Після нового індексу затримка p95 впала до 180 мс.",
            "Старий ендпоінт лишаємо до релізу мобільного застосунку.",
            "Ніхто не відповідає за cron, що видаляє старі експорти.",
        ],
        "svc": [
            "ключ {svc} замінено, новий: {v}",
            "доступ до {svc} для продакшну: {v}",
            "запишу сюди токен {svc}: {v}",
            "для {svc} тепер {v}",
        ],
        "bare": [
            "новий: {v}",
            "для staging бери {v}",
            "дійсний до п'ятниці: {v}",
            "тимчасовий, видалити після демо: {v}",
        ],
        "look": ["{what}: {v}", "для довідки, {what}: {v}", "{what} {v} (публічне)"],
        "comment": ["задано командою експлуатації", "перенесено зі старого сервера", "значення для спільного staging"],
        "words": [
            "Журнал",
            "Нотатки зустрічі",
            "Онбординг",
            "Про користувача",
            "Налагодження",
            "Розбір інциденту",
            "Інструкція",
            "Тікет",
            "Нотатки",
            "Рішення",
            "Завдання",
            "Підсумок",
            "Хронологія",
            "Причина",
        ],
        "user": ["Користувач любить короткі відповіді.", "Працює з Києва.", "Сам підтримує сервіс білінгу."],
        "reply": [
            "Зрозумів, перенесу це у сховище секретів.",
            "Записав. Додати нагадування про заміну наступного місяця?",
            "Готово, сервіс перезапустився з новим значенням.",
        ],
    },
}
LANG_WEIGHTS = [
    ("en", 52),
    ("de", 6),
    ("fr", 6),
    ("es", 6),
    ("ja", 6),
    ("zh", 6),
    ("it", 5),
    ("id", 5),
    ("ar", 4),
    ("uk", 4),
]
LANG_NAMES = {
    "en": "English",
    "de": "German",
    "fr": "French",
    "es": "Spanish",
    "ja": "Japanese",
    "zh": "Chinese",
    "it": "Italian",
    "id": "Indonesian",
    "ar": "Arabic",
    "uk": "Ukrainian",
}


def pick_lang() -> str:
    total = sum(w for _, w in LANG_WEIGHTS)
    x = R.uniform(0, total)
    for code, w in LANG_WEIGHTS:
        x -= w
        if x <= 0:
            return code
    return "en"


def ph(lang: str, key: str) -> str:
    return R.choice(LANGS[lang][key])


def word(lang: str, idx: int) -> str:
    return LANGS[lang]["words"][idx]


def date() -> str:
    return f"2026-{R.randint(1, 12):02d}-{R.randint(1, 28):02d}"


def clock() -> str:
    return f"{R.randint(0, 23):02d}:{R.randint(0, 59):02d}"


@reg("algolia_admin_key", "Algolia", "32 hex admin key (the application id is a look-alike)", "X-Algolia-API-Key:")
def _algolia() -> list[tuple[str, str]]:
    return [
        ("ALGOLIA_APP_ID", L("account_identifier", rs(10, UPPER_ALNUM))),
        ("ALGOLIA_ADMIN_KEY", S("algolia_admin_key", rhex(32))),
    ]


simple("hetzner_cloud_token", "Hetzner Cloud", "64 alphanumerics (name only)", ["HCLOUD_TOKEN"], lambda: rs(64))


# ---------------------------------------------------------------------------
# Rendering helpers.

FILLER_CONF = [
    ("LOG_LEVEL", "info"),
    ("PORT", "8080"),
    ("WORKERS", "4"),
    ("REGION", "eu-west-1"),
    ("FEATURE_NEW_CHECKOUT", "true"),
    ("TIMEOUT_SECONDS", "30"),
    ("APP_ENV", "production"),
    ("CACHE_TTL", "300"),
    ("MAX_UPLOAD_MB", "25"),
    ("TZ", "UTC"),
]
BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
PLAIN_YAML = re.compile(r"^[A-Za-z0-9][^\n#'\"]*$")


def make_entry(spec: Spec) -> Entry:
    return Entry(spec.kind, spec.cat, spec.service, spec.make(), spec.header, spec.multiline)


def multiline(v: str) -> bool:
    return "\n" in v


def snake(k: str) -> str:
    k = re.sub(r"[^A-Za-z0-9]+", "_", k).strip("_")
    return k.lower() or "value"


def camel(k: str) -> str:
    parts = snake(k).split("_")
    return parts[0] + "".join(p.title() for p in parts[1:])


def dq(v: str) -> str:
    return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'


def sq_shell(v: str) -> str:
    return "'" + v.replace("'", "'\\''") + "'"


def indent(v: str, n: int) -> str:
    return v.replace("\n", "\n" + " " * n)


def xml_esc(v: str) -> str:
    return v.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def yaml_scalar(v: str, ind: int) -> str:
    if multiline(v):
        return "|\n" + " " * ind + indent(v, ind)
    if PLAIN_YAML.match(v) and ": " not in v and not v.endswith(":"):
        return v
    return "'" + v.replace("'", "''") + "'"


def header_line(e: Entry) -> str | None:
    if not e.header or len(e.fields) != 1 or multiline(e.value):
        return None
    v = e.value
    if e.kind == "http_basic_auth":
        return "Authorization: " + v
    return e.header + v if e.header.endswith("=") else f"{e.header} {v}"


def pairs(es: list[Entry]) -> list[tuple[str, str]]:
    return [kv for e in es for kv in e.fields]


def with_filler(ps: list[tuple[str, str]], lo: int = 1, hi: int = 3) -> list[tuple[str, str]]:
    out = list(ps)
    for kv in R.sample(FILLER_CONF, R.randint(lo, hi)):
        out.insert(R.randint(0, len(out)), kv)
    return out


def api_host(e: Entry) -> str:
    name = re.sub(r"[^a-z0-9]+", "", e.service.lower())[:14] or "internal"
    return f"https://api.{name}.example.com/v1/{R.choice(['me', 'status', 'projects', 'events', 'usage'])}"


# --- structured files -------------------------------------------------------


def r_env(lang: str, es: list[Entry]) -> str:
    lines = [f"# {ph(lang, 'comment')}"]
    for k, v in with_filler(pairs(es)):
        key = snake(k).upper()
        if multiline(v) or " " in v:
            lines.append(f'{key}="{v}"')
        else:
            lines.append(f"{key}={R.choice([v, v, dq(v)])}" if "\\" not in v and '"' not in v else f"{key}={v}")
    return "\n".join(lines) + "\n"


def r_yaml(lang: str, es: list[Entry]) -> str:
    lines = [f"# {ph(lang, 'comment')}", f"service: {project()}", "settings:"]
    lines += [f"  {snake(k)}: {v}" for k, v in R.sample(FILLER_CONF, 2)]
    lines.append(R.choice(["credentials:", "integrations:", "secrets:"]))
    for k, v in pairs(es):
        lines.append(f"  {snake(k)}: {yaml_scalar(v, 4)}")
    return "\n".join(lines) + "\n"


def r_json(lang: str, es: list[Entry]) -> str:
    ps = with_filler(pairs(es), 1, 2)
    body = [f'  "_note": {json.dumps(ph(lang, "comment"), ensure_ascii=False)}']
    body += [f"  {json.dumps(camel(k))}: {json.dumps(v, ensure_ascii=False)}" for k, v in ps]
    return "{\n" + ",\n".join(body) + "\n}\n"


def toml_key(k: str) -> str:
    return k if BARE_KEY.match(k) else json.dumps(k)


def r_toml(lang: str, es: list[Entry]) -> str:
    lines = [
        f"# {ph(lang, 'comment')}",
        "[app]",
        f'name = "{project()}"',
        f'log_level = "{R.choice(["info", "warn", "debug"])}"',
        "",
        f"[{R.choice(['secrets', 'providers', 'auth'])}]",
    ]
    for k, v in pairs(es):
        lines.append(
            f"{toml_key(snake(k))} = '''\n{v}'''"
            if multiline(v)
            else f"{toml_key(snake(k))} = {json.dumps(v, ensure_ascii=False)}"
        )
    return "\n".join(lines) + "\n"


def r_ini(lang: str, es: list[Entry]) -> str:
    lines = [
        f"; {ph(lang, 'comment')}",
        "[default]",
        f"region = {R.choice(['eu-central-1', 'us-east-2', 'ap-south-1'])}",
        "",
        f"[{project()}]",
    ]
    for k, v in with_filler(pairs(es), 0, 2):
        lines.append(f"{snake(k)} = {indent(v, 2)}" if multiline(v) else f"{snake(k)} = {v}")
    return "\n".join(lines) + "\n"


def r_xml(lang: str, es: list[Entry]) -> str:
    lines = [
        '<?xml version="1.0" encoding="utf-8"?>',
        "<configuration>",
        f"  <!-- {ph(lang, 'comment')} -->",
        "  <appSettings>",
    ]
    blocks = []
    for k, v in with_filler(pairs(es), 1, 2):
        if multiline(v):
            tag = camel(k) or "value"
            blocks.append(f"  <{tag}>{xml_esc(v)}</{tag}>")
        else:
            lines.append(f'    <add key="{k}" value="{xml_esc(v)}" />')
    lines.append("  </appSettings>")
    lines += blocks
    lines.append("</configuration>")
    return "\n".join(lines) + "\n"


def r_hcl(lang: str, es: list[Entry]) -> str:
    lines = [f"# {ph(lang, 'comment')}", 'terraform {\n  required_version = ">= 1.6"\n}', ""]
    for k, v in pairs(es):
        name = snake(k)
        if multiline(v):
            lines.append(
                f'variable "{name}" {{\n  type      = string\n  sensitive = true\n  default   = <<-EOT\n{v}\n  EOT\n}}\n'
            )
        elif R.random() < 0.5:
            lines.append(f'variable "{name}" {{\n  type    = string\n  default = {dq(v)}\n}}\n')
        else:
            lines.append(
                f'resource "kubernetes_secret" "{name}" {{\n  metadata {{\n    name = "{name.replace("_", "-")}"\n  }}\n  data = {{\n    value = {dq(v)}\n  }}\n}}\n'
            )
    return "\n".join(lines)


def r_properties(lang: str, es: list[Entry]) -> str:
    lines = [f"# {ph(lang, 'comment')}", f"app.name={project()}"]
    for k, v in with_filler(pairs(es), 0, 2):
        key = k if "." in k else snake(k).replace("_", ".")
        lines.append(f"{key}={v.replace(chr(10), chr(92) + 'n')}")
    return "\n".join(lines) + "\n"


def csv_field(v: str) -> str:
    if any(c in v for c in ',"\n'):
        return '"' + v.replace('"', '""') + '"'
    return v


def r_csv(lang: str, es: list[Entry]) -> str:
    lines = ["system,field,value,owner,notes"]
    for e in es:
        for k, v in e.fields:
            lines.append(
                ",".join(
                    [
                        csv_field(e.service),
                        csv_field(k),
                        csv_field(v),
                        R.choice(FIRST).lower(),
                        csv_field(ph(lang, "comment")),
                    ]
                )
            )
    return "\n".join(lines) + "\n"


def r_compose(lang: str, es: list[Entry]) -> str:
    lines = [
        f"# {ph(lang, 'comment')}",
        "services:",
        "  app:",
        f"    image: ghcr.io/{project()}/app:{R.randint(1, 9)}.{R.randint(0, 20)}.{R.randint(0, 9)}",
        "    ports:",
        '      - "8080:8080"',
        "    environment:",
    ]
    use_list = R.random() < 0.5 and not any(multiline(v) for _, v in pairs(es))
    for k, v in with_filler(pairs(es), 1, 2):
        key = snake(k).upper()
        lines.append(f"      - {key}={v}" if use_list else f"      {key}: {yaml_scalar(v, 8)}")
    lines += [
        "  db:",
        "    image: postgres:16",
        "    volumes:",
        "      - pgdata:/var/lib/postgresql/data",
        "volumes:",
        "  pgdata: {}",
    ]
    return "\n".join(lines) + "\n"


def r_k8s(lang: str, es: list[Entry]) -> str:
    lines = [
        f"# {ph(lang, 'comment')}",
        "apiVersion: v1",
        "kind: Secret",
        "metadata:",
        f"  name: {project()}-credentials",
        f"  namespace: {R.choice(['prod', 'staging', 'payments'])}",
        "type: Opaque",
        "stringData:",
    ]
    for k, v in pairs(es):
        lines.append(f"  {snake(k).replace('_', '-')}: {yaml_scalar(v, 4)}")
    return "\n".join(lines) + "\n"


def r_gha(lang: str, es: list[Entry]) -> str:
    lines = [
        f"# {ph(lang, 'comment')}",
        f"name: {R.choice(['deploy', 'release', 'nightly', 'smoke-test'])}",
        "on:",
        "  push:",
        "    branches: [main]",
        "jobs:",
        "  run:",
        "    runs-on: ubuntu-latest",
        "    env:",
    ]
    runs = []
    for e in es:
        hl = header_line(e)
        if hl and R.random() < 0.4:
            runs.append(f'      - run: curl -fsS -H "{hl}" {api_host(e)}')
            continue
        for k, v in e.fields:
            lines.append(f"      {snake(k).upper()}: {yaml_scalar(v, 8)}")
    lines += ["    steps:", "      - uses: actions/checkout@v4", *runs, "      - run: make deploy"]
    return "\n".join(lines) + "\n"


def r_nginx(lang: str, es: list[Entry]) -> str:
    lines = [
        f"# {ph(lang, 'comment')}",
        "server {",
        "    listen 443 ssl;",
        f"    server_name {project()}.example.com;",
        "    location /api/ {",
    ]
    extra = []
    for e in es:
        hl = header_line(e)
        if hl:
            name, _, val = hl.partition(": ")
            path = re.sub(r"[^a-z0-9]+", "-", e.service.lower()).strip("-")
            extra += [
                f"    location /{path}/ {{",
                f'        proxy_set_header {name} "{val}";',
                f"        proxy_pass {api_host(e).rsplit('/', 1)[0]}/;",
                "    }",
            ]
        else:
            lines += [f'        set ${snake(k)} "{v}";' for k, v in e.fields]
    lines += [f"        proxy_pass http://{project()}-upstream;", "    }", *extra, "}"]
    return "\n".join(lines) + "\n"


def r_apache(lang: str, es: list[Entry]) -> str:
    lines = [f"# {ph(lang, 'comment')}", "<VirtualHost *:443>", f"    ServerName {project()}.example.org"]
    for e in es:
        hl = header_line(e)
        if hl and R.random() < 0.6:
            name, _, val = hl.partition(": ")
            lines.append(f'    RequestHeader set {name} "{val}"')
        else:
            lines += [f"    SetEnv {snake(k).upper()} {v}" for k, v in e.fields]
    lines += [f"    ProxyPass / http://127.0.0.1:{R.choice([8000, 8080, 3000])}/", "</VirtualHost>"]
    return "\n".join(lines) + "\n"


def r_systemd(lang: str, es: list[Entry]) -> str:
    lines = [
        "[Unit]",
        f"Description={project()} worker ({ph(lang, 'comment')})",
        "After=network-online.target",
        "",
        "[Service]",
        f"User={project()}",
    ]
    for k, v in with_filler(pairs(es), 0, 2):
        lines.append(f'Environment="{snake(k).upper()}={v}"')
    lines += [
        f"ExecStart=/usr/local/bin/{project()} serve",
        "Restart=on-failure",
        "",
        "[Install]",
        "WantedBy=multi-user.target",
    ]
    return "\n".join(lines) + "\n"


# --- code ---------------------------------------------------------------------


def r_python(lang: str, es: list[Entry]) -> str:
    lines = ['"""' + ph(lang, "comment") + '"""', "import os", "", "import requests", ""]
    calls = []
    for e in es:
        hl = header_line(e)
        if hl and R.random() < 0.4:
            name, _, val = hl.partition(": ")
            calls.append(f"resp = requests.get({dq(api_host(e))}, headers={{{dq(name)}: {dq(val)}}}, timeout=10)")
            continue
        for k, v in e.fields:
            var = snake(k).upper()
            if multiline(v):
                lines.append(f'{var} = """{v}"""')
            elif R.random() < 0.3:
                lines.append(f"os.environ.setdefault({dq(var)}, {dq(v)})")
            else:
                lines.append(f"{var} = {dq(v)}")
    lines += ["", "", "def main() -> None:", f"    # {ph(lang, 'comment')}"]
    lines += ["    " + c for c in calls] or ["    print(os.environ.get('APP_ENV', 'dev'))"]
    return "\n".join(lines) + "\n"


def r_js(lang: str, es: list[Entry], ts: bool = False) -> str:
    t = ": string" if ts else ""
    lines = [f"// {ph(lang, 'comment')}", 'import fetch from "node-fetch";', ""]
    cfg = []
    for e in es:
        hl = header_line(e)
        if hl and R.random() < 0.4:
            name, _, val = hl.partition(": ")
            lines.append(f"await fetch({dq(api_host(e))}, {{ headers: {{ {dq(name)}: {dq(val)} }} }});")
            continue
        for k, v in e.fields:
            if multiline(v):
                lines.append(f"const {camel(k)}{t} = `{v}`;")
            elif R.random() < 0.5:
                cfg.append(f"  {camel(k)}: {dq(v)},")
            else:
                lines.append(f"const {camel(k)}{t} = {dq(v)};")
    if cfg:
        lines += ["", "export const config = {", *cfg, "};"]
    return "\n".join(lines) + "\n"


def r_ts(lang: str, es: list[Entry]) -> str:
    return r_js(lang, es, True)


def r_go(lang: str, es: list[Entry]) -> str:
    lines = ["package main", "", 'import "net/http"', "", f"// {ph(lang, 'comment')}", "const ("]
    calls = []
    for e in es:
        hl = header_line(e)
        if hl and R.random() < 0.4:
            name, _, val = hl.partition(": ")
            calls.append(f"\treq.Header.Set({dq(name)}, {dq(val)})")
            continue
        for k, v in e.fields:
            lines.append(f"\t{camel(k)} = `{v}`" if multiline(v) else f"\t{camel(k)} = {dq(v)}")
    lines += [
        ")",
        "",
        "func main() {",
        f'\treq, _ := http.NewRequest("GET", "https://{project()}.example.com/v1/ping", nil)',
        *calls,
        "\t_, _ = http.DefaultClient.Do(req)",
        "}",
    ]
    return "\n".join(lines) + "\n"


def r_java(lang: str, es: list[Entry]) -> str:
    lines = [
        f"package com.example.{project().replace('-', '')};",
        "",
        f"// {ph(lang, 'comment')}",
        "public final class Credentials {",
    ]
    for k, v in pairs(es):
        name = snake(k).upper()
        lines.append(
            f'    static final String {name} = """\n{v}""";'
            if multiline(v)
            else f"    static final String {name} = {dq(v)};"
        )
    lines += ["", "    private Credentials() {}", "}"]
    return "\n".join(lines) + "\n"


def sq_code(v: str) -> str:
    return "'" + v.replace("\\", "\\\\").replace("'", "\\'") + "'"


def r_ruby(lang: str, es: list[Entry]) -> str:
    lines = [f"# {ph(lang, 'comment')}", "module Settings"]
    for k, v in pairs(es):
        name = snake(k).upper()
        lines.append(f"  {name} = <<~KEY\n{v}\n  KEY" if multiline(v) else f"  {name} = {sq_code(v)}")
    lines.append("end")
    return "\n".join(lines) + "\n"


def r_php(lang: str, es: list[Entry]) -> str:
    lines = ["<?php", f"// {ph(lang, 'comment')}", "return ["]
    for k, v in pairs(es):
        lines.append(
            f"    '{snake(k)}' => <<<'KEY'\n{v}\nKEY," if multiline(v) else f"    '{snake(k)}' => {sq_code(v)},"
        )
    lines.append("];")
    return "\n".join(lines) + "\n"


def r_rust(lang: str, es: list[Entry]) -> str:
    lines = [f"// {ph(lang, 'comment')}"]
    for k, v in pairs(es):
        name = snake(k).upper()
        lines.append(f'pub const {name}: &str = r#"{v}"#;' if multiline(v) else f"pub const {name}: &str = {dq(v)};")
    lines += ["", "fn main() {", f'    println!("{{}}", "{project()}");', "}"]
    return "\n".join(lines) + "\n"


def r_csharp(lang: str, es: list[Entry]) -> str:
    lines = ["namespace Deploy;", "", f"// {ph(lang, 'comment')}", "internal static class Secrets", "{"]
    for k, v in pairs(es):
        name = camel(k)
        name = name[:1].upper() + name[1:]
        lines.append(
            f'    internal const string {name} = @"{v.replace(chr(34), chr(34) * 2)}";'
            if multiline(v)
            else f"    internal const string {name} = {dq(v)};"
        )
    lines.append("}")
    return "\n".join(lines) + "\n"


def r_shell(lang: str, es: list[Entry]) -> str:
    lines = ["#!/usr/bin/env bash", "set -euo pipefail", f"# {ph(lang, 'comment')}"]
    for e in es:
        hl = header_line(e)
        if hl and R.random() < 0.4:
            lines.append(f'curl -fsS -H "{hl}" "{api_host(e)}"')
            continue
        if (cl := cli_line(e)) and R.random() < 0.4:
            lines.append(cl)
            continue
        for k, v in e.fields:
            if multiline(v):
                lines.append(f"cat > /tmp/{snake(k)} <<'EOF'\n{v}\nEOF")
            else:
                lines.append(f"export {snake(k).upper()}={sq_shell(v)}")
    lines.append(f"exec ./bin/{project()} --config /etc/{project()}.conf")
    return "\n".join(lines) + "\n"


# --- narrative ----------------------------------------------------------------


def snippet(e: Entry, lang: str) -> tuple[str, str]:
    """Return ("line", text) or ("block", text) presenting an entry in prose."""
    if e.cat == "s" and R.random() < 0.15 and (cl := cli_line(e)):
        return "block", "$ " + cl
    if any(multiline(v) for _, v in e.fields):
        body = "\n".join(f"{k}:\n{v}" if multiline(v) else f"{k}={v}" for k, v in e.fields)
        return "block", body
    if len(e.fields) > 1:
        if R.random() < 0.5:
            return "block", "\n".join(f"{k}={v}" for k, v in e.fields)
        joined = ", ".join(f"{k} {v}" for k, v in e.fields)
        key = "svc" if e.cat == "s" else "look"
        return "line", ph(lang, key).format(svc=e.service, what=e.service, v=joined)
    k, v = e.fields[0]
    r = R.random()
    if e.cat == "l":
        if r < 0.7:
            return "line", ph(lang, "look").format(what=e.service, v=v)
        return "line", f"`{k}={v}`"
    if r < 0.4:
        return "line", ph(lang, "svc").format(svc=e.service, v=v)
    if r < 0.65:
        return "line", ph(lang, "bare").format(v=v)
    if r < 0.8:
        hl = header_line(e)
        if hl:
            return "line", f"`{hl}`"
    return "line", f"`{k}={v}`" if R.random() < 0.6 else f"{k}: {v}"


def fence(text: str) -> str:
    return "```\n" + text + "\n```"


def weave(lang: str, es: list[Entry], bullet: str = "", fills: tuple[int, int] = (1, 3)) -> list[str]:
    """Paragraphs: filler sentences with entries placed among them."""
    pool = LANGS[lang]["fill"]
    out = [bullet + x for x in R.sample(pool, min(len(pool), R.randint(*fills)))]
    for e in es:
        kind, text = snippet(e, lang)
        item = fence(text) if kind == "block" else bullet + text
        out.insert(R.randint(0, len(out)), item)
    return out


def split(es: list[Entry], n: int) -> list[list[Entry]]:
    buckets: list[list[Entry]] = [[] for _ in range(n)]
    for e in es:
        buckets[R.randrange(n)].append(e)
    return buckets


def n_journal(lang: str, es: list[Entry]) -> str:
    parts = [f"# {project()} — {word(lang, 0)}"]
    for b in split(es, R.randint(2, 4)):
        parts.append(f"## {date()}")
        parts += weave(lang, b)
    return "\n\n".join(parts) + "\n"


def n_meeting(lang: str, es: list[Entry]) -> str:
    a, b = split(es, 2)
    parts = [
        f"# {word(lang, 1)} {date()}",
        "Attendees: " + ", ".join(R.sample(FIRST, 4)),
        f"## {word(lang, 9)}",
        "\n".join(weave(lang, a, "- ")),
        f"## {word(lang, 10)}",
    ]
    parts.append(
        "\n".join(
            f"- [ ] {R.choice(FIRST)}: {x.lstrip('- ')}" if not x.startswith("```") else x
            for x in weave(lang, b, "- ", (1, 2))
        )
    )
    return "\n\n".join(parts) + "\n"


def n_onboarding(lang: str, es: list[Entry]) -> str:
    lines = [f"# {word(lang, 2)}: {project()}", ""]
    for x in weave(lang, es, "", (2, 4)):
        if x.startswith("```"):
            lines.append("    " + indent(x, 4))
        else:
            lines.append(f"- [{R.choice(['x', ' '])}] {x}")
    return "\n".join(lines) + "\n"


def n_user(lang: str, es: list[Entry]) -> str:
    lines = [f"# {word(lang, 3)}", ""]
    lines += ["- " + x for x in R.sample(LANGS[lang]["user"], R.randint(2, 3))]
    lines += ["- " + x if not x.startswith("```") else x for x in weave(lang, es, "", (0, 1))]
    return "\n".join(lines) + "\n"


def n_debug(lang: str, es: list[Entry]) -> str:
    parts = [f"# {word(lang, 4)} — {date()}"]
    for e in es:
        parts.append(f"**{clock()}** {ph(lang, 'fill')}")
        if R.random() < 0.5 and not any(multiline(v) for _, v in e.fields):
            logs = [f"{date()}T{clock()}:{R.randint(10, 59)}Z DEBUG config loaded {snake(k)}={v}" for k, v in e.fields]
            parts.append(fence("\n".join(logs)))
        else:
            kind, text = snippet(e, lang)
            parts.append(fence(text) if kind == "block" else text)
    parts.append(f"**{clock()}** {ph(lang, 'fill')}")
    return "\n\n".join(parts) + "\n"


def n_postmortem(lang: str, es: list[Entry]) -> str:
    a, b = split(es, 2)
    parts = [
        f"# {word(lang, 5)}: {project()} {date()}",
        f"## {word(lang, 11)}",
        ph(lang, "fill"),
        f"## {word(lang, 12)}",
    ]
    parts.append("\n".join(f"- {clock()} {x}" if not x.startswith("```") else x for x in weave(lang, a, "", (2, 3))))
    parts += [f"## {word(lang, 13)}", "\n\n".join(weave(lang, b, "", (1, 2)))]
    return "\n\n".join(parts) + "\n"


def n_runbook(lang: str, es: list[Entry]) -> str:
    lines = [f"# {word(lang, 6)}: {project()}", ""]
    step = 1
    for x in weave(lang, es, "", (2, 3)):
        if x.startswith("```"):
            lines.append("   " + indent(x, 3))
        else:
            lines.append(f"{step}. {x}")
            step += 1
    return "\n".join(lines) + "\n"


def n_quick(lang: str, es: list[Entry]) -> str:
    return "\n".join(weave(lang, es, "", (0, 1))) + "\n"


def n_ticket(lang: str, es: list[Entry]) -> str:
    a, b = split(es, 2)
    tk = f"{R.choice(['OPS', 'PLAT', 'SEC', 'BILL'])}-{R.randint(100, 9999)}"
    parts = [
        f"**{tk}** · {word(lang, 7)} · {R.choice(['Open', 'In progress', 'Blocked'])}",
        "\n\n".join(weave(lang, a, "", (1, 2))),
        "---",
    ]
    for x in weave(lang, b, "", (1, 2)):
        parts.append(f"**{R.choice(FIRST)}** ({date()}):\n{x}")
    return "\n\n".join(parts) + "\n"


def n_chat(lang: str, es: list[Entry]) -> str:
    turns = []
    for x in weave(lang, es, "", (2, 3)):
        turns.append(f"**User:** {x}" if not x.startswith("```") else f"**User:**\n{x}")
        turns.append(f"**Assistant:** {ph(lang, 'reply')}")
    return "\n\n".join(turns) + "\n"


WEBHOOK_CURL = "curl -X POST -H 'Content-Type: application/json' --data '{{\"text\": \"deploy finished\"}}' {m}"
CLI_FORMS = {
    "postgres_password": "PGPASSWORD={m} psql -h {host} -U {u} -d app",
    "mysql_password": "mysql -h {host} -u {u} -p{m} app",
    "redis_password": "redis-cli -h {host} -p 6379 -a {m} ping",
    "mongodb_password": "mongosh --host {host} --username {u} --password {m} --authenticationDatabase admin",
    "mssql_password": "sqlcmd -S {host} -U {u} -P {m} -Q 'SELECT 1'",
    "amqp_password": "rabbitmqadmin -H {host} -u {u} -p {m} list queues",
    "smtp_password": "swaks --to ops@example.com --server smtp.mailhub.io:587 --auth-user {u} --auth-password {m}",
    "generic_password": "sshpass -p {m} ssh {u}@{host}",
    "url_credential_password": "curl -u {u}:{m} https://nexus.build.lan/service/rest/v1/status",
    "dockerhub_pat": "docker login -u {u} --password {m}",
    "npm_token": "npm config set //registry.npmjs.org/:_authToken {m}",
    "pypi_token": "twine upload -u __token__ -p {m} dist/*",
    "github_pat_classic": "git clone https://x-access-token:{m}@github.com/{u}/infra.git",
    "vault_token": "vault login {m}",
    "jenkins_api_token": "java -jar jenkins-cli.jar -s https://ci.internal/ -auth {u}:{m} list-jobs",
    "terraform_cloud_token": "terraform login --token {m}",
    "cratesio_token": "cargo login {m}",
    "nuget_api_key": "dotnet nuget push pkg.nupkg --api-key {m} --source https://api.nuget.org/v3/index.json",
    "rubygems_api_key": "GEM_HOST_API_KEY={m} gem push pkg.gem",
    "heroku_api_key": "heroku auth:token --set {m}",
    "flyio_token": "flyctl deploy --access-token {m}",
    "vercel_token": "vercel deploy --prod --token {m}",
    "netlify_token": "netlify deploy --prod --auth {m}",
    "sonarqube_token": "sonar-scanner -Dsonar.token={m}",
    "snyk_token": "snyk auth {m}",
    "doppler_token": "doppler run --token {m} -- ./start.sh",
    "gitlab_runner_token": "gitlab-runner register --url https://gitlab.com --token {m}",
    "azure_devops_pat": "az devops login --organization https://dev.azure.com/{u} <<< {m}",
    "ibm_cloud_api_key": "ibmcloud login --apikey {m} -r eu-de",
    "digitalocean_token": "doctl auth init --access-token {m}",
    "octopus_deploy_api_key": "octo push --package app.zip --server https://deploy.internal --apiKey {m}",
    "wandb_api_key": "wandb login {m}",
    "huggingface_token": "huggingface-cli login --token {m}",
    "pulumi_access_token": "PULUMI_ACCESS_TOKEN={m} pulumi up --yes",
    "aws_secret_access_key": "aws configure set aws_secret_access_key {m}",
    "slack_webhook_url": WEBHOOK_CURL,
    "discord_webhook_url": WEBHOOK_CURL.replace("text", "content"),
    "msteams_webhook_url": WEBHOOK_CURL,
    "google_chat_webhook_url": WEBHOOK_CURL,
}


def cli_line(e: Entry) -> str | None:
    """A command line carrying the entry's secret as a flag, when the kind has a usual tool."""
    if e.cat != "s" or any(multiline(v) for _, v in e.fields):
        return None
    form = CLI_FORMS.get(e.kind)
    marks = [m.group(0) for _, v in e.fields for m in MARK_RE.finditer(v) if m.group(2) == e.kind]
    if not marks:
        return None
    if form is None:
        if len(e.fields) != 1 or e.value != marks[0] or SECRET_SPECS[e.kind].header is None:
            return None
        tool = re.sub(r"[^a-z0-9]+", "-", e.service.lower()).strip("-")
        form = R.choice(["{tool} login --token {m}", "{tool} --api-key {m} whoami", "{tool} auth --key={m}"])
        return form.format(tool=tool, m=marks[0])
    quoted = sq_shell(marks[0]) if R.random() < 0.6 else marks[0]
    return form.format(m=quoted, u=user(), host=R.choice(HOSTS))


def n_terminal(lang: str, es: list[Entry]) -> str:
    p = f"{user()}@{project()}:~$"
    lines = [f"{p} cd ~/src/{project()} && git pull", "Already up to date."]
    for e in es:
        hl = header_line(e)
        if e.cat == "l":
            k, v = e.fields[-1]
            lines += [
                f"{p} grep -rn {snake(k)} config/",
                f"config/app.yaml:{R.randint(3, 80)}:  {snake(k)}: {v}"
                if not multiline(v)
                else f"{p} cat {snake(k)}.pem\n{v}",
            ]
        elif hl and R.random() < 0.4:
            lines += [f'{p} curl -s -H "{hl}" {api_host(e)}', '{"ok":true}']
        elif (cl := cli_line(e)) and R.random() < 0.5:
            lines += [f"{p} {cl}", R.choice(["OK", "Login Succeeded", "done", "Authenticated.", "PONG"])]
        else:
            for k, v in e.fields:
                if multiline(v):
                    lines += [f"{p} cat ~/.secrets/{snake(k)}", v]
                else:
                    lines.append(f"{p} export {snake(k).upper()}={sq_shell(v)}")
    lines.append(f"{p} # {ph(lang, 'fill')}")
    return "```console\n" + "\n".join(lines) + "\n```\n"


def n_history(lang: str, es: list[Entry]) -> str:
    cmds = ["git status", "ls -la", f"cd ~/src/{project()}", "make test", "kubectl get pods -n prod"]
    for e in es:
        hl = header_line(e)
        if e.cat == "l":
            cmds.append(f"echo {e.value}")
        elif hl and R.random() < 0.4:
            cmds.append(f"curl -H '{hl}' {api_host(e)}")
        elif (cl := cli_line(e)) and R.random() < 0.6:
            cmds.append(cl)
        else:
            cmds += [f"export {snake(k).upper()}={sq_shell(v)}" for k, v in e.fields]
    R.shuffle(cmds)
    start = R.randint(100, 2000)
    return f"# {ph(lang, 'comment')}\n" + "\n".join(f"{start + i:5d}  {c}" for i, c in enumerate(cmds)) + "\n"


def n_ci(lang: str, es: list[Entry]) -> str:
    t0 = R.randint(0, 50)
    lines = ["##[group]Run make deploy", "+ set -x"]
    for e in es:
        for k, v in e.fields:
            lines.append(f"+ export {snake(k).upper()}={v}" if R.random() < 0.6 else f"{snake(k).upper()}={v}")
    lines += ["Deploying to production...", f"Done in {R.randint(20, 300)}s", "##[endgroup]", f"# {ph(lang, 'fill')}"]
    day = date()
    return (
        "\n".join(
            f"{day}T10:{t0 + i // 6:02d}:{(i * 7) % 60:02d}.{rs(7, string.digits)}Z {x}" for i, x in enumerate(lines)
        )
        + "\n"
    )


def n_trace(lang: str, es: list[Entry]) -> str:
    lines = [
        "Traceback (most recent call last):",
        f'  File "/srv/{project()}/app/client.py", line {R.randint(20, 400)}, in call',
        "    resp.raise_for_status()",
        "requests.exceptions.HTTPError: 401 Client Error: Unauthorized",
        "",
        "Locals at frame 0:",
    ]
    for k, v in pairs(es):
        lines.append(f"    {snake(k)} = {v}")
    lines += ["", f"-- {ph(lang, 'fill')}"]
    return "\n".join(lines) + "\n"


def n_email(lang: str, es: list[Entry]) -> str:
    a, b = split(es, 2)
    who = R.sample(FIRST, 2)
    head = [
        f"From: {who[0]} <{who[0].lower()}@{project()}.io>",
        f"To: {who[1]} <{who[1].lower()}@{project()}.io>",
        f"Subject: Re: {project()} {word(lang, 8).lower()}",
        f"Date: {date()} {clock()}",
        "",
    ]
    body = "\n\n".join(weave(lang, a, "", (1, 2)))
    quoted = "\n\n".join(weave(lang, b, "", (1, 2)))
    quoted = "> " + quoted.replace("\n", "\n> ")
    return "\n".join(head) + "\n" + body + f"\n\n{who[1]} wrote on {date()}:\n" + quoted + "\n"


def n_review(lang: str, es: list[Entry]) -> str:
    f = R.choice([".env.example", "config/settings.py", "deploy/values.yaml", "src/client.ts"])
    hunk = [
        f"diff --git a/{f} b/{f}",
        f"--- a/{f}",
        f"+++ b/{f}",
        f"@@ -{R.randint(1, 40)},3 +{R.randint(1, 40)},{3 + len(es)} @@",
        " LOG_LEVEL=info",
    ]
    for k, v in pairs(es):
        hunk.append("+" + f"{snake(k).upper()}={v}".replace("\n", "\n+"))
    hunk.append(" PORT=8080")
    return (
        f"PR #{R.randint(10, 900)} review\n\n```diff\n"
        + "\n".join(hunk)
        + f"\n```\n\n**{R.choice(FIRST)}:** {ph(lang, 'fill')}\n"
    )


NARRATIVE = {
    "journal": n_journal,
    "meeting_notes": n_meeting,
    "onboarding": n_onboarding,
    "user_facts": n_user,
    "debug_diary": n_debug,
    "postmortem": n_postmortem,
    "runbook": n_runbook,
    "quick_note": n_quick,
    "ticket": n_ticket,
    "chat": n_chat,
    "terminal": n_terminal,
    "shell_history": n_history,
    "ci_log": n_ci,
    "stack_trace": n_trace,
    "email": n_email,
    "code_review": n_review,
}
STRUCTURED = {
    "env": r_env,
    "yaml": r_yaml,
    "json": r_json,
    "toml": r_toml,
    "ini": r_ini,
    "xml": r_xml,
    "hcl": r_hcl,
    "properties": r_properties,
    "csv": r_csv,
    "docker_compose": r_compose,
    "kubernetes": r_k8s,
    "github_actions": r_gha,
    "nginx": r_nginx,
    "apache": r_apache,
    "systemd": r_systemd,
}
CODE = {
    "python": r_python,
    "javascript": r_js,
    "typescript": r_ts,
    "go": r_go,
    "java": r_java,
    "ruby": r_ruby,
    "php": r_php,
    "rust": r_rust,
    "csharp": r_csharp,
    "shell": r_shell,
}
# Scratch notes and chats carry fewer secrets than credential files.
DENSITY = {
    "quick_note": 0.3,
    "user_facts": 0.45,
    "chat": 0.55,
    "meeting_notes": 0.7,
    "email": 0.75,
    "ticket": 0.75,
    "code_review": 0.7,
    "stack_trace": 0.7,
    "env": 1.5,
    "csv": 1.6,
    "yaml": 1.4,
    "json": 1.4,
    "toml": 1.3,
    "terminal": 1.3,
    "shell_history": 1.4,
    "kubernetes": 1.3,
}
NO_MULTILINE = {"nginx", "apache", "systemd", "ci_log", "shell_history"}
WRAP_CONTEXTS = {"email": 72, "stack_trace": 76, "journal": 64, "debug_diary": 80}

CONTEXT_DESC = {
    "journal": "project journal with dated entries",
    "meeting_notes": "meeting notes with decisions and action items",
    "onboarding": "onboarding checklist",
    "user_facts": "notes about the user",
    "debug_diary": "debugging diary with timestamps and log excerpts",
    "postmortem": "incident post-mortem with timeline",
    "runbook": "numbered runbook steps",
    "quick_note": "short scratch note",
    "ticket": "issue ticket with comments",
    "chat": "user / assistant transcript",
    "terminal": "pasted terminal session",
    "shell_history": "numbered shell history",
    "ci_log": "CI log with timestamps and `set -x` trace",
    "stack_trace": "traceback with frame locals",
    "email": "email with headers and a quoted reply",
    "code_review": "review comment with a diff hunk",
    "env": "`.env` file",
    "yaml": "YAML config",
    "json": "JSON config with a `_note` key",
    "toml": "TOML config",
    "ini": "INI config",
    "xml": "`app.config` style XML",
    "hcl": "Terraform / HCL",
    "properties": "Java `.properties`",
    "csv": "credential inventory CSV export",
    "docker_compose": "Compose file",
    "kubernetes": "Kubernetes Secret manifest",
    "github_actions": "GitHub Actions workflow",
    "nginx": "nginx server block",
    "apache": "Apache virtual host",
    "systemd": "systemd unit with `Environment=` lines",
    "python": "Python module",
    "javascript": "JavaScript module",
    "typescript": "TypeScript module",
    "go": "Go program",
    "java": "Java class",
    "ruby": "Ruby module",
    "php": "PHP config array",
    "rust": "Rust constants",
    "csharp": "C# class",
    "shell": "bash script",
}

V5_KINDS = [
    "age_secret_key",
    "airtable_pat",
    "algolia_admin_key",
    "amqp_password",
    "anthropic_api_key",
    "app_secret_key",
    "atlassian_api_token",
    "aws_access_key_id",
    "aws_secret_access_key",
    "aws_session_token",
    "azure_ad_client_secret",
    "azure_devops_pat",
    "azure_sas_signature",
    "azure_storage_account_key",
    "bearer_token",
    "bitbucket_app_password",
    "brevo_api_key",
    "buildkite_token",
    "circleci_token",
    "cloudflare_api_token",
    "cohere_api_key",
    "cratesio_token",
    "databricks_token",
    "datadog_api_key",
    "datadog_app_key",
    "digitalocean_token",
    "discord_bot_token",
    "discord_webhook_url",
    "dockerhub_pat",
    "doppler_token",
    "dynatrace_token",
    "ec_private_key",
    "ed25519_private_key",
    "elevenlabs_api_key",
    "encryption_key",
    "figma_pat",
    "flutterwave_secret_key",
    "flyio_token",
    "gcp_service_account_key",
    "generic_api_key",
    "generic_password",
    "github_app_token",
    "github_fine_grained_pat",
    "github_pat_classic",
    "gitlab_token",
    "google_api_key",
    "grafana_service_account_token",
    "groq_api_key",
    "heroku_api_key",
    "hetzner_cloud_token",
    "http_basic_auth",
    "hubspot_private_app_token",
    "huggingface_token",
    "ibm_cloud_api_key",
    "jenkins_api_token",
    "jwt",
    "kube_client_key_data",
    "langsmith_api_key",
    "linear_api_key",
    "mailchimp_api_key",
    "mailgun_api_key",
    "mapbox_secret_token",
    "mistral_api_key",
    "mollie_api_key",
    "mongodb_password",
    "mssql_password",
    "msteams_webhook_url",
    "mysql_password",
    "netlify_token",
    "newrelic_license_key",
    "newrelic_user_api_key",
    "notion_token",
    "npm_token",
    "nuget_api_key",
    "oauth_client_secret",
    "okta_api_token",
    "onepassword_service_token",
    "openai_api_key",
    "openssh_private_key",
    "paypal_client_secret",
    "paystack_secret_key",
    "perplexity_api_key",
    "pinecone_api_key",
    "postgres_password",
    "postman_api_key",
    "postmark_server_token",
    "pulumi_access_token",
    "pypi_token",
    "redis_password",
    "render_api_key",
    "replicate_api_token",
    "rsa_private_key",
    "rubygems_api_key",
    "sendgrid_api_key",
    "sentry_auth_token",
    "session_cookie",
    "shopify_access_token",
    "slack_app_token",
    "slack_bot_token",
    "slack_user_token",
    "slack_webhook_url",
    "smtp_password",
    "sonarqube_token",
    "splunk_hec_token",
    "square_access_token",
    "stripe_restricted_key",
    "stripe_secret_key",
    "stripe_webhook_secret",
    "supabase_access_token",
    "telegram_bot_token",
    "terraform_cloud_token",
    "totp_seed",
    "twilio_auth_token",
    "url_credential_password",
    "vault_token",
    "vercel_token",
    "webhook_signing_secret",
    "wireguard_private_key",
    "xai_api_key",
]


def extract(text: str) -> tuple[str, list[tuple[str, str, str, int, int]]]:
    out: list[str] = []
    labels = []
    pos = n = 0
    for m in MARK_RE.finditer(text):
        out.append(text[pos : m.start()])
        n += m.start() - pos
        val = m.group(3)
        labels.append((m.group(1), m.group(2), val, n, n + len(val)))
        out.append(val)
        n += len(val)
        pos = m.end()
    out.append(text[pos:])
    clean = "".join(out)
    if any(c in clean for c in (M_OPEN, M_MID, M_CLOSE)):
        raise ValueError("stray label marker")
    return clean, labels


def doc_ok(clean: str, labels: list[tuple[str, str, str, int, int]]) -> bool:
    values = Counter(v for _, _, v, _, _ in labels)
    for cat, _, v, _, _ in labels:
        if not v.strip():
            return False
        if cat == "s" and clean.count(v) != values[v]:
            return False
    return True


def wrap_narrative(ctx: str, text: str, lang: str) -> str:
    r = R.random()
    title = f"{project()} {word(lang, 8).lower()} {date()}"
    if r < 0.14:
        rec = {
            "id": "mem_" + rs(12, LOWER_ALNUM),
            "type": ctx,
            "title": title,
            "lang": lang,
            "created": date(),
            "body": text,
        }
        return json.dumps(rec, ensure_ascii=False, indent=2) + "\n"
    if r < 0.24:
        return (
            f"title: {json.dumps(title, ensure_ascii=False)}\nkind: {ctx}\nlang: {lang}\nbody: |\n  "
            + indent(text.rstrip("\n"), 2)
            + "\n"
        )
    if r < 0.40:
        return (
            f"---\ntitle: {json.dumps(title, ensure_ascii=False)}\ntags: [{ctx.replace('_', '-')}, {project()}]\nupdated: {date()}\n---\n\n"
            + text
        )
    return text


def render(ctx: str, lang: str, entries: list[Entry]) -> str:
    if ctx in NARRATIVE:
        return wrap_narrative(ctx, NARRATIVE[ctx](lang, entries), lang)
    if ctx in STRUCTURED:
        return STRUCTURED[ctx](lang, entries)
    return CODE[ctx](lang, entries)


def take(pool: list[str], specs: dict[str, Spec], ctx: str, chosen: list[str]) -> str:
    for i, k in enumerate(pool):
        if k in chosen or (specs[k].multiline and ctx in NO_MULTILINE):
            continue
        return pool.pop(i)
    options = [k for k in specs if k not in chosen and not (specs[k].multiline and ctx in NO_MULTILINE)]
    return R.choice(options)


@dataclass
class Doc:
    id: str
    context: str
    lang: str
    text: str
    labels: list[tuple[str, str, str, int, int]]

    def record(self) -> dict[str, object]:
        def lab(cat: str) -> list[dict[str, object]]:
            return [{"kind": k, "value": v, "start": s, "end": e} for c, k, v, s, e in self.labels if c == cat]

        return {"id": self.id, "context": self.context, "text": self.text, "secrets": lab("s"), "lookalikes": lab("l")}


def build() -> list[Doc]:
    contexts = list(NARRATIVE) + list(STRUCTURED) + list(CODE)
    offset = {c: R.randrange(2) for c in contexts}
    seen: Counter[str] = Counter()
    plan: list[list[object]] = []
    for i in range(N_DOCS):
        c = contexts[i % len(contexts)]
        plan.append([c, (seen[c] + offset[c]) % 2 == 0])
        seen[c] += 1
    target = N_DOCS // 2
    while (n_secret := sum(1 for _, s in plan if s)) != target:
        want = n_secret < target
        cands = [p for p in plan if p[1] != want]
        R.choice(cands)[1] = want
    R.shuffle(plan)

    spool = [k for k in SECRET_SPECS for _ in range(PER_SECRET_KIND)]
    lpool = [k for k in LOOK_SPECS for _ in range(PER_LOOK_KIND)]
    R.shuffle(spool)
    R.shuffle(lpool)
    secret_docs_left = target
    docs = []
    for i, (ctx, has_secret) in enumerate(plan, 1):
        assert isinstance(ctx, str)
        lang = pick_lang()
        skinds: list[str] = []
        if has_secret:
            mean = len(spool) / secret_docs_left if spool else 2
            n = max(1, min(9, round(mean * DENSITY.get(ctx, 1.0) + R.choice([-1, 0, 0, 1]))))
            if secret_docs_left <= 40:  # the last documents drain what is left of the pool
                n = max(n, -(-len(spool) // secret_docs_left))
            secret_docs_left -= 1
            for _ in range(n):
                skinds.append(take(spool, SECRET_SPECS, ctx, skinds))
            nl = R.choice([0, 0, 1, 1, 2])
        else:
            nl = R.randint(1, 3)
        nl = max(nl, len(lpool) if i == N_DOCS else len(lpool) // (N_DOCS - i + 1))
        lkinds: list[str] = []
        for _ in range(nl):
            lkinds.append(take(lpool, LOOK_SPECS, ctx, lkinds))
        for _attempt in range(30):
            STATE["wrap"] = WRAP_CONTEXTS.get(ctx, 0) if R.random() < 0.4 else 0
            entries = [make_entry(SECRET_SPECS[k]) for k in skinds]
            STATE["wrap"] = 0
            entries += [make_entry(LOOK_SPECS[k]) for k in lkinds]
            R.shuffle(entries)
            clean, labels = extract(render(ctx, lang, entries))
            if doc_ok(clean, labels):
                break
        else:
            raise RuntimeError(f"could not render document {i} ({ctx})")
        docs.append(Doc(f"blind6-{i:04d}", ctx, lang, clean, labels))
    return docs


# ---------------------------------------------------------------------------
# Checks, README and output.


def check(docs: list[Doc]) -> None:
    ids = [d.id for d in docs]
    if len(set(ids)) != len(ids):
        raise ValueError("duplicate ids")
    if len(docs) != N_DOCS:
        raise ValueError("wrong number of documents")
    for d in docs:
        if not d.labels:
            raise ValueError(f"{d.id}: no labelled value")
        last_end = -1
        for cat, kind, value, start, end in d.labels:
            if d.text[start:end] != value:
                raise ValueError(f"{d.id}: span {start}:{end} does not slice {kind}")
            if start < last_end:
                raise ValueError(f"{d.id}: spans overlap or are unsorted")
            if cat == "s" and kind not in SECRET_SPECS:
                raise ValueError(f"{d.id}: unknown secret kind {kind}")
            if cat == "l" and kind not in LOOK_SPECS:
                raise ValueError(f"{d.id}: unknown look-alike kind {kind}")
            last_end = end
        if not doc_ok(d.text, d.labels):
            raise ValueError(f"{d.id}: a labelled secret also occurs unlabelled")
        for part in (d.record()["secrets"], d.record()["lookalikes"]):
            assert isinstance(part, list)
            starts = [lab["start"] for lab in part]
            if starts != sorted(starts):
                raise ValueError(f"{d.id}: list not sorted")
    share = sum(1 for d in docs if any(c == "s" for c, *_ in d.labels)) / len(docs)
    if not 0.45 <= share <= 0.55:
        raise ValueError(f"share of secret documents {share:.3f} outside 45-55%")
    s_count, s_ctx, l_count = kind_stats(docs)
    if len(s_count) < MIN_SECRET_KINDS or len(l_count) < MIN_LOOK_KINDS:
        raise ValueError("too few kinds")
    for k in SECRET_SPECS:
        if s_count[k] < MIN_SECRET_EXAMPLES or len(s_ctx[k]) < MIN_SECRET_CONTEXTS:
            raise ValueError(f"secret kind {k}: {s_count[k]} examples in {len(s_ctx[k])} contexts")
    for k in LOOK_SPECS:
        if l_count[k] < MIN_LOOK_EXAMPLES:
            raise ValueError(f"look-alike kind {k}: {l_count[k]} examples")
    new = [k for k in SECRET_SPECS if k not in V5_KINDS]
    if len(new) < 20:
        raise ValueError("fewer than 20 kinds beyond v5's list")


def kind_stats(docs: list[Doc]) -> tuple[Counter[str], dict[str, set[str]], Counter[str]]:
    s_count: Counter[str] = Counter()
    l_count: Counter[str] = Counter()
    s_ctx: dict[str, set[str]] = defaultdict(set)
    for d in docs:
        for cat, kind, *_ in d.labels:
            if cat == "s":
                s_count[kind] += 1
                s_ctx[kind].add(d.context)
            else:
                l_count[kind] += 1
    return s_count, s_ctx, l_count


def fmt_int(n: int) -> str:
    return f"{n:,}"


def readme(docs: list[Doc], digest: str) -> str:
    s_count, s_ctx, l_count = kind_stats(docs)
    l_ctx: dict[str, set[str]] = defaultdict(set)
    for d in docs:
        for cat, kind, *_ in d.labels:
            if cat == "l":
                l_ctx[kind].add(d.context)
    n_sec_docs = sum(1 for d in docs if any(c == "s" for c, *_ in d.labels))
    n_look_docs = sum(1 for d in docs if any(c == "l" for c, *_ in d.labels))
    n_s = sum(s_count.values())
    n_l = sum(l_count.values())
    lengths = sorted(len(d.text) for d in docs)
    median = lengths[len(lengths) // 2]
    non_ascii = sum(1 for d in docs if any(ord(c) > 127 for c in d.text))
    narrative_spans = sum(1 for d in docs if d.context in NARRATIVE for c, *_ in d.labels if c == "s")
    multi = sum(1 for d in docs for c, _, v, _, _ in d.labels if c == "s" and "\n" in v)
    langs = Counter(d.lang for d in docs)
    ctx_docs = Counter(d.context for d in docs)
    ctx_sec = Counter(d.context for d in docs if any(c == "s" for c, *_ in d.labels))
    new = [k for k in SECRET_SPECS if k not in V5_KINDS]
    lang_text = ", ".join(f"{LANG_NAMES[c]} {n}" for c, n in langs.most_common())
    out = [
        "# secrets_blind_v6",
        "",
        "A held-out, labelled test corpus for the secret-detection engine, written blind to it: "
        f"{fmt_int(len(docs))} documents of the kind an AI assistant keeps in its `/memories` folder. Project journals, pasted terminal "
        "sessions and shell history, chat transcripts, meeting notes, onboarding checklists, notes about the user, debugging diaries, "
        "incident post-mortems, runbooks, tickets, emails, CI logs, stack traces and code-review comments sit next to structured files "
        "(JSON, YAML, TOML, INI, `.env`, XML, HCL, Java properties, CSV, Compose, Kubernetes, GitHub Actions, nginx, Apache, systemd) "
        "and code (Python, JavaScript, TypeScript, Go, Java, Ruby, PHP, Rust, C#, bash). Every document lists the secrets it holds "
        "(to be reported) and the look-alikes it holds (public values that must not be reported).",
        "",
        "## How it was built",
        "",
        "- Generator: [`../make_blind_secrets_v6.py`](../make_blind_secrets_v6.py), Python 3.11 standard library only, one "
        f"`random.Random({SEED})`. No set is iterated while writing, no clock or system randomness is read, and `PYTHONHASHSEED` "
        "does not change the bytes written.",
        "- Regenerate with `python3 tests/corpora/make_blind_secrets_v6.py` (or `--out DIR`). A run takes about 2-3 seconds.",
        "- Every value is wrapped in private-use marker characters (kind and secret / look-alike flag inside the opening marker) when it "
        "is made. Rendering (JSON escaping, YAML block indentation, email quoting, diff prefixes, hard wraps, memory-record framing) "
        "happens on the marked text, and the offsets are read off the final text when the markers are stripped.",
        "- A document whose secret also occurs unlabelled somewhere in its own text is re-rendered with fresh values. Before anything is "
        "written the script checks that every span slices out its value, that both lists are sorted and no two spans overlap, that ids "
        "are unique, that every document has a labelled value, that no labelled secret also occurs unlabelled in its document, that "
        f"45-55% of the documents hold a secret, that there are at least {MIN_SECRET_KINDS} secret kinds (at least "
        f"{MIN_SECRET_EXAMPLES} examples each, in at least {MIN_SECRET_CONTEXTS} contexts), at least 20 kinds absent from v5's table, "
        f"and at least {MIN_LOOK_KINDS} look-alike kinds (at least {MIN_LOOK_EXAMPLES} examples each). After writing it re-reads "
        "`corpus.jsonl` and compares it with the `SHA256SUMS` line. Any failure raises.",
        "- Written blind. I read `tests/corpora/secrets_blind_v5/README.md` for the file format, the labelling conventions, the layout "
        "of this file and the list of kinds (its phrasing and templates were not reused; the v5 kind names appear in the generator "
        "only to mark which kinds are new). `pyproject.toml` was read for its ruff settings only. Nothing under `sandbox/`, "
        "`policies/`, `bench/`, `docs/` or `tests/` was opened, read, grepped or run apart from that README. Two slips, both of names "
        "only: one `ls tests/corpora/` printed the file and folder names there (no file was opened), and two `git status --short` "
        "runs, made to check that I had created nothing else, printed the names of files other people had modified in the working "
        "tree (`policies/secrets/builtin.toml`, `tests/secret_rule_ids.txt`, `sandbox/secrets/_engine.py`, "
        "`sandbox/secrets/_keywords.py`); none of them was opened, and no git history (log, show, diff) was read. The `sandbox` package was never imported and the project's scanner was never run. "
        "Token formats come from providers' public documentation as I know it.",
        "- Values are random but structurally real where the format allows: GitHub `ghp_` / `gho_`... and npm tokens end in the base62 "
        "CRC32 of their random part; PyPI tokens are v2 macaroons (location `pypi.org`) with a real HMAC chain; JWTs carry real HS256 "
        "signatures; P-256 keys are real key pairs, and certificates are real self-signed P-256 certificates with valid ECDSA "
        "signatures; OpenSSH and PuTTY Ed25519 keys embed their real public key (the PuTTY files carry the MAC the PPK v3 format defines for unencrypted keys); age keys and recipients, WireGuard key pairs and "
        "bech32 addresses are real; PGP blocks carry a correct CRC-24 line; IBANs and ISBNs have valid check digits. RSA keys are "
        "DER-correct PKCS #1 / PKCS #8 structures with 2048-bit random integers (not a working key pair, to keep the run fast).",
        "",
        "## File format",
        "",
        "`corpus.jsonl`: one JSON object per line, UTF-8, written with `ensure_ascii=False`, keys in this order:",
        "",
        "```json",
        '{"id": "blind6-0001", "context": "journal", "text": "...", "secrets": [{"kind": "...", "value": "...", "start": 0, "end": 0}], "lookalikes": []}',
        "```",
        "",
        "- `start` / `end` are Python code-point offsets into `text` and `text[start:end] == value`. Each list is sorted by `start`; "
        "no two spans of a document overlap (secrets and look-alikes together).",
        "- `context` names the shape of the document (table below). Narrative documents are markdown; about a seventh are wrapped as a "
        "JSON memory record (the body is one JSON string), a tenth as a YAML record (the body is an indented block scalar), and a sixth "
        "carry front matter. Structured and code files carry a comment (or a `_note` key, a notes column, a unit description) in the "
        "document's language.",
        "",
        "## Labelling",
        "",
        "- Only the sensitive part is labelled: the password inside a DSN, URL or connection string (not the user or host); the `sig=` "
        "value of an Azure SAS URL; the credential after `Bearer `, `Basic `, `token `, `Bot `, `SSWS `, `Splunk `, `GenieKey `, "
        "`Api-Token `, `Token token=`; the cookie value after `name=`; the base64 after Laravel's `base64:`; the seed inside an "
        "`otpauth://` URI; the private key inside a service-account JSON. Slack, Discord, Teams and Google Chat webhook URLs are "
        "labelled whole; PEM, OpenSSH, PGP and PuTTY keys are labelled from their first to their last line.",
        "- Key ids that travel with their secret are secrets too: AWS `AKIA` / `ASIA`, Alibaba `LTAI`, Tencent `AKID`. Companions that "
        "are not secret are look-alikes: OAuth client ids, Twilio account SIDs, Plaid client ids, Algolia app ids, Sumo Logic access "
        "ids, Razorpay `rzp_live_` key ids, GCP `private_key_id`, the public half of WireGuard and age key pairs, the kubeconfig client "
        "certificate. Users, hosts, ports and plain settings (`LOG_LEVEL=info`) are neither.",
        "- A value is labelled exactly as it appears: inside JSON (a JSON config, or a JSON-framed memory record) it keeps its escapes "
        '(`\\n`, `\\"`); in a YAML block scalar, an INI continuation or a YAML-framed memory record it keeps the indentation of its '
        "continuation lines; in a quoted email reply it keeps the `> ` prefixes; in a diff it keeps the `+` prefixes; in XML it keeps "
        "entity escapes; in a CSV field it keeps doubled quotes; in a Java properties file a key's line breaks are `\\n`; a token "
        "hard-wrapped by a mail client, a crash dump or a narrow note keeps its newlines.",
        f"- {fmt_int(narrative_spans)} secret spans sit in narrative documents, many in bare prose with no key name nearby "
        f'("new one is ...", "use ... for staging") or named only by the service; {fmt_int(multi)} secret spans run over '
        "several lines.",
        "",
        "## Numbers",
        "",
        f"- {fmt_int(len(docs))} documents; {fmt_int(n_sec_docs)} ({100 * n_sec_docs / len(docs):.0f}%) hold at least one secret; "
        f"{fmt_int(n_look_docs)} hold look-alikes; every document has at least one labelled value.",
        f"- {fmt_int(n_s)} secret spans over {len(s_count)} kinds (at least {min(s_count.values())} each, each kind in at least "
        f"{min(len(v) for v in s_ctx.values())} different contexts); {len(new)} of the kinds are not in v5's table (marked *new*).",
        f"- {fmt_int(n_l)} look-alike spans over {len(l_count)} kinds (at least {min(l_count.values())} each).",
        f"- Length: {lengths[0]:,} to {lengths[-1]:,} characters, median {median:,}; {non_ascii} documents contain non-ASCII text.",
        f"- {len(ctx_docs)} contexts; prose and comments in {len(langs)} languages: {lang_text}.",
        "",
        "## Secret kinds",
        "",
        "| kind | format | examples | contexts |",
        "| --- | --- | ---: | ---: |",
    ]
    for k in sorted(SECRET_SPECS):
        tag = " *new*" if k in new else ""
        out.append(f"| `{k}`{tag} | {SECRET_SPECS[k].fmt} | {s_count[k]} | {len(s_ctx[k])} |")
    out += ["", "## Look-alike kinds", "", "| kind | what | examples | contexts |", "| --- | --- | ---: | ---: |"]
    for k in sorted(LOOK_SPECS):
        out.append(f"| `{k}` | {LOOK_SPECS[k].fmt} | {l_count[k]} | {len(l_ctx[k])} |")
    out += ["", "## Contexts", "", "| context | what | documents | with secrets |", "| --- | --- | ---: | ---: |"]
    for c in sorted(ctx_docs):
        out.append(f"| `{c}` | {CONTEXT_DESC[c]} | {ctx_docs[c]} | {ctx_sec[c]} |")
    out += ["", "## Checksum", "", "`SHA256SUMS`:", "", "```", f"{digest}  corpus.jsonl", "```", ""]
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "secrets_blind_v6")
    args = ap.parse_args()
    t0 = time.perf_counter()
    docs = build()
    check(docs)
    payload = "".join(json.dumps(d.record(), ensure_ascii=False) + "\n" for d in docs).encode("utf-8")
    digest = hashlib.sha256(payload).hexdigest()
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    (out / "corpus.jsonl").write_bytes(payload)
    (out / "SHA256SUMS").write_text(f"{digest}  corpus.jsonl\n", encoding="utf-8")
    (out / "README.md").write_text(readme(docs, digest), encoding="utf-8")
    again = hashlib.sha256((out / "corpus.jsonl").read_bytes()).hexdigest()
    line = (out / "SHA256SUMS").read_text(encoding="utf-8")
    if line != f"{again}  corpus.jsonl\n" or again != digest:
        raise ValueError("SHA256SUMS does not match corpus.jsonl")
    reread = [json.loads(x) for x in (out / "corpus.jsonl").read_text(encoding="utf-8").splitlines()]
    for rec in reread:
        for lab in [*rec["secrets"], *rec["lookalikes"]]:
            if rec["text"][lab["start"] : lab["end"]] != lab["value"]:
                raise ValueError(f"{rec['id']}: span does not survive the round trip")
    print(f"wrote {len(docs)} documents to {out} in {time.perf_counter() - t0:.1f} s; sha256 {digest}")


if __name__ == "__main__":
    main()
