"""Where the grammar, schemas and bundled specs live: inside the installed package
(``interpreter/grammars``, ``interpreter/specs``) or, in a checkout, at the top level."""
from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent


def _locate(folder: str) -> Path:
    installed = _HERE / folder
    return installed if installed.is_dir() else _HERE.parent / folder


def grammar_path(name: str) -> Path:
    return _locate("grammars") / name


def specs_dir() -> Path:
    return _locate("specs")
