"""Hand records (``docs/records.md``): read, write, and replay against a spec."""
from __future__ import annotations

import json
import os
import re
import stat
import tempfile
from pathlib import Path

import yaml

from .engine import AUCTION, DONE, Deal, Match
from .errors import IllegalAction, RecordError, TalonError
from .language.tables import YAML_LOADER
from .spec import load

MAX_RECORD_BYTES = 5_000_000               # one record (one line of a JSON Lines file)
MAX_RECORD_FILE = MAX_RECORD_BYTES * 20      # a whole record file read at once
MAX_RECORD_DEPTH = 32                        # records nest 5 levels; anything deeper is refused
MAX_NUMBER_DIGITS = 15                       # longer numbers in records and actions are refused


# ------------------------------------------------------------------ text shown to a person
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def printable(text) -> str:
    """Text safe to print on a terminal: control characters (escape sequences, carriage
    returns, bidirectional overrides) are shown as `\\x1b`-style escapes; newlines and
    tabs are kept."""
    text = str(text)
    return _CONTROL.sub(lambda m: (f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100
                                   else f"\\u{ord(m.group()):04x}"), text)


def _show(v, most: int = 40) -> str:
    """A value from a record, short and printable, for a message."""
    if isinstance(v, bool):
        text = "true" if v else "false"
    elif v is None:
        text = "nothing"
    elif isinstance(v, int) and abs(v) >= 10 ** MAX_NUMBER_DIGITS:
        text = "a number of more than 15 digits"
    elif isinstance(v, (list, dict)):
        text = "a list" if isinstance(v, list) else "a mapping"
    else:
        text = str(v)
    text = printable(text)
    return text if len(text) <= most else text[:most - 1] + "…"


def number_problem(word: str) -> str | None:
    """Why a word written as a number cannot be one (digits other than 0-9, too many
    digits), or None."""
    if not word.isdigit():
        return None
    if not word.isascii():
        return f"`{_show(word)}` is not a number: write numbers with the digits 0 to 9"
    if len(word) > MAX_NUMBER_DIGITS:
        return f"`{word[:8]}…` ({len(word)} digits) is too large a number"
    return None


def _plain_number(word: str) -> bool:
    return word.isascii() and word.isdigit() and len(word) <= MAX_NUMBER_DIGITS


