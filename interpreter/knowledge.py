"""What one seat knows of a deal, and deals drawn at random that agree with it.

``Knowledge(deal, seat)`` gathers what `seat` has seen: its own hand (from
``deal.observation(seat)``), the cards played, melds shown, the talon once shown, a
card dealt or turned face up, the cards it gave away face down and where, a hand laid
open, the number of cards each seat holds and the stock's size (public in any card
game), and what the follow rules tell about the cards a seat could not have held when
it played (a suit it failed to follow, a trump it did not play when it had to …).

``Knowledge.sample(rng)`` deals the unseen cards at random among the places they may
be (other hands, the stock, a hidden talon) so that every fact above holds, and
returns a copy of the deal holding that guess: a deal the open-card solver can play
out. Nothing of the real deal's hidden cards goes into the knowledge or the sample.

The follow rules are read by replaying the play phase from public information only
(``PlayLog``): before each card played, a copy of the deal in which nothing
hidden is left (the hands are empty) but everything public is as it was then. Asking
the spec's own follow rules whether the card played would still have been legal had
the seat held some other card tells which cards the seat did not hold (``voids``).
A seat that later drew from the stock may have drawn such a card since; those
inferences are kept only for plays after its last draw.

``Knowledge.auction_hands(sample)`` gives each seat's hand as it was during the
auction in a sample, where hands changed since only by playing (no talon taken, no
cards given, exchanged or drawn); the PIMC player uses it to prefer samples in which
the seats would have bid as they did (``pimc``). Not used: which card a seat gave
face down to another when neither is the seat asking.
"""
from __future__ import annotations

import copy
import random

from .engine import PLAY, bits
from .engine.env import EMPTY
from .engine.play import _rules


# ---------------------------------------------------------------- the public replay
def play_start(deal) -> int:
    """The index in ``deal.history`` of the first action of the play phase (or its
    length when the play has not begun)."""
    c = deal.codec
    for i, (_, a) in enumerate(deal.history):
        if a < c.PASS or a == c.CLOSE or a == c.CONCEDE or c.EXCHANGE <= a < c.GIVE:
            return i
    return len(deal.history)


def _start_trumps(deal) -> int:
    """Trumps when the play began (melds may have changed them since)."""
    g = deal.game
    if not any(g.melds[mi].makes_trumps for _, mi, _, _ in deal.melds):
        return deal.trumps if deal.trumps is not None else -1
    c = deal.codec
    t = None
    for _, a in deal.history[:play_start(deal)]:
        if c.TRUMPS <= a < c.TRUMPS + 5:
            t = a - c.TRUMPS
            t = -1 if t == 4 else t
    if t is not None:
        return t
    exposed = deal.exposed_dealt
    if exposed >= 0 and g.face_up_trumps:
        return g.card_suit[exposed]
    if deal.entry_index >= 0 and g.ladder[deal.entry_index].trumps == "exposed" and exposed >= 0:
        return g.card_suit[exposed]
    return -1


def public_shadow(deal, seat: int):
    """A copy of `deal` with everything `seat` may not see taken out: the other hands,
    their dealt cards, cards given face down between other seats, a talon not shown,
    the stock's cards (its size stays). The public history keeps every action but a
    face-down give between two other seats."""
    g = deal.game
    sh = copy.deepcopy(deal, {id(g): g})
    for t in sh.all_seats:
        if t != seat:
            sh.hands[t] = 0
            sh.dealt[t] = 0
            sh.passing[t] = 0
    c = sh.codec
    mine_given = 0
    for t, a in sh.history:
        if t == seat and c.kind(a) == "give":
            mine_given |= 1 << c.fields(a)["card"]
    sh.given = [(sh.given[t] if t == seat else sh.given[t] & mine_given) for t in sh.all_seats]
    if not deal.talon_shown:
        sh.talon = 0
        sh.talon_dealt = 0
    sh.stock = [-1] * len(deal.stock)
    sh.stock_dealt = [-1] * len(deal.stock_dealt)
    sh.history = [(t, a) for t, a in sh.history
                  if not (c.kind(a) == "give" and t != seat and c.fields(a)["seat"] != seat)]
    return sh


