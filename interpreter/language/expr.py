"""Typed expressions compiled to Python closures once, when the spec loads.

Every name an expression may use is listed in ``NAMES`` with its type and the moments
of the deal where it is known. A compiled expression is a function ``f(st, env)``
taking the deal state and a small environment (the seat or meld in question); the
engine calls it without ever walking a syntax tree.
"""
from __future__ import annotations

import operator
import re
from pathlib import Path
from ..model.record import record

from ..engine.env import Env
from ..errors import Collector, did_you_mean
from .tree import E

NUM, BOOL, SEAT, SIDE, SUIT, CONTRACT, NONE = "number", "yes/no", "seat", "side", "suit", "contract", "nothing"

SUIT_WORDS = {"spades": 0, "hearts": 1, "diamonds": 2, "clubs": 3}


MAX_COST = 100_000          # evaluations one formula may cost (quantifiers multiply)


@record(frozen=True)
class Scope:
    """What an expression may refer to where it stands."""
    where: str                 # static, deal, auction, play, meld, end, any
    seat: bool = False         # a seat is in question (each defender, any seat …)
    meld: bool = False         # a meld is in question (its suit, its announcer)
    bid: bool = False          # a bid is in question (`this bid`)


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
    "bid": "bids",
    "tricks at the close": "tricks_at_close",
}


