"""Streams of puzzles in batches: the work behind ``sudokit solve`` and ``sudokit rate``.

Records (from :func:`sudokit.read_puzzles`) go in; ``(record, solution, count)`` triples come
out in the same order, a chunk at a time, so memory stays flat however long the input is.
Records that failed to parse pass through untouched (``solution`` None, ``count`` 0), so the
caller can report them in place. Each chunk is one call into the C engine per shape.

:func:`solve_source` does the same for a whole source, with a bulk path for the common case
(9x9 puzzle lines, read, solved and answered in C a block at a time).
"""

from __future__ import annotations

import io
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from itertools import chain, islice
from typing import BinaryIO, TypeVar

from . import _engine
from ._grid import Grid
from ._parallel import ordered_map
from ._shape import Shape
from .engine import search_batch
from .formats import PuzzleSource, Record, read_puzzles, reads_alone

__all__ = ["map_grids", "solve_records", "solve_source"]

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
    """Solve a list of grids (any mix of shapes and rules), one C call per shape and rules
    (a grid's class holds its rules)."""
    results: list[_Result] = [(None, 0)] * len(grids)
    by_shape: dict[tuple[Shape, type[Grid]], list[int]] = {}
    for i, g in enumerate(grids):
        by_shape.setdefault((g.shape, type(g)), []).append(i)
    for (shape, kind), idx in by_shape.items():
        _, solutions, counts = search_batch([grids[i] for i in idx], limit)
        size = shape.size
        rules = None if kind is Grid else grids[idx[0]].rules
        for k, i in enumerate(idx):
            if counts[k]:
                sol = Grid.unchecked(shape, solutions[k * size : (k + 1) * size], rules=rules)
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

    ``fn`` runs in ``jobs`` worker processes when ``jobs > 1`` and there is more than one
    chunk, or as tasks on the Dask cluster at the address ``cluster`` (then it must pickle: a
    module-level function or a ``functools.partial`` of one).
    """
    chunks = _chunks(records, chunk)
    ahead = list(islice(chunks, 2))
    if len(ahead) < 2 and cluster is None:
        # One chunk of work (a puzzle given on the command line, a short file): starting
        # worker processes would cost more than the work, seconds on a busy machine.
        jobs = 1
    in_flight: deque[list[Record]] = deque()

    def tasks() -> Iterator[list[Grid]]:
        for c in chain(ahead, chunks):
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


#: Bytes read at a time by the bulk path (about 12,000 puzzle lines).
BLOCK = 1 << 20

_Solved = tuple[Record, Grid | None, int]


def solve_source(
    source: PuzzleSource,
    *,
    limit: int = 1,
    counts: bool = False,
    jobs: int = 1,
    cluster: str | None = None,
) -> Iterator[str | _Solved]:
    """Solve every puzzle of ``source`` in input order, counting solutions up to ``limit``.

    Yields answers in order: a ``str`` of finished lines (each 9x9 puzzle line's solution, or
    with ``counts`` its count, as the bulk path writes them), or a ``(record, solution,
    count)`` triple as :func:`solve_records` gives for every other record, for the caller to
    answer (a bad line, a puzzle with no solution, a conflict: what the caller reports).

    The bulk path reads a file or standard input as bytes a block at a time and hands whole
    lines to C, which reads, checks, solves and writes each plain 9x9 puzzle line (81 cells of
    ``1-9`` and ``.``, maybe a comment stating no shape); blank and comment lines are passed
    over. A line it does not take is read alone by :func:`read_puzzles` when that changes
    nothing for the lines after it (a bad line, a puzzle in another layout), after which the
    bulk path goes on; otherwise (a pretty grid, a csv header, a comment stating a shape) the
    rest of the input is read by :func:`read_puzzles` as a whole, ``jobs`` processes solving
    it. Sources read with a shape other than 9x9 or an alphabet take that way from the start,
    and so does everything with ``cluster`` (the records are solved as tasks on that Dask
    cluster).
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    stream = None if cluster is not None else _bulk_stream(source)
    if stream is None:
        yield from solve_records(source.records(), limit=limit, jobs=jobs, cluster=cluster)
        return
    read = partial(read_puzzles, shape=source.shape, source=source.name)
    line = 0  # lines answered
    with stream:
        blocks = _whole_lines(stream, piecewise=source.kind == "stdin")
        for data in blocks:
            pos = 0
            while pos < len(data):
                out, used, lines = _engine.solve_lines(memoryview(data)[pos:], limit, counts)
                if out:
                    yield out.decode("ascii")
                pos += used
                line += lines
                if pos >= len(data):
                    break
                end = data.find(b"\n", pos) + 1 or len(data)
                raw = data[pos:end].decode("utf-8", "replace").removesuffix("\n")
                raw = raw.removesuffix("\r")  # a CR left inside: reads_alone says no
                if line == 0:
                    raw = raw.removeprefix("\ufeff")
                if reads_alone(raw):
                    yield from solve_records(read([raw], first_line=line + 1), limit=limit)
                    line += 1
                    pos = end
                    continue
                rest = chain([bytes(data[pos:])], blocks)
                text = (chunk.decode("utf-8", "replace") for chunk in rest)
                lines_left = _text_lines(text)
                yield from solve_records(
                    read(lines_left, first_line=line + 1), limit=limit, jobs=jobs
                )
                return


def _bulk_stream(source: PuzzleSource) -> BinaryIO | None:
    """The source as a binary stream for the bulk path, or None when it does not take it."""
    if source.shape not in (None, Shape(3, 3)) or source.alphabet is not None:
        return None
    if source.rules is not None:  # the bulk path reads classic lines only
        return None
    if source.kind == "file":
        return open(source.source, "rb")  # noqa: SIM115 - closed by the caller's with
    if source.kind == "stdin" and source.stdin is None:
        buffer = getattr(sys.stdin, "buffer", None)
        if buffer is not None and hasattr(buffer, "read1"):
            return buffer  # type: ignore[no-any-return]
    return None


def _whole_lines(stream: BinaryIO, *, piecewise: bool) -> Iterator[bytes]:
    """The bytes of ``stream`` in blocks of whole lines (the last may lack its line end).
    ``piecewise``: a block is what the stream has to give now (a pipe: what was written)."""
    tail = b""
    read = stream.read1 if piecewise else stream.read  # type: ignore[attr-defined]
    while True:
        chunk: bytes = read(BLOCK)
        if not chunk:
            break
        data = tail + chunk
        cut = data.rfind(b"\n") + 1
        if cut:
            tail = data[cut:]
            yield data[:cut]
        else:
            tail = data
    if tail:
        yield tail


def _text_lines(chunks: Iterable[str]) -> Iterator[str]:
    """The lines of text given in chunks that end at line ends, as a file opened in text
    mode gives them (universal line ends)."""
    for chunk in chunks:
        yield from io.StringIO(chunk, newline=None)
