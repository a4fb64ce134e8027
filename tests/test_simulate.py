"""Simulation: the engine's fast random play is the ordinary play made faster, the
statistics are counted right and merge exactly, runs are reproducible whatever the
number of workers (locally or on Dask), `compare` pairs the same deals, and records
replay. Nothing here is timed: speed is measured by tools/bench.py."""
from __future__ import annotations

import copy
import json
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

from talon_cards.agents import RandomAgent, play_deal
from talon_cards.engine import PLAY
from talon_cards.records import replay_record
from talon_cards.simulate import (Acc, compare, compare_json, deal_rng, newcombe, run_chunk, simulate,
                                  wilson)
from talon_cards.spec import bundled_names, load

ROOT = Path(__file__).resolve().parent.parent

MUST_BEAT = """variant x "501 where you must beat the trick"
extends 501

play:
  add must-beat after must-trump: must play a card that beats the trick when able
"""


@pytest.fixture(scope="module")
def g501():
    return load("501")


@pytest.fixture(scope="module")
def variant_path(tmp_path_factory):
    p = tmp_path_factory.mktemp("variant") / "x.talon"
    p.write_text(MUST_BEAT)
    return str(p)


def to_play(game, seats, seed):
    """A deal played at random up to its first lead (None if it ended before)."""
    rng = random.Random(seed)
    d = game.new_deal(seats, seed % seats)
    d.deal_random(rng)
    agent = RandomAgent(rng)
    while not d.is_terminal() and d.phase != PLAY:
        d.apply_action(agent.act(d))
    return None if d.is_terminal() else d


def bits(m):
    return [c for c in range(m.bit_length()) if m >> c & 1]


# ------------------------------------------------------------------ the fast play path
def reference_allowed(d, hand):
    """The cards a seat may play, read from the follow rules as the rules pages state
    them (R501-17, RSW-12, the must-beat house rule): each rule narrows the choice when
    the seat holds a card it asks for."""
    g = d.game
    if not d.trick:
        return set(bits(hand))
    led, trumps = g.card_suit[d.trick[0][1]], d.trumps

    def beats(c, w):          # c beats the winning card w
        if g.card_suit[c] == g.card_suit[w]:
            return g.card_rank[c] < g.card_rank[w]
        return g.card_suit[c] == trumps and g.trick_trumps

    winner = d.trick[0][1]
    for _, c in d.trick[1:]:
        if beats(c, winner):
            winner = c
    cand = set(bits(hand))
    for rule in [n.cards.parts[0][0] for n in g.narrows]:
        if rule == "suit-led":
            m = {c for c in cand if g.card_suit[c] == led}
        elif rule == "trump":
            m = {c for c in cand if g.card_suit[c] == trumps}
        else:
            m = {c for c in cand if beats(c, winner)}
        if m:
            cand = m
    return cand


SPECS = sorted(bundled_names())


def _plain_follow_rules(g) -> bool:
    """The reference above reads follow rules without conditions (501, Solo Whist)."""
    return g.lead_card < 0 and all(
        n.mode == "must" and not (n.first or n.void or n.when) and len(n.cards.parts) == 1
        and n.cards.parts[0][0] in ("suit-led", "trump", "beats-trick") for n in g.narrows)


@pytest.mark.parametrize("ref", SPECS)
def test_random_play_action_is_choice_of_legal_actions(ref):
    """The fast path picks exactly what `rng.choice(legal_actions())` picks, from the
    same draw, and the legal cards are those the follow rules allow."""
    g = load(ref)
    checked = 0
    for seed in range(12):
        seats = g.seat_counts[seed % len(g.seat_counts)]
        d = to_play(g, seats, seed)
        if d is None:
            continue
        r1, r2 = random.Random(seed), random.Random(seed)
        while d.phase == PLAY:
            legal = d.legal_actions()
            cards = {a for a in legal if a < g.codec.MELD}
            if _plain_follow_rules(g):
                assert cards == reference_allowed(d, d.hands[d.turn])
            a = d.random_play_action(r2)
            assert a == r1.choice(legal)
            assert r1.getstate() == r2.getstate()
            d.apply_action(a)
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("ref", SPECS)
def test_play_random_plays_as_the_agent_does_step_by_step(ref):
    g = load(ref)
    for seed in range(10):
        seats = g.seat_counts[seed % len(g.seat_counts)]
        d = to_play(g, seats, seed)
        if d is None:
            continue
        slow = copy.deepcopy(d, {id(g): g})
        d.play_random(random.Random(seed))
        agent = RandomAgent(random.Random(seed))
        while not slow.is_terminal():
            slow.apply_action(agent.act(slow))
        assert d.history == slow.history
        assert d.deltas == slow.deltas and d.tricks == slow.tricks and d.melds == slow.melds


