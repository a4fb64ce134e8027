"""Mutation test of validation: damage the bundled specs at random and check that
`talon validate` either accepts the result or reports errors, each at a line and column
inside the file it names, and never raises; and that every mutant that validates plays
a few random deals and the start of a game without an error (a spec that validates
never crashes).

Mutations (on the rule file or on its YAML tables): delete, duplicate or swap lines;
delete, duplicate or swap words; replace a number by another number, a word by another
word of the language, or one character by another.

The default run tries a few hundred mutants (the suite must stay fast); run thousands
with ``TALON_MUTANTS=5000 python -m pytest -q tests/test_validate_mutation.py``. Every
mutant is written to a fresh temporary folder next to its tables (the tables file is
named relative to the spec file).
"""
from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import random

from talon_cards.agents import RandomAgent, play_deal
from talon_cards.cli import validate_one
from talon_cards.engine import Match
from talon_cards.errors import Collector
from talon_cards.spec import check
from talon_cards.language.parser import parser

ROOT = Path(__file__).resolve().parent.parent
SPECS = sorted((ROOT / "specs").glob("*.talon"))
MUTANTS = int(os.environ.get("TALON_MUTANTS", "300"))

_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9'-]*|\S")
_NUMBER = re.compile(r"\b\d+\b")


def _vocabulary() -> list[str]:
    words = set()
    for p in list(SPECS) + sorted((ROOT / "specs").glob("*.yaml")):
        words.update(re.findall(r"[a-z][a-z0-9-]*", p.read_text(encoding="utf-8")))
    grammar = (ROOT / "grammars" / "talon.lark").read_text(encoding="utf-8")
    words.update(re.findall(r'"([a-z][a-z\']*)"', grammar))
    return sorted(words)


WORDS = _vocabulary()
TERMINALS = {t.name for t in parser().terminals} | {"$END", "_NL"}
NUMBERS = ["0", "1", "2", "3", "4", "7", "8", "13", "52", "100", "-1", "99999999999999999999"]
CHARS = list(":,()[]{}\"'#=<>+-*/;&*!|%@\t") + ["é", "\u00a0", "\x00"]


def _tables_of(spec: Path) -> list[Path]:
    m = re.search(r'^tables\s+"([^"]+)"', spec.read_text(encoding="utf-8"), re.M)
    return [spec.parent / m.group(1)] if m else []


@st.composite
def mutants(draw):
    """(spec path, {file name: text}) with one to three mutations applied."""
    spec = draw(st.sampled_from(SPECS))
    files = {spec.name: spec.read_text(encoding="utf-8")}
    for t in _tables_of(spec):
        files[t.name] = t.read_text(encoding="utf-8")
    for _ in range(draw(st.integers(1, 3))):
        name = draw(st.sampled_from(sorted(files)))
        files[name] = draw(_mutate(files[name]))
    return spec, files


@st.composite
def _mutate(draw, text: str) -> str:
    lines = text.split("\n")
    op = draw(st.sampled_from(["delete line", "duplicate line", "swap lines", "delete word",
                               "duplicate word", "swap words", "number", "word", "character"]))
    i = draw(st.integers(0, len(lines) - 1))
    if op == "delete line":
        del lines[i]
    elif op == "duplicate line":
        lines.insert(i, lines[i])
    elif op == "swap lines":
        j = draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
    else:
        line = lines[i]
        toks = list(_TOKEN.finditer(line))
        if not toks:
            return text
        k = draw(st.integers(0, len(toks) - 1))
        a, b = toks[k].span()
        if op == "delete word":
            line = line[:a] + line[b:]
        elif op == "duplicate word":
            line = line[:b] + " " + line[a:b] + line[b:]
        elif op == "swap words" and k + 1 < len(toks):
            c, d = toks[k + 1].span()
            line = line[:a] + line[c:d] + line[b:c] + line[a:b] + line[d:]
        elif op == "number":
            nums = list(_NUMBER.finditer(line))
            if nums:
                m = nums[draw(st.integers(0, len(nums) - 1))]
                line = line[:m.start()] + draw(st.sampled_from(NUMBERS)) + line[m.end():]
        elif op == "word":
            line = line[:a] + draw(st.sampled_from(WORDS)) + line[b:]
        elif op == "character":
            p = draw(st.integers(0, max(len(line) - 1, 0)))
            line = line[:p] + draw(st.sampled_from(CHARS)) + line[p + 1:]
        lines[i] = line
    return "\n".join(lines)


def _assert_located(diagnostics, files: dict, folder: str):
    """Every error names a file of the mutant, a line of it and a column of that line."""
    for d in diagnostics:
        assert d.severity in ("error", "warning")
        assert d.message and "Traceback" not in d.message, d.message
        leaked = set(re.findall(r"[A-Z_$][A-Z_0-9]+", d.message)) & TERMINALS
        assert not leaked, f"parser token names leak into {d.message!r}"
        if d.severity != "error":
            continue
        path = Path(d.location.path)
        if path.parent.resolve() != Path(folder).resolve():
            continue        # an error in a bundled base spec (the variant's base is intact)
        assert path.name in files, d.render()
        text = files[path.name].split("\n")
        assert 1 <= d.location.line <= max(len(text), 1), d.render()
        width = len(text[d.location.line - 1]) if d.location.line <= len(text) else 0
        assert 1 <= d.location.column <= width + 2, d.render()
        d.render()
        d.to_json()


def play_briefly(game, deals: int = 3):
    """A few random deals at every seat count, and the start of a whole game."""
    for seats in game.seat_counts:
        rng = random.Random(seats)
        for k in range(deals):
            d = game.new_deal(seats, k % seats, None, k + 1)
            d.deal_random(rng)
            play_deal(d, RandomAgent(rng))
            d.observation(d.dealer)
        m = Match(game, seats, 0)
        for _ in range(deals):
            if m.game_over:
                break
            d = m.new_deal()
            d.deal_random(rng)
            play_deal(d, RandomAgent(rng))
            m.finish(d)


def run_mutant(spec: Path, files: dict):
    folder = tempfile.mkdtemp(prefix="talon-mutant-")
    try:
        for name, text in files.items():
            Path(folder, name).write_text(text, encoding="utf-8", errors="surrogatepass")
        target = str(Path(folder, spec.name))
        out = Collector()
        game = check(target, out)           # must not raise
        assert (game is None) == bool(out.errors)
        _assert_located(out.diagnostics, files, folder)
        out2, game2, status = validate_one(target)     # the command's path, too
        assert status in (0, 1)
        got = [d.message for d in out2.diagnostics if "examples folder" not in d.message]
        assert got == [d.message for d in out.diagnostics]
        if game is not None:
            play_briefly(game)              # a spec that validates never crashes
        return game
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@settings(max_examples=MUTANTS, deadline=None, derandomize="TALON_MUTANTS" not in os.environ,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutants())
def test_mutated_specs_are_accepted_or_reported_at_a_place(mutant):
    spec, files = mutant
    run_mutant(spec, files)


def test_the_unmutated_specs_are_valid():
    for spec in SPECS:
        files = {spec.name: spec.read_text(encoding="utf-8")}
        for t in _tables_of(spec):
            files[t.name] = t.read_text(encoding="utf-8")
        assert run_mutant(spec, files) is not None, spec.name
