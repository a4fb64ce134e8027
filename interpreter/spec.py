"""Stage 2: parsed spec files (a game, or a variant and its bases) -> one checked,
compiled ``Game``. Every problem found is collected with its file, line and column."""
from __future__ import annotations

import copy
import os
from pathlib import Path
from types import SimpleNamespace

from .engine import Contract, Game, Meld
from .errors import Collector, Location, SpecError, TalonError, did_you_mean
from .expr import BOOL, NUM, Compiler, Scope
from .resources import specs_dir
from .syntax import BODY_SECTION, SECTIONS, Item, SpecFile, parse
from .tables import Positions, check_schema, load_yaml

MAX_SPEC_BYTES = 256_000
MAX_CHAIN = 16

# Rules of which a spec may have at most one.
SINGLE = {"seats", "sit_out", "start_score", "rotation", "face_up", "opener", "numeric_bids",
          "ladder_bids", "pass_final", "reopen", "unpartnered", "all_pass", "blind_bidding",
          "first_lead", "trick_winner", "open_hand", "concede", "deal_points", "made",
          "game_end", "winners"}
REQUIRED = {"seats": "how many seats play (`seats: 3 seats`)",
            "deal_rounds": "how the cards are dealt (`deal-rounds: 8 rounds of 1 card to each seat`)",
            "trick_winner": "who wins a trick (`trick-winner: the highest trump wins, else the highest card of the suit led`)"}


def resolve(ref: str) -> Path:
    """A spec named by its name (a file of specs/) or by path."""
    p = Path(ref)
    if p.suffix == ".talon" or os.sep in ref or "/" in ref:
        return p
    cand = specs_dir() / f"{ref}.talon"
    return _short(cand) if cand.exists() or not p.exists() else p


def _short(p: Path) -> Path:
    """A path relative to the working folder where it is inside it (for messages)."""
    try:
        return p.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return p


def bundled_names() -> list:
    return sorted(p.stem for p in specs_dir().glob("*.talon"))


def read_text(path: Path, out: Collector, what: str = "spec file", at: Location | None = None) -> str | None:
    loc = at or Location(str(path))
    try:
        if path.is_dir():
            out.error(loc, f"`{path}` is a folder, not a {what}")
            return None
        if path.exists() and not path.is_file():
            out.error(loc, f"`{path}` is not a regular file")
            return None
        with open(path, "rb") as fh:       # bounded: never read more than the limit
            data = fh.read(MAX_SPEC_BYTES + 1)
    except FileNotFoundError:
        hint = ""
        if what == "spec file":
            hint = did_you_mean(path.stem, bundled_names()) or ("bundled specs: " + ", ".join(bundled_names()))
        out.error(loc, f"no such {what}: `{path}`", hint)
        return None
    except OSError as e:
        out.error(loc, f"cannot read `{path}`: {e.strerror}")
        return None
    if len(data) > MAX_SPEC_BYTES:
        out.error(Location(str(path)), f"the {what} is too large (more than {MAX_SPEC_BYTES} bytes)")
        return None
    if b"\x00" in data:
        nul = data.index(b"\x00")
        out.error(Location(str(path), data[:nul].count(b"\n") + 1, nul - (data.rfind(b"\n", 0, nul) + 1) + 1),
                  f"the {what} is binary, not text")
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        out.error(Location(str(path), line, col), f"the {what} is not UTF-8 text (byte {e.start} cannot be read)",
                  "save the file as UTF-8")
        return None


class Merged:
    """A spec with its bases applied: the ordered rules and the tables."""

    def __init__(self):
        self.items: list = []         # rule Items in section order
        self.tables: dict | None = None
        self.positions = Positions()
        self.files: list = []         # SpecFiles, base first
        self.head: SpecFile | None = None


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


