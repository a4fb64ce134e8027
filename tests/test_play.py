"""`talon play`: a person plays one seat in the terminal against random players.

The session is driven through `interpreter.cli.main` with scripted standard input;
the record it writes is checked by replaying it, and its screen is checked for what
the person's seat must not see."""
from __future__ import annotations

import io
import os
import re
import select
import sys
import time

import pytest
import yaml

from talon_cards.cli import main
from talon_cards.records import read_record_file, replay_file
from talon_cards.spec import load
from talon_cards.terminal import build_menu, render_menu

SYMBOL_SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def play(monkeypatch, capsys, args, stdin_text):
    """Run `talon play ARGS` with STDIN_TEXT as input; (exit status, screen)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin_text))
    rc = main(["play", *args])
    cap = capsys.readouterr()
    return rc, cap.out + cap.err


def score_line(text: str, label: str) -> dict:
    """The last `label` line of the screen, e.g. `Scores: A (you) 433   B 724` -> dict."""
    lines = [ln for ln in text.splitlines() if ln.startswith(label)]
    assert lines, f"no `{label}` line on the screen"
    return {n: int(v) for n, v in re.findall(r"(\w+)(?: \(you\))? (-?\d+)", lines[-1][len(label):])}


def hand_cards(line: str) -> set:
    """`Your hand: ♠ A 10 K   ♥ —` -> {"AS", "10S", "KS"}."""
    out = set()
    for sym, ranks in re.findall(r"([♠♥♦♣]) ([^♠♥♦♣]*)", line):
        for r in ranks.split():
            if r != "—":
                out.add(r + SYMBOL_SUIT[sym])
    return out


def first_record(path):
    recs = read_record_file(str(path))
    assert len(recs) == 1
    return recs[0]


# ------------------------------------------------------------------ whole deals
@pytest.mark.parametrize("spec,seats", [("501", 3), ("501", 4), ("solo-whist", 4)])
def test_play_a_deal_by_picking_the_first_choice_replays_to_the_printed_scores(
        monkeypatch, capsys, tmp_path, spec, seats):
    rec = tmp_path / "game.yaml"
    rc, out = play(monkeypatch, capsys, [spec, "--seats", str(seats), "--seed", "7", "--deals", "1",
                                         "--record", str(rec)], "1\n" * 400)
    assert rc == 0, out
    assert "Stopping after 1 deal" in out
    rep = replay_file(str(rec)).to_json()
    assert rep["complete"] and len(rep["deals"]) == 1
    assert score_line(out, "Scores:") == rep["scores"]
    # The record has the layout of docs/records.md: a game record with its deals.
    data = first_record(rec)
    assert data["spec"] == spec and data["seats"] == list("ABCD"[:seats])
    assert set(data["deals"][0]) >= {"dealer", "hands", "actions"}
    assert ("talon" in data["deals"][0]) == (spec == "501")
    assert ("exposed" in data["deals"][0]) == (spec == "solo-whist")
    # The replayed scores agree with `talon replay --json` run as a command.
    assert main(["replay", str(rec), "--json"]) == 0
    import json
    assert json.loads(capsys.readouterr().out)["scores"] == score_line(out, "Scores:")
    assert not [p for p in os.listdir(tmp_path) if p != "game.yaml"], "a temporary file was left behind"


def test_play_solo_whist_to_the_end_of_the_game_names_the_winners(monkeypatch, capsys, tmp_path):
    rec = tmp_path / "game.yaml"
    rc, out = play(monkeypatch, capsys, ["solo-whist", "--seed", "2", "--record", str(rec)], "1\n" * 2000)
    assert rc == 0, out
    rep = replay_file(str(rec)).to_json()
    assert rep["game_over"] and len(rep["deals"]) == load("solo-whist").values.get("session-deals", 8)
    assert score_line(out, "Final scores:") == rep["scores"]
    winners = re.search(r"^Winners?: ([A-D, ]+)", out, re.M).group(1).replace(" ", "").split(",")
    assert winners == rep["winners"]
    # Every deal's result was shown as it finished.
    assert len(re.findall(r"^Deal \d+ over: ", out, re.M)) == len(rep["deals"])


def test_same_seed_and_same_input_give_the_same_game(monkeypatch, capsys, tmp_path):
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    rc1, out1 = play(monkeypatch, capsys, ["501", "--seed", "9", "--deals", "2", "--record", str(a)], "1\n" * 500)
    rc2, out2 = play(monkeypatch, capsys, ["501", "--seed", "9", "--deals", "2", "--record", str(b)], "1\n" * 500)
    assert rc1 == rc2 == 0
    assert out1.replace(str(a), "X") == out2.replace(str(b), "X")
    assert first_record(a) == first_record(b)


def test_json_record(monkeypatch, capsys, tmp_path):
    rec = tmp_path / "game.json"
    rc, out = play(monkeypatch, capsys, ["501", "--seed", "4", "--deals", "1", "--record", str(rec)], "1\n" * 400)
    assert rc == 0
    import json
    data = json.loads(rec.read_text())
    assert data["deals"] and replay_file(str(rec)).to_json()["scores"] == score_line(out, "Scores:")


# ------------------------------------------------------------------ what the seat sees
def _check_hidden(out: str, data: dict, me: str, spec: str):
    """No card of another seat's hand is named on the screen before it is played, and
    every hand shown as `Your hand` holds only the person's own cards."""
    g = load(spec)
    out = out.replace("`play KS`", "`play CARD`")     # the help's example is not a card seen
    deal = data["deals"][0]
    actions = deal["actions"]
    mine = set(deal["hands"].get(me, []))
    public = set(deal.get("talon") or [])
    if deal.get("exposed"):
        public.add(deal["exposed"])
    for act in actions:
        w = act.split()
        if w[1] == "give" and w[3] == me:
            mine.add(w[2])            # given to me face down: I see it
    declarer_me = any(a.split()[0] == me and a.split()[1] in ("trumps", "give", "contract") for a in actions)
    if declarer_me:
        mine |= public
    for seat, cards in deal["hands"].items():
        if seat == me:
            continue
        for c in cards:
            if c in public or c in mine:
                continue
            p = re.search(rf"\b[A-H] play {re.escape(c)}(?![0-9A-Z])", out)   # it may have been given
            played = p.start() if p else -1
            m = re.search(rf"(?<![0-9A-Z]){re.escape(c)}(?![0-9A-Z])", out)
            if m is None:
                continue
            assert played >= 0 and m.start() >= played, (
                f"{seat}'s {c} is shown to {me} before it is played:\n{out[max(0, m.start() - 300):m.start() + 50]}")
    for line in out.splitlines():
        if line.startswith("Your hand:") and "face down" not in line:
            shown = hand_cards(line)
            assert shown <= mine, f"`{line}` shows cards that are not {me}'s: {shown - mine}"
        assert not line.startswith("Open hand of") or deal_is_open(data, g)


