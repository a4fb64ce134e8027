"""Regression tests for the hostile-input findings that live in the rule language and
the engine (S1-S6, D01-D04, D14), written against the language as it stands: every spec
that validates plays, and its cost is bounded by the spec's size, not by its numbers.
Each test is bounded in time (a few seconds at most)."""
from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from talon_cards.agents import RandomAgent, play_deal
from talon_cards.engine import Match
from talon_cards.errors import Collector
from talon_cards.spec import check, load

ROOT = Path(__file__).resolve().parent.parent
TINY = (ROOT / "tests" / "broken" / "_valid" / "tiny.talon").read_text(encoding="utf-8")
TINY_YAML = (ROOT / "tests" / "broken" / "_valid" / "tiny.yaml").read_text(encoding="utf-8")


def write(tmp_path, text, name="spec.talon"):
    (tmp_path / "tiny.yaml").write_text(TINY_YAML, encoding="utf-8")
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def diagnose(path):
    out = Collector()
    game = check(path, out)
    return game, [d.message for d in out.errors]


def play(game, deals=20, seats=None):
    seats = seats or game.seat_counts[-1]
    rng = random.Random(1)
    m = Match(game, seats, 0)
    for _ in range(deals):
        if m.game_over:
            m = Match(game, seats, 0)
        d = m.new_deal()
        d.deal_random(rng)
        play_deal(d, RandomAgent(rng))
        m.finish(d)
    return m


def test_S1_a_set_value_with_aliases_is_refused_at_once(tmp_path):
    levels = ", ".join(f"{c}: &{c} [" + ", ".join([f"*{p}"] * 9) + "]" for p, c in zip("abcdefg", "bcdefgh"))
    text = ('variant bomb "bomb"\nextends 501\n\ntables:\n'
            f"  set values marriage-plain to {{a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1], {levels}}}\n")
    t = time.process_time()
    game, errors = diagnose(write(tmp_path, text))
    assert time.process_time() - t < 5
    assert game is None and len(errors) == 1 and "aliases" in errors[0]


def test_S2_nested_quantifiers_are_refused_and_short_circuit(tmp_path):
    deep = "any seat has " * 30 + "tricks of seat > 99"
    game, errors = diagnose(write(tmp_path, TINY.replace("result: each seat scores tricks of seat",
                                                         f"result: each seat scores 1 if {deep} else 0")))
    assert game is None and any("too many times" in e for e in errors)
    # a few levels are fine, and short-circuit: the first seat that has it ends the search
    shallow = "any seat has " * 3 + "tricks of seat >= 0"
    game, errors = diagnose(write(tmp_path, TINY.replace("result: each seat scores tricks of seat",
                                                         f"result: each seat scores 1 if {shallow} else 0")))
    assert game is not None, errors
    t = time.process_time()
    m = play(game)
    assert time.process_time() - t < 5 and m.deals_played


def test_S3_let_values_in_scoring_are_worked_out_once(tmp_path):
    lets = "\n".join(["  a0: let a0 = tricks of seat"] +
                     [f"  a{i}: let a{i} = a{i - 1} + a{i - 1}" for i in range(1, 61)])
    text = TINY.replace("scoring:\n  result: each seat scores tricks of seat",
                        f"scoring:\n{lets}\n  result: each seat scores a60 / 999999999")
    game, errors = diagnose(write(tmp_path, text))
    assert game is not None, errors
    t = time.process_time()
    play(game, deals=5)
    assert time.process_time() - t < 5
    # inline lets outside the scoring section are costed like any formula
    inline = "\n".join(["  b0: let b0 = tricks played"] +
                       [f"  b{i}: let b{i} = b{i - 1} + b{i - 1}" for i in range(1, 40)])
    text = TINY.replace("play:\n", f"play:\n{inline}\n  ended: the deal ends at once when b39 < 0\n")
    game, errors = diagnose(write(tmp_path, text))
    assert game is None and any("too many times" in e for e in errors)


def test_S4_rounds_of_no_cards_and_huge_counts_are_refused(tmp_path):
    game, errors = diagnose(write(tmp_path, TINY.replace(
        "  rounds: 2 rounds of 4 cards to each seat",
        "  rounds: 2 rounds of 4 cards to each seat\n  empty: 100000000000 rounds of 0 cards to each seat")))
    assert game is None
    assert any("too large" in e for e in errors) and any("deals nothing" in e for e in errors)
    game, errors = diagnose(write(tmp_path, TINY.replace(
        "  rounds: 2 rounds of 4 cards to each seat",
        "  rounds: 2 rounds of 4 cards to each seat\n  empty: 10000000 rounds of 0 cards to each seat")))
    assert game is None and any("deals nothing" in e for e in errors)


