"""One test (or more) per clause of docs/rules/sixty-six.md (R66-1 .. R66-20), named with
the clause id, then property tests over seeded random play.

Deals are built with ``set_cards`` from hand-picked hands and stocks, and driven with
record-style actions. Every expected outcome is worked out by hand from the rules page
(the comments show the arithmetic), never copied from the engine. The property tests
replay random deals against an oracle written here from the rules alone."""
from __future__ import annotations

import copy
import functools
import random
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from talon_cards.engine import CHANCE, TERMINAL, Match
from talon_cards.errors import IllegalAction, RecordError
from talon_cards.records import (apply_actions, check_expectations, read_record_file,
                                 replay_record, replay_result)
from talon_cards.spec import load

ROOT = Path(__file__).resolve().parent.parent
SEATS = ["A", "B"]
IDX = {"A": 0, "B": 1}
POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}      # R66-1
ORDER = ["A", "10", "K", "Q", "J", "9"]                            # R66-1, high to low


@functools.lru_cache(maxsize=None)
def game():
    return load("sixty-six")


# ------------------------------------------------------------------------ helpers
def deal(dealer, a, b, stock, scores=None, deal_number=1):
    """A deal of Sixty-six: `a`, `b` the six cards of A and B, `stock` the twelve undealt
    cards top first (the last one is the turned card, R66-4, R66-19)."""
    g = game()
    st_ = [g.parse_card(c) for c in stock.split()]
    d = g.new_deal(2, IDX[dealer], None if scores is None else [scores["A"], scores["B"]], deal_number)
    d.set_cards({0: [g.parse_card(c) for c in a.split()], 1: [g.parse_card(c) for c in b.split()]},
                [], st_[-1], st_)
    return d


def act(d, *actions):
    apply_actions(d, list(actions), IDX, SEATS)
    return d


def refused(d, action) -> IllegalAction:
    """The action is refused (and the deal is left as it was)."""
    before = (list(d.hands), list(d.stock), list(d.trick), d.turn, d.closed)
    with pytest.raises(IllegalAction) as e:
        act(d, action)
    assert (list(d.hands), list(d.stock), list(d.trick), d.turn, d.closed) == before
    return e.value


def legal(d) -> set:
    """Legal actions of the seat on turn, as record strings."""
    return {d.action_to_string(a, d.turn, SEATS) for a in d.legal_actions()}


def can(d, text) -> bool:
    who, *words = text.split()
    try:
        a = d.parse_action(words, IDX)
    except ValueError:
        return False
    return d.is_legal(a, IDX[who])


def cards(mask) -> set:
    g = game()
    return {g.card_names[c] for c in range(g.n_cards) if mask >> c & 1}


def hand(d, seat) -> set:
    return cards(d.hands[IDX[seat]])


def stock(d) -> list:
    return [game().card_names[c] for c in d.stock]


def plays(*cards_):
    return {f"{p} play {c}" for p, cs in cards_ for c in cs.split()}


# --------------------------------------------------------------------------- deals
# W, the worked example (R66-20): B deals, hearts trumps (QH turned).
W = dict(dealer="B", a="JC AS KH 9H AD 10D", b="AC JS 10H JH 9D KC",
         stock="10C 9S QC KS JD QD KD 10S QS AH 9C QH", scores={"A": 4, "B": 5})
W_TRICKS_1_2 = ("A play JC", "B play AC", "B play JS", "A play AS")

# F, a deal that runs to the twelfth trick (the stock is exhausted, never closed): B deals,
# hearts trumps (9H turned). Worked by hand (leader first; drawn cards winner first):
#  1 A 9C, B AS: no trump, the led card wins: A +11 = 11.  A draws QC, B QS.
#  2 A 10H, B QH: 10 > Q: A +13 = 24.                    A draws KH, B QD.
#  3 A KH, B JC: A +6 = 30.                              A draws 9S, B KC.
#  4 A 9S, B QD: the led card wins: A +3 = 33.           A draws 10S, B 10D.
#  5 A 9D, B 10D: 10 > 9: B +10 = 10.                    B draws AH, A AC.
#  6 B 10C, A KS: B +14 = 24.                            B draws JD, A the turned 9H.
#  7 B AD, A 9H (A has no diamond: must trump): A +11 = 44.
#  8 A JS, B QS (must follow and beat): B +5 = 29.
#  9 B KD, A JH (must trump): A +6 = 50.
# 10 A AC, B KC (must follow): A +15 = 65.
# 11 A QC, B AH (no club: must trump): B +14 = 43.
# 12 B JD, A 10S: B +12 = 55, +10 for the last trick = 65.
F = dict(dealer="B", a="KS JS 10H JH 9D 9C", b="AS QH AD KD 10C JC",
         stock="QC QS KH QD 9S KC 10S 10D AH AC JD 9H")
F_TRICKS = [("A play 9C", "B play AS"), ("A play 10H", "B play QH"), ("A play KH", "B play JC"),
            ("A play 9S", "B play QD"), ("A play 9D", "B play 10D"), ("B play 10C", "A play KS"),
            ("B play AD", "A play 9H"), ("A play JS", "B play QS"), ("B play KD", "A play JH"),
            ("A play AC", "B play KC"), ("A play QC", "B play AH"), ("B play JD", "A play 10S")]

# X, exchange and a waiting marriage: B deals, hearts trumps (AH turned).
#  1 A KS marriage (spades 20: A has no trick, it waits, R66-10), B KH (trump): B +8 = 8.
#    B draws AC, A 10C.
#  2 B 10H, A JH: B +12 = 20.          B draws 9S, A 9H.
#  3 B KC, A QS: B +7 = 27.            B draws JS, A QC.
#  4 B QD, A QH (trump): A +6, and the waiting 20 now counts: 26.   A draws JC, B 9C.
#  lead 5: A exchanges 9H for the face-up AH (stock JD 10D 9D AH: 4 > 2 cards).
#  5 A 10C, B AS: A +21 = 47.          A draws JD, B 10D.
#  6 A JD, B 10D: B +12 = 39.          B draws 9D, A the face-up 9H: stock exhausted.
#  7 B AD, A KD (must follow, cannot beat): B +15 = 54.
#  8 B 9C, A QC (must beat: QC or JC): A +3 = 30 card points + 20 = 50.
#  9 A 10S, B JS (cannot beat: 9S or JS): A +12 = 62.
# 10 A JC, B AC (must beat): B +13 = 67 >= 66: the deal ends. A has 62 >= 33: B scores 1.
X = dict(dealer="B", a="10S KS QS QH JH KD", b="AS 10H KH AD QD KC",
         stock="AC 10C 9S 9H JS QC JC 9C JD 10D 9D AH")
X_TRICKS = [("A play KS marriage", "B play KH"), ("B play 10H", "A play JH"),
            ("B play KC", "A play QS"), ("B play QD", "A play QH"),
            ("A exchange 9H", "A play 10C", "B play AS"), ("A play JD", "B play 10D"),
            ("B play AD", "A play KD"), ("B play 9C", "A play QC"), ("A play 10S", "B play JS"),
            ("A play JC", "B play AC")]

# E, the leader wins tricks 1 to 5 holding the trump nine: B deals, hearts trumps (AH).
#  1 A AS, B 9S: A.  A draws 10C, B KC.   (stock left 10: the lead to trick 2)
#  2 A AD, B JS: A.  A draws QC, B JC.    (8)
#  3 A AC, B JC: A.  A draws 9C, B 10H.   (6)
#  4 A 10S, B KS (10 > K): A.  A draws KH, B QH.  (4)
#  5 A 10D, B KD (10 > K): A.  A draws JH, B 9D.  (2: JD and the face-up AH)
E = dict(dealer="B", a="AS AD AC 10S 10D 9H", b="KS QS JS 9S KD QD",
         stock="10C KC QC JC 9C 10H KH QH JH 9D JD AH")
