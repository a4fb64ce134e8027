"""The user's cache folder: what a fresh process may reuse instead of working it out
again (a spec read before, tables that passed the schema). Everything kept is keyed by
a hash of all it depends on, only successes are kept, each folder holds a bounded
number of entries (the oldest go first), and the whole folder may be deleted at any
time. ``$XDG_CACHE_HOME/talon-cards`` (by default ``~/.cache/talon-cards``)."""
from __future__ import annotations

import os
from pathlib import Path

MAX_ENTRIES = 400          # per folder; past it, the oldest quarter is removed


def folder(name: str) -> Path | None:
    """The cache folder `name` (not created), or None where there is no home."""
    try:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    except (OSError, RuntimeError, KeyError):
        return None
    return base / "talon-cards" / name


def write(path: Path, data: bytes) -> None:
    """Keep `data` at `path` (atomically), then bound the folder. Never raises."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)
        _bound(path.parent)
    except OSError:
        pass


def _bound(where: Path) -> None:
    entries = list(os.scandir(where))
    if len(entries) <= MAX_ENTRIES:
        return
    def age(e):
        try:
            return e.stat().st_mtime
        except OSError:
            return 0.0
    entries.sort(key=age)
    for e in entries[: len(entries) - MAX_ENTRIES * 3 // 4]:
        try:
            os.unlink(e.path)
        except OSError:
            pass
