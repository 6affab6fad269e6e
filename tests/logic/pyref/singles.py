"""The pure-Python reference for the C engine's singles (src/sudokit/_clogic/singles.c).

The terms and the rules: :mod:`sudokit.logic.singles`.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from sudokit.logic._state import Candidates, Geometry, bits
from sudokit.logic._step import Step

__all__ = ["find_full_houses", "find_hidden_singles", "find_naked_singles"]


@lru_cache(maxsize=32)
def _scan_order(state_geo: Geometry) -> tuple[tuple[int, int, float], ...]:
    """(unit, cell mask, hidden-single rating) for boxes, then columns, then rows: Sudoku
    Explainer's order for singles."""
    n = state_geo.n
    order = [*range(2 * n, 3 * n), *range(n, 2 * n), *range(n)]
    return tuple((u, state_geo.unit_mask[u], 1.2 if u >= 2 * n else 1.5) for u in order)


def find_full_houses(state: Candidates) -> Iterator[Step]:
    """A unit with one empty cell: that cell takes the unit's missing digit."""
    empty, shape = state.empty, state.shape
    for u, mask, _ in _scan_order(state.geo):
        e = empty & mask
        if e and not e & (e - 1):
            cell = e.bit_length() - 1
            for d0 in bits(state.cand[cell]):
                d = d0 + 1
                yield Step(shape, "full-house", 1.0, ((cell, d),), (), (cell,), (u,), (d,))


def find_hidden_singles(state: Candidates) -> Iterator[Step]:
    """A digit with one place left in a unit that has other empty cells (full houses are
    :func:`find_full_houses`; Sudoku Explainer tries those first)."""
    where, empty, shape = state.where, state.empty, state.shape
    digits = range(1, state.n + 1)
    for u, mask, rating in _scan_order(state.geo):
        e = empty & mask
        if not e & (e - 1):
            continue
        for d in digits:
            places = where[d] & mask
            if places and not places & (places - 1):
                cell = places.bit_length() - 1
                yield Step(shape, "hidden-single", rating, ((cell, d),), (), (cell,), (u,), (d,))


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
