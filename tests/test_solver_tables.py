"""The partition search's shortcuts for speed (tables and caches that stand for a
computation) against that computation, at every node of real searches: a cache
keyed by too little, or a bit trick that drops a card, fails here."""
from __future__ import annotations

import pytest

from talon_cards import solver as S

from test_solver import endings


def class_mask(t, s, c):
    """Card by card: c and the cards of s's hand below it with no card in play between."""
    in_play = ~t.gone
    sm = t.suit_mask[t.suit[c]]
    out, x = 1 << c, c
    while True:
        below = in_play & sm & ~((2 << x) - 1)
        if not below or not t.hands[s] & (below & -below):
            return out
        out |= below & -below
        x = (below & -below).bit_length() - 1


def top_run(m, held):
    """Card by card: the cards of `m` from its top down while `held` has them."""
    out = 0
    while m and held & (m & -m):
        out |= m & -m
        m ^= m & -m
    return out


@pytest.mark.parametrize("name", ["whist", "solo-whist"])
def test_the_partition_search_tables_agree_with_what_they_stand_for(name, monkeypatch):
    T = S._Tricks
    seen = {"reps": 0, "trumps": 0, "class": 0, "cash": 0, "position": 0}
    trick_reps, trump_bounds, cmask, cash, position = (
        T._trick_reps, T._trump_bounds, T._class_mask, T._cash, T._ps_position)

    def checked_trick_reps(self, s):
        got = trick_reps(self, s)
        want = sorted(self._reps(self._allowed(s)), key=self.ord_of[self.led].__getitem__)
        if not self.hands[s] & self.suit_mask[self.led]:
            want = self._discards_first(self.hands[s], want)
        assert got == want
        seen["reps"] += 1
        return got

    def checked_trump_bounds(self):
        got = trump_bounds(self)
        assert got == self._top_trumps_of() + self._trump_floors_of()
        seen["trumps"] += 1
        return got

    def checked_class_mask(self, s, c):
        got = cmask(self, s, c)
        assert got == class_mask(self, s, c)
        seen["class"] += 1
        return got

    def checked_cash(self, hands, in_play, leader):
        got = cash(self, hands, in_play, leader)
        # every card counted is a top card of its suit in play, in a run the leader holds
        for sm in self.suit_mask:
            part = got[1] & sm
            assert part & ~top_run(in_play & sm, hands[leader] & sm) == 0
        seen["cash"] += 1
        return got

    def checked_position(self, leader):
        got = position(self, leader)
        assert got[1] == [S._squeeze(k, self.n_active, self.R) for k in self.packed]
        seen["position"] += 1
        return got

    monkeypatch.setattr(T, "_trick_reps", checked_trick_reps)
    monkeypatch.setattr(T, "_trump_bounds", checked_trump_bounds)
    monkeypatch.setattr(T, "_class_mask", checked_class_mask)
    monkeypatch.setattr(T, "_cash", checked_cash)
    monkeypatch.setattr(T, "_ps_position", checked_position)
    for d in endings(name, 8, 10, seed=5):
        sol = S.Solver(d)
        if sol.mode == "tricks" and sol.search.ps:
            sol.solve()
    assert all(n > 20 for n in seen.values()), seen

