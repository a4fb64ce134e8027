"""The players on the command line: `--agents` on simulate, compare and play, `talon
solve RECORD`, and `compare --show N --records DIR` (issue 12).

Small runs only: a few deals, PIMC with a small node budget, positions near the end
of the play for the solver."""
from __future__ import annotations

import io
import json
import random
import sys

import pytest

from talon_cards.agents import play_deal
from talon_cards.arena import parse_agents
from talon_cards import solver as solver_module
from talon_cards.cli import main
from talon_cards.engine import PLAY
from talon_cards.heuristic import HeuristicAgent
from talon_cards.records import deal_record, dump_yaml, read_record_file, replay_file
from talon_cards.solver import solve
from talon_cards.spec import load

GAMES = ["501", "solo-whist", "whist", "oh-hell", "hearts", "sixty-six", "tysyacha"]


# ------------------------------------------------------------------ --agents
@pytest.mark.parametrize("cmd", [["simulate", "501"], ["compare", "501", "501-must-beat"]])
def test_a_bad_agent_name_is_refused_with_the_valid_names(talon_cli, cmd):
    rc, out, err = talon_cli(*cmd, "--agents", "heuristic,clever,random", "--hands", "2")
    assert rc == 2 and out == ""
    assert "`clever` is not an agent" in err and "random, heuristic, pimc" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("cmd", [["simulate", "501"], ["compare", "501", "501-must-beat"]])
def test_a_list_of_the_wrong_length_is_refused(talon_cli, cmd):
    rc, out, err = talon_cli(*cmd, "--agents", "pimc,heuristic", "--hands", "2")
    assert rc == 2 and "lists 2 agents for 3 seats" in err
    rc, out, err = talon_cli(*cmd, "--agents", "pimc,heuristic,heuristic,random", "--hands", "2")
    assert rc == 2 and "lists 4 agents for 3 seats" in err


def test_pimc_budget_options_go_with_a_pimc_player(talon_cli):
    rc, _, err = talon_cli("simulate", "501", "--agents", "heuristic", "--nodes", "100", "--hands", "2")
    assert rc == 2 and "go with --agents pimc" in err
    for bad in (["--samples", "0"], ["--nodes", "0"], ["--time", "0"]):
        rc, _, err = talon_cli("simulate", "501", "--agents", "pimc", *bad, "--hands", "2")
        assert rc == 2 and "must be" in err, bad


def test_parse_agents_one_name_a_list_and_the_humans_seat():
    assert parse_agents("heuristic", 3) == ("heuristic",) * 3
    assert parse_agents("PIMC, heuristic ,random", 3) == ("pimc", "heuristic", "random")
    assert parse_agents("pimc", 3, human=1) == ("pimc", None, "pimc")
    assert parse_agents("pimc,heuristic", 3, human=0) == (None, "pimc", "heuristic")
    assert parse_agents("pimc,human,heuristic", 3, human=1) == ("pimc", None, "heuristic")
    with pytest.raises(ValueError, match="write `human` there"):
        parse_agents("pimc,heuristic,heuristic", 3, human=0, names=list("ABC"))
    with pytest.raises(ValueError, match="is not an agent"):
        parse_agents("human", 3)
    with pytest.raises(ValueError, match="names only"):
        parse_agents("pimc:samples=3", 3)


# ------------------------------------------------------------------ simulate
def _sim(talon_cli, *args):
    rc, out, err = talon_cli("simulate", *args, "--json", "--no-progress")
    assert rc == 0, err
    return json.loads(out)


