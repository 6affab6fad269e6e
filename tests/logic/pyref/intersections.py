"""The pure-Python reference for the C engine's intersections (src/sudokit/_clogic/intersections.c).

The terms and the rules: :mod:`sudokit.logic.intersections`.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from sudokit._shape import Shape
from sudokit.logic._state import Candidates, bits
from sudokit.logic._step import Step

__all__ = ["find_direct_intersections", "find_intersections"]

# Sudoku Explainer's unit pairs, as (kind of unit1, kind of unit2) with 0 row, 1 column, 2 box.
_KIND_PAIRS = ((2, 1), (2, 0), (1, 2), (0, 2))


@lru_cache(maxsize=32)
def _single_units(shape: Shape) -> dict[tuple[int, int], tuple[tuple[int, int], ...]]:
    """For crossing units (unit1, unit2): the other units of unit1's kind that cross unit2,
    with their cells, in index order (where a direct step may find its hidden single)."""
    n = shape.n
    masks = [sum(1 << c for c in unit) for unit in shape.units]
    out = {}
    for k1, k2 in _KIND_PAIRS:
        for u1 in range(k1 * n, k1 * n + n):
            for u2 in range(k2 * n, k2 * n + n):
                if masks[u1] & masks[u2]:
                    out[u1, u2] = tuple(
                        (u3, masks[u3])
                        for u3 in range(k1 * n, k1 * n + n)
                        if u3 != u1 and masks[u3] & masks[u2]
                    )
    return out


def _locking(state: Candidates, direct: bool) -> Iterator[Step]:
    n, where, geo = state.n, state.where, state.geo
    unit_mask, units_of = geo.unit_mask, geo.units_of
    singles = _single_units(state.shape) if direct else {}
    for k1, k2 in _KIND_PAIRS:
        pointing = k1 == 2
        for u1 in range(k1 * n, k1 * n + n):
            m1 = unit_mask[u1]
            # SE loops over unit2, then the digit; a digit's two or more places in unit1 lie in
            # at most one crossing unit2, so find it and sort the finds by (unit2, digit).
            found = []
            for d in range(1, n + 1):
                places = where[d] & m1
                if places & (places - 1):  # one place is a hidden single, not a locking
                    u2 = units_of[(places & -places).bit_length() - 1][k2]
                    if not places & ~unit_mask[u2]:
                        found.append((u2, d, places))
            if len(found) > 1:
                found.sort()
            for u2, d, places in found:
                m2 = unit_mask[u2]
                removed = where[d] & m2 & ~m1
                if not direct:
                    if removed:
                        yield Step(
                            state.shape,
                            "pointing" if pointing else "claiming",
                            2.6 if pointing else 2.8,
                            eliminations=tuple((c, d) for c in bits(removed)),
                            cells=tuple(bits(places)),
                            units=(u1, u2),
                            digits=(d,),
                        )
                    continue
                for u3, m3 in singles[u1, u2]:
                    places3 = where[d] & m3
                    if not places3 & (places3 - 1):
                        continue
                    left = places3 & ~m2
                    if left and not left & (left - 1):
                        yield Step(
                            state.shape,
                            "direct-pointing" if pointing else "direct-claiming",
                            1.7 if pointing else 1.9,
                            placements=((left.bit_length() - 1, d),),
                            cells=tuple(bits(places)),
                            units=(u1, u2, u3),
                            digits=(d,),
                            info=(("cleared", tuple((c, d) for c in bits(removed))),),
                        )


def find_direct_intersections(state: Candidates) -> Iterator[Step]:
    """Direct pointing (1.7) and direct claiming (1.9): Sudoku Explainer's ``Locking(true)``."""
    return _locking(state, True)


def find_intersections(state: Candidates) -> Iterator[Step]:
    """Pointing (2.6) and claiming (2.8): Sudoku Explainer's ``Locking(false)``."""
    return _locking(state, False)
