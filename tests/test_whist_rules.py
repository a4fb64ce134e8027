"""One test (or more) per clause of docs/rules/whist.md (RW-1 … RW-17), named with the
clause id, then properties over seeded random deals and games.

Deals are built from hand-picked hands with ``set_cards`` and driven with record-style
action strings. Expected outcomes are worked out by hand from the rules page (see the
comments), or by ``Referee`` below: an independent reading of the page (whose turn,
following suit, the trick winner, odd tricks, game of five) that never asks the engine.

Two deals recur:

* ``ladder(m)``: D deals and turns 2C (clubs trumps). A holds the m top clubs and the
  13 - m top spades, D the other 13 - m clubs and the m lowest spades, B all the hearts,
  C all the diamonds. A leads its clubs (D must follow, lower), then m spades (D must
  follow, lower), then a spade that D, void, trumps; D then leads clubs to the end. So
  A-C take 2m tricks and B-D 13 - 2m (m = 0 … 6).
* ``TRUMPS``: D deals and turns 2H (hearts trumps); A holds all thirteen spades, so on
  A's spade lead B, C and D are all void: they may trump, overtrump, undertrump or
  discard.
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
EXAMPLES = ROOT / "specs" / "examples" / "whist"
RECORDS = Path(__file__).resolve().parent / "records" / "whist"

G = load("whist")
SEATS = ["A", "B", "C", "D"]
IDX = {n: i for i, n in enumerate(SEATS)}
RANKS = "A K Q J 10 9 8 7 6 5 4 3 2".split()          # RW-1: ace high
SUITS = "SHDC"
SUIT = {s: [r + s for r in RANKS] for s in SUITS}       # each suit, high to low


# ------------------------------------------------------------------ helpers
def _replay(rec):
    """Replay a record with the already loaded spec (a record names it; loading it again
    for every record only costs time)."""
    return replay_record(rec, game=G)


def _result(rec, path="x.yaml"):
    return replay_result(rec, path, game=G)


def cards(text):
    return text.split() if isinstance(text, str) else list(text)


def deal(dealer, hands, exposed, scores=None, deal_number=1):
    """A deal of the four given hands (names or lists), D's `exposed` card turned."""
    sc = None if scores is None else [scores[n] for n in SEATS]
    d = G.new_deal(4, IDX[dealer], sc, deal_number)
    d.set_cards({IDX[n]: [G.parse_card(c) for c in cards(h)] for n, h in hands.items()},
                [], G.parse_card(exposed))
    return d


def act(d, *actions):
    apply_actions(d, list(actions), IDX, SEATS)
    return d


def legal(d, seat=None):
    s = d.turn if seat is None else IDX[seat]
    return {d.action_to_string(a, s, SEATS) for a in d.legal_actions(s)}


def refused(d, action) -> IllegalAction:
    before = (list(d.hands), d.turn, len(d.history), list(d.tricks))
    with pytest.raises(IllegalAction) as e:
        act(d, action)
    assert (list(d.hands), d.turn, len(d.history), list(d.tricks)) == before   # nothing changed
    return e.value


def plays(seat, text):
    return {f"{seat} play {c}" for c in cards(text)}


def flat(tricks):
    return [f"{s} play {c}" for trick in tricks for s, c in trick]


def by_name(values):
    return {n: values[i] for i, n in enumerate(SEATS)}


def ladder(m, dealer="D"):
    """The ladder deal (module docstring) with roles rotated so that `dealer` deals:
    role A is the dealer's left. Returns (hands, exposed, tricks); the leader's side
    takes 2m tricks, the dealer's side 13 - 2m."""
    i = IDX[dealer]
    a, b, c, d = (SEATS[(i + k) % 4] for k in (1, 2, 3, 4))
    clubs, spades = SUIT["C"], SUIT["S"]
    hands = {a: clubs[:m] + spades[:13 - m], b: SUIT["H"], c: SUIT["D"],
             d: clubs[m:] + spades[13 - m:]}
    hearts, diamonds = iter(SUIT["H"]), iter(SUIT["D"])
    d_clubs = iter(reversed(clubs[m:]))           # D plays its clubs lowest first: 2C first
    tricks = []
    for k in range(m):                            # A's top clubs; D follows lower
        tricks.append([(a, clubs[k]), (b, next(hearts)), (c, next(diamonds)), (d, next(d_clubs))])
    for k in range(m):                            # A's top spades; D follows lower
        tricks.append([(a, spades[k]), (b, next(hearts)), (c, next(diamonds)), (d, spades[13 - m + k])])
    a_spades = iter(spades[m:13 - m])
    for k in range(13 - 2 * m):                   # D trumps once, then leads clubs
        if k == 0:
            tricks.append([(a, next(a_spades)), (b, next(hearts)), (c, next(diamonds)), (d, next(d_clubs))])
        else:
            tricks.append([(d, next(d_clubs)), (a, next(a_spades)), (b, next(hearts)), (c, next(diamonds))])
    return hands, "2C", tricks


# TRUMPS (module docstring): hearts trumps, A holds every spade.
TRUMPS = dict(dealer="D", exposed="2H", hands={
    "A": SUIT["S"],
    "B": "AH KH QH 10H AD KD QD JD 10D 9D 8D 7D 6D",
    "C": "JH 9H 8H 7H 5D 4D 3D 2D AC KC QC JC 10C",
    "D": "6H 5H 4H 3H 2H 9C 8C 7C 6C 5C 4C 3C 2C"})

