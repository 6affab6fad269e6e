"""Solve streams of puzzles in batches: the work behind ``sudokit solve``.

Records (from :func:`sudokit.read_puzzles`) go in; ``(record, solution, count)`` triples come
out in the same order, a chunk at a time, so memory stays flat however long the input is.
Records that failed to parse pass through untouched (``solution`` None, ``count`` 0), so the
caller can report them in place. Each chunk is one call into the C engine per shape.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator

from ._grid import Grid
from ._parallel import ordered_map
from ._shape import Shape
from .engine import _batch
from .formats import Record

__all__ = ["solve_records"]

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


def _solve_grids(task: tuple[list[Grid], int]) -> list[_Result]:
    """Solve a list of grids (any mix of shapes), one C call per shape."""
    grids, limit = task
    results: list[_Result] = [(None, 0)] * len(grids)
    by_shape: dict[Shape, list[int]] = {}
    for i, g in enumerate(grids):
        by_shape.setdefault(g.shape, []).append(i)
    for shape, idx in by_shape.items():
        _, solutions, counts = _batch([grids[i] for i in idx], limit)
        size = shape.size
        for k, i in enumerate(idx):
            if counts[k]:
                sol = Grid._trusted(shape, solutions[k * size : (k + 1) * size])
                results[i] = (sol, counts[k])
    return results


def solve_records(
    records: Iterable[Record], *, limit: int = 1, jobs: int = 1, chunk: int = CHUNK
) -> Iterator[tuple[Record, Grid | None, int]]:
    """Solve every parsed record, counting solutions up to ``limit``.

    Yields ``(record, first solution or None, count)`` in input order; ``count`` stops at
    ``limit``. With ``jobs > 1``, chunks are solved in that many worker processes.
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")

    def tasks(chunks: Iterable[list[Record]]) -> Iterator[tuple[list[Grid], int]]:
        for c in chunks:
            yield [r.grid for r in c if r.grid is not None], limit

    in_flight: deque[list[Record]] = deque()

    def remember(chunks: Iterator[list[Record]]) -> Iterator[list[Record]]:
        for c in chunks:
            in_flight.append(c)
            yield c

    results = ordered_map(_solve_grids, tasks(remember(_chunks(records, chunk))), jobs=jobs)
    for solved in results:
        recs = in_flight.popleft()
        it = iter(solved)
        for rec in recs:
            if rec.grid is None:
                yield rec, None, 0
            else:
                sol, count = next(it)
                yield rec, sol, count