class Compiler:
    def __init__(self, model, out: Collector):
        self.m = model            # the game being built (tables, ladder, deck)
        self.out = out
        self.lets: dict = {}      # name -> (type, fn, cost): inline named values
        self.fixed: dict = {}     # name -> type: scoring lets, fixed when the deal ends
        self.counters: dict = {}  # per-seat memory declared by the spec
        self.last_cost = 1
        self.seat_used = False    # the last formula asks about the seat in question
        self.names_used: dict = {}  # name -> where first used (for "never true here" warnings)
        self.card_facts: set = set()  # which card records formulas read: "played", "taken"
        self.fixed_per_seat: dict = {}
        self.let_seat: set = set()     # inline lets that ask about the seat in question
        self.value_errors: set = set()  # values whose variant line was already blamed

    def known_name(self, name: str) -> bool:
        return (name in self.lets or name in self.fixed or name in self.counters
                or name in self.m.values or name in SEAT_QUANTITIES)

    def fixed_let(self, name: str, t: str, per_seat: bool = True):
        self.fixed[name] = t
        self.fixed_per_seat[name] = per_seat

    # -------------------------------------------------------------- entry points
    def compile(self, e: E, scope: Scope, want: str | None = None):
        self.seat_used = False
        try:
            t, f = self._c(e, scope)
        except _Fail:
            return None, None
        if want and t != want:
            if t == NONE:
                self.out.error(e.loc, f"`none` is not {_a(want)}: expected {_a(want)} here")
            else:
                self.out.error(e.loc, f"expected {_a(want)} here, but `{_src(e)}` is {_a(t)}")
            return None, None
        cost = self._cost(e)
        self.last_cost = cost
        if cost > MAX_COST:
            self.out.error(e.loc, "this formula would be worked out too many times for one deal "
                           f"(about {cost:,} steps)",
                           "`any seat has` inside `any seat has`, or a `let` used twice in the next `let`, "
                           "multiplies the work: write it more simply")
            return None, None
        return t, f

    def _cost(self, e, depth=0) -> int:
        if not isinstance(e, E):
            return 1
        if e.op == "num":
            return 1
        if e.op == "name":
            let = self.lets.get(e.args[0].removeprefix("the ").strip())
            return 1 + (let[2] if let else 0)
        total = 1
        for x in e.args:
            if isinstance(x, E):
                total += self._cost(x, depth + 1)
            if total > MAX_COST:
                return total
        if e.op in ("any_seat", "every_seat"):
            total *= 8
        return total

    # -------------------------------------------------------------- the compiler
    def _err(self, e: E, msg: str, hint: str = ""):
        self.out.error(e.loc, msg, hint)
        raise _Fail()

    def _value_err(self, e: E, name: str, msg: str, hint: str = "",
                   set_as: str = "one number per suit", read_as: str = "one number"):
        """An error in using a value: where a variant set the value (`set values`) in
        a file other than the rule's, the mistake is that line's: said there, once,
        naming the rule that reads it."""
        at = getattr(self.m, "value_edits", {}).get(name)
        if at is None or e.loc is None or at.path == e.loc.path:
            self._err(e, msg, hint)
        if name not in self.value_errors:
            self.value_errors.add(name)
            where = f"{Path(e.loc.path).name}:{e.loc.line}" if e.loc.line else Path(e.loc.path).name
            self.out.error(at, f"`{name}` is set here to {set_as}, but a rule of the base reads "
                              f"it as {read_as} ({where}: {msg})",
                           f"set {read_as} (`set values {name} to "
                           + ("N" if read_as == "one number" else "{S: N, H: N, D: N, C: N}")
                           + "`), or replace that rule too")
        raise _Fail()

    def _c(self, e: E, sc: Scope):
        op = e.op
        if op == "num":
            v = e.args[0]
            return NUM, with_src(lambda st, env: v, repr(v))
        if op == "name":
            return self._name(e, e.args[0], sc)
        if op == "lookup":
            return self._lookup(e, sc)
        if op == "neg":
            f = self._num(e.args[0], sc)
            return NUM, composed(lambda st, env: -f(st, env), "(-{0})", f)
        if op == "arith":
            o, a, b = e.args
            fa, fb = self._num(a, sc), self._num(b, sc)
            if o == "+":
                return NUM, composed(lambda st, env: fa(st, env) + fb(st, env), "({0} + {1})", fa, fb)
            if o == "-":
                return NUM, composed(lambda st, env: fa(st, env) - fb(st, env), "({0} - {1})", fa, fb)
            if o == "*":
                return NUM, composed(lambda st, env: fa(st, env) * fb(st, env), "({0} * {1})", fa, fb)
            if b.op == "num" and b.args[0] == 0:
                self._err(b, "division by zero", "`/` divides by a number that is never 0")
            def div(st, env):
                d = fb(st, env)
                return fa(st, env) // d if d else 0       # a divisor of 0 gives 0 (documented)
            return NUM, div
        if op == "not":
            f = self._bool(e.args[0], sc)
            return BOOL, composed(lambda st, env: not f(st, env), "(not {0})", f)
        if op in ("and", "or"):
            fs = tuple(self._bool(x, sc) for x in e.args)
            return BOOL, _junction(fs, op == "and")
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
            return BOOL, _comparison(o, fa, fb, b.args[0] if b.op == "num" else None)
        if op == "if":
            c, a, b = e.args
            fc = self._bool(c, sc)
            ta, fa = self._c(a, sc)
            tb, fb = self._c(b, sc)
            if not _compatible(ta, tb):
                self._err(e, f"both branches must be of one kind: {_a(ta)} and {_a(tb)}")
            if NUM in (ta, tb) and NONE in (ta, tb):
                self._err(e, "`none` is not a number: both branches must give a number")
            return (ta if ta != NONE else tb), composed(lambda st, env: fa(st, env) if fc(st, env) else fb(st, env),
                                                         "({1} if {0} else {2})", fc, fa, fb)
        if op in ("any_seat", "every_seat"):
            inner = Scope(sc.where, seat=True, meld=sc.meld, bid=sc.bid)
            outer_used = self.seat_used
            f = self._bool(e.args[0], inner)
            self.seat_used = outer_used         # the quantifier binds the seat it asks about
            if op == "any_seat":
                def quant(st, env):
                    sub = Env(-1, env.suit, env.value)
                    for s in st.all_seats:
                        sub.seat = s
                        if f(st, sub):
                            return True
                    return False
            else:
                def quant(st, env):
                    sub = Env(-1, env.suit, env.value)
                    for s in st.all_seats:
                        sub.seat = s
                        if not f(st, sub):
                            return False
                    return True
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
        self.names_used.setdefault(name, e.loc)
        if name in self.lets:
            t, f, _ = self.lets[name]
            if name in self.let_seat:
                self.seat_used = True
            return t, f
        if name in self.fixed:
            if self.fixed_per_seat.get(name, True):
                self.seat_used = True
            return self.fixed[name], _fixed_getter(name)
        if name in SEAT_QUANTITIES and name != "bid":
            self.seat_used = True
            if not sc.seat:
                self._err(e, f"`{name}` of which seat?",
                          f"write `{name} of declarer`, `{name} of defenders` …; bare `{name}` is only known where a seat is in question")
            return self._quantity(e, name, _seat_env, SEAT, sc)
        if name in self.counters:
            self.seat_used = True
            if not sc.seat:
                self._err(e, f"`{name}` of which seat?", f"write `{name} of seat` where a seat is in question")
            return NUM, with_src(lambda st, env, n=name: st.counters[n][env.seat], f"st.counters[{name!r}][env.seat]")
        if name in ("yes", "no"):
            v = name == "yes"
            return BOOL, with_src(lambda st, env: v, repr(v))
        if name == "none":
            return NONE, with_src(lambda st, env: None, "None")
        if name in SUIT_WORDS or (len(name) == 1 and name.upper() in "SHDC"):
            v = SUIT_WORDS.get(name, "SHDC".find(name.upper()))
            return SUIT, with_src(lambda st, env: v, repr(v))
        builtins = self._builtins(sc)
        if name in builtins:
            t, need, f = builtins[name]
            if name in BUILTIN_SRC:
                f = with_src(f, BUILTIN_SRC[name])
            if name in ("seat", "speaker", "its announcer", "its suit", "its side", "this bid"):
                self.seat_used = True
            if need and not need(sc):
                self._err(e, f"`{name}` is not known here", _WHERE.get(name, ""))
            return t, f
        if name in m.values:
            v = m.values[name]
            if isinstance(v, dict):
                self._value_err(e, name, f"`{name}` gives one number per suit",
                                f"write `{name} of its suit` or `{name} of trumps`")
            return NUM, with_src(lambda st, env: v, repr(v))
        if m.ladder:
            for i, c in enumerate(m.ladder):
                if c.name == name:
                    return CONTRACT, with_src(lambda st, env, i=i: i, repr(i))
            if name in m.ladder_columns:
                col, kind = name, m.ladder_columns[name]
                default = False if kind == BOOL else 0
                return kind, lambda st, env: st.entry.get(col, default) if st.entry else default
        fact = self._card_fact(e, name, sc)
        if fact is not None:
            return fact
        known = set(builtins) | set(m.values) | set(self.lets) | set(self.fixed) | set(SEAT_QUANTITIES) | set(SUIT_WORDS)
        known |= set(self.counters)
        if m.ladder:
            known |= {c.name for c in m.ladder} | set(m.ladder_columns)
        self._err(e, f"unknown name `{name}`", did_you_mean(name, known))

    def _card_fact(self, e, name: str, sc: Scope):
        """Phrases about cards: `hearts taken by seat`, `the QS played`, `trumps dealt
        to declarer`, `cards held by speaker` (numbers), `speaker holds a pair`
        (yes/no)."""
        words = name.split()
        for i in range(1, len(words)):
            if words[i] == "holds" and i + 3 == len(words) and words[i + 1] in ("a", "an"):
                meld = words[i + 2] if i + 2 < len(words) else ""
                names = [x.name for x in self.m.melds] if hasattr(self.m, "melds") else []
                if meld in names:
                    mi = names.index(meld)
                    ts, fs = self._name(e, " ".join(words[:i]), sc)
                    if ts != SEAT:
                        self._err(e, f"`{' '.join(words[:i])}` is not a seat")
                    return BOOL, lambda st, env: st.holds_meld(fs(st, env), mi)
        for verb, attr in (("taken by", "taken"), ("dealt to", "dealt"), ("held by", "hands")):
            vw = verb.split()
            for i in range(1, len(words) - 1):
                if words[i:i + 2] == vw:
                    mask = self._card_desc(e, words[:i])
                    who = " ".join(words[i + 2:])
                    if mask is None or not who:
                        return None
                    self.card_facts.add(attr)
                    tw, fw = self._name(e, who, sc)
                    if tw not in (SEAT, SIDE):
                        self._err(e, f"`{who}` is not a seat or a side")
                    if who == "seat":
                        fw = _seat_env          # the same seat, read directly
                    return NUM, _count_fn(mask, attr, fw, tw == SIDE)
        if words[-1] == "played" and len(words) > 1:
            mask = self._card_desc(e, words[:-1])
            if mask is not None:
                self.card_facts.add("played")
                fixed = getattr(mask, "fixed", None)
                if fixed is not None:
                    return NUM, with_src(lambda st, env: (st.played & fixed).bit_count(),
                                         f"(st.played & {fixed}).bit_count()")
                return NUM, lambda st, env: (mask(st) & st.played).bit_count()
        return None

    def _card_desc(self, e, words):
        """Words naming cards -> f(st) giving their mask, or None if not card words."""
        m = self.m
        deck = getattr(m, "deck", None)
        if deck is None:
            return None
        suits, ranks = deck
        R = len(ranks)
        full = (1 << (len(suits) * R)) - 1
        text = " ".join(words)
        suit_mask = [((1 << R) - 1) << (s * R) for s in range(len(suits))]
        plural = {SUIT_WORD: i for SUIT_WORD, i in
                  ((w, suits.index(l)) for l, w in (("S", "spades"), ("H", "hearts"), ("D", "diamonds"), ("C", "clubs")) if l in suits)}
        if text in plural:
            return _fixed_mask(suit_mask[plural[text]])
        if text == "trumps":
            return lambda st: suit_mask[st.trumps] if st.trumps is not None and st.trumps >= 0 else 0
        if text == "cards":
            return _fixed_mask(full)
        if text in ("cards worth points", "points cards"):
            return _fixed_mask(getattr(m, "points_mask", 0))
        if len(words) == 1 and len(text) >= 2 and text[:-1].upper() in ranks and text[-1].upper() in suits:
            c = suits.index(text[-1].upper()) * R + ranks.index(text[:-1].upper())
            return _fixed_mask(1 << c)
        if text == "trump honours":
            top = (1 << min(4, R)) - 1           # the four highest trumps (A K Q J)
            return lambda st: top << (st.trumps * R) if st.trumps is not None and st.trumps >= 0 else 0
        return None

    def _builtins(self, sc: Scope):
        m = self.m
        kind = m.auction_kind
        numeric = kind == "numeric"
        in_auction = lambda s: s.where in ("auction", "any")
        meld = lambda s: s.meld
        seat = lambda s: s.seat or s.where == "auction"
        scoring = lambda s: s.where in ("deal", "seat", "end", "any")
        b = {
            "declarer": (SEAT, None, lambda st, env: st.declarer if st.declarer >= 0 else None),
            "dealer": (SEAT, None, lambda st, env: st.dealer),
            "declarers": (SIDE, None, lambda st, env: st.declarers),
            "defenders": (SIDE, None, lambda st, env: st.defenders),
            "trumps": (SUIT, None, lambda st, env: st.trumps if st.trumps is not None and st.trumps >= 0 else None),
            "made": (BOOL, scoring, lambda st, env: st.made),
            "played": (BOOL, None, lambda st, env: not st.abandoned),
            "abandoned": (BOOL, None, lambda st, env: st.abandoned),
            "blind": (BOOL, None, lambda st, env: st.declarer_blind),
            "bid": (NUM, None, lambda st, env: st.bid_value),
            "deals played": (NUM, None, lambda st, env: st.deal_number),
            "deal number": (NUM, None, lambda st, env: st.deal_number),
            "number of seats": (NUM, None, lambda st, env: st.n_active),
            "hand size": (NUM, None, lambda st, env: st.hand_size),
            "tricks left": (NUM, None, lambda st, env: st.tricks_left),
            "tricks played": (NUM, None, lambda st, env: st.tricks_done),
            "first trick": (BOOL, None, lambda st, env: st.tricks_done == 0),
            "bids": (NUM, in_auction, lambda st, env: st.n_bids),
            "bids in the first round": (NUM, in_auction, lambda st, env: st.first_round_bids),
            "total bid": (NUM, None, lambda st, env: st.total_bid),
            "this bid": (NUM if kind != "ladder" else CONTRACT, lambda s: s.bid, lambda st, env: env.value),
            "highest bid": (NUM if numeric or kind == "exact" else CONTRACT, None, lambda st, env: st.highest),
            "highest bidder": (SEAT, None, lambda st, env: st.highest_bidder if st.highest_bidder >= 0 else None),
            "speaker": (SEAT, in_auction, lambda st, env: env.seat),
            "opener": (SEAT, None, lambda st, env: st.opener),
            "seat": (SEAT, seat, lambda st, env: env.seat),
            "its suit": (SUIT, meld, lambda st, env: env.suit),
            "its announcer": (SEAT, meld, lambda st, env: env.seat),
            "stock": (NUM, None, lambda st, env: len(st.stock)),
            "closed": (BOOL, None, lambda st, env: st.closed),
            "closer": (SEAT, None, lambda st, env: st.closer if st.closer >= 0 else None),
            "last trick winner": (SEAT, None, lambda st, env: st.last_trick_winner if st.last_trick_winner >= 0 else None),
            "leader": (SEAT, None, lambda st, env: st.leader if st.leader >= 0 else None),
            "annulled": (BOOL, None, lambda st, env: st.annulled),
            "ended early": (BOOL, None, lambda st, env: st.ended_early),
            "dealer sits out": (BOOL, None, lambda st, env: st.dealer not in st.pos),
            "its side": (SIDE, lambda s: s.seat, lambda st, env: st.side_of.get(env.seat, (env.seat,))),
        }
        if numeric:
            b["contract"] = (NUM, None, lambda st, env: st.contract_value)
        return b

    def _lookup(self, e: E, sc: Scope):
        what, of = e.args
        if what.op != "name":
            self._err(e, f"cannot take `{_src(what)}` of something")
        name = what.args[0].removeprefix("the ").strip()
        if name == "number" and of.op == "name" and of.args[0].removeprefix("the ").strip() == "seats":
            return NUM, lambda st, env: st.n_active
        if name == "number":
            t, f = self._c(of, sc)
            if t != SIDE:
                self._err(of, f"`number of` counts the seats of a side (declarers, defenders), not {_a(t)}")
            return NUM, lambda st, env: len(f(st, env))
        if name == "card points" and of.op == "name" and of.args[0].removeprefix("the ").strip() == "talon":
            cp = getattr(self.m, "card_points", ())
            return NUM, lambda st, env: sum(cp[c] for c in range(len(cp)) if st.talon_dealt >> c & 1)
        if name in SEAT_QUANTITIES or name in self.counters:
            t, f = self._c(of, sc)
            if t not in (SEAT, SIDE):
                self._err(of, f"`{name} of` needs a seat or a side, not {_a(t)}")
            if of.op == "name" and of.args[0].removeprefix("the ").strip() == "seat":
                f = _seat_env
            if name in self.counters:
                if t == SIDE:
                    return NUM, lambda st, env, n=name: sum(st.counters[n][s] for s in f(st, env))
                return NUM, lambda st, env, n=name: st.counters[n][f(st, env)]
            return self._quantity(e, name, f, t, sc)
        if name in self.fixed:
            t, f = self._c(of, sc)
            if t != SEAT:
                self._err(of, f"`{name} of` needs a seat, not {_a(t)}")
            get = name
            return self.fixed[name], lambda st, env: _let_value(st, get, f(st, env))
        if name in self.m.values and isinstance(self.m.values[name], dict):
            t, f = self._c(of, sc)
            if t != SUIT:
                self._value_err(of, name, f"`{name}` gives one number per suit; `{_src(of)}` is {_a(t)}")
            table = [self.m.values[name].get(s, 0) for s in "SHDC"]
            def per_suit(st, env):
                v = f(st, env)
                return table[v] if v is not None and v >= 0 else 0
            return NUM, per_suit
        known = list(SEAT_QUANTITIES) + ["number"] + [k for k, v in self.m.values.items() if isinstance(v, dict)]
        if name in self.m.values:
            self._value_err(what, name, f"`{name}` is one number, not one per suit",
                            f"write `{name}` alone", set_as="one number", read_as="one number per suit")
        self._err(what, f"unknown quantity `{name}`", did_you_mean(name, known) or
                  "`X of Y` works for " + ", ".join(known))

    def _quantity(self, e, name, who, who_type, sc):
        attr = SEAT_QUANTITIES[name]
        if who is _seat_env:
            # the seat in question: always a seat, read directly (the hot path of scoring)
            if attr == "deal_points_of":
                return NUM, with_src(lambda st, env: st.points(env.seat), "st.points(env.seat)")
            if attr == "meld_points_of":
                return NUM, with_src(lambda st, env: st.meld_points(env.seat), "st.meld_points(env.seat)")
            if attr == "bids":
                return NUM, with_src(lambda st, env: st.bids[env.seat] or 0, "(st.bids[env.seat] or 0)")
            return NUM, with_src(lambda st, env: getattr(st, attr)[env.seat], f"st.{attr}[env.seat]")
        if attr == "deal_points_of":
            if who_type == SIDE:
                return NUM, lambda st, env: sum(st.points(s) for s in who(st, env))
            return NUM, composed(lambda st, env: _seat_or_zero(st.points, who(st, env)),
                                 "_seat_or_zero(st.points, {0})", who, ns={"_seat_or_zero": _seat_or_zero})
        if attr == "meld_points_of":
            if who_type == SIDE:
                return NUM, lambda st, env: sum(st.meld_points(s) for s in who(st, env))
            return NUM, composed(lambda st, env: _seat_or_zero(st.meld_points, who(st, env)),
                                 "_seat_or_zero(st.meld_points, {0})", who, ns={"_seat_or_zero": _seat_or_zero})
        if who_type == SIDE:
            def side_sum(st, env):
                arr = getattr(st, attr)
                return sum(arr[s] or 0 for s in who(st, env))
            return NUM, side_sum
        def one(st, env):
            s = who(st, env)
            if s is None or s < 0:
                return 0
            v = getattr(st, attr)[s]
            return v if v is not None else 0
        return NUM, composed(one, f"_of_seat(st.{attr}, {{0}})", who, ns={"_of_seat": _of_seat})


