"""`talon list`, `talon show SPEC` and `talon new VARIANT --from BASE`: the bundled specs
grouped as games and their variants, a spec's files printed as they are (for a user of
the installed package, who has no clone to open), and the skeleton of a house rule."""
from __future__ import annotations

import json
import re

import pytest

from talon_cards.cli import main, validate_one
from talon_cards.resources import specs_dir
from talon_cards.spec import bundled_names, load

GAMES = ["501", "solo-whist", "whist", "oh-hell", "hearts", "sixty-six", "tysyacha"]


def run(capsys, *argv):
    rc = main(list(argv))
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


# ------------------------------------------------------------------ list
def test_list_groups_every_bundled_spec_under_its_game(capsys):
    rc, out, err = run(capsys, "list")
    assert rc == 0 and not err
    lines = out.splitlines()
    assert lines[0] == "7 games and 24 variants are bundled (`talon show NAME` prints one, `talon play NAME` plays it):"
    current = None
    seen = set()
    for ln in lines[1:]:
        if not ln:
            continue
        m = re.fullmatch(r"(\S+) +(.+)", ln)
        if m:                                     # a game: flush left
            current = m.group(1)
            assert current in GAMES and m.group(2) == load(current).title
            seen.add(current)
            continue
        m = re.fullmatch(r"  (\S+) +(.+) \(variant of (\S+)\)", ln)
        assert m, ln
        name, title, base = m.groups()
        assert title == load(name).title
        text = (specs_dir() / f"{name}.talon").read_text()
        assert re.search(rf"^extends {re.escape(base)}$", text, re.M)      # names its own base
        assert base == current or base.startswith(current)                # listed under its game
        seen.add(name)
    assert seen == set(bundled_names())


def test_list_json(capsys):
    rc, out, _ = run(capsys, "list", "--json")
    assert rc == 0
    data = json.loads(out)
    assert [d["name"] for d in data if d["kind"] == "game"] == sorted(GAMES)
    by = {d["name"]: d for d in data}
    assert by["hearts-omnibus"] == {"name": "hearts-omnibus", "title": "Hearts with the jack of diamonds",
                                    "kind": "variant", "base": "hearts", "game": "hearts"}
    assert by["501"]["base"] is None and by["501"]["game"] == "501"
    assert set(by) == set(bundled_names())


# ------------------------------------------------------------------ show
@pytest.mark.parametrize("name", GAMES)
def test_show_prints_the_rule_file_and_its_tables_file(capsys, name):
    rc, out, err = run(capsys, "show", name)
    assert rc == 0 and not err
    rules = (specs_dir() / f"{name}.talon").read_text()
    tables = (specs_dir() / f"{name}.yaml").read_text()
    assert out == f"==> {name}.talon <==\n{rules}\n==> {name}.yaml <==\n{tables}"


def test_show_rules_and_tables_print_one_file_as_it_is(capsys):
    rc, out, _ = run(capsys, "show", "sixty-six", "--rules")
    assert rc == 0 and out == (specs_dir() / "sixty-six.talon").read_text()
    rc, out, _ = run(capsys, "show", "sixty-six", "--tables")
    assert rc == 0 and out == (specs_dir() / "sixty-six.yaml").read_text()


def test_show_a_variant_says_where_its_tables_are(capsys):
    rc, out, _ = run(capsys, "show", "hearts-omnibus")
    assert rc == 0
    assert out.startswith("==> hearts-omnibus.talon <==\n" + (specs_dir() / "hearts-omnibus.talon").read_text())
    assert out.rstrip().endswith("it uses those of hearts; see `talon show hearts`)")
    rc, out, err = run(capsys, "show", "hearts-omnibus", "--tables")
    assert rc == 2 and not out
    assert err.strip() == ("talon: hearts-omnibus.talon names no tables file of its own: it uses those of its "
                           "base (`talon show hearts --tables`)")


def test_show_a_spec_by_path(capsys, tmp_path):
    (tmp_path / "t.yaml").write_text((specs_dir() / "whist.yaml").read_text())
    text = (specs_dir() / "whist.talon").read_text().replace('tables "whist.yaml"', 'tables "t.yaml"')
    (tmp_path / "mine.talon").write_text(text)
    rc, out, _ = run(capsys, "show", str(tmp_path / "mine.talon"))
    assert rc == 0 and "==> mine.talon <==" in out and "==> t.yaml <==" in out
    (tmp_path / "t.yaml").unlink()
    rc, out, err = run(capsys, "show", str(tmp_path / "mine.talon"))
    assert rc == 1 and "names the tables file `t.yaml`, which cannot be read" in err


@pytest.mark.parametrize("argv,message", [
    (["show", "heart"], "talon: no spec named `heart`: it is neither a file nor a bundled spec "
                        "(did you mean `hearts`?)"),
    (["show", "specs/hearts.yaml"], "is a tables file (YAML), not a spec"),
    (["show"], "the following arguments are required: SPEC"),
    (["show", "hearts", "--rules", "--tables"], "not allowed with argument"),
])
def test_show_usage_errors_exit_2_with_one_line(capsys, argv, message):
    rc, out, err = run(capsys, *argv)
    assert rc == 2 and message in err and "Traceback" not in err


