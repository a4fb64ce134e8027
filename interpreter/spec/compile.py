"""Stage 2: parsed spec files (a game, or a variant and its bases) -> one checked,
compiled, immutable ``Game``. Every rule is compiled by its own kind's unit
(``interpreter.rules``); this module only orders the work and checks how the rules
fit together. Every problem found is collected with its file, line and column."""
from __future__ import annotations

import re
from pathlib import Path

from ..errors import Collector, Location, SpecError, did_you_mean
from ..language.expr import BOOL, NUM, Compiler, Scope
from ..language.tables import check_schema
from ..model.game import Contract, Game, Meld
from ..rules.registry import KINDS, ORDER, REQUIRED, SINGLE
from .files import resolve
from .variants import Merged, _load_chain, inside


def load(ref: str, out: Collector | None = None) -> Game:
    """Load, check and compile a spec; raise SpecError with every problem found."""
    out = out or Collector()
    game = check(ref, out)
    out.raise_if_errors()
    return game


def check(ref: str, out: Collector) -> Game | None:
    merged = _load_chain(str(resolve(ref)), out, [])
    if merged is None or merged.tables is None:
        return None
    return _compile(merged, out)


# --------------------------------------------------------------------- compile
PHASE_OF_SECTION = {"auction": "auction", "contract": "contract", "exchange": "exchange"}


class Builder:
    """What the rule units write into while a spec is compiled (see rules/base.py)."""

    def __init__(self, out, head, tables, positions, tables_path, suits, ranks, card_points):
        self.out = out
        self.head = head
        self.tables = tables
        self.positions = positions
        self.tables_path = tables_path
        self.suits, self.ranks = suits, ranks
        self.card_points = card_points
        self.values = dict(tables.get("values", {}))
        self.ladder: list = []
        self.ladder_columns: dict = {"unit": NUM, "least": NUM, "most": NUM}
        self.g: dict = {}
        self.melds: dict = {}
        self.contract_steps: list = []
        self.narrows: list = []
        self.statements: list = []
        self.lets: list = []
        self.seen_narrows: dict = {}
        self.dealer_statements: list = []
        self.bid_rule_name = ""
        self.no_trumps_winner = False
        self.has_declarer = False
        self.cc = None

    # helpers the rule units use
    def card(self, text: str, loc):
        t = text.upper()
        if t[:-1] in self.ranks and t[-1:] in self.suits:
            return self.suits.index(t[-1]) * len(self.ranks) + self.ranks.index(t[:-1])
        self.out.error(loc, f"`{text}` is not a card of this deck (ranks {' '.join(self.ranks)}, suits {' '.join(self.suits)})")
        return None

    def rank(self, r: str, loc):
        r = "10" if r == "T" else r
        if r not in self.ranks:
            self.out.error(loc, f"`{r}` is not a rank of this deck ({' '.join(self.ranks)})")
            return None
        return self.ranks.index(r)

    def constant(self, f, e, what: str):
        try:
            v = f(_Probe(), None)
        except Exception:
            self.out.error(e.loc, f"{what} must be a number or a named value")
            return None
        if not isinstance(v, int) or isinstance(v, bool):
            self.out.error(e.loc, f"{what} must be a number or a named value")
            return None
        return v

    def check_number(self, f, e, what: str, lo: int, hi: int):
        try:
            v = f(_Probe(), None)
        except Exception:
            return                      # it depends on the deal: the engine bounds it
        if not isinstance(v, int) or not lo <= v <= hi:
            self.out.error(e.loc, f"{what} must be a number from {lo} to {hi}, not {v}")

    def contract_index(self, name: str, loc):
        for i, c in enumerate(self.ladder):
            if c.name == name:
                return i
        self.out.error(loc, f"there is no contract `{name}` in the ladder", did_you_mean(name, [c.name for c in self.ladder]))
        return None

    def check_never_biddable(self, it):
        rank = {c.name: i for i, c in enumerate(self.ladder)}
        name, e = it.body.args["contract"], it.body.args["expr"]
        for below in _highest_bid_must_be(e):
            if below in rank and rank[below] >= rank[name]:
                self.out.error(e.loc, f"`{name}` can never be bid: a bid must be above the highest bid, "
                               f"and `{below}` is not below `{name}` in the ladder")

    def need_declarer(self, it):
        if not self.has_declarer:
            self.out.error(it.body.loc, "this rule speaks of a declarer, but no auction makes one",
                           "declarers come from an auction with numbers or a ladder")