def test_S5_a_leader_who_sits_out_is_skipped(tmp_path):
    path = write(tmp_path, 'variant dealer-leads "dealer leads"\nextends 501\n\nplay:\n'
                           "  replace first-lead: the dealer leads the first trick\n")
    game, errors = diagnose(path)
    assert game is not None, errors
    t = time.process_time()
    m = play(game, deals=40, seats=4)
    assert time.process_time() - t < 5 and m.deals_played == 40


def test_S6_numbers_are_bounded_and_bid_lists_are_ranges(tmp_path):
    points = (ROOT / "tests" / "broken" / "_valid" / "points.talon").read_text(encoding="utf-8")
    (tmp_path / "points.yaml").write_text((ROOT / "tests" / "broken" / "_valid" / "points.yaml").read_text())
    big = tmp_path / "big.talon"
    big.write_text(points.replace("a pair is worth 20", "a pair is worth 1000000000"))
    game, errors = diagnose(str(big))
    assert game is None and any("too large" in e for e in errors)
    big.write_text(points.replace("a pair is worth 20", "a pair is worth 999999999"))
    game, errors = diagnose(str(big))
    assert game is not None, errors
    d = game.new_deal(game.seat_counts[0], 0)
    d.deal_random(random.Random(2))
    t = time.process_time()
    acts = d.legal_actions()
    assert time.process_time() - t < 1 and len(acts) < 10_000
    # any number above the listed ones is still a legal bid
    assert d.is_legal(d.codec.number_bid(500_000_000), d.turn)


def test_D01_huge_literals_are_located_errors(tmp_path):
    game, errors = diagnose(write(tmp_path, TINY.replace("each seat starts at 0", "each seat starts at " + "9" * 5000)))
    assert game is None and errors == [errors[0]] and "too large" in errors[0]
    (tmp_path / "t5000.yaml").write_text(TINY_YAML + "values: {big: " + "9" * 5000 + "}\n")
    p = tmp_path / "t.talon"
    p.write_text(TINY.replace('tables "tiny.yaml"', 'tables "t5000.yaml"'))
    out = Collector()
    assert check(str(p), out) is None
    assert out.errors[0].location.line == 4 and "too large" in out.errors[0].message
    deep = "[" * 3000 + "]" * 3000
    game, errors = diagnose(write(tmp_path, 'variant d "d"\nextends 501\n\ntables:\n'
                                  f"  set values marriage-plain to {{a: {deep}}}\n"))
    assert game is None and any("nested too deeply" in e for e in errors)


@pytest.mark.parametrize("change", [
    ("each seat starts at 0", "each seat starts at none"),
    ("result: each seat scores tricks of seat", "result: each seat scores none"),
    ("result: each seat scores tricks of seat", "result: each seat scores 1 if tricks of seat > 1 else none"),
])
def test_D02_none_where_a_number_is_needed_is_a_type_error(tmp_path, change):
    game, errors = diagnose(write(tmp_path, TINY.replace(*change)))
    assert game is None and any("`none` is not" in e or "nothing" in e for e in errors), errors


def test_D03_trumps_is_none_holds_at_no_trumps(tmp_path):
    path = write(tmp_path, 'variant nt "nt"\nextends 501\n\nscoring:\n'
                           "  add nt-bonus [house]: when trumps is none, the declarer scores 1000\n")
    game = load(path)
    rng = random.Random(5)
    seen = bonus = 0
    for _ in range(600):
        d = game.new_deal(3, 0)
        d.deal_random(rng)
        play_deal(d, RandomAgent(rng))
        if d.declarer >= 0 and not d.abandoned and d.trumps == -1:
            seen += 1
            stake = 2 if d.declarer_blind else 1
            base = -d.contract_value * stake if d.made else d.contract_value * stake
            bonus += d.deltas[d.declarer] == base + 1000
    assert seen > 20 and bonus == seen


def test_D04_every_name_is_defined_in_every_phase(tmp_path):
    path = write(tmp_path, 'variant tl "tl"\nextends 501\n\nscoring:\n'
                           "  add abandon-extra [house]: when abandoned, the declarer scores tricks left\n"
                           "end:\n  replace winners: seats with score <= tricks left, then the lowest score\n")
    game = load(path)
    play(game, deals=300)


