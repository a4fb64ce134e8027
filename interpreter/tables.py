"""YAML tables: loaded safely, with the line and column of every key and value, and
checked against the JSON Schema in ``grammars/tables.schema.json``."""
from __future__ import annotations

import json
from functools import lru_cache

import yaml
from jsonschema import Draft202012Validator

from .errors import Collector, Location, did_you_mean
from .resources import grammar_path

MAX_NODES = 20000
MAX_DEPTH = 32
MAX_BYTES = 1_000_000


@lru_cache(maxsize=1)
def _validator() -> Draft202012Validator:
    schema = json.loads(grammar_path("tables.schema.json").read_text(encoding="utf-8"))
    return Draft202012Validator(schema)


class Positions(dict):
    """Maps a path of keys (a tuple) to the Location of that key or value."""

    def find(self, path: tuple, default: Location) -> Location:
        path = tuple(path)
        while path not in self and path:
            path = path[:-1]
        return self.get(path, default)


def _loc(path: str, mark) -> Location:
    return Location(path, mark.line + 1, mark.column + 1)


def load_yaml(text: str, path: str, out: Collector):
    """Parse YAML safely (no tags, no aliases, bounded size) into plain data and
    positions. Returns (data, positions) or (None, positions) after reporting."""
    pos = Positions()
    if len(text.encode("utf-8", "replace")) > MAX_BYTES:
        out.error(Location(path), f"the table file is too large (over {MAX_BYTES} bytes)")
        return None, pos
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, yaml.AliasEvent):
                out.error(_loc(path, event.start_mark),
                          "YAML aliases (*name) are not allowed in tables",
                          "write the value out in full")
                return None, pos
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
        loc = _loc(path, mark) if mark else Location(path)
        problem = getattr(e, "problem", None) or str(e)
        out.error(loc, f"the YAML is malformed: {problem}")
        return None, pos
    if node is None:
        out.error(Location(path, 1, 1), "the table file is empty",
                  "a table file needs at least `suits:` and `ranks:`")
        return None, pos
    count = [0]
    loader = yaml.SafeLoader("")

    def build(n, keypath, depth):
        count[0] += 1
        if depth > MAX_DEPTH or count[0] > MAX_NODES:
            raise ValueError(n)
        pos[keypath] = _loc(path, n.start_mark)
        if isinstance(n, yaml.MappingNode):
            d = {}
            for k, v in n.value:
                key = k.value if isinstance(k, yaml.ScalarNode) else str(k.value)
                if key in d:
                    out.error(_loc(path, k.start_mark), f"`{key}` is given twice")
                d[key] = build(v, keypath + (key,), depth + 1)
                pos[keypath + (key,)] = _loc(path, k.start_mark)
                pos[keypath + (key, "$value")] = _loc(path, v.start_mark)
            return d
        if isinstance(n, yaml.SequenceNode):
            return [build(v, keypath + (i,), depth + 1) for i, v in enumerate(n.value)]
        return loader.construct_object(n, deep=True)

    try:
        return build(node, (), 0), pos
    except yaml.YAMLError as e:
        out.error(Location(path), f"the YAML is malformed: {e}")
        return None, pos
    except ValueError as e:
        n = e.args[0] if e.args else None
        loc = _loc(path, n.start_mark) if hasattr(n, "start_mark") else Location(path)
        out.error(loc, "the table file is nested too deeply or is too large")
        return None, pos


def check_schema(data, pos: Positions, path: str, out: Collector) -> bool:
    ok = True
    errors = sorted(_validator().iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    for err in errors:
        ok = False
        keypath = tuple(err.absolute_path)
        where = ".".join(str(k) for k in keypath) or "the table file"
        # Point at the offending key when the key is wrong, at the value otherwise.
        if err.validator == "additionalProperties" and err.validator_value is False:
            extra = [k for k in err.instance if k not in err.schema.get("properties", {})]
            for k in extra:
                hint = did_you_mean(k, err.schema.get("properties", {}))
                out.error(pos.find(keypath + (k,), Location(path)),
                          f"unknown table entry `{k}`" + (f" in `{where}`" if keypath else ""),
                          hint)
            continue
        loc = pos.find(keypath + ("$value",), Location(path)) if keypath else Location(path, 1, 1)
        out.error(loc, f"`{where}`: {_plain(err)}")
    return ok


def _plain(err) -> str:
    v = err.validator
    if v == "enum":
        return f"{err.instance!r} is not one of {', '.join(map(str, err.validator_value))}"
    if v == "type":
        want = err.validator_value
        want = " or ".join(want) if isinstance(want, list) else want
        return f"expected {want.replace('integer', 'a whole number').replace('array', 'a list').replace('object', 'a mapping')}, got {err.instance!r}"
    if v == "required":
        return err.message.replace("is a required property", "is required")
    if v == "uniqueItems":
        return "has an entry twice"
    return err.message