def deal_is_open(data, g) -> bool:
    names = [e.name for e in g.ladder if e.columns.get("open")]
    return any(a.split()[1] == "bid" and a.split()[2] in names for a in data["deals"][0]["actions"])


@pytest.mark.parametrize("spec,seats,seed,me", [
    ("501", 3, 1, "A"), ("501", 3, 2, "B"), ("501", 3, 3, "C"), ("501", 4, 5, "A"), ("501", 4, 6, "D"),
    ("solo-whist", 4, 1, "A"), ("solo-whist", 4, 8, "C"), ("solo-whist", 4, 13, "D")])
def test_screen_never_shows_another_seats_hand(monkeypatch, capsys, tmp_path, spec, seats, seed, me):
    rec = tmp_path / "g.yaml"
    rc, out = play(monkeypatch, capsys, [spec, "--seats", str(seats), "--seat", me, "--seed", str(seed),
                                         "--deals", "1", "--record", str(rec)], "1\n" * 400)
    assert rc == 0
    _check_hidden(out, first_record(rec), me, spec)


def test_R501_10_a_blind_seat_sees_no_cards_until_it_looks(monkeypatch, capsys, tmp_path):
    """The seat starts not having looked; it passes blind (Enter waits at the offer to
    look) and its hand first appears when the auction ends."""
    rec = tmp_path / "g.yaml"
    rc, out = play(monkeypatch, capsys, ["501", "--seed", "3", "--deals", "1", "--record", str(rec)],
                   "\n2\n" + "1\n" * 400)
    assert rc == 0
    data = first_record(rec)
    actions = data["deals"][0]["actions"]
    assert "A pass blind" in actions
    assert "A look" not in actions[:actions.index("A pass blind")]
    before = out[:out.index("  A pass blind")]
    assert "face down" in before
    assert not re.search(r"^Your hand: [♠♥♦♣]", before, re.M)
    for c in data["deals"][0]["hands"]["A"]:
        assert not re.search(rf"(?<![0-9A-Z]){c}(?![0-9A-Z])", before)


