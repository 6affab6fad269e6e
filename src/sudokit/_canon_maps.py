"""The geometric maps that keep a rule set, found line by line: what
:mod:`sudokit.canon` searches its canonical forms over when rules keep only part of the
Sudoku group.

Terms (as in :mod:`sudokit.canon`): a map moves the rows (and, likewise, the columns) by an
**order** of the lines, whole bands or stacks at a time and lines only inside theirs; the
order ``o`` puts source line ``o[k]`` at place ``k``. Each rule puts a relation on the lines
of an axis that every map keeping the rule keeps (docs/canon.md derives them); killer cages
add one more condition: each cage's lines must stay **contiguous** (a connected cage covers
an unbroken run of rows and of columns, so its image can only be a cage when its lines still
do). :func:`line_orders` lists the orders that keep all of that; the maps made of them are
then checked exactly.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter
from typing import Any

from ._shape import Shape
from .cages import Cage, Cages, reached
from .rules import Geometry, Rules, geometry

__all__ = [
    "MOST_LINE_ORDERS",
    "MOST_MAPS",
    "Group",
    "TooManyMaps",
    "cage_group",
    "keeps",
    "keeps_cages",
    "line_label",
    "line_orders",
    "moved_cages",
    "rules_group",
    "sources_of",
    "structure",
]


class TooManyMaps(ValueError):
    """More orders of lines than the search lists: a canonical form beyond its bound."""


def line_label(rule: str, i: int, j: int, n: int, block: int) -> object:
    """What a geometric map must keep about lines ``i`` and ``j`` of an axis of ``n`` lines in
    blocks of ``block`` (a necessary condition of keeping ``rule``)."""
    if rule == "x":
        return i + j == n - 1  # mirror pairs go to mirror pairs
    if rule == "windoku":
        b = math.isqrt(n)

        def group(k: int) -> int:
            return -1 if k % (b + 1) == 0 else k // (b + 1)

        return group(i) == group(j)
    if rule == "dg":
        return i % block == j % block
    if rule == "antiknight":
        return abs(i - j) in (1, 2)
    return abs(i - j) == 1  # antiking, nc, jigsaw's layout: neighbours stay neighbours


def line_orders(
    n: int,
    block: int,
    rules: tuple[str, ...],
    runs: Sequence[frozenset[int]] = (),
    most: int | None = None,
) -> list[tuple[int, ...]]:
    """Every order of ``n`` lines in blocks of ``block`` (whole blocks moved, lines only inside
    theirs) that keeps the relation each of ``rules`` puts on lines and leaves each set of
    lines in ``runs`` contiguous (an unbroken run of places). Raises :class:`TooManyMaps`
    when there are more than ``most``."""
    labels = [
        [
            (i // block == j // block, *(line_label(r, i, j, n, block) for r in rules))
            for j in range(n)
        ]
        for i in range(n)
    ]
    kept = [run for run in set(runs) if len(run) > 1]
    runs_of: list[list[int]] = [[k for k, run in enumerate(kept) if i in run] for i in range(n)]
    placed = [0] * len(kept)
    out: list[tuple[int, ...]] = []
    order: list[int] = []
    used = [False] * n

    def fits(src: int) -> bool:
        """Whether ``src`` may take the next place and every run stays contiguous: a run
        that has begun goes on from the place before, and one that ends there is whole."""
        before = order[-1] if order else -1
        for k in runs_of[src]:
            if placed[k] and before not in kept[k]:
                return False
        if before >= 0:
            for k in runs_of[before]:
                if src not in kept[k] and placed[k] < len(kept[k]):
                    return False
        return True

    def place(k: int) -> None:
        if k == n:
            out.append(tuple(order))
            if most is not None and len(out) > most:
                raise TooManyMaps(f"more than {most} orders of the lines")
            return
        for src in range(n):
            if used[src] or labels[src][src] != labels[k][k]:
                continue
            if any(labels[order[j]][src] != labels[j][k] for j in range(k)):
                continue
            if kept and not fits(src):
                continue
            used[src] = True
            order.append(src)
            for r in runs_of[src]:
                placed[r] += 1
            place(k + 1)
            for r in runs_of[src]:
                placed[r] -= 1
            order.pop()
            used[src] = False

    place(0)
    return out


def sources_of(
    n: int, transpose: bool, rows: tuple[int, ...], cols: tuple[int, ...]
) -> tuple[int, ...]:
    """For each cell of the image, the cell it comes from (transposed first, when asked)."""
    if transpose:
        return tuple(c * n + r for r in rows for c in cols)
    return tuple(r * n + c for r in rows for c in cols)


def structure(geo: Geometry) -> tuple[frozenset[frozenset[int]], ...]:
    """What a map must keep of ``geo``: its houses (a jigsaw's regions aside: they move with
    the clues), its neighbour pairs, its related pairs."""
    n = geo.n
    jigsaw = geo.rules.regions is not None
    houses = frozenset(
        frozenset(h) for k, h in enumerate(geo.houses) if not (jigsaw and 2 * n <= k < 3 * n)
    )
    neighbours = frozenset(frozenset((c, p)) for c in range(geo.size) for p in geo.neighbours[c])
    related = frozenset(frozenset((c, p)) for c in range(geo.size) for p in geo.related[c])
    return houses, neighbours, related


def keeps(structure: tuple[frozenset[frozenset[int]], ...], sources: tuple[int, ...]) -> bool:
    """Whether the map taking cell ``sources[k]`` to cell ``k`` keeps ``structure``."""
    dest = _destinations(sources)
    return all(frozenset(dest[c] for c in part) in kind for kind in structure for part in kind)


def _destinations(sources: Sequence[int]) -> list[int]:
    """Where the map taking cell ``sources[k]`` to cell ``k`` takes each cell."""
    dest = [0] * len(sources)
    for k, s in enumerate(sources):
        dest[s] = k
    return dest


def _square_maps(orders: list[tuple[int, ...]], n: int) -> list[tuple[int, ...]]:
    """Of ``orders``, those of the eight maps of the square (the identity and the mirror):
    what a jigsaw's layout, moving with the clues, leaves to try."""
    keep = (tuple(range(n)), tuple(range(n - 1, -1, -1)))
    return [o for o in orders if o in keep]