# ------------------------------------------------------------------ reading
def _check_record_path(path: str) -> os.stat_result:
    """Refuse what is not a regular record file (a folder, a device, a FIFO or a socket,
    or a symlink to one) or is too large, without opening it; return its status."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise RecordError(f"{path}: no such hand record")
    except OSError as e:
        raise RecordError(f"{path}: cannot read: {e.strerror or e}")
    if stat.S_ISDIR(st.st_mode):
        raise RecordError(f"{path}: is a folder, not a hand record")
    if not stat.S_ISREG(st.st_mode):
        raise RecordError(f"{path}: not a regular file (a device, FIFO or socket), so not a hand record")
    return st


def _open_record(path: str):
    """A binary file object for a record file that is a regular file, opened without
    blocking (a FIFO swapped in after the check is refused, never waited on)."""
    _check_record_path(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as e:
        raise RecordError(f"{path}: cannot read: {e.strerror or e}")
    fh = os.fdopen(fd, "rb")
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        fh.close()
        raise RecordError(f"{path}: not a regular file (a device, FIFO or socket), so not a hand record")
    return fh


def read_record_file(path: str) -> list:
    """A record file -> a list of record dicts (YAML, JSON, JSON Lines, or several
    YAML documents). The file's size is checked before it is read; folders, devices,
    FIFOs and sockets are refused; any malformed content is a RecordError."""
    st = _check_record_path(path)
    if st.st_size > MAX_RECORD_FILE:
        raise RecordError(f"{path}: the record file is too large (more than {MAX_RECORD_FILE // 1_000_000} MB)")
    try:
        with _open_record(path) as fh:
            data = fh.read(MAX_RECORD_FILE + 1)
    except OSError as e:
        raise RecordError(f"{path}: cannot read: {e.strerror or e}")
    if len(data) > MAX_RECORD_FILE:
        raise RecordError(f"{path}: the record file is too large (more than {MAX_RECORD_FILE // 1_000_000} MB)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise RecordError(f"{path}:{line}: not UTF-8 text")
    if not text.strip():
        raise RecordError(f"{path}: the record file is empty")
    lines = text.splitlines()
    filled = [ln for ln in lines if ln.strip()]
    if len(filled) > 1 and all(ln.lstrip().startswith("{") for ln in filled):
        docs = [parse_json_record(ln, f"{path}:{k}") for k, ln in enumerate(lines, 1) if ln.strip()]
    else:
        docs = None
        if text.lstrip().startswith(("{", "[")):
            try:
                docs = [parse_json_record(text, path, or_yaml=True)]
            except _NotJSON:
                pass                        # YAML written in flow style
        if docs is None:
            docs = _yaml_records(text, path)
    out = []
    for d in docs:
        if isinstance(d, list):
            out.extend(d)
        else:
            out.append(d)
    for d in out:
        if not isinstance(d, dict):
            raise RecordError(f"{path}: a hand record is a mapping with spec, seats, hands and actions")
    return out


class _NotJSON(Exception):
    pass


class _Twice(Exception):
    pass


def _no_duplicates(pairs):
    d = {}
    for k, v in pairs:
        if k in d:
            raise _Twice(k)
        d[k] = v
    return d


def parse_json_record(text: str, where: str, or_yaml: bool = False):
    """One JSON value (a record, or a list of records) -> plain data; RecordError at
    `where` when it is malformed, nested too deeply, repeats a key or holds a number
    too long to read."""
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as e:
        if or_yaml:
            raise _NotJSON()
        raise RecordError(f"{where}: not a JSON record: {e.msg}")
    except _Twice as e:
        raise RecordError(f"{where}: `{_show(e.args[0])}` is given twice in one mapping")
    except RecursionError:
        raise RecordError(f"{where}: the record is nested too deeply (more than {MAX_RECORD_DEPTH} levels)")
    except ValueError:
        raise RecordError(f"{where}: the record holds a number too long to read")
    _check_depth(data, where)
    return data


def _check_depth(data, where: str):
    """Refuse data nested deeper than MAX_RECORD_DEPTH (checked without recursion)."""
    stack = [(data, 1)]
    while stack:
        v, depth = stack.pop()
        if isinstance(v, (list, dict)):
            if depth > MAX_RECORD_DEPTH:
                raise RecordError(f"{where}: the record is nested too deeply (more than {MAX_RECORD_DEPTH} levels)")
            stack.extend((x, depth + 1) for x in (v.values() if isinstance(v, dict) else v))


def _mark(path: str, mark) -> str:
    return f"{path}:{mark.line + 1}:{mark.column + 1}"


def _yaml_records_with(text: str, path: str, parser) -> list:
    """The YAML documents of a record file as plain data. The events are screened first
    (no aliases, bounded depth), so composing cannot explode or recurse without bound;
    a key given twice in one mapping is refused at its line and column."""
    depth = 0
    for ev in yaml.parse(text, Loader=parser):
        if isinstance(ev, yaml.AliasEvent):
            raise RecordError(f"{_mark(path, ev.start_mark)}: YAML aliases (`*name`) are not allowed in records")
        if isinstance(ev, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > MAX_RECORD_DEPTH:
                raise RecordError(f"{_mark(path, ev.start_mark)}: the record is nested too deeply "
                                  f"(more than {MAX_RECORD_DEPTH} levels)")
        elif isinstance(ev, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
    loader = yaml.SafeLoader("")
    docs = []
    for node in yaml.compose_all(text, Loader=parser):
        if node is not None:
            d = _build(node, path, loader)
            if d is not None:
                docs.append(d)
    return docs


def _yaml_records(text: str, path: str) -> list:
    """The YAML documents of a record file as plain data (see ``_yaml_records_with``):
    read by the C parser where PyYAML has one; a file it refuses is read again by the
    Python parser, for its words about the fault."""
    if YAML_LOADER is not yaml.SafeLoader:
        try:
            return _yaml_records_with(text, path, YAML_LOADER)
        except (yaml.YAMLError, RecursionError):
            pass
    try:
        return _yaml_records_with(text, path, yaml.SafeLoader)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = _mark(path, mark) if mark else path
        raise RecordError(f"{where}: the record is malformed: {printable(getattr(e, 'problem', None) or e)}")
    except RecursionError:
        raise RecordError(f"{path}: the record is nested too deeply (more than {MAX_RECORD_DEPTH} levels)")


def _build(node, path: str, loader):
    if isinstance(node, yaml.MappingNode):
        d, first = {}, {}
        for k, v in node.value:
            key = _build(k, path, loader)
            try:
                hash(key)
            except TypeError:
                raise RecordError(f"{_mark(path, k.start_mark)}: a key of a record is a word, not a list or mapping")
            if key in d:
                raise RecordError(f"{_mark(path, k.start_mark)}: `{_show(key)}` is given twice "
                                  f"(the first is at line {first[key]})")
            first[key] = k.start_mark.line + 1
            d[key] = _build(v, path, loader)
        return d
    if isinstance(node, yaml.SequenceNode):
        return [_build(x, path, loader) for x in node.value]
    try:
        return loader.construct_object(node, deep=True)
    except (ValueError, OverflowError):       # e.g. an integer of thousands of digits
        raise RecordError(f"{_mark(path, node.start_mark)}: the record holds a number too long to read")


def iter_json_lines(path: str):
    """The records of a JSON Lines file, one line at a time (memory stays flat however
    long the file): yields (line number, record or RecordError). A line longer than
    MAX_RECORD_BYTES is reported, not read whole."""
    with _open_record(path) as fh:
        lineno = 0
        while True:
            raw = fh.readline(MAX_RECORD_BYTES + 1)
            if not raw:
                return
            lineno += 1
            if len(raw) > MAX_RECORD_BYTES and not raw.endswith(b"\n"):
                while raw and not raw.endswith(b"\n"):     # skip the rest of the line
                    raw = fh.readline(1 << 20)
                yield lineno, RecordError(f"{path}:{lineno}: the record is too large "
                                          f"(more than {MAX_RECORD_BYTES // 1_000_000} MB on one line)")
                continue
            try:
                line = raw.decode("utf-8-sig" if lineno == 1 else "utf-8")
            except UnicodeDecodeError:
                yield lineno, RecordError(f"{path}:{lineno}: not UTF-8 text")
                continue
            if not line.strip():
                continue
            try:
                yield lineno, parse_json_record(line, f"{path}:{lineno}")
            except RecordError as e:
                yield lineno, e


def is_json_lines(path: str) -> bool:
    """Whether a record file starts with `{` (JSON Lines, as `simulate --records` writes)."""
    with _open_record(path) as fh:
        head = fh.read(4096).decode("utf-8-sig", "replace").lstrip()
    return head.startswith("{")


def _need(rec: dict, key: str, where: str, kind=None):
    if key not in rec:
        raise RecordError(f"{where}: the record has no `{key}`")
    v = rec[key]
    if kind is not None and not isinstance(v, kind):
        raise RecordError(f"{where}: `{key}` should be a {kind.__name__ if not isinstance(kind, tuple) else kind[0].__name__}")
    return v


# ------------------------------------------------------------------ replay
class Replay:
    """The result of replaying a record: the deals and the match after them."""

    def __init__(self, game, seats, match, deals, complete, per_deal):
        self.game, self.seats, self.match = game, seats, match
        self.deals, self.complete, self.per_deal = deals, complete, per_deal

    def to_json(self) -> dict:
        m = self.match
        names = self.seats
        first = self.per_deal[0]["scores_before"] if self.per_deal else {}
        out = {
            "spec": self.game.name,
            "complete": self.complete,
            "deals": self.per_deal,
        }
        if self.complete:
            out["deltas"] = {n: m.scores[i] - first.get(n, m.scores[i]) for i, n in enumerate(names)}
            out["scores"] = {n: m.scores[i] for i, n in enumerate(names)}
            if len(self.per_deal) == 1 and "deltas" in self.per_deal[0]:
                out["deltas"] = dict(self.per_deal[0]["deltas"])
            out["game_over"] = m.game_over
            out["winners"] = [names[i] for i in m.winners]
        else:
            d = self.deals[-1]
            out["phase"] = d.phase
            out["turn"] = names[d.turn] if d.turn >= 0 else None
            out["legal"] = [d.action_to_string(a, d.turn, names).split(" ", 1)[1]
                            for a in d.legal_actions()][:200]
        return out


def replay_file(path: str, spec_override: str | None = None) -> Replay:
    recs = read_record_file(path)
    if len(recs) != 1:
        raise RecordError(f"{path}: holds {len(recs)} records; replay one deal or one game at a time "
                          "(one record a file)")
    return replay_record(recs[0], base_dir=str(Path(path).parent), where=path, spec_override=spec_override)


_SEAT_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,31}")
MAX_SCORE = 10 ** MAX_NUMBER_DIGITS


def _bundled_file(path: Path) -> bool:
    """Whether `path` is one of the bundled spec files."""
    from .resources import specs_dir
    try:
        real = Path(os.path.realpath(path))
        return real.suffix == ".talon" and real.parent == Path(os.path.realpath(specs_dir())) and real.is_file()
    except OSError:
        return False


def record_spec(ref, base_dir: str, where: str) -> str:
    """The spec a record names, as `load` takes it: a bundled spec's name, or a file in
    the record's folder (or below it), by its path or, like `extends`, by its name
    without `.talon`. Never the working folder: the same record gives the
    same result wherever it is replayed from. A path that leaves the record's folder
    (absolute, `..`, or a symlink out of it) is refused unless it names a bundled spec."""
    from .spec import bundled_names
    if isinstance(ref, bool) or not isinstance(ref, (str, int)) or not str(ref).strip():
        raise RecordError(f"{where}: `spec` should name a spec: a bundled spec's name, or a .talon file "
                          f"beside the record")
    ref = str(ref)
    plain = "/" not in ref and os.sep not in ref and not ref.endswith(".talon")
    if plain and ref in bundled_names():
        return ref
    if _CONTROL.search(ref) or len(ref) > 1000:
        raise RecordError(f"{where}: the record's spec `{_show(ref, 60)}` is not a name or a path")
    try:
        return _record_spec_file(ref, plain, base_dir, where)
    except RecordError:
        raise
    except (OSError, ValueError) as e:          # a name too long, a NUL byte…
        raise RecordError(f"{where}: the record's spec `{_show(ref, 60)}` cannot be used: "
                          f"{getattr(e, 'strerror', None) or 'not a path'}")


def _record_spec_file(ref: str, plain: bool, base_dir: str, where: str) -> str:
    from .errors import did_you_mean
    from .spec import bundled_names
    base = Path(base_dir)
    cand = Path(ref) if Path(ref).is_absolute() else base / ref
    if plain and not cand.exists() and (base / f"{ref}.talon").is_file():
        # a spec named as `extends` names one: the file NAME.talon beside the record
        ref = f"{ref}.talon"
        cand = base / ref
    if _bundled_file(cand):
        return str(Path(os.path.realpath(cand)))
    real, home = os.path.realpath(cand), os.path.realpath(base)
    inside = real == home or real.startswith(home.rstrip(os.sep) + os.sep)
    if Path(ref).is_absolute() or ".." in Path(ref).parts or not inside:
        raise RecordError(f"{where}: the record's spec `{_show(ref, 60)}` is outside the record's folder: a record "
                          f"names a bundled spec or a file beside it (to replay it against a spec of your "
                          f"choice, use --spec)")
    if not cand.exists():
        if plain:
            hint = did_you_mean(ref, bundled_names())
            raise RecordError(f"{where}: no spec named `{_show(ref, 60)}`: neither a bundled spec nor a file in "
                              f"the record's folder" + (f"; {hint}" if hint else ""))
        raise RecordError(f"{where}: no spec file `{_show(ref, 60)}` in the record's folder "
                          f"({_show(base_dir or '.', 60)}); a record's spec is found beside it, or by a bundled "
                          f"name (or give one with --spec)")
    text = str(cand)
    return text if ("/" in text or os.sep in text or text.endswith(".talon")) else f".{os.sep}{text}"


def _seat_names(rec: dict, where: str) -> list:
    seats = _need(rec, "seats", where, list)
    for s in seats:
        if not isinstance(s, str) or not _SEAT_NAME.fullmatch(s):
            raise RecordError(f"{where}: `{_show(s)}` is not a seat name: `seats` lists names such as A, B, C "
                              f"(a letter, then letters, digits, `_` or `-`)")
    if len(set(seats)) != len(seats):
        raise RecordError(f"{where}: a seat name appears twice in `seats`")
    return list(seats)


def _whole(v, what: str, where: str, lo: int = -MAX_SCORE, hi: int = MAX_SCORE) -> int:
    """A whole number of a record (not true/false, not 1.5, not .inf), within bounds."""
    if isinstance(v, bool) or not isinstance(v, int):
        raise RecordError(f"{where}: {what} should be a whole number, not {_show(v)}")
    if not lo <= v <= hi:
        raise RecordError(f"{where}: {what} should be a whole number from {lo} to {hi}, not {_show(v)}")
    return v


def replay_record(rec: dict, base_dir: str = ".", where: str = "record", spec_override=None,
                  game=None) -> Replay:
    if not isinstance(rec, dict):
        raise RecordError(f"{where}: a hand record is a mapping with spec, seats, hands and actions")
    if game is None:
        if spec_override:
            ref = str(spec_override)                    # given on the command line: as typed
        else:
            ref = record_spec(_need(rec, "spec", where), base_dir, where)
        game = load(ref)
    seats = _seat_names(rec, where)
    if len(seats) not in game.seat_counts:
        raise RecordError(f"{where}: {game.name} is played by "
                          f"{' or '.join(map(str, game.seat_counts))} seats, not {len(seats)}")
    names = {n: i for i, n in enumerate(seats)}
    scores = rec.get("scores")
    start = None
    if scores is not None:
        if not isinstance(scores, dict) or set(map(str, scores)) != set(seats):
            raise RecordError(f"{where}: `scores` should give a score for each seat: {', '.join(seats)}")
        by_name = {str(k): v for k, v in scores.items()}
        start = [_whole(by_name[n], f"the score of {n}", where) for n in seats]
    deal_recs = rec["deals"] if "deals" in rec else [rec]
    if not isinstance(deal_recs, list) or not deal_recs:
        raise RecordError(f"{where}: `deals` should be a list of deals")
    for k, dr in enumerate(deal_recs):
        if not isinstance(dr, dict):
            raise RecordError(f"{where}, deal {k + 1}: a deal is a mapping with dealer, hands and actions, "
                              f"not {_show(dr)}")
    first_dealer = _seat(_need(deal_recs[0], "dealer", f"{where}, deal 1"), names, f"{where}, deal 1")
    match = Match(game, len(seats), first_dealer, start)
    if "deal_number" in rec:
        match.deals_played = _whole(rec["deal_number"], "`deal_number`", where, 1, 10 ** 9) - 1
    _check_start(game, match, seats, where)
    deals, per_deal = [], []
    complete = True
    for k, dr in enumerate(deal_recs):
        w = f"{where}, deal {k + 1}" if "deals" in rec else where
        if match.game_over:
            raise RecordError(f"{w}: the game already ended after deal {k}")
        dealer = _seat(_need(dr, "dealer", w), names, w)
        if dealer != match.dealer:
            raise RecordError(f"{w}: the dealer should be {seats[match.dealer]} "
                              f"(the deal passes {'left' if game.direction > 0 else 'right'}), not {seats[dealer]}")
        deal = match.new_deal()
        _deal_cards(deal, dr, names, w)
        before = {n: deal.scores[i] for i, n in enumerate(seats)}
        actions = dr.get("actions") or []
        if not isinstance(actions, list):
            raise RecordError(f"{w}: `actions` should be a list of strings such as `A bid 80`")
        try:
            apply_actions(deal, actions, names, seats)
        except IllegalAction as e:
            e.deal_index = k + 1
            e.where = w              # the record, and the deal in a game record
            raise
        deals.append(deal)
        if not deal.is_terminal():
            complete = False
            if k != len(deal_recs) - 1:
                raise RecordError(f"{w}: the deal is unfinished but more deals follow")
            per_deal.append(deal_summary(deal, seats, before))
            break
        match.finish(deal)
        per_deal.append(deal_summary(deal, seats, before))
    return Replay(game, seats, match, deals, complete, per_deal)


def _check_start(game, match, seats, where):
    """A record starts where a game can be: partners level, the game not already over,
    and what the spec's `a record may start only when …` asks."""
    from .engine.env import EMPTY
    if game.record_start is not None:
        probe = game.new_deal(len(seats), match.dealer, match.scores, max(match.deals_played, 1))
        if not game.record_start(probe, EMPTY):
            rule = game.rules_of_kind("record_start")
            raise RecordError(f"{where}: this record cannot start from scores "
                              f"{', '.join(f'{n} {v}' for n, v in zip(seats, match.scores))}: "
                              f"{game.rule_text(rule)} (rule `{rule}`)")
    if game.partners:
        probe = game.new_deal(len(seats), match.dealer, match.scores)
        for side in probe.sides:
            if len({match.scores[s] for s in side}) > 1:
                raise RecordError(f"{where}: partners share one score, but "
                                  + " and ".join(f"{seats[s]} has {match.scores[s]}" for s in side))
    if game.game_end is not None and (match.deals_played or match.scores != [game.start_score] * len(seats)):
        probe = game.new_deal(len(seats), match.dealer, match.scores, max(match.deals_played, 0))
        try:
            over = bool(game.game_end(probe, EMPTY))
        except Exception:
            over = False
        if over:
            raise RecordError(f"{where}: the game is already over before this record's first deal "
                              f"(scores {', '.join(f'{n} {v}' for n, v in zip(seats, match.scores))}"
                              + (f", {match.deals_played} deals played" if match.deals_played else "") + ")")