def test_D14_division_by_a_literal_zero_is_refused(tmp_path):
    game, errors = diagnose(write(tmp_path, TINY.replace("result: each seat scores tricks of seat",
                                                         "result: each seat scores 10 / 0")))
    assert game is None and errors == ["division by zero"]
    # a divisor that is 0 only at play time gives 0 (docs/language.md says so)
    game = load(write(tmp_path, TINY.replace("result: each seat scores tricks of seat",
                                             "result: each seat scores 10 / (tricks of seat - tricks of seat)")))
    m = play(game, deals=4)
    assert m.scores == [0, 0, 0, 0]


def test_a_rule_made_dead_by_a_removal_is_warned_about():
    """501-no-blind removes blind bidding: the base's `stake` (2 if blind) never changes."""
    out = Collector()
    assert check("501-no-blind", out) is not None
    warnings = [d for d in out.diagnostics if d.severity == "warning"]
    assert any("`blind` never changes" in d.message and d.location.path.endswith("501.talon")
               for d in warnings), [d.message for d in warnings]
    out = Collector()
    check("501", out)
    assert not any("never changes" in d.message for d in out.diagnostics)


def test_a_score_for_the_sitting_out_dealer_aimed_at_each_seat_is_warned_about(tmp_path):
    """`each seat` is the active seats: a dealer who sits out never receives it."""
    p = tmp_path / "sitter.talon"
    p.write_text('variant sitter "sitter"\nextends 501\n\nscoring:\n'
                 "  add sitter [house]: when dealer sits out and seat is dealer, each seat scores 10\n")
    out = Collector()
    assert check(str(p), out) is not None
    assert any("never receives" in d.message for d in out.diagnostics if d.severity == "warning")
    out = Collector()
    assert check("501-sitter-scores-talon", out) is not None
    assert not any("never" in d.message for d in out.diagnostics)


@pytest.mark.parametrize("name", ["../../../../../../etc/passwd", "/etc/hostname", "sub/../../x.yaml",
                                  "keys/id_ed25519"])
def test_D10_tables_stay_in_the_spec_folder_and_are_yaml(tmp_path, name):
    (tmp_path / "keys").mkdir()
    (tmp_path / "keys" / "id_ed25519").write_text("-----BEGIN KEY-----\nSECRET: AAAA\n")
    p = tmp_path / "spec.talon"
    p.write_text(TINY.replace('tables "tiny.yaml"', f'tables "{name}"'))
    out = Collector()
    assert check(str(p), out) is None
    assert len(out.errors) == 1 and out.errors[0].location.path == str(p)
    assert "SECRET" not in out.errors[0].render() and "root:" not in out.errors[0].render()


def test_D10_examples_stay_in_the_spec_folder(tmp_path):
    p = tmp_path / "spec.talon"
    (tmp_path / "tiny.yaml").write_text(TINY_YAML)
    p.write_text(TINY.replace('tables "tiny.yaml"', 'tables "tiny.yaml"\nexamples "/etc"'))
    out = Collector()
    assert check(str(p), out) is None and "outside the spec's folder" in out.errors[0].message


@pytest.mark.parametrize("ref", ["base.talon", '"base.talon"', "my-rules/base", "../base"])
def test_extends_with_a_file_name_or_a_path_says_to_write_the_name(tmp_path, ref):
    # the house-rules guide lets a variant extend another file of yours: it is named as a
    # spec is, without `.talon`; a path or a file name was "unexpected character `.`"
    (tmp_path / "base.talon").write_text('variant base "b"\nextends whist\n')
    p = tmp_path / "child.talon"
    p.write_text(f'variant child "c"\nextends {ref}\n')
    out = Collector()
    assert check(str(p), out) is None
    (err,) = out.errors
    assert err.location.line == 2 and err.location.column == 9
    assert "not a file name or a path" in err.message and "`extends base`" in err.hint
    p.write_text('variant child "c"\nextends base\n')
    out = Collector()
    assert check(str(p), out) is not None and not out.diagnostics


def test_a_file_sharing_a_bundled_name_is_warned_about_when_extended(tmp_path):
    (tmp_path / "whist-seven.talon").write_text(
        'variant whist-seven "mine"\nextends whist\n\ntables:\n  set values game to 9\n')
    p = tmp_path / "mine.talon"
    p.write_text('variant mine "m"\nextends whist-seven\n')
    out = Collector()
    game = check(str(p), out)
    assert game is not None and game.values["game"] == 7        # the bundled whist-seven
    (w,) = out.diagnostics
    assert w.severity == "warning" and "beside this one is not used" in w.message
    assert (w.location.line, w.location.column) == (2, 9)


@pytest.mark.parametrize("section, line, what", [
    ("play", "remove blind-bidding", "removed"),
    ("play", "replace made [house]: the contract is made when points of declarer >= contract + 10",
     "replaced")])
