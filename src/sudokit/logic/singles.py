"""Singles: full house, hidden single, naked single.

- **Full house**: the last empty cell of a unit takes the one digit the unit lacks (rating 1.0).
- **Hidden single**: a digit with one place left in a unit goes there (1.2 in a box, 1.5 in a
  row or column).
- **Naked single**: a cell with one candidate left takes it (2.3).

Search order follows Sudoku Explainer: full houses first, boxes then columns then rows; then
hidden singles in the same unit order, digits ascending; naked singles by cell, row-major.
"""

from __future__ import annotations

from ._native import finder
from ._step import Step, register_explainer

__all__ = ["find_full_houses", "find_hidden_singles", "find_naked_singles"]

find_full_houses = finder("full-house")
find_hidden_singles = finder("hidden-single")
find_naked_singles = finder("naked-single")


def _full_house(step: Step) -> str:
    (cell, d), u = step.placements[0], step.units[0]
    unit = step.unit_name(u)
    return f"Full house: {step.name(cell)} is the last empty cell of {unit}, so it is {d}"


def _hidden_single(step: Step) -> str:
    (cell, d), u = step.placements[0], step.units[0]
    return f"Hidden single: in {step.unit_name(u)}, {d} fits only in {step.name(cell)}"


def _naked_single(step: Step) -> str:
    cell, d = step.placements[0]
    return f"Naked single: {step.name(cell)} can only be {d}"


register_explainer("full-house", _full_house)
register_explainer("hidden-single", _hidden_single)
register_explainer("naked-single", _naked_single)
