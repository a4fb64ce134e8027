"""Rules of the `scoring` section. When the deal ends: deal points, whether the
contract was made, `let` values (fixed before any score changes), then the statements
in the order written, each seeing what the ones before it did."""
from __future__ import annotations

from ..language.expr import BOOL, NUM, Scope
from ..model.game import Statement
from .base import RuleKind, register

DEAL = Scope("deal")
SEAT = Scope("deal", seat=True)


@register
class DealPoints(RuleKind):
    kind, section, single = "deal_points", "scoring", True
    template = "points of each seat = FORMULA"

    @classmethod
    def args(cls, p, alias):
        return {"expr": p.exprs[0]}

    @classmethod
    def compile(cls, it, b):
        _, b.g["deal_points"] = b.cc.compile(it.body.args["expr"], Scope("play", seat=True), NUM)

    @classmethod
    def phrase(cls, it, lang, ctx):
        c = ctx.at(lang)
        return c.say(lang, en="A player's points for the deal are {f}", pt="Os pontos de cada jogador na mão são {f}",
                     ru="Очки игрока за сдачу: {f}", f=c.f(it.body.args["expr"]))


@register
class Made(RuleKind):
    kind, section, single = "made", "scoring", True
    template = "the contract is made when CONDITION"

    @classmethod
    def args(cls, p, alias):
        return {"expr": p.exprs[0]}

    @classmethod
    def compile(cls, it, b):
        _, b.g["made"] = b.cc.compile(it.body.args["expr"], DEAL, BOOL)
        b.need_declarer(it)

    @classmethod
    def phrase(cls, it, lang, ctx):
        c = ctx.at(lang)
        return c.say(lang, en="The contract is made when {f}", pt="O contrato é cumprido quando {f}",
                     ru="Заказ выполнен, если {f}", f=c.f(it.body.args["expr"]))


@register
class Let(RuleKind):
    kind = "let"
    section = "scoring"        # its home; a `let` may stand in any section (see `anywhere`)
    anywhere = True
    template = "let NAME = FORMULA"

    @classmethod
    def args(cls, p, alias):
        words = next(c for c in p.children if isinstance(c, list))
        return {"name": " ".join(str(w) for w in words), "expr": p.exprs[0],
                "name_locs": tuple(p.loc_of(w) for w in words)}

    @classmethod
    def compile(cls, it, b):
        a = it.body.args
        name = a["name"]
        if b.cc.known_name(name):
            b.out.error((a.get("name_locs") or [it.body.loc])[0], f"`{name}` is already defined")
            return
        if it.section == "scoring":
            t, f = b.cc.compile(a["expr"], SEAT)
            if f is not None:
                per_seat = b.cc.seat_used
                b.lets.append((name, f, per_seat))
                b.cc.fixed_let(name, t, per_seat)
        else:
            t, f = b.cc.compile(a["expr"], Scope("any", seat=True))
            if f is not None:
                if b.cc.seat_used:
                    b.cc.let_seat.add(name)
                b.cc.lets[name] = (t, f, b.cc.last_cost)

    @classmethod
    def phrase(cls, it, lang, ctx):
        c, a = ctx.at(lang), it.body.args
        fixed = it.section == "scoring"
        return c.say(lang, en="`{x}` means {f}" + (" (worked out when the deal ends)" if fixed else ""),
                     pt="`{x}` quer dizer {f}" + (" (calculado no fim da mão)" if fixed else ""),
                     ru="`{x}` — это {f}" + (" (вычисляется в конце сдачи)" if fixed else ""),
                     x=a["name"], f=c.f(a["expr"]))


def _when(it, b):
    e = it.body.args.get("when")
    if e is None:
        return None, True
    _, f = b.cc.compile(e, SEAT, BOOL)
    return f, f is not None


