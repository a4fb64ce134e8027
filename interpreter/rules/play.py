"""Rules of the `play` section: the first lead, follow and lead rules, the trick's
winner, an open hand, conceding, the stock (drawing, closing, exchanging the face-up
card) and a deal that ends at once."""
from __future__ import annotations

from ..language.expr import BOOL, Scope
from ..model.game import CardSet, Narrow
from .base import RuleKind, register

PLAY = Scope("play")
PLAY_SEAT = Scope("play", seat=True)

CARD_WORDS = {"suit-led": "a card of the suit led", "trump": "a trump",
              "beats-trick": "a card that beats the trick", "trump-beats": "a trump that beats the trick",
              "points": "a card worth points", "no-points": "a card worth no points"}


@register
class FirstLead(RuleKind):
    kind, section, single = "first_lead", "play", True
    template = "left of the dealer leads the first trick  (may end: when CONDITION, else SEAT)"

    @classmethod
    def args(cls, p, alias):
        return {"seat": p.strs[0], "expr": p.exprs[0] if p.exprs else None,
                "otherwise": p.strs[1] if len(p.strs) > 1 else None}

    @classmethod
    def compile(cls, it, b):
        a = it.body.args
        f = None
        if a["expr"] is not None:
            _, f = b.cc.compile(a["expr"], PLAY, BOOL)
        b.g["first_lead"] = (a["seat"], f, a["otherwise"])
        if b.g.get("lead_card", -1) >= 0:
            b.out.error(it.body.loc, "the first lead is already given to the holder of a card")

    @classmethod
    def phrase(cls, it, lang, ctx):
        c, a = ctx.at(lang), it.body.args
        if a["expr"] is None:
            return c.say(lang, en="{s} leads to the first trick", pt="Sai para a primeira vaza {s}",
                         ru="В первую взятку ходит {s}", s=c.seat(a["seat"]))
        return c.say(lang, en="{s} leads to the first trick when {f}, else {o}",
                     pt="Sai para a primeira vaza {s} quando {f}; senão, {o}",
                     ru="В первую взятку ходит {s}, если {f}, иначе — {o}",
                     s=c.seat(a["seat"]), f=c.f(a["expr"]), o=c.seat(a["otherwise"]))


@register
class LeadCard(RuleKind):
    kind, section, single = "lead_card", "play", True
    template = "the holder of the CARD leads it to the first trick"

    @classmethod
    def args(cls, p, alias):
        return {"card": p.tok("CARD")[0], "card_locs": p.tok_locs("CARD")}

    @classmethod
    def compile(cls, it, b):
        c = b.card(it.body.args["card"], it.body.args["card_locs"][0])
        if c is not None:
            b.g["lead_card"] = c

    @classmethod
    def phrase(cls, it, lang, ctx):
        c = ctx.at(lang)
        return c.say(lang, en="The player holding the {k} leads it to the first trick",
                     pt="Quem tem a carta {k} sai com ela para a primeira vaza",
                     ru="Игрок, у которого {k}, ходит этой картой в первую взятку", k=c.card(it.body.args["card"]))


def _card_set(b, it, terms) -> CardSet | None:
    parts = []
    for kind, arg, loc in terms:
        if kind == "suit":
            letter = arg[0].upper()
            if letter not in b.suits:
                b.out.error(loc or it.body.loc, f"this deck has no {arg}s")
                return None
            parts.append(("suit", b.suits.index(letter)))
        elif kind == "card":
            c = b.card(arg, loc or it.body.loc)
            if c is None:
                return None
            parts.append(("card", c))
        else:
            parts.append((kind, None))
    return CardSet(tuple(parts))


