"""Almost locked sets and the ALS-XZ rule.

Terms:

- An **almost locked set** (ALS): ``k`` empty cells of one unit holding ``k + 1`` digits
  between them (a bivalue cell is an ALS of one cell). Remove any one of its digits and the
  rest is locked: each remaining digit must then go in one of its cells.
- A **restricted common** (RC) of two ALS that share no cell: a digit of both whose cells, in
  both sets, all see each other. It can be true in one of the two sets at most, so the other
  one is locked.
- **ALS-XZ**: two ALS ``A`` and ``B`` with an RC ``X``. For any other common digit ``Z``, one of
  the sets holds ``Z`` (whichever is locked), so ``Z`` goes from every cell that sees all the
  ``Z`` cells of both. With two RCs the pair is *doubly linked*: both are locked, each RC goes
  from cells seeing all its cells in both sets, and each set's other digits go from every cell
  (outside the other set) that sees all that digit's cells in it.

Search follows HoDoKu 2.2 (``SudokuStepFinder.getAlses``, ``getRestrictedCommons``,
``AlsSolver.getAlsXZ``): ALS are collected unit by unit (rows, columns, boxes), each unit's
cell subsets in depth-first order, keeping the first of duplicates; RCs are taken for pairs
of ALS in that order (no overlap), and the first pair with eliminations is the step.

Rating: Sudoku Explainer has no ALS technique; an ALS-XZ is a chain through two sets, which
SE could only express as a mixed (X and Y) chain, so it takes SE's mixed-chain base, 7.0.

The search runs in C (``src/sudokit/_clogic/als.c``); its pure-Python reference, which the tests
compare it with step by step, is ``tests/logic/pyref/als.py``.
"""

from __future__ import annotations

from typing import cast

from ._native import finder, register_info
from ._state import bits
from ._step import Step, cell_list, digit_list, effects, register_explainer

__all__ = ["find_als_xz"]

find_als_xz = finder("als-xz", "ALS-XZ steps, in HoDoKu's order of ALS pairs.")


def _info(raw: tuple[int, ...]) -> tuple[tuple[str, object], ...]:
    """Raw ints (per set: cell count, cells, digit count, digits) as the step's info."""
    sets: list[tuple[int, int]] = []
    i = 0
    for _ in range(2):
        k = raw[i]
        cells = sum(1 << c for c in raw[i + 1 : i + 1 + k])
        i += 1 + k
        k = raw[i]
        digits = sum(1 << (d - 1) for d in raw[i + 1 : i + 1 + k])
        i += 1 + k
        sets.append((cells, digits))
    return (("sets", tuple(sets)),)


def _als_xz(step: Step) -> str:
    sets = cast(tuple[tuple[int, int], ...], step.detail("sets", ()))
    shown = []
    for name, (cells, digits) in zip("AB", sets, strict=False):
        where = cell_list(step.shape, bits(cells))
        what = digit_list(d0 + 1 for d0 in bits(digits))
        shown.append(f"{name}={where} ({what})")
    rc = digit_list(step.digits)
    kind = "doubly linked " if len(step.digits) == 2 else ""
    return f"ALS-XZ: {kind}{' and '.join(shown)}, restricted common {rc}; {effects(step)}"


register_explainer("als-xz", _als_xz)
register_info("als-xz", _info)
