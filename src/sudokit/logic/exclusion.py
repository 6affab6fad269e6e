"""Aligned pair and aligned triple exclusion, as Sudoku Explainer finds them.

Terms:

- The **base cells** are two (or three) cells; a **combination** gives each of them one of its
  candidates.
- An **excluder** is a cell with two candidates (for triples: two or three) that sees every
  base cell. A combination that uses up all of an excluder's candidates would leave it empty,
  so it is impossible. So is a combination giving one digit to two base cells that share a
  unit.
- A candidate of a base cell that appears in no possible combination is removed.

Which cells Sudoku Explainer (``AlignedPairExclusion``, ``AlignedExclusion``) tries, and in
which order:

- A cell may be a base cell when it has two candidates or more, sees at least one excluder-sized
  cell, and sees no cell with a single candidate.
- Pairs of such cells in its colexicographic order: (0, 1), (0, 2), (1, 2), (0, 3), ... over
  the cells in row-major order. The two cells need not share a unit ("aligned" only means they
  see two common excluders: at least two are required).
- For triples, each pair is extended by a third cell from the pair's **twin area**: the first
  cell's excluder-sized peers (two or three candidates) in Sudoku Explainer's house order (box,
  row, column), then the second cell's, keeping possible base cells. The third cell thus sees
  one of the first two but need not see both. The same three cells can come up again from
  another of their pairs; the repeat is skipped (same verdict, removals already given). The
  first finding wins.

Ratings: 6.2 for pairs, 7.5 for triples.

Speed: Sudoku Explainer tries every combination of every candidate set. Here a base pair is
drawn only among the cells that see two of the second cell's excluders (fewer common excluders
can never do, nor can any triple built on the pair), and a third cell only among those that see
two of the pair's common excluders. The verdict on a set of base cells depends only on their
candidate masks, which of them share a unit and the excluders' masks, so it is cached across
positions; within it the cells with fewest candidates are enumerated and the other's possible
values come out at once as a mask. Third cells are tried in cell order and the (rare) findings
then put in twin-area order, which gives the same first finding.

The search runs in C (``src/sudokit/_clogic/exclusion.c``); its pure-Python reference, which the
tests compare it with step by step, is ``tests/logic/pyref/exclusion.py``.
"""

from __future__ import annotations

from ._native import finder, register_info
from ._step import Step, cell_list, digit_list, effects, register_explainer

__all__ = ["find_aligned_pair_exclusions", "find_aligned_triple_exclusions"]

find_aligned_pair_exclusions = finder(
    "aligned-pair-exclusion", "Aligned pair exclusions (6.2) in Sudoku Explainer's order."
)
find_aligned_triple_exclusions = finder(
    "aligned-triple-exclusion", "Aligned triple exclusions (7.5) in Sudoku Explainer's order."
)


def _info(raw: tuple[int, ...]) -> tuple[tuple[str, object], ...]:
    """Raw ints (per excluder: cell, candidate count, digits) as the step's info."""
    cells: list[int] = []
    digits: list[tuple[int, ...]] = []
    i = 0
    while i < len(raw):
        k = raw[i + 1]
        cells.append(raw[i])
        digits.append(tuple(raw[i + 2 : i + 2 + k]))
        i += 2 + k
    return (("excluders", tuple(cells)), ("excluder_digits", tuple(digits)))


def _explain(step: Step) -> str:
    name = "Aligned pair exclusion" if len(step.cells) == 2 else "Aligned triple exclusion"
    cells = step.detail("excluders", ())
    digits = step.detail("excluder_digits", ())
    shown = ", ".join(
        f"{step.name(c)} ({digit_list(ds)})"
        for c, ds in zip(
            cells if isinstance(cells, tuple) else (),
            digits if isinstance(digits, tuple) else (),
            strict=False,
        )
    )
    return (
        f"{name} on {cell_list(step.shape, step.cells)}: any choice using a removed digit "
        f"repeats a digit in a unit or empties one of {shown}; {effects(step)}"
    )


register_explainer("aligned-pair-exclusion", _explain)
register_explainer("aligned-triple-exclusion", _explain)
register_info("aligned-pair-exclusion", _info)
register_info("aligned-triple-exclusion", _info)
