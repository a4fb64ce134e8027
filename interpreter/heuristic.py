"""A player with card sense and no search: ``HeuristicAgent(rng).act(deal) -> action``.

It reads only what its seat may see (its hand through ``deal.observation(seat)``, the
cards played, the public auction and contract) and knows no game by name: every
judgement comes from the spec's tables and scoring.

Bidding
    The hand's worth is estimated from the tables: sure tricks (the top cards of a
    suit held in sequence), guarded high cards, trump length; in games whose deck
    carries card points, the points those tricks bring in (the hand's own high cards
    and a share of the others'), melds held (their worth by the spec's own formula,
    with the trumps the seat would choose) and a share of a talon the declarer takes.
    It bids the least it may while that stays within what the hand can plausibly
    make, and passes beyond. A contract to take no trick is bid only with a hand of
    low cards that can always play under. One-bid-each auctions bid the estimate.

The declarer's steps
    Trumps: the suit that makes the hand worth most. The final contract: the bid,
    raised only with a wide margin. Cards given away: the least useful (no points, no
    meld, no trump, not a winner). Abandoning: when even the best trumps leave the hand
    well short of the bid. Passing cards: the most dangerous ones when the spec's
    points are penalties, else the smallest.

Card play
    Whether the seat's side wants more tricks, and whether card points help it, is read
    off the spec's scoring (``Outlook``: the deal scored as if the remaining tricks
    fell one way or another). Wanting tricks: lead melds and sure winners, draw trumps
    when long in them, win a trick with the cheapest card that holds it, give points to
    a partner's sure trick, discard the least useful card. Avoiding tricks: play the
    highest card that still loses, shed dangerous cards (points, when they are
    penalties) on the others' tricks, lead low.
"""
from __future__ import annotations

import copy
import random

from .engine import AUCTION, CONTRACT, DONE, EXCHANGE, PLAY, bits
from .engine.env import Env
from .engine.scoring import settle
from .knowledge import public_shadow
from .solver import score_sign, teams


# ---------------------------------------------------------------- the hand's worth
class Hand:
    """A hand seen by its holder, with the cards still unseen (not held, not played)."""

    def __init__(self, g, hand: int, gone: int = 0):
        self.g = g
        self.hand = hand
        self.unseen = g.full_deck & ~hand & ~gone

    def suit(self, s: int) -> int:
        return self.hand & self.g.suit_mask[s]

    def length(self, s: int) -> int:
        return self.suit(s).bit_count()

    def top_run(self, s: int) -> int:
        """How many of the highest cards still out of others' reach the hand holds in
        a row: its sure winners in suit s."""
        g = self.g
        live = (self.hand | self.unseen) & g.suit_mask[s]
        run = 0
        while live:
            low = live & -live
            if not self.hand & low:
                break
            run += 1
            live ^= low
        return run

    def is_master(self, c: int) -> bool:
        """No unseen card of its suit ranks above it."""
        g = self.g
        above = self.unseen & g.suit_mask[g.card_suit[c]] & ((1 << c) - 1)
        return not above


