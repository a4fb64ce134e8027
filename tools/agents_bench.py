#!/usr/bin/env python
"""Benchmark: the open-card solver's speed, and how the players compare.

Prints, on one core:

* the solver: for each game, the time (CPU) and positions searched to solve whole play
  phases exactly from the first lead (deals bid and played by heuristic players up to
  the play), or with ``--solver-left N`` the rest of the play from the lead with N
  tricks left (played on by heuristic players), with the search the solver chose for
  it (the trick search or the general one); a deal that runs past ``--solver-cap``
  seconds is counted as a time-out;
* paired seeded matches (``talon_cards.arena.paired``): the heuristic player against
  random play, and the PIMC player against the heuristic one, as the mean difference of
  one seat's result per deal (its side's score change against the others') with a 95%
  confidence interval, and the sign test on the deals it did better and worse on.

    python tools/agents_bench.py                     # everything, default sizes
    python tools/agents_bench.py --only solver --games 501 whist solo-whist
    python tools/agents_bench.py --only solver --games whist solo-whist --solver-deals 30 --solver-left 9
    python tools/agents_bench.py --only pimc --pimc-deals 40 --samples 8 --nodes 20000
    python tools/agents_bench.py --only pimc --games solo-whist --pimc-deals 50 --seed 11 --seeds 55 --samples 8
    python tools/agents_bench.py --json
"""
from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from talon_cards.agents import RandomAgent  # noqa: E402
from talon_cards.arena import mean_ci, paired  # noqa: E402
from talon_cards.engine import PLAY  # noqa: E402
from talon_cards.heuristic import HeuristicAgent  # noqa: E402
from talon_cards.pimc import PimcAgent  # noqa: E402
from talon_cards import solver as solver_module  # noqa: E402
from talon_cards.solver import Solver, Timeout  # noqa: E402
from talon_cards.spec import load  # noqa: E402

GAMES = ["501", "solo-whist", "whist", "oh-hell", "hearts", "sixty-six", "tysyacha"]
CLOCK = time.process_time


def play_starts(g, n: int, seed: int):
    """`n` deals of `g` bid by heuristic players, stopped at the first lead."""
    seats = g.default_seats or g.seat_counts[0]
    rng = random.Random(seed)
    out = []
    tries = 0
    while len(out) < n and tries < 20 * n:
        tries += 1
        d = g.new_deal(seats, rng.randrange(seats))
        d.deal_random(rng)
        agents = [HeuristicAgent(random.Random(rng.random())) for _ in range(seats)]
        while not d.is_terminal() and d.phase != PLAY:
            d.apply_action(agents[d.turn].act(d))
        if d.phase == PLAY and d.tricks_done == 0 and not d.trick:
            out.append(d)
    return out


def play_on(d, left: int, seed: int):
    """The deal played on by heuristic players to the first lead with `left` tricks to
    play (None when it ends before)."""
    rng = random.Random(seed)
    agents = [HeuristicAgent(random.Random(rng.random())) for _ in range(d.n_seats)]
    while not d.is_terminal() and (d.trick or d.tricks_left > left):
        d.apply_action(agents[d.turn].act(d))
    return None if d.is_terminal() else d


def bench_solver(games, deals: int, cap: float, seed: int, left: int | None = None) -> dict:
    rows = {}
    for name in games:
        g = load(name)
        times, nodes, outs = [], [], 0
        mode = tricks = None
        starts = play_starts(g, deals, seed)
        if left is not None:
            starts = [x for x in (play_on(d, left, seed + i) for i, d in enumerate(starts)) if x is not None]
        for d in starts:
            sv = Solver(d)
            mode, tricks = sv.mode, d.tricks_left
            t0 = CLOCK()
            try:
                sol = sv.solve(time_limit=cap)
            except Timeout:
                outs += 1
                continue
            times.append(CLOCK() - t0)
            nodes.append(sol.nodes)
        rows[name] = {
            "tricks": tricks, "mode": mode, "deals": len(times) + outs, "timeouts": outs,
            "median_s": round(statistics.median(times), 3) if times else None,
            "mean_s": round(statistics.fmean(times), 3) if times else None,
            "max_s": round(max(times), 3) if times else None,
            "median_nodes": int(statistics.median(nodes)) if nodes else None,
        }
        r = rows[name]
        print(f"  {name:12s} {r['tricks']:>2} tricks  {str(r['mode']):8s} median {r['median_s']} s  "
              f"mean {r['mean_s']} s  max {r['max_s']} s  nodes {r['median_nodes']}  "
              f"time-outs {outs}/{r['deals']} (cap {cap:g} s)", flush=True)
    return rows