def _load_chain(path: str, out: Collector, chain: list, at: Location | None = None) -> Merged | None:
    real = os.path.realpath(path)
    if real in chain:
        out.error(at or Location(path), "the spec extends itself through " +
                  " -> ".join(Path(p).name for p in chain + [real]))
        return None
    if len(chain) >= MAX_CHAIN:
        out.error(at or Location(path), f"variants are nested more than {MAX_CHAIN} deep")
        return None
    text = read_text(Path(path), out, at=at)
    if text is None:
        return None
    sf = parse(text, path, out)
    if sf is None:
        return None
    base_dir = Path(path).parent
    if sf.kind == "game" and sf.extends:
        out.error(sf.extends_loc, "only a `variant` can extend another spec",
                  "start the file with `variant NAME` instead of `game NAME`")
        sf.kind = "variant"     # read on as the variant it means to be: the rest is checked once
    if sf.kind == "variant":
        if not sf.extends:
            out.error(sf.loc, f"variant `{sf.name}` does not say which spec it extends",
                      "add a line `extends BASE` under the `variant` line")
            return None
        base_path = resolve(sf.extends) if "/" not in sf.extends else base_dir / sf.extends
        if not base_path.exists() and (base_dir / f"{sf.extends}.talon").exists():
            base_path = base_dir / f"{sf.extends}.talon"
        if not base_path.exists():
            known = sorted({p.stem for p in base_dir.glob("*.talon")} | set(bundled_names()))
            out.error(sf.extends_loc, f"there is no spec `{sf.extends}` to extend",
                      did_you_mean(sf.extends, known) or "bundled specs: " + ", ".join(bundled_names()))
            return None
        base = _load_chain(str(base_path), out, chain + [real], sf.extends_loc)
        if base is None:
            return None
        m = base
        m.tables = copy.deepcopy(base.tables)
    else:
        if sf.extends:
            out.error(sf.extends_loc, "only a `variant` can extend another spec",
                      "start the file with `variant NAME` instead of `game NAME`")
        m = Merged()
        if not sf.tables:
            out.error(sf.loc, f"game `{sf.name}` names no tables file", 'add a line `tables "NAME.yaml"`')
    m.files.append(sf)
    m.head = sf
    if sf.tables:
        tpath = base_dir / sf.tables
        ttext = read_text(tpath, out, "table file", sf.tables_loc)
        if ttext is not None:
            data, pos = load_yaml(ttext, str(tpath), out)
            out.sources[str(tpath)] = ttext
            if data is not None and not isinstance(data, dict):
                out.error(Location(str(tpath), 1, 1), "a table file must be a mapping (`suits:`, `ranks:` …)")
                data = None
            if data is not None:
                if m.tables is None:
                    m.tables = data
                else:
                    _merge_tables(m.tables, data)
                m.positions.update(pos)
    _apply_items(m, sf, out)
    return m


def _merge_tables(base: dict, over: dict):
    """A variant's table file overrides the base entry by entry; ladder rows merge by
    name; a null value removes the entry."""
    for k, v in over.items():
        if v is None:
            base.pop(k, None)
        elif k == "ladder" and isinstance(v, list) and isinstance(base.get(k), list):
            rows = {r.get("name"): r for r in base[k] if isinstance(r, dict)}
            for r in v:
                if isinstance(r, dict) and r.get("name") in rows:
                    if r.get("remove"):
                        base[k].remove(rows[r["name"]])
                    else:
                        rows[r["name"]].update({a: b for a, b in r.items()})
                else:
                    base[k].append(r)
        elif isinstance(v, dict) and isinstance(base.get(k), dict):
            _merge_tables(base[k], v)
        else:
            base[k] = v


