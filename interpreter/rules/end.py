"""Rules of the `end` section: when the game ends, and who wins it."""
from __future__ import annotations

from ..language.expr import BOOL, NUM, Scope
from .base import RuleKind, register


@register
class GameEnd(RuleKind):
    kind, section, single = "game_end", "end", True
    template = "the game ends after a deal when CONDITION"

    @classmethod
    def args(cls, p, alias):
        return {"expr": p.exprs[0]}

    @classmethod
    def compile(cls, it, b):
        _, b.g["game_end"] = b.cc.compile(it.body.args["expr"], Scope("end"), BOOL)


@register
class Winners(RuleKind):
    kind, section, single = "winners", "end", True
    template = "seats with CONDITION, then the lowest score  (or: every seat, then the highest …)"

    @classmethod
    def args(cls, p, alias):
        return {"set": p.children[0], "prefer": tuple(p.children[1:])}

    @classmethod
    def compile(cls, it, b):
        a = it.body.args
        kind, e = a["set"]
        f = None
        if e is not None:
            _, f = b.cc.compile(e, Scope("end", seat=True), BOOL)
        b.g["winner_set"] = (kind, f)
        prefs = []
        for pk, pe in a["prefer"]:
            pf = None
            if pe is not None:
                _, pf = b.cc.compile(pe, Scope("end", seat=True), NUM)
            prefs.append((pk, pf))
        b.g["winner_prefs"] = tuple(prefs)
