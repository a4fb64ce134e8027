"""The further house rules of docs/rules/house-rules.md ("Further house rules") as variant
specs: each validates, names its base, and a hand record in tests/records/variants tells it
apart from its base exactly as the house rule says. Every expected number below is worked
out by hand in the comments of the record it checks."""
import copy
import random
from pathlib import Path

import pytest

from talon_cards.errors import IllegalAction, RecordError
from talon_cards.records import read_record_file, replay_record
from talon_cards.spec import load

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "tests" / "records" / "variants"

VARIANTS = {
    "501-trump-to-win": "501", "501-opener-bids": "501", "501-sitter-scores-talon": "501",
    "501-same-dealer": "501", "whist-honours": "whist", "whist-seven": "whist",
    "oh-hell-up-and-down": "oh-hell", "oh-hell-per-trick": "oh-hell",
    "hearts-omnibus": "hearts", "hearts-queen-breaks": "hearts",
    "tysyacha-free-bids": "tysyacha", "tysyacha-900": "tysyacha",
    "sixty-six-no-last-trick": "sixty-six",
}


def record(name):
    return read_record_file(str(RECORDS / f"{name}.yaml"))[0]


def replay(name, spec, rec=None):
    return replay_record(copy.deepcopy(rec or record(name)), spec_override=spec).to_json()


def with_actions(name, actions):
    rec = copy.deepcopy(record(name))
    rec["actions"] = actions
    return rec


def first_deals(name, k, **changes):
    """The record cut to its first k deals (a game record stays one)."""
    rec = copy.deepcopy(record(name))
    rec["deals"] = rec["deals"][:k]
    rec.update(changes)
    return rec


def one_deal(name, i, **keys):
    """Deal i (0-based) of a game record as a one-deal record."""
    rec = copy.deepcopy(record(name))
    out = {"spec": rec["spec"], "seats": rec["seats"], **copy.deepcopy(rec["deals"][i])}
    out.update(keys)
    return out


def deal_deltas(out):
    return [d["deltas"] for d in out["deals"]]


def sides(ac, bd):
    return {"A": ac, "B": bd, "C": ac, "D": bd}


