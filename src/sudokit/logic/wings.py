"""XY-Wing and XYZ-Wing.

Terms: a **pivot** cell and two **pincer** cells that each share a unit with the pivot.

- **XY-Wing** (4.2): the pivot has candidates ``xy``, the pincers ``xz`` and ``yz``. Whichever
  of x, y the pivot takes, one pincer becomes ``z``; so ``z`` is removed from every cell that
  sees both pincers.
- **XYZ-Wing** (4.4): the pivot has ``xyz``, the pincers ``xz`` and ``yz``; ``z`` ends up in
  one of the three, so it is removed from every cell that sees all three.

Search order is Sudoku Explainer's (``XYWing``): pivots row by row; for each, the first pincer
and then the second among the pivot's peers in SE's "house" order — the pivot's box
(row-major), then the rest of its row, then the rest of its column.

The search runs in C (src/sudokit/_clogic/wings.c); the Python reference it is tested against
is tests/logic/pyref/wings.py.
"""

from __future__ import annotations

from typing import cast

from ._native import finder, register_info
from ._state import bits
from ._step import Step, cell_list, digit_list, register_explainer

__all__ = ["find_xy_wings", "find_xyz_wings"]

find_xy_wings = finder("xy-wing", "XY-Wings (4.2): Sudoku Explainer's ``XYWing(false)``.")
find_xyz_wings = finder("xyz-wing", "XYZ-Wings (4.4): Sudoku Explainer's ``XYWing(true)``.")


def _masks(raw: tuple[int, ...]) -> tuple[int, ...]:
    """The C engine's info: each candidate mask as (bits 0..29, the bits above)."""
    return tuple(low | high << 30 for low, high in zip(raw[::2], raw[1::2], strict=True))


def _explain(step: Step) -> str:
    masks = cast(tuple[int, int, int], step.detail("candidates", (0, 0, 0)))
    named = [
        f"{step.name(c)} ({digit_list(d + 1 for d in bits(m))})"
        for c, m in zip(step.cells, masks, strict=True)
    ]
    z = step.digits[0]
    title = "XYZ-Wing" if step.technique == "xyz-wing" else "XY-Wing"
    removed = cell_list(step.shape, sorted(c for c, _ in step.eliminations))
    return (
        f"{title}: pivot {named[0]} with pincers {named[1]} and {named[2]}: "
        f"remove {z} from {removed}"
    )


register_explainer("xy-wing", _explain)
register_explainer("xyz-wing", _explain)
for _name in ("xy-wing", "xyz-wing"):
    register_info(_name, lambda raw: (("candidates", _masks(raw)),))
