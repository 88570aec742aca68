"""Public values that look like secrets: one generator per kind. None of these may be redacted.

Each is public by design or by publication: references and placeholders that hold no value,
identifiers, hashes, public keys, provider-published example keys, and keys that providers
document as safe to embed in clients (Stripe publishable keys, Mapbox public tokens, modern
Sentry DSNs, PayPal client ids).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from _blind_common import (
    B62,
    B64URL,
    DIGITS,
    HEX,
    LOWER_ALNUM,
    UPPER_ALNUM,
    Item,
    b64,
    b64url,
    bech32_encode,
    mark,
    rand,
    uuid4,
)
from _blind_pem import pem_certificate, pem_public_key, ssh_public_key

__all__ = ["LOOKALIKE_KINDS"]

LOOK = "lookalike"
Gen = Callable[[random.Random], Item]
_VARS = [
    "DB_PASSWORD",
    "API_KEY",
    "STRIPE_SECRET_KEY",
    "GITHUB_TOKEN",
    "AWS_SECRET_ACCESS_KEY",
    "OPENAI_API_KEY",
    "SLACK_BOT_TOKEN",
    "REDIS_PASSWORD",
    "JWT_SECRET",
    "SENTRY_AUTH_TOKEN",
]
_SECRETY_KEYS = (
    "password",
    "api_key",
    "token",
    "secret",
    "client_secret",
    "auth_token",
    "access_token",
    "db_password",
    "secret_key",
)


def _one(kind: str, value: str, keys: tuple[str, ...], label: str, **flags: bool) -> Item:
    return Item(
        kind, LOOK, [mark(LOOK, kind, value)], keys, label, raw=flags.get("raw", False), block=flags.get("block", False)
    )


def env_reference(rng: random.Random) -> Item:
    var = rng.choice(_VARS)
    value = rng.choice([f"${{{var}}}", f"${var}", f"%{var}%", f"${{{var}:?missing}}", f"${{env:{var}}}"])
    return _one("env_reference", value, (var.lower(), rng.choice(_SECRETY_KEYS)), "value from the environment")


def template_placeholder(rng: random.Random) -> Item:
    var = rng.choice(_VARS)
    value = rng.choice(
        [
            f"{{{{ .Values.{var.lower().replace('_', '')} }}}}",
            f"${{{{ secrets.{var} }}}}",
            f'{{{{ vault "secret/data/app#{var.lower()}" }}}}',
            f"<%= ENV['{var}'] %>",
            f"{{{{ lookup('env', '{var}') }}}}",
            f"%({var.lower()})s",
            f"{{{{{var.lower()}}}}}",
        ]
    )
    return _one("template_placeholder", value, (var.lower(), rng.choice(_SECRETY_KEYS)), "templated value")


def angle_placeholder(rng: random.Random) -> Item:
    value = rng.choice(
        [
            "<YOUR_API_KEY>",
            "<your-token-here>",
            "<password>",
            "[YOUR_SECRET_KEY]",
            "<INSERT_STRIPE_KEY>",
            "<redacted>",
            "<api-key>",
            "{your_access_token}",
        ]
    )
    return _one("angle_placeholder", value, (rng.choice(_SECRETY_KEYS),), "placeholder")


def literal_placeholder(rng: random.Random) -> Item:
    value = rng.choice(
        [
            "changeme",
            "xxxxxxxxxxxxxxxx",
            "********",
            "your-api-key-here",
            "REPLACE_ME",
            "TODO",
            "dummy",
            "not-a-real-secret",
            "placeholder",
            "CHANGE_ME_IN_PROD",
            "xxxx-xxxx-xxxx-xxxx",
            "test",
        ]
    )
    return _one("literal_placeholder", value, (rng.choice(_SECRETY_KEYS),), "placeholder")


def prefixed_placeholder(rng: random.Random) -> Item:
    value = rng.choice(
        [
            "sk_live_" + "x" * 24,
            "ghp_" + "X" * 36,
            "AKIA" + "X" * 16,
            "sk-proj-...",
            "xoxb-your-bot-token",
            "glpat-xxxxxxxxxxxxxxxxxxxx",
            "sk-ant-api03-...",
            "hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "npm_" + "0" * 36,
            "SG.xxxxxxxx.yyyyyyyy",
        ]
    )
    return _one("prefixed_placeholder", value, (rng.choice(_SECRETY_KEYS),), "placeholder key")


def documented_example_key(rng: random.Random) -> Item:
    # Values the providers print in their own documentation; public and not usable.
    value, key = rng.choice(
        [
            ("AKIAIOSFODNN7EXAMPLE", "aws_access_key_id"),
            ("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_access_key"),
            ("AKIAI44QH8DHBEXAMPLE", "aws_access_key_id"),
            ("je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY", "aws_secret_access_key"),
            (
                "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==",
                "azurite_account_key",
            ),
            (
                "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
                "example_jwt",
            ),
        ]
    )
    return _one("documented_example_key", value, (key,), "documentation example")


def env_read_code(rng: random.Random) -> Item:
    var = rng.choice(_VARS)
    value, language = rng.choice(
        [
            (f'os.environ["{var}"]', "python"),
            (f'os.getenv("{var}")', "python"),
            (f"process.env.{var}", "javascript"),
            (f'os.Getenv("{var}")', "go"),
            (f'ENV.fetch("{var}")', "markdown"),
            (f'System.getenv("{var}")', "markdown"),
        ]
    )
    item = _one("env_read_code", value, (var.lower(),), "read from the environment", raw=True)
    item.contexts = (language, "markdown")
    return item


_POD_CHARS = "bcdfghjklmnpqrstvwxz2456789"


def k8s_pod_name(rng: random.Random) -> Item:
    app = rng.choice(["api", "billing-worker", "checkout-web", "ingest", "auth-service", "search-indexer", "notifier"])
    value = (
        f"{app}-{rand(rng, _POD_CHARS, rng.choice([9, 10]))}-{rand(rng, _POD_CHARS, 5)}"
        if rng.random() < 0.85
        else f"{app}-{rng.randint(0, 4)}"
    )
    return _one("k8s_pod_name", value, ("pod", "pod_name", "hostname"), "pod")


def git_commit_sha(rng: random.Random) -> Item:
    value = rand(rng, HEX, 40) if rng.random() < 0.6 else rand(rng, HEX, rng.choice([7, 8, 10, 12]))
    return _one("git_commit_sha", value, ("commit", "git_sha", "revision", "build_commit"), "commit")


_PROSE = [
    "Meeting moved to Thursday at 3pm, bring the quarterly numbers.",
    "Remember to water the plants on the balcony before the trip.",
    "The migration finished without errors on the second attempt.",
    "Customer asked for the invoice to be sent to the finance team.",
    "Release notes: faster search, fewer timeouts, new export button.",
    "Grocery list: oat milk, lemons, basil, sourdough bread.",
    "Please review the onboarding doc before Monday standup.",
]


def base64_prose(rng: random.Random) -> Item:
    return _one(
        "base64_prose", b64(rng.choice(_PROSE).encode()), ("payload", "data", "message_b64", "note"), "encoded note"
    )


def oauth_client_id(rng: random.Random) -> Item:
    value = rng.choice(
        [
            f"{rand(rng, DIGITS, 12)}-{rand(rng, LOWER_ALNUM, 32)}.apps.googleusercontent.com",
            "Ov23li" + rand(rng, B62, 14),
            "Iv1." + rand(rng, HEX, 16),
            uuid4(rng),
        ]
    )
    return _one(
        "oauth_client_id", value, ("client_id", "oauth_client_id", "app_id", "google_client_id"), "OAuth client id"
    )


def uuid_value(rng: random.Random) -> Item:
    return _one("uuid", uuid4(rng), ("request_id", "trace_id", "tenant_id", "subscription_id", "correlation_id"), "id")


def timestamp(rng: random.Random) -> Item:
    epoch = rng.randint(1_700_000_000, 1_800_000_000)
    y, mo, d, h, mi, s = (
        rng.randint(2024, 2027),
        rng.randint(1, 12),
        rng.randint(1, 28),
        rng.randint(0, 23),
        rng.randint(0, 59),
        rng.randint(0, 59),
    )
    value = rng.choice(
        [
            f"{y}-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}Z",
            f"{y}-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}.{rng.randint(0, 999999):06d}+00:00",
            str(epoch),
            str(epoch * 1000 + rng.randint(0, 999)),
        ]
    )
    return _one("timestamp", value, ("created_at", "expires_at", "last_rotated", "updated_at", "ts"), "timestamp")


def file_sha256(rng: random.Random) -> Item:
    return _one("file_sha256", rand(rng, HEX, 64), ("sha256", "checksum", "digest"), "file checksum")


def docker_image_digest(rng: random.Random) -> Item:
    image = rng.choice(
        [
            "ghcr.io/acme/api",
            "registry.acme.io/billing/worker",
            "docker.io/library/postgres",
            "public.ecr.aws/acme/ingest",
        ]
    )
    return _one("docker_image_digest", f"{image}@sha256:{rand(rng, HEX, 64)}", ("image",), "image")


def ssh_public(rng: random.Random) -> Item:
    return _one(
        "ssh_public_key", ssh_public_key(rng), ("ssh_public_key", "authorized_key", "deploy_key_pub"), "SSH public key"
    )


def pem_public(rng: random.Random) -> Item:
    return _one(
        "pem_public_key", pem_public_key(rng), ("public_key", "jwt_public_key", "verify_key"), "public key", block=True
    )


def pem_cert(rng: random.Random) -> Item:
    return _one(
        "pem_certificate", pem_certificate(rng), ("certificate", "ca_cert", "tls_cert"), "certificate", block=True
    )


def stripe_publishable_key(rng: random.Random) -> Item:
    return _one(
        "stripe_publishable_key",
        "pk_live_" + rand(rng, B62, rng.choice([24, 99])),
        ("stripe_publishable_key", "publishable_key", "next_public_stripe_key"),
        "Stripe publishable key",
    )


def google_analytics_id(rng: random.Random) -> Item:
    value = rng.choice(
        [
            f"G-{rand(rng, UPPER_ALNUM, 10)}",
            f"UA-{rand(rng, DIGITS, 8)}-{rng.randint(1, 9)}",
            f"GTM-{rand(rng, UPPER_ALNUM, 7)}",
        ]
    )
    return _one("google_analytics_id", value, ("ga_measurement_id", "analytics_id", "gtm_id"), "analytics id")


def url_without_credentials(rng: random.Random) -> Item:
    value = rng.choice(
        [
            f"https://api.acme.io/v{rng.randint(1, 3)}/invoices?page={rng.randint(1, 40)}&limit=50",
            f"https://status.acme.io/incidents/{rand(rng, LOWER_ALNUM, 12)}",
            f"postgres://db.internal:5432/{rng.choice(['app', 'billing'])}?sslmode=require",
            "https://docs.acme.io/runbooks/rotate-keys#staging",
            f"https://github.com/acme/infra/pull/{rng.randint(100, 9999)}",
            f"redis://cache-01.prod:6379/{rng.randint(0, 15)}",
        ]
    )
    return _one("url_without_credentials", value, ("base_url", "endpoint", "docs_url", "database_url"), "link")


def semver(rng: random.Random) -> Item:
    core = f"{rng.randint(0, 12)}.{rng.randint(0, 40)}.{rng.randint(0, 30)}"
    value = rng.choice([core, "v" + core, f"{core}-rc.{rng.randint(1, 5)}", f"{core}+build.{rng.randint(1, 999)}"])
    return _one("semver", value, ("version", "app_version", "chart_version"), "version")


def _iban(rng: random.Random) -> str:
    country, bban = rng.choice(
        [
            ("DE", lambda: rand(rng, DIGITS, 18)),
            ("GB", lambda: rng.choice(["NWBK", "BARC", "MIDL"]) + rand(rng, DIGITS, 14)),
            ("FR", lambda: rand(rng, DIGITS, 23)),
        ]
    )
    body = bban()
    numeric = "".join(str(int(c, 36)) for c in body + country + "00")
    check = 98 - int(numeric) % 97
    return f"{country}{check:02d}{body}"


def iban(rng: random.Random) -> Item:
    # An IBAN is shared so that others can pay into the account; it grants no access (decision in README).
    value = _iban(rng)
    if rng.random() < 0.5:
        value = " ".join(value[i : i + 4] for i in range(0, len(value), 4))
    return _one("iban", value, ("iban", "payout_iban", "bank_account"), "IBAN")


def phone_number(rng: random.Random) -> Item:
    value = rng.choice(
        [
            f"+1 415 555 01{rng.randint(0, 99):02d}",
            f"+44 20 7946 0{rng.randint(0, 999):03d}",
            f"(555) 01{rng.randint(0, 9)}-{rng.randint(1000, 9999)}",
            f"+61 491 570 {rng.randint(100, 999)}",
            f"+49 30 {rng.randint(1000000, 9999999)}",
        ]
    )
    return _one("phone_number", value, ("phone", "on_call_phone", "support_phone"), "phone")


def css_color(rng: random.Random) -> Item:
    value = rng.choice(
        [
            f"#{rand(rng, HEX, 6)}",
            f"#{rand(rng, HEX.upper(), 6)}",
            f"#{rand(rng, HEX, 3)}",
            f"rgb({rng.randint(0, 255)}, {rng.randint(0, 255)}, {rng.randint(0, 255)})",
            f"hsl({rng.randint(0, 359)}, {rng.randint(10, 90)}%, {rng.randint(20, 80)}%)",
        ]
    )
    return _one("css_color", value, ("primary_color", "accent", "background"), "colour")


def random_file_name(rng: random.Random) -> Item:
    value = rng.choice(
        [
            f"IMG_{rng.randint(2023, 2026)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}_{rand(rng, DIGITS, 6)}.jpg",
            f"{rand(rng, HEX, 16)}.png",
            f"chunk-vendors.{rand(rng, HEX, 8)}.js",
            f"tmp{rand(rng, LOWER_ALNUM, 8)}.json",
            f"main.{rand(rng, HEX, 10)}.css",
            f"export_{rand(rng, B62, 12)}.csv",
        ]
    )
    return _one("random_file_name", value, ("file", "attachment", "bundle"), "file")


def mapbox_public_token(rng: random.Random) -> Item:
    claims = b64url(
        (
            '{"u":"' + rng.choice(["acme-maps", "fleetops", "jdoe"]) + '","a":"cl' + rand(rng, LOWER_ALNUM, 23) + '"}'
        ).encode()
    )
    return _one(
        "mapbox_public_token",
        f"pk.{claims}.{rand(rng, B64URL, 22)}",
        ("mapbox_token", "mapbox_access_token", "next_public_mapbox_token"),
        "Mapbox public token",
    )


def sentry_public_dsn(rng: random.Random) -> Item:
    value = f"https://{rand(rng, HEX, 32)}@o{rand(rng, DIGITS, 6)}.ingest.{rng.choice(['', 'us.', 'de.'])}sentry.io/{rand(rng, DIGITS, 7)}"
    return _one("sentry_public_dsn", value, ("sentry_dsn", "next_public_sentry_dsn"), "Sentry DSN")


def stripe_object_id(rng: random.Random) -> Item:
    prefix, n = rng.choice(
        [("cus_", 14), ("pi_", 24), ("ch_", 24), ("sub_", 24), ("in_", 24), ("price_", 24), ("evt_", 24), ("acct_", 16)]
    )
    return _one(
        "stripe_object_id",
        prefix + rand(rng, B62, n),
        ("customer", "payment_intent", "stripe_id", "object_id"),
        "Stripe object id",
    )


def twilio_message_sid(rng: random.Random) -> Item:
    return _one(
        "twilio_message_sid",
        rng.choice(["SM", "MM", "CA"]) + rand(rng, HEX, 32),
        ("message_sid", "call_sid", "sid"),
        "Twilio message SID",
    )


def aws_arn(rng: random.Random) -> Item:
    account = rand(rng, DIGITS, 12)
    value = rng.choice(
        [
            f"arn:aws:iam::{account}:role/{rng.choice(['deploy', 'ci-runner', 'lambda-exec'])}",
            f"arn:aws:s3:::acme-{rand(rng, LOWER_ALNUM, 6)}-logs",
            f"arn:aws:kms:eu-west-1:{account}:key/{uuid4(rng)}",
            account,
        ]
    )
    return _one("aws_arn", value, ("role_arn", "kms_key_arn", "aws_account_id"), "ARN")


def non_secret_setting(rng: random.Random) -> Item:
    key, value = rng.choice(
        [
            ("password_min_length", str(rng.choice([8, 12, 14, 16]))),
            ("token_ttl_seconds", str(rng.choice([300, 900, 3600, 86400]))),
            ("secret_name", f"prod/{rng.choice(['billing', 'api', 'etl'])}/db"),
            ("api_key_header", "X-Api-Key"),
            ("auth_type", rng.choice(["oauth2", "basic", "none", "sso"])),
            ("token_type", "Bearer"),
            ("password_hash", rng.choice(["argon2id", "bcrypt", "scrypt"])),
            ("secret_rotation_days", str(rng.choice([30, 60, 90]))),
            ("token_endpoint", "https://auth.acme.io/oauth/token"),
            ("require_password", rng.choice(["true", "false"])),
            ("secret_ref", f"vault:kv/data/{rng.choice(['api', 'billing'])}#password"),
            ("api_key_id", f"key_{rng.choice(['prod', 'staging'])}_{rng.choice(['billing', 'search'])}"),
        ]
    )
    return _one("non_secret_setting", value, (key,), key.replace("_", " "))


def masked_secret(rng: random.Random) -> Item:
    tail = rand(rng, B62, 4)
    value = rng.choice(
        [
            f"sk-proj-...{tail}",
            f"ghp_{'*' * 32}{tail}",
            f"****{rand(rng, DIGITS, 4)}",
            f"AKIA{'*' * 12}{rand(rng, UPPER_ALNUM, 4)}",
            f"sk_live_…{tail}",
            f"xoxb-***-{tail}",
        ]
    )
    return _one("masked_secret", value, (rng.choice(_SECRETY_KEYS),), "masked key")


def sri_hash(rng: random.Random) -> Item:
    value = rng.choice([f"sha512-{b64(rng.randbytes(64))}", f"sha384-{b64(rng.randbytes(48))}"])
    return _one("sri_hash", value, ("integrity",), "integrity hash")


def mongo_object_id(rng: random.Random) -> Item:
    return _one(
        "mongo_object_id",
        f"{rng.randint(0x65000000, 0x6A000000):08x}{rand(rng, HEX, 16)}",
        ("_id", "user_id", "order_id"),
        "document id",
    )


def paypal_client_id(rng: random.Random) -> Item:
    # PayPal's JS SDK puts the client id in the page's script URL: public by design.
    return _one(
        "paypal_client_id",
        "A" + rand(rng, B64URL, 79),
        ("paypal_client_id", "next_public_paypal_client_id"),
        "PayPal client id",
    )


def stripe_test_card(rng: random.Random) -> Item:
    value = rng.choice(
        ["4242 4242 4242 4242", "4242424242424242", "4000 0566 5566 5556", "5555 5555 5555 4444", "4000 0000 0000 9995"]
    )
    return _one("stripe_test_card", value, ("test_card",), "test card")


def age_public_key(rng: random.Random) -> Item:
    return _one(
        "age_public_key",
        bech32_encode("age", rng.randbytes(32)),
        ("age_recipient", "sops_age_recipients"),
        "age recipient",
    )


LOOKALIKE_KINDS: list[tuple[str, Gen]] = [
    ("env_reference", env_reference),
    ("template_placeholder", template_placeholder),
    ("angle_placeholder", angle_placeholder),
    ("literal_placeholder", literal_placeholder),
    ("prefixed_placeholder", prefixed_placeholder),
    ("documented_example_key", documented_example_key),
    ("env_read_code", env_read_code),
    ("k8s_pod_name", k8s_pod_name),
    ("git_commit_sha", git_commit_sha),
    ("base64_prose", base64_prose),
    ("oauth_client_id", oauth_client_id),
    ("uuid", uuid_value),
    ("timestamp", timestamp),
    ("file_sha256", file_sha256),
    ("docker_image_digest", docker_image_digest),
    ("ssh_public_key", ssh_public),
    ("pem_public_key", pem_public),
    ("pem_certificate", pem_cert),
    ("stripe_publishable_key", stripe_publishable_key),
    ("google_analytics_id", google_analytics_id),
    ("url_without_credentials", url_without_credentials),
    ("semver", semver),
    ("iban", iban),
    ("phone_number", phone_number),
    ("css_color", css_color),
    ("random_file_name", random_file_name),
    ("mapbox_public_token", mapbox_public_token),
    ("sentry_public_dsn", sentry_public_dsn),
    ("stripe_object_id", stripe_object_id),
    ("twilio_message_sid", twilio_message_sid),
    ("aws_arn", aws_arn),
    ("non_secret_setting", non_secret_setting),
    ("masked_secret", masked_secret),
    ("sri_hash", sri_hash),
    ("mongo_object_id", mongo_object_id),
    ("paypal_client_id", paypal_client_id),
    ("stripe_test_card", stripe_test_card),
    ("age_public_key", age_public_key),
]
