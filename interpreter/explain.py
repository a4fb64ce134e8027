"""`talon explain`: the rulebook from the spec.

``explain(game)`` writes the rules of a compiled spec as a page a player can read: the
cards and players, the deal, the auction, the declarer's steps, the play, the melds,
the scoring and the end of the game, every rule said in words by its kind's own
phrasing (``rules/*.py``, ``phrase``) with its clause ids, then a worked example
replayed from the spec's examples folder. A variant's page marks what it changes in
its base; ``explain_changes`` gives the one-page house-rules sheet; ``rule`` finds the
rules that cite one clause. English, Portuguese and Russian; Markdown or a standalone
HTML page with a picture of the phases of a deal.
"""
from __future__ import annotations

import html
import re
import sys
from pathlib import Path

from .errors import Collector, TalonError, SpecError, did_you_mean
from .language.tree import SECTIONS
from .phrasing import LANGS, Ctx, SUIT_NAMES, sentence
from .rules.registry import KINDS

FORMATS = ("md", "html")

# ------------------------------------------------------------------ the words of the page
LABELS = {
    "en": {
        "intro": "The rules of `{name}`, written out from its spec ({files}). After each rule: its name in the spec "
                 "and the clauses of the rule book it implements.",
        "cards": "Cards and players", "players_rules": "Players",
        "deck": "A deck of {n} cards: {suits} suits ({names}), {r} ranks each, from high to low: {ranks}.",
        "points_title": "Card points", "points_head": ("card", "points"),
        "points_total": "The deck holds {t} in all.", "no_points": "The cards carry no points; only tricks count.",
        "rank_entry": "{r}", "suit_entry": "every {s}", "card_entry": "{c}",
        "values_title": "Named values", "values_head": ("name", "value", "used by"),
        "deal": "The deal", "auction": "The auction", "contract": "The declarer's steps",
        "exchange": "Passing cards", "play": "The play", "melds": "Melds", "scoring": "Scoring",
        "end": "The end of the game", "tables": "Tables",
        "holds": "With {n} players each player is dealt {h}",
        "talon_of": "{t} go to the talon", "stock_of": "{s} stay in the stock",
        "ladder_title": "The ladder of contracts, lowest first",
        "ladder_head": ("contract", "name", "partner", "tricks to take", "trumps", "unit", "also"),
        "seeks": "needs a partner", "joins": "joins the highest bidder",
        "exposed": "the face-up card's suit", "chosen": "named by the declarer", "none": "no trumps",
        "at_least": "at least {n}", "at_most": "at most {n}", "exactly": "exactly {n}", "between": "{a} to {b}",
        "any_tricks": "any", "yes": "yes", "no": "no",
        "scoring_intro": "When the deal ends (an annulled deal scores nothing), the lines below are applied in order.",
        "flow": "A deal, phase by phase", "flow_line": "{flow}.",
        "example": "A worked example", "example_from": "Replayed from the hand record `{file}`.",
        "ex_seats": "Players {seats}; {dealer} deals{number}; scores before the deal: {scores}.",
        "ex_number": " (deal {n})", "ex_deal": "Deal {n}", "ex_hands": ("player", "cards dealt"),
        "ex_talon": "Talon: {cards}.", "ex_faceup": "Face-up card: {card}.", "ex_stock": "The stock holds {n} cards.",
        "ex_sitting": "{s} sits this deal out.",
        "ex_bidding": "Bidding", "ex_steps": "After the auction", "ex_passing": "Passing",
        "ex_tricks": "The tricks", "ex_tricks_head": ("#", "cards, from the lead", "winner"),
        "ex_before": "before the lead: {x}", "ex_after": "after the trick: {x}",
        "ex_result": "Result", "ex_result_head": ("player", "tricks", "card points", "points", "change", "score"),
        "ex_contract": "{d} declares {c}{blind}; trumps: {t}; result: {r}.",
        "ex_blind": " (won blind)", "ex_contract_num": "{c} (bid {b})", "ex_no_decl": "The deal is {r}.",
        "ex_trumps": "Trumps: {t}.",
        "ex_melds": "Melds: {m}.", "ex_meld": "{s}: {m} in {suit}, {w}{c}", "ex_meld_not": " (does not count)",
        "ex_final": "After the record: changes {d}; scores {s}; {over}.",
        "ex_over": "the game is over, won by {w}", "ex_over_none": "the game is over", "ex_goes_on": "the game goes on",
        "ex_expect_ok": "The record expects exactly this result ({what}): the replay agrees.",
        "ex_expect_bad": "The record expects {want} for {key}, but the replay gives {got}.",
        "results": {"made": "made", "failed": "failed", "played": "played", "abandoned": "abandoned",
                    "annulled": "annulled", "conceded": "conceded", "in progress": "in progress"},
        "no_trumps": "none",
        "variant_of": "A variant of {base} (`{bname}`). What it changes:",
        "no_change": "It plays exactly like {base}.",
        "added": "New", "changed": "Changed", "removed": "Removed", "was": "was",
        "tables_changed": "In the tables: {x}.",
        "changes_title": "House rules: {title}", "changes_intro": "Played as {base} (`{bname}`), with these changes.",
        "changes_values": "Table entries", "reads_value": "These rules read a changed value:",
        "cites": "Rules of `{name}` that cite {clause}",
        "phase": {"deal": "Deal", "auction": "Auction", "contract": "Declarer's steps", "exchange": "Passing cards",
                  "play": "Play", "scoring": "Scoring", "end": "End of the game"},
    },
    "pt": {
        "intro": "As regras de `{name}`, escritas a partir da sua especificação ({files}). Depois de cada regra: o seu "
                 "nome na especificação e as cláusulas do livro de regras que aplica.",
        "cards": "Cartas e jogadores", "players_rules": "Jogadores",
        "deck": "Um baralho de {n} cartas: {suits} naipes ({names}), {r} cartas por naipe, da mais alta à mais baixa: {ranks}.",
        "points_title": "Pontos das cartas", "points_head": ("carta", "pontos"),
        "points_total": "O baralho tem {t} ao todo.", "no_points": "As cartas não valem pontos; só contam as vazas.",
        "rank_entry": "{r}", "suit_entry": "cada carta de {s}", "card_entry": "{c}",
        "values_title": "Valores", "values_head": ("nome", "valor", "usado em"),
        "deal": "A distribuição", "auction": "A licitação", "contract": "O contrato e o talão",
        "exchange": "A troca de cartas", "play": "O jogo das vazas", "melds": "Anúncios", "scoring": "A pontuação",
        "end": "O fim do jogo", "tables": "Tabelas",
        "holds": "Com {n} jogadores, cada um recebe {h}",
        "talon_of": "{t} vão para o talão", "stock_of": "{s} ficam no monte",
        "ladder_title": "A escala de contratos, do mais baixo ao mais alto",
        "ladder_head": ("contrato", "nome", "parceiro", "vazas a fazer", "trunfo", "unidade", "outros"),
        "seeks": "procura parceiro", "joins": "junta-se ao maior licitante",
        "exposed": "naipe da carta virada", "chosen": "escolhido pelo declarante", "none": "sem trunfo",
        "at_least": "pelo menos {n}", "at_most": "no máximo {n}", "exactly": "exatamente {n}", "between": "de {a} a {b}",
        "any_tricks": "qualquer", "yes": "sim", "no": "não",
        "scoring_intro": "No fim da mão (uma mão anulada não pontua), aplicam-se as linhas abaixo, pela ordem.",
        "flow": "Uma mão, fase a fase", "flow_line": "{flow}.",
        "example": "Exemplo comentado", "example_from": "Repetido a partir do registo `{file}`.",
        "ex_seats": "Jogadores {seats}; dá {dealer}{number}; pontuação antes da mão: {scores}.",
        "ex_number": " (mão {n})", "ex_deal": "Mão {n}", "ex_hands": ("jogador", "cartas recebidas"),
        "ex_talon": "Talão: {cards}.", "ex_faceup": "Carta virada: {card}.", "ex_stock": "O monte tem {n} cartas.",
        "ex_sitting": "{s} fica de fora nesta mão.",
        "ex_bidding": "Licitação", "ex_steps": "Depois da licitação", "ex_passing": "Troca de cartas",
        "ex_tricks": "As vazas", "ex_tricks_head": ("#", "cartas, a partir da saída", "ganha"),
        "ex_before": "antes de sair: {x}", "ex_after": "depois da vaza: {x}",
        "ex_result": "Resultado", "ex_result_head": ("jogador", "vazas", "pontos de cartas", "pontos", "variação",
                                                     "pontuação"),
        "ex_contract": "{d} declara {c}{blind}; trunfo: {t}; resultado: {r}.",
        "ex_blind": " (ganhou cego)", "ex_contract_num": "{c} (licitou {b})", "ex_no_decl": "A mão foi {r}.",
        "ex_trumps": "Trunfo: {t}.",
        "ex_melds": "Anúncios: {m}.", "ex_meld": "{s}: {m} em {suit}, {w}{c}", "ex_meld_not": " (não conta)",
        "ex_final": "No fim do registo: variações {d}; pontuação {s}; {over}.",
        "ex_over": "o jogo acabou, ganha {w}", "ex_over_none": "o jogo acabou", "ex_goes_on": "o jogo continua",
        "ex_expect_ok": "O registo espera exatamente este resultado ({what}): a repetição confirma-o.",
        "ex_expect_bad": "O registo espera {want} em {key}, mas a repetição dá {got}.",
        "results": {"made": "cumprido", "failed": "falhado", "played": "jogada", "abandoned": "abandonado",
                    "annulled": "anulada", "conceded": "concedido", "in progress": "em curso"},
        "no_trumps": "sem trunfo",
        "variant_of": "Uma variante de {base} (`{bname}`). O que muda:",
        "no_change": "Joga-se exatamente como {base}.",
        "added": "Nova", "changed": "Alterada", "removed": "Retirada", "was": "antes",
        "tables_changed": "Nas tabelas: {x}.",
        "changes_title": "Regras da casa: {title}", "changes_intro": "Joga-se como {base} (`{bname}`), com estas mudanças.",
        "changes_values": "Entradas das tabelas", "reads_value": "Estas regras usam um valor alterado:",
        "cites": "Regras de `{name}` que citam {clause}",
        "phase": {"deal": "Distribuição", "auction": "Licitação", "contract": "Contrato e talão",
                  "exchange": "Troca de cartas", "play": "Jogo das vazas", "scoring": "Pontuação",
                  "end": "Fim do jogo"},
    },
    "ru": {
        "intro": "Правила `{name}`, записанные по спецификации ({files}). После каждого правила — его имя в "
                 "спецификации и пункты свода правил, которые оно воплощает.",
        "cards": "Карты и игроки", "players_rules": "Игроки",
        "deck": "Колода из {n} карт: {suits} масти ({names}), по {r} карт в масти, от старшей к младшей: {ranks}.",
        "points_title": "Очки карт", "points_head": ("карта", "очки"),
        "points_total": "Всего в колоде {t}.", "no_points": "Карты очков не стоят; считаются только взятки.",
        "rank_entry": "{r}", "suit_entry": "каждая карта масти {s}", "card_entry": "{c}",
        "values_title": "Значения", "values_head": ("имя", "значение", "где используется"),
        "deal": "Сдача", "auction": "Торги", "contract": "Заказ и прикуп", "exchange": "Передача карт",
        "play": "Розыгрыш", "melds": "Объявления", "scoring": "Подсчёт очков", "end": "Конец игры", "tables": "Таблицы",
        "holds": "При {n} игроках каждому сдаётся {h}",
        "talon_of": "в прикупе — {t}", "stock_of": "в колоде — {s}",
        "ladder_title": "Лестница заказов, от младшего к старшему",
        "ladder_head": ("заказ", "имя", "партнёр", "взятки", "козыри", "ставка", "ещё"),
        "seeks": "ищет партнёра", "joins": "присоединяется к старшей заявке",
        "exposed": "масть открытой карты", "chosen": "назначает разыгрывающий", "none": "без козырей",
        "at_least": "не меньше {n}", "at_most": "не больше {n}", "exactly": "ровно {n}", "between": "от {a} до {b}",
        "any_tricks": "любое число", "yes": "да", "no": "нет",
        "scoring_intro": "В конце сдачи (аннулированная сдача не считается) строки ниже применяются по порядку.",
        "flow": "Сдача по фазам", "flow_line": "{flow}.",
        "example": "Пример", "example_from": "Разыгрывается запись партии `{file}`.",
        "ex_seats": "Игроки {seats}; сдаёт {dealer}{number}; счёт до сдачи: {scores}.",
        "ex_number": " (сдача {n})", "ex_deal": "Сдача {n}", "ex_hands": ("игрок", "сданные карты"),
        "ex_talon": "Прикуп: {cards}.", "ex_faceup": "Открытая карта: {card}.", "ex_stock": "В колоде {n}.",
        "ex_sitting": "{s} в этой сдаче отдыхает.",
        "ex_bidding": "Торги", "ex_steps": "После торгов", "ex_passing": "Передача карт",
        "ex_tricks": "Взятки", "ex_tricks_head": ("№", "карты, начиная с хода", "взял"),
        "ex_before": "перед ходом: {x}", "ex_after": "после взятки: {x}",
        "ex_result": "Итог", "ex_result_head": ("игрок", "взятки", "очки за карты", "очки", "изменение", "счёт"),
        "ex_contract": "{d} играет {c}{blind}; козыри: {t}; итог: {r}.",
        "ex_blind": " (куплено втёмную)", "ex_contract_num": "{c} (заявка {b})", "ex_no_decl": "Сдача {r}.",
        "ex_trumps": "Козыри: {t}.",
        "ex_melds": "Объявления: {m}.", "ex_meld": "{s}: {m} {sym}, {w}{c}", "ex_meld_not": " (не засчитан)",
        "ex_final": "После записи: изменения {d}; счёт {s}; {over}.",
        "ex_over": "игра окончена, победа: {w}", "ex_over_none": "игра окончена", "ex_goes_on": "игра продолжается",
        "ex_expect_ok": "Запись ожидает именно такой итог ({what}): розыгрыш его подтверждает.",
        "ex_expect_bad": "Запись ожидает {want} для {key}, а розыгрыш даёт {got}.",
        "results": {"made": "выполнен", "failed": "не выполнен", "played": "сыграна", "abandoned": "расписана",
                    "annulled": "аннулирована", "conceded": "сдан", "in progress": "не закончена"},
        "no_trumps": "без козырей",
        "variant_of": "Вариант игры {base} (`{bname}`). Что меняется:",
        "no_change": "Играется в точности как {base}.",
        "added": "Новое", "changed": "Изменено", "removed": "Убрано", "was": "было",
        "tables_changed": "В таблицах: {x}.",
        "changes_title": "Правила стола: {title}", "changes_intro": "Играется как {base} (`{bname}`), с такими изменениями.",
        "changes_values": "Записи таблиц", "reads_value": "Эти правила используют изменённое значение:",
        "cites": "Правила `{name}`, ссылающиеся на {clause}",
        "phase": {"deal": "Сдача", "auction": "Торги", "contract": "Заказ и прикуп", "exchange": "Передача карт",
                  "play": "Розыгрыш", "scoring": "Подсчёт", "end": "Конец игры"},
    },
}

