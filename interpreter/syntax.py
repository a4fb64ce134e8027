"""Stage 1: spec text -> a tree of small frozen nodes that keep their source position.

The grammar (``grammars/talon.lark``) is the reference of the language. The parser is
built once (LALR, cached); parse errors are turned into messages in the user's words
by ``parse_errors``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from lark import Lark, Token, Tree, v_args
from lark.visitors import Transformer_NonRecursive

from .errors import Collector, Location
from .resources import grammar_path

SECTIONS = ("players", "deal", "auction", "contract", "play", "melds", "scoring", "end", "tables")


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class Body:
    kind: str
    args: dict
    loc: Location


@dataclass(frozen=True)
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


@dataclass
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


@lru_cache(maxsize=1)
def parser() -> Lark:
    from .parse_errors import GlueCheck
    return Lark(grammar_path("talon.lark").read_text(encoding="utf-8"), parser="lalr",
                propagate_positions=True, maybe_placeholders=False, postlex=GlueCheck())


def _loc(path: str, meta_or_token) -> Location:
    m = meta_or_token
    line = getattr(m, "line", 0) or 0
    col = getattr(m, "column", 0) or 0
    end_line = getattr(m, "end_line", line)
    end_col = getattr(m, "end_column", 0) or 0
    if end_line != line:
        end_col = 0
    return Location(path, line, col, end_col)


class _Build(Transformer_NonRecursive):   # iterative: deep formulas cannot overflow the stack
    def __init__(self, path: str):
        super().__init__()
        self.path = path

    def L(self, meta):
        return _loc(self.path, meta)

    # ---- expressions
    @v_args(meta=True)
    def number(self, meta, c):
        return E("num", (int(c[0]),), self.L(meta))

    @v_args(meta=True)
    def phrase(self, meta, c):
        return E("name", (" ".join(str(t) for t in c),), self.L(meta))

    @v_args(meta=True)
    def lookup(self, meta, c):
        return E("lookup", (c[0], c[1]), self.L(meta))

    @v_args(meta=True)
    def call(self, meta, c):
        return E("call", (str(c[0]),) + tuple(c[1:]), self.L(meta))

    @v_args(meta=True)
    def arith(self, meta, c):
        if len(c) == 1:
            return c[0]
        node = c[0]
        for i in range(1, len(c), 2):
            op = {"×": "*"}.get(str(c[i]), str(c[i]))
            node = E("arith", (op, node, c[i + 1]), self.L(meta))
        return node

    @v_args(meta=True)
    def neg(self, meta, c):
        return E("neg", (c[0],), self.L(meta))

    @v_args(meta=True)
    def negate(self, meta, c):
        return E("not", (c[0],), self.L(meta))

    @v_args(meta=True)
    def all_of(self, meta, c):
        return c[0] if len(c) == 1 else E("and", tuple(c), self.L(meta))

    @v_args(meta=True)
    def any_of(self, meta, c):
        return c[0] if len(c) == 1 else E("or", tuple(c), self.L(meta))

    @v_args(meta=True)
    def compare(self, meta, c):
        return E("cmp", (str(c[1]), c[0], c[2]), self.L(meta))

    @v_args(meta=True)
    def is_equal(self, meta, c):
        return E("cmp", ("=", c[0], c[1]), self.L(meta))

    @v_args(meta=True)
    def is_not_equal(self, meta, c):
        return E("cmp", ("!=", c[0], c[1]), self.L(meta))

    @v_args(meta=True)
    def if_else(self, meta, c):
        return E("if", (c[1], c[0], c[2]), self.L(meta))

    @v_args(meta=True)
    def when_else(self, meta, c):
        return E("if", (c[1], c[0], c[2]), self.L(meta))

    @v_args(meta=True)
    def any_seat(self, meta, c):
        return E("any_seat", (c[0],), self.L(meta))

    @v_args(meta=True)
    def every_seat_has(self, meta, c):
        return E("every_seat", (c[0],), self.L(meta))

    # ---- small pieces
    def clauses(self, c):
        return tuple(str(t) for t in c)

    def after(self, c):
        return ("after", str(c[0]), Location(self.path, c[0].line, c[0].column, c[0].end_column))

    def before(self, c):
        return ("before", str(c[0]), Location(self.path, c[0].line, c[0].column, c[0].end_column))

    def section_name(self, c):
        return str(c[0])

    def number_value(self, c):
        return int(c[0])

    def name_value(self, c):
        v = str(c[0])
        return {"yes": True, "no": False}.get(v, v)

    def flow_value(self, c):
        import yaml
        try:
            return yaml.safe_load(str(c[0]))
        except yaml.YAMLError:
            return str(c[0])

    def suit_led(self, c): return "suit-led"
    def trump(self, c): return "trump"
    def beats_trick(self, c): return "beats-trick"
    def left_of_dealer(self, c): return "left-of-dealer"
    def dealer(self, c): return "dealer"
    def declarer(self, c): return "declarer"
    def the_declarer(self, c): return "declarer"
    def each_declarer(self, c): return "declarers"
    def each_defender(self, c): return "defenders"
    def each_seat(self, c): return "seats"
    def every_seat(self, c): return ("every", None)
    def seats_with(self, c): return ("with", c[0])
    def lowest(self, c): return ("lowest", c[0])
    def highest(self, c): return ("highest", c[0])
    def prefer_declarer(self, c): return ("declarer", None)

    def __default__(self, data, children, meta):
        return Tree(data, children, meta)


def _ints(children):
    return [int(c) for c in children if isinstance(c, Token) and c.type == "INT"]


def _names(children):
    return [str(c) for c in children if isinstance(c, Token) and c.type == "NAME"]


def _exprs(children):
    return [c for c in children if isinstance(c, E)]


def _body(path: str, tree: Tree) -> Body:
    """Turn a rule body's subtree into a Body(kind, args)."""
    k = str(tree.data)
    c = tree.children
    loc = _loc(path, tree.meta)
    ints, names, exprs = _ints(c), _names(c), _exprs(c)
    strs = [x for x in c if isinstance(x, str) and not isinstance(x, Token)]
    a: dict = {}
    # Where each name and rank of the body is written (for precise messages).
    a_locs = {"name_locs": tuple(_loc(path, t) for t in c if isinstance(t, Token) and t.type == "NAME"),
              "rank_locs": tuple(_loc(path, t) for t in c if isinstance(t, Token) and t.type == "RANK")}
    if k == "seats":
        a = {"counts": tuple(ints)}
    elif k == "sit_out":
        a = {"when_seats": ints[0]}
    elif k in ("start_score", "numeric_bids", "deal_points", "made", "game_end"):
        a = {"expr": exprs[0]}
    elif k == "rotation":
        a = {"direction": str([t for t in c if isinstance(t, Token) and t.type == "DIRECTION"][0])}
    elif k == "deal_rounds":
        a = {"rounds": ints[0], "cards": ints[1], "talon": ints[2] if len(ints) > 2 else 0}
    elif k == "opener":
        a = {"seat": strs[0]}
    elif k == "bid_condition":
        a = {"contract": names[0], "expr": exprs[0]}
    elif k == "reopen":
        a = {"contracts": tuple(names), "expr": exprs[0]}
    elif k == "name_trumps":
        a = {"allow_none": any(isinstance(t, Token) and t.type == "OR_NONE" for t in c)}
    elif k == "give":
        a = {"cards": ints[0]}
    elif k == "first_lead":
        a = {"seat": strs[0], "expr": exprs[0] if exprs else None,
             "otherwise": strs[1] if len(strs) > 1 else None}
    elif k == "follow":
        a = {"cards": strs[0]}
    elif k in ("trick_winner", "trick_winner_no_trumps"):
        a = {"trumps": k == "trick_winner"}
        k = "trick_winner"
    elif k in ("open_hand", "concede"):
        a = {"expr": exprs[0] if exprs else None}
    elif k == "meld":
        a = {"ranks": tuple(str(t) for t in c if isinstance(t, Token) and t.type == "RANK")}
    elif k in ("meld_worth", "meld_counts"):
        a = {"meld": names[0], "expr": exprs[0]}
    elif k == "meld_trumps":
        a = {"meld": names[0]}
    elif k == "let":
        a = {"name": names[0], "expr": exprs[0]}
    elif k == "score":
        a = {"when": exprs[0] if len(exprs) > 1 else None, "payee": strs[0], "expr": exprs[-1]}
    elif k == "winners":
        a = {"set": c[0], "prefer": tuple(c[1:])}
    a.update(a_locs)
    return Body(k, a, loc)


