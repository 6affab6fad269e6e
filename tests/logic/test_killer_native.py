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
from sudokit.logic._native import finder

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


def _rectangles(grid: Grid, solution: bytes) -> Iterator[tuple[int, int, int, int]]:
    """The rectangles of ``solution`` on two boxes whose corners hold x, y / y, x (a unique
    rectangle's pattern, were the cages not there)."""
    n, br = 9, 3
    for r1 in range(n):
        for r2 in range(r1 + 1, n):
            for c1 in range(n):
                for c2 in range(c1 + 1, n):
                    if (r1 // br == r2 // br) == (c1 // br == c2 // br):
                        continue  # four boxes, or one
                    a, b, c, d = (r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2)
                    if solution[a] == solution[d] != solution[b] == solution[c]:
                        yield a, b, c, d


def test_unique_rectangles_and_bug_take_nothing_under_cages() -> None:
    """Swapping a rectangle's two digits can break a cage's sum, so under cages the pattern
    is not deadly: positions with an x/y rectangle left open (one corner with a third digit)
    in solo's unique killers, where a unique rectangle's argument would remove the true
    digit, give no unique-rectangle or BUG step."""
    checked = 0
    for _, grid in solo_killers()[:20]:
        solution = solve(grid)
        assert solution is not None
        for corners in list(_rectangles(grid, solution.cells))[:6]:
            cells = bytearray(solution.cells)
            for c in corners:
                cells[c] = 0
            x, y = solution.cells[corners[0]], solution.cells[corners[1]]
            z = next(v for v in range(1, 10) if v not in (x, y))
            pair = 1 << (x - 1) | 1 << (y - 1)
            masks = [0] * 81
            for k, c in enumerate(corners):
                masks[c] = pair | (1 << (z - 1) if k == 3 else 0)  # (a mark, not a candidate)
            state = Candidates(grid.shape, list(cells), masks, grid.rules)
            for slug in ("unique-rectangle", "bug"):
                steps = list(finder(slug)(state))
                assert steps == [], (slug, grid.to_line(), corners, steps[0].text)
            checked += 1
    assert checked >= 60
