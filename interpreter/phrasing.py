"""Rules said in words, in English (en), Portuguese (pt) and Russian (ru).

Every rule kind has a ``phrase(it, lang, ctx)`` facet (interpreter/rules/) that builds
the sentence a player reads at the table from the rule's parsed parts. ``Ctx`` gives it
what it needs: the game's tables and values, the vocabulary of the rule language in
each language, and a reader of formulas (the expression tree, ``language.tree.E``) in
words. Nothing here is kept per game: contracts, melds, table values and named
formulas are named by the spec; only the words of the language itself (declarer,
dealer, trumps, points, tricks, made, blind …) are translated.

The Portuguese and Russian words are the card table's own: talão, trunfo, vaza,
naipe, licitação, cego, casamento (a meld of K and Q); прикуп, козыри, взятка, масть,
заказ, торги, втёмную, марьяж.
"""
from __future__ import annotations

from .language.tree import E

LANGS = ("en", "pt", "ru")
SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_LETTER = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C",
               "spade": "S", "heart": "H", "diamond": "D", "club": "C"}
SUIT_NAMES = {
    "en": {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"},
    "pt": {"S": "espadas", "H": "copas", "D": "ouros", "C": "paus"},
    "ru": {"S": "пики", "H": "черви", "D": "бубны", "C": "трефы"},
}
SUIT_GEN_PL = {"S": "пик", "H": "червей", "D": "бубен", "C": "треф"}        # ru: число червей
SUIT_ADJ_ACC = {"S": "пиковую", "H": "червовую", "D": "бубновую", "C": "трефовую"}   # ru: червовую карту
RANKS = {
    "en": {},
    "pt": {},
    "ru": {"A": "Т", "K": "К", "Q": "Д", "J": "В", "T": "10"},
}

# ------------------------------------------------------------------ the vocabulary
# Seats and sides: (as a subject, "of …").
SEATS = {
    "en": {
        "declarer": ("the declarer", "of the declarer"),
        "dealer": ("the dealer", "of the dealer"),
        "opener": ("the player who speaks first", "of the player who speaks first"),
        "speaker": ("the player bidding", "of the player bidding"),
        "highest bidder": ("the highest bidder", "of the highest bidder"),
        "seat": ("the player", "of the player"),
        "its announcer": ("the player who announced it", "of the player who announced it"),
        "leader": ("the leader", "of the leader"),
        "last trick winner": ("the winner of the last trick", "of the winner of the last trick"),
        "closer": ("the player who closed the stock", "of the player who closed the stock"),
        "declarers": ("the declaring side", "of the declaring side"),
        "defenders": ("the defenders", "of the defenders"),
        "its side": ("their side", "of their side"),
        "talon": ("the talon", "of the talon"),
        "seats": ("the players", "of players"),
    },
    "pt": {
        "declarer": ("o declarante", "do declarante"),
        "dealer": ("o distribuidor", "do distribuidor"),
        "opener": ("quem abre a licitação", "de quem abre a licitação"),
        "speaker": ("quem licita", "de quem licita"),
        "highest bidder": ("o maior licitante", "do maior licitante"),
        "seat": ("o jogador", "do jogador"),
        "its announcer": ("quem o anunciou", "de quem o anunciou"),
        "leader": ("quem sai", "de quem sai"),
        "last trick winner": ("quem ganhou a última vaza", "de quem ganhou a última vaza"),
        "closer": ("quem fechou o monte", "de quem fechou o monte"),
        "declarers": ("os declarantes", "dos declarantes"),
        "defenders": ("os defensores", "dos defensores"),
        "its side": ("o seu lado", "do seu lado"),
        "talon": ("o talão", "do talão"),
        "seats": ("os jogadores", "de jogadores"),
    },
    "ru": {
        "declarer": ("разыгрывающий", "разыгрывающего"),
        "dealer": ("сдающий", "сдающего"),
        "opener": ("начинающий торги", "начинающего торги"),
        "speaker": ("торгующийся", "торгующегося"),
        "highest bidder": ("игрок со старшей заявкой", "игрока со старшей заявкой"),
        "seat": ("игрок", "игрока"),
        "its announcer": ("объявивший", "объявившего"),
        "leader": ("ходящий", "ходящего"),
        "last trick winner": ("взявший последнюю взятку", "взявшего последнюю взятку"),
        "closer": ("закрывший колоду", "закрывшего колоду"),
        "declarers": ("разыгрывающие", "разыгрывающих"),
        "defenders": ("защитники", "защитников"),
        "its side": ("его сторона", "его стороны"),
        "talon": ("прикуп", "прикупа"),
        "seats": ("игроки", "игроков"),
    },
}
# Per-seat quantities: (with its article, of the seat in question, plain, plural).
QUANTITIES = {
    "en": {
        "points": ("the points", "their points", "points", True),
        "card points": ("the card points", "their card points", "card points", True),
        "meld points": ("the meld points", "their meld points", "meld points", True),
        "tricks": ("the tricks", "their tricks", "tricks", True),
        "tricks at the close": ("the tricks at the close", "their tricks at the close", "tricks at the close", True),
        "score": ("the score", "their score", "score", False),
        "passes": ("the passes", "their passes", "passes", True),
        "bid": ("the bid", "their bid", "bid", False),
    },
    "pt": {
        "points": ("os pontos", "os seus pontos", "pontos", True),
        "card points": ("os pontos de cartas", "os seus pontos de cartas", "pontos de cartas", True),
        "meld points": ("os pontos de anúncios", "os seus pontos de anúncios", "pontos de anúncios", True),
        "tricks": ("as vazas", "as suas vazas", "vazas", True),
        "tricks at the close": ("as vazas no fecho", "as suas vazas no fecho", "vazas no fecho", True),
        "score": ("a pontuação", "a sua pontuação", "pontuação", False),
        "passes": ("os passes", "os seus passes", "passes", True),
        "bid": ("a licitação", "a sua licitação", "licitação", False),
    },
    "ru": {
        "points": ("очки", "очки", "очки", True),
        "card points": ("очки за карты", "очки за карты", "очки за карты", True),
        "meld points": ("очки за комбинации", "очки за комбинации", "очки за комбинации", True),
        "tricks": ("число взяток", "число взяток", "число взяток", False),
        "tricks at the close": ("число взяток при закрытии колоды",) * 3 + (False,),
        "score": ("счёт", "счёт", "счёт", False),
        "passes": ("число пасов", "число пасов", "число пасов", False),
        "bid": ("заявка", "заявка", "заявка", False),
    },
}
# Numbers of the deal, the game and the auction.
NUMBERS = {
    "en": {
        "bid": "the bid", "contract": "the contract", "highest bid": "the highest bid",
        "this bid": "this bid", "total bid": "the total of the bids so far",
        "bids": "the number of bids made so far", "bids in the first round": "the number of bids in the first round",
        "deal number": "the number of this deal", "deals played": "the number of deals played",
        "number of seats": "the number of players", "hand size": "the number of cards in a hand",
        "tricks played": "the number of tricks played", "tricks left": "the number of tricks left",
        "stock": "the number of cards in the stock",
    },
    "pt": {
        "bid": "a licitação vencedora", "contract": "o contrato", "highest bid": "a licitação mais alta",
        "this bid": "esta licitação", "total bid": "a soma das licitações feitas",
        "bids": "o número de licitações feitas", "bids in the first round": "o número de licitações na primeira volta",
        "deal number": "o número desta mão", "deals played": "o número de mãos jogadas",
        "number of seats": "o número de jogadores", "hand size": "o número de cartas de cada mão",
        "tricks played": "o número de vazas jogadas", "tricks left": "o número de vazas por jogar",
        "stock": "o número de cartas no monte",
    },
    "ru": {
        "bid": "заявка", "contract": "заказ", "highest bid": "старшая заявка",
        "this bid": "эта заявка", "total bid": "сумма заявок",
        "bids": "число сделанных заявок", "bids in the first round": "число заявок в первом круге",
        "deal number": "номер сдачи", "deals played": "число сыгранных сдач",
        "number of seats": "число игроков", "hand size": "число карт на руке",
        "tricks played": "число сыгранных взяток", "tricks left": "число оставшихся взяток",
        "stock": "число карт в колоде",
    },
}
# Yes/no: (when it holds, when it does not).
BOOLS = {
    "en": {
        "made": ("the contract is made", "the contract is not made"),
        "played": ("the deal is played", "the deal is not played"),
        "abandoned": ("the declarer has abandoned the deal", "the deal was not abandoned"),
        "blind": ("the declarer won the auction blind", "the declarer did not win the auction blind"),
        "annulled": ("the deal is annulled", "the deal is not annulled"),
        "ended early": ("the deal ended at once", "the deal did not end at once"),
        "first trick": ("it is the first trick", "it is not the first trick"),
        "closed": ("the stock is closed", "the stock is not closed"),
        "dealer sits out": ("the dealer sits out", "the dealer does not sit out"),
        "yes": ("yes", "no"), "no": ("no", "yes"),
    },
    "pt": {
        "made": ("o contrato é cumprido", "o contrato falha"),
        "played": ("a mão é jogada", "a mão não é jogada"),
        "abandoned": ("o declarante abandonou a mão", "a mão não foi abandonada"),
        "blind": ("o declarante ganhou a licitação cego", "o declarante não ganhou cego"),
        "annulled": ("a mão é anulada", "a mão não é anulada"),
        "ended early": ("a mão terminou de imediato", "a mão não terminou de imediato"),
        "first trick": ("é a primeira vaza", "não é a primeira vaza"),
        "closed": ("o monte está fechado", "o monte não está fechado"),
        "dealer sits out": ("o distribuidor fica de fora", "o distribuidor não fica de fora"),
        "yes": ("sim", "não"), "no": ("não", "sim"),
    },
    "ru": {
        "made": ("заказ выполнен", "заказ не выполнен"),
        "played": ("сдача сыграна", "сдача не сыграна"),
        "abandoned": ("разыгрывающий расписал сдачу", "сдача не расписана"),
        "blind": ("разыгрывающий купил втёмную", "разыгрывающий купил не втёмную"),
        "annulled": ("сдача аннулирована", "сдача не аннулирована"),
        "ended early": ("сдача закончилась досрочно", "сдача не закончилась досрочно"),
        "first trick": ("идёт первая взятка", "первая взятка уже сыграна"),
        "closed": ("колода закрыта", "колода не закрыта"),
        "dealer sits out": ("сдающий отдыхает", "сдающий не отдыхает"),
        "yes": ("да", "нет"), "no": ("нет", "да"),
    },
}
# Suits as values: (as a subject, "for …" in a value given per suit).
SUITS = {
    "en": {"trumps": ("trumps", "trumps"), "its suit": ("its suit", "its suit")},
    "pt": {"trumps": ("o trunfo", "o trunfo"), "its suit": ("o seu naipe", "o seu naipe")},
    "ru": {"trumps": ("козыри", "козырной масти"), "its suit": ("его масть", "его масти")},
}
# `X is none`, `X is not none`, for the names where a plain sentence reads better.
NONE = {
    "en": {"declarer": ("there is no declarer", "there is a declarer"),
           "highest bid": ("no bid has been made yet", "a bid has been made"),
           "highest bidder": ("no bid has been made yet", "a bid has been made"),
           "trumps": ("there are no trumps", "there are trumps"),
           "closer": ("nobody closed the stock", "the stock was closed"),
           "last trick winner": ("the last trick has not been played", "the last trick has been played"),
           "": ("there is no {x}", "there is {x}")},
    "pt": {"declarer": ("não há declarante", "há declarante"),
           "highest bid": ("ainda não houve licitação", "já houve licitação"),
           "highest bidder": ("ainda não houve licitação", "já houve licitação"),
           "trumps": ("não há trunfo", "há trunfo"),
           "closer": ("ninguém fechou o monte", "o monte foi fechado"),
           "last trick winner": ("a última vaza não foi jogada", "a última vaza foi jogada"),
           "": ("não há {x}", "há {x}")},
    "ru": {"declarer": ("разыгрывающего нет", "разыгрывающий есть"),
           "highest bid": ("заявок ещё не было", "заявка уже была"),
           "highest bidder": ("заявок ещё не было", "заявка уже была"),
           "trumps": ("козырей нет", "козыри есть"),
           "closer": ("колоду никто не закрыл", "колоду закрыли"),
           "last trick winner": ("последняя взятка не сыграна", "последняя взятка сыграна"),
           "": ("{x} отсутствует", "{x} есть")},
}
# Columns of a ladder every ladder has.
COLUMNS = {
    "en": {"unit": "the unit of the contract", "least": "the fewest tricks the contract asks for",
           "most": "the most tricks the contract allows"},
    "pt": {"unit": "a unidade do contrato", "least": "o mínimo de vazas do contrato",
           "most": "o máximo de vazas do contrato"},
    "ru": {"unit": "ставка заказа", "least": "минимум взяток по заказу", "most": "максимум взяток по заказу"},
}
# Small words of the formulas.
W = {
    "en": {"plus": "plus", "minus": "minus", "times": "times", "div": "divided by {b}, rounded down",
           "neg": "minus {x}", "and": "and", "or": "or", "not": "it is not so that {x}", "not_name": "not {x}",
           "if": "{a} if {c}, else {b}", "any": "for some player, {x}", "every": "for every player, {x}",
           "none_any": "for no player, {x}",
           "min": "the least of {xs}", "max": "the greatest of {xs}", "abs": "{x} without its sign",
           "round": "{x} rounded to the nearest multiple of {n}", "list_and": " and ",
           "number_of": "the number {x}", "value_suit": "the value of `{name}` for {suit} ({table})",
           "col_num": "the contract's `{x}`", "col_yes": "the contract is marked `{x}`",
           "col_no": "the contract is not marked `{x}`", "holds": "{y} holds a {m}",
           "count": "the number of {x} {where}", "taken": "taken by {y}", "dealt": "dealt to {y}",
           "held": "held by {y}", "played": "played in this deal",
           "honours": "trump honours ({ranks} of trumps)", "cards": "cards", "cards_points": "cards worth points",
           "trumps": "trumps", "yes": "yes", "no": "no"},
    "pt": {"plus": "mais", "minus": "menos", "times": "vezes", "div": "a dividir por {b}, arredondado para baixo",
           "neg": "menos {x}", "and": "e", "or": "ou", "not": "não é verdade que {x}", "not_name": "não {x}",
           "if": "{a} se {c}, senão {b}", "any": "para algum jogador, {x}", "every": "para todos os jogadores, {x}",
           "none_any": "para nenhum jogador, {x}",
           "min": "o menor valor entre {xs}", "max": "o maior valor entre {xs}", "abs": "{x} sem sinal",
           "round": "{x}, com arredondamento ao múltiplo de {n} mais próximo", "list_and": " e ",
           "number_of": "o número {x}", "value_suit": "o valor de `{name}` para {suit} ({table})",
           "col_num": "o `{x}` do contrato", "col_yes": "o contrato tem `{x}`",
           "col_no": "o contrato não tem `{x}`", "holds": "{y} tem um {m}",
           "count": "o número de {x} {where}", "taken": "nas vazas {y}", "dealt": "na mão inicial {y}",
           "held": "na mão {y}", "played": "jogadas nesta mão",
           "honours": "honras de trunfo ({ranks} de trunfo)", "cards": "cartas", "cards_points": "cartas com pontos",
           "trumps": "trunfos", "yes": "sim", "no": "não"},
    "ru": {"plus": "плюс", "minus": "минус", "times": "умножить на", "div": "делить на {b} с округлением вниз",
           "neg": "минус {x}", "and": "и", "or": "или", "not": "неверно, что {x}", "not_name": "не {x}",
           "if": "{a}, если {c}, иначе {b}", "any": "хотя бы у одного игрока {x}", "every": "у каждого игрока {x}",
           "none_any": "ни для одного игрока не верно, что {x}",
           "min": "наименьшее из значений: {xs}", "max": "наибольшее из значений: {xs}", "abs": "{x} без знака",
           "round": "{x} с округлением до ближайшего кратного {n}", "list_and": " и ",
           "number_of": "число {x}", "value_suit": "значение `{name}` для {suit} ({table})",
           "col_num": "`{x}` заказа", "col_yes": "у заказа есть отметка `{x}`",
           "col_no": "у заказа нет отметки `{x}`", "holds": "у {y} есть {m}",
           "count": "число {x} {where}", "taken": "во взятках {y}", "dealt": "в исходной руке {y}",
           "held": "на руке {y}", "played": "",
           "honours": "старших козырей ({ranks})", "cards": "карт", "cards_points": "карт с очками",
           "trumps": "козырей", "yes": "да", "no": "нет"},
}
# Comparisons: numbers (singular, plural) and other things (seats, suits, contracts).
CMP = {
    "en": {"=": ("is", "are"), "!=": ("is not", "are not"), ">=": ("is at least", "are at least"),
           "<=": ("is at most", "are at most"), ">": ("is more than", "are more than"),
           "<": ("is less than", "are less than")},
    "pt": {"=": ("é", "são"), "!=": ("não é", "não são"), ">=": ("é pelo menos", "são pelo menos"),
           "<=": ("é no máximo", "são no máximo"), ">": ("é mais de", "são mais de"),
           "<": ("é menos de", "são menos de")},
    "ru": {"=": ("— ровно", "— ровно"), "!=": ("— не", "— не"), ">=": ("не меньше, чем", "не меньше, чем"),
           "<=": ("не больше, чем", "не больше, чем"), ">": ("больше, чем", "больше, чем"),
           "<": ("меньше, чем", "меньше, чем")},
}
CMP_THING = {"en": {"=": "is", "!=": "is not"}, "pt": {"=": "é", "!=": "não é"}, "ru": {"=": "—", "!=": "— не"}}
# A meld of K and Q of one suit has a name of its own at the table.
PAIR_MELD = {"pt": "casamento", "ru": "марьяж"}
# Nouns with a number: en (one, many), pt (one, many), ru (one, few, many).
NOUNS = {
    "player": {"en": ("player", "players"), "pt": ("jogador", "jogadores"), "ru": ("игрок", "игрока", "игроков")},
    "card": {"en": ("card", "cards"), "pt": ("carta", "cartas"), "ru": ("карта", "карты", "карт")},
    "card_acc": {"en": ("card", "cards"), "pt": ("carta", "cartas"), "ru": ("карту", "карты", "карт")},
    "round": {"en": ("round", "rounds"), "pt": ("volta", "voltas"), "ru": ("круг", "круга", "кругов")},
    "trick": {"en": ("trick", "tricks"), "pt": ("vaza", "vazas"), "ru": ("взятка", "взятки", "взяток")},
    "rank": {"en": ("rank", "ranks"), "pt": ("carta", "cartas"), "ru": ("карта", "карты", "карт")},
    "suit": {"en": ("suit", "suits"), "pt": ("naipe", "naipes"), "ru": ("масть", "масти", "мастей")},
    "deal": {"en": ("deal", "deals"), "pt": ("mão", "mãos"), "ru": ("сдача", "сдачи", "сдач")},
    "point": {"en": ("point", "points"), "pt": ("ponto", "pontos"), "ru": ("очко", "очка", "очков")},
}
# `по N карте` (dative with 1, genitive singular with 2-4, genitive plural from 5)
RU_PO = {"card": ("карте", "карты", "карт")}


def ru_form(n: int, forms: tuple) -> str:
    n = abs(n)
    if n % 10 == 1 and n % 100 != 11:
        return forms[0]
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return forms[1]
    return forms[2]


def _strip_the(name: str) -> str:
    return name[4:].strip() if name.startswith("the ") else name.strip()


class Ctx:
    """What a rule's phrasing may use: the game (its tables, values, ladder, melds, named
    formulas and counters) and the words of one language."""

    def __init__(self, game, lang: str = "en"):
        if lang not in LANGS:
            raise ValueError(f"no words for the language `{lang}` (known: {', '.join(LANGS)})")
        self.game, self.lang = game, lang
        self.values = dict(game.values)
        self.ladder = {c.name: c for c in game.ladder}
        self.columns = dict(game.ladder_columns)
        self.lets, self.melds = set(), {}
        for it in game.rules.values():
            if it.body.kind == "let":
                self.lets.add(it.body.args["name"])
            elif it.body.kind == "meld":
                self.melds[it.name] = tuple(it.body.args["ranks"])
        self.counters = {name for name, _ in game.counters}
        self._others = {}

    def at(self, lang: str) -> "Ctx":
        """The same game in another language."""
        if lang == self.lang:
            return self
        if lang not in self._others:
            self._others[lang] = Ctx(self.game, lang)
        return self._others[lang]

    # -------------------------------------------------------------- sentences
    def say(self, lang: str, en: str, pt: str, ru: str, **kw) -> str:
        """The sentence in `lang`, its blanks filled, with a capital and a full stop."""
        text = {"en": en, "pt": pt, "ru": ru}[lang].format(**kw)
        return sentence(text)

    def pick(self, en, pt, ru):
        return {"en": en, "pt": pt, "ru": ru}[self.lang]

    def n(self, count: int, noun: str) -> str:
        """`3 cards`, `1 carta`, `5 карт`."""
        forms = NOUNS[noun][self.lang]
        if self.lang == "ru":
            return f"{count} {ru_form(count, forms)}"
        return f"{count} {forms[0] if count == 1 else forms[1]}"

    def noun(self, count: int, noun: str) -> str:
        """The noun's form that goes with `count` (`players`, `игрока`)."""
        return self.n(count, noun).split(" ", 1)[1]

    def po(self, count: int, noun: str = "card") -> str:
        """ru `по 1 карте`, `по 3 карты`; en `1 card`; pt `1 carta`."""
        if self.lang == "ru":
            return f"по {count} {ru_form(count, RU_PO[noun])}"
        return self.n(count, noun)

    def join_or(self, items) -> str:
        items = list(items)
        word = {"en": " or ", "pt": " ou ", "ru": " или "}[self.lang]
        return word.join(items)

    def join_and(self, items) -> str:
        items = list(items)
        if len(items) <= 1:
            return "".join(items)
        word = W[self.lang]["list_and"]
        return ", ".join(items[:-1]) + word + items[-1]

    # -------------------------------------------------------------- cards
    def rank(self, r: str) -> str:
        r = "10" if r == "T" else str(r)
        return RANKS[self.lang].get(r, r)

    def ranks(self, rs, sep=" ") -> str:
        return sep.join(self.rank(r) for r in rs)

    def suit(self, letter: str) -> str:
        return SUIT_SYMBOL.get(letter, letter)

    def suit_name(self, letter: str) -> str:
        return f"{SUIT_SYMBOL.get(letter, letter)} {SUIT_NAMES[self.lang].get(letter, letter)}"

    def card(self, name: str) -> str:
        """`QS` -> `Q♠` (ru `Д♠`)."""
        name = str(name).upper()
        return self.rank(name[:-1]) + SUIT_SYMBOL.get(name[-1], name[-1])

    def cards(self, names) -> str:
        return " ".join(self.card(c) for c in names)

    def card_term(self, kind: str, arg) -> str:
        """One part of a follow or lead rule's cards (as an object)."""
        L = self.lang
        if kind == "suit":
            letter = SUIT_LETTER.get(str(arg), str(arg)[:1].upper())
            return {"en": f"a {SUIT_NAMES['en'][letter][:-1]}",
                    "pt": f"uma carta de {SUIT_NAMES['pt'][letter]}",
                    "ru": f"{SUIT_ADJ_ACC[letter]} карту"}[L]
        if kind == "card":
            return {"en": f"the {self.card(arg)}", "pt": f"a carta {self.card(arg)}", "ru": f"карту {self.card(arg)}"}[L]
        return {
            "suit-led": ("a card of the suit led", "uma carta do naipe pedido", "карту масти хода"),
            "trump": ("a trump", "um trunfo", "козырь"),
            "beats-trick": ("a card that beats the trick", "uma carta que ganhe a vaza", "карту, которая бьёт взятку"),
            "trump-beats": ("a trump that beats the trick", "um trunfo que ganhe a vaza", "козырь, который бьёт взятку"),
            "points": ("a card worth points", "uma carta com pontos", "карту с очками"),
            "no-points": ("a card worth no points", "uma carta sem pontos", "карту без очков"),
        }[kind][LANGS.index(L)]

    def card_terms(self, terms) -> str:
        return self.join_or(self.card_term(k, a) for k, a, *_ in terms)

    # -------------------------------------------------------------- named things
    def seat(self, ref: str) -> str:
        """A seat of a rule (`left-of-dealer`, `dealer`, `declarer`)."""
        if ref == "left-of-dealer":
            return self.pick("the player on the dealer's left", "o vizinho à esquerda do distribuidor",
                             "сосед сдающего слева")
        return SEATS[self.lang][ref][0]

    def payee(self, p: str) -> str:
        return {
            "declarer": ("the declarer", "o declarante", "разыгрывающий"),
            "declarers": ("each player of the declaring side", "cada declarante", "каждый из разыгрывающих"),
            "defenders": ("each defender", "cada defensor", "каждый защитник"),
            "seats": ("each player", "cada jogador", "каждый игрок"),
            "sides": ("each side (both partners alike)", "cada dupla (os dois parceiros)", "каждая пара (оба партнёра)"),
            "dealer": ("the dealer", "o distribuidor", "сдающий"),
        }[p][LANGS.index(self.lang)]

    def payee_of(self, p: str) -> str:
        """ru `у каждого игрока`, pt `para cada jogador`, en `each player`."""
        return {
            "declarer": ("the declarer", "para o declarante", "у разыгрывающего"),
            "declarers": ("each player of the declaring side", "para cada declarante", "у каждого из разыгрывающих"),
            "defenders": ("each defender", "para cada defensor", "у каждого защитника"),
            "seats": ("each player", "para cada jogador", "у каждого игрока"),
            "sides": ("each side (both partners alike)", "para cada dupla", "у каждой пары"),
            "dealer": ("the dealer", "para o distribuidor", "у сдающего"),
        }[p][LANGS.index(self.lang)]

    def payee_gen(self, p: str) -> str:
        """ru `каждого защитника` (the payee as `of …`), pt `de cada defensor`, en `of each defender`."""
        return {
            "declarer": ("of the declarer", "do declarante", "разыгрывающего"),
            "declarers": ("of each player of the declaring side", "de cada declarante", "каждого из разыгрывающих"),
            "defenders": ("of each defender", "de cada defensor", "каждого защитника"),
            "seats": ("of each player", "de cada jogador", "каждого игрока"),
            "sides": ("of each side", "de cada dupla", "каждой пары (обоих партнёров)"),
            "dealer": ("of the dealer", "do distribuidor", "сдающего"),
        }[p][LANGS.index(self.lang)]

    def value(self, name: str) -> str:
        """A named value: its number, its name in brackets (`66 (`minimum-bid`)`)."""
        v = self.values.get(name)
        if isinstance(v, dict):
            return f"{self.per_suit(v)} (`{name}`)"
        return f"{v} (`{name}`)"

    def per_suit(self, v: dict) -> str:
        return ", ".join(f"{self.suit(k)} {x}" for k, x in v.items())

    def contract(self, name: str) -> str:
        c = self.ladder.get(name)
        title = c.title if c is not None else name
        return self.pick(f"“{title}”", f"«{title}»", f"«{title}»")

    def meld(self, name: str) -> str:
        """A meld by its name; in Portuguese and Russian a meld of K and Q has its own word."""
        ranks = self.melds.get(name, ())
        if self.lang in PAIR_MELD and sorted(ranks) == ["K", "Q"]:
            return PAIR_MELD[self.lang]
        return f"`{name}`"

    def let(self, name: str) -> str:
        return f"`{name}`"

    # -------------------------------------------------------------- formulas
    def f(self, e, bare: str = "bare") -> str:
        """A formula in words. `bare` says how a per-seat quantity without `of SEAT`
        reads: `bare` (their points) or `plain` (points)."""
        if e is None:
            return ""
        if isinstance(e, int):
            return str(e)
        text = _Reader(self, bare).read(e, 0)
        return pt_contract(text) if self.lang == "pt" else text


PREC = {"if": 0, "or": 1, "and": 2, "not": 3, "cmp": 4, "any_seat": 2.5, "every_seat": 2.5,
        "+": 5, "-": 5, "*": 6, "/": 6, "neg": 7}


class _Reader:
    """Reads one formula out in words, bracketing where the words would be ambiguous."""

    def __init__(self, ctx: Ctx, bare: str):
        self.c, self.L, self.bare = ctx, ctx.lang, bare
        self.w = W[ctx.lang]

    def prec(self, e) -> int:
        if not isinstance(e, E):
            return 9
        if e.op == "arith":
            return PREC[e.args[0]]
        if e.op == "not" and isinstance(e.args[0], E) and e.args[0].op in ("any_seat", "every_seat"):
            return PREC["any_seat"]          # `for no player, …` reaches as far as `for some player, …`
        return PREC.get(e.op, 9)

    def read(self, e, need: int) -> str:
        text = self._read(e)
        if self.prec(e) < need:
            return f"({text})"
        return text

    def _read(self, e) -> str:
        op, a, w = e.op, e.args, self.w
        if op == "num":
            return str(a[0])
        if op == "name":
            return self.name(a[0])
        if op == "lookup":
            return self.lookup(a[0], a[1])
        if op == "neg":
            return w["neg"].format(x=self.read(a[0], 7))
        if op == "arith":
            o, x, y = a
            p = PREC[o]
            left, right = self.read(x, p), self.read(y, p + 1)
            if o == "/":
                return f"{left} " + w["div"].format(b=right)
            word = {"+": w["plus"], "-": w["minus"], "*": w["times"]}[o]
            return f"{left} {word} {right}"
        if op == "not":
            x = a[0]
            if x.op == "name":
                nm = _strip_the(x.args[0])
                if nm in BOOLS[self.L]:
                    return BOOLS[self.L][nm][1]
                if nm in self.c.columns:
                    return w["col_no"].format(x=nm)
                return w["not_name"].format(x=self.name(x.args[0]))
            if x.op == "any_seat":
                return w["none_any"].format(x=self.read(x.args[0], 3))
            return w["not"].format(x=self.read(x, 9) if x.op in ("and", "or", "if") else self.read(x, 4))
        if op in ("and", "or"):
            parts = [self.read(x, 3) for x in a]
            return f" {w[op]} ".join(parts)
        if op == "cmp":
            return self.compare(*a)
        if op == "if":
            c, x, y = a
            return w["if"].format(a=self.read(x, 1), c=self.read(c, 1), b=self.read(y, 0))
        if op in ("any_seat", "every_seat"):
            inner = _Reader(self.c, "bare").read(a[0], 3)
            return w["any" if op == "any_seat" else "every"].format(x=inner)
        if op == "call":
            name, *xs = a
            if name == "round":
                return w["round"].format(x=self.read(xs[0], 9), n=self.read(xs[1], 9))
            if name == "abs":
                return w["abs"].format(x=self.read(xs[0], 9))
            words = [self.read(x, 5) for x in xs]
            return w["min" if name == "min" else "max"].format(xs=self.c.join_and(words))
        return e.text()

    # ---------------------------------------------------------- comparisons
    def _thing(self, e) -> bool:
        """A seat, a side, a suit, a contract or none (compared with `is`)."""
        if not isinstance(e, E) or e.op != "name":
            return False
        nm = _strip_the(e.args[0])
        return (nm in SEATS["en"] or nm in SUITS["en"] or nm == "none" or nm in self.c.ladder
                or nm in SUIT_LETTER or (nm == "highest bid" and self.c.game.auction_kind == "ladder")
                or (nm == "this bid" and self.c.game.auction_kind == "ladder"))

    def _plural(self, e) -> bool:
        if isinstance(e, E) and e.op == "name":
            q = QUANTITIES[self.L].get(_strip_the(e.args[0]))
            return bool(q and q[3])
        if isinstance(e, E) and e.op == "lookup" and e.args[0].op == "name":
            q = QUANTITIES[self.L].get(_strip_the(e.args[0].args[0]))
            return bool(q and q[3])
        return False

    def compare(self, o, x, y) -> str:
        for p, q in ((x, y), (y, x)):
            if isinstance(q, E) and q.op == "name" and _strip_the(q.args[0]) == "none" and o in ("=", "!="):
                key = _strip_the(p.args[0]) if p.op == "name" else ""
                forms = NONE[self.L].get(key) or NONE[self.L][""]
                what = self.read(p, 5)
                if self.L in ("en", "pt") and what.split(" ", 1)[0] in ("the", "o", "a", "os", "as"):
                    what = what.split(" ", 1)[1]
                return forms[0 if o == "=" else 1].format(x=what)
        left, right = self.read(x, 5), self.read(y, 5)
        if self._thing(x) or self._thing(y):
            return f"{left} {CMP_THING[self.L][o]} {right}"
        verb = CMP[self.L][o][1 if self._plural(x) else 0]
        return f"{left} {verb} {right}"

    # ---------------------------------------------------------- names
    def quantity(self, nm: str, of=None) -> str:
        nom, bare, plain, _ = QUANTITIES[self.L][nm]
        if of is None:
            return plain if self.bare == "plain" else bare
        return f"{nom} {of}"

    def seat_gen(self, e) -> str:
        if isinstance(e, E) and e.op == "name":
            nm = _strip_the(e.args[0])
            if nm in SEATS[self.L]:
                return SEATS[self.L][nm][1]
            if nm in self.c.ladder:
                return self.c.contract(nm)
        return {"en": "of ", "pt": "de ", "ru": ""}[self.L] + self.read(e, 9)

    def lookup(self, what, of) -> str:
        c = self.c
        wn = _strip_the(what.args[0]) if what.op == "name" else ""
        on = _strip_the(of.args[0]) if isinstance(of, E) and of.op == "name" else ""
        if wn == "number":
            if on == "seats":
                return NUMBERS[self.L]["number of seats"]
            return self.w["number_of"].format(x=self.seat_gen(of))
        if wn in c.values and isinstance(c.values[wn], dict):
            if on in SUITS[self.L]:
                suit = SUITS[self.L][on][1]
            elif on in SUIT_LETTER or (len(on) == 1 and on.upper() in SUIT_SYMBOL):
                suit = c.suit(SUIT_LETTER.get(on, on.upper()))
            else:
                suit = self.read(of, 9)
            return self.w["value_suit"].format(name=wn, suit=suit, table=c.per_suit(c.values[wn]))
        if wn in QUANTITIES[self.L]:
            if on == "seat" and self.bare != "plain":
                return self.quantity(wn)
            return self.quantity(wn, self.seat_gen(of))
        if wn == "card points" or wn in c.lets or wn in c.counters:
            return f"`{wn}` {self.seat_gen(of)}"
        return f"{self.read(what, 9)} {self.seat_gen(of)}"

    def name(self, raw: str) -> str:
        c, L = self.c, self.L
        nm = _strip_the(raw)
        if nm in c.lets or nm in c.counters:
            return f"`{nm}`"
        if nm in QUANTITIES[L] and nm != "bid":
            return self.quantity(nm)
        if nm in BOOLS[L]:
            return BOOLS[L][nm][0]
        if nm == "none":
            return {"en": "none", "pt": "nenhum", "ru": "ничего"}[L]
        if nm in SUITS[L]:
            return SUITS[L][nm][0]
        if nm in SUIT_LETTER:
            return c.suit_name(SUIT_LETTER[nm])
        if len(nm) == 1 and nm.upper() in SUIT_SYMBOL:
            return c.suit_name(nm.upper())
        if nm in SEATS[L]:
            return SEATS[L][nm][0]
        if nm in NUMBERS[L]:
            return NUMBERS[L][nm]
        if nm in c.values:
            return c.value(nm)
        if nm in c.ladder:
            return c.contract(nm)
        if nm in COLUMNS[L]:
            return COLUMNS[L][nm]
        if nm in c.columns:
            kind = c.columns[nm]
            return self.w["col_yes" if kind == "yes/no" else "col_num"].format(x=nm)
        fact = self.card_fact(nm)
        if fact is not None:
            return fact
        return f"`{nm}`"

    def card_fact(self, nm: str):
        words = nm.split()
        c, w = self.c, self.w
        for i in range(1, len(words)):
            if words[i] == "holds" and i + 3 == len(words) and words[i + 1] in ("a", "an"):
                who = " ".join(words[:i])
                y = SEATS[self.L].get(who, (f"`{who}`", f"`{who}`"))
                return w["holds"].format(y=y[1] if self.L == "ru" else y[0], m=c.meld(words[i + 2]))
        for verb, key in (("taken by", "taken"), ("dealt to", "dealt"), ("held by", "held")):
            vw = verb.split()
            for i in range(1, len(words) - 1):
                if words[i:i + 2] == vw:
                    desc = self.card_desc(words[:i])
                    who = " ".join(words[i + 2:])
                    if desc is None or not who:
                        return None
                    y = SEATS[self.L].get(who, (f"`{who}`", f"`{who}`"))
                    where = w[key].format(y=y[0] if self.L == "en" else y[1])
                    return w["count"].format(x=desc, where=where)
        if words[-1] == "played" and len(words) > 1:
            desc = self.card_desc(words[:-1])
            if desc is not None:
                if self.L == "ru":
                    return f"число сыгранных в этой сдаче {desc}"
                return w["count"].format(x=desc, where=w["played"])
        return None

    def card_desc(self, words):
        """Words naming cards (`hearts`, `trumps`, `QS` …), as counted ("the number of …")."""
        text = " ".join(words)
        c, L, w = self.c, self.L, self.w
        if text in ("spades", "hearts", "diamonds", "clubs"):
            letter = SUIT_LETTER[text]
            return {"en": f"{text} ({c.suit(letter)})", "pt": f"cartas de {SUIT_NAMES['pt'][letter]}",
                    "ru": SUIT_GEN_PL[letter]}[L]
        if text == "trumps":
            return w["trumps"]
        if text == "trump honours":
            return w["honours"].format(ranks=c.ranks(c.game.ranks[:4]))
        if text == "cards":
            return w["cards"]
        if text in ("cards worth points", "points cards"):
            return w["cards_points"]
        if len(words) == 1 and len(text) >= 2 and text[:-1].upper() in c.game.ranks and text[-1].upper() in SUIT_SYMBOL:
            return c.card(text)
        return None


_PT_CONTRACT = [(" de o ", " do "), (" de a ", " da "), (" de os ", " dos "), (" de as ", " das "),
                (" por o ", " pelo "), (" por a ", " pela "), (" por os ", " pelos "), (" por as ", " pelas "),
                (" em o ", " no "), (" em a ", " na "), (" a o ", " ao "), (" a os ", " aos ")]


def pt_contract(text: str) -> str:
    """Portuguese joins a preposition and an article (`de o` -> `do`, `por a` -> `pela`)."""
    for a, b in _PT_CONTRACT:
        text = text.replace(a, b)
    return text


def sentence(text: str) -> str:
    """A capital first letter (after any leading mark) and a full stop."""
    text = text.strip()
    if not text:
        return text
    i = 0
    while i < len(text) and not text[i].isalnum() and text[i] != "`":
        i += 1
    if i < len(text) and text[i].islower():      # a name in `backquotes` keeps its case
        text = text[:i] + text[i].upper() + text[i + 1:]
    if text[-1] not in ".!?":
        text += "."
    return text


def phrase(game, item, lang: str = "en", ctx: Ctx | None = None) -> str:
    """A rule of the game as a sentence in `lang` (the rule kind's own phrasing)."""
    from .rules.registry import KINDS
    ctx = (ctx or Ctx(game, lang)).at(lang)
    return KINDS[item.body.kind].phrase(item, lang, ctx)