def test_must_beat_variant_in_a_temp_dir_narrows_the_follow(variant_path):
    """The tiny variant of the brief: a card that beats the trick is forced when held."""
    g = load(variant_path)
    assert g.narrows[-1].cards.parts == (("beats-trick", None),)
    seen = 0
    for seed in range(40):
        d = to_play(g, 3, seed)
        if d is None:
            continue
        rng = random.Random(seed)
        while d.phase == PLAY:
            if d.trick:
                allowed = {a for a in d.legal_actions() if a < g.codec.MELD}
                assert allowed == reference_allowed(d, d.hands[d.turn])
                seen += 1
            d.apply_action(d.random_play_action(rng))
    assert seen > 100


@pytest.mark.parametrize("ref", ["501", "solo-whist"])
def test_R501_17_RSW_12_trick_winner_from_the_tables(ref):
    """The precomputed trick strengths give the rule's winner: the highest trump, else
    the highest card of the suit led."""
    g = load(ref)
    tricks = 0
    for seed in range(20):
        d = to_play(g, g.seat_counts[0], seed)
        if d is None:
            continue
        d.play_random(random.Random(seed))
        trumps = d.trumps
        for _, trick, w in d.history_tricks:
            led = g.card_suit[trick[0][1]]
            cards = [c for _, c in trick]
            pool = [c for c in cards if g.card_suit[c] == trumps and g.trick_trumps] or \
                   [c for c in cards if g.card_suit[c] == led]
            best = min(pool, key=lambda c: g.card_rank[c])
            assert dict((c, s) for s, c in trick)[best] == w
            tricks += 1
    assert tricks > 50


def reference_deal(d, rng):
    """R501-5/6, RSW-2/3 as the old engine dealt: from a shuffled deck, round by round
    to each active seat, then to the talon; the dealer's last card is the exposed one."""
    g = d.game
    deck = list(range(g.n_cards))
    rng.shuffle(deck)
    hands = {s: [] for s in d.active}
    talon, i, last = [], 0, -1
    for rounds, each, to_talon in ((st.rounds, st.each, st.to_talon) for st in g.deal_steps):
        for _ in range(rounds):
            for s in d.active:
                hands[s] += deck[i:i + each]
                if s == d.dealer:
                    last = deck[i + each - 1]
                i += each
            talon += deck[i:i + to_talon]
            i += to_talon
    d.set_cards(hands, talon, last if g.face_up else -1)
    return d


@pytest.mark.parametrize("ref,seats", [("501", 3), ("501", 4), ("solo-whist", 4)])
def test_deal_random_deals_as_set_cards_would(ref, seats):
    g = load(ref)
    for seed in range(30):
        a = g.new_deal(seats, seed % seats)
        a.deal_random(random.Random(seed))
        b = reference_deal(g.new_deal(seats, seed % seats), random.Random(seed))
        assert (a.hands, a.dealt, a.talon, a.talon_dealt) == (b.hands, b.dealt, b.talon, b.talon_dealt)
        assert (a.exposed, a.exposed_visible, a.phase, a.turn) == (b.exposed, b.exposed_visible, b.phase, b.turn)


# ------------------------------------------------------------------ statistics
def test_wilson_interval_matches_published_values():
    # Newcombe (1998), table I: 81/263 -> 0.2553-0.3662; 15/148 -> 0.0624-0.1605; 0/20 -> 0-0.1611
    for (k, n), (lo, hi) in {(81, 263): (0.2553, 0.3662), (15, 148): (0.0624, 0.1605),
                             (0, 20): (0.0, 0.1611)}.items():
        a, b = wilson(k, n)
        assert abs(a - lo) < 5e-4 and abs(b - hi) < 5e-4
    # Newcombe (1998), difference of proportions, method 10: 56/70 - 48/80 -> 0.0524 to 0.3339
    lo, hi = newcombe(48, 80, 56, 70)
    assert abs(lo - 0.0524) < 5e-4 and abs(hi - 0.3339) < 5e-4


