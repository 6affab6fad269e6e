"""What the bank stores of a puzzle (:class:`Entry`), and how a puzzle read from a record or
made by the generator becomes one.

Terms:

- The **stated** facts of a record are what its text says of the puzzle: sudokit's own
  records (``# index=… seed=… minimal=… rating=ED=ER/EP/ED level=…``, their JSON and csv
  forms), ``sudokit rate``'s output (``PUZZLE ED=ER/EP/ED``, JSON, csv). A complete stated
  rating (ER, EP and ED) is used as it is, so a file of rated puzzles is added without rating
  them again; its technique path is then not known (``path_known`` is false).
- A **refusal** is a puzzle that cannot be stored (no solution, or more than one).
- An **unrated** puzzle (:class:`Unrated`) is one prepared but for its rating: checked
  unique, in canonical form with its id, so the bank can tell whether it holds it before
  anyone spends time rating it (:func:`triage_task`, then :func:`rate_unrated`).
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import lru_cache, partial
from typing import Any, NamedTuple

from .._grid import Grid, conflict_reason
from .._parallel import ordered_map
from .._shape import Shape
from ..canon import (
    Canonical,
    canonical,
    canonical_many,
    forms_of_cells,
    ids_of_canonical,
    ids_of_forms,
    symmetries_of_cells,
)
from ..difficulty import Rated
from ..engine import search_batch, search_cells, unique_solution
from ..errors import InvalidRulesError, NotUniqueError
from ..formats import Lines, PuzzleSource, Record, RecordReader, raw_pieces
from ..formats.comments import GENERATED_COMMENT
from ..formats.records import make_record
from ..generator import Generated, is_minimal, symmetry_of
from ..logic.hodoku import HodokuGrade
from ..rating import KillerLevel, Level, Rating, hodoku, killer_level, rate
from ..rules import Rules
from ._stated import YES_NO, Stated, stated_in_text, stated_of

__all__ = [
    "Entry",
    "Pending",
    "KILLER_COLUMNS",
    "NO_RATING",
    "Refusal",
    "Stated",
    "Unrated",
    "entry_of",
    "from_generated",
    "prepare",
    "prepare_many",
    "Lines",
    "prepare_task",
    "prepared",
    "rate_unrated",
    "read_pending",
    "read_pieces",
    "read_tasks",
    "stored_rows",
    "triage_task",
    "unrated_killer",
    "without_gc",
]


class Entry(NamedTuple):
    """One puzzle as the bank stores it: canonical forms keyed by their id, the shown form,
    and what is known of it. ``techniques`` is None when the solve path is not known.

    A named tuple: made, pickled (to and from worker processes) and read in a fraction of a
    frozen dataclass's time, for a bank that takes thousands a second."""

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
    index: int | None  # type: ignore[assignment]  # the generator's index, not tuple.index
    rules: str = "classic"  # the rules' text form (sudokit.rules.Rules)
    killer_level: str | None = None  # a killer's level (sudokit.rating.KillerLevel's name)

    @property
    def level(self) -> Level:
        """SE's level of the ER (a killer's own level is :attr:`killer_level`)."""
        return Level.of(self.er)

    def row(self) -> dict[str, object]:
        """The ``puzzles`` columns this entry fills (not ``added`` and ``rkey``)."""
        return dict(zip(ROW_COLUMNS, self.values(), strict=True))

    def values(self) -> tuple[object, ...]:
        """The values of :data:`ROW_COLUMNS`, in that order (:func:`stored_rows`)."""
        return stored_rows([self], None, _nothing)[0][:-2]


def _nothing() -> None:
    return None


#: A yes/no value as the bank's rows give it (:func:`stored_rows`).
_FLAG: dict[bool | None, int | None] = {True: 1, False: 0, None: None}


