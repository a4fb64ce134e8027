"""Typed expressions compiled to Python closures once, when the spec loads.

Every name an expression may use is listed in ``NAMES`` with its type and the moments
of the deal where it is known. A compiled expression is a function ``f(st, env)``
taking the deal state and a small environment (the seat or meld in question); the
engine calls it without ever walking a syntax tree.
"""
from __future__ import annotations

import operator
from dataclasses import dataclass

from .errors import Collector, did_you_mean
from .syntax import E

NUM, BOOL, SEAT, SIDE, SUIT, CONTRACT, NONE = "number", "yes/no", "seat", "side", "suit", "contract", "nothing"

SUIT_WORDS = {"spades": 0, "hearts": 1, "diamonds": 2, "clubs": 3}


@dataclass(frozen=True)
class Scope:
    """What an expression may refer to where it stands."""
    where: str                 # auction, meld, seat, deal, end, play
    seat: bool = False         # a seat is in question (each defender, any seat …)
    meld: bool = False         # a meld is in question (its suit, its announcer)


class Env:
    __slots__ = ("seat", "suit")

    def __init__(self, seat=-1, suit=-1):
        self.seat = seat
        self.suit = suit


# name -> (type, moments where it is known, getter(st, env))
# moments: a = auction, p = play, s = scoring, e = end of deal/game, l = first lead
# Per-seat quantities: "X of SEAT" or "X of SIDE" (summed); bare X means "of the seat
# in question".
SEAT_QUANTITIES = {
    "points": "deal_points_of",
    "card points": "card_points",
    "meld points": "meld_points_of",
    "tricks": "tricks",
    "score": "scores",
    "passes": "passes",
}


