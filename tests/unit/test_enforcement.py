"""Policy enforcement: path rules, access rules, size limits, rate limits, quotas, case twins."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from sandbox import Sandbox
from sandbox.commands import Create, Delete, Insert, Rename, StrReplace, View
from sandbox.decision import CallContext
from sandbox.errors import Denied, LimitExceeded, QuotaExceeded, RateLimited
from sandbox.paths import canonicalize
from sandbox.policy import AccessRule, LimitsSection, PathsSection, QuotaSection, parse_policy
from sandbox.stages import AccessRules, PathRules, QuotaEnforcer, RateLimiter, SizeLimiter
from sandbox.storage import InMemoryStorage, LocalStorage, Usage
from sandbox.storage.base import Node, Tree
from tests.planning import planned

BASE = 'schema_version = 1\nid = "t"\nrevision = 1\n'


def path(text: str) -> Any:
    return canonicalize(text)


def sandbox(extra: str = "", storage: Any = None) -> Sandbox:
    return Sandbox(policy=parse_policy(BASE + extra, source="t.toml"), storage=storage or InMemoryStorage())


class TestPathRules:
    stage = PathRules(PathsSection(max_depth=3, allowed_extensions=(".md", ".txt")))

    def test_depth_limit_names_the_numbers(self) -> None:
        """A write deeper than max_depth is refused with the limit and the depth."""
        with pytest.raises(LimitExceeded) as info:
            self.stage(planned(Create(path("/memories/a/b/c/d.md"), "x")))
        assert (
            info.value.rule_id == "paths.max_depth"
            and "4 levels" in info.value.message
            and "3 levels" in info.value.message
        )

    def test_extension_refused(self) -> None:
        """A created file must have an allowed extension."""
        with pytest.raises(Denied) as info:
            self.stage(planned(Create(path("/memories/run.py"), "x")))
        assert info.value.rule_id == "paths.allowed_extensions"

    def test_rename_cannot_change_extension(self) -> None:
        """A renamed file keeps an allowed extension."""
        with pytest.raises(Denied):
            self.stage(planned(Rename(path("/memories/a.md"), path("/memories/a.exe"))))
        with pytest.raises(Denied):
            self.stage(planned(Rename(path("/memories/a.md"), path("/memories/a"))))

    def test_folders_move_freely(self) -> None:
        """Names without extensions on both sides (folders) are not subject to the rule."""
        request = planned(Rename(path("/memories/proj"), path("/memories/archive")))
        assert self.stage(request) is request

    def test_reads_unaffected(self) -> None:
        """Viewing is not limited by the write rules."""
        request = planned(View(path("/memories/a/b/c/d/e.py")))
        assert self.stage(request) is request


class TestAccessRules:
    rules = (
        AccessRule(
            id="ro",
            effect="deny",
            commands=("create", "str_replace", "insert", "delete", "rename"),
            paths=("/memories/policies/**",),
            reason="read-only",
        ),
        AccessRule(id="team", effect="allow", paths=("/memories/team/**",)),
    )

    def test_deny_rule(self) -> None:
        """A deny rule refuses its commands on its paths, with its id and reason."""
        with pytest.raises(Denied) as info:
            AccessRules(self.rules, "allow")(planned(Delete(path("/memories/policies/a.md"))))
        assert info.value.rule_id == "ro" and info.value.message.endswith("read-only")

    def test_deny_covers_folder_itself(self) -> None:
        """``/memories/policies/**`` also protects the folder itself."""
        with pytest.raises(Denied):
            AccessRules(self.rules, "allow")(planned(Delete(path("/memories/policies"))))

    def test_rename_checks_both_paths(self) -> None:
        """A rename is refused when either end is protected."""
        stage = AccessRules(self.rules, "allow")
        with pytest.raises(Denied):
            stage(planned(Rename(path("/memories/a.md"), path("/memories/policies/a.md"))))
        with pytest.raises(Denied):
            stage(planned(Rename(path("/memories/policies/a.md"), path("/memories/a.md"))))

    def test_other_commands_pass(self) -> None:
        """Commands a rule does not name pass."""
        request = planned(View(path("/memories/policies/a.md")))
        assert AccessRules(self.rules, "allow")(request) is request

    def test_default_deny(self) -> None:
        """With default deny, only allowed paths pass."""
        stage = AccessRules(self.rules, "deny")
        assert stage(planned(View(path("/memories/team/x.md"))))
        with pytest.raises(Denied) as info:
            stage(planned(View(path("/memories/private.md"))))
        assert info.value.rule_id == "rules.default"

    def test_deny_wins_over_allow(self) -> None:
        """A path both allowed and denied is denied."""
        rules = (*self.rules, AccessRule(id="all", effect="allow", paths=("**",)))
        with pytest.raises(Denied):
            AccessRules(rules, "deny")(planned(Create(path("/memories/policies/a.md"), "x")))


class TestSizeLimiter:
    stage = SizeLimiter(LimitsSection(max_write_bytes=100, max_file_bytes=50, max_file_lines=3))

    @pytest.mark.parametrize(
        "op",
        [
            StrReplace(canonicalize("/memories/a.md"), "x", "y" * 101),
            Insert(canonicalize("/memories/a.md"), 0, "y" * 101),
            Create(canonicalize("/memories/a.md"), "\u00e9" * 51),
        ],
    )
    def test_write_limit(self, op: Any) -> None:
        """The text one command adds is limited, in UTF-8 bytes."""
        with pytest.raises(LimitExceeded) as info:
            self.stage(planned(op))
        assert info.value.rule_id == "limits.max_write_bytes"

    def test_created_file_size_and_lines(self) -> None:
        """A created file must fit the file limits."""
        with pytest.raises(LimitExceeded) as info:
            self.stage(planned(Create(path("/memories/a.md"), "x" * 60)))
        assert info.value.rule_id == "limits.max_file_bytes" and "60 bytes" in info.value.message
        with pytest.raises(LimitExceeded) as lines:
            self.stage(planned(Create(path("/memories/a.md"), "a\nb\nc\nd")))
        assert lines.value.rule_id == "limits.max_file_lines"


class TestRateLimiter:
    def test_bucket_per_scope(self) -> None:
        """Each scope has its own bucket; an empty bucket refuses with a retry-after hint."""
        now = [0.0]
        stage = RateLimiter(2, clock=lambda: now[0])
        alice, bob = CallContext(scope="alice"), CallContext(scope="bob")
        op = View(path("/memories"))
        stage(planned(op, alice))
        stage(planned(op, alice))
        with pytest.raises(RateLimited) as info:
            stage(planned(op, alice))
        assert info.value.retry_after == pytest.approx(30.0) and "retry in 30.0 s" in info.value.message
        stage(planned(op, bob))
        now[0] = 30.0
        stage(planned(op, alice))

    def test_policy_wires_rate_limit(self) -> None:
        """max_operations_per_minute in the policy limits calls through the sandbox."""
        box = sandbox("[quota]\nmax_operations_per_minute = 3\n")
        results = [box.execute({"command": "view", "path": "/memories"}) for _ in range(4)]
        assert [r.is_error for r in results] == [False, False, False, True]
        assert results[-1].decision.rule_ids == ("quota.max_operations_per_minute",)


@pytest.fixture(params=["memory", "local"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    if request.param == "memory":
        return InMemoryStorage()
    return LocalStorage(tmp_path / "s")


class TestStoreLimits:
    def test_edit_over_file_size_refused(self, store: Any) -> None:
        """An edit whose result passes max_file_bytes is refused and changes nothing."""
        box = sandbox("[limits]\nmax_file_bytes = 20\n", store)
        box.execute({"command": "create", "path": "/memories/a.md", "file_text": "0123456789"})
        result = box.execute({"command": "insert", "path": "/memories/a.md", "insert_line": 1, "insert_text": "x" * 15})
        assert result.is_error and result.decision.rule_ids == ("limits.max_file_bytes",)
        assert "27 bytes" in str(result.content) and "20 bytes" in str(result.content)
        assert store.read(path("/memories/a.md")) == b"0123456789"

    def test_edit_over_line_limit_refused(self, store: Any) -> None:
        """An edit whose result has too many lines is refused."""
        box = sandbox("[limits]\nmax_file_lines = 2\n", store)
        box.execute({"command": "create", "path": "/memories/a.md", "file_text": "a\nb\n"})
        result = box.execute({"command": "insert", "path": "/memories/a.md", "insert_line": 0, "insert_text": "c"})
        assert result.decision.rule_ids == ("limits.max_file_lines",)

    def test_quota_judged_on_delta(self) -> None:
        """The quota refuses growth past a limit and never refuses shrinking, whatever the store holds."""
        stage = QuotaEnforcer(QuotaSection(max_bytes=10, max_files=1))
        over = replace(planned(Create(path("/memories/a.md"), "x")), usage=Usage(10, 0))
        with pytest.raises(QuotaExceeded):
            stage(over)
        shrinking = replace(planned(Delete(path("/memories/a.md"))), failure=None, tree=Tree((Node((), False, 5),)))
        assert stage(replace(shrinking, usage=Usage(20, 5))) is not None

    def test_case_twins_refused(self, store: Any) -> None:
        """Two names differing only in case are refused by default, allowed when configured."""
        box = sandbox("", store)
        box.execute({"command": "create", "path": "/memories/Notes.md", "file_text": "x"})
        twin = box.execute({"command": "create", "path": "/memories/notes.md", "file_text": "y"})
        assert twin.decision.rule_ids == ("paths.case_collisions",)
        box.execute({"command": "create", "path": "/memories/other.md", "file_text": "z"})
        moved = box.execute({"command": "rename", "old_path": "/memories/other.md", "new_path": "/memories/NOTES.md"})
        assert moved.is_error
        relaxed = sandbox('[paths]\ncase_collisions = "allow"\n', store)
        assert not relaxed.execute({"command": "create", "path": "/memories/NOTES.MD", "file_text": "w"}).is_error

    def test_portable_names_option(self) -> None:
        """Device names are refused by default and allowed with portable_names = false."""
        assert sandbox().execute({"command": "create", "path": "/memories/nul.txt", "file_text": "x"}).is_error
        relaxed = sandbox("[paths]\nportable_names = false\n")
        assert not relaxed.execute({"command": "create", "path": "/memories/nul.txt", "file_text": "x"}).is_error
