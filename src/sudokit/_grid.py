"""The grid value type.

A **grid** is a :class:`~sudokit.Shape` plus one value per cell: a digit ``1..n`` or ``0`` for
an empty cell, stored row-major in ``bytes`` of length ``n*n`` (the form the exact engine
takes). A **puzzle** is a grid with some cells filled, its **clues**; a **solution** is a
complete grid. Two equal digits in one unit are a **conflict**: grids refuse them unless asked
(``allow_conflicts=True``); a grid without conflicts may still have no solution.

A grid may carry **rules** (:mod:`sudokit.rules`) beyond the classic ones: ``Grid(text,
rules="x")``. Such a grid is an instance of a subclass made once per rules value, which holds
them as a class attribute: the instance keeps the classic grid's two slots, so classic grids
pay nothing (no third slot, no ``__new__``; the engine's batch paths read exactly
``Grid``'s), and a grid takes its rules by a change of class. Layers that do not read rules
yet refuse such a grid by name (:func:`require_classic`).

Text forms live in :mod:`sudokit.formats`, imported lazily here so that it may import this
module.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import combinations
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Self, cast

from . import _engine
from ._shape import Shape, cell_name
from .errors import InvalidPuzzleError, InvalidRulesError

if TYPE_CHECKING:
    from .rules import Rules

__all__ = ["Grid"]


def as_rules(rules: Rules | str | None) -> Rules | None:
    """``rules`` as a value, or None for classic rules (which grids do not store)."""
    if rules is None:
        return None
    from .rules import Rules

    if isinstance(rules, str):
        rules = Rules(rules)
    elif not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules or its text, not {type(rules).__name__}")
    return None if rules.is_classic else rules


def rules_conflicts(shape: Shape, rules: Rules, cells: bytes) -> list[str]:
    """Every way the filled cells break ``rules`` (one sentence each, naming the cells and the
    house or rule), in cell order."""
    from .rules import geometry

    filled = [c for c, v in enumerate(cells) if v]
    if not filled:  # (a killer has none, as a rule)
        return []
    geo = geometry(shape, rules)
    n = shape.n
    out = []
    for c in filled:
        v = cells[c]
        for h in geo.houses_of[c]:
            for p in geo.houses[h]:
                if p > c and cells[p] == v:
                    out.append(
                        f"conflicting clues: digit {v} at {cell_name(c, n)} and "
                        f"{cell_name(p, n)} ({geo.house_names[h]})"
                    )
        for p in geo.neighbours[c]:
            shared = any(p in geo.houses[h] for h in geo.houses_of[c])  # reported above
            if p > c and cells[p] == v and not shared:
                dr, dc = abs(p // n - c // n), abs(p % n - c % n)
                rule = "antiking" if dr == dc == 1 else "antiknight"
                out.append(
                    f"conflicting clues: digit {v} at {cell_name(c, n)} and "
                    f"{cell_name(p, n)} ({rule})"
                )
        for q in geo.related[c]:
            if q > c and cells[q] and abs(cells[q] - v) == 1:
                out.append(
                    f"conflicting clues: consecutive digits {v} at {cell_name(c, n)} and "
                    f"{cells[q]} at {cell_name(q, n)} (nc)"
                )
    if rules.cages is not None:
        out += [f"conflicting clues: {why}" for why in rules.cages.given_conflicts(cells)]
    return out


def rules_blob(grid: Grid) -> bytes | None:
    """The engine's form of a grid's rules (:attr:`sudokit.rules.Geometry.blob`), or None for
    classic rules: what the exact engine's calls pass as ``geometry``."""
    if type(grid) is Grid:
        return None
    rules = grid.rules
    if rules.is_classic:
        return None
    from .rules import geometry

    return geometry(grid.shape, rules).blob


def require_classic(grid: Grid, what: str) -> None:
    """Refuse a grid with rules beyond the classic ones where ``what`` (a layer of sudokit
    that does not read rules yet) would silently treat it as classic."""
    if type(grid) is not Grid and not grid.rules.is_classic:
        raise InvalidRulesError(
            f"{what} handles classic rules only; this grid has rules {str(grid.rules)!r}"
        )


@lru_cache(maxsize=64)
def _unit_keys(shape: Shape) -> tuple[tuple[int, int, int], ...]:
    """Per cell, ``65 * unit`` for its row, column and box: ``key + digit`` names a placement."""
    return tuple((65 * r, 65 * c, 65 * b) for r, c, b in shape.units_of)


