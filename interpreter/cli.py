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
    v.add_argument("specs", nargs="+", metavar="SPEC", help="a spec name (501) or a path")
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
def cmd_validate(args) -> int:
    from .spec import check
    results = []
    worst = EXIT_OK
    for ref in args.specs:
        out = Collector()
        try:
            game = check(ref, out)
        except RecursionError:
            from .errors import Location
            out.error(Location(ref), "the spec is nested too deeply to check")
            game = None
        usage = any("no such" in d.message or "is a folder" in d.message or "cannot read" in d.message
                    for d in out.errors) and len(out.errors) == 1 and not out.errors[0].location.line
        examples = check_spec_examples(game, out) if game is not None else []
        ok = not out.errors
        results.append({"spec": ref, "valid": ok, "name": game.name if game else None,
                        "examples": examples,
                        "diagnostics": [d.to_json() for d in out.diagnostics]})
        if not args.json:
            for d in out.diagnostics:
                print(d.render(), file=sys.stderr)
            if ok:
                warn = sum(1 for d in out.diagnostics if d.severity == "warning")
                held = f", {len(examples)} example record(s) hold" if examples else ""
                print(f"{ref}: valid ({game.title}){held}" + (f", {warn} warning(s)" if warn else ""))
            else:
                n = len(out.errors)
                print(f"{ref}: {n} error{'s' if n != 1 else ''}", file=sys.stderr)
        if not ok:
            worst = max(worst, EXIT_USAGE if usage else EXIT_INVALID)
    if args.json:
        print(json.dumps(results if len(results) > 1 else results[0], indent=2))
    return worst


def check_spec_examples(game, out: Collector) -> list:
    """Replay the hand records of the spec's `examples` folder; a record whose `expect`
    does not hold, or that does not replay, is an error of the spec."""
    from pathlib import Path

    from .errors import Location
    from .records import check_examples
    if not game.examples or not Path(game.examples).is_dir():
        return []
    checked = []
    for path, problems in check_examples(game, game.examples):
        checked.append(path)
        for p in problems:
            out.error(Location(path), f"example does not hold: {p}")
    return checked


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
           f"annulled (all passed): {d['annulled']}   abandoned: {d['abandoned']}   "
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
            out.append(head + "annulled (every seat passed)")
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
            names = list(dd["points"])
            rows = []
            for n in names:
                melds = sum(m["worth"] for m in dd["melds"] if m["seat"] == n and m["counts"])
                rows.append([n, dd["tricks"][n], dd["card_points"][n], melds, dd["points"][n],
                             f"{dd['deltas'][n]:+d}", dd["scores"][n]])
            out.append(table(["seat", "tricks", "card points", "melds", "deal points", "change", "score"], rows))
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
