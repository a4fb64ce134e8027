"""`talon diff`: what a variant changes, rule by rule and entry by entry."""
import json

import pytest

from talon_cards.cli import main
from talon_cards.spec.diff import diff
from talon_cards.spec import load


def test_diff_marriage_trumps_explains_the_change(capsys):
    assert main(["diff", "501", "501-marriage-trumps"]) == 0
    out = capsys.readouterr().out
    assert "adds the rule `marriage-trumps`" in out
    assert "a marriage makes its suit trumps from the next trick" in out
    assert "changes the rule `marriage-worth`" in out
    assert "was: a marriage is worth marriage-in-trumps when its suit is trumps, else marriage-plain" in out


def test_diff_json_lists_rules_and_tables(capsys):
    assert main(["diff", "solo-whist", "solo-whist-no-royal", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["rules"] == [{"change": "removed", "name": "royal-overcall", "section": "auction",
                           "clauses": ["RSW-4"],
                           "was": "abundance-in-trumps may be bid only when the highest bid is abundance"}]
    assert d["tables"] == [{"change": "removed", "path": ["ladder", "abundance-in-trumps"]}]


def test_diff_table_value_change():
    d = diff(load("solo-whist"), load("solo-whist-twelve"))
    assert d["rules"] == []
    assert d["tables"] == [{"change": "changed", "path": ["values", "session-deals"], "was": 8, "now": 12}]


def test_diff_of_a_spec_with_itself_is_empty(capsys):
    assert main(["diff", "501", "501"]) == 0
    assert "plays exactly like" in capsys.readouterr().out


@pytest.mark.parametrize("variant,base", [("501-no-blind", "501"), ("501-open-passing", "501"),
                                          ("501-must-beat", "501"), ("solo-whist-overtricks", "solo-whist")])
def test_every_variant_differs_from_its_base(variant, base):
    d = diff(load(base), load(variant))
    assert d["rules"] or d["tables"]