def test_simulate_with_heuristic_players_is_seeded_and_the_same_on_any_number_of_workers(talon_cli, tmp_path):
    runs = []
    for workers in ("1", "2"):
        rec = tmp_path / f"w{workers}.jsonl"
        data = _sim(talon_cli, "501", "--agents", "heuristic", "--hands", "24", "--seed", "5",
                    "--workers", workers, "--records", rec)
        runs.append((data, rec.read_bytes()))
    assert runs[0][1] == runs[1][1]
    assert runs[0][0]["by_position"] == runs[1][0]["by_position"]
    assert runs[0][0]["players"] == "heuristic play"
    # The same seed with random players deals the same cards and plays them otherwise.
    rnd = tmp_path / "random.jsonl"
    _sim(talon_cli, "501", "--hands", "24", "--seed", "5", "--records", rnd)
    a = [json.loads(x) for x in runs[0][1].splitlines()]
    b = [json.loads(x) for x in rnd.read_bytes().splitlines()]
    assert [r["hands"] for r in a] == [r["hands"] for r in b]
    assert [r["actions"] for r in a] != [r["actions"] for r in b]
    # Every seat's action is the heuristic player's choice (it uses no randomness).
    g = load("501")
    for r in a[:6]:
        rep = replay_file_from(tmp_path, r)
        d = rep.deals[0]
        check = g.new_deal(3, d.dealer)
        check.set_cards({s: [c for c in range(g.n_cards) if d.dealt[s] >> c & 1] for s in range(3)},
                        [c for c in range(g.n_cards) if d.talon_dealt >> c & 1])
        for s, act in d.history:
            if check.turn == s and len(check.legal_actions()) > 1:
                assert HeuristicAgent().act(check) == act
            check.apply_action(act, s)


def replay_file_from(tmp_path, rec):
    p = tmp_path / "one.yaml"
    p.write_text(dump_yaml(rec))
    return replay_file(str(p))


def test_simulate_with_a_pimc_seat_on_a_node_budget_is_the_same_on_one_or_two_workers(talon_cli, tmp_path):
    outs = []
    for workers in ("1", "2"):
        rec = tmp_path / f"p{workers}.jsonl"
        data = _sim(talon_cli, "solo-whist", "--agents", "pimc,heuristic,heuristic,heuristic", "--samples", "2",
                    "--nodes", "3000", "--hands", "4", "--seed", "3", "--workers", workers, "--records", rec)
        outs.append(rec.read_bytes())
        assert data["players"].startswith("A pimc, B heuristic, C heuristic, D heuristic (pimc: 2 samples, "
                                          "3000 nodes")
    assert outs[0] == outs[1]


def test_simulate_text_names_the_players(talon_cli):
    rc, out, err = talon_cli("simulate", "whist", "--agents", "heuristic", "--hands", "5", "--no-progress")
    assert rc == 0, err
    assert "heuristic play" in out.splitlines()[0]


# ------------------------------------------------------------------ solve
def _position(name: str, seed: int, tricks_left: int = 3):
    """A deal of `name` bid and played by heuristic players, stopped in the play with
    `tricks_left` tricks to go (after the first card of a trick for odd seeds)."""
    g = load(name)
    seats = g.default_seats or g.seat_counts[0]
    for k in range(200):
        rng = random.Random(seed * 1000 + k)
        d = g.new_deal(seats, rng.randrange(seats))
        d.deal_random(rng)
        agent = HeuristicAgent()
        while not d.is_terminal():
            if d.phase == PLAY and d.tricks_left <= tricks_left and (len(d.trick) == seed % 2):
                return g, d
            d.apply_action(agent.act(d))
    raise AssertionError(f"no {name} deal reached the play")


def _write(tmp_path, d, name="rec.yaml"):
    seats = list("ABCDEFGH"[:len(d.hands)])
    rec = deal_record(d, seats, d.game.name)
    p = tmp_path / name
    p.write_text(dump_yaml(rec))
    return p, seats


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_solve_gives_the_library_solvers_values(talon_cli, tmp_path, name, seed):
    g, d = _position(name, seed)
    path, seats = _write(tmp_path, d)
    rc, out, err = talon_cli("solve", path, "--json")
    assert rc == 0, err
    data = json.loads(out)
    sol = solve(d, all_actions=True)
    assert data["value"] == pytest.approx(sol.value)
    assert data["to_move"] == seats[d.turn] and data["seat"] == seats[d.turn]
    want = {f"{seats[d.turn]} {g.to_action(a, seats).text()}": v for a, v in sol.values.items()}
    assert data["actions"] == pytest.approx(want)
    assert data["best"] in want and want[data["best"]] == pytest.approx(sol.value)
    assert data["build"] == ("python" if solver_module.COMPILED is None else "compiled")
    # The text for people: the result, then a row per legal action.
    rc, text, err = talon_cli("solve", path)
    assert rc == 0, err
    assert "result under perfect play, every hand open" in text
    assert ("search, compiled)" in text) == (solver_module.COMPILED is not None)
    for action in want:
        assert action in text


