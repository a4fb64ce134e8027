"""The generic trick-taking engine: a deal is a sequence of phases the spec chose.

``deal.Deal`` is the OpenSpiel-shaped facade (current_player, legal_actions as sorted
ints, apply_action, is_terminal, returns); each phase is one small class in its own
module (``auction``, ``steps`` for the declarer's steps and for passing among all
seats, ``play``) with ``legal``, ``apply`` and ``why_not``; ``scoring`` settles a
finished deal; ``match`` plays deals one after another. The engine imports only
``interpreter.model``: never the language, the rules or the compiler.
"""
from .base import AUCTION, CHANCE, CONTRACT, DONE, EXCHANGE, PLAY, TERMINAL, bits
from .deal import Deal
from .match import Match

__all__ = ["AUCTION", "CHANCE", "CONTRACT", "DONE", "EXCHANGE", "PLAY", "TERMINAL", "Deal", "Match", "bits"]
