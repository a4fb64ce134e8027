"""The `talon` command: validate, simulate, replay and play specs."""
from __future__ import annotations

import re
import sys

from .errors import Collector, IllegalAction, RecordError, SpecError, TalonError

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


# The sub-commands, in the order `talon --help` lists them.
COMMANDS = ("validate", "simulate", "compare", "replay", "diff", "play", "list", "show", "new",
            "explain", "solve")


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = _plain_validate(argv)
    if args is None:
        # Only the parser of the command named is built (building all of them, and
        # importing the modules that describe `explain` and `solve`, costs a fresh
        # process more than the rest of its start); the help, a mistake or no command
        # at all get the whole parser.
        parser = build_parser(argv[0] if argv and argv[0] in COMMANDS else None)
        try:
            args = parser.parse_args(argv)
        except SystemExit as e:
            return int(e.code or 0) if e.code in (0, None) else EXIT_USAGE
        if not getattr(args, "func", None):
            parser.print_help()
            return EXIT_USAGE
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except SpecError as e:
        _err(str(e))
        return EXIT_INVALID
    except TalonError as e:
        if _output_error(e):            # a file that cannot be written: an I/O error
            _err(f"talon: {e}")
            return EXIT_USAGE
        _err(f"talon: {e}")
        return EXIT_INVALID


def _output_error(e) -> bool:
    from .records import OutputError
    return isinstance(e, OutputError)


_PLAIN_FLAGS = ("--json", "--no-cache")


def _plain_validate(argv):
    """`talon validate SPEC… [--json] [--no-cache]` written plainly (no other option,
    nothing else that starts with `-`): its arguments as argparse would read them,
    without loading argparse; anything else (None) goes through the parser."""
    if len(argv) < 2 or argv[0] != "validate":
        return None
    specs = [a for a in argv[1:] if a not in _PLAIN_FLAGS]
    if not specs or any(a.startswith("-") for a in specs):
        return None
    from types import SimpleNamespace
    return SimpleNamespace(version=None, command="validate", specs=specs, json="--json" in argv[1:],
                           no_cache="--no-cache" in argv[1:], func=cmd_validate)


def _clean(text) -> str:
    """User text (titles, seat names, actions, file lines) with terminal control
    characters shown as escapes, never sent to the terminal."""
    text = str(text)
    if text.isprintable() or text.replace("\n", "").replace("\t", "").isprintable():
        return text             # no control character (they are all unprintable)
    from .records import printable
    return printable(text)


def _say(text=""):
    print(_clean(text))


def _err(text=""):
    print(_clean(text), file=sys.stderr)


def _version() -> str:
    """The installed package's version (its metadata), else the source's."""
    try:
        from importlib.metadata import PackageNotFoundError, version
        try:
            return version("talon-cards")
        except PackageNotFoundError:
            pass
    except ImportError:
        pass
    from . import __version__
    return __version__


def _version_action():
    import argparse

    class _VersionAction(argparse.Action):
        """`--version`: the installed version, looked up only when asked for (reading the
        package metadata costs a fresh process more than the rest of its start)."""

        def __call__(self, parser, namespace, values, option_string=None):
            print(f"talon {_version()}")
            parser.exit()
    return _VersionAction


def build_parser(command: str | None = None):
    """The `talon` command's parser: every sub-command, or only the one named `command`
    (the same parser for that command: its help, usage and errors are the same)."""
    import argparse
    p = argparse.ArgumentParser(prog="talon", description="Rules-as-data engine for trick-taking card games.")
    p.add_argument("--version", action=_version_action(), nargs=0, help="show the version and exit")
    full = p.add_subparsers(dest="command", metavar="COMMAND")

    class _Only:
        """The sub-parsers' action, adding only the parser of the command asked for."""

        def add_parser(self, name, **kw):
            return full.add_parser(name, **kw) if command in (None, name) else _Skipped()
    sub = _Only()

    v = sub.add_parser("validate", help="check spec files and report every problem")
    v.add_argument("specs", nargs="+", metavar="SPEC", help="a spec name (as in specs/) or a path")
    v.add_argument("--json", action="store_true", help="print the diagnostics as JSON")
    v.add_argument("--no-cache", action="store_true",
                   help="read, check and replay everything anew: neither use nor fill the user's cache")
    v.set_defaults(func=cmd_validate)

    s = sub.add_parser("simulate", help="play many deals (random, heuristic or PIMC players) and summarise them")
    s.add_argument("spec", metavar="SPEC")
    _run_options(s)
    s.add_argument("--records", metavar="FILE",
                   help="write every deal (with --games: every game) as a hand record (JSON Lines, or YAML for .yaml)")
    s.set_defaults(func=cmd_simulate)

    c = sub.add_parser("compare", help="play the same deals under two specs and compare them")
    c.add_argument("base", metavar="BASE")
    c.add_argument("variant", metavar="VARIANT")
    _run_options(c)
    c.add_argument("--show", type=int, default=None, metavar="N",
                   help="list the N deals whose results differ most between the two specs")
    c.add_argument("--records", metavar="DIR",
                   help="with --show: write those deals as hand records in DIR, one per deal and spec")
    c.set_defaults(func=cmd_compare)

    r = sub.add_parser("replay", help="check a hand record against its spec and print the result")
    r.add_argument("record", metavar="RECORD")
    r.add_argument("--spec", help="replay against this spec instead of the record's own")
    r.add_argument("--each", action="store_true",
                   help="the file holds many records (JSON Lines, as `simulate --records` writes): replay each")
    r.add_argument("--json", action="store_true")
    r.set_defaults(func=cmd_replay)

    df = sub.add_parser("diff", help="what a variant changes in its base, rule by rule")
    df.add_argument("base", metavar="BASE")
    df.add_argument("variant", metavar="VARIANT")
    df.add_argument("--json", action="store_true")
    df.set_defaults(func=cmd_diff)

    pl = sub.add_parser("play", help="play one seat in the terminal against random, heuristic or PIMC players")
    pl.add_argument("spec", metavar="SPEC", nargs="?")
    pl.add_argument("--seats", type=int, default=None)
    pl.add_argument("--seat", default=None, help="the seat you play (default: the first, A)")
    pl.add_argument("--seed", type=int, default=None)
    pl.add_argument("--deals", type=int, default=0, help="stop after this many deals (default: until the game ends)")
    pl.add_argument("--record", metavar="FILE", help="write the game as a hand record as it goes")
    pl.add_argument("--resume", metavar="FILE", help="continue the game recorded in FILE")
    _agent_options(pl, "the other seats")
    pl.set_defaults(func=cmd_play)

    ls = sub.add_parser("list", help="the bundled specs: the games, each with its variants")
    ls.add_argument("--json", action="store_true")
    ls.set_defaults(func=cmd_list)

    sh = sub.add_parser("show", help="print a spec's rule file and its tables file")
    sh.add_argument("spec", metavar="SPEC")
    only = sh.add_mutually_exclusive_group()
    only.add_argument("--rules", action="store_true", help="only the rule file (.talon), as it is")
    only.add_argument("--tables", action="store_true", help="only the tables file (.yaml), as it is")
    sh.set_defaults(func=cmd_show)

    nw = sub.add_parser("new", help="write the skeleton of a variant (a house rule) of a spec")
    nw.add_argument("variant", metavar="VARIANT", help="the variant's name (lowercase letters, digits, hyphens)")
    nw.add_argument("--from", dest="base", metavar="BASE", required=True, help="the spec it extends")
    nw.add_argument("--out", metavar="FILE", help="where to write it (default: VARIANT.talon here); never overwritten")
    nw.add_argument("--title", help="its title (default: the base's title, with house rules)")
    nw.set_defaults(func=cmd_new)

    if command in (None, "explain"):
        from . import explain as explain_cmd      # talon explain: the rulebook from the spec
        explain_cmd.add_parser(sub)
    if command in (None, "solve"):
        from . import solve_cmd                   # talon solve: a record's play, every hand open
        solve_cmd.add_parser(sub)
    return p


