"""Solo Whist invariants over random deals (hypothesis, modest example counts).

Every simulated deal is written as a hand record and checked against an independent
reading of the rules page (``referee`` below: the auction's last bid, the trumps, the
tricks counted from the plays, the goals and units of the contract table, RSW-15/16),
so the engine is compared with the rules, not with itself.
"""
from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from talon_cards.engine import AUCTION, Match
from talon_cards.records import deal_record, replay_record
from talon_cards.simulate import simulate
from talon_cards.spec import load

G = load("solo-whist")
SEATS = list("ABCD")
RANKS = "A K Q J 10 9 8 7 6 5 4 3 2".split()
GOALS = {"cop": (8, 13), "solo": (5, 13), "misere": (0, 0), "abundance": (9, 13),
         "abundance-in-trumps": (9, 13), "misere-ouverte": (0, 0), "abundance-declared": (13, 13)}
UNITS = {"cop": 1, "solo": 1, "misere": 2, "abundance": 3, "abundance-in-trumps": 3,
         "misere-ouverte": 4, "abundance-declared": 6}
TRUMPS = {"cop": "exposed", "solo": "exposed", "misere": None, "abundance": "chosen",
          "abundance-in-trumps": "exposed", "misere-ouverte": None, "abundance-declared": None}
CONCEDABLE = {"misere", "misere-ouverte", "abundance-declared"}
SUIT_WORDS = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ----------------------------------------------------------------- the referee
def referee(rec: dict) -> dict:
    """Read one deal record as the rules page does: returns the expected deltas,
    tricks and outcome, asserting on the way that every play was legal (RSW-12)."""
    seats, dealer = rec["seats"], rec["dealer"]
    i = seats.index(dealer)
    order = [seats[(i + k) % 4] for k in range(1, 5)]          # RSW-2/7/12: dealer's left first
    held = {n: set(cs) for n, cs in rec["hands"].items()}
    assert all(len(h) == 13 for h in held.values())
    assert rec["exposed"] in held[dealer]                        # RSW-3
    bids, plays, named, conceded = [], [], None, None
    for a in rec["actions"]:
        who, verb, *rest = a.split()
        if verb == "bid":
            assert not plays
            bids.append((who, rest[0]))
        elif verb == "trumps":
            named = rest[0]
        elif verb == "play":
            plays.append((who, rest[0]))
        elif verb == "concede":
            conceded = who
        else:
            assert verb == "pass", a
    zero = {n: 0 for n in seats}
    if not bids or bids[-1][1] == "prop":                         # RSW-11: annulled
        assert not plays and named is None
        return {"deltas": zero, "annulled": True}
    names = [b for _, b in bids]
    assert names.count("prop") <= 1 and names.count("cop") <= 1    # RSW-8
    if "prop" in names:
        assert names[0] == "prop"
    contract_seat, contract = bids[-1]
    if contract == "cop":
        proposer = bids[names.index("prop")][0]
        assert names.index("cop") == names.index("prop") + 1
        assert proposer != contract_seat
        declarer, side = proposer, {proposer, contract_seat}
    else:
        declarer, side = contract_seat, {contract_seat}
    if contract == "abundance-in-trumps":
        assert names[-2] == "abundance"                           # RSW-4
    kind = TRUMPS[contract]
    trumps = {"exposed": rec["exposed"][-1], None: None}.get(kind)
    if kind == "chosen":                                          # RSW-5
        assert named in SUIT_WORDS
        trumps = SUIT_WORDS[named]
    else:
        assert named is None
    leader = declarer if contract == "abundance-declared" else order[0]
    tricks = {n: 0 for n in seats}
    for k in range(0, len(plays), 4):
        trick = plays[k:k + 4]
        expect = order[order.index(leader):] + order[:order.index(leader)]
        assert [w for w, _ in trick] == expect[:len(trick)]       # clockwise from the leader
        led = trick[0][1][-1]
        for who, card in trick:
            assert card in held[who]
            if card[-1] != led:                                   # may not revoke
                assert not any(c[-1] == led for c in held[who])
            held[who].discard(card)
        if len(trick) < 4:
            break
        pool = [(w, c) for w, c in trick if c[-1] == trumps] or [(w, c) for w, c in trick if c[-1] == led]
        winner = min(pool, key=lambda wc: RANKS.index(wc[1][:-1]))[0]
        tricks[winner] += 1
        leader = winner
    done = len(plays) // 4
    won = sum(tricks[s] for s in side)
    least, most = GOALS[contract]
    if conceded:                                                  # RSW-14
        assert conceded == declarer and contract in CONCEDABLE
        assert won > most or won + (13 - done) < least
        made = False
    else:
        assert len(plays) == 52
        made = least <= won <= most
    sign = 1 if made else -1
    u = UNITS[contract]
    if contract == "cop":                                         # RSW-15
        deltas = {n: sign if n in side else -sign for n in seats}
    else:                                                         # RSW-16
        deltas = {n: 3 * u * sign if n == declarer else -u * sign for n in seats}
    return {"deltas": deltas, "annulled": False, "made": made, "tricks": tricks,
            "contract": contract, "side": side, "conceded": bool(conceded), "plays": plays}


