"""``memory-sandbox chat``: talk to Claude in the terminal, its memory tool behind the sandbox.

Each line typed is a user turn; the SDK's tool runner sends it with the conversation so
far and answers Claude's memory calls through ``SandboxedMemoryTool`` until Claude
replies in text. Every memory call is shown as it happens, with the sandbox's verdict.
``/exit`` or end of input ends the chat. Needs ``ANTHROPIC_API_KEY``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from sandbox.cli.common import add_store_options, checked_store, open_sandbox, policy_from
from sandbox.display import printable, shortened

__all__ = ["DEFAULT_MODEL", "add_chat_command"]

DEFAULT_MODEL = "claude-sonnet-4-5"
_SYSTEM = (
    "You have a memory tool whose files persist between conversations. Before answering, view "
    "/memories to see what you already know; keep short, well organised notes of what the user "
    "will want you to remember."
)
_NO_KEY = """memory-sandbox chat talks to Claude through the Anthropic API and needs an API key.
Create one at https://console.anthropic.com/settings/keys, then:

    export ANTHROPIC_API_KEY=sk-ant-...
    memory-sandbox chat

To see the sandbox work without a key, replay a recorded session instead:

    memory-sandbox replay examples/prompt-injection.jsonl
"""


def add_chat_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    chat = commands.add_parser("chat", help="talk to Claude in the terminal, its memory in a sandboxed store")
    add_store_options(chat, "the scope (user) whose memory Claude uses", creates=True)
    chat.add_argument("--model", default=DEFAULT_MODEL, help=f"Claude model (default: {DEFAULT_MODEL})")
    chat.add_argument("--max-tokens", type=int, default=2048)
    chat.set_defaults(handler=_chat)


def _chat(args: argparse.Namespace) -> int:
    if not os.environ.get("ANTHROPIC_API_KEY"):
        print(_NO_KEY, end="", file=sys.stderr)
        return 2
    import anthropic  # noqa: PLC0415 - the client only when a key is there
    from anthropic.lib.tools import ToolError  # noqa: PLC0415

    from sandbox.integrations.anthropic import SandboxedMemoryTool  # noqa: PLC0415
    from sandbox.storage.url import open_stores, shown_url  # noqa: PLC0415 - lazy: start-up

    class NarratedTool(SandboxedMemoryTool):
        """Prints each memory call and how the sandbox answered it."""

        def call(self, input: object) -> Any:  # noqa: A002 - the SDK's name
            try:
                result = super().call(input)
            except ToolError as exc:
                _narrate(input, str(exc.content).split("\n", 1)[0])
                raise
            _narrate(input, str(result).split("\n", 1)[0])
            return result

    policy = policy_from(args)
    client = anthropic.Anthropic()
    args.store = checked_store(args)
    with open_stores(args.store) as stores:
        sandbox = open_sandbox(policy, stores, args.scope)
        tool = NarratedTool(sandbox)
        print(f"Chatting with {args.model}; memory in {shown_url(args.store)} (policy {policy.id}). /exit to stop.")
        history: list[Any] = []
        try:
            while True:
                line = _read_line()
                if line is None or line.strip() == "/exit":
                    return 0
                if not line.strip():
                    continue
                history.append({"role": "user", "content": line})
                runner = client.beta.messages.tool_runner(
                    model=args.model, max_tokens=args.max_tokens, system=_SYSTEM, tools=[tool], messages=list(history)
                )
                for message in runner:
                    history.append(message.to_param())
                    for block in message.content:
                        if block.type == "text" and block.text.strip():
                            print(f"claude> {printable(block.text.strip(), keep_newlines=True)}")
                    response = runner.generate_tool_call_response()
                    if response is not None:
                        history.append(response)
        except anthropic.APIError as exc:
            print(f"memory-sandbox chat: the API call failed: {type(exc).__name__}: {exc.message}", file=sys.stderr)
            return 1
        finally:
            sandbox.close()


def _read_line() -> str | None:
    if sys.stdin is None:  # started with stdin closed: nothing to say
        return None
    if sys.stdin.isatty():
        try:
            return input("you> ")
        except EOFError:
            return None
    line = sys.stdin.readline()
    return line.rstrip("\n") if line else None


def _narrate(tool_input: object, answer: str) -> None:
    shown = shortened(printable(json.dumps(tool_input, ensure_ascii=False)), 100)
    print(f"  [memory] {shown}\n           -> {printable(answer[:120])}")
