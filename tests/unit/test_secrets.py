"""The secret engine and rule packs: every rule finds its format, public look-alikes survive."""

from __future__ import annotations

import base64
import os
import platform
import random
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from sandbox.errors import PolicyError
from sandbox.secrets import (
    Finding,
    ScanBudget,
    SecretEngine,
    SecretRule,
    _compile_bytes,
    _merge,
    _NativeKeywords,
    load_pack,
    redact,
    shannon_entropy,
)
from sandbox.secrets._re2 import starts_at_boundary
from tests.secrets_corpus import CRAFTED, NEGATIVE_MAKERS, SECRET_MAKERS, generate, mixed_text

PACK = load_pack("builtin")
ENGINE = SecretEngine(PACK.rules)
# Budgets under which a group's shared pass hands over to one pass per rule at once, or
# after a few visits; time never counts, so which way a scan goes is deterministic.
NO_TIME = {"ns_per_byte": 10**6, "floor_ns": 10**12}
ALONE = SecretEngine(PACK.rules, budget=ScanBudget(bytes_per_byte=0, floor_bytes=0, **NO_TIME))
PART_WAY = SecretEngine(PACK.rules, budget=ScanBudget(bytes_per_byte=0, floor_bytes=400, **NO_TIME))
# And one whose time is up at its first visit.
OUT_OF_TIME = SecretEngine(PACK.rules, budget=ScanBudget(ns_per_byte=0, floor_ns=0))
# Hyperscan giving up at its first keyword place, as on text crafted to hold too many.
GAVE_UP = SecretEngine(PACK.rules, budget=ScanBudget(floor_places=0, bytes_per_place=10**9))
# Keywords found by RE2 instead, as where hyperscan is not installed (the broad rules then scan alone).
WITH_RE2 = SecretEngine(PACK.rules, native=False)
WITH_RE2_PART_WAY = SecretEngine(PACK.rules, budget=PART_WAY.budget, native=False)
# The same rules located the other way: every rule that is found at its keywords goes
# into one shared pass instead (as a pack without keyword_offset would be scanned).
GROUPED_RULES = tuple(
    replace(rule, keyword_offset=None, group="shared") if rule.keyword_offset is not None else rule
    for rule in PACK.rules
)
GROUPED = SecretEngine(GROUPED_RULES)
GROUPED_PART_WAY = SecretEngine(GROUPED_RULES, budget=PART_WAY.budget)
# Crafted texts whose cost shows in the bytes of matches the shared pass sees. In the
# others the cost is partial matches that RE2 follows past each real one, which only the
# time limit sees (bench/secret_scan.py shows their time growing linearly).
SEEN_BOUNDED = sorted(set(CRAFTED) - {"unfinished-openai-keys", "open-pem-between-tokens"})
# Every way a scan can go; each must find what one pass per rule finds.
EVERY_PATH = {
    "at keywords": ENGINE,
    "alone at once": ALONE,
    "alone part way": PART_WAY,
    "out of time": OUT_OF_TIME,
    "one shared pass": GROUPED,
    "shared pass, part way": GROUPED_PART_WAY,
    "hyperscan gave up": GAVE_UP,
    "keywords by RE2": WITH_RE2,
    "keywords by RE2, part way": WITH_RE2_PART_WAY,
}
# Keywords alone and near-misses around them, for texts that put candidate places side by side.
KEYWORD_PIECES = ["sk-", "sk-proj-", "-----BEGIN ", "Q~", "12345678:A", "://a:", "@h", "aws_", "key-", "SK", "eyJ"]
KEYWORD_PIECES += ["db_pass", "word: ", "api.key = ", "-x.", "\u017fecret=", "\u212aey: ", "caf\u00e9", "\u6f22\u5b57"]
KEYWORD_PIECES += ["xsk-aaaaaaaaaaaaaaaa-", "bQ3zP9mRx2Lw7Tk4T3BlbkFJcY8vN2dR5gH1jK6m"]
# Key names with words, dots, dashes and other bytes glued before them, for rules opening with \b.
BOUNDARY_PIECES = ["my", ".", "-", "_", "api", "_key", "key", "auth", "_token", "token", "secret", "\u00e9", "x"]
BOUNDARY_PIECES += [" = ", ": ", "=", "'", "\n", " ", "Zq8xW2mK9pL4vB7nR3tY6cF1hJ5sD0gA", "ghp_", "sk-"]
# Corpus makers that exercise a rule under another name.
MAKER_RULE = {"private-key-escaped": "private-key"}


def redacted(text: str) -> str:
    data = text.encode()
    return redact(data, ENGINE.find(data)).decode()


