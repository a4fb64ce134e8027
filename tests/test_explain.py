"""`talon explain`: the rulebook written from the spec (interpreter/explain.py), and the
phrasing facet every rule kind has (``phrase`` in interpreter/rules/*.py), in English,
Portuguese and Russian."""
from __future__ import annotations

import functools
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from talon_cards.errors import TalonError
from talon_cards.explain import (base_of, explain, explain_changes, flow_svg, main as explain_main, rule,
                                 rules_citing, worked_example)
from talon_cards.phrasing import LANGS, Ctx, phrase
from talon_cards.records import check_expectations
from talon_cards.rules.base import RuleKind
from talon_cards.rules.registry import ORDER
from talon_cards.spec import bundled_names, load

ROOT = Path(__file__).resolve().parent.parent
SPECS = bundled_names()
CYRILLIC = re.compile("[а-яё]", re.I)


@functools.lru_cache(maxsize=None)
def game(name):
    return load(name)


@functools.lru_cache(maxsize=None)
def page(name, lang="en", fmt="md"):
    return explain(game(name), lang, fmt)


# ------------------------------------------------------------------ the phrasing facet
@pytest.mark.parametrize("cls", ORDER, ids=lambda c: c.kind)
def test_every_rule_kind_has_its_phrasing(cls):
    assert cls.phrase.__func__ is not RuleKind.phrase.__func__, f"{cls.kind} has no `phrase`"


def _rules_by_kind():
    seen = {}
    for name in SPECS:
        for it in game(name).rules.values():
            seen.setdefault(it.body.kind, []).append((name, it))
    return seen


@pytest.mark.parametrize("cls", ORDER, ids=lambda c: c.kind)
def test_every_rule_kind_says_its_rules_in_three_languages(cls):
    """Every rule of every bundled spec, of this kind, in en, pt and ru: a sentence, with
    no blank left unfilled, different in each language, Russian in Cyrillic."""
    rules = _rules_by_kind().get(cls.kind)
    assert rules, f"no bundled spec has a `{cls.kind}` rule to phrase"
    for name, it in rules:
        said = {}
        for lang in LANGS:
            text = cls.phrase(it, lang, Ctx(game(name), lang))
            assert isinstance(text, str) and text.strip(), (name, it.name, lang)
            assert text.endswith("."), (name, it.name, lang, text)
            assert "{" not in text and "}" not in text, (name, it.name, lang, text)
            assert "None" not in text, (name, it.name, lang, text)
            said[lang] = text
        assert len(set(said.values())) == 3, (name, it.name, said)
        assert CYRILLIC.search(said["ru"]), (name, it.name, said["ru"])
        assert not CYRILLIC.search(said["en"]) and not CYRILLIC.search(said["pt"]), (name, it.name, said)


def test_phrasing_uses_the_seed_pages_terms():
    """The Portuguese and Russian words are the card table's own."""
    ru = page("501", "ru")
    for word in ("прикуп", "марьяж", "втёмную", "козыр", "заказ", "торг", "взятк", "разыгрывающ"):
        assert word in ru, word
    pt = page("501", "pt")
    for word in ("talão", "casamento", "cego", "trunfo", "vaza", "licita", "declarante", "naipe"):
        assert word in pt, word


def test_formulas_are_read_in_words_with_the_values_named():
    g = game("501")
    c = Ctx(g, "en")
    made = g.rules["made"]
    assert phrase(g, made) == "The contract is made when the points of the declarer are at least the contract."
    assert "66 (`minimum-bid`)" in phrase(g, g.rules["bids"])
    assert "minus 25 (`abandon-penalty`)" in phrase(g, g.rules["abandon-penalty"])
    ru = Ctx(g, "ru")
    assert ru.f(g.rules["stake"].body.args["expr"]) == "2, если разыгрывающий купил втёмную, иначе 1"
    assert c.f(g.rules["stake"].body.args["expr"]) == "2 if the declarer won the auction blind, else 1"
    # every operator of the expression tree has its words
    ops = set()

    def walk(e):
        from talon_cards.language.tree import E
        if isinstance(e, E):
            ops.add(e.op)
            for x in e.args:
                walk(x)
        elif isinstance(e, (tuple, list)):
            for x in e:
                walk(x)
    for name in SPECS:
        for it in game(name).rules.values():
            walk(tuple(it.body.args.values()))
    assert ops >= {"num", "name", "lookup", "call", "arith", "neg", "not", "and", "or", "cmp", "if",
                   "any_seat", "every_seat"}


