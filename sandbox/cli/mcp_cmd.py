"""``memory-sandbox mcp``: the sandboxed memory as an MCP server (stdio, or streamable HTTP).

The ``mcp`` SDK is imported only when the command runs, so the other commands work
without the ``mcp`` extra installed.
"""

from __future__ import annotations

import argparse
import os
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Final

from sandbox.cli.common import add_store_options, checked_store, open_sandbox, policy_from
from sandbox.cli.exits import UsageError

if TYPE_CHECKING:
    from sandbox.pipeline import Sandbox

__all__ = ["TOKEN_ENV", "add_mcp_command"]

#: One bearer token for an HTTP server with one scope (tokens never go on a command line).
TOKEN_ENV: Final = "MEMORY_SANDBOX_MCP_TOKEN"  # noqa: S105 - the variable's name, not a token


def add_mcp_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    mcp = commands.add_parser(
        "mcp",
        help="serve the sandboxed memory to MCP clients (stdio, or streamable HTTP with --http)",
        description=(
            "An MCP server exposing the memory tool's six commands as tools (view, create, str_replace, insert, "
            "delete, rename), every call checked by the policy and recorded in its audit log. stdio by default; "
            f"--http serves streamable HTTP on 127.0.0.1. Bearer tokens (${TOKEN_ENV}, or --token-file) are "
            "required when --host is not a loopback address, and enforced whenever given. Runs until "
            "interrupted (Ctrl-C, SIGTERM) or, over stdio, until the client closes the connection."
        ),
    )
    add_store_options(mcp, "the scope every call uses (not with --token-file)", creates=True)
    mcp.add_argument("--http", action="store_true", help="serve streamable HTTP instead of stdio")
    mcp.add_argument("--host", default="127.0.0.1", help="address to listen on with --http (default: 127.0.0.1)")
    mcp.add_argument("--port", type=int, default=8765, help="port with --http (default: 8765; 0: any free port)")
    mcp.add_argument(
        "--token-file",
        type=Path,
        default=None,
        help='TOML file of [tokens] "TOKEN" = "SCOPE" pairs (mode 600): each token gets its own scope',
    )
    mcp.add_argument(
        "--audit-log",
        type=Path,
        default=None,
        help="one audit log for every scope, here, instead of where the policy's [audit] sink puts it "
        "(its other settings still apply)",
    )
    mcp.set_defaults(handler=_mcp)


def _mcp(args: argparse.Namespace) -> int:
    env_token = os.environ.get(TOKEN_ENV) or None
    if not args.http and (args.token_file or env_token):
        raise UsageError(f"bearer tokens apply to --http only (unset {TOKEN_ENV} for stdio)")
    if args.token_file is not None and (args.scope is not None or env_token):
        raise UsageError(f"--token-file gives each token its scope: do not combine it with --scope or {TOKEN_ENV}")
    # The mcp SDK (the optional extra) loads only here; without it the command names the extra to install.
    from sandbox.mcp.http import check_token, load_token_file, serve_http  # noqa: PLC0415 - optional extra
    from sandbox.mcp.server import MemoryServer, serve_stdio  # noqa: PLC0415 - optional extra
    from sandbox.storage.url import open_stores  # noqa: PLC0415 - lazy: start-up

    tokens: dict[str, str | None] | None = None
    if args.token_file is not None:
        tokens = dict(load_token_file(args.token_file))
    elif env_token:
        tokens = {check_token(env_token, TOKEN_ENV): args.scope}
    policy = policy_from(args)
    args.store = checked_store(args)
    # SIGTERM ends the server like Ctrl-C, so every sandbox is closed and its audit log gets its closing
    # checkpoint (uvicorn hands the signal back to this handler once it has shut down).
    signal.signal(signal.SIGTERM, _interrupt)
    shared_audit = None
    if args.audit_log is not None:
        from sandbox.audit import AuditLog  # noqa: PLC0415 - lazy: start-up

        settings = policy.audit.model_dump(exclude={"sink", "key_file"})
        shared_audit = AuditLog.open(args.audit_log, key_file=policy.audit.key_file, **settings)
    from sandbox.pipeline import Scans  # noqa: PLC0415 - lazy: start-up

    scans = Scans.of(policy)  # compiled once: every scope's sandbox shares them
    with open_stores(args.store) as stores:

        def sandbox_of(scope: str | None) -> Sandbox:
            return open_sandbox(policy, stores, scope, audit=shared_audit, scans=scans)

        memory = MemoryServer(sandbox_of, scope=args.scope, per_token_scopes=tokens is not None)
        try:
            if args.http:
                serve_http(memory, host=args.host, port=args.port, tokens=tokens)
            else:
                serve_stdio(memory)
        except KeyboardInterrupt:
            pass
        finally:
            memory.close()
            if shared_audit is not None:
                shared_audit.close()
    return 0


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt
