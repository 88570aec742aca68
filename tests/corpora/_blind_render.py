"""Writes items into config text the way people write them: quoting, escaping and key names per format.

Escaping is applied piece by piece, so a marked value's recorded text is exactly what the
document holds (a PEM key inside a JSON string appears with its `\\n` escapes).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable

from _blind_common import Item, Piece, plain

__all__ = ["BLOCK_FREE", "CONFIG_CONTEXTS", "allowed", "render_config", "style_key"]

CONFIG_CONTEXTS = ("env", "shell", "yaml", "json", "toml", "ini", "python", "javascript", "go", "http", "log")
BLOCK_FREE = ("ini", "http", "log")
_BARE = re.compile(r"[A-Za-z0-9_./:@+=,%~-]+|\$\{[A-Za-z0-9_:?.-]+\}|\$[A-Z_]+")
_YAML_BARE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_./+=@,~-]*")


def allowed(item: Item, ctx: str) -> bool:
    for one in [item, *item.extra]:
        if one.contexts and ctx not in one.contexts:
            return False
        if one.block and ctx in BLOCK_FREE:
            return False
    return True


def style_key(key: str, ctx: str) -> str:
    words = key.split("_") if key != "_id" else ["_id"]
    if ctx in ("env", "shell"):
        return key.upper()
    if ctx in ("javascript", "go"):
        camel = words[0] + "".join(w.capitalize() for w in words[1:])
        return camel[0].upper() + camel[1:] if ctx == "go" else camel
    if ctx == "http":
        return "Authorization" if key == "authorization" else "X-" + "-".join(w.capitalize() for w in words)
    return key


def _text(pieces: list[Piece]) -> str:
    return "".join(p[0] for p in pieces)


def _map(pieces: list[Piece], fn: Callable[[str], str]) -> list[Piece]:
    return [(fn(t), role, kind) for t, role, kind in pieces]


def _json_escape(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)[1:-1]


def _wrap(pieces: list[Piece], left: str, right: str | None = None) -> list[Piece]:
    return [plain(left), *pieces, plain(left if right is None else right)]


def _dq(pieces: list[Piece]) -> list[Piece]:
    return _wrap(_map(pieces, _json_escape), '"')


def _yaml_block(pieces: list[Piece], indent: str) -> list[Piece]:
    return [plain("|\n" + indent + "  "), *_map(pieces, lambda t: t.replace("\n", "\n" + indent + "  "))]


def _lit_yaml(pieces: list[Piece], text: str, rng: random.Random, indent: str) -> list[Piece]:
    if "\n" in text:
        return _yaml_block(pieces, indent)
    if _YAML_BARE.fullmatch(text) and rng.random() < 0.6:
        return pieces
    return _wrap(pieces, "'") if '"' in text and "'" not in text else _dq(pieces)


def _lit_env(pieces: list[Piece], text: str, rng: random.Random, indent: str) -> list[Piece]:
    if "\n" in text:
        return _wrap(pieces, '"') if rng.random() < 0.5 else _dq(pieces)
    if _BARE.fullmatch(text) and rng.random() < 0.7:
        return pieces
    return _wrap(pieces, "'") if '"' in text or ("$" in text and "{" not in text) else _wrap(pieces, '"')


def _lit_shell(pieces: list[Piece], text: str, rng: random.Random, indent: str) -> list[Piece]:
    if "'" in text:
        return _wrap(pieces, '"')
    return _wrap(pieces, "'") if "\n" in text or rng.random() < 0.6 else _wrap(pieces, '"')


def _lit_toml(pieces: list[Piece], text: str, rng: random.Random, indent: str) -> list[Piece]:
    return _wrap(pieces, '"""\n', '"""') if "\n" in text else _dq(pieces)


def _lit_code(fence: str, *, single: bool) -> Callable[[list[Piece], str, random.Random, str], list[Piece]]:
    """Python, JavaScript and Go strings; `single` where the language has single-quoted strings."""

    def lit(pieces: list[Piece], text: str, rng: random.Random, indent: str) -> list[Piece]:
        if "\n" in text:
            return _wrap(pieces, fence) if rng.random() < 0.6 else _dq(pieces)
        if single and "'" not in text and "\\" not in text and rng.random() < 0.4:
            return _wrap(pieces, "'")
        return _dq(pieces)

    return lit


def _lit_log(pieces: list[Piece], text: str, rng: random.Random, indent: str) -> list[Piece]:
    return _dq(pieces) if rng.random() < 0.3 else pieces


def _lit_bare(pieces: list[Piece], text: str, rng: random.Random, indent: str) -> list[Piece]:
    return pieces


def _lit_json(pieces: list[Piece], text: str, rng: random.Random, indent: str) -> list[Piece]:
    return _dq(pieces)


_LITERALS = {
    "json": _lit_json,
    "yaml": _lit_yaml,
    "env": _lit_env,
    "shell": _lit_shell,
    "toml": _lit_toml,
    "python": _lit_code('"""', single=True),
    "javascript": _lit_code("`", single=True),
    "go": _lit_code("`", single=False),
    "log": _lit_log,
    "ini": _lit_bare,
    "http": _lit_bare,
}


