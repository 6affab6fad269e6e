"""The puzzle service: an ASGI application (FastAPI) over the bank and the engines, with the
play page.

Why FastAPI (over bare Starlette, which it is built on): the OpenAPI schema and its docs page
come from the same typed request models that validate the input, so the schema cannot drift
from what the server accepts, and the property tests (schemathesis) generate their requests
from it. Everything else is Starlette: the routing, the middleware, the test server.

Terms:

- A **served puzzle** is a random isomorph of a stored puzzle with an opaque, signed **puzzle
  id** (:mod:`sudokit.web.ids`); ``GET /api/v1/puzzle/{id}`` and ``…/solution`` accept it.
- **Quick work** (a bank read, mapping a stored puzzle) runs in a thread, so the event loop
  never waits on the database; **CPU work** (generation, solving, rating, explaining, hints,
  checks) runs in the process pool (:mod:`sudokit.web._pool`) within the time limit: past
  it, the job is killed and the client gets a 503 saying so.
- Every error is JSON, ``{"error": "what was wrong"}``: 4xx for a bad request (with the
  parameter or key named), 503 for work not done in time, 500 for a bug (logged, no trace
  sent). Bodies over ``max_body`` bytes are refused with a 413 before they are read whole.

Run it with ``sudokit serve`` or any ASGI server: ``uvicorn sudokit.web.app:app`` serves the
bank of ``$SUDOKIT_DB`` (default ``sudokit.db``); :func:`create_app` makes one for a given bank.

>>> app = create_app("sqlite:///:memory:/x.db")  # nothing is opened until it starts
>>> sorted(r for r in ROUTES if r.startswith("/api/v1/puzzle"))
['/api/v1/puzzle', '/api/v1/puzzle/{puzzle_id}', '/api/v1/puzzle/{puzzle_id}/solution']
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import logging
import os
import random
import re
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, Field, ValidationError
from starlette.datastructures import QueryParams
from starlette.exceptions import HTTPException

from .._grid import Grid
from .._shape import Shape
from ..bank import Bank, Filters, Stored
from ..canon import Transform, random_isomorph
from ..difficulty import Request as Wanted  # (Request is the HTTP request here)
from ..difficulty import difficulty, refuse_unreachable, step_names
from ..generator import SYMMETRIES
from ..logic import STEP_SCHEMA
from ..rating import Level
from . import ids, page, work
from ._pool import JobFailed, JobTimeout, WorkerPool
from .api import LEVELS, SIDES, RequestError, parse_shape
from .schema import CheckIn, ErrorOut, GridOut, HintIn, PuzzleIn, Served, SolutionOut

__all__ = ["MAX_BODY", "ROUTES", "TIME_LIMIT", "Settings", "create_app", "from_env"]

_log = logging.getLogger("sudokit.web")

#: The largest request body accepted, in bytes (a 16x16 hint request is about 3 KiB).
MAX_BODY = 64 * 1024
#: Seconds a request may spend on CPU work (waiting for a worker included) before a 503.
TIME_LIMIT = 15.0
#: How long the catalog of the bank's levels and shapes is reused before it is counted again.
_CATALOG_TTL = 60.0

ROUTES = {
    "/",
    "/static/play.css",
    "/static/play.js",
    "/api/v1/puzzle",
    "/api/v1/puzzle/{puzzle_id}",
    "/api/v1/puzzle/{puzzle_id}/solution",
    "/api/v1/daily",
    "/api/v1/catalog",
    "/api/v1/solve",
    "/api/v1/rate",
    "/api/v1/explain",
    "/api/v1/hint",
    "/api/v1/check",
    "/api/v1/openapi.json",
    "/api/v1/docs",
}

_PAGE_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


@dataclass
class Settings:
    """What one application serves and how: the bank (a path or URL), the pool's size
    (None: one worker per CPU), the time limit for CPU work, the body limit, and the
    ``Host`` names accepted (None: any; ``sudokit serve`` on a loopback address accepts
    only loopback names, against DNS rebinding)."""

    db: str = "sudokit.db"
    workers: int | None = None
    time_limit: float = TIME_LIMIT
    max_body: int = MAX_BODY
    allowed_hosts: tuple[str, ...] | None = None
    nice: int = 10


class _Picks:
    """Random picks from the bank, a run at a time: one query fetches a random run of
    ``size`` stored puzzles that fit a filter (:meth:`sudokit.bank.Bank.query`: the rows
    after a random point in the bank's random order, so a uniform sample), and requests take
    them one by one. One bank round trip then serves ``size`` requests; each request still
    gets its own random isomorph.

    The next run is fetched once a run is down to a quarter, as a task of its own, so under a
    steady stream of requests none waits for the bank: only the first request for a filter,
    or one that finds the run empty while its refill is still on the way, awaits the query
    (and the requests that find it empty together share that one query)."""

    def __init__(self, bank: Bank, size: int = 24, keep: int = 256) -> None:
        self.bank = bank
        self.size = size
        self.keep = keep  # filters remembered at most
        self._runs: OrderedDict[Filters, list[Stored]] = OrderedDict()
        self._refills: dict[Filters, asyncio.Task[int]] = {}

    async def take(self, filters: Filters) -> Stored | None:
        while True:
            run = self._runs.get(filters)
            refill = self._refills.get(filters)
            if refill is None and (run is None or len(run) <= self.size // 4):
                refill = asyncio.create_task(self._refill(filters))
                self._refills[filters] = refill
            if run:
                return run.pop()
            assert refill is not None
            if not await asyncio.shield(refill):  # a cancelled request leaves it to the rest
                return None  # the bank has none that fits
            # else take from the fresh run, or wait for the next if others emptied it first

    async def _refill(self, filters: Filters) -> int:
        """Fetch a run for ``filters`` under what is left of the last: how many it found."""
        try:
            if self.bank.dialect == "sqlite":
                # Here, on the event loop: a run of 24 takes about 3 ms, a pause short enough
                # for the requests behind it (runs of 64 and more set the p99 latency under
                # load). In a thread it took far longer while the loop was busy, and requests
                # that found the run empty waited for it: SQLite gives up the GIL at every
                # row, and each time the thread waited a switch interval (5 ms) to take it
                # back from the loop (the convoy effect).
                fresh = self.bank.query(filters, limit=self.size, randomly=True)
            else:  # one network round trip: the thread gives the GIL up once
                fresh = await asyncio.to_thread(
                    self.bank.query, filters, limit=self.size, randomly=True
                )
        finally:
            del self._refills[filters]
        run = self._runs.setdefault(filters, [])
        run[:0] = fresh  # pop() serves the older rows first
        self._runs.move_to_end(filters)
        while len(self._runs) > self.keep:
            self._runs.popitem(last=False)
        return len(fresh)


@dataclass
class _State:
    settings: Settings
    bank: Bank
    secret: bytes
    pool: WorkerPool
    picks: _Picks
    catalog: tuple[float, dict[str, Any]] | None = None
    daily: dict[tuple[str, str], str] = field(default_factory=dict)
    # The isomorphs' randomness: seeded from os.urandom in each server process as it starts
    # (a generator made per request cost as much as the rest of the isomorph).
    rng: random.Random = field(default_factory=random.Random)


# Request and answer models ---------------------------------------------------------------------

IdPath = Annotated[str, Path(description="A puzzle id from /puzzle or /daily.", max_length=256)]


class PuzzleQuery(BaseModel):
    """The query of ``GET /puzzle``: validated by this model in the route itself, and the
    operation's parameters in the schema are made from its fields (:func:`_parameters`).
    FastAPI's own handling of five declared query parameters cost a fifth of the request."""

    level: Annotated[Literal[LEVELS] | None, Field(description="SE level.")] = None  # type: ignore[valid-type]
    er: Annotated[
        str | None, Field(description="SE rating or range, e.g. '7-9'.", max_length=16)
    ] = None
    require: Annotated[
        list[Annotated[str, Field(max_length=64)]] | None,
        Field(description="Techniques (or groups) the solve path uses.", max_length=8),
    ] = None
    shape: Annotated[
        str, Field(description="Side ('9') or boxes ('3x3'), up to 16x16.", max_length=16)
    ] = "3x3"
    symmetry: Literal[tuple(SYMMETRIES)] | None = None  # type: ignore[valid-type]

    @classmethod
    def of(cls, query: QueryParams) -> PuzzleQuery:
        """The query's values (a list for ``require``, which may come more than once);
        :class:`RequestValidationError` as FastAPI raises it (``loc`` ``("query", name)``)."""
        raw = {
            k: query.getlist(k) if k in _REPEATED else query[k]
            for k in cls.model_fields
            if k in query
        }
        try:
            return cls.model_validate(raw)
        except ValidationError as e:
            errors = [{**err, "loc": ("query", *err["loc"])} for err in e.errors()]
            raise RequestValidationError(errors) from None


_REPEATED = ("require",)


def _parameters(model: type[BaseModel]) -> list[dict[str, Any]]:
    """The OpenAPI query parameters of ``model``'s fields, as FastAPI writes a declared
    ``Query`` parameter (the field's JSON schema, its description beside it)."""
    schema = model.model_json_schema()
    out = []
    for name, prop in schema["properties"].items():
        param = {"name": name, "in": "query", "required": name in schema.get("required", ())}
        param["schema"] = prop
        if "description" in prop:
            param["description"] = prop["description"]
        out.append(param)
    return out


_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut, "description": what}
    for code, what in (
        (
            400,
            "The request does not fit the schema: malformed JSON, a missing or unknown key, "
            "a value of the wrong type, out of range or unreadable.",
        ),
        (404, "No such puzzle or path, or no stored puzzle that fits."),
        (413, "The body is too large."),
        (
            422,
            "A well-formed request that cannot be answered: a puzzle without exactly one "
            "solution, a board that changes a clue, a level or rating no puzzle of the shape "
            "reaches, a day without a daily puzzle.",
        ),
        (503, "The work did not finish within the time limit."),
    )
}


