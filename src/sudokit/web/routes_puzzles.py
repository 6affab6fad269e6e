"""The routes of puzzles from the bank: a random one that fits (``/puzzle``), one by its id and
its solution, the daily puzzle and the catalog. A served puzzle is a random isomorph of a
stored one with a signed id (:mod:`sudokit.web.ids`)."""

from __future__ import annotations

import asyncio
import datetime as dt
import random
import time
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Path, Query, Request
from fastapi.responses import Response

from .._grid import Grid
from .._shape import Shape
from ..bank import Bank, Filters, Stored
from ..canon import Transform, random_isomorph
from ..difficulty import REQUEST_FIELDS
from ..difficulty import Request as Wanted  # (Request is the HTTP request here)
from ..errors import InvalidRulesError
from ..rating import KillerLevel
from ..rules import CLASSIC, Rules, geometry
from . import ids, work
from .api import LEVELS, SIDES, RequestError, parse_rules, parse_shape
from .query import PuzzleQuery, daily_window, er_range, parameters, reachable, required
from .refusals import ERRORS
from .schema import Served, SolutionOut
from .state import state

__all__ = [
    "CATALOG_TTL",
    "add_routes",
    "catalog_of",
    "isomorph",
    "killer_kind",
    "rules_for",
    "served",
]

#: How long the catalog of the bank's levels and shapes is reused before it is counted again.
CATALOG_TTL = 60.0

IdPath = Annotated[str, Path(description="A puzzle id from /puzzle or /daily.", max_length=256)]


def isomorph(stored: Stored, rng: random.Random) -> tuple[Transform, Grid]:
    """A random transform that shows ``stored`` (from its shown form, the generator's clue
    pattern) relabelled and moved, keeping the pattern's symmetry, and the grid it shows; its
    inverse maps the served puzzle back to the shown one."""
    return random_isomorph(stored.shown, rng, stored.symmetry)


def served(
    stored: Stored, t: Transform, grid: Grid, key: bytes, date: str | None = None
) -> Response:
    """The answer for ``grid``, ``stored`` as ``t`` shows it: a :class:`Served` encoded here
    (pydantic's own JSON), so FastAPI does not validate and encode it again on the way out;
    the route still declares it as its ``response_model`` for the schema."""
    shape = stored.shape
    r = stored.rating
    served = Served(
        id=ids.encode(stored.id, t, key),
        shape=str(shape),
        text=grid.to_line(),
        cells=list(grid.cells),
        n=shape.n,
        box_rows=shape.box_rows,
        box_cols=shape.box_cols,
        clues=grid.clue_count,
        symmetry=stored.symmetry,
        level=r.level_name,
        er=r.er,
        ep=r.ep,
        ed=r.ed,
        hardest=r.hardest,
        rules=str(stored.rules),
        date=date,
    )
    return Response(served.model_dump_json(), media_type="application/json")


async def get_puzzle(request: Request) -> Response:
    """A random puzzle that fits, as a random isomorph. When the bank has none of a
    level, shape and symmetry, one is made, stored and served within the time limit (else
    a 503); with an ER range or required techniques, a 404. What no puzzle of the shape
    can be (a 4x4 above easy) is a 422 at once."""
    s = state(request)
    q = PuzzleQuery.of(request.query_params)
    level, symmetry = q.level, q.symmetry
    shape_ = parse_shape(q.shape)
    kind = killer_kind(q.rules)  # killer with any cages: the bank's killers of that kind
    rules = CLASSIC if kind is not None else rules_for(parse_rules(q.rules), shape_)
    er, require = er_range(q.er), required(q.require)
    try:
        filters = Filters(
            level=level,
            er=er,
            require=require,
            shape=shape_,
            symmetry=symmetry,
            rules=kind or rules,
        )
    except ValueError as e:  # a level of the other kind: SE's for killers, extreme without
        raise RequestError(str(e), 422) from None
    reachable(filters, shape_)
    stored = await s.picks.take(filters)
    if stored is None:
        if (kind is not None or not rules.is_classic) and "rules" not in REQUEST_FIELDS:
            raise RequestError(
                f"the bank has no puzzle of rules {str(rules)!r:.80} that fits; puzzles under "
                "rules are served from the bank alone (this server's generator makes classic "
                "puzzles only)",
                404,
            )
        if filters.er is not None or filters.require:
            # Made on demand only for the finite choices of level, shape and symmetry:
            # an anonymous GET must not grow the bank by a puzzle per ER range asked.
            raise RequestError(
                "the bank has no puzzle that fits; puzzles for an ER range or required "
                "techniques are served from the bank alone (sudokit bank fill makes them)",
                404,
            )
        extra: dict[str, Any] = {}
        if kind is not None or not rules.is_classic:  # a killer: a new cage layout
            extra["rules"] = kind or rules
        try:  # checked once, here; the worker gets the value
            wanted = Wanted.of(shape=shape_, symmetry=symmetry, level=level, **extra)
        except ValueError as e:  # a target no puzzle can meet
            raise RequestError(str(e), 422) from None
        cid = await s.cpu(
            work.fill_one,
            s.settings.db,
            wanted,
            s.settings.time_limit,
            late=work.none_made(shape_, level, s.settings.time_limit),
        )
        stored = await asyncio.to_thread(s.bank.get, cid)
        if stored is None:  # pragma: no cover - the worker stored it
            raise RequestError("the puzzle made was not stored", 503)
    return served(stored, *isomorph(stored, s.rng), s.secret)


