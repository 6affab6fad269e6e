"""The bridge to the logic engine in C (``sudokit._logic``): positions in, steps out.

The C engine finds steps as data (:class:`sudokit._logic.StepData`: technique name, rating,
placements, eliminations, cells, units, digits, links, complexity and raw info ints); this
module turns them into :class:`Step` objects, with each technique's info decoded by the
decoder its module registered (:func:`register_info`). The solver loop itself runs in C
(:func:`path`) when every technique it is given is there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import overload

from .. import _logic
from .._grid import Grid
from .._shape import Shape
from ..rules import CLASSIC, Rules
from ._state import Candidates, engine_geometry
from ._step import Link, Step

__all__ = [
    "IN_C",
    "TECH_ID",
    "StepPath",
    "finder",
    "from_data",
    "path",
    "position",
    "register_info",
]

#: Technique slug -> its id in the C engine's table.
TECH_ID: dict[str, int] = {row[0]: i for i, row in enumerate(_logic.TECHNIQUES)}
#: The techniques the C engine runs.
IN_C: frozenset[str] = frozenset(row[0] for row in _logic.TECHNIQUES if row[5])

Info = tuple[tuple[str, object], ...]
_DECODERS: dict[str, Callable[[tuple[int, ...]], Info]] = {}


def register_info(kind: str, decode: Callable[[tuple[int, ...]], Info]) -> None:
    """Say how the raw info ints of ``kind`` steps become ``Step.info``."""
    _DECODERS[kind] = decode


def pairs(raw: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """``(c1, d1, c2, d2, ...)`` as ``((c1, d1), (c2, d2), ...)``."""
    return tuple(zip(raw[::2], raw[1::2], strict=True))


def position(state: Candidates) -> tuple[int, int, bytes, list[int] | None, bytes | None]:
    """The shape, position and rules geometry arguments every call into the engine takes."""
    shape = state.shape
    geo = engine_geometry(shape, state.rules)
    return shape.box_rows, shape.box_cols, bytes(state.values), state.cand, geo


def from_data(shape: Shape, data: _logic.StepData, rules: Rules = CLASSIC) -> Step:
    """The :class:`Step` for a step the C engine found (on a grid with ``rules``)."""
    decode = _DECODERS.get(data.kind)
    return Step(
        shape,
        data.kind,
        data.rating,
        data.placements,
        data.eliminations,
        data.cells,
        data.units,
        data.digits,
        tuple(Link(*link) for link in data.links),
        data.complexity,
        decode(data.info) if decode is not None else (),
        rules,
    )


class StepPath(Sequence[Step]):
    """The steps of a path, as a sequence of :class:`Step`: made from the engine's data when
    first read (a rating needs only each step's rating, the technique of one and the first that
    places a value, which :meth:`ratings`, :meth:`technique` and :meth:`first_placing` give
    without making them)."""

    __slots__ = ("_data", "_rules", "_shape", "_steps")

    def __init__(
        self,
        shape: Shape,
        data: Sequence[_logic.StepData] = (),
        steps: Sequence[Step] = (),
        rules: Rules = CLASSIC,
    ):
        self._shape = shape
        self._rules = rules
        self._data: tuple[_logic.StepData, ...] | None = tuple(data) if data else None
        self._steps: tuple[Step, ...] | None = None if data else tuple(steps)

    def _all(self) -> tuple[Step, ...]:
        if self._steps is None:
            self._steps = tuple(from_data(self._shape, d, self._rules) for d in self._data or ())
            self._data = None
        return self._steps

    def ratings(self) -> list[float]:
        """Each step's rating."""
        if self._data is not None:
            return [d.rating for d in self._data]
        return [s.rating for s in self._all()]

    def technique(self, index: int) -> str:
        """The technique of step ``index``."""
        if self._data is not None:
            return self._data[index].kind
        return self._all()[index].technique

    def first_placing(self) -> int | None:
        """The index of the first step that places a value, or None."""
        if self._data is not None:
            return next((i for i, d in enumerate(self._data) if d.placements), None)
        return next((i for i, s in enumerate(self._all()) if s.placements), None)

    def without_last(self) -> StepPath:
        """The path without its last step."""
        if self._data is not None:
            return StepPath(self._shape, data=self._data[:-1], rules=self._rules)
        return StepPath(self._shape, steps=self._all()[:-1])

    def __len__(self) -> int:
        return len(self._data) if self._data is not None else len(self._all())

    @overload
    def __getitem__(self, index: int) -> Step: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Step, ...]: ...
    def __getitem__(self, index: int | slice) -> Step | tuple[Step, ...]:
        return self._all()[index]

    def __iter__(self) -> Iterator[Step]:
        return iter(self._all())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, StepPath | tuple | list):
            return self._all() == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._all())

    def __repr__(self) -> str:
        return repr(self._all())


def finder(slug: str, doc: str | None = None) -> Callable[[Candidates], Iterator[Step]]:
    """The C engine's finder for technique ``slug``: every step it finds, in order."""
    tech = TECH_ID[slug]

    def find(state: Candidates) -> Iterator[Step]:
        shape = state.shape
        return (from_data(shape, d, state.rules) for d in _logic.find(tech, *position(state)))

    find.__name__ = f"find_{slug.replace('-', '_')}"
    find.__doc__ = doc or f"Every {slug} step in ``state``, in the engine's search order."
    return find


#: How a :func:`path` ended.
SOLVED, STUCK, CAPPED, OUT_OF_TIME = 0, 1, 2, 3


def path(
    puzzle: Grid | Candidates,
    techniques: Sequence[int],
    *,
    max_rating: float | None = None,
    stop_above: float | None = None,
    deadline: float | None = None,
) -> tuple[int, list[_logic.StepData]]:
    """Run the solver loop in C from a puzzle or a position (a :class:`Candidates` state is
    left where the path ends).

    Returns how it ended (:data:`SOLVED`, :data:`STUCK`, :data:`CAPPED`: the last step is
    rated above ``stop_above`` and was not applied, :data:`OUT_OF_TIME`) and the steps.
    """
    if isinstance(puzzle, Candidates):
        where = position(puzzle)
    else:
        shape = puzzle.shape
        geo = engine_geometry(shape, puzzle.rules)
        where = (shape.box_rows, shape.box_cols, puzzle.cells, None, geo)
    end, steps, values, cand = _logic.path(
        techniques,
        -1.0 if max_rating is None else max_rating,
        -1.0 if stop_above is None else stop_above,
        -1.0 if deadline is None else deadline,
        *where,
    )
    if isinstance(puzzle, Candidates):
        puzzle.reset(list(values), list(cand))
    return end, steps
