"""The pure-Python reference for the C engine's ALS-XZ (src/sudokit/_clogic/als.c).

The terms and the rules: :mod:`sudokit.logic.als`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from sudokit.logic._state import Candidates, bits
from sudokit.logic._step import Step

__all__ = ["Als", "almost_locked_sets", "find_als_xz"]

ALS_XZ_RATING = 7.0


@dataclass(frozen=True, slots=True)
class Als:
    """An almost locked set: its cells (bitset), digits (mask) and, per digit, where it is and
    which cells outside the set see all of those places and hold the digit."""

    cells: int
    digits: int
    unit: int
    holders: tuple[int, ...]  # holders[d]: the set's cells with digit d (index 1..n)
    seers: tuple[int, ...]  # seers[d]: cells outside the set, with d, seeing all holders[d]


def almost_locked_sets(state: Candidates) -> list[Als]:
    """Every ALS of the state, in HoDoKu's order (see the module docstring)."""
    n, geo, cand, where = state.n, state.geo, state.cand, state.where
    found: list[tuple[int, int, int]] = []
    known: set[int] = set()
    for u in range(3 * n):
        empty = [c for c in geo.units[u] if not state.values[c]]
        order: list[tuple[int, int, int]] = []
        _subsets(empty, cand, 0, 0, 0, 0, n - 1, order)
        for cells, digits, _ in order:
            if cells not in known:
                known.add(cells)
                found.append((cells, digits, u))
    out = []
    peer = geo.peer_mask
    for cells, digits, u in found:
        holders = [0] * (n + 1)
        seers = [0] * (n + 1)
        for d0 in bits(digits):
            d = d0 + 1
            h = cells & where[d]
            holders[d] = h
            s = where[d] & ~cells
            for c in bits(h):
                s &= peer[c]
            seers[d] = s
        out.append(Als(cells, digits, u, tuple(holders), tuple(seers)))
    return out


def _subsets(
    empty: list[int],
    cand: list[int],
    start: int,
    cells: int,
    digits: int,
    k: int,
    limit: int,
    out: list[tuple[int, int, int]],
) -> None:
    """Append the ALS among ``cells`` plus cells of ``empty[start:]``, depth first (preorder).

    A branch stops when even adding only cells without new digits could not bring the
    digit count down to one more than the cell count (within ``limit`` cells).
    """
    for i in range(start, len(empty)):
        sub_cells, sub_digits = cells | (1 << empty[i]), digits | cand[empty[i]]
        size, count = k + 1, sub_digits.bit_count()
        if count == size + 1:
            out.append((sub_cells, sub_digits, size))
        room = min(len(empty) - i - 1, limit - size)
        if room > 0 and count <= size + 1 + room:
            _subsets(empty, cand, i + 1, sub_cells, sub_digits, size, limit, out)


def _restricted_commons(a: Als, b: Als) -> list[int]:
    """The RCs of two non-overlapping ALS, smallest first."""
    rcs = []
    for d0 in bits(a.digits & b.digits):
        d = d0 + 1
        # Every cell of one set's d must see every cell of the other's.
        if not b.holders[d] & ~a.seers[d] and not a.holders[d] & ~b.seers[d]:
            rcs.append(d)
    return rcs


def find_als_xz(state: Candidates) -> Iterator[Step]:
    """ALS-XZ steps, in HoDoKu's order of ALS pairs."""
    sets = almost_locked_sets(state)
    # A partner B needs a digit x whose cells in B all see A's x cells: some cell of B must
    # lie in ``reach`` (the cells seeing all of some digit's cells in A).
    reach = []
    for a in sets:
        r = 0
        for d0 in bits(a.digits):
            r |= a.seers[d0 + 1]
        reach.append(r)
    cells = [a.cells for a in sets]
    for i, a in enumerate(sets):
        reach_a, cells_a = reach[i], a.cells
        for j in range(i + 1, len(sets)):
            cells_b = cells[j]
            if cells_b & cells_a or not cells_b & reach_a:
                continue
            b = sets[j]
            rcs = _restricted_commons(a, b)
            if rcs:
                removed = _xz_eliminations(a, b, rcs)
                if removed:
                    yield Step(
                        state.shape,
                        "als-xz",
                        ALS_XZ_RATING,
                        eliminations=tuple(sorted(removed, key=lambda e: (e[1], e[0]))),
                        cells=tuple(sorted(bits(a.cells | b.cells))),
                        units=(a.unit, b.unit),
                        digits=tuple(rcs[:2]),
                        complexity=(a.cells | b.cells).bit_count(),
                        info=(("sets", ((a.cells, a.digits), (b.cells, b.digits))),),
                    )


def _xz_eliminations(a: Als, b: Als, rcs: list[int]) -> dict[tuple[int, int], None]:
    removed: dict[tuple[int, int], None] = {}
    common = a.digits & b.digits
    for x in rcs[:2]:
        for z0 in bits(common & ~(1 << (x - 1))):
            z = z0 + 1
            for c in bits(a.seers[z] & b.seers[z]):
                removed[(c, z)] = None
    if len(rcs) >= 2:
        locked = (1 << (rcs[0] - 1)) | (1 << (rcs[1] - 1))
        for one, other in ((a, b), (b, a)):
            for z0 in bits(one.digits & ~locked):
                z = z0 + 1
                for c in bits(one.seers[z] & ~other.cells):
                    removed[(c, z)] = None
    return removed
