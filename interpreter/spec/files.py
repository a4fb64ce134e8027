"""Finding and reading spec files: by bundled name or by path, bounded, text only."""
from __future__ import annotations

import os
from pathlib import Path

from ..errors import Collector, Location, did_you_mean
from ..resources import specs_dir

MAX_SPEC_BYTES = 256_000


def resolve(ref: str) -> Path:
    """A spec named by its name (a file of specs/) or by path."""
    p = Path(ref)
    if p.suffix == ".talon" or os.sep in ref or "/" in ref:
        return p
    cand = specs_dir() / f"{ref}.talon"
    return _short(cand) if cand.exists() or not p.exists() else p


def _short(p: Path) -> Path:
    """A path relative to the working folder where it is inside it (for messages)."""
    try:
        return p.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return p


def bundled_names() -> list:
    return sorted(p.stem for p in specs_dir().glob("*.talon"))


def read_text(path: Path, out: Collector, what: str = "spec file", at: Location | None = None) -> str | None:
    loc = at or Location(str(path))
    try:
        if path.is_dir():
            out.error(loc, f"`{path}` is a folder, not a {what}")
            return None
        if path.exists() and not path.is_file():
            out.error(loc, f"`{path}` is not a regular file")
            return None
        with open(path, "rb") as fh:       # bounded: never read more than the limit
            data = fh.read(MAX_SPEC_BYTES + 1)
    except FileNotFoundError:
        hint = ""
        if what == "spec file":
            hint = did_you_mean(path.stem, bundled_names()) or ("bundled specs: " + ", ".join(bundled_names()))
        out.error(loc, f"no such {what}: `{path}`", hint)
        return None
    except OSError as e:
        out.error(loc, f"cannot read `{path}`: {e.strerror}")
        return None
    if len(data) > MAX_SPEC_BYTES:
        out.error(Location(str(path)), f"the {what} is too large (more than {MAX_SPEC_BYTES} bytes)")
        return None
    if b"\x00" in data:
        nul = data.index(b"\x00")
        out.error(Location(str(path), data[:nul].count(b"\n") + 1, nul - (data.rfind(b"\n", 0, nul) + 1) + 1),
                  f"the {what} is binary, not text")
        return None
    try:
        # as data.decode("utf-8-sig"), without loading that codec's module
        text = (data[3:] if data[:3] == b"\xef\xbb\xbf" else data).decode("utf-8")
        # old Mac line ends (CR alone) are line ends too
        return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        out.error(Location(str(path), line, col), f"the {what} is not UTF-8 text (byte {e.start} cannot be read)",
                  "save the file as UTF-8")
        return None