# Helpers --------------------------------------------------------------------------------------

#: Errors of the request schema's own checks (sudokit.web.schema): their message names the
#: key and the problem, and goes first among a union's alternatives.
_OWN_CHECKS = ("grid_type", "grid_digit", "mark_mask")


def _invalid_message(errors: Sequence[Any]) -> str:
    """The message of a 400 for a request that does not fit the schema: the first problem,
    naming the key or parameter (``'puzzle' must be a text or a list of digits, got an
    object``; ``missing key 'puzzle'``; ``level: Input should be 'easy', ...``)."""
    if not errors:
        return "the request does not fit the schema"
    first = next((err for err in errors if err.get("type") in _OWN_CHECKS), errors[0])
    kind = first.get("type")
    if kind == "json_invalid":
        return f"malformed JSON: {first.get('ctx', {}).get('error', 'not JSON')}"
    loc = [str(p) for p in first.get("loc", ()) if p not in ("body", "query", "path")]
    # Drop the union's branch names pydantic puts in the location (str, list[int], ...).
    loc = [p for p in loc if not p.startswith(("str", "list[", "function-", "nullable["))]
    where = ".".join(loc)
    if kind in _OWN_CHECKS:
        return str(first.get("msg"))
    if kind == "missing":
        return f"missing key {where!r}" if where else "missing body"
    if kind == "extra_forbidden":
        return f"unknown key {where!r}"
    if kind == "model_attributes_type" or (kind == "dict_type" and not where):
        return "the body must be a JSON object"
    return f"{where or 'the request'}: {first.get('msg', 'invalid value')}"