def test_accumulators_merge_exactly_in_any_order():
    rng = random.Random(3)
    xs = [rng.randint(-300, 300) for _ in range(1000)]
    whole = Acc()
    for x in xs:
        whole.add(x)
    parts = []
    for cut in ([0, 10, 400, 1000], [0, 999, 1000], [0, 1, 2, 500, 1000]):
        merged = Acc()
        pieces = []
        for a, b in zip(cut, cut[1:]):
            p = Acc()
            for x in xs[a:b]:
                p.add(x)
            pieces.append(p)
        for p in reversed(pieces):
            merged.merge(p)
        parts.append(merged.to_json())
    assert all(p == whole.to_json() for p in parts)
    mean = sum(xs) / len(xs)
    var = sum((x - mean) ** 2 for x in xs) / (len(xs) - 1)
    assert abs(whole.mean - mean) < 1e-9 and abs(whole.var - var) < 1e-6


def test_stats_agree_with_the_records_replayed(g501):
    """Counted from the engine's deals as they are played, checked against the records
    replayed independently: contracts bid and made, annulled deals, the score change of
    each seat position relative to the dealer."""
    recs = []
    st = simulate(g501, 300, 11, 3, records=recs.append, progress=False)
    assert st.deals == len(recs) == 300
    annulled, rows, by_pos = 0, {}, [0, 0, 0]
    for rec in recs:
        r = replay_record(rec, game=g501).to_json()
        dd = r["deals"][0]
        seats = rec["seats"]
        dealer = seats.index(rec["dealer"])
        for i, n in enumerate(seats):
            by_pos[(i - dealer) % 3] += dd["deltas"][n]
        if dd["result"] == "annulled":
            annulled += 1
            continue
        lo = dd["bid"] // 10 * 10
        row = rows.setdefault(f"{lo}-{lo + 9}", [0, 0])
        row[0] += 1
        row[1] += dd["result"] == "made"
    data = st.to_json()
    assert data["annulled"] == annulled
    assert {c["contract"]: [c["played"], c["made"]] for c in data["contracts"] if c["played"]} == rows
    for p in data["by_position"]:
        assert p["score_change"]["n"] == 300
        assert abs(p["score_change"]["mean"] - by_pos[p["offset"]] / 300) < 1e-3


def test_each_deal_has_its_own_seed_from_the_run_seed(g501):
    """Deal i of a run is the deal played from random.Random((seed << 32) ^ i), with
    its dealer drawn first (R501-4): so it does not depend on the deals before it."""
    recs = []
    simulate(g501, 5, 9, 3, records=recs.append, progress=False)
    for i, rec in enumerate(recs):
        rng = deal_rng(9, i)
        d = g501.new_deal(3, rng.randrange(3))
        d.deal_random(rng)
        play_deal(d, RandomAgent(rng))
        assert rec["dealer"] == "ABC"[d.dealer]
        assert rec["actions"] == [d.action_to_string(a, s, list("ABC")) for s, a in d.history]
    tail = []
    simulate(g501, 5, 9, 3, records=tail.append, progress=False, chunk=2)
    assert tail == recs


def test_summary_does_not_depend_on_chunks(g501):
    a = simulate(g501, 120, 4, 3, progress=False, chunk=1000).to_json()
    b = simulate(g501, 120, 4, 3, progress=False, chunk=7).to_json()
    assert json.dumps(a) == json.dumps(b)


def test_stats_memory_does_not_grow_with_deals(g501):
    small = run_chunk("501", 3, 2, 0, 200)[0][0]
    large = run_chunk("501", 3, 2, 200, 2200)[0][0]
    large.merge(small)
    assert large.deals == 2200
    assert len(pickle.dumps(large)) < 2 * len(pickle.dumps(small))