def test_a_meld_of_king_and_queen_is_the_tables_word_not_the_specs_name():
    g = game("tysyacha")
    assert "марьяж" in phrase(g, g.rules["marriage-bid"], "ru")
    assert "casamento" in phrase(g, g.rules["marriage-bid"], "pt")
    assert "`marriage`" in phrase(g, g.rules["marriage-bid"], "en")      # English: the spec's own name


# ------------------------------------------------------------------ the page mentions every table value
def _rows(text):
    return [[c.strip() for c in line.strip().strip("|").split("|")] for line in text.splitlines()
            if line.startswith("| ")]


@pytest.mark.parametrize("name", SPECS)
def test_the_english_page_mentions_every_table_value(name):
    g, text = game(name), page(name)
    assert g.title in text
    assert " ".join(g.ranks) in text, "ranks, high to low"
    rows = _rows(text)
    symbol = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    for key, v in (g.tables_data.get("points") or {}).items():
        key = str(key)
        label = key if key in g.ranks else (symbol[key] if key in g.suits else key[:-1] + symbol[key[-1]])
        assert any(len(r) == 2 and label in r[0] and r[1] == str(v) for r in rows), (key, v)
    if any(g.card_points):
        assert f"The deck holds {sum(g.card_points)} points" in text
    for k, v in g.values.items():
        row = next((r for r in rows if r[0] == f"`{k}`"), None)
        assert row is not None, k
        nums = list(v.values()) if isinstance(v, dict) else [v]
        for x in nums:
            assert str(x) in row[1], (k, x, row)
    for c in g.ladder:
        row = next((r for r in rows if len(r) > 1 and r[1] == f"`{c.name}`"), None)
        assert row is not None, c.name
        assert row[0] == c.title and row[5] == str(c.unit), (c.name, row)
    for it in g.rules.values():
        for clause in it.clauses:
            assert clause in text
        assert f"(`{it.name}`" in text


# ------------------------------------------------------------------ a change to the spec changes the page
def _variant(tmp_path, body: str, name="house") -> str:
    p = tmp_path / f"{name}.talon"
    p.write_text(f'variant {name} "A house rule"\nextends 501\n\n{body}', encoding="utf-8")
    return str(p)


def test_a_changed_value_changes_the_page(tmp_path):
    v = load(_variant(tmp_path, "tables:\n  set values minimum-bid to 70\n"))
    text = explain(v)
    assert "70 (`minimum-bid`)" in text and "66 (`minimum-bid`)" not in text
    assert "`values › minimum-bid`: 66 → 70" in text
    assert text != page("501")


def test_a_changed_value_of_a_copied_game_changes_its_page(tmp_path):
    shutil.copy(ROOT / "specs/501.talon", tmp_path / "501.talon")
    yaml_text = (ROOT / "specs/501.yaml").read_text(encoding="utf-8")
    (tmp_path / "501.yaml").write_text(yaml_text.replace("abandon-penalty: 25", "abandon-penalty: 35"), encoding="utf-8")
    text = explain(load(str(tmp_path / "501.talon")), example=False)
    assert "minus 35 (`abandon-penalty`)" in text and "minus 25 (`abandon-penalty`)" not in text


