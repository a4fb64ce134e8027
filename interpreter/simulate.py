"""Random-play simulation: deals (or whole games) with statistics accumulated as they
go, so memory stays flat however many deals are played."""
from __future__ import annotations

import math
import random
import sys
import time

from .agents import RandomAgent, play_deal
from .engine import Match
from .records import deal_record

NAMES = "ABCDEFGH"


def wilson(k: int, n: int, z: float = 1.96):
    """95% Wilson score interval for a proportion k/n."""
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


class Mean:
    __slots__ = ("n", "mean", "m2")

    def __init__(self):
        self.n, self.mean, self.m2 = 0, 0.0, 0.0

    def add(self, x):
        self.n += 1
        d = x - self.mean
        self.mean += d / self.n
        self.m2 += d * (x - self.mean)

    def ci(self):
        if self.n < 2:
            return (self.mean, self.mean)
        h = 1.96 * math.sqrt(self.m2 / (self.n - 1) / self.n)
        return (self.mean - h, self.mean + h)

    def to_json(self):
        lo, hi = self.ci()
        return {"n": self.n, "mean": round(self.mean, 3), "ci95": [round(lo, 3), round(hi, 3)]}


class Stats:
    def __init__(self, game, seats: int):
        self.game = game
        self.seats = seats
        self.deals = 0
        self.annulled = 0
        self.abandoned = 0
        self.conceded = 0
        self.contracts: dict = {}    # label -> [bid, made]
        self.role_delta = {"declarer": Mean(), "defender": Mean()}
        self.role_points = {"declarer": Mean(), "defender": Mean()}
        self.position_delta = [Mean() for _ in range(seats)]   # by seat position from the dealer's left
        self.blind_wins = 0

    def label(self, deal):
        g = self.game
        if g.auction_kind == "ladder":
            return g.ladder[deal.entry_index].name
        v = deal.contract_value
        lo = (v // 10) * 10
        return f"{lo}-{lo + 9}"

    def add(self, deal):
        self.deals += 1
        if deal.annulled:
            self.annulled += 1
            return
        key = self.label(deal)
        rec = self.contracts.setdefault(key, [0, 0])
        rec[0] += 1
        if deal.abandoned:
            self.abandoned += 1
        elif deal.made:
            rec[1] += 1
        if deal.conceded:
            self.conceded += 1
        if deal.declarer_blind:
            self.blind_wins += 1
        for s in deal.active:
            role = "declarer" if s in deal.declarers else "defender"
            self.role_delta[role].add(deal.deltas[s])
            if not deal.abandoned:
                self.role_points[role].add(deal.deal_points_of[s] if self.game.auction_kind == "numeric" else deal.tricks[s])
        for i, s in enumerate(deal.active):
            self.position_delta[i].add(deal.deltas[s])

    def to_json(self):
        def order(k):
            g = self.game
            if g.auction_kind == "ladder":
                return [c.name for c in g.ladder].index(k)
            return int(k.split("-")[0])
        rows = []
        for k in sorted(self.contracts, key=order):
            bid, made = self.contracts[k]
            lo, hi = wilson(made, bid)
            rows.append({"contract": k, "bid": bid, "made": made,
                         "made_rate": round(made / bid, 4) if bid else 0,
                         "ci95": [round(lo, 4), round(hi, 4)]})
        return {
            "spec": self.game.name, "seats": self.seats, "deals": self.deals,
            "annulled": self.annulled, "abandoned": self.abandoned, "conceded": self.conceded,
            "blind_declarers": self.blind_wins,
            "contracts": rows,
            "delta_by_role": {k: v.to_json() for k, v in self.role_delta.items()},
            ("points_by_role" if self.game.auction_kind == "numeric" else "tricks_by_role"):
                {k: v.to_json() for k, v in self.role_points.items()},
            "delta_by_position": {f"{i + 1} from dealer's left": m.to_json()
                                  for i, m in enumerate(self.position_delta) if m.n},
        }


class Progress:
    """A progress bar on stderr for runs longer than a second (only on a terminal)."""

    def __init__(self, total: int, enabled: bool | None = None):
        self.total = total
        self.start = time.time()
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.last = 0.0
        self.shown = False

    def update(self, done: int):
        if not self.enabled:
            return
        now = time.time()
        if now - self.start < 1.0 or now - self.last < 0.1:
            return
        self.last = now
        frac = done / self.total if self.total else 1
        bar = "#" * int(30 * frac)
        rate = done / (now - self.start)
        sys.stderr.write(f"\r[{bar:<30}] {done}/{self.total}  {rate:,.0f}/s ")
        sys.stderr.flush()
        self.shown = True

    def close(self):
        if self.shown:
            sys.stderr.write("\r" + " " * 70 + "\r")
            sys.stderr.flush()


def simulate(game, hands: int, seed: int, seats: int, records=None, progress=None, spec_ref=None):
    """Play `hands` deals of random legal play; return Stats. Deals are played as a
    running match (scores carry, the deal passes on; a new game starts when one ends).
    Each deal has its own seed derived from the run's seed."""
    stats = Stats(game, seats)
    names = list(NAMES[:seats])
    master = random.Random(seed)
    match = Match(game, seats, master.randrange(seats))
    prog = Progress(hands, progress)
    t0 = time.time()
    for i in range(hands):
        rng = random.Random((seed << 32) ^ i)
        deal = match.new_deal()
        deal.deal_random(rng)
        play_deal(deal, RandomAgent(rng))
        stats.add(deal)
        if records is not None:
            records(deal_record(deal, names, spec_ref or game.name))
        match.finish(deal)
        if match.game_over:
            match = Match(game, seats, master.randrange(seats))
        if i % 256 == 0:
            prog.update(i)
    prog.close()
    stats.seconds = time.time() - t0
    return stats
