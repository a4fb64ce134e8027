"""Perfect-information Monte Carlo: ``PimcAgent(rng, samples=…, time=…).act(deal)``.

In the play, the agent deals the cards it cannot see at random, consistently with
everything its seat has seen (``knowledge.Knowledge``: cards played, melds shown,
the talon or a turned card, cards it gave away, voids shown by the follow rules),
solves each such deal with the open-card solver (``solver.solve``, every legal action
valued for the seat's side), and plays the action whose average over the samples is
best. Where the result turns on the side's tricks alone (the solver's trick search)
actions of equal average result are told apart by the side's average tricks on the
same samples (more, or fewer where the result falls with them): a contract made in
every sample is played for a trick to spare, one lost in every sample to lose by
the least, rather than any card at all (``tiebreak``). The heuristic's own choice
breaks the ties left (several cards are often worth the same).

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

from .engine import PLAY, bits
from .heuristic import HeuristicAgent
from .knowledge import Knowledge
from .solver import Solver, Timeout


class AuctionCheck:
    """How far a sampled deal disagrees with the auction as it went: the number of the
    other seats' bids and passes that `model` (an agent; the heuristic player by
    default), holding the sample's hands, would not have made. Works where each
    seat's hand in the auction can be read off the sample (``Knowledge.auction_hands``);
    elsewhere, and where the other seats made no bid or pass after looking at their
    cards, it has nothing to say (``active`` is False)."""

    def __init__(self, deal, seat: int, know: Knowledge, model=None):
        c = deal.codec
        self.deal = deal
        self.seat = seat
        self.know = know
        self.model = model or HeuristicAgent(random.Random(0))
        self.actions = deal.history[:know.auction_end]
        judged = 0
        for t, a in self.actions:
            if t != seat and c.kind(a) in ("bid", "pass") and not c.fields(a).get("blind"):
                judged += 1
        self.active = bool(judged) and know.hands_kept

    def _predict(self, r) -> int:
        bid = getattr(self.model, "bid", None)
        return bid(r) if bid is not None else self.model.act(r)

    def misfits(self, sample, stop: int | None = None) -> int:
        """The bids and passes of the other seats the model would have made otherwise
        with the sample's hands (counting stops at `stop`)."""
        d = self.deal
        g = d.game
        c = d.codec
        hands = self.know.auction_hands(sample)
        r = g.new_deal(d.n_seats, d.dealer, d.scores_before, d.deal_number, d.counters)
        r.set_cards({t: list(bits(h)) for t, h in hands.items()}, list(bits(sample.talon_dealt)),
                    sample.exposed_dealt, list(sample.stock))
        wrong = 0
        for t, a in self.actions:
            if (t != self.seat and r.turn == t and c.kind(a) in ("bid", "pass")
                    and not c.fields(a).get("blind") and self._predict(r) != a):
                wrong += 1
                if stop is not None and wrong >= stop:
                    return wrong
            r.apply_action(a)
        return wrong


class PimcAgent:
    def __init__(self, rng: random.Random | None = None, samples: int = 16, time: float | None = 2.0,
                 nodes: int | None = None, heuristic: HeuristicAgent | None = None, min_samples: int = 3,
                 tiebreak: bool = True, auction_tries: int = 1):
        self.rng = rng or random.Random(0)
        self.samples = samples
        self.min_samples = max(1, min(min_samples, samples))
        self.time = time
        self.nodes = nodes
        self.heuristic = heuristic or HeuristicAgent(self.rng)
        self.tiebreak = bool(tiebreak)
        self.auction_tries = max(0, int(auction_tries))
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
        check = None
        if self.auction_tries > 1:
            check = AuctionCheck(deal, seat, know, HeuristicAgent(random.Random(0)))
            if not check.active:
                check = None
        totals = {a: 0.0 for a in acts}
        solved = 0
        curve = None
        solvers = []
        for _ in range(self.samples):
            left = None if deadline is None else deadline - time.perf_counter()
            if (left is not None and left <= 0) or (nodes_left is not None and nodes_left <= 0):
                break
            # until `min_samples` are solved, a sample may spend only its share of what is
            # left: one that needs more shows the budget cannot bring in enough of them
            share = max(1, self.min_samples - solved)
            cap_nodes = None if nodes_left is None else max(1, nodes_left // share)
            cap_time = None if left is None else left / share
            sample = self._sample(know, check)
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
            solvers.append(solver)
        if solved < self.min_samples:
            self.last = (solved, {})
            return self.heuristic.act(deal)
        avg = {a: v / solved for a, v in totals.items()}
        self.last = (solved, avg)
        top = max(avg.values())
        best = [a for a in acts if avg[a] >= top - 1e-9]
        if len(best) > 1 and self.tiebreak:
            best = self._most_tricks(best, solvers, deadline, nodes_left)
        if len(best) == 1:
            return best[0]
        pick = self.heuristic.act(deal)
        return pick if pick in best else best[0]

    def _sample(self, know: Knowledge, check):
        """A sample of the hidden cards; with an auction check, the one of up to
        `auction_tries` samples that disagrees least with the auction."""
        if check is None:
            return know.sample(self.rng)
        best = None
        fewest = None
        for _ in range(self.auction_tries):
            s = know.sample(self.rng)
            if s is None:
                continue
            k = check.misfits(s, fewest)
            if fewest is None or k < fewest:
                best, fewest = s, k
                if k == 0:
                    break
        return best

    def _most_tricks(self, best, solvers, deadline, nodes_left) -> list:
        """Of actions with the same average result, those after which the seat's side
        takes the most tricks on average over the samples (the fewest where the result
        falls as the side takes more): a contract that is made, or lost, in every
        sample is then played for a trick to spare, or to lose by as little as may
        be, which is what leaves room for the others' mistakes. Only where the
        solver's trick search ran (the result a function of the side's tricks alone);
        on the samples the budget left allows, at least `min_samples` of them."""
        if not solvers or solvers[0].mode != "tricks":
            return best
        sign = 1 if solvers[0].search.maxers == solvers[0].search.side else -1
        sums = dict.fromkeys(best, 0)
        done = 0
        for solver in solvers:
            left = None if deadline is None else deadline - time.perf_counter()
            if (left is not None and left <= 0) or (nodes_left is not None and nodes_left <= 0):
                break
            n0 = solver.search.nodes
            try:
                got = solver.tricks(best, time_limit=left, max_nodes=nodes_left)
            except Timeout:
                break
            if nodes_left is not None:
                nodes_left -= solver.search.nodes - n0
            if not all(a in got for a in best):
                break             # an action the trick search does not play out (a concession)
            for a in best:
                sums[a] += got[a]
            done += 1
        if done < self.min_samples:
            return best
        top = max(sign * sums[a] for a in best)
        return [a for a in best if sign * sums[a] == top]
