"""``memory-sandbox attack``: the fuzz-test CI gate for any memory handler."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from sandbox.attack import FAMILIES
from sandbox.cli.exits import UsageError
from sandbox.cli.progress import progress_bar

if TYPE_CHECKING:
    from sandbox.attack.report import Results

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
        help="importable module or path to a .py file (relative to this folder), and a factory(root: pathlib.Path) "
        "returning the handler (e.g. sandbox.attack.targets:sandboxed, :sdk, :wrapped_sdk)",
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
    attack.add_argument(
        "--families",
        type=_families,
        default=None,
        help=f"comma-separated families to run (default: all): {', '.join(FAMILIES)}",
    )
    attack.add_argument("--json", type=Path, default=None, help="write the full report as JSON here")
    attack.add_argument("--junit-xml", type=Path, default=None, help="write a JUnit XML report here")
    attack.add_argument("--sarif", type=Path, default=None, help="write a SARIF 2.1.0 report (code scanning) here")
    attack.add_argument("--strict", action="store_true", help="also fail on accepted attacks, crashes, hangs")
    attack.set_defaults(handler=_attack)


def _families(text: str) -> set[str]:
    """The families named; a typo is a usage error, never an attack of nothing that passes the gate."""
    names = {name.strip() for name in text.split(",") if name.strip()}
    unknown = sorted(names - set(FAMILIES))
    if unknown or not names:
        shown = ", ".join(unknown) if unknown else "none"
        raise argparse.ArgumentTypeError(f"unknown attack family {shown} (families: {', '.join(FAMILIES)})")
    return names


def _caller_relative(spec: str) -> str:
    """The handler spec with a file path made absolute, and this folder importable, as the caller sees them.

    The handler runs in a process of its own inside the attack's temporary folder: a relative
    ``myapp/memory.py:make_handler`` (or a module in this folder) must still mean the caller's file.
    """
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # spawned workers inherit sys.path
    module, sep, name = spec.rpartition(":")
    if not sep or not (module.endswith(".py") or "/" in module):
        return spec
    path = Path(module)
    if not path.is_file():
        raise UsageError(f"--handler: no file {module}")
    return f"{path.resolve()}:{name}"


def _found(results: Results) -> str:
    return f"cases, {results.total('escape')} escapes, {results.total('bypass')} bypasses"


def _attack(args: argparse.Namespace) -> int:
    from sandbox.attack.report import render_junit, render_text, to_json  # noqa: PLC0415 - lazy: start-up
    from sandbox.attack.runner import ProbeFailed, WorkerFailed, run_attack  # noqa: PLC0415 - lazy: start-up

    env, label = None, None
    if args.mcp is not None:
        from sandbox.attack.mcp_target import SPEC, McpTarget  # noqa: PLC0415 - the mcp SDK only when asked for

        spec, env, label = SPEC, McpTarget(args.mcp, args.mcp_map).environment(), f"MCP server `{args.mcp}`"
    elif args.mcp_map is not None:
        raise UsageError("--mcp-map goes with --mcp")
    else:
        spec = _caller_relative(args.handler_spec)
    for option, path in (("--json", args.json), ("--junit-xml", args.junit_xml), ("--sarif", args.sarif)):
        if path is not None and not path.absolute().parent.is_dir():
            raise UsageError(f"{option}: the folder of {path} does not exist")
    bar = progress_bar("attacking")
    try:
        results = run_attack(
            spec,
            env=env,
            label=label,
            race_seconds=args.race_seconds,
            timeout=args.timeout,
            families=args.families,
            progress=None if bar is None else lambda done, total, results: bar(done, total, _found(results)),
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
    if args.sarif is not None:
        source = _server_source_uri(args.mcp) if args.mcp is not None else _source_uri(spec)
        _write_sarif(args.sarif, results, source, strict=args.strict)
    return 1 if results.failed(strict=args.strict) else 0


def _write_sarif(out: Path, results: Results, source: str, *, strict: bool) -> None:
    from sandbox import __version__  # noqa: PLC0415 - lazy: start-up
    from sandbox.attack.sarif import render_sarif  # noqa: PLC0415 - lazy: start-up

    sarif = render_sarif(results, strict=strict, handler_uri=source, version=__version__)
    out.write_text(json.dumps(sarif, indent=2) + "\n", encoding="utf-8")


def _source_uri(spec: str) -> str:
    """The handler's source file relative to this folder (the repository), for code-scanning results.

    A module found outside this folder (an installed package) is named by its dotted path
    as a file path, never by where it is installed on this machine.
    """
    module = spec.rpartition(":")[0]
    guess = module.replace(".", "/") + ".py"
    if module.endswith(".py"):
        path: Path | None = Path(module)
    else:
        import importlib.util  # noqa: PLC0415 - only for a SARIF report

        try:
            found = importlib.util.find_spec(module)
        except (ImportError, ValueError):
            found = None
        path = Path(found.origin) if found is not None and found.origin else None
    if path is not None and path.resolve().is_relative_to(Path.cwd().resolve()):
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    return guess


def _server_source_uri(command: str) -> str:
    """For ``--mcp``: the first file of the server's command inside this folder (its script), else its program."""
    import shlex  # noqa: PLC0415 - only for a SARIF report

    argv = shlex.split(command)
    here = Path.cwd().resolve()
    for arg in argv:
        path = Path(arg).resolve()
        if not arg.startswith("-") and path.is_file() and path.is_relative_to(here):
            return path.relative_to(here).as_posix()
    return Path(argv[0]).name
