"""Syntax errors in a card player's words.

The grammar is line based: after the header lines, every line is a section heading
(``play:``) or one rule (``name [clauses]: what it says``). So when the parser rejects
a file, each line from the first bad one on can be checked on its own, inside a tiny
document (``game x`` / ``play:`` / the line); that is cheap, reports every bad line at
once, and lets us try small repairs to explain a mistake:

* a misspelt word: replace it with each close keyword the parser would accept there;
  if the line then parses (or gets further), say "unknown word `plya`; did you mean
  `play`?";
* two words run together (``playa card``): split them with a space;
* a word in capitals: try it in lowercase;
* a word left out: put in each word the parser expected there ("did you leave out
  `led`?").

What the parser expected is told in plain words (never a Lark token name), after the
last words before the mistake: "expected a number or a formula after `a number
from`, but found `,`". Where a rule does not start like any rule of its section, the
hint lists how the rules of that section read.
"""
from __future__ import annotations

import difflib
import re
from ..model.record import record
from functools import lru_cache

from lark import Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..errors import Collector, Location, did_you_mean
from .parser import Glued, parser
from .tree import SECTIONS

HEADER_WORDS = ("game", "variant", "extends", "tables", "examples")
MAX_SYNTAX_ERRORS = 50      # stop reporting after this many bad lines
MAX_ERRORS_PER_LINE = 3
MAX_NESTING = 100           # deepest formula accepted (parentheses, `not`, `-`, terms)

_ITEM_PREFIX = "game x\nplay:\n"
_WORD = re.compile(r"[A-Za-z0-9\u00c0-\uffff'_-]")
_HEADING = re.compile(r"^(\s*)([A-Za-z][A-Za-z0-9_-]*)\s*:\s*$")


# ------------------------------------------------------------------ words for tokens
_TERMINAL_WORDS = {
    "INT": "a number", "NAME": "a name", "STRING": "a title in double quotes",
    "SPECNAME": "a spec name", "RANK": "a rank (A K Q J 10 9 … 2)",
    "CLAUSE": "a clause id (such as R12-3, house or decision)",
    "COMPARE": "a comparison (= != < <= > >=)", "ADD_OP": "`+` or `-`", "MUL_OP": "`*` or `/`",
    "DIRECTION": "`left` or `right`", "FLOW": "a value", "_ROUNDS": "`rounds`", "_CARDS": "`cards`",
    "OR_NONE": "`or none`", "_NL": "the end of the line", "$END": "the end of the file",
}
_EXPR_START = {"INT", "NAME", "LPAR", "MINUS", "NOT", "ANY", "EVERY", "THE", "CARD"}
_OPERATORS = {"ADD_OP", "MUL_OP", "COMPARE", "IS", "AND", "OR", "IF", "OF"}
_ITEM_START = {"NAME", "ADD", "REPLACE", "REMOVE", "SET"}
_LAST = ("the end of the line", "the end of the file")

_TABLE_EDITS = ["set KEY … to VALUE", "remove KEY …"]


@lru_cache(maxsize=1)
def _terminal_info():
    """(keyword text by terminal name, word alternatives of regex terminals)."""
    words, alts = {}, {}
    for t in parser().terminals:
        p = t.pattern
        if p.type == "str":
            words[t.name] = p.value
        else:
            m = re.fullmatch(r"\(\?:([a-z|' ]+)\)", p.value)
            if m:
                alts[t.name] = m.group(1).split("|")
    return words, alts


def describe_expected(expected) -> list[str]:
    """Terminal names -> phrases a player understands, most specific first."""
    exp = {t for t in expected if not t.startswith("__IGNORE") and t != "COMMENT"}
    words, _ = _terminal_info()
    out: list[str] = []
    if {"INT", "NAME", "LPAR"} <= exp:
        exp -= _EXPR_START
        out.append("a number or a formula")
    if len(exp & {"ADD_OP", "MUL_OP", "COMPARE"}) >= 2:
        exp -= _OPERATORS
        out.append("an operator (+ - * / = < > and or …)")
    sections = {n for n, v in words.items() if v in _section_names()}
    if len(exp & sections) >= 5:
        exp -= sections
        if {"ADD", "REPLACE"} <= exp or "NAME" in exp:
            exp -= _ITEM_START
            out.append("a rule (`name: …`)")
        out.append("a section heading (`players:`, `deal:` …)")
    headers = {n for n, v in words.items() if v in HEADER_WORDS}
    if len(exp & headers) >= 3:
        exp -= headers
        out.append("a header line (`game`, `variant`, `extends`, `tables`, `examples`)")
    rest = []
    for t in exp:
        if t in _TERMINAL_WORDS:
            rest.append(_TERMINAL_WORDS[t])
        elif t in words:
            rest.append(f"`{words[t]}`")
        else:
            rest.append(t.lower().strip("_"))
    rest = sorted(set(rest), key=lambda w: (w in _LAST, not w.startswith("`"), w))
    return out + rest