def _apply_items(m: Merged, sf: SpecFile, out: Collector):
    names = {it.name: i for i, it in enumerate(m.items)}
    base_name = m.files[-2].name if len(m.files) > 1 else ""
    for it in sf.items:
        if it.action in ("set", "remove_entry"):
            _table_edit(m, it, base_name, out)
            continue
        if it.body is not None and it.action != "remove":
            want = BODY_SECTION.get(it.body.kind)
            if want and want != it.section and it.action != "replace":
                out.error(it.body.loc, f"this rule belongs in the `{want}` section, not `{it.section}`")
        if it.action == "rule":
            if it.name in names:
                prev = m.items[names[it.name]]
                if sf.kind == "variant" and prev.loc.path != sf.path:
                    out.error(it.loc, f"`{it.name}` is already a rule of {base_name}",
                              f"write `replace {it.name}: …` to change it, or choose another name")
                else:
                    out.error(it.loc, f"two rules are named `{it.name}`",
                              f"the first is at line {prev.loc.line}")
                continue
            names[it.name] = len(m.items)
            m.items.append(it)
        elif it.action == "add":
            if it.name in names:
                out.error(it.loc, f"`{it.name}` is already a rule" + (f" of {base_name}" if base_name else ""),
                          f"write `replace {it.name}: …` to change it")
                continue
            idx = len(m.items)
            sec_idx = [i for i, x in enumerate(m.items) if x.section == it.section]
            if sec_idx:
                idx = sec_idx[-1] + 1
            else:
                order = SECTIONS.index(it.section)
                later = [i for i, x in enumerate(m.items) if SECTIONS.index(x.section) > order]
                idx = later[0] if later else len(m.items)
            if it.position:
                where, ref, ref_loc = it.position
                if ref not in names:
                    out.error(ref_loc, f"there is no rule `{ref}` to add `{it.name}` {where}" +
                              (f" in {base_name}" if base_name else ""), did_you_mean(ref, names))
                    continue
                idx = names[ref] + (1 if where == "after" else 0)
            m.items.insert(idx, Item("rule", it.name, it.clauses, it.body, it.section, it.loc))
            names = {x.name: i for i, x in enumerate(m.items)}
        elif it.action == "replace":
            if it.name not in names:
                out.error(it.loc, f"{base_name or 'this spec'} has no rule `{it.name}` to replace",
                          did_you_mean(it.name, names))
                continue
            prev = m.items[names[it.name]]
            want = BODY_SECTION.get(it.body.kind)
            if want and want != prev.section:
                out.error(it.body.loc, f"`{it.name}` is a rule of the `{prev.section}` section; "
                          f"this body belongs in `{want}`")
            m.items[names[it.name]] = Item("rule", it.name, it.clauses or prev.clauses, it.body,
                                           prev.section, it.loc)
        elif it.action == "remove":
            if it.name not in names:
                out.error(it.loc, f"{base_name or 'this spec'} has no rule `{it.name}` to remove",
                          did_you_mean(it.name, names))
                continue
            del m.items[names[it.name]]
            names = {x.name: i for i, x in enumerate(m.items)}


def _table_edit(m: Merged, it: Item, base_name: str, out: Collector):
    if m.tables is None:
        return
    keys = list(it.keys)
    node = m.tables
    where = base_name or "the tables"
    for depth, k in enumerate(keys[:-1]):
        if isinstance(node, list):
            rows = {r.get("name"): r for r in node if isinstance(r, dict)}
            if k not in rows:
                out.error(it.loc, f"{where} has no `{k}` in `{'.'.join(keys[:depth])}`", did_you_mean(k, rows))
                return
            node = rows[k]
        elif isinstance(node, dict):
            if k not in node:
                out.error(it.loc, f"{where} has no table entry `{'.'.join(keys[:depth + 1])}`",
                          did_you_mean(k, node))
                return
            node = node[k]
        else:
            out.error(it.loc, f"`{'.'.join(keys[:depth])}` is a single value, not a table")
            return
    if not isinstance(node, (dict, list)):
        out.error(it.loc, f"`{'.'.join(keys[:-1])}` is a single value, not a table")
        return
    last = keys[-1]
    if it.action == "set":
        if isinstance(node, list):
            out.error(it.loc, f"set a field of one entry: `set {' '.join(keys)} FIELD to VALUE`")
            return
        if isinstance(node, dict) and last not in node and _very_close(last, node):
            # A new entry is allowed, but one this close to an existing one is likely a typo.
            out.warn(it.loc, f"{where} has no `{last}` in `{'.'.join(keys[:-1])}`: this adds it",
                     f"did you mean `{_very_close(last, node)}`?")
        node[last] = it.value
        m.positions[tuple(keys) + ("$value",)] = it.loc
    else:
        if isinstance(node, list):
            for r in node:
                if isinstance(r, dict) and r.get("name") == last:
                    node.remove(r)
                    return
            out.error(it.loc, f"{where} has no `{last}` in `{'.'.join(keys[:-1])}`",
                      did_you_mean(last, [r.get("name") for r in node if isinstance(r, dict)]))
        elif isinstance(node, dict) and last in node:
            del node[last]
        else:
            out.error(it.loc, f"{where} has no table entry `{'.'.join(keys)}`",
                      did_you_mean(last, node if isinstance(node, dict) else []))


