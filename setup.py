"""The build, beside pyproject.toml (which says everything else): where Cython and a
C compiler are at hand, a compiled copy of the open-card solver.

The copy is interpreter/solver.py itself, compiled as it stands (no code of its own),
under the name ``talon_cards._solver_c`` and stamped with the digest of the text it was
built from. solver.py hands its names over to the copy only while that digest is its
own, so an edited solver.py runs as plain Python until the package is built again
(``pip install -e .``). The compiled search is the same search, position for position
(a test checks it against the Python one), about twice as fast. Without Cython or a
compiler the package installs and runs as plain Python; ``TALON_PURE_PYTHON=1`` builds
no copy, and at run time leaves it unused."""
import hashlib
import os
import pathlib

from setuptools import setup


def compiled_solver():
    if os.environ.get("TALON_PURE_PYTHON"):
        return []
    try:
        from Cython.Build import cythonize
        from setuptools import Extension
    except ImportError:
        return []
    here = pathlib.Path(__file__).resolve().parent
    text = (here / "interpreter" / "solver.py").read_bytes()
    stamp = b"\n\nSOURCE_DIGEST = '%s'\n" % hashlib.sha256(text).hexdigest().encode()
    copy = here / "build" / "compiled" / "_solver_c.py"
    copy.parent.mkdir(parents=True, exist_ok=True)
    if not copy.exists() or copy.read_bytes() != text + stamp:
        copy.write_bytes(text + stamp)
    ext = Extension("talon_cards._solver_c", [copy.relative_to(here).as_posix()], optional=True)
    try:
        # (annotations not read as C types: Python's own meaning of every line kept)
        out = cythonize([ext], compiler_directives={"language_level": 3, "annotation_typing": False},
                        quiet=True, force=True)
    except Exception as e:       # a Cython that cannot translate it: plain Python
        print(f"talon: the solver is not compiled ({e}); it runs as Python")
        return []
    for e in out:
        e.optional = True        # no compiler: plain Python (cythonize drops the flag)
    return out


setup(ext_modules=compiled_solver())
