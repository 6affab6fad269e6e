"""The Bivalue Universal Grave (BUG), types 1 to 4, as Sudoku Explainer finds it.

Like the unique rectangles, this technique **assumes the puzzle has exactly one solution** (as
Sudoku Explainer does).

Terms:

- A **BUG** (bivalue universal grave) is a position where every empty cell has exactly two
  candidates and every digit has exactly two places (or none) in every unit. Such a position
  never has a unique solution, so a unique puzzle can never reach it.
- The **BUG cells** are the cells with three or more candidates; their **BUG digits** are the
  candidates that, taken away, would leave a BUG. Sudoku Explainer finds them unit by unit: in
  each box, then row, then column, a digit with neither zero nor two places must owe the extra
  places to exactly one cell with three or more candidates; that cell is a BUG cell and the
  digit one of its BUG digits. If no cell explains it, there is no BUG pattern; if several
  could, another unit decides. As in SE, the search gives up as soon as there are two BUG cells
  or more, two BUG digits or more, and no cell sees every BUG cell. Once found, the cells and
  digits must leave an exact BUG.
- Since the BUG cannot happen, **at least one BUG cell holds one of its BUG digits**.

The four types:

1. One BUG cell: it holds a BUG digit, so its other candidates go (rating 5.6).
2. One BUG digit ``x`` for all the BUG cells: one of them is ``x``, so ``x`` goes from every cell
   that sees them all (5.7).
3. BUG cells in one unit act as one **pseudo-cell** whose candidates are all the BUG digits.
   With ``k - 1`` other cells of the unit that see every BUG cell and hold ``k`` digits in all
   (the BUG digits among them), it forms a naked set: the ``k`` digits go from the unit's other
   cells that see every BUG cell (5.7 + 0.1·(k - 1)).
4. Two BUG cells in one unit share exactly one digit ``v`` that is not a BUG digit: in the BUG,
   ``v`` has just those two places in the unit, so one cell is ``v`` and the other takes a BUG
   digit; each cell loses the candidate that is neither (5.7).

Order, as Sudoku Explainer's ``BivalueUniversalGrave``: type 1; else with a single BUG digit,
type 2 then type 4; else type 4 then type 3 (units box, row, column; set sizes 2 up to 6;
cell sets in its colexicographic order). The solver takes the first. On other shapes the set
size limit 6 becomes ``n - 3``.

The search runs in C (src/sudokit/_clogic/bug.c); its pure-Python reference, which the tests
compare it with, is tests/logic/pyref/bug.py.
"""

from __future__ import annotations

from ._native import finder, register_info
from ._step import Step, cell_list, digit_list, effects, register_explainer

__all__ = ["find_bug"]

find_bug = finder("bug", "BUG types 1-4 in Sudoku Explainer's order.")


def _info(raw: tuple[int, ...]) -> tuple[tuple[str, object], ...]:
    """Step.info from the engine's ints: the type, then the BUG digits and set cells."""
    kind = raw[0]
    if kind == 4:
        return (("type", 4), ("bug_digits", raw[1:]))
    if kind == 3:
        count = raw[1]
        return (
            ("type", 3),
            ("bug_digits", raw[2 : 2 + count]),
            ("set_cells", raw[2 + count :]),
        )
    return (("type", kind),)


def _ints(step: Step, name: str) -> tuple[int, ...]:
    value = step.detail(name, ())
    return tuple(value) if isinstance(value, tuple) else ()


def _explain(step: Step) -> str:
    kind = step.detail("type")
    cells = cell_list(step.shape, step.cells)
    head = f"BUG type {kind}"
    if kind == 1:
        why = f"{cells} must hold {' or '.join(map(str, step.digits))} (else a deadly BUG)"
    elif kind == 2:
        why = f"one of {cells} must be {step.digits[0]} (else a deadly BUG)"
    elif kind == 3:
        unit = step.unit_name(step.units[0])
        bug = digit_list(_ints(step, "bug_digits"))
        others = cell_list(step.shape, _ints(step, "set_cells"))
        why = (
            f"one of {cells} holds {bug}, so with {others} it forms a naked set on "
            f"{digit_list(step.digits)} in {unit}"
        )
    else:
        unit = step.unit_name(step.units[0])
        why = (
            f"{step.digits[0]} in {unit} is in {cells}, and one of them holds "
            f"{digit_list(_ints(step, 'bug_digits'))}"
        )
    return f"{head}: {why}; {effects(step)}"


register_explainer("bug", _explain)

register_info("bug", _info)
