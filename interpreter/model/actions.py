"""One action codec: actions as readable values, their one text form, and the small
ints the engine's hot path uses (private to the engine and this module).

An ``Action`` is what a record, the terminal, an agent or a test talks about:
``Action("bid", value=80, blind=True)`` is written ``bid 80 blind`` after its seat.
``Codec(game)`` turns actions into ints and back; nothing outside the engine needs the
int layout.
"""
from __future__ import annotations

from .record import record

SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
VERBS = ("pass", "bid", "look", "abandon", "trumps", "contract", "give", "play", "concede",
         "close", "exchange")


@record(frozen=True)
class Action:
    """One action, without its seat. Fields used by each verb:

    pass [blind] · bid VALUE [blind] (VALUE a number or a contract name) · look ·
    abandon · trumps SUIT (a suit letter, or "none") · contract VALUE · give CARD SEAT ·
    play CARD [MELD] · concede · close · exchange CARD
    """
    verb: str
    value: object = None      # a bid or contract number, a contract name, a suit letter
    card: str = ""            # a card name such as "10S"
    seat: str = ""            # the receiver of a give
    meld: str = ""            # an announcement made with a play
    blind: bool = False

    def text(self) -> str:
        words = [self.verb]
        if self.verb == "trumps":
            words.append("none" if self.value == "none" else SUIT_WORDS.get(self.value, str(self.value)))
        elif self.value is not None:
            words.append(str(self.value))
        if self.card:
            words.append(self.card)
        if self.seat:
            words.append(self.seat)
        if self.meld:
            words.append(self.meld)
        if self.blind:
            words.append("blind")
        return " ".join(words)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Action.parse({self.text()!r})"


class Codec:
    """Action values <-> the engine's ints for one game.

    Layout (private): cards 0..n-1 (a plain play); meld plays n + meld*n + card;
    then pass, pass blind, look, abandon, concede, close; trumps (+ suit, +4 none);
    exchange (+ card); give (+ seat*n + card); ladder bids (+ 2*index, +1 blind);
    numbers (+ 4*value: +0 bid, +1 bid blind, +2 contract)."""

    def __init__(self, n_cards: int, n_melds: int, ladder_size: int):
        n = n_cards
        self.n = n
        self.MELD = n
        self.PASS = n * (1 + n_melds)
        self.PASS_BLIND = self.PASS + 1
        self.LOOK = self.PASS + 2
        self.ABANDON = self.PASS + 3
        self.CONCEDE = self.PASS + 4
        self.CLOSE = self.PASS + 5
        self.TRUMPS = self.PASS + 8               # + suit, + 4 for none
        self.EXCHANGE = self.PASS + 16            # + card
        self.GIVE = self.EXCHANGE + n             # + seat * n + card
        self.LADDER = self.GIVE + 8 * n           # + 2 * index (+1 blind)
        self.NUMBER = self.LADDER + 2 * max(ladder_size, 1)   # + 4*v (+1 blind, +2 contract)

    # the ints, by kind
    def play(self, card: int, meld: int = -1) -> int:
        return card if meld < 0 else self.MELD + meld * self.n + card

    def give(self, seat: int, card: int) -> int:
        return self.GIVE + seat * self.n + card

    def number_bid(self, v: int, blind: bool = False) -> int:
        return self.NUMBER + 4 * v + (1 if blind else 0)

    def contract(self, v: int) -> int:
        return self.NUMBER + 4 * v + 2

    def ladder_bid(self, i: int, blind: bool = False) -> int:
        return self.LADDER + 2 * i + (1 if blind else 0)

    def kind(self, a: int) -> str:
        """The verb of an action int."""
        if a < self.PASS:
            return "play"
        if a in (self.PASS, self.PASS_BLIND):
            return "pass"
        if a == self.LOOK:
            return "look"
        if a == self.ABANDON:
            return "abandon"
        if a == self.CONCEDE:
            return "concede"
        if a == self.CLOSE:
            return "close"
        if self.TRUMPS <= a < self.TRUMPS + 5:
            return "trumps"
        if self.EXCHANGE <= a < self.GIVE:
            return "exchange"
        if self.GIVE <= a < self.LADDER:
            return "give"
        if a >= self.NUMBER and (a - self.NUMBER) % 4 == 2:
            return "contract"
        return "bid"

    def fields(self, a: int) -> dict:
        """The parts of an action int: card, meld index, value, seat, blind."""
        n = self.n
        if a < self.MELD:
            return {"card": a, "meld": -1}
        if a < self.PASS:
            mi, c = divmod(a - self.MELD, n)
            return {"card": c, "meld": mi}
        if a == self.PASS_BLIND:
            return {"blind": True}
        if self.TRUMPS <= a < self.TRUMPS + 5:
            return {"suit": a - self.TRUMPS if a - self.TRUMPS < 4 else -1}
        if self.EXCHANGE <= a < self.GIVE:
            return {"card": a - self.EXCHANGE}
        if self.GIVE <= a < self.LADDER:
            d, c = divmod(a - self.GIVE, n)
            return {"seat": d, "card": c}
        if self.LADDER <= a < self.NUMBER:
            i, b = divmod(a - self.LADDER, 2)
            return {"index": i, "blind": bool(b)}
        if a >= self.NUMBER:
            v, k = divmod(a - self.NUMBER, 4)
            return {"value": v, "blind": k == 1}
        return {}