# RW-17, the worked example, as the page gives it.
RW17_HANDS = {"A": "KS JS 7S 2S QH 6H 5H KD JD 4D 8C 6C 2C",
              "B": "AS QS 10S 3S JH 9H 8H 4H 7D 6D 5D 10C 3C",
              "C": "9S 8S 6S 5S 4S AH KH AD 3D AC KC QC JC",
              "D": "10H 7H 3H 2H QD 10D 9D 8D 2D 9C 7C 5C 4C"}
RW17_SCORES = {"A": 3, "B": 4, "C": 3, "D": 4}
RW17_TRICKS = [  # (cards in playing order, the winner the page names)
    ("A KS, B 3S, C 5S, D 7H", "D"), ("D QD, A 4D, B 6D, C AD", "C"),
    ("C AH, D 2H, A 5H, B 8H", "C"), ("C KH, D 3H, A 6H, B 9H", "C"),
    ("C AC, D 4C, A 2C, B 3C", "C"), ("C KC, D 5C, A 6C, B 10C", "C"),
    ("C QC, D 7C, A 8C, B JH", "B"), ("B AS, C 4S, D 8D, A 2S", "B"),
    ("B QS, C 6S, D 10H, A 7S", "D"), ("D 9D, A JD, B 7D, C 3D", "A"),
    ("A QH, B 4H, C JC, D 9C", "A"), ("A JS, B 10S, C 9S, D 2D", "A"),
    ("A KD, B 5D, C 8S, D 10D", "A")]


def rw17_actions(upto=13):
    return [f"{p.split()[0]} play {p.split()[1]}" for text, _ in RW17_TRICKS[:upto]
            for p in text.split(", ")]


def rw17_deal():
    return deal("D", RW17_HANDS, "7H", RW17_SCORES)


# ------------------------------------------------------------------ the referee
class Refused(Exception):
    pass


def norm(card: str) -> str:
    c = str(card).strip().upper()
    for sym, letter in zip("♠♥♦♣", "SHDC"):
        c = c.replace(sym, letter)
    rank = "10" if c[:-1] == "T" else c[:-1]
    return rank + c[-1]


def beats(card, best, led, trumps):
    """RW-10: does `card` beat the card `best` now winning a trick of suit `led`?"""
    if card[-1] == best[-1]:
        return RANKS.index(card[:-1]) < RANKS.index(best[:-1])
    return card[-1] == trumps


class Referee:
    """Whist as docs/rules/whist.md reads, for one deal: RW-6/8/9/10/11/12."""

    def __init__(self, seats, dealer, hands, exposed, scores=None):
        self.seats = list(seats)
        self.hands = {s: {norm(c) for c in hands[s]} for s in seats}
        assert all(len(h) == 13 for h in self.hands.values())                 # RW-4
        assert len(set().union(*self.hands.values())) == 52
        self.exposed = norm(exposed)
        assert self.exposed in self.hands[dealer]                              # RW-6, RW-16
        self.trumps = self.exposed[-1]                                         # RW-5
        self.turn = self.left(dealer)                                          # RW-8
        self.trick, self.tricks = [], {s: 0 for s in seats}
        self.winners = []
        self.scores = dict(scores or {s: 0 for s in seats})

    def left(self, s):
        return self.seats[(self.seats.index(s) + 1) % 4]

    def legal(self):
        if self.done():
            return set()
        hand = self.hands[self.turn]
        if self.trick:                                                         # RW-9
            same = {c for c in hand if c[-1] == self.trick[0][1][-1]}
            hand = same or hand
        return {f"{self.turn} play {c}" for c in hand}

    def act(self, text):
        words = str(text).split()
        if len(words) == 3 and words[1] == "play":
            words[2] = norm(words[2])
        text = " ".join(words)
        if text not in self.legal():                                           # RW-11
            raise Refused(text)
        s, card = words[0], words[2]
        self.hands[s].discard(card)
        self.trick.append((s, card))
        if len(self.trick) < 4:
            self.turn = self.left(s)
            return
        led = self.trick[0][1][-1]
        win = self.trick[0]
        for who, c in self.trick[1:]:
            if beats(c, win[1], led, self.trumps):
                win = (who, c)
        self.tricks[win[0]] += 1
        self.winners.append(win[0])
        self.trick = []
        self.turn = win[0]                                                     # RW-8

    def done(self):
        return sum(self.tricks.values()) == 13

    def deltas(self):
        """RW-12: a side's tricks beyond six, to both of its players."""
        out = {}
        for side in ((self.seats[0], self.seats[2]), (self.seats[1], self.seats[3])):
            t = sum(self.tricks[s] for s in side)
            for s in side:
                out[s] = max(t - 6, 0)
        return out


def referee_record(rec):
    """Replay a record (one deal or `deals:`) by the rules page alone."""
    seats = [str(s) for s in rec["seats"]]
    scores = {str(k): v for k, v in (rec.get("scores") or {s: 0 for s in seats}).items()}
    start = dict(scores)
    deals = rec["deals"] if "deals" in rec else [rec]
    dealer = str(deals[0]["dealer"])
    over = False
    for k, dr in enumerate(deals, start=1):
        assert not over, "a deal after the end of the game"
        assert str(dr["dealer"]) == dealer                                     # RW-3
        ref = Referee(seats, dealer, {str(n): v for n, v in dr["hands"].items()}, dr["exposed"])
        for i, a in enumerate(dr.get("actions") or [], start=1):
            try:
                ref.act(a)
            except Refused:
                out = {"illegal": i}
                if "deals" in rec:
                    out["illegal_deal"] = k
                return out
        if not ref.done():
            return {"complete": False}
        for s, v in ref.deltas().items():
            scores[s] += v
        over = any(v >= 5 for v in scores.values())                           # RW-14
        dealer = ref.left(dealer)
    return {"deltas": {s: scores[s] - start[s] for s in seats}, "scores": scores,
            "game_over": over,
            "winners": sorted(s for s in seats if over and scores[s] >= 5)}   # RW-15


