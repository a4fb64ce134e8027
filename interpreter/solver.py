"""The open-card solver: the exact result of a deal's play under perfect play, with
every hand known (what bridge players call a double-dummy solver), for any spec.

    from interpreter.solver import solve
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

How
    The solver works on a private clone of the deal, applying actions and undoing them
    (the play phase's own code, mirrored step for step in ``_do``/``_undo`` for
    ordinary trick play; for a stock, closing, exchanging or a deal that ends at once
    it applies the engine's ``Play.apply`` and restores a snapshot). The search is
    fail-soft alpha-beta with

    * a transposition table keyed by the position (hands, trick, trumps, whose turn)
      and by what of the past the scoring can still read (each seat's tricks and card
      points, or the very cards each seat took when a formula asks for cards taken;
      melds; the stock and its closing),
    * move ordering (the table's best move, then cheap winners, low losers, points to
      a partner's trick),
    * equivalent-card pruning: cards of one suit held by one seat, adjacent in rank
      with no card between them still in play (in a hand, the trick or the stock),
      worth the same points and not named by any rule, give the same result; only
      one of them is searched.

Melds announced with a lead, closing the stock, exchanging the face-up card and
conceding are moves like card plays; the stock's order is taken as known; a deal that
ends at once (a goal reached, a contract lost) is a leaf like the last trick.
"""
from __future__ import annotations

import copy
import time

from .engine.deal import DONE, PLAY, bits
from .engine.env import EMPTY, Env
from .engine.play import Play, _rules
from .language.tree import E

INF = 1 << 60


