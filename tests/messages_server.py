"""A scripted Messages API on 127.0.0.1, for driving the real anthropic client in tests.

Each POST to /v1/messages is answered with the next scripted turn: a list of
memory-tool inputs (sent as tool_use blocks) or, once the script is done, a final
text. Every request body is kept, so tests can read the tool_result blocks the
client sent back.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class ScriptedMessages:
    def __init__(self, turns: list[list[dict[str, Any]]]) -> None:
        self.turns = list(turns)
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    def next_response(self, body: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            self.requests.append(body)
            index = len(self.requests) - 1
        if index < len(self.turns):
            content = [
                {"type": "tool_use", "id": f"toolu_{index:02d}_{n:02d}", "name": "memory", "input": tool_input}
                for n, tool_input in enumerate(self.turns[index])
            ]
            stop = "tool_use"
        else:
            content, stop = [{"type": "text", "text": "Done."}], "end_turn"
        return {
            "id": f"msg_{index:03d}",
            "type": "message",
            "role": "assistant",
            "model": body.get("model", "claude-test"),
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 10},
        }

    def tool_results(self) -> list[dict[str, Any]]:
        """Every tool_result block the client sent, in order."""
        found: list[dict[str, Any]] = []
        for body in self.requests:
            last = body["messages"][-1]
            if last["role"] == "user" and isinstance(last["content"], list):
                found.extend(block for block in last["content"] if block.get("type") == "tool_result")
        return found


@contextmanager
def serve(script: ScriptedMessages) -> Iterator[str]:
    """Serve ``script`` on a free loopback port; yield the base URL."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("content-length", "0"))
            body = json.loads(self.rfile.read(length))
            payload = json.dumps(script.next_response(body)).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - http.server's naming
            return None

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