def test_replace_or_remove_under_another_heading_is_warned_about(tmp_path, section, line, what):
    p = tmp_path / "v.talon"
    p.write_text(f'variant v "v"\nextends 501\n\n{section}:\n  {line}\n')
    out = Collector()
    assert check(str(p), out) is not None
    ws = [d for d in out.diagnostics if "heading" in d.hint]
    assert len(ws) == 1 and ws[0].severity == "warning" and ws[0].location.line == 5
    assert f"not `play`: it is {what} all the same" in ws[0].message


@pytest.mark.parametrize("edits, line, words", [
    ("  set ladder solo trumps to banana\n", 5, "`banana` is not a kind of trumps"),
    ("  set ladder solo least to 14\n", 5, "`solo` asks for more tricks"),
    # a removed row no longer shifts the rows after it onto the wrong lines
    ("  remove ladder abundance-in-trumps\n  set ladder misere-ouverte least to 20\n", 6,
     "`misere-ouverte` asks for more tricks")])
def test_a_bad_ladder_edit_is_reported_at_the_variants_own_line(tmp_path, edits, line, words):
    # it was reported at the base's YAML row, which the player did not write
    err = _the_one_error(tmp_path, f'variant v "v"\nextends solo-whist\n\ntables:\n{edits}\n'
                                   'auction:\n  remove royal-overcall\n', line)
    assert words in err.message


def _the_one_error(tmp_path, text: str, line: int):
    """The variant `text` fails to load with one error, at column 7 of `line`."""
    p = tmp_path / "v.talon"
    p.write_text(text)
    out = Collector()
    assert check(str(p), out) is None
    (err,) = out.errors
    assert (err.location.path, err.location.line, err.location.column) == (str(p), line, 7)
    return err


def test_a_second_rule_of_a_kind_added_by_a_variant_names_the_bases_file_and_says_replace(tmp_path):
    # "`first-lead` at line 19 already says it" named a line of a file the player did not write
    p = tmp_path / "v.talon"
    p.write_text('variant v "v"\nextends hearts\n\nplay:\n'
                 "  add x [house]: the holder of the 3C leads it to the first trick\n")
    out = Collector()
    assert check(str(p), out) is None
    (err,) = out.errors
    assert "`first-lead` (line 19 of hearts.talon) already says it" in err.message
    assert err.hint == "write `replace first-lead: …` to change it" and err.location.line == 5


@pytest.mark.parametrize("base, edit, words", [
    ("whist", "set values game to {H: 1}",
     "`game` is set here to one number per suit, but a rule of the base reads it as one number (whist.talon:27"),
    ("501-suit-marriages", "set values marriage-by-suit to 50",
     "`marriage-by-suit` is set here to one number, but a rule of the base reads it as one number per suit "
     "(501-suit-marriages.talon:10")])
def test_a_value_set_to_the_wrong_shape_is_reported_at_the_variants_line(tmp_path, base, edit, words):
    # it was reported at the base's rules (every rule that reads the value), lines the
    # player did not write
    err = _the_one_error(tmp_path, f'variant v "v"\nextends {base}\n\ntables:\n  {edit}\n', 5)
    assert words in err.message
    assert err.hint.startswith("set one number")


@pytest.mark.parametrize("contract, rules", [
    ("abundance-in-trumps", ["royal-overcall"]),        # house rule 11 written as one line
    ("abundance", ["royal-overcall"]),
    ("prop", ["prop-opens", "cop-accepts", "second-chance"]),
])
def test_a_contract_taken_off_the_ladder_that_a_base_rule_names_is_reported_at_the_variants_line(
        tmp_path, contract, rules):
    # it was reported in solo-whist.talon, a file the player did not write, with a hint
    # that suggested editing it (`did you mean abundance?`)
    p = tmp_path / "v.talon"
    p.write_text(f'variant v "v"\nextends solo-whist\n\ntables:\n  remove ladder {contract}\n')
    out = Collector()
    assert check(str(p), out) is None
    assert [e.location.path for e in out.errors] == [str(p)] * len(rules)
    assert {e.location.line for e in out.errors} == {5}
    for err, rule in zip(out.errors, rules):
        assert err.message.startswith(f"`{contract}` is taken off the ladder here, but the rule `{rule}` "
                                      "of solo-whist names it (solo-whist.talon:")
        assert f"`remove {rule}`" in err.hint
    # removing the rule too (as solo-whist-no-royal does) is valid
    if rules == ["royal-overcall"]:
        p.write_text(p.read_text() + "\nauction:\n  remove royal-overcall\n")
        assert check(str(p), Collector()) is not None
