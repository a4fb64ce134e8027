"""The agents by name, and paired matches between two kinds of agent.

``make_agent("pimc:samples=8,time=1", rng)`` builds an agent from a short description
(``random``, ``heuristic``, ``pimc`` with optional settings), as a command line would
take it (``--agents heuristic,pimc,random``: one per seat).

``paired(game, A, B, deals, seed)`` plays each seeded deal twice: once with one seat
(the *focus*, turning round the table from deal to deal) played by an agent made by
`A` and every other seat by `B`, once with every seat played by `B`. The two runs see
the same cards and give each seat's agent the same random stream, so the difference
of the focus seat's result (``solver.result``: its side's score change against the
others') measures what A gains over B, with the luck of the deal taken out.
"""
from __future__ import annotations

import math
import random
import statistics

from .agents import RandomAgent, play_deal
from .heuristic import HeuristicAgent
from .pimc import PimcAgent
from .solver import result

AGENTS = {"random": RandomAgent, "heuristic": HeuristicAgent, "pimc": PimcAgent}


def make_agent(text: str, rng: random.Random):
    """``name`` or ``name:key=value,key=value`` -> an agent with its own random stream.
    Settings: random pass_rate, blind_rate; heuristic margin; pimc samples, time
    (seconds, or none), nodes."""
    name, _, opts = text.strip().partition(":")
    cls = AGENTS.get(name.strip().lower())
    if cls is None:
        raise ValueError(f"`{name}` is not an agent: " + ", ".join(AGENTS))
    kw = {}
    for part in filter(None, (p.strip() for p in opts.split(","))):
        k, eq, v = part.partition("=")
        if not eq:
            raise ValueError(f"`{part}`: settings are written key=value")
        k = k.strip()
        v = v.strip()
        if v.lower() == "none":
            kw[k] = None
        else:
            try:
                kw[k] = int(v)
            except ValueError:
                try:
                    kw[k] = float(v)
                except ValueError:
                    raise ValueError(f"`{part}`: the value must be a number (or none)") from None
    try:
        return cls(rng, **kw)
    except TypeError as e:
        raise ValueError(f"`{text}`: {e}") from None


def paired(game, make_a, make_b, deals: int, seed: int = 0, seats: int | None = None,
           deal_number: int = 1) -> list:
    """The focus seat's result with A minus with B, one number per deal.
    `make_a(rng)`, `make_b(rng)` build an agent with its own random stream."""
    seats = seats or game.default_seats or game.seat_counts[0]
    out = []
    for i in range(deals):
        base = (seed * 1_000_003 + i) & 0xFFFFFFFF
        dealer = i % seats
        res = []
        for make in (make_a, make_b):
            d = game.new_deal(seats, dealer, deal_number=deal_number)
            d.deal_random(random.Random(base))
            focus = d.active[(i // seats) % len(d.active)]
            agents = [(make if s == focus else make_b)(random.Random(base * 31 + s)) for s in range(seats)]
            play_deal(d, agents)
            res.append(result(d, focus))
        out.append(res[0] - res[1])
    return out


def mean_ci(xs) -> tuple:
    """(mean, half-width of its 95% confidence interval)."""
    if not xs:
        return 0.0, float("inf")
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, float("inf")
    return m, 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))
