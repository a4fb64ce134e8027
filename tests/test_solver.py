"""The open-card solver (talon_cards.solver) against plain minimax.

Small endings (two to four tricks left, some in the middle of a trick) of every bundled
game are solved twice: by the solver (alpha-beta, transposition table, move ordering,
equivalent cards, the trick search where it applies) and by brute force here (every
legal action of the engine tried on a copy of the deal, no pruning, the result read off
``Deal.returns()``). The two must agree on the value and on the value of each action.
Endings with a stock still to draw from (Sixty-six) are made by taking cards out of a
deal in play; the trick search is also checked against the general search on larger
endings."""
from __future__ import annotations

import copy
import random
import sys

import pytest

from talon_cards.agents import RandomAgent
from talon_cards.engine import PLAY
from talon_cards.solver import Solver, Timeout, score_sign, solve
from talon_cards.spec import load

GAMES = ["501", "solo-whist", "whist", "oh-hell", "hearts", "sixty-six", "tysyacha"]
VARIANTS = ["501-marriage-trumps", "501-must-beat", "solo-whist-overtricks"]


# ---------------------------------------------------------------- the reference
def outcome(d, seat) -> float:
    """The result the solver maximises, written out again: the seat's side's average
    score change minus the others', the sign turned when low scores win."""
    side = [s for s in d.side_of.get(seat, (seat,)) if s in d.pos] or [seat]
    others = [s for s in d.active if s not in side]
    r = d.returns()
    mine = sum(r[s] for s in side) / len(side)
    theirs = sum(r[s] for s in others) / len(others) if others else 0
    return score_sign(d.game) * (mine - theirs)


class TooBig(Exception):
    pass


def clone(d):
    """A copy of a deal for trying an action (lists and dicts copied, the game shared)."""
    c = copy.copy(d)
    for k, v in d.fields().items():
        if isinstance(v, list):
            setattr(c, k, list(v))
        elif isinstance(v, dict):
            setattr(c, k, {a: list(b) if isinstance(b, list) else b for a, b in v.items()})
    return c


def brute(d, seat, budget):
    """Plain minimax: the seat's side maximises, every other seat minimises."""
    if d.is_terminal():
        return outcome(d, seat)
    budget[0] -= 1
    if budget[0] < 0:
        raise TooBig()
    side = set(d.side_of.get(seat, (seat,)))
    vals = []
    for a in d.legal_actions():
        c = clone(d)
        c.apply_action(a)
        vals.append(brute(c, seat, budget))
    return max(vals) if d.turn in side else min(vals)


def brute_actions(d, seat, budget):
    out = {}
    for a in d.legal_actions():
        c = clone(d)
        c.apply_action(a)
        out[a] = brute(c, seat, budget)
    return out


def endings(name, most_left, count, seed):
    """Deals of `name` played at random into their last `most_left` tricks, stopped at
    a random point there (between tricks or inside one)."""
    g = load(name)
    seats = g.default_seats or g.seat_counts[0]
    rng = random.Random(seed)
    out = []
    tries = 0
    while len(out) < count and tries < 50 * count:
        tries += 1
        d = g.new_deal(seats, rng.randrange(seats))
        d.deal_random(rng)
        agent = RandomAgent(rng)
        stop = rng.randrange(seats)
        while not d.is_terminal():
            if d.phase == PLAY and d.tricks_left <= most_left and len(d.trick) == stop % (d.n_active or 1):
                break
            d.apply_action(agent.act(d))
        if d.phase == PLAY:
            out.append(d)
    return out


def check(d, budget=60000):
    seat = d.turn if d.turn >= 0 else d.active[0]
    other = next(s for s in d.active if s not in d.side_of.get(seat, (seat,)))
    for who in (seat, other):
        try:
            want = brute_actions(d, who, [budget])
        except TooBig:
            return False
        before = copy.deepcopy(d, {id(d.game): d.game}).fields().keys()
        sol = solve(d, who, all_actions=True)
        assert set(sol.values) == set(want), (sol.values, want)
        for a, v in want.items():
            assert sol.values[a] == pytest.approx(v), (d.game.name, who, a, sol.values, want)
        best = max(want.values()) if d.turn in set(d.side_of.get(who, (who,))) else min(want.values())
        plain = solve(d, who)
        assert plain.value == pytest.approx(best)
        assert want[plain.best] == pytest.approx(best)
        assert d.fields().keys() == before
    return True


