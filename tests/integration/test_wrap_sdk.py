"""Wrap mode around the SDK's own BetaLocalFilesystemMemoryTool, on real folders."""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from anthropic.lib.tools import ToolError
from anthropic.tools import BetaAsyncLocalFilesystemMemoryTool, BetaLocalFilesystemMemoryTool

from sandbox import Sandbox, load_policy
from sandbox.audit import AuditLog
from sandbox.audit.verify import verify
from sandbox.decision import ListAuditSink
from sandbox.errors import PolicyError
from sandbox.integrations.anthropic import AsyncSandboxedMemoryTool, SandboxedMemoryTool
from sandbox.policy import parse_policy
from sandbox.storage import LocalStorage
from sandbox.storage.handler import scrub_host_paths
from tests.unit.test_paths import ATTACKS


class SpyTool(BetaLocalFilesystemMemoryTool):
    """The SDK handler, recording every command that reaches it."""

    def __init__(self, base_path: str) -> None:
        super().__init__(base_path=base_path)
        self.seen: list[dict[str, Any]] = []

    def call(self, input: object) -> Any:  # noqa: A002 - the SDK's name
        assert isinstance(input, dict)
        self.seen.append(input)
        return super().call(input)


def tree(root: Path) -> dict[str, bytes | None]:
    """Every file (with content) and folder under root, by relative path."""
    found: dict[str, bytes | None] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames:
            found[os.path.relpath(os.path.join(dirpath, name), root)] = None
        for name in filenames:
            path = os.path.join(dirpath, name)
            found[os.path.relpath(path, root)] = Path(path).read_bytes()
    return found


def attempt(tool: Any, command: dict[str, Any]) -> tuple[bool, Any]:
    try:
        return False, tool.call(command)
    except ToolError as exc:
        return True, exc.content


def slots(raw: str) -> list[dict[str, Any]]:
    """The attack path in every path slot of every command."""
    return [
        {"command": "view", "path": raw},
        {"command": "create", "path": raw, "file_text": "pwned"},
        {"command": "str_replace", "path": raw, "old_str": "a", "new_str": "b"},
        {"command": "insert", "path": raw, "insert_line": 0, "insert_text": "pwned"},
        {"command": "delete", "path": raw},
        {"command": "rename", "old_path": raw, "new_path": "/memories/moved.md"},
        {"command": "rename", "old_path": "/memories/seed.md", "new_path": raw},
    ]


def wrap(spy: SpyTool) -> SandboxedMemoryTool:
    """The sandbox in front of the spy (its records kept in memory, so the tree shows only what the
    handler did), and the spy's record cleared of what the sandbox read to index it."""
    wrapped = SandboxedMemoryTool.wrap(spy, audit=ListAuditSink())
    spy.seen.clear()
    return wrapped


@pytest.fixture
def spy(tmp_path: Path) -> SpyTool:
    tool = SpyTool(str(tmp_path / "store"))
    tool.call({"command": "create", "path": "/memories/seed.md", "file_text": "a\n"})
    tool.seen.clear()
    return tool


class TestAttacksStopBeforeSdk:
    @pytest.mark.parametrize(("family", "raw", "category"), ATTACKS)
    def test_attack_never_reaches_handler(
        self, spy: SpyTool, tmp_path: Path, family: str, raw: str, category: str
    ) -> None:
        """Every attack, in every path slot, is refused before the SDK handler runs."""
        wrapped = wrap(spy)
        before = tree(tmp_path)
        for command in slots(raw):
            is_error, content = attempt(wrapped, command)
            assert is_error and content.startswith(("Error: Access denied", "Error: Invalid")), (command, content)
        assert spy.seen == []
        assert tree(tmp_path) == before

    @pytest.mark.parametrize("spelling", ["/memories", "/memories/", "/memories/.", "/memories//", "/memories/a/.."])
    def test_root_delete_and_rename_refused(self, spy: SpyTool, spelling: str) -> None:
        """The root in every spelling is neither deleted nor renamed through the wrapper."""
        wrapped = wrap(spy)
        for command in (
            {"command": "delete", "path": spelling},
            {"command": "rename", "old_path": spelling, "new_path": "/memories/x"},
            {"command": "rename", "old_path": "/memories/seed.md", "new_path": spelling},
        ):
            assert attempt(wrapped, command)[0]
        assert spy.seen == []


