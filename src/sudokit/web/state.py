"""What one service holds while it runs: its settings, the bank, the puzzle ids' key, the
worker pool, the runs of random picks from the bank, and the caches of the catalog and the
daily puzzles (:class:`State`, made when the application starts and kept on
``app.state.sudokit``); and how CPU work is handed to the pool (:meth:`State.cpu`)."""

from __future__ import annotations

import asyncio
import random
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fastapi import Request

from ..bank import Bank, Filters, Stored
from ._pool import JobTimeout, WorkerPool
from .api import RequestError

__all__ = ["MAX_BODY", "TIME_LIMIT", "Picks", "Settings", "State", "state"]

#: The largest request body accepted, in bytes (a 16x16 hint request is about 3 KiB).
MAX_BODY = 64 * 1024
#: Seconds a request may spend on CPU work (waiting for a worker included) before a 503.
TIME_LIMIT = 15.0


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


class Picks:
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
class State:
    settings: Settings
    bank: Bank
    secret: bytes
    pool: WorkerPool
    picks: Picks
    catalog: tuple[float, dict[str, Any]] | None = None
    daily: dict[tuple[str, str], str] = field(default_factory=dict)
    # The isomorphs' randomness: seeded from os.urandom in each server process as it starts
    # (a generator made per request cost as much as the rest of the isomorph).
    rng: random.Random = field(default_factory=random.Random)

    async def cpu(self, fn: Callable[..., Any], *args: Any, late: str | None = None) -> Any:
        """``fn(*args)`` in the pool; past the time limit a 503 saying ``late`` or that the
        work did not finish."""
        try:
            return await self.pool.run(fn, *args, timeout=self.settings.time_limit)
        except JobTimeout:
            limit = self.settings.time_limit
            why = late or f"the work did not finish within {limit:g} s, the time limit"
            raise RequestError(why, 503) from None


def state(request: Request) -> State:
    """The state of the application serving ``request``."""
    found: State = request.app.state.sudokit
    return found