def _error(status: int, message: str, **headers: str) -> JSONResponse:
    return JSONResponse(
        {"error": message}, status_code=status, headers={"Cache-Control": "no-store", **headers}
    )


_ER = re.compile(r"^\s*(\d{1,2}(?:\.\d{1,2})?)\s*(?:(?:-|\.\.)\s*(\d{1,2}(?:\.\d{1,2})?))?\s*$")


def _er(text: str | None) -> tuple[float, float] | None:
    if text is None:
        return None
    m = _ER.match(text)
    if m is None:
        raise RequestError(f"er must be a rating or a range such as '7-9', got {text!r:.40}")
    lo = float(m.group(1))
    hi = float(m.group(2)) if m.group(2) is not None else lo
    if lo > hi:
        raise RequestError(f"er range {text!r:.40} runs backwards")
    return lo, hi


def _reachable(filters: Filters, shape: Shape) -> None:
    """A 422 naming why, when no puzzle of ``shape`` can meet ``filters`` (a level above what
    the shape reaches, an ER range outside the level, a technique rated above the range)."""
    try:
        wanted = difficulty(level=filters.level, rating=filters.er, require=filters.require or None)
        if wanted is not None:
            refuse_unreachable(wanted, shape)
    except ValueError as e:
        raise RequestError(str(e), 422) from None