BENIGN_SESSION: list[dict[str, Any]] = [
    {"command": "view", "path": "/memories"},
    {"command": "create", "path": "/memories/notes.md", "file_text": "# Notes\n- one\n- two\n"},
    {"command": "create", "path": "/memories/projects/alpha/plan.md", "file_text": "step 1\nstep 2\n"},
    {"command": "view", "path": "/memories/notes.md"},
    {"command": "view", "path": "/memories/notes.md", "view_range": [2, 3]},
    {"command": "str_replace", "path": "/memories/notes.md", "old_str": "- two", "new_str": "- 2"},
    {"command": "str_replace", "path": "/memories/notes.md", "old_str": "absent", "new_str": "x"},
    {"command": "insert", "path": "/memories/projects/alpha/plan.md", "insert_line": 1, "insert_text": "step 1.5"},
    {"command": "insert", "path": "/memories/projects/alpha/plan.md", "insert_line": 99, "insert_text": "x"},
    {"command": "create", "path": "/memories/notes.md", "file_text": "again"},
    {"command": "rename", "old_path": "/memories/notes.md", "new_path": "/memories/archive/notes.md"},
    {"command": "rename", "old_path": "/memories/missing.md", "new_path": "/memories/x.md"},
    {"command": "view", "path": "/memories"},
    {"command": "delete", "path": "/memories/projects"},
    {"command": "delete", "path": "/memories/projects"},
    {"command": "view", "path": "/memories/archive/notes.md"},
]


class TestBenignParity:
    def test_same_results_as_sdk_alone(self, tmp_path: Path) -> None:
        """Benign commands succeed and fail as with the SDK alone and leave the same files; the model
        reads the answers a sandboxed store gives (the reference strings), whatever the handler."""
        alone = BetaLocalFilesystemMemoryTool(str(tmp_path / "alone"))
        wrapped = SandboxedMemoryTool.wrap(BetaLocalFilesystemMemoryTool(str(tmp_path / "wrapped")))
        store = SandboxedMemoryTool(Sandbox(policy=load_policy("default"), storage=LocalStorage(tmp_path / "store"),
                                            audit=ListAuditSink()))  # fmt: skip
        for command in BENIGN_SESSION:
            answer = attempt(wrapped, command)
            assert answer[0] == attempt(alone, command)[0], command
            assert answer == attempt(store, command), command
        assert tree(tmp_path / "wrapped" / "memories") == tree(tmp_path / "alone" / "memories")


