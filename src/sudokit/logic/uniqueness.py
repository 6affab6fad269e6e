"""Unique rectangles and unique loops, types 1 to 4, as Sudoku Explainer finds them.

These techniques **assume the puzzle has exactly one solution** (as Sudoku Explainer does): they
remove candidates because keeping them would allow a second solution. On a puzzle with several
solutions they may remove a right digit; sudokit only rates puzzles known to be unique.

Terms:

- A **loop** on the digits ``a`` and ``b`` is a cycle of empty cells, each with both ``a`` and
  ``b`` among its candidates, where each cell shares a unit with the next one. It is a **unique
  loop** when every unit holding a loop cell holds exactly two of them, one at an even and one at
  an odd position of the cycle (so the cycle is even). A **unique rectangle** is a unique loop of
  four cells.
- If every loop cell had only ``a`` and ``b`` left, the two digits could be swapped around the
  loop: a **deadly pattern**, two solutions. So some loop cell must take another digit.
- An **extra cell** is a loop cell with candidates besides ``a`` and ``b``; those candidates are
  its **extra digits**.

The four types:

1. One extra cell: it cannot be ``a`` or ``b``; remove both from it.
2. Every extra cell has the same single extra digit ``x``: one of them is ``x``, so ``x`` goes
   from every cell that sees all of them.
3. Two extra cells in a common unit: one of them takes an extra digit, so together they act as
   one **pseudo-cell** whose candidates are their extra digits. With other cells of the unit it
   may complete a naked set (remove the set's digits from the unit's other cells), or a hidden
   set with ``a`` and ``b`` (remove other digits from the set's cells).
4. Two extra cells in a unit where ``a`` can only go in those two: one of them is ``a``, the
   other takes an extra digit, so neither is ``b``.

Ratings, from Sudoku Explainer's hint classes: 4.5 for a rectangle, 4.6 for a 6-cell loop, 4.7
for 8 cells, 5.0 from 10 cells on. Type 3 adds 0.1 per set cell beyond the first: ``(k - 1)``
tenths for a naked set of ``k`` digits, ``(k - 2)`` tenths for a hidden set of ``k`` digits
(whose cells besides the two loop cells number ``k - 1``).

Search order (Sudoku Explainer's ``UniqueLoops``): from every bivalue cell in row-major order, a
depth-first search for loops on its two digits, trying at each cell the box, row and column
(skipping the kind of unit the loop arrived by) and their cells in unit order. Every hint of
every valid loop is collected (repeats of a loop counted once), then sorted by rating and type,
ties kept in discovery order (the sort uses SE's unrounded sums; steps carry them rounded to
one decimal). Extra cells may number at most two along a path, more only while the extra digits
seen so far — including those of cells merely examined as next steps, a quirk kept on purpose —
are a single digit. Type 3 tries set sizes from the number of extra digits up to 7, and for each
the box, row and column shared by the two extra cells, naked sets before hidden ones.

On other shapes the same definitions apply; Sudoku Explainer's fixed set-size limit of 7 for
type 3 becomes ``n - 2``.

The search runs in C (src/sudokit/_clogic/uniqueness.c); its pure-Python reference, which the
tests compare it with, is tests/logic/pyref/uniqueness.py.
"""

from __future__ import annotations

from ._native import finder, register_info
from ._step import Step, cell_list, digit_list, effects, register_explainer

__all__ = [
    "find_unique_loops",
    "unique_loop_rating",
]


def unique_loop_rating(size: int) -> float:
    """Sudoku Explainer's base rating of a unique loop of ``size`` cells (as its double sum)."""
    rating = 4.5
    if size >= 10:
        rating += 0.3
    if size >= 8:
        rating += 0.2
    elif size >= 6:
        rating += 0.1
    return rating


find_unique_loops = finder(
    "unique-rectangle",
    "Unique rectangles and loops, types 1-4, cheapest first (Sudoku Explainer's order).",
)


def _info(raw: tuple[int, ...]) -> tuple[tuple[str, object], ...]:
    """Step.info from the engine's ints: type, extra cells, then the type's own fields."""
    kind, count = raw[0], raw[1]
    info: list[tuple[str, object]] = [("type", kind), ("extra", raw[2 : 2 + count])]
    rest = raw[2 + count :]
    if kind == 2:
        info.append(("digit", rest[0]))
    elif kind == 3:
        size = rest[1]
        info += [
            ("set", "naked" if rest[0] else "hidden"),
            ("set_cells", rest[2 : 2 + size]),
            ("set_digits", rest[2 + size :]),
        ]
    return tuple(info)


def _ints(step: Step, name: str) -> tuple[int, ...]:
    value = step.detail(name, ())
    return tuple(value) if isinstance(value, tuple) else ()


def _explain(step: Step) -> str:
    kind = step.detail("type")
    what = "Unique rectangle" if step.technique == "unique-rectangle" else "Unique loop"
    a, b = step.digits
    head = f"{what} type {kind} on {a}/{b} in {cell_list(step.shape, step.cells)}"
    names = " or ".join(step.name(c) for c in _ints(step, "extra"))
    if kind == 1:
        why = f"{names} must avoid {a} and {b} (else two solutions)"
    elif kind == 2:
        why = f"{names} must hold {step.detail('digit')} (else two solutions)"
    elif kind == 3:
        unit = step.unit_name(step.units[0])
        others = cell_list(step.shape, _ints(step, "set_cells"))
        digits = digit_list(_ints(step, "set_digits"))
        why = (
            f"{names} takes an extra digit, so with {others} it forms a "
            f"{step.detail('set')} set on {digits} in {unit}"
        )
    else:
        unit = step.unit_name(step.units[0])
        why = f"{a} in {unit} is in {names}, so neither can be {b}"
    return f"{head}: {why}; {effects(step)}"


register_explainer("unique-rectangle", _explain)
register_explainer("unique-loop", _explain)

register_info("unique-rectangle", _info)
register_info("unique-loop", _info)