class Timeout(Exception):
    """The search ran out of the time or nodes it was given."""


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
    """Every name the spec's formulas use (``tricks``, ``hearts taken by seat`` …)."""
    cache = game._cache.get("solver_names")
    if cache is not None:
        return cache
    out = set()

    def walk(x):
        if isinstance(x, E):
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
    nodes, seconds: the search's effort
    """
    __slots__ = ("value", "best", "values", "seat", "side", "others", "nodes", "seconds")

    def __init__(self, value, best, values, seat, side, others, nodes, seconds):
        self.value, self.best, self.values = value, best, values
        self.seat, self.side, self.others = seat, side, others
        self.nodes, self.seconds = nodes, seconds

    def __repr__(self):
        return (f"Solution(value={self.value:g}, best={self.best}, seat={self.seat}, "
                f"nodes={self.nodes}, seconds={self.seconds:.3f})")


def solve(deal, seat: int | None = None, all_actions: bool = False,
          time_limit: float | None = None, max_nodes: int | None = None) -> Solution:
    """The exact result of `deal` under perfect play for `seat` (default: the seat to
    move), every hand known. The deal is not changed. With ``all_actions``, the
    result of each legal action of the seat to move. Raises ``Timeout`` when
    ``time_limit`` seconds or ``max_nodes`` nodes are spent first."""
    return Solver(deal, seat).solve(all_actions, time_limit, max_nodes)


class Solver:
    """The search, on a private clone of one deal, for one seat's side. A Solver may
    be asked again after actions of that same deal have been applied to it
    (``advance``): what it learned stays valid."""

    def __init__(self, deal, seat: int | None = None):
        g = self.g = deal.game
        d = self.d = copy.deepcopy(deal, {id(g): g})
        if seat is None:
            seat = d.turn if d.turn >= 0 else (d.active[0] if d.active else 0)
        self.seat = seat
        self.side, self.others = teams(d, seat)
        self.side_set = frozenset(self.side)
        self.sign = score_sign(g)
        self.scale = _scale(self.side, self.others)
        self.tt = {}
        self.nodes = 0
        c = g.codec
        self.MELD, self.PASS, self.CONCEDE = c.MELD, c.PASS, c.CONCEDE
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
        self._root_fields()

    # ------------------------------------------------------------ leaves
    def _root_fields(self):
        """What scoring a deal changes, as it is before the end: restored after each leaf."""
        d = self.d
        self.root = (list(d.scores), list(d.deltas), {k: list(v) for k, v in d.counters.items()},
                     dict(d.lets), d.made, list(d.meld_points_of), list(d.deal_points_of))

    def _leaf(self) -> int:
        """The scaled result of the finished clone; then the scoring is taken back."""
        d = self.d
        v = _scaled(d.deltas, self.side, self.others, self.sign)
        scores, deltas, counters, lets, made, mp, dp = self.root
        d.scores[:] = scores
        d.deltas[:] = deltas
        for k, arr in d.counters.items():
            arr[:] = counters[k]
        d.lets.clear()
        d.lets.update(lets)
        d.made = made
        d.meld_points_of[:] = mp
        d.deal_points_of[:] = dp
        return v

    # ------------------------------------------------------------ the position's key
    def _key(self):
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

    # ------------------------------------------------------------ moves
    def _in_play(self) -> int:
        d = self.d
        m = d.talon
        for h in d.hands:
            m |= h
        for _, c in d.trick:
            m |= 1 << c
        for c in d.stock:
            m |= 1 << c
        return m

    def _representatives(self, allowed: int) -> list:
        """One card of each class of equivalent cards in `allowed` (highest first)."""
        if not allowed:
            return []
        in_play = self._in_play()
        suit = self.g.card_suit
        pts = self.points
        special = self.special
        out = []
        prev = -1
        for c in bits(allowed):
            if (prev >= 0 and suit[prev] == suit[c] and pts[prev] == pts[c]
                    and not (special >> c & 1) and not (special >> prev & 1)
                    and not in_play & ((1 << c) - (2 << prev))):
                prev = c              # the same class as the card kept before it
                continue
            out.append(c)
            prev = c
        return out

    def _moves(self, s: int, first=None) -> list:
        """The moves searched at this node, best guesses first."""
        d = self.d
        g = self.g
        hand = d.hands[s]
        trick = d.trick
        if trick:
            allowed = self.follow(d, hand, d.trick_suit, d.trumps, d.win_card)
        else:
            allowed = self.lead(d, hand)
        cards = self._representatives(allowed)
        mine = (s in self.side_set)
        if trick:
            keys = d.trick_keys
            wk = keys[d.win_card]
            pts = self.points
            friend = (d.win_seat in self.side_set) == mine
            win = [c for c in cards if keys[c] > wk]
            lose = [c for c in cards if keys[c] <= wk]
            if friend:
                lose.sort(key=lambda c: (-pts[c], keys[c]))
                win.sort(key=lambda c: keys[c])
                moves = lose + win
            else:
                win.sort(key=lambda c: keys[c])
                lose.sort(key=lambda c: (pts[c], keys[c]))
                moves = win + lose
        else:
            rank = g.card_rank
            moves = sorted(cards, key=lambda c: rank[c])
            if g.melds:
                moves = Play.meld_leads(d, s, allowed) + moves
            if not self.fast:
                moves = Play.pre_lead(d, s) + moves
        if g.concede is not None and d._can_concede(s):
            moves.append(self.CONCEDE)
        if first is not None and first in moves and moves[0] != first:
            moves.remove(first)
            moves.insert(0, first)
        return moves

    # ------------------------------------------------------------ applying, undoing
    def _do(self, s: int, a: int):
        """Apply action `a` of seat `s` to the clone; the return value undoes it."""
        d = self.d
        if a == self.CONCEDE:
            d.conceded = True
            d.finish()
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
            d.finish()
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
        d = self.d
        if d.phase != PLAY:
            return self._leaf()
        self.nodes += 1
        if self.nodes & 1023 == 0:
            self._check_budget()
        key = self._key()
        ent = self.tt.get(key)
        first = None
        lo, hi = -INF, INF
        if ent is not None:
            lo, hi, first = ent
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
        s = d.turn
        maxing = s in self.side_set
        a0, b0 = alpha, beta
        best_move = None
        if maxing:
            best = -INF
            for a in self._moves(s, first):
                u = self._do(s, a)
                v = self._search(alpha, beta)
                self._undo(s, u)
                if v > best:
                    best, best_move = v, a
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        else:
            best = INF
            for a in self._moves(s, first):
                u = self._do(s, a)
                v = self._search(alpha, beta)
                self._undo(s, u)
                if v < best:
                    best, best_move = v, a
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        # what the search proved, beside the bounds known before: an upper bound when
        # it failed low, a lower bound when it failed high, else the value itself
        if best <= a0:
            hi = best
        elif best >= b0:
            lo = best
        else:
            lo = hi = best
        self.tt[key] = (lo, hi, best_move)
        return best

    def _check_budget(self):
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise Timeout()
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise Timeout()

    # ------------------------------------------------------------ the root
    def solve(self, all_actions: bool = False, time_limit: float | None = None,
              max_nodes: int | None = None) -> Solution:
        t0 = time.perf_counter()
        self.deadline = None if time_limit is None else t0 + time_limit
        self.max_nodes = None if max_nodes is None else self.nodes + max_nodes
        d = self.d
        start_nodes = self.nodes
        values = None
        if d.phase != PLAY:
            if d.phase == DONE:
                v = _scaled(d.deltas, self.side, self.others, self.sign)
            else:
                raise ValueError("the solver starts in the play phase (or at the end of a deal)")
            best = None
        elif all_actions:
            s = d.turn
            maxing = s in self.side_set
            values = {}
            for a in self._moves(s):
                u = self._do(s, a)
                values[a] = self._search(-INF, INF)
                self._undo(s, u)
            # equivalent cards share their class's value
            for a in d.legal_actions():
                if a not in values:
                    values[a] = values[self._class_of(a, values)]
            pick = max if maxing else min
            best = pick(values, key=lambda a: (values[a], -a) if maxing else (values[a], a))
            v = values[best]
            values = {a: x / self.scale for a, x in sorted(values.items())}
        else:
            v = self._mtdf(0)
            best = self.tt.get(self._key(), (0, 0, None))[2]
        return Solution(v / self.scale, best, values, self.seat, self.side, self.others,
                        self.nodes - start_nodes, time.perf_counter() - t0)

    def _mtdf(self, guess: int) -> int:
        """The exact value by null-window searches closing in on it (MTD(f))."""
        lo, hi = -INF, INF
        g = guess
        while lo < hi:
            beta = g + 1 if g == lo else g
            g = self._search(beta - 1, beta)
            if g < beta:
                hi = g
            else:
                lo = g
        return g

    def _class_of(self, a: int, values: dict) -> int:
        """The searched card equivalent to card `a` (same suit, nothing in play between)."""
        d = self.d
        suit = self.g.card_suit
        in_play = self._in_play()
        for b in values:
            if b < self.MELD and suit[b] == suit[a]:
                lo, hi = min(a, b), max(a, b)
                if not in_play & ((1 << hi) - (2 << lo)) & ~(1 << a) & ~(1 << b):
                    return b
        raise KeyError(a)
