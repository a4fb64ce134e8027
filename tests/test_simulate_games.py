"""Simulation figures for every game, with or without a declarer: each figure is checked
against a count made independently of the statistics code, from the hand records
`simulate` writes, replayed (their deal summaries, or the replayed deals themselves).

Oh Hell: every seat bids an exact number (bid accuracy, bids against tricks, the hook).
Hearts: no auction (deal scores add up to 26, or 78 when the moon is shot; `shot`).
Sixty-six: the stock can be closed (`reached`, `closer failed`, `wins`; closing).
Whist: fixed partnerships (figures per side). Tysyacha: per-seat counters (bolts, barrel).
"""
from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from talon_cards.records import replay_record
from talon_cards.simulate import (Stats, compare, compare_json, default_seats, render_compare, render_stats,
                                  score_direction, simulate)
from talon_cards.spec import load

SEVEN = ("501", "solo-whist", "whist", "oh-hell", "hearts", "sixty-six", "tysyacha")


@pytest.fixture(scope="module")
def games():
    return {name: load(name) for name in SEVEN}


def run(game, n, seed, seats=None, **kw):
    """Simulate and return (stats, summary JSON with its seed, records, replays)."""
    recs = []
    st = simulate(game, n if not kw.get("games") else 0, seed, seats, records=recs.append, progress=False, **kw)
    data = st.to_json()
    data["seed"] = seed
    reps = [replay_record(rec, game=game) for rec in recs]
    return st, data, recs, reps


def positions(rec, summary):
    """Each seat name's position relative to the deal's dealer (the deal passes left)."""
    seats = rec["seats"]
    dealer = seats.index(summary["dealer"])
    return {n: (i - dealer) % len(seats) for i, n in enumerate(seats)}


def approx(a, b, tol=1e-3):
    return abs(a - b) < tol


# ------------------------------------------------------------------ which way is good
def test_which_way_is_good_comes_from_the_winners_rule(games):
    """Lowest score wins (501, Hearts): lower is better; seats reaching the target win,
    or the highest score does: higher is better."""
    want = {"501": "lower", "hearts": "lower", "solo-whist": "higher", "whist": "higher",
            "oh-hell": "higher", "sixty-six": "higher", "tysyacha": "higher"}
    assert {name: score_direction(g) for name, g in games.items()} == want


@pytest.mark.parametrize("name", SEVEN)
def test_every_score_figure_says_which_way_is_good(games, name):
    st, data, _, _ = run(games[name], 40, 3)
    words = data["better"]
    assert words in ("higher is better", "lower is better")

    def walk(x, path=""):
        if isinstance(x, dict):
            for k, v in x.items():
                if k in ("score_change", "declarer_score_change"):
                    assert v["better"] == words, path + k
                walk(v, path + k + ".")
        elif isinstance(x, list):
            for v in x:
                walk(v, path)
    walk(data)
    text = render_stats(data)
    for line in text.splitlines():
        if "score change" in line and "95% CI" in line or "declarer change" in line:
            assert f"({words})" in line, line


# ------------------------------------------------------------------ tables by kind of game
@pytest.mark.parametrize("name", SEVEN)
def test_contract_tables_only_with_a_declarer(games, name):
    g = games[name]
    _, data, _, _ = run(g, 60, 2)
    text = render_stats(data)
    assert ("annulled (no contract)" in text) == g.has_declarer
    assert ("bid in auction" in text) == g.has_declarer
    assert ("by_role" in data) == g.has_declarer
    assert "100.0%  99" not in text             # no figure stuck at 100% for want of a contract
    if not g.has_declarer:
        assert data["contracts"] == [] and data["annulled"] == 0 and data["played"] == 60


def test_default_seats_are_the_specs_default(games):
    assert default_seats(games["oh-hell"]) == 4 and games["oh-hell"].seat_counts[0] == 3
    st = simulate(games["oh-hell"], 5, 1, progress=False)
    assert st.seats == 4