def join_or(items: list[str], limit: int = 8) -> str:
    if len(items) > limit:
        items = items[:limit - 1] + ["…"]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


@lru_cache(maxsize=1)
def _section_names():
    return SECTIONS


# ------------------------------------------------------------------ one line's first error
@record
class LineError:
    col: int               # 1-based column of the mistake
    end: int               # exclusive end column (0: one character)
    kind: str              # token, eol, char, glued
    got: str               # the text found (a word or a character; '' at the end of the line)
    expected: frozenset    # terminal names the parser would have accepted
    split: int = 0         # glued: length of the first of the two words


def _code(line: str) -> str:
    """The line without its comment (a `#` outside quotes and braces) and trailing space."""
    quote = brace = False
    for i, ch in enumerate(line):
        if ch == '"' and not brace:
            quote = not quote
        elif ch == "{" and not quote:
            brace = True
        elif ch == "}" and not quote:
            brace = False
        elif ch == "#" and not quote and not brace:
            return line[:i].rstrip()
    return line.rstrip()


def _doc(mode: str, line: str) -> tuple[str, int]:
    if mode == "item":
        return _ITEM_PREFIX + line + "\n", 3
    return line + "\n", 1


def _run(doc: str):
    try:
        parser().parse(doc)
    except (UnexpectedInput, Glued) as e:
        return e
    return None


def _accepts(e) -> frozenset:
    try:
        got = e.interactive_parser.accepts()
        if got:
            return frozenset(got)
    except Exception:
        pass
    return frozenset(getattr(e, "expected", None) or getattr(e, "allowed", None) or ())


def _word_span(line: str, col: int) -> tuple[int, int]:
    """The 1-based [start, end) of the word around column `col` (letters, digits, - and ')."""
    i = col - 1
    if i >= len(line) or not _WORD.match(line[i]):
        return col, col + 1
    s = i
    while s > 0 and _WORD.match(line[s - 1]):
        s -= 1
    t = i
    while t < len(line) and _WORD.match(line[t]):
        t += 1
    return s + 1, t + 1


def line_error(mode: str, line: str) -> LineError | None:
    """The first syntax error of one line checked on its own, or None."""
    doc, lno = _doc(mode, line)
    e = _run(doc)
    if e is None:
        return None
    code = _code(line)
    eol_col = len(code) + 1
    if isinstance(e, Glued):
        if e.first.line != lno:
            return LineError(1, 0, "eol", "", frozenset())
        col = e.first.column
        s, t = _word_span(line, col)
        return LineError(col, t, "glued", line[col - 1:t - 1], expected_at(mode, line, col),
                         len(e.first.value))
    line_no = getattr(e, "line", lno) or lno
    if isinstance(e, UnexpectedToken) and e.token.type in ("_NL", "$END"):
        return LineError(eol_col, 0, "eol", "", _accepts(e))
    if isinstance(e, UnexpectedEOF):
        return LineError(eol_col, 0, "eol", "", frozenset(e.expected or ()))
    if line_no != lno:          # the prefix cannot fail; be safe
        return LineError(1, 0, "eol", "", _accepts(e))
    if isinstance(e, UnexpectedCharacters):
        col = e.column
        s, t = _word_span(line, col)
        got = line[col - 1:t - 1] if s == col and t > col + 1 else line[col - 1:col]
        return LineError(col, col + len(got), "char", got, _accepts(e) or frozenset(e.allowed or ()))
    tok = e.token
    end = tok.end_column if getattr(tok, "end_line", tok.line) == tok.line else tok.column + 1
    return LineError(tok.column, end, "token", str(tok), _accepts(e))


