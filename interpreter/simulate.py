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
are handed to a callback in deal order as they are produced.

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

    def to_json(self, digits: int = 3) -> dict:
        lo, hi = self.ci()
        return {"n": self.n, "mean": round(self.mean, digits), "sd": round(math.sqrt(self.var), digits),
                "ci95": [round(lo, digits), round(hi, digits)]}


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


class Position:
    __slots__ = ("delta", "points", "declarer", "made")

    def __init__(self):
        self.delta, self.points, self.declarer, self.made = Acc(), Acc(), 0, 0

    def merge(self, o):
        self.delta.merge(o.delta)
        self.points.merge(o.points)
        self.declarer += o.declarer
        self.made += o.made


class Stats:
    """Everything a run counts, for one spec. Picklable, mergeable, order-free."""

    def __init__(self, spec: str, seats: int, has_points: bool = True, direction: int = 1,
                 better: str | None = None, dealer_sits_out: bool = False):
        self.spec, self.seats, self.has_points, self.direction = spec, seats, has_points, direction
        self.better = better                        # "lower" or "higher" scores win, if the spec says
        self.dealer_sits_out = dealer_sits_out
        self.deals = 0
        self.annulled = self.abandoned = self.conceded = 0
        self.played = self.made = 0                 # deals with a declarer; made among them
        self.blind = self.blind_made = 0
        self.contracts: dict = {}                   # (order, label) -> [bid, made, Acc declarer delta]
        self.in_auction: Counter = Counter()        # (order, label) -> deals where it was bid at all
        self.role = {"declarer": Role(), "defender": Role()}
        self.position = [Position() for _ in range(seats)]
        # whole games
        self.games = self.games_over = 0
        self.length, self.length_hist = Acc(), Counter()
        self.spread = Acc()
        self.winner_position = [0] * seats          # wins (alone or shared) by position from the first dealer
        self.shared = 0
        self.seconds = 0.0

    # -------------------------------------------------------------- adding
    def add(self, deal, game=None):
        """Count one finished deal."""
        game = game or deal.game
        n = self.seats
        self.deals += 1
        dealer, dirn = deal.dealer, self.direction
        deltas = deal.deltas
        pos = self.position
        for s in range(n):
            pos[((s - dealer) * dirn) % n].delta.add(deltas[s])
        for key in bid_keys(game, deal):
            self.in_auction[key] += 1
        if deal.annulled or deal.declarer < 0:
            self.annulled += 1
            return
        self.played += 1
        key = contract_key(game, deal)
        row = self.contracts.get(key)
        if row is None:
            row = self.contracts[key] = [0, 0, Acc()]
        row[0] += 1
        made = bool(deal.made) and not deal.abandoned and not deal.conceded
        if deal.abandoned:
            self.abandoned += 1
        if deal.conceded:
            self.conceded += 1
        if made:
            row[1] += 1
            self.made += 1
        row[2].add(deltas[deal.declarer])
        if deal.declarer_blind:
            self.blind += 1
            self.blind_made += made
        p = pos[((deal.declarer - dealer) * dirn) % n]
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
                pos[((s - dealer) * dirn) % n].points.add(deal.deal_points_of[s])

    def add_game(self, match, first_dealer: int, deals: int):
        self.games += 1
        self.games_over += bool(match.game_over)
        self.length.add(deals)
        self.length_hist[deals] += 1
        self.spread.add(max(match.scores) - min(match.scores))
        if match.game_over:
            if len(match.winners) > 1:
                self.shared += 1
            for w in match.winners:
                self.winner_position[((w - first_dealer) * self.direction) % self.seats] += 1

    def merge(self, o: "Stats"):
        for k in ("deals", "annulled", "abandoned", "conceded", "played", "made", "blind", "blind_made",
                  "games", "games_over", "shared"):
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
        self.length.merge(o.length)
        _merge_counter(self.length_hist, o.length_hist)
        self.spread.merge(o.spread)
        self.winner_position = [a + b for a, b in zip(self.winner_position, o.winner_position)]

    # -------------------------------------------------------------- reporting
    def contract_rows(self) -> list:
        rows = []
        for key in sorted(set(self.contracts) | set(self.in_auction)):
            bid, made, acc = self.contracts.get(key) or (0, 0, Acc())
            lo, hi = wilson(made, bid)
            rows.append({"contract": key[1], "in_auction": self.in_auction.get(key, 0),
                         "bid": bid, "bid_rate": _r(bid / self.deals) if self.deals else 0.0,
                         "made": made, "made_rate": _r(made / bid) if bid else 0.0,
                         "ci95": [_r(lo), _r(hi)], "declarer_score_change": acc.to_json()})
        return rows

    def to_json(self) -> dict:
        n = self.deals
        out = {
            "spec": self.spec, "seats": self.seats, "deals": n, "has_points": self.has_points,
            "better_scores": self.better,
            "annulled": self.annulled, "abandoned": self.abandoned, "conceded": self.conceded,
            "played": self.played, "made": self.made, "blind_declarers": self.blind,
            "rates": {
                "annulled": rate_json(self.annulled, n),
                "abandoned": rate_json(self.abandoned, self.played),
                "conceded": rate_json(self.conceded, self.played),
                "made": rate_json(self.made, self.played),
                "blind": rate_json(self.blind, self.played),
                "made_when_blind": rate_json(self.blind_made, self.blind),
            },
            "contracts": self.contract_rows(),
            "by_role": {k: {"seat_deals": r.delta.n, "score_change": r.delta.to_json(),
                            "points": r.points.to_json(), "tricks": r.tricks.to_json()}
                        for k, r in self.role.items()},
            "by_position": [{"position": position_label(i, self.seats)
                             + (" (sits out)" if i == 0 and self.dealer_sits_out else ""), "offset": i,
                             "score_change": p.delta.to_json(), "points": p.points.to_json(),
                             "declarer": rate_json(p.declarer, n), "made": rate_json(p.made, p.declarer)}
                            for i, p in enumerate(self.position)],
            "histograms": {
                "score_change_by_role": {k: {str(v): c for v, c in sorted(r.hist.items())}
                                         for k, r in self.role.items()},
            },
        }
        if self.games:
            g = self.games
            out["games"] = {
                "games": g, "finished": self.games_over, "cut_off": g - self.games_over,
                "length": self.length.to_json(),
                "spread": self.spread.to_json(),
                "shared_wins": self.shared,
                "winner_by_position": [{"position": position_label(i, self.seats), "offset": i,
                                        **rate_json(w, self.games_over)}
                                       for i, w in enumerate(self.winner_position)],
            }
            out["histograms"]["match_length"] = {str(k): v for k, v in sorted(self.length_hist.items())}
        return out