# ------------------------------------------------------------------ Oh Hell: exact bids
def test_oh_hell_bid_accuracy_matches_the_records(games):
    """ROH-13: a seat makes its bid when its tricks equal its bid. Counted from the
    replayed records: overall, per seat position, per bid, and the bids' total against
    the tricks (ROH-8, the hook: the bids never add up to the tricks)."""
    g = games["oh-hell"]
    _, data, recs, reps = run(g, 300, 7, 4)
    made = total = 0
    by_pos = Counter()
    n_pos = Counter()
    cross = Counter()
    totals = Counter()
    for rec, rep in zip(recs, reps):
        dd = rep.to_json()["deals"][0]
        pos = positions(rec, dd)
        for n, b in dd["bids"].items():
            t = dd["tricks"][n]
            total += 1
            made += b == t
            n_pos[pos[n]] += 1
            by_pos[pos[n]] += b == t
            cross[(b, t)] += 1
        sb, stt = sum(dd["bids"].values()), sum(dd["tricks"].values())
        totals["more" if sb > stt else "fewer" if sb < stt else "equal"] += 1
    b = data["bids"]
    assert b["bid_made"]["count"] == made and b["bid_made"]["of"] == total == 1200
    assert approx(b["bid_made"]["rate"], made / total)
    for p in data["by_position"]:
        assert p["bid_made"]["count"] == by_pos[p["offset"]] and p["bid_made"]["of"] == n_pos[p["offset"]]
    for row in b["by_bid"]:
        got = {int(t): c for t, c in row["tricks"].items()}
        assert got == {t: c for (bb, t), c in cross.items() if bb == row["bid"]}
        assert row["bid_made"]["count"] == cross[(row["bid"], row["bid"])]
        assert row["over"]["count"] == sum(c for (bb, t), c in cross.items() if bb == row["bid"] and t > bb)
    adds = b["bids_add_up_to"]
    assert adds["the_tricks"]["count"] == totals["equal"] == 0          # ROH-8: the dealer is hooked
    assert adds["more_than_the_tricks"]["count"] == totals["more"]
    assert adds["fewer_than_the_tricks"]["count"] == totals["fewer"]
    text = render_stats(data)
    assert "bids made exactly (tricks = bid)" in text and "mean bid" in text


def test_oh_hell_games_count_bids_by_hand_size(games):
    """In a game the hands shrink (ROH-3): the bids made are counted by the tricks in
    the deal, as the replayed game records show them."""
    g = games["oh-hell"]
    _, data, recs, reps = run(g, 0, 4, 4, games=3)
    n, made = Counter(), Counter()
    for rep in reps:
        for dd in rep.to_json()["deals"]:
            size = sum(dd["tricks"].values())
            for s, b in dd["bids"].items():
                n[size] += 1
                made[size] += b == dd["tricks"][s]
    rows = data["bids"]["by_tricks_in_the_deal"]
    assert {r["tricks_in_the_deal"]: (r["seat_deals"], r["bid_made"]["count"]) for r in rows} == \
        {k: (n[k], made[k]) for k in n}
    assert len(rows) == 10                                  # 10 cards each down to 1 (ROH-3, ROH-15)
    g_ = data["games"]
    assert g_["finished"] == 3 and g_["one_winner"] + g_["shared_wins"] == 3
    assert sum(w["count"] for w in g_["winner_by_position"]) >= 3


