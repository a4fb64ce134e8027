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

    @classmethod
    def phrase(cls, it, lang, ctx):
        c = ctx.at(lang)
        return c.say(lang, en="The game ends after a deal when {f}", pt="O jogo termina depois de uma mão quando {f}",
                     ru="Игра заканчивается после сдачи, если {f}", f=c.f(it.body.args["expr"]))


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

    @classmethod
    def phrase(cls, it, lang, ctx):
        c, a = ctx.at(lang), it.body.args
        kind, e = a["set"]
        if kind == "every":
            who = c.pick("all the players", "todos os jogadores", "все игроки")
        else:
            who = c.pick("the players for whom {f}", "os jogadores para quem {f}", "игроки, у которых {f}").format(f=c.f(e))
        prefs = ""
        for pk, pe in a["prefer"]:
            if pk == "declarer":
                prefs += c.pick(", then among them the declarer, if there", ", e entre eles o declarante, se lá estiver",
                                ", из них — разыгрывающий, если он среди них")
            else:
                low = pk == "lowest"
                x = c.f(pe, bare="plain")
                prefs += c.pick(", then among them the one with the {h} {x}", ", e entre eles quem tiver {h} {x}",
                                ", из них — тот, у кого {x} {h}").format(
                    x=x, h=c.pick("lowest" if low else "highest", "menor" if low else "maior",
                                  "меньше всех" if low else "больше всех"))
        return c.say(lang, en="The winners are {w}{p}; players still equal share the win",
                     pt="Ganham {w}{p}; os empatados partilham a vitória",
                     ru="Побеждают {w}{p}; при равенстве победа делится", w=who, p=prefs)
