"""The candidate (pencil-mark) state the logic engine reasons on.

Terms:

- A **candidate** is a pair (cell, digit): the digit may still go in that empty cell.
- ``cand[c]`` is the set of candidates of cell ``c`` as a digit mask (bit ``d-1`` for digit
  ``d``); it is 0 for a cell that holds a value (as in Sudoku Explainer, a placed digit is not a
  candidate any more).
- ``where[d]`` is the set of cells that still have candidate ``d``, as a cell bitset (bit ``c``
  for cell ``c``, a Python int). Both views are kept in step, so questions of the form "which
  cells of this unit can take 5?" are one ``&``: ``where[5] & geo.unit_mask[u]``.
- ``empty`` is the set of empty cells, as a cell bitset.
- Placing a digit removes it from the candidates of the cell's peers (the basic rule).
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from math import isqrt

from .._grid import Grid
from .._shape import Shape
from ..errors import InvalidPuzzleError, InvalidRulesError
from ..rules import CLASSIC, Rules
from ..rules import geometry as rules_geometry

__all__ = [
    "LOGIC_RULES",
    "Candidates",
    "Geometry",
    "bits",
    "engine_geometry",
    "extra_houses",
    "geometry",
    "house_order",
    "require_logic_rules",
    "visible_order",
]

#: The rules (beyond the classic ones) the logic engine reasons under; a jigsaw's regions too.
LOGIC_RULES: frozenset[str] = frozenset({"x", "windoku", "dg", "antiknight", "antiking"})


def bits(mask: int) -> Iterator[int]:
    """The positions of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class Geometry:
    """Cell-bitset views of a shape's houses under rules, computed once (see :func:`geometry`).

    ``unit_mask[u]``: the cells of house ``u`` (rows, then columns, then boxes or jigsaw
    regions, as :attr:`Shape.units`; then the rules' extra houses, as
    :attr:`sudokit.rules.Geometry.houses`); ``peer_mask[c]``: the peers of cell ``c`` (with
    the neighbour rules' cells); ``units_of[c]``: its row, column and box (or region);
    ``all_cells``: every cell.
    """

    __slots__ = ("all_cells", "n", "peer_mask", "rules", "shape", "unit_mask", "units", "units_of")

    def __init__(self, shape: Shape, rules: Rules = CLASSIC) -> None:
        self.shape = shape
        self.rules = rules
        self.n = shape.n
        if rules.is_classic:
            self.units: tuple[tuple[int, ...], ...] = shape.units
            self.units_of: tuple[tuple[int, int, int], ...] = shape.units_of
            peers: Sequence[Iterable[int]] = shape.peers
        else:
            geo = rules_geometry(shape, rules)
            self.units = geo.houses
            # a cell's first three houses are its row, column and box (or region)
            self.units_of = tuple((h[0], h[1], h[2]) for h in geo.houses_of)
            peers = geo.peers
        self.unit_mask = tuple(sum(1 << c for c in unit) for unit in self.units)
        self.peer_mask = tuple(sum(1 << p for p in cell_peers) for cell_peers in peers)
        self.all_cells = (1 << shape.size) - 1


@lru_cache(maxsize=32)
def geometry(shape: Shape, rules: Rules = CLASSIC) -> Geometry:
    return Geometry(shape, rules)


def require_logic_rules(rules: Rules, what: str = "the logic engine") -> None:
    """Refuse, by name, rules the logic engine does not reason under (``nc``: its relation
    is not a peer relation, and SukakuExplainer rates it with techniques of its own). Killer
    cages are read: their cells are peers, and the killer techniques read their sums."""
    unknown = sorted(set(rules.extras) - LOGIC_RULES)
    if unknown:
        raise InvalidRulesError(
            f"{what} does not handle rule {', '.join(map(repr, unknown))} yet "
            f"(grid rules {str(rules)!r}); it handles "
            f"{', '.join(sorted(LOGIC_RULES))}, jigsaw and their combinations"
        )


def _implied_order(count: int, b: int) -> list[int]:
    """SukakuExplainer's order of the implied windows, as indexes into sudokit's: those in
    the gap rows (across the window bands), then in the gap columns, then the corner one."""
    across = list(range(b - 1, 2 * (b - 1)))
    down = list(range(b - 1))
    order = across + down + [2 * (b - 1)]
    return order if len(order) == count else list(range(count))