# ------------------------------------------------------------------ Hearts: no auction
def test_hearts_scores_add_up_and_the_moon_is_counted(games):
    """RH-12/13: a deal's scores add up to 26, or to 78 when one seat takes every
    penalty card (`shot`); per seat position, the score change and the points are the
    replayed records' means."""
    g = games["hearts"]
    _, data, recs, reps = run(g, 400, 11)
    shot = 0
    score, points, tricks = Counter(), Counter(), Counter()
    for rec, rep in zip(recs, reps):
        dd = rep.to_json()["deals"][0]
        total = sum(dd["deltas"].values())
        assert total in (26, 78)
        shot += total == 78
        pos = positions(rec, dd)
        for n in rec["seats"]:
            score[pos[n]] += dd["deltas"][n]
            points[pos[n]] += dd["points"][n]
            tricks[pos[n]] += dd["tricks"][n]
    ev = {e["event"]: e for e in data["events"]}
    assert ev["shot"]["count"] == shot and ev["shot"]["of"] == 400 and ev["shot"]["counted_over"] == "deals"
    assert ev["shooter"]["count"] == shot and ev["shooter"]["of"] == 1600
    for p in data["by_position"]:
        i = p["offset"]
        assert approx(p["score_change"]["mean"], score[i] / 400)
        assert approx(p["points"]["mean"], points[i] / 400) and approx(p["tricks"]["mean"], tricks[i] / 400)
    assert approx(data["all_seats"]["score_change"]["mean"], sum(score.values()) / 1600)
    assert sum(p["tricks"]["mean"] for p in data["by_position"]) == pytest.approx(13, abs=1e-2)


# ------------------------------------------------------------------ Sixty-six: lets and closing
def test_sixty_six_lets_and_closing_match_the_records(games):
    """R66-14: `reached` holds for a seat with 66 or more; R66-17: `closer failed`;
    `wins` holds for exactly one seat a deal, the one that scores. Closing (R66-12) is
    read from the records' actions, and the closer's score change from their deltas."""
    g = games["sixty-six"]
    _, data, recs, reps = run(g, 300, 5)
    reached = wins = closed = gained = 0
    for rec, rep in zip(recs, reps):
        dd = rep.to_json()["deals"][0]
        reached += sum(v >= 66 for v in dd["points"].values())
        wins += sum(v > 0 for v in dd["deltas"].values())
        closers = [a.split()[0] for a in rec["actions"] if a.split()[1] == "close"]
        assert len(closers) <= 1
        assert rep.deals[0].closed == bool(closers)
        if closers:
            closed += 1
            gained += dd["deltas"][closers[0]] > 0
    ev = {e["event"]: e for e in data["events"]}
    assert ev["reached"]["count"] == reached and ev["reached"]["of"] == 600
    assert ev["wins"]["count"] == wins == 300
    assert ev["stock closed"]["count"] == closed and ev["closer's score change > 0"]["of"] == closed
    assert ev["closer's score change > 0"]["count"] == gained
    assert ev["closer failed"]["count"] == closed - gained               # R66-17
    assert ev["deal ended early"]["count"] == sum(d.deals[0].ended_early for d in reps)
    text = render_stats(data)
    for words in ("reached (let)", "closer failed (let)", "wins (let)", "stock closed", "deal ended early"):
        assert words in text


# ------------------------------------------------------------------ Whist: sides
def test_whist_figures_per_side_match_the_records(games):
    """RW-2/RW-12: partners sit opposite and score together: per side, the score change
    per seat and the side's tricks are the replayed records' means."""
    g = games["whist"]
    _, data, recs, reps = run(g, 200, 9)
    score, tricks = Counter(), Counter()
    for rec, rep in zip(recs, reps):
        dd = rep.to_json()["deals"][0]
        pos = positions(rec, dd)
        by_pos = {p: n for n, p in pos.items()}
        for side in ((0, 2), (1, 3)):
            a, b = (by_pos[p] for p in side)
            assert dd["deltas"][a] == dd["deltas"][b]
            score[side] += dd["deltas"][a]
            tricks[side] += dd["tricks"][a] + dd["tricks"][b]
    sides = {tuple(s["positions"]): s for s in data["by_side"]}
    assert set(sides) == {(0, 2), (1, 3)}
    assert sides[(0, 2)]["side"] == "dealer & dealer +2"
    for k, s in sides.items():
        assert approx(s["score_change"]["mean"], score[k] / 200)
        assert approx(s["tricks"]["mean"], tricks[k] / 200)
    assert approx(sum(s["tricks"]["mean"] for s in sides.values()), 13)


