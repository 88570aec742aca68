"""Provider tokens for the blind corpus: one generator per kind, random but format-correct.

Formats follow the providers' public descriptions: prefixes, lengths, alphabets, and checksums
where one is documented (GitHub classic and npm tokens: CRC32 of the 30-character body in
base62, six characters). Values are random, so none of them is a live credential.
"""

from __future__ import annotations

import json
import random

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
    Registry,
    b64,
    b64url,
    bech32_encode,
    crc32_base62,
    mark,
    plain,
    rand,
    uuid4,
)

__all__ = ["PROVIDERS"]

PROVIDERS = Registry("secret")
_value = PROVIDERS.value


def _crc_token(rng: random.Random, prefix: str) -> str:
    body = rand(rng, B62, 30)
    return f"{prefix}_{body}{crc32_base62(body)}"


@_value("aws_access_key_id", "AWS access key id", "aws_access_key_id", "access_key_id", "aws_access_key")
def aws_access_key_id(rng: random.Random) -> str:
    return rng.choice(["AKIA", "AKIA", "AKIA", "ASIA"]) + rand(rng, B32, 16)


@PROVIDERS.item("aws_secret_access_key")
def aws_secret_access_key(rng: random.Random) -> Item:
    kind = "aws_secret_access_key"
    keys = ("aws_secret_access_key", "secret_access_key", "aws_secret_key")
    item = Item(kind, "secret", [mark("secret", kind, rand(rng, B64, 40))], keys, "AWS secret access key")
    if rng.random() < 0.6:
        item.extra.append(aws_access_key_id(rng))
    return item


@_value(
    "azure_storage_account_key", "Azure storage account key", "azure_storage_key", "storage_account_key", "account_key"
)
def azure_storage_account_key(rng: random.Random) -> str:
    return b64(rng.randbytes(64))


@_value("azure_ad_client_secret", "Azure AD client secret", "azure_client_secret", "client_secret", "arm_client_secret")
def azure_ad_client_secret(rng: random.Random) -> str:
    return rand(rng, B62 + "_~.", 3) + rng.choice(DIGITS) + "Q~" + rand(rng, B62 + "_~.-", 34)


@_value("gcp_api_key", "Google API key", "google_api_key", "gcp_api_key", "maps_api_key", "gemini_api_key")
def gcp_api_key(rng: random.Random) -> str:
    return "AIzaSy" + rand(rng, B64URL, 33)


@_value("github_classic_pat", "GitHub personal access token", "github_token", "gh_token", "github_pat")
def github_classic_pat(rng: random.Random) -> str:
    return _crc_token(rng, "ghp")


@_value("github_oauth_token", "GitHub OAuth token", "github_oauth_token", "gh_oauth_token", "oauth_token")
def github_oauth_token(rng: random.Random) -> str:
    return _crc_token(rng, "gho")


@_value("github_app_token", "GitHub App token", "github_app_token", "installation_token", "gh_token")
def github_app_token(rng: random.Random) -> str:
    return _crc_token(rng, rng.choice(["ghs", "ghu"]))


@_value("github_refresh_token", "GitHub refresh token", "github_refresh_token", "refresh_token")
def github_refresh_token(rng: random.Random) -> str:
    return _crc_token(rng, "ghr")


@_value("github_fine_grained_pat", "GitHub fine-grained token", "github_token", "gh_pat", "github_pat")
def github_fine_grained_pat(rng: random.Random) -> str:
    # github_pat_ + 22 + "_" + 59; GitHub publishes no checksum layout for this format.
    return "github_pat_11" + rand(rng, UPPER_ALNUM, 20) + "_" + rand(rng, B62, 59)


@_value("gitlab_pat", "GitLab personal access token", "gitlab_token", "gitlab_pat", "gl_token")
def gitlab_pat(rng: random.Random) -> str:
    return "glpat-" + rand(rng, B62 + "_-", 20)


@_value("gitlab_runner_token", "GitLab runner token", "runner_token", "gitlab_runner_token")
def gitlab_runner_token(rng: random.Random) -> str:
    return "glrt-" + rand(rng, B62 + "_-", 20)


