"""The hand-record format of docs/records.md: reading (YAML, JSON, JSON Lines; card
spellings; one deal and whole games), replay results, records that stop early, illegal
actions and malformed records (clear one-line errors, exit status 1, no traceback)."""
from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from talon_cards.errors import IllegalAction, RecordError
from talon_cards.records import (deal_record, dump_yaml, read_record_file, replay_file,
                                 replay_record)

ROOT = Path(__file__).resolve().parent.parent
MADE = ROOT / "specs" / "examples" / "501" / "r501-24-made.yaml"
FAILED = ROOT / "specs" / "examples" / "501" / "r501-24-failed.yaml"
RECORDS = Path(__file__).resolve().parent / "records" / "501"

# R501-24, made half: A (blind, 100) -200; B captured 25, C 15.
MADE_RESULT = {"deltas": {"A": -200, "B": -25, "C": -15},
               "scores": {"A": 301, "B": 476, "C": 486},
               "game_over": False, "winners": []}


def made_record() -> dict:
    return yaml.safe_load(MADE.read_text(encoding="utf-8"))


def write(tmp_path, name, rec) -> Path:
    p = tmp_path / name
    if isinstance(rec, str):
        p.write_text(rec, encoding="utf-8")
    elif name.endswith(".json"):
        p.write_text(json.dumps(rec, ensure_ascii=False), encoding="utf-8")
    else:
        p.write_text(yaml.safe_dump(rec, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return p


def result(data: dict) -> dict:
    return {k: data[k] for k in ("deltas", "scores", "game_over", "winners")}


def replay_json(talon_cli, path):
    rc, out, err = talon_cli("replay", path, "--json")
    assert rc == 0, err
    return json.loads(out)


def assert_one_line_error(rc, out, err, *needles):
    assert rc == 1
    assert "Traceback" not in out + err
    text = err.strip()
    assert text and "\n" not in text, text
    for n in needles:
        assert n in text, (n, text)


# ------------------------------------------------------------------ card spellings
SPELLINGS = [
    lambda c: c,                                                 # AS, 10S
    lambda c: c.lower(),                                         # as, 10s
    lambda c: c.replace("10", "T")[:-1] + "♠♥♦♣"["SHDC".index(c[-1])],   # T♠, A♥
    lambda c: (c.replace("10", "t")[:-1] + c[-1]).lower(),       # ts, kd
]


def respell(rec: dict) -> dict:
    rec = copy.deepcopy(rec)
    k = [0]

    def sp(card):
        k[0] += 1
        return SPELLINGS[k[0] % len(SPELLINGS)](card)
    rec["hands"] = {n: [sp(c) for c in h] for n, h in rec["hands"].items()}
    rec["talon"] = [sp(c) for c in rec["talon"]]
    acts = []
    for a in rec["actions"]:
        w = a.split()
        if w[1] in ("play", "give"):
            w[2] = sp(w[2])
        acts.append(" ".join(w))
    rec["actions"] = acts
    return rec


def test_card_spellings_all_accepted(g501):
    ten = g501.parse_card("10S")
    for s in ("10S", "10s", "TS", "ts", "T♠", "t♠", "10♠"):
        assert g501.parse_card(s) == ten, s
    assert g501.parse_card("a♥") == g501.parse_card("AH")
    assert g501.parse_card("Q♦") == g501.parse_card("qd")
    assert g501.parse_card("9♣") == g501.parse_card("9C")
    for bad in ("1S", "ZZ", "AX", "8S", ""):
        with pytest.raises(ValueError):
            g501.parse_card(bad)


def test_record_with_mixed_card_spellings_replays_the_same(tmp_path, talon_cli):
    rec = respell(made_record())
    cards = [c for h in rec["hands"].values() for c in h] + rec["talon"]
    assert any(c.startswith("T") for c in cards)                 # T for 10
    assert any(c.startswith("10") and c.islower() for c in cards)  # lowercase
    assert any(c[-1] in "♠♥♦♣" for c in cards)                   # suit symbols
    assert any(a.split()[2][-1] in "♠♥♦♣" for a in rec["actions"] if " play " in a)
    data = replay_json(talon_cli, write(tmp_path, "spelled.yaml", rec))
    assert result(data) == MADE_RESULT


def test_output_uses_10_and_letters(tmp_path):
    rep = replay_record(respell(made_record()))
    out = deal_record(rep.deals[0], rep.seats, "501")
    text = dump_yaml(out)
    assert "10S" in text and not re.search(r"\bT", text)
    assert not any(ch in text for ch in "♠♥♦♣")
    assert out["hands"] == made_record()["hands"]


# ------------------------------------------------------------------ YAML, JSON, JSON Lines
def test_yaml_record(talon_cli):
    assert result(replay_json(talon_cli, MADE)) == MADE_RESULT


def test_json_record(tmp_path, talon_cli):
    p = write(tmp_path, "made.json", made_record())
    assert p.read_text().lstrip().startswith("{")
    assert result(replay_json(talon_cli, p)) == MADE_RESULT


def test_json_lines_records(tmp_path):
    recs = [made_record(), yaml.safe_load(FAILED.read_text(encoding="utf-8"))]
    p = tmp_path / "two.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    got = read_record_file(str(p))
    assert got == recs
    assert result(replay_record(got[0]).to_json()) == MADE_RESULT
    assert replay_record(got[1]).to_json()["scores"] == {"A": 701, "B": 469, "C": 481}


def test_several_records_in_one_file_are_refused_by_replay(tmp_path, talon_cli):
    p = tmp_path / "two.jsonl"
    p.write_text(json.dumps(made_record()) + "\n" + json.dumps(made_record()) + "\n")
    rc, out, err = talon_cli("replay", p)
    assert_one_line_error(rc, out, err, "2 records")
    assert "--each" not in err or "--each" in talon_cli("replay", "--help")[1]   # no phantom option


def test_scores_are_optional(tmp_path, talon_cli):
    rec = made_record()
    del rec["scores"]
    assert result(replay_json(talon_cli, write(tmp_path, "noscores.yaml", rec))) == MADE_RESULT


def test_spec_by_path(tmp_path, talon_cli):
    rec = made_record()
    rec["spec"] = str(ROOT / "specs" / "501.talon")
    assert result(replay_json(talon_cli, write(tmp_path, "bypath.yaml", rec))) == MADE_RESULT


# ------------------------------------------------------------------ whole games
def test_game_record_scores_carry_and_dealer_rotates(talon_cli):
    data = replay_json(talon_cli, RECORDS / "game-3-seats.yaml")
    assert [d["dealer"] for d in data["deals"]] == ["C", "A", "B"]
    assert [d["deal_number"] for d in data["deals"]] == [1, 2, 3]
    assert [d["result"] for d in data["deals"]] == ["made", "annulled", "abandoned"]
    # scores carry: each deal starts where the previous one ended
    assert data["deals"][1]["scores_before"] == {"A": 301, "B": 476, "C": 486}
    assert data["deals"][2]["scores_before"] == {"A": 301, "B": 476, "C": 486}
    assert data["deals"][2]["deltas"] == {"A": -25, "B": -25, "C": 140}
    assert result(data) == {"deltas": {"A": -225, "B": -50, "C": 125},
                            "scores": {"A": 276, "B": 451, "C": 626},
                            "game_over": False, "winners": []}


def test_game_record_four_seats_dealer_sits_out(talon_cli):
    data = replay_json(talon_cli, RECORDS / "game-4-seats.yaml")
    assert [d["dealer"] for d in data["deals"]] == ["D", "A", "B"]
    assert data["deals"][0]["deltas"] == {"A": 66, "B": -37, "C": -123, "D": 0}
    assert data["deals"][2]["deltas"] == {"A": -25, "B": 0, "C": 66, "D": -25}
    assert result(data) == {"deltas": {"A": 41, "B": -37, "C": -57, "D": -25},
                            "scores": {"A": 542, "B": 464, "C": 444, "D": 476},
                            "game_over": False, "winners": []}


def test_game_record_wrong_dealer(tmp_path, talon_cli):
    rec = yaml.safe_load((RECORDS / "game-3-seats.yaml").read_text(encoding="utf-8"))
    rec["deals"][1]["dealer"] = "B"
    rc, out, err = talon_cli("replay", write(tmp_path, "g.yaml", rec))
    assert_one_line_error(rc, out, err, "deal 2", "dealer should be A")


def test_game_record_ends_when_a_score_reaches_zero(tmp_path, talon_cli):
    rec = yaml.safe_load((RECORDS / "game-3-seats.yaml").read_text(encoding="utf-8"))
    rec["scores"] = {"A": 200, "B": 501, "C": 501}          # A: 200 - 200 = 0 after deal 1
    rc, out, err = talon_cli("replay", write(tmp_path, "g.yaml", rec))
    assert_one_line_error(rc, out, err, "deal 2", "already ended")
    rec["deals"] = rec["deals"][:1]
    data = replay_json(talon_cli, write(tmp_path, "g1.yaml", rec))
    assert data["game_over"] is True and data["winners"] == ["A"]
    assert data["scores"] == {"A": 0, "B": 476, "C": 486}


def test_deal_number(tmp_path, talon_cli, g501):
    rec = made_record()
    rec["deal_number"] = 7
    data = replay_json(talon_cli, write(tmp_path, "n7.yaml", rec))
    assert data["deals"][0]["deal_number"] == 7
    assert result(data) == MADE_RESULT
    # writing: a deal other than the first says which it is
    d = g501.new_deal(3, 2, deal_number=7)
    d.set_cards(*_cards(g501, made_record()))
    assert deal_record(d, ["A", "B", "C"], "501")["deal_number"] == 7
    d1 = g501.new_deal(3, 2)
    d1.set_cards(*_cards(g501, made_record()))
    assert "deal_number" not in deal_record(d1, ["A", "B", "C"], "501")


def _cards(g, rec):
    idx = {"A": 0, "B": 1, "C": 2}
    return ({idx[n]: [g.parse_card(c) for c in h] for n, h in rec["hands"].items()},
            [g.parse_card(c) for c in rec["talon"]])


def test_write_then_read_round_trip(tmp_path, talon_cli):
    rep = replay_file(str(FAILED))
    rec = deal_record(rep.deals[0], rep.seats, "501")
    text = dump_yaml(rec)
    lines = text.splitlines()
    assert "  A: [10S, KS, KH, 9H, QD, 9D, 10C]" in lines        # a hand on one line
    assert "- A bid 80 blind" in lines and "- A play KS marriage" in lines
    p = write(tmp_path, "again.yaml", text)
    data = replay_json(talon_cli, p)
    assert data["scores"] == {"A": 701, "B": 469, "C": 481}


# ------------------------------------------------------------------ stopping early
def test_record_that_stops_early(talon_cli):
    data = replay_json(talon_cli, RECORDS / "in-progress.yaml")
    assert data["complete"] is False
    assert data["phase"] == "play" and data["turn"] == "C"     # C won the first trick
    assert "scores" not in data and "deltas" not in data
    assert "play AC" in data["legal"]
    rc, out, err = talon_cli("replay", RECORDS / "in-progress.yaml")
    assert rc == 0 and "C to act" in out


def test_record_that_stops_in_the_auction(tmp_path, talon_cli):
    rec = made_record()
    del rec["expect"]                   # an unfinished record's `expect:` cannot be checked (exit 1)
    rec["actions"] = rec["actions"][:1]
    data = replay_json(talon_cli, write(tmp_path, "a.yaml", rec))
    assert data["phase"] == "auction" and data["turn"] == "B"
    assert "pass" in data["legal"] and "bid 81" in data["legal"] and "bid 80" not in data["legal"]
    rec["actions"] = []
    data = replay_json(talon_cli, write(tmp_path, "b.yaml", rec))
    assert data["phase"] == "auction" and data["turn"] == "A"


# ------------------------------------------------------------------ illegal actions
def _illegal(rec, index, action):
    rec = copy.deepcopy(rec)
    rec["actions"][index - 1] = action
    return rec


@pytest.mark.parametrize("index, action, reason, legal", [
    # A leads KH: B holds 10H JH 9H and must follow hearts (R501-17)
    (9, "B play KS", "", {"B play 10H", "B play JH", "B play 9H"}),
    (2, "C pass", "B's turn", None),                       # out of turn
    (1, "A bid 60 blind", "66", None),                      # below the minimum (R501-7)
    (5, "A contract 79", "at least the bid", None),        # below the bid (R501-14)
    (6, "A give 9C A", "", None),                           # not to oneself
    (1, "D pass", "seat", None),                            # no such seat
    (4, "A trumps diamonds purple", "", None),
    (8, "A play QS marriage", "", None),                    # no KS in hand
])
def test_illegal_action_reported(tmp_path, talon_cli, index, action, reason, legal):
    p = write(tmp_path, "bad.yaml", _illegal(made_record(), index, action))
    rc, out, err = talon_cli("replay", p)
    assert rc == 1 and "Traceback" not in out + err
    assert f"action {index}" in err and action in err and "legal instead" in err
    assert reason in err
    rc, out, err = talon_cli("replay", p, "--json")
    assert rc == 1 and "Traceback" not in out + err
    data = json.loads(out)
    assert data["error"] == "illegal action"
    assert data["index"] == index and data["action"] == action and data["reason"]
    if legal is not None:
        assert set(data["legal"]) == legal
    else:
        assert data["legal"]


def test_illegal_action_in_a_game_record_names_its_deal(talon_cli):
    # docs/records.md: in a game record the index counts the actions of the deal that
    # holds it, and replay's message says which deal (`deal K: action N`)
    path = ROOT / "tests" / "records" / "hearts" / "illegal-give-wrong-direction.yaml"
    exp = read_record_file(str(path))[0]["expect"]
    k, n = exp["illegal_deal"], exp["illegal"]
    assert k > 1
    rc, out, err = talon_cli("replay", path)
    assert rc == 1 and "Traceback" not in out + err
    assert f"illegal-give-wrong-direction.yaml, deal {k}: action {n}: " in err
    rc, out, err = talon_cli("replay", path, "--json")
    data = json.loads(out)
    assert rc == 1 and data["error"] == "illegal action"
    assert data["deal"] == k and data["index"] == n
    # a one-deal record names no deal
    rc, out, err = talon_cli("replay", path.parent / "illegal-first-lead-not-2c.yaml", "--json")
    assert rc == 1 and "deal" not in json.loads(out)


def test_illegal_action_explains_follow_suit(tmp_path):
    with pytest.raises(IllegalAction) as e:
        replay_record(_illegal(made_record(), 9, "B play KS"))
    assert e.value.index == 9 and e.value.action == "B play KS"
    assert "suit led" in e.value.reason and "R501-17" in e.value.reason
    assert set(e.value.legal) == {"B play 10H", "B play JH", "B play 9H"}


def test_action_after_the_deal_is_over(tmp_path, talon_cli):
    rec = made_record()
    rec["actions"].append("A pass")
    rc, out, err = talon_cli("replay", write(tmp_path, "over.yaml", rec))
    assert rc == 1 and "action 32" in err and "over" in err and "Traceback" not in err


def test_talon_command_in_a_subprocess(tmp_path):
    talon = shutil.which("talon")
    cmd = [talon] if talon else [sys.executable, "-m", "talon_cards"]
    p = write(tmp_path, "bad.yaml", _illegal(made_record(), 9, "B play KS"))
    r = subprocess.run(cmd + ["replay", str(p)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 1
    assert "Traceback" not in r.stdout + r.stderr
    assert "action 9" in r.stderr and "B play KS" in r.stderr and "B play 9H" in r.stderr
    r = subprocess.run(cmd + ["replay", str(FAILED), "--json"], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0
    assert result(json.loads(r.stdout)) == {"deltas": {"A": 200, "B": -32, "C": -20},
                                            "scores": {"A": 701, "B": 469, "C": 481},
                                            "game_over": False, "winners": []}


# ------------------------------------------------------------------ malformed records
def _without(key):
    rec = made_record()
    del rec[key]
    return rec


def _hand(seat, cards):
    rec = made_record()
    rec["hands"][seat] = cards
    return rec


def _unknown_hand_seat():
    rec = made_record()
    rec["hands"]["D"] = rec["hands"].pop("C")
    return rec


def _dealer_hand():
    rec = _without("scores")                 # four seats; the dealer D is dealt nothing
    rec.update(seats=["A", "B", "C", "D"], dealer="D")
    rec["hands"]["D"] = ["9S"]
    return rec


MALFORMED = [
    ("no-hands", _without("hands"), "hands"),
    ("no-seats", _without("seats"), "seats"),
    ("no-dealer", _without("dealer"), "dealer"),
    ("no-spec", _without("spec"), "spec"),
    ("bad-card", _hand("A", ["AS", "10S", "QS", "9S", "KH", "QH", "ZZ"]), "ZZ"),
    ("dup-card", _hand("A", ["AS", "10S", "QS", "9S", "KH", "QH", "AS"]), "twice"),
    ("short-hand", _hand("A", ["AS", "10S", "QS", "9S", "KH", "QH"]), "6 cards"),
    ("unknown-seat", _unknown_hand_seat(), "D"),
    ("hand-not-list", _hand("A", "AS 10S QS 9S KH QH AD"), "list"),
    ("dealer-hand", _dealer_hand(), "D sits this deal out"),
    ("unknown-dealer", {**made_record(), "dealer": "Z"}, "Z"),
    ("bad-seats", {**made_record(), "seats": ["A", "B"]}, "seats"),
    ("bad-scores", {**made_record(), "scores": {"A": 1}}, "scores"),
    ("not-yaml", "spec: [501\nseats: {A\n", "malformed"),
    ("not-mapping", "- just\n- a list\n", "mapping"),
    ("empty", "", "empty"),
]


@pytest.mark.parametrize("name, rec, needle", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_record_one_line_error(tmp_path, talon_cli, name, rec, needle):
    p = write(tmp_path, name + ".yaml", rec)
    rc, out, err = talon_cli("replay", p)
    assert_one_line_error(rc, out, err, needle)
    assert err.count(str(p)) == 1                  # says where, once
    with pytest.raises(RecordError):
        replay_file(str(p))


def test_missing_record_file(tmp_path, talon_cli):
    rc, out, err = talon_cli("replay", tmp_path / "nope.yaml")
    assert_one_line_error(rc, out, err, "no such")


@pytest.mark.parametrize("word,suit", [("spades", 0), ("S", 0), ("♠", 0), ("Hearts", 1), ("heart", 1),
                                       ("d", 2), ("♣", 3), ("none", 4), ("no-trumps", 4)])
def test_trumps_spellings(word, suit):
    from talon_cards.spec import load
    g = load("501")
    d = g.new_deal(3, 2)
    assert d.parse_action(["trumps", word], {}) == g.codec.TRUMPS + suit


def test_trumps_of_no_suit_is_refused():
    from talon_cards.spec import load
    g = load("501")
    with pytest.raises(ValueError, match="is not a suit"):
        g.new_deal(3, 2).parse_action(["trumps", "stars"], {})


def test_R501_2_an_empty_hand_for_the_seat_sitting_out_is_accepted():
    from talon_cards.records import read_record_file, replay_record
    rec = read_record_file(str(Path(__file__).parent / "records" / "501" / "game-4-seats.yaml"))[0]
    plain = replay_record(copy.deepcopy(rec)).to_json()
    d0 = rec["deals"][0]
    d0["hands"][d0["dealer"]] = []
    assert replay_record(rec).to_json()["scores"] == plain["scores"]


def test_a_deal_in_progress_lists_what_is_legal_as_runs(talon_cli, tmp_path):
    """A record stopped in the auction: the text names whose turn it is and lists the
    legal actions with runs of bids (every legal bid, not a list cut short: 501's bids
    have no upper limit, so the run is the lowest bid and 'or more'), and the JSON keeps
    the plain list."""
    rec = made_record()
    rec["actions"] = rec["actions"][:1]
    rec.pop("expect", None)
    p = write(tmp_path, "cut.yaml", rec)
    rc, out, err = talon_cli("replay", p)
    assert rc == 0, err
    g_rec = replay_file(str(p))
    d = g_rec.deals[-1]
    want_low = min(g_rec.game.to_action(a).value for a in d.legal_actions()
                   if g_rec.game.to_action(a).value is not None)
    line = out.strip().splitlines()[-1]
    assert line.startswith("legal: pass, ") and f"bid {want_low} (or more)" in line, line
    assert f"bid {want_low + 1}" not in line
    assert len(line.split(", ")) < 10
    data = replay_json(talon_cli, p)
    assert "pass" in data["legal"] and data["turn"] == "B"


def test_expect_is_checked_under_the_records_own_spec_only(talon_cli, tmp_path):
    """`expect:` describes the deal under the record's own spec. Replayed under a
    variant (`--spec`, to see what a house rule changes) it is not checked, and the
    output says so; under its own spec a wrong `expect:` still fails."""
    rec = yaml.safe_load(FAILED.read_text(encoding="utf-8"))
    rec["expect"] = {"deltas": {"A": 200, "B": -32, "C": -20}}
    p = write(tmp_path, "failed.yaml", rec)
    rc, out, err = talon_cli("replay", p)
    assert rc == 0, err
    # 501-rounded rounds the defenders' 32 to 30: the base's expect would not hold there
    rc, out, err = talon_cli("replay", p, "--spec", "501-rounded")
    assert rc == 0, err
    assert "-30" in out
    assert "`expect:` is for its own spec (501); replayed under 501-rounded it was not checked" in err
    data = json.loads(talon_cli("replay", p, "--spec", "501-rounded", "--json")[1])
    assert data["deltas"]["B"] == -30 and "expectations_failed" not in data
    assert "not checked" in data["expectations_unchecked"]
    rec["expect"] = {"deltas": {"A": 200, "B": -30, "C": -20}}
    p = write(tmp_path, "wrong.yaml", rec)
    rc, out, err = talon_cli("replay", p)
    assert rc == 1 and "does not hold" in err


@pytest.mark.parametrize("action", [5, {"A": "bid 80"}, ["A", "bid", "80"]])
def test_an_action_that_is_not_a_string_still_lists_what_is_legal(tmp_path, talon_cli, action):
    # docs/records.md: an illegal action is reported with "what was legal instead"; an
    # action written as a number or a mapping is no exception
    rec = made_record()
    rec["actions"] = [action]
    rc, out, err = talon_cli("replay", write(tmp_path, "notext.yaml", rec), "--json")
    assert rc == 1 and "Traceback" not in out + err
    data = json.loads(out)
    assert data["index"] == 1 and "string" in data["reason"]
    assert "A pass" in data["legal"] and "A bid 66 (or more)" in data["legal"]
    rc, out, err = talon_cli("replay", write(tmp_path, "notext.yaml", rec))
    assert rc == 1 and "legal instead: A pass" in err and "(none)" not in err


def test_R501_7_bids_without_an_upper_limit_are_listed_as_such(tmp_path, talon_cli):
    # R501-7 [decision]: there is no upper limit to a bid, so "legal instead" after a
    # bid above every listed number still offers the next one and any higher, and a
    # deal in progress lists its bids the same way
    rec = made_record()
    rec.pop("expect", None)
    rec["actions"] = ["A look", "A bid 500", "B look", "B bid 400"]
    rc, out, err = talon_cli("replay", write(tmp_path, "high.yaml", rec))
    assert rc == 1 and "action 4" in err and "B bid 501 (or more)" in err
    rec["actions"] = ["A look", "A bid 100", "B look", "B bid 7000"]
    rc, out, err = talon_cli("replay", write(tmp_path, "higher.yaml", rec))
    assert rc == 0, err
    rec["actions"] = ["A look", "A bid 100", "B look"]
    rc, out, err = talon_cli("replay", write(tmp_path, "open.yaml", rec))
    assert rc == 0 and "legal: pass, bid 101 (or more)" in out


def test_a_record_names_a_spec_beside_it_by_name_as_extends_does(tmp_path, talon_cli):
    # `spec: my-rules` reads my-rules.talon beside the record, the way `extends my-rules`
    # reads it beside a variant (the message used to say there was no such file)
    (tmp_path / "my-rules.talon").write_text(
        'variant my-rules "501, abandoning costs 30"\nextends 501\n\n'
        "tables:\n  set values abandon-penalty to 30\n", encoding="utf-8")
    rec = made_record()
    del rec["expect"]
    rec["spec"] = "my-rules"
    rec["actions"] = ["A bid 80 blind", "B pass", "C pass", "A abandon"]
    data = replay_json(talon_cli, write(tmp_path, "abandon.yaml", rec))
    assert data["spec"] == "my-rules"
    assert data["deltas"] == {"A": 160, "B": -30, "C": -30}
    rec["spec"] = "501"                 # a bundled name comes first
    (tmp_path / "501.talon").write_text((tmp_path / "my-rules.talon").read_text(), encoding="utf-8")
    assert replay_json(talon_cli, write(tmp_path, "abandon.yaml", rec))["deltas"] == {"A": 160, "B": -25, "C": -25}
    rec["spec"] = "my-ruls"
    rc, out, err = talon_cli("replay", write(tmp_path, "abandon.yaml", rec))
    assert_one_line_error(rc, out, err, "no spec named `my-ruls`")


@pytest.mark.parametrize("record, first_line", [
    ("whist/rw-17-worked-example.yaml", "deal 1, dealer D: trumps hearts — played"),      # RW-5, RW-17
    ("oh-hell/roh-18-worked-example.yaml", "deal 8, dealer D: trumps hearts — played"),   # ROH-6, ROH-18
    ("hearts/rh-16-worked-example.yaml", "deal 11, dealer D: played"),
    ("501/r501-24-failed.yaml", "deal 1, dealer C: A 100, trumps diamonds, won blind (doubled) — failed"),
])
def test_replay_headline_of_a_deal_without_a_declarer(talon_cli, record, first_line):
    # a game with no auction used to print an empty headline: `deal 1, dealer D:  — played`
    rc, out, err = talon_cli("replay", ROOT / "specs" / "examples" / record)
    assert rc == 0, err
    assert out.splitlines()[0] == first_line
