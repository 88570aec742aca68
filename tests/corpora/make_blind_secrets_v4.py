"""Blind held-out corpus generator for the secret-detection engine (v4).

Writes ``corpus.jsonl``, ``SHA256SUMS`` and ``README.md`` into
``tests/corpora/secrets_blind_v4/`` (or into ``--out DIR``).

Written blind: while writing it, nothing under ``sandbox/``, ``policies/``,
``bench/`` or ``tests/`` was opened, listed, grepped or run, except the v3
corpus README (read only for the file format and labelling conventions); no
other corpus or generator was looked at, and the project's scanner was never
run.  Token formats follow the providers' public documentation.

Standard library only, one ``random.Random(20261224)``: the output is the same
bytes on every run and under any ``PYTHONHASHSEED``.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import json
import math
import random
import struct
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

SEED = 20261224
R = random.Random(SEED)
DEFAULT_OUT = Path(__file__).resolve().parent / "secrets_blind_v4"
N_DOCS = 1200
N_SECRET_DOCS = 600
MIN_SECRET_EXAMPLES = 15
MIN_SECRET_CONTEXTS = 8
MIN_LOOK_EXAMPLES = 30
MIN_SECRET_KINDS = 80
MIN_LOOK_KINDS = 35

# --------------------------------------------------------------------------
# fragments: lists of (text, role, kind); role "" (plain), "s" (secret), "l" (look-alike)
# --------------------------------------------------------------------------

Piece = tuple[str, str, str]
Frag = list[Piece]


def T(text: str) -> Frag:
    return [(text, "", "")] if text else []


def S(kind: str, value: str) -> Frag:
    if not value:
        raise ValueError(f"empty secret for {kind}")
    return [(value, "s", kind)]


def L(kind: str, value: str) -> Frag:
    if not value:
        raise ValueError(f"empty look-alike for {kind}")
    return [(value, "l", kind)]


def cat(*parts: str | Frag) -> Frag:
    out: Frag = []
    for p in parts:
        if isinstance(p, str):
            if p:
                out.append((p, "", ""))
        else:
            out.extend(p)
    return out


def fmap(frag: Frag, fn: Callable[[str], str]) -> Frag:
    return [(fn(t), role, kind) for t, role, kind in frag]


def join(frags: list[Frag], sep: str) -> Frag:
    out: Frag = []
    for i, f in enumerate(frags):
        if i:
            out.append((sep, "", ""))
        out.extend(f)
    return out


def plain(frag: Frag) -> str:
    return "".join(t for t, _, _ in frag)


def has_nl(frag: Frag) -> bool:
    return any("\n" in t for t, _, _ in frag)


def labelled(frag: Frag) -> bool:
    return any(role for _, role, _ in frag)


def esc_json(t: str) -> str:
    return json.dumps(t, ensure_ascii=False)[1:-1]


def esc_dq(t: str) -> str:
    return t.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def esc_nl(t: str) -> str:
    return t.replace("\n", "\\n")


def esc_sql(t: str) -> str:
    return t.replace("'", "''")


def esc_xml(t: str) -> str:
    return t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def esc_pipe(t: str) -> str:
    return t.replace("|", "\\|")


def indent_fn(prefix: str) -> Callable[[str], str]:
    return lambda t: t.replace("\n", "\n" + prefix)


def indent_all(frag: Frag, prefix: str) -> Frag:
    """Prefix every line of a fragment (first line included)."""
    return cat(prefix, fmap(frag, indent_fn(prefix)))


# --------------------------------------------------------------------------
# random helpers
# --------------------------------------------------------------------------

UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
LOWER = UPPER.lower()
DIGITS = "0123456789"
ALNUM = UPPER + LOWER + DIGITS
LOWNUM = LOWER + DIGITS
UPNUM = UPPER + DIGITS
HEX = "0123456789abcdef"
B62 = DIGITS + UPPER + LOWER
B64CH = UPPER + LOWER + DIGITS + "+/"
B64URL = UPPER + LOWER + DIGITS + "-_"
B32 = UPPER + "234567"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def rs(chars: str, n: int) -> str:
    return "".join(R.choice(chars) for _ in range(n))


def rhex(n: int) -> str:
    return rs(HEX, n)


def rdig(n: int) -> str:
    return R.choice("123456789") + rs(DIGITS, n - 1)


def rbytes(n: int) -> bytes:
    return R.randbytes(n)


def chance(p: float) -> bool:
    return R.random() < p


def pick(seq: list | tuple) -> object:
    return seq[R.randrange(len(seq))]


def pk(seq: list[str] | tuple[str, ...]) -> str:
    return seq[R.randrange(len(seq))]


def b64(b: bytes) -> str:
    return base64.b64encode(b).decode()


def b64u(b: bytes) -> str:
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def cjson(obj: object) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def uuid4() -> str:
    b = bytearray(rbytes(16))
    b[6] = (b[6] & 0x0F) | 0x40
    b[8] = (b[8] & 0x3F) | 0x80
    h = b.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def b62enc(n: int, width: int) -> str:
    s = ""
    while n:
        n, rem = divmod(n, 62)
        s = B62[rem] + s
    return s.rjust(width, "0")


def crc_token(prefix: str) -> str:
    """GitHub / npm style token: prefix + 30 base62 + base62(CRC32) padded to 6."""
    body = rs(ALNUM, 30)
    return prefix + body + b62enc(zlib.crc32(body.encode()) & 0xFFFFFFFF, 6)


def wrap(s: str, width: int) -> list[str]:
    return [s[i : i + width] for i in range(0, len(s), width)]


# --------------------------------------------------------------------------
# ASN.1 DER and PEM
# --------------------------------------------------------------------------


def der_len(n: int) -> bytes:
    if n < 0x80:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


def der(tag: int, content: bytes) -> bytes:
    return bytes([tag]) + der_len(len(content)) + content


def der_int(x: int) -> bytes:
    b = x.to_bytes(max(1, (x.bit_length() + 8) // 8), "big")
    return der(0x02, b)


def der_seq(*parts: bytes) -> bytes:
    return der(0x30, b"".join(parts))


def der_oid(dotted: str) -> bytes:
    nums = [int(x) for x in dotted.split(".")]
    out = bytes([40 * nums[0] + nums[1]])
    for num in nums[2:]:
        chunk = [num & 0x7F]
        rest = num >> 7
        while rest:
            chunk.append(0x80 | (rest & 0x7F))
            rest >>= 7
        out += bytes(reversed(chunk))
    return der(0x06, out)


def der_bits(b: bytes) -> bytes:
    return der(0x03, b"\x00" + b)


def der_oct(b: bytes) -> bytes:
    return der(0x04, b)


NULL = b"\x05\x00"
OID_RSA = "1.2.840.113549.1.1.1"
OID_EC = "1.2.840.10045.2.1"
OID_P256 = "1.2.840.10045.3.1.7"
OID_ED25519 = "1.3.101.112"
OID_ECDSA_SHA256 = "1.2.840.10045.4.3.2"


def pem(label: str, body: bytes) -> str:
    lines = wrap(b64(body), 64)
    return f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----"


# --------------------------------------------------------------------------
# RSA (pure Python prime generation)
# --------------------------------------------------------------------------


def _primes_below(n: int) -> list[int]:
    sieve = bytearray([1]) * n
    sieve[0] = sieve[1] = 0
    for i in range(2, int(n**0.5) + 1):
        if sieve[i]:
            sieve[i * i :: i] = bytearray(len(sieve[i * i :: i]))
    return [i for i in range(n) if sieve[i]]


SMALL_PRIMES = _primes_below(4000)
PRIMORIAL = math.prod(SMALL_PRIMES)


def is_probable_prime(n: int) -> bool:
    if math.gcd(n, PRIMORIAL) != 1:
        return n in SMALL_PRIMES
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for a in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41):
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


def gen_prime(bits: int) -> int:
    while True:
        c = R.getrandbits(bits) | (3 << (bits - 2)) | 1
        if (c - 1) % 65537 == 0:
            continue
        if is_probable_prime(c):
            return c


def rsa_key(bits: int = 2048) -> dict[str, int]:
    e = 65537
    while True:
        p = gen_prime(bits // 2)
        q = gen_prime(bits // 2)
        if p == q:
            continue
        if p < q:
            p, q = q, p
        n = p * q
        if n.bit_length() != bits:
            continue
        lam = (p - 1) * (q - 1) // math.gcd(p - 1, q - 1)
        if math.gcd(e, lam) != 1:
            continue
        d = pow(e, -1, lam)
        return {"n": n, "e": e, "d": d, "p": p, "q": q, "dp": d % (p - 1), "dq": d % (q - 1), "qi": pow(q, -1, p)}


def rsa_pkcs1(k: dict[str, int]) -> bytes:
    return der_seq(
        der_int(0),
        der_int(k["n"]),
        der_int(k["e"]),
        der_int(k["d"]),
        der_int(k["p"]),
        der_int(k["q"]),
        der_int(k["dp"]),
        der_int(k["dq"]),
        der_int(k["qi"]),
    )


def rsa_pkcs8(k: dict[str, int]) -> bytes:
    return der_seq(der_int(0), der_seq(der_oid(OID_RSA), NULL), der_oct(rsa_pkcs1(k)))


# --------------------------------------------------------------------------
# P-256
# --------------------------------------------------------------------------

P256_P = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF
P256_N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
P256_G = (
    0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
    0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5,
)
P256_B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B


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


def ec_mul(k: int, pt: tuple[int, int]) -> tuple[int, int]:
    acc: tuple[int, int] | None = None
    add: tuple[int, int] | None = pt
    while k:
        if k & 1:
            acc = _ec_add(acc, add)
        add = _ec_add(add, add)
        k >>= 1
    assert acc is not None
    return acc


def p256_keypair() -> tuple[int, bytes]:
    d = R.randrange(1, P256_N)
    x, y = ec_mul(d, P256_G)
    assert (y * y - (x * x * x - 3 * x + P256_B)) % P256_P == 0
    return d, b"\x04" + x.to_bytes(32, "big") + y.to_bytes(32, "big")


def ecdsa_sign(d: int, msg: bytes) -> tuple[int, int]:
    z = int.from_bytes(hashlib.sha256(msg).digest(), "big")
    while True:
        k = R.randrange(1, P256_N)
        r = ec_mul(k, P256_G)[0] % P256_N
        if not r:
            continue
        s = pow(k, -1, P256_N) * (z + r * d) % P256_N
        if s:
            return r, s


def ec_sec1(d: int, pub: bytes, with_params: bool = True) -> bytes:
    parts = [der_int(1), der_oct(d.to_bytes(32, "big"))]
    if with_params:
        parts.append(der(0xA0, der_oid(OID_P256)))
    parts.append(der(0xA1, der_bits(pub)))
    return der_seq(*parts)


def ec_pkcs8(d: int, pub: bytes) -> bytes:
    return der_seq(der_int(0), der_seq(der_oid(OID_EC), der_oid(OID_P256)), der_oct(ec_sec1(d, pub, with_params=False)))


def ec_spki(pub: bytes) -> bytes:
    return der_seq(der_seq(der_oid(OID_EC), der_oid(OID_P256)), der_bits(pub))


# --------------------------------------------------------------------------
# Ed25519 / X25519 (RFC 8032 / RFC 7748)
# --------------------------------------------------------------------------

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


_ED_BY = 4 * pow(5, -1, ED_P) % ED_P
_ED_BX = _ed_xrecover(_ED_BY)
ED_B = (_ED_BX, _ED_BY, 1, _ED_BX * _ED_BY % ED_P)


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


def _ed_mul(k: int, pt: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    acc = (0, 1, 1, 0)
    while k:
        if k & 1:
            acc = _ed_add(acc, pt)
        pt = _ed_add(pt, pt)
        k >>= 1
    return acc


def _ed_enc(pt: tuple[int, int, int, int]) -> bytes:
    zi = pow(pt[2], -1, ED_P)
    x, y = pt[0] * zi % ED_P, pt[1] * zi % ED_P
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def _ed_scalar(seed: bytes) -> tuple[int, bytes]:
    h = hashlib.sha512(seed).digest()
    a = int.from_bytes(h[:32], "little")
    a &= (1 << 254) - 8
    a |= 1 << 254
    return a, h[32:]


def ed_pub(seed: bytes) -> bytes:
    return _ed_enc(_ed_mul(_ed_scalar(seed)[0], ED_B))


def ed_sign(seed: bytes, msg: bytes) -> bytes:
    a, prefix = _ed_scalar(seed)
    pub = _ed_enc(_ed_mul(a, ED_B))
    r = int.from_bytes(hashlib.sha512(prefix + msg).digest(), "little") % ED_L
    big_r = _ed_enc(_ed_mul(r, ED_B))
    k = int.from_bytes(hashlib.sha512(big_r + pub + msg).digest(), "little") % ED_L
    return big_r + ((r + k * a) % ED_L).to_bytes(32, "little")


def x25519_base(k: bytes) -> bytes:
    n = int.from_bytes(k, "little")
    n &= ~7
    n &= ~(128 << 8 * 31)
    n |= 64 << 8 * 31
    p, a24 = ED_P, 121665
    x1, x2, z2, x3, z3, swap = 9, 1, 0, 9, 1, 0
    for t in reversed(range(255)):
        bit = (n >> t) & 1
        swap ^= bit
        if swap:
            x2, x3, z2, z3 = x3, x2, z3, z2
        swap = bit
        a = (x2 + z2) % p
        aa = a * a % p
        b = (x2 - z2) % p
        bb = b * b % p
        e = (aa - bb) % p
        c = (x3 + z3) % p
        d = (x3 - z3) % p
        da = d * a % p
        cb = c * b % p
        x3 = (da + cb) ** 2 % p
        z3 = x1 * (da - cb) ** 2 % p
        x2 = aa * bb % p
        z2 = e * (aa + a24 * e) % p
    if swap:
        x2, z2 = x3, z3
    return (x2 * pow(z2, p - 2, p) % p).to_bytes(32, "little")


def ed25519_pkcs8(seed: bytes) -> bytes:
    return der_seq(der_int(0), der_seq(der_oid(OID_ED25519)), der_oct(der_oct(seed)))


def ed25519_spki(pub: bytes) -> bytes:
    return der_seq(der_seq(der_oid(OID_ED25519)), der_bits(pub))


# --------------------------------------------------------------------------
# OpenSSH
# --------------------------------------------------------------------------


def ssh_str(b: bytes | str) -> bytes:
    if isinstance(b, str):
        b = b.encode()
    return struct.pack(">I", len(b)) + b


def ssh_mpint(x: int) -> bytes:
    b = x.to_bytes((x.bit_length() + 8) // 8, "big") if x else b""
    return ssh_str(b)


def ssh_pub_blob_ed(pub: bytes) -> bytes:
    return ssh_str("ssh-ed25519") + ssh_str(pub)


def ssh_pub_blob_ec(pub: bytes) -> bytes:
    return ssh_str("ecdsa-sha2-nistp256") + ssh_str("nistp256") + ssh_str(pub)


def openssh_private(kind: str, comment: str) -> tuple[str, bytes]:
    """Return (PEM text, public blob) for an unencrypted openssh-key-v1 key."""
    check = rbytes(4)
    if kind == "ed25519":
        seed = rbytes(32)
        pub = ed_pub(seed)
        blob = ssh_pub_blob_ed(pub)
        priv = ssh_str("ssh-ed25519") + ssh_str(pub) + ssh_str(seed + pub)
    else:
        d, pub = p256_keypair()
        blob = ssh_pub_blob_ec(pub)
        priv = ssh_str("ecdsa-sha2-nistp256") + ssh_str("nistp256") + ssh_str(pub) + ssh_mpint(d)
    section = check + check + priv + ssh_str(comment)
    pad = 1
    while len(section) % 8:
        section += bytes([pad])
        pad += 1
    body = (
        b"openssh-key-v1\x00"
        + ssh_str("none")
        + ssh_str("none")
        + ssh_str(b"")
        + struct.pack(">I", 1)
        + ssh_str(blob)
        + ssh_str(section)
    )
    lines = wrap(b64(body), 70)
    text = "-----BEGIN OPENSSH PRIVATE KEY-----\n" + "\n".join(lines) + "\n-----END OPENSSH PRIVATE KEY-----"
    return text, blob


def ssh_fingerprint(blob: bytes) -> str:
    return "SHA256:" + b64(hashlib.sha256(blob).digest()).rstrip("=")


# --------------------------------------------------------------------------
# OpenPGP (v4 EdDSA keys with a real self-signature)
# --------------------------------------------------------------------------

ED25519_PGP_OID = bytes.fromhex("2B06010401DA470F01")


def pgp_mpi(b: bytes) -> bytes:
    b = b.lstrip(b"\x00") or b"\x00"
    bits = (len(b) - 1) * 8 + b[0].bit_length()
    return struct.pack(">H", bits) + b


def pgp_packet(tag: int, body: bytes) -> bytes:
    n = len(body)
    if n < 192:
        ln = bytes([n])
    elif n < 8384:
        n2 = n - 192
        ln = bytes([(n2 >> 8) + 192, n2 & 0xFF])
    else:
        ln = b"\xff" + struct.pack(">I", n)
    return bytes([0xC0 | tag]) + ln + body


def crc24(data: bytes) -> int:
    crc = 0xB704CE
    for byte in data:
        crc ^= byte << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


def pgp_armor(kind: str, data: bytes) -> str:
    lines = wrap(b64(data), 64)
    crc = b64(crc24(data).to_bytes(3, "big"))
    return (
        f"-----BEGIN PGP {kind} KEY BLOCK-----\n\n" + "\n".join(lines) + f"\n={crc}\n-----END PGP {kind} KEY BLOCK-----"
    )


def pgp_key(uid: str, created: int) -> tuple[str, str, str]:
    """Return (armored secret key, armored public key, fingerprint hex)."""
    seed = rbytes(32)
    pub = ed_pub(seed)
    pub_body = (
        b"\x04"
        + struct.pack(">I", created)
        + bytes([22])
        + bytes([len(ED25519_PGP_OID)])
        + ED25519_PGP_OID
        + pgp_mpi(b"\x40" + pub)
    )
    fpr = hashlib.sha1(b"\x99" + struct.pack(">H", len(pub_body)) + pub_body, usedforsecurity=False).digest()
    hashed = (
        bytes([5, 2])
        + struct.pack(">I", created + 7)  # creation time
        + bytes([2, 27, 0x03])  # key flags: certify + sign
        + bytes([22, 33, 4])
        + fpr
    )  # issuer fingerprint
    sig_head = bytes([4, 0x13, 22, 8]) + struct.pack(">H", len(hashed)) + hashed
    uid_b = uid.encode()
    to_hash = (
        b"\x99"
        + struct.pack(">H", len(pub_body))
        + pub_body
        + b"\xb4"
        + struct.pack(">I", len(uid_b))
        + uid_b
        + sig_head
        + b"\x04\xff"
        + struct.pack(">I", len(sig_head))
    )
    digest = hashlib.sha256(to_hash).digest()
    sig = ed_sign(seed, digest)
    unhashed = bytes([9, 16]) + fpr[-8:]
    sig_body = (
        sig_head + struct.pack(">H", len(unhashed)) + unhashed + digest[:2] + pgp_mpi(sig[:32]) + pgp_mpi(sig[32:])
    )
    secret_mpi = pgp_mpi(seed)
    sec_body = pub_body + b"\x00" + secret_mpi + struct.pack(">H", sum(secret_mpi) & 0xFFFF)
    uid_pkt = pgp_packet(13, uid_b)
    sig_pkt = pgp_packet(2, sig_body)
    secret = pgp_armor("PRIVATE", pgp_packet(5, sec_body) + uid_pkt + sig_pkt)
    public = pgp_armor("PUBLIC", pgp_packet(6, pub_body) + uid_pkt + sig_pkt)
    return secret, public, fpr.hex().upper()


# --------------------------------------------------------------------------
# bech32, base58check, misc checksums
# --------------------------------------------------------------------------

BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def _bech32_polymod(values: list[int]) -> int:
    gen = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
    chk = 1
    for v in values:
        b = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ v
        for i in range(5):
            chk ^= gen[i] if (b >> i) & 1 else 0
    return chk


def _convertbits(data: bytes, frm: int, to: int) -> list[int]:
    acc, bits, out = 0, 0, []
    maxv = (1 << to) - 1
    for v in data:
        acc = (acc << frm) | v
        bits += frm
        while bits >= to:
            bits -= to
            out.append((acc >> bits) & maxv)
    if bits:
        out.append((acc << (to - bits)) & maxv)
    return out


def bech32_encode(hrp: str, data: list[int]) -> str:
    exp = [ord(x) >> 5 for x in hrp] + [0] + [ord(x) & 31 for x in hrp]
    poly = _bech32_polymod(exp + data + [0] * 6) ^ 1
    checksum = [(poly >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(BECH32[d] for d in data + checksum)


def age_keypair() -> tuple[str, str]:
    k = rbytes(32)
    secret = bech32_encode("age-secret-key-", _convertbits(k, 8, 5)).upper()
    recipient = bech32_encode("age", _convertbits(x25519_base(k), 8, 5))
    return secret, recipient


def b58encode(b: bytes) -> str:
    n = int.from_bytes(b, "big")
    s = ""
    while n:
        n, rem = divmod(n, 58)
        s = B58[rem] + s
    pad = len(b) - len(b.lstrip(b"\x00"))
    return "1" * pad + s


def btc_address() -> str:
    if chance(0.35):
        prog = rbytes(20)
        return bech32_encode("bc", [0, *_convertbits(prog, 8, 5)])
    payload = bytes([pick([0x00, 0x05])]) + rbytes(20)
    return b58encode(payload + hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4])


def iban(country: str | None = None) -> str:
    specs = {
        "DE": "18n",
        "FR": "10n11c2n",
        "GB": "4a14n",
        "NL": "4a10n",
        "ES": "20n",
        "IT": "1a10n12c",
        "PL": "24n",
        "BE": "12n",
        "AT": "16n",
        "CH": "5n12c",
    }
    c = country or pk(list(specs))
    bban = ""
    spec = specs[c]
    i = 0
    while i < len(spec):
        j = i
        while spec[j].isdigit():
            j += 1
        n, t = int(spec[i:j]), spec[j]
        bban += rs(DIGITS if t == "n" else (UPPER if t == "a" else UPNUM), n)
        i = j + 1
    num = "".join(str(int(ch, 36)) for ch in bban + c + "00")
    check = 98 - int(num) % 97
    return f"{c}{check:02d}{bban}"


def isbn13() -> str:
    d = "978" + rs(DIGITS, 9)
    s = sum(int(x) * (1 if i % 2 == 0 else 3) for i, x in enumerate(d))
    d += str((10 - s % 10) % 10)
    if chance(0.5):
        return f"{d[:3]}-{d[3]}-{d[4:8]}-{d[8:12]}-{d[12]}"
    return d


def ulid() -> str:
    return rs("01", 1) + rs(CROCKFORD, 25)


# --------------------------------------------------------------------------
# JWT, macaroons, images
# --------------------------------------------------------------------------


def jwt_hs256(claims: dict, key: bytes, kid: str | None = None) -> str:
    header: dict[str, str] = {"alg": "HS256", "typ": "JWT"}
    if kid:
        header["kid"] = kid
    si = b64u(cjson(header).encode()) + "." + b64u(cjson(claims).encode())
    return si + "." + b64u(hmac.new(key, si.encode(), hashlib.sha256).digest())


def jwt_es256(claims: dict) -> str:
    d, _ = p256_keypair()
    si = (
        b64u(cjson({"alg": "ES256", "typ": "JWT", "kid": rs(B64URL, 22)}).encode()) + "." + b64u(cjson(claims).encode())
    )
    r, s = ecdsa_sign(d, si.encode())
    return si + "." + b64u(r.to_bytes(32, "big") + s.to_bytes(32, "big"))


def _varint(n: int) -> bytes:
    out = b""
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


def _mfield(t: int, data: bytes) -> bytes:
    return bytes([t]) + _varint(len(data)) + data


def pypi_token() -> str:
    key = rbytes(32)
    ident = uuid4().encode()
    if chance(0.5):
        caveat = cjson({"version": 1, "permissions": "user"}).encode()
    else:
        proj = pk(["acme-utils", "tinyhttp", "pantry-client", "kestrel-sdk", "fastgrid", "ledgerkit"])
        caveat = cjson({"version": 1, "permissions": {"projects": [proj]}}).encode()
    sig = hmac.new(key, ident, hashlib.sha256).digest()
    sig = hmac.new(sig, caveat, hashlib.sha256).digest()
    raw = (
        b"\x02"
        + _mfield(1, b"pypi.org")
        + _mfield(2, ident)
        + b"\x00"
        + _mfield(2, caveat)
        + b"\x00"
        + b"\x00"
        + _mfield(6, sig)
    )
    return "pypi-" + b64u(raw)


def png_bytes(w: int, h: int) -> bytes:
    def chunk(t: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + t + data + struct.pack(">I", zlib.crc32(t + data) & 0xFFFFFFFF)

    rows = b"".join(b"\x00" + rbytes(w * 3) for _ in range(h))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(rows, 9))
        + chunk(b"IEND", b"")
    )


def self_signed_cert(cn: str, org: str) -> tuple[str, bytes]:
    d, pub = p256_keypair()

    def name(c: str, o: str) -> bytes:
        return der_seq(
            der(0x31, der_seq(der_oid("2.5.4.6"), der(0x13, b"DE"))),
            der(0x31, der_seq(der_oid("2.5.4.10"), der(0x0C, o.encode()))),
            der(0x31, der_seq(der_oid("2.5.4.3"), der(0x0C, c.encode()))),
        )

    y = R.randint(2022, 2025)
    mo = R.randint(1, 12)
    nb = f"{y % 100:02d}{mo:02d}{R.randint(1, 28):02d}{R.randint(0, 23):02d}{R.randint(0, 59):02d}00Z".encode()
    na = f"{(y + R.choice([1, 2, 5])) % 100:02d}{mo:02d}{R.randint(1, 28):02d}000000Z".encode()
    alg = der_seq(der_oid(OID_ECDSA_SHA256))
    ext = der(0xA3, der_seq(der_seq(der_oid("2.5.29.19"), der(0x01, b"\xff"), der_oct(der_seq(der(0x01, b"\xff"))))))
    tbs = der_seq(
        der(0xA0, der_int(2)),
        der_int(R.getrandbits(120) | 1 << 119),
        alg,
        name(cn, org),
        der_seq(der(0x17, nb), der(0x17, na)),
        name(cn, org),
        ec_spki(pub),
        ext,
    )
    r, s = ecdsa_sign(d, tbs)
    cert = der_seq(tbs, alg, der_bits(der_seq(der_int(r), der_int(s))))
    return pem("CERTIFICATE", cert), pub


# --------------------------------------------------------------------------
# items
# --------------------------------------------------------------------------


@dataclass
class Entry:
    name: str  # canonical UPPER_SNAKE name
    frag: Frag
    desc: str = ""  # short English description
    http: tuple[str, str, str] | None = None  # header, prefix, url
    basic_user: str | None = None  # curl -u user:<value>
    netrc: tuple[str, str] | None = None  # machine, login
    npmrc: str = ""  # registry prefix for .npmrc
    post: bool = False  # the value is a URL one POSTs to
    pem: bool = False
    cred: bool = False  # look-alike standing where a credential goes


@dataclass
class Item:
    gen: str
    entries: list[Entry]
    forms: dict[str, Frag] = field(default_factory=dict)
    cli: list[Frag] = field(default_factory=list)
    secret: bool = True

    @property
    def multiline(self) -> bool:
        return any(has_nl(e.frag) for e in self.entries)


PEOPLE = [
    "Ana",
    "Jonas",
    "Priya",
    "Mateo",
    "Chloé",
    "Kenji",
    "Wei",
    "Zofia",
    "Luca",
    "Sanne",
    "Omar",
    "Fatima",
    "Liam",
    "Inès",
    "Tomasz",
    "Yuki",
    "Hannah",
    "Diego",
    "Elif",
    "Noah",
    "Marta",
    "Bram",
]
PROJECTS = [
    "billing-api",
    "atlas",
    "helios",
    "pantry",
    "kestrel",
    "lumen",
    "orchard",
    "quill",
    "nimbus",
    "harbor",
    "fjord",
    "tandem",
    "beacon",
    "sprout",
    "ledger",
    "parcel",
    "meridian",
    "otter",
]
USERS = [
    "ana",
    "jonas.k",
    "priya",
    "mateo",
    "deploy",
    "ci-bot",
    "svc_app",
    "admin",
    "app",
    "backend",
    "reporting",
    "etl_user",
    "kenji",
    "zofia.n",
    "release-bot",
    "ops",
]
DOMAINS = ["acme.io", "example.com", "example.org", "kestrel.dev", "pantry.app", "lumen.test", "orchard.internal"]
REGIONS = ["eu-west-1", "eu-central-1", "us-east-1", "us-west-2", "ap-northeast-1", "eu-north-1"]
NEUTRAL = [
    "X",
    "STAGING_BOX",
    "TMP",
    "K",
    "DO_NOT_COMMIT",
    "OLD_ONE",
    "FROM_SLACK",
    "SCRATCH",
    "BACKUP_2",
    "THING",
    "VAL",
    "MISC",
    "LEGACY",
    "PRIMARY",
    "NEW_ONE",
    "LOCAL_ONLY",
    "PASTE_1",
]
WORDS = [
    "harbor",
    "velvet",
    "orbit",
    "maple",
    "cobalt",
    "falcon",
    "ember",
    "tundra",
    "quartz",
    "saffron",
    "lantern",
    "meadow",
    "pixel",
    "canyon",
    "willow",
    "nectar",
    "glacier",
    "rocket",
    "juniper",
    "sable",
    "otter",
    "thistle",
    "magnet",
    "copper",
    "violet",
    "summit",
]
SYMS = "!@#%^&*-_=+.?~"


def nm(names: list[str], weak: bool = False) -> str:
    if chance(0.03 if weak else 0.10):
        return pk(NEUTRAL)
    return pk(names)


def proj() -> str:
    return pk(PROJECTS)


def dom() -> str:
    return pk(DOMAINS)


def email() -> str:
    return pk(["ana", "jonas", "priya", "mateo", "ops", "dev", "kenji", "zofia", "billing"]) + "@" + dom()


def password(style: str | None = None) -> str:
    st = style or pk(["random", "random", "words", "alnum", "mixed", "random"])
    if st == "random":
        n = R.randint(14, 26)
        while True:
            s = rs(ALNUM + SYMS + SYMS, n)
            if any(c in SYMS for c in s) and any(c in DIGITS for c in s) and s[0] not in "-":
                return s
    if st == "words":
        ws = [pk(WORDS) for _ in range(R.randint(2, 4))]
        sep = pk(["-", ".", "_", ""])
        ws = [w.capitalize() if sep == "" or chance(0.5) else w for w in ws]
        return sep.join(ws) + sep + str(R.randint(10, 999)) + pk(["!", "#", "?", "", "%"])
    if st == "alnum":
        return rs(ALNUM, R.randint(16, 32))
    return (
        pk(WORDS).capitalize()
        + str(R.randint(1990, 2026))
        + pk(["!", "@", "#", "$", "&", "*"])
        + pk(WORDS).capitalize()
    )


def pw_url(pw: str) -> str:
    return quote(pw, safe="")


SECRET_GENS: list[tuple[str, Callable[[], Item], int]] = []


def sgen(count: int = 15) -> Callable[[Callable[[], Item]], Callable[[], Item]]:
    def deco(fn: Callable[[], Item]) -> Callable[[], Item]:
        SECRET_GENS.append((fn.__name__[2:], fn, count))
        return fn

    return deco


def single(gen: str, kind: str, value: str, names: list[str], desc: str, *, weak: bool = False, **kw: object) -> Item:
    return Item(gen, [Entry(nm(names, weak), S(kind, value), desc, **kw)])  # type: ignore[arg-type]


# ---------------- cloud ----------------


@sgen(16)
def g_aws_keys() -> Item:
    kid, sec = "AKIA" + rs(B32, 16), rs(ALNUM + "+/", 40)
    n1, n2 = pick(
        [
            ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"),
            ("AWS_ACCESS_KEY", "AWS_SECRET_KEY"),
            ("S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"),
            ("ACCESS_KEY", "SECRET_KEY"),
            ("BACKUP_AWS_KEY_ID", "BACKUP_AWS_SECRET"),
        ]
    )  # type: ignore[misc]
    it = Item(
        "aws_keys",
        [
            Entry(n1, S("aws_access_key_id", kid), "AWS access key id"),
            Entry(n2, S("aws_secret_access_key", sec), "AWS secret access key"),
        ],
    )
    reg = pk(REGIONS)
    it.forms["ini"] = cat(
        f"[{pk(['default', 'prod', 'backup', 'ci'])}]\naws_access_key_id = ",
        S("aws_access_key_id", kid),
        "\naws_secret_access_key = ",
        S("aws_secret_access_key", sec),
        f"\nregion = {reg}",
    )
    it.cli = [
        cat(
            "aws configure set aws_access_key_id ",
            S("aws_access_key_id", kid),
            "\naws configure set aws_secret_access_key ",
            S("aws_secret_access_key", sec),
        ),
        cat(
            "AWS_ACCESS_KEY_ID=",
            S("aws_access_key_id", kid),
            " AWS_SECRET_ACCESS_KEY=",
            S("aws_secret_access_key", sec),
            f" aws s3 sync ./dist s3://{proj()}-assets --region {reg}",
        ),
    ]
    return it


@sgen(15)
def g_aws_session() -> Item:
    kid, sec = "ASIA" + rs(B32, 16), rs(ALNUM + "+/", 40)
    reg = pk(REGIONS)
    blob = (
        b"!\n\torigin_ec\x10"
        + rbytes(1)
        + b"\xff" * 9
        + b"\x01\x1a\x09"
        + reg.encode()
        + b'"G0E\x02!\x00'
        + rbytes(R.randint(300, 520))
    )
    tok = b64(blob)
    it = Item(
        "aws_session",
        [
            Entry("AWS_ACCESS_KEY_ID", S("aws_access_key_id", kid), "temporary AWS key id"),
            Entry("AWS_SECRET_ACCESS_KEY", S("aws_secret_access_key", sec), "temporary AWS secret"),
            Entry("AWS_SESSION_TOKEN", S("aws_session_token", tok), "AWS session token"),
        ],
    )
    it.forms["ini"] = cat(
        "[sso-admin]\naws_access_key_id = ",
        S("aws_access_key_id", kid),
        "\naws_secret_access_key = ",
        S("aws_secret_access_key", sec),
        "\naws_session_token = ",
        S("aws_session_token", tok),
    )
    it.forms["http_response"] = cat(
        '{\n  "Credentials": {\n    "AccessKeyId": "',
        S("aws_access_key_id", kid),
        '",\n    "SecretAccessKey": "',
        S("aws_secret_access_key", sec),
        '",\n    "SessionToken": "',
        S("aws_session_token", tok),
        '",\n    "Expiration": "2025-06-02T18:04:11+00:00"\n  }\n}',
    )
    return it


def gcp_sa(compact: bool) -> Frag:
    k = rsa_key()
    key_pem = pem("PRIVATE KEY", rsa_pkcs8(k)) + "\n"
    p = proj() + "-" + rdig(6)
    sa = (
        pk(["terraform", "ci-deployer", "bq-reader", "firebase-adminsdk-" + rs(LOWNUM, 5), "backup"])
        + "@"
        + p
        + ".iam.gserviceaccount.com"
    )
    fields: list[tuple[str, Frag]] = [
        ("type", T("service_account")),
        ("project_id", T(p)),
        ("private_key_id", L("key_identifier", rhex(40))),
        ("private_key", S("gcp_service_account_key", esc_json(key_pem))),
        ("client_email", T(sa)),
        ("client_id", T(rdig(21))),
        ("auth_uri", T("https://accounts.google.com/o/oauth2/auth")),
        ("token_uri", T("https://oauth2.googleapis.com/token")),
        ("auth_provider_x509_cert_url", T("https://www.googleapis.com/oauth2/v1/certs")),
        ("client_x509_cert_url", T("https://www.googleapis.com/robot/v1/metadata/x509/" + quote(sa, safe=""))),
        ("universe_domain", T("googleapis.com")),
    ]
    if compact:
        return cat("{", join([cat(f'"{k_}":"', v, '"') for k_, v in fields], ","), "}")
    return cat("{\n", join([cat(f'  "{k_}": "', v, '"') for k_, v in fields], ",\n"), "\n}")


@sgen(15)
def g_gcp_service_account() -> Item:
    compact = chance(0.45)
    fr = gcp_sa(compact)
    it = Item(
        "gcp_service_account",
        [
            Entry(
                nm(
                    [
                        "GOOGLE_CREDENTIALS",
                        "GCP_SA_KEY",
                        "GOOGLE_SERVICE_ACCOUNT_JSON",
                        "FIREBASE_SERVICE_ACCOUNT",
                        "GCLOUD_KEYFILE_JSON",
                    ]
                ),
                fr,
                "GCP service-account key",
            )
        ],
    )
    it.forms["json"] = gcp_sa(False)
    return it


@sgen(15)
def g_google_api_key() -> Item:
    v = "AIza" + rs(B64URL, 35)
    it = single(
        "google_api_key",
        "google_api_key",
        v,
        ["GOOGLE_API_KEY", "GEMINI_API_KEY", "GOOGLE_MAPS_SERVER_KEY", "YOUTUBE_API_KEY", "PLACES_API_KEY"],
        "Google API key",
        http=(
            "x-goog-api-key",
            "",
            "https://generativelanguage.googleapis.com/v1beta/models/gemini-1.5-flash:generateContent",
        ),
    )
    it.cli = [
        cat(
            'curl "https://maps.googleapis.com/maps/api/geocode/json?address=Alexanderplatz+1+Berlin&key=',
            S("google_api_key", v),
            '"',
        )
    ]
    return it


@sgen(15)
def g_azure_storage_key() -> Item:
    key = b64(rbytes(64))
    acct = proj().replace("-", "") + pk(["prod", "stg", "data", "logs"]) + rs(LOWNUM, 3)
    if chance(0.55):
        fr = cat(
            f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey=",
            S("azure_storage_account_key", key),
            ";EndpointSuffix=core.windows.net",
        )
        it = Item(
            "azure_storage_key",
            [
                Entry(
                    nm(["AZURE_STORAGE_CONNECTION_STRING", "AzureWebJobsStorage", "BLOB_CONNECTION"]),
                    fr,
                    "Azure storage connection string",
                )
            ],
        )
        it.forms["connection_string"] = fr
    else:
        it = Item(
            "azure_storage_key",
            [
                Entry("AZURE_STORAGE_ACCOUNT", T(acct), "storage account"),
                Entry(
                    nm(["AZURE_STORAGE_KEY", "AZURE_STORAGE_ACCESS_KEY", "STORAGE_ACCOUNT_KEY"]),
                    S("azure_storage_account_key", key),
                    "Azure storage key",
                ),
            ],
        )
    it.cli = [
        cat(
            f"az storage blob upload --account-name {acct} --account-key '",
            S("azure_storage_account_key", key),
            "' --container-name backups --file dump.sql.gz --name dump.sql.gz",
        )
    ]
    return it


@sgen(15)
def g_azure_sas() -> Item:
    sig = quote(b64(rbytes(32)), safe="")
    acct = proj().replace("-", "") + rs(LOWNUM, 4)
    q = f"sv=2022-11-02&ss=b&srt=co&sp={pk(['rl', 'racwdl', 'r', 'rwdlac'])}&se=2026-0{R.randint(1, 9)}-{R.randint(10, 28)}T23:59:59Z&st=2025-0{R.randint(1, 9)}-01T00:00:00Z&spr=https&sig="
    if chance(0.6):
        fr = cat(
            f"https://{acct}.blob.core.windows.net/{pk(['exports', 'backups', 'media', 'reports'])}/{pk(['2025/q1.csv', 'db.bak', 'video.mp4', 'invoices.zip'])}?{q}",
            S("azure_sas_signature", sig),
        )
        return Item(
            "azure_sas",
            [Entry(nm(["AZURE_SAS_URL", "BLOB_SAS_URL", "EXPORT_URL", "BACKUP_UPLOAD_URL"]), fr, "Azure SAS URL")],
        )
    fr = cat("?" if chance(0.5) else "", q, S("azure_sas_signature", sig))
    return Item("azure_sas", [Entry(nm(["AZURE_STORAGE_SAS_TOKEN", "SAS_TOKEN", "BLOB_SAS"]), fr, "Azure SAS token")])


@sgen(15)
def g_azure_ad_secret() -> Item:
    v = rs(ALNUM, 3) + pk(DIGITS) + "Q~" + rs(ALNUM + "_.~-", 34)
    es = [
        Entry("AZURE_TENANT_ID", L("uuid", uuid4()), "tenant id"),
        Entry("AZURE_CLIENT_ID", L("oauth_client_id", uuid4()), "app (client) id"),
        Entry(
            nm(["AZURE_CLIENT_SECRET", "ARM_CLIENT_SECRET", "ENTRA_CLIENT_SECRET", "AAD_CLIENT_SECRET"]),
            S("azure_ad_client_secret", v),
            "Entra ID client secret",
        ),
    ]
    if chance(0.3):
        es = es[2:]
    return Item("azure_ad_secret", es)


@sgen(15)
def g_azure_servicebus() -> Item:
    ns = proj() + "-" + pk(["bus", "events", "sb", "eh"])
    fr = cat(
        f"Endpoint=sb://{ns}.servicebus.windows.net/;SharedAccessKeyName={pk(['RootManageSharedAccessKey', 'send-only', 'listen'])};SharedAccessKey=",
        S("azure_shared_access_key", b64(rbytes(32))),
        pk(["", ";EntityPath=orders", ";EntityPath=telemetry"]),
    )
    it = Item(
        "azure_servicebus",
        [
            Entry(
                nm(["SERVICEBUS_CONNECTION_STRING", "EVENTHUB_CONNECTION", "AZURE_SERVICEBUS_CONN"]),
                fr,
                "Service Bus connection string",
            )
        ],
    )
    it.forms["connection_string"] = fr
    return it


@sgen(15)
def g_azure_cosmos() -> Item:
    acct = proj() + "-cosmos"
    fr = cat(
        f"AccountEndpoint=https://{acct}.documents.azure.com:443/;AccountKey=",
        S("azure_cosmosdb_key", b64(rbytes(64))),
        ";",
    )
    it = Item(
        "azure_cosmos",
        [
            Entry(
                nm(["COSMOS_CONNECTION_STRING", "COSMOSDB_CONN", "AZURE_COSMOS_CONNECTIONSTRING"]),
                fr,
                "Cosmos DB connection string",
            )
        ],
    )
    it.forms["connection_string"] = fr
    return it


@sgen(15)
def g_azure_devops_pat() -> Item:
    v = rs("abcdefghijklmnopqrstuvwxyz234567", 52)
    org = proj().replace("-", "")
    it = single(
        "azure_devops_pat",
        "azure_devops_pat",
        v,
        ["AZURE_DEVOPS_PAT", "AZURE_DEVOPS_EXT_PAT", "ADO_PAT", "SYSTEM_ACCESSTOKEN_OVERRIDE"],
        "Azure DevOps PAT",
        netrc=("dev.azure.com", org),
        basic_user="",
    )
    it.cli = [cat("git clone https://", S("azure_devops_pat", v), f"@dev.azure.com/{org}/{proj()}/_git/{proj()}")]
    return it


@sgen(15)
def g_digitalocean() -> Item:
    v = pk(["dop_v1_", "dop_v1_", "doo_v1_"]) + rhex(64)
    it = single(
        "digitalocean",
        "digitalocean_token",
        v,
        ["DIGITALOCEAN_TOKEN", "DIGITALOCEAN_ACCESS_TOKEN", "DO_TOKEN", "DO_PAT"],
        "DigitalOcean token",
        http=("Authorization", "Bearer ", "https://api.digitalocean.com/v2/droplets"),
    )
    it.cli = [cat("doctl auth init --context ", proj(), " --access-token ", S("digitalocean_token", v))]
    return it


@sgen(15)
def g_alibaba() -> Item:
    kid, sec = "LTAI" + pk(["5t", "4G", "5t"]) + rs(ALNUM, 18), rs(ALNUM, 30)
    n1, n2 = pick(
        [
            ("ALIBABA_CLOUD_ACCESS_KEY_ID", "ALIBABA_CLOUD_ACCESS_KEY_SECRET"),
            ("ALICLOUD_ACCESS_KEY", "ALICLOUD_SECRET_KEY"),
            ("OSS_ACCESS_KEY_ID", "OSS_ACCESS_KEY_SECRET"),
        ]
    )  # type: ignore[misc]
    it = Item(
        "alibaba",
        [
            Entry(n1, S("alibaba_access_key_id", kid), "Alibaba AccessKey id"),
            Entry(n2, S("alibaba_access_key_secret", sec), "Alibaba AccessKey secret"),
        ],
    )
    it.cli = [
        cat(
            "aliyun configure set --profile prod --mode AK --access-key-id ",
            S("alibaba_access_key_id", kid),
            " --access-key-secret ",
            S("alibaba_access_key_secret", sec),
            " --region cn-hangzhou",
        )
    ]
    return it


@sgen(15)
def g_ibm_cloud() -> Item:
    v = rs(B64URL, 44)
    it = single(
        "ibm_cloud", "ibm_cloud_api_key", v, ["IBMCLOUD_API_KEY", "IC_API_KEY", "IBM_CLOUD_APIKEY"], "IBM Cloud API key"
    )
    it.cli = [cat("ibmcloud login --apikey ", S("ibm_cloud_api_key", v), " -r us-south -g default")]
    return it


@sgen(15)
def g_oci_auth_token() -> Item:
    while True:
        v = rs(ALNUM * 3 + "()[]{}<>:;.#_-+", 20)
        if any(not c.isalnum() for c in v):
            break
    user = pk(["ana@", "ci@", "jonas@"]) + dom()
    it = single(
        "oci_auth_token",
        "oci_auth_token",
        v,
        ["OCI_AUTH_TOKEN", "OCIR_PASSWORD", "OCI_REGISTRY_TOKEN"],
        "OCI auth token",
    )
    it.cli = [
        cat(
            f"docker login {pk(['fra', 'iad', 'lhr', 'ams'])}.ocir.io -u '{rs(LOWNUM, 12)}/oracleidentitycloudservice/{user}' -p '",
            S("oci_auth_token", v),
            "'",
        )
    ]
    return it


@sgen(15)
def g_cloudflare_token() -> Item:
    v = rs(B64URL, 40)
    it = single(
        "cloudflare_token",
        "cloudflare_api_token",
        v,
        ["CLOUDFLARE_API_TOKEN", "CF_API_TOKEN", "CF_DNS_API_TOKEN"],
        "Cloudflare API token",
        http=("Authorization", "Bearer ", "https://api.cloudflare.com/client/v4/user/tokens/verify"),
    )
    it.cli = [cat("wrangler deploy  # with CLOUDFLARE_API_TOKEN=", S("cloudflare_api_token", v))]
    return it


@sgen(15)
def g_cloudflare_global_key() -> Item:
    v = rhex(37)
    return single(
        "cloudflare_global_key",
        "cloudflare_global_api_key",
        v,
        ["CLOUDFLARE_API_KEY", "CF_API_KEY", "CF_GLOBAL_KEY"],
        "Cloudflare global API key",
        weak=True,
        http=("X-Auth-Key", "", "https://api.cloudflare.com/client/v4/zones?name=" + dom()),
    )


@sgen(15)
def g_heroku() -> Item:
    v = "HRKU-AA" + rs(B64URL, 58) if chance(0.6) else uuid4()
    return single(
        "heroku",
        "heroku_api_key",
        v,
        ["HEROKU_API_KEY", "HEROKU_TOKEN", "HEROKU_AUTH_TOKEN"],
        "Heroku API key",
        weak=not v.startswith("HRKU"),
        http=("Authorization", "Bearer ", "https://api.heroku.com/apps"),
        netrc=("api.heroku.com", email()),
    )


@sgen(15)
def g_flyio() -> Item:
    if chance(0.5):
        v = "fo1_" + rs(B64URL, 43)
        return single(
            "flyio",
            "flyio_token",
            v,
            ["FLY_API_TOKEN", "FLY_ACCESS_TOKEN"],
            "Fly.io token",
            http=("Authorization", "Bearer ", "https://api.machines.dev/v1/apps"),
        )
    v = "fm2_lJPE" + b64(rbytes(R.randint(150, 260)))
    fr = cat("FlyV1 ", S("flyio_token", v))
    return Item(
        "flyio",
        [
            Entry(
                nm(["FLY_API_TOKEN", "FLY_DEPLOY_TOKEN"]),
                fr,
                "Fly.io deploy token",
                http=("Authorization", "", "https://api.machines.dev/v1/apps/" + proj() + "/machines"),
            )
        ],
    )


@sgen(15)
def g_vercel() -> Item:
    v = "vcp_" + rs(ALNUM, 56) if chance(0.5) else rs(ALNUM, 24)
    it = single(
        "vercel",
        "vercel_token",
        v,
        ["VERCEL_TOKEN", "VERCEL_API_TOKEN", "NOW_TOKEN"],
        "Vercel token",
        weak=not v.startswith("vcp_"),
        http=("Authorization", "Bearer ", "https://api.vercel.com/v9/projects"),
    )
    it.cli = [
        cat("npx vercel deploy --prod --yes --token ", S("vercel_token", v)),
        cat("vercel pull --yes --environment=production --token=", S("vercel_token", v)),
    ]
    return it


@sgen(15)
def g_netlify() -> Item:
    v = "nfp_" + rs(ALNUM, 40)
    it = single(
        "netlify",
        "netlify_token",
        v,
        ["NETLIFY_AUTH_TOKEN", "NETLIFY_TOKEN"],
        "Netlify access token",
        http=("Authorization", "Bearer ", "https://api.netlify.com/api/v1/sites"),
    )
    it.cli = [
        cat("netlify deploy --prod --dir=dist --auth ", S("netlify_token", v)),
        cat("netlify env:list --auth=", S("netlify_token", v)),
    ]
    return it


@sgen(15)
def g_supabase() -> Item:
    if chance(0.5):
        v = "sb_secret_" + rs(B64URL, 22) + "_" + rs(ALNUM, 8)
        return single(
            "supabase",
            "supabase_secret_key",
            v,
            ["SUPABASE_SECRET_KEY", "SUPABASE_SERVICE_KEY"],
            "Supabase secret key",
            http=("apikey", "", f"https://{rs(LOWER, 20)}.supabase.co/rest/v1/profiles?select=*"),
        )
    v = "sbp_" + rhex(40)
    it = single(
        "supabase",
        "supabase_secret_key",
        v,
        ["SUPABASE_ACCESS_TOKEN"],
        "Supabase access token",
        http=("Authorization", "Bearer ", "https://api.supabase.com/v1/projects"),
    )
    it.cli = [cat("supabase login --token ", S("supabase_secret_key", v))]
    return it


@sgen(15)
def g_render() -> Item:
    return single(
        "render",
        "render_api_key",
        "rnd_" + rs(ALNUM, 32),
        ["RENDER_API_KEY", "RENDER_TOKEN"],
        "Render API key",
        http=("Authorization", "Bearer ", "https://api.render.com/v1/services?limit=20"),
    )


# ---------------- VCS / CI ----------------

GH_NAMES = [
    "GITHUB_TOKEN",
    "GH_TOKEN",
    "GITHUB_PAT",
    "GH_PAT",
    "HOMEBREW_GITHUB_API_TOKEN",
    "GITHUB_API_TOKEN",
    "RELEASE_TOKEN",
]


def github_item(gen: str, kind: str, v: str, desc: str) -> Item:
    u = pk(USERS)
    it = single(
        gen,
        kind,
        v,
        GH_NAMES,
        desc,
        http=(
            "Authorization",
            pk(["token ", "Bearer "]),
            f"https://api.github.com/repos/{proj()}/{proj()}/actions/runs",
        ),
        netrc=("github.com", u),
        npmrc="//npm.pkg.github.com/",
    )
    it.cli = [
        cat("git clone https://x-access-token:", S(kind, v), f"@github.com/{proj()}/{proj()}.git"),
        cat("echo ", S(kind, v), " | gh auth login --with-token"),
        cat("echo ", S(kind, v), f" | docker login ghcr.io -u {u} --password-stdin"),
    ]
    return it


@sgen(15)
def g_github_classic() -> Item:
    return github_item("github_classic", "github_pat_classic", crc_token("ghp_"), "GitHub classic PAT")


@sgen(15)
def g_github_oauth() -> Item:
    return github_item("github_oauth", "github_oauth_token", crc_token("gho_"), "GitHub OAuth token")


@sgen(15)
def g_github_app() -> Item:
    return github_item("github_app", "github_app_token", crc_token(pk(["ghs_", "ghu_", "ghs_"])), "GitHub App token")


@sgen(15)
def g_github_refresh() -> Item:
    return github_item("github_refresh", "github_refresh_token", crc_token("ghr_"), "GitHub refresh token")


@sgen(15)
def g_github_fine_grained() -> Item:
    v = "github_pat_11" + rs(UPNUM, 20) + "_" + rs(ALNUM, 59)
    return github_item("github_fine_grained", "github_fine_grained_pat", v, "GitHub fine-grained PAT")


@sgen(15)
def g_gitlab() -> Item:
    pre = pk(["glpat-", "glpat-", "gldt-", "glrt-", "glptt-"])
    v = pre + (rhex(40) if pre == "glptt-" else rs(ALNUM + "_-", 20))
    it = single(
        "gitlab",
        "gitlab_token",
        v,
        ["GITLAB_TOKEN", "GL_TOKEN", "GITLAB_PRIVATE_TOKEN", "GITLAB_API_TOKEN", "DANGER_GITLAB_API_TOKEN"],
        "GitLab token",
        http=("PRIVATE-TOKEN", "", f"https://gitlab.com/api/v4/projects/{rdig(8)}/pipelines"),
        netrc=("gitlab.com", pk(["oauth2", pk(USERS)])),
        npmrc=f"//gitlab.com/api/v4/projects/{rdig(8)}/packages/npm/",
    )
    if pre == "glrt-":
        it.cli = [
            cat(
                "gitlab-runner register --non-interactive --url https://gitlab.com --token ",
                S("gitlab_token", v),
                " --executor docker",
            )
        ]
    elif pre == "glptt-":
        it.cli = [
            cat(
                "curl -X POST --fail -F token=",
                S("gitlab_token", v),
                f" -F ref=main https://gitlab.com/api/v4/projects/{rdig(8)}/trigger/pipeline",
            )
        ]
    else:
        it.cli = [cat("git clone https://oauth2:", S("gitlab_token", v), f"@gitlab.com/{proj()}/{proj()}.git")]
    return it


@sgen(15)
def g_bitbucket() -> Item:
    v = "ATBB" + rs(ALNUM, 32)
    u = pk(USERS)
    it = single(
        "bitbucket",
        "bitbucket_app_password",
        v,
        ["BITBUCKET_APP_PASSWORD", "BB_APP_PASSWORD", "BITBUCKET_PASSWORD"],
        "Bitbucket app password",
        netrc=("bitbucket.org", u),
        basic_user=u,
    )
    it.cli = [cat(f"git clone https://{u}:", S("bitbucket_app_password", v), f"@bitbucket.org/{proj()}/{proj()}.git")]
    return it


@sgen(15)
def g_atlassian() -> Item:
    pre = pk(["ATATT3xFfGF0", "ATATT3xFfGF0", "ATCTT3xFfGN0"])
    v = pre + rs(B64URL, R.randint(168, 172)) + "=" + rhex(8).upper()
    return single(
        "atlassian",
        "atlassian_api_token",
        v,
        ["JIRA_API_TOKEN", "ATLASSIAN_API_TOKEN", "CONFLUENCE_API_TOKEN", "JIRA_TOKEN"],
        "Atlassian API token",
        basic_user=email(),
        netrc=(f"{proj()}.atlassian.net", email()),
    )


@sgen(15)
def g_circleci() -> Item:
    v = "CCIPAT_" + rs(B58, 22) + "_" + rhex(40) if chance(0.6) else rhex(40)
    return single(
        "circleci",
        "circleci_token",
        v,
        ["CIRCLECI_TOKEN", "CIRCLE_TOKEN", "CIRCLECI_API_TOKEN"],
        "CircleCI token",
        weak=len(v) == 40,
        http=("Circle-Token", "", "https://circleci.com/api/v2/me"),
    )


@sgen(15)
def g_jenkins() -> Item:
    v = "11" + rhex(32)
    u = pk(["admin", "ci-bot", "deploy", pk(USERS)])
    it = single(
        "jenkins",
        "jenkins_api_token",
        v,
        ["JENKINS_API_TOKEN", "JENKINS_TOKEN", "JENKINS_USER_TOKEN"],
        "Jenkins API token",
        weak=True,
        basic_user=u,
    )
    it.cli = [
        cat(
            f"curl -X POST -u {u}:",
            S("jenkins_api_token", v),
            f" https://jenkins.{dom()}/job/{proj()}/buildWithParameters?BRANCH=main",
        )
    ]
    return it


@sgen(15)
def g_buildkite() -> Item:
    return single(
        "buildkite",
        "buildkite_token",
        "bkua_" + rhex(40),
        ["BUILDKITE_API_TOKEN", "BUILDKITE_TOKEN", "BK_TOKEN"],
        "Buildkite API token",
        http=("Authorization", "Bearer ", f"https://api.buildkite.com/v2/organizations/{proj()}/pipelines"),
    )


@sgen(15)
def g_terraform_cloud() -> Item:
    v = rs(ALNUM, 14) + ".atlasv1." + rs(ALNUM + "-_", 67)
    it = single(
        "terraform_cloud",
        "terraform_cloud_token",
        v,
        ["TF_API_TOKEN", "TFE_TOKEN", "ATLAS_TOKEN", "TF_CLOUD_TOKEN"],
        "Terraform Cloud token",
        http=("Authorization", "Bearer ", "https://app.terraform.io/api/v2/account/details"),
    )
    it.forms["json"] = cat(
        '{\n  "credentials": {\n    "app.terraform.io": {\n      "token": "',
        S("terraform_cloud_token", v),
        '"\n    }\n  }\n}',
    )
    return it


@sgen(15)
def g_vault() -> Item:
    r_ = R.random()
    if r_ < 0.4:
        v = "hvs." + rs(ALNUM, 24)
    elif r_ < 0.7:
        v = "hvs.CAESI" + rs(B64URL, 43) + "Gh4KHGh2cy5" + rs(ALNUM, 28)
    elif r_ < 0.85:
        v = "hvb.AAAAAQ" + rs(B64URL, 120)
    else:
        v = "s." + rs(ALNUM, 24)
    it = single(
        "vault",
        "vault_token",
        v,
        ["VAULT_TOKEN", "VAULT_ROOT_TOKEN", "VAULT_DEV_ROOT_TOKEN_ID"],
        "Vault token",
        http=("X-Vault-Token", "", f"https://vault.{dom()}:8200/v1/secret/data/{proj()}"),
    )
    it.cli = [
        cat("vault login ", S("vault_token", v)),
        cat(
            "VAULT_ADDR=https://vault.",
            dom(),
            ":8200 VAULT_TOKEN=",
            S("vault_token", v),
            f" vault kv get secret/{proj()}",
        ),
    ]
    return it


@sgen(15)
def g_doppler() -> Item:
    v = "dp.pt." + rs(ALNUM, 43) if chance(0.6) else "dp.st." + pk(["prd", "dev", "stg"]) + "." + rs(ALNUM, 40)
    it = single(
        "doppler",
        "doppler_token",
        v,
        ["DOPPLER_TOKEN", "DOPPLER_SERVICE_TOKEN"],
        "Doppler token",
        http=("Authorization", "Bearer ", "https://api.doppler.com/v3/configs/config/secrets/download?format=json"),
    )
    it.cli = [cat("doppler configure set token ", S("doppler_token", v), " --scope /srv/app")]
    return it


@sgen(15)
def g_pulumi() -> Item:
    v = "pul-" + rhex(40)
    it = single(
        "pulumi",
        "pulumi_access_token",
        v,
        ["PULUMI_ACCESS_TOKEN", "PULUMI_TOKEN"],
        "Pulumi access token",
        http=("Authorization", "token ", "https://api.pulumi.com/api/user"),
    )
    it.cli = [cat("PULUMI_ACCESS_TOKEN=", S("pulumi_access_token", v), " pulumi up --yes --stack prod")]
    return it


# ---------------- payments ----------------


@sgen(15)
def g_stripe_secret() -> Item:
    v = "sk_live_" + (rs(ALNUM, 24) if chance(0.35) else "51" + rs(ALNUM, 97))
    it = single(
        "stripe_secret",
        "stripe_secret_key",
        v,
        ["STRIPE_SECRET_KEY", "STRIPE_API_KEY", "STRIPE_SK", "STRIPE_KEY"],
        "Stripe live secret key",
        http=("Authorization", "Bearer ", "https://api.stripe.com/v1/charges"),
        basic_user=None,
    )
    it.cli = [cat("curl https://api.stripe.com/v1/customers -u ", S("stripe_secret_key", v), ": -d email=" + email())]
    return it


@sgen(15)
def g_stripe_restricted() -> Item:
    v = "rk_live_" + (rs(ALNUM, 24) if chance(0.35) else "51" + rs(ALNUM, 97))
    return single(
        "stripe_restricted",
        "stripe_restricted_key",
        v,
        ["STRIPE_RESTRICTED_KEY", "STRIPE_RK", "STRIPE_READONLY_KEY"],
        "Stripe restricted key",
        http=("Authorization", "Bearer ", "https://api.stripe.com/v1/balance"),
    )


@sgen(15)
def g_stripe_webhook() -> Item:
    v = "whsec_" + rs(ALNUM, 32)
    it = single(
        "stripe_webhook",
        "stripe_webhook_secret",
        v,
        ["STRIPE_WEBHOOK_SECRET", "STRIPE_ENDPOINT_SECRET", "WEBHOOK_SIGNING_SECRET"],
        "Stripe webhook signing secret",
    )
    it.forms["log"] = cat(
        "> Ready! You are using Stripe API Version [2024-06-20]. Your webhook signing secret is ",
        S("stripe_webhook_secret", v),
        " (^C to quit)",
    )
    return it


@sgen(15)
def g_square() -> Item:
    v = "EAAA" + rs(B64URL, 60) if chance(0.7) else "sq0atp-" + rs(B64URL, 22)
    return single(
        "square",
        "square_access_token",
        v,
        ["SQUARE_ACCESS_TOKEN", "SQUARE_TOKEN"],
        "Square access token",
        http=("Authorization", "Bearer ", "https://connect.squareup.com/v2/locations"),
    )


@sgen(15)
def g_paypal() -> Item:
    cid, sec = "A" + rs(B64URL, 79), "E" + rs(B64URL, 79)
    it = Item(
        "paypal",
        [
            Entry("PAYPAL_CLIENT_ID", L("oauth_client_id", cid), "PayPal client id"),
            Entry(
                nm(["PAYPAL_CLIENT_SECRET", "PAYPAL_SECRET"]), S("paypal_client_secret", sec), "PayPal client secret"
            ),
        ],
    )
    it.forms["curl"] = cat(
        'curl -v https://api-m.paypal.com/v1/oauth2/token \\\n  -u "',
        L("oauth_client_id", cid),
        ":",
        S("paypal_client_secret", sec),
        '" \\\n  -d "grant_type=client_credentials"',
    )
    return it


@sgen(15)
def g_adyen() -> Item:
    v = "AQE" + rs(ALNUM + "+/", 77) + "==-" + b64(rbytes(32)) + "-" + rs(ALNUM + "%;:<>[]()", 16)
    return single(
        "adyen",
        "adyen_api_key",
        v,
        ["ADYEN_API_KEY", "ADYEN_KEY"],
        "Adyen API key",
        http=("X-API-Key", "", "https://checkout-test.adyen.com/v71/payments"),
    )


@sgen(15)
def g_braintree() -> Item:
    if chance(0.5):
        v = "access_token$production$" + rs(LOWNUM, 16) + "$" + rhex(32)
        return single(
            "braintree", "braintree_secret", v, ["BRAINTREE_ACCESS_TOKEN", "BT_ACCESS_TOKEN"], "Braintree access token"
        )
    return Item(
        "braintree",
        [
            Entry("BRAINTREE_MERCHANT_ID", L("account_identifier", rs(LOWNUM, 16)), "merchant id"),
            Entry("BRAINTREE_PUBLIC_KEY", L("account_identifier", rs(LOWNUM, 16)), "public key id"),
            Entry("BRAINTREE_PRIVATE_KEY", S("braintree_secret", rhex(32)), "Braintree private key"),
        ],
    )


@sgen(15)
def g_razorpay() -> Item:
    kid, sec = "rzp_live_" + rs(ALNUM, 14), rs(ALNUM, 24)
    it = Item(
        "razorpay",
        [
            Entry("RAZORPAY_KEY_ID", L("razorpay_key_id", kid), "Razorpay key id"),
            Entry(
                nm(["RAZORPAY_KEY_SECRET", "RAZORPAY_SECRET"], weak=True),
                S("razorpay_key_secret", sec),
                "Razorpay key secret",
            ),
        ],
    )
    it.forms["curl"] = cat(
        "curl -u ",
        L("razorpay_key_id", kid),
        ":",
        S("razorpay_key_secret", sec),
        ' -X POST https://api.razorpay.com/v1/orders -H \'content-type: application/json\' -d \'{"amount":50000,"currency":"INR"}\'',
    )
    return it


@sgen(15)
def g_shopify_token() -> Item:
    v = pk(["shpat_", "shpat_", "shpca_", "shppa_"]) + rhex(32)
    return single(
        "shopify_token",
        "shopify_access_token",
        v,
        ["SHOPIFY_ACCESS_TOKEN", "SHOPIFY_ADMIN_API_ACCESS_TOKEN", "SHOPIFY_TOKEN"],
        "Shopify Admin API token",
        http=("X-Shopify-Access-Token", "", f"https://{proj()}-store.myshopify.com/admin/api/2024-10/shop.json"),
    )


@sgen(15)
def g_shopify_secret() -> Item:
    return single(
        "shopify_secret",
        "shopify_shared_secret",
        "shpss_" + rhex(32),
        ["SHOPIFY_API_SECRET", "SHOPIFY_SHARED_SECRET", "SHOPIFY_CLIENT_SECRET"],
        "Shopify app shared secret",
    )


# ---------------- messaging ----------------


@sgen(15)
def g_slack_bot() -> Item:
    v = f"xoxb-{rdig(R.randint(10, 13))}-{rdig(R.randint(10, 13))}-{rs(ALNUM, 24)}"
    return single(
        "slack_bot",
        "slack_bot_token",
        v,
        ["SLACK_BOT_TOKEN", "SLACK_TOKEN", "SLACK_API_TOKEN"],
        "Slack bot token",
        http=("Authorization", "Bearer ", "https://slack.com/api/chat.postMessage"),
    )


@sgen(15)
def g_slack_user() -> Item:
    v = f"xoxp-{rdig(12)}-{rdig(12)}-{rdig(13)}-{rhex(32)}"
    return single(
        "slack_user",
        "slack_user_token",
        v,
        ["SLACK_USER_TOKEN", "SLACK_OAUTH_TOKEN", "SLACK_TOKEN"],
        "Slack user token",
        http=("Authorization", "Bearer ", "https://slack.com/api/conversations.history?channel=C0" + rs(UPNUM, 9)),
    )


@sgen(15)
def g_slack_app() -> Item:
    v = f"xapp-1-A{rs(UPNUM, 10)}-{rdig(13)}-{rhex(64)}"
    return single(
        "slack_app",
        "slack_app_token",
        v,
        ["SLACK_APP_TOKEN", "SOCKET_MODE_TOKEN"],
        "Slack app-level token",
        http=("Authorization", "Bearer ", "https://slack.com/api/apps.connections.open"),
    )


@sgen(15)
def g_slack_webhook() -> Item:
    v = f"https://hooks.slack.com/services/T{rs(UPNUM, R.randint(8, 10))}/B{rs(UPNUM, R.randint(8, 10))}/{rs(ALNUM, 24)}"
    return single(
        "slack_webhook",
        "slack_webhook_url",
        v,
        ["SLACK_WEBHOOK_URL", "SLACK_WEBHOOK", "ALERTS_WEBHOOK"],
        "Slack webhook",
        post=True,
    )


@sgen(15)
def g_discord_bot() -> Item:
    v = b64(rdig(R.randint(17, 19)).encode()).rstrip("=") + "." + rs(B64URL, 6) + "." + rs(B64URL, 38)
    return single(
        "discord_bot",
        "discord_bot_token",
        v,
        ["DISCORD_TOKEN", "DISCORD_BOT_TOKEN", "BOT_TOKEN"],
        "Discord bot token",
        http=("Authorization", "Bot ", "https://discord.com/api/v10/users/@me"),
    )


@sgen(15)
def g_discord_webhook() -> Item:
    v = f"https://{pk(['discord.com', 'discord.com', 'discordapp.com'])}/api/webhooks/{rdig(R.randint(18, 19))}/{rs(B64URL, 68)}"
    return single(
        "discord_webhook",
        "discord_webhook_url",
        v,
        ["DISCORD_WEBHOOK_URL", "DISCORD_WEBHOOK"],
        "Discord webhook",
        post=True,
    )


@sgen(15)
def g_telegram() -> Item:
    v = f"{R.randint(10**8, 8 * 10**9)}:AA{rs(B64URL, 33)}"
    it = single(
        "telegram",
        "telegram_bot_token",
        v,
        ["TELEGRAM_BOT_TOKEN", "TG_BOT_TOKEN", "TELEGRAM_TOKEN"],
        "Telegram bot token",
    )
    it.cli = [
        cat(
            "curl -s https://api.telegram.org/bot",
            S("telegram_bot_token", v),
            f"/sendMessage -d chat_id=-100{rdig(10)} -d text=deployed",
        )
    ]
    return it


@sgen(15)
def g_twilio() -> Item:
    sid, tok = "AC" + rhex(32), rhex(32)
    it = Item(
        "twilio",
        [
            Entry("TWILIO_ACCOUNT_SID", L("account_identifier", sid), "Twilio account SID"),
            Entry("TWILIO_AUTH_TOKEN", S("twilio_auth_token", tok), "Twilio auth token"),
        ],
    )
    it.forms["curl"] = cat(
        f'curl -X POST https://api.twilio.com/2010-04-01/Accounts/{sid}/Messages.json \\\n  --data-urlencode "Body=Your code is 481516" \\\n  -u ',
        L("account_identifier", sid),
        ":",
        S("twilio_auth_token", tok),
    )
    return it


@sgen(15)
def g_twilio_api_key() -> Item:
    sk, sec = "SK" + rhex(32), rs(ALNUM, 32)
    return Item(
        "twilio_api_key",
        [
            Entry("TWILIO_API_KEY", L("account_identifier", sk), "Twilio API key SID"),
            Entry(
                nm(["TWILIO_API_SECRET", "TWILIO_API_KEY_SECRET"], weak=True),
                S("twilio_api_key_secret", sec),
                "Twilio API key secret",
            ),
        ],
    )


@sgen(15)
def g_sendgrid() -> Item:
    return single(
        "sendgrid",
        "sendgrid_api_key",
        "SG." + rs(B64URL, 22) + "." + rs(B64URL, 43),
        ["SENDGRID_API_KEY", "SENDGRID_KEY", "SMTP_PASSWORD", "EMAIL_API_KEY"],
        "SendGrid API key",
        http=("Authorization", "Bearer ", "https://api.sendgrid.com/v3/mail/send"),
    )


@sgen(15)
def g_mailgun() -> Item:
    v = "key-" + rhex(32) if chance(0.5) else rhex(32) + "-" + rhex(8) + "-" + rhex(8)
    return single(
        "mailgun",
        "mailgun_api_key",
        v,
        ["MAILGUN_API_KEY", "MAILGUN_KEY", "MG_API_KEY"],
        "Mailgun API key",
        weak=not v.startswith("key-"),
        basic_user="api",
    )


@sgen(15)
def g_mailchimp() -> Item:
    dc = f"us{R.randint(1, 21)}"
    return single(
        "mailchimp",
        "mailchimp_api_key",
        rhex(32) + "-" + dc,
        ["MAILCHIMP_API_KEY", "MAILCHIMP_KEY", "MC_API_KEY"],
        "Mailchimp API key",
        http=("Authorization", "Bearer ", f"https://{dc}.api.mailchimp.com/3.0/ping"),
    )


@sgen(15)
def g_postmark() -> Item:
    return single(
        "postmark",
        "postmark_server_token",
        uuid4(),
        ["POSTMARK_SERVER_TOKEN", "POSTMARK_API_TOKEN", "POSTMARK_TOKEN"],
        "Postmark server token",
        weak=True,
        http=("X-Postmark-Server-Token", "", "https://api.postmarkapp.com/email"),
    )


@sgen(15)
def g_msteams_webhook() -> Item:
    if chance(0.6):
        v = (
            f"https://{proj().replace('-', '')}.webhook.office.com/webhookb2/{uuid4()}@{uuid4()}/IncomingWebhook/"
            f"{rhex(32)}/{uuid4()}" + pk(["", "/V2" + rs(B64URL, 43)])
        )
    else:
        v = (
            f"https://prod-{R.randint(10, 99)}.{pk(['westeurope', 'northeurope', 'eastus'])}.logic.azure.com:443/workflows/{rhex(32)}"
            f"/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig={rs(B64URL, 43)}"
        )
    return single(
        "msteams_webhook",
        "msteams_webhook_url",
        v,
        ["TEAMS_WEBHOOK_URL", "MSTEAMS_WEBHOOK", "TEAMS_ALERTS_URL"],
        "Teams webhook",
        post=True,
    )


# ---------------- AI ----------------


@sgen(15)
def g_openai() -> Item:
    r_ = R.random()
    if r_ < 0.55:
        n = pk([74, 58])
        v = "sk-proj-" + rs(B64URL, n) + "T3BlbkFJ" + rs(B64URL, n)
    elif r_ < 0.75:
        v = pk(["sk-svcacct-", "sk-admin-"]) + rs(B64URL, 74) + "T3BlbkFJ" + rs(B64URL, 74)
    else:
        v = "sk-" + rs(ALNUM, 20) + "T3BlbkFJ" + rs(ALNUM, 20)
    return single(
        "openai",
        "openai_api_key",
        v,
        ["OPENAI_API_KEY", "OPENAI_KEY", "LLM_API_KEY"],
        "OpenAI API key",
        http=("Authorization", "Bearer ", "https://api.openai.com/v1/chat/completions"),
    )


@sgen(15)
def g_anthropic() -> Item:
    v = pk(["sk-ant-api03-", "sk-ant-api03-", "sk-ant-admin01-"]) + rs(B64URL, 93) + "AA"
    return single(
        "anthropic",
        "anthropic_api_key",
        v,
        ["ANTHROPIC_API_KEY", "CLAUDE_API_KEY", "ANTHROPIC_KEY"],
        "Anthropic API key",
        http=("x-api-key", "", "https://api.anthropic.com/v1/messages"),
    )


@sgen(15)
def g_huggingface() -> Item:
    v = "hf_" + rs(UPPER + LOWER, 34)
    it = single(
        "huggingface",
        "huggingface_token",
        v,
        ["HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "HUGGINGFACEHUB_API_TOKEN"],
        "Hugging Face token",
        http=("Authorization", "Bearer ", "https://huggingface.co/api/whoami-v2"),
    )
    it.cli = [cat("huggingface-cli login --token ", S("huggingface_token", v), " --add-to-git-credential")]
    return it


@sgen(15)
def g_cohere() -> Item:
    return single(
        "cohere",
        "cohere_api_key",
        rs(ALNUM, 40),
        ["COHERE_API_KEY", "CO_API_KEY"],
        "Cohere API key",
        weak=True,
        http=("Authorization", "Bearer ", "https://api.cohere.com/v2/chat"),
    )


@sgen(15)
def g_replicate() -> Item:
    return single(
        "replicate",
        "replicate_api_token",
        "r8_" + rs(ALNUM, 37),
        ["REPLICATE_API_TOKEN", "REPLICATE_TOKEN"],
        "Replicate token",
        http=("Authorization", "Bearer ", "https://api.replicate.com/v1/predictions"),
    )


@sgen(15)
def g_groq() -> Item:
    return single(
        "groq",
        "groq_api_key",
        "gsk_" + rs(ALNUM, 52),
        ["GROQ_API_KEY"],
        "Groq API key",
        http=("Authorization", "Bearer ", "https://api.groq.com/openai/v1/chat/completions"),
    )


@sgen(15)
def g_mistral() -> Item:
    return single(
        "mistral",
        "mistral_api_key",
        rs(ALNUM, 32),
        ["MISTRAL_API_KEY", "MISTRAL_KEY"],
        "Mistral API key",
        weak=True,
        http=("Authorization", "Bearer ", "https://api.mistral.ai/v1/chat/completions"),
    )


@sgen(15)
def g_perplexity() -> Item:
    return single(
        "perplexity",
        "perplexity_api_key",
        "pplx-" + rs(ALNUM, 48),
        ["PERPLEXITY_API_KEY", "PPLX_API_KEY"],
        "Perplexity API key",
        http=("Authorization", "Bearer ", "https://api.perplexity.ai/chat/completions"),
    )


@sgen(15)
def g_xai() -> Item:
    return single(
        "xai",
        "xai_api_key",
        "xai-" + rs(ALNUM, 80),
        ["XAI_API_KEY", "GROK_API_KEY"],
        "xAI API key",
        http=("Authorization", "Bearer ", "https://api.x.ai/v1/chat/completions"),
    )


# ---------------- observability ----------------


@sgen(15)
def g_datadog_api() -> Item:
    return single(
        "datadog_api",
        "datadog_api_key",
        rhex(32),
        ["DD_API_KEY", "DATADOG_API_KEY"],
        "Datadog API key",
        weak=True,
        http=("DD-API-KEY", "", "https://api.datadoghq.eu/api/v1/validate"),
    )


@sgen(15)
def g_datadog_app() -> Item:
    return single(
        "datadog_app",
        "datadog_app_key",
        rhex(40),
        ["DD_APP_KEY", "DATADOG_APP_KEY", "DD_APPLICATION_KEY"],
        "Datadog application key",
        weak=True,
        http=("DD-APPLICATION-KEY", "", "https://api.datadoghq.com/api/v1/monitor"),
    )


@sgen(15)
def g_newrelic_license() -> Item:
    return single(
        "newrelic_license",
        "newrelic_license_key",
        rhex(36) + "NRAL",
        ["NEW_RELIC_LICENSE_KEY", "NR_LICENSE_KEY", "NEWRELIC_KEY"],
        "New Relic license key",
    )


@sgen(15)
def g_newrelic_user() -> Item:
    return single(
        "newrelic_user",
        "newrelic_user_api_key",
        "NRAK-" + rs(UPNUM, 27),
        ["NEW_RELIC_API_KEY", "NEW_RELIC_USER_KEY", "NR_API_KEY"],
        "New Relic user key",
        http=("API-Key", "", "https://api.newrelic.com/graphql"),
    )


@sgen(15)
def g_sentry_token() -> Item:
    if chance(0.55):
        claims = {
            "iat": R.randint(1700000000, 1760000000) + 0.5,
            "url": "https://sentry.io",
            "region_url": "https://us.sentry.io",
            "org": proj(),
        }
        v = "sntrys_" + b64(cjson(claims).encode()).rstrip("=") + "_" + rs(ALNUM + "+/", 43)
    else:
        v = "sntryu_" + rhex(64)
    it = single(
        "sentry_token",
        "sentry_auth_token",
        v,
        ["SENTRY_AUTH_TOKEN", "SENTRY_TOKEN"],
        "Sentry auth token",
        http=("Authorization", "Bearer ", f"https://sentry.io/api/0/organizations/{proj()}/releases/"),
    )
    it.cli = [
        cat(
            "sentry-cli --auth-token ",
            S("sentry_auth_token", v),
            f" releases new {R.randint(1, 9)}.{R.randint(0, 20)}.{R.randint(0, 9)}",
        )
    ]
    return it


@sgen(15)
def g_sentry_dsn_secret() -> Item:
    host = pk(["sentry.io", f"o{rdig(6)}.ingest.sentry.io", f"sentry.{dom()}"])
    fr = cat(f"https://{rhex(32)}:", S("sentry_dsn_secret", rhex(32)), f"@{host}/{rdig(R.choice([2, 6, 7]))}")
    return Item(
        "sentry_dsn_secret",
        [Entry(nm(["SENTRY_DSN", "RAVEN_DSN", "SENTRY_SERVER_DSN"]), fr, "Sentry DSN (legacy, with secret)")],
    )


@sgen(15)
def g_grafana() -> Item:
    if chance(0.55):
        v = "glsa_" + rs(ALNUM, 32) + "_" + rhex(8)
    else:
        v = "glc_" + b64(
            cjson(
                {
                    "o": rdig(6),
                    "n": f"stack-{rdig(6)}-integration-{pk(['logs', 'metrics', 'alloy'])}",
                    "k": rs(ALNUM, 24),
                    "m": {"r": pk(["prod-eu-west-2", "prod-us-central-0"])},
                }
            ).encode()
        )
    return single(
        "grafana",
        "grafana_token",
        v,
        ["GRAFANA_TOKEN", "GRAFANA_SERVICE_ACCOUNT_TOKEN", "GRAFANA_CLOUD_API_KEY", "GCLOUD_RW_API_KEY"],
        "Grafana token",
        http=("Authorization", "Bearer ", f"https://{proj()}.grafana.net/api/search?query=latency"),
    )


@sgen(15)
def g_honeycomb() -> Item:
    v = "hc" + pk(["a", "x", "b"]) + "ik_" + rs(LOWNUM, 26) + rs(LOWNUM, 32) if chance(0.6) else rhex(32)
    return single(
        "honeycomb",
        "honeycomb_api_key",
        v,
        ["HONEYCOMB_API_KEY", "HONEYCOMB_WRITEKEY", "OTEL_HONEYCOMB_KEY"],
        "Honeycomb key",
        weak=len(v) == 32,
        http=("X-Honeycomb-Team", "", "https://api.honeycomb.io/1/auth"),
    )


@sgen(15)
def g_pagerduty() -> Item:
    if chance(0.6):
        v = pk(["u+", "y_", ""]) + rs(ALNUM + "_-", 18)
        return single(
            "pagerduty",
            "pagerduty_key",
            v,
            ["PAGERDUTY_API_TOKEN", "PD_API_KEY", "PAGERDUTY_TOKEN"],
            "PagerDuty API key",
            weak=True,
            http=("Authorization", "Token token=", "https://api.pagerduty.com/incidents?statuses[]=triggered"),
        )
    return single(
        "pagerduty",
        "pagerduty_key",
        rhex(32),
        ["PAGERDUTY_ROUTING_KEY", "PD_INTEGRATION_KEY", "PAGERDUTY_SERVICE_KEY"],
        "PagerDuty routing key",
        weak=True,
    )


@sgen(15)
def g_splunk() -> Item:
    return single(
        "splunk",
        "splunk_hec_token",
        uuid4().upper() if chance(0.3) else uuid4(),
        ["SPLUNK_HEC_TOKEN", "SPLUNK_TOKEN", "HEC_TOKEN"],
        "Splunk HEC token",
        weak=True,
        http=("Authorization", "Splunk ", f"https://splunk.{dom()}:8088/services/collector/event"),
    )


@sgen(15)
def g_okta() -> Item:
    return single(
        "okta",
        "okta_api_token",
        "00" + rs(B64URL, 40),
        ["OKTA_API_TOKEN", "OKTA_TOKEN", "OKTA_CLIENT_TOKEN"],
        "Okta API token",
        http=("Authorization", "SSWS ", f"https://{proj()}.okta.com/api/v1/users?limit=25"),
    )


# ---------------- registries ----------------


@sgen(15)
def g_npm() -> Item:
    v = crc_token("npm_")
    it = single(
        "npm",
        "npm_token",
        v,
        ["NPM_TOKEN", "NODE_AUTH_TOKEN", "NPM_AUTH_TOKEN"],
        "npm token",
        http=("Authorization", "Bearer ", "https://registry.npmjs.org/-/whoami"),
        npmrc="//registry.npmjs.org/",
    )
    it.cli = [cat("npm config set //registry.npmjs.org/:_authToken ", S("npm_token", v))]
    return it


@sgen(15)
def g_pypi() -> Item:
    v = pypi_token()
    it = single(
        "pypi", "pypi_token", v, ["PYPI_TOKEN", "TWINE_PASSWORD", "PYPI_API_TOKEN", "UV_PUBLISH_TOKEN"], "PyPI token"
    )
    it.forms["ini"] = cat(
        "[distutils]\nindex-servers = pypi\n\n[pypi]\nusername = __token__\npassword = ", S("pypi_token", v)
    )
    it.cli = [
        cat("twine upload -u __token__ -p ", S("pypi_token", v), " dist/*"),
        cat("uv publish --token ", S("pypi_token", v)),
    ]
    return it


@sgen(15)
def g_rubygems() -> Item:
    v = "rubygems_" + rhex(48)
    it = single(
        "rubygems",
        "rubygems_api_key",
        v,
        ["GEM_HOST_API_KEY", "RUBYGEMS_API_KEY"],
        "RubyGems API key",
        http=("Authorization", "", "https://rubygems.org/api/v1/gems"),
    )
    it.forms["yaml"] = cat("---\n:rubygems_api_key: ", S("rubygems_api_key", v))
    return it


@sgen(15)
def g_nuget() -> Item:
    v = "oy2" + rs(LOWNUM, 43)
    it = single(
        "nuget",
        "nuget_api_key",
        v,
        ["NUGET_API_KEY", "NUGET_KEY"],
        "NuGet API key",
        http=("X-NuGet-ApiKey", "", "https://www.nuget.org/api/v2/package"),
    )
    it.cli = [
        cat(
            "dotnet nuget push bin/Release/*.nupkg --api-key ",
            S("nuget_api_key", v),
            " --source https://api.nuget.org/v3/index.json",
        )
    ]
    return it


@sgen(15)
def g_dockerhub() -> Item:
    v = pk(["dckr_pat_", "dckr_pat_", "dckr_oat_"]) + rs(B64URL, 27)
    u = pk(USERS)
    it = single(
        "dockerhub",
        "dockerhub_pat",
        v,
        ["DOCKERHUB_TOKEN", "DOCKER_PASSWORD", "DOCKERHUB_PAT", "REGISTRY_PASSWORD"],
        "Docker Hub token",
        netrc=("index.docker.io", u),
    )
    it.cli = [
        cat("echo ", S("dockerhub_pat", v), f" | docker login -u {u} --password-stdin"),
        cat(f"docker login -u {u} -p ", S("dockerhub_pat", v)),
    ]
    return it


@sgen(15)
def g_jfrog() -> Item:
    host = f"{proj()}.jfrog.io"
    if chance(0.6):
        v = b64(f"reftkn:01:{R.randint(1700000000, 1900000000)}:{rs(ALNUM, 31)}".encode())
        hdr = ("Authorization", "Bearer ", f"https://{host}/artifactory/api/repositories")
    else:
        v = "AKCp" + rs(ALNUM, 69)
        hdr = ("X-JFrog-Art-Api", "", f"https://{host}/artifactory/api/storage/libs-release")
    return single(
        "jfrog",
        "jfrog_token",
        v,
        ["ARTIFACTORY_TOKEN", "JFROG_ACCESS_TOKEN", "ARTIFACTORY_API_KEY", "JF_ACCESS_TOKEN"],
        "JFrog token",
        http=hdr,
        netrc=(host, pk(USERS)),
        npmrc=f"//{host}/artifactory/api/npm/npm/",
    )


@sgen(15)
def g_cratesio() -> Item:
    v = "cio" + rs(ALNUM, 32)
    it = single("cratesio", "cratesio_token", v, ["CARGO_REGISTRY_TOKEN", "CRATES_IO_TOKEN"], "crates.io token")
    it.forms["toml"] = cat('[registry]\ntoken = "', S("cratesio_token", v), '"')
    it.cli = [cat("cargo login ", S("cratesio_token", v))]
    return it


# ---------------- databases ----------------


def db_host(kind: str) -> str:
    p = proj()
    return pk(
        {
            "pg": [
                f"{p}-db.{pk(REGIONS)}.rds.amazonaws.com",
                "db.internal",
                f"pg-{p}.{dom()}",
                "10.0.3.17",
                f"{p}.postgres.database.azure.com",
            ],
            "my": [
                f"{p}-mysql.{pk(REGIONS)}.rds.amazonaws.com",
                "mysql.internal",
                "127.0.0.1",
                f"{p}.mysql.database.azure.com",
            ],
            "redis": [
                f"{p}-cache.abc123.ng.0001.euw1.cache.amazonaws.com",
                "redis.internal",
                f"{p}-redis.upstash.io",
                "10.0.5.4",
            ],
            "amqp": ["rabbit.internal", f"{p}.rmq.cloudamqp.com", "10.0.7.21", "mq.local"],
        }[kind]
    )


@sgen(16)
def g_postgres() -> Item:
    pw = password()
    u, h, db = pk(USERS), db_host("pg"), proj().replace("-", "_")
    k = "postgres_password"
    form = pk(["url", "url", "jdbc", "libpq", "npgsql", "env", "sqlalchemy"])
    if form == "url":
        fr = cat(
            f"{pk(['postgres', 'postgresql'])}://{u}:",
            S(k, pw_url(pw)),
            f"@{h}:5432/{db}" + pk(["", "?sslmode=require", "?sslmode=verify-full"]),
        )
        names = ["DATABASE_URL", "POSTGRES_URL", "PG_DSN", "DB_URL"]
    elif form == "sqlalchemy":
        fr = cat(f"postgresql+{pk(['psycopg2', 'asyncpg', 'psycopg'])}://{u}:", S(k, pw_url(pw)), f"@{h}/{db}")
        names = ["SQLALCHEMY_DATABASE_URI", "DATABASE_URL"]
    elif form == "jdbc":
        fr = cat(f"jdbc:postgresql://{h}:5432/{db}?user={u}&password=", S(k, pw_url(pw)), "&ssl=true")
        names = ["SPRING_DATASOURCE_URL", "JDBC_URL"]
    elif form == "libpq":
        fr = cat(f"host={h} port=5432 dbname={db} user={u} password=", S(k, pw), " sslmode=require")
        names = ["PG_CONN", "DSN", "POSTGRES_DSN"]
    elif form == "npgsql":
        fr = cat(f"Host={h};Port=5432;Database={db};Username={u};Password=", S(k, pw), ";SSL Mode=Require")
        names = ["CONNECTIONSTRINGS__DEFAULT", "PG_CONNECTION"]
    else:
        fr = S(k, pw)
        names = ["PGPASSWORD", "POSTGRES_PASSWORD", "DB_PASSWORD", "PG_PASS"]
    it = Item("postgres", [Entry(nm(names), fr, "Postgres credentials")])
    it.forms["pgpass"] = cat(f"{h}:5432:{db}:{u}:", S(k, pw))
    it.forms["sql"] = cat(
        f"ALTER ROLE {u.replace('.', '_').replace('-', '_')} WITH LOGIN PASSWORD '", S(k, esc_sql(pw)), "';"
    )
    it.forms["connection_string"] = cat(f"postgresql://{u}:", S(k, pw_url(pw)), f"@{h}:5432/{db}")
    it.cli = [
        cat("PGPASSWORD='", S(k, pw), f"' psql -h {h} -U {u} -d {db} -c '\\dt'"),
        cat('psql "postgresql://' + u + ":", S(k, pw_url(pw)), f'@{h}:5432/{db}?sslmode=require"'),
    ]
    return it


@sgen(16)
def g_mysql() -> Item:
    pw = password(pk(["random", "words", "alnum", "mixed"]))
    u, h, db = pk([*USERS, "root"]), db_host("my"), proj().replace("-", "_")
    k = "mysql_password"
    form = pk(["url", "go", "jdbc", "sqlalchemy", "env"])
    if form == "url":
        fr = cat(f"mysql://{u}:", S(k, pw_url(pw)), f"@{h}:3306/{db}")
        names = ["DATABASE_URL", "MYSQL_URL", "CLEARDB_DATABASE_URL"]
    elif form == "go":
        gpw = pw.replace("@", "A").replace("/", "B").replace("?", "C")
        fr = cat(f"{u}:", S(k, gpw), f"@tcp({h}:3306)/{db}?parseTime=true&charset=utf8mb4")
        names = ["MYSQL_DSN", "DB_DSN"]
    elif form == "jdbc":
        fr = cat(f"jdbc:mysql://{h}:3306/{db}?user={u}&password=", S(k, pw_url(pw)), "&useSSL=true")
        names = ["SPRING_DATASOURCE_URL", "JDBC_URL"]
    elif form == "sqlalchemy":
        fr = cat(f"mysql+pymysql://{u}:", S(k, pw_url(pw)), f"@{h}/{db}?charset=utf8mb4")
        names = ["SQLALCHEMY_DATABASE_URI", "DB_URI"]
    else:
        fr = S(k, pw)
        names = ["MYSQL_PASSWORD", "MYSQL_ROOT_PASSWORD", "DB_PASS", "MARIADB_PASSWORD"]
    it = Item("mysql", [Entry(nm(names), fr, "MySQL credentials")])
    it.forms["ini"] = cat(f"[client]\nuser={u}\npassword=", S(k, pw), f"\nhost={h}\nport=3306")
    it.forms["sql"] = cat(
        f"CREATE USER '{u}'@'%' IDENTIFIED BY '", S(k, esc_sql(pw)), f"';\nGRANT SELECT ON {db}.* TO '{u}'@'%';"
    )
    it.forms["connection_string"] = cat(f"mysql://{u}:", S(k, pw_url(pw)), f"@{h}:3306/{db}")
    it.cli = [
        cat(f"mysql -h {h} -u {u} -p'", S(k, pw), f"' {db}")
        if not pw.isalnum()
        else cat(f"mysql -h {h} -u {u} -p", S(k, pw), f" {db}"),
        cat(f"mysqldump -u {u} --password='", S(k, pw), f"' {db} > {db}.sql"),
    ]
    return it


@sgen(16)
def g_mongodb() -> Item:
    pw = password(pk(["random", "alnum", "words"]))
    u, db = pk(USERS), proj().replace("-", "_")
    k = "mongodb_password"
    if chance(0.6):
        fr = cat(
            f"mongodb+srv://{u}:",
            S(k, pw_url(pw)),
            f"@cluster0.{rs(LOWNUM, 5)}.mongodb.net/{db}?retryWrites=true&w=majority",
        )
    else:
        fr = cat(
            f"mongodb://{u}:",
            S(k, pw_url(pw)),
            f"@mongo-0.{dom()}:27017,mongo-1.{dom()}:27017/{db}?replicaSet=rs0&authSource=admin",
        )
    it = Item("mongodb", [Entry(nm(["MONGODB_URI", "MONGO_URL", "MONGO_URI", "DATABASE_URL"]), fr, "MongoDB URI")])
    it.forms["connection_string"] = fr
    it.cli = [
        cat(
            f'mongosh "mongodb+srv://cluster0.{rs(LOWNUM, 5)}.mongodb.net/{db}" --username {u} --password \'',
            S(k, pw),
            "'",
        )
    ]
    return it


@sgen(16)
def g_redis() -> Item:
    pw = password(pk(["random", "alnum", "alnum"]))
    h = db_host("redis")
    k = "redis_password"
    form = pk(["url", "url", "tls", "stackexchange", "env"])
    if form == "url":
        fr = cat(f"redis://{pk(['', 'default'])}:", S(k, pw_url(pw)), f"@{h}:6379/{R.randint(0, 3)}")
        names = ["REDIS_URL", "CACHE_URL", "CELERY_BROKER_URL"]
    elif form == "tls":
        fr = cat("rediss://default:", S(k, pw_url(pw)), f"@{h}:6380")
        names = ["REDIS_URL", "REDIS_TLS_URL", "UPSTASH_REDIS_URL"]
    elif form == "stackexchange":
        fr = cat(f"{h}:6380,password=", S(k, pw), ",ssl=True,abortConnect=False")
        names = ["REDIS_CONNECTION", "CACHE_CONNECTION_STRING"]
    else:
        fr = S(k, pw)
        names = ["REDIS_PASSWORD", "REDIS_AUTH", "REDISCLI_AUTH"]
    it = Item("redis", [Entry(nm(names), fr, "Redis credentials")])
    it.forms["connection_string"] = cat(f"{h}:6380,password=", S(k, pw), ",ssl=True,abortConnect=False")
    it.cli = [cat(f"redis-cli -h {h} -p 6379 -a '", S(k, pw), "' --no-auth-warning INFO keyspace")]
    return it


@sgen(15)
def g_amqp() -> Item:
    pw = password(pk(["random", "alnum", "words"]))
    u, h = pk(USERS), db_host("amqp")
    k = "amqp_password"
    if chance(0.7):
        fr = cat(
            f"{pk(['amqp', 'amqps'])}://{u}:",
            S(k, pw_url(pw)),
            f"@{h}:{pk(['5672', '5671'])}/{pk(['', '%2F', proj()])}",
        )
        names = ["AMQP_URL", "RABBITMQ_URL", "CELERY_BROKER_URL", "CLOUDAMQP_URL"]
    else:
        fr = S(k, pw)
        names = ["RABBITMQ_DEFAULT_PASS", "RABBITMQ_PASSWORD", "AMQP_PASSWORD"]
    it = Item("amqp", [Entry(nm(names), fr, "RabbitMQ credentials")])
    it.forms["connection_string"] = cat(f"amqps://{u}:", S(k, pw_url(pw)), f"@{h}/{proj()}")
    it.cli = [cat(f"rabbitmqctl add_user {u} '", S(k, pw), "'")]
    return it


@sgen(16)
def g_mssql() -> Item:
    pw = password(pk(["random", "mixed", "words"]))
    u, db = pk(["sa", "app", "reporting", pk(USERS)]), proj().replace("-", "_")
    srv = pk([f"tcp:{proj()}-sql.database.windows.net,1433", "sql01.corp.local", "10.0.2.9,1433"])
    k = "mssql_password"
    form = pk(["ado", "ado", "jdbc", "odbc", "sqlalchemy", "env"])
    if form == "ado":
        fr = cat(
            f"Server={srv};Initial Catalog={db};Persist Security Info=False;User ID={u};Password=",
            S(k, pw),
            ";MultipleActiveResultSets=False;Encrypt=True;TrustServerCertificate=False;Connection Timeout=30;",
        )
        names = ["CONNECTIONSTRINGS__DEFAULTCONNECTION", "SQL_CONNECTION_STRING", "MSSQL_CONNECTION"]
    elif form == "jdbc":
        fr = cat(
            f"jdbc:sqlserver://sql01.corp.local:1433;databaseName={db};user={u};password=", S(k, pw), ";encrypt=true"
        )
        names = ["SPRING_DATASOURCE_URL", "JDBC_URL"]
    elif form == "odbc":
        fr = cat(
            f"Driver={{ODBC Driver 18 for SQL Server}};Server={srv};Database={db};Uid={u};Pwd=",
            S(k, pw),
            ";Encrypt=yes;",
        )
        names = ["ODBC_CONNECTION_STRING", "MSSQL_DSN"]
    elif form == "sqlalchemy":
        fr = cat(
            f"mssql+pyodbc://{u}:", S(k, pw_url(pw)), f"@sql01.corp.local/{db}?driver=ODBC+Driver+18+for+SQL+Server"
        )
        names = ["SQLALCHEMY_DATABASE_URI", "MSSQL_URL"]
    else:
        fr = S(k, pw)
        names = ["MSSQL_SA_PASSWORD", "SA_PASSWORD", "SQLSERVER_PASSWORD"]
    it = Item("mssql", [Entry(nm(names), fr, "SQL Server credentials")])
    it.forms["connection_string"] = cat(
        f"Server={srv};Database={db};User Id={u};Password=", S(k, pw), ";TrustServerCertificate=True;"
    )
    it.forms["sql"] = cat(f"CREATE LOGIN [{u}] WITH PASSWORD = N'", S(k, esc_sql(pw)), "', CHECK_POLICY = ON;")
    it.cli = [cat(f"sqlcmd -S sql01.corp.local -U {u} -P '", S(k, pw), f'\' -d {db} -Q "SELECT @@VERSION"')]
    return it


# ---------------- private keys ----------------

KEY_NAMES = [
    "PRIVATE_KEY",
    "DEPLOY_KEY",
    "SIGNING_KEY",
    "TLS_KEY",
    "JWT_PRIVATE_KEY",
    "SSH_PRIVATE_KEY",
    "SAML_SP_KEY",
    "APNS_KEY",
]


def key_item(gen: str, kind: str, text: str, names: list[str], desc: str, *, fname: str) -> Item:
    it = Item(gen, [Entry(nm(names), S(kind, text), desc, pem=True)])
    it.cli = [cat(f"cat > {fname} <<'EOF'\n", S(kind, text), f"\nEOF\nchmod 600 {fname}")]
    return it


@sgen(15)
def g_rsa_key() -> Item:
    k = rsa_key()
    text = pem("RSA PRIVATE KEY", rsa_pkcs1(k)) if chance(0.5) else pem("PRIVATE KEY", rsa_pkcs8(k))
    return key_item(
        "rsa_key",
        "rsa_private_key",
        text,
        KEY_NAMES,
        "RSA private key",
        fname=pk(["server.key", "jwt-signing.pem", "saml.key", "deploy.pem"]),
    )


@sgen(15)
def g_ec_key() -> Item:
    d, pub = p256_keypair()
    text = pem("EC PRIVATE KEY", ec_sec1(d, pub)) if chance(0.6) else pem("PRIVATE KEY", ec_pkcs8(d, pub))
    return key_item(
        "ec_key",
        "ec_private_key",
        text,
        [*KEY_NAMES, "APPLE_AUTH_KEY", "ES256_KEY"],
        "EC private key",
        fname=pk(["ec.key", "AuthKey.p8", "tls.key", "es256.pem"]),
    )


@sgen(15)
def g_ed25519_key() -> Item:
    text = pem("PRIVATE KEY", ed25519_pkcs8(rbytes(32)))
    return key_item(
        "ed25519_key",
        "ed25519_private_key",
        text,
        [*KEY_NAMES, "ED25519_SIGNING_KEY", "WEBHOOK_SIGNING_KEY"],
        "Ed25519 private key",
        fname=pk(["ed25519.pem", "signer.key", "license-signing.pem"]),
    )


@sgen(15)
def g_openssh_key() -> Item:
    text, _ = openssh_private(
        pk(["ed25519", "ed25519", "ecdsa"]), f"{pk(USERS)}@{pk(['laptop', 'build-01', 'bastion', 'mbp'])}"
    )
    return key_item(
        "openssh_key",
        "openssh_private_key",
        text,
        ["SSH_PRIVATE_KEY", "DEPLOY_KEY", "SSH_KEY", "GIT_SSH_KEY", "BASTION_KEY"],
        "OpenSSH private key",
        fname=pk(["~/.ssh/id_ed25519", "deploy_key", "~/.ssh/bastion", "id_ecdsa"]),
    )


@sgen(15)
def g_pgp_key() -> Item:
    person = pk(["Ana Costa", "Jonas Keller", "Release Bot", "Priya Nair", "Build Signer", "Mateo Ruiz"])
    secret, _, _ = pgp_key(f"{person} <{person.split()[0].lower()}@{dom()}>", R.randint(1600000000, 1760000000))
    return key_item(
        "pgp_key",
        "pgp_private_key",
        secret,
        ["GPG_PRIVATE_KEY", "PGP_SECRET_KEY", "SIGNING_KEY", "MAVEN_GPG_KEY"],
        "PGP private key",
        fname=pk(["release-signing.asc", "private.asc", "secring.asc"]),
    )


# ---------------- tokens, generic ----------------


@sgen(15)
def g_jwt() -> Item:
    now = R.randint(1700000000, 1765000000)
    r_ = R.random()
    if r_ < 0.3:
        ref = rs(LOWER, 20)
        v = jwt_hs256(
            {"iss": "supabase", "ref": ref, "role": "service_role", "iat": now, "exp": now + 315360000}, rbytes(32)
        )
        names = ["SUPABASE_SERVICE_ROLE_KEY", "SERVICE_ROLE_KEY"]
    elif r_ < 0.7:
        claims = {
            "sub": pk(["user_", "usr_", "u-"]) + rs(ALNUM, 10),
            "name": pk(PEOPLE),
            "role": pk(["admin", "editor", "support"]),
            "iat": now,
            "exp": now + pk([900, 3600, 86400]),
        }
        v = jwt_hs256(claims, rbytes(32), kid=pk([None, rs(ALNUM, 8)]))  # type: ignore[arg-type]
        names = ["ACCESS_TOKEN", "AUTH_TOKEN", "API_JWT", "SESSION_TOKEN", "ID_TOKEN"]
    else:
        v = jwt_es256(
            {
                "iss": f"https://auth.{dom()}/",
                "sub": uuid4(),
                "aud": "api",
                "scope": "read write",
                "iat": now,
                "exp": now + 3600,
            }
        )
        names = ["ACCESS_TOKEN", "BEARER_TOKEN", "SERVICE_JWT"]
    return single("jwt", "jwt", v, names, "JWT", http=("Authorization", "Bearer ", f"https://api.{dom()}/v1/me"))


@sgen(15)
def g_basic_auth() -> Item:
    u, pw = pk(USERS), password()
    v = b64(f"{u}:{pw}".encode())
    fr = cat("Basic ", S("http_basic_auth", v))
    return Item(
        "basic_auth",
        [
            Entry(
                nm(["AUTH_HEADER", "BASIC_AUTH", "PROXY_AUTHORIZATION", "UPSTREAM_AUTH"]),
                fr,
                "Basic auth header",
                http=("Authorization", "", f"https://{pk(['registry', 'api', 'metrics', 'legacy'])}.{dom()}/"),
            )
        ],
    )


@sgen(15)
def g_bearer() -> Item:
    v = pk(["", "at_", "tok_", "sess_", "pat_"]) + rs(ALNUM + "-_", R.randint(32, 56))
    it = single(
        "bearer",
        "bearer_token",
        v,
        ["API_TOKEN", "INTERNAL_API_TOKEN", "SERVICE_TOKEN", "ACCESS_TOKEN", "AUTH_TOKEN"],
        "bearer token",
        http=(
            "Authorization",
            "Bearer ",
            f"https://{pk(['api', 'internal', 'gateway'])}.{dom()}/v2/{pk(['orders', 'reports', 'users'])}",
        ),
    )
    it.forms["url"] = cat(
        f"https://{pk(['api', 'internal', 'gateway'])}.{dom()}/v2/export.csv?access_token=", S("bearer_token", v)
    )
    return it


@sgen(18)
def g_password() -> Item:
    pw = password()
    names = [
        "PASSWORD",
        "DB_PASSWORD",
        "SMTP_PASSWORD",
        "LDAP_BIND_PASSWORD",
        "ADMIN_PASSWORD",
        "KEYSTORE_PASSWORD",
        "WIFI_PASSWORD",
        "ROUTER_ADMIN_PASS",
        "GRAFANA_ADMIN_PASSWORD",
        "MAIL_PASSWORD",
        "SFTP_PASSWORD",
        "VPN_PASSWORD",
        "NAS_PASSWORD",
        "PASSWD",
    ]
    u = pk(USERS)
    it = single(
        "password",
        "generic_password",
        pw,
        names,
        "password",
        netrc=(pk(["ftp.", "sftp.", "mail.", "nas."]) + dom(), u),
        basic_user=u,
    )
    it.cli = [
        cat("sshpass -p '", S("generic_password", pw), f"' ssh {u}@10.0.{R.randint(0, 9)}.{R.randint(2, 250)}"),
        cat(
            "keytool -importkeystore -srckeystore old.jks -destkeystore new.p12 -deststoretype PKCS12 -deststorepass '",
            S("generic_password", pw),
            "'",
        ),
        cat(f"curl -u {u}:'", S("generic_password", pw), f"' https://nas.{dom()}/api/status"),
    ]
    return it


@sgen(17)
def g_api_key() -> Item:
    v = pk(["", "", "key_", "ak_", "live_"]) + (rs(ALNUM, R.randint(32, 48)) if chance(0.6) else rhex(pk([32, 40, 64])))
    svc = pk(["WEATHER", "GEOCODER", "SEARCH", "PAYMENTS_GATEWAY", "SMS", "TRANSLATE", "PARTNER", "CRM", "ANALYTICS"])
    k = "generic_api_key"
    q = cat(
        f"https://api.{svc.lower().replace('_', '')}.{dom()}/v1/{pk(['lookup', 'forecast', 'search'])}?q=Berlin&{pk(['api_key', 'apikey', 'key', 'access_key', 'appid'])}=",
        S(k, v),
        pk(["", "&format=json", "&units=metric"]),
    )
    it = single(
        "api_key",
        "generic_api_key",
        v,
        [f"{svc}_API_KEY", "API_KEY", "X_API_KEY", f"{svc}_KEY", "APIKEY"],
        "API key",
        http=(
            "X-API-Key",
            "",
            f"https://api.{pk(['partner', 'weather', 'geo', 'crm'])}.{dom()}/v1/{pk(['lookup', 'forecast', 'contacts'])}",
        ),
    )
    it.forms["url"] = q
    it.cli = [
        cat('curl -s "', q, '"'),
        cat(f"./bin/{pk(['sync', 'import', 'report'])} --api-key=", S(k, v), " --dry-run"),
    ]
    return it


@sgen(16)
def g_oauth_secret() -> Item:
    r_ = R.random()
    if r_ < 0.35:
        cid = L("oauth_client_id", f"{rdig(12)}-{rs(LOWNUM, 32)}.apps.googleusercontent.com")
        sec = "GOCSPX-" + rs(B64URL, 28)
        n1, n2 = "GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"
    elif r_ < 0.6:
        cid = L("oauth_client_id", pk(["Ov23li", "Iv1."]) + rs(ALNUM, 14) if chance(0.5) else "Iv23li" + rs(ALNUM, 14))
        sec = rhex(40)
        n1, n2 = "GITHUB_CLIENT_ID", "GITHUB_CLIENT_SECRET"
    elif r_ < 0.85:
        cid = L("oauth_client_id", rs(ALNUM, 32))
        sec = rs(B64URL, 64)
        n1, n2 = "AUTH0_CLIENT_ID", "AUTH0_CLIENT_SECRET"
    else:
        cid = T(pk(["grafana", "argocd", "backoffice", "mobile-app"]))
        sec = rs(ALNUM, 32)
        n1, n2 = "KEYCLOAK_CLIENT_ID", "KEYCLOAK_CLIENT_SECRET"
    return Item(
        "oauth_secret",
        [Entry(n1, cid, "OAuth client id"), Entry(n2, S("oauth_client_secret", sec), "OAuth client secret")],
    )


@sgen(15)
def g_session_cookie() -> Item:
    r_ = R.random()
    if r_ < 0.25:
        c, v = "sessionid", rs(LOWNUM, 32)
    elif r_ < 0.45:
        c, v = "connect.sid", "s%3A" + rs(B64URL, 32) + "." + rs(ALNUM + "%", 43)
    elif r_ < 0.65:
        c, v = f"_{proj().replace('-', '_')}_session", b64(rbytes(R.randint(90, 150))).rstrip("=") + "--" + rhex(40)
    elif r_ < 0.8:
        c, v = "PHPSESSID", rs(LOWNUM, 26)
    else:
        c, v = (
            "laravel_session",
            b64(cjson({"iv": b64(rbytes(16)), "value": b64(rbytes(48)), "mac": rhex(64), "tag": ""}).encode()),
        )
    fr = cat(c + "=", S("session_cookie", v))
    it = Item(
        "session_cookie",
        [
            Entry(
                nm(["SESSION_COOKIE", "COOKIE", "ADMIN_COOKIE"]),
                fr,
                "session cookie",
                http=("Cookie", "", f"https://{pk(['admin', 'app', 'dashboard'])}.{dom()}/api/me"),
            )
        ],
    )
    return it


@sgen(15)
def g_signed_url() -> Item:
    r_ = R.random()
    k = "signed_url_signature"
    if r_ < 0.5:
        reg = pk(REGIONS)
        fr = cat(
            f"https://{proj()}-exports.s3.{reg}.amazonaws.com/{pk(['reports', 'dumps', 'media'])}/{rs(LOWNUM, 8)}.{pk(['csv', 'gz', 'pdf'])}"
            "?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=",
            S("aws_access_key_id", "AKIA" + rs(B32, 16)),
            f"%2F2025{R.randint(10, 12)}{R.randint(10, 28)}%2F{reg}%2Fs3%2Faws4_request&X-Amz-Date=20251105T101500Z&X-Amz-Expires={pk(['3600', '604800', '900'])}"
            "&X-Amz-SignedHeaders=host&X-Amz-Signature=",
            S(k, rhex(64)),
        )
    elif r_ < 0.75:
        fr = cat(
            f"https://storage.googleapis.com/{proj()}-uploads/{rs(LOWNUM, 10)}.png?X-Goog-Algorithm=GOOG4-RSA-SHA256"
            f"&X-Goog-Credential=uploader%40{proj()}.iam.gserviceaccount.com%2F20250304%2Fauto%2Fstorage%2Fgoog4_request"
            "&X-Goog-Date=20250304T081500Z&X-Goog-Expires=900&X-Goog-SignedHeaders=host&X-Goog-Signature=",
            S(k, rhex(512)),
        )
    else:
        fr = cat(
            f"https://d{rs(LOWNUM, 13)}.cloudfront.net/{pk(['videos', 'private', 'downloads'])}/{rs(LOWNUM, 6)}.mp4?Expires={R.randint(1735000000, 1790000000)}"
            "&Signature=",
            S(k, rs(ALNUM + "-~_", 172)),
            f"&Key-Pair-Id=K{rs(UPNUM, 13)}",
        )
    return Item(
        "signed_url", [Entry(nm(["DOWNLOAD_URL", "PRESIGNED_URL", "SIGNED_URL", "EXPORT_LINK"]), fr, "pre-signed URL")]
    )


@sgen(15)
def g_totp() -> Item:
    v = rs(B32, pk([16, 32, 26]))
    if chance(0.5):
        acct = quote(email(), safe="")
        iss = pk(["GitHub", "AWS", "Acme", "Okta", "Proton"])
        fr = cat(
            f"otpauth://totp/{iss}:{acct}?secret=",
            S("totp_seed", v),
            f"&issuer={iss}" + pk(["", "&algorithm=SHA1&digits=6&period=30"]),
        )
        return Item("totp", [Entry(nm(["OTP_URI", "MFA_URI", "TOTP_URL"]), fr, "TOTP enrolment URI")])
    return single("totp", "totp_seed", v, ["TOTP_SECRET", "MFA_SEED", "OTP_SECRET", "TWO_FACTOR_SECRET"], "TOTP seed")


@sgen(16)
def g_encryption_key() -> Item:
    r_ = R.random()
    k = "encryption_key"
    if r_ < 0.3:
        return single(
            "encryption_key",
            k,
            rhex(64),
            ["ENCRYPTION_KEY", "DATA_ENCRYPTION_KEY", "AES_KEY", "MASTER_KEY"],
            "AES-256 key (hex)",
        )
    if r_ < 0.5:
        return single(
            "encryption_key",
            k,
            b64(rbytes(32)),
            ["ENCRYPTION_KEY", "FIELD_ENCRYPTION_KEY", "VAULT_UNSEAL_KEY", "KMS_LOCAL_KEY"],
            "AES-256 key (base64)",
        )
    if r_ < 0.7:
        return Item("encryption_key", [Entry("APP_KEY", cat("base64:", S(k, b64(rbytes(32)))), "Laravel APP_KEY")])
    if r_ < 0.85:
        return single(
            "encryption_key",
            k,
            base64.urlsafe_b64encode(rbytes(32)).decode(),
            ["FERNET_KEY", "AIRFLOW__CORE__FERNET_KEY", "CRYPTO_KEY"],
            "Fernet key",
        )
    return single("encryption_key", k, rhex(32), ["RAILS_MASTER_KEY", "MASTER_KEY"], "Rails master key")


@sgen(16)
def g_app_secret() -> Item:
    r_ = R.random()
    k = "app_secret_key"
    if r_ < 0.3:
        v = rs("abcdefghijklmnopqrstuvwxyz0123456789!@#%^&*(-_=+)", 50)
        return single("app_secret", k, v, ["DJANGO_SECRET_KEY", "SECRET_KEY"], "Django secret key")
    if r_ < 0.5:
        return single("app_secret", k, rhex(128), ["SECRET_KEY_BASE", "RAILS_SECRET_KEY_BASE"], "Rails secret_key_base")
    if r_ < 0.75:
        return single(
            "app_secret",
            k,
            b64(rbytes(32)),
            ["NEXTAUTH_SECRET", "AUTH_SECRET", "SESSION_SECRET", "COOKIE_SECRET"],
            "session secret",
        )
    return single(
        "app_secret",
        k,
        rs(ALNUM, R.randint(40, 64)),
        ["JWT_SECRET", "JWT_SIGNING_SECRET", "FLASK_SECRET_KEY", "TOKEN_SECRET"],
        "JWT signing secret",
    )


SK_ALPH = "ABCDEFGHJKLMNPQRSTVWXYZ23456789"


@sgen(15)
def g_onepassword() -> Item:
    if chance(0.55):
        sk = "A3-" + "-".join(rs(SK_ALPH, n) for n in (6, 6, 5, 5, 5, 5))
        payload = {
            "signInAddress": "my.1password.com",
            "userAuth": {"method": "SRPg-4096", "alg": "PBES2g-HS256", "iterations": 650000, "salt": rs(B64URL, 22)},
            "email": rs(LOWNUM, 13) + "@1passwordserviceaccounts.com",
            "srpX": rhex(64),
            "muk": {
                "alg": "A256GCM",
                "ext": True,
                "k": rs(B64URL, 43),
                "key_ops": ["encrypt", "decrypt"],
                "kty": "oct",
                "kid": "mp",
            },
            "secretKey": sk,
            "throttleSecret": {"seed": rhex(64), "uuid": rs(UPNUM, 26)},
            "deviceUuid": rs(LOWNUM, 26),
        }
        v = "ops_" + b64u(cjson(payload).encode())
        return single(
            "onepassword",
            "onepassword_secret",
            v,
            ["OP_SERVICE_ACCOUNT_TOKEN", "OP_TOKEN"],
            "1Password service account token",
        )
    sk = "A3-" + "-".join(rs(SK_ALPH, n) for n in (6, 6, 5, 5, 5, 5))
    return single(
        "onepassword",
        "onepassword_secret",
        sk,
        ["ONEPASSWORD_SECRET_KEY", "OP_SECRET_KEY", "EMERGENCY_KIT_SECRET_KEY"],
        "1Password Secret Key",
    )


@sgen(15)
def g_age() -> Item:
    sec, rec = age_keypair()
    it = single("age", "age_secret_key", sec, ["SOPS_AGE_KEY", "AGE_SECRET_KEY", "AGE_KEY"], "age identity")
    it.forms["pem"] = cat(
        f"# created: 2025-0{R.randint(1, 9)}-1{R.randint(0, 9)}T0{R.randint(0, 9)}:12:44+01:00\n# public key: ",
        L("age_recipient", rec),
        "\n",
        S("age_secret_key", sec),
    )
    return it


@sgen(15)
def g_bitwarden() -> Item:
    v = f"0.{uuid4()}.{rs(ALNUM, 30)}:{b64(rbytes(16))}"
    it = single(
        "bitwarden",
        "bitwarden_access_token",
        v,
        ["BWS_ACCESS_TOKEN", "BW_ACCESS_TOKEN"],
        "Bitwarden machine-account token",
    )
    it.cli = [cat("bws secret list --access-token ", S("bitwarden_access_token", v))]
    return it


@sgen(16)
def g_b64_cred() -> Item:
    u, pw = pk(USERS), password()
    r_ = R.random()
    k = "base64_credential"
    if r_ < 0.4:
        v = b64(pw.encode())
        it = single("b64_cred", k, v, ["DB_PASSWORD_B64", "PASSWORD_BASE64", "ENCODED_PASSWORD"], "base64 password")
        ns = proj()
        it.forms["kubernetes"] = cat(
            f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {ns}-db\n  namespace: {ns}\ntype: Opaque\ndata:\n  username: ",
            T(b64(u.encode())),
            "\n  password: ",
            S(k, v),
        )
        return it
    if r_ < 0.7:
        reg = pk(["registry.gitlab.com", "ghcr.io", f"{proj()}.azurecr.io", "index.docker.io"])
        v = b64(f"{u}:{pw}".encode())
        it = single("b64_cred", k, v, ["REGISTRY_AUTH", "DOCKER_AUTH", "DOCKER_AUTH_CONFIG_AUTH"], "registry auth")
        it.forms["json"] = cat('{\n  "auths": {\n    "' + reg + '": {\n      "auth": "', S(k, v), '"\n    }\n  }\n}')
        return it
    v = b64(f"{u}:{pw}".encode())
    it = single("b64_cred", k, v, ["NPM_AUTH", "NPM_LEGACY_AUTH"], "npm _auth", npmrc="")
    it.forms["npmrc"] = cat(f"registry=https://npm.{dom()}/\n_auth=", S(k, v), "\nalways-auth=true")
    return it


# ---------------- other providers ----------------


@sgen(15)
def g_databricks() -> Item:
    return single(
        "databricks",
        "databricks_token",
        "dapi" + rhex(32) + pk(["", "", "-2", "-3"]),
        ["DATABRICKS_TOKEN", "DATABRICKS_PAT"],
        "Databricks token",
        http=(
            "Authorization",
            "Bearer ",
            f"https://adb-{rdig(16)}.{R.randint(1, 19)}.azuredatabricks.net/api/2.0/clusters/list",
        ),
    )


@sgen(15)
def g_linear() -> Item:
    return single(
        "linear",
        "linear_api_key",
        "lin_api_" + rs(ALNUM, 40),
        ["LINEAR_API_KEY", "LINEAR_TOKEN"],
        "Linear API key",
        http=("Authorization", "", "https://api.linear.app/graphql"),
    )


@sgen(15)
def g_postman() -> Item:
    return single(
        "postman",
        "postman_api_key",
        "PMAK-" + rhex(24) + "-" + rhex(34),
        ["POSTMAN_API_KEY"],
        "Postman API key",
        http=("X-Api-Key", "", "https://api.getpostman.com/collections"),
    )


@sgen(15)
def g_mapbox_secret() -> Item:
    v = "sk." + b64u(cjson({"u": pk(USERS).replace(".", ""), "a": rs(LOWNUM, 25)}).encode()) + "." + rs(B64URL, 22)
    return single(
        "mapbox_secret",
        "mapbox_secret_token",
        v,
        ["MAPBOX_SECRET_TOKEN", "MAPBOX_DOWNLOADS_TOKEN", "MAPBOX_ACCESS_TOKEN_SECRET"],
        "Mapbox secret token",
        netrc=("api.mapbox.com", "mapbox"),
    )


@sgen(15)
def g_dynatrace() -> Item:
    return single(
        "dynatrace",
        "dynatrace_token",
        "dt0c01." + rs(UPNUM, 24) + "." + rs(UPNUM, 64),
        ["DT_API_TOKEN", "DYNATRACE_API_TOKEN"],
        "Dynatrace token",
        http=("Authorization", "Api-Token ", f"https://{rs(LOWNUM, 8)}.live.dynatrace.com/api/v2/metrics"),
    )


@sgen(15)
def g_airtable() -> Item:
    return single(
        "airtable",
        "airtable_pat",
        "pat" + rs(ALNUM, 14) + "." + rhex(64),
        ["AIRTABLE_PAT", "AIRTABLE_API_KEY", "AIRTABLE_TOKEN"],
        "Airtable token",
        http=("Authorization", "Bearer ", "https://api.airtable.com/v0/meta/bases"),
    )


@sgen(15)
def g_algolia_admin() -> Item:
    app = rs(UPNUM, 10)
    return Item(
        "algolia_admin",
        [
            Entry("ALGOLIA_APP_ID", L("account_identifier", app), "Algolia app id"),
            Entry(
                nm(["ALGOLIA_ADMIN_API_KEY", "ALGOLIA_ADMIN_KEY", "ALGOLIA_WRITE_KEY"], weak=True),
                S("algolia_admin_key", rhex(32)),
                "Algolia admin key",
                http=("X-Algolia-API-Key", "", f"https://{app}-dsn.algolia.net/1/indexes"),
            ),
        ],
    )


# --------------------------------------------------------------------------
# look-alikes (public values that must not be reported)
# --------------------------------------------------------------------------

LOOK_GENS: list[tuple[str, Callable[[], Item], int]] = []


def lgen(count: int = 32) -> Callable[[Callable[[], Item]], Callable[[], Item]]:
    def deco(fn: Callable[[], Item]) -> Callable[[], Item]:
        LOOK_GENS.append((fn.__name__[2:], fn, count))
        return fn

    return deco


GENERIC_HTTP = ("Authorization", "Bearer ", "https://api.example.com/v1/me")


def lone(gen: str, kind: str, value: str, names: list[str], desc: str, **kw: object) -> Item:
    return Item(gen, [Entry(pk(names), L(kind, value), desc, **kw)], secret=False)  # type: ignore[arg-type]


def cred_entry(name: str, frag: Frag, desc: str, *, where: tuple[str, ...] = ("http", "netrc", "npmrc")) -> Entry:
    """A look-alike standing where a credential goes; `where` says which credential slots it may fill."""
    # the description is what a note would call the slot, never what the value really is
    desc = name.replace("_", " ").lower()
    return Entry(
        name,
        frag,
        desc,
        cred=True,
        http=GENERIC_HTTP if "http" in where else None,
        netrc=("api." + dom(), pk(USERS)) if "netrc" in where else None,
        npmrc="//registry.npmjs.org/" if "npmrc" in where else "",
    )


def semver() -> str:
    v = f"{R.randint(0, 5)}.{R.randint(0, 30)}.{R.randint(0, 20)}"
    r_ = R.random()
    if r_ < 0.15:
        v += f"-{pk(['rc', 'beta', 'alpha'])}.{R.randint(1, 5)}"
    elif r_ < 0.2:
        v += f"+build.{R.randint(10, 999)}"
    return ("v" if chance(0.35) else "") + v


@lgen(34)
def g_git_sha() -> Item:
    full = chance(0.65)
    v = rhex(40) if full else rhex(R.randint(7, 12))
    it = lone(
        "git_sha",
        "git_sha",
        v,
        ["GIT_SHA", "COMMIT_SHA", "REVISION", "SOURCE_VERSION", "BUILD_COMMIT", "GITHUB_SHA"],
        "commit",
    )
    if full:
        it.forms["github_actions"] = cat(
            f"      - uses: {pk(['actions/checkout', 'actions/setup-node', 'docker/build-push-action', 'aws-actions/configure-aws-credentials'])}@",
            L("git_sha", v),
            f"  # v{R.randint(2, 6)}.{R.randint(0, 9)}.{R.randint(0, 9)}",
        )
    it.forms["log"] = cat(
        "HEAD is now at ",
        L("git_sha", v[: R.randint(7, 10)]) if full else L("git_sha", v),
        " "
        + pk(
            [
                "fix: retry webhook delivery",
                "chore(deps): bump axios",
                "feat: add CSV export",
                'revert "enable new checkout"',
            ]
        ),
    )
    it.cli = [cat("git revert --no-edit ", L("git_sha", v)), cat("git cherry-pick ", L("git_sha", v))]
    return it


@lgen(34)
def g_uuid() -> Item:
    return lone(
        "uuid",
        "uuid",
        uuid4(),
        [
            "TENANT_ID",
            "WORKSPACE_ID",
            "ORG_ID",
            "INSTALLATION_ID",
            "CORRELATION_ID",
            "DEVICE_ID",
            "PROJECT_UUID",
            "KEY_ID",
            "SUBSCRIPTION_ID",
            "DATASET_ID",
        ],
        "id",
    )


@lgen(33)
def g_sha256() -> Item:
    v = rhex(64)
    it = lone(
        "sha256",
        "sha256_hex",
        v,
        ["SHA256", "CHECKSUM_SHA256", "ARTIFACT_SHA256", "EXPECTED_HASH", "FILE_HASH"],
        "SHA-256 checksum",
    )
    f = pk(
        [
            "terraform_1.9.8_linux_amd64.zip",
            "node-v20.18.0-linux-x64.tar.xz",
            "kubectl",
            "helm-v3.16.2-linux-amd64.tar.gz",
        ]
    )
    it.cli = [cat('echo "', L("sha256_hex", v), f'  {f}" | sha256sum -c -')]
    it.forms["lockfile"] = cat(
        f"{pk(['requests', 'urllib3', 'certifi', 'idna', 'pydantic'])}=={semver().lstrip('v')} \\\n    --hash=sha256:",
        L("sha256_hex", v),
    )
    return it


@lgen(33)
def g_md5() -> Item:
    v = rhex(32)
    it = lone("md5", "md5_hex", v, ["ETAG", "MD5", "FILE_MD5", "MD5SUM", "CONTENT_HASH"], "MD5 / ETag")
    it.forms["http_response"] = cat('ETag: "', L("md5_hex", v), '"')
    return it


@lgen(33)
def g_digest() -> Item:
    v = "sha256:" + rhex(64)
    img = pk(
        [
            "ghcr.io/" + proj() + "/api",
            "python:3.12-slim",
            "node:20-alpine",
            "nginx:1.27",
            f"{rdig(12)}.dkr.ecr.eu-west-1.amazonaws.com/{proj()}",
        ]
    )
    it = Item(
        "digest",
        [Entry(pk(["IMAGE", "BASE_IMAGE", "IMAGE_REF"]), cat(img + "@", L("container_digest", v)), "pinned image")],
        secret=False,
    )
    it.forms["dockerfile"] = cat(f"FROM {img}@", L("container_digest", v))
    it.forms["kubernetes"] = cat(
        f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: {proj()}\nspec:\n  containers:\n    - name: app\n      image: {img}@",
        L("container_digest", v),
    )
    return it


@lgen(32)
def g_sri() -> Item:
    alg, n = pick([("sha384", 48), ("sha384", 48), ("sha512", 64), ("sha256", 32)])  # type: ignore[misc]
    v = f"{alg}-{b64(rbytes(n))}"
    lib = pk(
        [
            "bootstrap@5.3.3/dist/js/bootstrap.bundle.min.js",
            "htmx.org@2.0.3/dist/htmx.min.js",
            "alpinejs@3.14.1/dist/cdn.min.js",
            "chart.js@4.4.4/dist/chart.umd.min.js",
        ]
    )
    it = lone("sri", "sri_integrity", v, ["SRI_HASH", "INTEGRITY", "SCRIPT_INTEGRITY"], "SRI hash")
    it.forms["html"] = cat(
        f'<script src="https://cdn.jsdelivr.net/npm/{lib}" integrity="',
        L("sri_integrity", v),
        '" crossorigin="anonymous"></script>',
    )
    return it


@lgen(32)
def g_npm_integrity() -> Item:
    v = "sha512-" + b64(rbytes(64))
    pkg = pk(["left-pad", "lodash", "zod", "picocolors", "ms", "debug", "semver", "nanoid", "undici"])
    ver = semver().lstrip("v").split("-")[0].split("+")[0]
    it = lone("npm_integrity", "npm_integrity", v, ["INTEGRITY", "PACKAGE_INTEGRITY"], "npm integrity hash")
    it.forms["lockfile"] = cat(
        f'"node_modules/{pkg}": {{\n  "version": "',
        L("semver", ver),
        f'",\n  "resolved": "https://registry.npmjs.org/{pkg}/-/{pkg}-{ver}.tgz",\n  "integrity": "',
        L("npm_integrity", v),
        '"\n}',
    )
    it.forms["json"] = cat(
        '{\n  "lockfileVersion": 3,\n  "packages": {\n    ', fmap(it.forms["lockfile"], indent_fn("    ")), "\n  }\n}"
    )
    return it


@lgen(32)
def g_gosum() -> Item:
    v = "h1:" + b64(rbytes(32))
    mod = pk(
        [
            "github.com/google/uuid",
            "golang.org/x/sync",
            "github.com/spf13/cobra",
            "go.uber.org/zap",
            "github.com/jackc/pgx/v5",
        ]
    )
    ver = "v" + semver().lstrip("v").split("-")[0].split("+")[0]
    it = lone("gosum", "go_module_sum", v, ["GOSUM", "MODULE_HASH"], "go.sum hash")
    it.forms["lockfile"] = cat(
        f"{mod} ",
        L("semver", ver),
        " ",
        L("go_module_sum", v),
        f"\n{mod} {ver}/go.mod ",
        L("go_module_sum", "h1:" + b64(rbytes(32))),
    )
    return it


@lgen(34)
def g_semver() -> Item:
    return lone(
        "semver",
        "semver",
        semver(),
        ["VERSION", "APP_VERSION", "NODE_VERSION", "TERRAFORM_VERSION", "CHART_VERSION", "IMAGE_TAG", "RELEASE"],
        "version",
    )


@lgen(32)
def g_stripe_pk() -> Item:
    v = "pk_live_" + (rs(ALNUM, 24) if chance(0.4) else "51" + rs(ALNUM, 97))
    it = lone(
        "stripe_pk",
        "stripe_publishable_key",
        v,
        ["STRIPE_PUBLISHABLE_KEY", "NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY", "VITE_STRIPE_PK", "STRIPE_PK"],
        "Stripe key",
    )
    it.forms["javascript"] = cat("const stripe = Stripe('", L("stripe_publishable_key", v), "');")
    it.forms["html"] = cat('<script>\n  const stripe = Stripe("', L("stripe_publishable_key", v), '");\n</script>')
    return it


@lgen(32)
def g_razorpay_id() -> Item:
    v = pk(["rzp_live_", "rzp_live_", "rzp_test_"]) + rs(ALNUM, 14)
    it = lone(
        "razorpay_id",
        "razorpay_key_id",
        v,
        ["RAZORPAY_KEY_ID", "NEXT_PUBLIC_RAZORPAY_KEY", "RAZORPAY_KEY"],
        "Razorpay key",
    )
    it.forms["javascript"] = cat(
        'const rzp = new Razorpay({ key: "', L("razorpay_key_id", v), '", amount: 49900, currency: "INR" });'
    )
    return it


@lgen(32)
def g_client_id() -> Item:
    r_ = R.random()
    if r_ < 0.4:
        v, names = (
            f"{rdig(12)}-{rs(LOWNUM, 32)}.apps.googleusercontent.com",
            ["GOOGLE_CLIENT_ID", "NEXT_PUBLIC_GOOGLE_CLIENT_ID", "GOOGLE_OAUTH_CLIENT_ID"],
        )
    elif r_ < 0.6:
        v, names = pk(["Ov23li", "Iv23li", "Iv1."]) + rs(ALNUM, 14), ["GITHUB_CLIENT_ID", "GH_APP_CLIENT_ID"]
    elif r_ < 0.8:
        v, names = uuid4(), ["AZURE_CLIENT_ID", "MSAL_CLIENT_ID", "ENTRA_APP_ID"]
    else:
        v, names = rs(ALNUM, 32), ["AUTH0_CLIENT_ID", "OAUTH_CLIENT_ID"]
    return lone("client_id", "oauth_client_id", v, names, "OAuth client id")


@lgen(32)
def g_firebase() -> Item:
    v = "AIza" + rs(B64URL, 35)
    p = proj() + "-" + rs(LOWNUM, 5)
    it = lone(
        "firebase",
        "firebase_web_api_key",
        v,
        ["NEXT_PUBLIC_FIREBASE_API_KEY", "VITE_FIREBASE_API_KEY", "REACT_APP_FIREBASE_API_KEY", "FIREBASE_WEB_API_KEY"],
        "Firebase API key",
    )
    sender = rdig(12)
    cfg = cat(
        'const firebaseConfig = {\n  apiKey: "',
        L("firebase_web_api_key", v),
        f'",\n  authDomain: "{p}.firebaseapp.com",\n  projectId: "{p}",\n'
        f'  storageBucket: "{p}.appspot.com",\n  messagingSenderId: "{sender}",\n  appId: "1:{sender}:web:{rhex(22)}"\n}};',
    )
    it.forms["javascript"] = cfg
    it.forms["typescript"] = cfg
    it.forms["html"] = cat('<script type="module">\n', cfg, "\n</script>")
    return it


@lgen(32)
def g_sentry_dsn() -> Item:
    v = f"https://{rhex(32)}@o{rdig(6)}.ingest.{pk(['', 'us.', 'de.'])}sentry.io/{rdig(7)}"
    return lone(
        "sentry_dsn", "sentry_dsn", v, ["SENTRY_DSN", "NEXT_PUBLIC_SENTRY_DSN", "VITE_SENTRY_DSN"], "Sentry DSN"
    )


@lgen(32)
def g_algolia_search() -> Item:
    app = rs(UPNUM, 10)
    es = [
        Entry(
            pk(["ALGOLIA_SEARCH_API_KEY", "NEXT_PUBLIC_ALGOLIA_SEARCH_KEY", "ALGOLIA_SEARCH_ONLY_KEY"]),
            L("algolia_search_key", rhex(32)),
            "Algolia search key",
        )
    ]
    if chance(0.5):
        es.insert(0, Entry("ALGOLIA_APP_ID", L("account_identifier", app), "Algolia app id"))
    return Item("algolia_search", es, secret=False)


@lgen(32)
def g_aws_example() -> Item:
    kid, sec = pick(
        [
            ("AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
            ("AKIAI44QH8DHBEXAMPLE", "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY"),
        ]
    )  # type: ignore[misc]
    es = [
        cred_entry("AWS_ACCESS_KEY_ID", L("aws_example_key", kid), "AWS documentation key id", where=()),
        cred_entry("AWS_SECRET_ACCESS_KEY", L("aws_example_key", sec), "AWS documentation secret", where=()),
    ]
    if chance(0.3):
        es = [es[R.randrange(2)]]
    it = Item("aws_example", es, secret=False)
    if len(es) == 2:
        it.forms["ini"] = cat(
            "[default]\naws_access_key_id = ",
            L("aws_example_key", kid),
            "\naws_secret_access_key = ",
            L("aws_example_key", sec),
        )
    return it


DOC_EXAMPLES = [
    ("STRIPE_SECRET_KEY", "sk_test_4eC39HqLyjWDarjtT1zdp7dc", "Stripe docs test key"),
    ("STRIPE_API_KEY", "sk_test_BQokikJOvBiI2HlWgH4olfQ2", "Stripe docs test key"),
    ("STRIPE_PUBLISHABLE_KEY", "pk_test_TYooMQauvdEDq54NiTphI7jx", "Stripe docs publishable key"),
    (
        "ACCESS_TOKEN",
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ."
        "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
        "jwt.io sample token",
    ),
    ("TOTP_SECRET", "JBSWY3DPEHPK3PXP", "TOTP example seed from the docs"),
]


@lgen(32)
def g_doc_example() -> Item:
    n, v, d = pick(DOC_EXAMPLES)  # type: ignore[misc]
    return Item(
        "doc_example",
        [cred_entry(n, L("documented_example", v), d, where=() if n == "TOTP_SECRET" else ("http",))],
        secret=False,
    )


PLACEHOLDERS = [
    ("API_KEY", "<your-api-key>"),
    ("STRIPE_SECRET_KEY", "sk_live_xxxxxxxxxxxxxxxxxxxxxxxx"),
    ("DB_PASSWORD", "changeme"),
    ("GITHUB_TOKEN", "ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"),
    ("OPENAI_API_KEY", "sk-...your-key-here..."),
    ("SLACK_BOT_TOKEN", "xoxb-your-bot-token"),
    ("AWS_SECRET_ACCESS_KEY", "YOUR_SECRET_ACCESS_KEY"),
    ("PASSWORD", "<password>"),
    ("API_TOKEN", "REPLACE_ME"),
    ("SECRET_KEY", "change-me-in-production"),
    ("ADMIN_PASSWORD", "your_password_here"),
    ("ANTHROPIC_API_KEY", "<ANTHROPIC_API_KEY>"),
    ("TOKEN", "xxxxxxxxxxxxxxxxxxxx"),
    ("SENDGRID_API_KEY", "SG.xxxxxxxx.yyyyyyyy"),
    ("JWT_SECRET", "dev-secret-do-not-use"),
    ("CLIENT_SECRET", "<client-secret>"),
    ("REDIS_PASSWORD", "redis"),
    ("DATABASE_URL", "postgres://user:password@localhost:5432/app"),
    ("MAILGUN_API_KEY", "key-XXXXXXXXXXXXXXXX"),
    ("NPM_TOKEN", "npm_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"),
    ("PASSWORD", "********"),
    ("HF_TOKEN", "hf_xxx"),
    ("VAULT_TOKEN", "root"),
    ("API_KEY", "TODO"),
    ("SECRET", "dummy"),
    ("POSTGRES_PASSWORD", "postgres"),
]


@lgen(34)
def g_placeholder() -> Item:
    n, v = pick(PLACEHOLDERS)  # type: ignore[misc]
    if v == "********":
        v = "<" + pk(["insert", "paste", "your"]) + "-token-here>"
    return Item("placeholder", [cred_entry(n, L("placeholder", v), "placeholder")], secret=False)


ENV_NAMES = [
    "DB_PASSWORD",
    "STRIPE_SECRET_KEY",
    "GITHUB_TOKEN",
    "OPENAI_API_KEY",
    "API_KEY",
    "SLACK_WEBHOOK_URL",
    "REDIS_PASSWORD",
    "AWS_SECRET_ACCESS_KEY",
    "NPM_TOKEN",
    "SENTRY_AUTH_TOKEN",
    "JWT_SECRET",
    "DATABASE_URL",
]


@lgen(34)
def g_env_ref() -> Item:
    n = pk(ENV_NAMES)
    v = pk([f"${{{n}}}", f"${n}", f"${{{n}:?missing}}", f"${{{n}:-}}", f"%{n}%", f"$env:{n}"])
    it = Item(
        "env_ref",
        [
            cred_entry(
                pk([n, n, "PASSWORD", "TOKEN"]), L("env_reference", v), "environment reference", where=("http", "npmrc")
            )
        ],
        secret=False,
    )
    low = n.lower()
    it.forms["python"] = cat(
        f"{low} = ", L("env_reference", pk([f'os.environ["{n}"]', f'os.getenv("{n}")', f"os.environ.get('{n}', '')"]))
    )
    it.forms["javascript"] = cat(f"const {low} = ", L("env_reference", f"process.env.{n}"), ";")
    it.forms["typescript"] = cat(f"const {low}: string = ", L("env_reference", f"process.env.{n}"), ' ?? "";')
    it.forms["go"] = cat(f"{low} := ", L("env_reference", f'os.Getenv("{n}")'))
    it.forms["java"] = cat(f"String {low} = ", L("env_reference", f'System.getenv("{n}")'), ";")
    it.forms["csharp"] = cat(f"var {low} = ", L("env_reference", f'Environment.GetEnvironmentVariable("{n}")'), ";")
    it.forms["ruby"] = cat(f"{low} = ", L("env_reference", pk([f'ENV.fetch("{n}")', f'ENV["{n}"]'])))
    it.forms["php"] = cat(f"${low} = ", L("env_reference", f"getenv('{n}')"), ";")
    it.forms["rust"] = cat(f"let {low} = ", L("env_reference", f'std::env::var("{n}")'), "?;")
    it.forms["powershell"] = cat(f"${low} = ", L("env_reference", f"$env:{n}"))
    return it


@lgen(34)
def g_template_ref() -> Item:
    n = pk(ENV_NAMES)
    low = n.lower()
    v = pk(
        [
            f"${{{{ secrets.{n} }}}}",
            f"{{{{ .Values.secrets.{low} }}}}",
            f"{{{{ vault_{low} }}}}",
            f"${{var.{low}}}",
            f"%({low})s",
            f"<%= ENV['{n}'] %>",
            f"{{{{ {low} | default('') }}}}",
            f"#{{{n}}}",
        ]
    )
    it = Item(
        "template_ref",
        [
            cred_entry(
                pk([n, "TOKEN", "PASSWORD", "API_KEY"]),
                L("template_reference", v),
                "template reference",
                where=("http",),
            )
        ],
        secret=False,
    )
    it.forms["github_actions"] = cat(f"{n}: ", L("template_reference", f"${{{{ secrets.{n} }}}}"))
    it.forms["terraform"] = cat(f"  {low} = ", L("template_reference", f"var.{low}"))
    return it


@lgen(33)
def g_sm_ref() -> Item:
    p = proj()
    v = pk(
        [
            f"op://{pk(['Engineering', 'Private', 'Shared'])}/{p}/{pk(['credential', 'password', 'api-key'])}",
            f"vault:secret/data/{p}#{pk(['api_key', 'password', 'token'])}",
            f"{{{{resolve:secretsmanager:prod/{p}:SecretString:{pk(['password', 'apiKey'])}}}}}",
            f"@Microsoft.KeyVault(SecretUri=https://{p}-kv.vault.azure.net/secrets/{pk(['db-password', 'stripe-key'])}/)",
            f"projects/{p}-prod/secrets/{pk(['db-password', 'api-key'])}/versions/latest",
            f"ssm:/prod/{p}/{pk(['db_password', 'stripe_key'])}",
            f"sm://{p}-prod/{pk(['api-key', 'jwt-secret'])}",
            f"akv://{p}-kv/{pk(['sql-admin', 'openai-key'])}",
        ]
    )
    return Item(
        "sm_ref",
        [cred_entry(pk(ENV_NAMES), L("secret_manager_reference", v), "secret-manager reference", where=())],
        secret=False,
    )


@lgen(33)
def g_masked() -> Item:
    v = pk(
        [
            "****",
            "********",
            "[REDACTED]",
            "<redacted>",
            "••••••••••••",
            "sk_live_••••••••••••" + rs(ALNUM, 4),
            "ghp_…" + rs(ALNUM, 4),
            "AKIA************" + rs(UPNUM, 4),
            "xxxx-xxxx-xxxx-" + rdig(4),
            "***REMOVED***",
            "(hidden)",
            "sk-…" + rs(ALNUM, 4),
            "[FILTERED]",
        ]
    )
    return Item(
        "masked",
        [cred_entry(pk([*ENV_NAMES, "PASSWORD"]), L("masked_value", v), "masked value", where=("http", "netrc"))],
        secret=False,
    )


@lgen(32)
def g_encrypted() -> Item:
    r_ = R.random()
    if r_ < 0.5:
        n = R.randint(16, 60)
        v = f"ENC[AES256_GCM,data:{b64(rbytes(n))},iv:{b64(rbytes(32))},tag:{b64(rbytes(16))},type:str]"
    elif r_ < 0.75:
        v = "AgB" + b64(rbytes(R.randint(180, 300)))
    else:
        v = "{AQAAABAAAAAQ" + b64(rbytes(R.randint(32, 64))) + "}"
    return Item(
        "encrypted",
        [cred_entry(pk([*ENV_NAMES, "PASSWORD"]), L("encrypted_value", v), "encrypted value", where=())],
        secret=False,
    )


@lgen(32)
def g_data_uri() -> Item:
    r_ = R.random()
    if r_ < 0.45:
        v = "data:image/png;base64," + b64(png_bytes(R.randint(1, 3), R.randint(1, 3)))
    elif r_ < 0.65:
        svg = f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="{R.randint(3, 7)}" fill="#{rhex(6)}"/></svg>'
        v = "data:image/svg+xml;base64," + b64(svg.encode())
    elif r_ < 0.8:
        v = "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"
    else:
        v = "data:font/woff2;base64," + b64(b"wOF2\x00\x01\x00\x00" + rbytes(R.randint(60, 120)))
    it = lone("data_uri", "data_uri", v, ["LOGO_DATA_URI", "FAVICON", "PLACEHOLDER_IMAGE", "ICON_FONT"], "data URI")
    it.forms["html"] = cat('<img src="', L("data_uri", v), f'" alt="{pk(["logo", "spinner", "avatar"])}" width="16">')
    return it


@lgen(32)
def g_b64_text() -> Item:
    t = pk(
        [
            "hello from the staging cluster",
            '{"env":"prod","region":"eu-central-1","replicas":3}',
            "Welcome to Pantry! Your order is on the way.",
            "user-agent smoke test 2025",
            "#!/bin/sh\necho ready\n",
            "Lorem ipsum dolor sit amet, consectetur adipiscing elit.",
            "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: demo\n",
            '{"alg":"none"}',
            "build=green; tests=412; skipped=3",
        ]
    )
    return lone(
        "b64_text",
        "base64_text",
        b64(t.encode()),
        ["BANNER_B64", "WELCOME_MESSAGE_B64", "PAYLOAD", "USER_DATA", "CLOUD_INIT_B64"],
        "encoded payload",
    )


def long_ident() -> str:
    parts = [
        "abstract",
        "singleton",
        "proxy",
        "factory",
        "bean",
        "payment",
        "webhook",
        "signature",
        "verification",
        "handler",
        "retry",
        "policy",
        "invoice",
        "reconciliation",
        "service",
        "impl",
        "customer",
        "subscription",
        "renewal",
        "scheduler",
        "event",
        "dispatcher",
        "adapter",
        "repository",
        "cache",
        "warmup",
        "listener",
        "configuration",
        "provider",
        "resolver",
    ]
    ws = [pk(parts) for _ in range(R.randint(4, 8))]
    st = pk(["pascal", "camel", "snake", "dotted", "test"])
    if st == "pascal":
        return "".join(w.capitalize() for w in ws)
    if st == "camel":
        return ws[0] + "".join(w.capitalize() for w in ws[1:])
    if st == "snake":
        return "_".join(ws)
    if st == "dotted":
        return (
            "com." + pk(["acme", "kestrel", "orchard"]) + "." + ".".join(ws[:-1]) + "." + ws[-1].capitalize() + "Impl"
        )
    return "test_" + "_".join(ws) + "_" + pk(["succeeds", "raises", "is_idempotent", "handles_timeout"])


@lgen(32)
def g_long_ident() -> Item:
    return lone(
        "long_ident",
        "long_identifier",
        long_ident(),
        ["HANDLER_CLASS", "ENTRYPOINT", "TEST_NAME", "BEAN_NAME", "JOB_CLASS"],
        "handler",
    )


@lgen(32)
def g_path() -> Item:
    u = pk(["ana", "jonas", "priya", "kenji"])
    v = pk(
        [
            "/var/lib/postgresql/16/main/pg_wal",
            f"C:\\Users\\{u}\\AppData\\Roaming\\npm\\node_modules",
            f"/home/{u}/.config/gcloud/configurations/config_default",
            "/etc/ssl/private/" + proj() + ".key",
            f"/Users/{u}/Library/Application Support/Code/User/settings.json",
            "/opt/" + proj() + "/releases/2025-03-14T101500Z",
            f"D:\\builds\\{proj()}\\bin\\Release\\net8.0\\publish",
            "/run/secrets/" + pk(["db_password", "stripe_key"]),
            "~/.aws/credentials",
            "/usr/local/share/ca-certificates/corp-root.crt",
            f"/mnt/data/{proj()}/exports/{rhex(8)}.parquet",
        ]
    )
    return lone(
        "path",
        "file_path",
        v,
        ["KEY_FILE", "DATA_DIR", "CERT_PATH", "LOG_PATH", "CREDENTIALS_FILE", "SECRETS_PATH"],
        "file path",
    )


@lgen(32)
def g_url() -> Item:
    v = pk(
        [
            f"https://docs.{dom()}/api/v2/invoices?page={R.randint(2, 9)}&per_page=50&sort=-created_at",
            f"https://{proj()}.{dom()}/auth/callback",
            f"https://status.{dom()}/incidents/{rs(LOWNUM, 12)}",
            f"https://grafana.{dom()}/d/{rs(ALNUM, 9)}/latency?orgId=1&from=now-6h&to=now",
            f"https://github.com/{proj()}/{proj()}/pull/{R.randint(10, 4000)}/files",
            f"https://api.{dom()}/healthz",
            f"https://console.aws.amazon.com/cloudwatch/home?region={pk(REGIONS)}#logsV2:log-groups",
        ]
    )
    return lone(
        "url",
        "url",
        v,
        ["CALLBACK_URL", "DOCS_URL", "HEALTHCHECK_URL", "DASHBOARD_URL", "BASE_URL", "STATUS_PAGE"],
        "URL",
    )


@lgen(32)
def g_bucket() -> Item:
    v = (
        f"{proj()}-{pk(['prod', 'staging', 'dev'])}-{pk(['artifacts', 'logs', 'backups', 'uploads'])}-{pk(REGIONS)}"
        + pk(["", "-" + rdig(12)])
    )
    it = Item(
        "bucket",
        [Entry(pk(["S3_BUCKET", "ARTIFACT_BUCKET", "BACKUP_BUCKET", "LOG_BUCKET"]), L("s3_bucket", v), "S3 bucket")],
        secret=False,
    )
    it.cli = [cat("aws s3 cp ./dist s3://", L("s3_bucket", v), "/releases/ --recursive")]
    return it


@lgen(32)
def g_arn() -> Item:
    acct, reg, p = rdig(12), pk(REGIONS), proj()
    v = pk(
        [
            f"arn:aws:iam::{acct}:role/{p}-github-deploy",
            f"arn:aws:secretsmanager:{reg}:{acct}:secret:prod/{p}/db-{rs(ALNUM, 6)}",
            f"arn:aws:kms:{reg}:{acct}:key/{uuid4()}",
            f"arn:aws:lambda:{reg}:{acct}:function:{p}-worker",
            f"arn:aws:sns:{reg}:{acct}:{p}-alerts",
            f"arn:aws:s3:::{p}-uploads/*",
        ]
    )
    return lone("arn", "arn", v, ["ROLE_ARN", "SECRET_ARN", "KMS_KEY_ARN", "TOPIC_ARN", "FUNCTION_ARN"], "ARN")


@lgen(32)
def g_k8s_name() -> Item:
    v = pk(
        [
            f"{proj()}-{rs('bcdfghjklmnpqrstvwxz2456789', 10)}-{rs('bcdfghjklmnpqrstvwxz2456789', 5)}",
            f"{proj()}-{pk(['redis-master', 'postgresql', 'worker'])}-{R.randint(0, 3)}",
            f"ingress-nginx-controller-{rs('bcdfghjklmnpqrstvwxz2456789', 10)}-{rs('bcdfghjklmnpqrstvwxz2456789', 5)}",
            f"cert-manager-webhook-{rs('bcdfghjklmnpqrstvwxz2456789', 9)}-{rs('bcdfghjklmnpqrstvwxz2456789', 5)}",
        ]
    )
    it = lone("k8s_name", "k8s_resource_name", v, ["POD_NAME", "POD", "HOSTNAME"], "pod name")
    it.cli = [cat("kubectl logs -n " + proj() + " ", L("k8s_resource_name", v), " --since=1h | grep -i error")]
    return it


@lgen(33)
def g_ssh_pub() -> Item:
    if chance(0.7):
        blob = ssh_pub_blob_ed(ed_pub(rbytes(32)))
        v = "ssh-ed25519 " + b64(blob)
    else:
        blob = ssh_pub_blob_ec(p256_keypair()[1])
        v = "ecdsa-sha2-nistp256 " + b64(blob)
    fr = cat(L("ssh_public_key", v), f" {pk(USERS)}@{pk(['laptop', 'mbp', 'ci', 'bastion', 'nas'])}")
    it = Item(
        "ssh_pub",
        [Entry(pk(["SSH_PUBLIC_KEY", "AUTHORIZED_KEY", "DEPLOY_KEY_PUB", "SSH_PUBKEY"]), fr, "SSH public key")],
        secret=False,
    )
    it.forms["authorized_keys"] = fr
    return it


@lgen(32)
def g_cert() -> Item:
    text, _ = self_signed_cert(
        pk(["api.", "internal-ca.", "grafana.", "vpn."]) + dom(),
        pk(["Acme GmbH", "Kestrel Labs", "Orchard Ltd", "Pantry SAS"]),
    )
    return Item(
        "cert",
        [
            Entry(
                pk(["CA_CERT", "TLS_CERT", "ROOT_CA", "SERVER_CERT"]),
                L("certificate_pem", text),
                "certificate",
                pem=True,
            )
        ],
        secret=False,
    )


@lgen(32)
def g_pgp_pub() -> Item:
    person = pk(["Ana Costa", "Jonas Keller", "Release Bot", "Priya Nair", "Security Team"])
    _, pub, _ = pgp_key(f"{person} <{person.split()[0].lower()}@{dom()}>", R.randint(1600000000, 1760000000))
    return Item(
        "pgp_pub",
        [
            Entry(
                pk(["GPG_PUBLIC_KEY", "PGP_PUBLIC_KEY", "RELEASE_SIGNING_PUBKEY"]),
                L("pgp_public_key", pub),
                "PGP public key",
                pem=True,
            )
        ],
        secret=False,
    )


@lgen(32)
def g_pubkey_pem() -> Item:
    text = (
        pem("PUBLIC KEY", ec_spki(p256_keypair()[1]))
        if chance(0.6)
        else pem("PUBLIC KEY", ed25519_spki(ed_pub(rbytes(32))))
    )
    return Item(
        "pubkey_pem",
        [
            Entry(
                pk(["JWT_PUBLIC_KEY", "WEBHOOK_VERIFY_KEY", "LICENSE_PUBLIC_KEY", "PUBLIC_KEY"]),
                L("public_key_pem", text),
                "public key",
                pem=True,
            )
        ],
        secret=False,
    )


@lgen(32)
def g_fingerprint() -> Item:
    r_ = R.random()
    if r_ < 0.45:
        v = ssh_fingerprint(ssh_pub_blob_ed(ed_pub(rbytes(32))))
    elif r_ < 0.8:
        f = rhex(40).upper()
        v = " ".join(f[i : i + 4] for i in range(0, 40, 4)) if chance(0.4) else f
    else:
        v = ":".join(rhex(2) for _ in range(16))
    return lone(
        "fingerprint",
        "key_fingerprint",
        v,
        ["GPG_FINGERPRINT", "SSH_HOST_KEY_FP", "SIGNING_KEY_FINGERPRINT", "KEY_FINGERPRINT"],
        "key fingerprint",
    )


@lgen(32)
def g_age_rec() -> Item:
    _, rec = age_keypair()
    it = lone(
        "age_rec", "age_recipient", rec, ["SOPS_AGE_RECIPIENTS", "AGE_RECIPIENT", "AGE_PUBLIC_KEY"], "age recipient"
    )
    it.forms["yaml"] = cat("creation_rules:\n  - path_regex: secrets/.*\\.yaml$\n    age: ", L("age_recipient", rec))
    return it


@lgen(32)
def g_iban() -> Item:
    v = iban()
    if chance(0.4):
        v = " ".join(v[i : i + 4] for i in range(0, len(v), 4))
    return lone("iban", "iban", v, ["IBAN", "PAYOUT_IBAN", "REFUND_IBAN", "SEPA_IBAN"], "IBAN")


@lgen(32)
def g_phone() -> Item:
    v = pk(
        [
            f"+49 30 {rdig(8)}",
            f"+1 ({R.randint(201, 989)}) 555-01{rdig(2)}",
            f"+33 {R.randint(1, 9)} {rdig(2)} {rdig(2)} {rdig(2)} {rdig(2)}",
            f"+44 20 {rdig(4)} {rdig(4)}",
            f"+81 3-{rdig(4)}-{rdig(4)}",
            f"+34 9{rdig(2)} {rdig(3)} {rdig(3)}",
            f"+1{R.randint(201, 989)}555{rdig(4)}",
            f"+48 {rdig(3)} {rdig(3)} {rdig(3)}",
            f"+86 10 {rdig(4)} {rdig(4)}",
        ]
    )
    return lone(
        "phone",
        "phone_number",
        v,
        ["SUPPORT_PHONE", "ONCALL_PHONE", "TWILIO_FROM_NUMBER", "SMS_SENDER"],
        "phone number",
    )


@lgen(32)
def g_isbn() -> Item:
    return lone("isbn", "isbn", isbn13(), ["ISBN", "BOOK_ISBN"], "ISBN")


@lgen(32)
def g_color() -> Item:
    v = pk([f"#{rhex(6)}", f"#{rhex(6).upper()}", f"#{rhex(3)}", f"#{rhex(8)}"])
    return lone("color", "hex_color", v, ["PRIMARY_COLOR", "BRAND_COLOR", "ACCENT_COLOR", "THEME_BG"], "colour")


@lgen(33)
def g_request_id() -> Item:
    r_ = R.random()
    if r_ < 0.35:
        v, h = "req_" + rs(ALNUM, 14), "Request-Id"
    elif r_ < 0.6:
        v, h = rs(UPNUM, 16), "x-amz-request-id"
    elif r_ < 0.8:
        v, h = rhex(16) + "-" + pk(["FRA", "AMS", "CDG", "IAD", "NRT"]), "cf-ray"
    else:
        v, h = rs(ALNUM, 20) + "==", "x-ms-request-id"
    it = lone("request_id", "request_id", v, ["REQUEST_ID", "LAST_REQUEST_ID", "FAILED_REQUEST"], "request id")
    it.forms["http_response"] = cat(f"{h}: ", L("request_id", v))
    return it


@lgen(32)
def g_trace_id() -> Item:
    r_ = R.random()
    if r_ < 0.4:
        v = f"00-{rhex(32)}-{rhex(16)}-01"
        n = "TRACEPARENT"
    elif r_ < 0.7:
        v, n = rhex(32), "TRACE_ID"
    elif r_ < 0.85:
        v, n = f"Root=1-{rhex(8)}-{rhex(24)}", "X_AMZN_TRACE_ID"
    else:
        v, n = rdig(19), "DD_TRACE_ID"
    return lone("trace_id", "trace_id", v, [n], "trace id")


@lgen(32)
def g_build() -> Item:
    v = pk(
        [
            str(R.randint(100, 9999)),
            str(R.randint(10**9, 2 * 10**10)),
            f"{R.randint(2023, 2025)}.{R.randint(1, 12)}.{R.randint(1, 28)}.{R.randint(1, 40)}",
        ]
    )
    return lone(
        "build",
        "build_number",
        v,
        ["BUILD_NUMBER", "GITHUB_RUN_ID", "CI_PIPELINE_ID", "BUILD_ID", "BUILDKITE_BUILD_NUMBER"],
        "build number",
    )


@lgen(32)
def g_slug() -> Item:
    r_ = R.random()
    if r_ < 0.3:
        s = rs(B64URL, 11)
        fr = cat("https://www.youtube.com/watch?v=", L("url_slug_id", s), pk(["", "&t=42s"]))
    elif r_ < 0.6:
        s = "1" + rs(B64URL, 43)
        fr = cat(
            f"https://docs.google.com/{pk(['document', 'spreadsheets', 'presentation'])}/d/",
            L("url_slug_id", s),
            "/edit" + pk(["", "#heading=h.x1", "?usp=sharing"]),
        )
    elif r_ < 0.8:
        s = rs(ALNUM, 22)
        fr = cat(
            f"https://www.figma.com/{pk(['file', 'design'])}/",
            L("url_slug_id", s),
            f"/{pk(['Design-System', 'Checkout-v3', 'Onboarding'])}?node-id=12-{R.randint(100, 999)}",
        )
    else:
        s = rhex(32)
        fr = cat(f"https://www.notion.so/{proj()}/{pk(['Runbook', 'Postmortem', 'Roadmap'])}-", L("url_slug_id", s))
    return Item(
        "slug", [Entry(pk(["DEMO_VIDEO", "SPEC_DOC", "DESIGN_FILE", "RUNBOOK_URL"]), fr, "shared link")], secret=False
    )


@lgen(32)
def g_crypto() -> Item:
    return lone(
        "crypto",
        "crypto_address",
        btc_address(),
        ["BTC_DONATION_ADDRESS", "PAYOUT_ADDRESS", "TIP_JAR", "COLD_WALLET_ADDRESS"],
        "bitcoin address",
    )


@lgen(33)
def g_account() -> Item:
    v, n = pick(
        [
            (rdig(12), "AWS_ACCOUNT_ID"),
            ("acct_" + rs(ALNUM, 16), "STRIPE_ACCOUNT"),
            ("T0" + rs(UPNUM, 8), "SLACK_TEAM_ID"),
            (rdig(12), "GCP_PROJECT_NUMBER"),
            ("AC" + rhex(32), "TWILIO_ACCOUNT_SID"),
            (rdig(10), "PADDLE_VENDOR_ID"),
        ]
    )  # type: ignore[misc]
    return lone("account", "account_identifier", v, [n], "account id")


@lgen(32)
def g_site_key() -> Item:
    r_ = R.random()
    if r_ < 0.4:
        v = "pk." + b64u(cjson({"u": pk(USERS).replace(".", ""), "a": rs(LOWNUM, 25)}).encode()) + "." + rs(B64URL, 22)
        n = pk(["NEXT_PUBLIC_MAPBOX_TOKEN", "MAPBOX_ACCESS_TOKEN", "VITE_MAPBOX_TOKEN"])
    elif r_ < 0.7:
        v, n = "6L" + rs(B64URL, 38), pk(["RECAPTCHA_SITE_KEY", "NEXT_PUBLIC_RECAPTCHA_SITE_KEY"])
    else:
        v, n = "0x4AAAAAAA" + rs(B64URL, 14), pk(["TURNSTILE_SITE_KEY", "NEXT_PUBLIC_TURNSTILE_SITEKEY"])
    return lone("site_key", "public_site_key", v, [n], "site key")


@lgen(32)
def g_ulid() -> Item:
    return lone("ulid", "ulid", ulid(), ["EVENT_ID", "JOB_ID", "IDEMPOTENCY_KEY", "MESSAGE_ID"], "ULID")


DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


@lgen(32)
def g_datetime() -> Item:
    ts = R.randint(1690000000, 1770000000)
    tm = time.gmtime(ts)
    v = pk(
        [
            time.strftime("%Y-%m-%dT%H:%M:%SZ", tm),
            time.strftime("%Y-%m-%dT%H:%M:%S", tm) + f".{rdig(3)}+00:00",
            str(ts),
            str(ts * 1000 + R.randint(0, 999)),
            f"{DAYS[tm.tm_wday]}, {tm.tm_mday:02d} {MONTHS[tm.tm_mon - 1]} {tm.tm_year} {tm.tm_hour:02d}:{tm.tm_min:02d}:{tm.tm_sec:02d} GMT",
        ]
    )
    return lone(
        "datetime",
        "date_time",
        v,
        ["LAST_ROTATED", "EXPIRES_AT", "CREATED_AT", "NOT_AFTER", "LAST_DEPLOY"],
        "timestamp",
    )


@lgen(32)
def g_key_id() -> Item:
    v, n = pick(
        [
            (rhex(40), "PRIVATE_KEY_ID"),
            ("mrk-" + rhex(32), "KMS_KEY_ID"),
            (rs(B64URL, 43), "JWT_KID"),
            (rhex(32), "KEY_VAULT_KEY_VERSION"),
            (rhex(16).upper(), "GPG_KEY_ID"),
        ]
    )  # type: ignore[misc]
    return lone("key_id", "key_identifier", v, [n], "key id")


# --------------------------------------------------------------------------
# carriers: render a document's main block in one context
# --------------------------------------------------------------------------


def sname(name: str, style: str) -> str:
    if name.upper() != name:
        return name
    parts = [p for p in name.lower().split("_") if p]
    if style == "upper":
        return name
    if style == "snake":
        return "_".join(parts)
    if style == "camel":
        return parts[0] + "".join(p.capitalize() for p in parts[1:])
    if style == "pascal":
        return "".join(p.capitalize() for p in parts)
    if style == "dotted":
        return ".".join(parts)
    return "-".join(parts)


def q_dq(v: Frag) -> Frag:
    return cat('"', fmap(v, esc_dq), '"')


def q_sq(v: Frag) -> Frag:
    return cat("'", fmap(v, lambda t: t.replace("\\", "\\\\").replace("'", "\\'")), "'")


def sh_quote(v: Frag) -> Frag:
    p = plain(v)
    if "\n" in p:
        return cat("'", v, "'")
    if "'" not in p and (chance(0.5) or any(c in p for c in '$`"\\!')):
        return cat("'", v, "'")
    if not any(c in p for c in " '\"$`\\!&|;<>()*?#~{}[]=") and chance(0.5):
        return v
    return cat(
        '"', fmap(v, lambda t: t.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$").replace("`", "\\`")), '"'
    )


def env_val(v: Frag) -> Frag:
    p = plain(v)
    if "\n" in p:
        return cat('"', fmap(v, esc_nl), '"') if chance(0.6) or '"' in p else cat('"', v, '"')
    if any(c in p for c in " #'\"$`\\;&|<>(){}"):
        return cat("'", v, "'") if "'" not in p else q_dq(v)
    r_ = R.random()
    if r_ < 0.6:
        return v
    return q_dq(v) if r_ < 0.85 else cat("'", v, "'")


def yaml_val(v: Frag, ind: str) -> Frag:
    p = plain(v)
    if "\n" in p:
        return cat(pk(["|", "|", "|-"]) + "\n" + ind + "  ", fmap(v, indent_fn(ind + "  ")))
    safe = (
        p
        and p[0] not in "!&*%@`'\"{[>|#?-,:=<~"
        and ": " not in p
        and " #" not in p
        and not p.endswith(":")
        and p.strip() == p
        and p.lower() not in ("yes", "no", "true", "false", "null", "on", "off")
    )
    if safe and chance(0.6):
        return v
    if "'" not in p and chance(0.4):
        return cat("'", v, "'")
    return q_dq(v)


def comment_line(prefix: str, lang: str, suffix: str = "") -> str:
    return f"{prefix} {comment_text(lang)}{suffix}"


def render_seq(
    ctx: str,
    seq: list[Item],
    line: Callable[[Entry], Frag],
    *,
    cli_ok: bool = False,
    form_p: float = 0.75,
    cmt: str = "",
    lang: str = "en",
) -> list[Frag]:
    out: list[Frag] = []
    for it in seq:
        if cmt and chance(0.22):
            out.append(T(comment_line(cmt, lang)))
        if ctx in it.forms and chance(form_p):
            out.append(it.forms[ctx])
            continue
        if cli_ok and it.cli and chance(0.45):
            out.append(pick(it.cli))  # type: ignore[arg-type]
            continue
        for e in it.entries:
            out.append(line(e))
    return out


# ---- config files ----


def c_env(seq: list[Item], lang: str) -> Frag:
    exp = chance(0.12)

    def line(e: Entry) -> Frag:
        sep = "=" if chance(0.88) else pk([" = ", "= ", " ="])
        return cat("export " if exp else "", e.name, sep, env_val(e.frag))

    head = [T(comment_line("#", lang))] if chance(0.5) else []
    return join(head + render_seq("env", seq, line, cmt="#", lang=lang), "\n")


def c_shell(seq: list[Item], lang: str) -> Frag:
    def line(e: Entry) -> Frag:
        if e.http and chance(0.35) and not has_nl(e.frag):
            h, pre, url = e.http
            return cat(
                f'curl -fsS -H "{h}: {pre}',
                fmap(e.frag, lambda t: t.replace('"', '\\"')),
                f'" "{url or "https://api." + dom() + "/"}"',
            )
        r_ = R.random()
        if r_ < 0.12 and not has_nl(e.frag):
            return cat(
                f"docker run --rm -e {e.name}=",
                sh_quote(e.frag),
                f" ghcr.io/{proj()}/{pk(['worker', 'api', 'cli'])}:latest",
            )
        if r_ < 0.22 and not has_nl(e.frag):
            flag = sname(e.name, "kebab").split("-")
            return cat(f"./bin/{proj()} --{'-'.join(flag[-2:])}=", sh_quote(e.frag))
        return cat(pk(["export ", "export ", ""]), e.name, "=", sh_quote(e.frag))

    head = [
        T(
            pk(
                [
                    "#!/usr/bin/env bash\nset -euo pipefail",
                    "#!/bin/sh",
                    "# " + comment_text(lang),
                    "$ history | tail",
                    "",
                ]
            )
        )
    ]
    lines = render_seq("shell", seq, line, cli_ok=True, cmt="#", lang=lang)
    if chance(0.3):
        lines.append(
            T(
                pk(
                    [
                        "./scripts/deploy.sh --env prod",
                        "make migrate",
                        "docker compose up -d",
                        "kubectl rollout status deploy/" + proj(),
                    ]
                )
            )
        )
    return join([h for h in head if h] + lines, "\n")


def c_yaml(seq: list[Item], lang: str) -> Frag:
    top = pk(["app", "config", "settings", "production", "services", "integrations", "env"])
    style = pk(["snake", "snake", "upper", "camel"])
    ind = "  "

    def line(e: Entry) -> Frag:
        return cat(f"{ind}{sname(e.name, style)}:" + (" " if chance(0.9) else pk(["   ", "  "])), yaml_val(e.frag, ind))

    body = render_seq("yaml", seq, line, form_p=0.5, cmt=ind + "#", lang=lang)
    out: list[Frag] = []
    tail: list[Frag] = []
    for b in body:
        if plain(b).startswith("---\n") or plain(b).startswith("creation_rules"):
            tail.append(b)
        elif plain(b).startswith(ind):
            out.append(b)
        else:
            out.append(indent_all(b, ind))
    head = [T(f"{top}:"), *out] if out else []
    return join(head + tail, "\n")


def c_json(seq: list[Item], lang: str) -> Frag:
    style = pk(["camel", "snake", "upper"])
    nested = chance(0.5)
    ind = "    " if nested else "  "
    real = [it for it in seq if it.gen != "filler"]
    if len(real) == 1 and "json" in real[0].forms and chance(0.7):
        return real[0].forms["json"]  # the whole file is the item's own JSON document
    lines: list[Frag] = []
    for it in seq:
        for e in it.entries:
            lines.append(cat(f'{ind}"{sname(e.name, style)}": "', fmap(e.frag, esc_json), '"'))
    body = join(lines, ",\n")
    if nested:
        return cat('{\n  "' + pk(["env", "config", "secrets", "settings", "credentials"]) + '": {\n', body, "\n  }\n}")
    return cat("{\n", body, "\n}")


def c_toml(seq: list[Item], lang: str) -> Frag:
    def line(e: Entry) -> Frag:
        n = sname(e.name, "snake")
        if has_nl(e.frag):
            if "\\" not in plain(e.frag) and chance(0.6):
                return cat(f'{n} = """\n', e.frag, '"""')
            return cat(f"{n} = ", q_dq(e.frag))
        if "'" not in plain(e.frag) and chance(0.25):
            return cat(f"{n} = '", e.frag, "'")
        return cat(f"{n} = ", q_dq(e.frag))

    sec = pk(["[default]", "[production]", "[tool.app]", "[secrets]", f"[services.{proj()}]", "[database]"])
    return join([T(sec), *render_seq("toml", seq, line, form_p=0.6, cmt="#", lang=lang)], "\n")


def c_ini(seq: list[Item], lang: str) -> Frag:
    def line(e: Entry) -> Frag:
        return cat(sname(e.name, "snake"), pk([" = ", "=", " = ", "  =  ", ": ", " =", "= "]), e.frag)

    out: list[Frag] = []
    plain_lines: list[Frag] = []
    for it in seq:
        if "ini" in it.forms and chance(0.75):
            out.append(it.forms["ini"])
        else:
            plain_lines.extend(line(e) for e in it.entries)
    if plain_lines:
        out.insert(0, join([T(pk(["[app]", "[main]", "[credentials]", f"[{proj()}]"])), *plain_lines], "\n"))
    return join(out, "\n\n")


def c_properties(seq: list[Item], lang: str) -> Frag:
    def line(e: Entry) -> Frag:
        sep = pk(["=", "=", ": ", " = "])
        return cat(sname(e.name, "dotted"), sep, fmap(e.frag, esc_nl))

    return join(render_seq("properties", seq, line, cmt="#", lang=lang), "\n")


def c_xml(seq: list[Item], lang: str) -> Frag:
    style = pk(["appsettings", "elements", "maven"])
    lines: list[Frag] = []
    for it in seq:
        for e in it.entries:
            v = fmap(e.frag, esc_xml)
            if style == "appsettings" and not has_nl(e.frag):
                lines.append(cat(f'    <add key="{sname(e.name, "pascal")}" value="', v, '" />'))
            elif style == "maven" and not has_nl(e.frag):
                lines.append(
                    cat(
                        f"    <server>\n      <id>{sname(e.name, 'kebab')}</id>\n      <username>{pk(USERS)}</username>\n      <password>",
                        v,
                        "</password>\n    </server>",
                    )
                )
            else:
                tag = sname(e.name, "camel")
                lines.append(cat(f"    <{tag}>", v, f"</{tag}>"))
    if style == "appsettings":
        return cat(
            '<?xml version="1.0" encoding="utf-8"?>\n<configuration>\n  <appSettings>\n',
            join(lines, "\n"),
            "\n  </appSettings>\n</configuration>",
        )
    if style == "maven":
        return cat("<settings>\n  <servers>\n", join(lines, "\n"), "\n  </servers>\n</settings>")
    root = pk(["config", "settings", "credentials"])
    return cat(f"<{root}>\n", join(lines, "\n"), f"\n</{root}>")


def c_systemd(seq: list[Item], lang: str) -> Frag:
    def line(e: Entry) -> Frag:
        v = fmap(e.frag, esc_nl)
        if chance(0.5) or " " in plain(v):
            return cat('Environment="', e.name, "=", fmap(v, lambda t: t.replace('"', '\\"')), '"')
        return cat("Environment=", e.name, "=", v)

    p = proj()
    return cat(
        f"[Unit]\nDescription={p} worker\nAfter=network-online.target\n\n[Service]\nUser={p}\n",
        join(render_seq("systemd", seq, line), "\n"),
        f"\nExecStart=/opt/{p}/bin/{p} serve\nRestart=on-failure\n\n[Install]\nWantedBy=multi-user.target",
    )


def c_csv(seq: list[Item], lang: str) -> Frag:
    rows: list[Frag] = [T(pk(["service,env,name,value,owner", "system,key,secret,rotated_by", "name,value,notes"]))]
    hdr = plain(rows[0]).split(",")

    def cell(v: Frag) -> Frag:
        p = plain(v)
        if any(c in p for c in ',"\n') or chance(0.2):
            return cat('"', fmap(v, lambda t: t.replace('"', '""')), '"')
        return v

    for it in seq:
        for e in it.entries:
            if len(hdr) == 5:
                rows.append(
                    cat(
                        f"{(e.desc or e.name).split()[0].lower()},{pk(['prod', 'staging', 'dev'])},{e.name},",
                        cell(e.frag),
                        f",{pk(USERS)}",
                    )
                )
            elif len(hdr) == 4:
                rows.append(cat(f"{(e.desc or 'misc').split()[0].lower()},{e.name},", cell(e.frag), f",{pk(USERS)}"))
            else:
                rows.append(cat(f"{e.name},", cell(e.frag), f",{pk(['ok', 'rotate soon', 'legacy', ''])}"))
    return join(rows, "\n")


def c_makefile(seq: list[Item], lang: str) -> Frag:
    def line(e: Entry) -> Frag:
        return cat(pk(["export ", "", ""]), e.name, pk([" := ", " ?= ", " = "]), e.frag)

    vars_ = render_seq("makefile", [it for it in seq if not it.cli or chance(0.5)], line, cmt="#", lang=lang)
    recipes = [pick(it.cli) for it in seq if it.cli and not has_nl(pick(it.cli))]  # type: ignore[arg-type]
    body = join(vars_, "\n")
    if recipes:
        body = cat(body, "\n\ndeploy:\n", join([cat("\t", r) for r in recipes], "\n"))  # type: ignore[list-item]
    else:
        body = cat(body, "\n\n.PHONY: deploy\ndeploy:\n\t./scripts/deploy.sh")
    return body


def c_crontab(seq: list[Item], lang: str) -> Frag:
    def line(e: Entry) -> Frag:
        return cat(e.name, "=", e.frag)

    envs = render_seq("crontab", seq, line)
    jobs = [
        T(f"*/{R.randint(5, 30)} * * * * /opt/{proj()}/bin/sync >> /var/log/{proj()}-sync.log 2>&1"),
        T(f"0 {R.randint(1, 5)} * * * /usr/local/bin/backup.sh"),
    ]
    return join([T("SHELL=/bin/bash"), *envs, *jobs], "\n")


# ---- code ----


def http_call(ctx: str, e: Entry) -> Frag | None:
    if not e.http or has_nl(e.frag):
        return None
    h, pre, url = e.http
    url = url or f"https://api.{dom()}/v1/status"
    v = fmap(e.frag, esc_dq)
    if ctx == "python":
        return cat(f'resp = requests.get("{url}", headers={{"{h}": "{pre}', v, '"}, timeout=10)')
    if ctx in ("javascript", "typescript"):
        return cat(f'const res = await fetch("{url}", {{ headers: {{ "{h}": "{pre}', v, '" } });')
    if ctx == "go":
        return cat(f'req, _ := http.NewRequest("GET", "{url}", nil)\nreq.Header.Set("{h}", "{pre}', v, '")')
    if ctx == "java":
        return cat(
            f'HttpRequest req = HttpRequest.newBuilder(URI.create("{url}"))\n    .header("{h}", "{pre}',
            v,
            '")\n    .build();',
        )
    if ctx == "csharp":
        return cat(f'client.DefaultRequestHeaders.Add("{h}", "{pre}', v, '");')
    if ctx == "ruby":
        return cat(f'req = Net::HTTP::Get.new(URI("{url}"))\nreq["{h}"] = "{pre}', fmap(e.frag, esc_dq), '"')
    if ctx == "php":
        return cat(
            f"curl_setopt($ch, CURLOPT_HTTPHEADER, ['{h}: {pre}", fmap(e.frag, lambda t: t.replace("'", "\\'")), "']);"
        )
    if ctx == "rust":
        return cat(f'let res = client.get("{url}")\n    .header("{h}", "{pre}', v, '")\n    .send()\n    .await?;')
    if ctx == "powershell":
        return cat(
            f'Invoke-RestMethod -Uri "{url}" -Headers @{{ "{h}" = "{pre}',
            fmap(e.frag, lambda t: t.replace('"', '`"')),
            '" }',
        )
    return None


def c_code(ctx: str, seq: list[Item], lang: str) -> Frag:
    style = R.random()
    cm = {"python": "#", "ruby": "#", "powershell": "#"}.get(ctx, "//")

    def line(e: Entry) -> Frag:  # noqa: PLR0912 - one branch per language
        if chance(0.3):
            hc = http_call(ctx, e)
            if hc is not None:
                return hc
        v, ml = e.frag, has_nl(e.frag)
        n_up, n_low, n_camel, n_pascal = e.name, sname(e.name, "snake"), sname(e.name, "camel"), sname(e.name, "pascal")
        if ctx == "python":
            if ml:
                rp = "r" if "\\" in plain(v) else ""
                return cat(f'{n_up} = {rp}"""', v, '"""')
            return pk(
                [
                    cat(f"{n_up} = ", q_dq(v)),
                    cat(f'os.environ.setdefault("{n_up}", ', q_dq(v), ")"),
                    cat(f"{n_low} = ", q_sq(v) if "'" not in plain(v) else q_dq(v)),
                    cat(f'    "{n_low}": ', q_dq(v), ","),
                ]
            )  # type: ignore[return-value]
        if ctx in ("javascript", "typescript"):
            if ml:
                return cat(f"const {n_camel} = `", fmap(v, lambda t: t.replace("\\", "\\\\").replace("`", "\\`")), "`;")
            ty = ": string" if ctx == "typescript" else ""
            return pk(
                [
                    cat(f"const {n_camel}{ty} = ", q_dq(v), ";"),
                    cat(f"export const {n_up}{ty} = ", q_sq(v), ";"),
                    cat(f"process.env.{n_up} ??= ", q_dq(v), ";"),
                    cat(f"  {n_camel}: ", q_dq(v), ","),
                ]
            )  # type: ignore[return-value]
        if ctx == "go":
            if ml:
                return cat(f"const {n_camel} = `", v, "`")
            return pk(
                [
                    cat(f"const {n_camel} = ", q_dq(v)),
                    cat(f'os.Setenv("{n_up}", ', q_dq(v), ")"),
                    cat(f"\t{n_pascal}: ", q_dq(v), ","),
                ]
            )  # type: ignore[return-value]
        if ctx == "java":
            if ml:
                return cat(
                    f'private static final String {n_up} = """\n', fmap(v, lambda t: t.replace("\\", "\\\\")), '""";'
                )
            return pk(
                [
                    cat(f"private static final String {n_up} = ", q_dq(v), ";"),
                    cat(f'props.setProperty("{sname(e.name, "dotted")}", ', q_dq(v), ");"),
                    cat(f"String {n_camel} = ", q_dq(v), ";"),
                ]
            )  # type: ignore[return-value]
        if ctx == "csharp":
            if ml:
                return cat(f'var {n_camel} = @"', fmap(v, lambda t: t.replace('"', '""')), '";')
            return pk(
                [
                    cat(f"private const string {n_pascal} = ", q_dq(v), ";"),
                    cat(f"var {n_camel} = ", q_dq(v), ";"),
                    cat(f'Environment.SetEnvironmentVariable("{n_up}", ', q_dq(v), ");"),
                    cat(f'    ["{n_pascal}"] = ', q_dq(v), ","),
                ]
            )  # type: ignore[return-value]
        if ctx == "ruby":
            if ml:
                return cat(f"{n_up} = <<~KEY\n  ", fmap(v, indent_fn("  ")), "\nKEY")
            return pk(
                [
                    cat(f"{n_up} = ", q_dq(v)),
                    cat(f'ENV["{n_up}"] ||= ', q_sq(v) if "'" not in plain(v) else q_dq(v)),
                    cat(f"config.{n_low} = ", q_dq(v)),
                ]
            )  # type: ignore[return-value]
        if ctx == "php":
            if ml:
                return cat(f"${n_camel} = <<<'KEY'\n", v, "\nKEY;")
            return pk(
                [
                    cat(f"define('{n_up}', ", q_sq(v), ");"),
                    cat(f"${n_camel} = ", q_sq(v), ";"),
                    cat(f"    '{n_low}' => ", q_sq(v), ","),
                ]
            )  # type: ignore[return-value]
        if ctx == "rust":
            if ml:
                return cat(f'const {n_up}: &str = r#"', v, '"#;')
            return pk(
                [
                    cat(f"const {n_up}: &str = ", q_dq(v), ";"),
                    cat(f"let {n_low} = ", q_dq(v), ";"),
                    cat(f'std::env::set_var("{n_up}", ', q_dq(v), ");"),
                ]
            )  # type: ignore[return-value]
        if ctx == "powershell":
            if ml:
                return cat(f"${n_camel} = @'\n", v, "\n'@")
            return pk(
                [
                    cat(f"$env:{n_up} = ", q_dq(v) if "$" not in plain(v) else cat("'", v, "'")),
                    cat(f"${n_camel} = '", v, "'"),
                    cat(f'[Environment]::SetEnvironmentVariable("{n_up}", ', cat("'", v, "'"), ', "User")'),
                    cat(f"setx {n_up} ", q_dq(v)),
                    cat(f"set {n_up}=", v),
                ]
            )  # type: ignore[return-value]
        raise ValueError(ctx)

    body = render_seq(ctx, seq, line, cmt=cm, lang=lang)
    heads = {
        "python": ["import os\nimport requests\n", "from pathlib import Path\nimport os\n", ""],
        "javascript": ["import fetch from 'node-fetch';\n", "'use strict';\n", ""],
        "typescript": ['import { z } from "zod";\n', ""],
        "go": ['package config\n\nimport (\n\t"net/http"\n\t"os"\n)\n', "package main\n"],
        "java": ["// src/main/java/com/example/config/Secrets.java (excerpt)", "// AppConfig.java", ""],
        "csharp": ["// Program.cs", "// Startup.cs (excerpt)", ""],
        "ruby": ["# config/initializers/services.rb", 'require "net/http"\n'],
        "php": ["<?php\n", "<?php\ndeclare(strict_types=1);\n"],
        "rust": ["use std::env;\n", "// src/config.rs"],
        "powershell": ["# deploy.ps1", "$ErrorActionPreference = 'Stop'"],
    }
    head = pk(heads[ctx])
    tail = ""
    if style < 0.25 and ctx == "python":
        body = (
            [T("CONFIG = {")] + [b if plain(b).startswith("    ") else indent_all(b, "    ") for b in body] + [T("}")]
        )
    parts = ([T(head)] if head else []) + body + ([T(tail)] if tail else [])
    return join(parts, "\n")


def c_terraform(seq: list[Item], lang: str) -> Frag:
    def line(e: Entry) -> Frag:
        n = sname(e.name, "snake")
        if has_nl(e.frag):
            return cat(f"  {n} = <<-EOT\n    ", fmap(e.frag, indent_fn("    ")), "\n  EOT")
        return cat(f"  {n} = ", fmap(q_dq(e.frag), lambda t: t.replace("${", "$${")))

    kind = pk(["locals", "provider", "resource", "tfvars"])
    body = render_seq("terraform", seq, line, form_p=0.6, cmt="  #", lang=lang)
    if kind == "tfvars":
        return join([b if not plain(b).startswith("  ") else fmap(b, lambda t: t) for b in body], "\n")
    head = {
        "locals": "locals {",
        "provider": f'provider "{pk(["aws", "datadog", "github", "cloudflare", "azurerm"])}" {{',
        "resource": f'resource "{pk(["kubernetes_secret", "aws_ssm_parameter", "vault_generic_secret", "heroku_app"])}" "{proj().replace("-", "_")}" {{',
    }[kind]
    return join([T(head), *body, T("}")], "\n")


def c_kubernetes(seq: list[Item], lang: str) -> Frag:
    ns = proj()
    forms = [it.forms["kubernetes"] for it in seq if "kubernetes" in it.forms]
    rest = [it for it in seq if "kubernetes" not in it.forms]
    parts: list[Frag] = list(forms)
    if rest:
        if (any(it.secret for it in rest) and chance(0.6)) or chance(0.3):
            lines = [
                cat(f"  {sname(e.name, pk(['upper', 'kebab', 'snake']))}: ", yaml_val(e.frag, "  "))
                for it in rest
                for e in it.entries
            ]
            parts.insert(
                0,
                cat(
                    f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {ns}-{pk(['env', 'credentials', 'config'])}\n  namespace: {ns}\ntype: Opaque\nstringData:\n",
                    join(lines, "\n"),
                ),
            )
        else:
            lines = [
                cat(f"            - name: {e.name}\n              value: ", yaml_val(e.frag, "              "))
                for it in rest
                for e in it.entries
            ]
            parts.insert(
                0,
                cat(
                    f"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {ns}\nspec:\n  replicas: {R.randint(1, 4)}\n  template:\n    spec:\n"
                    f"      containers:\n        - name: {ns}\n          image: ghcr.io/{ns}/{ns}:{semver().lstrip('v')}\n          env:\n",
                    join(lines, "\n"),
                ),
            )
    return join(parts, "\n---\n")


def c_dockerfile(seq: list[Item], lang: str) -> Frag:
    def line(e: Entry) -> Frag:
        v = fmap(e.frag, esc_nl) if has_nl(e.frag) else e.frag
        p = plain(v)
        if " " in p or '"' in p or "\n" in plain(e.frag):
            v = q_dq(v) if "\n" not in plain(e.frag) else cat('"', v, '"')
        return cat(pk(["ENV ", "ENV ", "ARG "]), e.name, "=", v)

    lines: list[Frag] = [
        T(
            pk(
                [
                    "FROM node:20-alpine",
                    "FROM python:3.12-slim",
                    "FROM golang:1.23 AS build",
                    "FROM eclipse-temurin:21-jre",
                ]
            )
        ),
        T("WORKDIR /app"),
    ]
    for it in seq:
        if "dockerfile" in it.forms:
            lines[0] = it.forms["dockerfile"]
            continue
        if it.cli and chance(0.4):
            c = pick(it.cli)
            if not has_nl(c):  # type: ignore[arg-type]
                lines.append(cat("RUN ", c))  # type: ignore[arg-type]
                continue
        lines.extend(line(e) for e in it.entries)
    lines.append(
        T(
            pk(
                [
                    'CMD ["node", "server.js"]',
                    'CMD ["python", "-m", "app"]',
                    'ENTRYPOINT ["/app/server"]',
                    "COPY . .\nRUN npm ci --omit=dev",
                ]
            )
        )
    )
    return join(lines, "\n")


def c_compose(seq: list[Item], lang: str) -> Frag:
    svc = pk(["api", "worker", "web", "db", "app"])
    listy = chance(0.4) and not any(it.multiline for it in seq)
    lines: list[Frag] = []
    for it in seq:
        for e in it.entries:
            if listy and not has_nl(e.frag):
                lines.append(cat(f"      - {e.name}=", e.frag))
            else:
                lines.append(cat(f"      {e.name}: ", yaml_val(e.frag, "      ")))
    image = pk(
        [
            f"ghcr.io/{proj()}/api:{semver().lstrip('v')}",
            "postgres:16",
            "redis:7.2",
            "rabbitmq:3-management",
            f"{proj()}:latest",
        ]
    )
    return cat(
        f"services:\n  {svc}:\n    image: {image}\n    restart: unless-stopped\n    environment:\n",
        join(lines, "\n"),
        f'\n    ports:\n      - "{pk(["8080", "5432", "6379", "3000"])}:{pk(["8080", "5432", "6379", "3000"])}"',
    )


def c_actions(seq: list[Item], lang: str) -> Frag:
    env_lines: list[Frag] = []
    run_lines: list[Frag] = []
    uses: list[Frag] = []
    for it in seq:
        f = it.forms.get("github_actions")
        if f is not None and chance(0.8):
            (uses if "uses:" in plain(f) else env_lines).append(f)
            continue
        if it.cli and chance(0.4):
            c = pick(it.cli)
            run_lines.append(indent_all(c, "          "))  # type: ignore[arg-type]
            continue
        for e in it.entries:
            env_lines.append(cat(f"{e.name}: ", yaml_val(e.frag, "")))
    env_block = (
        cat("    env:\n", join([indent_all(x, "      ") for x in env_lines], "\n"), "\n") if env_lines else T("")
    )
    steps = [T("      - uses: actions/checkout@v4"), *uses]
    run = join(run_lines, "\n") if run_lines else T(f"          ./scripts/{pk(['deploy', 'release', 'publish'])}.sh")
    return cat(
        f"name: {pk(['deploy', 'release', 'nightly', 'ci'])}\non:\n  push:\n    branches: [main]\njobs:\n  {pk(['deploy', 'build', 'publish'])}:\n    runs-on: ubuntu-latest\n",
        env_block,
        "    steps:\n",
        join(steps, "\n"),
        "\n      - name: Run\n        run: |\n",
        run,
    )


# ---- logs, traces, data ----


def wrap_long(v: Frag, width: int = 76) -> Frag:
    """Hard-wrap a single labelled value like a terminal would (label keeps the newlines)."""
    if len(v) != 1 or not v[0][1] or len(v[0][0]) <= width + 20 or "\n" in v[0][0]:
        return v
    t, role, kind = v[0]
    return [("\n".join(wrap(t, width)), role, kind)]


def c_log(seq: list[Item], lang: str) -> Frag:
    base = R.randint(1735000000, 1765000000)
    svc = proj()
    lines: list[Frag] = []

    clock = [base]

    def ts(i: int) -> str:
        clock[0] += R.randint(0, 40)
        return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(clock[0])) + f".{rdig(3)}Z"

    i = 0
    for it in seq:
        i += 1
        if "log" in it.forms and chance(0.7):
            lines.append(cat(f"{ts(i)} INFO  [{svc}] ", it.forms["log"]))
            continue
        for e in it.entries:
            i += 1
            r_ = R.random()
            if e.http and r_ < 0.3 and not has_nl(e.frag):
                h, pre, url = e.http
                lines.append(
                    cat(
                        f"> GET {url.split('://')[-1].split('/', 1)[-1] if url else '/'} HTTP/2\n> Host: {url.split('/')[2] if url else 'api.' + dom()}\n> {h}: {pre}",
                        e.frag,
                        "\n> User-Agent: curl/8.5.0\n>",
                    )
                )
            elif r_ < 0.55:
                lines.append(
                    cat(
                        f'{{"ts":"{ts(i)}","level":"{pk(["debug", "info", "warn"])}","svc":"{svc}","msg":"{pk(["loaded config", "env dump", "retrying with credentials", "client init"])}","{sname(e.name, "snake")}":"',
                        fmap(e.frag, esc_json),
                        '"}',
                    )
                )
            else:
                v = wrap_long(e.frag) if chance(0.25) else e.frag
                lines.append(
                    cat(
                        f"{ts(i)} {pk(['DEBUG', 'INFO ', 'WARN ', 'ERROR'])} [{svc}] {pk(['config', 'startup', 'auth', 'client'])}: {e.name}=",
                        v,
                    )
                )
        if chance(0.4):
            lines.append(
                T(
                    f"{ts(i)} INFO  [{svc}] {pk(['listening on :8080', 'health check ok', 'connected to db', 'cache warmed in 412ms', 'worker pool size=8'])}"
                )
            )
    return join(lines, "\n")


def c_stack(seq: list[Item], lang: str) -> Frag:
    out: list[Frag] = []
    for it in seq:
        for e in it.entries:
            v = e.frag
            t = pk(["py", "java", "node"]) if e.http and not has_nl(v) else pk(["py", "java"])
            if t == "py":
                out.append(
                    cat(
                        f'Traceback (most recent call last):\n  File "/srv/{proj()}/app/clients.py", line {R.randint(20, 300)}, in connect\n    return Client(**settings)\n'
                        f"{pk(['ValueError', 'RuntimeError', 'ConnectionError', 'psycopg2.OperationalError'])}: {pk(['could not authenticate with', 'connection refused using', 'rejected credentials'])} {sname(e.name, 'snake')}='",
                        v,
                        "'",
                    )
                )
            elif t == "java":
                out.append(
                    cat(
                        f'Exception in thread "main" java.lang.IllegalStateException: Invalid credentials [{sname(e.name, "dotted")}=',
                        v,
                        f"]\n\tat com.{proj().replace('-', '')}.config.Loader.load(Loader.java:{R.randint(20, 200)})\n"
                        f"\tat com.{proj().replace('-', '')}.Main.main(Main.java:{R.randint(10, 60)})",
                    )
                )
            else:
                out.append(
                    cat(
                        f"Error: Request failed with status code 401\n    at createError (/app/node_modules/axios/lib/core/createError.js:16:15)\n  config: {{\n    headers: {{ '{(e.http or ('Authorization', 'Bearer ', ''))[0]}': '{(e.http or ('', 'Bearer ', ''))[1]}",
                        fmap(v, lambda t_: t_.replace("'", "\\'")),
                        "' },\n    url: '" + ((e.http or ("", "", ""))[2] or f"https://api.{dom()}/v1/sync") + "'\n  }",
                    )
                )
    return join(out, "\n\n")


def c_sql(seq: list[Item], lang: str) -> Frag:
    def line(e: Entry) -> Frag:
        # corpus text, not a query that is ever run
        v = fmap(e.frag, esc_sql)
        provider, key = (e.desc or "misc").split()[0].lower(), sname(e.name, "snake")
        insert = f"INSERT INTO integration_settings (provider, key, value) VALUES ('{provider}', '{key}', '"  # noqa: S608
        if chance(0.5):
            return cat(insert, v, "');")
        return cat("UPDATE app_config SET value = '", v, f"' WHERE name = '{key}';")

    return join(render_seq("sql", seq, line, form_p=0.8, cmt="--", lang=lang), "\n")


def c_diff(seq: list[Item], lang: str) -> Frag:
    f = pk([".env.production", "config/settings.yaml", "deploy/values.yaml", "src/config.ts"])
    yamlish = f.endswith(".yaml")
    lines: list[Frag] = [
        T(f"diff --git a/{f} b/{f}"),
        cat("index ", L("git_sha", rhex(7)), "..", L("git_sha", rhex(7)), " 100644"),
        T(f"--- a/{f}\n+++ b/{f}"),
        T(f"@@ -{R.randint(1, 40)},6 +{R.randint(1, 40)},{R.randint(7, 12)} @@"),
        T(" # " + comment_text(lang) if not f.endswith(".ts") else " // config"),
    ]
    for it in seq:
        for e in it.entries:
            if yamlish:
                lines.append(cat("+", sname(e.name, "snake"), ": ", fmap(yaml_val(e.frag, ""), indent_fn("+"))))
            elif f.endswith(".ts"):
                lines.append(cat(f"+export const {e.name} = ", fmap(q_dq(e.frag), indent_fn("+")), ";"))
            else:
                lines.append(cat("+", e.name, "=", fmap(env_val(e.frag), indent_fn("+"))))
    lines.append(T(pk([" LOG_LEVEL=info", " PORT=8080", " timeout: 30", " retries: 3"])))
    return join(lines, "\n")


def c_http_response(seq: list[Item], lang: str) -> Frag:
    hdrs: list[Frag] = [T(f"HTTP/1.1 {pk(['200 OK', '201 Created'])}"), T("Content-Type: application/json")]
    body: list[Frag] = []
    extra: list[Frag] = []
    for it in seq:
        if "http_response" in it.forms and chance(0.8):
            f = it.forms["http_response"]
            (extra if plain(f).startswith("{") else hdrs).append(f)
            continue
        for e in it.entries:
            body.append(cat(f'    "{sname(e.name, "snake")}": "', fmap(e.frag, esc_json), '"'))
    out = join(hdrs, "\n")
    if body:
        out = cat(
            out,
            '\n\n{\n  "' + pk(["data", "result", "item", "credentials"]) + '": {\n',
            join(body, ",\n"),
            f'\n  }},\n  "created": {R.randint(1700000000, 1765000000)}\n}}',
        )
    for x in extra:
        out = cat(out, "\n\n" if not body else "\n", x)
    if not body and not extra:
        out = cat(out, '\n\n{"ok": true}')
    return out


def c_jupyter(seq: list[Item], lang: str) -> Frag:
    src: list[Frag] = [T("import os\\n")]
    for it in seq:
        for e in it.entries:
            src.append(cat(f'os.environ[\\"{e.name}\\"] = \\"', fmap(e.frag, lambda t: esc_json(esc_dq(t))), '\\"\\n'))
    src.append(T("client = Client()"))
    cells = join([cat('        "', s, '"') for s in src], ",\n")
    return cat(
        '{\n "cells": [\n  {\n   "cell_type": "code",\n   "execution_count": '
        + str(R.randint(1, 40))
        + ',\n   "metadata": {},\n   "outputs": [],\n   "source": [\n',
        cells,
        '\n   ]\n  }\n ],\n "nbformat": 4,\n "nbformat_minor": 5\n}',
    )


# ---- HTTP and credential files ----


def c_curl(seq: list[Item], lang: str) -> Frag:
    out: list[Frag] = []
    for it in seq:
        if "curl" in it.forms:
            out.append(it.forms["curl"])
            continue
        for e in it.entries:
            if e.http:
                h, pre, url = e.http
                url = url or f"https://api.{dom()}/"
                q = pk(["'", '"'])
                v = e.frag if q == "'" else fmap(e.frag, lambda t: t.replace('"', '\\"').replace("$", "\\$"))
                out.append(
                    cat(
                        f"curl {pk(['-sS', '-v', '-fsSL', '--silent'])} {pk(['', '-X POST '])}{url} \\\n  -H {q}{h}: {pre}",
                        v,
                        f"{q}" + pk(["", " \\\n  -H 'Content-Type: application/json'", " \\\n  -d @payload.json"]),
                    )
                )
            elif e.post:
                out.append(
                    cat(
                        "curl -X POST -H 'Content-type: application/json' \\\n  --data '{\"text\":\""
                        + pk(["deploy finished", "disk 91% on db-1", "nightly failed"])
                        + "\"}' \\\n  ",
                        e.frag,
                    )
                )
            else:
                u = e.basic_user or ""
                url = f"https://{pk(['api', 'jenkins', 'nas', 'registry'])}.{dom()}/"
                out.append(cat(f"curl -u '{u}:", e.frag, f"' {url}"))
    return join(out, "\n\n")


def c_http_request(seq: list[Item], lang: str) -> Frag:
    out: list[Frag] = []
    for it in seq:
        for e in it.entries:
            assert e.http is not None
            h, pre, url = e.http
            url = url or f"https://api.{dom()}/v1/ping"
            host = url.split("/")[2]
            path = "/" + url.split("/", 3)[3] if url.count("/") >= 3 else "/"
            out.append(
                cat(
                    f"{pk(['GET', 'POST', 'GET'])} {path} HTTP/1.1\nHost: {host}\n{h}: {pre}",
                    e.frag,
                    f"\nAccept: application/json\nUser-Agent: {pk(['python-requests/2.32.3', 'axios/1.7.7', 'Go-http-client/2.0', 'okhttp/4.12.0'])}",
                )
            )
    return join(out, "\n\n")


def c_nginx(seq: list[Item], lang: str) -> Frag:
    lines: list[Frag] = []
    for it in seq:
        for e in it.entries:
            assert e.http is not None
            h, pre, _ = e.http
            lines.append(cat(f'        proxy_set_header {h} "{pre}', e.frag, '";'))
    up = pk(["api", "legacy", "partner", "metrics"])
    return cat(
        f"server {{\n    listen 443 ssl;\n    server_name {up}.{dom()};\n\n    location /{pk(['api', 'upstream', 'v1'])}/ {{\n        proxy_pass https://{up}-backend;\n",
        join(lines, "\n"),
        "\n    }\n}",
    )


def c_netrc(seq: list[Item], lang: str) -> Frag:
    out: list[Frag] = []
    for it in seq:
        for e in it.entries:
            assert e.netrc is not None
            host, login = e.netrc
            if chance(0.5):
                out.append(cat(f"machine {host} login {login} password ", e.frag))
            else:
                out.append(cat(f"machine {host}\n  login {login}\n  password ", e.frag))
    return join(out, "\n")


def c_pgpass(seq: list[Item], lang: str) -> Frag:
    return join([it.forms["pgpass"] for it in seq], "\n")


def c_npmrc(seq: list[Item], lang: str) -> Frag:
    out: list[Frag] = []
    for it in seq:
        if "npmrc" in it.forms:
            out.append(it.forms["npmrc"])
            continue
        for e in it.entries:
            out.append(cat(f"{e.npmrc}:_authToken=", e.frag))
    if chance(0.5):
        out.insert(
            0,
            T(
                pk(
                    [
                        "registry=https://registry.npmjs.org/",
                        "@" + proj() + ":registry=https://npm.pkg.github.com",
                        "save-exact=true",
                    ]
                )
            ),
        )
    return join(out, "\n")


def c_pem(seq: list[Item], lang: str) -> Frag:
    out: list[Frag] = []
    for it in seq:
        if "pem" in it.forms:
            out.append(it.forms["pem"])
            continue
        out.extend(e.frag for e in it.entries)
    return join(out, "\n")


def c_url(seq: list[Item], lang: str) -> Frag:
    out: list[Frag] = []
    for it in seq:
        for e in it.entries:
            out.append(cat(pk(["", f"{e.name}: ", f"{(e.desc or e.name).capitalize()} → ", "- "]), e.frag))
    return join(out, "\n")


def c_conn(seq: list[Item], lang: str) -> Frag:
    return join([it.forms["connection_string"] for it in seq], "\n")


def c_lockfile(seq: list[Item], lang: str) -> Frag:
    return join([it.forms["lockfile"] for it in seq], "\n")


def c_authorized_keys(seq: list[Item], lang: str) -> Frag:
    out = [it.forms["authorized_keys"] for it in seq]
    if chance(0.4):
        out[0] = cat(
            pk(
                [
                    'from="10.0.0.0/8" ',
                    "no-port-forwarding,no-agent-forwarding ",
                    'command="/usr/local/bin/backup-only" ',
                ]
            ),
            out[0],
        )
    return join(out, "\n")


def c_html(seq: list[Item], lang: str) -> Frag:
    lines: list[Frag] = []
    for it in seq:
        if "html" in it.forms:
            lines.append(indent_all(it.forms["html"], "    "))
            continue
        for e in it.entries:
            lines.append(cat(f'    <meta name="{sname(e.name, "kebab")}" content="', fmap(e.frag, esc_xml), '">'))
    return cat(
        f'<!doctype html>\n<html lang="en">\n  <head>\n    <meta charset="utf-8">\n    <title>{proj()}</title>\n',
        join(lines, "\n"),
        "\n  </head>\n</html>",
    )


# --------------------------------------------------------------------------
# prose in nine languages
# --------------------------------------------------------------------------

# The prose is multilingual on purpose (CJK punctuation, arrows, en dashes, guillemets).
# ruff: noqa: RUF001

LANG = {
    "en": {
        "titles": [
            "{proj} — deploy notes",
            "Notes about {p}",
            "Incident {date}: {proj} outage",
            "Runbook: rotating {proj} credentials",
            "Daily log {date}",
            "Coding notes: {proj}",
            "Preferences & context for {p}",
            "Home lab setup",
            "Onboarding checklist for {proj}",
            "Pairing session with {p}",
        ],
        "intro": [
            "{p} asked me to keep this around for the {proj} migration.",
            "Context: {p} works on {proj} and prefers short answers with metric units.",
            "Pasted from the team channel after yesterday's deploy.",
            "Keeping these so I don't have to ask {p} again next week.",
            "Things I learned while debugging {proj} today.",
            "Reminder to self: the staging and prod configs drifted again.",
            "{p} is on call this week and wants the usual summary every morning.",
            "Snapshot of the config as it was on {date}.",
        ],
        "sec": [
            "{h}: {v}",
            "The {h} for {proj} is {v}",
            "{p} sent the {h} over chat: {v}",
            "If {proj} starts failing auth, check that {n} is still {v}.",
            "Current {h} → {v} (rotate after the audit)",
            "Use {v} as {n} on the staging box.",
            "Found the old {h} in a gist: {v} — needs revoking.",
            "Do not paste this anywhere else: {v}",
        ],
        "look": [
            "{h}: {v}",
            "Pinned the {h} to {v} for reproducibility.",
            "For reference, the {h} is {v}.",
            "{p} mentioned {v} ({h}) in the standup.",
            "Logged {h} {v} in the ticket.",
        ],
        "outro": [
            "Next step: move all of this into the secret manager.",
            "TODO: ask {p} whether the old values can be deleted.",
            "Done for today.",
            "Follow up on Monday.",
            "Still need to update the README.",
        ],
        "head": ["Config", "Setup", "What changed", "Details", "Snippet", "Reference", "Environment"],
        "cmt": [
            "rotated last week",
            "do not commit",
            "prod only",
            "from the vendor dashboard",
            "TODO: move to vault",
            "shared with {p}",
            "temporary",
            "used by the nightly job",
        ],
        "todo": [
            "- [ ] Rotate the {h} ({n}): {v}",
            "- [ ] Remove {v} from the wiki page",
            "- [x] Added the {h} to CI settings: {v}",
            "- [ ] Check whether {v} still works",
            "- [ ] Tell {p} that {n} = {v} is going away",
        ],
        "user": "User",
        "bot": "Assistant",
        "ask": [
            "Here's the {h}, please remember it: {v}",
            "can you keep this for later? {n}={v}",
            "the {h} changed, new one is {v}",
            "{p} needs the {h} tomorrow, it's {v}",
        ],
        "ans": [
            "Got it — I'll keep the {h} in my notes.",
            "Saved. I'd still recommend moving it to a secret manager.",
            "Noted, thanks.",
            "Stored. Want me to remind you to rotate it?",
        ],
        "inc": [
            "{t} — {h} showed up in the build log: {v}",
            "{t} — {p} spotted {v} in a public issue",
            "{t} — confirmed {n} was {v}",
            "{t} — revoked {v}",
        ],
        "inc_plain": [
            "{t} — deploy started",
            "{t} — alerts firing on {proj}",
            "{t} — rollback finished",
            "{t} — {p} confirmed the fix",
        ],
    },
    "de": {
        "titles": [
            "{proj} – Deploy-Notizen",
            "Notizen zu {p}",
            "Störung am {date}: {proj}",
            "Runbook: Zugangsdaten für {proj} rotieren",
            "Tageslog {date}",
            "Entwicklungsnotizen: {proj}",
            "Vorlieben und Kontext von {p}",
        ],
        "intro": [
            "{p} hat mich gebeten, das für die Migration von {proj} aufzuheben.",
            "Aus dem Team-Chat kopiert, nach dem Deploy von gestern.",
            "Damit ich {p} nächste Woche nicht noch einmal fragen muss.",
            "Heute beim Debuggen von {proj} gelernt:",
            "{p} hat diese Woche Rufbereitschaft und möchte jeden Morgen eine kurze Zusammenfassung.",
        ],
        "sec": [
            "{h}: {v}",
            "Der {h} für {proj} lautet {v}",
            "{p} hat mir den {h} geschickt: {v}",
            "Falls {proj} keine Verbindung bekommt, prüfen, ob {n} noch {v} ist.",
            "Aktueller Wert für {n} → {v} (nach dem Audit rotieren)",
            "Bitte nirgendwo sonst einfügen: {v}",
        ],
        "look": [
            "{h}: {v}",
            "Zur Referenz: {h} ist {v}.",
            "{p} hat im Standup {v} ({h}) erwähnt.",
            "Im Ticket notiert: {h} {v}.",
        ],
        "outro": [
            "Nächster Schritt: alles in den Secret Manager verschieben.",
            "TODO: {p} fragen, ob die alten Werte gelöscht werden können.",
            "Für heute fertig.",
        ],
        "head": ["Konfiguration", "Einrichtung", "Was sich geändert hat", "Details", "Ausschnitt"],
        "cmt": [
            "letzte Woche rotiert",
            "nicht committen",
            "nur Produktion",
            "vorübergehend",
            "TODO: in Vault verschieben",
        ],
        "todo": [
            "- [ ] {h} rotieren ({n}): {v}",
            "- [ ] {v} aus dem Wiki entfernen",
            "- [x] {h} in CI hinterlegt: {v}",
            "- [ ] Prüfen, ob {v} noch gültig ist",
        ],
        "user": "Nutzer",
        "bot": "Assistent",
        "ask": [
            "Hier ist der {h}, bitte merken: {v}",
            "kannst du dir das aufheben? {n}={v}",
            "der {h} hat sich geändert, neu: {v}",
        ],
        "ans": ["Alles klar, ich habe den {h} notiert.", "Gespeichert. Besser wäre ein Secret Manager.", "Notiert."],
        "inc": [
            "{t} – {h} im Build-Log gefunden: {v}",
            "{t} – {p} hat {v} in einem öffentlichen Issue entdeckt",
            "{t} – {v} widerrufen",
        ],
        "inc_plain": ["{t} – Deploy gestartet", "{t} – Alarme für {proj}", "{t} – Rollback abgeschlossen"],
    },
    "fr": {
        "titles": [
            "{proj} — notes de déploiement",
            "Notes sur {p}",
            "Incident du {date} : {proj}",
            "Procédure : rotation des identifiants {proj}",
            "Journal du {date}",
            "Notes de code : {proj}",
            "Préférences de {p}",
        ],
        "intro": [
            "{p} m'a demandé de garder ça pour la migration de {proj}.",
            "Copié depuis le canal de l'équipe après le déploiement d'hier.",
            "Je garde ceci pour ne pas redemander à {p} la semaine prochaine.",
            "Ce que j'ai appris aujourd'hui en déboguant {proj} :",
            "{p} est d'astreinte cette semaine et veut un résumé chaque matin.",
        ],
        "sec": [
            "{h} : {v}",
            "La valeur {n} pour {proj} est {v}",
            "{p} m'a envoyé le {h} : {v}",
            "Si {proj} échoue à l'authentification, vérifier que {n} vaut toujours {v}.",
            "Valeur actuelle → {v} (à changer après l'audit)",
            "Ne pas recopier ailleurs : {v}",
        ],
        "look": [
            "{h} : {v}",
            "Pour référence, {h} = {v}.",
            "{p} a cité {v} ({h}) au point du matin.",
            "Noté dans le ticket : {v}.",
        ],
        "outro": [
            "Prochaine étape : tout déplacer dans le gestionnaire de secrets.",
            "À faire : demander à {p} si on peut supprimer les anciennes valeurs.",
            "Fini pour aujourd'hui.",
        ],
        "head": ["Configuration", "Mise en place", "Ce qui a changé", "Détails", "Extrait"],
        "cmt": [
            "changé la semaine dernière",
            "ne pas committer",
            "prod uniquement",
            "temporaire",
            "à migrer vers Vault",
        ],
        "todo": [
            "- [ ] Changer le {h} ({n}) : {v}",
            "- [ ] Retirer {v} du wiki",
            "- [x] {h} ajouté dans la CI : {v}",
            "- [ ] Vérifier si {v} marche encore",
        ],
        "user": "Utilisateur",
        "bot": "Assistant",
        "ask": [
            "Voici le {h}, garde-le en mémoire : {v}",
            "tu peux garder ça ? {n}={v}",
            "le {h} a changé, le nouveau est {v}",
        ],
        "ans": ["C'est noté, je garde le {h}.", "Enregistré. Mieux vaudrait un gestionnaire de secrets.", "Noté."],
        "inc": [
            "{t} — {h} trouvé dans le log de build : {v}",
            "{t} — {p} a repéré {v} dans un ticket public",
            "{t} — {v} révoqué",
        ],
        "inc_plain": ["{t} — déploiement lancé", "{t} — alertes sur {proj}", "{t} — retour arrière terminé"],
    },
    "es": {
        "titles": [
            "{proj}: notas de despliegue",
            "Notas sobre {p}",
            "Incidente {date}: caída de {proj}",
            "Runbook: rotar credenciales de {proj}",
            "Registro diario {date}",
            "Notas de código: {proj}",
            "Preferencias de {p}",
        ],
        "intro": [
            "{p} me pidió guardar esto para la migración de {proj}.",
            "Copiado del canal del equipo después del despliegue de ayer.",
            "Lo guardo para no tener que preguntarle otra vez a {p}.",
            "Lo que aprendí hoy depurando {proj}:",
            "{p} está de guardia esta semana y quiere un resumen cada mañana.",
        ],
        "sec": [
            "{h}: {v}",
            "El {h} de {proj} es {v}",
            "{p} me pasó el {h} por chat: {v}",
            "Si {proj} falla al autenticar, comprobar que {n} sigue siendo {v}.",
            "Valor actual → {v} (rotar después de la auditoría)",
            "No pegar esto en ningún otro sitio: {v}",
        ],
        "look": [
            "{h}: {v}",
            "Como referencia, el {h} es {v}.",
            "{p} mencionó {v} ({h}) en la daily.",
            "Anotado en el ticket: {v}.",
        ],
        "outro": [
            "Siguiente paso: mover todo al gestor de secretos.",
            "Pendiente: preguntar a {p} si se pueden borrar los valores viejos.",
            "Listo por hoy.",
        ],
        "head": ["Configuración", "Instalación", "Qué cambió", "Detalles", "Fragmento"],
        "cmt": ["rotado la semana pasada", "no commitear", "solo producción", "temporal", "pendiente: mover a Vault"],
        "todo": [
            "- [ ] Rotar el {h} ({n}): {v}",
            "- [ ] Quitar {v} de la wiki",
            "- [x] Añadido el {h} a la CI: {v}",
            "- [ ] Comprobar si {v} sigue funcionando",
        ],
        "user": "Usuario",
        "bot": "Asistente",
        "ask": ["Aquí está el {h}, recuérdalo: {v}", "¿puedes guardar esto? {n}={v}", "cambió el {h}, el nuevo es {v}"],
        "ans": [
            "Entendido, guardo el {h} en mis notas.",
            "Guardado. Aun así conviene un gestor de secretos.",
            "Anotado.",
        ],
        "inc": [
            "{t} — apareció el {h} en el log de build: {v}",
            "{t} — {p} vio {v} en un issue público",
            "{t} — revocado {v}",
        ],
        "inc_plain": ["{t} — empieza el despliegue", "{t} — alertas en {proj}", "{t} — rollback terminado"],
    },
    "it": {
        "titles": [
            "{proj} — note di deploy",
            "Appunti su {p}",
            "Incidente {date}: {proj}",
            "Runbook: rotazione credenziali {proj}",
            "Diario {date}",
            "Note di sviluppo: {proj}",
        ],
        "intro": [
            "{p} mi ha chiesto di tenere questo per la migrazione di {proj}.",
            "Copiato dal canale del team dopo il deploy di ieri.",
            "Lo salvo così non devo richiederlo a {p}.",
            "Cose imparate oggi facendo debug su {proj}:",
        ],
        "sec": [
            "{h}: {v}",
            "Il {h} per {proj} è {v}",
            "{p} mi ha mandato il {h}: {v}",
            "Se {proj} non si autentica, controllare che {n} sia ancora {v}.",
            "Valore attuale → {v} (da ruotare dopo l'audit)",
        ],
        "look": ["{h}: {v}", "Per riferimento, {h} è {v}.", "{p} ha citato {v} ({h}) nello standup."],
        "outro": [
            "Prossimo passo: spostare tutto nel secret manager.",
            "Da fare: chiedere a {p} se i vecchi valori si possono cancellare.",
            "Per oggi è tutto.",
        ],
        "head": ["Configurazione", "Setup", "Cosa è cambiato", "Dettagli"],
        "cmt": ["ruotato la settimana scorsa", "non committare", "solo produzione", "temporaneo"],
        "todo": ["- [ ] Ruotare il {h} ({n}): {v}", "- [ ] Togliere {v} dalla wiki", "- [x] {h} aggiunto alla CI: {v}"],
        "user": "Utente",
        "bot": "Assistente",
        "ask": ["Ecco il {h}, ricordalo: {v}", "puoi salvarlo? {n}={v}"],
        "ans": ["Ricevuto, ho annotato il {h}.", "Salvato. Meglio comunque un secret manager."],
        "inc": ["{t} — {h} trovato nel log di build: {v}", "{t} — revocato {v}"],
        "inc_plain": ["{t} — deploy avviato", "{t} — rollback completato"],
    },
    "nl": {
        "titles": [
            "{proj} — deploynotities",
            "Notities over {p}",
            "Incident {date}: {proj}",
            "Runbook: {proj}-credentials roteren",
            "Dagboek {date}",
            "Codenotities: {proj}",
        ],
        "intro": [
            "{p} vroeg me dit te bewaren voor de migratie van {proj}.",
            "Gekopieerd uit het teamkanaal na de deploy van gisteren.",
            "Zodat ik het {p} volgende week niet opnieuw hoef te vragen.",
            "Wat ik vandaag leerde bij het debuggen van {proj}:",
        ],
        "sec": [
            "{h}: {v}",
            "De {h} voor {proj} is {v}",
            "{p} stuurde de {h} via chat: {v}",
            "Als {proj} niet kan inloggen, controleer of {n} nog {v} is.",
            "Huidige waarde → {v} (na de audit roteren)",
        ],
        "look": ["{h}: {v}", "Ter referentie: {h} is {v}.", "{p} noemde {v} ({h}) in de standup."],
        "outro": [
            "Volgende stap: alles naar de secret manager verhuizen.",
            "TODO: {p} vragen of de oude waarden weg mogen.",
            "Klaar voor vandaag.",
        ],
        "head": ["Configuratie", "Installatie", "Wat er veranderde", "Details"],
        "cmt": ["vorige week geroteerd", "niet committen", "alleen productie", "tijdelijk"],
        "todo": ["- [ ] {h} roteren ({n}): {v}", "- [ ] {v} van de wiki halen", "- [x] {h} in CI gezet: {v}"],
        "user": "Gebruiker",
        "bot": "Assistent",
        "ask": ["Hier is de {h}, onthoud die: {v}", "kun je dit bewaren? {n}={v}"],
        "ans": ["Genoteerd, ik bewaar de {h}.", "Opgeslagen. Een secret manager is beter."],
        "inc": ["{t} — {h} in het buildlog gevonden: {v}", "{t} — {v} ingetrokken"],
        "inc_plain": ["{t} — deploy gestart", "{t} — rollback klaar"],
    },
    "pl": {
        "titles": [
            "{proj} — notatki z wdrożenia",
            "Notatki o {p}",
            "Incydent {date}: {proj}",
            "Runbook: rotacja danych dostępowych {proj}",
            "Dziennik {date}",
            "Notatki z kodu: {proj}",
        ],
        "intro": [
            "{p} poprosił, żebym to zachował na czas migracji {proj}.",
            "Skopiowane z kanału zespołu po wczorajszym wdrożeniu.",
            "Zapisuję, żeby nie pytać {p} ponownie w przyszłym tygodniu.",
            "Czego się dziś nauczyłem, debugując {proj}:",
        ],
        "sec": [
            "{h}: {v}",
            "{h} dla {proj} to {v}",
            "{p} przesłał {h} na czacie: {v}",
            "Jeśli {proj} nie może się uwierzytelnić, sprawdzić, czy {n} to nadal {v}.",
            "Aktualna wartość → {v} (zmienić po audycie)",
        ],
        "look": ["{h}: {v}", "Dla porządku: {h} to {v}.", "{p} wspomniał o {v} ({h}) na standupie."],
        "outro": [
            "Następny krok: przenieść wszystko do menedżera sekretów.",
            "TODO: zapytać {p}, czy można usunąć stare wartości.",
            "Na dziś koniec.",
        ],
        "head": ["Konfiguracja", "Instalacja", "Co się zmieniło", "Szczegóły"],
        "cmt": ["zmienione w zeszłym tygodniu", "nie commitować", "tylko produkcja", "tymczasowe"],
        "todo": ["- [ ] Zmienić {h} ({n}): {v}", "- [ ] Usunąć {v} z wiki", "- [x] Dodano {h} do CI: {v}"],
        "user": "Użytkownik",
        "bot": "Asystent",
        "ask": ["Oto {h}, zapamiętaj: {v}", "możesz to zachować? {n}={v}"],
        "ans": ["Jasne, zapisałem {h}.", "Zapisane. Lepiej jednak użyć menedżera sekretów."],
        "inc": ["{t} — {h} w logu builda: {v}", "{t} — unieważniono {v}"],
        "inc_plain": ["{t} — start wdrożenia", "{t} — rollback zakończony"],
    },
    "ja": {
        "titles": [
            "{proj} デプロイメモ",
            "{p}さんについてのメモ",
            "{date} 障害: {proj}",
            "手順書: {proj} の認証情報ローテーション",
            "作業ログ {date}",
            "開発メモ: {proj}",
        ],
        "intro": [
            "{proj} の移行作業のために{p}さんから保存を頼まれた。",
            "昨日のデプロイ後にチームのチャンネルから貼り付け。",
            "来週また{p}さんに聞かなくて済むように残しておく。",
            "今日 {proj} をデバッグして分かったこと。",
        ],
        "sec": [
            "{h}: {v}",
            "{proj} の {h} は {v}",
            "{p}さんがチャットで送ってくれた {h}: {v}",
            "{proj} の認証が失敗したら {n} がまだ {v} か確認する。",
            "現在の値 → {v}（監査後にローテーション）",
            "他の場所には貼らないこと: {v}",
        ],
        "look": ["{h}: {v}", "参考: {h} は {v}。", "{p}さんが朝会で {v}（{h}）に触れていた。"],
        "outro": [
            "次はこれを全部シークレットマネージャーに移す。",
            "TODO: 古い値を消してよいか{p}さんに確認。",
            "今日はここまで。",
        ],
        "head": ["設定", "セットアップ", "変更点", "詳細"],
        "cmt": ["先週ローテーション済み", "コミット禁止", "本番のみ", "一時的"],
        "todo": ["- [ ] {h}（{n}）をローテーション: {v}", "- [ ] Wiki から {v} を削除", "- [x] CI に {h} を登録: {v}"],
        "user": "ユーザー",
        "bot": "アシスタント",
        "ask": ["{h} です、覚えておいて: {v}", "これ保存しておいて {n}={v}"],
        "ans": ["了解です、{h} をメモしました。", "保存しました。シークレットマネージャーへの移行をおすすめします。"],
        "inc": ["{t} ビルドログに {h} が出ていた: {v}", "{t} {v} を失効させた"],
        "inc_plain": ["{t} デプロイ開始", "{t} ロールバック完了"],
    },
    "zh": {
        "titles": [
            "{proj} 部署笔记",
            "关于{p}的笔记",
            "{date} 故障：{proj}",
            "操作手册：轮换 {proj} 凭据",
            "工作日志 {date}",
            "开发笔记：{proj}",
        ],
        "intro": [
            "{p}让我在 {proj} 迁移期间保留这些。",
            "昨天部署后从团队频道复制过来的。",
            "记下来，免得下周再问{p}。",
            "今天调试 {proj} 时学到的东西：",
        ],
        "sec": [
            "{h}：{v}",
            "{proj} 的 {h} 是 {v}",
            "{p}在聊天里发来的 {h}：{v}",
            "如果 {proj} 认证失败，检查 {n} 是否仍为 {v}。",
            "当前值 → {v}（审计后轮换）",
            "不要粘贴到其他地方：{v}",
        ],
        "look": ["{h}：{v}", "备查：{h} 是 {v}。", "{p}在站会上提到了 {v}（{h}）。"],
        "outro": ["下一步：把这些都迁到密钥管理服务。", "待办：问{p}旧的值能不能删。", "今天就到这里。"],
        "head": ["配置", "安装", "变更", "细节"],
        "cmt": ["上周已轮换", "不要提交", "仅生产环境", "临时"],
        "todo": ["- [ ] 轮换 {h}（{n}）：{v}", "- [ ] 从 wiki 删除 {v}", "- [x] 已把 {h} 加到 CI：{v}"],
        "user": "用户",
        "bot": "助手",
        "ask": ["这是 {h}，请记住：{v}", "帮我保存一下 {n}={v}"],
        "ans": ["好的，已记录 {h}。", "已保存，建议改用密钥管理服务。"],
        "inc": ["{t} 构建日志里出现了 {h}：{v}", "{t} 已吊销 {v}"],
        "inc_plain": ["{t} 开始部署", "{t} 回滚完成"],
    },
}
LANG_WEIGHTS = [("en", 52), ("de", 7), ("fr", 7), ("es", 7), ("it", 5), ("nl", 5), ("pl", 5), ("ja", 6), ("zh", 6)]


def wpick(pairs: list[tuple[str, int]]) -> str:
    total = sum(w for _, w in pairs)
    x = R.randrange(total)
    for k, w in pairs:
        if x < w:
            return k
        x -= w
    raise AssertionError


def fill(tpl: str, **kw: str | Frag) -> Frag:
    out: list[str | Frag] = []
    i = 0
    while True:
        j = tpl.find("{", i)
        if j < 0:
            out.append(tpl[i:])
            break
        k = tpl.find("}", j)
        key = tpl[j + 1 : k]
        if key in kw:
            out.append(tpl[i:j])
            out.append(kw[key])
        else:
            out.append(tpl[i : k + 1])
        i = k + 1
    return cat(*out)


def rdate() -> str:
    return f"2025-{R.randint(1, 12):02d}-{R.randint(1, 28):02d}"


def ltext(lang: str, key: str) -> str:
    tpl = pk(LANG[lang][key])
    return plain(fill(tpl, p=pk(PEOPLE), proj=proj(), date=rdate()))


def comment_text(lang: str) -> str:
    return ltext(lang, "cmt")


def deco(v: Frag, lang: str) -> Frag:
    r_ = R.random()
    if r_ < 0.45:
        return cat("`", v, "`")
    if r_ < 0.75:
        return v
    if r_ < 0.85:
        q = {"fr": ("« ", " »"), "ja": ("「", "」"), "zh": ("“", "”"), "de": ("„", "“"), "pl": ("„", "”")}.get(
            lang, ('"', '"')
        )
        return cat(q[0], v, q[1])
    if r_ < 0.93:
        return cat("**", v, "**")
    return cat("'", v, "'")


def human(e: Entry) -> str:
    return e.desc or e.name.replace("_", " ").lower()


def sentence(e: Entry, lang: str, secretish: bool) -> Frag:
    tpl = pk(LANG[lang]["sec" if secretish else "look"])
    return fill(tpl, h=human(e), v=deco(e.frag, lang), n=e.name, p=pk(PEOPLE), proj=proj())


def entry_is_secretish(e: Entry) -> bool:
    return any(role == "s" for _, role, _ in e.frag) or e.cred


def prose_lines(items: list[Item], lang: str) -> list[Frag]:
    out: list[Frag] = []
    for it in items:
        for e in it.entries:
            out.append(sentence(e, lang, entry_is_secretish(e)))
    return out


def fenced(frag: Frag, lang_tag: str) -> Frag:
    return cat(f"```{lang_tag}\n", frag, "\n```")


def multiline_prose(e: Entry, lang: str) -> Frag:
    return cat(
        fill(
            pk(LANG[lang]["sec" if entry_is_secretish(e) else "look"]).replace("{v}", "").rstrip(" :：→-—") + ":",
            h=human(e),
            n=e.name,
            p=pk(PEOPLE),
            proj=proj(),
        ),
        "\n\n",
        fenced(e.frag, ""),
    )


def c_prose(seq: list[Item], lang: str) -> Frag:
    paras: list[Frag] = []
    for it in seq:
        for e in it.entries:
            paras.append(multiline_prose(e, lang) if has_nl(e.frag) else sentence(e, lang, entry_is_secretish(e)))
    sep = pk(["\n\n", "\n", " "]) if not any(has_nl(p) for p in paras) else "\n\n"
    return join(paras, sep)


def c_list(seq: list[Item], lang: str) -> Frag:
    lines: list[Frag] = []
    for it in seq:
        for e in it.entries:
            if has_nl(e.frag):
                lines.append(cat(f"- {human(e)} (`{e.name}`):\n\n  ```\n  ", fmap(e.frag, indent_fn("  ")), "\n  ```"))
                continue
            st = R.random()
            if st < 0.35:
                lines.append(cat(f"- **{human(e).capitalize()}**: ", deco(e.frag, lang)))
            elif st < 0.6:
                lines.append(cat(f"- `{e.name}` → ", deco(e.frag, lang)))
            elif st < 0.8:
                lines.append(cat("- ", sentence(e, lang, entry_is_secretish(e))))
            else:
                lines.append(cat(f"* {e.name}=", e.frag))
    if len(lines) > 2 and chance(0.3):
        lines.insert(1, T(f"  - {ltext(lang, 'cmt')}"))
    return join(lines, "\n")


def c_table(seq: list[Item], lang: str) -> Frag:
    hdr = pk(
        [("Service", "Name", "Value", "Notes"), ("What", "Key", "Value", "Owner"), ("Name", "Value", "Where", "Since")]
    )
    rows: list[Frag] = [T("| " + " | ".join(hdr) + " |"), T("|" + "|".join(["---"] * 4) + "|")]  # type: ignore[arg-type]
    for it in seq:
        for e in it.entries:
            v = fmap(e.frag, esc_pipe)
            v = cat("`", v, "`") if chance(0.6) else v
            if hdr[0] == "Name":
                rows.append(
                    cat(f"| {e.name} | ", v, f" | {pk(['1Password', 'CI', '.env', 'Slack DM', 'wiki'])} | {rdate()} |")
                )
            else:
                rows.append(cat(f"| {human(e)} | {e.name} | ", v, f" | {pk([*PEOPLE, comment_text(lang)])} |"))
    return join(rows, "\n")


def c_quote(seq: list[Item], lang: str) -> Frag:
    lines: list[Frag] = []
    for it in seq:
        for e in it.entries:
            if has_nl(e.frag):
                lines.append(cat(f"{human(e)}:\n", e.frag))
            elif chance(0.5):
                lines.append(cat(e.name, "=", e.frag))
            else:
                lines.append(sentence(e, lang, entry_is_secretish(e)))
    who = pk(PEOPLE)
    body = join(lines, "\n")
    return cat(f"{who} {pk(['wrote', 'said', '→', '(Slack):', '(mail):'])}\n\n", indent_all(body, "> "))


def c_chat(seq: list[Item], lang: str) -> Frag:
    d = LANG[lang]
    turns: list[Frag] = []
    for it in seq:
        for e in it.entries:
            if has_nl(e.frag):
                ask = cat(f"**{d['user']}:** {human(e)}\n\n", fenced(e.frag, ""))
            elif entry_is_secretish(e):
                ask = cat(
                    f"**{d['user']}:** ",
                    fill(
                        pk(d["ask"]),
                        h=human(e),
                        v=deco(e.frag, lang) if chance(0.5) else e.frag,
                        n=e.name,
                        p=pk(PEOPLE),
                    ),
                )
            else:
                ask = cat(f"**{d['user']}:** ", sentence(e, lang, False))
            turns.append(ask)
            turns.append(T(f"**{d['bot']}:** " + plain(fill(pk(d["ans"]), h=human(e)))))
    return join(turns, "\n\n")


def c_checklist(seq: list[Item], lang: str) -> Frag:
    d = LANG[lang]
    lines: list[Frag] = []
    for it in seq:
        for e in it.entries:
            if has_nl(e.frag):
                lines.append(cat(f"- [ ] {human(e)}:\n\n  ```\n  ", fmap(e.frag, indent_fn("  ")), "\n  ```"))
            elif entry_is_secretish(e):
                lines.append(fill(pk(d["todo"]), h=human(e), v=deco(e.frag, lang), n=e.name, p=pk(PEOPLE)))
            else:
                lines.append(cat(pk(["- [ ] ", "- [x] "]), sentence(e, lang, False)))
    if chance(0.5):
        lines.append(T(pk(["- [ ] ", "- [x] "]) + ltext(lang, "outro")))
    return join(lines, "\n")


def c_incident(seq: list[Item], lang: str) -> Frag:
    d = LANG[lang]
    h0, m0 = R.randint(0, 20), R.randint(0, 50)
    lines: list[Frag] = []
    step = 0

    def tstamp() -> str:
        nonlocal step
        step += R.randint(2, 17)
        return f"{(h0 + (m0 + step) // 60) % 24:02d}:{(m0 + step) % 60:02d} UTC"

    lines.append(T("- " + plain(fill(pk(d["inc_plain"]), t=tstamp(), p=pk(PEOPLE), proj=proj()))))
    for it in seq:
        for e in it.entries:
            if entry_is_secretish(e):
                lines.append(
                    cat("- ", fill(pk(d["inc"]), t=tstamp(), h=human(e), v=deco(e.frag, lang), n=e.name, p=pk(PEOPLE)))
                )
            else:
                lines.append(cat(f"- {tstamp()} — ", sentence(e, lang, False)))
    lines.append(T("- " + plain(fill(pk(d["inc_plain"]), t=tstamp(), p=pk(PEOPLE), proj=proj()))))
    return join(lines, "\n")


# --------------------------------------------------------------------------
# contexts
# --------------------------------------------------------------------------

CARRIERS: dict[str, Callable[[list[Item], str], Frag]] = {
    "env": c_env,
    "shell": c_shell,
    "yaml": c_yaml,
    "json": c_json,
    "toml": c_toml,
    "ini": c_ini,
    "properties": c_properties,
    "xml": c_xml,
    "systemd": c_systemd,
    "csv": c_csv,
    "makefile": c_makefile,
    "crontab": c_crontab,
    "python": lambda s, lg: c_code("python", s, lg),
    "javascript": lambda s, lg: c_code("javascript", s, lg),
    "typescript": lambda s, lg: c_code("typescript", s, lg),
    "go": lambda s, lg: c_code("go", s, lg),
    "java": lambda s, lg: c_code("java", s, lg),
    "csharp": lambda s, lg: c_code("csharp", s, lg),
    "ruby": lambda s, lg: c_code("ruby", s, lg),
    "php": lambda s, lg: c_code("php", s, lg),
    "rust": lambda s, lg: c_code("rust", s, lg),
    "powershell": lambda s, lg: c_code("powershell", s, lg),
    "terraform": c_terraform,
    "kubernetes": c_kubernetes,
    "dockerfile": c_dockerfile,
    "docker_compose": c_compose,
    "github_actions": c_actions,
    "log": c_log,
    "stack_trace": c_stack,
    "sql": c_sql,
    "diff": c_diff,
    "http_response": c_http_response,
    "jupyter": c_jupyter,
    "curl": c_curl,
    "http_request": c_http_request,
    "nginx": c_nginx,
    "netrc": c_netrc,
    "pgpass": c_pgpass,
    "npmrc": c_npmrc,
    "pem": c_pem,
    "url": c_url,
    "connection_string": c_conn,
    "lockfile": c_lockfile,
    "authorized_keys": c_authorized_keys,
    "html": c_html,
    "prose": c_prose,
    "markdown_list": c_list,
    "markdown_table": c_table,
    "markdown_blockquote": c_quote,
    "chat": c_chat,
    "checklist": c_checklist,
    "incident": c_incident,
}
PROSE_CTX = ["prose", "markdown_list", "markdown_table", "markdown_blockquote", "chat", "checklist", "incident"]
FORM_ONLY = ["pgpass", "connection_string", "lockfile", "authorized_keys"]
MULTI_OK = [
    "env",
    "shell",
    "yaml",
    "json",
    "toml",
    "python",
    "javascript",
    "typescript",
    "go",
    "java",
    "csharp",
    "ruby",
    "php",
    "rust",
    "powershell",
    "terraform",
    "kubernetes",
    "docker_compose",
    "github_actions",
    "xml",
    "systemd",
    "properties",
    "dockerfile",
    "log",
    "sql",
    "diff",
    "http_response",
    "pem",
    "prose",
    "markdown_list",
    "markdown_blockquote",
    "chat",
    "checklist",
]
FENCE = {
    "env": ["bash", "dotenv", "", "ini"],
    "shell": ["bash", "sh", "console", "zsh"],
    "yaml": ["yaml", "yml"],
    "json": ["json", "jsonc"],
    "toml": ["toml"],
    "ini": ["ini", "", "cfg"],
    "properties": ["properties", ""],
    "xml": ["xml"],
    "systemd": ["ini", "systemd", ""],
    "csv": ["csv", ""],
    "makefile": ["makefile", "make"],
    "crontab": ["", "cron"],
    "python": ["python", "py"],
    "javascript": ["js", "javascript"],
    "typescript": ["ts", "typescript"],
    "go": ["go"],
    "java": ["java"],
    "csharp": ["csharp", "cs"],
    "ruby": ["ruby", "rb"],
    "php": ["php"],
    "rust": ["rust", "rs"],
    "powershell": ["powershell", "ps1"],
    "terraform": ["hcl", "terraform", "tf"],
    "kubernetes": ["yaml"],
    "dockerfile": ["dockerfile", "Dockerfile"],
    "docker_compose": ["yaml"],
    "github_actions": ["yaml"],
    "log": ["", "text", "log"],
    "stack_trace": ["", "text", "pytb"],
    "sql": ["sql"],
    "diff": ["diff"],
    "http_response": ["http", ""],
    "jupyter": ["json"],
    "curl": ["bash", "sh", ""],
    "http_request": ["http", ""],
    "nginx": ["nginx"],
    "netrc": ["", "text"],
    "pgpass": [""],
    "npmrc": ["ini", ""],
    "pem": ["", "text"],
    "connection_string": ["", "text"],
    "lockfile": ["", "text"],
    "authorized_keys": ["", "text"],
    "html": ["html"],
}
FILES = {
    "env": [".env", ".env.production", ".env.local", "deploy/.env.staging"],
    "shell": ["deploy.sh", "~/.zshrc", "bootstrap.sh", "scripts/release.sh"],
    "yaml": ["config/settings.yaml", "values.prod.yaml", "app.yml"],
    "json": ["config.json", "appsettings.Production.json", "secrets.json"],
    "toml": ["config.toml", "pyproject.toml", ".streamlit/secrets.toml"],
    "ini": ["~/.aws/credentials", "settings.ini", "~/.my.cnf", "~/.pypirc"],
    "properties": ["application.properties", "gradle.properties"],
    "xml": ["web.config", "~/.m2/settings.xml", "App.config"],
    "systemd": ["/etc/systemd/system/worker.service"],
    "terraform": ["main.tf", "providers.tf", "terraform.tfvars"],
    "kubernetes": ["k8s/secret.yaml", "deploy.yaml"],
    "dockerfile": ["Dockerfile"],
    "docker_compose": ["docker-compose.yml", "compose.yaml"],
    "github_actions": [".github/workflows/deploy.yml"],
    "netrc": ["~/.netrc", "_netrc"],
    "pgpass": ["~/.pgpass"],
    "npmrc": ["~/.npmrc", ".npmrc"],
    "pem": ["server.key", "id_ed25519", "keys.txt", "signing.asc"],
    "makefile": ["Makefile"],
    "crontab": ["crontab -l"],
    "nginx": ["/etc/nginx/conf.d/api.conf"],
    "lockfile": ["package-lock.json", "go.sum", "requirements.txt"],
    "authorized_keys": ["~/.ssh/authorized_keys"],
    "html": ["index.html"],
    "jupyter": ["explore.ipynb"],
    "sql": ["seed.sql", "migrations/0042.sql"],
}


def compatible(ctx: str, it: Item) -> bool:
    if ctx in it.forms:
        return ctx not in ("lockfile",) or not it.secret
    if ctx in FORM_ONLY:
        return False
    es = it.entries
    if ctx == "html":
        return not it.secret and not it.multiline
    if ctx == "curl":
        return all(e.http or e.post or e.basic_user is not None for e in es) and not it.multiline
    if ctx in ("http_request", "nginx"):
        return all(e.http for e in es) and not it.multiline
    if ctx == "netrc":
        return all(e.netrc for e in es) and not it.multiline
    if ctx == "npmrc":
        return all(e.npmrc for e in es) and not it.multiline
    if ctx == "pem":
        return all(e.pem for e in es)
    if ctx == "url":
        return all(plain(e.frag).startswith(("https://", "http://", "otpauth://", "?sv=", "sv=")) for e in es)
    if it.multiline and ctx not in MULTI_OK:
        return False
    return not (ctx == "jupyter" and any("\\" in plain(e.frag) for e in es))


# --------------------------------------------------------------------------
# documents
# --------------------------------------------------------------------------

LOOK_ONLY_CTX = ["lockfile", "authorized_keys", "html"]
CTX_WEIGHT = dict.fromkeys(CARRIERS, 3)
CTX_WEIGHT.update(
    {
        "pgpass": 3,
        "connection_string": 6,
        "jupyter": 2,
        "crontab": 2,
        "makefile": 2,
        "nginx": 3,
        "http_request": 3,
        "csv": 2,
        "systemd": 2,
        "properties": 2,
        "xml": 2,
        "lockfile": 2,
        "authorized_keys": 2,
        "html": 2,
        "netrc": 5,
        "npmrc": 4,
        "pem": 4,
        "url": 4,
        "env": 5,
        "yaml": 5,
        "json": 4,
        "shell": 5,
        "prose": 5,
        "markdown_list": 4,
        "python": 4,
    }
)
CONFIGISH = [
    "env",
    "yaml",
    "json",
    "toml",
    "ini",
    "properties",
    "xml",
    "systemd",
    "kubernetes",
    "docker_compose",
    "github_actions",
    "terraform",
    "dockerfile",
    "makefile",
    "crontab",
    "python",
    "javascript",
    "typescript",
    "go",
    "java",
    "csharp",
    "ruby",
    "php",
    "rust",
    "powershell",
    "csv",
    "log",
    "shell",
]


def filler() -> Item:
    n, v = pick(
        [
            ("PORT", str(pk(["8080", "3000", "5000", "8443"]))),
            ("LOG_LEVEL", pk(["info", "debug", "warn"])),
            ("REGION", pk(REGIONS)),
            ("TIMEOUT_SECONDS", str(R.randint(5, 60))),
            ("APP_ENV", pk(["production", "staging"])),
            ("MAX_RETRIES", str(R.randint(2, 8))),
            ("CACHE_TTL", str(pk(["300", "600", "3600"]))),
            ("SERVICE_NAME", proj()),
            ("WORKERS", str(R.randint(2, 16))),
            ("DEBUG", "false"),
            ("TZ", pk(["Europe/Berlin", "UTC", "Asia/Tokyo", "America/New_York"])),
            ("BASE_URL", f"https://api.{dom()}"),
            ("DB_HOST", pk(["db.internal", "localhost", "postgres"])),
            ("DB_USER", pk(USERS)),
            ("SMTP_HOST", "smtp." + dom()),
            ("FEATURE_NEW_CHECKOUT", pk(["true", "false"])),
            ("NODE_ENV", "production"),
            ("DB_NAME", proj().replace("-", "_")),
        ]
    )  # type: ignore[misc]
    return Item("filler", [Entry(n, T(v), n.lower().replace("_", " "))], secret=False)


def mem_path(ext: str) -> str:
    folder = pk(["projects", "people", "runbooks", "incidents", "logs", "notes", "prefs", "snippets"])
    return f"/memories/{folder}/{pk([proj(), pk(PEOPLE).lower().replace('é', 'e').replace('è', 'e'), 'daily-' + rdate(), 'misc'])}.{ext}"


def doc_title(lang: str) -> str:
    return ltext(lang, "titles")


def dedupe_names(items: list[Item]) -> dict[str, int]:
    """Rename repeated variable names inside one document (a file never sets the same key twice)."""
    seen: dict[str, int] = {}
    for it in items:
        for e in it.entries:
            if e.name in seen:
                e.name = e.name + pk(["_2", "_OLD", "_NEW", "_BACKUP"]) if e.name.upper() == e.name else e.name + "2"
            seen[e.name] = seen.get(e.name, 0) + 1
    return seen


def split_prose(ctx: str, block_items: list[Item]) -> list[Item]:
    """Move some single-line items out of the main block into the surrounding prose."""
    moved: list[Item] = []
    if ctx in PROSE_CTX or ctx in FORM_ONLY or ctx in ("pem", "url"):
        return moved
    for it in list(block_items):
        if len(block_items) > 1 and not it.multiline and ctx not in it.forms and chance(0.12 if it.secret else 0.3):
            block_items.remove(it)
            moved.append(it)
    return moved


def block_files(ctx: str, block: Frag) -> list[str]:
    if ctx != "pem":
        return FILES.get(ctx, [])
    head = plain(block)[:60]
    if "CERTIFICATE" in head:
        return ["ca.crt", "tls.crt", "corp-root.pem"]
    if "OPENSSH" in head:
        return ["~/.ssh/id_ed25519", "deploy_key", "id_ecdsa"]
    if "PGP" in head:
        return ["release-signing.asc", "key.asc"]
    if "PUBLIC KEY" in head:
        return ["jwt-public.pem", "verify.pub.pem"]
    if "age" in head:
        return ["~/.config/sops/age/keys.txt", "keys.txt"]
    return ["server.key", "tls.key", "signing.pem", "AuthKey.p8"]


def frame_head(frame: str, lang: str, ctx: str, block: Frag) -> list[Frag]:
    """Title, intro, optional heading and file name, then the block (fenced unless it is prose)."""
    code = ctx not in PROSE_CTX and ctx != "url"
    files = block_files(ctx, block)
    title = doc_title(lang)
    parts: list[Frag] = []
    if frame == "txt":
        parts.append(T(pk([title, title.upper(), f"== {title} ==", f"{rdate()} {title}"])))
        parts.append(T(ltext(lang, "intro")))
        if code and files and chance(0.5):
            parts.append(T(pk(files) + ":"))
        parts.append(indent_all(block, "    ") if code and chance(0.3) else block)
        return parts
    parts.append(T("# " + title))
    if chance(0.35):
        parts.append(
            T(
                pk(
                    [
                        f"_updated {rdate()}_",
                        f"tags: #{proj()} #{pk(['infra', 'billing', 'ops', 'home', 'dev'])}",
                        f"Last touched: {rdate()} by {pk(PEOPLE)}",
                        f"> {ltext(lang, 'cmt')}",
                    ]
                )
            )
        )
    parts.append(T(ltext(lang, "intro")))
    if chance(0.5):
        parts.append(T("## " + ltext(lang, "head")))
    if code and files and chance(0.5):
        parts.append(T(f"`{pk(files)}`:"))
    parts.append(fenced(block, pk(FENCE.get(ctx, [""]))) if code else block)
    return parts


def build_body(ctx: str, items: list[Item], lang: str, frame: str) -> Frag:
    block_items = list(items)
    seen_names = dedupe_names(block_items)
    prose_items = split_prose(ctx, block_items)
    seq = block_items[:]
    if ctx in CONFIGISH:
        for _ in range(R.randint(0, 3)):
            f = filler()
            if f.entries[0].name not in seen_names:
                seen_names[f.entries[0].name] = 1
                seq.append(f)
    R.shuffle(seq)
    parts = frame_head(frame, lang, ctx, CARRIERS[ctx](seq, lang))
    if prose_items:
        pl = prose_lines(prose_items, lang)
        if frame != "txt" and chance(0.5):
            parts.append(join([cat("- ", p) for p in pl], "\n"))
        else:
            parts.append(join(pl, pk(["\n", " ", "\n\n"])))
    if chance(0.6):
        parts.append(T(ltext(lang, "outro")))
    return join(parts, "\n\n" if frame != "txt" else pk(["\n", "\n\n"]))


def build_doc(ctx: str, items: list[Item], lang: str) -> Frag:
    frame = wpick([("md", 62), ("txt", 14), ("json", 12), ("yaml", 12)])
    body = build_body(ctx, items, lang, frame)
    if frame == "md":
        if chance(0.25):
            path = mem_path("md")
            body = cat(pk([f"<!-- {path} -->\n", f"{path}\n\n", f"memory: {path}\n"]), body)
        return body
    if frame == "txt":
        return cat(mem_path("txt") + "\n" if chance(0.4) else "", body)
    tags = ", ".join(f'"{t}"' for t in [proj(), pk(["infra", "billing", "ops", "home", "dev", "people"])])
    if frame == "json":
        if chance(0.5):
            return cat(
                '{\n  "path": "',
                mem_path("json"),
                f'",\n  "updated": "{rdate()}T{R.randint(0, 23):02d}:{R.randint(0, 59):02d}:00Z",\n  "tags": [{tags}],\n  "content": "',
                fmap(body, esc_json),
                '"\n}',
            )
        return cat(
            '{"version": 2, "entries": [{"at": "',
            f"{rdate()} {R.randint(7, 22):02d}:{R.randint(0, 59):02d}",
            '", "author": "assistant", "text": "',
            fmap(body, esc_json),
            '"}]}',
        )
    return cat(
        f"path: {mem_path('yaml')}\nupdated: {rdate()}\ntags: [{tags.replace(chr(34), '')}]\ncontent: |\n  ",
        fmap(body, indent_fn("  ")),
    )


def flatten(frag: Frag) -> tuple[str, list[dict], list[dict]]:
    text_parts: list[str] = []
    pos = 0
    secrets: list[dict] = []
    looks: list[dict] = []
    for t, role, kind in frag:
        if role:
            lab = {"kind": kind, "value": t, "start": pos, "end": pos + len(t)}
            (secrets if role == "s" else looks).append(lab)
        text_parts.append(t)
        pos += len(t)
    return "".join(text_parts), secrets, looks


def assign_contexts(items: list[Item], gen_of: list[str]) -> list[str]:
    ctx_all = [c for c in CARRIERS if c not in LOOK_ONLY_CTX]
    used: dict[str, list[str]] = {}
    out: list[str] = []
    for it, g in zip(items, gen_of, strict=True):
        comp = [c for c in ctx_all if compatible(c, it)]
        if not comp:
            raise RuntimeError(f"no context for {g}")
        u = used.setdefault(g, [])
        fresh = [c for c in comp if c not in u]
        cands = fresh if fresh and chance(0.85) else comp
        c = wpick([(c, CTX_WEIGHT[c]) for c in cands])
        u.append(c)
        out.append(c)
    return out


def partition(n_items: int, n_docs: int, cap: int = 6) -> list[int]:
    sizes = [1] * n_docs
    for _ in range(n_items - n_docs):
        cands = [i for i in range(n_docs) if sizes[i] < cap] or list(range(n_docs))
        sizes[cands[R.randrange(len(cands))]] += 1
    return sizes


DocPlan = tuple[str, list[Item], bool]


def plan_secret_docs() -> list[DocPlan]:
    """Generate the secret items, give each a context and group them into the secret documents."""
    items: list[Item] = []
    gens: list[str] = []
    for name, fn, count in SECRET_GENS:
        for _ in range(count + R.randint(0, 2)):
            items.append(fn())
            gens.append(name)
    ctxs = assign_contexts(items, gens)
    buckets: dict[str, list[Item]] = {}
    for it, c in zip(items, ctxs, strict=True):
        buckets.setdefault(c, []).append(it)
    total = len(items)
    alloc = {c: max(1, min(len(b), round(len(b) * N_SECRET_DOCS / total))) for c, b in buckets.items()}
    while sum(alloc.values()) != N_SECRET_DOCS:
        diff = N_SECRET_DOCS - sum(alloc.values())
        order = (
            sorted(alloc, key=lambda c: (-len(buckets[c]) / alloc[c], c))
            if diff > 0
            else sorted(alloc, key=lambda c: (len(buckets[c]) / alloc[c], c))
        )
        for c in order:
            if diff > 0 and alloc[c] < len(buckets[c]):
                alloc[c] += 1
                break
            if diff < 0 and alloc[c] > 1:
                alloc[c] -= 1
                break
        else:
            raise RuntimeError("cannot balance secret documents")
    docs: list[DocPlan] = []
    for c, b in buckets.items():
        R.shuffle(b)
        k = 0
        for size in partition(len(b), alloc[c]):
            docs.append((c, b[k : k + size], True))
            k += size
    return docs


def plan_lookalike_docs(docs: list[DocPlan]) -> list[DocPlan]:
    """Generate the look-alike items: documents of their own, the rest added to secret documents."""
    looks: list[Item] = []
    for _name, fn, count in LOOK_GENS:
        for _ in range(count + R.randint(0, 3)):
            looks.append(fn())
    R.shuffle(looks)
    ctx_names = list(CARRIERS)
    comp = {c: [i for i, it in enumerate(looks) if compatible(c, it)] for c in ctx_names}
    used = [False] * len(looks)
    ptr = dict.fromkeys(ctx_names, 0)

    def take(c: str, k: int) -> list[Item]:
        got: list[Item] = []
        lst = comp[c]
        p = ptr[c]
        while len(got) < k and p < len(lst):
            i = lst[p]
            p += 1
            if not used[i]:
                used[i] = True
                got.append(looks[i])
        ptr[c] = p
        return got

    look_w = [(c, CTX_WEIGHT[c]) for c in ctx_names if c not in ("pgpass", "connection_string")]
    plain_docs: list[DocPlan] = []
    for _ in range(N_DOCS - N_SECRET_DOCS):
        for _attempt in range(60):
            c = wpick(look_w)
            got = take(c, pk([1, 1, 2, 2, 2, 3]))  # type: ignore[arg-type]
            if got:
                plain_docs.append((c, got, False))
                break
        else:
            raise RuntimeError("ran out of look-alikes")
    rest = [looks[i] for i in range(len(looks)) if not used[i]]
    extra: dict[int, int] = {}
    for it in rest:
        placed = False
        for _attempt in range(80):
            j = R.randrange(len(docs))
            if extra.get(j, 0) < 3 and compatible(docs[j][0], it):
                docs[j][1].append(it)
                extra[j] = extra.get(j, 0) + 1
                placed = True
                break
        if not placed:
            for j in range(len(plain_docs)):
                if compatible(plain_docs[j][0], it):
                    plain_docs[j][1].append(it)
                    placed = True
                    break
    return plain_docs


def build_corpus() -> list[dict]:
    docs = plan_secret_docs()
    all_docs = docs + plan_lookalike_docs(docs)
    R.shuffle(all_docs)
    out: list[dict] = []
    for n, (c, its, _sec) in enumerate(all_docs, 1):
        lang = wpick(LANG_WEIGHTS)
        frag = build_doc(c, its, lang)
        text, secrets, lks = flatten(frag)
        out.append(
            {"id": f"blind4-{n:04d}", "context": c, "text": text, "secrets": secrets, "lookalikes": lks, "_lang": lang}
        )
    return out


# --------------------------------------------------------------------------
# checks
# --------------------------------------------------------------------------


def check_spans(d: dict) -> None:
    """Offsets slice out values, spans are sorted and disjoint, no secret is left unlabelled elsewhere."""
    text = d["text"]
    labels = sorted(d["secrets"] + d["lookalikes"], key=lambda x: x["start"])
    if not labels:
        raise AssertionError(f"{d['id']} has no labelled value")
    prev_end = -1
    for lab in labels:
        if text[lab["start"] : lab["end"]] != lab["value"]:
            raise AssertionError(f"{d['id']}: offsets do not slice out {lab['value'][:30]!r}")
        if lab["start"] < prev_end:
            raise AssertionError(f"{d['id']}: overlapping spans")
        if not lab["value"] or lab["value"] != lab["value"].strip():
            raise AssertionError(f"{d['id']}: label with surrounding whitespace {lab['value'][:30]!r}")
        prev_end = lab["end"]
    for group in ("secrets", "lookalikes"):
        if [x["start"] for x in d[group]] != sorted(x["start"] for x in d[group]):
            raise AssertionError(f"{d['id']}: {group} not sorted")
    for lab in d["secrets"]:
        if len(lab["value"]) >= 12 and text.count(lab["value"]) > sum(
            1 for x in d["secrets"] if x["value"] == lab["value"]
        ):
            raise AssertionError(f"{d['id']}: secret {lab['value'][:24]!r} also appears unlabelled")


def check_corpus(docs: list[dict]) -> dict:
    ids = [d["id"] for d in docs]
    if len(ids) != len(dict.fromkeys(ids)):
        raise AssertionError("duplicate ids")
    if len(docs) != N_DOCS:
        raise AssertionError(f"{len(docs)} documents, expected {N_DOCS}")
    sec_kinds: dict[str, int] = {}
    sec_ctx: dict[str, dict[str, int]] = {}
    look_kinds: dict[str, int] = {}
    n_secret_docs = 0
    for d in docs:
        check_spans(d)
        for lab in d["secrets"]:
            sec_kinds[lab["kind"]] = sec_kinds.get(lab["kind"], 0) + 1
            sec_ctx.setdefault(lab["kind"], {})[d["context"]] = 1
        for lab in d["lookalikes"]:
            look_kinds[lab["kind"]] = look_kinds.get(lab["kind"], 0) + 1
        if d["secrets"]:
            n_secret_docs += 1
    low = [k for k, n in sec_kinds.items() if n < MIN_SECRET_EXAMPLES]
    narrow = [k for k, cs in sec_ctx.items() if len(cs) < MIN_SECRET_CONTEXTS]
    low_l = [k for k, n in look_kinds.items() if n < MIN_LOOK_EXAMPLES]
    if low or narrow or low_l:
        raise AssertionError(f"minimums not met: secrets {low}, contexts {narrow}, look-alikes {low_l}")
    if len(sec_kinds) < MIN_SECRET_KINDS or len(look_kinds) < MIN_LOOK_KINDS:
        raise AssertionError(f"too few kinds: {len(sec_kinds)} secret, {len(look_kinds)} look-alike")
    if not 0.45 <= n_secret_docs / len(docs) <= 0.55:
        raise AssertionError(f"{n_secret_docs} secret documents")
    return {"sec_kinds": sec_kinds, "sec_ctx": sec_ctx, "look_kinds": look_kinds, "n_secret_docs": n_secret_docs}


def serialize(docs: list[dict]) -> bytes:
    lines = []
    for d in docs:
        obj = {
            "id": d["id"],
            "context": d["context"],
            "text": d["text"],
            "secrets": d["secrets"],
            "lookalikes": d["lookalikes"],
        }
        line = json.dumps(obj, ensure_ascii=False)
        if json.loads(line) != obj:
            raise AssertionError("JSON round trip failed")
        lines.append(line)
    return ("\n".join(lines) + "\n").encode("utf-8")


def sums_line(data: bytes) -> str:
    line = f"{hashlib.sha256(data).hexdigest()}  corpus.jsonl\n"
    hexpart, name = line[:64], line[66:]
    if not all(c in HEX for c in hexpart) or line[64:66] != "  " or name != "corpus.jsonl\n":
        raise AssertionError("bad SHA256SUMS line")
    return line


# --------------------------------------------------------------------------
# README
# --------------------------------------------------------------------------

SECRET_FORMAT = {
    "aws_access_key_id": "`AKIA` + 16 base32 (`ASIA` for STS); labelled because it travels with its secret",
    "aws_secret_access_key": "40 chars `[A-Za-z0-9+/]`",
    "aws_session_token": "base64 STS token (`IQoJb3JpZ2luX2Vj...`) next to its `ASIA` id and secret",
    "gcp_service_account_key": "real 2048-bit RSA PKCS #8 key inside service-account JSON, with its `\\n` escapes",
    "google_api_key": "`AIza` + 35 `[A-Za-z0-9_-]` (server-side Maps / Gemini / YouTube keys)",
    "azure_storage_account_key": "88-char base64 (64 bytes), bare or as `AccountKey=`",
    "azure_sas_signature": "URL-encoded `sig=` of a SAS URL or token (only the signature)",
    "azure_ad_client_secret": "Entra ID client secret: 3 chars + digit + `Q~` + 34",
    "azure_shared_access_key": "44-char base64 `SharedAccessKey=` (Service Bus / Event Hubs)",
    "azure_cosmosdb_key": "88-char base64 `AccountKey=` of a Cosmos DB connection string",
    "azure_devops_pat": "52 chars `[a-z2-7]`",
    "digitalocean_token": "`dop_v1_` / `doo_v1_` + 64 hex",
    "alibaba_access_key_id": "`LTAI` + 20 alphanumerics",
    "alibaba_access_key_secret": "30 alphanumerics next to its `LTAI` id",
    "ibm_cloud_api_key": "44 chars `[A-Za-z0-9_-]`",
    "oci_auth_token": "20-char OCI auth token with punctuation (`docker login <region>.ocir.io`)",
    "cloudflare_api_token": "40 chars `[A-Za-z0-9_-]`",
    "cloudflare_global_api_key": "37 hex (`X-Auth-Key`)",
    "heroku_api_key": "`HRKU-AA` + 58, or a UUID under a Heroku name",
    "flyio_token": "`fo1_` + 43, or the `fm2_...` macaroon after `FlyV1 `",
    "vercel_token": "`vcp_` + 56, or a 24-char legacy token",
    "netlify_token": "`nfp_` + 40",
    "supabase_secret_key": "`sb_secret_...` API key or `sbp_` + 40 hex access token",
    "render_api_key": "`rnd_` + 32",
    "github_pat_classic": "`ghp_` + 30 base62 + 6-char base62 CRC32",
    "github_oauth_token": "`gho_` + 30 + CRC32",
    "github_app_token": "`ghs_` / `ghu_` + 30 + CRC32",
    "github_refresh_token": "`ghr_` + 30 + CRC32",
    "github_fine_grained_pat": "`github_pat_11` + 20 + `_` + 59",
    "gitlab_token": "`glpat-` / `gldt-` / `glrt-` + 20, `glptt-` + 40 hex",
    "bitbucket_app_password": "`ATBB` + 32",
    "atlassian_api_token": "`ATATT3xFfGF0` / `ATCTT3xFfGN0` + ~170 + `=` + 8 hex",
    "circleci_token": "`CCIPAT_` + 22 base58 + `_` + 40 hex, or 40 hex legacy",
    "jenkins_api_token": "`11` + 32 hex",
    "buildkite_token": "`bkua_` + 40 hex",
    "terraform_cloud_token": "14 + `.atlasv1.` + 67",
    "vault_token": "`hvs.` (short and long), `hvb.`, legacy `s.`",
    "doppler_token": "`dp.pt.` + 43, `dp.st.<config>.` + 40",
    "pulumi_access_token": "`pul-` + 40 hex",
    "stripe_secret_key": "`sk_live_` + 24, or `sk_live_51` + 97",
    "stripe_restricted_key": "`rk_live_` + 24, or `rk_live_51` + 97",
    "stripe_webhook_secret": "`whsec_` + 32",
    "square_access_token": "`EAAA` + 60, legacy `sq0atp-` + 22",
    "paypal_client_secret": "80 chars starting `E` (client id labelled as a look-alike)",
    "adyen_api_key": "`AQE...` three-part key",
    "braintree_secret": "`access_token$production$...$...`, or a 32-hex private key",
    "razorpay_key_secret": "24 alphanumerics (key id `rzp_live_` is a look-alike)",
    "shopify_access_token": "`shpat_` / `shpca_` / `shppa_` + 32 hex",
    "shopify_shared_secret": "`shpss_` + 32 hex",
    "slack_bot_token": "`xoxb-` digits-digits-24",
    "slack_user_token": "`xoxp-` 12-12-13-32 hex",
    "slack_app_token": "`xapp-1-A...-<13 digits>-<64 hex>`",
    "slack_webhook_url": "whole `https://hooks.slack.com/services/T.../B.../...` URL",
    "discord_bot_token": "base64(user id) + `.` + 6 + `.` + 38",
    "discord_webhook_url": "whole `https://discord.com/api/webhooks/<id>/<68>` URL",
    "telegram_bot_token": "`<digits>:AA` + 33",
    "twilio_auth_token": "32 hex (Account SID is a look-alike)",
    "twilio_api_key_secret": "32 alphanumerics (the `SK...` SID is a look-alike)",
    "sendgrid_api_key": "`SG.` + 22 + `.` + 43",
    "mailgun_api_key": "`key-` + 32 hex, or `<32 hex>-<8 hex>-<8 hex>`",
    "mailchimp_api_key": "32 hex + `-us<N>`",
    "postmark_server_token": "UUID (only the name / header tells)",
    "msteams_webhook_url": "whole `*.webhook.office.com/webhookb2/...` or Logic Apps workflow URL",
    "openai_api_key": "`sk-proj-` / `sk-svcacct-` / `sk-admin-` ... `T3BlbkFJ` ..., legacy `sk-` 48",
    "anthropic_api_key": "`sk-ant-api03-` / `sk-ant-admin01-` + 93 + `AA`",
    "huggingface_token": "`hf_` + 34 letters",
    "cohere_api_key": "40 alphanumerics (name only)",
    "replicate_api_token": "`r8_` + 37",
    "groq_api_key": "`gsk_` + 52",
    "mistral_api_key": "32 alphanumerics (name only)",
    "perplexity_api_key": "`pplx-` + 48",
    "xai_api_key": "`xai-` + 80",
    "datadog_api_key": "32 hex (name / `DD-API-KEY`)",
    "datadog_app_key": "40 hex (name / `DD-APPLICATION-KEY`)",
    "newrelic_license_key": "36 hex + `NRAL`",
    "newrelic_user_api_key": "`NRAK-` + 27",
    "sentry_auth_token": "`sntrys_` + base64 JSON + `_` + 43, or `sntryu_` + 64 hex",
    "sentry_dsn_secret": "secret part of a legacy `https://<public>:<secret>@host/<id>` DSN (public part unlabelled)",
    "grafana_token": "`glsa_` + 32 + `_` + 8 hex, or `glc_` + base64 JSON",
    "honeycomb_api_key": "`hc?ik_` + 58, or 32-hex classic key",
    "pagerduty_key": "20-char REST key (`Token token=`) or 32-hex routing key",
    "splunk_hec_token": "UUID after `Splunk `",
    "okta_api_token": "`00` + 40 (`SSWS`)",
    "npm_token": "`npm_` + 30 + CRC32",
    "pypi_token": "`pypi-` + base64url of a real macaroon (HMAC chain over id and caveat)",
    "rubygems_api_key": "`rubygems_` + 48 hex",
    "nuget_api_key": "`oy2` + 43 `[a-z0-9]`",
    "dockerhub_pat": "`dckr_pat_` / `dckr_oat_` + 27",
    "jfrog_token": "base64 `reftkn:01:...` reference token, or `AKCp` + 69",
    "cratesio_token": "`cio` + 32",
    "postgres_password": "password in URLs, SQLAlchemy, JDBC, libpq, Npgsql, `PGPASSWORD`, `.pgpass`, `ALTER ROLE`",
    "mysql_password": "password in URLs, Go DSN, JDBC, SQLAlchemy, `-p'...'`, `my.cnf`, `CREATE USER`",
    "mongodb_password": "password in `mongodb://` / `mongodb+srv://` URIs, `mongosh --password`",
    "redis_password": "password in `redis://` / `rediss://`, StackExchange syntax, `redis-cli -a`",
    "amqp_password": "password in `amqp://` / `amqps://` URLs, `RABBITMQ_DEFAULT_PASS`",
    "mssql_password": "password in ADO.NET, JDBC, ODBC, SQLAlchemy, `sqlcmd -P`, `CREATE LOGIN`",
    "rsa_private_key": "real 2048-bit RSA, PKCS #1 or PKCS #8 PEM",
    "ec_private_key": "real P-256 key, SEC 1 or PKCS #8 PEM",
    "ed25519_private_key": "PKCS #8 Ed25519 PEM",
    "openssh_private_key": "`openssh-key-v1` Ed25519 / ECDSA with the matching public key",
    "pgp_private_key": "armored v4 EdDSA secret key, user id and a real self-signature, CRC24",
    "jwt": "HS256 (real HMAC) or ES256 (real ECDSA) JWTs, incl. Supabase service-role keys",
    "http_basic_auth": "base64(`user:password`) after `Basic `",
    "bearer_token": "opaque token after `Bearer ` / in a token variable",
    "generic_password": "human and random passwords under many names (SMTP, LDAP, Wi-Fi, `.netrc`, `sshpass -p`)",
    "generic_api_key": "32-64 char keys for unnamed or in-house services",
    "oauth_client_secret": "Google `GOCSPX-`, GitHub 40 hex, Auth0 64, Keycloak 32 (client ids are look-alikes)",
    "session_cookie": "cookie values (`sessionid`, `connect.sid`, Rails, `PHPSESSID`, Laravel)",
    "signed_url_signature": "S3 `X-Amz-Signature`, GCS `X-Goog-Signature`, CloudFront `Signature` (only the signature)",
    "totp_seed": "base32 seed, bare or in `otpauth://` URIs",
    "encryption_key": "32-byte keys as hex / base64, Laravel `base64:`, Fernet, Rails master key",
    "app_secret_key": "Django `SECRET_KEY`, Rails `secret_key_base`, NextAuth / session / JWT secrets",
    "onepassword_secret": "`ops_` service-account token or `A3-...` Secret Key",
    "age_secret_key": "`AGE-SECRET-KEY-1` + bech32 (real X25519 key, recipient alongside)",
    "bitwarden_access_token": "`0.<uuid>.<30>:<base64>` machine-account token",
    "base64_credential": "base64 passwords in Kubernetes `data:`, Docker `auths`, `.npmrc` `_auth`",
    "databricks_token": "`dapi` + 32 hex",
    "linear_api_key": "`lin_api_` + 40",
    "postman_api_key": "`PMAK-` + 24 hex + `-` + 34 hex",
    "mapbox_secret_token": "`sk.` + base64url JSON + `.` + 22",
    "dynatrace_token": "`dt0c01.` + 24 + `.` + 64",
    "airtable_pat": "`pat` + 14 + `.` + 64 hex",
    "algolia_admin_key": "32 hex admin key (name only; app id is a look-alike)",
}

LOOK_FORMAT = {
    "git_sha": "full and short commit SHAs, pinned actions, diff `index` lines",
    "uuid": "UUID v4 ids under id-ish names",
    "sha256_hex": "SHA-256 checksums (`sha256sum -c`, pip `--hash`)",
    "md5_hex": "MD5 / ETag",
    "container_digest": "`sha256:` image digests",
    "sri_integrity": "`sha256-` / `sha384-` / `sha512-` SRI hashes",
    "npm_integrity": "`sha512-` in package-lock",
    "go_module_sum": "go.sum `h1:` hashes",
    "semver": "versions",
    "stripe_publishable_key": "`pk_live_...`",
    "razorpay_key_id": "`rzp_live_` / `rzp_test_` key ids",
    "oauth_client_id": "Google, GitHub, Entra, Auth0, PayPal client ids",
    "firebase_web_api_key": "`AIza...` in Firebase web configs / public env names",
    "sentry_dsn": "public Sentry DSNs",
    "algolia_search_key": "search-only Algolia keys",
    "aws_example_key": "AWS documentation `...EXAMPLE` keys",
    "documented_example": "Stripe docs test keys, jwt.io sample, `JBSWY3DPEHPK3PXP`",
    "placeholder": "`<your-api-key>`, `changeme`, `xxxx`, `REPLACE_ME`, ...",
    "env_reference": "`${X}`, `$X`, `%X%`, `os.environ[...]`, `process.env.X`, `getenv(...)`, ...",
    "template_reference": "`${{ secrets.X }}`, Helm, Jinja, ERB, `${var.x}`, `%(x)s`",
    "secret_manager_reference": "`op://`, `vault:`, `{{resolve:...}}`, Key Vault, GCP, SSM paths",
    "masked_value": "`****`, `[REDACTED]`, `ghp_…abcd`, ...",
    "encrypted_value": "SOPS `ENC[...]`, sealed-secrets `AgB...`, Jenkins `{AQAAAB...}`",
    "data_uri": "PNG / SVG / GIF / WOFF2 data URIs",
    "base64_text": "base64 of ordinary text",
    "long_identifier": "class, function and test names",
    "file_path": "Unix and Windows paths (incl. paths to key files)",
    "url": "URLs without credentials",
    "s3_bucket": "S3 bucket names",
    "arn": "AWS ARNs (incl. secret ARNs)",
    "k8s_resource_name": "pod names with hash suffixes",
    "ssh_public_key": "real ssh-ed25519 / ecdsa public keys",
    "certificate_pem": "real self-signed P-256 certificates",
    "pgp_public_key": "armored PGP public keys",
    "public_key_pem": "`BEGIN PUBLIC KEY` (P-256, Ed25519)",
    "key_fingerprint": "SSH SHA256, PGP and MD5 fingerprints",
    "age_recipient": "`age1...` recipients",
    "iban": "IBANs with valid check digits",
    "phone_number": "phone numbers",
    "isbn": "ISBN-13 with valid check digit",
    "hex_color": "hex colours",
    "request_id": "Stripe `req_`, AWS, Cloudflare ray, Azure ids",
    "trace_id": "`traceparent`, trace ids, X-Ray roots",
    "build_number": "CI build and run numbers",
    "url_slug_id": "YouTube, Google Docs, Figma, Notion ids in URLs",
    "crypto_address": "base58check and bech32 bitcoin addresses",
    "account_identifier": "AWS account ids, Twilio SIDs, `acct_`, Slack team, app ids",
    "public_site_key": "Mapbox `pk.`, reCAPTCHA, Turnstile site keys",
    "ulid": "ULIDs",
    "date_time": "timestamps (ISO, epoch, RFC 7231)",
    "key_identifier": "GCP `private_key_id`, KMS key ids, JWT `kid`, GPG key ids",
}


RUNTIME_NOTE = 20.0  # seconds measured when writing it; a constant so the README stays byte-identical


def make_readme(docs: list[dict], st: dict, sums: str, seconds: float) -> str:
    n = len(docs)
    sec_spans = sum(st["sec_kinds"].values())
    look_spans = sum(st["look_kinds"].values())
    with_look = sum(1 for d in docs if d["lookalikes"])
    lengths = sorted(len(d["text"]) for d in docs)
    median = lengths[n // 2]
    non_ascii = sum(1 for d in docs if any(ord(c) > 127 for c in d["text"]))
    langs: dict[str, int] = {}
    for d in docs:
        langs[d["_lang"]] = langs.get(d["_lang"], 0) + 1
    lang_names = {
        "en": "English",
        "de": "German",
        "fr": "French",
        "es": "Spanish",
        "it": "Italian",
        "nl": "Dutch",
        "pl": "Polish",
        "ja": "Japanese",
        "zh": "Chinese",
    }
    ctx_docs: dict[str, list[int]] = {}
    for d in docs:
        c = ctx_docs.setdefault(d["context"], [0, 0])
        c[0] += 1
        c[1] += 1 if d["secrets"] else 0
    min_sec = min(st["sec_kinds"].values())
    min_ctx = min(len(v) for v in st["sec_ctx"].values())
    min_look = min(st["look_kinds"].values())
    out = [
        "# secrets_blind_v4",
        "",
        f"A held-out test corpus for the secret-detection engine: {n:,} documents shaped like an AI assistant's memory files "
        "(`/memories/*.md`, `*.json`, `*.yaml`, `*.txt`): notes about a user and their projects, runbooks, incident timelines, daily logs, "
        "coding notes, checklists and chat excerpts, with configuration, code in many languages, commands, HTTP exchanges, logs and stack traces "
        "pasted in. Each document lists the secrets in it (to be reported) and the look-alikes in it (public values that must not be reported).",
        "",
        "## How it was built",
        "",
        "- Generator: [`../make_blind_secrets_v4.py`](../make_blind_secrets_v4.py), Python 3.11 standard library only, a single "
        f"`random.Random({SEED})`. Output bytes do not depend on `PYTHONHASHSEED`, the clock or the machine.",
        "",
        f"- Regenerate with `python3 tests/corpora/make_blind_secrets_v4.py` (or `--out DIR`); it took about {max(1, round(seconds))} seconds here, "
        "most of it spent finding RSA primes.",
        "",
        "- Before writing, the script checks that every offset slices out its value, that spans are sorted and never overlap, that ids are unique, "
        "that no labelled secret also appears unlabelled in the same text, the per-kind minimums, the share of secret documents and the "
        "`SHA256SUMS` line; it raises if any check fails.",
        "",
        "- Written blind. While building it I did not open, read, grep, list or run anything under `sandbox/`, `policies/`, `bench/` or `tests/` "
        "other than the v3 README (`tests/corpora/secrets_blind_v3/README.md`), which I read only for the file format, the labelling "
        "conventions and the layout of this file. No other corpus or generator under `tests/corpora/` was looked at, the `sandbox` package was "
        "never imported and the project's scanner was never run; the repository's `pyproject.toml` was read only for its ruff settings. Token formats come from providers' public documentation (looked up where unsure); "
        "all templates and prose are new.",
        "",
        "- Every secret is random. Structured values are real: GitHub and npm tokens carry their CRC32 checksum in base62; PyPI tokens are "
        "macaroons with a real HMAC chain; JWTs carry real HS256 / ES256 signatures; RSA, P-256, Ed25519 and X25519 keys are real key pairs "
        "(RSA primes are found in pure Python); OpenSSH keys embed the matching public key; PGP keys hold a valid self-signature and CRC24 "
        "armor checksum; certificates are valid self-signed X.509; age keys, bech32 and base58check addresses have correct checksums; IBANs "
        "and ISBNs have valid check digits. Documented sample keys (AWS `...EXAMPLE`, Stripe docs keys, the jwt.io token) are look-alikes.",
        "",
        "## File format",
        "",
        "`corpus.jsonl` holds one JSON object per line (UTF-8, `ensure_ascii=False`) with exactly these keys:",
        "",
        "```json",
        '{"id": "blind4-0001", "context": "yaml", "text": "...", "secrets": [{"kind": "...", "value": "...", "start": 0, "end": 0}], "lookalikes": []}',
        "```",
        "",
        "- `start` / `end` are Python string (code point) offsets: `text[start:end] == value`. Within a document the spans never overlap; each list "
        "is sorted by `start`.",
        "- `context` names the shape of the document's main block; the document around it is still a memory file (markdown, JSON, YAML or plain "
        "text frame), and some values sit in the surrounding prose instead of the block.",
        "- Only the sensitive part is labelled: the password inside a URL, DSN or connection string (not user or host), the signature of a SAS or "
        "pre-signed URL, the credential after `Bearer `, `Basic `, `token `, `Bot `, `SSWS `, `Splunk `, `Api-Token `, `FlyV1 `, the cookie value after "
        "`name=`, the base64 after Laravel's `base64:`. Webhook URLs (Slack, Discord, Teams) are labelled whole. AWS and Alibaba access key ids are "
        "labelled as secrets (they come with their secrets; a key id inside a pre-signed S3 URL is labelled too).",
        "- Companions that are not secret (Twilio and Twilio API key SIDs, OAuth client ids, Razorpay key ids, Algolia app ids, GCP `private_key_id`, "
        "Braintree merchant ids and public keys, Azure tenant ids) are labelled as look-alikes; users, hosts, ports, regions and other neutral text are "
        "left unlabelled and are not secret either.",
        "- A value is labelled exactly as it appears: a PEM key in JSON or in a quoted string keeps its `\\n` escapes; in a YAML block scalar, a Ruby "
        "squiggly heredoc, a Terraform heredoc or a YAML-framed memory file it keeps the indentation of its continuation lines; in a blockquote it "
        "keeps the `> ` prefixes; in a diff the `+` prefixes; a long token hard-wrapped in a log keeps its newlines; a value inside a JSON-framed "
        "memory file keeps the JSON escaping.",
        "",
        "## Numbers",
        "",
        f"- {n:,} documents; {st['n_secret_docs']} ({100 * st['n_secret_docs'] / n:.0f}%) hold at least one secret; {with_look} hold look-alikes; "
        "every document has at least one labelled value.",
        f"- {sec_spans:,} secret spans over {len(st['sec_kinds'])} kinds (at least {min_sec} each, each kind in at least {min_ctx} different contexts); "
        f"{look_spans:,} look-alike spans over {len(st['look_kinds'])} kinds (at least {min_look} each).",
        f"- Length: {lengths[0]:,} to {lengths[-1]:,} characters, median {median:,}.",
        "- Languages of the prose: "
        + ", ".join(f"{lang_names[k]} {v}" for k, v in sorted(langs.items(), key=lambda kv: (-kv[1], kv[0])))
        + f"; {non_ascii} documents contain non-ASCII text.",
        f"- {len(ctx_docs)} contexts (table below), four memory-file frames, prose in nine languages.",
        "",
        "## Secret kinds",
        "",
        "| kind | format | examples | contexts |",
        "| --- | --- | ---: | ---: |",
    ]
    for k in sorted(st["sec_kinds"]):
        out.append(f"| `{k}` | {SECRET_FORMAT.get(k, '')} | {st['sec_kinds'][k]} | {len(st['sec_ctx'][k])} |")
    out += ["", "## Look-alike kinds", "", "| kind | what | examples |", "| --- | --- | ---: |"]
    for k in sorted(st["look_kinds"]):
        out.append(f"| `{k}` | {LOOK_FORMAT.get(k, '')} | {st['look_kinds'][k]} |")
    out += ["", "## Contexts", "", "| context | documents | with secrets |", "| --- | ---: | ---: |"]
    for c, (a, b) in sorted(ctx_docs.items(), key=lambda kv: (-kv[1][0], kv[0])):
        out.append(f"| `{c}` | {a} | {b} |")
    out += ["", "## Checksum", "", "`SHA256SUMS`:", "", "```", sums.rstrip("\n"), "```", ""]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Write the blind secret-detection corpus v4.")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (default: %(default)s)")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    R.seed(SEED)
    docs = build_corpus()
    st = check_corpus(docs)
    data = serialize(docs)
    sums = sums_line(data)
    seconds = time.perf_counter() - t0
    readme = make_readme(docs, st, sums, RUNTIME_NOTE)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    (out / "corpus.jsonl").write_bytes(data)
    (out / "SHA256SUMS").write_text(sums, encoding="utf-8")
    (out / "README.md").write_text(readme, encoding="utf-8")
    if hashlib.sha256((out / "corpus.jsonl").read_bytes()).hexdigest() != sums[:64]:
        raise AssertionError("written corpus does not match SHA256SUMS")
    print(
        f"{len(docs)} documents, {st['n_secret_docs']} with secrets, {sum(st['sec_kinds'].values())} secret spans / "
        f"{len(st['sec_kinds'])} kinds, {sum(st['look_kinds'].values())} look-alike spans / {len(st['look_kinds'])} kinds, "
        f"{seconds:.1f}s -> {out}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
