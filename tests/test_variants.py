"""Each house rule of docs/rules/house-rules.md as a variant spec: it validates, and a
hand record tells it apart from its base exactly as the house rule says."""
import copy
from pathlib import Path

import pytest
import yaml

from talon_cards.errors import IllegalAction
from talon_cards.records import read_record_file, replay_record
from talon_cards.spec import load

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "tests" / "records" / "variants"

VARIANTS = {
    "501-open-passing": "501", "501-declarer-out": "501", "501-rounded": "501",
    "501-must-beat": "501", "501-marriage-trumps": "501", "501-suit-marriages": "501",
    "501-no-blind": "501", "solo-whist-declared-trumps": "solo-whist",
    "solo-whist-overtricks": "solo-whist", "solo-whist-no-royal": "solo-whist",
    "solo-whist-twelve": "solo-whist",
}


def record(name):
    return read_record_file(str(RECORDS / f"{name}.yaml"))[0]


def replay(name, spec):
    return replay_record(copy.deepcopy(record(name)), spec_override=spec).to_json()


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_variant_is_small_and_names_its_base(name):
    path = ROOT / "specs" / f"{name}.talon"
    lines = [ln for ln in path.read_text().splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    assert lines[0].startswith(f"variant {name}")
    assert lines[1] == f"extends {VARIANTS[name]}"
    assert len(lines) <= 10, "a house rule should take a handful of lines"
    game = load(name)
    assert game.name == name


def test_open_passing_lets_a_passed_seat_bid_again():
    with pytest.raises(IllegalAction) as e:
        replay("501-open-passing", "501")
    assert e.value.index == 4 and "pass is final" in e.value.reason
    out = replay("501-open-passing", "501-open-passing")
    assert out["deals"][0]["declarer"] == "A" and out["deals"][0]["bid"] == 75


def test_declarer_out_wins_a_simultaneous_finish():
    base = replay("501-declarer-out", "501")
    var = replay("501-declarer-out", "501-declarer-out")
    assert base["scores"] == var["scores"] == {"A": -5, "B": -15, "C": 285}
    assert base["game_over"] and var["game_over"]
    assert base["winners"] == ["B"]          # lowest score (R501-23)
    assert var["winners"] == ["A"]           # the declarer is among those out


def test_rounded_defender_points_to_the_nearest_five():
    base = replay("501-rounded", "501")["deals"][0]
    var = replay("501-rounded", "501-rounded")["deals"][0]
    for seat in base["deltas"]:
        if seat == base["declarer"]:
            assert var["deltas"][seat] == base["deltas"][seat]
            continue
        pts = base["points"][seat]
        assert base["deltas"][seat] == -pts
        assert var["deltas"][seat] == -(5 * round(pts / 5 + 1e-9) if pts % 5 != 2.5 else pts)
        assert var["deltas"][seat] % 5 == 0 and var["deltas"][seat] != base["deltas"][seat]


@pytest.mark.parametrize("points,rounded", [(32, 30), (33, 35), (30, 30), (31, 30), (34, 35), (0, 0), (120, 120)])
def test_rounding_rule_of_house_rule_4(points, rounded):
    game = load("501-rounded")
    from talon_cards.engine.env import Env
    rule = [st.effects[0][1] for st in game.statements if st.payee == "defenders"][0]

    class St:
        abandoned = False

        def points(self, s):
            return {0: points}[s]
    assert rule(St(), Env(0)) == -rounded


def test_must_beat_requires_a_higher_card_of_the_suit_led():
    assert replay("501-must-beat", "501")["scores"]["A"] == 301
    with pytest.raises(IllegalAction) as e:
        replay("501-must-beat", "501-must-beat")
    assert e.value.index == 9 and "beats the trick" in e.value.reason
    assert e.value.legal == ["B play 10H"]


def test_marriage_trumps_changes_trumps_and_is_worth_the_trump_value():
    base = replay("501-marriage-trumps", "501")["deals"][0]
    var = replay("501-marriage-trumps", "501-marriage-trumps")["deals"][0]
    plain = [m for m in base["melds"] if m["suit"] != base["trumps"]]
    assert plain and all(m["worth"] == 20 for m in plain)
    assert all(m["worth"] == 40 for m in var["melds"])
    # trumps end as the suit of the last marriage announced
    assert var["trumps"] == var["melds"][-1]["suit"]
    assert base["trumps"] == "spades"
    assert var["deltas"] != base["deltas"]


def test_suit_marriages_use_the_suit_values():
    values = {"hearts": 100, "diamonds": 80, "clubs": 60, "spades": 40}
    base = replay("501-suit-marriages", "501")["deals"][0]
    var = replay("501-suit-marriages", "501-suit-marriages")["deals"][0]
    assert base["melds"]
    for b, v in zip(base["melds"], var["melds"]):
        assert b["worth"] in (20, 40)
        assert v["worth"] == values[v["suit"]]
    assert var["deltas"] != base["deltas"]


def test_no_blind_refuses_a_blind_bid():
    assert replay("501-no-blind", "501")["scores"]["A"] == 301
    with pytest.raises(IllegalAction) as e:
        replay("501-no-blind", "501-no-blind")
    assert e.value.index == 1 and "blind" in e.value.reason


def test_declared_trumps_lets_the_declarer_name_trumps():
    with pytest.raises(IllegalAction) as e:
        replay("solo-whist-declared-trumps", "solo-whist")
    assert "trumps" in e.value.action
    var = replay("solo-whist-declared-trumps", "solo-whist-declared-trumps")["deals"][0]
    assert var["contract"] == "abundance-declared" and var["trumps"] != "none"


def test_overtricks_pay_a_chip_per_trick_above_the_goal():
    base = replay("solo-whist-overtricks", "solo-whist")["deals"][0]
    var = replay("solo-whist-overtricks", "solo-whist-overtricks")["deals"][0]
    assert base["contract"] == "solo" and base["result"] == "made"
    decl = base["declarer"]
    over = base["tricks"][decl] - 5
    assert over >= 2
    assert base["deltas"][decl] == 3
    assert var["deltas"][decl] == 3 * (1 + over)
    for s, v in var["deltas"].items():
        if s != decl:
            assert base["deltas"][s] == -1 and v == -(1 + over)
    assert sum(var["deltas"].values()) == 0


def test_no_royal_has_no_abundance_in_trumps():
    assert replay("solo-whist-no-royal", "solo-whist")["deals"][0]["contract"] == "abundance-in-trumps"
    with pytest.raises(IllegalAction) as e:
        replay("solo-whist-no-royal", "solo-whist-no-royal")
    assert "abundance-in-trumps" in e.value.action and "not a bid" in e.value.reason
    assert "abundance-in-trumps" not in [c.name for c in load("solo-whist-no-royal").ladder]


def test_twelve_deal_session():
    base = replay("solo-whist-twelve", "solo-whist")
    var = replay("solo-whist-twelve", "solo-whist-twelve")
    assert len(base["deals"]) == 8
    assert base["game_over"] and sorted(base["winners"]) == ["A", "B", "C", "D"]
    assert not var["game_over"] and var["winners"] == []


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_variant_simulates(name):
    from talon_cards.simulate import simulate
    game = load(name)
    stats = simulate(game, 60, 7, game.seat_counts[0], progress=False)
    assert stats.deals == 60
