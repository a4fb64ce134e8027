"""Settling a finished deal: meld points, deal points, whether the contract was made,
the scoring statements in order, and the per-seat memory they update."""
from __future__ import annotations

from .env import Env


def settle(d):
    g = d.game
    if d.annulled:
        return
    env = Env()
    for (s, mi, suit, worth) in d.melds:
        m = g.melds[mi]
        env.seat, env.suit = s, suit
        if m.counts is None or m.counts(d, env):
            d.meld_points_of[s] += worth
    env.suit = -1
    dp, pts = g.deal_points, d.deal_points_of
    if dp is None:
        for s in d.active:
            pts[s] = d.card_points[s] + d.meld_points_of[s]
    else:
        for s in d.active:
            env.seat = s
            pts[s] = dp(d, env)
    env.seat = -1
    d.made = bool(g.made(d, env)) if (g.made is not None and not d.conceded
                                      and not d.abandoned and d.declarer >= 0) else False
    # `let` values are fixed now, before any score changes (per seat where they ask about one)
    lets = d.lets
    for name, f, per_seat in g.lets:
        if per_seat:
            vals = [None] * d.n_seats
            for s in d.all_seats:
                env.seat = s
                vals[s] = f(d, env)
            lets[name] = vals
        else:
            env.seat = -1
            lets[name] = f(d, env)
    for st in g.statements:
        statement(d, st, env)


def statement(d, st, env):
    """Apply one scoring statement: its values are worked out for every payee first,
    then applied."""
    deltas, scores, counters = d.deltas, d.scores, d.counters
    who = st.payee
    if who == "declarer":
        seats = (d.declarer,) if d.declarer >= 0 else ()
    elif who == "defenders":
        seats = d.defenders
    elif who == "seats":
        seats = d.active
    else:
        seats = payees(d, who)
    when = st.when
    effects = st.effects
    if len(effects) == 1 and effects[0][0] == "score" and who != "sides":
        # the common case: one score added to each payee (values first, then applied)
        f = effects[0][1]
        vals = []
        for s in seats:
            env.seat = s
            if when is None or when(d, env):
                vals.append((s, f(d, env)))
        for s, v in vals:
            if v.__class__ is not int:
                v = v if isinstance(v, int) else 0
            deltas[s] += v
            scores[s] += v
        return
    changes = []
    for s in seats:
        env.seat = s
        if when is not None and not when(d, env):
            continue
        for eff in effects:
            if eff[0] == "score":
                changes.append((s, "score", False, eff[1](d, env)))
            else:
                changes.append((s, eff[1], eff[0] == "set", eff[2](d, env)))
    sides = who == "sides"
    for s, what, setting, v in changes:
        if v.__class__ is not int:
            v = v if isinstance(v, int) else 0
        for t in (d.side_of.get(s, (s,)) if sides else (s,)):
            if what == "score":
                if setting:
                    deltas[t] += v - scores[t]
                    scores[t] = v
                else:
                    deltas[t] += v
                    scores[t] += v
            else:
                arr = counters[what]
                arr[t] = v if setting else arr[t] + v


def payees(d, who: str):
    if who == "declarer":
        return (d.declarer,) if d.declarer >= 0 else ()
    if who == "declarers":
        return d.declarers
    if who == "defenders":
        return d.defenders
    if who == "dealer":
        return (d.dealer,)
    if who == "sides":
        return tuple(side[0] for side in d.sides)
    return d.active
