"""The pure-Python reference for the C engine's unique rectangles and loops
(src/sudokit/_clogic/uniqueness.c).

The terms and the rules: :mod:`sudokit.logic.uniqueness`.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from sudokit._shape import Shape
from sudokit.logic._state import Candidates, bits, extra_houses
from sudokit.logic._step import Step
from sudokit.rules import CLASSIC, Rules
from sudokit.rules import geometry as rules_geometry

__all__ = [
    "find_unique_loops",
    "houses_in_order",
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
def _regions(shape: Shape, rules: Rules = CLASSIC) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per cell, (kind, unit) for its box, row and column: Sudoku Explainer's region order;
    under rules then its disjoint group, window and diagonals (SukakuExplainer's order).
    A cell is in one house of each kind, so a house stands for its kind: kind is the unit."""
    if rules.is_classic:
        return tuple(((_BLOCK, box), (_ROW, row), (_COL, col)) for row, col, box in shape.units_of)
    geo = rules_geometry(shape, rules)
    order = [h for kind in extra_houses(shape, rules) for h in kind]
    out = []
    for c in range(shape.size):
        row, col, box = geo.houses_of[c][:3]
        extra = [h for h in order if h in geo.houses_of[c]]
        out.append(tuple((u, u) for u in (box, row, col, *extra)))
    return tuple(out)


class _Found:
    """A found step before sorting: Sudoku Explainer's rating (an unrounded double) and type."""

    __slots__ = ("key", "kind", "rating", "step")

    def __init__(self, rating: float, kind: int, key: tuple[object, ...], step: Step) -> None:
        self.rating = rating
        self.kind = kind
        self.key = key
        self.step = step


def find_unique_loops(state: Candidates) -> Iterator[Step]:
    """Unique rectangles and loops, types 1-4, cheapest first (Sudoku Explainer's order);
    none under killer cages (swapping the loop's digits can break a cage's sum)."""
    if state.rules.cages is not None:
        return
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
            if not _is_unique_loop(state, loop) or _restricted(state, loop, m):
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
    regions = _regions(state.shape, state.rules)
    unit_bits = _unit_bits(state.shape, state.rules)
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
def _unit_bits(shape: Shape, rules: Rules = CLASSIC) -> tuple[int, ...]:
    """Per cell, its houses as a bitset of unit indexes."""
    return tuple(sum(1 << u for _, u in houses) for houses in _regions(shape, rules))


def _restricted(state: Candidates, loop: tuple[int, ...], pair: int) -> bool:
    """SukakuExplainer's check under neighbour rules: a cell tied to a loop cell by a
    neighbour rule alone (no shared house) that may still hold either digit breaks the
    deadly pattern."""
    if state.rules.is_classic:
        return False
    geo = state.geo
    either = state.where[pair.bit_length()] | state.where[(pair & -pair).bit_length()]
    for cell in loop:
        tied = geo.peer_mask[cell]
        for _, u in _regions(state.shape, state.rules)[cell]:
            tied &= ~geo.unit_mask[u]
        if tied & either:
            return True
    return False


def _is_unique_loop(state: Candidates, loop: tuple[int, ...]) -> bool:
    """Every unit met holds exactly two loop cells, one at an even and one at an odd index."""
    regions = _regions(state.shape, state.rules)
    even = odd = 0
    for i, cell in enumerate(loop):
        for _, u in regions[cell]:
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


def houses_in_order(state: Candidates) -> tuple[tuple[int, ...], ...]:
    """Per cell, its houses in (Sukaku)Explainer's region order."""
    return tuple(tuple(u for _, u in r) for r in _regions(state.shape, state.rules))


def _shared(state: Candidates, c1: int, c2: int) -> list[int]:
    """The houses ``c1`` and ``c2`` share, in (Sukaku)Explainer's region order."""
    regions = _regions(state.shape, state.rules)
    theirs = {u for _, u in regions[c2]}
    return [u for _, u in regions[c1] if u in theirs]


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
    out: list[_Found] = []
    others = [d for d in range(1, n + 1) if d not in (v1, v2) and not rest >> (d - 1) & 1]
    for degree in range(rest.bit_count(), n - 1):
        for u1 in _shared(state, c1, c2):
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
        if state.rules.is_classic:
            elims = [(c, d + 1) for c in unit if c not in set_cells for d in bits(cand[c] & union)]
        else:
            elims = _naked_victims(state, (*others, c1, c2), union)
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


def _naked_victims(state: Candidates, cells: tuple[int, ...], digits: int) -> list[tuple[int, int]]:
    """SukakuExplainer's naked set under rules: each digit goes from every cell that sees all
    the set's cells (the pseudo-cell's two among them) holding it, in any house or by a
    neighbour rule."""
    cand, peer_mask = state.cand, state.geo.peer_mask
    out = []
    for d0 in bits(digits):
        victims = -1
        for c in cells:
            if cand[c] >> d0 & 1:
                victims &= peer_mask[c]
        out += [(c, d0 + 1) for c in bits(victims & state.where[d0 + 1])]
    return sorted(out)


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
    pair_cells = (1 << c1) | (1 << c2)
    lock1 = lock2 = -1
    for u1 in _shared(state, c1, c2):
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
