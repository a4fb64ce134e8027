"""The auction phase: ascending bids (numbers, or contracts of a ladder) until every
other seat has passed, or one bid from every seat (an exact number of tricks)."""
from __future__ import annotations

from math import log as _log

from .base import _EXPO_INLINE, _EXPOVARIATE
from .env import Env


LISTED = 2000      # numbers have no upper limit: this many above the lowest are listed


class Auction:
    name = "auction"

    # ------------------------------------------------------------ start
    @staticmethod
    def start(d) -> bool:
        g = d.game
        if g.opener != "left-of-dealer":
            d.opener = d.seat_ref(g.opener)
        d.turn = d.opener
        return True

    # ------------------------------------------------------------ who may speak
    @staticmethod
    def can_speak(d, s: int) -> bool:
        if not d.passed[s]:
            return True
        g = d.game
        if g.pass_final and g.reopen:
            # A seat that passes on a reopening is not reopened again until someone bids.
            return d.declined_at[s] != d.n_bids and bool(g.reopen[1](d, Env(s)))
        return False

    @staticmethod
    def others_can_speak(d):
        side = (d.highest_bidder, d.partner)
        return [s for s in d.active if s not in side and Auction.can_speak(d, s)]

    @staticmethod
    def may_pass(d, s: int) -> bool:
        g = d.game
        if g.auction_kind == "exact":
            return False
        if g.opener_must_bid and s == d.opener and d.turns[s] == 0:
            return False
        return True

    # ------------------------------------------------------------ bids
    @staticmethod
    def bid_range(d, s: int):
        """Numeric and exact auctions: the lowest and highest bid seat s may make now,
        and the step between bids (the highest is where agents stop listing)."""
        g = d.game
        step = g.bid_step
        if g.auction_kind == "exact":
            env = Env(s)
            lo = max(_num(g.min_bid, d, env), 0)
            hi = _num(g.max_bid, d, env)
            return lo, hi, 1
        lo = getattr(g.min_bid, "const", None)       # a number written in the spec
        lo = max(_num(g.min_bid, d, Env(s)) if lo is None else lo, 0)
        if d.highest is not None:
            v = d.highest + step
            if v > lo:
                lo = lo + -(-(v - lo) // step) * step
        return lo, max(lo, min(g.max_points, lo + LISTED)), step

    @staticmethod
    def bid_ok(d, s: int, v: int) -> bool:
        """A numeric or exact bid `v` passes the spec's conditions on bids."""
        rules = d.game.bid_rules
        if not rules:
            return True
        env = Env(s, -1, v)
        for _, f in rules:
            if not f(d, env):
                return False
        return True

    @staticmethod
    def number_ok(d, s: int, v: int) -> bool:
        lo, hi, step = Auction.bid_range(d, s)
        if v < lo or (d.game.auction_kind == "exact" and v > hi):
            return False
        if (v - lo) % step:
            return False
        return Auction.bid_ok(d, s, v)

    @staticmethod
    def joining(g) -> frozenset:
        """The ladder's contracts that join the highest bidder (cached per game)."""
        out = g._cache.get("joining contracts")
        if out is None:
            out = g._cache["joining contracts"] = frozenset(
                i for i, e in enumerate(g.ladder) if e.partner == "joins")
        return out

    @staticmethod
    def ladder_bids(d, s: int):
        g = d.game
        allowed = g.reopen[0] if d.reopened else None
        start = 0 if d.highest is None else d.highest + 1
        env = Env(s)
        out = []
        # a contract that joins the highest bidder needs someone else's bid to join
        unjoinable = () if 0 <= d.highest_bidder != s else Auction.joining(g)
        for i in range(start, len(g.ladder)):
            if allowed is not None and i not in allowed:
                continue
            if i in unjoinable:
                continue
            cond = g.bid_conditions.get(i)
            if cond is not None and not cond(d, env):
                continue
            if g.bid_rules and not Auction.bid_ok(d, s, i):
                continue
            out.append(i)
        return out

    @staticmethod
    def bid_list(d, s: int):
        """Legal bids of seat s, lowest first (numbers listed up to the most points a
        deal can give; numeric bids have no upper limit). Where one bid from each seat is
        due and the conditions on bids would leave none, every bid of the range stands."""
        g = d.game
        if g.auction_kind == "ladder":
            return Auction.ladder_bids(d, s)
        lo, hi, step = Auction.bid_range(d, s)
        if not g.bid_rules:
            return range(lo, hi + 1, step)
        ok = [v for v in range(lo, hi + 1, step) if Auction.bid_ok(d, s, v)]
        if not ok and g.auction_kind == "exact":
            return range(lo, hi + 1, step)
        return ok

    # ------------------------------------------------------------ legal actions
    @staticmethod
    def legal(d, s: int) -> list:
        g = d.game
        c = d.codec
        acts = []
        blind_ok = g.blind and not d.looked[s]
        if Auction.may_pass(d, s):
            acts.append(c.PASS)
            if blind_ok:
                acts.append(c.PASS_BLIND)
        if blind_ok:
            acts.append(c.LOOK)
        if g.auction_kind == "ladder":
            for i in Auction.ladder_bids(d, s):
                acts.append(c.ladder_bid(i))
                if blind_ok:
                    acts.append(c.ladder_bid(i, True))
        else:
            for v in Auction.bid_list(d, s):
                acts.append(c.number_bid(v))
                if blind_ok:
                    acts.append(c.number_bid(v, True))
        if not any(a != c.LOOK for a in acts):
            acts.append(c.PASS)      # the rules on bids never leave a seat without an action
        return acts

    @staticmethod
    def is_legal(d, a: int, s: int) -> bool:
        g = d.game
        c = d.codec
        if g.auction_kind == "exact" and g.bid_rules:
            return a in Auction.legal(d, s)
        if a >= c.NUMBER and g.auction_kind in ("numeric", "exact"):
            v, k = divmod(a - c.NUMBER, 4)
            if k == 2:
                return False
            if k == 1 and not (g.blind and not d.looked[s]):
                return False
            return Auction.number_ok(d, s, v)
        return a in Auction.legal(d, s)

    @staticmethod
    def why_not(d, a: int, s: int) -> tuple:
        g = d.game
        c = d.codec
        kind = c.kind(a)
        f = c.fields(a)
        if kind not in ("pass", "bid"):
            return f"the auction is not over: {{seat{s}}} must pass or bid", ""
        if f.get("blind") and not (g.blind and not d.looked[s]):
            if not g.blind:
                return "nobody bids blind in this game", ""
            return "a seat that has looked at its cards cannot bid or pass blind", g.rules_of_kind("blind_bidding")
        if kind == "pass":
            if g.auction_kind == "exact":
                return "every seat bids once: there is no pass (0 is a bid)", g.rules_of_kind("exact_bids")
            return "the opener may not pass at its first turn", g.rules_of_kind("opener_bids")
        if g.auction_kind == "ladder":
            i = f.get("index", -1)
            entry = g.ladder[i]
            if d.highest is not None and i <= d.highest:
                return f"`{entry.name}` is not above the highest bid (`{g.ladder[d.highest].name}`)", g.rules_of_kind("ladder_bids")
            if entry.partner == "joins" and not 0 <= d.highest_bidder != s:
                return (f"`{entry.name}` joins the highest bidder, and "
                        + ("there is no bid to join" if d.highest_bidder < 0 else "a seat cannot join its own bid")), ""
            if d.reopened and g.reopen and i not in g.reopen[0]:
                return ("{seat%d} has passed and may only bid " % s
                        + ", ".join(g.ladder[j].name for j in sorted(g.reopen[0]))), g.rules_of_kind("reopen")
            if i in g.bid_conditions and not g.bid_conditions[i](d, Env(s)):
                rule = g.rule_for_contract(entry.name)
                return g.rule_text(rule) or f"`{entry.name}` may not be bid now", rule
            return f"`{entry.name}` may not be bid now", g.rules_of_kind("bid_condition")
        if g.auction_kind == "":
            return "this game has no auction", ""
        v = f.get("value", 0)
        lo, hi, step = Auction.bid_range(d, s)
        if v < lo:
            if d.highest is not None and v > d.highest and step > 1:
                return (f"bids go up in steps of {step}: the next bid above {d.highest} is {lo}",
                        g.rules_of_kind("numeric_bids"))
            if d.highest is not None and lo > _num(g.min_bid, d, Env(s)):
                return f"a bid must be above the highest bid ({d.highest})", g.rules_of_kind("numeric_bids")
            return f"the lowest bid is {lo}", g.rules_of_kind("numeric_bids") or g.rules_of_kind("exact_bids")
        if g.auction_kind == "exact" and v > hi:
            return f"a bid is at most {hi}", g.rules_of_kind("exact_bids")
        if (v - lo) % step:
            below = lo + (v - lo) // step * step
            return (f"bids go up in steps of {step} from {lo}: {below} or {below + step}, not {v}",
                    g.rules_of_kind("numeric_bids"))
        env = Env(s, -1, v)
        for name, f in g.bid_rules:
            if not f(d, env):
                return f"a bid of {v} may not be made now: {g.rule_text(name)}", name
        return f"a bid of {v} may not be made now", ""

    # ------------------------------------------------------------ apply
    @staticmethod
    def apply(d, s: int, a: int):
        g = d.game
        c = d.codec
        first_round = d.turns_taken < len(d.active)
        d.turns_taken += 1
        d.turns[s] += 1
        if (a == c.PASS or a == c.PASS_BLIND) and g.auction_kind == "exact":
            d.passes[s] += 1             # no bid was possible: the turn passes on
            if d.turns_taken >= len(d.active):
                return Auction.end_exact(d)
            d.turn = d.next_seat[s]
            return
        if a == c.PASS or a == c.PASS_BLIND:
            if a == c.PASS:
                d.looked[s] = True
            if d.raise_turn:
                d.annulled = True
                return d.finish()
            if d.reopened:
                d.declined_at[s] = d.n_bids
            d.passed[s] = True
            d.passes[s] += 1
        else:
            if a >= c.NUMBER:
                v, blind = (a - c.NUMBER) >> 2, (a - c.NUMBER) & 1
            else:
                v, blind = (a - c.LADDER) >> 1, (a - c.LADDER) & 1
            if not blind:
                d.looked[s] = True
            d.n_bids += 1
            d.bids[s] = v
            if first_round:
                d.first_round_bids += 1
            if g.auction_kind == "exact":
                d.total_bid += v
                if d.turns_taken >= len(d.active):
                    return Auction.end_exact(d)
                d.turn = d.next_seat[s]
                return
            joins = g.auction_kind == "ladder" and g.ladder[v].partner == "joins"
            if joins:
                d.partner = s
            else:
                d.highest_bidder = s
                d.partner = -1
            d.highest = v
            if not g.pass_final:
                for t in d.active:
                    d.passed[t] = False
            if d.raise_turn:
                return Auction.end(d)
        Auction.next_speaker(d, s)

    @staticmethod
    def run(d, choose):
        """Play the auction to its end, each action chosen by ``choose(d, seat)`` and
        applied as ``apply_action`` would."""
        hist = d.history
        while d.phase == "auction":
            s = d.turn
            a = choose(d, s)
            hist.append((s, a))
            Auction.apply(d, s, a)

    @staticmethod
    def run_random(d, rng, pass_rate: float, blind_rate: float, choose):
        """``run(d, choose)`` where ``choose`` is the random agent's ``bid``: the same
        draws and the same state. For an ascending numeric auction where a pass is final
        (and nobody is reopened) the agent's choice and the bookkeeping of ``apply`` and
        ``next_speaker`` are done inline, in one loop, the auction's state in locals
        (written back before a formula of the spec reads the deal); otherwise through
        them."""
        g = d.game
        if g.auction_kind != "numeric" or g.reopen or not g.pass_final:
            return Auction.run(d, choose)
        c = d.codec
        hist = d.history
        PASS, PASS_BLIND, NUMBER = c.PASS, c.PASS_BLIND, c.NUMBER
        looked, passed, passes, turns, bids = d.looked, d.passed, d.passes, d.turns, d.bids
        active = d.active
        n = len(active)
        blind, must_open, opener = g.blind, g.opener_must_bid, d.opener
        rules = g.bid_rules
        step = g.bid_step
        top = g.max_points
        lo_const = getattr(g.min_bid, "const", None)
        random = rng.random
        expo = None if _EXPO_INLINE and type(rng).expovariate is _EXPOVARIATE else rng.expovariate
        key = ("seats after", tuple(active))
        after = g._cache.get(key)
        if after is None:           # each seat's followers round the table, in order
            after = {t: tuple(active[(i + k) % n] for k in range(1, n + 1)) for i, t in enumerate(active)}
            if len(g._cache) < 4096:
                g._cache[key] = after
        highest, hb, taken = d.highest, d.highest_bidder, d.turns_taken
        s = d.turn
        while True:
            # the agent's bid (RandomAgent.bid), then its bookkeeping (Auction.apply)
            go_blind = blind and not looked[s] and random() < blind_rate
            v = None
            if (must_open and s == opener and turns[s] == 0) or random() >= pass_rate:
                if lo_const is None:
                    d.highest, d.highest_bidder, d.turns_taken, d.turn = highest, hb, taken, s
                    lo = max(_num(g.min_bid, d, Env(s)), 0)
                else:
                    lo = max(lo_const, 0)
                if highest is not None:
                    v = highest + step
                    if v > lo:
                        lo = lo + -(-(v - lo) // step) * step
                room = (max(lo, min(top, lo + LISTED)) - lo) // step
                for _ in range(20):
                    x = -_log(1.0 - random()) / (0.3 * step) if expo is None else expo(0.3 * step)
                    v = lo + step * min(int(x), room)
                    if not rules:
                        break
                    d.highest, d.highest_bidder, d.turns_taken, d.turn = highest, hb, taken, s
                    if Auction.bid_ok(d, s, v):
                        break
                else:
                    ok = list(Auction.bid_list(d, s))
                    v = ok[0] if ok else None
            turns[s] += 1
            if v is None:
                if go_blind:
                    hist.append((s, PASS_BLIND))
                else:
                    hist.append((s, PASS))
                    looked[s] = True
                passed[s] = True
                passes[s] += 1
            else:
                if go_blind:
                    hist.append((s, NUMBER + 4 * v + 1))
                else:
                    hist.append((s, NUMBER + 4 * v))
                    looked[s] = True
                d.n_bids += 1
                bids[s] = v
                if taken < n:
                    d.first_round_bids += 1
                hb = s
                highest = v
            taken += 1
            for t in after[s]:
                if t != hb and not passed[t]:
                    s = t
                    break
            else:
                d.highest, d.highest_bidder, d.turns_taken = highest, hb, taken
                d.turn = s
                if highest is None:
                    d.annulled = True
                    return d.finish()
                d.partner = -1
                return Auction.end(d)

    @staticmethod
    def next_speaker(d, s: int):
        """The next seat round the table that may speak (not the highest bidder's side);
        with none, the auction ends (or is annulled when nobody has bid)."""
        g = d.game
        side = (d.highest_bidder, d.partner)
        active = d.active
        n = len(active)
        i = d.pos[s]
        passed = d.passed
        for k in range(1, n + 1):
            t = active[(i + k) % n]
            if t in side:
                continue
            if not passed[t] or Auction.can_speak(d, t):
                d.turn = t
                d.reopened = passed[t]
                return
        if d.highest is None:
            d.annulled = True
            return d.finish()
        entry = g.ladder[d.highest] if g.auction_kind == "ladder" else None
        if entry is not None and entry.partner == "seeks" and d.partner < 0:
            if g.unpartnered:
                d.raise_turn = True
                d.reopened = False
                d.turn = d.highest_bidder
                return
            d.annulled = True
            return d.finish()
        return Auction.end(d)

    @staticmethod
    def end(d):
        g = d.game
        d.raise_turn = False
        decl = d.declarer = d.highest_bidder
        partner = d.partner
        key = ("sides", d.n_seats, d.dealer, decl, partner)
        got = g._cache.get(key)
        if got is None:
            # the two sides from the declarer round the table, the same for every deal at
            # this table (never changed in a deal, so shared)
            order = d.clockwise_from(decl, include=True)
            declarers = (decl,) if partner < 0 else tuple(t for t in order if t in (decl, partner))
            defenders = tuple(t for t in order if t not in declarers)
            side_of = None
            if not g.partners:
                side_of = dict.fromkeys(declarers, declarers)
                side_of.update(dict.fromkeys(defenders, defenders))
            got = (declarers, defenders, side_of)
            if len(g._cache) < 4096:
                g._cache[key] = got
        d.declarers, d.defenders, side_of = got
        if side_of is not None:
            d.sides = [d.declarers, d.defenders]
            d.side_of = side_of
        else:
            d.side_of = {t: side for side in d.sides for t in side}
        looked = d.looked
        d.declarer_blind = g.blind and not looked[decl]
        for t in d.active:
            looked[t] = True
        if g.auction_kind == "ladder":
            d.entry_index = d.highest
            e = g.ladder[d.highest]
            d.entry = e.columns
            if e.trumps == "exposed":
                d.trumps = g.card_suit[d.exposed] if d.exposed >= 0 else -1
            elif e.trumps == "none":
                d.trumps = -1
            d.bid_value = 0
        else:
            d.bid_value = d.contract_value = d.highest
        d.next_phase()

    @staticmethod
    def end_exact(d):
        for t in d.active:
            d.looked[t] = True
        d.next_phase()


def _num(f, d, env) -> int:
    if f is None:
        return 0
    try:
        v = f(d, env)
    except ZeroDivisionError:
        return 0
    return v if isinstance(v, int) else 0