def _seat_or_zero(fn, s):
    return 0 if s is None or s < 0 else fn(s)


def _fixed_getter(name):
    def get(st, env):
        return _let_value(st, name, env.seat)
    return with_src(get, f"_let_value(st, {name!r}, env.seat)", {"_let_value": _let_value})


def _let_value(st, name, seat):
    v = st.lets.get(name)
    if isinstance(v, list):
        return v[seat] if seat is not None and 0 <= seat < len(v) else v[0]
    return v


# ---------------------------------------------------------------- formulas as source
# A compiled formula may also carry its Python source (``f.src``, over the names ``st``
# and ``env``, with ``f.ns`` the objects it refers to): the code generated for a whole
# deal (``engine/compiled.py``) inlines it instead of calling the closure. A formula
# without a source is called by name.
BUILTIN_SRC = {
    "declarer": "(st.declarer if st.declarer >= 0 else None)",
    "dealer": "st.dealer",
    "declarers": "st.declarers",
    "defenders": "st.defenders",
    "trumps": "(st.trumps if st.trumps is not None and st.trumps >= 0 else None)",
    "made": "st.made",
    "played": "(not st.abandoned)",
    "abandoned": "st.abandoned",
    "blind": "st.declarer_blind",
    "bid": "st.bid_value",
    "deals played": "st.deal_number",
    "deal number": "st.deal_number",
    "number of seats": "st.n_active",
    "hand size": "st.hand_size",
    "tricks left": "st.tricks_left",
    "tricks played": "st.tricks_done",
    "first trick": "(st.tricks_done == 0)",
    "bids": "st.n_bids",
    "bids in the first round": "st.first_round_bids",
    "total bid": "st.total_bid",
    "this bid": "env.value",
    "highest bid": "st.highest",
    "speaker": "env.seat",
    "opener": "st.opener",
    "seat": "env.seat",
    "its suit": "env.suit",
    "its announcer": "env.seat",
    "contract": "st.contract_value",
    "annulled": "st.annulled",
    "ended early": "st.ended_early",
}