class _Narrow(RuleKind):
    section = "play"

    @classmethod
    def args(cls, p, alias):
        terms = [c for c in p.children if isinstance(c, tuple) and c and c[0] == "cards"]
        cond = [c for c in p.children if isinstance(c, tuple) and c and c[0] in ("void", "when")]
        how = p.tok("PLAY_OR_LEAD")
        return {"cards": terms[0][1] if terms else (), "first": bool(p.tok("FIRST_TRICK")),
                "void": bool(cond and cond[0][0] == "void"),
                "expr": cond[0][1] if cond and cond[0][0] == "when" else None,
                "on": how[0] if how else "follow"}

    @classmethod
    def build(cls, it, b, mode):
        a = it.body.args
        cards = _card_set(b, it, a["cards"])
        if cards is None:
            return
        f = None
        if a["expr"] is not None:
            _, f = b.cc.compile(a["expr"], PLAY, BOOL)
            if f is None:
                return
        on = a["on"]
        if on == "lead" and cards.uses_trick():
            b.out.error(it.body.loc, "when leading there is no suit led and no trick to beat yet")
            return
        b.narrows.append(Narrow(mode, cards, on, a["first"], a["void"], f, it.name, cls.words(it)))
        if mode == "must":
            for k, _ in cards.parts:
                if k in ("trump", "trump-beats") and b.no_trumps_winner:
                    b.out.warn(it.body.loc, f"trumps never win a trick here (`{b.trick_winner_name}` says the highest "
                               "card of the suit led wins), so this rule has no effect")
            key = (mode, cards, on, a["first"], a["void"], a["expr"] is None)
            if key in b.seen_narrows and a["expr"] is None:
                b.out.warn(it.loc, f"`{it.name}` says what `{b.seen_narrows[key]}` already says")
            b.seen_narrows.setdefault(key, it.name)

    @staticmethod
    def when_words(a) -> str:
        return f" (while {a['expr'].text()})" if a.get("expr") is not None else ""

    @classmethod
    def card_words(cls, terms) -> str:
        out = []
        for kind, arg, _ in terms:
            out.append(CARD_WORDS.get(kind) or (f"a {arg}" if kind == "suit" else f"the {arg}"))
        return " or ".join(out)

    @classmethod
    def phrase_parts(cls, it, c) -> dict:
        """The pieces both kinds of follow and lead rule say: when, which cards, where."""
        a = it.body.args
        pre = ""
        if a["void"]:
            pre = c.pick("when void in the suit led, ", "sem cartas do naipe pedido, ", "не имея масти хода, ")
        elif a["expr"] is not None:
            pre = c.pick("while {f}, ", "enquanto {f}, ", "пока {f}, ").format(f=c.f(a["expr"]))
        first = c.pick(" to the first trick", " na primeira vaza", " в первую взятку") if a["first"] else ""
        return {"pre": pre, "k": c.card_terms(a["cards"]), "first": first}


@register
class Follow(_Narrow):
    kind = "follow"
    template = "must play a card of the suit led when able  (or: a trump, a card that beats the trick …)"

    @classmethod
    def compile(cls, it, b):
        cls.build(it, b, "must")

    @classmethod
    def words(cls, it):
        a = it.body.args
        pre = "when void in the suit led, " if a["void"] else ""
        return (pre + "must play " + cls.card_words(a["cards"]) + (" to the first trick" if a["first"] else "")
                + " when able" + cls.when_words(a))

    @classmethod
    def phrase(cls, it, lang, ctx):
        c = ctx.at(lang)
        return c.say(lang, en="{pre}a player must play {k}{first} when able",
                     pt="{pre}é obrigatório jogar {k}{first}, se possível",
                     ru="{pre}игрок обязан сыграть {k}{first}, если может", **cls.phrase_parts(it, c))


@register
class Forbid(_Narrow):
    kind = "forbid"
    template = "may not lead a heart unless it holds nothing else  (or: may not play … to the first trick …)"

    @classmethod
    def compile(cls, it, b):
        cls.build(it, b, "not")

    @classmethod
    def words(cls, it):
        a = it.body.args
        return (f"may not {a['on']} " + cls.card_words(a["cards"]) + (" to the first trick" if a["first"] else "")
                + " unless it holds nothing else" + cls.when_words(a))

    @classmethod
    def phrase(cls, it, lang, ctx):
        c = ctx.at(lang)
        lead = it.body.args["on"] == "lead"
        return c.say(lang, en="{pre}a player may not " + ("lead" if lead else "play") + " {k}{first} unless they hold nothing else",
                     pt="{pre}não se pode " + ("sair com" if lead else "jogar") + " {k}{first}, a não ser que não haja outra carta",
                     ru="{pre}" + ("при заходе " if lead else "") + "нельзя играть {k}{first}, если есть другие карты",
                     **cls.phrase_parts(it, c))


