"""sudokit: generate, solve, rate, explain, print and play Sudoku.

The public API lives here; modules whose names start with ``_`` are private.

>>> from sudokit import Grid, solve, is_unique
>>> puzzle = Grid(
...     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
... )
>>> is_unique(puzzle)
True
>>> print(solve(puzzle).to_pretty())
4 8 3 | 9 2 1 | 6 5 7
9 6 7 | 3 4 5 | 8 2 1
2 5 1 | 8 7 6 | 4 9 3
------+-------+------
5 4 8 | 1 3 2 | 9 7 6
7 2 9 | 5 6 4 | 1 3 8
1 3 6 | 7 9 8 | 2 4 5
------+-------+------
3 7 2 | 6 8 9 | 5 1 4
8 1 4 | 2 5 3 | 7 6 9
6 9 5 | 4 1 7 | 3 8 2
"""

from __future__ import annotations

from ._grid import Grid
from ._shape import MAX_SIDE, Shape
from ._version import __version__
from .canon import Canonical, Transform, canonical, canonical_id
from .difficulty import Rated, generate, generate_many
from .engine import (
    count_many,
    count_solutions,
    is_unique,
    random_grid,
    solve,
    solve_many,
    unique_solution,
)
from .errors import (
    GenerationError,
    InvalidPuzzleError,
    InvalidShapeError,
    NotUniqueError,
    SudokitError,
)
from .formats import Record, format_grid, parse_grid, read_puzzles
from .generator import SYMMETRIES, Generated
from .hunt import Vicinity, hunt

__all__ = [
    "MAX_SIDE",
    "Canonical",
    "GenerationError",
    "Grid",
    "InvalidPuzzleError",
    "InvalidShapeError",
    "NotUniqueError",
    "Rated",
    "Record",
    "SYMMETRIES",
    "Generated",
    "Shape",
    "SudokitError",
    "Transform",
    "Vicinity",
    "__version__",
    "canonical",
    "canonical_id",
    "count_many",
    "count_solutions",
    "format_grid",
    "generate",
    "generate_many",
    "hunt",
    "is_unique",
    "parse_grid",
    "random_grid",
    "read_puzzles",
    "solve",
    "solve_many",
    "unique_solution",
]