def _seat(v, names, where):
    v = v if isinstance(v, str) else str(v) if isinstance(v, int) and not isinstance(v, bool) else None
    if v is None or v not in names:
        raise RecordError(f"{where}: `{_show(v)}` is not one of the seats ({', '.join(names)})")
    return names[v]


def _deal_cards(deal: Deal, dr: dict, names: dict, where: str):
    g = deal.game
    hands = _need(dr, "hands", where, dict)
    hs = {}
    try:
        for n, cards in hands.items():
            s = _seat(n, names, where)
            if not isinstance(cards, list):
                raise RecordError(f"{where}: the hand of {n} should be a list of cards")
            hs[s] = [g.parse_card(str(c)) for c in cards]
        if not isinstance(dr.get("talon") or [], list):
            raise RecordError(f"{where}: `talon` should be a list of cards")
        talon = [g.parse_card(str(c)) for c in (dr.get("talon") or [])]
        exposed = g.parse_card(str(dr["exposed"])) if dr.get("exposed") is not None else -1
        stock = dr.get("stock") or []
        if not isinstance(stock, list):
            raise RecordError(f"{where}: `stock` should be a list of cards, top first")
        deal.set_cards(hs, talon, exposed, [g.parse_card(str(c)) for c in stock])
    except RecordError:
        raise                       # already says where
    except ValueError as e:
        msg = str(e)
        for n, i in names.items():
            msg = msg.replace(f"seat {i} ", f"{n} ")
        raise RecordError(f"{where}: {msg}")


