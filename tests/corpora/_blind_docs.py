"""Memory files of the blind corpus: markdown notes, runbooks and preferences around the items."""

from __future__ import annotations

import random

from _blind_common import Item, Piece, plain
from _blind_prose import FILL_EXTRA, PROSE
from _blind_render import allowed, render_config

__all__ = ["render_markdown"]

_PEOPLE = ["Priya", "Marco", "Jonas", "Aiko", "Fatima", "Chen", "Olu", "Sofía", "Mateus", "Zoë", "Björn", "Dana"]
_PROJECTS = [
    "billing-service",
    "atlas",
    "ingest-pipeline",
    "mobile-app",
    "data-warehouse",
    "checkout",
    "notifications",
    "search-api",
    "infra",
    "ml-platform",
    "customer-portal",
]
_TITLES = {
    "project": ["# Project notes: {project}", "# {project} — context", "# Working notes ({project})"],
    "coding": ["# Coding notes: {project}", "# How {project} talks to its services", "# Dev setup for {project}"],
    "prefs": ["# User preferences", "# About the user", "# Preferences and habits"],
    "runbook": [
        "# Runbook: rotate {project} credentials",
        "# Runbook — {project} deploys",
        "# On-call cheatsheet ({project})",
    ],
    "incident": ["# Incident {date}: {project} outage", "# Post-incident notes, {date}"],
    "daily": ["# {date}", "# Log for {date}", "# Session notes {date}"],
}
_FILL = {
    "project": [
        "Owner is {person}; ask before touching the schema.",
        "Deploys go through the `release` branch; CI takes about 12 minutes.",
        "The staging cluster is shared with {project2}, so keep load tests short.",
        "We moved from cron jobs to the queue in March — old docs still mention cron.",
        "Naming: services are kebab-case, tables are snake_case.",
        "Feature flags live in the admin panel, not in code.",
        "Latency budget for the public API is 300 ms at p95.",
    ],
    "coding": [
        "Run `make test` before pushing; the pre-commit hook only lints.",
        "Use the typed client in `app/clients/`, not raw `requests` calls.",
        "Tests use a throwaway database created per session.",
        "Prefer dataclasses over dicts for anything crossing a module boundary.",
        "The retry helper backs off exponentially, max 5 attempts.",
        "Logging goes through structlog; never print secrets in debug output.",
        "Timeouts: 10 s connect, 30 s read for partner APIs.",
    ],
    "prefs": [
        "Prefers concise answers with the code first, explanation after.",
        "Timezone: Europe/Berlin — nothing scheduled before 09:00.",
        "Likes British spelling in docs (colour, organise).",
        "Uses vim keybindings; editor is Neovim with LSP.",
        "Dislikes emoji in commit messages ✅ is fine in chat though.",
        "Name is {person}; goes by the short form in chat.",
        "Wants weekly summaries on Fridays, bullet points only.",
    ],
    "runbook": [
        "1. Announce in #ops before starting.",
        "2. Drain the workers: `kubectl scale deploy/worker --replicas=0`.",
        "3. Rotate, then restart the pods one at a time.",
        "4. Watch the error rate for 15 minutes before closing the ticket.",
        "If the health check fails, roll back with `helm rollback {project}`.",
        "Escalate to {person} if the queue is still growing after 10 minutes.",
    ],
    "incident": [
        "Impact: checkout errors for about 40 minutes, roughly 3% of requests.",
        "Root cause: a config push replaced the pool size with 0.",
        "Detection: alert fired at 14:02, acknowledged by {person} at 14:05.",
        "Follow-up: add a schema check for config pushes.",
        "Timeline is in the incident doc; this is the short version.",
    ],
    "daily": [
        "Paired with {person} on the {project} migration.",
        "Finished the export job; it needs a review before merge.",
        "Blocked on access to the analytics warehouse.",
        "Tomorrow: write the rollout plan and ping {person}.",
        "Reminder: renew the conference ticket by Friday.",
    ],
}
_SECTIONS = [
    "## Access",
    "## Config",
    "## Services",
    "## Notes",
    "## Credentials",
    "## Setup",
    "## Links",
    "## Details",
    "## Environment",
]
_INTRO = [
    "Things to remember about {project}.",
    "Collected while working on {project} with {person}.",
    "Keep this short; details live in the wiki.",
    "Last reviewed {date}.",
]
_CODE_LANG = {
    "env": "bash",
    "shell": "bash",
    "yaml": "yaml",
    "json": "json",
    "toml": "toml",
    "ini": "ini",
    "python": "python",
    "javascript": "js",
    "go": "go",
    "http": "http",
    "log": "text",
}
_LINE_TEMPLATES = [
    ("- {label}: `", "`"),
    ("- {label}: ", ""),
    ("- {label} for {project} → `", "`"),
    ("{Label} ({project}, added {date}): `", "`"),
    ("- {person} shared the {label}: ", ""),
    ("Use `", "` as the {label} for {project}."),
    ("- {label} = ", "  (rotated {date})"),
    ("* {label} — ", ""),
]


