"""Killer techniques: what the cages' sums tell (the C engine's ``killer*.c``).

Terms (a **cage** is cells whose different digits add up to its sum; the rules' cages):

- **Cage single** (1.0): the last empty cell of a cage holds the sum less the placed digits.
- **Cage combinations** (1.6 for two empty cells, 2.0 for three, 2.4 for four or more): the
  digit sets that make a cage's sum with its cells' candidates; a candidate no filling of the
  cage uses goes, and a cell left one digit takes it.
- **Cage confinement** (2.5): a digit in every combination of a cage is in one of the cage's
  cells that hold it; a cell outside the cage that sees them all cannot hold it.
- **Cage and house overlap** (2.7): every place left for a digit in a house lies in one
  cage; the cage's cells outside the house lose it.
- **Rule of 45**: the cells of a house add up to 45 (on 9x9; ``n(n+1)/2``), of h houses to h
  times that. Less the cages wholly inside, the rest (the **innies**) add up to what is left;
  the cages crossing the edge stick out by the **outies**, which add up to those cages' sums
  and the inside ones' less the houses' total. One innie or outie is placed (1.5 for a house,
  3.1 for two or three adjacent houses); two or more make a virtual cage whose sum cuts their
  candidates as a cage's does (2.9 for a house, 3.5 for a group).

Why these ratings: ``docs/rating.md``, "Killer".
"""

from __future__ import annotations

from .. import _logic
from ..cages import Cage
from ._native import finder, register_info
from ._step import Step, cell_list, effects, register_explainer

__all__ = [
    "KILLER_FINDERS",
    "combinations",
    "digit_set",
]

#: The finder of each killer technique (the C engine's), by slug.
KILLER_FINDERS = {slug: finder(slug) for slug in _logic.KILLER_TECHNIQUES}


def digit_set(mask: int) -> str:
    """``{1,5,9}`` for a digit mask."""
    return "{" + ",".join(str(d + 1) for d in range(mask.bit_length()) if mask >> d & 1) + "}"


def combinations(step: Step) -> str:
    """The step's combinations in words (``{1,5,9} or {2,4,9}``), or "" when it has none
    (a sum over cells that are not all peers)."""
    combos = step.detail("combinations", ())
    count = step.detail("combination_count", 0)
    assert isinstance(combos, tuple) and isinstance(count, int)
    if not combos:
        return ""
    text = " or ".join(digit_set(m) for m in combos)
    return text if count <= len(combos) else f"{text} (and {count - len(combos)} more)"


def _combo_info(raw: tuple[int, ...]) -> tuple[tuple[str, object], ...]:
    count = raw[0]
    return (("combination_count", count), ("combinations", tuple(raw[1:])))


def _cage_info(raw: tuple[int, ...]) -> tuple[tuple[str, object], ...]:
    return (("cage", raw[0]), ("sum", raw[1]), *_combo_info(raw[2:]))


def _45_info(raw: tuple[int, ...]) -> tuple[tuple[str, object], ...]:
    return (("sum", raw[0]), ("total", raw[1]), ("cages_total", raw[2]), *_combo_info(raw[3:]))


def _cage(step: Step) -> Cage:
    """The cage a step names (its ``cage`` detail: the cage's index in the rules)."""
    cages = step.rules.cages
    index = step.detail("cage")
    assert cages is not None and isinstance(index, int)
    return cages[index]


def _cage_name(step: Step) -> str:
    return _cage(step).name(step.shape.n)


def _cage_single(step: Step) -> str:
    (cell, d) = step.placements[0]
    cage = _cage_name(step)
    if len(_cage(step).cells) == 1:
        return f"Cage single: {cage} is the one cell {step.name(cell)}, so it is {d}"
    return f"Cage single: {step.name(cell)} is the last empty cell of {cage}, so it is {d}"


def _cage_combination(step: Step) -> str:
    cells = cell_list(step.shape, step.cells)
    return (
        f"Cage combinations: in {_cage_name(step)}, {cells} add up to {step.detail('sum')} "
        f"with {combinations(step)}: {effects(step)}"
    )


def _cage_confinement(step: Step) -> str:
    d = step.digits[0]
    return (
        f"Cage confinement: every combination of {_cage_name(step)} holds {d}, so {d} is in "
        f"{cell_list(step.shape, step.cells)}; the cells that see them all lose it: "
        f"{effects(step)}"
    )


def _cage_overlap(step: Step) -> str:
    d = step.digits[0]
    return (
        f"Cage and house overlap: in {step.unit_name(step.units[0])}, {d} lies only in "
        f"{_cage_name(step)}, so the cage's other cells cannot be {d}: {effects(step)}"
    )


def _rule_of_45(step: Step) -> str:
    shape = step.shape
    houses = " and ".join(step.unit_name(u) for u in step.units)
    full = len(step.units) * shape.n * (shape.n + 1) // 2
    cages, total, left = step.detail("cages_total"), step.detail("total"), step.detail("sum")
    assert isinstance(cages, int) and isinstance(total, int) and isinstance(left, int)
    cells = cell_list(shape, step.cells)
    one = len(step.cells) == 1
    kind = step.technique[:-1] if one else step.technique  # innie, outie
    if step.technique == "innies":
        why = f"the cells of {houses} add up to {full}; less the cages wholly inside ({cages})"
    else:
        why = f"the cages inside or crossing {houses} add up to {cages}; less {full}"
    placed = f" ({total} less the placed digits)" if left != total else ""
    if one:
        return f"Rule of 45: {why}, the {kind} {cells} is {left}{placed}: {effects(step)}"
    combos = combinations(step)
    made = f" with {combos}" if combos else ""
    return f"Rule of 45: {why}, the {kind} {cells} add up to {left}{placed}{made}: {effects(step)}"


register_explainer("cage-single", _cage_single)
register_explainer("cage-combination", _cage_combination)
register_explainer("cage-confinement", _cage_confinement)
register_explainer("cage-overlap", _cage_overlap)
register_explainer("innies", _rule_of_45)
register_explainer("outies", _rule_of_45)
register_info("cage-single", _cage_info)
register_info("cage-combination", _cage_info)
register_info("cage-confinement", lambda raw: (("cage", raw[0]),))
register_info("cage-overlap", lambda raw: (("cage", raw[0]),))
register_info("innies", _45_info)
register_info("outies", _45_info)