def plain_future(d, seat, sr):
    """(the side's future tricks under best play from the position, the tricks left):
    the plain trick search (no partition search, no quick-trick or trump bounds) after
    each legal action of the seat to move, the best of them for that seat (`sr`: the
    search whose bound is being checked, for who maximises)."""
    plain = Solver(d, seat)
    plain.search.ps = plain.search.quick = False
    acts = [a for a in d.legal_actions() if a != d.codec.CONCEDE]
    got = plain.tricks(acts).values()
    return (max(got) if d.turn in sr.maxers else min(got)), d.hands[d.turn].bit_count()


def between_tricks(names, count, seed, ok, most_left=5):
    """(deal, seat, its trick search) on endings of at most `most_left` tricks stopped
    between tricks, for the seat to move and the next one, where `ok(search)` holds."""
    for name in names:
        for d in endings(name, most_left, count, seed=seed):
            if d.trick:
                continue
            for seat in (d.turn, d.next_seat[d.turn]):
                sv = Solver(d, seat)
                if sv.mode == "tricks" and ok(sv.search):
                    yield d, seat, sv.search


def takes_at_least(d, seat, sr, team_in_side, n):
    """Under the plain trick search, the team (the side's or the other) takes at least
    `n` of the tricks left."""
    future, left = plain_future(d, seat, sr)
    if team_in_side:
        assert future >= n
    else:
        assert future <= left - n


@pytest.mark.parametrize("name", GAMES + VARIANTS)
def test_solver_agrees_with_brute_force_on_small_endings(name):
    g = load(name)
    most = 4 if (g.default_seats or g.seat_counts[0]) <= 3 else 3
    checked = 0
    for d in endings(name, most, 10, seed=11):
        checked += check(d)
    assert checked >= 6


@pytest.mark.parametrize("name", GAMES)
def test_solver_agrees_with_brute_force_on_two_trick_endings(name):
    checked = 0
    for d in endings(name, 2, 12, seed=5):
        checked += check(d)
    assert checked >= 10


def test_the_solver_leaves_the_deal_as_it_was():
    for d in endings("501", 4, 3, seed=2) + endings("sixty-six", 4, 3, seed=2):
        before = copy.deepcopy(d, {id(d.game): d.game})
        solve(d, all_actions=True)
        for k, v in before.fields().items():
            if k not in ("game", "codec", "_ph"):
                assert getattr(d, k) == v, k


