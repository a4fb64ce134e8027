"""The general search's points search (``_Points``) and the check that decides where it
is exact (``_Curves``: the result as a rising or falling function of the side's future
card points, found by tracing the spec's scoring).

Endings of three and four tricks of the point games and their variants, and of
variants written here whose result does not depend on one total, are solved and
checked against plain minimax (``check`` of test_solver). The curve the check finds is
compared with the plain scoring of many ways of sharing the rest of the play, and the
brute-force comparison is shown to catch a check that accepted too much."""
from __future__ import annotations

import random

import pytest

from talon_cards import solver as S
from talon_cards.solver import Solver, _Curves
from talon_cards.spec import load

from test_solver import check, endings

POINT_GAMES = ["501", "501-marriage-trumps", "501-suit-marriages", "501-rounded", "501-must-beat",
               "501-trump-to-win", "tysyacha", "tysyacha-900", "hearts", "oh-hell", "sixty-six"]

# 501 with a result that is not one function of the declarer's future card points:
# made on tricks (the result reads two totals), a defender's own points doubled past
# 30 (each defender's share counts), and one that is (every defender's points doubled).
VARIANTS = {
    "made-on-tricks": "scoring:\n  replace made [house]: the contract is made when tricks of declarer >= 5\n",
    "doubled-past-30": ("scoring:\n  replace defender-result [house]: when played, each defender scores "
                        "-(points of seat * 2 if points of seat > 30 else points of seat)\n"),
    "tricks-count": ("scoring:\n  replace defender-result [house]: when played, each defender scores "
                     "-(points of seat + 10 * tricks of seat)\n"),
    "all-doubled": ("scoring:\n  replace defender-result [house]: when played, each defender scores "
                    "-2 * points of seat\n"),
    # points count against whoever takes them: the result falls as the side's points rise
    "points-hurt": ("scoring:\n  replace declarer-result [house]: when played, the declarer scores points of seat\n"
                    "  replace defender-result [house]: when played, each defender scores points of seat\n"),
}
EXACT_VARIANTS = ["all-doubled", "points-hurt"]


@pytest.fixture(scope="module")
def variant_specs(tmp_path_factory):
    root = tmp_path_factory.mktemp("variants")
    out = {}
    for name, body in VARIANTS.items():
        p = root / f"{name}.talon"
        p.write_text(f'variant {name} "501, {name}"\nextends 501\n\n{body}', encoding="utf-8")
        out[name] = str(p)
    return out


def used_points(d) -> bool:
    """Whether solving `d` for the seat to move went into the points search."""
    sv = Solver(d)
    sv.solve()
    ps = getattr(sv.search, "points_search", None)
    return ps is not None and bool(ps.tables) and any(ps.tables.values())


def run_endings(ref, seed, most=4, count=14, enough=(8, 3)):
    """(endings checked against brute force, of them those the points search took
    part in), stopping once `enough` of both are found."""
    checked = points = 0
    for d in endings(ref, most, count, seed=seed):
        if check(d):
            checked += 1
            points += used_points(d)
            if checked >= enough[0] and points >= enough[1]:
                break
    return checked, points


@pytest.mark.parametrize("name", POINT_GAMES)
def test_point_games_agree_with_brute_force_on_endings(name):
    g = load(name)
    most = 4 if (g.default_seats or g.seat_counts[0]) <= 3 else 3
    on_points = name in ("501", "501-marriage-trumps", "501-suit-marriages", "501-must-beat", "501-trump-to-win")
    checked, points = run_endings(name, 17, most, enough=(8, 3 if on_points else 0))
    assert checked >= 8
    if on_points:
        assert points >= 3, (name, points)       # the points search was tried, and checked


@pytest.mark.parametrize("name", list(VARIANTS))
def test_variants_off_one_total_agree_with_brute_force(name, variant_specs):
    checked, points = run_endings(variant_specs[name], 23, enough=(6, 2 if name in EXACT_VARIANTS else 0))
    assert checked >= 6
    if name in EXACT_VARIANTS:
        assert points >= 2


def test_variants_off_one_total_fall_back(variant_specs):
    """Where the result turns on more than the side's total, no curve is given: made
    on tricks while the declarer's tricks are still open, a defender's doubling while
    it may still pass 30, tricks counted for the defenders while they may take more."""
    found = 0
    for name in ("made-on-tricks", "doubled-past-30", "tricks-count"):
        for d in endings(variant_specs[name], 4, 40, seed=3):
            if d.trick or any(h & mk == mk for h in d.hands for mk, *_ in d.game.meld_leads):
                continue
            sv = Solver(d)
            sr = sv.search
            total = sum(d.game.card_points[c] for h in d.hands for c in range(d.game.n_cards) if h >> c & 1)
            left = d.hands[d.turn].bit_count()
            cv = _Curves(sr.d, sr.side_set, sr.others, sr.sign, sr.root).curve(sr.d, total, left)
            decl, defs = d.declarer, d.defenders
            if name == "made-on-tricks":
                open_ = d.tricks[decl] < 5 <= d.tricks[decl] + left
            elif name == "doubled-past-30":
                open_ = any(d.card_points[s] <= 30 < d.card_points[s] + total for s in defs)
            else:
                open_ = True
            if open_ and total > 0:
                assert cv is None, (name, d.tricks, d.card_points, left, total)
                found += 1
    assert found >= 10


