"""The deal compiled from the spec plays exactly as the interpreted engine: thousands
of seeded deals of every bundled spec, played both ways by the same random agent,
give the same actions, scores and per-seat memory."""
from __future__ import annotations

import random

import pytest

from talon_cards.agents import RandomAgent, play_deal
from talon_cards.engine.compiled import compiled_play, interpreted, settle_source, source
from talon_cards.spec import bundled_names, load

SPECS = sorted(bundled_names())
GAMES = {"501", "solo-whist", "whist", "oh-hell", "hearts", "sixty-six", "tysyacha"}

FIELDS = ("history", "deltas", "scores", "counters", "tricks", "card_points", "taken", "melds",
          "history_tricks", "trumps", "made", "conceded", "annulled", "abandoned", "lets",
          "meld_points_of", "deal_points_of", "hand_shown", "last_trick_winner", "played",
          "tricks_done", "tricks_left", "exposed_visible", "leader", "phase")


def _deal(g, seed: int):
    """A seeded deal, a match's worth of state carried in: scores (near the game's
    thresholds as often as not), per-seat counters, the deal number."""
    seats = g.seat_counts[seed % len(g.seat_counts)]
    state = random.Random(~seed)
    scores = None
    counters = None
    if seed % 2:
        scores = [state.choice((-30, 0, 5, 120, 480, 501, 870, 880, 990, 1000)) + state.randrange(-5, 6)
                  for _ in range(seats)]
        counters = {name: [state.randrange(0, 4) for _ in range(seats)] for name, _ in g.counters}
    rng = random.Random(seed)
    number = 1 + seed % 9
    d = g.new_deal(seats, seed % seats, scores=scores, deal_number=number, counters=counters)
    d.deal_random(rng)
    return d, rng


def _fast(g, seed):
    d, rng = _deal(g, seed)
    play_deal(d, RandomAgent(rng))
    return d


def _reference(g, seed):
    """The same deal, one action at a time, on the interpreted paths."""
    with interpreted(g):
        d, rng = _deal(g, seed)
        agent = RandomAgent(rng)
        while not d.is_terminal():
            d.apply_action(agent.act(d))
    return d


@pytest.mark.parametrize("ref", SPECS)
def test_compiled_deals_equal_the_interpreted_ones(ref):
    g = load(ref)
    n = 1000 if ref in GAMES else 150
    played = 0
    for seed in range(n):
        a, b = _fast(g, seed), _reference(g, seed)
        for f in FIELDS:
            assert getattr(a, f) == getattr(b, f), f"{ref} seed {seed}: {f} differs"
        played += bool(a.history_tricks)
    assert played > n // 2        # most deals reach the play: the comparison is not vacuous


@pytest.mark.parametrize("ref", ["501", "hearts", "solo-whist", "sixty-six"])
def test_the_generated_code_is_built_once_for_every_kind_of_play(ref):
    g = load(ref)
    fn = compiled_play(g)
    assert compiled_play(g) is fn and callable(fn)
    src = source(g)
    assert "def play(d, rng)" in src
    compile(src, "<test>", "exec")
    # a stock drawn from: the interpreted end of a trick draws, the loop picks up after it
    assert ("END_TRICK(d)" in src) == bool(g.draw)
    compile(settle_source(g), "<test>", "exec")


def test_reference_switch_restores_the_compiled_paths():
    g = load("501")
    fn = compiled_play(g)
    with interpreted(g):
        assert g._cache["compiled_play"] is None
    assert g._cache["compiled_play"] is fn


def test_a_formula_of_negated_numbers_is_not_taken_for_a_number(tmp_path):
    """Found by the mutation fuzz: `-(-100)` has a source of nested signs, which is not a
    number written out; the spec validates and plays."""
    from talon_cards.spec import load as load_spec
    p = tmp_path / "neg.talon"
    p.write_text('variant neg "Negated bids"\nextends tysyacha\nauction:\n'
                 "  replace bids [R1000-7]: a bid is a number from -(-100), in steps of 5, above the highest bid\n")
    g = load_spec(str(p))
    assert getattr(g.min_bid, "const", None) is None
    for seed in range(20):
        d = g.new_deal(3, seed % 3)
        rng = random.Random(seed)
        d.deal_random(rng)
        play_deal(d, RandomAgent(rng))
        assert d.is_terminal()


def test_melds_and_conceding_together_play_as_the_interpreter_does(tmp_path):
    """A spec may have both melds announced with a lead and conceding: the actions after
    the cards are taken in legal_actions' order (melds, then the rest sorted)."""
    p = tmp_path / "sw-marriage.talon"
    p.write_text('variant sw-marriage "Solo Whist with marriages"\nextends solo-whist\nmelds:\n'
                 "  marriage: meld of K and Q of one suit, announced when leading one of them\n"
                 "  marriage-worth: a marriage is worth 20\n")
    g = load(str(p))
    conceded = announced = 0
    for seed in range(400):
        a, b = _fast(g, seed), _reference(g, seed)
        assert a.history == b.history and a.deltas == b.deltas, f"seed {seed}"
        conceded += a.conceded
        announced += bool(a.melds)
    assert conceded > 20 and announced > 20
