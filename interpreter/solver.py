"""The open-card solver: the exact result of a deal's play under perfect play, with
every hand known (a "double-dummy" solver), for any spec.

    from talon_cards.solver import solve
    sol = solve(deal)                  # the seat to move, its side against the others
    sol.value, sol.best                # the result under perfect play, and a best action
    solve(deal, seat, all_actions=True).values   # {action: result} for every legal action

What is being maximised
    A finished deal is scored by the engine (``Deal.returns()``: each seat's score
    change). The *result* of a deal for a seat is its side's average score change minus
    the average score change of all the other active seats, with the sign turned over
    when the spec's winners have the lowest scores (``score_sign``). The side is the
    seat's side in the deal (``deal.side_of``): the declaring side against the
    defence, or a fixed partnership against the other. In games where every seat
    plays for itself each side is one seat, and the solver uses the *paranoid
    reduction*: the seat in question against a coalition of all the others, who play
    to minimise its result. The game is then zero-sum between two teams and one
    alpha-beta search decides it. Nothing here knows what the spec counts: a leaf is
    settled by the engine's own scoring, so card points, counting melds, tricks,
    penalty points, a contract that must take no trick all come from the spec.

The general search (``_General``)
    Works on a private clone of the deal, applying actions and taking them back in
    the search itself (``_search``, ``_trick_end``, ``_other_action``): the play
    phase's steps mirrored on the fields the rules, their conditions, the melds'
    formulas and the scoring read, the stock drawn from after a trick, closed and
    exchanged as the engine does (the history of tricks is not kept). Melds announced
    with a lead, closing the stock, exchanging the face-up card and conceding are
    moves like card plays; the stock's order is taken as known; a deal that ends at
    once (a goal reached, a concession) is a leaf like the last trick. The search is
    fail-soft alpha-beta, driven to the exact value by null-window searches (MTD(f):
    the first question at heuristic players' result where 7 tricks or more are left,
    then a step from each bound proved, of 1 where the answer went past the question,
    doubling while it does not, never past the middle of what is left), with

    * a transposition table for positions between tricks (and the root), keyed by the
      position (hands, whose turn, trumps) and by what of the past the scoring can
      still read: each seat's tricks and card points, or the very cards each seat took
      when a formula asks for cards taken; the melds announced; the stock and its
      closing. Ends of the deal that agree in all that are scored once;
    * move ordering: the table's move (also remembered for the position alone,
      whatever its past), then cheap winners, low losers, points to a partner's trick;
    * equivalent-card pruning: cards of one suit held by one seat, adjacent in rank
      with no card between them still in play (in a hand, the trick or the stock),
      worth the same points and named by no rule, give the same result; only the
      highest of them is searched;
    * the last trick played out directly;
    * the points search below. The root's best action is the one whose search proved
      the root's value (a search failing high at it, for a seat of the side).

The points search (``_Points``, ``_Curves``)
    The table above keeps the past, so the same cards left with the points taken so
    far shared differently are searched again. Where the rest of the play is
    ordinary trick play with no meld left to announce (no hand holds one, the spec
    has no concession, no condition on a rule of play, no card worth less than 0, and
    reads nothing of the play but tricks, card points and melds), the result may be
    one function of a single total: the card points the side takes from here on.
    ``_Curves`` decides it by tracing the spec's own scoring: ``settle`` is run with
    each active seat's final tricks and card points as ``_Traced`` numbers (the value
    at one way of sharing the rest, and an affine form over the unknowns) that
    record every test the scoring makes on them. The trace gives one path through
    the scoring with the result's form there; the path serves every total t for
    which each test comes out the same for every way of sharing the rest with the
    side taking t points (every seat any of the tricks, the side's seats any split
    of t, the others of the rest: ``_Path.extent``), and the form must give the
    same result for all of them (one coefficient for the side's seats, one for the
    others, one for every seat's tricks). Anything the trace cannot follow (a product
    of two unknowns, a look-up by one) refuses. Paths are kept and reused for other
    pasts; each new one is also checked by scoring two ways of sharing the rest
    plainly. Where every t is served and the result rises (or falls) with t, the
    minimax of the result is the curve's value at the minimax of t, so ``_Points``
    searches t alone: a compact copy of the position (hands as masks), a table keyed
    by the position only (bounds on the side's future points), the question the
    window asks of the result turned into one on t through the curve (``_on_points``),
    the table looked up before each last card of a trick is searched (a card whose
    bound settles the question is taken without a search). It starts between tricks,
    or inside a trick as soon as the last meld is led; what it proves is kept in the
    general table too. A scoring that reads each seat's own share (a per-seat
    rounding, a bonus past a per-seat threshold, tricks counted beside points) fails
    the check there and is searched on the results.

The trick search (``_Tricks``)
    Where the spec's scoring reads nothing of the play but tricks, and scoring every
    way the remaining tricks could be shared shows the seat's result to depend only on
    its side's total of tricks, rising or falling with it (``_trick_curve``), the
    search counts the side's future tricks alone, on a compact copy of the position,
    asking only the questions the result turns on ("can the side take t more tricks?"
    at each total t where the result changes: once for a contract made or not): no
    scoring at the leaves, a table that ignores the past (positions in relative
    ranks: cards already played do not tell them apart), quick tricks and the trumps
    of a side above all of the other side's bounding a position before it is
    searched, and, where following suit is the only rule, partition search (a bound
    holds for every position agreeing on the cards it relied on; every bound proved is
    kept, one dictionary per set of ranks relied on; at the lead it starts from, the
    leads raced for each question: ``_Tricks._race``). Moves are tried in the order a
    card player would think of them: leads from a suit whose top card the leader
    holds, then towards a partner's top card or ruff, then from a sequence under the
    other side's top card, after those a trump while a partner could ruff a side
    suit, or into the other side's top trump, last into the other side's ruff; second hand low unless it holds a card no opponent
    after it can beat, third hand high when an opponent after it can beat the
    partner's card, the cheapest winner last to play (earlier in the trick, and for
    third hand, the cheapest card no later opponent can beat), the lowest discard. A
    concession is left out there only when scoring shows it never does better than
    playing on. ``Solver.tricks`` counts the side's tricks after each action exactly,
    to tell apart actions of equal result.

Where the build could compile this file (setup.py: Cython and a C compiler), the
compiled copy stands in for it, names and all, while built from this very text (the end
of this file; ``build()`` says which runs). It is the same search, about 1.7 times as
fast; ``TALON_PURE_PYTHON=1`` runs this text as Python.
"""
from __future__ import annotations

import bisect
import copy
import functools
import gc
import hashlib
import os
import random
import time

from .engine import DONE, PLAY, TERMINAL, bits
from .engine.env import EMPTY, Env
from .engine.play import Play, _rules
from .engine.scoring import settle

INF = 1 << 60


class Timeout(Exception):
    """The search ran out of the time or nodes it was given. ``bounds``: what it had
    proved of the result by then, (lowest, highest) for the seat (None for no bound
    on that side), or None when it proved nothing."""
    bounds = None


class _Spent(Timeout):
    """A raced lead's positions spent (``_Tricks._race``): caught there, never raised
    past it."""


# the positions each lead searches in the first round of a race (``_Tricks._race``):
# a lead that answers within them is searched as without the race
_RACE_FROM = 1_000_000


# ---------------------------------------------------------------- the objective
def score_sign(game) -> int:
    """+1 when a higher score is better (the spec's winners have the highest scores),
    -1 when the lowest scores win."""
    for kind, _ in game.winner_prefs:
        if kind == "lowest":
            return -1
        if kind == "highest":
            return 1
    return 1


def teams(deal, seat: int):
    """(the seat's side, every other active seat) as two tuples."""
    side = tuple(s for s in deal.side_of.get(seat, (seat,)) if s in deal.pos) or (seat,)
    others = tuple(s for s in deal.active if s not in side)
    return side, others


def result(deal, seat: int) -> float:
    """The result of a finished deal for `seat` (see the module's docstring)."""
    side, others = teams(deal, seat)
    return _scaled(deal.deltas, side, others, score_sign(deal.game)) / _scale(side, others)


def _scale(side, others) -> int:
    return len(side) * max(len(others), 1)


def _scaled(deltas, side, others, sign) -> int:
    """The result times len(side) * len(others): a whole number, so the search is exact."""
    a = sum(deltas[s] for s in side)
    if not others:
        return sign * a
    return sign * (len(others) * a - len(side) * sum(deltas[s] for s in others))


# ---------------------------------------------------------------- what the spec reads
def spec_names(game) -> set:
    """Every name the spec's formulas use (``tricks``, ``spades taken by seat`` …)."""
    cache = game._cache.get("solver_names")
    if cache is not None:
        return cache
    out = set()

    def walk(x):
        if hasattr(x, "op") and hasattr(x, "args"):         # an expression node
            if x.op == "name":
                out.add(x.args[0])
            for a in x.args:
                walk(a)
        elif isinstance(x, (tuple, list)):
            for a in x:
                walk(a)
        elif isinstance(x, dict):
            for a in x.values():
                walk(a)
    for it in game.rules.values():
        if it.body is not None:
            walk(it.body.args)
    game._cache["solver_names"] = out
    return out


def special_cards(game) -> int:
    """Cards that must never be swapped for a neighbour of equal rank: the card that
    leads the first trick, cards a follow rule or a formula names, the cards of melds,
    the rank exchanged for the face-up card."""
    cache = game._cache.get("solver_special")
    if cache is not None:
        return cache
    m = 0
    if game.lead_card >= 0:
        m |= 1 << game.lead_card
    for r in game.narrows:
        for kind, arg in r.cards.parts:
            if kind == "card":
                m |= 1 << arg
    for name in spec_names(game):
        for w in name.split():
            c = game.card_by_name.get(w.upper())
            if c is not None:
                m |= 1 << c
    R = game.n_ranks
    for meld in game.melds:
        for r in meld.ranks:
            for s in range(game.n_suits):
                m |= 1 << (s * R + r)
    if game.exchange_rank >= 0:
        for s in range(game.n_suits):
            m |= 1 << (s * R + game.exchange_rank)
    game._cache["solver_special"] = m
    return m


# ---------------------------------------------------------------- results
class Solution:
    """What ``solve`` found.

    value   the result for `seat` under perfect play (see the module's docstring)
    best    an action of the seat to move that achieves it (None at the end of a deal)
    values  {action: result} for every legal action (with ``all_actions``), else None
    seat    the seat whose result it is; side, others: the two teams
    mode    "tricks" (the quick search of trick-counting scores) or "general"
    nodes, seconds: the search's effort
    """
    __slots__ = ("value", "best", "values", "seat", "side", "others", "mode", "nodes", "seconds")

    def __init__(self, value, best, values, seat, side, others, mode, nodes, seconds):
        self.value, self.best, self.values = value, best, values
        self.seat, self.side, self.others = seat, side, others
        self.mode, self.nodes, self.seconds = mode, nodes, seconds

    def __repr__(self):
        return (f"Solution(value={self.value:g}, best={self.best}, seat={self.seat}, mode={self.mode}, "
                f"nodes={self.nodes}, seconds={self.seconds:.3f})")

    def to_json(self, deal, names=None) -> dict:
        """Plain data for a command to print: actions written as in a hand record
        (``names``: the seats' names, default their numbers)."""
        nm = (lambda s: names[s]) if names else str
        text = lambda a: deal.game.to_action(a, names).text()
        out = {"seat": nm(self.seat), "side": [nm(s) for s in self.side],
               "against": [nm(s) for s in self.others], "value": self.value,
               "search": self.mode, "nodes": self.nodes, "seconds": round(self.seconds, 3)}
        if self.best is not None:
            out["best"] = f"{nm(deal.turn)} {text(self.best)}"
        if self.values is not None:
            out["actions"] = {f"{nm(deal.turn)} {text(a)}": v for a, v in self.values.items()}
        return out


def solve(deal, seat: int | None = None, all_actions: bool = False,
          time_limit: float | None = None, max_nodes: int | None = None,
          mode: str | None = None, progress=None) -> Solution:
    """The exact result of `deal` under perfect play for `seat` (default: the seat to
    move), every hand known. The deal is not changed. With ``all_actions``, the
    result of each legal action of the seat to move. Raises ``Timeout`` when
    ``time_limit`` seconds or ``max_nodes`` nodes are spent first. `mode` forces the
    general search ("general"); by default the trick search is used where it is exact.
    `progress`: see ``Solver.solve``."""
    return Solver(deal, seat, mode).solve(all_actions, time_limit, max_nodes, progress)


def _gc_paused(fn):
    """Runs `fn` with Python's cycle collector paused. A search allocates millions of
    small tuples and lists and keeps many of them in its tables; the collector would
    walk every object the process holds, over and over, as those tables grow (a
    third of the time of a deal solved after a few deals of another game in the same
    process). The search makes no reference cycles that outlive it; the collector
    runs again afterwards."""
    @functools.wraps(fn)
    def paused(*args, **kwargs):
        if not gc.isenabled():
            return fn(*args, **kwargs)
        gc.disable()
        try:
            return fn(*args, **kwargs)
        finally:
            gc.enable()
    return paused


class Solver:
    """One deal's search for one seat's side, on a private clone of the deal.

    Where the spec's scoring reads nothing of the play but tricks, and the seat's
    result turns out (by scoring every way the remaining tricks could be shared) to
    depend only on its side's total of tricks, rising or falling with it, the search
    counts the side's future tricks alone (``_Tricks``: no scoring at the leaves, a
    table of positions that ignores the past, quick-trick bounds). Otherwise it
    searches the results themselves (``_General``)."""

    def __init__(self, deal, seat: int | None = None, mode: str | None = None, curve=None):
        """`curve`: what ``_trick_curve`` gave for another deal with the same public
        state (a PIMC sample of the same decision), to save working it out again;
        False when it found the trick search not exact there."""
        g = self.g = deal.game
        d = self.d = copy.deepcopy(deal, {id(g): g})
        if seat is None:
            seat = d.turn if d.turn >= 0 else (d.active[0] if d.active else 0)
        self.seat = seat
        self.side, self.others = teams(d, seat)
        self.scale = _scale(self.side, self.others)
        self.sign = score_sign(g)
        self.curve = None
        if mode != "general" and d.phase == PLAY:
            if curve is None:
                curve = _trick_curve(d, self.side, self.others, self.sign) or False
            self.curve = curve or None
        self.known_curve = curve if curve is not None else False
        self.mode = "tricks" if self.curve is not None else "general"
        self.search = (_Tricks(d, self.side, self.curve) if self.curve is not None
                       else _General(d, self.side, self.others, self.sign))

    @_gc_paused
    def solve(self, all_actions: bool = False, time_limit: float | None = None,
              max_nodes: int | None = None, progress=None) -> Solution:
        """`progress`: called about four times a second while the search runs, as
        ``progress(positions, bounds)``: the positions searched so far by this call and
        (lowest, highest) of the result proved so far (None where nothing is proved
        yet; proved for the result only, not with `all_actions`)."""
        t0 = time.perf_counter()
        sr = self.search
        sr.deadline = None if time_limit is None else t0 + time_limit
        sr.max_nodes = None if max_nodes is None else sr.nodes + max_nodes
        d = self.d
        n0 = sr.nodes
        if progress is not None:
            sr.progress_next = t0 + sr.progress_every
            sr.progress = lambda n, b: progress(n - n0, None if all_actions else self._bounds(b))
        try:
            return self._solve(all_actions, t0, n0)
        finally:
            sr.progress = None

    def _bounds(self, b):
        """The search's (lowest, highest) proved, scaled, as the seat's result (None
        for no bound on that side), or None when it proved nothing."""
        lo, hi = b
        if lo <= -INF and hi >= INF:
            return None
        return (None if lo <= -INF else lo / self.scale, None if hi >= INF else hi / self.scale)

    def _solve(self, all_actions: bool, t0: float, n0: int) -> Solution:
        sr = self.search
        d = self.d
        values = None
        best = None
        if d.phase != PLAY:
            if d.phase != DONE:
                raise ValueError("the solver starts in the play phase (or at the end of a deal)")
            v = _scaled(d.deltas, self.side, self.others, self.sign)
        elif all_actions:
            scaled = sr.root_values()
            legal = d.legal_actions()
            classes = sr.classes()
            values = {}
            for a in legal:
                b = classes.get(a, a)
                values[a] = scaled[b] if b in scaled else self._direct(a)
            maxing = d.turn in self.side
            best = (max if maxing else min)(legal, key=lambda a: values[a])
            v = values[best]
            values = {a: x / self.scale for a, x in values.items()}
        else:
            sr.root_bounds = (-INF, INF)
            try:
                v, best = sr.root_value()
            except Timeout as e:
                e.bounds = self._bounds(sr.root_bounds)
                raise
        return Solution(v / self.scale, best, values, self.seat, self.side, self.others, self.mode,
                        sr.nodes - n0, time.perf_counter() - t0)

    @_gc_paused
    def tricks(self, actions, time_limit: float | None = None, max_nodes: int | None = None) -> dict:
        """{action: the side's tricks from now on under perfect play after it}, in the
        trick search only (``mode == "tricks"``): a finer measure than the result, for
        telling apart actions of equal result (a contract made in every case, with one
        trick to spare or none). The search's tables carry over from ``solve``.
        Raises ``Timeout`` as ``solve`` does."""
        if self.mode != "tricks":
            raise ValueError("tricks are counted in the trick search only")
        sr = self.search
        sr.deadline = None if time_limit is None else time.perf_counter() + time_limit
        sr.max_nodes = None if max_nodes is None else sr.nodes + max_nodes
        classes = sr.classes()
        searched = set(sr._moves(sr.turn))
        reps = []
        for a in actions:
            b = classes.get(a, a)
            if b in searched and b not in reps:
                reps.append(b)
        got = sr.root_tricks(reps)
        return {a: got[classes.get(a, a)] for a in actions if classes.get(a, a) in got}

    def _direct(self, a: int) -> int:
        """The scaled result of an action the search left out because it ends the deal
        at once (a concession the trick search proved no better than playing on)."""
        d = copy.deepcopy(self.d, {id(self.g): self.g})
        d.apply_action(a)
        if d.phase != DONE:
            raise ValueError(f"action {a} was not searched")
        return _scaled(d.deltas, self.side, self.others, self.sign)