# ------------------------------------------------------------------ every variant
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_variant_is_small_and_names_its_base(name):
    path = ROOT / "specs" / f"{name}.talon"
    lines = [ln for ln in path.read_text().splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    assert lines[0].startswith(f"variant {name}")
    assert lines[1] == f"extends {VARIANTS[name]}"
    assert len(lines) <= 10, "a house rule should take a handful of lines"
    game = load(name)
    assert game.name == name


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_record_deals_every_card_once(name):
    rec = record(name)
    game = load(name)
    deck = sorted(range(game.n_cards))
    for k, deal in enumerate(rec.get("deals", [rec])):
        cards = [c for hand in deal["hands"].values() for c in hand]
        cards += list(deal.get("talon") or []) + list(deal.get("stock") or [])
        assert sorted(game.parse_card(str(c)) for c in cards) == deck, f"deal {k + 1}"


# ------------------------------------------------------------------ 501
def test_trump_to_win_lets_a_seat_with_no_winning_trump_discard():
    with pytest.raises(IllegalAction) as e:
        replay("501-trump-to-win", "501")
    assert e.value.index == 13 and e.value.action == "B play 9C"
    assert "must play a trump" in e.value.reason and "must-trump" in e.value.reason
    assert sorted(e.value.legal) == ["B play JH", "B play QH"]
    out = replay("501-trump-to-win", "501-trump-to-win")
    assert out["deals"][0]["result"] == "failed"
    assert out["deals"][0]["card_points"] == {"A": 14, "B": 80, "C": 26}
    assert out["deltas"] == {"A": 70, "B": -100, "C": -46}
    assert out["scores"] == {"A": 571, "B": 401, "C": 455}


def test_trump_to_win_requires_the_trump_that_wins():
    # trick 1: A AS, B KH, then C (void in spades, holding AH and 9H) plays 9H
    rec = with_actions("501-trump-to-win", record("501-trump-to-win")["actions"][:9] + ["C play 9H"])
    base = replay("501-trump-to-win", "501", rec)
    assert not base["complete"] and base["turn"] == "B"      # KH wins the trick; B leads
    with pytest.raises(IllegalAction) as e:
        replay("501-trump-to-win", "501-trump-to-win", rec)
    assert e.value.index == 10 and "trump that beats the trick" in e.value.reason
    assert "must-trump" in e.value.reason and "house" in e.value.reason
    assert e.value.legal == ["C play AH"]


def test_opener_bids_refuses_the_openers_first_pass():
    base = replay("501-opener-bids", "501")
    assert base["deals"][0]["result"] == "annulled"
    assert base["deltas"] == {"A": 0, "B": 0, "C": 0}
    assert base["scores"] == {"A": 501, "B": 501, "C": 501}
    with pytest.raises(IllegalAction) as e:
        replay("501-opener-bids", "501-opener-bids")
    assert e.value.index == 1 and e.value.action == "A pass"
    assert "opener may not pass" in e.value.reason and "opener-bids" in e.value.reason
    assert not any(a.startswith("A pass") for a in e.value.legal)
    assert any(a.startswith("A bid 66") and " blind" in a for a in e.value.legal)
    assert any(a.startswith("A bid 66") and " blind" not in a for a in e.value.legal)


def test_opener_bids_binds_only_the_first_turn():
    rec = with_actions("501-opener-bids", ["A bid 66 blind", "B bid 70", "C pass", "A pass"])
    for spec in ("501", "501-opener-bids"):
        out = replay("501-opener-bids", spec, rec)
        assert not out["complete"] and out["deals"][0]["declarer"] == "B" and out["deals"][0]["bid"] == 70


def test_sitter_scores_the_talon_of_played_and_abandoned_deals():
    base = replay("501-sitter-scores-talon", "501")
    var = replay("501-sitter-scores-talon", "501-sitter-scores-talon")
    assert [d["dealer"] for d in var["deals"]] == ["D", "A", "B"]
    assert [d["result"] for d in var["deals"]] == ["failed", "annulled", "abandoned"]
    assert deal_deltas(base) == [{"A": 200, "B": -32, "C": -20, "D": 0},
                                 {"A": 0, "B": 0, "C": 0, "D": 0},
                                 {"A": -25, "B": 0, "C": 66, "D": -25}]
    assert deal_deltas(var) == [{"A": 200, "B": -32, "C": -20, "D": -7},   # talon QS JS JD
                                {"A": 0, "B": 0, "C": 0, "D": 0},          # annulled: nothing
                                {"A": -25, "B": -13, "C": 66, "D": -25}]   # talon 10D QH 9S
    assert base["scores"] == {"A": 676, "B": 469, "C": 547, "D": 476}
    assert var["scores"] == {"A": 676, "B": 456, "C": 547, "D": 469}


def test_same_dealer_deals_again_after_all_pass():
    with pytest.raises(RecordError) as e:
        replay("501-same-dealer", "501")
    assert "deal 2" in str(e.value) and "dealer should be A" in str(e.value)
    res = replay_record(copy.deepcopy(record("501-same-dealer")), spec_override="501-same-dealer")
    out = res.to_json()
    assert [d["dealer"] for d in out["deals"]] == ["C", "C", "A"]
    assert [d["result"] for d in out["deals"]] == ["annulled", "abandoned", "annulled"]
    assert out["deltas"] == {"A": 66, "B": -25, "C": -25}
    assert out["scores"] == {"A": 567, "B": 476, "C": 476}
    assert res.seats[res.match.dealer] == "A"     # deal 3 (A's) was annulled: A again


def test_same_dealer_next_dealer_after_an_annulled_deal():
    rec = first_deals("501-same-dealer", 1)
    base = replay_record(copy.deepcopy(rec), spec_override="501")
    var = replay_record(copy.deepcopy(rec), spec_override="501-same-dealer")
    assert base.to_json()["deals"][0]["result"] == var.to_json()["deals"][0]["result"] == "annulled"
    assert base.seats[base.match.dealer] == "A"   # R501-4: the deal passes left
    assert var.seats[var.match.dealer] == "C"     # house rule 16: the same dealer
    rec = first_deals("501-same-dealer", 2)       # after a deal that is not annulled: left
    var = replay_record(copy.deepcopy(rec), spec_override="501-same-dealer")
    assert var.seats[var.match.dealer] == "A"


# ------------------------------------------------------------------ whist
def test_whist_honours_are_scored():
    base = replay("whist-honours", "whist")
    var = replay("whist-honours", "whist-honours")
    assert [d["tricks"] for d in base["deals"]] == [d["tricks"] for d in var["deals"]]
    assert deal_deltas(base) == [sides(3, 0), sides(1, 0)]
    assert base["scores"] == sides(4, 0) and not base["game_over"] and base["winners"] == []
    # deal 1: B-D's four honours score 4; deal 2: A-C's three score 2 (A-C began it at 3)
    assert deal_deltas(var) == [sides(3, 4), sides(3, 0)]
    assert var["scores"] == sides(6, 4)
    assert var["game_over"] and var["winners"] == ["A", "C"]


def test_whist_honours_none_for_a_side_one_short():
    rec = one_deal("whist-honours", 0, scores=sides(0, 4))
    for spec in ("whist", "whist-honours"):
        out = replay("whist-honours", spec, rec)
        assert out["deltas"] == sides(3, 0) and out["scores"] == sides(3, 4) and not out["game_over"]


def test_whist_honours_none_when_the_tricks_end_the_game():
    rec = one_deal("whist-honours", 0, scores=sides(2, 0))   # A-C's 3 odd tricks make 5
    base = replay("whist-honours", "whist", rec)
    assert base["scores"] == sides(5, 0) and base["game_over"] and base["winners"] == ["A", "C"]
    var = replay("whist-honours", "whist-honours", rec)
    assert var["deltas"] == sides(3, 0)
    assert var["scores"] == sides(5, 0) and var["game_over"] and var["winners"] == ["A", "C"]


def test_whist_honours_can_win_the_game():
    rec = one_deal("whist-honours", 0, scores=sides(1, 3))   # B-D at 3 are not one short
    assert replay("whist-honours", "whist", rec)["scores"] == sides(4, 3)
    var = replay("whist-honours", "whist-honours", rec)
    assert var["scores"] == sides(4, 7) and var["game_over"] and var["winners"] == ["B", "D"]


def test_whist_seven_plays_on_past_five():
    with pytest.raises(RecordError) as e:
        replay("whist-seven", "whist")
    assert "deal 2" in str(e.value) and "already ended after deal 1" in str(e.value)
    base = replay("whist-seven", "whist", first_deals("whist-seven", 1))
    assert base["scores"] == sides(6, 0) and base["game_over"] and base["winners"] == ["A", "C"]
    var1 = replay("whist-seven", "whist-seven", first_deals("whist-seven", 1))
    assert var1["scores"] == sides(6, 0) and not var1["game_over"] and var1["winners"] == []
    var = replay("whist-seven", "whist-seven")
    assert deal_deltas(var) == [sides(3, 0), sides(1, 0)]
    assert var["scores"] == sides(7, 0) and var["game_over"] and var["winners"] == ["A", "C"]


# ------------------------------------------------------------------ Oh Hell
def test_up_and_down_deal_eleven_has_two_cards():
    rec = record("oh-hell-up-and-down")
    assert all(len(h) == 2 for h in rec["deals"][1]["hands"].values())
    with pytest.raises(RecordError) as e:
        replay("oh-hell-up-and-down", "oh-hell")
    assert "deal 2" in str(e.value) and "already ended after deal 1" in str(e.value)
    base = replay("oh-hell-up-and-down", "oh-hell", first_deals("oh-hell-up-and-down", 1))
    assert base["scores"] == {"A": 50, "B": 46, "C": 62, "D": 28}
    assert base["game_over"] and base["winners"] == ["C"]         # deal 10 = F ends it
    var = replay("oh-hell-up-and-down", "oh-hell-up-and-down")
    assert deal_deltas(var) == [{"A": 10, "B": 11, "C": 10, "D": 0},
                                {"A": 0, "B": 11, "C": 11, "D": 10}]
    assert var["deltas"] == {"A": 10, "B": 22, "C": 21, "D": 10}
    assert var["scores"] == {"A": 50, "B": 57, "C": 73, "D": 38}
    assert not var["game_over"] and var["winners"] == []


def test_up_and_down_deal_eleven_alone():
    rec = one_deal("oh-hell-up-and-down", 1, deal_number=11,
                   scores={"A": 50, "B": 46, "C": 62, "D": 28})
    with pytest.raises(RecordError) as e:          # the base game ended after deal 10
        replay("oh-hell-up-and-down", "oh-hell", rec)
    assert "already over" in str(e.value) and "10 deals played" in str(e.value)   # ROH-15, ROH-17
    var = replay("oh-hell-up-and-down", "oh-hell-up-and-down", rec)
    assert var["deltas"] == {"A": 0, "B": 11, "C": 11, "D": 10} and not var["game_over"]


def _hand_sizes_and_ends(spec, first_deal, count):
    """Play `count` deals with 4 seats from deal `first_deal` (random cards, first legal
    action): each deal's hand size and whether the game was over after it."""
    from talon_cards.engine import Match
    game = load(spec)
    match = Match(game, 4, 0)
    match.deals_played = first_deal - 1
    out = []
    for k in range(count):
        deal = match.new_deal()
        deal.deal_random(random.Random(k))
        sizes = {bin(deal.dealt[s]).count("1") for s in deal.active}
        while not deal.is_terminal():
            deal.apply_action(deal.legal_actions()[0])
        match.finish(deal)
        out.append((sizes, match.game_over))
    return out


def test_up_and_down_ends_after_two_f_minus_one_deals():
    # F = 10 with 4 seats: deals 18 and 19 give |10 - 18| + 1 = 9 and 10 cards; 19 = 2F - 1
    assert _hand_sizes_and_ends("oh-hell-up-and-down", 18, 2) == [({9}, False), ({10}, True)]
    assert _hand_sizes_and_ends("oh-hell-up-and-down", 9, 3) == [({2}, False), ({1}, False), ({2}, False)]
    assert _hand_sizes_and_ends("oh-hell", 9, 2) == [({2}, False), ({1}, True)]


def test_per_trick_scores_tricks_plus_ten_for_an_exact_bid():
    base = replay("oh-hell-per-trick", "oh-hell")
    var = replay("oh-hell-per-trick", "oh-hell-per-trick")
    assert base["deals"][0]["tricks"] == var["deals"][0]["tricks"] == {"A": 1, "B": 2, "C": 1, "D": 0}
    assert base["deals"][0]["bids"] == {"A": 2, "B": 1, "C": 1, "D": 1}
    assert base["deltas"] == {"A": 0, "B": 0, "C": 11, "D": 0}
    assert var["deltas"] == {"A": 1, "B": 2, "C": 11, "D": 0}
    assert base["scores"] == {"A": 20, "B": 15, "C": 42, "D": 12}
    assert var["scores"] == {"A": 21, "B": 17, "C": 42, "D": 12}


# ------------------------------------------------------------------ Hearts
def test_omnibus_jack_of_diamonds_counts_minus_ten():
    base = replay("hearts-omnibus", "hearts")
    var = replay("hearts-omnibus", "hearts-omnibus")
    assert deal_deltas(base) == [{"A": 1, "B": 14, "C": 0, "D": 11},
                                 {"A": 26, "B": 0, "C": 26, "D": 26}]
    # deal 11: D took JD with 11 points; deal 12: B shot the moon and took JD too
    assert deal_deltas(var) == [{"A": 1, "B": 14, "C": 0, "D": 1},
                                {"A": 26, "B": -10, "C": 26, "D": 26}]
    assert base["scores"] == {"A": 37, "B": 34, "C": 56, "D": 77}
    assert var["scores"] == {"A": 37, "B": 24, "C": 56, "D": 67}
    assert not base["game_over"] and not var["game_over"]


def test_a_card_of_a_number_rank_can_be_named_in_a_variant(tmp_path):
    # `10D`, `2C`: a card whose rank is a number is a card in a table edit and in a
    # formula, as `JD` is (the lexer read `10` as a number and refused the `D` after it)
    spec = tmp_path / "hearts-ten-of-diamonds.talon"
    spec.write_text(
        'variant hearts-ten-of-diamonds "Hearts, the ten of diamonds"\n'
        "extends hearts\n\ntables:\n  set points 10D to -10\n\nscoring:\n"
        "  add clubs-two [house]: let two led = 2C played\n"
        "  replace deal-score [house]: each seat scores (0 if shooter else moon-points)"
        " - 10 * 10D taken by seat if shot else points\n", encoding="utf-8")
    game = load(str(spec))
    assert game.card_points[game.card_by_name["10D"]] == -10
    # D takes JD 10D 9D 8D in deal 11; B takes A's 10D in the last trick of its moon
    var = replay("hearts-omnibus", str(spec))
    assert deal_deltas(var) == [{"A": 1, "B": 14, "C": 0, "D": 1},
                                {"A": 26, "B": -10, "C": 26, "D": 26}]


def _first_trick_legal(spec, hands, seat):
    """The legal plays of `seat` to the first trick of a hold deal (deal 4, dealer D)
    with the given hands, after the seats before it have played their first cards."""
    from talon_cards.api import Table
    h = Table(spec, "ABCD").deal(dealer="D", hands={s: cs.split() for s, cs in hands.items()},
                                 deal_number=4)
    while h.turn != seat:
        h.act(h.legal()[0])
    return sorted(a.split()[2] for a in h.legal())


CLUBS = "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C"


@pytest.mark.parametrize("spec", ["hearts", "hearts-omnibus"])
def test_RH_9_omnibus_the_jack_of_diamonds_is_no_point_card_on_the_first_trick(spec):
    # RH-9 keeps hearts and the QS off the first trick; the house rule only makes the JD
    # count -10 to its taker, so the JD is a card that is "neither" like any other.
    # A holds every club and leads 2C; B, C and D are void in clubs.
    # B: JD and spades: the JD may be played (it is no heart and not the QS).
    hands = {"A": CLUBS, "B": "JD AS KS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S",
             "C": "QS AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H",
             "D": "2H AD KD QD 10D 9D 8D 7D 6D 5D 4D 3D 2D"}
    assert _first_trick_legal(spec, hands, "B") == sorted(hands["B"].split())
    # C: only hearts and the QS: any of them (RH-9 [decision]); D: not its 2H
    assert _first_trick_legal(spec, hands, "C") == sorted(hands["C"].split())
    assert _first_trick_legal(spec, hands, "D") == sorted(hands["D"].split()[1:])
    # B: JD and twelve hearts: the JD is its only card that is neither, so it must play it
    hands = {"A": CLUBS, "B": "JD AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H",
             "C": "2H QS AS KS JS 10S 9S 8S 7S 6S 5S 4S 3S",
             "D": "2S AD KD QD 10D 9D 8D 7D 6D 5D 4D 3D 2D"}
    assert _first_trick_legal(spec, hands, "B") == ["JD"]


def test_queen_of_spades_breaks_hearts():
    with pytest.raises(IllegalAction) as e:
        replay("hearts-queen-breaks", "hearts")
    assert e.value.index == 9 and e.value.action == "C play 5H"
    assert "may not lead a heart" in e.value.reason and "no-heart-lead" in e.value.reason
    assert "C play 5H" not in e.value.legal and "C play 7S" in e.value.legal
    out = replay("hearts-queen-breaks", "hearts-queen-breaks")
    assert out["deltas"] == {"A": 4, "B": 9, "C": 13, "D": 0}
    assert out["scores"] == {"A": 24, "B": 39, "C": 53, "D": 50}
    assert not out["game_over"]


def test_queen_breaks_hearts_only_once_played():
    # before the queen is played (trick 2, C on lead) a heart lead is refused in both
    acts = record("hearts-queen-breaks")["actions"][:4] + ["C play 5H"]
    for spec in ("hearts", "hearts-queen-breaks"):
        with pytest.raises(IllegalAction) as e:
            replay("hearts-queen-breaks", spec, with_actions("hearts-queen-breaks", acts))
        assert e.value.index == 5 and "may not lead a heart" in e.value.reason


# ------------------------------------------------------------------ Tysyacha
def test_free_bids_need_no_marriage_above_120():
    with pytest.raises(IllegalAction) as e:
        replay("tysyacha-free-bids", "tysyacha")
    assert e.value.index == 2 and e.value.action == "B bid 125"
    assert "marriage" in e.value.reason and "marriage-bid" in e.value.reason
    out = replay("tysyacha-free-bids", "tysyacha-free-bids")
    d = out["deals"][0]
    assert d["declarer"] == "B" and d["bid"] == 125 and d["result"] == "made"
    assert d["card_points"]["B"] == 120 and d["points"]["B"] == 220
    assert out["deltas"] == {"A": 0, "B": 125, "C": 0}


def test_free_bids_leave_bids_up_to_120_alone():
    acts = ["A bid 100", "B bid 120", "C pass", "A pass"]
    for spec in ("tysyacha", "tysyacha-free-bids"):
        out = replay("tysyacha-free-bids", spec, with_actions("tysyacha-free-bids", acts))
        assert not out["complete"] and out["deals"][0]["bid"] == 120


def test_tysyacha_900_barrel_and_no_bolts():
    base = replay("tysyacha-900", "tysyacha")
    var = replay("tysyacha-900", "tysyacha-900")
    assert [d["result"] for d in var["deals"]] == ["made"] * 3
    # tysyacha: B 530 -> 650 -> 770 -> 890, put on the barrel at 880; A and C, 0 three
    # times, pay 120 for the third bolt
    assert deal_deltas(base) == [{"A": 0, "B": 120, "C": 0}, {"A": 0, "B": 120, "C": 0},
                                 {"A": -120, "B": 110, "C": -120}]
    assert base["scores"] == {"A": -20, "B": 880, "C": 80}
    # tysyacha-900: 890 is below the barrel; no bolts
    assert deal_deltas(var) == [{"A": 0, "B": 120, "C": 0}] * 3
    assert var["scores"] == {"A": 100, "B": 890, "C": 200}
    assert not base["game_over"] and not var["game_over"]


def test_R1000_22_tysyacha_900_any_made_contract_leaves_the_barrel_at_1000_or_more():
    # R1000-22: on the barrel the score stays put only for a made contract that "stays
    # below 1000"; with the barrel at 900 a made 110 reaches 1010, leaves it and wins
    # (R1000-22 (i), R1000-24). At 880 the same 110 stays below 1000 (one under 120).
    name = "tysyacha-900-barrel-exit"
    rec = read_record_file(str(RECORDS / f"{name}.yaml"))[0]
    base = replay(name, "tysyacha", rec)
    var = replay(name, "tysyacha-900", rec)
    assert deal_deltas(base) == [{"A": 10, "B": 60, "C": -100}, {"A": 0, "B": 0, "C": 110}]
    assert base["scores"] == {"A": 880, "B": 360, "C": 410} and not base["game_over"]
    assert deal_deltas(var) == [{"A": 30, "B": 60, "C": -100}, {"A": 110, "B": 0, "C": 110}]
    assert var["scores"] == {"A": 1010, "B": 360, "C": 410}
    assert var["game_over"] and var["winners"] == ["A"]
    # a failed contract still leaves the barrel at 900 minus the contract (R1000-22 (ii))
    failed = copy.deepcopy(rec)
    failed["deals"][1]["actions"][7] = "A contract 250"
    out = replay(name, "tysyacha-900", failed)
    assert deal_deltas(out)[1] == {"A": -250, "B": 0, "C": 110}
    assert out["scores"]["A"] == 650 and not out["game_over"]


# ------------------------------------------------------------------ Sixty-six
def test_no_last_trick_bonus():
    base = replay("sixty-six-no-last-trick", "sixty-six")["deals"][0]
    var = replay("sixty-six-no-last-trick", "sixty-six-no-last-trick")["deals"][0]
    assert base["card_points"] == var["card_points"] == {"A": 65, "B": 55}
    assert base["points"] == {"A": 65, "B": 65}          # B's 55 + 10 for the twelfth trick
    assert var["points"] == {"A": 65, "B": 55}           # no bonus
    # B, the winner of the last trick, wins the deal in both; A's 65 >= 33: 1 game point
    assert base["deltas"] == var["deltas"] == {"A": 0, "B": 1}
    assert base["scores"] == var["scores"] == {"A": 2, "B": 4}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_variant_simulates(name):
    from talon_cards.simulate import simulate
    game = load(name)
    stats = simulate(game, 60, 7, game.seat_counts[0], progress=False)
    assert stats.deals == 60