class _Skipped:
    """Stands for the parser of a command not being built: takes its arguments."""

    def __getattr__(self, name):
        return lambda *a, **kw: self


# ------------------------------------------------------------------ validate
def _unreadable(ref: str):
    """(message, hint) when the spec named on the command line cannot be read at all
    (a usage or I/O error: exit status 2), else None."""
    from .errors import did_you_mean
    from .spec import bundled_names, resolve
    path = resolve(ref)
    try:
        if not path.exists():
            hint = did_you_mean(path.stem, bundled_names()) or ("bundled specs: " + ", ".join(bundled_names()))
            if str(path) != ref and "/" not in ref and not ref.endswith(".talon"):
                return f"no spec named `{ref}`: it is neither a file nor a bundled spec", hint
            return f"no such spec file: `{ref}`", hint
        if path.is_dir():
            return f"`{path}` is a folder, not a spec file", "name a .talon file inside it"
        if not path.is_file():
            return f"`{path}` is not a regular file", ""
        with open(path, "rb") as fh:
            fh.read(1)
    except OSError as e:
        return f"cannot read `{path}`: {e.strerror or e}", ""
    return None


# patterns (compiled by `re` when first used)
_TABLE_KEYS = r"(?m)^(suits|ranks|points|values|ladder)\s*:"
_RECORD_KEYS = (r"(?m)^(?:-\s+)?(spec|seats|dealer|hands|actions|deals)\s*:"
                r"|\"(spec|seats|hands|actions)\"\s*:")


def _not_a_spec(ref: str):
    """(message, hint) when the file named is a tables file or a hand record rather than
    a spec (a usage mistake: exit status 2), else None."""
    from .spec import resolve
    path = resolve(ref)
    if path.suffix.lower() not in (".yaml", ".yml", ".json", ".jsonl"):
        return None
    try:
        with open(path, "rb") as fh:
            head = fh.read(65536).decode("utf-8", "replace")
    except OSError:
        return None
    if re.search(_TABLE_KEYS, head):
        return (f"`{ref}` is a tables file (YAML), not a spec",
                f"a spec uses it on its `tables \"{path.name}\"` line: validate that spec (a .talon file)")
    if re.search(_RECORD_KEYS, head):
        many = sum(1 for ln in head.splitlines() if ln.lstrip().startswith("{")) > 1 or "\n---" in head[4:]
        return (f"`{ref}` is a hand record, not a spec",
                f"check it with `talon replay {'--each ' if many else ''}{ref}`")
    return None


def validate_one(ref: str):
    """Check one spec: (Collector, game or None, exit status). Never raises."""
    from .errors import Location
    from .spec import check
    out = Collector()
    problem = _unreadable(ref) or _not_a_spec(ref)
    if problem:
        out.error(Location(ref), *problem)
        return out, None, EXIT_USAGE
    game = None
    try:
        game = check(ref, out)
    except RecursionError:
        out.error(Location(ref), "the spec is nested too deeply to check")
    except MemoryError:
        out.error(Location(ref), "the spec is too large to check")
    except TalonError as e:
        out.error(Location(ref), str(e))
    except Exception as e:          # a bug in Talon: still one clear line, no traceback
        out.error(Location(ref), f"internal error while checking the spec ({type(e).__name__}: {e})",
                  "this is a bug in Talon; please report it with the spec")
    examples = 0
    if game is not None and not out.errors:
        examples = _check_examples(game, out)
    if out.errors:
        game = None
    out.examples_checked = examples
    return out, game, EXIT_OK if not out.errors else EXIT_INVALID


def _check_examples(game, out: Collector) -> int:
    """Replay the hand records of the spec's `examples` folder against their expectations;
    return how many records were replayed."""
    from pathlib import Path

    from .errors import Location
    folder = getattr(game, "examples", "")
    if not folder:
        return 0
    if not Path(folder).is_dir():
        out.warn(Location(game.path), f"the examples folder `{folder}` does not exist")
        return 0
    key = _examples_key(game, folder, out)
    if key is not None:
        from . import usercache
        replayed = usercache.load(_EXAMPLES, key)
        if isinstance(replayed, int):
            return replayed
    from .records import check_examples
    try:
        results = check_examples(game, folder)
    except Exception as e:          # a bug, not the user's: still no traceback
        out.error(Location(folder), f"internal error while replaying the examples ({type(e).__name__}: {e})")
        return 0
    if key is not None and not any(problems for _, problems in results):
        from . import usercache
        usercache.keep(_EXAMPLES, key, len(results))
    for path, problems in results:
        for problem in problems:
            if problem.startswith(str(path)):       # unreadable or malformed: says where itself
                out.error(Location(path), f"this example cannot be replayed: {problem}")
            else:
                out.error(Location(path), f"this example does not replay as its `expect:` says: {problem}")
    return len(results)


# Examples that all replayed as their `expect:` says are remembered in the user's cache
# folder (``usercache``), keyed by everything the replay depends on: the text and path of
# every file the game was built from (the spec, its bases, their tables), the examples
# folder, the name and content of every record file in it, and Talon's own code (every
# module's path, size and time of change, the interpreter, PyYAML). A validate of an
# unchanged spec by unchanged code then reports the same count without replaying; any
# change replays them all, and a problem is never remembered.
_EXAMPLES = "examples-passed"
_MAX_EXAMPLES_BYTES = 8_000_000     # more than that is replayed, not hashed