class _Probe:
    """A stand-in state for values that must not depend on the deal."""

    def __getattr__(self, name):
        raise AttributeError(name)


def _compile(m: Merged, out: Collector) -> Game | None:
    head = m.head
    tables_path = next((str(Path(f.path).parent / f.tables) for f in reversed(m.files) if f.tables), head.path)
    if not check_schema(m.tables, m.positions, tables_path, out):
        return None
    t = m.tables
    ranks, suits = [str(r) for r in t["ranks"]], list(t["suits"])
    points = t.get("points", {})
    card_points = []
    for s in suits:
        for r in ranks:
            v = points.get(r + s, points.get(s, points.get(r, 0)))
            card_points.append(int(v))
    b = Builder(out, head, t, m.positions, tables_path, suits, ranks, card_points)
    by_kind: dict = {}
    for it in m.items:
        by_kind.setdefault(it.body.kind, []).append(it)
    for kind in sorted(SINGLE):
        its = by_kind.get(kind, [])
        for extra in its[1:]:
            first = its[0]
            if first.loc.path != extra.loc.path:      # a rule of the base: replace it instead
                out.error(extra.loc, f"a second `{kind.replace('_', ' ')}` rule (`{extra.name}`); "
                          f"`{first.name}` (line {first.loc.line} of {Path(first.loc.path).name}) already says it",
                          f"write `replace {first.name}: …` to change it")
                continue
            out.error(extra.loc, f"a second `{kind.replace('_', ' ')}` rule (`{extra.name}`); "
                      f"`{first.name}` at line {first.loc.line} already says it")
    for kind, what in REQUIRED.items():
        if kind not in by_kind:
            out.error(head.loc, f"the spec does not say {what}")
    bid_kinds = [k for k in ("numeric_bids", "ladder_bids", "exact_bids") if k in by_kind]
    if len(bid_kinds) > 1:
        what = {"numeric_bids": "numbers", "ladder_bids": "contracts of the ladder",
                "exact_bids": "one number from each seat"}
        out.error(by_kind[bid_kinds[1]][0].loc, f"bids are either {what[bid_kinds[0]]} or "
                  f"{what[bid_kinds[1]]}, not both")
    auction_kind = {"numeric_bids": "numeric", "ladder_bids": "ladder", "exact_bids": "exact"}.get(
        bid_kinds[0] if bid_kinds else "", "")
    b.has_declarer = auction_kind in ("numeric", "ladder")
    auction_items = [it for it in m.items if it.section == "auction"]
    if auction_items and not bid_kinds:
        out.error(head.loc, "the spec does not say what a bid is",
                  "add to the auction section `bids: a bid is a number from N, above the highest bid`, "
                  "`bids: a bid is a contract from the ladder, above the highest bid` or "
                  "`bids: each seat bids once: a number from 0, at most hand size`")
    if auction_kind in ("numeric", "ladder") and "all_pass" not in by_kind and "opener_bids" not in by_kind:
        out.warn(head.loc, "no rule says what happens when every seat passes: the deal is annulled",
                 "add to the auction section `all-pass: when every seat passes without a bid, the deal is annulled`")
    b.no_trumps_winner = any(not it.body.args.get("trumps", True) for it in by_kind.get("trick_winner", []))
    b.trick_winner_name = by_kind["trick_winner"][0].name if by_kind.get("trick_winner") else ""
    # the ladder: its goals are bounded by the hand size
    static_hand = _static_hand(by_kind)
    names_seen = set()
    for i, row in enumerate(t.get("ladder") or []):
        name = row["name"]
        loc = m.positions.find(("ladder", i, "name", "$value"), Location(tables_path))
        if name in names_seen:
            out.error(loc, f"the ladder has two contracts named `{name}`")
        names_seen.add(name)
        cols = {k: v for k, v in row.items() if isinstance(v, (bool, int)) and k != "name"}
        cols.setdefault("least", 0)
        cols.setdefault("most", static_hand if static_hand is not None else 1000)
        for k, v in cols.items():
            b.ladder_columns.setdefault(k, BOOL if isinstance(v, bool) else NUM)
        b.ladder.append(Contract(name, row.get("title", name), row.get("partner", ""),
                                 cols["least"], cols["most"], row["trumps"], row["unit"], cols))
    if t.get("ladder") and "ladder_bids" not in by_kind:
        out.warn(m.positions.find(("ladder",), Location(tables_path)),
                 "the tables have a ladder, but no auction bids from it")

    from types import SimpleNamespace
    model = SimpleNamespace(values=b.values, ladder=b.ladder, ladder_columns=b.ladder_columns,
                            auction_kind=auction_kind, deck=(suits, ranks), card_points=card_points,
                            points_mask=sum(1 << c for c, v in enumerate(card_points) if v),
                            melds=[SimpleNamespace(name=it.name) for it in by_kind.get("meld", [])],
                            value_edits={k[1]: loc for k, loc in getattr(m, "edits", {}).items()
                                         if len(k) == 2 and k[0] == "values"})
    cc = b.cc = Compiler(model, out)
    for k in b.values:
        if k in ("points", "tricks", "score", "passes", "contract", "bid", "declarer", "stock", "closed"):
            out.error(m.positions.find(("values", k), Location(tables_path)),
                      f"`{k}` is a word of the rule language; choose another name for this value")
    g = b.g
    g.update(name=head.name, title=head.title or head.name, path=head.path, suits=tuple(suits),
             ranks=tuple(ranks), card_points=tuple(card_points), values=b.values,
             ladder=tuple(b.ladder), ladder_columns=b.ladder_columns, auction_kind=auction_kind,
             rules={it.name: it for it in m.items}, tables_data=t,
             examples=(str(Path(head.path).parent / head.examples)
                       if head.examples and inside(Path(head.path).parent, head.examples) else ""))
    if head.examples and not g["examples"]:
        out.error(head.loc, f"the examples folder `{head.examples}` is outside the spec's folder",
                  "name a folder beside the spec or below it, without `..` or an absolute path")
    # rules of the players section first (seat counts), then the rest in order,
    # meld modifiers once every meld is defined
    orphans = _rules_naming_removed_rows(m, out)
    first = [it for it in m.items if it.body.kind in ("seats", "partners", "counter")]
    rest = [it for it in m.items if it not in first and it not in orphans]
    deferred = [it for it in rest if getattr(KINDS[it.body.kind], "deferred", False)]
    for it in first + [x for x in rest if x not in deferred] + deferred:
        if it.body.kind == "let" and it.section not in ("scoring",) and it in deferred:
            continue
        KINDS[it.body.kind].compile(it, b)
    melds = []
    for name, md in b.melds.items():
        if md["worth"] is None:
            md["worth"] = lambda st, env: 0
            out.warn(head.loc, f"meld `{name}` has no worth rule: it scores 0",
                     f"add `{name}-worth: a {name} is worth …`")
        melds.append(Meld(**md))
    g["melds"] = tuple(melds)
    g["contract_steps"] = tuple(b.contract_steps)
    g["narrows"] = tuple(b.narrows)
    g["statements"] = tuple(b.statements)
    g["lets"] = tuple(b.lets)
    g["deal_steps"] = tuple(g.get("deal_steps", ()))
    g["counters"] = tuple(g.get("counters", ()))
    g["track"] = frozenset(cc.card_facts)
    # the phases, in the order the spec's sections come
    phases = []
    for it in m.items:
        ph = PHASE_OF_SECTION.get(it.section)
        if ph and ph not in phases and (ph != "contract" or b.contract_steps) and (
                ph != "auction" or auction_kind) and (ph != "exchange" or g.get("exchange")):
            phases.append(ph)
    if "contract" in phases and "auction" in phases and phases.index("contract") < phases.index("auction"):
        out.error(by_kind.get("take_talon", by_kind.get("give", [head]))[0].loc if by_kind.get("take_talon") or by_kind.get("give") else head.loc,
                  "the declarer's steps come after the auction that makes the declarer")
    if b.contract_steps and not b.has_declarer:
        out.error(next(it for it in m.items if it.section == "contract").body.loc,
                  "the declarer's steps need an auction that makes a declarer")
    g["phases"] = tuple(phases) + ("play",)
    if out.errors:
        return None
    try:
        game = Game(**g)
    except (TypeError, ValueError) as e:
        raise RuntimeError(f"compiling {head.name}: {e}") from e   # a bug, not a spec error
    _check_deal(game, by_kind, b, out)
    if out.errors:
        return None
    object.__setattr__(game, "max_points", sum(v for v in card_points if v > 0) + _max_meld_total(game))
    _check_unreachable(by_kind, b, game, out)
    _check_dead_names(b, game, out)
    if "game_end" not in by_kind:
        out.warn(head.loc, "no rule ends the game: only single deals can be played")
    if not by_kind.get("score") and not by_kind.get("set_counter") and not by_kind.get("add_counter"):
        out.warn(head.loc, "no scoring rule: every deal scores zero")
    if out.errors:
        return None
    return game


