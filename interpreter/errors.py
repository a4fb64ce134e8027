"""One error root for everything a user can get wrong.

Every spec error knows its file, line and column, and renders as
``path:line:col: error: message`` followed by the offending line and a caret.
"""
from __future__ import annotations

from .model.record import field, record


SHOWN_WIDTH = 100   # longest source line shown under a message (longer: a window)


class TalonError(ValueError):
    """Root of every error Talon reports to a user (never shown as a traceback)."""


@record(frozen=True)
class Location:
    path: str
    line: int = 0        # 1-based; 0 when unknown
    column: int = 0      # 1-based; 0 when unknown
    end_column: int = 0  # exclusive; 0 when unknown

    def __str__(self) -> str:
        if self.line:
            return f"{self.path}:{self.line}:{self.column}"
        return self.path


@record
class Diagnostic:
    location: Location
    message: str
    severity: str = "error"
    hint: str = ""
    source_line: str = ""

    def render(self) -> str:
        out = [f"{self.location}: {self.severity}: {self.message}"]
        if self.source_line and self.location.line:
            text = self.source_line.rstrip("\n").replace("\t", " ")
            col = max(self.location.column, 1)
            width = 1
            if self.location.end_column > col:
                width = self.location.end_column - col
            if len(text) > SHOWN_WIDTH:
                # Show a window of a long line around the mistake.
                start = max(0, min(col - 1 - SHOWN_WIDTH // 2, len(text) - SHOWN_WIDTH))
                shown = text[start:start + SHOWN_WIDTH]
                lead = "…" if start else ""
                text = lead + shown + ("…" if start + SHOWN_WIDTH < len(text) else "")
                col = col - start + len(lead)
                width = max(1, min(width, SHOWN_WIDTH - (col - 1 - len(lead))))
            out.append("    " + text)
            out.append("    " + " " * (col - 1) + "^" * width)
        if self.hint:
            out.append("    hint: " + self.hint.replace("\n", "\n          "))
        return "\n".join(out)

    def to_json(self) -> dict:
        return {
            "path": self.location.path, "line": self.location.line,
            "column": self.location.column, "end_column": self.location.end_column,
            "severity": self.severity, "message": self.message, "hint": self.hint,
        }


class SpecError(TalonError):
    """A spec (rule file or table) is wrong; carries every diagnostic found."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = diagnostics
        super().__init__("\n".join(d.render() for d in diagnostics))


class RecordError(TalonError):
    """A hand record is malformed (not an illegal action: see IllegalAction)."""


class IllegalAction(TalonError):
    """An action that the spec does not allow at that point of the deal."""

    def __init__(self, index: int, action: str, reason: str, legal: list[str]):
        self.index, self.action, self.reason, self.legal = index, action, reason, legal
        shown = ", ".join(legal[:40]) + (" …" if len(legal) > 40 else "")
        super().__init__(f"action {index}: {action!r} is illegal: {reason}\n"
                         f"  legal instead: {shown or '(none)'}")

    def to_json(self) -> dict:
        return {"index": self.index, "action": self.action, "reason": self.reason,
                "legal": self.legal}


@record
class Collector:
    """Collects diagnostics so that validation reports every problem at once."""
    sources: dict = field(default_factory=dict)   # path -> text
    diagnostics: list = field(default_factory=list)

    def error(self, loc: Location, message: str, hint: str = "", severity: str = "error"):
        if loc is None:             # never let a missing position hide the message
            loc = Location(next(iter(self.sources), "spec"))
        for d in self.diagnostics:        # one problem is reported once
            if d.location == loc and d.message == message and d.severity == severity:
                return
        line = ""
        text = self.sources.get(loc.path)
        if text is not None and loc.line:
            lines = text.split("\n")        # as the parser counts lines (not str.splitlines)
            if 0 < loc.line <= len(lines):
                line = lines[loc.line - 1]
        self.diagnostics.append(Diagnostic(loc, message, severity, hint, line))

    def warn(self, loc: Location, message: str, hint: str = ""):
        self.error(loc, message, hint, severity="warning")

    def take(self, other: "Collector"):
        """Report here what `other` reported (each once, as always)."""
        for d in other.diagnostics:
            self.error(d.location, d.message, d.hint, d.severity)

    @property
    def errors(self):
        return [d for d in self.diagnostics if d.severity == "error"]

    def raise_if_errors(self):
        if self.errors:
            raise SpecError(self.diagnostics)


def did_you_mean(name: str, candidates) -> str:
    import difflib
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else ""
