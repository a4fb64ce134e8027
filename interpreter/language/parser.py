"""Stage 1: spec text -> a tree of small frozen nodes that keep their source position.

The grammar (``grammars/talon.lark``) is the reference of the language; the list of
rule bodies in it is filled from the rule registry (``interpreter.rules``). The parser
is built once (LALR). Syntax errors are explained by ``syntax_errors`` (see ``read``).
"""
from __future__ import annotations

from functools import lru_cache

from lark import Lark, Token, Tree, v_args
from lark.visitors import Transformer_NonRecursive

from ..errors import Collector, Location
from .grammar import grammar_text
from .tree import E, Body, Item, SpecFile, SECTIONS

MAX_LITERAL_DIGITS = 9          # numbers in a spec are below a billion
REFUSED = object()              # a `set` value already reported as unreadable


class Glued(Exception):
    """Two words written without a space between them (``playa``, ``3rounds``)."""

    def __init__(self, first: Token, second: Token):
        super().__init__(f"{first}{second}")
        self.first, self.second = first, second


class GlueCheck:
    """A Lark post-lexer: refuses two word tokens that touch.

    The contextual lexer matches keywords without looking at word boundaries, so in a
    state where only `play` may come, ``playa`` would be read as `play` `a`. This
    check makes such a run-together word an error instead of a silent misreading."""

    always_accept = ()

    def process(self, stream):
        prev = None
        for tok in stream:
            if (prev is not None and tok.start_pos == prev.end_pos and prev.value[-1:].isalnum()
                    and tok.value[:1].isalnum()):
                raise Glued(prev, tok)
            prev = tok
            yield tok


@lru_cache(maxsize=1)
def parser() -> Lark:
    """The parser, built once per process; the built tables are cached on disk (in the
    system's temporary folder, keyed by the grammar's hash), so a fresh process loads
    them instead of building them again (not with `validate --no-cache`)."""
    from .. import usercache
    try:
        return Lark(grammar_text(), parser="lalr", propagate_positions=True, maybe_placeholders=False,
                    postlex=GlueCheck(), cache=not usercache.OFF)
    except (OSError, EOFError, ValueError):         # an unusable cache: build without it
        return Lark(grammar_text(), parser="lalr", propagate_positions=True, maybe_placeholders=False,
                    postlex=GlueCheck())


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
    def __init__(self, path: str, out: Collector | None = None):
        super().__init__()
        self.path = path
        self.out = out

    def L(self, meta):
        return _loc(self.path, meta)

    # ---- expressions
    @v_args(meta=True)
    def number(self, meta, c):
        return E("num", (self._int(c[0], meta),), self.L(meta))

    def _int(self, tok, meta=None) -> int:
        text = str(tok)
        if len(text.lstrip("0")) > MAX_LITERAL_DIGITS:
            if self.out is not None:
                loc = _loc(self.path, tok)
                self.out.error(loc, f"the number {text[:12]}{'…' if len(text) > 12 else ''} is too large",
                               "numbers in a spec are below a billion")
            return 10 ** MAX_LITERAL_DIGITS - 1      # read on without a second, consequential error
        return int(text)

    @v_args(meta=True)
    def phrase(self, meta, c):
        return E("name", (" ".join(str(t) for t in c),), self.L(meta))

    @v_args(meta=True)
    def card_phrase(self, meta, c):
        return E("name", (str(c[-2]) + " " + c[-1].args[0],), self.L(meta))

    def let_words(self, c):
        words = []
        for x in c:
            words.extend(x if isinstance(x, list) else [x])
        return words

    def count_expr(self, c):
        return ("count", c[0])

    def count(self, c):
        return ("count", self._int(c[0]))

    def signed(self, c):
        v = self._int(c[-1])
        return (-v if len(c) > 1 or str(c[0]) == "-" and len(c) > 1 else v,)

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
        return self._int(c[0])

    def negative_value(self, c):
        return -self._int(c[0])

    def name_value(self, c):
        v = str(c[0])
        return {"yes": True, "no": False}.get(v, v)

    def flow_value(self, c):
        return _flow(str(c[0]), _loc(self.path, c[0]), self.out)

    def card_set(self, c):
        return ("cards", tuple(c))

    def suit_led(self, c): return ("suit-led", None, None)
    def trump(self, c): return ("trump", None, None)
    def beats_trick(self, c): return ("beats-trick", None, None)
    def trump_beats(self, c): return ("trump-beats", None, None)
    def worth_points(self, c): return ("points", None, None)
    def worth_no_points(self, c): return ("no-points", None, None)
    def suit_card(self, c): return ("suit", str(c[0]), _loc(self.path, c[0]))
    def one_card(self, c): return ("card", str(c[0]), _loc(self.path, c[0]))
    def when_void(self, c): return ("void",)
    def when_expr(self, c): return ("when", c[0])
    def pass_dir(self, c): return str(c[0])
    def each_side(self, c): return "sides"
    def the_dealer(self, c): return "dealer"
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


def _body(path: str, tree: Tree) -> Body:
    """A rule body's subtree -> Body(kind, args), read by the kind's own unit."""
    from ..rules.base import Parts
    from ..rules.registry import kind_of
    production = str(tree.data)
    cls = kind_of(production)
    parts = Parts(tree.children, lambda t: _loc(path, t))
    args = dict(cls.args(parts, production))
    args.setdefault("name_locs", parts.name_locs)
    args.setdefault("rank_locs", parts.tok_locs("RANK"))
    return Body(cls.kind, args, _loc(path, tree.meta))


def build(tree: Tree, path: str, out: Collector, text: str = "") -> SpecFile:
    """A parse tree -> the spec file's header and items."""
    b = _Build(path, out)
    lines = text.split("\n")
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
                spec.items.append(_item(path, it, section, lines))
    return spec


def _item(path: str, it: Tree, section: str, lines=()) -> Item:
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
    text = ""
    if body is not None and 0 < body.loc.line <= len(lines):
        line = lines[body.loc.line - 1]
        text = line[body.loc.column - 1:body.loc.end_column - 1 if body.loc.end_column else None].strip()
    return Item(action, str(name_tok), clauses, body, section, nloc, position, text=text)


def _flow(text: str, loc: Location, out):
    """A `{…}` value of a variant's `set`: plain YAML, screened like a table file (no
    aliases or anchors, no tags, bounded nesting)."""
    import yaml
    try:
        depth = 0
        for ev in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(ev, yaml.AliasEvent) or getattr(ev, "anchor", None):
                if out is not None:
                    out.error(loc, "YAML aliases and anchors (`&name`, `*name`) are not allowed in a value",
                              "write the value out in full")
                return REFUSED
            if getattr(ev, "tag", None) and ev.tag != "!":
                if out is not None:
                    out.error(loc, "YAML tags are not allowed in a value")
                return REFUSED
            if isinstance(ev, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > 8:
                    if out is not None:
                        out.error(loc, "the value is nested too deeply")
                    return REFUSED
            elif isinstance(ev, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
        return yaml.safe_load(text)
    except (yaml.YAMLError, ValueError, RecursionError):
        return text