def test_whist_games_winners_are_sides(games):
    g = games["whist"]
    _, data, recs, reps = run(g, 0, 2, games=8)
    won = Counter()
    for rec, rep in zip(recs, reps):
        out = rep.to_json()
        first = rec["seats"].index(rec["deals"][0]["dealer"])
        ws = sorted((rec["seats"].index(w) - first) % 4 for w in out["winners"])
        assert len(ws) == 2 and ws[1] - ws[0] == 2                         # both partners win
        won[tuple(ws)] += 1
    gm = data["games"]
    assert gm["shared_wins"] == 0 and gm["one_winner"] == gm["finished"] == 8
    assert {tuple(w["positions"]): w["count"] for w in gm["winner_by_side"]} == {k: won.get(k, 0) for k in ((0, 2), (1, 3))}
    assert "winning side (from the first dealer)" in render_stats(data)


# ------------------------------------------------------------------ Tysyacha: counters
def test_tysyacha_counters_match_the_replayed_deals(games):
    """R1000-22/23: the per-seat counters at the end of each deal, and with --games
    how often each went above 0 during a game, counted on the replayed deals."""
    g = games["tysyacha"]
    _, data, recs, reps = run(g, 0, 3, games=2, max_deals=120)
    at_end = {"barrel": Counter(), "bolts": Counter()}
    ever = {"barrel": [0, 0], "bolts": [0, 0]}              # [games, seat-games]
    for rep in reps:
        seen = {k: set() for k in at_end}
        for d in rep.deals:
            for k in at_end:
                for s, v in enumerate(d.counters[k]):
                    at_end[k][v > 0] += 1
                    if v > 0:
                        seen[k].add(s)
        for k in at_end:
            ever[k][0] += bool(seen[k])
            ever[k][1] += len(seen[k])
    cs = {c["counter"]: c for c in data["counters"]}
    for k in at_end:
        assert cs[k]["above_zero"]["count"] == at_end[k][True]
        assert cs[k]["seat_deals"] == sum(at_end[k].values()) == 3 * data["deals"]
    gc = {c["counter"]: c for c in data["games"]["counters"]}
    for k in ever:
        assert [gc[k]["games"]["count"], gc[k]["seat_games"]["count"]] == ever[k]
    assert at_end["bolts"][True] > 0


def test_tysyacha_bolts_in_independent_deals_are_the_zero_gains(games):
    """R1000-23: off the barrel, a seat whose gain is 0 gets a bolt; from the start
    scores nobody is on the barrel and a declarer never gains 0, so the seats with a
    bolt after a deal are those whose score did not change."""
    g = games["tysyacha"]
    _, data, recs, reps = run(g, 200, 6)
    zero = sum(v == 0 for rep in reps for v in rep.to_json()["deals"][0]["deltas"].values())
    cs = {c["counter"]: c for c in data["counters"]}
    assert cs["bolts"]["above_zero"]["count"] == zero
    assert cs["barrel"]["above_zero"]["count"] == 0


# ------------------------------------------------------------------ lets are yes/no only
def test_only_yes_no_lets_are_reported(games):
    """501's `stake` (a number) and Tysyacha's `gain` are no events."""
    for name, absent, present in (("501", "stake", None), ("tysyacha", "gain", "on barrel")):
        _, data, _, _ = run(games[name], 30, 1)
        names = {e["event"] for e in data["events"]}
        assert absent not in names
        assert present is None or present in names


# ------------------------------------------------------------------ merging and workers
@pytest.mark.parametrize("name,kw", [("hearts", {"hands": 120}), ("oh-hell", {"hands": 120}),
                                     ("whist", {"games": 6}), ("tysyacha", {"games": 2, "max_deals": 40}),
                                     ("sixty-six", {"games": 5})])
def test_summary_is_the_same_for_any_chunks_and_workers(games, name, kw):
    g = games[name]
    hands = kw.pop("hands", 0)
    a = simulate(g, hands, 4, None, progress=False, chunk=1000, **kw).to_json()
    b = simulate(g, hands, 4, None, progress=False, chunk=7 if hands else 1, **kw).to_json()
    c = simulate(g, hands, 4, None, progress=False, workers=2, **kw).to_json()
    assert json.dumps(a) == json.dumps(b) == json.dumps(c)
    assert render_stats(dict(a, seed=4)) == render_stats(dict(c, seed=4))