@register
class TrickWinner(RuleKind):
    kind, aliases, section, single = "trick_winner", ("trick_winner_no_trumps",), "play", True
    required = "who wins a trick (`trick-winner: the highest trump wins, else the highest card of the suit led`)"
    template = "the highest trump wins, else the highest card of the suit led  (or: the highest card of the suit led wins)"

    @classmethod
    def args(cls, p, alias):
        return {"trumps": alias == "trick_winner"}

    @classmethod
    def compile(cls, it, b):
        b.g["trick_trumps"] = it.body.args["trumps"]

    @classmethod
    def phrase(cls, it, lang, ctx):
        if it.body.args["trumps"]:
            return ctx.at(lang).say(
                lang, en="The highest trump wins the trick; without a trump in it, the highest card of the suit led. "
                "The winner leads to the next trick",
                pt="Ganha a vaza o trunfo mais alto ou, sem trunfos, a carta mais alta do naipe pedido. Quem ganha sai a seguir",
                ru="Взятку берёт старший козырь, а без козырей — старшая карта масти хода. Взявший ходит следующим")
        return ctx.at(lang).say(
            lang, en="The highest card of the suit led wins the trick; there are no trumps. The winner leads to the next trick",
            pt="Ganha a vaza a carta mais alta do naipe pedido; não há trunfos. Quem ganha sai a seguir",
            ru="Взятку берёт старшая карта масти хода; козырей нет. Взявший ходит следующим")


@register
class OpenHand(RuleKind):
    kind, section, single = "open_hand", "play", True
    template = "the declarer's hand is shown after the first trick  (may end: when CONDITION)"

    @classmethod
    def args(cls, p, alias):
        return {"expr": p.exprs[0] if p.exprs else None}

    @classmethod
    def compile(cls, it, b):
        f = True
        if it.body.args["expr"] is not None:
            _, f = b.cc.compile(it.body.args["expr"], PLAY, BOOL)
        b.g["open_hand"] = f if f is not True else (lambda st, env: True)
        b.need_declarer(it)

    @classmethod
    def phrase(cls, it, lang, ctx):
        c, e = ctx.at(lang), it.body.args["expr"]
        return c.say(lang, en="After the first trick the declarer's hand is laid face up" + (", when {f}" if e else ""),
                     pt="Depois da primeira vaza, o declarante mostra a mão" + (", quando {f}" if e else ""),
                     ru="После первой взятки разыгрывающий открывает свои карты" + (", если {f}" if e else ""),
                     f=c.f(e))


@register
class Concede(RuleKind):
    kind, section, single = "concede", "play", True
    template = "the declarer may concede when the contract is lost  (may end: and CONDITION)"

    @classmethod
    def args(cls, p, alias):
        return {"expr": p.exprs[0] if p.exprs else None}

    @classmethod
    def compile(cls, it, b):
        f = True
        if it.body.args["expr"] is not None:
            _, f = b.cc.compile(it.body.args["expr"], PLAY, BOOL)
        b.g["concede"] = f
        if not b.ladder:
            b.out.error(it.body.loc, "conceding needs contracts with trick goals (a ladder with least/most)")

    @classmethod
    def phrase(cls, it, lang, ctx):
        c, e = ctx.at(lang), it.body.args["expr"]
        return c.say(lang, en="The declarer may concede once the contract can no longer be made" + (", when {f}" if e else ""),
                     pt="O declarante pode conceder quando o contrato já falhou" + (", se {f}" if e else ""),
                     ru="Разыгрывающий может сдаться, когда заказ уже не выполнить" + (", если {f}" if e else ""),
                     f=c.f(e))


