"""A seeded generator of labeled memory-file documents for measuring secret detection.

Every document mixes prose with fake secrets in real formats (one maker per rule)
and hard negatives: public values that look secret-ish but are not (publishable
keys, public keys, UUIDs, git SHAs, digests, SRI hashes, base64 images, ARNs,
version strings, placeholders, documented dummy keys). A secret counts as found
only when its whole value is gone from the output; a negative must survive intact.
"""

from __future__ import annotations

import base64
import json
import random
import string
from collections.abc import Callable
from dataclasses import dataclass, field

ALNUM = string.ascii_letters + string.digits
URLSAFE = ALNUM + "_-"
B64 = ALNUM + "+/"
HEX = "0123456789abcdef"
UPPER_DIGITS = string.ascii_uppercase + string.digits


def pick(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def jwt(rng: random.Random) -> str:
    header = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    claims = {"sub": pick(rng, string.digits, 8), "name": "Ada", "iat": rng.randrange(10**9, 2 * 10**9)}
    return f"{header}.{b64url(json.dumps(claims).encode())}.{b64url(rng.randbytes(32))}"


def pem(rng: random.Random, kind: str, *, escaped: bool = False) -> str:
    body = base64.b64encode(rng.randbytes(rng.randrange(300, 900))).decode()
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    newline = "\\n" if escaped else "\n"
    return newline.join([f"-----BEGIN {kind}-----", *lines, f"-----END {kind}-----"])


# rule id -> maker of (secret value, the text that carries it)
Maker = Callable[[random.Random], tuple[str, str]]


def _env(key: str, value: str) -> tuple[str, str]:
    return value, f"{key}={value}"


SECRET_MAKERS: dict[str, Maker] = {
    "anthropic-api-key": lambda r: _env("ANTHROPIC_API_KEY", f"sk-ant-api03-{pick(r, URLSAFE, 93)}AA"),
    "anthropic-admin-key": lambda r: _env("ANTHROPIC_ADMIN_KEY", f"sk-ant-admin01-{pick(r, URLSAFE, 93)}AA"),
    "openai-api-key": lambda r: _env("OPENAI_API_KEY", f"sk-{pick(r, ALNUM, 20)}T3BlbkFJ{pick(r, ALNUM, 20)}"),
    "openai-project-key": lambda r: _env("OPENAI_API_KEY", f"sk-proj-{pick(r, URLSAFE, 156)}"),
    "aws-access-key-id": lambda r: _env("AWS_ACCESS_KEY_ID", r.choice(["AKIA", "ASIA"]) + pick(r, UPPER_DIGITS, 16)),
    "aws-secret-access-key": lambda r: (v := pick(r, B64, 40), f"aws_secret_access_key = {v}"),
    "github-pat": lambda r: (
        v := f"ghp_{pick(r, ALNUM, 36)}",
        f"git remote set-url origin https://{v}@github.com/acme/app",
    ),
    "github-oauth-token": lambda r: _env("GH_OAUTH", f"gho_{pick(r, ALNUM, 36)}"),
    "github-app-token": lambda r: _env("GITHUB_TOKEN", f"{r.choice(['ghs', 'ghu'])}_{pick(r, ALNUM, 36)}"),
    "github-refresh-token": lambda r: _env("GH_REFRESH", f"ghr_{pick(r, ALNUM, 76)}"),
    "github-fine-grained-pat": lambda r: _env("GH_PAT", f"github_pat_{pick(r, ALNUM, 22)}_{pick(r, ALNUM, 59)}"),
    "gitlab-token": lambda r: _env("GITLAB_TOKEN", f"glpat-{pick(r, URLSAFE, 20)}"),
    "slack-token": lambda r: (
        v := f"xoxb-{pick(r, string.digits, 12)}-{pick(r, string.digits, 13)}-{pick(r, ALNUM, 24)}",
        f"The bot posts with `{v}` in #deploys.",
    ),
    "slack-webhook-url": lambda r: (
        v
        := f"https://hooks.slack.com/services/T{pick(r, UPPER_DIGITS, 8)}/B{pick(r, UPPER_DIGITS, 10)}/{pick(r, ALNUM, 24)}",
        f"Alerts go to {v} (channel #ops).",
    ),
    "stripe-secret-key": lambda r: _env(
        "STRIPE_SECRET_KEY", f"{r.choice(['sk_live', 'sk_test', 'rk_live'])}_{pick(r, ALNUM, 99)}"
    ),
    "google-api-key": lambda r: _env("GOOGLE_API_KEY", f"AIza{pick(r, URLSAFE, 35)}"),
    "azure-storage-account-key": lambda r: (
        v := base64.b64encode(r.randbytes(64)).decode(),
        f"DefaultEndpointsProtocol=https;AccountName=acmedata;AccountKey={v};EndpointSuffix=core.windows.net",
    ),
    "azure-ad-client-secret": lambda r: _env(
        "AZURE_CLIENT_SECRET", f"{pick(r, ALNUM, 3)}8Q~{pick(r, ALNUM + '_~.-', 34)}"
    ),
    "twilio-api-key": lambda r: _env("TWILIO_API_KEY", f"SK{pick(r, HEX, 32)}"),
    "twilio-auth-token": lambda r: (v := pick(r, HEX, 32), f'twilio_auth_token: "{v}"'),
    "sendgrid-api-key": lambda r: _env("SENDGRID_API_KEY", f"SG.{pick(r, URLSAFE, 22)}.{pick(r, URLSAFE, 43)}"),
    "npm-token": lambda r: (v := f"npm_{pick(r, ALNUM, 36)}", f"//registry.npmjs.org/:_authToken={v}"),
    "pypi-token": lambda r: (v := f"pypi-AgEIcHlwaS5vcmc{pick(r, URLSAFE, 120)}", f"password = {v}"),
    "huggingface-token": lambda r: _env("HF_TOKEN", f"hf_{pick(r, string.ascii_letters, 34)}"),
    "databricks-token": lambda r: _env("DATABRICKS_TOKEN", f"dapi{pick(r, HEX, 32)}"),
    "digitalocean-token": lambda r: _env("DIGITALOCEAN_TOKEN", f"dop_v1_{pick(r, HEX, 64)}"),
    "shopify-token": lambda r: _env("SHOPIFY_ACCESS_TOKEN", f"shpat_{pick(r, HEX, 32)}"),
    "mailgun-api-key": lambda r: _env("MAILGUN_API_KEY", f"key-{pick(r, HEX, 32)}"),
    "telegram-bot-token": lambda r: (
        v := f"{r.randrange(10**8, 10**10)}:AA{pick(r, URLSAFE, 33)}",
        f"Telegram bot token: {v}",
    ),
    "jwt": lambda r: (v := jwt(r), f'{{"session": "{v}", "user": "ada"}}'),
    "private-key": lambda r: (v := pem(r, r.choice(["RSA PRIVATE KEY", "PRIVATE KEY", "EC PRIVATE KEY"])), v),
    "private-key-escaped": lambda r: (v := pem(r, "PRIVATE KEY", escaped=True), f'{{"private_key": "{v}\\n"}}'),
    "url-password": lambda r: (
        v := pick(r, ALNUM + "!$%^*-_", 18),
        f"DATABASE_URL=postgres://app_user:{v}@db.internal:5432/app",
    ),
    "http-basic-auth": lambda r: (
        v := base64.b64encode(f"deploy:{pick(r, ALNUM, 16)}".encode()).decode(),
        f"curl -H 'Authorization: Basic {v}' https://ci.example.com/api",
    ),
    "http-bearer-token": lambda r: (v := pick(r, URLSAFE, 48), f"Authorization: Bearer {v}"),
    "password-assignment": lambda r: (v := pick(r, ALNUM + "!#%&*+-", 14), f'db_password: "{v}"'),
    "generic-secret": lambda r: (v := pick(r, URLSAFE, 40), f"webhook_signing_secret = '{v}'"),
}

NEGATIVE_MAKERS: dict[str, Callable[[random.Random], tuple[str, str]]] = {
    "stripe-publishable-key": lambda r: _env("STRIPE_PUBLISHABLE_KEY", f"pk_live_{pick(r, ALNUM, 99)}"),
    "public-key-pem": lambda r: (v := pem(r, "PUBLIC KEY"), v),
    "ssh-public-key": lambda r: (
        v := f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{pick(r, B64, 43)} ada@laptop",
        f"authorized key: {v}",
    ),
    "uuid": lambda r: (v := str(_uuid(r)), f"request id {v} failed twice"),
    "uuid-session": lambda r: (v := str(_uuid(r)), f'"correlation_id": "{v}"'),
    "git-sha": lambda r: (v := pick(r, HEX, 40), f"Fixed in commit {v}."),
    "sha256": lambda r: (v := pick(r, HEX, 64), f"{v}  release-2.4.1.tar.gz"),
    "docker-digest": lambda r: (v := f"sha256:{pick(r, HEX, 64)}", f"image: ghcr.io/acme/api@{v}"),
    "sri-hash": lambda r: (
        v := "sha384-" + base64.b64encode(r.randbytes(48)).decode(),
        f'<script src="app.js" integrity="{v}" crossorigin="anonymous"></script>',
    ),
    "base64-image": lambda r: (
        v := "data:image/png;base64," + base64.b64encode(b"\x89PNG\r\n\x1a\n" + r.randbytes(240)).decode(),
        f"![diagram]({v})",
    ),
    "arn": lambda r: (
        v := f"arn:aws:iam::{pick(r, string.digits, 12)}:role/deploy-{pick(r, string.ascii_lowercase, 6)}",
        f"role_arn = {v}",
    ),
    "version": lambda r: (
        v
        := f"{r.randrange(1, 9)}.{r.randrange(30)}.{r.randrange(30)}-rc.{r.randrange(9)}+build.{pick(r, string.digits, 8)}",
        f"version: {v}",
    ),
    "placeholder-env": lambda r: (v := "${ANTHROPIC_API_KEY}", f"ANTHROPIC_API_KEY={v}"),
    "placeholder-angle": lambda r: (v := "<your-github-token>", f"GITHUB_TOKEN={v}"),
    "placeholder-named": lambda r: (v := "sk-ant-api03-your-key-here", f"Set ANTHROPIC_API_KEY to something like {v}."),
    "aws-example-key-id": lambda r: (v := "AKIAIOSFODNN7EXAMPLE", f"aws_access_key_id = {v}"),
    "aws-example-secret": lambda r: (v := "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", f"aws_secret_access_key = {v}"),
    "redacted-marker": lambda r: (v := "[REDACTED:github-pat]", f"token was {v}"),
    "vault-reference": lambda r: (v := "vault://secret/data/app#db_password", f"db_password: {v}"),
    "key-id": lambda r: (v := pick(r, HEX, 32), f"signing_key_id: {v}"),
    "env-lookup": lambda r: (v := 'os.environ["DB_PASSWORD"]', f"DB_PASSWORD = {v}"),
    "secret-name": lambda r: (v := f"prod/{pick(r, string.ascii_lowercase, 6)}/db-credentials", f"secret_name: {v}"),
    "token-type": lambda r: (v := "Bearer", f"token_type: {v}"),
    "cache-key": lambda r: (v := f"user:{r.randrange(10**6)}:profile:v3:{pick(r, HEX, 8)}", f'cache_key: "{v}"'),
    "password-policy": lambda r: (
        v := "Passwords must be at least 12 characters and rotate every 90 days.",
        f"Security note: {v}",
    ),
    "ssh-fingerprint": lambda r: (v := f"SHA256:{pick(r, B64, 43)}", f"host key fingerprint {v}"),
    "env-reference": lambda r: (v := "$DATABASE_PASSWORD", f"postgres://app:{v}@db:5432/app"),
}

PROSE = [
    "The team deploys on Thursdays after the standup.",
    "Remember to run the migrations before restarting the workers.",
    "Ada prefers short answers and tea over coffee.",
    "The billing cutoff is the 25th of each month.",
    "We moved the staging cluster to the eu-west region last week.",
    "Build with `make release`; tests take about four minutes.",
    "The customer asked for weekly summaries instead of daily ones.",
    "Open question: should retries back off exponentially?",
]


def _uuid(rng: random.Random) -> str:
    raw = pick(rng, HEX, 32)
    return f"{raw[:8]}-{raw[8:12]}-4{raw[13:16]}-a{raw[17:20]}-{raw[20:]}"


@dataclass
class Document:
    text: str
    kind: str
    secrets: list[tuple[str, str]] = field(default_factory=list)  # (rule id, value)
    negatives: list[tuple[str, str]] = field(default_factory=list)  # (kind, value)


def _wrap(kind: str, lines: list[str], rng: random.Random) -> str:
    if kind == "markdown":
        return "# Session notes\n\n" + "\n".join(f"- {line}" for line in lines) + "\n"
    if kind == "json":
        return json.dumps({"notes": lines, "updated": "2026-11-30"}, indent=2)
    if kind == "yaml":
        return "notes:\n" + "".join(f"  - {json.dumps(line)}\n" for line in lines)
    if kind == "env":
        return "".join(f"{line}\n" if "=" in line else f"# {line}\n" for line in lines)
    return " ".join(lines) + "\n"


def generate(
    seed: int = 1, documents: int = 400, secret_share: float = 1.0, negative_share: float = 1.0
) -> list[Document]:
    """Labeled documents; every secret maker and every negative maker is used many times.

    ``secret_share`` and ``negative_share`` are the fractions of documents that
    hold secrets and hard negatives; the others are plain notes, as most memory
    files are.
    """
    rng = random.Random(seed)
    secret_ids, negative_ids = sorted(SECRET_MAKERS), sorted(NEGATIVE_MAKERS)
    out: list[Document] = []
    for n in range(documents):
        kind = ["markdown", "json", "yaml", "env", "prose"][n % 5]
        doc = Document("", kind)
        lines = rng.sample(PROSE, 3)
        for i in range(rng.randrange(1, 4) if rng.random() < secret_share else 0):
            rule = secret_ids[(n * 3 + i) % len(secret_ids)]
            value, line = SECRET_MAKERS[rule](rng)
            doc.secrets.append((rule, value))
            lines.insert(rng.randrange(len(lines) + 1), line)
        for i in range(rng.randrange(1, 4) if rng.random() < negative_share else 0):
            negative = negative_ids[(n * 3 + i) % len(negative_ids)]
            value, line = NEGATIVE_MAKERS[negative](rng)
            doc.negatives.append((negative, value))
            lines.insert(rng.randrange(len(lines) + 1), line)
        doc.text = _wrap(kind, lines, rng)
        # JSON and YAML escape some characters; label what the text really holds.
        doc.secrets = [(rule, _as_stored(kind, value)) for rule, value in doc.secrets]
        doc.negatives = [(name, _as_stored(kind, value)) for name, value in doc.negatives]
        out.append(doc)
    return out


def _as_stored(kind: str, value: str) -> str:
    return json.dumps(value)[1:-1] if kind in ("json", "yaml") else value


def mixed_text(size: int, seed: int = 7, secret_share: float = 1.0, negative_share: float = 1.0) -> str:
    """``size`` characters of corpus documents, secrets and all, for speed measurements."""
    parts: list[str] = []
    total = 0
    documents = generate(seed, max(40, size // 250), secret_share=secret_share, negative_share=negative_share)
    for doc in documents:
        parts.append(doc.text)
        total += len(doc.text)
        if total >= size:
            break
    while total < size:
        parts.extend(parts[: max(1, len(parts) // 2)])
        total = sum(len(p) for p in parts)
    return "".join(parts)[:size]


def _repeat(unit: bytes, size: int) -> bytes:
    return unit * max(1, size // len(unit))


# Texts crafted against the scanner rather than for it: many overlapping starts of long
# matches, long-lived partial matches between real ones, key names thousands of bytes long,
# keyword places packed as close as they go.
# A scan that visits every start and rescans from each would take time quadratic in these.
CRAFTED: dict[str, Callable[[int], bytes]] = {
    "pem-headers-one-end": lambda size: (
        _repeat(b"-----BEGIN RSA PRIVATE KEY-----\n", size) + b"-----END RSA PRIVATE KEY-----\n"
    ),
    "open-pem-between-tokens": lambda size: _repeat(
        b"-----BEGIN RSA PRIVATE KEY-----\n123456789:AAbcdefghijklmnopqrstuvwxyz01234567\n", size
    ),
    "unfinished-openai-keys": lambda size: _repeat(b"sk-AKIAQ7ZP3MRX2LW9TK4B-", size) + b" T3BlbkFJ",
    "nested-token-prefixes": lambda size: _repeat(b"sk-proj-", size) + b" ghp_",
    "dotted-key-name": lambda size: _repeat(b"a-", size) + b"key=AbCdEf0123456789XyZ",
    "underscore-key-name": lambda size: b"_" * size + b"password=abcdefgh",
    # Every four bytes a key name, an assignment and a long enough value: a keyword place each.
    "assignment-after-assignment": lambda size: _repeat(b"key=", size),
    # Every token shaped like a password, with words around it: the scorer judges each.
    "scorer-token-after-token": lambda size: _repeat(b"the new one is Tz8!qW3#nB5vK2 ", size),
    # Runs of value bytes just past the longest a token may be, and PEM blocks closed and opened.
    "scorer-long-runs": lambda size: _repeat(b"k=" + b"Zq8xW2mK9p" * 52 + b"\n", size),
    "scorer-pem-blocks": lambda size: _repeat(b"-----BEGIN X-----\nTz8!qW3#nB5vK2\n-----END X-----\n", size),
}
