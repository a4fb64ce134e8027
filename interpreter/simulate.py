"""Random-play simulation that answers questions about a spec.

Deals are independent by default: deal ``i`` of a run with seed ``S`` draws its dealer,
its cards and every random choice from ``random.Random((S << 32) ^ i)`` and starts from
the spec's start scores, as the first deal of a match would. With ``games`` whole
matches are played instead: game ``j`` draws its first dealer and the seed of each of
its deals from its own generator (see ``game_rng``). Either way a deal's or a game's
result depends on the run's seed and its own index only, so the work can be cut into
chunks and run on any number of processes (``workers``) or on a Dask cluster
(``backend="dask"``) with the same result, and the statistics, kept as exact integer
sums, merge to the same numbers in any order.

Statistics are accumulated (memory stays flat however many deals are played); records
are handed to a callback in deal order as they are produced. What is counted follows
what the spec declares, never a game's name: contracts and roles where an auction makes a
declarer; per seat position (and per side, with partners) score change, tricks and deal
points; bids made where every seat bids an exact number; how often each yes/no `let` of
the scoring holds; the deal's events (stock closed, deal ended early); per-seat counters;
and which way a score is good for the player, read from the winners rule.

``compare`` plays the same deals (same seeds, same agents) under two specs and pairs
the per-deal figures, so the difference a house rule makes comes with a confidence
interval that the deal-to-deal luck does not widen.
"""
from __future__ import annotations

import math
import os
import random
import sys
import time
from collections import Counter, OrderedDict, deque
from fractions import Fraction

from .agents import RandomAgent, play_deal
from .engine import Match
from .engine.env import Env
from .records import deal_record

NAMES = "ABCDEFGH"
Z95 = 1.959963984540054
DEFAULT_MAX_DEALS = 1000     # a game still running after this many deals is cut off
BAND = 10                    # numeric bids are grouped in bands of this width


# ------------------------------------------------------------------ seeds
def deal_rng(seed: int, i: int) -> random.Random:
    """The generator of independent deal ``i`` of a run. (`random.Random` seeds by the
    absolute value of an integer, so a negative seed gets a generator of its own.)"""
    if seed < 0:
        return random.Random(f"talon deal {seed} {i}")
    return random.Random((seed << 32) ^ i)


def game_rng(seed: int, j: int) -> random.Random:
    """The generator of game ``j`` of a run (its first dealer, then one seed per deal)."""
    return random.Random(f"talon game {seed} {j}")


# ------------------------------------------------------------------ statistics
def wilson(k: int, n: int, z: float = Z95):
    """95% Wilson score interval for a proportion k/n."""
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def newcombe(k1: int, n1: int, k2: int, n2: int):
    """95% interval of p2 - p1 for two independent proportions (Newcombe's hybrid
    score method, from the two Wilson intervals)."""
    if not n1 or not n2:
        return None
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p2 - p1
    lo = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    hi = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    return (lo, hi)


def _r(x, digits=4):
    return round(float(x), digits)


def rate_json(k: int, n: int) -> dict:
    lo, hi = wilson(k, n)
    return {"count": k, "of": n, "rate": _r(k / n) if n else 0.0, "ci95": [_r(lo), _r(hi)]}


class Acc:
    """Count, sum and sum of squares, kept exact (ints, or Fractions for non-integer
    values), so that merging in any order gives the same mean and interval."""
    __slots__ = ("n", "s", "ss")

    def __init__(self):
        self.n, self.s, self.ss = 0, 0, 0

    def add(self, x):
        if isinstance(x, float):
            x = Fraction(x)
        self.n += 1
        self.s += x
        self.ss += x * x

    def merge(self, o: "Acc"):
        self.n += o.n
        self.s += o.s
        self.ss += o.ss

    @property
    def mean(self) -> float:
        return float(Fraction(self.s) / self.n) if self.n else 0.0

    @property
    def var(self) -> float:
        if self.n < 2:
            return 0.0
        n = self.n
        return float(Fraction(n * self.ss - self.s * self.s) / (n * (n - 1)))

    def ci(self):
        m = self.mean
        h = Z95 * math.sqrt(self.var / self.n) if self.n > 1 else 0.0
        return (m - h, m + h)

    def to_json(self, digits: int = 3, div: int = 1) -> dict:
        """n, mean, sd and the interval of the mean (of the values divided by `div`)."""
        lo, hi = self.ci()
        return {"n": self.n, "mean": round(self.mean / div, digits), "sd": round(math.sqrt(self.var) / div, digits),
                "ci95": [round(lo / div, digits), round(hi / div, digits)]}


def _merge_counter(a: Counter, b: Counter):
    for k, v in b.items():
        a[k] += v


def position_label(p: int, seats: int) -> str:
    if p == 0:
        return "dealer"
    return "dealer's left" if p == 1 else f"dealer +{p}"


