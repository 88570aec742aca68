"""The contract every store meets, through the sandbox's six commands.

:class:`CommandContract` holds what the model sees (all six commands, every
reference string, errors, quotas); it runs for every storage adapter and for wrap
mode. :class:`StorageContract` adds the adapter level and scopes. Each adapter's
module subclasses it and provides the ``scoped`` fixture: a function giving the
adapter of a scope, all scopes on one backend. The texts asserted are the memory
tool's reference strings.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any

import pytest

from sandbox import Sandbox, load_policy
from sandbox.decision import ListAuditSink
from sandbox.errors import AlreadyExists, NotADirectory, NotAFile, NotFound
from sandbox.paths import ROOT, canonicalize
from sandbox.policy import Policy, parse_policy
from sandbox.storage.base import StorageAdapter, Usage

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16
VIEW_DIR_HEADER = (
    "Here're the files and directories up to 2 levels deep in {path}, excluding hidden items and node_modules:"
)


QUOTA_POLICY = 'schema_version = 1\nid = "quota"\nrevision = 1\n[quota]\nmax_bytes = 30\nmax_files = 2\n'


class Tool:
    """A sandbox, with helpers that return text and error flag; ``storage`` holds the bytes."""

    def __init__(self, storage: StorageAdapter, sandbox: Sandbox, audit: ListAuditSink) -> None:
        self.audit = audit
        self.storage = storage
        self.sandbox = sandbox

    @classmethod
    def over(cls, storage: StorageAdapter, policy: Policy) -> Tool:
        audit = ListAuditSink()
        return cls(storage, Sandbox(policy=policy, storage=storage, audit=audit), audit)

    def __call__(self, **command: Any) -> tuple[bool, Any]:
        result = self.sandbox.execute(command)
        return result.is_error, result.content

    def ok(self, **command: Any) -> Any:
        is_error, content = self(**command)
        assert not is_error, content
        return content

    def error(self, **command: Any) -> str:
        is_error, content = self(**command)
        assert is_error, content
        assert isinstance(content, str)
        return content

    def create(self, path: str, text: str) -> None:
        self.ok(command="create", path=path, file_text=text)

    def read(self, path: str) -> str:
        return self.storage.read(canonicalize(path)).decode("utf-8")


MakeTool = Callable[[Policy], Tool]


class CommandContract:
    """What the model sees, the same from every store."""

    @pytest.fixture
    def make_tool(self) -> MakeTool:  # pragma: no cover - each module overrides it
        raise NotImplementedError

    @pytest.fixture
    def tool(self, make_tool: MakeTool) -> Tool:
        return make_tool(load_policy("default"))

    # view of folders

    def test_view_empty_root(self, tool: Tool) -> None:
        """An empty store lists only the root line."""
        assert (
            tool.ok(command="view", path="/memories") == VIEW_DIR_HEADER.format(path="/memories") + "\n4.0K\t/memories"
        )

    def test_view_two_levels_sorted_hidden_excluded(self, tool: Tool) -> None:
        """Folders list two levels deep, sorted, without hidden items and node_modules."""
        tool.create("/memories/b.md", "12345")
        tool.create("/memories/a/x.md", "x")
        tool.create("/memories/a/deep/y.md", "y")
        tool.create("/memories/a/deep/deeper/z.md", "z")
        tool.create("/memories/.secret.md", "s")
        tool.create("/memories/a/.hidden/h.md", "h")
        tool.create("/memories/node_modules/pkg.md", "p")
        expected = [
            VIEW_DIR_HEADER.format(path="/memories"),
            "4.0K\t/memories",
            "4.0K\t/memories/a/",
            "4.0K\t/memories/a/deep/",
            "1B\t/memories/a/x.md",
            "5B\t/memories/b.md",
        ]
        assert tool.ok(command="view", path="/memories") == "\n".join(expected)

    def test_view_subfolder(self, tool: Tool) -> None:
        """A subfolder lists its own two levels with canonical paths."""
        tool.create("/memories/p/q/r.md", "abc")
        listing = tool.ok(command="view", path="/memories/p/")
        assert listing.splitlines()[1:] == ["4.0K\t/memories/p", "4.0K\t/memories/p/q/", "3B\t/memories/p/q/r.md"]

    def test_view_listing_truncated(self, tool: Tool) -> None:
        """A huge folder listing stops at the view limit with a note."""
        for i in range(700):
            tool.create(f"/memories/f{i:04d}-{'x' * 20}.md", "x")
        listing = tool.ok(command="view", path="/memories")
        assert len(listing) <= 16_000
        assert listing.endswith("view a subfolder to see more.]")
        assert "/memories/f0000-" in listing

    def test_view_human_sizes(self, tool: Tool) -> None:
        """Sizes are shown as du -h does."""
        tool.create("/memories/k.md", "x" * 1536)
        assert "1.5K\t/memories/k.md" in tool.ok(command="view", path="/memories")

    # view of files

    def test_view_file_numbered(self, tool: Tool) -> None:
        """A file is shown with 6-wide line numbers and a tab."""
        tool.create("/memories/n.md", "alpha\nbeta\n")
        assert tool.ok(command="view", path="/memories/n.md") == (
            "Here's the content of /memories/n.md with line numbers:\n     1\talpha\n     2\tbeta"
        )

    def test_view_range(self, tool: Tool) -> None:
        """view_range selects lines; -1 reads to the end."""
        tool.create("/memories/n.md", "".join(f"line {i}\n" for i in range(1, 11)))
        assert tool.ok(command="view", path="/memories/n.md", view_range=[3, 4]).splitlines()[1:] == [
            "     3\tline 3",
            "     4\tline 4",
        ]
        assert tool.ok(command="view", path="/memories/n.md", view_range=[9, -1]).splitlines()[1:] == [
            "     9\tline 9",
            "    10\tline 10",
        ]

    def test_view_range_past_end(self, tool: Tool) -> None:
        """A range starting after the last line is an error naming the valid range."""
        tool.create("/memories/n.md", "a\nb\n")
        assert "[1, 2]" in tool.error(command="view", path="/memories/n.md", view_range=[5, 6])

    def test_view_truncated_with_hint(self, tool: Tool) -> None:
        """Output over 16,000 characters is cut with a view_range hint."""
        tool.create("/memories/big.md", "".join(f"{i:05d} {'y' * 90}\n" for i in range(1, 400)))
        text = tool.ok(command="view", path="/memories/big.md")
        assert len(text) <= 16_000
        last_shown = int(text.splitlines()[-2].split("\t")[0])
        assert text.endswith(f"view with view_range [{last_shown + 1}, -1].]")

    def test_view_missing(self, tool: Tool) -> None:
        """A missing path gets the reference text."""
        assert tool.error(command="view", path="/memories/none.md") == (
            "The path /memories/none.md does not exist. Please provide a valid path."
        )

    def test_view_image(self, tool: Tool) -> None:
        """A .png file is returned as an image block."""
        tool.storage.create(canonicalize("/memories/pic.png"), PNG)
        blocks = tool.ok(command="view", path="/memories/pic.png")
        assert blocks[0]["type"] == "image"
        assert blocks[0]["source"]["media_type"] == "image/png"
        assert base64.b64decode(blocks[0]["source"]["data"]) == PNG

    def test_view_fake_image_refused(self, tool: Tool) -> None:
        """A .jpg that is not a JPEG is refused, not sent as an image."""
        tool.create("/memories/pic.jpg", "not an image")
        assert "not a valid JPEG image" in tool.error(command="view", path="/memories/pic.jpg")

    def test_view_non_utf8_file(self, tool: Tool) -> None:
        """Binary content is refused with a clear error."""
        tool.storage.create(canonicalize("/memories/bin.dat"), b"\xff\xfe\x00")
        assert "not UTF-8 text" in tool.error(command="view", path="/memories/bin.dat")

    # create

    def test_create(self, tool: Tool) -> None:
        """create writes the file, making folders as needed."""
        assert tool.ok(command="create", path="/memories/a/b/c.md", file_text="hi") == (
            "File created successfully at: /memories/a/b/c.md"
        )
        assert tool.read("/memories/a/b/c.md") == "hi"

    def test_create_never_overwrites(self, tool: Tool) -> None:
        """create on an existing file fails and keeps the content."""
        tool.create("/memories/a.md", "one")
        assert tool.error(command="create", path="/memories/a.md", file_text="two") == (
            "Error: File /memories/a.md already exists"
        )
        assert tool.read("/memories/a.md") == "one"

    def test_create_inside_file(self, tool: Tool) -> None:
        """create below a file is refused."""
        tool.create("/memories/a.md", "one")
        assert tool.error(command="create", path="/memories/a.md/b.md", file_text="x") == (
            "Error: The path /memories/a.md is a file, not a folder"
        )
        assert tool.error(command="view", path="/memories/a.md/b.md") == (
            "Error: The path /memories/a.md is a file, not a folder"
        )

    # str_replace

    def test_str_replace(self, tool: Tool) -> None:
        """A unique match is replaced and a numbered snippet returned."""
        tool.create("/memories/n.md", "one\ntwo\nthree\n")
        text = tool.ok(command="str_replace", path="/memories/n.md", old_str="two", new_str="2")
        assert text.startswith("The memory file has been edited.")
        assert "     2\t2" in text
        assert tool.read("/memories/n.md") == "one\n2\nthree\n"

    def test_str_replace_literal_multiline(self, tool: Tool) -> None:
        """Matching is literal across lines; no $ or backslash expansion."""
        tool.create("/memories/n.md", "a\nb $1 \\1\nc\n")
        tool.ok(command="str_replace", path="/memories/n.md", old_str="a\nb $1 \\1", new_str="$0 \\g<0>")
        assert tool.read("/memories/n.md") == "$0 \\g<0>\nc\n"

    def test_str_replace_omitted_new_str_deletes(self, tool: Tool) -> None:
        """An omitted new_str deletes old_str."""
        tool.create("/memories/n.md", "keep drop keep")
        tool.ok(command="str_replace", path="/memories/n.md", old_str=" drop")
        assert tool.read("/memories/n.md") == "keep keep"

    def test_str_replace_no_match(self, tool: Tool) -> None:
        """No match gets the reference text and changes nothing."""
        tool.create("/memories/n.md", "abc")
        assert tool.error(command="str_replace", path="/memories/n.md", old_str="zzz", new_str="y") == (
            "No replacement was performed, old_str `zzz` did not appear verbatim in /memories/n.md."
        )
        assert tool.read("/memories/n.md") == "abc"

    def test_str_replace_multiple(self, tool: Tool) -> None:
        """Several matches are listed by line and nothing changes."""
        tool.create("/memories/n.md", "x\ny\nx\n")
        assert tool.error(command="str_replace", path="/memories/n.md", old_str="x", new_str="z") == (
            "No replacement was performed. Multiple occurrences of old_str `x` in lines: 1, 3. Please ensure it is unique"
        )
        assert tool.read("/memories/n.md") == "x\ny\nx\n"

    def test_str_replace_missing_file(self, tool: Tool) -> None:
        """str_replace on a missing file gets the does-not-exist text."""
        assert "does not exist" in tool.error(command="str_replace", path="/memories/n.md", old_str="a", new_str="b")

    def test_str_replace_folder(self, tool: Tool) -> None:
        """str_replace on a folder is refused."""
        tool.create("/memories/d/n.md", "a")
        assert "not a file" in tool.error(command="str_replace", path="/memories/d", old_str="a", new_str="b")

    # insert

    def test_insert(self, tool: Tool) -> None:
        """insert puts text after the given line (0 = top)."""
        tool.create("/memories/n.md", "a\nc\n")
        assert tool.ok(command="insert", path="/memories/n.md", insert_line=1, insert_text="b\n") == (
            "The file /memories/n.md has been edited."
        )
        tool.ok(command="insert", path="/memories/n.md", insert_line=0, insert_text="top")
        tool.ok(command="insert", path="/memories/n.md", insert_line=4, insert_text="end")
        assert tool.read("/memories/n.md") == "top\na\nb\nc\nend\n"

    @pytest.mark.parametrize("line", [-1, 3, 10**9])
    def test_insert_bad_line(self, tool: Tool, line: int) -> None:
        """A line outside [0, n_lines] gets the reference text and changes nothing."""
        tool.create("/memories/n.md", "a\nb\n")
        assert tool.error(command="insert", path="/memories/n.md", insert_line=line, insert_text="x") == (
            f"Error: Invalid `insert_line` parameter: {line}. It should be within the range of lines of the file: [0, 2]"
        )
        assert tool.read("/memories/n.md") == "a\nb\n"

    # delete

    def test_delete_file_and_folder(self, tool: Tool) -> None:
        """delete removes a file, or a folder with its tree."""
        tool.create("/memories/d/e/f.md", "x")
        tool.create("/memories/g.md", "x")
        assert tool.ok(command="delete", path="/memories/g.md") == "Successfully deleted /memories/g.md"
        assert tool.ok(command="delete", path="/memories/d") == "Successfully deleted /memories/d"
        assert tool.ok(command="view", path="/memories").splitlines()[1:] == ["4.0K\t/memories"]

    def test_delete_missing(self, tool: Tool) -> None:
        """delete of a missing path gets the reference text."""
        assert tool.error(command="delete", path="/memories/x") == "Error: The path /memories/x does not exist"

    @pytest.mark.parametrize("spelling", ["/memories", "/memories/", "/memories/.", "/memories/a/..", "%2fmemories"])
    def test_delete_root_refused(self, tool: Tool, spelling: str) -> None:
        """No spelling of the root can be deleted."""
        tool.create("/memories/keep.md", "x")
        assert "cannot be deleted" in tool.error(command="delete", path=spelling)
        assert tool.read("/memories/keep.md") == "x"

    # rename

    def test_rename(self, tool: Tool) -> None:
        """rename moves a file, creating the destination folders."""
        tool.create("/memories/a.md", "x")
        assert tool.ok(command="rename", old_path="/memories/a.md", new_path="/memories/n/b.md") == (
            "Successfully renamed /memories/a.md to /memories/n/b.md"
        )
        assert tool.read("/memories/n/b.md") == "x"
        assert tool.storage.stat(canonicalize("/memories/a.md")) is None

    def test_rename_folder(self, tool: Tool) -> None:
        """rename moves a folder with its content."""
        tool.create("/memories/a/x.md", "x")
        tool.ok(command="rename", old_path="/memories/a", new_path="/memories/b")
        assert tool.read("/memories/b/x.md") == "x"

    def test_rename_never_overwrites(self, tool: Tool) -> None:
        """rename onto an existing path fails and changes nothing."""
        tool.create("/memories/a.md", "a")
        tool.create("/memories/b.md", "b")
        assert tool.error(command="rename", old_path="/memories/a.md", new_path="/memories/b.md") == (
            "Error: The destination /memories/b.md already exists"
        )
        assert (tool.read("/memories/a.md"), tool.read("/memories/b.md")) == ("a", "b")

    def test_rename_missing(self, tool: Tool) -> None:
        """rename of a missing source gets the reference text."""
        assert tool.error(command="rename", old_path="/memories/a", new_path="/memories/b") == (
            "Error: The path /memories/a does not exist"
        )

    def test_rename_into_itself_refused(self, tool: Tool) -> None:
        """A folder cannot be moved into itself."""
        tool.create("/memories/a/x.md", "x")
        assert "into itself" in tool.error(command="rename", old_path="/memories/a", new_path="/memories/a/b")
        assert tool.read("/memories/a/x.md") == "x"

    @pytest.mark.parametrize(
        ("old", "new"), [("/memories", "/memories/x"), ("/memories/", "/memories/y"), ("/memories/a", "/memories")]
    )
    def test_rename_root_refused(self, tool: Tool, old: str, new: str) -> None:
        """The root can be neither renamed nor replaced."""
        tool.create("/memories/a/x.md", "x")
        assert "Access denied" in tool.error(command="rename", old_path=old, new_path=new)
        assert tool.read("/memories/a/x.md") == "x"

    # quotas (the sandbox passes the policy's quota to the store, which checks it with the write)

    def test_quota_bytes_and_files(self, make_tool: MakeTool) -> None:
        """Writes past the quota are refused and change nothing; deleting frees room."""
        tool = make_tool(parse_policy(QUOTA_POLICY, source="quota.toml"))
        tool.create("/memories/a.md", "0123456789abcdefghij")
        over = tool.error(command="create", path="/memories/b.md", file_text="x" * 11)
        assert over == (
            "Error: Access denied: quota exceeded: this memory would hold 31 bytes; "
            "the quota is 30 bytes (quota.max_bytes). Delete something first."
        )
        tool.create("/memories/b.md", "x")
        files = tool.error(command="create", path="/memories/c.md", file_text="")
        assert "would hold 3 files; the quota is 2 files (quota.max_files)" in files
        grow = tool.error(command="str_replace", path="/memories/a.md", old_str="0", new_str="y" * 12)
        assert "the quota is 30 bytes" in grow
        assert tool.read("/memories/a.md") == "0123456789abcdefghij"
        assert tool.storage.usage() == Usage(21, 2)
        tool.ok(command="delete", path="/memories/a.md")
        tool.create("/memories/c.md", "z" * 25)
        assert tool.storage.usage() == Usage(26, 2)

    def test_quota_names_existing_file_first(self, make_tool: MakeTool) -> None:
        """At the quota, creating a name that is taken says so rather than blaming the quota."""
        tool = make_tool(parse_policy(QUOTA_POLICY, source="quota.toml"))
        tool.create("/memories/a.md", "x" * 30)
        assert tool.error(command="create", path="/memories/a.md", file_text="y") == (
            "Error: File /memories/a.md already exists"
        )

    def test_usage_follows_folders(self, make_tool: MakeTool) -> None:
        """Usage counts files in folders, is unchanged by a move and freed by deleting the folder."""
        tool = make_tool(load_policy("default"))
        tool.create("/memories/d/x.md", "abc")
        tool.create("/memories/d/e/y.md", "de")
        assert tool.storage.usage() == Usage(5, 2, 2)
        tool.ok(command="rename", old_path="/memories/d", new_path="/memories/f/d")
        assert tool.storage.usage() == Usage(5, 2, 3)
        assert tool.read("/memories/f/d/e/y.md") == "de"
        tool.ok(command="delete", path="/memories/f")
        assert tool.storage.usage() == Usage(0, 0, 0)

    def test_one_decision_per_call(self, tool: Tool) -> None:
        """Every call, allowed or refused, leaves exactly one outcome record; a write also leaves its
        intent, written before the change, and a read nothing more (it changes nothing)."""
        tool(command="view", path="/memories")
        tool(command="view", path="/memories/../x")
        tool(command="bogus")
        tool(command="create", path="/memories/a.md", file_text="x")
        assert [d.outcome for d in tool.audit.outcomes] == ["ok", "denied", "denied", "ok"]
        assert [d.command for d in tool.audit.intents] == ["create"]


class StorageContract(CommandContract):
    """Behaviour shared by every storage adapter, and scopes on one backend."""

    @pytest.fixture
    def scoped(self) -> Callable[[str], StorageAdapter]:  # pragma: no cover - each adapter's module overrides it
        raise NotImplementedError

    @pytest.fixture
    def storage(self, scoped: Callable[[str], StorageAdapter]) -> StorageAdapter:
        return scoped("user-1")

    @pytest.fixture
    def make_tool(self, storage: StorageAdapter) -> MakeTool:
        return lambda policy: Tool.over(storage, policy)

    # adapter level

    def test_adapter_errors(self, storage: StorageAdapter) -> None:
        """Adapters signal the ordinary failures with the shared error types."""
        a, b = canonicalize("/memories/a"), canonicalize("/memories/a/b")
        with pytest.raises(NotFound):
            storage.read(a)
        storage.create(a, b"x")
        with pytest.raises(AlreadyExists):
            storage.create(a, b"y")
        with pytest.raises(NotADirectory):
            storage.create(b, b"y")
        with pytest.raises(NotAFile):
            storage.read(ROOT)
        with pytest.raises(NotFound):
            storage.delete(canonicalize("/memories/zz"))

    def test_modify_failure_writes_nothing(self, storage: StorageAdapter) -> None:
        """An edit function that raises leaves the file as it was."""
        path = canonicalize("/memories/a")
        storage.create(path, b"before")

        def edit(_: bytes) -> bytes:
            raise NotFound(path)

        with pytest.raises(NotFound):
            storage.modify(path, edit)
        assert storage.read(path) == b"before"

    def test_write_session_reads_its_own_writes(self, storage: StorageAdapter) -> None:
        """In a write session, reads and usage see the session's writes; folders made are counted."""
        a, b = canonicalize("/memories/d/e/a.md"), canonicalize("/memories/d/b.md")
        with storage.writing() as session:
            session.put(a, b"abcd", new=True)
            assert session.read(a) == b"abcd" and session.usage() == Usage(4, 1, 2)
            session.move(a, b)
            session.put(b, b"xy", new=False)
            assert session.stat(a) is None and session.usage() == Usage(2, 1, 2)
        tree = storage.tree(canonicalize("/memories/d"))
        assert [(node.parts, node.is_dir, node.size) for node in tree.nodes] == [
            ((), True, 0),
            (("b.md",), False, 2),
            (("e",), True, 0),
        ]
        assert (tree.depth, tree.extra_bytes, tree.usage) == (1, 5, Usage(2, 1, 2))
        assert storage.usage() == Usage(2, 1, 2)

    def test_write_session_lookups_follow_each_change(self, storage: StorageAdapter) -> None:
        """What a session looked up before a change (a missing file, a folder, a size) is never what
        it sees after it: every read follows the session's own puts, edits, moves and removals."""
        p = canonicalize
        with storage.writing() as session:
            assert session.stat(p("/memories/d/e/a.md")) is None and session.stat(p("/memories/d")) is None
            session.put(p("/memories/d/e/a.md"), b"abcd", new=True)
            assert session.stat(p("/memories/d")).is_dir and session.stat(p("/memories/d/e/a.md")).size == 4  # type: ignore[union-attr]
            assert session.read(p("/memories/d/e/a.md")) == b"abcd"
            session.put(p("/memories/d/e/a.md"), b"abcdefgh", new=False)
            assert session.stat(p("/memories/d/e/a.md")).size == 8 and session.usage() == Usage(8, 1, 2)  # type: ignore[union-attr]
            session.move(p("/memories/d/e"), p("/memories/f"))
            assert session.stat(p("/memories/d/e")) is None and session.stat(p("/memories/d/e/a.md")) is None
            assert session.stat(p("/memories/f/a.md")).size == 8  # type: ignore[union-attr]
            with pytest.raises(NotFound):
                session.put(p("/memories/d/e/a.md"), b"x", new=False)
            session.put(p("/memories/d/e"), b"file", new=True)  # where the folder was, now a file
            with pytest.raises(NotADirectory):
                session.put(p("/memories/d/e/b.md"), b"x", new=True)
            session.remove(p("/memories/f"))
            assert session.stat(p("/memories/f")) is None and session.stat(p("/memories/f/a.md")) is None
            with pytest.raises(NotFound):
                session.put(p("/memories/f/a.md"), b"x", new=False)
            assert session.usage() == Usage(4, 1, 1)
        assert storage.usage() == Usage(4, 1, 1) and storage.read(p("/memories/d/e")) == b"file"

    def test_tree_of_a_file_and_of_nothing(self, storage: StorageAdapter) -> None:
        """A file's tree is the file alone; a missing path has none (NotFound)."""
        storage.create(canonicalize("/memories/f.md"), b"abc")
        assert storage.tree(canonicalize("/memories/f.md")).nodes[0].size == 3
        with pytest.raises(NotFound):
            storage.tree(canonicalize("/memories/none"))

    # scopes

    def test_scopes_isolated(self, scoped: Callable[[str], StorageAdapter]) -> None:
        """Scopes on one backend share nothing: files, listings, usage, deletes, renames."""
        alice, bob = (
            Tool.over(scoped("alice"), load_policy("default")),
            Tool.over(scoped("bob"), load_policy("default")),
        )
        alice.create("/memories/notes/a.md", "alice")
        bob.create("/memories/notes/b.md", "bob-bob")
        assert "b.md" not in alice.ok(command="view", path="/memories/notes")
        assert "does not exist" in alice.error(command="view", path="/memories/notes/b.md")
        assert alice.storage.usage() == Usage(5, 1, 1) and bob.storage.usage() == Usage(7, 1, 1)
        alice.ok(command="rename", old_path="/memories/notes", new_path="/memories/moved")
        assert bob.read("/memories/notes/b.md") == "bob-bob"
        alice.ok(command="delete", path="/memories/moved")
        assert bob.read("/memories/notes/b.md") == "bob-bob"
        assert alice.ok(command="view", path="/memories").splitlines()[1:] == ["4.0K\t/memories"]

    def test_scope_ids_are_data(self, scoped: Callable[[str], StorageAdapter]) -> None:
        """Scope ids that look like paths, patterns or SQL reach only their own scope."""
        odd = ["../bob", "%", "b_b", "bob' OR '1'='1", "BOB", "bob/"]
        scoped("bob").create(canonicalize("/memories/b.md"), b"bob")
        for scope in odd:
            store = scoped(scope)
            assert store.stat(canonicalize("/memories/b.md")) is None, scope
            store.create(canonicalize("/memories/b.md"), scope.encode())
        assert scoped("bob").read(canonicalize("/memories/b.md")) == b"bob"
        for scope in odd:
            assert scoped(scope).read(canonicalize("/memories/b.md")) == scope.encode()
