"""The compiled copy of the solver against solver.py run as Python.

setup.py compiles interpreter/solver.py as it stands (Cython, where it and a C compiler
are at hand) and stamps the copy with the digest of the text it came from; solver.py
hands its names over to the copy only while that digest is its own. The copy must be the
same search: on endings of every bundled game (the trick search, the search on card
points, the general search), the same result, the same best action, the same value for
every action and the same number of positions searched. Where no copy is built, the
comparison is skipped and everything runs as Python."""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

from talon_cards import solver
from test_solver import GAMES, endings

compiled = pytest.mark.skipif(solver.COMPILED is None, reason="the solver is not compiled here (plain Python)")


def pure_solver():
    """solver.py loaded again under another name: plain Python, whatever is built."""
    spec = importlib.util.spec_from_file_location("talon_cards._solver_pure", solver.__file__)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    try:
        spec.loader.exec_module(mod)
    finally:
        del sys.modules[spec.name]
    return mod


def test_solver_py_runs_as_python_under_another_name():
    pure = pure_solver()
    assert pure.COMPILED is None
    assert pure.Solver.__module__ == "talon_cards._solver_pure"
    if solver.COMPILED is not None:
        assert solver.Solver is solver.COMPILED.Solver


def outcome(mod, d, **kw):
    """What a solve gives, all of it (a search stopped at its positions counts too)."""
    try:
        x = mod.Solver(d).solve(max_nodes=150000, **kw)
    except mod.Timeout:
        return "stopped"
    return x.value, x.best, x.values, x.nodes


@compiled
@pytest.mark.parametrize("name", GAMES)
def test_the_compiled_solver_searches_exactly_as_the_python_one(name):
    pure = pure_solver()
    checked = 0
    for left, count, seed in ((3, 3, 51), (5, 3, 52), (7, 2, 53)):
        for d in endings(name, left, count, seed):
            assert solver.Solver(d).mode == pure.Solver(d).mode, name
            assert outcome(solver, d) == outcome(pure, d), name
            assert outcome(solver, d, all_actions=True) == outcome(pure, d, all_actions=True), name
            checked += 1
    assert checked >= 6


@compiled
def test_an_edited_solver_runs_as_python_until_it_is_built_again():
    """The copy stands in only for the text it was built from."""
    with open(solver.__file__, "rb") as f:
        text = f.read()
    assert solver._built_from(solver.COMPILED, text)
    assert not solver._built_from(solver.COMPILED, text + b"\n# edited\n")
    assert not solver._built_from(object(), text)


def test_talon_pure_python_leaves_the_copy_unused():
    out = subprocess.run([sys.executable, "-c", "import talon_cards.solver as s; print(s.COMPILED is None, "
                          "s.Solver.__module__)"], capture_output=True, text=True,
                         env={**os.environ, "TALON_PURE_PYTHON": "1"}, check=True)
    assert out.stdout.split() == ["True", "talon_cards.solver"]