def test_games_play_whole_matches(g501):
    recs = []
    st = simulate(g501, 0, 6, 3, records=recs.append, progress=False, games=6)
    d = st.to_json()
    g = d["games"]
    assert g["games"] == 6 == len(recs)
    assert sum(int(k) * v for k, v in d["histograms"]["match_length"].items()) == d["deals"]
    assert g["length"]["n"] == 6 and abs(g["length"]["mean"] - d["deals"] / 6) < 1e-3
    wins = [0, 0, 0]
    spreads = []
    for rec in recs:
        rep = replay_record(rec, game=g501).to_json()
        assert rep["game_over"] is True                                  # R501-22
        scores = list(rep["scores"].values())
        spreads.append(max(scores) - min(scores))
        first = rec["seats"].index(rec["deals"][0]["dealer"])
        for w in rep["winners"]:
            wins[(rec["seats"].index(w) - first) % 3] += 1
    assert [w["count"] for w in g["winner_by_position"]] == wins
    assert abs(g["spread"]["mean"] - sum(spreads) / 6) < 1e-3


def test_games_are_cut_off_at_max_deals():
    g = load("solo-whist")
    st = simulate(g, 0, 1, 4, progress=False, games=3, max_deals=2)
    assert st.games == 3 and st.games_over == 0 and st.deals == 6


# ------------------------------------------------------------------ compare
def test_compare_a_spec_with_itself_differs_by_nothing(g501):
    sa, sb, paired = compare(g501, g501, 150, 2, 3, progress=False)
    assert json.dumps(sa.to_json()) == json.dumps(sb.to_json())
    for row in paired.to_json():
        assert row["difference"] == 0 and row["ci95"] == [0, 0]


def test_compare_pairs_the_same_deals(g501, variant_path):
    """The paired made-rate difference is the mean over the same deals, each played
    under both specs from the same seed; the auction does not see the play rules, so
    both reach the same contracts."""
    var = load(variant_path)
    sa, sb, paired = compare(g501, var, 200, 5, 3, progress=False, variant_ref=variant_path)
    diffs = []
    for i in range(200):
        res = []
        for g in (g501, var):
            rng = deal_rng(5, i)
            d = g.new_deal(3, rng.randrange(3))
            d.deal_random(rng)
            play_deal(d, RandomAgent(rng))
            res.append(d)
        a, b = res
        assert a.annulled == b.annulled and a.declarer == b.declarer and a.bid_value == b.bid_value
        if a.declarer >= 0 and not a.annulled:
            diffs.append(int(b.made and not b.abandoned) - int(a.made and not a.abandoned))
    row = {r["figure"]: r for r in paired.to_json()}["made"]
    assert row["n"] == len(diffs)
    assert abs(row["difference"] - sum(diffs) / len(diffs)) < 1e-4
    data = compare_json(sa, sb, paired)
    for c in data["contracts"]:
        assert c["paired"]["n"] == c["base"]["played"] == c["variant"]["played"]
    assert data["base"]["annulled"] == data["variant"]["annulled"]


def test_compare_command_with_a_variant_file(variant_path, talon_cli):
    rc, out, err = talon_cli("compare", "501", variant_path, "--hands", "120", "--seed", "3")
    assert rc == 0, err
    assert "paired figures" in out and "declarer score change" in out and "contracts" in out
    rc, out, err = talon_cli("compare", "501", variant_path, "--hands", "120", "--seed", "3", "--json")
    data = json.loads(out)
    assert data["base"]["spec"] == "501" and data["variant"]["spec"] == "x"
    assert {r["figure"] for r in data["paired"]} >= {"annulled", "made", "declarer score change"}


def test_compare_needs_a_seat_count_both_play(talon_cli):
    rc, out, err = talon_cli("compare", "501", "solo-whist", "--hands", "10")
    assert rc == 2 and "solo-whist is played by 4 seats, not 3" in err and "Traceback" not in err


# ------------------------------------------------------------------ the command
def test_simulate_tables_answer_the_questions(talon_cli):
    rc, out, err = talon_cli("simulate", "501", "--hands", "300", "--seed", "2")
    assert rc == 0, err
    for words in ("annulled", "made", "contract", "95% CI", "declarer", "defender", "dealer's left"):
        assert words in out
    rc, out, err = talon_cli("simulate", "solo-whist", "--games", "3", "--seed", "2")
    assert rc == 0, err
    assert "deals per game" in out and "winner's seat" in out


