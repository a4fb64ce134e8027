"""Rules of the `auction` section: who speaks first, what a bid is, conditions on bids,
passing, reopening, blind bidding, and what ends the auction."""
from __future__ import annotations

from ..errors import did_you_mean
from ..language.expr import BOOL, NUM, Scope
from .base import RuleKind, register

AUCTION = Scope("auction", seat=True)


@register
class Opener(RuleKind):
    kind, section, single = "opener", "auction", True
    template = "left of the dealer speaks first  (or: the dealer …)"

    @classmethod
    def args(cls, p, alias):
        return {"seat": p.strs[0]}

    @classmethod
    def compile(cls, it, b):
        b.g["opener"] = it.body.args["seat"]
        if it.body.args["seat"] == "declarer":
            b.out.error(it.body.loc, "there is no declarer before the auction ends")

    @classmethod
    def phrase(cls, it, lang, ctx):
        c = ctx.at(lang)
        return c.say(lang, en="{s} speaks first in the auction; the turn then goes round the table",
                     pt="Começa a licitar {s}; a vez passa depois à volta da mesa",
                     ru="Торги начинает {s}, дальше по кругу", s=c.seat(it.body.args["seat"]))


class _Bids(RuleKind):
    section, single, phase = "auction", True, "auction"

    @classmethod
    def check_one(cls, it, b):
        if b.bid_rule_name:
            return False          # reported once, by the compiler
        b.bid_rule_name = it.name
        return True


@register
class NumericBids(_Bids):
    kind = "numeric_bids"
    template = "a bid is a number from FORMULA, above the highest bid  (may add: , in steps of N)"

    @classmethod
    def args(cls, p, alias):
        return {"expr": p.exprs[0], "step": p.ints[-1] if p.ints else 1}

    @classmethod
    def compile(cls, it, b):
        if not cls.check_one(it, b):
            return
        b.g["auction_kind"] = "numeric"
        _, f = b.cc.compile(it.body.args["expr"], AUCTION, NUM)
        b.g["min_bid"] = f
        b.g["bid_step"] = max(1, it.body.args["step"])
        if it.body.args["step"] < 1:
            b.out.error(it.body.loc, "bids go up in steps of at least 1")
        if f is not None:
            b.check_number(f, it.body.args["expr"], "the lowest bid", 0, 100000)

    @classmethod
    def phrase(cls, it, lang, ctx):
        c, a = ctx.at(lang), it.body.args
        step = a["step"]
        return c.say(lang,
                     en="A bid is a whole number of at least {f}" + (", in steps of {n}" if step > 1 else "")
                     + ", higher than the highest bid so far; the highest bidder becomes the declarer",
                     pt="Uma licitação é um número inteiro de pelo menos {f}" + (", de {n} em {n}" if step > 1 else "")
                     + ", superior à licitação anterior; o maior licitante é o declarante",
                     ru="Заявка — целое число не меньше, чем {f}" + (", с шагом {n}" if step > 1 else "")
                     + ", и выше предыдущей заявки; победитель торгов становится разыгрывающим",
                     f=c.f(a["expr"]), n=step)


@register
class LadderBids(_Bids):
    kind = "ladder_bids"
    template = "a bid is a contract from the ladder, above the highest bid"

    @classmethod
    def compile(cls, it, b):
        if not cls.check_one(it, b):
            return
        b.g["auction_kind"] = "ladder"
        if not b.ladder:
            b.out.error(it.loc, "bids come from the ladder, but the tables have no `ladder`")

    @classmethod
    def phrase(cls, it, lang, ctx):
        return ctx.at(lang).say(
            lang, en="A bid is a contract of the ladder (the table of contracts), higher on the ladder than the highest bid so far",
            pt="Uma licitação é um contrato da escala (a tabela de contratos), acima na escala da licitação anterior",
            ru="Заявка — заказ из лестницы (таблицы заказов), выше по лестнице, чем предыдущая заявка")


