"""One test (or more) per clause of docs/rules/501.md, named with the clause id.

Deals are built with `set_cards` from hand-picked hands; the expected outcomes are
worked out by hand from the rules (see the comments), not copied from the engine."""
from __future__ import annotations

import random

import pytest

from talon_cards.agents import RandomAgent, play_deal
from talon_cards.engine import CHANCE, TERMINAL, Match
from talon_cards.errors import IllegalAction
from talon_cards.simulate import simulate

# --------------------------------------------------------------------------- deals
# S ("slam"): dealer C, so A leads. A holds all six spades; with the talon's AD and
# giving 10H and 10D away, A keeps 6 spades + AH + AD and, with spades trumps, wins
# every trick whatever anyone plays: 120 card points (+40 for a spade marriage).
DEAL_S = dict(dealer="C",
              hands={"A": "AS 10S KS QS JS 9S AH",
                     "B": "KH QH JH 9H KD QD JD",
                     "C": "9D AC 10C KC QC JC 9C"},
              talon="AD 10H 10D")
S_EXCHANGE = ("A trumps spades", "A contract {}", "A give 10H B", "A give 10D C")

# P ("play"): dealer C, A declarer at 66 with hearts trumps; A gives 9C to B, QS to C.
# After the exchange:
#   A: AD 10D KD QD JD 9D AC 10C   (void in spades and hearts)
#   B: 10H 9H KS 10S KC QC JC 9C   (void in diamonds)
#   C: AS QS JS 9S AH KH QH JH     (void in diamonds and clubs)
DEAL_P = dict(dealer="C",
              hands={"A": "AD 10D KD QD JD 9D AC",
                     "B": "10H 9H KS 10S KC QC JC",
                     "C": "AS JS 9S AH KH QH JH"},
              talon="10C 9C QS")
P_AUCTION = ("A bid 66", "B pass", "C pass")
P_EXCHANGE = ("A trumps hearts", "A contract 66", "A give 9C B", "A give QS C")
# The whole play, trick by trick (leader first), with the card points of each trick:
P_TRICKS = [
    ("A play AD", "B play 10H", "C play JH"),        # B trumps: 11+10+2 = 23 to B
    ("B play KS", "C play 9S", "A play 10D"),        # B: 4+0+10 = 14
    ("B play 10S", "C play AS", "A play 9D"),        # C: 10+11+0 = 21
    ("C play KH marriage", "A play JD", "B play 9H"),  # C: 4+2+0 = 6, marriage in trumps 40
    ("C play AH", "A play 10C", "B play 9C"),        # C: 11+10+0 = 21
    ("C play QH", "A play QD", "B play JC"),         # C: 3+3+2 = 8
    ("C play JS", "A play KD", "B play QC"),         # C: 2+4+3 = 9
    ("C play QS", "A play AC", "B play KC"),         # C: 3+11+4 = 18
]
# A: 0 points, B: 23+14 = 37, C: 21+6+21+8+9+18 = 83 card points + 40 = 123.

# BW ("B wins all"): dealer C, A leads first, B is declarer holding all six spades,
# AC and (from the talon) 10C: B wins every trick whatever is played.
DEAL_BW = dict(dealer="C",
               hands={"A": "KH QH JH 9H KD QD JD",
                      "B": "AS 10S KS QS JS 9S AC",
                      "C": "AH 10H AD 10D 9D KC QC"},
               talon="10C 9C JC")
BW_CONTRACT = ("A pass", "B bid 66", "C pass", "B trumps spades", "B contract 66",
               "B give 9C A", "B give JC C")

# BA: like BW, but A holds AC (and C holds JD) while B holds KC instead of AC:
# A can win a club trick when B leads clubs.
DEAL_BA = dict(dealer="C",
               hands={"A": "KH QH JH 9H KD QD AC",
                      "B": "AS 10S KS QS JS 9S KC",
                      "C": "AH 10H AD 10D JD 9D QC"},
               talon="10C 9C JC")
BA_CONTRACT = ("A pass", "B bid 66", "C pass", "B trumps spades", "B contract 66",
               "B give 9C A", "B give JC C")


def _deal(table, spec=DEAL_S, seats="ABC", **kw):
    t = table(seats)
    return t, t.deal(**{**spec, **kw})


class NoShuffle(random.Random):
    """A 'shuffle' that leaves the deck in order 0..23: card int = deck position."""
    def shuffle(self, x):
        pass


class Recording(random.Random):
    """A real shuffle that remembers the order it produced."""
    def shuffle(self, x):
        super().shuffle(x)
        self.order = list(x)


# ---------------------------------------------------------------- cards and players
def test_R501_1_deck_of_24_cards_worth_120(g501):
    assert g501.n_cards == 24
    assert list(g501.suits) == ["S", "H", "D", "C"]
    assert list(g501.ranks) == ["A", "10", "K", "Q", "J", "9"]
    worth = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
    for c, name in enumerate(g501.card_names):
        assert g501.card_points[c] == worth[name[:-1]], name
    assert sum(g501.card_points) == 120
    assert len(set(g501.card_names)) == 24



def test_R501_1_rank_order_decides_tricks(table):
    # No trumps. After the exchange:
    #   A: JS QS 9S 10H 10D AD KD QD   B: 10S KH QH JH 9H JD 9D AC   C: KS AS AH 10C KC QC JC
    t = table()
    d = t.deal("C", {"A": "JS QS 9S 10H 10D AC 9C", "B": "10S KH QH JH 9H JD 9D",
                     "C": "KS AS AH 10C KC QC JC"}, talon="QD KD AD")
    t.act(d, "A bid 66", "B pass", "C pass", "A trumps none", "A contract 66",
          "A give AC B", "A give 9C C")
    t.act(d, "A play JS", "B play 10S", "C play KS")      # 10 beats K beats J: 2+10+4
    assert d.tricks == [0, 1, 0] and d.card_points == [0, 16, 0]
    t.act(d, "B play KH", "C play AH", "A play 10H")      # A beats 10 beats K: 4+11+10
    assert d.tricks == [0, 1, 1] and d.card_points == [0, 16, 25]
    t.act(d, "C play QC", "A play QS", "B play AC")       # only the suit led counts
    assert d.tricks == [0, 2, 1] and d.card_points == [0, 16 + 3 + 3 + 11, 25]


