"""Rules of the `deal` section: rotation, the rounds of the deal, the stock, the
face-up card and the trumps it gives."""
from __future__ import annotations

from ..language.expr import NUM, Scope
from ..model.game import DealStep
from .base import Parts, RuleKind, register


@register
class Rotation(RuleKind):
    kind, section, single = "rotation", "deal", True
    template = "the deal passes left after every deal  (may start: the first dealer is drawn at random; …)"

    @classmethod
    def args(cls, p, alias):
        return {"direction": p.tok("DIRECTION")[0]}

    @classmethod
    def compile(cls, it, b):
        b.g["direction"] = 1 if it.body.args["direction"] == "left" else -1


@register
class DealRounds(RuleKind):
    kind, section = "deal_rounds", "deal"
    required = "how the cards are dealt (`deal-rounds: 8 rounds of 1 card to each seat`)"
    template = "N rounds of N cards to each seat  (may end: , then N cards to the talon)"
    phase = "deal"

    @classmethod
    def args(cls, p, alias):
        count = [c for c in p.children if isinstance(c, tuple) and c and c[0] == "count"]
        rounds = count[0][1] if count else 0
        ints = p.ints
        return {"rounds": rounds, "cards": ints[0], "talon": ints[1] if len(ints) > 1 else 0}

    @classmethod
    def compile(cls, it, b):
        a = it.body.args
        rounds = a["rounds"]
        if a["cards"] == 0 and not a["talon"]:
            b.out.error(it.body.loc, "a round of 0 cards deals nothing", "deal at least 1 card a round")
            return
        if not isinstance(rounds, int):
            _, f = b.cc.compile(rounds, Scope("deal"), NUM)
            if f is None:
                return
            rounds = f
        elif rounds > 1000:
            b.out.error(it.body.loc, f"{rounds} rounds is more than any deck can deal")
            return
        b.g.setdefault("deal_steps", []).append(DealStep(rounds, a["cards"], a["talon"]))


@register
class Stock(RuleKind):
    kind, section, single = "stock", "deal", True
    template = "the other cards form the stock"

    @classmethod
    def compile(cls, it, b):
        b.g["stock"] = True


@register
class FaceUp(RuleKind):
    kind, section, single = "face_up", "deal", True
    template = ("the dealer's last card is dealt face up  "
                "(or: the top card of the stock is turned face up; the bottom card …)")

    @classmethod
    def args(cls, p, alias):
        end = p.tok("STOCK_END")
        return {"where": f"stock-{end[0]}" if end else "dealer-last"}

    @classmethod
    def compile(cls, it, b):
        b.g["face_up"] = it.body.args["where"]

    @classmethod
    def words(cls, it):
        w = it.body.args["where"]
        return {"dealer-last": "the dealer's last card is dealt face up",
                "stock-top": "the top card of the stock is turned face up",
                "stock-bottom": "the bottom card of the stock is turned face up"}[w]


@register
class FaceUpTrumps(RuleKind):
    kind, section, single = "face_up_trumps", "deal", True
    template = "the suit of the face up card is trumps"

    @classmethod
    def compile(cls, it, b):
        b.g["face_up_trumps"] = True
