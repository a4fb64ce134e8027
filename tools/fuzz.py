#!/usr/bin/env python
"""Mutation fuzz: damage the bundled specs at random, validate each mutant, and play every
mutant that validates (a few random deals at every seat count and the start of a game).

Prints how many mutants were tried, how many validated, how many deals they played, and
every failure: a validation that raised, an error without a place, or a valid mutant
that crashed while playing (the mutant is saved so that it can be replayed).

    python tools/fuzz.py --mutants 2000 --seed 1
"""
from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from talon_cards.agents import RandomAgent, play_deal  # noqa: E402
from talon_cards.engine import Match  # noqa: E402
from talon_cards.errors import Collector  # noqa: E402
from talon_cards.spec import check  # noqa: E402

SPECS = sorted((ROOT / "specs").glob("*.talon"))
TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9'-]*|\S")
NUMBERS = ["0", "1", "2", "3", "4", "7", "8", "13", "52", "100", "-1", "99999999999999999999"]
CHARS = list(":,()[]{}\"'#=<>+-*/;&*!|%@\t") + ["é", "\u00a0"]


def vocabulary() -> list:
    words = set()
    for p in SPECS + sorted((ROOT / "specs").glob("*.yaml")):
        words.update(re.findall(r"[a-z][a-z0-9-]*", p.read_text(encoding="utf-8")))
    words.update(re.findall(r'"([a-z][a-z\']*)"', (ROOT / "grammars" / "talon.lark").read_text(encoding="utf-8")))
    words.update(["none", "tricks left", "(1 / 0)", "seat", "any seat has"])
    return sorted(words)


WORDS = vocabulary()


def mutate(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    op = rng.choice(["delete line", "duplicate line", "swap lines", "delete word", "duplicate word",
                     "swap words", "number", "word", "word", "number", "character"])
    if op == "delete line":
        del lines[i]
    elif op == "duplicate line":
        lines.insert(i, lines[i])
    elif op == "swap lines":
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    else:
        line = lines[i]
        toks = list(TOKEN.finditer(line))
        if not toks:
            return text
        k = rng.randrange(len(toks))
        a, b = toks[k].span()
        if op == "delete word":
            line = line[:a] + line[b:]
        elif op == "duplicate word":
            line = line[:b] + " " + line[a:b] + line[b:]
        elif op == "swap words" and k + 1 < len(toks):
            c, d = toks[k + 1].span()
            line = line[:a] + line[c:d] + line[b:c] + line[a:b] + line[d:]
        elif op == "number":
            nums = list(re.finditer(r"\b\d+\b", line))
            if nums:
                m = rng.choice(nums)
                line = line[:m.start()] + rng.choice(NUMBERS) + line[m.end():]
        elif op == "word":
            line = line[:a] + rng.choice(WORDS) + line[b:]
        elif op == "character":
            p = rng.randrange(max(len(line), 1))
            line = line[:p] + rng.choice(CHARS) + line[p + 1:]
        lines[i] = line
    return "\n".join(lines)


def tables_of(spec: Path) -> list:
    m = re.search(r'^tables\s+"([^"]+)"', spec.read_text(encoding="utf-8"), re.M)
    return [spec.parent / m.group(1)] if m else []


def play(game, rng) -> int:
    deals = 0
    for seats in game.seat_counts:
        for k in range(3):
            d = game.new_deal(seats, k % seats, None, k + 1)
            d.deal_random(rng)
            play_deal(d, RandomAgent(rng))
            deals += 1
        m = Match(game, seats, 0)
        for _ in range(3):
            if m.game_over:
                break
            d = m.new_deal()
            d.deal_random(rng)
            play_deal(d, RandomAgent(rng))
            m.finish(d)
            deals += 1
    return deals


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--mutants", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--keep", default="fuzz-failures", help="folder for the mutants that failed")
    args = p.parse_args(argv)
    # the mutants are read once each: keep them out of the user's cache folder
    cache = tempfile.mkdtemp(prefix="talon-fuzz-cache-")
    os.environ["XDG_CACHE_HOME"] = cache
    try:
        return _run(args)
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def _run(args) -> int:
    rng = random.Random(args.seed)
    tried = valid = deals = 0
    failures = []
    t0 = time.time()
    for n in range(args.mutants):
        spec = rng.choice(SPECS)
        files = {spec.name: spec.read_text(encoding="utf-8")}
        for t in tables_of(spec):
            files[t.name] = t.read_text(encoding="utf-8")
        for _ in range(rng.randint(1, 3)):
            name = rng.choice(sorted(files))
            files[name] = mutate(files[name], rng)
        folder = Path(tempfile.mkdtemp(prefix="talon-fuzz-"))
        try:
            for name, text in files.items():
                (folder / name).write_text(text, encoding="utf-8")
            tried += 1
            stage = "validate"
            try:
                out = Collector()
                game = check(str(folder / spec.name), out)
                if any(d.severity == "error" and not d.location.path for d in out.diagnostics):
                    raise AssertionError("an error without a place")
                if game is not None:
                    valid += 1
                    stage = "play"
                    deals += play(game, random.Random(n))
            except Exception:
                keep = Path(args.keep) / f"mutant-{n}"
                keep.mkdir(parents=True, exist_ok=True)
                for name, text in files.items():
                    (keep / name).write_text(text, encoding="utf-8")
                (keep / "traceback.txt").write_text(traceback.format_exc(), encoding="utf-8")
                failures.append((n, stage, spec.name, traceback.format_exc().strip().splitlines()[-1]))
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    print(f"{tried} mutants of {len(SPECS)} specs, {valid} valid, {deals} deals played by the valid ones, "
          f"{len(failures)} failures, {time.time() - t0:.0f} s")
    for n, stage, name, last in failures[:20]:
        print(f"  mutant {n} of {name} ({stage}): {last}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
