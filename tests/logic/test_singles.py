"""Singles, the solver loop and hints, checked against the known solution."""

from __future__ import annotations

import pytest

import sudokit
from sudokit import Grid, Shape
from sudokit.logic import Candidates, hint, next_step, solve_path

from oracle import check_step, checked_path, data_lines

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def test_singles_solve_an_easy_puzzle() -> None:
    steps = checked_path(Grid(EASY), techniques=["singles"])
    assert {s.technique for s in steps} <= {"full-house", "hidden-single", "naked-single"}
    assert len(steps) == Grid(EASY).shape.size - Grid(EASY).clue_count


def test_full_house_and_ratings() -> None:
    solution = sudokit.solve(Grid(EASY))
    assert solution is not None
    # Empty one row's last cell only: a full house.
    cells = bytearray(solution.cells)
    cells[8] = 0
    step = next_step(Candidates.from_grid(Grid.from_cells(bytes(cells), Shape(3, 3))))
    assert step is not None and step.technique == "full-house" and step.rating == 1.0
    assert step.text == f"Full house: r1c9 is the last empty cell of box 3, so it is {solution[8]}"


def test_hidden_single_ratings_box_then_line() -> None:
    state = Candidates.from_grid(Grid(EASY))
    steps = list(sudokit.logic.TECHNIQUES["hidden-single"].find(state))
    for s in steps:
        assert s.rating in (1.2, 1.5)
        assert (s.rating == 1.2) == (s.units[0] >= 18)
    assert steps[0].rating == 1.2


@pytest.mark.parametrize("shape", [Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(3, 4), Shape(4, 4)])
def test_singles_on_other_shapes_never_wrong(shape: Shape) -> None:
    for seed in range(4):
        p = sudokit.generate(shape=shape, seed=seed, symmetry="none", clues=None)
        steps = checked_path(p.puzzle, p.solution, techniques=["singles"])
        assert steps  # something to do on every generated puzzle


def test_stuck_reports_state_not_exception() -> None:
    # A minimal 17-clue puzzle that singles cannot finish.
    puzzle = Grid(
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    )
    result = solve_path(puzzle, techniques=["singles"])
    assert not result.solved
    assert not result.state.is_solved() and not result.state.is_broken()


def test_hint_levels() -> None:
    h1, h2, h3 = (hint(Grid(EASY), level) for level in (1, 2, 3))
    assert h1 and h2 and h3
    assert h1.text == "Look for a hidden single in box 1"
    assert "r2c2" in h2.text and h3.text == h3.step.text
    with pytest.raises(ValueError):
        hint(Grid(EASY), 4)


HARD = "....64...21.....34..51...9.5...29....3.....2....73...1.6...78..19.....62...61...."


def test_a_hints_data_tells_only_its_detail() -> None:
    """Hint.to_dict: at detail 1 where to look (units) and nothing of the deduction; at 2
    the pattern's cells and digits too; at 3 the whole step. Every position of a hard
    puzzle's path, in the one step schema."""
    import jsonschema

    from sudokit.logic import STEP_SCHEMA, apply

    state = Candidates.from_grid(Grid(HARD))
    seen = set()
    while not state.is_solved():
        h1, h2, h3 = (hint(state, d) for d in (1, 2, 3))
        assert h1 and h2 and h3
        step = h3.step
        d1, d2, d3 = (h.to_dict(state) for h in (h1, h2, h3))
        for h, d in ((h1, d1), (h2, d2), (h3, d3)):
            jsonschema.validate(d["step"], STEP_SCHEMA)
            assert d["detail"] == h.detail and d["text"] == d["step"]["text"] == h.text
        for d in (d1, d2):
            assert d["step"]["placements"] == d["step"]["eliminations"] == d["step"]["links"] == []
        assert d1["step"]["cells"] == d1["step"]["digits"] == [] and "candidates" not in d1["step"]
        names = [f"{kind} {i}" for kind, i in d1["step"]["units"]]
        assert names and all(name in h1.text for name in names)
        assert d2["step"]["digits"] == list(step.digits)
        assert d3["step"] == step.to_dict(state)
        seen.add(step.technique)
        apply(state, step)
    assert len(seen) > 3, seen


def test_hint_from_a_players_position_with_pencil_marks() -> None:
    grid = Grid(EASY)
    state = Candidates.from_grid(grid)
    masks = state.masks()
    solution = sudokit.solve(grid)
    assert solution is not None
    # The player has crossed out every wrong candidate of r1c1 but the solution's and one other.
    keep = (1 << (solution[0] - 1)) | (masks[0] & -masks[0])
    masks[0] &= keep
    player = Candidates.from_masks(grid, masks)
    h = hint(player, 3)
    assert h is not None
    check_step(h.step, solution)


def test_qqwing_simple_with_singles_never_wrong() -> None:
    for line in data_lines("qqwing_simple.txt", limit=200):
        grid = Grid(line[:81])
        steps = checked_path(grid, techniques=["singles"])
        assert steps


@pytest.mark.parametrize("name", ["simple", "easy", "intermediate", "expert"])
def test_qqwing_files_full_se_path_never_wrong(name: str) -> None:
    """Every step of the whole SE path checked against the solution, on each QQWing file."""
    for line in data_lines(f"qqwing_{name}.txt", limit=40):
        steps = checked_path(Grid(line[:81]))
        assert steps