@_value("slack_bot_token", "Slack bot token", "slack_bot_token", "slack_token", "bot_token")
def slack_bot_token(rng: random.Random) -> str:
    return f"xoxb-{rand(rng, DIGITS, rng.choice([11, 12, 13]))}-{rand(rng, DIGITS, 13)}-{rand(rng, B62, 24)}"


@_value("slack_user_token", "Slack user token", "slack_user_token", "slack_token")
def slack_user_token(rng: random.Random) -> str:
    return f"xoxp-{rand(rng, DIGITS, 12)}-{rand(rng, DIGITS, 12)}-{rand(rng, DIGITS, 13)}-{rand(rng, HEX, 32)}"


@_value("slack_app_token", "Slack app-level token", "slack_app_token", "socket_mode_token")
def slack_app_token(rng: random.Random) -> str:
    return f"xapp-1-A{rand(rng, UPPER_ALNUM, 10)}-{rand(rng, DIGITS, 13)}-{rand(rng, HEX, 64)}"


@_value("slack_webhook_url", "Slack webhook", "slack_webhook_url", "alerts_webhook", "webhook_url")
def slack_webhook_url(rng: random.Random) -> str:
    path = f"T{rand(rng, UPPER_ALNUM, 8)}/B{rand(rng, UPPER_ALNUM, 10)}/{rand(rng, B62, 24)}"
    return "https://hooks.slack.com/services/" + path


@_value("stripe_secret_key", "Stripe live secret key", "stripe_secret_key", "stripe_api_key", "stripe_key")
def stripe_secret_key(rng: random.Random) -> str:
    return "sk_live_" + rand(rng, B62, rng.choice([24, 99]))


@_value("stripe_restricted_key", "Stripe restricted key", "stripe_restricted_key", "stripe_rk")
def stripe_restricted_key(rng: random.Random) -> str:
    return "rk_live_" + rand(rng, B62, rng.choice([24, 99]))


@_value("stripe_webhook_secret", "Stripe webhook signing secret", "stripe_webhook_secret", "endpoint_secret")
def stripe_webhook_secret(rng: random.Random) -> str:
    return "whsec_" + rand(rng, B62, 32)


@PROVIDERS.item("twilio_auth_token")
def twilio_auth_token(rng: random.Random) -> Item:
    kind = "twilio_auth_token"
    item = Item(
        kind,
        "secret",
        [mark("secret", kind, rand(rng, HEX, 32))],
        ("twilio_auth_token", "auth_token"),
        "Twilio auth token",
    )
    # The account SID (AC + 32 hex) stays unlabelled: it is an identifier in every API URL.
    sid = plain("AC" + rand(rng, HEX, 32))
    item.extra.append(
        Item("twilio_account_sid", "neutral", [sid], ("twilio_account_sid", "account_sid"), "Twilio account SID")
    )
    return item


@_value("twilio_api_secret", "Twilio API secret", "twilio_api_secret", "twilio_api_key_secret")
def twilio_api_secret(rng: random.Random) -> str:
    return rand(rng, B62, 32)


@PROVIDERS.item("twilio_api_key")
def twilio_api_key(rng: random.Random) -> Item:
    kind = "twilio_api_key"
    item = Item(
        kind,
        "secret",
        [mark("secret", kind, "SK" + rand(rng, HEX, 32))],
        ("twilio_api_key", "twilio_api_key_sid"),
        "Twilio API key",
    )
    if rng.random() < 0.7:
        item.extra.append(twilio_api_secret(rng))
    return item


@_value("sendgrid_api_key", "SendGrid API key", "sendgrid_api_key", "smtp_password", "email_api_key")
def sendgrid_api_key(rng: random.Random) -> str:
    return f"SG.{rand(rng, B64URL, 22)}.{rand(rng, B64URL, 43)}"


