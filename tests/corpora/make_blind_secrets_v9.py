"""Generate the secrets_blind_v9 corpus: labelled memory files for secret detection.

Standard library only; every random choice comes from one ``random.Random(20270509)``.
Run ``python3 tests/corpora/make_blind_secrets_v9.py [--out DIR]``.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import itertools
import json
import random
import string
import struct
import zlib
from pathlib import Path

SEED = 20270509
R = random.Random(SEED)
N_DOCS = 1200
MIN_SECRET_EXAMPLES = 15
MIN_SECRET_CONTEXTS = 8
MIN_LOOK_EXAMPLES = 30
SECRET_QUOTA = 16
LOOK_QUOTA = 33

OPEN0 = 0xF0000
CLOSE = chr(0xFFFFD)

A62 = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
UHEX = "0123456789ABCDEF"
B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
B64 = A62 + "+/"
B64U = A62 + "-_"
LOWAN = string.ascii_lowercase + string.digits
UPAN = string.ascii_uppercase + string.digits
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
DIG = string.digits


# ---------------------------------------------------------------- primitives


def s(alpha: str, n: int) -> str:
    return "".join(R.choice(alpha) for _ in range(n))


def an(n: int) -> str:
    return s(A62, n)


def hx(n: int) -> str:
    return s(HEX, n)


def rb(n: int) -> bytes:
    return bytes(R.getrandbits(8) for _ in range(n))


def uuid4() -> str:
    h = hx(32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{R.choice('89ab')}{h[17:20]}-{h[20:32]}"


def b64(b: bytes) -> str:
    return base64.b64encode(b).decode()


def b64u(b: bytes) -> str:
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def base62(n: int, width: int = 6) -> str:
    out = ""
    while n:
        n, r = divmod(n, 62)
        out = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"[r] + out
    return out.rjust(width, "0")


def crc_token(prefix: str) -> str:
    body = an(30)
    return prefix + body + base62(zlib.crc32(body.encode()))


def pick(seq):
    return seq[R.randrange(len(seq))]


def chance(p: float) -> bool:
    return R.random() < p


# DER / PEM


def der(tag: int, body: bytes) -> bytes:
    n = len(body)
    if n < 128:
        ln = bytes([n])
    else:
        raw = n.to_bytes((n.bit_length() + 7) // 8, "big")
        ln = bytes([0x80 | len(raw)]) + raw
    return bytes([tag]) + ln + body


def dint(b: bytes) -> bytes:
    if b[0] & 0x80:
        b = b"\x00" + b
    return der(2, b)


def seq(*parts: bytes) -> bytes:
    return der(0x30, b"".join(parts))


def big(n: int) -> bytes:
    b = bytearray(rb(n))
    b[0] |= 0x80
    b[-1] |= 1
    return bytes(b)


OID_RSA = bytes.fromhex("06092a864886f70d010101")
OID_EC = bytes.fromhex("06072a8648ce3d0201")
OID_P256 = bytes.fromhex("06082a8648ce3d030107")
OID_SHA256RSA = bytes.fromhex("06092a864886f70d01010b")


def pem(label: str, body: bytes, width: int = 64) -> str:
    t = b64(body)
    lines = [t[i : i + width] for i in range(0, len(t), width)]
    return f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----"


def rsa_key() -> str:
    pkcs1 = seq(
        dint(b"\x00"), dint(big(256)), dint(b"\x01\x00\x01"), dint(big(256)),
        dint(big(128)), dint(big(128)), dint(big(128)), dint(big(128)), dint(big(128)),
    )  # fmt: skip
    if chance(0.5):
        return pem("RSA PRIVATE KEY", pkcs1)
    return pem("PRIVATE KEY", seq(dint(b"\x00"), seq(OID_RSA, b"\x05\x00"), der(4, pkcs1)))


def ec_key() -> str:
    d = rb(32)
    pub = b"\x00\x04" + rb(64)
    sec1 = seq(dint(b"\x01"), der(4, d), der(0xA0, OID_P256), der(0xA1, der(3, pub)))
    if chance(0.5):
        return pem("EC PRIVATE KEY", sec1)
    inner = seq(dint(b"\x01"), der(4, d), der(0xA1, der(3, pub)))
    return pem("PRIVATE KEY", seq(dint(b"\x00"), seq(OID_EC, OID_P256), der(4, inner)))


def ec_spki() -> bytes:
    return seq(seq(OID_EC, OID_P256), der(3, b"\x00\x04" + rb(64)))


def public_key_pem() -> str:
    if chance(0.5):
        return pem("PUBLIC KEY", ec_spki())
    rsa_pub = seq(dint(big(256)), dint(b"\x01\x00\x01"))
    return pem("PUBLIC KEY", seq(seq(OID_RSA, b"\x05\x00"), der(3, b"\x00" + rsa_pub)))


def name_der(cn: str) -> bytes:
    return seq(der(0x31, seq(bytes.fromhex("0603550403"), der(0x0C, cn.encode()))))


def certificate() -> str:
    y = R.randrange(22, 26)
    valid = seq(der(0x17, f"{y}0{R.randrange(1, 9)}1{R.randrange(0, 9)}000000Z".encode()),
                der(0x17, f"{y + 1}0{R.randrange(1, 9)}1{R.randrange(0, 9)}000000Z".encode()))  # fmt: skip
    cn = pick(["api.example.org", "internal-ca", "grafana.corp.example", "mtls-client", "*.staging.example.net"])
    tbs = seq(der(0xA0, dint(b"\x02")), dint(big(16)), seq(OID_SHA256RSA, b"\x05\x00"),
              name_der("Example Issuing CA"), valid, name_der(cn), ec_spki())  # fmt: skip
    return pem("CERTIFICATE", seq(tbs, seq(OID_SHA256RSA, b"\x05\x00"), der(3, b"\x00" + rb(256))))


def sshstr(b: bytes | str) -> bytes:
    if isinstance(b, str):
        b = b.encode()
    return struct.pack(">I", len(b)) + b


def openssh_key() -> str:
    pk, sk = rb(32), rb(32)
    comment = pick(["deploy@ci", "me@laptop", "backup@nas", "git@builder", "ops@bastion"])
    pub = sshstr("ssh-ed25519") + sshstr(pk)
    chk = rb(4)
    priv = chk + chk + sshstr("ssh-ed25519") + sshstr(pk) + sshstr(sk + pk) + sshstr(comment)
    pad = 1
    while len(priv) % 8:
        priv += bytes([pad])
        pad += 1
    blob = b"openssh-key-v1\x00" + sshstr("none") + sshstr("none") + sshstr(b"") + struct.pack(">I", 1)
    blob += sshstr(pub) + sshstr(priv)
    return pem("OPENSSH PRIVATE KEY", blob, 70)


def ssh_public_key() -> str:
    blob = sshstr("ssh-ed25519") + sshstr(rb(32))
    return "ssh-ed25519 " + b64(blob) + " " + pick(["dev@workstation", "ci@runner", "ana@mbp", "root@jump"])


def crc24(data: bytes) -> int:
    crc = 0xB704CE
    for byte in data:
        crc ^= byte << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


def pgp_key() -> str:
    oid = bytes.fromhex("2b06010401da470f01")
    body = b"\x04" + rb(4) + bytes([22, len(oid)]) + oid + b"\x01\x07\x40" + rb(32) + b"\x00" + b"\x00\xff" + rb(32)
    body += struct.pack(">H", sum(body[-34:]) & 0xFFFF)
    uid = pick(["Build Bot <build@example.org>", "Mara Quist <mara@example.net>", "Release Signing <rel@example.com>"])
    packet = bytes([0xC5, len(body)]) + body + bytes([0xCD, len(uid)]) + uid.encode()
    t = b64(packet)
    lines = [t[i : i + 64] for i in range(0, len(t), 64)]
    crc = b64(crc24(packet).to_bytes(3, "big"))
    return (
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n"
        + "\n".join(lines)
        + f"\n={crc}\n-----END PGP PRIVATE KEY BLOCK-----"
    )


# bech32 / base58


def bech32_polymod(values):
    gen = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
    chk = 1
    for v in values:
        top = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ v
        for i in range(5):
            chk ^= gen[i] if ((top >> i) & 1) else 0
    return chk


def convertbits(data: bytes, frm: int = 8, to: int = 5) -> list[int]:
    acc = bits = 0
    out = []
    for v in data:
        acc = (acc << frm) | v
        bits += frm
        while bits >= to:
            bits -= to
            out.append((acc >> bits) & ((1 << to) - 1))
    if bits:
        out.append((acc << (to - bits)) & ((1 << to) - 1))
    return out


def bech32(hrp: str, data: list[int]) -> str:
    cs = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
    hv = [ord(x) >> 5 for x in hrp] + [0] + [ord(x) & 31 for x in hrp]
    pm = bech32_polymod([*hv, *data, 0, 0, 0, 0, 0, 0]) ^ 1
    check = [(pm >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(cs[d] for d in data + check)


def b58check(payload: bytes) -> str:
    full = payload + hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    n = int.from_bytes(full, "big")
    out = ""
    while n:
        n, r = divmod(n, 58)
        out = B58[r] + out
    return "1" * (len(full) - len(full.lstrip(b"\x00"))) + out


# JWT / macaroon


def jwt(payload: dict | None = None, key: bytes | None = None) -> str:
    now = R.randrange(1_760_000_000, 1_790_000_000)
    if payload is None:
        payload = {"sub": pick(["user_", "svc_", "acct_"]) + an(10), "iat": now, "exp": now + pick([900, 3600, 86400])}
        if chance(0.5):
            payload["scope"] = pick(["read:all", "admin", "billing:write", "repo deploy"])
    head = b64u(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    body = b64u(json.dumps(payload, separators=(",", ":")).encode())
    sig = hmac.new(key or rb(32), f"{head}.{body}".encode(), hashlib.sha256).digest()
    return f"{head}.{body}.{b64u(sig)}"


def varint(n: int) -> bytes:
    out = b""
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


def pypi_token() -> str:
    def field(t: int, d: bytes) -> bytes:
        return bytes([t]) + varint(len(d)) + d

    ident = json.dumps({"nonce": hx(32), "version": 1}, separators=(",", ":")).encode()
    caveats = [json.dumps([1, R.randrange(10**8, 10**9), R.randrange(10**8, 10**9)]).encode()]
    if chance(0.5):
        caveats.append(
            json.dumps({"permissions": {"projects": [pick(["acme-sdk", "tidyq", "fastcsvx"])]}, "version": 1}).encode()
        )
    sig = hmac.new(rb(32), ident, hashlib.sha256).digest()
    blob = b"\x02" + field(1, b"pypi.org") + field(2, ident) + b"\x00"
    for c in caveats:
        sig = hmac.new(sig, c, hashlib.sha256).digest()
        blob += field(2, c) + b"\x00"
    blob += b"\x00" + field(6, sig)
    return "pypi-" + b64u(blob)


def iban() -> str:
    country, blen = pick([("DE", 18), ("FR", 23), ("ES", 20), ("NL", 14), ("GB", 18), ("IT", 23)])
    if country == "NL":
        bban = s(string.ascii_uppercase, 4) + s(DIG, 10)
    elif country == "GB":
        bban = s(string.ascii_uppercase, 4) + s(DIG, 14)
    elif country == "IT":
        bban = R.choice(string.ascii_uppercase) + s(DIG, 22)
    else:
        bban = s(DIG, blen)
    num = "".join(str(int(c, 36)) for c in bban + country + "00")
    return f"{country}{98 - int(num) % 97:02d}{bban}"


def isbn13() -> str:
    d = "978" + s(DIG, 9)
    total = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(d))
    return d + str((10 - total % 10) % 10)


def ulid() -> str:
    cro = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
    return "01" + s("HJK", 1) + s(cro, 23)


def password(human: bool | None = None, url_safe: bool = False) -> str:
    words = ["Tangerine", "harbor", "Velvet", "cobalt", "Ferris", "quartz", "Mango", "lantern", "Orbit", "willow",
             "Saffron", "pixel", "Granite", "thistle", "Nimbus", "falcon", "Juniper", "ember", "Basil", "tundra"]  # fmt: skip
    if human is None:
        human = chance(0.45)
    if human:
        sep = pick(["", "-", ".", "_"]) if url_safe else pick(["", "-", "!", "#", "_", "@", "."])
        w = pick(words) + sep + pick(words).capitalize() + str(R.randrange(10, 9999))
        return w + ("" if url_safe else pick(["", "!", "?", "$", "%", "*"]))
    alpha = A62 + ("-_.~" if url_safe else "!#%^*-_=+.?@~$&")
    n = R.randrange(14, 28)
    out = s(alpha, n)
    if not url_safe and chance(0.12):
        out = out[:5] + pick(['"', "\\", "'"]) + out[5:]
    return out


# ---------------------------------------------------------------- secret kinds


class Spec:
    def __init__(self, kind, common, fmt, gen, names, label, hdr=None, cli=None, secret=True):  # noqa: PLR0917 -- kind tables read best as positional rows
        self.kind, self.common, self.fmt, self.gen = kind, common, fmt, gen
        self.names = names.split("|")
        self.label, self.hdr, self.cli, self.secret = label, hdr, cli, secret


SECRETS: dict[str, Spec] = {}
EXTRA_KINDS = {"aws_access_key_id": "aws_secret_access_key", "alibaba_access_key_id": "alibaba_access_key_secret",
               "scaleway_access_key": "scaleway_secret_key", "confluent_api_key": "confluent_api_secret"}  # fmt: skip
EXTRA_FMT = {
    "aws_access_key_id": "`AKIA` / `ASIA` + 16 base32 (labelled: travels with its secret)",
    "alibaba_access_key_id": "`LTAI` + 20 (labelled: travels with its secret)",
    "scaleway_access_key": "`SCW` + 17 (labelled: travels with its secret)",
    "confluent_api_key": "16 upper-case alphanumerics (labelled: travels with its secret)",
}
EXTRA_COMMON = {"aws_access_key_id": True, "alibaba_access_key_id": False, "scaleway_access_key": False,
                "confluent_api_key": False}  # fmt: skip


def sp(kind, common, fmt, gen, names, label, hdr=None, cli=None):  # noqa: PLR0917 -- kind tables read best as positional rows
    SECRETS[kind] = Spec(kind, common, fmt, gen, names, label, hdr, cli)


def host():
    return pick(["db.internal", "10.0.4.17", "pg-main.prod.svc", "db-eu-1.example.net", "localhost", "warehouse.lan",
                 "rds-billing.cx81.eu-west-1.rds.amazonaws.com", "mysql-ro.staging.example.com"])  # fmt: skip


def user():
    return pick(["app", "svc_billing", "deploy", "admin", "reporting", "etl", "api", "grafana", "backup", "ci"])


def dbname():
    return pick(["app", "billing", "analytics", "orders", "crm", "inventory", "metrics", "auth"])


def g_pg():
    pw = password(url_safe=True)
    h, u, d = host(), user(), dbname()
    return pick([
        (f"postgres://{u}:", pw, f"@{h}:5432/{d}", "DATABASE_URL"),
        (f"postgresql://{u}:", pw, f"@{h}/{d}?sslmode=require", "DATABASE_URL"),
        (f"host={h} port=5432 dbname={d} user={u} password=", pw, " sslmode=verify-full", "PG_DSN"),
        (f"jdbc:postgresql://{h}:5432/{d}?user={u}&password=", pw, "", "JDBC_URL"),
        ("", pw, "", "PGPASSWORD"),
        ("", pw, "", "POSTGRES_PASSWORD"),
    ])  # fmt: skip


def g_mysql():
    pw = password(url_safe=True)
    h, u, d = host(), user(), dbname()
    return pick([
        (f"mysql://{u}:", pw, f"@{h}:3306/{d}", "DATABASE_URL"),
        (f"{u}:", pw, f"@tcp({h}:3306)/{d}?parseTime=true", "MYSQL_DSN"),
        (f"jdbc:mysql://{h}:3306/{d}?user={u}&password=", pw, "&useSSL=true", "JDBC_URL"),
        ("", pw, "", "MYSQL_ROOT_PASSWORD"),
        ("", pw, "", "MYSQL_PASSWORD"),
    ])  # fmt: skip


def g_mongo():
    pw = password(url_safe=True)
    u = user()
    return pick([
        (f"mongodb+srv://{u}:", pw, f"@cluster0.{s(LOWAN, 5)}.mongodb.net/{dbname()}?retryWrites=true&w=majority", "MONGODB_URI"),
        (f"mongodb://{u}:", pw, f"@mongo-0.mongo:27017,mongo-1.mongo:27017/{dbname()}?replicaSet=rs0&authSource=admin", "MONGO_URL"),
        ("", pw, "", "MONGO_INITDB_ROOT_PASSWORD"),
    ])  # fmt: skip


def g_redis():
    pw = password(url_safe=True)
    return pick([
        ("redis://default:", pw, f"@{pick(['redis.internal', 'cache-1.lan', '10.0.3.9'])}:6379/0", "REDIS_URL"),
        (":", pw, f"@redis-{s(LOWAN, 5)}.c{R.randrange(100, 999)}.eu-central-1-1.ec2.redns.redis-cloud.com:16379", "REDIS_URL"),
        ("rediss://:", pw, "@cache.prod.example.net:6380", "CACHE_URL"),
        ("", pw, "", "REDIS_PASSWORD"),
    ])  # fmt: skip


def g_mssql():
    pw = password(url_safe=True)
    return pick([
        (f"Server=tcp:{s(LOWAN, 8)}.database.windows.net,1433;Initial Catalog={dbname()};User ID={user()};Password=", pw,
         ";Encrypt=True;TrustServerCertificate=False;", "ConnectionStrings__Default"),
        (f"Data Source=sql01;Database={dbname()};User Id=sa;Password=", pw, ";", "SQLSERVER_CONNECTION"),
        ("", pw, "", "MSSQL_SA_PASSWORD"),
    ])  # fmt: skip


def g_amqp():
    pw = password(url_safe=True)
    return pick([
        (f"amqp://{user()}:", pw, "@rabbitmq.internal:5672/%2F", "AMQP_URL"),
        (f"amqps://{user()}:", pw, f"@{s(LOWAN, 8)}.rmq.cloudamqp.com/{s(LOWAN, 8)}", "CLOUDAMQP_URL"),
        ("", pw, "", "RABBITMQ_DEFAULT_PASS"),
    ])  # fmt: skip


def g_url_pw():
    pw = password(url_safe=True)
    return pick([
        (f"https://{user()}:", pw, "@git.internal.example.com/platform/infra.git", "GIT_REMOTE"),
        (f"http://{user()}:", pw, "@proxy.corp.example:3128", "HTTPS_PROXY"),
        (f"ftp://{user()}:", pw, "@files.example.org/incoming/", "FTP_URL"),
        (f"https://{user()}:", pw, "@nexus.example.net/repository/pypi-internal/simple", "PIP_INDEX_URL"),
        (f"sftp://{user()}:", pw, "@backup.lan:22/srv/dumps", "BACKUP_TARGET"),
    ])  # fmt: skip


def g_smtp():
    pw = password(url_safe=True)
    return pick([
        (f"smtp://{pick(['postmaster', 'alerts', 'noreply'])}%40example.com:", pw, "@smtp.mailgun.org:587", "SMTP_URL"),
        ("", pw, "", "SMTP_PASSWORD"),
        ("", pw, "", "EMAIL_HOST_PASSWORD"),
        ("", pw, "", "MAIL_PASSWORD"),
    ])  # fmt: skip


def g_snowflake():
    pw = password(url_safe=True)
    return pick([
        (f"snowflake://{user()}:", pw, f"@{s(LOWAN, 7)}-{s(LOWAN, 7)}/{dbname()}/public?warehouse=COMPUTE_WH", "SNOWFLAKE_URL"),
        ("", pw, "", "SNOWSQL_PWD"),
        ("", pw, "", "SNOWFLAKE_PASSWORD"),
    ])  # fmt: skip


def g_ldap():
    pw = password()
    return pick(
        [("", pw, "", "LDAP_BIND_PASSWORD"), ("", pw, "", "AUTH_LDAP_BIND_PASSWORD"), ("", pw, "", "bindCredential")]
    )


def g_sa_json():
    key = rsa_key()
    if "RSA PRIVATE" in key:
        key = rsa_key()
    while "RSA PRIVATE" in key:
        key = rsa_key()
    proj = pick(["acme-prod", "data-lake-381", "billing-svc", "ml-sandbox-22"])
    email = f"{pick(['deployer', 'etl-runner', 'gha-ci', 'backup'])}@{proj}.iam.gserviceaccount.com"
    pre = (
        "{\n"
        '  "type": "service_account",\n'
        f'  "project_id": "{proj}",\n'
        f'  "private_key_id": "{hx(40)}",\n'
        '  "private_key": "'
    )
    post = (
        '\\n",\n'
        f'  "client_email": "{email}",\n'
        f'  "client_id": "{s(DIG, 21)}",\n'
        '  "token_uri": "https://oauth2.googleapis.com/token"\n'
        "}"
    )
    return (pre, key.replace("\n", "\\n"), post, "GOOGLE_CREDENTIALS_JSON")


def g_azure_storage():
    k = b64(rb(64))
    acct = s(string.ascii_lowercase, 10)
    return pick([
        (f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey=", k, ";EndpointSuffix=core.windows.net", "AZURE_STORAGE_CONNECTION_STRING"),
        ("", k, "", "AZURE_STORAGE_KEY"),
    ])  # fmt: skip


def g_sas():
    sig = b64(rb(32)).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    acct = s(string.ascii_lowercase, 9)
    pre = (f"https://{acct}.blob.core.windows.net/{pick(['exports', 'backups', 'uploads'])}?sv=2022-11-02&ss=b&srt=co"
           f"&sp=rl&se=2026-{R.randrange(1, 12):02d}-28T00:00:00Z&st=2025-01-01T00:00:00Z&spr=https&sig=")  # fmt: skip
    return (pre, sig, "", "SAS_URL")


def g_basic():
    raw = f"{user()}:{password(url_safe=True)}".encode()
    return ("Basic ", b64(raw), "", "AUTH_HEADER")


def g_cookie():
    return pick([
        ("sessionid=", s(LOWAN, 32), "", "SESSION_COOKIE"),
        ("_app_session=", b64(rb(48)).rstrip("=") + "--" + hx(40), "", "COOKIE"),
        ("connect.sid=s%3A", an(32) + "." + b64(rb(32)).rstrip("="), "", "SESSION_COOKIE"),
        ("laravel_session=", b64(rb(90)), "", "COOKIE"),
    ])  # fmt: skip


def g_docker_auth():
    return b64(f"{pick(['ci-bot', 'deploy', 'mara'])}:{password(url_safe=True)}".encode())


def g_cloudinary():
    return (
        f"cloudinary://{s(DIG, 15)}:",
        s(B64U, 27),
        f"@{pick(['dx3kq', 'acme-media', 'shopimg'])}",
        "CLOUDINARY_URL",
    )


def g_pair(k1, v1, n1, l1, k2, v2, n2, l2):  # noqa: PLR0917 -- kind tables read best as positional rows
    return [(k1, "", v1, "", n1, l1), (k2, "", v2, "", n2, l2)]


def g_app_secret():
    return pick([
        ("", "django-insecure-" + s(LOWAN + "!@#%^*(-_=+)", 50), "", "DJANGO_SECRET_KEY"),
        ("", s(LOWAN + "!@#%^*(-_=+)", 50), "", "SECRET_KEY"),
        ("", hx(128), "", "SECRET_KEY_BASE"),
        ("", hx(64), "", "FLASK_SECRET_KEY"),
        ("", b64(rb(32)), "", "APP_KEY"),
    ])  # fmt: skip


def g_enc_key():
    return pick([
        ("", hx(64), "", "ENCRYPTION_KEY"),
        ("", b64u(rb(32)) + "=", "", "FERNET_KEY"),
        ("base64:", b64(rb(32)), "", "APP_KEY"),
        ("", b64(rb(32)), "", "DATA_KEY"),
    ])  # fmt: skip


def g_ops():
    blob = {"signInAddress": "my.1password.com", "userAuth": {"method": "SRPg-4096", "alg": "PBES2g-HS256",
            "iterations": 650000, "salt": b64u(rb(16))}, "email": f"{s(LOWAN, 12)}@1passwordserviceaccounts.com",
            "srpX": hx(64), "muk": {"alg": "A256GCM", "ext": True, "k": b64u(rb(32)), "key_ops": ["encrypt", "decrypt"],
            "kty": "oct", "kid": "mp"}, "secretKey": "A3-" + s(UPAN, 6) + "-" + s(UPAN, 6), "deviceUuid": s(LOWAN, 26)}  # fmt: skip
    return "ops_" + b64u(json.dumps(blob, separators=(",", ":")).encode())


def g_supabase_srk():
    now = R.randrange(1_700_000_000, 1_760_000_000)
    return jwt(
        {
            "iss": "supabase",
            "ref": s(string.ascii_lowercase, 20),
            "role": "service_role",
            "iat": now,
            "exp": now + 315360000,
        }
    )


def g_wif():
    return b58check(b"\x80" + rb(32) + b"\x01")


def g_age():
    return bech32("age-secret-key-", convertbits(rb(32))).upper()


def g_wg():
    k = bytearray(rb(32))
    k[0] &= 248
    k[31] = (k[31] & 127) | 64
    return b64(bytes(k))


def g_intercom():
    return b64(f"tok:{uuid4()}:1:0".encode()).rstrip("=")


def g_mapbox_sk():
    return (
        "sk."
        + b64u(json.dumps({"u": pick(["acme", "geo-team", "fleetmaps"]), "a": an(25)}, separators=(",", ":")).encode())
        + "."
        + s(B64U, 22)
    )


sp(
    "aws_secret_access_key",
    True,
    "40 characters `[A-Za-z0-9+/]` next to its key id",
    lambda: g_pair(
        "aws_access_key_id",
        pick(["AKIA", "AKIA", "ASIA"]) + s(B32[:26] + "234567", 16),
        "AWS_ACCESS_KEY_ID",
        "AWS access key id",
        "aws_secret_access_key",
        s(B64, 40),
        "AWS_SECRET_ACCESS_KEY",
        "AWS secret access key",
    ),
    "AWS_SECRET_ACCESS_KEY",
    "AWS secret access key",
)
sp(
    "aws_session_token",
    True,
    "`IQoJb3JpZ2luX2Vj` + base64 STS session token",
    lambda: "IQoJb3JpZ2luX2Vj" + b64(rb(R.randrange(280, 420))),
    "AWS_SESSION_TOKEN",
    "AWS session token",
)
sp(
    "gcp_service_account_key",
    True,
    "PKCS #8 RSA key inside a service-account JSON",
    g_sa_json,
    "GOOGLE_CREDENTIALS_JSON|GCP_SA_KEY",
    "GCP service account key",
)
sp(
    "google_api_key",
    True,
    "`AIza` + 35 (server-side key)",
    lambda: "AIza" + s(B64U, 35),
    "GOOGLE_MAPS_SERVER_KEY|GEMINI_API_KEY|GOOGLE_API_KEY",
    "Google API key",
)
sp(
    "google_oauth_client_secret",
    True,
    "`GOCSPX-` + 28",
    lambda: "GOCSPX-" + s(B64U, 28),
    "GOOGLE_CLIENT_SECRET",
    "Google OAuth client secret",
)
sp(
    "google_oauth_refresh_token",
    True,
    "`1//0` + 99",
    lambda: "1//0" + R.choice("3594cefg") + s(B64U, 98),
    "GOOGLE_REFRESH_TOKEN",
    "Google OAuth refresh token",
)
sp(
    "google_oauth_access_token",
    False,
    "`ya29.` + 150",
    lambda: "ya29.a0" + s(B64U, 148),
    "GOOGLE_ACCESS_TOKEN",
    "Google OAuth access token",
    hdr="Authorization: Bearer ",
)
sp(
    "azure_storage_account_key",
    True,
    "88-character base64 account key",
    g_azure_storage,
    "AZURE_STORAGE_KEY",
    "Azure storage account key",
)
sp(
    "azure_ad_client_secret",
    True,
    "3 + digit + `Q~` + 34",
    lambda: an(3) + R.choice(DIG) + "Q~" + s(A62 + "_.~-", 34),
    "AZURE_CLIENT_SECRET",
    "Entra ID app client secret",
)
sp("azure_sas_signature", True, "URL-encoded `sig=` of a SAS URL", g_sas, "SAS_URL", "Azure SAS URL")
sp(
    "azure_devops_pat",
    True,
    "52 characters `[a-z2-7]`",
    lambda: s("abcdefghijklmnopqrstuvwxyz234567", 52),
    "AZURE_DEVOPS_PAT|ADO_TOKEN",
    "Azure DevOps PAT",
)
sp(
    "azure_openai_api_key",
    True,
    "32 hex (name or `api-key` header)",
    lambda: hx(32),
    "AZURE_OPENAI_API_KEY",
    "Azure OpenAI key",
    hdr="api-key: ",
)
sp(
    "github_pat_classic",
    True,
    "`ghp_` + 30 base62 + base62 CRC32",
    lambda: crc_token("ghp_"),
    "GITHUB_TOKEN|GH_TOKEN",
    "GitHub personal access token",
    hdr="Authorization: token ",
    cli="echo {v} | gh auth login --with-token",
)
sp(
    "github_fine_grained_pat",
    True,
    "`github_pat_11` + 20 + `_` + 59",
    lambda: "github_pat_11" + s(UPAN, 20) + "_" + an(59),
    "GITHUB_PAT|GH_TOKEN",
    "GitHub fine-grained token",
    hdr="Authorization: Bearer ",
)
sp(
    "github_app_token",
    True,
    "`ghs_` / `gho_` / `ghu_` / `ghr_` + 30 + CRC32",
    lambda: crc_token(pick(["ghs_", "gho_", "ghu_", "ghr_"])),
    "GITHUB_APP_TOKEN",
    "GitHub app token",
    hdr="Authorization: token ",
)
sp(
    "gitlab_token",
    True,
    "`glpat-` + 20",
    lambda: "glpat-" + s(A62 + "-_", 20),
    "GITLAB_TOKEN|CI_JOB_PAT",
    "GitLab personal access token",
    hdr="PRIVATE-TOKEN: ",
    cli="glab auth login --token {v}",
)
sp(
    "gitlab_runner_token",
    True,
    "`glrt-` + 20",
    lambda: "glrt-" + s(A62 + "-_", 20),
    "RUNNER_TOKEN",
    "GitLab runner token",
    cli="gitlab-runner register --url https://gitlab.com --token {v}",
)
sp(
    "gitlab_deploy_token",
    False,
    "`gldt-` + 20",
    lambda: "gldt-" + s(A62 + "-_", 20),
    "GITLAB_DEPLOY_TOKEN",
    "GitLab deploy token",
)
sp(
    "bitbucket_app_password",
    False,
    "`ATBB` + 32 + 8 hex",
    lambda: "ATBB" + an(32) + s(UHEX, 8),
    "BITBUCKET_APP_PASSWORD",
    "Bitbucket app password",
)
sp(
    "slack_bot_token",
    True,
    "`xoxb-` digits-digits-24",
    lambda: f"xoxb-{s(DIG, 12)}-{s(DIG, 13)}-{an(24)}",
    "SLACK_BOT_TOKEN",
    "Slack bot token",
    hdr="Authorization: Bearer ",
)
sp(
    "slack_user_token",
    True,
    "`xoxp-` + 4 groups, last 32 hex",
    lambda: f"xoxp-{s(DIG, 12)}-{s(DIG, 12)}-{s(DIG, 13)}-{hx(32)}",
    "SLACK_USER_TOKEN",
    "Slack user token",
    hdr="Authorization: Bearer ",
)
sp(
    "slack_app_token",
    True,
    "`xapp-1-A` + id + digits + 64 hex",
    lambda: f"xapp-1-A{s(UPAN, 10)}-{s(DIG, 13)}-{hx(64)}",
    "SLACK_APP_TOKEN",
    "Slack app-level token",
)
sp(
    "slack_webhook_url",
    True,
    "whole `hooks.slack.com/services/T/B/24` URL",
    lambda: f"https://hooks.slack.com/services/T{s(UPAN, 10)}/B{s(UPAN, 10)}/{an(24)}",
    "SLACK_WEBHOOK_URL",
    "Slack webhook URL",
)
sp(
    "discord_bot_token",
    True,
    "base64(id) + `.` + 6 + `.` + 38",
    lambda: b64(s(DIG, 18).encode()).rstrip("=") + "." + s(B64U, 6) + "." + s(B64U, 38),
    "DISCORD_TOKEN",
    "Discord bot token",
    hdr="Authorization: Bot ",
)
sp(
    "discord_webhook_url",
    True,
    "whole `discord.com/api/webhooks/<id>/<68>` URL",
    lambda: f"https://discord.com/api/webhooks/{s(DIG, 19)}/{s(B64U, 68)}",
    "DISCORD_WEBHOOK",
    "Discord webhook URL",
)
sp(
    "telegram_bot_token",
    True,
    "`<bot id>:AA` + 33",
    lambda: f"{R.randrange(10**9, 8 * 10**9)}:AA{s(B64U, 33)}",
    "TELEGRAM_BOT_TOKEN",
    "Telegram bot token",
)
sp(
    "stripe_secret_key",
    True,
    "`sk_live_` + 24, or `sk_live_51` + 97",
    lambda: pick(["sk_live_" + an(24), "sk_live_51" + an(97)]),
    "STRIPE_SECRET_KEY|STRIPE_API_KEY",
    "Stripe live secret key",
    hdr="Authorization: Bearer ",
    cli="stripe listen --api-key {v}",
)
sp(
    "stripe_restricted_key",
    True,
    "`rk_live_` + 24 or `rk_live_51` + 97",
    lambda: pick(["rk_live_" + an(24), "rk_live_51" + an(97)]),
    "STRIPE_RESTRICTED_KEY",
    "Stripe restricted key",
)
sp(
    "stripe_webhook_secret",
    True,
    "`whsec_` + 32",
    lambda: "whsec_" + an(32),
    "STRIPE_WEBHOOK_SECRET",
    "Stripe webhook signing secret",
)
sp(
    "paypal_client_secret",
    True,
    "`E` + 79 (name only)",
    lambda: "E" + s(B64U, 79),
    "PAYPAL_CLIENT_SECRET",
    "PayPal client secret",
)
sp(
    "square_access_token",
    True,
    "`EAAA` + 60",
    lambda: "EAAA" + s(B64U, 60),
    "SQUARE_ACCESS_TOKEN",
    "Square access token",
    hdr="Authorization: Bearer ",
)
sp(
    "shopify_access_token",
    True,
    "`shpat_` + 32 hex",
    lambda: "shpat_" + hx(32),
    "SHOPIFY_ADMIN_TOKEN",
    "Shopify admin API token",
    hdr="X-Shopify-Access-Token: ",
)
sp(
    "openai_api_key",
    True,
    "`sk-proj-` / `sk-svcacct-` with `T3BlbkFJ` inside",
    lambda: pick(["sk-proj-", "sk-svcacct-"]) + s(B64U, 74) + "T3BlbkFJ" + s(B64U, 74),
    "OPENAI_API_KEY",
    "OpenAI API key",
    hdr="Authorization: Bearer ",
)
sp(
    "anthropic_api_key",
    True,
    "`sk-ant-api03-` + 93 + `AA`",
    lambda: "sk-ant-api03-" + s(B64U, 93) + "AA",
    "ANTHROPIC_API_KEY",
    "Anthropic API key",
    hdr="x-api-key: ",
)
sp(
    "groq_api_key",
    True,
    "`gsk_` + 52",
    lambda: "gsk_" + an(52),
    "GROQ_API_KEY",
    "Groq API key",
    hdr="Authorization: Bearer ",
)
sp(
    "huggingface_token",
    True,
    "`hf_` + 34 letters",
    lambda: "hf_" + s(string.ascii_letters, 34),
    "HF_TOKEN|HUGGING_FACE_HUB_TOKEN",
    "Hugging Face token",
    cli="huggingface-cli login --token {v}",
)
sp("replicate_api_token", True, "`r8_` + 37", lambda: "r8_" + an(37), "REPLICATE_API_TOKEN", "Replicate token")
sp(
    "cohere_api_key",
    True,
    "40 alphanumerics (name only)",
    lambda: an(40),
    "COHERE_API_KEY|CO_API_KEY",
    "Cohere API key",
)
sp("mistral_api_key", True, "32 alphanumerics (name only)", lambda: an(32), "MISTRAL_API_KEY", "Mistral API key")
sp(
    "deepseek_api_key",
    True,
    "`sk-` + 32 hex",
    lambda: "sk-" + hx(32),
    "DEEPSEEK_API_KEY",
    "DeepSeek API key",
    hdr="Authorization: Bearer ",
)
sp("perplexity_api_key", True, "`pplx-` + 48", lambda: "pplx-" + an(48), "PERPLEXITY_API_KEY", "Perplexity API key")
sp(
    "openrouter_api_key",
    True,
    "`sk-or-v1-` + 64 hex",
    lambda: "sk-or-v1-" + hx(64),
    "OPENROUTER_API_KEY",
    "OpenRouter key",
)
sp("xai_api_key", True, "`xai-` + 80", lambda: "xai-" + an(80), "XAI_API_KEY", "xAI Grok API key")
sp(
    "langsmith_api_key",
    True,
    "`lsv2_pt_` / `lsv2_sk_` + 32 hex + `_` + 10 hex",
    lambda: pick(["lsv2_pt_", "lsv2_sk_"]) + hx(32) + "_" + hx(10),
    "LANGSMITH_API_KEY|LANGCHAIN_API_KEY",
    "LangSmith API key",
)
sp(
    "pinecone_api_key",
    True,
    "`pcsk_` + 6 + `_` + 63 base58",
    lambda: "pcsk_" + s(B58, 6) + "_" + s(B58, 63),
    "PINECONE_API_KEY",
    "Pinecone API key",
)
sp(
    "wandb_api_key",
    True,
    "40 hex (name only)",
    lambda: hx(40),
    "WANDB_API_KEY",
    "Weights & Biases API key",
    cli="wandb login {v}",
)
sp(
    "postgres_password",
    True,
    "password in `postgres://` URLs, libpq / JDBC strings, `PGPASSWORD`",
    g_pg,
    "DATABASE_URL",
    "Postgres password",
)
sp(
    "mysql_password",
    True,
    "password in `mysql://` URLs, Go DSNs, JDBC, `MYSQL_PASSWORD`",
    g_mysql,
    "DATABASE_URL",
    "MySQL password",
)
sp(
    "mongodb_password",
    True,
    "password in `mongodb://` / `mongodb+srv://` URIs",
    g_mongo,
    "MONGODB_URI",
    "MongoDB password",
)
sp(
    "redis_password",
    True,
    "password in `redis://` / `rediss://` URLs, `REDIS_PASSWORD`",
    g_redis,
    "REDIS_URL",
    "Redis password",
    cli="redis-cli -h cache.internal -a {v} ping",
)
sp(
    "mssql_password",
    True,
    "password in ADO.NET strings, `MSSQL_SA_PASSWORD`",
    g_mssql,
    "ConnectionStrings__Default",
    "SQL Server password",
)
sp("amqp_password", True, "password in `amqp://` / `amqps://` URLs", g_amqp, "AMQP_URL", "RabbitMQ password")
sp(
    "snowflake_password",
    True,
    "password in `snowflake://` URLs, `SNOWSQL_PWD`",
    g_snowflake,
    "SNOWFLAKE_URL",
    "Snowflake password",
)
sp(
    "generic_password",
    True,
    "human and random passwords under ordinary names",
    password,
    "ADMIN_PASSWORD|DB_PASS|ROOT_PASSWORD|KEYSTORE_PASSWORD|WIFI_PASSWORD|VPN_PASSWORD|GRAFANA_ADMIN_PASSWORD",
    "password",
)
sp(
    "url_credential_password",
    True,
    "password in `https://user:pass@`, proxy, `ftp://`, `sftp://` URLs",
    g_url_pw,
    "GIT_REMOTE",
    "URL password",
)
sp(
    "smtp_password",
    True,
    "SMTP password under `SMTP_PASSWORD` or in `smtp://` URLs",
    g_smtp,
    "SMTP_PASSWORD",
    "SMTP password",
)
sp(
    "ldap_bind_password",
    True,
    "LDAP bind password (`ldapsearch -w`, `LDAP_BIND_PASSWORD`)",
    g_ldap,
    "LDAP_BIND_PASSWORD",
    "LDAP bind password",
    cli="ldapsearch -x -H ldaps://ldap.corp.example -D cn=svc-reader,ou=svc,dc=corp,dc=example -w {v} '(uid=*)'",
)
sp(
    "rsa_private_key",
    True,
    "2048-bit RSA key, PKCS #1 or PKCS #8 PEM",
    rsa_key,
    "TLS_KEY|JWT_PRIVATE_KEY|SAML_SP_KEY",
    "RSA private key",
)
sp(
    "ec_private_key",
    True,
    "P-256 key, SEC 1 or PKCS #8 PEM",
    ec_key,
    "APNS_KEY|SIGNING_KEY|ES256_PRIVATE_KEY",
    "EC private key",
)
sp(
    "openssh_private_key",
    True,
    "`openssh-key-v1` Ed25519 key",
    openssh_key,
    "SSH_PRIVATE_KEY|DEPLOY_KEY",
    "SSH private key",
)
sp(
    "pgp_private_key",
    False,
    "armored PGP private key with a CRC-24 line",
    pgp_key,
    "GPG_PRIVATE_KEY",
    "PGP private key",
)
sp(
    "jwt",
    True,
    "HS256 JWT with a real HMAC signature",
    jwt,
    "ACCESS_TOKEN|SERVICE_JWT",
    "JWT",
    hdr="Authorization: Bearer ",
)
sp(
    "jwt_signing_secret",
    True,
    "HMAC secret that signs JWTs",
    lambda: pick([an(48), hx(64), b64(rb(48))]),
    "JWT_SECRET|AUTH_JWT_SECRET",
    "JWT signing secret",
)
sp(
    "app_secret_key",
    True,
    "Django `SECRET_KEY`, Rails `secret_key_base`, Flask, Laravel",
    g_app_secret,
    "SECRET_KEY",
    "app secret key",
)
sp("encryption_key", True, "32-byte keys as hex / base64, Fernet keys", g_enc_key, "ENCRYPTION_KEY", "encryption key")
sp(
    "bearer_token",
    True,
    "opaque token after `Bearer `",
    lambda: s(B64U, R.randrange(40, 65)),
    "API_TOKEN|INTERNAL_API_TOKEN",
    "bearer token",
    hdr="Authorization: Bearer ",
)
sp("http_basic_auth", True, "base64(`user:password`) after `Basic `", g_basic, "AUTH_HEADER", "basic auth header")
sp("session_cookie", True, "session cookie values after `name=`", g_cookie, "SESSION_COOKIE", "session cookie")
sp(
    "sendgrid_api_key",
    True,
    "`SG.` + 22 + `.` + 43",
    lambda: "SG." + s(B64U, 22) + "." + s(B64U, 43),
    "SENDGRID_API_KEY",
    "SendGrid API key",
    hdr="Authorization: Bearer ",
)
sp("mailgun_api_key", True, "`key-` + 32 hex", lambda: "key-" + hx(32), "MAILGUN_API_KEY", "Mailgun API key")
sp(
    "mailchimp_api_key",
    True,
    "32 hex + `-us<N>`",
    lambda: hx(32) + f"-us{R.randrange(1, 22)}",
    "MAILCHIMP_API_KEY",
    "Mailchimp API key",
)
sp(
    "twilio_auth_token",
    True,
    "32 hex (name only; the `AC` SID is a look-alike)",
    lambda: hx(32),
    "TWILIO_AUTH_TOKEN",
    "Twilio auth token",
)
sp(
    "twilio_api_key_secret",
    True,
    "32-character API key secret",
    lambda: an(32),
    "TWILIO_API_SECRET",
    "Twilio API key secret",
)
sp(
    "datadog_api_key",
    True,
    "32 hex (name or `DD-API-KEY`)",
    lambda: hx(32),
    "DD_API_KEY|DATADOG_API_KEY",
    "Datadog API key",
    hdr="DD-API-KEY: ",
)
sp(
    "datadog_app_key",
    True,
    "40 hex (name or `DD-APPLICATION-KEY`)",
    lambda: hx(40),
    "DD_APP_KEY",
    "Datadog application key",
    hdr="DD-APPLICATION-KEY: ",
)
sp(
    "newrelic_license_key",
    True,
    "36 hex + `NRAL`",
    lambda: hx(36) + "NRAL",
    "NEW_RELIC_LICENSE_KEY",
    "New Relic license key",
)
sp(
    "newrelic_user_api_key",
    False,
    "`NRAK-` + 27",
    lambda: "NRAK-" + s(UPAN, 27),
    "NEW_RELIC_API_KEY",
    "New Relic user key",
    hdr="API-Key: ",
)
sp(
    "sentry_auth_token",
    True,
    "`sntryu_` + 64 hex",
    lambda: "sntryu_" + hx(64),
    "SENTRY_AUTH_TOKEN",
    "Sentry auth token",
)
sp(
    "cloudflare_api_token",
    True,
    "40 characters (name or bearer)",
    lambda: s(B64U, 40),
    "CLOUDFLARE_API_TOKEN|CF_API_TOKEN",
    "Cloudflare API token",
    hdr="Authorization: Bearer ",
)
sp(
    "digitalocean_token",
    True,
    "`dop_v1_` + 64 hex",
    lambda: "dop_v1_" + hx(64),
    "DIGITALOCEAN_TOKEN",
    "DigitalOcean token",
    cli="doctl auth init --access-token {v}",
)
sp("heroku_api_key", True, "`HRKU-AA` + 58", lambda: "HRKU-AA" + s(B64U, 58), "HEROKU_API_KEY", "Heroku API key")
sp(
    "vercel_token",
    True,
    "24 alphanumerics (name only)",
    lambda: an(24),
    "VERCEL_TOKEN",
    "Vercel token",
    cli="vercel deploy --prod --token {v}",
)
sp("netlify_token", True, "`nfp_` + 40", lambda: "nfp_" + an(40), "NETLIFY_AUTH_TOKEN", "Netlify token")
sp(
    "npm_token",
    True,
    "`npm_` + 30 + CRC32",
    lambda: crc_token("npm_"),
    "NPM_TOKEN|NODE_AUTH_TOKEN",
    "npm token",
    cli="npm config set //registry.npmjs.org/:_authToken {v}",
)
sp(
    "pypi_token",
    True,
    "`pypi-` + v2 macaroon (location `pypi.org`, HMAC chain)",
    pypi_token,
    "PYPI_TOKEN|TWINE_PASSWORD",
    "PyPI token",
    cli="twine upload -u __token__ -p {v} dist/*",
)
sp(
    "dockerhub_pat",
    True,
    "`dckr_pat_` + 27",
    lambda: "dckr_pat_" + s(B64U, 27),
    "DOCKERHUB_TOKEN",
    "Docker Hub token",
    cli="docker login -u acmebuild -p {v}",
)
sp(
    "docker_registry_auth",
    False,
    "base64(`user:password`) `auth` of a Docker config",
    g_docker_auth,
    "DOCKER_AUTH",
    "registry auth string",
)
sp(
    "jfrog_token",
    True,
    "`AKCp` + 69",
    lambda: "AKCp" + an(69),
    "ARTIFACTORY_API_KEY|JFROG_TOKEN",
    "JFrog Artifactory key",
    hdr="X-JFrog-Art-Api: ",
)
sp(
    "terraform_cloud_token",
    True,
    "14 + `.atlasv1.` + 67",
    lambda: an(14) + ".atlasv1." + s(A62 + "-_", 67),
    "TF_TOKEN_app_terraform_io|TFE_TOKEN",
    "Terraform Cloud token",
)
sp(
    "vault_token",
    True,
    "`hvs.` + 24 / `hvb.` + 138",
    lambda: pick(["hvs." + s(B64U, 24), "hvb.AAAAAQ" + s(B64U, 132)]),
    "VAULT_TOKEN",
    "Vault token",
    hdr="X-Vault-Token: ",
    cli="vault login {v}",
)
sp(
    "atlassian_api_token",
    True,
    "`ATATT3xFfGF0` + 170 + `=` + 8 hex",
    lambda: "ATATT3xFfGF0" + s(B64U, 170) + "=" + s(UHEX, 8),
    "JIRA_API_TOKEN",
    "Atlassian API token",
)
sp(
    "notion_token",
    True,
    "`ntn_` + 11 digits + 35",
    lambda: "ntn_" + s(DIG, 11) + an(35),
    "NOTION_TOKEN",
    "Notion integration token",
    hdr="Authorization: Bearer ",
)
sp(
    "linear_api_key",
    True,
    "`lin_api_` + 40",
    lambda: "lin_api_" + an(40),
    "LINEAR_API_KEY",
    "Linear API key",
    hdr="Authorization: ",
)
sp(
    "figma_pat",
    True,
    "`figd_` + 40",
    lambda: "figd_" + s(B64U, 40),
    "FIGMA_TOKEN",
    "Figma token",
    hdr="X-Figma-Token: ",
)
sp(
    "airtable_pat",
    True,
    "`pat` + 14 + `.` + 64 hex",
    lambda: "pat" + an(14) + "." + hx(64),
    "AIRTABLE_TOKEN",
    "Airtable token",
    hdr="Authorization: Bearer ",
)
sp(
    "hubspot_private_app_token",
    True,
    "`pat-na1-` / `pat-eu1-` + UUID",
    lambda: pick(["pat-na1-", "pat-eu1-"]) + uuid4(),
    "HUBSPOT_TOKEN",
    "HubSpot private app token",
    hdr="Authorization: Bearer ",
)
sp(
    "okta_api_token",
    True,
    "`00` + 40 (`SSWS`)",
    lambda: "00" + s(B64U, 40),
    "OKTA_API_TOKEN",
    "Okta API token",
    hdr="Authorization: SSWS ",
)
sp(
    "auth0_client_secret",
    True,
    "64 characters (name only)",
    lambda: s(B64U, 64),
    "AUTH0_CLIENT_SECRET",
    "Auth0 client secret",
)
sp(
    "supabase_service_role_key",
    True,
    "HS256 JWT with `role: service_role`",
    g_supabase_srk,
    "SUPABASE_SERVICE_ROLE_KEY",
    "Supabase service-role key",
    hdr="apikey: ",
)
sp(
    "supabase_access_token",
    True,
    "`sbp_` + 40 hex",
    lambda: "sbp_" + hx(40),
    "SUPABASE_ACCESS_TOKEN",
    "Supabase access token",
)
sp(
    "fcm_server_key",
    True,
    "`AAAA` + 7 + `:APA91b` + 134",
    lambda: "AAAA" + s(B64U, 7) + ":APA91b" + s(B64U, 134),
    "FCM_SERVER_KEY",
    "FCM server key",
    hdr="Authorization: key=",
)
sp(
    "databricks_token",
    True,
    "`dapi` + 32 hex",
    lambda: "dapi" + hx(32),
    "DATABRICKS_TOKEN",
    "Databricks token",
    hdr="Authorization: Bearer ",
)
sp(
    "grafana_service_account_token",
    True,
    "`glsa_` + 32 + `_` + 8 hex",
    lambda: "glsa_" + an(32) + "_" + hx(8),
    "GRAFANA_TOKEN",
    "Grafana service-account token",
    hdr="Authorization: Bearer ",
)
sp(
    "pagerduty_api_key",
    True,
    "20-character REST key (`Token token=`)",
    lambda: s(A62 + "+-_", 20),
    "PAGERDUTY_TOKEN",
    "PagerDuty API key",
    hdr="Authorization: Token token=",
)
sp(
    "tailscale_key",
    True,
    "`tskey-auth-` + id + `CNTRL-` + 33",
    lambda: "tskey-auth-k" + an(10) + "CNTRL-" + an(33),
    "TS_AUTHKEY",
    "Tailscale auth key",
    cli="tailscale up --authkey={v}",
)
sp(
    "ngrok_authtoken",
    True,
    "27 + `_` + 21",
    lambda: an(27) + "_" + an(21),
    "NGROK_AUTHTOKEN",
    "ngrok authtoken",
    cli="ngrok config add-authtoken {v}",
)
sp("totp_seed", True, "base32 TOTP seed", lambda: s(B32, pick([16, 26, 32])), "TOTP_SECRET|MFA_SEED", "TOTP seed")
sp(
    "circleci_token",
    True,
    "`CCIPAT_` + 22 + `_` + 40 hex",
    lambda: "CCIPAT_" + an(22) + "_" + hx(40),
    "CIRCLECI_TOKEN",
    "CircleCI token",
    hdr="Circle-Token: ",
)
sp(
    "sonarqube_token",
    True,
    "`squ_` / `sqp_` / `sqa_` + 40 hex",
    lambda: pick(["squ_", "sqp_", "sqa_"]) + hx(40),
    "SONAR_TOKEN",
    "SonarQube token",
)
sp(
    "doppler_token",
    True,
    "`dp.st.<config>.` / `dp.pt.` + 43",
    lambda: pick(["dp.st.prd.", "dp.st.dev.", "dp.pt."]) + an(43),
    "DOPPLER_TOKEN",
    "Doppler token",
)
sp(
    "onepassword_service_token",
    True,
    "`ops_` + base64url JSON",
    g_ops,
    "OP_SERVICE_ACCOUNT_TOKEN",
    "1Password service-account token",
)
sp(
    "planetscale_password",
    False,
    "`pscale_pw_` + 43",
    lambda: "pscale_pw_" + s(B64U, 43),
    "PLANETSCALE_PASSWORD",
    "PlanetScale password",
)
sp(
    "resend_api_key",
    True,
    "`re_` + 8 + `_` + 24",
    lambda: "re_" + an(8) + "_" + an(24),
    "RESEND_API_KEY",
    "Resend API key",
    hdr="Authorization: Bearer ",
)
sp(
    "postmark_server_token",
    True,
    "UUID server token (name or header)",
    uuid4,
    "POSTMARK_SERVER_TOKEN",
    "Postmark server token",
    hdr="X-Postmark-Server-Token: ",
)
sp(
    "elastic_api_key",
    True,
    "base64(`id:api_key`) after `ApiKey `",
    lambda: b64(f"{s(B64U, 20)}:{s(B64U, 22)}".encode()),
    "ELASTIC_API_KEY",
    "Elasticsearch API key",
    hdr="Authorization: ApiKey ",
)
sp(
    "algolia_admin_key",
    True,
    "32 hex admin key (the app id is a look-alike)",
    lambda: hx(32),
    "ALGOLIA_ADMIN_KEY",
    "Algolia admin key",
    hdr="X-Algolia-API-Key: ",
)
sp(
    "mapbox_secret_token",
    True,
    "`sk.` + base64url JSON + `.` + 22",
    g_mapbox_sk,
    "MAPBOX_SECRET_TOKEN",
    "Mapbox secret token",
)
sp("age_secret_key", False, "`AGE-SECRET-KEY-1` + bech32", g_age, "SOPS_AGE_KEY", "age identity")
sp("wireguard_private_key", False, "base64 X25519 private key", g_wg, "WG_PRIVATE_KEY", "WireGuard private key")
sp(
    "cloudinary_api_secret",
    True,
    "secret inside `cloudinary://<key>:<secret>@<cloud>`",
    g_cloudinary,
    "CLOUDINARY_URL",
    "Cloudinary URL",
)
sp(
    "minio_secret_key",
    True,
    "MinIO root password / secret key (40)",
    lambda: an(40),
    "MINIO_ROOT_PASSWORD|MINIO_SECRET_KEY",
    "MinIO secret key",
)
sp(
    "firebase_admin_token",
    False,
    "Firebase CLI refresh token `1//` + 99",
    lambda: "1//0" + R.choice("59cg") + "Lq" + s(B64U, 96),
    "FIREBASE_TOKEN",
    "Firebase CI token",
    cli="firebase deploy --token {v}",
)
# less common providers
sp(
    "alibaba_access_key_secret",
    False,
    "30 alphanumerics next to its `LTAI` id",
    lambda: g_pair(
        "alibaba_access_key_id",
        "LTAI" + an(20),
        "ALIBABA_CLOUD_ACCESS_KEY_ID",
        "Alibaba AccessKey id",
        "alibaba_access_key_secret",
        an(30),
        "ALIBABA_CLOUD_ACCESS_KEY_SECRET",
        "Alibaba AccessKey secret",
    ),
    "ALIBABA_CLOUD_ACCESS_KEY_SECRET",
    "Alibaba AccessKey secret",
)
sp(
    "scaleway_secret_key",
    False,
    "UUID secret key next to its `SCW` access key",
    lambda: g_pair(
        "scaleway_access_key",
        "SCW" + s(UPAN, 17),
        "SCW_ACCESS_KEY",
        "Scaleway access key",
        "scaleway_secret_key",
        uuid4(),
        "SCW_SECRET_KEY",
        "Scaleway secret key",
    ),
    "SCW_SECRET_KEY",
    "Scaleway secret key",
)
sp(
    "confluent_api_secret",
    False,
    "64 characters next to its key",
    lambda: g_pair(
        "confluent_api_key",
        s(UPAN, 16),
        "CONFLUENT_CLOUD_API_KEY",
        "Confluent Cloud API key",
        "confluent_api_secret",
        s(A62 + "+/", 64),
        "CONFLUENT_CLOUD_API_SECRET",
        "Confluent Cloud API secret",
    ),
    "CONFLUENT_CLOUD_API_SECRET",
    "Confluent Cloud secret",
)
sp(
    "asana_pat",
    False,
    "`2/` + 16 digits + `/` + 16 digits + `:` + 32 hex",
    lambda: f"2/{s(DIG, 16)}/{s(DIG, 16)}:{hx(32)}",
    "ASANA_TOKEN",
    "Asana PAT",
    hdr="Authorization: Bearer ",
)
sp("buildkite_token", False, "`bkua_` + 40 hex", lambda: "bkua_" + hx(40), "BUILDKITE_API_TOKEN", "Buildkite token")
sp(
    "contentful_management_token",
    False,
    "`CFPAT-` + 43",
    lambda: "CFPAT-" + s(B64U, 43),
    "CONTENTFUL_MANAGEMENT_TOKEN",
    "Contentful management token",
)
sp(
    "cratesio_token",
    False,
    "`cio` + 32",
    lambda: "cio" + an(32),
    "CARGO_REGISTRY_TOKEN",
    "crates.io token",
    cli="cargo login {v}",
)
sp(
    "dynatrace_token",
    False,
    "`dt0c01.` + 24 + `.` + 64",
    lambda: "dt0c01." + s(UPAN, 24) + "." + s(UPAN, 64),
    "DT_API_TOKEN",
    "Dynatrace token",
    hdr="Authorization: Api-Token ",
)
sp("flyio_token", False, "`fo1_` + 43", lambda: "fo1_" + s(B64U, 43), "FLY_API_TOKEN", "Fly.io token")
sp(
    "honeycomb_api_key",
    False,
    "`hcaik_` + 58 lowercase alphanumerics",
    lambda: "hcaik_" + s(LOWAN, 58),
    "HONEYCOMB_API_KEY",
    "Honeycomb ingest key",
    hdr="x-honeycomb-team: ",
)
sp(
    "launchdarkly_sdk_key",
    False,
    "`sdk-` + UUID",
    lambda: "sdk-" + uuid4(),
    "LAUNCHDARKLY_SDK_KEY",
    "LaunchDarkly SDK key",
)
sp(
    "nuget_api_key",
    False,
    "`oy2` + 43 `[a-z0-9]`",
    lambda: "oy2" + s(LOWAN, 43),
    "NUGET_API_KEY",
    "NuGet API key",
    cli="dotnet nuget push pkg.nupkg --api-key {v} --source https://api.nuget.org/v3/index.json",
)
sp(
    "postman_api_key",
    False,
    "`PMAK-` + 24 hex + `-` + 34 hex",
    lambda: "PMAK-" + hx(24) + "-" + hx(34),
    "POSTMAN_API_KEY",
    "Postman API key",
    hdr="X-Api-Key: ",
)
sp("pulumi_access_token", False, "`pul-` + 40 hex", lambda: "pul-" + hx(40), "PULUMI_ACCESS_TOKEN", "Pulumi token")
sp("rubygems_api_key", False, "`rubygems_` + 48 hex", lambda: "rubygems_" + hx(48), "GEM_HOST_API_KEY", "RubyGems key")
sp(
    "shippo_api_token",
    False,
    "`shippo_live_` + 40 hex",
    lambda: "shippo_live_" + hx(40),
    "SHIPPO_TOKEN",
    "Shippo token",
    hdr="Authorization: ShippoToken ",
)
sp(
    "sourcegraph_token",
    False,
    "`sgp_` + 16 hex + `_` + 40 hex",
    lambda: "sgp_" + hx(16) + "_" + hx(40),
    "SRC_ACCESS_TOKEN",
    "Sourcegraph token",
)
sp(
    "yandex_cloud_api_key",
    False,
    "`AQVN` + 36",
    lambda: "AQVN" + s(B64U, 36),
    "YC_API_KEY",
    "Yandex Cloud API key",
    hdr="Authorization: Api-Key ",
)
sp("zendesk_api_token", False, "40 alphanumerics (name only)", lambda: an(40), "ZENDESK_API_TOKEN", "Zendesk API token")
sp("nats_nkey_seed", False, "`SU` + 56 base32 user seed", lambda: "SU" + s(B32, 56), "NATS_NKEY_SEED", "NATS nkey seed")
sp(
    "k3s_cluster_token",
    False,
    "`K10` + 64 hex + `::server:` + 32 hex",
    lambda: "K10" + hx(64) + "::server:" + hx(32),
    "K3S_TOKEN",
    "k3s token",
)
sp(
    "kubeadm_bootstrap_token",
    False,
    "`[a-z0-9]{6}.[a-z0-9]{16}`",
    lambda: s(LOWAN, 6) + "." + s(LOWAN, 16),
    "KUBEADM_TOKEN",
    "kubeadm bootstrap token",
    cli="kubeadm join 10.0.0.10:6443 --token {v} --discovery-token-unsafe-skip-ca-verification",
)
sp(
    "docker_swarm_join_token",
    False,
    "`SWMTKN-1-` + 50 + `-` + 25",
    lambda: "SWMTKN-1-" + s(LOWAN, 50) + "-" + s(LOWAN, 25),
    "SWARM_JOIN_TOKEN",
    "swarm join token",
    cli="docker swarm join --token {v} 10.0.0.5:2377",
)
sp(
    "erlang_cookie",
    False,
    "20 upper-case letters",
    lambda: s(string.ascii_uppercase, 20),
    "RABBITMQ_ERLANG_COOKIE",
    "Erlang cookie",
)
sp(
    "ethereum_private_key",
    False,
    "64 hex (optionally `0x`) under a private-key name",
    lambda: pick(["0x", ""]) + hx(64),
    "ETH_PRIVATE_KEY|DEPLOYER_KEY",
    "Ethereum wallet key",
)
sp("bitcoin_wif_private_key", False, "WIF compressed key (base58check)", g_wif, "BTC_WIF", "bitcoin WIF key")
sp("adafruit_io_key", False, "`aio_` + 28", lambda: "aio_" + an(28), "ADAFRUIT_IO_KEY", "Adafruit IO key")
sp("prefect_api_key", False, "`pnu_` + 36", lambda: "pnu_" + an(36), "PREFECT_API_KEY", "Prefect API key")
sp(
    "duffel_token",
    False,
    "`duffel_live_` + 43",
    lambda: "duffel_live_" + s(B64U, 43),
    "DUFFEL_ACCESS_TOKEN",
    "Duffel token",
)
sp("easypost_api_key", False, "`EZAK` + 54 hex", lambda: "EZAK" + hx(54), "EASYPOST_API_KEY", "EasyPost key")
sp("readme_api_key", False, "`rdme_` + 70 hex", lambda: "rdme_" + hx(70), "README_API_KEY", "ReadMe API key")
sp(
    "typeform_pat",
    False,
    "`tfp_` + 44 + `_` + 14",
    lambda: "tfp_" + s(B64U, 44) + "_" + an(14),
    "TYPEFORM_TOKEN",
    "Typeform token",
)
sp("infracost_api_key", False, "`ico-` + 32", lambda: "ico-" + an(32), "INFRACOST_API_KEY", "Infracost key")
sp(
    "clojars_token",
    False,
    "`CLOJARS_` + 60 hex",
    lambda: "CLOJARS_" + hx(60),
    "CLOJARS_PASSWORD",
    "Clojars deploy token",
)
sp(
    "octopus_deploy_api_key",
    False,
    "`API-` + 26 upper-case alphanumerics",
    lambda: "API-" + s(UPAN, 26),
    "OCTOPUS_API_KEY",
    "Octopus Deploy key",
    hdr="X-Octopus-ApiKey: ",
)
sp(
    "intercom_access_token",
    False,
    "base64 of `tok:<uuid>:1:0` (`dG9rOj...`)",
    g_intercom,
    "INTERCOM_ACCESS_TOKEN",
    "Intercom token",
    hdr="Authorization: Bearer ",
)
sp(
    "harness_pat",
    False,
    "`pat.` + 22 + `.` + 24 + `.` + 20",
    lambda: f"pat.{s(B64U, 22)}.{hx(24)}.{an(20)}",
    "HARNESS_API_KEY",
    "Harness token",
    hdr="x-api-key: ",
)
sp("linode_token", False, "64 hex (name only)", lambda: hx(64), "LINODE_TOKEN", "Linode token")
sp("hetzner_cloud_token", False, "64 alphanumerics (name only)", lambda: an(64), "HCLOUD_TOKEN", "Hetzner Cloud token")
sp("plaid_secret", False, "30 hex (name only)", lambda: hx(30), "PLAID_SECRET", "Plaid secret")
sp("vonage_api_secret", False, "16 alphanumerics (name only)", lambda: an(16), "VONAGE_API_SECRET", "Vonage API secret")
sp(
    "brevo_api_key",
    False,
    "`xkeysib-` + 64 hex + `-` + 16",
    lambda: "xkeysib-" + hx(64) + "-" + an(16),
    "BREVO_API_KEY",
    "Brevo key",
    hdr="api-key: ",
)
sp(
    "dropbox_access_token",
    False,
    "`sl.` + 135",
    lambda: "sl.u." + s(B64U, 135),
    "DROPBOX_TOKEN",
    "Dropbox token",
    hdr="Authorization: Bearer ",
)
sp(
    "msteams_webhook_url",
    False,
    "whole `*.webhook.office.com/webhookb2/...` URL",
    lambda: (
        f"https://{pick(['acme', 'contoso', 'northwind'])}.webhook.office.com/webhookb2/{uuid4()}@{uuid4()}/IncomingWebhook/{hx(32)}/{uuid4()}"
    ),
    "TEAMS_WEBHOOK_URL",
    "Teams webhook URL",
)
sp("render_api_key", False, "`rnd_` + 32", lambda: "rnd_" + an(32), "RENDER_API_KEY", "Render API key")
sp(
    "influxdb_token",
    False,
    "86 characters base64url + `==`",
    lambda: s(B64U, 86) + "==",
    "INFLUX_TOKEN",
    "InfluxDB token",
    hdr="Authorization: Token ",
)
sp("mollie_api_key", False, "`live_` + 30", lambda: "live_" + an(30), "MOLLIE_API_KEY", "Mollie key")
sp(
    "elevenlabs_api_key",
    False,
    "`sk_` + 48 hex",
    lambda: "sk_" + hx(48),
    "ELEVENLABS_API_KEY",
    "ElevenLabs key",
    hdr="xi-api-key: ",
)


# ---------------------------------------------------------------- look-alike kinds

LOOKS: dict[str, Spec] = {}


def lk(kind, what, gen, names, label):
    LOOKS[kind] = Spec(kind, False, what, gen, names, label, secret=False)


def g_placeholder():
    return pick(["<your-api-key>", "changeme", "REPLACE_ME", "xxxxxxxxxxxxxxxxxxxx", "YOUR_TOKEN_HERE", "<password>", "TODO-set-me",
                 "sk_live_XXXXXXXXXXXXXXXXXXXXXXXX", "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "<insert secret>", "dummy", "***fill-in***",
                 "your-secret-here", "<paste token>", "PLACEHOLDER"])  # fmt: skip


def g_template():
    n = pick(["STRIPE_KEY", "DB_PASSWORD", "NPM_TOKEN", "SLACK_WEBHOOK", "API_TOKEN", "OPENAI_API_KEY"])
    return pick(["${{ secrets." + n + " }}", "{{ .Values.db.password }}", "{{ vault_db_password }}", "${var.db_password}",
                 "{{ secret_key }}", "${{ env." + n + " }}", "#{" + n.lower() + "}", "{{ .Env." + n + " }}",
                 "${file(\"secrets.json\")}", "$(" + n + ")", "<%= ENV['" + n + "'] %>", "{{ lookup('env', '" + n + "') }}"])  # fmt: skip


def g_envref():
    n = pick(
        [
            "STRIPE_SECRET_KEY",
            "DB_PASSWORD",
            "GITHUB_TOKEN",
            "OPENAI_API_KEY",
            "AWS_SECRET_ACCESS_KEY",
            "REDIS_PASSWORD",
        ]
    )
    return pick(["$" + n, "${" + n + "}", "process.env." + n, 'os.environ["' + n + '"]', "%" + n + "%", "$env:" + n,
                 'ENV.fetch("' + n + '")', 'System.getenv("' + n + '")', "${" + n + ":?missing}", 'os.Getenv("' + n + '")'])  # fmt: skip


def g_smref():
    return pick([f"op://{pick(['Private', 'Infra', 'Shared'])}/{pick(['Stripe', 'Postgres prod', 'GitHub bot'])}/credential",
                 f"vault:secret/data/{pick(['billing', 'api', 'ci'])}#token",
                 f"arn:aws:secretsmanager:eu-west-1:{s(DIG, 12)}:secret:prod/{pick(['db', 'api'])}-{an(6)}",
                 f"projects/{pick(['acme-prod', 'data-381'])}/secrets/{pick(['db-password', 'openai-key'])}/versions/latest",
                 f"@Microsoft.KeyVault(SecretUri=https://kv-{s(LOWAN, 6)}.vault.azure.net/secrets/{pick(['DbPassword', 'ApiKey'])}/)",
                 f"ssm:/prod/{pick(['billing', 'web'])}/{pick(['db_password', 'stripe_key'])}",
                 f"sm://{pick(['shared', 'team-a'])}/{pick(['slack-token', 'sendgrid'])}"])  # fmt: skip


def g_masked():
    return pick(["sk_live_****************" + an(4), "********", "ghp_****" + an(4), "[REDACTED]", "xoxb-***-***-" + "*" * 8,
                 "AKIA****************", an(4) + "…" + an(4), "•••••••••••", "<redacted>", "glpat-" + "*" * 20,
                 "sk-proj-…" + an(4), "****" + s(DIG, 4)])  # fmt: skip


def g_pwhash():
    cr = "./" + A62
    return pick(["$2b$12$" + s(cr, 53), "$2y$10$" + s(cr, 53),
                 "$argon2id$v=19$m=65536,t=3,p=4$" + b64(rb(16)).rstrip("=") + "$" + b64(rb(32)).rstrip("="),
                 "$6$" + s(cr, 16) + "$" + s(cr, 86)])  # fmt: skip


def g_account():
    return pick([s(DIG, 12), "AC" + hx(32), "acct_1" + an(15), "T0" + s(UPAN, 9), s(UPAN, 10), "MA" + s(UPAN, 18),
                 "rzp_live_" + an(14)])  # fmt: skip


def g_oauth_client_id():
    return pick(
        [f"{s(DIG, 12)}-{s(LOWAN, 32)}.apps.googleusercontent.com", "Iv1." + hx(16), "Ov23li" + an(14), uuid4(), an(32)]
    )


def g_publishable():
    return "pk_live_" + pick([an(24), "51" + an(97)])


def g_site_key():
    return pick(["pk.eyJ1Ijoi" + s(B64U, 20) + "." + s(B64U, 22), "6L" + s(B64U, 38), "0x4AAAAAAA" + s(B64U, 14)])


def g_sentry_dsn():
    return f"https://{hx(32)}@o{R.randrange(10**5, 10**7)}.ingest.{pick(['', 'us.', 'de.'])}sentry.io/{R.randrange(10**6, 10**7)}"


def g_b64text():
    txt = pick(["hello world from the staging box", "this is only a test payload", "Configuration loaded successfully",
                "user preferences: dark mode, compact", "The quick brown fox jumps over the lazy dog", "migration 042 applied",
                "{\"feature\":\"search\",\"enabled\":true}", "release notes for version two"])  # fmt: skip
    return b64(txt.encode())


def g_pod():
    return f"{pick(['api', 'billing-worker', 'web', 'ingest', 'scheduler'])}-{s('bcdfghjklmnpqrstvwxz2456789', 10)}-{s('bcdfghjklmnpqrstvwxz2456789', 5)}"


def g_longid():
    return pick(["test_refresh_token_rotation_rejects_reused_token", "handleStripeWebhookSignatureVerificationFailure",
                 "TestParseConnectionStringWithoutPassword", "should_not_log_authorization_header_values",
                 "AbstractSecretManagerCredentialProviderFactory", "validate_api_key_prefix_and_checksum_length"])  # fmt: skip


def g_semver():
    return (
        pick(["v", ""])
        + f"{R.randrange(0, 20)}.{R.randrange(0, 40)}.{R.randrange(0, 30)}"
        + pick(["", "", "-rc.1", "-beta.3", "+build.7"])
    )


def g_ts():
    return pick([f"2026-{R.randrange(1, 13):02d}-{R.randrange(1, 29):02d}T{R.randrange(24):02d}:{R.randrange(60):02d}:{R.randrange(60):02d}Z",
                 str(R.randrange(1_760_000_000_000, 1_800_000_000_000))])  # fmt: skip


def g_crypto():
    if chance(0.5):
        return bech32("bc", [0, *convertbits(rb(20))])
    return "0x" + hx(40)


def g_enc():
    return pick([f"ENC[AES256_GCM,data:{b64(rb(24))},iv:{b64(rb(32))},tag:{b64(rb(16))},type:str]",
                 "AgB" + s(B64, 120),
                 "$ANSIBLE_VAULT;1.1;AES256\n" + "\n".join(hx(80) for _ in range(3))])  # fmt: skip


def g_ip():
    return pick([f"10.{R.randrange(256)}.{R.randrange(256)}.{R.randrange(1, 255)}", f"172.{R.randrange(16, 32)}.{R.randrange(256)}.0/24",
                 f"2001:db8:{hx(4)}::{hx(3)}", f"192.168.{R.randrange(256)}.{R.randrange(1, 255)}"])  # fmt: skip


def g_fpr():
    return pick(
        [
            "SHA256:" + b64(rb(32)).rstrip("="),
            ":".join(hx(2) for _ in range(16)),
            " ".join(s(UHEX, 4) for _ in range(10)),
        ]
    )


def g_keyid():
    return pick([f"arn:aws:kms:us-east-1:{s(DIG, 12)}:key/{uuid4()}", "kid-" + hx(16), s(UHEX, 16), hx(40),
                 f"projects/p/locations/global/keyRings/ring/cryptoKeys/{pick(['sops', 'backup'])}"])  # fmt: skip


def g_doc_example():
    return pick(["eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ."
                 "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c", "sk_test_4eC39HqLyjWDarjtT1zdp7dc", "JBSWY3DPEHPK3PXP",
                 "pk_test_TYooMQauvdEDq54NiTphI7jx", "xoxb-not-a-real-token-this-will-not-work"])  # fmt: skip


lk(
    "aws_example_key",
    "AWS documentation keys ending in `EXAMPLE`",
    lambda: pick(
        [
            "AKIAIOSFODNN7EXAMPLE",
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "AKIAI44QH8DHBEXAMPLE",
            "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY",
        ]
    ),
    "AWS_ACCESS_KEY_ID|AWS_SECRET_ACCESS_KEY",
    "AWS example key from the docs",
)
lk(
    "placeholder",
    "placeholders (`<your-api-key>`, `changeme`, `REPLACE_ME`, `sk_live_XXXX`)",
    g_placeholder,
    "API_KEY|DB_PASSWORD|SECRET_TOKEN",
    "placeholder",
)
lk(
    "template_reference",
    "template expressions (`${{ secrets.X }}`, Helm, Jinja, Terraform, ERB)",
    g_template,
    "password|token|api_key",
    "template reference",
)
lk(
    "env_reference",
    "environment-variable references in shell, code and config",
    g_envref,
    "api_key|db_password|token",
    "env reference",
)
lk(
    "secret_manager_reference",
    "secret-manager paths (`op://`, Vault, AWS, GCP, Azure Key Vault, SSM)",
    g_smref,
    "DB_PASSWORD_REF|secret_ref",
    "secret reference",
)
lk("masked_value", "masked or redacted values", g_masked, "STRIPE_SECRET_KEY|token|password", "masked value")
lk(
    "password_hash",
    "bcrypt, argon2id and sha512-crypt hashes",
    g_pwhash,
    "password_hash|hashed_password",
    "password hash",
)
lk("uuid", "UUIDs used as ids", uuid4, "id|user_id|job_id", "UUID")
lk(
    "request_id",
    "request ids (`req_`, `x-amz-request-id`, CF ray)",
    lambda: pick(
        ["req_" + an(14), s(UPAN, 16), hx(16) + "-" + pick(["FRA", "AMS", "IAD"]), "Root=1-" + hx(8) + "-" + hx(24)]
    ),
    "request_id|x-request-id",
    "request id",
)
lk(
    "trace_id",
    "W3C traceparent and trace ids",
    lambda: pick(["00-" + hx(32) + "-" + hx(16) + "-01", hx(32)]),
    "traceparent|trace_id",
    "trace id",
)
lk("git_sha", "commit SHAs", lambda: hx(40), "commit|sha", "commit")
lk("sha256_checksum", "SHA-256 file digests", lambda: hx(64), "sha256|checksum", "checksum")
lk("md5_or_etag", "MD5 checksums and S3 ETags", lambda: hx(32), "etag|md5", "ETag")
lk("container_digest", "`sha256:` image digests", lambda: "sha256:" + hx(64), "digest|image_digest", "image digest")
lk("sri_integrity", "`sha384-` subresource integrity", lambda: "sha384-" + b64(rb(48)), "integrity", "SRI hash")
lk("npm_integrity", "`sha512-` lockfile integrity", lambda: "sha512-" + b64(rb(64)), "integrity", "lockfile integrity")
lk(
    "account_identifier",
    "account ids (AWS account, Twilio `AC` SID, Stripe `acct_`, Slack team, Algolia app id, Plivo auth id, `rzp_live_` key id)",
    g_account,
    "account_id|TWILIO_ACCOUNT_SID|ALGOLIA_APP_ID",
    "account id",
)
lk("tenant_id", "Entra directory (tenant) ids", uuid4, "AZURE_TENANT_ID|tenant_id", "tenant id")
lk(
    "oauth_client_id",
    "OAuth client ids (Google, GitHub, Entra, Auth0)",
    g_oauth_client_id,
    "CLIENT_ID|GOOGLE_CLIENT_ID",
    "client id",
)
lk("public_key_pem", "`BEGIN PUBLIC KEY` PEM", public_key_pem, "JWT_PUBLIC_KEY|public_key", "public key")
lk("ssh_public_key", "`ssh-ed25519` public keys", ssh_public_key, "authorized_key|ssh_pubkey", "SSH public key")
lk("certificate", "X.509 certificates (PEM)", certificate, "TLS_CERT|ca_cert", "certificate")
lk(
    "stripe_publishable_key",
    "`pk_live_` publishable keys",
    g_publishable,
    "STRIPE_PUBLISHABLE_KEY|NEXT_PUBLIC_STRIPE_KEY",
    "Stripe publishable key",
)
lk(
    "public_site_key",
    "site keys: Mapbox `pk.`, reCAPTCHA, Turnstile",
    g_site_key,
    "RECAPTCHA_SITE_KEY|MAPBOX_PUBLIC_TOKEN|TURNSTILE_SITEKEY",
    "site key",
)
lk(
    "firebase_web_api_key",
    "`AIza` key in a Firebase web config",
    lambda: "AIza" + s(B64U, 35),
    "firebaseConfig.apiKey|FIREBASE_WEB_API_KEY",
    "Firebase web config apiKey",
)
lk(
    "public_client_key",
    "client-side keys: PostHog `phc_`, Langfuse `pk-lf-`",
    lambda: pick(["phc_" + an(43), "pk-lf-" + uuid4()]),
    "POSTHOG_KEY|LANGFUSE_PUBLIC_KEY",
    "public client key",
)
lk("sentry_dsn", "Sentry DSNs (public by design)", g_sentry_dsn, "SENTRY_DSN", "Sentry DSN")
lk("base64_text", "base64 of ordinary text", g_b64text, "payload|banner", "base64 blob")
lk("k8s_pod_name", "pod names with ReplicaSet suffixes", g_pod, "pod", "pod")
lk("long_identifier", "long identifiers (test and function names)", g_longid, "test|handler", "identifier")
lk("semver", "versions", g_semver, "version", "version")
lk("timestamp", "ISO-8601 timestamps and epoch milliseconds", g_ts, "created_at|ts", "timestamp")
lk("iban", "IBANs with valid check digits", iban, "iban|payout_iban", "IBAN")
lk("isbn", "ISBN-13 with valid check digits", isbn13, "isbn", "ISBN")
lk(
    "crypto_address",
    "bitcoin bech32 and Ethereum addresses",
    g_crypto,
    "wallet_address|payout_address",
    "wallet address",
)
lk("tx_hash", "transaction hashes", lambda: "0x" + hx(64), "tx_hash", "transaction hash")
lk(
    "encrypted_value",
    "SOPS `ENC[...]`, sealed-secret and Ansible Vault blobs",
    g_enc,
    "db_password|encryptedData",
    "encrypted blob",
)
lk(
    "wireguard_public_key",
    "WireGuard public keys",
    lambda: b64(rb(32)),
    "PublicKey|peer_public_key",
    "WireGuard public key",
)
lk(
    "age_recipient",
    "`age1` recipients",
    lambda: bech32("age", convertbits(rb(32))),
    "age_recipient|SOPS_AGE_RECIPIENTS",
    "age recipient",
)
lk("ulid", "ULIDs", ulid, "event_id|ulid", "ULID")
lk("ip_address", "IPv4 / IPv6 addresses and CIDRs", g_ip, "host_ip|cidr", "address")
lk("mac_address", "MAC addresses", lambda: ":".join(hx(2) for _ in range(6)), "mac|hwaddr", "MAC address")
lk("key_fingerprint", "SSH `SHA256:`, MD5 and PGP fingerprints", g_fpr, "fingerprint", "fingerprint")
lk(
    "key_identifier",
    "key ids: KMS ARNs, JWT `kid`, GPG long ids, `private_key_id`",
    g_keyid,
    "kms_key_id|kid|signing_key_id",
    "key id",
)
lk(
    "test_card_number",
    "documented test card numbers",
    lambda: pick(
        [
            "4242424242424242",
            "4000056655665556",
            "5555555555554444",
            "378282246310005",
            "4000000000000002",
            "6011111111111117",
        ]
    ),
    "card_number|test_card",
    "test card",
)
lk(
    "documented_example",
    "sample values published in docs (jwt.io token, Stripe test keys, RFC TOTP example)",
    g_doc_example,
    "example_token|sample_key",
    "documented example value",
)
lk(
    "url",
    "URLs without credentials",
    lambda: pick(
        [
            "https://api.stripe.com/v1/charges",
            "https://hooks.example.com/ingest",
            "https://grafana.internal/d/" + an(9),
            "https://status.example.org",
            "https://registry.npmjs.org/" + pick(["left-pad", "zod"]),
        ]
    ),
    "endpoint|base_url",
    "URL",
)
lk(
    "publishable_anon_key",
    "Supabase anon JWTs (role `anon`, public by design)",
    lambda: jwt(
        {
            "iss": "supabase",
            "ref": s(string.ascii_lowercase, 20),
            "role": "anon",
            "iat": 1_700_000_000,
            "exp": 2_015_000_000,
        }
    ),
    "SUPABASE_ANON_KEY|NEXT_PUBLIC_SUPABASE_ANON_KEY",
    "Supabase anon key",
)


# ---------------------------------------------------------------- documents


class Item:
    def __init__(self, kind, secret, text, name, label, ml, hdr, cli):  # noqa: PLR0917 -- kind tables read best as positional rows
        self.kind, self.secret, self.text, self.name = kind, secret, text, name
        self.label, self.ml, self.hdr, self.cli = label, ml, hdr, cli
        self.plain = True


class Doc:
    def __init__(self):
        self.tab: list[tuple[str, bool]] = []

    def mark(self, kind: str, secret: bool, v: str) -> str:
        i = len(self.tab)
        self.tab.append((kind, secret))
        return chr(OPEN0 + i) + v + CLOSE

    def items(self, spec: Spec) -> list[Item]:
        g = spec.gen()
        if isinstance(g, list):
            pieces = g
        elif isinstance(g, tuple):
            pieces = [(spec.kind, g[0], g[1], g[2], g[3] if len(g) > 3 else pick(spec.names), spec.label)]
        else:
            pieces = [(spec.kind, "", g, "", pick(spec.names), spec.label)]
        out = []
        for kind, pre, v, post, name, label in pieces:
            text = pre + self.mark(kind, spec.secret, v) + post
            plain = not pre and not post
            it = Item(
                kind,
                spec.secret,
                text,
                name,
                label,
                "\n" in text,
                spec.hdr if plain else None,
                spec.cli if plain else None,
            )
            it.plain = plain
            out.append(it)
        return out


def unmark(t: str) -> str:
    return "".join(c for c in t if not (OPEN0 <= ord(c) < OPEN0 + 4096 or c == CLOSE))


def cq(t: str) -> str:
    return t.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def jq(t: str) -> str:
    return json.dumps(t, ensure_ascii=False)


def xq(t: str) -> str:
    return t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


PLAIN = set(A62 + "_./:@%+=,-")


def shq(t: str) -> str:
    u = unmark(t)
    if u and all(c in PLAIN for c in u):
        return t
    if "'" not in u:
        return "'" + t + "'"
    return '"' + t.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$").replace("`", "\\`") + '"'


def yq(t: str) -> str:
    u = unmark(t)
    if u and all(c in PLAIN for c in u) and u[0] not in "@%:-,." and ": " not in u:
        return t
    return jq(t)


def indent(t: str, pad: str) -> str:
    return t.replace("\n", "\n" + pad)


def style(name: str, st: str) -> str:
    parts = [p for p in name.replace(".", "_").replace("-", "_").split("_") if p]
    low = [p.lower() for p in parts]
    if st == "upper":
        return "_".join(p.upper() for p in parts)
    if st == "snake":
        return "_".join(low)
    if st == "camel":
        return low[0] + "".join(p.capitalize() for p in low[1:])
    if st == "pascal":
        return "".join(p.capitalize() for p in low)
    if st == "dot":
        return ".".join(low)
    return "-".join(low)


def wrap_token(t: str) -> str:
    """Hard-wrap a single-line marked value (keeps marker positions)."""
    width = R.randrange(32, 60)
    out, n = [], 0
    for c in t:
        out.append(c)
        if not (OPEN0 <= ord(c) < OPEN0 + 4096 or c == CLOSE):
            n += 1
            if n % width == 0:
                out.append("\n")
    res = "".join(out)
    return res[:-1] if res.endswith("\n") else res.replace("\n" + CLOSE, CLOSE)


# ---------------------------------------------------------------- phrasing

EN_SAY = [
    "The {l} is {v}.",
    "{l}: {v}",
    "Saved the {l} here so I stop hunting for it: {v}",
    "User pasted their {l} into the chat - {v} - and asked me to remember it.",
    "For the record, {v} is the {l} we rotated in on Tuesday.",
    "Note to self: {l} = {v}",
    "They gave me {v} as the {l}; it works against prod.",
    "Current {l} (do not share): {v}",
    "If the deploy fails again, check that {v} is still the active {l}.",
    "Got a new {l} from the vendor portal -> {v}",
    "Remember: {v}",
    "the {l} they rotated to last week is {v}, the old one is revoked",
    "Tried {v} as the {l} and the API returned 200.",
    "Ops shared the {l} over DM: {v}",
    "Use {v} for the {l} until the vault migration lands.",
    "{l} for staging -> {v}",
    "Jotting down the {l}: {v} (expires end of quarter).",
    "Keep this handy: {v}",
    "Swapped in {v}; that's the {l} for the billing sandbox-to-prod cutover.",
    "Alex says the {l} is {v}, confirmed by curl.",
    "Verified {l} {v} with a test request.",
    "the value that finally worked was {v}",
    "After rotation the {l} became {v}.",
    "I copied {v} from the password manager as the {l}.",
    "Reminder for tomorrow: the {l} is {v}, put it in the CI settings.",
    "My {l} is {v} - please don't log it.",
    "Found the {l} in an old Slack thread: {v}",
    "Backup copy of the {l}: {v}",
    "Paste {v} when the installer asks for the {l}.",
    "Working {l}: `{v}`",
    "{v} <- {l}, works in eu-west-1 only",
    "Handing over: {l} is {v}, owner is the platform team.",
    "Don't forget we switched the {l} to {v} yesterday.",
    "So the {l} ended up being {v} after all that.",
    "Last known good {l}: {v}",
    "Credential check ok with {v}.",
    "The vendor support rep read out the {l}: {v}",
    "Set the {l} to {v} in the local profile.",
    "Temporary {l}, delete after the demo: {v}",
    "If anyone asks, {v} is what I used for the {l}.",
    "Rotated; new value {v}.",
    "Password/token for {l} -> {v}",
    "Found it in the build logs: {v}",
    "QA needs the {l}; sent them {v}.",
]
ML_SAY = {
    "en": [
        "Here is the {l} the user asked me to keep:\n{v}",
        "{l} (full block):\n\n{v}\n",
        "Pasted from the old laptop, the {l}:\n{v}",
        "Keep this {l} around until the new box is provisioned:\n{v}",
    ],
    "de": ["Hier der {l}, den ich aufheben soll:\n{v}", "{l} (vollständig):\n\n{v}\n"],
    "es": ["Aquí está la {l} que me pidieron guardar:\n{v}", "{l} completa:\n\n{v}\n"],
    "fr": ["Voici la {l} à conserver :\n{v}", "{l} (bloc complet) :\n\n{v}\n"],
    "ja": ["保存しておく{l}:\n{v}", "{l}(全文)\n\n{v}\n"],
    "pt": ["Aqui está a {l} que pediram para guardar:\n{v}", "{l} completa:\n\n{v}\n"],
}
SAY = {
    "en": EN_SAY,
    "de": [
        "Der {l} lautet {v}.",
        "{l}: {v} (nicht weitergeben)",
        "Neuer {l} nach der Rotation: {v}",
        "Für später notiert: {v} ist der {l}.",
        "Der Kunde hat den {l} geschickt: {v}",
        "Funktioniert mit {v} als {l}.",
        "Bitte merken: {l} = {v}",
        "Aktueller {l} -> {v}",
        "Aus dem alten Wiki kopiert: {v}",
        "Den {l} ({v}) bis Freitag austauschen.",
    ],
    "es": [
        "La {l} es {v}.",
        "{l}: {v} (no compartir)",
        "Nueva {l} tras la rotación: {v}",
        "Apunto para luego: {v} es la {l}.",
        "El cliente envió la {l}: {v}",
        "Funciona con {v} como {l}.",
        "Recordar: {l} = {v}",
        "La {l} actual -> {v}",
        "Copiado de la wiki vieja: {v}",
        "Hay que cambiar la {l} ({v}) antes del viernes.",
    ],
    "fr": [
        "La {l} est {v}.",
        "{l} : {v} (ne pas diffuser)",
        "Nouvelle {l} après rotation : {v}",
        "Noté pour plus tard : {v} est la {l}.",
        "Le client a envoyé la {l} : {v}",
        "Ça marche avec {v} comme {l}.",
        "À retenir : {l} = {v}",
        "{l} actuelle -> {v}",
        "Copié depuis l'ancien wiki : {v}",
        "Remplacer la {l} ({v}) avant vendredi.",
    ],
    "ja": [
        "{l}は {v} です。",
        "{l}: {v} (共有しないこと)",
        "ローテーション後の新しい{l}: {v}",
        "あとで使うのでメモ: {v} が{l}。",
        "ユーザーから{l}を受け取った: {v}",
        "{v} を{l}として使うと動いた。",
        "覚えておく: {l} = {v}",
        "現在の{l} -> {v}",
        "古いwikiからコピー: {v}",
        "金曜までに{l} ({v}) を差し替える。",
    ],
    "pt": [
        "A {l} é {v}.",
        "{l}: {v} (não compartilhar)",
        "Nova {l} depois da rotação: {v}",
        "Anotado para depois: {v} é a {l}.",
        "O cliente mandou a {l}: {v}",
        "Funciona com {v} como {l}.",
        "Lembrar: {l} = {v}",
        "{l} atual -> {v}",
        "Copiado da wiki antiga: {v}",
        "Trocar a {l} ({v}) antes de sexta.",
    ],
}
LOOK_SAY = {
    "en": [
        "The {l} was {v}, nothing sensitive.",
        "{l}: {v}",
        "Logged {l} {v} for the ticket.",
        "For reference, {l} = {v}",
        "Saw {v} in the output ({l}).",
        "Tracking {l} {v}.",
        "That {l} ({v}) is public, fine to paste.",
        "Checked {v} - just the {l}.",
    ],
    "de": ["{l}: {v}", "Zur Info, {l} = {v}", "Im Log stand {v} ({l})."],
    "es": ["{l}: {v}", "Para referencia, {l} = {v}", "En el log salía {v} ({l})."],
    "fr": ["{l} : {v}", "Pour info, {l} = {v}", "Dans les logs : {v} ({l})."],
    "ja": ["{l}: {v}", "参考までに {l} = {v}", "ログに {v} ({l}) が出ていた。"],
    "pt": ["{l}: {v}", "Para referência, {l} = {v}", "No log apareceu {v} ({l})."],
}
FILLER = {
    "en": [
        "Spent the morning chasing a flaky integration test.",
        "The staging cluster was slow again after the node pool resize.",
        "Need to ask Priya whether the billing export can move to Thursdays.",
        "Coffee machine on floor 3 is fixed, finally.",
        "Upgraded the ORM and two migrations needed manual fixes.",
        "The user prefers short answers and bullet points.",
        "Retro moved to 15:30 because of the all-hands.",
        "CI cache hit rate dropped to 40% after the runner image change.",
        "Latency p99 is back under 300 ms.",
        "Reminder: the on-call handover is Monday 09:00 CET.",
        "Docs for the v2 webhooks are still incomplete.",
        "Deleted three stale feature branches.",
        "Rate limiting kicked in around 14:05 and cleared by itself.",
        "The user's timezone is Europe/Lisbon.",
        "Terraform plan shows 2 to change, 0 to destroy.",
        "Logs are shipped to the new collector now.",
        "Open question: do we still need the legacy cron job?",
        "Backfill finished, 1.2M rows.",
        "The user is migrating a side project from Heroku to Fly.",
        "Bumped the Node version in the Dockerfile.",
    ],
    "de": [
        "Heute Vormittag einen wackeligen Test gejagt.",
        "Der Staging-Cluster war nach dem Resize wieder langsam.",
        "Retro auf 15:30 verschoben.",
        "Die Migration lief ohne Fehler durch.",
        "Der Nutzer mag kurze Antworten.",
    ],
    "es": [
        "Pasé la mañana persiguiendo un test inestable.",
        "El clúster de staging volvió a ir lento.",
        "La retro se movió a las 15:30.",
        "La migración terminó sin errores.",
        "El usuario prefiere respuestas cortas.",
    ],
    "fr": [
        "Matinée passée sur un test instable.",
        "Le cluster de staging était encore lent.",
        "La rétro est déplacée à 15h30.",
        "La migration s'est terminée sans erreur.",
        "L'utilisateur préfère des réponses courtes.",
    ],
    "ja": [
        "午前中は不安定なテストの調査をした。",
        "ステージング環境がまた遅かった。",
        "振り返りは15:30に変更。",
        "マイグレーションはエラーなく完了した。",
        "ユーザーは短い回答を好む。",
    ],
    "pt": [
        "Passei a manhã atrás de um teste instável.",
        "O cluster de staging ficou lento de novo.",
        "A retro passou para 15:30.",
        "A migração terminou sem erros.",
        "O usuário prefere respostas curtas.",
    ],
}
COMMENT = {
    "en": [
        "config for the billing service",
        "local overrides, do not commit",
        "copied from the staging box",
        "TODO: move these into the secret store",
        "settings the user asked me to keep",
        "generated during setup",
    ],
    "de": [
        "Konfiguration für den Billing-Dienst",
        "lokale Einstellungen, nicht committen",
        "TODO: in den Secret Store verschieben",
    ],
    "es": ["configuración del servicio de cobros", "ajustes locales, no subir", "TODO: mover al gestor de secretos"],
    "fr": [
        "configuration du service de facturation",
        "réglages locaux, ne pas committer",
        "TODO : déplacer dans le coffre",
    ],
    "ja": ["課金サービスの設定", "ローカル設定、コミットしない", "TODO: シークレットストアに移す"],
    "pt": [
        "configuração do serviço de cobrança",
        "ajustes locais, não commitar",
        "TODO: mover para o cofre de segredos",
    ],
}
PEOPLE = ["Priya", "Jonas", "Mei", "Carlos", "Aisha", "Tomás", "Yuki", "Noor", "Lena", "Femi", "Ravi", "Inés"]
FILLER_KV = [("PORT", "8080"), ("LOG_LEVEL", "info"), ("REGION", "eu-west-1"), ("TIMEOUT_SECONDS", "30"), ("SERVICE_NAME", "billing-api"),
             ("FEATURE_FLAGS", "search,beta-ui"), ("WORKERS", "4"), ("ENVIRONMENT", "production"), ("CACHE_TTL", "300"),
             ("BASE_URL", "https://app.example.com"), ("MAX_RETRIES", "5"), ("TZ", "UTC")]  # fmt: skip


def say(lang: str, it: Item) -> str:
    if it.ml:
        return pick(ML_SAY[lang]).format(l=it.label, v=it.text)
    pool = SAY[lang] if it.secret else LOOK_SAY[lang]
    return pick(pool).format(l=it.label, v=it.text)


def filler(lang: str, k: int = 1) -> list[str]:
    return [pick(FILLER[lang]) for _ in range(k)]


# ---------------------------------------------------------------- narrative contexts

API_HOSTS = ["https://api.example.com/v1/me", "https://internal.example.net/health", "https://api.vendor.io/v2/accounts",
             "https://gateway.staging.example.org/ping"]  # fmt: skip


def date() -> str:
    return f"2026-{R.randrange(1, 13):02d}-{R.randrange(1, 29):02d}"


def clock() -> str:
    return f"{R.randrange(7, 23):02d}:{R.randrange(60):02d}"


def shell_cmd(it: Item) -> str:
    u = unmark(it.text)
    if it.ml:
        fn = pick(["key.pem", "creds.json", "id_deploy", "sa.json", "private.asc"])
        return f"cat > {fn} <<'EOF'\n{it.text}\nEOF"
    r = R.random()
    if it.hdr and r < 0.4 and '"' not in u:
        return f'curl -sS -H "{it.hdr}{it.text}" {pick(API_HOSTS)}'
    if it.cli and r < 0.75:
        return it.cli.format(v=shq(it.text))
    if not it.secret and r < 0.3:
        return f"echo {shq(it.text)}"
    if "://" in u and r < 0.6:
        return pick(["psql ", "git clone ", "curl -fsS ", "mongosh ", "python manage.py check --url "]) + shq(it.text)
    return f"export {style(it.name, 'upper')}={shq(it.text)}"


def kv_line(it: Item) -> str:
    if it.ml:
        return f"{style(it.name, 'upper')}:\n{it.text}"
    return pick(
        [
            f"{style(it.name, 'upper')}={it.text}",
            f"{style(it.name, 'snake')}: {it.text}",
            f"`{style(it.name, 'upper')}` = `{it.text}`",
        ]
    )


def prose_or_cmd(lang: str, it: Item, p_prose: float = 0.65) -> str:
    r = R.random()
    if r < p_prose:
        return say(lang, it)
    if r < p_prose + 0.15:
        return kv_line(it)
    if r < p_prose + 0.22 and not it.ml:
        return f'{{"{style(it.name, "snake")}": "{cq(it.text)}"}}'
    return "```\n$ " + shell_cmd(it) + "\n```"


def interleave(lines: list[str], fill: list[str]) -> list[str]:
    out = list(lines)
    for f in fill:
        out.insert(R.randrange(len(out) + 1), f)
    return out


def n_journal(lang, items):
    body = interleave([prose_or_cmd(lang, it) for it in items], filler(lang, R.randrange(2, 5)))
    return f"# {pick(['Journal', 'Daily log', 'Work log'])} {date()}\n\n" + "\n\n".join(body) + "\n"


def n_chat(lang, items):
    turns = []
    for it in items:
        turns.append(f"{pick(['user', 'User', PEOPLE[R.randrange(12)]])}: {prose_or_cmd(lang, it, 0.8)}")
        turns.append(
            f"assistant: {pick(['Noted.', 'Got it, saved.', 'I will keep that in memory.', 'Understood - stored for later.'])}"
        )
    turns = interleave(turns, [f"user: {f}" for f in filler(lang, R.randrange(1, 3))])
    return "\n".join(turns) + "\n"


def n_meeting(lang, items):
    att = ", ".join(R.sample(PEOPLE, 3))
    lines = interleave(
        [f"- {prose_or_cmd(lang, it, 0.75)}" for it in items], [f"- {f}" for f in filler(lang, R.randrange(2, 4))]
    )
    return (
        f"Meeting notes - {pick(['infra sync', 'billing standup', 'launch review', 'vendor call'])} ({date()})\nAttendees: {att}\n\n"
        + "\n".join(lines)
        + "\n\nAction items:\n- "
        + pick(PEOPLE)
        + ": follow up\n"
    )


def n_checklist(lang, items):
    lines = interleave(
        [f"- [{pick(['x', ' '])}] {prose_or_cmd(lang, it, 0.7)}" for it in items],
        [f"- [{pick(['x', ' '])}] {f}" for f in filler(lang, R.randrange(2, 4))],
    )
    return (
        f"## Checklist: {pick(['prod cutover', 'new laptop setup', 'release 4.2', 'vendor onboarding'])}\n\n"
        + "\n".join(lines)
        + "\n"
    )


def n_user_notes(lang, items):
    facts = [
        f"- {pick(['User', 'The user', 'They'])} {pick(['mentioned', 'shared', 'keeps'])}: {say(lang, it)}"
        for it in items
    ]
    return (
        "# Notes about the user\n\n"
        + "\n".join(interleave(facts, [f"- {f}" for f in filler(lang, R.randrange(2, 4))]))
        + "\n"
    )


def n_debug(lang, items):
    lines = interleave(
        [f"{clock()} {prose_or_cmd(lang, it, 0.6)}" for it in items],
        [f"{clock()} {f}" for f in filler(lang, R.randrange(2, 4))],
    )
    return (
        f"Debug diary - {pick(['webhook 401s', 'timeouts on checkout', 'flaky login', 'stuck queue'])}\n\n"
        + "\n".join(lines)
        + "\n"
    )


def n_postmortem(lang, items):
    tl = [f"- {clock()} {prose_or_cmd(lang, it, 0.6)}" for it in items]
    return (f"# Post-mortem: {pick(['credential exposure in CI logs', 'payment outage', 'expired certificate', 'queue backlog'])}\n\n"
            f"## Summary\n{pick(FILLER[lang])}\n\n## Timeline\n" + "\n".join(interleave(tl, [f"- {clock()} {f}" for f in filler(lang)]))
            + "\n\n## Follow-ups\n- rotate anything that showed up above\n")  # fmt: skip


def n_runbook(lang, items):
    steps = [f"{i + 1}. {pick(['Run', 'Then', 'Set the credential:', 'On the bastion:'])}\n\n   ```\n   $ {indent(shell_cmd(it), '   ')}\n   ```"
             if chance(0.6) else f"{i + 1}. {say(lang, it)}" for i, it in enumerate(items)]  # fmt: skip
    return (
        f"# Runbook: {pick(['rotate DB credentials', 'restore from backup', 'onboard a new region', 'renew TLS'])}\n\n{pick(FILLER[lang])}\n\n"
        + "\n".join(steps)
        + "\n"
    )


def n_wiki(lang, items):
    rows, blocks = [], []
    for it in items:
        if it.ml or chance(0.3):
            blocks.append(say(lang, it))
        else:
            rows.append(f"| `{style(it.name, 'upper')}` | `{it.text}` | {pick(['prod', 'staging', 'shared', 'dev'])} |")
    out = f"# {pick(['Service credentials', 'Environment settings', 'Integrations'])}\n\n{pick(FILLER[lang])}\n\n"
    if rows:
        out += "| Setting | Value | Env |\n| --- | --- | --- |\n" + "\n".join(rows) + "\n\n"
    return out + "\n\n".join(blocks) + "\n"


def n_ticket(lang, items):
    comments = [f"**{pick(PEOPLE)}** ({date()}): {prose_or_cmd(lang, it, 0.7)}" for it in items]
    return (f"{pick(['OPS', 'SEC', 'PLAT', 'INFRA'])}-{R.randrange(100, 9999)}: {pick(['Login broken for partner', 'Rotate leaked key', 'Webhook retries', 'Backups failing'])}\n"
            f"Status: {pick(['Open', 'In progress', 'Resolved'])}\n\nDescription:\n{pick(FILLER[lang])}\n\nComments:\n" + "\n\n".join(comments) + "\n")  # fmt: skip


def n_scratch(lang, items):
    out = []
    for it in items:
        if not it.ml and len(unmark(it.text)) > 40 and chance(0.55):
            out.append(f"{pick(['tok', 'key', 'copied', 'from vendor', '!!'])} ({it.label}):\n{wrap_token(it.text)}")
        else:
            out.append(prose_or_cmd(lang, it, 0.5))
    return "\n\n".join(interleave(out, filler(lang, R.randrange(1, 3)))) + "\n"


def n_terminal(lang, items):
    out = [f"{pick(['dev', 'mara', 'ubuntu', 'root'])}@{pick(['laptop', 'bastion', 'build-01'])}:~/{pick(['src/api', 'infra', 'work'])}$ git status -s",
           " M README.md"]  # fmt: skip
    for it in items:
        if not it.secret and chance(0.5):
            out.append(
                f"$ {pick(['kubectl get pods -o wide', 'grep -r id logs/app.log | tail -1', 'cat meta.json'])}\n{it.text}"
            )
        elif chance(0.25) and not it.ml:
            out.append(f"$ printenv {style(it.name, 'upper')}\n{it.text}")
        else:
            out.append("$ " + shell_cmd(it))
        if chance(0.4):
            out.append(pick(["OK", '{"status":"ok"}', "Login Succeeded", "HTTP/2 200", "done."]))
    out.append(f"# {pick(FILLER[lang])}")
    return "\n".join(out) + "\n"


def n_history(lang, items):
    base = R.randrange(200, 1900)
    cmds = interleave(
        [shell_cmd(it) for it in items],
        [pick(["ls -la", "git pull --rebase", "make test", "docker ps", "htop", "cd ~/src"]) for _ in range(3)],
    )
    return (
        f"# ~/.bash_history ({pick(FILLER[lang])})\n"
        + "\n".join(f"{base + i:5d}  {c}" for i, c in enumerate(cmds))
        + "\n"
    )


def n_ci_log(lang, items):
    out = [f"2026-03-0{R.randrange(1, 9)}T10:0{i}:{R.randrange(10, 59)}.{R.randrange(100, 999)}Z " + pick([
        f"##[debug]env {style(it.name, 'upper')}={it.text}" if not it.ml else f"##[group]{it.label}\n{it.text}\n##[endgroup]",
        "+ " + shell_cmd(it), f"[info] {say(lang, it)}"]) for i, it in enumerate(items)]  # fmt: skip
    return (
        f"Run #{R.randrange(1000, 99999)} ({pick(['build', 'deploy', 'release'])})\n"
        + "\n".join(out)
        + "\nJob finished: exit code 0\n"
    )


def n_stack(lang, items):
    frames = [f'  File "/srv/app/{pick(["billing", "api", "worker"])}/{pick(["client.py", "tasks.py", "views.py"])}", line {R.randrange(10, 400)}, in {pick(["charge", "sync", "handle"])}'
              for _ in range(2)]  # fmt: skip
    locs = [
        f"    {style(it.name, 'snake')} = '{it.text.replace(chr(92), chr(92) * 2).replace(chr(39), chr(92) + chr(39)).replace(chr(10), chr(92) + 'n')}'"
        for it in items
    ]
    err = pick(["requests.exceptions.HTTPError: 401 Client Error: Unauthorized", "psycopg.OperationalError: connection failed",
                "TimeoutError: upstream did not answer"])  # fmt: skip
    return (
        f"{pick(FILLER[lang])}\n\nTraceback (most recent call last):\n"
        + "\n".join(frames)
        + "\n  Locals:\n"
        + "\n".join(locs)
        + f"\n{err}\n"
    )


def n_email(lang, items):
    half = R.randrange(len(items) + 1)
    mine = [prose_or_cmd(lang, it, 0.8) for it in items[:half]]
    quoted = [prose_or_cmd(lang, it, 0.8) for it in items[half:]]
    a, b = R.sample(PEOPLE, 2)
    body = f"From: {a.lower()}@example.com\nTo: {b.lower()}@example.com\nSubject: Re: {pick(['access for the migration', 'vendor creds', 'prod keys'])}\n\nHi {b},\n\n"
    body += "\n\n".join(mine or filler(lang)) + f"\n\nThanks,\n{a}\n\nOn {date()} {b} wrote:\n"
    q = "\n\n".join([*quoted, *filler(lang)])
    return body + "\n".join("> " + ln if ln else ">" for ln in q.split("\n")) + "\n"


def n_review(lang, items):
    plus, rest = [], []
    for it in items:
        if chance(0.7):
            plus.append(f"+{style(it.name, 'upper')}={shq(it.text)}".replace("\n", "\n+"))
        else:
            rest.append(it)
    hunk = (
        f"--- a/.env.example\n+++ b/.env.example\n@@ -{R.randrange(1, 40)},3 +{R.randrange(1, 40)},{len(plus) + 3} @@\n PORT=8080\n"
        + "\n".join(plus)
        + "\n LOG_LEVEL=info\n"
    )
    notes = [f"> {pick(PEOPLE)}: {say(lang, it)}" for it in rest]
    return f"Review of PR #{R.randrange(100, 4000)} - {pick(['add payment provider', 'wire up alerts', 'new worker'])}\n\n{hunk}\n" + \
        f"{pick(['Please do not commit real values here.', 'Blocking: this looks like a live credential.', 'LGTM once the values move to the secret store.'])}\n" + "\n".join(notes) + "\n"  # fmt: skip


NARRATIVE = {"journal": n_journal, "chat": n_chat, "meeting_notes": n_meeting, "checklist": n_checklist, "user_notes": n_user_notes,
             "debug_diary": n_debug, "postmortem": n_postmortem, "runbook": n_runbook, "wiki": n_wiki, "ticket": n_ticket,
             "scratch": n_scratch, "terminal": n_terminal, "shell_history": n_history, "ci_log": n_ci_log,
             "stack_trace": n_stack, "email": n_email, "code_review": n_review}  # fmt: skip


# ---------------------------------------------------------------- structured contexts


def entries(items):
    ents = [(it.name, it) for it in items]
    for k, v in R.sample(FILLER_KV, R.randrange(2, 5)):
        ents.insert(R.randrange(len(ents) + 1), (k, v))
    return ents


def val(e):
    return e.text if isinstance(e, Item) else e


def is_ml(e):
    return isinstance(e, Item) and e.ml


def s_env(lang, items):
    out = [f"# {pick(COMMENT[lang])}"]
    for n, e in entries(items):
        out.append(f"{style(n, 'upper')}={shq(val(e)) if isinstance(e, Item) else e}")
    return "\n".join(out) + "\n"


def s_json(lang, items):
    st = pick(["snake", "camel"])
    rows = [f'  "_note": {jq(pick(COMMENT[lang]))}']
    for n, e in entries(items):
        rows.append(f"  {jq(style(n, st))}: {jq(val(e))}")
    return "{\n" + ",\n".join(rows) + "\n}\n"


def s_yaml(lang, items):
    out = [f"# {pick(COMMENT[lang])}", f"{pick(['app', 'service', 'settings'])}:"]
    for n, e in entries(items):
        k = style(n, "snake")
        out.append(f"  {k}: |\n    {indent(val(e), '    ')}" if is_ml(e) else f"  {k}: {yq(val(e))}")
    return "\n".join(out) + "\n"


def s_toml(lang, items):
    out = [f"# {pick(COMMENT[lang])}", f"[{pick(['server', 'integrations', 'secrets', 'database'])}]"]
    for n, e in entries(items):
        k = style(n, "snake")
        out.append(f'{k} = """\n{val(e)}"""' if is_ml(e) else f"{k} = {jq(val(e))}")
    return "\n".join(out) + "\n"


def s_ini(lang, items):
    out = [f"; {pick(COMMENT[lang])}", f"[{pick(['default', 'service', 'credentials', 'main'])}]"]
    for n, e in entries(items):
        out.append(f"{style(n, 'snake')} = {indent(val(e), '    ')}")
    return "\n".join(out) + "\n"


def s_properties(lang, items):
    out = [f"# {pick(COMMENT[lang])}"]
    for n, e in entries(items):
        out.append(f"{style(n, 'dot')}={val(e).replace(chr(92), chr(92) * 2).replace(chr(10), chr(92) + 'n')}")
    return "\n".join(out) + "\n"


def s_xml(lang, items):
    out = [
        '<?xml version="1.0" encoding="utf-8"?>',
        f"<!-- {pick(COMMENT[lang])} -->",
        "<configuration>",
        "  <appSettings>",
    ]
    for n, e in entries(items):
        if is_ml(e) or chance(0.4):
            tag = style(n, "camel")
            out.append(f"    <{tag}>{xq(val(e))}</{tag}>")
        else:
            out.append(f'    <add key="{style(n, "pascal")}" value="{xq(val(e))}" />')
    return "\n".join([*out, "  </appSettings>", "</configuration>"]) + "\n"


def s_hcl(lang, items):
    out = [
        f"# {pick(COMMENT[lang])}",
        f'resource "{pick(["vault_generic_secret", "kubernetes_secret", "aws_ssm_parameter"])}" "app" {{',
    ]
    for n, e in entries(items):
        k = style(n, "snake")
        out.append(f"  {k} = <<-EOT\n{val(e)}\n  EOT" if is_ml(e) else f"  {k} = {jq(val(e))}")
    return "\n".join([*out, "}"]) + "\n"


def s_csv(lang, items):
    out = ["name,value,owner,notes"]
    for n, e in entries(items):
        v = val(e)
        u = unmark(v)
        if any(c in u for c in ',"\n'):
            v = '"' + v.replace('"', '""') + '"'
        out.append(f"{style(n, 'snake')},{v},{pick(PEOPLE).lower()},{pick(COMMENT[lang]).replace(',', ';')}")
    return "\n".join(out) + "\n"


def s_compose(lang, items):
    out = [f"# {pick(COMMENT[lang])}", "services:", f"  {pick(['api', 'worker', 'web'])}:", f"    image: ghcr.io/acme/{pick(['api', 'worker'])}:{R.randrange(1, 9)}.{R.randrange(0, 20)}",
           "    environment:"]  # fmt: skip
    for n, e in entries(items):
        k = style(n, "upper")
        out.append(f"      {k}: |\n        {indent(val(e), '        ')}" if is_ml(e) else f"      {k}: {yq(val(e))}")
    return "\n".join(out) + "\n"


def s_k8s(lang, items):
    out = [f"# {pick(COMMENT[lang])}", "apiVersion: v1", "kind: Secret", "metadata:", f"  name: {pick(['app-secrets', 'billing-env', 'ci-creds'])}",
           f"  namespace: {pick(['prod', 'default', 'payments'])}", "type: Opaque", "stringData:"]  # fmt: skip
    for n, e in entries(items):
        k = style(n, "upper")
        out.append(f"  {k}: |\n    {indent(val(e), '    ')}" if is_ml(e) else f"  {k}: {yq(val(e))}")
    return "\n".join(out) + "\n"


def s_gha(lang, items):
    out = [
        f"# {pick(COMMENT[lang])}",
        f"name: {pick(['deploy', 'release', 'nightly'])}",
        "on: [push]",
        "jobs:",
        "  build:",
        "    runs-on: ubuntu-latest",
        "    env:",
    ]
    for n, e in entries(items):
        k = style(n, "upper")
        out.append(f"      {k}: |\n        {indent(val(e), '        ')}" if is_ml(e) else f"      {k}: {yq(val(e))}")
    return "\n".join([*out, "    steps:", "      - uses: actions/checkout@v4", "      - run: make deploy"]) + "\n"


def s_gitlab(lang, items):
    out = [f"# {pick(COMMENT[lang])}", "variables:"]
    for n, e in entries(items):
        k = style(n, "upper")
        out.append(f"  {k}: |\n    {indent(val(e), '    ')}" if is_ml(e) else f"  {k}: {yq(val(e))}")
    return "\n".join([*out, "", "deploy:", "  stage: deploy", "  script:", "    - ./scripts/deploy.sh"]) + "\n"


def s_nginx(lang, items):
    out = [
        f"# {pick(COMMENT[lang])}",
        "server {",
        "    listen 443 ssl;",
        f"    server_name {pick(['api.example.com', 'hooks.example.net'])};",
        "    location / {",
    ]
    for n, e in entries(items):
        if isinstance(e, Item) and e.hdr and chance(0.6):
            h, pfx = e.hdr.split(": ", 1)
            out.append(f'        proxy_set_header {h} "{pfx}{cq(e.text)}";')
        else:
            out.append(f'        set ${style(n, "snake")} "{cq(val(e))}";')
    return "\n".join([*out, "        proxy_pass http://upstream;", "    }", "}"]) + "\n"


def s_systemd(lang, items):
    out = [
        f"# {pick(COMMENT[lang])}",
        "[Unit]",
        f"Description={pick(['Billing worker', 'API server', 'Sync job'])}",
        "",
        "[Service]",
    ]
    for n, e in entries(items):
        out.append(f'Environment="{style(n, "upper")}={cq(val(e))}"')
    return "\n".join([*out, "ExecStart=/usr/local/bin/app serve", "Restart=on-failure"]) + "\n"


def s_dotfile(lang, items):
    out = [f"# ~/.{pick(['bashrc', 'zshrc', 'profile'])} - {pick(COMMENT[lang])}", "alias ll='ls -alF'"]
    for n, e in entries(items):
        if isinstance(e, Item) and e.ml:
            out.append(f"export {style(n, 'upper')}=\"$(cat <<'EOF'\n{e.text}\nEOF\n)\"")
        else:
            out.append(f"export {style(n, 'upper')}={shq(val(e))}")
    return "\n".join(out) + "\n"


STRUCTURED = {"env": s_env, "json": s_json, "yaml": s_yaml, "toml": s_toml, "ini": s_ini, "properties": s_properties, "xml": s_xml,
              "hcl": s_hcl, "csv": s_csv, "docker_compose": s_compose, "kubernetes": s_k8s, "github_actions": s_gha,
              "gitlab_ci": s_gitlab, "nginx": s_nginx, "systemd": s_systemd, "dotfile": s_dotfile}  # fmt: skip


# ---------------------------------------------------------------- code contexts


def sql_q(t):
    return "'" + t.replace("'", "''") + "'"


def ps_q(t):
    return "'" + t.replace("'", "''") + "'"


def rb_q(t):
    return "'" + t.replace("\\", "\\\\").replace("'", "\\'") + "'"


def c_q(t):
    return '"' + cq(t) + '"'


def kt_q(t):
    return '"' + cq(t).replace("$", "\\$") + '"'


# language: (comment, naming style, single-line template, multi-line template, prologue, epilogue)
CODE = {
    "python": (
        "#",
        "upper",
        "{n} = {q}",
        '{n} = """{v}"""',
        "import os\nimport requests\n",
        "\n\ndef client():\n    return requests.Session()\n",
    ),
    "javascript": (
        "//",
        "camel",
        "const {n} = {q};",
        "const {n} = `{v}`;",
        "import fetch from 'node-fetch';\n",
        "\nexport default { ready: true };\n",
    ),
    "typescript": (
        "//",
        "camel",
        "export const {n}: string = {q};",
        "export const {n} = `{v}`;",
        "import { Client } from './client';\n",
        "\nexport const client = new Client();\n",
    ),
    "go": ("//", "camel", "\t{n} = {q}", "\t{n} = `{v}`", "package config\n\nconst (\n", ")\n"),
    "java": (
        "//",
        "upper",
        "    static final String {n} = {q};",
        '    static final String {n} = """\n{v}""";',
        "public final class Settings {\n",
        "}\n",
    ),
    "kotlin": ("//", "camel", "    const val {n} = {q}", '    val {n} = """{v}"""', "object Settings {\n", "}\n"),
    "ruby": ("#", "upper", "{n} = {q}", "{n} = <<~PEM\n{v}\nPEM", "require 'net/http'\n\nmodule Config\n", "end\n"),
    "php": ("//", "upper", "define('{n}', {q});", "${n} = <<<'KEY'\n{v}\nKEY;", "<?php\n\n", "\nreturn [];\n"),
    "rust": (
        "//",
        "upper",
        "pub const {n}: &str = {q};",
        'pub const {n}: &str = r#"{v}"#;',
        "use std::env;\n\n",
        "\nfn main() {}\n",
    ),
    "csharp": (
        "//",
        "pascal",
        "    public const string {n} = {q};",
        '    public const string {n} = @"{v}";',
        "namespace Acme.Config;\n\npublic static class Secrets\n{\n",
        "}\n",
    ),
    "swift": ("//", "camel", "let {n} = {q}", 'let {n} = """\n{v}\n"""', "import Foundation\n\n", '\nprint("ready")\n'),
    "bash": (
        "#",
        "upper",
        "{n}={q}",
        "read -r -d '' {n} <<'EOF'\n{v}\nEOF",
        "#!/usr/bin/env bash\nset -euo pipefail\n\n",
        '\n./deploy.sh "$@"\n',
    ),
    "powershell": (
        "#",
        "pascal",
        "${n} = {q}",
        "${n} = @'\n{v}\n'@",
        "Set-StrictMode -Version Latest\n\n",
        "\nWrite-Host 'done'\n",
    ),
    "sql": (
        "--",
        "snake",
        "INSERT INTO service_credentials (name, secret) VALUES ('{n}', {q});",
        "INSERT INTO service_credentials (name, secret) VALUES ('{n}', {q});",
        "BEGIN;\n",
        "COMMIT;\n",
    ),
}
QUOTE = {"python": c_q, "javascript": c_q, "typescript": c_q, "go": c_q, "java": c_q, "kotlin": kt_q, "ruby": rb_q, "php": rb_q,
         "rust": c_q, "csharp": c_q, "swift": c_q, "bash": shq, "powershell": ps_q, "sql": sql_q}  # fmt: skip


def code(lang_name):
    def render(lang, items):
        cm, st, one, multi, pro, epi = CODE[lang_name]
        q = QUOTE[lang_name]
        lines = [f"{cm} {pick(COMMENT[lang])}"]
        for it in items:
            n = style(it.name, st)
            if lang_name == "sql" and "password" in it.kind and chance(0.6):
                lines.append(f"ALTER USER {pick(['app', 'reporting', 'etl'])} WITH PASSWORD {sql_q(it.text)};")
            elif it.ml and lang_name != "sql":
                v = it.text.replace('"', '""') if lang_name == "csharp" else it.text
                lines.append(multi.format(n=n, v=v))
            else:
                lines.append(one.format(n=n, q=q(it.text)))
        if lang_name == "go":
            return pro + "\n".join(ln if ln.startswith("\t") else "\t" + ln for ln in lines) + "\n" + epi
        return pro + "\n".join(lines) + "\n" + epi

    return render


CODE_CTX = {k: code(k) for k in CODE}


# ---------------------------------------------------------------- assembly

CONTEXTS = {**{k: ("narrative", f) for k, f in NARRATIVE.items()}, **{k: ("structured", f) for k, f in STRUCTURED.items()},
            **{k: ("code", f) for k, f in CODE_CTX.items()}}  # fmt: skip
LANGS = ["en", "de", "es", "fr", "ja", "pt"]


def wrap_record(body: str) -> str:
    r = R.random()
    if r < 0.12:
        rec = (f'{{"id": "mem_{an(12)}", "type": "memory", "created_at": "{date()}T{clock()}:00Z", '
               f'"tags": ["{pick(["infra", "user", "billing", "ops"])}"], "content": {jq(body)}}}\n')  # fmt: skip
        return rec
    if r < 0.22:
        return f"memory_id: {an(10)}\nsaved: {date()}\ncontent: |\n  " + indent(body.rstrip("\n"), "  ") + "\n"
    if r < 0.38:
        return (
            f"---\ntitle: {pick(['notes', 'session log', 'handover', 'scratch'])}\ndate: {date()}\ntags: [{pick(['work', 'ops', 'personal'])}]\n---\n\n"
            + body
        )
    return body


def extract(marked: str, tab: list[tuple[str, bool]]):
    out, spans, stack, seen = [], [], [], []
    pos = 0
    for c in marked:
        o = ord(c)
        if OPEN0 <= o < OPEN0 + 4096:
            if stack:
                raise ValueError("nested marker")
            stack.append((o - OPEN0, pos))
        elif c == CLOSE:
            if not stack:
                raise ValueError("stray close marker")
            idx, start = stack.pop()
            spans.append((idx, start, pos))
            seen.append(idx)
        else:
            out.append(c)
            pos += 1
    if stack:
        raise ValueError("unclosed marker")
    if sorted(seen) != list(range(len(tab))):
        raise ValueError(f"marker count mismatch {sorted(seen)} vs {len(tab)}")
    text = "".join(out)
    secrets, looks = [], []
    for idx, a, b in sorted(spans, key=lambda x: x[1]):
        kind, sec = tab[idx]
        (secrets if sec else looks).append({"kind": kind, "value": text[a:b], "start": a, "end": b})
    return text, secrets, looks


def unlabelled_secret(text: str, secrets: list[dict]) -> bool:
    starts = {(x["start"], x["value"]) for x in secrets}
    for x in secrets:
        i = text.find(x["value"])
        while i != -1:
            if (i, x["value"]) not in starts:
                return True
            i = text.find(x["value"], i + 1)
    return False


def plan():
    ctx_names = list(CONTEXTS)
    ctxs = [ctx_names[i % len(ctx_names)] for i in range(N_DOCS)]
    R.shuffle(ctxs)
    by_ctx: dict[str, list[int]] = {}
    for i, c in enumerate(ctxs):
        by_ctx.setdefault(c, []).append(i)
    has_secret = [False] * N_DOCS
    for c in ctx_names:
        idxs = by_ctx[c]
        for j in idxs[: (len(idxs) + R.randrange(2)) // 2]:
            has_secret[j] = True
    langs = [("en" if R.random() < 0.66 else pick(LANGS[1:])) for _ in range(N_DOCS)]
    secret_docs = [i for i in range(N_DOCS) if has_secret[i]]
    plain_docs = [i for i in range(N_DOCS) if not has_secret[i]]
    deck = [k for k in SECRETS for _ in range(SECRET_QUOTA)]
    R.shuffle(deck)
    sk: list[list[str]] = [[] for _ in range(N_DOCS)]
    for j, d in enumerate(secret_docs):
        sk[d].append(deck[j])
    for k in deck[len(secret_docs) :]:
        sk[pick(secret_docs)].append(k)
    ldeck = [k for k in LOOKS for _ in range(LOOK_QUOTA)]
    R.shuffle(ldeck)
    lks: list[list[str]] = [[] for _ in range(N_DOCS)]
    for j, d in enumerate(plain_docs):
        lks[d].append(ldeck[j])
    for k in ldeck[len(plain_docs) :]:
        lks[R.randrange(N_DOCS)].append(k)
    return ctxs, langs, sk, lks


def build():
    ctxs, langs, sk, lks = plan()
    docs = []
    for i in range(N_DOCS):
        ctx, lang = ctxs[i], langs[i]
        family, fn = CONTEXTS[ctx]
        for _attempt in range(50):
            d = Doc()
            groups = [d.items(SECRETS[k]) for k in sk[i]] + [d.items(LOOKS[k]) for k in lks[i]]
            R.shuffle(groups)
            body = fn(lang, [it for g in groups for it in g])
            if family == "narrative":
                body = wrap_record(body)
            text, secrets, looks = extract(body, d.tab)
            if not unlabelled_secret(text, secrets):
                break
        else:
            raise RuntimeError(f"could not render document {i} without an unlabelled secret")
        docs.append(
            {
                "id": f"blind9-{i + 1:04d}",
                "context": ctx,
                "text": text,
                "secrets": secrets,
                "lookalikes": looks,
                "_lang": lang,
            }
        )
    return docs


# ---------------------------------------------------------------- checks and output


def all_kind_stats(docs, key):
    stats: dict[str, tuple[int, list[str]]] = {}
    for d in docs:
        for x in d[key]:
            n, cs = stats.get(x["kind"], (0, []))
            if d["context"] not in cs:
                cs = [*cs, d["context"]]
            stats[x["kind"]] = (n + 1, cs)
    return stats


def check_doc(d) -> None:
    t = d["text"]
    spans = sorted(d["secrets"] + d["lookalikes"], key=lambda x: x["start"])
    if not spans:
        raise ValueError(f"{d['id']}: no labelled value")
    for lst in (d["secrets"], d["lookalikes"]):
        if [x["start"] for x in lst] != sorted(x["start"] for x in lst):
            raise ValueError(f"{d['id']}: list not sorted")
    for x in spans:
        if t[x["start"] : x["end"]] != x["value"] or not x["value"]:
            raise ValueError(f"{d['id']}: span does not slice its value")
    for a, b in itertools.pairwise(spans):
        if b["start"] < a["end"]:
            raise ValueError(f"{d['id']}: overlapping spans")
    if unlabelled_secret(t, d["secrets"]):
        raise ValueError(f"{d['id']}: labelled secret also occurs unlabelled")


def verify(docs) -> dict:
    ids = [d["id"] for d in docs]
    if len(ids) != len(dict.fromkeys(ids)) or len(docs) != N_DOCS:
        raise ValueError("ids not unique or wrong document count")
    for d in docs:
        check_doc(d)
    n_sec = sum(1 for d in docs if d["secrets"])
    if not 0.45 <= n_sec / len(docs) <= 0.55:
        raise ValueError(f"secret document share {n_sec / len(docs):.3f} out of range")
    sst = all_kind_stats(docs, "secrets")
    lst = all_kind_stats(docs, "lookalikes")
    if len(sst) < 110 or len(lst) < 40:
        raise ValueError("too few kinds")
    for k, (n, cs) in sst.items():
        if n < MIN_SECRET_EXAMPLES or len(cs) < MIN_SECRET_CONTEXTS:
            raise ValueError(f"secret kind {k}: {n} examples in {len(cs)} contexts")
    for k, (n, _cs) in lst.items():
        if n < MIN_LOOK_EXAMPLES:
            raise ValueError(f"look-alike kind {k}: {n} examples")
    en = sum(1 for d in docs if d["_lang"] == "en")
    if en / len(docs) < 0.6:
        raise ValueError("fewer than 60% English documents")
    en_phr = len(dict.fromkeys(EN_SAY))
    if en_phr < 40:
        raise ValueError("fewer than 40 English phrasings")
    return {"n_sec": n_sec, "sst": sst, "lst": lst, "en": en}


def kind_fmt(kind: str) -> tuple[str, bool]:
    if kind in SECRETS:
        return SECRETS[kind].fmt, SECRETS[kind].common
    return EXTRA_FMT[kind], EXTRA_COMMON[kind]


README_HEAD = """# secrets_blind_v9

