"""The `talon` command: validate, simulate, replay and play specs."""
from __future__ import annotations

import argparse
import json
import sys

from .errors import Collector, IllegalAction, RecordError, SpecError, TalonError

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


def main(argv=None) -> int:
    parser = build_parser()
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
        print(str(e), file=sys.stderr)
        return EXIT_INVALID
    except TalonError as e:
        print(f"talon: {e}", file=sys.stderr)
        return EXIT_INVALID


def build_parser():
    p = argparse.ArgumentParser(prog="talon", description="Rules-as-data engine for trick-taking card games.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    v = sub.add_parser("validate", help="check spec files and report every problem")
    v.add_argument("specs", nargs="+", metavar="SPEC", help="a spec name (as in specs/) or a path")
    v.add_argument("--json", action="store_true", help="print the diagnostics as JSON")
    v.set_defaults(func=cmd_validate)

    s = sub.add_parser("simulate", help="play random deals and summarise them")
    s.add_argument("spec", metavar="SPEC")
    _run_options(s)
    s.add_argument("--records", metavar="FILE",
                   help="write every deal (with --games: every game) as a hand record (JSON Lines, or YAML for .yaml)")
    s.set_defaults(func=cmd_simulate)

    c = sub.add_parser("compare", help="play the same deals under two specs and compare them")
    c.add_argument("base", metavar="BASE")
    c.add_argument("variant", metavar="VARIANT")
    _run_options(c)
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

    pl = sub.add_parser("play", help="play one seat in the terminal against random players")
    pl.add_argument("spec", metavar="SPEC", nargs="?")
    pl.add_argument("--seats", type=int, default=None)
    pl.add_argument("--seat", default=None, help="the seat you play (default: the first, A)")
    pl.add_argument("--seed", type=int, default=None)
    pl.add_argument("--deals", type=int, default=0, help="stop after this many deals (default: until the game ends)")
    pl.add_argument("--record", metavar="FILE", help="write the game as a hand record as it goes")
    pl.add_argument("--resume", metavar="FILE", help="continue the game recorded in FILE")
    pl.set_defaults(func=cmd_play)
    return p


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


def validate_one(ref: str):
    """Check one spec: (Collector, game or None, exit status). Never raises."""
    from .errors import Location
    from .spec import check
    out = Collector()
    problem = _unreadable(ref)
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
    from .records import check_examples
    folder = getattr(game, "examples", "")
    if not folder:
        return 0
    if not Path(folder).is_dir():
        out.warn(Location(game.path), f"the examples folder `{folder}` does not exist")
        return 0
    try:
        results = check_examples(game, folder)
    except Exception as e:          # a bug, not the user's: still no traceback
        out.error(Location(folder), f"internal error while replaying the examples ({type(e).__name__}: {e})")
        return 0
    for path, problems in results:
        for problem in problems:
            out.error(Location(path), f"this example does not replay as its `expect:` says: {problem}")
    return len(results)


def cmd_validate(args) -> int:
    """Check each spec; print every diagnostic (`path:line:col: error: …`, the line, a
    caret, a hint). Exit 0 when all are valid, 1 when one is invalid, 2 when one cannot
    be read (missing file, folder, unreadable)."""
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
            print(d.render(), file=sys.stderr)
        if status == EXIT_OK:
            ex = getattr(out, "examples_checked", 0)
            print(f"{ref}: valid ({game.title})" + (f", {_count(ex, 'example record')} replayed as expected" if ex else "")
                  + (f", {_count(len(warnings), 'warning')}" if warnings else ""))
        elif several or len(out.diagnostics) > 1:
            print(f"{ref}: {_count(len(errors), 'error')}" +
                  (f", {_count(len(warnings), 'warning')}" if warnings else ""), file=sys.stderr)
    if args.json:
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
    p.add_argument("--seats", type=int, default=None, help="number of seats (default: the spec's first)")
    p.add_argument("--workers", type=int, default=1, help="local processes to use (default 1)")
    p.add_argument("--backend", choices=("local", "dask"), default="local",
                   help="where to run: local processes, or a Dask distributed cluster (needs talon[dask])")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="the Dask scheduler's address (tcp://host:8786); without it dask starts a local cluster")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.add_argument("--plot", metavar="FILE.png", help="draw the main distributions (needs talon[plot])")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def _usage(msg: str) -> int:
    print(f"talon: {msg}", file=sys.stderr)
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
    if args.scheduler and args.backend != "dask":
        return "--scheduler goes with --backend dask"
    for g in games:
        seats = args.seats or games[0].seat_counts[0]
        if seats not in g.seat_counts:
            return f"{g.name} is played by {' or '.join(map(str, g.seat_counts))} seats, not {seats}"
    return None


