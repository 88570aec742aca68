"""Secrets through the sandbox: redact or reject on write, redact on read, never leak."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from anthropic.tools import BetaLocalFilesystemMemoryTool

from sandbox import Sandbox, load_policy
from sandbox.commands import Create, Insert, Rename, StrReplace
from sandbox.decision import ListAuditSink
from sandbox.errors import PolicyError, SecretRejected
from sandbox.integrations.anthropic import SandboxedMemoryTool
from sandbox.paths import canonicalize
from sandbox.policy import parse_policy
from sandbox.redaction import SecretGuard
from sandbox.stages import SecretScanner
from sandbox.storage import InMemoryStorage
from tests.planning import planned
from tests.secrets_corpus import SECRET_MAKERS

AKIA = "AKIAZ7Q3K5RT2PLM4QWE"
GHP = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
BASE = 'schema_version = 1\nid = "t"\nrevision = 1\n'


def policy(extra: str = "") -> Any:
    return parse_policy(BASE + extra, source="t.toml")


def sandbox(extra: str = "", storage: InMemoryStorage | None = None) -> tuple[Sandbox, InMemoryStorage, ListAuditSink]:
    storage = storage or InMemoryStorage()
    audit = ListAuditSink()
    return Sandbox(policy=policy(extra), storage=storage, audit=audit), storage, audit


def stored(storage: InMemoryStorage, path: str) -> str:
    return storage.read(canonicalize(path)).decode()


class TestSecretScanner:
    scanner = SecretScanner(SecretGuard(load_policy("default").secrets))
    path = canonicalize("/memories/n.md")

    def test_create_redacted(self) -> None:
        """create.file_text is redacted and the rule noted."""
        out = self.scanner(planned(Create(self.path, f"key {AKIA} end")))
        assert out.content == "key [REDACTED:aws-access-key-id] end"
        assert [note.rule_id for note in out.notes] == ["secret.aws-access-key-id"]

    def test_new_str_redacted_old_str_kept(self) -> None:
        """new_str is redacted; old_str, a search key that is never stored, is left as is."""
        out = self.scanner(planned(StrReplace(self.path, GHP, f"x {GHP}")))
        assert isinstance(out.op, StrReplace)
        assert out.op.old_str == GHP and out.written == "x [REDACTED:github-pat]"

    def test_insert_text_redacted(self) -> None:
        """insert_text is redacted."""
        out = self.scanner(planned(Insert(self.path, 0, GHP)))
        assert out.written == "[REDACTED:github-pat]\n"

    def test_secret_in_path_rejected(self) -> None:
        """A path holding a secret is refused (it cannot be redacted without renaming)."""
        with pytest.raises(SecretRejected) as info:
            self.scanner(planned(Create(canonicalize(f"/memories/{GHP}.md"), "x")))
        assert GHP not in info.value.message and "github-pat" in info.value.message

    def test_secret_paths_refused_every_time_clean_ones_remembered(self) -> None:
        """Paths found clean are not scanned again; a path holding a secret is refused at every
        call, also once the remembered clean paths outnumber the bound and are let go."""
        scanner = SecretScanner(SecretGuard(load_policy("default").secrets))
        secret = canonicalize(f"/memories/{GHP}.md")
        for n in range(4200):  # past the bound of remembered paths
            scanner(planned(Create(canonicalize(f"/memories/clean-{n}.md"), "x")))
            if n % 1000 == 0:
                with pytest.raises(SecretRejected):
                    scanner(planned(Create(secret, "x")))
        assert len(scanner._clean) <= 4096 and secret not in scanner._clean
        with pytest.raises(SecretRejected):
            scanner(planned(Rename(canonicalize("/memories/clean-1.md"), secret)))

    def test_clean_request_untouched(self) -> None:
        """A request without secrets passes unchanged."""
        effect = planned(Create(self.path, "nothing to see"))
        assert self.scanner(effect) == effect


class TestActions:
    def test_strict_profile_rejects(self) -> None:
        """The strict profile refuses a write holding a secret; the message names the rule, not the value."""
        strict = Sandbox(policy=load_policy("strict"), storage=InMemoryStorage())
        result = strict.execute({"command": "create", "path": "/memories/n.md", "file_text": GHP})
        assert result.is_error and GHP not in str(result.content)
        assert (
            result.content == "Error: Access denied: the content holds a secret (rule github-pat); nothing was stored"
        )
        assert result.decision.rule_ids == ("secret.github-pat",)

    def test_per_rule_override(self) -> None:
        """A per-rule action beats the policy-wide one."""
        box, storage, _ = sandbox('[secrets]\naction = "reject"\nrules = {github-pat = "allow"}\n')
        assert not box.execute({"command": "create", "path": "/memories/n.md", "file_text": GHP}).is_error
        assert stored(storage, "/memories/n.md") == GHP
        assert box.execute({"command": "create", "path": "/memories/m.md", "file_text": AKIA}).is_error

    def test_per_path_override(self) -> None:
        """A path glob override beats rule and policy settings."""
        box, storage, audit = sandbox('[[secrets.paths]]\nglob = "/memories/vault/**"\naction = "reject"\n')
        assert box.execute({"command": "create", "path": "/memories/vault/k.md", "file_text": GHP}).is_error
        box.execute({"command": "create", "path": "/memories/notes.md", "file_text": GHP})
        assert stored(storage, "/memories/notes.md") == "[REDACTED:github-pat]"
        assert audit.outcomes[-1].verdict == "redact"

    def test_allow_records_only(self) -> None:
        """An allowed secret is stored as is and recorded in the decision."""
        box, storage, audit = sandbox('[secrets]\naction = "allow"\n')
        box.execute({"command": "create", "path": "/memories/n.md", "file_text": GHP})
        assert stored(storage, "/memories/n.md") == GHP
        assert audit.outcomes[-1].rule_ids == ("secret.github-pat",)

    def test_disabled_rule(self) -> None:
        """A disabled rule finds nothing (what it would have found is left to the scorer)."""
        box, storage, _ = sandbox('[secrets]\ndisabled = ["github-pat", "secret-scorer"]\n')
        box.execute({"command": "create", "path": "/memories/n.md", "file_text": GHP})
        assert stored(storage, "/memories/n.md") == GHP
        box, storage, _ = sandbox('[secrets]\ndisabled = ["github-pat"]\n')
        box.execute({"command": "create", "path": "/memories/n.md", "file_text": GHP})
        assert stored(storage, "/memories/n.md") == "[REDACTED:secret-scorer]"

    def test_a_value_a_rule_allows_is_not_judged_by_the_scorer(self) -> None:
        """To store what a rule finds, allow it: the scorer judges only what no rule found."""
        box, storage, _ = sandbox('[secrets]\nrules = { "github-pat" = "allow" }\n')
        box.execute({"command": "create", "path": "/memories/n.md", "file_text": GHP})
        assert stored(storage, "/memories/n.md") == GHP

    @pytest.mark.parametrize(
        "extra", ['[secrets]\nrules = {github-patt = "allow"}\n', '[secrets]\ndisabled = ["nope"]\n']
    )
    def test_unknown_rule_id_refused(self, extra: str) -> None:
        """A misspelt rule id stops start-up instead of leaving the rule at its default."""
        with pytest.raises(PolicyError, match="unknown rule id"):
            sandbox(extra)

    def test_secrets_off(self) -> None:
        """With scanning disabled, content is stored as written."""
        box, storage, _ = sandbox("[secrets]\nenabled = false\n")
        box.execute({"command": "create", "path": "/memories/n.md", "file_text": GHP})
        assert stored(storage, "/memories/n.md") == GHP


class TestStoredContent:
    def test_secret_assembled_over_edits(self) -> None:
        """Half a key in one edit and the rest in the next: the file never holds it whole."""
        box, storage, _ = sandbox()
        box.execute({"command": "create", "path": "/memories/n.md", "file_text": "id: AKIAZ7Q3\nTAIL\n"})
        result = box.execute(
            {"command": "str_replace", "path": "/memories/n.md", "old_str": "\nTAIL", "new_str": "K5RT2PLM4QWE"}
        )
        assert not result.is_error
        assert stored(storage, "/memories/n.md") == "id: [REDACTED:aws-access-key-id]\n"
        assert result.decision.rule_ids == ("secret.aws-access-key-id",)

    def test_insert_assembles_key(self) -> None:
        """An insert that completes a secret in the file's content is caught too."""
        box, storage, _ = sandbox()
        box.execute({"command": "create", "path": "/memories/n.md", "file_text": "-----BEGIN PRIVATE KEY-----\n"})
        box.execute({"command": "insert", "path": "/memories/n.md", "insert_line": 1, "insert_text": "QUJD" * 20})
        box.execute(
            {
                "command": "insert",
                "path": "/memories/n.md",
                "insert_line": 2,
                "insert_text": "-----END PRIVATE KEY-----",
            }
        )
        assert "QUJD" not in stored(storage, "/memories/n.md")

    def test_read_side_redaction_keeps_line_numbers(self) -> None:
        """Secrets already in storage are redacted on view, line numbers unchanged, and recorded."""
        storage = InMemoryStorage()
        key = "-----BEGIN PRIVATE KEY-----\n" + "QUJD" * 16 + "\n-----END PRIVATE KEY-----"
        storage.create(canonicalize("/memories/old.md"), f"one\n{key}\nlast {GHP}\n".encode())
        box, _, audit = sandbox(storage=storage)
        result = box.execute({"command": "view", "path": "/memories/old.md"})
        text = str(result.content)
        assert "QUJD" not in text and GHP not in text
        assert "     5\tlast [REDACTED:github-pat]" in text and "     2\t[REDACTED:private-key]" in text
        assert audit.outcomes[-1].verdict == "redact"
        assert set(audit.outcomes[-1].rule_ids) == {"secret.private-key", "secret.github-pat"}

    def test_read_side_off(self) -> None:
        """scan_reads = false shows stored content as it is."""
        storage = InMemoryStorage()
        storage.create(canonicalize("/memories/old.md"), GHP.encode())
        box, _, _ = sandbox("[secrets]\nscan_reads = false\n", storage=storage)
        assert GHP in str(box.execute({"command": "view", "path": "/memories/old.md"}).content)

    def test_error_text_scrubbed(self) -> None:
        """An error that echoes old_str never echoes a secret in it."""
        box, _, audit = sandbox()
        box.execute({"command": "create", "path": "/memories/n.md", "file_text": "text"})
        result = box.execute(
            {"command": "str_replace", "path": "/memories/n.md", "old_str": f"no {GHP}", "new_str": "y"}
        )
        assert result.is_error and GHP not in str(result.content) and "[REDACTED:github-pat]" in str(result.content)
        assert GHP not in repr(audit.outcomes[-1])


