"""Players that play like people: the heuristic player, the sampling (PIMC) player, and
the dealing of unseen cards both rest on (talon_cards.knowledge).

The sampler must never produce a deal that contradicts what the seat has seen: its own
hand, the number of cards each seat holds, the cards played, cards known to be in a
hand (a card dealt face up, melds shown, cards given away, a hand laid open, the talon
taken), and the follow rules: replaying the play from its start with the sampled hands
must be legal at every step. Knowledge must not depend on the hidden cards at all.
Then paired seeded matches: the heuristic beats random play, PIMC beats the heuristic
(a handful of deals here; ``tools/agents_bench.py`` runs the long version)."""
from __future__ import annotations

import copy
import random

import pytest

from talon_cards.agents import RandomAgent, play_deal
from talon_cards.arena import mean_ci, paired
from talon_cards.engine import PLAY
from talon_cards.heuristic import HeuristicAgent
from talon_cards.knowledge import Knowledge
from talon_cards.pimc import AuctionCheck, PimcAgent
from talon_cards.spec import load

GAMES = ["501", "solo-whist", "whist", "oh-hell", "hearts", "sixty-six", "tysyacha"]
VARIANTS = ["501-must-beat", "501-marriage-trumps", "solo-whist-declared-trumps"]


def clone(d):
    return copy.deepcopy(d, {id(d.game): d.game})


def play_into(g, rng, seats, stop_after):
    """A deal played at random until `stop_after` play-phase actions; also the deal as
    it was when the hands last changed other than by playing (the play's start, or the
    moment the stock was closed or ran out)."""
    d = g.new_deal(seats, rng.randrange(seats))
    d.deal_random(rng)
    agent = RandomAgent(rng)
    start = None
    steps = 0
    while not d.is_terminal():
        if d.phase == PLAY:
            if start is None or (g.draw and not start_fixed(start) and start_fixed(d)):
                start = clone(d)
            if steps >= stop_after:
                break
            steps += 1
        d.apply_action(agent.act(d))
    return d, start


def d_plays(g, seats) -> int:
    """About how many cards a deal of this game plays."""
    d = g.new_deal(seats, 0)
    d.deal_random(random.Random(0))
    return sum(d.hands[t].bit_count() for t in d.active) + len(d.stock)


def start_fixed(d) -> bool:
    """No more cards will come into a hand from the stock."""
    return not d.game.draw or d.closed or not d.stock


def replay_is_legal(start, deal, sample) -> bool:
    """Give each seat, at `start`, the cards the sample says it holds now plus those it
    played since, and replay the real actions since `start`: every one must be legal."""
    g = deal.game
    c = g.codec
    s0 = clone(start)
    acts = deal.history[len(start.history):]
    played = {t: 0 for t in deal.all_seats}
    for t, a in acts:
        if a < c.PASS:
            played[t] |= 1 << (a if a < c.MELD else (a - c.MELD) % g.n_cards)
    for t in deal.active:
        s0.hands[t] = sample.hands[t] | played[t]
    for t, a in acts:
        if not s0.is_legal(a, t):
            return False
        s0.apply_action(a, t)
    return True


def known_places(deal, seat):
    """Cards `seat` knows the place of, worked out here from the record of the deal:
    card -> the seats that may hold it."""
    g = deal.game
    c = g.codec
    out = {}
    if g.face_up == "dealer-last" and deal.exposed_dealt >= 0:
        out[deal.exposed_dealt] = {deal.dealer if deal.dealer in deal.pos else deal.active[-1]}
    for t, a in deal.history:
        if t == seat and c.kind(a) == "give":
            f = c.fields(a)
            out[f["card"]] = {f["seat"]}
    for s, mi, suit, _ in deal.melds:
        for r in g.melds[mi].ranks:
            out[suit * g.n_ranks + r] = {s}
    if deal.hand_shown and seat != deal.declarer:
        for x in range(g.n_cards):
            if deal.hands[deal.declarer] >> x & 1:
                out[x] = {deal.declarer}
    return {x: s for x, s in out.items() if not deal.played >> x & 1 and not deal.hands[seat] >> x & 1}


