"""The exact engine: solve, count solutions, test uniqueness, make random complete grids.

A thin face over the C extension ``sudokit._engine``. Every function takes :class:`Grid`
values (already validated: right length, digits in range, no two equal digits in a unit) and
hands their cell bytes to C in one call per puzzle, or one call per batch for the ``*_many``
forms. The C code releases the GIL while it searches.

>>> from sudokit import Grid, solve, count_solutions, is_unique
>>> g = Grid("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
>>> is_unique(g)
True
>>> solve(g).to_line()[:27]
'417369825632158947958724316'
>>> count_solutions(Grid("." * 81), limit=5)
5
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING

from . import _engine
from ._grid import Grid, as_rules, batch_shape, grids_of, rules_blob
from ._shape import Shape
from .errors import InvalidRulesError, NotUniqueError

if TYPE_CHECKING:
    from .rules import Rules

__all__ = [
    "count_many",
    "count_solutions",
    "is_unique",
    "random_cells",
    "random_grid",
    "solve",
    "search_batch",
    "solve_many",
    "unique_solution",
]

_SEED_MASK = (1 << 64) - 1
#: Counting never gets anywhere near this; larger limits mean the same.
_LIMIT_MAX = (1 << 63) - 1
_SUDOKU = Shape(3, 3)
_CELLS_OF = attrgetter("cells")


def solve(grid: Grid | str) -> Grid | None:
    """Return the first solution found, or ``None`` when the puzzle has none.

    For a puzzle with several solutions, which one is returned is fixed for a given version but
    otherwise unspecified; use :func:`count_solutions` or :func:`is_unique` to check.

    Here and in every function of this module, a puzzle is a :class:`Grid` or its text
    (:meth:`Grid.of`), a shape a :class:`Shape` or its text, ``"2x3"`` (:meth:`Shape.of`).
    """
    grid = Grid.of(grid)
    shape = grid.shape
    if type(grid) is Grid:  # classic rules
        solution, _ = _engine.solve(shape.box_rows, shape.box_cols, grid.cells)
        return None if solution is None else Grid.unchecked(shape, solution)
    blob = rules_blob(grid)
    solution, _ = _engine.solve(shape.box_rows, shape.box_cols, grid.cells, geometry=blob)
    return None if solution is None else Grid.unchecked(shape, solution, rules=grid.rules)


def count_solutions(grid: Grid | str, *, limit: int = 2) -> int:
    """Count the solutions of ``grid``, stopping at ``limit`` (so the result is at most ``limit``).

    ``limit=2`` is the uniqueness test: 0 means no solution, 1 unique, 2 several.
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    grid = Grid.of(grid)
    shape = grid.shape
    if type(grid) is Grid:  # classic rules
        _, count = _engine.solve(shape.box_rows, shape.box_cols, grid.cells, min(limit, _LIMIT_MAX))
        return count
    blob = rules_blob(grid)
    _, count = _engine.solve(
        shape.box_rows, shape.box_cols, grid.cells, min(limit, _LIMIT_MAX), geometry=blob
    )
    return count


def is_unique(grid: Grid | str) -> bool:
    """True when ``grid`` has exactly one solution."""
    return count_solutions(grid, limit=2) == 1


def unique_solution(grid: Grid | str) -> Grid:
    """The one solution of ``grid``; :class:`~sudokit.errors.NotUniqueError` when it has none
    or more than one. Every command that needs one solution (rating, explaining, hints,
    printing) asks this first, so a broken puzzle fails at once with a clear message.

    >>> unique_solution(Grid("." * 81))
    Traceback (most recent call last):
      ...
    sudokit.errors.NotUniqueError: more than one solution
    """
    grid = Grid.of(grid)
    shape = grid.shape
    blob = rules_blob(grid)
    solution, count = _engine.solve(shape.box_rows, shape.box_cols, grid.cells, 2, geometry=blob)
    if count == 0 or solution is None:
        raise NotUniqueError("no solution", solutions=0)
    if count > 1:
        raise NotUniqueError("more than one solution", solutions=2)
    return Grid.unchecked(shape, solution, rules=None if blob is None else grid.rules)


