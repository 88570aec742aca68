"""The learned secret scorer: the tokens it judges, what it adds to the rules, the policy, its shipped weights."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from sandbox import Sandbox
from sandbox.errors import PolicyError, SecretRejected
from sandbox.paths import canonicalize
from sandbox.policy import load_policy, parse_policy
from sandbox.redaction import SecretGuard
from sandbox.secret_scorer import (
    MAX_LENGTH,
    MIN_LENGTH,
    SCORER_ID,
    Labelled,
    SecretScorer,
    TokenModel,
    judged,
    load_secret_scorer,
    tokens,
    train,
)
from sandbox.secrets import Finding, load_pack
from sandbox.storage import InMemoryStorage

ROOT = Path(__file__).resolve().parents[2]
SECTION = load_policy("default").secrets
WITH = SecretGuard(SECTION)
RULES_ONLY = SecretGuard(SECTION.model_copy(update={"scorer": False}))
# Secrets written with no name a rule lists, no prefix and no fixed shape; written for these tests.
MISSED_BY_RULES = (
    ("La contraseña nueva del router es Tz8!qW3#nB5vK2 desde ayer.", "Tz8!qW3#nB5vK2"),
    ("Das neue Kennwort für den NAS lautet hR4$kP9wZ2!mQx.", "hR4$kP9wZ2!mQx"),
    ("deploy worked after I swapped in 9fKq2LmZ8xW4rT7vB3nY6cD1 for the old one", "9fKq2LmZ8xW4rT7vB3nY6cD1"),
)
# Public values of secret-like shape, in the words they are usually written with.
PUBLIC = (
    "commit 3f2b8c1e9a4d4e7fb2c68d1e5f3a7b9c0d1e2f3a fixed the flaky test",
    "request id 3f2b8c1e-9a4d-4e7f-b2c6-8d1e5f3a7b9c returned 502",
    "image digest sha256:9a4d4e7fb2c68d1e5f3a7b9c0d1e2f3a3f2b8c1e9a4d4e7fb2c68d1e5f3a7b9c",
    "Upgraded to v2.14.3-rc.1+build.20261202 on Monday.",
    "See /var/log/nginx/error.log.2026-12-01 for the stack trace.",
    "Ticket PLAT-4821 is blocked on DB_MIGRATION_20261201.",
    "Meeting at 2026-12-02T15:30:00Z with ID 88217364551 (Zoom).",
)


def values(data: bytes, findings: list[Finding]) -> list[bytes]:
    return [data[finding.start : finding.end] for finding in findings]


def guard(secrets: str) -> SecretGuard:
    text = f'schema_version = 1\nid = "scorer"\nrevision = 1\n[secrets]\n{secrets}'
    return SecretGuard(parse_policy(text, source="scorer.toml").secrets)


class TestTokens:
    def test_a_key_name_is_cut_off_and_kept_as_the_key(self) -> None:
        data = b"x API_TOKEN=Zq8xW2mK9pL4vB7n end"
        (token,) = tokens(data)
        assert data[token.start : token.end] == b"Zq8xW2mK9pL4vB7n"
        assert token.key == b"API_TOKEN"

    def test_punctuation_diff_marks_and_escapes_are_not_part_of_a_token(self) -> None:
        cases = {
            b"the new one is Zq8xW2mK9pL4vB7n.": b"Zq8xW2mK9pL4vB7n",
            b"+Zq8xW2mK9pL4vB7n\n": b"Zq8xW2mK9pL4vB7n",
            b'"line\\nZq8xW2mK9pL4vB7n"': b"Zq8xW2mK9pL4vB7n",
            b"--password=Zq8xW2mK9pL4vB7n": b"Zq8xW2mK9pL4vB7n",
        }
        for data, value in cases.items():
            assert [data[t.start : t.end] for t in tokens(data)] == [value], data

    def test_addresses_pem_blocks_short_and_long_runs_are_not_judged(self) -> None:
        pem = b"-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUZq8xW2mK9pL4\n-----END CERTIFICATE-----\n"
        assert list(tokens(b"https://user:Zq8xW2mK9pL4vB7n@example.com/x")) == []
        assert list(tokens(pem)) == []
        assert list(tokens(b"k=Zq8xW2mK9pL")) == []  # 11 bytes
        assert list(tokens(b"k=" + b"Zq8xW2mK9p" * (MAX_LENGTH // 10 + 1))) == []
        assert len(list(tokens(pem + b"after the block: Zq8xW2mK9pL4vB7n"))) == 1

    def test_a_run_a_finding_reaches_into_is_the_rules_already(self) -> None:
        data = b"a Zq8xW2mK9pL4vB7n b Wq3zR8mK2pL9vB7nT4 c"
        first = data.index(b"Zq8")
        assert len(list(tokens(data, [Finding(first + 3, first + 5, "some-rule")]))) == 1

    def test_words_joined_by_symbols_and_one_class_are_not_judged(self) -> None:
        for value in (b"snake_case_name_here", b"Title-Case-Words.Here", b"aaaaaaaaaaaaaaaa", b"abcdefghijklmnop"):
            assert list(judged(b"key: " + value)) == [], value
        # A long run of capitals is: Erlang cookies and base32 seeds are written that way.
        assert len(list(judged(b"cookie QLNWNTVGYJOHTNBEDGBD"))) == 1


class TestWhatTheScorerAdds:
    @pytest.mark.parametrize(("text", "secret"), MISSED_BY_RULES)
    def test_secrets_no_rule_finds_are_redacted(self, text: str, secret: str) -> None:
        data = text.encode()
        assert RULES_ONLY.find(data) == []
        assert values(data, WITH.find(data)) == [secret.encode()]
        assert WITH.find(data)[0].rule_id == SCORER_ID

    @pytest.mark.parametrize("text", PUBLIC)
    def test_public_values_are_kept(self, text: str) -> None:
        assert WITH.find(text.encode()) == []

    def test_the_packs_allowlist_keeps_a_value_the_model_would_flag(self) -> None:
        text = "La contraseña nueva del router es Tz8!qW3#nB5vK2 desde ayer."
        assert WITH.scorer is not None
        allowing = SecretScorer(WITH.scorer.model, allowlist=load_pack_allowlist(r"Tz8!qW3#nB5vK2"))
        assert allowing.find(text.encode()) == []

    def test_a_write_through_the_sandbox_stores_the_redaction(self) -> None:
        storage = InMemoryStorage()
        box = Sandbox(policy=load_policy("default"), storage=storage)
        text, secret = MISSED_BY_RULES[0]
        result = box.execute({"command": "create", "path": "/memories/router.md", "file_text": text})
        assert not result.is_error
        stored = storage.read(canonicalize("/memories/router.md")).decode()
        assert secret not in stored and f"[REDACTED:{SCORER_ID}]" in stored

    def test_a_view_of_a_file_written_before_redacts_it(self) -> None:
        storage = InMemoryStorage()
        text, secret = MISSED_BY_RULES[1]
        storage.create(canonicalize("/memories/nas.md"), text.encode())
        box = Sandbox(policy=load_policy("default"), storage=storage)
        shown = box.execute({"command": "view", "path": "/memories/nas.md"}).content
        assert secret not in shown and f"[REDACTED:{SCORER_ID}]" in shown

    @pytest.mark.parametrize(
        "before",
        [
            # Filler that an earlier version counted against a budget, judging nothing after it.
            "aaaaaaaaaaaa " * 4700 + "\n",
            "2024-05-06T12:00:00Z INFO request_id=abcdef002699 done\n" * 2700,
            # An unclosed PEM header once hid the rest of the text.
            "Cert header kept for reference: -----BEGIN CERTIFICATE-----\n",
        ],
        ids=["lowercase-runs", "log-lines", "unclosed-pem-header"],
    )
    def test_no_filler_before_a_secret_hides_it(self, before: str) -> None:
        text, secret = MISSED_BY_RULES[0]
        stored, _ = WITH.scan_write(before + text, canonicalize("/memories/a.md"))
        assert secret not in stored

    def test_a_value_glued_to_a_token_a_rule_found_is_judged(self) -> None:
        """An earlier version passed over a whole run of value bytes once a finding reached into it."""
        data = b"must rotate: ghp_a1B2c3D4e5F6g7H8i9J0a1B2c3D4e5F6g7H8/Tz8!qW3#nB5vK2hR4 and sk_live_x"
        found = RULES_ONLY.find(data)
        assert [data[f.start : f.end] for f in found] == [b"ghp_a1B2c3D4e5F6g7H8i9J0a1B2c3D4e5F6g7H8"]
        assert [data[t.start : t.end] for t, _ in judged(data, found)] == [b"Tz8!qW3#nB5vK2hR4"]

    def test_a_path_is_judged_by_the_rules_alone(self) -> None:
        WITH.check_path(canonicalize("/memories/Tz8qW3nB5vK2hR4kP9wZ2mQx.md"))


RULE_EXAMPLES = tuple(text for examples in load_pack("builtin").examples.values() for text in examples.positive)


class TestScorerOnlyAdds:
    @settings(max_examples=150, deadline=None)
    @given(
        st.lists(
            st.sampled_from(RULE_EXAMPLES + tuple(text for text, _ in MISSED_BY_RULES) + PUBLIC),
            min_size=1,
            max_size=6,
        ),
        st.sampled_from(["\n", " ", "\n\n", " | "]),
    )
    @example([RULE_EXAMPLES[0], MISSED_BY_RULES[0][0]], "\n")
    def test_every_finding_of_the_rules_alone_stays_as_it_is(self, pieces: list[str], joiner: str) -> None:
        data = joiner.join(pieces).encode()
        alone = RULES_ONLY.find(data)
        together = WITH.find(data)
        assert set(alone) <= set(together)
        assert all(f.rule_id == SCORER_ID for f in set(together) - set(alone))


class TestAnyInput:
    @settings(max_examples=300, deadline=None)
    @given(
        st.lists(
            st.one_of(
                st.binary(max_size=40),
                st.sampled_from(
                    [
                        b"\n",
                        b" ",
                        b"=",
                        b":",
                        b"\\n",
                        b"-----BEGIN X-----",
                        b"-----END X-----",
                        b"https://",
                        b"\xff\xfe",
                    ]
                ),
                st.sampled_from([text.encode() for text, _ in MISSED_BY_RULES]),
            ),
            max_size=12,
        )
    )
    @example([b"\\", b"nTz8!qW3#nB5vK2"])
    @example([b"-----BEGIN X-----", b"\nTz8!qW3#nB5vK2 Zq8xW2mK9pL4vB7n"])
    def test_findings_are_tokens_outside_the_rules_findings(self, pieces: list[bytes]) -> None:
        """Any bytes: no error, findings in order, in bounds, at least MIN_LENGTH long, none in a rule's."""
        data = b"".join(pieces)
        assert WITH.scorer is not None
        found = RULES_ONLY.find(data)
        scored = WITH.scorer.find(data, found)
        assert scored == sorted(scored)
        for finding in scored:
            assert finding.start >= 0 and finding.end <= len(data) and finding.end - finding.start >= MIN_LENGTH
            assert not any(f.start < finding.end and finding.start < f.end for f in found)
        assert WITH.find(data) == sorted(found + scored)


