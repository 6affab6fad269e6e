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

from collections.abc import Iterable, Iterator
from functools import lru_cache

from .._grid import Grid, require_classic
from .._shape import Shape
from ..errors import InvalidPuzzleError

__all__ = ["Candidates", "Geometry", "bits", "geometry", "house_order"]


def bits(mask: int) -> Iterator[int]:
    """The positions of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class Geometry:
    """Cell-bitset views of a shape's units, computed once per shape (see :func:`geometry`).

    ``unit_mask[u]``: the cells of unit ``u`` (rows, then columns, then boxes, as
    :attr:`Shape.units`); ``peer_mask[c]``: the peers of cell ``c``; ``units_of[c]``: its row,
    column and box; ``all_cells``: every cell.
    """

    __slots__ = ("all_cells", "n", "peer_mask", "shape", "unit_mask", "units", "units_of")

    def __init__(self, shape: Shape) -> None:
        self.shape = shape
        self.n = shape.n
        self.units = shape.units
        self.units_of = shape.units_of
        self.unit_mask = tuple(sum(1 << c for c in unit) for unit in shape.units)
        self.peer_mask = tuple(sum(1 << p for p in peers) for peers in shape.peers)
        self.all_cells = (1 << shape.size) - 1


@lru_cache(maxsize=32)
def geometry(shape: Shape) -> Geometry:
    return Geometry(shape)


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

    __slots__ = ("cand", "empty", "geo", "n", "shape", "values", "where")

    shape: Shape
    n: int
    geo: Geometry
    values: list[int]
    cand: list[int]
    where: list[int]
    empty: int

    def __init__(self, shape: Shape, values: list[int], cand: list[int]) -> None:
        self.shape = shape
        self.n = shape.n
        self.geo = geometry(shape)
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
        require_classic(grid, "the logic engine")
        shape = grid.shape
        full = (1 << shape.n) - 1
        values = list(grid.cells)
        cand = [0 if v else full for v in values]
        peers = shape.peers
        for c, v in enumerate(values):
            if v:
                bit = ~(1 << (v - 1))
                for p in peers[c]:
                    cand[p] &= bit
        return cls(shape, values, cand)

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
        return cls(grid.shape, list(grid.cells), cand)

    def copy(self) -> Candidates:
        new = object.__new__(Candidates)
        new.shape = self.shape
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
        return Grid.unchecked(self.shape, bytes(self.values))

    def masks(self) -> list[int]:
        """Candidates per cell, with a filled cell shown as its value's bit (pencil-mark form)."""
        return [(1 << (v - 1)) if v else m for v, m in zip(self.values, self.cand, strict=True)]

    def __repr__(self) -> str:
        count = sum(map(int.bit_count, self.cand))
        return f"<Candidates {self.to_grid().to_line()} ({count} candidates)>"
