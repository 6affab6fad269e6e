"""The engine on the public 9x9 collections in ``../shared/data`` (skipped when absent).

Every solution is checked by ``reference.is_valid_solution`` (complete, each unit a permutation,
every clue kept). Solution counts are compared with the reference solver only on
``serg_benchmark.txt``, whose puzzles have several solutions; the other files are known to hold
unique puzzles (see the data README), so there the engine's count must be 1.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sudokit import Grid, Shape, _engine, count_many, count_solutions, solve, solve_many

import reference

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
SUDOKU = Shape(3, 3)


def _lines(name: str) -> list[str]:
    path = DATA / name
    if not path.is_file():
        pytest.skip(f"{path} is absent (the shared data folder is optional)")
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _check_unique_and_solved(grids: list[Grid]) -> None:
    solutions = solve_many(grids)
    for grid, solution in zip(grids, solutions, strict=True):
        assert solution is not None, grid.to_line()
        assert reference.is_valid_solution(SUDOKU, solution.cells, grid.cells), grid.to_line()
    assert count_many(grids, limit=2) == [1] * len(grids)


def test_top1465_all_solved_verified_and_unique() -> None:
    grids = [Grid(line) for line in _lines("top1465.txt")]
    assert len(grids) == 1465
    _check_unique_and_solved(grids)


def test_sudoku17_every_tenth_solved_verified_and_unique() -> None:
    grids = [Grid(line) for line in _lines("sudoku17.txt")[::10]]
    assert len(grids) == 4916
    assert {g.clue_count for g in grids} == {17}
    _check_unique_and_solved(grids)


def test_serg_counts_match_reference() -> None:
    """Every 33rd puzzle (304), plus every puzzle the engine says has fewer than 3 solutions
    (8 of the 10,000, all with 2), counted to 3 by the engine's two paths and the reference."""
    lines = _lines("serg_benchmark.txt")
    assert len(lines) == 10_000
    everything = [Grid(line) for line in lines]
    few = [i for i, c in enumerate(count_many(everything, limit=3)) if c < 3]
    assert len(few) == 8  # pins the engine's answer on the whole file
    sample = sorted(set(range(0, len(lines), 33)) | set(few))
    counted = {0: 0, 1: 0, 2: 0, 3: 0}
    for i in sample:
        grid = everything[i]
        expected, _ = reference.count_solutions(SUDOKU, grid.cells, limit=3)
        assert count_solutions(grid, limit=3) == expected, (i + 1, grid.to_line())
        assert _engine.solve(3, 3, grid.cells, 3, generic=True)[1] == expected, i + 1
        solution = solve(grid)
        assert solution is not None
        assert reference.is_valid_solution(SUDOKU, solution.cells, grid.cells)
        counted[expected] += 1
    assert counted[2] >= 8 and counted[3] >= 300  # the sample holds both kinds


def test_forum_hardest_sample_solved_by_both_paths() -> None:
    lines = _lines("forum_hardest_11plus.txt")
    grids = [Grid(line) for line in lines[:: len(lines) // 500][:500]]
    assert len(grids) == 500
    joined = b"".join(g.cells for g in grids)
    fast, fast_counts = _engine.solve_batch(3, 3, joined, 2)
    general, general_counts = _engine.solve_batch(3, 3, joined, 2, generic=True)
    assert fast_counts == general_counts == [1] * 500
    assert fast == general  # a unique solution is the same whichever path finds it
    for i, grid in enumerate(grids):
        solution = fast[i * 81 : (i + 1) * 81]
        assert reference.is_valid_solution(SUDOKU, solution, grid.cells), grid.to_line()
    assert [s.cells if s else None for s in solve_many(grids)] == [
        fast[i * 81 : (i + 1) * 81] for i in range(500)
    ]
