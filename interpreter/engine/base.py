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
_EXPOVARIATE = random.Random.expovariate


def _expo_inline_ok() -> bool:
    """Whether ``-log(1 - random()) / lambd`` is this Python's ``expovariate``."""
    from math import log
    a, b = random.Random(7), random.Random(7)
    return all(a.expovariate(x) == -log(1.0 - b.random()) / x for x in (0.3, 0.5, 1.5))


_EXPO_INLINE = _expo_inline_ok()


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


