"""What the bank stores of a puzzle (:class:`Entry`), and how a puzzle read from a record or
made by the generator becomes one.

Terms:

- The **stated** facts of a record are what its text says of the puzzle: sudokit's own
  records (``# index=… seed=… minimal=… rating=ED=ER/EP/ED level=…``, their JSON and csv
  forms), ``sudokit rate``'s output (``PUZZLE ED=ER/EP/ED``, JSON, csv). A complete stated
  rating (ER, EP and ED) is used as it is, so a file of rated puzzles is added without rating
  them again; its technique path is then not known (``path_known`` is false).
- A **refusal** is a puzzle that cannot be stored (no solution, or more than one).
"""

from __future__ import annotations

import csv
import json
import re
import sys
from collections.abc import Iterable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass

from .._grid import Grid
from ..canon import Canonical, canonical, canonical_id
from ..difficulty import Rated
from ..engine import unique_solution
from ..errors import NotUniqueError
from ..formats import PuzzleSource, Record, read_puzzles
from ..generator import Generated, is_minimal, symmetry_of
from ..logic.hodoku import HodokuGrade
from ..rating import UNSOLVED_RATING, Level, Rating, hodoku, rate

__all__ = [
    "Entry",
    "Pending",
    "Refusal",
    "Stated",
    "entry_of",
    "from_generated",
    "prepare",
    "prepare_many",
    "read_pending",
]


@dataclass(frozen=True, slots=True)
class Entry:
    """One puzzle as the bank stores it: canonical forms keyed by their id, the shown form,
    and what is known of it. ``techniques`` is None when the solve path is not known."""

    id: str
    shape: str
    puzzle: str
    solution: str
    shown: str
    clues: int
    symmetry: str
    minimal: bool | None
    er: float
    ep: float
    ed: float
    hodoku_level: str | None
    hodoku_score: int | None
    hardest: str | None
    techniques: tuple[str, ...] | None
    source: str
    seed: int | None
    index: int | None

    @property
    def level(self) -> Level:
        return Level.of(self.er)

    def row(self) -> dict[str, object]:
        """The ``puzzles`` columns this entry fills (not ``added`` and ``rkey``)."""
        return {
            "id": self.id,
            "shape": self.shape,
            "puzzle": self.puzzle,
            "solution": self.solution,
            "shown": self.shown,
            "clues": self.clues,
            "symmetry": self.symmetry,
            "minimal": self.minimal,
            "er": self.er,
            "ep": self.ep,
            "ed": self.ed,
            "level": str(self.level),
            "hodoku_level": self.hodoku_level,
            "hodoku_score": self.hodoku_score,
            "hardest": self.hardest,
            "path_known": self.techniques is not None,
            "source": self.source,
            "seed": None if self.seed is None else str(self.seed),
            "seq": self.index,
        }


@dataclass(frozen=True, slots=True)
class Stated:
    """What a record says of its puzzle (None: not said)."""

    er: float | None = None
    ep: float | None = None
    ed: float | None = None
    hardest: str | None = None
    hodoku_level: str | None = None
    hodoku_score: int | None = None
    minimal: bool | None = None
    seed: int | None = None
    index: int | None = None

    @property
    def rated(self) -> bool:
        return self.er is not None and self.ep is not None and self.ed is not None


@dataclass(frozen=True, slots=True)
class Pending:
    """A puzzle read from ``where`` (``FILE:LINE``): its record, and its csv row by column
    name when it has one (what they state is read where the puzzle is prepared, in a worker
    process when there are several)."""

    record: Record
    where: str
    row: dict[str, str] | None = None

    @property
    def grid(self) -> Grid:
        if self.record.grid is None:
            raise ValueError(f"{self.where}: no puzzle to store")
        return self.record.grid

    @property
    def line(self) -> int:
        return self.record.line

    @property
    def stated(self) -> Stated:
        return stated_of(self.record, self.row)


@dataclass(frozen=True, slots=True)
class Refusal:
    """A puzzle that was read but cannot be stored; ``message`` names where and why."""

    line: int
    message: str


#: The facts a record's text states: sudokit's ``key=value`` comments and SE's
#: ``ED=ER/EP/ED`` (after the puzzle, as ``sudokit rate`` writes, or as ``rating=ED=…``).
_FACTS = re.compile(
    r"\b(index|seed|minimal|hardest)=([\w.\-]+)"
    r"|\bED=(\d+(?:\.\d+)?)/(\d+(?:\.\d+)?)/(\d+(?:\.\d+)?)"
)
_YES = {"yes": True, "no": False, True: True, False: False}