def apply_actions(deal: Deal, actions: list, names: dict, seats: list, start_index: int = 0):
    g = deal.game
    for i, text in enumerate(actions, start=start_index + 1):
        if not isinstance(text, str):
            raise IllegalAction(i, _show(text), "an action is a string such as `A bid 80`",
                                _legal_strings(deal, seats))
        words = text.split()
        if not words or words[0] not in names:
            raise IllegalAction(i, text, f"an action starts with a seat ({', '.join(seats)})",
                                _legal_strings(deal, seats))
        seat = names[words[0]]
        if deal.is_terminal():
            raise IllegalAction(i, text, "the deal is already over", [])
        bad = next((p for p in map(number_problem, words[1:]) if p), None)
        if bad:
            raise IllegalAction(i, text, bad, _legal_strings(deal, seats))
        try:
            a = deal.parse_action(words[1:], names)
        except ValueError as e:
            raise IllegalAction(i, text, str(e), _legal_strings(deal, seats))
        if not deal.is_legal(a, seat):
            raise IllegalAction(i, text, explain(deal, a, seat, seats), _legal_strings(deal, seats))
        deal.apply_action(a, seat)


def _legal_strings(deal: Deal, seats) -> list:
    if deal.is_terminal() or deal.turn < 0:
        return []
    out = [deal.action_to_string(a, deal.turn, seats) for a in deal.legal_actions()]
    for s in deal.active:
        if s != deal.turn:
            out += [deal.action_to_string(a, s, seats) for a in deal.free_actions(s)]
    return compress_numbers(out, higher_legal(deal, seats))