class TestSdkWeaknessesFixed:
    def test_prefix_aliasing(self, spy: SpyTool, tmp_path: Path) -> None:
        """SDK alone maps /memoriesX onto /memories/X; wrapped, it is refused."""
        assert not attempt(spy, {"command": "create", "path": "/memoriesX/a.md", "file_text": "x"})[0]
        assert (tmp_path / "store" / "memories" / "X" / "a.md").exists()
        wrapped = wrap(spy)
        is_error, content = attempt(wrapped, {"command": "create", "path": "/memoriesX/b.md", "file_text": "x"})
        assert is_error and content == "Error: Access denied: the path is outside /memories"

    def test_literal_percent_dirs(self, spy: SpyTool, tmp_path: Path) -> None:
        """SDK alone creates a folder literally named %2e%2e; wrapped, the traversal is refused."""
        assert not attempt(spy, {"command": "create", "path": "/memories/%2e%2e/a.md", "file_text": "x"})[0]
        assert (tmp_path / "store" / "memories" / "%2e%2e").is_dir()
        wrapped = wrap(spy)
        is_error, content = attempt(wrapped, {"command": "create", "path": "/memories/%2e%2e/b.md", "file_text": "x"})
        assert is_error and "climbs above /memories" in content

    def test_nfc_nfd_twins(self, tmp_path: Path) -> None:
        """SDK alone stores NFC and NFD spellings as two files; wrapped, they are one."""
        alone = BetaLocalFilesystemMemoryTool(str(tmp_path / "alone"))
        wrapped = SandboxedMemoryTool.wrap(BetaLocalFilesystemMemoryTool(str(tmp_path / "wrapped")))
        for form in ("NFC", "NFD"):
            path = "/memories/" + unicodedata.normalize(form, "caf\u00e9.md")
            attempt(alone, {"command": "create", "path": path, "file_text": form})
            attempt(wrapped, {"command": "create", "path": path, "file_text": form})
        assert len(os.listdir(tmp_path / "alone" / "memories")) == 2
        assert len(os.listdir(tmp_path / "wrapped" / "memories")) == 1

    @pytest.mark.parametrize(
        ("command", "sdk_exception"),
        [
            ({"command": "create", "path": "/memories/a\x00b", "file_text": "x"}, ValueError),
            ({"command": "str_replace", "path": "/memories/seed.md", "old_str": "a"}, None),
            ({"command": "create", "path": "/memories/q.md"}, AttributeError),
            ({"command": "view"}, AttributeError),
            ({"command": "insert", "path": "/memories/seed.md", "insert_text": "x"}, TypeError),
            ({"command": "rename", "old_path": "/memories/seed.md"}, AttributeError),
            ({"command": "view", "path": "/memories/seed.md", "view_range": [1.5, 2]}, TypeError),
        ],
    )
    def test_raw_exceptions_become_clean(
        self, tmp_path: Path, command: dict[str, Any], sdk_exception: type[Exception] | None
    ) -> None:
        """Inputs that crash the SDK with a Python exception get a clean refusal or the documented behaviour."""
        alone = BetaLocalFilesystemMemoryTool(str(tmp_path / "alone"))
        alone.call({"command": "create", "path": "/memories/seed.md", "file_text": "a\n"})
        wrapped = SandboxedMemoryTool.wrap(BetaLocalFilesystemMemoryTool(str(tmp_path / "wrapped")))
        wrapped.call({"command": "create", "path": "/memories/seed.md", "file_text": "a\n"})
        if sdk_exception is not None:
            with pytest.raises(sdk_exception):
                alone.call(command)
        else:  # omitted new_str: the SDK raises TypeError; documented behaviour is deletion
            with pytest.raises(TypeError):
                alone.call(command)
        is_error, content = attempt(wrapped, command)
        if sdk_exception is None:
            assert not is_error and (tmp_path / "wrapped/memories/seed.md").read_text() == "\n"
        else:
            assert is_error and content.startswith("Error: ")
            assert "Traceback" not in content and "Error(" not in content and "NoneType" not in content


