"""The compiled game: an immutable description the engine runs.

The compiler (``interpreter.spec``) builds a ``Game`` from the rule units of
``interpreter.rules``; the engine (``interpreter.engine``) only reads it. Formulas arrive
as callables ``f(state, env)``; mechanisms as small frozen records and tuples.
"""
from __future__ import annotations

from .record import field, record

from .actions import Codec, SUIT_WORDS

_DEAL = [None]          # the engine's Deal class, imported when a first deal is made


@record(frozen=True)
class Contract:
    """One entry of a contract ladder (a row of the YAML table)."""
    name: str
    title: str
    partner: str          # "", "seeks" or "joins"
    least: int
    most: int
    trumps: str           # exposed, chosen, none
    unit: int
    columns: dict


@record(frozen=True)
class Meld:
    name: str
    ranks: tuple          # rank indices
    worth: object         # f(st, env) -> int, env.seat = announcer, env.suit = suit
    counts: object        # f(st, env) -> bool, or None (always counts)
    makes_trumps: bool = False
    announce_when: object = None   # f(st, env) -> bool, or None (any lead)


@record(frozen=True)
class DealStep:
    """`rounds` rounds of `each` cards to every active seat, then `to_talon` cards to
    the talon after each round. `rounds` is a number or f(st, env) (it may depend on the
    deal number and the number of seats)."""
    rounds: object
    each: int
    to_talon: int


@record(frozen=True)
class CardSet:
    """A set of cards named in a follow or lead rule: kinds suit-led, trump,
    beats-trick, trump-beats, points, no-points, suit (arg: suit), card (arg: card);
    several are joined by `or`."""
    parts: tuple          # ((kind, arg), ...)

    def uses_trick(self) -> bool:
        return any(k in ("suit-led", "beats-trick", "trump-beats") for k, _ in self.parts)


@record(frozen=True)
class Narrow:
    """A follow or lead rule: `must` narrows the cards a seat may play to `cards` when
    that leaves one; `not` takes `cards` away when something else is left. `on` is
    play (leads and follows), lead, or follow; `first` limits it to the first trick;
    `void` to a seat that holds no card of the suit led; `when` is a condition."""
    mode: str             # must or not
    cards: CardSet
    on: str = "follow"
    first: bool = False
    void: bool = False
    when: object = None
    rule: str = ""        # the rule's name (for explanations)
    words: str = ""       # the rule as written, for "why illegal"


@record(frozen=True)
class Statement:
    """One scoring statement: when `when` holds, for every seat of `payee`, the
    `effects` in order: ("score", f) adds to the score, ("set", counter, f) sets a
    counter (the score included), ("add", counter, f) adds to one."""
    payee: str            # declarer, declarers, defenders, seats, sides, dealer
    effects: tuple
    when: object = None
    rule: str = ""


def _beaten_by(keys: tuple) -> tuple:
    """For each card, the mask of the cards whose key is higher."""
    of_key: dict = {}
    for c, k in enumerate(keys):
        of_key[k] = of_key.get(k, 0) | (1 << c)
    above, higher = {}, 0
    for k in sorted(of_key, reverse=True):
        above[k] = higher
        higher |= of_key[k]
    return tuple(above[k] for k in keys)