E_TRICKS = [("A play AS", "B play 9S"), ("A play AD", "B play JS"), ("A play AC", "B play JC"),
            ("A play 10S", "B play KS"), ("A play 10D", "B play KD")]

# S1 / S2: strict play right after A closes on the first lead (B deals, clubs trumps, JC
# turned). Nothing of the stock comes into play.
S1 = dict(dealer="B", a="QH AS 9D KC 10D QD", b="AH JH KS 9S AC 9C",
          stock="10S QS JS 10H KH 9H AD KD JD 10C QC JC")
S2 = dict(dealer="B", a="AC 10C KH QD JS 9S", b="KC 9C AS 10S AD 10D",
          stock="KS QS AH 10H QH JH 9H KD JD 9D QC JC")

# G, a loser's marriage that counts towards its 33 (spades trumps, 9S turned; B deals).
#  1 A JC, B AC: B +13.                         B draws 10H, A JS.
#  2 B KD marriage (diamonds, 20: B has a trick, it counts at once: 13 + 20 = 33),
#    A AD: A +15 = 15.                          A draws 9D, B KH.
#  3 A closes, leads KS marriage (spades are trumps: 40, counts at once): 55.
#    B, with no spade (no trump), plays 9H: A +4 = 59.
#  4 A AS, B 9C: A +11 = 70 >= 66: the deal ends; A closed and made it.
G = dict(dealer="B", a="JC AD AS 10S KS QS", b="AC KD QD 9H 9C JH",
         stock="10H JS 9D KH AH 10D JD 10C KC QC QH 9S")


def _deal(spec, **kw):
    args = {**spec, **kw}
    return deal(args["dealer"], args["a"], args["b"], args["stock"], args.get("scores"),
                args.get("deal_number", 1))


def _run(d, tricks):
    for t in tricks:
        act(d, *t)
    return d


class NoShuffle(random.Random):
    """A 'shuffle' that leaves the deck in order: card int = deck position."""
    def shuffle(self, x):
        pass


# ================================================================ cards and players
def test_R66_1_twenty_four_cards_worth_120():
    g = game()
    assert g.n_cards == 24
    assert list(g.suits) == ["S", "H", "D", "C"]
    assert list(g.ranks) == ORDER
    for c, name in enumerate(g.card_names):
        assert g.card_points[c] == POINTS[name[:-1]], name
    assert sum(g.card_points) == 120                  # 4 x (11 + 10 + 4 + 3 + 2 + 0)
    assert len(set(g.card_names)) == 24


def test_R66_1_rank_order_ace_ten_king_queen_jack_nine():
    d = _deal(F)
    _run(d, F_TRICKS[:5])
    # trick 2: 10H beats QH; trick 5: 10D beats 9D (B's first trick)
    assert d.tricks == [4, 1] and d.card_points == [33, 10]
    d = _deal(W)
    act(d, "A play JC", "B play AC")                   # A beats J: B takes 11 + 2
    assert d.tricks == [0, 1] and d.card_points == [0, 13]
    d = _deal(E)
    _run(d, E_TRICKS[:4])                              # trick 4: 10S beats KS
    assert d.tricks == [4, 0] and d.card_points == [11 + 0 + 11 + 2 + 11 + 2 + 10 + 4, 0]


def test_R66_1_suits_have_no_order():
    # F trick 4: A leads 9S, B throws QD: the higher rank of another (non-trump) suit
    # does not win; F trick 1: the nine of clubs beats the ace of spades.
    d = _deal(F)
    _run(d, F_TRICKS[:1])
    assert d.tricks == [1, 0] and d.card_points == [11, 0]
    _run(d, F_TRICKS[1:4])
    assert d.tricks == [4, 0] and d.card_points == [11 + 13 + 6 + 3, 0]


def test_R66_2_exactly_two_players():
    g = game()
    assert tuple(g.seat_counts) == (2,)
    for n in (1, 3, 4):
        with pytest.raises(ValueError):
            Match(g, n)
    rec = yaml.safe_load((ROOT / "specs/examples/sixty-six/r66-20-worked-example.yaml").read_text())
    rec["seats"] = ["A", "B", "C"]
    with pytest.raises(RecordError):
        replay_record(rec, game=game())


def test_R66_2_game_points_start_at_zero():
    g = game()
    assert g.start_score == 0
    assert Match(g, 2).scores == [0, 0]
    assert g.new_deal(2, 0).scores == [0, 0]


def test_R66_2_game_points_only_go_up():
    # In every deal of a few random games each seat's change is 0 or positive.
    g = game()
    for seed in range(4):
        rng = random.Random(seed)
        m = Match(g, 2, seed % 2)
        while not m.game_over:
            d = m.new_deal()
            d.deal_random(rng)
            before = list(m.scores)
            _random_play(d, rng)
            m.finish(d)
            assert all(d.deltas[s] >= 0 for s in (0, 1))
            assert all(m.scores[s] >= before[s] for s in (0, 1))


# =========================================================================== dealing
def test_R66_3_the_deal_alternates():
    g = game()
    rng = random.Random(3)
    m = Match(g, 2, first_dealer=1)
    dealers = []
    while not m.game_over:
        d = m.new_deal()
        dealers.append(d.dealer)
        d.deal_random(rng)
        _random_play(d, rng)
        m.finish(d)
    assert len(dealers) >= 3
    assert dealers == [(1 + k) % 2 for k in range(len(dealers))]


def test_R66_3_first_dealer_is_drawn_at_random():
    from talon_cards.simulate import simulate
    dealers = set()
    for seed in range(10):
        recs = []
        simulate(game(), 1, seed, 2, recs.append, progress=False)
        dealers.add(recs[0]["dealer"])
    assert len(dealers) == 2


@pytest.mark.parametrize("dealer", [0, 1])
def test_R66_3_the_non_dealer_leads_first(dealer):
    g = game()
    d = g.new_deal(2, dealer)
    assert d.current_player() == CHANCE
    d.deal_random(random.Random(dealer))
    assert d.phase == "play" and d.turn == 1 - dealer


@pytest.mark.parametrize("dealer", [0, 1])
def test_R66_4_packets_of_three_then_the_thirteenth_card_turned(dealer):
    # Deck position p holds card p. Three to the non-dealer (0 1 2), three to the dealer
    # (3 4 5), three more each (6 7 8 / 9 10 11); the 13th card (position 12) is turned and
    # the other eleven (13..23, the top one first) lie on it.
    g = game()
    d = g.new_deal(2, dealer)
    d.deal_random(NoShuffle())
    non = 1 - dealer
    assert sorted(c for c in range(24) if d.hands[non] >> c & 1) == [0, 1, 2, 6, 7, 8]
    assert sorted(c for c in range(24) if d.hands[dealer] >> c & 1) == [3, 4, 5, 9, 10, 11]
    assert d.stock == list(range(13, 24)) + [12]
    assert d.exposed == 12
    assert d.trumps == g.card_suit[12]


@pytest.mark.parametrize("seed", range(5))
def test_R66_4_turned_card_is_the_bottom_of_the_stock_and_sets_trumps(seed):
    g = game()
    d = g.new_deal(2, seed % 2)
    d.deal_random(random.Random(seed))
    assert len(d.stock) == 12 and d.stock[-1] == d.exposed
    assert d.trumps == g.card_suit[d.exposed]
    assert [bin(h).count("1") for h in d.hands] == [6, 6]
    assert d.hands[0] | d.hands[1] | sum(1 << c for c in d.stock) == (1 << 24) - 1


