"""Policies: one TOML file per deployment, validated strictly, compiled once.

A policy is loaded with :func:`load_policy` from a shipped profile name
(``"default"``, ``"strict"``) or a file path, parsed with :mod:`tomllib` and
validated by pydantic models that forbid unknown keys, so a typo can never
loosen a policy silently. Errors read ``file: key.path: reason`` and stop
start-up (fail closed).
"""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Final, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator

from sandbox.errors import PolicyError
from sandbox.globs import Glob
from sandbox.paths import PathLimits

__all__ = [
    "COMMANDS",
    "AccessRule",
    "AuditSection",
    "LimitsSection",
    "PathsSection",
    "Policy",
    "QuotaSection",
    "RetentionRule",
    "RetentionSection",
    "SecretPathOverride",
    "SecretsSection",
    "load_policy",
    "profile_names",
]

_PROFILE_NAME: Final = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
_MIB: Final = 1024 * 1024


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


# TOML arrays arrive as lists: the container is lax, its items stay strict.
Strings = Annotated[tuple[str, ...], Field(strict=False)]
Action = Literal["redact", "reject", "allow"]
Command = Literal["view", "create", "str_replace", "insert", "delete", "rename"]
COMMANDS: Final[tuple[Command, ...]] = ("view", "create", "str_replace", "insert", "delete", "rename")
Positive = Annotated[int, Field(gt=0)]


def _globs(values: tuple[str, ...]) -> tuple[str, ...]:
    for value in values:
        Glob(value)
    return values


Globs = Annotated[tuple[str, ...], Field(strict=False), AfterValidator(_globs)]


class PathsSection(_Section):
    """How model paths are canonicalised and which names may be written."""

    max_path_bytes: Annotated[int, Field(gt=0, le=4096)] = 1024
    max_name_bytes: Annotated[int, Field(gt=0, le=255)] = 255
    max_decode_rounds: Annotated[int, Field(ge=1, le=8)] = 4
    # Names below /memories, the file's own included: /memories/a/b.md has depth 2.
    max_depth: Annotated[int, Field(ge=1, le=64)] = 16
    # Extensions a written file may have (".md", ...); empty means any.
    allowed_extensions: Strings = ()
    # "refuse": no two names in a folder may differ only in case (they collide on
    # case-insensitive file systems and in sync tools).
    case_collisions: Literal["refuse", "allow"] = "refuse"
    # "refuse": no name that looks like a sibling's through look-alike letters of another script
    # (a Cyrillic "\u043e" for a Latin "o"; Unicode TR39 confusables). Two plain ASCII names never collide.
    lookalike_collisions: Literal["refuse", "allow"] = "refuse"
    # Refuse Windows device names (CON, nul.txt) and 8.3 short names (NOTES~1.MD).
    portable_names: bool = True

    @field_validator("allowed_extensions")
    @classmethod
    def _extensions(cls, values: tuple[str, ...]) -> tuple[str, ...]:
        for value in values:
            if not value.startswith(".") or value != value.lower() or "/" in value or len(value) < 2:
                raise ValueError(f"{value!r}: extensions are lower-case and start with a dot, like '.md'")
        return values


class LimitsSection(_Section):
    """Size bounds on command input, stored files and tool output."""

    # Any string field of a command (content, old_str, ...); larger input is refused at parse.
    max_string_bytes: Positive = 2 * _MIB
    # The text one command adds (file_text, new_str, insert_text).
    max_write_bytes: Positive = _MIB
    # A file's size and line count after the command (str_replace and insert included).
    max_file_bytes: Positive = _MIB
    max_file_lines: Positive = 50_000
    # The documented view truncation: longer output is cut with a hint to use view_range.
    max_view_chars: Annotated[int, Field(ge=1000)] = 16_000
    # Images (.png, .jpg, .jpeg) are returned as image blocks up to this size.
    max_image_bytes: Annotated[int, Field(gt=0, le=20 * _MIB)] = 5 * _MIB


class QuotaSection(_Section):
    """What one scope (user, team, agent) may hold and how fast it may call."""

    max_bytes: Positive | None = 10 * _MIB
    max_files: Positive | None = 1000
    # Folders count too (renames and deletes leave them behind); unset means the same as max_files.
    max_folders: Positive | None = None
    # Token bucket per scope: this many calls a minute, in bursts of up to as many.
    max_operations_per_minute: Positive | None = None

    @property
    def folder_limit(self) -> int | None:
        """The folder quota in force: ``max_folders``, or ``max_files`` when it is not set."""
        return self.max_folders if self.max_folders is not None else self.max_files