def load_pack_allowlist(pattern: str) -> object:
    from sandbox.secrets._re2 import alternation  # noqa: PLC0415 -- the compiled form the guard builds

    return alternation((*load_pack("builtin").allowlist, pattern))


class TestPolicy:
    def test_the_scorer_is_on_by_default_and_can_be_switched_off(self) -> None:
        assert WITH.scorer is not None
        assert guard("scorer = false\n").scorer is None
        assert guard(f'disabled = ["{SCORER_ID}"]\n').scorer is None

    def test_its_action_and_threshold_are_the_policys(self) -> None:
        text, _ = MISSED_BY_RULES[0]
        strict = guard(f'rules = {{ "{SCORER_ID}" = "reject" }}\n')
        with pytest.raises(SecretRejected):
            strict.scan_write(text, canonicalize("/memories/a.md"))
        lax = guard("scorer_threshold = 0.999999\n")
        assert lax.find(text.encode()) == []

    def test_a_pack_rule_cannot_take_the_scorers_id(self, tmp_path: Path) -> None:
        pack = tmp_path / "mine.toml"
        pack.write_text(
            'schema_version = 1\nid = "mine"\n[[rules]]\n'
            f'id = "{SCORER_ID}"\ndescription = "x"\npattern = "zzz[0-9]{{8}}"\n',
            encoding="utf-8",
        )
        with pytest.raises(PolicyError, match="learned scorer"):
            guard(f'packs = ["builtin", "{pack}"]\n')


