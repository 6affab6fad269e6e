"""Basic fish: X-Wing, Swordfish and Jellyfish.

Terms: a fish of size ``k`` on a digit takes ``k`` **base** lines (all rows or all columns) in
which the digit's places, together, lie in just ``k`` **cover** lines of the other direction.
Each base line needs one copy of the digit, all inside the covers, and the ``k`` covers can
hold only ``k`` copies; so the digit is removed from the covers' cells outside the bases.
Sizes 2, 3, 4 are X-Wing (3.2), Swordfish (3.8) and Jellyfish (5.2).

As in Sudoku Explainer (``Fisherman``): each base line must keep at least two places for the
digit; a digit is tried only while it has at least ``2k`` cells left to place; columns are
tried as bases first, then rows; within each, the sets of base lines in colexicographic order
(increasing bitmask), and for each set the digits ascending.

The search runs in C (src/sudokit/_clogic/fish.c); the Python reference it is tested against
is tests/logic/pyref/fish.py.
"""

from __future__ import annotations

from ._native import finder
from ._step import Step, cell_list, register_explainer

__all__ = ["find_jellyfish", "find_swordfish", "find_x_wings"]

_NAME = {2: "x-wing", 3: "swordfish", 4: "jellyfish"}

find_x_wings = finder("x-wing", "X-Wings (3.2): Sudoku Explainer's ``Fisherman(2)``.")
find_swordfish = finder("swordfish", "Swordfish (3.8): Sudoku Explainer's ``Fisherman(3)``.")
find_jellyfish = finder("jellyfish", "Jellyfish (5.2): Sudoku Explainer's ``Fisherman(4)``.")


def _explain(step: Step) -> str:
    shape, d = step.shape, step.digits[0]
    k = len(step.units) // 2
    kind, _ = divmod(step.units[0], shape.n)
    numbers = [str(u % shape.n + 1) for u in step.units[:k]]
    lines = f"{('rows', 'columns')[kind]} {', '.join(numbers[:-1])} and {numbers[-1]}"
    title = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}[k]
    removed = cell_list(shape, sorted(c for c, _ in step.eliminations))
    return f"{title} on {d} in {lines}: remove {d} from {removed}"


for _name in _NAME.values():
    register_explainer(_name, _explain)