# ---------------------------------------------------------------- with a stock
def shrink(d, hand: int, stock: int, rng):
    """Take cards out of a deal in play until each hand holds `hand` cards and the
    stock `stock` (its face-up bottom card kept): the cards taken out are booked as
    tricks already won, dealt out among the seats."""
    g = d.game
    removed = []
    for s in d.active:
        cards = [c for c in range(g.n_cards) if d.hands[s] >> c & 1]
        rng.shuffle(cards)
        for c in cards[hand:]:
            d.hands[s] &= ~(1 << c)
            removed.append(c)
    keep = d.stock[:max(stock - 1, 0)] + d.stock[-1:] if stock else []
    removed += [c for c in d.stock if c not in keep]
    d.stock = keep
    n = d.n_active
    rng.shuffle(removed)
    while len(removed) % n:
        removed.pop()
    for k in range(0, len(removed), n):
        w = d.active[(k // n) % n]
        trick = removed[k:k + n]
        d.tricks[w] += 1
        d.card_points[w] += sum(g.card_points[c] for c in trick)
        for c in trick:
            d.taken[w] |= 1 << c
            d.played |= 1 << c
        d.tricks_done += 1
        d.history_tricks.append((w, [(w, c) for c in trick], w))
    d.tricks_left = hand + len(d.stock) // n
    return d


def test_solver_agrees_with_brute_force_while_the_stock_is_drawn_from():
    g = load("sixty-six")
    rng = random.Random(4)
    checked = closes = exchanges = 0
    for i in range(40):
        d = g.new_deal(2, i % 2)
        d.deal_random(rng)
        assert d.phase == PLAY
        shrink(d, rng.choice([1, 2]), rng.choice([2, 4]), rng)
        acts = d.legal_actions()
        closes += d.codec.CLOSE in acts
        exchanges += any(d.codec.kind(a) == "exchange" for a in acts)
        checked += check(d, budget=20000)
    assert checked >= 25 and closes


# ---------------------------------------------------------------- the two searches agree
@pytest.mark.parametrize("name", ["whist", "solo-whist"])
def test_trick_search_agrees_with_general_search(name):
    used = 0
    for d in endings(name, 5, 6, seed=9):
        fast = Solver(d)
        if fast.mode != "tricks":
            continue
        used += 1
        a = fast.solve(all_actions=True)
        b = solve(d, mode="general", all_actions=True)
        assert a.values == pytest.approx(b.values)
        assert a.value == pytest.approx(b.value)
    assert used >= 3


def concession_endings(tries=400, seed=1):
    """Solo Whist deals played at random until the declarer may concede with three
    tricks or fewer left (deals that end first are skipped)."""
    g = load("solo-whist")
    rng = random.Random(seed)
    for _ in range(tries):
        d = g.new_deal(4, rng.randrange(4))
        d.deal_random(rng)
        agent = RandomAgent(rng)
        while not d.is_terminal() and not (d.phase == PLAY and d.codec.CONCEDE in d.legal_actions()
                                           and d.tricks_left <= 3):
            d.apply_action(agent.act(d))
        if d.phase == PLAY:
            yield d


def test_conceding_is_searched():
    """Solo Whist's contracts to take no trick may be conceded once lost: endings where
    the declarer may concede agree with brute force too."""
    found = 0
    for d in concession_endings():
        found += check(d)
        if found >= 3:
            break
    assert found >= 3


def test_time_limit_stops_the_search():
    d = endings("501", 8, 1, seed=3)[0]
    with pytest.raises(Timeout):
        solve(d, max_nodes=50)


# ---------------------------------------------------------------- tricks after each action
def brute_tricks(d, side, maxers, budget):
    """Plain minimax on the side's tricks at the end (`maxers` want more of them); a
    concession is not played, as the trick search does not play one."""
    if d.is_terminal():
        return sum(d.tricks[s] for s in side)
    budget[0] -= 1
    if budget[0] < 0:
        raise TooBig()
    vals = []
    for a in d.legal_actions():
        if a == d.codec.CONCEDE:
            continue
        c = clone(d)
        c.apply_action(a)
        vals.append(brute_tricks(c, side, maxers, budget))
    return max(vals) if d.turn in maxers else min(vals)


@pytest.mark.parametrize("name", ["whist", "solo-whist"])
def test_tricks_after_each_action_agree_with_brute_force(name):
    """``Solver.tricks``: the side's tricks after each action under perfect play, as
    plain minimax on tricks finds them, with the tables of an earlier ``solve`` and
    without."""
    checked = 0
    for i, d in enumerate(endings(name, 3, 14, seed=13)):
        sv = Solver(d)
        if sv.mode != "tricks":
            continue
        if i % 2:
            sv.solve(all_actions=True)
        side, maxers = sv.side, sv.search.maxers
        base = sum(d.tricks[s] for s in side)
        acts = [a for a in d.legal_actions() if a != d.codec.CONCEDE]
        got = sv.tricks(acts)
        try:
            want = {}
            for a in acts:
                c = clone(d)
                c.apply_action(a)
                want[a] = brute_tricks(c, side, maxers, [60000]) - base
        except TooBig:
            continue
        assert got == want, (name, got, want)
        checked += 1
    assert checked >= 6


def test_tricks_in_contracts_to_lose_every_trick_agree_with_brute_force():
    """Where the side wants no tricks (a misère), the tricks a leader could cash bound
    nothing: it need not cash them. Endings of such contracts against plain minimax,
    for the declarer and for the defence."""
    g = load("solo-whist")
    rng = random.Random(7)
    checked = tries = 0
    while checked < 8 and tries < 4000:
        tries += 1
        d = g.new_deal(4, rng.randrange(4))
        d.deal_random(rng)
        agent = RandomAgent(rng)
        while not d.is_terminal() and d.phase != PLAY:
            d.apply_action(agent.act(d))
        if d.phase != PLAY:
            continue
        sv = Solver(d)
        if sv.mode != "tricks" or sv.search.maxers == sv.search.side:
            continue
        while d.phase == PLAY and (d.tricks_left > 3 or d.trick):
            d.apply_action(agent.act(d))
        if d.phase != PLAY:
            continue
        for seat in (d.turn, d.next_seat[d.turn]):
            sv = Solver(d, seat)
            side, maxers = sv.side, sv.search.maxers
            base = sum(d.tricks[s] for s in side)
            acts = [a for a in d.legal_actions() if a != d.codec.CONCEDE]
            want = {}
            for a in acts:
                c = clone(d)
                c.apply_action(a)
                want[a] = brute_tricks(c, side, maxers, [10 ** 6]) - base
            assert sv.tricks(acts) == want, (seat, d.hands)
        checked += 1
    assert checked == 8


@pytest.mark.parametrize("name", ["whist", "solo-whist"])
def test_partition_search_agrees_with_plain_trick_search(name):
    """The partition search's bounds and prunings (quick tricks, leads into the other
    side's top cards, the small-card rule) and what its answers rest on (the table's
    entries stand for every position that agrees on those cards) against the trick
    search with none of them, tricks after every action, on endings of seven tricks:
    too long for brute force, long enough for entries to stand for other positions."""
    checked = 0
    for d in endings(name, 7, 25, seed=21):
        for seat in (d.turn, d.next_seat[d.turn]):
            a = Solver(d, seat)
            if a.mode != "tricks" or not a.search.ps:
                continue
            b = Solver(d, seat)
            b.search.ps = b.search.quick = False
            acts = [x for x in d.legal_actions() if x != d.codec.CONCEDE]
            assert a.tricks(acts) == b.tricks(acts), (name, seat)
            assert a.solve().value == b.solve().value
            checked += 1
    assert checked >= 30


def test_the_partition_table_started_again_keeps_the_search_exact(monkeypatch):
    """A search too big to remember clears its partition table and goes on (the table
    is cleared once it holds `_PTT_LIMIT` entries): with a limit of a few dozen entries,
    cleared many times over, the tricks after every action are still those of the plain
    trick search."""
    import talon_cards.solver as solver

    class Table(dict):
        cleared = 0

        def clear(self):
            Table.cleared += 1
            super().clear()
    # (in the module the search runs in: the compiled copy where it is built)
    monkeypatch.setattr(sys.modules[solver._Tricks.__module__], "_PTT_LIMIT", 30)
    checked = 0
    for d in endings("whist", 6, 6, seed=23):
        a = Solver(d)
        if a.mode != "tricks" or not a.search.ps:
            continue
        a.search.ptt = Table()
        b = Solver(d)
        b.search.ps = b.search.quick = False
        acts = [x for x in d.legal_actions() if x != d.codec.CONCEDE]
        assert a.tricks(acts) == b.tricks(acts)
        checked += 1
    assert checked >= 4 and Table.cleared >= 4


def test_a_lead_into_the_other_sides_top_cards_gives_them_those_tricks():
    """Where the leader's team holds no trump and none of the top cards of the suits the
    leader holds, the other team takes at least the tricks the bound counts: checked
    against the plain trick search on endings where the bound applies."""
    checked = 0
    for name in ("solo-whist", "whist"):
        for d in endings(name, 5, 400, seed=5):
            if d.trick:
                continue
            for seat in d.active:
                sv = Solver(d, seat)
                if sv.mode != "tricks" or not sv.search.up:
                    continue
                sr = sv.search
                run, _ = sr._led_into(sr.turn)
                if not run:
                    continue
                future, left = plain_future(d, seat, sr)
                if d.turn in sr.side:
                    assert future <= left - run
                else:
                    assert future >= run
                checked += 1
    assert checked >= 10


def test_quick_tricks_in_several_suits_past_the_opponents_trumps():
    """The leader cashes its top cards in each side suit for as many rounds as every
    opponent holding trumps follows it, the suits' rounds added up: on endings where
    that count takes more than one side suit, the leader's team takes at least it
    under plain minimax (a position where it would be too many fails)."""
    checked = 0
    for name in ("whist", "solo-whist"):
        for d in endings(name, 5, 600, seed=9):
            if d.trick:
                continue
            for seat in d.active:
                sv = Solver(d, seat)
                if sv.mode != "tricks" or not sv.search.up or sv.search.no_trumps:
                    continue
                sr = sv.search
                s = sr.turn
                n, used = sr._cash(sr.hands, ~sr.gone, s)
                tm = sr.trump_mask
                side_suits = {sr.suit[c] for c in range(sr.g.n_cards) if used >> c & 1 and not tm >> c & 1}
                team = s in sr.side
                if len(side_suits) < 2 or not any((o in sr.side) != team and d.hands[o] & tm for o in d.active):
                    continue
                future, left = plain_future(d, seat, sr)
                if team:
                    assert future >= n
                else:
                    assert future <= left - n
                checked += 1
    assert checked >= 5


def test_the_two_highest_trumps_in_two_hands_of_a_side_take_two_tricks():
    """Where the two highest trumps in play are in two hands of one side and one of
    those hands holds another trump, that side takes at least two tricks: checked
    against the plain trick search on endings where the bound counts them (and counts
    two where one hand's top trumps alone count one)."""
    checked = 0
    for d, seat, sr in between_tricks(("whist", "solo-whist"), 500, 17, lambda sr: sr.trump_mask):
        holder, run, cards = sr._top_trumps()
        if run != 2 or cards.bit_count() != 2 or any(d.hands[s] & cards == cards for s in d.active):
            continue
        takes_at_least(d, seat, sr, holder in sr.side, 2)
        checked += 1
    assert checked >= 10


def test_a_hands_trumps_less_those_the_other_side_can_beat_take_tricks():
    """A hand's trumps take at least as many tricks as it holds trumps less the most
    of them the other side's higher trumps could beat one each: checked for both
    sides against the plain trick search on endings where that count says more than
    the top trumps of one hand do (a count one too high fails)."""
    checked = 0
    for d, seat, sr in between_tricks(("whist", "solo-whist"), 600, 23, lambda sr: sr.trump_mask and sr.ps):
        side_steps, other_steps = sr._trump_bounds()[3:]
        sn, on = len(side_steps), len(other_steps)
        holder, run, _ = sr._top_trumps()
        top_side = run if holder in sr.side else 0
        top_other = run if holder >= 0 and holder not in sr.side else 0
        if sn <= top_side and on <= top_other:
            continue
        future, left = plain_future(d, seat, sr)
        assert future >= sn
        assert future <= left - on
        checked += 1
    assert checked >= 10


def test_a_trump_count_holds_wherever_the_trumps_below_those_it_rests_on_lie():
    """Each count k of the trump floors rests on the trumps down to one card: the
    search answers a question with it relying on those alone. Re-dealing the trumps
    below them among the hands that hold them (each keeping as many) leaves a position
    the partition table takes for the same, and there the team still takes k tricks
    under the plain search. Resting one trump fewer fails (tried)."""
    rng = random.Random(5)
    checked = 0
    for d, seat, sr in between_tricks(("whist", "solo-whist"), 400, 29, lambda sr: sr.trump_mask and sr.ps):
        side_steps, other_steps = sr._trump_bounds()[3:]
        assert all(r and not r & ~sr.trump_mask for r in side_steps + other_steps)
        for steps, team_in_side in ((side_steps, True), (other_steps, False)):
            for k, rests in enumerate(steps, 1):
                assert not k > 1 or steps[k - 2] & ~rests == 0      # each rests on more
                below = ~sr.gone & sr.trump_mask & ~rests & ~((rests & -rests) - 1)
                if not below:
                    continue
                e = copy.deepcopy(d, {id(d.game): d.game})
                cards = [c for c in range(d.game.n_cards) if below >> c & 1]
                owners = [s for c in cards for s in d.active if d.hands[s] >> c & 1]
                rng.shuffle(owners)
                for s in d.active:
                    e.hands[s] &= ~below
                for c, s in zip(cards, owners):
                    e.hands[s] |= 1 << c
                if e.hands == d.hands:
                    continue
                takes_at_least(e, seat, sr, team_in_side, k)
                checked += 1
    assert checked >= 10


def test_quick_tricks_through_a_partners_top_card_hold():
    """The leader giving the lead to a partner's top card and the partner cashing its
    own: where that counts more than the leader's cashing alone (the rest of a team of
    three playing to the way in too, one holding trumps throwing a card it then no
    longer holds), the leader's team takes at least that under the plain search."""
    checked = 0
    for d, seat, sr in between_tricks(("solo-whist", "whist"), 500, 19, lambda sr: sr.up and sr.ps):
        s = sr.turn
        own = sr._cash(sr.hands, ~sr.gone, s)[0]
        sure = sr._sure_ps(s)[0]
        if sure <= own:
            continue
        takes_at_least(d, seat, sr, s in sr.side, sure)
        checked += 1
    assert checked >= 10


def test_the_second_trump_right_behind_the_top_trump_takes_a_trick():
    """A seat holding the second highest trump and another trump, right after the seat
    of the other side holding the highest, and not on lead, or one holding the second
    and third highest anywhere: its side takes a trick (``_behind_top_trump``).
    Checked against the plain trick search on endings where the bound applies (for
    the side and against it)."""
    checked = 0
    for d, seat, sr in between_tricks(("solo-whist", "whist"), 1500, 29, lambda sr: sr.trump_mask and sr.up, 4):
        hh, _ = sr._behind_top_trump(sr.turn)
        if hh < 0:
            continue
        takes_at_least(d, seat, sr, hh in sr.side, 1)
        checked += 1
    assert checked >= 10


# ---------------------------------------------------------------- move ordering
def laid_out(layout: dict):
    """A Whist deal at its first lead with the hands given, seat by seat from the
    leader on: {0: "A5 4 / ...", ...} as four holdings each, in the order (trumps, X,
    Y, Z) of the suits, X, Y and Z the side suits in suit order."""
    g = load("whist")
    d = g.new_deal(4, 0)
    d.deal_random(random.Random(1))
    assert d.phase == PLAY and not d.trick
    side_suits = [k for k in range(len(g.suits)) if k != d.trumps]
    order = [d.trumps] + side_suits
    seats = [d.turn]
    while len(seats) < 4:
        seats.append(d.next_seat[seats[-1]])
    for i, holdings in layout.items():
        h = 0
        for k, cards in zip(order, holdings.split("/")):
            for r in cards.split():
                h |= 1 << g.card_by_name[r + g.suits[k]]
        d.hands[seats[i]] = h
    assert sum(h.bit_count() for h in d.hands) == 52
    return d, seats, order


# the leader (0) holds the ace of X, every opponent follows X, the last opponent (3)
# holds the ace and king of Y
LAYOUT = {
    0: "6 5 4 2 / A 5 4 / 3 2 / 5 4 3 2",
    1: "A K Q / K Q 3 / Q J 5 / A K Q J",
    2: "7 3 / 9 8 7 6 / 10 9 8 7 6 / 7 6",
    3: "J 10 9 8 / J 10 2 / A K 4 / 10 9 8",
}


def test_leads_cash_a_side_suit_ace_before_leading_into_the_last_opponents_top_cards():
    """The leader holds the ace of a side suit every opponent follows, and small cards
    of a suit whose ace and king the last opponent holds (over the leader's partner):
    the ace is tried first, the small card of the other suit after it."""
    d, seats, order = laid_out(LAYOUT)
    g = d.game
    sr = Solver(d).search
    moves = sr._moves(sr.turn)
    assert sorted(moves) == sorted(sr._reps(sr._allowed(sr.turn)))
    assert moves[0] == g.card_by_name["A" + g.suits[order[1]]]
    low_y = g.card_by_name["3" + g.suits[order[2]]]
    assert moves.index(low_y) > 0


def test_a_hand_void_in_the_suit_led_discards_from_a_long_suit_and_keeps_its_guards():
    """Void in the suit led, a hand discards a small card of its long suit before a
    lower card of a short one, and not the small card that guards its king; trumps
    come after every discard (cards in a run with no card in play between them stand
    for each other: only the highest is searched)."""
    d, seats, order = laid_out(LAYOUT)
    g = d.game
    sr = Solver(d).search
    T, X, Y, Z = (g.suits[k] for k in order)

    def discards(*names):
        hand = 0
        for name in names:
            hand |= 1 << g.card_by_name[name]
        cards = sorted(sr._reps(hand), key=sr.ord_of[order[2]].__getitem__)   # Y led
        got = sr._discards_first(hand, cards)
        assert sorted(got) == sorted(cards)
        assert got[-1] == g.card_by_name["2" + T]
        return [g.card_names[c] for c in got]

    # the two of X guards the king: the three of Z goes first though higher
    assert discards("2" + T, "K" + X, "2" + X, "6" + Z, "3" + Z)[0] == "3" + Z
    # a long suit's small card before a short suit's lower one
    assert discards("2" + T, "2" + X, "9" + Z, "7" + Z, "5" + Z, "3" + Z)[0] == "3" + Z
    # with no guard to keep and equal lengths, the lowest card goes first
    assert discards("2" + T, "4" + X, "2" + X, "6" + Z, "3" + Z)[0] == "2" + X


@pytest.mark.parametrize("name", ["whist", "solo-whist"])
def test_the_move_orderings_try_every_card_the_search_keeps(name):
    """At every position of random endings (leads and plays to a trick, every team
    layout of the game), the ordered moves are the cards the search keeps, each once."""
    checked = 0
    for d in endings(name, 8, 150, seed=31):
        for seat in (d.turn, d.next_seat[d.turn]):
            sv = Solver(d, seat)
            if sv.mode != "tricks":
                continue
            sr = sv.search
            moves = sr._moves(sr.turn)
            assert sorted(moves) == sorted(sr._reps(sr._allowed(sr.turn)))
            checked += 1
    assert checked >= 100


def test_the_cycle_collector_is_paused_while_the_solver_searches_and_only_then(monkeypatch):
    """The search runs with Python's cycle collector paused (it would walk the growing
    tables over and over); afterwards it is on again, and a caller who had turned it
    off finds it still off."""
    import gc
    from talon_cards import solver as S
    seen = []
    search = S._Tricks._search_ps

    def watched(self, alpha, beta):
        seen.append(gc.isenabled())
        return search(self, alpha, beta)

    monkeypatch.setattr(S._Tricks, "_search_ps", watched)
    d = next(d for d in endings("whist", 3, 20, seed=3) if not d.trick)
    assert gc.isenabled()
    sv = Solver(d)
    sv.solve()
    sv.tricks(d.legal_actions())
    assert seen and not any(seen)
    assert gc.isenabled()
    gc.disable()
    try:
        Solver(d).solve()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_racing_the_leads_keeps_the_search_exact(monkeypatch):
    """At a lead the partition search races the leads (each searched a budget of
    positions, then three times as many, the first to answer taken): with a budget of
    a few dozen positions, so that every race runs many rounds and cuts searches short
    part-way, the tricks after every action and the value are still those of the plain
    trick search."""
    import talon_cards.solver as solver
    module = sys.modules[solver._Tricks.__module__]
    monkeypatch.setattr(module, "_RACE_FROM", 40)
    spent = []
    real = module._Tricks._race

    def counted(self, t):
        before = self.nodes
        v = real(self, t)
        spent.append(self.nodes - before)
        return v
    monkeypatch.setattr(module._Tricks, "_race", counted)
    checked = 0
    for name in ("whist", "solo-whist"):
        for d in endings(name, 9, 40, seed=31):
            if d.trick:
                continue
            a = Solver(d)
            if a.mode != "tricks" or not a.search.ps:
                continue
            b = Solver(d)
            b.search.ps = b.search.quick = False
            acts = [x for x in d.legal_actions() if x != d.codec.CONCEDE]
            assert a.solve().value == b.solve().value, name
            assert Solver(d).tricks(acts) == b.tricks(acts), name
            checked += 1
    # races where a lead was cut short (the budget is read every 4,096 positions)
    assert checked >= 8 and sum(1 for n in spent if n > 4096) >= 3, (checked, spent)


def test_a_time_limit_stops_a_race(monkeypatch):
    """A race's own budget is not the caller's: positions or time given out stop the
    search (Timeout) in the middle of a race too, and leave the deal as it was."""
    import talon_cards.solver as solver
    module = sys.modules[solver._Tricks.__module__]
    monkeypatch.setattr(module, "_RACE_FROM", 10)
    g = load("whist")
    rng = random.Random(4)
    d = g.new_deal(g.default_seats or g.seat_counts[0], 0)
    d.deal_random(rng)
    agent = RandomAgent(rng)
    while d.phase != PLAY:
        d.apply_action(agent.act(d))
    assert not d.trick and d.tricks_left == 13
    before = (list(d.hands), list(d.trick), d.turn)
    with pytest.raises(Timeout):
        Solver(d).solve(max_nodes=2000)
    assert (list(d.hands), list(d.trick), d.turn) == before