class PlayLog:
    """The play phase replayed from what `seat` may see.

    events()   yields (i, actor, action, state) before each action
    draws      [(event index after which, drawer, stock position)]: who drew which
               card of the stock after each trick (the position counts from the top
               of the stock as dealt)
    face_up    [(event index, seat, card)]: a face-up card taken into a hand (by
               exchanging, or drawn as the stock's last card)
    """

    def __init__(self, deal, seat: int):
        self.deal = deal
        self.seat = seat
        self.draws = []
        self.face_up = []

    def events(self):
        deal, g = self.deal, self.deal.game
        c = deal.codec
        st = public_shadow(deal, self.seat)
        start = play_start(deal)
        acts = deal.history[start:]
        # the state when the play began
        n = st.n_seats
        st.phase = PLAY
        st.trick = []
        st.tricks = [0] * n
        st.card_points = [0] * n
        st.taken = [0] * n
        st.melds = []
        st.played = 0
        st.closed = False
        st.closer = -1
        st.tricks_at_close = [0] * n
        st.tricks_done = 0
        st.history_tricks = []
        st.hand_shown = False
        st.pending_trumps = None
        st.trumps = _start_trumps(deal)
        st.exposed = deal.exposed_dealt
        st.exposed_visible = deal.exposed_dealt >= 0
        st.stock = [-1] * len(deal.stock_dealt)
        st.last_trick_winner = -1
        pos = 0                       # stock cards drawn so far (from the top)
        melds = list(deal.melds)
        tricks = list(deal.history_tricks)
        if acts:
            st.leader = st.turn = acts[0][0]
        st.tricks_left = deal.tricks_total
        for i, (t, a) in enumerate(acts):
            st.turn = t
            yield i, t, a, st
            if a == c.CONCEDE:
                return
            if a == c.CLOSE:
                st.closed, st.closer, st.tricks_at_close = True, t, list(st.tricks)
                continue
            if c.EXCHANGE <= a < c.GIVE:
                card = a - c.EXCHANGE
                self.face_up.append((i, t, st.exposed))
                st.exposed = card
                continue
            if a >= c.MELD:
                mi, card = divmod(a - c.MELD, g.n_cards)
                rec = melds.pop(0) if melds else (t, mi, g.card_suit[card], 0)
                st.melds.append(rec)
                if g.melds[mi].makes_trumps:
                    st.pending_trumps = g.card_suit[card]
            else:
                card = a
            st.played |= 1 << card
            if card == st.exposed and g.face_up == "dealer-last":
                st.exposed_visible = False
            st.trick.append((t, card))
            if len(st.trick) == 1:
                st.trick_suit = g.card_suit[card]
                st.trick_keys = g.trick_keys[st.trumps + 1][st.trick_suit]
                st.win_seat, st.win_card = t, card
            elif st.trick_keys[card] > st.trick_keys[st.win_card]:
                st.win_seat, st.win_card = t, card
            if len(st.trick) < st.n_active:
                continue
            # the trick is complete
            k = len(st.history_tricks)
            w = tricks[k][2] if k < len(tricks) else st.win_seat
            st.tricks[w] += 1
            for _, x in st.trick:
                st.card_points[w] += g.card_points[x]
                st.taken[w] |= 1 << x
            st.history_tricks.append((st.leader, st.trick, w))
            st.trick = []
            st.tricks_done += 1
            if st.tricks_done == 1:
                if g.face_up == "dealer-last":
                    st.exposed_visible = False
                if g.open_hand is not None and g.open_hand(st, EMPTY):
                    st.hand_shown = True
            if st.pending_trumps is not None:
                st.trumps, st.pending_trumps = st.pending_trumps, None
            if g.draw and not st.closed and st.stock:
                for d in st.clockwise_from(w, include=True):
                    if not st.stock:
                        break
                    st.stock.pop()
                    self.draws.append((i, d, pos))
                    if not st.stock and g.face_up == "stock-bottom" and st.exposed >= 0:
                        self.face_up.append((i, d, st.exposed))
                    pos += 1
            st.leader = st.turn = w


