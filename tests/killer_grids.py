"""Killer puzzles for the tests of pictures, formats, canonical forms and the bank: the ones
Simon Tatham's solo made (tests/data/solo_killer.txt), as grids."""

from __future__ import annotations

from killer_puzzles import solo_killers as _graded
from sudokit import Grid


def solo_killers() -> tuple[Grid, ...]:
    """The 120 solo killer puzzles (30 a grade, easiest grade first), with their cages."""
    return tuple(grid for _, grid in _graded())
