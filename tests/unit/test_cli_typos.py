"""A typo on the command line fails loudly; relative paths mean the caller's files; quiet no-ops say so."""

from __future__ import annotations

import tempfile
from pathlib import Path

from sandbox.attack import FAMILIES, SEQUENCES
from sandbox.attack.corpus import cases
from sandbox.attack.sequences import SEQUENCE_FAMILIES
from sandbox.attack.world import World
from tests.unit.test_cli import run

SESSION = '{"input": {"command": "create", "path": "/memories/a.md", "file_text": "x"}, "scope": "alice"}\n'
TTL = 'schema_version = 1\nid = "p"\nrevision = 1\n[retention]\nttl_days = 1\n'
ATTACK = ("attack", "--race-seconds", "0", "--families", "dotdot")


def test_families_match_the_corpus() -> None:
    """The families --families accepts are exactly those the corpus generates, the multi-call ones, the race."""
    with tempfile.TemporaryDirectory() as folder:
        generated = {case.family for case in cases(World(Path(folder) / "world"))}
    assert SEQUENCES == SEQUENCE_FAMILIES
    assert set(FAMILIES) == generated | set(SEQUENCES) | {"race"} and len(FAMILIES) == len(set(FAMILIES))


def test_unknown_family_is_a_usage_error() -> None:
    """A misspelt family names itself and the valid ones, and runs nothing."""
    result = run("attack", "--handler", "sandbox.attack.targets:sandboxed", "--families", "dotdot,percnt")
    assert result.returncode == 2 and "unknown attack family percnt" in result.stderr
    assert "double_encoding" in result.stderr and result.stdout == ""


def test_misspelt_store_fails_and_create_says_what_it_made(tmp_path: Path) -> None:
    """A --store that does not exist is an error unless --create, which lists the folders it made."""
    (tmp_path / "s.jsonl").write_text(SESSION)
    missing = run("replay", "s.jsonl", "--store", "file:./memroy", cwd=tmp_path)
    assert missing.returncode == 2 and "no store at file:./memroy" in missing.stderr
    assert not (tmp_path / "memroy").exists()
    made = run("replay", "s.jsonl", "--store", "file:a/b/store", "--create", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert "created folder a, folder a/b, folder a/b/store" in made.stderr
    assert (tmp_path / "a" / "b" / "store" / "scopes" / "alice" / "a.md").is_file()


def test_default_store_is_made_on_first_use(tmp_path: Path) -> None:
    """Without --store, the default store is made where the command runs, and that is said."""
    (tmp_path / "s.jsonl").write_text(SESSION)
    result = run("replay", "s.jsonl", cwd=tmp_path)
    assert result.returncode == 0 and "new store file:./memory: created folder memory" in result.stderr
    assert "new store" not in run("replay", "s.jsonl", cwd=tmp_path).stderr


def test_unknown_scope_is_not_purged(tmp_path: Path) -> None:
    """purge and expire of a scope the store does not hold fail; nothing is reported as erased."""
    (tmp_path / "s.jsonl").write_text(SESSION)
    (tmp_path / "p.toml").write_text(TTL)
    assert run("replay", "s.jsonl", "--store", "file:m", "--create", cwd=tmp_path).returncode == 0
    purged = run("purge", "--store", "file:m", "--scope", "alcie", "--yes", cwd=tmp_path)
    assert purged.returncode == 2 and "no scope 'alcie' in file:m" in purged.stderr and "purged" not in purged.stdout
    expired = run("expire", "--store", "file:m", "--scope", "alcie", "--policy", "p.toml", cwd=tmp_path)
    assert expired.returncode == 2 and "no scope 'alcie'" in expired.stderr


def test_expire_dry_run_and_no_ttl_notice(tmp_path: Path) -> None:
    """--dry-run lists what would expire and keeps it; a policy with no TTL says nothing can expire."""
    (tmp_path / "s.jsonl").write_text(SESSION)
    (tmp_path / "p.toml").write_text(TTL)
    assert run("replay", "s.jsonl", "--store", "file:m", "--create", cwd=tmp_path).returncode == 0
    args = ("expire", "--store", "file:m", "--scope", "alice", "--now", "2099-01-01")
    dry = run(*args, "--policy", "p.toml", "--dry-run", cwd=tmp_path)
    assert dry.returncode == 0 and "would expire /memories/a.md" in dry.stdout
    assert (tmp_path / "m" / "scopes" / "alice" / "a.md").is_file()
    shipped = run(*args, cwd=tmp_path)
    assert shipped.returncode == 0 and "policy default sets no time to live" in shipped.stderr
    assert (tmp_path / "m" / "scopes" / "alice" / "a.md").is_file()


def test_relative_handler_is_the_callers_file(tmp_path: Path) -> None:
    """--handler myapp/memory.py:make, and a module of the caller's folder, load from the caller's folder."""
    (tmp_path / "myapp").mkdir()
    (tmp_path / "myapp" / "memory.py").write_text(
        "from sandbox.attack.targets import sandboxed\n\ndef make(root):\n    return sandboxed(root)\n"
    )
    by_file = run(*ATTACK, "--handler", "myapp/memory.py:make", cwd=tmp_path, timeout=300)
    assert by_file.returncode == 0, by_file.stderr
    by_module = run(*ATTACK, "--handler", "myapp.memory:make", cwd=tmp_path, timeout=300)
    assert by_module.returncode == 0, by_module.stderr