# ---------------------------------------------------------------- what a seat knows
class Knowledge:
    """What `seat` knows of `deal` now (see the module's docstring).

    hand      its own cards (a mask)
    gone      cards played (a mask)
    sizes     {seat: cards held} for the other active seats
    where     {card: frozenset of seats}: cards known to be in one of these hands
    stock     [card or -1] the stock as far as it is known (-1: unknown), top first
    talon     the number of unseen cards in a talon nobody has taken
    voids     {seat: mask}: cards that seat cannot hold
    unseen    the cards whose place is not known for certain (a mask)
    """

    def __init__(self, deal, seat: int):
        g = self.game = deal.game
        self.deal_ref = deal
        self.seat = seat
        ob = deal.observation(seat)
        by = g.card_by_name
        self.hand = _mask(ob["hand"] or (), by)
        c = deal.codec
        hist = deal.history
        start = play_start(deal)
        gone = 0
        for _, a in hist[start:]:
            if a < c.PASS:
                gone |= 1 << (a if a < c.MELD else (a - c.MELD) % g.n_cards)
        self.gone = gone
        self.active = [t for t in deal.active]
        self.others = [t for t in deal.active if t != seat]
        # hand sizes are public: everyone sees how many cards each seat holds
        self.sizes = {t: deal.hands[t].bit_count() for t in self.others}
        where = {}

        def put(card, seats):
            if card >= 0 and not (gone >> card & 1) and not (self.hand >> card & 1):
                old = where.get(card)
                seats = frozenset(seats)
                where[card] = seats if old is None else (old & seats or seats)

        # a card dealt face up to the dealer stays in its hand until played
        if g.face_up == "dealer-last" and deal.exposed_dealt >= 0:
            holder = deal.dealer if deal.dealer in deal.pos else deal.active[-1]
            put(deal.exposed_dealt, [holder])
        # cards this seat gave face down, and to whom
        for t, a in hist:
            if t == seat and c.kind(a) == "give":
                f = c.fields(a)
                put(f["card"], [f["seat"]])
        # the talon, once shown and taken: the declarer's, or given on to a defender
        if ob["talon"] is not None and deal.declarer >= 0 and not deal.talon:
            takers = {deal.declarer}
            for t, a in hist:
                if t == deal.declarer and c.kind(a) == "give":
                    takers.add(c.fields(a)["seat"])
            takers.discard(seat)
            for card in bits(_mask(ob["talon"], by)):
                if deal.declarer == seat:
                    continue          # the declarer knows where each went
                put(card, takers)
        # melds shown: the cards not yet played are still with their announcer
        for m in ob["melds"]:
            announcer = m["seat"]
            for name in m["cards"]:
                put(by[name], [announcer])
        # a hand laid open
        if ob.get("declarer_hand") is not None:
            for name in ob["declarer_hand"]:
                put(by[name], [deal.declarer])
        # the replay: face-up cards taken into hands, and the follow rules' lessons
        log = PlayLog(deal, seat)
        self.voids = {t: 0 for t in self.others}
        events = []
        for i, t, a, st in log.events():
            if t != seat and a < c.PASS:
                card = a if a < c.MELD else (a - c.MELD) % g.n_cards
                events.append((i, t, card, _probe_state(st)))
        for i, t, card in log.face_up:
            put(card, [t])
        last_draw = {}
        for i, t, _ in log.draws:
            last_draw[t] = i
        candidates = g.full_deck & ~gone & ~self.hand
        for i, t, card, probe in events:
            if i <= last_draw.get(t, -1) or t not in self.voids:
                continue                  # it may have drawn the card since
            self.voids[t] |= _not_held(g, probe, card, candidates)
        # the stock: its size is public, some of its cards may be known
        stock = [-1] * len(deal.stock)
        if deal.stock and deal.exposed_visible and deal.exposed >= 0:
            if g.face_up == "stock-bottom":
                stock[-1] = deal.exposed
            elif g.face_up == "stock-top" and not g.draw:
                stock[0] = deal.exposed
        self.stock = stock
        self.talon = deal.talon.bit_count() if not deal.talon_shown else 0
        self.talon_known = deal.talon if deal.talon_shown else 0
        in_stock = 0
        for x in stock:
            if x >= 0:
                in_stock |= 1 << x
        for x in list(where):
            if in_stock >> x & 1:
                del where[x]
        self.where = where
        self.unseen = g.full_deck & ~gone & ~self.hand & ~in_stock & ~self.talon_known
        self._template = None
        self.deal_shape = (deal.n_seats, tuple(deal.active))
        # the cards each seat has played, for its hand as it was in the auction
        played_by = {t: 0 for t in deal.active}
        for t, a in hist[start:]:
            if a < c.PASS and t in played_by:
                played_by[t] |= 1 << (a if a < c.MELD else (a - c.MELD) % g.n_cards)
        self.played_by = played_by
        self.auction_end = _auction_end(deal)
        self.hands_kept = _hands_kept(deal, played_by)

    # ------------------------------------------------------------ sampling
    def places(self) -> dict:
        """Each place an unseen card may be -> how many unseen cards it takes."""
        cap = {}
        for t in self.others:
            cap[("hand", t)] = self.sizes[t]
        cap[("stock",)] = sum(1 for x in self.stock if x < 0)
        cap[("talon",)] = self.talon
        return cap

    def allowed_places(self, card: int) -> list:
        out = []
        seats = self.where.get(card)
        for t in self.others:
            if seats is not None and t not in seats:
                continue
            if self.voids.get(t, 0) >> card & 1:
                continue
            out.append(("hand", t))
        if seats is None:
            out.append(("stock",))
            out.append(("talon",))
        return out

    def assign(self, rng: random.Random):
        """Unseen cards -> places, at random, every fact respected; None if it fails."""
        cap = {p: n for p, n in self.places().items() if n > 0}
        cards = bits(self.unseen)
        opts = {x: [p for p in self.allowed_places(x) if p in cap] for x in cards}
        if sum(cap.values()) != len(cards):
            return None
        rng.shuffle(cards)
        cards.sort(key=lambda x: len(opts[x]))
        members = {p: [] for p in cap}
        place = {}
        for x in cards:
            free = [p for p in opts[x] if len(members[p]) < cap[p]]
            if free:
                weights = [cap[p] - len(members[p]) for p in free]
                p = rng.choices(free, weights)[0]
                members[p].append(x)
                place[x] = p
                continue
            if not _augment(x, opts, cap, members, place, rng):
                return None
        return members

    def template(self):
        if self._template is None:
            self._template = public_shadow(self.deal_ref, self.seat)
        return self._template

    def sample(self, rng: random.Random, tries: int = 50):
        """A copy of the deal with the unseen cards placed at random, consistent with
        everything this seat knows; None when no placement was found."""
        for _ in range(tries):
            members = self.assign(rng)
            if members is None:
                continue
            d = self._build(members, rng)
            if self.check(d):
                return d
        return None

    def _build(self, members: dict, rng: random.Random):
        g = self.game
        tpl = self.template()
        d = copy.deepcopy(tpl, {id(g): g})
        d.hands[self.seat] = self.hand
        for t in self.others:
            m = 0
            for x in members.get(("hand", t), ()):
                m |= 1 << x
            d.hands[t] = m
        unknown = list(members.get(("stock",), ()))
        rng.shuffle(unknown)
        stock = list(self.stock)
        for k, x in enumerate(stock):
            if x < 0:
                stock[k] = unknown.pop()
        d.stock = stock
        if self.talon:               # a talon nobody has seen
            talon = 0
            for x in members.get(("talon",), ()):
                talon |= 1 << x
            d.talon = d.talon_dealt = talon
        for t in self.others:
            d.dealt[t] = d.hands[t]
        return d

    def auction_hands(self, d) -> dict | None:
        """{seat: its hand during the auction} for a sample `d` of this deal, or None
        when hands changed since otherwise than by playing cards (a talon taken,
        cards given, exchanged or drawn): then the sample alone does not tell."""
        if not self.hands_kept:
            return None
        return {t: d.hands[t] | self.played_by[t] for t in self.active}

    def check(self, d) -> bool:
        """The sample agrees with what this seat knows (sizes, known places, voids)."""
        seen = 0
        for t in self.active:
            h = d.hands[t]
            if seen & h:
                return False
            seen |= h
            if t != self.seat and h.bit_count() != self.sizes[t]:
                return False
            if t != self.seat and h & self.voids.get(t, 0):
                return False
        if d.hands[self.seat] != self.hand:
            return False
        for x, seats in self.where.items():
            if not any(d.hands[t] >> x & 1 for t in seats):
                return False
        return True