def sign_test(better: int, worse: int) -> float:
    """Two-sided exact sign test: the chance of a split at least this uneven between
    the deals A did better and worse on, were A and B equally good (ties left out)."""
    n = better + worse
    if n == 0:
        return 1.0
    k = min(better, worse)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def bench_match(games, make_a, make_b, deals: int, seed: int, label: str, seeds: int = 1) -> dict:
    """`deals` paired deals for each of `seeds` seeds from `seed` on, pooled."""
    rows = {}
    for name in games:
        t0 = time.perf_counter()
        g = load(name)
        diffs = []
        for k in range(seeds):
            diffs += paired(g, make_a, make_b, deals, seed=seed + k)
        m, ci = mean_ci(diffs)
        wins = sum(1 for x in diffs if x > 0)
        losses = sum(1 for x in diffs if x < 0)
        p = sign_test(wins, losses)
        rows[name] = {"deals": len(diffs), "mean": round(m, 3), "ci95": round(ci, 3),
                      "better": wins, "worse": losses, "sign_test_p": float(f"{p:.2g}"),
                      "seconds": round(time.perf_counter() - t0, 1)}
        print(f"  {name:12s} {label}: {m:+8.3f} ± {ci:6.3f} per deal  "
              f"({wins} better, {losses} worse, sign test p {p:.2g}; {len(diffs)} deals, "
              f"{rows[name]['seconds']} s)", flush=True)
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", nargs="+", default=GAMES)
    ap.add_argument("--only", choices=["solver", "heuristic", "pimc"])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seeds", type=int, default=1,
                    help="matches: play the deals of this many seeds from --seed on, pooled")
    ap.add_argument("--solver-deals", type=int, default=5)
    ap.add_argument("--solver-cap", type=float, default=60.0)
    ap.add_argument("--solver-left", type=int, default=None,
                    help="solve from the first lead with this many tricks left (played on by heuristic "
                         "players), not from the first trick")
    ap.add_argument("--deals", type=int, default=200, help="deals of heuristic against random")
    ap.add_argument("--pimc-deals", type=int, default=30, help="deals of PIMC against the heuristic")
    ap.add_argument("--samples", type=int, default=10)
    ap.add_argument("--time", type=float, default=None,
                    help="seconds per PIMC decision (machine-dependent; default: none, --nodes bounds it)")
    ap.add_argument("--nodes", type=int, default=20000,
                    help="positions the solver may search per PIMC decision (repeatable on any machine)")
    ap.add_argument("--auction-tries", type=int, default=1,
                    help="PIMC: samples drawn for each one kept, the best fit to the bids (1: bids not used)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    # the solver's build: the compiled copy of solver.py (setup.py), or plain Python
    out = {"solver_build": solver_module.build()}
    print(f"solver: {out['solver_build']}", flush=True)
    if a.only in (None, "solver"):
        where = "whole play phases from the first lead" if a.solver_left is None else \
            f"the rest of the play from the lead with {a.solver_left} tricks left"
        print(f"open-card solver, {where} (CPU time):", flush=True)
        out["solver"] = bench_solver(a.games, a.solver_deals, a.solver_cap, a.seed, a.solver_left)
    if a.only in (None, "heuristic"):
        print("heuristic against random play (paired deals, one seat's result):", flush=True)
        out["heuristic_vs_random"] = bench_match(a.games, HeuristicAgent, RandomAgent, a.deals, a.seed,
                                                 "heuristic - random", a.seeds)
    if a.only in (None, "pimc"):
        budget = ", ".join([f"{a.samples} samples"] + ([f"{a.nodes} nodes"] if a.nodes is not None else [])
                           + ([f"{a.time:g} s"] if a.time is not None else [])
                           + ([f"auction tries {a.auction_tries}"] if a.auction_tries > 1 else []))
        print(f"PIMC ({budget} a decision) against the heuristic:", flush=True)
        pimc = lambda rng: PimcAgent(rng, samples=a.samples, time=a.time, nodes=a.nodes,
                                     auction_tries=a.auction_tries)
        out["pimc_vs_heuristic"] = bench_match(a.games, pimc, HeuristicAgent, a.pimc_deals, a.seed,
                                               "pimc - heuristic", a.seeds)
    if a.json:
        print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
