"""Keys of the audit log: who signs checkpoints, who can check them, and the digest key.

Checkpoints are signed with Ed25519 (``cryptography``) when a key pair is used: the
private key signs, and reviewers verify with the public key alone. A plain secret
key signs with HMAC-SHA256 instead, and verifying then needs the same key. Keys
live in files: ``<log>.key`` (mode 0o600, created on first use) and, for Ed25519,
``<log>.pub`` for reviewers. Keep the private key away from anyone who could
rewrite the log, or the signatures prove nothing.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from sandbox.errors import KeyRefused, SandboxError
from sandbox.storage._fs import publish_once

__all__ = ["Signer", "Verifier", "load_signer", "load_verifier", "public_key", "review_verifier"]

_HMAC_PREFIX: Final = b"hmac-sha256:"


@dataclass(frozen=True)
class Signer:
    """Signs checkpoints; also keys the digests of raw paths and written text."""

    kind: str
    key_id: str
    _private: Ed25519PrivateKey | None
    _secret: bytes

    def sign(self, payload: bytes) -> str:
        if self._private is not None:
            return base64.b64encode(self._private.sign(payload)).decode("ascii")
        return hmac.new(self._secret, payload, hashlib.sha256).hexdigest()

    def digest(self, data: bytes) -> str:
        """A keyed digest: equal inputs match across records, but no input can be guessed from it."""
        return hmac.new(self._secret, data, hashlib.sha256).hexdigest()

    def public_text(self) -> str | None:
        """The raw Ed25519 public key in base64, as a rotation record announces it; None for HMAC."""
        if self._private is None:
            return None
        raw = self._private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        return base64.b64encode(raw).decode("ascii")

    def verifier(self) -> Verifier:
        if self._private is not None:
            return Verifier(self.kind, self.key_id, self._private.public_key(), b"")
        return Verifier(self.kind, self.key_id, None, self._secret)


@dataclass(frozen=True)
class Verifier:
    """Checks checkpoint signatures."""

    kind: str
    key_id: str
    _public: Ed25519PublicKey | None
    _secret: bytes

    def verify(self, payload: bytes, signature: str) -> bool:
        if self._public is not None:
            try:
                self._public.verify(base64.b64decode(signature, validate=True), payload)
            except (InvalidSignature, ValueError):
                return False
            return True
        expected = hmac.new(self._secret, payload, hashlib.sha256).hexdigest()
        return hmac.compare_digest(expected, signature)


def announced_verifier(kind: object, key_id: object, public_text: object) -> Verifier | None:
    """The verifier of a key a rotation record announces; None unless it is a well-formed Ed25519
    key whose id is the one the record names."""
    if kind != "ed25519" or not isinstance(public_text, str) or not isinstance(key_id, str):
        return None
    try:
        raw = base64.b64decode(public_text, validate=True)
        public = Ed25519PublicKey.from_public_bytes(raw)
    except ValueError:
        return None
    return Verifier("ed25519", key_id, public, b"") if _key_id(raw) == key_id else None


def new_key_file(key_file: Path) -> Path:
    """A fresh Ed25519 private key in a new file beside ``key_file`` (mode 0o600), for a rotation."""
    fresh = Ed25519PrivateKey.generate()
    path = key_file.with_name(f".{key_file.name}.next-{secrets.token_hex(4)}")
    pem = fresh.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(pem)
        out.flush()
        os.fsync(out.fileno())
    return path


def _key_id(material: bytes) -> str:
    return hashlib.sha256(material).hexdigest()[:16]


def load_signer(key_file: Path) -> Signer:
    """The signer kept in ``key_file``; a new Ed25519 key pair is made there if the file is missing."""
    if not key_file.exists():
        fresh = Ed25519PrivateKey.generate()
        publish_once(
            key_file,
            fresh.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
            ),
        )
    data = _read_key(key_file)
    if data.startswith(_HMAC_PREFIX):
        secret = bytes.fromhex(data[len(_HMAC_PREFIX) :].strip().decode("ascii"))
        return Signer("hmac", _key_id(secret), None, secret)
    try:
        loaded = serialization.load_pem_private_key(data, password=None)
    except ValueError:
        raise SandboxError(f"Error: {key_file.name} is not an audit key") from None
    if not isinstance(loaded, Ed25519PrivateKey):
        raise SandboxError(f"Error: {key_file.name} is not an Ed25519 key")
    private = loaded
    public_file = key_file.with_suffix(".pub")
    if not public_file.exists():
        pem = private.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
        publish_once(public_file, pem)
    raw = private.private_bytes(
        serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
    )
    public = private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    # The digest key is derived, so one key file serves both purposes.
    secret = hashlib.sha256(b"memory-sandbox audit digest key\x00" + raw).digest()
    return Signer("ed25519", _key_id(public), private, secret)


def load_verifier(key_file: Path) -> Verifier:
    """A verifier from a public key file (``<log>.pub``), a private key file, or an HMAC key file."""
    data = _read_key(key_file)
    if data.startswith(_HMAC_PREFIX) or b"PRIVATE KEY" in data:
        return load_signer(key_file).verifier()
    try:
        public = serialization.load_pem_public_key(data)
    except ValueError:
        raise SandboxError(f"Error: {key_file.name} is not an audit key") from None
    if not isinstance(public, Ed25519PublicKey):
        raise SandboxError(f"Error: {key_file.name} is not an Ed25519 public key")
    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return Verifier("ed25519", _key_id(raw), public, b"")


def review_verifier(key_file: Path) -> Verifier:
    """The verifier a reviewer uses: from an Ed25519 public key, or from an HMAC log's shared key.

    An Ed25519 *private* key is refused: whoever holds it can forge checkpoints, so it stays with
    the log's writer, and verification must not depend on it (nor write a ``.pub`` as a side effect).
    A missing or unreadable key file is refused too (exit 2 on the command line, never "tampered").
    """
    data = _read_key(key_file)
    if b"PRIVATE KEY" in data:
        raise KeyRefused(
            f"Error: {key_file.name} is a private key; verify with the public key (.pub), which alone reviewers need"
        )
    return load_verifier(key_file)


def public_key(key_file: Path) -> bytes:
    """The file's Ed25519 public key (PEM), to hand to others; refuse a private or secret key, which
    must never leave where the operator keeps it (a bundle, say)."""
    data = _read_key(key_file)
    if data.startswith(_HMAC_PREFIX) or b"PRIVATE KEY" in data:
        raise KeyRefused(
            f"Error: {key_file.name} is a private or secret key; give the public key (.pub), which alone may be shared"
        )
    load_verifier(key_file)  # an Ed25519 public key, or a clear error
    return data


def _read_key(key_file: Path) -> bytes:
    try:
        return key_file.read_bytes()
    except FileNotFoundError:
        raise KeyRefused(f"Error: no audit key at {key_file.name}") from None
    except OSError as exc:
        raise KeyRefused(f"Error: cannot read audit key {key_file.name} ({type(exc).__name__})") from None