def test_R501_2_three_or_four_seats(g501):
    assert set(g501.seat_counts) == {3, 4}
    for n in (2, 5):
        with pytest.raises(ValueError):
            Match(g501, n)
    assert g501.active_seats(3, 2) == [0, 1, 2]
    assert g501.active_seats(4, 2) == [3, 0, 1]


@pytest.mark.parametrize("seed", range(6))
def test_R501_2_four_seats_dealer_is_dealt_nothing_and_keeps_score(g501, seed):
    dealer = seed % 4
    d = g501.new_deal(4, dealer)
    d.deal_random(random.Random(seed))
    assert d.hands[dealer] == 0 and d.dealer not in d.active
    assert all(bin(d.hands[s]).count("1") == 7 for s in d.active)
    assert d.free_actions(dealer) == []          # cannot even look: plays no part
    play_deal(d, RandomAgent(random.Random(seed), pass_rate=0.3))
    assert d.deltas[dealer] == 0 and d.scores[dealer] == 501
    assert all(s != dealer for s, _ in d.history)


def test_R501_2_sitting_out_dealer_cannot_be_given_a_hand(table):
    t = table("ABCD")
    with pytest.raises(ValueError, match="sits this deal out"):
        t.deal("D", {**DEAL_S["hands"], "D": "AS"}, DEAL_S["talon"])


def test_R501_2_four_seats_dealer_D_sits_out_of_the_scoring(table):
    t = table("ABCD")
    d = t.deal("D", DEAL_S["hands"], DEAL_S["talon"])
    assert d.active == [0, 1, 2] and d.turn == 0
    t.act(d, "A bid 70", "B pass", "C pass", "A abandon")
    assert t.by_name(d.returns()) == {"A": 70, "B": -25, "C": -25, "D": 0}
    assert d.scores[3] == 501


def test_R501_3_everyone_starts_at_501(g501):
    assert g501.start_score == 501
    assert g501.new_deal(3, 0).scores == [501] * 3
    assert Match(g501, 4).scores == [501] * 4


def test_R501_3_scores_may_go_below_zero_and_above_501(table):
    t, d = _deal(table, DEAL_P, scores={"A": 480, "B": 300, "C": 100})
    t.act(d, *P_AUCTION, *P_EXCHANGE, *(a for trick in P_TRICKS for a in trick))
    assert t.by_name(d.scores) == {"A": 480 + 66, "B": 300 - 37, "C": 100 - 123}
    assert d.scores[0] > 501 and d.scores[2] < 0


# --------------------------------------------------------------------------- dealing
def _annul(d):
    g = d.game
    while not d.is_terminal():
        d.apply_action(g.codec.PASS)
    assert d.annulled


@pytest.mark.parametrize("n", [3, 4])
def test_R501_4_deal_passes_left_after_every_deal(g501, n):
    m = Match(g501, n, first_dealer=0)
    rng = random.Random(4)
    seen = []
    for k in range(2 * n):
        d = m.new_deal()
        assert d.dealer == k % n
        seen.append(d.dealer)
        d.deal_random(rng)
        kind = k % 3
        if kind == 0:                              # annulled: everyone passes
            _annul(d)
        elif kind == 1:                            # abandoned at the talon
            d.apply_action(d.game.codec.number_bid(66))
            while d.phase == "auction":
                d.apply_action(d.game.codec.PASS)
            d.apply_action(d.game.codec.ABANDON)
            assert d.abandoned
        else:                                      # played
            play_deal(d, RandomAgent(rng))
        m.finish(d)
        assert not m.game_over
        assert m.dealer == (k + 1) % n
    assert m.deals_played == 2 * n
    assert seen == [k % n for k in range(2 * n)]


def test_R501_4_first_dealer_is_drawn_at_random(g501):
    dealers = set()
    for seed in range(12):
        recs = []
        simulate(g501, 1, seed, 3, recs.append, progress=False)
        dealers.add(recs[0]["dealer"])
    assert len(dealers) > 1


def _positions(d, order):
    """Deck positions (as dealt from `order`) of each active seat's cards and the talon."""
    pos = {c: i for i, c in enumerate(order)}
    out = {s: sorted(pos[c] for c in range(24) if d.dealt[s] >> c & 1) for s in d.active}
    out["talon"] = sorted(pos[c] for c in range(24) if d.talon >> c & 1)
    return out


def _expected_positions(active):
    # Rounds 1-3: one card to each active seat, then one to the talon ([decision]);
    # rounds 4-7: one card to each active seat.
    exp = {s: [] for s in active}
    exp["talon"] = []
    i = 0
    for rnd in range(7):
        for s in active:
            exp[s].append(i)
            i += 1
        if rnd < 3:
            exp["talon"].append(i)
            i += 1
    assert i == 24
    return exp


@pytest.mark.parametrize("n, dealer", [(3, 2), (3, 0), (4, 1), (4, 3)])
def test_R501_5_deal_pattern_seven_each_and_talon_after_each_of_three_rounds(g501, n, dealer):
    d = g501.new_deal(n, dealer)
    d.deal_random(NoShuffle())
    assert _positions(d, list(range(24))) == _expected_positions(d.active)
    assert _expected_positions(d.active)["talon"] == [3, 7, 11]
    if n == 4:
        assert d.dealt[dealer] == 0
    for seed in range(3):
        rng = Recording(seed)
        d = g501.new_deal(n, dealer)
        d.deal_random(rng)
        assert _positions(d, rng.order) == _expected_positions(d.active)
        assert all(bin(d.hands[s]).count("1") == 7 for s in d.active)
        assert bin(d.talon).count("1") == 3