def stored_rows(
    entries: Sequence[Entry], added: object, rand: Callable[[], object]
) -> list[tuple[object, ...]]:
    """The ``puzzles`` row of each entry: the values of :data:`ROW_COLUMNS` in that order,
    then ``added`` and ``rand()`` (the random key). One pass, no call a row but ``rand``:
    the bank makes one for every puzzle it stores.

    The two yes/no columns (``minimal``, ``path_known``) are 1 and 0 (or None), not bools:
    what SQLite stores for a boolean either way, and what PostgreSQL's boolean reads from
    ``COPY``; the sqlite3 driver binds an ``int`` at once, while a ``bool`` (a subclass) goes
    through its adaptation protocol, two failed attribute lookups a value (0.7 us each)."""
    level = _level_name
    killers = KILLER_COLUMNS
    flag = _FLAG
    return [  # the fields by name, not slices: one tuple built a row, no list between
        (
            id,
            shape,
            puzzle,
            solution,
            shown,
            clues,
            symmetry,
            flag[minimal],
            er,
            ep,
            ed,
            level(er) if killer_level is None else killers[killer_level],
            hodoku_level,
            hodoku_score,
            hardest,
            0 if techniques is None else 1,  # path_known: techniques known
            source,
            None if seed is None else str(seed),  # as text: 64-bit unsigned
            index,  # seq
            rules,
            added,
            rand(),
        )
        for (
            id,
            shape,
            puzzle,
            solution,
            shown,
            clues,
            symmetry,
            minimal,
            er,
            ep,
            ed,
            hodoku_level,
            hodoku_score,
            hardest,
            techniques,
            source,
            seed,
            index,
            rules,
            killer_level,
        ) in entries
    ]


#: An entry made of its fields as one tuple, without the named tuple's ``__new__`` (a Python
#: call of eighteen arguments): for the places that make one a puzzle.
_new_entry = partial(tuple.__new__, Entry)


@lru_cache(maxsize=1024)
def _level_name(er: float) -> str:
    return str(Level.of(er))


#: A killer level's name (``sudokit.rating.KillerLevel``) as the ``level`` column holds it
#: (``killer-easy`` to ``killer-extreme``), where other puzzles have SE's level of their ER
#: (``easy`` to ``diabolical``): a killer has a scale of its own, and each SE level's rows all
#: rate above an easier one's, which the hardest-first scan reads.
KILLER_COLUMNS: dict[str, str] = {str(k): f"killer-{k}" for k in KillerLevel}


#: The ER, EP and ED of a puzzle stored unrated (a killer the rating cannot finish: it needs
#: a technique that does not run under cages yet): below SE's scale, which starts at 1.0.
NO_RATING = 0.0


def unrated_killer(grid: Grid) -> Rating:
    """What the bank keeps of a killer the rating cannot finish: no ER, EP nor ED
    (:data:`NO_RATING`), and its killer level (extreme, unless the killer levels' techniques
    solve it while the rating's path needs more)."""
    return Rating(NO_RATING, NO_RATING, NO_RATING, False, None, killer=killer_level(grid))


#: The ``puzzles`` columns an :class:`Entry` fills (:meth:`Entry.values`).
ROW_COLUMNS = (
    "id",
    "shape",
    "puzzle",
    "solution",
    "shown",
    "clues",
    "symmetry",
    "minimal",
    "er",
    "ep",
    "ed",
    "level",
    "hodoku_level",
    "hodoku_score",
    "hardest",
    "path_known",
    "source",
    "seed",
    "seq",
    "rules",
)


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


class Unrated(NamedTuple):
    """A unique puzzle prepared but for its rating (:func:`triage_task`): its canonical id,
    its record, its canonical form and that form's solution."""

    id: str
    pending: Pending
    form: Grid
    solution: Grid
    rerate: bool

    @property
    def source(self) -> str:
        """``FILE:LINE``, as the entry will say."""
        return self.pending.where


def read_pending(source: PuzzleSource) -> Iterator[Pending | Record]:
    """The puzzles of ``source`` as :class:`Pending` (with what their records state), or the
    bad record itself. Raises OSError (at the first ``next``) for a file that cannot be read."""
    for piece in read_pieces(source):
        yield from piece


def read_pieces(source: PuzzleSource, size: int = 1000) -> Iterator[list[Pending | Record]]:
    """:func:`read_pending` in lists of at most ``size`` items; from standard input, a list
    also ends where the input has nothing more for now, so a slow pipe is prepared and
    stored as it comes. Raises OSError (at the first ``next``) for a file that cannot be read.

    Lines as ``sudokit generate`` writes them (81 cells of ``1-9`` and ``.``, maybe a ``#``
    comment) are read by a fast path that gives the records :func:`read_puzzles` gives, except
    that it leaves the check for repeated digits to the exact engine (a puzzle that has them
    has no solution: :func:`prepare_many` then reports it as the reader would). From the first
    line of any other kind on, :func:`read_puzzles` reads the rest."""
    yield from RecordReader(source, size, Pending).read()


