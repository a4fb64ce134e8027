"""A start that feels instant: a spec read before, tables read and checked before and
examples replayed before are not read, checked or replayed again by a fresh process
(the parser, PyYAML, the schema checker and the record reader are not even loaded,
nor the command line's other sub-commands), and what is remembered can never hide a
problem."""
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
rc = main(["validate", *sys.argv[1:-1]])
print("LOADED", *(m in sys.modules for m in sys.argv[-1].split(",")), rc)
"""
HEAVY = ("lark", "jsonschema", "yaml", "talon_cards.records", "argparse", "dataclasses",
         "talon_cards.explain")


def _fresh(spec: str, cache: Path, *opts, watch=("lark", "jsonschema"), status=0) -> str:
    env = dict(os.environ, XDG_CACHE_HOME=str(cache))
    p = subprocess.run([sys.executable, "-c", PROBE, *opts, spec, ",".join(watch)],
                       capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    return next(line for line in p.stdout.splitlines() if line.startswith("LOADED"))


def _loaded(spec, cache, *opts, status=0):
    """The heavy modules a fresh `talon validate` loaded, and its exit status."""
    env = dict(os.environ, XDG_CACHE_HOME=str(cache))
    p = subprocess.run([sys.executable, "-c", PROBE, *opts, spec, ",".join(HEAVY)],
                       capture_output=True, text=True, env=env, timeout=120)
    line = next(line for line in p.stdout.splitlines() if line.startswith("LOADED")).split()
    assert line[-1] == str(status), p.stdout + p.stderr
    said = "".join(x for x in p.stdout.splitlines(True) if not x.startswith("LOADED")) + p.stderr
    return {m for m, flag in zip(HEAVY, line[1:-1]) if flag == "True"}, said


def test_a_second_fresh_validate_loads_neither_parser_nor_schema_checker(tmp_path):
    spec = str(ROOT / "specs" / "501.talon")
    assert _fresh(spec, tmp_path) == "LOADED True True 0"
    assert _fresh(spec, tmp_path) == "LOADED False False 0"


def test_a_second_fresh_validate_loads_no_heavy_module_and_says_the_same(tmp_path):
    spec = str(ROOT / "specs" / "501.talon")
    first, said = _loaded(spec, tmp_path)
    assert {"lark", "jsonschema", "yaml", "talon_cards.records"} <= first
    assert "2 example records replayed as expected" in said
    again, said_again = _loaded(spec, tmp_path)
    assert again == set(), again
    assert said_again == said


def test_validate_no_cache_reads_everything_anew_and_keeps_nothing(tmp_path):
    spec = str(ROOT / "specs" / "whist.talon")
    _loaded(spec, tmp_path / "warm")
    loaded, said = _loaded(spec, tmp_path / "warm", "--no-cache")
    assert {"lark", "jsonschema", "yaml", "talon_cards.records"} <= loaded
    assert "4 example records replayed as expected" in said
    _loaded(spec, tmp_path / "cold", "--no-cache")
    assert not (tmp_path / "cold").exists()


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


# ------------------------------------------------------------------ examples replayed
def _copy_of_whist(tmp_path) -> Path:
    """whist.talon with its tables and examples, in a folder of the test's own."""
    import shutil
    where = tmp_path / "spec"
    shutil.copytree(ROOT / "specs" / "examples" / "whist", where / "examples" / "whist")
    for name in ("whist.talon", "whist.yaml"):
        shutil.copy(ROOT / "specs" / name, where / name)
    return where


def test_examples_replayed_before_are_not_replayed_and_any_change_replays_them(tmp_path):
    where = _copy_of_whist(tmp_path)
    spec, cache = str(where / "whist.talon"), tmp_path / "cache"
    loaded, said = _loaded(spec, cache)
    assert "talon_cards.records" in loaded and "4 example records replayed as expected" in said
    assert "talon_cards.records" not in _loaded(spec, cache)[0]
    record = where / "examples" / "whist" / "rw-12-all-thirteen-tricks.yaml"
    good = record.read_text()
    record.write_text(good.replace("deltas: {A: 0, B: 7, C: 0, D: 7}", "deltas: {A: 0, B: 6, C: 0, D: 6}"))
    for _ in range(2):          # a failure is never remembered: reported on every run
        loaded, said = _loaded(spec, cache, status=1)
        assert "talon_cards.records" in loaded
        assert "rw-12-all-thirteen-tricks.yaml: error: this example does not replay" in said
    record.write_text(good)
    assert "talon_cards.records" not in _loaded(spec, cache)[0]        # remembered before
    extra = where / "examples" / "whist" / "rw-99-copy.yaml"           # a record more
    extra.write_text(good)
    loaded, said = _loaded(spec, cache)
    assert "talon_cards.records" in loaded and "5 example records replayed as expected" in said
    tables = where / "whist.yaml"                                       # the tables changed
    tables.write_text(tables.read_text() + "\n# a comment\n")
    loaded, said = _loaded(spec, cache)
    assert {"yaml", "talon_cards.records"} <= loaded and "5 example records" in said


def test_examples_are_replayed_again_when_the_code_changes(cache, monkeypatch):
    from talon_cards import cli, records, usercache
    calls = []
    real = records.check_examples

    def counted(game, folder):
        calls.append(folder)
        return real(game, folder)
    monkeypatch.setattr(records, "check_examples", counted)
    assert cli.validate_one("whist")[2] == 0
    assert cli.validate_one("whist")[2] == 0
    assert len(calls) == 1
    mark = usercache.code_mark
    monkeypatch.setattr(usercache, "code_mark", lambda: mark() + "\nchanged")
    out, game, status = cli.validate_one("whist")
    assert status == 0 and out.examples_checked == 4 and len(calls) == 2