def test_R501_5_deal_order_starts_left_of_dealer(g501):
    d = g501.new_deal(3, 2)                       # dealer C: A gets the first card
    d.deal_random(NoShuffle())
    assert d.dealt[0] >> 0 & 1 and d.dealt[1] >> 1 & 1 and d.dealt[2] >> 2 & 1


@pytest.mark.parametrize("seats, dealer, first", [
    ("ABC", "C", "A"), ("ABC", "A", "B"), ("ABC", "B", "C"),
    ("ABCD", "D", "A"), ("ABCD", "A", "B"), ("ABCD", "B", "C"), ("ABCD", "C", "D")])
def test_R501_6_left_of_dealer_is_the_first_active_seat(g501, seats, dealer, first):
    idx = {n: i for i, n in enumerate(seats)}
    d = g501.new_deal(len(seats), idx[dealer])
    assert d.current_player() == CHANCE
    d.deal_random(random.Random(0))
    assert d.active[0] == idx[first]
    assert d.turn == idx[first] and d.current_player() == idx[first]
    assert len(d.active) == 3


# --------------------------------------------------------------------------- auction
def test_R501_7_opener_and_clockwise_turns_among_active_seats(table):
    t = table("ABCD")
    d = t.deal("A", {"B": DEAL_S["hands"]["A"], "C": DEAL_S["hands"]["B"],
                     "D": DEAL_S["hands"]["C"]}, DEAL_S["talon"])
    order = []
    for v in (66, 67, 68, 69, 70):
        order.append(t.seats[d.turn])
        t.act(d, f"{t.seats[d.turn]} bid {v}")
    assert order == ["B", "C", "D", "B", "C"]     # the dealer A never speaks
    assert not t.can(d, "A bid 80") and not t.can(d, "A pass")


def test_R501_7_minimum_bid_is_66(table):
    t, d = _deal(table)
    assert not t.can(d, "A bid 65") and not t.can(d, "A bid 1")
    assert t.can(d, "A bid 66")
    assert "A bid 65" not in t.legal(d) and "A bid 66" in t.legal(d)
    with pytest.raises(IllegalAction, match="66"):
        t.act(d, "A bid 65")


def test_R501_7_bid_above_highest_in_steps_of_one(table):
    t, d = _deal(table)
    t.act(d, "A bid 70")
    assert not t.can(d, "B bid 70") and not t.can(d, "B bid 69")
    assert t.can(d, "B bid 71")
    assert not t.can(d, "B bid 70.5")
    t.act(d, "B bid 71")
    assert t.can(d, "C bid 72")


def test_R501_7_no_upper_limit(table):
    t, d = _deal(table)
    assert t.can(d, "A bid 500") and t.can(d, "A bid 100000")
    t.act(d, "A bid 500", "B pass", "C pass")
    assert d.phase == "contract" and d.declarer == 0 and d.bid_value == 500
    assert t.can(d, "A abandon")
    t.act(d, "A abandon")
    assert t.by_name(d.deltas) == {"A": 500, "B": -25, "C": -25}


def test_R501_8_house_pass_is_final(table):
    t, d = _deal(table)
    t.act(d, "A pass", "B bid 70", "C bid 71")
    assert t.seats[d.turn] == "B"                 # A passed: skipped
    assert not t.can(d, "A bid 72")
    t.act(d, "B bid 72", "C bid 73")
    assert t.seats[d.turn] == "B"
    t.act(d, "B pass")                             # A and B passed: C wins at once
    assert d.phase == "contract" and t.seats[d.declarer] == "C" and d.bid_value == 73


def test_R501_9_auction_ends_when_the_others_have_passed(table):
    t, d = _deal(table)
    t.act(d, "A bid 66", "B bid 67", "C pass", "A bid 70")
    assert d.phase == "auction" and t.seats[d.turn] == "B"
    t.act(d, "B pass")
    assert d.phase == "contract"
    assert t.seats[d.declarer] == "A" and d.bid_value == 70   # the winner's last bid


def test_R501_9_all_pass_annuls_the_deal(table):
    t, d = _deal(table, scores={"A": 300, "B": 200, "C": 100})
    t.act(d, "A pass", "B pass blind", "C pass")
    assert d.is_terminal() and d.current_player() == TERMINAL and d.annulled
    assert d.returns() == [0, 0, 0]
    assert d.scores == [300, 200, 100]
    assert d.legal_actions() == []


def test_R501_9_all_pass_then_next_dealer_deals(table, g501):
    m = Match(g501, 3, first_dealer=2)
    d = m.new_deal()
    d.set_cards({s: table().cards(h) for s, h in zip((0, 1, 2), DEAL_S["hands"].values())},
                table().cards(DEAL_S["talon"]))
    _annul(d)
    m.finish(d)
    assert m.dealer == 0 and m.scores == [501] * 3 and not m.game_over


def test_R501_9_first_two_pass_third_bids_ends_at_once(table):
    t, d = _deal(table)
    t.act(d, "A pass", "B pass", "C bid 66")
    assert d.phase == "contract" and t.seats[d.declarer] == "C" and d.bid_value == 66
    assert t.seats[d.turn] == "C"


def test_R501_10_look_is_an_action_of_its_own_at_any_moment(table):
    t, d = _deal(table)
    assert t.can(d, "A look") and t.can(d, "B look") and t.can(d, "C look")
    t.act(d, "C look")                             # out of turn
    assert t.seats[d.turn] == "A"                  # looking does not use a turn
    t.act(d, "A look")
    assert t.seats[d.turn] == "A"
    assert not t.can(d, "A look")                  # once is enough
    t.act(d, "A bid 66", "B bid 67 blind", "B look")   # B looks on C's turn
    assert t.seats[d.turn] == "C"


