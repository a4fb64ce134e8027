"""`talon validate`: every kind of mistake found, located and explained; hostile input
refused with one clear line; exit status 0 valid, 1 invalid, 2 unreadable.

The corpus in ``tests/broken/`` holds one small spec per kind of mistake; each case
folder has ``spec.talon`` (and its tables) and ``expected.txt``: a comment line saying
what is wrong, then exactly what `talon validate spec.talon` prints (the message at
``path:line:col``, the line, the caret under the span, the hint). Each case is one
mistake away from one of the valid specs in ``tests/broken/_valid/``.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from talon_cards.cli import main
from talon_cards.errors import Collector
from talon_cards.language.syntax_errors import MAX_NESTING
from talon_cards.rules.registry import TEMPLATES
from talon_cards.spec import check
from talon_cards.rules.registry import BODY_SECTION
from talon_cards.language.read import parse
from talon_cards.language.parser import parser

ROOT = Path(__file__).resolve().parent.parent
BROKEN = ROOT / "tests" / "broken"
CASES = sorted(p.name for p in BROKEN.iterdir() if p.is_dir() and not p.name.startswith("_"))
# Lark's names for tokens; `NAME` alone is also the placeholder hints write (`game NAME`).
TERMINALS = {t.name for t in parser().terminals} | {"$END", "_NL"}
HINT_TERMINALS = TERMINALS - {"NAME"}
HEADER = re.compile(r"^(?P<path>[^\s:]+):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning): (?P<msg>.*)$")


def run(*args, cwd=None, capsys=None):
    """Run `talon ARGS` in-process: (exit status, stdout, stderr)."""
    old = os.getcwd()
    try:
        if cwd:
            os.chdir(cwd)
        rc = main([str(a) for a in args])
    finally:
        os.chdir(old)
    out = capsys.readouterr()
    return rc, out.out, out.err


def expected_output(case: str) -> str:
    text = (BROKEN / case / "expected.txt").read_text(encoding="utf-8")
    return "".join(ln for ln in text.splitlines(keepends=True) if not ln.startswith("# "))


# ---------------------------------------------------------------------- the corpus
def test_the_corpus_has_a_case_for_each_kind_of_mistake():
    assert len(CASES) >= 40
    kinds = {c.split("-")[0] for c in CASES}
    assert {"yaml", "schema", "syntax", "names", "types", "ladder", "rules", "deal", "melds",
            "spec", "variant"} <= kinds
    for c in CASES:
        first = (BROKEN / c / "expected.txt").read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# "), f"{c}: expected.txt starts with a line saying what is wrong"


@pytest.mark.parametrize("base", ["tiny", "bids", "points"])
def test_the_corpus_bases_are_valid_without_warnings(base, capsys):
    rc, out, err = run("validate", f"{base}.talon", cwd=BROKEN / "_valid", capsys=capsys)
    assert rc == 0, err
    assert err == ""
    assert out.startswith(f"{base}.talon: valid")


@pytest.mark.parametrize("case", CASES)
def test_broken_spec_is_reported_at_its_place(case, capsys):
    rc, out, err = run("validate", "spec.talon", cwd=BROKEN / case, capsys=capsys)
    assert "Traceback" not in err
    assert rc == 1
    assert out == ""
    assert err == expected_output(case)


@pytest.mark.parametrize("case", CASES)
def test_broken_spec_json_gives_the_same_facts(case, capsys):
    rc, out, err = run("validate", "--json", "spec.talon", cwd=BROKEN / case, capsys=capsys)
    assert rc == 1 and err == ""
    data = json.loads(out)
    assert data["valid"] is False and data["status"] == "invalid"
    shown = [HEADER.match(ln) for ln in expected_output(case).splitlines() if HEADER.match(ln)]
    assert [(d["path"], d["line"], d["column"], d["severity"], d["message"]) for d in data["diagnostics"]] == \
        [(m["path"], int(m["line"]), int(m["col"]), m["sev"], m["msg"]) for m in shown]
    assert data["errors"] == sum(1 for m in shown if m["sev"] == "error") >= 1
    for d in data["diagnostics"]:
        leaked = (set(re.findall(r"[A-Z_$][A-Z_0-9]+", d["message"])) & TERMINALS
                  | set(re.findall(r"[A-Z_$][A-Z_0-9]+", d["hint"])) & HINT_TERMINALS)
        assert not leaked, f"parser token names in {d}"


@pytest.mark.parametrize("case", CASES)
def test_caret_is_under_the_reported_columns(case):
    lines = expected_output(case).splitlines()
    for i, ln in enumerate(lines):
        m = HEADER.match(ln)
        if not m or i + 2 >= len(lines) or not lines[i + 2].lstrip().startswith("^"):
            continue
        source, caret = lines[i + 1][4:], lines[i + 2][4:]
        col = int(m["col"])
        if not source.startswith("…"):
            assert caret.index("^") == col - 1, ln
        assert set(caret.strip()) == {"^"}


# ---------------------------------------------------------------------- parse errors in words
BAD_LINES = [
    "  follow: must plya a card of the suit led when able",
    "  follow: must play a card of the suit when able",
    "  follow: mustt play a card of the suit led when able",
    "  bids: a bid is a number from , above the highest bid",
    "  seats [R1-2: 4 seats",
    "  result: each seat scores (tricks of seat",
    "  result: each seat scores tricks of seat)",
    "  result: each seat scores tricks of seat $ 2",
    "  : 4 seats",
    "  seats 4 seats",
    "  seats: 4 seats seats",
    "  winners: every seat, then the",
    "  winner: the highest trump wins else",
    "  rounds: 2 rounds of four cards to each seat",
    "  lead: left of the dealer leads the first trick when , else the dealer",
]


@pytest.mark.parametrize("line", BAD_LINES)
def test_a_bad_rule_is_explained_without_parser_jargon(line):
    text = (BROKEN / "_valid" / "tiny.talon").read_text(encoding="utf-8")
    text = text.replace("players:\n", "players:\n" + line + "\n", 1)
    out = Collector()
    assert parse(text, "spec.talon", out) is None
    [err] = out.errors
    assert err.location.line == text.split("\n").index(line) + 1
    assert err.location.column >= 1
    assert not set(re.findall(r"[A-Z_$][A-Z_0-9]+", err.message)) & TERMINALS, err.render()
    assert not set(re.findall(r"[A-Z_$][A-Z_0-9]+", err.hint)) & HINT_TERMINALS, err.render()
    assert "expected" in err.message or "unknown word" in err.message or "rule" in err.message \
        or "closes nothing" in err.message or "unexpected character" in err.message, err.render()


def test_a_misspelt_keyword_gets_the_right_suggestion():
    text = (BROKEN / "_valid" / "tiny.talon").read_text(encoding="utf-8")
    for wrong, right in [("highest", "higest"), ("wins", "winz"), ("dealer", "deler"),
                         ("left", "lfet"), ("every", "evry"), ("passes", "pases")]:
        bad = re.sub(rf"(?<=\w )\b{wrong}\b", right, text, count=1)   # in a rule's body
        assert bad != text
        out = Collector()
        parse(bad, "spec.talon", out)
        assert [e.message for e in out.errors] == [f"unknown word `{right}`"], (right, out.errors)
        assert out.errors[0].hint == f"did you mean `{wrong}`?"


def test_every_rule_kind_has_a_template_that_reads_as_that_rule():
    """The `does not read as any rule` hint lists every kind of rule of a section."""
    fill = {"FORMULA": "1", "CONDITION": "yes", "CONTRACT": "five", "MELD": "pair", "NAME": "x",
            "RANK": "K", "SEAT": "the dealer", "N": "3", "M": "4", "CARD": "2C", "COUNT": "x", "K": "3"}
    assert set(TEMPLATES) == set(BODY_SECTION), "a rule kind without a template (or the reverse)"
    for kind, template in TEMPLATES.items():
        body = template.split("  (")[0]
        body = re.sub(r"\b(FORMULA|CONDITION|CONTRACT|MELD|NAME|RANK|SEAT|CARD|COUNT|N|M|K)\b", lambda m: fill[m[1]], body)
        tree = parser().parse(f"game x\n{BODY_SECTION[kind]}:\n  r: {body}\n")
        rule = next(tree.find_data("rule"))
        got = [c.data for c in rule.children if hasattr(c, "data")][0]
        assert got.replace("trick_winner_no_trumps", "trick_winner") == kind, (kind, body)


def test_many_bad_lines_are_all_reported_in_one_run():
    lines = (BROKEN / "_valid" / "tiny.talon").read_text(encoding="utf-8").split("\n")
    broken = []
    for i, ln in enumerate(lines):
        if ln.startswith("  ") and i % 2:
            lines[i] = ln.replace(":", "", 1)        # no colon after the rule's name
            broken.append(i + 1)
    out = Collector()
    parse("\n".join(lines), "spec.talon", out)
    assert len(broken) >= 6
    assert [e.location.line for e in out.errors] == broken
    assert all(e.message.startswith("expected `:`") for e in out.errors)


# ---------------------------------------------------------------------- exit status and output
def test_valid_specs_exit_0(capsys):
    rc, out, err = run("validate", "501", "solo-whist", capsys=capsys)
    assert rc == 0 and err == ""
    assert out.splitlines() == ["501: valid (501 (Pyatsot odno)), 2 example records replayed as expected",
                                "solo-whist: valid (Solo Whist), 2 example records replayed as expected"]


def test_a_broken_example_record_makes_the_spec_invalid(tmp_path, capsys):
    import shutil
    for f in ("501.talon", "501.yaml"):
        shutil.copy(ROOT / "specs" / f, tmp_path / f)
    (tmp_path / "examples" / "501").mkdir(parents=True)
    rec = (ROOT / "specs" / "examples" / "501" / "r501-24-made.yaml").read_text()
    (tmp_path / "examples" / "501" / "x.yaml").write_text(rec.replace("A: 301, B: 476", "A: 300, B: 476"))
    rc, out, err = run("validate", tmp_path / "501.talon", capsys=capsys)
    assert rc == 1
    assert "this example does not replay as its `expect:` says: expected scores" in err


def test_a_missing_file_exits_2_with_one_line(tmp_path, capsys):
    rc, out, err = run("validate", tmp_path / "nothing.talon", capsys=capsys)
    assert rc == 2 and out == ""
    assert err.splitlines()[0] == f"{tmp_path / 'nothing.talon'}: error: no such spec file: `{tmp_path / 'nothing.talon'}`"


def test_an_unknown_spec_name_suggests_a_bundled_one(capsys):
    rc, out, err = run("validate", "solo-whistt", capsys=capsys)
    assert rc == 2
    assert "no spec named `solo-whistt`" in err and "did you mean `solo-whist`?" in err


def test_a_folder_exits_2(tmp_path, capsys):
    rc, out, err = run("validate", tmp_path, capsys=capsys)
    assert rc == 2
    assert err.splitlines()[0] == f"{tmp_path}: error: `{tmp_path}` is a folder, not a spec file"


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_a_device_is_not_read(capsys):
    rc, out, err = run("validate", "/dev/zero", capsys=capsys)
    assert rc == 2
    assert "is not a regular file" in err


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_file_exits_2(tmp_path, capsys):
    p = tmp_path / "x.talon"
    p.write_text("game x\n")
    p.chmod(0)
    rc, out, err = run("validate", p, capsys=capsys)
    assert rc == 2 and "cannot read" in err


def test_several_specs_exit_with_the_worst_status(tmp_path, capsys):
    case = BROKEN / "syntax-misspelt-keyword" / "spec.talon"
    rc, out, err = run("validate", "501", case, capsys=capsys)
    assert rc == 1
    assert "501: valid" in out and f"{case}: 1 error" in err
    rc, out, err = run("validate", case, tmp_path / "none.talon", capsys=capsys)
    assert rc == 2


def test_warnings_do_not_make_a_spec_invalid(tmp_path, capsys):
    src = (BROKEN / "_valid" / "tiny.talon").read_text(encoding="utf-8")
    (tmp_path / "tiny.yaml").write_text((BROKEN / "_valid" / "tiny.yaml").read_text(encoding="utf-8"))
    (tmp_path / "w.talon").write_text(src.replace("  game-end: the game ends after a deal when deals played >= 4\n", ""))
    rc, out, err = run("validate", tmp_path / "w.talon", capsys=capsys)
    assert rc == 0
    assert "warning: no rule ends the game" in err
    assert out.strip().endswith("valid (Tiny), 1 warning")
    rc, out, err = run("validate", "--json", tmp_path / "w.talon", capsys=capsys)
    data = json.loads(out)
    assert data["valid"] is True and data["errors"] == 0 and data["warnings"] == 1
    assert data["diagnostics"][0]["severity"] == "warning"


def test_rules_that_never_apply_are_warned_about(tmp_path, capsys):
    src = (BROKEN / "_valid" / "tiny.talon").read_text(encoding="utf-8")
    src = src.replace("  seats: 4 seats\n", "  seats: 4 seats\n  out: the dealer sits out when there are 5 seats\n")
    src = src.replace("  winner: the highest card of the suit led wins\n",
                      "  winner: the highest card of the suit led wins\n"
                      "  trump: must play a trump when able\n"
                      "  again: must play a card of the suit led when able\n")
    (tmp_path / "tiny.yaml").write_text((BROKEN / "_valid" / "tiny.yaml").read_text(encoding="utf-8"))
    (tmp_path / "w.talon").write_text(src)
    rc, out, err = run("validate", "--json", tmp_path / "w.talon", capsys=capsys)
    assert rc == 0
    got = [(d["line"], d["severity"], d["message"]) for d in json.loads(out)["diagnostics"]]
    assert got == [
        (7, "warning", "this rule never applies: the game is played by 4 seats, not 5"),
        (24, "warning", "trumps never win a trick here (`winner` says the highest card of the suit led wins), "
                        "so this rule has no effect"),
        (25, "warning", "`again` says what `follow` already says"),
    ]


def test_the_examples_of_a_spec_are_replayed(tmp_path, capsys):
    import shutil
    shutil.copy(ROOT / "specs" / "501.talon", tmp_path)
    shutil.copy(ROOT / "specs" / "501.yaml", tmp_path)
    shutil.copytree(ROOT / "specs" / "examples" / "501", tmp_path / "examples" / "501")
    rc, out, err = run("validate", tmp_path / "501.talon", capsys=capsys)
    assert rc == 0, err
    record = tmp_path / "examples" / "501" / "r501-24-made.yaml"
    record.write_text(record.read_text().replace("deltas: {A: -200,", "deltas: {A: -201,"))
    rc, out, err = run("validate", tmp_path / "501.talon", capsys=capsys)
    assert rc == 1
    assert f"{record}: error: this example does not replay as its `expect:` says: expected deltas" in err


def test_json_for_several_specs_is_a_list(capsys):
    case = BROKEN / "syntax-misspelt-keyword" / "spec.talon"
    rc, out, err = run("validate", "--json", "501", case, capsys=capsys)
    data = json.loads(out)
    assert [d["valid"] for d in data] == [True, False]
    assert data[1]["diagnostics"][0]["hint"] == "did you mean `play`?"
    assert data[0]["name"] == "501"


def test_usage_errors_exit_2(capsys):
    assert main(["validate"]) == 2
    assert main(["validate", "--no-such-option", "501"]) == 2


# ---------------------------------------------------------------------- hostile input
def one_error(rc, out, err):
    """The spec is refused with exactly one error (and no traceback)."""
    assert "Traceback" not in err
    errors = [ln for ln in err.splitlines() if ": error: " in ln]
    assert len(errors) == 1, err
    return errors[0]


def test_an_empty_file_is_refused(tmp_path, capsys):
    (tmp_path / "e.talon").write_text(" \n\n")
    rc, out, err = run("validate", tmp_path / "e.talon", capsys=capsys)
    assert rc == 1
    assert one_error(rc, out, err).endswith("e.talon:1:1: error: the spec file is empty")


def test_a_binary_file_is_refused(tmp_path, capsys):
    (tmp_path / "b.talon").write_bytes(b"game x\n\x89PNG\x00\x01\x02" + bytes(range(256)))
    rc, out, err = run("validate", tmp_path / "b.talon", capsys=capsys)
    assert rc == 1
    assert one_error(rc, out, err).endswith("b.talon:2:5: error: the spec file is binary, not text")


def test_a_file_not_in_utf8_is_refused_at_the_bad_byte(tmp_path, capsys):
    (tmp_path / "l.talon").write_bytes("game x\nplayers:\n  start: each seat starts at mis\xe8re\n".encode("latin-1"))
    rc, out, err = run("validate", tmp_path / "l.talon", capsys=capsys)
    assert rc == 1
    assert one_error(rc, out, err).endswith("l.talon:3:33: error: the spec file is not UTF-8 text (byte 48 cannot be read)")


def test_a_huge_file_is_refused_without_reading_it_all(tmp_path, capsys):
    p = tmp_path / "h.talon"
    with open(p, "w") as f:
        f.write("game x\n")
        f.write("# filler\n" * 2_000_000)
    rc, out, err = run("validate", p, capsys=capsys)
    assert rc == 1
    assert one_error(rc, out, err).endswith("error: the spec file is too large (more than 256000 bytes)")


def tables_case(tmp_path, yaml_text: str) -> Path:
    src = (BROKEN / "_valid" / "tiny.talon").read_text(encoding="utf-8")
    (tmp_path / "tiny.talon").write_text(src)
    (tmp_path / "tiny.yaml").write_text(yaml_text)
    return tmp_path / "tiny.talon"


def test_a_yaml_alias_bomb_is_refused_at_the_first_alias(tmp_path, capsys):
    bomb = ['suits: [S, H, D, C]', 'ranks: [A, K, Q, J, "10", "9", "8", "7"]', 'values:',
            '  a0: &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1]']
    for i in range(1, 10):
        bomb.append(f"  a{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}]")
    spec = tables_case(tmp_path, "\n".join(bomb) + "\n")
    rc, out, err = run("validate", spec, capsys=capsys)
    assert rc == 1
    assert one_error(rc, out, err).endswith("tiny.yaml:5:12: error: YAML aliases (`*name`) are not allowed in tables")


def test_deep_yaml_nesting_is_refused(tmp_path, capsys):
    spec = tables_case(tmp_path, "suits: [S, H, D, C]\nranks: [A]\nvalues: {x: " + "[" * 5000 + "]" * 5000 + "}\n")
    rc, out, err = run("validate", spec, capsys=capsys)
    assert rc == 1
    assert re.search(r"tiny.yaml:3:\d+: error: the table file is nested too deeply \(more than 32 levels\)$",
                     one_error(rc, out, err))


def test_a_foreign_yaml_tag_is_refused(tmp_path, capsys):
    spec = tables_case(tmp_path, "suits: !!python/object/apply:os.system [echo]\nranks: [A]\n")
    rc, out, err = run("validate", spec, capsys=capsys)
    assert rc == 1
    assert "YAML tags such as `!!python/object/apply:os.system` are not allowed in tables" in one_error(rc, out, err)


@pytest.mark.parametrize("formula", ["(" * 5000 + "1" + ")" * 5000, "- " * 5000 + "1", "not " * 5000 + "yes",
                                     "1 + " * 5000 + "1", "-(" * 3000 + "1" + ")" * 3000])
def test_deep_formulas_are_refused_at_a_place(formula, tmp_path, capsys):
    src = (BROKEN / "_valid" / "tiny.talon").read_text(encoding="utf-8")
    (tmp_path / "tiny.yaml").write_text((BROKEN / "_valid" / "tiny.yaml").read_text(encoding="utf-8"))
    (tmp_path / "d.talon").write_text(src.replace("each seat starts at 0", "each seat starts at " + formula))
    rc, out, err = run("validate", tmp_path / "d.talon", capsys=capsys)
    assert rc == 1
    assert re.search(r"d.talon:7:\d+: error: this formula is nested too deeply \(more than 100 (levels|parentheses)\)$",
                     one_error(rc, out, err))


def test_formulas_just_under_the_nesting_bound_are_checked_and_run():
    src = (BROKEN / "_valid" / "tiny.talon").read_text(encoding="utf-8")
    deep = "-(" * (MAX_NESTING // 2 - 1) + "deals played" + ")" * (MAX_NESTING // 2 - 1)
    text = src.replace("deals played >= 4", f"{deep} <= 4")
    path = BROKEN / "_valid" / "deep-but-fine.talon"
    out = Collector()
    try:
        path.write_text(text)
        game = check(str(path), out)
    finally:
        path.unlink()
    assert game is not None, [d.render() for d in out.diagnostics]


def test_the_command_never_shows_a_traceback(tmp_path):
    """A separate process, on hostile input of every kind at once."""
    (tmp_path / "empty.talon").write_text("")
    (tmp_path / "bin.talon").write_bytes(bytes(range(256)) * 4)
    (tmp_path / "self.talon").write_text('variant self "Self"\nextends self\n')
    (tmp_path / "deep.talon").write_text("game x\nplayers:\n  s: each seat starts at " + "(" * 100000 + "\n")
    (tmp_path / "junk.talon").write_text("".join(chr(c) for c in range(1, 0x3000, 7)))
    args = [tmp_path / n for n in ("empty.talon", "bin.talon", "self.talon", "deep.talon", "junk.talon")]
    r = subprocess.run([sys.executable, "-m", "talon_cards", "validate", *args, tmp_path],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    assert "self.talon:2:9: error: the spec extends itself through self.talon -> self.talon" in r.stderr
