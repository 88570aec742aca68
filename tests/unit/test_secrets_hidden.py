"""Secrets dressed up to slip past the rules: dummy-looking suffixes, invisible characters, encodings.

Each row is a bypass that stored a real secret in clear before allowlists had to
match the whole value, before format characters were removed, and before encoded
runs were decoded and scanned again.
"""

from __future__ import annotations

import base64
import json
import urllib.parse

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from sandbox.paths import canonicalize
from sandbox.policy import load_policy
from sandbox.redaction import SecretGuard
from sandbox.secrets import SecretEngine, Unwrapping, find_hidden, load_pack

GUARD = SecretGuard(load_policy("default").secrets)
PATH = canonicalize("/memories/notes.md")
GITHUB = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW11ySowm"  # its CRC32 checksum holds
REAL = {
    "stripe": "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc9Lq2",
    "openai-project": "sk-proj-" + "Q7zP3mRx2Lw9Tk4BvN8cD1fG6hJ0kS5aE2uI7oY3mW8qX4zR",
    "generic": "api_token = " + "Zq8xW2mK9pL4vB7nR3tY6cF1hJ5sD0gA",
    "password": "db_password: " + "Tr0ub4dor-Qx9v",
    "slack": "xoxb-" + "284756193027-4918273645091-Kq8ZmW2xR7pL9vN3tB6cF1hJ",
}
SUFFIXES = ["EXAMPLE", "-example-", "_dummy_", "-fake", "[REDACTED", "-EXAMPLE-KEY", ".sample", "_placeholder"]
INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u202e", "\u2066", "\u00ad", "\U000e0041", "\ufe0f"]


def stored(text: str) -> str:
    out, _ = GUARD.scan_write(text, PATH)
    return out


def secret_part(text: str) -> str:
    return text.rsplit(" ", maxsplit=1)[-1]


class TestWholeValueAllowlists:
    @pytest.mark.parametrize("suffix", SUFFIXES)
    @pytest.mark.parametrize("name", sorted(REAL))
    def test_real_key_with_dummy_suffix_redacted(self, name: str, suffix: str) -> None:
        """A real secret followed by a word that marks dummies is still redacted."""
        text = REAL[name] + suffix
        out = stored(f"note: {text} end\n")
        assert secret_part(REAL[name]) not in out and "[REDACTED:" in out

    @pytest.mark.parametrize(
        "value",
        [
            "sk-ant-api03-your-key-here",
            "YOUR_API_KEY_HERE",
            "<your-github-token>",
            "${STRIPE_SECRET_KEY}",
            "AKIAIOSFODNN7EXAMPLE",
            "sk_live_xxxxxxxxxxxxxxxxxxxxxxxx",
            "[REDACTED:github-pat]",
        ],
    )
    def test_whole_placeholder_kept(self, value: str) -> None:
        """A value that is a placeholder from end to end is left alone."""
        assert value in stored(f"API_KEY={value}\n")


class TestInvisibleCharacters:
    @pytest.mark.parametrize("char", INVISIBLE)
    def test_invisible_character_inside_a_key(self, char: str) -> None:
        """A format character inside a key does not hide it; the redaction covers it too."""
        hidden = GITHUB[:12] + char + GITHUB[12:]
        out = stored(f"before {hidden} after\n")
        assert out == "before [REDACTED:github-pat] after\n"

    def test_several_invisible_characters_and_text_around(self) -> None:
        """Invisible characters outside the key stay where they were."""
        hidden = "\u200b".join(GITHUB)
        out = stored(f"\u200dlead {hidden}\u2060 tail \U0001f9e0\u200d\U0001f4a1\n")
        assert out == "\u200dlead [REDACTED:github-pat]\u2060 tail \U0001f9e0\u200d\U0001f4a1\n"

    @given(st.lists(st.sampled_from(INVISIBLE), min_size=1, max_size=6), st.integers(0, len(GITHUB)))
    @example(["\u200b"], 4)
    def test_any_invisible_characters_anywhere(self, chars: list[str], at: int) -> None:
        """Whatever invisible characters are put into the key, and where, no part of it is stored."""
        hidden = GITHUB[:at] + "".join(chars) + GITHUB[at:]
        out = stored(f"x {hidden} y\n")
        assert GITHUB[4:20] not in out and GITHUB[20:] not in out