class TestRulePack:
    def test_every_rule_has_a_corpus_maker(self) -> None:
        """Every shipped rule has real-looking secrets to be tried on: a corpus maker or its pack examples."""
        covered = {MAKER_RULE.get(name, name) for name in SECRET_MAKERS} | set(PACK.examples)
        assert {rule.id for rule in PACK.rules} - covered == set()
        assert set(SECRET_MAKERS) - set(MAKER_RULE) <= {rule.id for rule in PACK.rules}

    @pytest.mark.parametrize(
        ("toml", "message"),
        [
            (
                'schema_version = 1\nid = "p"\n[[rules]]\nid = "a"\ndescription = "d"\npattern = "(a)\\\\1"\n',
                "rules.0.pattern",
            ),
            (
                'schema_version = 1\nid = "p"\n[[rules]]\nid = "a"\ndescription = "d"\npattern = "a(?=b)"\n',
                "rules.0.pattern",
            ),
            (
                'schema_version = 1\nid = "p"\n[[rules]]\nid = "a"\ndescription = "d"\npattern = "a"\nbogus = 1\n',
                "rules.0.bogus",
            ),
            (
                'schema_version = 1\nid = "p"\n[[rules]]\nid = "a"\ndescription = "d"\npattern = "a"\naction = "keep"\n',
                "rules.0.action",
            ),
            ('schema_version = 1\nid = "p"\n[[rules]]\nid = "A b"\ndescription = "d"\npattern = "a"\n', "rules.0.id"),
            ('schema_version = 1\nid = "p"\nrules = []\n', "rules"),
            (
                'schema_version = 1\nid = "p"\n[[rules]]\nid = "a"\ndescription = "d"\npattern = "a"\nkeyword_offset = 0\n',
                "rules.0: keyword_offset needs keywords",
            ),
            (
                'schema_version = 1\nid = "p"\n[[rules]]\nid = "a"\ndescription = "d"\npattern = "a"\n'
                'keywords = ["a"]\nkeyword_offset = 0\ngroup = "g"\n',
                "rules.0: a rule with keyword_offset is found at its keywords, not in a group",
            ),
            (
                'schema_version = 1\nid = "p"\n[[rules]]\nid = "a"\ndescription = "d"\npattern = "a"\n'
                'keywords = ["a"]\nkeyword_offset = 97\n',
                "rules.0.keyword_offset",
            ),
            (
                'schema_version = 1\nid = "p"\n[[rules]]\nid = "a"\ndescription = "d"\npattern = "a"\n'
                'keywords = ["a"]\nkeyword_offset = 0\nbefore_keyword = "[^a]"\n',
                "rules.0.before_keyword: before_keyword is a class of ASCII characters",
            ),
            (
                'schema_version = 1\nid = "p"\n[[rules]]\nid = "a"\ndescription = "d"\npattern = "a"\n'
                'keywords = ["a"]\nafter_keyword = "b"\n',
                "rules.0: after_keyword and before_keyword need keyword_offset",
            ),
            (
                'schema_version = 1\nid = "p"\n[[rules]]\nid = "a"\ndescription = "d"\npattern = "caf\u00e9"\n',
                "rules.0.pattern: patterns are ASCII",
            ),
            (
                'schema_version = 1\nid = "p"\n[[rules]]\nid = "a"\ndescription = "d"\npattern = "a"\n'
                'keywords = ["a"]\nkeyword_offset = 0\nafter_keyword = "\\\\pL"\n',
                "rules.0.after_keyword: after_keyword",
            ),
            (
                'schema_version = 1\nid = "p"\nallowlist = ["(x"]\n[[rules]]\nid = "a"\ndescription = "d"\npattern = "a"\n',
                "allowlist.0",
            ),
        ],
    )
    def test_invalid_pack_refused(self, tmp_path: Path, toml: str, message: str) -> None:
        """A pack with a non-RE2 pattern, an unknown key or a bad value is refused, naming the key."""
        path = tmp_path / "mine.toml"
        path.write_text(toml)
        with pytest.raises(PolicyError) as info:
            load_pack(path)
        assert f"mine.toml: {message}" in info.value.message

    def test_duplicate_rule_id_refused(self, tmp_path: Path) -> None:
        """Two rules with one id are refused."""
        rule = '[[rules]]\nid = "a"\ndescription = "d"\npattern = "a"\n'
        path = tmp_path / "dup.toml"
        path.write_text('schema_version = 1\nid = "p"\n' + rule + rule)
        with pytest.raises(PolicyError, match="duplicate rule id"):
            load_pack(path)


