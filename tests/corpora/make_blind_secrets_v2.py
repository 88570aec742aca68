#!/usr/bin/env python3
"""Build the second held-out corpus for the secret-detection engine: memory files with secrets and look-alikes.

The corpus was written blind: none of the engine's rules, code or tests, nor the first blind corpus, were read
while writing it. Token shapes come from the providers' public documentation; every value is random (or, for
look-alikes, a publicly documented example), so none is a live credential.

    python3 tests/corpora/make_blind_secrets_v2.py [--out DIR] [--stats]

writes DIR/corpus.jsonl (default DIR: tests/corpora/secrets_blind_v2). The seed is fixed: two runs give the
same bytes. Each line is one document: {"id", "context", "text", "secrets", "lookalikes"}, where every span
holds kind, value, start and end (Python str offsets) with text[start:end] == value.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import random
import re
import string
import struct
import sys
import uuid
import zlib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from urllib.parse import quote

SEED = 20261202
N_DOCS = 1500
SECRET_DOCS = 825  # 55 %
EMPTY_DOCS = 70  # of the others: neither secrets nor look-alikes
MIN_SECRET_EXAMPLES = 15
MIN_LOOKALIKE_EXAMPLES = 30
DEFAULT_OUT = Path(__file__).resolve().parent / "secrets_blind_v2"

DIGITS = string.digits
UPPER = string.ascii_uppercase
LOWER = string.ascii_lowercase
ALNUM = DIGITS + UPPER + LOWER  # also the base62 alphabet, in GitHub's order
LETTERS = UPPER + LOWER
HEX = "0123456789abcdef"
B32 = UPPER + "234567"
UPPER_ALNUM = UPPER + DIGITS
LOWER_ALNUM = LOWER + DIGITS
URLSAFE = ALNUM + "-_"
K8S_SAFE = "bcdfghjklmnpqrstvwxz2456789"  # the alphabet of pod-template hashes and pod suffixes
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


# ---------------------------------------------------------------------------------------------- primitives


class Rng(random.Random):
    """The one seeded stream every choice is drawn from, with helpers for building tokens."""

    def chars(self, alphabet: str, n: int) -> str:
        return "".join(self.choice(alphabet) for _ in range(n))

    def tail(self, alphabet: str, n: int) -> str:
        """n characters of alphabet whose last is alphanumeric, so punctuation after a value reads as prose."""
        return self.chars(alphabet, n - 1) + self.choice(ALNUM)

    def blob(self, n: int) -> bytes:
        return self.getrandbits(8 * n).to_bytes(n, "big") if n else b""

    def chance(self, p: float) -> bool:
        return self.random() < p

    def number(self, digits: int) -> str:
        return self.choice(DIGITS[1:]) + self.chars(DIGITS, digits - 1)

    def uuid4(self) -> str:
        return str(uuid.UUID(int=self.getrandbits(128), version=4))


def base62(n: int, width: int) -> str:
    out = ""
    while n:
        n, rem = divmod(n, 62)
        out = ALNUM[rem] + out
    return out.rjust(width, "0")


def crc_token(prefix: str, r: Rng) -> str:
    """GitHub's and npm's format: 30 random base62 characters, then the CRC32 of those 30 in 6 base62 digits."""
    body = r.chars(ALNUM, 30)
    return prefix + body + base62(zlib.crc32(body.encode()), 6)


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def compact(obj: object) -> str:
    return json.dumps(obj, separators=(",", ":"))


def wrap(text: str, width: int) -> str:
    return "\n".join(text[i : i + width] for i in range(0, len(text), width))


def json_escape(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)[1:-1]


# ------------------------------------------------------------------------------------- key material (DER)


def der(tag: int, body: bytes) -> bytes:
    n = len(body)
    if n < 0x80:
        head = bytes([n])
    elif n < 0x100:
        head = bytes([0x81, n])
    else:
        head = bytes([0x82]) + n.to_bytes(2, "big")
    return bytes([tag]) + head + body


def der_uint(raw: bytes) -> bytes:
    raw = raw.lstrip(b"\x00") or b"\x00"
    if raw[0] & 0x80:
        raw = b"\x00" + raw
    return der(0x02, raw)


def big(r: Rng, nbytes: int) -> bytes:
    """A random integer of exactly nbytes bytes, top bits set, as RSA moduli and primes have."""
    return bytes([r.randint(0xC0, 0xFF)]) + r.blob(nbytes - 1)


RSA_OID = bytes.fromhex("2a864886f70d010101")
SHA256_RSA_OID = bytes.fromhex("2a864886f70d01010b")
P256_OID = bytes.fromhex("2a8648ce3d030107")
ED25519_OID = bytes.fromhex("2b6570")


def rsa_pkcs1(r: Rng, bits: int) -> bytes:
    n, half = bits // 8, bits // 16
    ints = [b"\x00", big(r, n), b"\x01\x00\x01", r.blob(n), big(r, half), big(r, half)]
    ints += [r.blob(half) for _ in range(3)]
    return der(0x30, b"".join(der_uint(i) for i in ints))


def ec_sec1(r: Rng) -> bytes:
    return der(
        0x30,
        der(0x02, b"\x01")
        + der(0x04, r.blob(32))
        + der(0xA0, der(0x06, P256_OID))
        + der(0xA1, der(0x03, b"\x00\x04" + r.blob(64))),
    )


def pkcs8(r: Rng, bits: int) -> bytes:
    if bits == 0:
        return der(0x30, der(0x02, b"\x00") + der(0x30, der(0x06, ED25519_OID)) + der(0x04, der(0x04, r.blob(32))))
    algorithm = der(0x30, der(0x06, RSA_OID) + b"\x05\x00")
    return der(0x30, der(0x02, b"\x00") + algorithm + der(0x04, rsa_pkcs1(r, bits)))


def pem(label: str, data: bytes) -> str:
    return f"-----BEGIN {label}-----\n{wrap(b64(data), 64)}\n-----END {label}-----"


def x509_cert(r: Rng, common_name: str) -> bytes:
    algorithm = der(0x30, der(0x06, SHA256_RSA_OID) + b"\x05\x00")
    name = der(0x30, der(0x31, der(0x30, der(0x06, b"\x55\x04\x03") + der(0x0C, common_name.encode()))))
    year = r.randint(23, 26)
    validity = der(
        0x30,
        der(0x17, f"{year}0{r.randint(1, 9)}1{r.randint(0, 9)}120000Z".encode())
        + der(0x17, f"{year + 1}0101000000Z".encode()),
    )
    rsa_public = der(0x30, der_uint(big(r, 256)) + der_uint(b"\x01\x00\x01"))
    spki = der(0x30, der(0x30, der(0x06, RSA_OID) + b"\x05\x00") + der(0x03, b"\x00" + rsa_public))
    tbs = der(0x30, der(0xA0, der(0x02, b"\x02")) + der_uint(r.blob(16)) + algorithm + name + validity + name + spki)
    return der(0x30, tbs + algorithm + der(0x03, b"\x00" + r.blob(256)))


def sshstr(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


def ssh_mpint(data: bytes) -> bytes:
    data = data.lstrip(b"\x00") or b"\x01"
    return sshstr(b"\x00" + data if data[0] & 0x80 else data)


def openssh_private(r: Rng, comment: str) -> str:
    if r.chance(0.75):
        public = r.blob(32)
        public_blob = sshstr(b"ssh-ed25519") + sshstr(public)
        secret = public_blob + sshstr(r.blob(32) + public)
    else:
        modulus, exponent = big(r, 256), b"\x01\x00\x01"
        public_blob = sshstr(b"ssh-rsa") + ssh_mpint(exponent) + ssh_mpint(modulus)
        secret = sshstr(b"ssh-rsa") + ssh_mpint(modulus) + ssh_mpint(exponent) + ssh_mpint(r.blob(256))
        secret += ssh_mpint(r.blob(128)) + ssh_mpint(big(r, 128)) + ssh_mpint(big(r, 128))
    check = r.blob(4)
    body = check + check + secret + sshstr(comment.encode())
    body += bytes(range(1, 1 + (-len(body)) % 8))
    data = b"openssh-key-v1\x00" + sshstr(b"none") + sshstr(b"none") + sshstr(b"") + struct.pack(">I", 1)
    data += sshstr(public_blob) + sshstr(body)
    return f"-----BEGIN OPENSSH PRIVATE KEY-----\n{wrap(b64(data), 70)}\n-----END OPENSSH PRIVATE KEY-----"


def ssh_public(r: Rng) -> str:
    roll = r.random()
    if roll < 0.6:
        return "ssh-ed25519 " + b64(sshstr(b"ssh-ed25519") + sshstr(r.blob(32)))
    if roll < 0.85:
        return "ssh-rsa " + b64(sshstr(b"ssh-rsa") + ssh_mpint(b"\x01\x00\x01") + ssh_mpint(big(r, 256)))
    blob = sshstr(b"ecdsa-sha2-nistp256") + sshstr(b"nistp256") + sshstr(b"\x04" + r.blob(64))
    return "ecdsa-sha2-nistp256 " + b64(blob)


def crc24(data: bytes) -> int:
    crc = 0xB704CE
    for byte in data:
        crc ^= byte << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


def pgp_packet(tag: int, body: bytes) -> bytes:
    if len(body) < 0x100:
        return bytes([0x80 | tag << 2, len(body)]) + body
    return bytes([0x80 | tag << 2 | 1]) + len(body).to_bytes(2, "big") + body


ED_CURVE = bytes.fromhex("092b06010401da470f01")
CV_CURVE = bytes.fromhex("0a2b060104019755010501")


def pgp_block(r: Rng, uid: str, *, private: bool) -> str:
    """An Ed25519 primary key with a Curve25519 subkey, as GnuPG exports them (signatures are random)."""
    created = r.randint(1_672_531_200, 1_767_225_600).to_bytes(4, "big")
    primary = b"\x04" + created + b"\x16" + ED_CURVE + b"\x01\x07\x40" + r.blob(32)
    subkey = b"\x04" + created + b"\x12" + CV_CURVE + b"\x01\x07\x40" + r.blob(32) + b"\x03\x01\x08\x07"
    if private:
        primary += b"\x00\x00\xff" + r.blob(34)
        subkey += b"\x00\x00\xff" + r.blob(34)
    tags = (5, 7) if private else (6, 14)
    data = pgp_packet(tags[0], primary) + pgp_packet(13, uid.encode())
    data += pgp_packet(2, b"\x04\x13\x16\x0a" + r.blob(140)) + pgp_packet(tags[1], subkey)
    data += pgp_packet(2, b"\x04\x18\x16\x0a" + r.blob(110))
    label = "PRIVATE KEY BLOCK" if private else "PUBLIC KEY BLOCK"
    checksum = b64(crc24(data).to_bytes(3, "big"))
    return f"-----BEGIN PGP {label}-----\n\n{wrap(b64(data), 64)}\n={checksum}\n-----END PGP {label}-----"


def bech32(hrp: str, data: bytes) -> str:
    generator = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)
    acc = bits = 0
    five: list[int] = []
    for byte in data:
        acc, bits = (acc << 8 | byte) & 0xFFFF, bits + 8
        while bits >= 5:
            bits -= 5
            five.append(acc >> bits & 31)
    if bits:
        five.append(acc << (5 - bits) & 31)
    chk = 1
    for v in [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp] + five + [0] * 6:
        top = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ v
        for i, g in enumerate(generator):
            chk ^= g if top >> i & 1 else 0
    chk ^= 1
    return hrp + "1" + "".join(BECH32[d] for d in five + [chk >> 5 * (5 - i) & 31 for i in range(6)])


# --------------------------------------------------------------------------------------- spans, fragments


@dataclass(frozen=True)
class Span:
    """A labelled stretch of text: a secret, or a look-alike that must not be reported."""

    kind: str
    value: str
    secret: bool


Part = str | Span
Frag = list[Part]
SLOT = re.compile(r"<<(\w+)>>")


def fill(template: str, slots: dict[str, str | Span | Frag]) -> Frag:
    """Replace each <<name>> in template by its slot; a slot may be text, a span or a fragment."""
    out: Frag = []
    pos = 0
    for m in SLOT.finditer(template):
        out.append(template[pos : m.start()])
        value = slots[m.group(1)]
        if isinstance(value, list):
            out.extend(value)
        else:
            out.append(value)
        pos = m.end()
    out.append(template[pos:])
    return [p for p in out if p != ""]


def tmap(frag: Frag, fn: Callable[[str], str]) -> Frag:
    """Apply a character-local transformation (escaping, indenting) to text and span values alike."""
    return [Span(p.kind, fn(p.value), p.secret) if isinstance(p, Span) else fn(p) for p in frag]


def text_of(frag: Frag) -> str:
    return "".join(p.value if isinstance(p, Span) else p for p in frag)


def joined(frags: Sequence[Frag], sep: str) -> Frag:
    out: Frag = []
    for i, frag in enumerate(frags):
        if i:
            out.append(sep)
        out.extend(frag)
    return out


def indented(frag: Frag, pad: str) -> Frag:
    return tmap(frag, lambda s: s.replace("\n", "\n" + pad))


def assemble(frag: Frag) -> tuple[str, list[dict[str, object]], list[dict[str, object]]]:
    pieces: list[str] = []
    secrets: list[dict[str, object]] = []
    lookalikes: list[dict[str, object]] = []
    pos = 0
    for part in frag:
        if isinstance(part, Span):
            record = {"kind": part.kind, "value": part.value, "start": pos, "end": pos + len(part.value)}
            (secrets if part.secret else lookalikes).append(record)
            piece = part.value
        else:
            piece = part
        pieces.append(piece)
        pos += len(piece)
    return "".join(pieces), secrets, lookalikes


# ---------------------------------------------------------------------------------------------- vocabulary

# fmt: off
# fmt: off
PROJECTS = ("billing-api", "orders", "ledger", "notifier", "atlas", "checkout-web", "ingest-worker", "kestrel", "pelican", "harbor", "tidepool", "juniper", "quokka", "meridian", "sundial", "brisa", "fjord", "ozone", "lumen", "paddock")
# fmt: on
# fmt: on
# fmt: off
# fmt: off
PEOPLE = ("Priya", "Jonas", "Mei", "Tomás", "Zoë", "Łukasz", "Aigerim", "Kwame", "Søren", "Hana", "Olu", "Renée", "Björn", "Chiara", "Dmitri", "Amara", "Yuki", "Inês", "Rafael", "Noor")
# fmt: on
# fmt: on
# fmt: off
# fmt: off
ENVS = ("prod", "production", "staging", "dev", "qa", "preview", "eu-prod", "us-staging", "sandbox", "perf")
# fmt: on
# fmt: on
# fmt: off
# fmt: off
PLACES = ("the CI variables page", "1Password (Engineering vault)", "the Vault KV store", "GitHub Actions secrets", "the team's Bitwarden", "AWS Secrets Manager", "the Doppler project", "the deploy dashboard", "the .env on the build box", "the settings screen")
# fmt: on
# fmt: on
# fmt: off
# fmt: off
ORGS = ("acme", "globex", "initech", "umbrella-labs", "hooli", "vandelay", "stark-ind", "tyrell", "wonka", "cyberdyne")
# fmt: on
# fmt: on
# fmt: off
# fmt: off
USERS = ("deploy", "ci-bot", "app_rw", "svc_orders", "admin", "mei.chen", "jonas", "octo-bot", "release", "reporting")
# fmt: on
# fmt: on
# fmt: off
# fmt: off
DB_HOSTS = ("db-1.internal", "pg-primary.acme.lan", "10.20.3.17", "orders-db.c9x2kq.eu-west-1.rds.amazonaws.com", "mysql-staging.acme.lan", "127.0.0.1", "replica-2.db.svc.cluster.local", "warehouse.internal")
# fmt: on
# fmt: on
# fmt: off
# fmt: off
REGIONS = ("us-east-1", "eu-west-1", "eu-central-1", "ap-southeast-2", "us-west-2", "ap-northeast-1")
# fmt: on
# fmt: on
# fmt: off
# fmt: off
NAMESPACES = ("default", "payments", "platform", "data", "web", "jobs", "observability")
# fmt: on
# fmt: on
# fmt: off
# fmt: off
PACKAGES = ("react", "express", "lodash", "fastapi", "requests", "zod", "vite", "pydantic", "axios", "next", "django", "tokio")
# fmt: on
# fmt: on
# fmt: off
# fmt: off
TOOLS = ("ruff", "prettier", "black", "gofmt", "rubocop", "biome", "eslint", "clang-format")
# fmt: on
# fmt: on
# fmt: off
# fmt: off
WORDS = ("lilac", "orbit", "tundra", "maple", "velvet", "copper", "harbor", "quartz", "saffron", "ember", "falcon", "glacier", "juniper", "lantern", "meadow", "nebula", "pepper", "river", "summit", "walnut")
# fmt: on
# fmt: on
# fmt: off
# fmt: off
LOGGERS = ("http.client", "db.pool", "auth", "worker", "sync", "billing", "scheduler", "gateway", "uploader")
# fmt: on
# fmt: on
# fmt: off
# fmt: off
SERVICES = ("Stripe", "GitHub", "AWS", "Slack", "Postgres", "OpenAI", "Datadog", "Sentry", "Twilio", "Okta")
# fmt: on
# fmt: on
# fmt: off
# fmt: off
CAMEL_WORDS = ("Abstract", "Singleton", "Proxy", "Factory", "Bean", "Transaction", "Routing", "Data", "Source", "Handler", "Request", "Context", "Aware", "Delegating", "Cache", "Invalidation", "Strategy", "Provider", "Session", "Token", "Refresh", "Scheduler", "Event", "Listener", "Adapter", "Registry", "Credential", "Resolver")
# fmt: on
# fmt: on

FILLER = (
    "User prefers short answers with the code first and the explanation after.",
    "<<who>> likes PR descriptions to open with a one-line summary.",
    "Standup moved to 09:30 CET on Tuesdays and Thursdays.",
    "Always run the linter before pushing; CI is slow to report it.",
    "The staging cluster is shared with the data team, so no load tests after 17:00.",
    "<<who>> is out until next Monday; ask <<who2>> about deploys.",
    "Use pnpm, not npm, in the <<proj>> repo.",
    "Tabs for Go, four spaces for Python, two for YAML.",
    "The user writes commit messages in the imperative mood and wants me to do the same.",
    "Don't suggest Docker Desktop; the team runs colima.",
    "Prefer small PRs (under 400 lines) for <<proj>>.",
    "Timezone: Europe/Lisbon. Dates in ISO format, please.",
    "Remind <<who>> about the quarterly access review.",
    "Flaky test: test_checkout_total_rounding; rerun once before digging in.",
    "Docs screenshots in dark mode only.",
    "Rollbacks go through the release channel, never by hand.",
    "The <<proj>> README is out of date about the local setup.",
    "Ask before running migrations against a shared database.",
    "User is learning Rust; explain borrow-checker errors gently.",
    "Weekly report goes out on Friday afternoon.",
    "Keep answers under 200 words unless asked otherwise.",
    "Grafana dashboards are the source of truth for SLOs.",
    "<<tool>> is the formatter of record for this repo.",
    "Never force-push to main; <<who>> lost a day to that once.",
    "Feature flag new-checkout is at 20% rollout.",
    "Build cache lives on the runner; clear it if node_modules looks stale.",
    "<<who>> wants the changelog updated in the same PR as the change.",
    "Prefers pytest fixtures over setUp methods.",
    "On-call handover is Monday 10:00; write the summary the evening before.",
    "The <<proj>> service talks to three upstreams; only one of them retries.",
    "Der Nutzer bevorzugt Tabellen statt langer Aufzählungen.",
    "Antworten bitte auf Deutsch, Code-Kommentare auf Englisch.",
    "L'utilisateur préfère pnpm et ne veut pas d'emojis dans les commits.",
    "Réunion d'équipe déplacée à jeudi, 14 h.",
    "Prefiere respuestas en español cuando escribe en español.",
    "Revisar los logs de <<proj>> antes de cada despliegue.",
    "ユーザーは結論を先に書いてほしいと言っている。",
    "金曜日はデプロイ禁止。",
    "用户喜欢先看结论, 再看细节。",
    "周五下午不要发布新版本。",
    "Не трогать ветку release/2.x без согласования с <<who>>.",  # noqa: RUF001
    "Отчёт по инцидентам готовим каждую пятницу.",
    "Kod incelemelerinde kısa yorumlar tercih ediliyor.",  # noqa: RUF001
    "Użytkownik woli krótkie odpowiedzi i przykłady kodu.",
    "사용자는 다크 모드 스크린샷을 선호함.",
    "O usuário prefere exemplos em TypeScript.",
    "Il cliente vuole i report in PDF, non in Excel.",
    "Gebruiker werkt meestal vanuit Utrecht, soms vanuit Gent.",
    "Café with <<who>> about the roadmap: the naïve estimate was three sprints.",
    "Släpp aldrig på fredagar; <<who>> håller med.",
)

TITLES = (
    "# Notes: <<proj>>",
    "# Runbook: rotating <<svc>> credentials",
    "# Incident <<date>>: <<proj>> degraded",
    "# Daily log <<date>>",
    "## Coding notes (<<proj>>)",
    "# What I know about <<who>>'s setup",
    "# Meeting notes: <<proj>> sync, <<date>>",
    "# memory.md",
    "# User preferences",
    "# Onboarding checklist for <<proj>>",
    "# Notizen zu <<proj>>",
    "# Journal de bord, <<date>>",
    "# Postmortem draft: <<proj>>",
    "# Scratchpad",
    "# 作業メモ <<date>>",
    "# Handover for <<who>>",
    "## Things to remember about <<proj>>",
)

SUBHEADINGS = (
    "## Credentials",
    "## Setup",
    "### <<svc>>",
    "## Log",
    "## Décisions",
    "## Offene Punkte",
    "## Config",
    "### Access",
    "## Todo",
    "## Contexto",
)


# -------------------------------------------------------------------------------------------- items, kinds


@dataclass(frozen=True)
class Header:
    """How a credential rides in an HTTP request, and a plausible request for it."""

    name: str
    prefix: str
    host: str
    path: str


@dataclass
class Item:
    """One value to place in a document: a secret, a look-alike, or a plain config entry (kind None)."""

    kind: str | None
    secret: bool
    words: tuple[str, ...]
    value: Frag  # as it sits after "key = " in a config file
    line: Frag  # as it reads in a sentence
    label: str
    svc: str
    section: str
    contexts: frozenset[str]
    shape: str = "plain"
    block: Frag = field(default_factory=list)  # multi-line values only
    header: Header | None = None
    header_only: bool = False
    raw_json: bool = False

    @property
    def multiline(self) -> bool:
        return bool(self.block)


@dataclass(frozen=True)
class SecretKind:
    kind: str
    label: str
    svc: str
    names: tuple[str, ...]
    gen: Callable[[Rng], str]
    shape: str = "token"  # token | url | pem | blob | header | docker
    header: Header | None = None
    carrier: Callable[[Rng, Span], Frag] | None = None
    companions: tuple[str, ...] = ()


@dataclass(frozen=True)
class LookKind:
    kind: str
    label: str
    names: tuple[str, ...]
    gen: Callable[[Rng], str]
    prose: tuple[str, ...]
    section: str = "app"
    multiline: bool = False
    special: bool = False  # may sit in .npmrc, .pypirc, .netrc, docker config.json
    pair: Callable[[Rng], tuple[str, str]] | None = None  # (name, value) when the name must match the value
    carrier: Callable[[Rng, Span], Frag] | None = None


def bearer(host: str, path: str, prefix: str = "Bearer ", name: str = "Authorization") -> Header:
    return Header(name, prefix, host, path)


# ------------------------------------------------------------------------------------- secret generators


def g_password(r: Rng) -> str:
    roll = r.random()
    if roll < 0.35:
        return (
            r.choice(WORDS).capitalize()
            + r.choice("-_.")
            + r.choice(WORDS).capitalize()
            + r.number(r.randint(2, 4))
            + r.choice("!*^+~")
        )
    if roll < 0.55:
        return "-".join(r.choice(WORDS) for _ in range(4)) + r.number(2)
    if roll < 0.62:
        return r.choice(("Piñata", "Größe", "Été", "Zaŕ")) + r.choice(WORDS).capitalize() + r.number(3) + "!"
    return r.choice(LETTERS) + r.chars(ALNUM + "!@*-_.+^~%", r.randint(13, 23))


def g_url_password(r: Rng) -> str:
    return r.tail(ALNUM + "-_.~", r.randint(16, 30)) if r.chance(0.5) else r.chars(ALNUM, r.randint(16, 32))


def g_generic_secret(r: Rng) -> str:
    roll = r.random()
    if roll < 0.3:
        return r.chars(HEX, 64)
    if roll < 0.55:
        return b64(r.blob(32))
    if roll < 0.75:
        return r.choice(LOWER) + r.chars(LOWER_ALNUM + "!@#%^*-_=+", 49)
    return r.chars(ALNUM, r.randint(32, 48))


def g_aws_session(r: Rng) -> str:
    region = r.choice(REGIONS).encode()
    raw = (
        b"!\n\torigin_ec\x10"
        + bytes([r.randint(0x80, 0xFF)])
        + b"\xff" * 9
        + b"\x01\x1a"
        + bytes([len(region)])
        + region
    )
    return b64(raw + b'"G0E\x02!\x00' + r.blob(r.randint(280, 520)))


def g_stripe(prefix: str) -> Callable[[Rng], str]:
    def gen(r: Rng) -> str:
        return prefix + (r.chars(ALNUM, 24) if r.chance(0.35) else "51" + r.chars(ALNUM, 97))

    return gen


def g_discord(r: Rng) -> str:
    user_id = str(r.randint(10**17, 13 * 10**17))
    return b64(user_id.encode()).rstrip("=") + "." + r.chars(URLSAFE, 6) + "." + r.tail(URLSAFE, 38)


def g_jwt(r: Rng) -> str:
    alg = r.choice(("HS256", "RS256", "ES256"))
    header: dict[str, object] = {"alg": alg, "typ": "JWT"}
    if alg != "HS256":
        header["kid"] = r.chars(URLSAFE, 22)
    now = r.randint(1_735_000_000, 1_790_000_000)
    payload = {
        "sub": r.choice((r.uuid4(), "auth0|" + r.chars(HEX, 24), r.number(9))),
        "iat": now,
        "exp": now + r.choice((900, 3600, 86400)),
    }
    payload["iss"] = r.choice(
        (
            "https://auth.acme.example/",
            "https://login.globex.example",
            "https://securetoken.google.com/" + r.choice(PROJECTS),
        )
    )
    payload["aud"] = r.choice(("api", "https://api.acme.example", r.choice(PROJECTS)))
    if r.chance(0.5):
        payload["scope"] = r.choice(("read:orders write:orders", "openid profile email", "admin"))
    signature = r.blob({"HS256": 32, "RS256": 256, "ES256": 64}[alg])
    return ".".join((b64url(compact(header).encode()), b64url(compact(payload).encode()), b64url(signature)))


def g_supabase(r: Rng) -> str:
    now = r.randint(1_690_000_000, 1_760_000_000)
    payload = {
        "iss": "supabase",
        "ref": r.chars(LOWER, 20),
        "role": "service_role",
        "iat": now,
        "exp": now + 315_360_000,
    }
    head = b64url(compact({"alg": "HS256", "typ": "JWT"}).encode())
    return f"{head}.{b64url(compact(payload).encode())}.{b64url(r.blob(32))}"


def g_pypi(r: Rng) -> str:
    caveat = compact(
        {"version": 1, "permissions": {"projects": [r.choice(PROJECTS)]}} if r.chance(0.5) else [3, r.chars(HEX, 32)]
    )
    raw = b"\x02\x01\x08pypi.org\x02\x24" + r.uuid4().encode() + b"\x00\x02" + bytes([len(caveat)]) + caveat.encode()
    return "pypi-" + b64url(raw + b"\x00\x00\x06\x20" + r.blob(32))


def g_sentry_org(r: Rng) -> str:
    payload = {
        "iat": round(r.uniform(1.69e9, 1.77e9), 6),
        "url": "https://sentry.io",
        "region_url": r.choice(("https://us.sentry.io", "https://de.sentry.io")),
        "org": r.choice(ORGS),
    }
    return "sntrys_" + b64(compact(payload).encode()) + "_" + r.chars(ALNUM + "+/", 43)


def g_grafana_cloud(r: Rng) -> str:
    payload = {
        "o": r.number(6),
        "n": f"{r.choice(PROJECTS)}-{r.choice(('read', 'write', 'publish'))}-{r.choice(WORDS)}",
        "k": r.chars(ALNUM, 24),
        "m": {"r": r.choice(("prod-us-east-0", "prod-eu-west-2", "prod-ap-southeast-1"))},
    }
    return "glc_" + b64(compact(payload).encode())


def g_adyen(r: Rng) -> str:
    return "AQE" + r.chars(ALNUM + "+/", 85) + "==-" + b64(r.blob(32)) + "-" + r.tail(ALNUM + "*%", 16)


def g_private(label: str, make: Callable[[Rng], bytes]) -> Callable[[Rng], str]:
    def gen(r: Rng) -> str:
        return pem(label, make(r))

    return gen


def g_docker_auth(r: Rng) -> str:
    secret = r.choice(
        (lambda: "dckr_pat_" + r.chars(URLSAFE, 27), lambda: crc_token("ghp_", r), lambda: g_password(r))
    )()
    return b64(f"{r.choice(USERS)}:{secret}".encode())


# ------------------------------------------------------------------------------------------ carriers


def c_postgres(r: Rng, pw: Span) -> Frag:
    user, host, db = r.choice(USERS), r.choice(DB_HOSTS), r.choice(PROJECTS).replace("-", "_")
    return r.choice(
        (
            [f"postgres://{user}:", pw, f"@{host}:5432/{db}"],
            [f"postgresql://{user}:", pw, f"@{host}/{db}?sslmode=require"],
            [f"postgresql+psycopg://{user}:", pw, f"@{host}:6432/{db}"],
            [f"jdbc:postgresql://{host}:5432/{db}?user={user}&password=", pw],
            [f"host={host} port=5432 dbname={db} user={user} password=", pw, " sslmode=verify-full"],
        )
    )


def c_mysql(r: Rng, pw: Span) -> Frag:
    user, host, db = r.choice(USERS), r.choice(DB_HOSTS), r.choice(PROJECTS).replace("-", "_")
    return r.choice(
        (
            [f"mysql://{user}:", pw, f"@{host}:3306/{db}"],
            [f"mysql+pymysql://{user}:", pw, f"@{host}/{db}?charset=utf8mb4"],
            [f"{user}:", pw, f"@tcp({host}:3306)/{db}?parseTime=true"],
            [f"jdbc:mysql://{host}:3306/{db}?user={user}&password=", pw, "&useSSL=true"],
        )
    )


def c_mongo(r: Rng, pw: Span) -> Frag:
    user, db = r.choice(USERS), r.choice(PROJECTS).replace("-", "_")
    cluster = f"cluster0.{r.chars(LOWER_ALNUM, 5)}.mongodb.net"
    return r.choice(
        (
            [f"mongodb+srv://{user}:", pw, f"@{cluster}/{db}?retryWrites=true&w=majority"],
            [f"mongodb://{user}:", pw, f"@mongo-0.db:27017,mongo-1.db:27017/{db}?replicaSet=rs0&authSource=admin"],
        )
    )


def c_redis(r: Rng, pw: Span) -> Frag:
    host = r.choice(
        (
            "cache.internal",
            "redis-master.cache.svc",
            f"{r.choice(PROJECTS)}.{r.chars(LOWER_ALNUM, 6)}.ng.0001.euw1.cache.amazonaws.com",
        )
    )
    return r.choice(
        (
            ["redis://default:", pw, f"@{host}:6379/0"],
            ["rediss://:", pw, f"@{host}:6380"],
            [f"{host}:6380,password=", pw, ",ssl=True,abortConnect=False"],
        )
    )


def c_amqp(r: Rng, pw: Span) -> Frag:
    user = r.choice(USERS)
    return r.choice(
        (
            [f"amqps://{user}:", pw, f"@rabbit.{r.choice(ORGS)}.lan/{r.choice(PROJECTS)}"],
            [f"amqp://{user}:", pw, "@localhost:5672/"],
            [f"amqps://{user}:", pw, f"@b-{r.uuid4()[:8]}.mq.{r.choice(REGIONS)}.amazonaws.com:5671"],
        )
    )


def c_snowflake(r: Rng, pw: Span) -> Frag:
    user, account = r.choice(USERS).upper(), f"{r.chars(LOWER, 2)}{r.number(5)}.{r.choice(REGIONS)}"
    return r.choice(
        (
            [f"snowflake://{user}:", pw, f"@{account}/ANALYTICS/PUBLIC?warehouse=COMPUTE_WH&role=REPORTER"],
            [f"account={account};user={user};password=", pw, ";db=ANALYTICS;warehouse=COMPUTE_WH"],
        )
    )


def c_sqlserver(r: Rng, pw: Span) -> Frag:
    server = f"{r.choice(PROJECTS)}-sql.database.windows.net"
    user = r.choice(USERS)
    return r.choice(
        (
            [
                f"Server=tcp:{server},1433;Initial Catalog={r.choice(PROJECTS)};Persist Security Info=False;User ID={user};Password=",
                pw,
                ";Encrypt=True;Connection Timeout=30;",
            ],
            [
                f"Data Source={r.choice(DB_HOSTS)};Initial Catalog=Reporting;User Id={user};Password=",
                pw,
                ";TrustServerCertificate=True",
            ],
        )
    )


def c_planetscale(r: Rng, pw: Span) -> Frag:
    user, db = r.chars(LOWER_ALNUM, 12), r.choice(PROJECTS)
    return r.choice(
        (
            [f"mysql://{user}:", pw, f"@aws.connect.psdb.cloud/{db}?sslaccept=strict"],
            [f"mysql://{user}:", pw, f'@{r.choice(REGIONS)}.connect.psdb.cloud/{db}?ssl={{"rejectUnauthorized":true}}'],
        )
    )


def c_url_password(r: Rng, pw: Span) -> Frag:
    user, org, app = r.choice(USERS), r.choice(ORGS), r.choice(PROJECTS)
    return r.choice(
        (
            [f"https://{user}:", pw, f"@git.{org}.example/{app}/{app}.git"],
            [f"https://{user}:", pw, f"@nexus.{org}.lan/repository/pypi-internal/simple"],
            [f"ftp://{user}:", pw, f"@files.{org}.lan/pub/exports"],
            ["https://admin:", pw, f"@grafana.{org}.lan/api/dashboards"],
            [f"https://{user}:", pw, f"@artifactory.{org}.example/artifactory/api/npm/npm-virtual/"],
        )
    )


def c_azure_storage(r: Rng, key: Span) -> Frag:
    account = r.choice(PROJECTS).replace("-", "") + r.chars(LOWER_ALNUM, 4)
    return [
        f"DefaultEndpointsProtocol=https;AccountName={account};AccountKey=",
        key,
        ";EndpointSuffix=core.windows.net",
    ]


def c_servicebus(r: Rng, key: Span) -> Frag:
    namespace = f"{r.choice(ORGS)}-{r.choice(ENVS)}-bus"
    key_name = r.choice(("RootManageSharedAccessKey", "send-only", "listen"))
    return [f"Endpoint=sb://{namespace}.servicebus.windows.net/;SharedAccessKeyName={key_name};SharedAccessKey=", key]


def c_sas(r: Rng, sig: Span) -> Frag:
    account = r.choice(PROJECTS).replace("-", "") + r.chars(LOWER_ALNUM, 3)
    year = r.randint(2025, 2027)
    query = f"sv=2022-11-02&ss=b&srt=co&sp={r.choice(('rl', 'rwdlac', 'r'))}&se={year}-0{r.randint(1, 9)}-01T00:00:00Z&st={year - 1}-12-01T00:00:00Z&spr=https&sig="
    if r.chance(0.4):
        return ["?" + query, sig]
    return [f"https://{account}.blob.core.windows.net/{r.choice(('backups', 'exports', 'uploads'))}?{query}", sig]


def c_telegram(r: Rng, token: Span) -> Frag:
    return (
        ["https://api.telegram.org/bot", token, r.choice(("/sendMessage", "/getUpdates", "/setWebhook"))]
        if r.chance(0.25)
        else [token]
    )


# ------------------------------------------------------------------------------------------ secret kinds

GH = bearer("api.github.com", "/user/repos?per_page=100", "token ")
# fmt: off
# fmt: off
SECRET_KINDS: tuple[SecretKind, ...] = (
    SecretKind("aws_access_key_id", "AWS access key ID", "AWS", ("aws access key id", "aws access key"), lambda r: "AKIA" + r.chars(B32, 16)),
    SecretKind("aws_secret_access_key", "AWS secret access key", "AWS", ("aws secret access key", "aws secret key"), lambda r: r.chars(ALNUM + "+/", 39) + r.choice(ALNUM), companions=("aws_access_key_id",)),
    SecretKind("aws_session_token", "AWS session token", "AWS", ("aws session token",), g_aws_session, companions=("aws_access_key_id", "aws_secret_access_key")),
    SecretKind("gcp_service_account_key", "GCP service-account key", "Google Cloud", ("google credentials", "gcp sa key", "service account json"), lambda r: pem("PRIVATE KEY", pkcs8(r, 2048)), shape="blob"),
    SecretKind("gcp_api_key", "Google API key", "Google Cloud", ("google api key", "gcp api key", "maps api key", "gemini api key"), lambda r: "AIza" + r.tail(URLSAFE, 35), header=Header("x-goog-api-key", "", "generativelanguage.googleapis.com", "/v1beta/models")),
    SecretKind("azure_storage_account_key", "Azure storage account key", "Azure", ("azure storage key", "azure storage account key", "storage account key"), lambda r: b64(r.blob(64))),
    SecretKind("azure_storage_connection_string", "Azure storage connection string", "Azure", ("azure storage connection string", "azurewebjobs storage", "blob connection string"), lambda r: b64(r.blob(64)), shape="url", carrier=c_azure_storage),
    SecretKind("azure_servicebus_connection_string", "Service Bus connection string", "Azure", ("servicebus connection string", "azure servicebus connection"), lambda r: b64(r.blob(32)), shape="url", carrier=c_servicebus),
    SecretKind("azure_sas_token", "Azure SAS token", "Azure", ("azure sas token", "blob sas url", "sas url"), lambda r: quote(b64(r.blob(32)), safe=""), shape="url", carrier=c_sas),
    SecretKind("azure_ad_client_secret", "Entra ID client secret", "Azure", ("azure client secret", "aad client secret", "arm client secret"), lambda r: r.chars(ALNUM + "_~.", 3) + r.choice("78") + "Q~" + r.tail(ALNUM + "_~.-", 34)),
    SecretKind("github_pat", "GitHub personal access token", "GitHub", ("github token", "gh token", "github pat"), lambda r: crc_token("ghp_", r), header=GH),
    SecretKind("github_oauth_token", "GitHub OAuth token", "GitHub", ("github oauth token", "gh oauth token"), lambda r: crc_token("gho_", r), header=GH),
    SecretKind("github_app_token", "GitHub App installation token", "GitHub", ("github app token", "installation token"), lambda r: crc_token("ghs_", r), header=bearer("api.github.com", "/repos/acme/api/actions/runs")),
    SecretKind("github_user_to_server_token", "GitHub user-to-server token", "GitHub", ("github user token", "gh user token"), lambda r: crc_token("ghu_", r), header=bearer("api.github.com", "/user")),
    SecretKind("github_refresh_token", "GitHub refresh token", "GitHub", ("github refresh token",), lambda r: crc_token("ghr_", r)),
    SecretKind("github_fine_grained_pat", "GitHub fine-grained token", "GitHub", ("github token", "github pat", "gh fine grained token"), lambda r: "github_pat_11" + r.chars(UPPER_ALNUM, 20) + "_" + r.chars(ALNUM, 59), header=bearer("api.github.com", "/repos/acme/api/issues")),
    SecretKind("gitlab_pat", "GitLab personal access token", "GitLab", ("gitlab token", "gitlab pat", "ci job token"), lambda r: "glpat-" + r.tail(URLSAFE, 20), header=Header("PRIVATE-TOKEN", "", "gitlab.com", "/api/v4/projects?membership=true")),
    SecretKind("circleci_token", "CircleCI personal API token", "CircleCI", ("circleci token", "circle token"), lambda r: "CCIPAT_" + r.chars(ALNUM, 22) + "_" + r.chars(HEX, 40), header=Header("Circle-Token", "", "circleci.com", "/api/v2/me")),
    SecretKind("buildkite_token", "Buildkite API token", "Buildkite", ("buildkite api token", "buildkite token"), lambda r: "bkua_" + r.chars(HEX, 40), header=bearer("api.buildkite.com", "/v2/organizations")),
    SecretKind("vercel_token", "Vercel access token", "Vercel", ("vercel token", "vercel api token"), lambda r: "vcp_" + r.chars(ALNUM, 56) if r.chance(0.6) else r.chars(ALNUM, 24), header=bearer("api.vercel.com", "/v9/projects")),
    SecretKind("netlify_token", "Netlify personal access token", "Netlify", ("netlify auth token", "netlify token"), lambda r: "nfp_" + r.chars(ALNUM, 36), header=bearer("api.netlify.com", "/api/v1/sites")),
    SecretKind("heroku_api_key", "Heroku API key", "Heroku", ("heroku api key", "heroku token"), lambda r: "HRKU-AA" + r.tail(URLSAFE, 58), header=bearer("api.heroku.com", "/apps")),
    SecretKind("heroku_api_key_legacy", "Heroku API key", "Heroku", ("heroku api key", "heroku auth token"), lambda r: r.uuid4(), header=bearer("api.heroku.com", "/account")),
    SecretKind("stripe_secret_key", "Stripe live secret key", "Stripe", ("stripe secret key", "stripe api key", "stripe key"), g_stripe("sk_live_"), header=bearer("api.stripe.com", "/v1/charges?limit=3")),
    SecretKind("stripe_restricted_key", "Stripe restricted key", "Stripe", ("stripe restricted key", "stripe rk"), g_stripe("rk_live_"), header=bearer("api.stripe.com", "/v1/payment_intents")),
    SecretKind("stripe_webhook_secret", "Stripe webhook signing secret", "Stripe", ("stripe webhook secret", "stripe signing secret"), lambda r: "whsec_" + r.chars(ALNUM, 32)),
    SecretKind("square_access_token", "Square access token", "Square", ("square access token",), lambda r: "EAAA" + r.tail(URLSAFE, 60), header=bearer("connect.squareup.com", "/v2/locations")),
    SecretKind("square_oauth_secret", "Square application secret", "Square", ("square application secret", "square oauth secret"), lambda r: "sq0csp-" + r.tail(URLSAFE, 43)),
    SecretKind("braintree_access_token", "Braintree access token", "Braintree", ("braintree access token", "paypal access token"), lambda r: "access_token$production$" + r.chars(LOWER_ALNUM, 16) + "$" + r.chars(HEX, 32)),
    SecretKind("paypal_client_secret", "PayPal client secret", "PayPal", ("paypal client secret", "paypal secret"), lambda r: "E" + r.tail(URLSAFE, 79)),
    SecretKind("adyen_api_key", "Adyen API key", "Adyen", ("adyen api key", "adyen key"), g_adyen, header=Header("X-API-Key", "", "checkout-live.adyenpayments.com", "/checkout/v71/paymentMethods")),
    SecretKind("slack_bot_token", "Slack bot token", "Slack", ("slack bot token", "slack token"), lambda r: f"xoxb-{r.number(r.randint(10, 13))}-{r.number(r.randint(10, 13))}-{r.chars(ALNUM, 24)}", header=bearer("slack.com", "/api/chat.postMessage")),
    SecretKind("slack_user_token", "Slack user token", "Slack", ("slack user token", "slack oauth token"), lambda r: f"xoxp-{r.number(11)}-{r.number(11)}-{r.number(13)}-{r.chars(HEX, 32)}", header=bearer("slack.com", "/api/users.list")),
    SecretKind("slack_app_token", "Slack app-level token", "Slack", ("slack app token",), lambda r: f"xapp-1-A{r.chars(UPPER_ALNUM, 10)}-{r.number(13)}-{r.chars(HEX, 64)}", companions=("slack_bot_token",)),
    SecretKind("slack_webhook_url", "Slack incoming webhook", "Slack", ("slack webhook url", "slack webhook"), lambda r: (f"https://hooks.slack.com/services/T{r.chars(UPPER_ALNUM, r.randint(8, 10))}/B{r.chars(UPPER_ALNUM, r.randint(8, 10))}/{r.chars(ALNUM, 24)}")),
    SecretKind("discord_bot_token", "Discord bot token", "Discord", ("discord bot token", "discord token"), g_discord, header=bearer("discord.com", "/api/v10/users/@me", "Bot ")),
    SecretKind("discord_webhook_url", "Discord webhook", "Discord", ("discord webhook url", "discord webhook"), lambda r: f"https://discord.com/api/webhooks/{r.randint(10**17, 13 * 10**17)}/{r.tail(URLSAFE, 68)}"),
    SecretKind("telegram_bot_token", "Telegram bot token", "Telegram", ("telegram bot token", "telegram token"), lambda r: f"{r.randint(10**8, 8 * 10**9)}:AA{r.tail(URLSAFE, 33)}", carrier=c_telegram),
    SecretKind("twilio_auth_token", "Twilio auth token", "Twilio", ("twilio auth token",), lambda r: r.chars(HEX, 32)),
    SecretKind("twilio_api_key_secret", "Twilio API key secret", "Twilio", ("twilio api secret", "twilio api key secret"), lambda r: r.chars(ALNUM, 32)),
    SecretKind("sendgrid_api_key", "SendGrid API key", "SendGrid", ("sendgrid api key", "smtp password"), lambda r: "SG." + r.chars(URLSAFE, 22) + "." + r.tail(URLSAFE, 43), header=bearer("api.sendgrid.com", "/v3/mail/send")),
    SecretKind("mailgun_api_key", "Mailgun API key", "Mailgun", ("mailgun api key", "mailgun key"), lambda r: ("key-" + r.chars(HEX, 32) if r.chance(0.4) else f"{r.chars(HEX, 32)}-{r.chars(HEX, 8)}-{r.chars(HEX, 8)}")),
    SecretKind("mailchimp_api_key", "Mailchimp API key", "Mailchimp", ("mailchimp api key", "mailchimp key"), lambda r: f"{r.chars(HEX, 32)}-us{r.randint(1, 21)}"),
    SecretKind("openai_project_key", "OpenAI project key", "OpenAI", ("openai api key", "openai key"), lambda r: "sk-proj-" + r.chars(URLSAFE, 74) + "T3BlbkFJ" + r.tail(URLSAFE, 74), header=bearer("api.openai.com", "/v1/chat/completions")),
    SecretKind("openai_legacy_key", "OpenAI API key", "OpenAI", ("openai api key", "openai key"), lambda r: "sk-" + r.chars(ALNUM, 20) + "T3BlbkFJ" + r.chars(ALNUM, 20), header=bearer("api.openai.com", "/v1/models")),
    SecretKind("anthropic_api_key", "Anthropic API key", "Anthropic", ("anthropic api key", "claude api key"), lambda r: "sk-ant-api03-" + r.chars(URLSAFE, 93) + "AA", header=Header("x-api-key", "", "api.anthropic.com", "/v1/messages")),
    SecretKind("huggingface_token", "Hugging Face token", "Hugging Face", ("hf token", "huggingface token", "hugging face hub token"), lambda r: "hf_" + r.chars(LETTERS, 34), header=bearer("huggingface.co", "/api/whoami-v2")),
    SecretKind("replicate_api_token", "Replicate API token", "Replicate", ("replicate api token",), lambda r: "r8_" + r.chars(ALNUM, 37), header=bearer("api.replicate.com", "/v1/predictions")),
    SecretKind("groq_api_key", "Groq API key", "Groq", ("groq api key",), lambda r: "gsk_" + r.chars(ALNUM, 52), header=bearer("api.groq.com", "/openai/v1/models")),
    SecretKind("cohere_api_key", "Cohere API key", "Cohere", ("cohere api key", "co api key"), lambda r: r.chars(ALNUM, 40), header=bearer("api.cohere.com", "/v2/chat")),
    SecretKind("mistral_api_key", "Mistral API key", "Mistral", ("mistral api key",), lambda r: r.chars(ALNUM, 32), header=bearer("api.mistral.ai", "/v1/models")),
    SecretKind("postgres_password", "Postgres connection string", "Postgres", ("database url", "pg dsn", "postgres url", "db connection string"), g_url_password, shape="url", carrier=c_postgres),
    SecretKind("mysql_password", "MySQL DSN", "MySQL", ("mysql url", "mysql dsn", "database url"), g_url_password, shape="url", carrier=c_mysql),
    SecretKind("mongodb_password", "MongoDB URI", "MongoDB", ("mongodb uri", "mongo url"), g_url_password, shape="url", carrier=c_mongo),
    SecretKind("redis_password", "Redis URL", "Redis", ("redis url", "cache url", "redis connection"), g_url_password, shape="url", carrier=c_redis),
    SecretKind("amqp_password", "RabbitMQ URL", "RabbitMQ", ("amqp url", "broker url", "rabbitmq url"), g_url_password, shape="url", carrier=c_amqp),
    SecretKind("snowflake_password", "Snowflake connection string", "Snowflake", ("snowflake url", "snowflake dsn"), g_url_password, shape="url", carrier=c_snowflake),
    SecretKind("sqlserver_password", "SQL Server connection string", "SQL Server", ("sql connection string", "mssql connection string"), g_url_password, shape="url", carrier=c_sqlserver),
    SecretKind("supabase_service_role_key", "Supabase service_role key", "Supabase", ("supabase service role key", "supabase service key"), g_supabase, header=Header("apikey", "", "xyzcompany.supabase.co", "/rest/v1/profiles?select=*")),
    SecretKind("planetscale_password", "PlanetScale connection string", "PlanetScale", ("database url", "planetscale url"), lambda r: "pscale_pw_" + r.tail(URLSAFE, 43), shape="url", carrier=c_planetscale),
    SecretKind("planetscale_service_token", "PlanetScale service token", "PlanetScale", ("planetscale service token", "pscale token"), lambda r: "pscale_tkn_" + r.tail(URLSAFE, 43)),
    SecretKind("npm_token", "npm access token", "npm", ("npm token", "npm auth token"), lambda r: crc_token("npm_", r)),
    SecretKind("pypi_token", "PyPI API token", "PyPI", ("pypi token", "twine password"), g_pypi),
    SecretKind("rubygems_api_key", "RubyGems API key", "RubyGems", ("gem host api key", "rubygems api key"), lambda r: "rubygems_" + r.chars(HEX, 48), header=Header("Authorization", "", "rubygems.org", "/api/v1/gems")),
    SecretKind("nuget_api_key", "NuGet API key", "NuGet", ("nuget api key",), lambda r: "oy2" + r.chars(LOWER_ALNUM, 43), header=Header("X-NuGet-ApiKey", "", "www.nuget.org", "/api/v2/package")),
    SecretKind("dockerhub_pat", "Docker Hub access token", "Docker Hub", ("docker hub token", "docker password", "dockerhub pat"), lambda r: "dckr_pat_" + r.chars(URLSAFE, 27)),
    SecretKind("datadog_api_key", "Datadog API key", "Datadog", ("dd api key", "datadog api key"), lambda r: r.chars(HEX, 32), header=Header("DD-API-KEY", "", "api.datadoghq.eu", "/api/v1/validate")),
    SecretKind("datadog_app_key", "Datadog application key", "Datadog", ("dd app key", "datadog app key"), lambda r: r.chars(HEX, 40), header=Header("DD-APPLICATION-KEY", "", "api.datadoghq.com", "/api/v1/monitor"), companions=("datadog_api_key",)),
    SecretKind("newrelic_user_key", "New Relic user key", "New Relic", ("new relic api key", "newrelic user key"), lambda r: "NRAK-" + r.chars(UPPER_ALNUM, 27), header=Header("Api-Key", "", "api.newrelic.com", "/graphql")),
    SecretKind("sentry_org_token", "Sentry org auth token", "Sentry", ("sentry auth token",), g_sentry_org, header=bearer("sentry.io", "/api/0/organizations/acme/releases/")),
    SecretKind("sentry_user_token", "Sentry user auth token", "Sentry", ("sentry auth token", "sentry user token"), lambda r: "sntryu_" + r.chars(HEX, 64), header=bearer("sentry.io", "/api/0/projects/")),
    SecretKind("grafana_service_account_token", "Grafana service-account token", "Grafana", ("grafana token", "grafana sa token"), lambda r: "glsa_" + r.chars(ALNUM, 32) + "_" + r.chars(HEX, 8), header=bearer("grafana.acme.lan", "/api/dashboards/uid/slo")),
    SecretKind("grafana_cloud_token", "Grafana Cloud access-policy token", "Grafana", ("grafana cloud token", "grafana cloud api key"), g_grafana_cloud),
    SecretKind("okta_api_token", "Okta API token", "Okta", ("okta api token", "okta token"), lambda r: "00" + r.tail(URLSAFE, 40), header=Header("Authorization", "SSWS ", "acme.okta.com", "/api/v1/users?limit=25")),
    SecretKind("auth0_client_secret", "Auth0 client secret", "Auth0", ("auth0 client secret",), lambda r: r.tail(URLSAFE, 64)),
    SecretKind("jwt", "access token (JWT)", "the API", ("access token", "id token", "auth token"), g_jwt, header=bearer("api.acme.example", "/v1/me")),
    SecretKind("rsa_private_key", "RSA private key", "TLS", ("private key", "tls key", "signing key"), g_private("RSA PRIVATE KEY", lambda r: rsa_pkcs1(r, r.choice((1024, 1024, 2048)))), shape="pem"),
    SecretKind("ec_private_key", "EC private key", "TLS", ("private key", "ec key", "jwt signing key"), g_private("EC PRIVATE KEY", ec_sec1), shape="pem"),
    SecretKind("pkcs8_private_key", "private key (PKCS#8)", "TLS", ("private key", "tls private key"), g_private("PRIVATE KEY", lambda r: pkcs8(r, r.choice((0, 0, 1024, 2048)))), shape="pem"),
    SecretKind("openssh_private_key", "SSH deploy key", "SSH", ("ssh private key", "deploy key"), lambda r: openssh_private(r, f"{r.choice(USERS)}@{r.choice(PROJECTS)}"), shape="pem"),
    SecretKind("pgp_private_key", "PGP private key", "GnuPG", ("gpg private key", "signing key"), lambda r: pgp_block(r, f"{r.choice(PEOPLE)} <{r.choice(USERS)}@{r.choice(ORGS)}.example>", private=True), shape="pem"),
    SecretKind("generic_password", "password", "the service", ("db password", "admin password", "smtp password", "ldap bind password", "password", "keystore password", "root password"), g_password),
    SecretKind("generic_secret", "secret", "the app", ("secret key", "session secret", "jwt secret", "encryption key", "signing secret", "cookie secret", "hmac key", "app secret"), g_generic_secret),
    SecretKind("basic_auth_credentials", "basic auth header", "the API", ("authorization",), lambda r: b64(f"{r.choice(USERS)}:{g_password(r)}".encode()), shape="header", header=Header("Authorization", "Basic ", "registry.acme.lan", "/v2/_catalog")),
    SecretKind("bearer_token", "bearer token", "the API", ("authorization",), lambda r: r.choice((r.chars(ALNUM, 40), r.chars(HEX, 64), r.tail(ALNUM + "-._~", 48))), shape="header", header=bearer("api.acme.example", "/v2/reports")),
    SecretKind("url_password", "URL with credentials", "the internal mirror", ("repo url", "index url", "registry url"), g_url_password, shape="url", carrier=c_url_password),
    SecretKind("docker_config_auth", "registry auth", "the registry", ("auth",), g_docker_auth, shape="docker"),
)
# fmt: on
# fmt: on
SK = {sk.kind: sk for sk in SECRET_KINDS}


# ------------------------------------------------------------------------------------------- look-alikes

AZURITE_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
JWT_IO = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ"
    ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)
# fmt: off
# fmt: off
AWS_EXAMPLES = (
    ("aws access key id", "AKIAIOSFODNN7EXAMPLE"),
    ("aws secret access key", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
    ("aws access key id", "AKIAI44QH8DHBEXAMPLE"),
    ("aws secret access key", "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY"),
)
# fmt: on
# fmt: on
# fmt: off
# fmt: off
PLACEHOLDERS = (
    ("openai api key", "sk-..."),
    ("openai api key", "sk-proj-\u2026"),
    ("api key", "YOUR_API_KEY"),
    ("github token", "<your-token>"),
    ("db password", "changeme"),
    ("stripe secret key", "sk_live_xxxxxxxxxxxxxxxxxxxxxxxx"),
    ("slack webhook url", "https://hooks.slack.com/services/XXX/YYY/ZZZ"),
    ("anthropic api key", "sk-ant-..."),
    ("admin password", "<password>"),
    ("aws access key id", "AKIAXXXXXXXXXXXXXXXX"),
    ("api token", "REPLACE_ME"),
    ("secret key", "your-secret-key-here"),
    ("client secret", "<client-secret>"),
    ("password", "password"),
    ("hf token", "hf_xxx"),
    ("api key", "xxxx-xxxx-xxxx-xxxx"),
    ("auth token", "<redacted>"),
    ("jwt secret", "please-change-me"),
    ("api key", "dummy-key-for-tests"),
    ("github token", "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"),
    ("sendgrid api key", "SG.xxxxx"),
    ("database url", "postgres://user:password@localhost:5432/dbname"),
)
# fmt: on
# fmt: on
# fmt: off
# fmt: off
SECRET_NAMES = ("stripe secret key", "openai api key", "github token", "db password", "slack bot token", "aws secret access key", "sendgrid api key", "datadog api key", "npm token", "anthropic api key", "jwt secret", "sentry auth token")
# fmt: on
# fmt: on
# fmt: off
# fmt: off
TEMPLATE_REFS = (
    ("db password", "{{ .Values.postgres.password }}"),
    ("npm token", "${{ secrets.NPM_TOKEN }}"),
    ("api key", "{{ api_key }}"),
    ("slack token", "{{ lookup('env', 'SLACK_TOKEN') }}"),
    ("stripe secret key", "<%= ENV['STRIPE_SECRET_KEY'] %>"),
    ("db password", "${var.db_password}"),
    ("client secret", "#{ClientSecret}#"),
    ("api token", '{{ env "API_TOKEN" }}'),
    ("password", "((concourse_db_password))"),
    ("github token", "${{ secrets.GITHUB_TOKEN }}"),
    ("openai api key", "{{ vault_openai_api_key }}"),
    ("aws secret access key", "{{ .Env.AWS_SECRET_ACCESS_KEY }}"),
)
# fmt: on
# fmt: on
# fmt: off
# fmt: off
PLAIN_TEXTS = ("hello from the staging cluster", '{"theme":"dark","lang":"fr"}', "user-preferences: compact", "Welcome to the orders service!", "maintenance window starts at 02:00 UTC", "build 4411 passed", "kind: ConfigMap", "Olá, mundo", "grüße aus Berlin", "not a secret, just a banner")
# fmt: on
# fmt: on
# fmt: off
# fmt: off
DOC_HOSTS = ("docs.vendor-portal.example", "kb.acme-support.example", "forum.selfhosted.example", "help.saas-tool.example", "manuals.devices.example")
# fmt: on
# fmt: on


def p_env_ref(r: Rng) -> tuple[str, str]:
    name = r.choice(SECRET_NAMES)
    var = name.upper().replace(" ", "_")
    return name, r.choice((f"${{{var}}}", f"${var}", f"${{{var}:?missing}}", f"%{var}%", f"${{env:{var}}}"))


def p_masked(r: Rng) -> tuple[str, str]:
    last4 = r.chars(LOWER_ALNUM, 4)
    dot = "\u2022"
    return r.choice(
        (
            ("stripe secret key", "sk_live_" + "*" * r.randint(8, 20) + last4),
            ("github token", "ghp_" + "*" * r.randint(6, 12) + last4),
            ("openai api key", "sk-proj-" + dot * r.randint(8, 16) + last4),
            ("db password", dot * r.randint(8, 12)),
            ("aws secret access key", "*" * r.randint(12, 24) + last4.upper()),
            ("slack bot token", "xoxb-****-****-" + last4),
            ("password", "********"),
            ("api key", f"XXXX-XXXX-XXXX-{last4.upper()}"),
            ("anthropic api key", "sk-ant-" + "\u2026" + last4),
            ("twilio auth token", dot * 6 + last4),
        )
    )


def p_pick(table: Sequence[tuple[str, str]]) -> Callable[[Rng], tuple[str, str]]:
    def pair(r: Rng) -> tuple[str, str]:
        return r.choice(table)

    return pair


def lk_semver(r: Rng) -> str:
    core = f"{r.randint(0, 24)}.{r.randint(0, 40)}.{r.randint(0, 30)}"
    if r.chance(0.15):
        core += r.choice(("-rc.1", "-beta.2", "-alpha.7", "-rc.3"))
    return ("v" if r.chance(0.25) else "") + core


def lk_timestamp(r: Rng) -> str:
    y, mo, d, h, mi, s = (
        r.randint(2023, 2026),
        r.randint(1, 12),
        r.randint(1, 28),
        r.randint(0, 23),
        r.randint(0, 59),
        r.randint(0, 59),
    )
    return r.choice(
        (
            f"{y}-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}Z",
            f"{y}-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}.{r.randint(0, 999):03d}Z",
            f"{y}-{mo:02d}-{d:02d} {h:02d}:{mi:02d}:{s:02d}",
            f"{y}-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}+0{r.randint(1, 9)}:00",
            str(r.randint(1_690_000_000, 1_790_000_000)),
        )
    )


def lk_date(r: Rng) -> str:
    return f"{r.randint(2023, 2027)}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"


def lk_pod(r: Rng) -> str:
    app = r.choice(PROJECTS)
    if r.chance(0.2):
        return f"{app}-migrate-{r.number(8)}-{r.chars(K8S_SAFE, 5)}"
    return f"{app}-{r.chars(K8S_SAFE, r.choice((9, 10)))}-{r.chars(K8S_SAFE, 5)}"


def lk_b64_image(r: Rng) -> str:
    if r.chance(0.7):
        width, height = r.choice((16, 32, 48, 64)), r.choice((16, 32, 48, 64))
        ihdr = b"IHDR" + struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
        chunk = struct.pack(">I", 13) + ihdr + struct.pack(">I", zlib.crc32(ihdr))
        idat = r.blob(r.randint(30, 90))
        data = b"\x89PNG\r\n\x1a\n" + chunk + struct.pack(">I", len(idat)) + b"IDAT" + idat
        return "data:image/png;base64," + b64(data)
    return "data:image/gif;base64," + b64(b"GIF89a\x01\x00\x01\x00\x80\x00\x00" + r.blob(r.randint(12, 30)))


def p_client_id(r: Rng) -> tuple[str, str]:
    return r.choice(
        (
            ("google client id", f"{r.number(12)}-{r.chars(LOWER_ALNUM, 32)}.apps.googleusercontent.com"),
            ("github client id", "Ov23li" + r.chars(ALNUM, 14)),
            ("github app client id", "Iv1." + r.chars(HEX, 16)),
            ("slack client id", f"{r.number(10)}.{r.number(13)}"),
        )
    )


def lk_analytics(r: Rng) -> str:
    return r.choice(
        (
            "G-" + r.chars(UPPER_ALNUM, 10),
            f"UA-{r.number(8)}-{r.randint(1, 9)}",
            "GTM-" + r.chars(UPPER_ALNUM, 7),
            f"AW-{r.number(10)}",
        )
    )


def p_arn(r: Rng) -> tuple[str, str]:
    account, region, app = r.number(12), r.choice(REGIONS), r.choice(PROJECTS)
    return r.choice(
        (
            ("role arn", f"arn:aws:iam::{account}:role/{app}-deploy"),
            ("bucket arn", f"arn:aws:s3:::{r.choice(ORGS)}-{app}-artifacts"),
            ("function arn", f"arn:aws:lambda:{region}:{account}:function:{app}-handler"),
            ("topic arn", f"arn:aws:sns:{region}:{account}:{app}-alerts"),
            ("secret arn", f"arn:aws:secretsmanager:{region}:{account}:secret:prod/{app}/db-{r.chars(ALNUM, 6)}"),
            ("kms key arn", f"arn:aws:kms:{region}:{account}:key/{r.uuid4()}"),
        )
    )


def lk_iban(r: Rng) -> str:
    bban = r.number(8) + r.chars(DIGITS, 10)
    check = 98 - int(bban + "131400") % 97  # D=13, E=14, then "00"
    iban = f"DE{check:02d}{bban}"
    if r.chance(0.3):
        iban = r.choice(
            ("DE89370400440532013000", "GB82WEST12345698765432", "NL91ABNA0417164300", "FR1420041010050500013M02606")
        )
    return " ".join(iban[i : i + 4] for i in range(0, len(iban), 4)) if r.chance(0.5) else iban


def lk_phone(r: Rng) -> str:
    return r.choice(
        (
            f"+1 415 555 01{r.randint(0, 99):02d}",
            f"+44 20 7946 0{r.randint(0, 999):03d}",
            f"+33 1 99 00 {r.randint(10, 99)} {r.randint(10, 99)}",
            f"+61 491 570 {r.randint(100, 199)}",
            f"(555) 01{r.randint(0, 99):02d}-{r.randint(1000, 9999)}",
            f"+49 30 {r.number(7)}",
        )
    )


def lk_color(r: Rng) -> str:
    return r.choice(
        (
            f"#{r.chars(HEX, 6)}",
            f"#{r.chars(HEX, 3).upper()}",
            f"rgb({r.randint(0, 255)}, {r.randint(0, 255)}, {r.randint(0, 255)})",
            f"hsl({r.randint(0, 359)} {r.randint(20, 90)}% {r.randint(20, 80)}%)",
            f"#{r.chars(HEX, 8)}",
        )
    )


def lk_path(r: Rng) -> str:
    app, user = r.choice(PROJECTS), r.choice(("mei", "jonas", "priya", "dev"))
    return r.choice(
        (
            f"/var/log/{app}/app.log",
            f"/etc/{app}/config.yaml",
            f"C:\\Users\\{user}\\AppData\\Roaming\\{app}\\settings.json",
            "~/.ssh/id_ed25519",
            "/run/secrets/db_password",
            "/var/run/secrets/kubernetes.io/serviceaccount/token",
            f"./config/credentials.{r.choice(('yml.enc', 'json.age'))}",
            "/etc/ssl/private/server.key",
            f"/home/{user}/.aws/credentials",
            f"/opt/{app}/releases/{r.number(14)}/bin/server",
        )
    )


def lk_camel(r: Rng) -> str:
    words = r.sample(CAMEL_WORDS, r.randint(5, 8))
    name = "".join(words)
    return name[0].lower() + name[1:] if r.chance(0.3) else name


def lk_docs_url(r: Rng) -> str:
    host = r.choice(DOC_HOSTS)
    return r.choice(
        (
            f"https://{host}/guide/install.html;jsessionid={r.chars(HEX.upper(), 32)}",
            f"https://{host}/viewtopic.php?t={r.number(5)}&sid={r.chars(HEX, 32)}",
            f"https://{host}/article?id={r.number(4)}&PHPSESSID={r.chars(LOWER_ALNUM, 26)}",
            f"https://{host}/docs/api?session_id={r.chars(ALNUM, 24)}&lang=en",
        )
    )


def lk_mapbox(r: Rng) -> str:
    payload = compact({"u": r.choice(ORGS), "a": r.chars(LOWER_ALNUM, 25)})
    return f"pk.{b64url(payload.encode())}.{r.chars(URLSAFE, 22)}"


def c_digest(r: Rng, digest: Span) -> Frag:
    registry = r.choice(("ghcr.io", "docker.io/library", f"{r.number(12)}.dkr.ecr.{r.choice(REGIONS)}.amazonaws.com"))
    return [f"{registry}/{r.choice(PROJECTS)}@", digest]


def c_azurite(r: Rng, key: Span) -> Frag:
    if r.chance(0.5):
        return [
            "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=",
            key,
            ";BlobEndpoint=http://127.0.0.1:10000/devstoreaccount1;",
        ]
    return [key]


# fmt: off
# fmt: off
LOOK_KINDS: tuple[LookKind, ...] = (
    LookKind("uuid", "request id", ("tenant id", "request id", "subscription id", "client id", "correlation id", "workspace id"), lambda r: r.uuid4(), ("Tenant id for <<proj>> is <<V>>.", "Trace <<V>> shows the retry storm began in the gateway.", "The ticket links to request <<V>>.", "Subscription: <<V>> (shared with the data team)")),
    LookKind("git_sha", "commit", ("git sha", "build commit", "source revision", "deployed sha"), lambda r: r.chars(HEX, 40), ("Regression came in with <<V>>; <<who>> reverted it.", "Pinned <<proj>> to commit <<V>> until the fix lands.", "`git bisect` points at <<V>>.", "Deployed <<V>> to <<env>> on <<date>>."), section="build"),
    LookKind("sha256_digest", "sha256", ("artifact sha256", "checksum", "archive digest"), lambda r: hashlib.sha256(r.blob(16)).hexdigest(), ("Release tarball sha256: <<V>>", "Verified the installer against <<V>> before running it.", "sha256sum matches upstream (<<V>>)."), section="build"),
    LookKind("sha512_digest", "sha512", ("backup sha512", "checksum sha512"), lambda r: hashlib.sha512(r.blob(16)).hexdigest(), ("SHA-512 of the backup archive: <<V>>", "Mirror lists <<V>> as the sha512 of the ISO."), section="build"),
    LookKind("md5_digest", "md5", ("etag", "content md5", "file md5"), lambda r: hashlib.md5(r.blob(16), usedforsecurity=False).hexdigest(), ("S3 ETag was <<V>>, same as the local md5.", "md5 of the export: <<V>>"), section="build"),
    LookKind("sri_integrity", "SRI hash", ("script integrity", "sri hash"), lambda r: r.choice((f"sha384-{b64(r.blob(48))}", f"sha256-{b64(r.blob(32))}", f"sha512-{b64(r.blob(64))}")), ('Widget tag: `<script src="https://cdn.<<org>>.example/widget.min.js" integrity="<<V>>" crossorigin="anonymous"></script>`', "SRI hash for the analytics bundle: <<V>>"), section="web"),
    LookKind("npm_integrity", "lockfile integrity", ("integrity", "package integrity"), lambda r: "sha512-" + b64(r.blob(64)), ('package-lock has `"integrity": "<<V>>"` for <<pkg>>.', "Lockfile integrity for <<pkg>> changed to <<V>> after the reinstall."), section="build"),
    LookKind("semver", "version", ("version", "app version", "chart version", "node version"), lk_semver, ("Upgraded <<proj>> to <<V>> on <<date>>.", "Node <<V>> breaks the build; stay on the LTS line.", "Pinned `<<pkg>>@<<V>>` because of the peer-dependency warning.", "Versión desplegada: <<V>>"), section="build"),
    LookKind("timestamp", "timestamp", ("last sync", "created at", "expires at", "deployed at"), lk_timestamp, ("Outage began at <<V>> and lasted 14 minutes.", "Last successful sync: <<V>>", "Zeitstempel des Fehlers: <<V>>")),
    LookKind("iso_date", "date", ("review date", "renewal date", "release date"), lk_date, ("Next access review on <<V>>.", "Contract renewal due <<V>>.", "Prochaine revue le <<V>>.")),
    LookKind("k8s_pod_name", "pod", ("pod", "pod name", "leader pod"), lk_pod, ("Pod <<V>> keeps getting OOMKilled.", "`kubectl logs <<V>> -n <<ns>>` shows the stack trace.", "<<V>> was evicted during the node drain.")),
    LookKind("docker_image_digest", "image digest", ("image digest", "base image digest"), lambda r: "sha256:" + r.chars(HEX, 64), ("Deployed image <<V>>.", "Rollback target: <<V>>", "Base image pinned to <<V>>."), section="build", carrier=c_digest),
    LookKind("base64_text", "base64 blob", ("banner b64", "motd base64", "payload b64", "config blob"), lambda r: b64(r.choice(PLAIN_TEXTS).encode()), ("The header value <<V>> is only base64 of a small JSON/text note.", "`echo <<V>> | base64 -d` prints the fixture greeting.", "ConfigMap binaryData holds <<V>>, which decodes to plain text.")),
    LookKind("base64_image", "inline image", ("logo data uri", "favicon", "avatar placeholder"), lk_b64_image, ("Favicon inlined as <<V>> in the email template.", "Placeholder avatar: <<V>>"), section="web"),
    LookKind("env_reference", "env reference", ("api key",), lambda r: "", ("Compose passes <<V>> through to the container.", "Leave <<name>> as <<V>>; CI injects the real value.", "The runner expands <<V>> at start-up."), section="auth", special=True, pair=p_env_ref),
    LookKind("template_reference", "template reference", ("api key",), lambda r: "", ("Helm renders <<V>> at deploy time.", "The workflow reads <<V>>, so nothing is stored here.", "<<name>> comes from <<V>>."), section="auth", special=True, pair=p_pick(TEMPLATE_REFS)),
    LookKind("placeholder", "placeholder", ("api key",), lambda r: "", ("The README tells you to set <<name>> to <<V>> first.", "Example config ships with <<V>>; replace it locally.", "The docs still show <<V>> for <<name>>.", "<<name>> = <<V>> in the template (not a real value)."), section="auth", special=True, pair=p_pick(PLACEHOLDERS)),
    LookKind("masked_value", "masked value", ("api key",), lambda r: "", ("The dashboard only shows <<V>> for <<name>>.", "Vault UI masks it as <<V>>.", "Billing page lists the key as <<V>>."), section="auth", special=True, pair=p_masked),
    LookKind("aws_example_key", "AWS example key", ("aws access key id",), lambda r: "", ("AWS docs use <<V>> in every example.", "The sample config has <<V>>, the documented example value."), section="auth", pair=p_pick(AWS_EXAMPLES)),
    LookKind("azurite_key", "Azurite dev key", ("azure storage key", "azurite account key"), lambda r: AZURITE_KEY, ("Azurite's well-known dev key: <<V>>", "Local tests use the emulator key <<V>>."), section="auth", carrier=c_azurite),
    LookKind("jwt_io_example", "example JWT", ("example jwt", "sample token"), lambda r: JWT_IO, ("The sample token from jwt.io (<<V>>) decodes to John Doe.", "Test fixture uses the jwt.io example <<V>>."), section="auth"),
    LookKind("stripe_publishable_key", "Stripe publishable key", ("stripe publishable key", "next public stripe key"), lambda r: "pk_live_" + (r.chars(ALNUM, 24) if r.chance(0.35) else "51" + r.chars(ALNUM, 97)), ("Publishable key for the checkout page: <<V>>", "Frontend ships <<V>>; that one is public."), section="web"),
    LookKind("mapbox_public_token", "Mapbox public token", ("mapbox token", "mapbox public token"), lk_mapbox, ("Map tiles use the public token <<V>> (URL-restricted).", "Mapbox default public token: <<V>>"), section="web"),
    LookKind("oauth_client_id", "OAuth client id", ("oauth client id",), lambda r: "", ("OAuth client id: <<V>>", "Register <<V>> as an authorised client on the consent screen."), section="auth", pair=p_client_id),
    LookKind("analytics_id", "analytics id", ("ga measurement id", "gtm container id", "analytics id"), lk_analytics, ("Analytics property <<V>> is on the marketing site.", "Tag <<V>> loads the cookie banner."), section="web"),
    LookKind("sentry_dsn", "Sentry DSN", ("sentry dsn", "public dsn"), lambda r: (f"https://{r.chars(HEX, 32)}@o{r.number(6)}.ingest.{r.choice(('', 'us.', 'de.'))}sentry.io/{r.number(7)}"), ("Frontend DSN (public, fine to ship): <<V>>", "Sentry DSN for <<proj>>: <<V>>"), section="web"),
    LookKind("aws_arn", "ARN", ("role arn",), lambda r: "", ("The deploy role is <<V>>.", "Resource <<V>> needs the new policy."), pair=p_arn),
    LookKind("iban_test", "test IBAN", ("test iban", "sandbox iban"), lk_iban, ("Test IBAN for the payments sandbox: <<V>>", "Refund went to <<V>> (test account).")),
    LookKind("phone_number", "phone number", ("support phone", "oncall phone"), lk_phone, ("On-call phone: <<V>>", "<<who>>'s desk line is <<V>>.", "Telefon der Hotline: <<V>>")),
    LookKind("css_color", "colour", ("brand color", "accent color", "background color"), lk_color, ("Brand primary colour is <<V>>.", "Dark-mode background: <<V>>"), section="web"),
    LookKind("file_path", "path", ("log path", "config path", "cert path", "key path"), lk_path, ("Config lives at <<V>>.", "Logs are written to <<V>>.", "Le fichier est dans <<V>>.")),
    LookKind("camelcase_identifier", "identifier", ("handler class", "bean name", "component name"), lk_camel, ("The bug is in <<V>>.", "Rename <<V>> once the refactor is merged.", "Stack trace ends in <<V>>.")),
    LookKind("docs_session_url", "docs link", ("docs url", "reference url"), lk_docs_url, ("Reference: <<V>>", "The vendor docs link (<<V>>) still works.")),
    LookKind("ssh_public_key", "SSH public key", ("deploy public key", "authorized key", "ssh pubkey"), ssh_public, ("Added <<V>> to authorized_keys on the bastion.", "Public half of the deploy key: <<V>>"), section="auth"),
    LookKind("age_public_key", "age recipient", ("age recipient", "backup recipient"), lambda r: bech32("age", r.blob(32)), ("Encrypt backups to recipient <<V>>.", "sops uses age recipient <<V>>."), section="auth"),
    LookKind("ssh_fingerprint", "host key fingerprint", ("host key fingerprint", "known fingerprint"), lambda r: "SHA256:" + b64(r.blob(32)).rstrip("="), ("Bastion host key fingerprint: <<V>>", "Check the fingerprint <<V>> before accepting."), section="auth"),
    LookKind("pgp_public_key", "PGP public key", ("pgp public key", "release signing key"), lambda r: pgp_block(r, f"{r.choice(PEOPLE)} <{r.choice(USERS)}@{r.choice(ORGS)}.example>", private=False), ("<<who>>'s public key, for verifying release tags:\n\n```\n<<V>>\n```",), section="auth", multiline=True),
    LookKind("x509_certificate", "certificate", ("ca cert", "tls cert", "server certificate"), lambda r: pem("CERTIFICATE", x509_cert(r, f"{r.choice(PROJECTS)}.{r.choice(ORGS)}.example")), ("Server certificate (public, safe to share):\n\n```\n<<V>>\n```",), section="auth", multiline=True),
)
# fmt: on
# fmt: on
LK = {lk.kind: lk for lk in LOOK_KINDS}


# ------------------------------------------------------------------------------------------- contexts

CONTEXT_WEIGHTS = {
    "markdown": 28,
    "env": 7,
    "shell": 7,
    "yaml": 6,
    "json": 5,
    "toml": 3,
    "ini": 3,
    "properties": 2,
    "python": 5,
    "javascript": 4,
    "go": 3,
    "java": 3,
    "ruby": 3,
    "http": 4,
    "log": 4,
    "k8s_secret": 3,
    "docker_config": 2,
    "npmrc": 2,
    "pypirc": 2,
    "netrc": 2,
    "connection_string": 3,
}
CODE = ("python", "javascript", "go", "java", "ruby")
ENTRY = ("env", "yaml", "json", "toml", "ini", "properties", "k8s_secret", *CODE)
MULTI = ("markdown", "yaml", "json", "env", "toml", "k8s_secret", "shell", *CODE)
# fmt: off
# fmt: off
SPECIAL = {
    "docker_config": ("docker_config_auth",),
    "npmrc": ("npm_token", "github_pat", "github_fine_grained_pat", "gitlab_pat", "basic_auth_credentials"),
    "pypirc": ("pypi_token", "generic_password"),
    "netrc": ("generic_password", "github_pat", "github_fine_grained_pat", "gitlab_pat", "heroku_api_key", "heroku_api_key_legacy"),
}
# fmt: on
# fmt: on
SHAPE_CONTEXTS = {
    "token": (*ENTRY, "markdown", "shell", "log", "http"),
    "url": (*ENTRY, "markdown", "shell", "log", "connection_string"),
    "pem": MULTI,
    "blob": ("markdown", "json", "yaml", "env", "k8s_secret", "python", "shell"),
    "header": ("markdown", "shell", "log", "http", "yaml", "json", *CODE),
    "docker": ("markdown",),
}


def secret_contexts(sk: SecretKind) -> frozenset[str]:
    base = set(SHAPE_CONTEXTS[sk.shape])
    if sk.shape == "pem" or sk.kind == "gcp_service_account_key":
        base.discard("ini")
    base |= {ctx for ctx, kinds in SPECIAL.items() if sk.kind in kinds}
    return frozenset(base)


def look_contexts(lk: LookKind) -> frozenset[str]:
    base = set(MULTI) if lk.multiline else set(CONTEXT_WEIGHTS) - set(SPECIAL)
    if lk.special:
        base |= set(SPECIAL)
    return frozenset(base)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "app"


def key(words: Sequence[str], style: str) -> str:
    if style == "UPPER":
        return "_".join(w.upper() for w in words)
    if style == "snake":
        return "_".join(words)
    if style == "kebab":
        return "-".join(words)
    if style == "dotted":
        return ".".join(words)
    camel = words[0] + "".join(w.capitalize() for w in words[1:])
    return camel[0].upper() + camel[1:] if style == "pascal" else camel


def make_secret(r: Rng, sk: SecretKind) -> Item:
    words = tuple(r.choice(sk.names).split())
    value = sk.gen(r)
    common = {
        "kind": sk.kind,
        "secret": True,
        "words": words,
        "label": sk.label,
        "svc": sk.svc,
        "section": slug(sk.svc),
        "contexts": secret_contexts(sk),
        "header": sk.header,
        "shape": sk.shape,
    }
    if sk.shape == "pem":
        span = Span(sk.kind, value, True)
        flat: Frag = [Span(sk.kind, value.replace("\n", "\\n"), True)]
        return Item(value=flat, line=flat, block=[span], **common)  # type: ignore[arg-type]
    if sk.shape == "blob":
        pretty, flat = gcp_service_account(r, value)
        return Item(value=flat, line=flat, block=pretty, raw_json=True, **common)  # type: ignore[arg-type]
    span = Span(sk.kind, value, True)
    if sk.shape == "header" and sk.header:
        h = sk.header
        return Item(value=[h.prefix, span], line=[f"{h.name}: {h.prefix}", span], header_only=True, **common)  # type: ignore[arg-type]
    carried = sk.carrier(r, span) if sk.carrier else [span]
    return Item(value=carried, line=carried, **common)  # type: ignore[arg-type]


def gcp_service_account(r: Rng, private_pem: str) -> tuple[Frag, Frag]:
    """The JSON key file Google hands out; only the private_key value is labelled."""
    project = f"{r.choice(PROJECTS)}-{r.number(6)}"
    account = f"{r.choice(('deployer', 'ci', 'reporting', 'backup'))}@{project}.iam.gserviceaccount.com"
    escaped = private_pem.replace("\n", "\\n")
    span = Span("gcp_service_account_key", escaped, True)
    before = (("type", "service_account"), ("project_id", project), ("private_key_id", r.chars(HEX, 40)))
    after = (
        ("client_email", account),
        ("client_id", r.number(21)),
        ("auth_uri", "https://accounts.google.com/o/oauth2/auth"),
        ("token_uri", "https://oauth2.googleapis.com/token"),
        ("auth_provider_x509_cert_url", "https://www.googleapis.com/oauth2/v1/certs"),
        ("client_x509_cert_url", "https://www.googleapis.com/robot/v1/metadata/x509/" + quote(account)),
        ("universe_domain", "googleapis.com"),
    )
    pretty: Frag = ["{\n" + "".join(f'  "{k}": "{v}",\n' for k, v in before) + '  "private_key": "', span, '\\n",\n']
    pretty.append(",\n".join(f'  "{k}": "{v}"' for k, v in after) + "\n}")
    flat: Frag = ["{" + "".join(f'"{k}":"{v}",' for k, v in before) + '"private_key":"', span, '\\n",']
    flat.append(",".join(f'"{k}":"{v}"' for k, v in after) + "}")
    return pretty, flat


def make_look(r: Rng, lk: LookKind) -> Item:
    if lk.pair:
        name, value = lk.pair(r)
    else:
        name, value = r.choice(lk.names), lk.gen(r)
    span = Span(lk.kind, value, False)
    common = {
        "kind": lk.kind,
        "secret": False,
        "words": tuple(name.split()),
        "label": lk.label,
        "svc": lk.label,
        "section": lk.section,
        "contexts": look_contexts(lk),
        "shape": "look",
    }
    if lk.multiline:
        flat: Frag = [Span(lk.kind, value.replace("\n", "\\n"), False)]
        return Item(value=flat, line=flat, block=[span], **common)  # type: ignore[arg-type]
    carried = lk.carrier(r, span) if lk.carrier else [span]
    return Item(value=carried, line=carried, **common)  # type: ignore[arg-type]


# fmt: off
# fmt: off
BENIGN: tuple[tuple[str, Callable[[Rng], str]], ...] = (
    ("port", lambda r: r.choice(("3000", "5432", "8080", "8443", "9000"))),
    ("log level", lambda r: r.choice(("info", "debug", "warn"))),
    ("region", lambda r: r.choice(REGIONS)),
    ("timeout seconds", lambda r: str(r.choice((5, 10, 30, 60)))),
    ("max retries", lambda r: str(r.randint(2, 8))),
    ("base url", lambda r: f"https://api.{r.choice(ORGS)}.example/v{r.randint(1, 3)}"),
    ("feature flags", lambda r: r.choice(("new-checkout,dark-mode", "beta-search", "none"))),
    ("bucket", lambda r: f"{r.choice(ORGS)}-{r.choice(ENVS)}-assets"),
    ("workers", lambda r: str(r.choice((2, 4, 8, 16)))),
    ("environment", lambda r: r.choice(ENVS)),
    ("cache ttl", lambda r: str(r.choice((60, 300, 3600)))),
    ("locale", lambda r: r.choice(("de-DE", "fr-FR", "pt-BR", "ja-JP", "en-GB"))),
    ("enable metrics", lambda r: r.choice(("true", "false"))),
    ("db name", lambda r: r.choice(PROJECTS).replace("-", "_")),
    ("db user", lambda r: r.choice(USERS)),
    ("smtp host", lambda r: r.choice(("smtp.sendgrid.net", "smtp.mailgun.org", "email-smtp.eu-west-1.amazonaws.com"))),
    ("from address", lambda r: f"noreply@{r.choice(ORGS)}.example"),
    ("service name", lambda r: r.choice(PROJECTS)),
)
# fmt: on
# fmt: on


def benign(r: Rng, n: int) -> list[Item]:
    out = []
    for name, gen in r.sample(BENIGN, n):
        value: Frag = [gen(r)]
        out.append(Item(None, False, tuple(name.split()), value, value, name, "", "app", frozenset()))
    return out


def with_benign(r: Rng, items: list[Item], lo: int, hi: int) -> list[Item]:
    out = items + benign(r, r.randint(lo, hi))
    r.shuffle(out)
    return out


def sections(items: list[Item]) -> dict[str, list[Item]]:
    out: dict[str, list[Item]] = {}
    for it in items:
        out.setdefault("headers" if it.header_only else it.section, []).append(it)
    return out


# --------------------------------------------------------------------------------------- slot helpers


def slots(r: Rng, it: Item | None = None) -> dict[str, str | Span | Frag]:
    """Everything a template may ask for; dates, timestamps, pods and ids come as labelled look-alikes."""
    who, who2 = r.sample(PEOPLE, 2)
    app = r.choice(PROJECTS)
    out: dict[str, str | Span | Frag] = {
        "who": who,
        "who2": who2,
        "proj": app,
        "app": app,
        "env": r.choice(ENVS),
        "place": r.choice(PLACES),
        "org": r.choice(ORGS),
        "user": r.choice(USERS),
        "ns": r.choice(NAMESPACES),
        "tool": r.choice(TOOLS),
        "pkg": r.choice(PACKAGES),
        "svc": r.choice(SERVICES),
        "dbhost": r.choice(DB_HOSTS),
        "logger": r.choice(LOGGERS),
        "chat": "-100" + r.number(10),
        "date": Span("iso_date", lk_date(r), False),
        "ts": Span("timestamp", lk_timestamp(r), False),
        "pod": Span("k8s_pod_name", lk_pod(r), False),
        "uuid": Span("uuid", r.uuid4(), False),
        "uuid2": Span("uuid", r.uuid4(), False),
        "keyfile": r.choice(("deploy_key", "id_ed25519_ci", "github_actions", "bastion")),
    }
    if it is not None:
        out |= {
            "V": it.line,
            "label": it.label,
            "name": key(it.words, "UPPER"),
            "k": key(it.words, "snake"),
            "K": key(it.words, "UPPER"),
        }
        if it.kind is not None:
            out["svc"] = it.svc
        if it.header:
            out |= {"H": it.header.name, "P": it.header.prefix, "host": it.header.host, "path": it.header.path}
    return out


def filler(r: Rng) -> Frag:
    return fill(r.choice(FILLER), slots(r))


# ------------------------------------------------------------------------------------------ markdown

SECRET_PROSE = (
    "The <<label>> for <<proj>> is <<V>>.",
    "<<V>> (<<label>>, <<env>>)",
    "<<label>>: <<V>>",
    "<<name>> = <<V>>",
    "Paste <<V>> into <<place>> when the wizard asks for the <<label>>.",
    "`<<V>>` is what <<who>> handed me for <<svc>> on <<date>>.",
    "**<<label>>**: `<<V>>`",
    "<<who>> rotated the <<label>> on <<date>>; the new one is <<V>>",
    "If <<svc>> starts returning 401 again, swap in <<V>> and redeploy.",
    '> <<label>> (<<env>>): "<<V>>"',
    "The user asked me to keep the <<svc>> credential handy: <<V>>",
    "Use <<V>> whenever <<who>> wants me to call <<svc>>.",
    "Got a fresh <<label>> today (<<V>>); the old one is revoked.",
    "**<<V>>** is the <<label>>. Do not paste it in public channels.",
    "Stored the <<env>> <<label>> as <<V>> after the rotation on <<date>>.",
    "Q: which <<label>> does <<proj>> use in <<env>>? A: <<V>>",
    "1. Export <<name>>=<<V>> before running the integration tests.",
    "For <<svc>> in <<env>>, authenticate with '<<V>>'.",
    "[<<date>>] <<who>> sent the <<label>> over DM: <<V>>",
    "<<label>> (expires in 90 days): <<V>>",
    "Credentials, <<svc>>: <<V>>",
    "At <<who>>'s request the <<label>> stays here until the vault migration: <<V>>",
    "<<V>> is the <<env>> <<label>>, not the staging one.",
    "<<V>> is what <<proj>> reads from <<name>>.",
    "Remember <<V>> for <<svc>> (<<env>>).",
    'Key for <<svc>>: "<<V>>" (scoped to <<proj>>)',
    "New <<label>> => <<V>>",
    "*<<label>>* `<<V>>`, owner <<who>>",
    "TODO(<<who>>): move <<V>> out of this note and into <<place>>.",
    "The <<svc>> console shows <<V>> as the active <<label>>.",
    "When the CLI prompts for a token, type <<V>> and press enter.",
    "`<<name>>: <<V>>` # <<env>>",
    "Set <<name>> to <<V>> in <<place>>, then restart <<proj>>.",
    "ok so the <<label>> is <<V>> (<<who>> confirmed)",
    "Backup copy of the <<label>>, just in case: <<V>>",
    "Working <<label>> for local dev: <<V>>",
    "In <<env>> the <<svc>> integration authenticates with <<V>>.",
    '<<who>>: "try <<V>>, that one has write scope"',
    "old key revoked; current <<label>> = <<V>>",
    "Secret for <<proj>>/<<env>>: <<V>>",
    "- <<svc>> (<<env>>) -> <<V>>",
    "<<label>>, as given by <<who>>, is <<V>> and it works from the VPN only.",
    "Here's the <<label>> again since I keep losing it: <<V>>",
    "I keep the <<label>> here: <<V>>; <<who>> knows.",
    "La clé <<label>> pour <<proj>> est <<V>> (ne pas partager).",
    "El <<label>> de <<env>> es «<<V>>».",
    "Zugangsdaten für <<svc>> (<<env>>): <<V>>",
    "<<svc>>の<<label>>は <<V>> です。",
    "Token do <<svc>> em <<env>>: <<V>>, não commitar!",
    "Klucz <<svc>> dla środowiska <<env>>: <<V>>",
    "Ключ <<svc>> для <<env>>: <<V>>",
    "<<svc>> 的 <<label>>: <<V>> (<<who>> 提供)",
    "<<svc>> <<label>> 값은 <<V>> 입니다.",
    "<<svc>> anahtarı (<<env>>): <<V>>",  # noqa: RUF001
    "Il token di <<svc>> per <<env>> è <<V>>, scade tra 30 giorni.",
)
HEADER_PROSE = (
    "Header that worked against <<host>>: `<<V>>`",
    'curl needs `-H "<<V>>"` or the API answers 403.',
    "<<who>> debugged it in Postman with <<V>>",
    "Auth for <<host>>: <<V>>",
    "Request header (copied from the browser devtools): <<V>>",
)
BLOCK_PROSE = (
    "<<label>> for <<proj>> (<<env>>):\n\n```\n<<V>>\n```",
    "Deploy key <<who>> generated on <<date>>:\n\n```text\n<<V>>\n```",
    "### <<label>>\n\n```pem\n<<V>>\n```",
    "Saved here until it goes into <<place>>:\n\n~~~\n<<V>>\n~~~",
    "Contents of `~/.ssh/<<keyfile>>`:\n\n```\n<<V>>\n```",
    "Ключ для <<svc>>:\n\n```\n<<V>>\n```",
    "<<who>> pasted the <<label>> in chat:\n\n    <<I>>",
)
JSON_BLOCK_PROSE = (
    "Service-account JSON for <<proj>> (<<env>>):\n\n```json\n<<V>>\n```",
    "Key file <<who>> downloaded from the console on <<date>>:\n\n```\n<<V>>\n```",
)
LOOK_GENERIC = (
    "- <<label>>: `<<V>>`",
    "<<label>> -> <<V>>",
    "<<name>> = <<V>>",
    "(<<label>>: <<V>>)",
)
TABLE_HEADS = (
    ("Service", "Env", "Value"),
    ("What", "Where", "Value"),
    ("Name", "Scope", "Credential"),
    ("Clé", "Env", "Valeur"),
    ("項目", "環境", "値"),
)


def md_sentence(r: Rng, it: Item) -> Frag:
    s = slots(r, it)
    if it.multiline:
        s["V"] = it.block
        s["I"] = indented(it.block, "    ")
        if not it.secret:
            return fill(r.choice(LK[str(it.kind)].prose), s)
        return fill(r.choice(JSON_BLOCK_PROSE if it.raw_json else BLOCK_PROSE), s)
    if not it.secret:
        own = LK[str(it.kind)].prose
        return fill(r.choice(own) if r.chance(0.75) else r.choice(LOOK_GENERIC), s)
    return fill(r.choice(HEADER_PROSE if it.header_only else SECRET_PROSE), s)


def md_table(r: Rng, items: list[Item]) -> Frag:
    head = r.choice(TABLE_HEADS)
    rows: list[Frag] = [[f"| {head[0]} | {head[1]} | {head[2]} |"], ["|---|---|---|"]]
    for it in items:
        s = slots(r, it)
        rows.append(
            fill(
                r.choice(
                    (
                        "| <<svc>> | <<env>> | `<<V>>` |",
                        "| <<label>> | <<env>> | <<V>> |",
                        "| <<name>> | <<proj>> | `<<V>>` |",
                    )
                ),
                s,
            )
        )
    return joined(rows, "\n")


FENCE_LANG = {
    "env": "dotenv",
    "shell": "bash",
    "yaml": "yaml",
    "json": "json",
    "toml": "toml",
    "ini": "ini",
    "properties": "properties",
    "python": "python",
    "javascript": "js",
    "go": "go",
    "java": "java",
    "ruby": "ruby",
    "http": "http",
    "log": "text",
    "k8s_secret": "yaml",
    "docker_config": "json",
    "npmrc": "ini",
    "pypirc": "ini",
    "netrc": "text",
}


def fenced(r: Rng, ctx: str, body: Frag) -> Frag:
    lang = FENCE_LANG.get(ctx, "") if r.chance(0.85) else ""
    tail = "" if text_of(body).endswith("\n") else "\n"
    return [f"```{lang}\n", *body, tail + "```"]


def bulletize(r: Rng, blocks: list[Frag]) -> list[Frag]:
    """Turn a run of one-line sentences into a list, the way notes drift into bullets."""
    marker = r.choice(("- ", "* ", "1. "))
    out: list[Frag] = []
    run: list[Frag] = []
    for block in [*blocks, []]:
        text = text_of(block)
        if block and "\n" not in text and not text.startswith(("-", "|", "#", ">", "1.", "*")):
            run.append(block)
            continue
        if run:
            out.append(joined([[marker if marker != "1. " else f"{i + 1}. ", *b] for i, b in enumerate(run)], "\n"))
            run = []
        if block:
            out.append(block)
    return out


def r_markdown(r: Rng, items: list[Item]) -> Frag:
    pending = list(items)
    r.shuffle(pending)
    body: list[Frag] = [filler(r) for _ in range(r.randint(1, 3))]
    singles = [it for it in pending if not it.multiline and not it.header_only]
    if len(singles) >= 2 and r.chance(0.3):
        chosen = singles[: r.randint(2, min(4, len(singles)))]
        body.append(md_table(r, chosen))
        pending = [it for it in pending if it not in chosen]
    if pending and r.chance(0.3):
        ctx = r.choice(("env", "yaml", "json", "toml", "shell", "python", "javascript"))
        chosen = [it for it in pending if ctx in it.contexts][: r.randint(1, 3)]
        if chosen:
            body.append(fenced(r, ctx, RENDER[ctx](r, chosen)))
            pending = [it for it in pending if it not in chosen]
    body.extend(md_sentence(r, it) for it in pending)
    body.extend(filler(r) for _ in range(r.randint(0, 2)))
    r.shuffle(body)
    if r.chance(0.5):
        body = bulletize(r, body)
    lead = next((it for it in items if it.secret), None)
    if r.chance(0.35):
        body.insert(r.randint(0, max(0, len(body) - 1)), fill(r.choice(SUBHEADINGS), slots(r, lead)))
    return joined([fill(r.choice(TITLES), slots(r, lead)), *body], "\n\n")


# --------------------------------------------------------------------------------------- config files

SHELL_SPECIAL = frozenset(" \t#$`\"'\\!&;|<>(){}*?[]~%")
YAML_SPECIAL = frozenset(":#{}[],&*!|>'\"%@`")
YAML_WORDS = frozenset(("yes", "no", "true", "false", "null", "on", "off", "~"))


def shell_quoted(r: Rng, frag: Frag) -> Frag:
    text = text_of(frag)
    if "'" in text:
        return ['"', *tmap(frag, lambda s: re.sub(r'(["$`\\])', r"\\\1", s)), '"']
    if any(c in SHELL_SPECIAL for c in text) or not text.isascii():
        return ["'", *frag, "'"]
    q = r.choice(("", '"', "'"))
    return [q, *frag, q] if q else list(frag)


def yaml_scalar(r: Rng, frag: Frag) -> Frag:
    text = text_of(frag)
    plain = (
        bool(text) and text[0].isalnum() and not any(c in YAML_SPECIAL for c in text) and text.lower() not in YAML_WORDS
    )
    plain = plain and not re.fullmatch(r"[\d.e+-]+", text)
    if plain and r.chance(0.6):
        return list(frag)
    if "'" not in text and r.chance(0.4):
        return ["'", *frag, "'"]
    return ['"', *tmap(frag, json_escape), '"']


def yaml_value(r: Rng, it: Item, pad: str) -> Frag:
    if it.multiline:
        return [r.choice(("|", "|-")) + "\n" + pad, *indented(it.block, pad)]
    return yaml_scalar(r, it.value)


def json_string(frag: Frag) -> Frag:
    return ['"', *tmap(frag, json_escape), '"']


def r_env(r: Rng, items: list[Item]) -> Frag:
    s = slots(r)
    lines: list[Frag] = []
    if r.chance(0.6):
        lines.append(
            fill(
                r.choice(
                    (
                        "# <<proj>> (<<env>>)",
                        "# copied from the <<env>> box on <<date>>",
                        "# local overrides, do not commit",
                        "## <<proj>> settings",
                    )
                ),
                s,
            )
        )
    for it in with_benign(r, items, 2, 5):
        name = key(it.words, "UPPER")
        if it.raw_json:
            value: Frag = ["'", *it.value, "'"]
        elif it.multiline:
            value = ['"', *(it.block if r.chance(0.5) else it.value), '"']
        else:
            value = shell_quoted(r, it.value)
        prefix = "export " if r.chance(0.1) else ""
        lines.append([f"{prefix}{name}=", *value])
    return [*joined(lines, "\n"), "\n"]


def r_yaml(r: Rng, items: list[Item]) -> Frag:
    style = r.choice(("snake", "kebab", "camel"))
    lines: list[Frag] = []
    if r.chance(0.3):
        lines.append(fill("# <<proj>> config for <<env>>", slots(r)))
    for section, its in sections(with_benign(r, items, 1, 4)).items():
        lines.append([f"{section}:"])
        for it in its:
            name = it.header.name if it.header_only and it.header else key(it.words, style)
            lines.append([f"  {name}: ", *yaml_value(r, it, "    ")])
    return [*joined(lines, "\n"), "\n"]


def r_json(r: Rng, items: list[Item]) -> Frag:
    if len(items) == 1 and items[0].raw_json and r.chance(0.7):
        return [*items[0].block, "\n"]
    style = r.choice(("camel", "snake"))
    groups: list[Frag] = []
    for section, its in sections(with_benign(r, items, 1, 4)).items():
        entries: list[Frag] = []
        for it in its:
            name = it.header.name if it.header_only and it.header else key(it.words, style)
            value = indented(it.block, "    ") if it.raw_json else json_string(it.block or it.value)
            entries.append([f'    "{name}": ', *value])
        groups.append([f'  "{key(section.split("_"), style)}": {{\n', *joined(entries, ",\n"), "\n  }"])
    return ["{\n", *joined(groups, ",\n"), "\n}\n"]


def r_toml(r: Rng, items: list[Item]) -> Frag:
    lines: list[Frag] = []
    for section, its in sections(with_benign(r, items, 1, 4)).items():
        lines.append([f"\n[{section}]" if lines else f"[{section}]"])
        for it in its:
            if it.multiline:
                lines.append([f'{key(it.words, "snake")} = """\n', *it.block, '\n"""'])
            else:
                lines.append([f"{key(it.words, 'snake')} = ", *json_string(it.value)])
    return [*joined(lines, "\n"), "\n"]


def r_ini(r: Rng, items: list[Item]) -> Frag:
    lines: list[Frag] = []
    for section, its in sections(with_benign(r, items, 1, 3)).items():
        name = r.choice(("default", "profile prod", "ci")) if section == "aws" else section
        lines.append([f"\n[{name}]" if lines else f"[{name}]"])
        sep = r.choice((" = ", "=", ": "))
        lines.extend([f"{key(it.words, 'snake')}{sep}", *it.value] for it in its)
    return [*joined(lines, "\n"), "\n"]


def r_properties(r: Rng, items: list[Item]) -> Frag:
    lines: list[Frag] = [fill("# <<proj>> application.properties (<<env>>)", slots(r))] if r.chance(0.5) else []
    for it in with_benign(r, items, 2, 4):
        name = f"{it.section.replace('_', '-')}.{key(it.words, 'kebab')}"
        lines.append([f"{name}=", *tmap(it.value, lambda s: s.replace("\\", "\\\\"))])
    return [*joined(lines, "\n"), "\n"]


def r_k8s(r: Rng, items: list[Item]) -> Frag:
    s = slots(r)
    head = fill("apiVersion: v1\nkind: Secret\nmetadata:\n  name: <<app>>-credentials\n  namespace: <<ns>>\n", s)
    if r.chance(0.4):
        head += ['  labels:\n    app.kubernetes.io/version: "', Span("semver", lk_semver(r).lstrip("v"), False), '"\n']
    lines: list[Frag] = [[*head, "type: Opaque\nstringData:"]]
    for it in with_benign(r, items, 0, 2):
        name = r.choice((key(it.words, "snake"), key(it.words, "kebab"), key(it.words, "UPPER")))
        if it.raw_json:
            name = "credentials.json"
        lines.append([f"  {name}: ", *yaml_value(r, it, "    ")])
    return [*joined(lines, "\n"), "\n"]


# ------------------------------------------------------------------------------------------------ code


@dataclass(frozen=True)
class Lang:
    """How one language writes constants, maps, environment defaults, headers and multi-line strings."""

    preamble: str
    const: tuple[str, str]  # (template, key style)
    setenv: tuple[str, str]
    map_open: str
    map_entry: tuple[str, str]
    map_close: str
    header: str
    multi: tuple[str, str]
    body_open: str = ""
    body_close: str = ""
    closing: str = ""
    indent: str = ""


LANGS = {
    "python": Lang(
        "import os\n\nimport requests\n",
        ('<<k>> = "<<v>>"', "UPPER"),
        ('os.environ.setdefault("<<k>>", "<<v>>")', "UPPER"),
        "SETTINGS = {",
        ('    "<<k>>": "<<v>>",', "snake"),
        "}",
        'resp = requests.get("https://<<host>><<path>>", headers={"<<H>>": "<<P>><<v>>"}, timeout=10)',
        ('<<k>> = """<<v>>"""', "UPPER"),
    ),
    "javascript": Lang(
        "import process from 'node:process';\n",
        ('const <<k>> = "<<v>>";', "camel"),
        ("process.env.<<k>> ??= '<<v>>';", "UPPER"),
        "export const config = {",
        ('  <<k>>: "<<v>>",', "camel"),
        "};",
        'await fetch("https://<<host>><<path>>", { headers: { "<<H>>": "<<P>><<v>>" } });',
        ("const <<k>> = `<<v>>`;", "camel"),
    ),
    "go": Lang(
        'package config\n\nimport (\n\t"net/http"\n\t"os"\n)\n',
        ('const <<k>> = "<<v>>"', "camel"),
        ('\tos.Setenv("<<k>>", "<<v>>")', "UPPER"),
        "var Defaults = Settings{",
        ('\t<<k>>: "<<v>>",', "pascal"),
        "}",
        '\treq.Header.Set("<<H>>", "<<P>><<v>>")',
        ("const <<k>> = `<<v>>`", "camel"),
        'func init() {\n\treq, _ := http.NewRequest(http.MethodGet, "https://<<host>><<path>>", nil)',
        "\t_ = req\n}",
    ),
    "java": Lang(
        "package com.acme.<<pkgname>>;\n\nimport java.net.URI;\nimport java.net.http.HttpRequest;\nimport java.util.Map;\nimport java.util.Properties;\n\npublic final class Credentials {",
        ('    static final String <<k>> = "<<v>>";', "UPPER"),
        ('        props.setProperty("<<k>>", "<<v>>");', "dotted"),
        "    static final Map<String, String> DEFAULTS = Map.of(",
        ('        "<<k>>", "<<v>>",', "dotted"),
        '        "source", "inline");',
        '        builder.header("<<H>>", "<<P>><<v>>");',
        ('    static final String <<k>> = """\n<<v>>\n""";', "UPPER"),
        '    static HttpRequest configure(Properties props) {\n        var builder = HttpRequest.newBuilder(URI.create("https://<<host>><<path>>"));',
        "        return builder.build();\n    }",
        "}",
    ),
    "ruby": Lang(
        "require 'net/http'\n",
        ('<<k>> = "<<v>>"', "UPPER"),
        ('ENV["<<k>>"] ||= "<<v>>"', "UPPER"),
        "Rails.application.configure do",
        ('  config.x.<<k>> = "<<v>>"', "snake"),
        "end",
        'request["<<H>>"] = "<<P>><<v>>"',
        ("<<k>> = <<-PEM\n<<v>>\nPEM", "UPPER"),
    ),
}


def r_code(lang_name: str, r: Rng, items: list[Item]) -> Frag:
    lang = LANGS[lang_name]
    base = slots(r)
    base["pkgname"] = str(base["app"]).replace("-", "")
    service = next((it.header for it in items if it.header and it.secret), None)
    base |= (
        {"host": service.host, "path": service.path}
        if service
        else {"host": f"api.{base['org']}.example", "path": "/v1/health"}
    )
    top: list[Frag] = []
    mapped: list[Frag] = []
    body: list[Frag] = []
    for it in with_benign(r, items, 1, 3):
        s = slots(r, it)
        value = tmap(it.value, json_escape)
        if it.header_only and it.header:
            body.append(fill(lang.header, {**s, "v": value[1:], "P": it.header.prefix}))
            continue
        if it.multiline:
            template, style = lang.multi
            top.append(fill(template, {**s, "k": key(it.words, style), "v": it.block}))
            continue
        choice = r.choice(("const", "setenv", "map", "header" if it.header and it.secret else "const"))
        if choice == "header" and it.header:
            body.append(fill(lang.header, {**s, "v": value}))
        elif choice == "setenv":
            template, style = lang.setenv
            (body if lang.body_open else top).append(fill(template, {**s, "k": key(it.words, style), "v": value}))
        elif choice == "map":
            template, style = lang.map_entry
            mapped.append(fill(template, {**s, "k": key(it.words, style), "v": value}))
        else:
            template, style = lang.const
            top.append(fill(template, {**s, "k": key(it.words, style), "v": value}))
    return code_layout(lang, base, top, mapped, body)


def code_layout(
    lang: Lang, base: dict[str, str | Span | Frag], top: list[Frag], mapped: list[Frag], body: list[Frag]
) -> Frag:
    parts: list[Frag] = [fill(lang.preamble, base)]
    if top:
        parts.append(joined(top, "\n"))
    if mapped:
        parts.append(joined([[lang.map_open], *mapped, [lang.map_close]], "\n"))
    if body and lang.body_open:
        opening = fill(lang.body_open, base)
        parts.append(joined([opening, *body, [lang.body_close]], "\n"))
    elif body:
        parts.append(joined(body, "\n"))
    if lang.closing:
        parts.append([lang.closing])
    return [*joined(parts, "\n\n"), "\n"]


# ------------------------------------------------------------------------------- shell, log, http, misc

SHELL_GENERIC = (
    "export <<K>>=<<Q>>",
    "<<K>>=<<Q>> <<cmd>>",
    "kubectl create secret generic <<app>>-env --from-literal=<<k>>=<<Q>> -n <<ns>>",
    "gh secret set <<K>> --body <<Q>>",
    "heroku config:set <<K>>=<<Q>> -a <<app>>",
    "fly secrets set <<K>>=<<Q>>",
    "vault kv put secret/<<app>> <<k>>=<<Q>>",
    "docker run --rm -e <<K>>=<<Q>> ghcr.io/<<org>>/<<app>>:latest",
    "set -x <<K>> <<Q>>",
    '$env:<<K>> = "<<V>>"',
    "echo <<Q>> > ~/.config/<<app>>/<<k>>",
)
SHELL_HEADER = (
    'curl -sS -H "<<H>>: <<P>><<V>>" https://<<host>><<path>>',
    'curl https://<<host>><<path>> \\\n  --header "<<H>>: <<P>><<V>>" \\\n  --header "Accept: application/json"',
    'http GET https://<<host>><<path>> "<<H>>:<<P>><<V>>"',
    'wget -qO- --header="<<H>>: <<P>><<V>>" https://<<host>><<path>>',
)
# fmt: off
# fmt: off
SHELL_BY_KIND = {
    "postgres_password": ('psql "<<V>>" -c "select 1"', 'pg_dump "<<V>>" > backup.sql'),
    "mysql_password": ('mysqlsh --uri "<<V>>"',),
    "mongodb_password": ('mongosh "<<V>>"', 'mongodump --uri="<<V>>" --out=dump/'),
    "redis_password": ('redis-cli -u "<<V>>" ping',),
    "url_password": ("git clone <<V>>", "pip install --index-url <<V>> acme-utils"),
    "dockerhub_pat": ("docker login -u <<user>> -p <<V>>", 'echo "<<V>>" | docker login -u <<user>> --password-stdin'),
    "generic_password": ("docker login registry.<<org>>.io -u deploy -p '<<V>>'", "mysql -h <<dbhost>> -u root -p'<<V>>'", "sshpass -p '<<V>>' ssh <<user>>@<<dbhost>>", "htpasswd -b -c .htpasswd admin '<<V>>'", "redis-cli -h <<dbhost>> -a '<<V>>' info"),
    "github_pat": ("git clone https://x-access-token:<<V>>@github.com/<<org>>/<<app>>.git", "echo <<V>> | gh auth login --with-token"),
    "github_fine_grained_pat": ("git remote set-url origin https://<<user>>:<<V>>@github.com/<<org>>/<<app>>.git",),
    "github_app_token": ("git clone https://x-access-token:<<V>>@github.com/<<org>>/<<app>>.git",),
    "gitlab_pat": ("git clone https://oauth2:<<V>>@gitlab.com/<<org>>/<<app>>.git", "glab auth login --token <<V>>"),
    "npm_token": ("npm config set //registry.npmjs.org/:_authToken=<<V>>", "NPM_TOKEN=<<V>> npm publish --access public"),
    "pypi_token": ("twine upload -u __token__ -p <<V>> dist/*", "uv publish --token <<V>>"),
    "nuget_api_key": ("dotnet nuget push bin/Release/*.nupkg -k <<V>> -s https://api.nuget.org/v3/index.json",),
    "rubygems_api_key": ("GEM_HOST_API_KEY=<<V>> gem push pkg/<<app>>.gem",),
    "vercel_token": ("vercel deploy --prod --token <<V>>", "vercel env ls --token=<<V>>"),
    "netlify_token": ("netlify deploy --prod --auth <<V>>", "NETLIFY_AUTH_TOKEN=<<V>> netlify status"),
    "heroku_api_key": ("HEROKU_API_KEY=<<V>> heroku apps:info -a <<app>>",),
    "heroku_api_key_legacy": ("HEROKU_API_KEY=<<V>> heroku ps -a <<app>>",),
    "aws_access_key_id": ("aws configure set aws_access_key_id <<V>> --profile <<env>>",),
    "aws_secret_access_key": ("aws configure set aws_secret_access_key <<V>> --profile <<env>>",),
    "aws_session_token": ("aws configure set aws_session_token <<V>>",),
    "telegram_bot_token": ('curl -s "https://api.telegram.org/bot<<V>>/getMe"', 'curl -s -X POST https://api.telegram.org/bot<<V>>/sendMessage -d chat_id=<<chat>> -d text="deploy ok"'),
    "mailgun_api_key": ("curl -s --user 'api:<<V>>' https://api.mailgun.net/v3/mg.<<org>>.example/messages -F to=ops@<<org>>.example -F subject=test -F text=hi",),
    "slack_webhook_url": ("curl -X POST -H 'Content-type: application/json' --data '{\"text\":\"deploy finished\"}' <<V>>",),
    "discord_webhook_url": ('curl -H "Content-Type: application/json" -d \'{"content":"build green"}\' <<V>>',),
    "azure_ad_client_secret": ("az login --service-principal -u <<uuid>> -p '<<V>>' --tenant <<uuid2>>",),
    "azure_storage_account_key": ("az storage blob list --account-name <<app>>store --account-key '<<V>>' -c backups",),
    "azure_storage_connection_string": ('az storage container list --connection-string "<<V>>"',),
    "azure_sas_token": ('azcopy copy ./dist "<<V>>" --recursive',),
    "stripe_secret_key": ("stripe login --api-key <<V>>", "curl https://api.stripe.com/v1/charges -u <<V>>:"),
    "twilio_auth_token": ("twilio profiles:add --auth-token <<V>>",),
}
# fmt: on
# fmt: on
# fmt: off
# fmt: off
SHELL_LOOK = {
    "docker_image_digest": ("docker pull <<V>>", "crane digest <<V>>"),
    "git_sha": ("git checkout <<V>>", "git revert --no-edit <<V>>"),
    "k8s_pod_name": ("kubectl logs -f <<V>> -n <<ns>>", "kubectl delete pod <<V>> -n <<ns>>"),
    "base64_text": ("echo <<V>> | base64 -d",),
    "semver": ("npm install <<pkg>>@<<V>>", "helm upgrade <<app>> ./chart --version <<V>>"),
    "sha256_digest": ('echo "<<V>>  <<app>>.tar.gz" | sha256sum -c -',),
    "uuid": ("az account set --subscription <<V>>",),
    "aws_arn": ("aws sts assume-role --role-arn <<V>> --role-session-name ci",),
    "ssh_fingerprint": ("ssh-keygen -lf ~/.ssh/known_hosts | grep <<V>>",),
    "age_public_key": ("age -r <<V>> -o backup.tar.age backup.tar",),
    "ssh_public_key": ("echo '<<V>> <<user>>@laptop' >> ~/.ssh/authorized_keys",),
    "file_path": ("tail -n 200 <<V>>", "ls -la <<V>>"),
    "env_reference": ('curl -H "Authorization: Bearer <<V>>" https://api.<<org>>.example/v1/me',),
    "placeholder": ('curl -H "Authorization: Bearer <<V>>" https://api.<<org>>.example/v1/me',),
}
# fmt: on
# fmt: on
# fmt: off
# fmt: off
SHELL_BENIGN = ("git pull --rebase", "make test", "kubectl get pods -n <<ns>>", "docker compose up -d", "npm ci", "terraform plan -out plan.bin", "cd ~/src/<<app>>", "gh pr checkout 412", "uv sync", "go test ./...")
# fmt: on
# fmt: on
# fmt: off
# fmt: off
SHELL_CMDS = ("npm run dev", "python manage.py runserver", "go test ./...", "make deploy", "bundle exec rails s", "pytest -x")
# fmt: on
# fmt: on


def shell_line(r: Rng, it: Item) -> Frag:
    s = slots(r, it)
    s["cmd"] = r.choice(SHELL_CMDS)
    if it.multiline:
        s["V"] = it.block
        target = "sa.json" if it.raw_json else ("cert.pem" if not it.secret else f"~/.ssh/{s['keyfile']}")
        return fill(f"cat > {target} <<'EOF'\n<<V>>\nEOF" + ("\nchmod 600 " + target if it.secret else ""), s)
    table = SHELL_BY_KIND if it.secret else SHELL_LOOK
    options: list[str] = list(table.get(str(it.kind), ()))
    if it.header and (it.header_only or r.chance(0.5)):
        options = list(SHELL_HEADER)
        s["V"] = it.value[1:] if it.header_only else it.value
    if not options or (r.chance(0.3) and not it.header_only):
        options = list(SHELL_GENERIC)
    s["Q"] = shell_quoted(r, it.value)
    return fill(r.choice(options), s)


def r_shell(r: Rng, items: list[Item]) -> Frag:
    lines: list[Frag] = [fill(r.choice(SHELL_BENIGN), slots(r)) for _ in range(r.randint(1, 3))]
    for it in items:
        if r.chance(0.4):
            lines.append(
                fill(
                    r.choice(
                        (
                            "# <<svc>> (<<env>>)",
                            "# from <<who>>, <<date>>",
                            "# works as of <<date>>",
                            "# nota: rotar después del viernes",
                        )
                    ),
                    slots(r, it),
                )
            )
        lines.append(shell_line(r, it))
    if r.chance(0.5):
        lines.append(fill(r.choice(SHELL_BENIGN), slots(r)))
    prompt = r.choice(("", "", "$ ", "% "))
    if r.chance(0.2):
        return [*joined([[f"  {500 + i}  ", *line] for i, line in enumerate(lines)], "\n"), "\n"]
    return [*joined([[prompt, *line] if not text_of(line).startswith("#") else line for line in lines], "\n"), "\n"]


LOG_PREFIX = (
    "<<ts>> INFO  [<<logger>>] ",
    "<<ts>> DEBUG <<pod>> ",
    "[<<ts>>] WARN: ",
    'time="<<ts>>" level=error logger=<<logger>> ',
    "<<ts>> <<pod>> <<logger>>: ",
)
LOG_SECRET = (
    "loaded <<k>>=<<V>> from environment",
    "retrying with fallback key <<V>>",
    "auth failed for key <<V>> (401)",
    "config dump: <<k>>: <<V>>",
    "using <<svc>> credential <<V>>",
)
LOG_URL = ("connecting to <<V>>", "pool created for <<V>> (size=10)", "connection to <<V>> failed: timeout after 5s")
LOG_HEADER = (
    "request headers: {'<<H>>': '<<P>><<V>>', 'Accept': 'application/json'}",
    "> <<H>>: <<P>><<V>>",
    "outgoing GET https://<<host>><<path>> <<H>>=<<P>><<V>>",
)
LOG_LOOK = ("<<k>>=<<V>>", "deployed <<V>>", "checking <<label>> <<V>>", "<<label>> is now <<V>>")
# fmt: off
# fmt: off
LOG_BENIGN = ("GET /healthz 200 1.2ms", "worker started pid=4412", "cache warm-up finished in 812ms", "scheduled job nightly-report finished", "shutting down gracefully", "received SIGTERM")
# fmt: on
# fmt: on


def log_line(r: Rng, it: Item | None) -> Frag:
    s = slots(r, it)
    if it is None:
        message = fill(r.choice(LOG_BENIGN), s)
    elif not it.secret:
        message = fill(r.choice(LOG_LOOK), s)
    elif it.header and (it.header_only or r.chance(0.4)):
        s["V"] = it.value[1:] if it.header_only else it.value
        message = fill(r.choice(LOG_HEADER), s)
    else:
        message = fill(r.choice(LOG_URL if it.shape == "url" else LOG_SECRET), s)
    if r.chance(0.2):
        head = fill(
            '{"ts":"<<ts>>","level":"<<lvl>>","logger":"<<logger>>","msg":"',
            {**s, "lvl": r.choice(("debug", "info", "error"))},
        )
        return [*head, *tmap(message, json_escape), '"}']
    return [*fill(r.choice(LOG_PREFIX), s), *message]


def r_log(r: Rng, items: list[Item]) -> Frag:
    entries: list[Item | None] = [*items, *([None] * r.randint(2, 5))]
    r.shuffle(entries)
    return [*joined([log_line(r, it) for it in entries], "\n"), "\n"]


def http_request(r: Rng, headed: Item | None, body: list[Item]) -> Frag:
    if headed and headed.header:
        host, path = headed.header.host, headed.header.path
    else:
        host, path = (
            f"api.{r.choice(ORGS)}.example",
            r.choice(("/v1/token", "/oauth/token", "/v2/settings", "/internal/config")),
        )
    method = "POST" if body else r.choice(("GET", "GET", "GET", "DELETE"))
    lines: list[Frag] = [[f"{method} {path} HTTP/1.1"], [f"Host: {host}"]]
    if headed and headed.header:
        lines.append(
            [
                f"{headed.header.name}: ",
                *(headed.value if headed.header_only else [headed.header.prefix, *headed.value]),
            ]
        )
    if r.chance(0.5):
        lines.append(["X-Request-Id: ", Span("uuid", r.uuid4(), False)])
    lines.append([f"User-Agent: {r.choice(PROJECTS)}/", Span("semver", lk_semver(r).lstrip("v"), False)])
    if body and all(it.secret for it in body) and r.chance(0.4):
        form = [[f"{key(it.words, 'snake')}=", *it.value] for it in body]
        lines += [
            ["Content-Type: application/x-www-form-urlencoded"],
            ["\ngrant_type=client_credentials&", *joined(form, "&")],
        ]
    elif body:
        fields = [[f'  "{key(it.words, "snake")}": ', *json_string(it.value)] for it in body]
        lines += [["Content-Type: application/json"], ["\n{\n", *joined(fields, ",\n"), "\n}"]]
    return joined(lines, "\n")


def r_http(r: Rng, items: list[Item]) -> Frag:
    headed = [it for it in items if it.header and it.secret and (it.header_only or r.chance(0.7))]
    rest = [it for it in items if it not in headed]
    requests: list[Frag] = [http_request(r, it, []) for it in headed[:-1]]
    requests.append(http_request(r, headed[-1] if headed else None, rest))
    out = joined(requests, r.choice(("\n\n###\n\n", "\n\n")))
    if r.chance(0.4):
        status = r.choice(("200 OK", "401 Unauthorized", "403 Forbidden", "429 Too Many Requests"))
        out += [
            f'\n\nHTTP/1.1 {status}\nContent-Type: application/json\nETag: "',
            Span("md5_digest", r.chars(HEX, 32), False),
            '"',
        ]
    return [*out, "\n"]


def r_connection(r: Rng, items: list[Item]) -> Frag:
    templates = (
        "- <<label>> (<<env>>): `<<V>>`",
        "<<name>>=<<V>>",
        "**<<svc>>**: <<V>>",
        "| <<svc>> | <<env>> | `<<V>>` |",
        "<<proj>> -> <<V>>",
    )
    lines: list[Frag] = [
        fill(
            r.choice(("## Connection strings", "# DSNs for <<proj>>", "Connexions (<<env>>):", "### Datenbanken")),
            slots(r),
        )
    ]
    for it in items:
        lines.append(fill(r.choice(templates), slots(r, it)))
    if r.chance(0.5):
        lines.append(filler(r))
    return joined(lines, "\n")


def r_docker_config(r: Rng, items: list[Item]) -> Frag:
    registries = [
        "https://index.docker.io/v1/",
        "ghcr.io",
        f"registry.{r.choice(ORGS)}.io",
        f"{r.number(12)}.dkr.ecr.{r.choice(REGIONS)}.amazonaws.com",
        "quay.io",
    ]
    r.shuffle(registries)
    auths = [
        [f'    "{registry}": {{\n      "auth": "', *it.value, '"\n    }']
        for registry, it in zip(registries, items, strict=False)
    ]
    parts: list[Frag] = [["{\n", '  "auths": {\n', *joined(auths, ",\n"), "\n  }" if auths else "  }"]]
    parts.append(
        [
            '  "HttpHeaders": {\n    "User-Agent": "Docker-Client/',
            Span("semver", f"{r.randint(20, 28)}.{r.randint(0, 3)}.{r.randint(0, 9)}", False),
            ' (linux)"\n  }',
        ]
    )
    if not auths or r.chance(0.3):
        parts.append(['  "credHelpers": {\n    "public.ecr.aws": "ecr-login"\n  }'])
    return [*joined(parts, ",\n"), "\n}\n"]


def r_npmrc(r: Rng, items: list[Item]) -> Frag:
    lines: list[Frag] = [["registry=https://registry.npmjs.org/"]]
    for it in items:
        if it.kind == "basic_auth_credentials":
            lines.append(["_auth=", *it.value[1:]])
        elif it.kind in ("github_pat", "github_fine_grained_pat"):
            lines.extend(
                (
                    ["@" + r.choice(ORGS) + ":registry=https://npm.pkg.github.com"],
                    ["//npm.pkg.github.com/:_authToken=", *it.value],
                )
            )
        elif it.kind == "gitlab_pat":
            lines.append([f"//gitlab.com/api/v4/projects/{r.number(8)}/packages/npm/:_authToken=", *it.value])
        elif it.secret:
            lines.append(
                [r.choice(("//registry.npmjs.org/:_authToken=", "//registry.npmjs.org/:_authToken = ")), *it.value]
            )
        else:
            host = r.choice(("npm.fontawesome.com", "registry.npmjs.org", f"npm.{r.choice(ORGS)}.lan"))
            lines.append([f"//{host}/:_authToken=", *it.value])
    lines += [
        [line]
        for line in r.sample(
            ["save-exact=true", "engine-strict=true", "fund=false", "audit=false", "always-auth=true"], 2
        )
    ]
    return [*joined(lines, "\n"), "\n"]


def r_pypirc(r: Rng, items: list[Item]) -> Frag:
    names = ["pypi", "testpypi", "internal", "gemfury"][: max(1, len(items))]
    lines: list[Frag] = [["[distutils]\nindex-servers =\n" + "".join(f"    {n}\n" for n in names)]]
    for name, it in zip(names, items, strict=False):
        repo = {"pypi": "https://upload.pypi.org/legacy/", "testpypi": "https://test.pypi.org/legacy/"}.get(
            name, f"https://pypi.{r.choice(ORGS)}.lan/simple/"
        )
        user = "__token__" if it.kind == "pypi_token" or not it.secret else r.choice(USERS)
        lines.append([f"[{name}]\nrepository = {repo}\nusername = {user}\npassword = ", *it.value, "\n"])
    return joined(lines, "\n")


def r_netrc(r: Rng, items: list[Item]) -> Frag:
    hosts = {
        "github_pat": "github.com",
        "github_fine_grained_pat": "api.github.com",
        "gitlab_pat": "gitlab.com",
        "heroku_api_key": "api.heroku.com",
        "heroku_api_key_legacy": "git.heroku.com",
    }
    lines: list[Frag] = []
    for it in items:
        host = hosts.get(
            str(it.kind),
            r.choice((f"ftp.{r.choice(ORGS)}.lan", f"nexus.{r.choice(ORGS)}.lan", "example-bucket.s3.amazonaws.com")),
        )
        login = r.choice((r.choice(USERS), f"{r.choice(USERS)}@{r.choice(ORGS)}.example"))
        if r.chance(0.5):
            lines.append([f"machine {host} login {login} password ", *it.value])
        else:
            lines.append([f"machine {host}\n  login {login}\n  password ", *it.value])
    if r.chance(0.5):
        lines.append(["default login anonymous password guest@"])
    return [*joined(lines, "\n"), "\n"]


RENDER: dict[str, Callable[[Rng, list[Item]], Frag]] = {
    "markdown": r_markdown,
    "env": r_env,
    "yaml": r_yaml,
    "json": r_json,
    "toml": r_toml,
    "ini": r_ini,
    "properties": r_properties,
    "k8s_secret": r_k8s,
    "shell": r_shell,
    "log": r_log,
    "http": r_http,
    "connection_string": r_connection,
    "docker_config": r_docker_config,
    "npmrc": r_npmrc,
    "pypirc": r_pypirc,
    "netrc": r_netrc,
}
for _lang in LANGS:
    RENDER[_lang] = lambda r, items, _name=_lang: r_code(_name, r, items)

# fmt: off
# fmt: off
FILE_NAMES = {
    "env": (".env", ".env.production", ".env.local"),
    "shell": ("shell history", "deploy.sh", "terminal session"),
    "yaml": ("docker-compose.yml", "values.yaml", "config.yaml", ".github/workflows/deploy.yml"),
    "json": ("appsettings.json", "config.json", "secrets.json"),
    "toml": ("config.toml", "settings.toml", ".streamlit/secrets.toml"),
    "ini": ("~/.aws/credentials", "app.ini", "setup.cfg"),
    "properties": ("application.properties", "gradle.properties"),
    "python": ("settings.py", "config.py", "scripts/sync.py"),
    "javascript": ("config.js", "server.mjs", "next.config.js"),
    "go": ("config.go", "main.go"),
    "java": ("Credentials.java", "ApiClient.java"),
    "ruby": ("config/initializers/keys.rb", "deploy.rb"),
    "http": ("request.http", "captured request"),
    "log": ("app.log", "pod logs", "journalctl output"),
    "k8s_secret": ("secret.yaml", "k8s/credentials.yaml"),
    "docker_config": ("~/.docker/config.json",),
    "npmrc": ("~/.npmrc", ".npmrc"),
    "pypirc": ("~/.pypirc",),
    "netrc": ("~/.netrc", "_netrc"),
}
# fmt: on
# fmt: on
INTROS = (
    "Pasted from <<proj>>'s <<file>> so I don't lose it:",
    "Current <<file>> on the <<env>> box (<<date>>):",
    "<<who>> asked me to remember this <<file>>:",
    "The snippet that finally worked:",
    "Voilà le fichier <<file>> utilisé en <<env>> :",
    "Aktuelle <<file>> für <<proj>>:",
    "<<file>> (<<env>>), as of <<date>>",
    "Copia de <<file>> que me pasó <<who>>:",
    "For reference, <<file>>:",
    "<<file>> の中身 (<<env>>):",
)
OUTROS = (
    "Restart the service after changing this.",
    "<<who>> owns this file.",
    "Keep this in sync with <<place>>.",
    "Do not commit this file.",
    "Checked on <<date>>.",
)
COMMENT = {
    "env": "# ",
    "shell": "# ",
    "yaml": "# ",
    "toml": "# ",
    "ini": "; ",
    "properties": "# ",
    "python": "# ",
    "javascript": "// ",
    "go": "// ",
    "java": "// ",
    "ruby": "# ",
    "k8s_secret": "# ",
    "npmrc": "; ",
    "pypirc": "# ",
    "netrc": "# ",
}


def finish(r: Rng, ctx: str, body: Frag) -> Frag:
    """Present a file as pasted into a memory note, or raw; pad short documents with more notes."""
    if ctx in ("markdown", "connection_string"):
        out = body
    elif (ctx in COMMENT or ctx in ("log", "http")) and len(text_of(body)) >= 200 and r.chance(0.35):
        out = [COMMENT[ctx], *filler(r), "\n", *body] if ctx in COMMENT and r.chance(0.5) else body
    else:
        s = slots(r)
        aws_profile = ctx == "ini" and "aws_" in text_of(body)
        s["file"] = (
            "~/.aws/credentials" if aws_profile else r.choice(FILE_NAMES[ctx][1:] if ctx == "ini" else FILE_NAMES[ctx])
        )
        parts: list[Frag] = []
        if r.chance(0.5):
            parts.append(fill(r.choice(TITLES), s))
        parts += [fill(r.choice(INTROS), s), fenced(r, ctx, body)]
        if r.chance(0.5):
            parts.append(fill(r.choice(OUTROS), s))
        out = joined(parts, "\n\n")
    while len(text_of(out)) < 200:
        out = [*out, "\n\n", *filler(r)]
    return out


# -------------------------------------------------------------------------------------------- planning


# Kinds that take many shapes get more examples than the rest.
BOOST = {
    "generic_password": 2.5,
    "generic_secret": 2.0,
    "bearer_token": 1.5,
    "basic_auth_credentials": 1.5,
    "jwt": 1.5,
    "url_password": 1.5,
}


def weighted(r: Rng, options: Sequence[str], counts: Counter[str], minimum: int) -> str:
    """Mostly the kind furthest below its share so far, so every kind reaches its minimum; otherwise a weighted draw."""
    share = {o: counts[o] / (minimum * BOOST.get(o, 1.0)) for o in options}
    if r.chance(0.5):
        lowest = min(share.values())
        return r.choice([o for o in options if share[o] == lowest])
    return r.choices(list(options), [1.0 / (1 + share[o]) ** 4 for o in options])[0]


def pick(r: Rng, options: Sequence[str], counts: Counter[str], minimum: int, n: int) -> list[str]:
    chosen: list[str] = []
    for _ in range(n):
        left = [o for o in options if o not in chosen]
        if not left:
            break
        chosen.append(weighted(r, left, counts, minimum))
    return chosen


def plan_document(r: Rng, has_secret: bool, empty: bool, counts: Counter[str]) -> tuple[str, list[Item]]:
    contexts = list(CONTEXT_WEIGHTS)
    weights = [
        float(CONTEXT_WEIGHTS[c]) if has_secret or c not in SPECIAL else CONTEXT_WEIGHTS[c] / 2 for c in contexts
    ]
    ctx = r.choices(contexts, weights)[0]
    items: list[Item] = []
    if has_secret:
        fits = [sk.kind for sk in SECRET_KINDS if ctx in secret_contexts(sk)]
        n = r.choices((1, 2, 3, 4), (25, 35, 25, 15))[0] if ctx not in SPECIAL else r.randint(1, 2)
        kinds = pick(r, fits, counts, MIN_SECRET_EXAMPLES + 8, n)
        for kind in list(kinds):
            for companion in SK[kind].companions:
                if companion not in kinds and ctx in secret_contexts(SK[companion]) and r.chance(0.7):
                    kinds.append(companion)
        items += [make_secret(r, SK[k]) for k in kinds]
    if not empty:
        fits = [lk.kind for lk in LOOK_KINDS if ctx in look_contexts(lk)]
        n = r.randint(0, 3) if has_secret else r.randint(2, 6)
        if ctx in SPECIAL:
            n = min(n, 2)
        items += [make_look(r, LK[k]) for k in pick(r, fits, counts, MIN_LOOKALIKE_EXAMPLES * 2, n)]
    seen: set[tuple[str, ...]] = set()
    for it in sorted(items, key=lambda it: not it.secret):
        while it.words in seen:
            it.words = (*it.words, r.choice(("fallback", "example", "old", "template", "default", "v2")))
        seen.add(it.words)
    r.shuffle(items)
    return ctx, items


def build(seed: int = SEED) -> list[dict[str, object]]:
    r = Rng(seed)
    flags = (
        [(True, False)] * SECRET_DOCS
        + [(False, True)] * EMPTY_DOCS
        + [(False, False)] * (N_DOCS - SECRET_DOCS - EMPTY_DOCS)
    )
    r.shuffle(flags)
    counts: Counter[str] = Counter()
    docs: list[dict[str, object]] = []
    for index, (has_secret, empty) in enumerate(flags, start=1):
        ctx, items = plan_document(r, has_secret, empty, counts)
        frag = finish(r, ctx, RENDER[ctx](r, items))
        text, secrets, lookalikes = assemble(frag)
        counts.update(str(s["kind"]) for s in secrets)
        counts.update(str(s["kind"]) for s in lookalikes)
        docs.append(
            {"id": f"blind2-{index:04d}", "context": ctx, "text": text, "secrets": secrets, "lookalikes": lookalikes}
        )
    return docs


# ---------------------------------------------------------------------------------------------- checks


def check(docs: list[dict[str, object]]) -> list[str]:
    """Every problem found: offsets, ids, overlaps, minimum counts, the share of documents with secrets."""
    problems: list[str] = []
    ids = [str(d["id"]) for d in docs]
    if len(set(ids)) != len(ids) or len(ids) != N_DOCS:
        problems.append(f"{len(ids)} documents, {len(set(ids))} distinct ids")
    secret_counts: Counter[str] = Counter()
    look_counts: Counter[str] = Counter()
    for doc in docs:
        text = str(doc["text"])
        spans = [*doc["secrets"], *doc["lookalikes"]]  # type: ignore[misc]
        for span in spans:
            start, end = span["start"], span["end"]
            if text[start:end] != span["value"]:
                problems.append(f"{doc['id']}: offsets of {span['kind']} do not match its value")
        ordered = sorted((s["start"], s["end"]) for s in spans)
        problems += [f"{doc['id']}: overlapping spans" for a, b in pairwise(ordered) if b[0] < a[1]]
        secret_counts.update(s["kind"] for s in doc["secrets"])  # type: ignore[attr-defined]
        look_counts.update(s["kind"] for s in doc["lookalikes"])  # type: ignore[attr-defined]
    problems += [
        f"secret kind {sk.kind}: {secret_counts[sk.kind]} examples"
        for sk in SECRET_KINDS
        if secret_counts[sk.kind] < MIN_SECRET_EXAMPLES
    ]
    problems += [
        f"look-alike kind {lk.kind}: {look_counts[lk.kind]} examples"
        for lk in LOOK_KINDS
        if look_counts[lk.kind] < MIN_LOOKALIKE_EXAMPLES
    ]
    with_secret = sum(1 for d in docs if d["secrets"])
    if with_secret != SECRET_DOCS:
        problems.append(f"{with_secret} documents hold a secret, expected {SECRET_DOCS}")
    return problems


def serialise(docs: list[dict[str, object]]) -> bytes:
    return "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in docs).encode("utf-8")


def stats(docs: list[dict[str, object]]) -> str:
    secret_counts: Counter[str] = Counter()
    look_counts: Counter[str] = Counter()
    contexts: Counter[str] = Counter()
    for doc in docs:
        secret_counts.update(s["kind"] for s in doc["secrets"])  # type: ignore[attr-defined]
        look_counts.update(s["kind"] for s in doc["lookalikes"])  # type: ignore[attr-defined]
        contexts[str(doc["context"])] += 1
    lengths = sorted(len(str(d["text"])) for d in docs)
    lines = [
        f"documents {len(docs)}, with secrets {sum(1 for d in docs if d['secrets'])}, lengths min {lengths[0]} median {lengths[len(lengths) // 2]} max {lengths[-1]}, 200..2000: {sum(1 for n in lengths if 200 <= n <= 2000)}"
    ]
    lines.append(f"secrets: {sum(secret_counts.values())} in {len(secret_counts)} kinds")
    lines += [f"  {kind:36} {n}" for kind, n in sorted(secret_counts.items())]
    lines.append(f"look-alikes: {sum(look_counts.values())} in {len(look_counts)} kinds")
    lines += [f"  {kind:36} {n}" for kind, n in sorted(look_counts.items())]
    lines.append("contexts:")
    lines += [f"  {ctx:36} {n}" for ctx, n in sorted(contexts.items())]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="directory for corpus.jsonl")
    parser.add_argument("--stats", action="store_true", help="print counts per kind and context")
    args = parser.parse_args(argv)
    docs = build()
    problems = check(docs)
    if problems:
        sys.stderr.write("\n".join(problems[:50]) + "\n" + (stats(docs) + "\n" if args.stats else ""))
        return 1
    data = serialise(docs)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "corpus.jsonl").write_bytes(data)
    if args.stats:
        sys.stdout.write(stats(docs) + "\n")
    sys.stdout.write(f"{hashlib.sha256(data).hexdigest()}  corpus.jsonl\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
