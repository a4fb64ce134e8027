"""Every kind of rule has one home (a class in interpreter/rules/) that owns all of its
facets; this walks the registry and fails for a kind that lacks one."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from talon_cards.language.parser import grammar_text, parser
from talon_cards.language.tree import SECTIONS
from talon_cards.rules.base import RuleKind
from talon_cards.rules.registry import BODY_SECTION, KINDS, ORDER, PRODUCTIONS, SINGLE, TEMPLATES
from talon_cards.spec import bundled_names, load

ROOT = Path(__file__).resolve().parent.parent
GRAMMAR = (ROOT / "grammars" / "talon.lark").read_text(encoding="utf-8")


def _grammar_bodies() -> set:
    """The productions defined in the grammar's rule-bodies part."""
    start = GRAMMAR.index("// ---------------------------------------------------------------- rule bodies")
    end = GRAMMAR.index("// ---------------------------------------------------------------- expressions")
    part = GRAMMAR[start:end]
    defined = set(re.findall(r"^([a-z_]+):", part, re.M))
    helpers = {"count", "card_set", "card_term", "follow_when", "pass_dir", "payee", "seat_set",
               "preference", "seat_ref", "signed", "let_words", "payee_s"}
    return defined - helpers


@pytest.mark.parametrize("cls", ORDER, ids=lambda c: c.kind)
def test_every_rule_kind_has_every_facet(cls):
    assert cls.kind and re.search(rf"^{cls.kind}:", GRAMMAR, re.M), "its production in the grammar"
    for alias in cls.aliases:
        assert f"-> {alias}" in GRAMMAR, f"alias {alias} in the grammar"
    assert cls.section in SECTIONS, "its section"
    assert cls.template, "how it reads (shown in hints)"
    assert cls.compile.__func__ is not RuleKind.compile.__func__, "how it compiles"
    assert cls.__doc__ is None or isinstance(cls.__doc__, str)


def test_the_registry_and_the_grammar_list_the_same_kinds():
    assert _grammar_bodies() == {cls.kind for cls in ORDER}
    assert set(PRODUCTIONS) == set(KINDS)
    body = re.search(r"^\?body: (.*)$", grammar_text(), re.M).group(1)
    assert [k.strip() for k in body.split("|")] == [cls.kind for cls in ORDER]
    assert set(TEMPLATES) == set(BODY_SECTION) == {cls.kind for cls in ORDER}
    assert SINGLE <= set(BODY_SECTION)
    parser()                                   # the derived grammar builds


def test_every_rule_of_every_bundled_spec_has_words():
    """Each rule can be said in words (the terminal and explanations use them)."""
    seen = set()
    for name in bundled_names():
        g = load(name)
        for rname, it in g.rules.items():
            words = KINDS[it.body.kind].words(it)
            assert isinstance(words, str) and words and words != rname, (name, rname)
            seen.add(it.body.kind)
    unused = {cls.kind for cls in ORDER} - seen
    assert not unused, f"rule kinds no bundled spec uses: {sorted(unused)}"


GAME_WORDS = re.compile(r"\b(501|whist|prop|cop|solo|mis[eè]re|abundance|marriage|prikup|tysyacha|"
                        r"sixty-six|schnapsen|barrel|bolts?|moon|hook|oh[ -]hell|omnibus|blackout)\b", re.I)


def test_the_engine_names_no_game():
    """Genericity: the engine knows mechanisms; games and contracts are named by specs.
    (Suit names are the deck's words, not a game's.)"""
    hits = []
    for path in sorted((ROOT / "interpreter").rglob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.lstrip().startswith("#"):
                continue
            if GAME_WORDS.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not hits, "\n".join(hits)