def higher_legal(deal: Deal, seats, seat=None):
    """For ``compress_numbers``: whether an action like the one written `head N tail`
    is legal with a number above N (bids and contracts have no upper limit where the
    spec sets none, though only so many are listed). `seat`: the seat acting, when the
    texts do not name it."""
    names = {n: i for i, n in enumerate(seats)}

    def more(head: str, n: int, tail: str) -> bool:
        words = head.split()
        who = seat
        if seat is None:
            if not words or words[0] not in names:
                return False
            who, words = names[words[0]], words[1:]
        for k in range(n + 1, n + 21):
            try:
                a = deal.parse_action(words + [str(k)] + tail.split(), names)
            except ValueError:
                continue
            if deal.is_legal(a, who):
                return True
        return False
    return more


def compress_numbers(actions: list, more=None) -> list:
    """Collapse runs such as `A bid 66`, `A bid 67` … `A bid 280` into `A bid 66…280`.
    A run with a step other than 1 (bids in fives, say) says its step:
    `B bid 105…400 (in steps of 5)`; two numbers alone are listed as they are. With
    `more(head, N, tail)` telling whether a higher number than the run's last is legal
    too (numbers without an upper limit are only listed so far), such a run is written
    `A bid 66 (or more)`, as ``talon play`` writes it."""
    out, runs = [], {}
    for text in actions:
        words = text.split()
        idx = next((i for i, w in enumerate(words) if _plain_number(w)), None)
        if idx is None:
            out.append(text)
            continue
        key = (" ".join(words[:idx]), " ".join(words[idx + 1:]))
        n = int(words[idx])
        run = runs.get(key)             # [key, first, last, step, count]: the open run
        if run and n > run[2] and (run[3] is None or n - run[2] == run[3]):
            run[3], run[2], run[4] = n - run[2], n, run[4] + 1
        else:
            run = runs[key] = [key, n, n, None, 1]
            out.append(run)
    result = []
    for item in out:
        if not isinstance(item, list):
            result.append(item)
            continue
        (head, tail), lo, hi, step, count = item
        if more is not None and more(head, hi, tail):
            steps = f", in steps of {step}" if count > 1 and step != 1 else ""
            result.append(" ".join(x for x in (head, str(lo), tail) if x) + f" (or more{steps})")
            continue
        if count == 2 and step != 1:
            nums = [str(lo), str(hi)]
        elif count == 1:
            nums = [str(lo)]
        else:
            nums = [f"{lo}…{hi}"]
        for num in nums:
            text = " ".join(x for x in (head, num, tail) if x)
            result.append(text + (f" (in steps of {step})" if count > 2 and step != 1 else ""))
    return result


