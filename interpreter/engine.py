"""The generic trick-taking engine.

``Game`` holds a compiled spec (static facts: the deck, the deal pattern, the auction,
the declarer's steps, the follow rules, melds, scoring and the match end). ``Deal`` is
the state of one deal in the shape OpenSpiel uses: ``current_player()`` (with CHANCE and
TERMINAL markers), ``legal_actions()`` as sorted ints, ``apply_action()``,
``is_terminal()`` and ``returns()``; ``observation(seat)`` is what one seat may see.
``Match`` plays deals one after another, carrying scores and the dealer.

Cards are small ints (suit * ranks + rank index, index 0 the highest rank); hands,
the talon and suits are int bitmasks. Rules arrive as compiled callables.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from .errors import TalonError
from .expr import Env

CHANCE = -1
TERMINAL = -4

AUCTION, CONTRACT, PLAY, DONE = "auction", "contract", "play", "done"

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


@dataclass
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


@dataclass
class Meld:
    name: str
    ranks: tuple          # rank indices
    worth: object         # f(st, env) -> int, env.seat = announcer, env.suit = suit
    counts: object        # f(st, env) -> bool, or None (always counts)
    makes_trumps: bool = False


@dataclass
class Game:
    """A compiled spec: everything the engine needs, nothing it must interpret."""
    name: str
    title: str
    path: str
    suits: list
    ranks: list
    card_points: list
    values: dict = field(default_factory=dict)
    seat_counts: tuple = (3,)
    sit_out_when: int = 0             # with this many seats the dealer sits out
    start_score: int = 0
    direction: int = 1                # +1: the deal passes left (clockwise)
    deal_steps: list = field(default_factory=list)   # (rounds, cards each, talon cards)
    face_up: bool = False
    auction_kind: str = "numeric"     # numeric or ladder
    min_bid: object = None            # f(st, env) -> int
    ladder: list = field(default_factory=list)
    ladder_columns: dict = field(default_factory=dict)
    bid_conditions: dict = field(default_factory=dict)   # ladder index -> f
    pass_final: bool = False
    reopen: tuple = ()                # (frozenset of ladder indices, f) or ()
    unpartnered: bool = False
    blind: bool = False
    opener: str = "left-of-dealer"
    contract_steps: list = field(default_factory=list)
    first_lead: tuple = ("left-of-dealer", None, None)
    follow: tuple = ()
    trick_trumps: bool = True
    open_hand: object = None
    concede: object = None
    melds: list = field(default_factory=list)
    deal_points: object = None
    made: object = None
    score_rules: list = field(default_factory=list)      # (when f or None, payee, f)
    game_end: object = None
    winner_set: tuple = ("every", None)
    winner_prefs: tuple = ()
    rules: dict = field(default_factory=dict)            # rule name -> syntax Item
    examples: str = ""
    tables_data: dict = field(default_factory=dict)

    def __post_init__(self):
        self.n_suits = len(self.suits)
        self.n_ranks = len(self.ranks)
        self.n_cards = self.n_suits * self.n_ranks
        R = self.n_ranks
        self.card_suit = [c // R for c in range(self.n_cards)]
        self.card_rank = [c % R for c in range(self.n_cards)]
        self.suit_mask = [((1 << R) - 1) << (s * R) for s in range(self.n_suits)]
        self.full_deck = (1 << self.n_cards) - 1
        self.card_names = [self.ranks[c % R] + self.suits[c // R] for c in range(self.n_cards)]
        self.card_by_name = {n: i for i, n in enumerate(self.card_names)}
        self.suit_words = [SUIT_NAMES[s] for s in self.suits]
        self.hand_size = sum(r * c for r, c, _ in self.deal_steps)
        self.talon_size = sum(r * t for r, _, t in self.deal_steps)
        n = self.n_cards
        # Action encoding: see Deal.action_to_string.
        self.A_MELD = n
        self.A_PASS = n * (1 + len(self.melds))
        self.A_PASS_BLIND = self.A_PASS + 1
        self.A_LOOK = self.A_PASS + 2
        self.A_ABANDON = self.A_PASS + 3
        self.A_CONCEDE = self.A_PASS + 4
        self.A_TRUMPS = self.A_PASS + 8            # + suit, or + 4 for none
        self.A_GIVE = self.A_PASS + 16             # + seat * n + card
        self.A_LADDER = self.A_GIVE + 8 * n        # + 2 * index (+1 blind)
        self.A_NUMBER = self.A_LADDER + 2 * max(len(self.ladder), 1)  # + 4*v (+1 blind, +2 contract)
        pts = sum(self.card_points)
        self.max_points = pts + self._max_meld_total()
        self.shuffle_steps = tuple((i, i + 1, (i + 1).bit_length()) for i in reversed(range(1, self.n_cards)))
        self._build_play_tables()

    def _build_play_tables(self):
        """Tables the play loop reads instead of computing: the meld leads (a card mask
        per meld and suit, with its lead actions in sorted order) and, for every choice
        of trumps and suit led, each card's strength in the trick (0: cannot win it)."""
        R, n = self.n_ranks, self.n_cards
        self.meld_leads = []
        for mi, m in enumerate(self.melds):
            for suit in range(self.n_suits):
                cards = sorted(suit * R + r for r in m.ranks)
                mask = 0
                for c in cards:
                    mask |= 1 << c
                self.meld_leads.append((mask, tuple(self.A_MELD + mi * n + c for c in cards)))
        # trick_keys[trumps + 1][suit led][card]: a higher key beats a lower one.
        self.trick_keys = []
        for t in range(-1, self.n_suits):
            per_led = []
            for led in range(self.n_suits):
                keys = []
                for c in range(n):
                    s, r = self.card_suit[c], self.card_rank[c]
                    if s == t and self.trick_trumps:
                        keys.append(2 * R - r)
                    elif s == led:
                        keys.append(R - r)
                    else:
                        keys.append(0)
                per_led.append(keys)
            self.trick_keys.append(per_led)
        self._follow_src = self._follow_fn = None
        # beats[trumps + 1][suit led][card]: the mask of the cards that beat it.
        self.beats = [[[sum(1 << c for c in range(n) if keys[c] > keys[w]) for w in range(n)]
                       for keys in per_led] for per_led in self.trick_keys]

    def follow_fn(self):
        """The follow rules compiled to one function f(hand, suit led, trumps, winning
        card) -> the cards of hand allowed on the trick. Rebuilt if `follow` changes."""
        if self._follow_src is not self.follow:
            self._follow_fn = _compile_follow(self.follow, self.suit_mask, self.beats)
            self._follow_src = self.follow
        return self._follow_fn

    def deal_plan(self, active: list, dealer: int):
        """Where each position of a shuffled deck goes when dealt to `active` (indices
        into it; len(active) for the talon), and the deck position of the dealer's last
        card (-1 if the dealer sits out); None if the deal steps do not deal the deck
        exactly (set_cards then says why)."""
        key = (tuple(active), dealer)
        plans = self.__dict__.setdefault("_deal_plans", {})
        if key in plans:
            return plans[key]
        owner, last = [], -1
        for rounds, each, to_talon in self.deal_steps:
            for _ in range(rounds):
                for i, s in enumerate(active):
                    owner += [i] * each
                    if s == dealer and each:
                        last = len(owner) - 1
                owner += [len(active)] * to_talon
        plan = (tuple(owner), last) if len(owner) == self.n_cards else None
        plans[key] = plan
        return plan

    def _max_meld_total(self):
        """The most all melds could add to one seat: each meld once in every suit,
        at its best worth over every choice of trumps."""
        total = 0
        probe = _Probe()
        for m in self.melds:
            for suit in range(self.n_suits):
                best = 0
                for t in range(-1, self.n_suits):
                    probe.trumps = t
                    try:
                        best = max(best, int(m.worth(probe, Env(0, suit))))
                    except Exception:
                        pass
                total += best
        return total

    # ------------------------------------------------------------- deals
    def active_seats(self, n_seats: int, dealer: int) -> list:
        """Active seats in playing order, starting left of the dealer (R501-6)."""
        d = self.direction
        order = [(dealer + d * i) % n_seats for i in range(1, n_seats + 1)]
        if self.sit_out_when and n_seats == self.sit_out_when:
            order.remove(dealer)
        return order

    def new_deal(self, n_seats: int, dealer: int, scores=None, deal_number: int = 1) -> "Deal":
        return Deal(self, n_seats, dealer, scores, deal_number)

    def parse_card(self, text: str) -> int:
        t = text.strip().upper().replace("♠", "S").replace("♥", "H").replace("♦", "D").replace("♣", "C")
        if t[:1] == "T":
            t = "10" + t[1:]
        c = self.card_by_name.get(t)
        if c is None:
            raise ValueError(f"`{text}` is not a card of this deck "
                             f"(ranks {' '.join(self.ranks)}, suits {' '.join(self.suits)})")
        return c