def _number(value: object, kind: type[int] | type[float]) -> float | None:
    if value is None or value == "" or isinstance(value, bool):
        return None
    try:
        return kind(str(value))
    except ValueError:
        return None


def stated_of(record: Record, row: dict[str, str] | None = None) -> Stated:
    """The facts ``record`` states; ``row`` is its csv row by column name, when it has one.

    Reads what :func:`sudokit.output.parse_label` reads (seed, index, ER), and EP, ED,
    minimality, the hardest technique and the HoDoKu grade besides.

    >>> from sudokit import read_puzzles
    >>> line = "1.3...12....4..3 # index=4 seed=99 minimal=yes rating=ED=1.2/1.1/1.0"
    >>> [rec] = read_puzzles([line])
    >>> s = stated_of(rec)
    >>> s.er, s.ep, s.ed, s.minimal, s.seed, s.index
    (1.2, 1.1, 1.0, True, 99, 4)
    """
    obj: dict[str, object] = {}
    if row is not None:
        obj = dict(row)
    elif record.fmt == "json":
        try:
            loaded = json.loads(record.text)
        except ValueError:
            loaded = None
        obj = loaded if isinstance(loaded, dict) else {}
    else:
        text = record.note or record.text  # sudokit's comment, else the line (SE's form)
        for key, value, er, ep, ed in _FACTS.findall(text):
            if key:
                obj[key] = value
            else:
                obj.update(er=er, ep=ep, ed=ed)
    er, ep, ed = (_number(obj.get(k), float) for k in ("er", "ep", "ed"))
    score, seed, index = (_number(obj.get(k), int) for k in ("hodoku_score", "seed", "index"))
    hardest, hodoku_level = obj.get("hardest"), obj.get("hodoku_level")
    minimal = obj.get("minimal")
    return Stated(
        er=er,
        ep=ep,
        ed=ed,
        hardest=hardest if isinstance(hardest, str) and hardest else None,
        hodoku_level=hodoku_level if isinstance(hodoku_level, str) and hodoku_level else None,
        hodoku_score=int(score) if score is not None else None,
        minimal=_YES.get(minimal) if isinstance(minimal, str | bool) else None,
        seed=int(seed) if seed is not None else None,
        index=int(index) if index is not None else None,
    )


class _Tee:
    """The lines of a stream as :func:`read_puzzles` takes them, keeping the recent ones by
    line number (a record's csv row is its raw line) and the csv header when there is one."""

    def __init__(self, lines: Iterable[str]) -> None:
        self._it = iter(lines)
        self.raw: dict[int, str] = {}
        self.columns: list[str] | None = None
        self._n = 0
        self._seen_body = False

    def __iter__(self) -> Iterator[str]:
        for line in self._it:
            self._n += 1
            self.raw[self._n] = line
            body = line.strip()
            if not self._seen_body and body and not body.startswith("#"):
                self._seen_body = True
                names = [f.strip().lower() for f in body.split(",")]
                if len(names) >= 2 and all(_NAME.fullmatch(f) for f in names):
                    self.columns = names
            yield line

    def forget_before(self, line: int) -> None:
        for k in [k for k in self.raw if k < line]:
            del self.raw[k]


_NAME = re.compile(r"[a-z_][a-z0-9_ ]*")


def read_pending(source: PuzzleSource) -> Iterator[Pending | Record]:
    """The puzzles of ``source`` as :class:`Pending` (with what their records state), or the
    bad record itself. Raises OSError (at the first ``next``) for a file that cannot be read."""
    with ExitStack() as stack:
        if source.kind == "stdin":
            lines: Iterable[str] = sys.stdin
        elif source.kind == "text":
            lines = source.source.splitlines()
        else:
            lines = stack.enter_context(open(source.source, encoding="utf-8", errors="replace"))
        tee = _Tee(lines)
        read = read_puzzles(tee, shape=source.shape, alphabet=source.alphabet, source=source.name)
        for rec in read:
            if rec.grid is None:
                yield rec
                continue
            row = None
            raw = tee.raw.get(rec.line, "")
            if tee.columns is not None and rec.fmt == "line" and "," in raw:
                values = next(csv.reader([raw]), [])
                if len(values) == len(tee.columns):
                    row = dict(zip(tee.columns, values, strict=True))
            tee.forget_before(rec.line)
            yield Pending(rec, f"{source.name}:{rec.line}", row)