def with_src(fn, src: str, ns: dict | None = None):
    """`fn` with its source attached (and its value, where it is a number written out)."""
    fn.src = src
    fn.ns = ns or {}
    if re.fullmatch(r"-?\d+", src):          # a number written out
        fn.const = int(src)
    return fn


def source_of(f, ns: dict) -> str:
    """The Python source of compiled formula `f` (its objects added to `ns`): inline
    where it has one, else a call of `f` by a name added to `ns`."""
    src = getattr(f, "src", None)
    if src is not None:
        ns.update(f.ns)
        return src
    name = f"_f{id(f)}"
    ns[name] = f
    return f"{name}(st, env)"


def composed(fn, pattern: str, *parts, ns: dict | None = None):
    """`fn` with the source `pattern` filled with its parts' sources (`ns`: the
    helpers the pattern itself names)."""
    ns = dict(ns or {})
    return with_src(fn, pattern.format(*(source_of(p, ns) for p in parts)), ns)


def _of_seat(arr, s):
    """A per-seat quantity of seat `s` (0 for no seat, or nothing recorded)."""
    if s is None or s < 0:
        return 0
    v = arr[s]
    return v if v is not None else 0


def _fixed_mask(mk: int):
    """A card mask that does not depend on the deal (its value kept for fast paths)."""
    def f(st):
        return mk
    f.fixed = mk
    return f