def _examples_key(game, folder: str, out: Collector) -> str | None:
    import os
    import stat
    from pathlib import Path

    from . import usercache
    if usercache.folder(_EXAMPLES) is None:
        return None
    here = Path(folder)
    parts = [str(folder), getattr(game, "path", ""), usercache.code_mark()]
    for path, text in sorted(out.sources.items()):
        parts += [path, text]
    total = 0
    try:
        files = sorted(here.glob("*.y*ml")) + sorted(here.glob("*.json"))
        for f in files:                 # what the replay would refuse, it reports
            fd = os.open(f, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
            with os.fdopen(fd, "rb") as fh:     # a FIFO is never waited on
                st = os.fstat(fd)
                total += st.st_size
                if not stat.S_ISREG(st.st_mode) or total > _MAX_EXAMPLES_BYTES:
                    return None
                parts += [str(f), fh.read(_MAX_EXAMPLES_BYTES + 1)]
    except OSError:
        return None
    return usercache.digest(*parts)


def cmd_validate(args) -> int:
    """Check each spec; print every diagnostic (`path:line:col: error: …`, the line, a
    caret, a hint). Exit 0 when all are valid, 1 when one is invalid, 2 when one cannot
    be read (missing file, folder, unreadable). With --no-cache nothing is taken from
    (or kept in) the user's cache: every spec and table is read and checked, and every
    example replayed."""
    from . import usercache
    off = usercache.OFF
    usercache.OFF = off or bool(getattr(args, "no_cache", False))
    try:
        return _validate_all(args)
    finally:
        usercache.OFF = off             # for this command only (main may be called again)


def _validate_all(args) -> int:
    results = []
    worst = EXIT_OK
    several = len(args.specs) > 1
    for ref in args.specs:
        out, game, status = validate_one(ref)
        errors = [d for d in out.diagnostics if d.severity == "error"]
        warnings = [d for d in out.diagnostics if d.severity != "error"]
        results.append({"spec": ref, "valid": status == EXIT_OK,
                        "status": {EXIT_OK: "valid", EXIT_INVALID: "invalid", EXIT_USAGE: "unreadable"}[status],
                        "name": game.name if game else None, "title": game.title if game else None,
                        "errors": len(errors), "warnings": len(warnings),
                        "examples_checked": getattr(out, "examples_checked", 0) if game else 0,
                        "diagnostics": [d.to_json() for d in errors + warnings]})
        worst = max(worst, status)
        if args.json:
            continue
        # Errors first, then warnings, each group in file order.
        for d in errors + warnings:
            _err(d.render())
        if status == EXIT_OK:
            ex = getattr(out, "examples_checked", 0)
            _say(f"{ref}: valid ({game.title})"
                 + (f", {_count(ex, 'example record')} replayed as expected" if ex else "")
                 + (f", {_count(len(warnings), 'warning')}" if warnings else ""))
        elif several or len(out.diagnostics) > 1:
            _err(f"{ref}: {_count(len(errors), 'error')}" +
                 (f", {_count(len(warnings), 'warning')}" if warnings else ""))
    if args.json:
        import json
        print(json.dumps(results if several else results[0], indent=2, ensure_ascii=False))
    return worst


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


# ------------------------------------------------------------------ simulate
def _run_options(p):
    """Options shared by `simulate` and `compare`."""
    p.add_argument("--hands", type=int, default=None, help="independent deals to play (default 1000)")
    p.add_argument("--games", type=int, default=None, metavar="N",
                   help="play N whole games (matches) instead of independent deals")
    p.add_argument("--max-deals", type=int, default=None, metavar="N",
                   help="with --games: cut a game off after N deals (default 1000)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--seats", type=int, default=None, help="number of seats (default: the spec's default seat count)")
    p.add_argument("--workers", type=int, default=1, help="local processes to use (default 1)")
    p.add_argument("--backend", choices=("local", "dask"), default="local",
                   help="where to run: local processes, or a Dask distributed cluster (needs talon[dask])")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="the Dask scheduler's address (tcp://host:8786); without it dask starts a local cluster")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.add_argument("--plot", metavar="FILE.png", help="draw the main distributions (needs talon[plot])")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    _agent_options(p)


DEFAULT_SAMPLES = 16        # the PIMC player's deals sampled per decision
DEFAULT_NODES = 20000       # and positions its solver may search per decision
DEFAULT_AUCTION_TRIES = 1   # and deals drawn for each sample kept (the best fit to the bids)


def _agent_options(p, who="every seat"):
    """--agents and the PIMC player's budget: shared by simulate, compare and play."""
    p.add_argument("--agents", metavar="NAME[,NAME…]", default=None,
                   help=f"who plays {who}: random, heuristic or pimc; one name for all, or a comma "
                        f"list with one name per seat (default: random)")
    p.add_argument("--samples", type=int, default=None, metavar="N",
                   help=f"pimc: deals sampled per decision (default {DEFAULT_SAMPLES})")
    p.add_argument("--nodes", type=int, default=None, metavar="N",
                   help=f"pimc: positions searched per decision (default {DEFAULT_NODES}); the same "
                        f"result on any machine")
    p.add_argument("--time", type=float, default=None, metavar="SECONDS",
                   help="pimc: also stop a decision after this many seconds (then runs depend on the "
                        "machine's speed)")
    p.add_argument("--auction-tries", type=int, default=None, metavar="N",
                   help=f"pimc: deals drawn for each one kept, the one whose hands best fit the bids "
                        f"made (default {DEFAULT_AUCTION_TRIES}; 1: bids not used)")


def _agents_of(args, seats: int, human: int | None = None, names=None):
    """(per-seat agent descriptions or None for random play, a usage problem or None)."""
    from .arena import agent_texts, parse_agents
    if args.samples is not None and args.samples < 1:
        return None, "--samples must be at least 1"
    if args.nodes is not None and args.nodes < 1:
        return None, "--nodes must be at least 1"
    if args.time is not None and not args.time > 0:
        return None, "--time must be a number of seconds above 0"
    if args.auction_tries is not None and args.auction_tries < 1:
        return None, "--auction-tries must be at least 1"
    text = args.agents if args.agents is not None else "random"
    try:
        kinds = parse_agents(text, seats, human, names)
    except ValueError as e:
        return None, str(e)
    if "pimc" not in kinds and (args.samples is not None or args.nodes is not None or args.time is not None
                                or args.auction_tries is not None):
        return None, ("--samples, --nodes, --time and --auction-tries set the PIMC player's effort: "
                      "they go with --agents pimc")
    samples = args.samples if args.samples is not None else DEFAULT_SAMPLES
    nodes = args.nodes if args.nodes is not None else DEFAULT_NODES
    tries = args.auction_tries if args.auction_tries is not None else DEFAULT_AUCTION_TRIES
    return agent_texts(kinds, samples, args.time, nodes, tries), None


def _usage(msg: str) -> int:
    _err(f"talon: {msg}")
    return EXIT_USAGE


