"""Adding a file's puzzles to the bank as they are rated (:meth:`sudokit.bank.Bank.add_file`).

Rating a hard puzzle takes a good part of a second; preparing one (reading it, checking it is
unique, its canonical form and id) takes microseconds. So the work is split in two:

- **Triage**, in chunks (:func:`sudokit.bank.triage_task`, in ``jobs - 1`` worker processes or
  here): a puzzle whose record states its rating becomes its entry at once; one to rate
  becomes :class:`~sudokit.bank.Unrated`, with its canonical id.
- **Rating**, one puzzle a task, by ``jobs`` worker processes (started at the first puzzle
  to rate). Before a puzzle is sent, its id is looked up: one the bank holds, or one this run
  has sent already, is a duplicate at once, unrated (a rerun on the same file rates nothing).

This process only stores: what was rated is committed as it comes, at the latest
``max_delay`` seconds after the first entry that waits (or at ``batch`` entries), so a run
killed at any time keeps every puzzle committed before, and a rerun finds them held. A
thread reads and triages the input, so a slow pipe or a long chunk does not hold up the
commits; it stays at most two chunks ahead of the raters.
"""

from __future__ import annotations

import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from .._parallel import stop_pool, worker_pool
from ._entries import Entry, Refusal, Unrated, rate_unrated

if TYPE_CHECKING:
    from concurrent.futures import Future

__all__ = ["add_rated"]

#: Rating tasks in flight per worker: enough that no worker waits for the next, few enough
#: that a kill loses little work and the puzzles read ahead stay few.
_AHEAD = 4

#: Chunks the reading thread may have read beyond those whose puzzles are being rated.
_READ_AHEAD = 2


def add_rated(
    chunks: Iterable[Sequence[Entry | Refusal | Unrated]],
    *,
    store: Callable[[Sequence[Entry]], Sequence[Any]],
    held: Callable[[Iterable[str]], set[str]],
    jobs: int,
    batch: int,
    max_delay: float,
) -> Iterator[Any]:
    """What becomes of each item of ``chunks`` (from :func:`sudokit.bank.prepared` with
    ``triage``): a :class:`Refusal` as it is; each entry, once ``store`` has committed it, as
    ``store`` reports it; an :class:`Unrated` puzzle whose id ``held`` reports (or that came
    earlier in this run) as ``(unrated, False)``, a duplicate; the others rated by ``jobs``
    worker processes, then stored. Not in input order: as they are done."""
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    if batch < 1:
        raise ValueError(f"batch must be at least 1, got {batch}")
    events: queue.SimpleQueue[tuple[str, Any]] = queue.SimpleQueue()
    room = threading.Semaphore(_READ_AHEAD)
    stop = threading.Event()
    reader = threading.Thread(
        target=_read, args=(chunks, events, room, stop), name="sudokit-bank-reader", daemon=True
    )
    reader.start()
    pool = None
    before: set[Any] = set()
    waiting: deque[Unrated] = deque()
    sent: set[str] = set()  # the ids sent to be rated in this run
    rating = 0  # tasks in flight
    owed = 0  # chunks taken whose room is not yet given back to the reader
    ended = False
    finished = False
    unstored: list[Entry] = []
    since = 0.0  # when the first of ``unstored`` came
    try:
        while True:
            while waiting and rating < _AHEAD * jobs:
                if pool is None:
                    import multiprocessing

                    before = set(multiprocessing.active_children())
                    pool = worker_pool(jobs)
                task: Future[Entry | Refusal] = pool.submit(rate_unrated, waiting.popleft())
                task.add_done_callback(_poster(events))
                rating += 1
            while owed and len(waiting) < _AHEAD * jobs:
                room.release()
                owed -= 1
            if ended and not waiting and not rating:
                break
            wait = None if not unstored else max(0.0, since + max_delay - time.monotonic())
            try:
                kind, value = events.get(timeout=wait)
            except queue.Empty:
                kind, value = "", None
            if kind == "chunk":
                owed += 1
                fresh: list[Unrated] = []
                for item in value:
                    if isinstance(item, Refusal):
                        yield item
                    elif isinstance(item, Unrated):
                        fresh.append(item)
                    else:
                        if not unstored:
                            since = time.monotonic()
                        unstored.append(item)
                if fresh:
                    known = held({u.id for u in fresh} - sent)
                    for u in fresh:
                        if u.id in known or u.id in sent:
                            yield (u, False)
                        else:
                            sent.add(u.id)
                            waiting.append(u)
            elif kind == "rated":
                rating -= 1
                done = value.result()  # a worker's error is raised here
                if isinstance(done, Refusal):  # unrated under its rules: named, not stored
                    yield done
                else:
                    if not unstored:
                        since = time.monotonic()
                    unstored.append(done)
            elif kind == "end":
                ended = True
            elif kind == "error":
                raise value
            if unstored and (
                len(unstored) >= batch or time.monotonic() - since >= max_delay or ended
            ):
                yield from store(unstored)
                unstored = []
        if unstored:
            yield from store(unstored)
        finished = True
    finally:
        stop.set()
        room.release()  # a reader waiting for room sees the stop
        if pool is not None:
            if not finished:
                stop_pool(pool, before)
            pool.shutdown(wait=True)
        # A reader blocked on its input (a pipe with nothing to give) is left to die with
        # the process (a daemon thread): an interrupted add ends within a second.
        reader.join(timeout=1.0)


def _poster(events: queue.SimpleQueue[tuple[str, Any]]) -> Callable[[Any], None]:
    """A done-callback that posts a rating task to ``events``."""

    def put(task: Any) -> None:
        events.put(("rated", task))

    return put


def _read(
    chunks: Iterable[Sequence[Entry | Refusal | Unrated]],
    events: queue.SimpleQueue[tuple[str, Any]],
    room: threading.Semaphore,
    stop: threading.Event,
) -> None:
    """The reading thread: each chunk posted to ``events`` when there is ``room``, then
    ``end`` (or the ``error`` that reading raised)."""
    it = iter(chunks)
    try:
        while True:
            room.acquire()
            if stop.is_set():
                return
            chunk = next(it, None)
            if chunk is None:
                events.put(("end", None))
                return
            events.put(("chunk", chunk))
    except BaseException as e:  # given to the storing thread, which raises it
        events.put(("error", e))
    finally:
        close = getattr(it, "close", None)
        if close is not None:
            close()
