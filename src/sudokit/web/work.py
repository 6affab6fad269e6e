"""The service's CPU work, as plain functions of picklable arguments: each runs in a worker
process of the service's pool (:mod:`sudokit.web._pool`), never on the event loop.

Terms:

- A **grid value** is how a client sends a puzzle (and a board) for every call: a text
  sudokit reads (the 81-character line, a pretty grid, JSON; see
  :func:`sudokit.formats.parse_grid`), or a list of ``n*n`` digits (0 = empty) with the shape
  (:func:`sudokit.web.api.parse_puzzle`). Every answer gives a grid as ``shape``, ``text``
  and ``cells`` (:func:`grid_out`).
- A **deadline** is a :func:`time.monotonic` value: the work that can stop itself between
  steps (rating, explaining) stops there with a 503; the pool kills whatever is still running
  a little later, so nothing outlives its request for long.

A request comes as the typed model the route validated it with (:mod:`sudokit.web.schema`:
its keys, types and ranges checked once, there); a function reads what only the puzzle
tells (the text, the digits' fit to the shape, the clues, the solution) and raises
:class:`~sudokit.web.api.RequestError` (status 4xx, or 503 for work that did not finish in
time) with a message that names the problem.

>>> solve(PuzzleIn(puzzle="1.3...12....4..3"))["text"]
'1234341223414123'
>>> check(CheckIn(puzzle="1.3...12....4..3", grid="1234341223414113"))["wrong"]
[[4, 3]]
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from .._grid import Grid
from .._shape import Shape
from ..bank import Added, Bank, Filters
from ..difficulty import Request, generate
from ..engine import unique_solution
from ..errors import GenerationError, InvalidRulesError, NotUniqueError
from ..logic import Candidates, solve_steps
from ..rating import Level, rate
from .api import RequestError, hint_request, hint_texts, parse_board, parse_puzzle
from .schema import CheckIn, HintIn, PuzzleIn

__all__ = [
    "check",
    "daily_id",
    "daily_seed",
    "explain",
    "fill_one",
    "grid_out",
    "hint",
    "none_made",
    "parse_puzzle",
    "rate_puzzle",
    "solve",
]

# One bank per target, opened once by each worker process.
_banks: dict[str, Bank] = {}


def _bank(target: str) -> Bank:
    if target not in _banks:
        _banks[target] = Bank(target)
    return _banks[target]


def _solution(puzzle: Grid) -> Grid:
    try:
        return unique_solution(puzzle)
    except NotUniqueError as e:
        raise RequestError(f"the puzzle has {e}", 422) from None


_P = ParamSpec("_P")
_T = TypeVar("_T")


def refusing_rules(work: Callable[_P, _T]) -> Callable[_P, _T]:
    """``work`` with a layer's refusal of rules it does not read yet (the logic engine's,
    the rating's) answered as a 422 that names the layer and the rules, not as a bug."""

    @wraps(work)
    def run(*args: _P.args, **kwargs: _P.kwargs) -> _T:
        try:
            return work(*args, **kwargs)
        except InvalidRulesError as e:
            raise RequestError(str(e), 422) from None

    return run


def grid_out(grid: Grid) -> dict[str, Any]:
    """A grid as every answer gives one (:class:`sudokit.web.schema.GridOut`)."""
    return {"shape": str(grid.shape), "text": grid.to_line(), "cells": list(grid.cells)}


@refusing_rules
def solve(body: PuzzleIn) -> dict[str, Any]:
    """A puzzle → its one solution, as a grid."""
    return grid_out(_solution(parse_puzzle(body.puzzle, body.shape, rules_text=body.rules)))


@refusing_rules
def rate_puzzle(body: PuzzleIn, deadline: float) -> dict[str, Any]:
    """A puzzle → its SE rating (ER/EP/ED, level, hardest technique) and its HoDoKu grade."""
    puzzle = parse_puzzle(body.puzzle, body.shape, rules_text=body.rules)
    _solution(puzzle)
    return {**grid_out(puzzle), **rate(puzzle, deadline=deadline, with_hodoku=True).to_dict()}


@refusing_rules
def explain(body: PuzzleIn, deadline: float) -> dict[str, Any]:
    """A puzzle → the logic engine's solve path: each step in the one step schema
    (:data:`sudokit.logic.STEP_SCHEMA`) with its hint texts at detail 1, 2 and 3."""
    puzzle = parse_puzzle(body.puzzle, body.shape, rules_text=body.rules)
    _solution(puzzle)
    state = Candidates.from_grid(puzzle)
    steps = []
    for step in solve_steps(state, in_place=True):
        if time.monotonic() > deadline:
            raise TimeoutError("the explanation ran out of time")
        steps.append({"hints": hint_texts(state, step), "step": step.to_dict(state)})
    return {**grid_out(puzzle), "solved": state.is_solved(), "steps": steps}


@refusing_rules
def hint(body: HintIn) -> dict[str, Any]:
    """A hint for a player's position: :func:`sudokit.web.api.hint_request`."""
    return hint_request(body.puzzle, body.shape, body.grid, body.marks, body.detail, body.rules)


@refusing_rules
def check(body: CheckIn) -> dict[str, Any]:
    """A puzzle and a board → which entries of the board are wrong (``[row, column]``,
    1-based), how many cells are still empty, and whether it is solved. The board must keep
    the puzzle's clues."""
    puzzle = parse_puzzle(body.puzzle, body.shape, rules_text=body.rules)
    values = parse_board(puzzle, body.grid)
    solution = _solution(puzzle)
    n = puzzle.shape.n
    wrong = [[c // n + 1, c % n + 1] for c, v in enumerate(values) if v and v != solution[c]]
    empty = sum(1 for v in values if not v)
    return {"wrong": wrong, "empty": empty, "solved": not wrong and not empty}


# Puzzles for the bank ------------------------------------------------------------------------


def fill_one(target: str, wanted: Request, timeout: float) -> str:
    """Make one puzzle of the request, store it in the bank at ``target`` and return its
    canonical id (``bank fill``'s resumable run: each call goes on from the last one)."""
    bank = _bank(target)
    try:
        for added in bank.fill(1, wanted, timeout=timeout):
            return added.entry.id
    except GenerationError:
        pass
    level = None if wanted.level is None else str(wanted.level)
    raise RequestError(none_made(wanted.shape, level, timeout), 503)


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
