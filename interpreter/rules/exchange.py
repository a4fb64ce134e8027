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

    @classmethod
    def phrase(cls, it, lang, ctx):
        c, a = ctx.at(lang), it.body.args
        words = {"left": ("to the left", "à esquerda", "налево"), "right": ("to the right", "à direita", "направо"),
                 "across": ("across the table", "ao jogador da frente", "напротив"),
                 "nobody": ("to nobody (the cards are kept)", "a ninguém (ficam com as cartas)",
                            "никому (карты остаются у себя)")}
        i = ("en", "pt", "ru").index(lang)
        dirs = [words[d][i] for d in a["dirs"]]
        then = c.pick(", then ", ", depois ", ", затем ")
        n = a["cards"]
        tail = ""
        if len(dirs) > 1:
            tail = c.pick("; one direction a deal, in turn, starting again after the last",
                          "; uma direção por mão, à vez, recomeçando depois da última",
                          "; по одному направлению на сдачу, по кругу")
        return c.say(lang, en="Each player passes {k} face down {d}" + tail,
                     pt="Cada jogador passa {k} " + ("tapada" if n == 1 else "tapadas") + " {d}" + tail,
                     ru="Каждый игрок передаёт {k} рубашкой вверх {d}" + tail,
                     k=c.n(n, "card_acc"), d=then.join(dirs))
