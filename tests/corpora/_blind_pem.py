"""Multi-line key material for the blind corpus: PEM, OpenSSH and OpenPGP armor, service account JSON.

The DER and wire-format headers are the real ones (ASN.1 sequence lengths, algorithm OIDs, the
openssh-key-v1 layout, OpenPGP packet tags and the armor's CRC24), so the base64 text starts the
way real keys start; the key bytes themselves are random.
"""

from __future__ import annotations

import base64
import json
import random

from _blind_common import DIGITS, HEX, Piece, b64, crc24, mark, plain, rand

__all__ = [
    "gcp_service_account",
    "pem_certificate",
    "pem_private_key",
    "pem_public_key",
    "pgp_private_block",
    "ssh_public_key",
]

_RSA_OID = bytes.fromhex("300d06092a864886f70d0101010500")


def _wrap(text: str, width: int) -> str:
    return "\n".join(text[i : i + width] for i in range(0, len(text), width))


def _pem(label: str, der: bytes) -> str:
    return f"-----BEGIN {label}-----\n{_wrap(b64(der), 64)}\n-----END {label}-----"


def _rsa_pkcs1(rng: random.Random) -> bytes:
    # RSAPrivateKey ::= SEQUENCE { version 0, n (2048 bits), e 65537, d, p, q, dp, dq, qinv }
    body_len = rng.choice([0x4A2, 0x4A3, 0x4A4, 0x4A5])
    head = b"\x02\x01\x00\x02\x82\x01\x01\x00" + bytes([rng.randint(0xC0, 0xFF)]) + rng.randbytes(255)
    head += b"\x02\x03\x01\x00\x01\x02\x82\x01\x00" + rng.randbytes(256)
    return b"\x30\x82" + body_len.to_bytes(2, "big") + head + rng.randbytes(body_len - len(head))


