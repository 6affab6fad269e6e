"""Ordered, memory-bounded parallel map over chunks of work.

``ordered_map(fn, items, jobs=N)`` yields ``fn(item)`` for each item in input order. With
``jobs > 1`` the calls run in ``jobs`` worker processes, with at most ``8 * jobs`` items in
flight, so a long input streams through in flat memory (``multiprocessing.Pool.imap`` would
read the whole input ahead). ``fn`` and the items must pickle. When the caller stops early
(``close()``, or an error from ``fn``), the workers are stopped at once.

With ``cluster=ADDRESS`` the same calls run as tasks on a Dask cluster instead
(:mod:`sudokit.cluster`, imported only then), under the same contract: results in input
order, a bounded number in flight. Callers take one ``cluster`` parameter and pass it here;
nothing else in them changes. A caller that maps several times in a run (rounds) opens the
cluster once with :func:`cluster_session` and passes what it gives.
"""

from __future__ import annotations

import os
import sys
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import TYPE_CHECKING, TypeVar

# The pools' modules (multiprocessing, concurrent.futures, ctypes) are imported where a pool
# is made: most callers map inline (one job), and ``sudokit solve`` should not pay for them.
if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor
    from multiprocessing.process import BaseProcess

    from .cluster import Connection

__all__ = [
    "CHUNKS_BIG",
    "CHUNKS_CLUSTER",
    "CHUNKS_QUICK",
    "CHUNKS_SLOW",
    "cluster_session",
    "default_jobs",
    "ordered_map",
    "plan_chunks",
    "stop_pool",
    "width_of",
    "worker_pool",
]

# Items in flight per worker. Results are yielded in order, so when one worker is slowed (by
# a busy machine, or a long item) the others run ahead by at most this many items before they
# wait. Too few (2) leaves workers idle whenever one item runs long; 8 keeps them busy while
# still bounding what is held in memory.
_AHEAD = 8

T = TypeVar("T")
R = TypeVar("R")


def default_jobs() -> int:
    """The number of cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>

# Seconds stop_pool waits for a terminated worker to end before it kills it.
_STOP_WAIT = 1.0


def _die_with_parent(parent: int) -> None:
    """Worker initializer: end this worker when the process that started it ends, however it
    ends (Ctrl+C is handled by the parent, but a ``kill`` of the parent's PID, or its death by
    SIGKILL, would otherwise leave the workers running on their queue until they are killed
    one by one). On Linux the kernel sends SIGKILL at the parent's death; the check after the
    call covers a parent that was already gone."""
    import signal

    # Ctrl+C reaches the whole process group: the parent decides what stops (stop_pool); a
    # worker that died of it half-way through writing a result would leave the pool's reader
    # waiting for the rest for ever.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def worker_pool(jobs: int) -> ProcessPoolExecutor:
    """A process pool whose workers die with this process."""
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(
        max_workers=jobs, initializer=_die_with_parent, initargs=(os.getpid(),)
    )


@contextmanager
def cluster_session(cluster: str | Connection | None) -> Iterator[str | Connection | None]:
    """For several :func:`ordered_map` calls on one cluster: a connection to ``cluster`` (an
    address) held for the ``with`` block, to pass as their ``cluster``; None stays None (and
    Dask unimported)."""
    if cluster is None:
        yield None
        return
    from . import cluster as dask_cluster

    with dask_cluster.connected(cluster) as connection:
        yield connection


def width_of(where: str | Connection | None, jobs: int) -> int:
    """How many calls run at once: ``jobs`` without a cluster, else the width of the cluster
    of a :func:`cluster_session` (work in rounds sizes its rounds by it)."""
    if where is None:
        return jobs
    from . import cluster as dask_cluster

    with dask_cluster.connected(where) as connection:
        return dask_cluster.width(connection.client)


def ordered_map(
    fn: Callable[[T], R],
    items: Iterable[T] | Callable[[int], Iterable[T]],
    *,
    jobs: int = 1,
    inline: bool = True,
    pool: ProcessPoolExecutor | None = None,
    cluster: str | Connection | None = None,
) -> Generator[R, None, None]:
    """Yield ``fn(item)`` for every item, in order, using ``jobs`` processes (``inline``
    False: ``jobs`` worker processes even for one, so this one is free for other work), or
    the Dask cluster at the address ``cluster`` (then ``jobs`` does not count).

    ``pool``: a pool of ``jobs`` workers from :func:`worker_pool` to use rather than one made
    for this call (a caller that maps many short batches keeps one, since starting workers
    costs a second or so); it is left running, with any items still pending when the caller
    stops early: stop it with :func:`stop_pool`.

    ``items`` may be a function of the number of calls that run at once (``jobs``, or the
    cluster's width), giving the items: chunks sized for the workers that run them."""
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    if cluster is not None:
        from . import cluster as dask_cluster

        yield from dask_cluster.ordered_map(fn, items, address=cluster)
        return
    if callable(items):
        items = items(jobs)
    if jobs == 1 and inline and pool is None:
        for item in items:
            yield fn(item)
        return
    import multiprocessing

    before = set(multiprocessing.active_children())
    own = pool is None
    workers = worker_pool(jobs) if pool is None else pool
    pending: deque[Future[R]] = deque()
    finished = False
    try:
        for item in items:
            pending.append(workers.submit(fn, item))
            if len(pending) >= _AHEAD * jobs:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
        finished = True
    finally:
        # A caller's pool is left running with the items still pending, not cancelled: its
        # owner stops it with stop_pool (which says why nothing is cancelled).
        if own:
            if not finished:
                stop_pool(workers, before)
            workers.shutdown(wait=True)


def stop_pool(pool: ProcessPoolExecutor, before: set[BaseProcess]) -> None:
    """Stop ``pool`` now rather than after the items in its workers' hands (a generator's
    chunk can take a whole timeout per puzzle): the worker processes started since
    ``before`` (the active children then) are terminated, and the pending items fail with
    ``BrokenProcessPool``. They are not cancelled first: CPython before 3.12 marks every
    pending item failed when a worker ends, and its manager thread dies on an item already
    cancelled (``InvalidStateError``), which reaches the user as a traceback."""
    import multiprocessing

    # (see below; shutdown forgets them)
    results = getattr(pool, "_result_queue", None)
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False)
    workers = set(multiprocessing.active_children()) - before
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.join(_STOP_WAIT)
        if worker.is_alive():  # pragma: no cover - SIGTERM is not ignored by workers
            worker.kill()
            worker.join(_STOP_WAIT)
    # A worker ended while writing a result leaves half a message in the result pipe, and the
    # pool's manager thread waits for the rest, which this process's own copy of the pipe's
    # write end keeps possible: the exit's join of that thread then hangs. With the workers
    # gone, closing that copy gives the reader an end of file instead (the pool is broken).
    # The manager thread then ends (bounded here): the interpreter's exit wakes the managers
    # it knows, and one closing its wake-up pipe at that moment made a write to it fail with
    # a traceback.
    writer = getattr(results, "_writer", None)
    if writer is not None:
        writer.close()
    if manager is not None:
        manager.join(_STOP_WAIT)