def _has_conflict(shape: Shape, cells: bytes) -> bool:
    """Whether two filled cells of a unit hold the same digit (every placement key distinct?)."""
    keys = _unit_keys(shape)
    seen: set[int] = set()
    add = seen.add
    placed = 0
    for cell, digit in enumerate(cells):
        if digit:
            row, col, box = keys[cell]
            add(row + digit)
            add(col + digit)
            add(box + digit)
            placed += 3
    return len(seen) != placed


def _conflicts(houses: Sequence[Sequence[int]], cells: bytes) -> list[tuple[int, int, int]]:
    """Every ``(cell, other cell, house)`` of ``houses`` whose two cells hold one digit."""
    out: list[tuple[int, int, int]] = []
    for h, house in enumerate(houses):
        seen: dict[int, list[int]] = {}
        for c in house:
            if cells[c]:
                seen.setdefault(cells[c], []).append(c)
        for group in seen.values():
            out.extend((a, b, h) for a, b in combinations(sorted(group), 2))
    return out


def conflict_reason(shape: Shape, cells: bytes) -> str | None:
    """Describe the first conflict of ``cells`` (both cells and their unit), or ``None``."""
    if not _has_conflict(shape, cells):
        return None
    a, b, unit = _conflicts(shape.units, cells)[0]
    return (
        f"conflicting clues: digit {cells[a]} at {shape.cell_name(a)} and "
        f"{shape.cell_name(b)} ({shape.unit_name(unit)})"
    )


def batch_shape(grids: Sequence[Grid]) -> Shape:
    """The one shape of a non-empty batch of grids sent to C in one call; ValueError naming
    the first grid of another shape, TypeError for what is not a grid."""
    if isinstance(grids, Grid):
        raise TypeError("expected a sequence of grids, got one Grid")
    # The common case in two passes that run in C: every item a Grid, all with one Shape
    # object; anything else takes the loops below, which name the offending grid.
    kinds = set(map(type, grids))
    if kinds == {Grid} and len(set(map(id, map(_SHAPE_OF, grids)))) == 1:
        return grids[0].shape
    for i, g in enumerate(grids):
        if not isinstance(g, Grid):
            raise TypeError(f"grid {i} of the batch is a {type(g).__name__}, not a Grid")
    shape = grids[0].shape
    for i, g in enumerate(grids):
        if g.shape != shape:
            raise ValueError(
                "every grid of a batch must have one shape: "
                f"grid 0 is {shape}, grid {i} is {g.shape}"
            )
    if kinds != {Grid}:  # some grid has rules (plain grids have classic ones)
        rules = grids[0].rules
        for i, g in enumerate(grids):
            if g.rules != rules:
                raise ValueError(
                    "every grid of a batch must have the same rules: "
                    f"grid 0 has {str(rules)!r}, grid {i} has {str(g.rules)!r}"
                )
    return shape


def grids_of(values: Iterable[Grid | str]) -> Sequence[Grid]:
    """A batch of puzzles as grids, each a :class:`Grid` or its text (:meth:`Grid.of`): what
    the functions that take many puzzles do with them. A lone grid or text is refused
    (TypeError), not read as a sequence of cells or characters; so is an item of another
    type, named by its position."""
    if isinstance(values, Grid | str):
        raise TypeError(
            f"expected several puzzles (a list of Grids or texts), got one {type(values).__name__}"
        )
    if isinstance(values, Sequence) and set(map(type, values)) <= {Grid}:  # the common case
        return cast(Sequence[Grid], values)
    out = []
    for i, value in enumerate(values):
        if not isinstance(value, Grid | str):
            raise TypeError(
                f"grid {i} of the batch is a {type(value).__name__}, not a Grid or a puzzle's text"
            )
        out.append(Grid.of(value))
    return out


def _is_value(value: object, n: int) -> bool:
    return type(value) is int and 0 <= value <= n


def _restore(shape: Shape, cells: bytes, rules: Rules | None = None) -> Grid:
    """Unpickle a grid (pickles come from :meth:`Grid.__reduce__`, so no checks)."""
    return Grid.unchecked(shape, cells, rules=rules)


