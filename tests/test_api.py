"""The Python API of docs/api.md: a table, a deal, actions by their text, refusals with
replay's reasons, clones."""
import pytest

import talon_cards as tc
from talon_cards.records import replay_record


def test_a_deal_at_a_table_is_played_by_text():
    table = tc.Table("501", seats="ABC")
    hand = table.deal(dealer="C", seed=1)
    assert repr(hand) == "<Hand of 501: dealer C, auction, A to act>"
    assert hand.legal()[:3] == ["A pass", "A pass blind", "A look"]
    hand.act("A bid 70")
    with pytest.raises(tc.IllegalAction) as e:
        hand.act("B bid 60")
    assert "above the highest bid (70)" in e.value.reason and "R501-7" in e.value.reason
    assert hand.why_not("B bid 60") == e.value.reason and hand.why_not("B bid 71") == ""
    other = hand.clone()
    other.act("B pass", "C pass")
    assert other.phase == "contract" and hand.phase == "auction" and hand.turn == "B"


def test_a_whole_deal_by_text_replays_as_a_record():
    hand = tc.Table("hearts").deal(dealer="D", seed=5)
    while not hand.over:
        hand.act(hand.legal()[0])
    res = hand.result()
    assert sum(res["deltas"].values()) in (26, 78)
    out = replay_record(hand.record()).to_json()
    assert out["deltas"] == res["deltas"]


def test_given_cards_and_seat_counts():
    hand = tc.Table("whist").deal(dealer="D", hands={
        "A": "KS JS 7S 2S QH 6H 5H KD JD 4D 8C 6C 2C".split(),
        "B": "AS QS 10S 3S JH 9H 8H 4H 7D 6D 5D 10C 3C".split(),
        "C": "9S 8S 6S 5S 4S AH KH AD 3D AC KC QC JC".split(),
        "D": "10H 7H 3H 2H QD 10D 9D 8D 2D 9C 7C 5C 4C".split()}, exposed="7H")
    assert hand.turn == "A" and hand.observation("A")["exposed"] == "7H"
    with pytest.raises(ValueError):
        tc.Table("hearts", seats="ABC")
    assert isinstance(tc.load("oh-hell"), object) and repr(tc.load("oh-hell")).startswith("<Game 'oh-hell'")
