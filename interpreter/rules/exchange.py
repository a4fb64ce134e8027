"""Rules of the `exchange` section: every seat passes cards face down."""
from __future__ import annotations

from .base import RuleKind, register

DIRS = {"left": 1, "right": -1, "across": 2, "nobody": 0}


@register
class PassCards(RuleKind):
    kind, section, single, phase = "pass_cards", "exchange", True, "exchange"
    template = "each seat passes N cards face down to the left  (or: to the left, then right, then across, then nobody)"

    @classmethod
    def args(cls, p, alias):
        return {"cards": p.ints[0], "dirs": tuple(p.strs)}

    @classmethod
    def compile(cls, it, b):
        a = it.body.args
        if a["cards"] < 1:
            b.out.error(it.body.loc, "each seat passes at least 1 card")
            return
        dirs = tuple(DIRS[x] for x in a["dirs"])
        b.g["exchange"] = (a["cards"], dirs)
        if 2 in dirs and b.g.get("seat_counts") and any(n % 2 for n in b.g["seat_counts"]):
            b.out.error(it.body.loc, "cards passed across need an even number of seats")
