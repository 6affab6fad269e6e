"""The pure-Python reference for the C engine's unique rectangles and loops
(src/sudokit/_clogic/uniqueness.c).

The terms and the rules: :mod:`sudokit.logic.uniqueness`.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from sudokit._shape import Shape
from sudokit.logic._state import Candidates, bits
from sudokit.logic._step import Step

__all__ = [
    "find_unique_loops",
    "small_unions",
    "unique_loop_rating",
]

_BLOCK, _ROW, _COL = 0, 1, 2


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


@lru_cache(maxsize=32)
def _regions(shape: Shape) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per cell, (kind, unit) for its box, row and column: Sudoku Explainer's region order."""
    return tuple(((_BLOCK, box), (_ROW, row), (_COL, col)) for row, col, box in shape.units_of)


class _Found:
    """A found step before sorting: Sudoku Explainer's rating (an unrounded double) and type."""

    __slots__ = ("key", "kind", "rating", "step")

    def __init__(self, rating: float, kind: int, key: tuple[object, ...], step: Step) -> None:
        self.rating = rating
        self.kind = kind
        self.key = key
        self.step = step


def find_unique_loops(state: Candidates) -> Iterator[Step]:
    """Unique rectangles and loops, types 1-4, cheapest first (Sudoku Explainer's order)."""
    hints: list[_Found] = []
    seen: set[tuple[object, ...]] = set()
    cand = state.cand
    for start, m in enumerate(cand):
        if m.bit_count() != 2:
            continue
        both = state.where[m.bit_length()] & state.where[(m & -m).bit_length()]
        if both.bit_count() < 4:
            continue
        for loop in _loops(state, start, m, both):
            if not _is_unique_loop(state, loop):
                continue
            for hint in _loop_hints(state, loop, m):
                if hint.key not in seen:
                    seen.add(hint.key)
                    hints.append(hint)
    hints.sort(key=lambda h: (h.rating, h.kind))
    for hint in hints:
        yield hint.step


def _loops(state: Candidates, start: int, pair: int, both: int) -> list[tuple[int, ...]]:
    """Every closed path from ``start`` that may be a unique loop (SE's ``checkForLoops``).

    In Sudoku Explainer's order. Unlike SE, a path is not extended by a cell sharing a unit
    with an earlier cell of the same parity: no loop through both can be a unique loop, so
    this loses nothing and saves most of the search.
    """
    cand = state.cand
    unit_mask = state.geo.unit_mask
    regions = _regions(state.shape)
    unit_bits = _unit_bits(state.shape)
    start_bit = 1 << start
    not_pair = ~pair
    found: list[tuple[int, ...]] = []
    loop = [start]

    def extend(
        cell: int, allowed: int, extra: int, last: int, used: int, same: int, other: int
    ) -> None:
        # ``same``/``other``: the units met by path cells of the next cell's parity / of the
        # other parity. ``extra`` grows with every cell examined here, recursed into or not,
        # as in SE (it only narrows the search).
        for kind, unit in regions[cell]:
            if kind == last:
                continue
            for nxt in bits(unit_mask[unit] & ((both & ~used) | start_bit)):
                if nxt == start:
                    if len(loop) >= 4:
                        found.append(tuple(loop))
                    continue
                m = cand[nxt]
                extra |= m & not_pair
                wide = m.bit_count() > 2
                if (not wide or extra.bit_count() == 1 or allowed > 0) and not (
                    same & unit_bits[nxt]
                ):
                    loop.append(nxt)
                    extend(
                        nxt,
                        allowed - wide,
                        extra,
                        kind,
                        used | 1 << nxt,
                        other,
                        same | unit_bits[nxt],
                    )
                    loop.pop()

    extend(start, 2, 0, -1, start_bit, 0, unit_bits[start])
    return found


@lru_cache(maxsize=32)
def _unit_bits(shape: Shape) -> tuple[int, ...]:
    """Per cell, its row, column and box as a bitset of unit indexes."""
    return tuple((1 << r) | (1 << c) | (1 << b) for r, c, b in shape.units_of)


def _is_unique_loop(state: Candidates, loop: tuple[int, ...]) -> bool:
    """Every unit met holds exactly two loop cells, one at an even and one at an odd index."""
    units_of = state.geo.units_of
    even = odd = 0
    for i, cell in enumerate(loop):
        for u in units_of[cell]:
            bit = 1 << u
            if i & 1:
                if odd & bit:
                    return False
                odd |= bit
            else:
                if even & bit:
                    return False
                even |= bit
    return even == odd