def _house_kinds(shape: Shape, rules: Rules) -> dict[str, list[int]]:
    """The rules' houses past the boxes (or regions), rows and columns, by kind: ``group``,
    ``window``, ``implied`` (the implied windows) and ``diagonal``, each in the geometry's
    order."""
    geo = rules_geometry(shape, rules)
    n = shape.n
    kinds: dict[str, list[int]] = {"group": [], "window": [], "implied": [], "diagonal": []}
    for h, name in enumerate(geo.house_names[3 * n :], start=3 * n):
        kind = name.rsplit(" ", 1)[0]
        kinds["implied" if kind == "implied window" else kind].append(h)
    return kinds


@lru_cache(maxsize=64)
def extra_houses(
    shape: Shape, rules: Rules
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The rules' extra houses by kind, in SukakuExplainer's order: the disjoint groups, the
    windows (the real ones, then the implied ones) and the two diagonals. Its techniques
    visit them in that order after the boxes (or regions), rows and columns."""
    n = shape.n
    kinds = _house_kinds(shape, rules)
    implied = kinds["implied"]
    windows = kinds["window"] + [implied[i] for i in _implied_order(len(implied), isqrt(n))]
    return tuple(kinds["group"]), tuple(windows), tuple(kinds["diagonal"])


@lru_cache(maxsize=64)
def engine_geometry(shape: Shape, rules: Rules) -> bytes | None:
    """The rules geometry as the C logic engine reads it (``geo_from_blob`` in
    ``_clogic/geometry.c``), or None for the classic rules (the engine's own tables).

    Each cell's peers are listed in :func:`visible_order`. It says which houses each
    technique visits, in SukakuExplainer's order: singles and
    hidden sets visit the boxes (or regions), columns and rows, then the disjoint groups, the
    windows (the real ones, then the implied ones) and the two diagonals; naked sets leave
    the diagonals out; intersections pair boxes with lines, then disjoint groups and windows
    with lines, boxes and each other.
    """
    if rules.is_classic:
        return None
    require_logic_rules(rules)
    geo = rules_geometry(shape, rules)
    n = shape.n
    groups, windows, diagonals = extra_houses(shape, rules)
    ints = [shape.box_rows, shape.box_cols, len(geo.houses)]
    for house in geo.houses:
        ints += house
    for cell_peers in visible_order(shape, rules):
        ints += [len(cell_peers), *cell_peers]
    scan = [*groups, *windows, *diagonals]
    ints += [len(scan), *scan]
    naked = [*groups, *windows]
    ints += [len(naked), *naked]
    box, row, col, dg, win = 0, 1, 2, 3, 4
    types = [
        (2, list(range(2 * n, 3 * n))),
        (1, list(range(n))),
        (1, list(range(n, 2 * n))),
        (0, list(groups)),
        (0, list(windows)),
    ]
    ints.append(len(types))
    for flags, houses in types:
        # an absent kind (no groups) is written with one house, the first box: never paired
        listed = houses or [2 * n]
        ints += [flags, len(listed), *listed]
    pairs = [(box, col), (box, row), (col, box), (row, box)]
    if groups:
        pairs += [(dg, col), (dg, row), (col, dg), (row, dg), (box, dg), (dg, box)]
    if windows:
        pairs += [(win, col), (win, row), (col, win), (row, win), (box, win), (win, box)]
    if groups and windows:
        pairs += [(win, dg), (dg, win)]
    ints.append(len(pairs))
    for a, b in pairs:
        ints += [a, b]
    if rules.cages is not None:
        ints += _cage_ints(shape, rules)
    return struct.pack(f"<{len(ints)}i", *ints)


# SukakuExplainer's neighbour steps, (row, column) offsets in the order it lists them:
# anti-king's four diagonal neighbours, then anti-knight's eight.
_SK_KING = ((1, 1), (-1, 1), (-1, -1), (1, -1))
_SK_KNIGHT = ((1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (-2, 1), (2, -1), (-2, -1))


def _sk_house_cells(shape: Shape, house: tuple[int, ...], name: str) -> tuple[int, ...]:
    """A house's cells in the order SukakuExplainer lists them: ascending, except the implied
    windows that span a window band's rows and the gap columns, which it lists column by
    column."""
    if not name.startswith("implied window"):
        return house
    n = shape.n
    rows = sorted({c // n for c in house})
    if rows != list(range(rows[0], rows[0] + len(rows))):
        return house  # the gap rows: listed row by row
    return tuple(sorted(house, key=lambda c: (c % n, c // n)))


@lru_cache(maxsize=32)
def visible_order(shape: Shape, rules: Rules) -> tuple[tuple[int, ...], ...]:
    """Each cell's peers under ``rules`` in SukakuExplainer's order (its visible cells): the
    row, column and box (or region) peers ascending, then those the windows add, the disjoint
    groups, the diagonals, anti-king's diagonal neighbours and anti-knight's cells, each
    without cells already listed (a killer cage's mates last, ascending). The wings search their
    pincers in it."""
    if rules.cages is not None:  # the order without the cages, then each cell's cage mates
        base = visible_order(shape, rules.without_cages)
        mates = rules_geometry(shape, rules).cage_mates
        caged: list[tuple[int, ...]] = []
        for order, mine in zip(base, mates, strict=True):
            seen = set(order)
            caged.append(order + tuple(p for p in mine if p not in seen))
        return tuple(caged)
    geo = rules_geometry(shape, rules)
    n = shape.n
    kinds = _house_kinds(shape, rules)
    extra = {
        "window": sorted(kinds["window"] + kinds["implied"]),
        "group": kinds["group"],
        "diagonal": kinds["diagonal"],
    }
    steps = (_SK_KING if "antiking" in rules.extras else ()) + (
        _SK_KNIGHT if "antiknight" in rules.extras else ()
    )
    out = []
    for c in range(shape.size):
        mine = geo.houses_of[c]
        listed = sorted({p for h in mine if h < 3 * n for p in geo.houses[h]} - {c})
        seen = set(listed) | {c}
        for kind in ("window", "group", "diagonal"):
            cells: list[int] = []
            for h in extra[kind]:
                if h in mine:
                    cells += _sk_house_cells(shape, geo.houses[h], geo.house_names[h])
            if kind == "diagonal":
                cells.sort()
            for p in cells:
                if p not in seen:
                    seen.add(p)
                    listed.append(p)
        r, col = divmod(c, n)
        for dr, dc in steps:
            if 0 <= r + dr < n and 0 <= col + dc < n:
                p = (r + dr) * n + col + dc
                if p not in seen:
                    seen.add(p)
                    listed.append(p)
        out.append(tuple(listed))
    return tuple(out)


def _cage_ints(shape: Shape, rules: Rules) -> list[int]:
    """Killer's end of the engine geometry: the cages (sum, size, cells) in the layout's
    order, then the groups of houses the rule of 45 reads: each row, column and box (or
    region); two and three adjacent rows and columns; two adjacent boxes of a band or a stack
    (not a jigsaw's regions, which have no such order); each other house of the rules."""
    cages = rules.cages
    assert cages is not None
    n = shape.n
    ints = [len(cages)]
    for cage in cages:
        ints += [cage.total, len(cage.cells), *cage.cells]
    groups: list[tuple[int, ...]] = [(u,) for u in range(3 * n)]
    for size in (2, 3):
        for first in range(n - size + 1):
            groups.append(tuple(range(first, first + size)))  # rows
        for first in range(n - size + 1):
            groups.append(tuple(range(n + first, n + first + size)))  # columns
    if rules.regions is None:
        across, down = n // shape.box_cols, n // shape.box_rows  # boxes per band, per stack
        for b in range(n):
            if b % across + 1 < across:
                groups.append((2 * n + b, 2 * n + b + 1))
            if b // across + 1 < down:
                groups.append((2 * n + b, 2 * n + b + across))
    # the rules' other houses (diagonals, windows, disjoint groups) add up to the same, singly
    groups += [(h,) for h in range(3 * n, len(rules_geometry(shape, rules).houses))]
    ints.append(len(groups))
    for group in groups:
        ints += [len(group), *group]
    return ints


@lru_cache(maxsize=32)
def house_order(shape: Shape) -> tuple[tuple[int, ...], ...]:
    """Each cell's peers in Sudoku Explainer's order: its box, then its row, then its column
    (SE's ``Cell.getHouseCells``; boxes are read row by row). Several techniques search in it.
    """
    out = []
    for cell in range(shape.size):
        row, col, box = shape.units_of[cell]
        order: list[int] = []
        for u in (box, row, col):
            order += [c for c in shape.units[u] if c != cell and c not in order]
        out.append(tuple(order))
    return tuple(out)


class Candidates:
    """A grid's values and the candidates of its empty cells; mutable, cheap to copy.

    Build it from a puzzle (candidates are every digit not seen by a peer), or from pencil
    marks a player has, with :meth:`from_masks`.

    >>> from sudokit import Grid
    >>> s = Candidates.from_grid(Grid("." * 16))
    >>> s.cand[0] == 0b1111, s.where[1] == (1 << 16) - 1
    (True, True)
    >>> s.place(0, 1)
    >>> s.cand[1], s.values[0]
    (14, 1)
    """

    __slots__ = ("cand", "empty", "geo", "n", "rules", "shape", "values", "where")

    shape: Shape
    rules: Rules
    n: int
    geo: Geometry
    values: list[int]
    cand: list[int]
    where: list[int]
    empty: int

    def __init__(
        self, shape: Shape, values: list[int], cand: list[int], rules: Rules = CLASSIC
    ) -> None:
        self.shape = shape
        self.rules = rules
        self.n = shape.n
        self.geo = geometry(shape, rules)
        self.reset(values, cand)

    def reset(self, values: list[int], cand: list[int]) -> None:
        """Make this state the position ``values`` and ``cand`` (same shape), deriving the
        rest."""
        self.values = values
        self.cand = cand
        where = [0] * (self.n + 1)
        for c, m in enumerate(cand):
            for d0 in bits(m):
                where[d0 + 1] |= 1 << c
        self.where = where
        self.empty = sum(1 << c for c, v in enumerate(values) if not v)

    @classmethod
    def from_grid(cls, grid: Grid) -> Candidates:
        rules = grid.rules
        require_logic_rules(rules)
        shape = grid.shape
        full = (1 << shape.n) - 1
        values = list(grid.cells)
        cand = [0 if v else full for v in values]
        peers = shape.peers if rules.is_classic else rules_geometry(shape, rules).peers
        for c, v in enumerate(values):
            if v:
                bit = ~(1 << (v - 1))
                for p in peers[c]:
                    cand[p] &= bit
        return cls(shape, values, cand, rules)

    @classmethod
    def from_masks(cls, grid: Grid, masks: Iterable[int]) -> Candidates:
        """A state with a player's own pencil marks: ``masks[c]`` for each empty cell ``c``.

        Marks in filled cells are ignored; marks that a peer's value rules out are dropped
        (they can never be right). Raises InvalidPuzzleError when an empty cell is left with
        no candidate.
        """
        state = cls.from_grid(grid)
        masks = list(masks)
        if len(masks) != grid.shape.size:
            raise InvalidPuzzleError(
                f"expected {grid.shape.size} candidate masks, got {len(masks)}"
            )
        cand = [
            0 if v else state.cand[c] & m
            for c, (v, m) in enumerate(zip(grid.cells, masks, strict=True))
        ]
        for c, m in enumerate(cand):
            if not grid.cells[c] and not m:
                raise InvalidPuzzleError(
                    f"cell {grid.shape.cell_name(c)} is empty and has no candidate left"
                )
        return cls(grid.shape, list(grid.cells), cand, grid.rules)

    def copy(self) -> Candidates:
        new = object.__new__(Candidates)
        new.shape = self.shape
        new.rules = self.rules
        new.n = self.n
        new.geo = self.geo
        new.values = self.values.copy()
        new.cand = self.cand.copy()
        new.where = self.where.copy()
        new.empty = self.empty
        return new

    # The two primitives every step is made of.

    def place(self, cell: int, digit: int) -> None:
        """Put ``digit`` in ``cell`` and remove it from the candidates of the cell's peers."""
        m = self.cand[cell]
        cbit = 1 << cell
        for d0 in bits(m):
            self.where[d0 + 1] &= ~cbit
        self.cand[cell] = 0
        self.values[cell] = digit
        self.empty &= ~cbit
        dbit = ~(1 << (digit - 1))
        hit = self.where[digit] & self.geo.peer_mask[cell]
        self.where[digit] &= ~hit
        for p in bits(hit):
            self.cand[p] &= dbit

    def eliminate(self, cell: int, digit: int) -> bool:
        """Remove candidate ``digit`` from ``cell``; return whether it was there."""
        bit = 1 << (digit - 1)
        if not self.cand[cell] & bit:
            return False
        self.cand[cell] &= ~bit
        self.where[digit] &= ~(1 << cell)
        return True

    # Questions.

    def is_solved(self) -> bool:
        return not self.empty

    def empty_cells(self) -> Iterator[int]:
        return (c for c, v in enumerate(self.values) if not v)

    def is_broken(self) -> bool:
        """True when an empty cell has no candidate, or a unit has lost a digit entirely."""
        if any(not v and not m for v, m in zip(self.values, self.cand, strict=True)):
            return True
        for unit in self.geo.units:
            present = 0
            for c in unit:
                present |= self.cand[c] | (1 << (self.values[c] - 1) if self.values[c] else 0)
            if present != (1 << self.n) - 1:
                return True
        return False

    def to_grid(self) -> Grid:
        return Grid.unchecked(self.shape, bytes(self.values), rules=self.rules)

    def masks(self) -> list[int]:
        """Candidates per cell, with a filled cell shown as its value's bit (pencil-mark form)."""
        return [(1 << (v - 1)) if v else m for v, m in zip(self.values, self.cand, strict=True)]

    def __repr__(self) -> str:
        count = sum(map(int.bit_count, self.cand))
        return f"<Candidates {self.to_grid().to_line()} ({count} candidates)>"