@_value("mailgun_api_key", "Mailgun API key", "mailgun_api_key", "mailgun_key", "mg_api_key")
def mailgun_api_key(rng: random.Random) -> str:
    return (
        "key-" + rand(rng, HEX, 32)
        if rng.random() < 0.5
        else f"{rand(rng, HEX, 32)}-{rand(rng, HEX, 8)}-{rand(rng, HEX, 8)}"
    )


@_value("openai_api_key", "OpenAI API key", "openai_api_key", "openai_key", "llm_api_key")
def openai_api_key(rng: random.Random) -> str:
    if rng.random() < 0.8:
        head = rng.choice(["sk-proj-", "sk-proj-", "sk-svcacct-", "sk-admin-"])
        return head + rand(rng, B64URL, 74) + "T3BlbkFJ" + rand(rng, B64URL, 74)
    return "sk-" + rand(rng, B62, 20) + "T3BlbkFJ" + rand(rng, B62, 20)


@_value("anthropic_api_key", "Anthropic API key", "anthropic_api_key", "claude_api_key", "llm_api_key")
def anthropic_api_key(rng: random.Random) -> str:
    head = "sk-ant-api03-" if rng.random() < 0.85 else "sk-ant-admin01-"
    return head + rand(rng, B64URL, 93) + "AA"


@_value("huggingface_token", "Hugging Face token", "hf_token", "huggingface_token", "hugging_face_hub_token")
def huggingface_token(rng: random.Random) -> str:
    return rng.choice(["hf_", "hf_", "hf_", "api_org_"]) + rand(rng, B62[10:], 34)


@_value("groq_api_key", "Groq API key", "groq_api_key")
def groq_api_key(rng: random.Random) -> str:
    return "gsk_" + rand(rng, B62, 52)


@_value("shopify_token", "Shopify access token", "shopify_access_token", "shopify_admin_token", "shopify_api_secret")
def shopify_token(rng: random.Random) -> str:
    return rng.choice(["shpat_", "shpca_", "shppa_", "shpss_"]) + rand(rng, HEX, 32)


@_value("square_access_token", "Square access token", "square_access_token", "square_token")
def square_access_token(rng: random.Random) -> str:
    return "EAAA" + rand(rng, B64URL, 60) if rng.random() < 0.7 else "sq0atp-" + rand(rng, B64URL, 22)


@_value("square_oauth_secret", "Square application secret", "square_application_secret", "square_oauth_secret")
def square_oauth_secret(rng: random.Random) -> str:
    return "sq0csp-" + rand(rng, B64URL, 43)


@_value("braintree_access_token", "Braintree access token", "braintree_access_token", "paypal_access_token")
def braintree_access_token(rng: random.Random) -> str:
    return f"access_token$production${rand(rng, LOWER_ALNUM, 16)}${rand(rng, HEX, 32)}"


@_value("paypal_client_secret", "PayPal client secret", "paypal_client_secret", "paypal_secret")
def paypal_client_secret(rng: random.Random) -> str:
    return "E" + rand(rng, B64URL, 79)


@_value("discord_bot_token", "Discord bot token", "discord_bot_token", "discord_token", "bot_token")
def discord_bot_token(rng: random.Random) -> str:
    # base64 of the bot's user id (a snowflake), a timestamp part, then the HMAC part.
    snowflake = str(rng.randint(10**17 * 7, 10**18 * 2))
    return f"{b64(snowflake.encode(), pad=False)}.{rand(rng, B64URL, 6)}.{rand(rng, B64URL, rng.choice([27, 38]))}"


@_value("discord_webhook_url", "Discord webhook", "discord_webhook_url", "discord_webhook")
def discord_webhook_url(rng: random.Random) -> str:
    host = rng.choice(["discord.com", "discord.com", "discordapp.com"])
    return f"https://{host}/api/webhooks/{rand(rng, DIGITS, 19)}/{rand(rng, B64URL, 68)}"


@_value("telegram_bot_token", "Telegram bot token", "telegram_bot_token", "tg_bot_token", "telegram_token")
def telegram_bot_token(rng: random.Random) -> str:
    return f"{rng.randint(10**8, 8 * 10**9)}:AA{rand(rng, B64URL, 33)}"


