"""The routes of work on any puzzle: solve, rate, explain, and for play a hint from a
player's position and a check of a board. Each runs in the worker pool within the time
limit (:mod:`sudokit.web.work`)."""

from __future__ import annotations

import time
from typing import Any

from fastapi import FastAPI, Request

from . import work
from .refusals import ERRORS
from .schema import CheckIn, GridOut, HintIn, PuzzleIn
from .state import state

__all__ = ["add_routes"]


async def solve(request: Request, body: PuzzleIn) -> dict[str, Any]:
    """The one solution of a puzzle, as a grid (422 when it has none or more than one)."""
    return dict(await state(request).cpu(work.solve, body))


async def rate(request: Request, body: PuzzleIn) -> dict[str, Any]:
    """Sudoku Explainer's ER/EP/ED, the level, the hardest technique, HoDoKu's grade."""
    s = state(request)
    deadline = time.monotonic() + s.settings.time_limit
    return dict(await s.cpu(work.rate_puzzle, body, deadline))


async def explain(request: Request, body: PuzzleIn) -> dict[str, Any]:
    """The logic engine's solve path; each step in the step schema (components: Step)
    with its hint texts."""
    s = state(request)
    deadline = time.monotonic() + s.settings.time_limit
    return dict(await s.cpu(work.explain, body, deadline))


async def hint(request: Request, body: HintIn) -> dict[str, Any]:
    """A hint for a player's position (own pencil marks included), at detail 1, 2 or 3:
    ``{kind, detail, text, step}``, the step carrying only what the detail tells (1:
    where to look); a mistake on the board is pointed at first."""
    return dict(await state(request).cpu(work.hint, body))


async def check(request: Request, body: CheckIn) -> dict[str, Any]:
    """Which entries of a board are wrong."""
    return dict(await state(request).cpu(work.check, body))


def add_routes(app: FastAPI) -> None:
    """Serve these routes on ``app`` (in this order: the schema lists them so)."""
    app.post("/api/v1/solve", response_model=GridOut, responses=ERRORS, tags=["engines"])(solve)
    app.post("/api/v1/rate", responses=ERRORS, tags=["engines"])(rate)
    app.post("/api/v1/explain", responses=ERRORS, tags=["engines"])(explain)
    app.post("/api/v1/hint", responses=ERRORS, tags=["play"])(hint)
    app.post("/api/v1/check", responses=ERRORS, tags=["play"])(check)