def bid_keys(game, deal) -> set:
    """The contracts (or bid bands) bid at least once in a deal's auction."""
    keys = set()
    c = game.codec
    lo_ladder, lo_number = c.LADDER, c.NUMBER
    if game.auction_kind not in ("numeric", "ladder"):
        return keys
    for _, a in deal.history:
        if lo_ladder <= a < lo_number:
            i = (a - lo_ladder) >> 1
            keys.add((i, game.ladder[i].name))
        elif a >= lo_number and (a - lo_number) & 3 in (0, 1):
            v = (a - lo_number) >> 2
            lo = (v // BAND) * BAND
            keys.add((lo, f"{lo}-{lo + BAND - 1}"))
    return keys


def contract_key(game, deal):
    """(order, label) of a deal's contract: the ladder entry, or the winning bid's band."""
    if game.auction_kind == "ladder":
        return (deal.entry_index, game.ladder[deal.entry_index].name)
    v = deal.bid_value
    lo = (v // BAND) * BAND
    return (lo, f"{lo}-{lo + BAND - 1}")


class Role:
    __slots__ = ("delta", "points", "tricks", "hist")

    def __init__(self):
        self.delta, self.points, self.tricks, self.hist = Acc(), Acc(), Acc(), Counter()

    def merge(self, o):
        self.delta.merge(o.delta)
        self.points.merge(o.points)
        self.tricks.merge(o.tricks)
        _merge_counter(self.hist, o.hist)


def acc_of(hist) -> Acc:
    """The exact count, sum and sum of squares of values kept as a histogram."""
    acc = Acc()
    for v, c in hist.items():
        if isinstance(v, float):
            v = Fraction(v)
        acc.n += c
        acc.s += v * c
        acc.ss += v * v * c
    return acc


class Position:
    """One seat position relative to the dealer: its score change (every deal), deal
    points and tricks (deals played), auctions won and made, and in exact auctions its
    bids and how many it made exactly. Values are kept as histograms (one dict update a
    seat and deal; the means and intervals are worked out from them, exactly)."""
    __slots__ = ("hist", "tricks_hist", "points_hist", "declarer", "made")

    def __init__(self):
        self.hist, self.tricks_hist, self.points_hist = Counter(), Counter(), Counter()
        self.declarer = self.made = 0

    delta = property(lambda self: acc_of(self.hist))
    tricks = property(lambda self: acc_of(self.tricks_hist))
    points = property(lambda self: acc_of(self.points_hist))

    def merge(self, o):
        for k in ("hist", "tricks_hist", "points_hist"):
            _merge_counter(getattr(self, k), getattr(o, k))
        self.declarer += o.declarer
        self.made += o.made


class Side:
    """A fixed partnership, by its seats' positions: histograms of the sum over its
    seats of the score change (every deal), and of the tricks and deal points (deals
    played)."""
    __slots__ = ("hist", "tricks_hist", "points_hist")

    def __init__(self):
        self.hist, self.tricks_hist, self.points_hist = Counter(), Counter(), Counter()

    delta = property(lambda self: acc_of(self.hist))
    tricks = property(lambda self: acc_of(self.tricks_hist))
    points = property(lambda self: acc_of(self.points_hist))

    def merge(self, o):
        for k in ("hist", "tricks_hist", "points_hist"):
            _merge_counter(getattr(self, k), getattr(o, k))


def better_words(better: str | None) -> str | None:
    """"higher is better" / "lower is better" (for the player), or None."""
    return f"{better} is better" if better else None


def score_direction(game, seats: int | None = None) -> str | None:
    """Which way a score is good for a player, read from the spec's winners rule:
    "higher", "lower", or None when the rule does not say. The rule's formulas are asked
    about a seat with a very high and with a very low score: the seats it picks
    (`seats with …`) decide; else the first `then the highest/lowest …` that moves
    with the score does."""
    n = seats or default_seats(game)
    big = 10 ** 9
    failed = (ArithmeticError, LookupError, TypeError, ValueError, AttributeError)
    try:
        hi, lo = game.new_deal(n, 0, [big] * n), game.new_deal(n, 0, [-big] * n)
    except failed:
        return None
    env = Env(seat=0)
    _, f = game.winner_set
    if f is not None:
        try:
            a, b = bool(f(hi, env)), bool(f(lo, env))
        except failed:
            a = b = False
        if a != b:
            return "higher" if a else "lower"
    for kind, f in game.winner_prefs:
        if kind not in ("highest", "lowest") or f is None:
            continue
        try:
            a, b = f(hi, env), f(lo, env)
        except failed:
            continue
        if a != b:
            return "higher" if (a > b) == (kind == "highest") else "lower"
    return None


def default_seats(game) -> int:
    """The seat count a spec is played by when none is asked for: its default, else the
    first it allows."""
    return game.default_seats or game.seat_counts[0]


def side_label(key) -> str:
    return " & ".join(position_label(p, 0) for p in key)


class Stats:
    """Everything a run counts, for one spec. Picklable, mergeable, order-free."""

    def __init__(self, spec: str, seats: int, has_points: bool = True, direction: int = 1,
                 better: str | None = None, dealer_sits_out: bool = False, has_declarer: bool = True,
                 exact: bool = False, partners: bool = False, lets=(), counters=(),
                 closes: bool = False, ends_early: bool = False):
        self.spec, self.seats, self.has_points, self.direction = spec, seats, has_points, direction
        self.better = better                        # "lower" or "higher" scores win, if the spec says
        self.dealer_sits_out = dealer_sits_out
        self.has_declarer, self.exact, self.partners = has_declarer, exact, partners
        self.closes, self.ends_early = closes, ends_early   # the spec can close the stock / end a deal early
        self.deals = 0
        self.annulled = self.abandoned = self.conceded = 0
        self.played = self.made = 0                 # deals played (with a declarer, where there is one); made
        self.blind = self.blind_made = 0
        self.contracts: dict = {}                   # (order, label) -> [played, made, Acc declarer delta]
        self.in_auction: Counter = Counter()        # (order, label) -> deals where it was bid at all
        self.role = {"declarer": Role(), "defender": Role()}
        self.position = [Position() for _ in range(seats)]
        self.sides: dict = {}                       # positions of a partnership -> Side
        self._cache: dict = {}                      # (dealer, sides) -> positions (see _positions)
        # events read from the deal
        self.closed = self.closer_gained = self.ended_early = 0
        # the scoring's yes/no `let`s: name -> [holds per position] (one slot for a single value)
        self.let_defs = tuple((name, bool(per_seat)) for name, per_seat in lets)
        self.let_hold = {name: [0] * (seats if ps else 1) for name, ps in self.let_defs}
        self.let_deals = 0                          # deals whose lets were worked out (not annulled)
        self.let_seats = [0] * seats                # … and their active seats, by position
        self.let_other: set = set()                 # lets seen with a value that is not yes/no
        # per-seat counters at the end of each deal
        self.counter_names = tuple(counters)
        self.counter_hist = {name: Counter() for name in self.counter_names}   # value -> seat-deals
        # exact auctions: (position, bid, tricks) -> seat-deals; deals whose bids add up to fewer,
        # exactly, more than the tricks; seat-deals and bids made by tricks in the deal
        self.bid_tricks: Counter = Counter()
        self.bid_totals = [0, 0, 0]
        self.size_n: Counter = Counter()
        self.size_made: Counter = Counter()
        # whole games
        self.games = self.games_over = 0
        self.length, self.length_hist = Acc(), Counter()
        self.spread = Acc()
        self.winner_position = [0] * seats          # wins (alone or shared) by position from the first dealer
        self.side_wins: Counter = Counter()         # partnerships: wins by the side's positions
        self.shared = self.no_winner = 0
        self.counter_ever = {name: [0] * seats for name in self.counter_names}   # seat-games > 0 at some point
        self.counter_ever_any = {name: 0 for name in self.counter_names}         # games where some seat's was
        self.seconds = 0.0

    # -------------------------------------------------------------- adding
    def _positions(self, deal):
        """Each seat's position relative to the dealer, the histograms a seat's figures
        go to, and each fixed side's (its Side and seats); cached by dealer and sides."""
        key = (deal.dealer, tuple(deal.sides) if self.partners else None)
        got = self._cache.get(key)
        if got is None:
            n, dealer, dirn = self.seats, deal.dealer, self.direction
            P = [((s - dealer) * dirn) % n for s in range(n)]
            pos = [self.position[p] for p in P]
            sides = []
            if self.partners:
                for side in deal.sides:
                    k = tuple(sorted(P[s] for s in side))
                    sd = self.sides.get(k)
                    if sd is None:
                        sd = self.sides[k] = Side()
                    sides.append((sd, side))
            got = self._cache[key] = (P, [q.hist for q in pos], [q.tricks_hist for q in pos],
                                      [q.points_hist for q in pos], sides)
        return got

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_cache"] = {}                        # references into the figures: rebuilt as needed
        return state

    def add(self, deal, game=None):
        """Count one finished deal."""
        game = game or deal.game
        self.deals += 1
        deltas = deal.deltas
        pos = self.position
        P, H, TH, PH, sides = self._positions(deal)
        for s, h in enumerate(H):
            h[deltas[s]] += 1
        if self.counter_names:
            counters = deal.counters
            for name in self.counter_names:
                h = self.counter_hist[name]
                for v in counters[name]:
                    h[v] += 1
        if deal.closed:
            self.closed += 1
            c = deal.closer
            if c >= 0 and (deltas[c] < 0 if self.better == "lower" else deltas[c] > 0):
                self.closer_gained += 1
        if deal.ended_early:
            self.ended_early += 1
        if self.has_declarer:
            for key in bid_keys(game, deal):
                self.in_auction[key] += 1
        for sd, side in sides:
            sd.hist[sum([deltas[s] for s in side])] += 1
        if deal.annulled or (self.has_declarer and deal.declarer < 0):
            self.annulled += 1
            return
        self.played += 1
        if deal.abandoned:
            self.abandoned += 1
        if deal.conceded:
            self.conceded += 1
        active = deal.active
        if self.has_declarer:
            self._add_contract(deal, game, P)
        if not deal.abandoned:
            dp, tr = deal.deal_points_of, deal.tricks
            for s in active:
                TH[s][tr[s]] += 1
            if self.has_points:
                for s in active:
                    PH[s][dp[s]] += 1
            for sd, side in sides:
                sd.tricks_hist[sum([tr[s] for s in side])] += 1
                if self.has_points:
                    sd.points_hist[sum([dp[s] for s in side])] += 1
        lets = deal.lets
        if lets and self.let_defs:
            self.let_deals += 1
            seats_n = self.let_seats
            for s in active:
                seats_n[P[s]] += 1
            for name, per_seat in self.let_defs:
                v = lets.get(name)
                if v is None:
                    continue
                hold = self.let_hold[name]
                if per_seat:
                    if v[active[0]].__class__ is not bool:
                        self.let_other.add(name)
                        continue
                    for s in active:
                        if v[s]:
                            hold[P[s]] += 1
                elif v.__class__ is not bool:
                    self.let_other.add(name)
                elif v:
                    hold[0] += 1
        if self.exact:
            bids, tricks = deal.bids, deal.tricks
            tb = tt = made = k = 0
            bt = self.bid_tricks
            for s in active:
                b = bids[s]
                t = tricks[s]
                tt += t
                if b is None:
                    continue
                k += 1
                tb += b
                made += b == t
                bt[(P[s], b, t)] += 1
            if k:
                self.bid_totals[(tb > tt) - (tb < tt) + 1] += 1
                self.size_n[tt] += k
                self.size_made[tt] += made

    def _add_contract(self, deal, game, P):
        deltas = deal.deltas
        key = contract_key(game, deal)
        row = self.contracts.get(key)
        if row is None:
            row = self.contracts[key] = [0, 0, Acc()]
        row[0] += 1
        made = bool(deal.made) and not deal.abandoned and not deal.conceded
        if made:
            row[1] += 1
            self.made += 1
        row[2].add(deltas[deal.declarer])
        if deal.declarer_blind:
            self.blind += 1
            self.blind_made += made
        p = self.position[P[deal.declarer]]
        p.declarer += 1
        p.made += made
        declarers = deal.declarers
        for s in deal.active:
            r = self.role["declarer" if s in declarers else "defender"]
            d = deltas[s]
            r.delta.add(d)
            r.hist[d] += 1
            if not deal.abandoned:
                r.points.add(deal.deal_points_of[s])
                r.tricks.add(deal.tricks[s])

    def add_game(self, match, first_dealer: int, deals: int, ever=None):
        """Count one game: its length, how it ended, its winners (by position from the
        first dealer), and `ever`: {counter: [was it above 0 at some point, per seat]}."""
        n, dirn = self.seats, self.direction
        self.games += 1
        self.games_over += bool(match.game_over)
        self.length.add(deals)
        self.length_hist[deals] += 1
        self.spread.add(max(match.scores) - min(match.scores))
        if match.game_over:
            winners = match.winners
            if not winners:
                self.no_winner += 1
            last = match.last
            if self.partners and last is not None:
                won = {tuple(sorted(last.side_of.get(w, (w,)))) for w in winners}
                for side in won:
                    self.side_wins[tuple(sorted(((s - first_dealer) * dirn) % n for s in side))] += 1
                self.shared += len(won) > 1
            else:
                self.shared += len(winners) > 1
            for w in winners:
                self.winner_position[((w - first_dealer) * dirn) % n] += 1
        if ever:
            for name, arr in ever.items():
                row = self.counter_ever[name]
                for s, x in enumerate(arr):
                    if x:
                        row[((s - first_dealer) * dirn) % n] += 1
                self.counter_ever_any[name] += any(arr)

    def merge(self, o: "Stats"):
        for k in ("deals", "annulled", "abandoned", "conceded", "played", "made", "blind", "blind_made",
                  "games", "games_over", "shared", "no_winner", "closed", "closer_gained", "ended_early"):
            setattr(self, k, getattr(self, k) + getattr(o, k))
        _merge_counter(self.in_auction, o.in_auction)
        for key, (b, m, acc) in o.contracts.items():
            row = self.contracts.get(key)
            if row is None:
                row = self.contracts[key] = [0, 0, Acc()]
            row[0] += b
            row[1] += m
            row[2].merge(acc)
        for k in self.role:
            self.role[k].merge(o.role[k])
        for p, q in zip(self.position, o.position):
            p.merge(q)
        for key, sd in o.sides.items():
            mine = self.sides.get(key)
            if mine is None:
                mine = self.sides[key] = Side()
            mine.merge(sd)
        for name in self.let_hold:
            self.let_hold[name] = [a + b for a, b in zip(self.let_hold[name], o.let_hold[name])]
        self.let_other |= o.let_other
        self.let_deals += o.let_deals
        self.let_seats = [a + b for a, b in zip(self.let_seats, o.let_seats)]
        for name in self.counter_names:
            _merge_counter(self.counter_hist[name], o.counter_hist[name])
            self.counter_ever[name] = [a + b for a, b in zip(self.counter_ever[name], o.counter_ever[name])]
            self.counter_ever_any[name] += o.counter_ever_any[name]
        _merge_counter(self.bid_tricks, o.bid_tricks)
        self.bid_totals = [a + b for a, b in zip(self.bid_totals, o.bid_totals)]
        _merge_counter(self.size_n, o.size_n)
        _merge_counter(self.size_made, o.size_made)
        self.length.merge(o.length)
        _merge_counter(self.length_hist, o.length_hist)
        self.spread.merge(o.spread)
        self.winner_position = [a + b for a, b in zip(self.winner_position, o.winner_position)]
        _merge_counter(self.side_wins, o.side_wins)

    # -------------------------------------------------------------- reporting
    def score_json(self, acc: Acc, div: int = 1) -> dict:
        """A score change (mean, sd, interval) with the way it is good for the player."""
        return {**acc.to_json(div=div), "better": better_words(self.better)}

    def contract_rows(self) -> list:
        rows = []
        for key in sorted(set(self.contracts) | set(self.in_auction)):
            played, made, acc = self.contracts.get(key) or (0, 0, Acc())
            lo, hi = wilson(made, played)
            rows.append({"contract": key[1], "bid": self.in_auction.get(key, 0),
                         "played": played, "played_rate": _r(played / self.deals) if self.deals else 0.0,
                         "made": made, "made_rate": _r(made / played) if played else 0.0,
                         "ci95": [_r(lo), _r(hi)], "declarer_score_change": self.score_json(acc)})
        return rows

    def yes_no_lets(self) -> list:
        """The scoring's `let`s that were yes/no whenever they were worked out."""
        return [(name, ps) for name, ps in self.let_defs
                if name not in self.let_other and self.let_deals]

    def let_of(self, name: str) -> int:
        """How many times a let was worked out: deals, or seat-deals for a per-seat let."""
        return sum(self.let_seats) if dict(self.let_defs)[name] else self.let_deals

    def event_rows(self) -> list:
        """How often the spec's yes/no lets hold, and the events read from the deal."""
        rows = []
        for name, ps in self.yes_no_lets():
            rows.append({"event": name, "let": name, "counted_over": "seat-deals" if ps else "deals",
                         **rate_json(sum(self.let_hold[name]), self.let_of(name))})
        if self.closes or self.closed:
            rows.append({"event": "stock closed", "let": None, "counted_over": "deals",
                         **rate_json(self.closed, self.deals)})
            sign = "<" if self.better == "lower" else ">"
            rows.append({"event": f"closer's score change {sign} 0", "let": None, "counted_over": "closed deals",
                         **rate_json(self.closer_gained, self.closed)})
        if self.ends_early or self.ended_early:
            rows.append({"event": "deal ended early", "let": None, "counted_over": "deals",
                         **rate_json(self.ended_early, self.deals)})
        if not self.has_declarer:
            for label, k, of, n in (("annulled", self.annulled, "deals", self.deals),
                                    ("abandoned", self.abandoned, "deals played", self.played),
                                    ("conceded", self.conceded, "deals played", self.played)):
                if k:
                    rows.append({"event": label, "let": None, "counted_over": of, **rate_json(k, n)})
        return rows

    def bid_json(self) -> dict:
        """Exact auctions: how often a seat makes its bid (tricks = bid), and each bid
        against the tricks taken."""
        cross = Counter()
        for (_, b, t), c in self.bid_tricks.items():
            cross[(b, t)] += c
        total = sum(cross.values())
        made = sum(c for (b, t), c in cross.items() if b == t)
        rows = []
        for b in sorted({b for b, _ in cross}):
            hist = {t: c for (bb, t), c in sorted(cross.items()) if bb == b}
            n = sum(hist.values())
            acc = Acc()
            acc.n, acc.s, acc.ss = n, sum(t * c for t, c in hist.items()), sum(t * t * c for t, c in hist.items())
            rows.append({"bid": b, "seat_deals": n, "of_bids": _r(n / total),
                         "tricks_taken": acc.to_json(),
                         "bid_made": rate_json(hist.get(b, 0), n),
                         "over": rate_json(sum(c for t, c in hist.items() if t > b), n),
                         "under": rate_json(sum(c for t, c in hist.items() if t < b), n),
                         "tricks": {str(t): c for t, c in hist.items()}})
        deals = sum(self.bid_totals)
        return {"seat_deals": total, "bid_made": rate_json(made, total), "by_bid": rows,
                "bids_add_up_to": {"fewer_than_the_tricks": rate_json(self.bid_totals[0], deals),
                                   "the_tricks": rate_json(self.bid_totals[1], deals),
                                   "more_than_the_tricks": rate_json(self.bid_totals[2], deals)},
                "by_tricks_in_the_deal": [{"tricks_in_the_deal": k, "seat_deals": self.size_n[k],
                                           "bid_made": rate_json(self.size_made[k], self.size_n[k])}
                                          for k in sorted(self.size_n)]}

    def to_json(self) -> dict:
        n = self.deals
        lets = self.yes_no_lets()
        seat_lets = [name for name, ps in lets if ps]
        positions = []
        for i, p in enumerate(self.position):
            row = {"position": position_label(i, self.seats) + (" (sits out)" if i == 0 and self.dealer_sits_out else ""),
                   "offset": i, "score_change": self.score_json(p.delta), "tricks": p.tricks.to_json()}
            if self.has_points:
                row["points"] = p.points.to_json()
            if self.has_declarer:
                row["declarer"] = rate_json(p.declarer, n)
                row["made"] = rate_json(p.made, p.declarer)
            if self.exact:
                bid, made = self._bids_at(i)
                row["bid"] = bid.to_json()
                row["bid_made"] = rate_json(made, bid.n)
            if seat_lets:
                row["lets"] = {name: rate_json(self.let_hold[name][i], self.let_seats[i]) for name in seat_lets}
            positions.append(row)
        out = {
            "spec": self.spec, "seats": self.seats, "deals": n, "has_points": self.has_points,
            "has_declarer": self.has_declarer, "exact_bids": self.exact, "partners": self.partners,
            "better_scores": self.better, "better": better_words(self.better),
            "annulled": self.annulled, "abandoned": self.abandoned, "conceded": self.conceded,
            "played": self.played, "made": self.made, "won_blind": self.blind,
            "rates": {
                "annulled": rate_json(self.annulled, n),
                "abandoned": rate_json(self.abandoned, self.played),
                "conceded": rate_json(self.conceded, self.played),
                "made": rate_json(self.made, self.played),
                "won_blind": rate_json(self.blind, self.played),
                "made_when_won_blind": rate_json(self.blind_made, self.blind),
            },
            "contracts": self.contract_rows(),
            "by_position": positions,
            "all_seats": self._all_seats(seat_lets),
            "events": self.event_rows(),
            "counters": [self._counter_json(name) for name in self.counter_names],
            "histograms": {
                "score_change_by_position": {position_label(i, self.seats): {str(v): c for v, c in sorted(p.hist.items())}
                                             for i, p in enumerate(self.position)},
                "tricks": {str(v): c for v, c in sorted(self._tricks_hist().items())},
            },
        }
        if self.has_declarer:
            out["by_role"] = {k: {"seat_deals": r.delta.n, "score_change": self.score_json(r.delta),
                                  "points": r.points.to_json(), "tricks": r.tricks.to_json()}
                              for k, r in self.role.items()}
            out["histograms"]["score_change_by_role"] = {k: {str(v): c for v, c in sorted(r.hist.items())}
                                                         for k, r in self.role.items()}
        if self.partners:
            out["by_side"] = [{"side": side_label(key), "positions": list(key), "deals": sd.delta.n,
                               "score_change": self.score_json(sd.delta, len(key)),
                               "tricks": sd.tricks.to_json(),
                               **({"points": sd.points.to_json()} if self.has_points else {})}
                              for key, sd in sorted(self.sides.items())]
        if self.exact:
            out["bids"] = self.bid_json()
        if self.games:
            g = self.games
            out["games"] = {
                "games": g, "finished": self.games_over, "cut_off": g - self.games_over,
                "one_winner": self.games_over - self.shared - self.no_winner,
                "shared_wins": self.shared, "no_winner": self.no_winner,
                "length": self.length.to_json(),
                "spread": self.spread.to_json(),
                "winner_by_position": [{"position": position_label(i, self.seats), "offset": i,
                                        **rate_json(w, self.games_over)}
                                       for i, w in enumerate(self.winner_position)],
                "counters": [{"counter": name, "games": rate_json(self.counter_ever_any[name], g),
                              "seat_games": rate_json(sum(self.counter_ever[name]), g * self.seats)}
                             for name in self.counter_names],
            }
            if self.partners:
                out["games"]["winner_by_side"] = [{"side": side_label(key), "positions": list(key),
                                                   **rate_json(self.side_wins.get(key, 0), self.games_over)}
                                                  for key in sorted(set(self.sides) | set(self.side_wins))]
            out["histograms"]["match_length"] = {str(k): v for k, v in sorted(self.length_hist.items())}
        return out

    def _counter_json(self, name: str) -> dict:
        h = self.counter_hist[name]
        acc = acc_of(h)
        return {"counter": name, "seat_deals": acc.n,
                "above_zero": rate_json(sum(c for v, c in h.items() if v > 0), acc.n), "mean": acc.to_json()}

    def _bids_at(self, position):
        """The bids of a seat position (None: of every seat) and how many were made."""
        hist, made = Counter(), 0
        for (p, b, t), c in self.bid_tricks.items():
            if position is None or p == position:
                hist[b] += c
                made += c if b == t else 0
        return acc_of(hist), made

    def _tricks_hist(self) -> Counter:
        out = Counter()
        for p in self.position:
            _merge_counter(out, p.tricks_hist)
        return out

    def _all(self, field: str) -> Acc:
        acc = Acc()
        for p in self.position:
            acc.merge(getattr(p, field))
        return acc

    def _all_seats(self, seat_lets) -> dict:
        """The by_position figures over every seat position together."""
        out = {"position": "every seat", "score_change": self.score_json(self._all("delta")),
               "tricks": self._all("tricks").to_json()}
        if self.has_points:
            out["points"] = self._all("points").to_json()
        if self.exact:
            bid, made = self._bids_at(None)
            out["bid"] = bid.to_json()
            out["bid_made"] = rate_json(made, bid.n)
        if seat_lets:
            out["lets"] = {name: rate_json(sum(self.let_hold[name]), self.let_of(name)) for name in seat_lets}
        return out


# ------------------------------------------------------------------ paired figures
RATE_FIGURES = ("annulled", "abandoned", "made", "stock closed", "deal ended early", "bid made")


def figure_kind(name: str) -> str:
    """A paired figure is a rate (shown as a percentage), a score change, or a plain
    mean (points, tricks, deals)."""
    if name in RATE_FIGURES or name.startswith(("`", "bid made, ", "closer's score change")):
        return "rate"
    return "score" if "score change" in name else "mean"


def deal_figures(deal, seats: int, direction: int, better: str | None = None) -> dict:
    """The per-deal figures compared between two specs (None where undefined)."""
    g = deal.game
    f = {}
    P = [((s - deal.dealer) * direction) % seats for s in range(seats)]
    played = not deal.annulled
    if g.has_declarer:
        declared = played and deal.declarer >= 0
        f["annulled"] = int(deal.annulled)
        f["abandoned"] = int(deal.abandoned) if declared else None
        if declared:
            f["made"] = int(bool(deal.made) and not deal.abandoned and not deal.conceded)
            f[("contract",) + contract_key(g, deal)] = f["made"]
            f["declarer score change"] = deal.deltas[deal.declarer]
            dfs = deal.defenders
            f["defender score change"] = Fraction(sum(deal.deltas[s] for s in dfs), len(dfs)) if dfs else None
            if not deal.abandoned:
                f["declarer points"] = deal.deal_points_of[deal.declarer]
                f["declarer tricks"] = deal.tricks[deal.declarer]
    for s in sorted(range(seats), key=P.__getitem__):
        f[f"score change, {position_label(P[s], seats)}"] = deal.deltas[s]
    if g.partners:
        for side in sorted(deal.sides, key=lambda side: min(P[s] for s in side)):
            key = tuple(sorted(P[s] for s in side))
            f[f"score change, side {side_label(key)}"] = Fraction(sum(deal.deltas[s] for s in side), len(side))
    if not played:
        return f
    active = sorted(deal.active, key=P.__getitem__)
    if not g.has_declarer and not deal.abandoned and (any(g.card_points) or g.melds):
        for s in active:
            f[f"points, {position_label(P[s], seats)}"] = deal.deal_points_of[s]
    if g.auction_kind == "exact":
        bidders = [s for s in active if deal.bids[s] is not None]
        if bidders:
            f["bid made"] = Fraction(sum(deal.bids[s] == deal.tricks[s] for s in bidders), len(bidders))
            for s in bidders:
                f[f"bid made, {position_label(P[s], seats)}"] = int(deal.bids[s] == deal.tricks[s])
    if g.close is not None:
        f["stock closed"] = int(deal.closed)
        if deal.closed and deal.closer >= 0:
            d = deal.deltas[deal.closer]
            f[f"closer's score change {'<' if better == 'lower' else '>'} 0"] = int(d < 0 if better == "lower" else d > 0)
    if g.deal_ends is not None:
        f["deal ended early"] = int(deal.ended_early)
    lets = deal.lets
    for name, _, per_seat in g.lets:
        v = lets.get(name)
        if v is None:
            continue
        if not per_seat:
            if v is True or v is False:
                f[f"`{name}` holds"] = int(v)
            continue
        for s in active:
            x = v[s]
            if x is True or x is False:
                f[f"`{name}` holds, {position_label(P[s], seats)}"] = int(x)
    return f


class Paired:
    """Per figure: the base values, the variant values and their differences, over
    the deals (or games) where the figure is defined under both specs."""

    def __init__(self):
        self.figures: dict = {}          # name -> [order, Acc base, Acc variant, Acc diff]

    def add(self, a: dict, b: dict):
        for k, x in a.items():
            y = b.get(k)
            if x is None or y is None:
                continue
            row = self.figures.get(k)
            if row is None:
                row = self.figures[k] = [len(self.figures), Acc(), Acc(), Acc()]
            row[1].add(x)
            row[2].add(y)
            row[3].add(y - x if not isinstance(x, float) else Fraction(y) - Fraction(x))

    def merge(self, o: "Paired"):
        for k, (order, a, b, d) in o.figures.items():
            row = self.figures.get(k)
            if row is None:
                row = self.figures[k] = [order, Acc(), Acc(), Acc()]
            row[1].merge(a)
            row[2].merge(b)
            row[3].merge(d)

    def contracts(self) -> dict:
        """(order, label) -> paired made-rate figures, over the deals that reached that
        contract under both specs."""
        out = {}
        for k, (_, a, b, d) in self.figures.items():
            if isinstance(k, tuple):
                lo, hi = d.ci()
                out[k[1:]] = {"n": d.n, "base": round(a.mean, 4), "variant": round(b.mean, 4),
                              "difference": round(d.mean, 4), "ci95": [round(lo, 4), round(hi, 4)]}
        return out

    def to_json(self, better: str | None = None) -> list:
        """The figures in a fixed order (whatever the chunks saw first), each with its
        kind and, for a score change, which way is good for the player."""
        out = []
        for k in sorted((k for k in self.figures if not isinstance(k, tuple)), key=figure_rank):
            _, a, b, d = self.figures[k]
            lo, hi = d.ci()
            kind = figure_kind(k)
            out.append({"figure": k, "kind": kind, "n": d.n, "base": round(a.mean, 4), "variant": round(b.mean, 4),
                        "difference": round(d.mean, 4), "ci95": [round(lo, 4), round(hi, 4)],
                        "better": better_words(better) if kind == "score" else None})
        return out


FIGURE_GROUPS = ("annulled", "abandoned", "made", "declarer score change", "defender score change",
                 "declarer points", "declarer tricks", "score change, ", "score change, side ", "points, ",
                 "bid made", "bid made, ", "stock closed", "closer's score change ", "deal ended early", "`",
                 "deals in the game", "final score spread")


def figure_rank(name: str):
    """A paired figure's place in the table: by its group, then by the seat position it
    names (dealer, dealer's left, dealer +2 …), then by name."""
    group = max((i for i, g in enumerate(FIGURE_GROUPS)
                 if name == g or (g.endswith((" ", "`")) and name.startswith(g))),
                default=len(FIGURE_GROUPS), key=lambda i: len(FIGURE_GROUPS[i]))
    tail = name.rsplit(", ", 1)[-1] if ", " in name else ""
    if tail.startswith("side "):
        tail = tail[5:].split(" & ")[0]
    at = {"dealer": 0, "dealer's left": 1}.get(tail)
    if at is None and tail.startswith("dealer +") and tail[8:].isdigit():
        at = int(tail[8:])
    lead = name.split(", ")[0] if name.startswith("`") else ""
    return (group, lead, at if at is not None else -1, name)


# ------------------------------------------------------------------ the work
_GAMES: "OrderedDict" = OrderedDict()   # the games loaded in this process, most recent last
MAX_GAMES = 32                          # kept at most (the least recently used goes first)


def _remember(ref: str, game):
    _GAMES[ref] = game
    _GAMES.move_to_end(ref)
    while len(_GAMES) > MAX_GAMES:
        _GAMES.popitem(last=False)


def _game(ref: str):
    g = _GAMES.get(ref)
    if g is None:
        from .spec import load
        g = load(ref)
    _remember(ref, g)
    return g


def _new_stats(game, seats):
    return Stats(game.name, seats, has_points=any(game.card_points) or bool(game.melds),
                 direction=game.direction, better=score_direction(game, seats),
                 dealer_sits_out=bool(game.sit_out_when) and game.sit_out_when == seats,
                 has_declarer=game.has_declarer, exact=game.auction_kind == "exact",
                 partners=game.partners, lets=[(name, ps) for name, _, ps in game.lets],
                 counters=[name for name, _ in game.counters],
                 closes=game.close is not None, ends_early=game.deal_ends is not None)


def _players(agents, rng, seats):
    """The deal's players: random play on the deal's own generator (the default), or
    one agent per seat (``arena.agent_texts``), each on a stream drawn from the deal's
    generator after the cards are dealt, so a deal's play depends on the run's seed
    and its own index only, whatever the number of workers."""
    if agents is None:
        return RandomAgent(rng)
    from .arena import seat_agents
    return seat_agents(agents, rng, seats)


def _play_one(game, seats, rng, dealer, scores=None, deal_number=1, agents=None):
    deal = game.new_deal(seats, dealer, scores, deal_number)
    deal.deal_random(rng)
    play_deal(deal, _players(agents, rng, seats))
    return deal


def deal_difference(a, b) -> int:
    """How much two plays of one deal differ: the sum over the seats of the difference
    of their score changes."""
    return sum(abs(x - y) for x, y in zip(a.deltas, b.deltas))


class Showcase:
    """The `n` deals of a comparison whose results differ most (``deal_difference``),
    each with its record under both specs; kept as the deals are played, so memory
    holds `n` deals however many are played. Ties go to the earlier deal."""

    def __init__(self, n: int):
        self.n = n
        self.items = []             # (difference, deal index, base record, variant record)
        self.floor = None           # the n-th largest difference kept so far (once n are kept)

    def wants(self, diff: int) -> bool:
        """Whether a later deal with this difference could be among the n (a deal
        played alike under both specs never is)."""
        return diff > 0 and (self.floor is None or diff > self.floor)

    def add(self, diff: int, i: int, rec_a, rec_b):
        self.items.append((diff, i, rec_a, rec_b))
        if len(self.items) > 2 * self.n + 16:
            self._trim()

    def _trim(self):
        self.items.sort(key=lambda t: (-t[0], t[1]))
        del self.items[self.n:]
        if len(self.items) >= self.n:
            self.floor = self.items[-1][0]

    def merge(self, o: "Showcase"):
        self.items.extend(o.items)
        self._trim()

    def top(self) -> list:
        self._trim()
        return list(self.items)


def run_chunk(refs, seats: int, seed: int, start: int, stop: int, games: bool = False,
              records=None, max_deals: int = DEFAULT_MAX_DEALS, agents=None, show: int = 0):
    """Play deals (or games) ``start .. stop-1`` of a run under each spec in ``refs``
    (one spec, or two to compare). ``records`` is None, or the spec reference to write
    in the records of the first spec. ``agents``: None (random play) or one agent
    description per seat (``arena.agent_texts``). ``show``: with two specs and
    independent deals, keep the `show` deals that differ most (a ``Showcase``, put in
    place of the records). Returns (stats per spec, Paired or None, records)."""
    if isinstance(refs, str):
        refs = (refs,)
    gms = [_game(r) for r in refs]
    stats = [_new_stats(g, seats) for g in gms]
    paired = Paired() if len(gms) == 2 else None
    pairs_games = Paired() if len(gms) == 2 and games else None
    recs = [] if records is not None else None
    names = list(NAMES[:seats])
    showcase = Showcase(show) if show and paired is not None and not games else None
    for i in range(start, stop):
        if not games:
            figs = []
            played = []
            for k, g in enumerate(gms):
                rng = deal_rng(seed, i)
                deal = _play_one(g, seats, rng, rng.randrange(seats), agents=agents)
                stats[k].add(deal, g)
                if paired is not None:
                    figs.append(deal_figures(deal, seats, g.direction, stats[k].better))
                if recs is not None and k == 0:
                    recs.append(deal_record(deal, names, records))
                if showcase is not None:
                    played.append(deal)
            if paired is not None:
                paired.add(*figs)
            if showcase is not None:
                diff = deal_difference(*played)
                if showcase.wants(diff):
                    showcase.add(diff, i, *(deal_record(d, names, "") for d in played))
            continue
        gfigs = []
        for k, g in enumerate(gms):
            grng = game_rng(seed, i)
            first = grng.randrange(seats)
            match = Match(g, seats, first)
            start_scores = list(match.scores)
            dealt = []
            figs = []
            ever = {name: [False] * seats for name, _ in g.counters}    # counters above 0 at some point
            while not match.game_over and match.deals_played < max_deals:
                rng = random.Random(grng.getrandbits(64))
                deal = match.new_deal()
                deal.deal_random(rng)
                play_deal(deal, _players(agents, rng, seats))
                stats[k].add(deal, g)
                for name, row in ever.items():
                    for s, v in enumerate(deal.counters[name]):
                        if v > 0:
                            row[s] = True
                if paired is not None:
                    figs.append(deal_figures(deal, seats, g.direction, stats[k].better))
                if recs is not None and k == 0:
                    dealt.append(deal_record(deal, names))
                match.finish(deal)
            stats[k].add_game(match, first, match.deals_played, ever)
            gfigs.append(({"deals in the game": match.deals_played,
                           "final score spread": max(match.scores) - min(match.scores)}, figs))
            if recs is not None and k == 0:
                recs.append({"spec": records, "seats": names,
                             "scores": dict(zip(names, start_scores)), "deals": dealt})
        if paired is not None:
            # Deals of the same game pair up while both games last.
            for a, b in zip(gfigs[0][1], gfigs[1][1]):
                paired.add(a, b)
            pairs_games.add(gfigs[0][0], gfigs[1][0])
    if pairs_games is not None:
        paired.merge(pairs_games)
    if showcase is not None:
        recs = showcase
    return stats, paired, recs


# ------------------------------------------------------------------ running chunks
def _chunks(total: int, size: int):
    """The (start, stop) of each chunk, made as they are needed: memory stays flat
    however many deals are asked for."""
    for a in range(0, total, size):
        yield a, min(total, a + size)


def _run(refs, seats, seed, total, games, records_ref, max_deals, workers, backend, scheduler,
         progress, chunk, agents=None, show=0):
    """Run the chunks, in order, on the chosen backend; yield each chunk's result."""
    most = (250 if records_ref is not None else 1000) if not games else 20    # records wait in memory
    if agents is not None:          # slower players: smaller chunks keep the progress bar moving
        most = 2 if any(str(a).startswith("pimc") for a in agents) else max(1, most // 10)
    size = chunk or max(1, min(most, total // (8 * max(1, workers)) or 1))
    tasks = ((refs, seats, seed, a, b, games, records_ref, max_deals, agents, show)
             for a, b in _chunks(total, size))
    prog = Progress(total, progress)
    if backend == "dask":
        from .errors import TalonError
        try:
            from dask.distributed import Client
        except ImportError:
            raise TalonError("the dask backend needs dask and distributed: pip install 'talon[dask]'")
        if isinstance(scheduler, str) or scheduler is None:
            try:
                client = Client(scheduler, timeout="10s") if scheduler else Client()
            except (OSError, TimeoutError, ValueError) as e:
                where = f"the Dask scheduler at {scheduler}" if scheduler else "a local Dask cluster"
                raise TalonError(f"cannot reach {where}: {e}")
        else:
            client = scheduler
        try:
            window = 2 * max(1, sum(client.nthreads().values()))
            submit = lambda t: _Future(client.submit(run_chunk, *t, pure=False))
            for t, res in _window(submit, tasks, window):
                prog.update(t[4])
                yield res
        finally:
            if isinstance(scheduler, str) or scheduler is None:
                client.close()
            prog.close()
        return
    if workers <= 1:
        try:
            for t in tasks:
                res = run_chunk(*t)
                prog.update(t[4])
                yield res
        finally:
            prog.close()
        return
    import multiprocessing
    for r in refs:
        _game(r)                 # loaded once here; forked workers inherit it
    # Workers ignore Ctrl-C: the main process alone stops the run and terminates them (a
    # worker interrupted while holding the task queue's lock could hang the termination).
    pool = multiprocessing.get_context().Pool(workers, initializer=_ignore_interrupts)
    try:
        submit = lambda t: pool.apply_async(run_chunk, t)
        for t, res in _window(submit, tasks, 4 * workers):
            prog.update(t[4])
            yield res
        pool.close()
    finally:
        pool.terminate()
        pool.join()
        prog.close()


def _ignore_interrupts():
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class _Future:
    def __init__(self, f):
        self.f = f

    def get(self):
        return self.f.result()


def _window(submit, tasks, window: int):
    """Submit tasks (an iterable, consumed as it goes) with at most `window` outstanding;
    yield (task, result) in task order."""
    pending = deque()
    for t in tasks:
        pending.append((t, submit(t)))
        if len(pending) >= window:
            t0, f = pending.popleft()
            yield t0, f.get()
    while pending:
        t0, f = pending.popleft()
        yield t0, f.get()


def simulate(game, hands: int, seed: int, seats: int | None = None, records=None, progress=None, spec_ref=None,
             games: int | None = None, workers: int = 1, backend: str = "local", scheduler=None,
             max_deals: int = DEFAULT_MAX_DEALS, chunk: int | None = None, agents=None) -> Stats:
    """Play `hands` independent deals (or `games` whole matches) at random; return the
    merged Stats. `records`, if given, is called with each hand record (a deal record,
    or a game record with `games`) in order. `spec_ref` is how records name the spec
    and how workers load it (default: the game's path). `agents`: None (random play)
    or one agent description per seat (``arena.agent_texts``)."""
    key = _key(spec_ref or game.path or game.name)
    _remember(key, game)
    seats = seats or default_seats(game)
    total = games if games else hands
    stats = _new_stats(game, seats)
    t0 = time.time()
    rec_ref = (spec_ref or game.name) if records is not None else None
    for st, _, recs in _run((key,), seats, seed, total, bool(games), rec_ref,
                            max_deals, workers, backend, scheduler, progress, chunk, agents):
        stats.merge(st[0])
        if recs:
            for rec in recs:
                records(rec)
    stats.seconds = time.time() - t0
    return stats


def compare(base, variant, hands: int, seed: int, seats: int | None = None, progress=None, base_ref=None,
            variant_ref=None, games: int | None = None, workers: int = 1, backend: str = "local",
            scheduler=None, max_deals: int = DEFAULT_MAX_DEALS, chunk: int | None = None,
            agents=None, show: int = 0):
    """Play the same deals (or games) under two specs; return (base Stats, variant
    Stats, Paired), and with `show` a fourth: the `show` deals whose results differ
    most, as (difference, deal index, base record, variant record), largest first."""
    keys = []
    for g, r in ((base, base_ref), (variant, variant_ref)):
        k = _key(r or g.path or g.name)
        _remember(k, g)
        keys.append(k)
    seats = seats or default_seats(base)
    total = games if games else hands
    sa, sb = _new_stats(base, seats), _new_stats(variant, seats)
    paired = Paired()
    showcase = Showcase(show) if show else None
    t0 = time.time()
    for st, pr, sc in _run(tuple(keys), seats, seed, total, bool(games), None, max_deals, workers,
                           backend, scheduler, progress, chunk, agents, show if not games else 0):
        sa.merge(st[0])
        sb.merge(st[1])
        paired.merge(pr)
        if showcase is not None and sc is not None:
            showcase.merge(sc)
    sa.seconds = sb.seconds = time.time() - t0
    if show:
        return sa, sb, paired, showcase.top()
    return sa, sb, paired


def _key(ref: str) -> str:
    """A spec reference that loads the same spec from another process or machine: a
    bundled name as it is, a file as an absolute path."""
    import os
    from pathlib import Path
    ref = str(ref)
    if "/" not in ref and os.sep not in ref and not ref.endswith(".talon"):
        return ref
    try:
        return str(Path(ref).resolve())
    except OSError:
        return ref


def compare_json(sa: Stats, sb: Stats, paired: Paired) -> dict:
    """The comparison as one JSON object: both summaries, the paired figures, and the
    contract rows side by side with the difference of their rates."""
    a, b = sa.to_json(), sb.to_json()
    rows = {}
    for side, st in (("base", sa), ("variant", sb)):
        for key, (played, made, _) in st.contracts.items():
            rows.setdefault(key, {"base": (0, 0), "variant": (0, 0)})[side] = (played, made)
    contracts = []
    pc = paired.contracts()
    for key in sorted(set(rows) | set(pc)):
        rows.setdefault(key, {"base": (0, 0), "variant": (0, 0)})
        (b1, m1), (b2, m2) = rows[key]["base"], rows[key]["variant"]
        ci = newcombe(m1, b1, m2, b2)
        share = newcombe(b1, sa.deals, b2, sb.deals)
        contracts.append({
            "contract": key[1],
            "base": {"played": b1, "made": m1, "made_rate": _r(m1 / b1) if b1 else None},
            "variant": {"played": b2, "made": m2, "made_rate": _r(m2 / b2) if b2 else None},
            "made_rate_difference": _r(m2 / b2 - m1 / b1) if b1 and b2 else None,
            "ci95": [_r(ci[0]), _r(ci[1])] if ci else None,
            "played_rate_difference": _r(b2 / sb.deals - b1 / sa.deals) if sa.deals and sb.deals else None,
            "played_rate_ci95": [_r(share[0]), _r(share[1])] if share else None,
            "paired": pc.get(key),
        })
    better = sa.better if sa.better == sb.better else None
    return {"base": a, "variant": b, "better": better_words(better), "paired": paired.to_json(better),
            "contracts": contracts}


# ------------------------------------------------------------------ progress
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


# ------------------------------------------------------------------ tables
PAIRED_MIN = 30


from .report import table as _table  # noqa: E402


def _pct(x) -> str:
    return f"{100 * x:.1f}%"


def _pci(ci) -> str:
    return f"{100 * ci[0]:.1f}–{100 * ci[1]:.1f}%"


def _nci(ci, sign=True) -> str:
    f = "+.2f" if sign else ".2f"
    return f"{ci[0]:{f}} … {ci[1]:{f}}"


def _score_head(d: dict, what: str = "score change") -> str:
    """A score column's header, saying which way is good for the player."""
    return f"{what} ({d['better']})" if d.get("better") else what


def _mci(m: dict, f: str = ".2f") -> list:
    """A mean and its interval, as two cells ("-" when nothing was counted)."""
    if not m["n"]:
        return ["-", ""]
    return [f"{m['mean']:{f}}", f"{m['ci95'][0]:{f}} … {m['ci95'][1]:{f}}"]


def _rci(x: dict) -> list:
    """A rate and its interval, as two cells."""
    return [_pct(x["rate"]), _pci(x["ci95"])] if x["of"] else ["-", ""]


def render_stats(d: dict) -> str:
    """The summary of `simulate` as tables a card player can read."""
    head = (f"{d['spec']}: {d['games']['games']} games ({d['deals']} deals)" if "games" in d
            else f"{d['spec']}: {d['deals']} independent deals")
    out = [f"{head}, {d['seats']} seats, seed {d['seed']}, {d.get('players') or 'random play'}"]
    if d.get("better_scores"):
        out.append(f"scores: {d['better']} for the player (the winners rule prefers {d['better_scores']} scores: "
                   f"a score change is {'good when negative' if d['better_scores'] == 'lower' else 'good when positive'})")
    out.append("")
    has_points = d.get("has_points", True)
    seat_lets = [name for name in (d["by_position"][0].get("lets") or {})
                 if any(p["lets"][name]["count"] for p in d["by_position"])]
    if d.get("has_declarer", True):
        out += _render_contracts(d, has_points, seat_lets)
    else:
        if d["annulled"]:
            out.append(f"deals played: {d['played']} of {d['deals']} ({d['annulled']} annulled)")
            out.append("")
        rows = []
        for p in d["by_position"] + [d["all_seats"]]:
            row = [p["position"], *_mci(p["score_change"], "+.2f"), *_mci(p["tricks"])]
            row += _mci(p["points"], ".1f") if has_points else []
            if d.get("exact_bids"):
                row += [f"{p['bid']['mean']:.2f}" if p["bid"]["n"] else "-", *_rci(p["bid_made"])]
            row += [_pct(p["lets"][n]["rate"]) for n in seat_lets]
            rows.append(row)
        heads = ["seat position", _score_head(d), "95% CI", "tricks", "95% CI"]
        heads += ["points", "95% CI"] if has_points else []
        heads += ["mean bid", "bid made", "95% CI"] if d.get("exact_bids") else []
        heads += seat_lets
        out.append("per seat and deal" + (" (points: the spec's deal points)" if has_points else "")
                   + (", bid made: tricks = bid" if d.get("exact_bids") else "")
                   + (f"; {', '.join(seat_lets)}: how often each holds" if seat_lets else ""))
        out.append(_table(heads, rows))
        out.append("")
    if d.get("by_side"):
        rows = [[s["side"], *_mci(s["score_change"], "+.2f"), *_mci(s["tricks"])] + (_mci(s["points"], ".1f") if has_points else [])
                for s in d["by_side"]]
        out.append("per side and deal (score change per seat of the side; tricks and points of the side together)")
        out.append(_table(["side", _score_head(d), "95% CI", "tricks", "95% CI"]
                          + (["points", "95% CI"] if has_points else []), rows))
        out.append("")
    if d.get("bids"):
        out += _render_bids(d["bids"])
    if d.get("events"):
        rows = [[e["event"] + (" (let)" if e["let"] else ""), e["count"], f"{e['of']} {e['counted_over']}", *_rci(e)]
                for e in d["events"]]
        out.append("how often (the spec's yes/no lets, and what happened in the deal)")
        out.append(_table(["event", "count", "of", "rate", "95% CI"], rows))
        out.append("")
    if d.get("counters"):
        rows = [[c["counter"], c["seat_deals"], c["above_zero"]["count"], *_rci(c["above_zero"]),
                 f"{c['mean']['mean']:.2f}"] for c in d["counters"]]
        out.append("counters kept by each seat, at the end of each deal")
        out.append(_table(["counter", "seat-deals", "> 0", "rate", "95% CI", "mean"], rows))
        out.append("")
    if "games" in d:
        out += _render_games(d)
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out)


def _render_contracts(d: dict, has_points: bool, seat_lets: list) -> list:
    out = []
    r = d["rates"]
    rows = [["annulled (no contract)", d["annulled"], "all deals", _pct(r["annulled"]["rate"]), _pci(r["annulled"]["ci95"])],
            ["played", d["played"], "all deals", _pct(d["played"] / d["deals"]) if d["deals"] else "-", ""]]
    for key, label in (("made", "made"), ("abandoned", "abandoned"), ("conceded", "conceded"),
                       ("won_blind", "won blind")):
        x = r[key]
        if key in ("abandoned", "conceded", "won_blind") and not x["count"]:
            continue
        rows.append([label, x["count"], "played", _pct(x["rate"]), _pci(x["ci95"])])
    if r["won_blind"]["count"]:
        x = r["made_when_won_blind"]
        rows.append(["made when won blind", x["count"], "won blind", _pct(x["rate"]), _pci(x["ci95"])])
    out.append(_table(["outcome", "deals", "of", "rate", "95% CI"], rows))
    out.append("")
    rows = [[c["contract"], c["bid"], c["played"], _pct(c["played_rate"]), c["made"],
             _pct(c["made_rate"]) if c["played"] else "-", _pci(c["ci95"]) if c["played"] else "",
             f"{c['declarer_score_change']['mean']:+.1f}" if c["played"] else ""] for c in d["contracts"]]
    out.append(_table(["contract", "bid in auction", "played", "of deals", "made", "made %", "95% CI",
                       _score_head(d, "declarer change")], rows))
    out.append("")
    rows = []
    for role, m in d["by_role"].items():
        sc = m["score_change"]
        row = [role, m["seat_deals"], f"{sc['mean']:+.2f}", _nci(sc["ci95"])]
        row += [f"{m['points']['mean']:.1f}"] if has_points else []
        rows.append(row + [f"{m['tricks']['mean']:.2f}"])
    heads = ["role", "seat-deals", _score_head(d), "95% CI"] + (["points"] if has_points else []) + ["tricks"]
    out.append(_table(heads, rows))
    out.append("")
    rows = []
    for p in d["by_position"]:
        sc = p["score_change"]
        row = [p["position"], f"{sc['mean']:+.2f}", _nci(sc["ci95"]), _pct(p["declarer"]["rate"]),
               _pct(p["made"]["rate"]) if p["made"]["of"] else "-"]
        row += [f"{p['points']['mean']:.1f}" if p["points"]["n"] else "-"] if has_points else []
        row += [_pct(p["lets"][n]["rate"]) for n in seat_lets]
        rows.append(row)
    heads = ["seat position", _score_head(d), "95% CI", "declarer", "made"] + (["points"] if has_points else [])
    out.append(_table(heads + seat_lets, rows))
    out.append("")
    return out


def _render_bids(b: dict) -> list:
    out = []
    m = b["bid_made"]
    out.append(f"bids made exactly (tricks = bid): {m['count']} of {m['of']} seat-deals, {_pct(m['rate'])} "
               f"(95% CI {_pci(m['ci95'])})")
    rows = [[r["bid"], r["seat_deals"], _pct(r["of_bids"]), f"{r['tricks_taken']['mean']:.2f}",
             r["bid_made"]["count"], *_rci(r["bid_made"]), _pct(r["over"]["rate"]), _pct(r["under"]["rate"])]
            for r in b["by_bid"]]
    out.append(_table(["bid", "seat-deals", "of bids", "tricks taken", "bid made", "made %", "95% CI",
                       "over (more tricks)", "under (fewer)"], rows))
    out.append("")
    t = b["bids_add_up_to"]
    rows = [[label, t[k]["count"], *_rci(t[k])] for k, label in
            (("fewer_than_the_tricks", "fewer than the tricks"), ("the_tricks", "exactly the tricks"),
             ("more_than_the_tricks", "more than the tricks"))]
    out.append(_table(["the bids of a deal add up to", "deals", "rate", "95% CI"], rows))
    out.append("")
    if len(b["by_tricks_in_the_deal"]) > 1:
        rows = [[r["tricks_in_the_deal"], r["seat_deals"], r["bid_made"]["count"], *_rci(r["bid_made"])]
                for r in b["by_tricks_in_the_deal"]]
        out.append(_table(["tricks in the deal", "seat-deals", "bid made", "made %", "95% CI"], rows))
        out.append("")
    return out


def _render_games(d: dict) -> list:
    g = d["games"]
    out = []
    L, S = g["length"], g["spread"]
    how = [f"one winner {g['one_winner']}", f"shared wins {g['shared_wins']}"]
    how += [f"no winner {g['no_winner']}"] if g["no_winner"] else []
    out.append(f"games: {g['games']}, finished by the end rule {g['finished']} ({', '.join(how)}), "
               f"cut off {g['cut_off']}")
    out.append(f"deals per game: mean {L['mean']:.1f} (95% CI {_nci(L['ci95'], False)}), sd {L['sd']:.1f}")
    out.append(f"final score spread (highest - lowest): mean {S['mean']:.1f} (95% CI {_nci(S['ci95'], False)})")
    out.append("")
    if g.get("winner_by_side"):
        rows = [[w["side"], w["count"], *_rci(w)] for w in g["winner_by_side"]]
        out.append(_table(["winning side (from the first dealer)", "wins", "of finished", "95% CI"], rows))
    else:
        rows = [[w["position"], w["count"], *_rci(w)] for w in g["winner_by_position"]]
        out.append(_table(["winner's seat (from the first dealer)", "wins", "of finished", "95% CI"], rows))
    if g.get("counters"):
        out.append("")
        rows = [[c["counter"], c["games"]["count"], *_rci(c["games"]), c["seat_games"]["count"], *_rci(c["seat_games"])]
                for c in g["counters"]]
        out.append(_table(["counter above 0 during a game", "games", "rate", "95% CI", "seat-games", "rate",
                           "95% CI"], rows))
    return out


def _fig(name: str, x: float) -> str:
    kind = figure_kind(name)
    return _pct(x) if kind == "rate" else f"{x:+.2f}" if kind == "score" else f"{x:.2f}"


def _dfig(name: str, x: float) -> str:
    return f"{100 * x:+.1f} pts" if figure_kind(name) == "rate" else f"{x:+.2f}"


def render_compare(d: dict) -> str:
    a, b = d["base"], d["variant"]
    what = f"{a['games']['games']} games" if "games" in a else f"{a['deals']} deals"
    out = [f"{a['spec']} (base) vs {b['spec']} (variant): the same {what} under both, "
           f"{a['seats']} seats, seed {d['seed']}, {d.get('players') or 'random play'}"]
    if d.get("better"):
        out.append(f"scores: {d['better']} for the player (from the winners rule of both specs)")
    elif a.get("better") or b.get("better"):
        out.append(f"scores: {a.get('better') or 'no preference'} under the base spec, "
                   f"{b.get('better') or 'no preference'} under the variant")
    out.append("")
    rows = []
    for p in d["paired"]:
        k = p["figure"]
        lo, hi = p["ci95"]
        label = f"{k} ({p['better']})" if p.get("better") else k
        rows.append([label, p["n"], _fig(k, p["base"]), _fig(k, p["variant"]), _dfig(k, p["difference"]),
                     f"{_dfig(k, lo)} … {_dfig(k, hi)}"])
    out.append("paired figures (each deal or game compared with itself; `name` holds: how often the spec's let holds)")
    out.append(_table(["figure", "n", "base", "variant", "difference", "95% CI"], rows))
    if not d["contracts"]:
        return "\n".join(out)
    out.append("")
    rows = []
    for c in d["contracts"]:
        row = [c["contract"], c["base"]["played"], _pct(c["base"]["made_rate"]) if c["base"]["played"] else "-",
               c["variant"]["played"], _pct(c["variant"]["made_rate"]) if c["variant"]["played"] else "-"]
        p = c["paired"]
        # A paired interval needs enough pairs to mean anything (the normal
        # approximation); below that the independent-samples interval is shown.
        full = p and p["n"] == c["base"]["played"] == c["variant"]["played"] and p["n"] >= PAIRED_MIN
        if full:
            row += [f"{100 * p['difference']:+.1f} pts", f"{100 * p['ci95'][0]:+.1f} … {100 * p['ci95'][1]:+.1f}",
                    p["n"]]
        else:
            row += [f"{100 * c['made_rate_difference']:+.1f} pts" if c["made_rate_difference"] is not None else "-",
                    f"{100 * c['ci95'][0]:+.1f} … {100 * c['ci95'][1]:+.1f}" if c["ci95"] else "-",
                    "-"]
        rows.append(row)
    out.append(f"contracts: made rate (paired over the deals that reached the contract under both specs,\n"
               f"where there are at least {PAIRED_MIN}; otherwise compared as independent samples)")
    out.append(_table(["contract", "base played", "base made", "variant played", "variant made",
                       "difference", "95% CI", "paired on"], rows))
    return "\n".join(out)


# ------------------------------------------------------------------ plots
def _plot_formats() -> dict | None:
    """The file formats matplotlib writes ({extension: description}), or None without
    matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError:
        return None
    return FigureCanvasBase.get_supported_filetypes()


def plot_problem(path: str, protect=()) -> str | None:
    """Why `--plot PATH` cannot be drawn, checked before any deal is played: matplotlib
    is missing, the extension is not a format it writes (the file written is exactly
    PATH, never PATH.png), or PATH cannot be written. None when all is well."""
    from .records import output_problem
    formats = _plot_formats()
    if formats is None:
        return "--plot needs matplotlib: pip install 'talon[plot]'"
    ext = os.path.splitext(path)[1].lower().lstrip(".")
    known = ", ".join(f".{k}" for k in sorted(formats))
    if not ext:
        return f"--plot {path}: give a file name ending in its format, such as .png, .svg or .pdf"
    if ext not in formats:
        return f"--plot {path}: cannot draw .{ext} files; use one of {known}"
    return output_problem(path, protect)


def plot(path: str, runs: list, protect=()):
    """Draw the main distributions of one run, or of two runs side by side
    (`runs`: [(label, summary dict)]): the score change per deal (by role where the game
    has a declarer); the contracts made by bid level, or in exact auctions the bids made
    by bid, or else how often the spec's yes/no lets and the deal's events happen (the
    tricks per seat and deal when there are none); and match length (games) or the score
    change by seat position (deals). Score axes say which way is good for the player.
    The file is exactly `path`, in the format its extension names, written whole or not
    at all."""
    from .records import AtomicWriter, OutputError
    problem = plot_problem(path, protect)
    if problem:
        raise OutputError(problem)
    import matplotlib.pyplot as plt
    games = all("games" in d for _, d in runs)
    fig, axes = plt.subplots(1, 3, figsize=(16, 4.8))
    colours = ["tab:blue", "tab:orange"]
    styles = {"declarer": "-", "defender": "--"}
    better = next((d["better"] for _, d in runs if d.get("better")), None)
    score = f"score change ({better})" if better else "score change"

    def bins(hists, most=60):
        keys = [int(k) for h in hists for k in h]
        if not keys:
            return 1
        lo, hi = min(keys), max(keys)
        step = max(1, math.ceil((hi - lo + 1) / most))
        return [lo - 0.5 + step * i for i in range((hi - lo) // step + 2)]

    def pooled(d):
        out = Counter()
        for h in d["histograms"]["score_change_by_position"].values():
            for k, v in h.items():
                out[k] += v
        return {"every seat": dict(out)}

    def score_hists(d):
        return d["histograms"]["score_change_by_role"] if d.get("has_declarer", True) else pooled(d)

    def rate_bars(ax, rows_of, title, ylabel):
        """Bars with 95% intervals: rows_of(d) -> [(label, rate, (lo, hi))]."""
        labels = []
        for _, d in runs:
            for lab, _, _ in rows_of(d):
                if lab not in labels:
                    labels.append(lab)
        width = 0.8 / len(runs)
        for k, ((label, d), col) in enumerate(zip(runs, colours)):
            rows = {lab: (y, ci) for lab, y, ci in rows_of(d)}
            xs, ys, err = [], [], [[], []]
            for i, lab in enumerate(labels):
                if lab not in rows:
                    continue
                y, ci = rows[lab]
                xs.append(i + (k - (len(runs) - 1) / 2) * width)
                ys.append(y)
                err[0].append(max(0.0, y - ci[0]))
                err[1].append(max(0.0, ci[1] - y))
            ax.bar(xs, ys, width, yerr=err, color=col, capsize=3, label=label)
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(labels, rotation=45, ha="right", fontsize=8)
        ax.set_title(title)
        ax.set_ylabel(ylabel)

    ax = axes[0]
    edges = bins([h for _, d in runs for h in score_hists(d).values()])
    for (label, d), col in zip(runs, colours):
        for role, hist in score_hists(d).items():
            if not hist:
                continue
            xs = [int(k) for k in hist]
            total = sum(hist.values())
            ax.hist(xs, bins=edges, weights=[hist[k] / total for k in hist], histtype="step",
                    linestyle=styles.get(role, "-"), color=col, label=f"{label}: {role}")
    declarer = all(d.get("has_declarer", True) for _, d in runs)
    ax.set_title("score change per deal" + (", by role" if declarer else ", every seat"))
    ax.set_xlabel(score)
    ax.set_ylabel("share of seat-deals")
    ax.legend(fontsize=8)
    ax = axes[1]
    if declarer:
        rate_bars(ax, lambda d: [(c["contract"], c["made_rate"], c["ci95"]) for c in d["contracts"] if c["played"]],
                  "contract made, by bid (95% CI)", "made rate")
    elif all(d.get("bids") for _, d in runs):
        rate_bars(ax, lambda d: [(str(r["bid"]), r["bid_made"]["rate"], r["bid_made"]["ci95"])
                                 for r in d["bids"]["by_bid"]],
                  "bid made (tricks = bid), by bid (95% CI)", "share of the seats bidding it")
    elif any(d.get("events") for _, d in runs):
        rate_bars(ax, lambda d: [(e["event"], e["rate"], e["ci95"]) for e in d.get("events", [])],
                  "how often (95% CI)", "rate")
    else:
        edges = bins([d["histograms"]["tricks"] for _, d in runs], 30)
        for (label, d), col in zip(runs, colours):
            h = d["histograms"]["tricks"]
            total = sum(h.values()) or 1
            ax.hist([int(k) for k in h], bins=edges, weights=[v / total for v in h.values()], histtype="step",
                    color=col, label=label)
        ax.set_title("tricks per seat and deal")
        ax.set_xlabel("tricks")
        ax.set_ylabel("share of seat-deals")
    ax.legend(fontsize=8)
    ax = axes[2]
    if games:
        edges = bins([d["histograms"]["match_length"] for _, d in runs], 40)
        for (label, d), col in zip(runs, colours):
            h = d["histograms"]["match_length"]
            ax.hist([int(k) for k in h], bins=edges, weights=list(h.values()), histtype="step",
                    color=col, label=label)
        ax.set_title("match length")
        ax.set_xlabel("deals in the game")
        ax.set_ylabel("games")
    else:
        n = len(runs[0][1]["by_position"])
        width = 0.8 / len(runs)
        for k, ((label, d), col) in enumerate(zip(runs, colours)):
            ps = d["by_position"]
            xs = [i + (k - (len(runs) - 1) / 2) * width for i in range(n)]
            ys = [p["score_change"]["mean"] for p in ps]
            err = [[y - p["score_change"]["ci95"][0] for y, p in zip(ys, ps)],
                   [p["score_change"]["ci95"][1] - y for y, p in zip(ys, ps)]]
            ax.bar(xs, ys, width, yerr=err, color=col, capsize=3, label=label)
        ax.set_xticks(range(n))
        ax.set_xticklabels([p["position"] for p in runs[0][1]["by_position"]], fontsize=8)
        ax.axhline(0, color="grey", linewidth=0.8)
        ax.set_title("score change per deal, by seat position (95% CI)")
        ax.set_ylabel(score)
    ax.legend(fontsize=8)
    fig.tight_layout()
    try:
        with AtomicWriter(path, protect, binary=True) as out:
            try:
                fig.savefig(out.fh, format=os.path.splitext(path)[1].lower().lstrip("."), dpi=100)
            except OSError as e:
                raise OutputError(f"cannot write {path}: {e.strerror or e}")
    finally:
        plt.close(fig)
