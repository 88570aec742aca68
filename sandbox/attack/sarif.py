"""The attack report as SARIF 2.1.0, the format code-scanning services (GitHub, GitLab, Azure) read.

One rule per attack family (``attack/<family>``), one result per finding: each case that
escaped /memories, and with ``--strict`` each accepted attack, crash, hang and host-path
disclosure. Results point at the handler's source file, the code that has to change.
"""

from __future__ import annotations

import hashlib
from typing import Any, Final

from sandbox.attack import FAMILIES, SEQUENCES
from sandbox.attack.report import ALWAYS_FAILING, Finding, Results, failing

__all__ = ["SARIF_SCHEMA", "render_sarif", "rule_id"]

SARIF_SCHEMA: Final = "https://json.schemastore.org/sarif-2.1.0.json"

_SPELLED: Final = {
    "dotdot": "plain ../ segments",
    "dot_segments": "./.. and // mixed into ../",
    "percent": "percent-encoded dots and slashes",
    "double_encoding": "percent-encoding applied twice",
    "triple_encoding": "percent-encoding applied three times",
    "percent_u": "%u-style escapes",
    "overlong_utf8": "overlong UTF-8 encodings of . and /",
    "fullwidth": "full-width dots and slashes",
    "lookalike_dots": "Unicode look-alikes of the dot",
    "lookalike_slashes": "Unicode look-alikes of the slash",
    "invisible": "zero-width and other invisible characters",
    "bidi": "bidirectional control characters",
    "backslash": "backslash separators",
    "nul_control": "NUL and control characters",
    "trailing_dots_spaces": "trailing dots and spaces",
}
_OTHER: Final = {
    "absolute": "Absolute paths outside /memories",
    "host_files": "Well-known host files (/etc/passwd and the like)",
    "prefix_confusion": "Siblings sharing the /memories prefix (/memoriesX, /memories_backup)",
    "relative": "Paths relative to the handler's working folder",
    "windows_drive": "Windows drive paths",
    "unc": "Windows UNC paths",
    "symlink": "Symbolic links planted inside the root",
    "hardlink": "Hard links planted inside the root",
    "long": "Very long paths and names",
    "device_names": "Windows device names (CON, nul.txt, COM1.md)",
    "short_names_streams": "8.3 short names and alternate data streams",
    "root": "Deleting, renaming or replacing /memories itself",
    "malformed": "Malformed tool input (wrong types, missing fields, unknown commands)",
    "race": "Folders swapped for symbolic links while the handler works",
    "nested_renames": "Folders renamed into each other until a file is deeper than any create may go",
    "folder_flood": "Renames that leave an empty folder behind each time",
    "oracle_redacted": "Edits that guess at a key view redacts",
    "oracle_hidden": "Commands that name a file view hides",
    "ancestor_moves": "Moves and deletes of the folders around a read-only file",
    "twin_names": "Names that differ from an existing one only in case or in look-alike letters",
}
# GitHub ranks security results by this score (0-10): an escape is critical; the rest matter with --strict.
_SEVERITY: Final = {
    "escape": "9.8",
    "bypass": "8.1",
    "accepted": "5.0",
    "unguarded": "5.0",
    "disclosure": "5.0",
    "crash": "4.0",
    "hang": "4.0",
}


def rule_id(family: str) -> str:
    return f"attack/{family}"


def _describe(family: str) -> str:
    if family in _SPELLED:
        return f"Traversal out of /memories spelled with {_SPELLED[family]}"
    return _OTHER.get(family, family)


def _rule(family: str) -> dict[str, Any]:
    text = _describe(family)
    if family in SEQUENCES:
        full, tags = f"{text}: no sequence of calls may get what the handler refuses to one.", ["multi-call"]
    else:
        full, tags = f"{text}: the handler must refuse the call and touch nothing outside its root.", ["path-traversal"]
    return {
        "id": rule_id(family),
        "name": "".join(part.capitalize() for part in family.split("_")),
        "shortDescription": {"text": text},
        "fullDescription": {"text": full},
        "help": {"text": "Canonicalise every path before use and contain it in the root; see the attack gate docs."},
        "defaultConfiguration": {"level": "error"},
        "properties": {"tags": ["security", *tags], "security-severity": _SEVERITY["escape"]},
    }


def _result(finding: Finding, index: int, location: dict[str, Any], *, strict: bool) -> dict[str, Any]:
    level = "error" if finding.category in ALWAYS_FAILING or strict else "warning"
    key = f"{finding.family}\0{finding.command}\0{finding.category}\0{finding.input}".encode()
    return {
        "ruleId": rule_id(finding.family),
        "ruleIndex": index,
        "level": level,
        "message": {"text": f"{finding.category} ({finding.command}): {finding.why} - input {finding.input}"},
        "locations": [location],
        "partialFingerprints": {"memorySandboxCase/v1": hashlib.sha256(key).hexdigest()[:32]},
        "properties": {
            "category": finding.category,
            "command": finding.command,
            "security-severity": _SEVERITY[finding.category],
        },
    }


def render_sarif(results: Results, *, strict: bool, handler_uri: str, version: str) -> dict[str, Any]:
    """The SARIF log of one attack run; ``handler_uri``: the handler's source, relative to the repository."""
    families = [family for family in FAMILIES if family in results.families or (family == "race" and results.race)]
    index: dict[str, int] = {family: n for n, family in enumerate(families)}
    location = {
        "physicalLocation": {"artifactLocation": {"uri": handler_uri, "uriBaseId": "%SRCROOT%"}},
        "logicalLocations": [{"fullyQualifiedName": results.handler, "kind": "function"}],
    }
    categories = failing(strict=strict)
    found = [finding for finding in results.findings if finding.category in categories]
    sarif_results = [_result(f, index[f.family], location, strict=strict) for f in found]
    race = results.race
    if race is not None and race.escaped:
        detail = "; ".join(race.outside_events[:3]) or "output showed a canary from outside the root"
        race_finding = Finding("race", "symlink_swap", "escape", f"{race.swaps:,} swaps", detail)
        sarif_results.append(_result(race_finding, index["race"], location, strict=strict))
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "memory-sandbox attack",
                        "version": version,
                        "rules": [_rule(family) for family in families],
                    }
                },
                "invocations": [{"executionSuccessful": True}],
                "results": sarif_results,
                "properties": {
                    "passed": not results.failed(strict=strict),
                    "strict": strict,
                    "cases": results.cases,
                    "findingsNotListed": results.findings_dropped,
                },
            }
        ],
    }
