"""The fleet example of docs/stores.md runs as written, against a real server."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

PAGE = Path(__file__).resolve().parents[2] / "docs" / "stores.md"


def test_fleet_example_runs(pg_dsn: str, tmp_path: Path) -> None:
    text = PAGE.read_text(encoding="utf-8")
    section = text[text.index("## A fleet on PostgreSQL") :]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    code = blocks[0].replace('"postgresql://memory_worker@db.internal/memory"', repr(pg_dsn))
    code = code.replace('"/etc/memory-sandbox/audit.key"', repr(str(tmp_path / "audit.key")))
    namespace: dict[str, Any] = {"user_id": "alice"}
    exec(compile(code, "docs/stores.md", "exec"), namespace)  # noqa: S102 - the docs' own example
    tool = namespace["tool"]
    assert tool.call({"command": "create", "path": "/memories/tea.md", "file_text": "prefers tea"}).startswith(
        "File created successfully"
    )
    assert "prefers tea" in tool.call({"command": "view", "path": "/memories/tea.md"})
    namespace["audit"].close()
    assert namespace["audit"].verify().ok
    namespace["db"].close()