def literal(ctx: str, item: Item, rng: random.Random, indent: str = "") -> list[Piece]:
    """The value as written in `ctx`: quoted, escaped or laid out as a block."""
    pieces, text = item.value, _text(item.value)
    if not item.raw:
        return _LITERALS[ctx](pieces, text, rng, indent)
    if "\n" in text and ctx == "yaml":
        return _yaml_block(pieces, indent)
    return _map(pieces, lambda t: t.replace("\n", "\n" + indent))


def _assign(
    ctx: str, item: Item, rng: random.Random, indent: str = "", *, field: bool = False, upper: bool = False
) -> list[Piece]:
    """One `key = value` line; `field` writes an object or struct field instead (JavaScript, Go)."""
    if not item.keys:
        return [plain(indent), *item.value, plain("\n")]
    key = style_key(rng.choice(item.keys), ctx)
    if upper or (ctx == "python" and not item.raw and rng.random() < 0.5):
        key = key.upper()
    if item.header:
        header = _header_line(ctx, item, rng, indent, field=field)
        if header:
            return header
    if ctx == "env" and item.header:
        key = rng.choice(["AUTH_HEADER", "API_AUTHORIZATION", "HTTP_AUTHORIZATION"])
    value = literal(ctx, item, rng, indent)
    if field:
        return [plain(f"{indent}{key}: "), *value, plain(",\n")]
    head, sep, tail = {
        "env": ("", "=", ""),
        "shell": ("export ", "=", ""),
        "yaml": ("", ": ", ""),
        "json": ('"', '": ', ""),
        "toml": ("", " = ", ""),
        "ini": ("", rng.choice([" = ", "="]), ""),
        "python": ("", " = ", ""),
        "javascript": ("const ", " = ", ";"),
        "go": ("", " := ", ""),
        "http": ("", ": ", ""),
        "log": ("", "=", ""),
    }[ctx]
    return [plain(indent + head + key + sep), *value, plain(tail + "\n")]


def _header_line(ctx: str, item: Item, rng: random.Random, indent: str, *, field: bool) -> list[Piece]:
    if ctx == "shell":
        url = f"https://api.{rng.choice(['acme.io', 'partner.example.com', 'internal.local'])}/v1/{rng.choice(['orders', 'me', 'reports'])}"
        return [plain('curl -sS -H "Authorization: '), *item.value, plain(f'" {url}\n')]
    if ctx == "go":
        return [plain(indent + 'req.Header.Set("Authorization", "'), *item.value, plain('")\n')]
    if ctx == "python":
        return [plain(indent + 'headers = {"Authorization": "'), *item.value, plain('"}\n')]
    if ctx == "javascript":
        if field:
            return [plain(indent + 'headers: { Authorization: "'), *item.value, plain('" },\n')]
        return [plain(indent + 'await fetch(url, { headers: { Authorization: "'), *item.value, plain('" } });\n')]
    return []


_FILLER = {
    "port": "8080",
    "log_level": "info",
    "region": "eu-west-1",
    "timeout_seconds": "30",
    "workers": "4",
    "enable_metrics": "true",
    "environment": "staging",
    "max_retries": "5",
    "cache_ttl": "600",
    "feature_new_checkout": "false",
    "service_name": "billing-api",
    "db_host": "db.internal",
    "db_user": "app",
    "queue_name": "invoices",
    "smtp_host": "smtp.mailgun.org",
    "default_locale": "en-GB",
}


def _filler(rng: random.Random, n: int) -> list[Item]:
    keys = sorted(_FILLER)
    return [Item("neutral", "neutral", [plain(_FILLER[k])], (k,), k) for k in rng.sample(keys, n)]


def _log_line(item: Item, rng: random.Random) -> list[Piece]:
    ts = f"2026-{rng.randint(1, 11):02d}-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}.{rng.randint(0, 999):03d}Z"
    level = rng.choice(["INFO", "DEBUG", "WARN", "ERROR"])
    comp = rng.choice(["api", "worker", "scheduler", "auth", "http.client", "db.pool"])
    head = f"{ts} {level} [{comp}] "
    if item.header:
        return [plain(head + "outgoing request headers={'Authorization': '"), *item.value, plain("'}\n")]
    text = _text(item.value)
    if "://" in text and rng.random() < 0.6:
        return [
            plain(head + rng.choice(["connecting to ", "retrying ", "GET "])),
            *item.value,
            plain(rng.choice(["\n", " status=200\n", " failed: timeout\n"])),
        ]
    msg = rng.choice(["loaded config", "request done", "job started", "deploy finished", "cache miss"])
    return [plain(f"{head}{msg} "), *_assign("log", item, rng)]