def explain(deal: Deal, a: int, seat: int, seats) -> str:
    """Why action `a` by `seat` is illegal, in the game's words, citing the rule (the
    engine's phases say why; see ``Deal.why_not``)."""
    g = deal.game
    c = deal.codec
    who = seats[seat]
    if seat not in deal.pos:
        return f"{who} sits this deal out"
    kind = c.kind(a)
    if kind in ("pass", "bid") and deal.phase != AUCTION and g.has_auction:
        extra = ""
        if g.pass_final and deal.passes[seat]:
            extra = f" ({who} had passed, and a pass is final" + _cite(g, g.rules_of_kind("pass_final"), ": ") + ")"
        return "the auction is over" + extra
    if seat != deal.turn and kind not in ("look", "concede"):
        if deal.phase == AUCTION and kind in ("pass", "bid") and g.pass_final and deal.passed[seat]:
            return f"{who} has passed, and a pass is final" + _cite(g, g.rules_of_kind("pass_final"))
        return f"it is {seats[deal.turn]}'s turn, not {who}'s"
    reason, rule = deal.why_not(a, seat)
    for i, name in enumerate(seats):
        reason = reason.replace("{seat%d}" % i, name)
    return reason + _cite(g, rule)


def _cite(g, rule: str, sep: str = " (") -> str:
    """` (rule `name`, clause ids)` for the rule that decides, or nothing."""
    if not rule:
        return ""
    it = g.rules.get(rule)
    cl = (", " + ", ".join(it.clauses)) if it is not None and it.clauses else ""
    if sep == " (":
        return f" (rule `{rule}`{cl})"
    return f"{sep}rule `{rule}`{cl}"


# ------------------------------------------------------------------ expectations
EXPECTABLE = ("deltas", "scores", "game_over", "winners", "illegal", "illegal_deal")


