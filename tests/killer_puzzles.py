"""Killer puzzles for the tests of the logic engine: Simon Tatham's solo's 120 (tests/data,
with their grades) and random layouts made unique."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

from killer_oracle import random_layout
from solo_killer import read as read_solo
from sudokit import Grid, Rules, Shape
from sudokit.cages import Cage, Cages
from sudokit.engine import count_solutions, random_cells, random_grid

__all__ = ["GRADES", "solo_killers", "unique_killer"]

SOLO = Path(__file__).parent / "data" / "solo_killer.txt"
#: solo's killer grades, easiest first: basic, intermediate, advanced, extreme.
GRADES = ("db", "di", "da", "de")


@cache
def solo_killers() -> tuple[tuple[str, Grid], ...]:
    found = []
    grade = ""
    for line in SOLO.read_text(encoding="utf-8").splitlines():
        if line.startswith("# grade "):
            grade = line.split()[-1]
        elif line and not line.startswith("#"):
            _, _, givens, cages = read_solo(line)
            layout = Cages(9, [Cage(tuple(c), s) for c, s in cages], cover=True)
            grid = Grid.from_cells(bytes(givens), Shape(3, 3), rules=Rules(f"killer:{layout}"))
            found.append((grade, grid))
    return tuple(found)


def unique_killer(shape: Shape, seed: int, most: int, extras: str = "") -> Grid:
    """A killer cut from a random grid (cages of 1..most cells; ``extras``, rules such as
    ``x`` it keeps too), with givens from the grid added in a random order until it has one
    solution."""
    solution = (
        random_cells(shape, Rules(extras), seed=seed)
        if extras
        else random_grid(shape, seed=seed).cells
    )
    rng = random.Random(seed)
    cells = random_layout(solution, shape.n, rng, most)
    layout = Cages(shape.n, [Cage(tuple(c), sum(solution[x] for x in c)) for c in cells])
    rules = Rules(f"{extras}+killer:{layout}" if extras else f"killer:{layout}")
    givens = bytearray(shape.size)
    order = list(range(shape.size))
    rng.shuffle(order)
    grid = Grid.from_cells(bytes(givens), shape, rules=rules)
    while count_solutions(grid, limit=2) > 1:
        cell = order.pop()
        givens[cell] = solution[cell]
        grid = Grid.from_cells(bytes(givens), shape, rules=rules)
    return grid
