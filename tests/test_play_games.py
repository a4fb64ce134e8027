"""`talon play` for every bundled game and variant: Whist, Oh Hell, Hearts, Sixty-six and
Tysyacha as well as 501 and Solo Whist.

Each session is driven through `interpreter.cli.main` with scripted standard input, as
in tests/test_play.py; the record it writes is replayed and must give the scores the
screen printed. The screens are checked for what each game must show (partners, the
turned trump, bids against tricks, the pass, the stock and its draws, the barrel and the
bolts) and for what the person's seat must not see."""
from __future__ import annotations

import io
import json
import re
import sys

import pytest
import yaml

from talon_cards.cli import main
from talon_cards.records import read_record_file, replay_file
from talon_cards.spec import bundled_names, load
from talon_cards.terminal import build_menu, render_menu

GAMES = ["whist", "oh-hell", "hearts", "sixty-six", "tysyacha"]
# "1" picks the first choice; where numbers typed are amounts (Oh Hell's bids of 0, 1 …
# tricks) a refused "1" is followed by "0", which a play menu refuses in turn.
ONE_ZERO = "1\n0\n" * 1500


def play(monkeypatch, capsys, args, stdin_text):
    """Run `talon play ARGS` with STDIN_TEXT as input; (exit status, screen)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin_text))
    rc = main(["play", *args])
    cap = capsys.readouterr()
    return rc, cap.out + cap.err


def score_line(text: str, label: str = "Scores:") -> dict:
    lines = [ln for ln in text.splitlines() if ln.startswith(label)]
    assert lines, f"no `{label}` line on the screen"
    return {n: int(v) for n, v in re.findall(r"(\w+)(?: \(you\))? (-?\d+)", lines[-1][len(label):])}


def record(path) -> dict:
    recs = read_record_file(str(path))
    assert len(recs) == 1
    return recs[0]


def replays_to_screen(path, out: str, label: str = "Scores:") -> dict:
    """The record replays (every action legal) to the scores the screen printed last."""
    rep = replay_file(str(path)).to_json()
    assert rep["complete"], rep
    assert rep["scores"] == score_line(out, label)
    return rep


def prompts_before(out: str, pattern: str) -> int:
    """How many `A> ` answers were given before the first menu line matching pattern."""
    m = re.search(pattern, out, re.M)
    assert m, f"`{pattern}` never shown"
    return out[:m.start()].count("\nA> ")


# ------------------------------------------------------------------ every spec
@pytest.mark.parametrize("spec", bundled_names())
def test_every_bundled_spec_plays_a_deal_whose_record_replays(monkeypatch, capsys, tmp_path, spec):
    rec = tmp_path / "game.yaml"
    rc, out = play(monkeypatch, capsys, [spec, "--seed", "11", "--deals", "1", "--record", str(rec)], ONE_ZERO)
    assert rc == 0, out[-2000:]
    assert "Traceback" not in out and "Stopping after 1 deal" in out
    rep = replays_to_screen(rec, out)
    assert len(rep["deals"]) == 1
    data = record(rec)
    g = load(spec)
    deal = data["deals"][0]
    assert ("stock" in deal) == g.stock
    assert ("exposed" in deal) == bool(g.face_up)
    # `talon replay --json` agrees with the screen.
    assert main(["replay", str(rec), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["scores"] == score_line(out)


@pytest.mark.parametrize("spec", GAMES)
def test_end_of_input_mid_deal_and_resume_finish_the_deal(monkeypatch, capsys, tmp_path, spec):
    rec = tmp_path / "g.yaml"
    rc, out = play(monkeypatch, capsys, [spec, "--seed", "4", "--record", str(rec)], "1\n")
    assert rc == 0 and "End of input: the game is saved" in out
    before = record(rec)["deals"][0]["actions"]
    assert not replay_file(str(rec)).complete
    rc, out = play(monkeypatch, capsys, ["--resume", str(rec), "--deals", "1", "--seed", "4"], ONE_ZERO)
    assert rc == 0, out[-2000:]
    assert "Resuming" in out
    after = record(rec)["deals"][0]["actions"]
    assert after[:len(before)] == before and len(after) > len(before)
    replays_to_screen(rec, out)


# ------------------------------------------------------------------ Whist
def test_whist_shows_partners_their_tricks_and_the_turned_trump(monkeypatch, capsys, tmp_path):
    rec = tmp_path / "g.yaml"
    rc, out = play(monkeypatch, capsys, ["whist", "--seed", "1", "--deals", "1", "--record", str(rec)], ONE_ZERO)
    assert rc == 0
    deal = record(rec)["deals"][0]
    dealer, up = deal["dealer"], deal["exposed"]
    assert up in deal["hands"][dealer]           # the turned card is the dealer's own
    suit = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[up[-1]]
    assert "Partners: you (A) and C, against B and D" in out
    assert f"{dealer}'s last card is dealt face up: {up} — trumps are {suit}. It is part of {dealer}'s hand" in out
    assert re.search(rf"^Trumps: {suit} — the turned-up {up} is {dealer}'s own card", out, re.M)
    # Both partners' tricks, side by side, agree with the tricks shown.
    lines = re.findall(r"^Tricks won: you \(A\) and C (\d+), B and D (\d+)   \(.*\)$", out, re.M)
    assert lines and lines[0] == ("0", "0")
    rep = replays_to_screen(rec, out)
    tricks = rep["deals"][0]["tricks"]
    assert re.search(rf"Deal 1 over: trumps {suit}; A and C {tricks['A'] + tricks['C']} tricks, "
                     rf"B and D {tricks['B'] + tricks['D']} tricks", out)
    assert rep["scores"]["A"] == rep["scores"]["C"] and rep["scores"]["B"] == rep["scores"]["D"]


def test_whist_dealer_sees_the_turned_card_in_its_own_hand(monkeypatch, capsys, tmp_path):
    for seed in range(1, 30):
        rec = tmp_path / f"g{seed}.yaml"
        rc, out = play(monkeypatch, capsys, ["whist", "--seed", str(seed), "--deals", "1", "--record", str(rec)],
                       "quit\n")
        if record(rec)["deals"][0]["dealer"] == "A":
            break
    else:
        pytest.skip("no seed where A deals")
    up = record(rec)["deals"][0]["exposed"]
    assert f"A's last card is dealt face up: {up}" in out and "It is part of your hand" in out
    hand = next(ln for ln in out.splitlines() if ln.startswith("Your hand:"))
    rank, sym = up[:-1], {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[up[-1]]
    assert re.search(rf"{sym} [^♠♥♦♣]*\b{rank}\b", hand)


# ------------------------------------------------------------------ Oh Hell
def _oh_hell_start(tmp_path, bids: list, dealer="A"):
    """A 3-seat Oh Hell record where A deals and B, C have bid: A is to bid."""
    import random
    from talon_cards.records import deal_record
    g = load("oh-hell")
    d = g.new_deal(3, "ABC".index(dealer))
    d.deal_random(random.Random(5))
    rec = deal_record(d, list("ABC"))
    rec["actions"] = [f"{s} bid {b}" for s, b in zip("BC", bids)]
    path = tmp_path / "start.yaml"
    path.write_text(yaml.safe_dump({"spec": "oh-hell", "seats": list("ABC"), "deals": [rec]}))
    return path, d.hand_size


def test_oh_hell_the_dealers_forbidden_bid_is_not_offered_and_is_refused(monkeypatch, capsys, tmp_path):
    path, n = _oh_hell_start(tmp_path, [3, 4])
    forbidden = n - 7
    rc, out = play(monkeypatch, capsys, ["--resume", str(path), "--deals", "1", "--seed", "1"],
                   f"{forbidden}\nbid {forbidden}\n2\n" + ONE_ZERO)
    assert rc == 0
    menu = next(ln for ln in out.splitlines() if ln.startswith("  bid 0"))
    assert menu == f"  bid 0{'…'}{forbidden - 1}, {forbidden + 1}{'…'}{n}"
    assert f"(`bid {forbidden}` is not allowed: " in out and "rule `hook`" in out
    assert out.count(f"`bid {forbidden}` is not allowed: a bid of {forbidden} may not be made now") >= 2
    assert "Bids: B 3, C 4 — 7 bid for 10 tricks" in out
    actions = record(path)["deals"][0]["actions"]
    assert actions[2] == "A bid 2"                     # typed as a number: the bid, not choice 2
    assert "The bidding is over. Bids: B 3, C 4, A 2 — 9 bid for 10 tricks" in out
    assert re.search(r"^Tricks won \(bid\): B \d+ \(3\)  C \d+ \(4\)  A \d+ \(2\)$", out, re.M)
    rep = replays_to_screen(path, out)
    assert re.search(r"seat\s+bid\s+tricks\s+change\s+score", out)
    assert rep["deals"][0]["bids"] == {"B": 3, "C": 4, "A": 2}


def test_oh_hell_whole_game_with_shrinking_hands(monkeypatch, capsys, tmp_path):
    rec = tmp_path / "g.yaml"
    rc, out = play(monkeypatch, capsys, ["oh-hell", "--seed", "3", "--record", str(rec)], ONE_ZERO)
    assert rc == 0
    sizes = [int(n) for n in re.findall(r"^═══ Deal \d+ — dealer \w — (\d+) cards? each ═══$",
                                        out, re.M)]
    assert sizes == list(range(10, 0, -1))             # 4 seats by default: 10 cards down to 1
    assert out.count("The top card of the stock is turned face up:") == 10
    rep = replays_to_screen(rec, out, "Final scores:")
    assert rep["game_over"] and len(rep["deals"]) == 10
    assert re.search(r"^Winners?: " + ", ".join(rep["winners"]), out, re.M)


def test_oh_hell_deals_stops_and_resume_continues_with_the_next_hand_size(monkeypatch, capsys, tmp_path):
    rec = tmp_path / "g.yaml"
    rc, out = play(monkeypatch, capsys, ["oh-hell", "--seats", "3", "--seed", "8", "--deals", "2",
                                         "--record", str(rec)], ONE_ZERO)
    assert rc == 0 and "Stopping after 2 deals" in out
    rc, out = play(monkeypatch, capsys, ["--resume", str(rec), "--deals", "1", "--seed", "8"], ONE_ZERO)
    assert rc == 0
    assert re.search(r"═══ Deal 3 — dealer \w — 8 cards each ═══", out)
    rep = replays_to_screen(rec, out)
    assert len(rep["deals"]) == 3


def test_oh_hell_menu_folds_bids_and_numbers_are_amounts():
    import random
    g = load("oh-hell")
    d = g.new_deal(4, 3)
    d.deal_random(random.Random(2))
    menu = build_menu(d, d.turn, d.legal_actions(), list("ABCD"))
    assert [c.label for c in menu] == ["bid 0…10"] and menu.amounts
    assert render_menu(menu) == ["  bid 0…10", "  (type the number: `1` is `bid 1`)"]


# ------------------------------------------------------------------ Hearts
def test_hearts_pass_three_cards_then_receive_then_lead_the_2c(monkeypatch, capsys, tmp_path):
    rec = tmp_path / "g.yaml"
    play(monkeypatch, capsys, ["hearts", "--seed", "1", "--record", str(rec)], "quit\n")
    mine = record(rec)["deals"][0]["hands"]["A"]
    three = mine[-3:]
    rec2 = tmp_path / "g2.yaml"
    rc, out = play(monkeypatch, capsys, ["hearts", "--seed", "1", "--deals", "1", "--record", str(rec2)],
                   " ".join(three).lower() + "\n" + ONE_ZERO)
    assert rc == 0
    deal = record(rec2)["deals"][0]
    actions = deal["actions"]
    assert [a for a in actions if a.startswith("A give")] == [f"A give {c} B" for c in three]
    assert "Every seat passes 3 cards face down to the left: you pass to B, D passes to you." in out
    assert "Pass 3 cards face down to B (to the left)" in out
    assert re.search(r"^  pass to B: 1\) \w+   2\) ", out, re.M)           # the cards, one line
    assert "(typed ahead)" in out
    # The cards D passes to A are named only once the passing is over.
    got = [a.split()[2] for a in actions if a.startswith("D give")]
    arrive = out.index("The passed cards arrive: you receive ")
    order = load("hearts").card_by_name
    got_text = " ".join(sorted(got, key=order.get))
    assert out[arrive:].splitlines()[0] == f"The passed cards arrive: you receive {got_text} from D."
    for c in got:
        if c not in deal["hands"]["A"]:
            assert not re.search(rf"(?<![0-9A-Z]){c}(?![0-9A-Z])", out[:arrive]), c
    assert "D passes 3 cards face down to you" in out[:arrive]
    # The 2C leads the first trick.
    first_play = next(a for a in actions if " play " in a)
    assert first_play.endswith("play 2C")
    holder = first_play.split()[0]
    assert (f"{'You hold' if holder == 'A' else holder + ' holds'} the 2C and lead"
            f"{'' if holder == 'A' else 's'} it.") in out
    # Penalty points: taken so far during the play, and in the result.
    assert re.search(r"^Points so far: ", out, re.M)
    rep = replays_to_screen(rec2, out)
    pts = rep["deals"][0]["points"]
    for seat, p in pts.items():
        assert re.search(rf"^  {seat}(?: \(you\))?\s+\d+\s+{p}\s+{p}\s+", out, re.M)


def test_hearts_a_pass_can_be_resumed_half_made(monkeypatch, capsys, tmp_path):
    rec = tmp_path / "g.yaml"
    play(monkeypatch, capsys, ["hearts", "--seed", "1", "--record", str(rec)], "1\n")
    first = [a for a in record(rec)["deals"][0]["actions"] if a.startswith("A ")]
    assert len(first) == 1
    rc, out = play(monkeypatch, capsys, ["--resume", str(rec), "--deals", "1", "--seed", "1"], ONE_ZERO)
    assert rc == 0
    assert f"passed so far: {first[0].split()[2]}, 2 more" in out
    so_far = out[out.index("So far in this deal:"):out.index("── Deal 1, passing")]
    assert "D passes a card face down to you" in so_far
    assert "D give" not in so_far
    replays_to_screen(rec, out)


def test_hearts_fourth_deal_passes_nothing(monkeypatch, capsys, tmp_path):
    import random
    from talon_cards.records import deal_record
    g = load("hearts")
    d = g.new_deal(4, 0, deal_number=4)
    d.deal_random(random.Random(3))
    rec = deal_record(d, list("ABCD"))
    rec["actions"] = []
    path = tmp_path / "start.yaml"
    path.write_text(yaml.safe_dump({"spec": "hearts", "seats": list("ABCD"), "deal_number": 4,
                                    "scores": {"A": 10, "B": 20, "C": 30, "D": 40}, "deals": [rec]}))
    rc, out = play(monkeypatch, capsys, ["--resume", str(path), "--deals", "1", "--seed", "3"], ONE_ZERO)
    assert rc == 0
    assert "No cards are passed this deal." in out and "passing — your turn" not in out
    assert record(path)["deal_number"] == 4            # kept: the direction depends on it
    replays_to_screen(path, out)


def test_hearts_a_first_lead_other_than_the_2c_is_refused_with_the_rule(monkeypatch, capsys, tmp_path):
    rec = tmp_path / "g.yaml"
    # Seed 1: after passing its first three cards A holds the 2C and KD.
    rc, out = play(monkeypatch, capsys, ["hearts", "--seed", "1", "--deals", "1", "--record", str(rec)],
                   "1\n1\n1\nKD\n" + ONE_ZERO)
    assert rc == 0
    assert "You hold the 2C and lead it." in out
    assert "`play KD` is not allowed: the first trick must be led with 2C (rule `first-lead`, RH-7)" in out
    assert "A play 2C" in record(rec)["deals"][0]["actions"]


# ------------------------------------------------------------------ Sixty-six
def test_sixty_six_shows_the_stock_the_trump_card_and_the_draws(monkeypatch, capsys, tmp_path):
    rec = tmp_path / "g.yaml"
    rc, out = play(monkeypatch, capsys, ["sixty-six", "--seed", "1", "--deals", "1", "--record", str(rec)],
                   ONE_ZERO)
    assert rc == 0
    deal = record(rec)["deals"][0]
    stock, up = deal["stock"], deal["exposed"]
    assert len(deal["hands"]) == 2 and stock[-1] == up
    suit = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[up[-1]]
    assert f"The stock has 12 cards; under it, face up: {up} — trumps are {suit}" in out
    assert f"Trumps: {suit} — face up under the stock: {up}" in out
    assert "Stock: 12 cards" in out
    # Each draw: mine named, the other's hidden, the face-up card named by whoever takes it.
    draws = re.findall(r"^  (.*) \(stock: (\d+) left\)\.$|^  (.*)\. The stock is exhausted", out, re.M)
    assert draws
    k = 0
    for line, left, last in draws:
        text = line or last
        for part in text.split("; "):
            card = stock[k]
            k += 1
            if part.lower().startswith("you draw"):
                assert part.lower() == f"you draw {card.lower()}"
            elif card == up:
                assert part == f"B takes the face-up {up}"
            else:
                assert part == "B draws a card"
    rep = replays_to_screen(rec, out)
    if "The deal ends at once" in out:
        assert "rule `sixty-six`" in out and "ended at once" in out
        assert max(rep["deals"][0]["points"].values()) >= 66


def test_sixty_six_close_is_offered_before_leading_and_stops_the_draws(monkeypatch, capsys, tmp_path):
    rec = tmp_path / "g.yaml"
    rc, out = play(monkeypatch, capsys, ["sixty-six", "--seed", "1", "--deals", "1", "--record", str(rec)],
                   ONE_ZERO)
    k = prompts_before(out, r"^  .*\d+\) close \(the stock")
    rc, out = play(monkeypatch, capsys, ["sixty-six", "--seed", "1", "--deals", "1", "--record", str(rec)],
                   "1\n" * k + "close\n" + ONE_ZERO)
    assert rc == 0
    actions = record(rec)["deals"][0]["actions"]
    assert "A close" in actions
    assert "You close the stock: nobody draws any more" in out
    after = out[out.index("You close the stock"):]
    assert "Stock: closed by you" in after and "draws a card" not in after and "you draw" not in after.lower()
    assert "closed the stock" in out[out.index("Deal 1 over"):]
    replays_to_screen(rec, out)


def test_sixty_six_exchange_of_the_trump_nine(monkeypatch, capsys, tmp_path):
    rec = tmp_path / "g.yaml"
    rc, out = play(monkeypatch, capsys, ["sixty-six", "--seed", "1", "--deals", "1", "--record", str(rec)],
                   ONE_ZERO)
    m = re.search(r"\d+\) (exchange (\w+)) \(for the face-up (\w+)\)", out)
    assert m
    k = prompts_before(out, re.escape(m.group(0)))
    rc, out = play(monkeypatch, capsys, ["sixty-six", "--seed", "1", "--deals", "1", "--record", str(rec)],
                   "1\n" * k + f"{m.group(1)}\n" + ONE_ZERO)
    assert rc == 0
    assert f"A {m.group(1)}" in record(rec)["deals"][0]["actions"]
    assert f"You take the face-up {m.group(3)} and leave {m.group(2)} face up under the stock" in out
    replays_to_screen(rec, out)


def test_sixty_six_refuses_close_when_not_leading(monkeypatch, capsys, tmp_path):
    rec = tmp_path / "g.yaml"
    rc, out = play(monkeypatch, capsys, ["sixty-six", "--seed", "1", "--deals", "1", "--record", str(rec)],
                   "close\n" + ONE_ZERO)
    assert rc == 0
    assert "`close` is not allowed: only the leader may close the stock, before leading (rule `close`" in out


# ------------------------------------------------------------------ Tysyacha
def _tysyacha_start(tmp_path, actions: list):
    """A Tysyacha record dealt by C (so A opens) where neither A nor C holds a marriage:
    nobody can bid above 120, whatever the random players do."""
    import random
    from talon_cards.records import deal_record
    g = load("tysyacha")
    for seed in range(200):
        d = g.new_deal(3, 2)
        d.deal_random(random.Random(seed))
        if not any(d.holds_meld(s, 0) for s in (0, 2)):
            break
    rec = deal_record(d, list("ABC"))
    rec["actions"] = actions
    path = tmp_path / "start.yaml"
    path.write_text(yaml.safe_dump({"spec": "tysyacha", "seats": list("ABC"), "deals": [rec]}))
    return path


def test_tysyacha_the_opener_must_bid_100(monkeypatch, capsys, tmp_path):
    path = _tysyacha_start(tmp_path, [])
    rc, out = play(monkeypatch, capsys, ["--resume", str(path), "--seed", "1"], "pass\n1\nquit\n")
    assert rc == 0
    assert "You open the auction and may not pass (rule `opening`)." in out
    assert re.search(r"^  1\) bid 100$", out, re.M)
    assert "`pass` is not allowed: the opener may not pass at its first turn (rule `opening`" in out
    assert record(path)["deals"][0]["actions"][0] == "A bid 100"


def test_tysyacha_steps_of_5_gifts_of_two_cards_and_the_contract(monkeypatch, capsys, tmp_path):
    path = _tysyacha_start(tmp_path, ["A bid 100", "B pass", "C bid 105"])
    rc, out = play(monkeypatch, capsys, ["--resume", str(path), "--deals", "1", "--seed", "1"],
                   "bid 112\n120\n2\n2\ncontract 123\ncontract 125\n" + ONE_ZERO)
    assert rc == 0
    assert "`bid 112` is not allowed: bids go up in steps of 5" in out
    assert "The auction is over. Contract: A 120 — you declare" in out
    assert "Give 1 card face down to each defender: B 1 more, C 1 more" in out
    assert re.search(r"^  1\) abandon\n  give to B: 2\) \w+ ", out, re.M)
    assert re.search(r"^  give to C: \d+\) ", out, re.M)
    assert "Give 1 card face down to each defender: B done, C 1 more" in out
    assert "Name the contract: at least 120, in steps of 5." in out
    assert "1) contract 120 (or more, in steps of 5)" in out
    assert "`contract 123` is not allowed: the contract goes up in steps of 5 from the bid" in out
    actions = record(path)["deals"][0]["actions"]
    assert actions[3:5] == ["A bid 120", "C pass"] and "A contract 125" in actions
    gives = [a for a in actions if a.startswith("A give")]
    assert len(gives) == 2 and [a.split()[3] for a in gives] == ["B", "C"]
    rep = replays_to_screen(path, out)
    assert re.search(r"seat\s+tricks\s+card points\s+melds\s+deal points\s+change\s+score\s+barrel\s+bolts", out)
    assert rep["deals"][0]["contract"] == 125


def test_tysyacha_a_marriage_makes_trumps_from_the_next_trick(monkeypatch, capsys, tmp_path):
    for seed in range(1, 40):
        rec = tmp_path / f"g{seed}.yaml"
        rc, out = play(monkeypatch, capsys, ["tysyacha", "--seed", str(seed), "--deals", "1", "--record", str(rec)],
                       ONE_ZERO)
        assert rc == 0
        m = re.search(r"^  (\w) announces the marriage of (\w+), worth (\d+); \2 will be trumps from the next "
                      r"trick$", out, re.M)
        if m:
            break
    else:
        pytest.skip("no seed where a marriage is announced")
    after = out[m.end():]
    if re.search(r"^  Trick \d+:", after, re.M) and "Deal 1 over" not in after.split("Trick", 1)[0]:
        assert f"From now on {m.group(2)} are trumps." in after
        assert re.search(rf"Contract: \w \d+, trumps {m.group(2)}", after)
    replays_to_screen(rec, out)


def test_tysyacha_barrel_and_bolts_are_shown_with_the_scores(monkeypatch, capsys, tmp_path):
    rec = tmp_path / "g.yaml"
    rc, out = play(monkeypatch, capsys, ["tysyacha", "--seed", "1", "--deals", "3", "--record", str(rec)],
                   ONE_ZERO)
    assert rc == 0
    lines = out.splitlines()
    for i, ln in enumerate(lines):
        if ln.startswith("Scores:"):
            assert re.fullmatch(r"  Barrel: A \(you\) \d+  B \d+  C \d+   Bolts: A \(you\) \d+  B \d+  C \d+",
                                lines[i + 1]), lines[i + 1]
    rep = replay_file(str(rec))
    last = rep.match.counters
    shown = re.findall(r"Bolts: A \(you\) (\d+)  B (\d+)  C (\d+)", out)[-1]
    assert [int(x) for x in shown] == last["bolts"]
    replays_to_screen(rec, out)


def test_tysyacha_bids_with_a_marriage_fold_in_steps_of_five():
    import random
    g = load("tysyacha")
    for seed in range(200):
        d = g.new_deal(3, 0)
        d.deal_random(random.Random(seed))
        d.apply_action(g.codec.number_bid(100))
        menu = build_menu(d, d.turn, d.legal_actions(), list("ABC"))
        if any(c.is_range for c in menu):
            break
    else:
        pytest.skip("no deal where the second seat holds a marriage")
    assert [c.label for c in menu] == ["pass", "bid 105 (or more, in steps of 5)"]
    assert render_menu(menu)[-1] == "  (for a higher bid, type the number: `125`)"


# ------------------------------------------------------------------ typing
def test_a_line_of_refused_input_ends_a_scripted_session(monkeypatch, capsys, tmp_path):
    rec = tmp_path / "g.yaml"
    rc, out = play(monkeypatch, capsys, ["hearts", "--seed", "1", "--record", str(rec)], "xyzzy\n" * 200)
    assert rc == 2
    assert "100 lines in a row gave no legal action: the game is saved" in out
    assert not replay_file(str(rec)).complete
