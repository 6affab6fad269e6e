"""The C engine's killer techniques against their pure-Python reference (pyref/killer.py),
step by step, on positions along the paths of Simon Tatham's solo killers and of random
layouts, some with candidates thinned at random (the solution's kept)."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from test_native import compared, thinned

from sudokit import Grid, Shape, _logic, solve
from sudokit.logic import Candidates, solve_steps

sys.path.insert(0, str(Path(__file__).parents[1]))
from killer_puzzles import solo_killers, unique_killer  # noqa: E402

SLUGS = sorted(_logic.KILLER_TECHNIQUES)


def _positions(grids: list[Grid], seed: int) -> Iterator[Candidates]:
    rng = random.Random(seed)
    for grid in grids:
        solution = solve(grid)
        assert solution is not None
        state = Candidates.from_grid(grid)
        path = [state.copy()]
        for _ in solve_steps(state, in_place=True):
            path.append(state.copy())
        for s in rng.sample(path, min(8, len(path))):
            yield s
            yield thinned(s, rng, solution, rng.choice((0.5, 0.8, 0.95)))


@cache
def _states() -> tuple[Candidates, ...]:
    solo = [grid for _, grid in solo_killers()[::8]]
    small = [unique_killer(Shape(*box), seed, 3) for box in ((2, 2), (2, 3)) for seed in range(6)]
    variants = [unique_killer(Shape(3, 3), seed, 4, extras) for seed, extras in enumerate(_EXTRAS)]
    return tuple(_positions(solo + small + variants, 7))


#: Rules killers are combined with in the comparison: their houses take part in the rule of 45.
_EXTRAS = ("x", "windoku", "antiknight", "dg")


#: The rule of 45's references search slowly: they see every third position by default.
SLOW = {"rule-of-45", "rule-of-45-groups"}


@pytest.mark.parametrize("slug", SLUGS)
def test_killer_steps_agree_with_the_reference(slug: str) -> None:
    _compare(slug, _states()[:: 3 if slug in SLOW else 1])


@pytest.mark.slow
@pytest.mark.parametrize("slug", sorted(SLOW))
def test_the_rule_of_45_agrees_with_the_reference_everywhere(slug: str) -> None:
    _compare(slug, _states())


def _compare(slug: str, states: tuple[Candidates, ...]) -> None:
    assert compared(slug, states)  # each technique finds steps on these positions
