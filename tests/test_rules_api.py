"""Grids that carry rules: the value, the exact engine's functions under them, and the layers
that do not read rules yet refusing them by name."""

from __future__ import annotations

import pickle

import pytest

import rules_oracle
from sudokit import (
    CLASSIC,
    Grid,
    InvalidPuzzleError,
    InvalidRulesError,
    Rules,
    Shape,
    count_many,
    count_solutions,
    is_unique,
    random_grid,
    solve,
    solve_many,
    unique_solution,
)
from sudokit.rules import geometry
from unique_puzzles import unique_under

JIGSAW9 = "111222333111222333114522333144552666444555666444555966777888996777888999777888999"
X = Rules("x")


def test_grid_carries_rules() -> None:
    text = "1" + "." * 80
    g = Grid(text, rules="x")
    assert g.rules == X and isinstance(g, Grid)
    assert Grid(text).rules == CLASSIC and type(Grid(text)) is Grid
    assert Grid(text, rules=CLASSIC) == Grid(text) and type(Grid(text, rules="classic")) is Grid
    assert g != Grid(text) and Grid(text) != g and g == Grid(text, rules=Rules("x"))
    assert len({g, Grid(text), Grid(text, rules="x")}) == 2
    assert g != Grid(text, rules="windoku")
    assert repr(g) == f"Grid({text!r}, rules=Rules('x'))"
    assert eval(repr(g), {"Grid": Grid, "Rules": Rules}) == g
    assert pickle.loads(pickle.dumps(g)) == g and pickle.loads(pickle.dumps(g)).rules == X
    assert g.with_digit(1, 2).rules == X and g.without(0).rules == X
    with pytest.raises(InvalidPuzzleError, match=r"digit 1 at r1c1 and r9c9 \(diagonal 1\)"):
        g.with_digit(80, 1)
    assert g.with_digit(80, 1, allow_conflicts=True).conflicts() == [(0, 80, 27)]
    nc = Grid("." * 9 + "5" + "." * 71, rules="nc")
    with pytest.raises(InvalidPuzzleError, match=r"consecutive digits 4 at r1c1 and 5 at r2c1"):
        nc.with_digit(0, 4)
    assert nc.with_digit(0, 3)[0] == 3
    assert Grid.from_cells(g.cells, Shape(3, 3), rules="x") == g
    assert Grid.empty(Shape(3, 3), rules="x").rules == X
    six = Grid("." * 36, shape=Shape(2, 3), rules="nc")
    assert repr(six) == f"Grid({'.' * 36!r}, shape=Shape(2, 3), rules=Rules('nc'))"


@pytest.mark.parametrize(
    ("text", "rules", "message"),
    [
        ("12" + "." * 79, "nc", r"consecutive digits 1 at r1c1 and 2 at r1c2 \(nc\)"),
        ("1" + "." * 19 + "1" + "." * 60, "x", r"digit 1 at r1c1 and r3c3 \(box 1\)"),
        ("1" + "." * 39 + "1" + "." * 40, "x", r"r1c1 and r5c5 \(diagonal 1\)"),
        ("." * 2 + "1" + "." * 10 + "1" + "." * 67, "antiknight", r"r1c3 and r2c5 \(antiknight\)"),
        ("." * 2 + "1" + "." * 7 + "1" + "." * 70, "windoku", r"r1c3 and r2c2 \(box 1\)"),
        ("1" + "." * 39 + "1" + "." * 40, "windoku", r"r1c1 and r5c5 \(implied window 5\)"),
        ("." * 27 + "1" + "." * 53, "jigsaw:" + JIGSAW9 + "+x", None),
        ("1" + "." * 26 + "1" + "." * 53, "jigsaw:" + JIGSAW9, r"r1c1 and r4c1 \(column 1\)"),
    ],
)
def test_clues_that_break_the_rules(text: str, rules: str, message: str | None) -> None:
    if message is None:
        Grid(text, rules=rules)
        return
    with pytest.raises(InvalidPuzzleError, match=message):
        Grid(text, rules=rules)
    Grid(text, rules=rules, allow_conflicts=True)


def test_jigsaw_boxes_are_no_houses() -> None:
    # r1c1 and r3c3 share box 1, not a region: fine in the jigsaw, a conflict classically
    text = "1" + "." * 19 + "1" + "." * 60
    assert Grid(text, rules="jigsaw:" + JIGSAW9).clue_count == 2
    with pytest.raises(InvalidPuzzleError):
        Grid(text)


def test_rules_that_do_not_fit_the_grid() -> None:
    with pytest.raises(InvalidRulesError, match="windoku needs square boxes"):
        Grid("." * 36, shape=Shape(2, 3), rules="windoku")
    with pytest.raises(InvalidRulesError, match="unknown rule 'zigzag'"):
        Grid("." * 81, rules="zigzag")
    with pytest.raises(TypeError):
        Grid("." * 81, rules=3)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["x", "windoku", "antiknight", "nc", "jigsaw:" + JIGSAW9])
def test_engine_functions_honour_rules(text: str) -> None:
    rules = Rules(text)
    puzzle = unique_under(rules, seed=len(text))
    geo = geometry(puzzle.shape, rules)
    assert count_solutions(puzzle) == 1 and is_unique(puzzle)
    if not text.startswith("jigsaw"):  # the rules make it unique; the classic ones do not
        assert count_solutions(Grid(puzzle.to_line())) == 2
    solution = solve(puzzle)
    assert solution is not None and solution.rules == rules and solution.is_complete()
    assert rules_oracle.breaks(geo.peers, geo.related, solution.cells) is None
    assert unique_solution(puzzle) == solution
    assert rules_oracle.solve(geo, puzzle.cells)[0] == 1
    assert solve_many([puzzle, puzzle]) == [solution, solution]
    assert count_many([puzzle, solution]) == [1, 1]


def test_counts_under_rules_differ_from_classic() -> None:
    empty = Grid("." * 16, shape=Shape(2, 2))
    assert count_solutions(empty, limit=1000) == 288
    x = Grid("." * 16, shape=Shape(2, 2), rules="x")
    assert (
        count_solutions(x, limit=1000) == rules_oracle.solve(geometry(x.shape, X), x.cells, 1000)[0]
    )
    assert 0 < count_solutions(x, limit=1000) < 288
    assert count_solutions(Grid("." * 16, shape=Shape(2, 2), rules="antiking"), limit=5) == 0


def test_batches_share_rules() -> None:
    a, b = Grid("." * 81, rules="x"), Grid("." * 81)
    with pytest.raises(ValueError, match="same rules: grid 0 has 'x', grid 1 has 'classic'"):
        count_many([a, b])
    with pytest.raises(ValueError, match="same rules"):
        count_many([b, a])


def test_random_grid_under_rules() -> None:
    g = random_grid(rules="x+windoku", seed=9)
    assert g.rules == Rules("x+windoku") and g == random_grid(rules="windoku+x", seed=9)
    geo = geometry(g.shape, g.rules)
    assert rules_oracle.breaks(geo.peers, geo.related, g.cells) is None
    assert random_grid(seed=9) == random_grid(rules=CLASSIC, seed=9)
    assert type(random_grid(seed=9)) is Grid
    with pytest.raises(InvalidRulesError, match="'antiking' on shape 2x2 have no complete grid"):
        random_grid(Shape(2, 2), rules="antiking", seed=1)