class _Statement(RuleKind):
    section = "scoring"

    @classmethod
    def payee_check(cls, it, b):
        p = it.body.args["payee"]
        if p in ("declarer", "declarers", "defenders"):
            b.need_declarer(it)
        if p == "sides" and not b.g.get("partners"):
            b.out.error(it.body.loc, "`each side` needs partnerships (`partners sit opposite each other`)",
                        "write `each seat`")
        if p == "dealer":
            b.dealer_statements.append(it)
        elif "dealer sits out" in it.text or "seat is dealer" in it.text:
            # only active seats are among `each seat`, `each defender`…: a dealer who sits out never is
            b.out.warn(it.body.loc, "the dealer who sits out is not among the seats this rule scores, "
                       "so it never receives this", "write `the dealer scores …` to score the dealer who sits out")

    @classmethod
    def phrase_when(cls, it, c) -> str:
        """`When CONDITION, ` before a statement, or nothing."""
        e = it.body.args.get("when")
        if e is None:
            return ""
        return c.pick("when {f}, ", "quando {f}, ", "если {f}, ").format(f=c.f(e))


@register
class Score(_Statement):
    kind = "score"
    template = "each defender scores FORMULA  (or: the declarer, each declarer, each seat, each side, the dealer; may start: when CONDITION, …)"

    @classmethod
    def args(cls, p, alias):
        return {"when": p.exprs[0] if len(p.exprs) > 1 else None, "payee": p.strs[0], "expr": p.exprs[-1]}

    @classmethod
    def compile(cls, it, b):
        cls.payee_check(it, b)
        when, ok = _when(it, b)
        _, f = b.cc.compile(it.body.args["expr"], SEAT, NUM)
        if f is not None and ok:
            b.statements.append(Statement(it.body.args["payee"], (("score", f),), when, it.name))

    @classmethod
    def phrase(cls, it, lang, ctx):
        c, a = ctx.at(lang), it.body.args
        return c.say(lang, en="{w}{p} scores {f}", pt="{w}{p} soma à sua pontuação {f}",
                     ru="{w}к счёту {g} прибавляется {f}",
                     w=cls.phrase_when(it, c), p=c.payee(a["payee"]), g=c.payee_gen(a["payee"]), f=c.f(a["expr"]))


class _CounterStatement(_Statement):
    how = "set"

    @classmethod
    def args(cls, p, alias):
        return {"when": p.exprs[0] if len(p.exprs) > 1 else None, "payee": p.strs[0],
                "counter": p.names[0], "expr": p.exprs[-1], "name_locs": p.name_locs}

    @classmethod
    def compile(cls, it, b):
        cls.payee_check(it, b)
        a = it.body.args
        name = a["counter"]
        if name != "score" and name not in b.cc.counters:
            from ..errors import did_you_mean
            b.out.error(a["name_locs"][0], f"there is no count `{name}` (nor is it the score)",
                        did_you_mean(name, list(b.cc.counters) + ["score"]) or
                        "declare it in the players section: `each seat keeps a count of NAME, starting at 0`")
            return
        when, ok = _when(it, b)
        _, f = b.cc.compile(a["expr"], SEAT, NUM)
        if f is not None and ok:
            b.statements.append(Statement(a["payee"], ((cls.how, name, f),), when, it.name))

    @classmethod
    def phrase(cls, it, lang, ctx):
        c, a = ctx.at(lang), it.body.args
        x = c.pick("their score", "a pontuação", "счёт") if a["counter"] == "score" else f"`{a['counter']}`"
        if cls.how == "set":
            return c.say(lang, en="{w}for {p}, {x} becomes {f}", pt="{w}{x} passa a ser {f} {q}",
                         ru="{w}{q} {x} становится равным {f}",
                         w=cls.phrase_when(it, c), p=c.payee(a["payee"]), q=c.payee_of(a["payee"]), x=x, f=c.f(a["expr"]))
        return c.say(lang, en="{w}for {p}, {x} goes up by {f}", pt="{w}{x} aumenta {f} {q}",
                     ru="{w}{q} {x} увеличивается на {f}",
                     w=cls.phrase_when(it, c), p=c.payee(a["payee"]), q=c.payee_of(a["payee"]), x=x, f=c.f(a["expr"]))


@register
class SetCounter(_CounterStatement):
    kind, how = "set_counter", "set"
    template = "each seat's COUNT becomes FORMULA  (its score too; may start: when CONDITION, …)"


@register
class AddCounter(_CounterStatement):
    kind, how = "add_counter", "add"
    template = "each seat's COUNT goes up by FORMULA  (may start: when CONDITION, …)"