_MAX_NUMBER_DIGITS = 9


def _number(word: str):
    """A whole number written in ASCII digits (never a huge one), else None."""
    if word.isascii() and word.isdigit():
        if len(word.lstrip("0")) > _MAX_NUMBER_DIGITS:
            raise ValueError(f"`{word[:12]}…` is too large a number")
        return int(word)
    return None


def _parse(text: str, suits=("S", "H", "D", "C")) -> Action:
    words = text.split()
    if not words:
        raise ValueError("the action has no verb")
    verb, rest = words[0].lower(), words[1:]
    low = [w.lower() for w in rest]
    if verb == "pass":
        if low not in ([], ["blind"]):
            raise ValueError("`pass` takes nothing or `blind`")
        return Action("pass", blind=bool(low))
    if verb in ("look", "abandon", "concede", "close") and not rest:
        return Action(verb)
    if verb == "bid":
        if not rest or len(rest) > 2 or (len(rest) == 2 and low[1] != "blind"):
            raise ValueError("`bid` takes a number or a contract name, then optionally `blind`")
        n = _number(rest[0])
        return Action("bid", value=n if n is not None else low[0], blind=len(rest) == 2)
    if verb == "trumps" and len(rest) == 1:
        w = low[0]
        if w in ("none", "no-trumps", "notrumps", "nt"):
            return Action("trumps", value="none")
        w = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}.get(w, w)
        for letter in suits:
            word = SUIT_WORDS[letter]
            if w in (letter.lower(), word, word[:-1]):
                return Action("trumps", value=letter)
        raise ValueError(f"`{rest[0]}` is not a suit (spades hearts diamonds clubs, S H D C, or none)")
    if verb == "contract" and len(rest) == 1:
        n = _number(rest[0])
        if n is None:
            raise ValueError("`contract` takes a whole number")
        return Action("contract", value=n)
    if verb == "give" and len(rest) == 2:
        return Action("give", card=rest[0], seat=rest[1])
    if verb == "exchange" and len(rest) == 1:
        return Action("exchange", card=rest[0])
    if verb == "play" and 1 <= len(rest) <= 2:
        return Action("play", card=rest[0], meld=low[1] if len(rest) == 2 else "")
    raise ValueError(f"`{' '.join(words)}` is not an action: verbs are " + ", ".join(VERBS))


Action.parse = staticmethod(_parse)