@pytest.mark.parametrize("args,message", [
    (["--hands", "0"], "--hands must be at least 1"),
    (["--games", "0"], "--games must be at least 1"),
    (["--hands", "5", "--games", "5"], "not both"),
    (["--workers", "0"], "--workers must be at least 1"),
    (["--max-deals", "5"], "--max-deals goes with --games"),
    (["--scheduler", "tcp://x:1"], "--scheduler goes with --backend dask"),
    (["--seats", "5"], "not 5"),
])
def test_usage_errors_are_one_line(talon_cli, args, message):
    rc, out, err = talon_cli("simulate", "501", *args)
    assert rc == 2 and message in err and "Traceback" not in err


def test_same_seed_byte_identical_across_workers(tmp_path, talon_cli):
    outs = []
    for w in ("1", "2", "1"):
        path = tmp_path / f"r{w}-{len(outs)}.jsonl"
        rc, out, err = talon_cli("simulate", "501", "--hands", "400", "--seed", "8", "--json",
                                 "--workers", w, "--records", path)
        assert rc == 0, err
        outs.append((out, path.read_bytes()))
    assert outs[0] == outs[1] == outs[2]
    rc, other, _ = talon_cli("simulate", "501", "--hands", "400", "--seed", "9", "--json")
    assert other != outs[0][0]


def test_games_byte_identical_across_workers(tmp_path, talon_cli):
    outs = []
    for w in ("1", "2"):
        path = tmp_path / f"g{w}.jsonl"
        rc, out, err = talon_cli("simulate", "solo-whist", "--games", "4", "--seed", "3", "--json",
                                 "--workers", w, "--records", path)
        assert rc == 0, err
        outs.append((out, path.read_bytes()))
    assert outs[0] == outs[1]


def test_records_replay_with_each(tmp_path, talon_cli):
    path = tmp_path / "sim.jsonl"
    rc, _, err = talon_cli("simulate", "501", "--hands", "50", "--seed", "5", "--records", path, "--json")
    assert rc == 0, err
    rc, out, err = talon_cli("replay", "--each", path)
    assert rc == 0, err
    assert "50 records, 50 replay" in out
    lines = path.read_text().splitlines()
    rec = json.loads(lines[3])
    rec["actions"].append(rec["actions"][-1])          # one action too many
    lines[3] = json.dumps(rec)
    path.write_text("\n".join(lines) + "\n")
    rc, out, err = talon_cli("replay", "--each", path, "--json")
    assert rc == 1
    data = json.loads(out)
    assert data["records"] == 50 and [f["line"] for f in data["failed"]] == [4]
    assert "the deal is already over" in data["failed"][0]["error"]


def test_game_records_replay_with_each(tmp_path, talon_cli):
    path = tmp_path / "games.jsonl"
    rc, _, err = talon_cli("simulate", "solo-whist", "--games", "2", "--seed", "1", "--records", path, "--json")
    assert rc == 0, err
    rc, out, err = talon_cli("replay", "--each", path)
    assert rc == 0 and "2 records, 2 replay" in out


def test_plot_writes_a_png(tmp_path, talon_cli):
    pytest.importorskip("matplotlib")
    path = tmp_path / "sim.png"
    rc, _, err = talon_cli("simulate", "501", "--games", "4", "--seed", "1", "--plot", path)
    assert rc == 0, err
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    path2 = tmp_path / "cmp.png"
    rc, _, err = talon_cli("compare", "501", "501-must-beat", "--hands", "100", "--plot", path2)
    assert rc == 0, err
    assert path2.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_dask_backend_gives_the_local_result(talon_cli):
    pytest.importorskip("dask")
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    try:
        args = ["simulate", "501", "--hands", "300", "--seed", "4", "--json"]
        rc, local, err = talon_cli(*args)
        assert rc == 0, err
        rc, remote, err = talon_cli(*args, "--backend", "dask", "--scheduler", cluster.scheduler_address)
        assert rc == 0, err
        assert remote == local
    finally:
        cluster.close()


