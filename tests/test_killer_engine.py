"""The exact engine under killer cages (rules ``killer:<cage map>/<sums>``), held to the plain
killer solver in killer_oracle.py and to the killer puzzles of Simon Tatham's solo."""

from __future__ import annotations

import random

import pytest

from killer_oracle import count as oracle_count
from killer_oracle import random_layout
from killer_puzzles import solo_killers
from sudokit import Grid, Rules, Shape, count_solutions, random_grid, solve
from sudokit.cages import Cage, Cages
from sudokit.errors import InvalidPuzzleError, InvalidRulesError


def _solo_puzzles() -> list[tuple[str, Rules, list[int]]]:
    return [(grade, grid.rules, list(grid.cells)) for grade, grid in solo_killers()]


def _killer(shape: Shape, seed: int, most: int) -> tuple[Rules, bytes]:
    """A killer layout cut from a random solution grid (cages of 1..most cells, sums from
    the grid), and that grid."""
    solution = random_grid(shape, seed=seed).cells
    cells = random_layout(solution, shape.n, random.Random(seed), most)
    layout = Cages(shape.n, [Cage(tuple(c), sum(solution[x] for x in c)) for c in cells])
    return Rules(f"killer:{layout}"), solution


def test_every_solo_killer_has_one_solution_keeping_its_cages() -> None:
    puzzles = _solo_puzzles()
    assert {grade for grade, _, _ in puzzles} == {"db", "di", "da", "de"} and len(puzzles) == 120
    for _, rules, givens in puzzles:
        grid = Grid.from_cells(givens, Shape(3, 3), rules=rules)
        assert count_solutions(grid, limit=2) == 1
        solution = solve(grid)
        assert solution is not None and rules.cages is not None
        cells = solution.cells
        for cage in rules.cages:
            digits = [cells[c] for c in cage.cells]
            assert sum(digits) == cage.total and len(set(digits)) == len(digits)


def _solved_as_the_oracle_solves(picked: list[tuple[str, Rules, list[int]]]) -> None:
    for grade, rules, givens in picked:
        assert rules.cages is not None
        cages = [(c.cells, c.total) for c in rules.cages]
        found, first = oracle_count(3, 3, cages, givens)
        grid = Grid.from_cells(givens, Shape(3, 3), rules=rules)
        solution = solve(grid)
        assert found == 1 and solution is not None and list(solution.cells) == first, grade


def test_a_solo_killer_solves_as_the_oracle_solves_it() -> None:
    _solved_as_the_oracle_solves(_solo_puzzles()[1:2])  # one the oracle takes a moment over


@pytest.mark.slow
def test_the_first_solo_killer_of_each_grade_solves_as_the_oracle_solves_it() -> None:
    puzzles = _solo_puzzles()
    _solved_as_the_oracle_solves([puzzles[0], puzzles[30], puzzles[60], puzzles[90]])


@pytest.mark.parametrize("box", [(2, 2), (2, 3)])
def test_counts_agree_with_the_oracle(box: tuple[int, int]) -> None:
    shape = Shape(*box)
    for seed in range(40):
        rules, solution = _killer(shape, seed, 2 + seed % 4)
        assert rules.cages is not None
        cages = [(c.cells, c.total) for c in rules.cages]
        rng = random.Random(seed)
        givens = [v if rng.random() < 0.15 else 0 for v in solution]
        for start in (bytes(shape.size), bytes(givens)):
            expected, _ = oracle_count(shape.box_rows, shape.box_cols, cages, list(start), 30)
            grid = Grid.from_cells(start, shape, rules=rules)
            assert count_solutions(grid, limit=30) == expected, (seed, str(rules))
            assert expected >= 1
            assert solve(grid) is not None


def test_the_killer_text_form_reads_back() -> None:
    rules = Rules("x+killer:AABB CCDB EEDF GGHF / 3,9,7,5,4,6,5,2")
    assert str(rules) == "killer:AABBCCDBEEDFGGHF/3,9,7,5,4,6,5,2+x"
    assert Rules(str(rules)) == rules and rules.side == 4 and not rules.is_classic
    assert rules != Rules("killer:AABBCCDBEEDFGGHF/3,9,7,5,4,6,5,2")


def test_killer_input_is_refused_by_name() -> None:
    text = "killer:AABB CCDB EEDF GGHF / 3,9,7,5,4,6,5,2"
    with pytest.raises(InvalidPuzzleError, match=r"cage 3 at r1c1: no 2 different digits"):
        Grid("3" + "." * 15, shape=Shape(2, 2), rules=text)
    with pytest.raises(InvalidPuzzleError, match=r"digit 1 at r1c1 and r1c2 \(row 1\)"):
        Grid("11" + "." * 14, shape=Shape(2, 2), rules=text)
    with pytest.raises(InvalidRulesError, match="the cages are for side 4, the grid's side is 9"):
        Grid("." * 81, rules=text)
    with pytest.raises(InvalidRulesError, match="killer needs its cages"):
        Rules("killer")
    with pytest.raises(InvalidRulesError, match="two killer cage maps"):
        Rules(f"{text}+{text}")
    big = Cages(25, [Cage((c,), 1 + c % 25) for c in range(625)])
    with pytest.raises(InvalidRulesError, match="killer cages are taken on sides up to 16"):
        Grid.empty(Shape(5, 5), rules=f"killer:{big}")


KILLER4 = "killer:ABBC AADC EEDF EGGG / 6,5,6,5,9,1,8"


def test_the_grid_forms_carry_killer_rules() -> None:
    grid = Grid("3" + "." * 15, shape=Shape(2, 2), rules=KILLER4)
    assert Grid(grid.to_json()) == grid and Grid(grid.to_json()).rules == grid.rules
    assert Grid(grid.to_pretty()) == grid
    from sudokit.formats.statement import rules_statement

    assert "Killer: the digits of each dotted cage" in rules_statement(grid.rules, 4)


def test_the_generator_refuses_given_cages_by_name() -> None:
    """Every layer reads killer cages; the generator makes its own, so it refuses a request
    for fixed ones by name (asking for rules 'killer' instead)."""
    from sudokit import generate

    with pytest.raises(InvalidRulesError, match="the generator makes its own cages"):
        generate(shape=Shape(2, 2), rules=KILLER4)