class TestEncodedRuns:
    @pytest.mark.parametrize(
        "encode",
        [
            lambda s: base64.b64encode(s.encode()).decode(),
            lambda s: base64.urlsafe_b64encode(s.encode()).decode().rstrip("="),
            lambda s: s.encode().hex(),
            lambda s: urllib.parse.quote(s, safe=""),
            lambda s: json.dumps(s, ensure_ascii=False).strip('"').replace("_", "\\u005f").replace("a", "\\u0061"),
            lambda s: base64.b64encode(base64.b64encode(s.encode())).decode(),
        ],
        ids=["base64", "base64url", "hex", "percent", "json-escapes", "base64-twice"],
    )
    def test_encoded_secret_redacted_whole(self, encode: object) -> None:
        """A secret inside an encoded run is found, and the whole run is redacted."""
        run = encode(f"aws_secret_access_key = {'wJalrXUtnFEMIxK7MDENGybPxRfiCYzQ8mN3pL2k'}")  # type: ignore[operator]
        out = stored(f'"blob": "{run}", "end": 1\n')
        assert run not in out and out.startswith('"blob": "[REDACTED:') and out.endswith(']", "end": 1\n')

    @pytest.mark.parametrize(
        "value",
        [
            base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(range(200))).decode(),
            "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
            base64.b64encode(b"The deploy runs every Thursday after standup.").decode(),
            urllib.parse.quote("name=ada lovelace&team=compilers&city=london"),
        ],
        ids=["binary", "sha256", "plain-text", "plain-query"],
    )
    def test_encoded_public_value_kept(self, value: str) -> None:
        """Encoded runs that decode to binary or to text without secrets are stored intact."""
        assert value in stored(f"value {value} end\n")

    @given(st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), min_size=0, max_size=40))
    @example("")
    def test_url_safe_run_decoded_whole(self, words: str) -> None:
        """A URL-safe run is one value even when its first characters are standard base64 too.

        "~~~ " encodes to "fn5-": a reading that prefers the standard alphabet
        cut the run there and decoded the rest out of step.
        """
        secret = f"~~~ {words} aws_secret_access_key = {'wJalrXUtnFEMIxK7MDENGybPxRfiCYzQ8mN3pL2k'}"
        run = base64.urlsafe_b64encode(secret.encode()).decode().rstrip("=")
        assert run.startswith("fn5-") and run not in stored(f"blob {run} end\n")

    def test_value_behind_a_long_run_joined_by_a_dot(self) -> None:
        """A run longer than the decoder takes whole is read part by part between its dots: a secret
        joined to 70,000 characters of filler by a dot was passed over with the whole run."""
        secret = f"aws_secret_access_key = {'wJalrXUtnFEMIxK7MDENGybPxRfiCYzQ8mN3pL2k'}"
        encoded = base64.b64encode(secret.encode()).decode()
        out = stored(f"blob {'A' * 70_000}.{encoded} end\n")
        assert encoded not in out and "[REDACTED:" in out

    def test_depth_and_budget_bound_the_work(self) -> None:
        """With no levels to follow, an encoded secret is not looked into; the visible scan stays."""
        engine = SecretEngine(load_pack("builtin").rules)
        run = base64.b64encode(f"token {GITHUB}".encode()).decode()
        data = f"{run} and {GITHUB}".encode()
        assert len(find_hidden(engine, data)) == 2
        assert [f.start for f in find_hidden(engine, data, Unwrapping(depth=0))] == [len(run) + 5]
        assert len(find_hidden(engine, data, Unwrapping(floor_bytes=0, bytes_per_byte=0))) == 1


@pytest.mark.parametrize(
    ("line", "run"),
    [
        ("npm: _auth = ZXRsX3VzZXI6MHFeODZBRXFxaypwXipi", "ZXRsX3VzZXI6MHFeODZBRXFxaypwXipi"),
        (
            "- El registry auth de kestrel es `am9uYXMuazpzdW1taXRfcXVhcnR6X2Nhbnlvbl9IYXJib3JfNjch`",
            "am9uYXMuazpzdW1taXRfcXVhcnR6X2Nhbnlvbl9IYXJib3JfNjch",
        ),
    ],
)
def test_a_user_password_pair_in_base64_is_redacted(line: str, run: str) -> None:
    """A run of base64 that decodes to a user:password pair alone is a credential, whatever names it."""
    assert run not in stored(f"{line}\n")


def test_base64_of_a_public_pair_is_kept() -> None:
    """Decoded text that is a pair of words, a URN or a digest is no credential."""
    for run in ("dXJuOnV1aWQ6M2YyYjhjMWUtOWE0ZC00ZTdmLWIyYzYtOGQxZTVmM2E3Yjlj", "bm90ZTpyZW1lbWJlci10aGUtbWlsaw=="):
        assert run in stored(f"note: {run}\n")
