"""The ``[secrets]`` policy compiled: what happens to each secret, where.

:class:`SecretGuard` holds the engine built from the policy's rule packs and
resolves each finding's action: a per-path glob override first, then a per-rule
override, then the policy-wide action, then the rule's own. Write-side scans
redact or reject; read-side scans redact whatever is not allowed, keeping line
numbers; :meth:`SecretGuard.scrub` removes every secret from text bound for an
error message or a log.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from typing import Final

from sandbox.decision import Note
from sandbox.errors import PolicyError, SecretRejected
from sandbox.globs import Glob
from sandbox.paths import MemoryPath
from sandbox.policy import Action, SecretsSection
from sandbox.secret_scorer import SCORER_ID, SecretScorer, TokenModel, load_secret_scorer
from sandbox.secrets import Finding, SecretEngine, SecretRule, find_hidden, load_pack, redact
from sandbox.secrets._re2 import alternation
from sandbox.secrets._rules import merge

__all__ = ["ScanCache", "SecretGuard"]

#: Texts shorter than this are scanned again: hashing them costs about what scanning does.
_CACHED_FROM: Final = 4096


class SecretGuard:
    """Secret scanning as one policy asks for it."""

    def __init__(self, section: SecretsSection, *, scorer: TokenModel | None = None) -> None:
        """``scorer``: the model in place of the shipped one (training and its measures use this)."""
        rules: dict[str, SecretRule] = {}
        allowlists: list[str] = []
        for pack_name in section.packs:
            pack = load_pack(pack_name)
            allowlists += pack.allowlist
            for rule in pack.rules:
                if rule.id in rules:
                    raise PolicyError(f"secrets.packs: rule id {rule.id!r} is defined by two packs")
                rules[rule.id] = rule
        if SCORER_ID in rules:
            raise PolicyError(f"secrets.packs: rule id {SCORER_ID!r} is the learned scorer's")
        known = set(rules) | {SCORER_ID}
        for key, named in (("rules", tuple(section.rules)), ("disabled", section.disabled)):
            unknown = sorted(set(named) - known)
            if unknown:
                # A misspelt id would silently leave a rule at its default: refuse.
                raise PolicyError(f"secrets.{key}: unknown rule id {unknown[0]!r}")
        active = tuple(rule for rule in rules.values() if rule.id not in section.disabled)
        self.engine = SecretEngine(active)
        self.scan_reads = section.scan_reads
        self._actions: dict[str, Action] = {
            rule.id: section.rules.get(rule.id) or section.action or rule.action for rule in active
        }
        # The scorer judges what the packs' own allowlists leave a finding (placeholders, public keys).
        self.scorer: SecretScorer | None = None
        if section.scorer and SCORER_ID not in section.disabled:
            model = scorer if scorer is not None else load_secret_scorer()
            self.scorer = SecretScorer(model, section.scorer_threshold, alternation(tuple(allowlists)))
            self._actions[SCORER_ID] = section.rules.get(SCORER_ID) or section.action or "redact"
        self._paths = tuple((Glob(o.glob), o.action) for o in section.paths)

    def __repr__(self) -> str:
        scorer = ", scorer" if self.scorer is not None else ""
        return f"SecretGuard({len(self._actions)} rules{scorer}, {len(self._paths)} path overrides)"

    def find(self, data: bytes) -> list[Finding]:
        """Every secret in ``data``: also behind invisible characters and inside encoded runs, and
        the tokens the scorer judges secret among those no rule found."""
        found = find_hidden(self.engine, data)
        if self.scorer is None:
            return found
        scored = self.scorer.find(data, found)
        return merge(found + scored) if scored else found

    def action(self, rule_id: str, path: MemoryPath | None) -> Action:
        if path is not None:
            for glob, action in self._paths:
                if glob.matches(path):
                    return action
        return self._actions[rule_id]

    def scan_write(self, text: str, path: MemoryPath) -> tuple[str, tuple[Note, ...]]:
        """Text to store: secrets redacted, or :class:`SecretRejected` if a rule rejects one."""
        data = text.encode("utf-8")
        findings = self.find(data)
        if not findings:
            return text, ()
        actions = [(finding, self.action(finding.rule_id, path)) for finding in findings]
        for finding, action in actions:
            if action == "reject":
                raise SecretRejected(finding.rule_id)
        redacted = [finding for finding, action in actions if action == "redact"]
        notes = tuple(_note(finding, action) for finding, action in actions)
        return (redact(data, redacted).decode("utf-8") if redacted else text), notes

    def scan_read(self, text: str, path: MemoryPath, seen: ScanCache | None = None) -> tuple[str, tuple[Note, ...]]:
        """Stored text on its way to the model: every secret not allowed is redacted, lines kept.
        ``seen``: what scans of texts read before found (the same text is not scanned twice)."""
        if not self.scan_reads:
            return text, ()
        data = text.encode("utf-8")
        found = seen.find(self, data) if seen is not None else self.find(data)
        findings = [f for f in found if self.action(f.rule_id, path) != "allow"]
        if not findings:
            return text, ()
        notes = tuple(Note(f"secret.{f.rule_id}", "redacted on read") for f in findings)
        return redact(data, findings, keep_lines=True).decode("utf-8"), notes

    def scrub_kept(self, data: bytes, path: MemoryPath) -> bytes:
        """Content a version keeps, every secret the policy does not allow redacted (what a file held
        before its edit may be a key another tool wrote, or one written before its rule existed)."""
        findings = [f for f in self.find(data) if self.action(f.rule_id, path) != "allow"]
        return redact(data, findings) if findings else data

    def check_path(self, path: MemoryPath) -> None:
        """A secret in a path cannot be redacted (it names the file): refuse the call. The rules
        judge paths; the scorer, which reads a value by the words around it, does not."""
        for finding in find_hidden(self.engine, str(path).encode("utf-8")):
            if self.action(finding.rule_id, path) != "allow":
                raise SecretRejected(finding.rule_id, where="the path")

    def scrub(self, text: str) -> str:
        """Text with every secret found redacted, whatever the actions: for errors and logs."""
        data = text.encode("utf-8", "surrogatepass")
        findings = self.find(data)
        return redact(data, findings).decode("utf-8", "surrogatepass") if findings else text


def _note(finding: Finding, action: Action) -> Note:
    return Note(f"secret.{finding.rule_id}", "redacted" if action == "redact" else "found, allowed by policy")


class ScanCache:
    """What a guard found in the texts it read before, by each text's SHA-256: a file viewed again
    unchanged is not scanned again (a 100 KB file: a hash of about 0.1 ms instead of a scan of about
    0.6 ms). The findings are the whole text's, as a scan finds them; the path's actions are applied
    after, at each read. Bounded (the least recently used go). One per sandbox: a sandbox serves one
    scope, so no scope learns from how fast a view answers what another scope's files hold."""

    def __init__(self, entries: int = 64) -> None:
        self._entries = entries
        self._found: OrderedDict[bytes, tuple[Finding, ...]] = OrderedDict()
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"ScanCache({len(self._found)} of {self._entries})"

    def __len__(self) -> int:
        return len(self._found)

    def find(self, guard: SecretGuard, data: bytes) -> list[Finding]:
        if len(data) < _CACHED_FROM:
            return guard.find(data)
        key = hashlib.sha256(data).digest()
        with self._lock:
            found = self._found.get(key)
            if found is not None:
                self._found.move_to_end(key)
                return list(found)
        findings = guard.find(data)
        with self._lock:
            self._found[key] = tuple(findings)
            while len(self._found) > self._entries:
                self._found.popitem(last=False)
        return findings