# Which section each kind of rule belongs in (for "this belongs in ..." messages).
BODY_SECTION = {
    "seats": "players", "sit_out": "players", "start_score": "players",
    "rotation": "deal", "deal_rounds": "deal", "face_up": "deal",
    "opener": "auction", "numeric_bids": "auction", "ladder_bids": "auction",
    "bid_condition": "auction", "pass_final": "auction", "reopen": "auction",
    "unpartnered": "auction", "all_pass": "auction", "blind_bidding": "auction",
    "show_talon": "contract", "abandon": "contract", "take_talon": "contract",
    "name_trumps": "contract", "name_contract": "contract", "give": "contract",
    "first_lead": "play", "follow": "play", "trick_winner": "play", "open_hand": "play",
    "concede": "play",
    "meld": "melds", "meld_worth": "melds", "meld_counts": "melds", "meld_trumps": "melds",
    "deal_points": "scoring", "made": "scoring", "let": "scoring", "score": "scoring",
    "game_end": "end", "winners": "end",
}

def _expected_words(expected) -> list[str]:
    """Terminal names -> plain words (see parse_errors.describe_expected)."""
    from .parse_errors import describe_expected
    return describe_expected(expected)


def parse(text: str, path: str, out: Collector) -> SpecFile | None:
    """Parse one spec file; report every syntax error found, each in the player's words
    (see ``parse_errors``: after the first error, every following line is checked on its
    own, so one run reports every bad line)."""
    from .parse_errors import check_header, check_nesting, check_parens
    out.sources[path] = text
    if not text.strip():
        out.error(Location(path, 1, 1), "the spec file is empty",
                  'a spec starts with its `game` or `variant` line, such as `game NAME "Title"`')
        return None
    if not check_parens(text, path, out):
        return None
    if not text.endswith("\n"):
        text += "\n"
    try:
        tree = parser().parse(text)
    except Exception as e:      # UnexpectedInput or Glued: explain line by line
        _report(e, path, text, out)
        return None
    if not check_header(tree, path, out) or not check_nesting(tree, path, out):
        return None
    try:
        return _build(tree, path, out)
    except RecursionError:
        out.error(Location(path, 1, 1), "the spec is nested too deeply to read")
        return None