class TestWrapBehaviour:
    def test_handler_gets_canonical_paths(self, spy: SpyTool, tmp_path: Path) -> None:
        """The wrapped handler receives canonical paths and complete commands: reads, then the edited file's
        whole content replacing what it read (a compare-and-swap)."""
        wrapped = wrap(spy)
        wrapped.call({"command": "str_replace", "path": "%2fmemories/./seed.md", "old_str": "a"})
        assert {command.get("path") for command in spy.seen} == {"/memories/seed.md"}
        assert spy.seen[-1] == {
            "command": "str_replace",
            "path": "/memories/seed.md",
            "old_str": "a\n",
            "new_str": "\n",
        }
        assert (tmp_path / "store" / "memories" / "seed.md").read_text() == "\n"

    def test_plain_callable_and_crash(self, tmp_path: Path) -> None:
        """A plain callable can be wrapped; its crash is a short error, not a repr."""
        sdk = BetaLocalFilesystemMemoryTool(str(tmp_path))

        def handler(command: dict[str, Any]) -> Any:
            if command["command"] == "delete":
                raise OSError(2, "No such file", "/srv/secret/path")
            return sdk.call(command)

        audit = ListAuditSink()
        wrapped = SandboxedMemoryTool.wrap(handler, audit=audit)
        wrapped.call({"command": "create", "path": "/memories/a", "file_text": "x"})
        assert "/memories/a" in wrapped.call({"command": "view", "path": "/memories"})
        is_error, content = attempt(wrapped, {"command": "delete", "path": "/memories/a"})
        assert is_error and "/srv" not in content and "OSError" not in content
        assert audit.outcomes[-1].error_detail == "FileNotFoundError"

    def test_tool_error_host_path_scrubbed(self, tmp_path: Path) -> None:
        """A ToolError from the handler reaches the model without host paths."""
        sdk = BetaLocalFilesystemMemoryTool(str(tmp_path))

        def handler(command: dict[str, Any]) -> Any:
            if command["command"] == "create":
                raise ToolError("cannot open /var/lib/app/memories/a.md or C:\\Users\\bob\\m.md for /memories/a.md")
            return sdk.call(command)

        wrapped = SandboxedMemoryTool.wrap(handler, audit=ListAuditSink())
        is_error, content = attempt(wrapped, {"command": "create", "path": "/memories/a.md", "file_text": "x"})
        assert is_error
        assert content == "cannot open [path] or [path] for /memories/a.md"

    def test_wrap_mode_records_beside_the_handlers_folder(self, tmp_path: Path) -> None:
        """Wrapped as the README shows it, every decision goes to a log beside the handler's memory
        folder (outside what the model reaches), which verifies."""
        wrapped = SandboxedMemoryTool.wrap(BetaLocalFilesystemMemoryTool(str(tmp_path)))
        attempt(wrapped, {"command": "create", "path": "/memories/a.md", "file_text": "x"})
        attempt(wrapped, {"command": "view", "path": "/memories/../etc/passwd"})
        wrapped.sandbox.close()
        report = verify(tmp_path / "memories.audit.jsonl")
        assert report.ok and report.records >= 4 and report.checkpoints == 1, report.summary()
        assert sorted(p.name for p in (tmp_path / "memories").iterdir()) == ["a.md"]

    def test_wrap_mode_never_records_nothing_silently(self, tmp_path: Path) -> None:
        """A handler that names no folder needs a log given, or a policy that says to record nothing."""
        sdk = BetaLocalFilesystemMemoryTool(str(tmp_path))

        def handler(command: dict[str, Any]) -> Any:
            return sdk.call(command)

        with pytest.raises(PolicyError) as refused:
            SandboxedMemoryTool.wrap(handler)
        assert "records every decision" in refused.value.message and "audit=" in refused.value.message
        unrecorded = parse_policy('schema_version = 1\nid = "n"\nrevision = 1\n[audit]\nsink = "none"\n', source="n")
        assert not attempt(
            SandboxedMemoryTool.wrap(handler, policy=unrecorded), {"command": "view", "path": "/memories"}
        )[0]
        log = tmp_path / "elsewhere" / "audit.jsonl"
        assert not attempt(
            SandboxedMemoryTool.wrap(handler, audit=AuditLog.open(log)), {"command": "view", "path": "/memories"}
        )[0]
        assert log.exists()

    def test_handler_without_view_refused_naming_what_it_cannot_enforce(self) -> None:
        """A handler whose view is not a listing cannot be judged on its state: refused at construction."""

        def handler(command: dict[str, Any]) -> str:
            return "fine"

        with pytest.raises(PolicyError) as refused:
            SandboxedMemoryTool.wrap(handler)
        assert "quota.max_bytes" in refused.value.message and "limits.max_file_bytes" in refused.value.message

    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("/memories/a.md", "/memories/a.md"),
            ("at /home/u/x", "at [path]"),
            ("/memoriesX/y", "[path]"),
            ("'/etc/passwd'", "'[path]'"),
            ("PosixPath('/tmp/m/memories')", "PosixPath('[path]')"),
            ("\\\\server\\share\\x", "[path]"),
            ("ratio 1/2", "ratio 1/2"),
        ],
    )
    def test_scrub(self, text: str, expected: str) -> None:
        """Host paths are scrubbed; /memories paths and ordinary slashes stay."""
        assert scrub_host_paths(text) == expected

    def test_sync_tool_refuses_async_handler(self, tmp_path: Path) -> None:
        """Wrapping an async handler in the sync tool is a clear TypeError."""
        with pytest.raises(TypeError, match="AsyncSandboxedMemoryTool"):
            SandboxedMemoryTool.wrap(BetaAsyncLocalFilesystemMemoryTool(str(tmp_path)))

    @pytest.mark.anyio
    async def test_async_wrap_of_async_sdk(self, tmp_path: Path) -> None:
        """The async tool wraps the SDK's async handler and refuses attacks."""
        wrapped = AsyncSandboxedMemoryTool.wrap(BetaAsyncLocalFilesystemMemoryTool(str(tmp_path)))
        ok = await wrapped.call({"command": "create", "path": "/memories/a.md", "file_text": "x"})
        assert ok == "File created successfully at: /memories/a.md"
        with pytest.raises(ToolError):
            await wrapped.call({"command": "view", "path": "/memories/../../etc/passwd"})

    def test_to_dict(self, spy: SpyTool) -> None:
        """The wrapped tool declares itself as the memory tool."""
        assert SandboxedMemoryTool.wrap(spy).to_dict() == {"type": "memory_20250818", "name": "memory"}