def _check_run(args, games) -> str | None:
    """A usage problem with the run options, or None."""
    if args.games is not None and args.hands is not None:
        return "give --hands (independent deals) or --games (whole games), not both"
    if args.games is not None and args.games < 1:
        return "--games must be at least 1"
    if args.hands is not None and args.hands < 1:
        return "--hands must be at least 1"
    if args.max_deals is not None and args.games is None:
        return "--max-deals goes with --games"
    if args.max_deals is not None and args.max_deals < 1:
        return "--max-deals must be at least 1"
    if args.workers < 1:
        return "--workers must be at least 1"
    if args.workers > MAX_WORKERS:
        return f"--workers must be at most {MAX_WORKERS} (more processes than that only slow the run down)"
    if args.scheduler and args.backend != "dask":
        return "--scheduler goes with --backend dask"
    if args.backend == "dask":
        import importlib.util
        if importlib.util.find_spec("dask") is None or importlib.util.find_spec("distributed") is None:
            return "the dask backend needs dask and distributed: pip install 'talon[dask]'"
    seats = _seats(args, games[0])
    for g in games:
        if seats not in g.seat_counts:
            return f"{g.name} is played by {' or '.join(map(str, g.seat_counts))} seats, not {seats}"
    return None


MAX_WORKERS = 64


def _seats(args, game) -> int:
    """--seats as given (0 included, to be refused), else the spec's default seat count."""
    from .simulate import default_seats
    return args.seats if args.seats is not None else default_seats(game)


def _spec_usage(*refs) -> int | None:
    """Exit status 2 with one line when a spec named on the command line cannot be read
    (`no spec named X`, with a did-you-mean), the same in every command; else None."""
    for ref in refs:
        problem = _unreadable(ref)
        if problem:
            msg, hint = problem
            return _usage(msg + (f" ({hint})" if hint else ""))
    return None


def _plot_usage(args, protect=()) -> int | None:
    """Check --plot before any deal is played: matplotlib is there, the file's extension
    is a format it writes, and the path can be written."""
    if not args.plot:
        return None
    from .simulate import plot_problem
    problem = plot_problem(args.plot, protect)
    return _usage(problem) if problem else None


def _run_kwargs(args) -> dict:
    from .simulate import DEFAULT_MAX_DEALS
    return dict(games=args.games, workers=args.workers, backend=args.backend, scheduler=args.scheduler,
                max_deals=args.max_deals or DEFAULT_MAX_DEALS,
                progress=False if args.no_progress or args.json else None)


def _time_note(args):
    if args.time is not None:
        _err("talon: note: with --time a PIMC decision stops after so many seconds, so the results depend "
             "on the machine's speed and load; --nodes alone gives the same results on any machine")


def _players_line(agents, names=None) -> str | None:
    """Who plays, in words (`heuristic play`, `A pimc, B heuristic, C heuristic`), or
    None for random play."""
    if agents is None:
        return None
    kinds = [None if t is None else t.partition(":")[0] for t in agents]
    names = names or "ABCDEFGH"
    if len(set(k for k in kinds if k)) == 1:
        who = next(k for k in kinds if k) + " play"
    else:
        who = ", ".join(f"{n} {k}" for n, k in zip(names, kinds) if k)
    pimc = next((t for t in agents if t and t.startswith("pimc:")), None)
    if pimc:
        opts = dict(o.split("=") for o in pimc.partition(":")[2].split(","))
        budget = [f"{opts['samples']} samples", f"{opts['nodes']} nodes"]
        if opts.get("time", "none") != "none":
            budget.append(f"{opts['time']} s")
        who += f" (pimc: {', '.join(budget)} a decision)"
    return who


def cmd_simulate(args) -> int:
    import json
    from .records import AtomicWriter, OutputError, dump_yaml, record_spec_ref, spec_files
    from .simulate import plot, render_stats, simulate
    from .spec import load
    bad = _spec_usage(args.spec)
    if bad:
        return bad
    game = load(args.spec)
    problem = _check_run(args, [game])
    if problem:
        return _usage(problem)
    protect = spec_files(game)
    bad = _plot_usage(args, protect)
    if bad:
        return bad
    seats = _seats(args, game)
    agents, problem = _agents_of(args, seats)
    if problem:
        return _usage(problem)
    _time_note(args)
    hands = args.hands or 1000
    sink, out = None, None
    if args.records:
        # Written to a temporary file beside the target and renamed over it only when the
        # run succeeds: a failed or interrupted run leaves the previous file as it was.
        out = AtomicWriter(args.records, protect)
        ref = record_spec_ref(args.spec, game, args.records)
        if ref.startswith(".."):
            _err(f"talon: note: the records name their spec `{ref}`, outside their folder; "
                 f"replay them with --spec {args.spec}")
        yaml_out = args.records.endswith((".yaml", ".yml"))

        def sink(rec):
            rec["spec"] = ref
            out.write("---\n" + dump_yaml(rec) if yaml_out else json.dumps(rec, separators=(",", ":")) + "\n")
    try:
        stats = simulate(game, hands, args.seed, seats, sink, spec_ref=args.spec, agents=agents,
                         **_run_kwargs(args))
        if out:
            out.commit()
    except OutputError as e:
        out.abort()
        return _usage(str(e))
    except BaseException:
        if out:
            out.abort()
        raise
    data = stats.to_json()
    data["seed"] = args.seed
    if agents is not None:
        data["players"] = _players_line(agents)
        data["agents"] = list(agents)
    if args.plot:
        plot(args.plot, [(data["spec"], data)], protect)
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        _say(render_stats(data))
        n = stats.deals
        rate = n / max(stats.seconds, 1e-9)
        _err(f"\n{n} deals in {stats.seconds:.2f}s ("
             + (f"{rate:,.0f} deals/s" if rate >= 10 or not n else f"{stats.seconds / n:.2f} s a deal")
             + f"{f', {args.workers} workers' if args.workers > 1 else ''})")
    return EXIT_OK


def cmd_compare(args) -> int:
    import json
    from .records import spec_files
    from .simulate import compare, compare_json, plot, render_compare
    from .spec import load
    bad = _spec_usage(args.base, args.variant)
    if bad:
        return bad
    base, variant = load(args.base), load(args.variant)
    problem = _check_run(args, [base, variant]) or _deck_problem(base, variant, _seats(args, base))
    if problem:
        return _usage(problem)
    protect = spec_files(base) | spec_files(variant)
    bad = _plot_usage(args, protect)
    if bad:
        return bad
    seats = _seats(args, base)
    agents, problem = _agents_of(args, seats)
    problem = problem or _show_problem(args, protect)
    if problem:
        return _usage(problem)
    _time_note(args)
    res = compare(base, variant, args.hands or 1000, args.seed, seats, base_ref=args.base,
                  variant_ref=args.variant, agents=agents, show=args.show or 0, **_run_kwargs(args))
    sa, sb, paired = res[:3]
    data = compare_json(sa, sb, paired)
    data["seed"] = data["base"]["seed"] = data["variant"]["seed"] = args.seed
    if agents is not None:
        data["players"] = _players_line(agents)
        data["agents"] = list(agents)
    if args.show:
        data["differ_most"] = _showcase(args, base, variant, res[3], protect)
        _show_note(args, data["differ_most"])
    if args.plot:
        plot(args.plot, [(f"{data['base']['spec']} (base)", data["base"]),
                         (f"{data['variant']['spec']} (variant)", data["variant"])], protect)
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        _say(render_compare(data))
        if args.show:
            _say("")
            _say(render_showcase(data["differ_most"], args.records, data.get("better")))
        _err(f"\n2 x {sa.deals} deals in {sa.seconds:.2f}s")
    return EXIT_OK