def test_R66_4_trumps_from_the_turned_card():
    assert _deal(W).trumps == 1          # QH: hearts
    assert _deal(S1).trumps == 3         # JC: clubs
    assert _deal(G).trumps == 0          # 9S: spades


def test_R66_4_the_turned_card_must_be_the_last_of_the_stock():
    g = game()
    d = g.new_deal(2, 1)
    st_ = [g.parse_card(c) for c in W["stock"].split()]
    with pytest.raises(ValueError, match="last"):
        d.set_cards({0: [g.parse_card(c) for c in W["a"].split()],
                     1: [g.parse_card(c) for c in W["b"].split()]}, [], st_[0], st_)


# ============================================================= tricks and drawing
def test_R66_5_non_dealer_leads_then_the_winner_leads():
    d = _deal(F)
    leaders = []
    for t in F_TRICKS:
        leaders.append(SEATS[d.turn])
        act(d, *t)
    # winners by hand (see F): A A A A B B A B A A B B; the leader of trick k+1 is the
    # winner of trick k, and A (not dealing) leads trick 1.
    assert leaders == ["A", "A", "A", "A", "A", "B", "B", "A", "B", "A", "A", "B"]
    d = _deal(F, dealer="A", a=F["b"], b=F["a"])           # A deals: B leads
    assert d.turn == 1


def test_R66_5_a_trump_wins_and_without_a_trump_the_led_card():
    d = _deal(W)
    act(d, "A play AD", "B play 10H")                      # 10H is a trump: B
    assert d.tricks == [0, 1] and d.card_points == [0, 21]
    d = _deal(W)
    act(d, "A play AD", "B play KC")                      # off-suit, no trump: AD wins
    assert d.tricks == [1, 0] and d.card_points == [15, 0]
    d = _deal(W)
    act(d, "A play 9H", "B play JH")                      # both trumps: the higher, J
    assert d.tricks == [0, 1] and d.card_points == [0, 2]


def test_R66_6_winner_draws_the_top_card_then_the_loser():
    d = _deal(F)
    act(d, *F_TRICKS[0])                                  # A wins: A draws QC, B QS
    assert hand(d, "A") == {"KS", "JS", "10H", "JH", "9D", "QC"}
    assert hand(d, "B") == {"QH", "AD", "KD", "10C", "JC", "QS"}
    assert stock(d) == "KH QD 9S KC 10S 10D AH AC JD 9H".split()
    _run(d, F_TRICKS[1:5])                                # trick 5 won by B: B draws AH
    assert "AH" in hand(d, "B") and "AC" in hand(d, "A")
    assert [bin(h).count("1") for h in d.hands] == [6, 6]


def test_R66_6_the_loser_of_the_sixth_trick_takes_the_turned_card():
    d = _deal(F)
    _run(d, F_TRICKS[:5])
    assert stock(d) == ["JD", "9H"]
    act(d, *F_TRICKS[5])                                  # B wins: B JD, A the turned 9H
    assert d.stock == []
    assert "9H" in hand(d, "A") and "JD" in hand(d, "B")
    assert [bin(h).count("1") for h in d.hands] == [6, 6]


def test_R66_6_twelve_tricks_when_nothing_stops_the_deal():
    d = _run(_deal(F), F_TRICKS)
    assert d.is_terminal() and sum(d.tricks) == 12
    assert d.tricks == [7, 5]             # A wins tricks 1-4, 7, 9, 10
    assert d.hands == [0, 0] and d.stock == []


def test_R66_6_the_exchanged_nine_is_drawn_last():
    d = _run(_deal(X), X_TRICKS[:4])
    assert stock(d) == ["JD", "10D", "9D", "AH"]
    act(d, "A exchange 9H")
    assert stock(d) == ["JD", "10D", "9D", "9H"]
    act(d, "A play 10C", "B play AS")                     # A wins: A JD, B 10D
    assert stock(d) == ["9D", "9H"]
    act(d, *X_TRICKS[5])                                  # B wins trick 6: B 9D, A 9H
    assert d.stock == [] and "9H" in hand(d, "A") and "9D" in hand(d, "B")


def test_R66_7_open_play_any_card_while_the_stock_is_open():
    d = _deal(S1)
    for lead in ("QH", "AS", "9D", "KC"):
        d = _deal(S1)
        act(d, f"A play {lead}")
        assert legal(d) == plays(("B", "AH JH KS 9S AC 9C"))      # no duty at all
    d = _deal(F)
    _run(d, F_TRICKS[:5])                                 # stock of 2: still open
    act(d, "B play 10C")
    assert legal(d) == plays(("A", "KS JS JH QC 10S AC"))   # A need not follow QC/AC


def test_R66_7_open_play_a_lower_card_of_the_led_suit_and_a_discard():
    d = _deal(F)
    act(d, "A play 9C", "B play AS")                      # a discard, not a trump: A wins
    assert d.tricks == [1, 0]
    d = _deal(W)
    act(d, "A play JC", "B play 9D")       # B holds AC and KC (higher clubs) and trumps
    assert d.tricks == [1, 0] and d.card_points == [2, 0]
    d = _deal(W)
    act(d, "A play KH", "B play JH")       # a lower trump on a trump lead
    assert d.tricks == [1, 0] and d.card_points == [6, 0]


@pytest.mark.parametrize("lead, allowed", [
    ("QH", "AH"),          # B holds AH JH: must follow and beat: AH only
    ("AS", "KS 9S"),       # B holds KS 9S, neither beats AS: any spade
    ("9D", "AC 9C"),       # no diamond: must trump (clubs), either trump
    ("10D", "AC 9C"),
    ("KC", "AC"),          # trumps led: a higher trump (AC), not 9C
    ("QD", "AC 9C"),
])
def test_R66_8_strict_play_after_closing(lead, allowed):
    d = _deal(S1)
    act(d, "A close", f"A play {lead}")
    assert legal(d) == plays(("B", allowed))
    for c in "AH JH KS 9S AC 9C".split():
        if c not in allowed.split():
            e = refused(d, f"B play {c}")
            assert e.index == 1 and "must" in e.reason


def test_R66_8_trumps_led_without_a_higher_trump_any_trump_and_void_any_card():
    d = _deal(S2)
    act(d, "A close", "A play AC")
    assert legal(d) == plays(("B", "KC 9C"))              # cannot beat AC: any trump
    act(d, "B play 9C")                                    # A +11
    act(d, "A play 10C")
    assert legal(d) == plays(("B", "KC"))                 # KC cannot beat 10C: follow
    act(d, "B play KC")                                    # A +14
    act(d, "A play KH")
    assert legal(d) == plays(("B", "AS 10S AD 10D"))      # no heart, no trump: any card
    act(d, "B play AD")
    assert d.tricks == [3, 0] and d.card_points == [11 + 14 + 15, 0]


def test_R66_8_strict_play_after_exhaustion():
    d = _run(_deal(F), F_TRICKS[:6])
    assert d.stock == [] and not d.closed
    act(d, "B play AD")
    assert legal(d) == plays(("A", "9H JH"))              # no diamond: must trump
    assert "must" in refused(d, "A play JS").reason
    act(d, "A play 9H", "A play JS")
    assert legal(d) == plays(("B", "QS"))                 # QS beats JS
    act(d, "B play QS", "B play KD")
    assert legal(d) == plays(("A", "JH"))
    act(d, "A play JH", "A play AC")
    assert legal(d) == plays(("B", "KC"))                 # follow, cannot beat
    act(d, "B play KC", "A play QC")
    assert legal(d) == plays(("B", "AH"))                 # B: AH JD, no club: trump


