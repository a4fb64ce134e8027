"""Rules of the `melds` section: a meld, its worth, when it counts, when it may be
announced, and whether it makes its suit trumps."""
from __future__ import annotations

from ..errors import did_you_mean
from ..language.expr import BOOL, NUM, Scope
from .base import RuleKind, register

MELD = Scope("meld", seat=True, meld=True)


@register
class MeldDef(RuleKind):
    kind, section = "meld", "melds"
    template = "meld of RANK and RANK of one suit, announced when leading one of them"

    @classmethod
    def args(cls, p, alias):
        return {"ranks": tuple(p.tok("RANK")), "rank_locs": p.tok_locs("RANK")}

    @classmethod
    def compile(cls, it, b):
        a = it.body.args
        rk = []
        for r, loc in zip(a["ranks"], a["rank_locs"]):
            i = b.rank(r, loc)
            if i is not None:
                rk.append(i)
        if len(set(rk)) != len(rk):
            b.out.error(it.body.loc, "a meld names the same rank twice")
        b.melds[it.name] = {"name": it.name, "ranks": tuple(rk), "worth": None, "counts": None,
                            "makes_trumps": False, "announce_when": None}

    @classmethod
    def phrase(cls, it, lang, ctx):
        c = ctx.at(lang)
        ranks = [c.rank(r) for r in it.body.args["ranks"]]
        return c.say(lang, en="A {m} is the {r} of one suit; it is announced by showing it when leading one of its cards",
                     pt="Um {m} é {r} do mesmo naipe; anuncia-se mostrando-o ao sair com uma das suas cartas",
                     ru="{m} — {r} одной масти; его объявляют, показав карты и сходив одной из них",
                     m=c.meld(it.name), r=c.join_and(ranks))


class _MeldMod(RuleKind):
    section = "melds"
    deferred = True            # compiled once every meld is defined

    @classmethod
    def args(cls, p, alias):
        return {"meld": p.names[0], "expr": p.exprs[0] if p.exprs else None, "name_locs": p.name_locs}

    @classmethod
    def meld(cls, it, b):
        name = it.body.args["meld"]
        m = b.melds.get(name)
        if m is None:
            b.out.error((it.body.args.get("name_locs") or [it.body.loc])[0], f"there is no meld `{name}`",
                        did_you_mean(name, b.melds) or
                        "define it first: `NAME: meld of K and Q of one suit, announced when leading one of them`")
        return m


@register
class MeldWorth(_MeldMod):
    kind = "meld_worth"
    template = "a MELD is worth FORMULA"

    @classmethod
    def compile(cls, it, b):
        m = cls.meld(it, b)
        if m is not None:
            _, f = b.cc.compile(it.body.args["expr"], MELD, NUM)
            m["worth"] = f if f is not None else (lambda st, env: 0)   # an error was reported

    @classmethod
    def phrase(cls, it, lang, ctx):
        c, a = ctx.at(lang), it.body.args
        return c.say(lang, en="A {m} is worth {f}", pt="Um {m} vale {f}", ru="{m} стоит {f}",
                     m=c.meld(a["meld"]), f=c.f(a["expr"]))


@register
class MeldCounts(_MeldMod):
    kind = "meld_counts"
    template = "a MELD counts when CONDITION"

    @classmethod
    def compile(cls, it, b):
        m = cls.meld(it, b)
        if m is not None:
            _, m["counts"] = b.cc.compile(it.body.args["expr"], MELD, BOOL)

    @classmethod
    def phrase(cls, it, lang, ctx):
        c, a = ctx.at(lang), it.body.args
        return c.say(lang, en="A {m} counts only when {f}", pt="Um {m} só conta quando {f}",
                     ru="{m} засчитывается, только если {f}", m=c.meld(a["meld"]), f=c.f(a["expr"]))


@register
class MeldAnnounce(_MeldMod):
    kind = "meld_announce"
    template = "a MELD may be announced only when CONDITION"

    @classmethod
    def compile(cls, it, b):
        m = cls.meld(it, b)
        if m is not None:
            _, m["announce_when"] = b.cc.compile(it.body.args["expr"], MELD, BOOL)

    @classmethod
    def phrase(cls, it, lang, ctx):
        c, a = ctx.at(lang), it.body.args
        return c.say(lang, en="A {m} may be announced only when {f}", pt="Um {m} só pode ser anunciado quando {f}",
                     ru="{m} можно объявить, только если {f}", m=c.meld(a["meld"]), f=c.f(a["expr"]))


@register
class MeldTrumps(_MeldMod):
    kind = "meld_trumps"
    template = "a MELD makes its suit trumps from the next trick"

    @classmethod
    def compile(cls, it, b):
        m = cls.meld(it, b)
        if m is not None:
            m["makes_trumps"] = True

    @classmethod
    def phrase(cls, it, lang, ctx):
        c = ctx.at(lang)
        return c.say(lang, en="Announcing a {m} makes its suit trumps from the next trick",
                     pt="Anunciar um {m} torna o seu naipe trunfo a partir da vaza seguinte",
                     ru="Объявленный {m} делает свою масть козырной со следующей взятки", m=c.meld(it.body.args["meld"]))