class Deal:
    """The state of one deal."""

    def __init__(self, game: Game, n_seats: int, dealer: int, scores=None, deal_number: int = 1):
        g = self.game = game
        self.n_seats = n_seats
        self.all_seats = list(range(n_seats))
        self.dealer = dealer
        self.deal_number = deal_number
        self.scores = list(scores) if scores is not None else [g.start_score] * n_seats
        self.scores_before = list(self.scores)
        self.active = g.active_seats(n_seats, dealer)
        self.pos = {s: i for i, s in enumerate(self.active)}
        self.n_active = len(self.active)
        self.next_seat = [-1] * n_seats   # the next active seat in playing order
        for i, s in enumerate(self.active):
            self.next_seat[s] = self.active[i + 1 - len(self.active)]
        self.phase = None                 # None until dealt (a chance node)
        self.hands = [0] * n_seats
        self.dealt = [0] * n_seats
        self.talon = 0
        self.exposed = -1
        self.exposed_visible = False
        self.looked = [not g.blind] * n_seats
        # auction
        self.turn = -1
        self.opener = self.active[0]
        self.highest = None
        self.highest_bidder = -1
        self.partner = -1
        self.passed = [False] * n_seats
        self.passes = [0] * n_seats
        self.n_bids = 0
        self.first_round_bids = 0
        self.turns_taken = 0
        self.reopened = False             # the speaker speaks again by a reopening rule
        self.declined_at = [-1] * n_seats  # n_bids when the seat passed on a reopening (bounds the auction)
        self.raise_turn = False           # an unpartnered bidder's last turn
        self.annulled = False
        # contract
        self.declarer = -1
        self.declarers = ()
        self.defenders = ()
        self.bid_value = 0
        self.contract_value = 0
        self.entry = None
        self.declarer_blind = False
        self.trumps = None                # suit index, -1 for no trumps, None unnamed
        self.step = 0
        self.talon_shown = False
        self.abandoned = False
        self.abandon_open = False         # the declarer may still abandon
        self.given = [0] * n_seats        # cards received face down
        self.give_count = {}
        # play
        self.leader = -1
        self.trick = []                   # [(seat, card)]
        self.trick_suit = -1
        self.win_seat = -1
        self.win_card = -1
        self.tricks = [0] * n_seats
        self.card_points = [0] * n_seats
        self.tricks_done = 0
        self.tricks_total = 0
        self.history_tricks = []          # [(leader, [(seat, card)], winner)]
        self.melds = []                   # [(seat, meld index, suit, worth)]
        self.pending_trumps = None
        self.hand_shown = False
        self.conceded = False
        # results
        self.made = False
        self.meld_points_of = [0] * n_seats
        self.deal_points_of = [0] * n_seats
        self.deltas = [0] * n_seats
        self.history = []                 # [(seat, action)]

    # ------------------------------------------------------------ chance: the deal
    def current_player(self) -> int:
        if self.phase is None:
            return CHANCE
        if self.phase == DONE:
            return TERMINAL
        return self.turn

    def is_terminal(self) -> bool:
        return self.phase == DONE

    def deal_random(self, rng: random.Random):
        g = self.game
        deck = list(range(g.n_cards))
        if type(rng).shuffle is _SHUFFLE and type(rng)._randbelow is _RANDBELOW:
            # random.Random.shuffle, without a call per card: the same draws, the same deck.
            bits = rng.getrandbits
            for i, m, k in g.shuffle_steps:
                j = bits(k)
                while j >= m:
                    j = bits(k)
                deck[i], deck[j] = deck[j], deck[i]
        else:
            rng.shuffle(deck)
        plan = g.deal_plan(self.active, self.dealer)
        if plan is not None:
            # The deal as set_cards would make it from the same shuffle, without the
            # checks a shuffled full deck cannot fail.
            owner, last_index = plan
            masks = [0] * (len(self.active) + 1)      # the last one is the talon
            for c, o in zip(deck, owner):
                masks[o] |= 1 << c
            for i, s in enumerate(self.active):
                self.hands[s] = self.dealt[s] = masks[i]
            self.talon |= masks[-1]
            self.talon_dealt = self.talon
            if g.face_up:
                if last_index < 0:
                    raise ValueError("this game deals a card face up: the record needs `exposed`")
                self.exposed = deck[last_index]
                self.exposed_visible = True
            self.phase = AUCTION
            self.turn = self.opener
            self._start_auction()
            return
        hands = {s: [] for s in self.active}
        talon = []
        i = 0
        last = -1
        for rounds, each, to_talon in g.deal_steps:
            for _ in range(rounds):
                for s in self.active:
                    hands[s].extend(deck[i:i + each])
                    if s == self.dealer:
                        last = deck[i + each - 1]
                    i += each
                talon.extend(deck[i:i + to_talon])
                i += to_talon
        exposed = last if g.face_up else -1
        self.set_cards(hands, talon, exposed)

    def set_cards(self, hands: dict, talon=(), exposed: int = -1):
        """Deal the given cards (a record's deal). Raises ValueError if they do not fit."""
        g = self.game
        seen = 0
        for s in self.active:
            cards = hands.get(s)
            if cards is None:
                raise ValueError(f"seat {s} is active but has no hand")
            if len(cards) != g.hand_size:
                raise ValueError(f"seat {s} holds {len(cards)} cards; the deal gives {g.hand_size}")
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
        if len(talon) != g.talon_size:
            raise ValueError(f"the talon holds {len(talon)} cards; the deal puts {g.talon_size} there")
        for c in talon:
            if seen & (1 << c):
                raise ValueError(f"{g.card_names[c]} is dealt twice")
            seen |= 1 << c
            self.talon |= 1 << c
        self.talon_dealt = self.talon
        if g.face_up:
            if exposed < 0:
                raise ValueError("this game deals a card face up: the record needs `exposed`")
            holder = self.dealer if self.dealer in self.pos else self.active[-1]
            if not self.hands[holder] >> exposed & 1:
                raise ValueError(f"the exposed card {g.card_names[exposed]} must be in the dealer's hand")
            self.exposed = exposed
            self.exposed_visible = True
        if seen != g.full_deck:
            missing = [g.card_names[c] for c in range(g.n_cards) if not seen >> c & 1]
            raise ValueError("cards not dealt: " + " ".join(missing))
        self.phase = AUCTION
        self.turn = self.opener
        self._start_auction()

    # ------------------------------------------------------------ auction
    def _start_auction(self):
        g = self.game
        if g.opener != "left-of-dealer":
            self.opener = self.turn = self._seat_ref(g.opener)

    def _can_speak(self, s: int) -> bool:
        if not self.passed[s]:
            return True
        g = self.game
        if g.pass_final and g.reopen:
            # A seat that passes on a reopening is not reopened again until someone bids:
            # bids strictly rise, so the auction ends whatever the reopening condition.
            return self.declined_at[s] != self.n_bids and bool(g.reopen[1](self, Env(s)))
        return False

    def _others_can_speak(self):
        side = (self.highest_bidder, self.partner)
        return [s for s in self.active if s not in side and self._can_speak(s)]

    def _bid_list(self, s: int):
        """Legal bids of seat s as (value, is_ladder) pairs, lowest first."""
        g = self.game
        if g.auction_kind == "ladder":
            allowed = g.reopen[0] if self.reopened else None
            start = 0 if self.highest is None else self.highest + 1
            env = Env(s)
            out = []
            for i in range(start, len(g.ladder)):
                if allowed is not None and i not in allowed:
                    continue
                cond = g.bid_conditions.get(i)
                if cond is not None and not cond(self, env):
                    continue
                out.append(i)
            return out
        lo, hi = self._bid_range(s)
        return list(range(lo, hi + 1))

    def _bid_range(self, s: int):
        """Numeric auctions: the lowest and the highest bid seat s may make now."""
        g = self.game
        lo = max(g.min_bid(self, Env(s)), 0)     # never a list of countless negative bids
        if self.highest is not None:
            lo = max(lo, self.highest + 1)
        return lo, max(lo, g.max_points)

    def _auction_actions(self, s: int):
        g = self.game
        acts = [g.A_PASS]
        blind_ok = g.blind and not self.looked[s]
        if blind_ok:
            acts.append(g.A_PASS_BLIND)
            acts.append(g.A_LOOK)
        if g.auction_kind == "ladder":
            for i in self._bid_list(s):
                acts.append(g.A_LADDER + 2 * i)
                if blind_ok:
                    acts.append(g.A_LADDER + 2 * i + 1)
        else:
            for v in self._bid_list(s):
                acts.append(g.A_NUMBER + 4 * v)
                if blind_ok:
                    acts.append(g.A_NUMBER + 4 * v + 1)
        return acts

    def _apply_auction(self, s: int, a: int):
        g = self.game
        first_round = self.turns_taken < len(self.active)
        self.turns_taken += 1
        if a == g.A_PASS or a == g.A_PASS_BLIND:
            if a == g.A_PASS:
                self.looked[s] = True
            if self.raise_turn:
                self.annulled = True
                return self._finish_deal()
            if self.reopened:
                self.declined_at[s] = self.n_bids
            self.passed[s] = True
            self.passes[s] += 1
        else:
            if a >= g.A_NUMBER:
                v, blind = (a - g.A_NUMBER) >> 2, (a - g.A_NUMBER) & 1
            else:
                v, blind = (a - g.A_LADDER) >> 1, (a - g.A_LADDER) & 1
            if not blind:
                self.looked[s] = True
            self.n_bids += 1
            if first_round:
                self.first_round_bids += 1
            joins = g.auction_kind == "ladder" and g.ladder[v].partner == "joins"
            if joins:
                self.partner = s
            else:
                self.highest_bidder = s
                self.partner = -1
            self.highest = v
            if not g.pass_final:
                for t in self.active:
                    self.passed[t] = False
            if self.raise_turn:
                return self._end_auction()
        self._next_speaker(s)

    def _next_speaker(self, s: int):
        g = self.game
        if self.highest is None:
            if not any(self._can_speak(t) for t in self.active):
                self.annulled = True
                return self._finish_deal()
        elif not self._others_can_speak():
            entry = g.ladder[self.highest] if g.auction_kind == "ladder" else None
            if entry is not None and entry.partner == "seeks" and self.partner < 0:
                if g.unpartnered:
                    self.raise_turn = True
                    self.reopened = False
                    self.turn = self.highest_bidder
                    return
                self.annulled = True
                return self._finish_deal()
            return self._end_auction()
        side = (self.highest_bidder, self.partner)
        i = self.pos[s]
        n = len(self.active)
        for k in range(1, n + 1):
            t = self.active[(i + k) % n]
            if t in side:
                continue
            if self._can_speak(t):
                self.turn = t
                self.reopened = self.passed[t]
                return
        self.annulled = True            # cannot happen: guarded above
        self._finish_deal()

    def _end_auction(self):
        g = self.game
        self.raise_turn = False
        self.declarer = self.highest_bidder
        self.declarers = tuple(s for s in self._clockwise_from(self.declarer, include=True)
                               if s in (self.highest_bidder, self.partner))
        self.defenders = tuple(s for s in self._clockwise_from(self.declarer) if s not in self.declarers)
        self.declarer_blind = g.blind and not self.looked[self.declarer]
        for s in self.active:
            self.looked[s] = True
        if g.auction_kind == "ladder":
            self.entry_index = self.highest
            e = self.entry = g.ladder[self.highest]
            self.trumps = {"exposed": g.card_suit[self.exposed] if self.exposed >= 0 else -1,
                           "none": -1}.get(e.trumps)
            self.bid_value = 0
        else:
            self.bid_value = self.contract_value = self.highest
        self.entry = self.entry.columns if self.entry is not None else None
        self.phase = CONTRACT
        self.step = 0
        self.turn = self.declarer
        self._advance_steps()

    def _clockwise_from(self, s: int, include: bool = False):
        i = self.pos[s]
        n = len(self.active)
        return [self.active[(i + k) % n] for k in range(0 if include else 1, n)]

    # ------------------------------------------------------------ contract steps
    def _advance_steps(self):
        """Run automatic steps until the declarer must decide or the play starts."""
        g = self.game
        steps = g.contract_steps
        while self.step < len(steps):
            kind = steps[self.step][0]
            if kind == "show_talon":
                self.talon_shown = True
            elif kind == "abandon":
                self.abandon_open = True
            elif kind == "take_talon":
                self.hands[self.declarer] |= self.talon
            elif kind == "trumps" and self.trumps is not None:
                pass
            elif kind == "give" and self._give_done():
                pass
            else:
                return
            self.step += 1
        self._start_play()

    def _give_done(self):
        n = self.game.contract_steps[self.step][1]
        return all(self.give_count.get(d, 0) >= n for d in self.defenders)

    def _contract_actions(self):
        g = self.game
        steps = g.contract_steps
        kind = steps[self.step][0]
        acts = [g.A_ABANDON] if self.abandon_open else []
        if kind == "trumps":
            acts += [g.A_TRUMPS + s for s in range(g.n_suits)]
            if steps[self.step][1]:
                acts.append(g.A_TRUMPS + 4)
            return sorted(acts)
        if kind == "contract":
            return sorted(acts + [g.A_NUMBER + 4 * v + 2
                                  for v in range(self.bid_value, max(self.bid_value, g.max_points) + 1)])
        if kind == "give":
            n = steps[self.step][1]
            cards = _bits(self.hands[self.declarer])
            for d in sorted(self.defenders):
                if self.give_count.get(d, 0) < n:
                    base = g.A_GIVE + d * g.n_cards
                    acts += [base + c for c in cards]
            return sorted(acts)
        return acts

    def _apply_contract(self, a: int):
        g = self.game
        steps = g.contract_steps
        if a == g.A_ABANDON:
            self.abandoned = True
            return self._finish_deal()
        self.abandon_open = False       # any other decision declines to abandon
        kind = steps[self.step][0]
        if kind == "trumps":
            s = a - g.A_TRUMPS
            self.trumps = -1 if s == 4 else s
        elif kind == "contract":
            self.contract_value = (a - g.A_NUMBER) >> 2
        elif kind == "give":
            k = a - g.A_GIVE
            d, c = divmod(k, g.n_cards)
            self.hands[self.declarer] &= ~(1 << c)
            self.hands[d] |= 1 << c
            self.given[d] |= 1 << c
            self.give_count[d] = self.give_count.get(d, 0) + 1
            if not self._give_done():
                return
        self.step += 1
        self._advance_steps()

    # ------------------------------------------------------------ play
    def _seat_ref(self, ref: str) -> int:
        if ref == "declarer":
            return self.declarer
        if ref == "dealer":
            return self.dealer
        return self.active[0]

    def _start_play(self):
        g = self.game
        self.phase = PLAY
        if self.trumps is None:
            self.trumps = -1
        ref, cond, other = g.first_lead
        if cond is not None and not cond(self, Env()):
            ref = other
        self.leader = self.turn = self._seat_ref(ref)
        self.tricks_total = bin(self.hands[self.active[0]]).count("1")
        self.tricks_left = self.tricks_total

    def _follow_mask(self, hand: int) -> int:
        """The cards of `hand` that the follow rules allow on the current trick."""
        if not self.trick:
            return hand
        return self.game.follow_fn()(hand, self.trick_suit, self.trumps, self.win_card)

    def _play_actions(self, s: int):
        """Sorted: the cards (ascending), then the meld leads (all above the cards)."""
        hand = self.hands[s]
        if self.trick:
            return _bits(self._follow_mask(hand))
        acts = _bits(hand)
        if self.game.melds:
            acts += self._meld_leads(s, hand)
        return acts

    def _meld_leads(self, s: int, hand: int):
        """Lead actions announcing a meld held in `hand`, sorted."""
        out = []
        for mask, acts in self.game.meld_leads:
            if hand & mask == mask:
                out += acts
        return out

    def _apply_play(self, s: int, a: int):
        g = self.game
        if a >= g.A_MELD:
            mi, c = divmod(a - g.A_MELD, g.n_cards)
            m = g.melds[mi]
            suit = g.card_suit[c]
            worth = m.worth(self, Env(s, suit))
            self.melds.append((s, mi, suit, worth))
            if m.makes_trumps:
                self.pending_trumps = suit
        else:
            c = a
        self.hands[s] &= ~(1 << c)
        if c == self.exposed:
            self.exposed_visible = False
        trick = self.trick
        trick.append((s, c))
        k = len(trick)
        if k == 1:
            self.trick_suit = g.card_suit[c]
            # Trumps change, if ever, only between tricks (see pending_trumps).
            self.trick_keys = g.trick_keys[self.trumps + 1][self.trick_suit]
            self.win_seat, self.win_card = s, c
        elif self.trick_keys[c] > self.trick_keys[self.win_card]:
            self.win_seat, self.win_card = s, c
        if k < self.n_active:
            self.turn = self.next_seat[s]
            return
        self._end_trick()

    def _end_trick(self):
        """The trick is complete: its winner takes it and leads the next."""
        g = self.game
        trick = self.trick
        w = self.win_seat
        self.tricks[w] += 1
        cp = g.card_points
        pts = 0
        for _, tc in trick:
            pts += cp[tc]
        self.card_points[w] += pts
        self.history_tricks.append((self.leader, trick, w))
        self.trick = []
        self.tricks_done += 1
        self.tricks_left -= 1
        if self.tricks_done == 1:
            self.exposed_visible = False
            if g.open_hand is not None and g.open_hand(self, _ENV):
                self.hand_shown = True
        if self.pending_trumps is not None:
            self.trumps, self.pending_trumps = self.pending_trumps, None
        self.leader = self.turn = w
        if self.tricks_left == 0:
            self._finish_deal()

    def lost(self) -> bool:
        """The contract can no longer be made (its trick goal is out of reach)."""
        e = self.game.ladder[self.entry_index] if self.entry is not None else None
        if e is None:
            return False
        won = sum(self.tricks[s] for s in self.declarers)
        return won > e.most or won + self.tricks_left < e.least

    def _can_concede(self, s: int) -> bool:
        g = self.game
        return (g.concede is not None and self.phase == PLAY and s == self.declarer
                and self.lost() and (g.concede is True or g.concede(self, _ENV)))

    # ------------------------------------------------------------ the interface
    def legal_actions(self, seat: int | None = None) -> list:
        """Sorted legal actions of `seat` (default: the seat whose turn it is). A seat
        whose turn it is not may still have free actions (look, concede)."""
        if self.phase is None or self.phase == DONE:
            return []
        if seat is None or seat == self.turn:
            s = self.turn
            if self.phase == AUCTION:
                acts = self._auction_actions(s)
            elif self.phase == CONTRACT:
                acts = self._contract_actions()
            else:
                acts = self._play_actions(s)
            if self._can_concede(s):
                acts.append(self.game.A_CONCEDE)
            return sorted(acts)
        return self.free_actions(seat)

    def random_play_action(self, rng) -> int:
        """In the play phase, the action ``rng.choice(self.legal_actions())`` picks: the
        same action from the same random draw, found without building the list."""
        g = self.game
        s = self.turn
        hand = self.hands[s]
        if self.trick:
            mask = self._follow_mask(hand)
            extra = ()
        else:
            mask = hand
            extra = self._meld_leads(s, hand) if g.melds else ()
        n = mask.bit_count()
        total = n + len(extra)
        if g.concede is not None and self._can_concede(s):
            total += 1
        r = rng._randbelow(total)      # as Random.choice draws its index
        if r < n:
            while r:
                mask &= mask - 1
                r -= 1
            return (mask & -mask).bit_length() - 1
        r -= n
        return extra[r] if r < len(extra) else g.A_CONCEDE

    def play_random(self, rng):
        """Play the rest of the play phase at random: each action is the one
        ``random_play_action(rng)`` picks, applied as ``apply_action`` would."""
        g = self.game
        history, hands, next_seat = self.history, self.hands, self.next_seat
        below = rng._randbelow
        # Random.choice draws its index with _randbelow; for random.Random that is
        # getrandbits(k) until below the bound, done here without the call.
        getbits = rng.getrandbits if type(rng)._randbelow is _RANDBELOW else None
        leads = g.meld_leads
        concede = g.concede is not None
        n_active, exposed = self.n_active, self.exposed
        follow = g.follow_fn()
        while self.phase == PLAY:
            # random_play_action, inlined.
            s = self.turn
            hand = hands[s]
            trick = self.trick
            extra = ()
            if trick:
                mask = follow(hand, self.trick_suit, self.trumps, self.win_card)
                n = total = mask.bit_count()
            else:
                mask = hand
                n = total = hand.bit_count()
                if leads:
                    extra = self._meld_leads(s, hand)
                    total += len(extra)
            if concede and self._can_concede(s):
                total += 1
            if not total:
                raise TalonError(f"seat {s} has no card to play: the spec's deal and exchange "
                                 "leave the hands unequal")
            if getbits is not None:
                k = total.bit_length()
                r = getbits(k)
                while r >= total:
                    r = getbits(k)
            else:
                r = below(total)
            if r >= n:
                r -= n
                self.apply_action(extra[r] if r < len(extra) else g.A_CONCEDE)
                continue
            while r:
                mask &= mask - 1
                r -= 1
            c = (mask & -mask).bit_length() - 1
            # apply_action(c), inlined: _apply_play for a card without a meld.
            played = (s, c)
            history.append(played)
            hands[s] = hand ^ (1 << c)          # c is in the hand
            if c == exposed:
                self.exposed_visible = False
            trick.append(played)
            if len(trick) == 1:
                self.trick_suit = g.card_suit[c]
                self.trick_keys = g.trick_keys[self.trumps + 1][self.trick_suit]
                self.win_seat, self.win_card = played
            else:
                keys = self.trick_keys
                if keys[c] > keys[self.win_card]:
                    self.win_seat, self.win_card = played
            if len(trick) < n_active:
                self.turn = next_seat[s]
            else:
                self._end_trick()

    def is_legal(self, a: int, seat: int) -> bool:
        """Like ``a in legal_actions(seat)``, but also for numbers above the listed
        range (numeric bids and contracts have no upper limit)."""
        g = self.game
        if self.phase is None or self.phase == DONE:
            return False
        if seat != self.turn:
            return a in self.free_actions(seat)
        if a >= g.A_NUMBER and g.auction_kind == "numeric":
            v, k = divmod(a - g.A_NUMBER, 4)
            if self.phase == AUCTION and k in (0, 1):
                if k == 1 and not (g.blind and not self.looked[seat]):
                    return False
                lo = g.min_bid(self, Env(seat))
                return v >= (lo if self.highest is None else max(lo, self.highest + 1))
            if self.phase == CONTRACT and k == 2:
                return g.contract_steps[self.step][0] == "contract" and v >= self.bid_value
            return False
        return a in self.legal_actions(seat)

    def free_actions(self, seat: int) -> list:
        g = self.game
        acts = []
        if self.phase == AUCTION and g.blind and seat in self.pos and not self.looked[seat]:
            acts.append(g.A_LOOK)
        if self._can_concede(seat):
            acts.append(g.A_CONCEDE)
        return acts

    def apply_action(self, a: int, seat: int | None = None):
        """Apply action `a` by `seat` (default: the seat whose turn it is). The caller
        checks legality (see ``legal_actions``); replay does."""
        g = self.game
        s = self.turn if seat is None else seat
        self.history.append((s, a))
        if a < g.A_PASS and self.phase == PLAY:
            return self._apply_play(s, a)
        if a == g.A_LOOK:
            self.looked[s] = True
            return
        if a == g.A_CONCEDE:
            self.conceded = True
            return self._finish_deal()
        if self.phase == PLAY:
            return self._apply_play(s, a)
        if self.phase == AUCTION:
            return self._apply_auction(s, a)
        return self._apply_contract(a)

    def returns(self) -> list:
        return list(self.deltas)

    # ------------------------------------------------------------ scoring
    def _finish_deal(self):
        g = self.game
        self.phase = DONE
        self.turn = TERMINAL
        if self.annulled:
            return
        env = Env()
        for (s, mi, suit, worth) in self.melds:
            m = g.melds[mi]
            env.seat, env.suit = s, suit
            if m.counts is None or m.counts(self, env):
                self.meld_points_of[s] += worth
        for s in self.active:
            env.seat = s
            self.deal_points_of[s] = (g.deal_points(self, env) if g.deal_points is not None
                                      else self.card_points[s] + self.meld_points_of[s])
        env.seat = -1
        self.made = bool(g.made(self, env)) if (g.made is not None and not self.conceded
                                                and not self.abandoned) else False
        for when, payee, f in g.score_rules:
            if when is not None and not when(self, env):
                continue
            if payee == "declarer":
                seats = (self.declarer,)
            elif payee == "declarers":
                seats = self.declarers
            elif payee == "defenders":
                seats = self.defenders
            else:
                seats = self.active
            for s in seats:
                env.seat = s
                self.deltas[s] += f(self, env)
        for s in self.all_seats:
            self.scores[s] += self.deltas[s]

    # ------------------------------------------------------------ text of actions
    def action_to_string(self, a: int, seat: int, names=None) -> str:
        g = self.game
        who = names[seat] if names else str(seat)
        if a < g.A_MELD:
            return f"{who} play {g.card_names[a]}"
        if a < g.A_PASS:
            mi, c = divmod(a - g.A_MELD, g.n_cards)
            return f"{who} play {g.card_names[c]} {g.melds[mi].name}"
        if a in (g.A_PASS, g.A_PASS_BLIND):
            return f"{who} pass" + (" blind" if a == g.A_PASS_BLIND else "")
        if a == g.A_LOOK:
            return f"{who} look"
        if a == g.A_ABANDON:
            return f"{who} abandon"
        if a == g.A_CONCEDE:
            return f"{who} concede"
        if g.A_TRUMPS <= a < g.A_TRUMPS + 5:
            s = a - g.A_TRUMPS
            return f"{who} trumps " + ("none" if s == 4 else g.suit_words[s])
        if g.A_GIVE <= a < g.A_LADDER:
            d, c = divmod(a - g.A_GIVE, g.n_cards)
            return f"{who} give {g.card_names[c]} {names[d] if names else d}"
        if g.A_LADDER <= a < g.A_NUMBER:
            i, b = divmod(a - g.A_LADDER, 2)
            return f"{who} bid {g.ladder[i].name}" + (" blind" if b else "")
        v, k = divmod(a - g.A_NUMBER, 4)
        if k == 2:
            return f"{who} contract {v}"
        return f"{who} bid {v}" + (" blind" if k == 1 else "")

    def parse_action(self, words: list, names: dict):
        """Words after the seat -> an action int (not checked for legality)."""
        g = self.game
        if not words:
            raise ValueError("the action has no verb")
        verb, rest = words[0].lower(), [w for w in words[1:]]
        low = [w.lower() for w in rest]
        if verb == "pass":
            if low not in ([], ["blind"]):
                raise ValueError("`pass` takes nothing or `blind`")
            return g.A_PASS_BLIND if low else g.A_PASS
        if verb == "look" and not rest:
            return g.A_LOOK
        if verb == "abandon" and not rest:
            return g.A_ABANDON
        if verb == "concede" and not rest:
            return g.A_CONCEDE
        if verb == "bid":
            if not rest or len(rest) > 2 or (len(rest) == 2 and low[1] != "blind"):
                raise ValueError("`bid` takes a number or a contract name, then optionally `blind`")
            blind = len(rest) == 2
            if rest[0].isdigit():
                if g.auction_kind != "numeric":
                    raise ValueError("bids in this game are contract names: " + ", ".join(c.name for c in g.ladder))
                return g.A_NUMBER + 4 * int(rest[0]) + blind
            for i, c in enumerate(g.ladder):
                if c.name == low[0]:
                    return g.A_LADDER + 2 * i + blind
            raise ValueError(f"`{rest[0]}` is not a bid of this game" + (
                " (contracts: " + ", ".join(c.name for c in g.ladder) + ")" if g.ladder else " (bids are numbers)"))
        if verb == "trumps" and len(rest) == 1:
            w = low[0]
            if w in ("none", "no-trumps", "notrumps", "nt"):
                return g.A_TRUMPS + 4
            w = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}.get(w, w)
            for i, (letter, word) in enumerate(zip(g.suits, g.suit_words)):
                if w in (letter.lower(), word, word[:-1]):
                    return g.A_TRUMPS + i
            raise ValueError(f"`{rest[0]}` is not a suit (spades hearts diamonds clubs, S H D C, or none)")
        if verb == "contract" and len(rest) == 1 and rest[0].isdigit():
            return g.A_NUMBER + 4 * int(rest[0]) + 2
        if verb == "give" and len(rest) == 2:
            c = g.parse_card(rest[0])
            if rest[1] not in names:
                raise ValueError(f"`{rest[1]}` is not a seat at this table")
            return g.A_GIVE + names[rest[1]] * g.n_cards + c
        if verb == "play" and 1 <= len(rest) <= 2:
            c = g.parse_card(rest[0])
            if len(rest) == 1:
                return c
            for mi, m in enumerate(g.melds):
                if m.name == low[1]:
                    return g.A_MELD + mi * g.n_cards + c
            raise ValueError(f"`{rest[1]}` is not an announcement of this game" + (
                " (melds: " + ", ".join(m.name for m in g.melds) + ")" if g.melds else ""))
        raise ValueError(f"`{' '.join(words)}` is not an action: verbs are pass, bid, look, "
                         "abandon, trumps, contract, give, play, concede")

    # ------------------------------------------------------------ views
    def observation(self, seat: int, names=None) -> dict:
        """What `seat` may see: its own hand once it has looked, the talon once shown,
        cards given face down only to their receiver, shown melds, an exposed card or
        hand, the tricks played and the public auction."""
        g = self.game
        nm = (lambda s: names[s]) if names else (lambda s: s)
        cards = lambda m: [g.card_names[c] for c in _bits(m)]
        ob = {
            "seat": nm(seat), "dealer": nm(self.dealer), "phase": self.phase,
            "active": [nm(s) for s in self.active],
            "turn": nm(self.turn) if self.turn >= 0 else None,
            "scores": {nm(s): self.scores[s] for s in self.all_seats},
            "hand": cards(self.hands[seat]) if self.looked[seat] else None,
            "hand_size": bin(self.hands[seat]).count("1"),
            "talon": cards(self.talon) if self.talon_shown else None,
            "exposed": g.card_names[self.exposed] if self.exposed_visible else None,
            "received": cards(self.given[seat]) if self.given[seat] else [],
            "auction": [self.action_to_string(a, s, names) for s, a in self.history
                        if a >= g.A_PASS and a != g.A_LOOK and not (g.A_GIVE <= a < g.A_LADDER)],
            "declarer": nm(self.declarer) if self.declarer >= 0 else None,
            "partners": [nm(s) for s in self.declarers],
            "contract": self.contract_name(),
            "trumps": (None if self.trumps is None else "none" if self.trumps < 0
                       else g.suit_words[self.trumps]),
            "melds": [{"seat": nm(s), "meld": g.melds[mi].name,
                       "cards": [g.card_names[suit * g.n_ranks + r] for r in g.melds[mi].ranks]}
                      for s, mi, suit, _ in self.melds],
            "trick": [[nm(s), g.card_names[c]] for s, c in self.trick],
            "tricks": {nm(s): self.tricks[s] for s in self.active},
            "last_trick": ([[nm(s), g.card_names[c]] for s, c in self.history_tricks[-1][1]]
                           if self.history_tricks else []),
        }
        if self.hand_shown and seat != self.declarer:
            ob["declarer_hand"] = cards(self.hands[self.declarer])
        return ob

    def contract_name(self):
        if self.declarer < 0:
            return None
        if self.entry is not None:
            return self.game.ladder[self.entry_index].name
        return self.contract_value