class AccessRule(_Section):
    """Allow or deny commands on paths matching globs. Deny wins over allow."""

    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9._-]{0,63}$")]
    effect: Literal["allow", "deny"]
    commands: Annotated[tuple[Command, ...], Field(strict=False, min_length=1)] = COMMANDS
    paths: Annotated[Globs, Field(min_length=1)]
    reason: str = ""


class AuditSection(_Section):
    """Where decisions are recorded and how durably."""

    # "beside-store": audit.jsonl next to the store; "none": no log; else a file path.
    sink: str = "beside-store"
    # fsync the intent record of writes (default), only flush, or fsync every record.
    durability: Literal["fsync", "flush", "fsync-all"] = "fsync"
    # Which identifiers the application gives are written to records.
    log_principal: bool = True
    log_session: bool = True
    log_tool_use: bool = True
    # The checkpoint signing key; default <log>.key beside a file log. A database log
    # (a PostgreSQL store's "beside-store") needs it: one key file for the whole fleet.
    key_file: str | None = None
    # A signed checkpoint every this many records (and at rotation and shutdown).
    checkpoint_every: Positive = 1000
    # Rotate the log file when it grows past this size.
    rotate_bytes: Positive = 64 * _MIB
    # Witnesses off the host: folders that also receive each signed checkpoint (another volume, an
    # append-only mount), and a command run with each checkpoint on its stdin (sandbox.audit.witness).
    witness: Annotated[tuple[str, ...], Field(strict=False)] = ()
    witness_command: str | None = None
    # Record paths, names and digests as pseudonyms keyed by a secret of the scope, which purge
    # destroys: the log keeps verifying and no longer names what the user stored.
    pseudonymize: bool = False


class RetentionRule(_Section):
    """Files matching ``glob`` expire ``ttl_days`` after their last change."""

    glob: Annotated[str, AfterValidator(lambda value: _globs((value,))[0])]
    ttl_days: Positive


class RetentionSection(_Section):
    """When files expire (``memory-sandbox expire``); the first matching rule wins."""

    ttl_days: Positive | None = None
    rules: Annotated[tuple[RetentionRule, ...], Field(strict=False)] = ()
    # Files matching these globs never expire.
    pinned: Globs = ()


class SecretPathOverride(_Section):
    """Secrets found in files matching ``glob`` get ``action``, whatever the rule says."""

    glob: Annotated[str, AfterValidator(lambda value: _globs((value,))[0])]
    action: Action


class SecretsSection(_Section):
    """Which secret rule packs apply, and what happens to what they find."""

    enabled: bool = True
    # Shipped pack names (policies/secrets/NAME.toml) or pack file paths.
    packs: Strings = ("builtin",)
    # Overrides every rule's own action (e.g. "reject" for a strict deployment).
    action: Action | None = None
    # Per-rule actions, by rule id; an unknown id is an error.
    rules: Annotated[dict[str, Action], Field(strict=False)] = {}
    # Rule ids switched off entirely; an unknown id is an error.
    disabled: Strings = ()
    # Per-path actions, first matching glob wins; they beat every other setting.
    paths: Annotated[tuple[SecretPathOverride, ...], Field(strict=False)] = ()
    # Redact secrets found in stored content when it is viewed (written before the sandbox, say).
    scan_reads: bool = True
    # The learned scorer (rule id "secret-scorer" in `rules` and `disabled`): value-like tokens no rule
    # matched, judged by their shape and the words around them (sandbox.secret_scorer).
    scorer: bool = True
    # The probability a token is redacted at; unset: the shipped model's own (0.3% of the ordinary
    # tokens of the corpora it was trained on, each scored by a model trained without its corpus).
    scorer_threshold: Annotated[float, Field(gt=0.0, lt=1.0)] | None = None


class InjectionSection(_Section):
    """Which rule packs for instructions planted in memory apply to what calls write, and what happens."""

    enabled: bool = True
    # Shipped pack names (policies/injection/NAME.toml) or pack file paths.
    packs: Strings = ("builtin",)
    # Overrides every rule's own action: "record", "flag", "quarantine" (kept as a version only, for an
    # operator to release or drop; refused where the store keeps no versions) or "reject".
    action: Literal["record", "flag", "quarantine", "reject"] | None = None
    # Per-rule actions, by rule id; an unknown id is an error.
    rules: Annotated[dict[str, Literal["record", "flag", "quarantine", "reject"]], Field(strict=False)] = {}
    # Rule ids switched off entirely; an unknown id is an error.
    disabled: Strings = ()
    # The learned scorer (rule id "scorer" in `rules` and `disabled`): each line judged as a whole,
    # for orders no rule's phrasing lists (sandbox.injection_scorer).
    scorer: bool = True
    # The probability a line is flagged at; unset: the shipped model's own (1% false alarms where
    # it was trained). Lower finds more and flags more ordinary notes.
    scorer_threshold: Annotated[float, Field(gt=0.0, lt=1.0)] | None = None


