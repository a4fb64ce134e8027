"""`talon solve RECORD`: the exact result of a recorded deal's play under perfect play,
every hand open, and the value of each legal action (``solver.solve``).

The position is where the record stops: in the middle of the play, or at the first
lead. A record that stops before the play (the auction, the declarer's steps or the
passing not finished) is refused with what is still to come; a finished deal is solved
from the start of its play (what the cards were worth open, against what was played).
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from .errors import IllegalAction, RecordError

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2
DEFAULT_TIME = 120.0        # seconds: a whole 13-trick play phase may take longer


def add_parser(sub):
    p = sub.add_parser("solve", help="the exact result of a recorded deal's play, every hand open, "
                                     "and the value of each legal action")
    p.add_argument("record", metavar="RECORD", help="a hand record (it may stop in the middle of the play)")
    p.add_argument("--spec", help="replay the record against this spec instead of its own")
    p.add_argument("--seat", metavar="NAME",
                   help="whose result (default: the seat to move); its side is the declaring side, the "
                        "defence or its partnership, else the seat alone against the others together")
    p.add_argument("--time", type=float, default=DEFAULT_TIME, metavar="SECONDS",
                   help=f"give up after this many seconds (default {DEFAULT_TIME:g}; 0: no limit)")
    p.add_argument("--nodes", type=int, default=None, metavar="N",
                   help="give up after searching this many positions (default: no limit)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.set_defaults(func=cmd_solve)
    return p


def _say(text=""):
    from .records import printable
    print(printable(text))


def _err(text=""):
    from .records import printable
    print(printable(text), file=sys.stderr)


def _fail(args, msg: str, extra: dict | None = None) -> int:
    if args.json:
        print(json.dumps({"error": msg, **(extra or {})}, indent=2))
    else:
        _err(msg)
    return EXIT_INVALID


def _usage(msg: str) -> int:
    _err(f"talon: {msg}")
    return EXIT_USAGE


def position(path: str, spec: str | None = None):
    """(the record's last deal at the point to solve, its seat names, the record, a note
    for people or None). Raises RecordError / IllegalAction as replay does, and
    RecordError for a record that stops before the play."""
    from .engine import DONE, PLAY
    from .knowledge import play_start
    from .records import read_record_file, replay_record
    recs = read_record_file(path)
    if len(recs) != 1:
        raise RecordError(f"{path}: holds {len(recs)} records; solve one deal at a time (one record a file)")
    rec = recs[0]
    if not isinstance(rec, dict):
        raise RecordError(f"{path}: a hand record is a mapping with spec, seats, hands and actions")
    base_dir = str(Path(path).parent)
    rep = replay_record(rec, base_dir=base_dir, where=path, spec_override=spec)
    deal, seats = rep.deals[-1], rep.seats
    many = "deals" in rec
    where = f"{path}, deal {len(rep.deals)}" if many else path
    note = None
    if deal.phase == PLAY:
        return deal, seats, rec, note
    if deal.phase != DONE:
        turn = seats[deal.turn] if deal.turn >= 0 else "nobody"
        what = {"auction": "in the auction", "contract": "in the declarer's steps before the play",
                "exchange": "while cards are passed"}.get(deal.phase, f"in the {deal.phase} phase")
        raise RecordError(f"{where}: the record stops {what} ({turn} to act, {len(deal.history)} actions "
                          f"played); the solver starts at the play: record the actions up to the first lead")
    k = play_start(deal)
    if k >= len(deal.history):
        raise RecordError(f"{where}: the deal ended before any card was played ({_ended(deal)}): "
                          f"there is no play to solve")
    # A finished deal: the same record cut at the first lead, replayed.
    cut = dict(rec)
    texts = [deal.action_to_string(a, s, seats) for s, a in deal.history[:k]]
    if many:
        deals = list(rec["deals"])
        deals[-1] = {**deals[-1], "actions": texts}
        cut["deals"] = deals
    else:
        cut["actions"] = texts
    rep = replay_record(cut, base_dir=base_dir, where=path, spec_override=spec, game=rep.game)
    note = (f"the record's deal is finished: solved from the start of its play (the first lead, after "
            f"{k} action{'s' if k != 1 else ''})")
    return rep.deals[-1], seats, rec, note


def _ended(deal) -> str:
    if deal.annulled:
        return "annulled"
    if deal.abandoned:
        return "abandoned"
    return "ended"


def describe(deal, seats, sol) -> dict:
    """The position in words and data: the trick, the contract, who plays with whom."""
    g = deal.game
    d = {"trick": deal.tricks_done + 1, "tricks": deal.tricks_done + deal.tricks_left,
         "to_move": seats[deal.turn],
         "trick_so_far": [f"{seats[s]} {g.card_names[c]}" for s, c in deal.trick],
         "trumps": None if deal.trumps is None else ("none" if deal.trumps < 0 else g.suit_words[deal.trumps])}
    if deal.declarer >= 0:
        d["declarers"] = [seats[s] for s in deal.declarers]
        d["contract"] = deal.contract_name()
    return d


def cmd_solve(args) -> int:
    from .solver import Solver, Timeout, build, score_sign
    if args.record.endswith(".talon"):
        return _usage(f"{args.record} is a spec (the rules of a game), not a hand record: `talon solve` reads "
                      f"a record of a deal (see `talon replay`)")
    if args.time is not None and not args.time >= 0:
        return _usage("--time must be a number of seconds (0: no limit)")
    if args.time == 0:
        args.time = None
    if args.nodes is not None and args.nodes < 1:
        return _usage("--nodes must be at least 1")
    if args.spec:
        from .cli import _spec_usage
        bad = _spec_usage(args.spec)
        if bad:
            return bad
    try:
        deal, seats, rec, note = position(args.record, args.spec)
    except IllegalAction as e:
        k = getattr(e, "deal_index", None)
        where = args.record + (f", deal {k}" if k and k > 1 else "")
        return _fail(args, f"{where}: {e}", {"illegal action": e.to_json()})
    except RecordError as e:
        return _fail(args, f"talon: {e}")
    seat = deal.turn
    if args.seat is not None:
        found = next((i for i, n in enumerate(seats) if n.lower() == args.seat.lower()), None)
        if found is None:
            return _usage(f"there is no seat `{args.seat}`: the seats are {', '.join(seats)}")
        if found not in deal.active:
            return _usage(f"{seats[found]} sits this deal out")
        seat = found
    live = not args.json and sys.stderr.isatty()
    if live and deal.tricks_left > 6:
        _err(f"solving {deal.tricks_left} tricks with every hand open "
             + (f"(at most {args.time:g} s; --time to change) …" if args.time else "…"))
    t0 = time.perf_counter()
    sv = Solver(deal, seat)
    shown = Searching(deal, seats, sv, t0) if live else None
    more = ("allow more (--time SECONDS, 0 for no limit; --nodes), or solve a later point of the play "
            "(a record with more actions)")

    def spent() -> str:
        out_of_time = args.time is not None and time.perf_counter() - t0 >= args.time
        return f"{args.time:g} s" if out_of_time or not args.nodes else f"{args.nodes} positions"

    # the result first (and an action achieving it), then the value of every action: a
    # search cut short still tells what it proved
    try:
        first = sv.solve(time_limit=args.time, max_nodes=args.nodes, progress=shown)
    except Timeout as e:
        if shown:
            shown.close()
        return _fail(args, f"talon: {args.record}: no exact result within {spent()}"
                     + _proved(e.bounds, deal, seats, sv) + f"; {more}",
                     {"bounds": _bounds_json(e.bounds)} if e.bounds else None)
    partial = None
    left = None if args.time is None else max(args.time - (time.perf_counter() - t0), 1e-3)
    if shown:
        shown.base = first.nodes
        shown.what = " (the result is found; now the value of every action)"
    try:
        sol = sv.solve(all_actions=True, time_limit=left,
                       max_nodes=None if args.nodes is None else max(args.nodes - first.nodes, 1),
                       progress=shown)
        sol.nodes += first.nodes
        sol.seconds = time.perf_counter() - t0
    except Timeout:
        sol = first
        sol.seconds = time.perf_counter() - t0
        sol.nodes = sv.search.nodes
        partial = (f"the value of each action needs more than {spent()}: the result above and the action "
                   f"achieving it are exact; for every action's value, {more}")
    finally:
        if shown:
            shown.close()
    data = {"record": args.record, "spec": deal.game.name, **describe(deal, seats, sol)}
    if partial:
        data["partial"] = partial
    if note:
        data["note"] = note
    data["higher_is_better"] = True
    data["lowest_scores_win"] = score_sign(deal.game) < 0
    data.update(sol.to_json(deal, seats))
    data["build"] = build()          # the solver compiled, or run as Python
    data["every_seat_for_itself"] = len(sol.side) == 1 and len(sol.others) > 1 and deal.declarer < 0
    if args.json:
        print(json.dumps(data, indent=2))
        return EXIT_OK
    _say(render(deal, seats, sol, data))
    return EXIT_OK


class Searching:
    """A line on stderr (a terminal) while a search runs longer than a second: the
    time, the positions searched and what is proved so far; wiped when it ends."""

    def __init__(self, deal, seats, sv, t0: float):
        self.deal, self.seats, self.sv, self.t0 = deal, seats, sv, t0
        self.base = 0            # positions of the searches before this one
        self.what = ""           # what it searches for, while nothing is proved
        self.width = 0

    def __call__(self, positions: int, bounds):
        spent = time.perf_counter() - self.t0
        if spent < 1.0:
            return
        said = _proved(bounds, self.deal, self.seats, self.sv) if bounds else self.what
        line = f"searching: {spent:.1f} s, {self.base + positions:,} positions{said}"
        from .records import printable
        line = printable(line)
        sys.stderr.write("\r" + line + " " * max(0, self.width - len(line)))
        sys.stderr.flush()
        self.width = len(line)

    def close(self):
        if self.width:
            sys.stderr.write("\r" + " " * self.width + "\r")
            sys.stderr.flush()
            self.width = 0


def _proved(bounds, deal, seats, sv) -> str:
    """What a search cut short had proved of the result, in words ('' if nothing)."""
    if not bounds:
        return ""
    lo, hi = bounds
    side = _and([seats[s] for s in sv.side])
    if lo is not None and hi is not None:
        said = f"between {_num(lo)} and {_num(hi)}"
    elif lo is not None:
        said = f"at least {_num(lo)}"
    else:
        said = f"at most {_num(hi)}"
    return f" (proved so far: the result for {side} is {said})"


def _bounds_json(bounds) -> dict:
    lo, hi = bounds
    return {"at_least": lo, "at_most": hi}


def _num(x: float) -> str:
    return f"{x:+.2f}".rstrip("0").rstrip(".") if x != int(x) else f"{int(x):+d}"


def _and(names: list) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def render(deal, seats, sol, d: dict) -> str:
    from .report import table
    nm = lambda s: seats[s]
    out = []
    if d.get("note"):
        out.append(d["note"])
    where = f"{d['spec']}: trick {d['trick']} of {d['tricks']}, {d['to_move']} to play"
    if d["trick_so_far"]:
        where += f" (the trick so far: {', '.join(d['trick_so_far'])})"
    out.append(where)
    bits = []
    if d.get("contract"):
        bits.append(f"contract: {_and(d['declarers'])} {d['contract']}")
    if d.get("trumps"):
        bits.append(f"trumps {d['trumps']}")
    if bits:
        out.append("; ".join(bits))
    side = _and([nm(s) for s in sol.side])
    others = _and([nm(s) for s in sol.others])
    if d["every_seat_for_itself"]:
        out.append(f"every seat plays for itself: the result is {side}'s, with {others} playing together "
                   f"against it (the paranoid reduction; --seat NAME for another seat)")
    elif deal.declarer >= 0:
        role = "the declaring side" if deal.declarer in sol.side else "the defence"
        out.append(f"{side} ({role}) against {others}")
    else:
        out.append(f"{side} against {others}")
    out.append("")
    lower = d["lowest_scores_win"]
    out.append(f"result under perfect play, every hand open: {_num(sol.value)} for {side}")
    out.append(f"  (the side's average score change minus the others' average"
               + (", turned over because the lowest scores win" if lower else "") + "; higher is better for "
               + side + ")")
    out.append("")
    turn = deal.turn
    mover_in_side = turn in sol.side
    if sol.values is None:
        if sol.best is not None:
            out.append(f"an action achieving it: {nm(turn)} {deal.game.to_action(sol.best, seats).text()}")
        out.append(d.get("partial", ""))
        out.append("")
    else:
        rows = []
        best = sol.value
        for a, v in sorted(sol.values.items(), key=lambda kv: (-kv[1] if mover_in_side else kv[1])):
            text = d["actions"] and f"{nm(turn)} {deal.game.to_action(a, seats).text()}"
            rows.append([text, _num(v), "best" if abs(v - best) < 1e-9 else f"{_num(v - best)}"])
        out.append(table(["action", f"result for {side}", "against the best"], rows))
        if not mover_in_side:
            out.append(f"({nm(turn)} plays against {side}: its best actions give {side} the least)")
        out.append("")
    out.append(f"{sol.nodes:,} positions searched in {sol.seconds:.2f} s "
               f"({'the trick search' if sol.mode == 'tricks' else 'the general search'}"
               f"{', compiled' if d.get('build') == 'compiled' else ''})")
    return "\n".join(out)
