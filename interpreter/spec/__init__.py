"""Stage 2: spec files -> a checked, compiled, immutable Game."""
from .compile import check, load
from .files import bundled_names, read_text, resolve

__all__ = ["check", "load", "bundled_names", "read_text", "resolve"]
