"""Every shipped secret rule proven by its own examples, alone and by its absence.

A rule's examples live in its pack (``[rules.examples]``). The first test runs
each rule with every other rule removed: it must find each positive example and
none of the negative ones, so no broader rule can pass a narrow rule's test for
it. The second removes each rule in turn: its positives are then no longer
reported under its id. ``tests/secret_rule_ids.txt`` lists every rule the packs
must hold, so deleting a rule (and its examples with it) fails here too.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import replace
from importlib import resources
from pathlib import Path

import pytest

from sandbox.errors import PolicyError
from sandbox.secrets import RulePack, SecretEngine, SecretRule, check_examples, load_pack
from sandbox.secrets._checksums import crc32_base62

PACK_NAMES = sorted(
    entry.name.removesuffix(".toml")
    for entry in (resources.files("policies") / "secrets").iterdir()
    if entry.name.endswith(".toml")
)
PACKS = {name: load_pack(name) for name in PACK_NAMES}
RULES = [(pack, rule) for pack in PACKS.values() for rule in pack.rules]
# The source of each rule, as the pack files give it (the compiled rule does not keep it).
SOURCES = {
    rule["id"]: rule.get("source", "")
    for entry in (resources.files("policies") / "secrets").iterdir()
    if entry.name.endswith(".toml")
    for rule in tomllib.loads(entry.read_text(encoding="utf-8"))["rules"]
}

# Kept by hand: a rule removed from a pack (its examples with it) must show up here.
SHIPPED_RULE_IDS = frozenset(
    line
    for line in (Path(__file__).parents[1] / "secret_rule_ids.txt").read_text().splitlines()
    if line and not line.startswith("#")
)


@functools.cache
def whole_pack_engine(pack_id: str) -> SecretEngine:
    """The engine of a whole shipped pack, compiled once per test process."""
    return SecretEngine(next(pack for pack in PACKS.values() if pack.id == pack_id).rules)


def rule_id(item: tuple[RulePack, SecretRule]) -> str:
    return item[1].id


class TestShippedRules:
    def test_every_listed_rule_is_shipped(self) -> None:
        """The shipped packs hold exactly the listed rules: none lost, none added unlisted."""
        assert {rule.id for _, rule in RULES} == SHIPPED_RULE_IDS

    @pytest.mark.parametrize("item", RULES, ids=rule_id)
    def test_rule_carries_examples(self, item: tuple[RulePack, SecretRule]) -> None:
        """Each shipped rule carries at least two positive and two negative examples."""
        pack, rule = item
        examples = pack.examples.get(rule.id)
        assert examples is not None and len(examples.positive) >= 2 and len(examples.negative) >= 2

    @pytest.mark.parametrize("item", RULES, ids=rule_id)
    def test_rule_alone_finds_its_positives_only(self, item: tuple[RulePack, SecretRule]) -> None:
        """With every other rule removed, the rule finds each positive and no negative."""
        pack, rule = item
        examples = pack.examples[rule.id]
        alone = SecretEngine((rule,))
        for text in examples.positive:
            assert [f.rule_id for f in alone.find(text.encode())], (rule.id, text[:60])
        for text in examples.negative:
            assert alone.find(text.encode()) == [], (rule.id, text[:60])

    @pytest.mark.parametrize("item", RULES, ids=rule_id)
    def test_positives_not_reported_without_the_rule(self, item: tuple[RulePack, SecretRule]) -> None:
        """With the rule removed its positives are not reported under its id; with it, they are redacted."""
        pack, rule = item
        # Without the rule, on RE2: compiling a pack is 8x cheaper there than on hyperscan, and
        # both find the same (tests/unit/test_secrets.py runs its corpus on each; CI runs RE2 alone too).
        others = SecretEngine(tuple(other for other in pack.rules if other is not rule), native=False)
        everything = whole_pack_engine(pack.id)
        alone = SecretEngine((rule,))
        for text in pack.examples[rule.id].positive:
            data = text.encode()
            assert rule.id not in {f.rule_id for f in others.find(data)}, (rule.id, text[:60])
            covered = everything.find(data)
            for own in alone.find(data):
                assert any(f.start <= own.start and own.end <= f.end for f in covered), (rule.id, text[:60])

    @pytest.mark.parametrize("name", PACK_NAMES)
    def test_check_examples_passes(self, name: str) -> None:
        """The library's own check (run by ``policy test``) passes on every shipped pack."""
        run, failures = check_examples(PACKS[name])
        assert run >= 4 * len(PACKS[name].rules) and failures == []