class _Budget:
    deadline = None
    max_nodes = None
    nodes = 0
    progress = None        # called as progress(positions, root_bounds) every `progress_every` s
    progress_every = 0.25
    progress_next = 0.0
    root_bounds = (-INF, INF)
    race_limit = None      # the positions a raced lead may search up to (``_Tricks._race``)

    def _check_budget(self):
        """(every 4,096 positions) Stops the search past its time or positions, and tells
        how far it has gone."""
        if self.progress is not None:
            now = time.perf_counter()
            if now >= self.progress_next:
                self.progress_next = now + self.progress_every
                self.progress(self.nodes, self.root_bounds)
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise Timeout()
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise Timeout()
        if self.race_limit is not None and self.nodes > self.race_limit:
            raise _Spent()


def _classes_of(allowed: int, in_play: int, suit, pts, special) -> dict:
    """Cards of `allowed` -> the card kept for their class of equivalent cards (the
    highest of the class): same suit, same points, not special, and no card still in
    play between them."""
    out = {}
    prev = rep = -1
    for c in bits(allowed):
        if (prev >= 0 and suit[prev] == suit[c] and pts[prev] == pts[c]
                and not (special >> c & 1) and not (special >> prev & 1)
                and not in_play & ((1 << c) - (2 << prev))):
            out[c] = rep
        else:
            out[c] = rep = c
        prev = c
    return out


# ---------------------------------------------------------------- the scoring traced
class _Untraceable(Exception):
    """The scoring did something with a traced number that the trace cannot follow
    (multiplied two of them, looked something up by one …)."""


