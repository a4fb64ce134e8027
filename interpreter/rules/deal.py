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

    @classmethod
    def phrase(cls, it, lang, ctx):
        c = ctx.at(lang)
        drawn = "random" in (it.text or "")     # the optional opening words leave no part of their own
        left = it.body.args["direction"] == "left"
        return c.say(lang,
                     en=("The first dealer is drawn at random; " if drawn else "") + "the deal passes to the {d} after every deal",
                     pt=("Sorteia-se o primeiro distribuidor; " if drawn else "") + "a distribuição passa {d} depois de cada mão",
                     ru=("Первый сдающий выбирается случайно; " if drawn else "") + "после каждой сдачи сдача переходит {d}",
                     d=c.pick("left (clockwise)" if left else "right (anticlockwise)",
                              "à esquerda (sentido horário)" if left else "à direita (sentido anti-horário)",
                              "влево (по часовой стрелке)" if left else "вправо (против часовой стрелки)"))


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

    @classmethod
    def phrase(cls, it, lang, ctx):
        c, a = ctx.at(lang), it.body.args
        talon = a["talon"]
        kw = dict(k=c.n(a["cards"], "card"), po=c.po(a["cards"]), t=c.n(talon, "card_acc"))
        tail_en = ", and {t} to the talon after each round" if talon else ""
        tail_pt = ", e {t} ao talão no fim de cada volta" if talon else ""
        tail_ru = ", а в конце каждого круга {t} в прикуп" if talon else ""
        if isinstance(a["rounds"], int):
            return c.say(lang, en="Deal {r} of {k} to each player" + tail_en,
                         pt="Dê {r} de {k} a cada jogador" + tail_pt,
                         ru="Сдайте {r} {po} каждому игроку" + tail_ru, r=c.n(a["rounds"], "round"), **kw)
        return c.say(lang, en="Deal rounds of {k} to each player" + tail_en + "; the number of rounds is {f}",
                     pt="Dê voltas de {k} a cada jogador" + tail_pt + "; o número de voltas é {f}",
                     ru="Сдайте каждому игроку {po} за круг" + tail_ru + "; число кругов: {f}",
                     f=c.f(a["rounds"]), **kw)


@register
class Stock(RuleKind):
    kind, section, single = "stock", "deal", True
    template = "the other cards form the stock"

    @classmethod
    def compile(cls, it, b):
        b.g["stock"] = True

    @classmethod
    def phrase(cls, it, lang, ctx):
        return ctx.at(lang).say(lang, en="The cards left undealt form a face-down stock",
                                pt="As cartas que sobram formam o monte, virado para baixo",
                                ru="Несданные карты образуют закрытую колоду")


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

    @classmethod
    def phrase(cls, it, lang, ctx):
        w = it.body.args["where"]
        en, pt, ru = {
            "dealer-last": ("The dealer's last card is dealt face up; it stays the dealer's",
                            "A última carta do distribuidor é dada virada para cima; continua a ser dele",
                            "Последняя карта сдающего сдаётся открытой и остаётся у него"),
            "stock-top": ("The top card of the stock is turned face up", "A carta de cima do monte é virada para cima",
                          "Верхняя карта колоды открывается"),
            "stock-bottom": ("The bottom card of the stock is turned face up; it is the last card drawn",
                             "A carta de baixo do monte é virada para cima; é a última a ser comprada",
                             "Нижняя карта колоды открывается; её берут последней"),
        }[w]
        return ctx.at(lang).say(lang, en=en, pt=pt, ru=ru)


@register
class FaceUpTrumps(RuleKind):
    kind, section, single = "face_up_trumps", "deal", True
    template = "the suit of the face up card is trumps"

    @classmethod
    def compile(cls, it, b):
        b.g["face_up_trumps"] = True

    @classmethod
    def phrase(cls, it, lang, ctx):
        return ctx.at(lang).say(lang, en="The suit of the face-up card is trumps", pt="O naipe da carta virada é trunfo",
                                ru="Масть открытой карты — козырь")
