#!/usr/bin/env python
"""Benchmark: random-play speed of the engine, side by side with a hand-coded baseline.

Prints, in one run on one core:

* full random deals per second for every bundled spec (``specs/*.talon``: deal, auction,
  contract steps, play and scoring, statistics accumulated, as ``talon simulate`` runs);
* the play phase alone, measured the same way for the engine and for a straightforward
  hand-coded Python implementation of the 501 play phase written below (eight tricks,
  follow suit, must trump when void, the highest trump or else the highest card of the
  suit led wins, card points): the same deals, each started from the state after the
  contract phase and played to the end with uniformly random legal cards;
* the ratio engine / hand-coded;
* with ``--workers N`` (N > 1), the speed-up of ``N`` local workers over one.

``python tools/bench.py --json`` prints one JSON object instead.
"""
from __future__ import annotations

import argparse
import copy
import gc
import json
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from talon_cards.agents import RandomAgent, play_deal  # noqa: E402
from talon_cards.engine import PLAY  # noqa: E402
from talon_cards.simulate import run_chunk, simulate  # noqa: E402
from talon_cards.spec import load  # noqa: E402


# One-core figures are CPU time of this process (steady when other work shares the
# machine); the workers figure is wall-clock time, as a user waits for it.
CLOCK = time.process_time

