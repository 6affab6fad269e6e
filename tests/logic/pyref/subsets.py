"""The pure-Python reference for the C engine's subsets (src/sudokit/_clogic/subsets.c).

The terms and the rules: :mod:`sudokit.logic.subsets`.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from sudokit.logic._state import Candidates, bits
from sudokit.logic._step import Step

__all__ = [
    "colex_combinations",
    "find_direct_hidden_pairs",
    "find_direct_hidden_triples",
    "find_hidden_pairs",
    "find_hidden_quads",
    "find_hidden_triples",
    "find_naked_pairs",
    "find_naked_quads",
    "find_naked_triples",
    "se_set_unit_order",
]

_SIZE_NAME = {2: "pair", 3: "triple", 4: "quad"}
_NAKED_RATING = {2: 3.0, 3: 3.6, 4: 5.0}
_HIDDEN_RATING = {2: 3.4, 3: 4.0, 4: 5.4}
_DIRECT_HIDDEN_RATING = {2: 2.0, 3: 2.5}


@lru_cache(maxsize=256)
def _colex_table(m: int, k: int) -> tuple[tuple[int, ...], ...]:
    if k == 0:
        return ((),)
    return tuple(rest + (last,) for last in range(k - 1, m) for rest in _colex_table(last, k - 1))


def colex_combinations(m: int, k: int) -> tuple[tuple[int, ...], ...]:
    """The ``k``-subsets of ``range(m)`` as ascending tuples, in colexicographic order.

    That is the order of increasing bitmask value, in which Sudoku Explainer enumerates sets.

    >>> colex_combinations(4, 2)
    ((0, 1), (0, 2), (1, 2), (0, 3), (1, 3), (2, 3))
    """
    return _colex_table(m, k)


@lru_cache(maxsize=32)
def se_set_unit_order(n: int) -> tuple[int, ...]:
    """Boxes, then columns, then rows: Sudoku Explainer's unit order for subsets and singles."""
    return (*range(2 * n, 3 * n), *range(n, 2 * n), *range(n))


def _empty_cells(state: Candidates) -> int:
    """The cells without a value, as a bitset."""
    empty = 0
    for c, v in enumerate(state.values):
        if not v:
            empty |= 1 << c
    return empty


def _naked_sets(state: Candidates, k: int) -> Iterator[Step]:
    cand, geo = state.cand, state.geo
    technique, rating = f"naked-{_SIZE_NAME[k]}", _NAKED_RATING[k]
    empty = _empty_cells(state)
    for u in se_set_unit_order(state.n):
        if (empty & geo.unit_mask[u]).bit_count() < 2 * k:
            continue
        cells = geo.units[u]
        # Members need 2..k candidates; filtering keeps the colex order of the survivors.
        pool = [c for c in cells if 2 <= cand[c].bit_count() <= k]
        if len(pool) < k:
            continue
        for combo in colex_combinations(len(pool), k):
            union = 0
            for i in combo:
                union |= cand[pool[i]]
            if union.bit_count() != k:
                continue
            members = tuple(pool[i] for i in combo)
            removed = tuple(
                (c, d + 1)
                for c in cells
                if c not in members and cand[c] & union
                for d in bits(cand[c] & union)
            )
            if removed:
                yield Step(
                    state.shape,
                    technique,
                    rating,
                    eliminations=removed,
                    cells=members,
                    units=(u,),
                    digits=tuple(d + 1 for d in bits(union)),
                )


def _hidden_sets(state: Candidates, k: int, direct: bool) -> Iterator[Step]:
    n, cand, where, geo = state.n, state.cand, state.where, state.geo
    empty_cells = _empty_cells(state)
    if direct:
        technique, rating = f"direct-hidden-{_SIZE_NAME[k]}", _DIRECT_HIDDEN_RATING[k]
    else:
        technique, rating = f"hidden-{_SIZE_NAME[k]}", _HIDDEN_RATING[k]
    for u in se_set_unit_order(n):
        mask = geo.unit_mask[u]
        empty = (empty_cells & mask).bit_count()
        if not (empty > 2 * k or (direct and empty > k)):
            continue
        places = [0] + [where[d] & mask for d in range(1, n + 1)]
        pool = [d for d in range(1, n + 1) if 2 <= places[d].bit_count() <= k]
        if len(pool) < k:
            continue
        for combo in colex_combinations(len(pool), k):
            union = 0
            for i in combo:
                union |= places[pool[i]]
            if union.bit_count() != k:
                continue
            digits = tuple(pool[i] for i in combo)
            keep = 0
            for d in digits:
                keep |= 1 << (d - 1)
            members = tuple(bits(union))
            removed = tuple((c, d + 1) for c in members for d in bits(cand[c] & ~keep))
            if not direct:
                if removed:
                    yield Step(
                        state.shape,
                        technique,
                        rating,
                        eliminations=removed,
                        cells=members,
                        units=(u,),
                        digits=digits,
                    )
                continue
            # Direct: the first other digit left with one place in the unit once the set's
            # cells lose their other candidates.
            for d in range(1, n + 1):
                if keep >> (d - 1) & 1 or places[d].bit_count() < 2:
                    continue
                left = places[d] & ~union
                if left and not left & (left - 1):
                    yield Step(
                        state.shape,
                        technique,
                        rating,
                        placements=((left.bit_length() - 1, d),),
                        cells=members,
                        units=(u,),
                        digits=digits,
                        info=(("cleared", removed),),
                    )
                    break


def find_direct_hidden_pairs(state: Candidates) -> Iterator[Step]:
    """Direct hidden pairs (2.0): Sudoku Explainer's ``HiddenSet(2, true)``."""
    return _hidden_sets(state, 2, True)


def find_direct_hidden_triples(state: Candidates) -> Iterator[Step]:
    """Direct hidden triples (2.5): Sudoku Explainer's ``HiddenSet(3, true)``."""
    return _hidden_sets(state, 3, True)


def find_naked_pairs(state: Candidates) -> Iterator[Step]:
    """Naked pairs (3.0): Sudoku Explainer's ``NakedSet(2)``."""
    return _naked_sets(state, 2)


def find_naked_triples(state: Candidates) -> Iterator[Step]:
    """Naked triples (3.6): Sudoku Explainer's ``NakedSet(3)``."""
    return _naked_sets(state, 3)


def find_naked_quads(state: Candidates) -> Iterator[Step]:
    """Naked quads (5.0): Sudoku Explainer's ``NakedSet(4)``."""
    return _naked_sets(state, 4)


def find_hidden_pairs(state: Candidates) -> Iterator[Step]:
    """Hidden pairs (3.4): Sudoku Explainer's ``HiddenSet(2, false)``."""
    return _hidden_sets(state, 2, False)


def find_hidden_triples(state: Candidates) -> Iterator[Step]:
    """Hidden triples (4.0): Sudoku Explainer's ``HiddenSet(3, false)``."""
    return _hidden_sets(state, 3, False)


def find_hidden_quads(state: Candidates) -> Iterator[Step]:
    """Hidden quads (5.4): Sudoku Explainer's ``HiddenSet(4, false)``."""
    return _hidden_sets(state, 4, False)