def test_R66_8_strict_play_from_the_trick_the_closer_leads():
    # The worked example: open play before the close (B may throw anything on JC),
    # strict play from A's closing lead on.
    d = _deal(W)
    act(d, "A play JC")
    assert legal(d) == plays(("B", "AC JS 10H JH 9D KC"))
    act(d, "B play AC", *W_TRICKS_1_2[2:], "A exchange 9H", "A close", "A play KH marriage")
    assert legal(d) == plays(("B", "10H"))                # must beat KH: 10H, not JH
    act(d, "B play 10H", "B play 9D")
    assert legal(d) == plays(("A", "AD 10D"))             # both beat 9D
    act(d, "A play 10D", "A play QH")
    assert legal(d) == plays(("B", "JH"))                 # cannot beat QH: follow


# ======================================================================== marriages
def test_R66_9_marriage_in_trumps_is_40_and_counts_at_once():
    d = _deal(W)
    act(d, *W_TRICKS_1_2, "A exchange 9H", "A close")
    assert {"A play KH marriage", "A play QH marriage"} <= legal(d)
    act(d, "A play KH marriage")
    assert d.points(0) == 13 + 40                         # A has won trick 2
    assert d.melds == [(0, 0, 1, 40)]


def test_R66_9_marriage_in_another_suit_is_20():
    d = _deal(G)
    act(d, "A play JC", "B play AC", "B play KD marriage")
    assert d.points(1) == 13 + 20                         # diamonds are not trumps
    act(d, "A play AD")
    assert d.points(0) == 15 and d.points(1) == 33


def test_R66_9_only_a_lead_can_announce_and_only_with_both_cards():
    d = _deal(G)
    act(d, "A play JC", "B play AC")
    assert "B play KD marriage" in legal(d) and "B play QD marriage" in legal(d)
    assert not can(d, "B play AC marriage") and not can(d, "B play 9H marriage")
    act(d, "B play 9H")                                   # lead without a marriage
    # A holds KS QS but is not leading: it cannot announce with its card
    assert not can(d, "A play KS marriage") and not can(d, "A play QS marriage")
    assert can(d, "A play KS")
    e = refused(d, "A play KS marriage")
    assert "lead" in e.reason


def test_R66_9_a_king_or_queen_may_be_led_without_announcing():
    d = _deal(G)
    act(d, "A play JC", "B play AC", "B play KD", "A play AD")
    assert d.melds == [] and d.points(1) == 13           # no marriage counted
    assert "QD" in hand(d, "B")


def test_R66_9_a_broken_pair_is_gone():
    # W: after the exchange A holds KH and QH; it leads KH without announcing, B throws
    # 9D (open play), A wins (KH is a trump) and leads again: QH alone announces nothing.
    d = _deal(W)
    act(d, *W_TRICKS_1_2, "A exchange 9H", "A play KH", "B play 9D")
    assert SEATS[d.turn] == "A" and "QH" in hand(d, "A")
    assert not any(a.endswith("marriage") for a in legal(d))
    assert "marriage" in refused(d, "A play QH marriage").reason


def test_R66_9_marriages_after_the_stock_is_exhausted():
    # specs/examples/sixty-six/r66-14: B leads KH marriage with an exhausted stock.
    d = deal("B", "AS JH 9H 10D QD AC", "10S QS AH AD KC 9C",
             "QC KD QH 10H 9D JC JS KS 10C JD KH 9S", {"A": 2, "B": 3})
    act(d, "A play 9H", "B play AH", "B play KC marriage", "A play QD", "B play 9C",
        "A play AC", "A play 10H", "B play QC", "A play JS", "B play JC", "A play 10C",
        "B play KS")
    assert d.stock == [] and SEATS[d.turn] == "B"
    assert "B play KH marriage" in legal(d)


def test_R66_9_marriage_after_closing():
    d = _deal(G)
    act(d, "A play JC", "B play AC", "B play KD marriage", "A play AD", "A close")
    assert "A play KS marriage" in legal(d) and "A play QS marriage" in legal(d)


def test_R66_10_announced_before_a_trick_the_marriage_waits():
    d = _deal(X)
    act(d, *X_TRICKS[0])                                  # A: KS marriage, loses
    assert d.melds == [(0, 0, 0, 20)]
    assert d.points(0) == 0 and d.points(1) == 8
    _run(d, X_TRICKS[1:3])
    assert d.points(0) == 0 and d.points(1) == 27         # 8 + 12 + 7
    act(d, *X_TRICKS[3])                                  # A wins QD+QH = 6
    assert d.points(0) == 6 + 20


def test_R66_10_a_marriage_never_counts_without_a_trick():
    # specs/examples/sixty-six/r66-16 (spades trumps): A announces diamonds on the first
    # lead and never wins a trick. B: AS+KD 15, KC marriage 20 + KC 9D 4, QH 9C 3,
    # 10D QD 13, JC KH 6, AC 9H 11 = 52 card points + 20 = 72.
    d = deal("B", "QS JS KD QD 9D 9C", "AS 9S AC KC QC JC",
             "QH KH 10D JD JH 10S 10C 9H AD 10H AH KS", {"A": 3, "B": 4})
    act(d, "A play KD marriage", "B play AS", "B play KC marriage", "A play 9D",
        "B exchange 9S", "B play QH", "A play 9C", "B play 10D", "A play QD", "B play JC",
        "A play KH", "B play AC", "A play 9H")
    assert d.is_terminal()
    assert d.deal_points_of == [0, 72]
    assert d.meld_points_of == [0, 20]                    # A's 20 never counted
    assert d.deltas == [0, 3] and d.scores == [3, 7]      # schwarz (R66-16)


# ====================================================================== trump nine
def test_R66_11_exchange_only_after_a_trick():
    d = _deal(W)
    assert "A exchange 9H" not in legal(d)
    e = refused(d, "A exchange 9H")
    assert e.index == 1
    act(d, *W_TRICKS_1_2)                                 # A wins trick 2
    assert "A exchange 9H" in legal(d)


def test_R66_11_exchange_at_the_leads_to_tricks_2_to_5_only():
    d = _deal(E)
    sizes = []
    for k, t in enumerate(E_TRICKS):
        sizes.append(len(d.stock))
        if k == 0:
            assert not can(d, "A exchange 9H")            # no trick won yet
        else:
            assert can(d, "A exchange 9H"), k + 1         # leads 2..5: 10, 8, 6, 4 cards
        act(d, *t)
    assert sizes == [12, 10, 8, 6, 4]
    assert len(d.stock) == 2 and d.tricks == [5, 0]
    assert "9H" in hand(d, "A")
    assert not can(d, "A exchange 9H")                    # lead 6: 2 cards left
    assert "A close" in legal(d)                          # closing is still allowed


def test_R66_11_the_nine_goes_under_the_stock_and_the_turned_card_into_the_hand():
    d = _run(_deal(E), E_TRICKS[:4])
    act(d, "A exchange 9H")
    assert "AH" in hand(d, "A") and "9H" not in hand(d, "A")
    assert stock(d) == ["JH", "9D", "JD", "9H"]
    assert d.exposed == game().parse_card("9H")
    assert d.trumps == 1                                  # still hearts
    assert SEATS[d.turn] == "A" and d.trick == []         # A still leads
    assert not can(d, "A exchange 9H")                    # nothing more to exchange


def test_R66_11_never_compulsory_and_only_the_nine_of_trumps():
    d = _run(_deal(E), E_TRICKS[:2])
    assert can(d, "A play AC")                            # may lead without exchanging
    assert not can(d, "A exchange 9S") and not can(d, "A exchange AC")
    assert "9" in refused(d, "A exchange 9S").reason


