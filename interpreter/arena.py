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
    (seconds, or none), nodes, auction_tries."""
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


# ---------------------------------------------------------------- agents on the command line
def parse_agents(text: str, seats: int, human: int | None = None, names=None) -> tuple:
    """``--agents`` as typed -> one agent name per seat (None for the human's seat).

    One name seats that agent everywhere (every seat but the human's); a comma list
    names one agent per seat in seat order. With a human (``talon play``) the list
    may leave the human's seat out (one name per other seat), or name it ``human``.
    Raises ValueError with a message for people."""
    valid = ", ".join(AGENTS)
    seat_names = names or [str(s + 1) for s in range(seats)]
    names = [w.strip().lower() for w in str(text).split(",")]
    for w in names:
        if w in AGENTS or (w == "human" and human is not None):
            continue
        if not w:
            raise ValueError(f"--agents `{text}`: an empty name; the agents are {valid}")
        if ":" in w:
            raise ValueError(f"--agents takes names only ({valid}); the PIMC player's effort is set with "
                             f"--samples, --nodes and --time")
        raise ValueError(f"--agents: `{w}` is not an agent; the agents are {valid}")
    if len(names) == 1:
        if names[0] == "human":
            raise ValueError(f"--agents: name the agents of the other seats ({valid})")
        return tuple(None if s == human else names[0] for s in range(seats))
    if human is not None:
        if len(names) == seats - 1 and "human" not in names:
            names.insert(human, "human")
        if len(names) == seats and names[human] != "human":
            raise ValueError(f"--agents: you play {seat_names[human]}; write `human` there, or leave it out "
                             f"(one agent for each other seat, in seat order)")
        if len(names) == seats and names.count("human") > 1:
            raise ValueError("--agents: `human` may appear once, at your seat")
    if len(names) != seats:
        want = f"{seats}" + (f" (or {seats - 1}, leaving out your seat)" if human is not None else "")
        raise ValueError(f"--agents lists {len(names)} agents for {seats} seats: give one name for every "
                         f"seat, or a comma list of {want}")
    return tuple(None if n == "human" else n for n in names)


def agent_texts(names, samples: int | None = None, time: float | None = None,
                nodes: int | None = None, auction_tries: int | None = None) -> tuple | None:
    """One ``make_agent`` description per seat, the PIMC player's budget written in;
    None when every seat plays at random (the simulator's own fast path)."""
    if all(n in (None, "random") for n in names):
        return None
    out = []
    for n in names:
        if n == "pimc":
            opts = [f"samples={samples}"] * (samples is not None) + [f"nodes={nodes}"] * (nodes is not None)
            opts += [f"auction_tries={auction_tries}"] * (auction_tries is not None)
            opts.append(f"time={time:g}" if time is not None else "time=none")
            n = "pimc:" + ",".join(opts)
        out.append(n)
    return tuple(out)


def seat_agents(texts, rng: random.Random, seats: int) -> list:
    """The agents of one deal, one per seat (None at a human's seat), each with its own
    random stream drawn from `rng` (the deal's generator, after the cards are dealt):
    the same deal gets the same players wherever and in whatever order it is played."""
    base = rng.getrandbits(64)
    return [None if t is None else make_agent(t, random.Random(base * 31 + s))
            for s, t in zip(range(seats), texts)]