# ----------------------------------------------------------------- random play
def play_random(seed: int, dealer: int, pass_rate: float, concede_rate: float, scores=None, number=1):
    """A deal played by random legal actions; in the auction a seat passes with
    `pass_rate`, else bids the lowest bid or any one with equal odds; a declarer whose contract has failed concedes with `concede_rate` at
    any moment, in turn or not."""
    rng = random.Random(seed)
    d = G.new_deal(4, dealer, scores, number)
    d.deal_random(rng)
    while not d.is_terminal():
        if d.declarer >= 0 and rng.random() < concede_rate and G.codec.CONCEDE in d.legal_actions(d.declarer):
            d.apply_action(G.codec.CONCEDE, d.declarer)
            continue
        acts = d.legal_actions()
        if d.phase == AUCTION:
            bids = [a for a in acts if a != G.codec.PASS]
            if not bids or rng.random() < pass_rate:
                d.apply_action(G.codec.PASS)
            else:                       # the lowest bid half the time, else any
                d.apply_action(bids[0] if rng.random() < 0.5 else rng.choice(bids))
        else:
            d.apply_action(rng.choice([a for a in acts if a != G.codec.CONCEDE] or acts))
    return d


deals = st.builds(play_random, st.integers(0, 2 ** 40), st.integers(0, 3),
                  st.sampled_from([0.3, 0.5, 0.7]), st.sampled_from([0.0, 0.2, 1.0]))


@SETTINGS
@given(deals)
def test_deltas_of_every_deal_sum_to_zero(d):
    assert sum(d.returns()) == 0
    assert d.scores == [a + b for a, b in zip(d.scores_before, d.returns())]


@SETTINGS
@given(deals)
def test_deal_agrees_with_the_rules_page(d):
    rec = deal_record(d, SEATS, "solo-whist")
    ref = referee(rec)
    assert [ref["deltas"][n] for n in SEATS] == d.returns()
    assert d.annulled == ref["annulled"]
    if not ref["annulled"]:
        assert d.made == ref["made"] and d.conceded == ref["conceded"]
        assert [ref["tricks"][n] for n in SEATS] == d.tricks
        assert d.contract_name() == ref["contract"]


@SETTINGS
@given(deals)
def test_each_seat_plays_13_cards_unless_conceded(d):
    played = [sum(1 for s, a in d.history if s == t and a < G.n_cards) for t in range(4)]
    if d.annulled:
        assert played == [0, 0, 0, 0]
    elif d.conceded:
        assert max(played) <= 13 and max(played) - min(played) <= 1
        assert sum(played) < 52
    else:
        assert played == [13, 13, 13, 13] and d.tricks_done == 13
        assert all(h == 0 for h in d.hands)


@SETTINGS
@given(deals)
def test_prop_cop_partners_receive_equal_deltas(d):
    if d.contract_name() == "cop":
        p, q = d.declarers
        assert d.returns()[p] == d.returns()[q] in (1, -1)
        assert all(d.returns()[s] == -d.returns()[p] for s in d.defenders)
    elif not d.annulled:
        assert len(d.declarers) == 1


@SETTINGS
@given(deals)
def test_replay_of_a_record_reproduces_it(d):
    rec = deal_record(d, SEATS, "solo-whist")
    r = replay_record(rec, game=G)
    again = r.deals[0]
    assert deal_record(again, SEATS, "solo-whist") == rec
    assert again.history == d.history and again.returns() == d.returns()
    assert r.to_json()["deltas"] == dict(zip(SEATS, d.returns()))


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2 ** 40), st.integers(0, 3))
def test_same_seed_same_deal(seed, dealer):
    a = play_random(seed, dealer, 0.5, 0.2)
    b = play_random(seed, dealer, 0.5, 0.2)
    assert a.history == b.history and a.returns() == b.returns() and a.dealt == b.dealt


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2 ** 40))
def test_session_of_eight_deals(seed):
    """RSW-17: eight deals, annulled ones included; the highest balance wins, ties share."""
    rng = random.Random(seed)
    m = Match(G, 4, first_dealer=rng.randrange(4))
    total = [0] * 4
    dealers = []
    while not m.game_over:
        d = m.new_deal()
        dealers.append(d.dealer)
        d2 = play_random(rng.randrange(2 ** 40), d.dealer, rng.choice([0.5, 0.9]), 0.5,
                         m.scores, m.deals_played + 1)
        for s in range(4):
            total[s] += d2.returns()[s]
        m.finish(d2)
    assert m.deals_played == 8 and m.scores == total
    assert dealers == [(dealers[0] + k) % 4 for k in range(8)]
    assert sorted(m.winners) == [s for s in range(4) if total[s] == max(total)]


def test_simulated_records_replay_and_follow_the_rules():
    """`talon simulate`'s own records: each replays to the same result and agrees with
    the referee; the same seed gives the same records."""
    recs, recs2 = [], []
    stats = simulate(G, 300, 5, 4, records=recs.append, progress=False)
    simulate(G, 300, 5, 4, records=recs2.append, progress=False)
    assert recs == recs2
    made = {}
    for rec in recs:
        r = replay_record(rec, game=G).to_json()
        ref = referee(rec)
        assert r["deals"][0]["deltas"] == ref["deltas"]
        if not ref["annulled"]:
            made.setdefault(ref["contract"], [0, 0])
            made[ref["contract"]][0] += 1
            made[ref["contract"]][1] += ref["made"]
    rows = {row["contract"]: (row["played"], row["made"]) for row in stats.to_json()["contracts"] if row["played"]}
    assert rows == {k: tuple(v) for k, v in made.items()}
    bid_in = {}
    for rec in recs:
        for name in {a.split()[2] for a in rec["actions"] if a.split()[1] == "bid"}:
            bid_in[name] = bid_in.get(name, 0) + 1
    assert {row["contract"]: row["bid"] for row in stats.to_json()["contracts"]} == bid_in
    assert stats.to_json()["annulled"] == sum(1 for rec in recs if referee(rec)["annulled"])