def prepared(
    source: PuzzleSource,
    *,
    jobs: int = 1,
    rerate: bool = False,
    size: int = 1000,
    triage: bool = False,
) -> Iterator[list[Entry | Refusal | Unrated]]:
    """The puzzles of ``source`` read and prepared (:func:`prepare_many`) in chunks of about
    ``size``, in order, for :meth:`sudokit.bank.Bank.add`: in this process for ``jobs`` 1;
    else by ``jobs - 1`` worker processes (sent plain lines, :func:`read_tasks`), leaving
    this process, one of the ``jobs``, to store. From standard input a chunk is what the
    input had to give, so a slow pipe is stored as it comes. Raises OSError (at the first
    ``next``) for a file that cannot be read.

    With ``triage`` the puzzles to rate come back :class:`Unrated` (:func:`triage_task`),
    for :meth:`sudokit.bank.Bank.add_file`; else every item is an entry or a refusal."""
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    if jobs == 1:  # the tasks a worker would get, done here
        for task in read_tasks(source, size):
            yield _prepare_task(task, rerate, triage)
        return
    work = partial(_prepare_task, rerate=rerate, defer=triage)
    yield from ordered_map(work, read_tasks(source, size), jobs=jobs - 1, inline=False)


def read_tasks(source: PuzzleSource, size: int = 1000) -> Iterator[Lines | list[Pending | Record]]:
    """:func:`read_pieces` for worker processes: the pieces of plain lines as :class:`Lines`,
    the rest (from the first line the fast path does not take) as items. Each goes to
    :func:`prepare_task`."""
    yield from RecordReader(source, size, Pending).tasks(raw_pieces(source, size))


def prepare_task(
    task: Lines | list[Pending | Record], rerate: bool = False
) -> list[Entry | Refusal]:
    """:func:`prepare_many` of a task of :func:`read_tasks`, reading its lines first (a
    list that a worker process sends back compactly: :class:`_Chunk`)."""
    return _prepare_task(task, rerate, False)  # type: ignore[return-value]  # none unrated


def triage_task(
    task: Lines | list[Pending | Record], rerate: bool = False
) -> list[Entry | Refusal | Unrated]:
    """:func:`prepare_task` but for the ratings: each puzzle that needs one (no complete
    stated rating, or ``rerate``) comes back :class:`Unrated`, for :func:`rate_unrated`
    once the bank has said it does not hold it."""
    return _prepare_task(task, rerate, True)


def _prepare_task(
    task: Lines | list[Pending | Record], rerate: bool, defer: bool
) -> list[Entry | Refusal | Unrated]:
    if not isinstance(task, Lines):
        return _Chunk(_prepare_many(task, rerate, defer))
    with without_gc():
        found = list(RecordReader.puzzle_lines(task))
        return _Chunk(_prepare_lines(task.name, found, rerate, defer))