def test_R66_11_only_the_leader_before_leading():
    d = _run(_deal(E), E_TRICKS[:2])
    act(d, "A play AC")
    assert not can(d, "A exchange 9H")
    refused(d, "A exchange 9H")
    # B, who holds no nine and has won no trick, never may
    d = _deal(E)
    assert not can(d, "B exchange 9H")


def test_R66_11_not_after_closing():
    d = _deal(W)
    act(d, *W_TRICKS_1_2, "A close")
    assert "A exchange 9H" not in legal(d)
    refused(d, "A exchange 9H")


# ========================================================================== closing
def test_R66_12_close_on_the_first_lead():
    d = _deal(S1)
    assert "A close" in legal(d)
    act(d, "A close")
    assert d.closed and d.closer == 0 and d.tricks_at_close == [0, 0]
    assert "A close" not in legal(d)                      # once
    assert "already" in refused(d, "A close").reason


def test_R66_12_close_with_two_cards_in_the_stock():
    d = _run(_deal(E), E_TRICKS)
    assert len(d.stock) == 2
    act(d, "A close")
    assert d.closed


def test_R66_12_no_close_once_the_stock_is_exhausted():
    d = _run(_deal(F), F_TRICKS[:6])
    assert "B close" not in legal(d)
    e = refused(d, "B close")
    assert "exhausted" in e.reason


def test_R66_12_only_the_leader_before_leading():
    d = _deal(W)
    act(d, "A play JC")
    assert not can(d, "B close") and not can(d, "A close")


def test_R66_12_exchange_then_close_then_play_in_that_order():
    d = _deal(W)
    act(d, *W_TRICKS_1_2, "A exchange 9H", "A close", "A play KH marriage")
    d = _deal(W)
    act(d, *W_TRICKS_1_2, "A close")
    refused(d, "A exchange 9H")


def test_R66_12_nothing_is_drawn_after_closing_and_the_stock_stays_out():
    d = _deal(W)
    act(d, *W_TRICKS_1_2)
    left = stock(d)
    act(d, "A close", "A play AD", "B play 9D")           # B follows, cannot beat: A
    assert stock(d) == left and len(left) == 8
    assert [bin(h).count("1") for h in d.hands] == [5, 5]


# ============================================================== the deal's result
def test_R66_13_total_is_card_points_plus_counting_marriages():
    d = _run(_deal(X), X_TRICKS[:4])
    assert d.points(0) == 6 + 20 and d.points(1) == 27


def test_R66_13_ten_for_the_twelfth_trick_of_an_exhausted_stock():
    d = _run(_deal(F), F_TRICKS)
    assert d.card_points == [65, 55]
    assert d.deal_points_of == [65, 55 + 10]


def test_R66_13_no_last_trick_bonus_in_a_closed_deal():
    # specs/examples/sixty-six/r66-17-failed-close-three-points: A closes on the first
    # lead (spades trumps). 1 A 10H, B JH: A 12. 2 A AS, B 9S: A 23. 3 A AH, B 9H: A 34.
    # 4 A QC, B KC: B 7. 5 B JD, A KH: B 13. 6 B AD, A AC: B 35, last trick, no bonus.
    d = deal("B", "AS AH 10H KH AC QC", "9S JH 9H AD JD KC",
             "JC 10D 9D 10C QD KD KS QH QS 9C 10S JS", {"A": 5, "B": 1})
    act(d, "A close", "A play 10H", "B play JH", "A play AS", "B play 9S", "A play AH",
        "B play 9H", "A play QC", "B play KC", "B play JD", "A play KH", "B play AD",
        "A play AC")
    assert d.is_terminal() and d.card_points == [34, 35]
    assert d.deal_points_of == [34, 35]                   # not 45


def test_R66_14_the_deal_ends_at_once_at_66():
    d = _deal(W)
    act(d, *W_TRICKS_1_2, "A exchange 9H", "A close", "A play KH marriage", "B play 10H",
        "B play 9D", "A play 10D")
    assert not d.is_terminal() and d.points(0) == 63      # 13 + 40 + 10
    act(d, "A play QH", "B play JH")                      # +5 = 68
    assert d.is_terminal() and d.deal_points_of == [68, 27]
    assert stock(d) == "JD QD KD 10S QS AH 9C 9H".split()     # never drawn
    assert [bin(h).count("1") for h in d.hands] == [3, 3]     # never played


def test_R66_14_a_marriage_that_reaches_66_ends_the_deal_with_the_card_alone():
    # r66-14 deal (spades trumps): B 11 (AH), then KC marriage 20 + 7 = 38, ..., trick 6
    # KS+10C: 52; B leads KH marriage: 20 more = 72: the deal ends, KH counts for nobody.
    d = deal("B", "AS JH 9H 10D QD AC", "10S QS AH AD KC 9C",
             "QC KD QH 10H 9D JC JS KS 10C JD KH 9S", {"A": 2, "B": 3})
    act(d, "A play 9H", "B play AH", "B play KC marriage", "A play QD", "B play 9C",
        "A play AC", "A play 10H", "B play QC", "A play JS", "B play JC", "A play 10C",
        "B play KS")
    assert d.points(1) == 11 + 7 + 14 + 20 and d.points(0) == 11 + 13 + 4    # 52, 28
    act(d, "B play KH marriage")
    assert d.is_terminal()
    assert d.card_points == [28, 32]                      # KH taken by nobody
    assert d.deal_points_of == [28, 72]
    assert d.deltas == [0, 2]                             # 28 < 33 with tricks: 2
    with pytest.raises(IllegalAction, match="over"):
        act(d, "A play 10D")


def test_R66_14_a_waiting_marriage_does_not_end_the_deal_by_itself():
    d = _deal(X)
    act(d, "A play KS marriage")
    assert not d.is_terminal() and d.points(0) == 0


def test_R66_15_both_at_65_the_last_trick_wins_one_point():
    d = _run(_deal(F, scores={"A": 6, "B": 6}), F_TRICKS)
    assert d.deal_points_of == [65, 65]
    assert d.deltas == [0, 1] and d.scores == [6, 7]


def test_R66_15_cards_run_out_after_closing_the_closer_fails():
    # G, variant: A closes at trick 3 and leads without announcing: 3 A KS, B 9H: A 15+4
    # = 19. 4 A AS, B 9C: 30. 5 A 10S, B JH: 42. 6 A QS, B QD: 48. 7 A JS, B 10H: 60.
    # 8 A 9D, B KH (no diamond, no trump): 64 < 66 and no cards left: A failed.
    d = _deal(G)
    act(d, "A play JC", "B play AC", "B play KD marriage", "A play AD", "A close",
        "A play KS", "B play 9H", "A play AS", "B play 9C", "A play 10S", "B play JH",
        "A play QS", "B play QD", "A play JS", "B play 10H", "A play 9D", "B play KH")
    assert d.is_terminal() and d.deal_points_of == [64, 33]
    assert d.deltas == [0, 2]                             # B had a trick at the close


def test_R66_16_one_game_point_when_the_loser_has_33():
    d = _run(_deal(X), X_TRICKS)
    assert d.is_terminal() and d.deal_points_of == [62, 67]
    assert d.deltas == [0, 1]


def test_R66_16_schneider_two_points():
    d = _deal(W)
    act(d, *W_TRICKS_1_2, "A exchange 9H", "A close", "A play KH marriage", "B play 10H",
        "B play 9D", "A play 10D", "A play QH", "B play JH")
    assert d.deal_points_of == [68, 27] and d.tricks == [3, 2]
    assert d.deltas == [2, 0] and d.scores == [6, 5]