# --------------------------------------------------------------------- compile
def _compile(m: Merged, out: Collector) -> Game | None:
    head = m.head
    tables_path = next((str(Path(f.path).parent / f.tables) for f in reversed(m.files) if f.tables), head.path)
    if not check_schema(m.tables, m.positions, tables_path, out):
        return None
    t = m.tables
    ranks, suits = [str(r) for r in t["ranks"]], list(t["suits"])
    points = t.get("points", {})
    card_points = [int(points.get(r, 0)) for s in suits for r in ranks]
    values = dict(t.get("values", {}))
    by_kind: dict = {}
    for it in m.items:
        by_kind.setdefault(it.body.kind, []).append(it)
    for kind in SINGLE:
        its = by_kind.get(kind, [])
        for extra in its[1:]:
            out.error(extra.loc, f"a second `{kind.replace('_', ' ')}` rule (`{extra.name}`); "
                      f"`{its[0].name}` at line {its[0].loc.line} already says it")
    if "numeric_bids" in by_kind and "ladder_bids" in by_kind:
        out.error(by_kind["ladder_bids"][0].loc, "bids are either numbers or contracts of the ladder, not both")
    for kind, what in REQUIRED.items():
        if kind not in by_kind:
            out.error(head.loc, f"the spec does not say {what}")
    _check_auction(by_kind, head, out)
    ladder_rows = t.get("ladder") or []
    ladder_kind = "ladder" if "ladder_bids" in by_kind else "numeric"
    if ladder_kind == "ladder" and not ladder_rows:
        out.error(by_kind["ladder_bids"][0].loc, "bids come from the ladder, but the tables have no `ladder`")

    # Deal pattern first: the number of tricks bounds the ladder's goals.
    steps = [(b.args["rounds"], b.args["cards"], b.args["talon"]) for b in (it.body for it in by_kind.get("deal_rounds", []))]
    hand_size = sum(r * c for r, c, _ in steps)
    ladder = []
    names_seen = set()
    columns: dict = {"unit": NUM, "least": NUM, "most": NUM}
    for i, row in enumerate(ladder_rows):
        name = row["name"]
        loc = m.positions.find(("ladder", i, "name", "$value"), Location(tables_path))
        if name in names_seen:
            out.error(loc, f"the ladder has two contracts named `{name}`")
        names_seen.add(name)
        cols = {k: v for k, v in row.items() if isinstance(v, (bool, int)) and k != "name"}
        cols.setdefault("least", 0)
        cols.setdefault("most", hand_size)
        for k, v in cols.items():
            columns.setdefault(k, BOOL if isinstance(v, bool) else NUM)
        ladder.append(Contract(name, row.get("title", name), row.get("partner", ""),
                               cols["least"], cols["most"], row["trumps"], row["unit"], cols))

    ns = SimpleNamespace(values=values, ladder=ladder, ladder_columns=columns, auction_kind=ladder_kind)
    cc = Compiler(ns, out)
    for k in values:
        if k in ("points", "tricks", "score", "passes", "contract", "bid", "declarer"):
            out.error(m.positions.find(("values", k), Location(tables_path)),
                      f"`{k}` is a word of the rule language; choose another name for this value")

    g = dict(name=head.name, title=head.title or head.name, path=head.path, suits=suits,
             ranks=ranks, card_points=card_points, values=values, ladder=ladder,
             ladder_columns=columns, auction_kind=ladder_kind, deal_steps=steps,
             rules={it.name: it for it in m.items}, tables_data=t,
             examples=str(Path(head.path).parent / head.examples) if head.examples else "")
    contract_steps = []
    score_rules = []
    melds: dict = {}
    meld_mods: list = []
    deal_scope = Scope("deal")
    seat_scope = Scope("deal", seat=True)
    for it in m.items:
        b = it.body
        k, a = b.kind, b.args
        if k == "seats":
            bad = [n for n in a["counts"] if not 2 <= n <= 8]
            if bad:
                out.error(b.loc, f"a table seats 2 to 8 players, not {bad[0]}")
            g["seat_counts"] = tuple(n for n in a["counts"] if 2 <= n <= 8) or (2,)
        elif k == "sit_out":
            g["sit_out_when"] = a["when_seats"]
        elif k == "start_score":
            _, f = cc.compile(a["expr"], Scope("deal"), NUM)
            if f:
                try:
                    g["start_score"] = f(SimpleNamespace(), None)
                except Exception:
                    out.error(b.loc, "the starting score must be a number or a named value")
        elif k == "rotation":
            g["direction"] = 1 if a["direction"] == "left" else -1
        elif k == "face_up":
            g["face_up"] = True
        elif k == "opener":
            g["opener"] = a["seat"]
            if a["seat"] == "declarer":
                out.error(b.loc, "there is no declarer before the auction ends")
        elif k == "numeric_bids":
            _, g["min_bid"] = cc.compile(a["expr"], Scope("auction"), NUM)
            _check_min_bid(g["min_bid"], a["expr"], out)
        elif k == "bid_condition":
            idx = _contract_index(ladder, a["contract"], b, out)
            if idx is not None:
                _, f = cc.compile(a["expr"], Scope("auction"), BOOL)
                if idx in g.setdefault("bid_conditions", {}):
                    prev = g["bid_conditions"][idx]
                    g["bid_conditions"][idx] = (lambda p, q: lambda st, env: p(st, env) and q(st, env))(prev, f) if f else prev
                elif f:
                    g["bid_conditions"][idx] = f
        elif k == "pass_final":
            g["pass_final"] = True
        elif k == "reopen":
            idxs = [_contract_index(ladder, n, b, out) for n in a["contracts"]]
            _, f = cc.compile(a["expr"], Scope("auction"), BOOL)
            if f and None not in idxs:
                g["reopen"] = (frozenset(idxs), f)
        elif k == "unpartnered":
            g["unpartnered"] = True
        elif k == "blind_bidding":
            g["blind"] = True
        elif k in ("show_talon", "abandon", "take_talon", "name_contract"):
            contract_steps.append(({"name_contract": "contract"}.get(k, k), None))
            if k == "name_contract" and ladder_kind != "numeric":
                out.error(b.loc, "the declarer names a number only where bids are numbers")
        elif k == "name_trumps":
            contract_steps.append(("trumps", a["allow_none"]))
        elif k == "give":
            contract_steps.append(("give", a["cards"]))
        elif k == "first_lead":
            f = None
            if a["expr"] is not None:
                _, f = cc.compile(a["expr"], deal_scope, BOOL)
            g["first_lead"] = (a["seat"], f, a["otherwise"])
        elif k == "follow":
            g["follow"] = g.get("follow", ()) + (a["cards"],)
        elif k == "trick_winner":
            g["trick_trumps"] = a["trumps"]
        elif k in ("open_hand", "concede"):
            f = True
            if a["expr"] is not None:
                _, f = cc.compile(a["expr"], deal_scope, BOOL)
            g[k] = f
            if k == "concede" and not ladder:
                out.error(b.loc, "conceding needs contracts with trick goals (a ladder with least/most)")
        elif k == "meld":
            rk = []
            for r, rloc in zip(a["ranks"], a.get("rank_locs") or [b.loc] * len(a["ranks"])):
                r = "10" if r == "T" else r
                if r not in ranks:
                    out.error(rloc, f"`{r}` is not a rank of this deck ({' '.join(ranks)})")
                else:
                    rk.append(ranks.index(r))
            if len(set(rk)) != len(rk):
                out.error(b.loc, "a meld names the same rank twice")
            melds[it.name] = Meld(it.name, tuple(rk), None, None)
        elif k in ("meld_worth", "meld_counts", "meld_trumps"):
            meld_mods.append(it)
        elif k == "deal_points":
            _, g["deal_points"] = cc.compile(a["expr"], seat_scope, NUM)
        elif k == "made":
            _, g["made"] = cc.compile(a["expr"], deal_scope, BOOL)
        elif k == "let":
            if a["name"] in cc.lets or a["name"] in values:
                out.error((a.get("name_locs") or [b.loc])[0], f"`{a['name']}` is already defined")
            t2, f = cc.compile(a["expr"], seat_scope)
            if f:
                cc.lets[a["name"]] = (t2, f)
        elif k == "score":
            when = None
            if a["when"] is not None:
                _, when = cc.compile(a["when"], deal_scope, BOOL)
            _, f = cc.compile(a["expr"], seat_scope, NUM)
            if f:
                score_rules.append((when, a["payee"], f))
        elif k == "game_end":
            _, g["game_end"] = cc.compile(a["expr"], Scope("end"), BOOL)
        elif k == "winners":
            kind, e = a["set"]
            f = None
            if e is not None:
                _, f = cc.compile(e, Scope("end", seat=True), BOOL)
            g["winner_set"] = (kind, f)
            prefs = []
            for pk, pe in a["prefer"]:
                pf = None
                if pe is not None:
                    _, pf = cc.compile(pe, Scope("end", seat=True), NUM)
                prefs.append((pk, pf))
            g["winner_prefs"] = tuple(prefs)
    for it in meld_mods:
        b = it.body
        name = b.args["meld"]
        meld = melds.get(name)
        if meld is None:
            out.error((b.args.get("name_locs") or [b.loc])[0], f"there is no meld `{name}`", did_you_mean(name, melds) or
                      "define it first: `NAME: meld of K and Q of one suit, announced when leading one of them`")
            continue
        if b.kind == "meld_worth":
            _, meld.worth = cc.compile(b.args["expr"], Scope("meld", seat=True, meld=True), NUM)
        elif b.kind == "meld_counts":
            _, meld.counts = cc.compile(b.args["expr"], Scope("meld", seat=True, meld=True), BOOL)
        else:
            meld.makes_trumps = True
    for meld in melds.values():
        if meld.worth is None:
            meld.worth = lambda st, env: 0
            out.warn(m.head.loc, f"meld `{meld.name}` has no worth rule: it scores 0",
                     f"add `{meld.name}-worth: a {meld.name} is worth …`")
    g["melds"] = list(melds.values())
    g["contract_steps"] = contract_steps
    g["score_rules"] = score_rules
    if ladder_kind == "numeric" and "numeric_bids" in by_kind and g.get("min_bid") is None:
        return None
    # Semantic checks across rules.
    if steps:
        n_active = _active_counts(g)
        deck = len(suits) * len(ranks)
        for n in n_active:
            need = sum(r * (c * n + tl) for r, c, tl in steps)
            if need > deck:
                out.error(by_kind["deal_rounds"][-1].loc,
                          f"with {n} active seats the deal needs {need} cards, but the deck has {deck}")
            elif need < deck:
                out.error(by_kind["deal_rounds"][-1].loc,
                          f"with {n} active seats the deal leaves {deck - need} of {deck} cards undealt",
                          "deal them to the seats or to the talon")
    talon = sum(r * tl for r, _, tl in steps)
    kinds = [s[0] for s in contract_steps]
    if talon and "take_talon" not in kinds and "show_talon" not in kinds:
        out.warn(head.loc, "cards are dealt to the talon, but no rule says what becomes of them")
    if "take_talon" in kinds and not talon:
        out.error(by_kind["take_talon"][0].loc, "the declarer takes the talon, but no cards are dealt to it")
    _check_hand_sizes(by_kind, kinds, contract_steps, hand_size, talon, _active_counts(g), out)
    if ladder:
        for i, c in enumerate(ladder):
            if c.trumps == "chosen" and "trumps" not in kinds:
                out.error(m.positions.find(("ladder", i, "trumps", "$value"), Location(tables_path)),
                          f"`{c.name}` has trumps chosen by the declarer, but no rule lets the declarer name trumps",
                          "add to the contract section: `name-trumps: the declarer names trumps: a suit`")
            if c.partner == "seeks" and not any(x.partner == "joins" for x in ladder):
                out.error(m.positions.find(("ladder", i, "partner", "$value"), Location(tables_path)),
                          f"`{c.name}` seeks a partner, but no contract of the ladder joins one")
            if c.least > hand_size or c.most > hand_size:
                out.error(m.positions.find(("ladder", i), Location(tables_path)),
                          f"`{c.name}` asks for more tricks than the {hand_size} there are")
            if c.trumps == "exposed" and not g.get("face_up"):
                out.error(m.positions.find(("ladder", i, "trumps", "$value"), Location(tables_path)),
                          f"`{c.name}` plays in the exposed suit, but no card is dealt face up")
    if "game_end" not in by_kind:
        out.warn(head.loc, "no rule ends the game: only single deals can be played")
    if "score" not in by_kind:
        out.warn(head.loc, "no scoring rule: every deal scores zero")
    _check_unreachable(by_kind, ladder, g, out)
    if out.errors:
        return None
    try:
        return Game(**g)
    except (TypeError, ValueError) as e:
        out.error(head.loc, f"the spec is inconsistent: {e}")
        return None


