"""Exit codes of the ``memory-sandbox`` command, and the one place that turns failures into them.

Every failure ends as one short line on stderr and a documented exit code, never a
traceback: a command may meet a missing file, a closed pipe, an absent optional
package or an unreachable database, and the person reading the output should learn
what to do, not where in the code it happened.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Callable
from typing import Final, NoReturn

from sandbox.errors import SandboxError

__all__ = [
    "EXIT_CODES",
    "FINDING",
    "OK",
    "REFUSED",
    "TRACEBACK_ENV",
    "USAGE",
    "Parser",
    "UsageError",
    "run_command",
]

OK: Final = 0
FINDING: Final = 1
USAGE: Final = 2
REFUSED: Final = 3
_INTERRUPTED: Final = 130
#: Set to 1 to see the traceback of an unexpected error (for a bug report).
TRACEBACK_ENV: Final = "MEMORY_SANDBOX_TRACEBACK"

EXIT_CODES: Final = """exit codes:
  0    ok
  1    a finding: an escape from /memories, a tampered audit log, a failing policy test
  2    usage error, or input that cannot be read or written (a missing file, an
       unreachable database, a missing optional package, output closed early)
  3    refused: denied by the policy, or an erasure not confirmed
  130  interrupted (Ctrl-C)
"""

# Optional packages, and the extra that installs them.
_EXTRAS: Final = {
    "psycopg": "postgres",
    "psycopg_pool": "postgres",
    "opentelemetry": "otel",
    "mcp": "mcp",
    "mcp_types": "mcp",
}


class UsageError(SandboxError):
    """The command line asks for something that cannot be done as written (a typo, a missing store)."""

    code = "usage"
    exit_code = USAGE


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line that names the command's --help."""

    def error(self, message: str) -> NoReturn:
        self.exit(USAGE, f"{self.prog}: {message} (see {self.prog} --help)\n")


def run_command(handler: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """Run one command's handler; every failure becomes a line on stderr and a documented exit code."""
    # psycopg's pool reports each failed connection attempt through logging; the person
    # running the command gets one line saying the database cannot be reached instead.
    logging.getLogger("psycopg").addHandler(logging.NullHandler())
    try:
        code = int(handler(args))
        if sys.stdout is not None:
            sys.stdout.flush()  # a closed pipe shows here, while it can still be answered
    except SandboxError as exc:
        return _fail(_first_line(exc.message), exc.exit_code if exc.exit_code in (1, 2, 3) else USAGE)
    except BrokenPipeError:
        _quiet_stdout()
        return USAGE
    except ModuleNotFoundError as exc:
        return _fail(_missing_package(exc.name or ""), USAGE)
    except OSError as exc:
        return _fail(_os_message(exc), USAGE)
    except ValueError as exc:  # UnicodeError included
        return _fail(_first_line(str(exc)), USAGE)
    except KeyboardInterrupt:
        return _fail("interrupted", _INTERRUPTED)
    except Exception as exc:  # the command's last resort: one line, never a traceback
        if os.environ.get(TRACEBACK_ENV) == "1":
            raise
        return _fail(f"unexpected error ({type(exc).__name__}); set {TRACEBACK_ENV}=1 to see where", USAGE)
    return code


def _fail(message: str, code: int) -> int:
    if sys.stderr is not None:
        print(f"memory-sandbox: {message}", file=sys.stderr)
    return code


def _first_line(text: str) -> str:
    """A library message as one line for a person: no ``Error:`` prefix (that is for the model)."""
    line = text.strip().splitlines()[0] if text.strip() else "failed"
    return line.removeprefix("Error: ")


def _missing_package(name: str) -> str:
    top = name.partition(".")[0]
    extra = _EXTRAS.get(top)
    if extra is None:
        return f"a required package is missing: {top or 'unknown'} (reinstall memory-sandbox)"
    return f"this needs the optional package {top}: pip install 'memory-sandbox[{extra}]'"


def _os_message(exc: OSError) -> str:
    """``no such file or directory: notes.jsonl``: the reason, and the file's name (never its host folder)."""
    reason = (exc.strerror or type(exc).__name__).lower()
    name = os.path.basename(os.path.normpath(os.fspath(exc.filename))) if exc.filename else ""
    return f"{reason}: {name}" if name else reason


def _quiet_stdout() -> None:
    """The reader went away (``| head``): stop quietly, and keep the interpreter from complaining at exit."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    finally:
        os.close(devnull)