def test_R66_16_the_losers_counting_marriage_lifts_it_to_33():
    # G: B has AC+JC 13 + the diamond marriage 20 = 33: A (the closer, 70) scores 1.
    d = _deal(G)
    act(d, "A play JC", "B play AC", "B play KD marriage", "A play AD", "A close",
        "A play KS marriage", "B play 9H", "A play AS", "B play 9C")
    assert d.is_terminal() and d.deal_points_of == [70, 33]
    assert d.deltas == [1, 0]


def test_R66_16_without_the_marriage_the_same_loser_is_schneider():
    # G again with KD led plainly: B has 13 < 33 and a trick: A scores 2.
    d = _deal(G)
    act(d, "A play JC", "B play AC", "B play KD", "A play AD", "A close",
        "A play KS marriage", "B play 9H", "A play AS", "B play 9C")
    assert d.is_terminal() and d.deal_points_of == [70, 13]
    assert d.deltas == [2, 0]


def test_R66_16_schwarz_three_points_whatever_marriages_the_loser_announced():
    # r66-16 (see R66-10): A announced diamonds and won no trick: B scores 3.
    d = deal("B", "QS JS KD QD 9D 9C", "AS 9S AC KC QC JC",
             "QH KH 10D JD JH 10S 10C 9H AD 10H AH KS", {"A": 3, "B": 4})
    act(d, "A play KD marriage", "B play AS", "B play KC marriage", "A play 9D",
        "B exchange 9S", "B play QH", "A play 9C", "B play 10D", "A play QD", "B play JC",
        "A play KH", "B play AC", "A play 9H")
    assert d.tricks == [0, 6] and d.deltas == [0, 3]


def test_R66_16_schwarz_for_the_closer_too():
    # A: AS 10S KS QS AH 10H, spades trumps (9S turned); B holds no spade.
    # A closes, leads KS marriage (no trick yet: the 40 waits), B 9D: A +4, and the 40
    # now counts: 44. A AS, B 9C: 55. A 10S, B JC: 67 >= 66. B has no trick: 3.
    d = deal("B", "AS 10S KS QS AH 10H", "9D 9C JC JD QC KD",
             "JS KH QH JH 9H AD 10D QD AC 10C KC 9S")
    act(d, "A close", "A play KS marriage", "B play 9D")
    assert d.points(0) == 4 + 40
    act(d, "A play AS", "B play 9C", "A play 10S", "B play JC")
    assert d.is_terminal() and d.deal_points_of == [67, 0]
    assert d.deltas == [3, 0]


def test_R66_17_failed_closing_three_if_no_trick_at_the_close():
    d = deal("B", "AS AH 10H KH AC QC", "9S JH 9H AD JD KC",
             "JC 10D 9D 10C QD KD KS QH QS 9C 10S JS", {"A": 5, "B": 1})
    act(d, "A close", "A play 10H", "B play JH", "A play AS", "B play 9S", "A play AH",
        "B play 9H", "A play QC", "B play KC", "B play JD", "A play KH", "B play AD",
        "A play AC")
    # A 34 < 66, B took three tricks after the close, but had none when A closed: 3
    assert d.tricks == [3, 3] and d.deltas == [0, 3] and d.scores == [5, 4]


def test_R66_17_failed_closing_two_when_the_opponent_reaches_66():
    # r66-17-failed-close-two-points (diamonds trumps): B 6 (JS KD), B QC marriage 20 +
    # 10S QC 13 = 39, A 14 (KH 10H), A closes (B has two tricks), B AD+JD 13 = 52,
    # A 10D+KC 14 = 28, A QD+10C 13 = 41, B KS+9S 4 = 56, B AS+JH 13 = 69 >= 66.
    d = deal("B", "AS 10S QS JS 9S JD", "KH JH KD AC KC QC",
             "KS 10H AD QD 10D 10C JC QH 9C 9H AH 9D")
    act(d, "A play JS", "B play KD", "B play QC marriage", "A play 10S", "B play KH",
        "A play 10H", "A close", "A play JD", "B play AD", "B play KC", "A play 10D",
        "A play QD", "B play 10C", "A play 9S", "B play KS", "B play JH", "A play AS")
    assert d.is_terminal() and d.deal_points_of == [41, 69]
    assert d.tricks_at_close == [1, 2]
    assert d.deltas == [0, 2]          # not 1, although A's 41 >= 33


def test_R66_17_the_dealers_failed_closing():
    # W (hearts trumps): B wins trick 1 (AC JC: 13), draws 10C (A 9S) and closes: A has
    # no trick. A: AS KH 9H AD 10D 9S, B: JS 10H JH 9D KC 10C.
    # 2 B JS, A must beat: AS: A 13.        3 A AD, B 9D (cannot beat): A 24.
    # 4 A 10D, B no diamond: trumps JH: B 13 + 12 = 25.
    # 5 B KC, A no club: trumps 9H: A 28.   6 A KH, B must beat: 10H: B 39.
    # 7 B 10C, A 9S: B 49. The cards are out, B (the closer) has 49 < 66: A scores 3.
    d = _deal(W)
    act(d, "A play JC", "B play AC", "B close")
    assert d.closer == 1 and d.tricks_at_close == [0, 1]
    act(d, "B play JS")
    assert legal(d) == plays(("A", "AS"))
    act(d, "A play AS", "A play AD", "B play 9D", "A play 10D")
    assert legal(d) == plays(("B", "10H JH"))
    act(d, "B play JH", "B play KC", "A play 9H", "A play KH")
    assert legal(d) == plays(("B", "10H"))
    act(d, "B play 10H", "B play 10C", "A play 9S")
    assert d.is_terminal() and d.deal_points_of == [28, 49]
    assert d.deltas == [3, 0] and d.scores == [7, 5]


def test_R66_18_only_the_winner_scores_and_seven_wins_the_game():
    g = game()
    m = Match(g, 2, first_dealer=1, scores=[6, 6])
    d = m.new_deal()
    f = _deal(F)
    d.set_cards({0: [g.parse_card(c) for c in F["a"].split()],
                 1: [g.parse_card(c) for c in F["b"].split()]}, [], f.exposed, list(f.stock))
    _run(d, F_TRICKS)
    m.finish(d)
    assert d.deltas == [0, 1]                 # only the winner scores
    assert m.scores == [6, 7] and m.game_over and m.winners == [1]


def test_R66_18_the_game_goes_on_below_seven():
    g = game()
    m = Match(g, 2, first_dealer=1, scores=[4, 5])
    d = m.new_deal()
    w = _deal(W)
    d.set_cards({0: [g.parse_card(c) for c in W["a"].split()],
                 1: [g.parse_card(c) for c in W["b"].split()]}, [], w.exposed, list(w.stock))
    act(d, *W_TRICKS_1_2, "A exchange 9H", "A close", "A play KH marriage", "B play 10H",
        "B play 9D", "A play 10D", "A play QH", "B play JH")
    m.finish(d)
    assert m.scores == [6, 5] and not m.game_over and m.winners == []
    assert m.dealer == 0                       # A deals next (R66-3)


def test_R66_18_passing_seven_still_wins():
    # r66-16 from A 3, B 5: B scores 3 and has 8.
    g = game()
    m = Match(g, 2, first_dealer=1, scores=[3, 5])
    d = m.new_deal()
    src = deal("B", "QS JS KD QD 9D 9C", "AS 9S AC KC QC JC",
               "QH KH 10D JD JH 10S 10C 9H AD 10H AH KS")
    d.set_cards({0: [g.parse_card(c) for c in "QS JS KD QD 9D 9C".split()],
                 1: [g.parse_card(c) for c in "AS 9S AC KC QC JC".split()]}, [], src.exposed,
                list(src.stock))
    act(d, "A play KD marriage", "B play AS", "B play KC marriage", "A play 9D",
        "B exchange 9S", "B play QH", "A play 9C", "B play 10D", "A play QD", "B play JC",
        "A play KH", "B play AC", "A play 9H")
    m.finish(d)
    assert m.scores == [3, 8] and m.game_over and m.winners == [1]


