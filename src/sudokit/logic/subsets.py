"""Subsets: naked and hidden pairs, triples and quads, and the "direct" hidden pair and triple.

Terms (``k`` is the size of the set: 2 pair, 3 triple, 4 quad):

- **Naked set**: ``k`` cells of one unit whose candidates, together, are just ``k`` digits.
  Those digits must fill those cells, so they are removed from the unit's other cells.
- **Hidden set**: ``k`` digits whose places in one unit are, together, just ``k`` cells. Those
  cells must hold those digits, so their other candidates are removed.
- **Direct hidden pair / triple**: a hidden set whose removals at once leave another digit a
  single place in the same unit. The step only places that hidden single: as in Sudoku
  Explainer, whose direct hints carry no removable candidates, the set's removals are not made
  (``step.detail("cleared")`` keeps them for the explanation). That matters for the rest of the
  path, and so for the rating; such a step counts as a placement.

As in Sudoku Explainer, every member of the set must have at least two candidates (two places),
eliminations are made only in the unit searched (a naked pair in a row and a box is found once
per unit), a naked set is sought only in a unit with at least ``2k`` empty cells and a hidden
set only in one with more than ``2k`` (fewer would make it the complement of a smaller naked
set; a direct hidden set needs only more than ``k``). Ratings: naked 3.0 / 3.6 / 5.0, hidden
3.4 / 4.0 / 5.4, direct hidden 2.0 / 2.5.

Search order is Sudoku Explainer's: boxes, then columns, then rows, each in index order; within
a unit the cell (or digit) sets in colexicographic order — ``{1,2}, {1,3}, {2,3}, {1,4}, ...``,
the order of increasing bitmask value that SE's ``Permutations`` generates.

The search runs in C (src/sudokit/_clogic/subsets.c); the Python reference it is tested
against is tests/logic/pyref/subsets.py.
"""

from __future__ import annotations

from ._native import finder, pairs, register_info
from ._step import Step, cell_list, digit_list, effects, register_explainer

__all__ = [
    "find_direct_hidden_pairs",
    "find_direct_hidden_triples",
    "find_hidden_pairs",
    "find_hidden_quads",
    "find_hidden_triples",
    "find_naked_pairs",
    "find_naked_quads",
    "find_naked_triples",
]

_SIZE_NAME = {2: "pair", 3: "triple", 4: "quad"}

find_direct_hidden_pairs = finder(
    "direct-hidden-pair", "Direct hidden pairs (2.0): Sudoku Explainer's ``HiddenSet(2, true)``."
)
find_direct_hidden_triples = finder(
    "direct-hidden-triple",
    "Direct hidden triples (2.5): Sudoku Explainer's ``HiddenSet(3, true)``.",
)
find_naked_pairs = finder("naked-pair", "Naked pairs (3.0): Sudoku Explainer's ``NakedSet(2)``.")
find_naked_triples = finder(
    "naked-triple", "Naked triples (3.6): Sudoku Explainer's ``NakedSet(3)``."
)
find_naked_quads = finder("naked-quad", "Naked quads (5.0): Sudoku Explainer's ``NakedSet(4)``.")
find_hidden_pairs = finder(
    "hidden-pair", "Hidden pairs (3.4): Sudoku Explainer's ``HiddenSet(2, false)``."
)
find_hidden_triples = finder(
    "hidden-triple", "Hidden triples (4.0): Sudoku Explainer's ``HiddenSet(3, false)``."
)
find_hidden_quads = finder(
    "hidden-quad", "Hidden quads (5.4): Sudoku Explainer's ``HiddenSet(4, false)``."
)


def _title(step: Step) -> str:
    return step.technique.replace("-", " ").capitalize()


def _naked(step: Step) -> str:
    cells = cell_list(step.shape, step.cells)
    unit = step.unit_name(step.units[0])
    return f"{_title(step)} {digit_list(step.digits)} in {cells} ({unit}): {effects(step)}"


def _hidden(step: Step) -> str:
    shape = step.shape
    cells = cell_list(shape, step.cells)
    text = f"{_title(step)} {digit_list(step.digits)}: in {step.unit_name(step.units[0])} "
    text += f"they fit only in {cells}"
    if not step.placements:
        return f"{text}: {effects(step)}"
    cell, d = step.placements[0]
    return (
        f"{text}, so those cells cannot be {d}; that leaves {step.name(cell)} the only place "
        f"for {d}: {step.name(cell)}={d}"
    )


for _k, _size in _SIZE_NAME.items():
    register_explainer(f"naked-{_size}", _naked)
    register_explainer(f"hidden-{_size}", _hidden)
    if _k < 4:
        register_explainer(f"direct-hidden-{_size}", _hidden)
for _size in ("pair", "triple"):
    register_info(f"direct-hidden-{_size}", lambda raw: (("cleared", pairs(raw)),))