def expected_at(mode: str, line: str, col: int) -> frozenset:
    """What the parser accepts at column `col` of the line (what may start there)."""
    doc, _ = _doc(mode, line[:col - 1].rstrip() + " ")
    doc = doc[:-1]      # no newline: the parser then stops at the end of the text
    e = _run(doc)
    if e is None or isinstance(e, Glued):
        return frozenset()
    if isinstance(e, UnexpectedEOF):
        return frozenset(e.expected or ())
    if isinstance(e, UnexpectedCharacters):
        return frozenset(e.allowed or ())
    return _accepts(e)


# ------------------------------------------------------------------ repairs
@record
class Repair:
    line: str              # the repaired line
    col: int               # where the mistake is
    end: int
    message: str
    hint: str


def _keyword_words(expected) -> list[str]:
    words, alts = _terminal_info()
    out = []
    for t in expected:
        if t in words and re.fullmatch(r"[a-z][a-z']*", words[t]):
            out.append(words[t])
        out.extend(alts.get(t, ()))
    return sorted(set(out))


def _progress(mode: str, new_line: str, err: LineError, shift: int) -> int:
    """2: the repaired line parses; 1: it gets past the original mistake; 0: no better."""
    e2 = line_error(mode, new_line)
    if e2 is None:
        return 2
    limit = max(err.end, err.col + 1) + shift
    return 1 if e2.col > limit else 0


def _repairs_for_word(mode, line, s, t, err, where_expected) -> list[Repair]:
    """Candidate repairs of the word at [s, t) (1-based columns)."""
    word = line[s - 1:t - 1]
    cands: list[Repair] = []
    # Two words run together: try a space between them.
    if err.kind == "glued" and s == err.col and 0 < err.split < len(word):
        a, b = word[:err.split], word[err.split:]
        cands.append(Repair(line[:s - 1] + a + " " + b + line[t - 1:], s, t,
                            f"`{word}` runs two words together",
                            f"write a space between `{a}` and `{b}`"))
    if word.lower() != word and word.lower().replace("-", "").isalnum():
        low = word.lower()
        cands.append(Repair(line[:s - 1] + low + line[t - 1:], s, t,
                            f"`{word}` is written in capitals", f"write `{low}`: words are lowercase"))
    keywords = _keyword_words(where_expected)
    for kw in difflib.get_close_matches(word.lower(), keywords, n=3, cutoff=0.6):
        if kw == word:
            continue
        cands.append(Repair(line[:s - 1] + kw + line[t - 1:], s, t, f"unknown word `{word}`",
                            f"did you mean `{kw}`?"))
    return cands


def find_repair(mode: str, line: str, err: LineError) -> Repair | None:
    """The most likely small fix of the mistake, checked by parsing the fixed line."""
    spans = []
    s, t = _word_span(line, err.col)
    if err.kind == "glued":
        s, t = err.col, err.end
    if _WORD.match(line[s - 1:s] or " "):
        spans.append((s, t))
    # The word before the mistake may be the misspelt one (`mustt play …`).
    p = s - 1
    while p > 0 and line[p - 1] == " ":
        p -= 1
    if p > 0 and _WORD.match(line[p - 1]):
        ps, pt = _word_span(line, p)
        spans.append((ps, pt))
    best, best_score = None, 0
    for k, (a, b) in enumerate(spans):
        exp = err.expected if (k == 0 and a == err.col and err.kind != "glued") else expected_at(mode, line, a)
        for r in _repairs_for_word(mode, line, a, b, err, exp):
            shift = len(r.line) - len(line)
            score = _progress(mode, r.line, err, shift)
            if score > best_score:
                best, best_score = r, score
                if score == 2:
                    return best
        if best is not None:
            return best
    return best


def _missing_word(mode: str, line: str, err: LineError) -> str:
    """A hint when putting one expected word in makes the line read."""
    words = _keyword_words(err.expected)
    if not words or len(words) > 8:
        return ""
    i = err.col - 1
    for kw in words:
        fixed = line[:i].rstrip() + " " + kw + (" " + line[i:].lstrip() if line[i:].strip() else "")
        if line_error(mode, fixed) is None:
            return f"did you leave out `{kw}`?"
    return ""


# ------------------------------------------------------------------ messages
def _context(code: str, col: int, body_start: int) -> str:
    """The last few words before column `col` (within the rule's body when in it)."""
    start = body_start if col > body_start else 0
    words = code[start:col - 1].split()
    return " ".join(words[-3:])


