"""Secret value generators for the blind corpus: one function per kind, random but format-correct.

Formats follow the providers' public descriptions: prefixes, lengths, alphabets, and checksums
where one is documented (GitHub classic and npm tokens: CRC32 in base62; PGP armor: CRC24;
age keys: bech32). Values are random, so none of them is a live credential.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from _blind_common import (
    B32,
    B62,
    B64,
    B64URL,
    DIGITS,
    HEX,
    LOWER_ALNUM,
    UPPER_ALNUM,
    Item,
    b64,
    b64url,
    bech32_encode,
    crc32_base62,
    mark,
    plain,
    rand,
    uuid4,
)
from _blind_pem import gcp_service_account, pem_private_key, pgp_private_block

__all__ = ["SECRET_KINDS"]

SEC = "secret"
Gen = Callable[[random.Random], Item]


def _one(kind: str, value: str, keys: tuple[str, ...], label: str) -> Item:
    return Item(kind, SEC, [mark(SEC, kind, value)], keys, label)


def _gh(prefix: str) -> Callable[[random.Random], str]:
    def make(rng: random.Random) -> str:
        body = rand(rng, B62, 30)
        return f"{prefix}_{body}{crc32_base62(body)}"

    return make


def aws_access_key_id(rng: random.Random) -> Item:
    value = rng.choice(["AKIA", "AKIA", "AKIA", "ASIA"]) + rand(rng, B32, 16)
    return _one(
        "aws_access_key_id", value, ("aws_access_key_id", "access_key_id", "aws_access_key"), "AWS access key id"
    )


def aws_secret_access_key(rng: random.Random) -> Item:
    item = _one(
        "aws_secret_access_key",
        rand(rng, B64, 40),
        ("aws_secret_access_key", "secret_access_key", "aws_secret_key"),
        "AWS secret access key",
    )
    if rng.random() < 0.6:
        item.extra.append(aws_access_key_id(rng))
    return item


def azure_storage_account_key(rng: random.Random) -> Item:
    return _one(
        "azure_storage_account_key",
        b64(rng.randbytes(64)),
        ("azure_storage_key", "storage_account_key", "account_key", "azure_storage_access_key"),
        "Azure storage account key",
    )


def azure_storage_connection_string(rng: random.Random) -> Item:
    account = rng.choice(["acme", "billing", "logs", "media", "backup", "stdata"]) + rand(rng, LOWER_ALNUM, 6)
    kind = "azure_storage_connection_string"
    value = [
        plain(f"DefaultEndpointsProtocol=https;AccountName={account};AccountKey="),
        mark(SEC, kind, b64(rng.randbytes(64))),
        plain(";EndpointSuffix=core.windows.net"),
    ]
    keys = ("azure_storage_connection_string", "storage_connection_string", "azure_webjobs_storage")
    return Item(kind, SEC, value, keys, "Azure storage connection string")


def azure_sas_token(rng: random.Random) -> Item:
    kind = "azure_sas_signature"
    sig = b64(rng.randbytes(32)).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    account = "st" + rand(rng, LOWER_ALNUM, 10)
    value = [
        plain(
            f"https://{account}.blob.core.windows.net/exports?sv=2022-11-02&ss=b&srt=co&sp=rl"
            f"&se=2027-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}T00:00:00Z&spr=https&sig="
        ),
        mark(SEC, kind, sig),
    ]
    return Item(kind, SEC, value, ("blob_sas_url", "export_url", "sas_url"), "Azure blob SAS URL")


def azure_ad_client_secret(rng: random.Random) -> Item:
    alphabet = B62 + "_~.-"
    value = rand(rng, B62 + "_~.", 3) + rng.choice(DIGITS) + "Q~" + rand(rng, alphabet, 34)
    return _one(
        "azure_ad_client_secret",
        value,
        ("azure_client_secret", "client_secret", "aad_client_secret", "arm_client_secret"),
        "Azure AD client secret",
    )


def gcp_api_key(rng: random.Random) -> Item:
    return _one(
        "gcp_api_key",
        "AIzaSy" + rand(rng, B64URL, 33),
        ("google_api_key", "gcp_api_key", "maps_api_key", "gemini_api_key"),
        "Google API key",
    )


def github_classic_pat(rng: random.Random) -> Item:
    return _one(
        "github_classic_pat",
        _gh("ghp")(rng),
        ("github_token", "gh_token", "github_pat"),
        "GitHub personal access token",
    )


def github_oauth_token(rng: random.Random) -> Item:
    return _one(
        "github_oauth_token",
        _gh("gho")(rng),
        ("github_oauth_token", "gh_oauth_token", "oauth_token"),
        "GitHub OAuth token",
    )


def github_app_token(rng: random.Random) -> Item:
    value = _gh(rng.choice(["ghs", "ghu"]))(rng)
    return _one("github_app_token", value, ("github_app_token", "installation_token", "gh_token"), "GitHub App token")


def github_refresh_token(rng: random.Random) -> Item:
    return _one(
        "github_refresh_token", _gh("ghr")(rng), ("github_refresh_token", "refresh_token"), "GitHub refresh token"
    )


def github_fine_grained_pat(rng: random.Random) -> Item:
    # github_pat_ + 22 + "_" + 59: GitHub publishes no checksum layout for this format.
    value = "github_pat_" + "11" + rand(rng, UPPER_ALNUM, 20) + "_" + rand(rng, B62, 59)
    return _one("github_fine_grained_pat", value, ("github_token", "gh_pat", "github_pat"), "GitHub fine-grained token")


def gitlab_pat(rng: random.Random) -> Item:
    return _one(
        "gitlab_pat",
        "glpat-" + rand(rng, B62 + "_-", 20),
        ("gitlab_token", "gitlab_pat", "ci_job_token_override"),
        "GitLab personal access token",
    )


def gitlab_runner_token(rng: random.Random) -> Item:
    return _one(
        "gitlab_runner_token",
        "glrt-" + rand(rng, B62 + "_-", 20),
        ("runner_token", "gitlab_runner_token"),
        "GitLab runner token",
    )


def slack_bot_token(rng: random.Random) -> Item:
    value = f"xoxb-{rand(rng, DIGITS, rng.choice([11, 12, 13]))}-{rand(rng, DIGITS, 13)}-{rand(rng, B62, 24)}"
    return _one("slack_bot_token", value, ("slack_bot_token", "slack_token", "bot_token"), "Slack bot token")


def slack_user_token(rng: random.Random) -> Item:
    value = f"xoxp-{rand(rng, DIGITS, 12)}-{rand(rng, DIGITS, 12)}-{rand(rng, DIGITS, 13)}-{rand(rng, HEX, 32)}"
    return _one("slack_user_token", value, ("slack_user_token", "slack_token"), "Slack user token")


def slack_app_token(rng: random.Random) -> Item:
    value = f"xapp-1-A{rand(rng, UPPER_ALNUM, 10)}-{rand(rng, DIGITS, 13)}-{rand(rng, HEX, 64)}"
    return _one("slack_app_token", value, ("slack_app_token", "socket_mode_token"), "Slack app-level token")


def slack_webhook_url(rng: random.Random) -> Item:
    value = f"https://hooks.slack.com/services/T{rand(rng, UPPER_ALNUM, 8)}/B{rand(rng, UPPER_ALNUM, 10)}/{rand(rng, B62, 24)}"
    return _one("slack_webhook_url", value, ("slack_webhook_url", "alerts_webhook", "webhook_url"), "Slack webhook")


def stripe_secret_key(rng: random.Random) -> Item:
    value = "sk_live_" + rand(rng, B62, rng.choice([24, 99]))
    return _one(
        "stripe_secret_key", value, ("stripe_secret_key", "stripe_api_key", "stripe_key"), "Stripe live secret key"
    )


def stripe_restricted_key(rng: random.Random) -> Item:
    value = "rk_live_" + rand(rng, B62, rng.choice([24, 99]))
    return _one("stripe_restricted_key", value, ("stripe_restricted_key", "stripe_rk"), "Stripe restricted key")


def stripe_webhook_secret(rng: random.Random) -> Item:
    return _one(
        "stripe_webhook_secret",
        "whsec_" + rand(rng, B62, 32),
        ("stripe_webhook_secret", "webhook_signing_secret", "endpoint_secret"),
        "Stripe webhook signing secret",
    )


def twilio_auth_token(rng: random.Random) -> Item:
    # The account SID (AC + 32 hex) stays unlabelled: it is an identifier in every API URL.
    item = _one("twilio_auth_token", rand(rng, HEX, 32), ("twilio_auth_token", "auth_token"), "Twilio auth token")
    item.extra.append(
        Item(
            "twilio_account_sid",
            "neutral",
            [plain("AC" + rand(rng, HEX, 32))],
            ("twilio_account_sid", "account_sid"),
            "Twilio account SID",
        )
    )
    return item


def twilio_api_key(rng: random.Random) -> Item:
    item = _one("twilio_api_key", "SK" + rand(rng, HEX, 32), ("twilio_api_key", "twilio_api_key_sid"), "Twilio API key")
    if rng.random() < 0.7:
        item.extra.append(
            _one(
                "twilio_api_secret",
                rand(rng, B62, 32),
                ("twilio_api_secret", "twilio_api_key_secret"),
                "Twilio API secret",
            )
        )
    return item


def sendgrid_api_key(rng: random.Random) -> Item:
    value = f"SG.{rand(rng, B64URL, 22)}.{rand(rng, B64URL, 43)}"
    return _one("sendgrid_api_key", value, ("sendgrid_api_key", "smtp_password", "email_api_key"), "SendGrid API key")


def mailgun_api_key(rng: random.Random) -> Item:
    if rng.random() < 0.5:
        value = "key-" + rand(rng, HEX, 32)
    else:
        value = f"{rand(rng, HEX, 32)}-{rand(rng, HEX, 8)}-{rand(rng, HEX, 8)}"
    return _one("mailgun_api_key", value, ("mailgun_api_key", "mailgun_key", "mg_api_key"), "Mailgun API key")


def openai_api_key(rng: random.Random) -> Item:
    if rng.random() < 0.8:
        head = rng.choice(["sk-proj-", "sk-proj-", "sk-svcacct-", "sk-admin-"])
        value = head + rand(rng, B64URL, 74) + "T3BlbkFJ" + rand(rng, B64URL, 74)
    else:
        value = "sk-" + rand(rng, B62, 20) + "T3BlbkFJ" + rand(rng, B62, 20)
    return _one("openai_api_key", value, ("openai_api_key", "openai_key", "llm_api_key"), "OpenAI API key")


def anthropic_api_key(rng: random.Random) -> Item:
    head = "sk-ant-api03-" if rng.random() < 0.85 else "sk-ant-admin01-"
    value = head + rand(rng, B64URL, 93) + "AA"
    return _one("anthropic_api_key", value, ("anthropic_api_key", "claude_api_key", "llm_api_key"), "Anthropic API key")


def huggingface_token(rng: random.Random) -> Item:
    value = rng.choice(["hf_", "hf_", "hf_", "api_org_"]) + rand(rng, B62[10:], 34)
    return _one(
        "huggingface_token", value, ("hf_token", "huggingface_token", "hugging_face_hub_token"), "Hugging Face token"
    )


def shopify_token(rng: random.Random) -> Item:
    value = rng.choice(["shpat_", "shpca_", "shppa_", "shpss_"]) + rand(rng, HEX, 32)
    return _one(
        "shopify_token",
        value,
        ("shopify_access_token", "shopify_admin_token", "shopify_api_secret"),
        "Shopify access token",
    )


def square_access_token(rng: random.Random) -> Item:
    value = "EAAA" + rand(rng, B64URL, 60) if rng.random() < 0.7 else "sq0atp-" + rand(rng, B64URL, 22)
    return _one("square_access_token", value, ("square_access_token", "square_token"), "Square access token")


def square_oauth_secret(rng: random.Random) -> Item:
    return _one(
        "square_oauth_secret",
        "sq0csp-" + rand(rng, B64URL, 43),
        ("square_application_secret", "square_oauth_secret"),
        "Square application secret",
    )


def braintree_access_token(rng: random.Random) -> Item:
    value = f"access_token$production${rand(rng, LOWER_ALNUM, 16)}${rand(rng, HEX, 32)}"
    return _one(
        "braintree_access_token", value, ("braintree_access_token", "paypal_access_token"), "Braintree access token"
    )


def paypal_client_secret(rng: random.Random) -> Item:
    value = "E" + rand(rng, B64URL, 79)
    return _one("paypal_client_secret", value, ("paypal_client_secret", "paypal_secret"), "PayPal client secret")


def discord_bot_token(rng: random.Random) -> Item:
    snowflake = str(rng.randint(10**17 * 7, 10**18 * 2))
    value = f"{b64(snowflake.encode(), pad=False)}.{rand(rng, B64URL, 6)}.{rand(rng, B64URL, rng.choice([27, 38]))}"
    return _one("discord_bot_token", value, ("discord_bot_token", "discord_token", "bot_token"), "Discord bot token")


def discord_webhook_url(rng: random.Random) -> Item:
    host = rng.choice(["discord.com", "discord.com", "discordapp.com"])
    value = f"https://{host}/api/webhooks/{rand(rng, DIGITS, 19)}/{rand(rng, B64URL, 68)}"
    return _one("discord_webhook_url", value, ("discord_webhook_url", "discord_webhook"), "Discord webhook")


def telegram_bot_token(rng: random.Random) -> Item:
    value = f"{rng.randint(10**8, 8 * 10**9)}:AA{rand(rng, B64URL, 33)}"
    return _one(
        "telegram_bot_token", value, ("telegram_bot_token", "tg_bot_token", "telegram_token"), "Telegram bot token"
    )


def npm_token(rng: random.Random) -> Item:
    return _one("npm_token", _gh("npm")(rng), ("npm_token", "npm_auth_token", "node_auth_token"), "npm token")


def pypi_token(rng: random.Random) -> Item:
    # A PyPI token is "pypi-" + a base64url version-2 macaroon: location, identifier, caveat, signature.
    location = rng.choice([b"pypi.org", b"pypi.org", b"test.pypi.org"])
    identifier = uuid4(rng).encode()
    caveat = json.dumps(
        {"version": 1, "permissions": rng.choice(["user", {"projects": ["acme-tools"]}])}, separators=(",", ":")
    ).encode()
    raw = bytes([2, 1, len(location)]) + location + bytes([2, len(identifier)]) + identifier + b"\x00"
    raw += bytes([2, len(caveat)]) + caveat + b"\x00\x00" + bytes([6, 32]) + rng.randbytes(32)
    return _one("pypi_token", "pypi-" + b64url(raw), ("pypi_token", "twine_password", "pypi_api_token"), "PyPI token")


def dockerhub_pat(rng: random.Random) -> Item:
    return _one(
        "dockerhub_pat",
        "dckr_pat_" + rand(rng, B64URL, 27),
        ("docker_password", "dockerhub_token", "registry_password"),
        "Docker Hub token",
    )


def heroku_api_key(rng: random.Random) -> Item:
    value = "HRKU-AA" + rand(rng, B64URL, 58) if rng.random() < 0.5 else uuid4(rng)
    return _one("heroku_api_key", value, ("heroku_api_key", "heroku_token"), "Heroku API key")


def digitalocean_token(rng: random.Random) -> Item:
    value = rng.choice(["dop_v1_", "dop_v1_", "doo_v1_", "dor_v1_"]) + rand(rng, HEX, 64)
    return _one(
        "digitalocean_token",
        value,
        ("digitalocean_token", "do_token", "digitalocean_access_token"),
        "DigitalOcean token",
    )


def datadog_api_key(rng: random.Random) -> Item:
    item = _one("datadog_api_key", rand(rng, HEX, 32), ("dd_api_key", "datadog_api_key"), "Datadog API key")
    if rng.random() < 0.5:
        item.extra.append(
            _one(
                "datadog_app_key",
                rand(rng, HEX, 40),
                ("dd_app_key", "datadog_app_key", "dd_application_key"),
                "Datadog application key",
            )
        )
    return item


def datadog_app_key(rng: random.Random) -> Item:
    return _one(
        "datadog_app_key",
        rand(rng, HEX, 40),
        ("dd_app_key", "datadog_app_key", "dd_application_key"),
        "Datadog application key",
    )


def newrelic_user_key(rng: random.Random) -> Item:
    return _one(
        "newrelic_user_key",
        "NRAK-" + rand(rng, UPPER_ALNUM, 27),
        ("new_relic_api_key", "newrelic_user_key", "nr_api_key"),
        "New Relic user key",
    )


def newrelic_license_key(rng: random.Random) -> Item:
    return _one(
        "newrelic_license_key",
        rand(rng, HEX, 36) + "NRAL",
        ("new_relic_license_key", "newrelic_license_key", "nr_license_key"),
        "New Relic license key",
    )


def sentry_auth_token(rng: random.Random) -> Item:
    if rng.random() < 0.5:
        value = "sntryu_" + rand(rng, HEX, 64)
    else:
        claims = {
            "iat": rng.randint(1_700_000_000, 1_790_000_000),
            "url": "https://sentry.io",
            "region_url": "https://us.sentry.io",
            "org": rng.choice(["acme", "globex", "initech"]),
        }
        value = (
            "sntrys_"
            + b64(json.dumps(claims, separators=(",", ":")).encode(), pad=False)
            + "_"
            + rand(rng, B64[:62], 43)
        )
    return _one("sentry_auth_token", value, ("sentry_auth_token", "sentry_token"), "Sentry auth token")


def sentry_dsn_secret(rng: random.Random) -> Item:
    kind = "sentry_dsn_secret"
    value = [
        plain(f"https://{rand(rng, HEX, 32)}:"),
        mark(SEC, kind, rand(rng, HEX, 32)),
        plain(f"@o{rand(rng, DIGITS, 6)}.ingest.sentry.io/{rand(rng, DIGITS, 7)}"),
    ]
    return Item(kind, SEC, value, ("sentry_dsn", "raven_dsn"), "Sentry DSN (legacy, with secret)")


def jwt(rng: random.Random) -> Item:
    alg = rng.choice(["HS256", "HS256", "RS256", "ES256"])
    header = (
        {"alg": alg, "typ": "JWT"} if rng.random() < 0.7 else {"alg": alg, "kid": rand(rng, B64URL, 16), "typ": "JWT"}
    )
    now = rng.randint(1_760_000_000, 1_800_000_000)
    claims = {
        "sub": uuid4(rng),
        "iat": now,
        "exp": now + rng.choice([900, 3600, 86400]),
        "scope": rng.choice(["read", "read write", "admin"]),
    }
    if rng.random() < 0.3:
        claims["role"] = "service_role"
    sig_len = {"HS256": 32, "RS256": 256, "ES256": 64}[alg]
    parts = [
        b64url(json.dumps(header, separators=(",", ":")).encode()),
        b64url(json.dumps(claims, separators=(",", ":")).encode()),
        b64url(rng.randbytes(sig_len)),
    ]
    return _one("jwt", ".".join(parts), ("access_token", "jwt", "session_token", "service_role_key", "id_token"), "JWT")


def _db(kind: str, scheme: str, port: int, keys: tuple[str, ...], label: str) -> Gen:
    def make(rng: random.Random) -> Item:
        user = rng.choice(["app", "admin", "svc_billing", "readonly", "etl", "root", "postgres"])
        host = rng.choice(
            [
                "db.internal",
                "10.0.4.12",
                "prod-db.cluster-c9x.eu-west-1.rds.amazonaws.com",
                "localhost",
                "cache-01.prod",
            ]
        )
        if scheme == "mongodb+srv":
            host = f"cluster0.{rand(rng, LOWER_ALNUM, 5)}.mongodb.net"
        pw = _url_password(rng)
        tail = "" if scheme == "mongodb+srv" else f":{port}"
        db = "/0" if scheme.startswith("redis") else "/" + rng.choice(["app", "billing", "events", "prod"])
        user_part = "" if scheme.startswith("redis") and rng.random() < 0.5 else user
        value = [plain(f"{scheme}://{user_part}:"), mark(SEC, kind, pw), plain(f"@{host}{tail}{db}")]
        if scheme == "mongodb+srv":
            value.append(plain("?retryWrites=true&w=majority"))
        return Item(kind, SEC, value, keys, label)

    return make


def _url_password(rng: random.Random) -> str:
    style = rng.random()
    if style < 0.5:
        return rand(rng, B62, rng.randint(16, 32))
    if style < 0.8:
        return rand(rng, B62 + "-._~", rng.randint(12, 24))
    return (
        rng.choice(["Winter", "Harbor", "Falcon", "Maple", "Orbit"])
        + rand(rng, DIGITS, 4)
        + rng.choice(["-", "_", "."])
        + rand(rng, B62, 6)
    )


_WORDS = [
    "amber",
    "canyon",
    "delta",
    "ember",
    "fjord",
    "glacier",
    "harbor",
    "indigo",
    "juniper",
    "kestrel",
    "lantern",
    "meadow",
    "nectar",
    "onyx",
    "pepper",
    "quartz",
    "raven",
    "saffron",
    "tundra",
    "velvet",
]


def _password(rng: random.Random) -> str:
    style = rng.random()
    if style < 0.4:
        return rand(rng, B62 + "!@%^&*-_=+.,?~", rng.randint(12, 28))
    if style < 0.65:
        return (
            rng.choice(_WORDS).capitalize()
            + rng.choice(_WORDS).capitalize()
            + rand(rng, DIGITS, rng.randint(2, 4))
            + rng.choice("!@%&*?")
        )
    if style < 0.85:
        return "-".join(rng.choice(_WORDS) for _ in range(rng.randint(3, 5)))
    return rand(rng, B62, rng.randint(16, 24))


def generic_password(rng: random.Random) -> Item:
    keys = (
        "password",
        "db_password",
        "passwd",
        "admin_password",
        "pwd",
        "smtp_password",
        "redis_password",
        "mysql_root_password",
        "ldap_bind_password",
        "keystore_password",
    )
    return _one("generic_password", _password(rng), (rng.choice(keys),), "password")


def generic_secret(rng: random.Random) -> Item:
    value = rng.choice(
        [rand(rng, HEX, rng.choice([32, 64, 128])), b64(rng.randbytes(rng.choice([32, 48]))), rand(rng, B62, 50)]
    )
    keys = (
        "secret_key",
        "secret",
        "session_secret",
        "secret_key_base",
        "jwt_secret",
        "signing_key",
        "encryption_key",
        "app_secret",
        "cookie_secret",
        "hmac_secret",
    )
    return _one("generic_secret", value, (rng.choice(keys),), "secret")


def generic_api_key(rng: random.Random) -> Item:
    value = rng.choice(
        [
            rand(rng, HEX, 32),
            rand(rng, B62, rng.randint(32, 48)),
            rand(rng, B64URL, 40),
            f"{rand(rng, LOWER_ALNUM, 8)}.{rand(rng, B62, 32)}",
        ]
    )
    keys = (
        "api_key",
        "apikey",
        "x_api_key",
        "client_secret",
        "access_token",
        "auth_token",
        "token",
        "private_token",
        "service_token",
        "partner_api_key",
    )
    return _one("generic_api_key", value, (rng.choice(keys),), "API key")


def basic_auth_url_password(rng: random.Random) -> Item:
    kind = "basic_auth_url_password"
    host = rng.choice(
        [
            "registry.internal.acme.io",
            "jenkins.acme.dev",
            "es-prod.acme.net:9200",
            "nexus.corp.local/repository/pypi/simple",
            "git.acme.io/platform/infra.git",
            "ftp.partner-files.com",
        ]
    )
    scheme = "ftp" if host.startswith("ftp") else "https"
    user = rng.choice(["deploy", "ci-bot", "elastic", "admin", "build"])
    value = [plain(f"{scheme}://{user}:"), mark(SEC, kind, _url_password(rng)), plain(f"@{host}")]
    return Item(
        kind, SEC, value, ("index_url", "remote_url", "elasticsearch_url", "registry_url"), "URL with credentials"
    )


def http_basic_auth_header(rng: random.Random) -> Item:
    kind = "http_basic_auth_header"
    cred = f"{rng.choice(['api', 'deploy', 'svc-reports', 'admin'])}:{_password(rng)}"
    return Item(
        kind,
        SEC,
        [plain("Basic "), mark(SEC, kind, b64(cred.encode()))],
        ("authorization",),
        "basic auth header",
        header=True,
    )


def url_query_token(rng: random.Random) -> Item:
    kind = "url_query_token"
    param = rng.choice(["api_key", "access_token", "token", "key", "auth"])
    host = rng.choice(
        [
            "api.partner-data.com/v2/export",
            "hooks.acme.io/ingest",
            "maps.example-geo.com/geocode",
            "feeds.vendor.net/orders.csv",
        ]
    )
    value = [
        plain(f"https://{host}?format=json&{param}="),
        mark(SEC, kind, rand(rng, rng.choice([B62, HEX]), rng.choice([32, 40]))),
    ]
    return Item(kind, SEC, value, ("export_url", "feed_url", "webhook_url", "endpoint"), "URL with token")


def cli_password_argument(rng: random.Random) -> Item:
    kind = "cli_password_argument"
    pw = _url_password(rng)
    head, tail = rng.choice(
        [
            ("mysql -h db.internal -u root -p", " billing"),
            ("curl -u deploy:", " https://nexus.corp.local/service/rest/v1/status"),
            ("docker login registry.acme.io -u ci-bot -p ", ""),
            ("redis-cli -h cache-01.prod -a ", " ping"),
            ("sshpass -p ", " ssh ops@bastion-01"),
            ("mongosh --username admin --password ", " --host cluster0.internal"),
        ]
    )
    value = [plain(head), mark(SEC, kind, pw), plain(tail)]
    return Item(kind, SEC, value, (), "command", raw=True, contexts=("shell", "markdown"))


def bearer_token(rng: random.Random) -> Item:
    kind = "bearer_token"
    token = rng.choice([rand(rng, B62, 40), rand(rng, B64URL, 43), rand(rng, HEX, 48)])
    return Item(kind, SEC, [plain("Bearer "), mark(SEC, kind, token)], ("authorization",), "bearer token", header=True)


def okta_api_token(rng: random.Random) -> Item:
    kind = "okta_api_token"
    token = "00" + rand(rng, B64URL, 40)
    if rng.random() < 0.5:
        return Item(
            kind, SEC, [plain("SSWS "), mark(SEC, kind, token)], ("authorization",), "Okta API token", header=True
        )
    return _one(kind, token, ("okta_api_token", "okta_token"), "Okta API token")


def atlassian_api_token(rng: random.Random) -> Item:
    value = "ATATT3xFfGF0" + rand(rng, B64URL, 171) + "=" + rand(rng, HEX.upper(), 8)
    return _one(
        "atlassian_api_token",
        value,
        ("jira_api_token", "atlassian_api_token", "confluence_token"),
        "Atlassian API token",
    )


def linear_api_key(rng: random.Random) -> Item:
    return _one("linear_api_key", "lin_api_" + rand(rng, B62, 40), ("linear_api_key", "linear_token"), "Linear API key")


def notion_token(rng: random.Random) -> Item:
    value = (
        "ntn_" + rand(rng, DIGITS, 11) + rand(rng, B62, 35) if rng.random() < 0.6 else "secret_" + rand(rng, B62, 43)
    )
    return _one(
        "notion_token",
        value,
        ("notion_token", "notion_api_key", "notion_integration_secret"),
        "Notion integration token",
    )


def vercel_token(rng: random.Random) -> Item:
    return _one("vercel_token", rand(rng, B62, 24), ("vercel_token", "vercel_access_token"), "Vercel token")


def netlify_token(rng: random.Random) -> Item:
    return _one("netlify_token", rand(rng, B64URL, 43), ("netlify_auth_token", "netlify_token"), "Netlify token")


def cloudflare_api_token(rng: random.Random) -> Item:
    return _one(
        "cloudflare_api_token", rand(rng, B64URL, 40), ("cloudflare_api_token", "cf_api_token"), "Cloudflare API token"
    )


def cloudflare_global_api_key(rng: random.Random) -> Item:
    return _one(
        "cloudflare_global_api_key",
        rand(rng, HEX, 37),
        ("cloudflare_api_key", "cf_api_key"),
        "Cloudflare global API key",
    )


def vault_token(rng: random.Random) -> Item:
    value = "hvs.CAESI" + rand(rng, B64URL, 86) if rng.random() < 0.8 else "s." + rand(rng, B62, 24)
    return _one("vault_token", value, ("vault_token", "vault_root_token"), "Vault token")


def terraform_cloud_token(rng: random.Random) -> Item:
    value = rand(rng, B62, 14) + ".atlasv1." + rand(rng, B64URL, 67)
    return _one(
        "terraform_cloud_token",
        value,
        ("tfe_token", "tf_token_app_terraform_io", "terraform_token"),
        "Terraform Cloud token",
    )


def doppler_token(rng: random.Random) -> Item:
    value = (
        "dp.pt." + rand(rng, B62, 43)
        if rng.random() < 0.5
        else f"dp.st.{rng.choice(['dev', 'stg', 'prd'])}.{rand(rng, B62, 43)}"
    )
    return _one("doppler_token", value, ("doppler_token",), "Doppler token")


def age_secret_key(rng: random.Random) -> Item:
    value = bech32_encode("age-secret-key-", rng.randbytes(32)).upper()
    return _one("age_secret_key", value, ("sops_age_key", "age_secret_key", "age_key"), "age secret key")


def google_oauth_client_secret(rng: random.Random) -> Item:
    return _one(
        "google_oauth_client_secret",
        "GOCSPX-" + rand(rng, B64URL, 28),
        ("google_client_secret", "client_secret"),
        "Google OAuth client secret",
    )


def grafana_service_account_token(rng: random.Random) -> Item:
    return _one(
        "grafana_service_account_token",
        f"glsa_{rand(rng, B62, 32)}_{rand(rng, HEX, 8)}",
        ("grafana_token", "grafana_api_key"),
        "Grafana service account token",
    )


def databricks_token(rng: random.Random) -> Item:
    return _one("databricks_token", "dapi" + rand(rng, HEX, 32), ("databricks_token",), "Databricks token")


def postman_api_key(rng: random.Random) -> Item:
    return _one(
        "postman_api_key", f"PMAK-{rand(rng, HEX, 24)}-{rand(rng, HEX, 34)}", ("postman_api_key",), "Postman API key"
    )


def pulumi_token(rng: random.Random) -> Item:
    return _one("pulumi_token", "pul-" + rand(rng, HEX, 40), ("pulumi_access_token",), "Pulumi access token")


def rubygems_api_key(rng: random.Random) -> Item:
    return _one(
        "rubygems_api_key",
        "rubygems_" + rand(rng, HEX, 48),
        ("gem_host_api_key", "rubygems_api_key"),
        "RubyGems API key",
    )


def mapbox_secret_token(rng: random.Random) -> Item:
    claims = json.dumps(
        {"u": rng.choice(["acme-maps", "jdoe", "fleetops"]), "a": "cl" + rand(rng, LOWER_ALNUM, 23)},
        separators=(",", ":"),
    ).encode()
    return _one(
        "mapbox_secret_token",
        f"sk.{b64url(claims)}.{rand(rng, B64URL, 22)}",
        ("mapbox_secret_token", "mapbox_download_token"),
        "Mapbox secret token",
    )


def groq_api_key(rng: random.Random) -> Item:
    return _one("groq_api_key", "gsk_" + rand(rng, B62, 52), ("groq_api_key",), "Groq API key")


def private_key(kind: str) -> Gen:
    def make(rng: random.Random) -> Item:
        text = pem_private_key(rng, kind)
        return Item(
            kind,
            SEC,
            [mark(SEC, kind, text)],
            ("private_key", "ssh_private_key", "tls_key", "signing_key_pem"),
            "private key",
            block=True,
        )

    return make


def pgp_private_key(rng: random.Random) -> Item:
    kind = "pgp_private_key"
    return Item(
        kind,
        SEC,
        [mark(SEC, kind, pgp_private_block(rng))],
        ("gpg_private_key", "signing_key"),
        "PGP private key",
        block=True,
    )


def gcp_service_account_key(rng: random.Random) -> Item:
    kind = "gcp_service_account_key"
    return Item(
        kind,
        SEC,
        gcp_service_account(rng, SEC, kind),
        ("credentials_json", "google_credentials", "service_account_json"),
        "GCP service account key",
        block=True,
        raw=True,
        contexts=("markdown", "json", "yaml"),
    )


SECRET_KINDS: list[tuple[str, Gen]] = [
    ("aws_access_key_id", aws_access_key_id),
    ("aws_secret_access_key", aws_secret_access_key),
    ("azure_storage_account_key", azure_storage_account_key),
    ("azure_storage_connection_string", azure_storage_connection_string),
    ("azure_sas_signature", azure_sas_token),
    ("azure_ad_client_secret", azure_ad_client_secret),
    ("gcp_service_account_key", gcp_service_account_key),
    ("gcp_api_key", gcp_api_key),
    ("github_classic_pat", github_classic_pat),
    ("github_oauth_token", github_oauth_token),
    ("github_app_token", github_app_token),
    ("github_refresh_token", github_refresh_token),
    ("github_fine_grained_pat", github_fine_grained_pat),
    ("gitlab_pat", gitlab_pat),
    ("gitlab_runner_token", gitlab_runner_token),
    ("slack_bot_token", slack_bot_token),
    ("slack_user_token", slack_user_token),
    ("slack_app_token", slack_app_token),
    ("slack_webhook_url", slack_webhook_url),
    ("stripe_secret_key", stripe_secret_key),
    ("stripe_restricted_key", stripe_restricted_key),
    ("stripe_webhook_secret", stripe_webhook_secret),
    ("twilio_auth_token", twilio_auth_token),
    ("twilio_api_key", twilio_api_key),
    ("sendgrid_api_key", sendgrid_api_key),
    ("mailgun_api_key", mailgun_api_key),
    ("openai_api_key", openai_api_key),
    ("anthropic_api_key", anthropic_api_key),
    ("huggingface_token", huggingface_token),
    ("shopify_token", shopify_token),
    ("square_access_token", square_access_token),
    ("square_oauth_secret", square_oauth_secret),
    ("braintree_access_token", braintree_access_token),
    ("paypal_client_secret", paypal_client_secret),
    ("discord_bot_token", discord_bot_token),
    ("discord_webhook_url", discord_webhook_url),
    ("telegram_bot_token", telegram_bot_token),
    ("npm_token", npm_token),
    ("pypi_token", pypi_token),
    ("dockerhub_pat", dockerhub_pat),
    ("heroku_api_key", heroku_api_key),
    ("digitalocean_token", digitalocean_token),
    ("datadog_api_key", datadog_api_key),
    ("datadog_app_key", datadog_app_key),
    ("newrelic_user_key", newrelic_user_key),
    ("newrelic_license_key", newrelic_license_key),
    ("sentry_auth_token", sentry_auth_token),
    ("sentry_dsn_secret", sentry_dsn_secret),
    ("jwt", jwt),
    ("rsa_private_key", private_key("rsa_private_key")),
    ("ec_private_key", private_key("ec_private_key")),
    ("openssh_private_key", private_key("openssh_private_key")),
    ("pkcs8_private_key", private_key("pkcs8_private_key")),
    ("pgp_private_key", pgp_private_key),
    (
        "postgres_url_password",
        _db("postgres_url_password", "postgres", 5432, ("database_url", "postgres_dsn", "db_url"), "Postgres URL"),
    ),
    (
        "mysql_url_password",
        _db("mysql_url_password", "mysql", 3306, ("database_url", "mysql_url", "db_dsn"), "MySQL URL"),
    ),
    (
        "mongodb_url_password",
        _db("mongodb_url_password", "mongodb+srv", 27017, ("mongodb_uri", "mongo_url"), "MongoDB URI"),
    ),
    (
        "redis_url_password",
        _db("redis_url_password", "redis", 6379, ("redis_url", "cache_url", "celery_broker_url"), "Redis URL"),
    ),
    (
        "amqp_url_password",
        _db("amqp_url_password", "amqps", 5671, ("amqp_url", "broker_url", "rabbitmq_url"), "AMQP URL"),
    ),
    ("generic_password", generic_password),
    ("generic_secret", generic_secret),
    ("generic_api_key", generic_api_key),
    ("basic_auth_url_password", basic_auth_url_password),
    ("http_basic_auth_header", http_basic_auth_header),
    ("bearer_token", bearer_token),
    ("url_query_token", url_query_token),
    ("cli_password_argument", cli_password_argument),
    ("okta_api_token", okta_api_token),
    ("atlassian_api_token", atlassian_api_token),
    ("linear_api_key", linear_api_key),
    ("notion_token", notion_token),
    ("vercel_token", vercel_token),
    ("netlify_token", netlify_token),
    ("cloudflare_api_token", cloudflare_api_token),
    ("cloudflare_global_api_key", cloudflare_global_api_key),
    ("vault_token", vault_token),
    ("terraform_cloud_token", terraform_cloud_token),
    ("doppler_token", doppler_token),
    ("age_secret_key", age_secret_key),
    ("google_oauth_client_secret", google_oauth_client_secret),
    ("grafana_service_account_token", grafana_service_account_token),
    ("databricks_token", databricks_token),
    ("postman_api_key", postman_api_key),
    ("pulumi_token", pulumi_token),
    ("rubygems_api_key", rubygems_api_key),
    ("mapbox_secret_token", mapbox_secret_token),
    ("groq_api_key", groq_api_key),
]