def _run_kwargs(args) -> dict:
    from .simulate import DEFAULT_MAX_DEALS
    return dict(games=args.games, workers=args.workers, backend=args.backend, scheduler=args.scheduler,
                max_deals=args.max_deals or DEFAULT_MAX_DEALS,
                progress=False if args.no_progress or args.json else None)


def cmd_simulate(args) -> int:
    from .records import dump_yaml
    from .simulate import plot, render_stats, simulate
    from .spec import load
    game = load(args.spec)
    problem = _check_run(args, [game])
    if problem:
        return _usage(problem)
    seats = args.seats or game.seat_counts[0]
    hands = args.hands or 1000
    sink, fh = None, None
    if args.records:
        try:
            fh = open(args.records, "w", encoding="utf-8")
        except OSError as e:
            return _usage(f"cannot write {args.records}: {e.strerror}")
        if args.records.endswith((".yaml", ".yml")):
            sink = lambda rec: fh.write("---\n" + dump_yaml(rec))
        else:
            sink = lambda rec: fh.write(json.dumps(rec, separators=(",", ":")) + "\n")
    try:
        stats = simulate(game, hands, args.seed, seats, sink, spec_ref=args.spec, **_run_kwargs(args))
    finally:
        if fh:
            fh.close()
    data = stats.to_json()
    data["seed"] = args.seed
    if args.plot:
        plot(args.plot, [(data["spec"], data)])
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        print(render_stats(data))
        n = stats.deals
        print(f"\n{n} deals in {stats.seconds:.2f}s ({n / max(stats.seconds, 1e-9):,.0f} deals/s"
              f"{f', {args.workers} workers' if args.workers > 1 else ''})", file=sys.stderr)
    return EXIT_OK


def cmd_compare(args) -> int:
    from .simulate import compare, compare_json, plot, render_compare
    from .spec import load
    base, variant = load(args.base), load(args.variant)
    problem = _check_run(args, [base, variant])
    if problem:
        return _usage(problem)
    seats = args.seats or base.seat_counts[0]
    sa, sb, paired = compare(base, variant, args.hands or 1000, args.seed, seats, base_ref=args.base,
                             variant_ref=args.variant, **_run_kwargs(args))
    data = compare_json(sa, sb, paired)
    data["seed"] = data["base"]["seed"] = data["variant"]["seed"] = args.seed
    if args.plot:
        plot(args.plot, [(f"{data['base']['spec']} (base)", data["base"]),
                         (f"{data['variant']['spec']} (variant)", data["variant"])])
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        print(render_compare(data))
        print(f"\n2 x {sa.deals} deals in {sa.seconds:.2f}s", file=sys.stderr)
    return EXIT_OK


from .report import table  # noqa: E402  (kept importable from here)


