"""Hand records (``docs/records.md``): read, write, and replay against a spec."""
from __future__ import annotations

import json
from pathlib import Path

import yaml

from .engine import AUCTION, DONE, Deal, Match
from .errors import IllegalAction, RecordError, TalonError
from .spec import load, resolve

MAX_RECORD_BYTES = 5_000_000


# ------------------------------------------------------------------ reading
def read_record_file(path: str) -> list:
    """A record file -> a list of record dicts (YAML, JSON, JSON Lines, or several
    YAML documents)."""
    p = Path(path)
    try:
        if p.is_dir():
            raise RecordError(f"{path}: is a folder, not a hand record")
        data = p.read_bytes()
    except FileNotFoundError:
        raise RecordError(f"{path}: no such hand record")
    except OSError as e:
        raise RecordError(f"{path}: cannot read: {e.strerror}")
    if len(data) > MAX_RECORD_BYTES * 20:
        raise RecordError(f"{path}: the record file is too large")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RecordError(f"{path}: not UTF-8 text")
    if not text.strip():
        raise RecordError(f"{path}: the record file is empty")
    if "*" in text or "&" in text:
        for ev in _events(text):
            if isinstance(ev, yaml.AliasEvent):
                raise RecordError(f"{path}:{ev.start_mark.line + 1}: YAML aliases are not allowed in records")
    lines = [ln for ln in text.splitlines() if ln.strip()]
    try:
        if len(lines) > 1 and all(ln.lstrip().startswith("{") for ln in lines):
            return [json.loads(ln) for ln in lines]
        docs = [d for d in yaml.safe_load_all(text) if d is not None]
    except (yaml.YAMLError, json.JSONDecodeError) as e:
        mark = getattr(e, "problem_mark", None)
        where = f":{mark.line + 1}:{mark.column + 1}" if mark else ""
        raise RecordError(f"{path}{where}: the record is malformed: {getattr(e, 'problem', None) or e}")
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


def _events(text):
    try:
        yield from yaml.parse(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return


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


def replay_record(rec: dict, base_dir: str = ".", where: str = "record", spec_override=None,
                  game=None) -> Replay:
    if game is None:
        ref = spec_override or _need(rec, "spec", where)
        ref = str(ref)
        if not resolve(ref).exists() and (Path(base_dir) / ref).exists():
            ref = str(Path(base_dir) / ref)
        game = load(ref)
    seats = _need(rec, "seats", where, list)
    seats = [str(s) for s in seats]
    if len(set(seats)) != len(seats):
        raise RecordError(f"{where}: a seat name appears twice in `seats`")
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
        try:
            start = [int(by_name[n]) for n in seats]
        except (TypeError, ValueError):
            raise RecordError(f"{where}: scores are whole numbers")
    deal_recs = rec["deals"] if "deals" in rec else [rec]
    if not isinstance(deal_recs, list) or not deal_recs:
        raise RecordError(f"{where}: `deals` should be a list of deals")
    first_dealer = _seat(_need(deal_recs[0], "dealer", f"{where}, deal 1"), names, f"{where}, deal 1")
    match = Match(game, len(seats), first_dealer, start)
    if "deal_number" in rec:
        dn = rec["deal_number"]
        if isinstance(dn, bool) or not isinstance(dn, int) or not 1 <= dn <= 100000:
            raise RecordError(f"{where}: `deal_number` should be a whole number from 1, not {str(dn)[:20]}")
        match.deals_played = dn - 1
    deals, per_deal = [], []
    complete = True
    for k, dr in enumerate(deal_recs):
        w = f"{where}, deal {k + 1}" if "deals" in rec else where
        if match.game_over:
            raise RecordError(f"{w}: the game already ended after deal {k}")
        if not isinstance(dr, dict):
            raise RecordError(f"{w}: a deal is a mapping with dealer, hands and actions")
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


def _seat(v, names, where):
    v = str(v)
    if v not in names:
        raise RecordError(f"{where}: `{v}` is not one of the seats ({', '.join(names)})")
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
            raise IllegalAction(i, str(text), "an action is a string such as `A bid 80`", [])
        words = text.split()
        if not words or words[0] not in names:
            raise IllegalAction(i, text, f"an action starts with a seat ({', '.join(seats)})",
                                _legal_strings(deal, seats))
        seat = names[words[0]]
        if deal.is_terminal():
            raise IllegalAction(i, text, "the deal is already over", [])
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
    return compress_numbers(out)


def compress_numbers(actions: list) -> list:
    """Collapse runs such as `A bid 66`, `A bid 67` … `A bid 280` into `A bid 66…280`
    (numbers have no upper limit; the listed range is only what agents consider)."""
    out, runs = [], {}
    for text in actions:
        words = text.split()
        idx = next((i for i, w in enumerate(words) if w.isdigit()), None)
        if idx is None:
            out.append(text)
            continue
        key = (" ".join(words[:idx]), " ".join(words[idx + 1:]))
        n = int(words[idx])
        run = runs.get(key)
        if run and run[1] == n - 1:
            run[1] = n
        else:
            runs[key] = [n, n]
            out.append(key)
    result = []
    for item in out:
        if isinstance(item, tuple):
            lo, hi = runs[item]
            num = f"{lo}" if lo == hi else f"{lo}…{hi}"
            result.append(" ".join(x for x in (item[0], num, item[1]) if x))
        else:
            result.append(item)
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