# ------------------------------------------------------------------ paired figures
def deal_figures(deal, seats: int, direction: int) -> dict:
    """The per-deal figures compared between two specs (None where undefined)."""
    declared = not deal.annulled and deal.declarer >= 0
    f = {"annulled": int(deal.annulled), "abandoned": int(deal.abandoned) if declared else None}
    if declared:
        f["made"] = int(bool(deal.made) and not deal.abandoned and not deal.conceded)
        f[("contract",) + contract_key(deal.game, deal)] = f["made"]
        f["declarer score change"] = deal.deltas[deal.declarer]
        dfs = deal.defenders
        f["defender score change"] = Fraction(sum(deal.deltas[s] for s in dfs), len(dfs)) if dfs else None
        if not deal.abandoned:
            f["declarer points"] = deal.deal_points_of[deal.declarer]
            f["declarer tricks"] = deal.tricks[deal.declarer]
    for s in range(seats):
        p = ((s - deal.dealer) * direction) % seats
        f[f"score change, {position_label(p, seats)}"] = deal.deltas[s]
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

    def to_json(self) -> list:
        out = []
        for k, (order, a, b, d) in sorted(((k, v) for k, v in self.figures.items() if not isinstance(k, tuple)),
                                          key=lambda kv: (kv[1][0], kv[0])):
            lo, hi = d.ci()
            out.append({"figure": k, "n": d.n, "base": round(a.mean, 4), "variant": round(b.mean, 4),
                        "difference": round(d.mean, 4), "ci95": [round(lo, 4), round(hi, 4)]})
        return out


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
    better = next((("lower" if k == "lowest" else "higher") for k, _ in game.winner_prefs
                   if k in ("lowest", "highest")), None)
    return Stats(game.name, seats, has_points=any(game.card_points) or bool(game.melds),
                 direction=game.direction, better=better,
                 dealer_sits_out=bool(game.sit_out_when) and game.sit_out_when == seats)