def engine_legal_strings(d):
    return {d.action_to_string(a, d.turn, SEATS) for a in d.legal_actions()}


# ======================================================== cards, players, sides
def test_RW_1_one_pack_of_52_ace_high_no_card_points():
    assert G.n_cards == 52 and len(set(G.card_names)) == 52
    assert list(G.suits) == ["S", "H", "D", "C"]
    assert list(G.ranks) == RANKS
    assert all(p == 0 for p in G.card_points)          # only tricks count


@pytest.mark.parametrize("lead, follows, winner", [
    # spades led and followed by all (no trump in the trick): highest spade wins
    (("A", "JS"), [("B", "10S"), ("C", "9S"), ("D", "2D")], "A"),       # J > 10 > 9
    (("A", "KS"), [("B", "AS"), ("C", "9S"), ("D", "2D")], "B"),        # A > K
    (("A", "2S"), [("B", "3S"), ("C", "4S"), ("D", "2D")], "C"),        # 4 > 3 > 2
])
def test_RW_1_rank_order_decides_a_trick(lead, follows, winner):
    # Hearts trumps (D turns 2H), nobody trumps: the rank order A K Q … 2 decides.
    # D holds no spade and discards 2D each time.
    hands = {"A": "KS QS JS 2S AH AD KD QD JD 10D 9D 8D 7D",
             "B": "AS 10S 8S 3S 6D 5D 4D 3D AC KC QC JC 10C",
             "C": "9S 7S 6S 5S 4S 9C 8C 7C 6C 5C 4C 3C 2C",
             "D": "KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H 2D"}
    d = deal("D", hands, "2H")
    act(d, f"{lead[0]} play {lead[1]}", *(f"{s} play {c}" for s, c in follows))
    assert by_name(d.tricks)[winner] == 1 and sum(d.tricks) == 1
    assert d.card_points == [0, 0, 0, 0]


def test_RW_2_four_seats_in_two_sides_partners_opposite():
    assert set(G.seat_counts) == {4}
    for n in (3, 5):
        with pytest.raises(ValueError):
            Match(G, n)
    d = G.new_deal(4, 3)
    assert sorted(sorted(side) for side in d.sides) == [[0, 2], [1, 3]]     # A-C, B-D
    assert G.start_score == 0 and Match(G, 4).scores == [0, 0, 0, 0]


def test_RW_2_a_score_belongs_to_a_side():
    # ladder(2): A-C 4 tricks, B-D 9 tricks -> B-D 9 - 6 = 3, to both B and D.
    hands, up, tricks = ladder(2)
    d = deal("D", hands, up, {"A": 1, "B": 2, "C": 1, "D": 2})
    act(d, *flat(tricks))
    assert by_name(d.deltas) == {"A": 0, "B": 3, "C": 0, "D": 3}
    assert by_name(d.scores) == {"A": 1, "B": 5, "C": 1, "D": 5}


# ======================================================== dealing
def test_RW_3_the_deal_passes_left_after_every_deal():
    m = Match(G, 4, first_dealer=2)
    rng = random.Random(3)
    seen = []
    while not m.game_over:
        d = m.new_deal()
        seen.append(d.dealer)
        d.deal_random(rng)
        play_deal(d, RandomAgent(rng))
        m.finish(d)
    assert len(seen) >= 2
    assert seen == [(2 + k) % 4 for k in range(len(seen))]     # C, D, A, B, C, …


def test_RW_3_first_dealer_is_chosen_by_chance():
    dealers = set()
    for seed in range(16):
        recs = []
        simulate(G, 1, seed, 4, recs.append, progress=False)
        dealers.add(recs[0]["dealer"])
    assert len(dealers) > 1


class NoShuffle(random.Random):
    """Leaves the deck in order: deck position p holds card int p."""
    def shuffle(self, x):
        pass


@pytest.mark.parametrize("dealer", range(4))
def test_RW_4_one_card_at_a_time_from_the_left_dealer_gets_the_52nd(dealer):
    d = G.new_deal(4, dealer)
    assert d.current_player() == CHANCE
    d.deal_random(NoShuffle())
    # position p goes to the seat (dealer + 1 + p) mod 4: the left neighbour gets
    # positions 0, 4, 8, …; the dealer 3, 7, …, 51.
    for s in range(4):
        want = {p for p in range(52) if (dealer + 1 + p) % 4 == s}
        assert {c for c in range(52) if d.hands[s] >> c & 1} == want
    assert d.exposed == 51 and d.hands[dealer] >> 51 & 1        # the last card, face up
    assert all(bin(h).count("1") == 13 for h in d.hands)


