"""Generate secrets_blind_v12, a held-out labelled corpus for the secret-detection engine (see its README)."""

# ruff: noqa: RUF001  (full-width punctuation in the Japanese and Chinese phrasings is intended)
from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import itertools
import json
import random
import string
import urllib.parse
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

SEED = 73105829
N_DOCS = 1200
PREFIX = "blind12"

UP = string.ascii_uppercase
LO = string.ascii_lowercase
DG = string.digits
AN = UP + LO + DG
ALO = LO + DG
AUP = UP + DG
B64 = AN + "+/"
B64U = AN + "-_"
HEX = "0123456789abcdef"
HEXU = "0123456789ABCDEF"
B32 = UP + "234567"
B62 = DG + UP + LO
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
CROCK = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


# ---------------------------------------------------------------- primitives


def rs(r: random.Random, n: int, alpha: str = AN) -> str:
    return "".join(r.choice(alpha) for _ in range(n))


def T(*pieces: str | tuple[int, str]) -> Callable[[random.Random], str]:
    def gen(r: random.Random) -> str:
        return "".join(p if isinstance(p, str) else rs(r, p[0], p[1]) for p in pieces)

    return gen


def b64(b: bytes) -> str:
    return base64.b64encode(b).decode()


def b64u(b: bytes) -> str:
    return base64.urlsafe_b64encode(b).rstrip(b"=").decode()


def rbytes(r: random.Random, n: int) -> bytes:
    return bytes(r.getrandbits(8) for _ in range(n))


def uuid4(r: random.Random) -> str:
    h = rs(r, 32, HEX)
    h = h[:12] + "4" + h[13:16] + r.choice("89ab") + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def b62(n: int, width: int) -> str:
    s = ""
    while n:
        n, d = divmod(n, 62)
        s = B62[d] + s
    return s.rjust(width, "0")


def gh_token(r: random.Random, prefix: str) -> str:
    body = rs(r, 30)
    return prefix + body + b62(zlib.crc32(body.encode()), 6)