@contextmanager
def without_gc() -> Iterator[None]:
    """No cyclic garbage collection inside (unless it was off already): for the code that
    makes a chunk's thousands of tuples and strings, none of them in a cycle, which
    otherwise sets off a collection every 700 of them, each visiting what is alive (a sixth
    of the work of ``bank add``). What was made is collected after, as usual."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class _Chunk(list[Entry | Refusal | Unrated]):
    """A prepared chunk that pickles its entries as plain tuples, made back into entries by
    one C-level call each (unpickling a named tuple runs its ``__new__``, a Python call of
    eighteen arguments: 3 us of the storing process's time an entry, against 1.5). It
    unpickles as a plain list."""

    def __reduce__(self) -> tuple[Any, ...]:
        return _unchunk, ([tuple(d) if type(d) is Entry else d for d in self],)


def _unchunk(items: list[tuple[Any, ...] | Refusal | Unrated]) -> list[Entry | Refusal | Unrated]:
    make = _new_entry
    return [make(d) if type(d) is tuple else d for d in items]  # type: ignore[misc]


def _prepare_lines(
    name: str, found: list[tuple[int, str, str]], rerate: bool, defer: bool
) -> list[Entry | Refusal | Unrated]:
    """:func:`prepare_many` of plain 9x9 lines of ``name`` (each its number, the line and
    its note, as :meth:`RecordReader.puzzle_lines` gives them), without a record, a
    :class:`Pending` or a :class:`Grid` for each: the chunk's cells go to C as one string
    for their canonical forms, and those to the exact engine as another; a puzzle with a
    complete stated rating becomes its entry straight from the texts. The rest (a repeated
    digit, not one solution, a rating to compute) go the general way, with their records:
    the same entries and the same messages, as the reader's test checks."""

    def pending(k: int) -> Pending:
        line, raw, note = found[k]
        return Pending(RecordReader.record_of(line, raw, note), f"{name}:{line}")

    if not found:
        return []
    shown = [raw[:81] for _, raw, _ in found]
    cells = RecordReader.cells_of("".join(shown))
    try:
        forms = forms_of_cells(_SUDOKU, cells)
    except ValueError:  # a repeated digit: the general way finds which, and says so
        return _prepare_many([pending(k) for k in range(len(found))], rerate, defer)
    solutions, counts = search_cells(_SUDOKU, forms, 2)
    ids = ids_of_forms(_SUDOKU, forms)
    symmetries = symmetries_of_cells(9, cells)
    form_text = forms.translate(_TEXT).decode("ascii")
    solution_text = solutions.translate(_TEXT).decode("ascii")
    generated = GENERATED_COMMENT.fullmatch
    out: list[Entry | Refusal | Unrated] = []
    for k, (line, raw, note) in enumerate(found):
        at = 81 * k
        if counts[k] != 1 or rerate:
            item = pending(k)
            if counts[k] != 1:
                out.append(_unsolvable(item, counts[k]))
                continue
            form = Grid.unchecked(_SUDOKU, forms[at : at + 81])
            solution = Grid.unchecked(_SUDOKU, solutions[at : at + 81])
            out.append(_entry(item, form, ids[k], solution, rerate, defer))
            continue
        text = shown[k]
        m = generated(note)
        if m is not None:  # sudokit generate's own comment: what it states, read at once
            index, seed, stated_minimal, er, ep, ed = m.groups()
            minimal = YES_NO.get(stated_minimal)
            if minimal is None:
                minimal = is_minimal(
                    Grid.unchecked(_SUDOKU, forms[at : at + 81]),
                    Grid.unchecked(_SUDOKU, solutions[at : at + 81]),
                )
            out.append(
                _new_entry(  # the fields in order, as _assemble makes them of the same facts
                    (
                        ids[k],
                        "3x3",
                        form_text[at : at + 81],
                        solution_text[at : at + 81],
                        text,
                        81 - text.count("."),
                        symmetries[k],
                        minimal,
                        float(er),
                        float(ep),
                        float(ed),
                        None,
                        None,
                        None,
                        None,
                        f"{name}:{line}",
                        int(seed),
                        int(index),
                        "classic",
                        None,
                    )
                )
            )
            continue
        s = stated_in_text(note or raw)
        if s.ep is None:  # no complete rating stated: rated the general way
            item = pending(k)
            form = Grid.unchecked(_SUDOKU, forms[at : at + 81])
            solution = Grid.unchecked(_SUDOKU, solutions[at : at + 81])
            out.append(_entry(item, form, ids[k], solution, rerate, defer))
            continue
        minimal = s.minimal
        if minimal is None:
            form = Grid.unchecked(_SUDOKU, forms[at : at + 81])
            minimal = is_minimal(form, Grid.unchecked(_SUDOKU, solutions[at : at + 81]))
        out.append(
            _assemble(
                s,
                ids[k],
                form_text[at : at + 81],
                solution_text[at : at + 81],
                _SUDOKU,
                symmetries[k],
                text,
                81 - text.count("."),
                minimal,
                f"{name}:{line}",
            )
        )
    return out


_SUDOKU = Shape(3, 3)


def from_generated(g: Generated, techniques: tuple[str, ...] | None = None) -> Entry:
    """The entry of a generated (rated) puzzle; its source is its seed and index. A killer
    the rating cannot finish (an extreme one the generator kept unrated) is stored with its
    killer level and no ER (:func:`unrated_killer`)."""
    rating = g.rating if isinstance(g, Rated) else None
    if rating is None:
        try:
            rating = rate(g.puzzle)
        except InvalidRulesError:
            if g.puzzle.rules.cages is None:
                raise
            rating, techniques = unrated_killer(g.puzzle), None
        else:
            techniques = tuple(sorted({s.technique for s in rating.steps}))
    if rating.hodoku is None or rating.steps:
        rating = replace(rating, steps=(), hodoku=rating.hodoku or hodoku_of(g.puzzle))
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
        id=ids_of_canonical([canon.grid])[0],
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
        rules=str(puzzle.rules),
        killer_level=None if rating.killer is None else str(rating.killer),
    )


