"""What the play page asks for, as plain functions: check the values, answer with JSON-ready data.

The service (:mod:`sudokit.web.app`, through :mod:`sudokit.web.work`) and the offline page
(:mod:`sudokit.web.page`) are both thin layers over this module; nothing here knows about
sockets.

Terms:

- A **position** is what a player has on the board: the puzzle's clues (``puzzle``), the
  digits on the board (``grid``, clues included) and the pencil marks (``marks``, one digit
  mask a cell, bit ``d-1`` for digit ``d``). A mask of 0 in an empty cell means "no marks
  there": the player has not narrowed that cell down, so every digit its peers allow is a
  candidate.
- A **mistake** is a digit on the board that differs from the solution, or pencil marks that
  leave out a cell's solution digit. Logic from a wrong position proves nothing, so a hint
  for one points at the mistake instead.
- A **hint answer** is ``{"kind", "detail", "text", "step"}``: ``kind`` is ``"step"`` (the
  next deduction of the logic engine), ``"mistake"``, ``"solved"``, or ``"reveal"`` (no
  technique applies; detail 3 then reveals one cell from the solution). ``step`` is the step's
  data in the one schema of :meth:`Step.to_dict`, or None, carrying only what the detail tells
  (:meth:`sudokit.logic.Hint.to_dict`: at detail 1 where to look, nothing more).
- Every hint is worded here, in Python: a step's texts by :func:`sudokit.logic.hint`, the
  others from :data:`HINT_WORDS`, which the offline page also carries, so its script only
  fills in cell names and never words a hint of its own.

Cells in answers are ``[row, column]`` pairs, 1-based, as in :meth:`Step.to_dict`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from .._grid import Grid
from .._shape import Shape
from ..engine import unique_solution
from ..errors import (
    InvalidPuzzleError,
    InvalidRulesError,
    InvalidShapeError,
    NotUniqueError,
    SudokitError,
)
from ..formats import DEFAULT_ALPHABET, parse_grid
from ..logic import Candidates, Step, Technique, hint
from ..rating import KillerLevel, Level
from ..rules import Rules

__all__ = [
    "LEVELS",
    "MAX_PLAY_SIDE",
    "SIDES",
    "RequestError",
    "hint_answer",
    "hint_request",
    "HINT_WORDS",
    "hint_texts",
    "parse_board",
    "parse_puzzle",
    "parse_rules",
    "parse_shape",
    "reveal_order",
]

#: The words of the hints that are not logic steps, by kind and detail (1, 2, 3), with
#: ``{cells}``, ``{s}`` (a plural's s), ``{digit}`` and ``{cell}`` to fill in.
HINT_WORDS: dict[str, list[str]] = {
    "wrong": [
        "There is a mistake on the board: undo to the last correct position.",
        "Wrong digit{s} at {cells}: undo to the last correct position.",
        "Wrong digit{s} at {cells}: undo to the last correct position.",
    ],
    "marks": [
        "A pencil mark is missing: some cell's marks leave out its digit.",
        "The pencil marks of {cells} leave out the cell's digit.",
        "The pencil marks of {cells} leave out the cell's digit.",
    ],
    "solved": ["Solved: every digit is right."] * 3,
    "reveal": [
        "No technique the engine knows applies here.",
        "No technique the engine knows applies here; ask again to see one digit.",
        "No technique applies; the solution has {digit} at {cell}.",
    ],
}

#: The grid sizes the page offers, by side.
SIDES: dict[int, Shape] = {
    4: Shape(2, 2),
    6: Shape(2, 3),
    9: Shape(3, 3),
    12: Shape(3, 4),
    16: Shape(4, 4),
}

#: The largest side the server plays (bigger grids make slow generation and slow logic).
MAX_PLAY_SIDE = 16

#: Level names, easiest first, as the page and the query string spell them.
LEVELS: tuple[str, ...] = tuple(level.name.lower() for level in Level)
#: The levels ``GET /puzzle`` takes: SE's, and the killer levels' last (a killer's easy,
#: medium and hard share SE's names; which is meant follows from the rules).
QUERY_LEVELS: tuple[str, ...] = (*LEVELS, str(KillerLevel.EXTREME))


class RequestError(SudokitError, ValueError):
    """A request the server refuses: ``status`` is the HTTP status (4xx for bad requests), the
    message says why."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def parse_shape(text: str) -> Shape:
    """The shape named by a side of :data:`SIDES` (``"9"``) or by its boxes (``"3x3"``), for a
    grid of side at most :data:`MAX_PLAY_SIDE`. (``"4x4"`` names boxes, so a 16x16 grid.)
    ``text`` is the query's, whose type and length its model has checked.

    >>> parse_shape("6"), parse_shape("3x4"), parse_shape("16")
    (Shape(2, 3), Shape(3, 4), Shape(4, 4))
    """
    stripped = text.strip()
    if stripped.isdecimal():
        side = int(stripped)
        if side not in SIDES:
            sides = ", ".join(map(str, SIDES))
            raise RequestError(f"unknown side {side}; choose from {sides} (or a box shape)")
        return SIDES[side]
    try:
        shape = Shape.parse(stripped)
    except InvalidShapeError as e:
        raise RequestError(str(e)) from None
    if shape.n > MAX_PLAY_SIDE:
        raise RequestError(f"shape {shape} makes a {shape.n}x{shape.n} grid; at most 16x16 here")
    return shape