#: The first day with a daily puzzle.
DAILY_FROM = dt.date(2026, 1, 1)
#: The earliest time zone's offset: its today is the last day with a daily puzzle.
_EARLIEST_ZONE = dt.timezone(dt.timedelta(hours=14))


def _daily_window(day: dt.date) -> None:
    """A 422 for a day outside the daily puzzles' window, from :data:`DAILY_FROM` to today
    where it is latest (UTC+14): each day's puzzle is stored, so an open window would let
    any client add a puzzle to the bank for every date there is."""
    last = dt.datetime.now(_EARLIEST_ZONE).date()
    if not DAILY_FROM <= day <= last:
        raise RequestError(
            f"date {day.isoformat()} has no daily puzzle; there is one for every day from "
            f"{DAILY_FROM.isoformat()} to {last.isoformat()}",
            422,
        )


def _require(values: list[str] | None) -> tuple[str, ...]:
    names = tuple(n.strip() for v in values or () for n in v.split(",") if n.strip())
    for name in names:
        try:
            step_names(name)
        except ValueError as e:
            raise RequestError(f"require: {e}") from None
    return names


def isomorph(stored: Stored, rng: random.Random) -> tuple[Transform, Grid]:
    """A random transform that shows ``stored`` (from its shown form, the generator's clue
    pattern) relabelled and moved, keeping the pattern's symmetry, and the grid it shows; its
    inverse maps the served puzzle back to the shown one."""
    return random_isomorph(stored.shown, rng, stored.symmetry)


def _served(
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
        level=r.level.name.lower(),
        er=r.er,
        ep=r.ep,
        ed=r.ed,
        hardest=r.hardest,
        date=date,
    )
    return Response(served.model_dump_json(), media_type="application/json")


# The application -------------------------------------------------------------------------------