def _unclosed(code: str, col: int, opener: str, closer: str) -> int:
    where = []
    for i, ch in enumerate(code[:col - 1]):
        if ch == opener:
            where.append(i + 1)
        elif ch == closer and where:
            where.pop()
    return where[-1] if where else 0


def explain(mode: str, line: str, err: LineError, section: str | None) -> tuple[str, str, int, int]:
    """(message, hint) for a mistake that no small repair explains."""
    code = _code(line)
    span = (err.col, err.end if err.end > err.col else err.col + 1)
    colon = code.find(":") + 1 if mode == "item" else 0
    exp = describe_expected(err.expected)
    got = {"eol": "the line ends", "char": f"found `{err.got}`"}.get(err.kind, f"found `{err.got}`")
    ctx = _context(code, err.col, colon)
    in_body = mode == "item" and colon and err.col > colon
    body_words = code[colon:err.col - 1].split() if in_body else []
    if err.kind == "char" and err.got == '"':
        return "this title has no closing `\"`", "a title is written in double quotes on one line", *span
    if err.kind == "char" and err.got == "{":
        return "this `{` has no closing `}` on its line", "a value in braces is written on one line", *span
    if err.kind == "char" and not err.got.isascii():
        return (f"`{err.got}` cannot be used here",
                "names use the letters a to z, digits and hyphens", *span)
    if mode == "header" and code.split()[:1] in (["tables"], ["examples"]):
        exp = [x.replace("a title in double quotes", "a file name in double quotes") for x in exp]
        words = code.split()
        if len(words) == 2 and '"' not in code:
            return (f"expected {join_or(exp)} after `{words[0]}`, but {got}",
                    f'write `{words[0]} "{words[1]}"`', *span)
    if mode == "header" and code.split()[:1] == ["extends"] and len(code.split()) == 2:
        ref = code.split()[1].strip('"')
        if ref.endswith(".talon") or "/" in ref or "\\" in ref:
            stem = ref.replace("\\", "/").rsplit("/", 1)[-1]
            stem = stem[:-len(".talon")] if stem.endswith(".talon") else stem
            return ("`extends` takes the name of a spec, not a file name or a path",
                    f"write `extends {stem}`: a bundled spec, or the file `{stem}.talon` in this "
                    "spec's own folder", code.index(code.split()[1]) + 1, len(code) + 1)
    if err.kind == "char" and not _WORD.match(err.got[:1]) and err.got not in "()[]:,=<>+-*/;{}\"":
        return (f"unexpected character `{err.got}`",
                f"expected {join_or(exp)}" + (f" after `{ctx}`" if ctx else ""), *span)
    # Brackets.
    for o, c, term in (("(", ")", "RPAR"), ("[", "]", "RSQB")):
        if term in err.expected:
            at = _unclosed(code, err.col, o, c)
            if at:
                return (f"expected `{c}` to close the `{o}` at column {at}, but {got}",
                        "", *span)
        if err.got == c and not _unclosed(code, err.col, o, c):
            return f"`{c}` closes nothing: there is no `{o}` before it", "", *span
    if mode == "item" and not in_body:
        if err.col == len(code) - len(code.lstrip()) + 1:
            if err.got in ("[", ":"):
                return ("this rule has no name",
                        "a rule reads `name [clause ids]: what it says`, e.g. `follow: must play a card of the suit led when able`", *span)
            return (f"expected {join_or(exp)}, but {got}",
                    "a rule reads `name [clause ids]: what it says`", *span)
        msg = f"expected {join_or(exp)} after `{ctx}`, but {got}"
        return msg, "a rule reads `name [clause ids]: what it says`", *span
    if in_body and len(body_words) <= 1 and section is not None:
        name = code[:colon - 1].split()[0] if code[:colon - 1].split() else "this rule"
        words = code[colon:].split()
        hint = _templates_hint(section)
        if not words:
            return f"the rule `{name}` says nothing after `:`", hint, *span
        what = " ".join(words[:5]) + (" …" if len(words) > 5 else "")
        start = colon + len(code[colon:]) - len(code[colon:].lstrip()) + 1
        return (f"`{what}` does not read as any rule of the `{section}` section", hint,
                start, len(code) + 1)
    if ctx:
        return f"expected {join_or(exp)} after `{ctx}`, but {got}", "", *span
    return f"expected {join_or(exp)}, but {got}", "", *span