# (smallest, largest) chunk of indexes a task. Quick 9x9 puzzles come in big chunks so the
# process pool's fixed cost a task (sending it to a worker, the results back) is spread over
# hundreds of puzzles: in chunks of a few dozen it would take a large share of the run.
# Puzzles that take milliseconds or more (rated, or with a difficulty target) come a few at a
# time and big shapes one at a time, so that they stream out as they are made.
CHUNKS_QUICK = (16, 512)
CHUNKS_SLOW = (1, 8)
CHUNKS_BIG = (1, 1)
# On a Dask cluster a task costs the scheduler about a millisecond, and the client a few on a
# busy machine (sudokit's benchmark measures it: benchmarks/bench_cluster.py): quick puzzles
# (a sixth of a millisecond each on one core) go in chunks of at least 512 so that this stays
# under 5% of a task's time.
CHUNKS_CLUSTER = (512, 2048)
# Past this many workers, a cluster's chunks grow with its width (the largest size times
# width // 16), so the scheduler sees about as many tasks a second from a hundred 16-core
# machines as from one: it handles a few hundred to a few thousand (docs/cluster.md).
CLUSTER_UNIT = 16


def plan_chunks(
    start: int, count: int, jobs: int, sizes: tuple[int, int], *, cluster: bool = False
) -> tuple[int, Callable[[int], Iterator[range]]]:
    """How ``count`` items from index ``start`` are split into tasks of ``sizes`` =
    (smallest, largest) items: the number of processes to use (no more than there will be
    chunks) and the chunks as a function of the number of workers that share them (``jobs``,
    or a cluster's width)."""
    jobs = max(1, min(jobs, -(-count // sizes[0])))
    return jobs, partial(_cluster_chunks if cluster else _chunks, start, count, sizes=sizes)


def _cluster_chunks(
    start: int, count: int, width: int, *, sizes: tuple[int, int]
) -> Iterator[range]:
    """:func:`_chunks` for a cluster of ``width`` workers: the largest size grows with the
    width past :data:`CLUSTER_UNIT`."""
    smallest, largest = sizes
    return _chunks(start, count, width, sizes=(smallest, largest * max(1, width // CLUSTER_UNIT)))


def _chunks(start: int, count: int, jobs: int, *, sizes: tuple[int, int]) -> Iterator[range]:
    """Consecutive ranges covering ``start .. start+count-1``, of ``sizes`` = (smallest,
    largest) indexes but for the last one.

    They shrink as the work runs out (a quarter of each worker's share of what is left): big
    ranges early keep the per-task cost small, small ones at the end leave no worker idle
    while another finishes a long range.
    """
    smallest, largest = sizes
    end = start + count
    while start < end:
        size = max(smallest, min(largest, (end - start) // (4 * jobs)))
        yield range(start, min(start + size, end))
        start += size