def create_app(db: str | None = None, settings: Settings | None = None) -> FastAPI:
    """The service over the bank at ``db`` (a path or URL; default ``$SUDOKIT_DB``, else
    ``sudokit.db``). The bank is opened and the worker pool started when the application
    starts (the ASGI lifespan), and both closed when it stops."""
    settings = settings or Settings()
    if db is not None:
        settings.db = db
    elif os.environ.get("SUDOKIT_DB"):
        settings.db = os.environ["SUDOKIT_DB"]
    holder: dict[str, _State] = {}

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        bank = await asyncio.to_thread(Bank, settings.db)
        try:
            secret = await asyncio.to_thread(bank.secret)
            pool = WorkerPool(settings.workers, nice=settings.nice)
            await pool.start()
            holder["state"] = _State(settings, bank, secret, pool, _Picks(bank))
            try:
                yield
            finally:
                await pool.close()
        finally:
            bank.close()

    app = FastAPI(
        title="sudokit puzzle service",
        version="1",
        summary="Sudoku puzzles with exactly one solution, rated, explained and hinted.",
        description="Puzzles from a bank, served as random isomorphs with signed ids; "
        "solving, Sudoku Explainer ratings, explanations and hints for any puzzle. Errors are "
        '`{"error": "..."}`. CPU work has a time limit: past it, a 503.',
        lifespan=lifespan,
        openapi_url="/api/v1/openapi.json",
        docs_url=None,
        redoc_url=None,
    )
    app.add_middleware(_Guard, settings=settings)

    def state() -> _State:
        return holder["state"]

    async def cpu(fn: Callable[..., Any], *args: Any, late: str | None = None) -> Any:
        """``fn(*args)`` in the pool; past the time limit a 503 saying ``late`` or that the
        work did not finish."""
        s = state()
        try:
            return await s.pool.run(fn, *args, timeout=s.settings.time_limit)
        except JobTimeout:
            limit = s.settings.time_limit
            why = late or f"the work did not finish within {limit:g} s, the time limit"
            raise RequestError(why, 503) from None

    # Errors.

    @app.exception_handler(RequestError)
    async def request_error(_request: Request, e: RequestError) -> JSONResponse:
        extra = {"Retry-After": "5"} if e.status == 503 else {}
        return _error(e.status, str(e), **extra)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, e: RequestValidationError) -> JSONResponse:
        return _error(400, _invalid_message(e.errors()))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, e: HTTPException) -> JSONResponse:
        path = request.url.path
        if e.status_code == 404:
            return _error(404, f"no such path {path!r:.80}")
        if e.status_code == 405:
            return _error(
                405,
                f"method {request.method} is not allowed on {path:.80}",
                **(e.headers or {}),
            )
        return _error(e.status_code, str(e.detail))

    @app.exception_handler(JobFailed)
    async def failed(_request: Request, e: JobFailed) -> JSONResponse:  # the pool logged it
        return _error(500, "internal error in the sudokit server")

    @app.exception_handler(Exception)
    async def bug(_request: Request, e: Exception) -> JSONResponse:  # logged by the server
        return _error(500, "internal error in the sudokit server")

    # The page.

    @app.get("/", include_in_schema=False)
    async def play_page() -> HTMLResponse:
        return HTMLResponse(
            page.served_page(),
            headers={"Content-Security-Policy": _PAGE_POLICY, "Cache-Control": "no-cache"},
        )

    @app.get("/static/{name}", include_in_schema=False)
    async def asset(name: str) -> Response:
        if name not in page.ASSETS:
            return _error(404, f"no such file {name!r:.40}")
        return Response(
            page.asset(name), media_type=page.ASSETS[name], headers={"Cache-Control": "no-cache"}
        )

    @app.get("/api/v1/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return _docs_page(app.openapi())

    # Puzzles from the bank.

    @app.get(
        "/api/v1/puzzle",
        response_model=Served,
        responses=_ERRORS,
        tags=["puzzles"],
        openapi_extra={"parameters": _parameters(PuzzleQuery)},
    )
    async def get_puzzle(request: Request) -> Response:
        """A random puzzle that fits, as a random isomorph. When the bank has none of a
        level, shape and symmetry, one is made, stored and served within the time limit (else
        a 503); with an ER range or required techniques, a 404. What no puzzle of the shape
        can be (a 4x4 above easy) is a 422 at once."""
        s = state()
        q = PuzzleQuery.of(request.query_params)
        level, symmetry = q.level, q.symmetry
        shape_ = parse_shape(q.shape)
        filters = Filters(
            level=Level.parse(level) if level else None,
            er=_er(q.er),
            require=_require(q.require),
            shape=shape_,
            symmetry=symmetry,
        )
        _reachable(filters, shape_)
        stored = await s.picks.take(filters)
        if stored is None:
            if filters.er is not None or filters.require:
                # Made on demand only for the finite choices of level, shape and symmetry:
                # an anonymous GET must not grow the bank by a puzzle per ER range asked.
                raise RequestError(
                    "the bank has no puzzle that fits; puzzles for an ER range or required "
                    "techniques are served from the bank alone (sudokit bank fill makes them)",
                    404,
                )
            try:  # checked once, here; the worker gets the value
                wanted = Wanted.of(shape=shape_, symmetry=symmetry, level=level)
            except ValueError as e:  # a target no puzzle can meet
                raise RequestError(str(e), 422) from None
            cid = await cpu(
                work.fill_one,
                s.settings.db,
                wanted,
                s.settings.time_limit,
                late=work.none_made(shape_, level, s.settings.time_limit),
            )
            stored = await asyncio.to_thread(s.bank.get, cid)
            if stored is None:  # pragma: no cover - the worker stored it
                raise RequestError("the puzzle made was not stored", 503)
        return _served(stored, *isomorph(stored, s.rng), s.secret)

    async def by_id(puzzle_id: str) -> tuple[Stored, Transform]:
        s = state()
        named = ids.decode(puzzle_id, s.secret)
        if named is None:
            raise RequestError(f"unknown puzzle id {puzzle_id!r:.60}", 404)
        stored = await asyncio.to_thread(s.bank.get, named[0])
        if stored is None:
            raise RequestError(f"puzzle {puzzle_id!r:.60} is no longer in the bank", 404)
        return stored, named[1]

    @app.get(
        "/api/v1/puzzle/{puzzle_id}", response_model=Served, responses=_ERRORS, tags=["puzzles"]
    )
    async def get_puzzle_by_id(puzzle_id: IdPath) -> Response:
        """The puzzle of an id, as it was served."""
        stored, t = await by_id(puzzle_id)
        return _served(stored, t, t.apply(stored.shown), state().secret)

    @app.get(
        "/api/v1/puzzle/{puzzle_id}/solution",
        response_model=SolutionOut,
        responses=_ERRORS,
        tags=["puzzles"],
    )
    async def get_solution(puzzle_id: IdPath) -> SolutionOut:
        """The solution of the puzzle of an id, in the served form."""
        stored, t = await by_id(puzzle_id)
        grid = await asyncio.to_thread(lambda: t.apply(stored.shown_solution()))
        return SolutionOut(id=puzzle_id, **work.grid_out(grid))

    @app.get("/api/v1/daily", response_model=Served, responses=_ERRORS, tags=["puzzles"])
    async def daily(
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
        s = state()
        day = (date or dt.datetime.now(dt.UTC).date()).isoformat()
        if date is not None:
            _daily_window(date)
        seed = work.daily_seed(s.secret, day, level)
        cid = s.daily.get((day, level))
        if cid is None:
            budget = 0.6 * s.settings.time_limit  # the rest for the pick from the bank
            cid = await cpu(work.daily_id, s.settings.db, seed, level, budget)
            if len(s.daily) > 64:
                s.daily.clear()
            s.daily[(day, level)] = cid
        stored = await asyncio.to_thread(s.bank.get, cid)
        if stored is None:  # pragma: no cover - stored by the worker
            s.daily.pop((day, level), None)
            raise RequestError("the daily puzzle is no longer in the bank; ask again", 503)
        return _served(stored, *isomorph(stored, random.Random(seed)), s.secret, date=day)

    @app.get("/api/v1/catalog", tags=["puzzles"])
    async def catalog() -> dict[str, Any]:
        """What the bank holds, by shape and level (for the play page's choices)."""
        s = state()
        now = time.monotonic()
        if s.catalog is None or now - s.catalog[0] > _CATALOG_TTL:
            s.catalog = (now, await asyncio.to_thread(_catalog, s.bank))
        return s.catalog[1]

    # Work on any puzzle.

    @app.post("/api/v1/solve", response_model=GridOut, responses=_ERRORS, tags=["engines"])
    async def solve(body: PuzzleIn) -> dict[str, Any]:
        """The one solution of a puzzle, as a grid (422 when it has none or more than one)."""
        return dict(await cpu(work.solve, body.model_dump()))

    @app.post("/api/v1/rate", responses=_ERRORS, tags=["engines"])
    async def rate(body: PuzzleIn) -> dict[str, Any]:
        """Sudoku Explainer's ER/EP/ED, the level, the hardest technique, HoDoKu's grade."""
        deadline = time.monotonic() + state().settings.time_limit
        return dict(await cpu(work.rate_puzzle, body.model_dump(), deadline))

    @app.post("/api/v1/explain", responses=_ERRORS, tags=["engines"])
    async def explain(body: PuzzleIn) -> dict[str, Any]:
        """The logic engine's solve path; each step in the step schema (components: Step)
        with its hint texts."""
        deadline = time.monotonic() + state().settings.time_limit
        return dict(await cpu(work.explain, body.model_dump(), deadline))

    @app.post("/api/v1/hint", responses=_ERRORS, tags=["play"])
    async def hint(body: HintIn) -> dict[str, Any]:
        """A hint for a player's position (own pencil marks included), at detail 1, 2 or 3:
        ``{kind, detail, text, step}``, the step carrying only what the detail tells (1:
        where to look); a mistake on the board is pointed at first."""
        return dict(await cpu(work.hint, body.model_dump()))

    @app.post("/api/v1/check", responses=_ERRORS, tags=["play"])
    async def check(body: CheckIn) -> dict[str, Any]:
        """Which entries of a board are wrong."""
        return dict(await cpu(work.check, body.model_dump()))

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            from fastapi.openapi.utils import get_openapi

            schema = get_openapi(
                title=app.title,
                version=app.version,
                summary=app.summary,
                description=app.description,
                routes=app.routes,
            )
            step = {k: v for k, v in STEP_SCHEMA.items() if k != "$schema"}
            schema.setdefault("components", {}).setdefault("schemas", {})["Step"] = step
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app


def _catalog(bank: Bank) -> dict[str, Any]:
    shapes = []
    for side, shape in SIDES.items():
        counts = {
            name: bank.count(Filters(level=Level.parse(name), shape=shape)) for name in LEVELS
        }
        shapes.append({"shape": str(shape), "n": side, "levels": counts})
    return {"levels": list(LEVELS), "shapes": shapes}


def _docs_page(schema: dict[str, Any]) -> HTMLResponse:
    """The API's docs: every path, its parameters and body, from the OpenAPI schema, as one
    self-contained page (no scripts from elsewhere)."""
    from html import escape

    parts = [
        "<!doctype html><meta charset='utf-8'><title>sudokit API</title>",
        "<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;"
        "padding:0 1rem}code,pre{background:#f4f4f8;padding:0 .2em}h2{margin-top:2rem}"
        ".m{font-weight:bold;color:#4f46e5}</style>",
        f"<h1>{escape(schema['info']['title'])}</h1>",
        f"<p>{escape(schema['info'].get('description', ''))}</p>",
        "<p>Machine-readable: <a href='/api/v1/openapi.json'>/api/v1/openapi.json</a> "
        "(OpenAPI 3.1).</p>",
    ]
    for path, methods in schema["paths"].items():
        for method, op in methods.items():
            parts.append(
                f"<h2><span class='m'>{method.upper()}</span> <code>{escape(path)}</code></h2>"
            )
            parts.append(f"<p>{escape(op.get('description') or op.get('summary') or '')}</p>")
            params = op.get("parameters", [])
            if params:
                parts.append("<ul>")
                for p in params:
                    desc = p.get("description") or p.get("schema", {}).get("description", "")
                    parts.append(
                        f"<li><code>{escape(p['name'])}</code> ({escape(p['in'])}): "
                        f"{escape(desc)}</li>"
                    )
                parts.append("</ul>")
            body = op.get("requestBody", {}).get("content", {}).get("application/json")
            if body:
                ref = body["schema"].get("$ref", "").rsplit("/", 1)[-1]
                model = schema["components"]["schemas"].get(ref, {})
                parts.append(f"<p>JSON body <code>{escape(ref)}</code>:</p><ul>")
                for name, prop in model.get("properties", {}).items():
                    desc = prop.get("description", "")
                    parts.append(f"<li><code>{escape(name)}</code>: {escape(desc)}</li>")
                parts.append("</ul>")
    return HTMLResponse("\n".join(parts))


# Plumbing: a guard in front of the application --------------------------------------------------

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class _Guard:
    """Pure ASGI middleware (no BaseHTTPMiddleware: a client that hangs up must not turn
    into a traceback): refuses unexpected ``Host`` headers (403) and bodies over the limit
    (413, told by Content-Length or found while reading), then hands the body, read whole,
    to the application."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        allowed = self.settings.allowed_hosts
        if allowed is not None:
            host = headers.get("host", "")
            name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            if name.lower() not in allowed:
                await _send_error(send, 403, f"unexpected Host header {host!r:.60}")
                return
        limit = self.settings.max_body
        length = headers.get("content-length")
        if length is not None:
            if not length.strip().isdecimal():
                await _send_error(send, 400, f"bad Content-Length {length!r:.40}")
                return
            if int(length) > limit:
                await _send_error(send, 413, f"body too large: {length} bytes, at most {limit}")
                return
        if scope["method"] in ("GET", "HEAD", "DELETE", "OPTIONS") and length is None:
            await self.app(scope, receive, send)
            return
        chunks = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # the client hung up: nothing to answer
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await _send_error(send, 413, f"body too large: over {limit} bytes")
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _send_error(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def from_env() -> FastAPI:
    """The service as ``sudokit serve`` configures it, through the environment (so every
    uvicorn worker process makes the same one): ``SUDOKIT_DB``, ``SUDOKIT_POOL`` (worker
    processes for CPU work), ``SUDOKIT_TIME_LIMIT`` (seconds), ``SUDOKIT_HOSTS`` (the
    ``Host`` names accepted, comma-separated; unset: any)."""
    env = os.environ
    hosts = env.get("SUDOKIT_HOSTS")
    settings = Settings(
        workers=int(env["SUDOKIT_POOL"]) if env.get("SUDOKIT_POOL") else None,
        time_limit=float(env.get("SUDOKIT_TIME_LIMIT") or TIME_LIMIT),
        allowed_hosts=tuple(h.strip().lower() for h in hosts.split(",")) if hosts else None,
    )
    return create_app(env.get("SUDOKIT_DB") or "sudokit.db", settings)


def __getattr__(name: str) -> Any:
    """``app``: the service over ``$SUDOKIT_DB``, made on first use (``uvicorn
    sudokit.web.app:app``)."""
    if name == "app":
        made = create_app()
        globals()["app"] = made
        return made
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