# ---------------------------------------------------------------- the hand-coded baseline
# 501's deck: suits S H D C, ranks A 10 K Q J 9 (index 0 the highest), card = suit*6+rank.
HC_SUIT = [c // 6 for c in range(24)]
HC_RANK = [c % 6 for c in range(24)]
HC_POINTS = [(11, 10, 4, 3, 2, 0)[c % 6] for c in range(24)]


def hand_coded_play(hands, order, leader, trumps, rng):
    """Play 8 tricks of 501 at random. `hands`: seat -> list of card ints (consumed),
    `order`: the seats in playing order, `trumps`: suit index or -1. Returns the card
    points and tricks of each seat."""
    n = len(order)
    nxt = {order[i]: order[(i + 1) % n] for i in range(n)}
    points = {s: 0 for s in order}
    tricks = {s: 0 for s in order}
    for _ in range(len(hands[leader])):
        seat = leader
        hand = hands[seat]
        card = rng.choice(hand)
        hand.remove(card)
        led = HC_SUIT[card]
        win_seat, win_card = seat, card
        pts = HC_POINTS[card]
        for _ in range(n - 1):
            seat = nxt[seat]
            hand = hands[seat]
            legal = [c for c in hand if HC_SUIT[c] == led]
            if not legal and trumps >= 0:
                legal = [c for c in hand if HC_SUIT[c] == trumps]
            if not legal:
                legal = hand
            card = rng.choice(legal)
            hand.remove(card)
            pts += HC_POINTS[card]
            cs, ws = HC_SUIT[card], HC_SUIT[win_card]
            if (cs == ws and HC_RANK[card] < HC_RANK[win_card]) or (cs == trumps and ws != trumps):
                win_seat, win_card = seat, card
        points[win_seat] += pts
        tricks[win_seat] += 1
        leader = win_seat
    return points, tricks


# ---------------------------------------------------------------- measurements
def _bits(m):
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


def prepared_deals(game, count, seed):
    """`count` 501 deals played at random up to the first lead (annulled and abandoned
    deals skipped), with the seed each one's play phase is to use."""
    out = []
    i = 0
    while len(out) < count:
        rng = random.Random((seed << 32) ^ i)
        d = game.new_deal(3, i % 3)
        d.deal_random(rng)
        agent = RandomAgent(rng)
        while not d.is_terminal() and d.phase != PLAY:
            d.apply_action(agent.act(d))
        if d.phase == PLAY:
            out.append((d, (seed << 32) ^ i ^ 0x5EED))
        i += 1
    return out


def bench_play_phase(game, count, seed, repeat):
    """Deals per second of the play phase: engine (random agent), engine through the
    generic interface (legal_actions + choice), and the hand-coded baseline."""
    best = {"engine": 0.0, "engine_legal_actions": 0.0, "hand_coded": 0.0}
    for _ in range(repeat):
        deals = prepared_deals(game, count, seed)
        snaps = [({s: _bits(d.hands[s]) for s in d.active}, list(d.active), d.leader, d.trumps, ps)
                 for d, ps in deals]
        # Both sides start from freshly built copies of the same states.
        generic = [copy.deepcopy(d, {id(game): game}) for d, _ in deals]
        deals = [(copy.deepcopy(d, {id(game): game}), ps) for d, ps in deals]
        # The prepared deals are held in memory, which a simulation never does: keep the
        # collector from walking them again and again while either side is timed.
        gc.collect()
        gc.freeze()
        t = CLOCK()
        for hands, order, leader, trumps, ps in snaps:
            hand_coded_play(hands, order, leader, trumps, random.Random(ps))
        best["hand_coded"] = max(best["hand_coded"], count / (CLOCK() - t))
        t = CLOCK()
        for d, ps in deals:
            play_deal(d, RandomAgent(random.Random(ps)))
        best["engine"] = max(best["engine"], count / (CLOCK() - t))
        t = CLOCK()
        for d, (_, ps) in zip(generic, deals):
            rng = random.Random(ps)
            while not d.is_terminal():
                d.apply_action(rng.choice(d.legal_actions()))
        best["engine_legal_actions"] = max(best["engine_legal_actions"], count / (CLOCK() - t))
        gc.unfreeze()
        del deals, snaps, generic
    return best


def bench_spec(ref, hands, seed, repeat):
    game = load(ref)
    seats = game.seat_counts[0]
    best = 0.0
    for _ in range(repeat):
        gc.collect()
        t = CLOCK()
        run_chunk(ref, seats, seed, 0, hands)
        best = max(best, hands / (CLOCK() - t))
    return best


def bench_workers(ref, hands, seed, workers):
    game = load(ref)
    seats = game.seat_counts[0]
    out = {}
    for w in (1, workers):
        t = time.perf_counter()
        simulate(game, hands, seed, seats, progress=False, workers=w, spec_ref=ref)
        out[w] = hands / (time.perf_counter() - t)
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hands", type=int, default=20000, help="deals per measurement (default 20000)")
    p.add_argument("--repeat", type=int, default=3, help="best of this many runs (default 3)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=2, help="also time this many workers against one (default 2; 1 to skip)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args(argv)

    specs = sorted(str(q) for q in (ROOT / "specs").glob("*.talon"))
    names = {s: Path(s).stem for s in specs}
    per_spec = {}
    for s in specs:
        per_spec[names[s]] = bench_spec(s, args.hands, args.seed, args.repeat)
    game = load(str(ROOT / "specs" / "501.talon"))
    play = bench_play_phase(game, args.hands, args.seed, args.repeat)
    ratio = play["engine"] / play["hand_coded"]
    out = {
        "python": sys.version.split()[0],
        "hands": args.hands,
        "deals_per_second": {k: round(v) for k, v in per_spec.items()},
        "play_phase_per_second": {k: round(v) for k, v in play.items()},
        "play_phase_ratio": round(ratio, 3),
    }
    if args.workers > 1:
        w = bench_workers(str(ROOT / "specs" / "501.talon"), max(args.hands, 10000) * args.workers,
                          args.seed, args.workers)
        out["workers"] = {"cpus": os.cpu_count(), "load_average": round(os.getloadavg()[0], 2),
                          "deals_per_second": {str(k): round(v) for k, v in w.items()},
                          "speedup": round(w[args.workers] / w[1], 2)}
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"Python {out['python']}, {args.hands} deals per measurement, best of {args.repeat}, "
          f"one core (CPU time)\n")
    print(f"{'spec':<28} {'random deals/s':>14}")
    for k, v in out["deals_per_second"].items():
        print(f"{k:<28} {v:>14,}")
    pp = out["play_phase_per_second"]
    print(f"\n501 play phase (same deals, from the first lead to the score)")
    print(f"{'engine (random agent)':<28} {pp['engine']:>14,}")
    print(f"{'engine (legal_actions)':<28} {pp['engine_legal_actions']:>14,}")
    print(f"{'hand-coded Python':<28} {pp['hand_coded']:>14,}")
    print(f"{'ratio engine / hand-coded':<28} {out['play_phase_ratio']:>14.2f}")
    if "workers" in out:
        w = out["workers"]
        print(f"\n501 simulate, {w['cpus']} CPUs, wall-clock: " + ", ".join(
            f"{k} worker{'s' if k != '1' else ''} {v:,}/s" for k, v in w["deals_per_second"].items())
            + f"; speed-up {w['speedup']:.2f}x (load average {w['load_average']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
