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

import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

TYPE_CHECKING = False  # typing's, without importing typing: type checkers take it as True
if TYPE_CHECKING:  # what type checkers and IDEs see; at run time, _HOMES below
    from ._grid import Grid
    from ._shape import MAX_SIDE, Shape
    from ._version import __version__
    from .canon import Canonical, Transform, canonical, canonical_id
    from .difficulty import Rated, Request, generate, generate_many
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
        InvalidRulesError,
        InvalidShapeError,
        NotUniqueError,
        SudokitError,
    )
    from .formats import Record, format_grid, parse_grid, read_puzzles
    from .generator import SYMMETRIES, Generated
    from .hunting import Vicinity, hunt
    from .rules import CLASSIC, Rules

__all__ = [
    "CLASSIC",
    "MAX_SIDE",
    "Canonical",
    "GenerationError",
    "Grid",
    "InvalidPuzzleError",
    "InvalidRulesError",
    "InvalidShapeError",
    "NotUniqueError",
    "Rated",
    "Record",
    "Request",
    "Rules",
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

#: The module each public name comes from. A name's module is imported the first time the name
#: is used (PEP 562), so ``import sudokit`` costs next to nothing and a command such as
#: ``sudokit solve`` loads only what it runs (the rating tables, the generator and the version's
#: package metadata stay unread). tests/test_imports.py holds this table to the imports above.
_HOMES = {
    "Grid": "._grid",
    "MAX_SIDE": "._shape",
    "Shape": "._shape",
    "__version__": "._version",
    "Canonical": ".canon",
    "Transform": ".canon",
    "canonical": ".canon",
    "canonical_id": ".canon",
    "Rated": ".difficulty",
    "Request": ".difficulty",
    "generate": ".difficulty",
    "generate_many": ".difficulty",
    "count_many": ".engine",
    "count_solutions": ".engine",
    "is_unique": ".engine",
    "random_grid": ".engine",
    "solve": ".engine",
    "solve_many": ".engine",
    "unique_solution": ".engine",
    "GenerationError": ".errors",
    "InvalidPuzzleError": ".errors",
    "InvalidRulesError": ".errors",
    "InvalidShapeError": ".errors",
    "NotUniqueError": ".errors",
    "SudokitError": ".errors",
    "Record": ".formats",
    "format_grid": ".formats",
    "parse_grid": ".formats",
    "read_puzzles": ".formats",
    "SYMMETRIES": ".generator",
    "Generated": ".generator",
    "Vicinity": ".hunting",
    "hunt": ".hunting",
    "CLASSIC": ".rules",
    "Rules": ".rules",
}


class _Package(ModuleType):
    """The ``sudokit`` module itself, with its public names loaded on first use."""

    def __getattr__(self, name: str) -> object:
        home = _HOMES.get(name)
        if home is None:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        from importlib import import_module

        value = getattr(import_module(home, self.__name__), name)
        self.__dict__[name] = value  # once: later uses are plain lookups
        return value

    def __dir__(self) -> list[str]:
        return sorted({*self.__dict__, *__all__})


sys.modules[__name__].__class__ = _Package


class _MovedModule(ModuleType):
    """A module's former path, kept for one release: each use warns and is the new module's.

    It is callable because its old name may also be a public function of the package (the
    import system binds ``sudokit.hunt`` to it when ``sudokit.hunt`` is imported), and so
    ``sudokit.hunt(...)`` still calls the function.
    """

    def _moved(self) -> ModuleType:
        import warnings
        from importlib import import_module

        new = _MOVED[self.__name__]
        warnings.warn(f"the module {self.__name__} is now {new}", DeprecationWarning, stacklevel=3)
        return import_module(new)

    def __getattr__(self, name: str) -> object:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._moved(), name)

    def __call__(self, *args: object, **kwargs: object) -> object:
        from importlib import import_module

        function = getattr(import_module(_MOVED[self.__name__]), self.__name__.rpartition(".")[2])
        return function(*args, **kwargs)


#: Modules renamed, by their former path (deprecated: to go in the next release).
_MOVED = {f"{__name__}.hunt": f"{__name__}.hunting"}


class _MovedFinder:
    """Finds and loads a former module path of ``_MOVED`` (the finder and loader protocols,
    without their base classes: importing importlib.abc loads pathlib and more)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        # (typeshed asks for the Loader class; the import system, for its protocol)
        return ModuleSpec(fullname, self) if fullname in _MOVED else None  # type: ignore[arg-type]

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        return _MovedModule(spec.name)

    def exec_module(self, module: ModuleType) -> None:
        pass


sys.meta_path.append(_MovedFinder())