KEY = "sk-ant-api03-" + "Q7x" * 31 + "AA"


class TestWrapEnforcesTheWholePolicy:
    """Around the SDK's own handler, every key of the policy holds, judged on the handler's own state."""

    POLICY = (
        'schema_version = 1\nid = "wrap"\nrevision = 1\n'
        "[limits]\nmax_file_bytes = 1000\n[quota]\nmax_bytes = 1000\nmax_files = 3\n"
    )

    def wrapped(self, tmp_path: Path) -> SandboxedMemoryTool:
        return SandboxedMemoryTool.wrap(
            BetaLocalFilesystemMemoryTool(str(tmp_path)), policy=parse_policy(self.POLICY, source="wrap.toml")
        )

    def test_quota_holds(self, tmp_path: Path) -> None:
        """Six creates of 900 bytes under a 3-file, 1,000-byte quota: the handler's folder stays within it."""
        wrapped = self.wrapped(tmp_path)
        outcomes = [attempt(wrapped, {"command": "create", "path": f"/memories/f{i}.md", "file_text": "x" * 300})
                    for i in range(6)]  # fmt: skip
        assert [is_error for is_error, _ in outcomes] == [False, False, False, True, True, True]
        files = [p for p in (tmp_path / "memories").rglob("*") if p.is_file()]
        assert len(files) == 3 and sum(p.stat().st_size for p in files) <= 1000

    def test_edit_limits_and_twins_hold(self, tmp_path: Path) -> None:
        """An edit growing a file past max_file_bytes and a case twin are refused through the handler."""
        wrapped = self.wrapped(tmp_path)
        wrapped.call({"command": "create", "path": "/memories/notes.md", "file_text": "x" * 600})
        is_error, content = attempt(wrapped, {"command": "insert", "path": "/memories/notes.md", "insert_line": 0,
                                              "insert_text": "y" * 500})  # fmt: skip
        assert is_error and "limits.max_file_bytes" in content
        assert attempt(wrapped, {"command": "create", "path": "/memories/NOTES.md", "file_text": "z"})[0]
        assert (tmp_path / "memories" / "notes.md").read_text() == "x" * 600

    def test_planted_key_never_shown_and_no_oracle(self, tmp_path: Path) -> None:
        """A key planted in the handler's files is redacted in views and snippets, and guessing it answers
        as any wrong guess."""
        (tmp_path / "memories").mkdir(parents=True)
        (tmp_path / "memories" / "keys.md").write_text(f"prod key: {KEY}\nend\n")
        wrapped = self.wrapped(tmp_path)
        assert KEY[13:40] not in wrapped.call({"command": "view", "path": "/memories/keys.md"})
        for guess in (KEY[:20], "sk-ant-api03-ZZZ"):
            is_error, content = attempt(wrapped, {"command": "str_replace", "path": "/memories/keys.md",
                                                  "old_str": guess, "new_str": "x"})  # fmt: skip
            assert is_error and "did not appear verbatim" in content
        snippet = wrapped.call(
            {"command": "str_replace", "path": "/memories/keys.md", "old_str": "end", "new_str": "E"}
        )
        assert KEY[13:40] not in snippet
        assert KEY not in (tmp_path / "memories" / "keys.md").read_text()
