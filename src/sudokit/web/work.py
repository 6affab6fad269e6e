"""The service's CPU work, as plain functions of picklable arguments: each runs in a worker
process of the service's pool (:mod:`sudokit.web._pool`), never on the event loop.

Terms:

- A **puzzle text** is what a client sends for ``solve``, ``rate``, ``explain`` and ``check``:
  a text sudokit reads (the 81-character line, a pretty grid, JSON; see
  :func:`sudokit.formats.parse_grid`), or a list of ``n*n`` digits (0 = empty) with the shape.
- A **deadline** is a :func:`time.monotonic` value: the work that can stop itself between
  steps (rating, explaining) stops there with a 503; the pool kills whatever is still running
  a little later, so nothing outlives its request for long.

Every function checks its input and raises :class:`~sudokit.web.api.RequestError` (status
4xx, or 503 for work that did not finish in time) with a message that names the problem.

>>> solve({"puzzle": "1.3...12....4..3"})["solution"]
'1234341223414123'
>>> check({"puzzle": "1.3...12....4..3", "grid": "1234341223414113"})["wrong"]
[[4, 3]]
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Sequence
from typing import Any

from .._grid import Grid
from .._shape import Shape
from ..bank import Added, Bank, Filters
from ..difficulty import generate
from ..engine import unique_solution
from ..errors import GenerationError, InvalidPuzzleError, NotUniqueError, SudokitError
from ..formats import parse_grid
from ..logic import Candidates, solve_steps
from ..rating import Level, hodoku, rate
from .api import RequestError, hint_request, hint_texts

__all__ = [
    "check",
    "daily_id",
    "daily_seed",
    "explain",
    "fill_one",
    "hint",
    "none_made",
    "parse_puzzle",
    "rate_puzzle",
    "solve",
]

#: The largest side accepted in a posted puzzle (36x36 is the engines' limit).
MAX_SIDE = 36

# One bank per target, opened once by each worker process.
_banks: dict[str, Bank] = {}


def _bank(target: str) -> Bank:
    if target not in _banks:
        _banks[target] = Bank(target)
    return _banks[target]


def _shape(text: object) -> Shape | None:
    if text is None:
        return None
    if not isinstance(text, str) or len(text) > 16:
        raise RequestError(f"'shape' must be a text such as '3x3', got {text!r:.40}")
    try:
        shape = Shape.parse(text.strip())
    except SudokitError as e:
        raise RequestError(f"'shape': {e}", 422) from None
    if shape.n > MAX_SIDE:
        raise RequestError(f"'shape' {shape} makes a {shape.n}x{shape.n} grid; at most 36x36")
    return shape


def parse_puzzle(value: object, shape_text: object = None, key: str = "puzzle") -> Grid:
    """A grid from a puzzle text or a list of digits (see the module's terms)."""
    shape = _shape(shape_text)
    if isinstance(value, str):
        try:
            grid = parse_grid(value, shape=shape)
        except InvalidPuzzleError as e:
            raise RequestError(f"{key!r} cannot be read: {e}", 422) from None
    elif isinstance(value, list):
        if shape is None:
            side = round(len(value) ** 0.5)
            root = round(side**0.5)
            if not value or side * side != len(value) or root * root != side or root < 2:
                raise RequestError(
                    f"{key!r} holds {len(value)} digits: give 'shape' for a grid whose boxes "
                    "are not square"
                )
            shape = Shape(root, root)
        if len(value) != shape.size:
            raise RequestError(f"{key!r} must hold {shape.size} digits; got {len(value)}")
        for i, v in enumerate(value):
            if type(v) is not int or not 0 <= v <= shape.n:
                raise RequestError(f"{key}[{i}] must be a whole number 0-{shape.n}, got {v!r:.40}")
        try:
            grid = Grid.from_cells(bytes(value), shape)
        except InvalidPuzzleError as e:
            raise RequestError(f"{key!r} is not a valid grid: {e}", 422) from None
    else:
        kind = type(value).__name__
        raise RequestError(f"{key!r} must be a text or a list of digits, got {kind}")
    if grid.shape.n > MAX_SIDE:  # pragma: no cover - parse_grid keeps to the engines' sizes
        raise RequestError(f"{key!r} is a {grid.shape.n}x{grid.shape.n} grid; at most 36x36")
    return grid


def _solution(puzzle: Grid) -> Grid:
    try:
        return unique_solution(puzzle)
    except NotUniqueError as e:
        raise RequestError(f"the puzzle has {e}", 422) from None


def _text(grid: Grid) -> str:
    return grid.to_line()


def solve(body: dict[str, Any]) -> dict[str, Any]:
    """``{"puzzle", "shape"?}`` → its one solution, as text and as digits."""
    puzzle = parse_puzzle(body.get("puzzle"), body.get("shape"))
    solution = _solution(puzzle)
    return {
        "shape": str(puzzle.shape),
        "solution": _text(solution),
        "cells": list(solution.cells),
    }


def rate_puzzle(body: dict[str, Any], deadline: float) -> dict[str, Any]:
    """``{"puzzle", "shape"?}`` → its SE rating (ER/EP/ED, level, hardest technique) and its
    HoDoKu grade."""
    puzzle = parse_puzzle(body.get("puzzle"), body.get("shape"))
    _solution(puzzle)
    rating = rate(puzzle, deadline=deadline)
    grade = hodoku(puzzle) if rating.solved else None
    out = rating.to_dict()
    if grade is not None:
        out.update(hodoku_level=grade.level, hodoku_score=grade.score)
    return {"shape": str(puzzle.shape), "puzzle": _text(puzzle), **out}


def explain(body: dict[str, Any], deadline: float) -> dict[str, Any]:
    """``{"puzzle", "shape"?}`` → the logic engine's solve path: each step in the one step
    schema (:data:`sudokit.logic.STEP_SCHEMA`) with its hint texts at detail 1, 2 and 3."""
    puzzle = parse_puzzle(body.get("puzzle"), body.get("shape"))
    _solution(puzzle)
    state = Candidates.from_grid(puzzle)
    steps = []
    for step in solve_steps(state, in_place=True):
        if time.monotonic() > deadline:
            raise TimeoutError("the explanation ran out of time")
        steps.append({"hints": hint_texts(state, step), "step": step.to_dict(state)})
    return {
        "shape": str(puzzle.shape),
        "puzzle": _text(puzzle),
        "solved": state.is_solved(),
        "steps": steps,
    }


def hint(body: dict[str, Any]) -> dict[str, Any]:
    """A hint for a player's position: :func:`sudokit.web.api.hint_request`."""
    return hint_request(body)


def check(body: dict[str, Any]) -> dict[str, Any]:
    """``{"puzzle", "grid", "shape"?}`` → which entries of the board ``grid`` are wrong
    (``[row, column]``, 1-based), how many cells are still empty, and whether it is solved.
    ``grid`` must keep the puzzle's clues."""
    puzzle = parse_puzzle(body.get("puzzle"), body.get("shape"))
    board = body.get("grid")
    if isinstance(board, str):
        try:
            grid = parse_grid(board, shape=puzzle.shape, allow_conflicts=True)
        except InvalidPuzzleError as e:
            raise RequestError(f"'grid' cannot be read: {e}", 422) from None
        values: Sequence[int] = grid.cells
    elif isinstance(board, list):
        n = puzzle.shape.n
        if len(board) != puzzle.shape.size:
            raise RequestError(f"'grid' must hold {puzzle.shape.size} digits; got {len(board)}")
        for i, v in enumerate(board):
            if type(v) is not int or not 0 <= v <= n:
                raise RequestError(f"grid[{i}] must be a whole number 0-{n}, got {v!r:.40}")
        values = board
    else:
        raise RequestError(f"'grid' must be a text or a list of digits, got {type(board).__name__}")
    moved = [c for c, v in enumerate(puzzle.cells) if v and values[c] != v]
    if moved:
        raise RequestError(f"'grid' changes the clue at {puzzle.shape.cell_name(moved[0])}", 422)
    solution = _solution(puzzle)
    n = puzzle.shape.n
    wrong = [[c // n + 1, c % n + 1] for c, v in enumerate(values) if v and v != solution[c]]
    empty = sum(1 for v in values if not v)
    return {"wrong": wrong, "empty": empty, "solved": not wrong and not empty}


# Puzzles for the bank ------------------------------------------------------------------------


def fill_one(
    target: str,
    shape_text: str,
    level: str | None,
    er: tuple[float, float] | None,
    require: tuple[str, ...],
    symmetry: str | None,
    timeout: float,
) -> str:
    """Make one puzzle of the target, store it in the bank at ``target`` and return its
    canonical id (``bank fill``'s resumable run: each call goes on from the last one)."""
    shape = Shape.parse(shape_text)
    bank = _bank(target)
    try:
        for added in bank.fill(
            1,
            shape=shape,
            symmetry=symmetry or "rot180",
            level=level,
            er=er,
            require=require or None,
            timeout=timeout,
        ):
            return added.entry.id
    except GenerationError:
        pass
    except ValueError as e:  # a target no puzzle can meet
        raise RequestError(str(e), 422) from None
    raise RequestError(none_made(shape, level, timeout), 503)


def none_made(shape: Shape, level: str | None, limit: float) -> str:
    what = f"{level} " if level else ""
    return (
        f"the bank has no {what}{shape.n}x{shape.n} puzzle that fits, and none was made within "
        f"{limit:g} s; try again later, or ask for another level or size"
    )


def daily_seed(secret: bytes, day: str, level: str) -> int:
    """The seed of the daily puzzle of ``level`` on ``day`` (``YYYY-MM-DD``) for a bank."""
    digest = hashlib.sha256(secret + f"daily {day} {level}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def daily_id(target: str, seed: int, level: str, timeout: float) -> str:
    """The canonical id of the daily puzzle of ``seed`` (see :func:`daily_seed`): made by the
    generator from that seed, so the same on every server and every day's request, and stored
    in the bank. When no such puzzle is made in time, a pick from the bank's puzzles of the
    level by the same seed (the same for everybody while those puzzles do not change)."""
    bank = _bank(target)
    shape = Shape(3, 3)
    try:
        made = generate(level=level, shape=shape, seed=seed, timeout=timeout)
    except GenerationError:
        picked = bank.query(
            Filters(level=Level.parse(level), shape=shape),
            randomly=True,
            rng=random.Random(seed),
        )
        if not picked:
            raise RequestError(
                f"no {level} puzzle of the day was made in time, and the bank has none of that "
                "level to stand in; try again later",
                503,
            ) from None
        return picked[0].id
    added = bank.add_puzzles([made.puzzle], source=f"daily seed={seed}")[0]
    if not isinstance(added, Added):  # pragma: no cover - the generator's puzzles are unique
        raise RequestError(f"the daily puzzle could not be stored: {added}", 503)
    return added.entry.id