def _loop_hints(state: Candidates, loop: tuple[int, ...], pair: int) -> list[_Found]:
    cand = state.cand
    v1 = (pair & -pair).bit_length()
    v2 = pair.bit_length()
    extra_cells = [c for c in loop if cand[c].bit_count() > 2]
    loop_mask = sum(1 << c for c in loop)
    base = unique_loop_rating(len(loop))
    out: list[_Found] = []
    if len(extra_cells) == 1:
        out.append(_type1(state, loop, loop_mask, base, v1, v2, extra_cells[0]))
    elif len(extra_cells) > 2:
        out += _type2(state, loop, loop_mask, base, v1, v2, extra_cells)
    elif len(extra_cells) == 2:
        c1, c2 = extra_cells
        rest = (cand[c1] | cand[c2]) & ~pair
        if rest.bit_count() == 1:
            out += _type2(state, loop, loop_mask, base, v1, v2, extra_cells)
        elif rest.bit_count() >= 2:
            out += _type3(state, loop, loop_mask, base, v1, v2, c1, c2, rest)
        out += _type4(state, loop, loop_mask, base, v1, v2, c1, c2)
    return out


def _step(
    state: Candidates,
    loop: tuple[int, ...],
    rating: float,
    kind: int,
    eliminations: list[tuple[int, int]],
    digits: tuple[int, ...],
    units: tuple[int, ...] = (),
    info: tuple[tuple[str, object], ...] = (),
) -> Step:
    return Step(
        state.shape,
        "unique-rectangle" if len(loop) == 4 else "unique-loop",
        round(rating, 1),
        eliminations=tuple(sorted(eliminations)),
        cells=loop,
        units=units,
        digits=digits,
        complexity=len(loop),
        info=(("type", kind), *info),
    )


def _type1(
    state: Candidates,
    loop: tuple[int, ...],
    loop_mask: int,
    base: float,
    v1: int,
    v2: int,
    cell: int,
) -> _Found:
    step = _step(
        state, loop, base, 1, [(cell, v1), (cell, v2)], (v1, v2), info=(("extra", (cell,)),)
    )
    return _Found(base, 1, (1, loop_mask), step)


def _type2(
    state: Candidates,
    loop: tuple[int, ...],
    loop_mask: int,
    base: float,
    v1: int,
    v2: int,
    extra_cells: list[int],
) -> list[_Found]:
    x = (state.cand[extra_cells[0]] & ~((1 << (v1 - 1)) | (1 << (v2 - 1)))).bit_length()
    seen_by_all = state.where[x]
    for c in extra_cells:
        seen_by_all &= state.geo.peer_mask[c]
    if not seen_by_all:
        return []
    step = _step(
        state,
        loop,
        base,
        2,
        [(c, x) for c in bits(seen_by_all)],
        (v1, v2),
        info=(("extra", tuple(extra_cells)), ("digit", x)),
    )
    return [_Found(base, 2, (2, loop_mask), step)]


def _type3(
    state: Candidates,
    loop: tuple[int, ...],
    loop_mask: int,
    base: float,
    v1: int,
    v2: int,
    c1: int,
    c2: int,
    rest: int,
) -> list[_Found]:
    """Naked and hidden sets completed by the pseudo-cell ``c1``/``c2`` (SE's type 3 search)."""
    values, n = state.values, state.n
    units = state.geo.units
    regions = _regions(state.shape)
    out: list[_Found] = []
    others = [d for d in range(1, n + 1) if d not in (v1, v2) and not rest >> (d - 1) & 1]
    for degree in range(rest.bit_count(), n - 1):
        for (_, u1), (_, u2) in zip(regions[c1], regions[c2], strict=True):
            if u1 != u2:
                continue
            empty = sum(1 for c in units[u1] if not values[c])
            if degree * 2 <= empty:
                out += _naked(state, loop, loop_mask, base, v1, v2, c1, c2, rest, u1, degree)
            if degree * 2 < empty and others:
                out += _hidden(state, loop, loop_mask, base, v1, v2, c1, c2, others, u1, degree)
    return out


def _naked(
    state: Candidates,
    loop: tuple[int, ...],
    loop_mask: int,
    base: float,
    v1: int,
    v2: int,
    c1: int,
    c2: int,
    rest: int,
    u: int,
    degree: int,
) -> list[_Found]:
    """The pseudo-cell (candidates ``rest``) and ``degree - 1`` cells holding ``degree`` digits.

    As in SE, the cells' digits together with the extra digits common to ``c1`` and ``c2`` must
    also number ``degree``, and every member needs two candidates or more.
    """
    cand = state.cand
    unit = state.geo.units[u]
    both_rest = rest & cand[c1] & cand[c2]
    items = [
        (i, cand[c]) for i, c in enumerate(unit) if c not in (c1, c2) and cand[c].bit_count() > 1
    ]
    out: list[_Found] = []
    for picked, union in small_unions(items, degree - 1, degree, rest):
        others = tuple(unit[i] for i in picked)
        inner = both_rest
        for c in others:
            inner |= cand[c]
        if union.bit_count() != degree or inner.bit_count() != degree:
            continue
        set_cells = set(others) | {c1, c2}
        elims = [(c, d + 1) for c in unit if c not in set_cells for d in bits(cand[c] & union)]
        if not elims:
            continue
        rating = base + (degree - 1) * 0.1
        step = _step(
            state,
            loop,
            rating,
            3,
            elims,
            (v1, v2),
            (u,),
            (
                ("extra", (c1, c2)),
                ("set", "naked"),
                ("set_cells", others),
                ("set_digits", tuple(d + 1 for d in bits(union))),
            ),
        )
        out.append(_Found(rating, 3, (31, loop_mask, u, union, others), step))
    return out