class _Traced(int):
    """A number of the scoring that depends on the rest of the play: its value at the
    point the scoring is traced at, and its coefficients over the future tallies (an
    affine form ``const + co · x``). Arithmetic keeps the form; comparisons and tests
    answer for the point and are recorded in the trace (``_Trace``) with their answer,
    so that the trace says for which other points the scoring takes the same path.
    Anything the form cannot follow raises ``_Untraceable``."""

    def __new__(cls, value, co, tr):
        x = int.__new__(cls, value)
        x.v, x.co, x.tr = value, co, tr
        return x

    def _form(self, o):
        """(value, coefficients) of another operand."""
        if o.__class__ is _Traced:
            return o.v, o.co
        if isinstance(o, int):
            return int(o), None
        raise _Untraceable(type(o).__name__)

    def _new(self, v, co):
        return _Traced(v, co, self.tr) if any(co) else v

    def __add__(self, o):
        v, co = self._form(o)
        return self._new(self.v + v, self.co if co is None else tuple(a + b for a, b in zip(self.co, co)))

    __radd__ = __add__

    def __sub__(self, o):
        v, co = self._form(o)
        return self._new(self.v - v, self.co if co is None else tuple(a - b for a, b in zip(self.co, co)))

    def __rsub__(self, o):
        v, co = self._form(o)
        neg = tuple(-a for a in self.co)
        return self._new(v - self.v, neg if co is None else tuple(a + b for a, b in zip(neg, co)))

    def __neg__(self):
        return self._new(-self.v, tuple(-a for a in self.co))

    def __pos__(self):
        return self

    def __mul__(self, o):
        v, co = self._form(o)
        if co is not None:
            raise _Untraceable("a product of two numbers that depend on the play")
        return self._new(self.v * v, tuple(a * v for a in self.co))

    __rmul__ = __mul__

    def __floordiv__(self, o):
        v, co = self._form(o)
        if co is not None or v == 0:
            raise _Untraceable("a division by a number that depends on the play")
        m = self.v // v
        # the quotient is m wherever m*v <= x < (m+1)*v (v > 0), m*v >= x > (m+1)*v (v < 0)
        if v > 0:
            (self - m * v).tr_cmp(">=", True)
            (self - (m + 1) * v).tr_cmp("<", True)
        else:
            (self - m * v).tr_cmp("<=", True)
            (self - (m + 1) * v).tr_cmp(">", True)
        return m

    def __mod__(self, o):
        return self - o * (self // o)

    def _no(self, *a):
        raise _Untraceable("an operation the trace cannot follow")

    __rfloordiv__ = __rmod__ = __truediv__ = __rtruediv__ = __pow__ = __rpow__ = _no
    __divmod__ = __rdivmod__ = __and__ = __rand__ = __or__ = __ror__ = __xor__ = __rxor__ = _no
    __lshift__ = __rlshift__ = __rshift__ = __rrshift__ = __invert__ = _no
    __index__ = __int__ = __float__ = __round__ = __trunc__ = __floor__ = __ceil__ = __hash__ = _no

    def tr_cmp(self, op: str, truth: bool):
        """Record that `self op 0` came out `truth` here."""
        tr = self.tr
        const = self.v - sum(a * x for a, x in zip(self.co, tr.point))
        tr.tests.append((self.co, const, op, truth))

    def _cmp(self, o, op, fn):
        if o.__class__ is not _Traced and not isinstance(o, int):
            return NotImplemented
        d = self - o
        truth = fn(self.v - (o.v if o.__class__ is _Traced else int(o)), 0)
        if d.__class__ is _Traced:
            d.tr_cmp(op, truth)
        return truth

    def __lt__(self, o):
        return self._cmp(o, "<", int.__lt__)

    def __le__(self, o):
        return self._cmp(o, "<=", int.__le__)

    def __gt__(self, o):
        return self._cmp(o, ">", int.__gt__)

    def __ge__(self, o):
        return self._cmp(o, ">=", int.__ge__)

    def __eq__(self, o):
        return self._cmp(o, "==", int.__eq__)

    def __ne__(self, o):
        return self._cmp(o, "!=", int.__ne__)

    def __bool__(self):
        truth = self.v != 0
        self.tr_cmp("!=", truth)
        return truth

    def __abs__(self):
        return self if self >= 0 else -self


class _Trace:
    """The point a scoring is traced at (the future tallies' values) and the tests it
    made on traced numbers: (coefficients, constant, comparison with 0, answer)."""
    __slots__ = ("point", "tests")

    def __init__(self, point):
        self.point = point
        self.tests = []


_POINTS_TALLY_NAMES = (" taken by ", "last trick winner", "leader", " held by ", "ended early")


def _points_searchable(g, side, others) -> bool:
    """The spec lets the rest of ordinary trick play be searched on the side's future
    card points (``_Curves`` decides where): the scoring reads nothing of the
    play but each seat's tricks and card points and the melds announced (no formula
    about the cards taken, who won the last trick or led, the cards held), no play
    rule has a condition, there is no concession, and no card is worth less than 0."""
    if not g.points_mask or not side or not others or g.concede is not None:
        return False
    if any(r.when is not None for r in g.narrows) or min(g.card_points) < 0:
        return False
    names = spec_names(g)
    return not any(t in " " + n + " " for n in names for t in _POINTS_TALLY_NAMES)


# What a test's answer needs of its least (lo) and greatest (hi) value over a slice of
# ways of sharing the rest: (comparison, answer) -> alternatives, each a list of
# conditions ("lo", k): lo >= k, ("hi", k): hi <= k, all of which must hold.
_ANSWERS = {
    (">=", True): ((("lo", 0),),), (">=", False): ((("hi", -1),),),
    (">", True): ((("lo", 1),),), (">", False): ((("hi", 0),),),
    ("<=", True): ((("hi", 0),),), ("<=", False): ((("lo", 1),),),
    ("<", True): ((("hi", -1),),), ("<", False): ((("lo", 0),),),
    ("==", True): ((("lo", 0), ("hi", 0)),), ("==", False): ((("lo", 1),), (("hi", -1),)),
    ("!=", True): ((("lo", 1),), (("hi", -1),)), ("!=", False): ((("lo", 0), ("hi", 0)),),
}


class _Path:
    """One path through the scoring, traced (``_Traced``) over the final tallies of the
    active seats (each one's card points, then each one's tricks): the result's affine
    form, and the tests that chose the path. `js`, `jo`: the positions of the side's
    seats and the other seats among the active ones."""
    __slots__ = ("co", "const", "tests", "slope")

    def __init__(self, co, const, tests, js, jo, n):
        self.co, self.const = co, const
        A, B, b = co[js[0]], co[jo[0]], co[n]
        # the result as the side's future points t: A*t + B*(total - t) + b*left + …
        self.slope = (A, B, b) if (all(co[j] == A for j in js) and all(co[j] == B for j in jo)
                                   and all(co[n + j] == b for j in range(n))) else None
        self.tests = []
        for tco, tconst, op, truth in tests:
            qs = [tco[j] for j in js]
            qo = [tco[j] for j in jo]
            fb = tco[n:]
            self.tests.append((tco, tconst, _ANSWERS[op, truth], min(qs) - min(qo), max(qs) - max(qo),
                               min(qo), max(qo), min(fb), max(fb)))

    def extent(self, past, t0: int, total: int, left: int) -> int:
        """The last t (from t0 on) up to which, for every way of sharing the rest in
        which the side takes t of the `total` points left (and any of the `left`
        tricks), every test comes out as on this path: -1 if not even at t0. `past`:
        the tallies so far (in the same order as the form's unknowns)."""
        end = total
        for tco, tconst, alts, dl, dh, mino, maxo, minf, maxf in self.tests:
            off = tconst
            for a, x in zip(tco, past):
                if a:
                    off += a * x
            lo0 = off + total * mino + left * minf          # lo(t) = lo0 + dl * t
            hi0 = off + total * maxo + left * maxf          # hi(t) = hi0 + dh * t
            best = -1
            for alt in alts:
                e = total
                for which, k in alt:
                    if which == "lo":
                        if lo0 + dl * t0 < k:
                            e = -1
                            break
                        if dl < 0:
                            e = min(e, (lo0 - k) // -dl)
                    else:
                        if hi0 + dh * t0 > k:
                            e = -1
                            break
                        if dh > 0:
                            e = min(e, (k - hi0) // dh)
                if e > best:
                    best = e
            if best < t0:
                return -1
            if best < end:
                end = best
        return end


class _Curves:
    """Where the rest of ordinary trick play (no meld to come) is scored by one total:
    the side's card points from here on. For a position (between tricks, or inside one:
    the cards on the trick count among those left), with `total` card points and `left`
    tricks still to play (the current one included), ``curve`` gives the scaled result for
    each number of points t the side may take (a list for t = 0 … total) and whether
    it rises (True) or falls (False) with t, or None where the result is not such a
    function.

    The deal's own scoring (``settle``) is run with each active seat's tricks and card
    points as traced numbers (``_Traced``), at one way of sharing the rest: that gives
    one path through the scoring (``_Path``), the result an affine form of the final
    tallies there. A path serves every t for which each of its tests comes out the
    same for every way of sharing the rest with the side taking t points (``extent``):
    the scoring then takes that path, and gives that result, for all of them; the
    result must depend on the tallies only through t there (the same coefficient for
    each seat of the side, the same for each other seat, the same for every seat's
    tricks). Paths are kept and reused for other pasts; where none serves, the scoring
    is traced again. Each new path is also checked by scoring two ways of sharing the
    rest plainly, drawn at random. The result need only rise or fall, not strictly."""

    def __init__(self, d, side, others, sign, scored):
        self.side, self.others, self.sign, self.scored = side, others, sign, scored
        self.active = list(d.active)
        n = self.n = len(self.active)
        self.js = [j for j, s in enumerate(self.active) if s in side]
        self.jo = [j for j, s in enumerate(self.active) if s not in side]
        self.units = [tuple(int(i == v) for i in range(2 * n)) for v in range(2 * n)]
        self.paths = {}            # what else the scoring reads (melds, trumps …) -> [_Path]
        self.blocked = set()       # (that, tricks left, each seat's tricks) where a path was not one
        self.found = False         # a curve was found
        self.rng = random.Random(0)

    def curve(self, d, total: int, left: int):
        active = self.active
        tricks = [d.tricks[s] for s in active]
        past = [d.card_points[s] for s in active] + tricks
        rest = (tuple(d.melds), d.trumps, d.hand_shown, d.exposed_visible)
        if (rest, left, tuple(tricks)) in self.blocked:
            return None
        paths = self.paths.setdefault(rest, [])
        F = []
        t0 = 0
        while t0 <= total:
            for p in paths:
                e = p.extent(past, t0, total, left)
                if e >= t0:
                    break
            else:
                p = self._trace(d, past, t0, total, left)
                e = -1 if p is None else p.extent(past, t0, total, left)
                if e < t0:
                    # the path taken there depends on more than the side's total (or
                    # cannot be traced): not tried again with these tricks so far
                    self.blocked.add((rest, left, tuple(tricks)))
                    return None
                if len(paths) < 256:
                    paths.append(p)
            if p.slope is None:
                return None
            A, B, b = p.slope
            base = p.const + sum(a * x for a, x in zip(p.co, past)) + B * total + b * left
            F += [base + (A - B) * t for t in range(t0, e + 1)]
            t0 = e + 1
        if all(a <= b for a, b in zip(F, F[1:])):
            self.found = True
            return True, F
        if all(a >= b for a, b in zip(F, F[1:])):
            self.found = True
            return False, F
        return None

    def _score(self, d, final, tr):
        """The scaled result of the deal ended with these final tallies (traced with
        `tr`, or plainly where it is None)."""
        n = self.n
        cp, tk = list(d.card_points), list(d.tricks)
        for j, s in enumerate(self.active):
            if tr is None:
                cp[s], tk[s] = final[j], final[n + j]
            else:
                cp[s] = _Traced(final[j], self.units[j], tr)
                tk[s] = _Traced(final[n + j], self.units[n + j], tr)
        d.card_points, d.tricks = cp, tk
        _put_scored(d, self.scored)
        settle(d)
        return _scaled(d.deltas, self.side, self.others, self.sign)

    def _trace(self, d, past, t0: int, total: int, left: int):
        """The path the scoring takes where the side takes t0 of the points left (at
        one way of sharing the rest), checked at two ways drawn at random; None where
        the trace cannot follow the scoring or a check fails."""
        n = self.n
        js, jo = self.js, self.jo
        in_play = 0
        for h in d.hands:
            in_play |= h
        saved = (d.card_points, d.tricks, d.hands, d.tricks_done, d.tricks_left, d.played, d.phase, d._ph, d.turn,
                 d.trick)
        d.trick = []
        d.hands = [0] * len(d.hands)
        d.tricks_done += left
        d.tricks_left = 0
        d.played |= in_play
        d.phase, d._ph, d.turn = DONE, None, TERMINAL
        try:
            final = list(past)
            final[js[0]] += t0
            final[jo[0]] += total - t0
            final[n + js[0]] += left
            tr = _Trace(final)
            r = self._score(d, final, tr)
            if r.__class__ is _Traced:
                co, const = r.co, r.v - sum(a * x for a, x in zip(r.co, final))
            else:
                co, const = (0,) * (2 * n), r
            p = _Path(co, const, tr.tests, js, jo, n)
            if p.slope is not None:
                rng = self.rng
                for _ in range(2):
                    final = list(past)
                    for part, share in ((js, t0), (jo, total - t0), (range(n, 2 * n), left)):
                        part = list(part)
                        for _ in range(share):
                            final[rng.choice(part)] += 1
                    want = const + sum(a * x for a, x in zip(co, final))
                    if self._score(d, final, None) != want:
                        return None
            return p
        except Exception:        # the trace cannot follow the scoring: search the results
            return None
        finally:
            (d.card_points, d.tricks, d.hands, d.tricks_done, d.tricks_left, d.played,
             d.phase, d._ph, d.turn, d.trick) = saved
            _put_scored(d, self.scored)


# ---------------------------------------------------------------- the general search
class _General(_Budget):
    """Alpha-beta over the results themselves, applying actions to the clone."""
    check_at = 1024       # the node count at which the time and nodes spent are next checked

    def __init__(self, d, side, others, sign):
        g = self.g = d.game
        self.d = d
        self.side, self.others, self.sign = side, others, sign
        self.side_set = frozenset(side)
        self.tt = {}
        self.order = {}       # the position alone (not its past) -> a move that did well there
        self.leaves = {}      # the end of a deal -> its scaled result
        self.unscored = False
        c = g.codec
        self.MELD, self.CONCEDE = c.MELD, c.CONCEDE
        # ordinary trick play is mirrored here; the rest goes through the engine
        self.fast = not (g.draw or g.close is not None or g.exchange_rank >= 0 or g.deal_ends is not None)
        self.dealer_up = g.face_up == "dealer-last"
        self.follow, self.lead = _rules(g)
        names = spec_names(g)
        self.key_taken = any(" taken by " in n for n in names)
        self.key_points = bool(g.points_mask) or bool(g.melds)
        self.key_stock = bool(g.stock)
        self.special = special_cards(g)
        self.points = g.card_points
        self.concede = g.concede is not None
        # every card that is or will be in play (the stock only when it is drawn from)
        universe = d.talon
        for h in d.hands:
            universe |= h
        for _, c in d.trick:
            universe |= 1 << c
        if g.draw:
            for c in d.stock:
                universe |= 1 << c
        self.universe = universe
        self.root = _scored_fields(d)
        self.root_at = (d.tricks_done, len(d.trick))      # the one node inside a trick kept in the table
        self.lasts = {}       # a last trick (hands, leader, trumps) -> (winner, points, cards)
        self.no_hands = (0,) * len(d.hands)
        # the rest of the play searched on the side's future card points where the
        # result is a rising or falling function of them (``_Curves``)
        self.by_points = self.fast and _points_searchable(g, side, others)
        self.curves = {}      # what of the past the scoring reads -> the curve, or None
        self.meld_masks = tuple({mk for mk, _, _, _ in g.meld_leads})
        # a deal's end differs in what the first trick's end decides (an open hand …)
        self.first_decides = g.open_hand is not None or self.dealer_up
        self.point_masks = [(v, sum(1 << c for c in range(g.n_cards) if self.points[c] == v))
                            for v in sorted(set(self.points)) if v]
        self.points_search = None
        self.scoring = None
        self.front = {}       # a position and its past -> its curve (None: not searched on points)
        self.ends = g.deal_ends
        self.draw = g.draw
        self.PASS, self.CLOSE, self.EXCHANGE = g.codec.PASS, g.codec.CLOSE, g.codec.EXCHANGE
        self.rep_cache = {}   # (a suit's cards allowed, its cards in play) -> the cards searched

    # ------------------------------------------------------------ leaves
    def _finish(self):
        """``Deal.finish`` without the scoring: the leaf is scored when it is reached
        (``_leaf``), once for each different end."""
        d = self.d
        d.phase, d._ph, d.turn = DONE, None, TERMINAL
        self.unscored = True

    def _leaf(self) -> int:
        """The scaled result of the finished clone. Ends that agree in everything the
        scoring can read are scored once; the scoring's changes are then taken back."""
        d = self.d
        unscored, self.unscored = self.unscored, False
        key = self._key() + (d.last_trick_winner, d.conceded, d.ended_early)
        v = self.leaves.get(key)
        if v is None:
            if unscored:
                settle(d)
            v = self.leaves[key] = _scaled(d.deltas, self.side, self.others, self.sign)
        elif unscored:
            return v
        _put_scored(d, self.root)
        return v

    # ------------------------------------------------------------ the position's key
    def _key(self):
        """The position, and what of the past the scoring may still read."""
        d = self.d
        k = (d.turn, tuple(d.hands), tuple(d.trick), d.trumps, d.pending_trumps)
        if self.key_taken:
            k += (tuple(d.taken),)
        elif self.key_points:
            k += (tuple(d.tricks), tuple(d.card_points))
        else:
            k += (tuple(d.tricks),)
        if d.melds:
            k += (tuple(d.melds),)
        if self.key_stock:
            k += (tuple(d.stock), d.closed, d.closer, tuple(d.tricks_at_close), d.exposed)
        return k

    def _end_key(self, w: int, pts: int, mask: int):
        """``_leaf``'s key for the end reached when seat w takes the last trick (worth
        `pts`, its cards `mask`) from the position between tricks now."""
        d = self.d
        k = (TERMINAL, self.no_hands, (), d.trumps, None)
        if self.key_taken:
            taken = list(d.taken)
            taken[w] |= mask
            k += (tuple(taken),)
        else:
            tricks = list(d.tricks)
            tricks[w] += 1
            if self.key_points:
                cp = list(d.card_points)
                cp[w] += pts
                k += (tuple(tricks), tuple(cp))
            else:
                k += (tuple(tricks),)
        if d.melds:
            k += (tuple(d.melds),)
        if self.key_stock:
            k += (tuple(d.stock), d.closed, d.closer, tuple(d.tricks_at_close), d.exposed)
        return k + (w, False, False)

    # ------------------------------------------------------------ moves
    def _allowed(self, s: int) -> int:
        d = self.d
        if d.trick:
            return self.follow(d, d.hands[s], d.trick_suit, d.trumps, d.win_card)
        return self.lead(d, d.hands[s])

    def _in_play(self) -> int:
        d = self.d
        m = self.universe & ~d.played
        for _, c in d.trick:
            m |= 1 << c
        return m

    def classes(self) -> dict:
        """At the root: each playable card -> the card searched for its class."""
        g = self.g
        return _classes_of(self._allowed(self.d.turn), self._in_play(), g.card_suit, self.points, self.special)

    def _moves(self, s: int, first) -> list:
        """The moves searched at this node, best guesses first: of each run of
        equivalent cards (same suit and points, no card in play between them, none
        special) only the highest, each suit's remembered by holding; following,
        points to a partner's trick, else the cheapest winner, else the lowest card;
        leading, closing and exchanging first, then melds, then the highest card."""
        d = self.d
        trick = d.trick
        hand = d.hands[s]
        in_play = self.universe & ~d.played
        for _, c in trick:
            in_play |= 1 << c
        allowed = self.follow(d, hand, d.trick_suit, d.trumps, d.win_card) if trick else self.lead(d, hand)
        cards = []
        cache = self.rep_cache
        for sm in self.g.suit_mask:
            a = allowed & sm
            if a:
                key = (a, in_play & sm)
                r = cache.get(key)
                if r is None:
                    r = cache[key] = self._reps_in(a, in_play & sm)
                cards += r
        if trick:
            if len(cards) > 1:
                keys = d.trick_keys
                wk = keys[d.win_card]
                pts = self.points
                if (d.win_seat in self.side_set) == (s in self.side_set):
                    # a partner wins: points to it, else the lowest card
                    cards.sort(key=lambda c: (keys[c] > wk, -pts[c], keys[c]))
                else:
                    # the cheapest winner, else the lowest card
                    cards.sort(key=lambda c: (keys[c] <= wk, pts[c] if keys[c] <= wk else 0, keys[c]))
        else:
            cards.sort(key=self.g.card_rank.__getitem__)
            if self.meld_masks:
                cards = Play.meld_leads(d, s, allowed) + cards
            if not self.fast:
                cards = Play.pre_lead(d, s) + cards
        if self.concede and d._can_concede(s):
            cards.append(self.CONCEDE)
        return _put_first(cards, first)

    def _reps_in(self, allowed: int, in_play: int) -> list:
        """The cards of `allowed` (of one suit, `in_play` its cards in play) worth
        searching: the highest of each run of equivalent cards."""
        out = []
        pts = self.points
        special = self.special
        m = allowed
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            above = in_play & (low - 1)
            if above:
                h = above.bit_length() - 1           # the next higher card in play
                if allowed >> h & 1 and pts[h] == pts[c] and not special & ((1 << h) | low):
                    continue
            out.append(c)
        return out

    # ------------------------------------------------------------ applying, undoing
    def _do(self, s: int, a: int):
        """Apply action `a` of seat `s` to the clone; the return value undoes it."""
        d = self.d
        if a == self.CONCEDE:
            d.conceded = True
            self._finish()
            return ("concede",)
        if not self.fast:
            snap = self._snapshot()
            Play.apply(d, s, a)
            return ("snap", snap)
        g = self.g
        pend = d.pending_trumps
        if a >= self.MELD:
            mi, card = divmod(a - self.MELD, g.n_cards)
            m = g.melds[mi]
            suit = g.card_suit[card]
            d.melds.append((s, mi, suit, m.worth(d, Env(s, suit))))
            if m.makes_trumps:
                d.pending_trumps = suit
        else:
            card = a
        bit = 1 << card
        d.hands[s] ^= bit
        d.played |= bit
        before = (d.trick_suit, d.trick_keys, d.win_seat, d.win_card, d.turn, d.exposed_visible, pend)
        if card == d.exposed and self.dealer_up:
            d.exposed_visible = False
        trick = d.trick
        trick.append((s, card))
        if len(trick) == 1:
            d.trick_suit = g.card_suit[card]
            d.trick_keys = g.trick_keys[d.trumps + 1][d.trick_suit]
            d.win_seat, d.win_card = s, card
        elif d.trick_keys[card] > d.trick_keys[d.win_card]:
            d.win_seat, d.win_card = s, card
        if len(trick) < d.n_active:
            d.turn = d.next_seat[s]
            return ("card", a, bit, before, None)
        return ("card", a, bit, before, self._end_trick())

    def _end_trick(self):
        """``engine.play.end_trick`` for ordinary trick play (no stock, no early end)."""
        d = self.d
        g = self.g
        trick = d.trick
        w = d.win_seat
        saved = (trick, d.tricks_done, d.hand_shown, d.exposed_visible, d.trumps, d.pending_trumps,
                 d.leader, d.turn, d.tricks_left, d.last_trick_winner)
        cp = self.points
        pts = 0
        m = 0
        for _, c in trick:
            pts += cp[c]
            m |= 1 << c
        d.tricks[w] += 1
        d.card_points[w] += pts
        d.taken[w] |= m
        d.history_tricks.append((d.leader, trick, w))
        d.trick = []
        d.tricks_done += 1
        if d.tricks_done == 1:
            if self.dealer_up:
                d.exposed_visible = False
            if g.open_hand is not None and g.open_hand(d, EMPTY):
                d.hand_shown = True
        if d.pending_trumps is not None:
            d.trumps, d.pending_trumps = d.pending_trumps, None
        d.leader = d.turn = w
        left = d.hands[w].bit_count()
        d.tricks_left = left
        if left == 0:
            d.last_trick_winner = w
            self._finish()
        return (w, pts, m, saved)

    def _undo(self, s: int, u):
        d = self.d
        kind = u[0]
        if kind == "card":
            _, a, bit, before, end = u
            if end is not None:
                w, pts, m, saved = end
                d.tricks[w] -= 1
                d.card_points[w] -= pts
                d.taken[w] ^= m
                d.history_tricks.pop()
                (d.trick, d.tricks_done, d.hand_shown, d.exposed_visible, d.trumps, d.pending_trumps,
                 d.leader, d.turn, d.tricks_left, d.last_trick_winner) = saved
                if d.phase == DONE:
                    d.phase, d._ph = PLAY, Play
            d.trick.pop()
            d.hands[s] |= bit
            d.played ^= bit
            (d.trick_suit, d.trick_keys, d.win_seat, d.win_card, d.turn, d.exposed_visible,
             d.pending_trumps) = before
            if a >= self.MELD:
                d.melds.pop()
            return
        if kind == "snap":
            self._restore(u[1])
            return
        # a concession
        d.conceded = False
        d.phase, d._ph, d.turn = PLAY, Play, s

    _SCALARS = ("turn", "leader", "trick_suit", "trick_keys", "win_seat", "win_card", "played",
                "tricks_done", "tricks_left", "trumps", "pending_trumps", "hand_shown", "exposed",
                "exposed_visible", "closed", "closer", "last_trick_winner", "ended_early", "phase", "_ph")

    def _snapshot(self):
        d = self.d
        return (tuple(getattr(d, f) for f in self._SCALARS), list(d.trick), list(d.hands), list(d.tricks),
                list(d.card_points), list(d.taken), len(d.melds), list(d.stock), list(d.tricks_at_close),
                len(d.history_tricks))

    def _restore(self, snap):
        d = self.d
        if d.phase == DONE and not self.unscored:
            self._leaf()          # the engine scored the deal: take the scoring back
        self.unscored = False
        scalars, trick, hands, tricks, cp, taken, n_melds, stock, tac, n_hist = snap
        for f, v in zip(self._SCALARS, scalars):
            setattr(d, f, v)
        d.trick = trick
        d.hands[:] = hands
        d.tricks[:] = tricks
        d.card_points[:] = cp
        d.taken[:] = taken
        del d.melds[n_melds:]
        d.stock[:] = stock
        d.tricks_at_close[:] = tac
        del d.history_tricks[n_hist:]

    # ------------------------------------------------------------ the search
    def _search(self, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta: the value if it lies inside (alpha, beta), else a
        bound on the side of the window it fell. Actions are applied and taken back
        here (``_other_action``, ``_trick_end``), on the fields of the clone that the
        rules, their conditions, the melds' formulas and the scoring read (the history
        of tricks is not kept)."""
        d = self.d
        if d.phase != PLAY:
            return self._leaf()
        self.nodes += 1
        if self.nodes >= self.check_at:
            self.check_at = self.nodes + 1024
            self._check_budget()
        trick = d.trick
        s = d.turn
        key = first = None
        lo, hi = -INF, INF
        if trick and self.by_points and d.pending_trumps is None and (d.tricks_done, len(trick)) != self.root_at:
            # inside a trick, the last meld just led: the rest on the side's points
            cv = self._curve()
            if cv is not None:
                return self._on_points(cv, alpha, beta)
        if not trick or (d.tricks_done, len(trick)) == self.root_at:
            if not trick and d.hands[s].bit_count() == 1 and self.fast and not self.concede:
                return self._last_trick()
            key = self._key()
            ent = self.tt.get(key)
            if ent is not None:
                lo, hi = ent[0], ent[1]
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
            if self.by_points and not trick and (d.tricks_done, 0) != self.root_at:
                cv = self.front.get(key, False)
                if cv is False:
                    cv = self.front[key] = self._curve()
                if cv is not None:
                    # the rest is searched on the side's future points: what that
                    # proved is kept here as for any position
                    v = self._on_points(cv, alpha, beta)
                    if v <= alpha:
                        hi = v
                    elif v >= beta:
                        lo = v
                    else:
                        lo = hi = v
                    self.tt[key] = (lo, hi, None)
                    return v
            fkey = key[:5]
            first = self.order.get(fkey)
            if ent is not None and ent[2] is not None:
                first = ent[2]
        maxing = s in self.side_set
        a0, b0 = alpha, beta
        best = -INF if maxing else INF
        best_move = None
        g = self.g
        hands = d.hands
        MELD = self.MELD
        suit_of = g.card_suit
        last = len(trick) + 1 == d.n_active
        for a in self._moves(s, first):
            if a >= self.PASS:
                v = self._other_action(s, a, alpha, beta)
            else:
                # play the card (announcing a meld with it)
                pend = d.pending_trumps
                if a >= MELD:
                    mi, card = divmod(a - MELD, g.n_cards)
                    m = g.melds[mi]
                    suit = suit_of[card]
                    d.melds.append((s, mi, suit, m.worth(d, Env(s, suit))))
                    if m.makes_trumps:
                        d.pending_trumps = suit
                else:
                    card = a
                bit = 1 << card
                hands[s] ^= bit
                d.played ^= bit
                before = (d.trick_suit, d.trick_keys, d.win_seat, d.win_card, d.exposed_visible)
                if card == d.exposed and self.dealer_up:
                    d.exposed_visible = False
                trick.append((s, card))
                if len(trick) == 1:
                    d.trick_suit = suit_of[card]
                    d.trick_keys = g.trick_keys[d.trumps + 1][d.trick_suit]
                    d.win_seat, d.win_card = s, card
                elif d.trick_keys[card] > d.trick_keys[d.win_card]:
                    d.win_seat, d.win_card = s, card
                if a >= MELD and self.ends is not None and self.ends(d, EMPTY):
                    v = self._ended(s)             # the meld ends the deal at once
                elif last:
                    v = self._trick_end(alpha, beta)
                else:
                    d.turn = d.next_seat[s]
                    v = self._search(alpha, beta)
                    d.turn = s
                # take it back
                trick.pop()
                hands[s] |= bit
                d.played ^= bit
                d.trick_suit, d.trick_keys, d.win_seat, d.win_card, d.exposed_visible = before
                if a >= MELD:
                    d.melds.pop()
                    d.pending_trumps = pend
            if maxing:
                if v > best:
                    best, best_move = v, a
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            elif v < best:
                best, best_move = v, a
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        if key is not None:
            if best <= a0:
                hi = best
            elif best >= b0:
                lo = best
            else:
                lo = hi = best
            self.tt[key] = (lo, hi, best_move)
            if best_move is not None and (best > a0 if maxing else best < b0):
                self.order[fkey] = best_move
                if (d.tricks_done, len(trick)) == self.root_at:
                    self.root_cut = best_move     # the root's move that proved its value or bound
        return best

    def _other_action(self, s: int, a: int, alpha: int, beta: int) -> int:
        """A concession, closing the stock or exchanging the face-up card: applied, the
        search from there, taken back."""
        d = self.d
        if a == self.CONCEDE:
            d.conceded = True
            self._finish()
            v = self._leaf()
            d.conceded = False
            d.phase, d._ph, d.turn = PLAY, Play, s
        elif a == self.CLOSE:
            saved = (d.closed, d.closer, d.tricks_at_close)
            d.closed, d.closer, d.tricks_at_close = True, s, list(d.tricks)
            v = self._search(alpha, beta)
            d.closed, d.closer, d.tricks_at_close = saved
        else:
            card = a - self.EXCHANGE
            hand, up, exposed = d.hands[s], d.stock[-1], d.exposed
            d.hands[s] = (hand & ~(1 << card)) | (1 << up)
            d.stock[-1] = card
            d.exposed = card
            v = self._search(alpha, beta)
            d.hands[s], d.stock[-1], d.exposed = hand, up, exposed
        return v

    def _ended(self, s: int) -> int:
        """The deal ends at once (a goal reached): scored as it stands."""
        d = self.d
        d.ended_early = True
        self._finish()
        v = self._leaf()
        d.ended_early = False
        d.phase, d._ph, d.turn = PLAY, Play, s
        return v

    def _trick_end(self, alpha: int, beta: int) -> int:
        """The trick just completed is taken by its winner, who leads the next (or the
        deal ends and is scored); searched on, then taken back."""
        d = self.d
        trick = d.trick
        w = d.win_seat
        cp = self.points
        pts = m = 0
        for _, c in trick:
            pts += cp[c]
            m |= 1 << c
        d.tricks[w] += 1
        d.card_points[w] += pts
        d.taken[w] |= m
        saved = (d.tricks_done, d.hand_shown, d.exposed_visible, d.trumps, d.pending_trumps,
                 d.leader, d.turn, d.tricks_left, d.last_trick_winner)
        d.trick = []
        d.tricks_done += 1
        if d.tricks_done == 1 and self.first_decides:
            if self.dealer_up:
                d.exposed_visible = False
            g = self.g
            if g.open_hand is not None and g.open_hand(d, EMPTY):
                d.hand_shown = True
        if d.pending_trumps is not None:
            d.trumps, d.pending_trumps = d.pending_trumps, None
        d.leader = d.turn = w
        hands = d.hands
        left = hands[w].bit_count()
        drawn = None
        if left and self.ends is not None and self.ends(d, EMPTY):
            v = self._ended(w)                      # before any card is drawn
        else:
            stock = d.stock
            if self.draw and not d.closed:
                if stock:
                    # every seat draws from the stock, the winner first
                    drawn = []
                    for t in d.clockwise_from(w, include=True):
                        if not stock:
                            break
                        card = stock.pop(0)
                        hands[t] |= 1 << card
                        drawn.append((t, card))
                        if card == d.exposed:
                            d.exposed_visible = False
                    left = hands[w].bit_count()
                left += len(stock) // d.n_active
            d.tricks_left = left
            if not left:
                d.last_trick_winner = w
            if self.ends is not None and self.ends(d, EMPTY):
                d.ended_early = left > 0
                self._finish()
                v = self._leaf()
                d.ended_early = False
                d.phase, d._ph = PLAY, Play
            elif left:
                v = self._search(alpha, beta)
            else:
                self._finish()
                v = self._leaf()
                d.phase, d._ph = PLAY, Play
            if drawn:
                for t, card in reversed(drawn):
                    hands[t] ^= 1 << card
                    d.stock.insert(0, card)
        d.trick = trick
        (d.tricks_done, d.hand_shown, d.exposed_visible, d.trumps, d.pending_trumps,
         d.leader, d.turn, d.tricks_left, d.last_trick_winner) = saved
        d.tricks[w] -= 1
        d.card_points[w] -= pts
        d.taken[w] ^= m
        return v

    def _last_trick(self) -> int:
        """Every seat holds one card: play them out and score the end. Who wins the
        trick depends only on the cards, the leader and trumps: that is kept, and an
        end already scored is looked up without playing the trick."""
        d = self.d
        g = self.g
        hands = d.hands
        lk = (tuple(hands), d.turn, d.trumps)
        out = self.lasts.get(lk)
        if out is None:
            s = d.turn
            c = hands[s].bit_length() - 1
            keys = g.trick_keys[d.trumps + 1][g.card_suit[c]]
            w, wk, pts, mask = s, keys[c], 0, 0
            for _ in range(d.n_active):
                c = hands[s].bit_length() - 1
                pts += self.points[c]
                mask |= 1 << c
                if keys[c] > wk:
                    w, wk = s, keys[c]
                s = d.next_seat[s]
            out = self.lasts[lk] = (w, pts, mask)
        v = self.leaves.get(self._end_key(*out))
        if v is not None:
            return v
        undo = []
        while d.phase == PLAY:
            s = d.turn
            undo.append((s, self._do(s, d.hands[s].bit_length() - 1)))
        v = self._leaf()
        for s, u in reversed(undo):
            self._undo(s, u)
        return v

    # ------------------------------------------------------------ on the side's future points
    def _curve(self):
        """The result as a function of the side's future card points ((rising?,
        [result for 0 … the points left]), between tricks or inside one, the trick's
        cards among those left) where it is one and no meld can be announced any
        more, else None; worked out once for each past the scoring can tell apart."""
        d = self.d
        hands = d.hands
        for mk in self.meld_masks:
            for h in hands:
                if h & mk == mk:
                    return None
        if d.tricks_done == 0 and self.first_decides:
            return None
        m = 0
        for h in hands:
            m |= h
        for _, c in d.trick:
            m |= 1 << c
        total = 0
        for v, pm in self.point_masks:
            total += v * (m & pm).bit_count()
        left = hands[d.turn].bit_count()
        key = (total, left, tuple(d.tricks), tuple(d.card_points), tuple(d.melds), d.trumps)
        cv = self.curves.get(key, False)
        if cv is False:
            sc = self.scoring
            if sc is None:
                sc = self.scoring = _Curves(d, self.side_set, self.others, self.sign, self.root)
            cv = self.curves[key] = sc.curve(d, total, left)
            if cv is None and not sc.found and len(sc.blocked) >= 24:
                # the scoring has never been one function of the side's points here
                # (it reads each seat's share, say): stop asking
                self.by_points = False
        return cv

    def _on_points(self, cv, alpha: int, beta: int) -> int:
        """The result from here, fail-soft: the points search (``_Points``) asked the
        question on the side's future points that the window (alpha, beta) asks of the
        result, its answer mapped through the curve."""
        up, F = cv
        top = len(F) - 1
        if up:
            a = bisect.bisect_right(F, alpha) - 1      # the most points with a result <= alpha
            b = bisect.bisect_left(F, beta)            # the fewest with a result >= beta
            if a >= top or b <= 0 or F[0] == F[top]:
                return F[top] if a >= top else F[0]
        else:
            G = [-x for x in F]
            a = bisect.bisect_right(G, -beta) - 1      # the most points with a result >= beta
            b = bisect.bisect_left(G, -alpha)          # the fewest with a result <= alpha
            if a >= top or b <= 0 or F[0] == F[top]:
                return F[top] if a >= top else F[0]
        ps = self.points_search
        if ps is None:
            ps = self.points_search = _Points(self)
        d = self.d
        tt = None if d.trick else ps.tables.get((up, d.trumps))
        if tt is not None:
            ent = tt.get((d.turn, d.tricks_done == 0, tuple(d.hands)) if ps.first_rules else (d.turn, tuple(d.hands)))
            if ent is not None:
                # the points search's table already answers
                if ent[0] >= b:
                    return F[min(ent[0], top)]
                if ent[1] <= a:
                    return F[max(ent[1], 0)]
                if ent[0] == ent[1]:
                    return F[ent[0]]
        ps.nodes, ps.check_at, ps.deadline, ps.max_nodes = self.nodes, self.check_at, self.deadline, self.max_nodes
        try:
            t = ps.run(self.d, up, a, b)
        finally:
            self.nodes, self.check_at = ps.nodes, ps.check_at
        return F[min(max(t, 0), top)]

    def _mtdf(self, guess: int, track: bool = False) -> int:
        """The exact value by null-window searches closing in on it (MTD(f)); with
        `track`, the bounds proved so far are kept in ``root_bounds``."""
        lo, hi = -INF, INF
        g = guess
        beta = guess
        step = 1
        while lo < hi:
            g = self._search(beta - 1, beta)
            up = g >= beta
            if up:
                lo = g
            else:
                hi = g
            if track:
                self.root_bounds = (lo, hi)
            # the next question: a step on from the bound just proved, of 1 where the
            # search's answer went past the question, doubling while it answers no
            # more than was asked; never beyond the middle of what is left
            step = 1 if (g > beta if up else g < beta - 1) else step * 2
            if up:
                beta = lo + step
                if hi < INF:
                    beta = min(beta, (lo + hi + 1) // 2)
            else:
                beta = hi + 1 - step
                if lo > -INF:
                    beta = max(beta, (lo + hi + 1) // 2)
        return g

    # ------------------------------------------------------------ the root
    root_cut = None

    def root_value(self):
        """The root's value, and the move that proved it: its value is proved by a
        search that fails high at it (for a seat of the side; low for another seat)."""
        self.root_cut = None
        v = self._mtdf(self._guess(), track=True)
        return v, self.root_cut

    def _guess(self) -> int:
        """A likely value to ask about first: the result of heuristic players playing
        the deal out, where much is left to play (else 0)."""
        d = self.d
        if d.tricks_left < 7:
            return 0
        from .heuristic import HeuristicAgent
        c = copy.deepcopy(d, {id(self.g): self.g})
        _put_scored(c, self.root)
        agent = HeuristicAgent(random.Random(0))
        while c.phase == PLAY:
            c.apply_action(agent.act(c))
        return _scaled(c.deltas, self.side, self.others, self.sign) if c.phase == DONE else 0

    def root_values(self) -> dict:
        d = self.d
        s = d.turn
        out = {}
        guess = 0
        for a in self._moves(s, None):
            u = self._do(s, a)
            out[a] = guess = self._mtdf(guess)
            self._undo(s, u)
        return out


# ---------------------------------------------------------------- the points search
class _Points(_Budget):
    """Alpha-beta over the card points the side takes from now on, where the result is
    a rising or falling function of them (``_Curves``): ordinary trick play, no
    meld to come, on a compact copy of the position (hands as masks, the trick as a
    list). Positions between tricks go in a table keyed by the position alone (the
    leader, the hands, trumps), holding bounds on the side's future points: the same
    cards left with the points so far shared differently are one entry. One table for
    each direction (`up`: the side's seats maximise the points, else the others do)."""
    check_at = 1024

    def __init__(self, gen):
        g = self.g = gen.g
        d = gen.d
        self.side = gen.side_set
        self.others = frozenset(gen.others)
        self.pts = g.card_points
        self.suit = g.card_suit
        self.rank = g.card_rank
        self.suit_mask = g.suit_mask
        self.special = gen.special
        self.follow, self.lead = gen.follow, gen.lead
        self.next_seat = d.next_seat
        self.n_active = d.n_active
        self.active = tuple(d.active)
        self.first_rules = any(r.first for r in g.narrows) or g.lead_card >= 0
        self.point_masks = gen.point_masks
        self.rs = _RuleState(0, -1)
        self.tables = {}
        self.lead_keys = {}
        self.rep_cache = {}
        self.hands = list(d.hands)
        self.trick = []
        self.turn = d.turn
        self.in_play = 0
        self.left = 0

    def run(self, d, up: bool, alpha: int, beta: int) -> int:
        """The side's future card points from the deal's position, between tricks or
        inside one (a bound on them outside (alpha, beta), fail-soft)."""
        hands = self.hands = list(d.hands)
        self.turn = d.turn
        self.trick = list(d.trick)
        tr = d.trumps
        self.keys_of = self.g.trick_keys[tr + 1]
        self.rs.tricks_done, self.rs.trumps = d.tricks_done, tr
        self.maxers = self.side if up else self.others
        self.tt = self.tables.setdefault((up, tr), {})
        self.lead_key = self.lead_keys.get(tr)
        if self.lead_key is None:
            # leads: the highest first, trumps last (the lowest of them first)
            R = self.g.n_ranks
            self.lead_key = self.lead_keys[tr] = [(R + R - 1 - self.rank[c]) if self.suit[c] == tr else self.rank[c]
                                                  for c in range(self.g.n_cards)]
        m = 0
        for s in self.active:
            m |= hands[s]
        for _, c in self.trick:
            m |= 1 << c
        self.in_play = m
        left = 0
        for v, pm in self.point_masks:
            left += v * (m & pm).bit_count()
        self.left = left
        if self.trick:
            self.led, self.win_seat, self.win_card = d.trick_suit, d.win_seat, d.win_card
        else:
            self.led = self.win_seat = self.win_card = -1
        return self._search(alpha, beta)

    # ------------------------------------------------------------ moves
    def _reps(self, allowed: int) -> list:
        """The cards of `allowed` worth searching: the highest of each run of cards of a
        suit with the same points and no card in play between them (none special)."""
        out = []
        in_play = self.in_play
        cache = self.rep_cache
        for sm in self.suit_mask:
            a = allowed & sm
            if a:
                key = (a, in_play & sm)
                r = cache.get(key)
                if r is None:
                    r = cache[key] = self._suit_reps(a, in_play & sm)
                out += r
        return out

    def _suit_reps(self, allowed: int, in_play: int) -> list:
        out = []
        pts = self.pts
        special = self.special
        m = allowed
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            above = in_play & (low - 1)
            if above:
                h = above.bit_length() - 1           # the next higher card in play
                if allowed >> h & 1 and pts[h] == pts[c] and not special & ((1 << h) | low):
                    continue
            out.append(c)
        return out

    def _moves(self, s: int, first) -> list:
        """The moves searched here, likeliest best first."""
        trick = self.trick
        if trick:
            cards = self._reps(self.follow(self.rs, self.hands[s], self.led, self.rs.trumps, self.win_card))
            if len(cards) > 1:
                keys = self.keys_of[self.led]
                wk = keys[self.win_card]
                pts = self.pts
                if (self.win_seat in self.side) == (s in self.side):
                    if len(trick) + 1 < self.n_active and self._beatable(s, wk):
                        # a partner wins, but a seat of the other team after this one can
                        # beat it: the cheapest card that beats the trick, else the fewest points
                        cards.sort(key=lambda c: (keys[c] <= wk, keys[c] if keys[c] > wk else pts[c], keys[c]))
                    else:
                        # a partner wins the trick: points to it, else the lowest card
                        cards.sort(key=lambda c: (keys[c] > wk, -pts[c], keys[c]))
                else:
                    # the cheapest winner, else the fewest points
                    cards.sort(key=lambda c: (keys[c] <= wk, pts[c] if keys[c] <= wk else 0, keys[c]))
        else:
            cards = self._reps(self.lead(self.rs, self.hands[s]))
            cards.sort(key=self.lead_key.__getitem__)
        return _put_first(cards, first)

    def _beatable(self, s: int, wk: int) -> bool:
        """A seat of the other team still to play to the trick holds a card that beats
        the winning card (of the suit led, or any card when void in it)."""
        keys = self.keys_of[self.led]
        mine = s in self.side
        nxt = s
        led = self.suit_mask[self.led]
        for _ in range(self.n_active - 1 - len(self.trick)):
            nxt = self.next_seat[nxt]
            if (nxt in self.side) == mine:
                continue
            h = self.hands[nxt]
            pool = h & led or h
            while pool:
                low = pool & -pool
                if keys[low.bit_length() - 1] > wk:
                    return True
                pool ^= low
        return False

    # ------------------------------------------------------------ the search
    def _search(self, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta on the side's card points from here on."""
        self.nodes += 1
        if self.nodes >= self.check_at:
            self.check_at = self.nodes + 1024
            self._check_budget()
        trick = self.trick
        hands = self.hands
        s = self.turn
        first = key = None
        if not trick:
            n = hands[s].bit_count()
            if n <= 1:
                return self._last(s) if n else 0
            key = (s, self.rs.tricks_done == 0, tuple(hands)) if self.first_rules else (s, tuple(hands))
            ent = self.tt.get(key)
            if ent is not None:
                lo, hi, first = ent
            else:
                lo, hi = 0, self.left
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        elif len(trick) + 1 == self.n_active:
            return self._closing(alpha, beta)
        maxing = s in self.maxers
        a0, b0 = alpha, beta
        best = -INF if maxing else INF
        best_move = None
        side = self.side
        keys_of = self.keys_of
        suit = self.suit
        pts = self.pts
        for c in self._moves(s, first):
            bit = 1 << c
            hands[s] ^= bit
            led, win_seat, win_card = self.led, self.win_seat, self.win_card
            if not trick:
                self.led = suit[c]
                self.win_seat, self.win_card = s, c
            elif keys_of[led][c] > keys_of[led][win_card]:
                self.win_seat, self.win_card = s, c
            trick.append((s, c))
            if len(trick) < self.n_active:
                self.turn = self.next_seat[s]
                v = self._search(alpha, beta)
            else:
                w = self.win_seat
                p = 0
                m = 0
                for _, x in trick:
                    p += pts[x]
                    m |= 1 << x
                won = p if w in side else 0
                self.in_play ^= m
                self.left -= p
                self.trick = []
                self.turn = w
                self.rs.tricks_done += 1
                v = won + self._search(alpha - won, beta - won)
                self.rs.tricks_done -= 1
                self.trick = trick
                self.left += p
                self.in_play ^= m
            trick.pop()
            hands[s] |= bit
            self.led, self.win_seat, self.win_card, self.turn = led, win_seat, win_card, s
            if maxing:
                if v > best:
                    best, best_move = v, c
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            elif v < best:
                best, best_move = v, c
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        if key is not None:
            lo, hi, _ = self.tt.get(key, (0, INF, None))
            if best <= a0:
                hi = min(hi, best)
            elif best >= b0:
                lo = max(lo, best)
            else:
                lo = hi = best
            self.tt[key] = (lo, hi, best_move)
        return best

    def _closing(self, alpha: int, beta: int) -> int:
        """The last card of a trick. What each card leads to is first looked up (the
        end of the deal, the last trick, or the table's bounds on the position after
        the trick): a card whose bound already settles the question is taken without
        searching, and a card that cannot do better than the window is not searched;
        the rest are searched in order."""
        s = self.turn
        hands = self.hands
        trick = self.trick
        keys = self.keys_of[self.led]
        wk = keys[self.win_card]
        ws = self.win_seat
        pts = self.pts
        side = self.side
        maxing = s in self.maxers
        p0 = m0 = 0
        for _, x in trick:
            p0 += pts[x]
            m0 |= 1 << x
        after = hands[s].bit_count() - 1
        tt = self.tt
        first = self.first_rules
        cards = self._moves(s, None)
        bounds = []
        for c in cards:
            bit = 1 << c
            w = s if keys[c] > wk else ws
            p = p0 + pts[c]
            won = p if w in side else 0
            if after == 0:
                lo = hi = won
            else:
                hands[s] ^= bit
                if after == 1:
                    lo = hi = won + self._last(w)
                else:
                    ent = tt.get((w, False, tuple(hands)) if first else (w, tuple(hands)))
                    if ent is None:
                        lo, hi = won, won + self.left - p
                    else:
                        lo, hi = won + ent[0], won + ent[1]
                hands[s] ^= bit
            if maxing:
                if lo >= beta:
                    return lo
            elif hi <= alpha:
                return hi
            bounds.append((c, w, p, won, lo, hi))
        best = -INF if maxing else INF
        for c, w, p, won, lo, hi in bounds:
            if lo == hi:
                v = lo
            elif maxing and hi <= max(alpha, best):
                v = hi                   # no better than what is had: its bound is enough
            elif not maxing and lo >= min(beta, best):
                v = lo
            else:
                bit = 1 << c
                hands[s] ^= bit
                trick.append((s, c))
                m = m0 | bit
                led, win_seat, win_card = self.led, self.win_seat, self.win_card
                self.in_play ^= m
                self.left -= p
                self.trick = []
                self.turn = w
                self.rs.tricks_done += 1
                v = won + self._search(alpha - won, beta - won)
                self.rs.tricks_done -= 1
                self.trick = trick
                self.left += p
                self.in_play ^= m
                self.led, self.win_seat, self.win_card, self.turn = led, win_seat, win_card, s
                trick.pop()
                hands[s] |= bit
            if maxing:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            elif v < best:
                best = v
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        return best

    def _last(self, leader: int) -> int:
        """The last trick: every seat plays its one card."""
        hands = self.hands
        c = hands[leader].bit_length() - 1
        keys = self.keys_of[self.suit[c]]
        w, wk = leader, keys[c]
        p = 0
        for s in self.active:
            x = hands[s].bit_length() - 1
            p += self.pts[x]
            k = keys[x]
            if k > wk:
                w, wk = s, k
        return p if w in self.side else 0


# ---------------------------------------------------------------- the trick search
def _compositions(total: int, parts: int):
    """Every way to share `total` among `parts` (non-negative, in order)."""
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _compositions(total - first, parts - 1):
            yield (first,) + rest


_TALLY_NAMES = (" taken by ", "last trick winner", "leader", " held by ", "ended early")


def _trick_curve(d, side, others, sign):
    """Where the trick search is exact: the scaled result for each total of tricks the
    side may end with ({total: result}), else None.

    The spec must score nothing of the play but tricks (no card points, no melds, no
    formula about cards taken or who won the last trick, no stock, no follow rule with
    a condition), and scoring every way of sharing the remaining tricks among the
    seats must give a result that depends only on the side's total and rises (or
    falls) with it. A concession must never do better than playing on."""
    g = d.game
    if (g.points_mask or g.melds or g.draw or g.close is not None or g.exchange_rank >= 0
            or g.deal_ends is not None or any(r.when is not None for r in g.narrows)):
        return None
    names = spec_names(g)
    if any(t in " " + n + " " for n in names for t in _TALLY_NAMES):
        return None
    scratch = copy.deepcopy(d, {id(g): g})
    active = list(d.active)
    left = d.tricks_left
    base = list(d.tricks)
    side_set = set(side)
    curve = {}
    for shares in _compositions(left, len(active)):
        final = list(base)
        for s, k in zip(active, shares):
            final[s] += k
        v = _score_tally(scratch, d, final, False)
        v = _scaled(v, side, others, sign)
        k = sum(final[s] for s in side_set)
        if curve.setdefault(k, v) != v:
            return None
    ks = sorted(curve)
    vs = [curve[k] for k in ks]
    up = all(a <= b for a, b in zip(vs, vs[1:]))
    down = all(a >= b for a, b in zip(vs, vs[1:]))
    if not (up or down):
        return None
    if g.concede is not None and d.declarer >= 0 and not _concede_dominated(scratch, d, side, others, sign, curve):
        return None
    return curve


def _scored_fields(d):
    """What the engine's scoring (``settle``) changes on a deal, copied: put back with
    ``_put_scored`` (a deal scored on a scratch copy, or a leaf of the search whose
    scoring is taken back). Named field by field, so a copy never depends on how the
    engine stores a deal."""
    return (list(d.scores), list(d.deltas), {k: list(v) for k, v in d.counters.items()},
            dict(d.lets), d.made, list(d.meld_points_of), list(d.deal_points_of))


def _put_scored(d, saved):
    scores, deltas, counters, lets, made, mp, dp = saved
    d.scores[:] = scores
    d.deltas[:] = deltas
    for k, arr in d.counters.items():
        arr[:] = counters[k]
    d.lets.clear()
    d.lets.update(lets)
    d.made = made
    d.meld_points_of[:] = mp
    d.deal_points_of[:] = dp


def _score_tally(scratch, d, tricks, conceded: bool) -> list:
    """The score changes of a deal that ends with these tricks, on `scratch`, a deep
    copy of `d` (the deal as it is now) that earlier calls may have scored: what the
    scoring changed is put back from `d`, the end of the play is written in, and the
    deal is scored again."""
    _put_scored(scratch, _scored_fields(d))
    scratch.tricks = list(tricks)
    done = sum(tricks) - sum(d.tricks)
    scratch.tricks_done = d.tricks_done + done
    scratch.tricks_left = d.tricks_left - done
    scratch.trick = []
    scratch.hands = [0] * d.n_seats if not conceded else list(d.hands)
    scratch.conceded = conceded
    scratch.phase, scratch._ph, scratch.turn = DONE, None, TERMINAL
    settle(scratch)
    return list(scratch.deltas)


def _concede_dominated(scratch, d, side, others, sign, curve) -> bool:
    """A concession (possible once the contract is lost) never gives the conceding
    side more than any way of playing the deal out from there would."""
    declarer_side = d.declarer in side
    active = list(d.active)
    left = d.tricks_left
    for played in range(left + 1):
        for shares in _compositions(played, len(active)):
            now = list(d.tricks)
            for s, k in zip(active, shares):
                now[s] += k
            scratch.tricks = now
            scratch.tricks_left = left - played
            won = sum(now[s] for s in d.declarers)
            e = d.game.ladder[d.entry_index] if d.entry_index >= 0 else None
            if e is None or not (won > e.most or won + (left - played) < e.least):
                continue            # not lost: no concession here
            v = _scaled(_score_tally(scratch, d, now, True), side, others, sign)
            k = sum(now[s] for s in side)
            later = [curve[x] for x in curve if k <= x <= k + left - played]
            if declarer_side and later and v > min(later):
                return False
            if not declarer_side and later and v < max(later):
                return False
    return True


class _RuleState:
    """What the compiled follow and lead rules read of a deal (no rule has a condition
    in the trick search)."""
    __slots__ = ("tricks_done", "trumps")

    def __init__(self, tricks_done, trumps):
        self.tricks_done, self.trumps = tricks_done, trumps


def _plain_follow_only(g) -> bool:
    """The only play rule is following suit (quick tricks are sound then)."""
    return (len(g.narrows) == 1 and g.lead_card < 0 and g.narrows[0].mode == "must"
            and g.narrows[0].cards.parts == (("suit-led", None),) and g.narrows[0].on in ("follow", "play")
            and not g.narrows[0].first and not g.narrows[0].void)


_PTT_LIMIT = 1 << 21     # entries of the partition search's table before it starts again
_SQUEEZE: dict = {}
_TOPS: dict = {}        # (a suit's cards, r) -> its r highest (``_top``)
_SQUEEZED: dict = {}    # (game, seats, ranks) -> packed holdings -> squeezed (``_ps_position``)
_FLIPS: dict = {}       # (game, active seats) -> the partition search's per-card updates
_ORDS: dict = {}        # (game, trumps) -> the move ordering's per-card numbers
_REPS: dict = {}        # game -> its suits' equivalent cards, by holding (no special cards)


def _per_game(cache: dict, key, g, build):
    """A table built once for a game (and `key`) and kept across searches: PIMC
    solves many samples of one position. The game is kept with it, so that a key
    reused by another game object is not mistaken for it."""
    got = cache.get(key)
    if got is None or got[0] is not g:
        if len(cache) > 64:
            cache.clear()
        got = cache[key] = (g, build())
    return got[1]


def _squeeze(packed: int, n: int, R: int) -> int:
    """One suit's holdings of `n` seats packed R bits each (the first seat in the high
    bits) -> the same with the ranks no longer held by anyone removed: who holds the
    highest card still in play, the next … (relative ranks; bit 0 the highest)."""
    key = packed << 3 | n
    out = _SQUEEZE.get(key)
    if out is not None:
        return out
    full = (1 << R) - 1
    held = [(packed >> (R * (n - 1 - i))) & full for i in range(n)]
    every = 0
    for h in held:
        every |= h
    res = [0] * n
    pos = 0
    while every:
        low = every & -every
        for i, h in enumerate(held):
            if h & low:
                res[i] |= 1 << pos
                break
        pos += 1
        every ^= low
    out = 0
    for r in res:
        out = (out << R) | r
    if len(_SQUEEZE) < 1 << 21:
        _SQUEEZE[key] = out
    return out


def _winners_first(cards: list, o, w: int) -> list:
    """Cards sorted by `o`, turned so that those above `w` (the cheapest first) come
    before the others (the lowest first)."""
    for i, c in enumerate(cards):
        if o[c] > w:
            return cards[i:] + cards[:i] if i else cards
    return cards


def _high(m: int) -> int:
    """The highest card of `m` as its bit (the lowest set bit)."""
    return m & -m


def _put_first(cards: list, first) -> list:
    """`cards` with `first` (a move a table remembered) moved to the front, if there."""
    if first is not None and cards and cards[0] != first and first in cards:
        cards.remove(first)
        cards.insert(0, first)
    return cards


def _sure_first(cards: list, o, w: int, top: int) -> list:
    """`cards` with the first of them that beats the winning card (above `w` in the
    ordering `o`) and that no opponent still to play could beat (above `top`, the
    strongest card they could play) moved to the front."""
    for i, c in enumerate(cards):
        if o[c] > top and o[c] > w:
            if i:
                cards.insert(0, cards.pop(i))
            break
    return cards


def _top(m: int, r: int) -> int:
    """The `r` lowest set bits of `m` (the `r` highest cards of a suit)."""
    out = 0
    while r and m:
        low = m & -m
        out |= low
        m ^= low
        r -= 1
    return out


class _Tricks(_Budget):
    """Alpha-beta over the number of tricks the side takes from now on, on a compact
    copy of the position (hands as masks, the trick as a list). Positions between
    tricks go in a table keyed by the leader and the hands in relative ranks (cards
    already played do not tell positions apart), holding bounds on the side's future
    tricks; quick tricks bound a position before it is searched."""

    def __init__(self, d, side, curve):
        g = self.g = d.game
        self.deal = d
        self.side = frozenset(side)
        up = curve[max(curve)] >= curve[min(curve)]
        self.curve = curve
        self.base = sum(d.tricks[s] for s in side)
        # the seats who want more of the side's tricks
        self.maxers = self.side if up else frozenset(s for s in d.active if s not in self.side)
        # each team wants tricks for itself (not a contract to lose every trick): only
        # then are the tricks a leader can cash a bound on what its team takes
        self.up = up
        self.follow, self.lead = _rules(g)
        self.rs = _RuleState(d.tricks_done, d.trumps)
        self.first_rules = any(r.first for r in g.narrows) or g.lead_card >= 0
        self.hands = list(d.hands)
        self.trick = list(d.trick)
        self.turn = d.turn
        self.next_seat = d.next_seat
        self.n_active = d.n_active
        self.active = tuple(d.active)
        self.trumps = d.trumps
        self.keys_of = g.trick_keys[d.trumps + 1]
        self.led = d.trick_suit
        self.win_seat, self.win_card = d.win_seat, d.win_card
        self.suit = g.card_suit
        self.rank = g.card_rank
        self.R = g.n_ranks
        self.suit_mask = g.suit_mask
        self.shifts = tuple(k * g.n_ranks for k in range(g.n_suits))
        self.special = special_cards(g)
        self.relative = self.special == 0
        self.quick = _plain_follow_only(g)
        self.no_trumps = d.trumps < 0 or not g.trick_trumps
        self.trump_mask = 0 if self.no_trumps else g.suit_mask[d.trumps]
        # partition search where only following suit narrows the cards played
        self.ps = self.quick and self.relative
        R = self.R
        n = len(self.active)
        self.full = (1 << R) - 1
        self.tops = [sum(((1 << r) - 1) << (R * i) for i in range(n)) for r in range(R + 1)]
        self.ptt = {}          # (leader, suit lengths) -> {ranks relied on: (rs, masks, {holders: [lo, hi, move]})}
        self.ptt_move = {}     # (leader, suit lengths) -> the best move stored last
        self.ptt_size = 0
        in_play = 0
        for h in d.hands:
            in_play |= h
        for _, c in d.trick:
            in_play |= 1 << c
        self.gone = g.full_deck & ~in_play       # cards out of play: played, or never dealt
        self.tt = {}
        self.rep_cache = _per_game(_REPS, id(g), g, dict)   # (a suit's cards allowed, in play) -> the cards searched
        if len(self.rep_cache) > 1 << 20:
            self.rep_cache.clear()
        # move ordering tables: ord_of[led][c] = trick key << rank bits | (rank bits -
        # 1 - rank), so that ordering by it orders by key, then the lowest rank first;
        # partner_after[s][i]: a partner of s plays to the trick after s, s playing
        # the (i+1)th card
        rb = max(1, (max(self.rank) + 1).bit_length())
        self.rank_bits = (1 << rb) - 1
        self.ord_of = _per_game(_ORDS, (id(g), d.trumps), g, lambda: {
            led: [(keys[c] << rb) | (self.rank_bits - self.rank[c]) for c in range(g.n_cards)]
            for led, keys in enumerate(self.keys_of) if keys is not None})
        self.prev_seat = {self.next_seat[p]: p for p in self.active}
        # mates[s]: (the partners of s, its opponents)
        self.mates = {p: (tuple(x for x in self.active if x != p and (x in self.side) == (p in self.side)),
                          tuple(x for x in self.active if (x in self.side) != (p in self.side)))
                      for p in self.active}
        # team_of[s]: the seats of s's team, s among them, in seat order
        self.team_of = {p: tuple(x for x in self.active if (x in self.side) == (p in self.side))
                        for p in self.active}
        # later[s][i]: (seat, a partner of s?) for each seat still to play to the
        # trick after s, s playing its (i+1)th card
        self.later = {}
        for p in self.active:
            rows = []
            for i in range(len(self.active)):
                row, nxt = [], p
                for _ in range(len(self.active) - 1 - i):
                    nxt = self.next_seat[nxt]
                    row.append((nxt, (nxt in self.side) == (p in self.side)))
                rows.append(tuple(row))
            self.later[p] = rows
        # lead_ends[s]: (the seat after s, the seat before it), each -1 when not an
        # opponent of s (the seat before, also when it is the seat after)
        self.lead_ends = {}
        for p in self.active:
            after, before = self.next_seat[p], self.prev_seat[p]
            opp = self.mates[p][1]
            self.lead_ends[p] = (after if after in opp else -1,
                                 before if before in opp and before != after else -1)
        self.plain = self.quick and not self.special
        self.trick_cache = {}   # the cards searched in a trick, ordered (``_trick_reps``)
        self.lead_cache = {}    # a suit's lead weights (``_lead_order``)
        self.trump_cache = {}   # the trumps' packed holdings -> ``_trump_bounds``
        self.partner_after = {}
        for p in self.active:
            row = []
            for i in range(len(self.active)):
                nxt, later = p, False
                for _ in range(len(self.active) - 1 - i):
                    nxt = self.next_seat[nxt]
                    if (nxt in self.side) == (p in self.side):
                        later = True
                row.append(later)
            self.partner_after[p] = row
        # the partition search's view of the hands, kept up to date move by move: each
        # suit's holdings of the active seats packed into one number, and every seat's
        # length in every suit (4 bits each); flip[s][c]: (suit, bit, length unit)
        ns = g.n_suits
        self.flip = flip = _per_game(_FLIPS, (id(g), self.active), g, lambda: {
            s: {c: (self.suit[c], 1 << (R * (n - 1 - i) + c - self.shifts[self.suit[c]]),
                    1 << (4 * (ns * n - 1 - (self.suit[c] * n + i))))
                for c in range(g.n_cards)}
            for i, s in enumerate(self.active)})
        # a suit's holdings packed -> the same squeezed (``_squeeze``)
        self.squeezed = _per_game(_SQUEEZED, (id(g), n, R), g, dict)
        self.packed = [0] * ns
        self.lens = 0
        for i, s in enumerate(self.active):
            for c in bits(self.hands[s]):
                k, x, u = flip[s][c]
                self.packed[k] |= x
                self.lens += u

    # ------------------------------------------------------------ moves
    def _allowed(self, s: int) -> int:
        if self.quick:
            # following suit is the only rule
            h = self.hands[s]
            return h & self.suit_mask[self.led] or h if self.trick else h
        if self.trick:
            return self.follow(self.rs, self.hands[s], self.led, self.trumps, self.win_card)
        return self.lead(self.rs, self.hands[s])

    def _reps(self, allowed: int) -> list:
        """The cards of `allowed` worth searching: the highest of each run of cards
        with no card in play between them."""
        if not self.special:
            # suit by suit, remembered: the same holdings recur all through a search
            out = []
            in_play = ~self.gone
            cache = self.rep_cache
            for sm in self.suit_mask:
                a = allowed & sm
                if a:
                    key = (a, in_play & sm)
                    r = cache.get(key)
                    if r is None:
                        r = cache[key] = self._suit_reps(a, in_play & sm)
                    out += r
            return out
        return self._suit_reps(allowed, ~self.gone)

    def _suit_reps(self, allowed: int, in_play: int) -> list:
        out = []
        SM = self.suit_mask
        suit = self.suit
        special = self.special
        m = allowed
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            above = in_play & SM[suit[c]] & (low - 1)
            if above:
                h = 1 << (above.bit_length() - 1)      # the next higher card in play
                if h & allowed and not (special & (h | low)):
                    continue
            out.append(c)
        return out

    def classes(self) -> dict:
        allowed = self._allowed(self.turn)
        return _classes_of(allowed, ~self.gone & self.g.full_deck, self.suit, self.g.card_points, self.special)

    def _moves(self, s: int, first=None) -> list:
        trick = self.trick
        if trick and self.plain:
            cards = self._trick_reps(s)
        else:
            cards = self._reps(self._allowed(s))
        if trick:
            # one number a card orders by within the trick: its trick key, then low
            # rank first (the lowest of equal keys, say discards, first)
            o = self.ord_of[self.led]
            if not self.plain:
                cards.sort(key=o.__getitem__)
            if len(cards) > 1:
                side = self.side
                mine = s in side
                w = o[self.win_card] | self.rank_bits      # a card above this beats the winner
                # in each case a card no opponent after this seat can beat (the
                # cheapest of them) is tried first (`best`, `mate`: the strongest card
                # an opponent after this seat could play, and a partner after it)
                if (self.win_seat in side) == mine:
                    best, mate = self._beat_after(s)
                    if best > w:
                        # a partner wins, but an opponent after this seat may beat it:
                        # third hand high, the cheapest card that beats the winner first
                        cards = _sure_first(_winners_first(cards, o, w), o, w, best)
                    # else a partner wins: the lowest first (discards: the lowest card)
                elif self.partner_after[s][len(trick)]:
                    # second hand low (trumps led too): the lowest first, then the
                    # cheapest winner; but void in the suit led, the cheapest trump
                    # that wins first, then the discards
                    best, mate = self._beat_after(s)
                    if not self.hands[s] & self.suit_mask[self.led]:
                        if mate > best and mate > w:
                            # void, and a partner after wins the trick whatever
                            # comes: a discard (the lowest card) first
                            return _put_first(cards, first)
                        cards = _winners_first(cards, o, w)
                    cards = _sure_first(cards, o, w, best)
                else:                                      # the cheapest winner, then the lowest
                    cards = _winners_first(cards, o, w)
                    if len(trick) < self.n_active - 1 and o[cards[0]] > w:
                        cards = _sure_first(cards, o, w, self._beat_after(s)[0])
        else:
            cards = self._lead_order(s, cards)
        return _put_first(cards, first)

    def _trick_reps(self, s: int) -> list:
        """(following suit the only rule, no special cards) ``_reps`` of the cards `s`
        may play to the trick, sorted by ``ord_of``: remembered by the holding of the
        suit led (or, void in it, by the hand and the cards out of play)."""
        h = self.hands[s]
        led = self.led
        sm = self.suit_mask[led]
        a = h & sm
        if a:
            key = (a, ~self.gone & sm)
        else:
            # void: only the cards out of play of the suits the hand holds count
            m = 0
            for x in self.suit_mask:
                if h & x:
                    m |= x
            key = (h, self.gone & m, led)
        cache = self.trick_cache
        got = cache.get(key)
        if got is None:
            got = self._reps(a or h)
            got.sort(key=self.ord_of[led].__getitem__)
            if not a:
                got = self._discards_first(h, got)
            if len(cache) > 1 << 18:
                cache.clear()
            cache[key] = got
        return got[:]

    def _discards_first(self, h: int, cards: list) -> list:
        """`cards` of a hand `h` void in the suit led, sorted by ``ord_of``: the discards
        (the cards of the other side suits) first, from the longest suit and low, not
        from a doubleton that guards the suit's second card or a singleton highest
        card; then the trumps as they were."""
        trumps = -1 if self.no_trumps else self.trumps
        in_play = ~self.gone
        SM = self.suit_mask
        suit = self.suit
        rank = self.rank
        weight = {}
        for c in cards:
            k = suit[c]
            if k == trumps:
                continue
            sm = SM[k]
            x = h & sm
            n = x.bit_count()
            live = in_play & sm
            top = live & -live
            second = (live ^ top) & -(live ^ top)
            w = rank[c] + (n << 6) // 44          # rank: 0 for the highest
            if n == 2 and x & second and not x & top:
                w -= 6
            elif n == 1 and x & top:
                w -= 8
            weight[c] = w
        return sorted(weight, key=lambda c: -weight[c]) + [c for c in cards if c not in weight]

    def _top_play(self, h: int) -> int:
        """The strongest card a hand could play to the trick as it stands, under
        following suit (the highest of the suit led, else the highest trump, else any
        card: a discard beats nothing)."""
        pool = h & self.suit_mask[self.led] or h & self.trump_mask or h
        return (pool & -pool).bit_length() - 1

    def _beat_after(self, s: int):
        """(the highest ordering number (``ord_of``) of a card an opponent of `s`
        still to play to the trick could play, the same for its partners; -1 for
        none)."""
        o = self.ord_of[self.led]
        hands = self.hands
        sm = self.suit_mask[self.led]
        tm = self.trump_mask
        best = mate = -1
        for nxt, partner in self.later[s][len(self.trick)]:
            h = hands[nxt]
            if not h:
                continue
            pool = h & sm or h & tm or h        # ``_top_play``
            top = o[(pool & -pool).bit_length() - 1]
            if partner:
                if top > mate:
                    mate = top
            elif top > best:
                best = top
        return best, mate

    def _lead_order(self, s: int, cards: list) -> list:
        """Leads, likeliest best first, by a weight for each card: the lead ordering of
        the double-dummy solvers of partnership games of four seats, read for any seats
        and teams (the seat after the leader and the seat before it, when opponents,
        are the "next" and "last" opponent; any partner of the leader stands for
        "partner").

        For a suit: fewer cards in the opponents' hands are better (a void counts as
        many cards: they may throw anything); worse when an opponent can trump it or
        the last opponent holds one of its two highest cards (over the leader's side),
        better when a partner can trump it, when the next opponent holds its highest
        card and a partner its second (the lead goes through), and when the leader
        leads a singleton towards a partner's winner to trump the return. For a card:
        one whose trick the leader's side wins (its highest card; a partner's card
        above the opponents'; a partner trumping) weighs more than one that gives up
        the lead, the cheapest first; a lead from the top of a sequence under the
        highest card comes next, and a low card last."""
        hands = self.hands
        in_play = ~self.gone
        SM = self.suit_mask
        suit = self.suit
        trumps = -1 if self.no_trumps else self.trumps
        tm = SM[trumps] if trumps >= 0 else 0
        team, opps = self.mates[s]
        nxt, last = self.lead_ends[s]
        trumping = bool(tm & in_play)       # trumps still in play
        void_weight = (hands[s].bit_count() + 1) << 2
        mine = hands[s]
        active = self.active
        lowest_rank = self.R + 1
        rank = self.rank
        opp_cards = mate_cards = 0
        for o in opps:
            opp_cards |= hands[o]
        for p in team:
            mate_cards |= hands[p]
        by_suit = {}
        for c in cards:
            by_suit.setdefault(suit[c], []).append(c)
        weight = {}
        # a suit's weights rest on the seat leading, every hand's cards of the suit and
        # of trumps (the partition search's packed holdings) and the tricks left:
        # remembered by those
        cache = self.lead_cache if self.ps else None
        if cache is not None:
            packed = self.packed
            tkey = packed[trumps] if trumps >= 0 else 0
            if len(cache) > 1 << 18:
                cache.clear()
        for k, cs in by_suit.items():
            if cache is not None:
                ckey = (s, k, packed[k], tkey, void_weight)
                ws = cache.get(ckey)
                if ws is not None:
                    weight.update(ws)
                    continue
            ws = {}
            sm = SM[k]
            live = in_play & sm
            t1 = live & -live                  # the highest card in play
            rest = live ^ t1
            t2 = rest & -rest                  # the second
            rest ^= t2
            t3 = rest & -rest                  # the third
            w1 = w2 = w3 = -1                  # who holds them (-1: no one)
            length = {-1: 0}
            for x in active:
                h = hands[x]
                length[x] = (h & sm).bit_count()
                if h & t1:
                    w1 = x
                if h & t2:
                    w2 = x
                if h & t3:
                    w3 = x
            opp_count = 0
            for o in opps:
                opp_count += (length[o] << 2) or void_weight
            x = opp_cards & sm
            opp_high = x & -x                  # the opponents' highest card of the suit
            x = mate_cards & sm
            mate_high = x & -x
            mate_over = bool(mate_high) and (not opp_high or mate_high < opp_high)
            single_top = (nxt >= 0 and w1 == nxt and length[nxt] == 1) or \
                (last >= 0 and w1 == last and length[last] == 1)
            # the leader's side holds the second and third highest cards (the highest
            # of the next round): 2 in partners' hands, 1 with the leader's and a
            # partner's holding more than one card
            if w2 in team and w3 in team:
                next_round = 2
            elif (w2 == s and w3 in team and length[w3] > 1) or (w2 in team and w3 == s and length[w2] > 1):
                next_round = 1
            else:
                next_round = 0
            plays = []       # (card, its bit, its place from the top, heads a sequence)
            for c in cs:
                bit = 1 << c
                below = live & ~((bit << 1) - 1)
                plays.append((c, bit, (live & (bit - 1)).bit_count() + 1, bool(below & -below & mine)))
            if trumping:
                d = -((opp_count << 5) // 13)
                side_suit = k != trumps
                ruffers = [p for p in team if not length[p] and hands[p] & tm] if side_suit else []
                opp_ruffers = [o for o in opps if not length[o] and hands[o] & tm] if side_suit else []
                if opp_ruffers:
                    d -= 12
                if ruffers and (last < 0 or length[last]):
                    d += 17
                if last >= 0 and (w1 == last or w2 == last):
                    if length[last] != 1:
                        d -= 12
                elif nxt >= 0 and w1 == nxt and w2 in team and length[w2] != 1:
                    d += 27
                if side_suit and length[s] == 1 and mine & tm and w1 in team and length[w1] > 1:
                    d += 19
                # a partner's ruff wins the trick if it beats every opponent's ruff
                over_ruffs = not opp_ruffers or all(any(_high(hands[p] & tm) < _high(hands[o] & tm) for p in ruffers)
                                                    for o in opp_ruffers)
                for c, bit, rr, seq in plays:
                    if bit == t1:
                        wins = over_ruffs
                    elif mate_over:
                        wins = not opp_ruffers
                    else:
                        wins = bool(ruffers) and over_ruffs
                    if wins:
                        if single_top:
                            w = d + 35 + rr
                        elif w1 == s:
                            w = d + 48 + rr if w2 in team else d + 31 if bit == t1 else d - 3 + rr
                        elif w1 in team:
                            w = d + 42 + rr if w2 == s else d + 28 + rr
                        elif seq:
                            w = d + 40 if bit == t2 else d + 22 + rr
                        else:
                            w = d + 11 + rr
                    else:
                        e = d + (0, 13, 20)[next_round]
                        if single_top:
                            w = e + 2 + rr
                        elif w1 == s:
                            w = e + 33 + rr if w2 in team else e + 38 if bit == t1 else e - 14 + rr
                        elif w1 in team:
                            w = e + 34 + rr
                        elif seq and bit == t2:
                            w = e + 35
                        else:
                            w = e + 17 - (lowest_rank - rank[c])
                    ws[c] = w
            else:
                d = -((opp_count << 5) // 19)
                if team and not any(length[p] for p in team):
                    d -= 9
                for c, bit, rr, seq in plays:
                    e = d
                    if bit == t1 or mate_over:
                        if last >= 0 and w2 == last:
                            if length[last] != 1:
                                e -= 1
                        elif nxt >= 0 and w2 == nxt:
                            e += 22 if length[nxt] != 1 else 16
                        if (w2 != nxt or length[nxt] == 1) and (w2 != last or length[last] == 1):
                            w = e + 45 + rr
                        else:
                            w = e + 18 + rr
                    else:
                        if last >= 0 and (w1 == last or w2 == last):
                            if length[last] != 1:
                                e -= 10
                        elif nxt >= 0 and w1 == nxt and w2 in team and length[w2] != 1:
                            e += 31
                        e += (0, 25, 35)[next_round]
                        if single_top:
                            w = e + 28 + rr
                        elif w1 == s:
                            w = e - 17 + rr
                        elif not seq:
                            w = e + 12 + rr
                        elif bit == t2:
                            w = e + 48
                        else:
                            w = e + 29 - rr
                    ws[c] = w
            weight.update(ws)
            if cache is not None:
                cache[ckey] = ws
        return sorted(cards, key=lambda c: -weight[c])

    # ------------------------------------------------------------ bounds and keys
    def _key(self, leader: int):
        hands = self.hands
        first = self.rs.tricks_done == 0 if self.first_rules else False
        if not self.relative:
            return (leader, first, tuple(hands))
        R = self.R
        full = (1 << R) - 1
        act = self.active
        n = len(act)
        key = [leader, first]
        for sh in self.shifts:
            k = 0
            for s in act:
                k = (k << R) | ((hands[s] >> sh) & full)
            key.append(_squeeze(k, n, R))
        return tuple(key)

    def _sure(self, leader: int) -> int:
        """Tricks the leader's team takes for certain, the leader cashing its winners
        (``_cash``)."""
        return self._cash(self.hands, ~self.gone, leader)[0]

    # ------------------------------------------------------------ the search
    def _search(self, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta on the side's tricks from here on."""
        self.nodes += 1
        if not self.nodes & 4095:
            self._check_budget()
        trick = self.trick
        hands = self.hands
        s = self.turn
        first = None
        key = None
        if not trick:
            left = hands[s].bit_count()
            if left <= 1:
                return self._last(s) if left else 0
            key = self._key(s)
            ent = self.tt.get(key)
            if ent is not None:
                lo, hi, first = ent
            else:
                lo, hi = 0, left
                if self.quick:
                    q = self._sure(s) if self.up else 0
                    if s in self.side:
                        lo = q
                    else:
                        hi = left - q
                    if self.trumps >= 0 and not self.no_trumps:
                        holder, run, _ = self._top_trumps()
                        if run:
                            if holder in self.side:
                                lo = max(lo, run)
                            else:
                                hi = min(hi, left - run)
                    self.tt[key] = (lo, hi, None)
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        maxing = s in self.maxers
        a0, b0 = alpha, beta
        best = -INF if maxing else INF
        best_move = None
        side = self.side
        keys_of = self.keys_of
        for c in self._moves(s, first):
            bit = 1 << c
            hands[s] ^= bit
            led, win_seat, win_card = self.led, self.win_seat, self.win_card
            if not trick:
                self.led = self.suit[c]
                self.win_seat, self.win_card = s, c
            elif keys_of[led][c] > keys_of[led][win_card]:
                self.win_seat, self.win_card = s, c
            trick.append((s, c))
            if len(trick) < self.n_active:
                self.turn = self.next_seat[s]
                v = self._search(alpha, beta)
            else:
                w = self.win_seat
                won = 1 if w in side else 0
                gone = self.gone
                for _, x in trick:
                    self.gone |= 1 << x
                self.trick = []
                self.turn = w
                self.rs.tricks_done += 1
                v = won + self._search(alpha - won, beta - won)
                self.rs.tricks_done -= 1
                self.trick = trick
                self.gone = gone
            trick.pop()
            hands[s] |= bit
            self.led, self.win_seat, self.win_card, self.turn = led, win_seat, win_card, s
            if maxing:
                if v > best:
                    best, best_move = v, c
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            elif v < best:
                best, best_move = v, c
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        if key is not None:
            lo, hi, _ = self.tt.get(key, (0, INF, None))
            if best <= a0:
                hi = min(hi, best)
            elif best >= b0:
                lo = max(lo, best)
            else:
                lo = hi = best
            self.tt[key] = (lo, hi, best_move)
            if best >= b0 and key == self.root_at:
                self.root_cut = best_move
        return best

    def _last(self, leader: int) -> int:
        """The last trick: every seat plays its one card."""
        hands = self.hands
        c = hands[leader].bit_length() - 1
        keys = self.keys_of[self.suit[c]]
        w, wk = leader, keys[c]
        for s in self.active:
            k = keys[hands[s].bit_length() - 1]
            if k > wk:
                w, wk = s, k
        return 1 if w in self.side else 0

    def _exact(self, offset: int = 0, every: bool = False, track: bool = False, guess=None) -> int:
        """The side's future tricks, or as much of them as the result depends on:
        null-window searches at the totals where the result changes (`offset`: tricks
        of the side already counted), halving the list of those totals. The number
        returned gives the same result as the true one; with `every`, it is the true
        one. `guess`: a likely answer, asked about first (or a function giving it)."""
        search = self._search_ps if self.ps else self._search
        hi = self.hands[self.turn].bit_count()      # the seat to move has not played to this trick
        B = self.base + offset
        curve = self.curve
        if every:
            steps = list(range(1, hi + 1))
        else:
            steps = [t for t in range(1, hi + 1) if curve[B + t] != curve[B + t - 1]]
        i, j = 0, len(steps)          # the side reaches steps[:i], and none of steps[j:]
        near = False
        if callable(guess):           # worth working out only where there is much to ask
            guess = guess() if len(steps) > 2 else None
        # the position searched from, to catch the move that reaches a total there
        self.root_cut = None
        if self.trick:
            self.root_at = None
        elif self.ps:
            self.root_at = self._ps_position(self.turn)
        else:
            self.root_at = self._key(self.turn)
        # from a lead, in the partition search, the leads are raced (``_race``)
        race = self.ps and not self.trick
        while i < j:
            if guess is None:
                t = steps[(i + j) // 2]
            elif not near:
                # first the total guessed ("can the side take `guess` more?"), then
                # the next one in the direction the answer lies, and so on: the
                # questions next to the answer are the hard ones, and when the guess is
                # right they are the only ones asked
                t = next((x for x in steps[i:j] if x >= guess), steps[j - 1])
                near = True
            else:
                t = steps[i] if v >= t else steps[j - 1]
            if race:
                v = self._race(t)
            else:
                v = search(t - 1, t)
                if self.ps:
                    v = v[0]
            if v >= t:
                if self.root_cut is not None:
                    self.root_move = self.root_cut
                while i < j and steps[i] <= v:
                    i += 1
            else:
                while j > i and steps[j - 1] > v:
                    j -= 1
            if track:
                # the side's future tricks lie in [least, most]: the results there
                least = steps[i - 1] if i else 0
                most = steps[j] - 1 if j < len(steps) else hi
                vals = [curve[B + t] for t in range(least, most + 1)]
                self.root_bounds = (min(vals), max(vals))
        return steps[i - 1] if i else 0

    def _race(self, t: int) -> int:
        """The search at a lead asked "does the side take `t` more tricks?", the leads
        raced: each lead in turn searched at most ``_RACE_FROM`` positions, then three
        times as many, and so on, the first lead to answer the question for the seat on
        lead taken (it takes `t` for a seat of the side that wants more, short of `t`
        for the other side). Where one lead's answer is cheap to prove and another's,
        as good, is dear (a soloist cashing an ace first, or giving up a trick first),
        the order of the leads no longer decides the cost. Leads proved the other way
        are dropped; the table keeps what each part-search proved. The returned value
        is read as the search's: at least `t`, or less than `t`."""
        s = self.turn
        maxing = s in self.maxers
        live = self._moves(s, self.root_move if maxing else None)
        budget = _RACE_FROM
        best = -INF if maxing else INF
        hands, packed = self.hands, self.packed
        while live:
            unsettled = []
            for c in live:
                held, kept = list(hands), list(packed)
                self.race_limit = self.nodes + budget
                saved, won = self._play(s, c)
                try:
                    v = won + self._search_ps(t - 1 - won, t - won)[0]
                except _Spent:
                    v = None
                finally:
                    # (a search cut short leaves the position part-way: put back)
                    self.race_limit = None
                    self._unplay(s, c, saved)
                    hands[:], packed[:] = held, kept
                if v is None:
                    unsettled.append(c)
                elif maxing:
                    if v >= t:
                        self.root_cut = c
                        return v
                    best = max(best, v)
                else:
                    if v < t:
                        return v
                    best = min(best, v)
            live = unsettled
            budget *= 3
        return best

    # ------------------------------------------------------------ partition search
    # Where following suit is the only rule, a position's result often depends on who
    # holds a few high cards and on how many cards of each suit each seat holds, not
    # on the small cards. The search then returns with its value the cards whose
    # ranks it relied on (the cards that won tricks by rank, the sure winners); the
    # table keeps, under the leader and every seat's suit lengths, the owners of the
    # ranks down to the lowest such card of each suit (relative ranks), and a bound
    # found there holds for every position that agrees with them (the partition
    # search of double-dummy solvers).
    def _ps_position(self, leader: int):
        sq = self.squeezed
        packed = self.packed
        try:
            return (leader, self.lens), [sq[k] for k in packed]
        except KeyError:
            n, R = self.n_active, self.R
            if len(sq) > 1 << 20:
                sq.clear()
            for k in packed:
                sq[k] = _squeeze(k, n, R)
            return (leader, self.lens), [sq[k] for k in packed]

    def _ps_prefix(self, rs) -> int:
        """The cards of the top `rs[k]` ranks still in play of each suit k."""
        in_play = ~self.gone
        full = self.full
        tops = _TOPS
        out = 0
        for r, sh in zip(rs, self.shifts):
            if r:
                m = (in_play >> sh) & full
                t = tops.get((m, r))
                if t is None:
                    if len(tops) > 1 << 20:
                        tops.clear()
                    t = tops[m, r] = _top(m, r)
                out |= t << sh
        return out

    def _sure_ps(self, leader: int, need: int = INF):
        """``_sure`` and the cards it counted; when that falls short of `need`, also the
        leader giving the lead to a partner that holds a suit's highest card (the
        leader following low to it, no opponent able to trump it) and the partner
        cashing its own sure winners then."""
        hands = self.hands
        in_play = ~self.gone
        best, used = self._cash(hands, in_play, leader)
        if best >= need:
            return best, used
        partners, opps = self.mates[leader]
        if not partners:
            return best, used
        SM = self.suit_mask
        trumps = -1 if self.no_trumps else self.trumps
        tm = self.trump_mask
        ruffers = [o for o in opps if hands[o] & tm] if tm else ()
        mine = hands[leader]
        for p in partners:
            rest = [t for t in partners if t != p]
            for k, sm in enumerate(SM):
                live = in_play & sm
                top = live & -live
                if not (hands[p] & top) or not (mine & sm) or (mine & top):
                    continue
                if k != trumps and ruffers:
                    ruff = False
                    for o in ruffers:
                        if not hands[o] & sm:
                            ruff = True   # an opponent could trump the way in
                            break
                    if ruff:
                        continue
                after = list(hands)
                gone = top
                low = 1 << ((mine & sm).bit_length() - 1)
                after[leader] ^= low
                after[p] ^= top
                gone |= low
                for o in opps:
                    x = hands[o] & sm
                    if x:
                        lo_card = 1 << (x.bit_length() - 1)
                        after[o] ^= lo_card
                        gone |= lo_card
                # the rest of the team plays to the way in too: each follows with its
                # lowest card of the suit, else one holding trumps throws a card of
                # another suit (it must not trump the partner's card); that card is
                # gone from its hand, so that what it holds beside trumps, which
                # ``_cash`` counts on, is not overcounted
                ok = True
                for t in rest:
                    x = hands[t] & sm
                    if x:
                        x = 1 << (x.bit_length() - 1)
                    elif hands[t] & tm:
                        x = hands[t] & ~tm
                        if not x:
                            ok = False    # nothing but trumps: it would trump
                            break
                        x = 1 << (x.bit_length() - 1)
                    after[t] ^= x
                if not ok:
                    continue
                n, cards = self._cash(after, in_play & ~gone, p)
                if n + 1 > best:
                    best, used = n + 1, cards | top
                    if best >= need:
                        return best, used
        return best, used

    def _cash(self, hands, in_play: int, leader: int):
        """(tricks, cards): the leader cashing its top cards (each the highest of its
        suit in play) in every suit when no opponent can trump, else the top trumps
        and in each other suit its top cards for as many rounds as every opponent
        holding trumps still follows it (following one suit takes no card of another,
        so the suits' rounds add up). A partner holding a trump never has to trump its
        leader's winner while it holds a card of another suit: the rounds in the
        other suits are counted up to the fewest such cards such a partner holds
        (those suits cashed before the trumps)."""
        partners, opps = self.mates[leader]
        mine = hands[leader]
        SM = self.suit_mask
        trumps = -1 if self.no_trumps else self.trumps
        tm = self.trump_mask
        ruffers = [hands[o] for o in opps if hands[o] & tm] if tm else ()
        side_rounds = trump_rounds = 0
        used = 0
        for k, sm in enumerate(SM):
            held = mine & sm
            if not held:
                continue
            # the leader's run of the suit's top cards in play: those above the
            # highest card in play it does not hold
            m = in_play & sm
            out = m & ~held
            cards = m & ((out & -out) - 1) if out else m
            if not cards:
                continue
            run = cards.bit_count()
            if k == trumps:
                trump_rounds += run
                used |= cards
            elif not ruffers:
                side_rounds += run
                used |= cards
            else:
                # every opponent holding trumps follows this suit for `safe` rounds
                # (following takes none of its cards of another suit)
                safe = run
                for h in ruffers:
                    x = (h & sm).bit_count()
                    if x < safe:
                        safe = x
                if safe:
                    side_rounds += safe
                    used |= _top(cards, safe)
        if tm and side_rounds:
            for p in partners:
                if hands[p] & tm:
                    spare = (hands[p] & ~tm).bit_count()
                    if spare < side_rounds:
                        side_rounds = spare
        return side_rounds + trump_rounds, used

    def _led_into(self, leader: int):
        """(tricks the other team takes for certain, the cards counted) when the
        leader's team holds no trump and the highest card in play of every suit the
        leader holds belongs to the other team: whatever is led, the holder of that
        suit's top card wins the trick (none of the leader's team can trump it); and
        when one seat holds every such top card, it wins the first and cashes the rest
        (each still the highest of its suit, and the leader's team cannot trump)."""
        hands = self.hands
        SM = self.suit_mask
        in_play = ~self.gone
        team = self.team_of[leader]
        tm = self.trump_mask
        mine = 0
        for p in team:
            if hands[p] & tm:
                return 0, 0
            mine |= hands[p]
        tops = 0
        lead = hands[leader]
        for sm in SM:
            if lead & sm:
                live = in_play & sm
                top = live & -live
                if mine & top:
                    return 0, 0
                tops |= top
        if not tops:
            return 0, 0
        for o in self.active:
            if hands[o] & tops == tops:
                return tops.bit_count(), tops
        return 1, tops

    def _top_trumps(self):
        """(a seat of the side holding the highest trump in play, how many tricks that
        side's trumps take for certain, the cards counted): a trump higher than every
        trump of the other side wins the trick it is played to for its side, and each
        trick takes one card of a hand, so a hand holding m of them brings its side m
        tricks; the two highest trumps in two hands of a side bring it two tricks where
        one of those hands holds another trump. Asked between tricks, where it reads
        only who holds which trump: in the partition search (which keeps ``packed``
        up to date) it is remembered by the trump suit's packed holdings."""
        if not self.ps:
            return self._top_trumps_of()
        return self._trump_bounds()[:3]

    def _trump_bounds(self):
        """(partition search) ``_top_trumps_of`` and ``_trump_floors_of`` together, remembered
        by the trump suit's packed holdings: all they read."""
        key = self.packed[self.trumps]
        got = self.trump_cache.get(key)
        if got is None:
            got = self.trump_cache[key] = self._top_trumps_of() + self._trump_floors_of()
        return got

    def _top_trumps_of(self):
        sm = self.suit_mask[self.trumps]
        live = ~self.gone & sm
        if not live:
            return -1, 0, 0
        top = live & -live
        hands = self.hands
        holder = next(s for s in self.active if hands[s] & top)
        theirs = 0
        for s in self.mates[holder][1]:
            theirs |= hands[s] & sm
        if theirs:
            high = theirs & -theirs            # their highest trump
            above = high - 1                   # the cards ranked above it
        else:
            above = sm
        best = 0
        cards = 0
        for s in self.team_of[holder]:
            m = hands[s] & sm & above
            n = m.bit_count()
            if n > best:
                best, cards = n, m
        if best == 1 and self.up:
            # (a count of what a side can make sure of: a bound only where each side
            # wants tricks)
            second = live ^ top
            second &= -second
            if second & above:
                two = next(s for s in self.active if hands[s] & second)
                if two != holder and ((hands[holder] & sm).bit_count() > 1 or (hands[two] & sm).bit_count() > 1):
                    # the two highest trumps in two hands of the team, one of which holds
                    # another trump: each takes a trick. That hand plays its top trump at
                    # its first chance to play a trump, unless the other hand must play
                    # its own top trump to that trick (its only trump, trumps led, or its
                    # only card): then it plays another trump (it has played none yet)
                    # or another card; the top trump not played there wins a later trick
                    best, cards = 2, top | second
        return holder, best, cards

    def _trump_floors_of(self):
        """(for the side, then for the other side, the tricks it takes for certain by
        its trumps as the trumps each count rests on: a tuple whose k-th is the fewest
        a count of k needs, as many as the count): every trump a hand plays wins its
        trick unless a higher trump of the other side is played to the same trick, and
        each of those beats at most one (one trick each); the hand plays every card it
        holds, so it takes at least as many tricks as it holds trumps less the most of
        them that the other side's higher trumps could beat, one each (matched from
        the top). A count of k made part-way down rests on the trumps down to the last
        one counted there: the other side's lower trumps beat none of those. Read only
        from who holds which trump (remembered with the top trumps: ``_trump_bounds``)."""
        sm = self.suit_mask[self.trumps]
        live = ~self.gone & sm
        hands = self.hands
        out = []
        for team in (True, False):
            mine = [hands[s] & sm for s in self.active if (s in self.side) == team]
            theirs = 0
            for s in self.active:
                if (s in self.side) != team:
                    theirs |= hands[s] & sm
            steps = []          # steps[k - 1]: the fewest trumps a count of k rests on
            for h in mine:
                # from the highest trump down: the hand's trumps so far less those the
                # other side's trumps so far could beat (each one, matched from the
                # top); the count rests on the trumps down to the last one counted
                avail = n = 0
                m = h | theirs
                while m & h:
                    b = m & -m
                    m ^= b
                    if b & theirs:
                        avail += 1
                    elif avail:
                        avail -= 1
                    else:
                        n += 1
                        rest = live & ((b << 1) - 1)
                        if n > len(steps):
                            steps.append(rest)
                        elif rest < steps[n - 1]:
                            steps[n - 1] = rest     # (a higher card: fewer trumps above it)
            out.append(tuple(steps))
        return tuple(out)

    def _behind_top_trump(self, leader: int):
        """(a seat whose side takes a trick for certain, the cards counted; -1 for none):
        the seat holds the second and third highest trumps in play, the highest being
        the other side's; or it holds the second highest trump and another trump, sits
        right after the seat of the other side holding the highest (or after it and
        partners of its own, none of them on lead), and does not lead. If the other
        side took every trick, neither this seat nor those partners would ever lead,
        so the holder of the highest trump would play before it to every trick: the
        first time this seat plays a trump, either the highest trump has just been
        played (it plays another trump, and its own is the highest from then on) or not
        (its own wins there)."""
        sm = self.suit_mask[self.trumps]
        live = ~self.gone & sm
        top = live & -live
        second = live ^ top
        if not second:
            return -1, 0
        second &= -second
        hands = self.hands
        for s in self.active:
            if hands[s] & second:
                break
        mine = s in self.side
        third = live ^ top ^ second
        third &= -third
        if hands[s] & third:
            # it holds the third highest too: the first time it plays a trump, it plays
            # that one, which either wins or draws the highest (its own second highest
            # is the highest from then on) — wherever it sits, on lead or not
            for a in self.active:
                if hands[a] & top:
                    if (a in self.side) != mine:
                        return s, top | second | third
                    break
        if s == leader or (hands[s] & sm).bit_count() < 2:
            return -1, 0
        prev = self.prev_seat
        a = prev[s]
        while (a in self.side) == mine:
            # a partner between them, not on lead, would never lead either
            if a == leader or a == s:
                return -1, 0
            a = prev[a]
        if hands[a] & top:
            return s, top | second
        return -1, 0

    def _last_ps(self, leader: int):
        hands = self.hands
        c = hands[leader].bit_length() - 1
        suit = self.suit
        keys = self.keys_of[suit[c]]
        w, wk, wc = leader, keys[c], c
        played = []
        for s in self.active:
            x = hands[s].bit_length() - 1
            played.append(x)
            k = keys[x]
            if k > wk:
                w, wk, wc = s, k, x
        by_rank = sum(1 for x in played if suit[x] == suit[wc]) > 1
        return (1 if w in self.side else 0), ((1 << wc) if by_rank else 0)

    def _search_ps(self, alpha: int, beta: int):
        """Fail-soft alpha-beta on the side's future tricks -> (value, cards relied on)."""
        self.nodes += 1
        if not self.nodes & 4095:
            self._check_budget()
        trick = self.trick
        hands = self.hands
        s = self.turn
        first = None
        node = None
        if not trick:
            left = hands[s].bit_count()
            if left <= 1:
                return self._last_ps(s) if left else (0, 0)
            if beta <= 0:
                return 0, 0         # the window asks nothing of this position
            if alpha >= left:
                return left, 0
            if self.trump_mask:
                # the trump floors first, before the table: remembered, and a count of
                # `beta` tricks for the side (or `left - alpha` for the other side)
                # rests on the trumps down to the last one it needs, no other card; the
                # fewer cards an answer rests on, the more positions its entries in the
                # table above stand for
                tb = self._trump_bounds()
                steps = tb[3]
                if beta <= len(steps):
                    return beta, steps[beta - 1]
                steps = tb[4]
                if left - alpha <= len(steps):
                    return alpha, steps[left - alpha - 1]
            node, q = self._ps_position(s)
            lo, hi = 0, left
            lo_rs = hi_rs = None
            lo_rel = hi_rel = 0
            groups = self.ptt.get(node)
            if groups:
                # one table per set of ranks relied on (`rs`: how many of each
                # suit's top cards), keyed by who holds those cards
                # the set that answered last is asked first (kept at the end)
                four = len(q) == 4
                if four:
                    q0, q1, q2, q3 = q
                for rs, masks, table in reversed(groups.values()):
                    if four:
                        m0, m1, m2, m3 = masks
                        e = table.get((q0 & m0, q1 & m1, q2 & m2, q3 & m3))
                    else:
                        e = table.get(tuple(x & m for x, m in zip(q, masks)))
                    if e is not None:
                        if e[0] > lo:
                            lo, lo_rs = e[0], rs
                        if e[1] < hi:
                            hi, hi_rs = e[1], rs
                        if e[2] is not None and hands[s] >> e[2] & 1:
                            first = e[2]
                        if lo >= beta or hi <= alpha:
                            groups[rs] = groups.pop(rs)
                            break
                if first is None:
                    m = self.ptt_move.get(node)
                    if m is not None and hands[s] >> m & 1:
                        first = m
                if lo >= beta or hi <= alpha or lo == hi:
                    # a bound past the window rests on its own entry only (a value
                    # outside the window is read as a bound); an exact value on both
                    lo_r = self._ps_prefix(lo_rs) if lo_rs is not None else 0
                    if lo >= beta:
                        return lo, lo_r
                    hi_r = self._ps_prefix(hi_rs) if hi_rs is not None else 0
                    if hi <= alpha:
                        return hi, hi_r
                    return lo, lo_r | hi_r
            qt, qrel = self._sure_ps(s, beta if s in self.side else left - alpha) if self.up else (0, 0)
            if s in self.side:
                if qt > lo:
                    lo, lo_rs, lo_rel = qt, None, qrel
            elif left - qt < hi:
                hi, hi_rs, hi_rel = left - qt, None, qrel
            if self.trump_mask and lo < beta and hi > alpha:
                # the top trumps of one hand each take a trick, whoever leads
                # (the trump floors were asked above)
                holder, run, cards = tb[:3]
                if run:
                    if holder in self.side:
                        if run > lo:
                            lo, lo_rs, lo_rel = run, None, cards
                    elif left - run < hi:
                        hi, hi_rs, hi_rel = left - run, None, cards
                if self.up and lo < beta and hi > alpha:
                    hh, cards = self._behind_top_trump(s)
                    if hh >= 0:
                        if hh in self.side:
                            if lo < 1:
                                lo, lo_rs, lo_rel = 1, None, cards
                        elif left - 1 < hi:
                            hi, hi_rs, hi_rel = left - 1, None, cards
            if self.up and lo < beta and hi > alpha:
                run, cards = self._led_into(s)
                if run:
                    if s in self.side:
                        if left - run < hi:
                            hi, hi_rs, hi_rel = left - run, None, cards
                    elif run > lo:
                        lo, lo_rs, lo_rel = run, None, cards
            if lo >= beta or hi <= alpha or lo == hi:
                # a bound settles it: the cards that bound relied on (past the
                # window, that bound's alone)
                lo_r = self._ps_prefix(lo_rs) if lo_rs is not None else lo_rel
                if lo >= beta:
                    return lo, lo_r
                hi_r = self._ps_prefix(hi_rs) if hi_rs is not None else hi_rel
                if hi <= alpha:
                    return hi, hi_r
                return lo, lo_r | hi_r
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        maxing = s in self.maxers
        a0, b0 = alpha, beta
        best = -INF if maxing else INF
        best_move = None
        cut_rel = None
        all_rel = 0
        side = self.side
        keys_of = self.keys_of
        suit = self.suit
        SM = self.suit_mask
        small = 0          # cards whose rank a search showed not to matter: not tried
        flips = self.flip[s]
        packed = self.packed
        search = self._search_ps
        # what every move starts from (each is undone before the next)
        led, win_seat, win_card = self.led, self.win_seat, self.win_card
        leading = not trick
        last = len(trick) == self.n_active - 1      # this card ends the trick
        nxt = self.next_seat[s]
        if not leading:
            keys = keys_of[led]
            wk = keys[win_card]
        tm0 = 0                                      # the cards already in the trick
        if last:
            for _, x in trick:
                tm0 |= 1 << x
        if leading or not self.plain:
            moves = self._moves(s, first)
        else:
            a = hands[s] & SM[led]
            # one card of the suit led: the only move (no ordering to do)
            moves = [a.bit_length() - 1] if a and not a & (a - 1) else self._moves(s, first)
        for c in moves:
            bit = 1 << c
            if bit & small:
                continue
            hands[s] ^= bit
            fk, fx, fu = flips[c]
            packed[fk] ^= fx
            self.lens -= fu
            if leading:
                self.led = suit[c]
                self.win_seat = s
                self.win_card = c
            elif keys[c] > wk:
                self.win_seat = s
                self.win_card = c
            trick.append((s, c))
            if not last:
                self.turn = nxt
                v, r = search(alpha, beta)
            else:
                w, wc = self.win_seat, self.win_card
                won = 1 if w in side else 0
                tm = tm0 | bit
                ws = tm & SM[suit[wc]]
                by_rank = ws & (ws - 1)         # another card of the winning suit
                gone = self.gone
                self.gone = gone | tm
                self.trick = []
                self.turn = w
                v, r = search(alpha - won, beta - won)
                v += won
                if by_rank:
                    r |= 1 << wc
                self.trick = trick
                self.gone = gone
            trick.pop()
            hands[s] |= bit
            packed[fk] ^= fx
            self.lens += fu
            self.led, self.win_seat, self.win_card, self.turn = led, win_seat, win_card, s
            if r & bit:
                # the card's rank counted: so do those of the cards it stood for (the
                # moves searched rest on them), unless it alone decides here (a cut)
                all_rel |= self._class_mask(s, c)
            else:
                # the result did not rest on this card's rank: any other card of its
                # suit below the lowest card whose rank it rested on leaves the same
                # position as far as the result reads it (the same value), so it is
                # not tried
                sm = SM[suit[c]]
                rk = r & sm
                if not rk:
                    small |= sm
                elif c > rk.bit_length() - 1:
                    small |= sm & ~((1 << rk.bit_length()) - 1)
            all_rel |= r
            if maxing:
                if v > best:
                    best, best_move = v, c
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            cut_rel = r
                            break
            elif v < best:
                best, best_move = v, c
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        cut_rel = r
                        break
        rel = cut_rel if cut_rel is not None else all_rel
        if node is not None:
            self._ps_store(node, q, rel, best, a0, b0, best_move)
            if best >= b0 and self.root_at is not None and self.root_at[0] == node and self.root_at[1] == q:
                self.root_cut = best_move
        return best, rel

    def _class_mask(self, s: int, c: int) -> int:
        """Card `c` of seat `s` and the cards of its hand equivalent to it (adjacent, no
        card in play between)."""
        hand = self.hands[s]
        # the cards of the suit in play below c, down to the first one s lacks
        below = ~self.gone & self.suit_mask[self.suit[c]] & ~((2 << c) - 1)
        miss = below & ~hand
        if miss:
            below &= (miss & -miss) - 1
        return (1 << c) | below

    def _ps_store(self, node, q, rel, best, a0, b0, move):
        in_play = ~self.gone
        full = self.full
        tops = self.tops
        rs = []
        pats = []
        for x, sh in zip(q, self.shifts):
            rk = (rel >> sh) & full
            if rk:
                # the cards in play down to the lowest one relied on
                r = ((in_play >> sh) & full & ((1 << rk.bit_length()) - 1)).bit_count()
                rs.append(r)
                pats.append(x & tops[r])
            else:
                rs.append(0)
                pats.append(0)
        if best <= a0:
            lo, hi = 0, best
        elif best >= b0:
            lo, hi = best, INF
        else:
            lo = hi = best
        rs = tuple(rs)
        groups = self.ptt.get(node)
        if groups is None:
            groups = self.ptt[node] = {}
        group = groups.get(rs)
        if group is None:
            group = groups[rs] = (rs, tuple(tops[r] for r in rs), {})
        table = group[2]
        pats = tuple(pats)
        e = table.get(pats)
        if e is None:
            table[pats] = [lo, hi, move]
            self.ptt_size += 1
            if self.ptt_size > _PTT_LIMIT:
                # a search too big to remember: start the table again
                self.ptt.clear()
                self.ptt_size = 0
        else:
            if lo > e[0]:
                e[0] = lo
            if hi < e[1]:
                e[1] = hi
            if move is not None:
                e[2] = move
        if move is not None:
            self.ptt_move[node] = move

    # ------------------------------------------------------------ the root
    def _value(self, future: int) -> int:
        return self.curve[self.base + future]

    root_move = root_cut = root_at = None

    def _played_out(self):
        """The side's future tricks when heuristic players play the deal out (a
        guess at the answer, to ask about first), or None."""
        from .heuristic import HeuristicAgent
        import random
        d = copy.deepcopy(self.deal, {id(self.g): self.g})
        agent = HeuristicAgent(random.Random(0))
        base = sum(d.tricks[s] for s in self.side)
        while d.phase == PLAY and not d.is_terminal():
            d.apply_action(agent.act(d))
        if d.conceded or d.ended_early:
            return None
        return sum(d.tricks[s] for s in self.side) - base

    def root_value(self):
        best = None
        self.root_move = None
        # a long play with many totals to tell apart: heuristic players' result first
        future = self._exact(track=True, guess=self._played_out if self.hands[self.turn].bit_count() > 8 else None)
        v = self._value(future)
        if self.hands[self.turn]:
            vals = self._child_values(stop_at=v, guess=future, first=self.root_move)
            best = next(a for a, x in vals.items() if self._value(x) == v)
        return v, best

    def root_values(self) -> dict:
        return {a: self._value(x) for a, x in self._child_values().items()}

    def root_tricks(self, cards) -> dict:
        """The side's tricks from now on, exactly, after each of these moves at the root
        (cards the search keeps for their class: ``classes``)."""
        return self._child_values(only=cards, every=True)

    def _child_values(self, stop_at=None, only=None, every=False, guess=None, first=None) -> dict:
        """The side's future tricks after each searched move at the root (`only`: after
        these; `every`: exactly, not only as far as the result depends on them;
        `guess`: the likely answer, the root's: each move's search asks about it, or
        about the answer of the move before, first)."""
        s = self.turn
        out = {}
        for c in (self._moves(s, first) if only is None else only):
            saved, won = self._play(s, c)
            out[c] = won + self._exact(won, every, guess=None if guess is None else guess - won)
            guess = out[c]
            self._unplay(s, c, saved)
            if stop_at is not None and self._value(out[c]) == stop_at:
                break
        return out

    def _play(self, s: int, c: int):
        """Seat `s` plays card `c` at the root of the search (``_child_values``,
        ``_race``), the trick ended where it is the last card. -> (what ``_unplay``
        puts back, 1 where the card ends a trick the side wins, else 0)."""
        trick = self.trick
        saved = (self.lens, self.led, self.win_seat, self.win_card, self.turn, trick, list(trick),
                 self.gone, self.rs.tricks_done)
        self.hands[s] ^= 1 << c
        fk, fx, fu = self.flip[s][c]
        self.packed[fk] ^= fx
        self.lens -= fu
        if not trick:
            self.led = self.suit[c]
            self.win_seat, self.win_card = s, c
        elif self.keys_of[self.led][c] > self.keys_of[self.led][self.win_card]:
            self.win_seat, self.win_card = s, c
        trick.append((s, c))
        if len(trick) < self.n_active:
            self.turn = self.next_seat[s]
            return saved, 0
        for _, x in trick:
            self.gone |= 1 << x
        self.trick = []
        self.turn = self.win_seat
        self.rs.tricks_done += 1
        return saved, 1 if self.win_seat in self.side else 0

    def _unplay(self, s: int, c: int, saved):
        """Takes back ``_play``'s card `c`, the search below it done (one cut short
        leaves the hands and the packed holdings part-way: ``_race`` puts those back
        from copies)."""
        self.hands[s] |= 1 << c
        fk, fx, _ = self.flip[s][c]
        self.packed[fk] ^= fx
        (self.lens, self.led, self.win_seat, self.win_card, self.turn, trick, cards,
         self.gone, self.rs.tricks_done) = saved
        trick[:] = cards
        self.trick = trick


# ---------------------------------------------------------------- the compiled copy
def _compiled_copy():
    """The compiled copy of this file (``talon_cards._solver_c``, which setup.py builds
    where Cython and a C compiler are at hand) when it was built from this very text,
    else None: an edited file runs as Python until the package is built again, and
    ``TALON_PURE_PYTHON=1`` leaves the copy unused."""
    if __name__ != "talon_cards.solver" or os.environ.get("TALON_PURE_PYTHON"):
        return None
    try:
        from . import _solver_c
    except Exception:      # not built, or built for another Python or another text
        return None
    with open(__file__, "rb") as f:
        text = f.read()
    return _solver_c if _built_from(_solver_c, text) else None


def _built_from(built, text: bytes) -> bool:
    """The compiled copy was built from this text of solver.py (setup.py stamps it)."""
    return getattr(built, "SOURCE_DIGEST", None) == hashlib.sha256(text).hexdigest()


#: the compiled copy in use (its names stand for this file's), or None
COMPILED = _compiled_copy()
if COMPILED is not None:
    globals().update({k: v for k, v in vars(COMPILED).items()
                      if not k.startswith("__") and k not in ("COMPILED", "SOURCE_DIGEST")})


def build() -> str:
    """How the solver runs here: "compiled" (the copy setup.py builds) or "python".
    (Defined after the hand-over, so that it reads this module's COMPILED.)"""
    return "python" if COMPILED is None else "compiled"