_ENV = Env()
_RANDBELOW = getattr(random.Random, "_randbelow_with_getrandbits", None)
_SHUFFLE = random.Random.shuffle


class _Probe:
    """A stand-in deal state for evaluating a meld's worth at load time."""
    trumps = -1
    declarer = 0
    declarer_blind = False

    def __getattr__(self, name):
        return 0


_FOLLOW_SOURCE = {
    # Each rule narrows the cards allowed so far when it leaves at least one.
    "suit-led": "    m = cand & suit_mask[led]\n    if m:\n        cand = m\n",
    "trump": "    if trumps >= 0:\n        m = cand & suit_mask[trumps]\n        if m:\n            cand = m\n",
    "beats-trick": "    m = cand & beats[trumps + 1][led][win]\n    if m:\n        cand = m\n",
}


def _compile_follow(follow, suit_mask, beats):
    """Generated source for a sequence of follow rules (see Deal._follow_mask)."""
    src = "def follow(cand, led, trumps, win):\n" + "".join(_FOLLOW_SOURCE[r] for r in follow) + "    return cand\n"
    ns = {"suit_mask": suit_mask, "beats": beats}
    exec(compile(src, "<follow rules>", "exec"), ns)
    return ns["follow"]


def _bits(m: int) -> list:
    """The set bits of `m` (card ints), lowest first."""
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


