"""Reading one spec file: text -> parse tree -> SpecFile, every syntax error reported
in the player's words (``syntax_errors``)."""
from __future__ import annotations

from ..errors import Collector, Location
from .parser import build, parser
from .syntax_errors import check_header, check_nesting, check_parens, report_lines
from .tree import SpecFile


def parse(text: str, path: str, out: Collector) -> SpecFile | None:
    """Parse one spec file; report every syntax error found (after the first error,
    every following line is checked on its own, so one run reports every bad line)."""
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
        return build(tree, path, out, text)
    except RecursionError:
        out.error(Location(path, 1, 1), "the spec is nested too deeply to read")
        return None


def _report(e: Exception, path: str, text: str, out: Collector):
    """Report the syntax errors of a file the parser rejected with `e`."""
    lines = text.split("\n")
    line = getattr(e, "line", 0) or getattr(getattr(e, "first", None), "line", 0) or 1
    before = len(out.errors)
    report_lines(lines, path, out, first_line=max(1, min(line, len(lines))))
    if len(out.errors) == before:
        col = getattr(e, "column", 0) or 1
        out.error(Location(path, line, col, col + 1), "the spec cannot be read here",
                  "a rule reads `name [clause ids]: what it says`, one rule per line")