async def by_id(request: Request, puzzle_id: str) -> tuple[Stored, Transform]:
    s = state(request)
    named = ids.decode(puzzle_id, s.secret)
    if named is None:
        raise RequestError(f"unknown puzzle id {puzzle_id!r:.60}", 404)
    stored = await asyncio.to_thread(s.bank.get, named[0])
    if stored is None:
        raise RequestError(f"puzzle {puzzle_id!r:.60} is no longer in the bank", 404)
    return stored, named[1]


async def get_puzzle_by_id(request: Request, puzzle_id: IdPath) -> Response:
    """The puzzle of an id, as it was served."""
    stored, t = await by_id(request, puzzle_id)
    return served(stored, t, t.apply(stored.shown), state(request).secret)


async def get_solution(request: Request, puzzle_id: IdPath) -> SolutionOut:
    """The solution of the puzzle of an id, in the served form."""
    stored, t = await by_id(request, puzzle_id)
    grid = await asyncio.to_thread(lambda: t.apply(stored.shown_solution()))
    return SolutionOut(id=puzzle_id, **work.grid_out(grid))


async def daily(
    request: Request,
    level: Annotated[Literal[LEVELS], Query(description="SE level.")] = "medium",  # type: ignore[valid-type]
    date: Annotated[
        dt.date | None,
        Query(
            description="The day (YYYY-MM-DD, UTC; from 2026-01-01 to today in UTC+14); "
            "default today."
        ),
    ] = None,
) -> Response:
    """The daily 9x9 puzzle of a level: the same for everybody on a date."""
    s = state(request)
    day = (date or dt.datetime.now(dt.UTC).date()).isoformat()
    if date is not None:
        daily_window(date)
    seed = work.daily_seed(s.secret, day, level)
    cid = s.daily.get((day, level))
    if cid is None:
        budget = 0.6 * s.settings.time_limit  # the rest for the pick from the bank
        cid = await s.cpu(work.daily_id, s.settings.db, seed, level, budget)
        if len(s.daily) > 64:
            s.daily.clear()
        s.daily[(day, level)] = cid
    stored = await asyncio.to_thread(s.bank.get, cid)
    if stored is None:  # pragma: no cover - stored by the worker
        s.daily.pop((day, level), None)
        raise RequestError("the daily puzzle is no longer in the bank; ask again", 503)
    return served(stored, *isomorph(stored, random.Random(seed)), s.secret, date=day)


async def catalog(request: Request) -> dict[str, Any]:
    """What the bank holds, by shape and level (for the play page's choices)."""
    s = state(request)
    now = time.monotonic()
    if s.catalog is None or now - s.catalog[0] > CATALOG_TTL:
        s.catalog = (now, await asyncio.to_thread(catalog_of, s.bank))
    return s.catalog[1]


def _shapes(bank: Bank, rules: Rules | str) -> list[dict[str, Any]]:
    """The counts of ``rules`` (a killer kind: their text, ``killer``, ``killer+x``) by shape
    and level: SE's levels, or the killer levels for killers."""
    names = KILLER_LEVELS if isinstance(rules, str) else LEVELS
    shapes = []
    for side, shape in SIDES.items():
        counts = {name: bank.count(Filters(level=name, shape=shape, rules=rules)) for name in names}
        shapes.append({"shape": str(shape), "n": side, "levels": counts})
    return shapes


#: The killer levels' names, easiest first.
KILLER_LEVELS: tuple[str, ...] = tuple(map(str, KillerLevel))


def catalog_of(bank: Bank) -> dict[str, Any]:
    """The bank's classic puzzles by shape and level (``shapes``), and those of every other
    rule set it holds by the same (``rules``: rules text to shapes; killers by kind,
    ``killer`` or ``killer+x``, any cages, and by their own levels)."""
    held = [text for text in bank.stats()["rules"] if text != "classic"]
    return {
        "levels": list(LEVELS),
        "shapes": _shapes(bank, CLASSIC),
        "rules": {
            text: _shapes(bank, text if killer_kind(text) else Rules.parse(text))
            for text in sorted(held)
        },
    }


def killer_kind(text: str | None) -> str | None:
    """The kind a ``rules`` text names when it asks for killers with any cages (``killer``,
    ``x+killer``: as the bank's filters spell it, ``killer+x``), else None (a cage layout
    given in full is rules like any other)."""
    if text is None or "killer" not in (p.strip().lower() for p in text.split("+")):
        return None
    try:
        kind = Filters(rules=text).rules
    except ValueError as e:
        raise RequestError(f"'rules': {e}") from None
    assert isinstance(kind, str)
    return kind


def rules_for(rules: Rules | None, shape: Shape) -> Rules:
    """The rules of a request for puzzles of ``shape`` (classic when none are named); a 422
    when they do not fit the shape (windoku on 6x6, a jigsaw map of another side)."""
    if rules is None:
        return CLASSIC
    try:
        geometry(shape, rules)
    except InvalidRulesError as e:
        raise RequestError(f"'rules': {e}", 422) from None
    return rules


def add_routes(app: FastAPI) -> None:
    """Serve these routes on ``app`` (in this order: the schema lists them so)."""
    app.get(
        "/api/v1/puzzle",
        response_model=Served,
        responses=ERRORS,
        tags=["puzzles"],
        openapi_extra={"parameters": parameters(PuzzleQuery)},
    )(get_puzzle)
    app.get(
        "/api/v1/puzzle/{puzzle_id}", response_model=Served, responses=ERRORS, tags=["puzzles"]
    )(get_puzzle_by_id)
    app.get(
        "/api/v1/puzzle/{puzzle_id}/solution",
        response_model=SolutionOut,
        responses=ERRORS,
        tags=["puzzles"],
    )(get_solution)
    app.get("/api/v1/daily", response_model=Served, responses=ERRORS, tags=["puzzles"])(daily)
    app.get("/api/v1/catalog", tags=["puzzles"])(catalog)