def test_solve_reads_a_game_record_at_its_last_deal(talon_cli, tmp_path):
    g, d = _position("sixty-six", 1)
    seats = ["A", "B"]
    one = deal_record(d, seats, "sixty-six")
    game = {"spec": "sixty-six", "seats": seats, "scores": one.pop("scores"),
            "deals": [{k: v for k, v in one.items() if k not in ("spec", "seats")}]}
    path = tmp_path / "game.yaml"
    path.write_text(dump_yaml(game))
    rc, out, err = talon_cli("solve", path, "--json")
    assert rc == 0, err
    assert json.loads(out)["value"] == pytest.approx(solve(d).value)


def test_solve_for_another_seat_and_the_paranoid_note(talon_cli, tmp_path):
    g, d = _position("hearts", 2)
    path, seats = _write(tmp_path, d)
    other = seats[(d.turn + 1) % len(seats)]
    rc, out, err = talon_cli("solve", path, "--seat", other, "--json")
    assert rc == 0, err
    data = json.loads(out)
    assert data["seat"] == other and data["every_seat_for_itself"] is True
    assert data["value"] == pytest.approx(solve(d, seats.index(other)).value)
    rc, text, _ = talon_cli("solve", path)
    assert "paranoid" in text
    rc, _, err = talon_cli("solve", path, "--seat", "Z")
    assert rc == 2 and "no seat `Z`" in err


def test_solve_a_finished_deal_from_its_first_lead(talon_cli, tmp_path):
    g = load("oh-hell")
    d = g.new_deal(4, 0, deal_number=9)        # hands of two cards
    d.deal_random(random.Random(4))
    play_deal(d, HeuristicAgent())
    assert d.is_terminal()
    path, seats = _write(tmp_path, d)
    rc, out, err = talon_cli("solve", path, "--json")
    assert rc == 0, err
    data = json.loads(out)
    assert data["trick"] == 1 and "finished" in data["note"]


def test_solve_refuses_a_record_before_the_play_with_a_message(talon_cli, tmp_path):
    g = load("501")
    d = g.new_deal(3, 0)
    d.deal_random(random.Random(1))
    d.apply_action(HeuristicAgent().act(d))
    path, _ = _write(tmp_path, d)
    rc, out, err = talon_cli("solve", path)
    assert rc == 1 and "stops in the auction" in err and "first lead" in err and "Traceback" not in err
    rc, out, err = talon_cli("solve", path, "--json")
    assert rc == 1 and "stops in the auction" in json.loads(out)["error"]


def test_solve_reports_an_illegal_action_by_its_index(talon_cli, tmp_path):
    g, d = _position("whist", 2)
    path, seats = _write(tmp_path, d)
    rec = read_record_file(str(path))[0]
    rec["actions"].append(rec["actions"][-1])          # the same card played twice
    path.write_text(dump_yaml(rec))
    rc, out, err = talon_cli("solve", path)
    assert rc == 1 and f"action {len(rec['actions'])}" in err and "illegal" in err
    rc, out, err = talon_cli("solve", path, "--json")
    assert rc == 1 and json.loads(out)["illegal action"]["index"] == len(rec["actions"])


def test_solve_bad_files_are_clear_messages(talon_cli, tmp_path):
    rc, _, err = talon_cli("solve", tmp_path / "none.yaml")
    assert rc == 1 and "none.yaml" in err and "Traceback" not in err
    bad = tmp_path / "bad.yaml"
    bad.write_text("spec: 501\nseats: [A, B, C]\nhands: [\n")
    rc, _, err = talon_cli("solve", bad)
    assert rc == 1 and "bad.yaml" in err
    rc, _, err = talon_cli("solve", "specs/501.talon")
    assert rc == 2 and "is a spec" in err


