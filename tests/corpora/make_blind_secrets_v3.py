#!/usr/bin/env python3
"""Write ``secrets_blind_v3``: a held-out corpus for the secret-detection engine.

The documents imitate the memory files of an AI assistant: notes about a user and
their projects, runbooks, incident timelines, daily logs, chat excerpts and TODO
lists, with configuration files, commands, stack traces and HTTP exchanges pasted
in.  Every document records where its secrets are (values that must be reported)
and where its look-alikes are (public values that must not be).

The generator was written without reading the detection rules or the earlier
corpora; every token format follows its provider's public documentation.  It uses
only the standard library and one seeded ``random.Random``, so every run writes
identical bytes::

    python3 tests/corpora/make_blind_secrets_v3.py [--out DIR]
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import json
import math
import random
import re
import struct
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

SEED = 20261203
N_DOCS = 1200
N_SECRET_DOCS = 600
SECRET_QUOTA = 17  # scheduled placements per secret kind (the floor is 15)
LOOKALIKE_QUOTA = 34  # scheduled placements per look-alike kind (the floor is 30)
MIN_SECRET_EXAMPLES = 15
MIN_LOOKALIKE_EXAMPLES = 30
DEFAULT_OUT = Path(__file__).resolve().parent / "secrets_blind_v3"

Rng = random.Random

# ----------------------------------------------------------------------------- text fragments


@dataclass(frozen=True)
class Span:
    """A labelled stretch of a fragment: ``role`` is ``secret`` or ``lookalike``."""

    start: int
    end: int
    kind: str
    role: str

    def shifted(self, by: int) -> Span:
        return Span(self.start + by, self.end + by, self.kind, self.role)


@dataclass(frozen=True)
class Frag:
    """Text together with the labelled spans inside it."""

    text: str = ""
    spans: tuple[Span, ...] = ()

    def __add__(self, other: Frag | str) -> Frag:
        return concat((self, other))

    def __radd__(self, other: str) -> Frag:
        return concat((other, self))


Piece = Frag | str


def concat(parts: Iterable[Piece]) -> Frag:
    texts: list[str] = []
    spans: list[Span] = []
    pos = 0
    for part in parts:
        if isinstance(part, str):
            texts.append(part)
            pos += len(part)
            continue
        texts.append(part.text)
        spans.extend(s.shifted(pos) for s in part.spans)
        pos += len(part.text)
    return Frag("".join(texts), tuple(spans))


def join(sep: str, parts: Sequence[Piece]) -> Frag:
    out: list[Piece] = []
    for i, part in enumerate(parts):
        if i:
            out.append(sep)
        out.append(part)
    return concat(out)


def tag(role: str, kind: str, value: str) -> Frag:
    return Frag(value, (Span(0, len(value), kind, role),))


def sec(kind: str, value: str) -> Frag:
    return tag("secret", kind, value)


def look(kind: str, value: str) -> Frag:
    return tag("lookalike", kind, value)


def remap(frag: Frag, fn: Callable[[str], str]) -> Frag:
    """Apply a character-local rewrite (escaping, indenting) to a fragment, labels included."""
    parts: list[Piece] = []
    pos = 0
    for s in sorted(frag.spans, key=lambda s: s.start):
        parts.append(fn(frag.text[pos : s.start]))
        parts.append(tag(s.role, s.kind, fn(frag.text[s.start : s.end])))
        pos = s.end
    parts.append(fn(frag.text[pos:]))
    return concat(parts)


PLACEHOLDER = re.compile(r"⟦([^⟦⟧]+)⟧")


def fill(r: Rng, template: str, slots: Mapping[str, Piece] | None = None) -> Frag:
    """Expand ``⟦name⟧`` slots: explicit slots first, then fillers, look-alikes and secrets by kind.

    A name used twice in one template gets one value; ``⟦name#2⟧`` asks for a second one.
    """
    slots = slots or {}
    cache: dict[str, Piece] = {}
    parts: list[Piece] = []
    pos = 0
    for m in PLACEHOLDER.finditer(template):
        parts.append(template[pos : m.start()])
        name = m.group(1)
        if name in slots:
            parts.append(slots[name])
        else:
            if name not in cache:
                cache[name] = resolve_filler(r, name.split("#")[0])
            parts.append(cache[name])
        pos = m.end()
    parts.append(template[pos:])
    return concat(parts)


def resolve_filler(r: Rng, name: str) -> Piece:
    if name in FILLERS:
        return FILLERS[name](r)
    if name in LOOKALIKES:
        return look(name, LOOKALIKES[name].gen(r)[0])
    if name in SECRETS:
        return sec(name, SECRETS[name].gen(r))
    raise KeyError(f"unknown template slot {name!r}")


# ----------------------------------------------------------------------------- random helpers

DIGITS = "0123456789"
UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
LOWER = "abcdefghijklmnopqrstuvwxyz"
LETTERS = UPPER + LOWER
ALNUM = DIGITS + UPPER + LOWER  # also the base62 alphabet of GitHub and npm checksums
HEX = "0123456789abcdef"
UPHEX = HEX.upper()
B64URL = UPPER + LOWER + DIGITS + "-_"
B64STD = UPPER + LOWER + DIGITS + "+/"
BASE32 = UPPER + "234567"
BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
UD = UPPER + DIGITS
LD = LOWER + DIGITS


def rs(r: Rng, alphabet: str, n: int) -> str:
    return "".join(r.choice(alphabet) for _ in range(n))


def hexs(r: Rng, n: int) -> str:
    return rs(r, HEX, n)


def digits(r: Rng, n: int) -> str:
    return r.choice("123456789") + rs(r, DIGITS, n - 1)


def rbytes(r: Rng, n: int) -> bytes:
    return bytes(r.getrandbits(8) for _ in range(n))


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def uuid4(r: Rng) -> str:
    b = bytearray(rbytes(r, 16))
    b[6] = (b[6] & 0x0F) | 0x40
    b[8] = (b[8] & 0x3F) | 0x80
    h = b.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def base62(n: int, width: int) -> str:
    out = ""
    while n:
        n, rem = divmod(n, 62)
        out = ALNUM[rem] + out
    return out.rjust(width, "0")


def checksummed(r: Rng, prefix: str) -> str:
    """GitHub/npm token: 30 random base62 characters and their CRC32 in 6 base62 characters."""
    body = rs(r, ALNUM, 30)
    return prefix + body + base62(zlib.crc32(body.encode()), 6)


def wrap(text: str, width: int) -> str:
    return "\n".join(text[i : i + width] for i in range(0, len(text), width))


def weighted(r: Rng, options: Sequence[tuple[float, str]]) -> str:
    total = sum(w for w, _ in options)
    x = r.random() * total
    for w, value in options:
        x -= w
        if x < 0:
            return value
    return options[-1][1]


PEOPLE = (
    "Ana",
    "Bruno",
    "Chen",
    "Dana",
    "Emeka",
    "Fatima",
    "Giulia",
    "Hiro",
    "Inês",
    "Jonas",
    "Kofi",
    "Lena",
    "Marta",
    "Nikhil",
    "Olga",
    "Priya",
    "Rafael",
    "Sofia",
    "Tomasz",
    "Yuki",
    "Zainab",
    "Mateo",
    "Aiko",
    "Noor",
)
PROJECTS = (
    "ledger-sync",
    "orchard",
    "harbor-api",
    "tidepool",
    "billing-worker",
    "atlas-web",
    "lumen",
    "quarry",
    "kestrel",
    "paperplane",
    "nightjar",
    "copperline",
    "fieldnotes",
    "moss",
    "sundial",
    "beacon",
    "driftwood",
    "halyard",
    "marigold",
    "tessera",
)
SERVICES = ("api", "worker", "web", "scheduler", "ingest", "auth", "payments", "search", "notifier", "reports")
ENVS = ("prod", "staging", "dev", "qa", "preview", "sandbox")
AWS_REGIONS = ("us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-southeast-2", "sa-east-1", "ap-northeast-1")
DOMAINS = (
    "internal.acme.io",
    "corp.example.net",
    "svc.cluster.local",
    "home.lan",
    "tail4f2a.ts.net",
    "prod.example.org",
    "staging.example.com",
)
DB_NAMES = ("orders", "app", "analytics", "billing", "users", "inventory", "events", "crm", "warehouse")
DB_USERS = ("app", "svc_orders", "postgres", "root", "admin", "readonly", "etl", "reporting", "django", "billing_rw")
LOGINS = ("ana.s", "bruno", "deploy", "ci-bot", "dana_k", "ops", "release-bot", "jonas.m", "svc-backup", "marta")
IMAGES = ("python:3.12-slim", "node:20-alpine", "golang:1.22", "ruby:3.3", "eclipse-temurin:21-jre", "nginx:1.27")
PATHS = ("v1/charges", "api/v2/projects", "v1/messages", "v3/search", "api/health", "v2/users/me", "v1/events")
API_PATHS = ("charges", "projects", "messages", "search", "health", "users/me", "events?limit=20", "jobs?status=failed")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def host(r: Rng) -> str:
    role = r.choice(("db", "data", "store", "cache", "primary", "replica", "main"))
    return f"{r.choice(SERVICES)}-{role}-{r.randint(1, 3):02d}.{r.choice(DOMAINS)}"


def rds_host(r: Rng) -> str:
    return f"{r.choice(DB_NAMES)}-{r.choice(ENVS)}.c{rs(r, LD, 11)}.{r.choice(AWS_REGIONS)}.rds.amazonaws.com"


def day(r: Rng) -> str:
    return f"{r.choice((2025, 2026))}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"


def clock(r: Rng) -> str:
    return f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}"


def iso_ts(r: Rng) -> str:
    return f"{day(r)}T{clock(r)}:{r.randint(0, 59):02d}.{r.randint(0, 999):03d}Z"


def email(r: Rng) -> str:
    name = r.choice(PEOPLE).lower().replace("ê", "e")
    return f"{name}@{r.choice(('acme.io', 'example.com', 'gmail.com'))}"


FILLERS: dict[str, Callable[[Rng], Piece]] = {
    "person": lambda r: r.choice(PEOPLE),
    "project": lambda r: r.choice(PROJECTS),
    "svc": lambda r: r.choice(SERVICES),
    "env": lambda r: r.choice(ENVS),
    "region": lambda r: r.choice(AWS_REGIONS),
    "host": host,
    "rds": rds_host,
    "db": lambda r: r.choice(DB_NAMES),
    "dbuser": lambda r: r.choice(DB_USERS),
    "login": lambda r: r.choice(LOGINS),
    "email": email,
    "image": lambda r: r.choice(IMAGES),
    "path": lambda r: r.choice(PATHS),
    "day": day,
    "time": clock,
    "ts": iso_ts,
    "n": lambda r: str(r.randint(2, 9)),
    "ms": lambda r: str(r.randint(12, 2400)),
    "port": lambda r: r.choice(("8080", "3000", "8000", "9090", "5000")),
    "ticket": lambda r: f"{r.choice(('OPS', 'INC', 'PLAT', 'SEC', 'BILL'))}-{r.randint(100, 4999)}",
    "method": lambda r: r.choice(("GET", "POST", "PUT", "DELETE")),
    "gproject": lambda r: f"{r.choice(PROJECTS)}-{r.randint(100000, 999999)}",
    "awsprofile": lambda r: r.choice(("default", "prod", "staging", "billing-admin", "sandbox")),
    "keyfile": lambda r: r.choice(("~/.ssh/id_deploy", "deploy_key", "/etc/ssl/private/app.key", "keys/signing.pem")),
    "registry": lambda r: r.choice(("ghcr.io", "registry.gitlab.com", "docker.io", "quay.io", "acr-prod.azurecr.io")),
    "org": lambda r: r.choice(("acme", "tidepool-labs", "orchard-co", "ana-s", "kestrel-dev")),
    "ua": lambda r: r.choice(("python-requests/2.32.3", "curl/8.7.1", "axios/1.7.2", "Go-http-client/2.0")),
    "pkg": lambda r: r.choice(("alpinejs", "htmx.org", "chart.js", "dayjs", "lodash", "bootstrap")),
    "semver3": lambda r: f"{r.randint(1, 9)}.{r.randint(0, 30)}.{r.randint(0, 20)}",
    "msg": lambda r: r.choice(("deploy finished", "backup failed", "nightly report ready", "disk at 91%")),
}


# ----------------------------------------------------------------------------- DER, PEM and key material


def der(tag_byte: int, body: bytes) -> bytes:
    n = len(body)
    if n < 0x80:
        return bytes([tag_byte, n]) + body
    size = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([tag_byte, 0x80 | len(size)]) + size + body


def der_int(v: int) -> bytes:
    return der(0x02, v.to_bytes(v.bit_length() // 8 + 1, "big"))


def der_seq(*items: bytes) -> bytes:
    return der(0x30, b"".join(items))


def der_oid(dotted: str) -> bytes:
    nums = [int(x) for x in dotted.split(".")]
    body = bytearray([40 * nums[0] + nums[1]])
    for num in nums[2:]:
        rest, chunk = num >> 7, [num & 0x7F]
        while rest:
            chunk.append(0x80 | (rest & 0x7F))
            rest >>= 7
        body.extend(reversed(chunk))
    return der(0x06, bytes(body))


def der_octets(data: bytes) -> bytes:
    return der(0x04, data)


def der_bits(data: bytes) -> bytes:
    return der(0x03, b"\x00" + data)


DER_NULL = b"\x05\x00"
OID_RSA = "1.2.840.113549.1.1.1"
OID_EC = "1.2.840.10045.2.1"
OID_P256 = "1.2.840.10045.3.1.7"
OID_ED25519 = "1.3.101.112"


def pem(label: str, data: bytes, width: int = 64) -> str:
    return f"-----BEGIN {label}-----\n{wrap(b64(data), width)}\n-----END {label}-----"


SMALL_PRIMES = tuple(p for p in range(3, 2000, 2) if all(p % q for q in range(3, math.isqrt(p) + 1, 2)))


def probable_prime(n: int, r: Rng) -> bool:
    for p in SMALL_PRIMES:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for _ in range(16):
        x = pow(r.randrange(2, n - 2), d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = pow(x, 2, n)
            if x == n - 1:
                break
        else:
            return False
    return True


def prime(r: Rng, bits: int) -> int:
    while True:
        candidate = r.getrandbits(bits) | (3 << (bits - 2)) | 1
        if probable_prime(candidate, r):
            return candidate


def rsa_pkcs1(r: Rng, bits: int = 2048) -> bytes:
    """A real RSA key pair (PKCS #1 RSAPrivateKey DER)."""
    e = 65537
    while True:
        p, q = prime(r, bits // 2), prime(r, bits // 2)
        lam = math.lcm(p - 1, q - 1)
        if p != q and math.gcd(e, lam) == 1:
            break
    p, q = max(p, q), min(p, q)
    d = pow(e, -1, lam)
    fields = (0, p * q, e, d, p, q, d % (p - 1), d % (q - 1), pow(q, -1, p))
    return der_seq(*(der_int(v) for v in fields))


def pkcs8(algorithm: bytes, private: bytes) -> bytes:
    return der_seq(der_int(0), algorithm, der_octets(private))


def rsa_pem(r: Rng) -> str:
    key = rsa_pkcs1(r)
    if r.random() < 0.5:
        return pem("RSA PRIVATE KEY", key)
    return pem("PRIVATE KEY", pkcs8(der_seq(der_oid(OID_RSA), DER_NULL), key))


# NIST P-256 (SEC 2 / FIPS 186-4 domain parameters).
P256_P = 2**256 - 2**224 + 2**192 + 2**96 - 1
P256_B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
P256_N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
P256_G = (
    0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
    0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5,
)
Point = tuple[int, int] | None


def p256_add(a: Point, b: Point) -> Point:
    if a is None:
        return b
    if b is None:
        return a
    p = P256_P
    if a[0] == b[0] and (a[1] + b[1]) % p == 0:
        return None
    if a == b:  # tangent (a = -3 on P-256)
        return p256_line(a, b, (3 * a[0] * a[0] - 3) * pow(2 * a[1], -1, p) % p)
    return p256_line(a, b, (b[1] - a[1]) * pow(b[0] - a[0], -1, p) % p)


def p256_line(a: tuple[int, int], b: tuple[int, int], lam: int) -> Point:
    p = P256_P
    x = (lam * lam - a[0] - b[0]) % p
    return x, (lam * (a[0] - x) - a[1]) % p


def p256_mul(k: int, pt: Point = P256_G) -> Point:
    acc: Point = None
    while k:
        if k & 1:
            acc = p256_add(acc, pt)
        pt = p256_add(pt, pt)
        k >>= 1
    return acc


def p256_keypair(r: Rng) -> tuple[int, bytes]:
    d = r.randrange(1, P256_N)
    point = p256_mul(d)
    assert point is not None
    return d, b"\x04" + point[0].to_bytes(32, "big") + point[1].to_bytes(32, "big")


def ec_pem(r: Rng) -> str:
    d, public = p256_keypair(r)
    body = [der_int(1), der_octets(d.to_bytes(32, "big"))]
    if r.random() < 0.5:  # SEC 1, as written by `openssl ecparam -genkey`
        sec1 = der_seq(*body, der(0xA0, der_oid(OID_P256)), der(0xA1, der_bits(public)))
        return pem("EC PRIVATE KEY", sec1)
    inner = der_seq(*body, der(0xA1, der_bits(public)))  # PKCS #8, as written by `openssl genpkey`
    return pem("PRIVATE KEY", pkcs8(der_seq(der_oid(OID_EC), der_oid(OID_P256)), inner))


def ec_public_pem(r: Rng) -> str:
    _, public = p256_keypair(r)
    return pem("PUBLIC KEY", der_seq(der_seq(der_oid(OID_EC), der_oid(OID_P256)), der_bits(public)))


# Ed25519 (RFC 8032), affine arithmetic on -x^2 + y^2 = 1 + d x^2 y^2.
ED_P = 2**255 - 19
ED_D = -121665 * pow(121666, -1, ED_P) % ED_P
ED_I = pow(2, (ED_P - 1) // 4, ED_P)


def ed_x(y: int) -> int:
    xx = (y * y - 1) * pow(ED_D * y * y + 1, -1, ED_P)
    x = pow(xx, (ED_P + 3) // 8, ED_P)
    if (x * x - xx) % ED_P:
        x = x * ED_I % ED_P
    return ED_P - x if x % 2 else x


ED_BY = 4 * pow(5, -1, ED_P) % ED_P
ED_B = (ed_x(ED_BY), ED_BY)


def ed_add(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    t = ED_D * a[0] * b[0] * a[1] * b[1]
    x = (a[0] * b[1] + b[0] * a[1]) * pow(1 + t, -1, ED_P)
    y = (a[1] * b[1] + a[0] * b[0]) * pow(1 - t, -1, ED_P)
    return x % ED_P, y % ED_P


def ed25519_public(seed: bytes) -> bytes:
    h = hashlib.sha512(seed).digest()
    a = int.from_bytes(h[:32], "little") & ((1 << 254) - 8) | (1 << 254)
    acc, pt = (0, 1), ED_B
    while a:
        if a & 1:
            acc = ed_add(acc, pt)
        pt = ed_add(pt, pt)
        a >>= 1
    return (acc[1] | (acc[0] & 1) << 255).to_bytes(32, "little")


def ed25519_pem(r: Rng) -> str:
    return pem("PRIVATE KEY", pkcs8(der_seq(der_oid(OID_ED25519)), der_octets(rbytes(r, 32))))


def ed25519_public_pem(r: Rng) -> str:
    return pem("PUBLIC KEY", der_seq(der_seq(der_oid(OID_ED25519)), der_bits(ed25519_public(rbytes(r, 32)))))


def ssh_str(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


def ssh_mpint(v: int) -> bytes:
    raw = v.to_bytes((v.bit_length() + 7) // 8, "big")
    return ssh_str(b"\x00" + raw if raw and raw[0] & 0x80 else raw)


def ssh_comment(r: Rng) -> str:
    return f"{r.choice(LOGINS)}@{r.choice(('laptop', 'build-01', 'bastion', 'mbp-2024', 'ci-runner', 'nas'))}"


def openssh_pem(r: Rng) -> str:
    """An unencrypted ``openssh-key-v1`` private key (Ed25519 or ECDSA P-256)."""
    comment = ssh_comment(r).encode()
    if r.random() < 0.7:
        seed = rbytes(r, 32)
        pk = ed25519_public(seed)
        key_type = b"ssh-ed25519"
        public_fields = ssh_str(pk)
        private_fields = ssh_str(pk) + ssh_str(seed + pk)
    else:
        d, q = p256_keypair(r)
        key_type = b"ecdsa-sha2-nistp256"
        public_fields = ssh_str(b"nistp256") + ssh_str(q)
        private_fields = public_fields + ssh_mpint(d)
    check = struct.pack(">I", r.getrandbits(32)) * 2
    private = check + ssh_str(key_type) + private_fields + ssh_str(comment)
    pad = 1
    while len(private) % 8:
        private += bytes([pad])
        pad += 1
    blob = b"openssh-key-v1\x00" + ssh_str(b"none") + ssh_str(b"none") + ssh_str(b"")
    blob += struct.pack(">I", 1) + ssh_str(ssh_str(key_type) + public_fields) + ssh_str(private)
    return pem("OPENSSH PRIVATE KEY", blob, width=70)


def ssh_public_line(r: Rng) -> str:
    roll = r.random()
    if roll < 0.5:
        blob = ssh_str(b"ssh-ed25519") + ssh_str(ed25519_public(rbytes(r, 32)))
        key_type = "ssh-ed25519"
    elif roll < 0.75:
        _, q = p256_keypair(r)
        blob = ssh_str(b"ecdsa-sha2-nistp256") + ssh_str(b"nistp256") + ssh_str(q)
        key_type = "ecdsa-sha2-nistp256"
    else:
        modulus = r.getrandbits(2048) | (1 << 2047) | 1
        blob = ssh_str(b"ssh-rsa") + ssh_mpint(65537) + ssh_mpint(modulus)
        key_type = "ssh-rsa"
    return f"{key_type} {b64(blob)} {ssh_comment(r)}"


# OpenPGP (RFC 4880 / RFC 9580, version 4 keys, EdDSA on Ed25519).
PGP_ED25519_OID = bytes.fromhex("092b06010401da470f01")


def pgp_mpi(data: bytes) -> bytes:
    v = int.from_bytes(data, "big")
    return struct.pack(">H", v.bit_length()) + v.to_bytes((v.bit_length() + 7) // 8, "big")


def pgp_packet(tag_no: int, body: bytes) -> bytes:
    n = len(body)
    if n < 192:
        size = bytes([n])
    else:
        n -= 192
        size = bytes([(n >> 8) + 192, n & 0xFF])
    return bytes([0xC0 | tag_no]) + size + body


def crc24(data: bytes) -> int:
    crc = 0xB704CE
    for byte in data:
        crc ^= byte << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


def pgp_armor(label: str, data: bytes, headers: Sequence[str]) -> str:
    head = "".join(h + "\n" for h in headers)
    checksum = b64(crc24(data).to_bytes(3, "big"))
    return f"-----BEGIN PGP {label}-----\n{head}\n{wrap(b64(data), 64)}\n={checksum}\n-----END PGP {label}-----"


def pgp_key(r: Rng, secret: bool) -> tuple[str, str]:
    """An armored OpenPGP key block and its v4 fingerprint."""
    seed = rbytes(r, 32)
    created = r.randint(1_650_000_000, 1_790_000_000)
    public_body = b"\x04" + struct.pack(">I", created) + b"\x16" + PGP_ED25519_OID
    public_body += pgp_mpi(b"\x40" + ed25519_public(seed))
    fingerprint = hashlib.sha1(b"\x99" + struct.pack(">H", len(public_body)) + public_body, usedforsecurity=False)
    key_id = fingerprint.digest()[-8:]
    name = r.choice(PEOPLE)
    uid = f"{name} <{name.lower().replace('ê', 'e')}@{r.choice(('acme.io', 'example.org', 'proton.me'))}>"
    hashed = b"\x05\x02" + struct.pack(">I", created) + b"\x02\x1b\x03"
    unhashed = b"\x09\x10" + key_id
    signature = b"\x04\x13\x16\x08" + struct.pack(">H", len(hashed)) + hashed
    signature += struct.pack(">H", len(unhashed)) + unhashed + rbytes(r, 2)
    signature += pgp_mpi(rbytes(r, 32)) + pgp_mpi(rbytes(r, 32))
    if secret:
        secret_mpi = pgp_mpi(seed)
        checksum = struct.pack(">H", sum(secret_mpi) & 0xFFFF)
        first = pgp_packet(5, public_body + b"\x00" + secret_mpi + checksum)
        label = "PRIVATE KEY BLOCK"
    else:
        first = pgp_packet(6, public_body)
        label = "PUBLIC KEY BLOCK"
    data = first + pgp_packet(13, uid.encode()) + pgp_packet(2, signature)
    headers = r.choice(((), (), ("Comment: " + uid,), ("Version: GnuPG v2",)))
    return pgp_armor(label, data, headers), fingerprint.hexdigest().upper()


# Bech32 (BIP 173), as used by age recipients and identities.
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def bech32_polymod(values: Iterable[int]) -> int:
    generators = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)
    chk = 1
    for v in values:
        top = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ v
        for i, g in enumerate(generators):
            if (top >> i) & 1:
                chk ^= g
    return chk


def bech32(hrp: str, data: bytes) -> str:
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
    poly = bech32_polymod([*expanded, *five, 0, 0, 0, 0, 0, 0]) ^ 1
    check = [(poly >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(BECH32[d] for d in five + check)


def png_bytes(r: Rng) -> bytes:
    """A small, valid RGB PNG."""
    width = height = r.choice((1, 2, 4))
    rows = b"".join(b"\x00" + rbytes(r, 3 * width) for _ in range(height))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def macaroon_field(field_type: int, data: bytes) -> bytes:
    return bytes([field_type]) + varint(len(data)) + data


def jwt_token(r: Rng) -> str:
    """A signed JWT with a real base64url JSON header and payload."""
    alg = r.choice(("HS256", "RS256", "ES256"))
    header: dict[str, str] = {"alg": alg, "typ": "JWT"}
    if alg != "HS256" and r.random() < 0.7:
        header["kid"] = rs(r, B64URL, 22)
    issued = r.randint(1_735_689_600, 1_798_761_600)
    user = r.choice(PEOPLE).lower().replace("ê", "e")
    payload: dict[str, object] = {
        "sub": r.choice((uuid4(r), f"user_{rs(r, LD, 10)}", f"{r.randint(10**5, 10**7)}")),
        "iss": r.choice(("https://auth.acme.io/", f"https://{r.choice(PROJECTS)}.eu.auth0.com/", "supabase")),
        "aud": r.choice(("api", "authenticated", f"https://{r.choice(PROJECTS)}.example.com")),
        "iat": issued,
        "exp": issued + r.choice((900, 3600, 86400, 2_592_000)),
    }
    if r.random() < 0.5:
        payload["email"] = f"{user}@example.com"
    if r.random() < 0.5:
        payload["role"] = r.choice(("service_role", "admin", "editor", "reader"))
    if r.random() < 0.4:
        payload["scope"] = r.choice(("read:orders write:orders", "openid profile email", "repo:read"))
    compact = {"separators": (",", ":")}
    signing_input = (
        b64url(json.dumps(header, **compact).encode()) + "." + b64url(json.dumps(payload, **compact).encode())
    )
    if alg == "HS256":
        signature = hmac.new(rbytes(r, 32), signing_input.encode(), hashlib.sha256).digest()
    else:
        signature = rbytes(r, 256 if alg == "RS256" else 64)
    return signing_input + "." + b64url(signature)


# ----------------------------------------------------------------------------- entries and kinds


@dataclass(frozen=True)
class Entry:
    """One named setting: ``key`` is canonical UPPER_SNAKE; ``value`` may hold labelled spans."""

    key: str
    value: Frag
    desc: str
    multiline: bool = False
    comment: str = ""


UserFn = Callable[[Rng], Frag]
EntryFn = Callable[[Rng, "SecretKind", str], list[Entry]]


@dataclass(frozen=True)
class SecretKind:
    kind: str
    provider: str
    desc: str
    gen: Callable[[Rng], str]
    keys: tuple[str, ...]
    header: tuple[str, str] | None = None  # (header name, value prefix) when sent over HTTP
    api: str = ""  # host the credential is sent to
    user: UserFn | None = None  # user name when the value is the password half of user:pass
    prefix: str = ""  # documented fixed prefix, used to build placeholders
    native: tuple[tuple[str, str], ...] = ()  # (context, template) shapes only this kind takes
    multiline: bool = False
    only_native: bool = False
    entry: EntryFn | None = None

    def entries(self, r: Rng, value: str) -> list[Entry]:
        if self.entry is not None:
            return self.entry(r, self, value)
        return [Entry(key_for(r, self.keys), sec(self.kind, value), self.desc, self.multiline, note_for(r))]


ODD_KEYS = (
    "THING_{P}_SENT",
    "STAGING_BOX",
    "OLD_ONE",
    "BACKUP_2",
    "MISC",
    "TMP",
    "FOR_THE_CRON",
    "DO_NOT_COMMIT",
    "FROM_SLACK_THREAD",
    "KEY2",
    "TEMP_FIX",
    "LEGACY",
    "SECOND_ACCOUNT",
    "MIGRATION_ONLY",
    "PERSONAL",
    "{P}S_KEY",
    "NEW_ONE",
    "X",
    "PROD_FALLBACK",
    "LAPTOP_COPY",
)
NOTES = (
    "from {P}, staging only",
    "rotated {D}",
    "do not share",
    "expires end of quarter",
    "ask {P} before changing",
    "old value kept for the cron",
    "prod",
    "temporary, revert after the migration",
)


def key_for(r: Rng, keys: Sequence[str]) -> str:
    if r.random() < 0.13:
        return r.choice(ODD_KEYS).replace("{P}", r.choice(PEOPLE).upper().replace("Ê", "E"))
    return r.choice(keys)


def note_for(r: Rng) -> str:
    if r.random() < 0.8:
        return ""
    return r.choice(NOTES).replace("{P}", r.choice(PEOPLE)).replace("{D}", day(r))


# --- value generators ----------------------------------------------------------------------

PW_SYMBOLS = "!^*-_=+.~@?"
URL_SAFE_SYMBOLS = "-_.~!*"
WORDS = (
    "Maple",
    "Orbit",
    "Harbor",
    "Velvet",
    "Quartz",
    "Lantern",
    "Cobalt",
    "Meadow",
    "Falcon",
    "Pepper",
    "Tundra",
    "Saffron",
    "Basalt",
    "Otter",
    "Juniper",
    "Nimbus",
    "Copper",
    "Walrus",
    "Fjord",
    "Cactus",
)


def password(r: Rng, url_safe: bool = False) -> str:
    symbols = URL_SAFE_SYMBOLS if url_safe else PW_SYMBOLS
    style = r.random()
    if style < 0.45:
        n = r.randint(14, 28)
        core = rs(r, ALNUM, n - 2)
        return core[: n // 3] + r.choice(symbols) + core[n // 3 :] + r.choice(DIGITS)
    if style < 0.7:
        sep = r.choice(("-", ".", "_", "")) if url_safe else r.choice(("-", ".", "_", "", "!", "+"))
        return sep.join(r.sample(WORDS, 3)) + str(r.randint(10, 9999)) + r.choice(symbols)
    if style < 0.85:
        return r.choice(WORDS) + r.choice(symbols) + r.choice(WORDS).lower() + str(r.randint(1990, 2026))
    return rs(r, ALNUM, r.randint(20, 40))


def db_password(r: Rng) -> str:
    return password(r, url_safe=True)


def aws_session_token(r: Rng) -> str:
    raw = b"!\n\torigin_ec\x10" + rbytes(r, 2) + b"\x1a\t" + r.choice(AWS_REGIONS).encode() + b'"G0E\x02!'
    return b64(raw + rbytes(r, r.randint(300, 560)))


def openai_key(r: Rng) -> str:
    roll = r.random()
    if roll < 0.25:
        return "sk-" + rs(r, ALNUM, 20) + "T3BlbkFJ" + rs(r, ALNUM, 20)
    prefix = "sk-proj-" if roll < 0.8 else "sk-svcacct-"
    return prefix + rs(r, B64URL, r.randint(58, 74)) + "T3BlbkFJ" + rs(r, B64URL, r.randint(58, 74))


def pypi_token(r: Rng) -> str:
    caveat = r.choice(
        (
            b'{"version": 1, "permissions": "user"}',
            b'[1,["' + r.choice(PROJECTS).encode() + b'"]]',
            b"[0," + str(r.randint(1_700_000_000, 1_800_000_000)).encode() + b"]",
        )
    )
    body = b"\x02" + macaroon_field(1, b"pypi.org") + macaroon_field(2, uuid4(r).encode()) + b"\x00"
    body += macaroon_field(2, caveat) + b"\x00\x00" + macaroon_field(6, rbytes(r, 32))
    return "pypi-" + b64url(body)


def sentry_token(r: Rng) -> str:
    if r.random() < 0.35:
        return "sntryu_" + hexs(r, 64)
    claims = {
        "iat": round(r.uniform(1.70e9, 1.79e9), 6),
        "url": "https://sentry.io",
        "region_url": r.choice(("https://us.sentry.io", "https://de.sentry.io")),
        "org": r.choice(("acme", "tidepool", "orchard-co", "kestrel")),
    }
    return (
        "sntrys_" + b64(json.dumps(claims, separators=(",", ":")).encode()).rstrip("=") + "_" + rs(r, ALNUM + "+/", 43)
    )


def grafana_token(r: Rng) -> str:
    if r.random() < 0.6:
        return "glsa_" + rs(r, ALNUM, 32) + "_" + hexs(r, 8)
    claims = {
        "o": str(r.randint(100000, 999999)),
        "n": f"stack-{r.randint(100000, 999999)}-hm-write",
        "k": rs(r, ALNUM, 24),
        "m": {"r": r.choice(("prod-us-east-0", "prod-eu-west-2"))},
    }
    return "glc_" + b64(json.dumps(claims, separators=(",", ":")).encode()).rstrip("=")


def honeycomb_key(r: Rng) -> str:
    if r.random() < 0.4:
        return rs(r, ALNUM, 22)
    return "hc" + r.choice("abx") + "ik_" + rs(r, CROCKFORD.lower(), 26) + rs(r, LD, 32)


def discord_token(r: Rng) -> str:
    snowflake = str(r.randint(10**17, 13 * 10**17))
    return b64(snowflake.encode()).rstrip("=") + "." + rs(r, B64URL, 6) + "." + rs(r, B64URL, 38)


def teams_webhook(r: Rng) -> str:
    tenant = r.choice(("acme", "tidepoollabs", "orchardco", "contoso"))
    url = (
        f"https://{tenant}.webhook.office.com/webhookb2/{uuid4(r)}@{uuid4(r)}/IncomingWebhook/{hexs(r, 32)}/{uuid4(r)}"
    )
    return url + ("/V2" + rs(r, B64URL, 43) if r.random() < 0.5 else "")


def sas_signature(r: Rng) -> str:
    return b64(rbytes(r, 32)).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")


def azure_client_secret(r: Rng) -> str:
    return rs(r, ALNUM, 3) + r.choice(DIGITS) + "Q~" + rs(r, ALNUM + "_~.-", 34)


def vault_token(r: Rng) -> str:
    roll = r.random()
    if roll < 0.4:
        return "hvs." + rs(r, ALNUM, 24)
    if roll < 0.85:
        return "hvs.CAESI" + rs(r, B64URL, 86)
    return "hvb.AAAAAQ" + rs(r, B64URL, 80)


def gitlab_token(r: Rng) -> str:
    kind = weighted(r, ((6, "glpat-"), (2, "glrt-"), (1, "gldt-"), (1, "glptt-")))
    return kind + (hexs(r, 40) if kind == "glptt-" else rs(r, B64URL, 20))


def oci_token(r: Rng) -> str:
    chars = list(rs(r, ALNUM, 17) + rs(r, "()[];:._+-", 3))
    r.shuffle(chars)
    return "".join(chars)


def generic_secret(r: Rng) -> str:
    style = weighted(r, ((3, "hex64"), (2, "hex32"), (2, "b64"), (1, "laravel"), (1, "fernet"), (1, "django")))
    if style == "hex64":
        return hexs(r, 64)
    if style == "hex32":
        return hexs(r, 32)
    if style == "b64":
        return b64(rbytes(r, r.choice((32, 48))))
    if style == "laravel":
        return "base64:" + b64(rbytes(r, 32))
    if style == "fernet":
        return base64.urlsafe_b64encode(rbytes(r, 32)).decode()
    return rs(r, LD + "!@^*(-_=+)", 50)


def basic_credential(r: Rng) -> str:
    return b64(f"{r.choice(LOGINS)}:{password(r)}".encode())


def base64_credential(r: Rng) -> str:
    if r.random() < 0.5:
        return b64(f"{r.choice(LOGINS)}:{password(r)}".encode())
    return b64(r.choice((password(r), "ghp_" + rs(r, ALNUM, 36), hexs(r, 40))).encode())


def age_secret(r: Rng) -> str:
    return bech32("age-secret-key-", rbytes(r, 32)).upper()


def gcp_private_key(r: Rng) -> str:
    key = pem("PRIVATE KEY", pkcs8(der_seq(der_oid(OID_RSA), DER_NULL), rsa_pkcs1(r)))
    return key.replace("\n", "\\n")


def oauth_client_secret(r: Rng) -> str:
    return weighted(r, ((4, "GOCSPX-" + rs(r, B64URL, 28)), (3, hexs(r, 40)), (2, rs(r, B64URL, 43))))


def mailgun_key(r: Rng) -> str:
    return "key-" + hexs(r, 32) if r.random() < 0.4 else f"{hexs(r, 32)}-{hexs(r, 8)}-{hexs(r, 8)}"


def stripe_key(prefix: str) -> Callable[[Rng], str]:
    def gen(r: Rng) -> str:
        return prefix + (rs(r, ALNUM, 24) if r.random() < 0.4 else "51" + rs(r, ALNUM, 97))

    return gen


def fixed(prefix: str, alphabet: str, n: int) -> Callable[[Rng], str]:
    return lambda r: prefix + rs(r, alphabet, n)


def choice_of(*gens: Callable[[Rng], str]) -> Callable[[Rng], str]:
    return lambda r: r.choice(gens)(r)


# --- companions (user names, paired ids) ----------------------------------------------------


def plain_user(names: Sequence[str]) -> UserFn:
    return lambda r: Frag(r.choice(names))


def twilio_sid(r: Rng) -> Frag:
    return look("account_identifier", "AC" + hexs(r, 32))


def paypal_client_id(r: Rng) -> Frag:
    return look("oauth_client_id", "A" + rs(r, B64URL, 79))


def razorpay_key_id(r: Rng) -> Frag:
    return look("account_identifier", "rzp_live_" + rs(r, ALNUM, 14))


def auth0_client_id(r: Rng) -> Frag:
    return look("oauth_client_id", rs(r, ALNUM, 32))


def google_client_id(r: Rng) -> Frag:
    return look("oauth_client_id", f"{digits(r, 12)}-{rs(r, LD, 32)}.apps.googleusercontent.com")


def paired(id_kind: str, id_key: str, id_gen: Callable[[Rng], str], share: float) -> EntryFn:
    """The secret half of a pair, with the (also labelled) id half next to it most of the time."""

    def build(r: Rng, kind: SecretKind, value: str) -> list[Entry]:
        out = [Entry(key_for(r, kind.keys), sec(kind.kind, value), kind.desc, comment=note_for(r))]
        if r.random() < share:
            out.insert(0, Entry(id_key, sec(id_kind, id_gen(r)), "access key id"))
        return out

    return build


def aws_akid(r: Rng) -> str:
    return "AKIA" + rs(r, BASE32, 16)


def aws_secret(r: Rng) -> str:
    return rs(r, ALNUM + "+/", 40)


def aws_session_entries(r: Rng, kind: SecretKind, value: str) -> list[Entry]:
    return [
        Entry("AWS_ACCESS_KEY_ID", sec("aws_access_key_id", "ASIA" + rs(r, BASE32, 16)), "temporary access key id"),
        Entry("AWS_SECRET_ACCESS_KEY", sec("aws_secret_access_key", aws_secret(r)), "secret access key"),
        Entry(key_for(r, kind.keys), sec(kind.kind, value), kind.desc),
    ]


def aws_id_entries(r: Rng, kind: SecretKind, value: str) -> list[Entry]:
    out = [Entry(key_for(r, kind.keys), sec(kind.kind, value), kind.desc)]
    if r.random() < 0.6:
        out.append(Entry("AWS_SECRET_ACCESS_KEY", sec("aws_secret_access_key", aws_secret(r)), "secret access key"))
    return out


# --- database connection syntaxes -----------------------------------------------------------

DB_FORMS: dict[str, tuple[tuple[str, str], ...]] = {
    "postgres_password": (
        ("DATABASE_URL", "postgresql://⟦dbuser⟧:⟦v⟧@⟦host⟧:5432/⟦db⟧?sslmode=require"),
        ("DATABASE_URL", "postgres://⟦dbuser⟧:⟦v⟧@⟦rds⟧:5432/⟦db⟧"),
        ("SPRING_DATASOURCE_URL", "jdbc:postgresql://⟦host⟧:5432/⟦db⟧?user=⟦dbuser⟧&password=⟦v⟧&ssl=true"),
        ("PG_DSN", "host=⟦host⟧ port=5432 dbname=⟦db⟧ user=⟦dbuser⟧ password=⟦v⟧ sslmode=verify-full"),
        (
            "CONNECTIONSTRINGS__DEFAULT",
            "Host=⟦host⟧;Port=5432;Database=⟦db⟧;Username=⟦dbuser⟧;Password=⟦v⟧;SSL Mode=Require",
        ),
        ("PGPASSWORD", "⟦v⟧"),
        ("POSTGRES_PASSWORD", "⟦v⟧"),
    ),
    "mysql_password": (
        ("DATABASE_URL", "mysql://⟦dbuser⟧:⟦v⟧@⟦host⟧:3306/⟦db⟧"),
        ("MYSQL_DSN", "⟦dbuser⟧:⟦v⟧@tcp(⟦host⟧:3306)/⟦db⟧?parseTime=true&tls=skip-verify"),
        ("DB_URL", "jdbc:mysql://⟦rds⟧:3306/⟦db⟧?user=⟦dbuser⟧&password=⟦v⟧&useSSL=true"),
        ("SQLALCHEMY_DATABASE_URI", "mysql+pymysql://⟦dbuser⟧:⟦v⟧@⟦host⟧/⟦db⟧?charset=utf8mb4"),
        ("MYSQL_ROOT_PASSWORD", "⟦v⟧"),
        ("MYSQL_PWD", "⟦v⟧"),
    ),
    "mongodb_password": (
        ("MONGODB_URI", "mongodb+srv://⟦dbuser⟧:⟦v⟧@cluster0.⟦mongo_id⟧.mongodb.net/⟦db⟧?retryWrites=true&w=majority"),
        ("MONGO_URL", "mongodb://⟦dbuser⟧:⟦v⟧@⟦host⟧:27017,⟦host#2⟧:27017/⟦db⟧?replicaSet=rs0&authSource=admin"),
        ("MONGO_INITDB_ROOT_PASSWORD", "⟦v⟧"),
        ("SPRING_DATA_MONGODB_URI", "mongodb://⟦dbuser⟧:⟦v⟧@⟦host⟧:27017/⟦db⟧"),
    ),
    "redis_password": (
        ("REDIS_URL", "redis://:⟦v⟧@⟦host⟧:6379/0"),
        ("REDIS_URL", "rediss://default:⟦v⟧@⟦redis_cloud⟧:6380"),
        ("CACHE_REDIS_URL", "redis://⟦dbuser⟧:⟦v⟧@⟦host⟧:6379/2"),
        ("REDIS_CONNECTION", "⟦host⟧:6380,password=⟦v⟧,ssl=True,abortConnect=False"),
        ("REDIS_PASSWORD", "⟦v⟧"),
    ),
    "mssql_password": (
        (
            "CONNECTIONSTRINGS__SQL",
            "Server=tcp:⟦azsql⟧,1433;Initial Catalog=⟦db⟧;User ID=⟦dbuser⟧;Password=⟦v⟧;Encrypt=True;",
        ),
        ("MSSQL_URL", "jdbc:sqlserver://⟦host⟧:1433;databaseName=⟦db⟧;user=⟦dbuser⟧;password=⟦v⟧;encrypt=true"),
        (
            "ODBC_CONNECTION",
            "Driver={ODBC Driver 18 for SQL Server};Server=⟦host⟧,1433;Database=⟦db⟧;Uid=⟦dbuser⟧;Pwd=⟦v⟧;",
        ),
        ("DATABASE_URL", "mssql+pyodbc://⟦dbuser⟧:⟦v⟧@⟦host⟧:1433/⟦db⟧?driver=ODBC+Driver+18+for+SQL+Server"),
        ("MSSQL_SA_PASSWORD", "⟦v⟧"),
    ),
}
FILLERS["mongo_id"] = lambda r: rs(r, LD, 5)
FILLERS["redis_cloud"] = lambda r: (
    f"redis-{r.randint(10000, 19999)}.c{r.randint(1, 300)}.{r.choice(AWS_REGIONS)}-1.ec2.redns.redis-cloud.com"
)
FILLERS["azsql"] = lambda r: f"sql-{r.choice(PROJECTS)}-{r.choice(ENVS)}.database.windows.net"


def db_entries(r: Rng, kind: SecretKind, value: str) -> list[Entry]:
    key, template = r.choice(DB_FORMS[kind.kind])
    return [Entry(key, fill(r, template, {"v": sec(kind.kind, value)}), kind.desc, comment=note_for(r))]


def wrapped_entries(key: str, template: str) -> EntryFn:
    def build(r: Rng, kind: SecretKind, value: str) -> list[Entry]:
        return [Entry(key, fill(r, template, {"v": sec(kind.kind, value)}), kind.desc, comment=note_for(r))]

    return build


def either(*builders: EntryFn) -> EntryFn:
    return lambda r, kind, value: r.choice(builders)(r, kind, value)


def bare(r: Rng, kind: SecretKind, value: str) -> list[Entry]:
    return [Entry(key_for(r, kind.keys), sec(kind.kind, value), kind.desc, kind.multiline, note_for(r))]


FILLERS["storage"] = lambda r: f"st{r.choice(PROJECTS).replace('-', '')}{r.choice(ENVS)}"[:24]
FILLERS["sbns"] = lambda r: f"sb-{r.choice(PROJECTS)}-{r.choice(ENVS)}"
FILLERS["sasq"] = lambda r: (
    f"sv=2022-11-02&ss=b&srt=co&sp=rwdlacx&se={day(r)}T18:00:00Z&st={day(r)}T09:00:00Z&spr=https"
)


# --- the secret kinds -----------------------------------------------------------------------

BEARER = ("Authorization", "Bearer ")
AWS_CREDENTIALS_FILE = (
    "[⟦awsprofile⟧]\naws_access_key_id = ⟦aws_access_key_id⟧\naws_secret_access_key = ⟦v⟧\nregion = ⟦region⟧\n"
)
PEM_SHAPES = (
    ("pem", "⟦v⟧\n"),
    ("shell", "cat > ⟦keyfile⟧ <<'EOF'\n⟦v⟧\nEOF\nchmod 600 ⟦keyfile⟧\n"),
    (
        "terraform",
        'resource "tls_locally_signed_cert" "⟦svc⟧" {\n  ca_private_key_pem = <<EOT\n⟦v⟧\nEOT\n  validity_period_hours = 8760\n}\n',
    ),
    ("python", 'SIGNING_KEY = """⟦v⟧\n"""\n'),
    ("env", 'PRIVATE_KEY="⟦v⟧"\n'),
)

SECRET_KINDS: tuple[SecretKind, ...] = (
    # cloud
    SecretKind(
        "aws_access_key_id",
        "AWS",
        "AWS access key id",
        aws_akid,
        ("AWS_ACCESS_KEY_ID", "AWS_KEY_ID", "S3_ACCESS_KEY"),
        prefix="AKIA",
        entry=aws_id_entries,
        native=(
            (
                "shell",
                "aws configure set aws_access_key_id ⟦v⟧ --profile ⟦awsprofile⟧\naws configure set aws_secret_access_key ⟦aws_secret_access_key⟧ --profile ⟦awsprofile⟧\n",
            ),
        ),
    ),
    SecretKind(
        "aws_secret_access_key",
        "AWS",
        "AWS secret access key",
        aws_secret,
        ("AWS_SECRET_ACCESS_KEY", "AWS_SECRET_KEY", "S3_SECRET_KEY"),
        entry=paired("aws_access_key_id", "AWS_ACCESS_KEY_ID", aws_akid, 0.75),
        native=(("ini", AWS_CREDENTIALS_FILE),),
    ),
    SecretKind(
        "aws_session_token",
        "AWS",
        "AWS STS session token",
        aws_session_token,
        ("AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN"),
        entry=aws_session_entries,
        native=(
            (
                "json",
                '{\n    "Credentials": {\n        "AccessKeyId": "⟦asia_id⟧",\n        "SecretAccessKey": "⟦aws_secret_access_key⟧",\n        "SessionToken": "⟦v⟧",\n        "Expiration": "⟦date_time⟧"\n    },\n    "AssumedRoleUser": {\n        "Arn": "⟦arn⟧"\n    }\n}\n',
            ),
        ),
    ),
    SecretKind(
        "google_api_key",
        "Google",
        "Google API key (Gemini / Maps server key)",
        fixed("AIza", B64URL, 35),
        ("GOOGLE_API_KEY", "GEMINI_API_KEY", "GOOGLE_MAPS_SERVER_KEY", "YOUTUBE_API_KEY"),
        ("x-goog-api-key", ""),
        "generativelanguage.googleapis.com",
        prefix="AIza",
        native=(
            (
                "shell",
                'curl "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent?key=⟦v⟧" \\\n  -H "Content-Type: application/json" -d @prompt.json\n',
            ),
            (
                "python",
                'import google.generativeai as genai\n\ngenai.configure(api_key="⟦v⟧")\nmodel = genai.GenerativeModel("gemini-1.5-pro")\n',
            ),
        ),
    ),
    SecretKind(
        "gcp_service_account_key",
        "Google Cloud",
        "GCP service account private key",
        gcp_private_key,
        ("GOOGLE_PRIVATE_KEY",),
        only_native=True,
        native=(
            (
                "json",
                '{\n  "type": "service_account",\n  "project_id": "⟦gproject⟧",\n  "private_key_id": "⟦hex40⟧",\n  "private_key": "⟦v⟧\\n",\n  "client_email": "⟦sa⟧@⟦gproject⟧.iam.gserviceaccount.com",\n  "client_id": "⟦digits21⟧",\n  "auth_uri": "https://accounts.google.com/o/oauth2/auth",\n  "token_uri": "https://oauth2.googleapis.com/token",\n  "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs",\n  "universe_domain": "googleapis.com"\n}\n',
            ),
            ("env", 'GOOGLE_CLIENT_EMAIL=⟦sa⟧@⟦gproject⟧.iam.gserviceaccount.com\nGOOGLE_PRIVATE_KEY="⟦v⟧\\n"\n'),
            (
                "yaml",
                'gcp:\n  project_id: ⟦gproject⟧\n  client_email: ⟦sa⟧@⟦gproject⟧.iam.gserviceaccount.com\n  private_key: "⟦v⟧\\n"\n',
            ),
        ),
    ),
    SecretKind(
        "azure_storage_account_key",
        "Azure",
        "Azure storage account key",
        lambda r: b64(rbytes(r, 64)),
        ("AZURE_STORAGE_KEY", "AZURE_STORAGE_ACCOUNT_KEY", "STORAGE_ACCOUNT_KEY"),
        entry=either(
            bare,
            wrapped_entries(
                "AZURE_STORAGE_CONNECTION_STRING",
                "DefaultEndpointsProtocol=https;AccountName=⟦storage⟧;AccountKey=⟦v⟧;EndpointSuffix=core.windows.net",
            ),
        ),
        native=(
            (
                "shell",
                "az storage blob upload --account-name ⟦storage⟧ --account-key '⟦v⟧' \\\n  --container-name backups --file ./dump.sql.gz --name ⟦day⟧/dump.sql.gz\n",
            ),
        ),
    ),
    SecretKind(
        "azure_sas_signature",
        "Azure",
        "Azure SAS signature",
        sas_signature,
        ("AZURE_SAS_TOKEN", "SAS_URL", "BLOB_SAS_URL"),
        entry=either(
            wrapped_entries(
                "BLOB_SAS_URL", "https://⟦storage⟧.blob.core.windows.net/exports/report.csv?⟦sasq⟧&sig=⟦v⟧"
            ),
            wrapped_entries("AZURE_SAS_TOKEN", "?⟦sasq⟧&sig=⟦v⟧"),
        ),
    ),
    SecretKind(
        "azure_ad_client_secret",
        "Microsoft Entra ID",
        "Entra ID app client secret",
        azure_client_secret,
        ("AZURE_CLIENT_SECRET", "AAD_CLIENT_SECRET", "MICROSOFT_PROVIDER_AUTHENTICATION_SECRET"),
        user=lambda r: look("oauth_client_id", uuid4(r)),
        native=(
            ("shell", "az login --service-principal -u ⟦u⟧ -p '⟦v⟧' --tenant ⟦uuid⟧\n"),
            (
                "json",
                '{\n  "AzureAd": {\n    "Instance": "https://login.microsoftonline.com/",\n    "TenantId": "⟦uuid⟧",\n    "ClientId": "⟦uuid#2⟧",\n    "ClientSecret": "⟦v⟧"\n  }\n}\n',
            ),
        ),
    ),
    SecretKind(
        "azure_shared_access_key",
        "Azure",
        "Service Bus / Event Hubs shared access key",
        lambda r: b64(rbytes(r, 32)),
        ("SERVICEBUS_CONNECTION", "EVENTHUB_CONNECTION_STRING"),
        entry=wrapped_entries(
            "SERVICEBUS_CONNECTION",
            "Endpoint=sb://⟦sbns⟧.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=⟦v⟧",
        ),
    ),
    SecretKind(
        "azure_cosmosdb_key",
        "Azure",
        "Cosmos DB account key",
        lambda r: b64(rbytes(r, 64)),
        ("COSMOS_KEY", "COSMOSDB_PRIMARY_KEY"),
        entry=either(
            bare,
            wrapped_entries(
                "COSMOS_CONNECTION_STRING",
                "AccountEndpoint=https://cosmos-⟦project⟧.documents.azure.com:443/;AccountKey=⟦v⟧;",
            ),
        ),
    ),
    SecretKind(
        "digitalocean_token",
        "DigitalOcean",
        "DigitalOcean personal access token",
        fixed("dop_v1_", HEX, 64),
        ("DIGITALOCEAN_TOKEN", "DO_API_TOKEN", "DIGITALOCEAN_ACCESS_TOKEN"),
        BEARER,
        "api.digitalocean.com",
        prefix="dop_v1_",
        native=(("shell", "doctl auth init --access-token ⟦v⟧ --context ⟦project⟧\n"),),
    ),
    SecretKind(
        "alibaba_access_key_id",
        "Alibaba Cloud",
        "Alibaba Cloud AccessKey ID",
        fixed("LTAI", ALNUM, 20),
        ("ALIBABA_CLOUD_ACCESS_KEY_ID", "ALICLOUD_ACCESS_KEY"),
        prefix="LTAI",
    ),
    SecretKind(
        "alibaba_access_key_secret",
        "Alibaba Cloud",
        "Alibaba Cloud AccessKey secret",
        fixed("", ALNUM, 30),
        ("ALIBABA_CLOUD_ACCESS_KEY_SECRET", "ALICLOUD_SECRET_KEY"),
        entry=paired("alibaba_access_key_id", "ALIBABA_CLOUD_ACCESS_KEY_ID", fixed("LTAI", ALNUM, 20), 0.8),
        native=(
            (
                "shell",
                "aliyun configure set --profile ⟦awsprofile⟧ --mode AK --region cn-hangzhou \\\n  --access-key-id ⟦alibaba_access_key_id⟧ --access-key-secret ⟦v⟧\n",
            ),
        ),
    ),
    SecretKind(
        "ibm_cloud_api_key",
        "IBM Cloud",
        "IBM Cloud API key",
        fixed("", B64URL, 44),
        ("IBMCLOUD_API_KEY", "IC_API_KEY", "IBM_API_KEY"),
        native=(
            ("shell", "ibmcloud login --apikey ⟦v⟧ -r us-south -g default\n"),
            (
                "shell",
                "curl -X POST https://iam.cloud.ibm.com/identity/token \\\n  -H 'Content-Type: application/x-www-form-urlencoded' \\\n  -d 'grant_type=urn:ibm:params:oauth:grant-type:apikey&apikey=⟦v⟧'\n",
            ),
        ),
    ),
    SecretKind(
        "oci_auth_token",
        "Oracle Cloud",
        "OCI auth token",
        oci_token,
        ("OCI_AUTH_TOKEN", "OCIR_PASSWORD"),
        user=lambda r: Frag(
            f"{r.choice(('axk2lmq9', 'frabc1xyz', 'idn3tnc'))}/oracleidentitycloudservice/{r.choice(LOGINS)}"
        ),
        native=(("shell", "docker login ⟦ocir⟧ -u '⟦u⟧' -p '⟦v⟧'\n"),),
    ),
    # code hosting and CI
    SecretKind(
        "github_pat_classic",
        "GitHub",
        "GitHub personal access token (classic)",
        lambda r: checksummed(r, "ghp_"),
        ("GITHUB_TOKEN", "GH_TOKEN", "GITHUB_PAT", "HOMEBREW_GITHUB_API_TOKEN"),
        ("Authorization", "token "),
        "api.github.com",
        user=plain_user(LOGINS),
        prefix="ghp_",
        native=(
            ("shell", "echo ⟦v⟧ | gh auth login --with-token\n"),
            ("shell", "git remote set-url origin https://⟦login⟧:⟦v⟧@github.com/⟦org⟧/⟦project⟧.git\n"),
        ),
    ),
    SecretKind(
        "github_app_token",
        "GitHub",
        "GitHub OAuth / app token",
        lambda r: checksummed(r, r.choice(("gho_", "ghu_", "ghs_", "ghr_"))),
        ("GITHUB_OAUTH_TOKEN", "GH_APP_TOKEN", "GITHUB_INSTALLATION_TOKEN"),
        BEARER,
        "api.github.com",
        prefix="ghs_",
        native=(
            (
                "json",
                '{\n  "github.com": {\n    "user": "⟦login⟧",\n    "oauth_token": "⟦v⟧",\n    "git_protocol": "https"\n  }\n}\n',
            ),
        ),
    ),
    SecretKind(
        "github_fine_grained_pat",
        "GitHub",
        "GitHub fine-grained personal access token",
        lambda r: "github_pat_11" + rs(r, UD, 20) + "_" + rs(r, ALNUM, 59),
        ("GITHUB_TOKEN", "GH_PAT", "RENOVATE_TOKEN"),
        BEARER,
        "api.github.com",
        user=plain_user(LOGINS),
        prefix="github_pat_",
        native=(("yaml", "github.com:\n    user: ⟦login⟧\n    oauth_token: ⟦v⟧\n    git_protocol: ssh\n"),),
    ),
    SecretKind(
        "gitlab_token",
        "GitLab",
        "GitLab access token",
        gitlab_token,
        ("GITLAB_TOKEN", "CI_JOB_TOKEN_OVERRIDE", "GL_TOKEN", "GITLAB_RUNNER_TOKEN"),
        ("PRIVATE-TOKEN", ""),
        "gitlab.com/api/v4",
        prefix="glpat-",
        native=(
            (
                "toml",
                '[[runners]]\n  name = "⟦svc⟧-runner"\n  url = "https://gitlab.com"\n  token = "⟦v⟧"\n  executor = "docker"\n',
            ),
        ),
    ),
    SecretKind(
        "bitbucket_app_password",
        "Bitbucket",
        "Bitbucket app password",
        fixed("ATBB", ALNUM, 32),
        ("BITBUCKET_APP_PASSWORD", "BB_APP_PASSWORD"),
        user=plain_user(LOGINS),
        prefix="ATBB",
        native=(("shell", "git clone https://⟦login⟧:⟦v⟧@bitbucket.org/⟦org⟧/⟦project⟧.git\n"),),
    ),
    SecretKind(
        "atlassian_api_token",
        "Atlassian",
        "Atlassian (Jira/Confluence) API token",
        lambda r: "ATATT3xFfGF0" + rs(r, B64URL, 170) + "=" + rs(r, UPHEX, 8),
        ("JIRA_API_TOKEN", "CONFLUENCE_TOKEN", "ATLASSIAN_API_TOKEN"),
        user=lambda r: Frag(f"{r.choice(PEOPLE).lower().replace('ê', 'e')}@acme.io"),
        prefix="ATATT3",
    ),
    SecretKind(
        "circleci_token",
        "CircleCI",
        "CircleCI personal API token",
        lambda r: "CCIPAT_" + rs(r, BASE58, 22) + "_" + hexs(r, 40),
        ("CIRCLECI_TOKEN", "CIRCLE_TOKEN"),
        ("Circle-Token", ""),
        "circleci.com/api/v2",
        prefix="CCIPAT_",
    ),
    SecretKind(
        "travis_ci_token",
        "Travis CI",
        "Travis CI API token",
        fixed("", B64URL, 22),
        ("TRAVIS_TOKEN", "TRAVIS_API_TOKEN"),
        ("Authorization", "token "),
        "api.travis-ci.com",
        native=(("shell", "travis login --pro --api-token ⟦v⟧\n"),),
    ),
    SecretKind(
        "jenkins_api_token",
        "Jenkins",
        "Jenkins API token",
        fixed("11", HEX, 32),
        ("JENKINS_API_TOKEN", "JENKINS_TOKEN"),
        user=plain_user(LOGINS),
        native=(
            (
                "shell",
                "curl -X POST -u ⟦login⟧:⟦v⟧ https://jenkins.⟦domain⟧/job/⟦project⟧/buildWithParameters?ENV=⟦env⟧\n",
            ),
            (
                "shell",
                "java -jar jenkins-cli.jar -s https://jenkins.⟦domain⟧/ -auth ⟦login⟧:⟦v⟧ build ⟦project⟧-deploy\n",
            ),
        ),
    ),
    SecretKind(
        "terraform_cloud_token",
        "HCP Terraform",
        "HCP Terraform API token",
        lambda r: rs(r, ALNUM, 14) + ".atlasv1." + rs(r, ALNUM, 67),
        ("TF_API_TOKEN", "TFE_TOKEN", "TF_TOKEN_app_terraform_io"),
        BEARER,
        "app.terraform.io/api/v2",
        native=(
            ("json", '{\n  "credentials": {\n    "app.terraform.io": {\n      "token": "⟦v⟧"\n    }\n  }\n}\n'),
            ("terraform", 'credentials "app.terraform.io" {\n  token = "⟦v⟧"\n}\n'),
        ),
    ),
    SecretKind(
        "vault_token",
        "HashiCorp Vault",
        "Vault token",
        vault_token,
        ("VAULT_TOKEN", "VAULT_ROOT_TOKEN"),
        ("X-Vault-Token", ""),
        "vault.⟦domain⟧:8200/v1",
        prefix="hvs.",
        native=(
            (
                "shell",
                "export VAULT_ADDR=https://vault.⟦domain⟧:8200\nvault login ⟦v⟧\nvault kv get -mount=secret ⟦project⟧/⟦env⟧\n",
            ),
            (
                "json",
                '{\n  "request_id": "⟦uuid⟧",\n  "auth": {\n    "client_token": "⟦v⟧",\n    "accessor": "⟦b64url24⟧",\n    "policies": ["default", "⟦project⟧-read"],\n    "lease_duration": 2764800,\n    "renewable": true\n  }\n}\n',
            ),
        ),
    ),
    # payment
    SecretKind(
        "stripe_secret_key",
        "Stripe",
        "Stripe live secret key",
        stripe_key("sk_live_"),
        ("STRIPE_SECRET_KEY", "STRIPE_API_KEY", "STRIPE_KEY"),
        BEARER,
        "api.stripe.com",
        prefix="sk_live_",
        native=(
            ("shell", "stripe listen --api-key ⟦v⟧ --forward-to localhost:⟦port⟧/webhooks/stripe\n"),
            ("shell", "curl https://api.stripe.com/v1/customers -u ⟦v⟧: -d email=⟦email⟧\n"),
        ),
    ),
    SecretKind(
        "stripe_restricted_key",
        "Stripe",
        "Stripe restricted key",
        stripe_key("rk_live_"),
        ("STRIPE_RESTRICTED_KEY", "STRIPE_RK", "STRIPE_READ_KEY"),
        BEARER,
        "api.stripe.com",
        prefix="rk_live_",
    ),
    SecretKind(
        "stripe_webhook_secret",
        "Stripe",
        "Stripe webhook signing secret",
        fixed("whsec_", ALNUM, 32),
        ("STRIPE_WEBHOOK_SECRET", "STRIPE_ENDPOINT_SECRET", "WEBHOOK_SIGNING_SECRET"),
        prefix="whsec_",
        native=(
            (
                "python",
                'event = stripe.Webhook.construct_event(\n    payload, request.headers["Stripe-Signature"], "⟦v⟧"\n)\n',
            ),
        ),
    ),
    SecretKind(
        "square_access_token",
        "Square",
        "Square access token",
        choice_of(fixed("EAAA", B64URL, 60), fixed("sq0atp-", B64URL, 22)),
        ("SQUARE_ACCESS_TOKEN", "SQUARE_TOKEN"),
        BEARER,
        "connect.squareup.com/v2",
        prefix="EAAA",
    ),
    SecretKind(
        "paypal_client_secret",
        "PayPal",
        "PayPal REST client secret",
        fixed("E", B64URL, 79),
        ("PAYPAL_CLIENT_SECRET", "PAYPAL_SECRET"),
        user=paypal_client_id,
        native=(
            (
                "shell",
                'curl -v https://api-m.paypal.com/v1/oauth2/token \\\n  -u "⟦u⟧:⟦v⟧" \\\n  -d "grant_type=client_credentials"\n',
            ),
        ),
    ),
    SecretKind(
        "razorpay_key_secret",
        "Razorpay",
        "Razorpay key secret",
        fixed("", ALNUM, 24),
        ("RAZORPAY_KEY_SECRET", "RAZORPAY_SECRET"),
        user=razorpay_key_id,
        native=(("javascript", 'const razorpay = new Razorpay({\n  key_id: "⟦u⟧",\n  key_secret: "⟦v⟧",\n});\n'),),
    ),
    SecretKind(
        "shopify_access_token",
        "Shopify",
        "Shopify Admin API access token",
        lambda r: r.choice(("shpat_", "shpca_", "shppa_")) + hexs(r, 32),
        ("SHOPIFY_ACCESS_TOKEN", "SHOPIFY_ADMIN_TOKEN"),
        ("X-Shopify-Access-Token", ""),
        "⟦org⟧.myshopify.com/admin/api/2024-10",
        prefix="shpat_",
    ),
    SecretKind(
        "shopify_shared_secret",
        "Shopify",
        "Shopify app shared secret",
        fixed("shpss_", HEX, 32),
        ("SHOPIFY_API_SECRET", "SHOPIFY_SHARED_SECRET"),
        prefix="shpss_",
        user=lambda r: look("oauth_client_id", hexs(r, 32)),
        native=(
            (
                "toml",
                'client_id = "⟦hex32⟧"\nname = "⟦project⟧"\napplication_url = "https://⟦project⟧.example.com"\n\n[auth]\nredirect_urls = ["https://⟦project⟧.example.com/auth/callback"]\n\n# do not commit\napi_secret = "⟦v⟧"\n',
            ),
        ),
    ),
    # messaging
    SecretKind(
        "slack_bot_token",
        "Slack",
        "Slack bot token",
        lambda r: f"xoxb-{digits(r, r.randint(10, 13))}-{digits(r, r.randint(10, 13))}-{rs(r, ALNUM, 24)}",
        ("SLACK_BOT_TOKEN", "SLACK_TOKEN"),
        BEARER,
        "slack.com/api",
        prefix="xoxb-",
    ),
    SecretKind(
        "slack_user_token",
        "Slack",
        "Slack user token",
        lambda r: f"xoxp-{digits(r, 12)}-{digits(r, 12)}-{digits(r, 13)}-{hexs(r, 32)}",
        ("SLACK_USER_TOKEN", "SLACK_ADMIN_TOKEN"),
        BEARER,
        "slack.com/api",
        prefix="xoxp-",
    ),
    SecretKind(
        "slack_app_token",
        "Slack",
        "Slack app-level token",
        lambda r: f"xapp-1-A{rs(r, UD, 10)}-{digits(r, 13)}-{hexs(r, 64)}",
        ("SLACK_APP_TOKEN",),
        BEARER,
        "slack.com/api",
        prefix="xapp-",
        native=(
            (
                "python",
                'from slack_bolt.adapter.socket_mode import SocketModeHandler\n\nSocketModeHandler(app, "⟦v⟧").start()\n',
            ),
        ),
    ),
    SecretKind(
        "slack_webhook_url",
        "Slack",
        "Slack incoming webhook URL",
        lambda r: f"https://hooks.slack.com/services/T{rs(r, UD, 10)}/B{rs(r, UD, 10)}/{rs(r, ALNUM, 24)}",
        ("SLACK_WEBHOOK_URL", "SLACK_WEBHOOK", "ALERTS_WEBHOOK"),
        native=(
            (
                "yaml",
                "receivers:\n  - name: ⟦svc⟧-oncall\n    slack_configs:\n      - api_url: ⟦v⟧\n        channel: '#alerts-⟦env⟧'\n        send_resolved: true\n",
            ),
        ),
    ),
    SecretKind(
        "discord_bot_token",
        "Discord",
        "Discord bot token",
        discord_token,
        ("DISCORD_TOKEN", "DISCORD_BOT_TOKEN"),
        ("Authorization", "Bot "),
        "discord.com/api/v10",
        native=(("python", 'bot = commands.Bot(command_prefix="!", intents=intents)\nbot.run("⟦v⟧")\n'),),
    ),
    SecretKind(
        "discord_webhook_url",
        "Discord",
        "Discord webhook URL",
        lambda r: f"https://discord.com/api/webhooks/{r.randint(10**17, 13 * 10**17)}/{rs(r, B64URL, 68)}",
        ("DISCORD_WEBHOOK_URL", "DISCORD_WEBHOOK"),
    ),
    SecretKind(
        "msteams_webhook_url",
        "Microsoft Teams",
        "Teams incoming webhook URL",
        teams_webhook,
        ("TEAMS_WEBHOOK_URL", "MSTEAMS_WEBHOOK"),
    ),
    SecretKind(
        "telegram_bot_token",
        "Telegram",
        "Telegram bot token",
        lambda r: f"{digits(r, r.randint(9, 10))}:AA{rs(r, B64URL, 33)}",
        ("TELEGRAM_BOT_TOKEN", "TG_TOKEN"),
        native=(
            ("shell", "curl -s \"https://api.telegram.org/bot⟦v⟧/sendMessage\" -d chat_id=⟦digits9⟧ -d text='⟦msg⟧'\n"),
        ),
    ),
    SecretKind(
        "twilio_auth_token",
        "Twilio",
        "Twilio auth token",
        lambda r: hexs(r, 32),
        ("TWILIO_AUTH_TOKEN",),
        user=twilio_sid,
        native=(
            (
                "python",
                'from twilio.rest import Client\n\nclient = Client("⟦u⟧", "⟦v⟧")\nclient.messages.create(to="⟦phone_number⟧", from_="⟦phone_number#2⟧", body="⟦msg⟧")\n',
            ),
        ),
    ),
    SecretKind(
        "sendgrid_api_key",
        "SendGrid",
        "SendGrid API key",
        lambda r: f"SG.{rs(r, B64URL, 22)}.{rs(r, B64URL, 43)}",
        ("SENDGRID_API_KEY", "SMTP_PASSWORD"),
        BEARER,
        "api.sendgrid.com/v3",
        prefix="SG.",
        native=(
            (
                "properties",
                "spring.mail.host=smtp.sendgrid.net\nspring.mail.port=587\nspring.mail.username=apikey\nspring.mail.password=⟦v⟧\n",
            ),
        ),
    ),
    SecretKind(
        "mailgun_api_key",
        "Mailgun",
        "Mailgun private API key",
        mailgun_key,
        ("MAILGUN_API_KEY", "MAILGUN_KEY"),
        user=plain_user(("api",)),
        native=(
            (
                "shell",
                "curl -s --user 'api:⟦v⟧' https://api.eu.mailgun.net/v3/mg.⟦domain⟧/messages \\\n  -F from='ops@⟦domain⟧' -F to=⟦email⟧ -F subject='⟦msg⟧'\n",
            ),
        ),
    ),
    SecretKind(
        "postmark_server_token",
        "Postmark",
        "Postmark server token",
        uuid4,
        ("POSTMARK_SERVER_TOKEN", "POSTMARK_API_TOKEN"),
        ("X-Postmark-Server-Token", ""),
        "api.postmarkapp.com",
    ),
    SecretKind(
        "mailchimp_api_key",
        "Mailchimp",
        "Mailchimp API key",
        lambda r: f"{hexs(r, 32)}-us{r.randint(1, 21)}",
        ("MAILCHIMP_API_KEY", "MC_API_KEY"),
        user=plain_user(("anystring", "user")),
    ),
    # AI and ML
    SecretKind(
        "openai_api_key",
        "OpenAI",
        "OpenAI API key",
        openai_key,
        ("OPENAI_API_KEY", "OPENAI_KEY"),
        BEARER,
        "api.openai.com/v1",
        prefix="sk-proj-",
    ),
    SecretKind(
        "anthropic_api_key",
        "Anthropic",
        "Anthropic API key",
        lambda r: "sk-ant-api03-" + rs(r, B64URL, 93) + "AA",
        ("ANTHROPIC_API_KEY", "CLAUDE_API_KEY"),
        ("x-api-key", ""),
        "api.anthropic.com/v1",
        prefix="sk-ant-api03-",
    ),
    SecretKind(
        "huggingface_token",
        "Hugging Face",
        "Hugging Face access token",
        fixed("hf_", LETTERS, 34),
        ("HF_TOKEN", "HUGGINGFACEHUB_API_TOKEN", "HUGGING_FACE_HUB_TOKEN"),
        BEARER,
        "huggingface.co/api",
        prefix="hf_",
        native=(("shell", "huggingface-cli login --token ⟦v⟧ --add-to-git-credential\n"),),
    ),
    SecretKind(
        "cohere_api_key",
        "Cohere",
        "Cohere API key",
        fixed("", ALNUM, 40),
        ("COHERE_API_KEY", "CO_API_KEY"),
        BEARER,
        "api.cohere.com/v2",
    ),
    SecretKind(
        "replicate_api_token",
        "Replicate",
        "Replicate API token",
        fixed("r8_", ALNUM, 37),
        ("REPLICATE_API_TOKEN",),
        BEARER,
        "api.replicate.com/v1",
        prefix="r8_",
    ),
    SecretKind(
        "groq_api_key",
        "Groq",
        "Groq API key",
        fixed("gsk_", ALNUM, 52),
        ("GROQ_API_KEY",),
        BEARER,
        "api.groq.com/openai/v1",
        prefix="gsk_",
    ),
    SecretKind(
        "perplexity_api_key",
        "Perplexity",
        "Perplexity API key",
        fixed("pplx-", ALNUM, 48),
        ("PERPLEXITY_API_KEY", "PPLX_API_KEY"),
        BEARER,
        "api.perplexity.ai",
        prefix="pplx-",
    ),
    # databases
    SecretKind(
        "postgres_password",
        "PostgreSQL",
        "Postgres password",
        db_password,
        ("POSTGRES_PASSWORD",),
        user=plain_user(DB_USERS),
        entry=db_entries,
        native=(
            ("shell", "PGPASSWORD='⟦v⟧' psql -h ⟦host⟧ -U ⟦dbuser⟧ -d ⟦db⟧ -c 'select count(*) from orders;'\n"),
            ("pgpass", "# ~/.pgpass  hostname:port:database:username:password\n⟦host⟧:5432:⟦db⟧:⟦dbuser⟧:⟦v⟧\n"),
            ("sql", "ALTER ROLE ⟦dbuser⟧ WITH LOGIN PASSWORD '⟦v⟧';\nGRANT CONNECT ON DATABASE ⟦db⟧ TO ⟦dbuser⟧;\n"),
        ),
    ),
    SecretKind(
        "mysql_password",
        "MySQL",
        "MySQL password",
        db_password,
        ("MYSQL_PASSWORD",),
        user=plain_user(DB_USERS),
        entry=db_entries,
        native=(
            ("shell", "mysql -h ⟦host⟧ -u ⟦dbuser⟧ -p'⟦v⟧' ⟦db⟧ < migrations/0042_add_index.sql\n"),
            ("ini", "[client]\nhost=⟦host⟧\nuser=⟦dbuser⟧\npassword=⟦v⟧\ndefault-character-set=utf8mb4\n"),
            (
                "go",
                'dsn := "⟦dbuser⟧:⟦v⟧@tcp(⟦host⟧:3306)/⟦db⟧?parseTime=true"\ndb, err := sql.Open("mysql", dsn)\nif err != nil {\n\tlog.Fatal(err)\n}\n',
            ),
        ),
    ),
    SecretKind(
        "mongodb_password",
        "MongoDB",
        "MongoDB password",
        db_password,
        ("MONGO_PASSWORD",),
        user=plain_user(DB_USERS),
        entry=db_entries,
        native=(
            (
                "shell",
                "mongosh \"mongodb+srv://cluster0.⟦mongo_id⟧.mongodb.net/⟦db⟧\" --username ⟦dbuser⟧ --password '⟦v⟧'\n",
            ),
        ),
    ),
    SecretKind(
        "redis_password",
        "Redis",
        "Redis password",
        db_password,
        ("REDIS_PASSWORD",),
        user=plain_user(("default",)),
        entry=db_entries,
        native=(
            ("shell", "redis-cli -h ⟦host⟧ -p 6379 -a '⟦v⟧' --no-auth-warning INFO keyspace\n"),
            ("conf", "bind 0.0.0.0\nport 6379\nrequirepass ⟦v⟧\nmaxmemory 2gb\nmaxmemory-policy allkeys-lru\n"),
        ),
    ),
    SecretKind(
        "mssql_password",
        "SQL Server",
        "SQL Server password",
        db_password,
        ("MSSQL_PASSWORD", "SA_PASSWORD"),
        user=plain_user(("sa", "app", "reporting")),
        entry=db_entries,
        native=(
            ("shell", "sqlcmd -S ⟦host⟧,1433 -U sa -P '⟦v⟧' -d ⟦db⟧ -Q \"SELECT @@VERSION\"\n"),
            (
                "json",
                '{\n  "ConnectionStrings": {\n    "Default": "Server=tcp:⟦azsql⟧,1433;Initial Catalog=⟦db⟧;User ID=⟦dbuser⟧;Password=⟦v⟧;Encrypt=True;"\n  },\n  "Logging": { "LogLevel": { "Default": "Information" } }\n}\n',
            ),
        ),
    ),
    # package registries
    SecretKind(
        "npm_token",
        "npm",
        "npm access token",
        lambda r: checksummed(r, "npm_"),
        ("NPM_TOKEN", "NODE_AUTH_TOKEN", "NPM_AUTH_TOKEN"),
        prefix="npm_",
        native=(
            (
                "npmrc",
                "//registry.npmjs.org/:_authToken=⟦v⟧\n@⟦org⟧:registry=https://registry.npmjs.org/\nalways-auth=true\n",
            ),
            ("shell", "npm config set //registry.npmjs.org/:_authToken ⟦v⟧\nnpm publish --access public\n"),
        ),
    ),
    SecretKind(
        "pypi_token",
        "PyPI",
        "PyPI API token",
        pypi_token,
        ("PYPI_TOKEN", "TWINE_PASSWORD", "UV_PUBLISH_TOKEN", "POETRY_PYPI_TOKEN_PYPI"),
        prefix="pypi-",
        native=(
            ("ini", "[distutils]\nindex-servers =\n    pypi\n\n[pypi]\nusername = __token__\npassword = ⟦v⟧\n"),
            ("shell", "python -m twine upload -u __token__ -p ⟦v⟧ dist/*\n"),
        ),
    ),
    SecretKind(
        "dockerhub_pat",
        "Docker Hub",
        "Docker Hub personal access token",
        fixed("dckr_pat_", B64URL, 27),
        ("DOCKERHUB_TOKEN", "DOCKER_PASSWORD"),
        user=plain_user(LOGINS),
        prefix="dckr_pat_",
        native=(("shell", "echo '⟦v⟧' | docker login -u ⟦login⟧ --password-stdin\n"),),
    ),
    SecretKind(
        "nuget_api_key",
        "NuGet",
        "NuGet API key",
        fixed("oy2", LD, 43),
        ("NUGET_API_KEY", "NUGET_KEY"),
        native=(
            (
                "shell",
                "dotnet nuget push bin/Release/*.nupkg --api-key ⟦v⟧ --source https://api.nuget.org/v3/index.json\n",
            ),
        ),
    ),
    SecretKind(
        "rubygems_api_key",
        "RubyGems",
        "RubyGems API key",
        fixed("rubygems_", HEX, 48),
        ("GEM_HOST_API_KEY", "RUBYGEMS_API_KEY"),
        prefix="rubygems_",
        native=(("yaml", "---\n:rubygems_api_key: ⟦v⟧\n"),),
    ),
    SecretKind(
        "cratesio_token",
        "crates.io",
        "crates.io API token",
        fixed("cio", ALNUM, 32),
        ("CARGO_REGISTRY_TOKEN", "CRATES_IO_TOKEN"),
        prefix="cio",
        native=(("toml", '[registry]\ntoken = "⟦v⟧"\n'), ("shell", "cargo login ⟦v⟧\ncargo publish --dry-run\n")),
    ),
    # observability
    SecretKind(
        "datadog_api_key",
        "Datadog",
        "Datadog API key",
        lambda r: hexs(r, 32),
        ("DD_API_KEY", "DATADOG_API_KEY"),
        ("DD-API-KEY", ""),
        "api.datadoghq.eu/api/v2",
        native=(("yaml", "api_key: ⟦v⟧\nsite: datadoghq.eu\nlogs_enabled: true\napm_config:\n  enabled: true\n"),),
    ),
    SecretKind(
        "datadog_app_key",
        "Datadog",
        "Datadog application key",
        lambda r: hexs(r, 40),
        ("DD_APP_KEY", "DATADOG_APP_KEY"),
        ("DD-APPLICATION-KEY", ""),
        "api.datadoghq.com/api/v1",
    ),
    SecretKind(
        "newrelic_license_key",
        "New Relic",
        "New Relic license key",
        lambda r: hexs(r, 36) + "NRAL",
        ("NEW_RELIC_LICENSE_KEY", "NRIA_LICENSE_KEY"),
        native=(
            (
                "yaml",
                "common: &default_settings\n  license_key: '⟦v⟧'\n  app_name: ⟦project⟧ (⟦env⟧)\n  distributed_tracing:\n    enabled: true\n",
            ),
        ),
    ),
    SecretKind(
        "newrelic_user_api_key",
        "New Relic",
        "New Relic user API key",
        fixed("NRAK-", UD, 27),
        ("NEW_RELIC_API_KEY", "NEW_RELIC_USER_KEY"),
        ("Api-Key", ""),
        "api.newrelic.com/graphql",
        prefix="NRAK-",
    ),
    SecretKind(
        "sentry_auth_token",
        "Sentry",
        "Sentry auth token",
        sentry_token,
        ("SENTRY_AUTH_TOKEN",),
        BEARER,
        "sentry.io/api/0",
        prefix="sntrys_",
        native=(
            ("ini", "[defaults]\norg = ⟦org⟧\nproject = ⟦project⟧\n\n[auth]\ntoken = ⟦v⟧\n"),
            ("shell", "sentry-cli --auth-token ⟦v⟧ releases new ⟦semver⟧\n"),
        ),
    ),
    SecretKind(
        "grafana_token",
        "Grafana",
        "Grafana service account / Cloud token",
        grafana_token,
        ("GRAFANA_TOKEN", "GRAFANA_SERVICE_ACCOUNT_TOKEN", "GRAFANA_CLOUD_API_KEY"),
        BEARER,
        "grafana.⟦domain⟧/api",
        prefix="glsa_",
    ),
    SecretKind(
        "honeycomb_api_key",
        "Honeycomb",
        "Honeycomb API key",
        honeycomb_key,
        ("HONEYCOMB_API_KEY", "HONEYCOMB_WRITEKEY"),
        ("X-Honeycomb-Team", ""),
        "api.honeycomb.io/1",
        native=(
            (
                "env",
                "OTEL_EXPORTER_OTLP_ENDPOINT=https://api.honeycomb.io\nOTEL_EXPORTER_OTLP_HEADERS=x-honeycomb-team=⟦v⟧\nOTEL_SERVICE_NAME=⟦svc⟧\n",
            ),
        ),
    ),
    SecretKind(
        "splunk_hec_token",
        "Splunk",
        "Splunk HEC token",
        lambda r: uuid4(r).upper() if r.random() < 0.5 else uuid4(r),
        ("SPLUNK_HEC_TOKEN", "SPLUNK_TOKEN"),
        ("Authorization", "Splunk "),
        "splunk.⟦domain⟧:8088/services/collector",
    ),
    # identity
    SecretKind(
        "okta_api_token",
        "Okta",
        "Okta API token",
        fixed("00", B64URL, 40),
        ("OKTA_API_TOKEN", "OKTA_TOKEN"),
        ("Authorization", "SSWS "),
        "⟦org⟧.okta.com/api/v1",
    ),
    SecretKind(
        "auth0_client_secret",
        "Auth0",
        "Auth0 client secret",
        fixed("", B64URL, 64),
        ("AUTH0_CLIENT_SECRET",),
        user=auth0_client_id,
        native=(
            (
                "env",
                "AUTH0_DOMAIN=⟦org⟧.eu.auth0.com\nAUTH0_CLIENT_ID=⟦u⟧\nAUTH0_CLIENT_SECRET=⟦v⟧\nAUTH0_AUDIENCE=https://api.⟦org⟧.io\n",
            ),
        ),
    ),
    SecretKind(
        "jwt",
        "JWT",
        "signed JWT access token",
        jwt_token,
        ("ACCESS_TOKEN", "ID_TOKEN", "SUPABASE_SERVICE_ROLE_KEY", "API_JWT"),
        BEARER,
        "api.⟦domain⟧",
    ),
    SecretKind(
        "oauth_client_secret",
        "OAuth",
        "OAuth client secret",
        oauth_client_secret,
        ("OAUTH_CLIENT_SECRET", "GOOGLE_CLIENT_SECRET", "GITHUB_CLIENT_SECRET"),
        user=google_client_id,
        native=(
            (
                "json",
                '{\n  "web": {\n    "client_id": "⟦u⟧",\n    "project_id": "⟦gproject⟧",\n    "auth_uri": "https://accounts.google.com/o/oauth2/auth",\n    "token_uri": "https://oauth2.googleapis.com/token",\n    "client_secret": "⟦v⟧",\n    "redirect_uris": ["http://localhost:⟦port⟧/oauth2/callback"]\n  }\n}\n',
            ),
        ),
    ),
    SecretKind(
        "rsa_private_key",
        "RSA",
        "RSA private key",
        rsa_pem,
        ("PRIVATE_KEY", "JWT_PRIVATE_KEY", "SAML_SP_PRIVATE_KEY"),
        multiline=True,
        native=(
            *PEM_SHAPES,
            (
                "xml",
                "<KeyInfo>\n  <KeyName>saml-sp-⟦env⟧</KeyName>\n  <PrivateKey>\n⟦v⟧\n  </PrivateKey>\n</KeyInfo>\n",
            ),
        ),
    ),
    SecretKind(
        "ec_private_key",
        "ECDSA",
        "EC private key (P-256)",
        ec_pem,
        ("EC_PRIVATE_KEY", "APNS_KEY", "SIGNING_KEY"),
        multiline=True,
        native=PEM_SHAPES,
    ),
    SecretKind(
        "ed25519_private_key",
        "Ed25519",
        "Ed25519 private key (PKCS #8)",
        ed25519_pem,
        ("ED25519_PRIVATE_KEY", "SIGNING_KEY"),
        multiline=True,
        native=PEM_SHAPES,
    ),
    SecretKind(
        "openssh_private_key",
        "OpenSSH",
        "OpenSSH private key",
        openssh_pem,
        ("SSH_PRIVATE_KEY", "DEPLOY_KEY"),
        multiline=True,
        native=(
            *PEM_SHAPES,
            ("shell", "install -m 600 /dev/stdin ~/.ssh/id_ed25519 <<'KEY'\n⟦v⟧\nKEY\nssh-add ~/.ssh/id_ed25519\n"),
        ),
    ),
    SecretKind(
        "pgp_private_key",
        "OpenPGP",
        "PGP private key block",
        lambda r: pgp_key(r, secret=True)[0],
        ("GPG_PRIVATE_KEY", "PGP_SECRET_KEY"),
        multiline=True,
        native=(("pem", "⟦v⟧\n"), ("shell", "gpg --batch --import <<'EOF'\n⟦v⟧\nEOF\n")),
    ),
    SecretKind(
        "age_secret_key",
        "age",
        "age identity (secret key)",
        age_secret,
        ("SOPS_AGE_KEY", "AGE_SECRET_KEY"),
        prefix="AGE-SECRET-KEY-1",
        native=(("pem", "# created: ⟦date_time⟧\n# public key: ⟦age_recipient⟧\n⟦v⟧\n"),),
    ),
    # generic
    SecretKind(
        "generic_password",
        "",
        "password",
        password,
        (
            "ADMIN_PASSWORD",
            "SMTP_PASSWORD",
            "LDAP_BIND_PASSWORD",
            "KEYSTORE_PASSWORD",
            "RABBITMQ_DEFAULT_PASS",
            "GRAFANA_ADMIN_PASSWORD",
            "WIFI_PASSWORD",
            "PASSWORD",
        ),
        user=plain_user(LOGINS),
        native=(
            ("ini", "[mail]\nhost = smtp.⟦domain⟧\nport = 587\nuser = ⟦login⟧\npassword = ⟦v⟧\n"),
            ("netrc", "machine ⟦host⟧\n  login ⟦login⟧\n  password ⟦v⟧\n"),
        ),
    ),
    SecretKind(
        "generic_secret",
        "",
        "high-entropy application secret",
        generic_secret,
        (
            "SECRET_KEY",
            "JWT_SECRET",
            "SESSION_SECRET",
            "NEXTAUTH_SECRET",
            "APP_KEY",
            "COOKIE_SECRET",
            "ENCRYPTION_KEY",
            "HMAC_KEY",
            "SIGNING_SECRET",
        ),
    ),
    SecretKind(
        "http_basic_auth",
        "HTTP",
        "HTTP Basic credential",
        basic_credential,
        ("AUTHORIZATION", "BASIC_AUTH"),
        ("Authorization", "Basic "),
        "⟦host⟧",
        entry=wrapped_entries("AUTHORIZATION", "Basic ⟦v⟧"),
    ),
    SecretKind(
        "base64_credential",
        "",
        "base64-encoded credential",
        base64_credential,
        ("PASSWORD",),
        only_native=True,
        native=(
            (
                "k8s_secret",
                "apiVersion: v1\nkind: Secret\nmetadata:\n  name: ⟦svc⟧-db\n  namespace: ⟦env⟧\ntype: Opaque\ndata:\n  username: ⟦b64user⟧\n  password: ⟦v⟧\n",
            ),
            ("json", '{\n  "auths": {\n    "⟦registry⟧": {\n      "auth": "⟦v⟧"\n    }\n  }\n}\n'),
            (
                "npmrc",
                "registry=https://npm.⟦domain⟧/repository/npm-group/\n_auth=⟦v⟧\nemail=⟦email⟧\nalways-auth=true\n",
            ),
            (
                "k8s_secret",
                "apiVersion: v1\nkind: Secret\nmetadata:\n  name: ⟦project⟧-api\ntype: Opaque\ndata:\n  API_TOKEN: ⟦v⟧\n  LOG_LEVEL: ⟦b64info⟧\n",
            ),
        ),
    ),
)
SECRETS: dict[str, SecretKind] = {k.kind: k for k in SECRET_KINDS}
WEBHOOK_KINDS = ("slack_webhook_url", "discord_webhook_url", "msteams_webhook_url")

FILLERS.update(
    {
        "asia_id": lambda r: sec("aws_access_key_id", "ASIA" + rs(r, BASE32, 16)),
        "hex32": lambda r: hexs(r, 32),
        "hex40": lambda r: hexs(r, 40),
        "digits9": lambda r: digits(r, 9),
        "digits21": lambda r: digits(r, 21),
        "b64url24": lambda r: rs(r, B64URL, 24),
        "sa": lambda r: r.choice(("deployer", "ci-uploader", "bq-reader", "terraform", "firebase-adminsdk-x1y2z")),
        "domain": lambda r: r.choice((*DOMAINS[:3], "acme.io", "example.com")),
        "ocir": lambda r: r.choice(("fra.ocir.io", "iad.ocir.io", "lhr.ocir.io")),
        "b64user": lambda r: look("base64_text", b64(r.choice(DB_USERS).encode())),
        "b64info": lambda r: look("base64_text", b64(r.choice((b"info", b"debug", b"warn")))),
    }
)


# ----------------------------------------------------------------------------- look-alikes

LookGen = Callable[[Rng], tuple[str, str | None]]


@dataclass(frozen=True)
class LookKind:
    """A public value that resembles a secret. ``gen`` returns the value and, for some kinds, the key it sits under."""

    kind: str
    desc: str
    gen: LookGen
    keys: tuple[str, ...] = ()
    multiline: bool = False
    native: tuple[tuple[str, str], ...] = ()
    only_native: bool = False

    def entries(self, r: Rng, value: str, key: str | None) -> list[Entry]:
        return [Entry(key or r.choice(self.keys), look(self.kind, value), self.desc, self.multiline)]


def value_only(fn: Callable[[Rng], str]) -> LookGen:
    return lambda r: (fn(r), None)


def secret_key_name(r: Rng, kind: SecretKind) -> str:
    return r.choice(kind.keys)


def prefixed_kinds() -> list[SecretKind]:
    return [k for k in SECRET_KINDS if k.prefix and not k.multiline]


def single_line_kinds() -> list[SecretKind]:
    return [k for k in SECRET_KINDS if not k.multiline and not k.only_native]


def masked(r: Rng) -> tuple[str, str | None]:
    kind = r.choice(single_line_kinds())
    real = kind.gen(r)
    style = r.randrange(6)
    if style == 0 or kind.kind.endswith("password"):
        out = r.choice(("********", "••••••••", "************", "[REDACTED]", "<redacted>", "***"))
    elif style == 1:
        keep = len(kind.prefix) if kind.prefix else 4
        out = real[:keep] + "*" * max(8, len(real) - keep - 4) + real[-4:]
    elif style == 2:
        keep = len(kind.prefix) + 2 if kind.prefix else 4
        out = real[:keep] + "…" + real[-4:]
    elif style == 3:
        out = real[:6] + "...(redacted)"
    elif style == 4:
        out = "•" * 12 + real[-4:]
    else:
        out = real[:4] + "x" * 12
    return out, secret_key_name(r, kind)


def placeholder(r: Rng) -> tuple[str, str | None]:
    kind = r.choice(single_line_kinds())
    key = secret_key_name(r, kind)
    slug = key.lower().replace("_", "-")
    style = r.randrange(8)
    if kind.prefix and style < 3:
        out = kind.prefix + r.choice(("X" * 24, "x" * 32, "...", "<your-token>", "YOUR_KEY_HERE", "0" * 24))
    elif style == 3:
        out = f"<your-{slug}>"
    elif style == 4:
        out = f"YOUR_{key}"
    elif style == 5:
        out = r.choice(("changeme", "CHANGE_ME", "REPLACE_ME", "TODO", "dummy", "not-a-real-key", "example", "secret"))
    elif style == 6:
        out = f"{slug}-goes-here"
    else:
        out = r.choice(("xxxxxxxxxxxxxxxx", "<token>", "<password>", "your-api-key", "insert-key-here", "TBD"))
    return out, key


ENV_REF_FORMS = (
    "${@K@}",
    "$@K@",
    "${@K@:-}",
    "${@K@:?missing}",
    "%@K@%",
    "$env:@K@",
    "${env:@K@}",
    "env(@K@)",
    "${ENV:@K@}",
)
TEMPLATE_REF_FORMS = (
    "${{ secrets.@K@ }}",
    "${{ vars.@K@ }}",
    "{{ .Values.@c@ }}",
    "{{ @s@ }}",
    "{{ vault_@s@ }}",
    "%(@s@)s",
    "#{@K@}",
    "$(@K@)",
    "${var.@s@}",
    "[[ .Env.@K@ ]]",
    "{{ lookup('env', '@K@') }}",
    "<%= ENV.fetch('@K@') %>",
)
MANAGER_REF_FORMS = (
    "op://@vault@/@slug@/credential",
    "vault:secret/data/@env@/@slug@#value",
    "{{resolve:secretsmanager:@env@/@slug@:SecretString:value}}",
    "@Microsoft.KeyVault(SecretUri=https://kv-@env@.vault.azure.net/secrets/@slug@/)",
    "sm://@proj@/@slug@",
    "projects/@proj@/secrets/@slug@/versions/latest",
    "/@env@/@proj@/@slug@",
    "doppler://@proj@/@env@/@K@",
)


def reference(forms: Sequence[str]) -> LookGen:
    """A reference to a secret (environment, template or secret-manager syntax) under the secret's own name."""

    def gen(r: Rng) -> tuple[str, str | None]:
        key = secret_key_name(r, r.choice(SECRET_KINDS))
        words = key.lower().split("_")
        out = r.choice(forms)
        for marker, text in (
            ("@K@", key),
            ("@s@", "_".join(words)),
            ("@c@", words[0] + "".join(w.title() for w in words[1:])),
            ("@slug@", "-".join(words)),
            ("@env@", r.choice(ENVS)),
            ("@proj@", r.choice(PROJECTS)),
            ("@vault@", r.choice(("Private", "Engineering", "Shared-Infra"))),
        ):
            out = out.replace(marker, text)
        return out, key

    return gen


def encrypted_value(r: Rng) -> tuple[str, str | None]:
    key = secret_key_name(r, r.choice(single_line_kinds()))
    roll = r.random()
    if roll < 0.5:
        data = b64(rbytes(r, r.randint(16, 60)))
        out = f"ENC[AES256_GCM,data:{data},iv:{b64(rbytes(r, 32))},tag:{b64(rbytes(r, 16))},type:str]"
    elif roll < 0.8:
        out = "AgB" + b64(rbytes(r, r.randint(300, 420)))[3:]
    else:
        out = "{AQAAABAAAAAQ" + b64(rbytes(r, r.randint(40, 60))) + "}"
    return out, key


AWS_EXAMPLES = (
    ("AKIAIOSFODNN7EXAMPLE", "AWS_ACCESS_KEY_ID"),
    ("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "AWS_SECRET_ACCESS_KEY"),
    ("AKIAI44QH8DHBEXAMPLE", "AWS_ACCESS_KEY_ID"),
    ("je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY", "AWS_SECRET_ACCESS_KEY"),
)
STRIPE_EXAMPLES = (
    ("sk_test_4eC39HqLyjWDarjtT1zdp7dc", "STRIPE_SECRET_KEY"),
    ("sk_test_BQokikJOvBiI2HlWgH4olfQ2", "STRIPE_SECRET_KEY"),
    ("pk_test_TYooMQauvdEDq54NiTphI7jx", "STRIPE_PUBLISHABLE_KEY"),
)
JWT_IO_EXAMPLES = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ"
    ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiYWRtaW4iOnRydWUsImlhdCI6MTUxNjIzOTAyMn0"
    ".KMUFsIDTnFmyG3nMiGM6H9FNFUROf3wh7SmqJp-QV30",
)


def from_pool(pool: Sequence[tuple[str, str]]) -> LookGen:
    return lambda r: r.choice(pool)


def ulid(r: Rng) -> str:
    stamp = r.randint(1_700_000_000_000, 1_800_000_000_000)
    head = "".join(CROCKFORD[(stamp >> (5 * i)) & 31] for i in reversed(range(10)))
    return head + rs(r, CROCKFORD, 16)


def request_id(r: Rng) -> str:
    return weighted(
        r,
        (
            (2, "req_" + rs(r, ALNUM, 14)),
            (2, rs(r, UPHEX, 16)),
            (1, f"{hexs(r, 16)}-{r.choice(('FRA', 'IAD', 'LHR', 'GRU', 'NRT'))}"),
            (2, f"{r.choice(('Root=1-', 'Self=1-'))}{hexs(r, 8)}-{hexs(r, 24)}"),
            (1, b64(rbytes(r, 57))),
            (2, "req-" + uuid4(r)),
        ),
    )


def semver(r: Rng) -> str:
    base = f"{r.randint(0, 24)}.{r.randint(0, 40)}.{r.randint(0, 30)}"
    return weighted(
        r,
        (
            (6, base),
            (2, "v" + base),
            (1, base + f"-rc.{r.randint(1, 5)}"),
            (1, base + "+build." + str(r.randint(10, 999))),
        ),
    )


def date_time(r: Rng) -> str:
    stamp = r.randint(1_700_000_000, 1_800_000_000)
    return weighted(
        r,
        (
            (3, iso_ts(r)),
            (2, day(r)),
            (1, str(stamp)),
            (1, str(stamp * 1000 + r.randint(0, 999))),
            (1, f"{r.randint(1, 28):02d} {r.choice(MONTHS)} {r.choice((2025, 2026))} {clock(r)}:00 +0000"),
        ),
    )


def oauth_client_id(r: Rng) -> str:
    return weighted(
        r,
        (
            (3, google_client_id(r).text),
            (2, "Iv1." + hexs(r, 16)),
            (2, "Ov23li" + rs(r, ALNUM, 14)),
            (2, uuid4(r)),
            (1, rs(r, ALNUM, 32)),
            (1, paypal_client_id(r).text),
        ),
    )


def sentry_dsn(r: Rng) -> str:
    if r.random() < 0.6:
        return f"https://{hexs(r, 32)}@o{digits(r, 6)}.ingest.{r.choice(('', 'us.', 'de.'))}sentry.io/{digits(r, 16)}"
    return f"https://{hexs(r, 32)}@sentry.{r.choice(DOMAINS)}/{r.randint(2, 90)}"


def key_fingerprint(r: Rng) -> str:
    roll = r.random()
    if roll < 0.4:
        fp = rs(r, UPHEX, 40)
        return " ".join(fp[i : i + 4] for i in range(0, 40, 4))
    if roll < 0.75:
        return "SHA256:" + b64(rbytes(r, 32)).rstrip("=")
    return ":".join(hexs(r, 2) for _ in range(16))


BASE64_TEXTS = (
    b'{"theme":"dark","lang":"pt-BR"}',
    b"hello from the build bot",
    b"Lorem ipsum dolor sit amet, consectetur adipiscing elit",
    b"name,email,plan\n",
    b"user-agent: nightly-report/1.4",
    b'{"alg":"none"}',
    b"apiVersion: v1\nkind: ConfigMap\n",
    b"# Release notes\n\n- fixed the date picker\n",
    b"ok",
    b"the quick brown fox jumps over the lazy dog",
    b'{"page":2,"per_page":50,"sort":"created_at"}',
    b"SELECT id, name FROM projects WHERE archived = false",
)


def data_uri(r: Rng) -> str:
    roll = r.random()
    if roll < 0.5:
        return "data:image/png;base64," + b64(png_bytes(r))
    if roll < 0.8:
        color = "#" + hexs(r, 6)
        svg = f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="6" fill="{color}"/></svg>'
        return "data:image/svg+xml;base64," + b64(svg.encode())
    return "data:application/json;base64," + b64(r.choice(BASE64_TEXTS[:1] + BASE64_TEXTS[10:11]))


def long_identifier(r: Rng) -> str:
    words = (
        "payment",
        "reconciliation",
        "service",
        "invoice",
        "ledger",
        "snapshot",
        "export",
        "scheduler",
        "retry",
        "policy",
    )
    picked = r.sample(words, 4)
    return weighted(
        r,
        (
            (
                2,
                "com."
                + r.choice(("acme", "tidepool", "orchard"))
                + ".billing.internal."
                + "".join(w.title() for w in picked)
                + "Impl",
            ),
            (2, "_".join(picked) + "_v" + str(r.randint(2, 9))),
            (2, f"{r.choice(PROJECTS)}-{r.choice(SERVICES)}-{hexs(r, 10)}-{rs(r, LD, 5)}"),
            (
                1,
                f'module.{r.choice(("network", "db", "edge"))}.aws_security_group_rule.{"_".join(picked[:2])}["{r.choice(AWS_REGIONS)}"]',
            ),
            (1, picked[0] + "".join(w.title() for w in picked[1:]) + "Handler"),
        ),
    )


def file_path(r: Rng) -> str:
    project = r.choice(PROJECTS)
    return weighted(
        r,
        (
            (
                2,
                f"/home/{r.choice(LOGINS)}/src/{project}/{r.choice(('app', 'pkg', 'internal'))}/{r.choice(SERVICES)}/handlers_{r.choice(SERVICES)}.py",
            ),
            (1, f"C:\\Users\\{r.choice(PEOPLE)}\\AppData\\Local\\{project}\\cache\\{hexs(r, 8)}.tmp"),
            (2, f"~/.cache/pip/wheels/{hexs(r, 2)}/{hexs(r, 2)}/{hexs(r, 2)}/{hexs(r, 56)}"),
            (
                1,
                f"node_modules/.pnpm/@babel+core@7.{r.randint(10, 26)}.{r.randint(0, 9)}/node_modules/@babel/core/lib/index.js",
            ),
            (1, f"s3://{project}-artifacts-{r.choice(ENVS)}/builds/{day(r)}/{hexs(r, 12)}/bundle.tar.gz"),
            (1, f"/var/lib/docker/overlay2/{hexs(r, 64)}/merged"),
        ),
    )


def phone(r: Rng) -> str:
    return weighted(
        r,
        (
            (2, f"+1 {r.randint(201, 989)} 555 {r.randint(100, 199):04d}"),
            (1, f"+44 20 7946 {r.randint(0, 999):04d}"),
            (1, f"+351 21 {r.randint(100, 999)} {r.randint(1000, 9999)}"),
            (1, f"+49 30 {r.randint(100000, 999999)}"),
            (1, f"+1555{r.randint(1000000, 9999999)}"),
        ),
    )


def color(r: Rng) -> str:
    return weighted(
        r,
        (
            (4, "#" + hexs(r, 6)),
            (1, "#" + hexs(r, 3)),
            (1, f"rgb({r.randint(0, 255)}, {r.randint(0, 255)}, {r.randint(0, 255)})"),
            (1, f"hsl({r.randint(0, 359)} {r.randint(10, 90)}% {r.randint(10, 90)}%)"),
            (1, "#" + hexs(r, 8)),
        ),
    )


def arn(r: Rng) -> str:
    acct = digits(r, 12)
    region = r.choice(AWS_REGIONS)
    name = r.choice(PROJECTS)
    return weighted(
        r,
        (
            (2, f"arn:aws:iam::{acct}:role/{name}-deploy"),
            (2, f"arn:aws:secretsmanager:{region}:{acct}:secret:{r.choice(ENVS)}/{name}/db-{rs(r, ALNUM, 6)}"),
            (1, f"arn:aws:kms:{region}:{acct}:key/{uuid4(r)}"),
            (1, f"arn:aws:s3:::{name}-uploads-{r.choice(ENVS)}"),
            (1, f"arn:aws:lambda:{region}:{acct}:function:{name}-{r.choice(SERVICES)}"),
            (1, f"arn:aws:sns:{region}:{acct}:{name}-alerts"),
        ),
    )


def resource_id(r: Rng) -> str:
    return weighted(
        r,
        (
            (
                2,
                f"/subscriptions/{uuid4(r)}/resourceGroups/rg-{r.choice(PROJECTS)}-{r.choice(ENVS)}/providers/Microsoft.Web/sites/app-{r.choice(PROJECTS)}",
            ),
            (
                2,
                f"ocid1.{r.choice(('instance', 'user', 'tenancy', 'bucket'))}.oc1.{r.choice(('eu-frankfurt-1', 'iad', ''))}.aaaaaaaa{rs(r, LD, 52)}",
            ),
            (1, f"i-0{hexs(r, 16)}"),
            (1, f"sg-0{hexs(r, 16)}"),
            (1, f"vpc-0{hexs(r, 16)}"),
            (
                1,
                f"projects/{r.choice(PROJECTS)}-{r.randint(100000, 999999)}/locations/europe-west1/services/{r.choice(SERVICES)}",
            ),
        ),
    )


def account_identifier(r: Rng) -> str:
    return weighted(
        r,
        (
            (2, digits(r, 12)),
            (2, "AC" + hexs(r, 32)),
            (1, "acct_1" + rs(r, ALNUM, 15)),
            (1, "T0" + rs(r, UD, 8)),
            (1, "rzp_live_" + rs(r, ALNUM, 14)),
            (1, "SK" + hexs(r, 32)),
        ),
    )


def public_site_key(r: Rng) -> str:
    roll = r.random()
    if roll < 0.45:
        claims = {"u": r.choice(LOGINS).replace(".", ""), "a": rs(r, LD, 25)}
        return "pk." + b64url(json.dumps(claims, separators=(",", ":")).encode()) + "." + rs(r, B64URL, 22)
    if roll < 0.8:
        return "6L" + rs(r, B64URL, 38)
    return "0x4AAAAAAA" + rs(r, B64URL, 12)


def module_checksum(r: Rng) -> str:
    return weighted(r, ((3, "h1:" + b64(rbytes(r, 32))), (2, "sha256:" + hexs(r, 64)), (1, hexs(r, 64))))


def sri(r: Rng) -> str:
    size, name = r.choice(((32, "sha256"), (48, "sha384"), (64, "sha512")))
    return f"{name}-{b64(rbytes(r, size))}"


def uuid_value(r: Rng) -> str:
    value = uuid4(r)
    return value.upper() if r.random() < 0.15 else value


def stripe_publishable(r: Rng) -> str:
    return "pk_live_" + (rs(r, ALNUM, 24) if r.random() < 0.4 else "51" + rs(r, ALNUM, 97))


def firebase_key(r: Rng) -> str:
    return "AIza" + rs(r, B64URL, 35)


FIREBASE_CONFIG = (
    'const firebaseConfig = {\n  apiKey: "⟦v⟧",\n  authDomain: "⟦fb⟧.firebaseapp.com",\n  projectId: "⟦fb⟧",\n'
    '  storageBucket: "⟦fb⟧.appspot.com",\n  messagingSenderId: "⟦digits12⟧",\n  appId: "1:⟦digits12⟧:web:⟦hex22⟧"\n};\n'
    "const app = initializeApp(firebaseConfig);\n"
)

LOOK_KINDS: tuple[LookKind, ...] = (
    LookKind(
        "uuid",
        "UUID",
        value_only(uuid_value),
        ("TENANT_ID", "CORRELATION_ID", "INSTALLATION_ID", "WORKSPACE_ID", "USER_ID"),
    ),
    LookKind("ulid", "ULID", value_only(ulid), ("EVENT_ID", "ORDER_ID", "JOB_ID")),
    LookKind(
        "git_sha",
        "commit SHA",
        value_only(lambda r: hexs(r, 40) if r.random() < 0.6 else hexs(r, r.randint(7, 12))),
        ("GIT_COMMIT", "BUILD_SHA", "SOURCE_VERSION", "PINNED_REV"),
        native=(
            ("shell", "git revert --no-edit ⟦v⟧\ngit push origin HEAD:main\n"),
            (
                "log",
                "commit ⟦v⟧\nAuthor: ⟦person⟧ <⟦email⟧>\nDate:   ⟦day⟧\n\n    fix: retry idempotent webhook deliveries\n",
            ),
        ),
    ),
    LookKind(
        "sha256_hex",
        "SHA-256 checksum",
        value_only(lambda r: hexs(r, 64)),
        ("ARTIFACT_SHA256", "CHECKSUM", "TARBALL_SHA256"),
        native=(("shell", 'echo "⟦v⟧  ⟦project⟧-⟦semver3⟧-linux-amd64.tar.gz" | sha256sum --check\n'),),
    ),
    LookKind("md5_hex", "MD5 / ETag", value_only(lambda r: hexs(r, 32)), ("ETAG", "CONTENT_MD5", "FILE_MD5")),
    LookKind(
        "container_digest",
        "image digest",
        value_only(lambda r: "sha256:" + hexs(r, 64)),
        ("IMAGE_DIGEST", "BASE_IMAGE_DIGEST"),
        native=(
            ("dockerfile", "FROM ⟦image⟧@⟦v⟧\nWORKDIR /app\nCOPY . .\n"),
            ("shell", "docker pull ghcr.io/⟦org⟧/⟦project⟧@⟦v⟧\n"),
        ),
    ),
    LookKind(
        "sri_integrity",
        "subresource integrity hash",
        value_only(sri),
        ("INTEGRITY",),
        native=(
            (
                "html",
                '<script src="https://cdn.jsdelivr.net/npm/⟦pkg⟧@⟦semver3⟧/dist/⟦pkg⟧.min.js"\n        integrity="⟦v⟧"\n        crossorigin="anonymous"></script>\n',
            ),
        ),
    ),
    LookKind("request_id", "request id", value_only(request_id), ("REQUEST_ID", "X_REQUEST_ID", "TRACE_REQUEST")),
    LookKind(
        "trace_id",
        "trace context",
        value_only(lambda r: f"00-{hexs(r, 32)}-{hexs(r, 16)}-01" if r.random() < 0.6 else hexs(r, 32)),
        ("TRACEPARENT", "TRACE_ID"),
    ),
    LookKind("semver", "version", value_only(semver), ("APP_VERSION", "RELEASE", "CHART_VERSION", "SDK_VERSION")),
    LookKind("date_time", "timestamp", value_only(date_time), ("ROTATED_AT", "EXPIRES_AT", "LAST_DEPLOY", "CREATED")),
    LookKind("env_reference", "environment reference", reference(ENV_REF_FORMS)),
    LookKind("template_reference", "template reference", reference(TEMPLATE_REF_FORMS)),
    LookKind("secret_manager_reference", "secret-manager reference", reference(MANAGER_REF_FORMS)),
    LookKind("encrypted_value", "encrypted (SOPS / sealed) value", encrypted_value),
    LookKind("placeholder", "placeholder", placeholder),
    LookKind("masked_value", "masked value", masked),
    LookKind("aws_example_key", "AWS documentation example key", from_pool(AWS_EXAMPLES)),
    LookKind("stripe_docs_example", "Stripe documentation sample key", from_pool(STRIPE_EXAMPLES)),
    LookKind(
        "jwt_io_example",
        "jwt.io sample token",
        lambda r: (r.choice(JWT_IO_EXAMPLES), r.choice(("EXAMPLE_JWT", "ACCESS_TOKEN", "TEST_TOKEN"))),
    ),
    LookKind(
        "stripe_publishable_key",
        "Stripe publishable key",
        value_only(stripe_publishable),
        ("STRIPE_PUBLISHABLE_KEY", "NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY", "VITE_STRIPE_PK"),
        native=(
            ("javascript", 'const stripe = Stripe("⟦v⟧");\nconst elements = stripe.elements({ clientSecret });\n'),
        ),
    ),
    LookKind(
        "firebase_web_config_key",
        "Firebase web config apiKey",
        value_only(firebase_key),
        ("FIREBASE_API_KEY",),
        only_native=True,
        native=(
            ("javascript", FIREBASE_CONFIG),
            (
                "env",
                "NEXT_PUBLIC_FIREBASE_API_KEY=⟦v⟧\nNEXT_PUBLIC_FIREBASE_AUTH_DOMAIN=⟦fb⟧.firebaseapp.com\nNEXT_PUBLIC_FIREBASE_PROJECT_ID=⟦fb⟧\n",
            ),
            (
                "json",
                '{\n  "firebase": {\n    "apiKey": "⟦v⟧",\n    "authDomain": "⟦fb⟧.firebaseapp.com",\n    "projectId": "⟦fb⟧",\n    "appId": "1:⟦digits12⟧:web:⟦hex22⟧"\n  }\n}\n',
            ),
        ),
    ),
    LookKind(
        "oauth_client_id",
        "OAuth client id",
        value_only(oauth_client_id),
        ("OAUTH_CLIENT_ID", "GOOGLE_CLIENT_ID", "GITHUB_CLIENT_ID", "AZURE_CLIENT_ID", "AUTH0_CLIENT_ID"),
    ),
    LookKind(
        "sentry_dsn",
        "Sentry DSN (public)",
        value_only(sentry_dsn),
        ("SENTRY_DSN", "NEXT_PUBLIC_SENTRY_DSN"),
        native=(
            ("javascript", 'Sentry.init({\n  dsn: "⟦v⟧",\n  tracesSampleRate: 0.2,\n  environment: "⟦env⟧",\n});\n'),
            ("python", 'sentry_sdk.init(dsn="⟦v⟧", traces_sample_rate=0.1, environment="⟦env⟧")\n'),
        ),
    ),
    LookKind(
        "algolia_search_key",
        "Algolia search-only API key",
        value_only(lambda r: hexs(r, 32)),
        ("ALGOLIA_SEARCH_KEY", "NEXT_PUBLIC_ALGOLIA_SEARCH_ONLY_API_KEY", "ALGOLIA_SEARCH_ONLY_KEY"),
        native=(
            (
                "javascript",
                '// search-only key: safe in the browser bundle\nconst client = algoliasearch("⟦algolia_app⟧", "⟦v⟧");\nconst index = client.initIndex("⟦project⟧_⟦env⟧");\n',
            ),
        ),
    ),
    LookKind(
        "ssh_public_key",
        "SSH public key",
        value_only(ssh_public_line),
        ("SSH_PUBLIC_KEY", "AUTHORIZED_KEY", "DEPLOY_KEY_PUB"),
        native=(("authorized_keys", "# ~/.ssh/authorized_keys on ⟦host⟧\n⟦v⟧\n⟦ssh_public_key⟧\n"),),
    ),
    LookKind(
        "pgp_public_key",
        "PGP public key block",
        value_only(lambda r: pgp_key(r, secret=False)[0]),
        ("GPG_PUBLIC_KEY",),
        multiline=True,
    ),
    LookKind(
        "key_fingerprint",
        "key fingerprint",
        value_only(key_fingerprint),
        ("GPG_FINGERPRINT", "SSH_HOST_FINGERPRINT", "OCI_FINGERPRINT"),
    ),
    LookKind(
        "age_recipient",
        "age recipient (public key)",
        value_only(lambda r: bech32("age", rbytes(r, 32))),
        ("SOPS_AGE_RECIPIENTS", "AGE_RECIPIENT"),
        native=(
            (
                "yaml",
                "creation_rules:\n  - path_regex: secrets/⟦env⟧/.*\\.yaml$\n    age: >-\n      ⟦v⟧,\n      ⟦age_recipient⟧\n",
            ),
        ),
    ),
    LookKind(
        "public_key_pem",
        "public key (PEM)",
        value_only(lambda r: ec_public_pem(r) if r.random() < 0.6 else ed25519_public_pem(r)),
        ("JWT_PUBLIC_KEY", "PUBLIC_KEY"),
        multiline=True,
    ),
    LookKind(
        "base64_text",
        "base64 of ordinary text",
        value_only(lambda r: b64(r.choice(BASE64_TEXTS))),
        ("BANNER_B64", "DEFAULT_FILTER", "PAYLOAD"),
    ),
    LookKind("data_uri", "data URI", value_only(data_uri), ("FAVICON", "PLACEHOLDER_IMAGE", "LOGO_DATA_URI")),
    LookKind(
        "long_identifier",
        "long identifier",
        value_only(long_identifier),
        ("HANDLER_CLASS", "RESOURCE_ADDRESS", "POD_NAME"),
    ),
    LookKind("file_path", "file path", value_only(file_path), ("CACHE_DIR", "ARTIFACT_PATH", "LOG_FILE")),
    LookKind(
        "phone_number", "phone number", value_only(phone), ("SUPPORT_PHONE", "ONCALL_PHONE", "TWILIO_FROM_NUMBER")
    ),
    LookKind("color", "colour", value_only(color), ("BRAND_COLOR", "ACCENT", "THEME_BG")),
    LookKind("arn", "ARN", value_only(arn), ("ROLE_ARN", "SECRET_ARN", "KMS_KEY_ARN", "TOPIC_ARN")),
    LookKind(
        "cloud_resource_id",
        "cloud resource id",
        value_only(resource_id),
        ("RESOURCE_ID", "INSTANCE_ID", "OCI_USER_OCID"),
    ),
    LookKind(
        "account_identifier",
        "account / tenant identifier",
        value_only(account_identifier),
        ("AWS_ACCOUNT_ID", "TWILIO_ACCOUNT_SID", "STRIPE_ACCOUNT", "SLACK_TEAM_ID"),
    ),
    LookKind(
        "public_site_key",
        "public site key (Mapbox / reCAPTCHA / Turnstile)",
        value_only(public_site_key),
        ("MAPBOX_PUBLIC_TOKEN", "RECAPTCHA_SITE_KEY", "TURNSTILE_SITE_KEY"),
    ),
    LookKind(
        "module_checksum",
        "module checksum",
        value_only(module_checksum),
        ("GO_SUM", "PIP_HASH", "CRATE_CHECKSUM"),
        native=(
            (
                "go",
                "github.com/⟦org⟧/⟦project⟧ v⟦semver3⟧ ⟦v⟧\ngithub.com/⟦org⟧/⟦project⟧ v⟦semver3⟧/go.mod ⟦goh1⟧\n",
            ),
        ),
    ),
)
LOOKALIKES: dict[str, LookKind] = {k.kind: k for k in LOOK_KINDS}

FILLERS.update(
    {
        "fb": lambda r: f"{r.choice(PROJECTS)}-{rs(r, LD, 5)}",
        "digits12": lambda r: digits(r, 12),
        "hex22": lambda r: hexs(r, 22),
        "algolia_app": lambda r: rs(r, UD, 10),
        "goh1": lambda r: look("module_checksum", "h1:" + b64(rbytes(r, 32))),
    }
)


# ----------------------------------------------------------------------------- key styles and quoting


def key_words(key: str) -> list[str]:
    return [w for w in key.lower().split("_") if w]


KEY_STYLES: dict[str, Callable[[list[str]], str]] = {
    "env": lambda w: "_".join(w).upper(),
    "snake": "_".join,
    "camel": lambda w: w[0] + "".join(x.title() for x in w[1:]),
    "pascal": lambda w: "".join(x.title() for x in w),
    "kebab": "-".join,
    "dot": ".".join,
    "colon": lambda w: w[0].title() + ":" + "".join(x.title() for x in w[1:]) if len(w) > 1 else w[0].title(),
}


def styled(key: str, style: str) -> str:
    return KEY_STYLES[style](key_words(key))


def sections(entries: Sequence[Entry]) -> list[tuple[str, list[tuple[list[str], Entry]]]]:
    """Group entries by the first word of their key (``STRIPE_SECRET_KEY`` -> ``stripe`` / ``secret_key``)."""
    groups: dict[str, list[tuple[list[str], Entry]]] = {}
    for e in entries:
        words = key_words(e.key)
        head, rest = (words[0], words[1:]) if len(words) > 1 else ("app", words)
        groups.setdefault(head, []).append((rest, e))
    return list(groups.items())


def esc_json(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)[1:-1]


def esc_xml(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def esc_dq(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def esc_sq(s: str) -> str:
    return s.replace("\\", "\\\\").replace("'", "\\'")


def indent_lines(prefix: str) -> Callable[[str], str]:
    return lambda s: s.replace("\n", "\n" + prefix)


def dq(f: Frag, esc: Callable[[str], str] = esc_json) -> Frag:
    return concat(('"', remap(f, esc), '"'))


BARE = re.compile(r"[A-Za-z0-9_./:@+=,~-]+\Z")
YAML_PLAIN = re.compile(r"[A-Za-z0-9/][A-Za-z0-9_./+=~@:,?&%-]*\Z")
SHELL_BARE = re.compile(r"[A-Za-z0-9_./:@+=,-]+\Z")


def quoted(r: Rng, f: Frag, bare: re.Pattern[str] | None = BARE, share_bare: float = 0.7) -> Frag:
    """The value bare when that is safe (and the dice agree), else in a quote character it does not contain."""
    if bare is not None and bare.fullmatch(f.text) and r.random() < share_bare:
        return f
    for q in r.sample(('"', "'"), 2):
        if q not in f.text:
            return concat((q, f, q))
    return dq(f)


def shell_value(r: Rng, f: Frag) -> Frag:
    if SHELL_BARE.fullmatch(f.text) and r.random() < 0.6:
        return f
    if "'" not in f.text:
        return concat(("'", f, "'"))
    return concat(('"', remap(f, lambda s: re.sub(r'([\\"$`])', r"\\\1", s)), '"'))


def yaml_value(r: Rng, f: Frag, indent: str, multiline: bool) -> Frag:
    if multiline:
        if r.random() < 0.6:
            return concat(("|\n", indent, remap(f, indent_lines(indent))))
        return dq(f)
    text = f.text
    plain = (
        YAML_PLAIN.fullmatch(text) and not text.isdigit() and text.lower() not in ("true", "false", "null", "yes", "no")
    )
    if plain and r.random() < 0.65:
        return f
    if "'" not in text and r.random() < 0.4:
        return concat(("'", f, "'"))
    return dq(f)


def comment_suffix(e: Entry, marker: str) -> str:
    return f"  {marker} {e.comment}" if e.comment and not e.multiline else ""


# ----------------------------------------------------------------------------- multi-entry carriers


def lines_frag(lines: Sequence[Piece]) -> Frag:
    return join("\n", lines) + "\n"


def render_env(r: Rng, entries: Sequence[Entry]) -> Frag:
    lines: list[Piece] = []
    if r.random() < 0.6:
        lines.append(
            fill(
                r,
                r.choice(
                    (
                        "# ⟦project⟧ (⟦env⟧)",
                        "# copied from the ⟦env⟧ box on ⟦day⟧",
                        "# local overrides, never commit",
                        "# generated by scripts/bootstrap.sh",
                    )
                ),
            )
        )
    for e in entries:
        if e.comment:
            lines.append("# " + e.comment)
        value = concat(('"', e.value, '"')) if e.multiline else quoted(r, e.value, share_bare=0.75)
        lines.append(concat((styled(e.key, "env"), "=", value)))
    return lines_frag(lines)


def render_shell(r: Rng, entries: Sequence[Entry]) -> Frag:
    lines: list[Piece] = []
    if r.random() < 0.5:
        lines += ["#!/usr/bin/env bash", "set -euo pipefail", ""]
    for e in entries:
        if e.comment:
            lines.append("# " + e.comment)
        value = concat(("'", e.value, "'")) if e.multiline else shell_value(r, e.value)
        lines.append(concat(("export ", styled(e.key, "env"), "=", value)))
    if r.random() < 0.6:
        lines += [
            "",
            fill(
                r,
                r.choice(
                    ("./scripts/deploy.sh ⟦env⟧", "exec python -m ⟦svc⟧", "docker compose up -d ⟦svc⟧", "make release")
                ),
            ),
        ]
    return lines_frag(lines)


def yaml_lines(r: Rng, entries: Sequence[Entry], base: str, nested: bool) -> list[Piece]:
    lines: list[Piece] = []
    if not nested:
        for e in entries:
            value = yaml_value(r, e.value, base + "  ", e.multiline)
            lines.append(concat((base, styled(e.key, "snake"), ": ", value, comment_suffix(e, "#"))))
        return lines
    for head, items in sections(entries):
        lines.append(f"{base}{head}:")
        for rest, e in items:
            value = yaml_value(r, e.value, base + "    ", e.multiline)
            lines.append(concat((base, "  ", "_".join(rest), ": ", value, comment_suffix(e, "#"))))
    return lines


def render_yaml(r: Rng, entries: Sequence[Entry]) -> Frag:
    lines: list[Piece] = []
    if r.random() < 0.4:
        lines.append(fill(r, "# ⟦project⟧ settings (⟦env⟧)"))
    base = ""
    if r.random() < 0.35:
        lines.append(fill(r, "⟦svc⟧:"))
        base = "  "
    return lines_frag(lines + yaml_lines(r, entries, base, r.random() < 0.6))


def render_k8s(r: Rng, entries: Sequence[Entry]) -> Frag:
    has_secret = any(s.role == "secret" for e in entries for s in e.value.spans)
    head = "apiVersion: v1\nkind: ⟦k8skind⟧\nmetadata:\n  name: ⟦project⟧-⟦suffix⟧\n  namespace: ⟦env⟧\n"
    kind, suffix, body = (
        ("Secret", "env", "type: Opaque\nstringData:") if has_secret else ("ConfigMap", "config", "data:")
    )
    lines: list[Piece] = [fill(r, head, {"k8skind": kind, "suffix": suffix}) + body]
    for e in entries:
        lines.append(concat(("  ", styled(e.key, "env"), ": ", yaml_value(r, e.value, "    ", e.multiline))))
    return lines_frag(lines)


def render_compose(r: Rng, entries: Sequence[Entry]) -> Frag:
    head = fill(
        r,
        "services:\n  ⟦svc⟧:\n    image: ghcr.io/⟦org⟧/⟦project⟧:⟦semver3⟧\n    restart: unless-stopped\n    environment:",
    )
    lines: list[Piece] = [head]
    as_list = r.random() < 0.4
    for e in entries:
        key = styled(e.key, "env")
        if as_list:
            item = concat((key, "=", e.value))
            lines.append(concat(("      - ", item if YAML_PLAIN.fullmatch(item.text) else dq(item))))
        else:
            lines.append(concat(("      ", key, ": ", yaml_value(r, e.value, "        ", e.multiline))))
    lines.append(fill(r, '    ports:\n      - "⟦port⟧:⟦port⟧"\n    depends_on:\n      - ⟦dep⟧'))
    return lines_frag(lines)


def render_actions(r: Rng, entries: Sequence[Entry]) -> Frag:
    head = fill(
        r,
        "name: ⟦wf⟧\non:\n  push:\n    branches: [main]\n  workflow_dispatch:\n\njobs:\n  ⟦job⟧:\n    runs-on: ubuntu-latest\n    env:",
    )
    lines: list[Piece] = [head]
    for e in entries:
        lines.append(concat(("      ", styled(e.key, "env"), ": ", yaml_value(r, e.value, "        ", e.multiline))))
    tail = "    steps:\n      - uses: actions/checkout@⟦sha40⟧ # v4\n      - name: ⟦job⟧\n        run: ./scripts/⟦job⟧.sh ⟦env⟧"
    lines.append(fill(r, tail))
    return lines_frag(lines)


def render_json(r: Rng, entries: Sequence[Entry]) -> Frag:
    style = r.choice(("camel", "snake", "pascal"))
    if r.random() < 0.5:
        rows = [concat(('  "', styled(e.key, style), '": ', dq(e.value))) for e in entries]
        return concat(("{\n", join(",\n", rows), "\n}\n"))
    blocks: list[Frag] = []
    for head, items in sections(entries):
        rows = [concat(('    "', KEY_STYLES[style](rest), '": ', dq(e.value))) for rest, e in items]
        blocks.append(
            concat(('  "', head if style != "pascal" else head.title(), '": {\n', join(",\n", rows), "\n  }"))
        )
    return concat(("{\n", join(",\n", blocks), "\n}\n"))


def render_toml(r: Rng, entries: Sequence[Entry]) -> Frag:
    lines: list[Piece] = []
    if r.random() < 0.4:
        lines.append(fill(r, '# ⟦project⟧ config\ntitle = "⟦project⟧"\n'))
    for head, items in sections(entries):
        lines.append(f"[{head}]")
        for rest, e in items:
            value = concat(('"""\n', e.value, '"""')) if e.multiline else dq(e.value)
            lines.append(concat(("_".join(rest), " = ", value, comment_suffix(e, "#"))))
        lines.append("")
    return join("\n", lines)


def render_ini(r: Rng, entries: Sequence[Entry]) -> Frag:
    lines: list[Piece] = []
    for head, items in sections(entries):
        lines.append(f"[{head}]")
        for rest, e in items:
            if e.comment:
                lines.append("; " + e.comment)
            lines.append(concat(("_".join(rest), r.choice((" = ", "=")), e.value)))
        lines.append("")
    return join("\n", lines)


def render_properties(r: Rng, entries: Sequence[Entry]) -> Frag:
    lines: list[Piece] = []
    if r.random() < 0.5:
        lines.append(fill(r, "# ⟦project⟧ - ⟦env⟧ profile"))
    for e in entries:
        words = key_words(e.key)
        key = words[0] + "." + "-".join(words[1:]) if len(words) > 1 else words[0]
        if e.comment:
            lines.append("# " + e.comment)
        lines.append(concat((key, r.choice(("=", " = ", ": ")), e.value)))
    return lines_frag(lines)


def render_xml(r: Rng, entries: Sequence[Entry]) -> Frag:
    if r.random() < 0.5 and not any(e.multiline for e in entries):
        rows = [
            concat(('    <add key="', styled(e.key, "colon"), '" value="', remap(e.value, esc_xml), '" />'))
            for e in entries
        ]
        return concat(
            (
                '<?xml version="1.0" encoding="utf-8"?>\n<configuration>\n  <appSettings>\n',
                join("\n", rows),
                "\n  </appSettings>\n</configuration>\n",
            )
        )
    blocks: list[Frag] = []
    for head, items in sections(entries):
        rows = [
            concat(
                ("    <", KEY_STYLES["camel"](rest), ">", remap(e.value, esc_xml), "</", KEY_STYLES["camel"](rest), ">")
            )
            for rest, e in items
        ]
        blocks.append(concat(("  <", head, ">\n", join("\n", rows), "\n  </", head, ">")))
    return concat((fill(r, "<⟦xmlroot⟧>\n"), join("\n", blocks), fill(r, "\n</⟦xmlroot⟧>\n")))


def hcl_value(e: Entry) -> Frag:
    return concat(("<<EOT\n", e.value, "\nEOT")) if e.multiline else dq(e.value, esc_dq)


def render_terraform(r: Rng, entries: Sequence[Entry]) -> Frag:
    style = r.randrange(3)
    if style == 0:  # terraform.tfvars
        return lines_frag([concat((styled(e.key, "snake"), " = ", hcl_value(e))) for e in entries])
    if style == 1:
        blocks = [
            concat(
                (
                    'variable "',
                    styled(e.key, "snake"),
                    '" {\n  type      = string\n  sensitive = true\n  default   = ',
                    hcl_value(e),
                    "\n}\n",
                )
            )
            for e in entries
        ]
        return join("\n", blocks)
    rows = [concat(("  ", styled(e.key, "snake"), " = ", hcl_value(e))) for e in entries]
    return concat(
        (
            fill(r, r.choice(("locals {\n", 'module "⟦svc⟧" {\n  source = "./modules/⟦svc⟧"\n'))),
            join("\n", rows),
            "\n}\n",
        )
    )


def render_dockerfile(r: Rng, entries: Sequence[Entry]) -> Frag:
    lines: list[Piece] = [fill(r, "FROM ⟦image⟧\nWORKDIR /app")]
    for i, e in enumerate(entries):
        verb = "ARG" if i == 0 and r.random() < 0.5 else "ENV"
        lines.append(concat((verb, " ", styled(e.key, "env"), "=", quoted(r, e.value, share_bare=0.6))))
    lines.append(
        fill(
            r,
            r.choice(
                (
                    'COPY . .\nRUN pip install --no-cache-dir -r requirements.txt\nCMD ["python", "-m", "⟦svc⟧"]',
                    'COPY . .\nRUN npm ci && npm run build\nCMD ["node", "dist/server.js"]',
                )
            ),
        )
    )
    return lines_frag(lines)


def csv_field(f: Frag) -> Frag:
    if any(c in f.text for c in ',"\n'):
        return concat(('"', remap(f, lambda s: s.replace('"', '""')), '"'))
    return f


def render_csv(r: Rng, entries: Sequence[Entry]) -> Frag:
    labelled = [e for e in entries if e.value.spans]
    if labelled and r.random() < 0.5:  # a password-manager export lists credentials only
        rows: list[Piece] = ["name,url,username,password,note"]
        for e in labelled:
            site = fill(r, "https://⟦domain⟧/" + styled(e.key, "kebab"))
            rows.append(
                join(
                    ",",
                    [csv_field(Frag(e.desc)), site, fill(r, "⟦login⟧"), csv_field(e.value), csv_field(Frag(e.comment))],
                )
            )
        return lines_frag(rows)
    rows = ["key,value,owner,updated_at"]
    for e in entries:
        rows.append(join(",", [styled(e.key, "env"), csv_field(e.value), fill(r, "⟦person⟧"), fill(r, "⟦day⟧")]))
    return lines_frag(rows)


def md_value(r: Rng, f: Frag) -> Frag:
    return concat(("`", f, "`")) if "`" not in f.text and r.random() < 0.75 else f


def render_md_table(r: Rng, entries: Sequence[Entry]) -> Frag:
    header = r.choice(("| Name | Value | Notes |", "| Setting | Value | Comment |", "| What | Key | |"))
    rows: list[Piece] = [header, "| --- | --- | --- |"]
    for e in entries:
        name = r.choice((f"`{styled(e.key, 'env')}`", e.desc))
        rows.append(concat(("| ", name, " | ", md_value(r, e.value), " | ", e.comment, " |")))
    return lines_frag(rows)


def render_md_list(r: Rng, entries: Sequence[Entry]) -> Frag:
    numbered = r.random() < 0.35
    shape = r.randrange(3)
    rows: list[Piece] = []
    for i, e in enumerate(entries, 1):
        bullet = f"{i}. " if numbered else r.choice(("- ", "* "))
        if shape == 0:
            body = concat((f"**{e.desc}** (`{styled(e.key, 'env')}`): ", md_value(r, e.value)))
        elif shape == 1:
            body = concat((styled(e.key, "env"), " → ", md_value(r, e.value)))
        else:
            body = concat((e.desc, ": ", md_value(r, e.value)))
        rows.append(concat((bullet, body, f" ({e.comment})" if e.comment else "")))
    return lines_frag(rows)


def render_md_headings(r: Rng, entries: Sequence[Entry]) -> Frag:
    blocks: list[Piece] = []
    for e in entries:
        title = r.choice((e.desc[:1].upper() + e.desc[1:], styled(e.key, "env")))
        if e.multiline or r.random() < 0.3:
            body = concat(("```\n", e.value, "\n```"))
        else:
            body = concat(("`", e.value, "`")) if r.random() < 0.6 else e.value
        blocks.append(concat((r.choice(("### ", "#### ", "## ")), title, "\n\n", body, "\n")))
    return join("\n", blocks)


def render_md_quote(r: Rng, entries: Sequence[Entry]) -> Frag:
    rows = [
        concat(
            (
                "> **",
                styled(e.key, "env"),
                "**: ",
                remap(e.value, indent_lines("> ")) if e.multiline else md_value(r, e.value),
            )
        )
        for e in entries
    ]
    return concat(
        (
            fill(r, r.choice(("> from ⟦person⟧, ⟦day⟧:\n>\n", "> forwarded by ⟦person⟧\n>\n", ""))),
            join("\n>\n", rows),
            "\n",
        )
    )


def render_log(r: Rng, entries: Sequence[Entry]) -> Frag:
    start = r.randint(0, 20 * 3600)
    stamp = day(r)

    def ts(i: int) -> str:
        t = start + 7 * i + r.randint(0, 5)
        return f"{stamp}T{t // 3600:02d}:{t // 60 % 60:02d}:{t % 60:02d}.{r.randint(0, 999):03d}Z"

    svc = r.choice(SERVICES)
    lines: list[Piece] = [fill(r, f"{ts(0)} INFO  [{svc}] starting ⟦project⟧ ⟦semver⟧ pid=⟦pid⟧")]
    for i, e in enumerate(entries, 1):
        lines.append(concat((f"{ts(i)} DEBUG [{svc}] config ", styled(e.key, "snake"), "=", e.value)))
    lines.append(f"{ts(len(entries) + 1)} INFO  [{svc}] listening on :{r.choice(('8080', '3000', '9000'))}")
    return lines_frag(lines)


# --- code ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class CodeShape:
    """A code layout: ``line`` is repeated per entry with ⟦k⟧ (styled key), ⟦K⟧ (env key) and ⟦q⟧ (quoted value)."""

    head: str
    line: str
    tail: str = ""
    key_style: str = "snake"
    quote: str = '"'


CODE_SHAPES: dict[str, tuple[CodeShape, ...]] = {
    "python": (
        CodeShape("", "⟦K⟧ = ⟦q⟧"),
        CodeShape("⟦pyvar⟧ = {", '    "⟦k⟧": ⟦q⟧,', "}"),
        CodeShape("import os\n", '⟦k⟧ = os.environ.get("⟦K⟧", ⟦q⟧)'),
        CodeShape("client = ⟦cls⟧(", "    ⟦k⟧=⟦q⟧,", ")"),
        CodeShape(
            "class Settings(BaseSettings):",
            "    ⟦k⟧: str = ⟦q⟧",
            '\n    model_config = SettingsConfigDict(env_file=".env")',
        ),
    ),
    "javascript": (
        CodeShape("", "const ⟦K⟧ = ⟦q⟧;"),
        CodeShape("const config = {", "  ⟦k⟧: ⟦q⟧,", "};\n\nexport default config;", "camel"),
        CodeShape("", "const ⟦k⟧ = process.env.⟦K⟧ || ⟦q⟧;", "", "camel"),
        CodeShape("module.exports = {", "  ⟦k⟧: process.env.⟦K⟧ ?? ⟦q⟧,", "};", "camel"),
    ),
    "typescript": (
        CodeShape("export const settings: Record<string, string> = {", "  ⟦k⟧: ⟦q⟧,", "};", "camel"),
        CodeShape("", "export const ⟦K⟧: string = ⟦q⟧;"),
        CodeShape("", "const ⟦k⟧: string = process.env.⟦K⟧ ?? ⟦q⟧;", "", "camel"),
        CodeShape("const client = new ⟦cls⟧({", "  ⟦k⟧: ⟦q⟧,", "});", "camel"),
    ),
    "go": (
        CodeShape("const (", "\t⟦k⟧ = ⟦q⟧", ")", "camel"),
        CodeShape("cfg := Config{", "\t⟦k⟧: ⟦q⟧,", "}", "pascal"),
        CodeShape("var settings = map[string]string{", '\t"⟦K⟧": ⟦q⟧,', "}"),
        CodeShape("", '⟦k⟧ := getenv("⟦K⟧", ⟦q⟧)', "", "camel"),
    ),
    "rust": (
        CodeShape("", "const ⟦K⟧: &str = ⟦q⟧;"),
        CodeShape("", 'let ⟦k⟧ = std::env::var("⟦K⟧").unwrap_or_else(|_| ⟦q⟧.to_string());'),
        CodeShape("let config = Config {", "    ⟦k⟧: ⟦q⟧.into(),", "};"),
    ),
    "java": (
        CodeShape("public final class ⟦cls⟧Config {", "    public static final String ⟦K⟧ = ⟦q⟧;", "}"),
        CodeShape("Properties props = new Properties();", 'props.setProperty("⟦k⟧", ⟦q⟧);', "", "dot"),
        CodeShape("⟦cls⟧ client = ⟦cls⟧.builder()", "    .⟦k⟧(⟦q⟧)", "    .build();", "camel"),
    ),
    "csharp": (
        CodeShape("public static class ⟦cls⟧Settings\n{", "    public const string ⟦k⟧ = ⟦q⟧;", "}", "pascal"),
        CodeShape("var settings = new Dictionary<string, string>\n{", '    ["⟦k⟧"] = ⟦q⟧,', "};", "pascal"),
        CodeShape("", 'var ⟦k⟧ = Environment.GetEnvironmentVariable("⟦K⟧") ?? ⟦q⟧;', "", "camel"),
    ),
    "php": (
        CodeShape("<?php\n", "define('⟦K⟧', ⟦q⟧);", "", "snake", "'"),
        CodeShape("<?php\n\nreturn [", "    '⟦k⟧' => ⟦q⟧,", "];", "snake", "'"),
        CodeShape("<?php\n", "$⟦k⟧ = getenv('⟦K⟧') ?: ⟦q⟧;", "", "camel", "'"),
    ),
    "ruby": (
        CodeShape("", "⟦K⟧ = ⟦q⟧"),
        CodeShape("⟦pyvar⟧ = {", "  ⟦k⟧: ⟦q⟧,", "}"),
        CodeShape("", '⟦k⟧ = ENV.fetch("⟦K⟧", ⟦q⟧)'),
        CodeShape("⟦cls⟧.configure do |config|", "  config.⟦k⟧ = ⟦q⟧", "end"),
    ),
}


def code_renderer(lang: str) -> Callable[[Rng, Sequence[Entry]], Frag]:
    def render(r: Rng, entries: Sequence[Entry]) -> Frag:
        shape = r.choice(CODE_SHAPES[lang])
        lines: list[Piece] = []
        if shape.head:
            lines.append(fill(r, shape.head))
        for e in entries:
            if shape.quote == "'" and not e.multiline:
                value = concat(("'", remap(e.value, esc_sq), "'"))
            else:
                value = dq(e.value, esc_dq)
            slots = {"k": styled(e.key, shape.key_style), "K": styled(e.key, "env"), "q": value}
            lines.append(fill(r, shape.line, slots))
        if shape.tail:
            lines.append(fill(r, shape.tail))
        return lines_frag(lines)

    return render


FILLERS.update(
    {
        "pid": lambda r: str(r.randint(1000, 99999)),
        "dep": lambda r: r.choice(("postgres", "redis", "db", "rabbitmq")),
        "wf": lambda r: r.choice(("deploy", "release", "nightly", "ci")),
        "job": lambda r: r.choice(("deploy", "publish", "migrate", "smoke-test")),
        "xmlroot": lambda r: r.choice(("settings", "config", "application")),
        "pyvar": lambda r: r.choice(("SETTINGS", "CONFIG", "credentials", "DEFAULTS")),
        "cls": lambda r: r.choice(("ApiClient", "Billing", "Notifier", "Storage", "Payments", "Search")),
        "sha40": lambda r: look("git_sha", hexs(r, 40)),
    }
)


@dataclass(frozen=True)
class Carrier:
    context: str
    render: Callable[[Rng, Sequence[Entry]], Frag]
    multiline: bool
    markdown: bool = False  # markdown-native: not fenced


CARRIERS: tuple[Carrier, ...] = (
    Carrier("env", render_env, True),
    Carrier("shell", render_shell, True),
    Carrier("yaml", render_yaml, True),
    Carrier("k8s_secret", render_k8s, True),
    Carrier("docker_compose", render_compose, False),
    Carrier("github_actions", render_actions, False),
    Carrier("json", render_json, True),
    Carrier("toml", render_toml, True),
    Carrier("ini", render_ini, False),
    Carrier("properties", render_properties, False),
    Carrier("xml", render_xml, True),
    Carrier("terraform", render_terraform, True),
    Carrier("dockerfile", render_dockerfile, False),
    Carrier("csv", render_csv, False),
    Carrier("log", render_log, False),
    Carrier("markdown_table", render_md_table, False, markdown=True),
    Carrier("markdown_list", render_md_list, False, markdown=True),
    Carrier("markdown_heading", render_md_headings, True, markdown=True),
    Carrier("markdown_blockquote", render_md_quote, True, markdown=True),
    *(Carrier(lang, code_renderer(lang), True) for lang in CODE_SHAPES),
)


# ----------------------------------------------------------------------------- single-value shapes


@dataclass(frozen=True)
class Snippet:
    """A shape that holds one value. ``accepts`` names what fits (see ``fits_snippet``)."""

    context: str
    accepts: str
    text: str


SNIPPETS: tuple[Snippet, ...] = (
    # sent in an HTTP header
    Snippet(
        "shell",
        "header",
        'curl -sS -X ⟦method⟧ "https://⟦api⟧/⟦path⟧" \\\n  -H "⟦hname⟧: ⟦hprefix⟧⟦v⟧" \\\n  -H "Accept: application/json"\n',
    ),
    Snippet("shell", "header", 'http --print=HhBb GET https://⟦api⟧/⟦path⟧ "⟦hname⟧:⟦hprefix⟧⟦v⟧"\n'),
    Snippet("shell", "header", 'wget -qO- --header="⟦hname⟧: ⟦hprefix⟧⟦v⟧" https://⟦api⟧/⟦path⟧ | jq .\n'),
    Snippet(
        "powershell",
        "header",
        'Invoke-RestMethod -Uri "https://⟦api⟧/⟦path⟧" -Headers @{ "⟦hname⟧" = "⟦hprefix⟧⟦v⟧" }\n',
    ),
    Snippet(
        "http_request",
        "header",
        "⟦method⟧ /⟦apipath⟧⟦path⟧ HTTP/1.1\nHost: ⟦apihost⟧\n⟦hname⟧: ⟦hprefix⟧⟦v⟧\nAccept: application/json\nUser-Agent: ⟦ua⟧\nX-Request-Id: ⟦request_id⟧\n",
    ),
    Snippet(
        "http_request",
        "header",
        'POST /⟦apipath⟧⟦path⟧ HTTP/2\nhost: ⟦apihost⟧\ncontent-type: application/json\n⟦hlower⟧: ⟦hprefix⟧⟦v⟧\ntraceparent: ⟦trace_id⟧\n\n{"dry_run": true, "limit": 20}\n',
    ),
    Snippet(
        "python",
        "header",
        'resp = requests.get(\n    "https://⟦api⟧/⟦path⟧",\n    headers={"⟦hname⟧": "⟦hprefix⟧⟦v⟧"},\n    timeout=10,\n)\nresp.raise_for_status()\n',
    ),
    Snippet(
        "javascript",
        "header",
        'const res = await fetch("https://⟦api⟧/⟦path⟧", {\n  method: "⟦method⟧",\n  headers: { "⟦hname⟧": "⟦hprefix⟧⟦v⟧", "Content-Type": "application/json" },\n});\n',
    ),
    Snippet(
        "go",
        "header",
        'req, _ := http.NewRequest("⟦method⟧", "https://⟦api⟧/⟦path⟧", nil)\nreq.Header.Set("⟦hname⟧", "⟦hprefix⟧⟦v⟧")\nresp, err := http.DefaultClient.Do(req)\n',
    ),
    Snippet(
        "stack_trace",
        "header",
        "AxiosError: Request failed with status code 403\n    at settle (/app/node_modules/axios/lib/core/settle.js:19:12)\n    at IncomingMessage.handleStreamEnd (/app/node_modules/axios/lib/adapters/http.js:599:11) {\n  code: 'ERR_BAD_REQUEST',\n  config: {\n    url: 'https://⟦api⟧/⟦path⟧',\n    method: 'get',\n    headers: {\n      Accept: 'application/json',\n      '⟦hname⟧': '⟦hprefix⟧⟦v⟧'\n    }\n  }\n}\n",
    ),
    Snippet(
        "log",
        "header",
        "⟦ts⟧ DEBUG urllib3.connectionpool: https://⟦apihost⟧:443 \"⟦method⟧ /⟦path⟧ HTTP/1.1\" 401 112\n⟦ts#2⟧ DEBUG http.client: send: b'⟦method⟧ /⟦path⟧ HTTP/1.1\\r\\nHost: ⟦apihost⟧\\r\\n⟦hname⟧: ⟦hprefix⟧⟦v⟧\\r\\n\\r\\n'\n",
    ),
    Snippet(
        "nginx",
        "header",
        'location /upstream/ {\n    proxy_pass https://⟦apihost⟧/;\n    proxy_set_header ⟦hname⟧ "⟦hprefix⟧⟦v⟧";\n    proxy_ssl_server_name on;\n}\n',
    ),
    # the password half of user:password
    Snippet("shell", "userpass", "curl -fsS -u '⟦u⟧:⟦v⟧' https://⟦uphost⟧/⟦path⟧\n"),
    Snippet("shell", "userpass", 'curl --user "⟦u⟧:⟦v⟧" -X POST https://⟦uphost⟧/⟦path⟧ -d @payload.json\n'),
    Snippet("python", "userpass", 'resp = requests.post(url, auth=("⟦u⟧", "⟦v⟧"), json=payload, timeout=15)\n'),
    Snippet("shell", "userpass", "./bin/⟦project⟧-sync --username ⟦u⟧ --password='⟦v⟧' --env ⟦env⟧\n"),
    Snippet("netrc", "userpass", "machine ⟦uphost⟧\n  login ⟦u⟧\n  password ⟦v⟧\n"),
    Snippet("shell", "userpass", "sshpass -p '⟦v⟧' ssh -o StrictHostKeyChecking=accept-new ⟦u⟧@⟦host⟧\n"),
    Snippet("ini", "userpass", "[⟦svc⟧]\n⟦host⟧ ansible_user=⟦u⟧ ansible_password=⟦v⟧ ansible_become=true\n"),
    Snippet(
        "java",
        "userpass",
        'HttpClient client = HttpClient.newBuilder()\n    .authenticator(new Authenticator() {\n        @Override\n        protected PasswordAuthentication getPasswordAuthentication() {\n            return new PasswordAuthentication("⟦u⟧", "⟦v⟧".toCharArray());\n        }\n    })\n    .build();\n',
    ),
    Snippet("shell", "userpass", "docker login ⟦registry⟧ --username ⟦u⟧ --password '⟦v⟧'\n"),
    Snippet(
        "xml",
        "userpass",
        "<settings>\n  <servers>\n    <server>\n      <id>⟦project⟧-releases</id>\n      <username>⟦u⟧</username>\n      <password>⟦v⟧</password>\n    </server>\n  </servers>\n</settings>\n",
    ),
    Snippet("shell", "userurl", "git clone https://⟦u⟧:⟦v⟧@git.⟦domain⟧/⟦org⟧/⟦project⟧.git\n"),
    Snippet(
        "env", "userurl", "HTTPS_PROXY=http://⟦u⟧:⟦v⟧@proxy.⟦domain⟧:3128\nNO_PROXY=localhost,127.0.0.1,.⟦domain⟧\n"
    ),
    # webhook URLs
    Snippet("shell", "url", "curl -X POST -H 'Content-type: application/json' --data '{\"text\":\"⟦msg⟧\"}' ⟦v⟧\n"),
    Snippet(
        "python",
        "url",
        'requests.post(\n    "⟦v⟧",\n    json={"text": f"⟦msg⟧ on {socket.gethostname()}"},\n    timeout=5,\n)\n',
    ),
    Snippet("yaml", "url", "notifications:\n  on_failure:\n    webhook: ⟦v⟧\n    mention: '@⟦login⟧'\n"),
    Snippet(
        "javascript",
        "url",
        'await fetch("⟦v⟧", {\n  method: "POST",\n  headers: { "Content-Type": "application/json" },\n  body: JSON.stringify({ content: "⟦msg⟧" }),\n});\n',
    ),
    # multi-line values (keys)
    Snippet("pem", "multiline", "⟦v⟧\n"),
    Snippet("shell", "multiline", "cat > ⟦keyfile⟧ <<'EOF'\n⟦v⟧\nEOF\n"),
    Snippet("yaml", "multiline", "⟦k⟧: |\n⟦vi⟧\n"),
    Snippet("javascript", "multiline", "const ⟦kc⟧ = `⟦v⟧`;\n"),
    Snippet("go", "multiline", "const ⟦kc⟧ = `⟦v⟧\n`\n"),
    Snippet("json", "multiline", '{\n  "⟦kc⟧": "⟦vj⟧"\n}\n'),
    # any single-line secret
    Snippet("shell", "secret", "export ⟦K⟧=⟦vs⟧\n"),
    Snippet("shell", "secret", "⟦K⟧=⟦vs⟧ ./scripts/⟦job⟧.sh --env ⟦env⟧\n"),
    Snippet("shell", "secret", "docker run --rm -e ⟦K⟧=⟦vs⟧ -p ⟦port⟧:⟦port⟧ ghcr.io/⟦org⟧/⟦project⟧:⟦semver3⟧\n"),
    Snippet(
        "shell",
        "secret",
        "kubectl -n ⟦env⟧ create secret generic ⟦project⟧-secrets \\\n  --from-literal=⟦k⟧=⟦vs⟧ \\\n  --dry-run=client -o yaml | kubectl apply -f -\n",
    ),
    Snippet("shell", "secret", 'gh secret set ⟦K⟧ --repo ⟦org⟧/⟦project⟧ --body "⟦v⟧"\n'),
    Snippet("shell", "secret", "heroku config:set ⟦K⟧=⟦vs⟧ -a ⟦project⟧-⟦env⟧\n"),
    Snippet("shell", "secret", "fly secrets set ⟦K⟧=⟦vs⟧ --app ⟦project⟧\n"),
    Snippet(
        "shell",
        "secret",
        "aws ssm put-parameter --name /⟦env⟧/⟦project⟧/⟦k⟧ --type SecureString --value ⟦vs⟧ --overwrite\n",
    ),
    Snippet("shell", "secret", "az keyvault secret set --vault-name kv-⟦project⟧ --name ⟦slug⟧ --value ⟦vs⟧\n"),
    Snippet("shell", "secret", "python scripts/backfill.py --since ⟦day⟧ --token ⟦vs⟧ --dry-run\n"),
    Snippet("shell", "secret", "./⟦project⟧ sync --api-key=⟦vs⟧ --workers 4\n"),
    Snippet("shell", "secret", "vercel env add ⟦K⟧ production <<< ⟦vs⟧\n"),
    Snippet("powershell", "secret", '$env:⟦K⟧ = "⟦v⟧"\n.\\scripts\\sync.ps1 -Environment ⟦env⟧\n'),
    Snippet(
        "systemd",
        "secret",
        '[Service]\nEnvironment="⟦K⟧=⟦v⟧"\nExecStart=/usr/local/bin/⟦project⟧ serve --port ⟦port⟧\nRestart=on-failure\n',
    ),
    Snippet(
        "crontab",
        "secret",
        "# m h dom mon dow command\n15 3 * * * ⟦K⟧=⟦vs⟧ /opt/⟦project⟧/bin/nightly-export >> /var/log/⟦project⟧.log 2>&1\n",
    ),
    Snippet("makefile", "secret", "⟦K⟧ ?= ⟦v⟧\n\ndeploy:\n\t./scripts/deploy.sh --key $(⟦K⟧)\n"),
    Snippet(
        "diff",
        "secret",
        "diff --git a/.env.example b/.env.example\n--- a/.env.example\n+++ b/.env.example\n@@ -3,4 +3,4 @@ LOG_LEVEL=info\n-⟦K⟧=\n+⟦K⟧=⟦v⟧\n PORT=⟦port⟧\n",
    ),
    Snippet(
        "sql",
        "secret",
        "INSERT INTO integrations (provider, api_key, created_at)\nVALUES ('⟦provslug⟧', '⟦v⟧', now());\n",
    ),
    Snippet(
        "http_response",
        "secret",
        'HTTP/1.1 201 Created\nContent-Type: application/json\nX-Request-Id: ⟦request_id⟧\n\n{\n  "id": "⟦uuid⟧",\n  "name": "⟦project⟧-⟦env⟧",\n  "⟦k⟧": "⟦v⟧",\n  "created_at": "⟦date_time⟧"\n}\n',
    ),
    Snippet("log", "secret", "⟦ts⟧ WARN  [⟦svc⟧] retrying upstream call with ⟦k⟧=⟦v⟧ (attempt ⟦n⟧/5)\n"),
    Snippet(
        "log",
        "secret",
        '{"ts":"⟦ts⟧","level":"debug","logger":"⟦svc⟧.settings","msg":"resolved setting","key":"⟦K⟧","value":"⟦v⟧"}\n',
    ),
    Snippet("url", "secret", "https://⟦apihost_any⟧/v1/⟦path⟧?⟦k⟧=⟦v⟧&limit=50\n"),
    Snippet(
        "stack_trace",
        "secret",
        'Traceback (most recent call last):\n  File "/srv/⟦project⟧/app/clients.py", line ⟦n2⟧, in build_client\n    return ⟦cls⟧(api_key=settings.⟦K⟧)\n  File "/srv/⟦project⟧/.venv/lib/python3.12/site-packages/⟦provslug⟧/client.py", line 88, in __init__\n    raise AuthenticationError(f"invalid api key {api_key!r}")\n⟦provslug⟧.errors.AuthenticationError: invalid api key \'⟦v⟧\'\n',
    ),
    Snippet(
        "stack_trace",
        "secret",
        "org.springframework.boot.context.properties.bind.BindException: Failed to bind properties under '⟦kd⟧' to java.lang.String:\n\n    Property: ⟦kd⟧\n    Value: \"⟦v⟧\"\n    Origin: class path resource [application-⟦env⟧.yml] - ⟦n2⟧:15\n    Reason: failed to convert\n",
    ),
    Snippet("jupyter", "secret", "%env ⟦K⟧=⟦v⟧\n"),
    Snippet("python", "secret", 'os.environ["⟦K⟧"] = "⟦v⟧"  # TODO remove before pushing\n'),
    Snippet("javascript", "secret", 'process.env.⟦K⟧ = "⟦v⟧"; // quick hack for the demo\n'),
    Snippet("yaml", "secret", 'env:\n  - name: ⟦K⟧\n    value: "⟦v⟧"\n  - name: LOG_LEVEL\n    value: info\n'),
    Snippet(
        "terraform",
        "secret",
        'resource "github_actions_secret" "⟦k⟧" {\n  repository      = "⟦project⟧"\n  secret_name     = "⟦K⟧"\n  plaintext_value = "⟦v⟧"\n}\n',
    ),
    Snippet("dockerfile", "secret", 'ARG ⟦K⟧=⟦v⟧\nRUN ./scripts/fetch-assets.sh "$⟦K⟧"\n'),
    # connection strings and other wrapped values
    Snippet(
        "log",
        "dsn",
        "⟦ts⟧ INFO  [⟦svc⟧] connecting with ⟦ekey⟧=⟦entry⟧\n⟦ts#2⟧ ERROR [⟦svc⟧] connection attempt ⟦n⟧ failed: timeout after 5000ms\n",
    ),
    Snippet("connection_string", "dsn", "⟦entry⟧\n"),
    Snippet(
        "stack_trace",
        "dsn",
        'Exception in thread "main" java.lang.IllegalStateException: Unable to open pool\n\tat com.zaxxer.hikari.pool.HikariPool.<init>(HikariPool.java:115)\n\tat ⟦long_identifier⟧.start(Application.java:42)\nCaused by: java.sql.SQLTransientConnectionException: ⟦entry⟧ - Connection is not available\n',
    ),
    Snippet(
        "csharp",
        "dsn",
        'var connectionString = "⟦entry_esc⟧";\nbuilder.Services.AddDbContext<AppDbContext>(o => o.UseNpgsql(connectionString));\n',
    ),
    # public values
    Snippet("log", "look", "⟦ts⟧ INFO  [⟦svc⟧] request completed ⟦k⟧=⟦v⟧ status=200 duration_ms=⟦ms⟧\n"),
    Snippet(
        "http_response",
        "look",
        'HTTP/1.1 200 OK\nContent-Type: application/json\n⟦hdr⟧: ⟦v⟧\nCache-Control: no-store\n\n{"ok": true}\n',
    ),
    Snippet("shell", "look", 'grep -rn -- "⟦v⟧" logs/ | head -20\n'),
    Snippet("yaml", "look", '# pinned on ⟦day⟧\n⟦k⟧: "⟦v⟧"\n'),
    Snippet("pem", "multilook", "⟦v⟧\n"),
    Snippet("yaml", "multilook", "⟦k⟧: |\n⟦vi⟧\n"),
    Snippet("env", "multilook", '⟦K⟧="⟦v⟧"\n'),
)


def native_snippets() -> tuple[Snippet, ...]:
    out: list[Snippet] = []
    for kind in (*SECRET_KINDS, *LOOK_KINDS):
        out.extend(Snippet(ctx, "kind:" + kind.kind, text) for ctx, text in kind.native)
    return tuple(out)


NATIVE_SNIPPETS = native_snippets()
MARKDOWN_CONTEXTS = ("markdown", "markdown_table", "markdown_list", "markdown_heading", "markdown_blockquote", "chat")
FENCE = {
    "shell": "bash",
    "env": "dotenv",
    "yaml": "yaml",
    "k8s_secret": "yaml",
    "docker_compose": "yaml",
    "github_actions": "yaml",
    "json": "json",
    "toml": "toml",
    "ini": "ini",
    "properties": "properties",
    "xml": "xml",
    "terraform": "hcl",
    "dockerfile": "dockerfile",
    "csv": "csv",
    "log": "text",
    "python": "python",
    "javascript": "js",
    "typescript": "ts",
    "go": "go",
    "rust": "rust",
    "java": "java",
    "csharp": "csharp",
    "php": "php",
    "ruby": "ruby",
    "http_request": "http",
    "http_response": "http",
    "stack_trace": "text",
    "sql": "sql",
    "powershell": "powershell",
    "nginx": "nginx",
    "systemd": "ini",
    "crontab": "",
    "makefile": "makefile",
    "diff": "diff",
    "jupyter": "python",
    "url": "",
    "connection_string": "",
    "pem": "",
    "netrc": "",
    "npmrc": "ini",
    "pgpass": "",
    "conf": "conf",
    "html": "html",
    "authorized_keys": "",
    "go_sum": "",
}
CONTEXT_FILES: dict[str, tuple[str, ...]] = {
    "env": (".env", ".env.production", "deploy/.env.staging", ".env.local"),
    "shell": ("deploy.sh", "~/.zsh_history", "scripts/rotate.sh", "the terminal"),
    "yaml": ("config/settings.yaml", "values-prod.yaml", "app.yml", "alertmanager.yml"),
    "k8s_secret": ("k8s/secret.yaml", "manifests/secrets.yaml", "overlays/prod/secret.yaml"),
    "docker_compose": ("docker-compose.yml", "compose.override.yaml"),
    "github_actions": (".github/workflows/deploy.yml", ".github/workflows/release.yml"),
    "json": ("config.json", "appsettings.Production.json", "secrets.json", "credentials.json"),
    "toml": ("config.toml", "netlify.toml", "~/.cargo/credentials.toml", "shopify.app.toml"),
    "ini": ("settings.ini", "~/.aws/credentials", "~/.pypirc", "my.cnf"),
    "properties": ("application.properties", "gradle.properties", "application-prod.properties"),
    "xml": ("web.config", "~/.m2/settings.xml", "App.config"),
    "terraform": ("main.tf", "terraform.tfvars", "providers.tf"),
    "dockerfile": ("Dockerfile", "Dockerfile.prod"),
    "csv": ("passwords-export.csv", "inventory.csv", "vault-export.csv"),
    "log": ("app.log", "journalctl -u ⟦svc⟧", "worker.log", "the CI log"),
    "python": ("settings.py", "config.py", "scripts/sync.py", "notebook cell"),
    "javascript": ("config.js", "server.js", "index.mjs"),
    "typescript": ("src/config.ts", "env.ts", "lib/client.ts"),
    "go": ("main.go", "internal/config/config.go", "go.sum"),
    "rust": ("src/main.rs", "src/config.rs"),
    "java": ("AppConfig.java", "ApiClient.java"),
    "csharp": ("Program.cs", "Secrets.cs"),
    "php": ("config/services.php", "wp-config.php"),
    "ruby": ("config/initializers/clients.rb", "Rakefile"),
    "http_request": ("the captured request", "mitmproxy", "the HAR file"),
    "http_response": ("the API response", "Postman"),
    "stack_trace": ("the traceback", "Sentry", "the crash log"),
    "sql": ("migration.sql", "the psql session"),
    "pem": ("key.pem", "private.key"),
    "markdown": ("the thread",),
}


# ----------------------------------------------------------------------------- prose, in six languages

FRAME_KINDS = ("note", "runbook", "incident", "daily", "chat", "todo", "profile", "coding", "meeting", "handover")
LANGS = (("en", 60), ("de", 9), ("fr", 9), ("es", 8), ("pt", 8), ("ja", 6))

PROSE: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        "title.note": ("# ⟦project⟧ notes", "# Notes: ⟦project⟧ (⟦env⟧)", "# Things to remember about ⟦project⟧"),
        "title.runbook": (
            "# Runbook: deploying ⟦project⟧",
            "# How to rotate the ⟦project⟧ credentials",
            "# Runbook - ⟦svc⟧ restore",
        ),
        "title.incident": (
            "# Incident ⟦ticket⟧: ⟦svc⟧ returning 5xx",
            "# Postmortem draft - ⟦project⟧ outage ⟦day⟧",
            "# ⟦ticket⟧ timeline",
        ),
        "title.daily": ("## ⟦day⟧", "# Daily log ⟦day⟧", "## ⟦day⟧ (⟦project⟧)"),
        "title.chat": (
            "# Chat excerpt - ⟦day⟧",
            "# Conversation with ⟦person⟧ about ⟦project⟧",
            "## Session ⟦day⟧ ⟦time⟧",
        ),
        "title.todo": ("# TODO", "# TODO - ⟦project⟧", "## Open items (⟦day⟧)"),
        "title.profile": ("# About ⟦person⟧", "# User profile", "# ⟦person⟧ - preferences and context"),
        "title.coding": ("## Coding notes: ⟦project⟧", "# ⟦project⟧ dev setup", "# Debugging ⟦svc⟧"),
        "title.meeting": ("# Meeting notes ⟦day⟧", "# Sync with ⟦person⟧ - ⟦day⟧", "# ⟦project⟧ weekly"),
        "title.handover": ("# Handover to ⟦person⟧", "# Before I go on leave (⟦day⟧)", "# Handover: ⟦project⟧"),
        "intro": (
            "User is migrating ⟦project⟧ from Heroku to Fly and asked me to keep track of the moving parts.",
            "Context: ⟦person⟧ maintains ⟦project⟧ alone on weekends, so notes need to be self-contained.",
            "The ⟦svc⟧ service talks to three vendors; this page is where I keep what I learned.",
            "Short version: staging drifted from prod and we are putting it back.",
            "Collected while pairing with ⟦person⟧ on ⟦day⟧.",
            "User prefers terse answers, British spelling and no emojis in commit messages.",
        ),
        "lead": (
            "Pasted `⟦file⟧` from the ⟦env⟧ box:",
            "Current `⟦file⟧`:",
            "Here is what I found in ⟦file⟧:",
            "The relevant bit of ⟦file⟧ (as of ⟦day⟧):",
            "⟦person⟧ shared this (`⟦file⟧`):",
            "Snippet from ⟦file⟧:",
            "What worked in the end:",
            "For next time, the exact thing I ran / used:",
        ),
        "outro": (
            "Next step: move all of this into the vault and delete it from here.",
            "Ask ⟦person⟧ before touching ⟦env⟧ again.",
            "Follow-up ticket: ⟦ticket⟧.",
            "Everything above was verified on ⟦day⟧.",
            "Do not paste this file into a public issue.",
            "Remember to restart ⟦svc⟧ after changing anything.",
        ),
        "step": (
            "SSH to the bastion and switch to the deploy user.",
            "Scale ⟦svc⟧ down to zero before running migrations.",
            "Check the dashboard: error rate should drop within five minutes.",
            "Tag the release and push the tag.",
            "Run the smoke tests against ⟦env⟧.",
            "Announce in #⟦project⟧ when done.",
        ),
        "timeline": (
            "alerts fire for ⟦svc⟧ p95 latency",
            "⟦person⟧ acknowledges the page",
            "rollback started",
            "error rate back to baseline",
            "root cause suspected: expired credential",
            "status page updated",
        ),
        "todo": (
            "rotate the ⟦svc⟧ credentials",
            "move secrets out of the repo",
            "ask ⟦person⟧ for access to ⟦env⟧",
            "upgrade ⟦svc⟧ to the new SDK",
            "write the postmortem for ⟦ticket⟧",
            "delete the old staging bucket",
        ),
        "pref": (
            "Prefers Python and uv over poetry.",
            "Works in Lisbon time (UTC+0/+1).",
            "Wants short summaries with links.",
            "Uses neovim and tmux; no VS Code suggestions.",
            "Likes tests before refactors.",
            "Deploys only on Tuesdays and Thursdays.",
        ),
        "chat_user": (
            "can you wire up the ⟦svc⟧ client? here's what I have",
            "why does this fail in ⟦env⟧ but not locally?",
            "keep this somewhere, I'll need it tomorrow",
            "here's the config, can you spot the problem?",
        ),
        "chat_bot": (
            "Done. I kept the value out of the repository and referenced it from the environment instead.",
            "The setting is read before the file is loaded, so the old value wins; I changed the order.",
            "Noted. I would still store this in a password manager rather than in my notes.",
        ),
        "secret": (
            "⟦person⟧ sent me the ⟦desc⟧ for ⟦project⟧: `⟦v⟧`",
            "The thing ⟦person⟧ sent me on Signal is `⟦v⟧` (for ⟦project⟧, don't paste it in the channel).",
            "Use this for the staging box → `⟦v⟧`",
            "Reminder to self: the ⟦prov⟧ one is ⟦v⟧ until we rotate on ⟦day⟧.",
            "If the deploy fails with 401 the ⟦desc⟧ is probably stale; the current one is `⟦v⟧`.",
            "Old ⟦prov⟧ credential, still active as of ⟦day⟧: ⟦v⟧",
            "- ⟦desc⟧ → `⟦v⟧`",
            "**⟦K⟧**: `⟦v⟧`",
            "> ⟦person⟧: here's the new one, ⟦v⟧",
            "Backup copy from the old laptop, just in case: ⟦v⟧",
            "Tried `⟦v⟧` and it worked on the first call.",
            "User asked me to remember what they use for ⟦project⟧: ⟦v⟧",
            "⟦person⟧ says `⟦K⟧` in ⟦env⟧ is ⟦v⟧ - double-check before the demo.",
            "From the call with ⟦person⟧: `⟦v⟧` goes into the ⟦env⟧ vault entry, not the repo.",
            "the one for the billing script (not the prod one!): ⟦v⟧",
            "Pinned in #⟦project⟧: ⟦v⟧",
        ),
        "look": (
            "Noted `⟦v⟧` (⟦desc⟧) for the write-up.",
            "The ticket mentions ⟦desc⟧ `⟦v⟧`.",
            "For reference, ⟦desc⟧: ⟦v⟧",
            "- ⟦desc⟧: `⟦v⟧`",
            "`⟦v⟧` is the ⟦desc⟧, fine to share.",
            "Grepped the logs for ⟦v⟧ - nothing after ⟦time⟧.",
            "⟦person⟧ asked about `⟦v⟧`; it is only the ⟦desc⟧.",
            "**⟦K⟧** = `⟦v⟧`",
            "`⟦K⟧` is `⟦v⟧` in every environment.",
            "Support quoted ⟦v⟧ when I opened the case.",
        ),
    },
    "de": {
        "title.note": ("# Notizen zu ⟦project⟧",),
        "title.runbook": ("# Runbook: ⟦project⟧ deployen",),
        "title.incident": ("# Störung ⟦ticket⟧: ⟦svc⟧ liefert 5xx",),
        "title.daily": ("## ⟦day⟧", "# Tageslog ⟦day⟧"),
        "title.chat": ("# Chatauszug vom ⟦day⟧",),
        "title.todo": ("# Offene Punkte ⟦project⟧",),
        "title.profile": ("# Über ⟦person⟧",),
        "title.coding": ("## Entwicklernotizen: ⟦project⟧",),
        "title.meeting": ("# Besprechung ⟦day⟧",),
        "title.handover": ("# Übergabe an ⟦person⟧",),
        "intro": (
            "Der Nutzer zieht ⟦project⟧ gerade auf neue Server um.",
            "Gesammelt beim Pairing mit ⟦person⟧ am ⟦day⟧.",
            "Kurzfassung: ⟦env⟧ weicht von prod ab.",
        ),
        "lead": (
            "Aus `⟦file⟧` kopiert:",
            "Aktueller Stand von ⟦file⟧:",
            "⟦person⟧ hat das geschickt (`⟦file⟧`):",
            "Was am Ende funktioniert hat:",
        ),
        "outro": (
            "Nächster Schritt: alles in den Vault verschieben.",
            "Vor Änderungen an ⟦env⟧ bitte ⟦person⟧ fragen.",
            "Folgeticket: ⟦ticket⟧.",
        ),
        "step": (
            "Auf dem Bastion-Host einloggen.",
            "⟦svc⟧ vor der Migration herunterskalieren.",
            "Smoke-Tests gegen ⟦env⟧ laufen lassen.",
        ),
        "timeline": ("Alarme für ⟦svc⟧", "Rollback gestartet", "Fehlerrate wieder normal"),
        "todo": (
            "Zugangsdaten von ⟦svc⟧ rotieren",
            "Secrets aus dem Repo entfernen",
            "⟦person⟧ nach Zugriff auf ⟦env⟧ fragen",
        ),
        "pref": ("Bevorzugt Go und kurze Antworten.", "Arbeitet in Berliner Zeit.", "Mag keine Emojis in Commits."),
        "chat_user": (
            "kannst du den ⟦svc⟧-Client einrichten? hier ist, was ich habe",
            "warum geht das in ⟦env⟧ nicht?",
        ),
        "chat_bot": (
            "Erledigt. Der Wert steht jetzt in der Umgebung, nicht im Repository.",
            "Notiert, gehört aber eigentlich in einen Passwortmanager.",
        ),
        "secret": (
            "⟦person⟧ hat mir den Schlüssel für ⟦project⟧ geschickt: `⟦v⟧`",
            "Für die Staging-Kiste das hier nehmen → `⟦v⟧`",
            "Alter ⟦prov⟧-Zugang, laut ⟦person⟧ noch aktiv: ⟦v⟧",
            "Merken: `⟦K⟧` in ⟦env⟧ ist ⟦v⟧ (bis zur Rotation am ⟦day⟧).",
            "Das Ding, das ⟦person⟧ per Signal geschickt hat: ⟦v⟧",
        ),
        "look": (
            "Notiert: `⟦v⟧` (⟦desc⟧).",
            "Zur Info, ⟦desc⟧: `⟦v⟧`",
            "Im Ticket steht `⟦v⟧` (öffentlicher Wert: ⟦desc⟧).",
            "Logs nach ⟦v⟧ durchsucht, nichts gefunden.",
        ),
    },
    "fr": {
        "title.note": ("# Notes sur ⟦project⟧",),
        "title.runbook": ("# Procédure : déployer ⟦project⟧",),
        "title.incident": ("# Incident ⟦ticket⟧ : ⟦svc⟧ en erreur",),
        "title.daily": ("## ⟦day⟧", "# Journal du ⟦day⟧"),
        "title.chat": ("# Extrait de conversation du ⟦day⟧",),
        "title.todo": ("# À faire - ⟦project⟧",),
        "title.profile": ("# À propos de ⟦person⟧",),
        "title.coding": ("## Notes de dev : ⟦project⟧",),
        "title.meeting": ("# Réunion du ⟦day⟧",),
        "title.handover": ("# Passation à ⟦person⟧",),
        "intro": (
            "L'utilisateur migre ⟦project⟧ vers un nouvel hébergeur.",
            "Notes prises en binôme avec ⟦person⟧ le ⟦day⟧.",
            "En bref : l'environnement ⟦env⟧ a divergé de la prod.",
        ),
        "lead": (
            "Copié depuis `⟦file⟧` :",
            "Version actuelle de ⟦file⟧ :",
            "⟦person⟧ m'a envoyé ceci (`⟦file⟧`) :",
            "Ce qui a fini par marcher :",
        ),
        "outro": (
            "Prochaine étape : tout mettre dans le coffre.",
            "Demander à ⟦person⟧ avant de toucher à ⟦env⟧.",
            "Ticket de suivi : ⟦ticket⟧.",
        ),
        "step": (
            "Se connecter au bastion.",
            "Réduire ⟦svc⟧ à zéro avant la migration.",
            "Lancer les tests de fumée sur ⟦env⟧.",
        ),
        "timeline": ("alertes sur ⟦svc⟧", "retour arrière lancé", "taux d'erreur revenu à la normale"),
        "todo": (
            "faire tourner les identifiants de ⟦svc⟧",
            "sortir les secrets du dépôt",
            "demander l'accès à ⟦env⟧ à ⟦person⟧",
        ),
        "pref": (
            "Préfère Python et des réponses courtes.",
            "Travaille à l'heure de Paris.",
            "Pas d'emojis dans les commits.",
        ),
        "chat_user": ("tu peux brancher le client ⟦svc⟧ ? voilà ce que j'ai", "pourquoi ça casse en ⟦env⟧ ?"),
        "chat_bot": (
            "C'est fait : la valeur est lue depuis l'environnement, pas depuis le dépôt.",
            "Noté, mais un gestionnaire de mots de passe serait plus sûr.",
        ),
        "secret": (
            "⟦person⟧ m'a envoyé la clé pour ⟦project⟧ : `⟦v⟧`",
            "À utiliser pour la machine de staging → `⟦v⟧`",
            "Ancien accès ⟦prov⟧, toujours actif d'après ⟦person⟧ : ⟦v⟧",
            "Note : `⟦K⟧` en ⟦env⟧ vaut ⟦v⟧ jusqu'à la rotation du ⟦day⟧.",
            "Le truc que ⟦person⟧ m'a passé sur Signal : ⟦v⟧",
        ),
        "look": (
            "Noté : `⟦v⟧` (⟦desc⟧).",
            "Pour mémoire, ⟦desc⟧ : `⟦v⟧`",
            "Le ticket cite `⟦v⟧` (valeur publique : ⟦desc⟧).",
            "J'ai cherché ⟦v⟧ dans les logs, rien trouvé.",
        ),
    },
    "es": {
        "title.note": ("# Notas de ⟦project⟧",),
        "title.runbook": ("# Runbook: desplegar ⟦project⟧",),
        "title.incident": ("# Incidente ⟦ticket⟧: ⟦svc⟧ devuelve 5xx",),
        "title.daily": ("## ⟦day⟧", "# Bitácora ⟦day⟧"),
        "title.chat": ("# Extracto de chat ⟦day⟧",),
        "title.todo": ("# Pendientes - ⟦project⟧",),
        "title.profile": ("# Sobre ⟦person⟧",),
        "title.coding": ("## Notas de desarrollo: ⟦project⟧",),
        "title.meeting": ("# Reunión ⟦day⟧",),
        "title.handover": ("# Traspaso a ⟦person⟧",),
        "intro": (
            "El usuario está migrando ⟦project⟧ a otro proveedor.",
            "Apuntes de la sesión con ⟦person⟧ del ⟦day⟧.",
            "Resumen: ⟦env⟧ se desvió de producción.",
        ),
        "lead": (
            "Copiado de `⟦file⟧`:",
            "Estado actual de ⟦file⟧:",
            "⟦person⟧ me pasó esto (`⟦file⟧`):",
            "Lo que funcionó al final:",
        ),
        "outro": (
            "Siguiente paso: pasar todo al vault.",
            "Preguntar a ⟦person⟧ antes de tocar ⟦env⟧.",
            "Ticket de seguimiento: ⟦ticket⟧.",
        ),
        "step": ("Entrar al bastión.", "Escalar ⟦svc⟧ a cero antes de migrar.", "Correr las pruebas de humo en ⟦env⟧."),
        "timeline": ("saltan alertas de ⟦svc⟧", "empieza el rollback", "la tasa de errores vuelve a la normalidad"),
        "todo": ("rotar las credenciales de ⟦svc⟧", "sacar los secretos del repo", "pedir a ⟦person⟧ acceso a ⟦env⟧"),
        "pref": (
            "Prefiere TypeScript y respuestas cortas.",
            "Trabaja en horario de Madrid.",
            "Nada de emojis en los commits.",
        ),
        "chat_user": ("¿puedes configurar el cliente de ⟦svc⟧? esto es lo que tengo", "¿por qué falla en ⟦env⟧?"),
        "chat_bot": (
            "Listo: el valor ahora se lee del entorno, no del repositorio.",
            "Anotado, aunque estaría mejor en un gestor de contraseñas.",
        ),
        "secret": (
            "⟦person⟧ me pasó la clave de ⟦project⟧: `⟦v⟧`",
            "Usar esta para la máquina de staging → `⟦v⟧`",
            "Credencial vieja de ⟦prov⟧, sigue activa según ⟦person⟧: ⟦v⟧",
            "Recordatorio: `⟦K⟧` en ⟦env⟧ es ⟦v⟧ hasta la rotación del ⟦day⟧.",
            "Lo que ⟦person⟧ me mandó por Signal: ⟦v⟧",
        ),
        "look": (
            "Anotado: `⟦v⟧` (⟦desc⟧).",
            "Para referencia, ⟦desc⟧: `⟦v⟧`",
            "El ticket menciona `⟦v⟧` (valor público: ⟦desc⟧).",
            "Busqué ⟦v⟧ en los logs y no apareció nada.",
        ),
    },
    "pt": {
        "title.note": ("# Notas sobre ⟦project⟧",),
        "title.runbook": ("# Runbook: publicar ⟦project⟧",),
        "title.incident": ("# Incidente ⟦ticket⟧: ⟦svc⟧ com erros 5xx",),
        "title.daily": ("## ⟦day⟧", "# Diário ⟦day⟧"),
        "title.chat": ("# Trecho de conversa ⟦day⟧",),
        "title.todo": ("# Pendências - ⟦project⟧",),
        "title.profile": ("# Sobre ⟦person⟧",),
        "title.coding": ("## Notas de desenvolvimento: ⟦project⟧",),
        "title.meeting": ("# Reunião ⟦day⟧",),
        "title.handover": ("# Passagem para ⟦person⟧",),
        "intro": (
            "O utilizador está a migrar o ⟦project⟧ para outro provedor.",
            "Anotado durante o pareamento com ⟦person⟧ em ⟦day⟧.",
            "Resumo: o ambiente ⟦env⟧ divergiu da produção.",
        ),
        "lead": (
            "Copiado de `⟦file⟧`:",
            "Versão atual de ⟦file⟧:",
            "⟦person⟧ mandou isto (`⟦file⟧`):",
            "O que funcionou no fim:",
        ),
        "outro": (
            "Próximo passo: mover tudo para o cofre.",
            "Falar com ⟦person⟧ antes de mexer em ⟦env⟧.",
            "Ticket de acompanhamento: ⟦ticket⟧.",
        ),
        "step": (
            "Entrar no bastion.",
            "Reduzir o ⟦svc⟧ a zero antes da migração.",
            "Rodar os testes de fumaça em ⟦env⟧.",
        ),
        "timeline": ("alertas do ⟦svc⟧ disparam", "rollback iniciado", "taxa de erros volta ao normal"),
        "todo": (
            "rodar as credenciais do ⟦svc⟧",
            "tirar os segredos do repositório",
            "pedir acesso ao ⟦env⟧ para ⟦person⟧",
        ),
        "pref": ("Prefere Kotlin e respostas curtas.", "Trabalha no fuso de São Paulo.", "Sem emojis nos commits."),
        "chat_user": ("consegues ligar o cliente do ⟦svc⟧? é isto que tenho", "por que isso falha em ⟦env⟧?"),
        "chat_bot": (
            "Feito: o valor agora vem do ambiente e não do repositório.",
            "Anotado, mas o ideal é um gestor de senhas.",
        ),
        "secret": (
            "⟦person⟧ mandou a chave do ⟦project⟧: `⟦v⟧`",
            "Usar esta na máquina de staging → `⟦v⟧`",
            "Credencial antiga do ⟦prov⟧, ainda ativa segundo ⟦person⟧: ⟦v⟧",
            "Lembrete: `⟦K⟧` em ⟦env⟧ é ⟦v⟧ até a rotação de ⟦day⟧.",
            "A coisa que ⟦person⟧ mandou no Signal: ⟦v⟧",
        ),
        "look": (
            "Anotado para o relatório: `⟦v⟧` (⟦desc⟧).",
            "Para referência, ⟦desc⟧: `⟦v⟧`",
            "O chamado cita `⟦v⟧` (valor público: ⟦desc⟧).",
            "Procurei ⟦v⟧ nos logs, nada.",
        ),
    },
    "ja": {
        "title.note": ("# ⟦project⟧ メモ",),
        "title.runbook": ("# 手順書: ⟦project⟧ のデプロイ",),
        "title.incident": ("# 障害 ⟦ticket⟧: ⟦svc⟧ が 5xx を返す",),
        "title.daily": ("## ⟦day⟧", "# 作業ログ ⟦day⟧"),
        "title.chat": ("# チャット抜粋 ⟦day⟧",),
        "title.todo": ("# TODO ⟦project⟧",),
        "title.profile": ("# ⟦person⟧ について",),
        "title.coding": ("## 開発メモ: ⟦project⟧",),
        "title.meeting": ("# 打ち合わせ ⟦day⟧",),
        "title.handover": ("# ⟦person⟧ への引き継ぎ",),
        "intro": (
            "ユーザーは ⟦project⟧ を新しい環境へ移行中。",
            "⟦day⟧ に ⟦person⟧ さんとペアで作業したときのメモ。",
            "要約: ⟦env⟧ 環境が本番とずれている。",
        ),
        "lead": (
            "`⟦file⟧` からコピー:",
            "現在の ⟦file⟧:",
            "⟦person⟧ さんから共有 (`⟦file⟧`):",
            "最終的にうまくいった設定:",
        ),
        "outro": ("次: すべて Vault に移す。", "⟦env⟧ を触る前に ⟦person⟧ さんに確認。", "フォローアップ: ⟦ticket⟧"),
        "step": (
            "踏み台サーバーにログインする。",
            "マイグレーション前に ⟦svc⟧ を停止する。",
            "⟦env⟧ でスモークテストを実行する。",
        ),
        "timeline": ("⟦svc⟧ のアラート発生", "ロールバック開始", "エラー率が通常に戻る"),
        "todo": (
            "⟦svc⟧ の認証情報をローテーション",
            "リポジトリからシークレットを削除",
            "⟦env⟧ へのアクセスを ⟦person⟧ さんに依頼",
        ),
        "pref": ("Rust と短い回答を好む。", "東京時間で作業。", "コミットに絵文字は使わない。"),
        "chat_user": ("⟦svc⟧ のクライアントを設定してほしい、手元にあるのはこれ", "⟦env⟧ だけで失敗するのはなぜ?"),
        "chat_bot": (
            "設定しました。値はリポジトリではなく環境変数から読み込みます。",
            "メモしましたが、パスワードマネージャーに保存するほうが安全です。",
        ),
        "secret": (
            "⟦person⟧ さんから ⟦project⟧ 用のキーをもらった: `⟦v⟧`",
            "ステージング環境ではこれを使う → `⟦v⟧`",
            "古い ⟦prov⟧ の認証情報 (まだ有効): ⟦v⟧",
            "メモ: ⟦env⟧ の `⟦K⟧` は ⟦v⟧ 、⟦day⟧ にローテーション予定。",
        ),
        "look": ("メモ: `⟦v⟧` (⟦desc⟧)", "参考: ⟦desc⟧ は `⟦v⟧`", "ログで ⟦v⟧ を検索したが見つからず。"),
    },
}


def phrase(r: Rng, lang: str, key: str, slots: Mapping[str, Piece] | None = None) -> Frag:
    return fill(r, r.choice(PROSE[lang].get(key) or PROSE["en"][key]), slots)


def phrases(r: Rng, lang: str, key: str, n: int) -> list[Frag]:
    """Up to ``n`` different phrases of one sort (fewer when the language has fewer)."""
    options = PROSE[lang].get(key) or PROSE["en"][key]
    return [fill(r, text) for text in r.sample(options, min(n, len(options)))]


# ----------------------------------------------------------------------------- documents


@dataclass(frozen=True)
class Item:
    """One value to place in a document, with everything the shapes need to know about it."""

    role: str
    kind: str
    raw: Frag
    entries: tuple[Entry, ...]
    desc: str
    provider: str
    key: str
    raw_key: str  # the name that fits the bare value (a password rather than its DSN)
    multiline: bool
    only_native: bool
    header: tuple[str, str] | None = None
    api: str = ""
    user: Frag | None = None
    wrapped: bool = False


def secret_item(r: Rng, spec: SecretKind) -> Item:
    value = spec.gen(r)
    entries = spec.entries(r, value)
    primary = next(e for e in entries if any(s.kind == spec.kind for s in e.value.spans))
    text = primary.value.text
    wrapped = (
        text != value
        and not text.startswith("Basic ")
        and ("://" in text or ";" in text or "=" in text.replace(value, ""))
    )
    user = spec.user(r) if spec.user else None
    raw_key = primary.key if text == value else r.choice(spec.keys)
    return Item(
        "secret",
        spec.kind,
        sec(spec.kind, value),
        tuple(entries),
        spec.desc,
        spec.provider or spec.desc,
        primary.key,
        raw_key,
        spec.multiline,
        spec.only_native,
        spec.header,
        spec.api,
        user,
        wrapped,
    )


def look_item(r: Rng, spec: LookKind) -> Item:
    value, key = spec.gen(r)
    entries = spec.entries(r, value, key)
    first = entries[0].key
    return Item(
        "lookalike",
        spec.kind,
        look(spec.kind, value),
        tuple(entries),
        spec.desc,
        "",
        first,
        first,
        spec.multiline,
        spec.only_native,
    )


URL_SAFE_VALUE = re.compile(r"[A-Za-z0-9._~!*-]+\Z")


def fits_carrier(item: Item, carrier: Carrier) -> bool:
    return not item.only_native and (carrier.multiline or not item.multiline)


def fits_snippet(item: Item, snip: Snippet) -> bool:
    accepts = snip.accepts
    if accepts.startswith("kind:"):
        return accepts[5:] == item.kind
    if item.only_native:
        return False
    if item.multiline:
        return accepts == ("multiline" if item.role == "secret" else "multilook")
    user_ok = item.user is not None and URL_SAFE_VALUE.fullmatch(item.user.text) is not None
    checks = {
        "secret": item.role == "secret",
        "look": item.role == "lookalike",
        "header": item.header is not None,
        "userpass": item.user is not None,
        "userurl": user_ok and URL_SAFE_VALUE.fullmatch(item.raw.text) is not None,
        "url": item.kind in WEBHOOK_KINDS,
        "dsn": item.wrapped,
    }
    return checks.get(accepts, False)


def slots_for(r: Rng, item: Item) -> dict[str, Piece]:
    api = fill(r, item.api or "api.⟦domain⟧").text
    apihost, _, apipath = api.partition("/")
    hname, hprefix = item.header or ("Authorization", "Bearer ")
    entry = next(e for e in item.entries if any(s.kind == item.kind for s in e.value.spans))
    key = item.raw_key
    return {
        "v": item.raw,
        "u": item.user or Frag(r.choice(LOGINS)),
        "K": styled(key, "env"),
        "k": styled(key, "snake"),
        "kc": styled(key, "camel"),
        "kd": styled(key, "dot"),
        "slug": styled(key, "kebab"),
        "desc": item.desc,
        "prov": item.provider or item.desc,
        "provslug": re.sub(r"[^a-z0-9]+", "_", (item.provider or "vendor").lower()).strip("_") or "vendor",
        "hname": hname,
        "hlower": hname.lower(),
        "hprefix": hprefix,
        "api": api,
        "apihost": apihost,
        "apihost_any": apihost,
        "uphost": apihost,
        "apipath": apipath + "/" if apipath else "",
        "entry": entry.value,
        "ekey": styled(entry.key, "env"),
        "entry_esc": remap(entry.value, esc_dq),
        "vs": shell_value(r, item.raw),
        "vi": "  " + remap(item.raw, indent_lines("  ")),
        "vj": remap(item.raw, esc_json),
        "hdr": "X-" + "-".join(w.title() for w in key_words(key)),
        "n2": str(r.randint(12, 240)),
        "path": r.choice(API_PATHS if apipath else PATHS),
    }


def fenced(r: Rng, context: str, body: Frag) -> Frag:
    if context in MARKDOWN_CONTEXTS:
        return body
    if context in ("env", "log", "shell", "url", "connection_string", "ini", "csv") and r.random() < 0.12:
        return body
    end = "" if body.text.endswith("\n") else "\n"
    return concat(("```", FENCE.get(context, ""), "\n", body, end, "```"))


KEY_FILES: dict[str, tuple[str, ...]] = {
    "rsa_private_key": ("server.key", "jwt-private.pem", "saml/sp.key", "~/.oci/oci_api_key.pem"),
    "ec_private_key": ("ec-p256.pem", "AuthKey_ABC123DEFG.p8", "es256-signing.pem"),
    "ed25519_private_key": ("ed25519.pem", "signing.key"),
    "openssh_private_key": ("~/.ssh/id_ed25519", "deploy_key", "~/.ssh/github_actions"),
    "pgp_private_key": ("private.asc", "release-signing-key.asc"),
    "age_secret_key": ("~/.config/sops/age/keys.txt", "age.key"),
    "pgp_public_key": ("pubkey.asc", "KEYS"),
    "public_key_pem": ("public.pem", "jwt-public.pem"),
}


def file_for(r: Rng, context: str, kind: str = "") -> str:
    if context == "pem" and kind in KEY_FILES:
        return r.choice(KEY_FILES[kind])
    return fill(r, r.choice(CONTEXT_FILES.get(context, ("my notes", "the team wiki", "the handover doc")))).text


def lead_and_block(r: Rng, lang: str, context: str, body: Frag, kind: str = "") -> Frag:
    block = fenced(r, context, body)
    if context in MARKDOWN_CONTEXTS and r.random() < 0.4:
        return block
    return concat((phrase(r, lang, "lead", {"file": file_for(r, context, kind)}), "\n\n", block))


def sentence(r: Rng, lang: str, item: Item) -> Frag:
    slots = slots_for(r, item)
    if item.wrapped and r.random() < 0.6:
        slots["v"] = slots["entry"]
    return phrase(r, lang, "secret" if item.role == "secret" else "look", slots)


NEUTRAL: tuple[tuple[str, Callable[[Rng], str]], ...] = (
    ("PORT", lambda r: r.choice(("8080", "3000", "8000"))),
    ("LOG_LEVEL", lambda r: r.choice(("info", "debug", "warn"))),
    ("APP_ENV", lambda r: r.choice(ENVS)),
    ("DB_HOST", host),
    ("DB_USER", lambda r: r.choice(DB_USERS)),
    ("DB_NAME", lambda r: r.choice(DB_NAMES)),
    ("AWS_REGION", lambda r: r.choice(AWS_REGIONS)),
    ("TIMEOUT_SECONDS", lambda r: str(r.choice((10, 30, 60)))),
    ("FEATURE_NEW_CHECKOUT", lambda r: r.choice(("true", "false"))),
    ("S3_BUCKET", lambda r: f"{r.choice(PROJECTS)}-uploads-{r.choice(ENVS)}"),
    ("SMTP_HOST", lambda r: r.choice(("smtp.sendgrid.net", "smtp.eu.mailgun.org", "smtp.postmarkapp.com"))),
    ("CACHE_TTL", lambda r: str(r.choice((60, 300, 3600)))),
    ("WORKERS", lambda r: str(r.randint(2, 16))),
    ("BASE_URL", lambda r: f"https://{r.choice(SERVICES)}.{r.choice(DOMAINS)}"),
    ("MAX_RETRIES", lambda r: str(r.randint(3, 8))),
    ("TZ", lambda r: r.choice(("Europe/Lisbon", "UTC", "America/Sao_Paulo", "Asia/Tokyo"))),
    ("OTEL_SERVICE_NAME", lambda r: f"{r.choice(PROJECTS)}-{r.choice(SERVICES)}"),
    ("NODE_ENV", lambda r: r.choice(("production", "development"))),
    ("ADMIN_EMAIL", email),
    ("DEBUG", lambda r: r.choice(("false", "0"))),
    ("DB_PORT", lambda r: r.choice(("5432", "3306", "27017"))),
    ("OPENAI_MODEL", lambda r: r.choice(("gpt-4o-mini", "gpt-4.1", "o3-mini"))),
    ("STRIPE_API_VERSION", lambda r: r.choice(("2024-06-20", "2025-03-31.basil"))),
)


def neutral_entries(r: Rng, n: int) -> list[Entry]:
    return [Entry(key, Frag(str(gen(r))), key.lower().replace("_", " ")) for key, gen in r.sample(NEUTRAL, n)]


def dedupe(entries: Sequence[Entry]) -> list[Entry]:
    seen: Counter[str] = Counter()
    out: list[Entry] = []
    for e in entries:
        seen[e.key] += 1
        key = e.key if seen[e.key] == 1 else f"{e.key}_{seen[e.key]}"
        out.append(Entry(key, e.value, e.desc, e.multiline, e.comment))
    return out


Shape = Carrier | Snippet | str  # a str is a prose sentence ("markdown" or "chat")


def shape_context(shape: Shape, frame: str) -> str:
    if isinstance(shape, str):
        return "chat" if frame == "chat" else "markdown"
    return shape.context


def choose_primary(r: Rng, item: Item, frame: str, usage: Counter[str]) -> Shape:
    options: list[tuple[float, Shape]] = []
    if not item.only_native and not item.multiline:
        options.append((1.3, "prose"))
    options += [(1.0, c) for c in CARRIERS if fits_carrier(item, c)]
    generic = [s for s in SNIPPETS if fits_snippet(item, s)]
    per_context = Counter(s.context for s in generic)
    options += [(1.0 / per_context[s.context], s) for s in generic]
    options += [(3.0, s) for s in NATIVE_SNIPPETS if fits_snippet(item, s)]
    weights = [w / (1 + usage[shape_context(s, frame)]) for w, s in options]
    return r.choices([s for _, s in options], weights=weights)[0]


def render_primary(r: Rng, lang: str, shape: Shape, items: Sequence[Item]) -> tuple[Frag, list[Item]]:
    """Render the main block of a document; return it and the items it could not hold."""
    first, rest = items[0], list(items[1:])
    if isinstance(shape, str):
        return sentence(r, lang, first), rest
    if isinstance(shape, Snippet):
        return lead_and_block(r, lang, shape.context, fill(r, shape.text, slots_for(r, first)), first.kind), rest
    groups = [list(first.entries)]
    leftover: list[Item] = []
    for item in rest:
        if fits_carrier(item, shape):
            groups.append(list(item.entries))
        else:
            leftover.append(item)
    room = max(1, 6 - sum(len(g) for g in groups))
    groups += [[e] for e in neutral_entries(r, r.randint(1, min(4, room)))]
    r.shuffle(groups)
    entries = dedupe([e for g in groups for e in g])
    return lead_and_block(r, lang, shape.context, shape.render(r, entries)), leftover


def render_extra(r: Rng, lang: str, item: Item) -> Frag:
    if not item.only_native and not item.multiline and r.random() < 0.6:
        return sentence(r, lang, item)
    options = [s for s in SNIPPETS + NATIVE_SNIPPETS if fits_snippet(item, s)]
    snip = r.choice(options)
    return lead_and_block(r, lang, snip.context, fill(r, snip.text, slots_for(r, item)), item.kind)


def prefixed(prefix: str, paragraphs: Sequence[Frag]) -> list[Frag]:
    return [p if p.text.startswith(("-", "*", ">", "#", "`", "|")) else prefix + p for p in paragraphs]


def bullets(r: Rng, lang: str, key: str, n: int, marker: str = "- ") -> Frag:
    return join("\n", [marker + p for p in phrases(r, lang, key, n)])


def timeline(r: Rng, lang: str, n: int) -> list[Frag]:
    events = phrases(r, lang, "timeline", n)
    minutes = sorted(r.sample(range(8 * 60, 20 * 60), len(events)))
    return [concat((f"- {m // 60:02d}:{m % 60:02d} ", event)) for m, event in zip(minutes, events, strict=True)]


def frame_paragraphs(r: Rng, lang: str, frame: str, main: Frag, extras: Sequence[Frag]) -> list[Frag]:
    title = phrase(r, lang, "title." + frame)
    if frame == "runbook":
        steps = phrases(r, lang, "step", 4)
        return [
            title,
            join("\n", [f"{i}. " + s for i, s in enumerate(steps[:2], 1)]),
            main,
            join("\n", [f"{i}. " + s for i, s in enumerate(steps[2:], 3)]),
            *extras,
        ]
    if frame == "incident":
        events = timeline(r, lang, 4)
        return [
            title,
            concat(("## Timeline (UTC)\n\n", join("\n", events[:2]))),
            main,
            join("\n", events[2:]),
            *extras,
            phrase(r, lang, "outro"),
        ]
    if frame == "daily":
        return [title, bullets(r, lang, "todo", 2), main, *prefixed("- ", extras)]
    if frame == "chat":
        user = "**User:** "
        return [
            title,
            user + phrase(r, lang, "chat_user"),
            main,
            "**Assistant:** " + phrase(r, lang, "chat_bot"),
            *prefixed(user, extras),
        ]
    if frame == "todo":
        return [title, bullets(r, lang, "todo", 3, r.choice(("- [ ] ", "- [x] "))), main, *prefixed("- [ ] ", extras)]
    if frame == "profile":
        return [title, bullets(r, lang, "pref", 3), main, *extras]
    if frame == "meeting":
        attendees = fill(r, "⟦person⟧, ⟦person#2⟧, ⟦person#3⟧")
        return [title, concat(("Attendees: ", attendees)), bullets(r, lang, "intro", 2), main, *extras]
    return [title, phrase(r, lang, "intro"), main, *extras, phrase(r, lang, "outro")]


def build_document(r: Rng, items: Sequence[Item], usage: Counter[str]) -> tuple[str, Frag]:
    lang = weighted(r, [(w, code) for code, w in LANGS])
    frame = r.choice(FRAME_KINDS)
    shape = choose_primary(r, items[0], frame, usage)
    context = shape_context(shape, frame)
    usage[context] += 1
    main, leftover = render_primary(r, lang, shape, items)
    extras = [render_extra(r, lang, item) for item in leftover]
    paragraphs = frame_paragraphs(r, lang, frame, main, extras)
    doc = join("\n\n", paragraphs)
    while len(doc.text) < 200:
        doc = doc + "\n\n" + phrase(r, lang, "outro")
    return context, doc + "\n"


# ----------------------------------------------------------------------------- planning, checks, output


def counts(r: Rng, n: int, options: Sequence[tuple[float, str]], at_least: int, most: int) -> list[int]:
    out = [int(weighted(r, options)) for _ in range(n)]
    while sum(out) < at_least:
        i = r.randrange(n)
        out[i] = min(most, out[i] + 1)
    return out


def schedule(r: Rng, kinds: Sequence[str], quota: int, total: int) -> list[str]:
    pool = [k for k in kinds for _ in range(quota)]
    pool += [r.choice(kinds) for _ in range(total - len(pool))]
    r.shuffle(pool)
    return pool


def generate() -> list[dict[str, object]]:
    r = random.Random(SEED)
    is_secret_doc = [True] * N_SECRET_DOCS + [False] * (N_DOCS - N_SECRET_DOCS)
    r.shuffle(is_secret_doc)
    secret_kinds = [k.kind for k in SECRET_KINDS]
    look_kinds = [k.kind for k in LOOK_KINDS]
    sec_counts = counts(
        r, N_SECRET_DOCS, ((20, "1"), (35, "2"), (30, "3"), (15, "4")), len(secret_kinds) * SECRET_QUOTA, 4
    )
    look_counts = [
        int(weighted(r, ((60, "0"), (30, "1"), (10, "2"))))
        if s
        else int(weighted(r, ((35, "1"), (40, "2"), (25, "3"))))
        for s in is_secret_doc
    ]
    look_counts = counts_top_up(r, look_counts, len(look_kinds) * LOOKALIKE_QUOTA)
    sec_queue = schedule(r, secret_kinds, SECRET_QUOTA, sum(sec_counts))
    look_queue = schedule(r, look_kinds, LOOKALIKE_QUOTA, sum(look_counts))
    usage: Counter[str] = Counter()
    records: list[dict[str, object]] = []
    sec_iter, look_iter, sec_count_iter = iter(sec_queue), iter(look_queue), iter(sec_counts)
    for index, secret_doc in enumerate(is_secret_doc, 1):
        n_sec = next(sec_count_iter) if secret_doc else 0
        items = [secret_item(r, SECRETS[next(sec_iter)]) for _ in range(n_sec)]
        items += [look_item(r, LOOKALIKES[next(look_iter)]) for _ in range(look_counts[index - 1])]
        context, doc = build_document(r, items, usage)
        records.append(record(f"blind3-{index:04d}", context, doc))
    return records


def counts_top_up(r: Rng, values: list[int], at_least: int) -> list[int]:
    while sum(values) < at_least:
        i = r.randrange(len(values))
        values[i] = min(4, values[i] + 1)
    return values


def record(doc_id: str, context: str, doc: Frag) -> dict[str, object]:
    def spans(role: str) -> list[dict[str, object]]:
        picked = sorted((s for s in doc.spans if s.role == role), key=lambda s: s.start)
        return [{"kind": s.kind, "value": doc.text[s.start : s.end], "start": s.start, "end": s.end} for s in picked]

    return {
        "id": doc_id,
        "context": context,
        "text": doc.text,
        "secrets": spans("secret"),
        "lookalikes": spans("lookalike"),
    }


def check(records: Sequence[dict[str, object]]) -> tuple[Counter[str], Counter[str]]:
    """Fail loudly if offsets, overlaps, ids or per-kind minimums are wrong."""
    ids = [rec["id"] for rec in records]
    if len(ids) != len(set(ids)) or len(records) != N_DOCS:
        raise ValueError("ids must be unique and the corpus must hold exactly N_DOCS documents")
    secret_counts: Counter[str] = Counter()
    look_counts: Counter[str] = Counter()
    for rec in records:
        text = rec["text"]
        assert isinstance(text, str)
        spans = [(s, "secrets") for s in rec["secrets"]] + [(s, "lookalikes") for s in rec["lookalikes"]]  # type: ignore[union-attr]
        spans.sort(key=lambda item: item[0]["start"])
        last_end = -1
        for span, role in spans:
            start, end = span["start"], span["end"]
            if text[start:end] != span["value"] or not start < end:
                raise ValueError(f"{rec['id']}: bad offsets for {span['kind']}")
            if start < last_end:
                raise ValueError(f"{rec['id']}: overlapping spans near {start}")
            last_end = end
            (secret_counts if role == "secrets" else look_counts)[span["kind"]] += 1
    short = [k.kind for k in SECRET_KINDS if secret_counts[k.kind] < MIN_SECRET_EXAMPLES]
    short += [k.kind for k in LOOK_KINDS if look_counts[k.kind] < MIN_LOOKALIKE_EXAMPLES]
    if short:
        raise ValueError(f"kinds below their minimum: {short}")
    return secret_counts, look_counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output directory (default: %(default)s)")
    args = parser.parse_args()
    records = generate()
    secret_counts, look_counts = check(records)
    payload = "".join(json.dumps(rec, ensure_ascii=False) + "\n" for rec in records).encode("utf-8")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "corpus.jsonl").write_bytes(payload)
    digest = hashlib.sha256(payload).hexdigest()
    (args.out / "SHA256SUMS").write_text(f"{digest}  corpus.jsonl\n", encoding="utf-8")
    with_secret = sum(1 for rec in records if rec["secrets"])
    print(f"wrote {len(records)} documents ({with_secret} with secrets) to {args.out / 'corpus.jsonl'}")
    print(f"secrets: {sum(secret_counts.values())} spans over {len(secret_counts)} kinds")
    print(f"look-alikes: {sum(look_counts.values())} spans over {len(look_counts)} kinds")
    print(f"sha256 {digest}")


if __name__ == "__main__":
    main()