# Grids in requests -------------------------------------------------------------------------------
#
# A grid value is a text sudokit reads or a list of digits, as the request schema of
# sudokit.web.schema has checked it (its type, length, and digits 0 to MAX_SIDE): what is
# left is what only the puzzle tells, read here. What cannot be read, or does not fit the
# grid's shape, is a 400; a grid that reads but breaks the rules (two equal digits in a unit)
# is a 422.


def _box_shape(text: str | None) -> Shape | None:
    if text is None:
        return None
    try:  # Shape refuses a side over sudokit.MAX_SIDE (the engines' limit), naming it
        return Shape.parse(text.strip())
    except SudokitError as e:
        raise RequestError(f"'shape': {e}") from None


def _digits(value: Sequence[int], key: str, size: int, top: int) -> list[int]:
    """``value`` when it holds a digit of a grid's ``size`` cells each, none over ``top``."""
    if len(value) != size:
        raise RequestError(f"{key!r} must hold {size} digits, one a cell; got {len(value)}")
    for i, v in enumerate(value):
        if not 0 <= v <= top:
            raise RequestError(f"{key}[{i}] must be a whole number 0-{top}, got {v!r:.40}")
    return list(value)


def parse_rules(text: str | None, key: str = "rules") -> Rules | None:
    """The rules a request names (their text form, e.g. ``x+windoku``), None for classic;
    a 400 naming ``key`` for a text that names no rules."""
    if text is None:
        return None
    try:
        rules = Rules.parse(text)
    except InvalidRulesError as e:
        raise RequestError(f"{key!r}: {e}") from None
    return None if rules.is_classic else rules


def parse_puzzle(
    value: str | Sequence[int],
    shape_text: str | None = None,
    key: str = "puzzle",
    rules_text: str | None = None,
) -> Grid:
    """A grid from a grid value (see above), with the box shape ``shape_text`` and the
    rules ``rules_text`` if given: a 400 for rules that do not read, a 422 for rules that do
    not fit the grid or clues that break them."""
    rules = parse_rules(rules_text)
    shape = _box_shape(shape_text)
    relaxed = rules is not None  # the rules, not the classic units, say what conflicts
    if isinstance(value, str):
        try:
            grid = parse_grid(value, shape=shape, allow_conflicts=relaxed)
        except InvalidPuzzleError as e:
            try:
                parse_grid(value, shape=shape, allow_conflicts=True)
            except InvalidPuzzleError:
                raise RequestError(f"{key!r} cannot be read: {e}") from None
            raise RequestError(f"{key!r} is not a valid grid: {e}", 422) from None
    else:
        if shape is None:
            side = round(len(value) ** 0.5)
            root = round(side**0.5)
            if not value or side * side != len(value) or root * root != side or root < 2:
                raise RequestError(
                    f"{key!r} holds {len(value)} digits: give 'shape' for a grid whose boxes "
                    "are not square"
                )
            shape = Shape(root, root)
        cells = _digits(value, key, shape.size, shape.n)
        try:
            grid = Grid.from_cells(bytes(cells), shape, allow_conflicts=relaxed)
        except InvalidPuzzleError as e:
            raise RequestError(f"{key!r} is not a valid grid: {e}", 422) from None
    if rules is None:
        return grid
    try:
        return Grid.from_cells(grid.cells, grid.shape, rules=rules)
    except InvalidRulesError as e:
        raise RequestError(f"'rules': {e}", 422) from None
    except InvalidPuzzleError as e:
        raise RequestError(f"{key!r} is not a valid grid under its rules: {e}", 422) from None


def parse_board(puzzle: Grid, value: str | Sequence[int], key: str = "grid") -> list[int]:
    """A player's board for ``puzzle`` from a grid value in the puzzle's shape (conflicts
    allowed: a board may hold mistakes); a 422 when it changes a clue."""
    shape = puzzle.shape
    if isinstance(value, str):
        try:
            values = list(parse_grid(value, shape=shape, allow_conflicts=True).cells)
        except InvalidPuzzleError as e:
            raise RequestError(f"{key!r} cannot be read: {e}") from None
    else:
        values = _digits(value, key, shape.size, shape.n)
    moved = [c for c, v in enumerate(puzzle.cells) if v and values[c] != v]
    if moved:
        raise RequestError(f"{key!r} changes the clue at {shape.cell_name(moved[0])}", 422)
    return values


# Hints ------------------------------------------------------------------------------------------


def reveal_order(state: Candidates) -> list[int]:
    """The empty cells in the order a "reveal" hint shows them when no technique applies: the
    fewest candidates first, then by cell. The server takes the first; the offline page
    carries the list for its path's last position and takes the first the player left empty."""
    empty = [c for c, v in enumerate(state.values) if not v]
    return sorted(empty, key=lambda c: (state.cand[c].bit_count(), c))