def luhn_digit(s: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(s)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return str((10 - total % 10) % 10)


def luhn_ok(s: str) -> bool:
    return luhn_digit(s[:-1]) == s[-1]


def gs1_digit(s: str) -> str:
    total = sum(int(c) * (3 if i % 2 == 0 else 1) for i, c in enumerate(reversed(s)))
    return str((10 - total % 10) % 10)


def crc16_xmodem(data: bytes) -> int:
    crc = 0
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def crc24(data: bytes) -> int:
    crc = 0xB704CE
    for byte in data:
        crc ^= byte << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


def b58encode(data: bytes) -> str:
    n = int.from_bytes(data, "big")
    s = ""
    while n:
        n, d = divmod(n, 58)
        s = B58[d] + s
    pad = len(data) - len(data.lstrip(b"\x00"))
    return "1" * pad + s


def b58check(payload: bytes) -> str:
    chk = hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    return b58encode(payload + chk)


BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def bech32_polymod(values: list[int]) -> int:
    gen = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
    chk = 1
    for v in values:
        top = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ v
        for i in range(5):
            if (top >> i) & 1:
                chk ^= gen[i]
    return chk


def bech32_encode(hrp: str, data: list[int], const: int = 1) -> str:
    exp = [ord(x) >> 5 for x in hrp] + [0] + [ord(x) & 31 for x in hrp]
    pm = bech32_polymod(exp + data + [0] * 6) ^ const
    chk = [(pm >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(BECH[d] for d in data + chk)


def to5(data: bytes) -> list[int]:
    acc = bits = 0
    out = []
    for b in data:
        acc = (acc << 8) | b
        bits += 8
        while bits >= 5:
            bits -= 5
            out.append((acc >> bits) & 31)
    if bits:
        out.append((acc << (5 - bits)) & 31)
    return out


# ---------------------------------------------------------------- curves and keys

P25519 = 2**255 - 19
ED_D = -121665 * pow(121666, -1, P25519) % P25519
ED_B = (
    15112221349535400772501151409588531511454012693041857206046113283949847762202,
    46316835694926478169428394003475163141307993866256225615783033603165251855960,
)


def ed_add(p1: tuple[int, int], p2: tuple[int, int]) -> tuple[int, int]:
    (x1, y1), (x2, y2) = p1, p2
    t = ED_D * x1 * x2 * y1 * y2 % P25519
    x3 = (x1 * y2 + y1 * x2) * pow(1 + t, -1, P25519) % P25519
    y3 = (y1 * y2 + x1 * x2) * pow(1 - t, -1, P25519) % P25519
    return x3, y3


def ed25519_public(seed: bytes) -> bytes:
    h = hashlib.sha512(seed).digest()
    a = int.from_bytes(h[:32], "little")
    a &= (1 << 254) - 8
    a |= 1 << 254
    q, acc = ED_B, (0, 1)
    while a:
        if a & 1:
            acc = ed_add(acc, q)
        q = ed_add(q, q)
        a >>= 1
    x, y = acc
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def x25519(k: bytes, u: int = 9) -> bytes:
    p = P25519
    n = int.from_bytes(k, "little")
    n &= ~7
    n &= ~(128 << 8 * 31)
    n |= 64 << 8 * 31
    x1, x2, z2, x3, z3, swap = u, 1, 0, u, 1, 0
    for t in reversed(range(255)):
        kt = (n >> t) & 1
        swap ^= kt
        if swap:
            x2, x3, z2, z3 = x3, x2, z3, z2
        swap = kt
        a = x2 + z2
        aa = a * a
        b = x2 - z2
        bb = b * b
        e = aa - bb
        c = x3 + z3
        d = x3 - z3
        da = d * a
        cb = c * b
        x3 = (da + cb) ** 2 % p
        z3 = x1 * (da - cb) ** 2 % p
        x2 = aa * bb % p
        z2 = e * (aa + 121665 * e) % p
    if swap:
        x2, z2 = x3, z3
    return (x2 * pow(z2, p - 2, p) % p).to_bytes(32, "little")


def clamp25519(k: bytes) -> bytes:
    b = bytearray(k)
    b[0] &= 248
    b[31] &= 127
    b[31] |= 64
    return bytes(b)


EC_P = 2**256 - 2**224 + 2**192 + 2**96 - 1
EC_B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
EC_G = (
    0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
    0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5,
)
EC_N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551


def ec_add(p1: tuple[int, int] | None, p2: tuple[int, int] | None) -> tuple[int, int] | None:
    if p1 is None:
        return p2
    if p2 is None:
        return p1
    (x1, y1), (x2, y2) = p1, p2
    if x1 == x2 and (y1 + y2) % EC_P == 0:
        return None
    lam = (3 * x1 * x1 - 3) * pow(2 * y1, -1, EC_P) if p1 == p2 else (y2 - y1) * pow(x2 - x1, -1, EC_P)
    lam %= EC_P
    x3 = (lam * lam - x1 - x2) % EC_P
    return x3, (lam * (x1 - x3) - y1) % EC_P


def ec_mul(k: int, pt: tuple[int, int] | None) -> tuple[int, int] | None:
    acc = None
    while k:
        if k & 1:
            acc = ec_add(acc, pt)
        pt = ec_add(pt, pt)
        k >>= 1
    return acc


def der_len(n: int) -> bytes:
    if n < 128:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


def der(tag: int, body: bytes) -> bytes:
    return bytes([tag]) + der_len(len(body)) + body


def der_int(x: int) -> bytes:
    return der(0x02, x.to_bytes(x.bit_length() // 8 + 1, "big"))


def der_seq(*items: bytes) -> bytes:
    return der(0x30, b"".join(items))


def pem(label: str, body: bytes, width: int = 64) -> str:
    s = b64(body)
    lines = [s[i : i + width] for i in range(0, len(s), width)]
    return f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----"


SMALL_PRIMES = [p for p in range(3, 2000) if all(p % q for q in range(2, int(p**0.5) + 1))]
SIEVE_PRIMES = [p for p in range(3, 1 << 16, 2) if all(p % q for q in SMALL_PRIMES if q * q <= p)]
SIEVE_WINDOW = 4096


def miller_rabin(n: int, r: random.Random, rounds: int) -> bool:
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for _ in range(rounds):
        a = r.randrange(2, n - 2)
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = pow(x, 2, n)
            if x == n - 1:
                break
        else:
            return False
    return True


def gen_prime(r: random.Random, bits: int) -> int:
    """Random prime of `bits` bits (top two bits set): sieve a window of odd candidates, then Miller-Rabin."""
    while True:
        base = r.getrandbits(bits) | (3 << (bits - 2)) | 1
        marks = bytearray(SIEVE_WINDOW)
        for p in SIEVE_PRIMES:
            start = (-base * ((p + 1) // 2)) % p
            marks[start::p] = b"\x01" * len(range(start, SIEVE_WINDOW, p))
        for i in range(SIEVE_WINDOW):
            c = base + 2 * i
            if not marks[i] and (c - 1) % 65537 and miller_rabin(c, r, 1) and miller_rabin(c, r, 4):
                return c


@dataclass
class RSAKey:
    n: int
    e: int
    d: int
    p: int
    q: int


def rsa_key(r: random.Random) -> RSAKey:
    while True:
        p, q = gen_prime(r, 1024), gen_prime(r, 1024)
        n = p * q
        if p != q and n.bit_length() == 2048:
            break
    e = 65537
    lam = (p - 1) * (q - 1) // _gcd(p - 1, q - 1)
    return RSAKey(n, e, pow(e, -1, lam), p, q)


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


RSA_OID = der(0x06, bytes.fromhex("2a864886f70d010101"))


def rsa_pkcs1(k: RSAKey) -> bytes:
    return der_seq(
        der_int(0),
        der_int(k.n),
        der_int(k.e),
        der_int(k.d),
        der_int(k.p),
        der_int(k.q),
        der_int(k.d % (k.p - 1)),
        der_int(k.d % (k.q - 1)),
        der_int(pow(k.q, -1, k.p)),
    )


def rsa_pem(k: RSAKey, pkcs8: bool) -> str:
    if pkcs8:
        body = der_seq(der_int(0), der_seq(RSA_OID, b"\x05\x00"), der(0x04, rsa_pkcs1(k)))
        return pem("PRIVATE KEY", body)
    return pem("RSA PRIVATE KEY", rsa_pkcs1(k))


def rsa_sign_sha256(k: RSAKey, msg: bytes) -> bytes:
    digest_info = bytes.fromhex("3031300d060960864801650304020105000420") + hashlib.sha256(msg).digest()
    em = b"\x00\x01" + b"\xff" * (256 - 3 - len(digest_info)) + b"\x00" + digest_info
    return pow(int.from_bytes(em, "big"), k.d, k.n).to_bytes(256, "big")


def jwt_compact(header: dict, payload: dict) -> str:
    return (
        b64u(json.dumps(header, separators=(",", ":")).encode())
        + "."
        + b64u(json.dumps(payload, separators=(",", ":")).encode())
    )


def jwt_hs256(payload: dict, key: bytes) -> str:
    si = jwt_compact({"alg": "HS256", "typ": "JWT"}, payload)
    return si + "." + b64u(hmac.new(key, si.encode(), hashlib.sha256).digest())


def ec_pem(r: random.Random, pkcs8: bool) -> str:
    d = r.randrange(1, EC_N)
    pt = ec_mul(d, EC_G)
    assert pt is not None
    pub = b"\x04" + pt[0].to_bytes(32, "big") + pt[1].to_bytes(32, "big")
    curve = der(0x06, bytes.fromhex("2a8648ce3d030107"))
    if pkcs8:
        inner = der_seq(der_int(1), der(0x04, d.to_bytes(32, "big")), der(0xA1, der(0x03, b"\x00" + pub)))
        body = der_seq(der_int(0), der_seq(der(0x06, bytes.fromhex("2a8648ce3d0201")), curve), der(0x04, inner))
        return pem("PRIVATE KEY", body)
    body = der_seq(der_int(1), der(0x04, d.to_bytes(32, "big")), der(0xA0, curve), der(0xA1, der(0x03, b"\x00" + pub)))
    return pem("EC PRIVATE KEY", body)


def ssh_str(b: bytes) -> bytes:
    return len(b).to_bytes(4, "big") + b


def ssh_ed25519_blob(pub: bytes) -> bytes:
    return ssh_str(b"ssh-ed25519") + ssh_str(pub)


def openssh_private(r: random.Random, comment: str) -> tuple[str, bytes]:
    seed = rbytes(r, 32)
    pub = ed25519_public(seed)
    check = rbytes(r, 4)
    priv = check + check + ssh_ed25519_blob(pub) + ssh_str(seed + pub) + ssh_str(comment.encode())
    pad = 1
    while len(priv) % 8:
        priv += bytes([pad])
        pad += 1
    body = b"openssh-key-v1\x00" + ssh_str(b"none") + ssh_str(b"none") + ssh_str(b"") + (1).to_bytes(4, "big")
    body += ssh_str(ssh_ed25519_blob(pub)) + ssh_str(priv)
    return pem("OPENSSH PRIVATE KEY", body, 70), pub


def mpi(b: bytes) -> bytes:
    b = b.lstrip(b"\x00")
    return (int.from_bytes(b, "big").bit_length()).to_bytes(2, "big") + b


def pgp_private(r: random.Random, uid: str) -> str:
    seed = rbytes(r, 32)
    pub = ed25519_public(seed)
    ts = (1_640_000_000 + r.randrange(90_000_000)).to_bytes(4, "big")
    oid = bytes.fromhex("2b06010401da470f01")
    secret_mpi = mpi(seed)
    body = b"\x04" + ts + bytes([22, len(oid)]) + oid + mpi(b"\x40" + pub) + b"\x00" + secret_mpi
    body += (sum(secret_mpi) % 65536).to_bytes(2, "big")
    packet = bytes([0xC5, len(body)]) + body
    u = uid.encode()
    packet += bytes([0xCD, len(u)]) + u
    s = b64(packet)
    lines = [s[i : i + 64] for i in range(0, len(s), 64)]
    chk = b64(crc24(packet).to_bytes(3, "big"))
    return (
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n"
        + "\n".join(lines)
        + "\n="
        + chk
        + "\n-----END PGP PRIVATE KEY BLOCK-----"
    )


CISCO_XLAT = "dsfd;kfoA,.iyewrkldJKDHSUBsgvca69834ncxv9873254k;fg87"


def cisco7(r: random.Random, pw: str) -> str:
    seed = r.randrange(16)
    return f"{seed:02d}" + "".join(f"{ord(c) ^ ord(CISCO_XLAT[(seed + i) % 53]):02X}" for i, c in enumerate(pw))


def cisco7_decode(s: str) -> str:
    seed = int(s[:2])
    return "".join(
        chr(int(s[i : i + 2], 16) ^ ord(CISCO_XLAT[(seed + (i - 2) // 2) % 53])) for i in range(2, len(s), 2)
    )


def pypi_token(r: random.Random) -> str:
    def field(t: int, data: bytes) -> bytes:
        return bytes([t, len(data)]) + data

    ident = uuid4(r).encode()
    caveat = json.dumps({"permissions": "user", "version": 1}).encode()
    if r.random() < 0.5:
        caveat = json.dumps({"permissions": {"projects": [r.choice(PROJECTS)]}, "version": 1}).encode()
    root = rbytes(r, 32)
    key = hmac.new(b"macaroons-key-generator", root, hashlib.sha256).digest()
    sig = hmac.new(key, ident, hashlib.sha256).digest()
    sig = hmac.new(sig, caveat, hashlib.sha256).digest()
    raw = (
        b"\x02"
        + field(1, b"pypi.org")
        + field(2, ident)
        + b"\x00"
        + field(2, caveat)
        + b"\x00"
        + b"\x00"
        + field(6, sig)
    )
    return "pypi-" + b64u(raw)


def iban(r: random.Random) -> str:
    country, bban = r.choice(
        [
            ("DE", rs(r, 18, DG)),
            ("NL", rs(r, 4, UP) + rs(r, 10, DG)),
            ("GB", rs(r, 4, UP) + rs(r, 14, DG)),
            ("FR", rs(r, 23, DG)),
        ]
    )
    num = "".join(str(int(c, 36)) for c in bban + country + "00")
    return f"{country}{98 - int(num) % 97:02d}{bban}"


def iban_ok(s: str) -> bool:
    t = s[4:] + s[:4]
    return int("".join(str(int(c, 36)) for c in t)) % 97 == 1


VIN_MAP = dict(
    zip("ABCDEFGHJKLMNPRSTUVWXYZ", [1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 7, 9, 2, 3, 4, 5, 6, 7, 8, 9], strict=True)
)
VIN_W = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2]


def vin(r: random.Random) -> str:
    alpha = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"
    s = list(rs(r, 17, alpha))
    total = sum((int(c) if c.isdigit() else VIN_MAP[c]) * w for c, w in zip(s, VIN_W, strict=True))
    s[8] = "X" if total % 11 == 10 else str(total % 11)
    return "".join(s)


def isbn13(r: random.Random) -> str:
    s = "978" + rs(r, 9, DG)
    total = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(s))
    return s + str((10 - total % 10) % 10)


def ulid(r: random.Random) -> str:
    t = 1_700_000_000_000 + r.randrange(60_000_000_000)
    s = ""
    for _ in range(10):
        t, d = divmod(t, 32)
        s = CROCK[d] + s
    return s + rs(r, 16, CROCK)


NAMES = [
    "alice",
    "bob",
    "carla",
    "dmitri",
    "priya",
    "kenji",
    "lucia",
    "omar",
    "sofia",
    "tomas",
    "mei",
    "jonas",
    "fatima",
    "luca",
    "ana",
    "noah",
    "ingrid",
    "rafael",
]
SURNAMES = [
    "Okafor",
    "Lindqvist",
    "Moreau",
    "Tanaka",
    "Kowalski",
    "Ferreira",
    "Rossi",
    "Jansen",
    "Schneider",
    "Navarro",
    "Chen",
    "Byrne",
]
PROJECTS = [
    "atlas",
    "billing-api",
    "checkout",
    "orion",
    "ledger",
    "nimbus",
    "harbor",
    "falcon",
    "payroll",
    "webshop",
    "tidepool",
    "kestrel",
]
HOSTS = [
    "db-prod-1.internal",
    "pg.staging.corp.lan",
    "10.0.4.12",
    "mysql-eu.cluster.local",
    "cache-2.internal",
    "mq.ops.lan",
    "172.16.8.21",
]
DOMAINS = ["example.com", "acme-corp.io", "mycompany.dev", "northwind.net", "contoso.org"]
PW_WORDS = [
    "maple", "orbit", "candle", "harbor", "velvet", "tundra", "pepper", "lantern", "walrus", "cobalt", "meadow", "rocket",
    "saffron", "glacier", "bamboo", "falcon", "juniper", "marble", "nectar", "quartz", "raven", "sparrow", "thistle",
    "umber", "willow", "zephyr", "biscuit", "copper", "dingo", "ember", "fennel", "gravel", "hazel", "igloo", "jasper",
]  # fmt: skip


def password(r: random.Random, style: str | None = None) -> str:
    style = style or r.choice(["random", "random", "passphrase", "leet", "pron", "tricky", "spaces", "long"])
    if style == "random":
        while True:
            s = rs(r, r.randint(12, 22), AN + "!@#%^&*-_+=?.")
            if (
                any(c in UP for c in s)
                and any(c in DG for c in s)
                and any(c in LO for c in s)
                and s[0].isalnum()
                and s[-1].isalnum()
            ):
                return s
    if style == "safe":
        return rs(r, 3, UP) + rs(r, r.randint(9, 14), AN) + rs(r, 2, DG)
    if style == "passphrase":
        sep = r.choice("-_.")
        return sep.join(r.sample(PW_WORDS, 4)) + sep + str(r.randint(10, 99))
    if style == "leet":
        w = r.choice(PW_WORDS).capitalize().replace("a", "@").replace("o", "0").replace("e", "3")
        return w + str(r.randint(1990, 2031)) + r.choice("!#$?*")
    if style == "pron":
        syl = "".join(r.choice("bcdfghjklmnprstvz") + r.choice("aeiou") for _ in range(r.randint(3, 5)))
        return syl.capitalize() + rs(r, 3, DG) + r.choice("!%&")
    if style == "tricky":
        core = list(rs(r, 12, AN) + r.choice(["'", '"']) + r.choice(["\\", "$", "%", "#"]) + r.choice(";:`{}<>&|"))
        r.shuffle(core)
        return "Q" + "".join(core) + "9"
    if style == "spaces":
        return " ".join(r.sample(PW_WORDS, 3)).capitalize() + " " + str(r.randint(100, 999))
    return rs(r, r.randint(28, 40), AN + "-_")


def pct(s: str) -> str:
    return urllib.parse.quote(s, safe="")


# ---------------------------------------------------------------- values, items and kinds


@dataclass
class Val:
    text: str
    kind: str
    secret: bool


@dataclass
class Item:
    name: str
    label: str
    parts: list[str | Val]

    @property
    def raw(self) -> str:
        return "".join(p if isinstance(p, str) else p.text for p in self.parts)


@dataclass
class Kind:
    name: str
    common: bool
    fmt: str
    labels: list[str]
    var: str
    gen: Callable[[random.Random], str | list[Item]]
    cat: str
    secret: bool


KINDS: list[Kind] = []
FMT: dict[str, tuple[bool, str]] = {}
LOOK_FMT: dict[str, str] = {}


def k(name: str, common: bool, fmt: str, labels: str | list[str], var: str, gen: Callable, cat: str = "tok") -> None:  # noqa: PLR0917
    KINDS.append(Kind(name, common, fmt, [labels] if isinstance(labels, str) else labels, var, gen, cat, True))
    FMT[name] = (common, fmt)


def extra(name: str, common: bool, fmt: str) -> None:
    FMT[name] = (common, fmt)


def look(name: str, what: str, labels: str | list[str], var: str, gen: Callable, cat: str = "tok") -> None:  # noqa: PLR0917
    KINDS.append(Kind(name, False, what, [labels] if isinstance(labels, str) else labels, var, gen, cat, False))
    LOOK_FMT[name] = what


def one(name: str, label: str, kind: str, value: str, secret: bool = True, pre: str = "", post: str = "") -> Item:  # noqa: PLR0917
    parts: list[str | Val] = [Val(value, kind, secret)]
    if pre:
        parts.insert(0, pre)
    if post:
        parts.append(post)
    return Item(name, label, parts)


def make_items(kind: Kind, r: random.Random) -> list[Item]:
    out = kind.gen(r)
    if isinstance(out, str):
        return [one(kind.var, r.choice(kind.labels), kind.name, out, kind.secret)]
    return out


C, U = True, False  # common / less common


def g_aws(r: random.Random) -> list[Item]:
    kid = "AKIA" + rs(r, 16, B32)
    sec = rs(r, 40, B64)
    return [
        one("AWS_ACCESS_KEY_ID", "AWS access key id", "aws_access_key_id", kid),
        one(
            "AWS_SECRET_ACCESS_KEY", r.choice(["AWS secret access key", "AWS secret key"]), "aws_secret_access_key", sec
        ),
    ]


def g_aws_sts(r: random.Random) -> list[Item]:
    return [
        one("AWS_ACCESS_KEY_ID", "temporary AWS key id", "aws_access_key_id", "ASIA" + rs(r, 16, B32)),
        one("AWS_SECRET_ACCESS_KEY", "temporary AWS secret", "aws_secret_access_key", rs(r, 40, B64)),
        one(
            "AWS_SESSION_TOKEN",
            "AWS session token",
            "aws_session_token",
            "IQoJb3JpZ2luX2VjE" + rs(r, r.randint(300, 380), B64) + "=",
        ),
    ]


def g_pair(  # noqa: PLR0917
    id_name: str,
    id_label: str,
    id_kind: str,
    id_gen: Callable,
    sec_name: str,
    sec_label: str,
    sec_kind: str,
    sec_gen: Callable,
) -> Callable:
    def gen(r: random.Random) -> list[Item]:
        items = [one(id_name, id_label, id_kind, id_gen(r), False), one(sec_name, sec_label, sec_kind, sec_gen(r))]
        if r.random() < 0.3:
            items.reverse()
        return items

    return gen


def g_pair_secret(  # noqa: PLR0917
    id_name: str,
    id_label: str,
    id_kind: str,
    id_gen: Callable,
    sec_name: str,
    sec_label: str,
    sec_kind: str,
    sec_gen: Callable,
) -> Callable:
    def gen(r: random.Random) -> list[Item]:
        return [one(id_name, id_label, id_kind, id_gen(r)), one(sec_name, sec_label, sec_kind, sec_gen(r))]

    return gen


def g_db(  # noqa: PLR0917
    kind: str, scheme: str, port: int, var: str, label: str, extra_forms: list[tuple[str, str, str, str]]
) -> Callable:
    def gen(r: random.Random) -> list[Item]:
        user = r.choice(["app", "svc_api", "admin", "report_ro", "etl", r.choice(NAMES)])
        host = r.choice(HOSTS)
        db = r.choice(PROJECTS).replace("-", "_")
        forms = ["url", *[f[0] for f in extra_forms]]
        form = r.choice(forms)
        if form == "url":
            pw = password(r)
            return [Item(var, label, [f"{scheme}://{user}:", Val(pct(pw), kind, True), f"@{host}:{port}/{db}"])]
        _, name, pre, post = next(f for f in extra_forms if f[0] == form)
        pw = password(r, "safe") if "{" not in pre else password(r)
        return [
            Item(
                name,
                label,
                [
                    pre.replace("{user}", user).replace("{host}", host).replace("{db}", db),
                    Val(pw, kind, True),
                    post.replace("{db}", db),
                ],
            )
        ]

    return gen


def rsa_gen(r: random.Random) -> str:
    return rsa_pem(rsa_key(r), r.random() < 0.5)


def g_gcp_sa(r: random.Random) -> list[Item]:
    proj = r.choice(PROJECTS) + "-" + str(r.randint(100000, 999999))
    key = rsa_pem(rsa_key(r), True).replace("\n", "\\n")
    return [
        Item(
            "GOOGLE_CREDENTIALS_JSON",
            "GCP service-account key file",
            [
                f'{{"type": "service_account", "project_id": "{proj}", "private_key_id": "',
                Val(rs(r, 40, HEX), "key_identifier", False),
                '", "private_key": "',
                Val(key, "gcp_service_account_key", True),
                f'\\n", "client_email": "deployer@{proj}.iam.gserviceaccount.com", "client_id": "{rs(r, 21, DG)}"}}',
            ],
        )
    ]


def g_openssh(r: random.Random) -> list[Item]:
    key, pub = openssh_private(r, f"{r.choice(NAMES)}@{r.choice(['laptop', 'build-01', 'bastion', 'nas'])}")
    items = [
        one(
            "SSH_PRIVATE_KEY",
            r.choice(["deploy SSH key", "SSH private key", "bastion key"]),
            "openssh_private_key",
            key,
        )
    ]
    if r.random() < 0.4:
        items.append(
            one("SSH_PUBLIC_KEY", "public half", "ssh_public_key", "ssh-ed25519 " + b64(ssh_ed25519_blob(pub)), False)
        )
    return items


def g_wireguard(r: random.Random) -> list[Item]:
    priv = clamp25519(rbytes(r, 32))
    items = [
        one("WG_PRIVATE_KEY", r.choice(["WireGuard private key", "wg0 PrivateKey"]), "wireguard_private_key", b64(priv))
    ]
    if r.random() < 0.6:
        items.append(one("WG_PUBLIC_KEY", "WireGuard public key", "wireguard_public_key", b64(x25519(priv)), False))
    return items


def g_age(r: random.Random) -> list[Item]:
    key = rbytes(r, 32)
    items = [
        one("AGE_SECRET_KEY", "age identity", "age_secret_key", bech32_encode("age-secret-key-", to5(key)).upper())
    ]
    if r.random() < 0.6:
        items.append(
            one("AGE_RECIPIENT", "age recipient", "age_recipient", bech32_encode("age", to5(x25519(key))), False)
        )
    return items


def g_azure_sp(r: random.Random) -> list[Item]:
    items = [
        one("AZURE_TENANT_ID", "tenant id", "tenant_id", uuid4(r), False),
        one("AZURE_CLIENT_ID", "app (client) id", "oauth_client_id", uuid4(r), False),
        one(
            "AZURE_CLIENT_SECRET",
            "Azure client secret",
            "azure_client_secret",
            rs(r, 3, AN) + rs(r, 1, DG) + "Q~" + rs(r, 34, AN + "_~.-"),
        ),
    ]
    return items[r.randint(0, 2) :] if r.random() < 0.5 else items


def g_sas(r: random.Random) -> list[Item]:
    acct = r.choice(PROJECTS).replace("-", "") + "store"
    sig = pct(b64(rbytes(r, 32)))
    return [
        Item(
            "AZURE_BLOB_SAS_URL",
            "SAS URL for the export container",
            [
                f"https://{acct}.blob.core.windows.net/exports?sv=2022-11-02&ss=b&srt=co&sp=rl&se=2026-01-31T00:00:00Z&spr=https&sig=",
                Val(sig, "azure_sas_signature", True),
            ],
        )
    ]


def g_azure_storage(r: random.Random) -> list[Item]:
    key = b64(rbytes(r, 64))
    if r.random() < 0.5:
        return [one("AZURE_STORAGE_KEY", "storage account key", "azure_storage_account_key", key)]
    acct = r.choice(PROJECTS).replace("-", "") + "data"
    return [
        Item(
            "AZURE_STORAGE_CONNECTION_STRING",
            "storage connection string",
            [
                f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey=",
                Val(key, "azure_storage_account_key", True),
                ";EndpointSuffix=core.windows.net",
            ],
        )
    ]


def g_servicebus(r: random.Random) -> list[Item]:
    ns = r.choice(PROJECTS) + "-bus"
    return [
        Item(
            "SERVICEBUS_CONNECTION",
            "Service Bus connection string",
            [
                f"Endpoint=sb://{ns}.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=",
                Val(b64(rbytes(r, 32)), "azure_service_bus_key", True),
            ],
        )
    ]


def g_slack_hook(r: random.Random) -> str:
    return f"https://hooks.slack.com/services/T{rs(r, 10, AUP)}/B{rs(r, 10, AUP)}/{rs(r, 24)}"


def g_discord_bot(r: random.Random) -> str:
    uid = str(r.randint(10**17, 10**18 * 2))
    return b64u(uid.encode()) + "." + rs(r, 6, B64U) + "." + rs(r, 38, B64U)


def g_twilio(r: random.Random) -> list[Item]:
    items = [
        one("TWILIO_ACCOUNT_SID", "account SID", "account_identifier", "AC" + rs(r, 32, HEX), False),
        one("TWILIO_AUTH_TOKEN", "Twilio auth token", "twilio_auth_token", rs(r, 32, HEX)),
    ]
    return items if r.random() < 0.6 else items[1:]


def g_twilio_key(r: random.Random) -> list[Item]:
    return [
        one("TWILIO_API_KEY_SID", "API key SID", "account_identifier", "SK" + rs(r, 32, HEX), False),
        one("TWILIO_API_KEY_SECRET", "Twilio API key secret", "twilio_api_key_secret", rs(r, 32)),
    ]


def g_mapbox_secret(r: random.Random) -> str:
    return (
        "sk."
        + b64u(json.dumps({"u": r.choice(NAMES) + "-maps", "a": rs(r, 25, ALO)}, separators=(",", ":")).encode())
        + "."
        + rs(r, 22, B64U)
    )


def g_user_jwt(r: random.Random) -> str:
    now = 1_740_000_000 + r.randrange(30_000_000)
    payload = {
        "sub": str(r.randint(1000, 99999)),
        "email": f"{r.choice(NAMES)}@{r.choice(DOMAINS)}",
        "role": r.choice(["admin", "user", "ops"]),
        "iat": now,
        "exp": now + 3600 * r.choice([1, 8, 24, 720]),
    }
    return jwt_hs256(payload, rbytes(r, 32))


def g_supabase_sr(r: random.Random) -> str:
    if r.random() < 0.3:
        return "sb_secret_" + rs(r, 32, B64U)
    now = 1_700_000_000 + r.randrange(40_000_000)
    return jwt_hs256(
        {"iss": "supabase", "ref": rs(r, 20, LO), "role": "service_role", "iat": now, "exp": now + 315_360_000},
        rbytes(r, 32),
    )


K8S_SIGNERS: list[RSAKey] = []


def g_k8s_sa(r: random.Random) -> str:
    if len(K8S_SIGNERS) < 2:
        K8S_SIGNERS.append(rsa_key(r))
    key = r.choice(K8S_SIGNERS)
    now = 1_735_000_000 + r.randrange(20_000_000)
    ns = r.choice(["default", "ci", "monitoring", "payments"])
    sa = r.choice(["deployer", "argocd", "prometheus", "ci-bot"])
    payload = {
        "aud": ["https://kubernetes.default.svc.cluster.local"],
        "exp": now + 31_536_000,
        "iat": now,
        "iss": "https://kubernetes.default.svc.cluster.local",
        "kubernetes.io": {"namespace": ns, "serviceaccount": {"name": sa, "uid": uuid4(r)}},
        "nbf": now,
        "sub": f"system:serviceaccount:{ns}:{sa}",
    }
    kid = b64u(hashlib.sha256(str(key.n).encode()).digest())
    si = jwt_compact({"alg": "RS256", "kid": kid}, payload)
    return si + "." + b64u(rsa_sign_sha256(key, si.encode()))


def g_home_assistant(r: random.Random) -> str:
    now = 1_700_000_000 + r.randrange(50_000_000)
    return jwt_hs256({"iss": rs(r, 32, HEX), "iat": now, "exp": now + 315_360_000}, rbytes(r, 32))


def g_basic(r: random.Random) -> list[Item]:
    cred = b64(f"{r.choice(NAMES)}:{password(r, r.choice(['random', 'safe', 'leet']))}".encode())
    return [
        Item(
            "AUTH_HEADER",
            r.choice(["basic auth header", "Authorization header for the legacy API"]),
            ["Basic ", Val(cred, "basic_auth_credentials", True)],
        )
    ]


def g_bearer(r: random.Random) -> list[Item]:
    tok = r.choice([rs(r, 40, B64U), rs(r, 64, HEX), "at_" + rs(r, 48), rs(r, 32, AN) + "." + rs(r, 27, B64U)])
    label = r.choice(["access token", "API bearer token", "service token", "OAuth access token"])
    if r.random() < 0.5:
        return [Item("AUTHORIZATION", label, ["Bearer ", Val(tok, "bearer_token", True)])]
    return [one("ACCESS_TOKEN", label, "bearer_token", tok)]


def g_cookie(r: random.Random) -> list[Item]:
    name, val = r.choice(
        [
            ("sessionid", rs(r, 32, ALO)),
            ("connect.sid", "s%3A" + rs(r, 32, B64U) + "." + rs(r, 43, B64)),
            ("_session_id", rs(r, 32, HEX)),
            ("laravel_session", "eyJpdiI6" + rs(r, 180, AN)),
            ("PHPSESSID", rs(r, 26, ALO)),
            (
                "__Secure-next-auth.session-token",
                "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0.."
                + rs(r, 22, B64U)
                + "."
                + rs(r, 120, B64U)
                + "."
                + rs(r, 22, B64U),
            ),
        ]
    )
    return [
        Item(
            "SESSION_COOKIE",
            r.choice(["session cookie", "logged-in cookie", "browser session cookie"]),
            [f"{name}=", Val(val, "session_cookie", True)],
        )
    ]


def g_docker_auth(r: random.Random) -> list[Item]:
    auth = b64(f"{r.choice(NAMES)}:{password(r, 'safe')}".encode())
    reg = r.choice(["ghcr.io", "registry.gitlab.com", "https://index.docker.io/v1/", "harbor.internal:8443"])
    return [
        Item(
            "DOCKER_CONFIG_JSON",
            "docker config",
            [f'{{"auths": {{"{reg}": {{"auth": "', Val(auth, "docker_config_auth", True), '"}}}'],
        )
    ]


def g_totp(r: random.Random) -> list[Item]:
    seed = rs(r, r.choice([16, 32]), B32)
    if r.random() < 0.5:
        return [one("TOTP_SECRET", r.choice(["2FA seed", "TOTP secret", "authenticator setup key"]), "totp_seed", seed)]
    issuer = r.choice(["GitHub", "AWS", "Proton", "Cloudflare", "Okta"])
    return [
        Item(
            "OTPAUTH_URI",
            "otpauth URI",
            [f"otpauth://totp/{issuer}:{r.choice(NAMES)}?secret=", Val(seed, "totp_seed", True), f"&issuer={issuer}"],
        )
    ]


def g_recovery(r: random.Random) -> list[Item]:
    style = r.choice(["hex", "dash", "digits"])
    n = r.choice([6, 8, 10])
    codes = []
    for _ in range(n):
        codes.append(
            {
                "hex": rs(r, 5, HEX) + "-" + rs(r, 5, HEX),
                "dash": rs(r, 4, ALO) + "-" + rs(r, 4, ALO),
                "digits": rs(r, 8, DG),
            }[style]
        )
    sep = r.choice([" ", ", ", "  "])
    parts: list[str | Val] = []
    for i, c in enumerate(codes):
        if i:
            parts.append(sep)
        parts.append(Val(c, "recovery_code", True))
    return [Item("RECOVERY_CODES", r.choice(["2FA recovery codes", "backup codes", "GitHub recovery codes"]), parts)]


def g_wifi(r: random.Random) -> list[Item]:
    pw = password(r, r.choice(["passphrase", "pron", "safe", "spaces"]))
    if r.random() < 0.3:
        ssid = r.choice(["HomeNet", "Casa-5G", "FRITZ!Box 7590 XY", "Vodafone-3B1C"])
        return [
            Item(
                "WIFI_QR",
                "Wi-Fi QR payload",
                [f"WIFI:T:WPA;S:{ssid};P:", Val(pw.replace(" ", ""), "wifi_password", True), ";;"],
            )
        ]
    return [
        one(
            "WIFI_PASSWORD",
            r.choice(["Wi-Fi password", "WPA2 passphrase", "guest Wi-Fi password"]),
            "wifi_password",
            pw,
        )
    ]


def g_bitlocker(r: random.Random) -> str:
    return "-".join(f"{11 * r.randrange(65536):06d}" for _ in range(8))


def g_nats(r: random.Random) -> str:
    raw = bytes([149, 0]) + rbytes(r, 32)
    raw += crc16_xmodem(raw).to_bytes(2, "little")
    return base64.b32encode(raw).decode().rstrip("=")


def g_wif(r: random.Random) -> str:
    return b58check(b"\x80" + rbytes(r, 32) + b"\x01")


def g_license(r: random.Random) -> str:
    return r.choice(
        [
            "-".join(rs(r, 5, "BCDFGHJKMPQRTVWXY2346789") for _ in range(5)),
            "-".join(rs(r, 4, HEXU) for _ in range(6)),
            "LK-" + rs(r, 6, AUP) + "-" + rs(r, 6, AUP) + "-" + rs(r, 6, AUP),
        ]
    )


def g_onepassword(r: random.Random) -> str:
    body = {
        "signInAddress": "my.1password.com",
        "userAuth": {"method": "SRPg-4096", "alg": "PBES2g-HS256", "iterations": 650000, "salt": rs(r, 22, B64U)},
        "email": f"{rs(r, 13, ALO)}@1passwordserviceaccounts.com",
        "srpX": rs(r, 64, HEX),
        "muk": {
            "alg": "A256GCM",
            "ext": True,
            "k": rs(r, 43, B64U),
            "key_ops": ["encrypt", "decrypt"],
            "kty": "oct",
            "kid": "mp",
        },
        "secretKey": "A3-" + rs(r, 6, AUP) + "-" + rs(r, 6, AUP),
        "throttleSecret": {"seed": rs(r, 64, HEX), "deviceUuid": rs(r, 26, ALO)},
        "deviceUuid": rs(r, 26, ALO),
    }
    return "ops_" + b64u(json.dumps(body, separators=(",", ":")).encode())


def g_intercom(r: random.Random) -> str:
    u = uuid4(r).replace("-", "_")
    return b64(f"tok:{u}:1:0".encode())


def g_elastic(r: random.Random) -> str:
    return b64(f"{rs(r, 20, B64U)}:{rs(r, 22, B64U)}".encode())


def g_cisco(r: random.Random) -> list[Item]:
    enc = cisco7(r, password(r, "safe")[:14])
    return [
        Item(
            "CISCO_LINE",
            "type 7 password",
            [f"username {r.choice(NAMES)} password 7 ", Val(enc, "cisco_type7_password", True)],
        )
    ]


def g_security_answer(r: random.Random) -> list[Item]:
    q, a = r.choice(
        [
            ("mother's maiden name", r.choice(SURNAMES)),
            ("first pet's name", r.choice(["Biscuit", "Mr Whiskers", "Pixel", "Bruno", "Nala", "Captain Fluff"])),
            (
                "city where my parents met",
                r.choice(["Ljubljana", "Porto Alegre", "Tromsø", "Kalamazoo", "Aix-en-Provence"]),
            ),
            ("favourite teacher", "Ms " + r.choice(SURNAMES)),
            ("memorable word", r.choice(PW_WORDS).capitalize() + r.choice(PW_WORDS)),
        ]
    )
    return [
        one(
            "SECURITY_ANSWER",
            f"security answer ({q})",
            "security_question_answer",
            a + rs(r, 2, DG) if r.random() < 0.3 else a,
        )
    ]


def g_personal(r: random.Random) -> list[Item]:
    svc = r.choice(
        [
            "online banking",
            "Netflix",
            "health insurance portal",
            "electricity account",
            "PayPal",
            "tax office login",
            "Amazon",
            "Spotify family",
            "car lease portal",
            "pension fund",
        ]
    )
    return [one("ACCOUNT_PASSWORD", f"{svc} password", "personal_account_password", password(r))]


def g_pin(kind: str, labels: list[str], n: tuple[int, int]) -> Callable:
    def gen(r: random.Random) -> list[Item]:
        return [one("PIN", r.choice(labels), kind, rs(r, 1, "123456789") + rs(r, r.randint(*n) - 1, DG))]

    return gen


def g_ldap(r: random.Random) -> list[Item]:
    pw = password(r)
    return [
        one(
            "LDAP_BIND_PASSWORD",
            r.choice(["LDAP bind password", "AD service account password"]),
            "ldap_bind_password",
            pw,
        )
    ]


def g_eth(r: random.Random) -> str:
    return ("0x" if r.random() < 0.5 else "") + f"{r.randrange(1, 2**256 - 2**128):064x}"


def g_generic_api(r: random.Random) -> list[Item]:
    svc = r.choice(
        [
            "billing service",
            "geocoding vendor",
            "partner portal",
            "SMS gateway",
            "internal search API",
            "weather API",
            "license server",
            "fraud-scoring API",
            "CRM",
            "translation API",
            "shipping rates API",
            "feature store",
        ]
    )
    word = r.choice(["API key", "API token", "access key", "integration key", "client key", "app key"])
    val = r.choice(
        [
            rs(r, 32, HEX),
            rs(r, 40, AN),
            rs(r, 24, AN) + "-" + rs(r, 12, AN),
            rs(r, 48, B64U),
            uuid4(r),
            "k_" + rs(r, 36, ALO),
        ]
    )
    return [one("SERVICE_API_KEY", f"{word} for the {svc}", "generic_api_key", val)]


def g_generic_secret(r: random.Random) -> list[Item]:
    word = r.choice(
        [
            "shared secret",
            "signing token",
            "internal token",
            "service secret",
            "client secret",
            "machine token",
            "sync token",
            "admin token",
        ]
    )
    val = r.choice([rs(r, 40, B64U), rs(r, 64, HEX), b64(rbytes(r, 33)), rs(r, 20, AN) + "." + rs(r, 20, AN)])
    return [one("SECRET_TOKEN", f"{word} of the {r.choice(PROJECTS)} service", "generic_secret_token", val)]


def g_app_secret(r: random.Random) -> list[Item]:
    name, label, val = r.choice(
        [
            (
                "DJANGO_SECRET_KEY",
                "Django SECRET_KEY",
                "django-insecure-" + rs(r, 50, LO + DG + "!@#%^&*(-_=+)")
                if r.random() < 0.3
                else rs(r, 50, LO + DG + "!@#%^&*(-_=+)"),
            ),
            ("SECRET_KEY_BASE", "Rails secret_key_base", rs(r, 128, HEX)),
            ("APP_KEY", "Laravel APP_KEY", "base64:" + b64(rbytes(r, 32))),
            ("FLASK_SECRET_KEY", "Flask secret key", rs(r, 64, HEX)),
            ("NEXTAUTH_SECRET", "NextAuth secret", b64(rbytes(r, 32))),
        ]
    )
    return [one(name, label, "app_secret_key", val)]


def g_enc_key(r: random.Random) -> list[Item]:
    label = r.choice(
        [
            "AES-256 data key",
            "field encryption key",
            "backup encryption key",
            "master key for the token vault",
            "cookie encryption key",
        ]
    )
    return [
        one(
            "ENCRYPTION_KEY",
            label,
            "encryption_key",
            r.choice([b64(rbytes(r, 32)), rs(r, 64, HEX), "base64:" + b64(rbytes(r, 32))]),
        )
    ]


def g_webhook_secret(r: random.Random) -> list[Item]:
    label = r.choice(
        [
            "GitHub webhook secret",
            "Shopify webhook signing secret",
            "HMAC secret for incoming webhooks",
            "payment webhook signing key",
        ]
    )
    return [
        one(
            "WEBHOOK_SECRET",
            label,
            "webhook_signing_secret",
            r.choice([rs(r, 40, HEX), rs(r, 32, AN), b64(rbytes(r, 24))]),
        )
    ]


def g_oauth_secret(r: random.Random) -> list[Item]:
    items = [
        one(
            "OAUTH_CLIENT_ID",
            "OAuth client id",
            "oauth_client_id",
            r.choice([rs(r, 20, AN), "Iv1." + rs(r, 16, HEX), uuid4(r)]),
            False,
        ),
        one(
            "OAUTH_CLIENT_SECRET",
            r.choice(["OAuth client secret", "SSO client secret", "app secret"]),
            "oauth_client_secret",
            r.choice([rs(r, 40, HEX), rs(r, 48, B64U)]),
        ),
    ]
    return items if r.random() < 0.6 else items[1:]


def g_jwt_secret(r: random.Random) -> list[Item]:
    return [
        one(
            "JWT_SECRET",
            r.choice(["JWT signing secret", "HS256 secret for the auth service", "token signing key"]),
            "jwt_signing_secret",
            r.choice([rs(r, 48, AN), b64(rbytes(r, 48)), rs(r, 64, HEX)]),
        )
    ]


def g_generic_pw(r: random.Random) -> list[Item]:
    label = r.choice(
        [
            "password",
            "admin password",
            "root password",
            "service account password",
            "login password",
            "default password for the new hires",
            "Jenkins admin password",
            "Grafana admin password",
            "Keycloak admin password",
            "database password",
            "VPN password",
            "SFTP password",
        ]
    )
    return [
        one(
            r.choice(["PASSWORD", "ADMIN_PASSWORD", "DB_PASSWORD", "SERVICE_PASSWORD"]),
            label,
            "generic_password",
            password(r),
        )
    ]


def g_url_cred(r: random.Random) -> list[Item]:
    user = r.choice(NAMES)
    host, kind = r.choice(
        [
            ("https://{u}:{p}@git.internal.example.com/team/repo.git", "git remote"),
            ("http://{u}:{p}@proxy.corp.lan:3128", "proxy URL"),
            ("ftp://{u}:{p}@ftp.vendor.net/outbound", "FTP URL"),
            ("sftp://{u}:{p}@files.partner.io:22/in", "SFTP URL"),
            ("https://{u}:{p}@nexus.build.lan/repository/pypi/simple", "package index URL"),
        ]
    )
    pre, post = host.split("{p}")
    return [
        Item(
            "REMOTE_URL", kind, [pre.replace("{u}", user), Val(pct(password(r)), "url_credential_password", True), post]
        )
    ]


# ---------------------------------------------------------------- secret kinds (generator kinds; companions via extra())

k(
    "aws_secret_access_key",
    C,
    "40 characters `[A-Za-z0-9+/]`, always with its `AKIA` key id",
    "AWS secret access key",
    "AWS_SECRET_ACCESS_KEY",
    g_aws,
)
extra("aws_access_key_id", C, "`AKIA` / `ASIA` + 16 base32 (labelled: travels with its secret)")
k(
    "aws_session_token",
    C,
    "STS session token `IQoJb3JpZ2luX2Vj...` with its `ASIA` id and secret",
    "AWS session token",
    "AWS_SESSION_TOKEN",
    g_aws_sts,
)
k(
    "github_classic_pat",
    C,
    "`ghp_` + 30 base62 + 6-character base62 CRC32",
    ["GitHub token", "GitHub PAT"],
    "GITHUB_TOKEN",
    lambda r: gh_token(r, "ghp_"),
)
k(
    "github_oauth_token",
    C,
    "`gho_` + 30 base62 + CRC32",
    "GitHub OAuth token",
    "GH_OAUTH_TOKEN",
    lambda r: gh_token(r, "gho_"),
)
k(
    "github_app_token",
    C,
    "`ghs_` / `ghu_` + 30 base62 + CRC32",
    "GitHub App installation token",
    "GH_APP_TOKEN",
    lambda r: gh_token(r, r.choice(["ghs_", "ghu_"])),
)
k(
    "github_refresh_token",
    C,
    "`ghr_` + 30 base62 + CRC32",
    "GitHub refresh token",
    "GH_REFRESH_TOKEN",
    lambda r: gh_token(r, "ghr_"),
)
k(
    "github_fine_grained_pat",
    C,
    "`github_pat_11` + 22 + `_` + 59",
    "fine-grained GitHub token",
    "GITHUB_PAT",
    T("github_pat_11", (20, AUP), "_", (59, AN)),
)
k(
    "gitlab_pat",
    C,
    "`glpat-` + 20",
    ["GitLab token", "GitLab personal access token"],
    "GITLAB_TOKEN",
    T("glpat-", (20, B64U)),
)
k(
    "gitlab_runner_token",
    C,
    "`glrt-` + 20 (or `t1_` form)",
    "GitLab runner token",
    "RUNNER_TOKEN",
    T("glrt-", (20, B64U)),
)
k("gitlab_deploy_token", C, "`gldt-` + 20", "GitLab deploy token", "GITLAB_DEPLOY_TOKEN", T("gldt-", (20, B64U)))
k("gitlab_trigger_token", C, "`glptt-` + 40 hex", "pipeline trigger token", "TRIGGER_TOKEN", T("glptt-", (40, HEX)))
k(
    "slack_bot_token",
    C,
    "`xoxb-` + team digits + bot digits + 24",
    "Slack bot token",
    "SLACK_BOT_TOKEN",
    lambda r: f"xoxb-{rs(r, 12, DG)}-{rs(r, 13, DG)}-{rs(r, 24)}",
)
k(
    "slack_user_token",
    C,
    "`xoxp-` + digits + 32 hex",
    "Slack user token",
    "SLACK_USER_TOKEN",
    lambda r: f"xoxp-{rs(r, 12, DG)}-{rs(r, 12, DG)}-{rs(r, 13, DG)}-{rs(r, 32, HEX)}",
)
k(
    "slack_app_token",
    C,
    "`xapp-1-A` + id + digits + 64 hex",
    "Slack app-level token",
    "SLACK_APP_TOKEN",
    lambda r: f"xapp-1-A{rs(r, 10, AUP)}-{rs(r, 13, DG)}-{rs(r, 64, HEX)}",
)
k(
    "slack_webhook_url",
    C,
    "whole `hooks.slack.com/services/T/B/24` URL",
    "Slack webhook",
    "SLACK_WEBHOOK_URL",
    g_slack_hook,
)
k("discord_bot_token", C, "base64 user id + `.` + 6 + `.` + 38", "Discord bot token", "DISCORD_TOKEN", g_discord_bot)
k(
    "discord_webhook_url",
    C,
    "whole `discord.com/api/webhooks/<id>/<68>` URL",
    "Discord webhook",
    "DISCORD_WEBHOOK",
    lambda r: f"https://discord.com/api/webhooks/{rs(r, 19, DG)}/{rs(r, 68, B64U)}",
)
k(
    "telegram_bot_token",
    C,
    "bot id + `:AA` + 33",
    "Telegram bot token",
    "TELEGRAM_BOT_TOKEN",
    lambda r: f"{r.randint(10**8, 8 * 10**9)}:AA{rs(r, 33, B64U)}",
)
k(
    "stripe_secret_key",
    C,
    "`sk_live_` + 24, or `sk_live_51` + 97",
    "Stripe secret key",
    "STRIPE_SECRET_KEY",
    lambda r: "sk_live_" + (rs(r, 24) if r.random() < 0.4 else "51" + rs(r, 97)),
)
k(
    "stripe_restricted_key",
    C,
    "`rk_live_51` + 97",
    "Stripe restricted key",
    "STRIPE_RESTRICTED_KEY",
    T("rk_live_51", (97, AN)),
)
k(
    "stripe_webhook_secret",
    C,
    "`whsec_` + 32",
    "Stripe webhook signing secret",
    "STRIPE_WEBHOOK_SECRET",
    T("whsec_", (32, AN)),
)
k(
    "openai_api_key",
    C,
    "`sk-proj-` / `sk-svcacct-` + 74 + `T3BlbkFJ` + 74",
    "OpenAI API key",
    "OPENAI_API_KEY",
    lambda r: r.choice(["sk-proj-", "sk-svcacct-"]) + rs(r, 74, B64U) + "T3BlbkFJ" + rs(r, 74, B64U),
)
k(
    "openai_admin_key",
    C,
    "`sk-admin-` + 74 + `T3BlbkFJ` + 74",
    "OpenAI admin key",
    "OPENAI_ADMIN_KEY",
    T("sk-admin-", (74, B64U), "T3BlbkFJ", (74, B64U)),
)
k(
    "anthropic_api_key",
    C,
    "`sk-ant-api03-` + 93 + `AA`",
    ["Anthropic API key", "Claude API key"],
    "ANTHROPIC_API_KEY",
    T("sk-ant-api03-", (93, B64U), "AA"),
)
k(
    "anthropic_admin_key",
    C,
    "`sk-ant-admin01-` + 93 + `AA`",
    "Anthropic admin key",
    "ANTHROPIC_ADMIN_KEY",
    T("sk-ant-admin01-", (93, B64U), "AA"),
)
k(
    "google_api_key",
    C,
    "`AIza` + 35 (server-side Maps / Gemini keys)",
    ["Google API key", "Gemini API key", "Maps server key"],
    "GOOGLE_API_KEY",
    T("AIza", (35, B64U)),
)
k(
    "google_oauth_client_secret",
    C,
    "`GOCSPX-` + 28",
    "Google OAuth client secret",
    "GOOGLE_CLIENT_SECRET",
    T("GOCSPX-", (28, B64U)),
)
k(
    "google_refresh_token",
    C,
    "`1//0` + 99",
    "Google refresh token",
    "GOOGLE_REFRESH_TOKEN",
    T("1//0", (1, "ghi"), (98, B64U)),
)
k(
    "gcp_service_account_key",
    C,
    "RSA PKCS #8 `private_key` (with `\\n` escapes) inside a service-account JSON; `private_key_id` is a look-alike",
    "GCP service-account key",
    "GOOGLE_CREDENTIALS",
    g_gcp_sa,
)
k(
    "azure_storage_account_key",
    C,
    "88-character base64 account key (alone or `AccountKey=`)",
    "storage account key",
    "AZURE_STORAGE_KEY",
    g_azure_storage,
)
k(
    "azure_client_secret",
    C,
    "3 + digit + `Q~` + 34 (tenant and client ids are look-alikes)",
    "Azure client secret",
    "AZURE_CLIENT_SECRET",
    g_azure_sp,
)
k("azure_sas_signature", C, "percent-encoded `sig=` of a SAS URL", "SAS token", "AZURE_SAS_URL", g_sas)
k(
    "azure_devops_pat",
    C,
    "52 characters `[a-z2-7]`",
    "Azure DevOps PAT",
    "AZURE_DEVOPS_PAT",
    T((52, "abcdefghijklmnopqrstuvwxyz234567")),
)
k(
    "azure_openai_api_key",
    C,
    "32 hex (name or `api-key` header)",
    "Azure OpenAI key",
    "AZURE_OPENAI_API_KEY",
    T((32, HEX)),
)
k(
    "azure_service_bus_key",
    C,
    "44-character `SharedAccessKey=` in a connection string",
    "Service Bus key",
    "SERVICEBUS_CONNECTION",
    g_servicebus,
)
k(
    "npm_token",
    C,
    "`npm_` + 30 base62 + CRC32",
    ["npm token", "npm publish token"],
    "NPM_TOKEN",
    lambda r: gh_token(r, "npm_"),
)
k(
    "pypi_token",
    C,
    "`pypi-` + v2 macaroon (location `pypi.org`, HMAC-SHA-256 chain)",
    "PyPI upload token",
    "PYPI_TOKEN",
    pypi_token,
)
k("dockerhub_pat", C, "`dckr_pat_` + 27", "Docker Hub access token", "DOCKERHUB_TOKEN", T("dckr_pat_", (27, B64U)))
k("huggingface_token", C, "`hf_` + 34 letters", "Hugging Face token", "HF_TOKEN", T("hf_", (34, UP + LO)))
k(
    "sendgrid_api_key",
    C,
    "`SG.` + 22 + `.` + 43",
    "SendGrid API key",
    "SENDGRID_API_KEY",
    T("SG.", (22, B64U), ".", (43, B64U)),
)
k(
    "mailgun_api_key",
    C,
    "`key-` + 32 hex, or 32 hex-8-8",
    "Mailgun API key",
    "MAILGUN_API_KEY",
    lambda r: "key-" + rs(r, 32, HEX) if r.random() < 0.5 else f"{rs(r, 32, HEX)}-{rs(r, 8, HEX)}-{rs(r, 8, HEX)}",
)
k(
    "mailchimp_api_key",
    C,
    "32 hex + `-us` + datacenter",
    "Mailchimp API key",
    "MAILCHIMP_API_KEY",
    lambda r: rs(r, 32, HEX) + f"-us{r.randint(1, 21)}",
)
k("twilio_auth_token", C, "32 hex (the `AC` SID is a look-alike)", "Twilio auth token", "TWILIO_AUTH_TOKEN", g_twilio)
k(
    "twilio_api_key_secret",
    C,
    "32 alphanumerics (the `SK` SID is a look-alike)",
    "Twilio API key secret",
    "TWILIO_API_SECRET",
    g_twilio_key,
)
k(
    "shopify_access_token",
    C,
    "`shpat_` / `shpca_` / `shppa_` + 32 hex",
    "Shopify Admin API token",
    "SHOPIFY_ACCESS_TOKEN",
    lambda r: r.choice(["shpat_", "shpca_", "shppa_"]) + rs(r, 32, HEX),
)
k(
    "shopify_shared_secret",
    C,
    "`shpss_` + 32 hex",
    "Shopify app shared secret",
    "SHOPIFY_API_SECRET",
    T("shpss_", (32, HEX)),
)
k(
    "atlassian_api_token",
    C,
    "`ATATT3xFfGF0` + 171 + `=` + 8 hex",
    ["Jira API token", "Confluence API token"],
    "JIRA_API_TOKEN",
    T("ATATT3xFfGF0", (171, B64U), "=", (8, HEXU)),
)
k(
    "bitbucket_app_password",
    C,
    "`ATBB` + 32 + 8 hex",
    "Bitbucket app password",
    "BITBUCKET_APP_PASSWORD",
    T("ATBB", (32, AN), (8, HEXU)),
)
k("digitalocean_pat", C, "`dop_v1_` + 64 hex", "DigitalOcean token", "DIGITALOCEAN_TOKEN", T("dop_v1_", (64, HEX)))
k(
    "digitalocean_oauth_token",
    C,
    "`doo_v1_` + 64 hex",
    "DigitalOcean OAuth token",
    "DO_OAUTH_TOKEN",
    T("doo_v1_", (64, HEX)),
)
k("heroku_api_key", C, "`HRKU-AA` + 58", "Heroku API key", "HEROKU_API_KEY", T("HRKU-AA", (58, B64U)))
k("netlify_token", C, "`nfp_` + 40", "Netlify personal token", "NETLIFY_AUTH_TOKEN", T("nfp_", (40, AN)))
k("vercel_token", C, "24 alphanumerics (name only)", "Vercel token", "VERCEL_TOKEN", T((24, AN)))
k(
    "cloudflare_api_token",
    C,
    "40 characters `[A-Za-z0-9_-]`",
    "Cloudflare API token",
    "CLOUDFLARE_API_TOKEN",
    T((40, B64U)),
)
k("cloudflare_global_api_key", C, "37 hex", "Cloudflare global API key", "CF_API_KEY", T((37, HEX)))
k("datadog_api_key", C, "32 hex", "Datadog API key", "DD_API_KEY", T((32, HEX)))
k("datadog_app_key", C, "40 hex", "Datadog application key", "DD_APP_KEY", T((40, HEX)))
k("new_relic_user_key", C, "`NRAK-` + 27", "New Relic user key", "NEW_RELIC_API_KEY", T("NRAK-", (27, AUP)))
k("new_relic_license_key", C, "36 hex + `NRAL`", "New Relic license key", "NEW_RELIC_LICENSE_KEY", T((36, HEX), "NRAL"))
k("sentry_auth_token", C, "`sntryu_` + 64 hex", "Sentry auth token", "SENTRY_AUTH_TOKEN", T("sntryu_", (64, HEX)))
k("linear_api_key", C, "`lin_api_` + 40", "Linear API key", "LINEAR_API_KEY", T("lin_api_", (40, AN)))
k(
    "notion_token",
    C,
    "`ntn_` + 46 (or `secret_` + 43)",
    "Notion integration token",
    "NOTION_TOKEN",
    lambda r: "ntn_" + rs(r, 46) if r.random() < 0.6 else "secret_" + rs(r, 43),
)
k(
    "airtable_pat",
    C,
    "`pat` + 14 + `.` + 64 hex",
    "Airtable token",
    "AIRTABLE_TOKEN",
    T("pat", (14, AN), ".", (64, HEX)),
)
k("figma_pat", C, "`figd_` + 40", "Figma token", "FIGMA_TOKEN", T("figd_", (40, B64U)))
k(
    "postman_api_key",
    C,
    "`PMAK-` + 24 hex + `-` + 34 hex",
    "Postman API key",
    "POSTMAN_API_KEY",
    T("PMAK-", (24, HEX), "-", (34, HEX)),
)
k(
    "doppler_token",
    C,
    "`dp.st.` / `dp.pt.` + 40-43",
    "Doppler token",
    "DOPPLER_TOKEN",
    lambda r: r.choice(["dp.st.prd.", "dp.st.dev.", "dp.pt."]) + rs(r, 43 if r.random() < 0.5 else 40),
)
k(
    "vault_token",
    C,
    "`hvs.` + 24, or `hvs.CAESI` + 86",
    "Vault token",
    "VAULT_TOKEN",
    lambda r: "hvs." + (rs(r, 24) if r.random() < 0.5 else "CAESI" + rs(r, 86, B64U)),
)
k(
    "terraform_cloud_token",
    C,
    "14 + `.atlasv1.` + 67",
    "Terraform Cloud token",
    "TFE_TOKEN",
    T((14, AN), ".atlasv1.", (67, AN)),
)
k("pulumi_access_token", C, "`pul-` + 40 hex", "Pulumi access token", "PULUMI_ACCESS_TOKEN", T("pul-", (40, HEX)))
k("snyk_token", C, "UUID (name only)", "Snyk token", "SNYK_TOKEN", uuid4)
k(
    "sonarqube_token",
    C,
    "`squ_` / `sqp_` / `sqa_` + 40 hex",
    "SonarQube token",
    "SONAR_TOKEN",
    lambda r: r.choice(["squ_", "sqp_", "sqa_"]) + rs(r, 40, HEX),
)
k(
    "circleci_token",
    C,
    "`CCIPAT_` + 22 + `_` + 40 hex",
    "CircleCI token",
    "CIRCLE_TOKEN",
    T("CCIPAT_", (22, AN), "_", (40, HEX)),
)
k(
    "fcm_server_key",
    C,
    "`AAAA` + 7 + `:APA91b` + 134",
    "FCM server key",
    "FCM_SERVER_KEY",
    T("AAAA", (7, B64U), ":APA91b", (134, B64U)),
)
k(
    "mapbox_secret_token",
    C,
    "`sk.` + base64url JSON + `.` + 22",
    "Mapbox secret token",
    "MAPBOX_SECRET_TOKEN",
    g_mapbox_secret,
)
k(
    "algolia_admin_key",
    C,
    "32 hex admin key (the app id is a look-alike)",
    "Algolia admin key",
    "ALGOLIA_ADMIN_KEY",
    g_pair(
        "ALGOLIA_APP_ID",
        "Algolia app id",
        "account_identifier",
        T((10, AUP)),
        "ALGOLIA_ADMIN_KEY",
        "Algolia admin API key",
        "algolia_admin_key",
        T((32, HEX)),
    ),
)
k("okta_api_token", C, "`00` + 40", "Okta API token", "OKTA_API_TOKEN", T("00", (40, B64U)))
k("auth0_client_secret", C, "64 characters (name only)", "Auth0 client secret", "AUTH0_CLIENT_SECRET", T((64, B64U)))
k(
    "jwt_access_token",
    C,
    "HS256 JWT with a real signature (user session / API token)",
    ["JWT", "access token (JWT)", "id token"],
    "JWT",
    g_user_jwt,
)
k(
    "jwt_signing_secret",
    C,
    "HS256 signing secrets (48 characters, base64, hex)",
    "JWT signing secret",
    "JWT_SECRET",
    g_jwt_secret,
)
k(
    "supabase_service_role_key",
    C,
    "HS256 JWT with `role: service_role`, or `sb_secret_` + 32",
    "Supabase service role key",
    "SUPABASE_SERVICE_ROLE_KEY",
    g_supabase_sr,
)
k("supabase_access_token", C, "`sbp_` + 40 hex", "Supabase access token", "SUPABASE_ACCESS_TOKEN", T("sbp_", (40, HEX)))
k(
    "planetscale_password",
    C,
    "`pscale_pw_` + 43",
    "PlanetScale password",
    "PLANETSCALE_PASSWORD",
    T("pscale_pw_", (43, B64U)),
)
k(
    "postgres_password",
    C,
    "password in `postgres://` URLs, libpq strings, JDBC, `PGPASSWORD`",
    "Postgres credentials",
    "DATABASE_URL",
    g_db(
        "postgres_password",
        "postgres",
        5432,
        "DATABASE_URL",
        "Postgres URL",
        [
            ("libpq", "PG_DSN", "host={host} port=5432 dbname={db} user={user} password=", " sslmode=require"),
            ("jdbc", "JDBC_URL", "jdbc:postgresql://{host}:5432/{db}?user={user}&password=", "&ssl=true"),
            ("env", "PGPASSWORD", "", ""),
        ],
    ),
)
k(
    "mysql_password",
    C,
    "password in `mysql://` URLs, `MYSQL_PWD`, JDBC",
    "MySQL credentials",
    "MYSQL_URL",
    g_db(
        "mysql_password",
        "mysql",
        3306,
        "MYSQL_URL",
        "MySQL URL",
        [
            ("env", "MYSQL_ROOT_PASSWORD", "", ""),
            ("jdbc", "JDBC_URL", "jdbc:mysql://{host}:3306/{db}?user={user}&password=", ""),
        ],
    ),
)
k(
    "mongodb_password",
    C,
    "password in `mongodb+srv://` / `mongodb://` URLs",
    "MongoDB URI",
    "MONGODB_URI",
    g_db(
        "mongodb_password",
        "mongodb+srv",
        27017,
        "MONGODB_URI",
        "MongoDB Atlas URI",
        [("env", "MONGO_INITDB_ROOT_PASSWORD", "", "")],
    ),
)
k(
    "redis_password",
    C,
    "password in `redis://` / `rediss://` URLs, `requirepass`",
    "Redis password",
    "REDIS_URL",
    g_db(
        "redis_password",
        "rediss",
        6380,
        "REDIS_URL",
        "Redis URL",
        [("env", "REDIS_PASSWORD", "", ""), ("conf", "REDIS_CONF", "requirepass ", "")],
    ),
)
k(
    "amqp_password",
    C,
    "password in `amqps://` URLs, `RABBITMQ_DEFAULT_PASS`",
    "RabbitMQ credentials",
    "AMQP_URL",
    g_db("amqp_password", "amqps", 5671, "AMQP_URL", "broker URL", [("env", "RABBITMQ_DEFAULT_PASS", "", "")]),
)
k(
    "smtp_password",
    C,
    "SMTP password (`SMTP_PASSWORD`, `smtp://` URLs)",
    "SMTP password",
    "SMTP_URL",
    g_db("smtp_password", "smtps", 465, "SMTP_URL", "mail relay URL", [("env", "SMTP_PASSWORD", "", "")]),
)
k(
    "mssql_password",
    C,
    "`Password=` of an ADO.NET connection string",
    "SQL Server connection string",
    "MSSQL",
    g_db(
        "mssql_password",
        "sqlserver",
        1433,
        "MSSQL_URL",
        "SQL Server URL",
        [
            (
                "ado",
                "ConnectionStrings__Default",
                "Server=tcp:{host},1433;Database={db};User ID={user};Password=",
                ";Encrypt=True;",
            )
        ],
    ),
)
k(
    "url_credential_password",
    C,
    "password in `https://user:pass@`, proxy, FTP and SFTP URLs (percent-encoded)",
    "URL with credentials",
    "REMOTE_URL",
    g_url_cred,
)
k("ldap_bind_password", C, "LDAP / AD bind passwords", "LDAP bind password", "LDAP_BIND_PASSWORD", g_ldap)
k(
    "rsa_private_key",
    C,
    "real 2048-bit RSA key, PKCS #1 or PKCS #8 PEM",
    ["RSA private key", "TLS private key", "signing key (PEM)"],
    "PRIVATE_KEY",
    rsa_gen,
    "ml",
)
k(
    "openssh_private_key",
    C,
    "`openssh-key-v1` Ed25519 key (public half derived, a look-alike)",
    "SSH private key",
    "SSH_PRIVATE_KEY",
    g_openssh,
    "ml",
)
k(
    "ec_private_key",
    C,
    "P-256 key (SEC 1 or PKCS #8, public point derived)",
    ["EC private key", "ES256 signing key"],
    "EC_PRIVATE_KEY",
    lambda r: ec_pem(r, r.random() < 0.5),
    "ml",
)
k(
    "pgp_private_key",
    C,
    "armored OpenPGP v4 Ed25519 secret-key packet + user id, CRC-24 (no self-signature)",
    "PGP private key",
    "GPG_PRIVATE_KEY",
    lambda r: pgp_private(r, f"{r.choice(NAMES).title()} {r.choice(SURNAMES)} <{r.choice(NAMES)}@{r.choice(DOMAINS)}>"),
    "ml",
)
k(
    "kubernetes_sa_token",
    C,
    "RS256 service-account JWT signed by a seeded RSA key",
    ["Kubernetes service-account token", "kubeconfig token"],
    "K8S_TOKEN",
    g_k8s_sa,
)
k(
    "docker_config_auth",
    C,
    "`auth` of a Docker `config.json` (base64 user:password)",
    "registry auth",
    "DOCKER_AUTH_CONFIG",
    g_docker_auth,
)
k("basic_auth_credentials", C, "base64(`user:password`) after `Basic `", "basic auth", "AUTH_HEADER", g_basic)
k(
    "bearer_token",
    C,
    "opaque access tokens after `Bearer ` or named access tokens",
    "access token",
    "ACCESS_TOKEN",
    g_bearer,
)
k(
    "session_cookie",
    C,
    "cookie value after `name=` (Django, Express, Rails, Laravel, PHP, NextAuth)",
    "session cookie",
    "SESSION_COOKIE",
    g_cookie,
)
k(
    "generic_password",
    C,
    "passwords of every style named only by the words around them",
    "password",
    "PASSWORD",
    g_generic_pw,
)
k(
    "generic_api_key",
    C,
    "API keys of in-house and minor services named only by the words around them",
    "API key",
    "API_KEY",
    g_generic_api,
)
k(
    "generic_secret_token",
    C,
    "shared secrets and tokens named only by the words around them",
    "token",
    "SECRET_TOKEN",
    g_generic_secret,
)
k(
    "app_secret_key",
    C,
    "Django, Rails, Laravel, Flask and NextAuth application secrets",
    "app secret",
    "SECRET_KEY",
    g_app_secret,
)
k("encryption_key", C, "symmetric data keys (base64 / hex 256-bit)", "encryption key", "ENCRYPTION_KEY", g_enc_key)
k(
    "webhook_signing_secret",
    C,
    "HMAC secrets for webhook signatures",
    "webhook secret",
    "WEBHOOK_SECRET",
    g_webhook_secret,
)
k(
    "oauth_client_secret",
    C,
    "OAuth client secrets of in-house apps (client id a look-alike)",
    "OAuth client secret",
    "OAUTH_CLIENT_SECRET",
    g_oauth_secret,
)
k("totp_seed", C, "base32 TOTP seed (alone or in an `otpauth://` URI)", "TOTP seed", "TOTP_SECRET", g_totp)
k("recovery_code", C, "2FA backup codes (each code its own span)", "recovery codes", "RECOVERY_CODES", g_recovery)
k(
    "wireguard_private_key",
    C,
    "base64 clamped X25519 private key (public key derived, a look-alike)",
    "WireGuard private key",
    "WG_PRIVATE_KEY",
    g_wireguard,
)
k(
    "personal_account_password",
    C,
    "passwords of personal accounts (bank, streaming, utilities)",
    "account password",
    "ACCOUNT_PASSWORD",
    g_personal,
    "personal",
)
k(
    "grafana_service_account_token",
    C,
    "`glsa_` + 32 + `_` + 8 hex",
    "Grafana service account token",
    "GRAFANA_TOKEN",
    T("glsa_", (32, AN), "_", (8, HEX)),
)
k(
    "grafana_cloud_token",
    C,
    "`glc_` + base64 JSON",
    "Grafana Cloud access policy token",
    "GRAFANA_CLOUD_TOKEN",
    lambda r: (
        "glc_"
        + b64(
            json.dumps(
                {
                    "o": rs(r, 7, DG),
                    "n": "stack-" + rs(r, 6, DG) + "-hm-write",
                    "k": rs(r, 24),
                    "m": {"r": "prod-eu-west-2"},
                },
                separators=(",", ":"),
            ).encode()
        )
    ),
)
k(
    "elastic_api_key",
    C,
    "base64 of `id:api_key` (`ApiKey ` header)",
    "Elasticsearch API key",
    "ELASTIC_API_KEY",
    g_elastic,
)
k(
    "pagerduty_api_key",
    C,
    "`u+` + 18, or 20 characters",
    "PagerDuty API key",
    "PAGERDUTY_TOKEN",
    lambda r: "u+" + rs(r, 18, B64U) if r.random() < 0.5 else rs(r, 20, B64U),
)
k("opsgenie_api_key", C, "UUID (`GenieKey` header)", "Opsgenie API key", "OPSGENIE_API_KEY", uuid4)
k(
    "launchdarkly_sdk_key",
    C,
    "`sdk-` + UUID (server side), `api-` + UUID",
    "LaunchDarkly SDK key",
    "LAUNCHDARKLY_SDK_KEY",
    lambda r: r.choice(["sdk-", "api-"]) + uuid4(r),
)
k("segment_write_key", C, "32 alphanumerics (name only)", "Segment write key", "SEGMENT_WRITE_KEY", T((32, AN)))
k("mixpanel_api_secret", C, "32 hex (name only)", "Mixpanel API secret", "MIXPANEL_API_SECRET", T((32, HEX)))
k("cohere_api_key", C, "40 alphanumerics (name only)", "Cohere API key", "COHERE_API_KEY", T((40, AN)))
k("groq_api_key", C, "`gsk_` + 52", "Groq API key", "GROQ_API_KEY", T("gsk_", (52, AN)))
k("mistral_api_key", C, "32 alphanumerics (name only)", "Mistral API key", "MISTRAL_API_KEY", T((32, AN)))
k("replicate_api_token", C, "`r8_` + 37", "Replicate token", "REPLICATE_API_TOKEN", T("r8_", (37, AN)))
k("perplexity_api_key", C, "`pplx-` + 48", "Perplexity API key", "PERPLEXITY_API_KEY", T("pplx-", (48, AN)))
k("xai_api_key", C, "`xai-` + 80", "xAI API key", "XAI_API_KEY", T("xai-", (80, AN)))
k("deepseek_api_key", C, "`sk-` + 32 hex", "DeepSeek API key", "DEEPSEEK_API_KEY", T("sk-", (32, HEX)))
k("openrouter_api_key", C, "`sk-or-v1-` + 64 hex", "OpenRouter key", "OPENROUTER_API_KEY", T("sk-or-v1-", (64, HEX)))
k(
    "pinecone_api_key",
    C,
    "`pcsk_` + 5 + `_` + 63",
    "Pinecone API key",
    "PINECONE_API_KEY",
    T("pcsk_", (5, AN), "_", (63, AN)),
)
k(
    "langsmith_api_key",
    C,
    "`lsv2_pt_` / `lsv2_sk_` + 32 hex + `_` + 10 hex",
    "LangSmith API key",
    "LANGSMITH_API_KEY",
    lambda r: r.choice(["lsv2_pt_", "lsv2_sk_"]) + rs(r, 32, HEX) + "_" + rs(r, 10, HEX),
)
k(
    "langfuse_secret_key",
    C,
    "`sk-lf-` + UUID (the `pk-lf-` key is a look-alike)",
    "Langfuse secret key",
    "LANGFUSE_SECRET_KEY",
    g_pair(
        "LANGFUSE_PUBLIC_KEY",
        "Langfuse public key",
        "public_client_key",
        lambda r: "pk-lf-" + uuid4(r),
        "LANGFUSE_SECRET_KEY",
        "Langfuse secret key",
        "langfuse_secret_key",
        lambda r: "sk-lf-" + uuid4(r),
    ),
)
k("wandb_api_key", C, "40 hex (name only)", "W&B API key", "WANDB_API_KEY", T((40, HEX)))
k("fireworks_api_key", C, "`fw_` + 24", "Fireworks API key", "FIREWORKS_API_KEY", T("fw_", (24, AN)))
k("elevenlabs_api_key", C, "`sk_` + 48 hex", "ElevenLabs key", "ELEVENLABS_API_KEY", T("sk_", (48, HEX)))
k("resend_api_key", C, "`re_` + 8 + `_` + 24", "Resend API key", "RESEND_API_KEY", T("re_", (8, AN), "_", (24, AN)))
k(
    "brevo_api_key",
    C,
    "`xkeysib-` + 64 hex + `-` + 16",
    "Brevo API key",
    "BREVO_API_KEY",
    T("xkeysib-", (64, HEX), "-", (16, AN)),
)
k(
    "postmark_server_token",
    C,
    "UUID (name or `X-Postmark-Server-Token`)",
    "Postmark server token",
    "POSTMARK_SERVER_TOKEN",
    uuid4,
)
k(
    "paypal_client_secret",
    C,
    "`E` + 79 (the `A` client id is a look-alike)",
    "PayPal client secret",
    "PAYPAL_CLIENT_SECRET",
    g_pair(
        "PAYPAL_CLIENT_ID",
        "PayPal client id",
        "oauth_client_id",
        T("A", (79, B64U)),
        "PAYPAL_CLIENT_SECRET",
        "PayPal secret",
        "paypal_client_secret",
        T("E", (79, B64U)),
    ),
)
k("square_access_token", C, "`EAAA` + 60", "Square access token", "SQUARE_ACCESS_TOKEN", T("EAAA", (60, B64U)))
k(
    "razorpay_key_secret",
    C,
    "24 alphanumerics (the `rzp_live_` key id is a look-alike)",
    "Razorpay key secret",
    "RAZORPAY_KEY_SECRET",
    g_pair(
        "RAZORPAY_KEY_ID",
        "Razorpay key id",
        "account_identifier",
        T("rzp_live_", (14, AN)),
        "RAZORPAY_KEY_SECRET",
        "Razorpay secret",
        "razorpay_key_secret",
        T((24, AN)),
    ),
)
k(
    "adyen_api_key",
    C,
    "`AQE` + base64 segments",
    "Adyen API key",
    "ADYEN_API_KEY",
    T("AQE", (4, AN), "hmfx", (40, B64), "=-", (44, B64), "=-", (12, AN)),
)
k(
    "twitter_bearer_token",
    C,
    "21 `A` + 30 + `%3D` + 50",
    "X/Twitter bearer token",
    "TWITTER_BEARER_TOKEN",
    T("AAAAAAAAAAAAAAAAAAAAA", (30, AN), "%3D", (50, AN)),
)
k(
    "facebook_access_token",
    C,
    "`EAA` + 150-180",
    "Facebook page access token",
    "FB_PAGE_TOKEN",
    lambda r: "EAA" + r.choice("BGI") + rs(r, r.randint(150, 180)),
)
k(
    "dropbox_access_token",
    C,
    "`sl.u.` / `sl.` + 135",
    "Dropbox access token",
    "DROPBOX_TOKEN",
    lambda r: r.choice(["sl.u.", "sl."]) + rs(r, 135, B64U),
)
k(
    "asana_pat",
    C,
    "`2/` + 16 digits + `/` + 16 digits + `:` + 32 hex",
    "Asana token",
    "ASANA_TOKEN",
    T("2/", (16, DG), "/", (16, DG), ":", (32, HEX)),
)
k(
    "clickup_api_token",
    C,
    "`pk_` + 8 digits + `_` + 32",
    "ClickUp token",
    "CLICKUP_TOKEN",
    T("pk_", (8, DG), "_", (32, AUP)),
)
k("trello_api_token", C, "`ATTA` + 64 hex + 8 hex", "Trello token", "TRELLO_TOKEN", T("ATTA", (64, HEX), (8, HEXU)))
k("zendesk_api_token", C, "40 alphanumerics (name only)", "Zendesk API token", "ZENDESK_API_TOKEN", T((40, AN)))
k("intercom_access_token", C, "base64 of `tok:<uuid>:1:0`", "Intercom access token", "INTERCOM_TOKEN", g_intercom)
k(
    "hubspot_private_app_token",
    C,
    "`pat-na1-` / `pat-eu1-` + UUID",
    "HubSpot private app token",
    "HUBSPOT_TOKEN",
    lambda r: r.choice(["pat-na1-", "pat-eu1-"]) + uuid4(r),
)
k(
    "contentful_pat",
    C,
    "`CFPAT-` + 43",
    "Contentful management token",
    "CONTENTFUL_MANAGEMENT_TOKEN",
    T("CFPAT-", (43, B64U)),
)
k("nuget_api_key", C, "`oy2` + 43 lower-case", "NuGet API key", "NUGET_API_KEY", T("oy2", (43, ALO)))
k("rubygems_api_key", C, "`rubygems_` + 48 hex", "RubyGems API key", "GEM_HOST_API_KEY", T("rubygems_", (48, HEX)))
k("crates_io_token", C, "`cio` + 32", "crates.io token", "CARGO_REGISTRY_TOKEN", T("cio", (32, AN)))
k("jfrog_api_key", C, "`AKCp` + 69", "Artifactory API key", "ARTIFACTORY_API_KEY", T("AKCp8", (68, AN)))
k(
    "tailscale_auth_key",
    C,
    "`tskey-auth-` / `tskey-api-` + id + `CNTRL-` + 32",
    "Tailscale auth key",
    "TS_AUTHKEY",
    lambda r: r.choice(["tskey-auth-", "tskey-api-"]) + "k" + rs(r, 11, AN) + "CNTRL-" + rs(r, 32, AN),
)
k("ngrok_authtoken", C, "`2` + 26 + `_` + 21", "ngrok authtoken", "NGROK_AUTHTOKEN", T("2", (26, AN), "_", (21, AN)))
k(
    "flyio_token",
    C,
    "`FlyV1 fm2_` + base64",
    "Fly.io token",
    "FLY_API_TOKEN",
    lambda r: "fm2_lJPE" + rs(r, 200, B64) + "==",
)
k("render_api_key", C, "`rnd_` + 32", "Render API key", "RENDER_API_KEY", T("rnd_", (32, AN)))
k("railway_token", C, "UUID (name only)", "Railway token", "RAILWAY_TOKEN", uuid4)
k("expo_access_token", C, "40 characters (name only)", "Expo access token", "EXPO_TOKEN", T((40, B64U)))
k("buildkite_token", C, "`bkua_` + 40 hex", "Buildkite API token", "BUILDKITE_API_TOKEN", T("bkua_", (40, HEX)))
k("codecov_token", C, "UUID (name only)", "Codecov upload token", "CODECOV_TOKEN", uuid4)
k(
    "onepassword_sa_token",
    C,
    "`ops_` + base64url JSON",
    "1Password service account token",
    "OP_SERVICE_ACCOUNT_TOKEN",
    g_onepassword,
)
k(
    "wifi_password",
    C,
    "Wi-Fi / WPA passphrases (also in `WIFI:` QR strings)",
    "Wi-Fi password",
    "WIFI_PASSWORD",
    g_wifi,
    "personal",
)

# less common kinds
k(
    "bitlocker_recovery_key",
    U,
    "48 digits in 8 blocks, each a multiple of 11",
    "BitLocker recovery key",
    "BITLOCKER_KEY",
    g_bitlocker,
    "personal",
)
k(
    "sim_puk_code",
    U,
    "8-digit SIM PUK",
    ["SIM PUK", "PUK code of the work phone"],
    "PUK",
    g_pin("sim_puk_code", ["SIM PUK", "PUK code of the work phone", "PUK for the travel SIM"], (8, 8)),
    "personal",
)
k(
    "phone_unlock_pin",
    U,
    "6-digit phone / tablet unlock PINs",
    "phone PIN",
    "PIN",
    g_pin("phone_unlock_pin", ["phone unlock PIN", "iPad passcode", "work phone PIN"], (6, 6)),
    "personal",
)
k(
    "alarm_code",
    U,
    "house alarm and door keypad codes (6 to 7 digits)",
    "alarm code",
    "PIN",
    g_pin("alarm_code", ["alarm disarm code", "garage keypad code", "office door code"], (6, 7)),
    "personal",
)
k(
    "voicemail_pin",
    U,
    "voicemail / phone-banking PINs (6 to 8 digits)",
    "voicemail PIN",
    "PIN",
    g_pin("voicemail_pin", ["voicemail PIN", "telephone banking PIN", "desk phone PIN"], (6, 8)),
    "personal",
)
k(
    "security_question_answer",
    U,
    "answers to security questions / memorable words",
    "security answer",
    "SECURITY_ANSWER",
    g_security_answer,
    "personal",
)
k(
    "app_specific_password",
    U,
    "Apple / Google app passwords (`xxxx-xxxx-xxxx-xxxx`)",
    ["app-specific password", "Gmail app password"],
    "APP_PASSWORD",
    lambda r: r.choice(["-", " "]).join(rs(r, 4, LO) for _ in range(4)),
    "personal",
)
k(
    "software_license_key",
    U,
    "product and licence keys (5x5 base-24, grouped hex, vendor forms)",
    ["license key", "product key"],
    "LICENSE_KEY",
    g_license,
)
k(
    "keepass_master_password",
    U,
    "password-manager master passwords",
    ["KeePass master password", "Bitwarden master password"],
    "MASTER_PASSWORD",
    lambda r: password(r, r.choice(["passphrase", "spaces", "long"])),
    "personal",
)
k(
    "gpg_passphrase",
    U,
    "GPG key passphrases",
    "GPG passphrase",
    "GPG_PASSPHRASE",
    lambda r: password(r, r.choice(["passphrase", "spaces", "random"])),
)
k(
    "ssh_key_passphrase",
    U,
    "SSH key passphrases",
    "SSH key passphrase",
    "SSH_PASSPHRASE",
    lambda r: password(r, r.choice(["passphrase", "spaces", "leet"])),
)
k(
    "router_admin_password",
    U,
    "router / NAS / printer admin passwords",
    ["router admin password", "NAS admin password", "printer web UI password"],
    "ROUTER_PASSWORD",
    lambda r: password(r, r.choice(["safe", "leet", "pron"])),
    "personal",
)
k("bitcoin_wif_private_key", U, "compressed WIF key (base58check)", "bitcoin private key (WIF)", "BTC_WIF", g_wif)
k(
    "ethereum_private_key",
    U,
    "64 hex secp256k1 scalar (optionally `0x`)",
    "wallet private key",
    "ETH_PRIVATE_KEY",
    g_eth,
)
k("nats_nkey_seed", U, "`SU` + base32 seed with CRC-16", "NATS user seed", "NATS_NKEY_SEED", g_nats)
k("plex_token", U, "20-character `X-Plex-Token`", "Plex token", "PLEX_TOKEN", T((20, B64U)))
k(
    "home_assistant_token",
    U,
    "HS256 long-lived access token",
    "Home Assistant long-lived token",
    "HASS_TOKEN",
    g_home_assistant,
)
k("steam_web_api_key", U, "32 upper-case hex", "Steam Web API key", "STEAM_API_KEY", T((32, HEXU)))
k(
    "snmp_community_string",
    U,
    "SNMP community strings",
    "SNMP community",
    "SNMP_COMMUNITY",
    lambda r: r.choice(PW_WORDS) + "-" + rs(r, 8, AN) + "-ro",
)
k(
    "ipmi_password",
    U,
    "IPMI / iDRAC / iLO passwords",
    ["iDRAC password", "IPMI admin password", "iLO password"],
    "IPMI_PASSWORD",
    lambda r: password(r, "safe"),
)
k(
    "radius_shared_secret",
    U,
    "RADIUS / TACACS+ shared secrets",
    "RADIUS shared secret",
    "RADIUS_SECRET",
    T((18, AN), "!", (4, DG)),
)
k("cisco_type7_password", U, "reversible Cisco type 7 encodings", "Cisco type 7 password", "CISCO_LINE", g_cisco)
k("vnc_password", U, "VNC passwords (8 characters)", "VNC password", "VNC_PASSWORD", T((2, UP), (4, ALO), (2, DG)))
k(
    "restic_password",
    U,
    "restic / borg repository passphrases",
    ["restic repository password", "borg passphrase"],
    "RESTIC_PASSWORD",
    lambda r: password(r, r.choice(["passphrase", "long"])),
)
k("mqtt_password", U, "MQTT broker passwords (IoT)", "MQTT password", "MQTT_PASSWORD", lambda r: password(r, "safe"))
k(
    "zigbee_network_key",
    U,
    "128-bit Zigbee network keys (hex)",
    "Zigbee network key",
    "ZIGBEE_NETWORK_KEY",
    lambda r: ", ".join(f"0x{b:02X}" for b in rbytes(r, 16)) if r.random() < 0.3 else rs(r, 32, HEXU),
)
k(
    "vault_unseal_key",
    U,
    "base64 32-byte Vault unseal share",
    "Vault unseal key",
    "UNSEAL_KEY",
    lambda r: b64(rbytes(r, 33)),
)
k(
    "ansible_vault_password",
    U,
    "Ansible vault passwords",
    "ansible-vault password",
    "ANSIBLE_VAULT_PASSWORD",
    lambda r: password(r, r.choice(["random", "passphrase", "long"])),
)
k("jenkins_api_token", U, "`11` + 32 hex", "Jenkins API token", "JENKINS_API_TOKEN", T("11", (32, HEX)))
k("octopus_api_key", U, "`API-` + 26 upper-case", "Octopus Deploy API key", "OCTOPUS_API_KEY", T("API-", (26, AUP)))
k("duo_secret_key", U, "40-character Duo integration secret (`skey`)", "Duo secret key", "DUO_SKEY", T((40, AN)))
k(
    "age_secret_key",
    U,
    "`AGE-SECRET-KEY-1` + bech32 (recipient derived, a look-alike)",
    "age secret key",
    "AGE_SECRET_KEY",
    g_age,
)
k(
    "alibaba_access_key_secret",
    U,
    "30 alphanumerics with its `LTAI` id",
    "Alibaba Cloud AccessKey secret",
    "ALIBABA_CLOUD_ACCESS_KEY_SECRET",
    g_pair_secret(
        "ALIBABA_CLOUD_ACCESS_KEY_ID",
        "Alibaba AccessKey id",
        "alibaba_access_key_id",
        T("LTAI5t", (18, AN)),
        "ALIBABA_CLOUD_ACCESS_KEY_SECRET",
        "Alibaba AccessKey secret",
        "alibaba_access_key_secret",
        T((30, AN)),
    ),
)
extra("alibaba_access_key_id", U, "`LTAI5t` + 18 (labelled: travels with its secret)")
k(
    "tencent_secret_key",
    U,
    "32 alphanumerics with its `AKID` id",
    "Tencent Cloud SecretKey",
    "TENCENTCLOUD_SECRET_KEY",
    g_pair_secret(
        "TENCENTCLOUD_SECRET_ID",
        "Tencent SecretId",
        "tencent_secret_id",
        T("AKID", (32, AN)),
        "TENCENTCLOUD_SECRET_KEY",
        "Tencent SecretKey",
        "tencent_secret_key",
        T((32, AN)),
    ),
)
extra("tencent_secret_id", U, "`AKID` + 32 (labelled: travels with its secret)")
k(
    "backblaze_b2_application_key",
    U,
    "`K00` + 28 with its key id",
    "B2 application key",
    "B2_APPLICATION_KEY",
    g_pair_secret(
        "B2_APPLICATION_KEY_ID",
        "B2 key id",
        "backblaze_b2_key_id",
        T("00", (23, HEX)),
        "B2_APPLICATION_KEY",
        "B2 application key",
        "backblaze_b2_application_key",
        T("K00", (28, AN)),
    ),
)
extra("backblaze_b2_key_id", U, "25 hex `00...` key id (labelled: travels with its secret)")


# ---------------------------------------------------------------- look-alike kinds

JWT_IO = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
TEST_CARDS = [
    "4242424242424242",
    "4000056655665556",
    "5555555555554444",
    "2223003122003222",
    "378282246310005",
    "6011111111111117",
    "3056930009020004",
    "4111111111111111",
    "5105105105105100",
]
BASE64_TEXTS = [
    "hello world, this is not a secret",
    '{"feature":"dark-mode","enabled":true}',
    "The quick brown fox jumps over the lazy dog",
    "release notes for version 2.4",
    "user-preferences:v2",
    "Lorem ipsum dolor sit amet",
]


def g_ssh_pub(r: random.Random) -> str:
    return (
        "ssh-ed25519 "
        + b64(ssh_ed25519_blob(ed25519_public(rbytes(r, 32))))
        + f" {r.choice(NAMES)}@{r.choice(['laptop', 'mbp', 'desktop', 'ci'])}"
    )


def g_pubkey_pem(r: random.Random) -> str:
    if r.random() < 0.5:
        return pem("PUBLIC KEY", bytes.fromhex("302a300506032b6570032100") + ed25519_public(rbytes(r, 32)))
    d = r.randrange(1, EC_N)
    pt = ec_mul(d, EC_G)
    assert pt is not None
    spki = der_seq(
        der_seq(der(0x06, bytes.fromhex("2a8648ce3d0201")), der(0x06, bytes.fromhex("2a8648ce3d030107"))),
        der(0x03, b"\x00\x04" + pt[0].to_bytes(32, "big") + pt[1].to_bytes(32, "big")),
    )
    return pem("PUBLIC KEY", spki)


def g_fingerprint(r: random.Random) -> str:
    blob = ssh_ed25519_blob(ed25519_public(rbytes(r, 32)))
    if r.random() < 0.6:
        return "SHA256:" + b64(hashlib.sha256(blob).digest()).rstrip("=")
    return ":".join(f"{b:02x}" for b in hashlib.md5(blob, usedforsecurity=False).digest())


def g_bcrypt(r: random.Random) -> str:
    alpha = "./" + UP + LO + DG
    return r.choice(
        [
            "$2b$12$" + rs(r, 53, alpha),
            "$argon2id$v=19$m=65536,t=3,p=4$"
            + rs(r, 22, B64).replace("+", "x").replace("/", "y")
            + "$"
            + rs(r, 43, AN),
            "pbkdf2_sha256$870000$" + rs(r, 22, AN) + "$" + b64(rbytes(r, 32)),
            "$6$rounds=656000$" + rs(r, 16, alpha) + "$" + rs(r, 86, alpha),
        ]
    )


def g_anon_jwt(r: random.Random) -> str:
    if r.random() < 0.3:
        return "sb_publishable_" + rs(r, 22, B64U) + "_" + rs(r, 8, B64U)
    now = 1_700_000_000 + r.randrange(40_000_000)
    return jwt_hs256(
        {"iss": "supabase", "ref": rs(r, 20, LO), "role": "anon", "iat": now, "exp": now + 315_360_000}, rbytes(r, 32)
    )


def g_bech_addr(r: random.Random) -> str:
    if r.random() < 0.6:
        return bech32_encode("bc", [0, *to5(rbytes(r, 20))])
    return bech32_encode("bc", [1, *to5(rbytes(r, 32))], 0x2BC830A3)


def g_wg_pub(r: random.Random) -> str:
    return b64(x25519(rbytes(r, 32)))


def g_age_rcpt(r: random.Random) -> str:
    return bech32_encode("age", to5(x25519(rbytes(r, 32))))


def g_usps(r: random.Random) -> str:
    s = "9400" + rs(r, 17, DG)
    return s + gs1_digit(s)


def g_imei(r: random.Random) -> str:
    s = r.choice(["35", "86", "01", "49"]) + rs(r, 12, DG)
    return s + luhn_digit(s)


def g_placeholder(r: random.Random) -> str:
    return r.choice(
        [
            "<your-api-key>",
            "changeme",
            "REPLACE_ME",
            "xxxxxxxxxxxxxxxxxxxxxxxx",
            "sk_live_XXXXXXXXXXXXXXXXXXXXXXXX",
            "your_token_here",
            "00000000-0000-0000-0000-000000000000",
            "<PASSWORD>",
            "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "TODO-set-me",
            "dummy-secret-for-tests",
            "AKIAXXXXXXXXXXXXXXXX",
        ]
    )


def g_documented(r: random.Random) -> str:
    return r.choice(
        [
            JWT_IO,
            "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
            "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ",
            "xoxb-not-a-real-token-this-will-not-work",
            "JBSWY3DPEHPK3PXP",
        ]
    )


def g_masked(r: random.Random) -> str:
    return r.choice(
        [
            "sk_live_" + "*" * 20 + rs(r, 4),
            "ghp_" + "•" * 12,
            "********",
            "xoxb-****-****-" + rs(r, 4),
            "AKIA" + "X" * 12 + rs(r, 4, AUP),
            "[REDACTED]",
            "****" + rs(r, 4, DG),
            "pscale_pw_" + "#" * 10,
        ]
    )


def g_enc_value(r: random.Random) -> str:
    return r.choice(
        [
            f"ENC[AES256_GCM,data:{b64(rbytes(r, 18))},iv:{b64(rbytes(r, 32))},tag:{b64(rbytes(r, 16))},type:str]",
            "vault:v1:" + b64(rbytes(r, 48)),
            "AgB" + rs(r, 120, B64) + "==",
            "$ANSIBLE_VAULT;1.1;AES256",
        ]
    )


def g_env_ref(r: random.Random) -> str:
    n = r.choice(["STRIPE_SECRET_KEY", "DB_PASSWORD", "GITHUB_TOKEN", "API_KEY", "OPENAI_API_KEY"])
    return r.choice(
        [f"${{{n}}}", f"${n}", f"%{n}%", f"$env:{n}", f"${{{n}:-}}", f"os.environ['{n}']", f"process.env.{n}"]
    )


def g_template_ref(r: random.Random) -> str:
    n = r.choice(["STRIPE_SECRET_KEY", "DB_PASSWORD", "NPM_TOKEN", "SLACK_WEBHOOK"])
    return r.choice(
        [
            f"${{{{ secrets.{n} }}}}",
            f"{{{{ .Values.secrets.{n.lower()} }}}}",
            f"{{{{ vault_{n.lower()} }}}}",
            f"var.{n.lower()}",
            f"$({n})",
            f"<%= ENV['{n}'] %>",
        ]
    )


def g_secret_ref(r: random.Random) -> str:
    return r.choice(
        [
            f"op://Engineering/{r.choice(PROJECTS)}/credential",
            f"vault:secret/data/{r.choice(PROJECTS)}#password",
            f"arn:aws:secretsmanager:eu-west-1:{rs(r, 12, DG)}:secret:{r.choice(PROJECTS)}/db-{rs(r, 6)}",
            f"projects/{r.choice(PROJECTS)}-prod/secrets/api-key/versions/latest",
            f"@Microsoft.KeyVault(SecretUri=https://kv-{r.choice(PROJECTS)}.vault.azure.net/secrets/db-password/)",
            f"ssm:/{r.choice(PROJECTS)}/prod/api_token",
        ]
    )


look(
    "uuid",
    "UUIDs used as record, tenant and correlation ids",
    ["record id", "correlation id", "tenant record id", "device id"],
    "RECORD_ID",
    uuid4,
)
look("git_commit_sha", "40-hex commit SHAs", ["commit", "last good commit", "release commit"], "GIT_SHA", T((40, HEX)))
look("sha256_checksum", "SHA-256 file digests", ["SHA-256 of the installer", "checksum"], "SHA256", T((64, HEX)))
look("sha1_checksum", "SHA-1 digests", ["SHA-1 of the archive", "sha1sum"], "SHA1", T((40, HEX)))
look(
    "md5_checksum",
    "MD5 checksums and S3 ETags",
    ["MD5", "ETag"],
    "MD5",
    lambda r: rs(r, 32, HEX) + (f"-{r.randint(2, 40)}" if r.random() < 0.3 else ""),
)
look(
    "container_digest",
    "`sha256:` image digests",
    ["image digest", "pinned digest"],
    "IMAGE_DIGEST",
    lambda r: r.choice(["", f"ghcr.io/acme/{r.choice(PROJECTS)}@"]) + "sha256:" + rs(r, 64, HEX),
)
look(
    "npm_integrity", "`sha512-` lockfile integrity", "integrity", "INTEGRITY", lambda r: "sha512-" + b64(rbytes(r, 64))
)
look("sri_integrity", "`sha384-` subresource integrity", "SRI hash", "SRI", lambda r: "sha384-" + b64(rbytes(r, 48)))
look("go_sum_hash", "`h1:` module hashes", "go.sum hash", "GO_SUM", lambda r: "h1:" + b64(rbytes(r, 32)))
look(
    "password_hash",
    "bcrypt, argon2id, Django PBKDF2 and sha512-crypt hashes",
    ["password hash", "stored hash"],
    "PASSWORD_HASH",
    g_bcrypt,
)
look(
    "ssh_public_key",
    "`ssh-ed25519` public keys (derived from a seed)",
    ["SSH public key", "authorized key"],
    "SSH_PUBLIC_KEY",
    g_ssh_pub,
)
look(
    "public_key_pem",
    "`BEGIN PUBLIC KEY` PEM (Ed25519 or P-256 SPKI)",
    ["public key", "JWT verification key"],
    "PUBLIC_KEY",
    g_pubkey_pem,
    "ml",
)
look(
    "key_fingerprint",
    "SSH `SHA256:` and MD5 fingerprints computed from real key blobs",
    ["host key fingerprint", "key fingerprint"],
    "FINGERPRINT",
    g_fingerprint,
)
look(
    "placeholder",
    "placeholders (`<your-api-key>`, `changeme`, `REPLACE_ME`, masked-pattern keys, all-zero UUID)",
    ["API key", "password", "token"],
    "API_KEY",
    g_placeholder,
)
look(
    "aws_example_key",
    "AWS documentation keys ending in `EXAMPLE` / `EXAMPLEKEY`",
    ["example AWS key", "AWS key from the docs"],
    "AWS_ACCESS_KEY_ID",
    lambda r: r.choice(
        [
            "AKIAIOSFODNN7EXAMPLE",
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "AKIAI44QH8DHBEXAMPLE",
            "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY",
        ]
    ),
)
look(
    "documented_example",
    "published samples (jwt.io token, Stripe docs test key, RFC 6238 seed, Slack docs token, Google Authenticator sample seed)",
    ["example token", "sample key from the docs"],
    "EXAMPLE_TOKEN",
    g_documented,
)
look(
    "base64_text",
    "base64 of ordinary text and JSON",
    ["encoded payload", "base64 blob"],
    "PAYLOAD",
    lambda r: b64(r.choice(BASE64_TEXTS).encode()),
)
look(
    "stripe_publishable_key",
    "`pk_live_` publishable keys",
    "Stripe publishable key",
    "STRIPE_PUBLISHABLE_KEY",
    T("pk_live_51", (97, AN)),
)
look(
    "test_card_number",
    "documented test card numbers (Luhn-checked)",
    ["test card", "sandbox card number"],
    "TEST_CARD",
    lambda r: r.choice(TEST_CARDS),
)
look(
    "file_path",
    "paths to key and credential files",
    ["key file", "credentials path"],
    "KEY_PATH",
    lambda r: r.choice(
        [
            "~/.ssh/id_ed25519",
            "/etc/ssl/private/server.key",
            "C:\\Users\\" + r.choice(NAMES) + "\\.aws\\credentials",
            "/run/secrets/db_password",
            "~/.config/gcloud/application_default_credentials.json",
            "./certs/client-key.pem",
            "/var/lib/jenkins/secrets/master.key",
        ]
    ),
)
look(
    "url",
    "URLs without credentials",
    ["dashboard", "docs link", "endpoint"],
    "URL",
    lambda r: (
        f"https://{r.choice(['grafana', 'console', 'status', 'docs', 'api'])}.{r.choice(DOMAINS)}/{r.choice(PROJECTS)}/{rs(r, 6, ALO)}?tab=overview"
    ),
)
look(
    "semver",
    "version strings",
    ["version", "pinned version"],
    "VERSION",
    lambda r: f"{r.randint(0, 9)}.{r.randint(0, 40)}.{r.randint(0, 30)}" + r.choice(["", "-rc.1", "+build.7"]),
)
look(
    "timestamp",
    "ISO-8601 timestamps and epoch milliseconds",
    ["created at", "expiry"],
    "TIMESTAMP",
    lambda r: (
        f"2025-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}T{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}Z"
        if r.random() < 0.6
        else str(1_700_000_000_000 + r.randrange(10**11))
    ),
)
look(
    "ip_address",
    "private / documentation IPv4, IPv6 and CIDRs",
    ["IP", "subnet"],
    "IP",
    lambda r: r.choice(
        [
            f"10.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}",
            f"192.0.2.{r.randint(1, 254)}",
            f"2001:db8:{rs(r, 4, HEX)}::{r.randint(1, 99)}",
            f"172.{r.randint(16, 31)}.0.0/16",
        ]
    ),
)
look("mac_address", "MAC addresses", ["MAC", "device MAC"], "MAC", lambda r: ":".join(rs(r, 2, HEX) for _ in range(6)))
look(
    "order_number",
    "shop order numbers",
    ["order number", "order"],
    "ORDER",
    lambda r: r.choice(
        [f"{r.randint(100, 999)}-{rs(r, 7, DG)}-{rs(r, 7, DG)}", "#" + rs(r, 9, DG), "ORD-" + rs(r, 10, AUP)]
    ),
)
look(
    "tracking_number",
    "USPS tracking numbers (GS1 mod-10 check digit) and DHL numbers",
    ["tracking number", "parcel"],
    "TRACKING",
    lambda r: g_usps(r) if r.random() < 0.6 else "JJD" + rs(r, 18, DG),
)
look("iban", "IBANs with valid ISO 13616 check digits", ["IBAN", "bank account for refunds"], "IBAN", iban)
look("isbn", "ISBN-13 with valid check digits", "ISBN", "ISBN", isbn13)
look("imei", "IMEIs with a Luhn check digit", ["IMEI", "phone IMEI"], "IMEI", g_imei)
look("vin", "vehicle identification numbers with a valid check digit", ["VIN", "car VIN"], "VIN", vin)
look("ulid", "ULIDs", "event id", "EVENT_ID", ulid)
look(
    "trace_id",
    "W3C traceparent and hex trace ids",
    ["trace id", "traceparent"],
    "TRACE_ID",
    lambda r: f"00-{rs(r, 32, HEX)}-{rs(r, 16, HEX)}-01" if r.random() < 0.5 else rs(r, 32, HEX),
)
look(
    "request_id",
    "request ids (`req_`, `x-amz-request-id`, CF-Ray)",
    "request id",
    "REQUEST_ID",
    lambda r: r.choice(["req_" + rs(r, 14), rs(r, 16, HEXU), rs(r, 16, HEX) + "-FRA"]),
)
look("env_reference", "environment-variable references", "env reference", "VALUE", g_env_ref)
look(
    "template_reference",
    "template expressions (`${{ secrets.X }}`, Helm, Jinja, Terraform, ERB)",
    "template value",
    "VALUE",
    g_template_ref,
)
look(
    "secret_manager_reference",
    "secret-manager references (`op://`, Vault, AWS, GCP, Key Vault, SSM)",
    "secret reference",
    "SECRET_REF",
    g_secret_ref,
)
look("masked_value", "masked or redacted values", ["masked key", "redacted token"], "MASKED", g_masked)
look("wireguard_public_key", "WireGuard public keys (X25519)", "peer public key", "WG_PEER_PUBLIC_KEY", g_wg_pub)
look("age_recipient", "`age1` recipients (bech32 of an X25519 key)", "age recipient", "AGE_RECIPIENT", g_age_rcpt)
look(
    "crypto_address",
    "bech32 / bech32m bitcoin addresses",
    ["BTC address", "donation address"],
    "BTC_ADDRESS",
    g_bech_addr,
)
look(
    "docker_image_ref",
    "image references with tags",
    "image",
    "IMAGE",
    lambda r: (
        f"{r.choice(['ghcr.io/acme', 'docker.io/library', '123456789012.dkr.ecr.eu-west-1.amazonaws.com'])}/{r.choice(PROJECTS)}:{r.randint(1, 9)}.{r.randint(0, 20)}.{r.randint(0, 9)}"
    ),
)
look(
    "k8s_resource_name",
    "pod and ReplicaSet names with hash suffixes",
    "pod",
    "POD",
    lambda r: (
        f"{r.choice(PROJECTS)}-{rs(r, 10, 'bcdfghjklmnpqrstvwxz2456789')}-{rs(r, 5, 'bcdfghjklmnpqrstvwxz2456789')}"
    ),
)
look(
    "account_identifier",
    "account ids (AWS account, Stripe `acct_`, Slack team, Cloudflare account)",
    ["account id", "AWS account"],
    "ACCOUNT_ID",
    lambda r: r.choice([rs(r, 12, DG), "acct_1" + rs(r, 15), "T" + rs(r, 10, AUP), rs(r, 32, HEX)]),
)
look(
    "oauth_client_id",
    "OAuth client ids (Google, GitHub App, Entra)",
    "client id",
    "CLIENT_ID",
    lambda r: r.choice(
        [f"{rs(r, 12, DG)}-{rs(r, 32, ALO)}.apps.googleusercontent.com", "Iv1." + rs(r, 16, HEX), uuid4(r)]
    ),
)
look("tenant_id", "Entra directory (tenant) ids", "tenant id", "TENANT_ID", uuid4)
look(
    "analytics_id",
    "GA4, GTM, UA and Meta pixel ids",
    "analytics id",
    "ANALYTICS_ID",
    lambda r: r.choice(["G-" + rs(r, 10, AUP), "GTM-" + rs(r, 7, AUP), f"UA-{rs(r, 8, DG)}-1", rs(r, 16, DG)]),
)
look(
    "sentry_dsn",
    "Sentry DSNs (public by design)",
    "Sentry DSN",
    "SENTRY_DSN",
    lambda r: f"https://{rs(r, 32, HEX)}@o{rs(r, 6, DG)}.ingest.sentry.io/{rs(r, 7, DG)}",
)
look(
    "public_site_key",
    "reCAPTCHA and Turnstile site keys",
    "site key",
    "SITE_KEY",
    lambda r: "6L" + rs(r, 38, B64U) if r.random() < 0.5 else "0x4AAAAAAA" + rs(r, 14, B64U),
)
look(
    "mapbox_public_token",
    "Mapbox `pk.` public tokens",
    "Mapbox public token",
    "MAPBOX_TOKEN",
    lambda r: (
        "pk."
        + b64u(json.dumps({"u": r.choice(NAMES), "a": rs(r, 25, ALO)}, separators=(",", ":")).encode())
        + "."
        + rs(r, 22, B64U)
    ),
)
look(
    "publishable_anon_key",
    "Supabase anon JWTs (real HS256 signature) and `sb_publishable_` keys",
    "Supabase anon key",
    "SUPABASE_ANON_KEY",
    g_anon_jwt,
)
look(
    "public_client_key",
    "client-side keys: PostHog `phc_`, Clerk `pk_live_`, Langfuse `pk-lf-`",
    "public client key",
    "PUBLIC_KEY",
    lambda r: r.choice(
        [
            "phc_" + rs(r, 43),
            "pk_live_" + b64(("clerk." + r.choice(DOMAINS) + "$").encode()).rstrip("="),
            "pk-lf-" + uuid4(r),
        ]
    ),
)
look(
    "encrypted_value",
    "SOPS `ENC[...]`, Vault transit, sealed-secret ciphertexts",
    "encrypted value",
    "ENCRYPTED",
    g_enc_value,
)
look(
    "content_hashed_filename",
    "content-hashed asset file names",
    "bundle",
    "ASSET",
    lambda r: f"{r.choice(['main', 'vendor', 'app', 'runtime'])}.{rs(r, 8, HEX)}.{r.choice(['js', 'css', 'chunk.js'])}",
)
look(
    "payment_object_id",
    "Stripe object ids (`cus_`, `pi_`, `sub_`, `ch_`)",
    "payment object",
    "STRIPE_OBJECT",
    lambda r: r.choice(["cus_", "pi_3", "sub_1", "ch_3", "in_1"]) + rs(r, 14 if r.random() < 0.5 else 24),
)
look(
    "serial_number",
    "device serial numbers and asset tags",
    ["serial number", "asset tag"],
    "SERIAL",
    lambda r: r.choice([rs(r, 12, AUP), "SN-" + rs(r, 10, DG), "C02" + rs(r, 9, AUP)]),
)
look("tx_hash", "transaction hashes", "transaction hash", "TX_HASH", T("0x", (64, HEX)))
look(
    "short_id",
    "video ids and short-link codes inside links",
    "video link",
    "LINK",
    lambda r: r.choice(
        [
            "https://youtu.be/" + rs(r, 11, B64U),
            "https://bit.ly/" + rs(r, 7),
            "https://www.loom.com/share/" + rs(r, 32, HEX),
        ]
    ),
)
look(
    "document_id",
    "Google Docs / Sheets ids inside links",
    "doc link",
    "DOC_URL",
    lambda r: f"https://docs.google.com/{r.choice(['document', 'spreadsheets'])}/d/1{rs(r, 43, B64U)}/edit",
)
look(
    "long_identifier",
    "long identifiers (test, flag and class names)",
    ["flag", "test name"],
    "FLAG",
    lambda r: r.choice(
        [
            "test_" + "_".join(r.sample(PW_WORDS, 5)),
            "enableNewCheckoutFlowForBetaUsersInRegion" + rs(r, 2, UP),
            "AbstractSingletonProxyFactoryBean" + rs(r, 3, DG),
        ]
    ),
)
look(
    "key_identifier",
    "key ids: KMS key ids, JWT `kid`, GPG long ids, Apple key ids",
    "key id",
    "KEY_ID",
    lambda r: r.choice([uuid4(r), rs(r, 16, HEXU), rs(r, 10, AUP), "mrk-" + rs(r, 32, HEX)]),
)


# ---------------------------------------------------------------- languages and phrasings

EN_PHRASES = [
    "The {L} is {V}.",
    "{L}: {V}",
    "Use {V} as the {L}.",
    "Heads up, the {L} changed to {V} this morning.",
    "I rotated the {L}; the new one is {V}.",
    "For the record, {L} = {V}",
    "{V} is the {L}, don't lose it.",
    "Remember: {L} -> {V}",
    "Set the {L} to {V} before running the job.",
    "The current {L} is {V} (expires next quarter).",
    "Pasting the {L} here so I stop asking: {V}",
    "Jenny sent the {L} over chat, it's {V}.",
    "If it fails again, try the {L} {V}.",
    "We are still on the old {L}, {V}, until the migration.",
    "Logged in with {V} as the {L}.",
    "Note to self: {L} is {V}",
    "{L} (prod): {V}",
    "The vendor gave us {V} as our {L}.",
    "Temporary {L}, valid for today only: {V}",
    "Can you double-check the {L}? I have {V} on my side.",
    "The {L} in the shared vault is {V}.",
    "Found the {L} in the old wiki: {V}",
    "Fallback {L} if SSO is down: {V}",
    "After the reset the {L} became {V}.",
    "Please store {V} somewhere safer, it's the {L}.",
    "- {L}: `{V}`",
    "The {L} we agreed on is {V}.",
    "My {L} is {V}.",
    "Our {L} = {V}, same as staging.",
    "I generated a fresh {L}: {V}",
    "Ops confirmed the {L} works: {V}",
    "The {L} for the demo account: {V}",
    "FYI the {L} has been updated to {V}.",
    "Try {V}, that's the {L} Marco set up.",
    "{L} => {V}",
    "Copy the {L} ({V}) into the CI settings.",
    "The {L} that works for me is {V}.",
    "Old {L} was revoked, replacement is {V}.",
    "Keep the {L} handy: {V}",
    "When prompted for the {L}, enter {V}.",
    "Here's the {L} you asked for: {V}",
    "The {L} printed by the installer was {V}.",
    "Stored the {L} as {V} in my notes.",
    "In case I forget, the {L} is {V}.",
    "Per the handover, the {L} is {V}.",
    "The test run uses {V} for the {L}.",
    "Don't commit this: {L} {V}",
    "The support agent read out the {L}: {V}.",
    "{L} -- {V}",
    "Our {L} lives here for now: {V}",
    "Rotated again, {L} now {V}.",
    "Plug {V} into the {L} field.",
    "Reminder that the {L} is {V}, tell the team.",
    "The {L} (copied from the dashboard) is {V}.",
    "user asked me to remember the {L}: {V}",
    'Got the {L} from Priya: "{V}"',
]
EN_BLOCK = ["{L}:\n{V}", "{L}\n{V}", "You can find the {L} below:\n{V}", "Here is the {L}, paste it as is:\n\n{V}\n"]

L10N: dict[str, dict[str, list[str]]] = {
    "en": {
        "phr": EN_PHRASES,
        "block": EN_BLOCK,
        "fill": [
            "Deploy went out at 14:10, no errors so far.",
            "Still need to write the migration for the orders table.",
            "Ask the team lead about the on-call rota for next week.",
            "The staging cluster was rebuilt yesterday.",
            "Logs are shipped to the central stack now.",
            "Keep the retry limit at three for the importer.",
            "The user prefers short answers and metric units.",
            "Backups run nightly at 02:00 UTC.",
        ],
        "cmt": [
            "credentials for the staging stack",
            "TODO move these to the secret manager",
            "do not commit real values",
            "local development settings",
            "copied from the old server",
        ],
        "title": ["Notes", "Memory", "Setup"],
    },
    "es": {
        "phr": [
            "El valor de {L} es {V}.",
            "{L}: {V}",
            "Usa {V} como {L}.",
            "He rotado {L}; el nuevo es {V}.",
            "Apunto aquí {L} para no olvidarlo: {V}",
            "Si vuelve a fallar, prueba con {L} {V}.",
            "Nota: {L} = {V}",
            "Te paso {L}, no lo compartas: {V}",
        ],
        "block": ["{L}:\n{V}", "{L} (copiar tal cual):\n{V}"],
        "fill": [
            "El despliegue salió sin errores.",
            "Falta revisar la migración de pedidos.",
            "Mañana hablamos de las guardias.",
            "El clúster de pruebas se reinstaló ayer.",
        ],
        "cmt": ["credenciales del entorno de pruebas", "pendiente: mover al gestor de secretos", "configuración local"],
        "title": ["Notas", "Memoria"],
    },
    "de": {
        "phr": [
            "Der Wert für {L} ist {V}.",
            "{L}: {V}",
            "Bitte {V} als {L} verwenden.",
            "Ich habe {L} rotiert, neu ist {V}.",
            "Notiz an mich: {L} = {V}",
            "Falls es wieder hakt, {L} {V} probieren.",
            "Hier ist {L}, nicht weitergeben: {V}",
            "Laut Übergabe lautet {L} {V}.",
        ],
        "block": ["{L}:\n{V}", "{L} (unverändert einfügen):\n{V}"],
        "fill": [
            "Das Deployment lief ohne Fehler durch.",
            "Die Migration für die Bestelltabelle fehlt noch.",
            "Rufbereitschaft nächste Woche klären.",
            "Der Staging-Cluster wurde gestern neu aufgesetzt.",
        ],
        "cmt": ["Zugangsdaten für Staging", "TODO: in den Secret Manager verschieben", "lokale Entwicklungsumgebung"],
        "title": ["Notizen", "Gedächtnis"],
    },
    "fr": {
        "phr": [
            "La valeur de {L} est {V}.",
            "{L} : {V}",
            "Utilise {V} comme {L}.",
            "J'ai changé {L}, la nouvelle valeur est {V}.",
            "Pense-bête : {L} = {V}",
            "Si ça plante encore, essaie {L} {V}.",
            "Voici {L}, ne pas partager : {V}",
            "D'après la passation, {L} vaut {V}.",
        ],
        "block": ["{L} :\n{V}", "{L} (à coller tel quel) :\n{V}"],
        "fill": [
            "Le déploiement s'est bien passé.",
            "Il reste la migration de la table des commandes.",
            "Voir l'astreinte de la semaine prochaine.",
            "Le cluster de recette a été réinstallé hier.",
        ],
        "cmt": ["identifiants de recette", "TODO déplacer dans le coffre à secrets", "réglages locaux"],
        "title": ["Notes", "Mémoire"],
    },
    "pt": {
        "phr": [
            "O valor de {L} é {V}.",
            "{L}: {V}",
            "Use {V} como {L}.",
            "Troquei {L}; o novo valor é {V}.",
            "Lembrete: {L} = {V}",
            "Se falhar de novo, tente {L} {V}.",
            "Segue {L}, não compartilhe: {V}",
            "Conforme a passagem de turno, {L} é {V}.",
        ],
        "block": ["{L}:\n{V}", "{L} (colar sem alterar):\n{V}"],
        "fill": [
            "O deploy saiu sem erros.",
            "Falta a migração da tabela de pedidos.",
            "Ver a escala de plantão da próxima semana.",
            "O cluster de homologação foi recriado ontem.",
        ],
        "cmt": ["credenciais de homologação", "TODO mover para o cofre de segredos", "configuração local"],
        "title": ["Notas", "Memória"],
    },
    "it": {
        "phr": [
            "Il valore di {L} è {V}.",
            "{L}: {V}",
            "Usa {V} come {L}.",
            "Ho ruotato {L}, il nuovo valore è {V}.",
            "Promemoria: {L} = {V}",
            "Se fallisce ancora, prova {L} {V}.",
            "Ecco {L}, non condividere: {V}",
            "Dal passaggio di consegne, {L} è {V}.",
        ],
        "block": ["{L}:\n{V}", "{L} (incollare così com'è):\n{V}"],
        "fill": [
            "Il rilascio è andato liscio.",
            "Manca la migrazione della tabella ordini.",
            "Sentire il responsabile per la reperibilità.",
            "Il cluster di collaudo è stato ricreato ieri.",
        ],
        "cmt": ["credenziali di collaudo", "TODO spostare nel gestore dei segreti", "impostazioni locali"],
        "title": ["Appunti", "Memoria"],
    },
    "nl": {
        "phr": [
            "De waarde van {L} is {V}.",
            "{L}: {V}",
            "Gebruik {V} als {L}.",
            "Ik heb {L} vernieuwd, de nieuwe is {V}.",
            "Geheugensteun: {L} = {V}",
            "Als het weer misgaat, probeer {L} {V}.",
            "Hier is {L}, niet delen: {V}",
            "Volgens de overdracht is {L} {V}.",
        ],
        "block": ["{L}:\n{V}", "{L} (zo plakken):\n{V}"],
        "fill": [
            "De uitrol ging zonder fouten.",
            "De migratie van de ordertabel moet nog.",
            "Wachtdienst van volgende week nog regelen.",
            "Het testcluster is gisteren opnieuw opgebouwd.",
        ],
        "cmt": ["inloggegevens voor de testomgeving", "TODO naar de secret manager verplaatsen", "lokale instellingen"],
        "title": ["Aantekeningen", "Geheugen"],
    },
    "ja": {
        "phr": [
            "{L}は{V}です。",
            "{L}：{V}",
            "{L}として{V}を使ってください。",
            "{L}を更新しました。新しい値は{V}です。",
            "メモ: {L} = {V}",
            "またエラーが出たら{L} {V}を試して。",
            "{L}（共有禁止）: {V}",
            "引き継ぎによると{L}は {V} です。",
        ],
        "block": ["{L}：\n{V}", "{L}（そのまま貼り付け）\n{V}"],
        "fill": [
            "デプロイはエラーなしで完了。",
            "注文テーブルのマイグレーションがまだ残っている。",
            "来週の当番を確認する。",
            "ステージング環境は昨日作り直した。",
        ],
        "cmt": ["ステージング用の認証情報", "TODO シークレットマネージャーへ移す", "ローカル開発用の設定"],
        "title": ["メモ", "記憶"],
    },
    "zh": {
        "phr": [
            "{L}是{V}。",
            "{L}：{V}",
            "请用{V}作为{L}。",
            "{L}已轮换，新的是{V}。",
            "备忘：{L} = {V}",
            "如果还失败，试试{L} {V}。",
            "{L}（不要外传）：{V}",
            "按交接文档，{L}是 {V} 。",
        ],
        "block": ["{L}：\n{V}", "{L}（原样粘贴）\n{V}"],
        "fill": [
            "部署顺利完成，没有报错。",
            "订单表的迁移还没写。",
            "下周的值班表要确认一下。",
            "测试集群昨天重建了。",
        ],
        "cmt": ["测试环境的凭据", "TODO 迁移到密钥管理服务", "本地开发配置"],
        "title": ["笔记", "记忆"],
    },
}
OTHER_LANGS = ["es", "de", "fr", "pt", "it", "nl", "ja", "zh"]
PHRASE_USE: dict[tuple[str, str], int] = {}


# ---------------------------------------------------------------- document builder and escapers


@dataclass
class Span:
    start: int
    end: int
    kind: str
    secret: bool
    value: str
    raw: str


class Doc:
    def __init__(self) -> None:
        self.buf: list[str] = []
        self.pos = 0
        self.spans: list[Span] = []

    def t(self, s: str) -> None:
        self.buf.append(s)
        self.pos += len(s)

    def parts(self, item: Item, esc: Callable[[str], str] = lambda s: s) -> None:
        for p in item.parts:
            if isinstance(p, str):
                self.t(esc(p))
            else:
                e = esc(p.text)
                self.spans.append(Span(self.pos, self.pos + len(e), p.kind, p.secret, e, p.text))
                self.t(e)

    def text(self) -> str:
        return "".join(self.buf)


def e_json(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)[1:-1]


def e_kt(s: str) -> str:
    return e_json(s).replace("$", "\\$")


def e_shell(s: str) -> str:
    return s.replace("'", "'\\''")


def e_dq(s: str) -> str:
    return s.replace("'", "''")


def e_sqbs(s: str) -> str:
    return s.replace("\\", "\\\\").replace("'", "\\'")


def e_repr(s: str) -> str:
    return e_sqbs(s).replace("\n", "\\n")


def e_xml(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def e_hcl(s: str) -> str:
    return e_json(s).replace("${", "$${").replace("%{", "%%{")


def e_props(s: str) -> str:
    return s.replace("\\", "\\\\").replace("\n", "\\n")


def e_md(s: str) -> str:
    return s.replace("|", "\\|")


def e_csv(s: str) -> str:
    return s.replace('"', '""')


def e_diff(s: str) -> str:
    return s.replace("\n", "\n+")


def e_indent(n: int) -> Callable[[str], str]:
    return lambda s: s.replace("\n", "\n" + " " * n)


def ident(name: str, style: str) -> str:
    words = name.lower().split("_")
    if style == "snake":
        return name.lower()
    if style == "camel":
        return words[0] + "".join(w.title() for w in words[1:])
    if style == "pascal":
        return "".join(w.title() for w in words)
    if style == "kebab":
        return "-".join(words)
    if style == "dot":
        return ".".join(words)
    return name


def dedupe(items: list[Item]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for it in items:
        seen[it.name] = seen.get(it.name, 0) + 1
        out.append(it.name if seen[it.name] == 1 else f"{it.name}_{seen[it.name]}")
    return out


def date(r: random.Random) -> str:
    return f"2025-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"


def hhmm(r: random.Random) -> str:
    return f"{r.randint(7, 22):02d}:{r.randint(0, 59):02d}"


def cmt(lang: str, r: random.Random) -> str:
    return r.choice(L10N[lang]["cmt"])


def fill(lang: str, r: random.Random) -> str:
    return r.choice(L10N[lang]["fill"])


def phrase(doc: Doc, it: Item, lang: str, r: random.Random) -> None:
    key = "block" if "\n" in it.raw or r.random() < 0.12 else "phr"
    pool = L10N[lang][key]
    idx = r.randrange(len(pool))
    PHRASE_USE[(lang, f"{key}{idx}")] = PHRASE_USE.get((lang, f"{key}{idx}"), 0) + 1
    pre, post = pool[idx].split("{V}")
    doc.t(pre.replace("{L}", it.label))
    doc.parts(it)
    doc.t(post.replace("{L}", it.label))


# ---------------------------------------------------------------- renderers: narrative

NARRATIVE: dict[str, tuple[Callable, Callable]] = {}


def narrative(
    name: str,
    head: Callable[[random.Random, str], str],
    prefix: Callable[[random.Random, int], str],
    tail: Callable[[random.Random, str], str] = lambda r, lang: "",
) -> None:
    NARRATIVE[name] = (head, prefix)

    def render(doc: Doc, items: list[Item], lang: str, r: random.Random) -> None:
        doc.t(head(r, lang))
        for i, it in enumerate(items):
            if r.random() < 0.45:
                doc.t(prefix(r, i) + fill(lang, r) + "\n")
            doc.t(prefix(r, i))
            phrase(doc, it, lang, r)
            doc.t("\n")
        if r.random() < 0.5:
            doc.t(fill(lang, r) + "\n")
        doc.t(tail(r, lang))

    RENDER[name] = (render, "narrative", True)


RENDER: dict[str, tuple[Callable, str, bool]] = {}


def title(lang: str, r: random.Random) -> str:
    return r.choice(L10N[lang]["title"])


narrative("dev_notes", lambda r, lang: f"# {title(lang, r)}: {r.choice(PROJECTS)}\n\n", lambda r, i: "- ")
narrative("assistant_memory", lambda r, lang: f"## {title(lang, r)} (assistant)\n\n", lambda r, i: f"- [{date(r)}] ")
narrative("chat_log", lambda r, lang: f"#{r.choice(PROJECTS)}-dev\n", lambda r, i: f"[{hhmm(r)}] {r.choice(NAMES)}: ")
narrative("runbook", lambda r, lang: f"# Runbook: {r.choice(PROJECTS)} failover\n\n", lambda r, i: f"{i + 1}. ")
narrative(
    "incident_note",
    lambda r, lang: f"INC-{r.randint(1000, 9999)} {r.choice(PROJECTS)} degraded\nTimeline (UTC)\n",
    lambda r, i: f"{hhmm(r)} ",
)
narrative(
    "email",
    lambda r, lang: (
        f"From: {r.choice(NAMES)}@{r.choice(DOMAINS)}\nTo: {r.choice(NAMES)}@{r.choice(DOMAINS)}\nSubject: {r.choice(PROJECTS)} access\n\nHi {r.choice(NAMES).title()},\n\n"
    ),
    lambda r, i: "",
    lambda r, lang: f"\nThanks,\n{r.choice(NAMES).title()}\n",
)
narrative(
    "ticket",
    lambda r, lang: (
        f"[{r.choice(['OPS', 'SUP', 'DEV', 'IT'])}-{r.randint(100, 9999)}] {r.choice(PROJECTS)}: access problem\nStatus: In progress\nAssignee: {r.choice(NAMES)}\n\n"
    ),
    lambda r, i: "",
)
narrative(
    "meeting_notes",
    lambda r, lang: f"Meeting {date(r)}\nAttendees: {', '.join(r.sample(NAMES, 3))}\n\n",
    lambda r, i: "* ",
)
narrative("account_notes", lambda r, lang: f"{title(lang, r)}: accounts\n\n", lambda r, i: "")
narrative(
    "device_notes", lambda r, lang: f"{title(lang, r)}: home network & devices\n\n", lambda r, i: r.choice(["", "- "])
)
narrative("todo_list", lambda r, lang: f"TODO {date(r)}\n", lambda r, i: r.choice(["- [ ] ", "- [x] "]))
narrative("handover", lambda r, lang: f"Handover {r.choice(PROJECTS)} -> {r.choice(NAMES)}\n\n", lambda r, i: "")
narrative("text_messages", lambda r, lang: "", lambda r, i: f"{r.choice(NAMES).title()} ({hhmm(r)}): ")
narrative("wiki_page", lambda r, lang: f"= {r.choice(PROJECTS)} =\n\n", lambda r, i: "")
narrative("journal", lambda r, lang: f"{date(r)}\n\n", lambda r, i: "")
narrative(
    "code_review", lambda r, lang: f"Review of PR #{r.randint(10, 4000)}\n\n", lambda r, i: f"> {r.choice(NAMES)}: "
)


# ---------------------------------------------------------------- renderers: tool output


def r_terminal(doc: Doc, items: list[Item], lang: str, r: random.Random) -> None:
    doc.t(f"{r.choice(NAMES)}@{r.choice(['laptop', 'build-01', 'bastion'])}:~/{r.choice(PROJECTS)}$ # {cmt(lang, r)}\n")
    for it in items:
        is_secret = any(isinstance(p, Val) and p.secret for p in it.parts)
        form = r.randrange(5) if is_secret else r.choice([0, 3, 4])
        if form == 0:
            doc.t(f"$ export {it.name}='")
            doc.parts(it, e_shell)
            doc.t("'\n")
        elif form == 1:
            doc.t(f"$ ./bin/{r.choice(PROJECTS)} deploy --{ident(it.name, 'kebab')} '")
            doc.parts(it, e_shell)
            doc.t("' --region eu-west-1\n")
        elif form == 2:
            doc.t("$ curl -s -H 'X-Api-Key: ")
            doc.parts(it, e_shell)
            doc.t(f"' https://api.{r.choice(DOMAINS)}/v1/status\n")
        elif form == 3:
            doc.t(f"$ cat .env | grep {it.name}\n{it.name}=")
            doc.parts(it)
            doc.t("\n")
        else:
            doc.t(f"$ {r.choice(PROJECTS)} config get {ident(it.name, 'dot')}\n")
            doc.parts(it)
            doc.t("\n")
    doc.t("$ \n")


def r_shell_history(doc: Doc, items: list[Item], lang: str, r: random.Random) -> None:
    n = r.randint(100, 900)
    doc.t(f"{n:5d}  cd ~/src/{r.choice(PROJECTS)}\n")
    for it in items:
        n += r.randint(1, 4)
        form = r.randrange(3)
        if form == 0:
            doc.t(f"{n:5d}  export {it.name}='")
            doc.parts(it, e_shell)
            doc.t("'\n")
        elif form == 1:
            doc.t(
                f"{n:5d}  {r.choice(['mytool', 'kubectl', 'ansible-playbook', 'node scripts/seed.js'])} --{ident(it.name, 'kebab')}='"
            )
            doc.parts(it, e_shell)
            doc.t("'\n")
        else:
            doc.t(f"{n:5d}  echo '")
            doc.parts(it, e_shell)
            doc.t(f"' > ~/.{ident(it.name, 'snake')}\n")
    doc.t(f"{n + 1:5d}  history | tail\n")


def ts(r: random.Random) -> str:
    return f"{date(r)}T{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}.{r.randint(0, 999):03d}Z"


def r_app_log(doc: Doc, items: list[Item], lang: str, r: random.Random) -> None:
    svc = r.choice(PROJECTS)
    doc.t(f"{ts(r)} INFO  [{svc}] starting worker pid={r.randint(100, 40000)}\n")
    for it in items:
        doc.t(f'{ts(r)} {r.choice(["DEBUG", "INFO ", "WARN "])} [{svc}] config loaded {ident(it.name, "snake")}="')
        doc.parts(it, e_json)
        doc.t(f'" source={r.choice(["env", "file", "vault"])}\n')
    doc.t(f"{ts(r)} ERROR [{svc}] {fill('en', r)}\n")


def r_json_log(doc: Doc, items: list[Item], lang: str, r: random.Random) -> None:
    for it in items:
        doc.t(
            f'{{"ts":"{ts(r)}","level":"debug","svc":"{r.choice(PROJECTS)}","msg":"outbound request","{ident(it.name, "snake")}":"'
        )
        doc.parts(it, e_json)
        doc.t('"}\n')


def r_ci_log(doc: Doc, items: list[Item], lang: str, r: random.Random) -> None:
    doc.t(f"{ts(r)} ##[group]Run ./scripts/deploy.sh\n")
    for it in items:
        doc.t(f"{ts(r)} + {r.choice(['export', 'echo'])} {it.name}='")
        doc.parts(it, e_shell)
        doc.t("'\n")
    doc.t(f"{ts(r)} ##[endgroup]\n{ts(r)} Error: Process completed with exit code 1.\n")


def r_stack_trace(doc: Doc, items: list[Item], lang: str, r: random.Random) -> None:
    doc.t(
        f'Traceback (most recent call last):\n  File "/srv/{r.choice(PROJECTS)}/main.py", line {r.randint(10, 300)}, in <module>\n    client = connect(**settings)\n'
    )
    doc.t(
        f'  File "/srv/{r.choice(PROJECTS)}/db.py", line {r.randint(10, 300)}, in connect\n    raise ConnectionError(settings)\nConnectionError: {{'
    )
    for i, it in enumerate(items):
        doc.t(("" if i == 0 else ", ") + f"'{ident(it.name, 'snake')}': '")
        doc.parts(it, e_repr)
        doc.t("'")
    doc.t("}\n")


def r_http(doc: Doc, items: list[Item], lang: str, r: random.Random) -> None:
    doc.t(f"> POST /v2/{r.choice(PROJECTS)}/sync HTTP/1.1\n> Host: api.{r.choice(DOMAINS)}\n")
    for it in items:
        doc.t("> X-" + "-".join(w.title() for w in it.name.split("_")) + ": ")
        doc.parts(it)
        doc.t("\n")
    doc.t(
        f">\n< HTTP/1.1 {r.choice(['401 Unauthorized', '200 OK', '403 Forbidden'])}\n< content-type: application/json\n"
    )


def r_git_diff(doc: Doc, items: list[Item], lang: str, r: random.Random) -> None:
    f = r.choice(["config/.env.production", "deploy/settings.env", ".env"])
    doc.t(
        f"diff --git a/{f} b/{f}\nindex {rs(r, 7, HEX)}..{rs(r, 7, HEX)} 100644\n--- a/{f}\n+++ b/{f}\n@@ -1,3 +1,{3 + len(items)} @@\n LOG_LEVEL=info\n+# {cmt(lang, r)}\n"
    )
    for it in items:
        doc.t(f"+{it.name}=")
        doc.parts(it, e_diff)
        doc.t("\n")
    doc.t(" PORT=8080\n")


RENDER["terminal"] = (r_terminal, "tool", False)
RENDER["shell_history"] = (r_shell_history, "tool", False)
RENDER["app_log"] = (r_app_log, "tool", True)
RENDER["json_log"] = (r_json_log, "tool", True)
RENDER["ci_log"] = (r_ci_log, "tool", False)
RENDER["stack_trace"] = (r_stack_trace, "tool", True)
RENDER["http_dump"] = (r_http, "tool", False)
RENDER["git_diff"] = (r_git_diff, "tool", True)


# ---------------------------------------------------------------- renderers: structured


def simple_env(s: str) -> bool:
    return all(c.isalnum() or c in "_-./:@+=" for c in s)


def r_dotenv(doc: Doc, items: list[Item], lang: str, r: random.Random) -> None:
    doc.t(f"# {cmt(lang, r)}\nNODE_ENV=production\n")
    for it, name in zip(items, dedupe(items), strict=True):
        raw = it.raw
        doc.t(f"{name}=")
        if "\n" in raw or ("'" in raw and not simple_env(raw)):
            doc.t('"')
            doc.parts(it, e_json)
            doc.t('"\n')
        elif simple_env(raw) and r.random() < 0.6:
            doc.parts(it)
            doc.t("\n")
        else:
            doc.t("'")
            doc.parts(it)
            doc.t("'\n")


def r_json(doc: Doc, items: list[Item], lang: str, r: random.Random) -> None:
    doc.t('{\n  "_comment": ' + json.dumps(cmt(lang, r), ensure_ascii=False) + f',\n  "{r.choice(PROJECTS)}": {{\n')
    names = dedupe(items)
    for i, (it, name) in enumerate(zip(items, names, strict=True)):
        doc.t(f'    "{ident(name, "snake")}": "')
        doc.parts(it, e_json)
        doc.t('"' + ("," if i < len(items) - 1 else "") + "\n")
    doc.t("  }\n}\n")


def yaml_value(doc: Doc, it: Item, indent: int) -> None:
    if "\n" in it.raw:
        doc.t("|\n" + " " * indent)
        doc.parts(it, e_indent(indent))
        doc.t("\n")
    else:
        doc.t('"')
        doc.parts(it, e_json)
        doc.t('"\n')


def r_yaml(doc: Doc, items: list[Item], lang: str, r: random.Random) -> None:
    doc.t(f"# {cmt(lang, r)}\n{r.choice(PROJECTS).replace('-', '_')}:\n  enabled: true\n")
    for it, name in zip(items, dedupe(items), strict=True):
        doc.t(f"  {ident(name, 'snake')}: ")
        yaml_value(doc, it, 4)


def r_compose(doc: Doc, items: list[Item], lang: str, r: random.Random) -> None:
    doc.t(
        f"# {cmt(lang, r)}\nservices:\n  app:\n    image: ghcr.io/acme/{r.choice(PROJECTS)}:latest\n    environment:\n"
    )
    for it, name in zip(items, dedupe(items), strict=True):
        doc.t(f"      {name}: ")
        yaml_value(doc, it, 8)
    doc.t('    ports:\n      - "8080:8080"\n')


def r_k8s(doc: Doc, items: list[Item], lang: str, r: random.Random) -> None:
    doc.t(
        f"# {cmt(lang, r)}\napiVersion: v1\nkind: Secret\nmetadata:\n  name: {r.choice(PROJECTS)}-secrets\ntype: Opaque\nstringData:\n"
    )
    for it, name in zip(items, dedupe(items), strict=True):
        doc.t(f"  {ident(name, 'kebab')}: ")
        yaml_value(doc, it, 4)


def r_gha(doc: Doc, items: list[Item], lang: str, r: random.Random) -> None:
    doc.t(f"# {cmt(lang, r)}\nname: deploy\non: [push]\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    env:\n")
    for it, name in zip(items, dedupe(items), strict=True):
        doc.t(f"      {name}: ")
        yaml_value(doc, it, 8)
    doc.t("    steps:\n      - uses: actions/checkout@v4\n      - run: ./deploy.sh\n")


def r_toml(doc: Doc, items: list[Item], lang: str, r: random.Random) -> None:
    doc.t(f"# {cmt(lang, r)}\n[{r.choice(PROJECTS).replace('-', '_')}]\n")
    for it, name in zip(items, dedupe(items), strict=True):
        doc.t(f'{ident(name, "snake")} = "')
        doc.parts(it, e_json)
        doc.t('"\n')


def r_ini(doc: Doc, items: list[Item], lang: str, r: random.Random) -> None:
    doc.t(f"; {cmt(lang, r)}\n[{r.choice(PROJECTS)}]\n")
    for it, name in zip(items, dedupe(items), strict=True):
        doc.t(f"{ident(name, 'snake')} = ")
        doc.parts(it)
        doc.t("\n")


def r_props(doc: Doc, items: list[Item], lang: str, r: random.Random) -> None:
    doc.t(f"# {cmt(lang, r)}\n")
    pre = r.choice(["app", "spring.datasource", "service"])
    for it, name in zip(items, dedupe(items), strict=True):
        doc.t(f"{pre}.{ident(name, 'dot')}=")
        doc.parts(it, e_props)
        doc.t("\n")


def r_xml(doc: Doc, items: list[Item], lang: str, r: random.Random) -> None:
    doc.t(f'<?xml version="1.0" encoding="utf-8"?>\n<!-- {cmt(lang, r)} -->\n<configuration>\n  <appSettings>\n')
    for it, name in zip(items, dedupe(items), strict=True):
        if "\n" in it.raw or r.random() < 0.5:
            doc.t(f"    <{ident(name, 'pascal')}>")
            doc.parts(it, e_xml)
            doc.t(f"</{ident(name, 'pascal')}>\n")
        else:
            doc.t(f'    <add key="{ident(name, "pascal")}" value="')
            doc.parts(it, e_xml)
            doc.t('" />\n')
    doc.t("  </appSettings>\n</configuration>\n")


def r_terraform(doc: Doc, items: list[Item], lang: str, r: random.Random) -> None:
    doc.t(f"# {cmt(lang, r)}\nlocals {{\n")
    for it, name in zip(items, dedupe(items), strict=True):
        doc.t(f'  {ident(name, "snake")} = "')
        doc.parts(it, e_hcl)
        doc.t('"\n')
    doc.t("}\n")


def r_dockerfile(doc: Doc, items: list[Item], lang: str, r: random.Random) -> None:
    doc.t(f"FROM python:3.12-slim\n# {cmt(lang, r)}\nWORKDIR /app\n")
    for it, name in zip(items, dedupe(items), strict=True):
        doc.t(f'{r.choice(["ENV", "ARG"])} {name}="')
        doc.parts(it, e_json)
        doc.t('"\n')
    doc.t('COPY . .\nCMD ["python", "-m", "app"]\n')


def r_csv(doc: Doc, items: list[Item], lang: str, r: random.Random) -> None:
    doc.t("service,username,secret,notes\n")
    for it in items:
        doc.t(f'"{it.label}",{r.choice(NAMES)},"')
        doc.parts(it, e_csv)
        doc.t(f'","{e_csv(cmt(lang, r))}"\n')


def r_md_table(doc: Doc, items: list[Item], lang: str, r: random.Random) -> None:
    doc.t(f"{cmt(lang, r)}\n\n| what | name | value | updated |\n| --- | --- | --- | --- |\n")
    for it in items:
        tick = r.choice(["", "`"])
        doc.t(f"| {e_md(it.label)} | `{it.name}` | {tick}")
        doc.parts(it, e_md)
        doc.t(f"{tick} | {date(r)} |\n")


for _n, _f, _ml in [
    ("dotenv", r_dotenv, True),
    ("json_config", r_json, True),
    ("yaml_config", r_yaml, True),
    ("docker_compose", r_compose, True),
    ("kubernetes", r_k8s, True),
    ("github_actions", r_gha, False),
    ("toml", r_toml, True),
    ("ini", r_ini, False),
    ("properties", r_props, True),
    ("xml_config", r_xml, True),
    ("terraform", r_terraform, True),
    ("dockerfile", r_dockerfile, False),
    ("csv", r_csv, True),
    ("markdown_table", r_md_table, False),
]:
    RENDER[_n] = (_f, "structured", _ml)


# ---------------------------------------------------------------- renderers: code


def code(  # noqa: PLR0917
    name: str,
    head: str,
    tail: str,
    cprefix: str,
    patterns: list[tuple[str, str]],
    esc: Callable[[str], str],
    style: str,
    indent: str = "",
) -> None:
    def render(doc: Doc, items: list[Item], lang: str, r: random.Random) -> None:
        doc.t(head.replace("{proj}", r.choice(PROJECTS).replace("-", "_")))
        doc.t(f"{indent}{cprefix} {cmt(lang, r)}\n")
        for it, nm in zip(items, dedupe(items), strict=True):
            pre, post = r.choice(patterns)
            rep = {"{N}": ident(nm, style), "{NAME}": nm, "{snake}": ident(nm, "snake"), "{label}": it.label}
            for a, b in rep.items():
                pre, post = pre.replace(a, b), post.replace(a, b)
            doc.t(indent + pre)
            doc.parts(it, esc)
            doc.t(post + "\n")
        doc.t(tail)

    RENDER[name] = (render, "code", True)


code(
    "python",
    "import os\n\n",
    "\n\ndef main() -> None:\n    print('ok')\n",
    "#",
    [('{N} = "', '"'), ('os.environ.setdefault("{NAME}", "', '")'), ('SETTINGS["{snake}"] = "', '"')],
    e_json,
    "UPPER",
)
code(
    "javascript",
    "const axios = require('axios');\n\n",
    "\nmodule.exports = { start };\n",
    "//",
    [('const {N} = "', '";'), ('process.env.{NAME} ??= "', '";')],
    e_json,
    "camel",
)
code(
    "typescript",
    "import { Client } from './client';\n\n",
    "\nexport default Client;\n",
    "//",
    [('export const {N}: string = "', '";'), ('const {N} = "', '" as const;')],
    e_json,
    "camel",
)
code(
    "go",
    "package config\n\n",
    "\nfunc init() {}\n",
    "//",
    [('const {N} = "', '"'), ('var {N} = "', '"')],
    e_json,
    "camel",
)
code(
    "java",
    "package com.acme.{proj};\n\npublic final class Secrets {\n",
    "}\n",
    "//",
    [('private static final String {NAME} = "', '";'), ('static String {N} = "', '";')],
    e_json,
    "camel",
    "    ",
)
code(
    "kotlin",
    "package com.acme.{proj}\n\nobject Config {\n",
    "}\n",
    "//",
    [('const val {NAME} = "', '"'), ('val {N} = "', '"')],
    e_kt,
    "camel",
    "    ",
)
code(
    "csharp",
    "namespace Acme.Config;\n\npublic static class Secrets\n{\n",
    "}\n",
    "//",
    [('public const string {N} = "', '";'), ('internal static readonly string {N} = "', '";')],
    e_json,
    "pascal",
    "    ",
)
code(
    "ruby",
    "require 'net/http'\n\n",
    "\nputs 'configured'\n",
    "#",
    [("{NAME} = '", "'"), ("ENV['{NAME}'] ||= '", "'")],
    e_sqbs,
    "UPPER",
)
code(
    "php",
    "<?php\n\n",
    "\nreturn $config;\n",
    "//",
    [("define('{NAME}', '", "');"), ("$config['{snake}'] = '", "';")],
    e_sqbs,
    "UPPER",
)
code(
    "rust",
    "use std::env;\n\n",
    "\nfn main() {}\n",
    "//",
    [('const {NAME}: &str = "', '";'), ('static {NAME}: &str = "', '";')],
    e_json,
    "UPPER",
)
code(
    "swift",
    "import Foundation\n\nenum Secrets {\n",
    "}\n",
    "//",
    [('static let {N} = "', '"')],
    e_json,
    "camel",
    "    ",
)
code(
    "bash",
    "#!/usr/bin/env bash\nset -euo pipefail\n\n",
    '\n./run.sh "$@"\n',
    "#",
    [("export {NAME}='", "'"), ("{NAME}='", "'")],
    e_shell,
    "UPPER",
)
code(
    "powershell",
    "Set-StrictMode -Version Latest\n\n",
    "\nWrite-Host 'done'\n",
    "#",
    [("$env:{NAME} = '", "'"), ("${N} = '", "'")],
    e_dq,
    "camel",
)
code(
    "sql",
    "BEGIN;\n",
    "COMMIT;\n",
    "--",
    [
        ("INSERT INTO integration_keys (name, secret) VALUES ('{snake}', '", "');"),
        ("UPDATE settings SET value = '", "' WHERE key = '{snake}';"),
    ],
    e_dq,
    "snake",
)
code(
    "c_cpp",
    "#include <stdio.h>\n\n",
    "\nint main(void) { return 0; }\n",
    "//",
    [('#define {NAME} "', '"'), ('static const char *{snake} = "', '";')],
    e_json,
    "UPPER",
)
code(
    "dart",
    "import 'package:http/http.dart' as http;\n\n",
    "\nvoid main() {}\n",
    "//",
    [('const {N} = "', '";'), ('final String {N} = "', '";')],
    e_kt,
    "camel",
)


def r_notebook(doc: Doc, items: list[Item], lang: str, r: random.Random) -> None:
    doc.t(
        '{\n "cells": [\n  {\n   "cell_type": "code",\n   "execution_count": 1,\n   "metadata": {},\n   "outputs": [],\n   "source": [\n'
    )
    doc.t("    " + json.dumps(f"# {cmt(lang, r)}\n", ensure_ascii=False) + ",\n")
    for i, (it, nm) in enumerate(zip(items, dedupe(items), strict=True)):
        doc.t('    "' + e_json(f'{nm} = "'))
        doc.parts(it, lambda s: e_json(e_json(s)))
        doc.t(e_json('"' + ("\n" if i < len(items) - 1 else "")) + '"' + ("," if i < len(items) - 1 else "") + "\n")
    doc.t(
        '   ]\n  }\n ],\n "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},\n "nbformat": 4,\n "nbformat_minor": 5\n}\n'
    )


RENDER["notebook"] = (r_notebook, "code", True)


# ---------------------------------------------------------------- planning

KIND_BY_NAME = {kd.name: kd for kd in KINDS}
N_EXAMPLES = {
    "generic_password": 48,
    "generic_api_key": 36,
    "generic_secret_token": 30,
    "personal_account_password": 24,
    "bearer_token": 24,
    "postgres_password": 22,
    "aws_secret_access_key": 22,
    "github_classic_pat": 20,
    "openai_api_key": 20,
    "rsa_private_key": 16,
    "gcp_service_account_key": 15,
}
HEAVY = {
    "dev_notes": 3.0,
    "assistant_memory": 3.0,
    "chat_log": 2.4,
    "account_notes": 2.2,
    "runbook": 1.8,
    "incident_note": 1.6,
    "email": 1.6,
    "ticket": 1.6,
    "terminal": 1.6,
    "dotenv": 1.8,
    "device_notes": 1.4,
}
PERSONAL_EXTRA = ("csv", "markdown_table", "json_config", "yaml_config")


@dataclass
class Plan:
    ctx: str
    secret: bool = False
    lang: str = "en"
    kinds: list[str] | None = None
    looks: list[str] | None = None


def eligible(cat: str, ctx: str) -> bool:
    _, family, ml = RENDER[ctx]
    if cat == "ml":
        return ml
    if cat == "personal":
        return family == "narrative" or ctx in PERSONAL_EXTRA
    return True


def plan_docs(r: random.Random) -> list[Plan]:
    ctxs = list(RENDER)
    weights = [HEAVY.get(c, 1.3 if RENDER[c][1] == "narrative" else 1.0) for c in ctxs]
    pairs = N_DOCS // 2
    exact = [w * pairs / sum(weights) for w in weights]
    counts = [int(x) for x in exact]
    order = sorted(range(len(ctxs)), key=lambda i: (-(exact[i] - counts[i]), i))
    for i in order[: pairs - sum(counts)]:
        counts[i] += 1
    plans: list[Plan] = []
    for c, n in zip(ctxs, counts, strict=True):
        for j in range(2 * n):
            plans.append(Plan(c, j % 2 == 0, "en", [], []))
    for i, idx in enumerate(sorted(r.sample(range(len(plans)), round(0.32 * len(plans))))):
        plans[idx].lang = OTHER_LANGS[i % len(OTHER_LANGS)]
    by_ctx: dict[str, list[Plan]] = {c: [p for p in plans if p.ctx == c] for c in ctxs}
    sec_docs = {c: [p for p in by_ctx[c] if p.secret] for c in ctxs}
    sec_load = dict.fromkeys(ctxs, 0)
    look_load = dict.fromkeys(ctxs, 0)
    for kd in KINDS:
        n = N_EXAMPLES.get(kd.name, 16) if kd.secret else 32
        cands = [c for c in ctxs if eligible(kd.cat, c)]
        use = dict.fromkeys(cands, 0)
        for _ in range(n):
            if kd.secret:
                ctx = min(cands, key=lambda c: (use[c], sec_load[c] / len(sec_docs[c]), r.random()))
                doc = min(sec_docs[ctx], key=lambda p: (len(p.kinds or []), r.random()))
                assert doc.kinds is not None
                doc.kinds.append(kd.name)
                sec_load[ctx] += 1
            else:
                ctx = min(cands, key=lambda c: (use[c], look_load[c] / len(by_ctx[c]), r.random()))
                doc = min(by_ctx[ctx], key=lambda p: (len(p.looks or []) + (0.5 if p.secret else 0), r.random()))
                assert doc.looks is not None
                doc.looks.append(kd.name)
                look_load[ctx] += 1
            use[ctx] += 1
    for p in plans:
        if p.secret and not p.kinds:
            raise RuntimeError(f"secret document without a secret in {p.ctx}")
        if not p.secret and not p.looks:
            raise RuntimeError(f"empty document in {p.ctx}")
    r.shuffle(plans)
    return plans


# ---------------------------------------------------------------- generation and checks


def occurrences(text: str, sub: str) -> list[int]:
    out, i = [], text.find(sub)
    while i >= 0:
        out.append(i)
        i = text.find(sub, i + 1)
    return out


def doc_ok(text: str, spans: list[Span]) -> bool:
    for s in spans:
        if text[s.start : s.end] != s.value:
            raise AssertionError(f"span mismatch {s}")
        if not s.value or s.value != s.value.strip():
            raise AssertionError(f"empty or padded span {s}")
    ordered = sorted(spans, key=lambda s: s.start)
    for a, b in itertools.pairwise(ordered):
        if b.start < a.end:
            raise AssertionError("overlapping spans")
    secrets = [s for s in spans if s.secret]
    for s in secrets:
        starts = {x.start for x in secrets if x.value == s.value}
        if any(pos not in starts for pos in occurrences(text, s.value)):
            return False
        if s.raw != s.value and len(s.raw) >= 4:
            for pos in occurrences(text, s.raw):
                if not any(x.start <= pos and pos + len(s.raw) <= x.end for x in secrets):
                    return False
    return True


def build(plan: Plan, r: random.Random) -> tuple[str, list[Span]]:
    render = RENDER[plan.ctx][0]
    for _ in range(60):
        groups = [make_items(KIND_BY_NAME[n], r) for n in (plan.kinds or []) + (plan.looks or [])]
        r.shuffle(groups)
        items = [it for g in groups for it in g]
        doc = Doc()
        render(doc, items, plan.lang, r)
        text = doc.text()
        if doc_ok(text, doc.spans):
            return text, sorted(doc.spans, key=lambda s: s.start)
    raise RuntimeError(f"could not build a clean {plan.ctx} document")


def self_test() -> None:
    assert (
        ed25519_public(bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")).hex()
        == "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
    )
    assert (
        x25519(bytes.fromhex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a")).hex()
        == "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"
    )
    assert bech32_encode("a", []) == "a12uel5l"
    assert bech32_encode("a", [], 0x2BC830A3) == "a1lqfn3a"
    assert crc16_xmodem(b"123456789") == 0x31C3
    assert crc24(b"123456789") == 0x21CF02
    head, body, sig = JWT_IO.split(".")
    assert b64u(hmac.new(b"your-256-bit-secret", f"{head}.{body}".encode(), hashlib.sha256).digest()) == sig
    gx, gy = EC_G
    assert (gy * gy - (gx**3 - 3 * gx + EC_B)) % EC_P == 0
    assert ec_mul(EC_N, EC_G) is None
    assert all(luhn_ok(c) for c in TEST_CARDS)
    r = random.Random(1)
    assert cisco7_decode(cisco7(r, "Secr3tPass")) == "Secr3tPass"
    assert all(iban_ok(iban(r)) for _ in range(20))
    assert b58encode(b"\x00\x00\x01") == "112"


# ---------------------------------------------------------------- output


def to_record(i: int, plan: Plan, text: str, spans: list[Span]) -> dict:
    def spans_of(secret: bool) -> list[dict]:
        return [{"kind": s.kind, "value": s.value, "start": s.start, "end": s.end} for s in spans if s.secret == secret]

    return {
        "id": f"{PREFIX}-{i:04d}",
        "context": plan.ctx,
        "text": text,
        "secrets": spans_of(True),
        "lookalikes": spans_of(False),
    }


def verify_record(rec: dict) -> None:
    text = rec["text"]
    both = rec["secrets"] + rec["lookalikes"]
    for lst in (rec["secrets"], rec["lookalikes"]):
        assert [s["start"] for s in lst] == sorted(s["start"] for s in lst)
    for s in both:
        assert text[s["start"] : s["end"]] == s["value"] and s["value"] and s["value"] == s["value"].strip(), rec["id"]
    ordered = sorted(both, key=lambda s: s["start"])
    for a, b in itertools.pairwise(ordered):
        assert b["start"] >= a["end"], rec["id"]
    for s in rec["secrets"]:
        starts = [x["start"] for x in rec["secrets"] if x["value"] == s["value"]]
        assert all(pos in starts for pos in occurrences(text, s["value"])), rec["id"]
    assert both, rec["id"]


def stats(records: list[dict], plans: list[Plan]) -> dict:
    sk: dict[str, list[str]] = {}
    lk: dict[str, list[str]] = {}
    for rec in records:
        for s in rec["secrets"]:
            sk.setdefault(s["kind"], []).append(rec["context"])
        for s in rec["lookalikes"]:
            lk.setdefault(s["kind"], []).append(rec["context"])
    langs: dict[str, int] = {}
    for p in plans:
        langs[p.lang] = langs.get(p.lang, 0) + 1
    return {"sk": sk, "lk": lk, "langs": langs}


def check_totals(records: list[dict], st: dict) -> None:
    n = len(records)
    with_secret = sum(1 for rec in records if rec["secrets"])
    assert 0.45 <= with_secret / n <= 0.55
    assert len({rec["id"] for rec in records}) == n
    sk, lk = st["sk"], st["lk"]
    assert len(sk) >= 150, len(sk)
    for kind, ctxs in sk.items():
        assert len(ctxs) >= 15 and len(set(ctxs)) >= 8, (kind, len(ctxs), len(set(ctxs)))
    common = sum(1 for kname in sk if FMT[kname][0])
    assert common / len(sk) >= 0.65 and len(sk) - common >= 25
    assert len(lk) >= 45
    for kind, ctxs in lk.items():
        assert len(ctxs) >= 30, (kind, len(ctxs))
    non_en = n - st["langs"].get("en", 0)
    assert 0.25 <= non_en / n <= 0.40 and len(st["langs"]) >= 7
    assert len([1 for (lang, key) in PHRASE_USE if lang == "en" and key.startswith("phr")]) >= 50


def write(out: Path, records: list[dict], plans: list[Plan]) -> str:
    out.mkdir(parents=True, exist_ok=True)
    data = "".join(json.dumps(rec, ensure_ascii=False) + "\n" for rec in records).encode()
    (out / "corpus.jsonl").write_bytes(data)
    digest = hashlib.sha256(data).hexdigest()
    (out / "SHA256SUMS").write_text(f"{digest}  corpus.jsonl\n")
    back = (out / "corpus.jsonl").read_bytes()
    if hashlib.sha256(back).hexdigest() != (out / "SHA256SUMS").read_text().split()[0]:
        raise RuntimeError("digest mismatch after write")
    reread = [json.loads(line) for line in back.decode().splitlines()]
    if reread != records:
        raise RuntimeError("read-back differs")
    for rec in reread:
        verify_record(rec)
    st = stats(reread, plans)
    check_totals(reread, st)
    (out / "README.md").write_text(readme(reread, plans, st, digest))
    return digest


# ---------------------------------------------------------------- README

READ_AND_RAN = (
    "Written blind. What I read: `tests/corpora/secrets_blind_v11/README.md` (allowed by the brief) for the file format, the labelling "
    "conventions and the README layout only, and the `[tool.ruff]` section of `pyproject.toml`. What I ran: `cat` on that README and `sed -n` "
    "to print the ruff section of `pyproject.toml`; `ls` on the two v12 paths (to check they did not exist yet); `python3 --version`; "
    "`.venv/bin/ruff --version`; `nproc`; `python3 -c 'import yaml'` (to see whether PyYAML is installed); `mkdir -p /tmp/v12`; `cat` to "
    "join the draft parts of this generator under `/tmp/v12`, `cp` to copy the result here and back, `grep` and `head` on it; throwaway "
    "`python3` snippets that edited the draft parts and this file (moving `noqa` comments after formatting) and timed `pow` on 1024-bit "
    "numbers; `.venv/bin/ruff check` (also with `--output-format concise`), `.venv/bin/ruff format` and `ruff format --check` on this "
    "generator only; this generator itself (also with `--out` under `/tmp/v12`, under `time` and `python3 -m cProfile`, and with different "
    "`PYTHONHASHSEED` values to compare digests); `sha256sum` (also `-c`), `diff`, `sed -n`, `head` and `ls` on its output; `sed -i` on the audit script; and a throwaway Python "
    "audit under `/tmp/v12` that read the generated corpus back (printing sample documents with their spans; parsing the JSON, JSON-log, "
    "notebook, YAML (PyYAML of the system Python), TOML (`tomllib`) and Python (`ast.parse`) documents). Nothing else under `tests/` (apart "
    "from this generator and the files it writes) and nothing under `sandbox/`, `policies/`, `bench/` or `docs/` was opened, listed, grepped "
    "or run; no other generator or corpus was opened and `tests/corpora/` was not listed; no git command was run; the `sandbox` package was "
    "never imported and no scanner of the project was run; no secret scanner's code or rules were searched for or read, and the search "
    "tools were not used. Every template, phrasing and filler sentence was written for this corpus; token formats come from providers' "
    "public documentation as I remember it."
)


def md_table(head: list[str], rows: list[list[str]]) -> str:
    out = [
        "| " + " | ".join(head) + " |",
        "| "
        + " | ".join("---:" if h in ("examples", "contexts", "documents", "with secrets") else "---" for h in head)
        + " |",
    ]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(out)


def readme(records: list[dict], plans: list[Plan], st: dict, digest: str) -> str:
    sk, lk, langs = st["sk"], st["lk"], st["langs"]
    n = len(records)
    n_sec = sum(1 for rec in records if rec["secrets"])
    n_look = sum(1 for rec in records if rec["lookalikes"])
    spans_s = sum(len(v) for v in sk.values())
    spans_l = sum(len(v) for v in lk.values())
    common = sum(1 for kname in sk if FMT[kname][0])
    lengths = sorted(len(rec["text"]) for rec in records)
    non_ascii = sum(1 for rec in records if any(ord(c) > 127 for c in rec["text"]))
    multi = sum(1 for rec in records for s in rec["secrets"] if "\n" in s["value"])
    fam = {c: RENDER[c][1] for c in RENDER}
    fam_n = {f: sum(1 for c in RENDER if fam[c] == f) for f in ("narrative", "tool", "structured", "code")}
    en_phr = len([1 for (lang, key) in PHRASE_USE if lang == "en"])
    other_phr = len([1 for (lang, key) in PHRASE_USE if lang != "en"])
    lang_names = {
        "en": "English",
        "es": "Spanish",
        "de": "German",
        "fr": "French",
        "pt": "Portuguese",
        "it": "Italian",
        "nl": "Dutch",
        "ja": "Japanese",
        "zh": "Chinese",
    }
    lang_list = ", ".join(f"{lang_names[lang]} {langs[lang]}" for lang in ["en", *OTHER_LANGS] if lang in langs)
    srows = []
    for kname in sorted(sk):
        com, fmt = FMT[kname]
        srows.append([f"`{kname}`" + (" *common*" if com else ""), fmt, str(len(sk[kname])), str(len(set(sk[kname])))])
    lrows = [[f"`{kname}`", LOOK_FMT[kname], str(len(lk[kname])), str(len(set(lk[kname])))] for kname in sorted(lk)]
    crows = []
    for c in sorted(RENDER):
        docs = [p for p in plans if p.ctx == c]
        crows.append(
            [f"`{c}`", {"tool": "tool output"}.get(fam[c], fam[c]), str(len(docs)), str(sum(p.secret for p in docs))]
        )
    return f"""# secrets_blind_v12

A held-out, labelled test corpus for the secret-detection engine, written blind to it: {n:,} documents of the kind developers and AI assistants keep in memory: developer notes, assistant memory files, chats, runbooks, incident notes, e-mails, tickets, meeting notes, notes about the user's own accounts and devices, to-do lists, handovers, text messages, wiki pages, journals and code reviews; terminal sessions, shell history, application and JSON logs, CI logs, stack traces, HTTP dumps and git diffs; dotenv, JSON, YAML, Compose, Kubernetes, GitHub Actions, TOML, INI, properties, XML, Terraform, Dockerfile, CSV and Markdown tables; and code in Python, JavaScript, TypeScript, Go, Java, Kotlin, C#, Ruby, PHP, Rust, Swift, Bash, PowerShell, SQL, C, Dart and Jupyter notebooks. Each document lists the secrets it holds (to be reported) and the look-alikes it holds (public values that must not be reported).

## How it was built

- Generator: [`../make_blind_secrets_v12.py`](../make_blind_secrets_v12.py), Python 3.11 standard library only, one `random.Random({SEED})`; no clock, environment or system randomness is read, no set is iterated while writing, and `PYTHONHASHSEED` does not change the output.
- Regenerate with `python3 tests/corpora/make_blind_secrets_v12.py` (or `--out DIR`). A run takes a few seconds, most of it spent finding primes for real 2048-bit RSA keys in pure Python.
- Documents are planned first: each context gets an even number of documents, half of them with secrets; 32% of all documents are drawn to be non-English (prose, comments and notes in one of eight languages). Every secret kind is then spread over the documents with secrets of the contexts it fits (multi-line keys only where the syntax can hold them, personal secrets only in notes, tables, JSON and YAML), least-used context first, and every look-alike kind the same way over all documents.
- A kind generator returns items (a name, an English label and parts: plain text and values). Renderers write items in the syntax of their context and escape every part with the same function, so a value's span is the escaped value as it appears; the offsets are taken while the text is written.
- A document in which a labelled secret (as labelled, or as generated before escaping) also occurs outside a span of a secret is generated again with fresh values.
- Before writing, the script checks every span against the text, sorted lists, no overlaps, no empty or whitespace-padded spans; after writing it reads `corpus.jsonl` back, compares it with what it wrote, checks every record again (including that no labelled secret occurs unlabelled), compares the SHA-256 with `SHA256SUMS`, and checks the totals: unique ids, 45-55% of documents with a secret, at least 150 secret kinds with at least 15 examples in at least 8 contexts, at least 65% common kinds and at least 25 less common ones, at least 45 look-alike kinds with at least 30 examples, 25-40% non-English documents in at least six languages, at least 50 English phrasings used. Any failure raises.
- Self-tests run first: Ed25519 public key (RFC 8032 test 1), X25519 (RFC 7748), bech32 and bech32m empty-data vectors, CRC-16/XMODEM and CRC-24/OpenPGP check values, the P-256 base point and order, the jwt.io example token against its documented secret, Luhn on every test card, IBAN check digits, Cisco type 7 round trip.
- {READ_AND_RAN}
- Structure where the format allows: GitHub `ghp_` / `gho_` / `ghs_` / `ghu_` / `ghr_` and npm tokens end in the base62 CRC32 of their random part; PyPI tokens are v2 macaroons (location `pypi.org`, UUID identifier, one caveat, HMAC-SHA-256 chain); JWTs carry real HS256 signatures (user tokens, Supabase keys, Home Assistant tokens) or RS256 signatures by seeded RSA keys (Kubernetes service-account tokens); RSA keys are real 2048-bit key pairs (PKCS #1 / PKCS #8, also inside GCP service-account JSON); EC keys are P-256 with the derived public point; OpenSSH and PGP keys carry the Ed25519 public key derived from their seed, PGP blocks a CRC-24 line (no self-signature); WireGuard and age public halves are X25519 derivations; age keys and bitcoin addresses are valid bech32 / bech32m; WIF keys are base58check; NATS seeds carry their CRC-16; BitLocker blocks are multiples of 11; Cisco type 7 strings decode; IBANs, ISBNs, IMEIs, VINs, USPS numbers and test cards have valid check digits; SSH fingerprints are computed from real key blobs.

## File format

`corpus.jsonl`: one JSON object per line, UTF-8, `ensure_ascii=False`, keys in this order:

```json
{{"id": "{PREFIX}-0001", "context": "dev_notes", "text": "...", "secrets": [{{"kind": "...", "value": "...", "start": 0, "end": 0}}], "lookalikes": []}}
```

- `start` / `end` are Python code-point offsets into `text`, `text[start:end] == value`; each list is sorted by `start`; no two spans of a document overlap (both lists together).
- `context` names the shape of the document (table below). Structured files and code carry a comment in the document's language (CSV: a notes column, Markdown tables: a note line).

## Labelling

- Only the sensitive part is labelled: the password inside a URL, DSN, JDBC / libpq string or ADO.NET string (not user or host); the `sig=` value of an Azure SAS URL; the `AccountKey=` / `SharedAccessKey=` of Azure connection strings; the `secret=` of an `otpauth://` URI; the `P:` of a `WIFI:` QR payload; the credential after `Bearer ` and `Basic `; the cookie value after `name=`; the `auth` of a Docker config; the encoded string after `password 7`; the `private_key` inside a service-account JSON (with its `\\n` escapes). Slack and Discord webhook URLs are labelled whole. PEM, OpenSSH and PGP keys are labelled from their first to their last line. Each 2FA recovery code of a list is its own span.
- Key ids that travel with their secret are secrets too: AWS `AKIA` / `ASIA`, Alibaba `LTAI`, Tencent `AKID`, Backblaze B2 key ids. Companions that are not secret are look-alikes: Twilio `AC` / `SK` SIDs, Algolia app ids and `rzp_live_` key ids (`account_identifier`); Entra client ids, PayPal and in-house OAuth client ids (`oauth_client_id`); Entra tenant ids (`tenant_id`); Langfuse `pk-lf-` keys (`public_client_key`); the `private_key_id` of a service-account JSON (`key_identifier`); public halves of SSH, age and WireGuard keys.
- A value is labelled exactly as it appears: inside JSON (a JSON file, a JSON log line) it keeps its JSON escapes, in a notebook its double escapes; in a YAML block scalar it keeps the indentation of its continuation lines; in a diff it keeps the `+` prefixes; in XML it keeps entity escapes; in CSV it keeps doubled quotes; in properties files, C-like string literals, Python reprs in tracebacks and logfmt lines a line break is `\\n` and quotes and backslashes keep their escapes; SQL and PowerShell literals keep doubled quotes; shell words keep `'\\''`; Ruby and PHP single-quoted literals keep `\\'` and `\\\\`; Kotlin and Dart keep `\\$`; Terraform keeps `$${{`; Markdown table cells keep `\\|`; URL passwords are labelled percent-encoded.
- {spans_s - multi:,} secret spans are single-line; {multi} run over several lines.

## Numbers

- {n:,} documents; {n_sec} ({100 * n_sec // n}%) hold at least one secret; {n_look} hold look-alikes; every document has at least one labelled value.
- {spans_s:,} secret spans over {len(sk)} kinds ({min(len(v) for v in sk.values())} to {max(len(v) for v in sk.values())} examples each, each kind in {min(len(set(v)) for v in sk.values())} to {max(len(set(v)) for v in sk.values())} contexts); {common} kinds ({100 * common // len(sk)}%) are ones I consider common in developers' notes (marked *common*), the other {len(sk) - common} less common providers, formats and everyday secrets that scanners rarely cover.
- {spans_l:,} look-alike spans over {len(lk)} kinds ({min(len(v) for v in lk.values())} to {max(len(v) for v in lk.values())} each).
- Length: {lengths[0]:,} to {lengths[-1]:,} characters, median {lengths[len(lengths) // 2]:,}; {non_ascii} documents contain non-ASCII text.
- {len(RENDER)} contexts ({fam_n["narrative"]} narrative, {fam_n["tool"]} tool output, {fam_n["structured"]} structured, {fam_n["code"]} code); prose, comments and notes in {len(langs)} languages: {lang_list} ({100 * (n - langs.get("en", 0)) // n}% non-English); {en_phr} English phrasings and {other_phr} phrasings in the other languages introduce a value in prose.

## Secret kinds

{md_table(["kind", "format", "examples", "contexts"], srows)}

## Look-alike kinds

{md_table(["kind", "what", "examples", "contexts"], lrows)}

## Contexts

{md_table(["context", "family", "documents", "with secrets"], crows)}

## Checksum

`SHA256SUMS`:

```
{digest}  corpus.jsonl
```
"""


# ---------------------------------------------------------------- main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "secrets_blind_v12")
    args = parser.parse_args()
    self_test()
    r = random.Random(SEED)
    plans = plan_docs(r)
    records = []
    for i, plan in enumerate(plans, start=1):
        text, spans = build(plan, r)
        rec = to_record(i, plan, text, spans)
        verify_record(rec)
        records.append(rec)
    digest = write(args.out, records, plans)
    print(f"{len(records)} documents, sha256 {digest}")


if __name__ == "__main__":
    main()
