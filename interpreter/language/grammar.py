"""The grammar's text: ``grammars/talon.lark`` with the registry's rule kinds as the
alternatives of `body` (read without loading the parser)."""
from __future__ import annotations

from ..resources import grammar_path


def grammar_text() -> str:
    """The grammar, with the registry's rule kinds as the alternatives of `body`."""
    from ..rules.registry import body_alternatives
    return grammar_path("talon.lark").read_text(encoding="utf-8").replace("__RULE_KINDS__", body_alternatives())