def _hidden(
    state: Candidates,
    loop: tuple[int, ...],
    loop_mask: int,
    base: float,
    v1: int,
    v2: int,
    c1: int,
    c2: int,
    others: list[int],
    u: int,
    degree: int,
) -> list[_Found]:
    """``degree`` digits, ``v1``, ``v2`` and some of ``others``, confined to ``degree`` places.

    ``c1`` and ``c2`` count as one place (SE leaves out ``c2``): they hold at most one of the
    digits, as one of them takes an extra digit, which is none of these.
    """
    cand = state.cand
    unit = state.geo.units[u]
    i1, i2 = unit.index(c1), unit.index(c2)

    def places(d: int) -> int:
        at = 0
        for i, c in enumerate(unit):
            if cand[c] >> (d - 1) & 1 and i != i2:
                at |= 1 << i
        return at

    items = [(i, at) for i, d in enumerate(others) if (at := places(d))]
    out: list[_Found] = []
    for picked, union in small_unions(items, degree - 2, degree, places(v1) | places(v2)):
        if union.bit_count() != degree:
            continue
        hidden = (1 << (v1 - 1)) | (1 << (v2 - 1))
        for i in picked:
            hidden |= 1 << (others[i] - 1)
        set_cells = tuple(unit[i] for i in bits(union & ~(1 << i1)))
        elims = [(c, d + 1) for c in set_cells for d in bits(cand[c] & ~hidden)]
        if not elims:
            continue
        rating = base + (len(set_cells) - 1) * 0.1
        step = _step(
            state,
            loop,
            rating,
            3,
            elims,
            (v1, v2),
            (u,),
            (
                ("extra", (c1, c2)),
                ("set", "hidden"),
                ("set_cells", set_cells),
                ("set_digits", tuple(d + 1 for d in bits(hidden))),
            ),
        )
        out.append(_Found(rating, 3, (30, loop_mask, u, hidden, set_cells), step))
    return out


def small_unions(
    items: list[tuple[int, int]], k: int, limit: int, start: int = 0
) -> list[tuple[tuple[int, ...], int]]:
    """The ``k``-subsets of ``items`` (index, mask) whose masks, joined with ``start``, have at
    most ``limit`` bits, each with that union, in Sudoku Explainer's order of the indexes.

    Sudoku Explainer tries every subset in its ``Permutations`` order (increasing bitmask of
    the indexes); only the subsets kept here can succeed, and sorting them by that bitmask
    restores its order, so this pruned search finds the same sets in the same order.
    """
    found: list[tuple[tuple[int, ...], int]] = []
    picked: list[int] = []

    def grow(first: int, union: int) -> None:
        if len(picked) == k:
            found.append((tuple(picked), union))
            return
        for j in range(first, len(items) - (k - len(picked)) + 1):
            index, mask = items[j]
            joined = union | mask
            if joined.bit_count() <= limit:
                picked.append(index)
                grow(j + 1, joined)
                picked.pop()

    if start.bit_count() <= limit:
        grow(0, start)
    found.sort(key=lambda item: sum(1 << i for i in item[0]))
    return found


def _type4(
    state: Candidates,
    loop: tuple[int, ...],
    loop_mask: int,
    base: float,
    v1: int,
    v2: int,
    c1: int,
    c2: int,
) -> list[_Found]:
    where, unit_mask = state.where, state.geo.unit_mask
    regions = _regions(state.shape)
    pair_cells = (1 << c1) | (1 << c2)
    lock1 = lock2 = -1
    for (_, u1), (_, u2) in zip(regions[c1], regions[c2], strict=True):
        if u1 != u2:
            continue
        # The last unit kind (box, row, column) where a digit is locked wins, as in SE.
        if not where[v1] & unit_mask[u1] & ~pair_cells:
            lock1 = u1
        if not where[v2] & unit_mask[u1] & ~pair_cells:
            lock2 = u1
    if lock1 >= 0:
        unit, lock, remove = lock1, v1, v2
    elif lock2 >= 0:
        unit, lock, remove = lock2, v2, v1
    else:
        return []
    step = _step(
        state,
        loop,
        base,
        4,
        [(c1, remove), (c2, remove)],
        (lock, remove),
        (unit,),
        (("extra", (c1, c2)),),
    )
    return [_Found(base, 4, (4, loop_mask), step)]
