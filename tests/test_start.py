"""A start that feels instant: a spec read before and tables checked before are not
read or checked again by a fresh process (the parser and the schema checker are not
even loaded), and what is remembered can never hide a problem."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from talon_cards.errors import Collector
from talon_cards.language import read, tables

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import sys
from talon_cards.cli import main
rc = main(["validate", sys.argv[1]])
print("LOADED", "lark" in sys.modules, "jsonschema" in sys.modules, rc)
"""


def _fresh(spec: str, cache: Path) -> str:
    env = dict(os.environ, XDG_CACHE_HOME=str(cache))
    p = subprocess.run([sys.executable, "-c", PROBE, spec], capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    return next(line for line in p.stdout.splitlines() if line.startswith("LOADED"))


def test_a_second_fresh_validate_loads_neither_parser_nor_schema_checker(tmp_path):
    spec = str(ROOT / "specs" / "501.talon")
    assert _fresh(spec, tmp_path) == "LOADED True True 0"
    assert _fresh(spec, tmp_path) == "LOADED False False 0"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_a_spec_read_again_is_the_same_and_a_changed_one_is_read_anew(cache, tmp_path):
    text = (ROOT / "specs" / "whist.talon").read_text()
    first = read.parse(text, "whist.talon", Collector())
    assert list((cache / "talon-cards" / "specs-read").iterdir())
    again = read.parse(text, "whist.talon", Collector())
    assert again == first and again is not first
    out = Collector()
    changed = read.parse(text.replace("game whist", "game whist2"), "whist.talon", out)
    assert changed.name == "whist2" and not out.diagnostics


def test_a_broken_spec_is_never_remembered_and_always_reported(cache):
    bad = 'game g "G"\nplay:\n  follow-suit: must play a card of the suit led when able when\n'
    for _ in range(2):
        out = Collector()
        assert read.parse(bad, "g.talon", out) is None
        assert out.errors
    assert not (cache / "talon-cards" / "specs-read").exists()


def test_a_damaged_cache_file_is_read_past(cache):
    text = (ROOT / "specs" / "hearts.talon").read_text()
    first = read.parse(text, "hearts.talon", Collector())
    for f in (cache / "talon-cards" / "specs-read").iterdir():
        f.write_bytes(b"not a pickle")
    assert read.parse(text, "hearts.talon", Collector()) == first


def test_tables_that_failed_the_schema_are_checked_every_time(cache):
    for _ in range(2):
        out = Collector()
        assert not tables.check_schema({"suits": "SHDC"}, tables.Positions(), "t.yaml", out)
        assert out.errors
    assert not (cache / "talon-cards" / "tables-passed").exists()


def test_tables_that_passed_are_remembered_by_their_content(cache):
    data, pos = tables.load_yaml((ROOT / "specs" / "hearts.yaml").read_text(), "hearts.yaml", Collector())
    assert tables.check_schema(data, pos, "hearts.yaml", Collector())
    marks = list((cache / "talon-cards" / "tables-passed").iterdir())
    assert len(marks) == 1
    assert tables.check_schema(data, pos, "hearts.yaml", Collector())
    data = dict(data, suits=["S", "H", "D", "C", "S"])      # another content: checked, and refused
    assert not tables.check_schema(data, pos, "hearts.yaml", Collector())


def test_the_cache_folder_stays_bounded(cache):
    from talon_cards import usercache
    where = usercache.folder("specs-read")
    for i in range(usercache.MAX_ENTRIES + 50):
        usercache.write(where / f"{i:05d}.pickle", b"x")
    left = sorted(p.name for p in where.iterdir())
    assert len(left) <= usercache.MAX_ENTRIES
    assert f"{usercache.MAX_ENTRIES + 49:05d}.pickle" in left     # the newest stays


def test_the_suite_keeps_out_of_the_users_cache():
    assert "talon-test-cache-" in os.environ["XDG_CACHE_HOME"]
