"""Intersections: pointing and claiming, and their "direct" forms.

Terms:

- A **line** is a row or a column. A box and a line **cross** when they share cells.
- **Pointing**: within a box, every candidate of a digit lies in one line; the digit must go in
  that line inside the box, so it is removed from the rest of the line (rating 2.6).
- **Claiming**: within a line, every candidate of a digit lies in one box; it is removed from
  the rest of the box (rating 2.8).
- **Direct pointing / direct claiming** (1.7 / 1.9): a pointing or claiming whose removals at
  once leave the digit a single place in another unit of the first unit's kind (another box
  for pointing, another parallel line for claiming). The step only places that hidden single:
  as in Sudoku Explainer, whose direct hints carry no removable candidates, the removals that
  justify it are not made (``step.detail("cleared")`` keeps them for the explanation). That
  matters for the rest of the path, and so for the rating; such a step counts as a placement.

Search order is Sudoku Explainer's (``Locking``): the unit pairs (box, column), (box, row),
(column, box), (row, box); within each, the first unit's index, then the second's, then the
digit; for a direct step, the units where the single appears are tried in index order.
(SukakuExplainer, a later fork, loops over the digit first; SE's rated puzzles agree with both.)
"""

from __future__ import annotations

from typing import cast

from ._native import finder, pairs, register_info
from ._step import Step, cell_list, effects, register_explainer

__all__ = ["find_direct_intersections", "find_intersections"]

find_direct_intersections = finder(
    "direct-intersections",
    "Direct pointing (1.7) and direct claiming (1.9): Sudoku Explainer's ``Locking(true)``.",
)
find_intersections = finder(
    "intersections", "Pointing (2.6) and claiming (2.8): Sudoku Explainer's ``Locking(false)``."
)


def _explain(step: Step) -> str:
    shape, d = step.shape, step.digits[0]
    title = step.technique.replace("-", " ").capitalize()
    text = f"{title}: in {step.unit_name(step.units[0])}, {d} lies only in "
    text += step.unit_name(step.units[1])
    if not step.placements:
        return f"{text}: {effects(step)}"
    cell = step.name(step.placements[0][0])
    cleared = cast(tuple[tuple[int, int], ...], step.detail("cleared", ()))
    return (
        f"{text}, so {cell_list(shape, [c for c, _ in cleared])} cannot be {d}; that leaves "
        f"{cell} the only place for {d} in {step.unit_name(step.units[2])}: {cell}={d}"
    )


for _name in ("pointing", "claiming", "direct-pointing", "direct-claiming"):
    register_explainer(_name, _explain)
for _name in ("direct-pointing", "direct-claiming"):
    register_info(_name, lambda raw: (("cleared", pairs(raw)),))