def _words(kind: str, detail: int, **fill: str) -> str:
    return HINT_WORDS[kind][detail - 1].format(**fill)


def hint_texts(state: Candidates, step: Step) -> list[str]:
    """The detail 1, 2 and 3 hint texts of ``step``, a step found from ``state``.

    :func:`sudokit.logic.hint` words a hint from the step it finds; handing it a technique that
    finds only ``step`` words this one without searching again.
    """
    only = Technique(step.technique, step.technique, step.rating, lambda _state: (step,))
    texts = []
    for detail in (1, 2, 3):
        found = hint(state, detail, techniques=[only])
        texts.append(found.text if found is not None else step.text)
    return texts


def _cells_list(shape: Shape, cells: Sequence[int]) -> list[list[int]]:
    n = shape.n
    return [[c // n + 1, c % n + 1] for c in cells]


def _names(shape: Shape, cells: Sequence[int]) -> str:
    shown = ", ".join(shape.cell_name(c) for c in cells[:6])
    return shown + (f" and {len(cells) - 6} more" if len(cells) > 6 else "")


def _marked_step(shape: Shape, kind: str, cells: Sequence[int], text: str) -> dict[str, Any]:
    """A step-like drawable for a mistake or a reveal: just cells (and placements)."""
    return {
        "technique": kind,
        "rating": 0.0,
        "placements": [],
        "eliminations": [],
        "cells": _cells_list(shape, cells),
        "links": [],
        "units": [],
        "digits": [],
        "text": text,
    }


def _mistake(shape: Shape, kind: str, detail: int, cells: Sequence[int]) -> dict[str, Any]:
    """A hint that points at a mistake: in general at detail 1, at its cells from 2 on."""
    text = _words(kind, detail, cells=_names(shape, cells), s="s" if len(cells) > 1 else "")
    step = _marked_step(shape, "mistake", cells if detail > 1 else [], text)
    return {"kind": "mistake", "detail": detail, "text": text, "step": step}


def hint_answer(
    puzzle: Grid,
    solution: Grid,
    values: Sequence[int],
    marks: Sequence[int] | None,
    detail: int,
) -> dict[str, Any]:
    """The hint for a player's position (see the module's terms); ``values`` and ``marks`` are
    checked already: ``n*n`` ints in range, clues kept."""
    shape = puzzle.shape
    full = (1 << shape.n) - 1
    wrong = [c for c, v in enumerate(values) if v and v != solution[c]]
    if wrong:
        return _mistake(shape, "wrong", detail, wrong)
    empty = [c for c, v in enumerate(values) if not v]
    if not empty:
        return {"kind": "solved", "detail": detail, "text": _words("solved", detail), "step": None}
    grid = Grid.from_cells(bytes(values), shape)
    masks = None
    if marks is not None and any(marks[c] for c in empty):
        masks = [m or full for m in marks]
        off = [c for c in empty if not masks[c] >> (solution[c] - 1) & 1]
        if off:
            return _mistake(shape, "marks", detail, off)
    state = Candidates.from_grid(grid) if masks is None else Candidates.from_masks(grid, masks)
    found = hint(state, detail)
    if found is None:
        cell = reveal_order(state)[0]
        digit = solution[cell]
        text = _words(
            "reveal", detail, digit=DEFAULT_ALPHABET[digit - 1], cell=shape.cell_name(cell)
        )
        step = _marked_step(shape, "reveal", [cell] if detail == 3 else [], text)
        if detail == 3:
            step["placements"] = [[cell // shape.n + 1, cell % shape.n + 1, digit]]
        return {"kind": "reveal", "detail": detail, "text": text, "step": step}
    return {"kind": "step", **found.to_dict(state)}


def hint_request(
    puzzle_value: str | Sequence[int],
    shape_text: str | None = None,
    board: str | Sequence[int] | None = None,
    marks: Sequence[int] | None = None,
    detail: Literal[1, 2, 3] = 1,
    rules_text: str | None = None,
) -> dict[str, Any]:
    """Answer a hint request (see :func:`hint_answer`), as the request schema
    (:class:`sudokit.web.schema.HintIn`) has checked its values: the puzzle and the board
    (default the puzzle) as grid values, the box shape, the pencil marks (one digit mask a
    cell, or None) and the detail."""
    puzzle = parse_puzzle(puzzle_value, shape_text, rules_text=rules_text)
    shape = puzzle.shape
    if shape.n > MAX_PLAY_SIDE:
        raise RequestError(f"hints are for grids up to 16x16; this one is {shape.n}x{shape.n}")
    values = list(puzzle.cells) if board is None else parse_board(puzzle, board)
    if marks is not None:
        marks = _digits(marks, "marks", shape.size, (1 << shape.n) - 1)
    try:
        solution = unique_solution(puzzle)
    except NotUniqueError as e:
        raise RequestError(f"'puzzle' has {e}; hints need a puzzle with one", 422) from None
    return hint_answer(puzzle, solution, values, marks, detail)