def _junction(fs, conj: bool):
    """`a and b and …` / `a or b or …`, short-circuit, without a generator per call."""
    word = " and " if conj else " or "
    pattern = "(" + word.join("bool({%d})" % i for i in range(len(fs))) + ")"
    if len(fs) == 2:
        fa, fb = fs
        if conj:
            return composed(lambda st, env: bool(fa(st, env)) and bool(fb(st, env)), pattern, *fs)
        return composed(lambda st, env: bool(fa(st, env)) or bool(fb(st, env)), pattern, *fs)
    if conj:
        def all_of(st, env):
            for f in fs:
                if not f(st, env):
                    return False
            return True
        return composed(all_of, pattern, *fs)

    def any_of(st, env):
        for f in fs:
            if f(st, env):
                return True
        return False
    return composed(any_of, pattern, *fs)


def _comparison(o: str, fa, fb, const):
    """A comparison; against a number written in the formula, the number is inlined."""
    pattern = "({0} %s {1})" % {"=": "==", "!=": "!="}.get(o, o)
    if const is not None:
        v = const
        return composed({"=": lambda st, env: fa(st, env) == v, "!=": lambda st, env: fa(st, env) != v,
                         ">=": lambda st, env: fa(st, env) >= v, "<=": lambda st, env: fa(st, env) <= v,
                         "<": lambda st, env: fa(st, env) < v, ">": lambda st, env: fa(st, env) > v}[o],
                        pattern, fa, fb)
    fn = {"=": operator.eq, "!=": operator.ne, ">=": operator.ge, "<=": operator.le,
          "<": operator.lt, ">": operator.gt}[o]
    return composed(lambda st, env: fn(fa(st, env), fb(st, env)), pattern, fa, fb)