def test_RW_5_the_turned_card_names_trumps_for_the_whole_deal():
    for suit_i, up in enumerate(["2S", "2H", "2D", "2C"]):
        # four one-suit hands, the dealer D holding the suit of `up`
        others = [s for s in SUITS if s != up[-1]]
        hands = {"A": SUIT[others[0]], "B": SUIT[others[1]], "C": SUIT[others[2]], "D": SUIT[up[-1]]}
        d = deal("D", hands, up)
        assert d.trumps == suit_i
        assert d.observation(0, SEATS)["trumps"] == G.suit_words[suit_i]
        act(d, f"A play A{others[0]}", f"B play A{others[1]}", f"C play A{others[2]}", "D play 2" + up[-1])
        assert by_name(d.tricks)["D"] == 1          # D's lowest card, a trump, wins
        assert d.trumps == suit_i                   # and stays trumps


def test_RW_5_no_auction_no_choice_play_starts_at_once():
    assert G.phases == ("play",)
    d = rw17_deal()
    assert d.phase == "play" and SEATS[d.turn] == "A"
    assert legal(d) == plays("A", RW17_HANDS["A"])              # only card plays
    for s in "BCD":
        assert legal(d, s) == set()
    for a in ("A bid 1", "A pass", "A trumps spades", "A exchange 2H"):
        refused(d, a)


def test_RW_6_the_turned_card_is_the_dealers_and_shown_until_it_plays_to_trick_1():
    d = rw17_deal()
    assert d.hands[IDX["D"]] >> G.parse_card("7H") & 1             # in D's 13 cards
    assert bin(d.hands[IDX["D"]]).count("1") == 13
    for s in range(4):
        assert d.observation(s, SEATS)["exposed"] == "7H"          # seen by all
    act(d, "A play KS", "B play 3S", "C play 5S")
    assert d.observation(1, SEATS)["exposed"] == "7H"              # D has not played yet
    act(d, "D play 7H")
    for s in range(4):
        assert d.observation(s, SEATS)["exposed"] is None


def test_RW_6_turned_card_kept_in_hand_when_dealer_plays_another_card():
    d = rw17_deal()
    act(d, "A play KS", "B play 3S", "C play 5S", "D play 2H")       # D trumps with 2H instead
    assert d.hands[IDX["D"]] >> G.parse_card("7H") & 1
    assert d.observation(0, SEATS)["exposed"] is None              # taken into hand
    assert SEATS[d.turn] == "D" and "D play 7H" in legal(d)     # D's 2H won; 7H is D's to lead


def test_RW_6_turned_card_counts_for_following_suit():
    # D deals and turns 2S, its only spade: spades are trumps. A leads KS: D must
    # follow with the 2S, the only card of the suit led it holds.
    hands = {"A": SUIT["S"][:12] + ["AH"], "B": SUIT["D"], "C": SUIT["C"],
             "D": ["2S"] + SUIT["H"][1:]}
    d = deal("D", hands, "2S")
    act(d, "A play KS", "B play 2D", "C play 2C")
    assert legal(d) == {"D play 2S"}
    e = refused(d, "D play KH")
    assert "suit led" in e.reason and "RW-9" in e.reason
    rec = read_record_file(RECORDS / "illegal-dealer-keeps-turned-card.yaml")[0]
    assert _result(rec, RECORDS / "x.yaml")["illegal"] == 4


def test_RW_6_nobody_else_can_play_the_turned_card():
    d = rw17_deal()
    e = refused(d, "A play 7H")
    assert "7H" in e.reason
    act(d, "A play KS")
    refused(d, "B play 7H")
    act(d, "B play 3S")
    refused(d, "C play 7H")
    act(d, "C play 5S")
    assert "D play 7H" in legal(d)


def test_RW_6_turned_card_playable_to_any_later_trick():
    # ladder(0): D holds all the clubs and plays them lowest first, but here keeps the
    # turned 2C to the very last trick instead.
    hands, up, _ = ladder(0)
    d = deal("D", hands, up)
    spades, hearts, diamonds = SUIT["S"], SUIT["H"], SUIT["D"]
    clubs = SUIT["C"]                                     # AC … 2C; 2C last
    act(d, f"A play {spades[0]}", f"B play {hearts[0]}", f"C play {diamonds[0]}", f"D play {clubs[0]}")
    for k in range(1, 12):
        act(d, f"D play {clubs[k]}", f"A play {spades[k]}", f"B play {hearts[k]}", f"C play {diamonds[k]}")
    assert legal(d) == {"D play 2C"}                      # still D's, 12 tricks later
    act(d, "D play 2C", "A play 2S", "B play 2H", "C play 2D")
    assert d.is_terminal() and by_name(d.tricks) == {"A": 0, "B": 0, "C": 0, "D": 13}


def test_RW_6_golden_record_turned_card_played_late():
    rec = read_record_file(EXAMPLES / "rw-6-turned-card-played-late.yaml")[0]
    # B deals and turns 5C; it is played by B only as the lead of trick 13.
    assert rec["actions"].index("B play 5C") == 48
    # Tricks by the comment: A-C 7, B-D 6 -> A-C +1 (RW-12); from 2-1: A-C 3, B-D 1.
    res = _replay(rec).to_json()
    assert res["deltas"] == {"A": 1, "B": 0, "C": 1, "D": 0}
    assert res["scores"] == {"A": 3, "B": 1, "C": 3, "D": 1} and res["game_over"] is False
    assert referee_record(rec) == {k: res[k] for k in ("deltas", "scores", "game_over", "winners")}