@register
class ExactBids(_Bids):
    kind = "exact_bids"
    template = "each seat bids once: a number from FORMULA, at most FORMULA"

    @classmethod
    def args(cls, p, alias):
        return {"low": p.exprs[0], "high": p.exprs[1]}

    @classmethod
    def compile(cls, it, b):
        if not cls.check_one(it, b):
            return
        b.g["auction_kind"] = "exact"
        _, lo = b.cc.compile(it.body.args["low"], AUCTION, NUM)
        _, hi = b.cc.compile(it.body.args["high"], AUCTION, NUM)
        b.g["min_bid"], b.g["max_bid"] = lo, hi
        lo, hi = getattr(lo, "const", None), getattr(hi, "const", None)
        if lo is not None and hi is not None and max(lo, 0) > hi:
            b.out.error(it.body.loc, f"no bid can be made: the lowest bid ({lo}) is above the highest ({hi})",
                        "every seat must bid: write the lower number after `from`")

    @classmethod
    def phrase(cls, it, lang, ctx):
        c, a = ctx.at(lang), it.body.args
        return c.say(lang, en="Each player, in turn, bids once: a number from {lo} to {hi}; there is no pass and no declarer",
                     pt="Cada jogador, pela ordem, licita uma vez: um número entre {lo} e {hi}; não há passe nem declarante",
                     ru="Каждый игрок по очереди заявляет один раз: число не меньше, чем {lo}, и не больше, чем {hi}; паса и разыгрывающего нет",
                     lo=c.f(a["low"]), hi=c.f(a["high"]))


@register
class BidCondition(RuleKind):
    kind, section = "bid_condition", "auction"
    template = "CONTRACT may be bid only when CONDITION"

    @classmethod
    def args(cls, p, alias):
        return {"contract": p.names[0], "expr": p.exprs[0], "name_locs": p.name_locs}

    @classmethod
    def compile(cls, it, b):
        a = it.body.args
        idx = b.contract_index(a["contract"], a["name_locs"][0] if a["name_locs"] else it.body.loc)
        if idx is None:
            return
        _, f = b.cc.compile(a["expr"], AUCTION, BOOL)
        if f is None:
            return
        conds = b.g.setdefault("bid_conditions", {})
        if idx in conds:
            prev = conds[idx]
            conds[idx] = (lambda p, q: lambda st, env: p(st, env) and q(st, env))(prev, f)
        else:
            conds[idx] = f
        b.check_never_biddable(it)

    @classmethod
    def phrase(cls, it, lang, ctx):
        c, a = ctx.at(lang), it.body.args
        return c.say(lang, en="{k} may be bid only when {f}", pt="Só se pode licitar {k} quando {f}",
                     ru="{k} можно заявить, только если {f}", k=c.contract(a["contract"]), f=c.f(a["expr"]))


@register
class BidRule(RuleKind):
    kind, section = "bid_rule", "auction"
    template = "a bid may be made only when CONDITION  (`this bid` is the bid in question)"

    @classmethod
    def args(cls, p, alias):
        return {"expr": p.exprs[0]}

    @classmethod
    def compile(cls, it, b):
        _, f = b.cc.compile(it.body.args["expr"], Scope("auction", seat=True, bid=True), BOOL)
        if f is not None:
            b.g["bid_rules"] = b.g.get("bid_rules", ()) + ((it.name, f),)

    @classmethod
    def phrase(cls, it, lang, ctx):
        c = ctx.at(lang)
        return c.say(lang, en="A bid may be made only when {f}", pt="Só se pode licitar quando {f}",
                     ru="Заявку можно сделать, только если {f}", f=c.f(it.body.args["expr"]))


@register
class OpenerBids(RuleKind):
    kind, section, single = "opener_bids", "auction", True
    template = "the opener may not pass at its first turn"

    @classmethod
    def compile(cls, it, b):
        b.g["opener_must_bid"] = True

    @classmethod
    def phrase(cls, it, lang, ctx):
        return ctx.at(lang).say(lang, en="The player who speaks first may not pass at their first turn",
                                pt="Quem abre a licitação não pode passar na primeira vez",
                                ru="Начинающий торги не может спасовать на первом ходу")