class Grid:
    """An immutable grid: a shape and ``cells``, one byte per cell (0 = empty).

    Build one from text (any form :func:`sudokit.formats.parse_grid` reads), from cell values
    with :meth:`from_cells`, or empty with :meth:`empty`.

    >>> g = Grid("1.3. ..12 .... 4..3")
    >>> g.shape, g.clue_count, g[2], g.empty_cells()[:3]
    (Shape(2, 2), 6, 3, [1, 3, 4])
    >>> g
    Grid('1.3...12....4..3')
    >>> g.with_digit(1, 2).to_line()
    '123...12....4..3'
    """

    __slots__ = ("_cells", "_shape")

    _shape: Shape
    _cells: bytes

    def __init__(
        self,
        text: str,
        *,
        shape: Shape | str | None = None,
        alphabet: str | None = None,
        allow_conflicts: bool = False,
        rules: Rules | str | None = None,
    ) -> None:
        from . import formats

        if not isinstance(text, str):
            raise TypeError(
                f"Grid() takes the text of a puzzle, not {type(text).__name__}; "
                "for cell values use Grid.from_cells(cells, shape)"
            )
        # the rules given, else those the text states, decide what conflicts
        sh, cells, value = formats.checked_parts(text, shape, alphabet, allow_conflicts, rules)
        if value is not None:
            self.__class__ = _grid_class(value)
        self._shape = sh
        self._cells = cells

    @classmethod
    def of(cls, value: Grid | str, *, shape: Shape | str | None = None) -> Grid:
        """``value`` as a grid: a :class:`Grid` as it is, text as ``Grid(text, shape=shape)``
        reads it (the forms the command line reads; ``shape`` as :meth:`Shape.of` takes it,
        needed only where the cell count leaves it open); TypeError for anything else. What
        every function of sudokit that takes a puzzle does with it.

        >>> Grid.of("1.3. ..12 .... 4..3").clue_count
        6
        """
        if isinstance(value, Grid):
            if shape is not None and value.shape != Shape.of(shape):
                raise InvalidPuzzleError(
                    f"the grid is {value.shape}, not the shape {Shape.of(shape)} given"
                )
            return value
        if isinstance(value, str):
            return Grid(value, shape=shape)
        raise TypeError(
            f"expected a puzzle: a Grid or its text (e.g. an 81-character line), got "
            f"{type(value).__name__} {value!r:.40}"
        )

    @classmethod
    def unchecked(cls, shape: Shape, cells: bytes, *, rules: Rules | None = None) -> Self:
        """A grid from cell values already known to be valid (the engine's solutions, a
        parser's checked output): no checks at all, so only for values that came from
        sudokit itself; anything else goes through ``Grid(text)`` or :meth:`from_cells`."""
        kind = cls if rules is None or rules.is_classic else _grid_class(rules)
        grid = object.__new__(kind)
        grid._shape = shape
        grid._cells = cells
        return grid  # type: ignore[return-value]  # a Grid with rules, where cls is Grid

    @classmethod
    def unchecked_many(cls, shape: Shape, cells: bytes) -> list[Self]:
        """:meth:`unchecked` for many grids of ``shape`` whose cells come back to back in
        ``cells`` (an engine batch's solutions), made in one loop in C."""
        return _engine.grids(cls, shape, cells, shape.size)

    @classmethod
    def from_cells(
        cls,
        cells: bytes | Sequence[int],
        shape: Shape | str,
        *,
        allow_conflicts: bool = False,
        rules: Rules | str | None = None,
    ) -> Self:
        """A grid from ``n*n`` cell values (digits ``1..n``, ``0`` = empty), row-major.

        >>> Grid.from_cells([1, 2, 0, 0] + [0] * 12, Shape(2, 2))
        Grid('12..............')
        """
        if isinstance(cells, str):
            raise TypeError("from_cells takes bytes or ints; read text with Grid(text)")
        shape = Shape.of(shape)
        n = shape.n
        if len(cells) != shape.size:
            raise InvalidPuzzleError(f"expected {shape.size} cells, got {len(cells)}")
        if isinstance(cells, bytes | bytearray):
            data = bytes(cells)
            bad = max(data, default=0) > n
        else:
            bad = not all(type(v) is int and 0 <= v <= n for v in cells)
            data = b"" if bad else bytes(cells)
        if bad:
            cell, value = next((c, v) for c, v in enumerate(cells) if not _is_value(v, n))
            raise InvalidPuzzleError(
                f"{cell_name(cell, n)} holds {value!r:.40}, expected a digit 0-{n} (0 = empty)"
            )
        kept = as_rules(rules)
        if kept is not None:
            _check_rules(shape, kept, data, allow_conflicts)
            return cls.unchecked(shape, data, rules=kept)
        if not allow_conflicts:
            reason = conflict_reason(shape, data)
            if reason is not None:
                raise InvalidPuzzleError(reason)
        return cls.unchecked(shape, data)

    @classmethod
    def empty(cls, shape: Shape | str, *, rules: Rules | str | None = None) -> Self:
        """The grid of ``shape`` (a Shape, or its text such as ``"2x3"``) with every cell
        empty."""
        shape = Shape.of(shape)
        value = as_rules(rules)
        if value is not None:
            _check_rules(shape, value, bytes(shape.size), True)
        return cls.unchecked(shape, bytes(shape.size), rules=value)

    # Value semantics: read-only properties over private slots make grids immutable.

    @property
    def shape(self) -> Shape:
        """The geometry: box rows x box columns."""
        return self._shape

    @property
    def rules(self) -> Rules:
        """The rules the digits keep (:data:`sudokit.rules.CLASSIC` unless given)."""
        from .rules import CLASSIC

        return CLASSIC

    @property
    def cells(self) -> bytes:
        """One byte per cell, row-major: the digit, or 0 for an empty cell."""
        return self._cells

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Grid):
            return NotImplemented
        return self._cells == other._cells and self._shape == other._shape

    def __hash__(self) -> int:
        return hash((self._shape, self._cells))

    def __reduce__(self) -> tuple[Any, tuple[Shape, bytes]]:
        return (_restore, (self._shape, self._cells))

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: object) -> Self:
        return self

    # Cells.

    @property
    def n(self) -> int:
        """The side: digits are ``1..n``."""
        return self._shape.n

    def __getitem__(self, cell: int) -> int:
        """The digit at ``cell`` (0 = empty)."""
        return self._cells[cell]

    def __iter__(self) -> Iterator[int]:
        return iter(self._cells)

    def __len__(self) -> int:
        return len(self._cells)

    @property
    def clue_count(self) -> int:
        """The number of filled cells."""
        return len(self._cells) - self._cells.count(0)

    def is_complete(self) -> bool:
        """Whether every cell is filled (a complete grid without conflicts is a solution)."""
        return 0 not in self._cells

    def empty_cells(self) -> list[int]:
        """The empty cells, in order."""
        return [cell for cell, digit in enumerate(self._cells) if not digit]

    def _check_cell(self, cell: int) -> None:
        if not 0 <= cell < len(self._cells):
            raise IndexError(f"cell {cell} out of range 0-{len(self._cells) - 1}")

    def with_digit(self, cell: int, digit: int, *, allow_conflicts: bool = False) -> Grid:
        """A copy with ``digit`` (``1..n``) at ``cell``; refuse a conflict unless allowed."""
        self._check_cell(cell)
        shape = self._shape
        if type(digit) is not int or not 1 <= digit <= shape.n:
            raise InvalidPuzzleError(f"digit {digit!r:.40} out of range 1-{shape.n}")
        if not allow_conflicts:
            for peer in sorted(shape.peers[cell]):
                if self._cells[peer] == digit:
                    unit = next(u for u in shape.units_of[cell] if peer in shape.units[u])
                    raise InvalidPuzzleError(
                        f"digit {digit} at {cell_name(cell, shape.n)} conflicts with "
                        f"{cell_name(peer, shape.n)} ({shape.unit_name(unit)})"
                    )
        cells = self._cells
        return Grid.unchecked(shape, cells[:cell] + bytes((digit,)) + cells[cell + 1 :])

    def without(self, cell: int) -> Grid:
        """A copy with ``cell`` empty."""
        self._check_cell(cell)
        cells = self._cells
        return Grid.unchecked(self._shape, cells[:cell] + b"\0" + cells[cell + 1 :])

    def conflicts(self) -> list[tuple[int, int, int]]:
        """Every ``(cell, other cell, unit)`` whose two cells hold the same digit in ``unit``.

        Empty for grids built without ``allow_conflicts``; ``cell < other cell``; one entry per
        shared unit, ordered by unit (rows, columns, boxes; see :class:`Shape`).
        """
        if not _has_conflict(self._shape, self._cells):
            return []
        return _conflicts(self._shape.units, self._cells)

    # Text.

    def to_line(self, *, alphabet: str | None = None, empty: str = ".") -> str:
        """The one-line form: ``n*n`` symbols, row-major (see :mod:`sudokit.formats`)."""
        from . import formats

        return formats.format_line(self, alphabet=alphabet, empty=empty)

    def to_pretty(self, *, separators: bool = True, alphabet: str | None = None) -> str:
        """One row per line, cells separated by spaces, boxes by ``|`` and rule lines.

        >>> g = Grid("1.3. ..12 .... 4..3")
        >>> print(g.to_pretty())
        1 . | 3 .
        . . | 1 2
        ----+----
        . . | . .
        4 . | . 3
        >>> print(g.to_pretty(separators=False))
        1 . 3 .
        . . 1 2
        . . . .
        4 . . 3
        >>> Grid(g.to_pretty()) == g
        True
        """
        from . import formats

        return formats.format_pretty(self, separators=separators, alphabet=alphabet)

    def to_json(self) -> str:
        """``{"shape": "2x2", "cells": "1.3...12....4..3"}``."""
        from . import formats

        return formats.to_json(self)

    def __str__(self) -> str:
        return self.to_line()

    def _repr_svg_(self) -> str:
        """The grid as an SVG picture (what a notebook shows); see :mod:`sudokit.render.svg`."""
        from .render.svg import svg

        return svg(self)

    def __repr__(self) -> str:
        shape = self._shape
        if shape.box_rows == shape.box_cols:
            return f"Grid({self.to_line()!r})"
        return f"Grid({self.to_line()!r}, shape={shape!r})"


