"""Singles: full house, hidden single, naked single.

- **Full house**: the last empty cell of a unit takes the one digit the unit lacks (rating 1.0).
- **Hidden single**: a digit with one place left in a unit goes there (1.2 in a box, 1.5 in a
  row or column).
- **Naked single**: a cell with one candidate left takes it (2.3).

Search order follows Sudoku Explainer: full houses first, boxes then columns then rows; then
hidden singles in the same unit order, digits ascending; naked singles by cell, row-major.
"""

from __future__ import annotations

from collections.abc import Iterator

from ._state import Candidates
from ._step import Step, register_explainer

__all__ = ["find_hidden_singles", "find_naked_singles"]


def _unit_order(n: int) -> list[int]:
    """Boxes, then columns, then rows (Sudoku Explainer's order for singles)."""
    return [*range(2 * n, 3 * n), *range(n, 2 * n), *range(n)]


def find_hidden_singles(state: Candidates) -> Iterator[Step]:
    n, geo = state.n, state.geo
    order = _unit_order(n)
    empties = [(geo.unit_mask[u], 0) for u in range(3 * n)]
    empty_count = [0] * (3 * n)
    for u in range(3 * n):
        empty_count[u] = sum(1 for c in geo.units[u] if not state.values[c])
    for alone in (True, False):
        for u in order:
            if (empty_count[u] == 1) != alone:
                continue
            mask = empties[u][0]
            for d in range(1, n + 1):
                places = state.where[d] & mask
                if places and not places & (places - 1):
                    cell = places.bit_length() - 1
                    if alone:
                        rating, technique = 1.0, "full-house"
                    else:
                        rating = 1.2 if u >= 2 * n else 1.5
                        technique = "hidden-single"
                    yield Step(
                        state.shape,
                        technique,
                        rating,
                        placements=((cell, d),),
                        cells=(cell,),
                        units=(u,),
                        digits=(d,),
                    )


def find_naked_singles(state: Candidates) -> Iterator[Step]:
    for cell, m in enumerate(state.cand):
        if m and not m & (m - 1):
            d = m.bit_length()
            yield Step(
                state.shape,
                "naked-single",
                2.3,
                placements=((cell, d),),
                cells=(cell,),
                digits=(d,),
            )


def _full_house(step: Step) -> str:
    (cell, d), u = step.placements[0], step.units[0]
    unit = step.shape.unit_name(u)
    return f"Full house: {step.name(cell)} is the last empty cell of {unit}, so it is {d}"


def _hidden_single(step: Step) -> str:
    (cell, d), u = step.placements[0], step.units[0]
    return f"Hidden single: in {step.shape.unit_name(u)}, {d} fits only in {step.name(cell)}"


def _naked_single(step: Step) -> str:
    cell, d = step.placements[0]
    return f"Naked single: {step.name(cell)} can only be {d}"


register_explainer("full-house", _full_house)
register_explainer("hidden-single", _hidden_single)
register_explainer("naked-single", _naked_single)
