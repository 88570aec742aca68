"""What a folder given as a ``file:`` store is: stated by a manifest, never guessed.

Every folder the sandbox manages carries ``.memory-sandbox/manifest.json``, a name no model
path can spell, written when the folder is first used:

* ``{"kind": "memory", "layout": 2, "scope": ID or null}``: the folder is ``/memories`` of one store;
* ``{"kind": "scopes", "layout": 2}``: the folder holds the scopes of a multi-scope store, and
  no memory of its own::

      DIR/scopes/<name>/             the memory of one scope (a "memory" folder)
      DIR/audit/<name>.audit.jsonl   its decision log, with its witness, lock and keys (0700)

So no folder a model sees as ``/memories`` ever holds another scope's memory, an audit file or
a key. Opening a folder as memory refuses a scopes folder, and a folder of the first layout
(scope folders side by side with their logs, ``DIR/<name>/`` and ``DIR/<name>.audit.jsonl``);
opening a folder as scopes refuses a memory folder. :func:`migrate_first_layout` moves a
first-layout folder to this one (``memory-sandbox store migrate``).
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass
from typing import Any, Final, Literal

from sandbox.display import printable
from sandbox.errors import StorageError
from sandbox.paths import RESERVED_PREFIX
from sandbox.storage._fs import publish_once

__all__ = [
    "AUDIT_FOLDER",
    "LAYOUT",
    "SCOPES_FOLDER",
    "Manifest",
    "claim_memory_folder",
    "claim_scopes_folder",
    "migrate_first_layout",
    "read_manifest",
    "refuse_nested",
]

LAYOUT: Final = 2
CONTROL: Final = RESERVED_PREFIX
MANIFEST: Final = "manifest.json"
SCOPES_FOLDER: Final = "scopes"
AUDIT_FOLDER: Final = "audit"
_MODE: Final = 0o700
#: The files of a first-layout scope's audit log, after ``<name>.audit.jsonl``.
_AUDIT_SUFFIXES: Final = ("", ".witness", ".lock", ".synced", ".pub", ".key")

Kind = Literal["memory", "scopes"]


@dataclass(frozen=True)
class Manifest:
    kind: Kind
    layout: int = LAYOUT
    scope: str | None = None

    def to_json(self) -> str:
        body: dict[str, Any] = {"kind": self.kind, "layout": self.layout}
        if self.kind == "memory":
            body["scope"] = self.scope
        return json.dumps(body, sort_keys=True) + "\n"


def _label(folder: str) -> str:
    return os.path.basename(os.path.normpath(folder)) or folder


def read_manifest(folder: str) -> Manifest | None:
    """The folder's manifest; None if it has none. A manifest that cannot be read is refused."""
    try:
        fd = os.open(os.path.join(folder, CONTROL, MANIFEST), os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError:
        raise StorageError(f"Error: The manifest of store {_label(folder)} cannot be read.") from None
    try:
        with os.fdopen(fd, "rb") as file:
            manifest = _parsed(json.loads(file.read(4096)))
    except (OSError, ValueError):
        manifest = None
    if manifest is None:
        raise StorageError(f"Error: The manifest of store {_label(folder)} is damaged.")
    if manifest.layout > LAYOUT:
        raise StorageError(
            f"Error: Store {_label(folder)} has layout {manifest.layout}; this version reads up to {LAYOUT}."
        )
    return manifest


def _parsed(body: object) -> Manifest | None:
    if not isinstance(body, dict):
        return None
    kind, layout, scope = body.get("kind"), body.get("layout"), body.get("scope")
    if kind not in ("memory", "scopes") or not isinstance(layout, int) or not isinstance(scope, str | None):
        return None
    return Manifest(kind, layout, scope)


def _write_manifest(folder: str, manifest: Manifest) -> None:
    control = os.path.join(folder, CONTROL)
    os.makedirs(control, mode=_MODE, exist_ok=True)
    publish_once(os.path.join(control, MANIFEST), manifest.to_json().encode())  # a racing claim reads this one
    written = read_manifest(folder)
    if written is None or written.kind != manifest.kind:
        raise StorageError(
            f"Error: {_label(folder)} was claimed as {written.kind if written else 'nothing'} meanwhile."
        )


def _first_layout_scopes(folder: str) -> list[str]:
    """Sub-folders that are stores of their own: the scope folders of the first layout (a model
    cannot make one, since it cannot name the control folder)."""
    try:
        with os.scandir(folder) as entries:
            names = [e.name for e in entries if e.is_dir(follow_symlinks=False) and not e.name.startswith(CONTROL)]
    except FileNotFoundError:
        return []
    return sorted(name for name in names if os.path.isdir(os.path.join(folder, name, CONTROL)))


#: Files that only a store's decision log makes: a folder holding one holds a store (a SQLite
#: database's log lies beside it, a folder store's beside its folder).
_STORE_LOG_ENDINGS: Final = (".audit.jsonl", ".audit.jsonl.key", ".audit.jsonl.witness")


def _store_below(folder: str) -> str | None:
    """A store's folder anywhere below ``folder`` (links not followed), as a path relative to it; None
    if there is none. Run once, when a folder is first claimed, so its cost is paid once; iterative,
    so a tree of any depth is walked."""
    stack = [folder]
    while stack:
        here = stack.pop()
        try:
            with os.scandir(here) as scan:
                entries = [(entry.name, entry.path, entry.is_dir(follow_symlinks=False)) for entry in scan]
        except OSError:
            continue  # gone meanwhile, or a path too long to name: no store can be opened there either
        for name, path, is_dir in entries:
            if is_dir and name == CONTROL and here != folder:
                return os.path.relpath(here, folder)
            if not is_dir and name.endswith(_STORE_LOG_ENDINGS):  # the decision log (or key) of a store
                return os.path.relpath(path, folder)
            if is_dir and not name.startswith(CONTROL):
                stack.append(path)
    return None


def _refuse_stores_below(folder: str) -> None:
    below = _store_below(folder)
    if below is not None:
        raise StorageError(
            f"Error: {_label(folder)} holds the folder of another store ({printable(below)}); "
            "a store cannot take a folder that holds another store."
        )


def _migrate_hint(folder: str) -> str:
    return f"memory-sandbox store migrate --store file:{_label(folder)}"


def _misplaced(folder: str, kind: Kind) -> str | None:
    """Why ``folder`` may not be a store's folder of ``kind`` where it is (None if it may): inside the
    memory of another store, whose model would see it, or inside a folder of scopes anywhere but
    ``scopes/<name>`` (its ``audit/`` folder, say). Symbolic links in the path are resolved first."""
    target = os.path.realpath(folder)
    here = os.path.dirname(target)
    while True:
        if os.path.isdir(os.path.join(here, CONTROL)):
            manifest = read_manifest(here)
            if manifest is None or manifest.kind == "memory":
                return f"lies inside the memory of store {_label(here)}"
            inside = os.path.relpath(target, here).split(os.sep)
            if kind == "scopes" or len(inside) != 2 or inside[0] != SCOPES_FOLDER:
                return f"lies inside the folder of scopes {_label(here)}, outside its {SCOPES_FOLDER}/<name>"
        above = os.path.dirname(here)
        if above == here:
            return None
        here = above


def refuse_nested(folder: str, kind: Kind = "memory") -> None:
    """Refuse a store's folder where another store's model, or none, should see it, before anything
    is made there (see :func:`_misplaced`)."""
    why = _misplaced(folder, kind)
    if why is not None:
        raise StorageError(f"Error: {_label(folder)} {why}; a store's folder cannot be there.")


def claim_memory_folder(folder: str, scope: str | None) -> None:
    """Make sure ``folder`` may be ``/memories``: its manifest says memory, or it is new and gets one;
    never a folder of scopes or one holding older scope folders."""
    manifest = read_manifest(folder)
    if manifest is not None:
        if manifest.kind == "scopes":
            raise StorageError(
                f"Error: {_label(folder)} holds the scopes of a multi-scope store, not memory; give a scope."
            )
        return
    nested = _first_layout_scopes(folder)
    if nested:
        raise StorageError(
            f"Error: {_label(folder)} holds the scope folders of an older layout ({printable(nested[0])}, ...), "
            f"not memory; move them first: {_migrate_hint(folder)}"
        )
    _refuse_stores_below(folder)
    _write_manifest(folder, Manifest("memory", scope=scope))


def claim_scopes_folder(folder: str) -> None:
    """Make sure ``folder`` may hold scopes: its manifest says so, or it is new (or empty) and gets one."""
    manifest = read_manifest(folder)
    if manifest is not None and manifest.kind == "memory":
        raise StorageError(f"Error: {_label(folder)} is the memory of one store; it holds no scopes.")
    if manifest is None:
        if _first_layout_scopes(folder):
            raise StorageError(
                f"Error: {_label(folder)} has the older layout of scopes; move it first: {_migrate_hint(folder)}"
            )
        if os.path.isdir(os.path.join(folder, CONTROL)):
            raise StorageError(f"Error: {_label(folder)} is the memory of one store; it holds no scopes.")
        _refuse_stores_below(folder)
        _write_manifest(folder, Manifest("scopes"))  # first: a racing claim as memory fails, or this one does
    for name in (SCOPES_FOLDER, AUDIT_FOLDER):
        with contextlib.suppress(FileExistsError):
            os.mkdir(os.path.join(folder, name), _MODE)


def migrate_first_layout(folder: str) -> list[str]:
    """Move a first-layout folder to this layout; returns the scope folders moved.

    Each ``<name>/`` that is a store goes to ``scopes/<name>/``, and its log files
    (``<name>.audit.jsonl``, rotated ``.N`` files, witness, lock, keys) to ``audit/``. Everything is
    first moved into a staging folder under the reserved name, then put in place, so scopes named
    ``scopes`` or ``audit`` cannot swallow the others, and a migration cut short is finished by the
    next run. Anything else at the top (memory written there without a scope) is refused, not moved
    or lost: the operator decides where it belongs. Safe to run again.
    """
    manifest = read_manifest(folder)
    if manifest is not None and manifest.kind == "scopes":
        return []
    if manifest is not None:
        raise StorageError(f"Error: {_label(folder)} is the memory of one store; it holds no scopes.")
    staging = os.path.join(folder, f"{CONTROL}-migrating")
    scopes = _first_layout_scopes(folder)
    logs = {name: _log_files(folder, name) for name in scopes}
    known = set(scopes) | {file for files in logs.values() for file in files}
    with os.scandir(folder) as entries:
        others = sorted(e.name for e in entries if e.name not in known and not e.name.startswith(CONTROL))
    if others:
        shown = ", ".join(printable(name) for name in others[:5]) + (", ..." if len(others) > 5 else "")
        raise StorageError(
            f"Error: {_label(folder)} holds {len(others)} entries of no scope ({shown}); "
            "move them into a scope or elsewhere, then migrate."
        )
    for name in (SCOPES_FOLDER, AUDIT_FOLDER):
        os.makedirs(os.path.join(staging, name), mode=_MODE, exist_ok=True)
    for name in scopes:
        os.rename(os.path.join(folder, name), os.path.join(staging, SCOPES_FOLDER, name))
        for file in logs[name]:
            os.rename(os.path.join(folder, file), os.path.join(staging, AUDIT_FOLDER, file))
    for name in (SCOPES_FOLDER, AUDIT_FOLDER):
        os.rename(os.path.join(staging, name), os.path.join(folder, name))
    os.rmdir(staging)
    # The folder's own control files, if a command once opened it as memory, described that mistake.
    with contextlib.suppress(FileNotFoundError):
        os.remove(os.path.join(folder, CONTROL, "state"))
    _write_manifest(folder, Manifest("scopes"))
    moved = sorted(os.listdir(os.path.join(folder, SCOPES_FOLDER)))
    return moved


def _log_files(folder: str, name: str) -> list[str]:
    base = f"{name}.audit.jsonl"
    found = [base + suffix for suffix in _AUDIT_SUFFIXES if os.path.lexists(os.path.join(folder, base + suffix))]
    with os.scandir(folder) as entries:
        found += [e.name for e in entries if e.name.startswith(base + ".") and e.name[len(base) + 1 :].isdigit()]
    return sorted(found)
