"""Agents that choose actions. The random agent plays legal moves at random, with a
light hand in the auction (it passes often and raises by little) so that simulated
auctions look like auctions rather than a race to the largest number."""
from __future__ import annotations

import random

from .engine import AUCTION, CONTRACT, EXCHANGE, PLAY
from .engine.auction import Auction
from .engine.steps import Passing, pass_random


class RandomAgent:
    def __init__(self, rng: random.Random, pass_rate: float = 0.55, blind_rate: float = 0.2):
        self.rng = rng
        self.pass_rate = pass_rate
        self.blind_rate = blind_rate

    def act(self, deal) -> int:
        rng = self.rng
        if deal.phase == PLAY:
            return deal.random_play_action(rng)
        g = deal.game
        c = deal.codec
        s = deal.turn
        if deal.phase == AUCTION:
            if g.auction_kind == "exact":
                # a bid drawn from the range; only if the rules on bids refuse it, from the legal ones
                lo, hi, _ = Auction.bid_range(deal, s)
                if hi >= lo:
                    v = lo + rng._randbelow(hi - lo + 1)
                    if Auction.bid_ok(deal, s, v):
                        return c.number_bid(v)
                bids = list(Auction.bid_list(deal, s))
                return c.number_bid(bids[rng._randbelow(len(bids))]) if bids else c.PASS
            blind = g.blind and not deal.looked[s]
            go_blind = blind and rng.random() < self.blind_rate
            may_pass = Auction.may_pass(deal, s)
            if may_pass and rng.random() < self.pass_rate:
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
        if deal.phase == CONTRACT and g.contract_steps[deal.step][0] == "contract":
            st = g.contract_step
            v = deal.bid_value + st * min(int(rng.expovariate(0.5 * st)), 20)
            return c.contract(v)
        if deal.phase == EXCHANGE:
            # rng.choice(legal_actions()), without the list: the gives are sorted by card
            hand = deal.hands[s]
            r = rng._randbelow(hand.bit_count())
            while r:
                hand &= hand - 1
                r -= 1
            return c.give(Passing.target(deal, s), (hand & -hand).bit_length() - 1)
        if deal.phase == CONTRACT:
            # the declarer's trumps or gifts: rng.choice(legal_actions()) without the list
            # (ABANDON sorts first; gifts sort by defender, then card)
            step = g.contract_steps[deal.step]
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
        if deal.phase == CONTRACT and deal.abandon_open:
            if rng.random() < 0.05:
                return c.ABANDON
            acts = [a for a in acts if a != c.ABANDON]
        return acts[rng._randbelow(len(acts))]


def play_deal(deal, agents):
    """Play a dealt deal to its end with one agent per seat (or one for all)."""
    one = not isinstance(agents, (list, tuple, dict))
    fast = one and type(agents) is RandomAgent
    while not deal.is_terminal():
        if fast and deal.phase == PLAY:
            deal.play_random(agents.rng)      # the same actions as agents.act, faster
            continue
        if fast and deal.phase == EXCHANGE:
            pass_random(deal, agents.rng)
            continue
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