def test_R501_10_a_seat_that_looked_cannot_bid_blind(table):
    t, d = _deal(table)
    t.act(d, "A look")
    assert not t.can(d, "A bid 66 blind") and not t.can(d, "A pass blind")
    assert not any(a.endswith("blind") for a in t.legal(d))
    assert t.can(d, "A bid 66")
    with pytest.raises(IllegalAction, match="looked"):
        t.act(d, "A bid 66 blind")


def test_R501_10_bidding_without_blind_means_looking(table):
    t, d = _deal(table)
    t.act(d, "A bid 66", "B pass")
    assert d.looked[0] and d.looked[1]
    t.act(d, "C bid 67")
    t.act(d, "A bid 68")
    assert not t.can(d, "A bid 69 blind")


def test_R501_10_blind_seat_sees_no_hand_in_its_observation(table):
    t, d = _deal(table)
    ob = d.observation(0, t.seats)
    assert ob["hand"] is None and ob["hand_size"] == 7
    t.act(d, "A bid 66 blind")
    assert d.observation(0, t.seats)["hand"] is None
    t.act(d, "A look")
    assert set(d.observation(0, t.seats)["hand"]) == set(DEAL_S["hands"]["A"].split())
    assert d.observation(1, t.seats)["hand"] is None   # B has not looked


def test_R501_10_looking_before_the_auction_ends_loses_blind_status(table):
    t, d = _deal(table)
    t.act(d, "A bid 66 blind", "B pass", "A look", "C pass")
    assert t.seats[d.declarer] == "A" and not d.declarer_blind
    t.act(d, *(a.format(160) for a in S_EXCHANGE), "A play KS marriage")
    t.finish(d)
    assert d.deltas[0] == -160                    # not doubled


def test_R501_11_blind_winner_made_is_doubled(table):
    t, d = _deal(table)
    t.act(d, "A bid 66 blind", "B pass", "C pass")
    assert d.declarer_blind
    t.act(d, *(a.format(160) for a in S_EXCHANGE), "A play KS marriage")
    t.finish(d)
    assert d.deal_points_of[0] == 160 and d.made
    assert t.by_name(d.deltas) == {"A": -320, "B": 0, "C": 0}


def test_R501_11_blind_winner_failed_is_doubled_even_after_raising(table):
    t, d = _deal(table)
    t.act(d, "A bid 66 blind", "B pass", "C pass")
    t.act(d, *(a.format(161) for a in S_EXCHANGE), "A play KS marriage")
    t.finish(d)
    assert d.deal_points_of[0] == 160 and not d.made
    assert t.by_name(d.deltas) == {"A": 322, "B": 0, "C": 0}


def test_R501_11_blind_winner_who_bid_blind_twice_is_doubled(table):
    t, d = _deal(table)
    t.act(d, "A bid 66 blind", "B bid 67", "C pass", "A bid 70 blind", "B pass")
    assert t.seats[d.declarer] == "A" and d.declarer_blind and d.bid_value == 70
    t.act(d, "A abandon")
    assert t.by_name(d.deltas) == {"A": 140, "B": -25, "C": -25}


def test_R501_11_blind_bid_then_open_bid_is_not_doubled(table):
    t, d = _deal(table)
    t.act(d, "A bid 66 blind", "B bid 67", "C pass", "A bid 70", "B pass", "A abandon")
    assert not d.declarer_blind
    assert t.by_name(d.deltas) == {"A": 70, "B": -25, "C": -25}


def test_R501_11_defenders_are_never_doubled(table):
    t, d = _deal(table, DEAL_P)
    t.act(d, "A bid 66 blind", "B pass", "C pass", *P_EXCHANGE,
          *(a for trick in P_TRICKS for a in trick))
    assert t.by_name(d.deltas) == {"A": 132, "B": -37, "C": -123}


def test_R501_11_every_seat_may_look_once_the_auction_ends(table):
    # R501-11 [decision]: "once the auction ends every player may look". A record that
    # writes the blind winner's (or anyone's) look after the auction is legal; the look
    # changes nothing: the winner was blind when the auction ended and stays doubled.
    t, d = _deal(table)
    t.act(d, "A bid 70 blind", "B pass", "C pass")
    assert t.can(d, "A look") and t.can(d, "B look") and t.can(d, "C look")
    t.act(d, "A look", "C look", "A abandon")
    assert d.declarer_blind
    assert t.by_name(d.deltas) == {"A": 140, "B": -25, "C": -25}
    t, d = _deal(table)
    t.act(d, "A bid 66 blind", "B pass", "C pass", "A trumps spades", "B look",
          "A contract 66", "A look", "A give 10H B", "A give 10D C", "A look")
    assert d.phase == "play" and d.declarer_blind


def test_R501_11_blind_pass_keeps_blind_until_the_auction_ends(table):
    t, d = _deal(table)
    t.act(d, "A pass blind", "B bid 66")
    assert not d.looked[0] and d.observation(0, t.seats)["hand"] is None
    assert t.can(d, "A look")                      # still may look
    t.act(d, "C bid 67", "B pass")                 # the auction ends: C wins
    assert d.phase == "contract" and not d.declarer_blind
    for s in range(3):                             # everybody may now see their cards
        assert d.observation(s, t.seats)["hand"] is not None


def test_R501_11_a_blind_bidder_outbid_is_not_doubled(table):
    # A bids blind, C outbids and wins having looked: C's result is not doubled.
    t, d = _deal(table, DEAL_P)
    t.act(d, "A bid 66 blind", "B pass", "C bid 67", "A pass")
    assert t.seats[d.declarer] == "C" and not d.declarer_blind
    t.act(d, "C abandon")
    assert t.by_name(d.deltas) == {"A": -25, "B": -25, "C": 67}


