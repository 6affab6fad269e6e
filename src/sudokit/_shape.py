"""Grid geometry.

Terms used throughout sudokit:

- A **shape** is ``box_rows x box_cols``: boxes of ``box_rows`` rows and ``box_cols`` columns.
  The grid's side is ``n = box_rows * box_cols``; there are ``n`` rows, ``n`` columns and ``n``
  boxes, and ``n * n`` cells. ``2x3`` boxes are two rows tall and three columns wide, giving a
  6x6 grid whose boxes are stacked three high and two wide.
- A **cell** is an index ``0 .. n*n - 1`` in row-major order; ``r5c3`` (1-based) names a cell
  only in text meant for people.
- A **unit** is a row, a column or a box: a tuple of ``n`` cells. Units are listed rows first
  (``0 .. n-1``), then columns (``n .. 2n-1``), then boxes (``2n .. 3n-1``, row-major).
- The **peers** of a cell are the other cells that share a unit with it.
"""

from __future__ import annotations

import math
import re
from functools import cached_property

from . import _engine
from .errors import InvalidShapeError

__all__ = ["MAX_SIDE", "Shape", "cell_name"]

#: The largest grid side sudokit supports: one definition, in the C header ``_limits.h``
#: that every extension includes, exported by the engine. It is what is tested to work in
#: reasonable time (random grids, generated unique puzzles), not what 64-bit masks could hold.
MAX_SIDE: int = _engine.MAX_SIDE

_SHAPE_TEXT = re.compile(r"\s*(\d+)\s*[x×X*]\s*(\d+)\s*")


def cell_name(cell: int, n: int) -> str:
    """Return the 1-based ``r5c3`` name of ``cell`` in a grid of side ``n``.

    >>> cell_name(0, 9), cell_name(80, 9)
    ('r1c1', 'r9c9')
    """
    return f"r{cell // n + 1}c{cell % n + 1}"


