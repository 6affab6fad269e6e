"""The pure-Python reference for the C engine's wings (src/sudokit/_clogic/wings.c).

The terms and the rules: :mod:`sudokit.logic.wings`.
"""

from __future__ import annotations

from collections.abc import Iterator

from sudokit.logic._state import Candidates, bits, house_order, visible_order
from sudokit.logic._step import Step

__all__ = ["find_xy_wings", "find_xyz_wings"]


def _wings(state: Candidates, xyz: bool) -> Iterator[Step]:
    cand, where, peer_mask = state.cand, state.where, state.geo.peer_mask
    # SE's house order; under rules SukakuExplainer's visible cells
    houses = (
        house_order(state.shape)
        if state.rules.is_classic
        else visible_order(state.shape, state.rules)
    )
    pivot_size = 3 if xyz else 2
    for pivot, xy in enumerate(cand):
        if xy.bit_count() != pivot_size:
            continue
        for p1 in houses[pivot]:
            xz = cand[p1]
            if xz.bit_count() != 2 or (xy & ~xz).bit_count() != 1:
                continue
            for p2 in houses[pivot]:
                yz = cand[p2]
                if yz.bit_count() != 2 or (xy | xz | yz).bit_count() != 3:
                    continue
                if (xy & xz & yz).bit_count() != (1 if xyz else 0):
                    continue
                z = (xz & yz & -(xz & yz)).bit_length()
                victims = peer_mask[p1] & peer_mask[p2]
                if xyz:
                    victims &= peer_mask[pivot]
                victims &= ~((1 << pivot) | (1 << p1) | (1 << p2))
                removed = victims & where[z]
                if removed:
                    yield Step(
                        state.shape,
                        "xyz-wing" if xyz else "xy-wing",
                        4.4 if xyz else 4.2,
                        eliminations=tuple((c, z) for c in bits(removed)),
                        cells=(pivot, p1, p2),
                        digits=(z,),
                        info=(("candidates", (xy, xz, yz)),),
                    )


def find_xy_wings(state: Candidates) -> Iterator[Step]:
    """XY-Wings (4.2): Sudoku Explainer's ``XYWing(false)``."""
    return _wings(state, False)


def find_xyz_wings(state: Candidates) -> Iterator[Step]:
    """XYZ-Wings (4.4): Sudoku Explainer's ``XYWing(true)``."""
    return _wings(state, True)