@register
class PassFinal(RuleKind):
    kind, section, single = "pass_final", "auction", True
    template = "a seat that has passed does not speak again"

    @classmethod
    def compile(cls, it, b):
        b.g["pass_final"] = True

    @classmethod
    def phrase(cls, it, lang, ctx):
        return ctx.at(lang).say(lang, en="A pass is final: a player who has passed does not speak again",
                                pt="Passar é definitivo: quem passou não volta a licitar",
                                ru="Пас окончательный: спасовавший больше не торгуется")


@register
class Reopen(RuleKind):
    kind, section, single = "reopen", "auction", True
    template = "a seat that has passed may bid CONTRACT when CONDITION"

    @classmethod
    def args(cls, p, alias):
        return {"contracts": tuple(p.names), "expr": p.exprs[0], "name_locs": p.name_locs}

    @classmethod
    def compile(cls, it, b):
        a = it.body.args
        idxs = [b.contract_index(n, loc) for n, loc in zip(a["contracts"], a["name_locs"])]
        _, f = b.cc.compile(a["expr"], AUCTION, BOOL)
        if f and None not in idxs:
            b.g["reopen"] = (frozenset(idxs), f)

    @classmethod
    def phrase(cls, it, lang, ctx):
        c, a = ctx.at(lang), it.body.args
        return c.say(lang, en="A player who has passed may still bid {k} when {f}",
                     pt="Quem passou ainda pode licitar {k} quando {f}",
                     ru="Спасовавший всё же может заявить {k}, если {f}",
                     k=c.join_or(c.contract(x) for x in a["contracts"]), f=c.f(a["expr"]))


@register
class Unpartnered(RuleKind):
    kind, section, single = "unpartnered", "auction", True
    template = "when a partnership contract has no partner, its bidder may raise it, else the deal is annulled"

    @classmethod
    def compile(cls, it, b):
        b.g["unpartnered"] = True

    @classmethod
    def phrase(cls, it, lang, ctx):
        return ctx.at(lang).say(
            lang, en="When a contract that needs a partner finds none, its bidder may bid higher; otherwise the deal is annulled",
            pt="Se um contrato que precisa de parceiro não é aceite, o proponente pode subir; caso contrário, a mão é anulada",
            ru="Если на заказ, которому нужен партнёр, партнёр не нашёлся, заявивший может повысить заявку, иначе сдача аннулируется")


@register
class AllPass(RuleKind):
    kind, section, single = "all_pass", "auction", True
    template = "when every seat passes without a bid, the deal is annulled  (may end: and the same dealer deals again)"

    @classmethod
    def args(cls, p, alias):
        return {"same_dealer": bool(p.tok("SAME_DEALER"))}

    @classmethod
    def compile(cls, it, b):
        b.g["all_pass_same_dealer"] = it.body.args["same_dealer"]

    @classmethod
    def phrase(cls, it, lang, ctx):
        same = it.body.args["same_dealer"]
        return ctx.at(lang).say(
            lang, en="If every player passes without a bid, the deal is annulled: nobody scores, and "
            + ("the same dealer deals again" if same else "the deal passes on"),
            pt="Se todos passam sem licitar, a mão é anulada: ninguém pontua, e "
            + ("o mesmo distribuidor volta a dar" if same else "a distribuição passa ao seguinte"),
            ru="Если все спасовали без заявки, сдача аннулируется: никто ничего не записывает, и "
            + ("сдаёт тот же сдающий" if same else "сдача переходит к следующему"))


@register
class BlindBidding(RuleKind):
    kind, section, single = "blind_bidding", "auction", True
    template = "a seat may bid blind until it looks at its cards"

    @classmethod
    def compile(cls, it, b):
        b.g["blind"] = True

    @classmethod
    def phrase(cls, it, lang, ctx):
        return ctx.at(lang).say(lang, en="A player may bid blind, without looking at their cards, until they look at them",
                                pt="Pode-se licitar cego, sem ver as cartas, até as ver",
                                ru="Можно торговаться втёмную, не глядя в свои карты, пока в них не посмотрел")
