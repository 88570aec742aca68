#!/usr/bin/env python3
"""Build secrets_blind_v7: a held-out, labelled corpus of /memories documents for secret detection.

Standard library only; every random choice comes from one ``random.Random(20270307)``. Values are
wrapped in private-use markers when they are made, rendering happens on the marked text, and the
label offsets are read off the final text when the markers are stripped.

Usage: python3 tests/corpora/make_blind_secrets_v7.py [--out DIR]
"""

# ruff: noqa: RUF001 -- the Greek, Hebrew, Persian and Thai phrase tables use letters that resemble Latin ones

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import itertools
import json
import random
import re
import string
import struct
import zlib
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

SEED = 20270307
R = random.Random(SEED)
N_DOCS = 1200
PER_KIND = 16
PER_LOOK = 32
MIN_KIND_EXAMPLES = 15
MIN_KIND_CONTEXTS = 8
MIN_KINDS = 120
MIN_NEW_KINDS = 30
MIN_LOOK_KINDS = 40
MIN_LOOK_EXAMPLES = 30

S0, S1, S2 = "\ue000", "\ue001", "\ue002"

DIG = string.digits
HEX = "0123456789abcdef"
LOW = string.ascii_lowercase
UPP = string.ascii_uppercase
AN = DIG + UPP + LOW
B64 = AN + "+/"
B64U = AN + "-_"
B32 = UPP + "234567"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
ALPH = {
    "d": DIG,
    "h": HEX,
    "H": HEX.upper(),
    "a": AN,
    "l": LOW + DIG,
    "u": UPP + DIG,
    "b": B64,
    "w": B64U,
    "L": LOW,
    "U": UPP,
    "3": B32,
    "5": B58,
}
PAT = re.compile(r"\{([dhHaluwbLU35])(\d+)\}")


def rs(alphabet: str, n: int) -> str:
    return "".join(R.choice(alphabet) for _ in range(n))


def gen(pattern: str) -> str:
    return PAT.sub(lambda mo: rs(ALPH[mo.group(1)], int(mo.group(2))), pattern)


def rbytes(n: int) -> bytes:
    return bytes(R.getrandbits(8) for _ in range(n))


def b64(b: bytes) -> str:
    return base64.b64encode(b).decode()


def b64u(b: bytes) -> str:
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def uuid4() -> str:
    return gen("{h8}-{h4}-4{h3}-") + R.choice("89ab") + gen("{h3}-{h12}")


def mark(kind: str, value: str, secret: bool = True) -> str:
    if not value or value != value.strip():
        raise ValueError(f"bad value for {kind}: {value!r}")
    return f"{S0}{'s' if secret else 'l'}{kind}{S1}{value}{S2}"


def lk(kind: str, value: str) -> str:
    return mark(kind, value, secret=False)


def unmark(marked: str) -> tuple[str, str, str]:
    head, rest = marked[1:].split(S1, 1)
    return head[0], head[1:], rest[:-1]


def rewrap(marked: str, width: int) -> str:
    flag, kind, value = unmark(marked)
    parts = [value[i : i + width] for i in range(0, len(value), width)]
    return f"{S0}{flag}{kind}{S1}{chr(10).join(parts)}{S2}"


# ---------------------------------------------------------------- encodings with real structure

B62 = DIG + UPP + LOW


def base62(n: int, width: int) -> str:
    out = ""
    while n:
        n, r = divmod(n, 62)
        out = B62[r] + out
    return out.rjust(width, "0")


def crc_token(prefix: str, n: int = 30) -> str:
    body = rs(AN, n)
    return prefix + body + base62(zlib.crc32(body.encode()), 6)


