"""Every rule kind, collected from the section modules, and the tables derived from them:
the grammar's body alternatives, the section of each kind, the templates shown in
error hints, the kinds a spec may have once, the kinds a spec must have."""
from __future__ import annotations

from . import players, deal, auction, contract, exchange, play, melds, scoring, end  # noqa: F401 (they register)
from .base import _KINDS, _ORDER

KINDS = dict(_KINDS)                      # production -> class
ORDER = tuple(_ORDER)
BODY_SECTION = {cls.kind: cls.section for cls in ORDER}
ANYWHERE = frozenset(cls.kind for cls in ORDER if cls.anywhere)
TEMPLATES = {cls.kind: cls.template for cls in ORDER}
SINGLE = frozenset(cls.kind for cls in ORDER if cls.single)
REQUIRED = {cls.kind: cls.required for cls in ORDER if cls.required}
PRODUCTIONS = tuple(name for cls in ORDER for name in (cls.kind,) + tuple(cls.aliases))


def kind_of(production: str):
    return KINDS.get(production)


def body_alternatives() -> str:
    """The grammar's `body` alternatives (the loader puts them in the grammar)."""
    return " | ".join(cls.kind for cls in ORDER)