class TestEveryFormat:
    @pytest.mark.parametrize("maker", sorted(SECRET_MAKERS))
    def test_secret_found_whole(self, maker: str) -> None:
        """Twenty fresh secrets of each format are redacted whole, wherever they sit in a line."""
        rng = random.Random(maker)
        for _ in range(20):
            value, line = SECRET_MAKERS[maker](rng)
            out = redacted(f"notes before\n{line}\nnotes after\n")
            assert value not in out, (maker, line)
            assert "[REDACTED:" in out and "notes before" in out and "notes after" in out

    @pytest.mark.parametrize("maker", sorted(NEGATIVE_MAKERS))
    def test_public_value_kept(self, maker: str) -> None:
        """Public look-alikes (publishable keys, digests, UUIDs, placeholders, ...) are left alone."""
        rng = random.Random(maker)
        for _ in range(20):
            value, line = NEGATIVE_MAKERS[maker](rng)
            assert value in redacted(f"{line}\n"), (maker, line)

    def test_marker_names_the_rule(self) -> None:
        """The whole secret becomes [REDACTED:<rule-id>]."""
        key = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
        assert redacted(f"token {key} end") == "token [REDACTED:github-pat] end"

    def test_keyword_case(self) -> None:
        """A lower-case keyword matches any case; one with a capital letter matches exactly."""
        value = "AKIA" + "Q7ZP3MRX2LW9TK4B"
        assert redacted(value) != value
        assert redacted(value.lower()) == value.lower()  # AKIA ids are upper-case

    @given(st.text(st.sampled_from("ab:=_-\n '\"AKIAghp_sk-xox0123456789"), max_size=200))
    @example("aws_secret_access_key = " + "A" * 40)
    def test_redaction_is_idempotent(self, text: str) -> None:
        """Scanning redacted text finds nothing more to redact."""
        once = redacted(text)
        assert redacted(once) == once