class TestModel:
    def test_training_learns_what_its_corpus_labels(self) -> None:
        secret = "Wq3zR8mK2pL9vB7nT4"
        corpus = [
            Labelled(f"note {n}: the code is {secret[n:]}{secret[:n]} now", ((18, 18 + len(secret)),), n % 3)
            for n in range(6)
        ]
        corpus += [Labelled(f"note {n}: build 3f2b8c1e9a4d4e7f{n}b2 passed", (), n % 3) for n in range(6)]
        model = train(corpus, epochs=8)
        scorer = SecretScorer(model, threshold=0.5)  # six ordinary tokens set no threshold worth the name
        assert scorer.find(b"the code is Xq7zR2mK9pL4vB8nT3 now") == [Finding(12, 30, SCORER_ID)]
        assert scorer.find(b"build 9a4d4e7f3f2b8c1e7b2 passed") == []

    def test_the_shipped_file_is_what_training_gives(self) -> None:
        """Training is deterministic: retraining on the committed corpora writes the shipped file byte for byte."""
        script = ROOT / "bench" / "train_secret_scorer.py"
        run = subprocess.run(  # noqa: S603  # the repository's own script, no shell
            [sys.executable, str(script), "--check"], capture_output=True, text=True, check=False, timeout=900
        )
        assert run.returncode == 0, run.stdout + run.stderr

    def test_a_damaged_model_file_is_a_policy_error(self) -> None:
        with pytest.raises(PolicyError, match="not a secret scorer model"):
            TokenModel.loads('{"format": 1, "weights": []}', "bad.json")
        with pytest.raises(PolicyError, match="threshold in"):
            TokenModel.loads('{"format": 1, "weights": {}, "bias": 0, "threshold": 1, "meta": {}}', "bad.json")

    def test_the_shipped_model_loads_once(self) -> None:
        assert load_secret_scorer() is load_secret_scorer()
        assert 0.5 < load_secret_scorer().threshold < 1