def _check_hand_sizes(by_kind, kinds, contract_steps, hand_size, talon, counts, out: Collector):
    """Every seat must hold as many cards as the others when the play starts: a seat with
    no card left could not play to a trick (the deal would never end)."""
    gives = contract_steps[kinds.index("give")][1] if "give" in kinds else 0
    taken = talon if "take_talon" in kinds else 0
    rule = (by_kind.get("give") or by_kind.get("take_talon") or [None])[0]
    if rule is None or not hand_size:
        return
    for n in counts:
        declarer = hand_size + taken - gives * (n - 1)
        defender = hand_size + gives
        if declarer != defender:
            how = (f"the declarer takes {taken} talon card{'s' if taken != 1 else ''}" if taken else "")
            how += (" and " if taken and gives else "") + (f"gives {gives} to each of {n - 1} defenders" if gives else "")
            out.error(rule.body.loc, f"with {n} active seats the declarer would play with {declarer} cards "
                      f"and each defender with {defender}: every seat must hold as many cards as the others",
                      f"{how}; make the gifts equal the cards taken" if how else "")
            return


def _check_min_bid(f, e, out: Collector):
    """A lowest bid that does not depend on the deal must be a sensible number."""
    if f is None:
        return
    try:
        v = f(SimpleNamespace(), None)
    except Exception:
        return                      # it depends on the deal: the engine bounds it
    if not isinstance(v, int) or not 0 <= v <= 100000:
        out.error(e.loc, f"the lowest bid must be a number from 0 to 100000, not {v}")


