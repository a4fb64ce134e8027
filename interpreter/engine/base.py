"""What every part of the engine shares: the markers of whose turn it is, the names of
the phases, and the set bits of a card mask."""
from __future__ import annotations

import random

from .env import EMPTY

CHANCE = -1
TERMINAL = -4
AUCTION, CONTRACT, EXCHANGE, PLAY, DONE = "auction", "contract", "exchange", "play", "done"

_RANDBELOW = getattr(random.Random, "_randbelow_with_getrandbits", None)
_SHUFFLE = random.Random.shuffle


def _rounds(f, deal) -> int:
    """A number of rounds that depends on the deal: never negative, never huge."""
    try:
        v = int(f(deal, EMPTY))
    except (TypeError, ValueError, ZeroDivisionError):
        return 0
    return max(0, min(v, deal.game.n_cards))


def bits(m: int) -> list:
    """The set bits of `m` (card ints), lowest first."""
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


