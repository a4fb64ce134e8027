"""Solo Whist: one test (or a few) per clause RSW-1 … RSW-18 of docs/rules/solo-whist.md.

Seats are A B C D clockwise; unless a test says otherwise D deals, so A (the dealer's left
neighbour) speaks and leads first. Expected numbers come from the rules page (goals and
units of its contract table, RSW-15/16 payments), never from the engine's output.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from talon_cards.cli import main as talon
from talon_cards.engine import AUCTION, CONTRACT, DONE, PLAY, TERMINAL, Match
from talon_cards.records import read_record_file, replay_file, replay_record
from talon_cards.spec import load

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "specs" / "examples" / "solo-whist"
RECORDS = Path(__file__).resolve().parent / "records" / "solo-whist"

G = load("solo-whist")
SEATS = "ABCD"
NAMES = {n: i for i, n in enumerate(SEATS)}
A, B, C, D = range(4)
RANKS = "A K Q J 10 9 8 7 6 5 4 3 2".split()          # RSW-1, highest first
ALL = [r + s for s in "SHDC" for r in RANKS]

# The contract table of the rules page: goal (least, most tricks of the declaring side),
# trumps, unit.
TABLE = {
    "cop": (8, 13, "exposed", 1),
    "solo": (5, 13, "exposed", 1),
    "misere": (0, 0, "none", 2),
    "abundance": (9, 13, "chosen", 3),
    "abundance-in-trumps": (9, 13, "exposed", 3),
    "misere-ouverte": (0, 0, "none", 4),
    "abundance-declared": (13, 13, "none", 6),
}


# ----------------------------------------------------------------- helpers
def cards(text: str) -> list:
    return [G.parse_card(c) for c in text.split()]


def names_of(mask: int) -> set:
    return {G.card_names[c] for c in range(G.n_cards) if mask >> c & 1}


def fill(fixed: dict, exposed: str) -> dict:
    """Hands: the seats in `fixed` hold those cards, the dealer D holds `exposed`, the
    rest of the deck goes round the other seats."""
    hands = {k: v.split() for k, v in fixed.items()}
    for k in SEATS:
        hands.setdefault(k, [])
    used = {c for v in hands.values() for c in v}
    if exposed not in used:
        assert "D" not in fixed
        hands["D"].append(exposed)
        used.add(exposed)
    i = 0
    for c in ALL:
        if c in used:
            continue
        while True:
            k = SEATS[i % 4]
            i += 1
            if k not in fixed and len(hands[k]) < 13:
                hands[k].append(c)
                break
    return hands


def deal_with(fixed: dict, exposed: str, dealer: int = D):
    hands = fill(fixed, exposed)
    d = G.new_deal(4, dealer)
    d.set_cards({NAMES[k]: cards(" ".join(v)) for k, v in hands.items()}, [], G.parse_card(exposed))
    return d


def seeded(seed: int = 7, dealer: int = D):
    d = G.new_deal(4, dealer)
    d.deal_random(random.Random(seed))
    return d


def action(d, text: str):
    seat = NAMES[text.split()[0]]
    return seat, d.parse_action(text.split()[1:], NAMES)


def act(d, *texts):
    for text in texts:
        seat, a = action(d, text)
        assert d.is_legal(a, seat), f"`{text}` should be legal; legal: {legal(d)}"
        d.apply_action(a, seat)


def illegal(d, text) -> bool:
    seat, a = action(d, text)
    return not d.is_legal(a, seat)


def legal(d, seat=None) -> list:
    s = d.turn if seat is None else seat
    return [d.action_to_string(a, s, SEATS).split(" ", 1)[1] for a in d.legal_actions(seat)]


def bids(d) -> list:
    return [w.split()[1] for w in legal(d) if w.startswith("bid")]


def play_out(d, concede=False):
    """Declaring side plays its highest legal card, defenders their lowest; with
    `concede`, the declarer concedes the moment it may."""
    while not d.is_terminal():
        if concede and G.codec.CONCEDE in d.legal_actions(d.declarer):
            d.apply_action(G.codec.CONCEDE, d.declarer)
            continue
        legal_cards = [a for a in d.legal_actions() if a < G.n_cards]
        pick = min if d.turn in d.declarers else max
        d.apply_action(pick(legal_cards, key=lambda c: G.card_rank[c]))
    return d


def rank(card: str) -> int:
    """0 for an ace … 12 for a two: sorting by it puts the highest card first."""
    return RANKS.index(card[:-1])


def plays_of(d) -> list:
    return [(s, G.card_names[a]) for s, a in d.history if a < G.n_cards]


STRONG = "AS AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H"    # wins all 13 tricks on the lead
WEAK = "4S 3S 2S 4H 3H 2H 4D 3D 2D 5C 4C 3C 2C"       # the 12 lowest cards and 5C

AUCTIONS = {   # the contract declared by A
    "cop": ["A bid prop", "B bid cop", "C pass", "D pass"],
    "solo": ["A bid solo", "B pass", "C pass", "D pass"],
    "misere": ["A bid misere", "B pass", "C pass", "D pass"],
    "abundance": ["A bid abundance", "B pass", "C pass", "D pass", "A trumps hearts"],
    "abundance-in-trumps": ["A bid solo", "B pass", "C pass", "D bid abundance",
                            "A bid abundance-in-trumps", "D pass"],
    "misere-ouverte": ["A bid misere-ouverte", "B pass", "C pass", "D pass"],
    "abundance-declared": ["A bid abundance-declared", "B pass", "C pass", "D pass"],
}


# ----------------------------------------------------------------- RSW-1
def test_RSW_1_fifty_two_cards_ace_high():
    assert G.n_cards == 52 and list(G.suits) == ["S", "H", "D", "C"] and list(G.ranks) == RANKS
    # In a trick without trumps in it, A beats K beats … 2 of the suit led.
    d = deal_with({"A": "KS QS " + " ".join(f"{r}D" for r in RANKS[:11]),
                   "B": "AS 2S " + " ".join(f"{r}C" for r in RANKS[:11])}, "2H")
    act(d, "A bid solo", "B pass", "C pass", "D pass")
    assert d.trumps == G.suits.index("H")
    c_spade = sorted(names_of(d.hands[C]) & {f"{r}S" for r in RANKS}, key=rank)[0]
    d_spade = sorted(names_of(d.hands[D]) & {f"{r}S" for r in RANKS}, key=rank)[0]
    act(d, "A play KS", "B play 2S", f"C play {c_spade}", f"D play {d_spade}")
    assert d.tricks[A] == 1        # K beats J/10/9 … of spades
    act(d, "A play QS", "B play AS")
    assert d.win_seat == B          # the ace beats the queen


def test_RSW_1_four_players_scoring_individually():
    assert G.seat_counts == (4,)
    for n in (3, 5):
        with pytest.raises(ValueError):
            Match(G, n)
    d = deal_with({"A": STRONG}, "2H")
    act(d, *AUCTIONS["solo"])
    play_out(d)
    # Individual scores: each seat has its own balance (no fixed partnership).
    assert d.returns() == [3, -1, -1, -1]
    assert d.scores == [3, -1, -1, -1]


# ----------------------------------------------------------------- RSW-2
class _NoShuffle(random.Random):
    def shuffle(self, x):
        pass


def test_RSW_2_packets_of_three_then_one_from_dealers_left():
    for dealer in range(4):
        d = G.new_deal(4, dealer)
        d.deal_random(_NoShuffle())          # deck position i holds card i
        order = [(dealer + k) % 4 for k in range(1, 5)]   # dealer's left first, clockwise
        want = {s: set() for s in range(4)}
        pos = 0
        for _ in range(4):                   # four rounds of three
            for s in order:
                want[s] |= {pos, pos + 1, pos + 2}
                pos += 3
        for s in order:                      # then one card each
            want[s].add(pos)
            pos += 1
        assert pos == 52
        for s in range(4):
            assert {c for c in range(52) if d.hands[s] >> c & 1} == want[s]
            assert len(want[s]) == 13


def test_RSW_2_deal_passes_left_after_every_deal_annulled_included():
    m = Match(G, 4, first_dealer=2)
    d = m.new_deal()
    d.deal_random(random.Random(1))
    assert d.dealer == 2 and d.turn == 3        # the dealer's left neighbour speaks
    act(d, "D pass", "A pass", "B pass", "C pass")
    assert d.is_terminal() and d.annulled
    m.finish(d)
    assert m.dealer == 3 and m.deals_played == 1
    d2 = m.new_deal()
    d2.deal_random(random.Random(2))
    assert d2.dealer == 3 and d2.turn == 0 and d2.deal_number == 2


# ----------------------------------------------------------------- RSW-3
def test_RSW_3_exposed_card_is_dealers_thirteenth():
    for dealer in range(4):
        d = G.new_deal(4, dealer)
        d.deal_random(_NoShuffle())
        assert d.exposed == 51                      # the very last card dealt
        assert d.hands[dealer] >> 51 & 1             # it belongs to the dealer …
        assert bin(d.hands[dealer]).count("1") == 13  # … as one of its 13 cards
    d = seeded(3)
    assert d.hands[D] >> d.exposed & 1


def test_RSW_3_exposed_card_must_be_the_dealers():
    hands = fill({}, "2H")
    d = G.new_deal(4, D)
    by_seat = {NAMES[k]: cards(" ".join(v)) for k, v in hands.items()}
    other = G.card_names[by_seat[B][0]]
    with pytest.raises(ValueError, match="dealer"):
        d.set_cards(by_seat, [], G.parse_card(other))
    with pytest.raises(ValueError, match="exposed"):
        G.new_deal(4, D).set_cards(by_seat, [], -1)


def test_RSW_3_a_record_names_the_exposed_card():
    from talon_cards.errors import RecordError
    rec = read_record_file(str(EXAMPLES / "rsw-18-ten-tricks.yaml"))[0]
    bad = {k: v for k, v in rec.items() if k != "exposed"}
    with pytest.raises(RecordError, match="exposed"):
        replay_record(bad, game=G)
    other = dict(rec, exposed=rec["hands"]["A"][0])
    with pytest.raises(RecordError, match="dealer"):
        replay_record(other, game=G)


def test_RSW_3_exposed_card_visible_to_all_until_first_trick_ends():
    d = deal_with({"A": STRONG}, "2S")
    for s in range(4):
        assert d.observation(s)["exposed"] == "2S"
        assert d.observation(s)["hand"] is not None
    assert d.observation(B)["hand"] != d.observation(A)["hand"]
    act(d, *AUCTIONS["solo"])                   # trumps: spades, the exposed suit
    assert d.trumps == G.suits.index("S")
    act(d, "A play AH")
    for s in range(4):
        assert d.observation(s)["exposed"] == "2S"   # still face up during trick 1
    # Trick 1 ends with the exposed 2S kept back (hearts are led: 2S never has to go).
    while d.tricks_done == 0:
        legal_cards = [a for a in d.legal_actions() if a < G.n_cards and a != G.parse_card("2S")]
        d.apply_action(legal_cards[0])
    assert all(c != "2S" for _, c in plays_of(d))
    for s in range(4):
        assert d.observation(s)["exposed"] is None    # taken into hand after trick 1
    assert "2S" in d.observation(D)["hand"]          # still the dealer's card


def test_RSW_3_exposed_card_playable_to_first_trick_and_counts_for_following():
    # D's only spade is the exposed 2S: when spades are led D must play it.
    d = deal_with({"A": "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S AH",
                   "D": "2S KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H"}, "2S")
    act(d, "A bid solo", "B pass", "C pass", "D pass", "A play AS")
    b = sorted(names_of(d.hands[B]), key=ALL.index)[0]
    c = sorted(names_of(d.hands[C]), key=ALL.index)[0]
    act(d, f"B play {b}", f"C play {c}")
    assert legal(d) == ["play 2S"]
    act(d, "D play 2S")
    assert all(d.observation(s)["exposed"] is None for s in range(4))
    assert d.tricks_done == 1


# ----------------------------------------------------------------- RSW-4
def test_RSW_4_abundance_in_trumps_only_over_abundance():
    d = seeded()
    assert "abundance-in-trumps" not in bids(d)
    act(d, "A bid solo")
    assert "abundance-in-trumps" not in bids(d)
    act(d, "B bid misere")
    assert "abundance-in-trumps" not in bids(d)
    assert illegal(d, "C bid abundance-in-trumps")
    act(d, "C bid abundance")
    assert "abundance-in-trumps" in bids(d)
    act(d, "D bid abundance-in-trumps")
    assert d.highest_bidder == D
    # Over Abundance in Trumps the next bids are the higher contracts only.
    assert bids(d) == ["misere-ouverte", "abundance-declared"]


# ----------------------------------------------------------------- RSW-5
@pytest.mark.parametrize("suit", ["spades", "hearts", "diamonds", "clubs"])
def test_RSW_5_abundance_declarer_names_any_suit_after_auction(suit):
    d = deal_with({"A": STRONG}, "2S")          # the exposed suit is spades
    act(d, "A bid abundance", "B pass", "C pass", "D pass")
    assert d.phase == CONTRACT and d.turn == A and d.trumps is None
    assert legal(d) == ["trumps spades", "trumps hearts", "trumps diamonds", "trumps clubs"]
    assert illegal(d, "A trumps none")
    from talon_cards.records import explain
    assert "suit" in explain(d, d.parse_action(["trumps", "none"], NAMES), A, SEATS)
    assert illegal(d, "B trumps hearts")
    act(d, f"A trumps {suit}")                  # the exposed suit is allowed too
    assert d.phase == PLAY and d.turn == A
    assert d.observation(C)["trumps"] == suit


@pytest.mark.parametrize("contract", sorted(TABLE))
def test_RSW_5_contract_table_trumps(contract):
    """Exposed-suit contracts play in the exposed card's suit without a choice;
    the Misères and Abundance Declared play at no trumps."""
    d = deal_with({"A": STRONG}, "2D")
    act(d, *AUCTIONS[contract])
    assert d.phase == PLAY
    want = {"exposed": "diamonds", "none": "none", "chosen": "hearts"}[TABLE[contract][2]]
    assert d.observation(B)["trumps"] == want
    assert d.contract_name() == contract


# ----------------------------------------------------------------- RSW-6
def test_RSW_6_misere_ouverte_hand_shown_after_first_trick():
    d = deal_with({"B": WEAK}, "AD")
    act(d, "A pass", "B bid misere-ouverte", "C pass", "D pass")
    assert d.phase == PLAY and d.declarer == B and d.turn == A
    for s in (A, C, D):
        assert "declarer_hand" not in d.observation(s)
    for _ in range(3):
        d.apply_action(d.legal_actions()[0])
    for s in (A, C, D):
        assert "declarer_hand" not in d.observation(s)    # not during trick 1
    d.apply_action(d.legal_actions()[0])
    assert d.tricks_done == 1
    for s in (A, C, D):
        assert set(d.observation(s)["declarer_hand"]) == names_of(d.hands[B])
        assert len(d.observation(s)["declarer_hand"]) == 12
    assert d.observation(B)["hand"] is not None


def test_RSW_6_plain_misere_hand_stays_hidden():
    d = deal_with({"B": WEAK}, "AD")
    act(d, "A pass", "B bid misere", "C pass", "D pass")
    for _ in range(8):
        d.apply_action(d.legal_actions()[0])
    assert d.tricks_done == 2
    assert all("declarer_hand" not in d.observation(s) for s in (A, C, D))


# ----------------------------------------------------------------- RSW-7
@pytest.mark.parametrize("dealer", range(4))
def test_RSW_7_dealers_left_speaks_first_then_clockwise(dealer):
    d = seeded(11, dealer)
    order = []
    while d.phase == AUCTION and len(order) < 4:
        order.append(d.turn)
        d.apply_action(G.codec.PASS)
    assert order == [(dealer + k) % 4 for k in range(1, 5)]


def test_RSW_7_a_bid_must_be_higher_than_the_highest_bid():
    d = seeded()
    act(d, "A bid misere")
    assert bids(d) == ["abundance", "misere-ouverte", "abundance-declared"]
    for low in ("prop", "cop", "solo", "misere"):
        assert illegal(d, f"B bid {low}")
    act(d, "B bid misere-ouverte")
    assert bids(d) == ["abundance-declared"]


# ----------------------------------------------------------------- RSW-8
def test_RSW_8_prop_only_opens_the_auction():
    d = seeded()
    assert "prop" in bids(d)
    act(d, "A pass")
    assert "prop" in bids(d)                   # no bid stands yet
    act(d, "B bid solo")
    assert "prop" not in bids(d)
    assert illegal(d, "C bid prop")


def test_RSW_8_cop_only_accepts_another_seats_standing_prop():
    d = seeded()
    assert "cop" not in bids(d)                # no Prop to accept
    act(d, "A bid prop")
    assert "cop" in bids(d)
    act(d, "B pass", "C pass", "D pass")
    # The proposer is asked to raise (RSW-11) but may not accept its own Prop.
    assert d.turn == A and d.phase == AUCTION
    assert "cop" not in bids(d)
    assert illegal(d, "A bid cop")


def test_RSW_8_one_cop_at_most_and_then_solo_or_higher():
    d = seeded()
    act(d, "A bid prop", "B bid cop")
    assert d.declarer == -1 and d.highest_bidder == A and d.partner == B
    assert "cop" not in bids(d) and "prop" not in bids(d)
    assert bids(d)[0] == "solo"
    act(d, "C bid solo")
    assert "cop" not in bids(d)               # no second Cop, even of the same Prop


def test_RSW_8_partners_not_passed_may_bid_again_when_overcalled():
    d = seeded()
    act(d, "A bid prop", "B bid cop", "C bid solo", "D pass")
    assert d.turn == A and "misere" in bids(d)
    act(d, "A pass")
    assert d.turn == B and "misere" in bids(d)
    act(d, "B bid misere", "C pass")
    assert d.phase == PLAY and d.declarer == B and d.declarers == (B,)
    assert d.contract_name() == "misere"


# ----------------------------------------------------------------- RSW-9
def test_RSW_9_passing_is_final():
    d = seeded()
    act(d, "A bid solo", "B pass", "C bid misere", "D pass")
    assert d.turn == A                       # B passed: skipped
    act(d, "A bid abundance")
    assert d.turn == C
    act(d, "C pass")
    assert d.phase != AUCTION and d.declarer == A
    assert d.contract_name() == "abundance"


@pytest.mark.parametrize("proposer", ["B", "C", "D"])
def test_RSW_9_dealers_left_may_cop_a_lone_prop_on_its_second_turn(proposer):
    d = seeded()
    order = ["A pass"] + [f"{s} bid prop" if s == proposer else f"{s} pass" for s in "BCD"]
    act(d, *order)
    # The other two have passed; the dealer's left neighbour's turn comes again.
    assert d.turn == A and d.phase == AUCTION
    assert legal(d) == ["pass", "bid cop"]    # accepting only, no other bid
    act(d, "A bid cop")
    assert d.phase == PLAY
    assert set(d.declarers) == {A, NAMES[proposer]} and d.declarer == NAMES[proposer]
    assert d.contract_name() == "cop"


def test_RSW_9_second_pass_of_dealers_left_leaves_prop_unaccepted():
    d = seeded()
    act(d, "A pass", "B bid prop", "C pass", "D pass", "A pass")
    assert d.turn == B and d.phase == AUCTION          # RSW-11: B may raise
    assert "cop" not in bids(d) and "prop" not in bids(d) and bids(d)[0] == "solo"


def test_RSW_9_no_second_chance_when_the_first_round_had_two_bids():
    d = seeded()
    act(d, "A pass", "B bid prop", "C bid cop", "D pass")
    assert d.phase == PLAY                     # A passed for good: Prop+Cop stands
    d = seeded()
    act(d, "A pass", "B bid prop", "C bid solo", "D pass", "B pass")
    assert d.phase == PLAY and d.declarer == C  # A does not speak again


def test_RSW_9_only_the_dealers_left_has_the_second_chance():
    d = seeded()
    act(d, "A bid prop", "B pass", "C pass", "D pass")
    assert d.turn == A and "cop" not in bids(d)  # B, C, D get no second turn
    d = seeded()
    act(d, "A pass", "B pass", "C bid prop", "D pass")
    assert d.turn == A                          # A may; B, who also passed, may not
    act(d, "A pass")
    assert d.turn == C


# ----------------------------------------------------------------- RSW-10
def test_RSW_10_prop_cop_not_overcalled_ends_the_auction():
    d = seeded()
    act(d, "A bid prop", "B pass", "C bid cop", "D pass")
    assert d.phase == PLAY and d.contract_name() == "cop"
    assert d.declarers == (A, C) and d.defenders == (B, D)


def test_RSW_10_three_passes_against_an_individual_contract():
    d = seeded()
    act(d, "A bid solo", "B pass", "C pass")
    assert d.phase == AUCTION and d.turn == D
    act(d, "D pass")
    assert d.phase == PLAY and d.declarer == A and d.defenders == (B, C, D)
    d = seeded()
    act(d, "A pass", "B bid solo", "C bid misere", "D pass", "B pass")
    assert d.phase == PLAY and d.declarer == C        # A, D and B have passed
    d = seeded()
    act(d, "A bid solo", "B bid misere", "C pass", "D pass")
    assert d.phase == AUCTION and d.turn == A           # A has not passed yet


# ----------------------------------------------------------------- RSW-11
def test_RSW_11_unaccepted_prop_raised_to_solo_ends_the_auction():
    d = seeded()
    act(d, "A bid prop", "B pass", "C pass", "D pass")
    assert d.turn == A
    assert bids(d) == ["solo", "misere", "abundance", "misere-ouverte", "abundance-declared"]
    act(d, "A bid misere")
    assert d.phase == PLAY and d.contract_name() == "misere"   # no further turns
    assert d.declarers == (A,)


def test_RSW_11_unaccepted_prop_not_raised_annuls_the_deal():
    d = seeded()
    act(d, "A pass", "B pass", "C bid prop", "D pass", "A pass", "C pass")
    assert d.is_terminal() and d.annulled and d.returns() == [0, 0, 0, 0]
    assert d.current_player() == TERMINAL


def test_RSW_11_four_passes_annul_the_deal():
    d = seeded()
    act(d, "A pass", "B pass", "C pass")
    assert not d.is_terminal()
    act(d, "D pass")
    assert d.is_terminal() and d.annulled and d.returns() == [0, 0, 0, 0]


def test_RSW_11_replay_says_why_the_deal_was_annulled(capsys):
    path = RECORDS / "prop-unaccepted.yaml"
    assert talon(["replay", str(path)]) == 0
    assert "annulled (prop found no partner)" in capsys.readouterr().out
    assert talon(["replay", "--json", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["deltas"] == {"A": 0, "B": 0, "C": 0, "D": 0}
    assert out["deals"][0]["result"] == "annulled" and out["deals"][0]["unpartnered"] == "prop"


# ----------------------------------------------------------------- RSW-12
@pytest.mark.parametrize("contract", sorted(TABLE))
def test_RSW_12_first_lead(contract):
    d = seeded(5)
    auction = {"cop": ["A pass", "B bid prop", "C bid cop", "D pass"],
               "abundance": ["A pass", "B pass", "C bid abundance", "D pass", "C trumps clubs"],
               "abundance-in-trumps": ["A pass", "B bid abundance", "C bid abundance-in-trumps",
                                       "D pass", "B pass"]}.get(
        contract, ["A pass", "B pass", f"C bid {contract}", "D pass"])
    act(d, *auction)
    assert d.phase == PLAY and d.declarer != A
    want = d.declarer if contract == "abundance-declared" else A
    assert d.turn == want and d.leader == want


def test_RSW_12_follow_suit_no_duty_to_trump_highest_wins_winner_leads():
    d = deal_with({"A": "8S 7S AD KD QD JD 10D 9D 8D 7D 6D 5D 4D",
                   "B": "AH KH QH JH 10H 9H 8H AC KC QC JC 10C 9C",
                   "C": "AS QS JS 6S 5S 7H 6H 5H 4H 3H 3D 2D 8C",
                   "D": "KS 10S 9S 4S 3S 2S 2H 7C 6C 5C 4C 3C 2C"}, "2H")
    act(d, "A bid solo", "B pass", "C pass", "D pass")
    assert d.trumps == G.suits.index("H")
    act(d, "A play 8S")
    # B has no spade: any card, a trump or not (no duty to trump).
    assert set(legal(d)) == {f"play {c}" for c in names_of(d.hands[B])}
    act(d, "B play 9C")
    # C holds spades: must follow with one of them.
    assert set(legal(d)) == {"play AS", "play QS", "play JS", "play 6S", "play 5S"}
    assert illegal(d, "C play 8C") and illegal(d, "C play 3H")
    act(d, "C play 6S", "D play KS")
    assert d.tricks == [0, 0, 0, 1]                    # the highest card of the suit led
    assert d.turn == D and d.leader == D               # the winner leads next
    act(d, "D play 2S", "A play 7S", "B play 8H", "C play AS")
    assert d.tricks == [0, 1, 0, 1]                    # a trump beats the ace of the suit led
    assert d.turn == B
    act(d, "B play AC", "C play 8C", "D play 2C", "A play 4D")
    assert d.tricks == [0, 2, 0, 1]                    # a discard never wins


# ----------------------------------------------------------------- RSW-13
def _replay(name):
    return replay_file(str(RECORDS / name)).to_json()


def test_RSW_13_prop_cop_partners_pool_their_tricks():
    r = _replay("cop-pooled-made.yaml")
    deal = r["deals"][0]
    assert deal["contract"] == "cop" and set(deal["declarers"]) == {"A", "B"}
    t = deal["tricks"]
    assert t["A"] < 8 and t["B"] < 8 and t["A"] + t["B"] >= 8   # neither alone has 8
    assert deal["result"] == "made"
    assert r["deltas"] == {"A": 1, "B": 1, "C": -1, "D": -1}


def test_RSW_13_defenders_pool_their_tricks():
    r = _replay("cop-pooled-failed.yaml")
    t = r["deals"][0]["tricks"]
    assert t["A"] + t["B"] == 7 and t["C"] + t["D"] == 6       # 6 < 8 each, yet they beat it
    assert r["deltas"] == {"A": -1, "B": -1, "C": 1, "D": 1}


# ----------------------------------------------------------------- RSW-14
def test_RSW_14_all_thirteen_tricks_are_played():
    d = deal_with({"A": STRONG}, "2H")
    act(d, *AUCTIONS["abundance"])
    play_out(d, concede=True)                  # a made Abundance: nothing to concede
    assert d.tricks_done == 13
    assert all(sum(1 for s, _ in plays_of(d) if s == t) == 13 for t in range(4))


@pytest.mark.parametrize("contract", ["misere", "misere-ouverte"])
def test_RSW_14_concede_a_failed_no_trick_contract_at_any_moment(contract):
    d = deal_with({"A": STRONG}, "2H")
    act(d, *AUCTIONS[contract])
    assert G.codec.CONCEDE not in d.legal_actions(A)          # not failed yet
    act(d, "A play AS")
    assert G.codec.CONCEDE not in d.legal_actions(A)
    for _ in range(3):                                     # A wins trick 1: failed
        d.apply_action(max([a for a in d.legal_actions() if a < G.n_cards], key=lambda c: G.card_rank[c]))
    assert d.tricks[A] == 1 and d.turn == A
    assert "concede" in legal(d)                          # on A's own turn
    act(d, "A play AH", "B play " + sorted(names_of(d.hands[B]), key=ALL.index)[0])
    # Mid-trick, on C's turn: A may concede; C, B and D may not.
    assert d.turn == C and len(d.trick) == 2
    assert legal(d, A) == ["concede"]
    for s in (B, C, D):
        assert G.codec.CONCEDE not in d.legal_actions(s)
        assert not d.is_legal(G.codec.CONCEDE, s)
    unit = TABLE[contract][3]
    act(d, "A concede")
    assert d.is_terminal() and d.conceded and not d.made
    assert d.returns() == [-3 * unit, unit, unit, unit]
    assert len(plays_of(d)) == 6


def test_RSW_14_concede_only_once_lost_and_only_no_or_all_trick_contracts():
    d = deal_with({"B": STRONG}, "2H")
    act(d, "A bid abundance-declared", "B pass", "C pass", "D pass")
    low = sorted(names_of(d.hands[A]) & {f"{r}S" for r in RANKS}, key=rank)[-1]
    act(d, f"A play {low}")
    assert G.codec.CONCEDE not in d.legal_actions(A) and not d.is_legal(G.codec.CONCEDE, A)
    act(d, "B play AS")
    for _ in range(2):
        d.apply_action(d.legal_actions()[0])
    assert d.tricks[B] == 1                   # now it has failed
    assert "concede" in legal(d, A)
    act(d, "A concede")
    assert d.returns() == [-18, 6, 6, 6]
    # Solo can never be conceded, even when hopeless.
    d = deal_with({"B": STRONG}, "2H")
    act(d, "A bid solo", "B pass", "C pass", "D pass")
    play_out(d, concede=True)
    assert not d.conceded and d.tricks_done == 13 and d.returns() == [-3, 1, 1, 1]


def test_RSW_14_record_with_concession_out_of_turn():
    r = _replay("misere-conceded.yaml")
    deal = r["deals"][0]
    assert deal["result"] == "conceded"
    rec = read_record_file(str(RECORDS / "misere-conceded.yaml"))[0]
    last = rec["actions"][-1]
    assert last.split()[1] == "concede"
    # conceded in the middle of a trick, while it was not the declarer's turn
    plays = [a for a in rec["actions"] if a.split()[1] == "play"]
    assert len(plays) % 4 != 0
    assert r["deltas"] == {"A": -6, "B": 2, "C": 2, "D": 2}


# ----------------------------------------------------------------- RSW-15 / RSW-16
def test_RSW_15_prop_cop_made_and_failed():
    d = deal_with({"A": STRONG}, "2H")
    act(d, *AUCTIONS["cop"])
    play_out(d)
    assert d.made and d.returns() == [1, 1, -1, -1]
    d = deal_with({"A": WEAK, "B": "5S 6S 7S 8S 5H 6H 7H 8H 5D 6D 7D 8D 6C"}, "AH")
    act(d, *AUCTIONS["cop"])
    play_out(d)
    assert d.tricks[A] + d.tricks[B] < 8
    assert not d.made and d.returns() == [-1, -1, 1, 1]


@pytest.mark.parametrize("contract", [c for c in TABLE if c != "cop"])
def test_RSW_16_individual_contract_pays_its_unit(contract):
    least, most, _, unit = TABLE[contract]
    for hand, exposed in ((STRONG, "2H"), (WEAK, "AH")):
        d = deal_with({"A": hand}, exposed)
        act(d, *AUCTIONS[contract])
        play_out(d)
        made = least <= d.tricks[A] <= most
        sign = 1 if made else -1
        assert d.made == made
        assert d.returns() == [3 * unit * sign, -unit * sign, -unit * sign, -unit * sign]
    # Each contract is both made and failed across the two hands.
    outcomes = set()
    for hand, exposed in ((STRONG, "2H"), (WEAK, "AH")):
        d = deal_with({"A": hand}, exposed)
        act(d, *AUCTIONS[contract])
        outcomes.add(play_out(d).made)
    assert outcomes == {True, False}


def test_RSW_16_no_bonus_for_overtricks():
    d = deal_with({"A": STRONG}, "2H")
    act(d, *AUCTIONS["solo"])
    play_out(d)
    assert d.tricks[A] == 13 and d.returns() == [3, -1, -1, -1]   # goal 5, took 13


# ----------------------------------------------------------------- RSW-17
def _annulled(m):
    d = m.new_deal()
    d.deal_random(random.Random(m.deals_played))
    while not d.is_terminal():
        d.apply_action(G.codec.PASS)
    assert d.annulled
    m.finish(d)


def test_RSW_17_session_of_eight_deals_annulled_included_ties_share():
    m = Match(G, 4, first_dealer=3)
    for k in range(7):
        _annulled(m)
        assert not m.game_over and m.deals_played == k + 1
    _annulled(m)
    assert m.game_over and m.deals_played == 8
    assert m.scores == [0, 0, 0, 0] and sorted(m.winners) == [A, B, C, D]


def test_RSW_17_highest_balance_wins_partners_share():
    m = Match(G, 4, first_dealer=3)
    d = m.new_deal()
    hands = fill({"A": STRONG}, "2H")
    d.set_cards({NAMES[k]: cards(" ".join(v)) for k, v in hands.items()}, [], G.parse_card("2H"))
    act(d, *AUCTIONS["cop"])
    play_out(d)
    m.finish(d)
    for _ in range(7):
        _annulled(m)
    assert m.game_over and m.scores == [1, 1, -1, -1] and sorted(m.winners) == [A, B]


def test_RSW_17_session_record():
    r = _replay("session.yaml")
    assert r["game_over"] and len(r["deals"]) == 8
    assert any(x["result"] == "annulled" for x in r["deals"])
    totals = {n: sum(x["deltas"][n] for x in r["deals"]) for n in SEATS}
    assert r["scores"] == totals
    best = max(totals.values())
    assert sorted(r["winners"]) == [n for n in SEATS if totals[n] == best]
    dealers = [x["dealer"] for x in r["deals"]]
    first = SEATS.index(dealers[0])
    assert dealers == [SEATS[(first + k) % 4] for k in range(8)]
    # Seven deals are not a session.
    rec = read_record_file(str(RECORDS / "session.yaml"))[0]
    short = dict(rec, deals=rec["deals"][:7])
    assert replay_record(short).to_json()["game_over"] is False


# ----------------------------------------------------------------- RSW-18
@pytest.mark.parametrize("name, tricks, deltas", [
    ("rsw-18-ten-tricks.yaml", 10, {"A": 9, "B": -3, "C": -3, "D": -3}),
    ("rsw-18-eight-tricks.yaml", 8, {"A": -9, "B": 3, "C": 3, "D": 3}),
])
def test_RSW_18_abundance_worked_example(name, tricks, deltas, capsys):
    path = EXAMPLES / name
    assert path.read_text(encoding="utf-8").startswith("# RSW-18")
    assert talon(["replay", "--json", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["deltas"] == deltas and out["scores"] == deltas
    assert sum(out["deltas"].values()) == 0 and out["game_over"] is False
    deal = out["deals"][0]
    assert deal["contract"] == "abundance" and deal["declarer"] == "A"
    assert deal["trumps"] == "hearts" and deal["tricks"]["A"] == tricks
    rec = read_record_file(str(path))[0]
    assert rec["exposed"] in rec["hands"][rec["dealer"]]
    assert rec["actions"][:5] == ["A bid abundance", "B pass", "C pass", "D pass", "A trumps hearts"]


def test_RSW_18_examples_carry_their_expected_results():
    from talon_cards.records import check_examples
    results = check_examples(G, G.examples)
    assert {Path(p).name for p, _ in results} >= {"rsw-18-ten-tricks.yaml", "rsw-18-eight-tricks.yaml"}
    assert all(problems == [] for _, problems in results), results
    for name, a in (("rsw-18-ten-tricks.yaml", 9), ("rsw-18-eight-tricks.yaml", -9)):
        rec = read_record_file(str(EXAMPLES / name))[0]
        assert rec["expect"]["deltas"] == {"A": a, "B": -a // 3, "C": -a // 3, "D": -a // 3}



def test_a_contract_that_joins_needs_a_bid_of_another_seat_to_join(tmp_path):
    # a variant marking another contract `partner: joins` (without cop's own condition)
    # validated, then crashed simulate when it was the first bid: no highest bidder to join
    import talon_cards as tc
    from talon_cards.simulate import simulate
    from talon_cards.spec import load
    p = tmp_path / "joins.talon"
    p.write_text('variant joins "joins"\nextends solo-whist\n\ntables:\n  set ladder solo partner to joins\n')
    hand = tc.Table(str(p), seats="ABCD").deal(dealer="D", seed=3)
    assert "A bid solo" not in hand.legal()
    assert hand.why_not("A bid solo") == "`solo` joins the highest bidder, and there is no bid to join"
    hand.act("A bid prop")
    assert "B bid solo" in hand.legal()
    game = load(str(p))
    assert simulate(game, 300, 1, 4, progress=False).deals == 300
