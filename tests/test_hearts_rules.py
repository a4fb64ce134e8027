"""One test (or more) per clause of docs/rules/hearts.md (RH-1 … RH-16), named with the
clause id, then properties over seeded random deals and games.

Deals are built from hand-picked hands with ``set_cards`` and driven with record-style
action strings. Expected outcomes are worked out by hand from the rules page (see the
comments), or by ``Referee`` below: an independent reading of the page (the passing
direction and order, the 2C lead, following suit, no points on the first trick, hearts
broken, the lead rules, points and the moon, the end at 100) that never asks the engine.

Deals used throughout (hold deals unless said otherwise, so nobody passes):

* ``SUITS``: A all spades, B all hearts, C all diamonds, D all clubs. D leads 2C and, as
  the only club holder, wins every trick: D takes all 26 points, a moon.
* ``SPLIT``: A all spades, C all diamonds; B 8H…2H and AC…9C; D AH…9H and 8C…2C. B wins
  the six club tricks (A discards QS to the second), then leads its hearts, which D's
  higher hearts win: B 13 (QS), D 13 (every heart). See ``SPLIT_TRICKS``.
* ``QLEAD``: A holds AC, QS and KH…3H; B AH 2H and eleven spades; C the diamonds; D the
  other clubs and 2S. A wins trick 1 with AC and, holding only hearts and QS before hearts
  are broken, must lead QS (RH-11).
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from talon_cards.agents import RandomAgent, play_deal
from talon_cards.engine import CHANCE, Match
from talon_cards.errors import IllegalAction, RecordError
from talon_cards.records import (apply_actions, check_expectations, deal_record,
                                 read_record_file, replay_record, replay_result)
from talon_cards.simulate import simulate
from talon_cards.spec import load

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "specs" / "examples" / "hearts"
RECORDS = Path(__file__).resolve().parent / "records" / "hearts"

G = load("hearts")
SEATS = ["A", "B", "C", "D"]
IDX = {n: i for i, n in enumerate(SEATS)}
RANKS = "A K Q J 10 9 8 7 6 5 4 3 2".split()          # RH-1: ace high
SUITS = "SHDC"
SUIT = {s: [r + s for r in RANKS] for s in SUITS}       # high to low
HOLD, LEFT, RIGHT, ACROSS = 4, 1, 2, 3                  # deal numbers (RH-4)


# ------------------------------------------------------------------ helpers
def _replay(rec):
    """Replay a record with the already loaded spec (a record names it; loading it again
    for every record only costs time)."""
    return replay_record(rec, game=G)


def _result(rec, path="x.yaml"):
    return replay_result(rec, path, game=G)


def cards(text):
    return text.split() if isinstance(text, str) else list(text)


def deal(hands, dealer="D", scores=None, deal_number=HOLD):
    sc = None if scores is None else [scores[n] for n in SEATS]
    d = G.new_deal(4, IDX[dealer], sc, deal_number)
    d.set_cards({IDX[n]: [G.parse_card(c) for c in cards(h)] for n, h in hands.items()}, [])
    return d


def act(d, *actions):
    apply_actions(d, list(actions), IDX, SEATS)
    return d


def legal(d, seat=None):
    s = d.turn if seat is None else IDX[seat]
    return {d.action_to_string(a, s, SEATS) for a in d.legal_actions(s)}


def refused(d, action) -> IllegalAction:
    before = (list(d.hands), d.turn, len(d.history), list(d.tricks), list(d.passing))
    with pytest.raises(IllegalAction) as e:
        act(d, action)
    assert (list(d.hands), d.turn, len(d.history), list(d.tricks), list(d.passing)) == before
    return e.value


def plays(seat, text):
    return {f"{seat} play {c}" for c in cards(text)}


def names(mask):
    return {G.card_names[c] for c in range(52) if mask >> c & 1}


def by_name(values):
    return {n: values[i] for i, n in enumerate(SEATS)}


def trick_actions(tricks):
    """[(leader, "c1 c2 c3 c4")] -> action strings, clockwise from the leader."""
    out = []
    for leader, cs in tricks:
        i = IDX[leader]
        out += [f"{SEATS[(i + k) % 4]} play {c}" for k, c in enumerate(cs.split())]
    return out


SUITS_DEAL = {"A": SUIT["S"], "B": SUIT["H"], "C": SUIT["D"], "D": SUIT["C"]}
# D leads its clubs from 2C up; A, B, C discard from the bottom (A's QS in trick 11).
SUITS_TRICKS = [("D", f"{c} {s} {h} {dd}") for c, s, h, dd in
                zip(reversed(SUIT["C"]), reversed(SUIT["S"]), reversed(SUIT["H"]), reversed(SUIT["D"]))]

SPLIT = {"A": SUIT["S"], "C": SUIT["D"],
         "B": "8H 7H 6H 5H 4H 3H 2H AC KC QC JC 10C 9C",
         "D": "AH KH QH JH 10H 9H 8C 7C 6C 5C 4C 3C 2C"}
SPLIT_TRICKS = [
    ("D", "2C 2S AC 2D"),   # 1: B follows with AC and wins; no points
    ("B", "KC 3D 3C QS"),   # 2: A discards QS: B 13
    ("B", "QC 4D 4C 3S"),   # 3
    ("B", "JC 5D 5C 4S"),   # 4
    ("B", "10C 6D 6C 5S"),  # 5
    ("B", "9C 7D 7C 6S"),   # 6: B now holds only hearts
    ("B", "2H 8D AH 7S"),   # 7: B leads a heart (nothing else); D's AH wins: D 2
    ("D", "KH 8S 3H 9D"),   # 8: D 2
    ("D", "QH 9S 4H 10D"),  # 9: D 2
    ("D", "JH 10S 5H JD"),  # 10: D 2
    ("D", "10H JS 6H QD"),  # 11: D 2
    ("D", "9H KS 7H KD"),   # 12: D 2
    ("D", "8C AS 8H AD"),   # 13: D's 8C, the only club: D 1
]
# B: 13 (QS). D: 2 + 5 * 2 + 1 = 13 (every heart). A 0, C 0. 26 in all, no moon.

QLEAD = {"A": "AC QS KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H",
         "B": "AH 2H AS KS JS 10S 9S 8S 7S 6S 5S 4S 3S",
         "C": SUIT["D"],
         "D": "KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C 2S"}

# RH-16, the worked example, as the page gives it.
RH16_HANDS = {"A": "QS 7S 3S QH 9H 5H AD 6D 3D KC 8C 4C 2C",
              "B": "8S 4S JH 10H 8H 6H 4H KD 9D 5D AC 6C 3C",
              "C": "KS 9S 5S AH 7H 3H QD 10D 8D 4D 2D 10C 7C",
              "D": "AS JS 10S 6S 2S KH 2H JD 7D QC JC 9C 5C"}
RH16_SCORES = {"A": 60, "B": 90, "C": 85, "D": 77}
RH16_PASSES = [("A", "QS QH 2C", "C"), ("B", "JH 10H 6H", "D"),
               ("C", "AH KS 10D", "A"), ("D", "AS KH 9C", "B")]
RH16_TRICKS = [  # (leader, cards in playing order, winner, points) as on the page
    ("C", "2C 5C KC AC", "B", 0), ("B", "3C 7C JC 8C", "D", 0), ("D", "7D 3D 5D 2D", "D", 0),
    ("D", "JD 10D 9D 8D", "D", 0), ("D", "QC 4C 6C 10C", "D", 0), ("D", "2S 3S 4S 5S", "C", 0),
    ("C", "4D 2H 6D KD", "B", 1), ("B", "4H 3H 6H 5H", "D", 4), ("D", "6S 7S 8S 9S", "C", 0),
    ("C", "QD 10H AD 9C", "A", 1), ("A", "KS AS QS JS", "B", 13), ("B", "8H 7H JH 9H", "D", 4),
    ("D", "10S AH KH QH", "D", 3)]


def rh16_gives():
    return [f"{s} give {c} {to}" for s, cs, to in RH16_PASSES for c in cs.split()]


def rh16_deal():
    return deal(RH16_HANDS, "D", RH16_SCORES, 11)


# ------------------------------------------------------------------ the referee
class Refused(Exception):
    pass


def norm(card):
    c = str(card).strip().upper()
    for sym, letter in zip("♠♥♦♣", "SHDC"):
        c = c.replace(sym, letter)
    rank = "10" if c[:-1] == "T" else c[:-1]
    return rank + c[-1]


def points(c):
    """RH-1: a heart is 1, QS 13, any other card 0."""
    return 13 if c == "QS" else 1 if c[-1] == "H" else 0


class Referee:
    """Hearts as docs/rules/hearts.md reads, for one deal."""

    def __init__(self, seats, dealer, hands, deal_number=1):
        self.seats = list(seats)
        self.hands = {s: {norm(c) for c in hands[s]} for s in seats}
        assert all(len(h) == 13 for h in self.hands.values())                 # RH-3
        assert len(set().union(*self.hands.values())) == 52
        self.step = [1, -1, 2, 0][(deal_number - 1) % 4]                       # RH-4
        self.first = self.left(dealer)
        self.turn = self.first
        self.gives = {s: [] for s in seats}
        self.passing = self.step != 0                                          # RH-6
        self.trick, self.tricks_done = [], 0
        self.taken = {s: [] for s in seats}
        self.broken = False
        if not self.passing:
            self._start_play()

    def left(self, s, k=1):
        return self.seats[(self.seats.index(s) + k) % 4]

    def _start_play(self):
        self.passing = False
        self.turn = next(s for s in self.seats if "2C" in self.hands[s])     # RH-7

    def legal(self):
        s = self.turn
        if self.done():
            return set()
        hand = self.hands[s]
        if self.passing:                                                       # RH-5
            return {f"{s} give {c} {self.left(s, self.step)}" for c in hand}
        if not self.trick:
            if self.tricks_done == 0:
                return {f"{s} play 2C"}                                        # RH-7
            if not self.broken:                                                # RH-11
                hand = {c for c in hand if c[-1] != "H"} or hand
            return {f"{s} play {c}" for c in hand}
        hand = {c for c in hand if c[-1] == self.trick[0][1][-1]} or hand     # RH-8
        if self.tricks_done == 0:                                              # RH-9
            hand = {c for c in hand if not points(c)} or hand
        return {f"{s} play {c}" for c in hand}

    def act(self, text):
        words = str(text).split()
        if len(words) >= 3 and words[1] in ("play", "give"):
            words[2] = norm(words[2])
        text = " ".join(words)
        if text not in self.legal():
            raise Refused(text)
        s, card = words[0], words[2]
        self.hands[s].discard(card)
        if self.passing:
            self.gives[s].append(card)
            if len(self.gives[s]) == 3:
                self.turn = self.left(s)
                if self.turn == self.first:                                    # all twelve made
                    for o in self.seats:
                        self.hands[self.left(o, self.step)] |= set(self.gives[o])
                    self._start_play()
            return
        self.trick.append((s, card))
        if card[-1] == "H":
            self.broken = True                                                 # RH-10
        if len(self.trick) < 4:
            self.turn = self.left(s)
            return
        led = self.trick[0][1][-1]
        win = max((x for x in self.trick if x[1][-1] == led), key=lambda x: -RANKS.index(x[1][:-1]))
        self.taken[win[0]] += [c for _, c in self.trick]
        self.trick = []
        self.tricks_done += 1
        self.turn = win[0]

    def done(self):
        return self.tricks_done == 13

    def points(self):                                                         # RH-12
        return {s: sum(points(c) for c in self.taken[s]) for s in self.seats}

    def deltas(self):                                                         # RH-13
        p = self.points()
        shooter = [s for s in self.seats if p[s] == 26]
        if shooter:
            return {s: 0 if s == shooter[0] else 26 for s in self.seats}
        return p


def referee_record(rec):
    seats = [str(s) for s in rec["seats"]]
    scores = {str(k): v for k, v in (rec.get("scores") or {s: 0 for s in seats}).items()}
    start = dict(scores)
    deals = rec["deals"] if "deals" in rec else [rec]
    number = rec.get("deal_number", 1)
    dealer = str(deals[0]["dealer"])
    over = False
    for i, dr in enumerate(deals, start=1):
        assert not over and str(dr["dealer"]) == dealer                      # RH-3
        ref = Referee(seats, dealer, {str(n): v for n, v in dr["hands"].items()}, number)
        for j, a in enumerate(dr.get("actions") or [], start=1):
            try:
                ref.act(a)
            except Refused:
                out = {"illegal": j}
                if "deals" in rec:
                    out["illegal_deal"] = i
                return out
        if not ref.done():
            return {"complete": False}
        for s, v in ref.deltas().items():
            scores[s] += v
        over = any(v >= 100 for v in scores.values())                          # RH-14
        number += 1
        dealer = ref.left(dealer)
    low = min(scores.values())
    return {"deltas": {s: scores[s] - start[s] for s in seats}, "scores": scores,
            "game_over": over, "winners": sorted(s for s in seats if over and scores[s] == low)}


# ======================================================== cards, players, scores
def test_RH_1_52_cards_ace_high_hearts_1_queen_of_spades_13():
    assert G.n_cards == 52 and list(G.suits) == list(SUITS) and list(G.ranks) == RANKS
    for c, name in enumerate(G.card_names):
        assert G.card_points[c] == points(name), name
    assert sum(G.card_points) == 26                      # 13 hearts + 13


def test_RH_1_no_trumps():
    d = deal(SUITS_DEAL)
    assert d.trumps == -1
    # D's 2C, the lowest club, beats the aces of the other three suits
    act(d, *trick_actions(SUITS_TRICKS[:1]))
    assert by_name(d.tricks) == {"A": 0, "B": 0, "C": 0, "D": 1}


def test_RH_2_four_players_starting_at_zero():
    assert set(G.seat_counts) == {4}
    for n in (3, 5):
        with pytest.raises(ValueError):
            Match(G, n)
    assert G.start_score == 0 and Match(G, 4).scores == [0, 0, 0, 0]
    assert sorted(G.new_deal(4, 0).sides) == [(0,), (1,), (2,), (3,)]   # each for themselves


def test_RH_2_scores_only_go_up_and_the_lower_is_better():
    m, d = _split_match({"A": 93, "B": 87, "C": 95, "D": 80})
    act(d, *trick_actions(SPLIT_TRICKS))
    m.finish(d)
    # B +13 = 100, D +13 = 93, A and C +0: nobody went down; A 93 and D 93 are the
    # lowest and the best (RH-14 then shares the win)
    assert m.scores == [93, 100, 95, 93] and all(x >= 0 for x in d.deltas)
    assert m.game_over and m.winners == [0, 3]


# ======================================================== dealing
def test_RH_3_the_deal_passes_left():
    m = Match(G, 4, first_dealer=1)
    rng = random.Random(3)
    dealers = []
    while not m.game_over and len(dealers) < 6:
        d = m.new_deal()
        dealers.append(d.dealer)
        d.deal_random(rng)
        play_deal(d, RandomAgent(rng))
        m.finish(d)
    assert dealers == [(1 + k) % 4 for k in range(len(dealers))]


def test_RH_3_first_dealer_at_random():
    dealers = set()
    for seed in range(16):
        recs = []
        simulate(G, 1, seed, 4, recs.append, progress=False)
        dealers.add(recs[0]["dealer"])
    assert len(dealers) > 1


class NoShuffle(random.Random):
    def shuffle(self, x):
        pass


@pytest.mark.parametrize("dealer", range(4))
def test_RH_3_all_52_one_at_a_time_from_the_left_dealer_last(dealer):
    d = G.new_deal(4, dealer, None, HOLD)
    assert d.current_player() == CHANCE
    d.deal_random(NoShuffle())
    for s in range(4):
        assert {c for c in range(52) if d.hands[s] >> c & 1} == {p for p in range(52) if (dealer + 1 + p) % 4 == s}
    assert d.hands[dealer] >> 51 & 1 and d.stock == [] and d.exposed == -1


# ======================================================== passing
@pytest.mark.parametrize("number, to", [(1, "B"), (2, "D"), (3, "C"), (4, None),
                                        (5, "B"), (6, "D"), (7, "C"), (8, None),
                                        (11, "C"), (12, None)])
def test_RH_4_passing_direction_by_deal_number(number, to):
    d = deal(SUITS_DEAL, "D", deal_number=number)          # A, the dealer's left, gives first
    if to is None:
        assert d.phase == "play" and legal(d) == {"D play 2C"}
    else:
        assert d.phase == "exchange" and SEATS[d.turn] == "A"
        assert legal(d) == {f"A give {c} {to}" for c in SUIT["S"]}


def test_RH_4_direction_from_other_seats():
    # deal 2 (right), B deals: C gives first, to B; then D to C, A to D, B to A
    d = deal(SUITS_DEAL, "B", deal_number=RIGHT)
    order = []
    for s, to in (("C", "B"), ("D", "C"), ("A", "D"), ("B", "A")):
        order.append(SEATS[d.turn])
        top3 = (SUITS_DEAL[s][:3])
        assert legal(d) == {f"{s} give {c} {to}" for c in SUITS_DEAL[s]}
        act(d, *(f"{s} give {c} {to}" for c in top3))
    assert order == ["C", "D", "A", "B"] and d.phase == "play"


LEFT_GIVES = ["A give AS B", "A give KS B", "A give QS B", "B give AH C", "B give KH C", "B give QH C",
              "C give AD D", "C give KD D", "C give QD D", "D give AC A", "D give KC A", "D give QC A"]


def test_RH_5_three_cards_each_in_the_direction_then_the_hands_for_play():
    d = deal(SUITS_DEAL, "D", deal_number=LEFT)
    act(d, *LEFT_GIVES)
    assert d.phase == "play"
    # each hand: the ten kept, plus the three from the right-hand neighbour
    assert names(d.hands[0]) == set(SUIT["S"][3:]) | {"AC", "KC", "QC"}
    assert names(d.hands[1]) == set(SUIT["H"][3:]) | {"AS", "KS", "QS"}
    assert names(d.hands[2]) == set(SUIT["D"][3:]) | {"AH", "KH", "QH"}
    assert names(d.hands[3]) == set(SUIT["C"][3:]) | {"AD", "KD", "QD"}
    assert names(d.given[1]) == {"AS", "KS", "QS"}
    assert d.observation(1, SEATS)["received"] == ["AS", "KS", "QS"]


def test_RH_5_a_players_three_gives_come_together_left_of_dealer_first():
    d = deal(SUITS_DEAL, "D", deal_number=LEFT)
    refused(d, "B give AH C")                                  # A gives first
    act(d, "A give AS B")
    e = refused(d, "B give AH C")                               # A has two more to give
    assert "A's turn" in e.reason
    act(d, "A give KS B", "A give QS B")
    assert SEATS[d.turn] == "B"
    refused(d, "A give JS B")                                  # three, no more


def test_RH_5_no_card_played_before_all_twelve_gives():
    d = deal(SUITS_DEAL, "D", deal_number=LEFT)
    act(d, *LEFT_GIVES[:9])
    refused(d, "D play 2C")
    assert d.phase == "exchange" and SEATS[d.turn] == "D"
    act(d, *LEFT_GIVES[9:])
    assert legal(d) == {"D play 2C"}


def test_RH_5_give_to_the_wrong_seat_is_illegal():
    d = deal(SUITS_DEAL, "D", deal_number=LEFT)
    for wrong in ("C", "D", "A"):
        e = refused(d, f"A give AS {wrong}")
    assert "passed to B" in e.reason and "RH-5" in e.reason


def test_RH_5_a_received_card_cannot_be_passed_on():
    d = deal(SUITS_DEAL, "D", deal_number=LEFT)
    act(d, *LEFT_GIVES[:3])                                    # B is given AS KS QS
    ob = d.observation(1, SEATS)                               # B chooses without seeing them
    assert ob["received"] == [] and set(ob["hand"]) == set(SUIT["H"])
    e = refused(d, "B give AS C")
    assert "received" in e.reason
    assert not d.hands[1] >> G.parse_card("AS") & 1           # not in B's hand until all have passed
    refused(d, "B give 2S C")                                  # nor any card B was not dealt


def test_RH_6_hold_deal_no_passing_play_begins_at_once():
    d = deal(SUITS_DEAL, "D", deal_number=HOLD)
    assert d.phase == "play" and SEATS[d.turn] == "D"
    refused(d, "A give AS B")
    refused(d, "D give AC A")
    assert names(d.hands[3]) == set(SUIT["C"])                # hands as dealt


# ======================================================== play
def test_RH_7_the_holder_of_2C_after_the_passing_leads_it():
    # deal 2 (right): D, dealer, gives last: D passes 2C 3C 4C to C, so C leads.
    d = deal(SUITS_DEAL, "D", deal_number=RIGHT)
    act(d, "A give AS D", "A give KS D", "A give QS D", "B give AH A", "B give KH A", "B give QH A",
        "C give AD B", "C give KD B", "C give QD B", "D give 2C C", "D give 3C C", "D give 4C C")
    assert SEATS[d.turn] == "C" and legal(d) == {"C play 2C"}
    e = refused(d, "C play 3C")                                 # no other club
    assert "2C" in e.reason and "RH-7" in e.reason
    refused(d, "A play JS")                                     # not the dealer's left either
    refused(d, "C play AH")


def test_RH_7_worked_example_2C_received_by_C():
    d = rh16_deal()
    act(d, *rh16_gives())
    assert SEATS[d.turn] == "C" and legal(d) == {"C play 2C"}


def test_RH_8_follow_suit_clockwise_highest_of_the_suit_led_wins():
    d = deal(SPLIT)
    act(d, "D play 2C", "A play 2S")
    assert legal(d) == plays("B", "AC KC QC JC 10C 9C")        # must follow clubs
    e = refused(d, "B play 8H")
    assert "suit led" in e.reason
    act(d, "B play AC", "C play 2D")
    assert by_name(d.tricks) == {"A": 0, "B": 1, "C": 0, "D": 0} and SEATS[d.turn] == "B"
    act(d, "B play KC", "C play 3D", "D play 3C")
    assert "A play AS" in legal(d)                             # A, void: any card (not trick 1)
    act(d, "A play AS")                                         # an ace of another suit never wins
    assert by_name(d.tricks)["B"] == 2


def test_RH_8_thirteen_tricks_every_card_played():
    d = deal(SPLIT)
    act(d, *trick_actions(SPLIT_TRICKS))
    assert d.is_terminal() and d.tricks_done == 13 and sum(d.tricks) == 13
    assert by_name(d.tricks) == {"A": 0, "B": 6, "C": 0, "D": 7}
    assert d.played == (1 << 52) - 1 and all(h == 0 for h in d.hands)


def test_RH_9_no_points_on_the_first_trick_while_holding_other_cards():
    d = deal(SUITS_DEAL)
    act(d, "D play 2C")
    assert legal(d) == plays("A", [c for c in SUIT["S"] if c != "QS"])   # QS kept back
    e = refused(d, "A play QS")
    assert "first trick" in e.reason and "RH-9" in e.reason
    act(d, "A play 2S")
    assert legal(d) == plays("B", SUIT["H"])                  # B holds only hearts: any
    act(d, "B play 2H")
    assert legal(d) == plays("C", SUIT["D"])


def test_RH_9_a_void_player_with_spades_may_not_play_a_heart():
    d = deal(QLEAD)
    act(d, "D play 2C", "A play AC")
    # B, void in clubs, holds AH 2H and spades: spades only (none of them is QS)
    assert legal(d) == plays("B", "AS KS JS 10S 9S 8S 7S 6S 5S 4S 3S")


def test_RH_9_only_hearts_and_QS_may_play_either_on_the_first_trick():
    hands = {"A": "QS AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H",
             "B": "2H AS KS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S",
             "C": SUIT["D"], "D": SUIT["C"]}
    d = deal(hands)
    act(d, "D play 2C")
    assert legal(d) == plays("A", hands["A"])                 # the QS or any heart
    act(d, "A play QS")
    assert legal(d) == plays("B", hands["B"].split()[1:])     # B has spades: not the 2H
    act(d, "B play 2S", "C play 2D")
    assert by_name(d.card_points) == {"A": 0, "B": 0, "C": 0, "D": 13}


def test_RH_10_a_discarded_heart_breaks_hearts():
    d = rh16_deal()
    act(d, *rh16_gives(), *trick_actions([(ld, cs) for ld, cs, _, _ in RH16_TRICKS[:6]]))
    # trick 7: C leads; no heart played yet, so C (7H 3H QH among others) may not lead one
    assert SEATS[d.turn] == "C"
    assert not any(a.split()[-1].endswith("H") for a in legal(d))
    act(d, "C play 4D", "D play 2H", "A play 6D", "B play KD")  # D discards 2H
    assert SEATS[d.turn] == "B"
    assert {"B play 4H", "B play 8H"} <= legal(d)             # hearts are broken now


def test_RH_10_a_heart_on_the_first_trick_breaks_hearts():
    (rec,) = read_record_file(EXAMPLES / "rh-9-only-hearts-first-trick.yaml")
    d = deal({n: h for n, h in rec["hands"].items()}, rec["dealer"], rec["scores"], rec["deal_number"])
    act(d, "A play 2C", "B play AC", "C play 3H", "D play 6C")
    assert SEATS[d.turn] == "B" and "B play 2H" in legal(d)   # B: 2H and other cards


def test_RH_10_the_queen_of_spades_does_not_break_hearts():
    d = deal(SPLIT)
    act(d, *trick_actions(SPLIT_TRICKS[:2]))                   # A discarded QS in trick 2
    assert d.card_points[1] == 13
    assert legal(d) == plays("B", "QC JC 10C 9C")              # still no heart lead


def test_RH_11_no_heart_lead_before_broken_unless_only_hearts():
    d = deal(SPLIT)
    act(d, *trick_actions(SPLIT_TRICKS[:1]))
    assert legal(d) == plays("B", "KC QC JC 10C 9C")
    e = refused(d, "B play 8H")
    assert "lead a heart" in e.reason and "RH-11" in e.reason
    act(d, *trick_actions(SPLIT_TRICKS[1:6]))
    # no heart has been played, but B now holds nothing but hearts
    assert legal(d) == plays("B", "8H 7H 6H 5H 4H 3H 2H")


def test_RH_11_leader_with_only_hearts_and_QS_must_lead_QS():
    d = deal(QLEAD)
    act(d, "D play 2C", "A play AC", "B play 3S", "C play 2D")  # A wins trick 1
    assert SEATS[d.turn] == "A" and legal(d) == {"A play QS"}
    e = refused(d, "A play KH")
    assert "RH-11" in e.reason
    act(d, "A play QS", "B play AS", "C play 3D", "D play 2S")  # B: 13
    assert by_name(d.card_points) == {"A": 0, "B": 13, "C": 0, "D": 0}
    # QS did not break hearts: B (AH 2H and spades) may not lead a heart
    assert legal(d) == plays("B", "KS JS 10S 9S 8S 7S 6S 5S 4S")


def test_RH_11_golden_must_lead_queen_and_its_refusal_record():
    (rec,) = read_record_file(EXAMPLES / "rh-11-must-lead-queen-of-spades.yaml")
    assert check_expectations(rec, _result(rec, EXAMPLES / "x.yaml")) == []
    (bad,) = read_record_file(RECORDS / "illegal-heart-lead-holding-queen.yaml")
    assert _result(bad, RECORDS / "x.yaml")["illegal"] == 9


def test_RH_11_the_queen_may_be_led_any_time():
    # QLEAD with A also holding 2D (and C 3H instead): after trick 1, hearts unbroken,
    # A may lead QS or 2D, not a heart.
    hands = {"A": "AC QS 2D KH QH JH 10H 9H 8H 7H 6H 5H 4H",
             "B": QLEAD["B"],
             "C": "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 3H",
             "D": QLEAD["D"]}
    d = deal(hands)
    act(d, "D play 2C", "A play AC", "B play 3S")
    assert legal(d) == plays("C", "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D")   # RH-9: not 3H
    act(d, "C play 3D")
    assert legal(d) == {"A play QS", "A play 2D"}
    act(d, "A play QS")
    assert d.trick == [(0, G.parse_card("QS"))]


# ======================================================== scoring
def test_RH_12_points_are_hearts_taken_plus_13_for_QS_adding_to_26():
    d = deal(SPLIT)
    act(d, *trick_actions(SPLIT_TRICKS))
    assert by_name(d.card_points) == {"A": 0, "B": 13, "C": 0, "D": 13}
    assert sum(d.card_points) == 26
    assert by_name(d.deltas) == {"A": 0, "B": 13, "C": 0, "D": 13}   # all hearts but no QS: no moon


def test_RH_13_shooting_the_moon():
    d = deal(SUITS_DEAL, scores={"A": 10, "B": 20, "C": 30, "D": 40})
    act(d, *trick_actions(SUITS_TRICKS))
    assert by_name(d.tricks) == {"A": 0, "B": 0, "C": 0, "D": 13}
    assert by_name(d.card_points)["D"] == 26
    # D took all 26: D scores 0, everyone else 26; no subtraction for D
    assert by_name(d.deltas) == {"A": 26, "B": 26, "C": 26, "D": 0}
    assert by_name(d.scores) == {"A": 36, "B": 46, "C": 56, "D": 40}


def test_RH_13_the_moon_applies_even_past_the_target():
    m = Match(G, 4, first_dealer=3, scores=[80, 60, 75, 99])
    m.deals_played = 3                                           # deal 4: hold
    d = m.new_deal()
    d.set_cards({IDX[n]: [G.parse_card(c) for c in cards(h)] for n, h in SUITS_DEAL.items()}, [])
    act(d, *trick_actions(SUITS_TRICKS))
    m.finish(d)
    # A 106, B 86, C 101, D 99: the game ends; B, lowest, wins (not the shooter)
    assert m.scores == [106, 86, 101, 99] and m.game_over and m.winners == [1]


def test_RH_13_moon_golden_alternative():
    (rec,) = read_record_file(EXAMPLES / "rh-16-moon-alternative.yaml")
    res = _replay(rec).to_json()
    # B took 26: B stays 90; A 60 + 26, C 85 + 26, D 77 + 26
    assert res["scores"] == {"A": 86, "B": 90, "C": 111, "D": 103}
    assert res["game_over"] and res["winners"] == ["A"]


# ======================================================== end of the game
def _split_match(scores):
    m = Match(G, 4, first_dealer=3, scores=[scores[s] for s in SEATS])
    m.deals_played = 3
    d = m.new_deal()
    d.set_cards({IDX[n]: [G.parse_card(c) for c in cards(h)] for n, h in SPLIT.items()}, [])
    return m, d


def test_RH_14_the_game_ends_at_100_checked_when_the_deal_is_complete():
    m, d = _split_match({"A": 50, "B": 90, "C": 60, "D": 70})
    act(d, *trick_actions(SPLIT_TRICKS[:2]))                    # B has taken QS: 90 + 13 in view
    assert d.scores[1] == 90 and not d.is_terminal() and not m.game_over
    act(d, *trick_actions(SPLIT_TRICKS[2:]))
    m.finish(d)
    # B 103, D 83: over; A 50 lowest
    assert m.scores == [50, 103, 60, 83] and m.game_over and m.winners == [0]


def test_RH_14_below_100_the_game_goes_on():
    m, d = _split_match({"A": 50, "B": 86, "C": 60, "D": 70})
    act(d, *trick_actions(SPLIT_TRICKS))
    m.finish(d)
    assert m.scores == [50, 99, 60, 83] and not m.game_over and m.winners == []


def test_RH_14_exactly_100_ends_and_equal_lowest_share():
    m, d = _split_match({"A": 93, "B": 87, "C": 95, "D": 80})
    act(d, *trick_actions(SPLIT_TRICKS))
    m.finish(d)
    assert m.scores == [93, 100, 95, 93] and m.game_over
    assert sorted(SEATS[s] for s in m.winners) == ["A", "D"]


def test_RH_14_golden_shared_winners():
    (rec,) = read_record_file(EXAMPLES / "rh-14-game-shared-winners.yaml")
    res = _replay(rec).to_json()
    assert res["scores"] == {"A": 49, "B": 102, "C": 49, "D": 56}
    assert res["game_over"] and sorted(res["winners"]) == ["A", "C"]


# ======================================================== hand records
def _suits_record(number=LEFT, actions=None, **changes):
    rec = {"spec": "hearts", "seats": SEATS, "dealer": "D", "deal_number": number,
           "hands": {n: list(h) for n, h in SUITS_DEAL.items()},
           "actions": LEFT_GIVES + trick_actions(SUITS_TRICKS) if actions is None else actions}
    rec.update(changes)
    return rec


def test_RH_15_hands_are_as_dealt_before_the_passing():
    # deal 1 (left): D receives AD KD QD from C and gives AC KC QC to A. D still holds
    # 2C … JC and leads; the play must use the hands after the passing.
    acts = LEFT_GIVES + ["D play 2C", "A play AC"]              # A holds AC only once given it
    res = _result(_suits_record(actions=acts), "x.yaml")
    assert "illegal" not in res
    res = _result(_suits_record(actions=["D play 2C"]), "x.yaml")
    assert res["illegal"] == 1                                  # deal 1 passes first


def test_RH_15_deal_number_sets_the_direction_and_counts_on_in_a_game():
    (rec,) = read_record_file(RECORDS / "illegal-give-wrong-direction.yaml")
    res = _result(rec, RECORDS / "x.yaml")
    # deal_number 2: its deals are numbers 2 (right) and 3 (across); D passing right in
    # the second deal is refused there
    assert (res["illegal_deal"], res["illegal"]) == (2, 1)
    assert "B" in res["reason"]


def test_RH_15_deltas_and_scores_of_a_record():
    (rec,) = read_record_file(EXAMPLES / "rh-16-worked-example.yaml")
    res = _replay(rec).to_json()
    assert res["deltas"] == {"A": 1, "B": 14, "C": 0, "D": 11}
    assert all(v >= 0 for v in res["deltas"].values())
    (rec,) = read_record_file(EXAMPLES / "rh-6-hold-deal.yaml")
    res = _replay(rec).to_json()
    assert res["winners"] == [] and res["game_over"] is False


@pytest.mark.parametrize("verb", ["bid 1", "pass", "trumps hearts", "concede"])
def test_RH_15_other_verbs_are_illegal(verb):
    assert _result(_suits_record(actions=[f"A {verb}"]), "x.yaml")["illegal"] == 1


def test_RH_15_no_exposed_card_no_stock():
    with pytest.raises(RecordError):
        _replay(_suits_record(exposed="2C"))
    with pytest.raises(RecordError):
        _replay(_suits_record(stock=["2C"]))


def test_RH_15_a_record_starting_at_100_is_malformed():
    with pytest.raises(RecordError):
        _replay(_suits_record(scores={"A": 100, "B": 0, "C": 0, "D": 0}))


# ======================================================== worked example
def test_RH_16_worked_example():
    d = rh16_deal()
    act(d, *rh16_gives())
    # after the across passes (A <-> C, B <-> D), C holds 2C
    assert d.hands[2] >> G.parse_card("2C") & 1
    for k, (leader, cs, winner, pts) in enumerate(RH16_TRICKS, start=1):
        assert SEATS[d.turn] == leader, k
        before = by_name(d.card_points)
        act(d, *trick_actions([(leader, cs)]))
        after = by_name(d.card_points)
        assert {s: after[s] - before[s] for s in SEATS} == {s: pts if s == winner else 0 for s in SEATS}, k
    # A 1, B 1 + 13 = 14, C 0, D 4 + 4 + 3 = 11
    assert by_name(d.card_points) == {"A": 1, "B": 14, "C": 0, "D": 11}
    assert by_name(d.deltas) == {"A": 1, "B": 14, "C": 0, "D": 11}
    assert by_name(d.scores) == {"A": 61, "B": 104, "C": 85, "D": 88}


def test_RH_16_game_over_and_the_moon_alternative(talon_cli):
    import json
    rc, out, err = talon_cli("replay", EXAMPLES / "rh-16-worked-example.yaml", "--json")
    assert rc == 0, err
    res = json.loads(out)
    assert res["game_over"] and res["winners"] == ["A"]
    # "Had B taken all 26 points": B 90, A 60 + 26 = 86, C 85 + 26 = 111, D 77 + 26 = 103
    alt = _replay(read_record_file(EXAMPLES / "rh-16-moon-alternative.yaml")[0]).to_json()
    assert alt["scores"] == {"A": 86, "B": 90, "C": 111, "D": 103} and alt["winners"] == ["A"]


# ======================================================== properties
def _check_against_referee(d, rng):
    hands0 = [d.hands[s] for s in range(4)]
    assert sum(bin(h).count("1") for h in hands0) == 52
    assert hands0[0] | hands0[1] | hands0[2] | hands0[3] == (1 << 52) - 1
    ref = Referee(SEATS, SEATS[d.dealer], {SEATS[s]: names(hands0[s]) for s in range(4)}, d.deal_number)
    while not d.is_terminal():
        acts = sorted(d.legal_actions())
        mine = ref.legal()
        assert {d.action_to_string(a, d.turn, SEATS) for a in acts} == mine
        a = acts[rng.randrange(len(acts))]
        text = d.action_to_string(a, d.turn, SEATS)
        d.apply_action(a)
        ref.act(text)
        if d.phase == "play" and not d.trick and d.tricks_done == 0:
            assert all(bin(h).count("1") == 13 for h in d.hands)   # 13 each after the passing
    assert ref.done()
    assert by_name(d.card_points) == ref.points()
    assert by_name(d.deltas) == ref.deltas()


@pytest.mark.parametrize("seed", range(40))
def test_property_random_deals_follow_the_rules(seed):
    rng = random.Random(seed)
    d = G.new_deal(4, seed % 4, None, 1 + seed % 8)
    d.deal_random(rng)
    _check_against_referee(d, rng)
    assert d.tricks_done == 13 and sum(d.tricks) == 13
    assert d.played == (1 << 52) - 1
    assert sum(d.card_points) == 26
    assert sum(d.deltas) in (26, 78) and all(x >= 0 for x in d.deltas)
    assert (sum(d.deltas) == 78) == (26 in d.card_points)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), number=st.integers(1, 12), dealer=st.integers(0, 3))
def test_property_hypothesis_conservation_points_and_moon(seed, number, dealer):
    rng = random.Random(seed)
    d = G.new_deal(4, dealer, None, number)
    d.deal_random(rng)
    dealt = list(d.hands)
    play_deal(d, RandomAgent(rng))
    gives = [(s, a) for s, a in d.history if G.codec.kind(a) == "give"]
    played = [a for s, a in d.history if G.codec.kind(a) == "play"]
    assert len(gives) == (0 if number % 4 == 0 else 12)
    assert sorted(played) == list(range(52))                       # every card played once
    for s in range(4):                                               # gives from the dealt hand
        assert all(dealt[s] >> G.codec.fields(a)["card"] & 1 for t, a in gives if t == s)
    assert sum(d.tricks) == 13
    total = sum(d.deltas)
    assert total in (26, 78) and min(d.deltas) >= 0
    if total == 78:
        assert sorted(d.deltas) == [0, 26, 26, 26]
    rec = deal_record(d, SEATS, "hearts")
    assert referee_record(rec)["deltas"] == by_name(d.deltas)


@pytest.mark.parametrize("seed", range(6))
def test_property_random_games_end_at_100_and_the_lowest_wins(seed):
    rng = random.Random(900 + seed)
    m = Match(G, 4, first_dealer=seed % 4)
    prev = list(m.scores)
    while not m.game_over:
        assert m.winners == [] and max(m.scores) < 100
        d = m.new_deal()
        d.deal_random(rng)
        play_deal(d, RandomAgent(rng))
        m.finish(d)
        assert all(a >= b for a, b in zip(m.scores, prev))        # scores only go up
        prev = list(m.scores)
    assert max(m.scores) >= 100
    low = min(m.scores)
    assert m.winners == [s for s in range(4) if m.scores[s] == low]


def _records(folder):
    return sorted(p.name for p in folder.glob("*.yaml"))


@pytest.mark.parametrize("name", _records(RECORDS))
def test_property_refusal_records_refused_at_their_index(name):
    path = RECORDS / name
    (rec,) = read_record_file(path)
    exp = rec["expect"]
    res = _result(rec, path)
    assert res["illegal"] == exp["illegal"]
    if "deals" in rec:
        assert res["illegal_deal"] == exp["illegal_deal"]
    assert check_expectations(rec, res) == []
    ref = referee_record(rec)
    assert ref.get("illegal") == exp["illegal"]
    assert ref.get("illegal_deal") == exp.get("illegal_deal")


@pytest.mark.parametrize("name", _records(EXAMPLES))
def test_property_golden_records_agree_with_the_referee(name):
    (rec,) = read_record_file(EXAMPLES / name)
    assert check_expectations(rec, _result(rec, EXAMPLES / name)) == []
    ref = referee_record(rec)
    for key in ("deltas", "scores", "game_over", "winners"):
        assert ref[key] == (sorted(rec["expect"][key]) if key == "winners" else rec["expect"][key])
