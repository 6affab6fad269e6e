"""Ratings under rules against SukakuExplainer's (the SE fork that rates variants), and the
refusals where a technique does not run under rules yet.

``sk_rules_ratings.txt`` holds SukakuExplainer's ratings of puzzles made by
``rules_puzzles.dig`` (its header says how they were made and rated); every one is compared.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from rules_puzzles import dig

from sudokit import Grid, Rules
from sudokit.errors import InvalidRulesError
from sudokit.logic import SE_ORDER, for_rules, solve_path
from sudokit.rating import hodoku, rate, screen

SK_RATINGS = Path(__file__).with_name("sk_rules_ratings.txt")


def _rows() -> list[tuple[str, str, str]]:
    rows = []
    for line in SK_RATINGS.read_text().splitlines():
        if line and not line.startswith("#"):
            rules, puzzle, rating = line.split()
            rows.append((rules, puzzle, rating))
    return rows


def test_ratings_equal_sukaku_explainers() -> None:
    rows = _rows()
    assert Counter(r for r, _, _ in rows) == {
        r: 40
        for r in ("x", "windoku", "dg", "antiknight", "antiking")
        + ("x+windoku", "antiknight+x", "dg+windoku")
    }
    differ = []
    for rules, puzzle, sk in rows:
        r = rate(Grid(puzzle, rules=Rules(rules)))
        mine = f"ED={r.er:.1f}/{r.ep:.1f}/{r.ed:.1f}"
        if mine != sk:
            differ.append((rules, puzzle, sk, mine))
    assert not differ


def test_ratings_use_the_extra_houses() -> None:
    """Read as classic grids, the stored puzzles are not solved by the same techniques (they
    have more than one classic solution): their paths rest on the rules' houses and peers."""
    techniques = for_rules(SE_ORDER, Rules("x"))
    for rules, puzzle, _ in _rows()[::8]:
        assert solve_path(Grid(puzzle, rules=Rules(rules)), techniques=techniques).solved
        assert not solve_path(Grid(puzzle), techniques=techniques).solved


def test_rating_refuses_where_a_technique_is_missing_under_rules() -> None:
    puzzle = dig("x", 0)  # needs xy-wing or more after the subsets
    with pytest.raises(InvalidRulesError, match="needs xy-wing or a technique after it"):
        rate(puzzle)
    with pytest.raises(InvalidRulesError, match="needs xy-wing"):
        screen(puzzle, 3.0).finish()
    capped = rate(puzzle, max_rating=2.0)
    assert capped.capped and not capped.solved
    with pytest.raises(InvalidRulesError, match="HoDoKu grade handles classic rules only"):
        hodoku(puzzle)
    with pytest.raises(InvalidRulesError, match="does not handle rule 'nc'"):
        rate(dig("nc", 2))