def _templates_hint(section: str) -> str:
    from ..rules.registry import BODY_SECTION, TEMPLATES
    if section == "tables":
        lines = _TABLE_EDITS
    else:
        lines = [TEMPLATES[k] for k, s in BODY_SECTION.items() if s == section and k in TEMPLATES]
    if not lines:
        return "a rule reads `name [clause ids]: what it says`"
    return f"a rule of `{section}:` reads like one of:\n" + "\n".join("  " + x for x in lines)


# ------------------------------------------------------------------ the line pass
def report_lines(lines: list[str], path: str, out: Collector, first_line: int = 1) -> int:
    """Check every line from `first_line` (1-based) on; report each mistake. Returns the
    number of errors reported."""
    section, in_sections, header = None, False, False
    for raw in lines[:max(first_line - 1, 0)]:
        code = _code(raw)
        m = _HEADING.match(code)
        if m:
            in_sections = True
            section = m.group(2) if m.group(2) in SECTIONS else None
        elif code.split()[:1] and code.split()[0] in HEADER_WORDS:
            header = True
    n = 0
    for i in range(max(first_line - 1, 0), len(lines)):
        if n >= MAX_SYNTAX_ERRORS:
            out.error(Location(path, i + 1, 1), f"too many syntax errors; stopped after {n}")
            return n + 1
        line = lines[i].replace("\t", " ")
        code = _code(line)
        if not code.strip():
            continue
        lno = i + 1
        first = code.split()[0]
        m = _HEADING.match(code)
        indent = len(code) - len(code.lstrip())
        if not header and not in_sections and first not in HEADER_WORDS and (m or line_error("item", line) is None):
            out.error(Location(path, lno, indent + 1, len(code) + 1),
                      "a spec starts with its `game` or `variant` line",
                      'add a first line such as `game NAME "Title"`')
            n += 1
            header = True
        if first in HEADER_WORDS and not in_sections:
            header = True
        if m and (m.group(2) in SECTIONS or not (indent and in_sections)):
            word = m.group(2)
            in_sections = True
            if word in SECTIONS:
                section = word
                continue
            section = None
            c = indent + 1
            hint = did_you_mean(word.lower(), SECTIONS) or ("the sections are " + ", ".join(SECTIONS))
            out.error(Location(path, lno, c, c + len(word)), f"unknown section `{word}`", hint)
            n += 1
            continue
        if first in SECTIONS and code.strip() == first:
            out.error(Location(path, lno, len(code) + 1, len(code) + 2),
                      f"expected `:` after the section name `{first}`", f"write `{first}:`")
            n += 1
            in_sections, section = True, first
            continue
        if first in HEADER_WORDS and in_sections:
            out.error(Location(path, lno, indent + 1, indent + 1 + len(first)),
                      f"a `{first}` line belongs at the top of the file, before the first section")
            n += 1
            continue
        if not in_sections and first in SECTIONS and first not in HEADER_WORDS:
            c = indent + 1
            out.error(Location(path, lno, c, len(code) + 1),
                      "a section heading is the section's name and `:`, alone on its line",
                      f"write `{first}:`")
            n += 1
            in_sections, section = True, first
            continue
        if not in_sections:
            n += _header_line(line, lno, path, out)
            continue
        n += _check_line("item", line, lno, path, out, section)
    return n


def _header_line(line: str, lno: int, path: str, out: Collector) -> int:
    """A line before the first section: a header line, or a rule with no section."""
    err = line_error("header", line)
    if err is None:
        return 0
    if line_error("item", line) is None:
        from ..rules.registry import BODY_SECTION
        kind = _body_kind(line)
        where = BODY_SECTION.get(kind, "")
        c = len(line) - len(line.lstrip()) + 1
        out.error(Location(path, lno, c, len(_code(line)) + 1), "this rule is not under a section heading",
                  f"put it under a `{where}:` heading" if where else "put it under its section heading")
        return 1
    return _check_line("header", line, lno, path, out, None)