class TestEngine:
    @settings(max_examples=150)
    @given(
        st.lists(
            st.sampled_from(sorted(SECRET_MAKERS) + sorted(NEGATIVE_MAKERS) + KEYWORD_PIECES + ["", "x", "\n"]),
            max_size=12,
        ),
        st.integers(0, 10**6),
    )
    @example(["private-key-escaped", "private-key-escaped"], 2)
    @example(["openai-project-key", "github-pat", "aws-access-key-id", "telegram-bot-token"], 0)
    @example(["12345678:A", "telegram-bot-token", "x", "azure-ad-client-secret", "Q~"], 1)
    @example(["sk-", "sk-proj-", "openai-api-key", "openai-project-key"], 2)
    def test_groups_find_what_single_passes_find(self, pieces: list[str], seed: int) -> None:
        """Rules found at their keywords or in groups find exactly what one pass per rule finds.

        Every path gives the same: at keywords, handed over to single passes at
        once, part way, or when time is up; and the same rules in one shared pass.
        """
        rng = random.Random(seed)
        makers = {**SECRET_MAKERS, **NEGATIVE_MAKERS}
        text = "".join(makers[p](rng)[1] + rng.choice([" ", "\n", ""]) if p in makers else p for p in pieces)
        data = text.encode()
        expected = single_passes(data)
        for path, engine in EVERY_PATH.items():
            assert engine.find(data) == expected, path

    @given(st.lists(st.sampled_from(BOUNDARY_PIECES), max_size=14))
    @example(["my", ".", "api", "_key", " = ", "'", "Zq8xW2mK9pL4vB7nR3tY6cF1hJ5sD0gA"])
    @example(["\u00e9", "token", ": ", "Zq8xW2mK9pL4vB7nR3tY6cF1hJ5sD0gA"])
    @example(["x", "-", "auth", "_token", "=", "Zq8xW2mK9pL4vB7nR3tY6cF1hJ5sD0gA"])
    def test_words_glued_before_keywords(self, pieces: list[str]) -> None:
        """Rules opening with \\b are tried only at word boundaries, and find what single passes find."""
        data = "".join(pieces).encode()
        expected = single_passes(data)
        for path, engine in EVERY_PATH.items():
            assert engine.find(data) == expected, path

    @pytest.mark.parametrize(
        ("pattern", "bounded"),
        [
            (rb"(?i)\bkey\b", True),
            (rb"\b(?:a|b)c", True),
            (rb"\b[|]x", True),
            (rb"\b[\]|]x", True),
            (rb"\b[]|]x", True),
            (rb"\b[^]|]x", True),
            (rb"\b\|x", True),
            (rb"(?i)\bab|c", False),
            (rb"\b(a)|b", False),
            (rb"\b[]]|x", False),
            (rb"x\b", False),
            (rb"(?:\b)x", False),
        ],
    )
    def test_which_patterns_start_at_a_word_boundary(self, pattern: bytes, bounded: bool) -> None:
        """Only a \\b before everything, with no alternative beside it, bounds where matches start."""
        assert starts_at_boundary(pattern) is bounded

    @pytest.mark.parametrize(
        "rule", [rule for rule in PACK.rules if rule.keyword_offset is not None], ids=lambda rule: rule.id
    )
    def test_matches_start_where_the_rule_says(self, rule: SecretRule) -> None:
        """Each match of a rule found at its keywords holds one where the rule declares.

        That is: a keyword starting at most ``keyword_offset`` bytes after the
        match does (or after the start of the run of ``before_keyword`` bytes
        that ends at the keyword), followed by ``after_keyword`` when the rule
        gives one. Checked on every corpus maker's output, many times over, and on
        every pack example: the declarations are what lets the engine try the
        rule only there.
        """
        rng = random.Random(7)
        makers = {**SECRET_MAKERS, **NEGATIVE_MAKERS}
        after = None if rule.after_keyword is None else _compile_bytes(rule.after_keyword)
        matches = 0
        texts = [makers[name](rng)[1] + " " + makers[name](rng)[1] for name in sorted(makers) * 5]
        texts += [text for examples in PACK.examples.values() for text in (*examples.positive, *examples.negative)]
        for text in texts:
            data = text.encode()
            for match in rule.pattern.finditer(data):
                matches += 1
                assert any(
                    _declared_keyword_at(rule, after, data, match.start(), place)
                    for place in range(match.start(), match.end())
                ), (rule.id, match.group(0)[:40])
        assert matches or rule.id == "private-key-unterminated"

    @pytest.mark.parametrize("name", sorted(CRAFTED))
    def test_crafted_text_found_as_single_passes_find(self, name: str) -> None:
        """Texts crafted against the shared pass still give what one pass per rule gives."""
        data = CRAFTED[name](20_000)
        expected = single_passes(data)
        for path, engine in EVERY_PATH.items():
            assert engine.find(data) == expected, path

    def test_keywords_found_by_hyperscan(self) -> None:
        """Where hyperscan is installed (the package requires it where it has wheels), it finds keywords."""
        assert ENGINE._anchors is not None and WITH_RE2._anchors is not None
        # CI runs the tests once more in an environment without hyperscan, and says so.
        if os.environ.get("MEMORY_SANDBOX_WITHOUT_HYPERSCAN") == "1":
            assert "by RE2" in repr(ENGINE), repr(ENGINE)
        elif sys.platform == "linux" and platform.machine() == "x86_64":
            assert "by hyperscan" in repr(ENGINE), repr(ENGINE)
        # Rules that may start back over a run (the broad ones) scan alone, as do rules without offsets.
        alone = {rule.group for rule in PACK.rules if rule.before_keyword or rule.keyword_offset is None}
        assert "by RE2" in repr(WITH_RE2) and len(WITH_RE2._groups) == len(alone) >= 2

    def test_hyperscan_takes_keywords_alone_when_what_follows_does_not_compile(self) -> None:
        """A rule whose after_keyword hyperscan refuses still gets its keywords found, without it."""
        github = next(rule for rule in PACK.rules if rule.id == "github-pat")
        odd = replace(github, after_keyword=b"(?U)[A-Za-z0-9]{36}")  # RE2's ungreedy flag; hyperscan refuses it
        engine = SecretEngine((odd,))
        data = b"token ghp_" + b"aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5" + b" end"
        assert [finding.rule_id for finding in engine.find(data)] == ["github-pat"]
        assert engine._anchors is not None
        finder = engine._anchors.finder
        if "by hyperscan" in repr(ENGINE):  # hyperscan installed: it finds the keywords alone
            assert isinstance(finder, _NativeKeywords) and -1 not in finder.backs

    def test_hyperscan_gives_up_past_its_place_budget(self) -> None:
        """Hyperscan stops reporting past its limit of places, and the rules then scan alone."""
        assert GAVE_UP._anchors is not None
        finder = GAVE_UP._anchors.finder
        data = b"AKIA SK key- sk- " * 10
        if isinstance(finder, _NativeKeywords):
            assert finder.places(data, 3, 10**6) is None and finder.places(data, 1000, 10**6) is not None
        assert GAVE_UP.find(data) == single_passes(data)

    def test_threads_scan_at_once(self) -> None:
        """One engine serves several threads at once (each hyperscan scan has its own scratch)."""
        texts = [mixed_text(40_000, seed=seed, secret_share=0.2, negative_share=0.2).encode() for seed in range(4)]
        expected = [ENGINE.find(text) for text in texts]
        with ThreadPoolExecutor(4) as pool:
            for _ in range(5):
                assert list(pool.map(ENGINE.find, texts)) == expected

    def test_long_text_found_as_single_passes_find(self) -> None:
        """A long text, whose keywords are looked for only in its first part, gives the same."""
        # A keyword of every rule up front: every group has a candidate in the first part, whichever
        # finder (hyperscan or RE2, which group the rules differently) looks.
        every_keyword = b" ".join(rule.keywords[0] for rule in PACK.rules if rule.keywords) + b"\n"
        data = every_keyword + mixed_text(300_000, seed=3, secret_share=0.05, negative_share=0.2).encode()
        assert ENGINE._keyword_hits(data)[1] < len(data)  # keywords looked for in part only
        assert ENGINE.find(data) == single_passes(data)

    @pytest.mark.parametrize(("keyword_at", "found"), [(None, False), ("end", True), ("near", True), ("start", True)])
    def test_keywords_decide_past_the_first_part(self, keyword_at: str | None, found: bool) -> None:
        """A rule whose keyword occurs nowhere finds nothing, also in a text looked at in part.

        The rule's pattern matches without its keyword (``zzkw``), which packs
        should avoid but may do; a second rule of its group has its keyword at the
        start, so only the first part of the text is looked at for keywords.
        """
        github = {rule.id: rule for rule in PACK.rules}
        odd = replace(github["github-pat"], keywords=(b"zzkw",), keyword_offset=None, group="g")
        engine = SecretEngine((odd, replace(github["github-oauth-token"], keyword_offset=None, group="g")))
        token = "ghp_" + "Z" * 8 + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9v"
        filler = "Notes about gho_ tokens and rotations.\n" + "plain words here\n" * 4000
        text = {
            None: f"{filler}{token}\n{filler}",
            "end": f"{filler}{token}\n{filler}zzkw",
            "near": f"{filler}zzkw {token}\n{filler}",
            "start": f"zzkw {filler}{token}\n{filler}",
        }[keyword_at]
        assert [f.rule_id for f in engine.find(text.encode())] == (["github-pat"] if found else [])

    def test_firebase_context_belongs_to_the_key(self) -> None:
        """Only a key named as a Firebase web key is public; Firebase named nearby exempts no other key."""
        key = "AIzaSyB4kT9xQ2mW7vL1pR8nC3fH6jD0sG5aZ2Y"
        for text in (
            f"GEMINI_API_KEY={key}\nFIREBASE_AUTH_DOMAIN=acme-prod.firebaseapp.com\n",
            f"MAPS_KEY={key} # not for auth_domain use\n",
            f"Not the firebase one: {key} (this is the Gemini key)\n",
            f"We dropped Firebase last year, {key} is the Vertex key\n",
            f"not firebase | {key}\n",
            f"firebase > {key}\n",
            f"| firebase_web_api_key | AIzaa8TBSSEeMT3qM_uhR7947DLnAD_ksgmih8P | {key} |\n",
        ):
            assert any(f.rule_id == "google-api-key" for f in ENGINE.find(text.encode())), text
        for text in (
            f"VITE_FIREBASE_API_KEY={key}\n",
            f"firebaseConfig.apiKey: {key}\n",
            f"<nextPublicFirebaseApiKey>{key}</nextPublicFirebaseApiKey>\n",
            f'const firebaseConfig = {{\n  apiKey: "{key}",\n',
        ):
            assert ENGINE.find(text.encode()) == [], text

    def test_vertical_tab_inside_a_value(self) -> None:
        """Hyperscan's \\s takes a vertical tab and RE2's does not: every finder finds what one pass per rule finds."""
        for text in (
            b"SHOPIFY_API_SECRET=204\x0b53eef6\n",
            b"ALTER ROLE app WITH LOGIN PASSWORD '0rp\x0bz6qF2NyExzwf0e!4uFqwx';\n",
        ):
            assert ENGINE.find(text) == WITH_RE2.find(text) == single_passes(text) != [], text

    @pytest.mark.parametrize("pad", ["", "x", "xy"])
    @pytest.mark.parametrize("space", ["", " "])
    def test_anon_jwt_public_service_role_not(self, pad: str, space: str) -> None:
        """A JWT whose payload says role anon is public at every base64 alignment; role service_role is not."""

        def jwt(role: str) -> bytes:
            payload = f'{{"iss":"supabase{pad}","role":{space}"{role}","iat":1700000000}}'.encode()
            parts = (b'{"alg":"HS256","typ":"JWT"}', payload)
            body = b".".join(base64.urlsafe_b64encode(part).rstrip(b"=") for part in parts)
            return b"SUPABASE_KEY=" + body + b".B_m-GwRZLD-JLM0k0Am0akY9Ic5xgjBiqhCvPctPjhk\n"

        assert ENGINE.find(jwt("anon")) == []
        assert "jwt" in {finding.rule_id for finding in ENGINE.find(jwt("service_role"))}

    def test_shorter_keyword_at_the_same_place(self) -> None:
        """Where two keywords start at one place, the rules of the shorter are tried too.

        ``sk-proj-`` (the project key rule's keyword) starts with ``sk-`` (the
        legacy key rule's); this key is too plain for the project rule's entropy
        minimum, so only the legacy rule finds it.
        """
        data = b"key: sk-proj-" + b"a" * 16 + b"T3BlbkFJ" + b"a" * 16 + b"\n"
        assert [finding.rule_id for finding in ENGINE.find(data)] == ["openai-api-key"]
        assert ENGINE.find(data) == single_passes(data)

    def test_keyword_inside_the_continuation_of_another(self) -> None:
        """A keyword place inside what follows an earlier place of the same keyword is tried.

        Both ``sk-`` here are followed by what the rule's ``after_keyword`` says
        (a run of key characters, then the marker), up to the same end; the first
        is no match (no word boundary before it), the second is. Hyperscan reports
        one start per end, the leftmost: the second place must still be tried.
        """
        data = b"xsk-" + b"a" * 16 + b"-sk-bQ3zP9mRx2Lw7Tk4T3BlbkFJcY8vN2dR5gH1jK6m end"
        assert single_passes(data) == [Finding(21, 64, "openai-api-key")]
        assert ENGINE.find(data) == WITH_RE2.find(data) == single_passes(data)
        # With no budget for searching again, the rules scan alone, and find it too.
        assert SecretEngine(PACK.rules, budget=ScanBudget(floor_bytes=0, bytes_per_byte=0)).find(data) == single_passes(
            data
        )

    def test_each_place_tried_once(self) -> None:
        """Keywords close together do not make a rule try the same place again.

        Each ``:A`` lets a telegram bot token start up to 12 bytes before it, at
        a digit; every digit here is within reach of four keywords.
        """
        engine = SecretEngine(PACK.rules)
        assert engine._anchors is not None
        calls = [0]

        def counting(native: Any) -> Any:
            def call(*args: object) -> object:
                calls[0] += 1
                return native(*args)

            return call

        engine._anchors.natives = tuple(map(counting, engine._anchors.natives))
        data = b"1:A" * 1000
        assert engine.find(data) == single_passes(data) == []
        assert calls[0] <= data.count(b"1"), calls[0]

    def test_rule_resumes_after_its_own_match(self) -> None:
        """A rule's matches do not overlap: a start inside its previous match is not one.

        The outer match here is rejected (low entropy); a pass of the rule alone
        resumes after it, so the engine must not report the start inside it either.
        (The ``ghp_`` keyword puts a second rule of the group in play, so the shared
        pass runs.)
        """
        inner = "sk-proj-" + "Q7zP3mRx2Lw9Tk4BvN8cD1fG6hJ0kS5aE2uI7oY3"
        data = ("sk-proj-" + "a" * 60 + "-" + inner + " and ghp_ tokens").encode()
        assert single_passes(data) == []
        assert ENGINE.find(data) == [] and ALONE.find(data) == []

    @pytest.mark.parametrize("name", SEEN_BOUNDED)
    def test_crafted_text_costs_linear_work(self, name: str) -> None:
        """On crafted text the shared pass gives up early, so the scan stays linear.

        Without the budget, 100 KB of private key headers followed by one end line
        took 7 seconds (one search to the far end from each of 3,000 headers);
        here the number of searches the shared pass makes is bounded instead.
        """
        engine = SecretEngine(GROUPED_RULES, budget=ScanBudget(**NO_TIME))
        calls = [0]
        for group in engine._groups:
            group.locator = _Counting(group.locator, calls)
        size = 200_000
        # A keyword of every rule up front: every rule is a candidate, so the shared pass runs
        # whichever rules' keywords the crafted text happens to hold.
        every_keyword = b" ".join(rule.keywords[0] for rule in PACK.rules if rule.keywords) + b"\n"
        data = every_keyword + CRAFTED[name](size)
        assert engine.find(data) == ENGINE.find(data)
        # Texts against the broad rules meet passes of a single rule, which need no shared one.
        assert calls[0] > 0 or name in {"dotted-key-name", "underscore-key-name"}
        # The default limit is 8 bytes of matches seen per byte of text; a search that
        # lands on a crafted start sees at least a few hundred bytes.
        assert calls[0] < 100, calls[0]

    def test_overlaps_merged_to_cover_both(self) -> None:
        """Overlapping findings become one span covering both."""
        merged = _merge([Finding(5, 20, "short"), Finding(0, 10, "a"), Finding(30, 31, "b")])
        assert merged == [Finding(0, 20, "short"), Finding(30, 31, "b")]

    def test_keep_lines(self) -> None:
        """Read-side redaction keeps the newlines inside a secret, so line numbers hold."""
        data = b"a\n-----BEGIN PRIVATE KEY-----\n" + b"QUJD" * 20 + b"\n-----END PRIVATE KEY-----\nz\n"
        out = redact(data, ENGINE.find(data), keep_lines=True)
        assert out.count(b"\n") == data.count(b"\n") and out.startswith(b"a\n[REDACTED:private-key]")

    def test_entropy(self) -> None:
        """Entropy is bits per byte: 0 for one repeated byte, 8 for all 256 bytes once."""
        assert shannon_entropy(b"aaaa") == 0.0
        assert shannon_entropy(bytes(range(256))) == pytest.approx(8.0)
        assert shannon_entropy(b"") == 0.0

    @given(st.binary(max_size=300), st.floats(0, 8))
    @example(bytes(range(16)) * 3, 4.0)
    def test_distinct_bytes_bound_agrees_with_entropy(self, value: bytes, minimum: float) -> None:
        """The quick check (few distinct bytes) rejects only values whose entropy is too low."""
        base = next(rule for rule in PACK.rules if rule.id == "generic-secret")
        rule = SecretRule(**{**{f: getattr(base, f) for f in base.__slots__}, "min_entropy": minimum})
        plain = b"k" * 40  # allowlists pass it, so entropy alone decides
        assert rule.accepts(value, plain) == (
            shannon_entropy(value) >= minimum and rule.allowlist.fullmatch(value) is None
        )

    def test_min_entropy_skips_low_entropy_values(self) -> None:
        """A value below the rule's minimum entropy is not a finding."""
        assert redacted("api_token = aaaaaaaaaaaaaaaaaaaaaaaa") == "api_token = aaaaaaaaaaaaaaaaaaaaaaaa"

    def test_findings_hold_no_value(self) -> None:
        """A finding is offsets and a rule id; its repr holds no secret."""
        key = "ghp_" + "Z" * 8 + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9v"
        findings = ENGINE.find(f"x {key}".encode())
        assert findings and key not in repr(findings)

    def test_engine_with_no_rules(self) -> None:
        """An engine without rules finds nothing."""
        assert SecretEngine(()).find(b"AKIAQ7ZP3MRX2LW9TK4B") == []

    def test_rule_without_keywords_always_runs(self) -> None:
        """A rule with no keywords is scanned on every text."""
        base = next(rule for rule in PACK.rules if rule.id == "github-pat")
        bare = SecretRule(**{**{f: getattr(base, f) for f in base.__slots__}, "keywords": ()})
        assert SecretEngine((bare,)).find(b"ghp_" + b"aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5")