@pytest.mark.parametrize("name", GAMES + VARIANTS)
def test_samples_never_contradict_what_the_seat_has_seen(name):
    g = load(name)
    seats = g.default_seats or g.seat_counts[0]
    rng = random.Random(7)
    checked = 0
    for i in range(60):
        if checked >= 36:
            break
        d, start = play_into(g, rng, seats, rng.randrange(1, 4 * (d_plays(g, seats) or 1)))
        if d.phase != PLAY:
            continue
        for seat in d.active:
            know = Knowledge(d, seat)
            places = known_places(d, seat)
            for _ in range(3):
                smp = know.sample(rng)
                assert smp is not None
                checked += 1
                assert smp.hands[seat] == d.hands[seat]
                assert smp.trick == d.trick and smp.played == d.played and smp.trumps == d.trumps
                assert smp.tricks == d.tricks and smp.melds == d.melds
                assert len(smp.stock) == len(d.stock)
                seen = 0
                for t in d.active:
                    assert smp.hands[t].bit_count() == d.hands[t].bit_count()
                    assert not seen & smp.hands[t]
                    seen |= smp.hands[t]
                for x in smp.stock:
                    assert not seen >> x & 1
                    seen |= 1 << x
                assert not seen & d.played
                for x, holders in places.items():
                    assert any(smp.hands[t] >> x & 1 for t in holders), g.card_names[x]
                if g.face_up == "stock-bottom" and d.exposed_visible and d.stock:
                    assert smp.stock[-1] == d.exposed
                if start_fixed(start):
                    assert replay_is_legal(start, d, smp), (name, i, seat)
    assert checked >= 30


