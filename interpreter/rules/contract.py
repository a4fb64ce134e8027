"""Rules of the `contract` section: the declarer's steps between the auction and the
play, in the order written."""
from __future__ import annotations

from .base import RuleKind, register


class _Step(RuleKind):
    section, phase = "contract", "contract"
    step = ""

    @classmethod
    def compile(cls, it, b):
        b.contract_steps.append((cls.step, None))


@register
class ShowTalon(_Step):
    kind, single, step = "show_talon", True, "show_talon"
    template = "the talon is shown to every seat"


@register
class Abandon(_Step):
    kind, single, step = "abandon", True, "abandon"
    template = "the declarer may abandon the deal"


@register
class TakeTalon(_Step):
    kind, single, step = "take_talon", True, "take_talon"
    template = "the declarer takes the talon"


@register
class NameTrumps(_Step):
    kind, single = "name_trumps", True
    template = "the declarer names trumps: a suit  (or: a suit or none)"

    @classmethod
    def args(cls, p, alias):
        return {"allow_none": bool(p.tok("OR_NONE"))}

    @classmethod
    def compile(cls, it, b):
        b.contract_steps.append(("trumps", it.body.args["allow_none"]))


@register
class NameContract(_Step):
    kind, single = "name_contract", True
    template = "the declarer names the contract: a number, at least the bid  (may add: , in steps of N)"

    @classmethod
    def args(cls, p, alias):
        return {"step": p.ints[0] if p.ints else 1}

    @classmethod
    def compile(cls, it, b):
        b.contract_steps.append(("contract", None))
        b.g["contract_step"] = max(1, it.body.args["step"])
        if b.g.get("auction_kind", "numeric") != "numeric":
            b.out.error(it.body.loc, "the declarer names a number only where bids are numbers")


@register
class Give(_Step):
    kind, single = "give", True
    template = "the declarer gives N cards face down to each defender"

    @classmethod
    def args(cls, p, alias):
        return {"cards": p.ints[0]}

    @classmethod
    def compile(cls, it, b):
        n = it.body.args["cards"]
        if n < 1:
            b.out.error(it.body.loc, "the declarer gives at least 1 card")
            return
        b.contract_steps.append(("give", n))
