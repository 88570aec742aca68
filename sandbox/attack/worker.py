"""The handler under attack, in a process of its own.

The worker imports ``module:factory``, builds the handler for the world's root, and
answers calls one at a time: ``ok`` and the result's text, ``error`` and the text of
the tool's own error (``anthropic.lib.tools.ToolError``), or ``crash`` and the type
of any other exception. A hang is the parent's to notice: it kills the worker and
starts a new one. The worker runs in the world's working-directory canary folder,
with the environment canary set.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import importlib.util
import inspect
import json
import multiprocessing
import multiprocessing.connection
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from anthropic.lib.tools import ToolError

__all__ = ["HandlerWorker", "Unsupported", "WorkerFailed", "load_factory"]

_SPAWN = multiprocessing.get_context("spawn")


class WorkerFailed(RuntimeError):
    """The handler could not be built, or the worker died before answering."""


class Unsupported(Exception):
    """Raised by a handler for a command it has no way to carry out (an MCP server without that tool)."""


def load_factory(spec: str) -> Callable[[Path], Any]:
    """The factory ``module:name`` names; ``module`` is importable or a path to a ``.py`` file."""
    module_name, sep, name = spec.rpartition(":")
    if not sep or not module_name or not name:
        raise ValueError(f"--handler takes module:factory, not {spec!r}")
    if module_name.endswith(".py") or "/" in module_name:
        path = Path(module_name).resolve()
        loader = importlib.util.spec_from_file_location(f"_attack_target_{path.stem}", path)
        if loader is None or loader.loader is None:
            raise ValueError(f"cannot load {module_name}")
        module = importlib.util.module_from_spec(loader)
        sys.modules[loader.name] = module
        loader.loader.exec_module(module)
    else:
        module = importlib.import_module(module_name)
    factory = getattr(module, name, None)
    if not callable(factory):
        raise TypeError(f"{module_name} has no callable {name!r}")
    return factory  # type: ignore[no-any-return]


def _text(value: Any) -> str:
    """A result or error content as text (content blocks as JSON)."""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, default=str, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _caller(handler: Any) -> Callable[[Any], Any]:
    function = getattr(handler, "call", handler)
    if not callable(function):
        raise TypeError("the handler has no call(dict) method and is not callable")
    if not inspect.iscoroutinefunction(function):
        return function  # type: ignore[no-any-return]
    loop = asyncio.new_event_loop()
    return lambda command: loop.run_until_complete(function(command))


def _describe(handler: Any) -> dict[str, Any]:
    sandbox = getattr(handler, "sandbox", None)
    storage = getattr(getattr(sandbox, "backend", None), "storage", None)
    own = getattr(handler, "description", None)  # a handler may describe itself (an MCP server: its name)
    return {"type": f"{type(handler).__module__}.{type(handler).__qualname__}",
            "wrap_mode": type(storage).__name__ == "HandlerStorage",
            **(own if isinstance(own, dict) else {})}  # fmt: skip


def _serve(
    connection: multiprocessing.connection.Connection, spec: str, root: str, cwd: str, env: dict[str, str]
) -> None:
    os.chdir(cwd)
    os.environ.update(env)
    try:
        handler = load_factory(spec)(Path(root))
        call = _caller(handler)
    except Exception as exc:  # noqa: BLE001 - reported to the parent, which stops the run
        connection.send(("failed", f"{type(exc).__name__}: {exc}"))
        return
    connection.send(("ready", _describe(handler)))
    while True:
        try:
            message = connection.recv()
        except EOFError:
            return
        if message is None:
            return
        kind, body = message
        if kind == "call":
            connection.send(_call(call, body))
        elif kind == "loop":
            connection.send(_loop(call, *body))


def _call(call: Callable[[Any], Any], command: Any) -> tuple[str, str]:
    try:
        return "ok", _text(call(command))
    except ToolError as exc:
        return "error", _text(exc.content)
    except Unsupported as exc:
        return "unsupported", str(exc)
    except Exception as exc:  # noqa: BLE001 - a crash of the handler is what is being measured
        return "crash", f"{type(exc).__name__}: {_text(str(exc))[:300]}"


def _loop(call: Callable[[Any], Any], commands: list[Any], seconds: float, needles: list[str]) -> dict[str, Any]:
    """Run ``commands`` round and round for ``seconds``; keep only outputs showing a needle."""
    deadline = time.monotonic() + seconds
    calls, statuses = 0, {"ok": 0, "error": 0, "crash": 0}
    leaks: list[tuple[Any, str]] = []
    while time.monotonic() < deadline:
        for command in commands:
            status, text = _call(call, command)
            calls += 1
            statuses[status] = statuses.get(status, 0) + 1
            if any(needle in text for needle in needles) and len(leaks) < 20:
                leaks.append((command, text[:300]))
    return {"calls": calls, "leaks": leaks, "statuses": statuses}


class HandlerWorker:
    """A worker process serving one handler, restartable after a hang or a crash of the process."""

    def __init__(self, spec: str, root: Path, cwd: Path, env: dict[str, str], *, timeout: float) -> None:
        self.spec, self.root, self.cwd, self.env, self.timeout = spec, root, cwd, env, timeout
        self.description: dict[str, Any] = {}
        self.restarts = 0
        self._start()

    def _start(self) -> None:
        parent, child = _SPAWN.Pipe()
        self._process = _SPAWN.Process(
            target=_serve, args=(child, self.spec, str(self.root), str(self.cwd), self.env), daemon=True
        )
        self._process.start()
        child.close()
        self._connection = parent
        if not parent.poll(max(self.timeout, 60.0)):
            self.stop()
            raise WorkerFailed("the handler did not start within the time allowed")
        try:
            status, body = parent.recv()
        except EOFError:
            raise WorkerFailed("the handler's process died while starting") from None
        if status != "ready":
            self.stop()
            raise WorkerFailed(f"the factory failed: {body}")
        self.description = body

    def restart(self) -> None:
        self.stop()
        self.restarts += 1
        self._start()

    def call(self, command: Any) -> tuple[str, str]:
        """(status, text); status ``hang`` when no answer came in time (the worker is restarted)."""
        status, text = self._ask(("call", command), self.timeout)
        return str(status), str(text)

    def loop(self, commands: list[Any], seconds: float, needles: list[str]) -> dict[str, Any]:
        answer = self._ask(("loop", (commands, seconds, needles)), seconds + max(self.timeout, 30.0))
        if isinstance(answer, tuple):
            return {"calls": 0, "leaks": [], "statuses": {answer[0]: 1}}
        return dict(answer)

    def _ask(self, message: Any, timeout: float) -> Any:
        try:
            self._connection.send(message)
            if self._connection.poll(timeout):
                return self._connection.recv()
        except (EOFError, BrokenPipeError, ConnectionResetError):
            self.restart()
            return ("crash", "the handler's process died")
        self.restart()
        return ("hang", f"no answer within {timeout:g} s")

    def stop(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self._connection.send(None)
        self._process.join(timeout=2)
        if self._process.is_alive():
            self._process.kill()
            self._process.join(timeout=5)
        self._connection.close()