def prepare(item: Pending, *, rerate: bool = False) -> Entry | Refusal:
    """The entry of a puzzle read from a file: checked unique, rated unless its record
    states a complete rating (or ``rerate``), its minimality established unless stated."""
    [done] = prepare_many([item], rerate)
    return done


def hodoku_of(grid: Grid) -> HodokuGrade | None:
    """HoDoKu's grade of ``grid``, or None under rules beyond the classic ones (HoDoKu
    grades classic sudoku only)."""
    return hodoku(grid) if grid.rules.is_classic else None


def rate_unrated(item: Unrated) -> Entry | Refusal:
    """The entry of an :class:`Unrated` puzzle: rated (with its SE path and HoDoKu grade)
    and its minimality established unless stated; the :class:`Refusal` that says why when
    it cannot be rated under its rules yet."""
    return _entry(item.pending, item.form, item.id, item.solution, item.rerate)  # type: ignore[return-value]


def prepare_many(items: list[Pending | Record], rerate: bool = False) -> list[Entry | Refusal]:
    """:func:`prepare` for a chunk of puzzles (one task of a worker process); a bad record
    becomes the :class:`Refusal` that says why.

    The chunk's puzzles of one shape get their canonical forms in one call into C, and the
    exact engine checks all of those (unique?) and solves them in one more: the stored
    solution is the canonical puzzle's, found by that check.
    """
    return _prepare_many(items, rerate, False)  # type: ignore[return-value]  # none unrated


def _prepare_many(
    items: list[Pending | Record], rerate: bool, defer: bool
) -> list[Entry | Refusal | Unrated]:
    out: list[Entry | Refusal | Unrated | None] = [None] * len(items)
    by_shape: dict[tuple[Shape, Rules], tuple[list[int], list[Pending]]] = {}
    for i, item in enumerate(items):
        if isinstance(item, Pending):  # a batch is of one shape and one set of rules
            grid = item.grid
            at, group = by_shape.setdefault((grid.shape, grid.rules), ([], []))
            at.append(i)
            group.append(item)
        else:
            out[i] = _refusal(item)
    for at, group in by_shape.values():
        for i, done in zip(at, _prepare_shape(group, rerate, defer), strict=True):
            out[i] = done
    return [done for done in out if done is not None]


def _prepare_shape(
    items: list[Pending], rerate: bool, defer: bool
) -> list[Entry | Refusal | Unrated]:
    grids = [item.grid for item in items]
    try:
        forms = canonical_many(grids)
    except ValueError:
        # A puzzle with a repeated digit (the fast reader leaves that check to here), or
        # one beyond the canonical search: one by one, to find which.
        return [_prepare_one(item, rerate, defer) for item in items]
    shape, solutions, counts = search_batch(forms, 2)
    ids = ids_of_canonical(forms)
    size = shape.size
    rules = grids[0].rules if grids and type(grids[0]) is not Grid else None
    out: list[Entry | Refusal | Unrated] = []
    for k, (item, form, count) in enumerate(zip(items, forms, counts, strict=True)):
        if count != 1:
            out.append(_unsolvable(item, count))
            continue
        solution = Grid.unchecked(shape, solutions[k * size : (k + 1) * size], rules=rules)
        out.append(_entry(item, form, ids[k], solution, rerate, defer))
    return out


def _prepare_one(item: Pending, rerate: bool, defer: bool) -> Entry | Refusal | Unrated:
    grid = item.grid  # a grid with rules was checked under them when it was made
    if type(grid) is Grid and conflict_reason(grid.shape, grid.cells) is not None:
        return _unsolvable(item, 0)
    form = canonical(item.grid).grid
    try:
        solution = unique_solution(form)
    except NotUniqueError as e:
        return _unsolvable(item, e.solutions)
    return _entry(item, form, ids_of_canonical([form])[0], solution, rerate, defer)