# ======================================================== play
def test_RW_7_thirteen_tricks_all_played_out_even_when_decided():
    # ladder(0): D wins every trick. After trick 7 B-D have 7 tricks, so B-D are sure of
    # scoring and A-C of nothing: the play still goes on to trick 13.
    hands, up, tricks = ladder(0)
    d = deal("D", hands, up)
    act(d, *flat(tricks[:7]))
    assert by_name(d.tricks)["D"] == 7 and not d.is_terminal()
    refused(d, "D concede")                                 # no concessions
    act(d, *flat(tricks[7:]))
    assert d.is_terminal() and d.tricks_done == 13 and sum(d.tricks) == 13
    assert all(h == 0 for h in d.hands)                                # every card played
    assert len(d.history) == 52


@pytest.mark.parametrize("dealer, leader", [("D", "A"), ("A", "B"), ("B", "C"), ("C", "D")])
def test_RW_8_left_of_the_dealer_leads_first(dealer, leader):
    hands, up, tricks = ladder(3, dealer)
    d = deal(dealer, hands, up)
    assert SEATS[d.turn] == leader
    assert all(legal(d, s) == set() for s in SEATS if s != leader)


def test_RW_8_the_winner_of_a_trick_leads_the_next():
    d = rw17_deal()
    leaders = []
    for k, (text, winner) in enumerate(RW17_TRICKS):
        leaders.append(SEATS[d.turn])
        act(d, *rw17_actions(k + 1)[4 * k:])
    # each trick is led by the previous trick's winner (page, RW-17)
    assert leaders == ["A"] + [w for _, w in RW17_TRICKS[:-1]]


def test_RW_9_any_card_may_be_led_trumps_included():
    hands, up, tricks = ladder(4)
    d = deal("D", hands, up)
    assert legal(d) == plays("A", hands["A"])               # all 13, trumps among them
    act(d, "A play AC", "B play AH", "C play AD", "D play 2C")    # a trump lead to trick 1
    assert by_name(d.tricks)["A"] == 1


def test_RW_9_must_follow_suit_but_no_duty_to_win():
    d = rw17_deal()
    act(d, *rw17_actions(1), "D play QD")
    # A holds KD JD 4D: any diamond, the 4D included, though KD would win
    assert legal(d) == plays("A", "KD JD 4D")
    act(d, "A play 4D")
    assert legal(d) == plays("B", "7D 6D 5D")


def test_RW_9_void_may_trump_overtrump_undertrump_or_discard():
    d = deal(**TRUMPS)
    act(d, "A play AS")
    assert legal(d) == plays("B", TRUMPS["hands"]["B"])     # void in spades: anything
    act(d, "B play 10H")                                    # trumps
    assert legal(d) == plays("C", TRUMPS["hands"]["C"])     # may undertrump or discard too
    act(d, "C play JH")                                     # overtrumps
    assert legal(d) == plays("D", TRUMPS["hands"]["D"])
    act(d, "D play 9C")                                     # discards, holding trumps
    assert by_name(d.tricks)["C"] == 1                      # JH > 10H


def test_RW_9_no_duty_to_trump():
    d = rw17_deal()
    act(d, *rw17_actions(7), "B play AS", "C play 4S")
    # D, void in spades, holds 10H (a trump) and diamonds and clubs: it may discard 8D
    assert "D play 8D" in legal(d) and "D play 10H" in legal(d)
    act(d, "D play 8D", "A play 2S")
    assert SEATS[d.turn] == "B"                             # B's AS won


@pytest.mark.parametrize("b, c, d_, winner", [
    ("KH", "JH", "6H", "B"),      # three trumps: the highest, KH
    ("6D", "7H", "2H", "C"),      # two trumps: 7H over 2H
    ("6D", "JH", "2H", "C"),      # undertrumping (2H under JH) does not win
    ("6D", "AC", "9C", "A"),      # no trump: the highest spade; AC is off-suit
    ("AH", "AC", "9C", "B"),      # a single trump beats the ace led
])
def test_RW_10_trick_winner(b, c, d_, winner):
    d = deal(**TRUMPS)
    act(d, "A play AS", f"B play {b}", f"C play {c}", f"D play {d_}")
    assert by_name(d.tricks) == {s: int(s == winner) for s in SEATS}
    assert SEATS[d.turn] == winner


def test_RW_10_worked_example_trick_winners():
    d = rw17_deal()
    for k, (text, winner) in enumerate(RW17_TRICKS):
        before = by_name(d.tricks)
        act(d, *rw17_actions(k + 1)[4 * k:])
        after = by_name(d.tricks)
        assert {s: after[s] - before[s] for s in SEATS} == {s: int(s == winner) for s in SEATS}, k + 1


def test_RW_11_out_of_turn_is_refused():
    d = rw17_deal()
    e = refused(d, "B play AS")
    assert "A" in e.reason and "turn" in e.reason
    act(d, "A play KS")
    refused(d, "C play 5S")                                 # B's turn
    refused(d, "A play JS")                                 # A has played to this trick


def test_RW_11_leading_when_another_should_lead_is_refused():
    d = rw17_deal()
    act(d, *rw17_actions(1))                                # D wins trick 1
    e = refused(d, "A play 4D")
    assert "D's turn" in e.reason


def test_RW_11_revoke_is_refused_not_penalised():
    d = rw17_deal()
    act(d, *rw17_actions(1), "D play QD", "A play 4D")
    e = refused(d, "B play 10C")
    assert "suit led" in e.reason and "follow-suit" in e.reason and "RW-9" in e.reason
    assert set(e.legal) == {"B play 7D", "B play 6D", "B play 5D"}
    # the deal goes on as if nothing happened: no penalty tricks (RW-17's result)
    act(d, *rw17_actions(13)[6:])
    assert by_name(d.deltas) == {"A": 3, "B": 0, "C": 3, "D": 0}


