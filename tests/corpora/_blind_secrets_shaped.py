"""Secrets inside larger shapes: connection strings, URLs, headers, key files and generic settings.

Only the sensitive part is marked (the password of a URL, the key of a connection string, the
credential after `Bearer `), so a scanner that redacts more than that still counts as a catch.
"""

from __future__ import annotations

import json
import random

from _blind_common import (
    B62,
    B64URL,
    DIGITS,
    HEX,
    LOWER_ALNUM,
    Item,
    Piece,
    Registry,
    b64,
    b64url,
    mark,
    plain,
    rand,
    uuid4,
)
from _blind_pem import gcp_service_account, pem_private_key, pgp_private_block

__all__ = ["SHAPED"]

SHAPED = Registry("secret")
SEC = "secret"
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


def _url_password(rng: random.Random) -> str:
    style = rng.random()
    if style < 0.5:
        return rand(rng, B62, rng.randint(16, 32))
    if style < 0.8:
        return rand(rng, B62 + "-._~", rng.randint(12, 24))
    return (
        rng.choice(["Winter", "Harbor", "Falcon", "Maple", "Orbit"])
        + rand(rng, DIGITS, 4)
        + rng.choice("-_.")
        + rand(rng, B62, 6)
    )


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


def _shaped(
    kind: str,
    value: list[Piece],
    keys: tuple[str, ...],
    label: str,
    *,
    block: bool = False,
    raw: bool = False,
    header: bool = False,
) -> Item:
    return Item(kind, SEC, value, keys, label, block=block, raw=raw, header=header)


@SHAPED.item("azure_storage_connection_string")
def azure_storage_connection_string(rng: random.Random) -> Item:
    kind = "azure_storage_connection_string"
    account = rng.choice(["acme", "billing", "logs", "media", "backup", "stdata"]) + rand(rng, LOWER_ALNUM, 6)
    value = [
        plain(f"DefaultEndpointsProtocol=https;AccountName={account};AccountKey="),
        mark(SEC, kind, b64(rng.randbytes(64))),
        plain(";EndpointSuffix=core.windows.net"),
    ]
    return _shaped(
        kind,
        value,
        ("azure_storage_connection_string", "storage_connection_string", "azure_webjobs_storage"),
        "Azure storage connection string",
    )


@SHAPED.item("azure_sas_signature")
def azure_sas_signature(rng: random.Random) -> Item:
    kind = "azure_sas_signature"
    sig = b64(rng.randbytes(32)).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    expiry = f"2027-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}T00:00:00Z"
    query = f"sv=2022-11-02&ss=b&srt=co&sp=rl&se={expiry}&spr=https&sig="
    value = [
        plain(f"https://st{rand(rng, LOWER_ALNUM, 10)}.blob.core.windows.net/exports?{query}"),
        mark(SEC, kind, sig),
    ]
    return _shaped(kind, value, ("blob_sas_url", "export_url", "sas_url"), "Azure blob SAS URL")


@SHAPED.item("sentry_dsn_secret")
def sentry_dsn_secret(rng: random.Random) -> Item:
    kind = "sentry_dsn_secret"
    host = f"@o{rand(rng, DIGITS, 6)}.ingest.sentry.io/{rand(rng, DIGITS, 7)}"
    value = [plain(f"https://{rand(rng, HEX, 32)}:"), mark(SEC, kind, rand(rng, HEX, 32)), plain(host)]
    return _shaped(kind, value, ("sentry_dsn", "raven_dsn"), "Sentry DSN (legacy, with secret)")


@SHAPED.item("jwt")
def jwt(rng: random.Random) -> Item:
    alg = rng.choice(["HS256", "HS256", "RS256", "ES256"])
    header: dict[str, str] = {"alg": alg, "typ": "JWT"}
    if rng.random() < 0.3:
        header["kid"] = rand(rng, B64URL, 16)
    now = rng.randint(1_760_000_000, 1_800_000_000)
    claims: dict[str, object] = {"sub": uuid4(rng), "iat": now, "exp": now + rng.choice([900, 3600, 86400])}
    claims["scope" if rng.random() < 0.7 else "role"] = rng.choice(["read", "read write", "admin", "service_role"])
    signature = rng.randbytes({"HS256": 32, "RS256": 256, "ES256": 64}[alg])
    token = ".".join(
        [
            b64url(json.dumps(header, separators=(",", ":")).encode()),
            b64url(json.dumps(claims, separators=(",", ":")).encode()),
            b64url(signature),
        ]
    )
    if rng.random() < 0.35:
        return _shaped("jwt", [plain("Bearer "), mark(SEC, "jwt", token)], ("authorization",), "JWT", header=True)
    return _shaped(
        "jwt",
        [mark(SEC, "jwt", token)],
        ("access_token", "jwt", "session_token", "service_role_key", "id_token"),
        "JWT",
    )


