"""Hand records (``shared/records.md``): read, write, and replay against a spec."""
from __future__ import annotations

import json
from pathlib import Path

import yaml

from .engine import AUCTION, CONTRACT, DONE, PLAY, Deal, Match
from .errors import IllegalAction, RecordError, TalonError
from .expr import Env
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
    if "deals" not in rec and "deal_number" in rec:
        match.deals_played = int(rec["deal_number"]) - 1
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
        apply_actions(deal, actions, names, seats)
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
        deal.set_cards(hs, talon, exposed)
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
    """Why action `a` by `seat` is illegal, in the game's words, citing the rule."""
    g = deal.game
    who = seats[seat]
    if seat not in deal.pos:
        return f"{who} sits this deal out"
    phase = deal.phase
    auction_action = a in (g.A_PASS, g.A_PASS_BLIND) or (a >= g.A_LADDER and not (
        a >= g.A_NUMBER and (a - g.A_NUMBER) % 4 == 2))
    if auction_action and phase != AUCTION:
        extra = ""
        if g.pass_final and deal.passes[seat]:
            it = _rule_of(g, "pass_final")
            extra = f" ({who} had passed, and a pass is final" + (f": rule `{it.name}`{_cl(it)}" if it else "") + ")"
        return "the auction is over" + extra
    if seat != deal.turn and a not in (g.A_LOOK, g.A_CONCEDE):
        if phase == AUCTION and auction_action and g.pass_final and deal.passed[seat]:
            it = _rule_of(g, "pass_final")
            return f"{who} has passed, and a pass is final" + (f" (rule `{it.name}`{_cl(it)})" if it else "")
        return f"it is {seats[deal.turn]}'s turn, not {who}'s"
    kind_play = a < g.A_PASS
    if a == g.A_LOOK:
        if not g.blind:
            return "this game has no blind bidding: every seat sees its cards"
        if deal.looked[seat]:
            return f"{who} has already looked"
        return "seats look at their cards only during the auction"
    if a == g.A_CONCEDE:
        if g.concede is None:
            return "this game has no conceding"
        if seat != deal.declarer:
            return "only the declarer may concede"
        return "the contract has not failed yet (or this contract cannot be conceded)"
    if phase == AUCTION:
        if kind_play or g.A_TRUMPS <= a < g.A_LADDER or a == g.A_ABANDON:
            return "the auction is not over"
        if a in (g.A_PASS_BLIND,) or (a >= g.A_LADDER and (a - (g.A_NUMBER if a >= g.A_NUMBER else g.A_LADDER)) % (4 if a >= g.A_NUMBER else 2) == 1):
            if not g.blind:
                return "this game has no blind bidding"
            if deal.looked[seat]:
                return f"{who} has looked at their cards and can no longer bid blind"
        if a >= g.A_NUMBER and (a - g.A_NUMBER) % 4 == 2:
            return "the contract is named after the auction"
        if g.auction_kind == "numeric" and a >= g.A_NUMBER:
            v = (a - g.A_NUMBER) // 4
            lo = g.min_bid(deal, Env(seat))
            if deal.highest is not None and v <= deal.highest:
                return f"a bid must be above the highest bid ({deal.highest})"
            if v < lo:
                return f"the lowest bid is {lo}"
        if g.auction_kind == "ladder" and g.A_LADDER <= a < g.A_NUMBER:
            i = (a - g.A_LADDER) // 2
            c = g.ladder[i]
            if deal.highest is not None and i <= deal.highest:
                return f"`{c.name}` is not above the highest bid (`{g.ladder[deal.highest].name}`)"
            if deal.reopened and g.reopen and i not in g.reopen[0]:
                return f"{who} has passed and may only bid " + ", ".join(g.ladder[j].name for j in sorted(g.reopen[0]))
            for name, it in g.rules.items():
                if it.body.kind == "bid_condition" and it.body.args["contract"] == c.name:
                    return f"`{c.name}` may be bid only when {_src(it)} (rule `{name}`{_cl(it)})"
        return "not a legal bid now"
    if phase == CONTRACT:
        step = g.contract_steps[deal.step][0]
        words = {"trumps": "name trumps", "contract": "name the contract", "give": "give cards",
                 "abandon": "abandon or go on"}
        if step == "give" and g.A_GIVE <= a < g.A_LADDER:
            d, c = divmod(a - g.A_GIVE, g.n_cards)
            if not deal.hands[seat] >> c & 1:
                return f"{who} does not hold {g.card_names[c]}"
            if d not in deal.defenders:
                return f"cards are given to the defenders, and {seats[d]} is not one"
            return f"{seats[d]} has already been given a card"
        if step == "contract" and a >= g.A_NUMBER:
            return f"the contract must be at least the bid ({deal.bid_value})"
        if step == "trumps" and a == g.A_TRUMPS + 4:
            return "trumps must be a suit here: `none` is not allowed"
        return f"the declarer must now {words.get(step, step)}"
    if phase == PLAY:
        if not kind_play:
            return "the play has begun"
        c = a if a < g.A_MELD else (a - g.A_MELD) % g.n_cards
        if not deal.hands[seat] >> c & 1:
            return f"{who} does not hold {g.card_names[c]}"
        if a >= g.A_MELD:
            mi = (a - g.A_MELD) // g.n_cards
            if deal.trick:
                return f"a {g.melds[mi].name} is announced only when leading"
            return f"{who} does not hold the {g.melds[mi].name} of that suit"
        # Which follow rule excluded it?
        cand = deal.hands[seat]
        for idx, rule in enumerate(g.follow):
            before = cand
            saved = g.follow
            g.follow = saved[:idx + 1]
            try:
                cand = deal._follow_mask(deal.hands[seat])
            finally:
                g.follow = saved
            if before >> c & 1 and not cand >> c & 1:
                it = _follow_rule(g, idx)
                return (f"{who} must play {_follow_words(rule)} when able"
                        + (f" (rule `{it.name}`{_cl(it)})" if it else ""))
    return "not legal now"


