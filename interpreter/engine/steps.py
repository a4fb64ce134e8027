"""Exchanges of cards and the declarer's steps between the auction and the play.

``Steps``: what the declarer does, in the order the spec writes it (show the talon, may
abandon, take the talon, name trumps, name the contract, give cards face down).
``Passing``: every seat gives cards face down to the seat in the deal's direction; a
card received in the same round cannot be passed on (it arrives once all have given).
"""
from __future__ import annotations

from math import log as _log

from .base import _EXPO_INLINE, _EXPOVARIATE, _RANDBELOW, bits


class Steps:
    name = "contract"

    @staticmethod
    def start(d) -> bool:
        if d.declarer < 0:          # no declarer (no auction): nothing for one to do
            return False
        d.step = 0
        d.turn = d.declarer
        return Steps.advance(d)

    @staticmethod
    def advance(d) -> bool:
        """Run automatic steps; True if the declarer must now decide."""
        steps = d.game.contract_steps
        i = d.step
        while i < len(steps):
            kind = steps[i][0]
            if kind == "show_talon":
                d.talon_shown = True
            elif kind == "abandon":
                d.abandon_open = True
            elif kind == "take_talon":
                d.hands[d.declarer] |= d.talon
                d.talon = 0
            elif kind == "trumps" and d.trumps is not None:
                pass
            elif kind == "give":
                d.step = i
                if not Steps.give_done(d):
                    d.turn = d.declarer
                    return True
            else:
                d.step = i
                d.turn = d.declarer
                return True
            i += 1
        d.step = i
        return False

    @staticmethod
    def run_random(d, rng, choose):
        """The declarer's decisions to the end of the phase as the random agent makes
        them (``choose`` is its ``step``), applied as ``apply_action`` would: naming
        trumps, the contract and the cards given are drawn and applied inline, in one
        loop, with the very draws of ``choose``; any other decision through it."""
        g = d.game
        c = d.codec
        steps = g.contract_steps
        hist = d.history
        hands = d.hands
        # rng.expovariate drawn inline where it is random.Random's own (the same
        # numbers, without its call)
        expo = _EXPO_INLINE and type(rng).expovariate is _EXPOVARIATE
        while d.phase == "contract":
            s = d.turn
            kind, arg = steps[d.step]
            if kind == "contract":
                st = g.contract_step
                x = -_log(1.0 - rng.random()) / (0.5 * st) if expo else rng.expovariate(0.5 * st)
                v = d.bid_value + st * min(int(x), 20)
                hist.append((s, c.NUMBER + 4 * v + 2))
                d.abandon_open = False
                d.contract_value = v
            elif kind == "trumps" or kind == "give":
                if d.abandon_open and rng.random() < 0.05:
                    hist.append((s, c.ABANDON))
                    d.abandoned = True
                    return d.finish()
                if kind == "trumps":
                    t = rng._randbelow(g.n_suits + (1 if arg else 0))
                    hist.append((s, c.TRUMPS + t))
                    d.abandon_open = False
                    d.trumps = -1 if t == 4 else t
                else:
                    decl = d.declarer
                    hand = hands[decl]
                    n = hand.bit_count()
                    got = d.give_count
                    todo = [t for t in sorted(d.defenders) if got.get(t, 0) < arg]
                    if not (todo and n):
                        a = choose(d)
                        hist.append((s, a))
                        Steps.apply(d, s, a)
                        continue
                    d.abandon_open = False
                    given = d.given
                    while todo and n:           # every card of the step, in one go
                        r = rng._randbelow(len(todo) * n)
                        t, r = todo[r // n], r % n
                        m = hand
                        while r:
                            m &= m - 1
                            r -= 1
                        b = m & -m
                        hist.append((s, c.GIVE + t * c.n + b.bit_length() - 1))
                        hand ^= b
                        n -= 1
                        hands[t] |= b
                        given[t] |= b
                        got[t] = got.get(t, 0) + 1
                        if got[t] >= arg:
                            todo.remove(t)
                    hands[decl] = hand
                    if todo:
                        continue                    # no card left to give: as choose would
            else:
                a = choose(d)
                hist.append((s, a))
                Steps.apply(d, s, a)
                continue
            d.step += 1
            if not Steps.advance(d):
                d.next_phase()

    @staticmethod
    def give_done(d) -> bool:
        n = d.game.contract_steps[d.step][1]
        got = d.give_count
        for t in d.defenders:
            if got.get(t, 0) < n:
                return False
        return True

    @staticmethod
    def legal(d, s: int) -> list:
        g = d.game
        c = d.codec
        step = g.contract_steps[d.step]
        kind = step[0]
        acts = [c.ABANDON] if d.abandon_open else []
        if kind == "trumps":
            acts += [c.TRUMPS + t for t in range(g.n_suits)]
            if step[1]:
                acts.append(c.TRUMPS + 4)
        elif kind == "contract":
            st = g.contract_step
            hi = max(d.bid_value, min(g.max_points, d.bid_value + 2000))    # listed; any higher is legal too
            acts += [c.contract(v) for v in range(d.bid_value, hi + 1, st)]
        elif kind == "give":
            n = step[1]
            cards = bits(d.hands[d.declarer])
            for t in sorted(d.defenders):
                if d.give_count.get(t, 0) < n:
                    acts += [c.give(t, card) for card in cards]
        return acts

    @staticmethod
    def is_legal(d, a: int, s: int) -> bool:
        g = d.game
        c = d.codec
        if s != d.declarer:
            return False
        step = g.contract_steps[d.step]
        if a >= c.NUMBER and c.kind(a) == "contract":
            v = c.fields(a)["value"]
            return step[0] == "contract" and v >= d.bid_value and (v - d.bid_value) % g.contract_step == 0
        return a in Steps.legal(d, s)

    @staticmethod
    def why_not(d, a: int, s: int) -> tuple:
        g = d.game
        c = d.codec
        kind = c.kind(a)
        step = g.contract_steps[d.step][0]
        rule = g.step_rule(d.step)
        if kind == "abandon":
            return ("the deal may be abandoned only as the declarer's first decision"
                    if g.rules_of_kind("abandon") else "this game has no abandoning"), g.rules_of_kind("abandon")
        if kind in ("pass", "bid"):
            return "the auction is over", ""
        if kind == "play":
            return f"the play has not started: the declarer must first {_step_words(step)}", rule
        if kind != {"trumps": "trumps", "contract": "contract", "give": "give"}.get(step):
            return f"the declarer must now {_step_words(step)}", rule
        if kind == "give":
            f = c.fields(a)
            t, card = f["seat"], f["card"]
            if t not in d.defenders:
                return "cards are given to the defenders only", rule
            if not d.hands[d.declarer] >> card & 1:
                return f"the declarer does not hold {g.card_names[card]}", rule
            return "{seat%d} has already received its cards" % t, rule
        if kind == "contract":
            v = c.fields(a)["value"]
            if v < d.bid_value:
                return f"the contract must be at least the bid ({d.bid_value})", rule
            return f"the contract goes up in steps of {g.contract_step} from the bid", rule
        if kind == "trumps":
            return "trumps must be a suit here, not none", rule
        return "not now", rule

    @staticmethod
    def apply(d, s: int, a: int):
        g = d.game
        c = d.codec
        if a == c.ABANDON:
            d.abandoned = True
            return d.finish()
        d.abandon_open = False       # any other decision declines to abandon
        kind = g.contract_steps[d.step][0]
        if kind == "trumps":
            t = a - c.TRUMPS
            d.trumps = -1 if t == 4 else t
        elif kind == "contract":
            d.contract_value = (a - c.NUMBER) >> 2
        elif kind == "give":
            t, card = divmod(a - c.GIVE, c.n)
            d.hands[d.declarer] &= ~(1 << card)
            d.hands[t] |= 1 << card
            d.given[t] |= 1 << card
            d.give_count[t] = d.give_count.get(t, 0) + 1
            if not Steps.give_done(d):
                return
        d.step += 1
        if not Steps.advance(d):
            d.next_phase()


def _step_words(step: str) -> str:
    return {"trumps": "name trumps", "contract": "name the contract",
            "give": "give its cards"}.get(step, step)


class Passing:
    """Every seat passes cards face down in the deal's direction."""
    name = "exchange"

    @staticmethod
    def direction(d) -> int:
        cards, dirs = d.game.exchange
        if not dirs or not cards:
            return 0
        return dirs[(d.deal_number - 1) % len(dirs)]

    @staticmethod
    def target(d, s: int) -> int:
        k = Passing.direction(d)
        n = len(d.active)
        i = d.pos[s]
        if k == 2:
            return d.active[(i + n // 2) % n]
        return d.active[(i + (1 if k > 0 else -1)) % n]

    @staticmethod
    def start(d) -> bool:
        if Passing.direction(d) == 0 or len(d.active) < 2:
            return False
        d.turn = d.active[0]
        d.passing = [0] * d.n_seats
        d.passed_count = [0] * d.n_seats
        return True

    @staticmethod
    def legal(d, s: int) -> list:
        c = d.codec
        t = Passing.target(d, s)
        return [c.give(t, card) for card in bits(d.hands[s])]

    @staticmethod
    def is_legal(d, a: int, s: int) -> bool:
        c = d.codec
        if c.kind(a) != "give":
            return False
        f = c.fields(a)
        return f["seat"] == Passing.target(d, s) and bool(d.hands[s] >> f["card"] & 1)

    @staticmethod
    def why_not(d, a: int, s: int) -> tuple:
        g = d.game
        c = d.codec
        rule = g.rules_of_kind("pass_cards")
        kind = c.kind(a)
        if kind != "give":
            n = g.exchange[0]
            return f"every seat first passes {n} card{'s' if n != 1 else ''} face down", rule
        f = c.fields(a)
        t = Passing.target(d, s)
        if f["seat"] != t:
            return "in this deal cards are passed to {seat%d}" % t, rule
        card = f["card"]
        if d.passing[s] >> card & 1:
            return f"{g.card_names[card]} has already been passed", rule
        if any(d.passing[o] >> card & 1 for o in d.active):
            return f"{g.card_names[card]} was received in this round and cannot be passed on", rule
        return f"{{seat{s}}} does not hold {g.card_names[card]}", rule

    @staticmethod
    def apply(d, s: int, a: int):
        c = d.codec
        card = c.fields(a)["card"]
        d.hands[s] &= ~(1 << card)
        d.passing[s] |= 1 << card
        d.passed_count[s] += 1
        if d.passed_count[s] < d.game.exchange[0]:
            return
        nxt = d.next_seat[s]
        if nxt != d.active[0]:
            d.turn = nxt
            return
        # everyone has passed: the cards arrive
        for o in d.active:
            tgt = Passing.target(d, o)
            d.hands[tgt] |= d.passing[o]
            d.given[tgt] |= d.passing[o]
        d.next_phase()


def pass_random(d, rng):
    """Every seat's passes at random: the cards the random agent picks (``rng``'s draws
    as ``RandomAgent.act`` makes them), applied as ``apply_action`` would (the history,
    then ``Passing.apply``'s bookkeeping), without decoding an action per card."""
    c = d.codec
    below = rng._randbelow
    # rng._randbelow(n) as random.Random draws it, without a call of it per card
    getbits = rng.getrandbits if type(rng)._randbelow is _RANDBELOW else None
    hands, hist, passing, count = d.hands, d.history, d.passing, d.passed_count
    need = d.game.exchange[0]
    first = d.active[0]
    give = c.GIVE
    n_cards = c.n
    targets = {o: Passing.target(d, o) for o in d.active}
    while True:
        s = d.turn
        base = give + targets[s] * n_cards
        hand = hands[s]
        for _ in range(need - count[s]):
            n = hand.bit_count()
            if getbits is not None:
                k = n.bit_length()
                r = getbits(k)
                while r >= n:
                    r = getbits(k)
            else:
                r = below(n)
            m = hand
            while r:
                m &= m - 1
                r -= 1
            b = m & -m
            hist.append((s, base + b.bit_length() - 1))
            hand ^= b
            passing[s] |= b
        hands[s] = hand
        count[s] = need
        nxt = d.next_seat[s]
        if nxt == first:
            break
        d.turn = nxt
    for o in d.active:             # everyone has passed: the cards arrive
        tgt = targets[o]
        hands[tgt] |= passing[o]
        d.given[tgt] |= passing[o]
    d.next_phase()