@_value("npm_token", "npm token", "npm_token", "npm_auth_token", "node_auth_token")
def npm_token(rng: random.Random) -> str:
    return _crc_token(rng, "npm")


@_value("pypi_token", "PyPI token", "pypi_token", "twine_password", "pypi_api_token")
def pypi_token(rng: random.Random) -> str:
    # "pypi-" + a base64url version-2 macaroon: location, identifier, caveat, signature.
    location = rng.choice([b"pypi.org", b"pypi.org", b"test.pypi.org"])
    identifier = uuid4(rng).encode()
    scope = rng.choice(["user", {"projects": ["acme-tools"]}])
    caveat = json.dumps({"version": 1, "permissions": scope}, separators=(",", ":")).encode()
    raw = bytes([2, 1, len(location)]) + location + bytes([2, len(identifier)]) + identifier + b"\x00"
    raw += bytes([2, len(caveat)]) + caveat + b"\x00\x00" + bytes([6, 32]) + rng.randbytes(32)
    return "pypi-" + b64url(raw)


@_value("dockerhub_pat", "Docker Hub token", "docker_password", "dockerhub_token", "registry_password")
def dockerhub_pat(rng: random.Random) -> str:
    return "dckr_pat_" + rand(rng, B64URL, 27)


@_value("rubygems_api_key", "RubyGems API key", "gem_host_api_key", "rubygems_api_key")
def rubygems_api_key(rng: random.Random) -> str:
    return "rubygems_" + rand(rng, HEX, 48)


@_value("heroku_api_key", "Heroku API key", "heroku_api_key", "heroku_token")
def heroku_api_key(rng: random.Random) -> str:
    return "HRKU-AA" + rand(rng, B64URL, 58) if rng.random() < 0.5 else uuid4(rng)


@_value("digitalocean_token", "DigitalOcean token", "digitalocean_token", "do_token", "digitalocean_access_token")
def digitalocean_token(rng: random.Random) -> str:
    return rng.choice(["dop_v1_", "dop_v1_", "doo_v1_", "dor_v1_"]) + rand(rng, HEX, 64)


@_value("datadog_app_key", "Datadog application key", "dd_app_key", "datadog_app_key", "dd_application_key")
def datadog_app_key(rng: random.Random) -> str:
    return rand(rng, HEX, 40)


@PROVIDERS.item("datadog_api_key")
def datadog_api_key(rng: random.Random) -> Item:
    kind = "datadog_api_key"
    item = Item(
        kind, "secret", [mark("secret", kind, rand(rng, HEX, 32))], ("dd_api_key", "datadog_api_key"), "Datadog API key"
    )
    if rng.random() < 0.5:
        item.extra.append(datadog_app_key(rng))
    return item


@_value("newrelic_user_key", "New Relic user key", "new_relic_api_key", "newrelic_user_key", "nr_api_key")
def newrelic_user_key(rng: random.Random) -> str:
    return "NRAK-" + rand(rng, UPPER_ALNUM, 27)


@_value("newrelic_license_key", "New Relic license key", "new_relic_license_key", "newrelic_license_key")
def newrelic_license_key(rng: random.Random) -> str:
    return rand(rng, HEX, 36) + "NRAL"


