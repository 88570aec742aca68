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

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from sandbox.errors import PolicyError
from sandbox.globs import Glob
from sandbox.paths import PathLimits

__all__ = [
    "LimitsSection",
    "PathsSection",
    "Policy",
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


class PathsSection(_Section):
    """How model paths are canonicalised (see :mod:`sandbox.paths`)."""

    max_path_bytes: Annotated[int, Field(gt=0, le=4096)] = 1024
    max_name_bytes: Annotated[int, Field(gt=0, le=255)] = 255
    max_decode_rounds: Annotated[int, Field(ge=1, le=8)] = 4


class LimitsSection(_Section):
    """Size bounds on command input and tool output."""

    # Any string field of a command (content, old_str, ...); larger input is refused at parse.
    max_string_bytes: Annotated[int, Field(gt=0)] = 2 * _MIB
    # The documented view truncation: longer output is cut with a hint to use view_range.
    max_view_chars: Annotated[int, Field(ge=1000)] = 16_000
    # Images (.png, .jpg, .jpeg) are returned as image blocks up to this size.
    max_image_bytes: Annotated[int, Field(gt=0, le=20 * _MIB)] = 5 * _MIB


class SecretPathOverride(_Section):
    """Secrets found in files matching ``glob`` get ``action``, whatever the rule says."""

    glob: str
    action: Action

    @field_validator("glob")
    @classmethod
    def _glob_compiles(cls, value: str) -> str:
        Glob(value)
        return value


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


class Policy(_Section):
    """A validated policy. Build with :func:`load_policy` or ``Policy.model_validate``."""

    schema_version: Literal[1]
    id: Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$")]
    revision: Annotated[int, Field(ge=1)]
    description: str = ""
    paths: PathsSection = PathsSection()
    limits: LimitsSection = LimitsSection()
    secrets: SecretsSection = SecretsSection()

    @property
    def path_limits(self) -> PathLimits:
        return PathLimits(
            max_path_bytes=self.paths.max_path_bytes,
            max_name_bytes=self.paths.max_name_bytes,
            max_decode_rounds=self.paths.max_decode_rounds,
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
