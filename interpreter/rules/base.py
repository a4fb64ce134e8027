"""What a rule kind is: one class that owns everything about one kind of sentence.

Each kind names its grammar production (``kind``, and ``aliases`` for its other
phrasings), its section, whether a spec may have one or several (``single``), what to
say when a spec lacks it (``required``), how it reads (``template``, shown in error
hints), how its parts are read from the parse tree (``args``), how it is compiled into
the game (``compile``), and how it is said in words (``words``: the terminal and the
explanations). ``registry`` collects the classes; the grammar's list of bodies, the
section of each kind, the templates and the one-only kinds are derived from them.
"""
from __future__ import annotations

from ..language.tree import E


class Parts:
    """The pieces of a rule body's parse tree, by kind (for ``RuleKind.args``)."""

    def __init__(self, children, loc_of):
        from lark import Token            # read only while a spec is parsed
        self.children = children
        self.loc_of = loc_of
        toks = [c for c in children if isinstance(c, Token)]
        self.ints = [int(t) for t in toks if t.type == "INT"]
        self.names = [str(t) for t in toks if t.type == "NAME"]
        self.name_locs = tuple(loc_of(t) for t in toks if t.type == "NAME")
        self.exprs = [c for c in children if isinstance(c, E)]
        self.strs = [c for c in children if isinstance(c, str) and not isinstance(c, Token)]
        self.tuples = [c for c in children if isinstance(c, tuple)]
        self.toks = toks

    def tok(self, type_: str):
        return [str(t) for t in self.toks if t.type == type_]

    def tok_locs(self, type_: str):
        return tuple(self.loc_of(t) for t in self.toks if t.type == type_)


class RuleKind:
    kind: str = ""                 # the grammar production
    aliases: tuple = ()            # other productions of the same kind
    section: str = ""
    single: bool = False           # at most one rule of this kind
    required: str = ""             # what the spec fails to say without one
    template: str = ""             # how the rule reads, for hints
    phase: str = ""                # the deal phase the kind brings, if any
    anywhere: bool = False         # may stand in any section (a named value)

    @classmethod
    def args(cls, p: Parts, alias: str) -> dict:
        """The rule's parts, from its parse tree."""
        return {}

    @classmethod
    def compile(cls, it, b) -> None:
        """Put the rule into the game being built (`b`, a spec.compile.Builder)."""
        raise NotImplementedError(cls.kind)

    @classmethod
    def words(cls, it) -> str:
        """The rule in words, as a player reads it (default: as written)."""
        return b_text(it)

    @classmethod
    def phrase(cls, it, lang: str, ctx) -> str:
        """The rule as a sentence a player reads at the table, in `lang` (en, pt, ru),
        built from the rule's parsed parts and the game's tables (``ctx``, a
        ``phrasing.Ctx``). Every kind says it its own way."""
        raise NotImplementedError(f"{cls.kind} has no phrasing")


def b_text(it) -> str:
    return it.text or it.name


_KINDS: dict = {}            # production name -> class (aliases included)
_ORDER: list = []            # the classes, in registration (section) order


def register(cls):
    """Class decorator: a rule kind joins the registry."""
    for name in (cls.kind,) + tuple(cls.aliases):
        if name in _KINDS:
            raise RuntimeError(f"two rule kinds use the production `{name}`")
        _KINDS[name] = cls
    _ORDER.append(cls)
    return cls