@_value("sentry_auth_token", "Sentry auth token", "sentry_auth_token", "sentry_token")
def sentry_auth_token(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return "sntryu_" + rand(rng, HEX, 64)
    org = rng.choice(["acme", "globex", "initech"])
    claims = {
        "iat": rng.randint(1_700_000_000, 1_790_000_000),
        "url": "https://sentry.io",
        "region_url": "https://us.sentry.io",
        "org": org,
    }
    return "sntrys_" + b64(json.dumps(claims, separators=(",", ":")).encode(), pad=False) + "_" + rand(rng, B62, 43)


@_value("atlassian_api_token", "Atlassian API token", "jira_api_token", "atlassian_api_token", "confluence_token")
def atlassian_api_token(rng: random.Random) -> str:
    return "ATATT3xFfGF0" + rand(rng, B64URL, 171) + "=" + rand(rng, HEX.upper(), 8)


@_value("linear_api_key", "Linear API key", "linear_api_key", "linear_token")
def linear_api_key(rng: random.Random) -> str:
    return "lin_api_" + rand(rng, B62, 40)


@_value("notion_token", "Notion integration token", "notion_token", "notion_api_key", "notion_integration_secret")
def notion_token(rng: random.Random) -> str:
    return "ntn_" + rand(rng, DIGITS, 11) + rand(rng, B62, 35) if rng.random() < 0.6 else "secret_" + rand(rng, B62, 43)


@_value("vercel_token", "Vercel token", "vercel_token", "vercel_access_token")
def vercel_token(rng: random.Random) -> str:
    return rand(rng, B62, 24)


@_value("netlify_token", "Netlify token", "netlify_auth_token", "netlify_token")
def netlify_token(rng: random.Random) -> str:
    return rand(rng, B64URL, 43)


@_value("cloudflare_api_token", "Cloudflare API token", "cloudflare_api_token", "cf_api_token")
def cloudflare_api_token(rng: random.Random) -> str:
    return rand(rng, B64URL, 40)


@_value("cloudflare_global_api_key", "Cloudflare global API key", "cloudflare_api_key", "cf_api_key")
def cloudflare_global_api_key(rng: random.Random) -> str:
    return rand(rng, HEX, 37)


@_value("vault_token", "Vault token", "vault_token", "vault_root_token")
def vault_token(rng: random.Random) -> str:
    return "hvs.CAESI" + rand(rng, B64URL, 86) if rng.random() < 0.8 else "s." + rand(rng, B62, 24)


@_value("terraform_cloud_token", "Terraform Cloud token", "tfe_token", "tf_token_app_terraform_io", "terraform_token")
def terraform_cloud_token(rng: random.Random) -> str:
    return rand(rng, B62, 14) + ".atlasv1." + rand(rng, B64URL, 67)


@_value("doppler_token", "Doppler token", "doppler_token")
def doppler_token(rng: random.Random) -> str:
    return (
        "dp.pt." + rand(rng, B62, 43)
        if rng.random() < 0.5
        else f"dp.st.{rng.choice(['dev', 'stg', 'prd'])}.{rand(rng, B62, 43)}"
    )


@_value("age_secret_key", "age secret key", "sops_age_key", "age_secret_key", "age_key")
def age_secret_key(rng: random.Random) -> str:
    return bech32_encode("age-secret-key-", rng.randbytes(32)).upper()


@_value("google_oauth_client_secret", "Google OAuth client secret", "google_client_secret", "client_secret")
def google_oauth_client_secret(rng: random.Random) -> str:
    return "GOCSPX-" + rand(rng, B64URL, 28)


@_value("grafana_service_account_token", "Grafana service account token", "grafana_token", "grafana_api_key")
def grafana_service_account_token(rng: random.Random) -> str:
    return f"glsa_{rand(rng, B62, 32)}_{rand(rng, HEX, 8)}"


@_value("databricks_token", "Databricks token", "databricks_token")
def databricks_token(rng: random.Random) -> str:
    return "dapi" + rand(rng, HEX, 32)


@_value("postman_api_key", "Postman API key", "postman_api_key")
def postman_api_key(rng: random.Random) -> str:
    return f"PMAK-{rand(rng, HEX, 24)}-{rand(rng, HEX, 34)}"


@_value("pulumi_token", "Pulumi access token", "pulumi_access_token")
def pulumi_token(rng: random.Random) -> str:
    return "pul-" + rand(rng, HEX, 40)


@_value("mapbox_secret_token", "Mapbox secret token", "mapbox_secret_token", "mapbox_download_token")
def mapbox_secret_token(rng: random.Random) -> str:
    user = rng.choice(["acme-maps", "jdoe", "fleetops"])
    claims = json.dumps({"u": user, "a": "cl" + rand(rng, LOWER_ALNUM, 23)}, separators=(",", ":")).encode()
    return f"sk.{b64url(claims)}.{rand(rng, B64URL, 22)}"