def _rules_naming_removed_rows(m: Merged, out: Collector) -> list:
    """A variant that takes a row off a table (`remove ladder NAME`) while a rule of its
    base still names that row: the mistake is the variant's, so it is said at the
    variant's line, naming the base's rule and what to do, and that rule is not compiled
    (its errors would point into a base file the user did not write)."""
    orphans = []
    for (table, name), loc in getattr(m, "removed_rows", {}).items():
        word = re.compile(r"(?<![A-Za-z0-9_-])" + re.escape(str(name)) + r"(?![A-Za-z0-9_-])")
        for it in m.items:
            if it.loc.path == loc.path or not word.search(it.text or ""):
                continue
            where = f"{Path(it.loc.path).name}:{it.loc.line}"
            out.error(loc, f"`{name}` is taken off the {table} here, but the rule `{it.name}` of "
                      f"{Path(it.loc.path).stem} names it ({where}: {it.text})",
                      f"remove that rule too (under `{it.section}:`, `remove {it.name}`), or replace it "
                      f"with a wording that does not name `{name}`")
            if it not in orphans:
                orphans.append(it)
    return orphans


def _static_hand(by_kind):
    total = 0
    for it in by_kind.get("deal_rounds", []):
        r = it.body.args["rounds"]
        if not isinstance(r, int):
            return None
        total += r * it.body.args["cards"]
    return total


