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
