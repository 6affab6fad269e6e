"""The lazy step path ``rate`` and ``run_path`` return: the same steps as the solver's, made
from the engine's data only when read, and the ratings, techniques and first placing step
(what ``rate`` reads) that agree."""

from __future__ import annotations

import pytest

import sudokit
from sudokit.logic import SE_ORDER, TECHNIQUES, Candidates, PathEnd, run_path, solve_path
from sudokit.logic._native import StepPath
from sudokit.rating import rate

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
# ER 7.1 in the dev set: forcing chains, so its steps carry links and info
CHAINS = "...........164..8.....1.724..9.73....2.1.....6879...1.196...2........67...3.....9"


def fields(step: sudokit.logic.Step) -> tuple[object, ...]:
    return tuple(getattr(step, name) for name in step.__slots__)


@pytest.mark.parametrize("puzzle", [EASY, CHAINS])
def test_the_path_holds_the_solvers_steps(puzzle: str) -> None:
    grid = sudokit.Grid(puzzle)
    steps = rate(grid).steps
    assert isinstance(steps, StepPath)
    expected = solve_path(grid).steps
    read = summary(steps)  # before any Step is made
    assert read == summary(expected)
    assert len(steps) == len(expected) > 0
    assert [fields(s) for s in steps] == [fields(s) for s in expected]
    assert summary(steps) == read  # and after
    assert fields(steps[-1]) == fields(expected[-1])
    assert [fields(s) for s in steps[1:3]] == [fields(s) for s in expected[1:3]]
    assert steps == tuple(steps) and hash(steps) == hash(tuple(steps))
    assert steps != expected  # Step compares by identity: these are other objects
    rest = steps.without_last()
    assert [fields(s) for s in rest] == [fields(s) for s in expected[:-1]]


def summary(steps: StepPath | tuple[sudokit.logic.Step, ...]) -> tuple[object, ...]:
    """What rate reads of a path, from a StepPath or, as it is defined, from Step objects."""
    if isinstance(steps, StepPath):
        kinds = [steps.technique(i) for i in range(len(steps))]
        return steps.ratings(), kinds, steps.first_placing()
    first = next((i for i, s in enumerate(steps) if s.placements), None)
    return [s.rating for s in steps], [s.technique for s in steps], first


def test_rate_reads_the_summary_as_it_read_the_steps() -> None:
    grid = sudokit.Grid(CHAINS)
    r = rate(grid)
    steps = solve_path(grid).steps
    er = max(s.rating for s in steps)
    assert r.er == round(er, 1) and r.hardest == next(s for s in steps if s.rating == er).technique
    assert r.ed == round(steps[0].rating, 1)
    first_place = next(i for i, s in enumerate(steps) if s.placements)
    assert r.ep == round(max(s.rating for s in steps[: first_place + 1]), 1)


def test_a_capped_path_drops_the_step_beyond_the_cap() -> None:
    grid = sudokit.Grid(CHAINS)
    r = rate(grid, max_rating=1.2)
    allowed = [t for t in SE_ORDER if t.rating <= 1.2]
    end, steps = run_path(grid, techniques=allowed, stop_above=1.2)
    assert end is PathEnd.CAPPED and r.capped and not r.solved
    assert r.er == steps[-1].rating > 1.2 and len(r.steps) == len(steps) - 1
    assert [fields(s) for s in r.steps] == [fields(s) for s in steps][:-1]


def test_a_path_from_python_techniques_is_a_step_path_too() -> None:
    # a technique outside the C table's set of ids would take the Python loop; every one is in
    # C now, so build the path from Steps directly, as that loop does
    state = Candidates.from_grid(sudokit.Grid(EASY))
    end, steps = run_path(state, techniques=["singles"])
    made = StepPath(state.shape, steps=list(steps))
    assert summary(made) == summary(steps) and len(made) == len(steps)
    assert summary(made)[2] == 0 and StepPath(state.shape).first_placing() is None
    assert [fields(s) for s in made.without_last()] == [fields(s) for s in steps][:-1]
    assert end.name == "SOLVED" and state.is_solved()


def test_a_list_of_techniques_changed_between_paths_is_read_again() -> None:
    # the C ids of a tuple of techniques are remembered by its identity; a list's are not
    grid = sudokit.Grid(EASY)
    chosen = [TECHNIQUES["full-house"]]
    end, _ = run_path(grid, techniques=chosen)
    assert end is PathEnd.STUCK
    chosen.append(TECHNIQUES["hidden-single"])
    end, steps = run_path(grid, techniques=chosen)
    assert end is PathEnd.SOLVED and {s.technique for s in steps} == {"full-house", "hidden-single"}
    again = tuple(chosen)
    expected = [fields(s) for s in steps]
    for _ in range(2):
        assert [fields(s) for s in run_path(grid, techniques=again)[1]] == expected