def test_the_code_mark_follows_every_module_of_the_package():
    from talon_cards import usercache
    here = Path(usercache.__file__).parent
    from talon_cards.resources import grammar_path
    paths = {line.rsplit(":", 2)[0] for line in usercache.code_mark().splitlines()}
    for module in ("engine/play.py", "records.py", "rules/scoring.py", "model/game.py", "cli.py",
                   "language/parser.py"):
        assert str(here / module) in paths
    assert str(grammar_path("talon.lark").resolve()) in paths
    assert any(p.endswith(os.path.join("yaml", "__init__.py")) for p in paths)


# ------------------------------------------------------------------ tables read
def test_tables_read_again_are_the_same_and_faulty_ones_are_read_every_time(cache):
    text = (ROOT / "specs" / "hearts.yaml").read_text()
    first = tables.load_yaml(text, "hearts.yaml", Collector())
    assert list((cache / "talon-cards" / "tables-read").iterdir())
    again = tables.load_yaml(text, "hearts.yaml", Collector())
    assert again == first and again[0] is not first[0]
    assert type(again[1]) is tables.Positions
    twice = "suits: [S, H, D, C]\nranks: [A, K]\nranks: [A, K]\n"
    for _ in range(2):
        out = Collector()
        data, _ = tables.load_yaml(twice, "t.yaml", out)
        assert data is not None and [d.message for d in out.errors] == ["`ranks` is given twice"]


def test_a_remark_already_made_does_not_let_a_faulty_reading_be_kept(cache):
    twice = "suits: [S, H, D, C]\nranks: [A, K]\nranks: [A, K]\n"
    out = Collector()
    tables.load_yaml(twice, "t.yaml", out)
    tables.load_yaml(twice, "t.yaml", out)          # the same remark again, in one collector
    assert not (cache / "talon-cards" / "tables-read").exists()


# ------------------------------------------------------------------ the command line
def test_the_parser_of_one_command_is_that_commands_parser():
    from talon_cards import cli
    full = cli.build_parser()
    choices = next(a for a in full._actions if a.dest == "command").choices
    assert list(choices) == list(cli.COMMANDS)
    for name in cli.COMMANDS:
        alone = cli.build_parser(name)
        only = next(a for a in alone._actions if a.dest == "command").choices
        assert list(only) == [name]
        assert only[name].format_help() == choices[name].format_help()


@pytest.mark.parametrize("argv", [
    ["validate", "501"], ["validate", "501", "whist", "--json"], ["validate", "--json", "501"],
    ["validate", "--no-cache", "501", "--json"], ["validate", "", "501"]])
def test_a_plain_validate_is_read_as_argparse_reads_it(argv):
    from talon_cards import cli
    plain = vars(cli._plain_validate(argv))
    parsed = vars(cli.build_parser().parse_args(argv))
    assert plain == parsed


@pytest.mark.parametrize("argv", [
    ["validate"], ["validate", "--json"], ["validate", "-h"], ["validate", "--js", "501"],
    ["validate", "--", "501"], ["validate", "501", "-x"], ["simulate", "501"], ["--version"]])
def test_anything_else_goes_through_argparse(argv):
    from talon_cards import cli
    assert cli._plain_validate(argv) is None


# ------------------------------------------------------------------ records
def test_records_behave_as_dataclasses_do():
    import dataclasses
    import pickle
    from talon_cards.model.record import FrozenInstanceError, field, record

    def make(decorate, field):
        @decorate(frozen=True)
        class Point:
            path: str
            line: int = 0

        @decorate
        class Bag:
            items: list = field(default_factory=list)
            name: str = "bag"
        return Point, Bag
    (P1, B1), (P2, B2) = make(dataclasses.dataclass, dataclasses.field), make(record, field)
    for args, kw in [(("a",), {}), (("a", 2), {}), ((), {"line": 3, "path": "b"})]:
        a, b = P1(*args, **kw), P2(*args, **kw)
        assert repr(a) == repr(b) and hash(a) == hash(b) and list(vars(a).items()) == list(vars(b).items())
        assert b == P2(*args, **kw) and b != P2("other") and b != a
    from talon_cards.errors import Location
    here = Location("a.talon", 3, 4, 7)
    assert pickle.loads(pickle.dumps(here)) == here and hash(here) == hash(Location("a.talon", 3, 4, 7))
    with pytest.raises(FrozenInstanceError):
        P2("a").line = 1
    with pytest.raises(AttributeError):
        del P2("a").path
    for bad in [lambda P: P(), lambda P: P("a", 1, 2), lambda P: P("a", path="b"), lambda P: P("a", x=1)]:
        with pytest.raises(TypeError):
            bad(P1)
        with pytest.raises(TypeError):
            bad(P2)
    assert repr(B1()) == repr(B2()) and B2().items is not B2().items and not hasattr(B2, "items")
    assert B2.__hash__ is None and B2(["x"]) == B2(["x"])
    bag = B2()
    bag.name = "other"
    assert bag.name == "other"


def test_no_cache_holds_for_that_command_only(cache, capsys):
    from talon_cards import cli, usercache
    assert cli.main(["validate", "--no-cache", "whist"]) == 0
    assert usercache.OFF is False and not cache.exists()
    assert cli.main(["validate", "whist"]) == 0
    assert (cache / "talon-cards" / "examples-passed").is_dir()
