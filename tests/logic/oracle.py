"""The oracle for the logic engine: every deduction checked against the known solution.

A wrong elimination or placement is the worst bug this project can have, so every test that
runs the logic engine goes through :func:`checked_path`, which applies steps one at a time and
fails the moment a step places a wrong digit or removes a right one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import sudokit
from sudokit import Grid
from sudokit.logic import Candidates, Step, Technique, solve_steps

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


def check_step(step: Step, solution: Grid, state: Candidates | None = None) -> None:
    """Fail if ``step`` places a digit that is not the solution's or removes one that is."""
    for cell, digit in step.placements:
        assert solution[cell] == digit, (
            f"{step.technique} placed {digit} in {step.name(cell)}, the solution has "
            f"{solution[cell]}: {step.text}"
        )
    for cell, digit in step.eliminations:
        assert solution[cell] != digit, (
            f"{step.technique} removed {digit} from {step.name(cell)}, the solution's digit: "
            f"{step.text}"
        )
        if state is not None:
            assert state.cand[cell] >> (digit - 1) & 1, f"{step} removes a missing candidate"
    assert step.placements or step.eliminations, f"{step} does nothing"


def checked_path(
    puzzle: Grid | Candidates,
    solution: Grid | None = None,
    *,
    techniques: Iterable[str] | Sequence[Technique] | None = None,
    max_rating: float | None = None,
) -> list[Step]:
    """Run the solve path, checking every step against the solution; return the steps."""
    grid = puzzle.to_grid() if isinstance(puzzle, Candidates) else puzzle
    if solution is None:
        found = sudokit.solve(grid)
        assert found is not None and sudokit.is_unique(grid)
        solution = found
    steps = []
    state = puzzle.copy() if isinstance(puzzle, Candidates) else Candidates.from_grid(puzzle)
    for step in solve_steps(state, techniques=techniques, max_rating=max_rating, in_place=True):
        check_step(step, solution, state)
        steps.append(step)
    return steps


def data_lines(name: str, limit: int | None = None) -> list[str]:
    """Lines of a shared data file (the caller skips when it is absent)."""
    path = DATA / name
    if not path.exists():
        import pytest

        pytest.skip(f"{path} is absent")
    lines = [ln.strip() for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
    return lines[:limit] if limit is not None else lines