def _check_rules(shape: Shape, rules: Rules, cells: bytes, allow_conflicts: bool) -> None:
    """Refuse rules that do not fit ``shape`` and, unless allowed, clues that break them."""
    from .rules import geometry

    geometry(shape, rules)  # InvalidRulesError when they do not fit
    if not allow_conflicts:
        found = rules_conflicts(shape, rules, cells)
        if found:
            raise InvalidPuzzleError(found[0])


@lru_cache(maxsize=1024)  # one class per rules value in use (a jigsaw: per region map)
def _grid_class(rules: Rules) -> type[Grid]:
    """The class of grids with ``rules`` (shown as ``Grid``; its instances pickle as grids)."""
    return type("Grid", (_RulesGrid,), {"__slots__": (), "_rules": rules, "__module__": __name__})


class _RulesGrid(Grid):
    """A grid with rules beyond the classic ones: the base of the classes
    :func:`_grid_class` makes, one per rules value, each holding it as ``_rules``."""

    __slots__ = ()

    _rules: Rules

    @property
    def rules(self) -> Rules:
        return self._rules

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Grid):
            return NotImplemented
        return (
            self._cells == other._cells
            and self._shape == other._shape
            and self._rules == other.rules
        )

    def __hash__(self) -> int:
        return hash((self._shape, self._cells, self._rules))

    def __reduce__(self) -> tuple[Any, tuple[Shape, bytes, Rules]]:  # type: ignore[override]
        return (_restore, (self._shape, self._cells, self._rules))

    def with_digit(self, cell: int, digit: int, *, allow_conflicts: bool = False) -> Grid:
        self._check_cell(cell)
        shape = self._shape
        if type(digit) is not int or not 1 <= digit <= shape.n:
            raise InvalidPuzzleError(f"digit {digit!r:.40} out of range 1-{shape.n}")
        if not allow_conflicts:
            from .rules import geometry

            geo = geometry(shape, self._rules)
            for p in (*geo.peers[cell], *geo.related[cell]):
                other = self._cells[p]
                if other == digit or (other and abs(other - digit) == 1 and p in geo.related[cell]):
                    pair = bytearray(shape.size)  # the two cells alone: the message names them
                    pair[cell], pair[p] = digit, other
                    raise InvalidPuzzleError(rules_conflicts(shape, self._rules, bytes(pair))[0])
        cells = self._cells[:cell] + bytes((digit,)) + self._cells[cell + 1 :]
        return Grid.unchecked(shape, cells, rules=self._rules)

    def without(self, cell: int) -> Grid:
        self._check_cell(cell)
        cells = self._cells
        return Grid.unchecked(
            self._shape, cells[:cell] + b"\0" + cells[cell + 1 :], rules=self._rules
        )

    def conflicts(self) -> list[tuple[int, int, int]]:
        """Every ``(cell, other cell, house)`` whose two cells hold the same digit in a house
        of the rules (``house`` indexes :attr:`sudokit.rules.Geometry.houses`); neighbour
        rules and nc are reported by ``Grid(...)`` and :func:`rules_conflicts`."""
        from .rules import geometry

        return _conflicts(geometry(self._shape, self._rules).houses, self._cells)

    def __repr__(self) -> str:
        shape = self._shape
        text = f"Grid({self.to_line()!r}"
        if shape.box_rows != shape.box_cols:
            text += f", shape={shape!r}"
        return text + f", rules={self._rules!r})"


# The slot's own getter, for the batch paths above.
_SHAPE_OF = attrgetter("_shape")