def test_R501_15_a_card_given_face_down_is_named_only_to_its_receiver(monkeypatch, capsys, tmp_path):
    # Find a seed where an opponent declares and gives cards: I see mine, not the other.
    for seed in range(1, 40):
        rec = tmp_path / f"g{seed}.yaml"
        rc, out = play(monkeypatch, capsys, ["501", "--seed", str(seed), "--deals", "1", "--record", str(rec)],
                       "1\n" * 400)
        gives = [a.split() for a in first_record(rec)["deals"][0]["actions"] if a.split()[1] == "give"]
        if len(gives) == 2:
            break
    else:
        pytest.skip("no seed with an opponent's gives")
    for who, _, card, to in gives:
        if to == "A":
            assert f"{who} gives you {card} face down" in out
        else:
            assert f"{who} gives {to} a card face down" in out
            assert f"give {card} {to}" not in out


def test_the_person_sees_every_trick_and_who_won_it(monkeypatch, capsys, tmp_path):
    rec = tmp_path / "g.yaml"
    rc, out = play(monkeypatch, capsys, ["solo-whist", "--seed", "3", "--deals", "1", "--record", str(rec)],
                   "1\n" * 400)
    rep = replay_file(str(rec))
    d = rep.deals[0]
    tricks = re.findall(r"^  Trick (\d+): (.*) — (\w+) wins? it$", out, re.M)
    assert len(tricks) == len(d.history_tricks)
    for (k, cards, who), (_, trick, w) in zip(tricks, d.history_tricks):
        assert cards == "  ".join(f"{rep.seats[s]}: {rep.game.card_names[c]}" for s, c in trick)
        assert who == ("you" if rep.seats[w] == "A" else rep.seats[w])


def _solo_whist_record(tmp_path, dealer, actions, hands=None, exposed=None, seed=1):
    import random
    g = load("solo-whist")
    if hands is None:
        d = g.new_deal(4, "ABCD".index(dealer))
        d.deal_random(random.Random(seed))
        from talon_cards.records import deal_record
        rec = deal_record(d, list("ABCD"))
    else:
        rec = {"dealer": dealer, "hands": hands, "exposed": exposed}
    rec["actions"] = actions
    path = tmp_path / "start.yaml"
    path.write_text(yaml.safe_dump({"spec": "solo-whist", "seats": list("ABCD"), "deals": [rec]}))
    return path


def test_RSW_6_an_open_hand_is_shown_after_the_first_trick(monkeypatch, capsys, tmp_path):
    start = _solo_whist_record(tmp_path, "A", ["B bid misere-ouverte", "C pass", "D pass", "A pass"])
    rc, out = play(monkeypatch, capsys, ["--resume", str(start), "--deals", "1", "--seed", "1"], "1\n" * 400)
    assert rc == 0
    dealt = set(first_record(start)["deals"][0]["hands"]["B"])
    first_trick = out.index("  Trick 1:")
    assert "Open hand of" not in out[:first_trick] and "lays the hand open" not in out[:first_trick]
    line = next(ln for ln in out[first_trick:].splitlines() if "B lays the hand open: " in ln)
    shown = hand_cards(line)
    assert len(shown) == 12 and shown <= dealt
    assert "Open hand of B: " in out[first_trick:]