def _ssh_string(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


def _openssh_ed25519(rng: random.Random) -> str:
    public = rng.randbytes(32)
    pub_blob = _ssh_string(b"ssh-ed25519") + _ssh_string(public)
    check = rng.randbytes(4)
    comment = rng.choice([b"deploy@ci", b"jane@laptop", b"backup-bot", b"ops@bastion-01"])
    private = check + check + pub_blob + _ssh_string(rng.randbytes(32) + public) + _ssh_string(comment)
    private += bytes(range(1, 1 + (-len(private)) % 8))
    blob = b"openssh-key-v1\x00" + _ssh_string(b"none") + _ssh_string(b"none") + _ssh_string(b"")
    blob += (1).to_bytes(4, "big") + _ssh_string(pub_blob) + _ssh_string(private)
    return f"-----BEGIN OPENSSH PRIVATE KEY-----\n{_wrap(b64(blob), 70)}\n-----END OPENSSH PRIVATE KEY-----"


def pem_private_key(rng: random.Random, kind: str) -> str:
    if kind == "rsa_private_key":
        return _pem("RSA PRIVATE KEY", _rsa_pkcs1(rng))
    if kind == "ec_private_key":
        der = (
            b"\x30\x77\x02\x01\x01\x04\x20"
            + rng.randbytes(32)
            + bytes.fromhex("a00a06082a8648ce3d030107a144034200")
            + b"\x04"
            + rng.randbytes(64)
        )
        return _pem("EC PRIVATE KEY", der)
    if kind == "openssh_private_key":
        return _openssh_ed25519(rng)
    if rng.random() < 0.6:
        inner = _rsa_pkcs1(rng)
        body = b"\x02\x01\x00" + _RSA_OID + b"\x04\x82" + len(inner).to_bytes(2, "big") + inner
        return _pem("PRIVATE KEY", b"\x30\x82" + len(body).to_bytes(2, "big") + body)
    return _pem("PRIVATE KEY", bytes.fromhex("302e020100300506032b657004220420") + rng.randbytes(32))


def pgp_private_block(rng: random.Random) -> str:
    # Secret-Key packet (tag 5, EdDSA/Ed25519), User ID (tag 13), signature, secret subkey, signature.
    name = rng.choice(
        ["Release Signing <release@acme.io>", "Dana Ortiz <dana@example.org>", "Backup Key <backup@corp.local>"]
    ).encode()
    key = (
        b"\x94\x58\x04"
        + rng.randbytes(4)
        + b"\x16\x09\x2b\x06\x01\x04\x01\xda\x47\x0f\x01\x01\x07\x40"
        + rng.randbytes(72)
    )
    uid = b"\xb4" + bytes([len(name)]) + name
    sig1 = b"\x88\x90" + rng.randbytes(0x90)
    sub = b"\x9c\x5d\x04" + rng.randbytes(0x5C)
    sig2 = b"\x88\x78" + rng.randbytes(0x78)
    raw = key + uid + sig1 + sub + sig2
    checksum = base64.b64encode(crc24(raw).to_bytes(3, "big")).decode()
    comment = "Comment: exported for CI\n" if rng.random() < 0.3 else ""
    return f"-----BEGIN PGP PRIVATE KEY BLOCK-----\n{comment}\n{_wrap(b64(raw), 64)}\n={checksum}\n-----END PGP PRIVATE KEY BLOCK-----"


def gcp_service_account(rng: random.Random, role: str, kind: str) -> list[Piece]:
    """A service account key file, pretty-printed; only the private_key string is marked."""
    project = rng.choice(["acme-prod", "billing-staging", "data-lake-3321", "ml-training"]) + "-" + rand(rng, DIGITS, 6)
    account = rng.choice(["deployer", "ci-runner", "bigquery-export", "terraform"])
    key_json = json.dumps(pem_private_key(rng, "pkcs8_private_key") + "\n")[1:-1]
    head = json.dumps(
        {
            "type": "service_account",
            "project_id": project,
            "private_key_id": rand(rng, HEX, 40),
            "private_key": "@@KEY@@",
        },
        indent=2,
    )
    before, after_key = head.split("@@KEY@@")
    after_key = after_key.rstrip("\n}").rstrip()
    tail = {
        "client_email": f"{account}@{project}.iam.gserviceaccount.com",
        "client_id": rand(rng, DIGITS, 21),
        "auth_uri": "https://accounts.google.com/o/oauth2/auth",
        "token_uri": "https://oauth2.googleapis.com/token",
        "universe_domain": "googleapis.com",
    }
    rest = json.dumps(tail, indent=2)[1:]
    return [plain(before), mark(role, kind, key_json), plain(after_key + "," + rest)]


def ssh_public_key(rng: random.Random) -> str:
    comment = rng.choice(["jane@laptop", "deploy@ci", "ops@bastion-01", "marco@workstation"])
    if rng.random() < 0.5:
        blob = _ssh_string(b"ssh-ed25519") + _ssh_string(rng.randbytes(32))
        return f"ssh-ed25519 {b64(blob)} {comment}"
    modulus = b"\x00" + bytes([rng.randint(0xC0, 0xFF)]) + rng.randbytes(255)
    blob = _ssh_string(b"ssh-rsa") + _ssh_string(b"\x01\x00\x01") + _ssh_string(modulus)
    return f"ssh-rsa {b64(blob)} {comment}"


def pem_public_key(rng: random.Random) -> str:
    modulus = b"\x00" + bytes([rng.randint(0xC0, 0xFF)]) + rng.randbytes(255)
    rsa = b"\x30\x82\x01\x0a\x02\x82\x01\x01" + modulus + b"\x02\x03\x01\x00\x01"
    spki = _RSA_OID + b"\x03\x82\x01\x0f\x00" + rsa
    return _pem("PUBLIC KEY", b"\x30\x82\x01\x22" + spki)


def pem_certificate(rng: random.Random) -> str:
    length = rng.randint(0x380, 0x520)
    tbs_len = length - 0x120
    der = b"\x30\x82" + length.to_bytes(2, "big") + b"\x30\x82" + tbs_len.to_bytes(2, "big")
    der += b"\xa0\x03\x02\x01\x02\x02\x14" + rng.randbytes(20) + rng.randbytes(length - 4 - 27)
    return _pem("CERTIFICATE", der)
