"""The Python API, for notebooks and scripts: a game at a table of named seats
(``Table(spec, seats)``), a deal in progress (``Hand``): its legal actions as record
text, actions applied by their text, an illegal one refused with the reason ``talon
replay`` gives, a clone to try a line of play, what a seat may see, the result and the
deal as a record. docs/api.md shows it at work."""
from __future__ import annotations

import copy
import random

from .errors import IllegalAction
from .records import _legal_strings, apply_actions, deal_record, deal_summary
from .spec import load as _load


class Table:
    """A spec (by name or path) and the names of its seats, clockwise."""

    def __init__(self, spec, seats=None):
        self.game = _load(spec) if isinstance(spec, str) else spec
        n = self.game.default_seats or self.game.seat_counts[0]
        names = list(seats) if seats is not None else [chr(ord("A") + i) for i in range(n)]
        if len(names) not in self.game.seat_counts:
            raise ValueError(f"{self.game.name} is played by "
                             f"{' or '.join(map(str, self.game.seat_counts))} seats, not {len(names)}")
        self.seats = names
        self.index = {s: i for i, s in enumerate(names)}

    def __repr__(self) -> str:
        return f"<Table of {self.game.name}: {' '.join(self.seats)}>"

    def deal(self, dealer=None, seed=None, hands=None, talon=(), stock=(), exposed=None,
             scores=None, deal_number: int = 1) -> "Hand":
        """A new deal: shuffled from `seed`, or the given `hands` ({seat: [cards]}, with
        the talon, stock and exposed card where the spec has them), as a record gives
        them. `scores` ({seat: score}) default to the spec's start."""
        g = self.game
        d_i = self.index[dealer] if dealer is not None else 0
        sc = None if scores is None else [scores[s] for s in self.seats]
        d = g.new_deal(len(self.seats), d_i, sc, deal_number)
        if hands is None:
            d.deal_random(random.Random(seed))
        else:
            card = g.parse_card
            d.set_cards({self.index[s]: [card(c) for c in cs] for s, cs in hands.items()},
                        [card(c) for c in talon], card(exposed) if exposed else -1,
                        [card(c) for c in stock])
        return Hand(self, d)


class Hand:
    """One deal in progress at a Table."""

    def __init__(self, table: Table, deal):
        self.table = table
        self.deal = deal

    def __repr__(self) -> str:
        d, seats = self.deal, self.table.seats
        if d.is_terminal():
            state = "over: " + ", ".join(f"{n} {d.deltas[i]:+d}" for i, n in enumerate(seats))
        else:
            state = f"{d.phase}, {seats[d.turn]} to act"
        return f"<Hand of {self.table.game.name}: dealer {seats[d.dealer]}, {state}>"

    @property
    def phase(self) -> str:
        return self.deal.phase

    @property
    def turn(self):
        return None if self.deal.turn < 0 else self.table.seats[self.deal.turn]

    @property
    def over(self) -> bool:
        return self.deal.is_terminal()

    def legal(self) -> list:
        """The legal actions as record text (numbers above the listed range stay legal)."""
        d = self.deal
        if d.is_terminal() or d.turn < 0:
            return []
        seats = self.table.seats
        out = [d.action_to_string(a, d.turn, seats) for a in d.legal_actions()]
        for s in d.active:
            if s != d.turn:
                out += [d.action_to_string(a, s, seats) for a in d.free_actions(s)]
        return out

    def act(self, *actions: str) -> "Hand":
        """Apply actions written as in a record; refuses an illegal one (IllegalAction,
        with the reason replay gives) and leaves the deal as it was before it."""
        apply_actions(self.deal, list(actions), self.table.index, self.table.seats)
        return self

    def why_not(self, action: str) -> str:
        """Why an action is illegal now (empty if it is legal)."""
        try:
            self.clone().act(action)
        except IllegalAction as e:
            return e.reason
        return ""

    def clone(self) -> "Hand":
        g = self.table.game
        return Hand(self.table, copy.deepcopy(self.deal, {id(g): g}))

    def observation(self, seat: str) -> dict:
        """What `seat` may see (its hand once looked, the talon once shown, …)."""
        return self.deal.observation(self.table.index[seat], self.table.seats)

    def result(self) -> dict:
        """The deal's summary (contract, tricks, points, deltas, scores), as replay gives it."""
        seats = self.table.seats
        before = {n: self.deal.scores_before[i] for i, n in enumerate(seats)}
        return deal_summary(self.deal, seats, before)

    def record(self) -> dict:
        """The deal as a hand record (it replays with `talon replay`)."""
        return deal_record(self.deal, self.table.seats, self.table.game.name)


__all__ = ["Table", "Hand", "IllegalAction"]
