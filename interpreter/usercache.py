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


_MARK = None


def code_mark() -> str:
    """What identifies Talon's code: every module of the package and its grammar and
    schema files (each file's path, size and time of change, which is how the
    interpreter itself tells whether its compiled copy of a module is out of date, so a
    result cached under this mark is stale whenever the code's is), the interpreter, and
    the libraries PyYAML and Lark. Worked out once per process."""
    global _MARK
    if _MARK is None:
        from .resources import grammar_path
        here = os.path.dirname(os.path.abspath(__file__))
        files = []
        for top in dict.fromkeys((here, os.path.dirname(os.path.abspath(grammar_path("talon.lark"))))):
            for root, dirs, found in os.walk(top):
                dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", "specs"))
                files += [os.path.join(root, f) for f in sorted(found) if f.endswith((".py", ".lark", ".json"))]
        files += [_library(lib) for lib in ("yaml", "lark")]
        out = [sys.version]
        for f in files:
            try:
                st = os.stat(f)
                out.append(f"{f}:{st.st_size}:{st.st_mtime_ns}")
            except (OSError, TypeError):
                out.append(f"{f}:-")
        _MARK = "\n".join(out)
    return _MARK


def _library(name: str) -> str:
    """The first `name/__init__.py` on the module path (where `import name` finds it)."""
    for d in sys.path:
        p = os.path.join(d or os.getcwd(), name, "__init__.py")
        if os.path.isfile(p):
            return p
    return name


def _pickle():
    """The pickle module's C half where there is one (what `pickle` itself uses), without
    the Python half's start-up cost."""
    try:
        import _pickle as pickle
    except ImportError:         # pragma: no cover - another interpreter
        import pickle
    return pickle


def load(name: str, key: str):
    """The object kept under `key` in folder `name`, or None (missing, partly written,
    from another version: worked out anew)."""
    where = folder(name)
    if where is None:
        return None
    try:
        with open(where / f"{key}.pickle", "rb") as f:
            data = f.read()
        return _pickle().loads(data)
    except Exception:
        return None


def keep(name: str, key: str, obj) -> None:
    """Keep `obj` (pickled) under `key` in folder `name`. Never raises."""
    where = folder(name)
    if where is None:
        return
    try:
        data = _pickle().dumps(obj, protocol=-1)     # the highest protocol
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