class Shape:
    """The geometry of a grid of ``box_rows x box_cols`` boxes.

    >>> s = Shape(3, 3)
    >>> s.n, s.size, len(s.units), len(s.peers[0])
    (9, 81, 27, 20)
    >>> Shape.parse("2x3")
    Shape(2, 3)
    """

    __slots__ = ("__dict__", "box_cols", "box_rows", "n", "size")

    box_rows: int
    box_cols: int
    n: int
    size: int

    def __init__(self, box_rows: int, box_cols: int) -> None:
        if not isinstance(box_rows, int) or not isinstance(box_cols, int):
            raise InvalidShapeError(f"box sides must be integers, got {box_rows!r}x{box_cols!r}")
        if box_rows < 1 or box_cols < 1 or box_rows * box_cols < 4:
            raise InvalidShapeError(
                f"invalid shape {box_rows}x{box_cols}: boxes need at least 4 cells "
                "(the smallest grid is 2x2 boxes, 4x4 cells)"
            )
        if box_rows == 1 or box_cols == 1:
            raise InvalidShapeError(
                f"invalid shape {box_rows}x{box_cols}: a box one cell thick would equal a "
                "row or a column"
            )
        if box_rows * box_cols > MAX_SIDE:
            raise InvalidShapeError(
                f"invalid shape {box_rows}x{box_cols}: side {box_rows * box_cols} is over "
                f"the maximum of {MAX_SIDE}"
            )
        self.box_rows = box_rows
        self.box_cols = box_cols
        self.n = box_rows * box_cols
        self.size = self.n * self.n

    @classmethod
    def parse(cls, text: str) -> Shape:
        """Read ``"3x3"`` (also ``3×3``, ``3X3``, ``3*3``) or a bare side ``"9"`` (square boxes)."""
        m = _SHAPE_TEXT.fullmatch(text)
        if m:
            return cls(int(m.group(1)), int(m.group(2)))
        side = text.strip()
        if side.isascii() and side.isdigit():  # ("²".isdigit() too, but int() refuses it)
            return cls.square(int(side))
        raise InvalidShapeError(
            f"invalid shape {text!r}: expected box rows x box columns, e.g. '3x3'"
        )

    @classmethod
    def of(cls, value: Shape | str) -> Shape:
        """``value`` as a shape: a :class:`Shape` as it is, text as :meth:`parse` reads it
        (``"2x3"``, or a side ``"9"``); TypeError for anything else. What every function
        of sudokit that takes a shape does with it.

        >>> Shape.of("2x3"), Shape.of(Shape(3, 3))
        (Shape(2, 3), Shape(3, 3))
        """
        if isinstance(value, Shape):
            return value
        if isinstance(value, str):
            return cls.parse(value)
        raise TypeError(
            f"expected a shape: a Shape or its text, e.g. '3x3' or '2x3', got "
            f"{type(value).__name__} {value!r:.40}"
        )

    @classmethod
    def square(cls, n: int) -> Shape:
        """The shape with square boxes of side ``n`` (which must be a perfect square)."""
        root = math.isqrt(n)
        if root * root != n:
            raise InvalidShapeError(
                f"side {n} has no square boxes; give the box shape explicitly, e.g. '2x3'"
            )
        return cls(root, root)

    @classmethod
    def from_size(cls, size: int) -> Shape:
        """Infer the shape from a cell count where that is unambiguous (square boxes).

        >>> Shape.from_size(81), Shape.from_size(256)
        (Shape(3, 3), Shape(4, 4))
        """
        n = math.isqrt(size)
        if n * n != size:
            raise InvalidShapeError(f"{size} cells is not a square grid")
        return cls.square(n)

    def __repr__(self) -> str:
        return f"Shape({self.box_rows}, {self.box_cols})"

    def __str__(self) -> str:
        return f"{self.box_rows}x{self.box_cols}"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Shape):
            return NotImplemented
        return self.box_rows == other.box_rows and self.box_cols == other.box_cols

    def __hash__(self) -> int:
        return hash((self.box_rows, self.box_cols))

    def __reduce__(self) -> tuple[type[Shape], tuple[int, int]]:
        return (Shape, (self.box_rows, self.box_cols))

    # Geometry, derived once per shape and cached on the instance.

    def row_of(self, cell: int) -> int:
        return cell // self.n

    def col_of(self, cell: int) -> int:
        return cell % self.n

    def box_of(self, cell: int) -> int:
        r, c = divmod(cell, self.n)
        return (r // self.box_rows) * (self.n // self.box_cols) + c // self.box_cols

    def cell_name(self, cell: int) -> str:
        return cell_name(cell, self.n)

    @cached_property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        n = self.n
        return tuple(tuple(range(r * n, r * n + n)) for r in range(n))

    @cached_property
    def cols(self) -> tuple[tuple[int, ...], ...]:
        n = self.n
        return tuple(tuple(range(c, n * n, n)) for c in range(n))

    @cached_property
    def boxes(self) -> tuple[tuple[int, ...], ...]:
        n, br, bc = self.n, self.box_rows, self.box_cols
        boxes = []
        for top in range(0, n, br):
            for left in range(0, n, bc):
                boxes.append(tuple((top + i) * n + left + j for i in range(br) for j in range(bc)))
        return tuple(boxes)

    @cached_property
    def units(self) -> tuple[tuple[int, ...], ...]:
        """Rows, then columns, then boxes."""
        return self.rows + self.cols + self.boxes

    @cached_property
    def units_of(self) -> tuple[tuple[int, int, int], ...]:
        """For each cell, the indexes into :attr:`units` of its row, column and box."""
        n = self.n
        return tuple(
            (self.row_of(c), n + self.col_of(c), 2 * n + self.box_of(c)) for c in range(self.size)
        )

    @cached_property
    def peers(self) -> tuple[frozenset[int], ...]:
        units = self.units
        return tuple(
            frozenset(p for u in self.units_of[c] for p in units[u]) - {c} for c in range(self.size)
        )

    def unit_name(self, unit: int) -> str:
        """``row 3``, ``column 5`` or ``box 7`` (1-based) for a unit index."""
        kind, i = divmod(unit, self.n)
        return f"{('row', 'column', 'box')[kind]} {i + 1}"
