#!/usr/bin/env python
"""Benchmark: random-play speed of the engine, side by side with hand-coded baselines.

Prints, in one run on one core (CPU time; the best of ``--repeat`` runs of each deal
or chunk of deals, the two sides of a comparison taking turns):

* random deals per second for every bundled spec (``specs/*.talon``: deal, auction,
  contract steps, play and scoring, statistics accumulated, as ``talon simulate`` runs)
  and decisions (actions by a seat) per second;
* for 501, Solo Whist and Hearts, the play phase alone, measured the same way for the
  engine and for a straightforward hand-coded Python play loop written below: the same
  deals, each started from the state at the first lead and played to its last trick
  (the score is counted on neither side), every choice drawn as the engine's random
  agent draws it, so that both take the same tricks (``tests/test_simulate.py`` checks
  it); and the ratio engine / hand-coded (``play_phase_ratio``);
* for 501, Solo Whist and Hearts, whole deals (deal, auction or pass, talon, gifts,
  play, scoring), engine against a hand-coded whole deal that draws every choice as the
  engine's random agent does, so that both play the very same deals
  (``tests/test_simulate.py`` checks that they reach the same scores); and the ratio
  (``full_deal_ratio``);
* with ``--workers N`` (N > 1), the speed-up of ``N`` local workers over one.

``python tools/bench.py --json`` prints one JSON object instead; ``--specs 501 hearts``
limits the per-spec figures to those specs.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from talon_cards.agents import RandomAgent, play_deal  # noqa: E402
from talon_cards.engine import PLAY  # noqa: E402
from talon_cards.simulate import run_chunk, simulate  # noqa: E402
from talon_cards.spec import load  # noqa: E402


# One-core figures are CPU time of this process (steady when other work shares the
# machine); the workers figure is wall-clock time, as a user waits for it.
CLOCK = time.process_time

# ---------------------------------------------------------------- the hand-coded baseline
# 501's deck: suits S H D C, ranks A 10 K Q J 9 (index 0 the highest), card = suit*6+rank.
HC_SUIT = [c // 6 for c in range(24)]
HC_RANK = [c % 6 for c in range(24)]
HC_POINTS = [(11, 10, 4, 3, 2, 0)[c % 6] for c in range(24)]


MARRIAGES = [(suit * 6 + 2, suit * 6 + 3) for suit in range(4)]        # K and Q of a suit


def hand_coded_play(hands, order, leader, trumps, rng):
    """Play 501's tricks at random, as the rules have them: at a lead, any card, or a
    marriage (K and Q of a suit held) announced by leading its K or its Q; then follow
    suit, else trump, else any card; the highest trump, else the highest card of the suit
    led, wins. `hands`: seat -> sorted list of card ints (consumed), `order`: the seats in
    playing order, `trumps`: suit index or -1. Every choice is drawn as the engine's
    random agent draws it (the cards lowest first, then the marriages), so both play the
    same deal from the same seed. Returns the card points and tricks of each seat and the
    marriages announced, (seat, worth) in order."""
    n = len(order)
    nxt = {order[i]: order[(i + 1) % n] for i in range(n)}
    points = {s: 0 for s in order}
    tricks = {s: 0 for s in order}
    melds = []
    for _ in range(len(hands[leader])):
        seat = leader
        hand = hands[seat]
        options = hand
        for k, q in MARRIAGES:
            if k in hand and q in hand:
                if options is hand:
                    options = list(hand)
                options += [(seat, k), (seat, q)]
        card = rng.choice(options)
        if card.__class__ is tuple:
            card = card[1]
            melds.append((seat, 40 if HC_SUIT[card] == trumps else 20))
        hand.remove(card)
        led = HC_SUIT[card]
        win_seat, win_card = seat, card
        pts = HC_POINTS[card]
        for _ in range(n - 1):
            seat = nxt[seat]
            hand = hands[seat]
            legal = [c for c in hand if HC_SUIT[c] == led]
            if not legal and trumps >= 0:
                legal = [c for c in hand if HC_SUIT[c] == trumps]
            if not legal:
                legal = hand
            card = rng.choice(legal)
            hand.remove(card)
            pts += HC_POINTS[card]
            cs, ws = HC_SUIT[card], HC_SUIT[win_card]
            if (cs == ws and HC_RANK[card] < HC_RANK[win_card]) or (cs == trumps and ws != trumps):
                win_seat, win_card = seat, card
        points[win_seat] += pts
        tricks[win_seat] += 1
        leader = win_seat
    return points, tricks, melds


def hand_coded_deal(rng, dealer):
    """One whole deal of 501 for three seats, hand-coded in plain Python with lists:
    the deal (three rounds of a card each and one to the talon, then four rounds), the
    auction (blind bids, a pass is final), the talon, trumps, the contract, one card
    given to each defender, the play (marriages announced with a lead) and the scoring.
    Every choice is drawn as the engine's random agent draws it, so that both play the
    same deal from the same seed. Returns each seat's score change (None: annulled)."""
    order = [(dealer + 1) % 3, (dealer + 2) % 3, dealer]        # left of the dealer first
    deck = list(range(24))
    rng.shuffle(deck)
    hands = {s: [] for s in order}
    talon = []
    i = 0
    for rounds, to_talon in ((3, 1), (4, 0)):
        for _ in range(rounds):
            for s in order:
                hands[s].append(deck[i])
                i += 1
            for _ in range(to_talon):
                talon.append(deck[i])
                i += 1
    # the auction
    looked = {s: False for s in order}
    passed = {s: False for s in order}
    highest, bidder = None, -1
    k = 0
    while True:
        s = order[k]
        go_blind = not looked[s] and rng.random() < 0.2
        if rng.random() < 0.55:
            passed[s] = True
        else:
            lo = 66 if highest is None else max(66, highest + 1)
            highest = lo + min(int(rng.expovariate(0.3)), max(0, 280 - lo))
            bidder = s
        if not go_blind:
            looked[s] = True
        if highest is None and all(passed.values()):
            return None
        if highest is not None and all(passed[t] for t in order if t != bidder):
            break
        k = (k + 1) % 3
        while passed[order[k]] or order[k] == bidder:
            k = (k + 1) % 3
    declarer = bidder
    defenders = [t for t in order[order.index(declarer) + 1:] + order[:order.index(declarer)]]
    stake = 1 if looked[declarer] else 2
    # the declarer: the talon, trumps (or abandon), the contract, a card to each defender
    hand = sorted(hands[declarer] + talon)
    if rng.random() < 0.05:
        out = {s: -25 for s in defenders}
        out[declarer] = highest * stake
        return out
    trumps = rng._randbelow(5)
    trumps = -1 if trumps == 4 else trumps
    contract = highest + min(int(rng.expovariate(0.5)), 20)
    todo = sorted(defenders)
    for _ in range(2):
        r = rng._randbelow(len(todo) * len(hand))
        t, card = todo[r // len(hand)], hand[r % len(hand)]
        hand.remove(card)
        hands[t].append(card)
        todo.remove(t)
    hands[declarer] = hand
    for s in order:
        hands[s].sort()
    points, tricks, melds = hand_coded_play(hands, order, order[0], trumps, rng)
    for s, worth in melds:
        if tricks[s] >= 1:
            points[s] += worth
    made = points[declarer] >= contract
    out = {s: -points[s] for s in defenders}
    out[declarer] = (-contract if made else contract) * stake
    return out


# Hearts and Solo Whist: 52 cards, suits S H D C, ranks A K Q … 2 (index 0 the highest),
# card = suit*13+rank.
H_SUIT = [c // 13 for c in range(52)]
H_RANK = [c % 13 for c in range(52)]
H_POINTS = [13 if c == 2 else (1 if c // 13 == 1 else 0) for c in range(52)]
TWO_CLUBS = 3 * 13 + 12


def hand_coded_hearts_play(hands, order, leader, rng):
    """Play 13 tricks of Hearts at random: the two of clubs leads, follow suit, no
    penalty card on the first trick while holding another, no heart led before hearts
    are broken unless holding only hearts; the highest card of the suit led wins.
    `hands`: seat -> sorted list of card ints (consumed). Returns each seat's points."""
    n = len(order)
    nxt = {order[i]: order[(i + 1) % n] for i in range(n)}
    points = {s: 0 for s in order}
    taken = {s: [] for s in order}
    broken = False
    for t in range(13):
        seat = leader
        hand = hands[seat]
        if t == 0:
            legal = [TWO_CLUBS]
        else:
            legal = hand if broken else ([c for c in hand if H_SUIT[c] != 1] or hand)
        card = rng.choice(legal)
        hand.remove(card)
        led = H_SUIT[card]
        trick = [card]
        win_seat, win_card = seat, card
        for _ in range(n - 1):
            seat = nxt[seat]
            hand = hands[seat]
            legal = [c for c in hand if H_SUIT[c] == led] or hand
            if t == 0:
                legal = [c for c in legal if not H_POINTS[c]] or legal
            card = rng.choice(legal)
            hand.remove(card)
            trick.append(card)
            if H_SUIT[card] == led and H_RANK[card] < H_RANK[win_card]:
                win_seat, win_card = seat, card
        for c in trick:
            points[win_seat] += H_POINTS[c]
            if H_SUIT[c] == 1:
                broken = True
        taken[win_seat] += trick
        leader = win_seat
    return points, taken


def hand_coded_hearts(rng, dealer, deal_number):
    """One whole deal of Hearts, hand-coded: the deal (13 rounds of one card), the pass
    of three cards (left, right, across, none by deal number), the play and the score
    with shooting the moon; choices drawn as the engine's random agent draws them."""
    order = [(dealer + k) % 4 for k in range(1, 5)]
    deck = list(range(52))
    rng.shuffle(deck)
    hands = {s: [] for s in order}
    for i, c in enumerate(deck):
        hands[order[i % 4]].append(c)
    for s in order:
        hands[s].sort()
    way = (1, -1, 2, 0)[(deal_number - 1) % 4]
    if way:
        passed = {}
        for i, s in enumerate(order):
            hand = hands[s]
            out = []
            for _ in range(3):
                card = rng.choice(hand)
                hand.remove(card)
                out.append(card)
            passed[order[(i + (2 if way == 2 else way)) % 4]] = out
        for s in order:
            hands[s] = sorted(hands[s] + passed[s])
    leader = next(s for s in order if TWO_CLUBS in hands[s])
    points, taken = hand_coded_hearts_play(hands, order, leader, rng)
    shooter = [s for s in order if sum(1 for c in taken[s] if H_SUIT[c] == 1) == 13 and 2 in taken[s]]
    if shooter:
        return {s: 0 if s in shooter else 26 for s in order}
    return points


def hand_coded_trick_play(hands, order, leader, trumps, declarer, partner, least, most, concedable, rng):
    """Play out the tricks of a plain-trick game at random (Solo Whist's play): follow
    suit, else any card; the highest trump, else the highest card of the suit led, wins.
    The declarer may concede once its side's goal (`least` to `most` tricks) is out of
    reach in a concedable contract, which ends the play. Every choice is drawn as the
    engine's random agent draws it (the cards lowest first, then conceding). Returns
    each seat's tricks and whether the declarer conceded."""
    n = len(order)
    nxt = {order[i]: order[(i + 1) % n] for i in range(n)}
    tricks = {s: 0 for s in order}
    for _ in range(len(hands[leader])):
        seat = leader
        win_seat = win_card = led = None
        for k in range(n):
            hand = hands[seat]
            legal = hand if k == 0 else ([c for c in hand if H_SUIT[c] == led] or hand)
            if seat == declarer and concedable:
                won = tricks[declarer] + (tricks[partner] if partner >= 0 else 0)
                if won > most or won + len(hand) < least:           # the contract is lost
                    r = rng._randbelow(len(legal) + 1)
                    if r == len(legal):
                        return tricks, True
                    card = legal[r]
                else:
                    card = rng.choice(legal)
            else:
                card = rng.choice(legal)
            hand.remove(card)
            if k == 0:
                led = H_SUIT[card]
                win_seat, win_card = seat, card
            else:
                cs, ws = H_SUIT[card], H_SUIT[win_card]
                if (cs == ws and H_RANK[card] < H_RANK[win_card]) or (cs == trumps and ws != trumps):
                    win_seat, win_card = seat, card
            seat = nxt[seat]
        tricks[win_seat] += 1
        leader = win_seat
    return tricks, False


# Solo Whist's ladder, lowest first: (partner, least, most, trumps, unit, concedable,
# declarer leads); partner "seeks" (a proposal), "joins" (its acceptance) or None.
SW_LADDER = [("seeks", 8, 13, "exposed", 1, False, False),      # prop
             ("joins", 8, 13, "exposed", 1, False, False),      # cop
             (None, 5, 13, "exposed", 1, False, False),         # solo
             (None, 0, 0, "none", 2, True, False),              # misère
             (None, 9, 13, "chosen", 3, False, False),          # abundance
             (None, 9, 13, "exposed", 3, False, False),         # abundance in trumps
             (None, 0, 0, "none", 4, True, False),              # misère ouverte
             (None, 13, 13, "none", 6, True, True)]             # abundance declared
PROP, COP, ABUNDANCE, ROYAL = 0, 1, 4, 5


def hand_coded_solo_whist(rng, dealer, deal_number):
    """One whole deal of Solo Whist, hand-coded: the deal (four packets of three, then
    one card each, the dealer's last card face up for trumps), the auction up the
    ladder (prop opens, cop accepts, the opener's second chance to accept, a proposal
    nobody accepts raised or annulled, abundance in trumps over abundance only), trumps
    named for abundance, the play (with the declarer's concession once a concedable
    contract is lost) and the score; every choice drawn as the engine's random agent
    draws it. Returns each seat's score change (None: annulled)."""
    order = [(dealer + k) % 4 for k in range(1, 5)]       # left of the dealer first
    deck = list(range(52))
    rng.shuffle(deck)
    hands = {s: [] for s in order}
    i = 0
    for _ in range(4):
        for s in order:
            hands[s] += deck[i:i + 3]
            i += 3
    for s in order:
        hands[s].append(deck[i])
        i += 1
    exposed = deck[51]
    opener = order[0]
    passed = {s: False for s in order}
    passes = {s: 0 for s in order}
    declined = {s: -1 for s in order}
    highest, bidder, partner = None, -1, -1
    n_bids = first_round_bids = taken = 0
    reopened = raising = False
    s = opener
    while True:
        # the random agent: a pass, else a contract it may bid, low ones likelier
        a = None
        if rng.random() >= 0.55:
            start = 0 if highest is None else highest + 1
            bids = [v for v in range(start, 8)
                    if (not reopened or v == COP)
                    and (v != PROP or highest is None)
                    and (v != COP or (highest == PROP and bidder != s))
                    and (v != ROYAL or highest == ABUNDANCE)]
            if bids:
                a = bids[min(int(rng.expovariate(0.7)), len(bids) - 1)]
        first_round = taken < 4
        taken += 1
        if a is None:
            if raising:
                return None                   # the proposal stands unaccepted
            if reopened:
                declined[s] = n_bids
            passed[s] = True
            passes[s] += 1
        else:
            n_bids += 1
            if first_round:
                first_round_bids += 1
            if a == COP:
                partner = s
            else:
                bidder, partner = s, -1
            highest = a
            if raising:
                break
        # the next seat that may speak
        k = order.index(s)
        for j in range(1, 5):
            t = order[(k + j) % 4]
            if t in (bidder, partner):
                continue
            if not passed[t] or (declined[t] != n_bids and t == opener and passes[t] == 1
                                 and first_round_bids == 1 and highest == PROP):
                s, reopened = t, passed[t]
                break
        else:
            if highest is None:
                return None
            if highest == PROP and partner < 0:
                s, raising, reopened = bidder, True, False
                continue
            break
    seeks, least, most, trumps, unit, concedable, declarer_leads = SW_LADDER[highest]
    k = order.index(bidder)
    clockwise = order[k:] + order[:k]
    declarers = [t for t in clockwise if t in (bidder, partner)]
    if trumps == "exposed":
        trumps = exposed // 13
    elif trumps == "none":
        trumps = -1
    else:
        trumps = rng._randbelow(4)            # abundance: the declarer names a suit
    for t in order:
        hands[t].sort()
    leader = bidder if declarer_leads else order[0]
    tricks, _ = hand_coded_trick_play(hands, order, leader, trumps, bidder, partner, least, most,
                                      concedable, rng)
    won = sum(tricks[t] for t in declarers)
    made = least <= won <= most
    n_defenders = 4 - len(declarers)
    return {t: (unit if made else -unit) * n_defenders // len(declarers) if t in declarers
            else (-unit if made else unit) for t in order}


# ---------------------------------------------------------------- measurements
def _bits(m):
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


def deal_at_first_lead(game, seed, i):
    """Deal `i` of a run, played at random up to its first lead, and the seed its play
    phase is to use; None if it never gets there (annulled, abandoned)."""
    seats = game.seat_counts[0]
    rng = random.Random((seed << 32) ^ i)
    d = game.new_deal(seats, i % seats, deal_number=1 + i % 4)
    d.deal_random(rng)
    agent = RandomAgent(rng)
    while not d.is_terminal() and d.phase != PLAY:
        d.apply_action(agent.act(d))
    return (d, (seed << 32) ^ i ^ 0x5EED) if d.phase == PLAY else None


def prepared_deals(game, count, seed):
    """`count` deals played at random up to the first lead (annulled and abandoned
    deals skipped), with the seed each one's play phase is to use."""
    out = []
    i = 0
    while len(out) < count:
        got = deal_at_first_lead(game, seed, i)
        if got is not None:
            out.append(got)
        i += 1
    return out


def _snapshot_501(d):
    return ({s: _bits(d.hands[s]) for s in d.active}, list(d.active), d.leader, d.trumps)


def _snapshot_trumps(d):
    e = d.game.ladder[d.entry_index]
    return ({s: _bits(d.hands[s]) for s in d.active}, list(d.active), d.leader, d.trumps, d.declarer,
            d.partner, e.least, e.most, bool(d.game.concede is not None and d.entry.get("concedable")))


def _snapshot_hearts(d):
    return ({s: _bits(d.hands[s]) for s in d.active}, list(d.active), d.leader)


PLAY_BASELINES = {
    # spec: (its hand-coded play loop, the arguments it takes from a deal at the first lead)
    "501": (hand_coded_play, _snapshot_501),
    "solo-whist": (hand_coded_trick_play, _snapshot_trumps),
    "hearts": (hand_coded_hearts_play, _snapshot_hearts),
}


def _no_score(d):
    """The engine's scoring, switched off while its play phase is timed: the baselines
    play the tricks and stop there."""


def bench_play_phase(game, count, seed, repeat, ref="501"):
    """Deals per second of the play phase, from the first lead to the last trick (the
    score is not counted on either side): engine (random agent), engine through the
    generic interface (legal_actions + choice), and the hand-coded baseline.

    Each deal's play is timed on its own, from a state built just before it by the
    deal's own auction and steps (as a simulation reaches it), so that neither side
    plays from states built long before and gone cold in memory; the three take turns
    deal by deal, each deal's best time over the repeats counts, and the cost of
    reading the clock is taken off all three."""
    baseline, snapshot = PLAY_BASELINES[ref]
    ids, i = [], 0
    while len(ids) < count:
        if deal_at_first_lead(game, seed, i) is not None:
            ids.append(i)
        i += 1

    names = ("hand_coded", "engine", "engine_legal_actions")
    spent = {name: [float("inf")] * len(ids) for name in names}
    settle = game._cache.get("compiled_settle")
    game._cache["compiled_settle"] = _no_score          # the play alone, as the baselines
    try:
        for _ in range(repeat):
            gc.collect()
            for j, i in enumerate(ids):
                # the three in turn on each deal; each deal's best time over the repeats
                for name in names:
                    d, ps = deal_at_first_lead(game, seed, i)
                    if name == "hand_coded":
                        args = snapshot(d) + (random.Random(ps),)
                        t = CLOCK()
                        baseline(*args)
                    elif name == "engine":
                        agent = RandomAgent(random.Random(ps))
                        t = CLOCK()
                        play_deal(d, agent)
                    else:
                        rng = random.Random(ps)
                        t = CLOCK()
                        while not d.is_terminal():
                            d.apply_action(rng.choice(d.legal_actions()))
                    took = CLOCK() - t
                    if took < spent[name][j]:
                        spent[name][j] = took
    finally:
        game._cache["compiled_settle"] = settle
    cost = _clock_cost(count)
    return {name: count / max(sum(v) - cost, 1e-9) for name, v in spent.items()}


def _clock_cost(count: int) -> float:
    """What reading the clock around `count` timed pieces costs by itself."""
    spent = 0.0
    for _ in range(count):
        t = CLOCK()
        spent += CLOCK() - t
    return spent


FULL_BASELINES = {
    # spec: a hand-coded whole deal (rng, dealer, deal number) -> score changes
    "501": lambda rng, dealer, number: hand_coded_deal(rng, dealer),
    "solo-whist": hand_coded_solo_whist,
    "hearts": hand_coded_hearts,
}


CHUNK = 100       # deals timed together; the two sides take turns, chunk by chunk


def bench_full_deal(game, count, seed, repeat, ref="501"):
    """Whole deals per second, same seeds: the engine (a new deal, dealt at random,
    played to its score by the random agent) and the hand-coded deal. The two take
    turns a chunk of deals at a time; each chunk's best time over the repeats counts,
    so that a busy spell on a shared machine weighs on neither side alone."""
    baseline = FULL_BASELINES[ref]
    seats = game.seat_counts[0]
    seeds = [((seed << 32) ^ i, i % seats, 1 + i % 4) for i in range(count)]
    chunks = [seeds[i:i + CHUNK] for i in range(0, count, CHUNK)]
    best = {"engine": [float("inf")] * len(chunks), "hand_coded": [float("inf")] * len(chunks)}
    for _ in range(repeat):
        gc.collect()
        for k, chunk in enumerate(chunks):
            t = CLOCK()
            for ps, dealer, number in chunk:
                baseline(random.Random(ps), dealer, number)
            best["hand_coded"][k] = min(best["hand_coded"][k], CLOCK() - t)
            t = CLOCK()
            for ps, dealer, number in chunk:
                rng = random.Random(ps)
                d = game.new_deal(seats, dealer, deal_number=number)
                d.deal_random(rng)
                play_deal(d, RandomAgent(rng))
            best["engine"][k] = min(best["engine"][k], CLOCK() - t)
    return {k: count / sum(v) for k, v in best.items()}


def decisions_per_deal(game, count, seed):
    """The mean number of decisions (actions taken by a seat) in a random deal."""
    seats = game.seat_counts[0]
    total = 0
    for i in range(count):
        rng = random.Random((seed << 32) ^ i)
        d = game.new_deal(seats, i % seats, deal_number=1 + i % 4)
        d.deal_random(rng)
        play_deal(d, RandomAgent(rng))
        total += len(d.history)
    return total / count


def bench_spec(ref, hands, seed, repeat):
    """Random deals per second of a spec as ``simulate`` plays them (statistics
    included), timed 500 deals at a time, each chunk's best over the repeats counting."""
    game = load(ref)
    seats = game.seat_counts[0]
    run_chunk(ref, seats, seed, 0, min(hands, 50))          # the spec loaded and compiled
    bounds = [(a, min(a + 500, hands)) for a in range(0, hands, 500)]
    best = [float("inf")] * len(bounds)
    for _ in range(repeat):
        gc.collect()
        for k, (a, b) in enumerate(bounds):
            t = CLOCK()
            run_chunk(ref, seats, seed, a, b)
            best[k] = min(best[k], CLOCK() - t)
    return hands / sum(best)


def bench_workers(ref, hands, seed, workers):
    game = load(ref)
    seats = game.seat_counts[0]
    out = {}
    for w in (1, workers):
        t = time.perf_counter()
        simulate(game, hands, seed, seats, progress=False, workers=w, spec_ref=ref)
        out[w] = hands / (time.perf_counter() - t)
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hands", type=int, default=20000, help="deals per measurement (default 20000)")
    p.add_argument("--repeat", type=int, default=3, help="best of this many runs (default 3)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=2, help="also time this many workers against one (default 2; 1 to skip)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--specs", nargs="*", help="bundled specs for the per-spec figures (default: all)")
    args = p.parse_args(argv)

    specs = sorted(str(q) for q in (ROOT / "specs").glob("*.talon")
                   if not args.specs or q.stem in args.specs)
    names = {s: Path(s).stem for s in specs}
    per_spec, decisions = {}, {}
    for s in specs:
        per_spec[names[s]] = bench_spec(s, args.hands, args.seed, args.repeat)
        decisions[names[s]] = per_spec[names[s]] * decisions_per_deal(load(s), min(args.hands, 2000), args.seed)
    games = {}
    for ref in ("501", "solo-whist", "hearts"):
        game = load(str(ROOT / "specs" / f"{ref}.talon"))
        play = bench_play_phase(game, args.hands, args.seed, args.repeat, ref)
        fig = {"play_phase_per_second": {k: round(v) for k, v in play.items()},
               "play_phase_ratio": round(play["engine"] / play["hand_coded"], 3)}
        if ref in FULL_BASELINES:
            full = bench_full_deal(game, args.hands, args.seed, args.repeat, ref)
            fig["full_deal_per_second"] = {k: round(v) for k, v in full.items()}
            fig["full_deal_ratio"] = round(full["engine"] / full["hand_coded"], 3)
        games[ref] = fig
    out = {
        "python": sys.version.split()[0],
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}",
        "hands": args.hands,
        "deals_per_second": {k: round(v) for k, v in per_spec.items()},
        "decisions_per_second": {k: round(v) for k, v in decisions.items()},
        "play_phase_per_second": games["501"]["play_phase_per_second"],
        "play_phase_ratio": games["501"]["play_phase_ratio"],
        "full_deal_per_second": games["501"]["full_deal_per_second"],
        "full_deal_ratio": games["501"]["full_deal_ratio"],
        "games": games,
    }
    if args.workers > 1:
        w = bench_workers(str(ROOT / "specs" / "501.talon"), max(args.hands, 10000) * args.workers,
                          args.seed, args.workers)
        out["workers"] = {"cpus": os.cpu_count(), "load_average": round(os.getloadavg()[0], 2),
                          "deals_per_second": {str(k): round(v) for k, v in w.items()},
                          "speedup": round(w[args.workers] / w[1], 2)}
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"Python {out['python']}, {args.hands} deals per measurement, best of {args.repeat}, "
          f"one core (CPU time)\n")
    print(f"{'spec':<28} {'random deals/s':>14} {'decisions/s':>12}")
    for k, v in out["deals_per_second"].items():
        print(f"{k:<28} {v:>14,} {out['decisions_per_second'][k]:>12,}")
    labels = {"engine": "engine (random agent)", "engine_legal_actions": "engine (legal_actions)",
              "hand_coded": "hand-coded Python"}
    for ref, fig in out["games"].items():
        for kind, what in (("play_phase", "play phase (same deals, from the first lead to the last trick)"),
                           ("full_deal", "whole deals (deal, auction or pass, play, score)")):
            if f"{kind}_ratio" not in fig:
                continue
            print(f"\n{ref}: {what}, deals/s")
            for side, v in fig[f"{kind}_per_second"].items():
                print(f"{labels[side]:<28} {v:>14,}")
            print(f"{'ratio engine / hand-coded':<28} {fig[f'{kind}_ratio']:>14.2f}")
    if "workers" in out:
        w = out["workers"]
        print(f"\n501 simulate, {w['cpus']} CPUs, wall-clock: " + ", ".join(
            f"{k} worker{'s' if k != '1' else ''} {v:,}/s" for k, v in w["deals_per_second"].items())
            + f"; speed-up {w['speedup']:.2f}x (load average {w['load_average']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