def _declared_keyword_at(rule: SecretRule, after: Any, data: bytes, start: int, place: int) -> bool:
    """Whether a keyword of ``rule`` at ``place`` is one its declaration allows for a match at ``start``."""
    run = len(data[:place]) - len(data[:place].rstrip(rule.before_keyword)) if rule.before_keyword else 0
    if start < place - run - (rule.keyword_offset or 0):
        return False
    return any(
        (head if keyword != keyword.lower() else head.lower()) == keyword
        and (after is None or after.match(data, place + len(keyword)) is not None)
        for keyword in rule.keywords
        for head in (data[place : place + len(keyword)],)
    )


def single_passes(data: bytes) -> list[Finding]:
    """What every rule finds with a finditer pass of its own, overlaps merged."""
    found: list[Finding] = []
    for rule in PACK.rules:
        for match in rule.pattern.finditer(data):
            start, end = match.span(rule.secret_group)
            if start < end and rule.accepts(data[start:end], data[match.start() : start]):
                found.append(Finding(start, end, rule.id))
    return _merge(found)


class _Counting:
    """A group's locator that counts the searches made with it."""

    def __init__(self, locator: object, calls: list[int]) -> None:
        self._inner = locator._regexp  # type: ignore[attr-defined]
        self._calls = calls
        self._regexp = self

    def Match(self, *args: object) -> object:  # the binding's method name
        self._calls[0] += 1
        return self._inner.Match(*args)