def test_RSW_14_the_declarer_is_offered_to_concede_a_lost_contract(monkeypatch, capsys, tmp_path):
    suits = {"A": "S", "B": "H", "C": "D", "D": "C"}
    ranks = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    hands = {seat: [r + s for r in ranks] for seat, s in suits.items()}
    start = _solo_whist_record(tmp_path, "D", ["A bid misere", "B pass", "C pass", "D pass"],
                               hands=hands, exposed="2C")
    rc, out = play(monkeypatch, capsys, ["--resume", str(start), "--deals", "1", "--seed", "1"], "1\n" * 40)
    assert rc == 0
    actions = first_record(start)["deals"][0]["actions"]
    # I win the first trick with AS (nobody can follow): the misere is lost. On my
    # turn concede is among the choices; while others play it is offered to me.
    assert actions[4] == "A play AS" and re.search(r"  Trick 1: A: AS  B: \w+  C: \w+  D: \w+ — you win it", out)
    assert re.search(r"\d+\) concede", out)
    assert "You may also, at any time: 1) concede" in out
    assert actions[-1] == "A concede"
    assert "conceded" in out


# ------------------------------------------------------------------ the prompt
def test_a_typo_gets_a_message_and_the_legal_actions_again(monkeypatch, capsys, tmp_path):
    rec = tmp_path / "g.yaml"
    rc, out = play(monkeypatch, capsys, ["solo-whist", "--seed", "1", "--deals", "1", "--record", str(rec)],
                   "xyzzy\n99\nplay ZZ\n" + "1\n" * 400)
    assert rc == 0
    i = out.index("A> xyzzy")
    after = out[i:].splitlines()
    assert after[1].startswith("not understood")
    assert after[2].startswith("  1) pass")          # the legal actions again
    assert "there is no choice 99: pick 1 to" in out
    assert "not understood: `ZZ` is not a card of this deck" in out
    assert "Traceback" not in out
    assert replay_file(str(rec)).complete


def test_an_action_may_be_typed_without_its_verb(monkeypatch, capsys, tmp_path):
    """`abundance` for `bid abundance`, as the menu shows it; the rest by number."""
    rec = tmp_path / "g.yaml"
    rc, out = play(monkeypatch, capsys, ["solo-whist", "--seed", "1", "--deals", "1", "--record", str(rec)],
                   "abundance\n" + "1\n" * 400)
    assert rc == 0
    assert "A bid abundance" in first_record(rec)["deals"][0]["actions"]


def test_an_illegal_bid_is_refused_with_the_rule(monkeypatch, capsys, tmp_path):
    rec = tmp_path / "g.yaml"
    rc, out = play(monkeypatch, capsys, ["501", "--seed", "3", "--deals", "1", "--record", str(rec)],
                   "\nbid 50\n" + "1\n" * 400)
    assert rc == 0
    assert "A> bid 50" in out
    assert re.search(r"`bid 50` is not allowed: (the lowest bid is 66|a bid must be above the highest bid)", out)


def test_R501_7_a_bid_above_the_listed_range_and_the_contract_are_typed(monkeypatch, capsys, tmp_path):
    """Bids have no upper limit: `bid 300` is legal although the menu folds the bids
    into one line; the declarer then names trumps and a contract of 310."""
    rec = tmp_path / "g.yaml"
    rc, out = play(monkeypatch, capsys, ["501", "--seed", "3", "--deals", "1", "--record", str(rec)],
                   "\nbid 300\ntrumps none\ncontract 310\n" + "1\n" * 400)
    assert rc == 0
    assert re.search(r"\d+\) bid \d+ \(or more\)", out)     # compact: one line for all bids
    assert not re.search(r"\d+\) bid 67\b", out)
    actions = first_record(rec)["deals"][0]["actions"]
    assert "A bid 300" in actions
    if replay_file(str(rec)).deals[0].declarer == 0:
        assert "A trumps none" in actions and "A contract 310" in actions
    assert replay_file(str(rec)).complete