def _body_kind(line: str) -> str:
    try:
        tree = parser().parse(_ITEM_PREFIX + line + "\n")
    except Exception:
        return ""
    for item in tree.find_pred(lambda t: t.data in ("rule", "add_rule", "replace_rule")):
        for c in item.children:
            if isinstance(c, Tree) and c.data not in ("clauses", "after", "before"):
                from ..rules.registry import kind_of
                cls = kind_of(str(c.data))
                return cls.kind if cls else ""
    return ""


def _check_line(mode: str, line: str, lno: int, path: str, out: Collector, section) -> int:
    """Report the mistakes of one line: after a repair that gets further, the repaired
    line is checked again (columns are mapped back to the line as written)."""
    n, shift, width = 0, 0, len(line) + 1
    place = lambda c, e: Location(path, lno, min(max(c - shift, 1), width),
                                  min(max(e - shift, 0), width + 1) if e else 0)
    for _ in range(MAX_ERRORS_PER_LINE):
        err = line_error(mode, line)
        if err is None:
            return n
        rep = find_repair(mode, line, err)
        if rep is not None:
            out.error(place(rep.col, rep.end), rep.message, rep.hint)
            n += 1
            shift += len(rep.line) - len(line)
            line = rep.line
            continue
        msg, hint, col, end = explain(mode, line, err, section)
        if not hint and err.kind in ("token", "eol"):
            hint = _missing_word(mode, line, err)
        out.error(place(col, end), msg, hint)
        return n + 1
    return n


# ------------------------------------------------------------------ whole-file checks
_UNARY = {"neg", "negate", "any_seat", "every_seat_has", "lookup", "call"}
_NESTING = _UNARY | {"any_of", "all_of", "compare", "is_equal", "is_not_equal", "if_else", "when_else"}


def check_nesting(tree: Tree, path: str, out: Collector) -> bool:
    """Refuse formulas nested deeper than MAX_NESTING (before any recursive pass)."""
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if not isinstance(node, Tree):
            continue
        n = len(node.children)
        if node.data == "arith":
            depth += n // 2          # a + b + c nests as (a + b) + c
        elif node.data in _NESTING and (n > 1 or node.data in _UNARY):
            depth += 1               # single-child wrappers (one-term sums …) add no level
        if depth > MAX_NESTING:
            meta = node.meta
            line = getattr(meta, "line", 0) or 0
            col = getattr(meta, "column", 0) or 0
            out.error(Location(path, line, col, col + 1),
                      f"this formula is nested too deeply (more than {MAX_NESTING} levels)",
                      "split it with `let NAME = …` rules")
            return False
        stack.extend((c, depth) for c in node.children)
    return True


def check_parens(text: str, path: str, out: Collector) -> bool:
    """Refuse parentheses nested deeper than MAX_NESTING (checked on the text, first)."""
    for i, line in enumerate(text.split("\n")):
        if line.count("(") <= MAX_NESTING:
            continue
        depth = 0
        for j, ch in enumerate(_code(line)):
            depth += ch == "("
            depth -= ch == ")"
            if depth > MAX_NESTING:
                out.error(Location(path, i + 1, j + 1, j + 2),
                          f"this formula is nested too deeply (more than {MAX_NESTING} parentheses)",
                          "split it with `let NAME = …` rules")
                return False
    return True


def check_header(tree: Tree, path: str, out: Collector) -> bool:
    """One `game` or `variant` line, first; each other header line at most once."""
    seen: dict = {}
    ok = True
    first = True
    for node in tree.children:
        if not isinstance(node, Tree) or node.data == "section":
            continue
        kind = "game" if node.data in ("game", "variant") else str(node.data)
        line = getattr(node.meta, "line", 1) or 1
        col = getattr(node.meta, "column", 1) or 1
        word = {"tables_file": "tables"}.get(kind, kind)
        if kind in seen:
            out.error(Location(path, line, col, col + len(str(node.data))),
                      f"a second `{word if kind != 'game' else node.data}` line",
                      f"the first is at line {seen[kind]}")
            ok = False
        seen.setdefault(kind, line)
        if first and kind != "game":
            out.error(Location(path, line, col, col + len(word)),
                      "a spec starts with its `game` or `variant` line",
                      "write the `game` (or `variant`) line first")
            ok = False
        first = False
    if first:
        out.error(Location(path, 1, 1), "a spec starts with its `game` or `variant` line",
                  'add a first line such as `game NAME "Title"`')
        ok = False
    return ok
