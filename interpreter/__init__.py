"""Talon: a rules-as-data engine for trick-taking card games.

Three pure stages: spec text -> parse tree (``language``) -> checked, compiled game model
(``spec``, with one class per kind of rule in ``rules``) -> engine (``engine``). The
engine knows mechanisms; the specs in ``specs/`` name the games. For notebooks and
scripts: ``load(spec)``, ``Table`` and ``Hand`` (see ``talon_cards.api``).
"""
__version__ = "0.2.0"

__all__ = ["load", "Table", "Hand", "IllegalAction", "SpecError", "RecordError"]


def __getattr__(name):            # imported on first use: `talon --version` stays quick
    if name == "load":
        from .spec import load
        return load
    if name in ("Table", "Hand"):
        from . import api
        return getattr(api, name)
    if name in ("IllegalAction", "SpecError", "RecordError", "TalonError"):
        from . import errors
        return getattr(errors, name)
    raise AttributeError(name)
