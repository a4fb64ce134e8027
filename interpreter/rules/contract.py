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

    @classmethod
    def phrase(cls, it, lang, ctx):
        return ctx.at(lang).say(lang, en="The talon is turned face up for every player to see",
                                pt="O talão é mostrado a todos", ru="Прикуп открывается всем игрокам")


@register
class Abandon(_Step):
    kind, single, step = "abandon", True, "abandon"
    template = "the declarer may abandon the deal"

    @classmethod
    def phrase(cls, it, lang, ctx):
        return ctx.at(lang).say(lang, en="The declarer may abandon the deal instead of playing it",
                                pt="O declarante pode abandonar a mão em vez de a jogar",
                                ru="Разыгрывающий может расписать сдачу — отказаться от розыгрыша")


@register
class TakeTalon(_Step):
    kind, single, step = "take_talon", True, "take_talon"
    template = "the declarer takes the talon"

    @classmethod
    def phrase(cls, it, lang, ctx):
        return ctx.at(lang).say(lang, en="The declarer takes the talon into their hand",
                                pt="O declarante junta o talão à sua mão", ru="Разыгрывающий забирает прикуп себе")


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

    @classmethod
    def phrase(cls, it, lang, ctx):
        c = ctx.at(lang)
        none = it.body.args["allow_none"]
        fixed = bool(c.game.ladder)
        return c.say(lang,
                     en="The declarer names trumps: one of the suits" + (", or no trumps" if none else "")
                     + (" (unless the contract already fixes trumps)" if fixed else ""),
                     pt="O declarante declara o trunfo: um dos naipes" + (", ou sem trunfo" if none else "")
                     + (" (salvo se o contrato já fixa o trunfo)" if fixed else ""),
                     ru="Разыгрывающий назначает козыри: одну из мастей" + (" или бескозырную игру" if none else "")
                     + (" (если заказ сам не определяет козыри)" if fixed else ""))


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

    @classmethod
    def phrase(cls, it, lang, ctx):
        step = it.body.args["step"]
        return ctx.at(lang).say(
            lang, en="The declarer names the final contract: a number, at least the bid" + (", in steps of {n}" if step > 1 else ""),
            pt="O declarante declara o contrato final: um número não inferior à licitação" + (", de {n} em {n}" if step > 1 else ""),
            ru="Разыгрывающий называет итоговый заказ: число не ниже заявки" + (", с шагом {n}" if step > 1 else ""),
            n=step)


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

    @classmethod
    def phrase(cls, it, lang, ctx):
        c = ctx.at(lang)
        n = it.body.args["cards"]
        return c.say(lang, en="The declarer gives {k} face down to each defender",
                     pt="O declarante dá a cada defensor {k} " + ("tapada" if n == 1 else "tapadas"),
                     ru="Разыгрывающий отдаёт каждому защитнику {po} рубашкой вверх",
                     k=c.n(n, "card"), po=c.po(n))