@dataclass(frozen=True, slots=True)
class Group:
    """The geometric part of the group that keeps one rule set on one shape, and its digit
    maps: every relabelling (``relabel``) or, under ``nc``, only identity and reversal."""

    elements: tuple[tuple[bool, tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]
    members: frozenset[tuple[bool, tuple[int, ...], tuple[int, ...]]]
    relabel: bool
    #: For each element, what takes a grid's cells to the image's (made once).
    getters: tuple[itemgetter[Any], ...] = ()


#: The most orders of rows (or columns) the search of a killer's maps lists (see cage_group).
MOST_LINE_ORDERS = 20_000
#: The most maps (pairs of line orders) the search of a killer's maps checks, each way round.
MOST_MAPS = 50_000


@lru_cache(maxsize=128)
def cage_group(shape: Shape, rules: Rules) -> Group:
    """The maps a killer grid's canonical form is searched over: the geometric maps that keep
    the rules' other parts (as :func:`rules_group` finds them, a jigsaw's layout moving with the
    clues) and take every cage onto a cage (connected cells): its cage layout moves with the
    cells. No relabelling: the sums would change. A connected cage covers an unbroken run of
    rows and of columns, so only the line orders that keep each cage's runs contiguous are
    tried, and each of their maps is checked exactly. ValueError beyond MOST_MAPS maps or
    MOST_LINE_ORDERS orders (a layout of few, small cages that most maps keep)."""
    cages = rules.cages
    assert cages is not None
    n = shape.n
    extras, jigsaw = rules.extras, rules.regions is not None
    square = shape.box_rows == shape.box_cols
    line_rules = (*extras, "jigsaw") if jigsaw else extras
    rows_of = [frozenset(c // n for c in cage.cells) for cage in cages]
    cols_of = [frozenset(c % n for c in cage.cells) for cage in cages]
    base = None if not line_rules else rules_group(shape, extras, jigsaw).members
    elements = []
    for transpose in (False, True) if square else (False,):
        # the image's rows come from the source's columns when transposed
        runs_r, runs_c = (cols_of, rows_of) if transpose else (rows_of, cols_of)
        try:
            rows = line_orders(n, shape.box_rows, line_rules, runs_r, MOST_LINE_ORDERS)
            cols = line_orders(n, shape.box_cols, line_rules, runs_c, MOST_LINE_ORDERS)
        except TooManyMaps:
            raise ValueError(
                f"no canonical form for these killer cages ({len(cages)} cages): more than "
                f"{MOST_LINE_ORDERS} orders of lines keep them, beyond the search's bound"
            ) from None
        if jigsaw:
            rows, cols = _square_maps(rows, n), _square_maps(cols, n)
        tried = len(rows) * (2 if "x" in extras else len(cols))
        if tried > MOST_MAPS:
            raise ValueError(
                f"no canonical form for these killer cages ({len(cages)} cages): {tried} maps "
                f"keep their lines together, more than the search's bound of {MOST_MAPS}"
            )
        for ro, co in line_pairs(rows, cols, "x" in extras):
            if base is not None and (transpose, ro, co) not in base:
                continue
            src = sources_of(n, transpose, ro, co)
            if keeps_cages(cages, src):
                elements.append((transpose, ro, co, src))
    return group_of(elements, False)


def keeps_cages(cages: Cages, sources: tuple[int, ...]) -> bool:
    """Whether the map taking cell ``sources[k]`` to cell ``k`` takes every cage onto
    connected cells."""
    n = cages.n
    dest = _destinations(sources)
    for cage in cages:
        if len(cage.cells) < 2:
            continue
        image = {dest[c] for c in cage.cells}
        if len(reached(dest[cage.cells[0]], image, n)) != len(image):
            return False
    return True


def moved_cages(cages: Cages, sources: Sequence[int]) -> Cages:
    """``cages`` after the map taking cell ``sources[k]`` to cell ``k``."""
    dest = _destinations(sources)
    return Cages(cages.n, (Cage(tuple(dest[c] for c in cage.cells), cage.total) for cage in cages))


@lru_cache(maxsize=128)
def rules_group(shape: Shape, extras: tuple[str, ...], jigsaw: bool) -> Group:
    """The stabiliser of ``extras`` (and, for a jigsaw, of nothing more: its layout moves with
    the clues, so only the eight maps of the square are used) in the Sudoku group of ``shape``."""
    n = shape.n
    square = shape.box_rows == shape.box_cols
    line_rules = (*extras, "jigsaw") if jigsaw else extras
    rows = line_orders(n, shape.box_rows, line_rules)
    cols = line_orders(n, shape.box_cols, line_rules)
    if jigsaw:  # the eight maps of the square (those of them that keep the bands)
        rows, cols = _square_maps(rows, n), _square_maps(cols, n)
    # any layout will do for a jigsaw's check: its regions are left out of it
    layout = tuple(c // n for c in range(n * n)) if jigsaw else None
    rules = Rules.of(extras, regions=layout)
    kept = structure(geometry(shape, rules))
    elements = []
    for transpose in (False, True) if square else (False,):
        for ro, co in line_pairs(rows, cols, "x" in extras):
            src = sources_of(n, transpose, ro, co)
            if keeps(kept, src):
                elements.append((transpose, ro, co, src))
    return group_of(elements, "nc" not in extras)


def line_pairs(
    rows: list[tuple[int, ...]], cols: list[tuple[int, ...]], x: bool
) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The (row order, column order) pairs to try: every pair, or under ``x`` (the diagonals
    kept) each row order with the column order equal to it or mirrored (docs/canon.md)."""
    col_set = set(cols)
    for ro in rows:
        if x:
            mirrored = tuple(len(ro) - 1 - i for i in ro)
            yield from ((ro, co) for co in (ro, mirrored) if co in col_set)
        else:
            yield from ((ro, co) for co in cols)


def group_of(
    elements: list[tuple[bool, tuple[int, ...], tuple[int, ...], tuple[int, ...]]], relabel: bool
) -> Group:
    """The :class:`Group` of ``elements`` (transpose, row order, column order, sources)."""
    members = frozenset((t, r, c) for t, r, c, _ in elements)
    getters = tuple(itemgetter(*src) for _t, _r, _c, src in elements)
    return Group(tuple(elements), members, relabel, getters)