def _play_one(game, seats, rng, dealer, scores=None, deal_number=1):
    deal = game.new_deal(seats, dealer, scores, deal_number)
    deal.deal_random(rng)
    play_deal(deal, RandomAgent(rng))
    return deal


def run_chunk(refs, seats: int, seed: int, start: int, stop: int, games: bool = False,
              records=None, max_deals: int = DEFAULT_MAX_DEALS):
    """Play deals (or games) ``start .. stop-1`` of a run under each spec in ``refs``
    (one spec, or two to compare). ``records`` is None, or the spec reference to write
    in the records of the first spec. Returns (stats per spec, Paired or None, records)."""
    if isinstance(refs, str):
        refs = (refs,)
    gms = [_game(r) for r in refs]
    stats = [_new_stats(g, seats) for g in gms]
    paired = Paired() if len(gms) == 2 else None
    pairs_games = Paired() if len(gms) == 2 and games else None
    recs = [] if records is not None else None
    names = list(NAMES[:seats])
    for i in range(start, stop):
        if not games:
            figs = []
            for k, g in enumerate(gms):
                rng = deal_rng(seed, i)
                deal = _play_one(g, seats, rng, rng.randrange(seats))
                stats[k].add(deal, g)
                if paired is not None:
                    figs.append(deal_figures(deal, seats, g.direction))
                if recs is not None and k == 0:
                    recs.append(deal_record(deal, names, records))
            if paired is not None:
                paired.add(*figs)
            continue
        gfigs = []
        for k, g in enumerate(gms):
            grng = game_rng(seed, i)
            first = grng.randrange(seats)
            match = Match(g, seats, first)
            start_scores = list(match.scores)
            dealt = []
            figs = []
            while not match.game_over and match.deals_played < max_deals:
                rng = random.Random(grng.getrandbits(64))
                deal = match.new_deal()
                deal.deal_random(rng)
                play_deal(deal, RandomAgent(rng))
                stats[k].add(deal, g)
                if paired is not None:
                    figs.append(deal_figures(deal, seats, g.direction))
                if recs is not None and k == 0:
                    dealt.append(deal_record(deal, names))
                match.finish(deal)
            stats[k].add_game(match, first, match.deals_played)
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
    return stats, paired, recs


# ------------------------------------------------------------------ running chunks
def _chunks(total: int, size: int):
    """The (start, stop) of each chunk, made as they are needed: memory stays flat
    however many deals are asked for."""
    for a in range(0, total, size):
        yield a, min(total, a + size)