class HistorySection(_Section):
    """Versions of what changes (sandbox.history): how many stay, and for how long."""

    # Keep a version of everything a call replaces, on stores that keep history (folder, SQLite, PostgreSQL).
    enabled: bool = True
    # Each path keeps at most this many versions (the state from before a recent session always stays).
    keep_versions: Positive = 20
    # Versions older than this go; younger ones from before a session stay.
    keep_days: Positive = 30
    # All versions of a scope together, outside its quota; a write that would need more is refused.
    max_bytes: Positive = 64 * _MIB
    # A view ends with a note naming the lines another principal's session wrote (read from the
    # versions; a view then takes the store's write lock to read them).
    annotate_views: bool = False


class Policy(_Section):
    """A validated policy. Build with :func:`load_policy` or ``Policy.model_validate``."""

    schema_version: Literal[1]
    id: Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$")]
    revision: Annotated[int, Field(ge=1)]
    description: str = ""
    # What happens to a call no [[rules]] entry allows or denies.
    default_effect: Literal["allow", "deny"] = "allow"
    paths: PathsSection = PathsSection()
    limits: LimitsSection = LimitsSection()
    quota: QuotaSection = QuotaSection()
    rules: Annotated[tuple[AccessRule, ...], Field(strict=False)] = ()
    secrets: SecretsSection = SecretsSection()
    injection: InjectionSection = InjectionSection()
    history: HistorySection = HistorySection()
    audit: AuditSection = AuditSection()
    retention: RetentionSection = RetentionSection()

    @field_validator("rules")
    @classmethod
    def _unique_rule_ids(cls, rules: tuple[AccessRule, ...]) -> tuple[AccessRule, ...]:
        ids = [rule.id for rule in rules]
        if len(ids) != len(set(ids)):
            raise ValueError("rule ids must be unique")
        return rules

    @property
    def path_limits(self) -> PathLimits:
        return PathLimits(
            max_path_bytes=self.paths.max_path_bytes,
            max_name_bytes=self.paths.max_name_bytes,
            max_decode_rounds=self.paths.max_decode_rounds,
            portable_names=self.paths.portable_names,
        )


def profile_names() -> tuple[str, ...]:
    """The profiles shipped in the ``policies`` package."""
    folder = resources.files("policies")
    return tuple(sorted(entry.name[:-5] for entry in folder.iterdir() if entry.name.endswith(".toml")))


def load_policy(name_or_path: str | Path) -> Policy:
    """Load a shipped profile by name, or a policy file by path; raise :class:`PolicyError`."""
    if isinstance(name_or_path, str) and _PROFILE_NAME.fullmatch(name_or_path):
        entry = resources.files("policies") / f"{name_or_path}.toml"
        if not entry.is_file():
            raise PolicyError(
                f"{name_or_path}: no such profile (shipped: {', '.join(profile_names())}); give a path to load a file"
            )
        return parse_policy(entry.read_text(encoding="utf-8"), source=f"{name_or_path}.toml")
    path = Path(name_or_path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PolicyError(f"{path.name}: cannot read policy file ({type(exc).__name__})") from None
    return parse_policy(text, source=path.name)


def parse_policy(text: str, *, source: str) -> Policy:
    """Validate policy TOML text; ``source`` names it in error messages."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PolicyError(f"{source}: invalid TOML: {exc}") from None
    try:
        return Policy.model_validate(data)
    except ValidationError as exc:
        raise PolicyError("\n".join(_format_error(source, err) for err in exc.errors(include_url=False))) from None


def _format_error(source: str, error: Any) -> str:
    key = ".".join(str(part) for part in error["loc"]) or "(top level)"
    ctx = error.get("ctx") or {}
    kind = error["type"]
    reasons = {
        "extra_forbidden": "unknown key (a misspelt key would silently loosen the policy)",
        "missing": "required key is missing",
        "greater_than": f"value must be > {ctx.get('gt')}",
        "greater_than_equal": f"value must be >= {ctx.get('ge')}",
        "less_than_equal": f"value must be <= {ctx.get('le')}",
    }
    return f"{source}: {key}: {reasons.get(kind, error['msg'])}"