def _report(e: Exception, path: str, text: str, out: Collector):
    """Report the syntax errors of a file the parser rejected with `e`."""
    from .parse_errors import report_lines
    lines = text.split("\n")
    line = getattr(e, "line", 0) or getattr(getattr(e, "first", None), "line", 0) or 1
    before = len(out.errors)
    report_lines(lines, path, out, first_line=max(1, min(line, len(lines))))
    if len(out.errors) == before:
        # The line-by-line check found nothing: report the parser's own finding.
        col = getattr(e, "column", 0) or 1
        out.error(Location(path, line, col, col + 1), "the spec cannot be read here",
                  "a rule reads `name [clause ids]: what it says`, one rule per line")


def _build(tree: Tree, path: str, out: Collector) -> SpecFile:
    b = _Build(path)
    t = b.transform(tree)
    spec = SpecFile(path=path)
    section = ""
    for node in t.children:
        if not isinstance(node, Tree):
            continue
        if node.data in ("game", "variant"):
            spec.kind = node.data
            spec.name = str(node.children[0])
            spec.title = str(node.children[1])[1:-1] if len(node.children) > 1 else spec.name
            name_tok = node.children[0]
            spec.loc = Location(path, node.meta.line, node.meta.column, name_tok.end_column)
        elif node.data == "extends":
            spec.extends = str(node.children[0])
            spec.extends_loc = _loc(path, node.children[0])
        elif node.data == "tables_file":
            spec.tables = str(node.children[0])[1:-1]
            spec.tables_loc = _loc(path, node.children[0])
        elif node.data == "examples":
            spec.examples = str(node.children[0])[1:-1]
        elif node.data == "section":
            section = node.children[0]
            for it in node.children[1:]:
                spec.items.append(_item(path, it, section))
    return spec


def _item(path: str, it: Tree, section: str) -> Item:
    c = it.children
    loc = _loc(path, it.meta)
    if it.data in ("set_entry", "remove_entry"):
        keys = tuple(str(k) for k in (c[:-1] if it.data == "set_entry" else c))
        toks = [k for k in (c[:-1] if it.data == "set_entry" else c) if isinstance(k, Token)]
        if toks and toks[0].line == toks[-1].line:     # point at the keys
            loc = Location(path, toks[0].line, toks[0].column, toks[-1].end_column)
        return Item(it.data.replace("_entry", "") if it.data == "set_entry" else "remove_entry",
                    ".".join(keys), (), None, section, loc, keys=keys,
                    value=c[-1] if it.data == "set_entry" else None)
    name_tok = c[0]
    nloc = Location(path, name_tok.line, name_tok.column, name_tok.end_column)
    action = {"rule": "rule", "add_rule": "add", "replace_rule": "replace",
              "remove_rule": "remove"}[it.data]
    clauses, position, body = (), (), None
    for x in c[1:]:
        if isinstance(x, tuple) and x and x[0] in ("after", "before"):
            position = x
        elif isinstance(x, tuple):
            clauses = x
        elif isinstance(x, Tree):
            body = _body(path, x)
    return Item(action, str(name_tok), clauses, body, section, nloc, position)
