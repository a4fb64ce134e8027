"""Shared fixtures: a loaded spec, a table that deals named cards and applies actions
written as in a hand record, and a runner for the `talon` command."""
from __future__ import annotations

import atexit
import functools
import os
import shutil
import tempfile

import pytest

# The suite's own cache folder (specs read, tables that passed), so that running the
# tests neither reads nor fills the user's; subprocesses inherit it.
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="talon-test-cache-")
atexit.register(shutil.rmtree, os.environ["XDG_CACHE_HOME"], True)

from talon_cards.cli import main as cli_main
from talon_cards.records import apply_actions
from talon_cards.spec import load


@functools.lru_cache(maxsize=None)
def _load(ref: str):
    return load(ref)


class Table:
    """Seats with names, for one game: deal given cards and act with record strings
    such as ``"A bid 80 blind"`` or ``"B play KH marriage"``."""

    def __init__(self, game, seats="ABC"):
        self.game = game
        self.seats = list(seats)
        self.idx = {n: i for i, n in enumerate(self.seats)}

    def cards(self, text) -> list:
        words = text.split() if isinstance(text, str) else list(text)
        return [self.game.parse_card(w) for w in words]

    def names(self, mask_or_list) -> set:
        g = self.game
        if isinstance(mask_or_list, int):
            return {g.card_names[c] for c in range(g.n_cards) if mask_or_list >> c & 1}
        return {g.card_names[c] for c in mask_or_list}

    def deal(self, dealer: str, hands: dict, talon="", scores: dict | None = None, deal_number: int = 1):
        g = self.game
        sc = None if scores is None else [scores[n] for n in self.seats]
        d = g.new_deal(len(self.seats), self.idx[dealer], sc, deal_number)
        d.set_cards({self.idx[n]: self.cards(h) for n, h in hands.items()}, self.cards(talon))
        return d

    def parse(self, deal, text: str):
        """``"A bid 70"`` -> (seat, action int)."""
        who, *words = text.split()
        return self.idx[who], deal.parse_action(words, self.idx)

    def act(self, deal, *actions):
        """Apply actions after checking each (raises IllegalAction like replay)."""
        apply_actions(deal, list(actions), self.idx, self.seats)
        return deal

    def can(self, deal, text: str) -> bool:
        try:
            seat, a = self.parse(deal, text)
        except ValueError:
            return False
        return deal.is_legal(a, seat)

    def legal(self, deal, seat: str | None = None) -> set:
        """The legal actions of `seat` (default: whose turn it is) as record strings."""
        s = deal.turn if seat is None else self.idx[seat]
        return {deal.action_to_string(a, s, self.seats) for a in deal.legal_actions(s)}

    def finish(self, deal, pick=min):
        """Play to the end, `pick` choosing among the legal plain card plays."""
        g = self.game
        while not deal.is_terminal():
            acts = deal.legal_actions()
            assert acts, f"seat {self.seats[deal.turn]} has no legal action in phase {deal.phase}"
            plain = [a for a in acts if a < g.codec.MELD] or acts
            deal.apply_action(pick(plain))
        return deal

    def by_name(self, values) -> dict:
        return {n: values[i] for i, n in enumerate(self.seats)}


@pytest.fixture(scope="session")
def g501():
    return _load("501")


@pytest.fixture
def table():
    """``table(seats="ABC", spec="501")`` -> a Table."""
    def make(seats="ABC", spec="501"):
        return Table(_load(spec), seats)
    return make


@pytest.fixture
def talon_cli(capsys):
    """Run ``talon ARGS…`` in-process: returns (exit status, stdout, stderr)."""
    def run(*args):
        rc = cli_main([str(a) for a in args])
        out = capsys.readouterr()
        return rc, out.out, out.err
    return run