class TestExamplesFormat:
    RULE = '[[rules]]\nid = "a"\ndescription = "d"\npattern = "tok_[0-9]{4}"\nkeywords = ["tok_"]\n'

    def test_broken_rule_fails_its_examples(self, tmp_path: Path) -> None:
        """A rule whose pattern no longer finds its positives, or finds a negative, is reported."""
        path = tmp_path / "mine.toml"
        path.write_text(
            'schema_version = 1\nid = "p"\n'
            + self.RULE.replace("[0-9]{4}", "[0-9]{5}")
            + '[rules.examples]\npositive = ["tok_1234", "x tok_9876"]\nnegative = ["tok_12", "tok_12345"]\n'
        )
        run, failures = check_examples(load_pack(path))
        assert run == 4
        assert [str(f) for f in failures] == [
            "rule a finds nothing in its positive example 1",
            "rule a finds nothing in its positive example 2",
            "rule a finds a secret in its negative example 2",
        ]

    @pytest.mark.parametrize(
        ("examples", "message"),
        [
            ('positive = ["tok_1234"]\nnegative = ["a", "b"]\n', "rules.0.examples.positive"),
            ('positive = ["tok_1234", "tok_5678"]\n', "rules.0.examples.negative"),
            ('positive = ["tok_1234", "tok_5678"]\nnegative = ["a", 3]\n', "rules.0.examples.negative.1"),
            ('positive = ["tok_1", "tok_2"]\nnegative = ["a", "b"]\nother = ["c"]\n', "rules.0.examples.other"),
        ],
    )
    def test_malformed_examples_refused(self, tmp_path: Path, examples: str, message: str) -> None:
        """Fewer than two of a kind, a non-string or an unknown key is refused, naming the key."""
        path = tmp_path / "mine.toml"
        path.write_text('schema_version = 1\nid = "p"\n' + self.RULE + "[rules.examples]\n" + examples)
        with pytest.raises(PolicyError) as info:
            load_pack(path)
        assert f"mine.toml: {message}" in info.value.message


class TestRuleMetadata:
    @pytest.mark.parametrize("item", RULES, ids=rule_id)
    def test_rule_names_its_source(self, item: tuple[RulePack, SecretRule]) -> None:
        """Each shipped rule says where its format is documented (a URL, or generic: the syntax it reads)."""
        source = SOURCES[item[1].id]
        assert source.startswith(("https://", "generic: ")), source

    @pytest.mark.parametrize("rule_id", ["github-pat", "github-oauth-token", "github-app-token", "npm-token"])
    def test_checksummed_formats_declare_it(self, rule_id: str) -> None:
        """GitHub and npm tokens carry a CRC32 checksum, and their rules check it."""
        assert {rule.id: rule for _, rule in RULES}[rule_id].checksum == "crc32-base62"


class TestChecksum:
    TOKEN = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW11ySowm"

    def test_valid_checksum_holds(self) -> None:
        """The last six base62 digits are the CRC32 of the thirty random characters."""
        assert crc32_base62(self.TOKEN.encode())

    @pytest.mark.parametrize("at", [4, 20, 33, 39])
    def test_any_changed_character_breaks_it(self, at: int) -> None:
        """Changing one character of the body or of the checksum breaks it."""
        token = self.TOKEN[:at] + ("x" if self.TOKEN[at] != "x" else "y") + self.TOKEN[at + 1 :]
        assert not crc32_base62(token.encode())

    def test_checksum_outweighs_entropy_and_allowlists(self) -> None:
        """A token whose checksum holds is a finding even where entropy or an allowlist would drop it."""
        rule = {rule.id: rule for _, rule in RULES}["github-pat"]
        strict = replace(rule, min_entropy=7.9)
        assert SecretEngine((strict,)).find(self.TOKEN.encode())
        broken = self.TOKEN[:-1] + ("A" if self.TOKEN[-1] != "A" else "B")
        assert SecretEngine((strict,)).find(broken.encode()) == []
