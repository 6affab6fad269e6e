"""Killer puzzles for the tests of pictures, formats, canonical forms and the bank: the ones
Simon Tatham's solo made (tests/data/solo_killer.txt), as grids."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from solo_killer import read as read_solo
from sudokit import Grid, Rules, Shape
from sudokit.cages import Cage, Cages

SOLO = Path(__file__).parent / "data" / "solo_killer.txt"


@cache
def solo_killers() -> tuple[Grid, ...]:
    """The 120 solo killer puzzles (30 a grade, easiest grade first), with their cages."""
    found = []
    for line in SOLO.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            _, _, givens, cages = read_solo(line)
            layout = Cages(9, [Cage(tuple(c), s) for c, s in cages], cover=True)
            found.append(Grid.from_cells(givens, Shape(3, 3), rules=Rules.of(cages=layout)))
    return tuple(found)