def test_RW_11_cards_not_held_are_refused():
    d = rw17_deal()
    refused(d, "A play AS")                                 # B's card
    refused(d, "A play 7H")                                 # the turned card, not A's
    act(d, *rw17_actions(1), "D play QD")
    e = refused(d, "A play KS")                             # A played it to trick 1
    assert "does not hold" in e.reason


@pytest.mark.parametrize("action", ["A bid 1", "A pass", "A trumps hearts", "A give KS B",
                                    "A concede", "A look", "A play KS marriage", "A close",
                                    "A abandon", "A contract 7", "A exchange 2H"])
def test_RW_11_any_action_but_playing_a_card_is_refused(action):
    d = rw17_deal()
    refused(d, action)
    assert legal(d) == plays("A", RW17_HANDS["A"])


# ======================================================== scoring
@pytest.mark.parametrize("m, ac, bd, ac_pts, bd_pts", [
    (0, 0, 13, 0, 7),     # 13 - 6 = 7
    (1, 2, 11, 0, 5),     # 11 - 6 = 5
    (2, 4, 9, 0, 3),      # 9 - 6 = 3
    (3, 6, 7, 0, 1),      # 7 - 6 = 1; A-C's six are a book: nothing
    (4, 8, 5, 2, 0),      # 8 - 6 = 2
    (5, 10, 3, 4, 0),     # 10 - 6 = 4
    (6, 12, 1, 6, 0),     # 12 - 6 = 6
])
def test_RW_12_odd_tricks_score_the_book_scores_nothing(m, ac, bd, ac_pts, bd_pts):
    hands, up, tricks = ladder(m)
    d = deal("D", hands, up, {"A": 0, "B": 0, "C": 0, "D": 0})
    act(d, *flat(tricks))
    t = by_name(d.tricks)
    assert (t["A"] + t["C"], t["B"] + t["D"]) == (ac, bd)
    assert by_name(d.deltas) == {"A": ac_pts, "B": bd_pts, "C": ac_pts, "D": bd_pts}
    assert (ac_pts > 0) != (bd_pts > 0)                     # exactly one side scores


def test_RW_12_all_thirteen_tricks_score_seven_golden():
    rec = read_record_file(EXAMPLES / "rw-12-all-thirteen-tricks.yaml")[0]
    res = _replay(rec).to_json()
    # B-D from 0: 13 - 6 = 7; A-C stay at 4.
    assert res["deltas"] == {"A": 0, "B": 7, "C": 0, "D": 7}
    assert res["scores"] == {"A": 4, "B": 7, "C": 4, "D": 7}


def test_RW_12_scores_never_go_down():
    hands, up, tricks = ladder(5)
    d = deal("D", hands, up, {"A": 2, "B": 4, "C": 2, "D": 4})
    act(d, *flat(tricks))
    # A-C 10 tricks: +4 -> 6; B-D 3 tricks: 0, stay at 4
    assert by_name(d.scores) == {"A": 6, "B": 4, "C": 6, "D": 4}


@pytest.mark.parametrize("m, deltas", [
    # m = 0: D was dealt AC KC QC JC (all four honours) and B-D take 13 tricks: 7 only, not 7 + 4
    (0, {"A": 0, "B": 7, "C": 0, "D": 7}),
    # m = 3: A was dealt AC KC QC (three honours), B-D take 7: B-D 1, A-C no 2 for honours
    (3, {"A": 0, "B": 1, "C": 0, "D": 1}),
    # m = 4: A-C dealt all four honours and take 8: 2 only, not 2 + 4
    (4, {"A": 2, "B": 0, "C": 2, "D": 0}),
])
def test_RW_13_no_honours_by_default(m, deltas):
    hands, up, tricks = ladder(m)
    d = deal("D", hands, up)
    act(d, *flat(tricks))
    assert by_name(d.deltas) == deltas


# ======================================================== end of the game
def _match_deal(m, m_param):
    """Deal ladder(m_param) as the match's next deal (its dealer), play it, finish it."""
    d = m.new_deal()
    hands, up, tricks = ladder(m_param, SEATS[d.dealer])
    d.set_cards({IDX[n]: [G.parse_card(c) for c in h] for n, h in hands.items()}, [], G.parse_card(up))
    act(d, *flat(tricks))
    m.finish(d)
    return d


def test_RW_14_game_is_five_checked_after_the_deal_points_beyond_kept():
    m = Match(G, 4, first_dealer=IDX["D"])
    # Deal 1, D deals, ladder(3): the dealer's side B-D takes 7 -> +1: A-C 0, B-D 1.
    _match_deal(m, 3)
    assert m.scores == [0, 1, 0, 1] and not m.game_over and m.winners == []
    # Deal 2, A deals (left of D): B leads, so B-D are the leader's side; ladder(6)
    # gives B-D 12 tricks -> +6: B-D 1 + 6 = 7, beyond 5 and kept.
    assert m.dealer == IDX["A"]
    _match_deal(m, 6)
    assert m.scores == [0, 7, 0, 7]
    assert m.game_over and [SEATS[s] for s in m.winners] == ["B", "D"]