@register
class Draw(RuleKind):
    kind, section, single = "draw", "play", True
    template = "after each trick, every seat draws a card from the stock, the winner first"

    @classmethod
    def compile(cls, it, b):
        b.g["draw"] = True
        if not b.g.get("stock"):
            b.out.error(it.body.loc, "the seats draw from the stock, but no rule of the deal forms one",
                        "add to the deal section: `stock: the other cards form the stock`")

    @classmethod
    def phrase(cls, it, lang, ctx):
        return ctx.at(lang).say(lang, en="After each trick every player draws a card from the stock, the winner first",
                                pt="Depois de cada vaza, cada jogador compra uma carta do monte, primeiro quem ganhou",
                                ru="После каждой взятки все берут из колоды по карте, первым — взявший")


@register
class Close(RuleKind):
    kind, section, single = "close", "play", True
    template = "the leader may close the stock  (may end: when CONDITION)"

    @classmethod
    def args(cls, p, alias):
        return {"expr": p.exprs[0] if p.exprs else None}

    @classmethod
    def compile(cls, it, b):
        f = True
        if it.body.args["expr"] is not None:
            _, f = b.cc.compile(it.body.args["expr"], PLAY_SEAT, BOOL)
        b.g["close"] = f
        if not b.g.get("stock"):
            b.out.error(it.body.loc, "there is no stock to close", "add `stock: the other cards form the stock`")

    @classmethod
    def phrase(cls, it, lang, ctx):
        c, e = ctx.at(lang), it.body.args["expr"]
        return c.say(lang, en="Before leading, the leader may close the stock" + (", when {f}" if e else "")
                     + "; after that nobody draws",
                     pt="Antes de sair, quem sai pode fechar o monte" + (", quando {f}" if e else "")
                     + "; depois ninguém compra",
                     ru="Перед ходом ходящий может закрыть колоду" + (", если {f}" if e else "")
                     + "; после этого карт больше не берут", f=c.f(e))


@register
class ExchangeTrump(RuleKind):
    kind, section, single = "exchange_trump", "play", True
    template = "the leader may exchange the RANK of trumps for the face up card  (may end: when CONDITION)"

    @classmethod
    def args(cls, p, alias):
        return {"rank": p.tok("RANK")[0], "expr": p.exprs[0] if p.exprs else None, "rank_locs": p.tok_locs("RANK")}

    @classmethod
    def compile(cls, it, b):
        a = it.body.args
        r = b.rank(a["rank"], a["rank_locs"][0])
        if r is None:
            return
        b.g["exchange_rank"] = r
        if a["expr"] is not None:
            _, b.g["exchange_when"] = b.cc.compile(a["expr"], PLAY_SEAT, BOOL)
        if b.g.get("face_up") != "stock-bottom":
            b.out.error(it.body.loc, "the exchange takes the face-up card under the stock, but no rule turns one",
                        "add to the deal section: `turn-up: the bottom card of the stock is turned face up`")

    @classmethod
    def phrase(cls, it, lang, ctx):
        c, a = ctx.at(lang), it.body.args
        e = a["expr"]
        return c.say(lang, en="Before leading, the leader may exchange the {r} of trumps for the face-up card"
                     + (", when {f}" if e else ""),
                     pt="Antes de sair, quem sai pode trocar o {r} de trunfo pela carta virada" + (", quando {f}" if e else ""),
                     ru="Перед ходом ходящий может обменять {r} козырной масти на открытую карту" + (", если {f}" if e else ""),
                     r=c.rank(a["rank"]), f=c.f(e))


@register
class DealEnd(RuleKind):
    kind, section, single = "deal_end", "play", True
    template = "the deal ends at once when CONDITION"

    @classmethod
    def args(cls, p, alias):
        return {"expr": p.exprs[0]}

    @classmethod
    def compile(cls, it, b):
        _, b.g["deal_ends"] = b.cc.compile(it.body.args["expr"], PLAY, BOOL)

    @classmethod
    def phrase(cls, it, lang, ctx):
        c = ctx.at(lang)
        return c.say(lang, en="The deal ends at once, with cards still in hand, as soon as {f}",
                     pt="A mão termina de imediato, mesmo com cartas na mão, assim que {f}",
                     ru="Сдача заканчивается сразу, даже с картами на руках, как только {f}", f=c.f(it.body.args["expr"]))
