"""Streamable HTTP for ``memory-sandbox mcp --http``, behind bearer tokens.

Tokens come from a file (``token = "scope"`` pairs in a ``[tokens]`` table) or from
one environment variable for a server with one scope. The gate compares SHA-256
digests (``hmac.compare_digest``), answers 401 to anything else, and puts the scope
the token grants into the request, where :class:`~sandbox.mcp.server.MemoryServer`
reads it. Without tokens the server only listens on a loopback address.
Configuration problems raise ValueError, which the CLI shows as one line (exit 2).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import os
import socket
import stat
import sys
import tomllib
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any, Final

import uvicorn

from sandbox.mcp.server import SCOPE_KEY, MemoryServer

__all__ = ["MIN_TOKEN_CHARS", "BearerGate", "check_token", "is_loopback", "load_token_file", "serve_http"]

#: Shorter tokens are refused: a bearer token is the only thing between the network and the memory.
MIN_TOKEN_CHARS: Final = 24

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


def check_token(token: str, where: str) -> str:
    if len(token) < MIN_TOKEN_CHARS or token != token.strip():
        raise ValueError(f"{where}: a bearer token needs at least {MIN_TOKEN_CHARS} characters and no spaces")
    return token


def load_token_file(path: Path) -> dict[str, str]:
    """token -> scope from a TOML file only its owner can read."""
    try:
        st = os.stat(path)
        if st.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise ValueError(f"{path.name}: the token file is readable by others; chmod 600 it")
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"cannot read the token file {path.name}: {type(exc).__name__}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path.name} is not valid TOML: {exc}") from None
    tokens = data.get("tokens")
    if not isinstance(tokens, dict) or not tokens or set(data) != {"tokens"}:
        raise ValueError(f'{path.name}: expected one [tokens] table of "TOKEN" = "SCOPE" pairs')
    for token, scope in tokens.items():
        check_token(token, path.name)
        if not isinstance(scope, str) or not scope:
            raise ValueError(f"{path.name}: every token maps to a scope name")
    return dict(tokens)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class BearerGate:
    """ASGI middleware: a request without a known bearer token gets 401; a known one its scope."""

    def __init__(self, app: App, tokens: dict[str, str | None]) -> None:
        self._app = app
        self._scopes = [(_digest(token), scope) for token, scope in tokens.items()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)  # lifespan events carry no request
            return
        granted = self._granted(scope)
        if granted is None:
            await _unauthorized(send)
            return
        await self._app({**scope, SCOPE_KEY: granted[0]}, receive, send)

    def _granted(self, scope: Scope) -> tuple[str | None] | None:
        values = [value for name, value in scope.get("headers", ()) if name.lower() == b"authorization"]
        if len(values) != 1:
            return None
        kind, _, token = values[0].decode("latin-1").partition(" ")
        if kind.lower() != "bearer" or not token:
            return None
        digest = _digest(token.strip())
        granted = None
        for known, its_scope in self._scopes:  # every token compared, each in constant time
            if hmac.compare_digest(known, digest):
                granted = (its_scope,)
        return granted


async def _unauthorized(send: Send) -> None:
    body = b'{"error": "unauthorized", "error_description": "a valid bearer token is required"}'
    await send({
        "type": "http.response.start",
        "status": 401,
        "headers": [(b"content-type", b"application/json"), (b"www-authenticate", b'Bearer realm="memory-sandbox"'),
                    (b"content-length", str(len(body)).encode())],
    })  # fmt: skip
    await send({"type": "http.response.body", "body": body})


def serve_http(memory: MemoryServer, *, host: str, port: int, tokens: dict[str, str | None] | None) -> None:
    """Serve until interrupted; print the address once listening (port 0 picks a free one)."""
    if not tokens and not is_loopback(host):
        raise ValueError(
            f"refusing to serve {host} without bearer tokens: set --token-file or MEMORY_SANDBOX_MCP_TOKEN"
        )
    app: App = memory.server.streamable_http_app(host=host)
    if tokens:
        app = BearerGate(app, tokens)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((host, port))
    # Listening before the address is printed: a client that reads it may connect at once (the kernel
    # queues it until the server has started).
    listener.listen(128)
    bound = listener.getsockname()[1]
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    print(f"memory-sandbox mcp: serving http://{shown}:{bound}/mcp", file=sys.stderr, flush=True)
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    uvicorn.Server(config).run(sockets=[listener])