def _count_fn(mask, attr, who, side):
    fixed = getattr(mask, "fixed", None)
    if side:
        def f(st, env):
            m = mask(st)
            arr = getattr(st, attr)
            return sum((arr[s] & m).bit_count() for s in who(st, env))
        return f

    if fixed is not None and who is _seat_env:
        # `hearts taken by seat`: the seat in question, a mask known at load
        def h(st, env):
            s = env.seat
            if s is None or s < 0:
                return 0
            return (getattr(st, attr)[s] & fixed).bit_count()
        return with_src(h, f"((st.{attr}[env.seat] & {fixed}).bit_count() if env.seat >= 0 else 0)")

    def g(st, env):
        s = who(st, env)
        if s is None or s < 0:
            return 0
        return (getattr(st, attr)[s] & mask(st)).bit_count()
    return g


def _seat_env(st, env):
    return env.seat


_WHERE = {
    "speaker": "`speaker` is the seat about to speak; it is known in auction rules only",
    "bids": "known in auction rules only",
    "its suit": "known in meld rules only",
    "its announcer": "known in meld rules only",
    "seat": "known where a seat is in question: `each defender scores …`, `any seat has …`, `seats with …`",
    "made": "known once the contract is decided: in scoring and end rules",
    "this bid": "known in the rule that says which bids may be made (`a bid may be made only when …`)",
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
