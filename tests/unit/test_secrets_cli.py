"""The secret commands of memory-sandbox, run as an installed console script."""

from __future__ import annotations

from pathlib import Path

from tests.unit.test_cli import run

POLICIES = Path(__file__).resolve().parents[2] / "policies"
RULE = '[[rules]]\nid = "tok"\ndescription = "d"\npattern = "tok_[0-9]{4}"\nkeywords = ["tok_"]\n'


class TestPolicyTestPacks:
    def test_shipped_packs_pass(self) -> None:
        """policy test on the shipped rule packs runs every rule's examples, all passing."""
        packs = sorted(str(p) for p in (POLICIES / "secrets").glob("*.toml"))
        result = run("policy", "test", *packs)
        assert result.returncode == 0, result.stdout + result.stderr
        assert "PASS: builtin.toml: stripe-secret-key: 4 examples" in result.stdout
        assert " 0 failed" in result.stdout

    def test_own_pack_failing_example(self, tmp_path: Path) -> None:
        """A user's pack whose rule misses a positive example makes policy test exit 1, naming it."""
        pack = tmp_path / "mine.toml"
        pack.write_text(
            'schema_version = 1\nid = "mine"\n'
            + RULE
            + '[rules.examples]\npositive = ["tok_1234", "tok_12"]\nnegative = ["tok", "none"]\n'
        )
        result = run("policy", "test", str(pack))
        assert result.returncode == 1
        assert "FAIL: mine.toml: tok: rule tok finds nothing in its positive example 2" in result.stdout

    def test_rule_without_examples_fails(self, tmp_path: Path) -> None:
        """A rule without examples is reported as unproven."""
        pack = tmp_path / "bare.toml"
        pack.write_text('schema_version = 1\nid = "bare"\n' + RULE)
        result = run("policy", "test", str(pack))
        assert result.returncode == 1 and "FAIL: bare.toml: tok: no examples" in result.stdout