MAX_SHOW = 1000


def _show_note(args, items: list):
    if args.show and len(items) < args.show:
        _err(f"talon: note: only {len(items)} of the deals played differ between the two specs")


def _show_problem(args, protect) -> str | None:
    if args.show is None:
        return "--records goes with --show N (the deals to write)" if args.records else None
    if args.show < 1:
        return "--show must be at least 1"
    if args.show > MAX_SHOW:
        return f"--show must be at most {MAX_SHOW}"
    if args.games is not None:
        return "--show lists single deals: it goes with --hands (independent deals), not --games"
    if args.records:
        import os
        from pathlib import Path
        d = Path(args.records)
        if d.exists() and not d.is_dir():
            return f"--records {args.records}: not a folder (compare --show writes one file per deal there)"
        if not d.exists():
            try:
                d.mkdir(parents=True)
            except OSError as e:
                return f"--records {args.records}: cannot make the folder: {e.strerror or e}"
        if not os.access(d, os.W_OK):
            return f"--records {args.records}: the folder cannot be written"
    return None


def _showcase(args, base, variant, top, protect) -> list:
    """The deals that differ most, as plain data (each with its two records), written
    to --records DIR when asked."""
    from pathlib import Path

    from .records import deal_summary, dump_yaml, record_spec_ref, write_atomic
    out = []
    for diff, i, rec_a, rec_b in top:
        item = {"deal": i + 1, "difference": diff}
        for side, rec, game, ref in (("base", rec_a, base, args.base), ("variant", rec_b, variant, args.variant)):
            rec = dict(rec)
            path = None
            if args.records:
                path = str(Path(args.records) / f"deal-{i + 1}-{side}.yaml")
                rec["spec"] = record_spec_ref(ref, game, path)
            else:
                rec["spec"] = _plain_ref(ref, game)
            rec = {k: rec[k] for k in ("spec", "seats", *[k for k in rec if k not in ("spec", "seats")])}
            item[side] = {"summary": _replayed(rec, game), "record": rec}
            if path:
                write_atomic(path, dump_yaml(rec), protect=protect, sync=False)
                item[side]["file"] = path
        out.append(item)
    return out


def _plain_ref(ref: str, game) -> str:
    """A spec reference for a record printed rather than written: a bundled name as it
    is, a file by its absolute path."""
    import os
    from .records import _bundled_file
    from pathlib import Path
    if "/" not in ref and os.sep not in ref and not ref.endswith(".talon"):
        return ref
    if _bundled_file(Path(ref)):
        return Path(os.path.realpath(ref)).stem
    return os.path.abspath(getattr(game, "path", None) or ref)


def _replayed(rec: dict, game) -> dict:
    """The record replayed (as `talon replay` would): its deal's summary."""
    from .records import replay_record
    rep = replay_record(rec, game=game)
    return rep.to_json()["deals"][0]


def render_showcase(items: list, folder, better: str | None = None) -> str:
    from .report import deal_headline, table
    seats = list(items[0]["base"]["record"]["seats"]) if items else []
    if not items:
        return "no deal's result differs between the two specs"
    out = [f"the {len(items)} deal{'s' if len(items) != 1 else ''} whose results differ most "
           f"(the sum over the seats of the difference in score change):"]
    rows = []
    for it in items:
        a, b = it["base"]["summary"], it["variant"]["summary"]
        for k, (side, x) in enumerate((("base", a), ("variant", b))):
            ch = x.get("deltas") or {}
            rows.append([it["deal"] if k == 0 else "", it["difference"] if k == 0 else "", side,
                         deal_headline(x), "  ".join(f"{n} {ch.get(n, 0):+d}" for n in seats)])
    out.append(table(["deal", "difference", "spec", "result",
                      f"score changes ({better})" if better else "score changes"], rows))
    if folder:
        out.append(f"records written to {folder}/deal-N-base.yaml and deal-N-variant.yaml; "
                   f"replay one with `talon replay {folder}/deal-{items[0]['deal']}-base.yaml`")
    else:
        out.append("write these deals as hand records with --records DIR (or see them with --json)")
    return "\n".join(out)


def _deck_problem(base, variant, seats: int) -> str | None:
    """`compare` plays the same deals under both specs: they must deal the same deck the
    same way (a few deals are dealt under both from the same draws to check)."""
    from .simulate import deal_rng
    a, b = list(base.card_names), list(variant.card_names)
    why = ""
    if a != b:
        why = f"{len(a)} and {len(b)} cards" if len(a) != len(b) else "not the same cards"
    else:
        for i in range(4):
            dealt = []
            for g in (base, variant):
                rng = deal_rng(1, i)
                d = g.new_deal(seats, rng.randrange(seats))
                d.deal_random(rng)
                dealt.append((list(d.dealt), getattr(d, "talon_dealt", d.talon)))
            if dealt[0] != dealt[1]:
                why = "the same cards dealt differently"
                break
    if not why:
        return None
    return (f"{base.name} and {variant.name} deal different hands ({why}): compare plays the same deals "
            f"under both specs, so they need the same deck, dealt the same way")


