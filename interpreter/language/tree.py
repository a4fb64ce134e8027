"""The parse tree of a spec: small frozen nodes that keep their source position."""
from __future__ import annotations

from ..model.record import field, record

from ..errors import Location

SECTIONS = ("players", "deal", "auction", "contract", "exchange", "play", "melds", "scoring", "end", "tables")


@record(frozen=True)
class E:
    """An expression node: op is one of num, name, lookup, call, arith, neg, not, and,
    or, cmp, is, isnot, if, any_seat, every_seat."""
    op: str
    args: tuple
    loc: Location

    def text(self) -> str:
        if self.op == "num":
            return str(self.args[0])
        if self.op == "name":
            return self.args[0]
        if self.op == "lookup":
            return f"{self.args[0].text()} of {self.args[1].text()}"
        text = self._text()
        return text if len(text) <= 60 else text[:59] + "…"

    def _text(self) -> str:
        """The expression written out again (for messages; nesting is bounded)."""
        a = self.args
        t = lambda x: x.text() if isinstance(x, E) else str(x)
        if self.op in ("arith", "cmp"):
            return f"{t(a[1])} {a[0]} {t(a[2])}"
        if self.op == "call":
            return f"{a[0]}({', '.join(t(x) for x in a[1:])})"
        if self.op == "neg":
            return f"-{t(a[0])}"
        if self.op == "not":
            return f"not {t(a[0])}"
        if self.op in ("and", "or"):
            return f" {self.op} ".join(t(x) for x in a)
        if self.op == "if":
            return f"{t(a[1])} if {t(a[0])} else {t(a[2])}"
        if self.op == "any_seat":
            return f"any seat has {t(a[0])}"
        if self.op == "every_seat":
            return f"every seat has {t(a[0])}"
        return self.op


@record(frozen=True)
class Body:
    kind: str
    args: dict
    loc: Location


@record(frozen=True)
class Item:
    """One line of a section: a rule (or an edit of the base's rule in a variant)."""
    action: str            # rule, add, replace, remove, set, remove_entry
    name: str
    clauses: tuple
    body: Body | None
    section: str
    loc: Location
    position: tuple = ()   # ("after"|"before", name, Location) for add
    keys: tuple = ()       # for set / remove_entry
    value: object = None   # for set
    text: str = ""         # the rule's body as written (for explanations)


@record
class SpecFile:
    path: str
    kind: str = "game"     # game or variant
    name: str = ""
    title: str = ""
    extends: str = ""
    extends_loc: Location | None = None
    tables: str = ""
    tables_loc: Location | None = None
    examples: str = ""
    items: list = field(default_factory=list)
    loc: Location | None = None


