"""The pure-Python reference for the C engine's BUG (src/sudokit/_clogic/bug.c).

The terms and the rules: :mod:`sudokit.logic.bug`.
"""

from __future__ import annotations

from collections.abc import Iterator

from sudokit.logic._state import Candidates, bits, extra_houses, house_order
from sudokit.logic._step import Step

from .uniqueness import houses_in_order, small_unions

__all__ = ["find_bug"]


def _se_units(state: Candidates) -> list[int]:
    """Boxes, then rows, then columns (Sudoku Explainer's region order); under rules then
    the extra houses in SukakuExplainer's order."""
    n = state.n
    units = [*range(2 * n, 3 * n), *range(n), *range(n, 2 * n)]
    if not state.rules.is_classic:
        units += [h for kind in extra_houses(state.shape, state.rules) for h in kind]
    return units


def _restricted(state: Candidates, rest: list[int]) -> bool:
    """SukakuExplainer's check under neighbour rules: a cell tied to a cell of the grave by a
    neighbour rule alone that may still hold one of that cell's two digits breaks it."""
    geo = state.geo
    for c, houses in enumerate(houses_in_order(state)):
        if state.values[c]:
            continue
        tied = geo.peer_mask[c]
        for u in houses:
            tied &= ~geo.unit_mask[u]
        if any(tied & state.where[d0 + 1] for d0 in bits(rest[c])):
            return True
    return False


def find_bug(state: Candidates) -> Iterator[Step]:
    """BUG types 1-4 in Sudoku Explainer's order; none under killer cages (their sums can
    tell the BUG's solutions apart)."""
    if state.rules.cages is not None:
        return
    n, cand, where = state.n, state.cand, state.where
    unit_mask, peer_mask = state.geo.unit_mask, state.geo.peer_mask
    bug_cells: list[int] = []
    bug_digits: dict[int, int] = {}  # cell -> digit mask
    all_digits = 0
    common = -1  # cells seeing every BUG cell (-1: no BUG cell yet)
    rest = list(cand)  # the candidates with the BUG digits taken away
    for u in _se_units(state):
        mask = unit_mask[u]
        for d in range(1, n + 1):
            places = where[d] & mask
            count = places.bit_count()
            if count == 0 or count == 2:
                continue
            wide = [c for c in bits(places) if cand[c].bit_count() >= 3]
            if not wide:
                return  # a digit with too many places and no cell to blame: no BUG
            if len(wide) > 1:
                continue  # ambiguous here; another unit decides
            cell = wide[0]
            if cell not in bug_cells:
                bug_cells.append(cell)
            bug_digits[cell] = bug_digits.get(cell, 0) | 1 << (d - 1)
            all_digits |= 1 << (d - 1)
            rest[cell] &= ~(1 << (d - 1))
            common = peer_mask[cell] if common < 0 else common & peer_mask[cell]
            for c in bug_cells:
                common &= ~(1 << c)
            if len(bug_cells) > 1 and all_digits.bit_count() > 1 and not common:
                return
    if not bug_cells or not _is_bug(state, rest):
        return
    if not state.rules.is_classic and _restricted(state, rest):
        return
    shape = state.shape
    if len(bug_cells) == 1:
        cell = bug_cells[0]
        keep = all_digits
        yield Step(
            shape,
            "bug",
            5.6,
            eliminations=tuple((cell, d + 1) for d in bits(cand[cell] & ~keep)),
            cells=(cell,),
            digits=tuple(d + 1 for d in bits(keep)),
            info=(("type", 1),),
        )
    elif all_digits.bit_count() == 1:
        yield from _type2(state, bug_cells, all_digits, common)
        if len(bug_cells) == 2:
            yield from _type4(state, bug_cells, bug_digits, all_digits)
    elif common > 0:
        if len(bug_cells) == 2:
            yield from _type4(state, bug_cells, bug_digits, all_digits)
        yield from _type3(state, bug_cells, all_digits, common)


def _is_bug(state: Candidates, rest: list[int]) -> bool:
    """Whether the candidates ``rest`` are an exact BUG: two per empty cell, two per unit."""
    for v, m in zip(state.values, rest, strict=True):
        if not v and m.bit_count() != 2:
            return False
    for unit in state.geo.units:
        counts = [0] * state.n
        for c in unit:
            for d0 in bits(rest[c]):
                counts[d0] += 1
        if any(k not in (0, 2) for k in counts):
            return False
    return True


def _type2(state: Candidates, cells: list[int], digit_mask: int, common: int) -> Iterator[Step]:
    d = digit_mask.bit_length()
    if common <= 0:
        return
    hit = common & state.where[d]
    if hit:
        yield Step(
            state.shape,
            "bug",
            5.7,
            eliminations=tuple((c, d) for c in bits(hit)),
            cells=tuple(cells),
            digits=(d,),
            info=(("type", 2),),
        )


def _type4(
    state: Candidates, cells: list[int], bug_digits: dict[int, int], all_digits: int
) -> Iterator[Step]:
    c1, c2 = cells
    cand = state.cand
    shared = cand[c1] & cand[c2] & ~all_digits
    if shared.bit_count() != 1:
        return
    v = shared.bit_length()
    theirs = houses_in_order(state)[c2]
    for u1 in houses_in_order(state)[c1]:
        if u1 not in theirs:
            continue
        gone1 = cand[c1] & ~bug_digits[c1] & ~shared
        gone2 = cand[c2] & ~bug_digits[c2] & ~shared
        yield Step(
            state.shape,
            "bug",
            5.7,
            eliminations=tuple(
                sorted([(c1, d + 1) for d in bits(gone1)] + [(c2, d + 1) for d in bits(gone2)])
            ),
            cells=(c1, c2),
            units=(u1,),
            digits=(v,),
            info=(("type", 4), ("bug_digits", tuple(d + 1 for d in bits(all_digits)))),
        )


def _type3(state: Candidates, cells: list[int], all_digits: int, common: int) -> Iterator[Step]:
    cand, unit_mask = state.cand, state.geo.unit_mask
    if state.rules.is_classic:
        ordered = [c for c in house_order(state.shape)[cells[0]] if common >> c & 1]
    else:  # SukakuExplainer: ascending
        ordered = list(bits(common))
    for unit in houses_in_order(state)[cells[0]]:  # box, row, column (then extra houses)
        if any(not unit_mask[unit] >> c & 1 for c in cells):
            continue
        region = [c for c in ordered if unit_mask[unit] >> c & 1]
        # Members need two candidates or more (SE's tuple test), so others cannot succeed.
        items = [(i, cand[c]) for i, c in enumerate(region) if cand[c].bit_count() > 1]
        for degree in range(2, state.n - 2):
            if len(region) < degree:
                continue
            for pick, union in small_unions(items, degree - 1, degree):
                naked = [region[i] for i in pick]
                naked_set = union | all_digits
                if union.bit_count() != degree or naked_set.bit_count() != degree:
                    continue
                erasable = [c for c in region if c not in naked and c not in cells]
                elims = [(c, d + 1) for c in erasable for d in bits(cand[c] & naked_set)]
                if not elims:
                    continue
                yield Step(
                    state.shape,
                    "bug",
                    round(5.7 + (degree - 1) * 0.1, 1),
                    eliminations=tuple(sorted(elims)),
                    cells=tuple(cells),
                    units=(unit,),
                    digits=tuple(d + 1 for d in bits(naked_set)),
                    info=(
                        ("type", 3),
                        ("bug_digits", tuple(d + 1 for d in bits(all_digits))),
                        ("set_cells", tuple(naked)),
                    ),
                )