def _run(refs, seats, seed, total, games, records_ref, max_deals, workers, backend, scheduler,
         progress, chunk):
    """Run the chunks, in order, on the chosen backend; yield each chunk's result."""
    most = (250 if records_ref is not None else 1000) if not games else 20    # records wait in memory
    size = chunk or max(1, min(most, total // (8 * max(1, workers)) or 1))
    tasks = ((refs, seats, seed, a, b, games, records_ref, max_deals) for a, b in _chunks(total, size))
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


def simulate(game, hands: int, seed: int, seats: int, records=None, progress=None, spec_ref=None,
             games: int | None = None, workers: int = 1, backend: str = "local", scheduler=None,
             max_deals: int = DEFAULT_MAX_DEALS, chunk: int | None = None) -> Stats:
    """Play `hands` independent deals (or `games` whole matches) at random; return the
    merged Stats. `records`, if given, is called with each hand record (a deal record,
    or a game record with `games`) in order. `spec_ref` is how records name the spec
    and how workers load it (default: the game's path)."""
    key = _key(spec_ref or game.path or game.name)
    _remember(key, game)
    total = games if games else hands
    stats = _new_stats(game, seats)
    t0 = time.time()
    rec_ref = (spec_ref or game.name) if records is not None else None
    for st, _, recs in _run((key,), seats, seed, total, bool(games), rec_ref,
                            max_deals, workers, backend, scheduler, progress, chunk):
        stats.merge(st[0])
        if recs:
            for rec in recs:
                records(rec)
    stats.seconds = time.time() - t0
    return stats


def compare(base, variant, hands: int, seed: int, seats: int, progress=None, base_ref=None,
            variant_ref=None, games: int | None = None, workers: int = 1, backend: str = "local",
            scheduler=None, max_deals: int = DEFAULT_MAX_DEALS, chunk: int | None = None):
    """Play the same deals (or games) under two specs; return (base Stats, variant
    Stats, Paired)."""
    keys = []
    for g, r in ((base, base_ref), (variant, variant_ref)):
        k = _key(r or g.path or g.name)
        _remember(k, g)
        keys.append(k)
    total = games if games else hands
    sa, sb = _new_stats(base, seats), _new_stats(variant, seats)
    paired = Paired()
    t0 = time.time()
    for st, pr, _ in _run(tuple(keys), seats, seed, total, bool(games), None, max_deals, workers,
                          backend, scheduler, progress, chunk):
        sa.merge(st[0])
        sb.merge(st[1])
        paired.merge(pr)
    sa.seconds = sb.seconds = time.time() - t0
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
        for key, (bid, made, _) in st.contracts.items():
            rows.setdefault(key, {"base": (0, 0), "variant": (0, 0)})[side] = (bid, made)
    contracts = []
    pc = paired.contracts()
    for key in sorted(set(rows) | set(pc)):
        rows.setdefault(key, {"base": (0, 0), "variant": (0, 0)})
        (b1, m1), (b2, m2) = rows[key]["base"], rows[key]["variant"]
        ci = newcombe(m1, b1, m2, b2)
        share = newcombe(b1, sa.deals, b2, sb.deals)
        contracts.append({
            "contract": key[1],
            "base": {"bid": b1, "made": m1, "made_rate": _r(m1 / b1) if b1 else None},
            "variant": {"bid": b2, "made": m2, "made_rate": _r(m2 / b2) if b2 else None},
            "made_rate_difference": _r(m2 / b2 - m1 / b1) if b1 and b2 else None,
            "ci95": [_r(ci[0]), _r(ci[1])] if ci else None,
            "bid_rate_difference": _r(b2 / sb.deals - b1 / sa.deals) if sa.deals and sb.deals else None,
            "bid_rate_ci95": [_r(share[0]), _r(share[1])] if share else None,
            "paired": pc.get(key),
        })
    return {"base": a, "variant": b, "paired": paired.to_json(), "contracts": contracts}


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
RATE_FIGURES = ("annulled", "abandoned", "made")
PAIRED_MIN = 30


from .report import table as _table  # noqa: E402


def _pct(x) -> str:
    return f"{100 * x:.1f}%"


def _pci(ci) -> str:
    return f"{100 * ci[0]:.1f}–{100 * ci[1]:.1f}%"


def _nci(ci, sign=True) -> str:
    f = "+.2f" if sign else ".2f"
    return f"{ci[0]:{f}} … {ci[1]:{f}}"


def render_stats(d: dict) -> str:
    """The summary of `simulate` as tables a card player can read."""
    head = (f"{d['spec']}: {d['games']['games']} games ({d['deals']} deals)" if "games" in d
            else f"{d['spec']}: {d['deals']} independent deals")
    out = [f"{head}, {d['seats']} seats, seed {d['seed']}, random play"]
    if d.get("better_scores"):
        out.append(f"(the winners rule prefers {d['better_scores']} scores: a score change is "
                   f"{'good when negative' if d['better_scores'] == 'lower' else 'good when positive'})")
    out.append("")
    r = d["rates"]
    rows = [["annulled (no contract)", d["annulled"], "all deals", _pct(r["annulled"]["rate"]), _pci(r["annulled"]["ci95"])],
            ["played", d["played"], "all deals", _pct(d["played"] / d["deals"]) if d["deals"] else "-", ""]]
    for key, label in (("made", "made"), ("abandoned", "abandoned"), ("conceded", "conceded"),
                       ("blind", "won blind")):
        x = r[key]
        if key in ("abandoned", "conceded", "blind") and not x["count"]:
            continue
        rows.append([label, x["count"], "played", _pct(x["rate"]), _pci(x["ci95"])])
    if r["blind"]["count"]:
        x = r["made_when_blind"]
        rows.append(["made when won blind", x["count"], "won blind", _pct(x["rate"]), _pci(x["ci95"])])
    out.append(_table(["outcome", "deals", "of", "rate", "95% CI"], rows))
    out.append("")
    rows = [[c["contract"], c.get("in_auction", "-"), c["bid"], _pct(c["bid_rate"]), c["made"],
             _pct(c["made_rate"]) if c["bid"] else "-", _pci(c["ci95"]) if c["bid"] else "",
             f"{c['declarer_score_change']['mean']:+.1f}" if c["bid"] else ""] for c in d["contracts"]]
    out.append(_table(["contract", "bid in auction", "played", "of deals", "made", "made %", "95% CI",
                       "declarer change"], rows))
    out.append("")
    rows = []
    for role, m in d["by_role"].items():
        sc = m["score_change"]
        row = [role, m["seat_deals"], f"{sc['mean']:+.2f}", _nci(sc["ci95"])]
        row += [f"{m['points']['mean']:.1f}"] if d.get("has_points", True) else []
        rows.append(row + [f"{m['tricks']['mean']:.2f}"])
    heads = ["role", "seat-deals", "score change", "95% CI"] + (["points"] if d.get("has_points", True) else []) + ["tricks"]
    out.append(_table(heads, rows))
    out.append("")
    rows = []
    for p in d["by_position"]:
        sc = p["score_change"]
        row = [p["position"], f"{sc['mean']:+.2f}", _nci(sc["ci95"]), _pct(p["declarer"]["rate"]),
               _pct(p["made"]["rate"]) if p["made"]["of"] else "-"]
        row += [f"{p['points']['mean']:.1f}" if p["points"]["n"] else "-"] if d.get("has_points", True) else []
        rows.append(row)
    heads = ["seat position", "score change", "95% CI", "declarer", "made"] + (["points"] if d.get("has_points", True) else [])
    out.append(_table(heads, rows))
    if "games" in d:
        g = d["games"]
        out.append("")
        L, S = g["length"], g["spread"]
        out.append(f"games: {g['games']}, finished {g['finished']}, cut off {g['cut_off']}"
                   + (f", shared wins {g['shared_wins']}" if g["shared_wins"] else ""))
        out.append(f"deals per game: mean {L['mean']:.1f} (95% CI {_nci(L['ci95'], False)}), sd {L['sd']:.1f}")
        out.append(f"final score spread (highest - lowest): mean {S['mean']:.1f} (95% CI {_nci(S['ci95'], False)})")
        out.append("")
        rows = [[w["position"], w["count"], _pct(w["rate"]), _pci(w["ci95"])] for w in g["winner_by_position"]]
        out.append(_table(["winner's seat (from the first dealer)", "wins", "of finished", "95% CI"], rows))
    return "\n".join(out)


def _fig(name: str, x: float) -> str:
    return _pct(x) if name in RATE_FIGURES else f"{x:+.2f}" if "change" in name else f"{x:.2f}"


def _dfig(name: str, x: float) -> str:
    return f"{100 * x:+.1f} pts" if name in RATE_FIGURES else f"{x:+.2f}"


def render_compare(d: dict) -> str:
    a, b = d["base"], d["variant"]
    what = f"{a['games']['games']} games" if "games" in a else f"{a['deals']} deals"
    out = [f"{a['spec']} (base) vs {b['spec']} (variant): the same {what} under both, "
           f"{a['seats']} seats, seed {d['seed']}, random play", ""]
    rows = []
    for p in d["paired"]:
        k = p["figure"]
        lo, hi = p["ci95"]
        rows.append([k, p["n"], _fig(k, p["base"]), _fig(k, p["variant"]), _dfig(k, p["difference"]),
                     f"{_dfig(k, lo)} … {_dfig(k, hi)}"])
    out.append("paired figures (each deal or game compared with itself)")
    out.append(_table(["figure", "n", "base", "variant", "difference", "95% CI"], rows))
    out.append("")
    rows = []
    for c in d["contracts"]:
        row = [c["contract"], c["base"]["bid"], _pct(c["base"]["made_rate"]) if c["base"]["bid"] else "-",
               c["variant"]["bid"], _pct(c["variant"]["made_rate"]) if c["variant"]["bid"] else "-"]
        p = c["paired"]
        # A paired interval needs enough pairs to mean anything (the normal
        # approximation); below that the independent-samples interval is shown.
        full = p and p["n"] == c["base"]["bid"] == c["variant"]["bid"] and p["n"] >= PAIRED_MIN
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
    (`runs`: [(label, summary dict)]): score change by role, contract success by bid
    level, and match length (games) or score change by seat position (deals). The file
    is exactly `path`, in the format its extension names, written whole or not at all."""
    from .records import AtomicWriter, OutputError
    problem = plot_problem(path, protect)
    if problem:
        raise OutputError(problem)
    import matplotlib.pyplot as plt
    games = all("games" in d for _, d in runs)
    fig, axes = plt.subplots(1, 3, figsize=(16, 4.8))
    colours = ["tab:blue", "tab:orange"]
    styles = {"declarer": "-", "defender": "--"}
    def bins(hists, most=60):
        keys = [int(k) for h in hists for k in h]
        if not keys:
            return 1
        lo, hi = min(keys), max(keys)
        step = max(1, math.ceil((hi - lo + 1) / most))
        return [lo - 0.5 + step * i for i in range((hi - lo) // step + 2)]

    ax = axes[0]
    role_hists = [h for _, d in runs for h in d["histograms"]["score_change_by_role"].values()]
    edges = bins(role_hists)
    for (label, d), col in zip(runs, colours):
        for role, hist in d["histograms"]["score_change_by_role"].items():
            if not hist:
                continue
            xs = [int(k) for k in hist]
            total = sum(hist.values())
            ax.hist(xs, bins=edges, weights=[hist[k] / total for k in hist], histtype="step",
                    linestyle=styles.get(role, ":"), color=col, label=f"{label}: {role}")
    ax.set_title("score change per deal, by role")
    ax.set_xlabel("score change")
    ax.set_ylabel("share of seat-deals")
    ax.legend(fontsize=8)
    ax = axes[1]
    labels = []
    for _, d in runs:
        for c in d["contracts"]:
            if c["contract"] not in labels:
                labels.append(c["contract"])
    width = 0.8 / len(runs)
    for k, ((label, d), col) in enumerate(zip(runs, colours)):
        rows = {c["contract"]: c for c in d["contracts"]}
        xs, ys, err = [], [], [[], []]
        for i, lab in enumerate(labels):
            c = rows.get(lab)
            if not c:
                continue
            xs.append(i + (k - (len(runs) - 1) / 2) * width)
            ys.append(c["made_rate"])
            err[0].append(max(0.0, c["made_rate"] - c["ci95"][0]))
            err[1].append(max(0.0, c["ci95"][1] - c["made_rate"]))
        ax.bar(xs, ys, width, yerr=err, color=col, capsize=3, label=label)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=45, ha="right", fontsize=8)
    ax.set_title("contract made, by bid (95% CI)")
    ax.set_ylabel("made rate")
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
