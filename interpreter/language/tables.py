"""YAML tables: loaded safely, with the line and column of every key and value, and
checked against the JSON Schema in ``grammars/tables.schema.json``.

Loading is safe by construction: the YAML is first read as a stream of events, and
refused at the first alias (``*name``: the "billion laughs" memory bomb needs them), at
the first explicit tag other than YAML's own (``!!python/object`` …), when it nests
deeper than ``MAX_DEPTH`` or holds more than ``MAX_NODES`` values; only then is it
composed (which recurses, hence the depth bound) and turned into plain dicts, lists,
strings, numbers and booleans by PyYAML's safe constructor. Schema errors are reported
at the YAML node of the offending key or value, in words about suits, ranks and
contracts rather than JSON pointers.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ..errors import Collector, Location, did_you_mean
from ..resources import grammar_path

MAX_NODES = 20000
MAX_DEPTH = 32
MAX_BYTES = 1_000_000


def __getattr__(name):
    # PyYAML's parser and composer in C where it was built with libyaml (the same events
    # and nodes, several times faster); a file it refuses is read again by the Python
    # parser, whose messages the explanations below are written for. PyYAML is loaded
    # only when a text is read (not for tables read before: see load_yaml).
    if name == "YAML_LOADER":
        import yaml
        return getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

RANK_WORDS = "A K Q J 10 9 8 7 6 5 4 3 2"
_SAFE_TAGS = {"tag:yaml.org,2002:" + t for t in
              ("str", "int", "bool", "null", "float", "seq", "map")}


@lru_cache(maxsize=1)
def _schema_text() -> str:
    return grammar_path("tables.schema.json").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _schema() -> dict:
    import json
    return json.loads(_schema_text())


@lru_cache(maxsize=1)
def _validator():
    from jsonschema import Draft202012Validator     # a heavy import: only when a check runs
    return Draft202012Validator(_schema())


def _passed_mark(data) -> Path | None:
    """Where the mark that these exact tables passed this exact schema is kept (the
    user's cache folder, ``usercache``), so that a fresh process need not load the schema
    checker again; None where there is no such folder. Only a pass is remembered."""
    from .. import usercache
    where = usercache.folder("tables-passed")
    if where is None:
        return None
    try:
        return where / usercache.digest(_schema_text(), _canonical(data))
    except (OSError, TypeError, ValueError, RecursionError):
        return None


def _canonical(v) -> str:
    """The data written out whole, mappings in the order of their keys."""
    if isinstance(v, dict):
        return "{" + ",".join(f"{k!r}:{_canonical(v[k])}" for k in sorted(v, key=repr)) + "}"
    if isinstance(v, list):
        return "[" + ",".join(map(_canonical, v)) + "]"
    return f"{type(v).__name__}:{v!r}"


class Positions(dict):
    """Maps a path of keys (a tuple) to the Location of that key or value.

    ``(k1, k2)`` is where the key k2 is written, ``(k1, k2, "$value")`` where its value
    is; a list item ``(k1, i)`` is where the item starts."""

    def find(self, path: tuple, default: Location) -> Location:
        path = tuple(path)
        while path not in self and path:
            path = path[:-1]
        return self.get(path, default)


def _loc(path: str, mark, end_mark=None) -> Location:
    end = 0
    if end_mark is not None and end_mark.line == mark.line and end_mark.column > mark.column:
        end = end_mark.column + 1
    return Location(path, mark.line + 1, mark.column + 1, end)


def _yaml_problem(e, path: str) -> tuple[Location, str, str]:
    """A PyYAML error -> (where, message, hint) in plain words."""
    problem = (getattr(e, "problem", None) or str(e)).strip()
    context = (getattr(e, "context", None) or "").strip()
    mark = getattr(e, "problem_mark", None)
    cmark = getattr(e, "context_mark", None)
    loc = _loc(path, mark) if mark else (_loc(path, cmark) if cmark else Location(path))
    if "'\\t'" in problem or "\\t" in problem:
        return loc, "a tab character: YAML is indented with spaces", "replace the tab by spaces"
    for kind, o, c in (("sequence", "[", "]"), ("mapping", "{", "}")):
        if context.startswith(f"while parsing a flow {kind}") and cmark is not None:
            what = "list" if kind == "sequence" else "mapping"
            if mark is None or mark.line > cmark.line or "<stream end>" in problem:
                return _loc(path, cmark), f"this `{o}` {what} is not closed", f"close it with `{c}`"
            got = problem.rsplit("but got ", 1)[-1].strip("'")
            found = {"<scalar>": "a value", ":": "`:`"}.get(got, f"`{got}`")
            hint = {"<scalar>": "is a quote missing or misplaced, or a comma?",
                    ":": "a value containing `: ` must be in quotes"}.get(got, "")
            return loc, f"expected `,` or `{c}` in this {what}, but found {found}", hint
    if context.startswith("while scanning a quoted scalar") and cmark is not None:
        return _loc(path, cmark), "this quoted text has no closing quote", ""
    if "mapping values are not allowed here" in problem:
        return (loc, "a `:` where none can be",
                "is the indentation wrong, or does a value containing `: ` need quotes?")
    if "could not find expected ':'" in problem:
        return loc, "a key without `:`", "write `key: value`"
    if problem.startswith("found undefined alias") or problem.startswith("found unacceptable"):
        return loc, f"the YAML is malformed: {problem}", ""
    if "expected <block end>" in problem or "did not find expected" in problem:
        return (loc, "the indentation of this line does not match the lines above it",
                "the keys of one mapping start in the same column")
    return loc, f"the YAML is malformed: {problem}", ""


_FAILED, _RETRY = object(), object()


def _screened(text: str, path: str, out: Collector, loader, fast: bool):
    """The YAML's events screened (no aliases, no foreign tags, bounded depth and size),
    then its node tree; _FAILED after reporting, _RETRY where the fast parser refused
    the text (the Python parser then reads it again, for its words about the fault)."""
    import yaml
    try:
        depth = count = docs = 0
        for event in yaml.parse(text, Loader=loader):
            if isinstance(event, yaml.AliasEvent):
                out.error(_loc(path, event.start_mark, event.end_mark),
                          "YAML aliases (`*name`) are not allowed in tables",
                          "write the value out in full")
                return _FAILED
            tag = getattr(event, "tag", None)
            if tag and tag not in _SAFE_TAGS and tag != "!":
                out.error(_loc(path, event.start_mark, event.end_mark),
                          f"YAML tags such as `{tag.replace('tag:yaml.org,2002:', '!!')}` are not allowed in tables",
                          "write plain values: numbers, words, lists and mappings")
                return _FAILED
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    out.error(_loc(path, event.start_mark),
                              f"the table file is nested too deeply (more than {MAX_DEPTH} levels)")
                    return _FAILED
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
            elif isinstance(event, yaml.DocumentStartEvent) and docs:
                out.error(_loc(path, event.start_mark), "a table file holds one YAML document",
                          "remove the `---` line and what follows it, or merge the documents")
                return _FAILED
            if isinstance(event, yaml.DocumentStartEvent):
                docs += 1
            count += 1
            if count > MAX_NODES:
                out.error(_loc(path, event.start_mark),
                          f"the table file is too large (more than {MAX_NODES} values)")
                return _FAILED
        return yaml.compose(text, Loader=loader)
    except yaml.YAMLError as e:
        if fast:
            return _RETRY
        loc, msg, hint = _yaml_problem(e, path)
        out.error(loc, msg, hint)
        return _FAILED


def load_yaml(text: str, path: str, out: Collector):
    """Parse YAML safely (no aliases, no foreign tags, bounded depth and size) into plain
    data and positions. Returns (data, positions) or (None, positions) after reporting.

    Tables read without a remark are kept in the user's cache folder (``usercache``),
    keyed by the text, the path and the reading code, so that a fresh process reads
    unchanged tables without loading PyYAML; anything else is read every time."""
    out.sources.setdefault(path, text)
    if len(text.encode("utf-8", "replace")) > MAX_BYTES:
        out.error(Location(path), f"the table file is too large (over {MAX_BYTES} bytes)")
        return None, Positions()
    key = _read_key(text, path)
    kept = _read_before(key)
    if kept is not None:
        return kept
    mine = Collector(out.sources)       # its own remarks, even those `out` already holds
    data, pos = _load_yaml(text, path, mine)
    out.take(mine)
    if data is not None and not mine.diagnostics and key is not None:
        from .. import usercache
        usercache.keep(_READ, key, (data, pos))
    return data, pos


_READ = "tables-read"


def _read_key(text: str, path: str) -> str | None:
    from .. import usercache
    if usercache.folder(_READ) is None:
        return None
    return usercache.digest(text, path, usercache.code_mark())


def _read_before(key):
    if key is None:
        return None
    from .. import usercache
    kept = usercache.load(_READ, key)
    if (isinstance(kept, tuple) and len(kept) == 2 and isinstance(kept[0], dict)
            and isinstance(kept[1], Positions)):
        return kept
    return None


def _load_yaml(text: str, path: str, out: Collector):
    import yaml
    yaml_loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    pos = Positions()
    for fast in ((True, False) if yaml_loader is not yaml.SafeLoader else (False,)):
        node = _screened(text, path, out, yaml_loader if fast else yaml.SafeLoader, fast)
        if node is not _RETRY:
            break
    if node is _FAILED:
        return None, pos
    if node is None:
        out.error(Location(path, 1, 1), "the table file is empty",
                  "a table file needs at least `suits:` and `ranks:`")
        return None, pos
    loader = yaml.SafeLoader("")

    def build(n, keypath):
        pos[keypath] = _loc(path, n.start_mark, n.end_mark)
        if isinstance(n, yaml.MappingNode):
            d = {}
            for k, v in n.value:
                if isinstance(k, yaml.ScalarNode):
                    key = k.value
                else:
                    out.error(_loc(path, k.start_mark), "a table key must be a single word or number")
                    continue
                if key in d:
                    out.error(_loc(path, k.start_mark, k.end_mark), f"`{key}` is given twice",
                              f"the first is at line {pos[keypath + (key,)].line}")
                d[key] = build(v, keypath + (key,))
                pos[keypath + (key,)] = _loc(path, k.start_mark, k.end_mark)
                pos[keypath + (key, "$value")] = _loc(path, v.start_mark, v.end_mark)
            return d
        if isinstance(n, yaml.SequenceNode):
            items = [build(v, keypath + (i,)) for i, v in enumerate(n.value)]
            if keypath == ("ranks",):
                # `10` written without quotes is the rank 10.
                items = [str(x) if isinstance(x, int) and not isinstance(x, bool) else x for x in items]
            return items
        if isinstance(n, yaml.ScalarNode) and n.tag.endswith(":int") and len(n.value.lstrip("+-0_")) > 15:
            out.error(_loc(path, n.start_mark, n.end_mark), f"the number {n.value[:12]}… is too large",
                      "values in tables are below a hundred thousand")
            return 0
        return loader.construct_object(n, deep=True)

    try:
        return build(node, ()), pos
    except yaml.YAMLError as e:
        loc, msg, hint = _yaml_problem(e, path)
        out.error(loc, msg, hint)
        return None, pos
    except (ValueError, TypeError, OverflowError) as e:
        out.error(Location(path, 1, 1), f"the table file holds a value that cannot be read ({e})")
        return None, pos


# ---------------------------------------------------------------------- the schema
def check_schema(data, pos: Positions, path: str, out: Collector) -> bool:
    mark = _passed_mark(data)
    try:
        if mark is not None and mark.is_file():
            return True
    except OSError:
        pass
    found = []
    for err in _validator().iter_errors(data):
        found.extend(_explain(err, data, pos, path))
    found.sort(key=lambda f: (f[0].line, f[0].column))
    for loc, msg, hint in found:
        out.error(loc, msg, hint)
    if not found and mark is not None:
        from .. import usercache
        usercache.write(mark, b"")
    return not found


def _show(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "nothing"
    if isinstance(v, (list, dict)):
        import json
        text = json.dumps(v, default=str)
        return text if len(text) <= 40 else text[:37] + "…"
    return str(v)


def _row_name(data, i) -> str:
    try:
        row = data["ladder"][i]
        if isinstance(row, dict) and isinstance(row.get("name"), str):
            return f"`{row['name']}`"
    except (KeyError, IndexError, TypeError):
        pass
    return f"{i + 1}"


def _field_description(field: str) -> str:
    props = _schema()["properties"]["ladder"]["items"]["properties"]
    d = props.get(field, {}).get("description", "")
    return d[:1].lower() + d[1:].rstrip(".") if d else ""


def _explain(err, data, pos: Positions, path: str):
    """Yield (location, message, hint) for one schema error."""
    kp = tuple(err.absolute_path)
    v, inst = err.validator, err.instance
    top = kp[0] if kp else None
    here = pos.find(kp + ("$value",), Location(path, 1, 1)) if kp else Location(path, 1, 1)
    if kp and kp in pos and isinstance(kp[-1], int):
        here = pos[kp]
    props = err.schema.get("properties", {}) if isinstance(err.schema, dict) else {}

    # ---- unknown keys
    if v == "additionalProperties" and err.validator_value is False:
        for k in [k for k in inst if k not in props]:
            where = pos.find(kp + (k,), Location(path, 1, 1))
            if not kp:
                yield (where, f"unknown table entry `{k}`",
                       did_you_mean(k, props) or "the tables are " + ", ".join(props))
            else:
                yield where, f"unknown entry `{k}` in `{'.'.join(map(str, kp))}`", did_you_mean(k, props)
        return
    if "propertyNames" in err.absolute_schema_path:
        # The instance is the offending key.
        key = inst
        where = pos.find(kp + (key,), here)
        if top == "points":
            yield where, f"`{key}` is not a rank", f"ranks are {RANK_WORDS}"
        elif top == "ladder":
            yield (where, f"`{key}` is not a column name",
                   "column names are lowercase words joined by hyphens")
        else:
            yield (where, f"`{key}` is not a name",
                   "names are lowercase words joined by hyphens, such as `minimum-bid`")
        return
    if v == "required":
        missing = [r for r in err.validator_value if isinstance(inst, dict) and r not in inst]
        for r in missing:
            if not kp:
                yield (Location(path, 1, 1), f"the tables have no `{r}`",
                       {"suits": "add `suits: [S, H, D, C]`",
                        "ranks": "add the ranks, highest first: `ranks: [A, K, Q, J, 10, 9, 8, 7]`"}.get(r, ""))
            elif top == "ladder" and len(kp) == 2:
                yield (pos.find(kp, here), f"the ladder row {_row_name(data, kp[1])} has no `{r}`",
                       f"`{r}`: {_field_description(r)}" if _field_description(r) else "")
            else:
                yield here, f"`{'.'.join(map(str, kp))}` has no `{r}`", ""
        return
    if v == "uniqueItems" and isinstance(inst, list):
        import json
        seen = set()
        for i, x in enumerate(inst):
            key = json.dumps(x, sort_keys=True, default=str)
            if key in seen:
                yield (pos.find(kp + (i,), here), f"`{_show(x)}` is listed twice in `{'.'.join(map(str, kp))}`", "")
            seen.add(key)
        return

    # ---- wrong values, by table
    shown = _show(inst)
    if top == "suits":
        if len(kp) == 2 and v == "enum":
            yield here, f"`{shown}` is not a suit letter", "suits are S, H, D and C" + _dym(inst, "SHDC")
        elif v == "minItems":
            yield here, "`suits` is empty", "list the suits: `suits: [S, H, D, C]`"
        elif v == "type":
            yield here, f"`suits` must be a list of suit letters, such as `[S, H, D, C]`, not `{shown}`", ""
        else:
            yield here, f"`suits`: {err.message}", ""
        return
    if top == "ranks":
        if len(kp) == 2 and v == "enum":
            yield here, f"`{shown}` is not a rank", f"ranks are {RANK_WORDS}, listed highest first"
        elif v == "minItems":
            yield here, "`ranks` is empty", "list the ranks, highest first"
        elif v == "maxItems":
            yield here, "`ranks` lists more than 13 ranks", f"ranks are {RANK_WORDS}"
        elif v == "type":
            yield here, f"`ranks` must be a list of ranks, highest first, such as `[A, K, Q, J]`, not `{shown}`", ""
        else:
            yield here, f"`ranks`: {err.message}", ""
        return
    if top == "points":
        if len(kp) == 1 and v == "type":
            yield here, f"`points` must give the points of each rank, such as `{{A: 11, K: 4}}`, not `{shown}`", ""
        elif len(kp) == 2 and v == "type":
            yield here, f"the points of `{kp[1]}` must be a whole number, not `{shown}`", ""
        elif len(kp) == 2 and v in ("minimum", "maximum"):
            yield here, f"the points of `{kp[1]}` must be between 0 and 1000, not {shown}", ""
        else:
            yield here, f"`{'.'.join(map(str, kp))}`: {err.message}", ""
        return
    if top == "values":
        if len(kp) == 1 and v == "type":
            yield here, f"`values` must be a mapping of names to numbers, such as `{{minimum-bid: 60}}`, not `{shown}`", ""
        elif len(kp) >= 2:
            yield (here, f"the value `{kp[1]}` must be a whole number (from -100000 to 100000) "
                   f"or one number per suit, not `{shown}`", "one number per suit reads `{S: 40, H: 60, D: 80, C: 100}`")
        else:
            yield here, f"`values`: {err.message}", ""
        return
    if top == "ladder":
        if len(kp) == 1:
            if v == "type":
                yield here, f"`ladder` must be a list of contracts, lowest first, not `{shown}`", ""
            elif v == "minItems":
                yield here, "the ladder is empty", "list the contracts that can be bid, lowest first"
            elif v == "maxItems":
                yield here, "the ladder has more than 64 contracts", ""
            else:
                yield here, f"`ladder`: {err.message}", ""
            return
        row = _row_name(data, kp[1])
        if len(kp) == 2:
            yield (pos.find(kp, here), f"the ladder row {row} must be a mapping such as "
                   "`{name: six, trumps: none, unit: 1}`, not " f"`{shown}`", "")
            return
        field = kp[2]
        if field == "trumps" and v == "enum":
            yield (here, f"`{shown}` is not a kind of trumps (in the ladder row {row})",
                   (did_you_mean(str(inst), err.validator_value) + " " if did_you_mean(str(inst), err.validator_value) else "")
                   + "trumps are exposed (the exposed card's suit), chosen (named by the declarer) or none")
        elif field == "partner" and v == "enum":
            yield (here, f"`{shown}` is not a kind of partner (in the ladder row {row})",
                   "partner is seeks (the bidder needs a partner) or joins (the bidder joins the highest bidder)")
        elif field == "name":
            yield (here, f"`{shown}` is not a contract name",
                   "contract names are lowercase words joined by hyphens, such as `grand-slam`")
        elif field == "title" and v == "type":
            yield here, f"the title of the ladder row {row} must be text, not `{shown}`", "put it in quotes"
        elif field in ("least", "most", "unit") and v in ("type", "minimum"):
            yield (here, f"`{field}` of the ladder row {row} must be a whole number, 0 or more, not `{shown}`",
                   f"`{field}`: {_field_description(field)}" if _field_description(field) else "")
        elif v == "type":
            yield (here, f"the column `{field}` of the ladder row {row} must be a number or true/false, not `{shown}`",
                   "")
        else:
            yield here, f"`{field}` of the ladder row {row}: {err.message}", ""
        return
    where = ".".join(map(str, kp)) or "the table file"
    yield here, f"`{where}`: {err.message}", ""


def _dym(value, letters: str) -> str:
    if isinstance(value, str) and value.upper() in letters and value != value.upper():
        return f"; write `{value.upper()}`"
    return ""