def _unsolvable(item: Pending, count: int) -> Refusal:
    """Why a puzzle with ``count`` solutions (0, or 2 for several) is not stored: a repeated
    digit the fast reader let through is reported as :func:`read_puzzles` reports it."""
    rec = item.record
    name = item.where.rsplit(":", 1)[0]
    grid = item.grid
    if rec.fmt == "line" and conflict_reason(grid.shape, grid.cells) is not None:
        bad = make_record(rec.line, rec.text, "line", name, grid.shape, None, None, rec.note)
        return Refusal(rec.line, str(bad.error))
    why = "no solution" if count == 0 else "more than one solution"
    return Refusal(rec.line, f"{name}, line {rec.line}: {why}")


#: Cell values to text, for grids of up to 9 digits (``Grid.to_line``, without its generality).
_TEXT = bytes.maketrans(bytes(range(10)), b".123456789")


def _line(grid: Grid) -> str:
    if grid.shape.n <= 9:
        return grid.cells.translate(_TEXT).decode("ascii")
    return grid.to_line()


def _entry(
    item: Pending, form: Grid, id: str, solution: Grid, rerate: bool, defer: bool = False
) -> Entry | Unrated | Refusal:
    """The entry of a unique puzzle, given its canonical form, that form's id and solution;
    with ``defer``, an :class:`Unrated` instead when it must be rated; a :class:`Refusal`
    when it must be rated and its rules leave it without a rating (a technique the rating
    needs does not run under them yet)."""
    s = item.stated
    grid = item.grid
    techniques: tuple[str, ...] | None = None
    rating: Rating | None = None  # the stated one
    # (a killer is rated even with a stated rating: its record does not state its killer level)
    if s.er is None or s.ep is None or s.ed is None or rerate or grid.rules.cages is not None:
        if defer:
            return Unrated(id, item, form, solution, rerate)
        try:
            full = rate(grid)
        except InvalidRulesError as e:  # a technique it needs does not run under its rules
            if grid.rules.cages is None:
                name = item.where.rsplit(":", 1)[0]
                return Refusal(item.record.line, f"{name}, line {item.record.line}: {e}")
            # a killer: kept with its killer level, its ER unknown until the techniques
            # it needs run there
            full = unrated_killer(grid)
        else:
            techniques = tuple(sorted({step.technique for step in full.steps}))
        rating = replace(full, steps=(), hodoku=hodoku_of(grid))
    minimal = s.minimal if s.minimal is not None and not rerate else None
    if minimal is None:
        try:
            minimal = is_minimal(form, solution)
        except InvalidRulesError:  # the generator does not read these rules yet
            minimal = None  # not established, as the column allows
    return _assemble(
        s,
        id,
        _line(form),
        _line(solution),
        grid.shape,
        symmetry_of(grid),
        _line(grid),
        grid.clue_count,
        minimal,
        item.where,
        rating,
        techniques,
        str(grid.rules),
    )


def _assemble(
    s: Stated,
    id: str,
    form: str,
    solution: str,
    shape: Shape,
    symmetry: str,
    shown: str,
    clues: int,
    minimal: bool | None,
    where: str,
    rating: Rating | None = None,
    techniques: tuple[str, ...] | None = None,
    rules: str = "classic",
) -> Entry:
    """The entry of a unique puzzle of ``shape`` under ``rules`` (their text; ``shown`` its
    text, ``symmetry`` that of its clue pattern), from its canonical form, that form's
    solution and id, what its record states (``s``), and its ``rating`` when computed here
    (else the stated one: ``s`` has one)."""
    if rating is None:
        assert s.er is not None and s.ep is not None and s.ed is not None, "a stated rating"
        er, ep, ed, hardest, grade = s.er, s.ep, s.ed, s.hardest, None
        if s.hodoku_level is not None and s.hodoku_score is not None:
            grade = HodokuGrade(level=s.hodoku_level, score=s.hodoku_score)
        killer = None
    else:
        er, ep, ed, hardest, grade = rating.er, rating.ep, rating.ed, rating.hardest, rating.hodoku
        killer = None if rating.killer is None else str(rating.killer)
    return Entry(  # positional: made for every puzzle the bank adds
        id,
        str(shape),
        form,
        solution,
        shown,
        clues,
        symmetry,
        minimal,
        er,
        ep,
        ed,
        grade.level if grade is not None else None,
        grade.score if grade is not None else None,
        hardest,
        techniques,
        where,
        s.seed if s.index is not None else None,
        s.index if s.seed is not None else None,
        rules,
        killer,
    )


def _refusal(record: Record) -> Refusal:
    return Refusal(record.line, str(record.error))