@record(frozen=True)
class Game:
    """A compiled spec: everything the engine needs, nothing it must interpret."""
    name: str
    title: str
    path: str
    suits: tuple
    ranks: tuple
    card_points: tuple
    values: dict = field(default_factory=dict)
    # players
    seat_counts: tuple = (3,)
    default_seats: int = 0
    sit_out_when: int = 0             # with this many seats the dealer sits out
    start_score: int = 0
    partners: bool = False            # fixed partnerships: seats opposite
    counters: tuple = ()              # ((name, start), ...): per-seat memory across deals
    record_start: object = None       # f: may a hand record start from its scores?
    track: frozenset = frozenset()    # card records formulas read: "played", "taken"
    # deal
    direction: int = 1                # +1: the deal passes left (clockwise)
    deal_steps: tuple = ()
    stock: bool = False               # the cards not dealt form a stock
    face_up: str = ""                 # "", dealer-last, stock-top, stock-bottom
    face_up_trumps: bool = False      # the face-up card's suit is trumps
    # the order of the phases between the deal and the scoring
    phases: tuple = ("play",)
    # auction
    auction_kind: str = ""            # numeric, ladder, exact, or "" (no auction)
    min_bid: object = None            # f(st, env) -> int
    max_bid: object = None            # exact auctions: f(st, env) -> int
    bid_step: int = 1
    ladder: tuple = ()
    ladder_columns: dict = field(default_factory=dict)
    bid_conditions: dict = field(default_factory=dict)   # ladder index -> f
    bid_rules: tuple = ()             # ((rule name, f(st, env) with env.value = the bid), ...): all must hold
    pass_final: bool = False
    reopen: tuple = ()                # (frozenset of ladder indices, f) or ()
    unpartnered: bool = False
    blind: bool = False
    opener: str = "left-of-dealer"
    opener_must_bid: bool = False
    all_pass_same_dealer: bool = False
    # the declarer's steps, and passing among all seats
    contract_steps: tuple = ()
    contract_step: int = 1            # the final contract moves in steps of this
    exchange: tuple = ()              # (cards, (direction, ...)): + left, - right, 2 across, 0 none
    # play
    first_lead: tuple = ("left-of-dealer", None, None)
    lead_card: int = -1               # the holder of this card leads it to the first trick
    narrows: tuple = ()
    trick_trumps: bool = True
    open_hand: object = None
    concede: object = None
    draw: bool = False                # after each trick every seat draws from the stock
    close: object = None              # the leader may close the stock: True or f
    exchange_rank: int = -1           # the leader may exchange this rank of trumps for the face-up card
    exchange_when: object = None
    deal_ends: object = None          # f: the deal ends at once when it holds
    melds: tuple = ()
    # scoring
    deal_points: object = None
    made: object = None
    lets: tuple = ()                  # ((name, f, per_seat), ...) fixed when the deal ends
    statements: tuple = ()
    # end of the game
    game_end: object = None
    winner_set: tuple = ("every", None)
    winner_prefs: tuple = ()
    # provenance
    rules: dict = field(default_factory=dict)            # rule name -> syntax Item
    examples: str = ""
    tables_data: dict = field(default_factory=dict)
    max_points: int = 0

    def __repr__(self) -> str:
        return f"<Game {self.name!r}: {self.title}>"

    def __post_init__(self):
        S = object.__setattr__
        n_suits, R = len(self.suits), len(self.ranks)
        n = n_suits * R
        S(self, "n_suits", n_suits)
        S(self, "n_ranks", R)
        S(self, "n_cards", n)
        S(self, "card_suit", tuple(c // R for c in range(n)))
        S(self, "card_rank", tuple(c % R for c in range(n)))
        S(self, "suit_mask", tuple(((1 << R) - 1) << (s * R) for s in range(n_suits)))
        S(self, "full_deck", (1 << n) - 1)
        S(self, "card_names", tuple(self.ranks[c % R] + self.suits[c // R] for c in range(n)))
        S(self, "card_by_name", {nm: i for i, nm in enumerate(self.card_names)})
        S(self, "suit_words", tuple(SUIT_WORDS[s] for s in self.suits))
        S(self, "points_mask", sum(1 << c for c in range(n) if self.card_points[c]))
        S(self, "codec", Codec(n, len(self.melds), len(self.ladder)))
        S(self, "shuffle_steps", tuple((i, i + 1, (i + 1).bit_length()) for i in reversed(range(1, n))))
        S(self, "_cache", {})
        # trick_keys[trumps + 1][suit led][card]: a higher key beats a lower one (0: cannot win)
        keys_all = []
        for t in range(-1, n_suits):
            per_led = []
            for led in range(n_suits):
                keys = []
                for c in range(n):
                    s, r = c // R, c % R
                    if s == t and self.trick_trumps:
                        keys.append(2 * R - r)
                    elif s == led:
                        keys.append(R - r)
                    else:
                        keys.append(0)
                per_led.append(tuple(keys))
            keys_all.append(tuple(per_led))
        S(self, "trick_keys", tuple(keys_all))
        # beats[trumps + 1][suit led][card]: the mask of the cards that beat it.
        S(self, "beats", tuple(tuple(_beaten_by(keys) for keys in per_led) for per_led in keys_all))
        leads = []
        for mi, m in enumerate(self.melds):
            for suit in range(n_suits):
                cards = sorted(suit * R + r for r in m.ranks)
                mask = 0
                for c in cards:
                    mask |= 1 << c
                leads.append((mask, tuple(self.codec.play(c, mi) for c in cards), mi, suit))
        S(self, "meld_leads", tuple(leads))

    # -------------------------------------------------------------- derived facts
    @property
    def has_auction(self) -> bool:
        return "auction" in self.phases

    @property
    def has_declarer(self) -> bool:
        return self.auction_kind in ("numeric", "ladder")

    def parse_card(self, text: str) -> int:
        t = text.strip().upper().replace("♠", "S").replace("♥", "H").replace("♦", "D").replace("♣", "C")
        if t[:1] == "T":
            t = "10" + t[1:]
        c = self.card_by_name.get(t)
        if c is None:
            raise ValueError(f"`{text}` is not a card of this deck "
                             f"(ranks {' '.join(self.ranks)}, suits {' '.join(self.suits)})")
        return c

    def active_seats(self, n_seats: int, dealer: int) -> list:
        """Active seats in playing order, starting left of the dealer."""
        d = self.direction
        order = [(dealer + d * i) % n_seats for i in range(1, n_seats + 1)]
        if self.sit_out_when and n_seats == self.sit_out_when:
            order.remove(dealer)
        return order

    def new_deal(self, n_seats: int, dealer: int, scores=None, deal_number: int = 1, counters=None):
        deal = _DEAL[0]
        if deal is None:
            from ..engine.deal import Deal       # the engine reads the model, not the reverse
            deal = _DEAL[0] = Deal
        return deal(self, n_seats, dealer, scores, deal_number, counters)

    def sides_of(self, active: list) -> list:
        """Fixed sides (partnerships sitting opposite), or one side per seat."""
        if self.partners and len(active) % 2 == 0:
            half = len(active) // 2
            return [tuple(sorted((active[i], active[i + half]))) for i in range(half)]
        return [(s,) for s in active]

    # -------------------------------------------------------------- rules by kind
    def rules_of_kind(self, kind: str, arg: str = "") -> str:
        """The name of the first rule of a kind (for "why illegal"), or ""."""
        for name, it in self.rules.items():
            if it.body is not None and it.body.kind == kind:
                if not arg or it.body.args.get("meld") == arg or name == arg:
                    return name
        return ""

    def rule_text(self, name: str) -> str:
        it = self.rules.get(name)
        return it.text if it is not None else ""

    def rule_for_contract(self, contract: str) -> str:
        for name, it in self.rules.items():
            if it.body is not None and it.body.kind == "bid_condition" and it.body.args.get("contract") == contract:
                return name
        return ""

    def rule_for_meld_condition(self, meld: str) -> str:
        for name, it in self.rules.items():
            if it.body is not None and it.body.kind == "meld_announce" and it.body.args.get("meld") == meld:
                return name
        return ""

    def step_rule(self, i: int) -> str:
        kinds = {"trumps": "name_trumps", "contract": "name_contract"}
        if 0 <= i < len(self.contract_steps):
            k = self.contract_steps[i][0]
            return self.rules_of_kind(kinds.get(k, k))
        return ""

    # -------------------------------------------------------------- actions as text
    def to_action(self, a: int, names=None):
        """An action int -> its value (``Action``)."""
        from .actions import Action
        c = self.codec
        kind = c.kind(a)
        f = c.fields(a)
        seat_name = (lambda s: names[s]) if names else str
        if kind == "play":
            return Action("play", card=self.card_names[f["card"]],
                          meld=self.melds[f["meld"]].name if f["meld"] >= 0 else "")
        if kind == "pass":
            return Action("pass", blind=bool(f.get("blind")))
        if kind == "trumps":
            return Action("trumps", value="none" if f["suit"] < 0 else self.suits[f["suit"]])
        if kind == "give":
            return Action("give", card=self.card_names[f["card"]], seat=seat_name(f["seat"]))
        if kind == "exchange":
            return Action("exchange", card=self.card_names[f["card"]])
        if kind == "contract":
            return Action("contract", value=f["value"])
        if kind == "bid":
            if "index" in f:
                return Action("bid", value=self.ladder[f["index"]].name, blind=f["blind"])
            return Action("bid", value=f["value"], blind=f["blind"])
        return Action(kind)

    def action_text(self, a: int, seat: int, names=None) -> str:
        who = names[seat] if names else str(seat)
        return f"{who} {self.to_action(a, names).text()}"

    def from_action(self, act, names: dict) -> int:
        """An ``Action`` -> the engine's int (not checked for legality)."""
        c = self.codec
        v = act.verb
        if v == "pass":
            return c.PASS_BLIND if act.blind else c.PASS
        if v in ("look", "abandon", "concede", "close"):
            return {"look": c.LOOK, "abandon": c.ABANDON, "concede": c.CONCEDE, "close": c.CLOSE}[v]
        if v == "play":
            card = self.parse_card(act.card)
            if not act.meld:
                return card
            for mi, m in enumerate(self.melds):
                if m.name == act.meld:
                    return c.play(card, mi)
            raise ValueError(f"`{act.meld}` is not an announcement of this game" + (
                " (melds: " + ", ".join(m.name for m in self.melds) + ")" if self.melds else ""))
        if v == "exchange":
            return c.EXCHANGE + self.parse_card(act.card)
        if v == "give":
            if act.seat not in names:
                raise ValueError(f"`{act.seat}` is not a seat at this table")
            return c.give(names[act.seat], self.parse_card(act.card))
        if v == "trumps":
            return c.TRUMPS + (4 if act.value == "none" else self.suits.index(act.value))
        if v == "contract":
            return c.contract(int(act.value))
        if v == "bid":
            if isinstance(act.value, int):
                if self.auction_kind == "ladder":
                    raise ValueError("bids in this game are contract names: " + ", ".join(x.name for x in self.ladder))
                return c.number_bid(act.value, act.blind)
            for i, x in enumerate(self.ladder):
                if x.name == act.value:
                    return c.ladder_bid(i, act.blind)
            raise ValueError(f"`{act.value}` is not a bid of this game" + (
                " (contracts: " + ", ".join(x.name for x in self.ladder) + ")" if self.ladder else " (bids are numbers)"))
        raise ValueError(f"`{v}` is not an action")

    def parse_action(self, words: list, names: dict) -> int:
        """The words after the seat -> an action int (not checked for legality)."""
        from .actions import Action
        return self.from_action(Action.parse(" ".join(words), self.suits), names)