# ------------------------------------------------------------------ new
def uncommented(text: str) -> str:
    """The skeleton with every example edit uncommented (the explanations dropped)."""
    out = []
    for ln in text.splitlines():
        if re.fullmatch(r"# [a-z]+:", ln):
            out.append(ln[2:])
        elif ln.startswith("#   (") or (ln.startswith("#") and not ln.startswith("#   ")):
            continue
        elif ln.startswith("#   "):
            out.append(ln[2:])
        else:
            out.append(ln)
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("base", GAMES + ["hearts-omnibus"])
def test_new_writes_a_skeleton_that_validates_with_real_rules_and_values(capsys, tmp_path, monkeypatch, base):
    monkeypatch.chdir(tmp_path)
    rc, out, err = run(capsys, "new", "my-rules", "--from", base)
    assert rc == 0, err
    assert out.startswith("wrote my-rules.talon: variant my-rules of " + base)
    text = (tmp_path / "my-rules.talon").read_text()
    g = load(base)
    assert f'variant my-rules "{g.title}, house rules"\nextends {base}\n' in text
    # Commented examples of each edit, naming the base's own rules and values.
    rep = re.search(r"^#   replace (\S+) \[house\]: (.+)$", text, re.M)
    add = re.search(r"^#   add (\S+) \[house\] after (\S+): .+$", text, re.M)
    rem = re.search(r"^#   remove (\S+)$", text, re.M)
    st = re.search(r"^#   set (values|points) (\S+) to (-?\d+)$", text, re.M)
    assert rep and add and rem and st, text
    assert rep.group(1) in g.rules and rep.group(2) == g.rules[rep.group(1)].text
    assert add.group(1) not in g.rules and add.group(2) in g.rules
    assert rem.group(1) in g.rules
    if st.group(1) == "values":
        assert g.values[st.group(2)] == int(st.group(3))
    else:
        assert g.card_points[g.card_by_name[st.group(2)]] == int(st.group(3))
    assert not list(tmp_path.glob(".talon-new-*")), "a trial file was left behind"
    # The file validates as written, and with every example uncommented.
    _, game, status = validate_one(str(tmp_path / "my-rules.talon"))
    assert status == 0 and game.title == f"{g.title}, house rules"
    (tmp_path / "all.talon").write_text(uncommented(text).replace("variant my-rules", "variant all"))
    out_, game, status = validate_one(str(tmp_path / "all.talon"))
    assert status == 0, [d.render() for d in out_.diagnostics]
    rc, out, _ = run(capsys, "diff", base, str(tmp_path / "all.talon"))
    assert rc == 0 and rem.group(1) in out


def test_new_refuses_to_overwrite(capsys, tmp_path):
    target = tmp_path / "mine.talon"
    target.write_text("keep me\n")
    rc, out, err = run(capsys, "new", "mine", "--from", "hearts", "--out", str(target))
    assert rc == 2 and not out
    assert err.strip() == f"talon: {target} already exists: talon new never overwrites a file (choose another --out)"
    assert target.read_text() == "keep me\n"


def test_new_with_a_title_and_out(capsys, tmp_path):
    out_file = tmp_path / "x.talon"
    rc, out, _ = run(capsys, "new", "quick-66", "--from", "sixty-six", "--out", str(out_file),
                     "--title", "Sixty-six to 7, fast")
    assert rc == 0
    assert 'variant quick-66 "Sixty-six to 7, fast"\nextends sixty-six\n' in out_file.read_text()
    assert validate_one(str(out_file))[2] == 0


def test_new_from_a_spec_of_ones_own_is_written_beside_it(capsys, tmp_path, monkeypatch):
    (tmp_path / "hearts.yaml").write_text((specs_dir() / "hearts.yaml").read_text())
    text = (specs_dir() / "hearts.talon").read_text().replace("game hearts", "game family-hearts")
    (tmp_path / "family-hearts.talon").write_text(re.sub(r"(?m)^examples .*$", "", text))
    monkeypatch.chdir(tmp_path)
    rc, out, err = run(capsys, "new", "family-omnibus", "--from", "family-hearts.talon")
    assert rc == 0, err
    written = (tmp_path / "family-omnibus.talon").read_text()
    assert "\nextends family-hearts\n" in written
    assert validate_one("family-omnibus.talon")[2] == 0
    (tmp_path / "sub").mkdir()
    rc, out, err = run(capsys, "new", "other", "--from", "family-hearts.talon", "--out", "sub/other.talon")
    assert rc == 2 and "must be written beside it" in err
    assert not (tmp_path / "sub" / "other.talon").exists()


@pytest.mark.parametrize("argv,message", [
    (["new", "x", "--from", "heartz"], "no spec named `heartz`: it is neither a file nor a bundled spec "
                                        "(did you mean `hearts`?)"),
    (["new", "My Rules", "--from", "hearts"], "`My Rules` is not a name for a variant"),
    (["new", "mine.talon", "--from", "hearts"], "--out mine.talon"),
    (["new", "hearts", "--from", "hearts"], "`hearts` is the name of its base"),
    (["new", "whist", "--from", "hearts"], "`whist` is the name of a bundled spec"),
    (["new", "x", "--from", "hearts", "--out", "/no/such/folder/x.talon"], "no such folder"),
    (["new", "x", "--from", "hearts", "--out", "x.yaml"], "a spec file's name ends with .talon"),
    (["new", "x"], "the following arguments are required: --from"),
])
def test_new_usage_errors_exit_2_with_one_line(capsys, tmp_path, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    rc, out, err = run(capsys, *argv)
    assert rc == 2 and message in err and "Traceback" not in err
    if not message.startswith("the following"):      # argparse adds its usage line
        assert len(err.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())


def test_new_of_an_invalid_base_exits_1(capsys, tmp_path, monkeypatch):
    (tmp_path / "broken.talon").write_text('game broken "Broken"\ntables "none.yaml"\n')
    monkeypatch.chdir(tmp_path)
    rc, out, err = run(capsys, "new", "fix", "--from", "broken.talon")
    assert rc == 1 and not (tmp_path / "fix.talon").exists()
