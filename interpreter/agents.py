"""Agents that choose actions. The random agent plays legal moves at random, with a
light hand in the auction (it passes often and raises by little) so that simulated
auctions look like auctions rather than a race to the largest number."""
from __future__ import annotations

import random

from .engine import AUCTION, CONTRACT, PLAY, Deal


class RandomAgent:
    def __init__(self, rng: random.Random, pass_rate: float = 0.55, blind_rate: float = 0.2):
        self.rng = rng
        self.pass_rate = pass_rate
        self.blind_rate = blind_rate

    def act(self, deal: Deal) -> int:
        rng = self.rng
        if deal.phase == PLAY:
            return deal.random_play_action(rng)
        g = deal.game
        s = deal.turn
        if deal.phase == AUCTION:
            blind = g.blind and not deal.looked[s]
            go_blind = blind and rng.random() < self.blind_rate
            if rng.random() < self.pass_rate:
                return g.A_PASS_BLIND if go_blind else g.A_PASS
            if g.auction_kind == "ladder":
                bids = deal._bid_list(s)
                if not bids:
                    return g.A_PASS_BLIND if go_blind else g.A_PASS
                pick = bids[min(int(rng.expovariate(0.7)), len(bids) - 1)]
                return g.A_LADDER + 2 * pick + (1 if go_blind else 0)
            lo, hi = deal._bid_range(s)
            v = lo + min(int(rng.expovariate(0.3)), hi - lo)
            return g.A_NUMBER + 4 * v + (1 if go_blind else 0)
        if deal.phase == CONTRACT and g.contract_steps[deal.step][0] == "contract":
            v = deal.bid_value + min(int(rng.expovariate(0.5)), 20)
            return g.A_NUMBER + 4 * v + 2
        if deal.phase == CONTRACT and deal.abandon_open:
            acts = deal.legal_actions()
            if rng.random() < 0.05:
                return g.A_ABANDON
            acts = [a for a in acts if a != g.A_ABANDON]
            return rng.choice(acts)
        return rng.choice(deal.legal_actions())


def play_deal(deal: Deal, agents) -> Deal:
    """Play a dealt deal to its end with one agent per seat (or one for all)."""
    one = not isinstance(agents, (list, tuple, dict))
    fast = one and type(agents) is RandomAgent
    while not deal.is_terminal():
        if fast and deal.phase == PLAY:
            deal.play_random(agents.rng)      # the same actions as agents.act, faster
            continue
        agent = agents if one else agents[deal.turn]
        deal.apply_action(agent.act(deal))
    return deal