def cmd_replay_each(args) -> int:
    """`talon replay --each FILE`: replay every record of a many-record file (JSON Lines
    are read a line at a time); report the records that do not replay."""
    from pathlib import Path

    from .records import read_record_file, replay_record
    from .spec import load, resolve
    path = args.record
    base_dir = Path(path).parent
    games, failed = {}, []
    count = finished = 0

    def records():
        try:
            with open(path, encoding="utf-8-sig") as fh:
                first = fh.read(1)
                while first.isspace():
                    first = fh.read(1)
                if first == "{":
                    fh.seek(0)
                    for lineno, line in enumerate(fh, 1):
                        if line.strip():
                            try:
                                yield lineno, json.loads(line)
                            except json.JSONDecodeError as e:
                                yield lineno, RecordError(f"{path}:{lineno}: not a JSON record: {e.msg}")
                    return
        except (OSError, UnicodeDecodeError):
            pass                               # read_record_file says what is wrong
        for k, rec in enumerate(read_record_file(path), 1):
            yield None, rec

    try:
        for k, (lineno, rec) in enumerate(records(), 1):
            count += 1
            where = f"{path}:{lineno}" if lineno else f"{path}, record {k}"
            try:
                if isinstance(rec, Exception):
                    raise rec
                if not isinstance(rec, dict):
                    raise RecordError(f"{where}: a hand record is a mapping with spec, seats, hands and actions")
                ref = args.spec or rec.get("spec")
                game = None
                if ref is not None:
                    ref = str(ref)
                    if not resolve(ref).exists() and (base_dir / ref).exists():
                        ref = str(base_dir / ref)
                    game = games.get(ref)
                    if game is None:
                        game = games[ref] = load(ref)
                rep = replay_record(rec, base_dir=str(base_dir), where=where, spec_override=args.spec, game=game)
                finished += rep.complete
            except IllegalAction as e:
                failed.append({"record": k, "line": lineno, "error": f"{where}: {e}", **e.to_json()})
            except RecordError as e:
                failed.append({"record": k, "line": lineno, "error": str(e)})
    except RecordError as e:
        failed.append({"record": None, "line": None, "error": str(e)})
    if args.json:
        print(json.dumps({"records": count, "complete": finished, "failed": failed}, indent=2))
    else:
        for f in failed[:20]:
            print(f["error"], file=sys.stderr)
        if len(failed) > 20:
            print(f"… and {len(failed) - 20} more", file=sys.stderr)
        print(f"{path}: {count} records, {count - len(failed)} replay"
              + (f", {len(failed)} do not" if failed else " (every action legal)"))
    return EXIT_INVALID if failed else EXIT_OK


# ------------------------------------------------------------------ replay
def cmd_replay(args) -> int:
    if getattr(args, "each", False):
        return cmd_replay_each(args)
    from .records import replay_file
    try:
        rep = replay_file(args.record, args.spec)
    except IllegalAction as e:
        if args.json:
            print(json.dumps({"error": "illegal action", **e.to_json()}, indent=2))
        else:
            print(f"{args.record}: {e}", file=sys.stderr)
        return EXIT_INVALID
    except RecordError as e:
        if args.json:
            print(json.dumps({"error": str(e)}, indent=2))
        else:
            print(f"talon: {e}", file=sys.stderr)
        return EXIT_INVALID
    data = rep.to_json()
    from .records import check_expectations, read_record_file
    problems = check_expectations(read_record_file(args.record)[0], data) if data["complete"] else []
    if problems:
        data["expectations_failed"] = problems
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        print(render_replay(rep, data))
        if problems:
            print(f"{args.record}: the record's `expect` does not hold:", file=sys.stderr)
            for p in problems:
                print(f"  {p}", file=sys.stderr)
    return EXIT_INVALID if problems else EXIT_OK


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
        out.append("legal: " + ", ".join(d["legal"][:30]))
    return "\n".join(out)


# ------------------------------------------------------------------ diff
def cmd_diff(args) -> int:
    from .spec.diff import diff, render
    from .spec import load
    d = diff(load(args.base), load(args.variant))
    print(json.dumps(d, indent=2) if args.json else render(d))
    return EXIT_OK


# ------------------------------------------------------------------ play
def cmd_play(args) -> int:
    from .terminal import play_terminal
    return play_terminal(args)


if __name__ == "__main__":
    sys.exit(main())