# ------------------------------------------------------------------ a page: blocks, then Markdown or HTML


class Page:
    """A page as blocks: ("h1"|"h2"|"h3"|"p", text), ("ul", [text]), ("table", head, rows),
    ("svg", markup) (HTML only)."""

    def __init__(self, title: str, lang: str):
        self.title, self.lang = title, lang
        self.blocks: list = []

    def add(self, kind, *parts):
        self.blocks.append((kind,) + parts)

    def md(self) -> str:
        out = []
        for b in self.blocks:
            kind = b[0]
            if kind in ("h1", "h2", "h3"):
                out += ["#" * int(kind[1]) + " " + b[1], ""]
            elif kind == "p":
                out += [b[1], ""]
            elif kind == "ul":
                out += [f"- {x}" for x in b[1]] + [""]
            elif kind == "table":
                head, rows = b[1], b[2]
                cell = lambda x: str(x).replace("|", "\\|").replace("\n", " ")
                out.append("| " + " | ".join(cell(h) for h in head) + " |")
                out.append("|" + "|".join("---" for _ in head) + "|")
                out += ["| " + " | ".join(cell(x) for x in r) + " |" for r in rows]
                out.append("")
        return "\n".join(out).rstrip() + "\n"

    def html(self) -> str:
        body = []
        for b in self.blocks:
            kind = b[0]
            if kind in ("h1", "h2", "h3"):
                body.append(f"<{kind}>{_inline(b[1])}</{kind}>")
            elif kind == "p":
                body.append(f"<p>{_inline(b[1])}</p>")
            elif kind == "ul":
                body.append("<ul>\n" + "\n".join(f"  <li>{_inline(x)}</li>" for x in b[1]) + "\n</ul>")
            elif kind == "table":
                head, rows = b[1], b[2]
                t = ["<table>", "  <tr>" + "".join(f"<th>{_inline(str(h))}</th>" for h in head) + "</tr>"]
                t += ["  <tr>" + "".join(f"<td>{_inline(str(x))}</td>" for x in r) + "</tr>" for r in rows]
                body.append("\n".join(t + ["</table>"]))
            elif kind == "svg":
                body.append(f'<figure class="flow">{b[1]}</figure>')
        return (f'<!DOCTYPE html>\n<html lang="{self.lang}">\n<head>\n<meta charset="utf-8">\n'
                f"<title>{html.escape(self.title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
                + "\n".join(body) + "\n</body>\n</html>\n")


