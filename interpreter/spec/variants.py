"""A spec and its chain of bases: `extends`, rule edits (add, replace, remove) and
table edits (set, remove) applied by name; the YAML tables merged."""
from __future__ import annotations

import os
from pathlib import Path

from ..errors import Collector, Location, did_you_mean
from ..language.read import parse
from ..language.tables import Positions, load_yaml
from ..language.tree import SECTIONS, Item, SpecFile
from ..rules.registry import ANYWHERE, BODY_SECTION
from .files import bundled_names, read_text, resolve

MAX_CHAIN = 16


class Merged:
    """A spec with its bases applied: the ordered rules and the tables."""

    def __init__(self):
        self.items: list = []         # rule Items in section order
        self.tables: dict | None = None
        self.positions = Positions()
        self.edits: dict = {}         # a table entry's keys -> the variant line that set it
        self.removed_rows: dict = {}  # (table, row name) -> the variant line that removed it
        self.files: list = []         # SpecFiles, base first
        self.head: SpecFile | None = None


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
        beside = base_dir / f"{sf.extends}.talon"
        if not base_path.exists() and beside.exists():
            base_path = beside
        elif (base_path.exists() and beside.exists() and os.path.realpath(beside) != real
                and os.path.realpath(beside) != os.path.realpath(base_path)):
            out.warn(sf.extends_loc, f"`{sf.extends}` is the bundled spec; the file `{beside.name}` "
                     "beside this one is not used",
                     "a bundled name comes first: give your own base another name")
        if not base_path.exists():
            known = sorted({p.stem for p in base_dir.glob("*.talon")} | set(bundled_names()))
            out.error(sf.extends_loc, f"there is no spec `{sf.extends}` to extend",
                      did_you_mean(sf.extends, known) or "bundled specs: " + ", ".join(bundled_names()))
            return None
        base = _load_chain(str(base_path), out, chain + [real], sf.extends_loc)
        if base is None:
            return None
        m = base
        import copy                 # only for a variant
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
    if sf.tables and not inside(base_dir, sf.tables):
        out.error(sf.tables_loc, f"the tables file `{sf.tables}` is outside the spec's folder",
                  "a spec's tables file sits in its folder or below it: name it relative to the spec, "
                  "without `..` or an absolute path")
    elif sf.tables and Path(sf.tables).suffix.lower() not in (".yaml", ".yml"):
        out.error(sf.tables_loc, f"`{sf.tables}` is not a tables file: tables are YAML files (`.yaml`)")
    elif sf.tables:
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
            if want and want != it.section and it.action != "replace" and it.body.kind not in ANYWHERE:
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
            m.items.insert(idx, Item("rule", it.name, it.clauses, it.body, it.section, it.loc, text=it.text))
            names = {x.name: i for i, x in enumerate(m.items)}
        elif it.action == "replace":
            if it.name not in names:
                out.error(it.loc, f"{base_name or 'this spec'} has no rule `{it.name}` to replace",
                          did_you_mean(it.name, names))
                continue
            prev = m.items[names[it.name]]
            _other_heading(it, prev, out)
            want = BODY_SECTION.get(it.body.kind)
            if want and want != prev.section and it.body.kind not in ANYWHERE:
                out.error(it.body.loc, f"`{it.name}` is a rule of the `{prev.section}` section; "
                          f"this body belongs in `{want}`")
            m.items[names[it.name]] = Item("rule", it.name, it.clauses or prev.clauses, it.body,
                                           prev.section, it.loc, text=it.text)
        elif it.action == "remove":
            if it.name not in names:
                out.error(it.loc, f"{base_name or 'this spec'} has no rule `{it.name}` to remove",
                          did_you_mean(it.name, names))
                continue
            _other_heading(it, m.items[names[it.name]], out)
            del m.items[names[it.name]]
            names = {x.name: i for i, x in enumerate(m.items)}


def _other_heading(it: Item, prev: Item, out: Collector):
    """`replace` or `remove` of a rule under another section's heading: done by name all
    the same, but the reader of the variant is misled, so it is said."""
    if it.section != prev.section and it.section != "tables":
        verb = "replaced" if it.action == "replace" else "removed"
        out.warn(it.loc, f"`{it.name}` is a rule of the `{prev.section}` section, "
                 f"not `{it.section}`: it is {verb} all the same",
                 f"move this line under the `{prev.section}:` heading")


def _table_edit(m: Merged, it: Item, base_name: str, out: Collector):
    from ..language.parser import REFUSED
    if m.tables is None or it.value is REFUSED:
        return
    keys = list(it.keys)
    node = m.tables
    where = base_name or "the tables"
    at = list(keys)             # the keys as the tables' positions know them: a row by its index
    for depth, k in enumerate(keys[:-1]):
        if isinstance(node, list):
            rows = {r.get("name"): r for r in node if isinstance(r, dict)}
            if k not in rows:
                out.error(it.loc, f"{where} has no `{k}` in `{'.'.join(keys[:depth])}`", did_you_mean(k, rows))
                return
            at[depth] = next(i for i, r in enumerate(node) if r is rows[k])
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
        m.positions[tuple(at) + ("$value",)] = it.loc
        m.edits[tuple(keys)] = it.loc
    else:
        if isinstance(node, list):
            for i, r in enumerate(node):
                if isinstance(r, dict) and r.get("name") == last:
                    del node[i]
                    _drop_row(m.positions, tuple(at[:-1]), i)
                    m.removed_rows[(keys[0], last)] = it.loc
                    return
            out.error(it.loc, f"{where} has no `{last}` in `{'.'.join(keys[:-1])}`",
                      did_you_mean(last, [r.get("name") for r in node if isinstance(r, dict)]))
        elif isinstance(node, dict) and last in node:
            del node[last]
        else:
            out.error(it.loc, f"{where} has no table entry `{'.'.join(keys)}`",
                      did_you_mean(last, node if isinstance(node, dict) else []))




def _drop_row(positions, table: tuple, i: int):
    """Row i of a list table is gone: the positions of the rows after it move up one."""
    n = len(table)
    moved = {}
    for path in list(positions):
        if path[:n] == table and len(path) > n and isinstance(path[n], int) and path[n] >= i:
            loc = positions.pop(path)
            if path[n] > i:
                moved[path[:n] + (path[n] - 1,) + path[n + 1:]] = loc
    positions.update(moved)


def inside(folder: Path, name: str) -> bool:
    """`name` (relative to `folder`) stays inside it, links resolved: no absolute path, no
    `..` out of it, no symlink leading elsewhere."""
    if not name or Path(name).is_absolute():
        return False
    try:
        root = folder.resolve()
        return (folder / name).resolve().is_relative_to(root)
    except (OSError, RuntimeError, ValueError):
        return False


def _very_close(name: str, candidates) -> str:
    import difflib
    close = difflib.get_close_matches(name, [str(c) for c in candidates], n=1, cutoff=0.85)
    return close[0] if close else ""