def _max_meld_total(game) -> int:
    """The most all melds could add to one seat: each meld once in every suit, at its
    best worth over every choice of trumps."""
    from ..engine.env import Env
    total = 0
    n = game.default_seats or game.seat_counts[0]
    probe = game.new_deal(n, 0)
    for m in game.melds:
        for suit in range(game.n_suits):
            best = 0
            for t in range(-1, game.n_suits):
                probe.trumps = t
                try:
                    v = m.worth(probe, Env(0, suit))
                    best = max(best, int(v) if isinstance(v, int) else 0)
                except Exception:
                    pass
            total += best
    return min(total, 10_000_000)


def _check_deal(game, by_kind, b, out):
    """The deal must fit the deck for every number of seats (and every deal number
    where the rounds depend on it); hands must be equal when the play starts."""
    rules = by_kind.get("deal_rounds", [])
    if not rules:
        return
    loc = rules[-1].loc
    dynamic = any(not isinstance(st.rounds, int) for st in game.deal_steps)
    deck = game.n_cards
    for n in game.seat_counts:
        for number in (range(1, 41) if dynamic else (1,)):
            d = game.new_deal(n, 0, None, number)
            if number > 1 and game.game_end is not None and _ends_before(game, n, number):
                break
            k = d.n_active
            counts = [st.rounds if isinstance(st.rounds, int) else _dyn(st.rounds, d) for st in game.deal_steps]
            need = sum(r * (st.each * k + st.to_talon) for r, st in zip(counts, game.deal_steps))
            when = f"with {k} active seats" + (f", in deal {number}," if dynamic else "")
            if need > deck:
                out.error(loc, f"{when} the deal needs {need} cards, but the deck has {deck}")
                return
            if need < deck and not game.stock:
                out.error(loc, f"{when} the deal leaves {deck - need} of {deck} cards undealt",
                          "deal them to the seats or to the talon")
                return
            hand = sum(r * st.each for r, st in zip(counts, game.deal_steps))
            talon = sum(r * st.to_talon for r, st in zip(counts, game.deal_steps))
            stock = deck - need
            if not _equal_hands(game, by_kind, hand, talon, k, out):
                return
            if game.draw and stock % k:
                out.error(by_kind["draw"][0].body.loc, f"{when} the stock of {stock} cards cannot be drawn evenly by {k} seats")
                return
            if game.face_up in ("stock-top", "stock-bottom") and stock == 0:
                out.error(by_kind["face_up"][0].body.loc, f"{when} there is no stock to turn a card from")
                return
            if game.exchange and game.exchange[0] > hand and any(game.exchange[1]):
                out.error(by_kind["pass_cards"][0].body.loc, f"{when} a seat holds {hand} cards and cannot pass {game.exchange[0]}")
                return
    kinds = [s[0] for s in game.contract_steps]
    talon = sum((st.rounds if isinstance(st.rounds, int) else 0) * st.to_talon for st in game.deal_steps)
    if talon and "take_talon" not in kinds and "show_talon" not in kinds:
        out.warn(b.head.loc, "cards are dealt to the talon, but no rule says what becomes of them")
    if "take_talon" in kinds and not talon and not dynamic:
        out.error(by_kind["take_talon"][0].loc, "the declarer takes the talon, but no cards are dealt to it")
    if game.ladder:
        hand = _static_hand(by_kind)
        for i, c in enumerate(game.ladder):
            at = lambda *k: b.positions.find(("ladder", i) + k, Location(b.tables_path))
            if c.trumps == "chosen" and "trumps" not in kinds:
                out.error(at("trumps", "$value"),
                          f"`{c.name}` has trumps chosen by the declarer, but no rule lets the declarer name trumps",
                          "add to the contract section: `name-trumps: the declarer names trumps: a suit`")
            if c.partner == "seeks" and not any(x.partner == "joins" for x in game.ladder):
                out.error(at("partner", "$value"), f"`{c.name}` seeks a partner, but no contract of the ladder joins one")
            if hand is not None and (c.least > hand or c.most > hand):
                edit = b.positions.get(("ladder", i, "least" if c.least > hand else "most", "$value"))
                out.error(edit if edit is not None and edit.path.endswith(".talon") else at(),
                          f"`{c.name}` asks for more tricks than the {hand} there are")
            if c.trumps == "exposed" and not game.face_up:
                out.error(at("trumps", "$value"), f"`{c.name}` plays in the exposed suit, but no card is dealt face up")