def _very_close(name: str, candidates) -> str:
    import difflib
    close = difflib.get_close_matches(name, [str(c) for c in candidates], n=1, cutoff=0.85)
    return close[0] if close else ""


def _check_unreachable(by_kind: dict, ladder: list, g: dict, out: Collector):
    """Rules that can never apply, or that contradict another rule."""
    for it in by_kind.get("sit_out", []):
        n = it.body.args["when_seats"]
        if n not in g.get("seat_counts", ()):
            out.warn(it.body.loc, f"this rule never applies: the game is played by "
                     f"{' or '.join(map(str, g.get('seat_counts', ())))} seats, not {n}")
    no_trumps = [it for it in by_kind.get("trick_winner", []) if not it.body.args.get("trumps")]
    if no_trumps and len(by_kind.get("trick_winner", [])) == 1:
        for it in by_kind.get("follow", []) + by_kind.get("name_trumps", []):
            if it.body.kind == "name_trumps" or it.body.args.get("cards") == "trump":
                out.warn(it.body.loc, f"trumps never win a trick here (`{no_trumps[0].name}` "
                         "says the highest card of the suit led wins), so this rule has no effect")
    seen: dict = {}
    for it in by_kind.get("follow", []):
        cards = it.body.args.get("cards")
        if cards in seen:
            out.warn(it.loc, f"`{it.name}` says what `{seen[cards]}` already says")
        seen.setdefault(cards, it.name)
    rank = {c.name: i for i, c in enumerate(ladder)}
    for it in by_kind.get("bid_condition", []):
        name, e = it.body.args["contract"], it.body.args["expr"]
        if name not in rank:
            continue
        for below in _highest_bid_must_be(e):
            if below in rank and rank[below] >= rank[name]:
                out.error(e.loc, f"`{name}` can never be bid: a bid must be above the highest bid, "
                          f"and `{below}` is not below `{name}` in the ladder")


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