A held-out, labelled test corpus for the secret-detection engine, written blind to it: {n} documents of the kind an AI assistant keeps in its `/memories` folder. Narrative notes (journals, chats, meeting notes, checklists, notes about the user, debugging diaries, post-mortems, runbooks, wiki pages, tickets, scratch notes with hard-wrapped tokens, terminal sessions, shell history, CI logs, Python tracebacks with locals, emails with `> ` quoted replies, code reviews with diff hunks) sit next to structured files (`.env`, JSON, YAML, TOML, INI, properties, XML, HCL, CSV, Compose, Kubernetes Secrets, GitHub Actions, GitLab CI, nginx, systemd units, shell dotfiles) and code in fourteen languages (Python, JavaScript, TypeScript, Go, Java, Kotlin, Ruby, PHP, Rust, C#, Swift, bash, PowerShell, SQL). Each document lists the secrets it holds (to be reported) and the look-alikes it holds (public values that must not be reported).

## How it was built

- Generator: [`../make_blind_secrets_v9.py`](../make_blind_secrets_v9.py), Python 3.11 standard library only, one `random.Random(20270509)`; no clock, environment or system randomness is read, no set is iterated while writing, and `PYTHONHASHSEED` does not change the output.
- Regenerate with `python3 tests/corpora/make_blind_secrets_v9.py` (or `--out DIR`). A run takes about a second.
- Each value is wrapped in private-use marker characters when it is generated (the opening marker's code point indexes a per-document table of kind and secret / look-alike flag). Escaping and framing (JSON strings, YAML block scalars, INI continuation indentation, properties and systemd / nginx `\\n` escapes, CSV quote doubling, XML entities, C-like, Kotlin, Ruby, PHP, PowerShell and SQL literals, C# verbatim strings, `> ` email quoting, `+` diff prefixes, hard wrapping, memory-record framing) is applied to the marked text; the offsets are read off the final text as the markers are stripped. A nested, stray or unclosed marker, or a value that a renderer dropped or duplicated, raises.
- A document in which a labelled secret also occurs unlabelled is rendered again with fresh values.
- Before writing, the script checks: every span slices out its value, both lists are sorted, no two spans overlap, ids are unique, every document has a labelled value, no labelled secret occurs unlabelled, 45-55% of documents hold a secret, at least 110 secret kinds with at least 15 examples each in at least 8 contexts, at least 40 look-alike kinds with at least 30 examples each, at least 60% English documents, at least 40 English phrasings. After writing, `corpus.jsonl` is read back and its SHA-256 compared with `SHA256SUMS`. Any failure raises.
- Written blind. I read `tests/corpora/secrets_blind_v8/README.md` (allowed by the brief) for the file format, the labelling conventions and the README layout, and the ruff section of `pyproject.toml`. Nothing else under `tests/` (apart from this generator and the files it writes) and nothing under `sandbox/`, `policies/`, `bench/` or `docs/` was opened, listed, grepped or run; no other file under `tests/corpora/` was opened and that directory was not listed (I only checked with `ls` that the two v9 paths did not exist yet); no git command was run; the `sandbox` package was never imported and no scanner of the project was run. Every template, phrase and filler sentence was written for this corpus; token formats come from providers' public documentation as I know it. The kind mix is my own (it adds, among others, Slack app tokens, GitLab deploy tokens, Azure OpenAI, DeepSeek, PayPal, FCM, Auth0, Supabase service-role keys, Mapbox secret tokens, Datadog application keys, Firebase CI tokens and a dozen less common providers); where a provider also appears in v8's table I kept v8's kind name, except that Google OAuth client secrets are `google_oauth_client_secret` here and PlanetScale values are `pscale_pw_` passwords (`planetscale_password`).
- Structure where the format allows: GitHub `ghp_` / `ghs_`... and npm tokens end in the base62 CRC32 of their random part; PyPI tokens are v2 macaroons (location `pypi.org`) with an HMAC chain; JWTs (and Supabase keys) carry real HS256 signatures; age identities and recipients and bitcoin addresses are valid bech32; WIF keys are valid base58check; RSA, EC keys, public keys and certificates are DER-correct structures with random contents (not working key pairs); OpenSSH keys follow the `openssh-key-v1` layout; PGP blocks carry a correct CRC-24 line; 1Password service tokens are base64url JSON; IBANs and ISBNs have valid check digits; test card numbers are the ones payment docs publish.

## File format

`corpus.jsonl`: one JSON object per line, UTF-8, `ensure_ascii=False`, keys in this order:

```json
{{"id": "blind9-0001", "context": "journal", "text": "...", "secrets": [{{"kind": "...", "value": "...", "start": 0, "end": 0}}], "lookalikes": []}}
```

- `start` / `end` are Python code-point offsets into `text`, `text[start:end] == value`; each list is sorted by `start`; no two spans of a document overlap (both lists together).
- `context` names the shape of the document (table below). About 12% of narrative documents are wrapped as a JSON memory record (the body is one JSON string), 10% as a YAML record (body in an indented block scalar) and 16% carry front matter. Structured and code files carry a comment (CSV: a notes column) in the document's language.

## Labelling

- Only the sensitive part is labelled: the password inside a DSN, URL, JDBC / ADO.NET / libpq / Go DSN string (not user or host); the `sig=` value of an Azure SAS URL; the `AccountKey=` of an Azure connection string; the secret in `cloudinary://key:secret@cloud`; the credential after `Bearer `, `Basic `, `Bot `, `SSWS `, `Token `, `Token token=`, `Api-Token `, `Api-Key `, `ApiKey `, `ShippoToken `, `key=` and in `x-api-key`-style headers; the cookie value after `name=`; the private key inside a service-account JSON (with its `\\n` escapes). Slack, Discord and Teams webhook URLs are labelled whole. PEM, OpenSSH and PGP keys are labelled from their first to their last line.
- Key ids that travel with their secret are secrets too: AWS `AKIA` / `ASIA`, Alibaba `LTAI`, Scaleway `SCW`, Confluent Cloud keys. Companions that are not secret are look-alikes: Twilio `AC` SIDs, Algolia app ids, Plivo auth ids, `rzp_live_` key ids (all `account_identifier`), Firebase web config keys, Supabase anon keys.
- A value is labelled exactly as it appears: inside JSON (a JSON file, a JSON snippet in a note or a JSON-framed memory record) it keeps its escapes; in a YAML block scalar, an INI continuation, an indented runbook step or a YAML-framed record it keeps the indentation of its continuation lines; in a quoted email reply it keeps the `> ` prefixes; in a diff it keeps the `+` prefixes; in XML it keeps entity escapes; in CSV it keeps doubled quotes; in properties files, systemd / nginx strings, C-like string literals and traceback locals a line break is `\\n` and quotes and backslashes keep their escapes; SQL, PowerShell and C# verbatim literals keep doubled quotes; a token hard-wrapped in a scratch note keeps its newlines.
"""


def readme(docs, st, digest: str) -> str:
    ctx_fam = {k: v[0] for k, v in CONTEXTS.items()}
    n_sec_spans = sum(len(d["secrets"]) for d in docs)
    n_look_spans = sum(len(d["lookalikes"]) for d in docs)
    nar = sum(1 for d in docs for x in d["secrets"] if ctx_fam[d["context"]] == "narrative")
    multi = sum(1 for d in docs for x in d["secrets"] if "\n" in x["value"])
    lens = sorted(len(d["text"]) for d in docs)
    nonascii = sum(1 for d in docs if any(ord(c) > 127 for c in d["text"]))
    lang_n: dict[str, int] = {}
    for d in docs:
        lang_n[d["_lang"]] = lang_n.get(d["_lang"], 0) + 1
    lang_names = {
        "en": "English",
        "de": "German",
        "es": "Spanish",
        "fr": "French",
        "ja": "Japanese",
        "pt": "Portuguese",
    }
    sst, lst = st["sst"], st["lst"]
    common = sum(1 for k in sst if kind_fmt(k)[1])
    out = README_HEAD.format(n=f"{len(docs):,}")
    out += (f"- {nar:,} secret spans sit in narrative documents, many in bare prose; {multi} secret spans run over several lines.\n\n"
            "## Numbers\n\n"
            f"- {len(docs):,} documents; {st['n_sec']} ({100 * st['n_sec'] / len(docs):.0f}%) hold at least one secret; "
            f"{sum(1 for d in docs if d['lookalikes'])} hold look-alikes; every document has at least one labelled value.\n"
            f"- {n_sec_spans:,} secret spans over {len(sst)} kinds (at least {min(n for n, _ in sst.values())} each, each kind in at least "
            f"{min(len(c) for _, c in sst.values())} contexts); {common} kinds are ones I consider common in memory files (marked *common*), "
            f"the other {len(sst) - common} less common providers.\n"
            f"- {n_look_spans:,} look-alike spans over {len(lst)} kinds (at least {min(n for n, _ in lst.values())} each).\n"
            f"- Length: {lens[0]} to {lens[-1]:,} characters, median {lens[len(lens) // 2]}; {nonascii} documents contain non-ASCII text.\n"
            f"- {len(CONTEXTS)} contexts; prose and comments in {len(lang_n)} languages: "
            + ", ".join(f"{lang_names[k]} {v}" for k, v in sorted(lang_n.items(), key=lambda kv: -kv[1]))
            + f"; {len(EN_SAY)} English phrasings introduce a secret in prose.\n\n"
            "## Secret kinds\n\n| kind | format | examples | contexts |\n| --- | --- | ---: | ---: |\n")  # fmt: skip
    for k in sorted(sst):
        fmt, com = kind_fmt(k)
        out += f"| `{k}`{' *common*' if com else ''} | {fmt} | {sst[k][0]} | {len(sst[k][1])} |\n"
    out += "\n## Look-alike kinds\n\n| kind | what | examples | contexts |\n| --- | --- | ---: | ---: |\n"
    for k in sorted(lst):
        out += f"| `{k}` | {LOOKS[k].fmt} | {lst[k][0]} | {len(lst[k][1])} |\n"
    out += "\n## Contexts\n\n| context | family | documents | with secrets |\n| --- | --- | ---: | ---: |\n"
    for c in sorted(CONTEXTS):
        ds = [d for d in docs if d["context"] == c]
        out += f"| `{c}` | {ctx_fam[c]} | {len(ds)} | {sum(1 for d in ds if d['secrets'])} |\n"
    out += f"\n## Checksum\n\n`SHA256SUMS`:\n\n```\n{digest}  corpus.jsonl\n```\n"
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "secrets_blind_v9"))
    args = ap.parse_args()
    docs = build()
    st = verify(docs)
    lines = [
        json.dumps({k: d[k] for k in ("id", "context", "text", "secrets", "lookalikes")}, ensure_ascii=False)
        for d in docs
    ]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    digest = hashlib.sha256(data).hexdigest()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "corpus.jsonl").write_bytes(data)
    (out / "SHA256SUMS").write_text(f"{digest}  corpus.jsonl\n", encoding="utf-8")
    (out / "README.md").write_text(readme(docs, st, digest), encoding="utf-8")
    back = (out / "corpus.jsonl").read_bytes()
    if hashlib.sha256(back).hexdigest() != (out / "SHA256SUMS").read_text(encoding="utf-8").split()[0]:
        raise RuntimeError("corpus.jsonl does not match SHA256SUMS")
    for ln, d in zip(back.decode("utf-8").splitlines(), docs, strict=True):
        rec = json.loads(ln)
        for x in rec["secrets"] + rec["lookalikes"]:
            if rec["text"][x["start"] : x["end"]] != x["value"] or rec["id"] != d["id"]:
                raise RuntimeError("re-read span mismatch")
    print(f"wrote {len(docs)} documents to {out} (sha256 {digest})")


if __name__ == "__main__":
    main()