# ==================================================================== hand records
@pytest.mark.parametrize("text", ["A bid 100", "A pass", "A abandon", "A contract 66",
                                  "A give JC B", "A trumps hearts", "A look", "A concede"])
def test_R66_19_other_verbs_are_illegal(text):
    d = _deal(W)
    with pytest.raises(IllegalAction) as e:
        act(d, text)
    assert e.value.index == 1


def test_R66_19_the_four_verbs():
    d = _deal(W)
    act(d, *W_TRICKS_1_2, "A exchange 9H", "A close", "A play KH marriage")
    assert [d.action_to_string(a, s, SEATS) for s, a in d.history][-3:] == \
        ["A exchange 9H", "A close", "A play KH marriage"]


def test_R66_19_draws_are_not_actions():
    d = _deal(F)
    act(d, *F_TRICKS[0])
    assert len(d.history) == 2 and SEATS[d.turn] == "A"
    with pytest.raises(IllegalAction):
        act(d, "A draw")


def test_R66_19_no_action_after_the_one_that_ends_the_deal():
    d = _run(_deal(F), F_TRICKS)
    with pytest.raises(IllegalAction, match="over"):
        act(d, "B close")


def _worked_record():
    return yaml.safe_load((ROOT / "specs/examples/sixty-six/r66-20-worked-example.yaml").read_text())


def test_R66_19_record_replays_with_stock_and_exposed():
    rec = _worked_record()
    res = replay_record(rec, game=game()).to_json()
    assert res["deltas"] == {"A": 2, "B": 0} and res["scores"] == {"A": 6, "B": 5}
    rec["exposed"] = "AH"                                # not the last card of the stock
    with pytest.raises(RecordError):
        replay_record(rec, game=game())


def test_R66_19_starting_scores_must_be_below_seven():
    rec = _worked_record()
    rec["scores"] = {"A": 6, "B": 9}
    with pytest.raises(RecordError):
        replay_record(rec, game=game())


def test_R66_2_starting_game_points_cannot_be_negative():
    rec = _worked_record()
    rec["scores"] = {"A": -1, "B": 0}
    with pytest.raises(RecordError):
        replay_record(rec, game=game())


def test_R66_19_game_record_alternates_dealers_and_stops_at_the_end():
    w = _worked_record()
    f = {"dealer": "B", "hands": {"A": F["a"].split(), "B": F["b"].split()},
         "exposed": "9H", "stock": F["stock"].split(),
         "actions": [a for t in F_TRICKS for a in t]}
    first = {k: w[k] for k in ("dealer", "hands", "exposed", "stock", "actions")}
    # B deals deal 1, so A must deal deal 2: F with the seats' roles swapped.
    second = {"dealer": "A", "hands": {"A": F["b"].split(), "B": F["a"].split()},
              "exposed": "9H", "stock": F["stock"].split(),
              "actions": [f"{'B' if a[0] == 'A' else 'A'}{a[1:]}" for t in F_TRICKS for a in t]}
    rec = {"spec": "sixty-six", "seats": ["A", "B"], "scores": {"A": 4, "B": 5},
           "deals": [first, second]}
    res = replay_record(copy.deepcopy(rec), game=game()).to_json()
    # deal 1: A +2 (6, 5); deal 2: F with roles swapped, A wins the last trick: +1 -> 7
    assert res["scores"] == {"A": 7, "B": 5} and res["game_over"] and res["winners"] == ["A"]
    bad = copy.deepcopy(rec)
    bad["deals"][1] = dict(f)                           # B deals again
    with pytest.raises(RecordError, match="dealer"):
        replay_record(bad, game=game())
    extra = copy.deepcopy(rec)
    extra["deals"].append(copy.deepcopy(first))         # a deal after the end of the game
    with pytest.raises(RecordError, match="ended"):
        replay_record(extra, game=game())


def test_R66_20_worked_example_step_by_step():
    d = _deal(W)
    assert d.trumps == 1 and SEATS[d.turn] == "A"
    act(d, "A play JC", "B play AC")
    assert d.card_points == [0, 13] and hand(d, "B") >= {"10C"} and "9S" in hand(d, "A")
    act(d, "B play JS", "A play AS")
    assert d.card_points == [13, 13] and "QC" in hand(d, "A") and "KS" in hand(d, "B")
    assert len(d.stock) == 8
    act(d, "A exchange 9H", "A close", "A play KH marriage")
    assert d.points(0) == 53
    assert legal(d) == {"B play 10H"}
    act(d, "B play 10H")
    assert d.points(1) == 27
    act(d, "B play 9D", "A play 10D", "A play QH")
    assert legal(d) == {"B play JH"}
    act(d, "B play JH")
    assert d.is_terminal() and d.deal_points_of == [68, 27]
    assert d.deltas == [2, 0] and d.scores == [6, 5]
    assert stock(d) == "JD QD KD 10S QS AH 9C 9H".split()


def test_R66_20_with_the_stock_open_b_could_have_thrown_9D():
    d = _deal(W)
    act(d, *W_TRICKS_1_2, "A exchange 9H", "A play KH marriage")   # not closed
    assert "B play 9D" in legal(d)


# =========================================================================== records
RECORDS = sorted((ROOT / "tests/records/sixty-six").glob("illegal-*.yaml"))


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_R66_19_refusal_records_refused_at_their_index(path):
    [rec] = read_record_file(str(path))
    want = rec["expect"]["illegal"]
    res = replay_result(rec, path, game=game())
    assert res.get("illegal") == want, res
    assert check_expectations(rec, res) == []
    # every action before it is legal: the record cut just before replays
    cut = copy.deepcopy(rec)
    cut["actions"] = rec["actions"][:want - 1]
    cut.pop("expect")
    replay_record(cut, game=game())


def test_R66_19_there_are_refusal_records():
    assert len(RECORDS) >= 6


@pytest.mark.parametrize("path", sorted((ROOT / "specs/examples/sixty-six").glob("*.yaml")),
                         ids=lambda p: p.stem)
def test_R66_19_golden_records_replay_to_their_expectations(path):
    [rec] = read_record_file(str(path))
    assert check_expectations(rec, replay_result(rec, path, game=game())) == []