# ------------------------------------------------------------- talon and exchange
def test_R501_12_talon_shown_to_every_seat(table):
    t, d = _deal(table)
    for s in range(3):
        assert d.observation(s, t.seats)["talon"] is None
    t.act(d, "A bid 66", "B pass")
    assert d.observation(1, t.seats)["talon"] is None
    t.act(d, "C pass")
    talon = set(DEAL_S["talon"].split())
    for s in range(3):                             # before the abandon decision already
        assert set(d.observation(s, t.seats)["talon"]) == talon


def test_R501_12_talon_shown_to_the_sitting_out_dealer_too(table):
    t = table("ABCD")
    d = t.deal("D", DEAL_S["hands"], DEAL_S["talon"])
    t.act(d, "A bid 66", "B pass", "C pass")
    assert set(d.observation(3, t.seats)["talon"]) == set(DEAL_S["talon"].split())


def test_R501_13_abandon_only_at_the_talon(table):
    t, d = _deal(table)
    assert not t.can(d, "A abandon")
    t.act(d, "A bid 66", "B pass", "C pass")
    assert t.legal(d) == {"A abandon", "A trumps spades", "A trumps hearts",
                          "A trumps diamonds", "A trumps clubs", "A trumps none"}
    t.act(d, "A trumps spades")
    assert not t.can(d, "A abandon")


def test_R501_13_abandon_ends_the_deal_without_play(table):
    t, d = _deal(table)
    t.act(d, "A bid 66", "B pass", "C pass", "A abandon")
    assert d.is_terminal() and d.abandoned and d.tricks == [0, 0, 0]
    assert all(a >= d.game.codec.PASS for _, a in d.history)


def test_R501_13_declarer_takes_the_talon(table):
    t, d = _deal(table)
    t.act(d, "A bid 66", "B pass", "C pass", "A trumps spades")
    assert bin(d.hands[0]).count("1") == 10
    assert t.names(d.hands[0]) == set((DEAL_S["hands"]["A"] + " " + DEAL_S["talon"]).split())


def test_R501_14_trumps_a_suit_or_none(table):
    for word, suit in [("spades", 0), ("hearts", 1), ("diamonds", 2), ("clubs", 3), ("none", -1)]:
        t, d = _deal(table)
        t.act(d, "A bid 66", "B pass", "C pass", f"A trumps {word}")
        assert d.trumps == suit
        assert d.observation(1, t.seats)["trumps"] == word


def test_R501_14_final_contract_not_below_the_bid(table):
    t, d = _deal(table)
    t.act(d, "A bid 70", "B pass", "C pass", "A trumps hearts")
    assert not t.can(d, "A contract 69") and not t.can(d, "A contract 0")
    assert t.can(d, "A contract 70") and t.can(d, "A contract 71") and t.can(d, "A contract 500")
    with pytest.raises(IllegalAction, match="at least the bid"):
        t.act(d, "A contract 69")
    t.act(d, "A contract 500")
    assert d.contract_value == 500 and d.bid_value == 70


def test_R501_15_give_any_card_one_to_each_opponent(table):
    t, d = _deal(table)
    t.act(d, "A bid 66", "B pass", "C pass", "A trumps spades", "A contract 66")
    ten = (DEAL_S["hands"]["A"] + " " + DEAL_S["talon"]).split()
    assert t.legal(d) == {f"A give {c} {p}" for c in ten for p in "BC"}   # talon cards too
    assert not t.can(d, "A give 10H A") and not t.can(d, "A give KH B")  # KH is B's
    t.act(d, "A give 10H B")
    assert t.legal(d) == {f"A give {c} C" for c in ten if c != "10H"}
    assert not t.can(d, "A give AH B")             # B already has one
    t.act(d, "A give AS C")
    assert d.phase == "play"
    assert [bin(d.hands[s]).count("1") for s in range(3)] == [8, 8, 8]
    assert "10H" in t.names(d.hands[1]) and "AS" in t.names(d.hands[2])


def _strings(x):
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(x, (list, tuple)):
        for v in x:
            yield from _strings(v)
    elif isinstance(x, str):
        yield x


def test_R501_15_given_cards_are_seen_only_by_their_receiver(table):
    t, d = _deal(table)
    t.act(d, "A bid 66", "B pass", "C pass", "A trumps spades", "A contract 66",
          "A give AH B", "A give JS C")
    ob_b, ob_c = d.observation(1, t.seats), d.observation(2, t.seats)
    assert ob_b["received"] == ["AH"] and "AH" in ob_b["hand"]
    assert ob_c["received"] == ["JS"] and "JS" in ob_c["hand"]
    assert "AH" not in set(_strings(ob_c)) and "JS" not in set(_strings(ob_b))
    assert "JS" not in set(_strings(d.observation(1, t.seats)["auction"]))


def test_R501_15_four_seats_the_dealer_receives_nothing(table):
    t = table("ABCD")
    d = t.deal("D", DEAL_S["hands"], DEAL_S["talon"])
    t.act(d, "A bid 66", "B pass", "C pass", "A trumps spades", "A contract 66")
    assert not t.can(d, "A give 10H D")
    assert all(not a.endswith(" D") for a in t.legal(d))
    t.act(d, "A give 10H B", "A give 10D C")
    assert d.phase == "play" and d.hands[3] == 0


def test_R501_15_trumps_stay_fixed(table):
    t, d = _deal(table)
    t.act(d, "A bid 66", "B pass", "C pass", "A trumps hearts", "A contract 66",
          "A give 10H B", "A give 10D C", "A play KS marriage")
    t.finish(d)
    assert d.trumps == 1 and d.melds[0][2] == 0   # a spade marriage; hearts stay trumps