_CSS = ("body{font-family:Georgia,serif;max-width:52em;margin:2em auto;padding:0 1em;line-height:1.45;color:#222}"
        "h1,h2,h3{font-family:Helvetica,Arial,sans-serif}code{background:#f3f3f3;padding:0 .2em}"
        "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #bbb;padding:.2em .5em;vertical-align:top}"
        "th{background:#eee}del{color:#a33}strong{color:#135}figure.flow{margin:1em 0}")


def _inline(text: str) -> str:
    t = html.escape(text, quote=False)
    t = re.sub(r"`([^`]+)`", r"<code>\1</code>", t)
    t = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", t)
    t = re.sub(r"~~([^~]+)~~", r"<del>\1</del>", t)
    t = re.sub(r"(?<![\w*])\*([^*]+)\*(?![\w*])", r"<em>\1</em>", t)
    return t


# ------------------------------------------------------------------ variants
def base_of(game):
    """The spec a variant extends (compiled), or None for a game."""
    from .language.read import parse
    from .spec import load, resolve
    path = Path(game.path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return None
    sf = parse(text, str(path), Collector())
    if sf is None or sf.kind != "variant" or not sf.extends:
        return None
    ref = resolve(sf.extends) if "/" not in sf.extends else path.parent / sf.extends
    if not Path(ref).exists() and (path.parent / f"{sf.extends}.talon").exists():
        ref = path.parent / f"{sf.extends}.talon"
    return load(str(ref))


def _same_file(a: str, b: str) -> bool:
    try:
        return Path(a).resolve() == Path(b).resolve()
    except OSError:
        return a == b


def changes(base, game, lang: str = "en") -> dict:
    """What `game` changes in `base`, rule by rule (in words) and in the tables:
    {"changed": {name: old phrase}, "added": set, "removed": [items of base], "tables": [...]}."""
    from .spec.diff import diff
    cb = Ctx(base, lang)
    changed, added = {}, set()
    for name, it in game.rules.items():
        old = base.rules.get(name)
        if old is None:
            added.add(name)
        elif old.body.kind != it.body.kind or old.text != it.text or old.clauses != it.clauses:
            changed[name] = _phrase(base, old, lang, cb)
    removed = [it for n, it in base.rules.items() if n not in game.rules]
    return {"changed": changed, "added": added, "removed": removed, "tables": diff(base, game)["tables"]}


def _phrase(game, it, lang, ctx=None) -> str:
    ctx = (ctx or Ctx(game, lang)).at(lang)
    return KINDS[it.body.kind].phrase(it, lang, ctx)


def _table_change(t: dict, c: Ctx) -> str:
    path = " › ".join(map(str, t["path"]))
    val = lambda v: c.per_suit(v) if isinstance(v, dict) else (
        c.pick("yes", "sim", "да") if v is True else c.pick("no", "não", "нет") if v is False else str(v))
    if t["change"] == "added" and "now" not in t:
        return f"+ `{path}`"
    if t["change"] == "removed" and "was" not in t:
        return f"− `{path}`"
    if t["change"] == "added":
        return f"+ `{path}` = {val(t['now'])}"
    if t["change"] == "removed":
        return f"− `{path}` ({val(t['was'])})"
    return f"`{path}`: {val(t['was'])} → {val(t['now'])}"


# ------------------------------------------------------------------ the page
def _section_order(game) -> list:
    middle = [ph for ph in game.phases if ph in ("auction", "contract", "exchange")]
    order = ["players", "deal"] + middle + ["play", "melds", "scoring", "end"]
    return order + [s for s in SECTIONS if s not in order]


def _clauses(it) -> str:
    return ", ".join(it.clauses)


def _rule_line(game, it, lang, ctx, marks=None) -> str:
    text = _phrase(game, it, lang, ctx)
    tail = f" (`{it.name}`" + (f", {_clauses(it)}" if it.clauses else "") + ")"
    if marks:
        lab = LABELS[lang]
        if it.name in marks["added"]:
            return f"**{lab['added']}:** {text}{tail}"
        if it.name in marks["changed"]:
            return f"**{lab['changed']}:** {text}{tail}; {lab['was']}: ~~{marks['changed'][it.name]}~~"
    return text + tail


def explain(game, lang: str = "en", fmt: str = "md", base=None, example: bool = True) -> str:
    """The rules of a compiled spec as a page (Markdown or standalone HTML), in `lang`.
    For a variant, `base` (found from its `extends` when not given) is the spec whose
    rules it changes; the page marks them."""
    _check(lang, fmt)
    page = build_page(game, lang, base, example, svg=fmt == "html")
    return page.html() if fmt == "html" else page.md()


def build_page(game, lang: str = "en", base=None, example: bool = True, svg: bool = False) -> Page:
    _check(lang, "md")
    lab = LABELS[lang]
    ctx = Ctx(game, lang)
    if base is None:
        base = base_of(game)
    marks = changes(base, game, lang) if base is not None else None
    page = Page(game.title, lang)
    page.add("h1", game.title)
    files = f"`{Path(game.path).name}`"
    tables_file = game.tables_data and _tables_name(game)
    if tables_file:
        files += f", `{tables_file}`"
    page.add("p", lab["intro"].format(name=game.name, files=files))
    if marks is not None:
        _variant_summary(page, base, game, marks, lang, ctx)
    # the phases of a deal
    page.add("h2", lab["flow"])
    page.add("p", lab["flow_line"].format(flow=" → ".join(lab["phase"][p] for p in _flow_phases(game))))
    if svg:
        page.add("svg", flow_svg(game, lang))
    by_section: dict = {}
    for it in game.rules.values():
        by_section.setdefault(it.section, []).append(it)
    removed_by = {}
    if marks:
        for it in marks["removed"]:
            removed_by.setdefault(it.section, []).append(it)
    for sec in _section_order(game):
        items = by_section.get(sec, [])
        gone = removed_by.get(sec, [])
        if sec == "players":
            _cards_section(page, game, lang, ctx)
            page.add("h3", lab["players_rules"])
        elif not items and not gone:
            continue
        else:
            page.add("h3" if sec == "melds" else "h2", lab[sec])
        lines = [_rule_line(game, it, lang, ctx, marks) for it in items]
        for it in gone:
            lines.append(f"**{lab['removed']}:** ~~{_phrase(base, it, lang)}~~ (`{it.name}`"
                         + (f", {_clauses(it)}" if it.clauses else "") + ")")
        if sec == "deal":
            held = _holds(game, lang, ctx)
            if held:
                lines.append(held)
        if sec == "scoring" and lines:
            page.add("p", lab["scoring_intro"])
        if lines:
            page.add("ul", lines)
        if sec == "auction" and game.ladder:
            _ladder(page, game, lang, ctx)
    if example:
        _example_section(page, game, lang, ctx)
    return page


def _tables_name(game) -> str:
    try:
        text = Path(game.path).read_text(encoding="utf-8")
    except OSError:
        return ""
    m = re.search(r'^tables\s+"([^"]+)"', text, re.M)
    if m:
        return Path(m.group(1)).name
    base = base_of(game)
    return _tables_name(base) if base is not None else ""


def _check(lang: str, fmt: str):
    if lang not in LANGS:
        raise TalonError(f"no page in `{lang}`: the languages are {', '.join(LANGS)}")
    if fmt not in FORMATS:
        raise TalonError(f"no format `{fmt}`: the formats are {', '.join(FORMATS)}")


def _cards_section(page, game, lang, ctx):
    lab = LABELS[lang]
    page.add("h2", lab["cards"])
    names = ", ".join(ctx.suit_name(s) for s in game.suits)
    page.add("p", lab["deck"].format(n=game.n_cards, suits=len(game.suits), names=names, r=len(game.ranks),
                                     ranks=ctx.ranks(game.ranks)))
    points = game.tables_data.get("points") or {}
    rows = []
    for key, v in points.items():
        key = str(key)
        if key in game.ranks:
            rows.append((lab["rank_entry"].format(r=ctx.rank(key)), v))
        elif key in game.suits:
            rows.append((lab["suit_entry"].format(s=ctx.suit_name(key)), v))
        else:
            rows.append((lab["card_entry"].format(c=ctx.card(key)), v))
    total = sum(game.card_points)
    if rows and any(v for _, v in rows):
        page.add("h3", lab["points_title"])
        page.add("table", lab["points_head"], rows)
        page.add("p", lab["points_total"].format(t=ctx.n(total, "point")))
    else:
        page.add("p", lab["no_points"])
    if game.values:
        page.add("h3", lab["values_title"])
        users = _value_users(game)
        rows = []
        for k, v in game.values.items():
            shown = ctx.per_suit(v) if isinstance(v, dict) else str(v)
            rows.append((f"`{k}`", shown, ", ".join(f"`{u}`" for u in users.get(k, ())) or "—"))
        page.add("table", lab["values_head"], rows)


def _names_in(e, out: set):
    from .language.tree import E
    if isinstance(e, E):
        if e.op == "name":
            out.add(e.args[0].removeprefix("the ").strip())
        for x in e.args:
            _names_in(x, out)
    elif isinstance(e, (tuple, list)):
        for x in e:
            _names_in(x, out)
    return out


def _value_users(game) -> dict:
    users: dict = {}
    for it in game.rules.values():
        names = _names_in(tuple(it.body.args.values()), set())
        for k in game.values:
            if k in names:
                users.setdefault(k, []).append(it.name)
    return users


def _holds(game, lang, ctx) -> str:
    """`With 3 players each holds 8 cards …` for a deal of fixed size."""
    if not game.deal_steps or any(not isinstance(st.rounds, int) for st in game.deal_steps):
        return ""
    n = game.default_seats or game.seat_counts[0]
    k = n - (1 if game.sit_out_when == n else 0)
    hand = sum(st.rounds * st.each for st in game.deal_steps)
    talon = sum(st.rounds * st.to_talon for st in game.deal_steps)
    stock = game.n_cards - sum(st.rounds * (st.each * k + st.to_talon) for st in game.deal_steps)
    lab = LABELS[lang]
    text = lab["holds"].format(n=n, h=ctx.n(hand, "card"))
    extra = []
    if talon:
        extra.append(lab["talon_of"].format(t=ctx.n(talon, "card")))
    if game.stock and stock:
        extra.append(lab["stock_of"].format(s=ctx.n(stock, "card")))
    if extra:
        text += "; " + ", ".join(extra)
    return sentence(text)


def _ladder(page, game, lang, ctx):
    lab = LABELS[lang]
    hand = None
    if game.deal_steps and all(isinstance(st.rounds, int) for st in game.deal_steps):
        hand = sum(st.rounds * st.each for st in game.deal_steps)
    page.add("h3", lab["ladder_title"])
    rows = []
    for c in game.ladder:
        least, most = c.least, c.most
        if most == 0:
            tricks = lab["exactly"].format(n=0)
        elif hand is not None and least == hand:
            tricks = lab["exactly"].format(n=least)
        elif least and (hand is None or most >= hand):
            tricks = lab["at_least"].format(n=least)
        elif least:
            tricks = lab["between"].format(a=least, b=most)
        elif hand is None or most < hand:
            tricks = lab["at_most"].format(n=most)
        else:
            tricks = lab["any_tricks"]
        partner = lab.get(c.partner, "") if c.partner else "—"
        other = []
        for k, v in c.columns.items():
            if k in ("least", "most", "unit", "trumps", "partner", "title"):
                continue
            shown = lab["yes"] if v is True else lab["no"] if v is False else str(v)
            other.append(f"`{k}`: {shown}")
        rows.append((c.title, f"`{c.name}`", partner, tricks, lab.get(c.trumps, c.trumps), c.unit,
                     ", ".join(other) or "—"))
    page.add("table", lab["ladder_head"], rows)


def _variant_summary(page, base, game, marks, lang, ctx):
    lab = LABELS[lang]
    n = len(marks["changed"]) + len(marks["added"]) + len(marks["removed"]) + len(marks["tables"])
    if not n:
        page.add("p", lab["no_change"].format(base=base.title))
        return
    page.add("p", lab["variant_of"].format(base=base.title, bname=base.name))
    lines = []
    tail = lambda it: f" (`{it.name}`" + (f", {_clauses(it)}" if it.clauses else "") + ")"
    for name, it in game.rules.items():
        if name in marks["added"]:
            lines.append(f"**{lab['added']}:** {_phrase(game, it, lang, ctx)}{tail(it)}")
        elif name in marks["changed"]:
            lines.append(f"**{lab['changed']}:** {_phrase(game, it, lang, ctx)}{tail(it)}")
    for it in marks["removed"]:
        lines.append(f"**{lab['removed']}:** ~~{_phrase(base, it, lang)}~~{tail(it)}")
    if marks["tables"]:
        lines.append(lab["tables_changed"].format(x="; ".join(_table_change(t, ctx) for t in marks["tables"])))
    page.add("ul", lines)


# ------------------------------------------------------------------ house rules, one clause
def explain_changes(base_game, variant_game, lang: str = "en", fmt: str = "md") -> str:
    """A one-page house-rules sheet: what `variant_game` changes in `base_game`."""
    _check(lang, fmt)
    lab = LABELS[lang]
    ctx = Ctx(variant_game, lang)
    marks = changes(base_game, variant_game, lang)
    page = Page(lab["changes_title"].format(title=variant_game.title), lang)
    page.add("h1", lab["changes_title"].format(title=variant_game.title))
    page.add("p", lab["changes_intro"].format(base=base_game.title, bname=base_game.name))
    n = len(marks["changed"]) + len(marks["added"]) + len(marks["removed"]) + len(marks["tables"])
    if not n:
        page.add("p", lab["no_change"].format(base=base_game.title))
    for sec in _section_order(variant_game):
        lines = []
        for it in variant_game.rules.values():
            if it.section != sec:
                continue
            if it.name in marks["added"] or it.name in marks["changed"]:
                lines.append(_rule_line(variant_game, it, lang, ctx, marks))
        for it in marks["removed"]:
            if it.section == sec:
                lines.append(f"**{lab['removed']}:** ~~{_phrase(base_game, it, lang)}~~ (`{it.name}`"
                             + (f", {_clauses(it)}" if it.clauses else "") + ")")
        if lines:
            page.add("h2", lab[sec] if sec != "players" else lab["players_rules"])
            page.add("ul", lines)
    if marks["tables"]:
        page.add("h2", lab["changes_values"])
        page.add("ul", [_table_change(t, ctx) for t in marks["tables"]])
        changed_values = {t["path"][1] for t in marks["tables"] if t["path"][0] == "values" and len(t["path"]) > 1}
        readers = [it for it in variant_game.rules.values()
                   if changed_values & _names_in(tuple(it.body.args.values()), set())
                   and it.name not in marks["changed"] and it.name not in marks["added"]]
        if readers:
            page.add("p", lab["reads_value"])
            page.add("ul", [_rule_line(variant_game, it, lang, ctx) for it in readers])
    return page.html() if fmt == "html" else page.md()


def rules_citing(game, clause_id: str) -> list:
    """The rules of the game that cite a clause (case does not matter)."""
    want = clause_id.strip().upper()
    return [it for it in game.rules.values() if any(c.upper() == want for c in it.clauses)]


def rule(game, clause_id: str, lang: str = "en") -> str:
    """The rules citing one clause, in words, with their names and clauses."""
    _check(lang, "md")
    items = rules_citing(game, clause_id)
    if not items:
        known = sorted({c for it in game.rules.values() for c in it.clauses})
        hint = did_you_mean(clause_id, known) or ("clauses cited: " + ", ".join(known[:12]) + (" …" if len(known) > 12 else ""))
        raise TalonError(f"no rule of {game.name} cites {clause_id} ({hint})")
    ctx = Ctx(game, lang)
    lab = LABELS[lang]
    clause = next(c for c in items[0].clauses if c.upper() == clause_id.strip().upper())
    out = [lab["cites"].format(name=game.name, clause=clause) + ":", ""]
    for it in items:
        out.append(f"- {lab[it.section] if it.section != 'players' else lab['players_rules']}: "
                   + _rule_line(game, it, lang, ctx))
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ the worked example
class Example:
    """The first complete hand record of a spec's examples folder, replayed."""

    def __init__(self, path, rec, replay):
        self.path, self.rec, self.replay = path, rec, replay
        self.result = replay.to_json()
        self.expect = {k: v for k, v in (rec.get("expect") or {}).items()
                       if k in ("deltas", "scores", "game_over", "winners")}

    def mismatches(self) -> list:
        """(key, wanted, got) where the replay differs from the record's `expect:`."""
        out = []
        for k, want in self.expect.items():
            got = self.result.get(k)
            if k in ("deltas", "scores") and isinstance(want, dict):
                want = {str(a): b for a, b in want.items()}
            if k == "winners":
                want, got = sorted(map(str, want or [])), sorted(got or [])
            if got != want:
                out.append((k, want, got))
        return out


def worked_example(game):
    """The example shown on the page: the first record of the examples folder (in name
    order) that replays to its end with the result its `expect:` gives (records of a
    refused action are passed over; without any `expect:`, the first that replays)."""
    from .records import read_record_file, replay_record
    if not game.examples or not Path(game.examples).is_dir():
        return None
    folder = Path(game.examples)
    found = []
    for path in sorted(folder.glob("*.y*ml")) + sorted(folder.glob("*.json")):
        try:
            recs = read_record_file(str(path))
        except TalonError:
            continue
        for rec in recs:
            exp = rec.get("expect") or {}
            if not isinstance(exp, dict) or "illegal" in exp or "illegal_deal" in exp:
                continue
            try:
                rep = replay_record(rec, base_dir=str(path.parent), where=str(path), game=game)
            except TalonError:
                continue
            if rep.complete:
                ex = Example(path, rec, rep)
                if ex.expect:
                    return ex               # the first with an expected result
                found.append(ex)
    return found[0] if found else None


def _action_words(act, who: str, ctx) -> str:
    v = act.verb
    L = ctx.lang
    if v == "bid":
        val = ctx.contract(act.value) if isinstance(act.value, str) and act.value in ctx.ladder else str(act.value)
        blind = ctx.pick(" blind", " cego", " втёмную") if act.blind else ""
        return ctx.pick(f"{who} bids {val}{blind}", f"{who} licita {val}{blind}", f"{who}: {val}{blind}")
    if v == "pass":
        return ctx.pick(f"{who} passes", f"{who} passa", f"{who}: пас")
    if v == "look":
        return ctx.pick(f"{who} looks at their cards", f"{who} vê as cartas", f"{who} смотрит свои карты")
    if v == "trumps":
        t = LABELS[L]["no_trumps"] if act.value == "none" else ctx.suit_name(act.value)
        return ctx.pick(f"{who} names trumps: {t}", f"{who} declara trunfo: {t}", f"{who} назначает козыри: {t}")
    if v == "contract":
        return ctx.pick(f"{who} names the contract {act.value}", f"{who} declara o contrato {act.value}",
                        f"{who} объявляет заказ {act.value}")
    if v == "give":
        c = ctx.card(act.card)
        return ctx.pick(f"{who} gives {c} to {act.seat}", f"{who} dá {c} a {act.seat}", f"{who} отдаёт {c} игроку {act.seat}")
    if v == "abandon":
        return ctx.pick(f"{who} abandons the deal", f"{who} abandona a mão", f"{who} расписывает сдачу")
    if v == "concede":
        return ctx.pick(f"{who} concedes", f"{who} concede", f"{who} сдаётся")
    if v == "close":
        return ctx.pick(f"{who} closes the stock", f"{who} fecha o monte", f"{who} закрывает колоду")
    if v == "exchange":
        c = ctx.card(act.card)
        return ctx.pick(f"{who} exchanges {c} for the face-up card", f"{who} troca {c} pela carta virada",
                        f"{who} меняет {c} на открытую карту")
    return f"{who} {act.text()}"


def _fmt_map(d: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in d.items())


def _example_section(page, game, lang, ctx):
    from .records import cards_list
    ex = worked_example(game)
    if ex is None:
        return
    lab = LABELS[lang]
    page.add("h2", lab["example"])
    page.add("p", lab["example_from"].format(file=ex.path.name))
    rep = ex.replay
    seats = rep.seats
    many = len(rep.deals) > 1
    for k, (deal, summary) in enumerate(zip(rep.deals, rep.per_deal)):
        if many:
            page.add("h3", lab["ex_deal"].format(n=deal.deal_number))
        number = lab["ex_number"].format(n=deal.deal_number) if deal.deal_number != 1 or many else ""
        page.add("p", lab["ex_seats"].format(seats=", ".join(seats), dealer=seats[deal.dealer], number=number,
                                             scores=_fmt_map(summary["scores_before"])))
        rows = [(seats[s], ctx.cards(cards_list(game, deal.dealt[s]))) for s in range(len(seats)) if s in deal.active]
        page.add("table", lab["ex_hands"], rows)
        notes = []
        for s in range(len(seats)):
            if s not in deal.active:
                notes.append(lab["ex_sitting"].format(s=seats[s]))
        if deal.talon_dealt:
            notes.append(lab["ex_talon"].format(cards=ctx.cards(cards_list(game, deal.talon_dealt))))
        if deal.exposed_dealt >= 0:
            notes.append(lab["ex_faceup"].format(card=ctx.card(game.card_names[deal.exposed_dealt])))
        if game.stock and deal.stock_dealt:
            notes.append(lab["ex_stock"].format(n=ctx.n(len(deal.stock_dealt), "card") if lang == "ru"
                                                else len(deal.stock_dealt)))
        if notes:
            page.add("p", " ".join(notes))
        _example_actions(page, game, deal, seats, lang, ctx)
        _example_result(page, game, deal, summary, seats, lang, ctx)
    res = ex.result
    if res.get("winners"):
        over = lab["ex_over"].format(w=", ".join(res["winners"]))
    elif res.get("game_over"):
        over = lab["ex_over_none"]
    else:
        over = lab["ex_goes_on"]
    page.add("p", lab["ex_final"].format(d=_fmt_map({k: _signed(v) for k, v in res["deltas"].items()}),
                                         s=_fmt_map(res["scores"]), over=over))
    bad = ex.mismatches()
    if bad:
        page.add("p", " ".join(lab["ex_expect_bad"].format(key=k, want=w, got=g) for k, w, g in bad))
    elif ex.expect:
        page.add("p", lab["ex_expect_ok"].format(what=", ".join(f"`{k}`" for k in ex.expect)))


def _signed(v) -> str:
    return f"+{v}" if isinstance(v, int) and v > 0 else str(v).replace("-", "−")


def _example_actions(page, game, deal, seats, lang, ctx):
    lab = LABELS[lang]
    bidding, steps, passing = [], [], []
    tricks = []           # [(leader, [(seat, card, meld)], winner, before, after)]
    plays, pending = [], []
    n = deal.n_active
    for s, a in deal.history:
        act = game.to_action(a, seats)
        who = seats[s]
        if act.verb in ("bid", "pass", "look"):
            bidding.append(_action_words(act, who, ctx))
        elif act.verb in ("trumps", "contract", "abandon") or (act.verb == "give" and deal.declarer >= 0):
            steps.append(_action_words(act, who, ctx))
        elif act.verb == "give":
            passing.append(_action_words(act, who, ctx))
        elif act.verb == "play":
            card = ctx.card(act.card) + (f" ({ctx.meld(act.meld)})" if act.meld else "")
            plays.append(f"{who} {card}")
            size = len(deal.history_tricks[len(tricks)][1]) if len(tricks) < len(deal.history_tricks) else n
            if len(plays) == size:
                tricks.append((plays, pending))
                plays, pending = [], []
        else:
            pending.append(_action_words(act, who, ctx))
    if bidding:
        page.add("p", f"**{lab['ex_bidding']}:** " + ", ".join(bidding) + ".")
    if steps:
        page.add("p", f"**{lab['ex_steps']}:** " + ", ".join(steps) + ".")
    if passing:
        page.add("p", f"**{lab['ex_passing']}:** " + ", ".join(passing) + ".")
    if tricks:
        page.add("h3", lab["ex_tricks"])
        rows = []
        for i, (cards, before) in enumerate(tricks):
            winner = seats[deal.history_tricks[i][2]] if i < len(deal.history_tricks) else "—"
            text = ", ".join(cards)
            if before:
                text = lab["ex_before"].format(x="; ".join(before)) + " — " + text
            rows.append((i + 1, text, winner))
        if pending:
            rows.append(("", lab["ex_after"].format(x="; ".join(pending)), ""))
        page.add("table", lab["ex_tricks_head"], rows)
    elif pending:
        page.add("p", "; ".join(pending) + ".")


def _example_result(page, game, deal, summary, seats, lang, ctx):
    lab = LABELS[lang]
    results = lab["results"]
    r = results.get(summary.get("result", ""), summary.get("result", ""))
    if "declarer" in summary:
        c = summary["contract"]
        c = ctx.contract(c) if isinstance(c, str) and c in ctx.ladder else c
        if "bid" in summary and summary.get("contract") != summary["bid"]:
            c = lab["ex_contract_num"].format(c=c, b=summary["bid"])
        t = summary.get("trumps")
        t = "—" if t is None else lab["no_trumps"] if t == "none" else ctx.suit_name(_suit_letter(t))
        page.add("p", lab["ex_contract"].format(d=", ".join(summary["declarers"]), c=c,
                                                blind=lab["ex_blind"] if summary.get("blind") else "", t=t, r=r))
    else:
        text = lab["ex_no_decl"].format(r=r)
        if summary.get("trumps"):
            t = summary["trumps"]
            text += " " + lab["ex_trumps"].format(t=lab["no_trumps"] if t == "none" else ctx.suit_name(_suit_letter(t)))
        page.add("p", text)
    if summary.get("melds"):
        ms = []
        for m in summary["melds"]:
            ms.append(lab["ex_meld"].format(s=m["seat"], m=ctx.meld(m["meld"]), suit=ctx.suit_name(_suit_letter(m["suit"])),
                                            sym=ctx.suit(_suit_letter(m["suit"])),
                                            w=m["worth"], c="" if m["counts"] else lab["ex_meld_not"]))
        page.add("p", lab["ex_melds"].format(m="; ".join(ms)))
    # the columns that say something in this game: card points and deal points only where there are any
    cols = [0, 1] + ([2] if any(game.card_points) else []) + ([3] if game.deal_points or game.melds else []) + [4, 5]
    rows = []
    for s in range(len(seats)):
        name = seats[s]
        row = (name, summary.get("tricks", {}).get(name, "—"), summary.get("card_points", {}).get(name, "—"),
               summary.get("points", {}).get(name, "—"), _signed(summary.get("deltas", {}).get(name, 0)),
               summary.get("scores", {}).get(name, "—"))
        rows.append(tuple(row[i] for i in cols))
    page.add("h3", lab["ex_result"])
    page.add("table", tuple(lab["ex_result_head"][i] for i in cols), rows)


def _suit_letter(word: str) -> str:
    for letter, name in SUIT_NAMES["en"].items():
        if name == word:
            return letter
    return word


# ------------------------------------------------------------------ the flow of a deal, as a picture
def _flow_phases(game) -> list:
    return ["deal"] + list(game.phases) + ["scoring", "end"]


FLOW = {
    "en": {
        "deal": "the dealer deals; {x}", "auction_bids": "each player in turn, from {o}: a bid or a pass",
        "auction_exact": "each player once, from {o}: a bid", "contract": "the declarer: {x}",
        "exchange": "every player passes {n} at once", "play": "{l} leads; each player in turn plays a card",
        "scoring": "every player's score changes", "end": "{x}", "holder": "the holder of the {c}",
        "to_auction": "hands dealt", "to_declarer": "the highest bidder becomes the declarer",
        "all_pass": "all pass: annulled, next deal", "to_all_bid": "every player has bid",
        "steps_done": "the steps are done", "abandoned": "abandoned: straight to scoring",
        "passed": "cards passed", "tricks_done": "all tricks played", "ends_early": "or the deal ends at once",
        "concede": "or the declarer concedes", "scored": "scores written", "next": "no: the next deal, passed {d}", "over": "yes: the game is over",
        "left": "to the left", "right": "to the right", "no_end": "no end rule: one deal",
        "steps": {"show_talon": "shows the talon", "abandon": "may abandon", "take_talon": "takes the talon",
                  "trumps": "names trumps", "contract": "names the contract", "give": "gives {n} to each defender"},
    },
    "pt": {
        "deal": "o distribuidor dá as cartas; {x}", "auction_bids": "cada jogador na sua vez, desde {o}: licita ou passa",
        "auction_exact": "cada jogador uma vez, desde {o}: licita", "contract": "o declarante: {x}",
        "exchange": "cada jogador passa {n} ao mesmo tempo", "play": "sai {l}; cada jogador joga uma carta na sua vez",
        "scoring": "a pontuação de cada jogador muda", "end": "{x}", "holder": "quem tem a carta {c}",
        "to_auction": "cartas dadas", "to_declarer": "o maior licitante é o declarante",
        "all_pass": "todos passam: mão anulada, seguinte", "to_all_bid": "todos licitaram",
        "steps_done": "passos feitos", "abandoned": "abandono: direto à pontuação",
        "passed": "cartas passadas", "tricks_done": "todas as vazas jogadas", "ends_early": "ou a mão acaba de imediato",
        "concede": "ou o declarante concede", "scored": "pontuação escrita", "next": "não: mão seguinte, passando {d}", "over": "sim: o jogo acaba",
        "left": "à esquerda", "right": "à direita", "no_end": "sem regra de fim: uma só mão",
        "steps": {"show_talon": "mostra o talão", "abandon": "pode abandonar", "take_talon": "junta o talão",
                  "trumps": "declara o trunfo", "contract": "declara o contrato", "give": "dá {n} a cada defensor"},
    },
    "ru": {
        "deal": "сдающий сдаёт; {x}", "auction_bids": "игроки по очереди, начиная с {o}: заявка или пас",
        "auction_exact": "каждый игрок один раз, начиная с {o}: заявка", "contract": "разыгрывающий: {x}",
        "exchange": "все одновременно передают {n}", "play": "ходит {l}; затем каждый по очереди кладёт карту",
        "scoring": "счёт каждого игрока меняется", "end": "{x}", "holder": "игрок с картой {c}",
        "to_auction": "карты сданы", "to_declarer": "победитель торгов — разыгрывающий",
        "all_pass": "все пас: сдача аннулирована, следующая", "to_all_bid": "все сделали заявки",
        "steps_done": "шаги сделаны", "abandoned": "расписал: сразу к подсчёту",
        "passed": "карты переданы", "tricks_done": "все взятки сыграны", "ends_early": "или сдача кончилась досрочно",
        "concede": "или разыгрывающий сдался", "scored": "счёт записан", "next": "нет: следующая сдача, {d}", "over": "да: игра окончена",
        "left": "влево", "right": "вправо", "no_end": "правила конца нет: одна сдача",
        "steps": {"show_talon": "открывает прикуп", "abandon": "может расписать", "take_talon": "берёт прикуп",
                  "trumps": "назначает козыри", "contract": "называет заказ", "give": "отдаёт защитникам по {n}"},
    },
}
_OPENER = {"en": {"left-of-dealer": "the dealer's left", "dealer": "the dealer"},
           "pt": {"left-of-dealer": "o vizinho à esquerda do distribuidor", "dealer": "o distribuidor"},
           "ru": {"left-of-dealer": "соседа слева от сдающего", "dealer": "сдающего"}}


def _flow_boxes(game, lang) -> list:
    """(phase, title, who acts, what moves on) for each box of the picture."""
    ctx = Ctx(game, lang)
    fw, lab = FLOW[lang], LABELS[lang]
    boxes = []
    for ph in _flow_phases(game):
        title = lab["phase"][ph]
        if ph == "deal":
            held = _holds(game, lang, ctx).rstrip(".")
            who = fw["deal"].format(x=held[0].lower() + held[1:] if held else ctx.n(0, "card"))
            if not held:
                who = fw["deal"].split(";")[0]
            nxt = fw["to_auction"]
        elif ph == "auction":
            o = _OPENER[lang].get(game.opener, game.opener)
            who = fw["auction_exact" if game.auction_kind == "exact" else "auction_bids"].format(o=o)
            nxt = fw["to_all_bid"] if game.auction_kind == "exact" else fw["to_declarer"] + "; " + fw["all_pass"]
        elif ph == "contract":
            steps = []
            for kind, arg in game.contract_steps:
                s = fw["steps"].get(kind, kind)
                steps.append(s.format(n=ctx.n(arg, "card") if lang != "ru" else ctx.po(arg)) if kind == "give" else s)
            who = fw["contract"].format(x=", ".join(steps))
            nxt = fw["steps_done"] + ("; " + fw["abandoned"] if any(k == "abandon" for k, _ in game.contract_steps) else "")
        elif ph == "exchange":
            rule_ = next((it for it in game.rules.values() if it.body.kind == "pass_cards"), None)
            who = (_phrase(game, rule_, lang, ctx).rstrip(".") if rule_ is not None
                   else fw["exchange"].format(n=ctx.n(game.exchange[0], "card_acc")))
            nxt = fw["passed"]
        elif ph == "play":
            if game.lead_card >= 0:
                leader = fw["holder"].format(c=ctx.card(game.card_names[game.lead_card]))
            else:
                leader = ctx.seat(game.first_lead[0])
            who = fw["play"].format(l=leader)
            nxt = fw["tricks_done"] + (" " + fw["ends_early"] if game.deal_ends else "") + (
                " " + fw["concede"] if game.concede else "")
        elif ph == "scoring":
            who, nxt = fw["scoring"], fw["scored"]
        else:
            end_rule = next((it for it in game.rules.values() if it.body.kind == "game_end"), None)
            who = _phrase(game, end_rule, lang, ctx).rstrip(".") if end_rule else fw["no_end"]
            nxt = fw["next"].format(d=fw["left"] if game.direction > 0 else fw["right"])
        boxes.append((ph, title, who, nxt))
    return boxes


def _wrap(text: str, width: int) -> list:
    words, lines, cur = text.split(), [], ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    if cur:
        lines.append(cur)
    return lines or [""]


def flow_svg(game, lang: str = "en") -> str:
    """An SVG picture of the phases of a deal (from ``game.phases``): a box a phase with
    who acts in it, arrows with what moves the deal on, and the loop to the next deal."""
    boxes = _flow_boxes(game, lang)
    W, BW, X = 640, 470, 20
    y, parts = 20, []
    esc = lambda t: html.escape(t.replace("`", ""), quote=False)
    for i, (ph, title, who, nxt) in enumerate(boxes):
        lines = _wrap(who, 64)
        h = 30 + 16 * len(lines)
        fill = {"deal": "#e8f0fb", "play": "#eaf6ea", "scoring": "#fbf3e3", "end": "#f6e8ec"}.get(ph, "#f1f1f1")
        parts.append(f'<rect x="{X}" y="{y}" width="{BW}" height="{h}" rx="8" fill="{fill}" stroke="#567"/>')
        parts.append(f'<text x="{X + 12}" y="{y + 20}" font-weight="bold">{esc(title)}</text>')
        for k, line in enumerate(lines):
            parts.append(f'<text x="{X + 12}" y="{y + 38 + 16 * k}" font-size="12">{esc(line)}</text>')
        top, y = y, y + h
        if i < len(boxes) - 1:
            parts.append(f'<line x1="{X + 40}" y1="{y}" x2="{X + 40}" y2="{y + 40}" stroke="#333" marker-end="url(#arrow)"/>')
            for k, line in enumerate(_wrap(nxt, 66)[:2]):
                parts.append(f'<text x="{X + 52}" y="{y + 17 + 14 * k}" font-size="11" fill="#345">{esc(line)}</text>')
            y += 44
        else:
            # the loop back to the deal
            first_mid = 20 + 20
            rx = X + BW + 40
            mid = top + h // 2
            parts.append(f'<path d="M {X + BW} {mid} H {rx} V {first_mid} H {X + BW + 6}" fill="none" stroke="#333" '
                         f'marker-end="url(#arrow)"/>')
            for k, line in enumerate(_wrap(nxt, 16)[:4]):
                parts.append(f'<text x="{rx + 6}" y="{mid - 30 + 13 * k}" font-size="11" fill="#345">{esc(line)}</text>')
            if game.game_end is not None:
                parts.append(f'<line x1="{X + 40}" y1="{y}" x2="{X + 40}" y2="{y + 26}" stroke="#333" '
                             f'marker-end="url(#arrow)"/>')
                parts.append(f'<text x="{X + 52}" y="{y + 20}" font-size="11" fill="#345">'
                             f'{esc(FLOW[lang]["over"])}</text>')
                y += 30
    height = y + 20
    defs = ('<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
            'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#333"/></marker></defs>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{height}" viewBox="0 0 {W} {height}" '
            f'font-family="Helvetica, Arial, sans-serif" role="img" aria-label="{esc(LABELS[lang]["flow"])}">'
            f'{defs}' + "".join(parts) + "</svg>")


# ------------------------------------------------------------------ the command
def add_parser(subparsers):
    """`talon explain SPEC [BASE_OR_VARIANT] [--lang] [--format] [--changes] [--rule ID] [--out FILE]`."""
    p = subparsers.add_parser("explain", help="write the rules of a spec as a page to read at the table")
    p.add_argument("spec", metavar="SPEC", help="a spec name (as in specs/) or a path")
    p.add_argument("other", metavar="BASE_OR_VARIANT", nargs="?",
                   help="a second spec: the base a variant changes, or a variant of SPEC")
    p.add_argument("--lang", default="en", choices=LANGS, help="en (default), pt or ru")
    p.add_argument("--format", dest="fmt", default="md", choices=FORMATS, help="md (default) or html")
    p.add_argument("--changes", action="store_true", help="only what a variant changes: a house-rules sheet")
    p.add_argument("--rule", metavar="ID", help="only the rules that cite this clause (R501-17 …)")
    p.add_argument("--out", metavar="FILE", help="write the page to FILE instead of printing it")
    p.set_defaults(func=run)
    return p


def _one_line(e: Exception) -> str:
    if isinstance(e, SpecError) and e.diagnostics:
        errs = [d for d in e.diagnostics if d.severity == "error"] or e.diagnostics
        more = f" (and {len(errs) - 1} more)" if len(errs) > 1 else ""
        return f"{errs[0].location}: {errs[0].message}{more}"
    return str(e).splitlines()[0] if str(e) else type(e).__name__


def _extends(variant, base) -> bool:
    """`variant` extends `base`, directly or through other variants."""
    g, seen = variant, 0
    while g is not None and seen < 16:
        g = base_of(g)
        if g is not None and _same_file(g.path, base.path):
            return True
        seen += 1
    return False


EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


def _unreadable(ref: str) -> str:
    """Why a spec named on the command line cannot be read at all (a usage mistake), or ""."""
    from .spec import bundled_names, resolve
    path = resolve(ref)
    if not path.exists():
        hint = did_you_mean(path.stem, bundled_names()) or ("bundled specs: " + ", ".join(bundled_names()))
        return f"no spec named `{ref}` ({hint})"
    if path.is_dir():
        return f"`{path}` is a folder, not a spec file"
    return ""


def run(args) -> int:
    """The `explain` command: the page on standard output or in --out; every error one
    line on standard error (exit 1: the spec or the clause is wrong; 2: a usage mistake
    or a file that cannot be written)."""
    from .records import AtomicWriter, OutputError, printable, spec_files
    from .spec import load
    for ref in (args.spec, args.other):
        problem = ref and _unreadable(ref)
        if problem:
            print(f"talon explain: {printable(problem)}", file=sys.stderr)
            return EXIT_USAGE
    try:
        game = load(args.spec)
        base = None
        if args.other:
            other = load(args.other)
            if _extends(other, game):
                game, base = other, game             # the second is a variant of SPEC
            else:
                base = other                         # SPEC is a variant of the second (or compared with it)
        if args.rule:
            text = rule(game, args.rule, args.lang)
        elif args.changes:
            base = base or base_of(game)
            if base is None:
                raise TalonError(f"{game.name} is not a variant: name the base or the variant to compare it with")
            text = explain_changes(base, game, args.lang, args.fmt)
        else:
            text = explain(game, args.lang, args.fmt, base=base)
        if args.out:
            protect = spec_files(game) | (spec_files(base) if base is not None else set())
            with AtomicWriter(args.out, protect) as out:
                out.write(text)
        else:
            sys.stdout.write(printable(text))
        return EXIT_OK
    except OutputError as e:
        print(f"talon explain: {printable(_one_line(e))}", file=sys.stderr)
        return EXIT_USAGE
    except TalonError as e:
        print(f"talon explain: {printable(_one_line(e))}", file=sys.stderr)
        return EXIT_INVALID


def main(argv=None) -> int:
    """Run `explain` on its own (until it is wired into the `talon` command)."""
    import argparse
    parser = argparse.ArgumentParser(prog="talon")
    sub = parser.add_subparsers(dest="command")
    add_parser(sub)
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] != "explain":
        argv = ["explain"] + argv
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return int(e.code or 0)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