def _fill(text: str, rng: random.Random) -> str:
    project = rng.choice(_PROJECTS)
    return text.format(
        project=project,
        project2=rng.choice([p for p in _PROJECTS if p != project]),
        person=rng.choice(_PEOPLE),
        date=f"2026-{rng.randint(1, 11):02d}-{rng.randint(1, 28):02d}",
        label="{label}",
        Label="{Label}",
        v="{v}",
        k="{k}",
    )


def _inline(item: Item, rng: random.Random) -> list[Piece]:
    if item.header:
        return [plain("- request header: `Authorization: "), *item.value, plain("`\n")]
    key = rng.choice(item.keys).replace("_", " ") if item.keys else item.label
    if item.kind in PROSE and rng.random() < 0.5:
        left, _, right = _fill(rng.choice(PROSE[item.kind]), rng).replace("{k}", key).partition("{v}")
        return [plain(left), *item.value, plain(right + "\n")]
    label = item.label if rng.random() < 0.5 else key
    left, right = rng.choice(_LINE_TEMPLATES)
    left = _fill(left, rng).replace("{label}", label).replace("{Label}", label[0].upper() + label[1:])
    right = _fill(right, rng).replace("{label}", label)
    return [plain(left), *item.value, plain(right + "\n")]


def _block(item: Item, rng: random.Random) -> list[Piece]:
    lead = _fill(
        rng.choice(
            ["{Label} for the backup host:", "The {label} {person} pasted:", "{Label} ({project}):", "Current {label}:"]
        ),
        rng,
    )
    lead = lead.replace("{label}", item.label).replace("{Label}", item.label[0].upper() + item.label[1:])
    lang = "json" if item.raw else ""
    return [plain(f"{lead}\n\n```{lang}\n"), *item.value, plain("\n```\n")]


def _table(items: list[Item], rng: random.Random) -> list[Piece]:
    out = [plain("| Service | What | Value |\n|---|---|---|\n")]
    for item in items:
        service = rng.choice(_PROJECTS)
        value = [plain("`"), *item.value, plain("`")] if rng.random() < 0.7 else item.value
        out += [plain(f"| {service} | {item.label} | "), *value, plain(" |\n")]
    return out


def render_markdown(items: list[Item], rng: random.Random) -> list[Piece]:
    """A markdown memory file: title, filler, then items as bullets, a table and fenced config."""
    kind = rng.choice(list(_TITLES))
    out: list[Piece] = [plain(_fill(rng.choice(_TITLES[kind]), rng) + "\n\n")]
    out.append(plain(_fill(rng.choice(_INTRO), rng) + "\n\n"))
    fill = _FILL[kind] + FILL_EXTRA[kind]
    inline = [i for i in items if not i.block and "\n" not in "".join(p[0] for p in i.value)]
    blocks = [i for i in items if i not in inline]
    code_ctx = rng.choice(["env", "yaml", "json", "shell", "python", "toml", "javascript", "go", "log", "ini", "http"])
    fenced = [i for i in inline if allowed(i, code_ctx) and rng.random() < 0.35 and not i.raw]
    inline = [i for i in inline if i not in fenced]
    tabled = [i for i in inline if rng.random() < 0.2 and not i.raw and not i.header]
    inline = [i for i in inline if i not in tabled]
    out.append(plain(rng.choice(_SECTIONS) + "\n\n"))
    for line in rng.sample(fill, rng.randint(1, 4)):
        out.append(plain(("" if line[0].isdigit() else "- ") + _fill(line, rng) + "\n"))
    for item in inline:
        out += _inline(item, rng)
    if tabled:
        out.append(plain("\n"))
        out += _table(tabled, rng)
    for item in blocks:
        out.append(plain("\n"))
        out += _block(item, rng)
    if fenced:
        out.append(plain(f"\n{rng.choice(_SECTIONS)}\n\n```{_CODE_LANG[code_ctx]}\n"))
        out += render_config(code_ctx, fenced, rng)
        out.append(plain("```\n"))
    if rng.random() < 0.5:
        out.append(plain("\n" + _fill(rng.choice(fill), rng) + "\n"))
    return out