# --------------------------------------------------------------------------- play
def test_R501_16_left_of_dealer_leads_even_when_not_declarer(table):
    t, d = _deal(table, DEAL_BW)
    t.act(d, *BW_CONTRACT)
    assert d.phase == "play" and t.seats[d.declarer] == "B" and t.seats[d.turn] == "A"


def test_R501_16_four_seats_first_lead(table):
    t = table("ABCD")
    h = DEAL_BW["hands"]
    d = t.deal("A", {"B": h["A"], "C": h["B"], "D": h["C"]}, DEAL_BW["talon"])
    t.act(d, "B pass", "C bid 66", "D pass", "C trumps spades", "C contract 66",
          "C give 9C B", "C give JC D")
    assert d.phase == "play" and t.seats[d.turn] == "B"


def test_R501_16_eight_tricks_winner_leads(table):
    t, d = _deal(table, DEAL_P)
    t.act(d, *P_AUCTION, *P_EXCHANGE)
    leaders = []
    for trick in P_TRICKS:
        leaders.append(t.seats[d.turn])
        t.act(d, *trick)
    assert leaders == ["A", "B", "B", "C", "C", "C", "C", "C"]
    assert d.tricks_done == 8 and d.is_terminal()
    assert sum(d.tricks) == 8


def test_R501_17_follow_suit_without_duty_to_beat(table):
    t, d = _deal(table, DEAL_P)
    t.act(d, *P_AUCTION, *P_EXCHANGE, *P_TRICKS[0], "B play KS")
    assert t.legal(d) == {"C play AS", "C play QS", "C play JS", "C play 9S"}
    assert t.can(d, "C play 9S")                   # need not beat KS


def test_R501_17_must_trump_when_void_even_a_losing_trump(table):
    t, d = _deal(table, DEAL_P)
    t.act(d, *P_AUCTION, *P_EXCHANGE, "A play AD")
    assert t.legal(d) == {"B play 10H", "B play 9H"}     # void in diamonds
    with pytest.raises(IllegalAction):
        t.act(d, "B play KS")
    t.act(d, "B play 10H")
    # C is void in diamonds; any trump, even JH that cannot beat 10H; no overtrump duty
    assert t.legal(d) == {"C play AH", "C play KH", "C play QH", "C play JH"}
    t.act(d, "C play JH")
    assert d.tricks == [0, 1, 0] and d.card_points == [0, 23, 0]   # the trump wins


def test_R501_17_holding_neither_any_card(table):
    t, d = _deal(table, DEAL_P)
    t.act(d, *P_AUCTION, *P_EXCHANGE, *P_TRICKS[0], "B play KS", "C play 9S")
    assert t.legal(d) == {f"A play {c}" for c in "10D KD QD JD 9D AC 10C".split()}
    t.act(d, "A play 10D")                         # a higher rank off-suit does not win
    assert d.tricks == [0, 2, 0] and d.card_points == [0, 23 + 14, 0]


def test_R501_17_no_cards_are_drawn(table):
    t, d = _deal(table, DEAL_P)
    t.act(d, *P_AUCTION, *P_EXCHANGE)
    for k, trick in enumerate(P_TRICKS):
        t.act(d, *trick)
        assert [bin(d.hands[s]).count("1") for s in range(3)] == [7 - k] * 3


def test_R501_17_whole_deal_points_by_hand(table):
    t, d = _deal(table, DEAL_P)
    t.act(d, *P_AUCTION, *P_EXCHANGE, *(a for trick in P_TRICKS for a in trick))
    assert d.card_points == [0, 37, 83]
    assert d.tricks == [0, 2, 6]


# --------------------------------------------------------------------------- marriage
def _melds(d, t):
    g = d.game
    return {t.seats[s] + " " + g.melds[mi].name + " " + g.suit_words[suit]: w
            for s, mi, suit, w in d.melds}


def test_R501_18_marriage_only_on_the_lead(table):
    t, d = _deal(table, DEAL_P)
    t.act(d, *P_AUCTION, *P_EXCHANGE, "A play AD", "B play 10H")
    assert not any("marriage" in a for a in t.legal(d))     # C holds KH QH but follows
    assert not t.can(d, "C play KH marriage")
    t.act(d, "C play JH", *P_TRICKS[1], *P_TRICKS[2])
    assert {a for a in t.legal(d) if "marriage" in a} == {"C play KH marriage",
                                                          "C play QH marriage"}


def test_R501_18_marriage_needs_king_and_queen_in_hand(table):
    t, d = _deal(table, DEAL_BW)
    t.act(d, *BW_CONTRACT)
    # A holds KH QH and KD QD; no other pair (B holds every spade, C holds KC QC)
    assert {a for a in t.legal(d) if "marriage" in a} == {
        "A play KH marriage", "A play QH marriage", "A play KD marriage", "A play QD marriage"}
    assert not t.can(d, "A play JH marriage")


def test_R501_18_marriage_is_announced_with_its_king_or_queen_and_says_so(table):
    # A holds KH QH: leading JH "with a marriage" was refused as "that card may not be
    # played now", though JH may be led; the reason is that JH is not a card of the pair
    t, d = _deal(table, DEAL_BW)
    t.act(d, *BW_CONTRACT)
    assert t.can(d, "A play JH") and not t.can(d, "A play JH marriage")
    seat, a = t.parse(d, "A play JH marriage")
    reason = d.why_not(a, seat)[0]
    assert "JH is not a card of the marriage" in reason and "KH or QH" in reason


def test_R501_18_marriage_worth_40_in_trumps(table):
    t, d = _deal(table)
    t.act(d, "A bid 66", "B pass", "C pass", *(a.format(66) for a in S_EXCHANGE),
          "A play QS marriage")
    assert _melds(d, t) == {"A marriage spades": 40}


