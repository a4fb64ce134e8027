"""Talon: a rules-as-data engine for trick-taking card games.

Three pure stages: spec text -> parse tree (``syntax``) -> checked, compiled game model
(``spec``) -> engine (``engine``). The engine knows mechanisms (deal patterns, auctions,
talons, melds, follow rules, trick winners, scoring formulas, match ends); the specs in
``specs/`` name the games.
"""
__version__ = "0.2.0"