def test_RW_14_reaching_five_during_the_play_does_not_end_the_deal():
    # ladder(0) from A-C 0, B-D 4: B-D's 7th trick (trick 7) makes 1 point, i.e. 5,
    # but the deal is played out and all 7 odd tricks count: 4 + 7 = 11.
    m = Match(G, 4, first_dealer=IDX["D"], scores=[0, 4, 0, 4])
    d = m.new_deal()
    hands, up, tricks = ladder(0)
    d.set_cards({IDX[n]: [G.parse_card(c) for c in h] for n, h in hands.items()}, [], G.parse_card(up))
    act(d, *flat(tricks[:8]))
    assert not d.is_terminal() and not m.game_over and d.scores == [0, 4, 0, 4]
    act(d, *flat(tricks[8:]))
    m.finish(d)
    assert m.scores == [0, 11, 0, 11] and m.game_over


def test_RW_14_below_five_a_new_deal_follows():
    rec = read_record_file(EXAMPLES / "rw-14-game-points-beyond-five.yaml")[0]
    res = _replay(rec).to_json()
    # deals: A-C +3, B-D +1, A-C +5 (3 + 5 = 8): three deals, the game ends after the third
    assert [x["scores"] for x in res["deals"]] == [
        {"A": 3, "B": 0, "C": 3, "D": 0}, {"A": 3, "B": 1, "C": 3, "D": 1},
        {"A": 8, "B": 1, "C": 8, "D": 1}]
    assert res["game_over"] and res["winners"] == ["A", "C"]
    assert referee_record(rec) == {k: res[k] for k in ("deltas", "scores", "game_over", "winners")}


def test_RW_15_winners_are_both_partners_and_nobody_before_the_end():
    m = Match(G, 4, first_dealer=IDX["D"], scores=[4, 3, 4, 3])
    _match_deal(m, 3)                    # B-D +1: 4-4, nobody has 5
    assert not m.game_over and m.winners == []
    _match_deal(m, 4)                    # B leads: B-D take 8 -> +2: B-D 6
    assert m.scores == [4, 6, 4, 6]
    assert m.game_over and sorted(SEATS[s] for s in m.winners) == ["B", "D"]


def test_RW_15_a_game_record_cannot_go_on_after_the_end():
    rec = read_record_file(EXAMPLES / "rw-14-game-points-beyond-five.yaml")[0]
    extra = dict(rec["deals"][0])
    extra["dealer"] = "D"
    rec = {**rec, "deals": rec["deals"] + [extra]}
    rec.pop("expect", None)
    with pytest.raises(RecordError, match="already ended"):
        _replay(rec)


# ======================================================== hand records
def _rw17_record(**changes):
    rec = {"spec": "whist", "seats": SEATS, "dealer": "D", "scores": dict(RW17_SCORES),
           "hands": {n: cards(h) for n, h in RW17_HANDS.items()}, "exposed": "7H",
           "actions": rw17_actions()}
    rec.update(changes)
    return rec


def test_RW_16_record_keys_hands_exposed_and_play_only():
    res = _replay(_rw17_record()).to_json()
    assert res["scores"] == {"A": 6, "B": 4, "C": 6, "D": 4}
    with pytest.raises(RecordError, match="exposed"):
        _replay(_rw17_record(exposed="KS"))                  # A's card, not D's
    with pytest.raises(RecordError, match="exposed"):
        _replay({k: v for k, v in _rw17_record().items() if k != "exposed"})
    with pytest.raises(RecordError, match="stock"):
        _replay(_rw17_record(stock=["AS"]))
    with pytest.raises(RecordError):
        _replay(_rw17_record(talon=["AS"]))
    short = _rw17_record()
    short["hands"] = {**short["hands"], "A": short["hands"]["A"][:12]}
    with pytest.raises(RecordError):
        _replay(short)


@pytest.mark.parametrize("verb", ["bid 1", "pass", "trumps spades", "give KS B"])
def test_RW_16_any_other_verb_is_illegal(verb):
    res = _result(_rw17_record(actions=[f"A {verb}"]), "x.yaml")
    assert res["illegal"] == 1


def test_RW_16_deal_number_plays_no_part():
    a = _replay(_rw17_record()).to_json()
    b = _replay(_rw17_record(deal_number=37)).to_json()
    assert a["scores"] == b["scores"] and a["game_over"] and b["game_over"]


def test_RW_16_game_record_deals_follow_the_rotation():
    rec = read_record_file(EXAMPLES / "rw-14-game-points-beyond-five.yaml")[0]
    rec.pop("expect", None)
    rec["deals"][1] = {**rec["deals"][1], "dealer": "C"}           # should be B
    with pytest.raises(RecordError, match="dealer should be B"):
        _replay(rec)


def test_RW_16_partners_must_have_equal_scores_in_a_record():
    with pytest.raises(RecordError):
        _replay(_rw17_record(scores={"A": 3, "B": 4, "C": 2, "D": 4}))


def test_RW_16_a_record_whose_game_is_over_is_malformed():
    with pytest.raises(RecordError):
        _replay(_rw17_record(scores={"A": 5, "B": 4, "C": 5, "D": 4}))


# ======================================================== worked example
def test_RW_17_worked_example():
    d = rw17_deal()
    assert d.trumps == G.suits.index("H")                      # 7H turned: hearts
    act(d, *rw17_actions(11))
    # after trick 11 A-C have tricks 2-6, 10, 11 = 7: with 3 before they would be at 4
    act(d, *rw17_actions(12)[44:])
    t = by_name(d.tricks)
    assert t["A"] + t["C"] == 8 and not d.is_terminal()        # 3 + (8 - 6) = 5: not over yet
    act(d, *rw17_actions(13)[48:])
    t = by_name(d.tricks)
    assert (t["A"] + t["C"], t["B"] + t["D"]) == (9, 4)
    assert by_name(d.deltas) == {"A": 3, "B": 0, "C": 3, "D": 0}   # 9 - 6 = 3
    assert by_name(d.scores) == {"A": 6, "B": 4, "C": 6, "D": 4}   # 6, not 5