def test_an_added_replaced_and_removed_rule_change_the_page(tmp_path):
    body = ("auction:\n  remove blind-bidding\n\n"
            "play:\n  add must-beat [house] after must-trump: must play a card that beats the trick when able\n"
            "  replace follow-suit [house]: when void in the suit led, must play a trump when able\n")
    v = load(_variant(tmp_path, body))
    text = explain(v)
    assert "**New:** A player must play a card that beats the trick when able. (`must-beat`, house)" in text
    assert "**Changed:** When void in the suit led, a player must play a trump when able. (`follow-suit`, house)" in text
    assert "~~A player must play a card of the suit led when able.~~" in text
    assert "**Removed:** ~~A player may bid blind" in text
    assert base_of(v).name == "501"
    sheet = explain_changes(load("501"), v)
    assert "House rules: A house rule" in sheet
    assert "must-beat" in sheet and "blind-bidding" in sheet and "follow-suit" in sheet
    assert "trick-winner" not in sheet                        # unchanged rules stay off the sheet
    for lang in ("pt", "ru"):
        assert explain_changes(load("501"), v, lang) != sheet


def test_the_bundled_variants_are_marked_against_their_base():
    text = page("501-must-beat")
    assert "A variant of 501 (Pyatsot odno) (`501`)" in text
    assert "**New:** A player must play a card that beats the trick when able. (`must-beat`, house)" in text
    sheet = explain_changes(game("solo-whist"), game("solo-whist-no-royal"))
    assert "**Removed:**" in sheet and "abundance-in-trumps" in sheet
    sheet = explain_changes(game("sixty-six"), game("sixty-six-no-last-trick"))
    assert "`values › last-trick-bonus`: 10 → 0" in sheet
    assert "`total`" in sheet                                   # the rule that reads the value
    assert "plays exactly like" not in sheet


# ------------------------------------------------------------------ the worked example
GAMES_WITH_EXAMPLES = [n for n in SPECS if game(n).examples]


@pytest.mark.parametrize("name", GAMES_WITH_EXAMPLES)
def test_the_worked_example_matches_the_records_expected_result(name):
    g = game(name)
    ex = worked_example(g)
    assert ex is not None, "a record of the examples folder replays to its end"
    assert ex.expect, "the example has an expected result"
    assert ex.mismatches() == []
    assert check_expectations(ex.rec, ex.result) == []
    text = page(name)
    assert f"`{ex.path.name}`" in text
    scores = ", ".join(f"{k} {v}" for k, v in ex.expect["scores"].items())
    assert f"scores {scores}" in text
    assert "the replay agrees" in text
    deal = ex.replay.deals[-1]
    rows = _rows(text.split("## A worked example")[1])
    for i, (leader, cards, winner) in enumerate(deal.history_tricks, 1):
        row = next(r for r in rows if r[0] == str(i) and r[2] == ex.replay.seats[winner])
        assert row, (i, winner)


def test_the_example_shows_the_contract_and_the_bids():
    text = page("501")
    assert "**Bidding:** A bids 80 blind, B passes, C passes." in text
    assert "A names trumps: ♠ spades" in text and "A names the contract 100" in text
    assert "| 1 | A K♥ (`marriage`), B 9♥, C A♥ | C |" in text
    ru = page("501", "ru")
    assert "A: 80 втёмную, B: пас, C: пас" in ru


# ------------------------------------------------------------------ every language, every spec
@pytest.mark.parametrize("name", SPECS)
def test_every_language_renders_every_bundled_spec(name):
    texts = {lang: page(name, lang) for lang in LANGS}
    assert len(set(texts.values())) == 3
    assert CYRILLIC.search(texts["ru"])
    for lang, text in texts.items():
        assert text.startswith(f"# {game(name).title}\n")
        assert "{" not in text.replace("{H:", "")
    html = page(name, "ru", "html")
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    assert '<html lang="ru">' in html and "<svg" in html