def __getattr__(name):
    if name == "table":                 # kept importable from here, loaded when asked for
        from .report import table
        return table
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def cmd_replay_each(args) -> int:
    """`talon replay --each FILE`: replay every record of a many-record file (JSON Lines
    are read a line at a time); report the records that do not replay, each on its own
    line, and go on with the others; a summary at the end."""
    import json
    from pathlib import Path

    from .records import is_json_lines, iter_json_lines, read_record_file, record_spec, replay_record
    from .spec import load
    path = args.record
    base_dir = str(Path(path).parent)
    games, failed = {}, []
    count = finished = 0

    def records():
        if is_json_lines(path):
            yield from iter_json_lines(path)
            return
        for rec in read_record_file(path):
            yield None, rec

    def game_for(rec, where):
        """The game a record is replayed against; a spec that does not load is reported
        for each record naming it (and loaded once)."""
        if args.spec:
            ref = args.spec
        elif isinstance(rec, dict) and rec.get("spec") is not None:
            ref = record_spec(rec["spec"], base_dir, where)
        else:
            return None                     # replay_record says what is missing
        if ref not in games:
            try:
                games[ref] = load(ref)
            except SpecError as e:
                first = e.diagnostics[0].render().splitlines()[0] if e.diagnostics else str(e)
                more = len(e.diagnostics) - 1
                games[ref] = RecordError(f"the spec `{ref}` does not load: {first}"
                                         + (f" (and {more} more; see `talon validate {ref}`)" if more > 0 else ""))
            except RecursionError:
                games[ref] = RecordError(f"the spec `{ref}` is nested too deeply to load")
        game = games[ref]
        if isinstance(game, Exception):
            raise RecordError(f"{where}: {game}")
        return game

    try:
        for k, (lineno, rec) in enumerate(records(), 1):
            count += 1
            where = f"{path}:{lineno}" if lineno else f"{path}, record {k}"
            try:
                if isinstance(rec, Exception):
                    raise rec
                if not isinstance(rec, dict):
                    raise RecordError(f"{where}: a hand record is a mapping with spec, seats, hands and actions")
                game = game_for(rec, where)
                rep = replay_record(rec, base_dir=base_dir, where=where, spec_override=args.spec, game=game)
                finished += rep.complete
            except IllegalAction as e:
                failed.append({"record": k, "line": lineno, "error": f"{getattr(e, 'where', where)}: {e}",
                               **e.to_json()})
            except TalonError as e:
                failed.append({"record": k, "line": lineno, "error": str(e)})
            except RecursionError:
                failed.append({"record": k, "line": lineno, "error": f"{where}: the record is nested too deeply"})
            except Exception as e:          # a bug in Talon: reported for this record, the batch goes on
                failed.append({"record": k, "line": lineno,
                               "error": f"{where}: internal error while replaying ({type(e).__name__}: {e}); "
                                        f"this is a bug in Talon"})
    except RecordError as e:                # the file itself cannot be read
        if count == 0:
            if args.json:
                print(json.dumps({"error": str(e), "records": 0, "complete": 0, "failed": []}, indent=2))
            else:
                _err(f"talon: {e}")
            return EXIT_INVALID
        failed.append({"record": None, "line": None, "error": str(e)})
    if args.json:
        print(json.dumps({"records": count, "complete": finished, "failed": failed}, indent=2))
    else:
        for f in failed[:20]:
            _err(f["error"])
        if len(failed) > 20:
            _err(f"… and {len(failed) - 20} more")
        bad = sum(1 for f in failed if f["record"] is not None)
        _say(f"{path}: {count} records, {count - bad} replay"
             + (f", {bad} do not" if bad else " (every action legal)")
             + ("; the file could not be read to the end" if bad != len(failed) else ""))
    return EXIT_INVALID if failed else EXIT_OK


# ------------------------------------------------------------------ replay
def _not_a_record(path: str) -> int | None:
    if path.endswith(".talon"):
        return _usage(f"{path} is a spec (the rules of a game), not a hand record: check it with "
                      f"`talon validate {path}`, or play random deals with `talon simulate {path}`")
    return None


def cmd_replay(args) -> int:
    import json
    bad = _not_a_record(args.record) or (_spec_usage(args.spec) if args.spec else None)
    if bad:
        return bad
    if getattr(args, "each", False):
        return cmd_replay_each(args)
    from pathlib import Path

    from .records import check_expectations, read_record_file, replay_record
    try:
        recs = read_record_file(args.record)
        if len(recs) != 1:
            raise RecordError(f"{args.record}: holds {len(recs)} records; replay one deal or one game at a time "
                              "(one record a file)")
        rec = recs[0]
        if "spec" not in rec and {"suits", "ranks"} & set(map(str, rec)):
            return _usage(f"{args.record} is a tables file (suits, ranks, values), not a hand record: a spec "
                          f"names it on its `tables` line; check the spec with `talon validate`")
        rep = replay_record(rec, base_dir=str(Path(args.record).parent), where=args.record,
                            spec_override=args.spec)
    except IllegalAction as e:
        # in a game record the index counts the actions of the deal that holds it
        in_game = isinstance(rec, dict) and "deals" in rec
        if args.json:
            deal = {"deal": getattr(e, "deal_index", 1)} if in_game else {}
            print(json.dumps({"error": "illegal action", **deal, **e.to_json()}, indent=2))
        else:
            _err(f"{getattr(e, 'where', args.record)}: {e}")
        return EXIT_INVALID
    except RecordError as e:
        if args.json:
            print(json.dumps({"error": str(e)}, indent=2))
        else:
            _err(f"talon: {e}")
        return EXIT_INVALID
    data = rep.to_json()
    # `expect:` describes the deal under the record's own spec: replayed under another
    # (`--spec`, to see what a house rule changes) it is not checked, and says so
    own = Path(str(rec.get("spec", ""))).name.removesuffix(".talon")
    elsewhere = bool(args.spec) and bool(rec.get("expect")) and rep.game.name != own
    problems = check_expectations(rec, data) if data["complete"] and not elsewhere else []
    unchecked = not data["complete"] and bool(rec.get("expect")) and not elsewhere
    if problems:
        data["expectations_failed"] = problems
    if unchecked:
        data["expectations_unchecked"] = "the record is unfinished, so its `expect:` was not checked"
    if elsewhere:
        data["expectations_unchecked"] = (f"the record's `expect:` is for its own spec ({own}); replayed under "
                                          f"{rep.game.name} it was not checked")
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        _say(render_replay(rep, data))
        if problems:
            _err(f"{args.record}: the record's `expect` does not hold:")
            for p in problems:
                _err(f"  {p}")
        if unchecked:
            _err(f"{args.record}: the record is unfinished ({data['phase']}), so its `expect:` was not checked")
        if elsewhere:
            _err(f"{args.record}: {data['expectations_unchecked']}")
    return EXIT_INVALID if problems or unchecked else EXIT_OK


def render_replay(rep, d: dict) -> str:
    from .report import counts_points, deal_headline, deal_table
    out = []
    for dd in d["deals"]:
        out.append(f"deal {dd['deal_number']}, dealer {dd['dealer']}: " + deal_headline(dd))
        if dd["result"] == "annulled":
            continue
        if "deltas" in dd:
            out.append(deal_table(dd, rep.seats, counts_points(rep.game) and "points" in dd))
        out.append("")
    if d["complete"]:
        out.append("scores: " + ", ".join(f"{n} {v}" for n, v in d["scores"].items()))
        if d["game_over"]:
            out.append("game over; winner" + ("s: " if len(d["winners"]) > 1 else ": ") + ", ".join(d["winners"]))
        else:
            out.append("game not over")
    else:
        out.append(f"the deal is in progress ({d['phase']}); {d['turn']} to act")
        from .records import compress_numbers, higher_legal
        last = rep.deals[-1]
        legal = compress_numbers([last.action_to_string(a, last.turn, rep.seats).split(" ", 1)[1]
                                  for a in last.legal_actions()], higher_legal(last, rep.seats, last.turn))
        more = f", … ({len(legal) - 30} more)" if len(legal) > 30 else ""
        out.append("legal: " + ", ".join(legal[:30]) + more)
    return "\n".join(out)


