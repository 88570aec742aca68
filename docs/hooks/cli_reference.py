"""MkDocs hook: the command-line reference page, generated from the argparse parser at build time.

The page is never written into the source tree: it is made from ``sandbox.cli.main.build_parser``
on every build, so it cannot drift from the options the command really takes.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from mkdocs.structure.files import File, Files

from sandbox.cli.main import build_parser

PAGE = "cli.md"
INTRO = """# Command line

Generated from the command's own parser when this site is built. Every command prints one
short line on stderr when it fails, and exits with one of the codes below.

"""


def on_files(files: Files, config: Any) -> Files:
    files.append(File.generated(config, PAGE, content=reference()))
    return files


def reference() -> str:
    os.environ["COLUMNS"] = "100"  # argparse wraps help to the terminal; the page has a fixed width
    parser = build_parser()
    parts = [INTRO, _block(parser.format_help())]
    for name, sub in _commands(parser, "memory-sandbox"):
        parts += [f"## {name}\n\n", _block(sub.format_help())]
    return "".join(parts)


def _block(text: str) -> str:
    return f"```text\n{text.rstrip()}\n```\n\n"


def _commands(parser: argparse.ArgumentParser, prefix: str) -> list[tuple[str, argparse.ArgumentParser]]:
    found = []
    for action in parser._actions:  # argparse offers no public walk over subcommands
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found.append((f"{prefix} {name}", sub))
                found += _commands(sub, f"{prefix} {name}")
    return found
