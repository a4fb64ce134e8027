"""Agents that choose actions. The random agent plays legal moves at random, with a
light hand in the auction (it passes often and raises by little) so that simulated
auctions look like auctions rather than a race to the largest number."""
from __future__ import annotations

import random

from .engine import AUCTION, CONTRACT, DONE, EXCHANGE, PLAY
from .engine.auction import Auction
from .engine.steps import Passing, Steps, pass_random


class RandomAgent:
    def __init__(self, rng: random.Random, pass_rate: float = 0.55, blind_rate: float = 0.2):
        self.rng = rng
        self.pass_rate = pass_rate
        self.blind_rate = blind_rate

    def act(self, deal) -> int:
        ph = deal.phase
        if ph == PLAY:
            return deal.random_play_action(self.rng)
        if ph == AUCTION:
            return self.bid(deal, deal.turn)
        if ph == EXCHANGE:
            return self.give(deal, deal.turn)
        return self.step(deal)

    def bid(self, deal, s: int) -> int:
        """An auction action of seat s."""
        rng = self.rng
        g = deal.game
        c = deal.codec
        if g.auction_kind == "exact":
            # a bid drawn from the range; only if the rules on bids refuse it, from the legal ones
            lo, hi, _ = Auction.bid_range(deal, s)
            if hi >= lo:
                v = lo + rng._randbelow(hi - lo + 1)
                if Auction.bid_ok(deal, s, v):
                    return c.number_bid(v)
            bids = list(Auction.bid_list(deal, s))
            return c.number_bid(bids[rng._randbelow(len(bids))]) if bids else c.PASS
        go_blind = g.blind and not deal.looked[s] and rng.random() < self.blind_rate
        if Auction.may_pass(deal, s) and rng.random() < self.pass_rate:
            return c.PASS_BLIND if go_blind else c.PASS
        if g.auction_kind == "ladder":
            bids = Auction.ladder_bids(deal, s)
            if not bids:
                return c.PASS_BLIND if go_blind else c.PASS
            pick = bids[min(int(rng.expovariate(0.7)), len(bids) - 1)]
            return c.ladder_bid(pick, go_blind)
        lo, hi, step = Auction.bid_range(deal, s)
        for _ in range(20):
            v = lo + step * min(int(rng.expovariate(0.3 * step)), (hi - lo) // step)
            if Auction.bid_ok(deal, s, v):
                return c.number_bid(v, go_blind)
        bids = list(Auction.bid_list(deal, s))
        if bids:
            return c.number_bid(bids[0], go_blind)
        return c.PASS_BLIND if go_blind else c.PASS

    def give(self, deal, s: int) -> int:
        """A card passed face down: rng.choice(legal_actions()), without the list (the
        gives are sorted by card)."""
        hand = deal.hands[s]
        r = self.rng._randbelow(hand.bit_count())
        while r:
            hand &= hand - 1
            r -= 1
        return deal.codec.give(Passing.target(deal, s), (hand & -hand).bit_length() - 1)

    def step(self, deal) -> int:
        """The declarer's decision: the contract raised by little, else
        rng.choice(legal_actions()) (abandoning rarely), without the list where the
        choices are trumps or gifts (ABANDON sorts first; gifts by defender, then card)."""
        rng = self.rng
        g = deal.game
        c = deal.codec
        step = g.contract_steps[deal.step]
        if step[0] == "contract":
            st = g.contract_step
            return c.contract(deal.bid_value + st * min(int(rng.expovariate(0.5 * st)), 20))
        if step[0] in ("trumps", "give"):
            if deal.abandon_open and rng.random() < 0.05:
                return c.ABANDON
            if step[0] == "trumps":
                return c.TRUMPS + rng._randbelow(g.n_suits + (1 if step[1] else 0))
            hand = deal.hands[deal.declarer]
            n = hand.bit_count()
            todo = [t for t in sorted(deal.defenders) if deal.give_count.get(t, 0) < step[1]]
            if todo and n:
                r = rng._randbelow(len(todo) * n)
                t, r = todo[r // n], r % n
                while r:
                    hand &= hand - 1
                    r -= 1
                return c.give(t, (hand & -hand).bit_length() - 1)
            acts = deal.legal_actions()
            return acts[rng._randbelow(len(acts))]
        acts = deal.legal_actions()
        if deal.abandon_open:
            if rng.random() < 0.05:
                return c.ABANDON
            acts = [a for a in acts if a != c.ABANDON]
        return acts[rng._randbelow(len(acts))]

    def play_out(self, deal):
        """Play the deal to its end, every seat this agent: the same actions as
        ``act`` one at a time, each phase in a loop of its own."""
        rng = self.rng
        while deal.phase != DONE:
            ph = deal.phase
            if ph == PLAY:
                deal.play_random(rng)
            elif ph == EXCHANGE:
                pass_random(deal, rng)
            elif ph == AUCTION:
                Auction.run_random(deal, rng, self.pass_rate, self.blind_rate, self.bid)
            elif ph == CONTRACT:
                Steps.run_random(deal, rng, self.step)
            else:
                deal.apply_action(self.act(deal))


def play_deal(deal, agents):
    """Play a dealt deal to its end with one agent per seat (or one for all)."""
    one = not isinstance(agents, (list, tuple, dict))
    if one and type(agents) is RandomAgent:
        agents.play_out(deal)              # the same actions as agents.act, faster
        return deal
    while not deal.is_terminal():
        agent = agents if one else agents[deal.turn]
        deal.apply_action(agent.act(deal))
    return deal


def __getattr__(name):
    """The players with card sense live in their own modules (they need the solver,
    which this module does not): ``from talon_cards.agents import HeuristicAgent,
    PimcAgent`` loads them when asked for."""
    if name == "HeuristicAgent":
        from .heuristic import HeuristicAgent
        return HeuristicAgent
    if name == "PimcAgent":
        from .pimc import PimcAgent
        return PimcAgent
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