def test_the_number_of_a_run_of_bids_bids_its_lowest(monkeypatch, capsys, tmp_path):
    rec = tmp_path / "g.yaml"
    # First line: Enter (wait, or nothing at my own prompt); then `look` and pick the bid line.
    rc, out = play(monkeypatch, capsys, ["501", "--seed", "3", "--deals", "1", "--record", str(rec)],
                   "\nlook\n2\n" + "1\n" * 400)
    assert rc == 0
    m = re.search(r"  1\) pass   2\) bid (\d+) \(or more\)\n.*\nA> 2\n", out)
    assert m, out[:3000]
    assert f"A bid {m.group(1)}" in first_record(rec)["deals"][0]["actions"]


def test_menu_folds_long_runs_of_numbers():
    g = load("501")
    import random
    d = g.new_deal(3, 0)
    d.deal_random(random.Random(1))
    menu = build_menu(d, d.turn, d.legal_actions(), list("ABC"))
    labels = [c.label for c in menu]
    assert labels == ["pass", "pass blind", "look", "bid 66 (or more)", "bid 66 blind (or more)"]
    assert len(d.legal_actions()) > 400
    assert render_menu(menu)[-1] == "  (for a higher bid, type the number: `70`, `70 blind`)"


def test_a_terminal_without_unicode_gets_letters(tmp_path):
    """Suit symbols and rules fall back to letters where the output cannot encode them;
    cards typed with symbols are understood."""
    import argparse

    from talon_cards.terminal import play_terminal

    class AsciiOut(io.StringIO):
        encoding = "ascii"

        def write(self, text):
            text.encode("ascii")          # raises as a real ASCII terminal would
            return super().write(text)

    out = AsciiOut()
    args = argparse.Namespace(spec="solo-whist", seats=None, seat="A", seed=1, deals=1,
                              record=str(tmp_path / "g.yaml"), resume=None)
    rc = play_terminal(args, io.StringIO("K♠ marriage\n" + "1\n" * 400), out)
    text = out.getvalue()
    assert rc == 0
    assert re.search(r"^Your hand: S [AKQJ0-9 -]+   H ", text, re.M)
    assert "=== Deal 1 - dealer" in text
    assert "not understood: `K♠`" not in text    # a card with a symbol is a card


# ------------------------------------------------------------------ leaving and resuming
def test_end_of_input_mid_deal_saves_and_resume_continues_to_the_end(monkeypatch, capsys, tmp_path):
    rec = tmp_path / "g.yaml"
    rc, out = play(monkeypatch, capsys, ["solo-whist", "--seed", "6", "--record", str(rec)], "1\n1\n1\n")
    assert rc == 0
    assert "End of input: the game is saved in" in out
    part = replay_file(str(rec))
    assert not part.complete and part.deals[0].phase == "play"
    before = first_record(rec)["deals"][0]["actions"]
    assert sum(a.startswith("A ") for a in before) == 3   # my three choices were all written

    rc, out = play(monkeypatch, capsys, ["--resume", str(rec), "--seed", "1"], "1\n" * 2000)
    assert rc == 0
    assert "Resuming" in out and "So far in this deal:" in out
    after = first_record(rec)["deals"][0]["actions"]
    assert after[:len(before)] == before
    rep = replay_file(str(rec)).to_json()
    assert rep["game_over"]
    assert score_line(out, "Final scores:") == rep["scores"]


def test_resume_of_a_501_deal_writes_to_another_file_with_record(monkeypatch, capsys, tmp_path):
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    play(monkeypatch, capsys, ["501", "--seats", "4", "--seed", "6", "--record", str(a)], "1\n" * 4)
    text = a.read_text()
    rc, out = play(monkeypatch, capsys, ["--resume", str(a), "--record", str(b), "--deals", "1"], "1\n" * 400)
    assert rc == 0
    assert a.read_text() == text
    rep = replay_file(str(b)).to_json()
    assert rep["complete"] and score_line(out, "Scores:") == rep["scores"]


def test_ctrl_c_saves_and_exits_130(monkeypatch, capsys, tmp_path):
    class Interrupting(io.StringIO):
        def __init__(self, lines):
            super().__init__()
            self.lines = list(lines)

        def readline(self, *a):
            if not self.lines:
                raise KeyboardInterrupt
            return self.lines.pop(0)

    rec = tmp_path / "g.yaml"
    monkeypatch.setattr(sys, "stdin", Interrupting(["1\n"] * 5))
    rc = main(["play", "501", "--seed", "5", "--record", str(rec)])
    out = capsys.readouterr().out
    assert rc == 130
    assert "Interrupted: the game is saved in" in out
    actions = first_record(rec)["deals"][-1]["actions"]
    assert sum(a.startswith("A ") for a in actions) == 5