def jwt(payload: dict[str, object]) -> str:
    head = b64u(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    body = b64u(json.dumps(payload, separators=(",", ":")).encode())
    sig = hmac.new(rbytes(32), f"{head}.{body}".encode(), hashlib.sha256).digest()
    return f"{head}.{body}.{b64u(sig)}"


BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def _polymod(values: list[int]) -> int:
    gens = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
    chk = 1
    for v in values:
        top = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ v
        for i in range(5):
            chk ^= gens[i] if (top >> i) & 1 else 0
    return chk


def _conv(data: bytes) -> list[int]:
    acc, bits, out = 0, 0, []
    for b in data:
        acc = (acc << 8) | b
        bits += 8
        while bits >= 5:
            bits -= 5
            out.append((acc >> bits) & 31)
    if bits:
        out.append((acc << (5 - bits)) & 31)
    return out


def bech32(hrp: str, data5: list[int]) -> str:
    exp = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]
    pm = _polymod([*exp, *data5, 0, 0, 0, 0, 0, 0]) ^ 1
    chk = [(pm >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(BECH[d] for d in data5 + chk)


def b58check(payload: bytes) -> str:
    full = payload + hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    n = int.from_bytes(full, "big")
    out = ""
    while n:
        n, r = divmod(n, 58)
        out = B58[r] + out
    pad = len(full) - len(full.lstrip(b"\0"))
    return "1" * pad + out


def der_len(n: int) -> bytes:
    if n < 128:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


def der(tag: int, body: bytes) -> bytes:
    return bytes([tag]) + der_len(len(body)) + body


def der_int(x: int) -> bytes:
    return der(2, x.to_bytes(x.bit_length() // 8 + 1, "big"))


def seq(*parts: bytes) -> bytes:
    return der(0x30, b"".join(parts))


def oid(hexstr: str) -> bytes:
    return der(6, bytes.fromhex(hexstr))


NULL = b"\x05\x00"
OID_RSA = oid("2a864886f70d010101")
OID_EC = oid("2a8648ce3d0201")
OID_P256 = oid("2a8648ce3d030107")
OID_ECDSA_SHA256 = oid("2a8648ce3d040302")


def pem(label: str, blob: bytes, width: int = 64) -> str:
    s = b64(blob)
    lines = [s[i : i + width] for i in range(0, len(s), width)]
    return f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----"


def rint(bits: int) -> int:
    return R.getrandbits(bits) | (1 << (bits - 1)) | 1


def rsa_der(pkcs8: bool) -> bytes:
    n, p, q = rint(2048), rint(1024), rint(1024)
    body = seq(
        der_int(0), der_int(n), der_int(65537), der_int(rint(2047)), der_int(p), der_int(q),
        der_int(rint(1023)), der_int(rint(1023)), der_int(rint(1023)),
    )  # fmt: skip
    if not pkcs8:
        return body
    return seq(der_int(0), seq(OID_RSA, NULL), der(4, body))


def rsa_pem() -> str:
    if R.random() < 0.5:
        return pem("RSA PRIVATE KEY", rsa_der(False))
    return pem("PRIVATE KEY", rsa_der(True))


def ec_point() -> bytes:
    return der(3, b"\x00\x04" + rbytes(64))


def ec_pem() -> str:
    priv = der(4, rbytes(32))
    if R.random() < 0.5:
        return pem("EC PRIVATE KEY", seq(der_int(1), priv, der(0xA0, OID_P256), der(0xA1, ec_point())))
    inner = seq(der_int(1), priv, der(0xA1, ec_point()))
    return pem("PRIVATE KEY", seq(der_int(0), seq(OID_EC, OID_P256), der(4, inner)))


def ed25519_pem() -> str:
    return pem("PRIVATE KEY", bytes.fromhex("302e020100300506032b657004220420") + rbytes(32))


def dsa_pem() -> str:
    body = seq(
        der_int(0), der_int(rint(2048)), der_int(rint(256)), der_int(rint(2047)), der_int(rint(2047)),
        der_int(rint(255)),
    )  # fmt: skip
    return pem("DSA PRIVATE KEY", body)


def encrypted_pem() -> str:
    kdf = seq(oid("2a864886f70d01050c"), seq(der(4, rbytes(16)), der_int(2048), seq(oid("2a864886f70d0209"), NULL)))
    enc = seq(oid("60864801650304012a"), der(4, rbytes(16)))
    alg = seq(oid("2a864886f70d01050d"), seq(kdf, enc))
    return pem("ENCRYPTED PRIVATE KEY", seq(alg, der(4, rbytes(R.choice([160, 208, 1232])))))


def cosign_pem() -> str:
    doc = {
        "kdf": {"name": "scrypt", "params": {"N": 32768, "r": 8, "p": 1}, "salt": b64(rbytes(32))},
        "cipher": {"name": "nacl/secretbox", "nonce": b64(rbytes(24))},
        "ciphertext": b64(rbytes(156)),
    }
    return pem("ENCRYPTED SIGSTORE PRIVATE KEY", json.dumps(doc, separators=(",", ":")).encode())


def sshstr(b: bytes) -> bytes:
    return struct.pack(">I", len(b)) + b


def openssh_pem(comment: str) -> str:
    pk, seed = rbytes(32), rbytes(32)
    pub = sshstr(b"ssh-ed25519") + sshstr(pk)
    check = rbytes(4)
    priv = check + check + pub + sshstr(seed + pk) + sshstr(comment.encode())
    pad = 1
    while len(priv) % 8:
        priv += bytes([pad])
        pad += 1
    blob = b"openssh-key-v1\0" + sshstr(b"none") + sshstr(b"none") + sshstr(b"") + struct.pack(">I", 1)
    blob += sshstr(pub) + sshstr(priv)
    return pem("OPENSSH PRIVATE KEY", blob, 70)


def putty_ppk(comment: str) -> str:
    pub = sshstr(b"ssh-ed25519") + sshstr(rbytes(32))
    priv = sshstr(rbytes(32))
    mac_data = sshstr(b"ssh-ed25519") + sshstr(b"none") + sshstr(comment.encode()) + sshstr(pub) + sshstr(priv)
    mac = hmac.new(b"", mac_data, hashlib.sha256).hexdigest()
    p64, k64 = b64(pub), b64(priv)
    plines = [p64[i : i + 64] for i in range(0, len(p64), 64)]
    return "\n".join(
        [
            "PuTTY-User-Key-File-3: ssh-ed25519",
            "Encryption: none",
            f"Comment: {comment}",
            f"Public-Lines: {len(plines)}",
            *plines,
            "Private-Lines: 1",
            k64,
            f"Private-MAC: {mac}",
        ]
    )


def crc24(data: bytes) -> int:
    crc = 0xB704CE
    for byte in data:
        crc ^= byte << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


def pgp_block(uid: str) -> str:
    t = struct.pack(">I", 1_790_000_000 + R.randrange(10_000_000))
    body = b"\x04" + t + b"\x16" + bytes.fromhex("092b06010401da470f01") + b"\x01\x07\x40" + rbytes(32)
    body += b"\x00" + b"\x00\xff" + rbytes(32)
    body += struct.pack(">H", sum(body[-34:]) & 0xFFFF)
    pkt = bytes([0xC5, len(body)]) + body
    u = uid.encode()
    pkt += bytes([0xCD, len(u)]) + u
    s = b64(pkt)
    lines = [s[i : i + 64] for i in range(0, len(s), 64)]
    crc = b64(crc24(pkt).to_bytes(3, "big"))
    return (
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n"
        + "\n".join(lines)
        + f"\n={crc}\n-----END PGP PRIVATE KEY BLOCK-----"
    )


def cert_der() -> bytes:
    def name(cn: str) -> bytes:
        return seq(der(0x31, seq(oid("550403"), der(0x0C, cn.encode()))))

    cn = R.choice(["internal-ca", "api.acme.test", "mesh-root", "ingress.example.org", "vpn-gw"])
    tbs = seq(
        der(0xA0, der_int(2)), der_int(R.getrandbits(120) | 1), seq(OID_ECDSA_SHA256), name("Acme Root"),
        seq(der(0x17, b"270101000000Z"), der(0x17, b"290101000000Z")), name(cn), seq(seq(OID_EC, OID_P256), ec_point()),
    )  # fmt: skip
    sig = der(3, b"\x00" + seq(der_int(rint(255)), der_int(rint(255))))
    return seq(tbs, seq(OID_ECDSA_SHA256), sig)


def macaroon() -> str:
    def fld(t: int, data: bytes) -> bytes:
        return bytes([t, len(data)]) + data

    ident = json.dumps({"nonce": gen("{h32}"), "version": 1}).encode()
    caveat = json.dumps({"version": 1, "permissions": R.choice(["user", {"projects": ["acme-sdk"]}])}).encode()
    sig = hmac.new(rbytes(32), ident, hashlib.sha256).digest()
    sig = hmac.new(sig, caveat, hashlib.sha256).digest()
    raw = b"\x02" + fld(1, b"pypi.org") + fld(2, ident) + b"\x00" + fld(2, caveat) + b"\x00\x00" + fld(6, sig)
    return "pypi-" + b64u(raw)


def iban() -> str:
    country, bban = R.choice(
        [
            ("NL", gen("{U4}{d10}")),
            ("DE", gen("{d18}")),
            ("FI", gen("{d14}")),
            ("HU", gen("{d24}")),
            ("RO", gen("{U4}{u16}")),
            ("CZ", gen("{d20}")),
            ("GR", gen("{d23}")),
            ("GB", gen("{U4}{d14}")),
        ]
    )
    num = "".join(str(int(c, 36)) for c in bban + country + "00")
    return f"{country}{98 - int(num) % 97:02d}{bban}"


def isbn13() -> str:
    d = "978" + gen("{d9}")
    s = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(d))
    return d + str((10 - s % 10) % 10)


WORDS = [
    "amber",
    "birch",
    "cobalt",
    "delta",
    "ember",
    "fjord",
    "granite",
    "harbor",
    "indigo",
    "juniper",
    "kestrel",
    "lumen",
    "maple",
    "nectar",
    "orchid",
    "pepper",
    "quartz",
    "raven",
    "saffron",
    "tundra",
    "umber",
    "violet",
    "willow",
    "yarrow",
    "zephyr",
    "lantern",
    "marble",
    "copper",
    "thistle",
]


def pw_human() -> str:
    a, b = R.sample(WORDS, 2)
    return f"{a.title()}{R.choice('-_.')}{b}{R.randrange(10, 99)}{R.choice('!*%+')}"


def pw_rand(n: int | None = None) -> str:
    n = n or R.randrange(16, 26)
    return rs(AN, 2) + rs(AN + "!%*_-.+=", n - 4) + rs(DIG, 1) + rs(AN, 1)


def pw_url() -> str:
    return R.choice([lambda: rs(AN, R.randrange(18, 28)), lambda: rs(AN, 8) + R.choice("-_.") + rs(AN, 12)])()


def pw_any() -> str:
    return R.choice([pw_human, pw_rand, pw_url])()


# ---------------------------------------------------------------- entries and kind registry


@dataclass
class Entry:
    key: str
    val: str
    svc: str
    secret: bool
    kind: str
    raw: str = ""
    hdr: str | None = None
    cli: str | None = None
    sql: str | None = None
    multi: bool = False


@dataclass
class Spec:
    kind: str
    svc: str
    make: Callable[[], list[Entry]]
    desc: str
    multi: bool = False
    secret: bool = True
    special: tuple[str, ...] = field(default_factory=tuple)


SPECS: dict[str, Spec] = {}
LOOKS: dict[str, Spec] = {}
BEARER = ("Authorization", "Bearer ")
HOSTS = ["db-1.internal", "pg.prod.acme.io", "10.20.3.14", "sql.staging.lan", "data-primary.eu-west.acme.net"]
USERS = ["app", "svc_billing", "deploy", "reporting", "etl_user", "api_rw", "grafana"]
DBS = ["orders", "billing", "analytics", "crm", "inventory", "app_prod"]

GEN_CLI = [
    "export {KEY}={v}",
    "docker run --rm -e {KEY}={v} ghcr.io/acme/worker:2.3.1",
    "kubectl -n apps create secret generic {kebab} --from-literal={key}={v}",
    'gh secret set {KEY} --body "{v}"',
    "fly secrets set {KEY}={v}",
    "heroku config:set {KEY}={v} -a billing-api",
    './bin/sync-config --{kebab} "{v}"',
    "python -m tools.backfill --api-key {v} --dry-run",
    "{KEY}={v} npm run seed",
    "aws ssm put-parameter --name /prod/{kebab} --type SecureString --value '{v}'",
]


def _cli(key: str, raw: str, own: tuple[str, ...], hdr: str | None, host: str) -> str:
    pool = list(own) if own and R.random() < 0.65 else list(GEN_CLI)
    if hdr and R.random() < 0.3:
        pool = [f'curl -sS -H "{{hdr}}" https://{host}/v1/status']
    return R.choice(pool).format(v=raw, KEY=key.upper(), key=key, kebab=key.replace("_", "-"), hdr=hdr, host=host)


def tok(  # noqa: PLR0917 -- one registration call per kind reads as a table row
    kind: str,
    svc: str,
    names: list[str],
    pat: str | Callable[[], str],
    desc: str,
    hdr: tuple[str, str] | None = None,
    cli: tuple[str, ...] = (),
    host: str = "api.example.com",
    special: tuple[str, ...] = (),
) -> None:
    def make() -> list[Entry]:
        value = pat() if callable(pat) else gen(pat)
        raw = mark(kind, value)
        key = R.choice(names)
        e = Entry(key, raw, svc, True, kind, raw=raw)
        if hdr:
            e.hdr = f"{hdr[0]}: {hdr[1]}{raw}"
        e.cli = _cli(key, raw, cli, e.hdr, host)
        return [e]

    SPECS[kind] = Spec(kind, svc, make, desc, special=special)


def group(kinds: list[str], svc: str, desc: dict[str, str], special: tuple[str, ...] = ()):
    """Register a maker that returns several entries (a key id with its secret, ...)."""

    def deco(fn: Callable[[], list[Entry]]) -> Callable[[], list[Entry]]:
        for k in kinds:
            SPECS[k] = Spec(k, svc, fn, desc[k], special=special)
        return fn

    return deco


def ent(key: str, kind: str, value: str, svc: str, secret: bool = True, **kw: str | None) -> Entry:
    raw = mark(kind, value, secret)
    e = Entry(key, raw, svc, secret, kind, raw=raw)
    for k, v in kw.items():
        setattr(e, k, v.replace("{v}", raw) if v else v)
    return e


def multi_spec(kind: str, svc: str, names: list[str], fn: Callable[[], str], desc: str) -> None:
    def make() -> list[Entry]:
        raw = mark(kind, fn())
        key = R.choice(names)
        return [Entry(key, raw, svc, True, kind, raw=raw, multi=True)]

    SPECS[kind] = Spec(kind, svc, make, desc, multi=True)


# ---- AI / ML
tok("anthropic_api_key", "Anthropic", ["anthropic_api_key", "claude_api_key"], "sk-ant-api03-{w93}AA",
    "`sk-ant-api03-` + 93 + `AA`", ("x-api-key", ""), host="api.anthropic.com")  # fmt: skip
tok("anthropic_admin_key", "Anthropic", ["anthropic_admin_key", "anthropic_admin_api_key"], "sk-ant-admin01-{w93}AA",
    "`sk-ant-admin01-` + 93 + `AA`", ("x-api-key", ""), host="api.anthropic.com")  # fmt: skip
tok("openai_api_key", "OpenAI", ["openai_api_key", "openai_key"],
    lambda: R.choice(["sk-proj-", "sk-svcacct-"]) + gen("{w58}T3BlbkFJ{w58}") if R.random() < 0.8 else gen("sk-{a20}T3BlbkFJ{a20}"),
    "`sk-proj-` / `sk-svcacct-` with `T3BlbkFJ` inside, legacy `sk-` 20 + `T3BlbkFJ` + 20", BEARER, host="api.openai.com")  # fmt: skip
tok(
    "xai_api_key",
    "xAI",
    ["xai_api_key", "grok_api_key"],
    "xai-{a80}",
    "`xai-` + 80 alphanumerics",
    BEARER,
    host="api.x.ai",
)
tok("groq_api_key", "Groq", ["groq_api_key"], "gsk_{a52}", "`gsk_` + 52 alphanumerics", BEARER, host="api.groq.com")
tok("perplexity_api_key", "Perplexity", ["perplexity_api_key", "pplx_api_key"], "pplx-{a48}", "`pplx-` + 48", BEARER)
tok("deepseek_api_key", "DeepSeek", ["deepseek_api_key"], "sk-{h32}", "`sk-` + 32 hex", BEARER, host="api.deepseek.com")
tok("openrouter_api_key", "OpenRouter", ["openrouter_api_key"], "sk-or-v1-{h64}", "`sk-or-v1-` + 64 hex", BEARER)
tok("mistral_api_key", "Mistral", ["mistral_api_key"], "{a32}", "32 alphanumerics (name only)", BEARER)
tok("cohere_api_key", "Cohere", ["cohere_api_key", "co_api_key"], "{a40}", "40 alphanumerics (name only)", BEARER)
tok("huggingface_token", "Hugging Face", ["hf_token", "huggingface_hub_token"], lambda: "hf_" + rs(UPP + LOW, 34),
    "`hf_` + 34 letters", BEARER, ("huggingface-cli login --token {v}",), "huggingface.co")  # fmt: skip
tok("replicate_api_token", "Replicate", ["replicate_api_token"], "r8_{a37}", "`r8_` + 37 alphanumerics", BEARER)
tok(
    "elevenlabs_api_key",
    "ElevenLabs",
    ["elevenlabs_api_key", "xi_api_key"],
    "sk_{h48}",
    "`sk_` + 48 hex",
    ("xi-api-key", ""),
)
tok(
    "pinecone_api_key",
    "Pinecone",
    ["pinecone_api_key"],
    "pcsk_{56}_{563}",
    "`pcsk_` + 6 + `_` + 63 base58",
    ("Api-Key", ""),
)
tok("langsmith_api_key", "LangSmith", ["langsmith_api_key", "langchain_api_key"], lambda: gen(R.choice(["lsv2_pt_", "lsv2_sk_"]) + "{h32}_{h10}"),
    "`lsv2_pt_` / `lsv2_sk_` + 32 hex + `_` + 10 hex", ("x-api-key", ""))  # fmt: skip
tok("wandb_api_key", "Weights & Biases", ["wandb_api_key"], "{h40}", "40 hex (name only)", cli=("wandb login {v}",))
tok("nvidia_api_key", "NVIDIA NGC", ["nvidia_api_key", "ngc_api_key"], "nvapi-{w64}", "`nvapi-` + 64 characters", BEARER,
    host="integrate.api.nvidia.com")  # fmt: skip
tok("kaggle_api_key", "Kaggle", ["kaggle_key"], "{h32}", "32 hex `key` of `kaggle.json` / `KAGGLE_KEY` (name only)",
    cli=("""echo '{{"username":"mhalloran","key":"{v}"}}' > ~/.kaggle/kaggle.json""",))  # fmt: skip
tok("google_api_key", "Google Cloud", ["google_api_key", "gemini_api_key", "maps_server_key", "youtube_api_key"], "AIza{w35}",
    "`AIza` + 35 (server-side Gemini / Maps / YouTube keys)", ("x-goog-api-key", ""), host="generativelanguage.googleapis.com")  # fmt: skip
tok("google_oauth_access_token", "Google OAuth", ["google_access_token", "gcloud_access_token"], "ya29.a0{w150}",
    "`ya29.` OAuth 2.0 access token", BEARER, host="www.googleapis.com")  # fmt: skip
tok("google_oauth_refresh_token", "Google OAuth", ["google_refresh_token", "refresh_token"], "1//0{w99}",
    "`1//0` OAuth 2.0 refresh token")  # fmt: skip
tok(
    "azure_openai_api_key",
    "Azure OpenAI",
    ["azure_openai_api_key", "aoai_key"],
    "{h32}",
    "32 hex (name or `api-key` header)",
    ("api-key", ""),
)

# ---- cloud
tok("ibm_cloud_api_key", "IBM Cloud", ["ibmcloud_api_key", "ic_api_key"], "{w44}", "44 characters (name only)",
    cli=("ibmcloud login --apikey {v} -r eu-de",))  # fmt: skip
tok("digitalocean_token", "DigitalOcean", ["digitalocean_token", "do_token"], lambda: R.choice(["dop_v1_", "doo_v1_"]) + gen("{h64}"),
    "`dop_v1_` / `doo_v1_` + 64 hex", BEARER, ("doctl auth init -t {v}",), "api.digitalocean.com")  # fmt: skip
tok("hetzner_cloud_token", "Hetzner Cloud", ["hcloud_token"], "{a64}", "64 alphanumerics (name only)", BEARER)
tok(
    "linode_token",
    "Linode",
    ["linode_token", "linode_cli_token"],
    "{h64}",
    "64 hex (name only)",
    BEARER,
    host="api.linode.com",
)
tok(
    "vultr_api_key",
    "Vultr",
    ["vultr_api_key"],
    "{u36}",
    "36 upper-case alphanumerics (name only)",
    BEARER,
    host="api.vultr.com",
)
tok("cloudflare_api_token", "Cloudflare", ["cloudflare_api_token", "cf_api_token"], "{w40}", "40 characters (name or bearer)", BEARER,
    host="api.cloudflare.com")  # fmt: skip
tok("cloudflare_origin_ca_key", "Cloudflare", ["cf_origin_ca_key"], "v1.0-{h24}-{h146}", "`v1.0-` + 24 hex + `-` + 146 hex",
    ("X-Auth-User-Service-Key", ""))  # fmt: skip


def _cf_tunnel() -> str:
    body = {"a": gen("{h32}"), "t": uuid4(), "s": b64(rbytes(32))}
    return b64(json.dumps(body, separators=(",", ":")).encode()).rstrip("=")


tok("cloudflare_tunnel_token", "Cloudflare Tunnel", ["tunnel_token"], _cf_tunnel, "base64 JSON `{\"a\",\"t\",\"s\"}` (starts `eyJhIjoi`)",
    cli=("cloudflared tunnel run --token {v}", "cloudflared service install {v}"))  # fmt: skip
tok("fastly_api_token", "Fastly", ["fastly_api_token", "fastly_api_key"], "{w32}", "32 characters (name or `Fastly-Key`)",
    ("Fastly-Key", ""), host="api.fastly.com")  # fmt: skip
tok("ngrok_authtoken", "ngrok", ["ngrok_authtoken"], "2{a26}_{a21}", "27 + `_` + 21 alphanumerics",
    cli=("ngrok config add-authtoken {v}",))  # fmt: skip
tok("tailscale_key", "Tailscale", ["ts_authkey", "tailscale_auth_key", "tailscale_api_key"],
    lambda: gen(R.choice(["tskey-auth-", "tskey-api-"]) + "{a11}CNTRL-{a33}"), "`tskey-auth-` / `tskey-api-` + id + `CNTRL-` + 33",
    cli=("tailscale up --authkey={v}", "sudo tailscale up --auth-key {v} --ssh"))  # fmt: skip
tok("vault_token", "HashiCorp Vault", ["vault_token"], lambda: gen(R.choice(["hvs.{a24}", "hvs.CAESI{w88}", "hvb.AAAAAQ{w120}"])), "`hvs.` service tokens, `hvb.` batch tokens",
    ("X-Vault-Token", ""), ("vault login {v}",), "vault.internal:8200")  # fmt: skip
tok("consul_acl_token", "Consul", ["consul_http_token", "consul_acl_token"], uuid4, "UUID ACL secret id (name or `X-Consul-Token`)",
    ("X-Consul-Token", ""), host="consul.service.internal:8500")  # fmt: skip
tok("nomad_acl_token", "Nomad", ["nomad_token"], uuid4, "UUID ACL secret id (name or `X-Nomad-Token`)", ("X-Nomad-Token", ""),
    host="nomad.internal:4646")  # fmt: skip
tok("terraform_cloud_token", "Terraform Cloud", ["tfe_token", "tf_token_app_terraform_io"], "{a14}.atlasv1.{a67}",
    "14 + `.atlasv1.` + 67", BEARER, host="app.terraform.io")  # fmt: skip
tok("pulumi_access_token", "Pulumi", ["pulumi_access_token"], "pul-{h40}", "`pul-` + 40 hex")
tok("doppler_token", "Doppler", ["doppler_token"], lambda: gen(R.choice(["dp.pt.", "dp.st.prd.", "dp.sa.", "dp.ct."]) + "{a43}"),
    "`dp.pt.` / `dp.st.<config>.` / `dp.sa.` / `dp.ct.` + 43", BEARER, ("doppler run --token {v} -- ./start.sh",))  # fmt: skip


def _ops() -> str:
    body = {"signInAddress": "acme.1password.com", "userAuth": {"method": "SRPg-4096", "alg": "PBES2g-HS256", "iterations": 650000},
            "email": gen("{l26}@1passwordserviceaccounts.com"), "srpX": gen("{h64}"), "muk": {"k": gen("{w43}"), "kty": "oct"}}  # fmt: skip
    return "ops_" + b64u(json.dumps(body, separators=(",", ":")).encode())


tok("onepassword_service_token", "1Password", ["op_service_account_token"], _ops, "`ops_` + base64url JSON", BEARER)
tok("bitwarden_access_token", "Bitwarden Secrets Manager", ["bws_access_token"], lambda: f"0.{uuid4()}.{gen('{a30}')}:{b64(rbytes(16))}",
    "`0.` + UUID + `.` + 30 + `:` + base64 (machine-account access token)", cli=("bws secret list --access-token {v}",))  # fmt: skip

# ---- source hosting, CI / CD, registries
GH_CLI = ("git clone https://x-access-token:{v}@github.com/acme/infra.git", "echo {v} | gh auth login --with-token",
          "git remote set-url origin https://{v}@github.com/acme/site.git")  # fmt: skip
tok("github_pat_classic", "GitHub", ["github_token", "gh_token", "github_pat"], lambda: crc_token("ghp_"),
    "`ghp_` + 30 base62 + base62 CRC32", ("Authorization", "token "), GH_CLI, "api.github.com", ("npmrc", "netrc", "git_credentials"))  # fmt: skip
tok("github_app_token", "GitHub", ["github_app_token", "gh_installation_token"], lambda: crc_token(R.choice(["gho_", "ghu_", "ghs_", "ghr_"])),
    "`gho_` / `ghu_` / `ghs_` / `ghr_` + 30 + CRC32", BEARER, GH_CLI, "api.github.com", ("git_credentials",))  # fmt: skip
tok("github_fine_grained_pat", "GitHub", ["github_token", "gh_fine_grained_pat"], "github_pat_11{u20}_{a59}",
    "`github_pat_11` + 20 + `_` + 59", BEARER, GH_CLI, "api.github.com", ("npmrc", "netrc", "git_credentials"))  # fmt: skip
GL_CLI = ("git clone https://oauth2:{v}@gitlab.com/acme/platform.git", "glab auth login --token {v}")
tok("gitlab_token", "GitLab", ["gitlab_token", "gitlab_pat", "ci_deploy_token"], lambda: gen(R.choice(["glpat-{w20}", "gldt-{w20}"])),
    "`glpat-` + 20, `gldt-` + 20", ("PRIVATE-TOKEN", ""), GL_CLI, "gitlab.com", ("npmrc", "pypirc", "netrc", "git_credentials"))  # fmt: skip
tok("gitlab_runner_token", "GitLab", ["runner_token", "ci_runner_token"], "glrt-{w20}", "`glrt-` + 20 runner authentication token",
    cli=("gitlab-runner register --non-interactive --url https://gitlab.com --token {v}",))  # fmt: skip
tok("gitlab_feed_token", "GitLab", ["gitlab_feed_token"], "glft-{w20}", "`glft-` + 20 feed token")
tok(
    "gitlab_oauth_app_secret",
    "GitLab",
    ["gitlab_oauth_secret", "gitlab_app_secret"],
    "gloas-{h64}",
    "`gloas-` + 64 hex OAuth application secret",
)
tok("gitlab_agent_token", "GitLab", ["gitlab_agent_token", "agentk_token"], "glagent-{w50}", "`glagent-` + 50 agent for Kubernetes token",
    cli=("helm upgrade --install gitlab-agent gitlab/gitlab-agent --set config.token={v}",))  # fmt: skip
tok("bitbucket_app_password", "Bitbucket", ["bitbucket_app_password", "bb_app_password"], "ATBB{a32}{H8}", "`ATBB` + 32 + 8 hex",
    cli=("git clone https://acme-ci:{v}@bitbucket.org/acme/api.git",), special=("netrc", "git_credentials"))  # fmt: skip
tok("atlassian_api_token", "Atlassian", ["jira_api_token", "confluence_api_token"], "ATATT3xFfGF0{w170}={H8}",
    "`ATATT3xFfGF0` + 170 + `=` + 8 hex", cli=("curl -u ops@acme.io:{v} https://acme.atlassian.net/rest/api/3/myself",))  # fmt: skip
tok("trello_api_token", "Trello", ["trello_token"], "ATTA{h64}{H8}", "`ATTA` + 64 hex + 8 hex")
tok("azure_devops_pat", "Azure DevOps", ["azure_devops_pat", "ado_pat", "azure_devops_ext_pat"], lambda: rs(LOW + "234567", 52),
    "52 characters `[a-z2-7]`", cli=("echo {v} | az devops login --organization https://dev.azure.com/acme",), special=("git_credentials",))  # fmt: skip
tok("circleci_token", "CircleCI", ["circle_token", "circleci_token"], "CCIPAT_{a22}_{h40}", "`CCIPAT_` + 22 + `_` + 40 hex",
    ("Circle-Token", ""), host="circleci.com/api/v2")  # fmt: skip
tok(
    "buildkite_token",
    "Buildkite",
    ["buildkite_api_token"],
    "bkua_{h40}",
    "`bkua_` + 40 hex",
    BEARER,
    host="api.buildkite.com",
)
tok("jenkins_api_token", "Jenkins", ["jenkins_api_token", "jenkins_token"], "11{h32}", "`11` + 32 hex",
    cli=("curl -X POST -u deploy:{v} https://jenkins.acme.io/job/release/build", "java -jar jenkins-cli.jar -auth ci:{v} list-jobs"))  # fmt: skip


def _teamcity() -> str:
    return "eyJ0eXAiOiAiVENWMiJ9." + b64u(rbytes(27)) + "." + b64u(rbytes(36))


tok(
    "teamcity_token",
    "TeamCity",
    ["teamcity_token"],
    _teamcity,
    "`eyJ0eXAiOiAiVENWMiJ9.` access token",
    BEARER,
    host="teamcity.acme.io",
)
tok("sonarqube_token", "SonarQube", ["sonar_token"], lambda: gen(R.choice(["squ_", "sqp_", "sqa_"]) + "{h40}"),
    "`squ_` / `sqp_` / `sqa_` + 40 hex", cli=("sonar-scanner -Dsonar.token={v}", "mvn sonar:sonar -Dsonar.token={v}"))  # fmt: skip
tok(
    "codecov_token",
    "Codecov",
    ["codecov_token"],
    uuid4,
    "UUID upload token (name only)",
    cli=("codecovcli upload-process -t {v}",),
)
tok("browserstack_access_key", "BrowserStack", ["browserstack_access_key"], "{a20}", "20 alphanumerics (name only)",
    cli=("BrowserStackLocal --key {v}",))  # fmt: skip
tok("saucelabs_access_key", "Sauce Labs", ["sauce_access_key"], uuid4, "UUID access key (name only)",
    cli=("sc --user acme-qa --api-key {v}",))  # fmt: skip
tok("cypress_record_key", "Cypress Cloud", ["cypress_record_key"], uuid4, "UUID record key (name only)",
    cli=("npx cypress run --record --key {v}",))  # fmt: skip
tok("netlify_token", "Netlify", ["netlify_auth_token"], "nfp_{a40}", "`nfp_` + 40 alphanumerics", BEARER,
    ("netlify deploy --prod --auth {v}",), "api.netlify.com")  # fmt: skip
tok(
    "vercel_token",
    "Vercel",
    ["vercel_token"],
    "{a24}",
    "24 alphanumerics (name only)",
    cli=("vercel deploy --prod --token {v}",),
)
tok("flyio_token", "Fly.io", ["fly_api_token"], "fo1_{w43}", "`fo1_` + 43", cli=("flyctl deploy --access-token {v}",))
tok(
    "heroku_api_key",
    "Heroku",
    ["heroku_api_key"],
    "HRKU-AA{w58}",
    "`HRKU-AA` + 58",
    BEARER,
    host="api.heroku.com",
    special=("netrc",),
)
tok(
    "render_api_key",
    "Render",
    ["render_api_key"],
    "rnd_{a32}",
    "`rnd_` + 32 alphanumerics",
    BEARER,
    host="api.render.com",
)
tok("supabase_access_token", "Supabase", ["supabase_access_token"], "sbp_{h40}", "`sbp_` + 40 hex", BEARER,
    ("supabase login --token {v}",))  # fmt: skip
tok("planetscale_token", "PlanetScale", ["planetscale_service_token"], lambda: gen(R.choice(["pscale_tkn_", "pscale_pw_"]) + "{w43}"),
    "`pscale_tkn_` / `pscale_pw_` + 43")  # fmt: skip
tok(
    "databricks_token",
    "Databricks",
    ["databricks_token"],
    "dapi{h32}",
    "`dapi` + 32 hex",
    BEARER,
    host="adb-1234.azuredatabricks.net",
)
tok("dockerhub_pat", "Docker Hub", ["docker_hub_token", "dockerhub_pat"], "dckr_pat_{w27}", "`dckr_pat_` + 27",
    cli=("echo {v} | docker login -u acmebot --password-stdin", "docker login -u acmebot -p {v}"))  # fmt: skip
tok("npm_token", "npm", ["npm_token", "node_auth_token"], lambda: crc_token("npm_"), "`npm_` + 30 + base62 CRC32",
    cli=("npm config set //registry.npmjs.org/:_authToken={v}",), special=("npmrc",))  # fmt: skip
tok("pypi_token", "PyPI", ["pypi_token", "twine_password"], macaroon, "`pypi-` + base64url v2 macaroon (location `pypi.org`, real HMAC chain)",
    cli=("twine upload -u __token__ -p {v} dist/*", "uv publish --token {v}"), special=("pypirc",))  # fmt: skip
tok("rubygems_api_key", "RubyGems", ["gem_host_api_key", "rubygems_api_key"], "rubygems_{h48}", "`rubygems_` + 48 hex",
    ("Authorization", ""), host="rubygems.org/api/v1")  # fmt: skip
tok("nuget_api_key", "NuGet", ["nuget_api_key"], "oy2{l43}", "`oy2` + 43 `[a-z0-9]`",
    cli=("dotnet nuget push Acme.Core.2.1.0.nupkg --api-key {v} --source https://api.nuget.org/v3/index.json",))  # fmt: skip
tok(
    "cratesio_token",
    "crates.io",
    ["cargo_registry_token"],
    "cio{a32}",
    "`cio` + 32 alphanumerics",
    cli=("cargo login {v}",),
)
tok("jfrog_token", "JFrog Artifactory", ["artifactory_api_key", "jfrog_access_token"], lambda: gen(R.choice(["AKCp{a69}", "cmVmdGtuOjAxOj{a50}"])),
    "`AKCp` + 69 API keys, `cmVmdGtuOjAxOj` reference tokens", ("X-JFrog-Art-Api", ""), ("jf c add acme --access-token {v}",),
    "acme.jfrog.io/artifactory", ("npmrc", "pypirc", "netrc"))  # fmt: skip

# ---- observability
tok("datadog_api_key", "Datadog", ["dd_api_key", "datadog_api_key"], "{h32}", "32 hex (name or `DD-API-KEY`)", ("DD-API-KEY", ""),
    host="api.datadoghq.eu")  # fmt: skip
tok("datadog_app_key", "Datadog", ["dd_app_key", "datadog_application_key"], "{h40}", "40 hex (name or `DD-APPLICATION-KEY`)",
    ("DD-APPLICATION-KEY", ""), host="api.datadoghq.com")  # fmt: skip
tok("newrelic_license_key", "New Relic", ["new_relic_license_key", "nr_license_key"], "{h36}NRAL", "36 hex + `NRAL`")
tok(
    "newrelic_user_api_key",
    "New Relic",
    ["new_relic_api_key"],
    "NRAK-{u27}",
    "`NRAK-` + 27",
    ("Api-Key", ""),
    host="api.newrelic.com",
)
tok("newrelic_insert_key", "New Relic", ["new_relic_insert_key"], "NRII-{w32}", "`NRII-` + 32 Insights insert key", ("X-Insert-Key", ""),
    host="insights-collector.newrelic.com")  # fmt: skip


def _sentry() -> str:
    if R.random() < 0.5:
        return gen("sntryu_{h64}")
    body = {
        "iat": 1_790_000_000 + R.randrange(9_000_000),
        "url": "https://sentry.io",
        "region_url": "https://de.sentry.io",
        "org": "acme",
    }
    return "sntrys_" + b64(json.dumps(body, separators=(",", ":")).encode()).rstrip("=") + "_" + gen("{w43}")


tok("sentry_auth_token", "Sentry", ["sentry_auth_token"], _sentry, "`sntrys_` + base64 JSON + `_` + 43, or `sntryu_` + 64 hex", BEARER,
    ("sentry-cli --auth-token {v} releases new 2.4.0",), "sentry.io/api/0")  # fmt: skip
tok("grafana_service_account_token", "Grafana", ["grafana_sa_token", "grafana_api_key"], "glsa_{a32}_{h8}", "`glsa_` + 32 + `_` + 8 hex",
    BEARER, host="grafana.acme.io/api")  # fmt: skip


def _glc() -> str:
    body = {"o": str(R.randrange(100000, 999999)), "n": f"stack-{R.randrange(100000, 999999)}-hm-write", "k": gen("{a24}"),
            "m": {"r": R.choice(["prod-eu-west-2", "prod-us-east-0"])}}  # fmt: skip
    return "glc_" + b64(json.dumps(body, separators=(",", ":")).encode())


tok(
    "grafana_cloud_token",
    "Grafana Cloud",
    ["grafana_cloud_token", "gcloud_hosted_metrics_token"],
    _glc,
    "`glc_` + base64 JSON access-policy token",
)
tok("dynatrace_token", "Dynatrace", ["dt_api_token", "dynatrace_token"], "dt0c01.{u24}.{u64}", "`dt0c01.` + 24 + `.` + 64",
    ("Authorization", "Api-Token "), host="abc12345.live.dynatrace.com/api/v2")  # fmt: skip
tok("splunk_hec_token", "Splunk", ["splunk_hec_token", "hec_token"], uuid4, "UUID after `Splunk ` / under a HEC name",
    ("Authorization", "Splunk "), host="splunk.acme.io:8088/services/collector")  # fmt: skip
tok(
    "opsgenie_api_key",
    "Opsgenie",
    ["opsgenie_api_key"],
    uuid4,
    "UUID after `GenieKey `",
    ("Authorization", "GenieKey "),
    host="api.opsgenie.com",
)
tok(
    "pagerduty_routing_key",
    "PagerDuty",
    ["pagerduty_routing_key", "pd_integration_key"],
    "{h32}",
    "32-character Events API v2 routing key (name only)",
)


def _elastic() -> str:
    return b64(f"{gen('{w20}')}:{gen('{w22}')}".encode())


tok("elastic_api_key", "Elastic", ["elastic_api_key", "es_api_key"], _elastic, "base64(`id:api_key`) after `ApiKey `",
    ("Authorization", "ApiKey "), host="es.acme.io:9243")  # fmt: skip

# ---- messaging
tok(
    "slack_bot_token",
    "Slack",
    ["slack_bot_token"],
    "xoxb-{d12}-{d13}-{a24}",
    "`xoxb-` digits-digits-24",
    BEARER,
    host="slack.com/api",
)
tok("slack_user_token", "Slack", ["slack_user_token"], "xoxp-{d12}-{d12}-{d13}-{h32}", "`xoxp-` 4 groups, last 32 hex", BEARER,
    host="slack.com/api")  # fmt: skip
tok("slack_app_token", "Slack", ["slack_app_token"], "xapp-1-A{u10}-{d13}-{h64}", "`xapp-1-A...-<13 digits>-<64 hex>`")
tok("slack_config_token", "Slack", ["slack_config_token"], "xoxe.xoxp-1-Mi0y{w140}", "`xoxe.xoxp-1-` app configuration token", BEARER,
    host="slack.com/api")  # fmt: skip


def _discord_bot() -> str:
    return b64(str(R.randrange(10**17, 10**18)).encode()).rstrip("=") + "." + gen("{w6}.{w38}")


tok("discord_bot_token", "Discord", ["discord_bot_token", "discord_token"], _discord_bot, "base64(user id) + `.` + 6 + `.` + 38",
    ("Authorization", "Bot "), host="discord.com/api/v10")  # fmt: skip
tok("telegram_bot_token", "Telegram", ["telegram_bot_token", "tg_bot_token"], lambda: f"{R.randrange(10**9, 8 * 10**9)}:AA{gen('{w33}')}",
    "`<bot id>:AA` + 33", cli=("curl -s https://api.telegram.org/bot{v}/getMe",))  # fmt: skip
tok(
    "sendgrid_api_key",
    "SendGrid",
    ["sendgrid_api_key"],
    "SG.{w22}.{w43}",
    "`SG.` + 22 + `.` + 43",
    BEARER,
    host="api.sendgrid.com",
)
tok("mailgun_api_key", "Mailgun", ["mailgun_api_key"], "key-{h32}", "`key-` + 32 hex",
    cli=("curl -s --user 'api:{v}' https://api.eu.mailgun.net/v3/mg.acme.io/messages",))  # fmt: skip
tok(
    "mailchimp_api_key",
    "Mailchimp",
    ["mailchimp_api_key"],
    lambda: gen("{h32}") + f"-us{R.randrange(1, 22)}",
    "32 hex + `-us<N>`",
)
tok("brevo_api_key", "Brevo", ["brevo_api_key", "sendinblue_api_key"], "xkeysib-{h64}-{a16}", "`xkeysib-` + 64 hex + `-` + 16",
    ("api-key", ""), host="api.brevo.com/v3")  # fmt: skip
tok("postmark_server_token", "Postmark", ["postmark_server_token"], uuid4, "UUID server token (name or `X-Postmark-Server-Token`)",
    ("X-Postmark-Server-Token", ""), host="api.postmarkapp.com")  # fmt: skip
tok(
    "resend_api_key",
    "Resend",
    ["resend_api_key"],
    "re_{a8}_{a24}",
    "`re_` + 8 + `_` + 24",
    BEARER,
    host="api.resend.com",
)
tok(
    "mailersend_api_token",
    "MailerSend",
    ["mailersend_api_key"],
    "mlsn.{h64}",
    "`mlsn.` + 64 hex",
    BEARER,
    host="api.mailersend.com/v1",
)
tok("fcm_server_key", "Firebase Cloud Messaging", ["fcm_server_key"], "AAAA{w7}:APA91b{w134}", "`AAAA` + 7 + `:APA91b` + 134 legacy server key",
    ("Authorization", "key="), host="fcm.googleapis.com/fcm/send")  # fmt: skip
tok("meta_access_token", "Meta Graph API", ["fb_access_token", "whatsapp_token", "meta_page_token"],
    lambda: "EAA" + R.choice("BGIJ") + gen("{a180}"), "`EAA` + long-lived page / system-user access token", BEARER,
    ('curl "https://graph.facebook.com/v19.0/me/accounts?access_token={v}"',), "graph.facebook.com")  # fmt: skip


def _x_bearer() -> str:
    return "A" * 22 + gen("{a8}") + "A" * 7 + gen("{a3}%2B{a20}%3D{a50}")


tok("x_bearer_token", "X (Twitter) API", ["twitter_bearer_token", "x_bearer_token"], _x_bearer,
    "app-only bearer token: 22 `A` + id + `AAAAAAA` + URL-encoded part", BEARER, host="api.twitter.com/2")  # fmt: skip
tok("salesforce_access_token", "Salesforce", ["sf_access_token", "sfdc_session_id"], lambda: gen("00D{a12}!AQ{a4}") + rs(AN + "._", 96),
    "`00D` org id + `!` + session token", BEARER, host="acme.my.salesforce.com/services/data/v60.0")  # fmt: skip
tok("hubspot_private_app_token", "HubSpot", ["hubspot_access_token"], lambda: R.choice(["pat-na1-", "pat-eu1-"]) + uuid4(),
    "`pat-na1-` / `pat-eu1-` + UUID", BEARER, host="api.hubapi.com")  # fmt: skip
tok("intercom_access_token", "Intercom", ["intercom_access_token"], lambda: b64(f"tok:{uuid4()}:1:0".encode()),
    "base64 of `tok:<id>:1:0` (starts `dG9rOj`)", BEARER, host="api.intercom.io")  # fmt: skip
tok(
    "linear_api_key",
    "Linear",
    ["linear_api_key"],
    "lin_api_{a40}",
    "`lin_api_` + 40",
    ("Authorization", ""),
    host="api.linear.app/graphql",
)
tok("notion_token", "Notion", ["notion_token", "notion_api_key"], lambda: gen(R.choice(["ntn_{d11}{a35}", "secret_{a43}"])),
    "`ntn_` + 11 digits + 35, or legacy `secret_` + 43", BEARER, host="api.notion.com/v1")  # fmt: skip
tok(
    "airtable_pat",
    "Airtable",
    ["airtable_token", "airtable_pat"],
    "pat{a14}.{h64}",
    "`pat` + 14 + `.` + 64 hex",
    BEARER,
    host="api.airtable.com/v0",
)
tok("asana_pat", "Asana", ["asana_pat", "asana_access_token"], "2/{d16}/{d16}:{h32}", "`2/` + 16 digits + `/` + 16 digits + `:` + 32 hex",
    BEARER, host="app.asana.com/api/1.0")  # fmt: skip
tok("figma_pat", "Figma", ["figma_token"], "figd_{w40}", "`figd_` + 40", ("X-Figma-Token", ""), host="api.figma.com/v1")
tok("postman_api_key", "Postman", ["postman_api_key"], "PMAK-{h24}-{h34}", "`PMAK-` + 24 hex + `-` + 34 hex", ("X-Api-Key", ""),
    host="api.getpostman.com")  # fmt: skip
tok("posthog_personal_api_key", "PostHog", ["posthog_personal_api_key"], "phx_{a47}", "`phx_` + 47 alphanumerics", BEARER,
    host="eu.posthog.com/api")  # fmt: skip
tok("shopify_access_token", "Shopify", ["shopify_access_token", "shopify_admin_token"], lambda: gen(R.choice(["shpat_", "shpca_", "shppa_"]) + "{h32}"),
    "`shpat_` / `shpca_` / `shppa_` + 32 hex", ("X-Shopify-Access-Token", ""), host="acme-store.myshopify.com/admin/api/2025-01")  # fmt: skip
tok("ably_api_key", "Ably", ["ably_api_key"], "{w6}.{w6}:{w43}", "`<app>.<key id>:<secret>` (whole key labelled)",
    None, cli=("curl -u '{v}' https://rest.ably.io/channels/orders/messages",))  # fmt: skip

# ---- payments, commerce, identity
STRIPE_CLI = (
    "stripe listen --api-key {v} --forward-to localhost:4242/webhook",
    "curl https://api.stripe.com/v1/charges -u {v}:",
)
tok("stripe_secret_key", "Stripe", ["stripe_secret_key", "stripe_api_key"], lambda: gen(R.choice(["sk_live_{a24}", "sk_live_51{a97}"])),
    "`sk_live_` + 24, or `sk_live_51` + 97", BEARER, STRIPE_CLI, "api.stripe.com/v1")  # fmt: skip
tok("stripe_restricted_key", "Stripe", ["stripe_restricted_key"], lambda: gen(R.choice(["rk_live_{a24}", "rk_live_51{a97}"])),
    "`rk_live_` + 24, or `rk_live_51` + 97", BEARER, STRIPE_CLI, "api.stripe.com/v1")  # fmt: skip
tok(
    "stripe_webhook_secret",
    "Stripe",
    ["stripe_webhook_secret", "stripe_endpoint_secret"],
    "whsec_{a32}",
    "`whsec_` + 32 alphanumerics",
)
tok("square_access_token", "Square", ["square_access_token"], lambda: gen(R.choice(["EAAA{w60}", "sq0csp-{w43}"])),
    "`EAAA` + 60, or `sq0csp-` + 43", BEARER, host="connect.squareup.com/v2")  # fmt: skip
tok("stytch_secret", "Stytch", ["stytch_secret"], "secret-live-{w32}=", "`secret-live-` + 32 + `=`")
tok(
    "okta_api_token",
    "Okta",
    ["okta_api_token"],
    "00{w40}",
    "`00` + 40 (`SSWS`)",
    ("Authorization", "SSWS "),
    host="acme.okta.com/api/v1",
)
tok("recaptcha_secret_key", "reCAPTCHA", ["recaptcha_secret_key", "recaptcha_secret"], "6L{w38}", "`6L` + 38 server-side secret (the site key is a look-alike)",
    cli=('curl -d "secret={v}&response=$TOKEN" https://www.google.com/recaptcha/api/siteverify',))  # fmt: skip
tok(
    "turnstile_secret_key",
    "Cloudflare Turnstile",
    ["turnstile_secret_key"],
    "0x4AAAAAAA{w25}",
    "`0x4AAAAAAA` + 25 secret key (the sitekey is a look-alike)",
)
tok("mapbox_secret_token", "Mapbox", ["mapbox_secret_token", "mapbox_downloads_token"],
    lambda: "sk." + b64u(json.dumps({"u": R.choice(["acme-maps", "fieldops"]), "a": gen("cl{l23}")}).encode()) + "." + gen("{w22}"),
    "`sk.` + base64url JSON + `.` + 22")  # fmt: skip

# ---- generic families
tok("jwt", "JWT", ["supabase_service_role_key", "service_jwt", "internal_api_jwt"],
    lambda: jwt({"iss": R.choice(["supabase", "auth.acme.io", "billing"]), "role": R.choice(["service_role", "admin", "svc"]),
                 "iat": 1_790_000_000 + R.randrange(10**6), "exp": 2_100_000_000 + R.randrange(10**6)}),
    "HS256 JWTs with real HMAC signatures (service-role keys, long-lived tokens)", BEARER)  # fmt: skip
tok("jwt_signing_secret", "JWT", ["jwt_secret", "jwt_signing_key", "auth_jwt_secret"],
    lambda: R.choice([lambda: gen("{a48}"), lambda: b64(rbytes(48)), lambda: gen("{h64}")])(),  # noqa: PLW0108 -- a choice among value generators
    "HMAC secret that signs JWTs (48 alphanumerics, base64 or 64 hex)")  # fmt: skip
tok("app_secret_key", "app", ["secret_key", "secret_key_base", "flask_secret_key", "nextauth_secret", "session_secret"],
    lambda: R.choice([lambda: rs(LOW + DIG + "!@%^*(-_=+)", 50), lambda: gen("{h128}"), lambda: gen("{h64}"), lambda: b64(rbytes(32))])(),  # noqa: PLW0108 -- a choice among value generators
    "Django `SECRET_KEY`, Rails `secret_key_base`, Flask / NextAuth / session secrets")  # fmt: skip
tok("generic_api_key", "internal API", ["api_key", "x_api_key", "partner_api_key", "internal_api_key", "service_key"],
    lambda: gen(R.choice(["{a32}", "{a40}", "{w48}", "{h64}"])), "32-64 character keys for in-house or unnamed services",
    ("X-API-Key", ""), host="partner-api.acme.io")  # fmt: skip
tok("bearer_token", "API", ["access_token", "auth_token", "api_access_token"], lambda: gen(R.choice(["{a40}", "{w56}", "{a64}"])),
    "opaque token after `Bearer ` or in an access-token variable", BEARER, host="api.partner.example")  # fmt: skip
tok("totp_seed", "TOTP", ["totp_secret", "mfa_seed", "otp_secret"], lambda: base64.b32encode(rbytes(20)).decode(),
    "base32 TOTP seed, bare or in an `otpauth://` URI")  # fmt: skip
tok("apple_app_specific_password", "Apple ID", ["app_specific_password", "apple_id_password"], "{L4}-{L4}-{L4}-{L4}",
    "`xxxx-xxxx-xxxx-xxxx` app-specific password",
    cli=("xcrun notarytool store-credentials acme-notary --apple-id dev@acme.io --team-id 7QX2D9K3LM --password {v}",
         "xcrun altool --upload-app -f Acme.ipa -u dev@acme.io -p {v}"))  # fmt: skip
tok("ethereum_private_key", "Ethereum", ["private_key", "deployer_private_key", "wallet_private_key"],
    lambda: R.choice(["0x", ""]) + gen("{h64}"), "64 hex (optionally `0x`) under a private-key name",
    cli=("forge script script/Deploy.s.sol --rpc-url $RPC_URL --private-key {v} --broadcast",))  # fmt: skip
tok(
    "nostr_private_key",
    "Nostr",
    ["nostr_nsec", "nsec"],
    lambda: bech32("nsec", _conv(rbytes(32))),
    "`nsec1` bech32 private key (NIP-19)",
)
tok("bitcoin_wif_private_key", "Bitcoin", ["btc_wif", "wallet_wif"], lambda: b58check(b"\x80" + rbytes(32) + b"\x01"),
    "WIF compressed private key (base58check, `K` / `L`)")  # fmt: skip
tok("age_secret_key", "age", ["age_secret_key", "sops_age_key"], lambda: bech32("age-secret-key-", _conv(rbytes(32))).upper(),
    "`AGE-SECRET-KEY-1` + bech32")  # fmt: skip
tok(
    "vapid_private_key",
    "Web Push",
    ["vapid_private_key"],
    lambda: b64u(rbytes(32)),
    "43-character base64url VAPID private key",
)
tok("wireguard_private_key", "WireGuard", ["wg_private_key", "private_key"], lambda: b64(bytes([R.getrandbits(8) & 248]) + rbytes(30) + bytes([64 | R.getrandbits(6)])),
    "base64 X25519 private key")  # fmt: skip


# ---- groups: key ids that travel with their secret, public companions, connection strings


def group2(primary: str, others: list[str], svc: str, desc: dict[str, str], special: tuple[str, ...] = ()):
    def deco(fn: Callable[[], list[Entry]]) -> Callable[[], list[Entry]]:
        SPECS[primary] = Spec(primary, svc, fn, desc[primary], special=special)
        for k in others:
            if k not in SPECS:
                SPECS[k] = Spec(k, svc, fn, desc[k], secret=True, special=("companion",))
        return fn

    return deco


@group2("aws_secret_access_key", ["aws_access_key_id"], "AWS", {
    "aws_secret_access_key": "40 characters of `[A-Za-z0-9+/]`, next to its key id",
    "aws_access_key_id": "`AKIA` / `ASIA` + 16 base32 characters (labelled: it travels with its secret)"})  # fmt: skip
def _aws() -> list[Entry]:
    kid = ent("aws_access_key_id", "aws_access_key_id", "AKIA" + gen("{316}"), "AWS")
    sec = ent("aws_secret_access_key", "aws_secret_access_key", gen("{b40}"), "AWS",
              cli=R.choice(["aws configure set aws_secret_access_key {v}", "export AWS_SECRET_ACCESS_KEY={v}"]))  # fmt: skip
    return [kid, sec]


@group2(
    "aws_session_token",
    [],
    "AWS",
    {"aws_session_token": "`IQoJb3JpZ2luX2Vj` + base64 STS session token, with `ASIA` id and secret"},
)
def _aws_sts() -> list[Entry]:
    return [
        ent("aws_access_key_id", "aws_access_key_id", "ASIA" + gen("{316}"), "AWS"),
        ent("aws_secret_access_key", "aws_secret_access_key", gen("{b40}"), "AWS"),
        ent(
            "aws_session_token", "aws_session_token", "IQoJb3JpZ2luX2Vj" + b64(rbytes(R.choice([288, 420, 540]))), "AWS"
        ),
    ]


def _pair(svc: str, k1: str, n1: str, v1: str, k2: str, n2: str, v2: str, s1: bool = True) -> list[Entry]:  # noqa: PLR0917 -- id and secret pairs read as table rows
    return [ent(n1, k1, v1, svc, s1), ent(n2, k2, v2, svc)]


@group2("alibaba_access_key_secret", ["alibaba_access_key_id"], "Alibaba Cloud", {
    "alibaba_access_key_secret": "30 alphanumerics next to its `LTAI` id",
    "alibaba_access_key_id": "`LTAI` + 20 alphanumerics (labelled: it travels with its secret)"})  # fmt: skip
def _ali() -> list[Entry]:
    return _pair("Alibaba Cloud", "alibaba_access_key_id", "alibaba_cloud_access_key_id", gen("LTAI{a20}"),
                 "alibaba_access_key_secret", "alibaba_cloud_access_key_secret", gen("{a30}"))  # fmt: skip


@group2("tencent_secret_key", ["tencent_secret_id"], "Tencent Cloud", {
    "tencent_secret_key": "32 alphanumerics next to its `AKID` id",
    "tencent_secret_id": "`AKID` + 32 alphanumerics (labelled: it travels with its key)"})  # fmt: skip
def _tencent() -> list[Entry]:
    return _pair("Tencent Cloud", "tencent_secret_id", "tencentcloud_secret_id", gen("AKID{a32}"),
                 "tencent_secret_key", "tencentcloud_secret_key", gen("{a32}"))  # fmt: skip


@group2("scaleway_secret_key", ["scaleway_access_key"], "Scaleway", {
    "scaleway_secret_key": "UUID secret key next to its `SCW` access key",
    "scaleway_access_key": "`SCW` + 17 upper-case alphanumerics (labelled: it travels with its secret)"})  # fmt: skip
def _scw() -> list[Entry]:
    return _pair(
        "Scaleway",
        "scaleway_access_key",
        "scw_access_key",
        gen("SCW{u17}"),
        "scaleway_secret_key",
        "scw_secret_key",
        uuid4(),
    )


@group2("backblaze_application_key", ["backblaze_key_id"], "Backblaze B2", {
    "backblaze_application_key": "`K00` + digit + 27 application key",
    "backblaze_key_id": "25-hex `keyID` (labelled: it travels with its key)"})  # fmt: skip
def _b2() -> list[Entry]:
    return _pair("Backblaze B2", "backblaze_key_id", "b2_application_key_id", gen("00{d1}{h13}000000000{d1}"),
                 "backblaze_application_key", "b2_application_key", gen("K00{d1}{a27}"))  # fmt: skip


@group2("modal_token_secret", ["modal_token_id"], "Modal", {
    "modal_token_secret": "`as-` + 22", "modal_token_id": "`ak-` + 22 (labelled: it travels with its secret)"})  # fmt: skip
def _modal() -> list[Entry]:
    return _pair(
        "Modal",
        "modal_token_id",
        "modal_token_id",
        gen("ak-{a22}"),
        "modal_token_secret",
        "modal_token_secret",
        gen("as-{a22}"),
    )


@group2("woocommerce_consumer_secret", ["woocommerce_consumer_key"], "WooCommerce", {
    "woocommerce_consumer_secret": "`cs_` + 40 hex", "woocommerce_consumer_key": "`ck_` + 40 hex (labelled: it travels with its secret)"})  # fmt: skip
def _woo() -> list[Entry]:
    return _pair("WooCommerce", "woocommerce_consumer_key", "wc_consumer_key", gen("ck_{h40}"),
                 "woocommerce_consumer_secret", "wc_consumer_secret", gen("cs_{h40}"))  # fmt: skip


@group2("akamai_client_secret", ["akamai_edgegrid_token"], "Akamai", {
    "akamai_client_secret": "44-character base64 EdGrid `client_secret`",
    "akamai_edgegrid_token": "`akab-` + 16 + `-` + 16 EdgeGrid `access_token` / `client_token`"})  # fmt: skip
def _akamai() -> list[Entry]:
    return [
        ent("client_secret", "akamai_client_secret", b64(rbytes(32)), "Akamai"),
        ent("access_token", "akamai_edgegrid_token", gen("akab-{l16}-{l16}"), "Akamai"),
        ent("client_token", "akamai_edgegrid_token", gen("akab-{l16}-{l16}"), "Akamai"),
    ]


@group2(
    "twilio_auth_token",
    [],
    "Twilio",
    {"twilio_auth_token": "32 hex auth token (the `AC...` Account SID is a look-alike)"},
)
def _twilio() -> list[Entry]:
    return _pair(
        "Twilio",
        "account_identifier",
        "twilio_account_sid",
        gen("AC{h32}"),
        "twilio_auth_token",
        "twilio_auth_token",
        gen("{h32}"),
        False,
    )


@group2(
    "algolia_admin_key", [], "Algolia", {"algolia_admin_key": "32 hex admin key (the application id is a look-alike)"}
)
def _algolia() -> list[Entry]:
    return _pair(
        "Algolia",
        "account_identifier",
        "algolia_app_id",
        gen("{u10}"),
        "algolia_admin_key",
        "algolia_admin_api_key",
        gen("{h32}"),
        False,
    )


@group2(
    "duo_secret_key",
    [],
    "Duo",
    {"duo_secret_key": "40-character secret key (the `DI...` integration key is a look-alike)"},
)
def _duo() -> list[Entry]:
    return _pair(
        "Duo", "account_identifier", "duo_ikey", gen("DI{u18}"), "duo_secret_key", "duo_skey", gen("{a40}"), False
    )


@group2("azure_ad_client_secret", [], "Microsoft Entra ID", {
    "azure_ad_client_secret": "3 characters + digit + `Q~` + 34 (client and tenant ids are look-alikes)"})  # fmt: skip
def _entra() -> list[Entry]:
    return [
        ent("azure_tenant_id", "uuid", uuid4(), "Microsoft Entra ID", False),
        ent("azure_client_id", "oauth_client_id", uuid4(), "Microsoft Entra ID", False),
        ent("azure_client_secret", "azure_ad_client_secret", gen("{a3}{d1}Q~") + rs(AN + "_.~-", 33) + rs(AN, 1), "Microsoft Entra ID",
            cli="az login --service-principal -u $AZURE_CLIENT_ID -p {v} --tenant $AZURE_TENANT_ID"),
    ]  # fmt: skip


@group2("oauth_client_secret", [], "OAuth", {
    "oauth_client_secret": "Google `GOCSPX-`, GitHub 40 hex, Auth0 64 (client ids are look-alikes)"})  # fmt: skip
def _oauth() -> list[Entry]:
    svc, cid, sec = R.choice([
        ("Google OAuth", lambda: gen("{d12}-{l32}.apps.googleusercontent.com"), lambda: gen("GOCSPX-{w28}")),
        ("GitHub OAuth App", lambda: gen("Ov23li{a14}"), lambda: gen("{h40}")),
        ("Auth0", lambda: gen("{a32}"), lambda: gen("{w64}")),
    ])  # fmt: skip
    return _pair(
        svc, "oauth_client_id", "oauth_client_id", cid(), "oauth_client_secret", "oauth_client_secret", sec(), False
    )


@group2(
    "paypal_client_secret",
    [],
    "PayPal",
    {"paypal_client_secret": "80 characters starting `E` (the `A...` client id is a look-alike)"},
)
def _paypal() -> list[Entry]:
    return _pair(
        "PayPal",
        "oauth_client_id",
        "paypal_client_id",
        gen("A{w79}"),
        "paypal_client_secret",
        "paypal_client_secret",
        gen("E{w79}"),
        False,
    )


@group2(
    "langfuse_secret_key",
    [],
    "Langfuse",
    {"langfuse_secret_key": "`sk-lf-` + UUID (the `pk-lf-` public key is a look-alike)"},
)
def _langfuse() -> list[Entry]:
    return _pair(
        "Langfuse",
        "public_client_key",
        "langfuse_public_key",
        "pk-lf-" + uuid4(),
        "langfuse_secret_key",
        "langfuse_secret_key",
        "sk-lf-" + uuid4(),
        False,
    )


@group2("kube_client_key_data", [], "Kubernetes", {
    "kube_client_key_data": "base64 of an EC PEM as `client-key-data` (certificate data is a look-alike)"})  # fmt: skip
def _kube() -> list[Entry]:
    return [
        ent(
            "client_certificate_data", "certificate", b64(pem("CERTIFICATE", cert_der()).encode()), "Kubernetes", False
        ),
        ent("client_key_data", "kube_client_key_data", b64(ec_pem().encode()), "Kubernetes"),
    ]


@group2("gcp_service_account_key", [], "Google Cloud", {
    "gcp_service_account_key": "PKCS #8 RSA key inside service-account JSON (with its `\\n` escapes)"})  # fmt: skip
def _gcp() -> list[Entry]:
    proj = R.choice(["acme-prod-3817", "data-lake-eu", "ml-sandbox-22"])
    name = R.choice(["ci-deployer", "bq-loader", "terraform"])
    doc = {
        "type": "service_account",
        "project_id": proj,
        "private_key_id": lk("key_identifier", gen("{h40}")),
        "private_key": mark("gcp_service_account_key", pem("PRIVATE KEY", rsa_der(True)) + "\n"[:0]),
        "client_email": f"{name}@{proj}.iam.gserviceaccount.com",
        "client_id": gen("1{d20}"),
        "token_uri": "https://oauth2.googleapis.com/token",
    }
    text = json.dumps(doc, indent=2)
    text = text.replace("\\ue000", S0).replace("\\ue001", S1).replace("\\ue002", S2)
    raw = re.search(f"{S0}s[^{S1}]+{S1}[^{S2}]+{S2}", text)
    return [
        Entry(
            "google_application_credentials_json",
            text,
            "Google Cloud",
            True,
            "gcp_service_account_key",
            raw=raw.group(0) if raw else "",
            multi=True,
        )
    ]


for _k, _svc, _names, _fn, _desc in [
    ("rsa_private_key", "RSA", ["private_key", "tls_key", "signing_key"], rsa_pem, "2048-bit RSA key, PKCS #1 or PKCS #8 PEM (DER-correct structure)"),
    ("ec_private_key", "EC", ["tls_key", "ec_private_key", "apns_key"], ec_pem, "P-256 key, SEC 1 or PKCS #8 PEM"),
    ("ed25519_private_key", "Ed25519", ["signing_key", "ed25519_key"], ed25519_pem, "PKCS #8 Ed25519 PEM"),
    ("openssh_private_key", "SSH", ["ssh_private_key", "deploy_key", "id_ed25519"], lambda: openssh_pem(R.choice(["deploy@ci", "ops@bastion", "backup"])),
     "`openssh-key-v1` Ed25519 key (unencrypted structure)"),
    ("pgp_private_key", "GnuPG", ["gpg_private_key", "signing_key"], lambda: pgp_block(R.choice(["Release Bot <release@acme.io>", "Backups <ops@acme.io>"])),
     "armored `PGP PRIVATE KEY BLOCK` (v4 EdDSA packet) with a correct CRC-24 line"),
    ("putty_private_key", "PuTTY", ["ppk", "putty_key"], lambda: putty_ppk(R.choice(["ed25519-key-20270301", "jump-host"])),
     "`PuTTY-User-Key-File-3` Ed25519 file with the PPK v3 MAC for unencrypted keys"),
    ("dsa_private_key", "DSA", ["dsa_key", "legacy_ssh_key"], dsa_pem, "`BEGIN DSA PRIVATE KEY` PEM"),
    ("encrypted_private_key", "PKCS #8", ["encrypted_key", "tls_key"], encrypted_pem, "`BEGIN ENCRYPTED PRIVATE KEY` PKCS #8 (PBES2) PEM"),
    ("cosign_private_key", "Sigstore cosign", ["cosign_key", "cosign_private_key"], cosign_pem, "`BEGIN ENCRYPTED SIGSTORE PRIVATE KEY` (cosign.key)"),
]:  # fmt: skip
    multi_spec(_k, _svc, _names, _fn, _desc)


# ---- passwords in DSNs, URLs, config and CLI flags


def pwd(kind: str, svc: str, desc: str, special: tuple[str, ...] = ()):
    def deco(fn: Callable[[str, str], tuple[str, str, str | None, str | None]]) -> None:
        def make() -> list[Entry]:
            raw = mark(kind, pw_url())
            user, host = R.choice(USERS), R.choice(HOSTS)
            key, val, cli, sql = fn(raw, f"{user}\t{host}")
            return [Entry(key, val, svc, True, kind, raw=raw, cli=cli, sql=sql)]

        SPECS[kind] = Spec(kind, svc, make, desc, special=special)

    return deco


def _uh(uh: str) -> tuple[str, str, str]:
    u, h = uh.split("\t")
    return u, h, R.choice(DBS)


@pwd(
    "postgres_password",
    "PostgreSQL",
    "password in `postgres://` URLs, libpq / JDBC strings, `PGPASSWORD`, `.pgpass`",
    ("pgpass",),
)
def _pg(v: str, uh: str) -> tuple[str, str, str | None, str | None]:
    u, h, d = _uh(uh)
    key, val = R.choice([
        ("database_url", f"{R.choice(['postgres', 'postgresql'])}://{u}:{v}@{h}:5432/{d}?sslmode=require"),
        ("jdbc_url", f"jdbc:postgresql://{h}:5432/{d}?user={u}&password={v}"),
        ("pg_dsn", f"host={h} port=5432 dbname={d} user={u} password={v} sslmode=verify-full"),
        (R.choice(["pgpassword", "postgres_password", "db_password"]), v),
    ])  # fmt: skip
    cli = R.choice(
        [
            f"PGPASSWORD={v} psql -h {h} -U {u} {d}",
            f'psql "postgresql://{u}:{v}@{h}/{d}"',
            f'pg_dump "postgres://{u}:{v}@{h}:5432/{d}" -Fc -f {d}.dump',
        ]
    )
    return key, val, cli, R.choice([f"ALTER ROLE {u} WITH PASSWORD '{v}';", f"CREATE ROLE {u} LOGIN PASSWORD '{v}';"])


@pwd("mysql_password", "MySQL", "password in `mysql://` URLs, Go DSNs, JDBC, `MYSQL_PASSWORD`, `my.cnf`", ("mycnf",))
def _my(v: str, uh: str) -> tuple[str, str, str | None, str | None]:
    u, h, d = _uh(uh)
    key, val = R.choice([
        ("database_url", f"mysql://{u}:{v}@{h}:3306/{d}"),
        ("mysql_dsn", f"{u}:{v}@tcp({h}:3306)/{d}?parseTime=true"),
        ("jdbc_url", f"jdbc:mysql://{h}:3306/{d}?user={u}&password={v}&useSSL=true"),
        (R.choice(["mysql_password", "mysql_root_password", "db_pass"]), v),
    ])  # fmt: skip
    cli = R.choice(
        [f"mysql -h {h} -u {u} -p'{v}' {d}", f"mysqldump --user={u} --password={v} --host={h} {d} > {d}.sql"]
    )
    return key, val, cli, f"CREATE USER '{u}'@'%' IDENTIFIED BY '{v}';"


@pwd("mongodb_password", "MongoDB", "password in `mongodb://` / `mongodb+srv://` URIs")
def _mongo(v: str, uh: str) -> tuple[str, str, str | None, str | None]:
    u, _h, d = _uh(uh)
    c = gen("cluster0.{l5}.mongodb.net")
    val = R.choice(
        [
            f"mongodb+srv://{u}:{v}@{c}/{d}?retryWrites=true&w=majority",
            f"mongodb://{u}:{v}@mongo-0.mongo:27017,mongo-1.mongo:27017/{d}?replicaSet=rs0",
        ]
    )
    return R.choice(["mongodb_uri", "mongo_url"]), val, f'mongosh "{val}"', None


@pwd("redis_password", "Redis", "password in `redis://` / `rediss://` URLs, `REDIS_PASSWORD`, `requirepass`")
def _redis(v: str, uh: str) -> tuple[str, str, str | None, str | None]:
    _u, h, _d = _uh(uh)
    key, val = R.choice(
        [
            ("redis_url", f"redis://:{v}@{h}:6379/0"),
            ("redis_url", f"rediss://default:{v}@{h}:6380"),
            ("redis_password", v),
        ]
    )
    return (
        key,
        val,
        R.choice([f"redis-cli -h {h} -a {v} ping", f"redis-cli --tls -h {h} -p 6380 --pass {v} info"]),
        None,
    )


@pwd("mssql_password", "SQL Server", "password in ADO.NET / ODBC connection strings, `mssql+pyodbc://`, `sqlcmd -P`")
def _mssql(v: str, uh: str) -> tuple[str, str, str | None, str | None]:
    u, h, d = _uh(uh)
    key, val = R.choice([
        ("connection_string", f"Server=tcp:{h},1433;Database={d};User ID={u};Password={v};Encrypt=True;TrustServerCertificate=False;"),
        ("sqlalchemy_url", f"mssql+pyodbc://{u}:{v}@{h}:1433/{d}?driver=ODBC+Driver+18+for+SQL+Server"),
        ("mssql_sa_password", v),
    ])  # fmt: skip
    return key, val, f"sqlcmd -S {h} -U {u} -P '{v}' -d {d} -Q 'SELECT 1'", f"CREATE LOGIN {u} WITH PASSWORD = '{v}';"


@pwd("amqp_password", "RabbitMQ", "password in `amqp://` / `amqps://` URLs, `RABBITMQ_DEFAULT_PASS`")
def _amqp(v: str, uh: str) -> tuple[str, str, str | None, str | None]:
    u, h, _d = _uh(uh)
    key, val = R.choice(
        [
            ("broker_url", f"amqps://{u}:{v}@{h}:5671/prod"),
            ("amqp_url", f"amqp://{u}:{v}@{h}:5672/%2F"),
            ("rabbitmq_default_pass", v),
        ]
    )
    return key, val, f"rabbitmqctl change_password {u} '{v}'", None


@pwd("smtp_password", "SMTP", "SMTP passwords: `smtp://` URLs, `EMAIL_HOST_PASSWORD`, `SMTP_PASS`")
def _smtp(v: str, uh: str) -> tuple[str, str, str | None, str | None]:
    u, _h, _d = _uh(uh)
    key, val = R.choice(
        [("email_url", f"smtp://{u}%40acme.io:{v}@smtp.mailhost.net:587"), ("email_host_password", v), ("smtp_pass", v)]
    )
    return (
        key,
        val,
        f"swaks --to qa@acme.io --server smtp.mailhost.net:587 --auth-user {u}@acme.io --auth-password '{v}'",
        None,
    )


@pwd("url_credential_password", "HTTP", "password in `https://user:pass@`, `ftp://`, proxy URLs, `curl -u`")
def _urlpw(v: str, uh: str) -> tuple[str, str, str | None, str | None]:
    u, _h, _d = _uh(uh)
    key, val = R.choice([
        ("https_proxy", f"http://{u}:{v}@proxy.corp.acme.io:3128"),
        ("mirror_url", f"https://{u}:{v}@nexus.acme.io/repository/pypi-internal/simple"),
        ("ftp_url", f"ftp://{u}:{v}@ftp.partner-logistics.com/outbound/"),
    ])  # fmt: skip
    return (
        key,
        val,
        R.choice(
            [
                f"curl -u {u}:{v} https://nexus.acme.io/service/rest/v1/status",
                f"wget --user={u} --password={v} https://files.acme.io/dump.tgz",
            ]
        ),
        None,
    )


@pwd(
    "oracle_db_password",
    "Oracle Database",
    "password in `user/password@//host:1521/service`, JDBC thin URLs, `IDENTIFIED BY`",
)
def _oracle(v: str, uh: str) -> tuple[str, str, str | None, str | None]:
    u, h, _d = _uh(uh)
    key, val = R.choice(
        [
            ("oracle_connect", f"{u}/{v}@//{h}:1521/ORCLPDB1"),
            ("jdbc_url", f"jdbc:oracle:thin:{u}/{v}@{h}:1521/FINPROD"),
            ("oracle_password", v),
        ]
    )
    return key, val, f"sqlplus {u}/{v}@//{h}:1521/ORCLPDB1", f'ALTER USER {u} IDENTIFIED BY "{v}";'


@pwd("ldap_bind_password", "LDAP", "bind password: `bindpw`, `ldapsearch -w`, `LDAP_BIND_PASSWORD`")
def _ldap(v: str, uh: str) -> tuple[str, str, str | None, str | None]:
    return (
        R.choice(["ldap_bind_password", "bind_pw", "auth_ldap_bind_password"]),
        v,
        (
            f"ldapsearch -x -H ldaps://ldap.acme.io -D 'cn=svc-sync,ou=services,dc=acme,dc=io' -w '{v}' -b 'dc=acme,dc=io' uid=jdoe"
        ),
        None,
    )


@pwd("kafka_sasl_password", "Kafka", "SASL password in `sasl.jaas.config` / `KAFKA_SASL_PASSWORD`")
def _kafka(v: str, uh: str) -> tuple[str, str, str | None, str | None]:
    u, _h, _d = _uh(uh)
    key, val = R.choice([
        ("sasl_jaas_config", f'org.apache.kafka.common.security.scram.ScramLoginModule required username="{u}" password="{v}";'),
        ("kafka_sasl_password", v),
    ])  # fmt: skip
    return (
        key,
        val,
        f"kcat -b broker-1.kafka.acme.io:9096 -X security.protocol=SASL_SSL -X sasl.mechanisms=SCRAM-SHA-512 -X sasl.username={u} -X sasl.password={v} -L",
        None,
    )


@pwd("snowflake_password", "Snowflake", "password in `snowflake://` URLs, `SNOWFLAKE_PASSWORD`, `SNOWSQL_PWD`")
def _snow(v: str, uh: str) -> tuple[str, str, str | None, str | None]:
    u, _h, d = _uh(uh)
    key, val = R.choice(
        [
            ("snowflake_url", f"snowflake://{u}:{v}@acme-eu1/{d}/public?warehouse=reporting_wh"),
            ("snowflake_password", v),
        ]
    )
    return key, val, f"SNOWSQL_PWD={v} snowsql -a acme-eu1 -u {u}", f"ALTER USER {u} SET PASSWORD = '{v}';"


@pwd("neo4j_password", "Neo4j", "password in `NEO4J_AUTH=neo4j/...`, `cypher-shell -p`")
def _neo(v: str, uh: str) -> tuple[str, str, str | None, str | None]:
    key, val = R.choice([("neo4j_auth", f"neo4j/{v}"), ("neo4j_password", v)])
    return key, val, f"cypher-shell -a neo4j+s://graph.acme.io -u neo4j -p '{v}'", None


@pwd(
    "elasticsearch_password", "Elasticsearch", "`ELASTIC_PASSWORD`, `https://elastic:...@` URLs, `curl -u elastic:...`"
)
def _es(v: str, uh: str) -> tuple[str, str, str | None, str | None]:
    key, val = R.choice([("elasticsearch_url", f"https://elastic:{v}@es.acme.io:9200"), ("elastic_password", v)])
    return key, val, f"curl -u elastic:{v} https://es.acme.io:9200/_cat/indices?v", None


@group2("generic_password", [], "account", {"generic_password": "human and random passwords under ordinary names (admin, Wi-Fi, keystore, VPN, root)"},
        ("pypirc", "netrc"))  # fmt: skip
def _gpw() -> list[Entry]:
    raw = mark("generic_password", R.choice([pw_human, pw_rand, pw_url])())
    key = R.choice(
        [
            "admin_password",
            "wifi_password",
            "keystore_password",
            "vpn_password",
            "root_password",
            "password",
            "bind_password",
        ]
    )
    cli = R.choice([
        f"keytool -list -keystore release.jks -storepass {raw}",
        f"openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout pass:{raw}",
        f"sshpass -p '{raw}' ssh admin@10.0.4.12",
        f"nmcli dev wifi connect Acme-Office password '{raw}'",
        f"htpasswd -b -c /etc/nginx/.htpasswd admin '{raw}'",
    ])  # fmt: skip
    return [
        Entry(
            key,
            raw,
            "account",
            True,
            "generic_password",
            raw=raw,
            cli=cli,
            sql=f"UPDATE users SET password = '{raw}' WHERE login = 'admin';",  # noqa: S608 -- SQL text is corpus content, never executed
        )
    ]


# ---- whole-URL webhooks and URL-embedded credentials


def url_kind(kind: str, svc: str, names: list[str], fn: Callable[[], tuple[str, str, str]], desc: str) -> None:
    def make() -> list[Entry]:
        pre, sec, post = fn()
        raw = mark(kind, sec)
        val = pre + raw + post
        cli = f"curl -X POST -H 'Content-Type: application/json' -d '{{\"text\":\"deploy finished\"}}' '{val}'"
        return [Entry(R.choice(names), val, svc, True, kind, raw=raw, cli=cli)]

    SPECS[kind] = Spec(kind, svc, make, desc)


url_kind("slack_webhook_url", "Slack", ["slack_webhook_url"], lambda: ("", gen("https://hooks.slack.com/services/T{u10}/B{u10}/{a24}"), ""),
         "whole `https://hooks.slack.com/services/T.../B.../...` URL")  # fmt: skip
url_kind("discord_webhook_url", "Discord", ["discord_webhook_url"], lambda: ("", gen("https://discord.com/api/webhooks/{d18}/{w68}"), ""),
         "whole `https://discord.com/api/webhooks/<id>/<68>` URL")  # fmt: skip
url_kind("msteams_webhook_url", "Microsoft Teams", ["teams_webhook_url"],
         lambda: ("", f"https://acme.webhook.office.com/webhookb2/{uuid4()}@{uuid4()}/IncomingWebhook/{gen('{h32}')}/{uuid4()}", ""),
         "whole `*.webhook.office.com/webhookb2/...` URL")  # fmt: skip
url_kind("google_chat_webhook_url", "Google Chat", ["google_chat_webhook"],
         lambda: ("", gen("https://chat.googleapis.com/v1/spaces/AAAA{w7}/messages?key=AIzaSy{w33}&token={w43}%3D"), ""),
         "whole `chat.googleapis.com/v1/spaces/.../messages?key=...&token=...` URL")  # fmt: skip
url_kind("mattermost_webhook_url", "Mattermost", ["mattermost_webhook_url"], lambda: ("", gen("https://chat.acme.io/hooks/{l26}"), ""),
         "whole `https://<host>/hooks/<26>` incoming-webhook URL")  # fmt: skip
url_kind("zapier_webhook_url", "Zapier", ["zapier_hook_url"], lambda: ("", f"https://hooks.zapier.com/hooks/catch/{R.randrange(10**6, 10**8)}/{gen('{l7}')}/", ""),
         "whole `https://hooks.zapier.com/hooks/catch/<id>/<key>/` URL")  # fmt: skip
url_kind("ifttt_webhook_key", "IFTTT", ["ifttt_webhook_url"], lambda: (f"https://maker.ifttt.com/trigger/{R.choice(['door_open', 'backup_done'])}/with/key/", gen("{w22}"), ""),
         "the key inside a `maker.ifttt.com/trigger/<event>/with/key/<key>` URL")  # fmt: skip
url_kind("azure_sas_signature", "Azure Storage", ["sas_url", "blob_sas_url"],
         lambda: (f"https://acme{gen('{l6}')}.blob.core.windows.net/exports/{R.choice(['daily.csv', 'backup.tar'])}?sv=2023-11-03&ss=b&srt=co&sp=rl"
                  "&se=2027-06-30T00:00:00Z&st=2027-03-01T00:00:00Z&spr=https&sig=",
                  b64(rbytes(32)).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D"), ""),
         "URL-encoded `sig=` value of a SAS URL (only the signature)")  # fmt: skip
url_kind("cloudinary_api_secret", "Cloudinary", ["cloudinary_url"], lambda: (f"cloudinary://{gen('{d15}')}:", gen("{w27}"), "@acme-media"),
         "API secret inside `cloudinary://<key>:<secret>@<cloud>`")  # fmt: skip


def conn_kind(kind: str, svc: str, names: list[str], fn: Callable[[], tuple[str, str, str]], desc: str) -> None:
    def make() -> list[Entry]:
        pre, sec, post = fn()
        raw = mark(kind, sec)
        if R.random() < 0.3:
            return [Entry(names[-1], raw, svc, True, kind, raw=raw)]
        return [Entry(names[0], pre + raw + post, svc, True, kind, raw=raw)]

    SPECS[kind] = Spec(kind, svc, make, desc)


conn_kind("azure_storage_account_key", "Azure Storage", ["azure_storage_connection_string", "azure_storage_key"],
          lambda: (f"DefaultEndpointsProtocol=https;AccountName=acme{gen('{l6}')};AccountKey=", b64(rbytes(64)), ";EndpointSuffix=core.windows.net"),
          "88-character base64 account key, bare or `AccountKey=` in a connection string")  # fmt: skip
conn_kind("azure_cosmos_key", "Azure Cosmos DB", ["cosmos_connection_string", "cosmos_primary_key"],
          lambda: (f"AccountEndpoint=https://acme-{gen('{l5}')}.documents.azure.com:443/;AccountKey=", b64(rbytes(64)), ";"),
          "88-character base64 Cosmos DB key (`AccountKey=` or name)")  # fmt: skip
conn_kind("azure_servicebus_key", "Azure Service Bus", ["servicebus_connection_string", "servicebus_shared_access_key"],
          lambda: (f"Endpoint=sb://acme-{gen('{l5}')}.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=",
                   b64(rbytes(32)), ""),
          "44-character base64 `SharedAccessKey=` in a Service Bus / Event Hubs connection string")  # fmt: skip


@group2(
    "session_cookie",
    [],
    "web session",
    {
        "session_cookie": "cookie values (`sessionid`, `connect.sid`, Rails, `PHPSESSID`, `laravel_session`); only the value"
    },
)
def _cookie() -> list[Entry]:
    name, value = R.choice([
        ("sessionid", lambda: gen("{l32}")),
        ("connect.sid", lambda: gen("s%3A{w32}.{w43}")),
        ("_acme_session", lambda: gen("{b160}") + "--" + gen("{h40}")),
        ("PHPSESSID", lambda: gen("{l26}")),
        ("laravel_session", lambda: "eyJpdiI6" + gen("{b180}")),
    ])  # fmt: skip
    raw = mark("session_cookie", value())
    e = Entry(name.replace(".", "_").lstrip("_"), raw, "web session", True, "session_cookie", raw=raw)
    e.hdr = f"Cookie: {name}={raw}"
    e.cli = f'curl -s -b "{name}={raw}" https://admin.acme.io/api/me'
    return [e]


@group2("http_basic_auth", [], "HTTP Basic", {"http_basic_auth": "base64(`user:password`) after `Basic `"})
def _basic() -> list[Entry]:
    raw = mark("http_basic_auth", b64(f"{R.choice(USERS)}:{pw_url()}".encode()))
    e = Entry("basic_auth", raw, "HTTP Basic", True, "http_basic_auth", raw=raw)
    e.hdr = f"Authorization: Basic {raw}"
    e.cli = f'curl -H "Authorization: Basic {raw}" https://metrics.acme.io/federate'
    return [e]


@group2(
    "encryption_key",
    [],
    "encryption",
    {
        "encryption_key": "32-byte keys as hex / base64, Laravel `base64:`, Fernet, Rails `master.key`, Vault unseal keys"
    },
)
def _enc() -> list[Entry]:
    form = R.randrange(5)
    if form == 0:
        raw = mark("encryption_key", b64(rbytes(32)))
        return [Entry("app_key", "base64:" + raw, "Laravel", True, "encryption_key", raw=raw)]
    key, value = [
        ("encryption_key", gen("{h64}")),
        ("fernet_key", base64.urlsafe_b64encode(rbytes(32)).decode()),
        ("rails_master_key", gen("{h32}")),
        ("vault_unseal_key", b64(rbytes(33))),
        ("field_encryption_key", b64(rbytes(32))),
    ][form]
    raw = mark("encryption_key", value)
    return [Entry(key, raw, "encryption", True, "encryption_key", raw=raw)]


@group2(
    "webhook_signing_secret",
    [],
    "webhooks",
    {"webhook_signing_secret": "Svix / Clerk `whsec_` + base64, GitHub / GitLab / Shopify hex secrets"},
)
def _whs() -> list[Entry]:
    key, value = R.choice([
        ("svix_webhook_secret", lambda: "whsec_" + b64(rbytes(24))),
        ("github_webhook_secret", lambda: gen("{h40}")),
        ("shopify_webhook_secret", lambda: gen("{h64}")),
        ("gitlab_webhook_token", lambda: gen("{a32}")),
    ])  # fmt: skip
    raw = mark("webhook_signing_secret", value())
    return [Entry(key, raw, "webhooks", True, "webhook_signing_secret", raw=raw)]


@group2(
    "vapid_private_key",
    [],
    "Web Push",
    {"vapid_private_key": "43-character base64url VAPID private key (the public key is a look-alike)"},
)
def _vapid() -> list[Entry]:
    return _pair(
        "Web Push",
        "public_site_key",
        "vapid_public_key",
        b64u(b"\x04" + rbytes(64)),
        "vapid_private_key",
        "vapid_private_key",
        b64u(rbytes(32)),
        False,
    )


@group2(
    "wireguard_private_key",
    [],
    "WireGuard",
    {"wireguard_private_key": "base64 X25519 private key (the peer public key is a look-alike)"},
)
def _wg() -> list[Entry]:
    priv = b64(bytes([R.getrandbits(8) & 248]) + rbytes(30) + bytes([64 | R.getrandbits(6)]))
    return _pair(
        "WireGuard",
        "wireguard_public_key",
        "peer_public_key",
        b64(rbytes(32)),
        "wireguard_private_key",
        "wg_private_key",
        priv,
        False,
    )


@group2("totp_seed", [], "TOTP", {"totp_seed": "base32 TOTP seed, bare or in an `otpauth://` URI (only the seed)"})
def _totp() -> list[Entry]:
    raw = mark("totp_seed", base64.b32encode(rbytes(20)).decode())
    if R.random() < 0.5:
        acct = R.choice(["ops%40acme.io", "root", "admin%40billing"])
        val = f"otpauth://totp/Acme:{acct}?secret={raw}&issuer=Acme&digits=6"
        return [Entry("otpauth_uri", val, "TOTP", True, "totp_seed", raw=raw)]
    return [Entry(R.choice(["totp_secret", "mfa_seed"]), raw, "TOTP", True, "totp_seed", raw=raw)]


# ---------------------------------------------------------------- look-alikes (public values)


def look(kind: str, names: list[str], fn: Callable[[], str], desc: str, multi: bool = False) -> None:
    def make() -> list[Entry]:
        raw = lk(kind, fn())
        return [Entry(R.choice(names), raw, "", False, kind, raw=raw, multi=multi)]

    LOOKS[kind] = Spec(kind, "", make, desc, multi=multi, secret=False)


def pick(*options: str | Callable[[], str]) -> Callable[[], str]:
    def fn() -> str:
        o = R.choice(options)
        return o() if callable(o) else gen(o)

    return fn


def ts_iso() -> str:
    return f"2027-{R.randrange(1, 13):02d}-{R.randrange(1, 29):02d}T{R.randrange(24):02d}:{R.randrange(60):02d}:{R.randrange(60):02d}Z"


def _pod() -> str:
    safe = "bcdfghjklmnpqrstvwxz2456789"
    return f"{R.choice(['api', 'worker', 'ingest', 'billing-sync', 'web'])}-{rs(safe, 10)}-{rs(safe, 5)}"


look("aws_example_key", ["aws_access_key_id", "aws_secret_access_key", "example_key"],
     pick("AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "AKIAI44QH8DHBEXAMPLE", "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY"),
     "AWS documentation keys ending in `EXAMPLE` / `EXAMPLEKEY`")  # fmt: skip
look("documented_example", ["docs_sample_key", "example_token", "sample_jwt"],
     pick("sk_test_4eC39HqLyjWDarjtT1zdp7dc", "pk_test_TYooMQauvdEDq54NiTphI7jx", "JBSWY3DPEHPK3PXP",
          "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"),
     "sample values from provider docs (Stripe docs test-mode keys, the jwt.io token, the Google Authenticator example seed)")  # fmt: skip
look("placeholder", ["api_key", "token", "password", "client_secret"],
     pick("<your-api-key>", "changeme", "REPLACE_ME", "xxxxxxxxxxxxxxxxxxxxxxxx", "YOUR_TOKEN_HERE", "<paste-token-here>", "TODO-set-me", "sk-..."),
     "placeholders: `<your-api-key>`, `changeme`, `xxxx...`, `REPLACE_ME`")  # fmt: skip
look("template_reference", ["api_key", "db_password", "token"],
     pick(lambda: "${{ secrets." + R.choice(["NPM_TOKEN", "DEPLOY_KEY", "STRIPE_KEY"]) + " }}",
          lambda: "{{ .Values." + R.choice(["auth.token", "db.password"]) + " }}",
          lambda: "{{ vault_" + R.choice(["db_password", "api_token"]) + " }}",
          lambda: "${var." + R.choice(["admin_password", "api_key"]) + "}",
          lambda: "$(" + R.choice(["SonarToken", "NugetKey"]) + ")",
          lambda: '{{ env "' + R.choice(["TOKEN", "PASS"]) + '" }}'),
     "template expressions: `${{ secrets.X }}`, Helm / Jinja / Terraform / Azure Pipelines / Nomad")  # fmt: skip
look("env_reference", ["api_key", "password", "token"],
     pick(lambda: "${" + R.choice(["API_KEY", "DB_PASSWORD", "SLACK_TOKEN"]) + "}",
          lambda: "$" + R.choice(["GITHUB_TOKEN", "PGPASSWORD"]),
          lambda: "%" + R.choice(["API_TOKEN", "SECRET"]) + "%",
          lambda: 'os.environ["' + R.choice(["OPENAI_API_KEY", "DB_PASS"]) + '"]',
          lambda: "process.env." + R.choice(["STRIPE_SECRET", "JWT_SECRET"]),
          lambda: 'System.getenv("' + R.choice(["DB_PASS", "TOKEN"]) + '")'),
     "references to environment variables (`${X}`, `$X`, `%X%`, `os.environ[...]`, `process.env.X`, `System.getenv`)")  # fmt: skip
look("secret_manager_reference", ["password_ref", "token_source", "secret_ref"],
     pick("op://Production/stripe/credential", "op://Infra/postgres-admin/password", "vault:secret/data/payments#api_key",
          lambda: f"arn:aws:secretsmanager:eu-west-1:{gen('{d12}')}:secret:prod/db-{gen('{a6}')}", "projects/acme-prod/secrets/smtp-password/versions/latest",
          "@Microsoft.KeyVault(SecretUri=https://acme-kv.vault.azure.net/secrets/ApiKey/)", "ssm:/prod/billing/api-key", "doppler://acme/prd/STRIPE_KEY"),
     "secret-manager names and paths (`op://`, Vault, AWS / GCP / Azure secret ids, SSM)")  # fmt: skip
look("masked_value", ["api_key", "token", "password"],
     pick(lambda: "sk_live_" + "*" * 20 + gen("{a4}"), lambda: "ghp_" + "\u2026" + gen("{a4}"), "[REDACTED]", "********", "<redacted>",
          lambda: "xoxb-****-****-" + gen("{a4}"), lambda: "\u2022" * 12 + gen("{a4}")),
     "masked or redacted values (`sk_live_****abcd`, `****`, `[REDACTED]`)")  # fmt: skip
look("git_sha", ["commit", "sha", "revision"], pick("{h40}", "{h7}", "{h12}"), "full and short commit SHAs")
look("sha256_checksum", ["sha256", "checksum"], pick("{h64}"), "SHA-256 digests of files")
look("sha512_checksum", ["sha512", "digest"], pick("{h128}"), "SHA-512 digests (128 hex)")
look(
    "md5_or_etag",
    ["md5", "etag"],
    pick("{h32}", lambda: gen("{h32}") + f"-{R.randrange(2, 40)}"),
    "MD5 checksums and S3 ETags",
)
look("password_hash", ["password_hash", "hashed_password"],
     pick(lambda: "$2b$12$" + rs(AN + "./", 53), lambda: f"$argon2id$v=19$m=65536,t=3,p=4${b64(rbytes(16)).rstrip('=')}${b64(rbytes(32)).rstrip('=')}",
          lambda: "$6$" + rs(AN + "./", 16) + "$" + rs(AN + "./", 86)),
     "password hashes: bcrypt, argon2id, sha512-crypt")  # fmt: skip
look("container_digest", ["image_digest", "digest"], pick("sha256:{h64}"), "`sha256:` image digests")
look("container_id", ["container_id"], pick("{h64}", "{h12}"), "Docker container ids (64 or 12 hex)")
look("npm_integrity", ["integrity"], lambda: "sha512-" + b64(rbytes(64)), "`sha512-` integrity strings from lockfiles")
look(
    "sri_integrity",
    ["integrity", "sri"],
    lambda: R.choice(["sha384-" + b64(rbytes(48)), "sha256-" + b64(rbytes(32))]),
    "`sha384-` / `sha256-` subresource-integrity hashes",
)
look("go_sum_hash", ["go_sum"], lambda: "h1:" + b64(rbytes(32)), "`go.sum` `h1:` hashes")
look("uuid", ["tenant_id", "project_id", "workspace_id", "record_id", "subscription_id"], uuid4, "UUIDs used as ids")
look("ulid", ["event_id", "job_id"], lambda: R.choice("01") + rs("0123456789ABCDEFGHJKMNPQRSTVWXYZ", 25), "ULIDs")
look("request_id", ["request_id", "x_request_id", "cf_ray"],
     pick("req_{a14}", "{H16}", lambda: gen("{h16}") + "-" + R.choice(["AMS", "FRA", "SIN"]), uuid4),
     "request ids: Stripe `req_`, `x-amz-request-id`, Cloudflare ray, `X-Request-Id`")  # fmt: skip
look("trace_id", ["traceparent", "trace_id", "x_amzn_trace_id"], pick("00-{h32}-{h16}-01", "1-{h8}-{h24}", "{h32}"),
     "W3C `traceparent`, X-Ray and OpenTelemetry trace ids")  # fmt: skip
look("account_identifier", ["aws_account_id", "twilio_account_sid", "stripe_account", "slack_team_id"],
     pick("{d12}", "AC{h32}", "acct_1{a15}", "T0{u9}"), "account ids: AWS account numbers, Twilio SIDs, Stripe `acct_`, Slack team ids")  # fmt: skip
look("oauth_client_id", ["client_id", "oauth_client_id"],
     pick("{d12}-{l32}.apps.googleusercontent.com", "Iv1.{h16}", "Ov23li{a14}", uuid4, "{a32}"),
     "OAuth client ids: Google, GitHub, Entra, Auth0")  # fmt: skip
look("public_key_pem", ["public_key", "jwt_public_key"],
     lambda: R.choice([pem("PUBLIC KEY", seq(seq(OID_EC, OID_P256), ec_point())),
                       pem("PUBLIC KEY", bytes.fromhex("302a300506032b6570032100") + rbytes(32))]),
     "`BEGIN PUBLIC KEY` PEM (P-256 and Ed25519)", multi=True)  # fmt: skip
look("ssh_public_key", ["authorized_key", "ssh_public_key"],
     lambda: "ssh-ed25519 " + b64(sshstr(b"ssh-ed25519") + sshstr(rbytes(32))) + " " + R.choice(["deploy@ci", "mara@laptop", "backup"]),
     "`ssh-ed25519` public keys")  # fmt: skip
look(
    "certificate",
    ["ca_cert", "tls_cert"],
    lambda: pem("CERTIFICATE", cert_der()),
    "self-signed P-256 X.509 certificates (PEM)",
    multi=True,
)
look("key_fingerprint", ["fingerprint", "host_key"],
     pick(lambda: "SHA256:" + b64(rbytes(32)).rstrip("="), lambda: ":".join(gen("{h2}") for _ in range(16)), "{H40}"),
     "SSH `SHA256:` fingerprints, MD5 colon fingerprints, PGP fingerprints")  # fmt: skip
look("key_identifier", ["kid", "kms_key_id", "gpg_key_id", "private_key_id"], pick("{h40}", uuid4, "{H16}", "mrk-{h32}"),
     "key ids: GCP `private_key_id`, KMS key ids, JWT `kid`, GPG long ids")  # fmt: skip
look("public_client_key", ["posthog_project_key", "segment_write_key", "ld_client_side_id", "langfuse_public_key"],
     pick("phc_{a43}", "{a32}", "{h24}", lambda: "pk-lf-" + uuid4()),
     "keys meant to ship to clients: PostHog `phc_`, Segment write keys, LaunchDarkly client-side ids, Langfuse `pk-lf-`")  # fmt: skip
look(
    "stripe_publishable_key",
    ["stripe_publishable_key", "publishable_key"],
    pick("pk_live_{a24}", "pk_live_51{a97}"),
    "`pk_live_...` publishable keys",
)
look("public_site_key", ["site_key", "mapbox_token", "vapid_public_key", "recaptcha_site_key"],
     pick(lambda: "pk." + b64u(json.dumps({"u": "acme-maps", "a": gen("cl{l23}")}).encode()) + "." + gen("{w22}"), "6L{w38}",
          "0x4AAAAAAA{w14}", lambda: b64u(b"\x04" + rbytes(64))),
     "public site keys: Mapbox `pk.`, reCAPTCHA and Turnstile site keys, VAPID public keys")  # fmt: skip
look(
    "firebase_web_api_key",
    ["firebase_api_key", "apiKey"],
    pick("AIza{w35}"),
    "`AIza...` keys inside Firebase web configs (shipped to browsers)",
)
look("base64_text", ["payload", "encoded"],
     lambda: b64(R.choice(["hello from the staging cluster", '{"feature":"dark-mode","enabled":true}', "user=mara;role=viewer;ttl=3600",
                           "The quick brown fox jumps over the lazy dog", "[server]\nport=8080\nlog=info"]).encode()),
     "base64 of ordinary text / JSON / config")  # fmt: skip
look("k8s_pod_name", ["pod"], _pod, "pod names with ReplicaSet hash suffixes")
look("long_identifier", ["test", "function", "slug"],
     pick("test_refund_is_idempotent_when_webhook_is_replayed_twice", "OrderReconciliationServiceIntegrationTest",
          "handle_subscription_downgrade_with_prorated_credit", "customer-onboarding-checklist-for-enterprise-tier-2027",
          "shouldRetryTransientSmtpFailuresWithExponentialBackoff", "AbstractPaymentGatewayAdapterFactoryBean"),
     "long identifiers: test / class / function names, slugs")  # fmt: skip
look(
    "semver",
    ["version"],
    lambda: f"{R.choice(['v', ''])}{R.randrange(0, 12)}.{R.randrange(0, 40)}.{R.randrange(0, 20)}",
    "versions",
)
look(
    "timestamp",
    ["created_at", "ts"],
    pick(ts_iso, lambda: str(1_790_000_000_000 + R.randrange(10**10))),
    "ISO-8601 timestamps and epoch milliseconds",
)
look("iban", ["iban"], iban, "IBANs with valid check digits")
look("isbn", ["isbn"], isbn13, "ISBN-13 with valid check digits")
look("crypto_address", ["wallet_address", "payout_address", "npub"],
     pick(lambda: bech32("bc", [0, *_conv(rbytes(20))]), "0x{h40}", lambda: bech32("npub", _conv(rbytes(32)))),
     "bitcoin bech32 addresses, lowercase Ethereum addresses, Nostr `npub`")  # fmt: skip
look("tx_hash", ["tx_hash", "transaction"], pick("0x{h64}"), "blockchain transaction hashes (`0x` + 64 hex)")
look("encrypted_value", ["db_password", "api_token"],
     pick(lambda: f"ENC[AES256_GCM,data:{b64(rbytes(24))},iv:{b64(rbytes(32))},tag:{b64(rbytes(16))},type:str]", lambda: "AgB" + b64(rbytes(270))),
     "encrypted blobs: SOPS `ENC[...]`, sealed-secrets `AgB...`")  # fmt: skip
look("ip_address", ["host", "cidr", "peer"],
     pick(lambda: f"10.{R.randrange(256)}.{R.randrange(256)}.{R.randrange(1, 255)}", lambda: f"172.{R.randrange(16, 32)}.0.0/16",
          lambda: f"2001:db8:{gen('{h4}')}::{gen('{h3}')}", lambda: f"203.0.113.{R.randrange(1, 255)}"),
     "IPv4 / IPv6 addresses and CIDRs")  # fmt: skip
look("url", ["endpoint", "docs"], pick("https://api.acme.io/v2/orders?limit=50&page=3", "https://status.acme.io/incidents/{l12}",
     "https://grafana.acme.io/d/{a9}/latency?orgId=1", "https://docs.acme.io/runbooks/db-failover"), "URLs without credentials")  # fmt: skip
look(
    "url_slug_id",
    ["video", "doc", "figma_file"],
    pick("{w11}", "{w44}", "{a22}"),
    "random-looking public ids from YouTube, Google Docs, Figma URLs",
)
look("wireguard_public_key", ["peer_public_key", "public_key"], lambda: b64(rbytes(32)), "WireGuard public keys")
look(
    "age_recipient",
    ["age_recipient", "recipients"],
    lambda: bech32("age", _conv(rbytes(32))),
    "`age1...` recipients (bech32)",
)
look("test_card_number", ["card", "test_card"], pick("4242424242424242", "4000056655665556", "5555555555554444", "378282246310005", "6011111111111117", "4000000000003220"),
     "card numbers published as test numbers in payment docs")  # fmt: skip
look("sentry_dsn", ["sentry_dsn", "dsn"], lambda: f"https://{gen('{h32}')}@o{R.randrange(10**5, 10**6)}.ingest.sentry.io/{R.randrange(10**6, 10**7)}",
     "Sentry DSNs (public by design, shipped in front-end bundles)")  # fmt: skip
look("mac_address", ["mac", "hwaddr"], lambda: ":".join(gen("{h2}") for _ in range(6)), "MAC addresses")
look(
    "asset_hash",
    ["bundle", "asset"],
    pick("main.{h8}.js", "app-{h20}.css", "vendor.{h16}.chunk.js"),
    "content-hashed asset file names",
)


# ---------------------------------------------------------------- languages (prose and comments)

LABELS = ["journal", "meeting", "attendees", "decisions", "actions", "user", "assistant", "summary", "timeline", "cause", "steps", "description", "comments", "facts", "checklist", "diary", "wrote", "subject", "hi", "thanks", "review"]  # fmt: skip


def _lang(fill: str, sec: str, bare: str, lookt: str, cmt: str, env: str, labels: str) -> dict[str, list[str]]:  # noqa: PLR0917 -- one positional argument per phrase table
    out = {k: v.split(" | ") for k, v in
           {"fill": fill, "sec": sec, "bare": bare, "look": lookt, "cmt": cmt, "env": env}.items()}  # fmt: skip
    lab = labels.split(" | ")
    if len(lab) != len(LABELS):
        raise ValueError(f"labels: {len(lab)}")
    out.update({k: [v] for k, v in zip(LABELS, lab, strict=True)})
    return out


LANGS: dict[str, dict[str, list[str]]] = {
    "English": _lang(
        "Spent the morning chasing a flaky integration test; it was a timezone bug in the fixture. | The staging deploy went out at lunch and the canary looks healthy. | Need to ask Priya whether the billing export still runs on Sundays. | Moved the cron job from the old box onto the cluster. | The user wants shorter summaries with bullet points, not paragraphs. | Search latency dropped after the index rebuild. | Reminder: the quarterly access review is due next Friday. | A dependency bump broke two snapshot tests; regenerated them. | Rolled the feature flag back after a spike in 502s. | Wrote the steps down so the next on-call does not have to guess.",
        "{svc} credential for {env}: {v} | The new {svc} key is {v} (the old one is revoked). | {key} = {v} | Keep {v} handy for {svc}; the user asked me to remember it. | Rotated {key} today, current value {v}. | For {svc} we use {v}.",
        "new one is {v} | use {v} for {env} | {v} works, confirmed with the user | pasted by the user: {v}",
        "{key}: {v} | for reference, {key} {v} | {v} ({key}, not sensitive)",
        "settings for {svc} | values for the {env} environment | edited by hand after the migration | keep in sync with the deploy repo",
        "staging | production | the eu cluster | local dev",
        "Journal | Meeting notes | Attendees | Decisions | Action items | User | Assistant | Summary | Timeline | Root cause | Steps | Description | Comments | About the user | Checklist | Debugging diary | wrote | credentials for the rollout | Hi | Thanks | Review",
    ),
    "Dutch": _lang(
        "Vanochtend een instabiele integratietest nagejaagd; het bleek een tijdzonefout in de fixture. | De uitrol naar staging ging rond de lunch live en de canary ziet er gezond uit. | Nog aan Sanne vragen of de facturatie-export op zondag draait. | De cronjob is van de oude server naar het cluster verhuisd. | De gebruiker wil kortere samenvattingen, graag in opsommingstekens. | Na het herbouwen van de index is de latency van het zoeken flink gedaald.",
        "{svc}-sleutel voor {env}: {v} | De nieuwe {svc}-token is {v}; de oude is ingetrokken. | {key} = {v} | Bewaar {v} voor {svc}, de gebruiker vroeg me dit te onthouden. | {key} vandaag geroteerd, huidige waarde {v}.",
        "de nieuwe is {v} | gebruik {v} voor {env} | {v} werkt, bevestigd door de gebruiker",
        "{key}: {v} | ter referentie, {key} {v} | {v} ({key}, niet gevoelig)",
        "instellingen voor {svc} | waarden voor de {env}-omgeving | handmatig aangepast na de migratie | synchroon houden met de deploy-repo",
        "staging | productie | test",
        "Dagboek | Vergadernotities | Aanwezig | Besluiten | Actiepunten | Gebruiker | Assistent | Samenvatting | Tijdlijn | Oorzaak | Stappen | Beschrijving | Reacties | Over de gebruiker | Checklist | Debugdagboek | schreef | inloggegevens voor de uitrol | Hoi | Bedankt | Review",
    ),
    "Czech": _lang(
        "Celé dopoledne jsem honil nestabilní integrační test; byla to chyba s časovým pásmem. | Nasazení na staging proběhlo v poledne, canary vypadá zdravě. | Zeptat se Petry, jestli export fakturace běží i v neděli. | Cron úloha se přesunula ze starého serveru do clusteru. | Uživatel chce kratší shrnutí v odrážkách. | Po přestavbě indexu výrazně klesla latence vyhledávání.",
        "Klíč {svc} pro {env}: {v} | Nový token {svc} je {v}, starý byl zneplatněn. | {key} = {v} | Uložit {v} pro {svc}, uživatel mě požádal, ať si to pamatuji. | {key} dnes rotován, aktuální hodnota {v}.",
        "nový je {v} | pro {env} použij {v} | {v} funguje, uživatel potvrdil",
        "{key}: {v} | pro informaci, {key} {v} | {v} ({key}, není citlivé)",
        "nastavení pro {svc} | hodnoty pro prostředí {env} | ručně upraveno po migraci | udržovat v souladu s deploy repozitářem",
        "staging | produkci | test",
        "Deník | Zápis ze schůzky | Účastníci | Rozhodnutí | Úkoly | Uživatel | Asistent | Shrnutí | Časová osa | Příčina | Kroky | Popis | Komentáře | O uživateli | Kontrolní seznam | Ladicí deník | napsal(a) | přístupy pro nasazení | Ahoj | Díky | Revize",
    ),
    "Greek": _lang(
        "Πέρασα το πρωί κυνηγώντας ένα ασταθές τεστ ενοποίησης· ήταν σφάλμα ζώνης ώρας. | Η ανάπτυξη στο staging έγινε το μεσημέρι και το canary φαίνεται υγιές. | Να ρωτήσω τη Μαρία αν η εξαγωγή τιμολογίων τρέχει και την Κυριακή. | Η εργασία cron μεταφέρθηκε από τον παλιό διακομιστή στο cluster. | Ο χρήστης θέλει πιο σύντομες περιλήψεις με κουκκίδες. | Μετά την ανακατασκευή του ευρετηρίου η καθυστέρηση της αναζήτησης μειώθηκε.",
        "Κλειδί {svc} για {env}: {v} | Το νέο token του {svc} είναι {v}· το παλιό ανακλήθηκε. | {key} = {v} | Κράτα το {v} για το {svc}, το ζήτησε ο χρήστης. | Έγινε εναλλαγή του {key} σήμερα, τρέχουσα τιμή {v}.",
        "το νέο είναι {v} | χρησιμοποίησε {v} για {env} | {v} λειτουργεί, το επιβεβαίωσε ο χρήστης",
        "{key}: {v} | για αναφορά, {key} {v} | {v} ({key}, όχι ευαίσθητο)",
        "ρυθμίσεις για {svc} | τιμές για το περιβάλλον {env} | χειροκίνητη αλλαγή μετά τη μετάπτωση | να συμφωνεί με το αποθετήριο ανάπτυξης",
        "staging | παραγωγή | δοκιμές",
        "Ημερολόγιο | Σημειώσεις σύσκεψης | Συμμετέχοντες | Αποφάσεις | Ενέργειες | Χρήστης | Βοηθός | Περίληψη | Χρονολόγιο | Βασική αιτία | Βήματα | Περιγραφή | Σχόλια | Για τον χρήστη | Λίστα ελέγχου | Ημερολόγιο αποσφαλμάτωσης | έγραψε | διαπιστευτήρια για την ανάπτυξη | Γεια | Ευχαριστώ | Αναθεώρηση",
    ),
    "Thai": _lang(
        "เช้านี้ไล่แก้เทสต์ integration ที่ไม่เสถียร สาเหตุคือเขตเวลาใน fixture | ดีพลอยขึ้น staging ตอนเที่ยง canary ดูปกติดี | ต้องถามคุณสมชายว่าการส่งออกใบแจ้งหนี้ยังรันวันอาทิตย์หรือไม่ | ย้าย cron job จากเครื่องเก่าไปที่คลัสเตอร์แล้ว | ผู้ใช้อยากได้สรุปที่สั้นลงและเป็นข้อ ๆ | หลังสร้างดัชนีใหม่ ความหน่วงของการค้นหาลดลงมาก",
        "คีย์ {svc} สำหรับ {env}: {v} | โทเคน {svc} ตัวใหม่คือ {v} ตัวเก่าถูกเพิกถอนแล้ว | {key} = {v} | เก็บ {v} ไว้ใช้กับ {svc} ผู้ใช้ขอให้จำไว้ | หมุนเวียน {key} วันนี้ ค่าปัจจุบันคือ {v}",
        "ตัวใหม่คือ {v} | ใช้ {v} สำหรับ {env} | {v} ใช้ได้ ผู้ใช้ยืนยันแล้ว",
        "{key}: {v} | อ้างอิง {key} {v} | {v} ({key} ไม่ใช่ข้อมูลลับ)",
        "การตั้งค่าสำหรับ {svc} | ค่าสำหรับสภาพแวดล้อม {env} | แก้ไขด้วยมือหลังการย้ายระบบ | ต้องตรงกับ repo สำหรับดีพลอย",
        "staging | production | ทดสอบ",
        "บันทึกประจำวัน | บันทึกการประชุม | ผู้เข้าร่วม | ข้อตัดสินใจ | สิ่งที่ต้องทำ | ผู้ใช้ | ผู้ช่วย | สรุป | ลำดับเหตุการณ์ | สาเหตุหลัก | ขั้นตอน | รายละเอียด | ความคิดเห็น | เกี่ยวกับผู้ใช้ | รายการตรวจสอบ | บันทึกการดีบัก | เขียนว่า | ข้อมูลรับรองสำหรับการปล่อยระบบ | สวัสดี | ขอบคุณ | รีวิว",
    ),
    "Hebrew": _lang(
        "הבוקר רדפתי אחרי בדיקת אינטגרציה לא יציבה; זה היה באג של אזור זמן. | הפריסה ל-staging יצאה בצהריים, ה-canary נראה תקין. | לשאול את נועה אם ייצוא החשבוניות רץ גם ביום ראשון. | משימת ה-cron הועברה מהשרת הישן לאשכול. | המשתמש מעדיף סיכומים קצרים בנקודות. | אחרי בניית האינדקס מחדש זמן התגובה של החיפוש ירד.",
        "מפתח {svc} עבור {env}: {v} | הטוקן החדש של {svc} הוא {v}; הישן בוטל. | {key} = {v} | לשמור את {v} עבור {svc}, המשתמש ביקש שאזכור. | {key} הוחלף היום, הערך הנוכחי {v}.",
        "החדש הוא {v} | השתמש ב-{v} עבור {env} | {v} עובד, המשתמש אישר",
        "{key}: {v} | לעיון, {key} {v} | {v} ({key}, לא רגיש)",
        "הגדרות עבור {svc} | ערכים לסביבת {env} | נערך ידנית אחרי ההגירה | לשמור מסונכרן עם מאגר הפריסה",
        "staging | ייצור | בדיקות",
        "יומן | סיכום פגישה | משתתפים | החלטות | משימות | משתמש | עוזר | סיכום | ציר זמן | סיבת שורש | שלבים | תיאור | תגובות | על המשתמש | רשימת בדיקה | יומן דיבאג | כתב/ה | פרטי גישה לפריסה | היי | תודה | סקירה",
    ),
    "Romanian": _lang(
        "Am petrecut dimineața urmărind un test de integrare instabil; era o eroare de fus orar. | Implementarea pe staging a plecat la prânz, canary arată bine. | Trebuie să o întreb pe Ioana dacă exportul de facturi rulează duminica. | Jobul cron a fost mutat de pe serverul vechi în cluster. | Utilizatorul vrea rezumate mai scurte, pe puncte. | După reconstruirea indexului, latența căutării a scăzut.",
        "Cheia {svc} pentru {env}: {v} | Noul token {svc} este {v}; cel vechi a fost revocat. | {key} = {v} | Păstrează {v} pentru {svc}, utilizatorul a cerut să-l rețin. | Am rotit {key} azi, valoarea curentă {v}.",
        "cel nou e {v} | folosește {v} pentru {env} | {v} merge, confirmat de utilizator",
        "{key}: {v} | ca referință, {key} {v} | {v} ({key}, nu e sensibil)",
        "setări pentru {svc} | valori pentru mediul {env} | editat manual după migrare | păstrează sincronizat cu repo-ul de deploy",
        "staging | producție | test",
        "Jurnal | Note de ședință | Participanți | Decizii | Acțiuni | Utilizator | Asistent | Rezumat | Cronologie | Cauza principală | Pași | Descriere | Comentarii | Despre utilizator | Listă de verificare | Jurnal de depanare | a scris | acces pentru lansare | Salut | Mulțumesc | Recenzie",
    ),
    "Finnish": _lang(
        "Aamu meni epävakaan integraatiotestin jäljittämiseen; vika oli aikavyöhykkeessä. | Julkaisu stagingiin lähti lounaalla, canary näyttää terveeltä. | Kysy Ainolta, ajetaanko laskutusvienti myös sunnuntaisin. | Cron-ajo siirrettiin vanhalta palvelimelta klusteriin. | Käyttäjä haluaa lyhyempiä yhteenvetoja ranskalaisin viivoin. | Indeksin uudelleenrakennuksen jälkeen haun viive laski.",
        "{svc}-avain ympäristöön {env}: {v} | Uusi {svc}-token on {v}; vanha on mitätöity. | {key} = {v} | Säilytä {v} palvelua {svc} varten, käyttäjä pyysi muistamaan sen. | {key} kierrätettiin tänään, nykyinen arvo {v}.",
        "uusi on {v} | käytä {v} ympäristössä {env} | {v} toimii, käyttäjä vahvisti",
        "{key}: {v} | viitteeksi, {key} {v} | {v} ({key}, ei arkaluonteinen)",
        "asetukset palvelulle {svc} | arvot ympäristölle {env} | muokattu käsin migraation jälkeen | pidä synkassa deploy-repon kanssa",
        "staging | tuotanto | testi",
        "Päiväkirja | Kokousmuistio | Osallistujat | Päätökset | Toimenpiteet | Käyttäjä | Avustaja | Yhteenveto | Aikajana | Juurisyy | Vaiheet | Kuvaus | Kommentit | Tietoja käyttäjästä | Tarkistuslista | Vianetsintäpäiväkirja | kirjoitti | tunnukset julkaisua varten | Hei | Kiitos | Katselmointi",
    ),
    "Malay": _lang(
        "Pagi tadi saya mengejar ujian integrasi yang tidak stabil; puncanya pepijat zon waktu. | Pelaksanaan ke staging keluar waktu tengah hari, canary nampak sihat. | Perlu tanya Aisyah sama ada eksport bil masih berjalan pada hari Ahad. | Tugas cron dipindahkan dari pelayan lama ke kluster. | Pengguna mahu ringkasan yang lebih pendek dalam bentuk poin. | Selepas indeks dibina semula, kependaman carian menurun.",
        "Kunci {svc} untuk {env}: {v} | Token {svc} yang baharu ialah {v}; yang lama sudah dibatalkan. | {key} = {v} | Simpan {v} untuk {svc}, pengguna minta saya ingat. | {key} diputar hari ini, nilai semasa {v}.",
        "yang baharu {v} | guna {v} untuk {env} | {v} berfungsi, disahkan oleh pengguna",
        "{key}: {v} | sebagai rujukan, {key} {v} | {v} ({key}, bukan rahsia)",
        "tetapan untuk {svc} | nilai untuk persekitaran {env} | disunting secara manual selepas migrasi | selaraskan dengan repo deploy",
        "staging | produksi | ujian",
        "Jurnal | Nota mesyuarat | Kehadiran | Keputusan | Tindakan | Pengguna | Pembantu | Ringkasan | Garis masa | Punca utama | Langkah | Penerangan | Komen | Tentang pengguna | Senarai semak | Diari nyahpepijat | menulis | kelayakan untuk pelancaran | Hai | Terima kasih | Semakan",
    ),
    "Persian": _lang(
        "صبح را صرف پیدا کردن یک تست یکپارچه‌سازی ناپایدار کردم؛ مشکل از منطقه زمانی بود. | استقرار روی staging ظهر انجام شد و canary سالم به نظر می‌رسد. | باید از سارا بپرسم که خروجی صورت‌حساب‌ها یکشنبه‌ها هم اجرا می‌شود یا نه. | کار cron از سرور قدیمی به کلاستر منتقل شد. | کاربر خلاصه‌های کوتاه‌تر و فهرست‌وار می‌خواهد. | بعد از بازسازی ایندکس، تأخیر جستجو کم شد.",
        "کلید {svc} برای {env}: {v} | توکن جدید {svc} این است: {v}؛ قبلی باطل شد. | {key} = {v} | {v} را برای {svc} نگه دار، کاربر خواست یادم بماند. | {key} امروز عوض شد، مقدار فعلی {v}.",
        "جدیدش {v} است | برای {env} از {v} استفاده کن | {v} کار می‌کند، کاربر تأیید کرد",
        "{key}: {v} | برای مرجع، {key} {v} | {v} ({key}، حساس نیست)",
        "تنظیمات {svc} | مقادیر محیط {env} | بعد از مهاجرت دستی ویرایش شد | با مخزن استقرار هماهنگ نگه دارید",
        "staging | production | آزمایشی",
        "یادداشت روزانه | صورت‌جلسه | حاضران | تصمیم‌ها | اقدامات | کاربر | دستیار | خلاصه | خط زمانی | علت اصلی | مراحل | توضیحات | نظرات | درباره کاربر | چک‌لیست | دفترچه اشکال‌زدایی | نوشت | دسترسی‌ها برای انتشار | سلام | ممنون | بازبینی",
    ),
    "Hungarian": _lang(
        "Egész délelőtt egy instabil integrációs tesztet kergettem; időzóna-hiba volt. | A staging telepítés délben kiment, a canary egészségesnek tűnik. | Meg kell kérdezni Annát, hogy a számlaexport vasárnap is fut-e. | A cron feladat átköltözött a régi szerverről a klaszterbe. | A felhasználó rövidebb, felsorolásos összefoglalókat kér. | Az index újraépítése után a keresés késleltetése csökkent.",
        "{svc} kulcs a(z) {env} környezethez: {v} | Az új {svc} token: {v}; a régit visszavontuk. | {key} = {v} | Tartsd meg a(z) {v} értéket a(z) {svc} számára, a felhasználó kérte. | {key} ma rotálva, jelenlegi érték {v}.",
        "az új: {v} | {env} alatt ezt használd: {v} | {v} működik, a felhasználó megerősítette",
        "{key}: {v} | tájékoztatásul, {key} {v} | {v} ({key}, nem érzékeny)",
        "{svc} beállításai | {env} környezet értékei | kézzel szerkesztve a migráció után | tartsd szinkronban a deploy repóval",
        "staging | éles | teszt",
        "Napló | Megbeszélés jegyzetei | Résztvevők | Döntések | Teendők | Felhasználó | Asszisztens | Összefoglaló | Idővonal | Kiváltó ok | Lépések | Leírás | Megjegyzések | A felhasználóról | Ellenőrzőlista | Hibakeresési napló | írta | hozzáférések a bevezetéshez | Szia | Köszönöm | Átnézés",
    ),
}


# ---------------------------------------------------------------- rendering


def js(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def camel(k: str) -> str:
    p = k.split("_")
    return p[0] + "".join(x.title() for x in p[1:])


def pascal(k: str) -> str:
    return "".join(x.title() for x in k.split("_"))


def lab(lang: dict[str, list[str]], k: str) -> str:
    return lang[k][0]


def comment(lang: dict[str, list[str]], svc: str) -> str:
    return R.choice(lang["cmt"]).format(svc=svc, env=R.choice(lang["env"]))


def fill(lang: dict[str, list[str]]) -> str:
    return R.choice(lang["fill"])


def say(e: Entry, lang: dict[str, list[str]], wrap: bool = True) -> str:
    v = e.val
    if wrap and e.secret and not e.multi and v == e.raw and len(unmark(v)[2]) >= 44 and R.random() < 0.12:
        v = rewrap(v, R.randrange(28, 44))
    if e.multi:
        head = R.choice(lang["sec"] if e.secret else lang["look"]).format(
            svc=e.svc, key=e.key, v="", env=R.choice(lang["env"])
        )
        return head.rstrip(" :.=") + ":\n\n" + v + "\n"
    if not e.secret:
        return R.choice(lang["look"]).format(key=e.key.replace("_", " "), v=v)
    pool = lang["bare"] if R.random() < 0.35 else lang["sec"]
    return R.choice(pool).format(svc=e.svc, key=e.key, v=v, env=R.choice(lang["env"]))


def q(v: str) -> str:
    return f'"{v}"'


def cli_of(e: Entry) -> str:
    if e.cli:
        return e.cli
    v = e.val if "\n" not in e.val else e.val.replace("\n", "\\n")
    return f"export {e.key.upper()}={v}" if " " not in v else f"export {e.key.upper()}='{v}'"


def indent_block(v: str, ind: str) -> str:
    return ind + v.replace("\n", "\n" + ind)


# ---- narrative


def day() -> str:
    return f"2027-{R.randrange(1, 13):02d}-{R.randrange(1, 29):02d}"


def hhmm() -> str:
    return f"{R.randrange(7, 23):02d}:{R.randrange(60):02d}"


def r_journal(es, lang, svc):
    out = [f"# {lab(lang, 'journal')} — {svc}", ""]
    for e in es:
        out += [f"## {day()}", "", fill(lang), say(e, lang), ""]
    out.append(fill(lang))
    return "\n".join(out)


def r_quick(es, lang, svc, title):
    out = [f"# {lab(lang, title)}", "", fill(lang), ""]
    out += [f"- {say(e, lang)}" for e in es]
    return "\n".join([*out, "", fill(lang)])


def r_checklist(es, lang, svc):
    out = [f"# {lab(lang, 'checklist')}: {svc}", ""]
    for e in es:
        out.append(f"- [{R.choice('x ')}] {fill(lang)}")
        out.append(f"- [{R.choice('x ')}] {say(e, lang)}")
    return "\n".join(out)


def r_user_facts(es, lang, svc):
    out = [f"# {lab(lang, 'facts')}", "", f"- {fill(lang)}", f"- {fill(lang)}"]
    out += [f"- {say(e, lang)}" for e in es]
    return "\n".join(out)


def r_meeting(es, lang, svc):
    out = [f"# {lab(lang, 'meeting')} {day()}", "", f"**{lab(lang, 'attendees')}:** Mara, Tomasz, Li, Ana", "",
           f"## {lab(lang, 'decisions')}", "", f"- {fill(lang)}"]  # fmt: skip
    half = len(es) // 2
    out += [f"- {say(e, lang)}" for e in es[:half]]
    out += ["", f"## {lab(lang, 'actions')}", ""]
    out += [f"- [ ] @{R.choice(['mara', 'li', 'tomasz'])}: {say(e, lang)}" for e in es[half:]]
    return "\n".join(out)


def r_chat(es, lang, svc):
    out = []
    for e in es:
        out += [f"**{lab(lang, 'user')}:** {say(e, lang)}", "", f"**{lab(lang, 'assistant')}:** {fill(lang)}", ""]
    return "\n".join(out)


def r_diary(es, lang, svc):
    out = [f"# {lab(lang, 'diary')} {day()}", ""]
    for e in es:
        out.append(f"{hhmm()} {fill(lang)}")
        if e.hdr and R.random() < 0.6:
            out += ["```", f"> GET /v1/{R.choice(['orders', 'me', 'events'])} HTTP/1.1", "> Host: api.internal", f"> {e.hdr}",
                    f"< HTTP/1.1 {R.choice(['401', '200', '403'])}", "```"]  # fmt: skip
        else:
            out.append(f"{hhmm()} {say(e, lang)}")
    return "\n".join(out)


def r_postmortem(es, lang, svc):
    out = [
        f"# Post-mortem: {svc} {day()}",
        "",
        f"## {lab(lang, 'summary')}",
        "",
        fill(lang),
        "",
        f"## {lab(lang, 'timeline')}",
        "",
    ]
    out += [f"- {hhmm()} UTC — {say(e, lang)}" for e in es]
    out += ["", f"## {lab(lang, 'cause')}", "", fill(lang)]
    return "\n".join(out)


def r_runbook(es, lang, svc):
    out = [f"# Runbook: {svc}", "", fill(lang), "", f"## {lab(lang, 'steps')}", ""]
    for i, e in enumerate(es, 1):
        if e.multi:
            out.append(f"{i}. {say(e, lang)}")
        else:
            out += [f"{i}. {fill(lang)}", "   ```sh", f"   {cli_of(e)}", "   ```"]
    return "\n".join(out)


def r_ticket(es, lang, svc):
    n = R.randrange(100, 9999)
    out = [
        f"# OPS-{n}: {svc}",
        "",
        f"**{lab(lang, 'description')}:** {fill(lang)}",
        "",
        f"## {lab(lang, 'comments')}",
        "",
    ]
    for e in es:
        out += [f"**{R.choice(['mara', 'li.wen', 'tkowalski'])}** ({day()}): {say(e, lang)}", ""]
    return "\n".join(out)


def r_wiki(es, lang, svc):
    out = [f"# {svc}", "", fill(lang), "", "| name | value |", "| --- | --- |"]
    for e in es:
        if e.multi:
            out += ["", say(e, lang), "", "| name | value |", "| --- | --- |"]
        else:
            out.append(f"| `{e.key}` | `{e.val}` |")
    return "\n".join([*out, "", fill(lang)])


def r_terminal(es, lang, svc):
    out = [f"$ cd ~/src/{svc.lower().replace(' ', '-')}"]
    for e in es:
        if e.multi:
            out += [f"$ cat {R.choice(['key.pem', 'secrets/id', 'creds.txt'])}", e.val]
        elif R.random() < 0.5:
            out += [f"$ {cli_of(e)}", R.choice(["OK", "done", "200", ""])]
        else:
            out += [f"$ grep -i {e.key.split('_')[0]} .env", f"{e.key.upper()}={e.val}"]
    out.append("$ ")
    return "\n".join(x for x in out if x)


def r_history(es, lang, svc):
    n = R.randrange(200, 1800)
    out = []
    for e in es:
        for cmd in [R.choice(["git status", "ls -la", "make test", "kubectl get pods -n apps"]), cli_of(e)]:
            out.append(f"{n:5d}  {cmd}")
            n += 1
    return "\n".join(out)


def r_ci_log(es, lang, svc):
    out = []
    for e in es:
        t = f"2027-03-{R.randrange(1, 29):02d}T{R.randrange(24):02d}:{R.randrange(60):02d}:{R.randrange(60):02d}.{R.randrange(1000):03d}Z"
        out += [
            f"{t} ##[group]Run ./ci/deploy.sh",
            f"{t} + {cli_of(e)}",
            f"{t} {R.choice(['ok', 'Uploading...', 'exit 0'])}",
        ]
    return "\n".join(out)


def r_stack(es, lang, svc):
    out = ["Traceback (most recent call last):", '  File "/app/worker/sync.py", line 88, in run', "    resp = client.push(batch)",
           "  Locals:"]  # fmt: skip
    for e in es:
        out.append(f"    {e.key} = '{e.val.replace(chr(10), chr(92) + 'n')}'")
    out.append(f"{R.choice(['ConnectionError', 'PermissionError', 'TimeoutError'])}: upstream refused the request")
    return "\n".join(out)


def r_email(es, lang, svc):
    half = max(1, len(es) // 2)
    body = (
        [f"{lab(lang, 'hi')} Mara,", "", fill(lang)]
        + [say(e, lang, wrap=True) for e in es[:half]]
        + ["", lab(lang, "thanks"), "Tomasz", ""]
    )
    quoted = [fill(lang), *[say(e, lang) for e in es[half:]], "", "Mara"]
    qtext = "\n".join(quoted)
    qtext = "> " + qtext.replace("\n", "\n> ")
    head = [
        "From: Tomasz <tomasz@acme.io>",
        "To: Mara <mara@acme.io>",
        f"Subject: Re: {lab(lang, 'subject')}",
        f"Date: {day()}",
        "",
    ]
    return "\n".join([*head, *body, f"On {day()} Mara <mara@acme.io> {lab(lang, 'wrote')}:", qtext])


def code_line(e: Entry) -> str:
    if e.multi:
        return f'{e.key.upper()} = """{e.val}"""'
    return R.choice([f'{e.key.upper()} = "{e.val}"', f"{e.key.upper()}={e.val}", f"  {e.key}: {e.val}"])


def r_review(es, lang, svc):
    out = [f"## {lab(lang, 'review')} PR #{R.randrange(100, 4000)}", "", fill(lang), "", "```diff",
           f"@@ -{R.randrange(1, 80)},6 +{R.randrange(1, 80)},{len(es) + 6} @@", " import os", "-API_TIMEOUT = 10", "+API_TIMEOUT = 30"]  # fmt: skip
    for e in es:
        out.append("+" + code_line(e).replace("\n", "\n+"))
    out += [" ", "```", "", fill(lang)]
    return "\n".join(out)


def r_slack(es, lang, svc):
    msgs = [
        {
            "type": "message",
            "user": gen("U0{u9}"),
            "text": fill(lang),
            "ts": f"{1_790_000_000 + R.randrange(10**7)}.{gen('{d6}')}",
        }
    ]
    for e in es:
        msgs.append(
            {
                "type": "message",
                "user": gen("U0{u9}"),
                "text": say(e, lang),
                "ts": f"{1_790_000_000 + R.randrange(10**7)}.{gen('{d6}')}",
            }
        )
    return json.dumps(msgs, ensure_ascii=False, indent=2)


def r_jupyter(es, lang, svc):
    src = "import os\n" + "\n".join(
        f'os.environ["{e.key.upper()}"] = """{e.val}"""' if e.multi else f'os.environ["{e.key.upper()}"] = "{e.val}"'
        for e in es
    )
    nb = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": "# " + comment(lang, svc)},
                    {"cell_type": "code", "execution_count": R.randrange(1, 40), "metadata": {}, "outputs": [], "source": src}],
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}}, "nbformat": 4, "nbformat_minor": 5}  # fmt: skip
    return json.dumps(nb, ensure_ascii=False, indent=1)


# ---- structured files


def r_json(es, lang, svc):
    items = [f"    {js(R.choice([e.key, camel(e.key)]))}: {js(e.val)}" for e in es]
    return (
        "{\n"
        + f'  "_note": {js(comment(lang, svc))},\n  "service": {js(svc)},\n  "settings": {{\n'
        + ",\n".join(items)
        + "\n  }\n}\n"
    )


def yv(e: Entry, ind: str) -> str:
    if "\n" in e.val:
        return "|\n" + indent_block(e.val, ind)
    return R.choice([e.val, q(e.val)]) if "'" not in e.val and '"' not in e.val else e.val


def r_yaml(es, lang, svc):
    out = [f"# {comment(lang, svc)}", f"{svc.lower().replace(' ', '_')}:"]
    out += [f"  {e.key}: {yv(e, '    ')}" for e in es]
    return "\n".join(out) + "\n"


def tv(e: Entry) -> str:
    return f"'''\n{e.val}'''" if "\n" in e.val else js(e.val)


def r_toml(es, lang, svc):
    return (
        "\n".join(
            [f"# {comment(lang, svc)}", f"[{svc.lower().replace(' ', '_')}]", *[f"{e.key} = {tv(e)}" for e in es]]
        )
        + "\n"
    )


def r_ini(es, lang, svc):
    out = [f"; {comment(lang, svc)}", f"[{svc.lower().replace(' ', '-')}]"]
    out += [f"{e.key} = " + ("\n" + indent_block(e.val, "    ") if "\n" in e.val else e.val) for e in es]
    return "\n".join(out) + "\n"


def r_env(es, lang, svc):
    out = [f"# {comment(lang, svc)}"]
    for e in es:
        v = f'"{e.val}"' if "\n" in e.val or " " in e.val or R.random() < 0.3 else e.val
        out.append(f"{e.key.upper()}={v}")
    return "\n".join(out) + "\n"


def xesc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def r_xml(es, lang, svc):
    out = [
        '<?xml version="1.0" encoding="utf-8"?>',
        "<configuration>",
        f"  <!-- {comment(lang, svc)} -->",
        "  <appSettings>",
    ]
    for e in es:
        if "\n" in e.val:
            out.append(f"    <{pascal(e.key)}>{xesc(e.val)}</{pascal(e.key)}>")
        else:
            out.append(f'    <add key="{pascal(e.key)}" value="{xesc(e.val)}" />')
    return "\n".join([*out, "  </appSettings>", "</configuration>"]) + "\n"


def r_hcl(es, lang, svc):
    out = [f"# {comment(lang, svc)}", 'resource "vault_kv_secret_v2" "app" {', '  mount = "kv"', f'  name  = "{svc.lower().replace(" ", "-")}"',
           "  data_json = jsonencode({"]  # fmt: skip
    for e in es:
        out.append(f"    {e.key} = " + (f"<<-EOT\n{e.val}\n    EOT" if "\n" in e.val else js(e.val)))
    return "\n".join([*out, "  })", "}"]) + "\n"


def r_properties(es, lang, svc):
    out = [f"# {comment(lang, svc)}"]
    out += [
        f"{svc.lower().replace(' ', '')}.{e.key.replace('_', '-')}={e.val.replace(chr(10), chr(92) + 'n')}" for e in es
    ]
    return "\n".join(out) + "\n"


def csv_field(s: str) -> str:
    return '"' + s.replace('"', '""') + '"' if any(c in s for c in ',"\n') else s


def r_csv(es, lang, svc):
    out = ["service,name,value,owner,notes"]
    out += [
        ",".join(
            [
                csv_field(e.svc or "-"),
                e.key,
                csv_field(e.val),
                R.choice(["mara", "ops", "li"]),
                csv_field(comment(lang, svc)),
            ]
        )
        for e in es
    ]
    return "\n".join(out) + "\n"


def r_tsv(es, lang, svc):
    out = ["name\tvalue\tnotes"]
    out += [f"{e.key}\t{e.val.replace(chr(10), chr(92) + 'n')}\t{comment(lang, svc)}" for e in es]
    return "\n".join(out) + "\n"


def r_compose(es, lang, svc):
    out = [f"# {comment(lang, svc)}", "services:", "  api:", "    image: ghcr.io/acme/api:1.14.2", "    environment:"]
    out += [f"      {e.key.upper()}: {yv(e, '        ')}" for e in es]
    return "\n".join([*out, "    ports:", '      - "8080:8080"']) + "\n"


def r_k8s(es, lang, svc):
    out = ["apiVersion: v1", "kind: Secret", "metadata:", f"  name: {svc.lower().replace(' ', '-')}-creds",
           f"  annotations:\n    note: {js(comment(lang, svc))}", "type: Opaque", "stringData:"]  # fmt: skip
    out += [f"  {e.key.replace('_', '-')}: {yv(e, '    ')}" for e in es]
    return "\n".join(out) + "\n"


def r_helm(es, lang, svc):
    out = [
        f"# {comment(lang, svc)}",
        "replicaCount: 2",
        "image:",
        "  tag: 3.2.0",
        f"{camel(svc.lower().replace(' ', '_'))}:",
        "  auth:",
    ]
    out += [f"    {camel(e.key)}: {yv(e, '      ')}" for e in es]
    return "\n".join(out) + "\n"


def r_gha(es, lang, svc):
    out = [f"# {comment(lang, svc)}", "name: deploy", "on:", "  push:", "    branches: [main]", "env:"]
    runs = []
    for e in es:
        if e.cli and not e.multi and R.random() < 0.5:
            runs.append(e.cli)
        else:
            out.append(f"  {e.key.upper()}: {yv(e, '    ')}")
    out += [
        "jobs:",
        "  deploy:",
        "    runs-on: ubuntu-latest",
        "    steps:",
        "      - uses: actions/checkout@v4",
        "      - run: |",
    ]
    out += [f"          {r}" for r in [*runs, "make deploy"]]
    return "\n".join(out) + "\n"


def r_gitlab(es, lang, svc):
    out = [f"# {comment(lang, svc)}", "variables:"]
    runs = []
    for e in es:
        if e.cli and not e.multi and R.random() < 0.5:
            runs.append(e.cli)
        else:
            out.append(f"  {e.key.upper()}: {yv(e, '    ')}")
    out += ["deploy:", "  stage: deploy", "  script:"] + [
        f"    - {js(r)}" if ": " in r else f"    - {r}" for r in [*runs, "make release"]
    ]
    return "\n".join(out) + "\n"


def r_nginx(es, lang, svc):
    out = [f"# {comment(lang, svc)}", "server {", "    listen 443 ssl;", "    server_name api.acme.io;", "    location / {",
           "        proxy_pass http://127.0.0.1:8080;"]  # fmt: skip
    for e in es:
        if e.hdr:
            name, rest = e.hdr.split(": ", 1)
            out.append(f'        proxy_set_header {name} "{rest}";')
        else:
            out.append(f'        fastcgi_param {e.key.upper()} "{e.val}";')
    return "\n".join([*out, "    }", "}"]) + "\n"


def r_apache(es, lang, svc):
    out = [f"# {comment(lang, svc)}", "<VirtualHost *:443>", "    ServerName intranet.acme.io"]
    for e in es:
        if e.hdr:
            name, rest = e.hdr.split(": ", 1)
            out.append(f'    RequestHeader set {name} "{rest}"')
        else:
            out.append(f'    SetEnv {e.key.upper()} "{e.val}"')
    return "\n".join([*out, "</VirtualHost>"]) + "\n"


def r_caddy(es, lang, svc):
    out = [f"# {comment(lang, svc)}", "api.acme.io {"]
    hdrs = [e for e in es if e.hdr]
    out += [f'    vars {e.key} "{e.val}"' for e in es if not e.hdr]
    out.append("    reverse_proxy 127.0.0.1:9000 {")
    for e in hdrs:
        name, rest = e.hdr.split(": ", 1)
        out.append(f'        header_up {name} "{rest}"')
    return "\n".join([*out, "    }", "}"]) + "\n"


def r_systemd(es, lang, svc):
    out = ["[Unit]", f"Description={comment(lang, svc)}", "After=network-online.target", "", "[Service]", "User=app"]
    out += [f'Environment="{e.key.upper()}={e.val}"' for e in es]
    return (
        "\n".join(
            [*out, "ExecStart=/opt/app/bin/server", "Restart=on-failure", "", "[Install]", "WantedBy=multi-user.target"]
        )
        + "\n"
    )


def r_ansible(es, lang, svc):
    out = [
        f"# {comment(lang, svc)}",
        "all:",
        "  children:",
        "    web:",
        "      hosts:",
        "        web-01.acme.internal:",
        "        web-02.acme.internal:",
        "      vars:",
    ]
    out += [f"        {e.key}: {yv(e, '          ')}" for e in es]
    return "\n".join(out) + "\n"


# ---- dotfiles with their own syntax (npmrc, pypirc, netrc, pgpass, my.cnf, git-credentials)

REG = {"npm_token": "registry.npmjs.org/", "github_pat_classic": "npm.pkg.github.com/", "github_fine_grained_pat": "npm.pkg.github.com/",
       "gitlab_token": "gitlab.com/api/v4/projects/4211/packages/npm/", "jfrog_token": "acme.jfrog.io/artifactory/api/npm/npm-virtual/"}  # fmt: skip
HOSTOF = {"heroku_api_key": "api.heroku.com", "github_pat_classic": "github.com", "github_fine_grained_pat": "github.com", "github_app_token": "github.com",
          "gitlab_token": "gitlab.com", "bitbucket_app_password": "bitbucket.org", "generic_password": "files.acme.io", "jfrog_token": "acme.jfrog.io",
          "azure_devops_pat": "dev.azure.com"}  # fmt: skip


def _notes(es, c):
    return [f"{c} {e.key}: {e.val}" for e in es if not e.secret]


def r_npmrc(es, lang, svc):
    out = [f"; {comment(lang, 'npm')}", "@acme:registry=https://npm.pkg.github.com/"]
    out += [f"//{REG[e.kind]}:_authToken={e.raw}" for e in es if e.secret]
    return "\n".join([*out, *_notes(es, ";"), "always-auth=true"]) + "\n"


def r_pypirc(es, lang, svc):
    out = [f"# {comment(lang, 'PyPI')}", "[distutils]", "index-servers =", "    pypi", "    internal"]
    for i, e in enumerate(x for x in es if x.secret):
        name = "pypi" if i == 0 else f"internal{i}"
        user = "__token__" if e.kind in {"pypi_token", "gitlab_token"} else "deploy"
        url = "https://upload.pypi.org/legacy/" if i == 0 else "https://pypi.acme.io/simple/"
        out += ["", f"[{name}]", f"repository = {url}", f"username = {user}", f"password = {e.raw}"]
    return "\n".join([*out, *_notes(es, "#")]) + "\n"


def r_netrc(es, lang, svc):
    out = [
        f"machine {HOSTOF.get(e.kind, 'api.acme.io')} login {R.choice(['mara', 'ci-bot', 'deploy'])} password {e.raw}"
        for e in es
        if e.secret
    ]
    return "\n".join([f"# {comment(lang, svc)}", *out, *_notes(es, "#")]) + "\n"


def r_pgpass(es, lang, svc):
    out = [f"{R.choice(HOSTS)}:5432:{R.choice(DBS)}:{R.choice(USERS)}:{e.raw}" for e in es if e.secret]
    return "\n".join([f"# {comment(lang, 'PostgreSQL')}", *out, *_notes(es, "#")]) + "\n"


def r_mycnf(es, lang, svc):
    out = [f"# {comment(lang, 'MySQL')}", "[client]", f"user={R.choice(USERS)}", f"host={R.choice(HOSTS)}"]
    out += [f"password={e.raw}" for e in es if e.secret]
    return "\n".join([*out, *_notes(es, "#"), "ssl-mode=REQUIRED"]) + "\n"


def r_gitcred(es, lang, svc):
    out = [
        f"https://{R.choice(['mara', 'x-access-token', 'oauth2', 'ci-bot'])}:{e.raw}@{HOSTOF.get(e.kind, 'git.acme.io')}"
        for e in es
        if e.secret
    ]
    return "\n".join([*out, *_notes(es, "#")]) + "\n"


# ---- code


def cv(e: Entry, multi_fmt: str, single: str = '"{v}"') -> str:
    return multi_fmt.replace("{v}", e.val) if "\n" in e.val else single.replace("{v}", e.val)


def r_python(es, lang, svc):
    out = [f'"""{comment(lang, svc)}"""', "", "import os", ""]
    for e in es:
        v = cv(e, '"""{v}"""')
        out.append(R.choice([f"{e.key.upper()} = {v}", f"client = Client({e.key}={v}, timeout=30)"]))
    return "\n".join(out) + "\n"


def r_js(es, lang, svc, ts=False):
    out = [f"// {comment(lang, svc)}"]
    ann = ": string" if ts else ""
    for e in es:
        v = cv(e, "`{v}`")
        out.append(
            R.choice(
                [f"export const {camel(e.key)}{ann} = {v};", f"const client = new Client({{ {camel(e.key)}: {v} }});"]
            )
        )
    return "\n".join(out) + "\n"


def r_go(es, lang, svc):
    out = ["package config", "", f"// {comment(lang, svc)}", "const ("]
    out += [f"\t{pascal(e.key)} = {cv(e, '`{v}`')}" for e in es]
    return "\n".join([*out, ")"]) + "\n"


def r_java(es, lang, svc):
    out = ["package io.acme.config;", "", f"/** {comment(lang, svc)} */", "public final class Credentials {"]
    out += [
        f"    static final String {e.key.upper()} = {cv(e, chr(34) * 3 + chr(10) + '{v}' + chr(34) * 3)};" for e in es
    ]
    return "\n".join([*out, "}"]) + "\n"


def r_kotlin(es, lang, svc):
    out = ["package io.acme.config", "", f"// {comment(lang, svc)}", "object Credentials {"]
    out += [f"    const val {e.key.upper()} = {cv(e, chr(34) * 3 + '{v}' + chr(34) * 3)}" for e in es]
    return "\n".join([*out, "}"]) + "\n"


def r_ruby(es, lang, svc):
    out = [f"# {comment(lang, svc)}", "module Acme", "  module Credentials"]
    for e in es:
        out.append(
            f"    {e.key.upper()} = <<~TEXT\n{e.val}\nTEXT" if "\n" in e.val else f'    {e.key.upper()} = "{e.val}"'
        )
    return "\n".join([*out, "  end", "end"]) + "\n"


def r_php(es, lang, svc):
    out = ["<?php", f"// {comment(lang, svc)}", "return ["]
    out += [f"    '{e.key}' => '{e.val}'," for e in es]
    return "\n".join([*out, "];"]) + "\n"


def r_rust(es, lang, svc):
    out = [f"// {comment(lang, svc)}"]
    out += [f"pub const {e.key.upper()}: &str = {cv(e, 'r#' + chr(34) + '{v}' + chr(34) + '#')};" for e in es]
    return "\n".join(out) + "\n"


def r_csharp(es, lang, svc):
    out = ["namespace Acme.Config;", "", f"// {comment(lang, svc)}", "public static class Credentials", "{"]
    for e in es:
        v = '@"' + e.val.replace('"', '""') + '"' if "\n" in e.val else f'"{e.val}"'
        out.append(f"    public const string {pascal(e.key)} = {v};")
    return "\n".join([*out, "}"]) + "\n"


def r_swift(es, lang, svc):
    out = [f"// {comment(lang, svc)}", "enum Credentials {"]
    out += [
        f"    static let {camel(e.key)} = {cv(e, chr(34) * 3 + chr(10) + '{v}' + chr(10) + chr(34) * 3)}" for e in es
    ]
    return "\n".join([*out, "}"]) + "\n"


def r_shell(es, lang, svc):
    out = ["#!/usr/bin/env bash", f"# {comment(lang, svc)}", "set -euo pipefail"]
    for e in es:
        if "\n" in e.val:
            out.append(f"cat > /tmp/{e.key}.txt <<'EOF'\n{e.val}\nEOF")
        else:
            out.append(cli_of(e) if R.random() < 0.6 else f'export {e.key.upper()}="{e.val}"')
    return "\n".join(out) + "\n"


def r_powershell(es, lang, svc):
    out = [f"# {comment(lang, svc)}"]
    for e in es:
        out.append(f"$env:{e.key.upper()} = @'\n{e.val}\n'@" if "\n" in e.val else f"$env:{e.key.upper()} = '{e.val}'")
    return "\n".join([*out, "& ./deploy.ps1 -Environment prod"]) + "\n"


def r_sql(es, lang, svc):
    out = [f"-- {comment(lang, svc)}"]
    for e in es:
        if e.sql:
            out.append(e.sql)
        else:
            out.append(
                f"INSERT INTO integration_settings (provider, name, value) VALUES ('{e.svc or 'app'}', '{e.key}', '{e.val}');"  # noqa: S608 -- SQL text is corpus content, never executed
            )
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- contexts

NARRATIVE = {
    "journal": (r_journal, "project journal with dated entries"),
    "terminal": (r_terminal, "pasted terminal session"),
    "shell_history": (r_history, "numbered shell history"),
    "chat": (r_chat, "user / assistant transcript"),
    "meeting_notes": (r_meeting, "meeting notes with decisions and action items"),
    "checklist": (r_checklist, "checklist with ticked items"),
    "user_facts": (r_user_facts, "notes about the user"),
    "debug_diary": (r_diary, "debugging diary with times and HTTP excerpts"),
    "postmortem": (r_postmortem, "incident post-mortem with timeline"),
    "ci_log": (r_ci_log, "CI log with timestamps and `set -x` trace"),
    "stack_trace": (r_stack, "traceback with frame locals"),
    "email": (r_email, "email with headers and a quoted reply"),
    "ticket": (r_ticket, "issue ticket with comments"),
    "code_review": (r_review, "review comment with a diff hunk"),
    "runbook": (r_runbook, "numbered runbook steps with commands"),
    "wiki": (r_wiki, "wiki page with a settings table"),
    "quick_note": (lambda es, lang, svc: r_quick(es, lang, svc, "summary"), "short scratch note"),
    "slack_export": (r_slack, "Slack export (JSON messages)"),
    "jupyter": (r_jupyter, "Jupyter notebook (`.ipynb` JSON)"),
}
STRUCTURED = {
    "json": (r_json, "JSON config with a `_note` key"),
    "yaml": (r_yaml, "YAML config"),
    "toml": (r_toml, "TOML config"),
    "ini": (r_ini, "INI config"),
    "env": (r_env, "`.env` file"),
    "xml": (r_xml, "`app.config` style XML"),
    "hcl": (r_hcl, "Terraform / HCL"),
    "properties": (r_properties, "Java `.properties`"),
    "csv": (r_csv, "credential inventory CSV"),
    "tsv": (r_tsv, "TSV export"),
    "docker_compose": (r_compose, "Compose file"),
    "kubernetes": (r_k8s, "Kubernetes Secret manifest"),
    "helm_values": (r_helm, "Helm `values.yaml`"),
    "github_actions": (r_gha, "GitHub Actions workflow"),
    "gitlab_ci": (r_gitlab, "`.gitlab-ci.yml`"),
    "nginx": (r_nginx, "nginx server block"),
    "apache": (r_apache, "Apache virtual host"),
    "caddy": (r_caddy, "Caddyfile"),
    "systemd": (r_systemd, "systemd unit with `Environment=` lines"),
    "ansible_inventory": (r_ansible, "Ansible YAML inventory"),
    "npmrc": (r_npmrc, "`.npmrc`"),
    "pypirc": (r_pypirc, "`.pypirc`"),
    "netrc": (r_netrc, "`.netrc`"),
    "pgpass": (r_pgpass, "`.pgpass`"),
    "mycnf": (r_mycnf, "`my.cnf`"),
    "git_credentials": (r_gitcred, "`.git-credentials`"),
}
CODE = {
    "python": (r_python, "Python module"),
    "javascript": (r_js, "JavaScript module"),
    "typescript": (lambda es, lang, svc: r_js(es, lang, svc, ts=True), "TypeScript module"),
    "go": (r_go, "Go constants"),
    "java": (r_java, "Java class"),
    "kotlin": (r_kotlin, "Kotlin object"),
    "ruby": (r_ruby, "Ruby module"),
    "php": (r_php, "PHP config array"),
    "rust": (r_rust, "Rust constants"),
    "csharp": (r_csharp, "C# class"),
    "swift": (r_swift, "Swift enum"),
    "shell": (r_shell, "bash script"),
    "powershell": (r_powershell, "PowerShell script"),
    "sql": (r_sql, "SQL migration"),
}
CONTEXTS = {**NARRATIVE, **STRUCTURED, **CODE}
SPECIAL = {"npmrc", "pypirc", "netrc", "pgpass", "mycnf", "git_credentials"}
NO_MULTI = {"shell_history", "ci_log", "nginx", "apache", "caddy", "systemd", *SPECIAL}
UNWRAPPED = {"slack_export", "jupyter", "shell_history", "terminal", "ci_log", "stack_trace"}
LANG_WEIGHTS = [("English", 56)] + [(n, 4.4) for n in LANGS if n != "English"]
SERVICES = ["billing", "search", "payments", "ingest", "notifications", "reporting", "auth gateway", "data pipeline"]

# kinds named in v6's README table (to mark which of ours are new)
V6_KINDS = frozenset(
    [
        "adobe_client_secret",
        "age_secret_key",
        "airtable_pat",
        "algolia_admin_key",
        "alibaba_access_key_id",
        "alibaba_access_key_secret",
        "amqp_password",
        "anthropic_admin_key",
        "anthropic_api_key",
        "app_secret_key",
        "asana_pat",
        "atlassian_api_token",
        "aws_access_key_id",
        "aws_secret_access_key",
        "aws_session_token",
        "axiom_token",
        "azure_ad_client_secret",
        "azure_devops_pat",
        "azure_sas_signature",
        "azure_storage_account_key",
        "bearer_token",
        "bitbucket_app_password",
        "braintree_access_token",
        "brevo_api_key",
        "buildkite_token",
        "circleci_token",
        "clickup_pat",
        "clojars_token",
        "cloudflare_api_token",
        "cloudflare_global_api_key",
        "cloudflare_origin_ca_key",
        "cohere_api_key",
        "contentful_pat",
        "cratesio_token",
        "databricks_token",
        "datadog_api_key",
        "datadog_app_key",
        "deepseek_api_key",
        "digitalocean_token",
        "discord_bot_token",
        "discord_webhook_url",
        "dockerhub_pat",
        "doppler_token",
        "dropbox_access_token",
        "duffel_api_token",
        "dynatrace_token",
        "easypost_api_key",
        "ec_private_key",
        "ed25519_private_key",
        "elevenlabs_api_key",
        "encryption_key",
        "figma_pat",
        "flutterwave_secret_key",
        "flyio_token",
        "frameio_token",
        "gcp_service_account_key",
        "generic_api_key",
        "generic_password",
        "github_app_token",
        "github_fine_grained_pat",
        "github_pat_classic",
        "gitlab_runner_token",
        "gitlab_token",
        "google_api_key",
        "google_chat_webhook_url",
        "grafana_cloud_token",
        "grafana_service_account_token",
        "groq_api_key",
        "harness_pat",
        "heroku_api_key",
        "hetzner_cloud_token",
        "honeycomb_api_key",
        "http_basic_auth",
        "hubspot_private_app_token",
        "huggingface_token",
        "ibm_cloud_api_key",
        "intercom_access_token",
        "jenkins_api_token",
        "jfrog_token",
        "jwt",
        "kube_client_key_data",
        "langsmith_api_key",
        "launchdarkly_key",
        "linear_api_key",
        "mailchimp_api_key",
        "mailgun_api_key",
        "mapbox_secret_token",
        "mistral_api_key",
        "mixpanel_api_secret",
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
        "octopus_deploy_api_key",
        "okta_api_token",
        "onepassword_account_secret_key",
        "onepassword_service_token",
        "openai_api_key",
        "openrouter_api_key",
        "openssh_private_key",
        "opsgenie_api_key",
        "pagerduty_api_token",
        "paypal_client_secret",
        "paystack_secret_key",
        "perplexity_api_key",
        "pgp_private_key",
        "pinecone_api_key",
        "plaid_secret",
        "planetscale_token",
        "postgres_password",
        "posthog_personal_api_key",
        "postman_api_key",
        "postmark_server_token",
        "prefect_api_key",
        "pulumi_access_token",
        "putty_private_key",
        "pypi_token",
        "razorpay_key_secret",
        "readme_api_key",
        "redis_password",
        "render_api_key",
        "replicate_api_token",
        "rollbar_access_token",
        "rsa_private_key",
        "rubygems_api_key",
        "scalingo_api_token",
        "sendgrid_api_key",
        "sentry_auth_token",
        "session_cookie",
        "shippo_api_token",
        "shopify_access_token",
        "slack_app_token",
        "slack_bot_token",
        "slack_user_token",
        "slack_webhook_url",
        "smtp_password",
        "snyk_token",
        "sonarqube_token",
        "splunk_hec_token",
        "square_access_token",
        "stripe_restricted_key",
        "stripe_secret_key",
        "stripe_webhook_secret",
        "sumologic_access_key",
        "supabase_access_token",
        "telegram_bot_token",
        "tencent_secret_id",
        "tencent_secret_key",
        "terraform_cloud_token",
        "totp_seed",
        "twilio_auth_token",
        "typeform_pat",
        "url_credential_password",
        "vault_token",
        "vercel_token",
        "wandb_api_key",
        "webhook_signing_secret",
        "wireguard_private_key",
        "xai_api_key",
        "yandex_api_key",
        "zendesk_api_token",
    ]
)


@dataclass
class Doc:
    ctx: str
    lang: str
    secret: bool
    tb: float
    items: list[str] = field(default_factory=list)
    looks: list[str] = field(default_factory=list)


def plan() -> list[Doc]:
    names = list(CONTEXTS)
    langs, weights = zip(*LANG_WEIGHTS, strict=True)
    docs = []
    per_ctx: Counter[str] = Counter()
    for i in range(N_DOCS):
        ctx = names[i % len(names)]
        docs.append(Doc(ctx, R.choices(langs, weights)[0], per_ctx[ctx] % 2 == 0, R.random()))
        per_ctx[ctx] += 1
    R.shuffle(docs)
    sdocs = [d for d in docs if d.secret]
    primaries = [k for k, s in SPECS.items() if "companion" not in s.special]
    for d in sdocs:
        if d.ctx in SPECIAL:
            allowed = [k for k in primaries if d.ctx in SPECS[k].special]
            d.items.append(R.choice(allowed))
    for kind in primaries:
        spec = SPECS[kind]
        used: Counter[str] = Counter(d.ctx for d in sdocs if kind in d.items)
        have = sum(v for c, v in used.items() if c not in SPECIAL)
        while have < PER_KIND:
            cands = [d for d in sdocs if d.ctx not in SPECIAL and len(d.items) < 7 and kind not in d.items
                     and not (spec.multi and d.ctx in NO_MULTI)]  # fmt: skip
            best = min(cands, key=lambda d: (used[d.ctx], len(d.items), d.tb))
            best.items.append(kind)
            used[best.ctx] += 1
            have += 1
    for kind, spec in LOOKS.items():
        used = Counter()
        for _ in range(PER_LOOK):
            cands = [d for d in docs if not (spec.multi and d.ctx in NO_MULTI) and kind not in d.looks]
            best = min(cands, key=lambda d: (len(d.looks) + (1 if d.secret else 0), used[d.ctx], d.tb))
            best.looks.append(kind)
            used[best.ctx] += 1
    return docs


def strip(text: str) -> tuple[str, list[tuple[str, str, str, int, int]]]:
    out: list[str] = []
    labels = []
    n = i = 0
    while True:
        j = text.find(S0, i)
        if j < 0:
            out.append(text[i:])
            break
        out.append(text[i:j])
        n += j - i
        k = text.index(S1, j)
        e = text.index(S2, k)
        flag, kind, value = text[j + 1], text[j + 2 : k], text[k + 1 : e]
        if S0 in value or S1 in value:
            raise ValueError("nested marker")
        labels.append((flag, kind, value, n, n + len(value)))
        out.append(value)
        n += len(value)
        i = e + 1
    clean = "".join(out)
    if any(c in clean for c in (S0, S1, S2)):
        raise ValueError("stray marker")
    return clean, labels


def occurrences(text: str, value: str) -> int:
    count, i = 0, text.find(value)
    while i >= 0:
        count += 1
        i = text.find(value, i + 1)
    return count


def recurs(clean: str, labels: list[tuple[str, str, str, int, int]]) -> bool:
    values = Counter(v for _f, _k, v, _s, _e in labels)
    return any(occurrences(clean, v) != values[v] for f, _k, v, _s, _e in labels if f == "s")


def wrap_record(text: str, ctx: str) -> str:
    r = R.random()
    slug = f"{ctx.replace('_', '-')}-{R.randrange(1000, 9999)}"
    if r < 1 / 7:
        rec = {"path": f"/memories/{slug}.md", "kind": ctx, "updated": ts_iso(), "content": text}
        return json.dumps(rec, ensure_ascii=False, indent=2)
    if r < 1 / 7 + 1 / 10:
        return f"path: /memories/{slug}.md\nkind: {ctx}\nupdated: {ts_iso()}\ncontent: |\n" + indent_block(text, "  ")
    if r < 1 / 7 + 1 / 10 + 1 / 6:
        return f"---\ntitle: {slug}\ntags: [{ctx}, memory]\nupdated: {ts_iso()}\n---\n\n" + text
    return text


def render(d: Doc, n: int) -> dict[str, object]:
    fn = CONTEXTS[d.ctx][0]
    for _attempt in range(40):
        groups = [SPECS[k].make() for k in d.items] + [LOOKS[k].make() for k in d.looks]
        R.shuffle(groups)
        entries = [e for g in groups for e in g]
        seen: Counter[str] = Counter()
        for e in entries:
            seen[e.key] += 1
            if seen[e.key] > 1:
                e.key = f"{e.key}_{seen[e.key]}"
        svc = next((e.svc for e in entries if e.secret and e.svc), R.choice(SERVICES))
        text = fn(entries, LANGS[d.lang], svc)
        if d.ctx in NARRATIVE and d.ctx not in UNWRAPPED:
            text = wrap_record(text, d.ctx)
        clean, labels = strip(text)
        if recurs(clean, labels):
            continue
        secrets = [{"kind": k, "value": v, "start": s, "end": e} for f, k, v, s, e in labels if f == "s"]
        looks = [{"kind": k, "value": v, "start": s, "end": e} for f, k, v, s, e in labels if f == "l"]
        return {
            "id": f"blind7-{n:04d}",
            "context": d.ctx,
            "text": clean,
            "secrets": secrets,
            "lookalikes": looks,
            "_lang": d.lang,
        }
    raise RuntimeError(f"document {n} ({d.ctx}) kept repeating a secret")


# ---------------------------------------------------------------- checks, README, main


def verify(records: list[dict]) -> dict[str, object]:  # noqa: PLR0912 -- one flat list of checks reads best
    ids = [r["id"] for r in records]
    if len(set(ids)) != len(ids):
        raise ValueError("duplicate ids")
    kinds: dict[str, Counter[str]] = defaultdict(Counter)
    lkinds: dict[str, Counter[str]] = defaultdict(Counter)
    for r in records:
        text = r["text"]
        spans = []
        for name in ("secrets", "lookalikes"):
            lst = r[name]
            if [x["start"] for x in lst] != sorted(x["start"] for x in lst):
                raise ValueError(f"{r['id']}: {name} not sorted")
            for x in lst:
                if text[x["start"] : x["end"]] != x["value"] or not x["value"]:
                    raise ValueError(f"{r['id']}: span does not slice its value")
                spans.append((x["start"], x["end"]))
                (kinds if name == "secrets" else lkinds)[x["kind"]][r["context"]] += 1
        spans.sort()
        if any(a[1] > b[0] for a, b in itertools.pairwise(spans)):
            raise ValueError(f"{r['id']}: overlapping spans")
        if not spans:
            raise ValueError(f"{r['id']}: no label")
        labelled = Counter(x["value"] for x in r["secrets"] + r["lookalikes"])
        for x in r["secrets"]:
            if occurrences(text, x["value"]) != labelled[x["value"]]:
                raise ValueError(f"{r['id']}: secret also occurs unlabelled")
    share = sum(1 for r in records if r["secrets"]) / len(records)
    if not 0.45 <= share <= 0.55:
        raise ValueError(f"secret share {share:.3f}")
    if len(kinds) < MIN_KINDS:
        raise ValueError(f"only {len(kinds)} secret kinds")
    for k, c in kinds.items():
        if sum(c.values()) < MIN_KIND_EXAMPLES or len(c) < MIN_KIND_CONTEXTS:
            raise ValueError(f"{k}: {sum(c.values())} examples in {len(c)} contexts")
    new = [k for k in kinds if k not in V6_KINDS]
    if len(new) < MIN_NEW_KINDS:
        raise ValueError(f"only {len(new)} new kinds")
    if len(lkinds) < MIN_LOOK_KINDS:
        raise ValueError(f"only {len(lkinds)} look-alike kinds")
    for k, c in lkinds.items():
        if sum(c.values()) < MIN_LOOK_EXAMPLES:
            raise ValueError(f"look-alike {k}: {sum(c.values())}")
    return {"kinds": kinds, "lkinds": lkinds, "new": new, "share": share}


def readme(records: list[dict], stats: dict, digest: str, langs: Counter[str]) -> str:
    kinds, lkinds = stats["kinds"], stats["lkinds"]
    n = len(records)
    ns = sum(1 for r in records if r["secrets"])
    nl = sum(1 for r in records if r["lookalikes"])
    sspans = sum(len(r["secrets"]) for r in records)
    lspans = sum(len(r["lookalikes"]) for r in records)
    lengths = sorted(len(r["text"]) for r in records)
    multi = sum(1 for r in records for x in r["secrets"] if "\n" in x["value"])
    narr = sum(len(r["secrets"]) for r in records if r["context"] in NARRATIVE)
    nonascii = sum(1 for r in records if any(ord(c) > 127 for c in r["text"]))
    per_ctx = Counter(r["context"] for r in records)
    per_ctx_s = Counter(r["context"] for r in records if r["secrets"])
    L = [
        "# secrets_blind_v7",
        "",
        f"A held-out, labelled test corpus for the secret-detection engine, written blind to it: {n:,} documents of the kind an AI "
        "assistant keeps in its `/memories` folder. Journals, terminal sessions, shell history, chat transcripts, meeting notes, "
        "checklists, notes about the user, debugging diaries, post-mortems, CI logs, stack traces, emails, tickets, code-review "
        "comments, runbooks, wiki pages, Slack exports and Jupyter notebooks sit next to structured files (JSON, YAML, TOML, INI, "
        "`.env`, XML, HCL, properties, CSV, TSV, Compose, Kubernetes, Helm values, GitHub Actions, GitLab CI, nginx, Apache, Caddy, "
        "systemd, Ansible inventories, `.npmrc`, `.pypirc`, `.netrc`, `.pgpass`, `my.cnf`, `.git-credentials`) and code (Python, "
        "JavaScript, TypeScript, Go, Java, Kotlin, Ruby, PHP, Rust, C#, Swift, bash, PowerShell, SQL). Every document lists the "
        "secrets it holds (to be reported) and the look-alikes it holds (public values that must not be reported).",
        "",
        "## How it was built",
        "",
        f"- Generator: [`../make_blind_secrets_v7.py`](../make_blind_secrets_v7.py), Python 3.11 standard library only, one "
        f"`random.Random({SEED})`. No set is iterated while writing, no clock or system randomness is read, and `PYTHONHASHSEED` "
        "does not change the bytes written.",
        "- Regenerate with `python3 tests/corpora/make_blind_secrets_v7.py` (or `--out DIR`). A run takes a few seconds.",
        "- Every value is wrapped in private-use marker characters (kind and secret / look-alike flag in the opening marker) when it "
        "is made. Rendering (JSON escaping, YAML block indentation, email quoting, diff prefixes, hard wraps, memory-record framing) "
        "works on the marked text; the offsets are read off the final text when the markers are stripped.",
        "- A document whose secret also occurs unlabelled in its own text (or inside another labelled value) is re-rendered with "
        "fresh values. Before anything is written the script checks that every span slices out its value, that both lists are "
        "sorted and no two spans overlap, that ids are unique, that every document has a labelled value, that no labelled secret "
        "also occurs unlabelled, that 45-55% of the documents hold a secret, that there are at least "
        f"{MIN_KINDS} secret kinds with at least {MIN_KIND_EXAMPLES} examples each in at least {MIN_KIND_CONTEXTS} contexts, at "
        f"least {MIN_NEW_KINDS} kinds absent from v6's table, and at least {MIN_LOOK_KINDS} look-alike kinds with at least "
        f"{MIN_LOOK_EXAMPLES} examples each. After writing it re-reads `corpus.jsonl` and compares it with `SHA256SUMS`. Any "
        "failure raises.",
        "- Written blind. I read `tests/corpora/secrets_blind_v6/README.md` (allowed) for the file format, the labelling "
        "conventions, the layout of this file and its kind tables; kinds that v6 also has keep its kind names, and v6's "
        "names are listed in the generator to mark which kinds are new; none of its phrasing or templates was reused. `pyproject.toml` was read for its ruff settings. Nothing "
        "else under `tests/` (apart from this generator and the three files it writes) and nothing under `sandbox/`, "
        "`policies/`, `bench/` or `docs/` was opened, listed, grepped or run; "
        "no other file under `tests/corpora/` was opened and that directory was not listed; no `git status`, `git log`, "
        "`git diff` or `git show` was run; the `sandbox` package was never imported and no scanner of the project was run. Token "
        "formats come from providers' public documentation as I know it.",
        "- Values are random but structurally real where the format allows: GitHub `ghp_` / `gho_`... and npm tokens end in the "
        "base62 CRC32 of their random part; PyPI tokens are v2 macaroons (location `pypi.org`) with a real HMAC chain; JWTs carry "
        "real HS256 signatures; age keys, Nostr `nsec` keys, `age1` recipients, `npub` keys and bitcoin addresses are valid bech32; "
        "WIF keys are valid base58check; RSA, EC, DSA, PKCS #8 (plain and PBES2-encrypted) keys and certificates are DER-correct "
        "structures with random contents (not working key pairs); OpenSSH and PuTTY keys follow their binary formats (the PuTTY "
        "files carry the PPK v3 MAC for unencrypted keys); PGP blocks carry a correct CRC-24 line; IBANs and ISBNs have valid "
        "check digits; VAPID public keys are 65-byte uncompressed points.",
        "",
        "## File format",
        "",
        "`corpus.jsonl`: one JSON object per line, UTF-8, written with `ensure_ascii=False`, keys in this order:",
        "",
        "```json",
        '{"id": "blind7-0001", "context": "journal", "text": "...", "secrets": [{"kind": "...", "value": "...", "start": 0, "end": 0}], "lookalikes": []}',
        "```",
        "",
        "- `start` / `end` are Python code-point offsets into `text` and `text[start:end] == value`. Each list is sorted by `start`; "
        "no two spans of a document overlap (secrets and look-alikes together).",
        "- `context` names the shape of the document (table below). Narrative documents are markdown; about a seventh of them are "
        "wrapped as a JSON memory record (the body is one JSON string), a tenth as a YAML record (the body is an indented block "
        "scalar) and a sixth carry front matter. Structured and code files carry a comment (or a `_note` key, a notes column, a "
        "unit description) in the document's language.",
        "",
        "## Labelling",
        "",
        "- Only the sensitive part is labelled: the password inside a DSN, URL, JDBC / ADO.NET / libpq string, `sasl.jaas.config`, "
        "`NEO4J_AUTH` or Oracle `user/password@` string (not the user or host); the `sig=` value of an Azure SAS URL; the key in an "
        "IFTTT webhook URL; the secret in `cloudinary://key:secret@cloud`; the credential after `Bearer `, `Basic `, `token `, "
        "`Bot `, `SSWS `, `Splunk `, `GenieKey `, `Api-Token `, `ApiKey `, `key=`; the cookie value after `name=`; the base64 after "
        "Laravel's `base64:`; the seed inside an `otpauth://` URI; the private key inside a service-account JSON. Slack, Discord, "
        "Teams, Google Chat, Mattermost and Zapier webhook URLs are labelled whole, and so is an Ably key (`app.keyid:secret`); "
        "PEM, OpenSSH, PGP and PuTTY keys are labelled from their first to their last line.",
        "- Key ids that travel with their secret are secrets too: AWS `AKIA` / `ASIA`, Alibaba `LTAI`, Tencent `AKID`, Scaleway "
        "`SCW`, Backblaze key ids, Modal `ak-`, WooCommerce `ck_`, Akamai `akab-` tokens. Companions that are not secret are "
        "look-alikes: OAuth client ids, Entra tenant ids, Twilio account SIDs, Algolia app ids, Duo integration keys, the GCP "
        "`private_key_id`, Langfuse `pk-lf-` keys, VAPID and WireGuard public keys, the kubeconfig client certificate.",
        "- A value is labelled exactly as it appears: inside JSON (a JSON config, a Slack export, a notebook or a JSON-framed memory "
        "record) it keeps its escapes; in a YAML block scalar, an INI continuation or a YAML-framed record it keeps the indentation "
        "of its continuation lines; in a quoted email reply it keeps the `> ` prefixes; in a diff it keeps the `+` prefixes; in XML "
        "it keeps entity escapes; in a CSV field it keeps doubled quotes; in a properties file, a TSV cell or a stack-trace local "
        "its line breaks are `\\n`; in C# verbatim strings quotes are doubled; a token hard-wrapped in a narrow note keeps its newlines.",
        f"- {narr:,} secret spans sit in narrative documents, many in bare prose with no key name nearby; {multi} secret spans run "
        "over several lines.",
        "",
        "## Numbers",
        "",
        f"- {n:,} documents; {ns} ({100 * ns / n:.0f}%) hold at least one secret; {nl:,} hold look-alikes; every document has at "
        "least one labelled value.",
        f"- {sspans:,} secret spans over {len(kinds)} kinds (at least {min(sum(c.values()) for c in kinds.values())} each, each kind "
        f"in at least {min(len(c) for c in kinds.values())} contexts); {len(stats['new'])} of the kinds are not in v6's table "
        "(marked *new*).",
        f"- {lspans:,} look-alike spans over {len(lkinds)} kinds (at least {min(sum(c.values()) for c in lkinds.values())} each).",
        f"- Length: {lengths[0]:,} to {lengths[-1]:,} characters, median {lengths[len(lengths) // 2]:,}; {nonascii} documents "
        "contain non-ASCII text.",
        f"- {len(per_ctx)} contexts; prose and comments in {len(langs)} languages: "
        + ", ".join(f"{k} {v}" for k, v in langs.most_common())
        + ".",
        "",
        "## Secret kinds",
        "",
        "| kind | format | examples | contexts |",
        "| --- | --- | ---: | ---: |",
    ]
    for k in sorted(kinds):
        new = " *new*" if k not in V6_KINDS else ""
        L.append(f"| `{k}`{new} | {SPECS[k].desc} | {sum(kinds[k].values())} | {len(kinds[k])} |")
    L += ["", "## Look-alike kinds", "", "| kind | what | examples | contexts |", "| --- | --- | ---: | ---: |"]
    for k in sorted(lkinds):
        desc = LOOKS[k].desc if k in LOOKS else k
        L.append(f"| `{k}` | {desc} | {sum(lkinds[k].values())} | {len(lkinds[k])} |")
    L += ["", "## Contexts", "", "| context | what | documents | with secrets |", "| --- | --- | ---: | ---: |"]
    for c in sorted(per_ctx):
        L.append(f"| `{c}` | {CONTEXTS[c][1]} | {per_ctx[c]} | {per_ctx_s[c]} |")
    L += ["", "## Checksum", "", "`SHA256SUMS`:", "", "```", f"{digest}  corpus.jsonl", "```", ""]
    return "\n".join(L)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "secrets_blind_v7")
    args = ap.parse_args()
    docs = plan()
    records = [render(d, i) for i, d in enumerate(docs, 1)]
    langs = Counter(str(r.pop("_lang")) for r in records)
    stats = verify(records)
    body = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode()
    digest = hashlib.sha256(body).hexdigest()
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "corpus.jsonl").write_bytes(body)
    (args.out / "SHA256SUMS").write_text(f"{digest}  corpus.jsonl\n", encoding="utf-8")
    (args.out / "README.md").write_text(readme(records, stats, digest, langs), encoding="utf-8")
    back = hashlib.sha256((args.out / "corpus.jsonl").read_bytes()).hexdigest()
    line = (args.out / "SHA256SUMS").read_text(encoding="utf-8").split()
    if back != digest or line != [digest, "corpus.jsonl"]:
        raise RuntimeError("corpus.jsonl does not match SHA256SUMS")
    print(f"{len(records)} documents, sha256 {digest}")


if __name__ == "__main__":
    main()
