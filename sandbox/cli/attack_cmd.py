"""``memory-sandbox attack``: the fuzz-test CI gate for any memory handler."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from sandbox.attack.report import Results, render_junit, render_text, to_json
from sandbox.attack.runner import ProbeFailed, WorkerFailed, run_attack

__all__ = ["add_attack_command"]


def add_attack_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    attack = commands.add_parser(
        "attack",
        help="attack a memory handler with path escapes, planted links, malformed input and a swap race",
        description=(
            "Attack the handler built by FACTORY(root) in a planted folder tree and report every escape "
            "from /memories. Exit 1 on any real escape (with --strict also on accepted attacks, crashes, "
            "hangs and host-path disclosures), 2 when the handler cannot be attacked."
        ),
    )
    target = attack.add_mutually_exclusive_group(required=True)
    target.add_argument(
        "--handler",
        dest="handler_spec",
        metavar="MODULE:FACTORY",
        help="importable module or path to a .py file, and a factory(root: pathlib.Path) returning the handler "
        "(e.g. sandbox.attack.targets:sandboxed, :sdk, :wrapped_sdk)",
    )
    target.add_argument(
        "--mcp",
        default=None,
        metavar="COMMAND",
        help="an MCP server over stdio exposing file tools: its command, {root} standing for the attacked folder "
        'and {scratch} for a folder of its own outside the planted tree (e.g. "memory-sandbox mcp --store '
        'file:{root} --audit-log {scratch}/audit.jsonl", or "npx @modelcontextprotocol/server-filesystem {root}")',
    )
    attack.add_argument(
        "--mcp-map",
        default=None,
        metavar="NAME|FILE.toml",
        help="how the six commands map onto the server's tools: a built-in mapping (memory-sandbox, filesystem; "
        "chosen by the server's name when not given) or a TOML file",
    )
    attack.add_argument("--race-seconds", type=float, default=5.0, help="symlink-swap race duration (0: no race)")
    attack.add_argument("--timeout", type=float, default=10.0, help="seconds per call before it counts as a hang")
    attack.add_argument("--families", default=None, help="comma-separated families to run (default: all)")
    attack.add_argument("--json", type=Path, default=None, help="write the full report as JSON here")
    attack.add_argument("--junit-xml", type=Path, default=None, help="write a JUnit XML report here")
    attack.add_argument("--strict", action="store_true", help="also fail on accepted attacks, crashes, hangs")
    attack.set_defaults(handler=_attack)


def _progress(done: int, total: int, results: Results) -> None:
    filled = round(30 * done / max(total, 1))
    escapes = results.total("escape")
    print(f"\rattacking [{'#' * filled}{'.' * (30 - filled)}] {done:,}/{total:,} cases, {escapes} escapes",
          end="" if done < total else "\n", file=sys.stderr, flush=True)  # fmt: skip


def _attack(args: argparse.Namespace) -> int:
    families = {name.strip() for name in args.families.split(",")} if args.families else None
    spec, env, label = args.handler_spec, None, None
    if args.mcp is not None:
        from sandbox.attack.mcp_target import SPEC, McpTarget  # noqa: PLC0415 - the mcp SDK only when asked for

        spec, env, label = SPEC, McpTarget(args.mcp, args.mcp_map).environment(), f"MCP server `{args.mcp}`"
    elif args.mcp_map is not None:
        raise ValueError("--mcp-map goes with --mcp")
    try:
        results = run_attack(
            spec,
            env=env,
            label=label,
            race_seconds=args.race_seconds,
            timeout=args.timeout,
            families=families,
            progress=_progress if sys.stderr.isatty() else None,
        )
    except (ProbeFailed, WorkerFailed) as exc:
        hint = ""
        if isinstance(exc, ProbeFailed) and args.mcp is not None:
            hint = " (with --mcp: the mapping's `memories` is what /memories becomes in the server's paths)"
        print(f"memory-sandbox attack: {exc}{hint}", file=sys.stderr)
        return 2
    print(render_text(results, strict=args.strict), end="")
    if args.json is not None:
        args.json.write_text(json.dumps(to_json(results, strict=args.strict), indent=2) + "\n", encoding="utf-8")
    if args.junit_xml is not None:
        args.junit_xml.write_text(render_junit(results, strict=args.strict), encoding="utf-8")
    return 1 if results.failed(strict=args.strict) else 0