def check_expectations(rec: dict, result: dict) -> list:
    """A record may carry `expect:` (any of deltas, scores, game_over, winners): the
    results its author means. Returns the mismatches as sentences."""
    exp = rec.get("expect")
    if not exp:
        return []
    if not isinstance(exp, dict):
        return ["`expect` should map deltas, scores, game_over or winners to their values"]
    bad = []
    if "illegal" in exp and "illegal" not in result:
        return [f"expected action {exp['illegal']} to be refused, but the record replays"]
    if "illegal" in result and "illegal" not in exp:
        return [f"action {result['illegal']} is refused: {result.get('reason', '')}"]
    for key, want in exp.items():
        if key not in EXPECTABLE:
            bad.append(f"`expect` has an unknown entry `{key}` (known: {', '.join(EXPECTABLE)})")
            continue
        got = result.get(key)
        if key in ("deltas", "scores") and isinstance(want, dict) and isinstance(got, dict):
            want = {str(k): v for k, v in want.items()}
        if key == "winners" and isinstance(want, list) and isinstance(got, list):
            want, got = sorted(map(str, want)), sorted(got)
        if got != want:
            bad.append(f"expected {key} {want}, got {got}")
    return bad


def replay_result(rec: dict, path, game=None) -> dict:
    """Replay one record for its expectations: the result, or where it was refused
    (`illegal`: the action's index, `illegal_deal`: the deal's, in a game record)."""
    try:
        return replay_record(rec, base_dir=str(Path(path).parent), where=str(path), game=game).to_json()
    except IllegalAction as e:
        res = {"illegal": e.index, "reason": e.reason}
        if "deals" in rec:
            res["illegal_deal"] = getattr(e, "deal_index", 1)
        return res


def check_examples(game, folder: str) -> list:
    """Replay every record in a spec's examples folder; return (file, problems) pairs."""
    out = []
    for path in sorted(Path(folder).glob("*.y*ml")) + sorted(Path(folder).glob("*.json")):
        try:
            for rec in read_record_file(str(path)):
                out.append((str(path), check_expectations(rec, replay_result(rec, path, game))))
        except TalonError as e:
            out.append((str(path), [str(e)]))
    return out


# ------------------------------------------------------------------ summaries
def deal_summary(deal: Deal, seats: list, before: dict) -> dict:
    g = deal.game
    out = {"dealer": seats[deal.dealer], "deal_number": deal.deal_number,
           "scores_before": before}
    if deal.annulled:
        out["result"] = "annulled"
        if deal.highest is not None and g.auction_kind == "ladder":
            out["unpartnered"] = g.ladder[deal.highest].name   # left without a partner
    elif deal.abandoned:
        out["result"] = "abandoned"
    elif deal.phase == DONE and deal.declarer < 0:
        out["result"] = "played"
    elif deal.phase == DONE:
        out["result"] = "made" if deal.made else ("conceded" if deal.conceded else "failed")
    else:
        out["result"] = "in progress"
    if deal.declarer >= 0:
        out["declarer"] = seats[deal.declarer]
        out["declarers"] = [seats[s] for s in deal.declarers]
        out["contract"] = deal.contract_name()
        if g.auction_kind == "numeric":
            out["bid"] = deal.bid_value
        out["blind"] = deal.declarer_blind
        out["trumps"] = None if deal.trumps is None else ("none" if deal.trumps < 0 else g.suit_words[deal.trumps])
    if g.auction_kind == "exact":
        out["bids"] = {seats[s]: deal.bids[s] for s in deal.active}
    if deal.declarer < 0 and deal.trumps is not None:
        out["trumps"] = "none" if deal.trumps < 0 else g.suit_words[deal.trumps]
    if deal.phase == DONE and not deal.annulled:
        out["tricks"] = {seats[s]: deal.tricks[s] for s in deal.active}
        out["card_points"] = {seats[s]: deal.card_points[s] for s in deal.active}
        out["melds"] = [{"seat": seats[s], "meld": g.melds[mi].name, "suit": g.suit_words[suit],
                         "worth": w, "counts": bool(deal.meld_points_of[s])} for s, mi, suit, w in deal.melds]
        out["points"] = {seats[s]: deal.deal_points_of[s] for s in deal.active}
    if deal.phase == DONE:
        out["deltas"] = {n: deal.deltas[i] for i, n in enumerate(seats)}
        out["scores"] = {n: deal.scores[i] for i, n in enumerate(seats)}
    return out


# ------------------------------------------------------------------ writing
class OutputError(TalonError):
    """A file Talon was asked to write cannot be written (a usage or I/O error)."""


def spec_files(game) -> set:
    """The files a loaded spec was read from (itself and the specs it extends), which an
    output file must never replace."""
    paths = {getattr(game, "path", None)}
    for it in getattr(game, "rules", {}).values():
        paths.add(getattr(getattr(it, "loc", None), "path", None))
    return {p for p in paths if p}


