"""The state of one deal and the facade every tool uses.

A deal starts as a chance node (``deal_random`` or ``set_cards``), then runs the phases
the spec chose, in its order (``Game.phases``): an auction, the declarer's steps
(talon, trumps, contract, gifts), passing among all seats, and the play; then it is
scored. Cards are small ints, hands and the talon are int bitmasks.
"""
from __future__ import annotations

import random

from .env import EMPTY, Env

from .base import AUCTION, CHANCE, DONE, PLAY, TERMINAL, _RANDBELOW, _SHUFFLE, _rounds
from .compiled import compiled_shuffle, compiled_split
from .phases import PHASES
from .observe import observation
from .play import play_random, random_play_action


class Deal:
    """One deal: every field an expression may read is set from the start."""

    # Every field a deal has, in slots (compact, quick to read); a tool may still add
    # its own attributes.
    __slots__ = (
        "game", "codec", "n_seats", "all_seats", "dealer", "deal_number", "scores", "scores_before",
        "counters", "active", "pos", "n_active", "next_seat", "sides", "side_of", "phase", "_ph",
        "_phase_index", "turn", "hands", "dealt", "hand_size", "talon", "talon_dealt", "stock",
        "stock_dealt", "exposed_dealt", "exposed", "exposed_visible", "looked", "opener", "highest",
        "highest_bidder", "partner", "passed", "passes", "turns", "bids", "total_bid", "n_bids",
        "first_round_bids", "turns_taken", "reopened", "declined_at", "raise_turn", "annulled",
        "declarer", "declarers", "defenders", "bid_value", "contract_value", "entry", "entry_index",
        "declarer_blind", "trumps", "step", "talon_shown", "abandoned", "abandon_open", "given",
        "give_count", "passing", "passed_count", "leader", "trick", "trick_suit", "trick_keys",
        "win_seat", "win_card", "tricks", "card_points", "taken", "played", "tricks_done",
        "tricks_total", "tricks_left", "history_tricks", "melds", "pending_trumps", "hand_shown",
        "conceded", "closed", "closer", "tricks_at_close", "last_trick_winner", "ended_early", "made",
        "meld_points_of", "deal_points_of", "deltas", "lets", "history", "__dict__")

    def __init__(self, game, n_seats: int, dealer: int, scores=None, deal_number: int = 1, counters=None):
        # A new deal of a table already seen is set up by code generated from the first
        # one's fields (the same values as _build sets, built once).
        init = game._cache.get(("fresh deal", n_seats, dealer))
        if init is None:
            self._build(game, n_seats, dealer, scores, deal_number, counters)
            _learn_init(self, game, n_seats, dealer)
            return
        init(self, deal_number)
        self.scores = list(scores) if scores is not None else [game.start_score] * n_seats
        self.scores_before = list(self.scores)
        self.counters = {name: list(counters[name]) if counters and name in counters else [start] * n_seats
                         for name, start in game.counters} if game.counters else {}

    def _build(self, game, n_seats, dealer, scores, deal_number, counters):
        g = self.game = game
        self.codec = g.codec
        self.n_seats = n_seats
        self.all_seats = list(range(n_seats))
        self.dealer = dealer
        self.deal_number = deal_number
        self.scores = list(scores) if scores is not None else [g.start_score] * n_seats
        self.scores_before = list(self.scores)
        self.counters = {name: list(counters[name]) if counters and name in counters else [start] * n_seats
                         for name, start in g.counters}
        self.active = g.active_seats(n_seats, dealer)
        self.pos = {s: i for i, s in enumerate(self.active)}
        self.n_active = len(self.active)
        self.next_seat = [-1] * n_seats
        for i, s in enumerate(self.active):
            self.next_seat[s] = self.active[i + 1 - len(self.active)]
        self.sides = g.sides_of(self.active)
        self.side_of = {s: side for side in self.sides for s in side}
        self.phase = None                 # None until dealt (a chance node)
        self._ph = None                   # the phase object
        self._phase_index = -1
        self.turn = -1
        self.hands = [0] * n_seats
        self.dealt = [0] * n_seats
        self.hand_size = 0                # cards dealt to each active seat
        self.talon = 0
        self.talon_dealt = 0
        self.stock = []                   # top first
        self.stock_dealt = []
        self.exposed_dealt = -1
        self.exposed = -1
        self.exposed_visible = False
        self.looked = [not g.blind] * n_seats
        # auction
        self.opener = self.active[0] if self.active else dealer
        self.highest = None
        self.highest_bidder = -1
        self.partner = -1
        self.passed = [False] * n_seats
        self.passes = [0] * n_seats
        self.turns = [0] * n_seats
        self.bids = [None] * n_seats      # each seat's last bid
        self.total_bid = 0                # exact auctions: the bids so far, added
        self.n_bids = 0
        self.first_round_bids = 0
        self.turns_taken = 0
        self.reopened = False
        self.declined_at = [-1] * n_seats
        self.raise_turn = False
        self.annulled = False
        # contract
        self.declarer = -1
        self.declarers = ()
        self.defenders = ()
        self.bid_value = 0
        self.contract_value = 0
        self.entry = None                 # the ladder row's columns
        self.entry_index = -1
        self.declarer_blind = False
        self.trumps = None                # suit index, -1 for no trumps, None: not yet known
        self.step = 0
        self.talon_shown = False
        self.abandoned = False
        self.abandon_open = False
        self.given = [0] * n_seats        # cards received face down
        self.give_count = {}
        self.passing = [0] * n_seats      # passing among all seats: cards on their way
        self.passed_count = [0] * n_seats
        # play
        self.leader = -1
        self.trick = []                   # [(seat, card)]
        self.trick_suit = -1
        self.trick_keys = ()
        self.win_seat = -1
        self.win_card = -1
        self.tricks = [0] * n_seats
        self.card_points = [0] * n_seats
        self.taken = [0] * n_seats        # the cards of the tricks each seat won
        self.played = 0                   # every card played so far
        self.tricks_done = 0
        self.tricks_total = 0
        self.tricks_left = 0
        self.history_tricks = []          # [(leader, [(seat, card)], winner)]
        self.melds = []                   # [(seat, meld index, suit, worth)]
        self.pending_trumps = None
        self.hand_shown = False
        self.conceded = False
        self.closed = False
        self.closer = -1
        self.tricks_at_close = [0] * n_seats
        self.last_trick_winner = -1
        self.ended_early = False
        # results
        self.made = False
        self.meld_points_of = [0] * n_seats
        self.deal_points_of = [0] * n_seats
        self.deltas = [0] * n_seats
        self.lets = {}
        self.history = []                 # [(seat, action)]

    def fields(self) -> dict:
        """Every field of the deal by name (its slots, and what a tool added)."""
        out = {name: getattr(self, name) for name in Deal.__slots__[:-1] if hasattr(self, name)}
        out.update(self.__dict__)
        return out

    # ------------------------------------------------------------ the interface
    def current_player(self) -> int:
        if self.phase is None:
            return CHANCE
        if self.phase == DONE:
            return TERMINAL
        return self.turn

    def is_terminal(self) -> bool:
        return self.phase == DONE

    def legal_actions(self, seat: int | None = None) -> list:
        """Sorted legal actions of `seat` (default: the seat whose turn it is). A seat
        whose turn it is not may still have free actions (look, concede)."""
        if self._ph is None:
            return []
        if seat is None or seat == self.turn:
            acts = self._ph.legal(self, self.turn)
            if self._can_concede(self.turn):
                acts.append(self.codec.CONCEDE)
            return sorted(acts)
        return self.free_actions(seat)

    def is_legal(self, a: int, seat: int) -> bool:
        """Like ``a in legal_actions(seat)``, also for numbers above the listed range."""
        if self._ph is None:
            return False
        if a == self.codec.LOOK and self._late_look(a, seat):
            return True
        if seat != self.turn:
            return a in self.free_actions(seat)
        if a == self.codec.CONCEDE:
            return self._can_concede(seat)
        return self._ph.is_legal(self, a, seat)

    def why_not(self, a: int, seat: int) -> tuple:
        """Why action `a` by `seat` is illegal now: (reason, rule name or "")."""
        if self.phase is None:
            return "the cards have not been dealt", ""
        if self._ph is None:
            return "the deal is over", ""
        c = self.codec
        if a == c.CONCEDE:
            return self._why_concede(seat)
        if a == c.LOOK:
            if not self.game.blind:
                return "nobody bids blind in this game: there is nothing to look at", ""
            if self.phase != AUCTION:
                return "every seat has seen its cards since the auction ended", ""
            return "that seat has already looked at its cards", ""
        if seat != self.turn:
            return f"it is {{seat{self.turn}}}'s turn", ""
        return self._ph.why_not(self, a, seat)

    def _late_look(self, a: int, seat: int) -> bool:
        """Once the auction is over every active seat may look at its cards (it already
        has: the auction's end shows them all). A `look` then is accepted, changes
        nothing and leaves no trace; it is not offered among the legal actions."""
        return (a == self.codec.LOOK and self.game.blind and self._ph is not None
                and self.phase != AUCTION and seat in self.active)

    def free_actions(self, seat: int) -> list:
        acts = []
        if self.phase == AUCTION and self.game.blind and seat in self.pos and not self.looked[seat]:
            acts.append(self.codec.LOOK)
        if self._can_concede(seat):
            acts.append(self.codec.CONCEDE)
        return acts

    def apply_action(self, a: int, seat: int | None = None):
        """Apply action `a` by `seat` (default: the seat whose turn it is). The caller
        checks legality (see ``is_legal``); replay does."""
        c = self.codec
        s = self.turn if seat is None else seat
        if a == c.LOOK and self.phase != AUCTION:
            return                          # a look after the auction: nothing changes
        self.history.append((s, a))
        if a == c.LOOK:
            self.looked[s] = True
            return
        if a == c.CONCEDE:
            self.conceded = True
            return self.finish()
        self._ph.apply(self, s, a)

    def returns(self) -> list:
        return list(self.deltas)

    # ------------------------------------------------------------ chance: the deal
    def deal_plan(self):
        """Where each position of a shuffled deck goes (an index into `active`, or
        len(active) for the talon, len(active)+1 for the stock) and the deck position
        of the dealer's last card; None if the deal does not fit the deck."""
        g = self.game
        quick = g._cache.get(("plan", self.n_seats, self.dealer))
        if quick is not None:            # rounds that never change: one plan per table
            return quick
        rounds = tuple(st.rounds if isinstance(st.rounds, int) else _rounds(st.rounds, self)
                       for st in g.deal_steps)
        key = (tuple(self.active), self.dealer, rounds)
        plans = g._cache.setdefault("plans", {})
        if key in plans:
            return plans[key]
        owner, last = [], -1
        k = len(self.active)
        for st, r in zip(g.deal_steps, rounds):
            for _ in range(r):
                for i, s in enumerate(self.active):
                    owner += [i] * st.each
                    if s == self.dealer and st.each:
                        last = len(owner) - 1
                owner += [k] * st.to_talon
        if len(owner) < g.n_cards and g.stock:
            owner += [k + 1] * (g.n_cards - len(owner))
        plan = (tuple(owner), last) if len(owner) == g.n_cards else None
        if len(plans) < 4096:
            plans[key] = plan
        if plan is not None and all(isinstance(st.rounds, int) for st in g.deal_steps):
            g._cache[("plan", self.n_seats, self.dealer)] = plan
        return plan

    def dealt_sizes(self) -> tuple:
        """(cards each active seat is dealt, cards dealt to the talon)."""
        plan = self.deal_plan()
        if plan is None:
            return 0, 0
        owner = plan[0]
        return owner.count(0), owner.count(len(self.active))

    def deal_random(self, rng: random.Random):
        g = self.game
        k = len(self.active)
        quick = g._cache.get(("dealing", self.n_seats, self.dealer))
        if quick is not None and type(rng).shuffle is _SHUFFLE and type(rng)._randbelow is _RANDBELOW:
            # a table whose deal plan never changes: the generated shuffle and split
            shuffle, split, last_index = quick
            deck = shuffle(rng.getrandbits)
            masks, stock = split(deck)
            return self._dealt(deck, masks, stock, last_index)
        plan = self.deal_plan()
        if plan is None:
            raise ValueError("the deal does not fit the deck")
        owner, last_index = plan
        if type(rng).shuffle is _SHUFFLE and type(rng)._randbelow is _RANDBELOW:
            # random.Random.shuffle unrolled for this deck: the same draws, the same deck
            split = compiled_split(g, owner, k)
            deck = compiled_shuffle(g)(rng.getrandbits)
            masks, stock = split(deck)
            if g._cache.get(("plan", self.n_seats, self.dealer)) is plan and len(g._cache) < 4096:
                g._cache[("dealing", self.n_seats, self.dealer)] = (compiled_shuffle(g), split, last_index)
        else:
            deck = list(range(g.n_cards))
            rng.shuffle(deck)
            masks = [0] * (k + 1)
            stock = []
            for c, o in zip(deck, owner):
                if o > k:
                    stock.append(c)
                else:
                    masks[o] |= 1 << c
        self._dealt(deck, masks, stock, last_index)

    def _dealt(self, deck, masks, stock, last_index):
        """The shuffled deck's places given out: hands, talon, stock, a card face up."""
        g = self.game
        k = len(self.active)
        for i, s in enumerate(self.active):
            self.hands[s] = self.dealt[s] = masks[i]
        self.talon = self.talon_dealt = masks[k]
        exposed = -1
        if g.face_up == "dealer-last":
            exposed = deck[last_index] if last_index >= 0 else -1
        elif g.face_up == "stock-top" and stock:
            exposed = stock[0]
        elif g.face_up == "stock-bottom" and stock:
            # the card after the hands is turned and the rest of the stock laid on it
            stock = stock[1:] + stock[:1]
            exposed = stock[-1]
        self.stock = stock
        self._begin(exposed)

    def set_cards(self, hands: dict, talon=(), exposed: int = -1, stock=None):
        """Deal the given cards (a record's deal). Raises ValueError if they do not fit."""
        g = self.game
        plan = self.deal_plan()
        want, talon_size = self.dealt_sizes()
        if plan is None:
            raise ValueError("the deal does not fit the deck")
        seen = 0
        for s in self.active:
            cards = hands.get(s)
            if cards is None:
                raise ValueError(f"seat {s} is active but has no hand")
            if len(cards) != want:
                held = f"{len(cards)} card{'' if len(cards) == 1 else 's'}"
                if any(not isinstance(st.rounds, int) for st in g.deal_steps):
                    # the hand size follows the deal's number (a record's `deal_number`)
                    raise ValueError(f"seat {s} holds {held}; deal {self.deal_number} of the game gives "
                                     f"{want} (the hand size changes from deal to deal: a record gives "
                                     f"the deal's `deal_number`, default 1)")
                raise ValueError(f"seat {s} holds {held}; the deal gives {want}")
        for s, cards in hands.items():
            if s not in self.pos:
                if not cards:          # an empty hand for the seat sitting out is harmless
                    continue
                raise ValueError(f"seat {s} sits this deal out and is dealt no cards")
            m = 0
            for c in cards:
                bit = 1 << c
                if seen & bit:
                    raise ValueError(f"{g.card_names[c]} is dealt twice")
                seen |= bit
                m |= bit
            self.hands[s] = m
            self.dealt[s] = m
        if len(talon) != talon_size:
            raise ValueError(f"the talon holds {len(talon)} cards; the deal puts {talon_size} there")
        for c in talon:
            if seen & (1 << c):
                raise ValueError(f"{g.card_names[c]} is dealt twice")
            seen |= 1 << c
            self.talon |= 1 << c
        self.talon_dealt = self.talon
        stock = list(stock or [])
        if g.stock:
            for c in stock:
                if seen & (1 << c):
                    raise ValueError(f"{g.card_names[c]} is dealt twice")
                seen |= 1 << c
        elif stock:
            raise ValueError("this game has no stock: every card is dealt")
        if g.face_up == "dealer-last":
            if exposed < 0:
                raise ValueError("this game deals a card face up: the record needs `exposed`")
            holder = self.dealer if self.dealer in self.pos else self.active[-1]
            if not self.hands[holder] >> exposed & 1:
                raise ValueError(f"the exposed card {g.card_names[exposed]} must be in the dealer's hand")
        elif g.face_up in ("stock-top", "stock-bottom"):
            if exposed < 0:
                raise ValueError("this game turns a card of the stock face up: the record needs `exposed`")
            where = 0 if g.face_up == "stock-top" else -1
            if not stock or stock[where] != exposed:
                raise ValueError(f"the exposed card {g.card_names[exposed]} must be the "
                                 f"{'first' if where == 0 else 'last'} card of `stock`")
        elif exposed >= 0:
            raise ValueError("this game turns no card face up: the record should not give `exposed`")
        if seen != g.full_deck:
            missing = [g.card_names[c] for c in range(g.n_cards) if not seen >> c & 1]
            what = "`stock`" if g.stock else "the deal"
            raise ValueError(f"cards missing from the hands{', talon' if talon_size else ''} and {what}: "
                             + " ".join(missing))
        if plan is not None and g.stock and len(stock) != sum(1 for o in plan[0] if o > len(self.active)):
            raise ValueError(f"the stock holds {len(stock)} cards; the deal leaves "
                             f"{sum(1 for o in plan[0] if o > len(self.active))}")
        self.stock = stock
        self._begin(exposed)

    def _begin(self, exposed: int):
        g = self.game
        self.hand_size = self.hands[self.active[0]].bit_count() if self.active else 0
        self.exposed = self.exposed_dealt = exposed
        self.exposed_visible = exposed >= 0
        self.stock_dealt = list(self.stock)
        if g.face_up_trumps and exposed >= 0:
            self.trumps = g.card_suit[exposed]
        self._phase_index = -1
        self.next_phase()

    # ------------------------------------------------------------ phases
    def next_phase(self):
        """Start the next phase the spec names; after the last, the deal is scored."""
        g = self.game
        while True:
            self._phase_index += 1
            if self._phase_index >= len(g.phases):
                return self.finish()
            name = g.phases[self._phase_index]
            ph = PHASES[name]
            self.phase, self._ph = name, ph
            if ph.start(self):          # False: nothing to do here, go on
                return
            if self.phase == DONE:
                return

    def finish(self):
        self.phase = DONE
        self._ph = None
        self.turn = TERMINAL
        fn = self.game._cache.get("compiled_settle")
        if fn is None:
            from .compiled import compiled_settle
            fn = compiled_settle(self.game)
        fn(self)

    # ------------------------------------------------------------ shared helpers
    def seat_ref(self, ref: str) -> int:
        if ref == "declarer":
            return self.declarer
        if ref == "dealer":
            return self.dealer
        return self.active[0]

    def clockwise_from(self, s: int, include: bool = False):
        i = self.pos[s]
        n = len(self.active)
        return [self.active[(i + k) % n] for k in range(0 if include else 1, n)]

    def lost(self) -> bool:
        """The contract can no longer be made (its trick goal is out of reach)."""
        if self.entry_index < 0:
            return False
        e = self.game.ladder[self.entry_index]
        won = sum(self.tricks[s] for s in self.declarers)
        return won > e.most or won + self.tricks_left < e.least

    def _can_concede(self, s: int) -> bool:
        g = self.game
        return (g.concede is not None and self.phase == PLAY and s == self.declarer
                and self.lost() and (g.concede is True or bool(g.concede(self, EMPTY))))

    def _why_concede(self, s: int) -> tuple:
        g = self.game
        rule = g.rules_of_kind("concede")
        if g.concede is None:
            return "this game has no conceding", ""
        if self.phase != PLAY:
            return "conceding is for the play, once the contract has failed", rule
        if s != self.declarer:
            return "only the declarer may concede", rule
        if not self.lost():
            return "the contract can still be made", rule
        return "this contract may not be conceded", rule

    # live quantities that formulas read
    def meld_points(self, s: int) -> int:
        """The worth of the melds seat `s` announced that count now."""
        if self.phase == DONE:
            return self.meld_points_of[s]
        g = self.game
        total = 0
        env = Env()
        for (ms, mi, suit, worth) in self.melds:
            if ms != s:
                continue
            m = g.melds[mi]
            env.seat, env.suit = s, suit
            if m.counts is None or m.counts(self, env):
                total += worth
        return total

    def points(self, s: int) -> int:
        """A seat's deal points: the spec's formula (default card points + melds)."""
        if self.phase == DONE:
            return self.deal_points_of[s]
        g = self.game
        if g.deal_points is not None:
            return g.deal_points(self, Env(s))
        return self.card_points[s] + self.meld_points(s)

    def holds_meld(self, s: int, mi: int) -> bool:
        hand = self.hands[s]
        for mask, _, m, _ in self.game.meld_leads:
            if m == mi and hand & mask == mask:
                return True
        return False

    def counter(self, name: str, s: int) -> int:
        if name == "score":
            return self.scores[s]
        return self.counters[name][s]

    # ------------------------------------------------------------ text of actions
    def action_to_string(self, a: int, seat: int, names=None) -> str:
        return self.game.action_text(a, seat, names)

    def parse_action(self, words: list, names: dict):
        return self.game.parse_action(words, names)

    def action(self, a: int, names=None):
        """The action value of an int (see ``model.actions.Action``)."""
        return self.game.to_action(a, names)

    # ------------------------------------------------------------ views
    def observation(self, seat: int, names=None) -> dict:
        """What `seat` may see: its own hand once it has looked, the talon once shown,
        cards given face down only to their receiver, shown melds, an exposed card or
        hand, the tricks played and the public auction."""
        return observation(self, seat, names)

    def contract_name(self):
        if self.declarer < 0:
            return None
        if self.entry_index >= 0:
            return self.game.ladder[self.entry_index].name
        return self.contract_value

    # fast random play lives with the play phase
    def random_play_action(self, rng) -> int:
        return random_play_action(self, rng)

    def play_random(self, rng):
        play_random(self, rng)


