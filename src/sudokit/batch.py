"""Streams of puzzles in batches: the work behind ``sudokit solve`` and ``sudokit rate``.

Records (from :func:`sudokit.read_puzzles`) go in; ``(record, solution, count)`` triples come
out in the same order, a chunk at a time, so memory stays flat however long the input is.
Records that failed to parse pass through untouched (``solution`` None, ``count`` 0), so the
caller can report them in place. Each chunk is one call into the C engine per shape.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import TypeVar

from ._grid import Grid
from ._parallel import ordered_map
from ._shape import Shape
from .engine import search_batch
from .formats import Record

__all__ = ["map_grids", "solve_records"]

R = TypeVar("R")

#: Records per chunk: big enough that a call into C or to a worker costs little per puzzle.
CHUNK = 512

_Result = tuple[Grid | None, int]


def _chunks(records: Iterable[Record], size: int) -> Iterator[list[Record]]:
    chunk: list[Record] = []
    for rec in records:
        chunk.append(rec)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _solve_grids(grids: list[Grid], limit: int) -> list[_Result]:
    """Solve a list of grids (any mix of shapes), one C call per shape."""
    results: list[_Result] = [(None, 0)] * len(grids)
    by_shape: dict[Shape, list[int]] = {}
    for i, g in enumerate(grids):
        by_shape.setdefault(g.shape, []).append(i)
    for shape, idx in by_shape.items():
        _, solutions, counts = search_batch([grids[i] for i in idx], limit)
        size = shape.size
        for k, i in enumerate(idx):
            if counts[k]:
                sol = Grid.unchecked(shape, solutions[k * size : (k + 1) * size])
                results[i] = (sol, counts[k])
    return results


def map_grids(
    fn: Callable[[list[Grid]], list[R]],
    records: Iterable[Record],
    *,
    jobs: int = 1,
    chunk: int = CHUNK,
    cluster: str | None = None,
) -> Iterator[tuple[Record, R | None]]:
    """Yield ``(record, result)`` for every record in input order, where ``fn`` maps each
    chunk's good grids to their results (``None`` for records that failed to parse).

    ``fn`` runs in ``jobs`` worker processes when ``jobs > 1``, or as tasks on the Dask
    cluster at the address ``cluster`` (then it must pickle: a module-level function or a
    ``functools.partial`` of one).
    """
    in_flight: deque[list[Record]] = deque()

    def tasks() -> Iterator[list[Grid]]:
        for c in _chunks(records, chunk):
            in_flight.append(c)
            yield [r.grid for r in c if r.grid is not None]

    for results in ordered_map(fn, tasks(), jobs=jobs, cluster=cluster):
        recs = in_flight.popleft()
        it = iter(results)
        for rec in recs:
            yield rec, (None if rec.grid is None else next(it))


def solve_records(
    records: Iterable[Record],
    *,
    limit: int = 1,
    jobs: int = 1,
    chunk: int = CHUNK,
    cluster: str | None = None,
) -> Iterator[tuple[Record, Grid | None, int]]:
    """Solve every parsed record, counting solutions up to ``limit``.

    Yields ``(record, first solution or None, count)`` in input order; ``count`` stops at
    ``limit``. With ``jobs > 1``, chunks are solved in that many worker processes; with
    ``cluster``, as tasks on that Dask cluster.
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    fn = partial(_solve_grids, limit=limit)
    for rec, result in map_grids(fn, records, jobs=jobs, chunk=chunk, cluster=cluster):
        sol, count = result if result is not None else (None, 0)
        yield rec, sol, count
