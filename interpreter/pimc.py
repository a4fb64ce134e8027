"""Perfect-information Monte Carlo: ``PimcAgent(rng, samples=…, time=…).act(deal)``.

In the play, the agent deals the cards it cannot see at random, consistently with
everything its seat has seen (``knowledge.Knowledge``: cards played, melds shown,
the talon or a turned card, cards it gave away, voids shown by the follow rules),
solves each such deal with the open-card solver (``solver.solve``, every legal action
valued for the seat's side), and plays the action whose average over the samples is
best; the heuristic's own choice breaks ties (several cards are often worth the same).

`samples` caps the deals drawn, and `time` (seconds) and `nodes` (positions searched)
the effort of one decision: when either is spent the agent decides on the samples
solved so far. It decides on samples only when at least `min_samples` (3) were solved,
else it plays as the heuristic would: an average of one or two deals is mostly noise.
Until that many are solved a sample may use only its share of the budget left, so a
position too large for the budget is given up after a third of it. A budget of
nodes keeps a seeded match the same on any machine; a budget of time does not.
Everything before the play (bids, the declarer's steps, passing cards) is left to the
heuristic (``HeuristicAgent``).
"""
from __future__ import annotations

import random
import time

from .engine import PLAY
from .heuristic import HeuristicAgent
from .knowledge import Knowledge
from .solver import Solver, Timeout


class PimcAgent:
    def __init__(self, rng: random.Random | None = None, samples: int = 16, time: float | None = 2.0,
                 nodes: int | None = None, heuristic: HeuristicAgent | None = None, min_samples: int = 3):
        self.rng = rng or random.Random(0)
        self.samples = samples
        self.min_samples = max(1, min(min_samples, samples))
        self.time = time
        self.nodes = nodes
        self.heuristic = heuristic or HeuristicAgent(self.rng)
        self.last = None          # (samples solved, {action: average}) of the last decision

    def act(self, deal) -> int:
        if deal.phase != PLAY:
            return self.heuristic.act(deal)
        acts = deal.legal_actions()
        if len(acts) == 1:
            return acts[0]
        seat = deal.turn
        deadline = None if self.time is None else time.perf_counter() + self.time
        nodes_left = self.nodes
        know = Knowledge(deal, seat)
        totals = {a: 0.0 for a in acts}
        solved = 0
        curve = None
        for _ in range(self.samples):
            left = None if deadline is None else deadline - time.perf_counter()
            if (left is not None and left <= 0) or (nodes_left is not None and nodes_left <= 0):
                break
            # until `min_samples` are solved, a sample may spend only its share of what is
            # left: one that needs more shows the budget cannot bring in enough of them
            share = max(1, self.min_samples - solved)
            cap_nodes = None if nodes_left is None else max(1, nodes_left // share)
            cap_time = None if left is None else left / share
            sample = know.sample(self.rng)
            if sample is None:
                continue
            solver = Solver(sample, seat, curve=curve)
            curve = solver.known_curve        # the same public state: worked out once
            try:
                sol = solver.solve(all_actions=True, time_limit=cap_time, max_nodes=cap_nodes)
            except Timeout:
                break
            if nodes_left is not None:
                nodes_left -= sol.nodes
            vals = sol.values
            if not all(a in vals for a in acts):
                continue              # a sample where the legal actions differ: skip it
            for a in acts:
                totals[a] += vals[a]
            solved += 1
        if solved < self.min_samples:
            self.last = (solved, {})
            return self.heuristic.act(deal)
        avg = {a: v / solved for a, v in totals.items()}
        self.last = (solved, avg)
        top = max(avg.values())
        best = [a for a in acts if avg[a] >= top - 1e-9]
        if len(best) == 1:
            return best[0]
        pick = self.heuristic.act(deal)
        return pick if pick in best else best[0]