class Match:
    """Deals played one after another: scores carry, the deal passes on, the game ends
    when the spec's end rule says so, and the winners rule picks the winners."""

    def __init__(self, game: Game, n_seats: int, first_dealer: int = 0, scores=None):
        if n_seats not in game.seat_counts:
            raise ValueError(f"{game.name} is played by {' or '.join(map(str, game.seat_counts))} seats, not {n_seats}")
        self.game = game
        self.n_seats = n_seats
        self.dealer = first_dealer
        self.scores = list(scores) if scores is not None else [game.start_score] * n_seats
        self.deals_played = 0
        self.game_over = False
        self.winners = []
        self.last = None

    def new_deal(self) -> Deal:
        return self.game.new_deal(self.n_seats, self.dealer, self.scores, self.deals_played + 1)

    def finish(self, deal: Deal):
        """Record a finished deal: scores, the next dealer, the end of the game."""
        g = self.game
        self.deals_played += 1
        self.scores = list(deal.scores)
        self.last = deal
        if g.game_end is not None and g.game_end(deal, _ENV):
            self.game_over = True
            self.winners = self.pick_winners(deal)
        self.dealer = (deal.dealer + g.direction) % self.n_seats

    def pick_winners(self, deal: Deal) -> list:
        g = self.game
        kind, f = g.winner_set
        env = Env()
        cand = []
        for s in deal.all_seats:
            env.seat = s
            if kind == "every" or f(deal, env):
                cand.append(s)
        for kind, f in g.winner_prefs:
            if kind == "declarer":
                narrowed = [s for s in cand if s == deal.declarer]
            else:
                vals = {}
                for s in cand:
                    env.seat = s
                    vals[s] = f(deal, env)
                if not vals:
                    continue
                best = (min if kind == "lowest" else max)(vals.values())
                narrowed = [s for s in cand if vals[s] == best]
            if narrowed:
                cand = narrowed
        return cand
