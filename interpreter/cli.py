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
    s.add_argument("--hands", type=int, default=1000, help="deals to play (default 1000)")
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--seats", type=int, default=None, help="number of seats (default: the spec's first)")
    s.add_argument("--records", metavar="FILE", help="write every deal as a hand record (JSON Lines, or YAML for .yaml)")
    s.add_argument("--json", action="store_true")
    s.add_argument("--no-progress", action="store_true")
    s.set_defaults(func=cmd_simulate)

    r = sub.add_parser("replay", help="check a hand record against its spec and print the result")
    r.add_argument("record", metavar="RECORD")
    r.add_argument("--spec", help="replay against this spec instead of the record's own")
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
    if out.errors:
        game = None
    return out, game, EXIT_OK if not out.errors else EXIT_INVALID


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
                        "diagnostics": [d.to_json() for d in errors + warnings]})
        worst = max(worst, status)
        if args.json:
            continue
        # Errors first, then warnings, each group in file order.
        for d in errors + warnings:
            print(d.render(), file=sys.stderr)
        if status == EXIT_OK:
            print(f"{ref}: valid ({game.title})" + (f", {_count(len(warnings), 'warning')}" if warnings else ""))
        elif several or len(out.diagnostics) > 1:
            print(f"{ref}: {_count(len(errors), 'error')}" +
                  (f", {_count(len(warnings), 'warning')}" if warnings else ""), file=sys.stderr)
    if args.json:
        print(json.dumps(results if several else results[0], indent=2, ensure_ascii=False))
    return worst


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


# ------------------------------------------------------------------ simulate
def cmd_simulate(args) -> int:
    from .records import dump_yaml
    from .simulate import simulate
    from .spec import load
    game = load(args.spec)
    seats = args.seats or game.seat_counts[0]
    if seats not in game.seat_counts:
        print(f"talon: {game.name} is played by {' or '.join(map(str, game.seat_counts))} seats, not {seats}",
              file=sys.stderr)
        return EXIT_USAGE
    if args.hands < 1:
        print("talon: --hands must be at least 1", file=sys.stderr)
        return EXIT_USAGE
    sink, fh = None, None
    if args.records:
        try:
            fh = open(args.records, "w", encoding="utf-8")
        except OSError as e:
            print(f"talon: cannot write {args.records}: {e.strerror}", file=sys.stderr)
            return EXIT_USAGE
        if args.records.endswith((".yaml", ".yml")):
            sink = lambda rec: fh.write("---\n" + dump_yaml(rec))
        else:
            sink = lambda rec: fh.write(json.dumps(rec, separators=(",", ":")) + "\n")
    try:
        stats = simulate(game, args.hands, args.seed, seats, sink,
                         progress=False if args.no_progress or args.json else None, spec_ref=args.spec)
    finally:
        if fh:
            fh.close()
    data = stats.to_json()
    data["seed"] = args.seed
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        print(render_stats(data))
        print(f"\n{stats.deals} deals in {stats.seconds:.2f}s ({stats.deals / max(stats.seconds, 1e-9):,.0f} deals/s)",
              file=sys.stderr)
    return EXIT_OK


def table(headers, rows) -> str:
    cols = list(zip(*([headers] + rows))) if rows else [[h] for h in headers]
    widths = [max(len(str(x)) for x in c) for c in cols]
    def fmt(r):
        return "  ".join(str(x).rjust(w) if i else str(x).ljust(w) for i, (x, w) in enumerate(zip(r, widths)))
    lines = [fmt(headers), "  ".join("-" * w for w in widths)]
    lines += [fmt(r) for r in rows]
    return "\n".join(lines)


def render_stats(d: dict) -> str:
    out = [f"{d['spec']}: {d['deals']} deals, {d['seats']} seats, seed {d['seed']}",
           f"annulled: {d['annulled']}   abandoned: {d['abandoned']}   "
           f"conceded: {d['conceded']}   won blind: {d['blind_declarers']}", ""]
    rows = [[c["contract"], c["bid"], c["made"], f"{100 * c['made_rate']:.1f}%",
             f"{100 * c['ci95'][0]:.1f}–{100 * c['ci95'][1]:.1f}%"] for c in d["contracts"]]
    out.append(table(["contract", "played", "made", "made %", "95% CI"], rows))
    out.append("")
    rows = [[role, m["n"], f"{m['mean']:+.2f}", f"{m['ci95'][0]:+.2f} … {m['ci95'][1]:+.2f}"]
            for role, m in d["delta_by_role"].items()]
    out.append(table(["role", "seat-deals", "score change", "95% CI"], rows))
    key = "points_by_role" if "points_by_role" in d else "tricks_by_role"
    rows = [[role, f"{m['mean']:.2f}"] for role, m in d[key].items()]
    out.append("")
    out.append(table(["role", key.split("_")[0] + " per deal"], rows))
    out.append("")
    rows = [[pos, m["n"], f"{m['mean']:+.2f}", f"{m['ci95'][0]:+.2f} … {m['ci95'][1]:+.2f}"]
            for pos, m in d["delta_by_position"].items()]
    out.append(table(["position", "deals", "score change", "95% CI"], rows))
    return "\n".join(out)


# ------------------------------------------------------------------ replay
def cmd_replay(args) -> int:
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
    out = []
    for k, dd in enumerate(d["deals"], 1):
        head = f"deal {dd['deal_number']}, dealer {dd['dealer']}: "
        if dd["result"] == "annulled":
            out.append(head + (f"annulled ({dd['unpartnered']} found no partner)" if dd.get("unpartnered")
                               else "annulled (every seat passed)"))
            continue
        if "declarer" in dd:
            c = dd["contract"]
            who = " and ".join(dd["declarers"])
            head += f"{who} {c}"
            if dd.get("trumps"):
                head += f", trumps {dd['trumps']}"
            if dd.get("blind"):
                head += ", won blind (doubled)"
        out.append(head + f" — {dd['result']}")
        if "points" in dd:
            g = rep.game
            by_points = any(g.card_points) or bool(g.melds)
            rows = []
            for n in rep.seats:          # seating order; a seat sitting out shows no tricks
                if n not in dd["points"]:
                    continue
                row = [n, dd["tricks"][n]]
                if by_points:
                    melds = sum(m["worth"] for m in dd["melds"] if m["seat"] == n and m["counts"])
                    row += [dd["card_points"][n], melds, dd["points"][n]]
                row += [f"{dd['deltas'][n]:+d}", dd["scores"][n]]
                rows.append(row)
            heads = ["seat", "tricks"] + (["card points", "melds", "deal points"] if by_points else [])
            out.append(table(heads + ["change", "score"], rows))
        elif "deltas" in dd:
            rows = [[n, f"{v:+d}", dd["scores"][n]] for n, v in dd["deltas"].items()]
            out.append(table(["seat", "change", "score"], rows))
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
    from .diff import diff, render
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