class TestWrapMode:
    def test_wrapped_sdk_gets_redacted_content(self, tmp_path: Path) -> None:
        """Wrapped, the SDK handler stores redacted text and its views are redacted."""
        tool = SandboxedMemoryTool.wrap(BetaLocalFilesystemMemoryTool(str(tmp_path)))
        tool.call({"command": "create", "path": "/memories/n.md", "file_text": f"key {GHP}\n"})
        assert (tmp_path / "memories" / "n.md").read_text() == "key [REDACTED:github-pat]\n"
        (tmp_path / "memories" / "old.md").write_text(f"old {AKIA}\n")
        assert AKIA not in str(tool.call({"command": "view", "path": "/memories/old.md"}))


def every_channel(box: Sandbox, audit: ListAuditSink, storage: InMemoryStorage, line: str) -> list[str]:
    """Push one secret, in the text that carries it, through every command and slot;
    return every text that left the sandbox. (Context rules such as ``password: ...``
    recognise a value by its key, so the key travels with it.)"""
    texts: list[str] = []
    commands: list[dict[str, Any]] = [
        {"command": "create", "path": "/memories/a.md", "file_text": f"{line}\n"},
        {"command": "view", "path": "/memories/a.md"},
        {"command": "str_replace", "path": "/memories/a.md", "old_str": line, "new_str": f"again {line}"},
        {"command": "str_replace", "path": "/memories/a.md", "old_str": f"missing {line}", "new_str": "x"},
        {"command": "insert", "path": "/memories/a.md", "insert_line": 0, "insert_text": line},
        {"command": "insert", "path": "/memories/a.md", "insert_line": 99, "insert_text": line},
        {"command": "create", "path": f"/memories/x-{line}.md", "file_text": "x"},
        {"command": "view", "path": f"/memories/x-{line}"},
        {"command": "rename", "old_path": "/memories/a.md", "new_path": f"/memories/x-{line}"},
        {"command": "bogus", "path": line},
        {"command": "view", "path": "/memories"},
    ]
    for command in commands:
        result = box.execute(command)
        texts.append(str(result.content))
    texts += [repr(decision) for decision in audit.intents + audit.outcomes]
    texts += [repr(box), repr(box.stages)]
    texts += [content.decode() for content in all_files(storage)]
    return texts


def all_files(storage: InMemoryStorage, folder: str = "/memories") -> list[bytes]:
    out: list[bytes] = []
    with storage.scan(canonicalize(folder)) as entries:
        listed = list(entries)
    for entry in listed:
        path = f"{folder}/{entry.name}"
        out += all_files(storage, path) if entry.is_dir else [storage.read(canonicalize(path))]
    return out


@pytest.mark.parametrize("maker", sorted(SECRET_MAKERS))
def test_secret_never_leaks(maker: str) -> None:
    """A planted secret of every format appears in no output channel: results, errors, records, storage."""
    value, line = SECRET_MAKERS[maker](random.Random(maker))
    box, storage, audit = sandbox()
    for text in every_channel(box, audit, storage, line):
        assert value not in text, (maker, text[:200])