class Compiler:
    def __init__(self, model, out: Collector):
        self.m = model            # the Game being built (tables, ladder, lets)
        self.out = out
        self.lets: dict = {}      # name -> (type, fn)

    # -------------------------------------------------------------- entry points
    def compile(self, e: E, scope: Scope, want: str | None = None):
        try:
            t, f = self._c(e, scope)
        except _Fail:
            return None, None
        if want and t != want and not (want == NUM and t == NONE):
            self.out.error(e.loc, f"expected {_a(want)} here, but `{_src(e)}` is {_a(t)}")
            return None, None
        return t, f

    # -------------------------------------------------------------- the compiler
    def _err(self, e: E, msg: str, hint: str = ""):
        self.out.error(e.loc, msg, hint)
        raise _Fail()

    def _c(self, e: E, sc: Scope):
        op = e.op
        if op == "num":
            v = e.args[0]
            return NUM, lambda st, env: v
        if op == "name":
            return self._name(e, e.args[0], sc)
        if op == "lookup":
            return self._lookup(e, sc)
        if op == "neg":
            f = self._num(e.args[0], sc)
            return NUM, lambda st, env: -f(st, env)
        if op == "arith":
            o, a, b = e.args
            fa, fb = self._num(a, sc), self._num(b, sc)
            if o == "+":
                return NUM, lambda st, env: fa(st, env) + fb(st, env)
            if o == "-":
                return NUM, lambda st, env: fa(st, env) - fb(st, env)
            if o == "*":
                return NUM, lambda st, env: fa(st, env) * fb(st, env)
            def div(st, env):
                d = fb(st, env)
                return fa(st, env) // d if d else 0
            return NUM, div
        if op == "not":
            f = self._bool(e.args[0], sc)
            return BOOL, lambda st, env: not f(st, env)
        if op in ("and", "or"):
            fs = tuple(self._bool(x, sc) for x in e.args)
            if op == "and":
                return BOOL, lambda st, env: all(f(st, env) for f in fs)
            return BOOL, lambda st, env: any(f(st, env) for f in fs)
        if op == "cmp":
            o, a, b = e.args
            ta, fa = self._c(a, sc)
            tb, fb = self._c(b, sc)
            if o in ("=", "!="):
                if not _compatible(ta, tb):
                    self._err(e, f"cannot compare {_a(ta)} (`{_src(a)}`) with {_a(tb)} (`{_src(b)}`)")
            else:
                if ta != NUM:
                    self._err(a, f"`{_src(a)}` is {_a(ta)}, but `{o}` compares numbers")
                if tb != NUM:
                    self._err(b, f"`{_src(b)}` is {_a(tb)}, but `{o}` compares numbers")
            fn = {"=": operator.eq, "!=": operator.ne, ">=": operator.ge, "<=": operator.le,
                  "<": operator.lt, ">": operator.gt}[o]
            return BOOL, lambda st, env: fn(fa(st, env), fb(st, env))
        if op == "if":
            c, a, b = e.args
            fc = self._bool(c, sc)
            ta, fa = self._c(a, sc)
            tb, fb = self._c(b, sc)
            if not _compatible(ta, tb):
                self._err(e, f"both branches must be of one kind: {_a(ta)} and {_a(tb)}")
            return (ta if ta != NONE else tb), lambda st, env: fa(st, env) if fc(st, env) else fb(st, env)
        if op in ("any_seat", "every_seat"):
            inner = Scope(sc.where, seat=True, meld=sc.meld)
            f = self._bool(e.args[0], inner)
            q = any if op == "any_seat" else all
            def quant(st, env):
                sub = Env(-1, env.suit)
                res = []
                for s in st.all_seats:
                    sub.seat = s
                    res.append(f(st, sub))
                return q(res)
            return BOOL, quant
        if op == "call":
            return self._call(e, sc)
        self._err(e, f"cannot use `{_src(e)}` here")

    def _num(self, e, sc):
        t, f = self._c(e, sc)
        if t != NUM:
            self._err(e, f"expected a number, but `{_src(e)}` is {_a(t)}")
        return f

    def _bool(self, e, sc):
        t, f = self._c(e, sc)
        if t != BOOL:
            self._err(e, f"expected a condition (yes/no), but `{_src(e)}` is {_a(t)}")
        return f

    def _call(self, e, sc):
        name, *args = e.args
        fs = [self._num(a, sc) for a in args]
        arity = {"round": 2, "min": None, "max": None, "abs": 1}
        if name not in arity:
            self._err(e, f"unknown function `{name}`", did_you_mean(name, arity) or
                      "functions are round(x, n), min(a, b), max(a, b), abs(x)")
        if arity[name] and len(fs) != arity[name]:
            self._err(e, f"`{name}` takes {'one value' if arity[name] == 1 else f'{arity[name]} values'}, not {len(fs)}")
        if name == "round":
            fx, fn = fs
            def rnd(st, env):
                n = fn(st, env)
                if n <= 0:
                    return fx(st, env)
                x = fx(st, env)
                return ((2 * x + n) // (2 * n)) * n   # nearest multiple, halves up
            return NUM, rnd
        if name == "abs":
            f = fs[0]
            return NUM, lambda st, env: abs(f(st, env))
        if len(fs) < 1:
            self._err(e, f"`{name}` needs at least one value")
        g = min if name == "min" else max
        return NUM, lambda st, env: g(f(st, env) for f in fs)

    # -------------------------------------------------------------- names
    def _name(self, e: E, name: str, sc: Scope):
        m = self.m
        name = name.removeprefix("the ").strip()
        if name in self.lets:
            return self.lets[name]
        if name in SEAT_QUANTITIES:
            if not sc.seat:
                self._err(e, f"`{name}` of which seat?",
                          f"write `{name} of declarer`, `{name} of defenders` …; bare `{name}` is only known where a seat is in question")
            return self._quantity(e, name, _seat_env, SEAT, sc)
        if name in ("yes", "no"):
            v = name == "yes"
            return BOOL, lambda st, env: v
        if name == "none":
            return NONE, lambda st, env: None
        if name in SUIT_WORDS or (len(name) == 1 and name.upper() in "SHDC"):
            v = SUIT_WORDS.get(name, "SHDC".find(name.upper()))
            return SUIT, lambda st, env: v
        builtins = self._builtins(sc)
        if name in builtins:
            t, need, f = builtins[name]
            if need and not need(sc):
                self._err(e, f"`{name}` is not known here", _WHERE.get(name, ""))
            return t, f
        if name in m.values:
            v = m.values[name]
            if isinstance(v, dict):
                self._err(e, f"`{name}` gives one number per suit", f"write `{name} of its suit` or `{name} of trumps`")
            return NUM, lambda st, env: v
        if m.ladder:
            for i, c in enumerate(m.ladder):
                if c.name == name:
                    return CONTRACT, lambda st, env, i=i: i
            if name in m.ladder_columns:
                col, kind = name, m.ladder_columns[name]
                default = False if kind == BOOL else 0
                return kind, lambda st, env: st.entry.get(col, default) if st.entry else default
        known = set(builtins) | set(m.values) | set(self.lets) | set(SEAT_QUANTITIES) | set(SUIT_WORDS)
        if m.ladder:
            known |= {c.name for c in m.ladder} | set(m.ladder_columns)
        self._err(e, f"unknown name `{name}`", did_you_mean(name, known))

    def _builtins(self, sc: Scope):
        m = self.m
        numeric = m.auction_kind == "numeric"
        in_auction = lambda s: s.where == "auction"
        meld = lambda s: s.meld
        seat = lambda s: s.seat or s.where == "auction"
        b = {
            "declarer": (SEAT, None, lambda st, env: st.declarer),
            "dealer": (SEAT, None, lambda st, env: st.dealer),
            "declarers": (SIDE, None, lambda st, env: st.declarers),
            "defenders": (SIDE, None, lambda st, env: st.defenders),
            "trumps": (SUIT, None, lambda st, env: st.trumps),
            "made": (BOOL, lambda s: s.where in ("deal", "seat", "end"), lambda st, env: st.made),
            "played": (BOOL, None, lambda st, env: not st.abandoned),
            "abandoned": (BOOL, None, lambda st, env: st.abandoned),
            "blind": (BOOL, None, lambda st, env: st.declarer_blind),
            "bid": (NUM, None, lambda st, env: st.bid_value),
            "deals played": (NUM, None, lambda st, env: st.deal_number),
            "tricks left": (NUM, None, lambda st, env: st.tricks_left),
            "bids": (NUM, in_auction, lambda st, env: st.n_bids),
            "bids in the first round": (NUM, in_auction, lambda st, env: st.first_round_bids),
            "highest bid": (NUM if numeric else CONTRACT, None, lambda st, env: st.highest),
            "highest bidder": (SEAT, None, lambda st, env: st.highest_bidder),
            "speaker": (SEAT, in_auction, lambda st, env: env.seat),
            "opener": (SEAT, None, lambda st, env: st.opener),
            "seat": (SEAT, seat, lambda st, env: env.seat),
            "its suit": (SUIT, meld, lambda st, env: env.suit),
            "its announcer": (SEAT, meld, lambda st, env: env.seat),
        }
        if numeric:
            b["contract"] = (NUM, None, lambda st, env: st.contract_value)
        return b

    def _lookup(self, e: E, sc: Scope):
        what, of = e.args
        if what.op != "name":
            self._err(e, f"cannot take `{_src(what)}` of something")
        name = what.args[0].removeprefix("the ").strip()
        if name == "number":
            t, f = self._c(of, sc)
            if t != SIDE:
                self._err(of, f"`number of` counts the seats of a side (declarers, defenders), not {_a(t)}")
            return NUM, lambda st, env: len(f(st, env))
        if name in SEAT_QUANTITIES:
            t, f = self._c(of, sc)
            if t not in (SEAT, SIDE):
                self._err(of, f"`{name} of` needs a seat or a side, not {_a(t)}")
            return self._quantity(e, name, f, t, sc)
        if name in self.m.values and isinstance(self.m.values[name], dict):
            t, f = self._c(of, sc)
            if t != SUIT:
                self._err(of, f"`{name}` gives one number per suit; `{_src(of)}` is {_a(t)}")
            table = [self.m.values[name].get(s, 0) for s in "SHDC"]
            return NUM, lambda st, env: table[f(st, env)] if f(st, env) is not None and f(st, env) >= 0 else 0
        known = list(SEAT_QUANTITIES) + ["number"] + [k for k, v in self.m.values.items() if isinstance(v, dict)]
        self._err(what, f"unknown quantity `{name}`", did_you_mean(name, known) or
                  "`X of Y` works for " + ", ".join(known))

    def _quantity(self, e, name, who, who_type, sc):
        attr = SEAT_QUANTITIES[name]
        if who_type == SIDE:
            def side_sum(st, env):
                arr = getattr(st, attr)
                return sum(arr[s] for s in who(st, env))
            return NUM, side_sum
        return NUM, lambda st, env: getattr(st, attr)[who(st, env)]


def _seat_env(st, env):
    return env.seat


_WHERE = {
    "speaker": "`speaker` is the seat about to speak; it is known in auction rules only",
    "bids": "known in auction rules only",
    "its suit": "known in meld rules only",
    "its announcer": "known in meld rules only",
    "seat": "known where a seat is in question: `each defender scores …`, `any seat has …`, `seats with …`",
    "made": "known once the contract is decided: in scoring and end rules",
}


class _Fail(Exception):
    pass


def _compatible(a, b):
    return a == b or NONE in (a, b) and ({a, b} - {NONE}) <= {SUIT, CONTRACT, SEAT}


def _a(t):
    return {NUM: "a number", BOOL: "a condition (yes/no)", SEAT: "a seat", SIDE: "a side",
            SUIT: "a suit", CONTRACT: "a contract", NONE: "nothing"}.get(t, t)


def _src(e: E) -> str:
    return e.text()
