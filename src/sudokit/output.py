"""Writing generated puzzles as records, and finding where an interrupted output file ends.

A **record** is one generated puzzle as text in one of :data:`RECORD_FORMATS`:

- ``line``: ``PUZZLE [SOLUTION] # index=I seed=S shape=3x3 symmetry=rot180 clues=C minimal=yes``
  (sudokit's reader takes the first field of the right length as the puzzle);
- ``grid``: a ``# index=I seed=S …`` comment line, the pretty puzzle, the pretty solution if
  asked (after a ``# solution`` line), and a blank line;
- ``json``: one JSON object a line;
- ``csv``: a header line, then one row a puzzle.

Every record says its seed and index, which is all it takes to make that puzzle again.
``sudokit generate`` writes records in order and flushes them as each chunk of them is made, so
an interrupted run leaves whole records plus at most one partial one; :func:`resume_point`
finds the end of the last whole record and the index to go on from.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .generator import Generated, _Batch

__all__ = [
    "RECORD_FORMATS",
    "Records",
    "ResumePoint",
    "csv_header",
    "format_record",
    "format_records",
    "resume_point",
]

RECORD_FORMATS = ("line", "grid", "json", "csv")

_CSV_FIELDS = (
    "index",
    "seed",
    "shape",
    "symmetry",
    "clues",
    "minimal",
    "orbit_minimal",
    "er",
    "ep",
    "ed",
    "level",
    "puzzle",
    "solution",
)
_META = re.compile(r"#\s*index=(\d+)\s+seed=(\d+)")


def _fact(value: bool | None) -> str:
    return "?" if value is None else ("yes" if value else "no")


def csv_header(*, with_solution: bool) -> str:
    """The header line of the csv format."""
    fields = _CSV_FIELDS if with_solution else _CSV_FIELDS[:-1]
    return ",".join(fields) + "\n"


def format_record(g: Generated, fmt: str, *, with_solution: bool = False) -> str:
    """One generated puzzle as a record of format ``fmt``, ending in a newline."""
    meta = (
        f"index={g.index} seed={g.seed} shape={g.shape} symmetry={g.symmetry} clues={g.clues} "
        f"minimal={_fact(g.minimal)} orbit_minimal={_fact(g.orbit_minimal)}"
    )
    r = g.rating
    if r is not None:
        meta += f" rating=ED={r.er:.1f}/{r.ep:.1f}/{r.ed:.1f} level={r.level.name.lower()}"
    if fmt == "line":
        sol = f" {g.solution.to_line()}" if with_solution else ""
        return f"{g.puzzle.to_line()}{sol} # {meta}\n"
    if fmt == "grid":
        sol = f"# solution\n{g.solution.to_pretty()}\n" if with_solution else ""
        return f"# {meta}\n{g.puzzle.to_pretty()}\n{sol}\n"
    if fmt == "json":
        obj: dict[str, object] = {
            "index": g.index,
            "seed": g.seed,
            "shape": str(g.shape),
            "symmetry": g.symmetry,
            "clues": g.clues,
            "minimal": g.minimal,
            "orbit_minimal": g.orbit_minimal,
            "puzzle": g.puzzle.to_line(),
        }
        if r is not None:
            obj.update(er=r.er, ep=r.ep, ed=r.ed, level=r.level.name.lower(), hardest=r.hardest)
            if r.hodoku is not None:
                obj.update(hodoku_level=r.hodoku.level, hodoku_score=r.hodoku.score)
        if with_solution:
            obj["solution"] = g.solution.to_line()
        return json.dumps(obj) + "\n"
    if fmt == "csv":
        row: list[object] = [
            g.index,
            g.seed,
            g.shape,
            g.symmetry,
            g.clues,
            _fact(g.minimal),
            _fact(g.orbit_minimal),
            *((r.er, r.ep, r.ed, r.level.name.lower()) if r is not None else ("", "", "", "")),
            g.puzzle.to_line(),
        ]
        if with_solution:
            row.append(g.solution.to_line())
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerow(row)
        return buf.getvalue()
    raise ValueError(f"unknown record format {fmt!r}; choose from {', '.join(RECORD_FORMATS)}")


@dataclass(frozen=True, slots=True)
class Records:
    """Consecutive generated puzzles as the text of their records.

    ``count`` is the number of puzzles; ``text`` is empty when no format was asked for, and
    ``puzzles`` holds the puzzles themselves when they were asked for (empty otherwise).
    """

    text: str
    count: int
    puzzles: Sequence[Generated] = ()


def format_records(
    batch: list[Generated], fmt: str | None, *, with_solution: bool = False, keep: bool = False
) -> Records:
    """A chunk of puzzles as :class:`Records` of format ``fmt`` (None: no text), keeping the
    puzzles too when ``keep`` is true.

    Made for :meth:`sudokit.generator.PuzzleStream.rendered`, so records are formatted in the
    worker processes and the main process only writes them.
    """
    text = "".join(format_record(g, fmt, with_solution=with_solution) for g in batch) if fmt else ""
    return Records(text, len(batch), _Batch(batch) if keep else ())


@dataclass(frozen=True)
class ResumePoint:
    """Where an output file's whole records end (``length`` bytes), the index to make next,
    and the seed its records were made with (None when it holds no record)."""

    length: int
    next_index: int
    seed: int | None


def _meta_of(record: str, fmt: str) -> tuple[int, int] | None:
    """The (index, seed) a whole record states, or None when it states none."""
    if fmt in ("line", "grid"):
        m = _META.search(record)
        return (int(m.group(1)), int(m.group(2))) if m else None
    if fmt == "json":
        try:
            obj = json.loads(record)
            return int(obj["index"]), int(obj["seed"])
        except (ValueError, KeyError, TypeError):
            return None
    row = next(csv.reader([record]), [])
    if len(row) >= 2 and row[0].isdigit() and row[1].isdigit():
        return int(row[0]), int(row[1])
    return None


def resume_point(path: Path, fmt: str) -> ResumePoint:
    """Read an existing output file and find where to go on from.

    Raises ValueError when the file's whole records are not the indexes 0, 1, 2, … in order
    with one seed (then resuming could duplicate or lose puzzles).
    """
    data = path.read_bytes()
    sep = b"\n\n" if fmt == "grid" else b"\n"
    length = 0
    expected = 0
    seed: int | None = None
    pos = 0
    while True:
        end = data.find(sep, pos)
        if end < 0:
            break
        end += len(sep)
        record = data[pos:end].decode("utf-8", errors="replace")
        pos = end
        meta = _meta_of(record, fmt)
        if meta is None:
            if record.strip() and not (fmt == "csv" and record.startswith("index,")):
                raise ValueError(
                    f"{path}: cannot resume: the record ending at byte {end} states no index "
                    f"and seed: {record.strip()[:80]!r}"
                )
            length = end
            continue
        index, rseed = meta
        if seed is not None and rseed != seed:
            raise ValueError(
                f"{path}: cannot resume: records were made with seeds {seed} and {rseed}"
            )
        if index != expected:
            raise ValueError(
                f"{path}: cannot resume: expected the record of index {expected}, found {index}"
            )
        seed = rseed
        expected += 1
        length = end
    return ResumePoint(length=length, next_index=expected, seed=seed)
