"""`talon diff BASE VARIANT`: what one spec changes in another, rule by rule and table
entry by table entry, in the words of the spec files themselves."""
from __future__ import annotations

import re
from pathlib import Path

from ..language.tree import SECTIONS

SECTION_WORDS = {
    "players": "players", "deal": "the deal", "auction": "the auction",
    "contract": "the contract (between auction and play)", "play": "the play",
    "melds": "melds", "scoring": "scoring", "end": "the end of the game", "tables": "tables",
}
_RULE_LINE = re.compile(r"^\s*(?:add\s+|replace\s+)?[a-z0-9-]+\s*(?:\[[^\]]*\])?\s*"
                        r"(?:(?:after|before)\s+[a-z0-9-]+\s*)?:\s*(.*?)\s*(?:#.*)?$")


def rule_text(item) -> str:
    """The body of a rule as written in its spec file."""
    try:
        line = Path(item.loc.path).read_text(encoding="utf-8").splitlines()[item.loc.line - 1]
    except (OSError, IndexError):
        return item.body.kind.replace("_", " ")
    m = _RULE_LINE.match(line)
    return m.group(1) if m else line.strip()


def _flatten(data, prefix=()):
    out = {}
    if isinstance(data, dict):
        for k, v in data.items():
            if isinstance(v, dict) and prefix[:1] != ("values",):
                out.update(_flatten(v, prefix + (str(k),)))
            elif k == "ladder" and isinstance(v, list):
                for row in v:
                    name = row.get("name", "?")
                    for col, val in row.items():
                        if col != "name":
                            out[("ladder", name, col)] = val
            else:
                out[prefix + (str(k),)] = v
    return out


def diff(base, variant) -> dict:
    """Both are compiled Games. Returns {"rules": [...], "tables": [...]}."""
    rules = []
    order = {s: i for i, s in enumerate(SECTIONS)}
    names = list(base.rules) + [n for n in variant.rules if n not in base.rules]
    names.sort(key=lambda n: order.get((variant.rules.get(n) or base.rules.get(n)).section, 99))
    for n in names:
        b, v = base.rules.get(n), variant.rules.get(n)
        sec = (v or b).section
        if b and not v:
            rules.append({"change": "removed", "name": n, "section": sec, "clauses": list(b.clauses),
                          "was": rule_text(b)})
        elif v and not b:
            rules.append({"change": "added", "name": n, "section": sec, "clauses": list(v.clauses),
                          "now": rule_text(v)})
        else:
            bt, vt = rule_text(b), rule_text(v)
            if bt != vt or b.clauses != v.clauses:
                rules.append({"change": "changed", "name": n, "section": sec,
                              "clauses": list(v.clauses), "was_clauses": list(b.clauses),
                              "was": bt, "now": vt})
    fb, fv = _flatten(base.tables_data), _flatten(variant.tables_data)
    tables = []
    base_rows = {r["name"] for r in base.tables_data.get("ladder", [])}
    var_rows = {r["name"] for r in variant.tables_data.get("ladder", [])}
    for row in sorted(base_rows - var_rows):
        tables.append({"change": "removed", "path": ["ladder", row]})
    for row in sorted(var_rows - base_rows):
        tables.append({"change": "added", "path": ["ladder", row]})
    for key in list(fb) + [k for k in fv if k not in fb]:
        if key[0] == "ladder" and (key[1] not in var_rows or key[1] not in base_rows):
            continue
        if key not in fv:
            tables.append({"change": "removed", "path": list(key), "was": fb[key]})
        elif key not in fb:
            tables.append({"change": "added", "path": list(key), "now": fv[key]})
        elif fb[key] != fv[key]:
            tables.append({"change": "changed", "path": list(key), "was": fb[key], "now": fv[key]})
    return {"base": base.name, "variant": variant.name, "variant_title": variant.title,
            "rules": rules, "tables": tables}


def _value(v) -> str:
    if isinstance(v, dict):
        return ", ".join(f"{k} {val}" for k, val in v.items())
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, list):
        return " ".join(map(str, v))
    return str(v)


def render(d: dict) -> str:
    n = len(d["rules"]) + len(d["tables"])
    if not n:
        return f"{d['variant']} plays exactly like {d['base']}: no rule or table entry differs."
    out = [f"{d['variant']} (\"{d['variant_title']}\") differs from {d['base']} in {n} place{'s' if n != 1 else ''}:"]
    section = None
    for r in d["rules"]:
        if r["section"] != section:
            section = r["section"]
            out += ["", f"In {SECTION_WORDS.get(section, section)}:"]
        cl = f" [{', '.join(r['clauses'])}]" if r["clauses"] else ""
        if r["change"] == "added":
            out.append(f"  + adds the rule `{r['name']}`{cl}:")
            out.append(f"        {r['now']}")
        elif r["change"] == "removed":
            out.append(f"  - drops the rule `{r['name']}`{cl}, which said:")
            out.append(f"        {r['was']}")
        else:
            was_cl = f" [{', '.join(r['was_clauses'])}]" if r["was_clauses"] else ""
            out.append(f"  ~ changes the rule `{r['name']}`" + (f"{was_cl} →{cl}" if was_cl != cl else cl) + ":")
            out.append(f"      was: {r['was']}")
            out.append(f"      now: {r['now']}")
    if d["tables"]:
        out += ["", "In the tables:"]
        for t in d["tables"]:
            path = " › ".join(t["path"])
            if t["change"] == "added" and "now" not in t:
                out.append(f"  + adds {path}")
            elif t["change"] == "removed" and "was" not in t:
                out.append(f"  - removes {path}" + (" (a contract of the ladder)" if t["path"][0] == "ladder" else ""))
            elif t["change"] == "added":
                out.append(f"  + {path}: {_value(t['now'])} (new)")
            elif t["change"] == "removed":
                out.append(f"  - {path}: was {_value(t['was'])} (removed)")
            else:
                out.append(f"  ~ {path}: {_value(t['was'])} → {_value(t['now'])}")
    return "\n".join(out)
