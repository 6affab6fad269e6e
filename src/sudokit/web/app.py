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

The application is made here (:func:`create_app`) from rooms of its own: the routes
(:mod:`~sudokit.web.routes_puzzles`, :mod:`~sudokit.web.routes_engines`,
:mod:`~sudokit.web.routes_page`), what a query asks for (:mod:`~sudokit.web.query`), the
refusals (:mod:`~sudokit.web.refusals`), what a running service holds
(:mod:`~sudokit.web.state`) and the guard in front (:mod:`~sudokit.web.guard`).

Run it with ``sudokit serve`` or any ASGI server: ``uvicorn sudokit.web.app:app`` serves the
bank of ``$SUDOKIT_DB`` (default ``sudokit.db``); :func:`create_app` makes one for a given bank.

>>> app = create_app("sqlite:///:memory:/x.db")  # nothing is opened until it starts
>>> sorted(r for r in ROUTES if r.startswith("/api/v1/puzzle"))
['/api/v1/puzzle', '/api/v1/puzzle/{puzzle_id}', '/api/v1/puzzle/{puzzle_id}/solution']
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI

from ..bank import Bank
from ..logic import STEP_SCHEMA
from . import routes_engines, routes_page, routes_puzzles
from ._pool import WorkerPool
from .guard import Guard
from .refusals import add_handlers
from .state import MAX_BODY, TIME_LIMIT, Picks, Settings, State

__all__ = ["MAX_BODY", "ROUTES", "TIME_LIMIT", "Settings", "create_app", "from_env"]

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


def create_app(db: str | None = None, settings: Settings | None = None) -> FastAPI:
    """The service over the bank at ``db`` (a path or URL; default ``$SUDOKIT_DB``, else
    ``sudokit.db``). The bank is opened and the worker pool started when the application
    starts (the ASGI lifespan), and both closed when it stops."""
    settings = settings or Settings()
    if db is not None:
        settings.db = db
    elif os.environ.get("SUDOKIT_DB"):
        settings.db = os.environ["SUDOKIT_DB"]

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        bank = await asyncio.to_thread(Bank, settings.db)
        try:
            secret = await asyncio.to_thread(bank.secret)
            pool = WorkerPool(settings.workers, nice=settings.nice)
            await pool.start()
            app.state.sudokit = State(settings, bank, secret, pool, Picks(bank))
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
    app.add_middleware(Guard, settings=settings)
    add_handlers(app)
    for routes in (routes_page, routes_puzzles, routes_engines):
        routes.add_routes(app)
    app.openapi = lambda: _openapi(app)  # type: ignore[method-assign]
    return app


def _openapi(app: FastAPI) -> dict[str, Any]:
    """FastAPI's schema of ``app``, with the step schema of :mod:`sudokit.logic` beside the
    models (components: Step), made once."""
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