# ------------------------------------------------------------------ diff
def cmd_diff(args) -> int:
    import json
    from .spec.diff import diff, render
    from .spec import load
    bad = _spec_usage(args.base, args.variant)
    if bad:
        return bad
    d = diff(load(args.base), load(args.variant))
    if args.json:
        print(json.dumps(d, indent=2))
    else:
        _say(render(d))
    return EXIT_OK


# ------------------------------------------------------------------ play
def cmd_play(args) -> int:
    from .terminal import play_terminal
    bad = _spec_usage(args.spec) if args.spec else None
    if bad:
        return bad
    return play_terminal(args)


# ------------------------------------------------------------------ list, show, new
def _head(path):
    """The header of a spec file (kind, name, title, extends, tables), or None."""
    from .language.read import parse
    from .spec import read_text
    out = Collector()
    text = read_text(path, out)
    if text is None:
        return None
    return parse(text, str(path), out)


def bundled_specs() -> list:
    """Every bundled spec: {name, title, kind, base (what a variant extends), game (the
    game at the root of its chain)}, games first, each followed by its variants."""
    from .resources import specs_dir
    from .spec import bundled_names
    heads = {}
    for name in bundled_names():
        sf = _head(specs_dir() / f"{name}.talon")
        heads[name] = {"name": name, "title": sf.title if sf else "", "kind": sf.kind if sf else "game",
                       "base": sf.extends if sf and sf.kind == "variant" else None}

    def root(name, seen=()):
        base = heads.get(name, {}).get("base")
        return name if not base or base not in heads or name in seen else root(base, seen + (name,))
    for h in heads.values():
        h["game"] = root(h["name"])
    games = sorted(n for n, h in heads.items() if h["game"] == n)
    out = []
    for gname in games:
        out.append(heads[gname])
        out += sorted((h for n, h in heads.items() if h["game"] == gname and n != gname), key=lambda h: h["name"])
    return out


def cmd_list(args) -> int:
    import json
    specs = bundled_specs()
    if args.json:
        print(json.dumps(specs, indent=2, ensure_ascii=False))
        return EXIT_OK
    width = max(len(h["name"]) for h in specs) + 2
    games = [h for h in specs if h["kind"] != "variant"]
    _say(f"{len(games)} games and {len(specs) - len(games)} variants are bundled "
         "(`talon show NAME` prints one, `talon play NAME` plays it):")
    for h in specs:
        if h["kind"] != "variant":
            _say("")
            _say(f"{h['name']:<{width + 2}}{h['title']}")
        else:
            _say(f"  {h['name']:<{width}}{h['title']} (variant of {h['base']})")
    return EXIT_OK


def _tables_path(spec_path, sf):
    from pathlib import Path
    return (Path(spec_path).parent / sf.tables) if sf and sf.tables else None


def cmd_show(args) -> int:
    """Print a spec's rule file and the tables file it names, as they are."""
    from .spec import resolve
    bad = _spec_usage(args.spec) or _not_a_spec_usage(args.spec)
    if bad:
        return bad
    path = resolve(args.spec)
    from .spec import read_text
    out = Collector()
    text = read_text(path, out)
    if text is None:
        return _usage(out.diagnostics[0].message if out.diagnostics else f"cannot read {path}")
    sf = _head(path)
    tpath = _tables_path(path, sf)
    ttext = None
    if tpath is not None:
        tout = Collector()
        ttext = read_text(tpath, tout, "table file")
        if ttext is None:
            _err(f"talon: {path.name} names the tables file `{sf.tables}`, which cannot be read"
                 + (f": {tout.diagnostics[0].message}" if tout.diagnostics else ""))
            return EXIT_INVALID
    if args.rules:
        sys.stdout.write(_clean(text))
        return EXIT_OK
    if args.tables:
        if ttext is None:
            return _usage(f"{path.name} names no tables file of its own"
                          + (f": it uses those of its base (`talon show {sf.extends} --tables`)"
                             if sf and sf.extends else ""))
        sys.stdout.write(_clean(ttext))
        return EXIT_OK
    _say(f"==> {path.name} <==")
    sys.stdout.write(_clean(text) if text.endswith("\n") else _clean(text) + "\n")
    if ttext is not None:
        _say("")
        _say(f"==> {tpath.name} <==")
        sys.stdout.write(_clean(ttext) if ttext.endswith("\n") else _clean(ttext) + "\n")
    elif sf and sf.kind == "variant":
        _say("")
        _say(f"({path.name} names no tables file of its own: it uses those of {sf.extends}; "
             f"see `talon show {sf.extends}`)")
    return EXIT_OK


def _not_a_spec_usage(ref: str):
    problem = _not_a_spec(ref)
    if problem:
        msg, hint = problem
        return _usage(msg + (f" ({hint})" if hint else ""))
    return None


_SPECNAME = r"[a-z0-9][a-z0-9-]*"


def cmd_new(args) -> int:
    """Write the skeleton of a variant: its header, and commented examples of each kind
    of edit, using the base's own rules and values (each example, uncommented, validates)."""
    import os
    from pathlib import Path

    from .records import output_problem
    from .resources import specs_dir
    from .spec import bundled_names, load, resolve
    name = args.variant
    if not re.fullmatch(_SPECNAME, name):
        hint = ""
        if name.endswith(".talon") or "/" in name:
            stem = Path(name).stem
            hint = (f" (give the name, and the file with --out: "
                    f"`talon new {stem.lower()} --from {args.base} --out {name}`)")
        return _usage(f"`{name}` is not a name for a variant: use lowercase letters, digits and hyphens{hint}")
    bad = _spec_usage(args.base) or _not_a_spec_usage(args.base)
    if bad:
        return bad
    base_path = resolve(args.base)
    bundled = os.path.realpath(base_path.parent) == os.path.realpath(specs_dir())
    base_name = base_path.stem
    if name == base_name or name in bundled_names():
        return _usage(f"`{name}` is the name of {'its base' if name == base_name else 'a bundled spec'}: "
                      f"a variant needs a name of its own")
    out_path = Path(args.out) if args.out else Path(f"{name}.talon")
    if not bundled:
        # `extends NAME` finds a bundled spec, or NAME.talon beside the variant.
        if not re.fullmatch(_SPECNAME, base_name) or base_name in bundled_names():
            return _usage(f"a variant extends a bundled spec, or a spec named like `my-game.talon` beside it; "
                          f"`{base_path}` cannot be named that way")
        if os.path.realpath(out_path.parent if str(out_path.parent) else ".") != os.path.realpath(base_path.parent):
            return _usage(f"a variant of {base_path} must be written beside it: "
                          f"--out {base_path.parent / (name + '.talon')}")
    if out_path.suffix != ".talon":
        return _usage(f"{out_path}: a spec file's name ends with .talon")
    if os.path.lexists(out_path):
        return _usage(f"{out_path} already exists: talon new never overwrites a file (choose another --out)")
    problem = output_problem(str(out_path))
    if problem:
        return _usage(problem)
    base = load(args.base)            # a base that does not load is reported (exit 1)
    title = args.title if args.title is not None else f"{base.title}, house rules"
    if '"' in title or "\n" in title or not title.strip():
        return _usage("the title is one line of text without double quotes")
    try:
        text = variant_skeleton(name, title, base, base_name, out_path.parent)
    except OSError as e:            # the folder cannot be written (the trial file beside the variant)
        return _usage(f"cannot write {out_path}: {e.strerror or e}")
    try:
        with open(out_path, "x", encoding="utf-8") as fh:
            fh.write(text)
    except FileExistsError:
        return _usage(f"{out_path} already exists: talon new never overwrites a file (choose another --out)")
    except OSError as e:
        return _usage(f"cannot write {out_path}: {e.strerror or e}")
    _say(f"wrote {out_path}: variant {name} of {base_name}, with commented examples of each edit")
    _say(f"next: uncomment and edit the lines you want, then `talon validate {out_path}` and "
         f"`talon diff {args.base} {out_path}`")
    return EXIT_OK