def _database(kind: str, scheme: str, port: int, keys: tuple[str, ...], label: str) -> None:
    @SHAPED.item(kind)
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
        tail = f":{port}/" + rng.choice(["app", "billing", "events", "prod"])
        if scheme == "mongodb+srv":
            host, tail = f"cluster0.{rand(rng, LOWER_ALNUM, 5)}.mongodb.net", "/app?retryWrites=true&w=majority"
        if scheme == "redis":
            user, tail = rng.choice(["", "default"]), f":{port}/{rng.randint(0, 3)}"
        value = [plain(f"{scheme}://{user}:"), mark(SEC, kind, _url_password(rng)), plain(f"@{host}{tail}")]
        return _shaped(kind, value, keys, label)


_database("postgres_url_password", "postgres", 5432, ("database_url", "postgres_dsn", "db_url"), "Postgres URL")
_database("mysql_url_password", "mysql", 3306, ("database_url", "mysql_url", "db_dsn"), "MySQL URL")
_database("mongodb_url_password", "mongodb+srv", 27017, ("mongodb_uri", "mongo_url"), "MongoDB URI")
_database("redis_url_password", "redis", 6379, ("redis_url", "cache_url", "celery_broker_url"), "Redis URL")
_database("amqp_url_password", "amqps", 5671, ("amqp_url", "broker_url", "rabbitmq_url"), "AMQP URL")


@SHAPED.item("generic_password")
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
    return _shaped("generic_password", [mark(SEC, "generic_password", _password(rng))], (rng.choice(keys),), "password")


@SHAPED.item("generic_secret")
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
    return _shaped("generic_secret", [mark(SEC, "generic_secret", value)], (rng.choice(keys),), "secret")


@SHAPED.item("generic_api_key")
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
    return _shaped("generic_api_key", [mark(SEC, "generic_api_key", value)], (rng.choice(keys),), "API key")


@SHAPED.item("basic_auth_url_password")
def basic_auth_url_password(rng: random.Random) -> Item:
    kind = "basic_auth_url_password"
    hosts = [
        "registry.internal.acme.io",
        "jenkins.acme.dev",
        "es-prod.acme.net:9200",
        "nexus.corp.local/repository/pypi/simple",
        "git.acme.io/platform/infra.git",
        "ftp.partner-files.com",
    ]
    host = rng.choice(hosts)
    scheme = "ftp" if host.startswith("ftp") else "https"
    user = rng.choice(["deploy", "ci-bot", "elastic", "admin", "build", "x-access-token"])
    value = [plain(f"{scheme}://{user}:"), mark(SEC, kind, _url_password(rng)), plain(f"@{host}")]
    return _shaped(
        kind, value, ("index_url", "remote_url", "elasticsearch_url", "registry_url"), "URL with credentials"
    )


@SHAPED.item("url_query_token")
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
    token = rand(rng, rng.choice([B62, HEX]), rng.choice([32, 40]))
    return _shaped(
        kind,
        [plain(f"https://{host}?format=json&{param}="), mark(SEC, kind, token)],
        ("export_url", "feed_url", "endpoint"),
        "URL with token",
    )


@SHAPED.item("http_basic_auth_header")
def http_basic_auth_header(rng: random.Random) -> Item:
    kind = "http_basic_auth_header"
    cred = f"{rng.choice(['api', 'deploy', 'svc-reports', 'admin'])}:{_password(rng)}"
    return _shaped(
        kind,
        [plain("Basic "), mark(SEC, kind, b64(cred.encode()))],
        ("authorization",),
        "basic auth header",
        header=True,
    )


