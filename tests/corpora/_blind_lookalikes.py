"""Public values that look like secrets: one generator per kind. None of these may be redacted.

Each is public by design or by publication: references and placeholders that hold no value,
identifiers, hashes, public keys, provider-published example keys, and keys that providers
document as safe to embed in clients (Stripe publishable keys, Mapbox public tokens, modern
Sentry DSNs, PayPal client ids).
"""

from __future__ import annotations

import random

from _blind_common import (
    B62,
    B64URL,
    DIGITS,
    HEX,
    LOWER_ALNUM,
    UPPER_ALNUM,
    Item,
    Registry,
    b64,
    b64url,
    bech32_encode,
    mark,
    rand,
    uuid4,
)
from _blind_pem import pem_certificate, pem_public_key, ssh_public_key

__all__ = ["LOOKALIKES"]

LOOKALIKES = Registry("lookalike")
_value = LOOKALIKES.value
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
_SECRETY = (
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


def _one(kind: str, value: str, keys: tuple[str, ...], label: str, *, block: bool = False, raw: bool = False) -> Item:
    return Item(kind, "lookalike", [mark("lookalike", kind, value)], keys, label, block=block, raw=raw)


@LOOKALIKES.item("env_reference")
def env_reference(rng: random.Random) -> Item:
    var = rng.choice(_VARS)
    value = rng.choice([f"${{{var}}}", f"${var}", f"%{var}%", f"${{{var}:?missing}}", f"${{env:{var}}}"])
    return _one("env_reference", value, (var.lower(), rng.choice(_SECRETY)), "value from the environment")


@LOOKALIKES.item("template_placeholder")
def template_placeholder(rng: random.Random) -> Item:
    var = rng.choice(_VARS)
    forms = [
        f"{{{{ .Values.{var.lower().replace('_', '')} }}}}",
        f"${{{{ secrets.{var} }}}}",
        f'{{{{ vault "secret/data/app#{var.lower()}" }}}}',
        f"<%= ENV['{var}'] %>",
        f"{{{{ lookup('env', '{var}') }}}}",
        f"%({var.lower()})s",
        f"{{{{{var.lower()}}}}}",
    ]
    return _one("template_placeholder", rng.choice(forms), (var.lower(), rng.choice(_SECRETY)), "templated value")


@LOOKALIKES.item("angle_placeholder")
def angle_placeholder(rng: random.Random) -> Item:
    forms = [
        "<YOUR_API_KEY>",
        "<your-token-here>",
        "<password>",
        "[YOUR_SECRET_KEY]",
        "<INSERT_STRIPE_KEY>",
        "<redacted>",
        "<api-key>",
        "{your_access_token}",
    ]
    return _one("angle_placeholder", rng.choice(forms), (rng.choice(_SECRETY),), "placeholder")


@LOOKALIKES.item("literal_placeholder")
def literal_placeholder(rng: random.Random) -> Item:
    forms = [
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
    return _one("literal_placeholder", rng.choice(forms), (rng.choice(_SECRETY),), "placeholder")


@LOOKALIKES.item("prefixed_placeholder")
def prefixed_placeholder(rng: random.Random) -> Item:
    forms = [
        "sk_live_" + "x" * 24,
        "ghp_" + "X" * 36,
        "AKIA" + "X" * 16,
        "sk-proj-...",
        "xoxb-your-bot-token",
        "glpat-xxxxxxxxxxxxxxxxxxxx",
        "sk-ant-api03-...",
        "hf_" + "x" * 34,
        "npm_" + "0" * 36,
        "SG.xxxxxxxx.yyyyyyyy",
    ]
    return _one("prefixed_placeholder", rng.choice(forms), (rng.choice(_SECRETY),), "placeholder key")


# Values the providers print in their own documentation: public, and accepted nowhere.
_DOCUMENTED = [
    ("AKIAIOSFODNN7EXAMPLE", "aws_access_key_id"),
    ("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_access_key"),
    ("AKIAI44QH8DHBEXAMPLE", "aws_access_key_id"),
    ("je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY", "aws_secret_access_key"),
    ("Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==", "azurite_account_key"),
    (
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ"
        ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
        "example_jwt",
    ),
]


@LOOKALIKES.item("documented_example_key")
def documented_example_key(rng: random.Random) -> Item:
    value, key = rng.choice(_DOCUMENTED)
    return _one("documented_example_key", value, (key,), "documentation example")


@LOOKALIKES.item("env_read_code")
def env_read_code(rng: random.Random) -> Item:
    var = rng.choice(_VARS)
    forms = [
        (f'os.environ["{var}"]', "python"),
        (f'os.getenv("{var}")', "python"),
        (f"process.env.{var}", "javascript"),
        (f'os.Getenv("{var}")', "go"),
        (f'ENV.fetch("{var}")', "markdown"),
        (f'System.getenv("{var}")', "markdown"),
    ]
    value, language = rng.choice(forms)
    item = _one("env_read_code", value, (var.lower(),), "read from the environment", raw=True)
    item.contexts = (language, "markdown")
    return item


_POD = "bcdfghjklmnpqrstvwxz2456789"


@_value("k8s_pod_name", "pod", "pod", "pod_name", "hostname")
def k8s_pod_name(rng: random.Random) -> str:
    app = rng.choice(["api", "billing-worker", "checkout-web", "ingest", "auth-service", "search-indexer", "notifier"])
    if rng.random() < 0.15:
        return f"{app}-{rng.randint(0, 4)}"
    return f"{app}-{rand(rng, _POD, rng.choice([9, 10]))}-{rand(rng, _POD, 5)}"


@_value("git_commit_sha", "commit", "commit", "git_sha", "revision", "build_commit")
def git_commit_sha(rng: random.Random) -> str:
    return rand(rng, HEX, 40) if rng.random() < 0.6 else rand(rng, HEX, rng.choice([7, 8, 10, 12]))


_PROSE = [
    "Meeting moved to Thursday at 3pm, bring the quarterly numbers.",
    "Remember to water the plants on the balcony before the trip.",
    "The migration finished without errors on the second attempt.",
    "Customer asked for the invoice to be sent to the finance team.",
    "Release notes: faster search, fewer timeouts, new export button.",
    "Grocery list: oat milk, lemons, basil, sourdough bread.",
    "Please review the onboarding doc before Monday standup.",
]


@_value("base64_prose", "encoded note", "payload", "data", "message_b64", "note")
def base64_prose(rng: random.Random) -> str:
    return b64(rng.choice(_PROSE).encode())


@_value("oauth_client_id", "OAuth client id", "client_id", "oauth_client_id", "app_id", "google_client_id")
def oauth_client_id(rng: random.Random) -> str:
    google = f"{rand(rng, DIGITS, 12)}-{rand(rng, LOWER_ALNUM, 32)}.apps.googleusercontent.com"
    return rng.choice([google, "Ov23li" + rand(rng, B62, 14), "Iv1." + rand(rng, HEX, 16), uuid4(rng)])


@_value("uuid", "id", "request_id", "trace_id", "tenant_id", "subscription_id", "correlation_id")
def uuid_value(rng: random.Random) -> str:
    return uuid4(rng)


@_value("timestamp", "timestamp", "created_at", "expires_at", "last_rotated", "updated_at", "ts")
def timestamp(rng: random.Random) -> str:
    epoch = rng.randint(1_700_000_000, 1_800_000_000)
    day = f"{rng.randint(2024, 2027)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    clock = f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"
    return rng.choice(
        [
            f"{day}T{clock}Z",
            f"{day}T{clock}.{rng.randint(0, 999999):06d}+00:00",
            str(epoch),
            str(epoch * 1000 + rng.randint(0, 999)),
        ]
    )


@_value("file_sha256", "file checksum", "sha256", "checksum", "digest")
def file_sha256(rng: random.Random) -> str:
    return rand(rng, HEX, 64)


@_value("docker_image_digest", "image", "image")
def docker_image_digest(rng: random.Random) -> str:
    image = rng.choice(
        [
            "ghcr.io/acme/api",
            "registry.acme.io/billing/worker",
            "docker.io/library/postgres",
            "public.ecr.aws/acme/ingest",
        ]
    )
    return f"{image}@sha256:{rand(rng, HEX, 64)}"


@_value("ssh_public_key", "SSH public key", "ssh_public_key", "authorized_key", "deploy_key_pub")
def ssh_public(rng: random.Random) -> str:
    return ssh_public_key(rng)


@LOOKALIKES.item("pem_public_key")
def pem_public(rng: random.Random) -> Item:
    return _one(
        "pem_public_key", pem_public_key(rng), ("public_key", "jwt_public_key", "verify_key"), "public key", block=True
    )


@LOOKALIKES.item("pem_certificate")
def pem_cert(rng: random.Random) -> Item:
    return _one(
        "pem_certificate", pem_certificate(rng), ("certificate", "ca_cert", "tls_cert"), "certificate", block=True
    )


@_value(
    "stripe_publishable_key",
    "Stripe publishable key",
    "stripe_publishable_key",
    "publishable_key",
    "next_public_stripe_key",
)
def stripe_publishable_key(rng: random.Random) -> str:
    return "pk_live_" + rand(rng, B62, rng.choice([24, 99]))


@_value("google_analytics_id", "analytics id", "ga_measurement_id", "analytics_id", "gtm_id")
def google_analytics_id(rng: random.Random) -> str:
    return rng.choice(
        [
            f"G-{rand(rng, UPPER_ALNUM, 10)}",
            f"UA-{rand(rng, DIGITS, 8)}-{rng.randint(1, 9)}",
            f"GTM-{rand(rng, UPPER_ALNUM, 7)}",
        ]
    )


@_value("url_without_credentials", "link", "base_url", "endpoint", "docs_url", "database_url")
def url_without_credentials(rng: random.Random) -> str:
    return rng.choice(
        [
            f"https://api.acme.io/v{rng.randint(1, 3)}/invoices?page={rng.randint(1, 40)}&limit=50",
            f"https://status.acme.io/incidents/{rand(rng, LOWER_ALNUM, 12)}",
            f"postgres://db.internal:5432/{rng.choice(['app', 'billing'])}?sslmode=require",
            "https://docs.acme.io/runbooks/rotate-keys#staging",
            f"https://github.com/acme/infra/pull/{rng.randint(100, 9999)}",
            f"redis://cache-01.prod:6379/{rng.randint(0, 15)}",
        ]
    )


@_value("semver", "version", "version", "app_version", "chart_version")
def semver(rng: random.Random) -> str:
    core = f"{rng.randint(0, 12)}.{rng.randint(0, 40)}.{rng.randint(0, 30)}"
    return rng.choice([core, "v" + core, f"{core}-rc.{rng.randint(1, 5)}", f"{core}+build.{rng.randint(1, 999)}"])


@_value("iban", "IBAN", "iban", "payout_iban", "bank_account")
def iban(rng: random.Random) -> str:
    # An IBAN is shared so that others can pay into the account; it grants no access (see README).
    country = rng.choice(["DE", "GB", "FR"])
    body = {
        "DE": lambda: rand(rng, DIGITS, 18),
        "GB": lambda: rng.choice(["NWBK", "BARC", "MIDL"]) + rand(rng, DIGITS, 14),
        "FR": lambda: rand(rng, DIGITS, 23),
    }[country]()
    check = 98 - int("".join(str(int(c, 36)) for c in body + country + "00")) % 97
    value = f"{country}{check:02d}{body}"
    return " ".join(value[i : i + 4] for i in range(0, len(value), 4)) if rng.random() < 0.5 else value


@_value("phone_number", "phone", "phone", "on_call_phone", "support_phone")
def phone_number(rng: random.Random) -> str:
    return rng.choice(
        [
            f"+1 415 555 01{rng.randint(0, 99):02d}",
            f"+44 20 7946 0{rng.randint(0, 999):03d}",
            f"(555) 01{rng.randint(0, 9)}-{rng.randint(1000, 9999)}",
            f"+61 491 570 {rng.randint(100, 999)}",
            f"+49 30 {rng.randint(1000000, 9999999)}",
        ]
    )


@_value("css_color", "colour", "primary_color", "accent", "background")
def css_color(rng: random.Random) -> str:
    rgb = f"rgb({rng.randint(0, 255)}, {rng.randint(0, 255)}, {rng.randint(0, 255)})"
    hsl = f"hsl({rng.randint(0, 359)}, {rng.randint(10, 90)}%, {rng.randint(20, 80)}%)"
    return rng.choice([f"#{rand(rng, HEX, 6)}", f"#{rand(rng, HEX.upper(), 6)}", f"#{rand(rng, HEX, 3)}", rgb, hsl])


@_value("random_file_name", "file", "file", "attachment", "bundle")
def random_file_name(rng: random.Random) -> str:
    photo = f"IMG_{rng.randint(2023, 2026)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}_{rand(rng, DIGITS, 6)}.jpg"
    others = [
        f"{rand(rng, HEX, 16)}.png",
        f"chunk-vendors.{rand(rng, HEX, 8)}.js",
        f"tmp{rand(rng, LOWER_ALNUM, 8)}.json",
        f"main.{rand(rng, HEX, 10)}.css",
        f"export_{rand(rng, B62, 12)}.csv",
    ]
    return rng.choice([photo, *others])


@_value("mapbox_public_token", "Mapbox public token", "mapbox_token", "mapbox_access_token", "next_public_mapbox_token")
def mapbox_public_token(rng: random.Random) -> str:
    user = rng.choice(["acme-maps", "fleetops", "jdoe"])
    claims = b64url(('{"u":"' + user + '","a":"cl' + rand(rng, LOWER_ALNUM, 23) + '"}').encode())
    return f"pk.{claims}.{rand(rng, B64URL, 22)}"


@_value("sentry_public_dsn", "Sentry DSN", "sentry_dsn", "next_public_sentry_dsn")
def sentry_public_dsn(rng: random.Random) -> str:
    region = rng.choice(["", "us.", "de."])
    return f"https://{rand(rng, HEX, 32)}@o{rand(rng, DIGITS, 6)}.ingest.{region}sentry.io/{rand(rng, DIGITS, 7)}"


@_value("stripe_object_id", "Stripe object id", "customer", "payment_intent", "stripe_id", "object_id")
def stripe_object_id(rng: random.Random) -> str:
    prefix, n = rng.choice(
        [("cus_", 14), ("pi_", 24), ("ch_", 24), ("sub_", 24), ("in_", 24), ("price_", 24), ("evt_", 24), ("acct_", 16)]
    )
    return prefix + rand(rng, B62, n)


@_value("twilio_message_sid", "Twilio message SID", "message_sid", "call_sid", "sid")
def twilio_message_sid(rng: random.Random) -> str:
    return rng.choice(["SM", "MM", "CA"]) + rand(rng, HEX, 32)


@_value("aws_arn", "ARN", "role_arn", "resource_arn", "aws_account_id")
def aws_arn(rng: random.Random) -> str:
    account = rand(rng, DIGITS, 12)
    role = rng.choice(["deploy", "ci-runner", "lambda-exec"])
    forms = [
        f"arn:aws:iam::{account}:role/{role}",
        f"arn:aws:s3:::acme-{rand(rng, LOWER_ALNUM, 6)}-logs",
        f"arn:aws:kms:eu-west-1:{account}:key/{uuid4(rng)}",
        account,
    ]
    return rng.choice(forms)


@LOOKALIKES.item("non_secret_setting")
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


@LOOKALIKES.item("masked_secret")
def masked_secret(rng: random.Random) -> Item:
    tail = rand(rng, B62, 4)
    forms = [
        f"sk-proj-...{tail}",
        f"ghp_{'*' * 32}{tail}",
        f"****{rand(rng, DIGITS, 4)}",
        f"AKIA{'*' * 12}{rand(rng, UPPER_ALNUM, 4)}",
        f"sk_live_…{tail}",
        f"xoxb-***-{tail}",
    ]
    return _one("masked_secret", rng.choice(forms), (rng.choice(_SECRETY),), "masked key")


@_value("sri_hash", "integrity hash", "integrity")
def sri_hash(rng: random.Random) -> str:
    return rng.choice([f"sha512-{b64(rng.randbytes(64))}", f"sha384-{b64(rng.randbytes(48))}"])


@_value("mongo_object_id", "document id", "_id", "user_id", "order_id")
def mongo_object_id(rng: random.Random) -> str:
    return f"{rng.randint(0x65000000, 0x6A000000):08x}{rand(rng, HEX, 16)}"


@_value("paypal_client_id", "PayPal client id", "paypal_client_id", "next_public_paypal_client_id")
def paypal_client_id(rng: random.Random) -> str:
    # PayPal's JS SDK puts the client id in the page's script URL: public by design.
    return "A" + rand(rng, B64URL, 79)


@_value("stripe_test_card", "test card", "test_card")
def stripe_test_card(rng: random.Random) -> str:
    return rng.choice(
        ["4242 4242 4242 4242", "4242424242424242", "4000 0566 5566 5556", "5555 5555 5555 4444", "4000 0000 0000 9995"]
    )


@_value("age_public_key", "age recipient", "age_recipient", "sops_age_recipients")
def age_public_key(rng: random.Random) -> str:
    return bech32_encode("age", rng.randbytes(32))