def test_solve_with_a_node_budget_too_small_says_so(talon_cli, tmp_path):
    g, d = _position("501", 1, tricks_left=8)
    path, _ = _write(tmp_path, d)
    rc, out, err = talon_cli("solve", path, "--nodes", "5")
    assert rc == 1 and "no exact result within 5 positions" in err


# ------------------------------------------------------------------ compare --show
def test_compare_show_lists_the_deals_that_differ_most_and_writes_records_that_replay(talon_cli, tmp_path):
    out_dir = tmp_path / "deals"
    rc, out, err = talon_cli("compare", "501", "501-must-beat", "--agents", "heuristic", "--hands", "150",
                             "--show", "3", "--records", out_dir, "--json", "--no-progress")
    assert rc == 0, err
    data = json.loads(out)
    shown = data["differ_most"]
    assert len(shown) == 3
    diffs = [it["difference"] for it in shown]
    assert diffs == sorted(diffs, reverse=True) and diffs[-1] > 0
    for it in shown:
        changes = []
        for side, spec in (("base", "501"), ("variant", "501-must-beat")):
            f = it[side]["file"]
            assert f == str(out_dir / f"deal-{it['deal']}-{side}.yaml")
            rec = read_record_file(f)[0]
            assert rec["spec"] == spec and rec["seats"] == ["A", "B", "C"]
            rc, rout, rerr = talon_cli("replay", f, "--json")
            assert rc == 0, rerr
            rep = json.loads(rout)
            assert rep["deltas"] == it[side]["summary"]["deltas"]
            changes.append(rep["deltas"])
        assert it["difference"] == sum(abs(changes[0][n] - changes[1][n]) for n in "ABC")
    # Both sides of a deal were dealt the same cards.
    for it in shown:
        assert it["base"]["record"]["hands"] == it["variant"]["record"]["hands"]
    # The text lists the same deals (as the command prints it, from the same data).
    from talon_cards.cli import render_showcase
    text = render_showcase(shown, str(out_dir), data["better"])
    assert "whose results differ most" in text and "score changes (lower is better)" in text
    for it in shown:
        assert any(line.split()[:2] == [str(it["deal"]), str(it["difference"])] for line in text.splitlines())


def test_compare_show_leaves_out_deals_played_alike(talon_cli):
    rc, out, err = talon_cli("compare", "501", "501-must-beat", "--agents", "heuristic", "--hands", "3",
                             "--show", "2", "--json", "--no-progress")
    assert rc == 0 and json.loads(out)["differ_most"] == []
    assert "only 0 of the deals played differ" in err
    rc, out, err = talon_cli("compare", "501", "501-must-beat", "--agents", "heuristic", "--hands", "3",
                             "--show", "2", "--no-progress")
    assert rc == 0 and "no deal's result differs between the two specs" in out


def test_compare_show_usage(talon_cli, tmp_path):
    rc, _, err = talon_cli("compare", "501", "501-must-beat", "--records", tmp_path, "--hands", "2")
    assert rc == 2 and "--records goes with --show" in err
    rc, _, err = talon_cli("compare", "501", "501-must-beat", "--show", "2", "--games", "1")
    assert rc == 2 and "--hands" in err
    f = tmp_path / "file"
    f.write_text("")
    rc, _, err = talon_cli("compare", "501", "501-must-beat", "--show", "2", "--records", f, "--hands", "2")
    assert rc == 2 and "not a folder" in err


# ------------------------------------------------------------------ play
def _play(monkeypatch, capsys, args, stdin_text):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin_text))
    rc = main(["play", *args])
    cap = capsys.readouterr()
    return rc, cap.out + cap.err