@SHAPED.item("bearer_token")
def bearer_token(rng: random.Random) -> Item:
    token = rng.choice([rand(rng, B62, 40), rand(rng, B64URL, 43), rand(rng, HEX, 48)])
    return _shaped(
        "bearer_token",
        [plain("Bearer "), mark(SEC, "bearer_token", token)],
        ("authorization",),
        "bearer token",
        header=True,
    )


@SHAPED.item("okta_api_token")
def okta_api_token(rng: random.Random) -> Item:
    token = mark(SEC, "okta_api_token", "00" + rand(rng, B64URL, 40))
    if rng.random() < 0.5:
        return _shaped("okta_api_token", [plain("SSWS "), token], ("authorization",), "Okta API token", header=True)
    return _shaped("okta_api_token", [token], ("okta_api_token", "okta_token"), "Okta API token")


@SHAPED.item("cli_password_argument")
def cli_password_argument(rng: random.Random) -> Item:
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
    value = [plain(head), mark(SEC, "cli_password_argument", _url_password(rng)), plain(tail)]
    item = _shaped("cli_password_argument", value, (), "command", raw=True)
    item.contexts = ("shell", "markdown")
    return item


def _private_key(kind: str) -> None:
    @SHAPED.item(kind)
    def make(rng: random.Random) -> Item:
        keys = ("private_key", "ssh_private_key", "tls_key", "signing_key_pem")
        return _shaped(kind, [mark(SEC, kind, pem_private_key(rng, kind))], keys, "private key", block=True)


for _kind in ("rsa_private_key", "ec_private_key", "openssh_private_key", "pkcs8_private_key"):
    _private_key(_kind)


@SHAPED.item("pgp_private_key")
def pgp_private_key(rng: random.Random) -> Item:
    value = [mark(SEC, "pgp_private_key", pgp_private_block(rng))]
    return _shaped("pgp_private_key", value, ("gpg_private_key", "signing_key"), "PGP private key", block=True)


@SHAPED.item("gcp_service_account_key")
def gcp_service_account_key(rng: random.Random) -> Item:
    kind = "gcp_service_account_key"
    item = _shaped(
        kind,
        gcp_service_account(rng, SEC, kind),
        ("credentials_json", "google_credentials"),
        "GCP service account key",
        block=True,
        raw=True,
    )
    item.contexts = ("markdown", "json", "yaml")
    return item


@SHAPED.item("k8s_secret_base64")
def k8s_secret_base64(rng: random.Random) -> Item:
    # Kubernetes Secret `data:` values are base64 of the secret itself.
    kind = "k8s_secret_base64"
    name = rng.choice(["billing", "api", "worker", "search"])
    head = f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {name}-credentials\ntype: Opaque\ndata:\n  username: {b64(b'app')}\n  password: "
    item = _shaped(
        kind,
        [plain(head), mark(SEC, kind, b64(_password(rng).encode()))],
        ("manifest",),
        "Kubernetes secret",
        block=True,
        raw=True,
    )
    item.contexts = ("markdown",)
    return item


@SHAPED.item("docker_config_auth")
def docker_config_auth(rng: random.Random) -> Item:
    # ~/.docker/config.json keeps base64("user:password") per registry.
    kind = "docker_config_auth"
    registry = rng.choice(
        ["registry.acme.io", "ghcr.io", "https://index.docker.io/v1/", "123456789012.dkr.ecr.eu-west-1.amazonaws.com"]
    )
    auth = b64(f"{rng.choice(['ci-bot', 'deploy', 'AWS'])}:{_url_password(rng)}".encode())
    value = [plain(f'{{\n  "{registry}": {{\n    "auth": "'), mark(SEC, kind, auth), plain('"\n  }\n}')]
    item = _shaped(kind, value, ("auths",), "Docker registry auth", block=True, raw=True)
    item.contexts = ("markdown", "json")
    return item


@SHAPED.item("netrc_password")
def netrc_password(rng: random.Random) -> Item:
    kind = "netrc_password"
    machine = rng.choice(["api.heroku.com", "git.acme.io", "nexus.corp.local", "urs.earthdata.nasa.gov"])
    head = f"machine {machine}\n  login {rng.choice(['deploy@acme.io', 'ci-bot', 'jane'])}\n  password "
    item = _shaped(kind, [plain(head), mark(SEC, kind, _url_password(rng))], (), ".netrc entry", block=True, raw=True)
    item.contexts = ("markdown",)
    return item
