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
from sudokit.rating import Rating, hodoku, rate, screen

SK_RATINGS = Path(__file__).with_name("sk_rules_ratings.txt")
SK_HARDER = Path(__file__).with_name("sk_rules_ratings_harder.txt")
SK_CHAINS = Path(__file__).with_name("sk_rules_ratings_chains.txt")


def _rows(path: Path = SK_RATINGS) -> list[tuple[str, str, str]]:
    rows = []
    for line in path.read_text().splitlines():
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


def test_harder_ratings_equal_sukaku_explainers() -> None:
    """Puzzles past the subsets: wings, unique rectangles and loops, BUG and aligned pair
    exclusion, each used on some path; every rating is SukakuExplainer's."""
    rows = _rows(SK_HARDER)
    counts = Counter(r for r, _, _ in rows)
    assert set(counts) == {"x", "windoku", "dg", "antiknight", "antiking"} | {
        "x+windoku",
        "antiknight+x",
        "dg+windoku",
    }
    assert min(counts.values()) >= 30
    used: Counter[str] = Counter()
    for grid, _ in _rated_as_sukaku_explainer(rows):
        used.update({s.technique for s in solve_path(grid).steps})
    for slug in ("xy-wing", "xyz-wing", "unique-rectangle", "bug", "aligned-pair-exclusion"):
        assert used[slug] > 0, slug


def _rated_as_sukaku_explainer(rows: list[tuple[str, str, str]]) -> list[tuple[Grid, Rating]]:
    """Each row's puzzle (rules, puzzle, SukakuExplainer's ``ED=ER/EP/ED``) and its rating,
    once every rating is asserted to be SukakuExplainer's (those that differ listed)."""
    out, differ = [], []
    for rules, puzzle, sk in rows:
        grid = Grid(puzzle, rules=Rules(rules))
        r = rate(grid)
        mine = f"ED={r.er:.1f}/{r.ep:.1f}/{r.ed:.1f}"
        if mine != sk:
            differ.append((rules, puzzle, sk, mine))
        out.append((grid, r))
    assert not differ
    return out


def test_chain_ratings_equal_sukaku_explainers() -> None:
    """Puzzles that need forcing chains and cycles (X, Y and XY), whose links run through
    every house and the neighbour rules' cells, or aligned triple exclusion; every rating is
    SukakuExplainer's."""
    rows = _rows(SK_CHAINS)
    counts = Counter(r for r, _, _ in rows)
    assert len(counts) == 8 and min(counts.values()) >= 25
    kinds: Counter[str] = Counter()
    for grid, r in _rated_as_sukaku_explainer(rows):
        assert r.er >= 6.5
        kinds.update(s.technique for s in solve_path(grid).steps if s.rating >= 6.5)
    assert {"forcing-x-chain", "forcing-chain", "x-cycle", "y-cycle", "xy-cycle"} <= set(kinds)
    assert kinds["aligned-triple-exclusion"] > 0


def test_ratings_use_the_extra_houses() -> None:
    """Read as classic grids, the stored puzzles are not solved by the same techniques (they
    have more than one classic solution): their paths rest on the rules' houses and peers."""
    techniques = for_rules(SE_ORDER, Rules("x"))
    for rules, puzzle, _ in _rows()[::8]:
        assert solve_path(Grid(puzzle, rules=Rules(rules)), techniques=techniques).solved
        assert not solve_path(Grid(puzzle), techniques=techniques).solved


def test_rating_refuses_where_a_technique_is_missing_under_rules() -> None:
    puzzle = dig("x", 0)  # needs more than forcing chains and ATE
    with pytest.raises(InvalidRulesError, match="needs nishio or a technique after it"):
        rate(puzzle)
    with pytest.raises(InvalidRulesError, match="needs nishio"):
        screen(puzzle, 3.0).finish()
    capped = rate(puzzle, max_rating=2.0)
    assert capped.capped and not capped.solved
    with pytest.raises(InvalidRulesError, match="HoDoKu grade handles classic rules only"):
        hodoku(puzzle)
    with pytest.raises(InvalidRulesError, match="does not handle rule 'nc'"):
        rate(dig("nc", 2))


def test_a_rating_asked_with_its_hodoku_grade_has_none_under_rules() -> None:
    rules, text, sk = _rows()[0]
    puzzle = Grid(text, rules=Rules(rules))
    rating = rate(puzzle, with_hodoku=True)
    assert rating.solved and rating.hodoku is None and str(rating) == sk
    easy = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    assert rate(Grid(easy), with_hodoku=True).hodoku is not None  # classic: graded