def _rule_of(g, kind):
    return next((it for it in g.rules.values() if it.body.kind == kind), None)


def _follow_rule(g, idx):
    its = [it for it in g.rules.values() if it.body.kind == "follow"]
    return its[idx] if idx < len(its) else None


def _follow_words(rule):
    return {"suit-led": "a card of the suit led", "trump": "a trump",
            "beats-trick": "a card that beats the trick"}[rule]


def _cl(it):
    return (", " + ", ".join(it.clauses)) if it.clauses else ""


def _src(it):
    path = it.loc.path
    try:
        line = Path(path).read_text(encoding="utf-8").splitlines()[it.body.args["expr"].loc.line - 1]
        e = it.body.args["expr"].loc
        return line[e.column - 1:e.end_column - 1] if e.end_column else line[e.column - 1:]
    except (OSError, IndexError):
        return "its condition holds"


# ------------------------------------------------------------------ expectations
EXPECTABLE = ("deltas", "scores", "game_over", "winners")


def check_expectations(rec: dict, result: dict) -> list:
    """A record may carry `expect:` (any of deltas, scores, game_over, winners): the
    results its author means. Returns the mismatches as sentences."""
    exp = rec.get("expect")
    if not exp:
        return []
    if not isinstance(exp, dict):
        return ["`expect` should map deltas, scores, game_over or winners to their values"]
    bad = []
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


def check_examples(game, folder: str) -> list:
    """Replay every record in a spec's examples folder; return (file, problems) pairs."""
    out = []
    for path in sorted(Path(folder).glob("*.y*ml")) + sorted(Path(folder).glob("*.json")):
        try:
            for rec in read_record_file(str(path)):
                res = replay_record(rec, base_dir=str(path.parent), where=str(path), game=game).to_json()
                out.append((str(path), check_expectations(rec, res)))
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
    if g.talon_size:
        t = deal.talon_dealt if hasattr(deal, "talon_dealt") else deal.talon
        rec["talon"] = cards_list(g, t)
    if g.face_up:
        rec["exposed"] = g.card_names[deal.exposed]
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
    """YAML in the layout of shared/records.md: hands on one line, one action a line."""
    text = yaml.dump(_flowed(obj), Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                     default_flow_style=False, width=120)
    return text
