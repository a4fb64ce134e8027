"""Hostile input at the I/O and command-line layer (shared/hostile/FINDINGS.md): record
files, output paths, `play` input, command-line flags. One test per finding id; each
asserts the exact behaviour (exit status, one line, no traceback) and is bounded in time."""
from __future__ import annotations

import io
import itertools
import json
import os
import shutil
import stat
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
import yaml

from talon_cards.cli import main
from talon_cards.records import compress_numbers, read_record_file

ROOT = Path(__file__).resolve().parent.parent
MADE = ROOT / "specs" / "examples" / "501" / "r501-24-made.yaml"
TINY = Path(__file__).resolve().parent / "broken" / "_valid"
PYTHON_WORDS = ("int()", "set_int_max_str_digits", "Exceeds the limit", "Traceback", "Error:")


def made() -> dict:
    return yaml.safe_load(MADE.read_text(encoding="utf-8"))


def write(path: Path, rec) -> Path:
    if isinstance(rec, str):
        path.write_text(rec, encoding="utf-8")
    elif path.suffix == ".json":
        path.write_text(json.dumps(rec), encoding="utf-8")
    else:
        path.write_text(yaml.safe_dump(rec, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def one_line(rc, out, err, status, *needles):
    """The command failed with `status` and said so in one line holding every needle."""
    assert rc == status, (rc, out, err)
    assert "Traceback" not in out + err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for n in needles:
        assert n in lines[0], lines[0]
    for w in PYTHON_WORDS:
        assert w not in err, err
    return lines[0]


def play_cli(monkeypatch, capsys, args, stdin_text):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin_text))
    rc = main(["play", *args])
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def tiny_spec(folder: Path, name="tiny.talon", title=None, rounds=None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(TINY / "tiny.yaml", folder / "tiny.yaml")
    text = (TINY / "tiny.talon").read_text(encoding="utf-8")
    if title is not None:
        text = text.replace('game tiny "Tiny"', f'game tiny "{title}"')
    if rounds is not None:
        text = text.replace("2 rounds of 4 cards", rounds)
    (folder / name).write_text(text, encoding="utf-8")
    return folder / name


def leftovers(folder: Path) -> list:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp") or ".tmp" in p.name)


# ------------------------------------------------------------------ severe
def test_S7_huge_hands_make_chunks_lazily():
    from talon_cards.simulate import _chunks, _run
    chunks = _chunks(10 ** 12, 1000)
    assert not isinstance(chunks, (list, tuple))
    assert list(itertools.islice(chunks, 2)) == [(0, 1000), (1000, 2000)]
    tracemalloc.start()
    try:
        t0 = time.time()
        run = _run(("501",), 3, 1, 10 ** 12, False, None, 1000, 1, "local", None, False, 5)
        stats, _, _ = next(run)
        run.close()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert stats[0].deals == 5
    assert time.time() - t0 < 10
    assert peak < 20_000_000, f"{peak} bytes for the first chunk of 10**12 deals"


def test_S8_record_files_are_size_checked_and_devices_refused(tmp_path, talon_cli):
    one_line(*talon_cli("replay", "/dev/zero"), 1, "/dev/zero", "not a regular file")
    one_line(*talon_cli("replay", "--each", "/dev/zero"), 1, "not a regular file")
    # A huge (sparse) file is refused from its size, before a byte is read.
    big = tmp_path / "big.yaml"
    with open(big, "wb") as fh:
        fh.truncate(3 * 10 ** 9)
    tracemalloc.start()
    try:
        line = one_line(*talon_cli("replay", big), 1, "too large")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20_000_000 and "big.yaml" in line
    # A symlink to a device in a spec's examples folder: validate reports it, reads nothing.
    spec = tiny_spec(tmp_path / "ex")
    spec.write_text(spec.read_text().replace('tables "tiny.yaml"', 'tables "tiny.yaml"\nexamples "exz"'))
    (tmp_path / "ex" / "exz").mkdir()
    os.symlink("/dev/zero", tmp_path / "ex" / "exz" / "a.yaml")
    rc, out, err = talon_cli("validate", spec)
    assert rc == 1 and "Traceback" not in err
    assert "exz/a.yaml" in err and "not a regular file" in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_M14_a_fifo_record_is_refused_not_waited_on(tmp_path):
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    os.symlink(fifo, tmp_path / "link.yaml")
    for args in (["replay", str(fifo)], ["replay", "--each", str(fifo)], ["replay", str(tmp_path / "link.yaml")],
                 ["play", "--resume", str(fifo)]):
        r = subprocess.run([sys.executable, "-m", "talon_cards", *args], capture_output=True, text=True,
                           timeout=20, stdin=subprocess.DEVNULL)
        assert r.returncode == 1, (args, r.stderr)
        assert "not a regular file" in r.stderr and "Traceback" not in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1


def test_S9_play_record_is_written_through_an_exclusive_temporary_file(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    # (a) A path that exists and is not a regular file is refused, and left as it was.
    os.mkfifo("fifo.yaml")
    rc, out, err = play_cli(monkeypatch, capsys, ["501", "--seed", "1", "--record", "fifo.yaml"], "quit\n")
    assert rc == 2
    assert err.strip() == "talon play: cannot write fifo.yaml: it is not a regular file (a device, FIFO or socket)"
    assert stat.S_ISFIFO(os.stat("fifo.yaml").st_mode)
    rc, out, err = play_cli(monkeypatch, capsys, ["501", "--record", "/dev/null"], "quit\n")
    assert rc == 2 and "not a regular file" in err
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    # (b) Symlinks planted at the old predictable temporary names are never followed.
    victim = tmp_path / "victim.txt"
    victim.write_text("precious content\n")
    for pid in range(os.getpid(), os.getpid() + 3):
        os.symlink(victim, f"game.yaml.tmp{pid}")
    rc, out, err = play_cli(monkeypatch, capsys, ["501", "--seed", "1", "--record", "game.yaml"], "quit\n")
    assert rc == 0, err
    assert victim.read_text() == "precious content\n"
    assert read_record_file("game.yaml")[0]["spec"] == "501"
    assert not [p for p in os.listdir() if p.startswith(".game.yaml")]
    # (c) Never the spec being played.
    spec = tiny_spec(tmp_path / "s")
    before = spec.read_text()
    rc, out, err = play_cli(monkeypatch, capsys, [str(spec), "--record", str(spec)], "quit\n")
    assert rc == 2 and "it is the spec being run" in err
    assert spec.read_text() == before


def test_D09_records_are_replaced_only_by_a_finished_run(tmp_path, talon_cli, monkeypatch):
    keep = tmp_path / "keep.jsonl"
    rc, _, err = talon_cli("simulate", "501", "--hands", "10", "--records", keep, "--no-progress")
    assert rc == 0, err
    old = keep.read_bytes()
    assert len(old.splitlines()) == 10
    # A run that fails or is interrupted leaves the previous file intact and no temporary file.
    import talon_cards.simulate as sim
    real = sim.run_chunk
    calls = []

    def flaky(*a):
        calls.append(a)
        if len(calls) > 1:
            raise KeyboardInterrupt
        return real(*a)

    monkeypatch.setattr(sim, "run_chunk", flaky)
    rc, out, err = talon_cli("simulate", "501", "--hands", "100", "--records", keep, "--no-progress")
    assert rc == 130 and "interrupted" in err
    assert keep.read_bytes() == old
    assert leftovers(tmp_path) == []
    monkeypatch.setattr(sim, "run_chunk", real)
    # A new file appears only when the run succeeds; it is the complete run.
    new = tmp_path / "new.jsonl"
    monkeypatch.setattr(sim, "run_chunk", lambda *a: (_ for _ in ()).throw(RuntimeError("boom")))
    with pytest.raises(RuntimeError):
        main(["simulate", "501", "--hands", "10", "--records", str(new), "--no-progress"])
    assert not new.exists() and leftovers(tmp_path) == []
    monkeypatch.setattr(sim, "run_chunk", real)
    rc, _, err = talon_cli("simulate", "501", "--hands", "20", "--records", keep, "--no-progress")
    assert rc == 0 and len(keep.read_bytes().splitlines()) == 20
    # The spec being run is never replaced.
    spec = tiny_spec(tmp_path / "s")
    before = spec.read_text()
    one_line(*talon_cli("simulate", spec, "--hands", "3", "--records", spec), 2,
             f"cannot write {spec}: it is the spec being run")
    assert spec.read_text() == before


# ------------------------------------------------------------------ defects
def _edit(**changes):
    rec = made()
    for k, v in changes.items():
        rec[k] = v
    return rec


MALFORMED = [
    ("dealno-str", _edit(deal_number="abc"), "`deal_number` should be a whole number"),
    ("dealno-inf", "deal_number: .inf\n", "`deal_number` should be a whole number"),
    ("dealno-list", _edit(deal_number=[1]), "`deal_number` should be a whole number"),
    ("dealno-zero", _edit(deal_number=0), "`deal_number` should be a whole number from 1"),
    ("score-inf", "scores: {A: .inf, B: 501, C: 501}\n", "the score of A should be a whole number"),
    ("score-nan", "scores: {A: .nan, B: 501, C: 501}\n", "the score of A should be a whole number"),
    ("deals-int", {"spec": "501", "seats": ["A", "B", "C"], "deals": [1]}, "deal 1: a deal is a mapping"),
    ("deals-mixed", {"spec": "501", "seats": ["A", "B", "C"], "deals": [{"dealer": "C"}, "x"]},
     "deal 2: a deal is a mapping"),
    ("deep-yaml", "seats: " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
    ("seat-superscript", _edit(seats=["²", "B", "C"]), "`²` is not a seat name"),
    ("seat-escape", _edit(seats=["A\x1b[2J", "B", "C"]), "is not a seat name"),
    ("seat-number", _edit(seats=[1, "B", "C"]), "`1` is not a seat name"),
    ("talon-int", _edit(talon=5), "`talon` should be a list of cards"),
    ("spec-list", _edit(spec=["501"]), "`spec` should name a spec"),
    ("huge-number", "deal_number: " + "9" * 5000 + "\n", "a number too long to read"),
]


@pytest.mark.parametrize("name, change, needle", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_D05_malformed_records_are_one_located_line(tmp_path, talon_cli, name, change, needle):
    p = tmp_path / f"{name}.yaml"
    if isinstance(change, str):             # YAML text: appended keys replace the record's own
        rec = made()
        rec.pop(change.split(":")[0], None)
        p.write_text(yaml.safe_dump(rec, sort_keys=False) + change, encoding="utf-8")
    else:
        write(p, change)
    line = one_line(*talon_cli("replay", p), 1, needle)
    assert line.startswith(f"talon: {p}")


def test_D05_json_and_json_lines_nested_or_malformed(tmp_path, talon_cli):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100000 + "]" * 100000)
    one_line(*talon_cli("replay", deep), 1, "nested too deeply")
    good = json.dumps(made())
    lines = [good, "[" * 100000 + "]" * 100000, good.replace('"scores": {"A": 501', '"scores": {"A": 1e999'),
             json.dumps({**made(), "deal_number": "x"}), good]
    each = tmp_path / "each.jsonl"
    each.write_text("\n".join(lines) + "\n")
    rc, out, err = talon_cli("replay", "--each", each)
    assert rc == 1 and "Traceback" not in err
    assert err.splitlines() == [f"{each}:2: the record is nested too deeply (more than 32 levels)",
                                f"{each}:3: the score of A should be a whole number, not inf",
                                f"{each}:4: `deal_number` should be a whole number, not x"]
    assert out.strip() == f"{each}: 5 records, 2 replay, 3 do not"
    # Numbers written with digits other than 0-9 never reach int().
    assert compress_numbers(["A bid ²", "A bid 66", "A bid 67", "A bid " + "1" * 5000]) == \
        ["A bid ²", "A bid 66…67", "A bid " + "1" * 5000]


def test_D06_play_input_of_odd_numbers_never_crashes(monkeypatch, capsys):
    for line in ("²", "1" * 5000, "bid ⁸⁰", "bid " + "7" * 5000):
        rc, out, err = play_cli(monkeypatch, capsys, ["501", "--seed", "1"], f"look\n{line}\n")
        assert rc == 0 and "Traceback" not in out + err
        for w in PYTHON_WORDS:
            assert w not in out + err
        assert ("is not a number" in out) or ("too large a number" in out)
    # The same while it is not your turn (offer_free).
    rc, out, err = play_cli(monkeypatch, capsys, ["501", "--seed", "1"], "²\n" + "9" * 5000 + "\n")
    assert rc == 0 and "Traceback" not in out + err
    assert "is not a number" in out and "too large a number" in out


def test_D07_output_paths_that_cannot_be_written_are_one_line(tmp_path, talon_cli):
    one_line(*talon_cli("simulate", "501", "--hands", "5", "--records", "/dev/full"), 2,
             "cannot write /dev/full: it is not a regular file")
    one_line(*talon_cli("simulate", "501", "--hands", "5", "--records", tmp_path), 2, "it is a folder")
    one_line(*talon_cli("simulate", "501", "--hands", "5", "--records", tmp_path / "no" / "r.jsonl"), 2,
             "no such folder")
    pytest.importorskip("matplotlib")
    rc, out, err = talon_cli("simulate", "501", "--hands", "5", "--plot", tmp_path / "p.txt")
    one_line(rc, out, err, 2, "cannot draw .txt files")
    assert out == ""
    os.mkfifo(tmp_path / "f.png")
    one_line(*talon_cli("simulate", "501", "--hands", "5", "--plot", tmp_path / "f.png"), 2, "not a regular file")


def test_D08_plot_writes_exactly_the_path_given(tmp_path, talon_cli, monkeypatch):
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "adir").mkdir()
    one_line(*talon_cli("simulate", "501", "--hands", "20", "--plot", "adir"), 2, "give a file name ending")
    one_line(*talon_cli("simulate", "501", "--hands", "20", "--plot", "noext"), 2, "give a file name ending")
    one_line(*talon_cli("compare", "501", "501-must-beat", "--hands", "20", "--plot", "adir"), 2)
    assert sorted(os.listdir()) == ["adir"]
    rc, _, err = talon_cli("simulate", "501", "--hands", "20", "--plot", "p.svg", "--no-progress")
    assert rc == 0, err
    assert sorted(os.listdir()) == ["adir", "p.svg"]
    assert (tmp_path / "p.svg").read_bytes().lstrip().startswith(b"<?xml")


def test_M11_plot_is_checked_before_simulating(tmp_path, talon_cli, monkeypatch):
    import talon_cards.simulate as sim
    monkeypatch.setattr(sim, "simulate", lambda *a, **k: pytest.fail("simulated before checking --plot"))
    monkeypatch.setattr(sim, "compare", lambda *a, **k: pytest.fail("compared before checking --plot"))
    with monkeypatch.context() as m:
        m.setitem(sys.modules, "matplotlib", None)          # as if it were not installed
        one_line(*talon_cli("simulate", "501", "--hands", "20000", "--plot", tmp_path / "x.png"), 2,
                 "--plot needs matplotlib")
        one_line(*talon_cli("compare", "501", "501-must-beat", "--plot", tmp_path / "x.png"), 2,
                 "--plot needs matplotlib")
    pytest.importorskip("matplotlib")
    one_line(*talon_cli("simulate", "501", "--plot", tmp_path / "x.xyz"), 2, "cannot draw .xyz files")
    one_line(*talon_cli("simulate", "501", "--plot", tmp_path / "none" / "x.png"), 2, "no such folder")


def test_D11_each_reports_a_bad_record_and_goes_on(tmp_path, talon_cli):
    good = json.dumps(made())
    lines = [good, good, json.dumps({"spec": "no-such-spec", "seats": ["A", "B", "C"]}),
             json.dumps({**made(), "spec": "../../etc/passwd"}), good, good]
    f = tmp_path / "batch.jsonl"
    f.write_text("\n".join(lines) + "\n")
    rc, out, err = talon_cli("replay", "--each", f)
    assert rc == 1 and "Traceback" not in err
    errs = err.splitlines()
    assert len(errs) == 2
    assert errs[0].startswith(f"{f}:3: no spec named `no-such-spec`")
    assert errs[1].startswith(f"{f}:4: the record's spec `../../etc/passwd` is outside the record's folder")
    assert out.strip() == f"{f}: 6 records, 4 replay, 2 do not"
    rc, out, err = talon_cli("replay", "--each", f, "--json")
    data = json.loads(out)
    assert rc == 1 and data["records"] == 6 and data["complete"] == 4
    assert [x["line"] for x in data["failed"]] == [3, 4]
    # A spec that does not load is reported for each record naming it.
    bad = tmp_path / "bad.talon"
    bad.write_text("game bad\n")
    lines = [json.dumps({**made(), "spec": "bad.talon"})] * 2 + [good]
    f.write_text("\n".join(lines) + "\n")
    rc, out, err = talon_cli("replay", "--each", f)
    assert rc == 1 and [ln.split(": ")[0] for ln in err.splitlines()] == [f"{f}:1", f"{f}:2"]
    assert "does not load" in err and out.strip() == f"{f}: 3 records, 1 replay, 2 do not"


def test_D12_a_record_spec_is_found_beside_the_record_never_in_the_working_folder(tmp_path, talon_cli,
                                                                                  monkeypatch):
    proj, other = tmp_path / "proj", tmp_path / "other"
    tiny_spec(proj)
    tiny_spec(other)
    loud = other / "tiny.talon"
    loud.write_text(loud.read_text().replace("scores tricks of seat", "scores 100 * tricks of seat"))
    (proj / "out").mkdir()
    # simulate names the spec relative to the records file (or by its bundled name).
    monkeypatch.chdir(proj)
    rc, _, err = talon_cli("simulate", "tiny.talon", "--hands", "3", "--records", "r.jsonl", "--no-progress")
    assert rc == 0, err
    assert {r["spec"] for r in read_record_file("r.jsonl")} == {"tiny.talon"}
    rc, _, err = talon_cli("simulate", "tiny.talon", "--hands", "3", "--records", "out/r.jsonl", "--no-progress")
    assert rc == 0 and "--spec" in err
    assert {r["spec"] for r in read_record_file("out/r.jsonl")} == {"../tiny.talon"}
    rc, _, err = talon_cli("simulate", ROOT / "specs" / "501.talon", "--hands", "2", "--records", "out/b.jsonl",
                           "--no-progress")
    assert rc == 0 and {r["spec"] for r in read_record_file("out/b.jsonl")} == {"501"}
    # The same record gives the same result from any working folder.
    rec = read_record_file("r.jsonl")[0]
    write(proj / "one.json", rec)
    results = []
    for cwd in (proj, other, tmp_path):
        monkeypatch.chdir(cwd)
        rc, out, err = talon_cli("replay", proj / "one.json", "--json")
        assert rc == 0, err
        results.append(json.loads(out)["scores"])
    assert results[0] == results[1] == results[2]
    # A spec beside the working folder is not used for a record elsewhere.
    monkeypatch.chdir(other)
    write(proj / "out" / "two.json", rec)
    one_line(*talon_cli("replay", proj / "out" / "two.json"), 1, "no spec file `tiny.talon` in the record's folder")
    # Paths leaving the record's folder are refused, unless they name a bundled spec.
    for ref in ("../tiny.talon", str(proj / "tiny.talon"), "/etc/passwd", "../../../../../../etc/passwd"):
        write(proj / "out" / "x.json", {**rec, "spec": ref})
        one_line(*talon_cli("replay", proj / "out" / "x.json"), 1, "is outside the record's folder")
    m = made()
    for ref in (str(ROOT / "specs" / "501.talon"), "501"):
        write(proj / "out" / "m.yaml", {**m, "spec": ref})
        assert talon_cli("replay", proj / "out" / "m.yaml")[0] == 0


def test_D13_unfinished_expectations_and_duplicate_keys(tmp_path, talon_cli):
    rec = made()
    rec["actions"] = rec["actions"][:8]
    p = write(tmp_path / "cut.yaml", rec)
    rc, out, err = talon_cli("replay", p)
    assert rc == 1 and "Traceback" not in err
    assert err.strip() == f"{p}: the record is unfinished (play), so its `expect:` was not checked"
    rc, out, err = talon_cli("replay", p, "--json")
    assert rc == 1 and "not checked" in json.loads(out)["expectations_unchecked"]
    text = MADE.read_text(encoding="utf-8")
    dup = tmp_path / "dup.yaml"
    dup.write_text(text + "actions:\n- A pass\n", encoding="utf-8")
    first = text.splitlines().index("actions:") + 1
    last = len(text.splitlines()) + 1
    one_line(*talon_cli("replay", dup), 1,
             f"talon: {dup}:{last}:1: `actions` is given twice (the first is at line {first})")
    dupj = tmp_path / "dup.jsonl"
    dupj.write_text(json.dumps(made()) + "\n" + json.dumps(made())[:-1] + ', "seats": ["A", "B", "C"]}\n')
    rc, out, err = talon_cli("replay", "--each", dupj)
    assert rc == 1 and err.strip() == f"{dupj}:2: `seats` is given twice in one mapping"


# ------------------------------------------------------------------ minor
def test_M3_seats_zero_is_refused(talon_cli, monkeypatch, capsys):
    one_line(*talon_cli("simulate", "501", "--hands", "5", "--seats", "0"), 2, "501 is played by 3 or 4 seats, not 0")
    one_line(*talon_cli("compare", "501", "501-must-beat", "--hands", "5", "--seats", "0"), 2, "not 0")
    rc, out, err = play_cli(monkeypatch, capsys, ["501", "--seats", "0"], "quit\n")
    assert rc == 2 and err.strip() == "talon play: 501 is played by 3 or 4 seats, not 0"


@pytest.mark.parametrize("args", [["validate", "{}"], ["simulate", "{}"], ["compare", "{}", "501"],
                                  ["compare", "501", "{}"], ["replay", str(MADE), "--spec", "{}"],
                                  ["play", "{}"], ["diff", "{}", "501"], ["diff", "501", "{}"]])
def test_M4_a_missing_spec_is_the_same_usage_error_everywhere(talon_cli, args):
    rc, out, err = talon_cli(*[a.format("50") for a in args])
    assert rc == 2 and "Traceback" not in err
    assert "no spec named `50`: it is neither a file nor a bundled spec" in err.splitlines()[0]
    assert "did you mean `501`?" in err
    if args[0] != "validate":
        assert len(err.strip().splitlines()) == 1 and str(ROOT) not in err


def test_M5_record_numbers_are_not_coerced(tmp_path, talon_cli):
    for change, needle in ((_edit(scores={"A": 501.9, "B": 501, "C": 501}), "not 501.9"),
                           (_edit(scores={"A": True, "B": 501, "C": 501}), "not true"),
                           (_edit(deal_number=1.9), "not 1.9"),
                           (_edit(deal_number=-5), "from 1 to")):
        one_line(*talon_cli("replay", write(tmp_path / "r.yaml", change)), 1, needle)


def test_M6_no_python_wording_in_record_messages(tmp_path, talon_cli):
    for action in ("A bid ⁸⁰ blind", "A bid " + "8" * 5000, "A bid ٨٠ blind"):
        rec = made()
        rec["actions"][0] = action
        rc, out, err = talon_cli("replay", write(tmp_path / "r.yaml", rec))
        assert rc == 1 and "action 1" in err
        assert ("is not a number" in err) or ("too large a number" in err)
        for w in PYTHON_WORDS:
            assert w not in err
    big = tmp_path / "big.json"
    big.write_text(json.dumps(made()).replace('"A": 501', '"A": ' + "5" * 5000, 1))
    one_line(*talon_cli("replay", big), 1, "a number too long to read")


def test_M8_control_characters_are_never_printed(tmp_path, talon_cli):
    spec = tiny_spec(tmp_path, title="Tiny\x1b]0;pwned\x07\x1b[2J")
    rc, out, err = talon_cli("validate", spec)
    assert rc == 0, err
    assert "\x1b" not in out + err and "\x07" not in out + err
    assert "Tiny\\x1b]0;pwned\\x07\\x1b[2J" in out
    rec = made()
    rec["actions"][0] = "A bid 80\x1b[2J\x9b"
    rc, out, err = talon_cli("replay", write(tmp_path / "r.yaml", rec))
    assert rc == 1 and "action 1" in err
    assert "\x1b" not in out + err and "\x9b" not in out + err
    rec = made()
    rec["hands"]["Z\x1b[31m\r"] = rec["hands"].pop("A")
    line = one_line(*talon_cli("replay", write(tmp_path / "r.yaml", rec)), 1, "is not one of the seats")
    assert "Z\\x1b[31m\\x0d" in line


def test_M9_seeds_S_and_minus_S_differ(tmp_path, talon_cli):
    from talon_cards.simulate import deal_rng
    assert deal_rng(5, 0).random() != deal_rng(-5, 0).random()
    assert deal_rng(5, 3).random() == deal_rng(5, 3).random()
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert talon_cli("simulate", "501", "--hands", "2", "--seed", "5", "--records", a)[0] == 0
    assert talon_cli("simulate", "501", "--hands", "2", "--seed", "-5", "--records", b)[0] == 0
    assert a.read_text().splitlines()[0] != b.read_text().splitlines()[0]


def test_M10_workers_are_capped(talon_cli):
    one_line(*talon_cli("simulate", "501", "--hands", "5", "--workers", "1000"), 2, "--workers must be at most 64")
    one_line(*talon_cli("compare", "501", "501-must-beat", "--workers", "65"), 2, "--workers must be at most 64")


def test_M12_compare_needs_the_same_deals(tmp_path, talon_cli):
    a = tiny_spec(tmp_path / "a")
    b = tiny_spec(tmp_path / "b", rounds="4 rounds of 2 cards")
    one_line(*talon_cli("compare", a, b, "--hands", "20"), 2, "deal different hands", "same deck, dealt the same way")
    one_line(*talon_cli("compare", "501", a, "--hands", "20"), 2)      # 3 seats for 501; 4 for tiny
    one_line(*talon_cli("compare", "501", a, "--hands", "20", "--seats", "4"), 2, "deal different hands")
    assert talon_cli("compare", a, a, "--hands", "20")[0] == 0


def test_M13_the_game_cache_is_bounded():
    import talon_cards.simulate as sim
    from talon_cards.spec import load
    g = load("501")
    try:
        for i in range(100):
            sim._remember(f"spec-{i}", g)
        assert len(sim._GAMES) <= sim.MAX_GAMES == 32
        assert "spec-99" in sim._GAMES and "spec-0" not in sim._GAMES
        assert sim._game("501") is not None and len(sim._GAMES) <= 32
    finally:
        for i in range(100):
            sim._GAMES.pop(f"spec-{i}", None)


def test_version_and_kinds_of_file(talon_cli, capsys):
    rc = main(["--version"])
    assert rc == 0 and capsys.readouterr().out.strip() == "talon 0.2.0"
    rc, out, err = talon_cli("validate", ROOT / "specs" / "501.yaml")
    assert rc == 2 and "is a tables file (YAML), not a spec" in err and "validate that spec" in err
    rc, out, err = talon_cli("validate", MADE)
    assert rc == 2 and "is a hand record, not a spec" in err and f"talon replay {MADE}" in err
    one_line(*talon_cli("replay", ROOT / "specs" / "501.talon"), 2, "is a spec", "talon validate", "talon simulate")
    one_line(*talon_cli("replay", "--each", ROOT / "specs" / "501.talon"), 2, "is a spec")
    one_line(*talon_cli("replay", ROOT / "specs" / "501.yaml"), 2, "is a tables file")