# ================================================================= rules oracle
class Oracle:
    """Sixty-six from the rules page alone: hands, stock, legal actions, draws, totals,
    the end of the deal and its game points. Cards are names ("10H")."""

    def __init__(self, hands, stock_, dealer):
        self.hands = [set(h) for h in hands]
        self.stock = list(stock_)
        self.trump = self.stock[-1][-1]                 # R66-4
        self.turn = 1 - dealer                          # R66-5
        self.trick = []
        self.tricks = [0, 0]
        self.cards = [0, 0]
        self.marriages = []                             # (seat, worth)
        self.closed = False
        self.closer = None
        self.at_close = None
        self.last = None
        self.over = False
        self.taken = []

    @staticmethod
    def pts(c):
        return POINTS[c[:-1]]

    def total(self, s):                                 # R66-13, R66-10
        t = self.cards[s]
        if self.tricks[s] >= 1:
            t += sum(w for ms, w in self.marriages if ms == s)
        if self.last == s and not self.closed:
            t += 10
        return t

    def beats(self, c, w):
        if c[-1] == w[-1]:
            return ORDER.index(c[:-1]) < ORDER.index(w[:-1])
        return c[-1] == self.trump

    def legal(self):
        s, h = self.turn, self.hands[self.turn]
        if not self.trick:
            out = {f"play {c}" for c in h}
            for suit in "SHDC":
                if "K" + suit in h and "Q" + suit in h:
                    out |= {f"play K{suit} marriage", f"play Q{suit} marriage"}     # R66-9
            nine = "9" + self.trump
            if nine in h and self.tricks[s] >= 1 and not self.closed and len(self.stock) > 2:
                out.add(f"exchange {nine}")                                        # R66-11
            if not self.closed and self.stock:
                out.add("close")                                                   # R66-12
            return out
        led = self.trick[0][1]
        if self.closed or not self.stock:                                          # R66-8
            same = [c for c in h if c[-1] == led[-1]]
            if same:
                higher = [c for c in same if self.beats(c, led)]
                cand = higher or same
            else:
                cand = [c for c in h if c[-1] == self.trump] or list(h)
        else:
            cand = list(h)                                                         # R66-7
        return {f"play {c}" for c in cand}

    def apply(self, text):
        s = self.turn
        words = text.split()
        if words[0] == "exchange":
            self.hands[s].remove(words[1])
            self.hands[s].add(self.stock[-1])
            self.stock[-1] = words[1]
            return
        if words[0] == "close":
            self.closed, self.closer, self.at_close = True, s, list(self.tricks)
            return
        c = words[1]
        self.hands[s].remove(c)
        self.trick.append((s, c))
        if len(words) == 3:
            self.marriages.append((s, 40 if c[-1] == self.trump else 20))
            if self.total(s) >= 66:                                                # R66-14
                self.over = True
                return
        if len(self.trick) == 1:
            self.turn = 1 - s
            return
        (l, lc), (f, fc) = self.trick
        w = f if self.beats(fc, lc) else l
        self.tricks[w] += 1
        self.cards[w] += self.pts(lc) + self.pts(fc)
        self.taken += [lc, fc]
        self.trick = []
        self.turn = w
        if not self.hands[0] and not self.hands[1] and (self.closed or not self.stock):
            self.last = w
            self.over = True
        if self.total(w) >= 66:
            self.over = True
        if self.over:
            return
        if not self.closed and self.stock:                                         # R66-6
            self.hands[w].add(self.stock.pop(0))
            self.hands[1 - w].add(self.stock.pop(0))

    def result(self):
        """(winner, game points) by R66-15..17."""
        reached = [self.total(s) >= 66 for s in (0, 1)]
        if self.closed:
            c = self.closer
            if reached[c]:
                return c, self.game_points(c)
            o = 1 - c
            return o, 3 if self.at_close[o] == 0 else 2
        if any(reached):
            w = reached.index(True)
            return w, self.game_points(w)
        return self.last, 1

    def game_points(self, w):
        lo = 1 - w
        if self.total(lo) >= 33:
            return 1
        return 2 if self.tricks[lo] >= 1 else 3


def _names(mask):
    return cards(mask)


def _random_play(d, rng, special=0.25, check=None):
    """Play a dealt deal to the end with random legal actions; close, exchange and
    marriages are picked with probability `special` when available. With `check`,
    an Oracle is stepped along and compared at every decision."""
    while not d.is_terminal():
        acts = d.legal_actions()
        texts = [d.action_to_string(a, d.turn, SEATS) for a in acts]
        if check is not None:
            assert {t.split(" ", 1)[1] for t in texts} == check.legal(), \
                (texts, check.hands, check.trick, check.stock, check.closed)
            assert check.turn == d.turn
        plain = [i for i, t in enumerate(texts) if t.split()[1] == "play" and len(t.split()) == 3]
        extra = [i for i, t in enumerate(texts) if i not in plain]
        i = rng.choice(extra) if extra and rng.random() < special else rng.choice(plain)
        d.apply_action(acts[i])
        if check is not None:
            check.apply(texts[i].split(" ", 1)[1])
            if not d.is_terminal():
                assert [_names(d.hands[s]) for s in (0, 1)] == check.hands
                assert [game().card_names[c] for c in d.stock] == check.stock
                assert d.tricks == check.tricks and d.card_points == check.cards
            assert d.is_terminal() == check.over
    return d


SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _oracle_for(d):
    g = game()
    return Oracle([_names(d.hands[0]), _names(d.hands[1])],
                  [g.card_names[c] for c in d.stock], d.dealer)


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), dealer=st.sampled_from([0, 1]),
       special=st.sampled_from([0.0, 0.2, 0.6]))
def test_property_every_decision_matches_the_rules_oracle(seed, dealer, special):
    """R66-5..17: at every step the legal actions, the hands, the stock, the tricks and
    the card points agree with the oracle; the deal ends when the oracle says so, and
    exactly one seat scores 1, 2 or 3 game points, as the oracle works out."""
    rng = random.Random(seed)
    d = game().new_deal(2, dealer)
    d.deal_random(rng)
    o = _oracle_for(d)
    _random_play(d, rng, special, check=o)
    w, gp = o.result()
    want = [0, 0]
    want[w] = gp
    assert d.deltas == want
    assert sorted(d.deltas) == [0, gp] and gp in (1, 2, 3)


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), dealer=st.sampled_from([0, 1]))
def test_property_card_conservation_and_120_card_points(seed, dealer):
    """R66-1, R66-6: no card appears twice or vanishes; the card points of the tricks
    taken plus those of every card never taken add up to 120; one seat scores 1-3."""
    g = game()
    rng = random.Random(seed)
    d = g.new_deal(2, dealer, [rng.randrange(7), rng.randrange(7)])
    d.deal_random(rng)
    full = (1 << 24) - 1
    while not d.is_terminal():
        on_table = sum(1 << c for _, c in d.trick)
        parts = [d.hands[0], d.hands[1], sum(1 << c for c in d.stock), d.taken[0], d.taken[1],
                 on_table]
        assert sum(bin(p).count("1") for p in parts) == 24
        acc = 0
        for p in parts:
            assert acc & p == 0
            acc |= p
        assert acc == full
        acts = d.legal_actions()
        d.apply_action(acts[rng.randrange(len(acts))])
    taken = d.taken[0] | d.taken[1]
    never = full & ~taken
    assert sum(d.card_points) == sum(g.card_points[c] for c in range(24) if taken >> c & 1)
    assert sum(d.card_points) + sum(g.card_points[c] for c in range(24) if never >> c & 1) == 120
    assert len([x for x in d.deltas if x]) == 1 and max(d.deltas) in (1, 2, 3)
    assert all(d.scores[s] == d.scores_before[s] + d.deltas[s] for s in (0, 1))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), first=st.sampled_from([0, 1]))
def test_property_whole_games(seed, first):
    """R66-3, R66-18: dealers alternate, one seat scores each deal, the game ends with
    the first deal that brings a seat to 7, and that seat alone wins."""
    g = game()
    rng = random.Random(seed)
    m = Match(g, 2, first)
    k = 0
    while not m.game_over:
        assert max(m.scores) < 7
        d = m.new_deal()
        assert d.dealer == (first + k) % 2
        d.deal_random(rng)
        before = list(m.scores)
        _random_play(d, rng, 0.2)
        m.finish(d)
        k += 1
        gained = [m.scores[s] - before[s] for s in (0, 1)]
        assert sorted(gained)[0] == 0 and sorted(gained)[1] in (1, 2, 3)
        assert k < 100
    assert max(m.scores) >= 7 and min(m.scores) < 7
    assert m.winners == [max((0, 1), key=lambda s: m.scores[s])]
    assert d.current_player() == TERMINAL