@pytest.mark.parametrize("name", ["501", "hearts", "solo-whist", "oh-hell", "sixty-six"])
def test_the_picture_of_a_deal_follows_the_phases(name):
    g = game(name)
    svg = flow_svg(g, "en")
    root = ET.fromstring(svg)                                  # well-formed
    words = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    titles = {"auction": "Auction", "contract": "Declarer's steps", "exchange": "Passing cards", "play": "Play"}
    pos = [words.index(titles[p]) for p in g.phases]
    assert pos == sorted(pos)
    assert words.index("Deal") < pos[0] and words.index("Scoring") > pos[-1]
    for p in ("auction", "contract", "exchange"):
        assert (titles[p] in words) == (p in g.phases), p


# ------------------------------------------------------------------ one clause, the command
def test_the_rules_citing_a_clause():
    g = game("501")
    assert [it.name for it in rules_citing(g, "R501-17")] == ["follow-suit", "must-trump", "trick-winner"]
    text = rule(g, "r501-17")
    assert text.splitlines()[0] == "Rules of `501` that cite R501-17:"
    assert "(`must-trump`, R501-17)" in text
    assert "козырь" in rule(g, "R501-17", "ru")
    with pytest.raises(TalonError, match="R501-9"):
        rule(g, "R501-99")


def test_the_command(tmp_path, capsys):
    assert explain_main(["501", "--rule", "R501-17", "--lang", "pt"]) == 0
    assert "naipe pedido" in capsys.readouterr().out
    out = tmp_path / "501.html"
    assert explain_main(["501", "--format", "html", "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert explain_main(["501-no-blind", "--changes", "--lang", "ru"]) == 0
    assert "Убрано" in capsys.readouterr().out
    assert explain_main(["501", "501-no-blind", "--changes"]) == 0      # the base first
    assert "blind-bidding" in capsys.readouterr().out
    assert explain_main(["501-no-blind", "501", "--changes"]) == 0      # the variant first
    assert "blind-bidding" in capsys.readouterr().out


@pytest.mark.parametrize("argv, status", [(["no-such-spec"], 2), ([str(ROOT / "tests")], 2),
                                          (["501", "--rule", "R501-99"], 1), (["501", "--changes"], 1),
                                          (["501", "--out", str(ROOT / "specs")], 2)])
def test_the_command_reports_an_error_in_one_line(argv, status, capsys):
    assert explain_main(argv) == status
    err = capsys.readouterr().err
    assert err.startswith("talon explain: ") and err.count("\n") == 1 and "Traceback" not in err


def test_the_page_never_replaces_its_spec(tmp_path, capsys):
    for f in ("501.talon", "501.yaml"):
        shutil.copy(ROOT / "specs" / f, tmp_path / f)
    spec = tmp_path / "501.talon"
    before = spec.read_text(encoding="utf-8")
    assert explain_main([str(spec), "--out", str(spec)]) == 2
    assert spec.read_text(encoding="utf-8") == before
    assert "spec being run" in capsys.readouterr().err


def test_a_broken_spec_is_one_line(tmp_path, capsys):
    p = tmp_path / "bad.talon"
    p.write_text('game bad "Bad"\ntables "bad.yaml"\n\nplayers:\n  seats: 9 seats\n', encoding="utf-8")
    assert explain_main([str(p)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("talon explain: ") and err.count("\n") == 1


# ------------------------------------------------------------------ the generated pages
def test_the_generated_pages_are_up_to_date():
    run = subprocess.run([sys.executable, str(ROOT / "tools/gen_rules.py"), "--check"], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_check_finds_a_stale_page(tmp_path, monkeypatch):
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import gen_rules
    finally:
        sys.path.remove(str(ROOT / "tools"))
    monkeypatch.setattr(gen_rules, "bundled_names", lambda: ["501", "501-no-blind"])
    assert gen_rules.main(["--out", str(tmp_path)]) == 0
    assert gen_rules.main(["--check", "--out", str(tmp_path)]) == 0
    (tmp_path / "501.md").write_text("old\n", encoding="utf-8")
    assert gen_rules.main(["--check", "--out", str(tmp_path)]) == 1