def trick_estimate(g, hand: int, trumps: int, n_active: int, gone: int = 0) -> float:
    """The tricks a hand may expect to take with these trumps (-1: none)."""
    h = Hand(g, hand, gone)
    R = g.n_ranks
    est = 0.0
    trumps_in_deck = R if trumps >= 0 else 0
    for s in range(g.n_suits):
        L = h.length(s)
        if not L:
            continue
        run = min(h.top_run(s), L)
        rounds = max(1, R // max(n_active, 1))
        if s == trumps or trumps < 0:
            est += run
        else:
            est += min(run, rounds)          # later rounds are ruffed
        # guarded high cards below the run: the rank-r card needs r guards
        mine = sorted(g.card_rank[c] for c in bits(h.suit(s)))
        for k, r in enumerate(mine):
            if k < run:
                continue
            if r < n_active and L - 1 >= r:
                est += 0.5 if r == 1 else 0.25
        if s == trumps:
            share = trumps_in_deck / max(n_active, 1)
            est += max(0.0, L - share - run) * 0.9
        elif trumps < 0 and run and L > 4:
            est += (L - 4) * 0.5
    return est


def meld_worth(deal, seat: int, hand: int, trumps: int) -> int:
    """The worth of the melds `hand` holds, by the spec's formulas, with these trumps."""
    g = deal.game
    if not g.melds:
        return 0
    probe = copy.copy(deal)
    probe.trumps = trumps
    total = 0
    for mask, _, mi, suit in g.meld_leads:
        if hand & mask == mask:
            try:
                total += int(g.melds[mi].worth(probe, Env(seat, suit)))
            except (TypeError, ValueError, ZeroDivisionError):
                pass
    return total


def point_estimate(deal, seat: int, hand: int, trumps: int, extra_cards: int = 0, gone: int = 0) -> float:
    """The card and meld points a hand may expect to bring home as declarer, with a
    share of `extra_cards` unseen cards still to come (a talon)."""
    g = deal.game
    n = max(deal.n_active, 1)
    cp = g.card_points
    h = Hand(g, hand, gone)
    unseen = bits(h.unseen)
    avg = sum(cp[c] for c in unseen) / max(len(unseen), 1)
    tricks = trick_estimate(g, hand, trumps, n, gone)
    sure = 0
    for s in range(g.n_suits):
        run = h.top_run(s)
        live = hand & g.suit_mask[s]
        for _ in range(run):
            low = live & -live
            sure += cp[low.bit_length() - 1]
            live ^= low
    rest = sum(cp[c] for c in bits(hand)) - sure
    est = sure + tricks * (n - 1) * avg + 0.35 * rest
    est += meld_worth(deal, seat, hand, trumps)
    est += extra_cards * avg * 0.5
    return est


def best_trumps(deal, seat: int, hand: int, choices, points: bool, extra_cards: int = 0):
    """(worth, trumps) for the best of `choices` (suits, -1 for none)."""
    g = deal.game
    best = None
    for t in choices:
        if points:
            v = point_estimate(deal, seat, hand, t, extra_cards)
        else:
            v = trick_estimate(g, hand, t, deal.n_active)
        if best is None or v > best[0]:
            best = (v, t)
    return best


def keeps_under(g, hand: int, n_active: int) -> int:
    """How many cards of the hand cannot count on a lower card of their suit being
    played under them by the others (0: the hand can lose every trick)."""
    bad = 0
    for s in range(g.n_suits):
        mine = sorted((g.n_ranks - 1 - g.card_rank[c] for c in bits(hand & g.suit_mask[s])))
        for k, lowness in enumerate(mine):     # lowness: cards of the suit below it
            if lowness > 2 * k + 1:
                bad += 1
    return bad


# ---------------------------------------------------------------- what the side wants
class Outlook:
    """What the spec's scoring makes the seat's side want from the rest of the play:
    the deal is scored (on a copy without hidden cards) as if the side took k of the
    remaining tricks, the points going with the tricks. `target` is the k that scores
    best (the side wants tricks while it has fewer); `points_good` tells whether card
    points taken help the side (False: they are penalties)."""

    def __init__(self, deal, seat: int):
        g = deal.game
        self.side, self.others = teams(deal, seat)
        side_set = set(self.side)
        left = deal.tricks_left
        sign = score_sign(g)
        scratch = public_shadow(deal, seat)
        remaining_points = sum(g.card_points[c] for c in bits(g.full_deck & ~deal.played))
        base_tricks = list(deal.tricks)
        base_points = list(deal.card_points)
        others = [t for t in deal.active if t not in side_set]
        me = seat

        def score(k: int, shift: int = 0) -> float:
            d = copy.copy(scratch)
            d.tricks = list(base_tricks)
            d.card_points = list(base_points)
            d.deltas = [0] * d.n_seats
            d.scores = list(scratch.scores)
            d.counters = {a: list(b) for a, b in scratch.counters.items()}
            d.lets = {}
            d.meld_points_of = list(scratch.meld_points_of)
            d.deal_points_of = list(scratch.deal_points_of)
            per = remaining_points / max(left, 1)
            d.tricks[me] += k
            d.card_points[me] += int(per * k) + shift
            rest = left - k
            for i in range(rest):
                t = others[i % len(others)] if others else me
                d.tricks[t] += 1
                d.card_points[t] += int(per)
            if others and shift:
                d.card_points[others[0]] -= shift
            d.tricks_done = deal.tricks_done + left
            d.tricks_left = 0
            d.trick = []
            d.hands = [0] * d.n_seats
            d.phase = DONE
            try:
                settle(d)
            except Exception:          # a formula the probe cannot answer: no opinion
                return 0.0
            a = sum(d.deltas[t] for t in self.side) / len(self.side)
            b = sum(d.deltas[t] for t in self.others) / len(self.others) if self.others else 0
            return sign * (a - b)

        self.curve = [score(k) for k in range(left + 1)]
        top = max(self.curve) if self.curve else 0
        # the fewest further tricks that score best
        self.target = next((k for k, v in enumerate(self.curve) if v == top), 0)
        self.flat = bool(self.curve) and min(self.curve) == top
        if g.points_mask and left:
            step = max(5, remaining_points // max(left, 1))
            mid = min(max(self.target, 0), left)
            self.points_good = score(mid, step) >= score(mid, -step)
        else:
            self.points_good = True

    def wants_tricks(self) -> bool:
        return self.target > 0 or self.flat


# ---------------------------------------------------------------- the agent
# Ladder contracts: the part of a contract's trick goal the hand's estimate must cover.
# The estimate counts sure tricks and a share of guarded honours and long trumps, and
# so falls short of what a hand takes in play; a seat that seeks a partner carries about
# half the goal, one that joins it less (the seeker has shown its hand's strength).
PLAIN_SHARE = 0.75
SEEK_SHARE = 0.4
JOIN_SHARE = 0.3


class HeuristicAgent:
    """Plays by the rules of thumb above. `margin` is how much below its estimate a
    hand bids (a fraction); `rng` breaks ties."""

    def __init__(self, rng: random.Random | None = None, margin: float = 0.12):
        self.rng = rng or random.Random(0)
        self.margin = margin
        self._outlook = None

    def act(self, deal) -> int:
        s = deal.turn
        acts = deal.legal_actions()
        if len(acts) == 1:
            return acts[0]
        c = deal.codec
        if c.LOOK in acts:
            return c.LOOK                  # look at the cards before bidding
        # from here on the agent works on a copy of the deal without what its seat
        # cannot see (the other hands, a hidden talon, the stock's cards …)
        deal = public_shadow(deal, s)
        if deal.phase == AUCTION:
            return self._bid(deal, s, acts)
        if deal.phase == CONTRACT:
            return self._step(deal, s, acts)
        if deal.phase == EXCHANGE:
            return self._pass_card(deal, s, acts)
        if deal.phase == PLAY:
            return self._play(deal, s, acts)
        return acts[0]

    def bid(self, deal) -> int:
        """The bid or pass ``act`` would choose in the auction, without first taking the
        hidden cards out of `deal`: for a deal that is itself a guess (the PIMC
        player's check of a sample against the auction), where hiding costs time
        and protects nothing."""
        s = deal.turn
        acts = deal.legal_actions()
        c = deal.codec
        if len(acts) == 1:
            return acts[0]
        if c.LOOK in acts:
            return c.LOOK
        return self._bid(deal, s, acts)

    # ------------------------------------------------------------ what the seat sees
    @staticmethod
    def my_hand(deal, s: int) -> int:
        g = deal.game
        ob = deal.observation(s)
        m = 0
        for name in ob["hand"] or ():
            m |= 1 << g.card_by_name[name]
        return m

    # ------------------------------------------------------------ bidding
    def _points_game(self, g) -> bool:
        return bool(g.points_mask)

    def _talon_share(self, deal, s: int) -> int:
        """Unseen cards a declarer would add to its hand (a talon taken)."""
        g = deal.game
        if any(k == "take_talon" for k, *_ in g.contract_steps):
            return deal.talon_dealt.bit_count() if not deal.talon_shown else 0
        return 0

    def _bid(self, deal, s: int, acts) -> int:
        g = deal.game
        c = deal.codec
        hand = self.my_hand(deal, s)
        may_pass = c.PASS in acts
        if g.auction_kind == "exact":
            est = trick_estimate(g, hand, deal.trumps if deal.trumps is not None else -1, deal.n_active)
            bids = [a for a in acts if c.kind(a) == "bid"]
            return min(bids, key=lambda a: (abs(c.fields(a)["value"] - est), c.fields(a)["value"]))
        if g.auction_kind == "ladder":
            return self._ladder_bid(deal, s, hand, acts, may_pass)
        # numeric: a number of points (or of tricks, when cards carry no points)
        suits = list(range(g.n_suits))
        if self._points_game(g):
            worth, _ = best_trumps(deal, s, hand, suits + [-1], True, self._talon_share(deal, s))
        else:
            worth, _ = best_trumps(deal, s, hand, suits + [-1], False)
        plausible = worth * (1 - self.margin)
        bids = sorted((a for a in acts if c.kind(a) == "bid" and not c.fields(a).get("blind")),
                      key=lambda a: c.fields(a)["value"])
        if bids and (c.fields(bids[0])["value"] <= plausible or not may_pass):
            return bids[0]
        return c.PASS if may_pass else acts[0]

    def _ladder_bid(self, deal, s, hand, acts, may_pass) -> int:
        g = deal.game
        c = deal.codec
        n = deal.n_active
        total = deal.hand_size or (bin(hand).count("1"))
        exposed_suit = g.card_suit[deal.exposed] if deal.exposed >= 0 else -1
        best = None
        for a in acts:
            if c.kind(a) != "bid" or c.fields(a).get("blind"):
                continue
            e = g.ladder[c.fields(a)["index"]]
            if e.most < total and e.least <= 0:
                # take at most `most` tricks
                if e.most == 0 and keeps_under(g, hand, n) == 0:
                    ok = True
                else:
                    ok = False
            else:
                if e.trumps == "exposed":
                    t = exposed_suit
                    est = trick_estimate(g, hand, t, n)
                elif e.trumps == "none":
                    est = trick_estimate(g, hand, -1, n)
                else:
                    est = max(trick_estimate(g, hand, t, n) for t in range(g.n_suits))
                need = e.least * PLAIN_SHARE
                if e.partner == "seeks":
                    need = e.least * SEEK_SHARE      # a seat that joins brings its own tricks
                elif e.partner == "joins":
                    need = e.least * JOIN_SHARE      # the seat that sought shows a good hand
                ok = est * (1 - self.margin / 2) >= need
            if ok and (best is None or c.fields(a)["index"] > c.fields(best)["index"]):
                best = a
        if best is not None:
            return best
        return c.PASS if may_pass else min(a for a in acts if c.kind(a) == "bid")

    # ------------------------------------------------------------ the declarer's steps
    def _step(self, deal, s: int, acts) -> int:
        g = deal.game
        c = deal.codec
        hand = self.my_hand(deal, s)
        kind = g.contract_steps[deal.step][0]
        points = self._points_game(g)
        suits = list(range(g.n_suits))
        if c.ABANDON in acts:
            choices = suits + [-1]
            if deal.trumps is not None:
                choices = [deal.trumps]
            worth, _ = best_trumps(deal, s, hand | (deal.talon if deal.talon_shown else 0), choices, points)
            need = deal.bid_value if points or deal.bid_value else 0
            if need and worth < need * (1 - 1.5 * self.margin):
                return c.ABANDON
            acts = [a for a in acts if a != c.ABANDON]
        if kind == "trumps":
            choices = [a - c.TRUMPS for a in acts if c.kind(a) == "trumps"]
            choices = [-1 if t == 4 else t for t in choices]
            _, t = best_trumps(deal, s, hand, choices, points)
            return c.TRUMPS + (4 if t < 0 else t)
        if kind == "contract":
            bid = deal.bid_value
            step = max(g.contract_step, 1)
            worth = point_estimate(deal, s, hand, deal.trumps if deal.trumps is not None else -1) if points \
                else trick_estimate(g, hand, deal.trumps if deal.trumps is not None else -1, deal.n_active)
            safe = worth * (1 - 2 * self.margin)
            v = bid
            while v + step <= safe:
                v += step
            want = c.contract(v)
            return want if want in acts else min(a for a in acts if c.kind(a) == "contract")
        if kind == "give":
            gives = [a for a in acts if c.kind(a) == "give"]
            trumps = deal.trumps if deal.trumps is not None else -1
            card = min(bits(hand), key=lambda x: self._keep_value(deal, s, hand, x, trumps))
            for a in gives:
                if c.fields(a)["card"] == card:
                    return a
            return gives[0]
        return acts[0]

    def _keep_value(self, deal, s: int, hand: int, x: int, trumps: int) -> float:
        """How much the hand loses by parting with card x (low: give it away)."""
        g = deal.game
        v = g.card_points[x] * 2.0 + (g.n_ranks - g.card_rank[x])
        if trumps >= 0 and g.card_suit[x] == trumps:
            v += 30
        for mask, _, mi, suit in g.meld_leads:
            if hand & mask == mask and mask >> x & 1:
                v += 50
        h = Hand(g, hand)
        if h.is_master(x):
            v += 15
        if h.length(g.card_suit[x]) == 1 and trumps >= 0:
            v -= 3                 # a singleton gone is a void to trump in
        return v

    # ------------------------------------------------------------ passing cards
    def _pass_card(self, deal, s: int, acts) -> int:
        g = deal.game
        c = deal.codec
        hand = self.my_hand(deal, s)
        penalties = self._penalty_points(deal, s)
        h = Hand(g, hand)

        def danger(x):
            if penalties:
                above = bin(g.points_mask & g.suit_mask[g.card_suit[x]] & ((1 << x) - 1)).count("1")
                return (g.card_points[x] * 3 + (g.n_ranks - g.card_rank[x])
                        + (4 if above and h.length(g.card_suit[x]) < 4 else 0))
            return -(g.card_points[x] * 2 + (g.n_ranks - g.card_rank[x]))
        gives = [a for a in acts if c.kind(a) == "give"]
        return max(gives, key=lambda a: (danger(c.fields(a)["card"]), -a))

    def _penalty_points(self, deal, s: int) -> bool:
        """Card points count against the seat (read off the scoring before the play)."""
        g = deal.game
        if not g.points_mask:
            return False
        try:
            ol = Outlook(deal, s) if deal.phase == PLAY else None
        except Exception:
            ol = None
        if ol is not None:
            return not ol.points_good
        # before the play: score a deal where the seat took all the points, or none
        return _points_hurt(deal, s)

    # ------------------------------------------------------------ card play
    def outlook(self, deal, s: int) -> Outlook:
        key = (s, len(deal.history), deal.tricks_done, tuple(deal.tricks), deal.dealer, deal.hands[s])
        if self._outlook is None or self._outlook[0] != key:
            self._outlook = (key, Outlook(deal, s))
        return self._outlook[1]

    def _play(self, deal, s: int, acts) -> int:
        g = deal.game
        c = deal.codec
        hand = self.my_hand(deal, s)
        h = Hand(g, hand, deal.played)
        ol = self.outlook(deal, s)
        want = ol.wants_tricks()
        pts_good = ol.points_good
        side = set(ol.side)
        cp = g.card_points
        trumps = deal.trumps if deal.trumps is not None else -1
        cards = [a for a in acts if a < c.MELD]
        if not cards:
            return acts[0]
        extra = [a for a in acts if a >= c.MELD and a != c.CONCEDE]
        power = lambda x: g.n_ranks - g.card_rank[x] + (100 if x >= 0 and g.card_suit[x] == trumps else 0)

        if not deal.trick:
            # leading
            melds = [a for a in extra if c.kind(a) == "play" and c.fields(a)["meld"] >= 0]
            if want and melds:
                return max(melds, key=lambda a: (meld_worth(deal, s, hand, trumps), -a))
            if c.CLOSE in extra or any(c.kind(a) == "exchange" for a in extra):
                ex = [a for a in extra if c.kind(a) == "exchange"]
                if ex:
                    return ex[0]           # a better trump for a low one
            if want:
                masters = [x for x in cards if h.is_master(x)]
                if trumps >= 0:
                    my_trumps = [x for x in cards if g.card_suit[x] == trumps]
                    unseen_trumps = (h.unseen & g.suit_mask[trumps]).bit_count()
                    if my_trumps and unseen_trumps and len(my_trumps) >= unseen_trumps:
                        tm = [x for x in my_trumps if h.is_master(x)]
                        if tm:
                            return max(tm, key=power)
                side_masters = [x for x in masters if g.card_suit[x] != trumps]
                if side_masters:
                    return max(side_masters, key=lambda x: (cp[x] if pts_good else -cp[x], power(x)))
                if masters:
                    return max(masters, key=power)
                # low from the longest suit (not trumps)
                return min(cards, key=lambda x: (g.card_suit[x] == trumps, -h.length(g.card_suit[x]),
                                                 cp[x] if pts_good else -cp[x], power(x)))
            # avoiding tricks: the lowest card of the suit where the others hold most
            # cards above it
            def lead_safety(x):
                above = (h.unseen & g.suit_mask[g.card_suit[x]] & ((1 << x) - 1)).bit_count()
                return (-above, cp[x] if not pts_good else 0, power(x))
            return min(cards, key=lead_safety)

        # following
        keys = deal.trick_keys
        wk = keys[deal.win_card]
        friend = deal.win_seat in side
        last = len(deal.trick) == deal.n_active - 1
        winners = [x for x in cards if keys[x] > wk]
        losers = [x for x in cards if keys[x] <= wk]
        trick_pts = sum(cp[x] for _, x in deal.trick)

        def discard(pool):
            # the least useful card: no points kept for the others, short suits, no
            # trumps, no winners, no meld card
            def cost(x):
                v = power(x)
                if pts_good:
                    v += cp[x] * 2
                else:
                    v -= cp[x] * 3
                if h.is_master(x):
                    v += 20
                for mask, _, mi, suit in g.meld_leads:
                    if hand & mask == mask and mask >> x & 1:
                        v += 40
                v += h.length(g.card_suit[x]) * 0.1
                return v
            return min(pool, key=cost)

        if want:
            if friend:
                sure = last or (deal.win_card >= 0 and Hand(g, hand | (1 << deal.win_card), deal.played)
                                .is_master(deal.win_card) and g.card_suit[deal.win_card] in (trumps, deal.trick_suit))
                if losers:
                    if sure and pts_good:
                        # points to the partner's trick, but not a winner of our own
                        pool = [x for x in losers if not h.is_master(x)] or losers
                        return max(pool, key=lambda x: (cp[x], -power(x)))
                    return discard(losers)
                return min(winners, key=lambda x: keys[x])
            if winners:
                if last:
                    return min(winners, key=lambda x: keys[x])
                sure = [x for x in winners if h.is_master(x) or
                        (g.card_suit[x] == trumps and deal.trick_suit != trumps)]
                if sure:
                    return min(sure, key=lambda x: keys[x])
                if trick_pts and pts_good or g.card_suit[winners[0]] == trumps:
                    return min(winners, key=lambda x: keys[x])
                return discard(losers) if losers else min(winners, key=lambda x: keys[x])
            return discard(losers)
        # avoiding the trick
        if losers:
            if not pts_good and not friend:
                # shed the worst card the trick will carry away
                return max(losers, key=lambda x: (cp[x], power(x)))
            return max(losers, key=lambda x: (power(x), -cp[x] if pts_good else cp[x]))
        # it must win: with the highest card (keep the low ones for later)
        return max(winners, key=lambda x: (power(x), -cp[x] if not pts_good else 0))


def _points_hurt(deal, s: int) -> bool:
    """Before the play: does the scoring count card points against the seat? Score a
    finished copy where the seat took every point, and one where it took none."""
    g = deal.game
    sign = score_sign(g)
    scratch = public_shadow(deal, s)
    total = sum(g.card_points)
    vals = []
    for mine in (total, 0):
        d = copy.copy(scratch)
        d.card_points = [0] * d.n_seats
        d.tricks = [0] * d.n_seats
        others = [t for t in d.active if t != s]
        d.card_points[s] = mine
        if others:
            d.card_points[others[0]] = total - mine
        d.tricks[s] = 1
        if others:
            d.tricks[others[0]] = 1
        d.deltas = [0] * d.n_seats
        d.scores = list(scratch.scores)
        d.counters = {a: list(b) for a, b in scratch.counters.items()}
        d.lets = {}
        d.meld_points_of = [0] * d.n_seats
        d.deal_points_of = [0] * d.n_seats
        d.hands = [0] * d.n_seats
        d.trick = []
        d.phase = DONE
        try:
            settle(d)
        except Exception:
            return False
        vals.append(sign * d.deltas[s])
    return vals[0] < vals[1]