def test_R501_18_marriage_worth_20_in_another_suit(table):
    t, d = _deal(table)
    t.act(d, "A bid 66", "B pass", "C pass", "A trumps clubs", "A contract 66",
          "A give 10H B", "A give 10D C", "A play KS marriage")
    assert _melds(d, t) == {"A marriage spades": 20}
    assert d.trumps == 3                            # never changes trumps


def test_R501_18_marriage_worth_20_at_no_trumps(table):
    t, d = _deal(table)
    t.act(d, "A bid 66", "B pass", "C pass", "A trumps none", "A contract 140",
          "A give 10H B", "A give 10D C", "A play KS marriage")
    assert _melds(d, t) == {"A marriage spades": 20}
    t.finish(d)
    assert d.card_points[0] == 120 and d.deal_points_of[0] == 140 and d.made
    assert d.deltas[0] == -140


def test_R501_18_not_once_a_card_of_the_pair_is_played(table):
    t, d = _deal(table)
    t.act(d, "A bid 66", "B pass", "C pass", *(a.format(66) for a in S_EXCHANGE),
          "A play KS", "B play KH", "C play 9D")
    assert t.seats[d.turn] == "A"
    assert not t.can(d, "A play QS marriage")
    assert not any("marriage" in a for a in t.legal(d))


def test_R501_18_one_marriage_per_lead(table):
    t, d = _deal(table, DEAL_BW)
    t.act(d, *BW_CONTRACT, "A play KH marriage")
    assert _melds(d, t) == {"A marriage hearts": 20}    # KD QD not announced with it
    assert not t.can(d, "B play 9S marriage")


def test_R501_18_defenders_may_announce(table):
    t, d = _deal(table, DEAL_P)
    t.act(d, *P_AUCTION, *P_EXCHANGE, *(a for trick in P_TRICKS for a in trick))
    assert _melds(d, t) == {"C marriage hearts": 40}
    assert d.deal_points_of[2] == 83 + 40 and d.deltas[2] == -123


def test_R501_19_marriage_void_if_announcer_wins_no_trick(table):
    t, d = _deal(table, DEAL_BW)
    t.act(d, *BW_CONTRACT, "A play KH marriage")
    t.finish(d)
    assert _melds(d, t) == {"A marriage hearts": 20}    # announced ...
    assert d.tricks == [0, 8, 0] and d.card_points == [0, 120, 0]
    assert d.meld_points_of[0] == 0 and d.deal_points_of[0] == 0   # ... but void
    assert t.by_name(d.deltas) == {"A": 0, "B": -66, "C": 0}


def test_R501_19_marriage_counts_if_announcer_wins_a_trick_after(table):
    t, d = _deal(table, DEAL_BA)
    t.act(d, *BA_CONTRACT, "A play KH marriage", "B play 9S", "C play AH")
    assert d.tricks[0] == 0
    t.act(d, "B play KC", "C play QC", "A play AC")          # A wins: 4+3+11
    assert d.tricks[0] == 1
    t.finish(d)
    assert d.meld_points_of[0] == 20 and d.card_points[0] >= 18
    assert d.deltas[0] == -(d.card_points[0] + 20)


def test_R501_19_marriage_counts_if_announcer_won_a_trick_before(table):
    t, d = _deal(table, DEAL_BA)
    t.act(d, *BA_CONTRACT, "A play AC", "B play 10C", "C play JC")   # A: 11+10+2
    t.act(d, "A play KH marriage", "B play 9S", "C play 10H")
    t.finish(d)
    assert d.meld_points_of[0] == 20 and d.card_points[0] >= 23
    assert d.deltas[0] == -(d.card_points[0] + 20)


# --------------------------------------------------------------------------- scoring
@pytest.mark.parametrize("contract, made", [(120, True), (160, True), (161, False)])
def test_R501_20_made_when_deal_points_reach_the_contract(table, contract, made):
    t, d = _deal(table)
    t.act(d, "A bid 66", "B pass", "C pass", *(a.format(contract) for a in S_EXCHANGE),
          "A play KS marriage")
    t.finish(d)
    assert d.card_points == [120, 0, 0] and d.deal_points_of[0] == 160
    assert d.made is made
    assert t.by_name(d.deltas) == {"A": -contract if made else contract, "B": 0, "C": 0}
    assert t.by_name(d.scores) == {"A": 501 + d.deltas[0], "B": 501, "C": 501}


def test_R501_20_without_the_marriage_120_does_not_make_121(table):
    t, d = _deal(table)
    t.act(d, "A bid 66", "B pass", "C pass", *(a.format(121) for a in S_EXCHANGE))
    t.finish(d)                                     # never announces
    assert d.melds == [] and d.deal_points_of[0] == 120 and not d.made
    assert d.deltas[0] == 121


def test_R501_20_defenders_subtract_their_own_points_exactly(table):
    t, d = _deal(table, DEAL_P)
    t.act(d, *P_AUCTION, *P_EXCHANGE, *(a for trick in P_TRICKS for a in trick))
    assert not d.made
    assert t.by_name(d.deltas) == {"A": 66, "B": -37, "C": -123}
    assert t.by_name(d.scores) == {"A": 567, "B": 464, "C": 378}


def test_R501_21_abandon_scores_the_bid_and_25_to_each_opponent(table):
    t, d = _deal(table)
    t.act(d, "A bid 66", "B bid 67", "C pass", "A bid 75", "B pass", "A abandon")
    assert t.by_name(d.deltas) == {"A": 75, "B": -25, "C": -25}   # the last bid


def test_R501_21_abandon_blind_scores_twice_the_bid(table):
    t, d = _deal(table)
    t.act(d, "A bid 80 blind", "B pass", "C pass", "A abandon")
    assert t.by_name(d.deltas) == {"A": 160, "B": -25, "C": -25}
    assert t.by_name(d.scores) == {"A": 661, "B": 476, "C": 476}