def output_problem(path: str, protect=()) -> str | None:
    """Why `path` cannot be written as an output file, or None: an existing path must be
    a regular file (not a folder, device, FIFO or socket, nor a symlink to one) and not
    one of the `protect` files; its folder must exist."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    except OSError as e:
        return f"cannot write {path}: {e.strerror or e}"
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            return f"cannot write {path}: it is a folder"
        if not stat.S_ISREG(st.st_mode):
            return f"cannot write {path}: it is not a regular file (a device, FIFO or socket)"
        for p in protect:
            try:
                if os.path.samefile(path, p):
                    return f"cannot write {path}: it is the spec being run"
            except OSError:
                pass
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        return f"cannot write {path}: no such folder"
    return None


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


class AtomicWriter:
    """An output file written whole or not at all: the text goes to a temporary file
    created exclusively (``mkstemp``: a fresh name, ``O_EXCL``, never through a symlink)
    in the target's folder, which `commit` renames over the target; `abort` (or leaving
    a ``with`` block by an exception, Ctrl-C included) removes it and leaves whatever was
    at the target untouched. Write errors are OutputError."""

    def __init__(self, path: str, protect=(), binary: bool = False, sync: bool = True):
        problem = output_problem(path, protect)
        if problem:
            raise OutputError(problem)
        self.path, self.protect, self.sync = path, tuple(protect), sync
        folder = os.path.dirname(os.path.abspath(path))
        try:
            fd, self.tmp = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(path)}.", suffix=".tmp")
        except OSError as e:
            raise OutputError(f"cannot write {path}: {e.strerror or e}")
        try:
            try:
                mode = stat.S_IMODE(os.stat(path).st_mode)
            except OSError:
                mode = 0o666 & ~_umask()
            os.fchmod(fd, mode)
            self.fh = os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8")
        except BaseException:
            os.close(fd)
            self._remove()
            raise

    def write(self, data):
        try:
            self.fh.write(data)
        except OSError as e:
            raise OutputError(f"cannot write {self.path}: {e.strerror or e}") from None

    def commit(self):
        try:
            self.fh.flush()
            if self.sync:
                os.fsync(self.fh.fileno())
            self.fh.close()
            problem = output_problem(self.path, self.protect)    # changed while we wrote?
            if problem:
                raise OutputError(problem)
            os.replace(self.tmp, self.path)
        except OSError as e:
            self.abort()
            raise OutputError(f"cannot write {self.path}: {e.strerror or e}") from None
        except BaseException:
            self.abort()
            raise

    def abort(self):
        try:
            self.fh.close()
        except (OSError, AttributeError):
            pass
        self._remove()

    def _remove(self):
        try:
            os.unlink(self.tmp)
        except OSError:
            pass

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        if kind is None:
            self.commit()
        else:
            self.abort()
        return False


def write_atomic(path: str, data, protect=(), sync: bool = True):
    """Write `data` (text or bytes) to `path` whole or not at all (see AtomicWriter);
    `sync=False` skips the fsync (for a file rewritten after every action)."""
    with AtomicWriter(path, protect, binary=isinstance(data, bytes), sync=sync) as w:
        w.write(data)


def record_spec_ref(ref: str, game, record_path: str) -> str:
    """How a record written to `record_path` names its spec, so that replay finds it from
    any working folder: a bundled spec by its name, any other file by its path relative to
    the record's folder."""
    path = getattr(game, "path", None)
    if not path:
        return ref
    if _bundled_file(Path(path)):
        return Path(os.path.realpath(path)).stem
    return os.path.relpath(os.path.abspath(path), os.path.dirname(os.path.abspath(record_path)))


def deal_record(deal: Deal, seats: list, spec: str | None = None, scores: bool = True) -> dict:
    g = deal.game
    rec = {}
    if spec is not None:
        rec["spec"] = spec
        rec["seats"] = list(seats)
    rec["dealer"] = seats[deal.dealer]
    if scores and spec is not None:
        rec["scores"] = {n: s for n, s in zip(seats, deal.scores_before)}
        if deal.deal_number != 1:
            rec["deal_number"] = deal.deal_number
    rec["hands"] = {seats[s]: cards_list(g, deal.dealt[s]) for s in deal.active}
    if deal.talon_dealt:
        rec["talon"] = cards_list(g, deal.talon_dealt)
    if g.stock:
        rec["stock"] = [g.card_names[c] for c in deal.stock_dealt]
    if g.face_up and deal.exposed_dealt >= 0:
        rec["exposed"] = g.card_names[deal.exposed_dealt]
    rec["actions"] = [deal.action_to_string(a, s, seats) for s, a in deal.history]
    return rec


def cards_list(g, mask: int) -> list:
    return [g.card_names[c] for c in range(g.n_cards) if mask >> c & 1]


class _Flow(list):
    """A short list written on one line (hands, the talon, seats)."""


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(_Flow, lambda d, v: d.represent_sequence("tag:yaml.org,2002:seq", v, flow_style=True))


def _flowed(obj, key=None):
    if isinstance(obj, dict):
        return {k: _flowed(v, k) for k, v in obj.items()}
    if isinstance(obj, list):
        if key == "actions" or any(isinstance(x, (dict, list)) for x in obj):
            return [_flowed(x) for x in obj]
        return _Flow(obj)
    return obj


def dump_yaml(obj) -> str:
    """YAML in the layout of docs/records.md: hands on one line, one action a line."""
    text = yaml.dump(_flowed(obj), Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                     default_flow_style=False, width=120)
    return text