# ---------------------------------------------------------------- a new deal, quickly
_PER_DEAL = ("deal_number", "scores", "scores_before", "counters")
_SHARED = ("all_seats", "active", "next_seat", "pos", "sides", "side_of")     # never changed in a deal
_SIMPLE = (int, bool, str, type(None))


def _literal(v):
    """Python source that builds `v` anew, or None."""
    if type(v) in _SIMPLE:
        return repr(v)
    if type(v) in (list, tuple) and all(type(x) in _SIMPLE for x in v):
        return repr(v)
    if type(v) is dict and not v:
        return "{}"
    return None


def _learn_init(d, game, n_seats: int, dealer: int):
    """Generate ``init(deal, deal_number)`` that sets every field of a new deal at this
    table as ``_build`` set `d`'s (nested values are never shared: no code is made)."""
    L = ["def init(self, deal_number):", "    self.deal_number = deal_number"]
    ns: dict = {}
    for name in Deal.__slots__:
        if name in _PER_DEAL or name == "__dict__":
            continue
        v = getattr(d, name)
        if isinstance(v, (list, dict, set)) and name not in _SHARED:
            if any(isinstance(x, (list, dict, set)) for x in (v.values() if isinstance(v, dict) else v)):
                return
            code = _literal(v)
            if code is None:
                ns[f"V{len(ns)}"] = v
                code = f"V{len(ns) - 1}.copy()"
        else:
            code = _literal(v) if type(v) in _SIMPLE or type(v) is tuple else None
            if code is None:
                ns[f"V{len(ns)}"] = v
                code = f"V{len(ns) - 1}"
        L.append(f"    self.{name} = {code}")
    exec(compile("\n".join(L) + "\n", f"<new deal of {game.name}>", "exec"), ns)
    if len(game._cache) < 4096:
        game._cache[("fresh deal", n_seats, dealer)] = ns["init"]
