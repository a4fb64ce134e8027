"""Rules of the `players` section: seats, who sits out, starting scores, sides, memory."""
from __future__ import annotations

from ..language.expr import BOOL, NUM, Scope
from .base import Parts, RuleKind, register



@register
class Seats(RuleKind):
    kind, aliases, section, single = "seats", ("seats_range",), "players", True
    required = "how many seats play (`seats: 3 seats`)"
    template = "N seats  (or: N or M seats; N to M seats, K by default)"

    @classmethod
    def args(cls, p: Parts, alias):
        if alias == "seats_range":
            lo, hi, default = p.ints
            return {"counts": tuple(range(lo, hi + 1)), "default": default, "range": (lo, hi)}
        return {"counts": tuple(p.ints), "default": p.ints[0]}

    @classmethod
    def compile(cls, it, b):
        a = it.body.args
        bad = [n for n in a["counts"] if not 2 <= n <= 8]
        if "range" in a and a["range"][0] > a["range"][1]:
            b.out.error(it.body.loc, f"no number of seats lies between {a['range'][0]} and {a['range'][1]}")
        if bad:
            b.out.error(it.body.loc, f"a table seats 2 to 8 players, not {bad[0]}")
        counts = tuple(n for n in a["counts"] if 2 <= n <= 8) or (2,)
        b.g["seat_counts"] = counts
        default = a["default"]
        if bad:
            default = counts[0]             # already reported: no consequential error
        if default not in counts:
            b.out.error(it.body.loc, f"the default of {default} seats is not one of {', '.join(map(str, counts))}")
            default = counts[0]
        b.g["default_seats"] = default

    @classmethod
    def words(cls, it):
        a = it.body.args
        if "range" in a:
            return f"{a['range'][0]} to {a['range'][1]} players ({a['default']} by default)"
        return " or ".join(map(str, a["counts"])) + " players"

    @classmethod
    def phrase(cls, it, lang, ctx):
        c, a = ctx.at(lang), it.body.args
        if "range" in a:
            lo, hi = a["range"]
            return c.say(lang, en="The game is for {lo} to {hi} players, {d} by default",
                         pt="Jogam de {lo} a {hi} jogadores, {d} por omissão",
                         ru="Играют от {lo} до {hi} игроков, по умолчанию {d}", lo=lo, hi=hi, d=a["default"])
        counts = a["counts"]
        several = len(counts) > 1
        return c.say(lang, en="The game is for {nums} {pl}" + (", {d} by default" if several else ""),
                     pt="Jogam {nums} {pl}" + (", {d} por omissão" if several else ""),
                     ru="Играют {nums} {pl}" + (", по умолчанию {d}" if several else ""),
                     nums=c.join_or(map(str, counts)), pl=c.noun(counts[-1], "player"), d=a["default"])


@register
class SitOut(RuleKind):
    kind, section, single = "sit_out", "players", True
    template = "the dealer sits out when there are N seats"

    @classmethod
    def args(cls, p, alias):
        return {"when_seats": p.ints[0]}

    @classmethod
    def compile(cls, it, b):
        n = it.body.args["when_seats"]
        b.g["sit_out_when"] = n
        if n not in b.g.get("seat_counts", (n,)):
            b.out.warn(it.body.loc, f"this rule never applies: the game is played by "
                       f"{' or '.join(map(str, b.g.get('seat_counts', ())))} seats, not {n}")

    @classmethod
    def phrase(cls, it, lang, ctx):
        c = ctx.at(lang)
        return c.say(lang, en="With {n} players the dealer sits the deal out: is dealt no cards and takes no part in it",
                     pt="Com {n} jogadores, o distribuidor fica de fora: não recebe cartas nem joga a mão",
                     ru="При {n} игроках сдающий отдыхает: карт не получает и в сдаче не участвует",
                     n=it.body.args["when_seats"])


@register
class StartScore(RuleKind):
    kind, section, single = "start_score", "players", True
    template = "each seat starts at FORMULA"

    @classmethod
    def args(cls, p, alias):
        return {"expr": p.exprs[0]}

    @classmethod
    def compile(cls, it, b):
        _, f = b.cc.compile(it.body.args["expr"], Scope("static"), NUM)
        if f:
            v = b.constant(f, it.body.args["expr"], "the starting score")
            if v is not None:
                b.g["start_score"] = v

    @classmethod
    def phrase(cls, it, lang, ctx):
        c = ctx.at(lang)
        return c.say(lang, en="Every player starts with a score of {f}", pt="Todos começam com a pontuação {f}",
                     ru="Каждый начинает со счётом {f}", f=c.f(it.body.args["expr"]))


@register
class Partners(RuleKind):
    kind, section, single = "partners", "players", True
    template = "partners sit opposite each other"

    @classmethod
    def compile(cls, it, b):
        b.g["partners"] = True
        odd = [n for n in b.g.get("seat_counts", ()) if n % 2]
        if odd:
            b.out.error(it.body.loc, f"partners sit opposite each other, but {odd[0]} seats cannot pair up")

    @classmethod
    def phrase(cls, it, lang, ctx):
        return ctx.at(lang).say(lang, en="Partners sit opposite each other; the two partnerships play against each other",
                                pt="Os parceiros sentam-se frente a frente; as duas duplas jogam uma contra a outra",
                                ru="Партнёры сидят друг напротив друга; две пары играют друг против друга")


@register
class Counter(RuleKind):
    kind, section = "counter", "players"
    template = "each seat keeps a count of NAME, starting at N"

    @classmethod
    def args(cls, p, alias):
        return {"name": p.names[0], "start": p.tuples[0][0] if p.tuples else 0, "name_locs": p.name_locs}

    @classmethod
    def compile(cls, it, b):
        a = it.body.args
        name = a["name"]
        if name in dict(b.g.get("counters", ())) or name == "score" or name in b.values:
            b.out.error(a["name_locs"][0], f"`{name}` is already a name of this spec")
            return
        b.g["counters"] = b.g.get("counters", ()) + ((name, a["start"]),)
        b.cc.counters[name] = True

    @classmethod
    def phrase(cls, it, lang, ctx):
        a = it.body.args
        return ctx.at(lang).say(lang, en="Each player keeps a count of `{x}` from deal to deal, starting at {s}",
                                pt="Cada jogador guarda uma contagem `{x}` de mão para mão, a começar em {s}",
                                ru="Каждый игрок ведёт от сдачи к сдаче счётчик `{x}`, начиная с {s}",
                                x=a["name"], s=a["start"])


@register
class RecordStart(RuleKind):
    kind, section, single = "record_start", "players", True
    template = "a record may start only when CONDITION"

    @classmethod
    def args(cls, p, alias):
        return {"expr": p.exprs[0]}

    @classmethod
    def compile(cls, it, b):
        _, f = b.cc.compile(it.body.args["expr"], Scope("end"), BOOL)
        b.g["record_start"] = f

    @classmethod
    def phrase(cls, it, lang, ctx):
        c = ctx.at(lang)
        return c.say(lang, en="A hand record may start only when {f}",
                     pt="Um registo de mãos só pode começar quando {f}",
                     ru="Запись партии может начинаться, только если {f}", f=c.f(it.body.args["expr"]))