def test_stats_pickle_without_their_cache(games):
    import pickle
    st = simulate(games["whist"], 50, 1, progress=False)
    back = pickle.loads(pickle.dumps(st))
    assert back._cache == {} and json.dumps(back.to_json()) == json.dumps(st.to_json())


# ------------------------------------------------------------------ compare
def test_compare_games_without_a_declarer(games):
    """Hearts against the queen-breaks house rule: paired per seat position, how often
    the moon is shot; a spec against itself differs by nothing."""
    g = games["hearts"]
    var = load("hearts-queen-breaks")
    sa, sb, paired = compare(g, var, 150, 3, None, progress=False)
    data = compare_json(sa, sb, paired)
    data["seed"] = 3
    figs = {p["figure"]: p for p in data["paired"]}
    assert figs["`shot` holds"]["kind"] == "rate" and figs["`shot` holds"]["n"] == 150
    assert figs["score change, dealer"]["better"] == "lower is better"
    assert figs["points, dealer"]["better"] is None and figs["points, dealer"]["kind"] == "mean"
    assert data["contracts"] == []
    text = render_compare(data)
    assert "score change, dealer (lower is better)" in text and "contracts: made rate" not in text
    sa, sb, paired = compare(g, g, 80, 3, None, progress=False)
    assert all(r["difference"] == 0 for r in paired.to_json())


def test_compare_figure_order_does_not_depend_on_chunks(games):
    g, var = games["sixty-six"], load("sixty-six-no-last-trick")
    orders = []
    for chunk in (1000, 3):
        sa, sb, paired = compare(g, var, 60, 2, None, progress=False, chunk=chunk)
        orders.append([r["figure"] for r in paired.to_json()])
    assert orders[0] == orders[1]
    assert orders[0][:2] == ["score change, dealer", "score change, dealer's left"]


# ------------------------------------------------------------------ the command
@pytest.mark.parametrize("name", SEVEN)
def test_simulate_text_and_json_for_every_game(talon_cli, name):
    rc, out, err = talon_cli("simulate", name, "--hands", "60", "--seed", "1")
    assert rc == 0, err
    assert not re.search(r"annulled \(no contract\)\s+60\s", out)
    rc, out, err = talon_cli("simulate", name, "--games", "2", "--seed", "1", "--max-deals", "30", "--json")
    assert rc == 0, err
    data = json.loads(out)
    assert data["games"]["games"] == 2 and data["better"].endswith("is better")


def test_contract_json_fields_are_named_as_the_columns(games):
    _, data, recs, _ = run(games["solo-whist"], 120, 5)
    bid_in = Counter()
    for rec in recs:
        for name in {a.split()[2] for a in rec["actions"] if a.split()[1] == "bid"}:
            bid_in[name] += 1
    rows = {c["contract"]: c for c in data["contracts"]}
    assert {k: c["bid"] for k, c in rows.items()} == dict(bid_in)        # bid in the auction
    assert sum(c["played"] for c in rows.values()) == data["played"]      # played
    assert all(approx(c["played_rate"], c["played"] / 120) for c in rows.values())


def test_stats_without_a_game_are_still_constructible():
    st = Stats("x", 3)
    assert st.to_json()["better"] is None


@pytest.mark.parametrize("name", ["hearts", "oh-hell", "whist", "sixty-six", "tysyacha"])
def test_stats_memory_does_not_grow_with_deals(name):
    """The new figures are histograms keyed by value (bounded by the game), not lists."""
    import pickle
    from talon_cards.simulate import run_chunk
    seats = default_seats(load(name))
    small = run_chunk(name, seats, 2, 0, 200)[0][0]
    large = run_chunk(name, seats, 2, 200, 1700)[0][0]
    large.merge(small)
    assert large.deals == 1700
    assert len(pickle.dumps(large)) < 2 * len(pickle.dumps(small))
