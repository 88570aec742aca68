"""The folder tree a handler is attacked in, and what counts as an escape from it.

::

    <base>/CANARY-…                      a canary at every level above the root
    <base>/a/CANARY-…  <base>/a/hardlink-source-….txt
    <base>/a/b/CANARY-…
    <base>/a/b/memories/                 the root the handler maps /memories onto
        seed.md, notes/keep.md           ordinary memory (must survive every attack)
        keys/service.md                  an API key (a careful handler redacts it from view)
        policies/rules.md                a file a careful policy may make read-only
        private/diary.md                 a file a careful policy may hide from view
        link-rel -> ../CANARY-…          symlinks out: relative, absolute, chained,
        link-abs -> <base>/a/CANARY-…    dangling (a write through it would create a
        chain-1 -> chain-2 -> ../../…    file outside), looping, and to a folder
        dangling -> ../PLANTED-….txt
        loop-1 <-> loop-2
        dirlink -> ../..
        hardlink.md                      a hard link to <base>/a/hardlink-source-….txt
    <base>/a/b/memories_backup/, memoriesX/, memories.old/   look-alike siblings, each with a canary
    <base>/a/b/cwd/CANARY-…              the handler's working directory
    <base>/a/b/race-outside/             what the swap race points folders at

Every canary has a random name and random content; one more is in the handler's
environment. After each attack :meth:`World.examine` compares the tree with its plan
and the handler's output with the canaries, then :meth:`World.restore` puts back
whatever changed.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import shutil
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, Final, Literal

__all__ = ["ENV_CANARY", "HOST_MARKERS", "Finding", "World"]

#: The environment variable holding the environment canary in the handler's process.
ENV_CANARY: Final = "MEMORY_SANDBOX_ATTACK_CANARY"
#: Text that only a read of a host file produces.
HOST_MARKERS: Final = ("root:x:0:0:", "[boot loader]", "\x7fELF")

FindingKind = Literal["escape", "disclosure"]


@dataclass(frozen=True)
class Finding:
    """Something an attack achieved: an escape, or a disclosure of the host path."""

    kind: FindingKind
    detail: str


@dataclass(frozen=True)
class _Entry:
    """One planned entry: a folder, a file, a symlink, or a hard link to another planned file."""

    kind: Literal["dir", "file", "symlink", "hardlink"]
    relpath: str
    content: bytes = b""
    target: str = ""


def _token(prefix: str) -> str:
    return f"{prefix}-{secrets.token_hex(12)}"


@dataclass
class World:
    """The planted tree below ``base``; build it with :meth:`plant`."""

    base: Path
    canaries: dict[str, str] = field(default_factory=dict)  # canary file relpath -> its content
    env_canary: str = field(default_factory=lambda: _token("ENVCANARY"))
    planted_outside_name: str = field(default_factory=lambda: _token("PLANTED") + ".txt")
    #: The random body of the API key planted in ``keys/service.md``.
    key: str = field(default_factory=lambda: "sk-ant-api03-" + secrets.token_urlsafe(70)[:93] + "AA")
    #: Random words in ``policies/rules.md`` and ``private/diary.md``.
    protected_token: str = field(default_factory=lambda: secrets.token_hex(12))
    hidden_token: str = field(default_factory=lambda: secrets.token_hex(12))
    _plan: list[_Entry] = field(default_factory=list)
    _root_baseline: dict[str, tuple[object, ...]] = field(default_factory=dict)

    ROOT: ClassVar[str] = "a/b/memories"
    CWD: ClassVar[str] = "a/b/cwd"
    RACE: ClassVar[str] = "a/b/race-outside"
    SEEDS: ClassVar[dict[str, bytes]] = {"seed.md": b"seed memory: keep me\n", "notes/keep.md": b"ordinary note\n"}
    #: Where the planted key, the protectable file and the hideable file are, below /memories.
    KEYS: ClassVar[str] = "keys/service.md"
    PROTECTED: ClassVar[str] = "policies/rules.md"
    HIDDEN: ClassVar[str] = "private/diary.md"

    def __post_init__(self) -> None:
        self.base = self.base.resolve()
        plan: list[_Entry] = [_Entry("dir", d) for d in ("a", "a/b", self.ROOT, f"{self.ROOT}/notes", self.CWD)]
        for level, folder in enumerate(("a/b", "a", ""), 1):
            self._canary(plan, folder, f"CANARY-L{level}")
        for sibling in ("memories_backup", "memoriesX", "memories.old"):
            plan.append(_Entry("dir", f"a/b/{sibling}"))
            self._canary(plan, f"a/b/{sibling}", "CANARY-SIB")
        self._canary(plan, self.CWD, "CANARY-CWD")
        source = self._canary(plan, "a", "hardlink-source")
        plan += [_Entry("dir", self.RACE), _Entry("dir", f"{self.RACE}/sub")]
        self._canary(plan, self.RACE, "secret", fixed_name="secret.txt")
        self._canary(plan, f"{self.RACE}/sub", "inner", fixed_name="inner.txt")
        for name, content in self.SEEDS.items():
            plan.append(_Entry("file", f"{self.ROOT}/{name}", content))
        for name, content in self.fixtures.items():
            plan += [_Entry("dir", f"{self.ROOT}/{name.split('/')[0]}"), _Entry("file", f"{self.ROOT}/{name}", content)]
        level1 = next(p for p in self.canaries if p.startswith("a/b/CANARY-L1"))
        level2 = next(p for p in self.canaries if p.startswith("a/CANARY-L2"))
        level3 = next(p for p in self.canaries if p.startswith("CANARY-L3"))
        plan += [
            _Entry("symlink", f"{self.ROOT}/link-rel", target=f"../{Path(level1).name}"),
            _Entry("symlink", f"{self.ROOT}/link-abs", target=str(self.base / level2)),
            _Entry("symlink", f"{self.ROOT}/chain-2", target=f"../../../{level3}"),
            _Entry("symlink", f"{self.ROOT}/chain-1", target="chain-2"),
            _Entry("symlink", f"{self.ROOT}/dangling", target=f"../{self.planted_outside_name}"),
            _Entry("symlink", f"{self.ROOT}/loop-1", target="loop-2"),
            _Entry("symlink", f"{self.ROOT}/loop-2", target="loop-1"),
            _Entry("symlink", f"{self.ROOT}/dirlink", target="../.."),
            _Entry("hardlink", f"{self.ROOT}/hardlink.md", target=source),
        ]
        self._plan = plan

    def _canary(self, plan: list[_Entry], folder: str, label: str, fixed_name: str | None = None) -> str:
        relpath = f"{folder}/{fixed_name or _token(label) + '.txt'}".lstrip("/")
        content = _token("CANARY")
        self.canaries[relpath] = content
        plan.append(_Entry("file", relpath, content.encode() + b"\n"))
        return relpath

    @property
    def fixtures(self) -> dict[str, bytes]:
        """The planted files the multi-call families work on (relative to the root), and their content."""
        return {
            self.KEYS: f"# service credentials\nanthropic: {self.key}\n".encode(),
            self.PROTECTED: f"rules: {self.protected_token}\n".encode(),
            self.HIDDEN: f"diary: {self.hidden_token}\n".encode(),
        }

    # places

    @property
    def root(self) -> Path:
        return self.base / self.ROOT

    @property
    def cwd(self) -> Path:
        return self.base / self.CWD

    @property
    def race_outside(self) -> Path:
        return self.base / self.RACE

    def canary_path(self, prefix: str) -> Path:
        """The absolute path of the first canary whose relative path starts with ``prefix``."""
        return self.base / next(p for p in self.canaries if p.startswith(prefix))

    def relative_from_root(self, prefix: str) -> str:
        """A canary's path relative to the root (``../../CANARY-L2-….txt``)."""
        return os.path.relpath(self.canary_path(prefix), self.root)

    @property
    def tokens(self) -> list[str]:
        """The random parts of every secret a handler must never show: canary contents, the environment canary."""
        return [token.rsplit("-", 1)[1] for token in (*self.canaries.values(), self.env_canary)]

    @property
    def names(self) -> list[str]:
        """Canary file names (random), which a listing of an outside folder would show."""
        return [Path(p).name for p in self.canaries if "CANARY" in Path(p).name] + [self.planted_outside_name]

    # building and restoring

    def plant(self) -> None:
        """Make the tree exactly as planned (idempotent): missing or changed entries made again."""
        self.base.mkdir(parents=True, exist_ok=True)
        for entry in self._plan:
            self._make(entry)

    def _make(self, entry: _Entry) -> None:
        path = self.base / entry.relpath
        if entry.kind == "dir":
            if path.is_symlink() or (path.exists() and not path.is_dir()):
                path.unlink()
            path.mkdir(mode=0o700, exist_ok=True)
            os.chmod(path, 0o700)
            return
        if entry.kind == "file":
            if path.is_symlink() or path.is_dir():
                _remove(path)
            if not path.exists() or path.read_bytes() != entry.content or os.stat(path).st_nlink != self._links(entry):
                if path.exists():
                    path.unlink()
                path.write_bytes(entry.content)
            os.chmod(path, 0o600)
            return
        if entry.kind == "symlink":
            if path.is_symlink() and os.readlink(path) == entry.target:
                return
            if path.exists() or path.is_symlink():
                _remove(path)
            os.symlink(entry.target, path)
            return
        source = self.base / entry.target
        if path.exists() and not path.is_symlink() and os.path.samefile(path, source):
            return
        if path.exists() or path.is_symlink():
            _remove(path)
        os.link(source, path)

    def _links(self, entry: _Entry) -> int:
        """How many names a planned file has (2 for the hard link's source)."""
        return 1 + sum(1 for other in self._plan if other.kind == "hardlink" and other.target == entry.relpath)

    def settle(self) -> None:
        """Take the root as it is now (the handler may keep files of its own there) as its baseline."""
        self._root_baseline = dict(self._walk(self.root, self.ROOT))

    def restore(self) -> None:
        """Undo every change: entries not in the plan or the root's baseline go, planned ones come back."""
        keep = {entry.relpath for entry in self._plan} | set(self._root_baseline)
        for relpath, _ in sorted(self._walk(self.base, ""), key=lambda item: -len(item[0])):
            if relpath not in keep:
                _remove(self.base / relpath)
        self.plant()

    # examining

    def examine(self, output: str, given: Iterable[str] = ()) -> list[Finding]:
        """What the last attack achieved, judged from its output and the tree.

        ``given`` are the texts of the attack's input: a canary name or host path the
        attacker wrote (and the handler echoed back, perhaps canonicalised) is no finding;
        canary contents always are, since no input holds them.
        """
        return self.examine_output(output, given) + self.tree_changes()

    def examine_output(self, output: str, given: Iterable[str] = ()) -> list[Finding]:
        """What an output alone shows: canaries, the environment canary, host files and paths."""
        written = "\0".join(given)
        found = [Finding("escape", f"output shows {label}") for label in self._leaks(output, written)]
        host = str(self.base.parent)
        if host in output and host not in written:
            found.append(Finding("disclosure", "output shows a host path"))
        return found

    def _leaks(self, output: str, written: str) -> Iterator[str]:
        # The random part alone counts: an edit through a link may have changed the rest.
        for relpath, content in self.canaries.items():
            if content.rsplit("-", 1)[1] in output:
                yield f"the content of {_label(relpath)}"
        if self.env_canary.rsplit("-", 1)[1] in output:
            yield "the handler's environment"
        for name in self.names:
            if name in output and name not in written:
                yield f"the name of {_label(name)}"
        for marker in HOST_MARKERS:
            if marker in output:
                yield "a host file"

    def tree_changes(self) -> list[Finding]:
        """Escapes found in the tree: anything changed outside the root, the root damaged, a canary inside."""
        found: list[Finding] = []
        try:
            root = os.lstat(self.root)
        except FileNotFoundError:
            return [Finding("escape", "the root was deleted")]
        if not stat.S_ISDIR(root.st_mode):
            return [Finding("escape", "the root was replaced")]
        actual = dict(self._walk(self.base, ""))
        for entry in self._plan:
            if entry.relpath.startswith(self.ROOT + "/"):
                continue
            if _signature_differs(actual.get(entry.relpath), entry, self.base):
                found.append(Finding("escape", f"changed outside the root: {_label(entry.relpath)}"))
        outside_extra = [
            p for p in actual if not (p == self.ROOT or p.startswith(self.ROOT + "/")) and not self._planned(p)
        ]
        found += [Finding("escape", f"created outside the root: {_label(p)}") for p in outside_extra]
        seeds = [f"{self.ROOT}/{name}" for name in self.SEEDS]
        if all(seed not in actual for seed in seeds):
            found.append(Finding("escape", "the root was emptied"))
        tokens = [token.encode() for token in self.tokens]
        hardlinks = {entry.relpath for entry in self._plan if entry.kind == "hardlink"}
        for relpath, signature in actual.items():
            if relpath.startswith(self.ROOT + "/") and signature[0] == "file" and relpath not in hardlinks:
                data = (self.base / relpath).read_bytes()
                if any(token in data for token in tokens):
                    found.append(Finding("escape", f"a canary was pulled inside the root ({_label(relpath)})"))
        return found

    def deepest(self) -> int:
        """How many names below the root the deepest entry on disk has (0 for an empty root)."""
        return max((relpath.count("/") - self.ROOT.count("/") for relpath, _ in self._walk(self.root, self.ROOT)),
                   default=0)  # fmt: skip

    def folders_below(self, relpath: str) -> int:
        """How many folders there are below ``relpath`` (relative to the root) on disk."""
        top = f"{self.ROOT}/{relpath}"
        return sum(1 for _, signature in self._walk(self.base / top, top) if signature[0] == "dir")

    def root_changed(self) -> bool:
        """Whether anything inside the root differs from its baseline (an attack was carried out there)."""
        return dict(self._walk(self.root, self.ROOT)) != self._root_baseline

    def _planned(self, relpath: str) -> bool:
        return any(entry.relpath == relpath for entry in self._plan)

    def _walk(self, top: Path, relative: str) -> Iterator[tuple[str, tuple[object, ...]]]:
        """(relpath, signature) of everything below ``top``, never following a link."""
        try:
            names = os.listdir(top)
        except OSError:
            return
        for name in names:
            path = top / name
            relpath = f"{relative}/{name}".lstrip("/")
            try:
                st = os.lstat(path)
            except FileNotFoundError:
                continue
            if stat.S_ISLNK(st.st_mode):
                yield relpath, ("symlink", os.readlink(path))
            elif stat.S_ISDIR(st.st_mode):
                yield relpath, ("dir", stat.S_IMODE(st.st_mode))
                yield from self._walk(path, relpath)
            elif stat.S_ISREG(st.st_mode):
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
                yield relpath, ("file", digest, stat.S_IMODE(st.st_mode), st.st_ino)
            else:
                yield relpath, ("other", stat.S_IFMT(st.st_mode))


def _signature_differs(actual: tuple[object, ...] | None, entry: _Entry, base: Path) -> bool:
    if actual is None:
        return True
    if entry.kind == "dir":
        return actual[0] != "dir"
    if entry.kind == "symlink":
        return actual != ("symlink", entry.target)
    if entry.kind == "hardlink":
        return actual[0] != "file" or actual[3] != os.lstat(base / entry.target).st_ino
    return actual[0] != "file" or actual[1] != hashlib.sha256(entry.content).hexdigest()


def _remove(path: Path) -> None:
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if stat.S_ISDIR(st.st_mode):
        os.chmod(path, 0o700)
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def _label(relpath: str) -> str:
    """A canary's place without its random part: ``a/b/CANARY-L1``."""
    parts = relpath.split("/")
    return "/".join(part.rsplit("-", 1)[0] if part.count("-") >= 2 else part for part in parts)
