"""Generate tests/corpora/secrets_blind_v8: a labelled, held-out corpus of AI-assistant memory files.

Standard library only, one seeded random.Random. Every value is wrapped in private-use marker
characters when it is made; rendering works on the marked text and the spans are read off the
final text when the markers are stripped. See secrets_blind_v8/README.md.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import html
import itertools
import json
import pathlib
import random
import string
import struct
import zlib
from collections import Counter
from collections.abc import Callable
from typing import ClassVar

SEED = 20270408
R = random.Random(SEED)
N_DOCS = 1200
CLOSE = "\uf8ff"
OPEN0 = 0xE000

DIG = string.digits
UP = string.ascii_uppercase
LO = string.ascii_lowercase
ALNUM = DIG + UP + LO
B62 = DIG + UP + LO
HEX = "0123456789abcdef"
B64C = UP + LO + DIG + "+/"
B64U = UP + LO + DIG + "-_"
B32 = UP + "234567"


# ---------------------------------------------------------------- labels and markers


class Doc:
    labels: ClassVar[list[tuple[str, bool]]] = []


def _mark(kind: str, value: str, secret: bool) -> str:
    idx = len(Doc.labels)
    Doc.labels.append((kind, secret))
    return chr(OPEN0 + idx) + value + CLOSE


def S(kind: str, value: str) -> str:
    return _mark(kind, value, True)


def L(kind: str, value: str) -> str:
    return _mark(kind, value, False)


def strip_markers(text: str) -> tuple[str, list[dict], list[dict]]:
    out: list[str] = []
    secrets: list[dict] = []
    looks: list[dict] = []
    pos = 0
    cur: tuple[int, int] | None = None
    for ch in text:
        o = ord(ch)
        if ch == CLOSE:
            if cur is None:
                raise ValueError("close marker without open")
            idx, start = cur
            kind, secret = Doc.labels[idx]
            val = "".join(out)[start:pos]
            (secrets if secret else looks).append({"kind": kind, "value": val, "start": start, "end": pos})
            cur = None
        elif OPEN0 <= o < OPEN0 + 0x1000:
            if cur is not None:
                raise ValueError("nested marker")
            cur = (o - OPEN0, pos)
        else:
            out.append(ch)
            pos += 1
    if cur is not None:
        raise ValueError("unclosed marker")
    return "".join(out), secrets, looks


# ---------------------------------------------------------------- random helpers


def rc(n: int, alpha: str = ALNUM) -> str:
    return "".join(R.choice(alpha) for _ in range(n))


def hx(n: int) -> str:
    return rc(n, HEX)


def rb(n: int) -> bytes:
    return R.randbytes(n)


def pick(seq):  # type: ignore[no-untyped-def]
    return seq[R.randrange(len(seq))]


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def uuid4() -> str:
    h = hx(32)
    h = h[:12] + "4" + h[13:16] + pick("89ab") + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def b62_int(n: int, width: int) -> str:
    s = ""
    while n:
        n, m = divmod(n, 62)
        s = B62[m] + s
    return s.rjust(width, "0")


def crc_token(prefix: str, body_len: int = 30) -> str:
    body = rc(body_len)
    return prefix + body + b62_int(zlib.crc32(body.encode()), 6)


def human_password() -> str:
    words = ["Harbor", "maple", "Quartz", "tiger", "Violet", "copper", "Nimbus", "falcon", "Orchid", "pepper", "Zephyr"]
    return pick(words) + pick(words).lower() + str(R.randrange(10, 9999)) + pick("!#%*?@+")


def rand_password(n: int | None = None) -> str:
    n = n or R.randrange(14, 28)
    return rc(n, ALNUM + "!#%*-_+.^~")


def wrap64(s: str, width: int = 64) -> str:
    return "\n".join(s[i : i + width] for i in range(0, len(s), width))


def pem(label: str, der: bytes, width: int = 64) -> str:
    return f"-----BEGIN {label}-----\n{wrap64(b64(der), width)}\n-----END {label}-----"


# ---------------------------------------------------------------- DER, bech32, base58


def der_len(n: int) -> bytes:
    if n < 0x80:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


def der(tag: int, body: bytes) -> bytes:
    return bytes([tag]) + der_len(len(body)) + body


def der_int_bytes(raw: bytes) -> bytes:
    raw = raw.lstrip(b"\0") or b"\0"
    if raw[0] & 0x80:
        raw = b"\0" + raw
    return der(0x02, raw)


def der_int(n: int) -> bytes:
    return der_int_bytes(n.to_bytes(max(1, (n.bit_length() + 7) // 8), "big"))


def seq(*parts: bytes) -> bytes:
    return der(0x30, b"".join(parts))


def big(nbytes: int, odd: bool = False) -> bytes:
    b = bytearray(rb(nbytes))
    b[0] |= 0x80
    if odd:
        b[-1] |= 1
    return bytes(b)


OID_EC = bytes.fromhex("06072a8648ce3d0201")
OID_P256 = bytes.fromhex("06082a8648ce3d030107")
OID_ECDSA256 = bytes.fromhex("06082a8648ce3d040302")
OID_RSA = bytes.fromhex("06092a864886f70d010101") + b"\x05\x00"
OID_CN = bytes.fromhex("0603550403")


def rsa_der() -> bytes:
    parts = [der_int(0), der_int_bytes(big(256, True)), der_int(65537), der_int_bytes(big(256))]
    parts += [der_int_bytes(big(128, True)) for _ in range(5)]
    return seq(*parts)


def rsa_pem(pkcs8: bool = False) -> str:
    d = rsa_der()
    if pkcs8:
        return pem("PRIVATE KEY", seq(der_int(0), seq(OID_RSA), der(0x04, d)))
    return pem("RSA PRIVATE KEY", d)


def ec_point() -> bytes:
    return b"\x04" + rb(64)


def ec_pem(pkcs8: bool = False) -> str:
    inner = seq(der_int(1), der(0x04, rb(32)), der(0xA0, OID_P256), der(0xA1, der(0x03, b"\0" + ec_point())))
    if pkcs8:
        return pem("PRIVATE KEY", seq(der_int(0), seq(OID_EC, OID_P256), der(0x04, inner)))
    return pem("EC PRIVATE KEY", inner)


def ed25519_pem() -> str:
    return pem("PRIVATE KEY", bytes.fromhex("302e020100300506032b657004220420") + rb(32))


def spki_pem() -> str:
    if R.random() < 0.5:
        return pem("PUBLIC KEY", bytes.fromhex("302a300506032b6570032100") + rb(32))
    return pem("PUBLIC KEY", seq(seq(OID_EC, OID_P256), der(0x03, b"\0" + ec_point())))


def cert_pem() -> str:
    cn = pick(["ledger.internal", "mq-gw.corp", "build-cache.lan", "pay-edge.example.net", "vpn.tallyho.io"])
    name = seq(der(0x31, seq(OID_CN, der(0x0C, cn.encode()))))
    y = R.randrange(20, 27)
    validity = seq(
        der(0x17, f"{y}0{R.randrange(1, 9)}1{R.randrange(0, 9)}120000Z".encode()),
        der(0x17, f"{y + 2}0101000000Z".encode()),
    )
    tbs = seq(
        der(0xA0, der_int(2)),
        der_int_bytes(big(16)),
        seq(OID_ECDSA256),
        name,
        validity,
        name,
        seq(seq(OID_EC, OID_P256), der(0x03, b"\0" + ec_point())),
    )
    sig = seq(der_int_bytes(big(32)), der_int_bytes(big(32)))
    return pem("CERTIFICATE", seq(tbs, seq(OID_ECDSA256), der(0x03, b"\0" + sig)))


def ssh_string(b: bytes) -> bytes:
    return struct.pack(">I", len(b)) + b


def openssh_ed25519() -> str:
    pub = rb(32)
    blob = ssh_string(b"ssh-ed25519") + ssh_string(pub)
    chk = rb(4)
    priv = chk + chk + blob + ssh_string(rb(32) + pub) + ssh_string(pick([b"ops@bastion", b"deploy@ci", b"me@laptop"]))
    pad = 1
    while len(priv) % 8:
        priv += bytes([pad])
        pad += 1
    body = b"openssh-key-v1\0" + ssh_string(b"none") + ssh_string(b"none") + ssh_string(b"")
    body += struct.pack(">I", 1) + ssh_string(blob) + ssh_string(priv)
    return pem("OPENSSH PRIVATE KEY", body, 70)


def ssh_pubkey() -> str:
    blob = ssh_string(b"ssh-ed25519") + ssh_string(rb(32))
    return "ssh-ed25519 " + b64(blob)


def crc24(data: bytes) -> int:
    crc = 0xB704CE
    for byte in data:
        crc ^= byte << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


def pgp_private() -> str:
    oid = bytes.fromhex("2b06010401da470f01")
    body = b"\x04" + rb(4) + b"\x16" + bytes([len(oid)]) + oid + b"\x01\x07\x40" + rb(32)
    sec = big(32)
    body += b"\x00" + b"\x01\x00" + sec + struct.pack(">H", sum(b"\x01\x00" + sec) & 0xFFFF)
    uid = pick(
        ["Dana Ops <dana@fernhill.dev>", "release bot <release@quillstack.io>", "M. Okafor <mo@corvid.example>"]
    ).encode()
    pkt = b"\xc5" + bytes([len(body)]) + body + b"\xcd" + bytes([len(uid)]) + uid
    armor = b64(pkt)
    crc = b64(crc24(pkt).to_bytes(3, "big"))
    return f"-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n{wrap64(armor)}\n={crc}\n-----END PGP PRIVATE KEY BLOCK-----"


BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def _polymod(values: list[int]) -> int:
    gen = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
    chk = 1
    for v in values:
        b = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ v
        for i in range(5):
            chk ^= gen[i] if ((b >> i) & 1) else 0
    return chk


def bech32(hrp: str, data5: list[int]) -> str:
    exp = [ord(x) >> 5 for x in hrp] + [0] + [ord(x) & 31 for x in hrp]
    pm = _polymod([*exp, *data5, 0, 0, 0, 0, 0, 0]) ^ 1
    chk = [(pm >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(BECH[d] for d in data5 + chk)


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


B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def b58check(payload: bytes) -> str:
    data = payload + hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    n = int.from_bytes(data, "big")
    s = ""
    while n:
        n, m = divmod(n, 58)
        s = B58[m] + s
    return "1" * (len(data) - len(data.lstrip(b"\0"))) + s


def jwt_hs256(payload: dict) -> str:
    head = b64u(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    body = b64u(json.dumps(payload, separators=(",", ":")).encode())
    sig = hmac.new(rb(32), f"{head}.{body}".encode(), hashlib.sha256).digest()
    return f"{head}.{body}.{b64u(sig)}"


def pypi_token() -> str:
    def field(t: int, data: bytes) -> bytes:
        return bytes([t, len(data)]) + data

    ident = json.dumps({"nonce": hx(32), "version": 1}).encode()
    key = rb(32)
    sig = hmac.new(key, ident, hashlib.sha256).digest()
    cav = json.dumps(
        [1, pick(["user", hx(32)])] if R.random() < 0.5 else {"permissions": "user", "version": 1}
    ).encode()
    sig = hmac.new(sig, cav, hashlib.sha256).digest()
    mac = b"\x02" + field(1, b"pypi.org") + field(2, ident) + b"\x00" + field(2, cav) + b"\x00\x00" + field(6, sig)
    return "pypi-" + b64u(mac)


# ---------------------------------------------------------------- secret kinds

Item = dict
HOSTS = [
    "db-prod-2.internal",
    "10.20.3.14",
    "pg.fernhill.dev",
    "orders-db.corp.lan",
    "replica-eu.quillstack.io",
    "127.0.0.1",
]
USERS = ["app", "svc_orders", "billing_rw", "etl", "admin", "report_ro", "deploy"]


def item(fields: list[tuple[str, str]], desc: str, cli: list[str] | None = None) -> Item:
    return {"fields": fields, "desc": desc, "cli": cli or []}


def sub(t: str, v: str, n: str = "") -> str:
    return t.replace("{v}", v).replace("{n}", n)


SPECS: dict[str, tuple[str, str, list[str], Callable[[], str], list[str]]] = {}
COMMON: list[str] = []


def spec(  # noqa: PLR0917 -- one table row per call reads best positionally
    kind: str,
    fmt: str,
    desc: str,
    names: list[str],
    mk: Callable[[], str],
    cli: list[str] | None = None,
    common: bool = False,
) -> None:
    SPECS[kind] = (fmt, desc, names, mk, cli or [])
    if common:
        COMMON.append(kind)


def simple_gen(kind: str) -> Callable[[], Item]:
    _fmt, desc, names, mk, cli = SPECS[kind]

    def gen() -> Item:
        v = S(kind, mk())
        n = pick(names)
        it = item([(n, v)], desc, [sub(c, v, n) for c in cli])
        it["bare_ok"] = not ("name only" in _fmt or _fmt[:1].isdigit() or _fmt.startswith("UUID"))
        return it

    return gen


BEARER_CURL = 'curl -sS -H "Authorization: Bearer {v}" '
spec(
    "github_pat_classic",
    "`ghp_` + 30 base62 + base62 CRC32",
    "GitHub classic PAT",
    ["GITHUB_TOKEN", "GH_TOKEN", "GITHUB_PAT"],
    lambda: crc_token("ghp_"),
    ["git clone https://x-access-token:{v}@github.com/fernhill/infra.git", BEARER_CURL + "https://api.github.com/user"],
    True,
)
spec(
    "github_fine_grained_pat",
    "`github_pat_11` + 20 + `_` + 59",
    "GitHub fine-grained token",
    ["GITHUB_TOKEN", "GH_PAT", "RENOVATE_TOKEN"],
    lambda: "github_pat_11" + rc(20, UP + DIG) + "_" + rc(59),
    ["gh auth login --with-token <<< {v}"],
    True,
)
spec(
    "github_app_token",
    "`ghs_` / `gho_` / `ghu_` / `ghr_` + 30 + CRC32",
    "GitHub app installation token",
    ["GH_APP_TOKEN", "INSTALLATION_TOKEN"],
    lambda: crc_token(pick(["ghs_", "gho_", "ghu_", "ghr_"])),
    [BEARER_CURL + "https://api.github.com/installation/repositories"],
    True,
)
spec(
    "gitlab_token",
    "`glpat-` + 20",
    "GitLab personal access token",
    ["GITLAB_TOKEN", "CI_JOB_PAT", "GL_TOKEN"],
    lambda: "glpat-" + rc(20, ALNUM + "-_"),
    ['curl --header "PRIVATE-TOKEN: {v}" https://gitlab.com/api/v4/projects'],
    True,
)
spec(
    "gitlab_runner_token",
    "`glrt-` + 20",
    "GitLab runner token",
    ["RUNNER_TOKEN", "CI_SERVER_TOKEN"],
    lambda: "glrt-" + rc(20, ALNUM + "-_"),
    ["gitlab-runner register --non-interactive --url https://gitlab.com --token {v}"],
    True,
)
spec(
    "slack_bot_token",
    "`xoxb-` digits-digits-24",
    "Slack bot token",
    ["SLACK_BOT_TOKEN", "SLACK_TOKEN"],
    lambda: f"xoxb-{rc(12, DIG)}-{rc(13, DIG)}-{rc(24)}",
    [BEARER_CURL + "https://slack.com/api/auth.test"],
    True,
)
spec(
    "slack_user_token",
    "`xoxp-` + 4 groups, last 32 hex",
    "Slack user token",
    ["SLACK_USER_TOKEN"],
    lambda: f"xoxp-{rc(12, DIG)}-{rc(12, DIG)}-{rc(13, DIG)}-{hx(32)}",
    [],
    True,
)
spec(
    "slack_webhook_url",
    "whole `hooks.slack.com/services/T/B/24` URL",
    "Slack incoming webhook",
    ["SLACK_WEBHOOK_URL", "ALERT_WEBHOOK"],
    lambda: f"https://hooks.slack.com/services/T{rc(10, UP + DIG)}/B{rc(10, UP + DIG)}/{rc(24)}",
    ["curl -X POST -H 'Content-type: application/json' --data '{\"text\":\"deploy done\"}' {v}"],
    True,
)
spec(
    "discord_bot_token",
    "base64(id) + `.` + 6 + `.` + 38",
    "Discord bot token",
    ["DISCORD_TOKEN", "BOT_TOKEN"],
    lambda: b64u(str(R.randrange(10**17, 10**18)).encode()) + "." + rc(6, B64U) + "." + rc(38, B64U),
    ['curl -H "Authorization: Bot {v}" https://discord.com/api/v10/users/@me'],
    True,
)
spec(
    "discord_webhook_url",
    "whole `discord.com/api/webhooks/<id>/<68>` URL",
    "Discord webhook",
    ["DISCORD_WEBHOOK"],
    lambda: f"https://discord.com/api/webhooks/{R.randrange(10**17, 10**18)}/{rc(68, B64U)}",
    [],
    True,
)
spec(
    "telegram_bot_token",
    "`<bot id>:AA` + 33",
    "Telegram bot token",
    ["TELEGRAM_BOT_TOKEN", "TG_TOKEN"],
    lambda: f"{R.randrange(10**8, 10**10)}:AA{rc(33, B64U)}",
    ["curl https://api.telegram.org/bot{v}/getMe"],
    True,
)
spec(
    "stripe_secret_key",
    "`sk_live_` + 24, or `sk_live_51` + 97",
    "Stripe live secret key",
    ["STRIPE_SECRET_KEY", "STRIPE_API_KEY"],
    lambda: "sk_live_" + (rc(24) if R.random() < 0.4 else "51" + rc(97)),
    ["curl https://api.stripe.com/v1/charges -u {v}:"],
    True,
)
spec(
    "stripe_restricted_key",
    "`rk_live_` + 24 or `rk_live_51` + 97",
    "Stripe restricted key",
    ["STRIPE_RESTRICTED_KEY"],
    lambda: "rk_live_" + (rc(24) if R.random() < 0.4 else "51" + rc(97)),
    [],
    True,
)
spec(
    "stripe_webhook_secret",
    "`whsec_` + 32",
    "Stripe webhook signing secret",
    ["STRIPE_WEBHOOK_SECRET", "WEBHOOK_SECRET"],
    lambda: "whsec_" + rc(32),
    [],
    True,
)
spec(
    "openai_api_key",
    "`sk-proj-` / `sk-svcacct-` with `T3BlbkFJ` inside",
    "OpenAI API key",
    ["OPENAI_API_KEY"],
    lambda: pick(["sk-proj-", "sk-svcacct-"]) + rc(58, ALNUM + "-_") + "T3BlbkFJ" + rc(58, ALNUM + "-_"),
    [BEARER_CURL + "https://api.openai.com/v1/models"],
    True,
)
spec(
    "anthropic_api_key",
    "`sk-ant-api03-` + 93 + `AA`",
    "Anthropic API key",
    ["ANTHROPIC_API_KEY"],
    lambda: "sk-ant-api03-" + rc(93, ALNUM + "-_") + "AA",
    ['curl https://api.anthropic.com/v1/models -H "x-api-key: {v}"'],
    True,
)
spec(
    "google_api_key",
    "`AIza` + 35 (server-side)",
    "Google Maps / Gemini server key",
    ["GOOGLE_API_KEY", "GEMINI_API_KEY", "MAPS_SERVER_KEY"],
    lambda: "AIza" + rc(35, ALNUM + "-_"),
    ['curl "https://generativelanguage.googleapis.com/v1beta/models?key={v}"'],
    True,
)
spec(
    "huggingface_token",
    "`hf_` + 34 letters",
    "Hugging Face token",
    ["HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"],
    lambda: "hf_" + rc(34, UP + LO),
    ["huggingface-cli login --token {v}"],
    True,
)
spec(
    "npm_token",
    "`npm_` + 30 + CRC32",
    "npm automation token",
    ["NPM_TOKEN", "NODE_AUTH_TOKEN"],
    lambda: crc_token("npm_"),
    ["npm config set //registry.npmjs.org/:_authToken {v}"],
    True,
)
spec(
    "pypi_token",
    "`pypi-` + v2 macaroon (location `pypi.org`, HMAC chain)",
    "PyPI upload token",
    ["PYPI_TOKEN", "TWINE_PASSWORD"],
    pypi_token,
    ["twine upload -u __token__ -p {v} dist/*"],
    True,
)
spec(
    "dockerhub_pat",
    "`dckr_pat_` + 27",
    "Docker Hub access token",
    ["DOCKERHUB_TOKEN", "DOCKER_PASSWORD"],
    lambda: "dckr_pat_" + rc(27, ALNUM + "-_"),
    ["echo {v} | docker login -u fernbot --password-stdin"],
    True,
)
spec(
    "sendgrid_api_key",
    "`SG.` + 22 + `.` + 43",
    "SendGrid API key",
    ["SENDGRID_API_KEY"],
    lambda: "SG." + rc(22, B64U) + "." + rc(43, B64U),
    [],
    True,
)
spec(
    "mailgun_api_key",
    "`key-` + 32 hex",
    "Mailgun API key",
    ["MAILGUN_API_KEY"],
    lambda: "key-" + hx(32),
    ["curl -s --user 'api:{v}' https://api.mailgun.net/v3/domains"],
    True,
)
spec(
    "datadog_api_key",
    "32 hex (name or `DD-API-KEY`)",
    "Datadog API key",
    ["DD_API_KEY", "DATADOG_API_KEY"],
    lambda: hx(32),
    ['curl -H "DD-API-KEY: {v}" https://api.datadoghq.eu/api/v1/validate'],
    True,
)
spec(
    "sentry_auth_token",
    "`sntryu_` + 64 hex",
    "Sentry auth token",
    ["SENTRY_AUTH_TOKEN"],
    lambda: "sntryu_" + hx(64),
    ["sentry-cli --auth-token {v} releases list"],
    True,
)
spec(
    "generic_api_key",
    "32-64 character keys for in-house or unnamed services",
    "internal API key",
    ["API_KEY", "INTERNAL_API_KEY", "PARTNER_KEY", "X_API_KEY", "SERVICE_KEY"],
    lambda: rc(R.choice([32, 40, 48, 64])),
    ['curl -H "X-Api-Key: {v}" https://partner-api.fernhill.dev/v2/orders'],
    True,
)
spec(
    "generic_password",
    "human and random passwords under ordinary names",
    "admin password",
    ["ADMIN_PASSWORD", "PASSWORD", "ROOT_PASSWORD", "KEYSTORE_PASSWORD", "WIFI_PASSWORD", "VPN_PASSWORD"],
    lambda: human_password() if R.random() < 0.5 else rand_password(),
    ["sshpass -p '{v}' ssh admin@10.0.4.7"],
    True,
)
spec(
    "bearer_token",
    "opaque token after `Bearer `",
    "API bearer token",
    ["ACCESS_TOKEN", "AUTH_TOKEN", "API_TOKEN"],
    lambda: rc(R.choice([40, 48, 56]), ALNUM + "-_"),
    [BEARER_CURL + "https://api.quillstack.io/v1/me"],
    True,
)
spec(
    "jwt",
    "HS256 JWT with a real HMAC signature",
    "long-lived service JWT",
    ["SERVICE_JWT", "SUPABASE_SERVICE_ROLE_KEY", "API_JWT"],
    lambda: jwt_hs256(
        {
            "sub": uuid4(),
            "role": pick(["service_role", "admin", "ingest"]),
            "iat": 1767225600 + R.randrange(10**7),
            "exp": 1893456000,
        }
    ),
    [BEARER_CURL + "https://auth.fernhill.dev/v1/admin/users"],
    True,
)
spec(
    "jwt_signing_secret",
    "HMAC secret that signs JWTs",
    "JWT signing secret",
    ["JWT_SECRET", "JWT_SIGNING_KEY", "AUTH_SECRET"],
    lambda: pick([rc(48), hx(64), b64(rb(48))]),
    [],
    True,
)
spec(
    "session_cookie",
    "cookie values after `name=`",
    "session cookie",
    ["SESSION_COOKIE"],
    lambda: rc(32, LO + DIG),
    ['curl -b "sessionid={v}" https://admin.fernhill.dev/dashboard'],
    True,
)
spec(
    "encryption_key",
    "32-byte keys as hex / base64, Fernet keys",
    "data encryption key",
    ["ENCRYPTION_KEY", "FERNET_KEY", "DATA_KEY", "MASTER_KEY"],
    lambda: pick([hx(64), b64(rb(32)), b64u(rb(32)) + "="]),
    [],
    True,
)
spec(
    "app_secret_key",
    "Django `SECRET_KEY`, Rails `secret_key_base`, Flask secret",
    "framework secret key",
    ["SECRET_KEY", "SECRET_KEY_BASE", "FLASK_SECRET_KEY", "NEXTAUTH_SECRET"],
    lambda: pick(["django-insecure-" + rc(50, LO + DIG + "!@#%^&*(-_=+)"), hx(128), rc(50, LO + DIG + "!@#%^*(-_=+)")]),
    [],
    True,
)
spec(
    "totp_seed",
    "base32 TOTP seed",
    "TOTP seed",
    ["TOTP_SECRET", "MFA_SEED", "OTP_SECRET"],
    lambda: rc(32, B32),
    ["oathtool --totp -b {v}"],
    True,
)
spec(
    "vault_token",
    "`hvs.` + 24 / `hvb.` + 90+",
    "Vault token",
    ["VAULT_TOKEN"],
    lambda: "hvs." + rc(24) if R.random() < 0.7 else "hvb." + rc(92, ALNUM + "-_"),
    ["VAULT_TOKEN={v} vault kv get secret/app"],
    True,
)
spec(
    "digitalocean_token",
    "`dop_v1_` + 64 hex",
    "DigitalOcean token",
    ["DIGITALOCEAN_TOKEN", "DO_TOKEN"],
    lambda: "dop_v1_" + hx(64),
    ["doctl auth init --access-token {v}"],
    True,
)
spec(
    "heroku_api_key",
    "`HRKU-AA` + 58",
    "Heroku API key",
    ["HEROKU_API_KEY"],
    lambda: "HRKU-AA" + rc(58, ALNUM + "-_"),
    [],
    True,
)
spec(
    "shopify_access_token",
    "`shpat_` + 32 hex",
    "Shopify Admin API token",
    ["SHOPIFY_ACCESS_TOKEN"],
    lambda: pick(["shpat_", "shpca_", "shppa_"]) + hx(32),
    ['curl -H "X-Shopify-Access-Token: {v}" https://fernhill.myshopify.com/admin/api/2025-01/shop.json'],
    True,
)
spec(
    "cloudflare_api_token",
    "40 characters (name or bearer)",
    "Cloudflare API token",
    ["CLOUDFLARE_API_TOKEN", "CF_API_TOKEN"],
    lambda: rc(40, ALNUM + "-_"),
    [BEARER_CURL + "https://api.cloudflare.com/client/v4/user/tokens/verify"],
    True,
)
spec(
    "terraform_cloud_token",
    "14 + `.atlasv1.` + 67",
    "Terraform Cloud token",
    ["TFE_TOKEN", "TF_TOKEN_app_terraform_io"],
    lambda: rc(14) + ".atlasv1." + rc(67),
    [],
    True,
)
spec(
    "atlassian_api_token",
    "`ATATT3xFfGF0` + 170 + `=` + 8 hex",
    "Atlassian API token",
    ["JIRA_API_TOKEN", "CONFLUENCE_TOKEN"],
    lambda: "ATATT3xFfGF0" + rc(170, ALNUM + "-_") + "=" + hx(8).upper(),
    [],
    True,
)
spec(
    "notion_token",
    "`ntn_` + 11 digits + 35",
    "Notion integration token",
    ["NOTION_TOKEN", "NOTION_API_KEY"],
    lambda: "ntn_" + rc(11, DIG) + rc(35),
    [],
    True,
)
spec("linear_api_key", "`lin_api_` + 40", "Linear API key", ["LINEAR_API_KEY"], lambda: "lin_api_" + rc(40), [], True)
spec("groq_api_key", "`gsk_` + 52", "Groq API key", ["GROQ_API_KEY"], lambda: "gsk_" + rc(52), [], True)
spec(
    "google_oauth_refresh_token",
    "`1//0` + OAuth refresh token",
    "Google OAuth refresh token",
    ["GOOGLE_REFRESH_TOKEN", "GDRIVE_REFRESH_TOKEN"],
    lambda: "1//0" + rc(1, "cdegh") + rc(98, ALNUM + "-_"),
    [],
    True,
)
spec(
    "azure_ad_client_secret",
    "3 + digit + `Q~` + 34",
    "Entra app client secret",
    ["AZURE_CLIENT_SECRET"],
    lambda: rc(3) + rc(1, DIG) + "Q~" + rc(34, ALNUM + "-_.~"),
    [],
    True,
)
spec(
    "azure_storage_account_key",
    "88-character base64 account key",
    "Azure storage account key",
    ["AZURE_STORAGE_KEY", "AZURE_STORAGE_ACCOUNT_KEY"],
    lambda: b64(rb(64)),
    [],
    True,
)
spec("twilio_auth_token", "32 hex", "Twilio auth token", ["TWILIO_AUTH_TOKEN"], lambda: hx(32), [], True)
spec(
    "smtp_password",
    "SMTP password under `SMTP_PASS` / `smtp://` URLs",
    "SMTP password",
    ["SMTP_PASSWORD", "EMAIL_HOST_PASSWORD", "MAIL_PASSWORD"],
    rand_password,
    [],
    True,
)
spec(
    "oauth_client_secret",
    "Google `GOCSPX-` + 28, GitHub 40 hex",
    "OAuth client secret",
    ["OAUTH_CLIENT_SECRET", "GOOGLE_CLIENT_SECRET", "GITHUB_CLIENT_SECRET"],
    lambda: "GOCSPX-" + rc(28, ALNUM + "-_") if R.random() < 0.6 else hx(40),
    [],
    True,
)

# less common providers
spec(
    "supabase_access_token",
    "`sbp_` + 40 hex",
    "Supabase access token",
    ["SUPABASE_ACCESS_TOKEN"],
    lambda: "sbp_" + hx(40),
    ["supabase login --token {v}"],
)
spec(
    "planetscale_token",
    "`pscale_tkn_` + 43",
    "PlanetScale service token",
    ["PLANETSCALE_SERVICE_TOKEN"],
    lambda: "pscale_tkn_" + rc(43, ALNUM + "-_"),
    [],
)
spec(
    "netlify_token",
    "`nfp_` + 40",
    "Netlify token",
    ["NETLIFY_AUTH_TOKEN"],
    lambda: "nfp_" + rc(40),
    ["netlify deploy --prod --auth {v}"],
)
spec(
    "flyio_token",
    "`fo1_` + 43",
    "Fly.io token",
    ["FLY_API_TOKEN"],
    lambda: "fo1_" + rc(43, ALNUM + "-_"),
    ["flyctl deploy --access-token {v}"],
)
spec("render_api_key", "`rnd_` + 32", "Render API key", ["RENDER_API_KEY"], lambda: "rnd_" + rc(32), [])
spec(
    "doppler_token",
    "`dp.st.<config>.` / `dp.pt.` + 43",
    "Doppler token",
    ["DOPPLER_TOKEN"],
    lambda: pick(["dp.pt.", "dp.st.prd.", "dp.st.dev.", "dp.sa."]) + rc(43),
    ["doppler run --token {v} -- ./server"],
)
spec(
    "pulumi_access_token",
    "`pul-` + 40 hex",
    "Pulumi access token",
    ["PULUMI_ACCESS_TOKEN"],
    lambda: "pul-" + hx(40),
    [],
)
spec(
    "buildkite_token", "`bkua_` + 40 hex", "Buildkite API token", ["BUILDKITE_API_TOKEN"], lambda: "bkua_" + hx(40), []
)
spec(
    "circleci_token",
    "`CCIPAT_` + 22 + `_` + 40 hex",
    "CircleCI personal token",
    ["CIRCLE_TOKEN", "CIRCLECI_TOKEN"],
    lambda: "CCIPAT_" + rc(22) + "_" + hx(40),
    ['curl -H "Circle-Token: {v}" https://circleci.com/api/v2/me'],
)
spec(
    "sonarqube_token",
    "`squ_` / `sqp_` / `sqa_` + 40 hex",
    "SonarQube token",
    ["SONAR_TOKEN"],
    lambda: pick(["squ_", "sqp_", "sqa_"]) + hx(40),
    ["sonar-scanner -Dsonar.token={v}"],
)
spec(
    "jfrog_token",
    "`AKCp` + 69",
    "JFrog API key",
    ["ARTIFACTORY_API_KEY", "JFROG_TOKEN"],
    lambda: "AKCp" + rc(69),
    ['curl -H "X-JFrog-Art-Api: {v}" https://fernhill.jfrog.io/artifactory/api/repositories'],
)
spec(
    "nuget_api_key",
    "`oy2` + 43 `[a-z0-9]`",
    "NuGet API key",
    ["NUGET_API_KEY"],
    lambda: "oy2" + rc(43, LO + DIG),
    ["dotnet nuget push pkg.nupkg --api-key {v} --source https://api.nuget.org/v3/index.json"],
)
spec(
    "rubygems_api_key",
    "`rubygems_` + 48 hex",
    "RubyGems API key",
    ["GEM_HOST_API_KEY", "RUBYGEMS_API_KEY"],
    lambda: "rubygems_" + hx(48),
    [],
)
spec(
    "cratesio_token",
    "`cio` + 32",
    "crates.io token",
    ["CARGO_REGISTRY_TOKEN"],
    lambda: "cio" + rc(32),
    ["cargo login {v}"],
)
spec(
    "postman_api_key",
    "`PMAK-` + 24 hex + `-` + 34 hex",
    "Postman API key",
    ["POSTMAN_API_KEY"],
    lambda: "PMAK-" + hx(24) + "-" + hx(34),
    [],
)
spec(
    "newrelic_user_api_key",
    "`NRAK-` + 27",
    "New Relic user key",
    ["NEW_RELIC_API_KEY"],
    lambda: "NRAK-" + rc(27, UP + DIG),
    [],
)
spec(
    "newrelic_license_key",
    "36 hex + `NRAL`",
    "New Relic license key",
    ["NEW_RELIC_LICENSE_KEY"],
    lambda: hx(36) + "NRAL",
    [],
)
spec(
    "dynatrace_token",
    "`dt0c01.` + 24 + `.` + 64",
    "Dynatrace API token",
    ["DT_API_TOKEN"],
    lambda: "dt0c01." + rc(24, UP + DIG) + "." + rc(64, UP + DIG),
    ['curl -H "Authorization: Api-Token {v}" https://abc12345.live.dynatrace.com/api/v2/metrics'],
)
spec(
    "grafana_service_account_token",
    "`glsa_` + 32 + `_` + 8 hex",
    "Grafana service account token",
    ["GRAFANA_TOKEN"],
    lambda: "glsa_" + rc(32) + "_" + hx(8),
    [],
)
spec(
    "honeycomb_api_key",
    "`hcaik_` + 58 lowercase alphanumerics (ingest key)",
    "Honeycomb ingest key",
    ["HONEYCOMB_API_KEY", "OTEL_HONEYCOMB_KEY"],
    lambda: "hcaik_01" + rc(56, LO + DIG),
    ['curl -H "X-Honeycomb-Team: {v}" https://api.honeycomb.io/1/auth'],
)
spec(
    "rollbar_access_token",
    "32 hex server-side token (name only)",
    "Rollbar server token",
    ["ROLLBAR_ACCESS_TOKEN"],
    lambda: hx(32),
    [],
)
spec(
    "opsgenie_api_key",
    "UUID after `GenieKey `",
    "Opsgenie API key",
    ["OPSGENIE_API_KEY"],
    uuid4,
    ['curl -H "Authorization: GenieKey {v}" https://api.opsgenie.com/v2/alerts'],
)
spec(
    "pagerduty_api_key",
    "20-character REST API key (name or `Token token=`)",
    "PagerDuty REST key",
    ["PAGERDUTY_TOKEN", "PD_API_KEY"],
    lambda: rc(20, ALNUM + "_-+"),
    ['curl -H "Authorization: Token token={v}" https://api.pagerduty.com/services'],
)
spec(
    "okta_api_token",
    "`00` + 40 (`SSWS`)",
    "Okta API token",
    ["OKTA_API_TOKEN"],
    lambda: "00" + rc(40, ALNUM + "-_"),
    ['curl -H "Authorization: SSWS {v}" https://fernhill.okta.com/api/v1/users'],
)
spec(
    "tailscale_key",
    "`tskey-auth-` + id + `CNTRL-` + 33",
    "Tailscale auth key",
    ["TS_AUTHKEY", "TAILSCALE_AUTHKEY"],
    lambda: "tskey-" + pick(["auth", "api"]) + "-k" + rc(10) + "CNTRL-" + rc(33),
    ["tailscale up --authkey={v}"],
)
spec(
    "ngrok_authtoken",
    "27 + `_` + 21",
    "ngrok authtoken",
    ["NGROK_AUTHTOKEN"],
    lambda: rc(27) + "_" + rc(21),
    ["ngrok config add-authtoken {v}"],
)
spec(
    "consul_acl_token",
    "UUID ACL secret id (name or `X-Consul-Token`)",
    "Consul ACL token",
    ["CONSUL_HTTP_TOKEN"],
    uuid4,
    ['curl -H "X-Consul-Token: {v}" http://127.0.0.1:8500/v1/kv/app'],
)
spec(
    "databricks_token",
    "`dapi` + 32 hex",
    "Databricks token",
    ["DATABRICKS_TOKEN"],
    lambda: "dapi" + hx(32) + pick(["", "-2", "-3"]),
    [],
)
spec("replicate_api_token", "`r8_` + 37", "Replicate API token", ["REPLICATE_API_TOKEN"], lambda: "r8_" + rc(37), [])
spec("mistral_api_key", "32 alphanumerics (name only)", "Mistral API key", ["MISTRAL_API_KEY"], lambda: rc(32), [])
spec(
    "cohere_api_key",
    "40 alphanumerics (name only)",
    "Cohere API key",
    ["COHERE_API_KEY", "CO_API_KEY"],
    lambda: rc(40),
    [],
)
spec("perplexity_api_key", "`pplx-` + 48", "Perplexity API key", ["PERPLEXITY_API_KEY"], lambda: "pplx-" + rc(48), [])
spec("xai_api_key", "`xai-` + 80", "xAI API key", ["XAI_API_KEY"], lambda: "xai-" + rc(80), [])
spec(
    "openrouter_api_key",
    "`sk-or-v1-` + 64 hex",
    "OpenRouter key",
    ["OPENROUTER_API_KEY"],
    lambda: "sk-or-v1-" + hx(64),
    [],
)
spec(
    "langsmith_api_key",
    "`lsv2_pt_` / `lsv2_sk_` + 32 hex + `_` + 10 hex",
    "LangSmith key",
    ["LANGSMITH_API_KEY", "LANGCHAIN_API_KEY"],
    lambda: pick(["lsv2_pt_", "lsv2_sk_"]) + hx(32) + "_" + hx(10),
    [],
)
spec(
    "pinecone_api_key",
    "`pcsk_` + 6 + `_` + 63 base58",
    "Pinecone API key",
    ["PINECONE_API_KEY"],
    lambda: "pcsk_" + rc(6, B58) + "_" + rc(63, B58),
    [],
)
spec(
    "wandb_api_key",
    "40 hex (name only)",
    "Weights & Biases key",
    ["WANDB_API_KEY"],
    lambda: hx(40),
    ["wandb login {v}"],
)
spec(
    "elevenlabs_api_key",
    "`sk_` + 48 hex",
    "ElevenLabs key",
    ["ELEVENLABS_API_KEY", "XI_API_KEY"],
    lambda: "sk_" + hx(48),
    ['curl -H "xi-api-key: {v}" https://api.elevenlabs.io/v1/voices'],
)
spec(
    "deepgram_api_key",
    "40 hex (name or `Token `)",
    "Deepgram API key",
    ["DEEPGRAM_API_KEY"],
    lambda: hx(40),
    ['curl -H "Authorization: Token {v}" https://api.deepgram.com/v1/projects'],
)
spec(
    "square_access_token",
    "`EAAA` + 60",
    "Square access token",
    ["SQUARE_ACCESS_TOKEN"],
    lambda: "EAAA" + rc(60, ALNUM + "-_"),
    [],
)
spec(
    "braintree_access_token",
    "`access_token$production$` + 16 + `$` + 32 hex",
    "Braintree access token",
    ["BRAINTREE_ACCESS_TOKEN"],
    lambda: "access_token$production$" + rc(16, LO + DIG) + "$" + hx(32),
    [],
)
spec("mollie_api_key", "`live_` + 30", "Mollie live API key", ["MOLLIE_API_KEY"], lambda: "live_" + rc(30), [])
spec(
    "flutterwave_secret_key",
    "`FLWSECK-` + 32 hex + `-X`",
    "Flutterwave secret key",
    ["FLW_SECRET_KEY"],
    lambda: "FLWSECK-" + hx(32) + "-X",
    [],
)
spec(
    "paystack_secret_key",
    "`sk_live_` + 40 hex",
    "Paystack secret key",
    ["PAYSTACK_SECRET_KEY"],
    lambda: "sk_live_" + hx(40),
    [],
)
spec("plaid_secret", "30 hex (name only)", "Plaid secret", ["PLAID_SECRET"], lambda: hx(30), [])
spec(
    "shippo_api_token",
    "`shippo_live_` + 40 hex",
    "Shippo token",
    ["SHIPPO_API_TOKEN"],
    lambda: "shippo_live_" + hx(40),
    ['curl -H "Authorization: ShippoToken {v}" https://api.goshippo.com/addresses/'],
)
spec(
    "brevo_api_key",
    "`xkeysib-` + 64 hex + `-` + 16",
    "Brevo API key",
    ["BREVO_API_KEY", "SENDINBLUE_API_KEY"],
    lambda: "xkeysib-" + hx(64) + "-" + rc(16),
    [],
)
spec(
    "postmark_server_token",
    "UUID server token",
    "Postmark server token",
    ["POSTMARK_SERVER_TOKEN"],
    uuid4,
    ['curl -H "X-Postmark-Server-Token: {v}" https://api.postmarkapp.com/server'],
)
spec(
    "resend_api_key",
    "`re_` + 8 + `_` + 24",
    "Resend API key",
    ["RESEND_API_KEY"],
    lambda: "re_" + rc(8) + "_" + rc(24),
    [],
)
spec(
    "mailchimp_api_key",
    "32 hex + `-us<N>`",
    "Mailchimp API key",
    ["MAILCHIMP_API_KEY"],
    lambda: hx(32) + "-us" + str(R.randrange(1, 21)),
    [],
)
spec(
    "vonage_api_secret",
    "16 alphanumerics (name only)",
    "Vonage API secret",
    ["VONAGE_API_SECRET", "NEXMO_API_SECRET"],
    lambda: rc(16),
    [],
)
spec("pusher_app_secret", "20 hex (name only)", "Pusher app secret", ["PUSHER_APP_SECRET"], lambda: hx(20), [])
spec(
    "zendesk_api_token",
    "40 alphanumerics (name only)",
    "Zendesk API token",
    ["ZENDESK_API_TOKEN"],
    lambda: rc(40),
    ["curl -u ops@fernhill.dev/token:{v} https://fernhill.zendesk.com/api/v2/tickets.json"],
)
spec(
    "hubspot_private_app_token",
    "`pat-na1-` / `pat-eu1-` + UUID",
    "HubSpot private app token",
    ["HUBSPOT_ACCESS_TOKEN"],
    lambda: pick(["pat-na1-", "pat-eu1-"]) + uuid4(),
    [],
)
spec(
    "airtable_pat",
    "`pat` + 14 + `.` + 64 hex",
    "Airtable token",
    ["AIRTABLE_TOKEN"],
    lambda: "pat" + rc(14) + "." + hx(64),
    [],
)
spec(
    "asana_pat",
    "`2/` + 16 digits + `/` + 16 digits + `:` + 32 hex",
    "Asana PAT",
    ["ASANA_TOKEN"],
    lambda: f"2/{rc(16, DIG)}/{rc(16, DIG)}:{hx(32)}",
    [],
)
spec(
    "figma_pat",
    "`figd_` + 40",
    "Figma token",
    ["FIGMA_TOKEN"],
    lambda: "figd_" + rc(40, ALNUM + "-_"),
    ['curl -H "X-Figma-Token: {v}" https://api.figma.com/v1/me'],
)
spec(
    "bitbucket_app_password",
    "`ATBB` + 32 + 8 hex",
    "Bitbucket app password",
    ["BITBUCKET_APP_PASSWORD"],
    lambda: "ATBB" + rc(32) + hx(8).upper(),
    [],
)
spec(
    "azure_devops_pat",
    "52 characters `[a-z2-7]`",
    "Azure DevOps PAT",
    ["AZURE_DEVOPS_EXT_PAT", "ADO_PAT"],
    lambda: rc(52, LO[:26] + "234567"),
    [],
)
spec(
    "contentful_management_token",
    "`CFPAT-` + 43",
    "Contentful management token",
    ["CONTENTFUL_MANAGEMENT_TOKEN"],
    lambda: "CFPAT-" + rc(43, ALNUM + "-_"),
    [],
)
spec(
    "launchdarkly_sdk_key",
    "`sdk-` + UUID server-side SDK key",
    "LaunchDarkly server SDK key",
    ["LAUNCHDARKLY_SDK_KEY", "LD_SDK_KEY"],
    lambda: "sdk-" + uuid4(),
    [],
)
spec("snyk_api_token", "UUID (name only)", "Snyk API token", ["SNYK_TOKEN"], uuid4, ["snyk auth {v}"])
spec(
    "sourcegraph_token",
    "`sgp_` + 16 hex + `_` + 40 hex",
    "Sourcegraph access token",
    ["SRC_ACCESS_TOKEN"],
    lambda: "sgp_" + hx(16) + "_" + hx(40),
    [],
)
spec(
    "codecov_token",
    "UUID upload token (name only)",
    "Codecov upload token",
    ["CODECOV_TOKEN"],
    uuid4,
    ["codecov upload-process -t {v}"],
)
spec(
    "docker_swarm_join_token",
    "`SWMTKN-1-` + 50 + `-` + 25 base36",
    "Docker Swarm join token",
    ["SWARM_JOIN_TOKEN"],
    lambda: "SWMTKN-1-" + rc(50, LO + DIG) + "-" + rc(25, LO + DIG),
    ["docker swarm join --token {v} 10.0.0.5:2377"],
)
spec(
    "kubeadm_bootstrap_token",
    "`[a-z0-9]{6}.[a-z0-9]{16}`",
    "kubeadm bootstrap token",
    ["KUBEADM_TOKEN", "BOOTSTRAP_TOKEN"],
    lambda: rc(6, LO + DIG) + "." + rc(16, LO + DIG),
    ["kubeadm join 10.0.0.10:6443 --token {v} --discovery-token-unsafe-skip-ca-verification"],
)
spec(
    "k3s_cluster_token",
    "`K10` + 64 hex + `::server:` + 32 hex",
    "k3s cluster token",
    ["K3S_TOKEN"],
    lambda: "K10" + hx(64) + "::server:" + hx(32),
    ["curl -sfL https://get.k3s.io | K3S_URL=https://10.0.0.2:6443 K3S_TOKEN={v} sh -"],
)
spec(
    "erlang_cookie",
    "20 upper-case letters (RabbitMQ / Erlang distribution cookie)",
    "Erlang cookie",
    ["RABBITMQ_ERLANG_COOKIE", "ERLANG_COOKIE"],
    lambda: rc(20, UP),
    [],
)
spec(
    "minio_secret_key",
    "MinIO root password / secret key (40)",
    "MinIO secret key",
    ["MINIO_ROOT_PASSWORD", "MINIO_SECRET_KEY"],
    lambda: rc(40, ALNUM + "+/"),
    ["mc alias set prod https://s3.fernhill.dev minioadmin {v}"],
)
spec(
    "influxdb_token",
    "86 characters base64url + `==`",
    "InfluxDB API token",
    ["INFLUX_TOKEN", "INFLUXDB_TOKEN"],
    lambda: rc(86, B64U) + "==",
    ['influx query --token "{v}" "from(bucket:\\"metrics\\") |> range(start:-1h)"'],
)
spec(
    "nats_nkey_seed",
    "`SU` + 56 base32 user seed",
    "NATS nkey seed",
    ["NATS_NKEY_SEED"],
    lambda: "SUA" + rc(55, B32),
    [],
)
spec(
    "aiven_service_password",
    "`AVNS_` + 19",
    "Aiven service password",
    ["AIVEN_DB_PASSWORD"],
    lambda: "AVNS_" + rc(19, ALNUM + "-_"),
    [],
)
spec(
    "yandex_cloud_api_key",
    "`AQVN` + 36",
    "Yandex Cloud API key",
    ["YC_API_KEY"],
    lambda: "AQVN" + rc(36, ALNUM + "-_"),
    ['curl -H "Authorization: Api-Key {v}" https://llm.api.cloud.yandex.net/foundationModels/v1/completion'],
)
spec(
    "dropbox_access_token",
    "`sl.` + 135",
    "Dropbox access token",
    ["DROPBOX_ACCESS_TOKEN"],
    lambda: "sl." + rc(135, ALNUM + "-_"),
    [],
)
spec(
    "ibm_cloud_api_key",
    "44 characters (name only)",
    "IBM Cloud API key",
    ["IBMCLOUD_API_KEY"],
    lambda: rc(44, ALNUM + "-_"),
    ["ibmcloud login --apikey {v}"],
)
spec("hetzner_cloud_token", "64 alphanumerics (name only)", "Hetzner Cloud token", ["HCLOUD_TOKEN"], lambda: rc(64), [])
spec("linode_token", "64 hex (name only)", "Linode token", ["LINODE_TOKEN"], lambda: hx(64), [])
spec(
    "vercel_token",
    "24 alphanumerics (name only)",
    "Vercel token",
    ["VERCEL_TOKEN"],
    lambda: rc(24),
    ["vercel deploy --prod --token {v}"],
)
spec(
    "elastic_api_key",
    "base64(`id:api_key`) after `ApiKey `",
    "Elasticsearch API key",
    ["ELASTIC_API_KEY", "ES_API_KEY"],
    lambda: b64(f"{rc(20, B64U)}:{rc(22, B64U)}".encode()),
    ['curl -H "Authorization: ApiKey {v}" https://es.fernhill.dev:9200/_cat/indices'],
)
spec(
    "age_secret_key",
    "`AGE-SECRET-KEY-1` + bech32",
    "age identity",
    ["SOPS_AGE_KEY", "AGE_KEY"],
    lambda: bech32("age-secret-key-", to5(rb(32))).upper(),
    [],
)
spec(
    "wireguard_private_key",
    "base64 X25519 private key",
    "WireGuard private key",
    ["PrivateKey", "WG_PRIVATE_KEY"],
    lambda: b64(rb(32)),
    [],
)
spec(
    "ethereum_private_key",
    "64 hex (optionally `0x`) under a private-key name",
    "wallet private key",
    ["ETH_PRIVATE_KEY", "DEPLOYER_PRIVATE_KEY"],
    lambda: pick(["0x", ""]) + hx(64),
    ["forge script Deploy --private-key {v} --broadcast"],
)
spec(
    "bitcoin_wif_private_key",
    "WIF compressed key (base58check, `K` / `L`)",
    "bitcoin WIF key",
    ["BTC_WIF", "WALLET_WIF"],
    lambda: b58check(b"\x80" + rb(32) + b"\x01"),
    [],
)
spec(
    "onepassword_service_token",
    "`ops_` + base64url JSON",
    "1Password service-account token",
    ["OP_SERVICE_ACCOUNT_TOKEN"],
    lambda: (
        "ops_"
        + b64u(
            json.dumps(
                {
                    "signInAddress": "fernhill.1password.com",
                    "userAuth": {
                        "method": "SRPg-4096",
                        "alg": "PBES2g-HS256",
                        "iterations": 650000,
                        "salt": b64u(rb(16)),
                    },
                    "email": rc(26, LO + DIG) + "@1passwordserviceaccounts.com",
                    "srpX": hx(64),
                    "muk": {
                        "alg": "A256GCM",
                        "ext": True,
                        "k": b64u(rb(32)),
                        "key_ops": ["encrypt", "decrypt"],
                        "kty": "oct",
                        "kid": "mp",
                    },
                    "secretKey": "A3-" + rc(6, UP + DIG) + "-" + rc(6, UP + DIG),
                    "throttleSecret": {"seed": hx(64), "uuid": rc(26, UP + DIG)},
                    "deviceUuid": rc(26, LO + DIG),
                },
                separators=(",", ":"),
            ).encode()
        )
    ),
    [],
)
spec(
    "google_oauth_access_token",
    "`ya29.` OAuth access token",
    "Google OAuth access token",
    ["GOOGLE_ACCESS_TOKEN"],
    lambda: "ya29." + rc(150, ALNUM + "-_"),
    [BEARER_CURL + "https://www.googleapis.com/drive/v3/files"],
)


def dsn_gen(kind: str, desc: str, envname: str, urls: list[str], cli: list[str]) -> Callable[[], Item]:
    def gen() -> Item:
        pw = S(kind, rand_password(R.randrange(12, 24)).replace("%", "x").replace("^", "y"))
        u, h = pick(USERS), pick(HOSTS)
        url = sub(pick(urls), pw).replace("{u}", u).replace("{h}", h)
        fields = (
            [(envname, url)]
            if R.random() < 0.7
            else [(envname.replace("URL", "PASSWORD").replace("URI", "PASSWORD"), pw)]
        )
        return item(fields, desc, [sub(c, pw).replace("{u}", u).replace("{h}", h) for c in cli])

    return gen


SPECIAL: dict[str, tuple[str, str, Callable[[], Item]]] = {}


def special(kind: str, fmt: str, common: bool = False) -> Callable[[Callable[[], Item]], Callable[[], Item]]:
    def deco(fn: Callable[[], Item]) -> Callable[[], Item]:
        SPECIAL[kind] = (fmt, "", fn)
        if common:
            COMMON.append(kind)
        return fn

    return deco


def add_dsn(  # noqa: PLR0917 -- one table row per call reads best positionally
    kind: str, fmt: str, desc: str, env: str, urls: list[str], cli: list[str], common: bool = False
) -> None:
    special(kind, fmt, common)(dsn_gen(kind, desc, env, urls, cli))


add_dsn(
    "postgres_password",
    "password in `postgres://` URLs, libpq / JDBC strings, `PGPASSWORD`",
    "Postgres password",
    "DATABASE_URL",
    [
        "postgres://{u}:{v}@{h}:5432/orders",
        "postgresql://{u}:{v}@{h}/ledger?sslmode=require",
        "host={h} port=5432 dbname=app user={u} password={v}",
        "jdbc:postgresql://{h}:5432/app?user={u}&password={v}",
    ],
    ["PGPASSWORD='{v}' psql -h {h} -U {u} -d orders", 'psql "postgresql://{u}:{v}@{h}:5432/orders"'],
    True,
)
add_dsn(
    "mysql_password",
    "password in `mysql://` URLs, Go DSNs, JDBC",
    "MySQL password",
    "MYSQL_URL",
    [
        "mysql://{u}:{v}@{h}:3306/shop",
        "{u}:{v}@tcp({h}:3306)/shop?parseTime=true",
        "jdbc:mysql://{h}:3306/shop?user={u}&password={v}",
    ],
    ["mysql -h {h} -u {u} -p'{v}' shop"],
    True,
)
add_dsn(
    "mongodb_password",
    "password in `mongodb://` / `mongodb+srv://` URIs",
    "MongoDB password",
    "MONGODB_URI",
    ["mongodb+srv://{u}:{v}@cluster0.ab1cd.mongodb.net/app?retryWrites=true", "mongodb://{u}:{v}@{h}:27017/admin"],
    ['mongosh "mongodb://{u}:{v}@{h}:27017/admin"'],
    True,
)
add_dsn(
    "redis_password",
    "password in `redis://` / `rediss://` URLs, `requirepass`",
    "Redis password",
    "REDIS_URL",
    ["redis://default:{v}@{h}:6379/0", "rediss://:{v}@{h}:6380"],
    ["redis-cli -h {h} -a '{v}' ping"],
    True,
)
add_dsn(
    "mssql_password",
    "password in ADO.NET strings, `sqlcmd -P`",
    "SQL Server password",
    "MSSQL_CONNECTION_URL",
    [
        "Server={h},1433;Database=Billing;User Id={u};Password={v};TrustServerCertificate=True",
        "mssql+pyodbc://{u}:{v}@{h}/Billing?driver=ODBC+Driver+18+for+SQL+Server",
    ],
    ["sqlcmd -S {h} -U {u} -P '{v}' -Q 'SELECT 1'"],
)
add_dsn(
    "amqp_password",
    "password in `amqp://` / `amqps://` URLs",
    "RabbitMQ password",
    "AMQP_URL",
    ["amqps://{u}:{v}@{h}:5671/prod", "amqp://{u}:{v}@{h}:5672/%2f"],
    ["rabbitmqadmin -H {h} -u {u} -p '{v}' list queues"],
)
add_dsn(
    "snowflake_password",
    "password in `snowflake://` URLs, `SNOWSQL_PWD`",
    "Snowflake password",
    "SNOWFLAKE_URL",
    ["snowflake://{u}:{v}@xy12345.eu-central-1/ANALYTICS/PUBLIC?warehouse=WH_XS"],
    ["SNOWSQL_PWD='{v}' snowsql -a xy12345 -u {u}"],
)
add_dsn(
    "ldap_bind_password",
    "`ldapsearch -w`, `LDAP_BIND_PASSWORD`",
    "LDAP bind password",
    "LDAP_BIND_URL",
    ["ldaps://cn=svc-bind,dc=fernhill,dc=dev:{v}@{h}:636"],
    ["ldapsearch -H ldaps://{h} -D 'cn=svc-bind,dc=fernhill,dc=dev' -w '{v}' '(uid=jdoe)'"],
)
add_dsn(
    "kafka_sasl_password",
    "SASL password in `sasl.jaas.config`",
    "Kafka SASL password",
    "KAFKA_JAAS_URL",
    ['org.apache.kafka.common.security.plain.PlainLoginModule required username="{u}" password="{v}";'],
    [
        "kcat -b {h}:9093 -X security.protocol=SASL_SSL -X sasl.mechanisms=PLAIN -X sasl.username={u} -X sasl.password='{v}' -L"
    ],
)
add_dsn(
    "url_credential_password",
    "password in `https://user:pass@`, `ftp://`, proxy URLs, `curl -u`",
    "password in a URL",
    "PROXY_URL",
    [
        "http://{u}:{v}@proxy.corp.lan:3128",
        "ftp://{u}:{v}@files.fernhill.dev/outgoing",
        "https://{u}:{v}@nexus.fernhill.dev/repository/pypi/simple",
    ],
    ["curl -u {u}:'{v}' https://nexus.fernhill.dev/service/rest/v1/status"],
    True,
)


@special("aws_access_key_id", "`AKIA` / `ASIA` + 16 base32 (labelled: travels with its secret)", True)
def g_aws() -> Item:
    kid = S("aws_access_key_id", "AKIA" + rc(16, B32))
    sec = S("aws_secret_access_key", rc(40, ALNUM + "+/"))
    return item(
        [("AWS_ACCESS_KEY_ID", kid), ("AWS_SECRET_ACCESS_KEY", sec)],
        "AWS access key",
        [f"AWS_ACCESS_KEY_ID={kid} AWS_SECRET_ACCESS_KEY={sec} aws s3 ls s3://fernhill-backups"],
    )


SPECIAL["aws_secret_access_key"] = ("40 characters of `[A-Za-z0-9+/]` next to its key id", "", g_aws)


@special("aws_session_token", "`IQoJb3JpZ2luX2Vj` + base64 STS session token")
def g_aws_sts() -> Item:
    kid = S("aws_access_key_id", "ASIA" + rc(16, B32))
    sec = S("aws_secret_access_key", rc(40, ALNUM + "+/"))
    tok = S("aws_session_token", "IQoJb3JpZ2luX2Vj" + rc(R.randrange(300, 400), ALNUM + "+/") + "=")
    return item(
        [("AWS_ACCESS_KEY_ID", kid), ("AWS_SECRET_ACCESS_KEY", sec), ("AWS_SESSION_TOKEN", tok)],
        "temporary AWS credentials",
    )


@special("gcp_service_account_key", "PKCS #8 RSA key inside service-account JSON", True)
def g_gcp() -> Item:
    proj = pick(["fernhill-prod", "quill-data-42", "ops-sandbox-7"])
    sa = {
        "type": "service_account",
        "project_id": proj,
        "private_key_id": L("key_identifier", hx(40)),
        "private_key": S("gcp_service_account_key", rsa_pem(True) + "\n"),
        "client_email": f"deployer@{proj}.iam.gserviceaccount.com",
        "client_id": rc(21, DIG),
    }
    return item([("GOOGLE_CREDENTIALS_JSON", json.dumps(sa, ensure_ascii=False))], "GCP service-account key")


@special("azure_sas_signature", "URL-encoded `sig=` value of a SAS URL")
def g_sas() -> Item:
    sig = S("azure_sas_signature", b64(rb(32)).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D"))
    url = f"https://fernhillbackups.blob.core.windows.net/exports?sv=2022-11-02&ss=b&srt=co&sp=rl&se=2027-01-01T00:00:00Z&spr=https&sig={sig}"
    return item([("AZURE_SAS_URL", url)], "Azure SAS URL", [f'azcopy copy "{url}" ./exports --recursive'])


@special("http_basic_auth", "base64(`user:password`) after `Basic `", True)
def g_basic() -> Item:
    v = S("http_basic_auth", b64(f"{pick(USERS)}:{rand_password(16)}".encode()))
    return item(
        [("BASIC_AUTH_HEADER", "Basic " + v)],
        "basic-auth header",
        [f'curl -H "Authorization: Basic {v}" https://registry.fernhill.dev/v2/_catalog'],
    )


def key_gen(kind: str, fn: Callable[[], str], desc: str, name: str) -> Callable[[], Item]:
    def gen() -> Item:
        return item([(name, S(kind, fn()))], desc)

    return gen


special("rsa_private_key", "2048-bit RSA key, PKCS #1 or PKCS #8 PEM", True)(
    key_gen("rsa_private_key", lambda: rsa_pem(R.random() < 0.4), "RSA private key", "TLS_PRIVATE_KEY")
)
special("ec_private_key", "P-256 key, SEC 1 or PKCS #8 PEM", True)(
    key_gen("ec_private_key", lambda: ec_pem(R.random() < 0.4), "EC private key", "SIGNING_KEY_PEM")
)
special("ed25519_private_key", "PKCS #8 Ed25519 PEM")(
    key_gen("ed25519_private_key", ed25519_pem, "Ed25519 private key", "ED25519_KEY")
)
special("openssh_private_key", "`openssh-key-v1` Ed25519 key", True)(
    key_gen("openssh_private_key", openssh_ed25519, "deploy SSH key", "DEPLOY_SSH_KEY")
)
special("pgp_private_key", "armored PGP private key with a CRC-24 line")(
    key_gen("pgp_private_key", pgp_private, "release signing key", "GPG_PRIVATE_KEY")
)


@special("msteams_webhook_url", "whole `*.webhook.office.com/webhookb2/...` URL")
def g_teams() -> Item:
    u = f"https://fernhill.webhook.office.com/webhookb2/{uuid4()}@{uuid4()}/IncomingWebhook/{hx(32)}/{uuid4()}/V2{rc(43, ALNUM + '-_')}"
    return item([("TEAMS_WEBHOOK_URL", S("msteams_webhook_url", u))], "Teams webhook")


@special("google_chat_webhook_url", "whole `chat.googleapis.com/v1/spaces/...` URL")
def g_gchat() -> Item:
    u = f"https://chat.googleapis.com/v1/spaces/AAAA{rc(7, ALNUM + '-_')}/messages?key=AIza{rc(35, ALNUM + '-_')}&token={rc(43, ALNUM + '-_')}%3D"
    return item([("GCHAT_WEBHOOK", S("google_chat_webhook_url", u))], "Google Chat webhook")


@special("docker_registry_auth", "base64(`user:password`) `auth` in `~/.docker/config.json`")
def g_docker_auth() -> Item:
    v = S("docker_registry_auth", b64(f"{pick(['ci-bot', 'fern', 'robot$deploy'])}:{rand_password(20)}".encode()))
    cfg = '{"auths": {"registry.fernhill.dev": {"auth": "' + v + '"}}}'
    return item([("DOCKER_AUTH_CONFIG", cfg)], "registry auth")


@special("confluent_api_key", "16 upper-case alphanumerics Confluent Cloud key (labelled: travels with its secret)")
def g_confluent() -> Item:
    k = S("confluent_api_key", rc(16, UP + DIG))
    s = S("confluent_api_secret", rc(64, ALNUM + "+/"))
    return item([("CONFLUENT_API_KEY", k), ("CONFLUENT_API_SECRET", s)], "Confluent Cloud key")


SPECIAL["confluent_api_secret"] = ("64 characters next to its key", "", g_confluent)


@special("razorpay_key_secret", "24 alphanumerics (the `rzp_live_` key id is a look-alike)")
def g_razor() -> Item:
    return item(
        [
            ("RAZORPAY_KEY_ID", L("public_client_key", "rzp_live_" + rc(14))),
            ("RAZORPAY_KEY_SECRET", S("razorpay_key_secret", rc(24))),
        ],
        "Razorpay key pair",
    )


@special("cloudinary_api_secret", "secret inside `cloudinary://<key>:<secret>@<cloud>`")
def g_cloudinary() -> Item:
    return item(
        [("CLOUDINARY_URL", f"cloudinary://{rc(15, DIG)}:{S('cloudinary_api_secret', rc(27, ALNUM + '-_'))}@fernhill")],
        "Cloudinary URL",
    )


@special("alibaba_access_key_id", "`LTAI` + 20 (labelled: travels with its secret)")
def g_ali() -> Item:
    return item(
        [
            ("ALIBABA_CLOUD_ACCESS_KEY_ID", S("alibaba_access_key_id", "LTAI" + rc(20))),
            ("ALIBABA_CLOUD_ACCESS_KEY_SECRET", S("alibaba_access_key_secret", rc(30))),
        ],
        "Alibaba Cloud key",
    )


SPECIAL["alibaba_access_key_secret"] = ("30 alphanumerics next to its `LTAI` id", "", g_ali)


@special("scaleway_secret_key", "UUID secret key next to its `SCW` access key (both labelled)")
def g_scw() -> Item:
    return item(
        [
            ("SCW_ACCESS_KEY", S("scaleway_access_key", "SCW" + rc(17, UP + DIG))),
            ("SCW_SECRET_KEY", S("scaleway_secret_key", uuid4())),
        ],
        "Scaleway key",
    )


SPECIAL["scaleway_access_key"] = ("`SCW` + 17 (labelled: travels with its secret)", "", g_scw)


@special("plivo_auth_token", "40 alphanumerics (the `MA...` auth id is a look-alike)")
def g_plivo() -> Item:
    return item(
        [
            ("PLIVO_AUTH_ID", L("account_identifier", "MA" + rc(18, UP + DIG))),
            ("PLIVO_AUTH_TOKEN", S("plivo_auth_token", rc(40))),
        ],
        "Plivo credentials",
    )


@special("algolia_admin_key", "32 hex admin key (the app id is a look-alike)")
def g_algolia() -> Item:
    return item(
        [
            ("ALGOLIA_APP_ID", L("account_identifier", rc(10, UP + DIG))),
            ("ALGOLIA_ADMIN_KEY", S("algolia_admin_key", hx(32))),
        ],
        "Algolia admin key",
    )


@special("twilio_api_key_secret", "`SK` + 32 hex key sid (labelled) with its 32-character secret")
def g_twilio_key() -> Item:
    return item(
        [
            ("TWILIO_ACCOUNT_SID", L("account_identifier", "AC" + hx(32))),
            ("TWILIO_API_KEY", S("twilio_api_key_secret", "SK" + hx(32))),
            ("TWILIO_API_SECRET", S("twilio_api_key_secret", rc(32))),
        ],
        "Twilio API key",
    )


SECRET_GENS: dict[str, Callable[[], Item]] = {k: simple_gen(k) for k in SPECS}
for _k, (_f, _d, _fn) in SPECIAL.items():
    SECRET_GENS[_k] = _fn
SECRET_FORMATS = {k: v[0] for k, v in SPECS.items()} | {k: v[0] for k, v in SPECIAL.items()}
SECRET_FORMATS["twilio_api_key_secret"] = "`SK` + 32 hex API key sid and its 32-character secret (both labelled)"
# generators whose items carry a second kind: the queue draws only the first
QUEUE_SKIP = {"aws_secret_access_key", "confluent_api_secret", "alibaba_access_key_secret", "scaleway_access_key"}
COMMON += [
    "supabase_access_token",
    "netlify_token",
    "vercel_token",
    "databricks_token",
    "mailchimp_api_key",
    "hubspot_private_app_token",
    "wandb_api_key",
    "pinecone_api_key",
    "langsmith_api_key",
    "mistral_api_key",
    "cohere_api_key",
    "airtable_pat",
    "figma_pat",
    "azure_devops_pat",
    "elastic_api_key",
    "mssql_password",
    "amqp_password",
    "circleci_token",
    "sonarqube_token",
    "jfrog_token",
    "newrelic_license_key",
    "grafana_service_account_token",
    "okta_api_token",
    "tailscale_key",
    "ngrok_authtoken",
    "postmark_server_token",
    "square_access_token",
    "replicate_api_token",
]


# ---------------------------------------------------------------- look-alike kinds


def iban() -> str:
    cc, blen = pick([("DE", 18), ("NL", 14), ("FR", 23), ("GB", 18), ("ES", 20)])
    bban = (pick(["ABNA", "RABO", "NWBK", "INGB"]) + rc(blen - 4, DIG)) if cc in ("NL", "GB") else rc(blen, DIG)
    num = "".join(str(int(c, 36)) for c in bban + cc + "00")
    return f"{cc}{98 - int(num) % 97:02d}{bban}"


def isbn13() -> str:
    d = "978" + rc(9, DIG)
    s = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(d))
    return d + str((10 - s % 10) % 10)


def ulid() -> str:
    return rc(1, "01") + rc(25, "0123456789ABCDEFGHJKMNPQRSTVWXYZ")


LOOKS: dict[str, tuple[str, list[str], Callable[[], str]]] = {
    "aws_example_key": (
        "AWS documentation keys ending in `EXAMPLE`",
        ["AWS_ACCESS_KEY_ID", "EXAMPLE_SECRET"],
        lambda: pick(
            [
                "AKIAIOSFODNN7EXAMPLE",
                "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                "AKIAI44QH8DHBEXAMPLE",
                "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY",
            ]
        ),
    ),
    "placeholder": (
        "placeholders (`<your-api-key>`, `changeme`, `REPLACE_ME`)",
        ["API_KEY", "PASSWORD", "TOKEN"],
        lambda: pick(
            [
                "<your-api-key>",
                "changeme",
                "REPLACE_ME",
                "xxxxxxxxxxxxxxxxxxxxxxxx",
                "YOUR_TOKEN_HERE",
                "<paste-token>",
                "dummy-password",
                "TODO-set-me",
            ]
        ),
    ),
    "template_reference": (
        "template expressions (`${{ secrets.X }}`, Helm, Jinja, Terraform)",
        ["API_TOKEN", "DB_PASSWORD"],
        lambda: pick(
            [
                "${{ secrets.DEPLOY_TOKEN }}",
                "{{ .Values.db.password }}",
                "{{ vault_api_key }}",
                "${var.db_password}",
                "$(SonarToken)",
                '{{ env "STRIPE_KEY" }}',
                "${{ secrets.NPM_TOKEN }}",
            ]
        ),
    ),
    "env_reference": (
        "environment-variable references",
        ["TOKEN", "PASSWORD"],
        lambda: pick(
            [
                "${DB_PASSWORD}",
                "$API_TOKEN",
                "%SMTP_PASS%",
                "os.environ['OPENAI_API_KEY']",
                "process.env.STRIPE_SECRET_KEY",
                'System.getenv("JWT_SECRET")',
                "ENV.fetch('REDIS_URL')",
                'env::var("GH_TOKEN")',
            ]
        ),
    ),
    "secret_manager_reference": (
        "secret-manager paths (`op://`, Vault, AWS, GCP, Azure, SSM)",
        ["SECRET_REF", "PASSWORD_FROM"],
        lambda: pick(
            [
                "op://Prod/stripe/secret-key",
                "vault:secret/data/payments#api_key",
                f"arn:aws:secretsmanager:eu-west-1:{rc(12, DIG)}:secret:prod/db-{rc(6)}",
                f"projects/{rc(12, DIG)}/secrets/smtp-password/versions/latest",
                "https://kv-fernhill.vault.azure.net/secrets/sql-admin",
                "ssm:/prod/api/jwt_secret",
            ]
        ),
    ),
    "masked_value": (
        "masked or redacted values",
        ["API_KEY", "TOKEN"],
        lambda: pick(
            [
                "sk_live_" + "*" * 20 + rc(4),
                "********",
                "[REDACTED]",
                "ghp_" + "*" * 32 + rc(4),
                "xoxb-****-****",
                "••••••••" + rc(4, DIG),
                "<hidden>",
            ]
        ),
    ),
    "git_sha": (
        "commit SHAs",
        ["GIT_COMMIT", "REVISION"],
        lambda: hx(40) if R.random() < 0.6 else hx(R.randrange(7, 13)),
    ),
    "sha256_checksum": ("SHA-256 digests of files", ["SHA256", "CHECKSUM"], lambda: hx(64)),
    "md5_or_etag": (
        "MD5 checksums and S3 ETags",
        ["ETAG", "MD5"],
        lambda: hx(32) + pick(["", "-" + str(R.randrange(2, 40))]),
    ),
    "container_digest": ("`sha256:` image digests", ["IMAGE_DIGEST"], lambda: "sha256:" + hx(64)),
    "uuid": ("UUIDs used as ids", ["ORDER_ID", "WORKSPACE_ID", "JOB_ID"], uuid4),
    "request_id": (
        "request ids (`req_`, `x-amz-request-id`, CF ray)",
        ["REQUEST_ID"],
        lambda: pick(["req_" + rc(14), rc(16, UP + DIG), hx(16) + "-" + pick(["FRA", "AMS", "IAD"])]),
    ),
    "trace_id": (
        "W3C traceparent and X-Ray ids",
        ["TRACEPARENT", "TRACE_ID"],
        lambda: pick([f"00-{hx(32)}-{hx(16)}-01", f"1-{hx(8)}-{hx(24)}", hx(32)]),
    ),
    "account_identifier": (
        "account ids (AWS account, Twilio SID, Stripe `acct_`, Slack team)",
        ["ACCOUNT_ID", "TEAM_ID"],
        lambda: pick([rc(12, DIG), "AC" + hx(32), "acct_" + rc(16), "T" + rc(10, UP + DIG)]),
    ),
    "oauth_client_id": (
        "OAuth client ids (Google, GitHub, Entra, Auth0)",
        ["CLIENT_ID", "OAUTH_CLIENT_ID"],
        lambda: pick(
            [
                f"{rc(12, DIG)}-{rc(32, LO + DIG)}.apps.googleusercontent.com",
                "Iv1." + hx(16),
                "Ov23li" + rc(14),
                uuid4(),
                rc(32),
            ]
        ),
    ),
    "tenant_id": ("Entra directory (tenant) ids", ["AZURE_TENANT_ID", "TENANT_ID"], uuid4),
    "public_key_pem": ("`BEGIN PUBLIC KEY` PEM", ["JWT_PUBLIC_KEY", "VERIFY_KEY"], spki_pem),
    "certificate": ("X.509 certificates (PEM)", ["TLS_CERT", "CA_CERT"], cert_pem),
    "ssh_public_key": ("`ssh-ed25519` public keys", ["AUTHORIZED_KEY", "SSH_PUBKEY"], ssh_pubkey),
    "stripe_publishable_key": (
        "`pk_live_` publishable keys",
        ["STRIPE_PUBLISHABLE_KEY", "NEXT_PUBLIC_STRIPE_KEY"],
        lambda: "pk_live_" + (rc(24) if R.random() < 0.4 else "51" + rc(97)),
    ),
    "public_site_key": (
        "site keys: Mapbox `pk.`, reCAPTCHA, Turnstile",
        ["SITE_KEY", "MAPBOX_PUBLIC_TOKEN"],
        lambda: pick(
            [
                "pk." + b64u(json.dumps({"u": "fernhill", "a": rc(25, LO + DIG)}).encode()) + "." + rc(22, B64U),
                "6L" + rc(38, ALNUM + "-_"),
                "0x4AAAAAAA" + rc(14, ALNUM + "-_"),
            ]
        ),
    ),
    "firebase_web_api_key": (
        "`AIza` key in a Firebase web config",
        ["FIREBASE_API_KEY", "apiKey"],
        lambda: "AIza" + rc(35, ALNUM + "-_"),
    ),
    "public_client_key": (
        "client-side keys: PostHog `phc_`, Segment, Langfuse `pk-lf-`, `rzp_live_`",
        ["POSTHOG_KEY", "SEGMENT_WRITE_KEY", "LANGFUSE_PUBLIC_KEY"],
        lambda: pick(["phc_" + rc(43), rc(32), "pk-lf-" + uuid4(), hx(24)]),
    ),
    "base64_text": (
        "base64 of ordinary text",
        ["PAYLOAD", "BANNER"],
        lambda: b64(
            pick(
                [
                    "hello from the staging cluster",
                    '{"feature":"dark-mode","enabled":true}',
                    "user=guest;theme=solarized",
                    "see you at the retro on friday",
                    "[core]\n\tautocrlf = input",
                ]
            ).encode()
        ),
    ),
    "k8s_pod_name": (
        "pod names with ReplicaSet suffixes",
        ["POD"],
        lambda: (
            pick(["api", "worker", "billing-sync", "ingest", "web"])
            + "-"
            + rc(10, "bcdfghjklmnpqrstvwxz2456789")
            + "-"
            + rc(5, "bcdfghjklmnpqrstvwxz2456789")
        ),
    ),
    "long_identifier": (
        "long identifiers (test and function names)",
        ["TEST_NAME"],
        lambda: (
            pick(["test_", "should_", "handle_"])
            + "_".join(
                pick(
                    [
                        "refund",
                        "partial",
                        "capture",
                        "webhook",
                        "retry",
                        "idempotent",
                        "ledger",
                        "currency",
                        "rounding",
                        "timeout",
                    ]
                )
                for _ in range(R.randrange(4, 7))
            )
        ),
    ),
    "semver": (
        "versions",
        ["VERSION", "APP_VERSION"],
        lambda: (
            f"{R.randrange(0, 15)}.{R.randrange(0, 40)}.{R.randrange(0, 30)}"
            + pick(["", "", "-rc." + str(R.randrange(1, 5)), "+build." + rc(6, DIG)])
        ),
    ),
    "timestamp": (
        "ISO-8601 timestamps and epoch milliseconds",
        ["CREATED_AT", "EXPIRES"],
        lambda: (
            f"2026-{R.randrange(1, 13):02d}-{R.randrange(1, 29):02d}T{R.randrange(24):02d}:{R.randrange(60):02d}:{R.randrange(60):02d}Z"
            if R.random() < 0.7
            else str(1767225600000 + R.randrange(10**10))
        ),
    ),
    "iban": ("IBANs with valid check digits", ["IBAN", "PAYOUT_IBAN"], iban),
    "isbn": ("ISBN-13 with valid check digits", ["ISBN"], isbn13),
    "crypto_address": (
        "bitcoin bech32 and Ethereum addresses",
        ["WALLET_ADDRESS", "PAYOUT_ADDRESS"],
        lambda: bech32("bc", [0, *to5(rb(20))]) if R.random() < 0.5 else "0x" + hx(40),
    ),
    "encrypted_value": (
        "SOPS `ENC[...]`, sealed secrets, Ansible Vault blobs",
        ["DB_PASSWORD", "API_KEY"],
        lambda: pick(
            [
                f"ENC[AES256_GCM,data:{b64(rb(24))},iv:{b64(rb(32))},tag:{b64(rb(16))},type:str]",
                "AgB" + rc(300, ALNUM + "+/") + "==",
                "$ANSIBLE_VAULT;1.1;AES256\n" + "\n".join(hx(80) for _ in range(4)),
            ]
        ),
    ),
    "documented_example": (
        "sample values from provider docs (Stripe test key, jwt.io token, authenticator example seed)",
        ["EXAMPLE_TOKEN", "DOCS_KEY"],
        lambda: pick(
            [
                "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
                "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
                "JBSWY3DPEHPK3PXP",
                "pk_test_TYooMQauvdEDq54NiTphI7jx",
            ]
        ),
    ),
    "password_hash": (
        "bcrypt, argon2id and sha512-crypt hashes",
        ["PASSWORD_HASH", "ADMIN_HASH"],
        lambda: pick(
            [
                "$2b$12$" + rc(53, ALNUM + "./"),
                f"$argon2id$v=19$m=65536,t=3,p=4${b64(rb(16)).rstrip('=')}${b64(rb(32)).rstrip('=')}",
                "$6$" + rc(16, ALNUM + "./") + "$" + rc(86, ALNUM + "./"),
            ]
        ),
    ),
    "npm_integrity": ("`sha512-` lockfile integrity", ["INTEGRITY"], lambda: "sha512-" + b64(rb(64))),
    "sri_integrity": ("`sha384-` subresource integrity", ["SRI"], lambda: "sha384-" + b64(rb(48))),
    "ulid": ("ULIDs", ["EVENT_ID"], ulid),
    "key_fingerprint": (
        "SSH `SHA256:` and MD5 fingerprints, PGP fingerprints",
        ["FINGERPRINT"],
        lambda: pick(["SHA256:" + b64(rb(32)).rstrip("="), ":".join(hx(2) for _ in range(16)), hx(40).upper()]),
    ),
    "key_identifier": (
        "key ids: KMS key ARNs, JWT `kid`, GPG long ids, GCP `private_key_id`",
        ["KMS_KEY_ID", "KID"],
        lambda: pick([f"arn:aws:kms:eu-west-1:{rc(12, DIG)}:key/{uuid4()}", hx(16).upper(), hx(40)]),
    ),
    "url": (
        "URLs without credentials",
        ["ENDPOINT", "BASE_URL"],
        lambda: pick(
            [
                "https://api.quillstack.io/v2/",
                "https://status.fernhill.dev/incidents/" + rc(8, LO + DIG),
                "http://localhost:8080/healthz",
                "https://grafana.fernhill.dev/d/" + rc(9) + "/latency",
            ]
        ),
    ),
    "ip_address": (
        "IPv4 / IPv6 addresses and CIDRs",
        ["ALLOWED_CIDR", "NODE_IP"],
        lambda: pick(
            [
                f"10.{R.randrange(256)}.{R.randrange(256)}.{R.randrange(1, 255)}",
                f"192.168.{R.randrange(256)}.0/24",
                f"2001:db8:{hx(4)}::{hx(3)}",
            ]
        ),
    ),
    "mac_address": ("MAC addresses", ["MAC"], lambda: ":".join(hx(2) for _ in range(6))),
    "sentry_dsn": (
        "Sentry DSNs (public by design)",
        ["SENTRY_DSN", "NEXT_PUBLIC_SENTRY_DSN"],
        lambda: f"https://{hx(32)}@o{rc(6, DIG)}.ingest.sentry.io/{rc(7, DIG)}",
    ),
    "wireguard_public_key": ("WireGuard public keys", ["PublicKey", "PEER_PUBLIC_KEY"], lambda: b64(rb(32))),
    "age_recipient": ("`age1` recipients", ["SOPS_AGE_RECIPIENTS"], lambda: bech32("age", to5(rb(32)))),
    "test_card_number": (
        "documented test card numbers",
        ["TEST_CARD"],
        lambda: pick(
            [
                "4242424242424242",
                "4000056655665556",
                "5555555555554444",
                "378282246310005",
                "6011111111111117",
                "4000000000003220",
            ]
        ),
    ),
    "tx_hash": ("transaction hashes", ["TX_HASH"], lambda: "0x" + hx(64)),
}
LOOK_DESC_EN = {
    "git_sha": "commit",
    "uuid": "record id",
    "request_id": "request id",
    "trace_id": "trace id",
    "container_digest": "image digest",
    "sha256_checksum": "sha256 of the tarball",
    "md5_or_etag": "ETag",
    "timestamp": "timestamp",
    "semver": "version",
    "iban": "IBAN",
    "isbn": "ISBN",
    "ip_address": "address",
    "mac_address": "MAC",
    "k8s_pod_name": "pod",
    "url": "URL",
    "ulid": "event id",
}


def look_item(kind: str) -> Item:
    desc, names, mk = LOOKS[kind]
    if kind == "firebase_web_api_key":
        v = L(kind, mk())
        cfg = (
            '{ apiKey: "'
            + v
            + '", authDomain: "fernhill-app.firebaseapp.com", projectId: "fernhill-app", appId: "1:'
            + rc(12, DIG)
            + ":web:"
            + hx(22)
            + '" }'
        )
        return item([("FIREBASE_CONFIG", cfg)], "Firebase web config (public)")
    return item([(pick(names), L(kind, mk()))], LOOK_DESC_EN.get(kind, desc.split(" (")[0]))


# ---------------------------------------------------------------- languages

LANG = {
    "en": {
        "fill": [
            "Spent the morning chasing a flaky retry in the payments worker.",
            "The user prefers short answers and hates YAML anchors.",
            "Staging is back after the node pool upgrade.",
            "Next step: move the cron job to the new scheduler.",
            "Latency on the EU edge dropped after the cache fix.",
            "Remember to close the loop with the data team on Friday.",
            "We agreed to keep the old endpoint alive until March.",
            "Nothing urgent; mostly reading logs and drinking tea.",
        ],
        "say": [
            "The {d} is {v}",
            "{d} for prod: {v}",
            "Saving the {d} here so I stop asking: {v}",
            "They pasted the {d} into the thread: {v}",
            "new {d} -> {v}",
        ],
        "bare": [
            "Rotated it again, the new one is {v} (old one revoked).",
            "Copied from the vault UI: {v}",
            "Works now with {v}",
            "keep this one, don't lose it: {v}",
            "pasted by mistake, must rotate: {v}",
        ],
        "look": ["{d} {v}", "for reference, {d}: {v}", "logged {d} {v}"],
        "h": ["Notes", "Decisions", "Action items", "Timeline", "Steps", "Summary"],
        "todo": [
            "rotate the leaked credential",
            "update the runbook",
            "ping the on-call",
            "add a test for the retry path",
            "document the new flag",
        ],
    },
    "de": {
        "fill": [
            "Den Vormittag mit einem wackeligen Retry im Zahlungsdienst verbracht.",
            "Die Nutzerin mag kurze Antworten.",
            "Staging läuft wieder nach dem Upgrade.",
            "Nächster Schritt: Cronjob auf den neuen Scheduler umziehen.",
            "Am Freitag mit dem Datenteam abstimmen.",
        ],
        "say": ["{d} lautet {v}", "{d} (Produktion): {v}", "Hier notiert, damit ich nicht wieder frage, {d}: {v}"],
        "bare": ["Neu ausgestellt, gilt ab heute: {v}", "Aus dem Tresor kopiert: {v}", "Bitte nicht verlieren: {v}"],
        "look": ["{d} {v}", "zur Info, {d}: {v}"],
        "h": ["Notizen", "Entscheidungen", "Aufgaben", "Ablauf", "Schritte", "Zusammenfassung"],
        "todo": ["Zugangsdaten rotieren", "Runbook aktualisieren", "Bereitschaft informieren"],
    },
    "es": {
        "fill": [
            "Pasé la mañana persiguiendo un reintento inestable en el worker de pagos.",
            "El usuario prefiere respuestas cortas.",
            "Staging volvió después de la actualización.",
            "Siguiente paso: mover el cron al nuevo planificador.",
            "Hablar con el equipo de datos el viernes.",
        ],
        "say": [
            "La credencial ({d}) es {v}",
            "{d} de producción: {v}",
            "Lo apunto para no preguntar otra vez, {d}: {v}",
        ],
        "bare": ["La roté otra vez, la nueva es {v}", "Copiado del gestor: {v}", "No perder esto: {v}"],
        "look": ["{d} {v}", "como referencia, {d}: {v}"],
        "h": ["Notas", "Decisiones", "Tareas", "Cronología", "Pasos", "Resumen"],
        "todo": ["rotar la credencial", "actualizar el runbook", "avisar a guardia"],
    },
    "fr": {
        "fill": [
            "Matinée passée à traquer un retry capricieux dans le worker de paiement.",
            "L'utilisatrice préfère les réponses courtes.",
            "La préprod est revenue après la mise à jour.",
            "Prochaine étape : déplacer le cron vers le nouvel ordonnanceur.",
            "Faire le point avec l'équipe data vendredi.",
        ],
        "say": ["{d} : {v}", "Je le note ici pour ne plus demander, {d} : {v}", "{d} de prod = {v}"],
        "bare": ["Régénéré ce matin, le nouveau est {v}", "Copié depuis le coffre : {v}", "À ne pas perdre : {v}"],
        "look": ["{d} {v}", "pour mémoire, {d} : {v}"],
        "h": ["Notes", "Décisions", "Actions", "Chronologie", "Étapes", "Résumé"],
        "todo": ["faire tourner l'identifiant", "mettre à jour le runbook", "prévenir l'astreinte"],
    },
    "ja": {
        "fill": [
            "午前中は決済ワーカーの不安定なリトライを調べていた。",
            "ユーザーは短い回答を好む。",
            "ノードプールの更新後、ステージングが復旧した。",
            "次は cron を新しいスケジューラに移す。",
            "金曜日にデータチームと確認する。",
        ],
        "say": ["{d} は {v}", "本番の {d}: {v}", "忘れないようにメモ, {d}: {v}"],
        "bare": ["再発行した。新しいものは {v}", "保管庫からコピー: {v}", "なくさないこと: {v}"],
        "look": ["{d} {v}", "参考: {d} {v}"],
        "h": ["メモ", "決定事項", "アクション", "経緯", "手順", "まとめ"],
        "todo": ["漏れた認証情報をローテーションする", "手順書を更新する", "当番に連絡する"],
    },
}


def pick_lang() -> str:
    x = R.random()
    return "en" if x < 0.66 else pick(["de", "es", "fr", "ja"])


# ---------------------------------------------------------------- value escaping per format


def is_multi(v: str) -> bool:
    return "\n" in v


def cesc(v: str) -> str:
    return v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def yaml_val(v: str, indent: int) -> str:
    pad = " " * indent
    if is_multi(v):
        return "|\n" + "\n".join(pad + line for line in v.split("\n"))
    if '"' in v or "\\" in v:
        return "'" + v.replace("'", "''") + "'"
    if any(c in v for c in ":#{}[],&*!|>%@`") or v[:1] in "-?" or R.random() < 0.3:
        return '"' + v + '"'
    return v


def toml_val(v: str) -> str:
    if is_multi(v):
        return "'''\n" + v + "'''"
    if '"' in v or "\\" in v:
        return "'" + v + "'"
    return '"' + v + '"'


def snake(n: str) -> str:
    return n.lower()


def camel(n: str) -> str:
    parts = n.lower().split("_")
    return parts[0] + "".join(p.title() for p in parts[1:])


def code_line(lang: str, n: str, v: str) -> str:  # noqa: PLR0912 -- one branch per language
    m = is_multi(v)
    if lang == "python":
        return f'{n} = """{v}"""' if m else f'{n} = "{cesc(v)}"'
    if lang in ("javascript", "typescript"):
        t = ": string" if lang == "typescript" else ""
        return f"export const {camel(n)}{t} = `{v}`;" if m else f'export const {camel(n)}{t} = "{cesc(v)}";'
    if lang == "go":
        return f"\t{camel(n)} = `{v}`" if m else f'\t{camel(n)} = "{cesc(v)}"'
    if lang == "java":
        return f'    static final String {n} = """\n{v}""";' if m else f'    static final String {n} = "{cesc(v)}";'
    if lang == "kotlin":
        return f'    val {camel(n)} = """{v}"""' if m else f'    const val {n} = "{cesc(v)}"'
    if lang == "ruby":
        return f"  {n} = <<~KEY\n{v}\n  KEY" if m else f'  {n} = "{cesc(v)}"'
    if lang == "php":
        return f"    '{snake(n)}' => '{v}',"
    if lang == "rust":
        return f'pub const {n}: &str = r#"{v}"#;' if m else f'pub const {n}: &str = "{cesc(v)}";'
    if lang == "csharp":
        return f'    public const string {camel(n).title()[0]}{camel(n)[1:]} = @"{v.replace(chr(34), chr(34) * 2)}";'
    if lang == "swift":
        return f'    static let {camel(n)} = """\n{v}\n"""' if m else f'    static let {camel(n)} = "{cesc(v)}"'
    if lang == "bash":
        return f"export {n}='{v}'"
    if lang == "powershell":
        return f"$env:{n} = @'\n{v}\n'@" if m else f"$env:{n} = '{v}'"
    if lang == "sql":
        return f"INSERT INTO app_settings (name, value) VALUES ('{snake(n)}', '{v}');"  # noqa: S608 -- test-data text, never executed
    return f'#define {n} "{cesc(v)}"'


CODE_WRAP = {
    "python": ("# {c}\nimport os\n\n", "\n"),
    "javascript": ("// {c}\n'use strict';\n\n", "\n"),
    "typescript": ("// {c}\n\n", "\n"),
    "go": ("// {c}\npackage config\n\nconst (\n", ")\n"),
    "java": ("// {c}\npackage dev.fernhill.config;\n\npublic final class Secrets {\n", "}\n"),
    "kotlin": ("// {c}\npackage dev.fernhill\n\nobject Settings {\n", "}\n"),
    "ruby": ("# {c}\nmodule Settings\n", "end\n"),
    "php": ("<?php\n// {c}\nreturn [\n", "];\n"),
    "rust": ("// {c}\n", ""),
    "csharp": ("// {c}\nnamespace Fernhill.Config;\n\npublic static class Keys\n{\n", "}\n"),
    "swift": ("// {c}\nenum Config {\n", "}\n"),
    "bash": ("#!/usr/bin/env bash\n# {c}\nset -euo pipefail\n\n", "\n./bin/start --env prod\n"),
    "powershell": ("# {c}\n", "\nStart-Process .\\app.exe\n"),
    "sql": ("-- {c}\nBEGIN;\n", "COMMIT;\n"),
    "c": ("/* {c} */\n#pragma once\n\n", ""),
}


def render_code(lang: str, fields: list[tuple[str, str]], comment: str) -> str:
    head, tail = CODE_WRAP[lang]
    return head.replace("{c}", comment) + "\n".join(code_line(lang, n, v) for n, v in fields) + "\n" + tail


def render_struct(ctx: str, fields: list[tuple[str, str]], comment: str) -> str:  # noqa: PLR0912 -- one branch per format
    if ctx == "env":
        return (
            f"# {comment}\n"
            + "\n".join(
                f"{n}='{v}'" if '"' in v else f'{n}="{v}"' if is_multi(v) or " " in v else f"{n}={v}" for n, v in fields
            )
            + "\n"
        )
    if ctx == "dotfile":
        return f"# ~/.zshrc  ({comment})\nalias k=kubectl\n" + "\n".join(f"export {n}='{v}'" for n, v in fields) + "\n"
    if ctx == "json":
        return (
            json.dumps(
                {
                    "_note": comment,
                    "service": pick(["billing", "ingest", "notifier"]),
                    "settings": {snake(n): v for n, v in fields},
                },
                indent=2,
                ensure_ascii=False,
            )
            + "\n"
        )
    if ctx == "yaml":
        return (
            f"# {comment}\napp:\n  name: {pick(['ledger', 'relay', 'atlas'])}\n  secrets:\n"
            + "\n".join(f"    {snake(n)}: {yaml_val(v, 6)}" for n, v in fields)
            + "\n"
        )
    if ctx == "toml":
        return (
            f'# {comment}\n[service]\nname = "relay"\n\n[credentials]\n'
            + "\n".join(f"{snake(n)} = {toml_val(v)}" for n, v in fields)
            + "\n"
        )
    if ctx == "ini":
        return (
            f"; {comment}\n[main]\nregion = eu-west-1\n\n[auth]\n"
            + "\n".join(f"{snake(n)} = {v.replace(chr(10), chr(10) + '    ')}" for n, v in fields)
            + "\n"
        )
    if ctx == "xml":
        return (
            f'<?xml version="1.0" encoding="utf-8"?>\n<!-- {comment} -->\n<configuration>\n  <appSettings>\n'
            + "\n".join(f'    <add key="{camel(n)}" value="{html.escape(v)}" />' for n, v in fields)
            + "\n  </appSettings>\n</configuration>\n"
        )
    if ctx == "hcl":
        return (
            f"# {comment}\nlocals {{\n"
            + "\n".join(
                f"  {snake(n)} = <<-EOT\n{v}\n  EOT" if is_multi(v) else f'  {snake(n)} = "{cesc(v)}"'
                for n, v in fields
            )
            + "\n}\n"
        )
    if ctx == "properties":
        return (
            f"# {comment}\n"
            + "\n".join(
                f"app.{snake(n).replace('_', '.')}={v.replace(chr(92), chr(92) * 2).replace(chr(10), chr(92) + 'n')}"
                for n, v in fields
            )
            + "\n"
        )
    if ctx == "csv":
        rows = ["system,name,value,notes"]
        for n, v in fields:
            cell = '"' + v.replace('"', '""') + '"' if any(c in v for c in ',"\n') else v
            rows.append(f"{pick(['prod', 'staging', 'shared'])},{snake(n)},{cell},{comment.replace(',', ';')}")
        return "\n".join(rows) + "\n"
    if ctx == "docker_compose":
        return (
            f"# {comment}\nservices:\n  app:\n    image: ghcr.io/fernhill/app:latest\n    environment:\n"
            + "\n".join(f"      {n}: {yaml_val(v, 8)}" for n, v in fields)
            + "\n"
        )
    if ctx == "kubernetes":
        return (
            f"# {comment}\napiVersion: v1\nkind: Secret\nmetadata:\n  name: app-secrets\n  namespace: prod\ntype: Opaque\nstringData:\n"
            + "\n".join(f"  {snake(n)}: {yaml_val(v, 4)}" for n, v in fields)
            + "\n"
        )
    if ctx == "github_actions":
        return (
            f"# {comment}\nname: deploy\non: [push]\njobs:\n  release:\n    runs-on: ubuntu-latest\n    env:\n"
            + "\n".join(f"      {n}: {yaml_val(v, 8)}" for n, v in fields)
            + "\n    steps:\n      - uses: actions/checkout@v4\n      - run: make release\n"
        )
    if ctx == "gitlab_ci":
        return (
            f"# {comment}\nvariables:\n"
            + "\n".join(f"  {n}: {yaml_val(v, 4)}" for n, v in fields)
            + "\n\ndeploy:\n  stage: deploy\n  script:\n    - ./deploy.sh\n"
        )
    if ctx == "systemd":
        return (
            f"# {comment}\n[Unit]\nDescription=relay worker\n\n[Service]\n"
            + "\n".join(f'Environment="{n}={cesc(v)}"' for n, v in fields)
            + "\nExecStart=/usr/local/bin/relay\n"
        )
    if ctx == "nginx":
        return (
            f"# {comment}\nserver {{\n    listen 443 ssl;\n    server_name api.fernhill.dev;\n"
            + "\n".join(f'    set ${snake(n)} "{cesc(v)}";' for n, v in fields)
            + "\n    location / { proxy_pass http://127.0.0.1:8080; }\n}\n"
        )
    return (
        f"# {comment}\n<VirtualHost *:443>\n    ServerName app.fernhill.dev\n"
        + "\n".join(f'    SetEnv {n} "{cesc(v)}"' for n, v in fields)
        + "\n</VirtualHost>\n"
    )


STRUCT_CTX = [
    "env",
    "dotfile",
    "json",
    "yaml",
    "toml",
    "ini",
    "xml",
    "hcl",
    "properties",
    "csv",
    "docker_compose",
    "kubernetes",
    "github_actions",
    "gitlab_ci",
    "systemd",
    "nginx",
    "apache",
]
CODE_CTX = list(CODE_WRAP)
NARR_CTX = [
    "journal",
    "terminal",
    "shell_history",
    "chat",
    "meeting_notes",
    "checklist",
    "user_facts",
    "debug_diary",
    "postmortem",
    "ci_log",
    "stack_trace",
    "email",
    "ticket",
    "code_review",
    "runbook",
    "wiki",
    "quick_note",
]
COMMENTS = {
    "en": [
        "copied from the old box, clean up later",
        "prod values, do not commit",
        "kept for the migration",
        "local overrides",
    ],
    "de": ["vom alten Server kopiert", "Produktionswerte, nicht committen"],
    "es": ["copiado del servidor viejo", "valores de producción, no subir"],
    "fr": ["copié depuis l'ancien serveur", "valeurs de prod, ne pas committer"],
    "ja": ["旧サーバーからコピー", "本番の値, コミットしないこと"],
}


def wrap_value(v: str, width: int) -> str:
    if (
        len(v) > width + 12
        and v[0] != CLOSE
        and ord(v[0]) >= OPEN0
        and v[-1] == CLOSE
        and v.count(CLOSE) == 1
        and "\n" not in v
    ):
        inner = v[1:-1]
        return v[0] + "\n".join(inner[i : i + width] for i in range(0, len(inner), width)) + CLOSE
    return v


def mention(it: Item, lang: str, mode: str, look: bool = False) -> str:
    P = LANG[lang]
    if mode == "cli" and it["cli"]:
        return "```\n$ " + pick(it["cli"]) + "\n```"
    out = []
    for n, v in it["fields"]:
        if is_multi(v):
            out.append(f"{n}:\n```\n{v}\n```")
        elif look:
            out.append(pick(P["look"]).replace("{d}", it["desc"]).replace("{v}", v))
        elif mode == "bare" and it.get("bare_ok", True):
            out.append(pick(P["bare"]).replace("{v}", v))
        elif mode == "wrap" and it.get("bare_ok", True):
            out.append(pick(P["bare"]).replace("{v}", "\n" + wrap_value(v, 40)))
        elif mode == "export":
            out.append(f"`export {n}='{v}'`")
        else:
            out.append(pick(P["say"]).replace("{d}", it["desc"]).replace("{v}", v))
    return "\n".join(out)


def render_narr(ctx: str, lang: str, secrets: list[Item], looks: list[Item]) -> str:
    P = LANG[lang]
    modes = ["say", "bare", "export", "cli", "wrap"] if ctx == "quick_note" else ["say", "bare", "export", "cli"]
    parts = [mention(it, lang, pick(modes)) for it in secrets] + [mention(it, lang, "say", look=True) for it in looks]
    R.shuffle(parts)
    fill = lambda: pick(P["fill"])  # noqa: E731 -- short local helper
    day = f"2026-{R.randrange(1, 13):02d}-{R.randrange(1, 29):02d}"
    if ctx == "terminal":
        body = "\n\n".join(p if p.startswith("```") else f"```\n$ echo done\ndone\n```\n{p}" for p in parts)
        return f"# {P['h'][0]} {day}\n\n{fill()}\n\n{body}\n"
    if ctx == "shell_history":
        lines = []
        for i, it in enumerate(secrets + looks):
            n, v = it["fields"][0]
            cmd = pick(it["cli"]) if it["cli"] else f"export {n}='{v}'"
            lines.append(f" {500 + i * 3}  {cmd}")
            lines.append(f" {501 + i * 3}  git status")
        return "\n".join(lines) + "\n"
    if ctx == "chat":
        return "\n\n".join(f"**{pick(['user', 'assistant'])}:** {fill()}\n{p}" for p in parts) + "\n"
    if ctx in ("checklist", "runbook"):
        return (
            f"# {P['h'][4]}\n\n"
            + "\n".join(f"{i + 1}. [{pick(['x', ' '])}] {pick(P['todo'])}\n{p}" for i, p in enumerate(parts))
            + "\n"
        )
    if ctx == "ci_log":
        return (
            "\n".join(
                f"2026-03-0{R.randrange(1, 9)}T10:{R.randrange(60):02d}:{R.randrange(60):02d}.{R.randrange(1000):03d}Z + {p}"
                for p in parts
            )
            + "\nJob succeeded\n"
        )
    if ctx == "stack_trace":
        loc = "\n".join(f"    {it['fields'][0][0].lower()} = '{cesc(it['fields'][0][1])}'" for it in secrets + looks)
        return f'Traceback (most recent call last):\n  File "/srv/app/worker.py", line {R.randrange(20, 400)}, in run\n    client.connect()\nConnectionError: handshake failed\nLocals:\n{loc}\n\n{fill()}\n'
    if ctx == "email":
        quoted = "\n".join("> " + line for line in "\n\n".join(parts[: len(parts) // 2 + 1]).split("\n"))
        return f"From: ops@fernhill.dev\nTo: me@fernhill.dev\nSubject: Re: {pick(P['todo'])}\n\n{fill()}\n{chr(10).join(parts[len(parts) // 2 + 1 :])}\n\nOn {day} Dana wrote:\n{quoted}\n"
    if ctx == "code_review":
        lang_c = pick(["python", "javascript", "go", "ruby"])
        fields = [f for it in secrets + looks for f in it["fields"]]
        diff = "\n".join("+" + line for line in render_code(lang_c, fields, "config").split("\n"))
        return f"Review on PR #{R.randrange(100, 999)}: {fill()}\n\n```diff\n@@ -1,3 +1,9 @@\n{diff}\n```\n"
    head = {
        "journal": f"# {day}",
        "meeting_notes": f"# {P['h'][1]} {day}",
        "user_facts": "# About the user",
        "debug_diary": f"# debug {day}",
        "postmortem": f"# Post-mortem {day}\n\n## {P['h'][3]}",
        "ticket": f"# OPS-{R.randrange(1000, 9999)}",
        "wiki": "# Service settings",
        "quick_note": "scratch",
    }[ctx]
    body = "\n\n".join(f"{fill()}\n{p}" if R.random() < 0.6 else p for p in parts)
    return f"{head}\n\n{fill()}\n\n{body}\n\n{P['h'][2]}: {pick(P['todo'])}\n"


def frame(text: str, ctx: str) -> str:
    x = R.random()
    if x < 0.14:
        return (
            json.dumps({"id": ulid(), "type": "memory", "context": ctx, "content": text}, ensure_ascii=False, indent=1)
            + "\n"
        )
    if x < 0.24:
        return (
            f"kind: memory\ntopic: {ctx}\nbody: |\n"
            + "\n".join(("  " + line) if line else "" for line in text.split("\n"))
            + "\n"
        )
    if x < 0.40:
        return f"---\ntitle: {ctx.replace('_', ' ')}\ntags: [memory]\n---\n{text}"
    return text


# ---------------------------------------------------------------- documents


CONTEXTS = NARR_CTX + STRUCT_CTX + CODE_CTX


def make_doc(ctx: str, sec_gens: list[str], look_kinds: list[str]) -> tuple[str, list[dict], list[dict], str]:
    for _attempt in range(20):
        Doc.labels = []
        lang = pick_lang()
        secrets = [SECRET_GENS[k]() for k in sec_gens]
        looks = [look_item(k) for k in look_kinds]
        if ctx in NARR_CTX:
            text = frame(render_narr(ctx, lang, secrets, looks), ctx)
        else:
            fields = [f for it in secrets + looks for f in it["fields"]]
            R.shuffle(fields)
            comment = pick(COMMENTS[lang])
            text = render_code(ctx, fields, comment) if ctx in CODE_CTX else render_struct(ctx, fields, comment)
        plain, s, lk = strip_markers(text)
        if all(plain.count(x["value"]) == sum(1 for y in s if y["value"] == x["value"]) for x in s):
            return plain, s, lk, lang
    raise RuntimeError("could not render a clean document")


def build() -> list[dict]:
    kinds = sorted(SECRET_GENS)
    queue = [k for k in kinds if k not in QUEUE_SKIP for _ in range(17)]
    R.shuffle(queue)
    lqueue = [k for k in sorted(LOOKS) for _ in range(32)]
    R.shuffle(lqueue)
    flags = [True] * (N_DOCS // 2) + [False] * (N_DOCS - N_DOCS // 2)
    R.shuffle(flags)
    ctxs = [CONTEXTS[i % len(CONTEXTS)] for i in range(N_DOCS)]
    R.shuffle(ctxs)
    n_sec = sum(flags)
    docs = []
    si = li = 0
    for i in range(N_DOCS):
        sg: list[str] = []
        if flags[i]:
            left_docs = n_sec - sum(1 for d in docs if d["secrets"])
            take = max(1, round((len(queue) - si) / max(1, left_docs)) + R.choice([-1, 0, 0, 1]))
            if left_docs == 1:
                take = len(queue) - si
            sg = queue[si : si + take]
            si += len(sg)
            if not sg:
                sg = [pick(kinds)]
        nl = R.choice([0, 1, 1, 2]) if flags[i] else R.choice([1, 1, 2, 2, 3])
        lk = lqueue[li : li + nl] or [pick(sorted(LOOKS))] * (0 if flags[i] else 1)
        li += nl
        text, s, lks, lang = make_doc(ctxs[i], sg, lk)
        docs.append(
            {
                "id": f"blind8-{i + 1:04d}",
                "context": ctxs[i],
                "text": text,
                "secrets": s,
                "lookalikes": lks,
                "_lang": lang,
            }
        )
    return docs


# ---------------------------------------------------------------- checks and output


def verify(docs: list[dict]) -> None:  # noqa: PLR0912 -- one branch per documented check
    ids = [d["id"] for d in docs]
    if len(set(ids)) != len(ids):
        raise ValueError("duplicate ids")
    per_kind: Counter[str] = Counter()
    kind_ctx: dict[str, set[str]] = {}
    look_kind: Counter[str] = Counter()
    for d in docs:
        t = d["text"]
        spans = sorted(d["secrets"] + d["lookalikes"], key=lambda x: x["start"])
        if not spans:
            raise ValueError(f"{d['id']}: no labelled value")
        for lst in (d["secrets"], d["lookalikes"]):
            if [x["start"] for x in lst] != sorted(x["start"] for x in lst):
                raise ValueError(f"{d['id']}: unsorted")
        for a, b in itertools.pairwise(spans):
            if b["start"] < a["end"]:
                raise ValueError(f"{d['id']}: overlap")
        for x in spans:
            if t[x["start"] : x["end"]] != x["value"] or not x["value"]:
                raise ValueError(f"{d['id']}: bad span {x}")
        for x in d["secrets"]:
            if t.count(x["value"]) != sum(1 for y in d["secrets"] if y["value"] == x["value"]):
                raise ValueError(f"{d['id']}: secret also occurs unlabelled")
            per_kind[x["kind"]] += 1
            kind_ctx.setdefault(x["kind"], set()).add(d["context"])
        for x in d["lookalikes"]:
            look_kind[x["kind"]] += 1
    share = sum(1 for d in docs if d["secrets"]) / len(docs)
    if not 0.45 <= share <= 0.55:
        raise ValueError(f"secret share {share}")
    if len(per_kind) < 110 or any(c < 15 for c in per_kind.values()) or any(len(c) < 8 for c in kind_ctx.values()):
        raise ValueError(
            "secret kind minimums not met: " + repr([k for k, c in per_kind.items() if c < 15 or len(kind_ctx[k]) < 8])
        )
    if len(look_kind) < 40 or any(c < 30 for c in look_kind.values()):
        raise ValueError("look-alike minimums not met: " + repr([k for k, c in look_kind.items() if c < 30]))
    if len(docs) < 1000:
        raise ValueError("too few documents")
    en = sum(1 for d in docs if d["_lang"] == "en")
    if en / len(docs) < 0.6:
        raise ValueError("less than 60% English")


def readme(docs: list[dict], digest: str) -> str:
    per_kind: Counter[str] = Counter()
    kctx: dict[str, set[str]] = {}
    lk: Counter[str] = Counter()
    lctx: dict[str, set[str]] = {}
    ctx_n: Counter[str] = Counter()
    ctx_s: Counter[str] = Counter()
    langs: Counter[str] = Counter()
    multiline = narr_spans = 0
    for d in docs:
        ctx_n[d["context"]] += 1
        ctx_s[d["context"]] += bool(d["secrets"])
        langs[d["_lang"]] += 1
        for x in d["secrets"]:
            per_kind[x["kind"]] += 1
            kctx.setdefault(x["kind"], set()).add(d["context"])
            multiline += "\n" in x["value"]
            narr_spans += d["context"] in NARR_CTX
        for x in d["lookalikes"]:
            lk[x["kind"]] += 1
            lctx.setdefault(x["kind"], set()).add(d["context"])
    lens = sorted(len(d["text"]) for d in docs)
    nsec = sum(1 for d in docs if d["secrets"])
    common = set(COMMON)
    lang_names = {"en": "English", "de": "German", "es": "Spanish", "fr": "French", "ja": "Japanese"}
    out = [
        "# secrets_blind_v8",
        "",
        f"A held-out, labelled test corpus for the secret-detection engine, written blind to it: {len(docs):,} documents of the kind an AI assistant keeps in its `/memories` folder. Narrative notes (journals, terminal sessions, shell history, chats, meeting notes, checklists, notes about the user, debugging diaries, post-mortems, CI logs, stack traces, emails with quoted replies, tickets, code reviews with diff hunks, runbooks, wiki pages, scratch notes) sit next to structured files (`.env`, dotfiles, JSON, YAML, TOML, INI, XML, HCL, properties, CSV, Compose, Kubernetes Secrets, GitHub Actions, GitLab CI, systemd units, nginx, Apache) and code in fifteen languages (Python, JavaScript, TypeScript, Go, Java, Kotlin, Ruby, PHP, Rust, C#, Swift, bash, PowerShell, SQL, C). Each document lists the secrets it holds (to be reported) and the look-alikes it holds (public values that must not be reported).",
        "",
        "## How it was built",
        "",
        f"- Generator: [`../make_blind_secrets_v8.py`](../make_blind_secrets_v8.py), Python 3.11 standard library only, one `random.Random({SEED})`. No set is iterated while writing, no clock or system randomness is read, and `PYTHONHASHSEED` does not change the output.",
        "- Regenerate with `python3 tests/corpora/make_blind_secrets_v8.py` (or `--out DIR`). A run takes a few seconds.",
        "- Each value is wrapped in private-use marker characters when it is made (the opening marker indexes a per-document table of kind and secret / look-alike flag). Rendering (JSON escaping, YAML block scalars, INI continuation indentation, properties `\\n` escapes, CSV quote doubling, XML entities, email `> ` quoting, diff `+` prefixes, hard wrapping, memory-record framing) works on the marked text; offsets are read off the final text when the markers are stripped, and a nested or unclosed marker raises.",
        "- A document in which a labelled secret also occurs unlabelled is rendered again with fresh values. Before writing, the script checks: every span slices out its value, both lists are sorted, no two spans overlap, ids are unique, every document has a labelled value, no labelled secret also occurs unlabelled, 45-55% of documents hold a secret, at least 110 secret kinds with at least 15 examples each in at least 8 contexts, at least 40 look-alike kinds with at least 30 examples each, at least 60% English documents. After writing, `corpus.jsonl` is re-read and compared with `SHA256SUMS`. Any failure raises.",
        "- Written blind. I read `tests/corpora/secrets_blind_v7/README.md` (allowed) for the file format, labelling conventions, README layout and kind-naming style, and `pyproject.toml` for its ruff settings. Nothing else under `tests/` (apart from this generator and the three files it writes) and nothing under `sandbox/`, `policies/`, `bench/` or `docs/` was opened, listed, grepped or run; no other file under `tests/corpora/` was opened and that directory was not listed (I only checked with `ls` that the two v8 paths did not exist yet); no git command was run; the `sandbox` package was never imported and no scanner of the project was run. Templates and phrases were written for this corpus; token formats come from providers' public documentation as I know it. The kind mix is my own; where a provider also appears in v7's table I kept v7's kind name.",
        "- Structure where the format allows: GitHub `ghp_` / `ghs_`... and npm tokens end in the base62 CRC32 of their random part; PyPI tokens are v2 macaroons (location `pypi.org`) with an HMAC chain; JWTs carry real HS256 signatures; age identities and recipients and bitcoin addresses are valid bech32; WIF keys are valid base58check; RSA, EC, Ed25519 keys, public keys and certificates are DER-correct structures with random contents (not working key pairs); OpenSSH keys follow the `openssh-key-v1` layout; PGP blocks carry a correct CRC-24 line; IBANs and ISBNs have valid check digits; test card numbers are the ones payment docs publish.",
        "",
        "## File format",
        "",
        "`corpus.jsonl`: one JSON object per line, UTF-8, `ensure_ascii=False`, keys in this order:",
        "",
        "```json",
        '{"id": "blind8-0001", "context": "journal", "text": "...", "secrets": [{"kind": "...", "value": "...", "start": 0, "end": 0}], "lookalikes": []}',
        "```",
        "",
        "- `start` / `end` are Python code-point offsets into `text`, `text[start:end] == value`; each list is sorted by `start`; no two spans of a document overlap (both lists together).",
        "- `context` names the shape of the document (table below). About 14% of narrative documents are wrapped as a JSON memory record (the body is one JSON string), 10% as a YAML record (body in an indented block scalar) and 16% carry front matter. Structured and code files carry a comment (or a `_note` key, a notes column) in the document's language.",
        "",
        "## Labelling",
        "",
        "- Only the sensitive part is labelled: the password inside a DSN, URL, JDBC / ADO.NET / libpq string, `sasl.jaas.config` or LDAP URL (not user or host); the `sig=` value of an Azure SAS URL; the secret in `cloudinary://key:secret@cloud`; the credential after `Bearer `, `Basic `, `Bot `, `SSWS `, `GenieKey `, `Api-Token `, `Api-Key `, `ApiKey `, `Token `, `ShippoToken `; the base64 `auth` of a Docker config; the private key inside a service-account JSON. Slack, Discord, Teams and Google Chat webhook URLs are labelled whole. PEM, OpenSSH and PGP keys are labelled from their first to their last line.",
        "- Key ids that travel with their secret are secrets too: AWS `AKIA` / `ASIA`, Alibaba `LTAI`, Scaleway `SCW`, Confluent Cloud keys, Twilio `SK` API key sids. Companions that are not secret are look-alikes: Twilio `AC` account SIDs, Plivo auth ids, Algolia app ids, Razorpay `rzp_live_` key ids, the GCP `private_key_id`, Firebase web configs.",
        "- A value is labelled exactly as it appears: inside JSON (a JSON config or a JSON-framed memory record) it keeps its escapes; in a YAML block scalar, an INI continuation or a YAML-framed record it keeps the indentation of its continuation lines; in a quoted email reply it keeps the `> ` prefixes; in a diff it keeps the `+` prefixes; in XML it keeps entity escapes; in CSV it keeps doubled quotes; in properties files, systemd / nginx / Apache strings, C-like string literals and stack-trace locals a line break is `\\n` and quotes and backslashes keep their escapes; in C# verbatim strings quotes are doubled; a token hard-wrapped in a scratch note keeps its newlines.",
        f"- {narr_spans:,} secret spans sit in narrative documents, many in bare prose with no key name nearby; {multiline:,} secret spans run over several lines.",
        "",
        "## Numbers",
        "",
        f"- {len(docs):,} documents; {nsec} ({round(100 * nsec / len(docs))}%) hold at least one secret; {sum(1 for d in docs if d['lookalikes'])} hold look-alikes; every document has at least one labelled value.",
        f"- {sum(per_kind.values()):,} secret spans over {len(per_kind)} kinds (at least {min(per_kind.values())} each, each kind in at least {min(len(v) for v in kctx.values())} contexts); {sum(1 for k in per_kind if k in common)} kinds are ones I consider common in memory files (marked *common*), the rest less common providers.",
        f"- {sum(lk.values()):,} look-alike spans over {len(lk)} kinds (at least {min(lk.values())} each).",
        f"- Length: {lens[0]} to {lens[-1]:,} characters, median {lens[len(lens) // 2]}; {sum(1 for d in docs if not d['text'].isascii())} documents contain non-ASCII text.",
        f"- {len(ctx_n)} contexts; prose and comments in {len(langs)} languages: "
        + ", ".join(f"{lang_names[k]} {v}" for k, v in langs.most_common())
        + ".",
        "",
        "## Secret kinds",
        "",
        "| kind | format | examples | contexts |",
        "| --- | --- | ---: | ---: |",
    ]
    out += [
        f"| `{k}`{' *common*' if k in common else ''} | {SECRET_FORMATS[k]} | {per_kind[k]} | {len(kctx[k])} |"
        for k in sorted(per_kind)
    ]
    out += ["", "## Look-alike kinds", "", "| kind | what | examples | contexts |", "| --- | --- | ---: | ---: |"]
    out += [f"| `{k}` | {LOOKS[k][0]} | {lk[k]} | {len(lctx[k])} |" for k in sorted(lk)]
    out += ["", "## Contexts", "", "| context | family | documents | with secrets |", "| --- | --- | ---: | ---: |"]
    fam = (
        dict.fromkeys(NARR_CTX, "narrative") | dict.fromkeys(STRUCT_CTX, "structured") | dict.fromkeys(CODE_CTX, "code")
    )
    out += [f"| `{c}` | {fam[c]} | {ctx_n[c]} | {ctx_s[c]} |" for c in sorted(ctx_n)]
    out += ["", "## Checksum", "", "`SHA256SUMS`:", "", "```", f"{digest}  corpus.jsonl", "```", ""]
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default=str(pathlib.Path(__file__).resolve().parent / "secrets_blind_v8"))
    out = pathlib.Path(ap.parse_args().out)
    docs = build()
    verify(docs)
    lines = [
        json.dumps({k: d[k] for k in ("id", "context", "text", "secrets", "lookalikes")}, ensure_ascii=False)
        for d in docs
    ]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    digest = hashlib.sha256(data).hexdigest()
    out.mkdir(parents=True, exist_ok=True)
    (out / "corpus.jsonl").write_bytes(data)
    (out / "SHA256SUMS").write_text(f"{digest}  corpus.jsonl\n", encoding="utf-8")
    (out / "README.md").write_text(readme(docs, digest), encoding="utf-8")
    if (
        hashlib.sha256((out / "corpus.jsonl").read_bytes()).hexdigest()
        != (out / "SHA256SUMS").read_text(encoding="utf-8").split()[0]
    ):
        raise RuntimeError("checksum mismatch after writing")
    print(f"{len(docs)} documents, sha256 {digest}")


if __name__ == "__main__":
    main()
