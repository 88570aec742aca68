"""Policy loading: shipped profiles, strict validation, errors that point at the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from sandbox.errors import PolicyError
from sandbox.policy import load_policy, parse_policy, profile_names

MINIMAL = 'schema_version = 1\nid = "p"\nrevision = 1\n'


class TestLoadPolicy:
    @pytest.mark.parametrize("name", ["default", "strict"])
    def test_shipped_profiles_load(self, name: str) -> None:
        """Every shipped profile loads and names itself."""
        assert load_policy(name).id == name

    def test_profiles_listed(self) -> None:
        """The shipped profiles are discoverable."""
        assert {"default", "strict"} <= set(profile_names())

    def test_strict_is_tighter(self) -> None:
        """The strict profile bounds paths and input more tightly than the default."""
        default, strict = load_policy("default"), load_policy("strict")
        assert strict.paths.max_path_bytes < default.paths.max_path_bytes
        assert strict.limits.max_string_bytes < default.limits.max_string_bytes

    def test_unknown_profile(self) -> None:
        """An unknown profile name is an error listing the shipped ones."""
        with pytest.raises(PolicyError, match="no such profile"):
            load_policy("nonexistent")

    def test_file_path(self, tmp_path: Path) -> None:
        """A policy file loads by path, defaults filled in."""
        path = tmp_path / "mine.toml"
        path.write_text(MINIMAL + "[paths]\nmax_path_bytes = 300\n")
        policy = load_policy(path)
        assert policy.paths.max_path_bytes == 300 and policy.limits.max_view_chars == 16_000

    def test_unreadable_file(self, tmp_path: Path) -> None:
        """A missing file is a PolicyError naming the file, not its host folder."""
        with pytest.raises(PolicyError) as info:
            load_policy(tmp_path / "gone.toml")
        assert info.value.message.startswith("gone.toml:") and str(tmp_path) not in info.value.message


class TestPolicyErrors:
    @pytest.mark.parametrize(
        ("text", "message"),
        [
            (MINIMAL + "[paths]\nmax_path_bytes = 0\n", "p.toml: paths.max_path_bytes: value must be > 0"),
            (MINIMAL + "[paths]\nmax_path_byte = 10\n", "p.toml: paths.max_path_byte: unknown key"),
            (MINIMAL + "[pathz]\n", "p.toml: pathz: unknown key"),
            ('id = "p"\nrevision = 1\n', "p.toml: schema_version: required key is missing"),
            (MINIMAL.replace("= 1\nid", "= 2\nid"), "p.toml: schema_version:"),
            (MINIMAL + "[limits]\nmax_view_chars = 10\n", "p.toml: limits.max_view_chars: value must be >= 1000"),
            (MINIMAL + '[limits]\nmax_string_bytes = "big"\n', "p.toml: limits.max_string_bytes:"),
            (MINIMAL + "[paths]\nmax_name_bytes = true\n", "p.toml: paths.max_name_bytes:"),
            ("schema_version = [", "p.toml: invalid TOML"),
        ],
    )
    def test_error_points_at_key(self, text: str, message: str) -> None:
        """Each invalid policy fails with file, key path and reason."""
        with pytest.raises(PolicyError) as info:
            parse_policy(text, source="p.toml")
        assert message in info.value.message

    def test_policy_is_frozen(self) -> None:
        """A loaded policy cannot be changed in place."""
        policy = load_policy("default")
        with pytest.raises(ValueError, match="frozen"):
            policy.paths.max_path_bytes = 10**6  # type: ignore[misc]