def test_play_against_heuristic_players(monkeypatch, capsys, tmp_path):
    rec = tmp_path / "game.yaml"
    rc, out = _play(monkeypatch, capsys, ["501", "--seed", "7", "--deals", "2", "--record", str(rec),
                                          "--agents", "heuristic"], "1\n" * 600)
    assert rc == 0, out
    assert "The other seats: heuristic play." in out
    rep = replay_file(str(rec))
    assert rep.complete and len(rep.deals) == 2
    # Every action of B and C is the heuristic player's choice; A's are the person's.
    g = rep.game
    data = read_record_file(str(rec))[0]
    for k, d in enumerate(rep.deals):
        dr = data["deals"][k]
        check = g.new_deal(3, d.dealer, list(d.scores_before), d.deal_number)
        check.set_cards({s: [c for c in range(g.n_cards) if d.dealt[s] >> c & 1] for s in range(3)},
                        [c for c in range(g.n_cards) if d.talon_dealt >> c & 1])
        for s, act in d.history:
            if s != 0 and check.turn == s:
                assert HeuristicAgent().act(check) == act, dr
            check.apply_action(act, s)
    # The same seed and input give the same game.
    rec2 = tmp_path / "again.yaml"
    rc, out2 = _play(monkeypatch, capsys, ["501", "--seed", "7", "--deals", "2", "--record", str(rec2),
                                           "--agents", "heuristic"], "1\n" * 600)
    assert read_record_file(str(rec2))[0]["deals"] == data["deals"]


def test_play_with_a_pimc_opponent_and_per_seat_list(monkeypatch, capsys, tmp_path):
    rc, out = _play(monkeypatch, capsys, ["501", "--seed", "3", "--deals", "1", "--seat", "B",
                                          "--agents", "pimc,heuristic", "--samples", "2", "--nodes", "2000"],
                    "1\n" * 400)
    assert rc == 0, out
    assert "The other seats: A pimc, C heuristic (pimc: 2 samples, 2000 nodes a decision)." in out
    rc, out = _play(monkeypatch, capsys, ["501", "--seed", "3", "--agents", "pimc,heuristic,heuristic"], "quit\n")
    assert rc == 2 and "you play A; write `human` there" in out
    rc, out = _play(monkeypatch, capsys, ["501", "--seed", "3", "--agents", "smart"], "quit\n")
    assert rc == 2 and "random, heuristic, pimc" in out


# ------------------------------------------------------------------ docs
def test_the_own_agent_example_of_docs_agents_md_runs_and_prints_what_the_page_says(capsys):
    from pathlib import Path
    text = (Path(__file__).resolve().parent.parent / "docs" / "agents.md").read_text()
    block = text.split("<!-- example: own agent -->", 1)[1]
    code = block.split("```python\n", 1)[1].split("```", 1)[0]
    printed = block.split("which prints\n\n```text\n", 1)[1].split("```", 1)[0]
    exec(compile(code, "docs/agents.md", "exec"), {"__name__": "docs_example"})
    assert capsys.readouterr().out == printed


def test_solve_gives_up_at_its_time_limit_with_a_message(talon_cli, tmp_path):
    g, d = _position("whist", 2, tricks_left=13)
    path, _ = _write(tmp_path, d)
    rc, out, err = talon_cli("solve", path, "--time", "0.05")
    assert rc == 1 and "no exact result within 0.05 s" in err
    rc, out, err = talon_cli("solve", path, "--time", "-1")
    assert rc == 2 and "--time" in err


@pytest.mark.parametrize("name", ["whist", "501"])
def test_a_search_cut_short_reports_bounds_that_hold(name):
    """Cut short, the solver says what it had proved of the result (the trick search's
    questions answered so far, or MTD(f)'s bounds), and the exact result lies within."""
    from talon_cards.solver import Solver, Timeout
    # a position whose search asks several questions, each past the budget's first
    # check (every 4,096 positions)
    g, d = _position(name, 2, tricks_left=10 if name == "whist" else 6)
    true = solve(d).value
    bounded = 0
    k = 4
    while k < 200_000:
        try:
            Solver(d).solve(max_nodes=k)
            break
        except Timeout as e:
            if e.bounds is not None:
                lo, hi = e.bounds
                assert lo is None or lo <= true + 1e-9, (k, e.bounds, true)
                assert hi is None or true <= hi + 1e-9, (k, e.bounds, true)
                assert lo is not None or hi is not None
                bounded += 1
        k = k * 3 // 2
    assert bounded >= 1