def _json(rows: list[Item], rng: random.Random) -> list[Piece]:
    nest = rng.random() < 0.4
    pad = "    " if nest else "  "
    section = rng.choice(["production", "staging", "credentials", "services"])
    out = [plain(f'{{\n  "{section}": {{\n' if nest else "{\n")]
    for n, row in enumerate(rows):
        line = _assign("json", row, rng, pad)
        line[-1] = plain("\n" if n == len(rows) - 1 else ",\n")
        out += line
    out.append(plain("  }\n}\n" if nest else "}\n"))
    return out


def _go(rows: list[Item], rng: random.Random) -> list[Piece]:
    out = [plain("package config\n\nfunc load(req *http.Request) Config {\n\tcfg := Config{\n")]
    for row in rows:
        if not row.header:
            out += _assign("go", row, rng, "\t\t", field=True)
    out.append(plain("\t}\n"))
    for row in rows:
        if row.header:
            out += _assign("go", row, rng, "\t")
    out.append(plain("\treturn cfg\n}\n"))
    return out


def _javascript(rows: list[Item], rng: random.Random) -> list[Piece]:
    if rng.random() < 0.6:
        return _lines("javascript", rows, rng)
    out = [plain("module.exports = {\n")]
    for row in rows:
        out += _assign("javascript", row, rng, "  ", field=True)
    return [*out, plain("};\n")]


def _http(rows: list[Item], rng: random.Random) -> list[Piece]:
    method, path = rng.choice(["GET", "POST"]), rng.choice(["charges", "users/me", "reports"])
    accept = rng.choice(["Accept: application/json", "User-Agent: acme-cli/2.4.1", "Content-Type: application/json"])
    out = [plain(f"{method} /v1/{path} HTTP/1.1\nHost: api.acme.io\n{accept}\n")]
    out += _lines("http", [row for row in rows if row.role != "neutral"], rng)
    return [*out, plain('\n{"limit": 50}\n')]


def _log(rows: list[Item], rng: random.Random) -> list[Piece]:
    return [piece for row in rows for piece in _log_line(row, rng)]


def _lines(ctx: str, rows: list[Item], rng: random.Random, head: str = "") -> list[Piece]:
    return [plain(head), *[piece for row in rows for piece in _assign(ctx, row, rng)]]


def _headed(ctx: str) -> Callable[[list[Item], random.Random], list[Piece]]:
    heads = {
        "env": ["", "# staging settings\n", "# production settings\n", "# local dev\n"],
        "shell": ["", "#!/usr/bin/env bash\nset -euo pipefail\n"],
        "python": ["import os\n\n", "from app.client import Client\n\n", "# settings.py\n"],
        "toml": ["[default]\n", "[production]\n", "[database]\n", "[deploy]\n"],
        "ini": ["[default]\n", "[api]\n", "[database]\n", "[client]\n"],
    }[ctx]

    def render(rows: list[Item], rng: random.Random) -> list[Piece]:
        return _lines(ctx, rows, rng, rng.choice(heads))

    return render


_SKELETONS: dict[str, Callable[[list[Item], random.Random], list[Piece]]] = {
    "json": _json,
    "go": _go,
    "javascript": _javascript,
    "http": _http,
    "log": _log,
    "env": _headed("env"),
    "shell": _headed("shell"),
    "python": _headed("python"),
    "toml": _headed("toml"),
    "ini": _headed("ini"),
}


def render_config(ctx: str, items: list[Item], rng: random.Random) -> list[Piece]:
    """A whole config snippet in `ctx` holding `items` plus a few neutral settings."""
    rows = [*items, *_filler(rng, rng.randint(2, 5))]
    rng.shuffle(rows)
    return _yaml(rows, rng) if ctx == "yaml" else _SKELETONS[ctx](rows, rng)


def _yaml(rows: list[Item], rng: random.Random) -> list[Piece]:
    shape = rng.choice(["flat", "nested", "k8s", "compose"])
    out: list[Piece] = []
    indent = ""
    if shape == "nested":
        out.append(plain(f"{rng.choice(['database', 'integrations', 'app', 'production'])}:\n"))
        indent = "  "
    elif shape == "k8s":
        out.append(
            plain(
                f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {rng.choice(['billing', 'api', 'worker'])}-secrets\ntype: Opaque\nstringData:\n"
            )
        )
        indent = "  "
    elif shape == "compose":
        out.append(
            plain(
                f"services:\n  {rng.choice(['api', 'worker', 'web'])}:\n    image: acme/app:latest\n    environment:\n"
            )
        )
        indent = "      "
    for row in rows:
        out += _assign("yaml", row, rng, indent, upper=shape in ("k8s", "compose"))
    return out