_ADD_BODIES = ("must play a card that beats the trick when able", "must play a trump when able",
               "must play a card of the suit led when able")


def variant_skeleton(name: str, title: str, base, base_name: str, folder) -> str:
    """The text of a new variant of `base`: the header, then one commented example of
    replace, add … after, remove and set values (or set points), each chosen among the
    base's rules and values so that, uncommented, the variant still validates."""
    from .language.tree import SECTIONS
    head = f'variant {name} "{title}"\nextends {base_name}\n'
    rules = base.rules
    trial = _Trial(head, folder)
    try:
        edits = []                  # (section, line)
        def kind(n):
            return rules[n].body.kind if rules[n].body is not None else ""
        # The rules a house rule most often touches first: how cards may be played, then
        # conditions on bids and melds, then the rest of the play, scoring, the others.
        prefer = {"follow": 0, "forbid": 0, "meld_announce": 1, "bid_rule": 1, "bid_condition": 1,
                  "meld_counts": 1, "concede": 2, "close": 2, "exchange_trump": 2}
        order = sorted(rules, key=lambda n: (prefer.get(kind(n), 3), rules[n].section != "play",
                                             SECTIONS.index(rules[n].section) if rules[n].section in SECTIONS
                                             else 99))
        # replace: a rule with its own body, to be edited
        for n in order:
            it = rules[n]
            line = f"replace {n} [house]: {it.text}"
            if it.text and trial.ok([(it.section, line)]):
                edits.append((it.section, line))
                replaced = n
                break
        else:
            replaced = None
        # add … after: a new rule after one of the base's
        used = set(rules)
        new_name = next(c for c in ("house-rule", "my-rule", "house-rule-2") if c not in used)
        done, after = False, None
        narrowing = [n for n in rules if kind(n) in ("follow", "forbid")]
        for n in list(reversed(narrowing)) + order:     # after the last rule on what may be played
            it = rules[n]
            if it.section != "play" or done:
                continue
            for body in _ADD_BODIES:
                line = f"add {new_name} [house] after {n}: {body}"
                if body != it.text and trial.ok(edits + [(it.section, line)]):
                    edits.append((it.section, line))
                    after = n
                    done = True
                    break
        # remove: a rule the game can do without
        keep = {"seats", "start_score", "rotation", "deal_rounds", "trick_winner", "game_end", "winners",
                "first_lead", "lead_card", "opener", "face_up", "face_up_trumps", "partners", "stock", "draw",
                "deal_end", "deal_points", "counter", "exact_bids", "numeric_bids", "ladder_bids", "pass_cards"}
        for n in order:
            if n in (replaced, after) or kind(n) in keep:
                continue
            line = f"remove {n}"
            if trial.ok(edits + [(rules[n].section, line)]):
                edits.append((rules[n].section, line))
                break
        # set values (or set points): a value of the base's tables, as it is now
        values = base.tables_data.get("values") or {}
        numbers = [(k, v) for k, v in values.items() if isinstance(v, int) and not isinstance(v, bool)]
        for key, v in sorted(numbers, key=lambda kv: -abs(kv[1])):
                line = f"set values {key} to {v}"
                if trial.ok(edits + [("tables", line)]):
                    edits.append(("tables", line))
                    break
        else:
            for c, pts in zip(base.card_names, base.card_points):
                if pts:
                    line = f"set points {c} to {pts}"
                    if trial.ok(edits + [("tables", line)]):
                        edits.append(("tables", line))
                    break
    finally:
        trial.close()
    lines = [f"# {name}: house rules for {base.title} (`{base_name}`).",
             "# A variant says only what differs from its base. Uncomment (remove the `# `) and edit",
             f"# the lines you want: each names a rule of {base_name} (`talon show {base_name}` prints them",
             "# all). `talon validate` checks this file; `talon diff` shows what it changes.",
             head.rstrip("\n")]
    what = {"replace": "replace a rule: the same name, a new body",
            "add": "add a rule: a new name, placed after (or before) one of the base's",
            "remove": "remove a rule",
            "set": "set a value of the tables: set values NAME to N, set points CARD to N"}
    by_section = {}
    for sec, line in edits:
        by_section.setdefault(sec, []).append(line)
    for sec in SECTIONS:
        if sec not in by_section:
            continue
        lines.append("")
        lines.append(f"# {sec}:")
        for line in by_section[sec]:
            lines.append(f"#   ({what[line.split()[0]]})")
            lines.append(f"#   {line}")
    return "\n".join(lines) + "\n"


class _Trial:
    """Validate candidate edits of a new variant: a temporary spec file beside where the
    variant goes (so that its `extends` finds the same base), removed at the end."""

    def __init__(self, head: str, folder):
        import os
        import tempfile
        self.head = head
        fd, self.path = tempfile.mkstemp(dir=str(folder) or ".", prefix=".talon-new-", suffix=".talon")
        os.close(fd)
        self.cache = {}

    def ok(self, edits) -> bool:
        from .language.tree import SECTIONS
        key = tuple(edits)
        if key in self.cache:
            return self.cache[key]
        text = self.head
        for sec in SECTIONS:
            lines = [line for s, line in edits if s == sec]
            if lines:
                text += f"\n{sec}:\n" + "".join(f"  {line}\n" for line in lines)
        with open(self.path, "w", encoding="utf-8") as fh:
            fh.write(text)
        out, game, status = validate_one(self.path)
        self.cache[key] = ok = status == EXIT_OK and game is not None
        return ok

    def close(self):
        import os
        try:
            os.unlink(self.path)
        except OSError:
            pass


if __name__ == "__main__":
    sys.exit(main())