def _ends_before(game, n, number) -> bool:
    """The game is sure to end before deal `number` (its end rule holds after the deal
    before it, whatever the scores): that deal is never dealt."""
    from ..engine.env import EMPTY
    probe = game.new_deal(n, 0, None, number - 1)
    try:
        return bool(game.game_end(probe, EMPTY))
    except Exception:
        return False


def _dyn(f, d) -> int:
    try:
        v = int(f(d, None))
    except Exception:
        return 0
    return max(0, min(v, d.game.n_cards))


def _equal_hands(game, by_kind, hand, talon, n, out) -> bool:
    """Every seat must hold as many cards as the others when the play starts: a seat with
    no card left could not play to a trick (the deal would never end)."""
    kinds = [s[0] for s in game.contract_steps]
    gives = game.contract_steps[kinds.index("give")][1] if "give" in kinds else 0
    taken = talon if "take_talon" in kinds else 0
    rule = (by_kind.get("give") or by_kind.get("take_talon") or [None])[0]
    if rule is None or not hand:
        return True
    declarer = hand + taken - gives * (n - 1)
    defender = hand + gives
    if declarer != defender:
        how = (f"the declarer takes {taken} talon card{'s' if taken != 1 else ''}" if taken else "")
        how += (" and " if taken and gives else "") + (f"gives {gives} to each of {n - 1} defenders" if gives else "")
        out.error(rule.body.loc, f"with {n} active seats the declarer would play with {declarer} cards "
                  f"and each defender with {defender}: every seat must hold as many cards as the others",
                  f"{how}; make the gifts equal the cards taken" if how else "")
        return False
    return True


