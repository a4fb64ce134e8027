"""The user's cache folder: what a fresh process may reuse instead of working it out
again (a spec read before, tables read or checked before, examples replayed before).
Everything kept is keyed by a hash of all it depends on, only successes are kept, each
folder holds a bounded number of entries (the oldest go first), and the whole folder
may be deleted at any time. ``$XDG_CACHE_HOME/talon-cards`` (by default
``~/.cache/talon-cards``). ``talon validate --no-cache`` neither reads nor writes it."""
from __future__ import annotations

import os
import sys
from pathlib import Path

MAX_ENTRIES = 400          # per folder; past it, the oldest quarter is removed
OFF = False                # set by --no-cache: every folder is then None

try:                       # blake2b without loading OpenSSL (hashlib's start costs more)
    from _blake2 import blake2b as _hash
except ImportError:        # pragma: no cover - an interpreter built without it
    from hashlib import blake2b as _hash


def folder(name: str) -> Path | None:
    """The cache folder `name` (not created), or None where there is no home."""
    if OFF:
        return None
    try:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    except (OSError, RuntimeError, KeyError):
        return None
    return base / "talon-cards" / name


def digest(*parts) -> str:
    """The hash of `parts` (texts or bytes), each kept apart from the next."""
    h = _hash(digest_size=32)
    for part in parts:
        h.update(part if isinstance(part, bytes) else str(part).encode("utf-8", "surrogatepass"))
        h.update(b"\0\1\0")
    return h.hexdigest()


def code_mark(*names: str) -> str:
    """What identifies the code of the modules `names` (Python files of this package,
    as paths relative to it, or folders of it, all their .py files), of the interpreter,
    and of the libraries PyYAML and Lark: each file's path, size and time of change.
    That is how the interpreter itself tells whether its compiled copy of a module is
    out of date, so a cached result keyed by it is stale whenever the code's is."""
    here = os.path.dirname(os.path.abspath(__file__))
    files = []
    for name in names:
        p = os.path.normpath(os.path.join(here, name))
        if name.endswith(".py"):
            files.append(p)
            continue
        for root, dirs, found in os.walk(p):
            dirs.sort()
            files += [os.path.join(root, f) for f in sorted(found) if f.endswith(".py")]
    files += [_library(lib) for lib in ("yaml", "lark")]
    out = [sys.version, sys.executable]
    for f in files:
        try:
            st = os.stat(f)
            out.append(f"{f}:{st.st_size}:{st.st_mtime_ns}")
        except (OSError, TypeError):
            out.append(f"{f}:-")
    return "\n".join(out)


def _library(name: str) -> str:
    """The first `name/__init__.py` on the module path (where `import name` finds it)."""
    for d in sys.path:
        p = os.path.join(d or os.getcwd(), name, "__init__.py")
        if os.path.isfile(p):
            return p
    return name


def load(name: str, key: str):
    """The object kept under `key` in folder `name`, or None (missing, partly written,
    from another version: worked out anew)."""
    where = folder(name)
    if where is None:
        return None
    import pickle
    try:
        with open(where / f"{key}.pickle", "rb") as f:
            return pickle.load(f)
    except Exception:
        return None


def keep(name: str, key: str, obj) -> None:
    """Keep `obj` (pickled) under `key` in folder `name`. Never raises."""
    where = folder(name)
    if where is None:
        return
    import pickle
    try:
        data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:            # what cannot be kept is worked out again next time
        return
    write(where / f"{key}.pickle", data)


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