class TestCorpus:
    @pytest.mark.parametrize("seed", [11, 12])
    def test_precision_and_recall(self, seed: int) -> None:
        """On the labeled corpus precision and recall are at least 0.95 (whole values only)."""
        secrets_total = secrets_gone = true_spans = all_spans = negatives_kept = negatives_total = 0
        for document in generate(seed, documents=400):
            data = document.text.encode()
            findings = ENGINE.find(data)
            out = redact(data, findings).decode()
            for _, value in document.secrets:
                secrets_total += 1
                secrets_gone += value not in out
            for _, value in document.negatives:
                negatives_total += 1
                negatives_kept += value in out
            for finding in findings:
                span = data[finding.start : finding.end].decode()
                all_spans += 1
                true_spans += any(span in value or value in span for _, value in document.secrets)
        recall, precision = secrets_gone / secrets_total, true_spans / all_spans
        assert recall >= 0.95 and precision >= 0.95, (recall, precision)
        assert negatives_kept / negatives_total >= 0.95


class TestPublicByContext:
    """Values of secret shape that are public where they stand (names, references, ciphertexts)."""

    @pytest.mark.parametrize(
        "line",
        [
            "# public key: age1meluknl4p4x05y5z22u53r20pmt68hk08r8vjahp79w92uss3vjqnkk096",
            'kms_key_arn = "arn:aws:secretsmanager:eu-central-1:515836797034:secret:prod/quarry/db-YqxdmD"',
            "ENV DD_APP_KEY=projects/nightjar/secrets/dd-app-key/versions/latest",
            "NEW_RELIC_API_KEY: '@Microsoft.KeyVault(SecretUri=https://kv.vault.azure.net/secrets/nr-key/)'",
            "Noted: `/qa/beacon/digitalocean-access-token` (the parameter's path).",
            '<add key="Oci:AuthToken" value="ENC[AES256_GCM,data:s1LaO7fvHmPDW4ag2bFQSjdZ52Ko,iv:4hmP,type:str]" />',
            "ENV ALIBABA_CLOUD_ACCESS_KEY_SECRET='{AQAAABAAAAAQHSexxApXlJRE6vsELIrX7EUhWVa6hHGsSuXLlLSyBUwi4P=}'",
            "NEXT_PUBLIC_FIREBASE_API_KEY=AIzakSqS7yiLEsECkfbjCetM0FcBqryuvRfrKHu",
            '  "firebase": {\n    "apiKey": "AIzas0kSxOH76zESY0EhK_m1qFSKo3NtpCtWjzO",',
            "algolia_search_only_key = 'a367980267a2249f75ceeba51ef8b29b'",
            "TURNSTILE_SITE_KEY: 6L_6dx9Y6ZRVvTmtEXu7rT2FhTqcLwlTJvHbUZ8u",
            "grep -rn eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiYWRt"
            "aW4iOnRydWUsImlhdCI6MTUxNjIzOTAyMn0.KMUFsIDTnFmyG3nMiGM6H9FNFUROf3wh7SmqJp-QV30 logs/",
        ],
    )
    def test_kept(self, line: str) -> None:
        """The line is stored as it is."""
        assert redacted(f"{line}\n") == f"{line}\n"

    @pytest.mark.parametrize(
        "line",
        [
            "GEMINI_API_KEY=AIzakSqS7yiLEsECkfbjCetM0FcBqryuvRfrKHu",
            "api_key: age1meluknl4p4x05y5z22u53r20pmt68hk08r8vjahp79w92uss3vjqnkk096x7Kq2ZmW7pL9",
            "DB_PASSWORD=prod/app/db-Kq2ZmW7pL9vN3tB6cF1h",
            "SIGNING_SECRET=/oS5y1+GWs0Tr/FcHyNGAk5GZXNNR82WECXXi/lXFpLJ8ecBuro3X==",
            # Found by an outside review: names with "search" or "site" in them, values shaped like
            # references, and user:password values given to a secret store.
            "AZURE_SEARCH_KEY=Zq8xW2mK9pL4vB7nR3tY6cF1hJ5sD0gAx7Kq",
            "BRAVE_SEARCH_API_KEY=BSAq8xW2mK9pL4vB7nR3tY6cF1hJ5sD0g",
            "WEBSITE_KEY=Zq8xW2mK9pL4vB7nR3tY6cF1hJ5sD0gAx7Kq",
            "bing_search_key: 8e3b91d26ab4a829a95249f512c17b8e",
            "DB_PASSWORD=team/ops-Xk29Qm",
            "password: /srv/x9k2qmz7pl4tb6nr3yw8",
            "DB_PASSWORD=sm:/Xk29QmZ7pL4tB6nR3yW8",
            "kubectl create secret generic r --from-literal=credentials=ci:Xk29QmZ7pL4tB6nR3yW8",
        ],
    )
    def test_near_misses_still_found(self, line: str) -> None:
        """A key outside Firebase's config, or a value that only starts like a reference, is a secret."""
        assert "[REDACTED:" in redacted(f"{line}\n")


@pytest.mark.parametrize(
    "text",
    [
        "## Keyboard shortcuts\n\nCtrl+Shift+P\n",
        "## Monkey patching\n\nunittest.mock.patch(obj)\n",
        "## Secret Santa 2025\n\nBudget-50EUR\n",
        "## Key decision\n\nuse-postgres-16\n",
        "## Jira project key\n\nPLAT-4821\n",
        "## Tokenizer\n\ncl100k_base\n",
        "## SSH keys\n\nid_ed25519.pub\n",
        "bug: session_id=3f2b8c1e-9a4d-4e7f-b2c6-8d1e5f3a7b9c in the logs\n",
        "- name: API_KEY_HEADER\n  value: X-Api-Key-v2\n",
    ],
)
def test_ordinary_notes_kept(text: str) -> None:
    """Notes an outside review found redacted by the new generic rules are stored as written."""
    assert redacted(text) == text