def test_RW_17_golden_record_and_game_end(talon_cli):
    import json
    rc, out, err = talon_cli("replay", EXAMPLES / "rw-17-worked-example.yaml", "--json")
    assert rc == 0, err
    res = json.loads(out)
    assert res["scores"] == {"A": 6, "B": 4, "C": 6, "D": 4}
    assert res["game_over"] is True and sorted(res["winners"]) == ["A", "C"]


# ======================================================== properties
def _random_deal(seed, dealer, scores=None):
    d = G.new_deal(4, dealer, scores)
    d.deal_random(random.Random(seed))
    return d


def _check_against_referee(d, rng):
    """Play `d` at random, comparing the legal moves with the referee's at every step;
    then compare the tricks, scores and card conservation."""
    hands0 = list(d.hands)
    ref = Referee(SEATS, SEATS[d.dealer], {SEATS[s]: [G.card_names[c] for c in range(52) if hands0[s] >> c & 1]
                                          for s in range(4)}, G.card_names[d.exposed],
                  by_name(d.scores))
    # card conservation at the deal: every card dealt exactly once, 13 each
    assert sum(bin(h).count("1") for h in hands0) == 52
    assert hands0[0] | hands0[1] | hands0[2] | hands0[3] == (1 << 52) - 1
    while not d.is_terminal():
        mine = ref.legal()
        assert engine_legal_strings(d) == mine
        a = sorted(d.legal_actions())[rng.randrange(len(mine))]
        text = d.action_to_string(a, d.turn, SEATS)
        d.apply_action(a)
        ref.act(text)
    assert ref.done()
    played = [c for _, c in d.history]
    assert sorted(played) == list(range(52))                      # every dealt card played once
    assert d.tricks_done == 13 and sum(d.tricks) == 13
    assert by_name(d.tricks) == ref.tricks
    assert by_name(d.deltas) == ref.deltas()
    return d


@pytest.mark.parametrize("seed", range(40))
def test_property_random_deals_follow_the_rules(seed):
    d = _random_deal(seed, seed % 4, [seed % 5, (seed // 5) % 5] * 2)
    _check_against_referee(d, random.Random(1000 + seed))
    s, dl = d.scores, d.deltas
    assert s[0] == s[2] and s[1] == s[3]                           # partners equal
    assert dl[0] == dl[2] and dl[1] == dl[3]
    assert (dl[0] > 0) + (dl[1] > 0) == 1                          # exactly one side scores
    assert all(x >= 0 for x in dl)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 3))
def test_property_hypothesis_deals_conserve_cards_and_score_one_side(seed, dealer):
    rng = random.Random(seed)
    d = G.new_deal(4, dealer)
    d.deal_random(rng)
    assert d.exposed >= 0 and d.hands[dealer] >> d.exposed & 1
    assert d.trumps == G.card_suit[d.exposed]
    play_deal(d, RandomAgent(rng))
    assert sorted(c for _, c in d.history) == list(range(52))
    assert sum(d.tricks) == 13
    side_ac, side_bd = d.tricks[0] + d.tricks[2], d.tricks[1] + d.tricks[3]
    assert d.deltas == [max(side_ac - 6, 0), max(side_bd - 6, 0)] * 2
    assert d.scores[0] == d.scores[2] and d.scores[1] == d.scores[3]
    # the written record replays to the same result, and the referee agrees
    rec = deal_record(d, SEATS, "whist")
    out = _replay(rec).to_json()
    assert out["deltas"] == by_name(d.deltas)
    assert referee_record(rec)["deltas"] == by_name(d.deltas)


@pytest.mark.parametrize("seed", range(12))
def test_property_random_games_end_with_one_side_at_five(seed):
    rng = random.Random(seed)
    m = Match(G, 4, first_dealer=seed % 4)
    while not m.game_over:
        assert m.winners == []
        d = m.new_deal()
        d.deal_random(rng)
        play_deal(d, RandomAgent(rng))
        assert (d.deltas[0] > 0) + (d.deltas[1] > 0) == 1
        m.finish(d)
        assert m.scores[0] == m.scores[2] and m.scores[1] == m.scores[3]
        if not m.game_over:
            assert max(m.scores) < 5
    win = sorted(m.winners)
    assert win in ([0, 2], [1, 3])                                    # a side, never a tie
    assert all(m.scores[s] >= 5 for s in win)
    assert all(m.scores[s] < 5 for s in range(4) if s not in win)


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
    # the referee, reading the rules page, refuses the same action
    ref = referee_record(rec)
    assert ref.get("illegal") == exp["illegal"]
    assert ref.get("illegal_deal") == exp.get("illegal_deal")


@pytest.mark.parametrize("name", _records(EXAMPLES))
def test_property_golden_records_agree_with_the_referee(name):
    (rec,) = read_record_file(EXAMPLES / name)
    res = _result(rec, EXAMPLES / name)
    assert check_expectations(rec, res) == []
    ref = referee_record(rec)
    for key in ("deltas", "scores", "game_over", "winners"):
        assert ref[key] == (sorted(rec["expect"][key]) if key == "winners" else rec["expect"][key])