def _very_close(name: str, candidates) -> str:
    import difflib
    close = difflib.get_close_matches(name, [str(c) for c in candidates], n=1, cutoff=0.85)
    return close[0] if close else ""


def _check_unreachable(by_kind: dict, b, game, out: Collector):
    """Rules that can never apply, or that contradict another rule."""
    if b.no_trumps_winner:
        for it in by_kind.get("name_trumps", []):
            out.warn(it.body.loc, f"trumps never win a trick here (`{by_kind['trick_winner'][0].name}` "
                     "says the highest card of the suit led wins), so this rule has no effect")
    for it in b.dealer_statements:
        if not game.sit_out_when and "dealer sits out" in it.text:
            out.warn(it.body.loc, "the dealer never sits out in this game, so this never applies")


# Names that say something only where a mechanism exists: without it they never change.
_NEEDS = {
    "blind": ("blind", "no rule lets a seat bid blind (`a seat may bid blind until it looks at its cards`)"),
    "abandoned": ("abandon", "no rule lets the declarer abandon the deal"),
    "closed": ("close", "no rule lets the leader close the stock"),
    "closer": ("close", "no rule lets the leader close the stock"),
    "tricks at the close": ("close", "no rule lets the leader close the stock"),
    "dealer sits out": ("sit_out_when", "the dealer never sits out (no `the dealer sits out when …` rule)"),
    "stock": ("stock", "no rule forms a stock"),
}


def _check_dead_names(b, game, out):
    """A formula that reads a name whose mechanism the spec lacks (often a rule a variant
    removed): the name never changes, so the rule it stands in is dead or always on."""
    kinds = {s[0] for s in game.contract_steps}
    for name, loc in b.cc.names_used.items():
        need = _NEEDS.get(name)
        if need is None:
            continue
        flag, why = need
        present = (flag in kinds) if flag == "abandon" else bool(getattr(game, flag, None))
        if not present:
            out.warn(loc, f"`{name}` never changes here: {why}")


def _highest_bid_must_be(e) -> list:
    """Contract names C such that the condition `e` requires `the highest bid is C`."""
    if e.op == "and":
        return [c for x in e.args for c in _highest_bid_must_be(x)]
    if e.op == "cmp" and e.args[0] == "=":
        a, b = e.args[1], e.args[2]
        for x, y in ((a, b), (b, a)):
            if x.op == "name" and y.op == "name" and x.args[0].removeprefix("the ") == "highest bid":
                return [y.args[0].removeprefix("the ")]
    return []