# --------------------------------------------------------------------------- match end
def _match_deal(table, scores, spec=DEAL_S, first_dealer=2, seats="ABC"):
    t = table(seats)
    m = Match(t.game, len(seats), first_dealer, [scores[n] for n in seats])
    d = m.new_deal()
    d.set_cards({t.idx[n]: t.cards(h) for n, h in spec["hands"].items()}, t.cards(spec["talon"]))
    return t, m, d


@pytest.mark.parametrize("b, c, over, winners", [
    (26, 30, False, []),        # 1 and 5: nobody at zero
    (25, 30, True, ["B"]),      # exactly zero ends the game
    (25, 20, True, ["C"]),      # two at or below zero: the lowest wins (R501-23)
    (25, 25, True, ["B", "C"]),  # exact tie: shared (R501-23)
])
def test_R501_22_game_ends_after_an_abandoned_deal_at_zero_or_less(table, b, c, over, winners):
    t, m, d = _match_deal(table, {"A": 501, "B": b, "C": c})
    t.act(d, "A bid 66", "B pass", "C pass", "A abandon")
    m.finish(d)
    assert m.game_over is over
    assert [t.seats[s] for s in m.winners] == winners


def test_R501_22_game_ends_after_a_played_deal(table):
    t, m, d = _match_deal(table, {"A": 160, "B": 501, "C": 501})
    t.act(d, "A bid 66", "B pass", "C pass", *(a.format(160) for a in S_EXCHANGE),
          "A play KS marriage")
    t.finish(d)
    m.finish(d)
    assert m.scores == [0, 501, 501] and m.game_over and m.winners == [0]


def test_R501_22_annulled_deal_does_not_end_the_game(table):
    t, m, d = _match_deal(table, {"A": 1, "B": 1, "C": 1})
    _annul(d)
    m.finish(d)
    assert not m.game_over and m.scores == [1, 1, 1]


def test_R501_23_house_lowest_score_wins_after_a_played_deal(table):
    # Deal P: B -37 and C -123 (83 card points + 40 marriage).
    t, m, d = _match_deal(table, {"A": 501, "B": 30, "C": 123}, DEAL_P)
    t.act(d, *P_AUCTION, *P_EXCHANGE, *(a for trick in P_TRICKS for a in trick))
    m.finish(d)
    assert m.scores == [567, -7, 0]
    assert m.game_over and [t.seats[s] for s in m.winners] == ["B"]


def test_R501_23_house_equal_lowest_scores_share(table):
    # B at -28 and C at -3 are both at or below zero: the lowest, B, wins alone
    t, m, d = _match_deal(table, {"A": 501, "B": -3, "C": 22})
    t.act(d, "A bid 66", "B pass", "C pass", "A abandon")
    m.finish(d)
    assert m.scores == [567, -28, -3] and [t.seats[s] for s in m.winners] == ["B"]
    # B and C both at exactly -15: they share the win
    t, m, d = _match_deal(table, {"A": 501, "B": 10, "C": 10})
    t.act(d, "A bid 66", "B pass", "C pass", "A abandon")
    m.finish(d)
    assert m.scores == [567, -15, -15] and [t.seats[s] for s in m.winners] == ["B", "C"]


# --------------------------------------------------------------------------- R501-24
EXAMPLES = __import__("pathlib").Path(__file__).resolve().parent.parent / "specs" / "examples" / "501"


@pytest.mark.parametrize("name, deltas, scores, points", [
    ("r501-24-failed.yaml", {"A": 200, "B": -32, "C": -20}, {"A": 701, "B": 469, "C": 481},
     {"A": 88, "B": 32, "C": 20}),
    ("r501-24-made.yaml", {"A": -200, "B": -25, "C": -15}, {"A": 301, "B": 476, "C": 486},
     {"A": 100, "B": 25, "C": 15}),
])
def test_R501_24_worked_example_replays(talon_cli, name, deltas, scores, points):
    import json
    path = EXAMPLES / name
    assert "R501-24" in path.read_text(encoding="utf-8").splitlines()[0]
    rc, out, err = talon_cli("replay", path, "--json")
    assert rc == 0, err
    res = json.loads(out)
    assert res["deltas"] == deltas and res["scores"] == scores
    assert res["game_over"] is False and res["winners"] == []
    deal = res["deals"][0]
    assert deal["declarer"] == "A" and deal["bid"] == 80 and deal["contract"] == 100
    assert deal["blind"] is True
    assert deal["points"] == points


def test_R501_24_failed_example_details(talon_cli):
    import json
    rc, out, _ = talon_cli("replay", EXAMPLES / "r501-24-failed.yaml", "--json")
    deal = json.loads(out)["deals"][0]
    assert deal["card_points"] == {"A": 68, "B": 32, "C": 20}
    assert sum(deal["card_points"].values()) == 120
    assert deal["result"] == "failed"
    (m,) = deal["melds"]
    assert m["seat"] == "A" and m["worth"] == 20 and m["counts"] and m["suit"] != deal["trumps"]


def test_a_bid_off_the_steps_names_the_steps_start_and_the_nearest_bids(tmp_path):
    # `in steps of 5` counts from the lowest bid (66, 71, 76 …): "bids go up in steps of 5"
    # alone refused 80, a multiple of 5, without saying why
    import talon_cards as tc
    p = tmp_path / "fives.talon"
    p.write_text('variant fives "501, bids in fives"\nextends 501\n\nauction:\n'
                 "  replace bids [house]: a bid is a number from minimum-bid, in steps of 5, above the highest bid\n")
    hand = tc.Table(str(p), seats="ABC").deal(dealer="C", seed=1)
    assert hand.why_not("A bid 80").startswith("bids go up in steps of 5 from 66: 76 or 81, not 80")
    hand.act("A bid 71")
    assert hand.why_not("B bid 80").startswith("bids go up in steps of 5 from 76: 76 or 81, not 80")