def _auction_end(deal) -> int:
    """The index in ``deal.history`` just past the auction's last action."""
    c = deal.codec
    end = 0
    for i, (_, a) in enumerate(deal.history):
        if c.kind(a) in ("bid", "pass", "look"):
            end = i + 1
        elif a < c.PASS:
            break
    return end


def _hands_kept(deal, played_by: dict) -> bool:
    """Every active seat's hand now is its hand as dealt less the cards it played: no
    talon taken, no cards given, exchanged or drawn (the history has no action
    moving cards but plays, and each hand's size adds up)."""
    g = deal.game
    c = deal.codec
    if g.draw or deal.talon.bit_count() != deal.talon_dealt.bit_count():
        return False
    for _, a in deal.history:
        if c.kind(a) in ("give", "exchange", "close"):
            return False
    for t in deal.active:
        if deal.dealt[t].bit_count() != deal.hands[t].bit_count() + played_by[t].bit_count():
            return False
    return True


def _mask(names, by) -> int:
    m = 0
    for n in names:
        m |= 1 << by[n]
    return m


def _augment(x, opts, cap, members, place, rng) -> bool:
    """Place card x by moving others along a path of places (a bipartite matching's
    augmenting path); False when there is none."""
    from collections import deque
    start = [p for p in opts[x]]
    rng.shuffle(start)
    prev = {}
    queue = deque()
    for p in start:
        if p not in prev:
            prev[p] = (None, x)
            queue.append(p)
    while queue:
        p = queue.popleft()
        if len(members[p]) < cap[p]:
            # walk back: the card that came from the previous place moves into p
            while True:
                q, y = prev[p]
                if q is not None:
                    members[q].remove(y)
                members[p].append(y)
                place[y] = p
                if q is None:
                    return True
                p = q
        for y in list(members[p]):
            for q in opts[y]:
                if q not in prev and q != p:
                    prev[q] = (p, y)
                    queue.append(q)
    return False


def _probe_state(st):
    """What the follow rules need of a public state, kept past the replay's next step."""
    p = copy.copy(st)
    p.trick = list(st.trick)
    p.tricks = list(st.tricks)
    p.card_points = list(st.card_points)
    p.taken = list(st.taken)
    p.melds = list(st.melds)
    p.stock = list(st.stock)
    p.hands = list(st.hands)
    return p


def _not_held(g, st, card: int, candidates: int) -> int:
    """The candidate cards the seat cannot have held when it played `card` in state
    `st`: had it held one of them, the rules would not have allowed `card`."""
    follow, lead = _rules(g)
    out = 0
    bit = 1 << card
    for x in bits(candidates):
        hand = bit | (1 << x)
        if st.trick:
            allowed = follow(st, hand, st.trick_suit, st.trumps, st.win_card)
        else:
            allowed = lead(st, hand)
        if not allowed & bit:
            out |= 1 << x
    return out