def test_bench_prints_the_figures_it_promises():
    p = subprocess.run([sys.executable, str(ROOT / "tools" / "bench.py"), "--json", "--hands", "60",
                        "--repeat", "1", "--workers", "1"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert set(data["deals_per_second"]) == {q.stem for q in (ROOT / "specs").glob("*.talon")}
    assert set(data["play_phase_per_second"]) >= {"engine", "hand_coded"}
    assert data["play_phase_ratio"] > 0 and data["full_deal_ratio"] > 0
    assert set(data["decisions_per_second"]) == set(data["deals_per_second"])
    assert all(v > data["deals_per_second"][k] for k, v in data["decisions_per_second"].items())
    assert set(data["games"]) == {"501", "solo-whist", "hearts"}
    assert all(data["games"][g]["full_deal_ratio"] > 0 and data["games"][g]["play_phase_ratio"] > 0
               for g in ("501", "solo-whist", "hearts"))


def _bench():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import bench
    finally:
        sys.path.pop(0)
    return bench


@pytest.mark.parametrize("ref", ["501", "solo-whist", "hearts"])
def test_bench_hand_coded_whole_deal_plays_the_engines_deal(ref):
    """The hand-coded whole deal the engine is measured against draws every choice as
    the random agent does: from the same seed both reach the same score changes, so
    the ratio compares the same work."""
    bench = _bench()
    g = load(ref)
    seats = g.seat_counts[0]
    annulled = 0
    for i in range(300):
        number = 1 + i % 4
        d = g.new_deal(seats, i % seats, deal_number=number)
        rng = random.Random(i)
        d.deal_random(rng)
        play_deal(d, RandomAgent(rng))
        mine = bench.FULL_BASELINES[ref](random.Random(i), i % seats, number)
        if d.annulled:
            annulled += 1
            assert mine is None
        else:
            assert mine == {s: d.deltas[s] for s in d.active}, f"seed {i}"
    assert annulled < 150


@pytest.mark.parametrize("ref", ["501", "solo-whist", "hearts"])
def test_bench_hand_coded_play_loops_play_the_engines_deal(ref):
    """Each play-phase baseline plays the game's rules of play and draws every choice as
    the random agent does: from the same state at the first lead and the same seed, it
    takes the engine's very tricks (and card points, marriages and concessions)."""
    bench = _bench()
    g = load(ref)
    fn, snapshot = bench.PLAY_BASELINES[ref]
    seen = set()
    for d, seed in bench.prepared_deals(g, 150, 3):
        args = snapshot(d)
        out = fn(*args, random.Random(seed))
        play_deal(d, RandomAgent(random.Random(seed)))
        if ref == "501":
            points, tricks, melds = out
            assert sum(points.values()) == 120 and sum(tricks.values()) == 8
            assert points == {s: d.card_points[s] for s in d.active}, f"seed {seed}"
            assert melds == [(m[0], m[3]) for m in d.melds], f"seed {seed}"
            seen.add(bool(melds))
        elif ref == "hearts":
            points, taken = out
            assert sum(points.values()) == 26
            assert {s: sorted(t) for s, t in taken.items()} == {s: bits(d.taken[s]) for s in d.active}
            tricks = {s: len(t) // 4 for s, t in taken.items()}
        else:
            tricks, conceded = out
            assert conceded == bool(d.conceded), f"seed {seed}"
            seen.add(conceded)
        assert tricks == {s: d.tricks[s] for s in d.active}, f"seed {seed}"
    if ref != "hearts":
        assert seen == {True, False}        # marriages announced, contracts conceded: both ways


def test_dask_scheduler_address_errors_are_one_line(talon_cli):
    pytest.importorskip("distributed")
    rc, out, err = talon_cli("simulate", "501", "--hands", "10", "--backend", "dask", "--scheduler", "nonsense")
    assert rc == 1 and "cannot reach the Dask scheduler at nonsense" in err and "Traceback" not in err


def test_deal_random_honours_a_generator_with_its_own_shuffle(g501):
    class Reversed(random.Random):
        def shuffle(self, x):
            x.reverse()
    a = g501.new_deal(3, 0)
    a.deal_random(Reversed(1))
    b = reference_deal(g501.new_deal(3, 0), Reversed(1))
    assert a.dealt == b.dealt and a.talon == b.talon
