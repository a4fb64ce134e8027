"""Deals one after another: scores and per-seat memory carry, the deal passes on (or
stays, where the spec says so), the end rule ends the game, the winners rule picks."""
from __future__ import annotations

from .env import EMPTY, Env


class Match:
    def __init__(self, game, n_seats: int, first_dealer: int = 0, scores=None, counters=None):
        if n_seats not in game.seat_counts:
            raise ValueError(f"{game.name} is played by {' or '.join(map(str, game.seat_counts))} seats, not {n_seats}")
        self.game = game
        self.n_seats = n_seats
        self.dealer = first_dealer
        self.scores = list(scores) if scores is not None else [game.start_score] * n_seats
        self.counters = {name: list(counters[name]) if counters and name in counters else [start] * n_seats
                         for name, start in game.counters}
        self.deals_played = 0
        self.game_over = False
        self.winners = []
        self.last = None

    def new_deal(self):
        return self.game.new_deal(self.n_seats, self.dealer, self.scores, self.deals_played + 1, self.counters)

    def finish(self, deal):
        """Record a finished deal: scores, memory, the next dealer, the end of the game."""
        g = self.game
        self.deals_played += 1
        self.scores = list(deal.scores)
        self.counters = {k: list(v) for k, v in deal.counters.items()}
        self.last = deal
        if g.game_end is not None and g.game_end(deal, EMPTY):
            self.game_over = True
            self.winners = self.pick_winners(deal)
        if not (deal.annulled and g.all_pass_same_dealer):
            self.dealer = (deal.dealer + g.direction) % self.n_seats

    def pick_winners(self, deal) -> list:
        g = self.game
        kind, f = g.winner_set
        env = Env()
        cand = []
        for s in deal.all_seats:
            env.seat = s
            if kind == "every" or f(deal, env):
                cand.append(s)
        for kind, f in g.winner_prefs:
            if kind == "declarer":
                narrowed = [s for s in cand if s == deal.declarer]
            else:
                vals = {}
                for s in cand:
                    env.seat = s
                    vals[s] = f(deal, env)
                if not vals:
                    continue
                best = (min if kind == "lowest" else max)(vals.values())
                narrowed = [s for s in cand if vals[s] == best]
            if narrowed:
                cand = narrowed
        return cand
