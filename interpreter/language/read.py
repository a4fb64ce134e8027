"""Reading one spec file: text -> parse tree -> SpecFile, every syntax error reported
in the player's words (``syntax_errors``)."""
from __future__ import annotations

from ..errors import Collector, Location
from .tree import SpecFile


def parse(text: str, path: str, out: Collector) -> SpecFile | None:
    """Parse one spec file; report every syntax error found (after the first error,
    every following line is checked on its own, so one run reports every bad line)."""
    out.sources[path] = text
    if not text.strip():
        out.error(Location(path, 1, 1), "the spec file is empty",
                  'a spec starts with its `game` or `variant` line, such as `game NAME "Title"`')
        return None
    full = text if text.endswith("\n") else text + "\n"
    mark = _cache_key(full, path)
    spec = _cached(mark)
    if spec is not None:           # read before without a remark: its parentheses were fine
        return spec
    from .parser import build, parser            # the parser, only for a text not read before
    from .syntax_errors import check_header, check_nesting, check_parens
    if not check_parens(text, path, out):
        return None
    text = full
    try:
        tree = parser().parse(text)
    except Exception as e:      # UnexpectedInput or Glued: explain line by line
        _report(e, path, text, out)
        return None
    if not check_header(tree, path, out) or not check_nesting(tree, path, out):
        return None
    mine = Collector(out.sources)       # its own remarks, even those `out` already holds
    try:
        spec = build(tree, path, mine, text)
    except RecursionError:
        out.take(mine)
        out.error(Location(path, 1, 1), "the spec is nested too deeply to read")
        return None
    out.take(mine)
    if not mine.diagnostics:
        _keep(mark, spec)
    return spec


# ---------------------------------------------------------------- the reading cached
# A spec file read without a remark is kept, pickled, in the user's cache folder, keyed
# by its text, its path and the reader itself (Talon's code and grammar, the interpreter
# and the parsing library: ``usercache.code_mark``), so that a fresh process reads an
# unchanged spec without loading the parser or lexing the text. A file that is missing,
# unreadable or stale is read anew.
_FOLDER = "specs-read"


def _cache_key(text: str, path: str):
    from .. import usercache
    if usercache.folder(_FOLDER) is None:
        return None
    return usercache.digest(text, path, usercache.code_mark())


def _cached(key):
    if key is None:
        return None
    from .. import usercache
    spec = usercache.load(_FOLDER, key)
    return spec if isinstance(spec, SpecFile) else None


def _keep(key, spec):
    if key is not None:
        from .. import usercache
        usercache.keep(_FOLDER, key, spec)


def _report(e: Exception, path: str, text: str, out: Collector):
    """Report the syntax errors of a file the parser rejected with `e`."""
    from .syntax_errors import report_lines
    lines = text.split("\n")
    line = getattr(e, "line", 0) or getattr(getattr(e, "first", None), "line", 0) or 1
    before = len(out.errors)
    report_lines(lines, path, out, first_line=max(1, min(line, len(lines))))
    if len(out.errors) == before:
        col = getattr(e, "column", 0) or 1
        out.error(Location(path, line, col, col + 1), "the spec cannot be read here",
                  "a rule reads `name [clause ids]: what it says`, one rule per line")