def _check_auction(by_kind: dict, head, out: Collector):
    """The engine's deal runs an auction: a spec must say what a bid is."""
    if "numeric_bids" not in by_kind and "ladder_bids" not in by_kind:
        out.error(head.loc, "the spec does not say what a bid is",
                  "add to the auction section `bids: a bid is a number from N, above the highest bid` "
                  "or `bids: a bid is a contract from the ladder, above the highest bid`")
    if "all_pass" not in by_kind:
        # The engine annuls an auction in which every seat passes; say so in the spec.
        out.warn(head.loc, "no rule says what happens when every seat passes: the deal is annulled",
                 "add to the auction section `all-pass: when every seat passes without a bid, the deal is annulled`")


def _active_counts(g: dict):
    out = []
    for n in g.get("seat_counts", (3,)):
        out.append(n - 1 if g.get("sit_out_when") == n else n)
    return sorted(set(out))


def _contract_index(ladder, name, b, out):
    for i, c in enumerate(ladder):
        if c.name == name:
            return i
    names, locs = b.args.get("contracts") or (b.args.get("contract"),), b.args.get("name_locs", ())
    at = locs[names.index(name)] if name in names and names.index(name) < len(locs) else b.loc
    out.error(at, f"there is no contract `{name}` in the ladder", did_you_mean(name, [c.name for c in ladder]))
    return None