def search_batch(grids: Sequence[Grid], limit: int) -> tuple[Shape, bytes, list[int]]:
    """Search many grids of one shape in one call into C: their shape, their first solutions
    end to end (zeros where there is none) and their counts, each stopping at ``limit``. The
    raw form behind :func:`solve_many` and :func:`count_many`, for callers that mix shapes."""
    joined = _engine.batch_cells(grids, Grid)  # the common case, in one loop in C
    if joined is not None:
        shape, cells = joined
        return shape, *search_cells(shape, cells, limit)
    shape = batch_shape(grids)  # which also checks that the grids share their rules
    cells = b"".join(map(_CELLS_OF, grids))
    blob = rules_blob(grids[0])
    if blob is None:
        return shape, *search_cells(shape, cells, limit)
    solutions, counts = _engine.solve_batch(
        shape.box_rows, shape.box_cols, cells, min(limit, _LIMIT_MAX), geometry=blob
    )
    return shape, solutions, counts


def search_cells(shape: Shape, cells: bytes, limit: int) -> tuple[bytes, list[int]]:
    """:func:`search_batch` of grids of ``shape`` given as their cells back to back (for a
    caller that has them so, without a :class:`Grid` each): first solutions, counts."""
    solutions, counts = _engine.solve_batch(
        shape.box_rows, shape.box_cols, cells, min(limit, _LIMIT_MAX)
    )
    return solutions, counts


def solve_many(grids: Iterable[Grid | str]) -> list[Grid | None]:
    """Solve many puzzles of one shape in one call into C; ``None`` where there is no solution."""
    batch = grids_of(grids)
    if not batch:
        return []
    shape, solutions, counts = search_batch(batch, 1)
    rules = batch[0].rules if rules_blob(batch[0]) is not None else None
    if rules is None:
        found: list[Grid | None] = [*Grid.unchecked_many(shape, solutions)]
    else:
        size = shape.size
        found = [
            Grid.unchecked(shape, solutions[i : i + size], rules=rules)
            for i in range(0, len(solutions), size)
        ]
    if 0 in counts:
        for i, count in enumerate(counts):
            if not count:
                found[i] = None
    return found


def count_many(grids: Iterable[Grid | str], *, limit: int = 2) -> list[int]:
    """Count the solutions of many puzzles of one shape (each stopping at ``limit``)."""
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    batch = grids_of(grids)
    if not batch:
        return []
    return search_batch(batch, limit)[2]


def random_grid(
    shape: Shape | str = _SUDOKU, *, rules: Rules | str | None = None, seed: int
) -> Grid:
    """A random complete grid of ``shape`` under ``rules`` (classic by default): a function of
    the shape, the rules, the seed and the version.

    The seed is any integer; it is taken modulo 2**64. Rules without a complete grid on the
    shape raise :class:`~sudokit.errors.InvalidRulesError`.

    >>> random_grid(seed=1) == random_grid(seed=1)
    True
    >>> random_grid(seed=1).is_complete()
    True
    >>> random_grid(rules="x", seed=1).rules
    Rules('x')
    """
    shape = Shape.of(shape)
    value = as_rules(rules)
    return Grid.unchecked(shape, random_cells(shape, value, seed=seed), rules=value)


def random_cells(shape: Shape, rules: Rules | None = None, *, seed: int) -> bytes:
    """The cells of a random complete grid of ``shape`` under ``rules`` (a function of the
    shape, the rules, the seed and the version). Classic rules give :func:`random_grid`'s.

    Raises :class:`InvalidRulesError` when the rules do not fit the shape or have no complete
    grid on it (anti-king on 4x4, say): the engine's search from the empty grid ended without
    one. None means classic rules."""
    if rules is None or rules.is_classic:
        cells = _engine.random_grid(shape.box_rows, shape.box_cols, seed & _SEED_MASK)
    else:
        from .rules import geometry  # not loaded for classic work (see tests/test_imports.py)

        blob = geometry(shape, rules).blob
        cells = _engine.random_grid(shape.box_rows, shape.box_cols, seed & _SEED_MASK, blob)
    if cells is None:
        raise InvalidRulesError(f"rules {str(rules)!r} on shape {shape} have no complete grid")
    return cells