def from_generated(g: Generated, techniques: tuple[str, ...] | None = None) -> Entry:
    """The entry of a generated (rated) puzzle; its source is its seed and index."""
    rating = g.rating if isinstance(g, Rated) else None
    if rating is None:
        rating = rate(g.puzzle)
        techniques = tuple(sorted({s.technique for s in rating.steps}))
    if rating.hodoku is None:
        rating = Rating(
            rating.er,
            rating.ep,
            rating.ed,
            rating.solved,
            rating.hardest,
            hodoku=hodoku(g.puzzle),
        )
    return entry_of(
        g.puzzle,
        rating,
        techniques=techniques,
        minimal=g.minimal,
        symmetry=None,  # the largest the pattern has, maybe more than it was made with
        source=f"seed={g.seed} index={g.index}",
        seed=g.seed,
        index=g.index,
    )


def entry_of(
    puzzle: Grid,
    rating: Rating,
    *,
    techniques: tuple[str, ...] | None,
    minimal: bool | None,
    symmetry: str | None,
    source: str,
    seed: int | None = None,
    index: int | None = None,
    canon: Canonical | None = None,
    solution: Grid | None = None,
) -> Entry:
    """The entry of ``puzzle`` with its ``rating`` (``canon``: its canonical form, and
    ``solution`` that form's solution, when known). Raises
    :class:`~sudokit.errors.NotUniqueError` when it has not one solution.

    The canonical solution is solved from the canonical puzzle (the exact engine takes
    microseconds; mapping the given solution through the transform takes longer).
    """
    canon = canon if canon is not None else canonical(puzzle)
    solution = solution if solution is not None else unique_solution(canon.grid)
    grade: HodokuGrade | None = rating.hodoku
    return Entry(
        id=canonical_id(canon.grid),
        shape=str(puzzle.shape),
        puzzle=canon.grid.to_line(),
        solution=solution.to_line(),
        shown=puzzle.to_line(),
        clues=puzzle.clue_count,
        symmetry=symmetry if symmetry is not None else symmetry_of(puzzle),
        minimal=minimal,
        er=rating.er,
        ep=rating.ep,
        ed=rating.ed,
        hodoku_level=grade.level if grade is not None else None,
        hodoku_score=grade.score if grade is not None else None,
        hardest=rating.hardest,
        techniques=techniques,
        source=source,
        seed=seed,
        index=index,
    )


def prepare(item: Pending, *, rerate: bool = False) -> Entry | Refusal:
    """The entry of a puzzle read from a file: checked unique, rated unless its record
    states a complete rating (or ``rerate``), its minimality established unless stated."""
    # Checked in canonical form: the same answer, and that solution is the one stored.
    canon = canonical(item.grid)
    try:
        solution = unique_solution(canon.grid)
    except NotUniqueError as e:
        return Refusal(item.line, f"{item.where.rsplit(':', 1)[0]}, line {item.line}: {e}")
    s = item.stated
    techniques: tuple[str, ...] | None = None
    if s.er is not None and s.ep is not None and s.ed is not None and not rerate:
        grade = None
        if s.hodoku_level is not None and s.hodoku_score is not None:
            grade = HodokuGrade(level=s.hodoku_level, score=s.hodoku_score)
        rating = Rating(s.er, s.ep, s.ed, s.er < UNSOLVED_RATING, s.hardest, hodoku=grade)
    else:
        full = rate(item.grid)
        techniques = tuple(sorted({step.technique for step in full.steps}))
        rating = Rating(
            full.er, full.ep, full.ed, full.solved, full.hardest, hodoku=hodoku(item.grid)
        )
    minimal = s.minimal if s.minimal is not None and not rerate else None
    if minimal is None:
        minimal = is_minimal(canon.grid, solution)
    return entry_of(
        item.grid,
        rating,
        techniques=techniques,
        minimal=minimal,
        symmetry=None,
        source=item.where,
        seed=s.seed if s.index is not None else None,
        index=s.index if s.seed is not None else None,
        canon=canon,
        solution=solution,
    )


def prepare_many(items: list[Pending | Record], rerate: bool = False) -> list[Entry | Refusal]:
    """:func:`prepare` for a chunk of puzzles (one task of a worker process); a bad record
    becomes the :class:`Refusal` that says why."""
    return [
        prepare(item, rerate=rerate) if isinstance(item, Pending) else _refusal(item)
        for item in items
    ]


def _refusal(record: Record) -> Refusal:
    return Refusal(record.line, str(record.error))