def test_quit_saves_and_leaves(monkeypatch, capsys, tmp_path):
    rec = tmp_path / "g.yaml"
    rc, out = play(monkeypatch, capsys, ["solo-whist", "--seed", "1", "--record", str(rec)], "quit\n")
    assert rc == 0 and "Leaving: the game is saved" in out
    assert not replay_file(str(rec)).complete


def test_resume_of_a_finished_game_says_so(monkeypatch, capsys, tmp_path):
    rec = tmp_path / "g.yaml"
    play(monkeypatch, capsys, ["solo-whist", "--seed", "2", "--record", str(rec)], "1\n" * 2000)
    rc, out = play(monkeypatch, capsys, ["--resume", str(rec)], "")
    assert rc == 0 and "already over" in out


@pytest.mark.parametrize("args,message", [
    ([], "name a spec to play"),
    (["501", "--seats", "5"], "played by 3 or 4 seats, not 5"),
    (["501", "--seat", "Z"], "there is no seat `Z`"),
    (["501", "--record", "/no/such/folder/g.yaml"], "no such folder"),
    (["--resume", "/no/such/record.yaml"], "no such hand record"),
])
def test_usage_errors_are_messages_not_tracebacks(monkeypatch, capsys, args, message):
    rc, out = play(monkeypatch, capsys, args, "")
    assert rc in (1, 2)
    assert message in out and "Traceback" not in out


def test_resume_of_a_record_with_an_illegal_action_reports_it(monkeypatch, capsys, tmp_path):
    rec = tmp_path / "g.yaml"
    play(monkeypatch, capsys, ["501", "--seed", "3", "--record", str(rec)], "1\n" * 3)
    data = first_record(rec)
    data["deals"][0]["actions"].append("A play ZZ")
    rec.write_text(yaml.safe_dump(data))
    rc, out = play(monkeypatch, capsys, ["--resume", str(rec)], "")
    assert rc == 1 and "is illegal" in out and "Traceback" not in out


# ------------------------------------------------------------------ a real terminal
def test_in_a_pseudo_terminal_ctrl_c_leaves_with_status_130(tmp_path):
    pty = pytest.importorskip("pty")
    rec = tmp_path / "g.yaml"
    pid, fd = pty.fork()
    if pid == 0:   # the child: the talon command on the pseudo-terminal
        try:
            import signal   # a background test run may ignore SIGINT; the command must not
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.execv(sys.executable, [sys.executable, "-m", "talon_cards", "play", "501", "--seed", "3",
                                      "--record", str(rec)])
        finally:
            os._exit(99)
    buf = b""

    def read_until(*patterns: bytes, limit=30.0):
        nonlocal buf
        end = time.time() + limit
        while not any(p in buf for p in patterns) and time.time() < end:
            r, _, _ = select.select([fd], [], [], 0.5)
            if r:
                try:
                    chunk = os.read(fd, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                buf += chunk
        return any(p in buf for p in patterns)

    status = None
    try:
        assert read_until(b"A> ", b"choose: "), buf.decode(errors="replace")
        # A person presses Ctrl-C some time after the prompt: a signal in the instant
        # between readline printing the prompt and waiting for a key is only seen at
        # the next key (CPython's readline loop), which a test would hit by reacting at once.
        time.sleep(0.5)
        os.write(fd, b"\x03")
        read_until(b"never printed: read to the end", limit=20.0)
        for _ in range(100):
            done, st = os.waitpid(pid, os.WNOHANG)
            if done:
                status = st
                break
            time.sleep(0.1)
    finally:
        if status is None:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        try:
            os.close(fd)
        except OSError:
            pass
    assert status is not None, "the command did not leave after Ctrl-C:\n" + buf.decode(errors="replace")
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 130, buf.decode(errors="replace")
    assert b"Interrupted: the game is saved" in buf
    assert replay_file(str(rec)).deals