@pytest.mark.parametrize("name", ["501", "whist", "hearts", "sixty-six", "tysyacha"])
def test_what_a_seat_knows_does_not_depend_on_the_hidden_cards(name):
    """Two deals that differ only in cards the seat cannot see give the same knowledge,
    the same samples and the same decisions."""
    g = load(name)
    seats = g.default_seats or g.seat_counts[0]
    rng = random.Random(3)
    done = pimc = 0
    total = d_plays(g, seats)
    for i in range(24):
        d, _ = play_into(g, rng, seats, rng.choice([0, total // 2, max(total - 2 * seats, 0)]))
        if d.phase != PLAY:
            continue
        seat = d.turn
        know = Knowledge(d, seat)
        # swap two cards between hidden places (two other hands, or a hand and the
        # stock) where the seat cannot tell them apart
        others = [t for t in d.active if t != seat]
        places = {}
        for x in range(g.n_cards):
            if not know.unseen >> x & 1 or x in know.where:
                continue
            t = next((t for t in others if d.hands[t] >> x & 1), None)
            if t is not None:
                places[x] = ("hand", t)
            elif x in d.stock and know.stock[d.stock.index(x)] < 0:
                places[x] = ("stock", d.stock.index(x))
        cards = list(places)
        rng.shuffle(cards)
        fits = lambda x, p: (p[0] == "stock" and ("stock",) in know.allowed_places(x)) or \
            (p[0] == "hand" and p in know.allowed_places(x))
        pair = next(((x, y) for x in cards for y in cards if places[x] != places[y]
                     and "hand" in (places[x][0], places[y][0])
                     and fits(x, places[y]) and fits(y, places[x])), None)
        if pair is None:
            continue
        e = clone(d)
        for x, y in (pair, pair[::-1]):
            kind, where = places[x]
            if kind == "hand":
                e.hands[where] ^= (1 << x) | (1 << y)
                e.dealt[where] ^= (1 << x) | (1 << y)
            else:
                e.stock[where] = y
        k2 = Knowledge(e, seat)
        assert (know.unseen, know.where, know.voids, know.sizes, know.stock) == \
            (k2.unseen, k2.where, k2.voids, k2.sizes, k2.stock)
        a = know.sample(random.Random(5))
        b = k2.sample(random.Random(5))
        assert a.hands == b.hands and a.stock == b.stock
        assert HeuristicAgent(random.Random(1)).act(d) == HeuristicAgent(random.Random(1)).act(e)
        pa = PimcAgent(random.Random(2), samples=3, time=None)
        pb = PimcAgent(random.Random(2), samples=3, time=None)
        if d.tricks_left <= 4:
            assert pa.act(d) == pb.act(e)
            pimc += 1
        done += 1
    assert done >= 6 and pimc >= 2


@pytest.mark.parametrize("name", GAMES)
def test_the_heuristic_plays_every_game_to_the_end(name):
    g = load(name)
    seats = g.default_seats or g.seat_counts[0]
    for i in range(4):
        rng = random.Random(i)
        d = g.new_deal(seats, i % seats)
        d.deal_random(rng)
        play_deal(d, [HeuristicAgent(random.Random(s)) for s in range(seats)])
        assert d.is_terminal()


@pytest.mark.parametrize("name,deals", [("501", 30), ("whist", 24), ("hearts", 24), ("sixty-six", 30),
                                        ("tysyacha", 30)])
def test_the_heuristic_beats_random_play(name, deals):
    diffs = paired(load(name), HeuristicAgent, RandomAgent, deals, seed=1)
    m, ci = mean_ci(diffs)
    assert m > 0, (m, ci)


@pytest.mark.parametrize("name,deals,deal_number,samples,nodes", [("oh-hell", 16, 6, 6, 200_000),
                                                                   ("501", 20, 1, 8, 20_000)])
def test_pimc_beats_the_heuristic(name, deals, deal_number, samples, nodes):
    """A handful of seeded deals, the effort of a decision bounded by positions searched
    (not time) so that the match is the same on any machine; the benchmark
    (tools/agents_bench.py) plays many more."""
    pimc = lambda rng: PimcAgent(rng, samples=samples, time=None, nodes=nodes)
    diffs = paired(load(name), pimc, HeuristicAgent, deals, seed=1, deal_number=deal_number)
    assert sum(diffs) > 0, diffs
    assert sum(1 for x in diffs if x > 0) > sum(1 for x in diffs if x < 0), diffs


def test_pimc_decides_on_samples_only_when_enough_were_solved():
    """Fewer than `min_samples` solved (the node budget too small for the position):
    the heuristic's choice; with enough, the samples' average."""
    g, d = None, None
    for k in range(50):
        g = load("501")
        rng = random.Random(k)
        d = g.new_deal(3, 0)
        d.deal_random(rng)
        h = HeuristicAgent()
        while not d.is_terminal() and not (d.phase == PLAY and d.tricks_left == 3 and len(d.legal_actions()) > 2):
            d.apply_action(h.act(d))
        if not d.is_terminal():
            break
    starved = PimcAgent(random.Random(1), samples=8, time=None, nodes=40, min_samples=3)
    assert starved.act(d) == HeuristicAgent().act(d)
    assert starved.last[1] == {}
    fed = PimcAgent(random.Random(1), samples=8, time=None, nodes=200_000, min_samples=3)
    a = fed.act(d)
    solved, avg = fed.last
    assert solved >= 3 and a in avg and avg[a] == max(avg.values())


def test_pimc_plays_as_the_heuristic_outside_the_play():
    g = load("501")
    rng = random.Random(4)
    d = g.new_deal(3, 0)
    d.deal_random(rng)
    p = PimcAgent(random.Random(1), samples=2, time=None)
    h = HeuristicAgent(random.Random(1))
    assert p.act(d) == h.act(d)


def test_pimc_breaks_ties_of_result_by_tricks():
    """Actions of the same average result (in Solo Whist, a contract made, or lost, in
    every sample) are told apart by the side's average tricks over the same samples:
    the agent plays one with the most (the fewest where the result falls as the side
    takes more); without the tie-break it plays the heuristic's card, which here is
    sometimes not one of them."""
    from talon_cards.solver import Solver
    g = load("solo-whist")
    checked = differs = 0
    for k in range(40):
        rng = random.Random(k)
        d = g.new_deal(4, k % 4)
        d.deal_random(rng)
        h = HeuristicAgent(random.Random(k))
        while not d.is_terminal() and not (d.phase == PLAY and d.tricks_left == 4 and d.trick
                                           and len(d.legal_actions()) > 2):
            d.apply_action(h.act(d))
        if d.is_terminal():
            continue
        seat = d.turn
        acts = d.legal_actions()
        agent = PimcAgent(random.Random(100 + k), samples=5, time=None, nodes=None)
        pick = agent.act(d)
        # the same samples again, valued here
        know = Knowledge(d, seat)
        srng = random.Random(100 + k)
        samples = [s for s in (know.sample(srng) for _ in range(5)) if s is not None]
        result = dict.fromkeys(acts, 0.0)
        tricks = dict.fromkeys(acts, 0)
        sign = None
        for s in samples:
            sv = Solver(s, seat)
            assert sv.mode == "tricks"
            vals = sv.solve(all_actions=True).values
            t = sv.tricks(acts)
            sign = 1 if sv.search.maxers == sv.search.side else -1
            for a in acts:
                result[a] += vals[a]
                tricks[a] += t[a]
        top = max(result.values())
        tied = [a for a in acts if result[a] >= top - 1e-9]
        most = max(sign * tricks[a] for a in tied)
        want = [a for a in tied if sign * tricks[a] == most]
        assert pick in want, (k, pick, want, tied)
        checked += 1
        plain = PimcAgent(random.Random(100 + k), samples=5, time=None, nodes=None, tiebreak=False)
        if plain.act(d) not in want:
            differs += 1
        if checked >= 12 and differs:
            break
    assert checked >= 6 and differs >= 1, (checked, differs)


# ---------------------------------------------------------------- the auction in the samples
def bid_and_play(name, k, tricks=1):
    """A deal bid and played by heuristic players to the first lead after `tricks`
    tricks (None when it ends before)."""
    g = load(name)
    seats = g.default_seats or g.seat_counts[0]
    d = g.new_deal(seats, k % seats)
    d.deal_random(random.Random(k))
    agents = [HeuristicAgent(random.Random(10 * k + s)) for s in range(seats)]
    while not d.is_terminal() and (d.phase != PLAY or d.tricks_done < tricks or d.trick):
        d.apply_action(agents[d.turn].act(d))
    return None if d.is_terminal() else d


@pytest.mark.parametrize("name", ["solo-whist", "oh-hell"])
def test_the_real_hands_fit_the_auction_and_random_ones_often_do_not(name):
    """Deals bid by heuristic players: holding the real hands the heuristic player would
    have made every bid and pass again (no misfit), while hands dealt at random
    consistently with what the seat saw of the play often would not."""
    deals = misfit = 0
    for k in range(40):
        d = bid_and_play(name, k)
        if d is None:
            continue
        know = Knowledge(d, d.turn)
        check = AuctionCheck(d, d.turn, know)
        assert check.active
        assert check.misfits(d) == 0, k
        rng = random.Random(k)
        for _ in range(6):
            s = know.sample(rng)
            assert know.check(s)
            misfit += check.misfits(s) > 0
        deals += 1
        if deals == 8:
            break
    assert deals == 8 and misfit >= 6, (deals, misfit)


def test_the_auction_check_is_silent_where_hands_changed_since():
    """In 501 the declarer took the talon and gave cards away: a hand in the auction
    cannot be read off a sample, so the check does not judge samples there."""
    for k in range(20):
        d = bid_and_play("501", k)
        if d is None:
            continue
        know = Knowledge(d, d.turn)
        assert know.auction_hands(d) is None
        assert not AuctionCheck(d, d.turn, know).active
        return
    pytest.fail("no 501 deal was played")


def test_pimc_keeps_the_sample_that_fits_the_auction_best():
    """With `auction_tries` N the agent draws up to N samples for each one it keeps and
    keeps the first with the fewest misfits (stopping at one with none); every sample
    kept agrees with what the seat saw."""
    checked = 0
    for k in range(30):
        d = bid_and_play("oh-hell", k)
        if d is None:
            continue
        know = Knowledge(d, d.turn)
        check = AuctionCheck(d, d.turn, know)
        agent = PimcAgent(random.Random(k), samples=2, auction_tries=5)
        kept = agent._sample(know, check)
        rng = random.Random(k)
        draws = []
        for _ in range(5):
            s = know.sample(rng)
            draws.append((check.misfits(s), s))
            if draws[-1][0] == 0:
                break
        fewest = min(m for m, _ in draws)
        want = next(s for m, s in draws if m == fewest)
        assert kept.hands == want.hands and know.check(kept)
        assert check.misfits(kept) == fewest
        checked += 1
        if checked == 5:
            break
    assert checked == 5


def test_pimc_with_the_auction_check_plays_legal_cards_and_repeats():
    """A PIMC player using the bids (Solo Whist) plays a whole deal with legal actions,
    and the same seed gives the same deal."""
    g = load("solo-whist")
    runs = []
    for _ in range(2):
        d = g.new_deal(4, 1)
        d.deal_random(random.Random(3))
        play_deal(d, [PimcAgent(random.Random(5), samples=4, time=None, nodes=5000, auction_tries=4)]
                  + [HeuristicAgent(random.Random(s)) for s in range(3)])
        assert d.is_terminal() and d.declarer >= 0 and d.tricks_done == 13
        runs.append((list(d.history), list(d.deltas)))
    assert runs[0] == runs[1]