def test_solve_cut_short_says_what_it_proved(talon_cli, tmp_path):
    from talon_cards.solver import Solver, Timeout
    g, d = _position("whist", 2, tricks_left=10)
    path, seats = _write(tmp_path, d)
    k = 4
    bounds = None
    while bounds is None:
        k = k * 3 // 2
        assert k < 200_000
        try:
            Solver(d).solve(max_nodes=k)
        except Timeout as e:
            bounds = e.bounds
    lo, hi = bounds
    rc, out, err = talon_cli("solve", path, "--nodes", str(k))
    assert rc == 1 and f"no exact result within {k} positions (proved so far: the result for" in err
    said = (f"between {lo:+g} and {hi:+g}" if lo is not None and hi is not None
            else f"at least {lo:+g}" if lo is not None else f"at most {hi:+g}")
    assert said in err, (said, err)
    rc, out, err = talon_cli("solve", path, "--nodes", str(k), "--json")
    data = json.loads(out)
    assert data["bounds"] == {"at_least": lo, "at_most": hi}


def test_solve_gives_the_result_when_the_actions_take_longer(talon_cli, tmp_path):
    """The result and an action achieving it come first: when the budget runs out
    while valuing every action, they are printed, with a note."""
    from talon_cards.solver import Solver
    g, d = _position("whist", 2, tricks_left=8)
    path, seats = _write(tmp_path, d)
    first = Solver(d).solve()
    rc, out, err = talon_cli("solve", path, "--nodes", str(first.nodes + 1), "--json")
    assert rc == 0, err
    data = json.loads(out)
    assert data["value"] == pytest.approx(first.value) and "actions" not in data
    assert data["best"] == f"{seats[d.turn]} {g.to_action(first.best, seats).text()}"
    assert "the value of each action needs more than" in data["partial"]
    rc, text, err = talon_cli("solve", path, "--nodes", str(first.nodes + 1))
    assert rc == 0 and "an action achieving it: " + data["best"] in text
    assert "the value of each action needs more than" in text


def test_the_solver_reports_its_progress_with_bounds_that_hold():
    """``solve(progress=…)`` is called while the search runs with the positions searched
    so far (rising) and what is proved of the result; the exact result lies within
    every bound reported, and the callback is let go afterwards."""
    from talon_cards.solver import Solver
    g, d = _position("whist", 2, tricks_left=10)
    true = solve(d).value
    sv = Solver(d)
    sv.search.progress_every = 0          # at every check (every 4,096 positions)
    seen = []
    sol = sv.solve(progress=lambda n, b: seen.append((n, b)))
    assert sol.value == pytest.approx(true)
    assert len(seen) >= 2
    counts = [n for n, _ in seen]
    assert counts == sorted(counts) and counts[-1] <= sol.nodes
    proved = [b for _, b in seen if b is not None]
    assert proved
    for lo, hi in proved:
        assert lo is None or lo <= true + 1e-9
        assert hi is None or true <= hi + 1e-9
    assert sv.search.progress is None
    # every action's value: nothing is proved of the result there (it is known)
    later = []
    sv.search.progress_every = 0
    sv.solve(all_actions=True, progress=lambda n, b: later.append(b))
    assert later and all(b is None for b in later)


def test_solve_shows_a_live_line_on_a_terminal_and_wipes_it(monkeypatch):
    """On a terminal, a search past a second shows the time, the positions and what is
    proved so far on one line of stderr, rewritten in place and wiped at the end."""
    import io
    from talon_cards import solve_cmd
    g, d = _position("whist", 2, tricks_left=10)
    seats = list("ABCD")

    class Tty(io.StringIO):
        def isatty(self):
            return True

    err = Tty()
    monkeypatch.setattr(solve_cmd.sys, "stderr", err)
    from talon_cards.solver import Solver
    sv = Solver(d)
    line = solve_cmd.Searching(d, seats, sv, t0=0.0)    # as if started long ago
    line(12_288, (2.0, None))
    line(16_384, None)
    line.close()
    out = err.getvalue()
    assert "\rsearching:" in out and "12,288 positions" in out
    assert "proved so far: the result for A and C is at least +2" in out
    assert out.endswith("\r") and line.width == 0
    # and nothing while the first second runs
    err.truncate(0), err.seek(0)
    import time
    quiet = solve_cmd.Searching(d, seats, sv, t0=time.perf_counter())
    quiet(4096, None)
    assert err.getvalue() == ""
