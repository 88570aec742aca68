"""The attack corpus: hostile paths by technique family, put into every path slot of every command.

Paths are generated for the planted :class:`~sandbox.attack.world.World`, so each aims
at a real canary (or at a new file outside the root, for writes). Traversal families
spell ``../`` their own way (percent-encoded once, twice or three times, ``%u``
forms, overlong UTF-8, look-alike dots and slashes, invisible and bidi characters,
backslashes, NUL and controls, trailing dots and spaces) and are placed after several
prefixes, aimed at every canary, with and without overshooting to the file system's
root. The other families are absolute and relative paths, prefix confusion, drive
and UNC forms, planted symlinks and a hard link, very long paths, and names that are
not portable. Every payload is hostile: a careful handler refuses it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from sandbox.attack.world import World

__all__ = ["COMMANDS", "MALFORMED", "ROOT_SPELLINGS", "Case", "Payload", "cases", "payloads"]


@dataclass(frozen=True)
class Payload:
    """One hostile path, and the technique family it belongs to.

    ``must_refuse`` is False for the few paths a careful handler may also map inside the
    root (``/memories//etc/passwd`` is ``/memories/etc/passwd``); success on those is
    not counted as an accepted attack, only an escape is.
    """

    family: str
    path: str
    must_refuse: bool = True


@dataclass(frozen=True)
class Case:
    """One call to make: the tool input, the family and the command slot it exercises."""

    family: str
    slot: str
    command: Any
    must_refuse: bool = True


#: How each traversal family spells ``..`` and ``/``.
TRAVERSALS: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    "dotdot": (("..", "/"),),
    "dot_segments": (("./..", "/"), ("..", "/./"), ("..", "//"), ("..", "/notes/../")),
    "percent": (("%2e%2e", "%2f"), ("..", "%2f"), ("%2e%2e", "/"), ("%2E%2E", "%2F"), (".%2e", "/"), ("%2e.", "/")),
    "double_encoding": (("%252e%252e", "%252f"), ("..", "%252f"), ("%252e%252e", "/"), ("%252E%252E", "%252F")),
    "triple_encoding": (("%25252e%25252e", "%25252f"), ("..", "%25252f"), ("%25252e%25252e", "/")),
    "percent_u": (("%u002e%u002e", "%u002f"), ("..", "%u2215"), ("%u002e%u002e", "/"), ("%U002E%U002E", "%U002F")),
    "overlong_utf8": (
        ("%c0%ae%c0%ae", "%c0%af"),
        ("..", "%c0%af"),
        ("%c0%ae%c0%ae", "/"),
        ("%e0%80%ae%e0%80%ae", "/"),
        ("..", "%e0%80%af"),
        ("%f0%80%80%ae%f0%80%80%ae", "/"),
    ),
    "fullwidth": (("\uff0e\uff0e", "\uff0f"), ("\uff0e\uff0e", "/"), ("..", "\uff0f"), ("%ef%bc%8e%ef%bc%8e", "/")),
    "lookalike_dots": (
        ("\u2024\u2024", "/"),
        ("\ufe52\ufe52", "/"),
        ("\u2025", "/"),
        ("\u3002\u3002", "/"),
        ("\uff61\uff61", "/"),
        ("\ufe30", "/"),
    ),
    "lookalike_slashes": (("..", "\u2215"), ("..", "\u2044"), ("..", "\u29f8"), ("..", "\u2571"), ("..", "\ufe68")),
    "invisible": (
        (".\u200b.", "/"),
        ("..\u200b", "/"),
        (".\u200d.", "/"),
        ("..", "\u200c/"),
        ("\ufeff..", "/"),
        ("..\u00ad", "/"),
    ),
    "bidi": (("\u202e..", "/"), ("..\u202c", "/"), ("\u2066..\u2069", "/"), ("..\u200f", "/")),
    "backslash": (("..", "\\"), ("..", "\\/"), ("..", "%5c"), ("%2e%2e", "%5c"), ("..", "%255c")),
    "nul_control": (("..\x00", "/"), ("..", "/\x00"), ("..\n", "/"), ("..\t", "/"), ("..%00", "/"), ("..\r", "/")),
    "trailing_dots_spaces": ((".. ", "/"), ("..\u00a0", "/"), (". .", "/"), ("....", "/"), ("..\u3000", "/")),
}

#: What precedes the traversal, and how many extra levels it adds.
PREFIXES: Final = (("/memories/", 0), ("/memories/notes/", 1), ("/memories/./", 0), ("/memories/notes/./", 1))

#: Canaries aimed at, by the start of their path below the world's base.
TARGETS: Final = ("a/b/CANARY-L1", "a/CANARY-L2", "CANARY-L3", "a/b/memories_backup/CANARY-SIB", "a/hardlink-source")

ROOT_SPELLINGS: Final = (
    "/memories", "/memories/", "/memories/.", "/memories/./", "/memories//", "/memories/notes/..",
    "/memories/notes/../", "%2fmemories", "/memories%2f", "/memories/%2e", "/./memories", "//memories",
    "/memories/\uff0e", "/memories/notes/%2e%2e", "/memories/ ", "/memories/..", "/memories/notes/../..",
    "/memories\\", "/memories/\u200b", "/memories/.\x00", "%252fmemories%252f",
)  # fmt: skip

#: Tool inputs that are not valid commands; every one must get an error.
MALFORMED: Final[tuple[Any, ...]] = (
    None, "", "view /memories", 42, [], ["view", "/memories"], {}, {"command": None}, {"command": 7},
    {"command": "view"}, {"command": "view", "path": None}, {"command": "view", "path": 7},
    {"command": "view", "path": ["/memories"]}, {"command": "view", "path": {"p": 1}},
    {"command": "view", "path": "/memories", "view_range": "1-2"},
    {"command": "view", "path": "/memories/seed.md", "view_range": [1.5, 2]},
    {"command": "view", "path": "/memories/seed.md", "view_range": [1]},
    {"command": "view", "path": "/memories/seed.md", "view_range": [3, 1]},
    {"command": "view", "path": "/memories/seed.md", "view_range": [True, 2]},
    {"command": "create", "path": "/memories/m.md"}, {"command": "create", "file_text": "x"},
    {"command": "create", "path": "/memories/m.md", "file_text": None},
    {"command": "create", "path": "/memories/m.md", "file_text": 12},
    {"command": "create", "path": "/memories/m.md", "file_text": b"bytes"},
    {"command": "create", "path": "/memories/m.md", "file_text": "x" * 30_000_000},
    {"command": "create", "path": "/memories/m.md", "file_text": "\ud800 lone surrogate"},
    {"command": "str_replace", "path": "/memories/seed.md"},
    {"command": "str_replace", "path": "/memories/seed.md", "old_str": None, "new_str": "x"},
    {"command": "str_replace", "path": "/memories/seed.md", "old_str": "", "new_str": "x"},
    {"command": "str_replace", "path": "/memories/seed.md", "old_str": 5, "new_str": "x"},
    {"command": "insert", "path": "/memories/seed.md", "insert_text": "x"},
    {"command": "insert", "path": "/memories/seed.md", "insert_line": "0", "insert_text": "x"},
    {"command": "insert", "path": "/memories/seed.md", "insert_line": 1.0, "insert_text": "x"},
    {"command": "insert", "path": "/memories/seed.md", "insert_line": None, "insert_text": "x"},
    {"command": "insert", "path": "/memories/seed.md", "insert_line": 10**30, "insert_text": "x"},
    {"command": "insert", "path": "/memories/seed.md", "insert_line": 0, "insert_text": None},
    {"command": "delete"}, {"command": "delete", "path": None}, {"command": "rename", "old_path": "/memories/seed.md"},
    {"command": "rename", "new_path": "/memories/x.md"},
    {"command": "rename", "old_path": None, "new_path": "/memories/x.md"},
    {"command": "rm", "path": "/memories/seed.md"}, {"command": "VIEW", "path": "/memories"},
    {"command": "view ", "path": "/memories"}, {"command": "__class__", "path": "/memories"},
    {"command": ["view"], "path": "/memories"},
)  # fmt: skip


def _traversal(dots: str, slash: str, ups: int, tail: str) -> str:
    return (dots + slash) * ups + tail.replace("/", slash)


def payloads(world: World) -> Iterator[Payload]:
    """Every hostile path for this world, family by family."""
    base = str(world.base)
    for family, spellings in TRAVERSALS.items():
        for dots, slash in spellings:
            for prefix, extra in PREFIXES:
                for target in TARGETS:
                    relative = world.relative_from_root(target).split("/")
                    ups = relative.count("..") + extra
                    tail = "/".join(part for part in relative if part != "..")
                    yield Payload(family, prefix + _traversal(dots, slash, ups, tail))
                # Overshoot: climb far past the file system's root, then name a canary absolutely.
                yield Payload(
                    family, prefix + _traversal(dots, slash, 12 + extra, world.canary_path("CANARY-L3").as_posix()[1:])
                )
                # A write's target: a new file outside the root.
                yield Payload(family, prefix + _traversal(dots, slash, 1 + extra, world.planted_outside_name))
    yield from _others(world, base)


def _others(world: World, base: str) -> Iterator[Payload]:
    canaries = [world.canary_path(target) for target in TARGETS] + [world.canary_path("a/b/cwd/CANARY-CWD")]
    for canary in canaries:
        absolute = canary.as_posix()
        yield Payload("absolute", absolute)
        # Joined onto the root naively, an absolute part wins; canonicalised, they stay inside.
        yield Payload("absolute", "/memories/" + absolute, must_refuse=False)
        yield Payload("absolute", "/memories//" + absolute.lstrip("/"), must_refuse=False)
        yield Payload("absolute", "file://" + absolute)
    for host in ("/etc/passwd", "/proc/self/environ", "/proc/self/cwd", "/proc/self/root/etc/passwd", "/dev/zero",
                 "/dev/stdin", "/proc/self/fd/0", "~/.bashrc", "~root/.ssh/id_rsa", "$HOME/.bashrc"):  # fmt: skip
        yield Payload("host_files", host)
        yield Payload("host_files", "/memories/" + host, must_refuse=False)
        yield Payload("host_files", "/memories/../../../../../../../../.." + host)
    names = {canary.name for canary in canaries}
    for sibling in ("memories_backup", "memoriesX", "memories.old"):
        name = world.canary_path(f"a/b/{sibling}/CANARY-SIB").name
        for spelling in (f"/{sibling}/{name}", f"/memories/../{sibling}/{name}", f"{sibling}/{name}",
                         f"/memories{sibling[8:]}/{name}"):  # fmt: skip
            yield Payload("prefix_confusion", spelling)
        # "..X" is an ordinary name inside the root; a handler that strips "/memories/.." is not.
        yield Payload("prefix_confusion", f"/memories/..{sibling[8:]}/{name}", must_refuse=False)
    for name in sorted(names):
        yield Payload("prefix_confusion", f"/memories../{name}")
        yield Payload("prefix_confusion", f"/Memories/../{name}")
        yield Payload("prefix_confusion", f"/memories_/../{name}")
        yield Payload("relative", name)
        yield Payload("relative", f"./{name}")
        yield Payload("relative", f"memories/../../{name}")
        yield Payload("relative", f"../{name}")
    cwd_name = world.canary_path("a/b/cwd/CANARY-CWD").name
    yield Payload("relative", cwd_name)
    yield Payload("relative", f"../cwd/{cwd_name}")
    for drive in ("C:\\Windows\\win.ini", "C:/Windows/win.ini", "/memories/C:/x", "/memories/C:\\..\\..\\x",
                  "\\\\?\\C:\\x", "c:..\\..\\x", "/memories/c:", f"C:{base}"):  # fmt: skip
        yield Payload("windows_drive", drive)
    for unc in ("\\\\server\\share\\x", "//server/share/x", "\\\\?\\UNC\\server\\share", "\\\\127.0.0.1\\c$\\x",
                "//./pipe/x"):  # fmt: skip
        yield Payload("unc", unc)
    yield Payload("unc", "/memories//server/share", must_refuse=False)
    level2 = world.canary_path("a/CANARY-L2").name
    for link in ("link-rel", "link-abs", "chain-1", "chain-2", "dangling", "loop-1", "dirlink", f"dirlink/{level2}",
                 f"dirlink/b/{world.canary_path('a/b/CANARY-L1').name}", "link-rel/", "dirlink/b",
                 "dirlink/b/memories/seed.md", "dangling/x", "./link-rel", "notes/../link-abs"):  # fmt: skip
        yield Payload("symlink", f"/memories/{link}")
    yield Payload("hardlink", "/memories/hardlink.md")
    yield Payload("hardlink", "/memories/./hardlink.md")
    for long in ("a" * 256, "a" * 4096, "a/" * 2500 + "x.md", "../" * 3000 + "etc/passwd", "%2e%2e%2f" * 1000,
                 "x" * 70_000, ("\u00e9" * 200) + ".md"):  # fmt: skip
        yield Payload("long", "/memories/" + long)
    for device in ("CON", "nul.txt", "COM1.md", "LPT1", "AUX.md", "prn", "con.tar.gz", "COM\u00b9.md", "CONIN$"):
        yield Payload("device_names", f"/memories/{device}")
    for alias in ("SEED~1.MD", "seed.md:hidden", "seed.md::$DATA", "notes::$INDEX_ALLOCATION", "seed.md.",
                  "seed.md ", "seed.md. . ", "...", "notes/..."):  # fmt: skip
        yield Payload("short_names_streams", f"/memories/{alias}")


#: Command slots, and the tool input that puts a payload into each.
COMMANDS: Final = ("view", "create", "str_replace", "insert", "delete", "rename_source", "rename_target")


def _command(slot: str, path: str, n: int) -> dict[str, Any]:
    if slot == "view":
        return {"command": "view", "path": path}
    if slot == "create":
        return {"command": "create", "path": path, "file_text": f"ATTACK {n}\n"}
    if slot == "str_replace":
        return {"command": "str_replace", "path": path, "old_str": "CANARY", "new_str": "PWNED"}
    if slot == "insert":
        return {"command": "insert", "path": path, "insert_line": 0, "insert_text": "PWNED"}
    if slot == "delete":
        return {"command": "delete", "path": path}
    if slot == "rename_source":
        return {"command": "rename", "old_path": path, "new_path": f"/memories/stolen-{n}.md"}
    return {"command": "rename", "old_path": "/memories/seed.md", "new_path": path}


def cases(world: World, families: set[str] | None = None) -> Iterator[Case]:
    """Every payload in every slot, then the root in every spelling, then malformed input."""
    n = 0
    for payload in payloads(world):
        if families is not None and payload.family not in families:
            continue
        for slot in COMMANDS:
            n += 1
            yield Case(payload.family, slot, _command(slot, payload.path, n), payload.must_refuse)
    if families is None or "root" in families:
        for spelling in ROOT_SPELLINGS:
            yield Case("root", "delete", {"command": "delete", "path": spelling})
            yield Case("root", "rename_source", {"command": "rename", "old_path": spelling, "new_path": "/memories/r"})
            yield Case(
                "root", "rename_target", {"command": "rename", "old_path": "/memories/seed.md", "new_path": spelling}
            )
            yield Case("root", "create", {"command": "create", "path": spelling, "file_text": "replaced"})
            yield Case(
                "root", "str_replace", {"command": "str_replace", "path": spelling, "old_str": "a", "new_str": "b"}
            )
            yield Case("root", "insert", {"command": "insert", "path": spelling, "insert_line": 0, "insert_text": "x"})
    if families is None or "malformed" in families:
        for command in MALFORMED:
            name = command.get("command") if isinstance(command, dict) else None
            slot = name if isinstance(name, str) and name in COMMANDS else "malformed"
            yield Case("malformed", slot, command)