def shares(total: int, parts: int, rng):
    """A random way to share `total` among `parts` (non-negative, in order)."""
    out = [0] * parts
    for _ in range(total):
        out[rng.randrange(parts)] += 1
    return out


@pytest.mark.parametrize("name", ["501", "501-suit-marriages", "all-doubled"])
def test_the_curve_is_the_scoring_of_every_way_of_sharing_the_rest(name, variant_specs):
    """For positions between tricks with no meld to come, the curve's result for t is
    the plain scoring of the deal ended with the side taking t of the points left,
    however the points of each team and the tricks are shared among the seats."""
    ref = variant_specs.get(name, name)
    rng = random.Random(5)
    tried = 0
    for d in endings(ref, 5, 40, seed=8):
        g = d.game
        if d.trick or any(h & mk == mk for h in d.hands for mk, *_ in g.meld_leads):
            continue
        sv = Solver(d)
        sr = sv.search
        dd = sr.d
        total = sum(g.card_points[c] for h in d.hands for c in range(g.n_cards) if h >> c & 1)
        left = d.hands[d.turn].bit_count()
        cv = _Curves(dd, sr.side_set, sr.others, sr.sign, sr.root).curve(dd, total, left)
        if cv is None:
            continue
        up, F = cv
        assert len(F) == total + 1
        assert all(a <= b for a, b in zip(F, F[1:])) if up else all(a >= b for a, b in zip(F, F[1:]))
        side = [s for s in d.active if s in sr.side_set]
        others = [s for s in d.active if s not in sr.side_set]
        for _ in range(60):
            t = rng.choice([0, total, rng.randint(0, total)])
            scratch = S.copy.deepcopy(d, {id(g): g})
            for s, q in zip(side, shares(t, len(side), rng)):
                scratch.card_points[s] += q
            for s, q in zip(others, shares(total - t, len(others), rng)):
                scratch.card_points[s] += q
            for s, k in zip(d.active, shares(left, len(d.active), rng)):
                scratch.tricks[s] += k
            scratch.hands = [0] * len(d.hands)
            scratch.tricks_done += left
            scratch.tricks_left = 0
            scratch.phase, scratch._ph, scratch.turn = S.DONE, None, S.TERMINAL
            S.settle(scratch)
            assert S._scaled(scratch.deltas, sr.side, sr.others, sr.sign) == F[t], (name, t)
        tried += 1
    assert tried >= 5


def test_a_check_that_accepted_too_much_would_be_caught(variant_specs, monkeypatch):
    """The brute-force comparisons above would fail if the check let through a result
    that is not one function of the side's total: with the tests of the traced
    scoring ignored (every path taken to serve every t), endings of a variant whose
    defenders' shares count disagree with plain minimax."""
    def everywhere(self, past, t0, total, left):
        return total
    monkeypatch.setattr(S._Path, "extent", everywhere)
    wrong = 0
    for d in endings(variant_specs["doubled-past-30"], 4, 30, seed=23):
        try:
            check(d)
        except AssertionError:
            wrong += 1
            if wrong >= 3:
                break
    assert wrong >= 3


def test_the_general_search_with_concessions_agrees_with_brute_force():
    """Solo Whist's contracts to take no trick may be conceded once lost: searched by
    the general search (on its ordinary trick play) they agree with plain minimax."""
    from talon_cards.solver import solve
    from test_solver import brute_actions, concession_endings, TooBig
    found = 0
    for d in concession_endings():
        for who in (d.turn, d.next_seat[d.turn]):
            try:
                want = brute_actions(d, who, [60000])
            except TooBig:
                continue
            sol = solve(d, who, all_actions=True, mode="general")
            assert sol.mode == "general"
            assert sol.values == pytest.approx(want)
            found += 1
        if found >= 6:
            break
    assert found >= 6


@pytest.mark.parametrize("name", ["501", "tysyacha", "hearts", "oh-hell", "whist"])
def test_the_last_cards_of_a_deal_agree_with_brute_force(name):
    """Positions inside the last trick and the one before (every action valued, as
    PIMC asks: an action may end the deal)."""
    from talon_cards.agents import RandomAgent
    g = load(name)
    seats = g.default_seats or g.seat_counts[0]
    rng = random.Random(3)
    checked = 0
    for _ in range(40):
        d = g.new_deal(seats, rng.randrange(seats))
        d.deal_random(rng)
        agent = RandomAgent(rng)
        want_left = rng.choice([1, 2])
        want_trick = rng.randrange(1, d.n_active) if d.n_active else 0
        while not d.is_terminal() and not (d.phase == S.PLAY and d.tricks_left == want_left
                                           and len(d.trick) == want_trick):
            d.apply_action(agent.act(d))
        if d.phase == S.PLAY:
            assert check(d)
            for mode in (None, "general"):
                assert Solver(d, mode=mode).solve(all_actions=True).values is not None
            checked += 1
        if checked >= 8:
            break
    assert checked >= 8
