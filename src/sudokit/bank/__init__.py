"""The puzzle bank: puzzles keyed by their canonical id, in a SQLite file or a PostgreSQL
database, through one SQLAlchemy Core code path.

Terms:

- The **canonical id** (:func:`sudokit.canon.canonical_id`) is the same for every isomorph of
  a puzzle (relabelled, rows and columns permuted within bands and stacks, transposed), so a
  puzzle is stored once whatever form it comes in; the bank keeps the canonical form, its
  solution, and the **shown** form, as the puzzle came in (a generator's symmetric pattern).
- Writes are **idempotent** by that id (``INSERT … ON CONFLICT DO NOTHING``), in batched
  transactions: two writers, a retried batch, a rerun after a kill all end with the union.
- A **random pick** draws ``r`` in [0, 1) and takes the first puzzle at or after ``r`` in the
  random ``rkey`` order that matches the filters (wrapping around): one index range scan,
  fast on millions of rows (``ORDER BY random()`` reads them all).
- A **run** is a ``bank fill`` with given options: the ``runs`` table keeps its seed and the
  next index to make, updated in the same transaction as the puzzles, so a rerun after a kill
  goes on where the last commit left off.

The schema, the URLs and the concurrency guarantees: ``docs/bank.md``.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import UTC, datetime
from functools import lru_cache, partial
from operator import itemgetter
from pathlib import Path
from typing import Any, NamedTuple, Unpack

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from .. import generator
from .._grid import Grid
from .._shape import Shape
from ..canon import Transform, random_isomorph
from ..difficulty import Difficulty, RateAll, Rated, Request, RequestFields, rated, step_names
from ..engine import unique_solution
from ..errors import BankError
from ..formats import Record
from ..generator import Dig, Generated
from ..rating import Level, Rating, hodoku, rate
from ._adding import add_rated
from ._entries import (
    ROW_COLUMNS,
    Entry,
    Lines,
    Pending,
    Refusal,
    Stated,
    Unrated,
    entry_of,
    from_generated,
    grid_of_line,
    prepare,
    prepare_many,
    prepare_task,
    prepared,
    rate_unrated,
    read_pending,
    read_pieces,
    read_tasks,
    stored_rows,
    triage_task,
    without_gc,
)
from ._schema import SCHEMA_VERSION, meta, open_engine, puzzles, runs, techniques, writing

__all__ = [
    "SCHEMA_VERSION",
    "Added",
    "Bank",
    "BankError",
    "Entry",
    "Filters",
    "Lines",
    "Pending",
    "Refusal",
    "Stated",
    "Stored",
    "Unrated",
    "check_fill",
    "entry_of",
    "from_generated",
    "prepare",
    "prepare_many",
    "prepare_task",
    "prepared",
    "rate_unrated",
    "read_pending",
    "read_pieces",
    "read_tasks",
    "step_names",
    "triage_task",
    "without_gc",
]


@dataclass(frozen=True, slots=True)
class Filters:
    """What ``bank query`` selects; every filter given must hold."""

    level: Level | None = None
    er: tuple[float, float] | None = None
    require: tuple[str, ...] = ()  # techniques or groups: the solve path uses each
    clues: tuple[int, int] | None = None
    shape: Shape | str | None = None  # given as its text ("2x3"), kept as a Shape
    symmetry: str | None = None

    def __post_init__(self) -> None:
        if self.shape is not None:
            object.__setattr__(self, "shape", Shape.of(self.shape))
        for name in self.require:
            step_names(name)  # ValueError for an unknown technique, at once
        if self.symmetry is not None and self.symmetry not in generator.SYMMETRIES:
            raise ValueError(
                f"unknown symmetry {self.symmetry!r}; choose from {', '.join(generator.SYMMETRIES)}"
            )

    def levels(self) -> list[Level]:
        """The levels a matching puzzle can have, easiest first: the level asked for, else
        those an ER range reaches (a stored level is :meth:`Level.of` its ER, which grows
        with the ER), else all. Random picks and the hardest first go level by level
        over the ``(level, rkey)`` index, so an ER range reads only its levels' rows."""
        if self.level is not None:
            return [self.level]
        if self.er is not None:
            lo, hi = self.er
            return [] if lo > hi else [lv for lv in Level if Level.of(lo) <= lv <= Level.of(hi)]
        return list(Level)

    def where(self) -> list[sa.ColumnElement[bool]]:
        p = puzzles.c
        out: list[sa.ColumnElement[bool]] = []
        if self.level is not None:
            out.append(p.level == str(self.level))
        if self.er is not None:
            out.append(p.er.between(self.er[0], self.er[1]))
        if self.clues is not None:
            out.append(p.clues.between(self.clues[0], self.clues[1]))
        if self.shape is not None:
            out.append(p.shape == str(self.shape))
        if self.symmetry is not None:
            out.append(p.symmetry == self.symmetry)
        for name in self.require:
            used = sa.select(techniques.c.id).where(
                techniques.c.id == p.id, techniques.c.technique.in_(sorted(step_names(name)))
            )
            out.append(used.exists())
        return out


@dataclass(frozen=True, slots=True)
class Stored:
    """A puzzle read back from the bank."""

    id: str
    shape: Shape
    puzzle: Grid  # canonical form
    solution: Grid  # of the canonical form
    shown: Grid  # as it came in
    symmetry: str  # of the shown form
    minimal: bool | None
    rating: Rating  # no steps; hardest None when the record that brought it did not say
    techniques: tuple[str, ...] | None  # None: path not known
    source: str
    seed: int | None
    index: int | None
    added: datetime

    def isomorph(self, rng: random.Random) -> tuple[Grid, Grid]:
        """A random relabelled and transformed copy of the puzzle and its solution, with the
        shown form's symmetry (:func:`sudokit.canon.random_isomorph`, as the service serves
        them), never equal to the stored texts unless the puzzle has no other such form."""
        t = self.isomorph_transform(rng)
        return t.apply(self.shown), t.apply(self.shown_solution())

    def isomorph_transform(self, rng: random.Random) -> Transform:
        """The random transform :meth:`isomorph` applies to the shown form (for a caller that
        wants the copy of the puzzle, and its solution only when asked)."""
        for _ in range(20):
            t, grid = random_isomorph(self.shown, rng, self.symmetry)
            if grid not in (self.shown, self.puzzle):
                break
        return t

    def shown_solution(self) -> Grid:
        """The solution in the shown form's coordinates."""
        return unique_solution(self.shown)


class Added(NamedTuple):
    """What became of an entry given to :meth:`Bank.add`: ``new`` False for a duplicate (an
    isomorph of it was stored already, or came earlier in the same input). A named tuple:
    one is made for every puzzle stored, in the process that stores. From
    :meth:`Bank.add_file`, a duplicate found before it was rated is its :class:`Unrated`
    (``id`` and ``source`` as an entry's)."""

    entry: Entry | Unrated
    new: bool


#: An :class:`Added` made of its two fields as one tuple, without the named tuple's Python
#: ``__new__``: one is made for every puzzle a batch stores.
_new_added = partial(tuple.__new__, Added)
#: An entry's canonical id (its first field).
_ID = itemgetter(0)


@dataclass(frozen=True, slots=True)
class Banked(Rated):
    """A generated puzzle rated by ``bank fill``, with the techniques of its SE path."""

    techniques: tuple[str, ...] = ()


@dataclass(frozen=True)
class _KeepPath:
    """An acceptance (see :class:`sudokit.generator.Acceptance`) wrapping a difficulty target
    that keeps what the bank stores of each accepted puzzle: the techniques of its path and
    its HoDoKu grade (the difficulty layer drops the steps once it has judged)."""

    inner: Difficulty | RateAll

    @property
    def logic(self) -> int:
        return self.inner.logic

    def judge(self, found: Generated, deadline: float | None) -> tuple[float, Generated]:
        if isinstance(self.inner, Difficulty):
            ok, rating, gap = self.inner.check(found.puzzle, deadline)
        else:
            ok, rating, gap = True, rate(found.puzzle, deadline=deadline), 0.0
        if not ok:
            return gap, rated(found, rating)
        used = tuple(sorted({s.technique for s in rating.steps}))
        if rating.hodoku is None:
            rating = replace(rating, hodoku=hodoku(found.puzzle))
        facts = {f.name: getattr(found, f.name) for f in fields(Generated)}
        return 0.0, Banked(**facts, rating=replace(rating, steps=()), techniques=used)

    def describe(self) -> str:
        return self.inner.describe()

    def summary(self, found: Generated) -> str:
        return self.inner.summary(found)


def _entries_of(batch: list[Generated]) -> list[Entry]:
    """A chunk of generated puzzles as entries (in the worker that made them)."""
    return [
        from_generated(g, g.techniques if isinstance(g, Banked) else None)
        for g in batch
        if isinstance(g, Rated)
    ]


#: The advisory lock PostgreSQL writers take in turn (another than the schema's).
_WRITE_LOCK = 7355609
#: Ids a ``SELECT … WHERE id IN (…)`` asks about at once (SQLite takes 32,766 parameters;
#: one of the sizes :func:`_held_sql` pads to).
_IN_LIMIT = 4096


def _held_sql(dialect: sa.Dialect, count: int) -> tuple[str, bool, tuple[str, ...]]:
    """``SELECT id FROM puzzles WHERE id IN (…)`` for at least ``count`` ids (16, 256 or
    4096: three statements serve every batch, the ids padded with a repeated one), compiled
    once for the dialect: the SQL, whether its parameters are positional, and their names.
    Run through the driver, it costs no SQLAlchemy work a call (``in_(list)`` made a bound
    parameter per id: 5 us a puzzle)."""
    size = next(size for size in (16, 256, _IN_LIMIT) if size >= count)
    return _held_sized(dialect, size)


@lru_cache(maxsize=16)
def _held_sized(dialect: sa.Dialect, size: int) -> tuple[str, bool, tuple[str, ...]]:
    marks = [sa.bindparam(f"i{k}", type_=puzzles.c.id.type) for k in range(size)]
    compiled = sa.select(puzzles.c.id).where(puzzles.c.id.in_(marks)).compile(dialect=dialect)
    names = tuple(compiled.positiontup or [f"i{k}" for k in range(size)])
    return str(compiled), bool(compiled.positional), names


def _held_in(conn: Connection, ids: Sequence[str]) -> set[str]:
    """Which of ``ids`` the bank holds, asked ``_IN_LIMIT`` at a time."""
    held: set[str] = set()
    for k in range(0, len(ids), _IN_LIMIT):
        part = list(ids[k : k + _IN_LIMIT])
        sql, positional, names = _held_sql(conn.dialect, len(part))
        part += part[-1:] * (len(names) - len(part))  # a repeated id changes nothing
        params: Any = tuple(part) if positional else dict(zip(names, part, strict=True))
        held.update(row[0] for row in conn.exec_driver_sql(sql, params))
    return held


#: The ``puzzles`` columns in the order :meth:`Entry.values` gives them, then the two the
#: bank sets when it stores a row.
_COLUMNS = [*ROW_COLUMNS, "added", "rkey"]


def _bind(column: sa.Column[Any], dialect: sa.Dialect) -> Any:
    """The function the dialect's form of ``column``'s type applies to a value it binds."""
    return column.type.dialect_impl(dialect).bind_processor(dialect)


def _same(proc: Any, name: str, dialect: sa.Dialect) -> bool:
    """Whether rows can skip the bind processor of column ``name``: a boolean one that gives
    back values equal to what it is given (SQLite's makes True 1: the driver binds a bool as
    that integer itself), or SQLite's float one (``float(v)``: the driver binds a float as
    itself, and the column's REAL affinity stores an integer as REAL, as ``float`` would)."""
    kind = puzzles.c[name].type
    if isinstance(kind, sa.Float) and dialect.name == "sqlite":
        return all(proc(v) == v for v in (0.5, 2, None))
    if not isinstance(kind, sa.Boolean):
        return False
    return all(
        proc(v) == v and type(proc(v)) in (bool, int, type(None)) for v in (True, False, None)
    )


def _dialect_module(name: str) -> Any:
    """SQLAlchemy's module of the dialect ``name`` (for its ``insert … on_conflict``),
    imported when first used: ``bank add`` into SQLite does not import PostgreSQL's at its
    start."""
    if name == "postgresql":
        from sqlalchemy.dialects import postgresql

        return postgresql
    from sqlalchemy.dialects import sqlite

    return sqlite


@lru_cache(maxsize=4)
def _insert_sql(dialect: sa.Dialect) -> Any:
    """The ``puzzles`` insert compiled for ``dialect``, once (its SQL text is then the same
    object each batch: the driver's statement cache keeps it prepared)."""
    insert = _dialect_module(dialect.name).insert(puzzles)
    stmt = insert.on_conflict_do_nothing(index_elements=["id"])
    return stmt.compile(dialect=dialect, column_keys=_COLUMNS)


@lru_cache(maxsize=4)
def _conversions(dialect: sa.Dialect) -> list[tuple[int, Any]]:
    """The row positions whose values the dialect's column types convert, with how."""
    return [
        (k, proc)
        for k, name in enumerate(ROW_COLUMNS)
        if (proc := _bind(puzzles.c[name], dialect)) is not None and not _same(proc, name, dialect)
    ]


#: A session's table for the rows of a batch on their way in (PostgreSQL): emptied at
#: every commit, seen by no other session.
_INCOMING = "sudokit_puzzles_in"


def _copy_rows(conn: Connection, rows: list[tuple[object, ...]]) -> int:
    """PostgreSQL: ``rows`` (in ``_COLUMNS`` order) into ``puzzles`` by ``COPY`` into a
    temporary table, then one ``INSERT … SELECT … ON CONFLICT (id) DO NOTHING``: the same
    idempotent insert as on SQLite, without a protocol round of parameters a row. The values
    go as psycopg adapts them (text, numbers, booleans, the time with its zone)."""
    columns = ", ".join(_COLUMNS)
    raw: Any = conn.connection.driver_connection
    with raw.cursor() as cur:
        cur.execute("SET LOCAL client_min_messages = warning")  # not "exists, skipping"
        cur.execute(
            f"CREATE TEMPORARY TABLE IF NOT EXISTS {_INCOMING} "
            "(LIKE puzzles INCLUDING DEFAULTS) ON COMMIT DELETE ROWS"
        )
        with cur.copy(f"COPY {_INCOMING} ({columns}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
        cur.execute(
            f"INSERT INTO puzzles ({columns}) SELECT {columns} FROM {_INCOMING} "
            "ON CONFLICT (id) DO NOTHING"
        )
        return int(cur.rowcount)


def _row_rng() -> random.Random:
    return random.Random(int.from_bytes(os.urandom(16), "little"))


@dataclass
class Bank:
    """A puzzle bank: a SQLite file (a path) or a PostgreSQL database (``postgresql://…``).

    Opening checks the schema: an empty database gets one (unless ``create`` is False), an
    older one is upgraded, a newer one or a database that is not a bank is refused
    (:class:`BankError`) before anything is written.
    """

    target: str | Path
    create: bool = True  # False: a missing or empty bank is an error, not made
    name: str = field(init=False)
    dialect: str = field(init=False)

    def __post_init__(self) -> None:
        self._engine, self.name = open_engine(self.target, create=self.create)
        self.dialect = self._engine.dialect.name
        self._rng = _row_rng()
        # Whether the next batch is written without reading first which ids are held
        # (see _write): so while the batches bring only new puzzles.
        self._hopeful = True

    def close(self) -> None:
        self._engine.dispose()

    def __enter__(self) -> Bank:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _insert(self, table: sa.Table) -> Any:
        return _dialect_module(self.dialect).insert(table)

    # Writing ---------------------------------------------------------------------------------

    def add(
        self, entries: Iterable[Entry], *, batch: int = 10000, max_delay: float = 1.0
    ) -> Iterator[Added]:
        """Store ``entries``, ``batch`` to a transaction (sooner when the first entry of a
        batch has waited ``max_delay`` seconds for the rest), yielding what became of each,
        in order, as its transaction commits."""
        if batch < 1:
            raise ValueError(f"batch must be at least 1, got {batch}")
        pending: list[Entry] = []
        since = 0.0
        for e in entries:
            if not pending:
                since = time.monotonic()
            pending.append(e)
            if len(pending) >= batch or time.monotonic() - since >= max_delay:
                yield from self._write(pending)
                pending = []
        if pending:
            yield from self._write(pending)

    def add_file(
        self,
        chunks: Iterable[Sequence[Entry | Refusal | Unrated]],
        *,
        jobs: int = 1,
        batch: int = 10000,
        max_delay: float = 1.0,
    ) -> Iterator[Added | Refusal]:
        """Store the puzzles of ``chunks`` (:func:`prepared` with ``triage``, from a file),
        yielding what became of each (a :class:`Refusal` as it is) as it is done, not in input
        order: entries with a stated rating as :meth:`add` stores them; puzzles to rate are
        first looked up by canonical id (a duplicate is one at once, not rated), then rated
        by ``jobs`` worker processes while this process stores what they give back,
        committed ``batch`` at a time and at the latest ``max_delay`` seconds after the
        first that waits. A run killed at any time keeps what it committed; a rerun finds
        those held and rates only the rest (:mod:`sudokit.bank._adding`)."""
        for done in add_rated(
            chunks, store=self._write, held=self.held, jobs=jobs, batch=batch, max_delay=max_delay
        ):
            yield done if isinstance(done, Added | Refusal) else _new_added(done)

    def add_puzzles(
        self, puzzles: Iterable[Grid | str], *, source: str = "library"
    ) -> list[Added | Refusal]:
        """Store puzzles given as grids: each is checked (one solution), put in canonical
        form and rated here with its SE path, as ``bank add`` does for a file; what became of
        each comes back in order (a :class:`Refusal` for one without exactly one solution).
        ``source`` names where they came from (``SOURCE:N`` for the N-th)."""
        items: list[Pending | Record] = [
            Pending(Record(i, g, None, g.to_line(), "line"), f"{source}:{i}")
            for i, g in enumerate(map(Grid.of, puzzles), 1)
        ]
        done = prepare_many(items)
        stored = iter(self.add([d for d in done if isinstance(d, Entry)]))
        return [next(stored) if isinstance(d, Entry) else d for d in done]

    def _write(
        self, entries: Sequence[Entry], run: tuple[str, int, int] | None = None
    ) -> list[Added]:
        """One transaction: the entries that are new, their techniques, and a run's progress
        (key, seed, next index) when given.

        Writers take turns (SQLite: ``BEGIN IMMEDIATE``; PostgreSQL: a transaction-level
        advisory lock), so the ids the bank holds, read at the start of the transaction, say
        exactly which entries are new; the insert of those is still ``ON CONFLICT DO
        NOTHING``. While the last batch held no stored puzzle, that read is skipped: the whole
        batch is inserted, and the number of rows the insert made says whether every one was
        new (the usual case); if not, that transaction is rolled back and the batch written
        again the exact way, reading first (and so are the next batches, until one is all new
        again). The rows go to the driver's ``executemany`` as plain tuples, in the SQL
        SQLAlchemy Core compiles for the dialect (PostgreSQL: by ``COPY``): per row, no more
        Python than building it. No cyclic garbage collection runs meanwhile
        (:func:`without_gc`).
        """
        with without_gc():
            return self._write_batch(entries, run)

    def _write_batch(
        self, entries: Sequence[Entry], run: tuple[str, int, int] | None
    ) -> list[Added]:
        first = {e[0]: e for e in reversed(entries)}  # each id's first entry (e[0]: its id)
        order = sorted(first.values(), key=_ID)  # one lock order (B-tree order, too)
        held: set[str] = set()
        if self._hopeful:
            with writing(self._engine) as conn:
                trans = conn.begin()
                try:
                    self._take_turn(conn)
                    made = self._insert_rows(conn, order)
                    if made == len(order):  # every one new: exactly what the read would say
                        self._finish(conn, order, run)
                        trans.commit()
                        return _outcomes(entries, len(order), held)
                finally:
                    if trans.is_active:
                        trans.rollback()
            self._hopeful = False  # a stored puzzle came again: read first for a while
        with writing(self._engine) as conn, conn.begin():
            self._take_turn(conn)
            held = _held_in(conn, [e[0] for e in order])
            new = [e for e in order if e[0] not in held] if held else order
            if new:
                self._insert_rows(conn, new)
            self._finish(conn, new, run)
        self._hopeful = not held
        return _outcomes(entries, len(order), held)

    def _take_turn(self, conn: Connection) -> None:
        """Wait for this writer's turn (SQLite: its ``BEGIN IMMEDIATE`` did)."""
        if self.dialect == "postgresql":
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": _WRITE_LOCK})

    def _finish(
        self, conn: Connection, stored: list[Entry], run: tuple[str, int, int] | None
    ) -> None:
        """The rest of a write transaction once the entries ``stored`` are in: their
        techniques, and a run's progress."""
        paths = [
            {"id": e[0], "technique": t}
            for e in stored
            if e.techniques
            for t in sorted(set(e.techniques))
        ]
        if paths:
            conn.execute(self._insert(techniques).on_conflict_do_nothing(), paths)
        if run is not None:
            self._advance(conn, *run)

    def _insert_rows(self, conn: Connection, entries: list[Entry]) -> int:
        """``INSERT … ON CONFLICT (id) DO NOTHING`` of ``entries`` in one ``executemany``;
        the number of rows it made (not counting those whose id the bank held)."""
        dialect = conn.dialect
        compiled = _insert_sql(dialect)
        # What the column types make of values before the driver sees them (SQLite: text
        # for times); the time is one for the batch, made once.
        convert = _conversions(dialect)
        stamp = _bind(puzzles.c.added, dialect)
        now: object = datetime.now(UTC)
        added = stamp(now) if stamp is not None else now
        rows: list[Any] = stored_rows(entries, added, self._rng.random)
        if dialect.name == "postgresql":
            return _copy_rows(conn, rows)
        if convert:
            for at, row in enumerate(rows):
                values = list(row)
                for k, proc in convert:
                    values[k] = proc(values[k])
                rows[at] = tuple(values)
        if not compiled.positional:
            rows = [dict(zip(_COLUMNS, row, strict=True)) for row in rows]
        elif compiled.positiontup != _COLUMNS:  # pragma: no cover - Core keeps the table's order
            order = [_COLUMNS.index(name) for name in compiled.positiontup or ()]
            rows = [tuple(row[k] for k in order) for row in rows]
        return int(conn.exec_driver_sql(str(compiled), rows).rowcount)

    def _advance(self, conn: Connection, key: str, seed: int, next_index: int) -> None:
        ins = self._insert(runs).values(
            key=key, seed=str(seed), next_index=next_index, updated=datetime.now(UTC)
        )
        later = sa.case(
            (runs.c.next_index > ins.excluded.next_index, runs.c.next_index),
            else_=ins.excluded.next_index,
        )
        conn.execute(
            ins.on_conflict_do_update(
                index_elements=["key"], set_={"next_index": later, "updated": ins.excluded.updated}
            )
        )

    def run_state(self, key: str) -> tuple[int, int] | None:
        """The (seed, next index) of the run ``key``, if one was recorded."""
        with self._engine.connect() as conn:
            row = conn.execute(
                sa.select(runs.c.seed, runs.c.next_index).where(runs.c.key == key)
            ).first()
        return None if row is None else (int(row[0]), int(row[1]))

    def fill(
        self,
        count: int,
        request: Dig | None = None,
        *,
        seed: int | None = None,
        jobs: int = 1,
        timeout: float | None = 60.0,
        cluster: str | None = None,
        **fields: Unpack[RequestFields],
    ) -> Iterator[Added]:
        """Generate puzzles of a :class:`~sudokit.difficulty.Request` (its fields may come
        as keywords, as in :func:`sudokit.difficulty.generate`) until ``count`` of them were
        new to the bank, yielding what became of each one made.

        Resumable: the run's seed and next index are stored with each transaction (the run
        is keyed by the request's :meth:`~sudokit.difficulty.Request.key`, and the seed when
        given), so calling it again with the same request goes on from the last commit
        instead of making the same puzzles again. Raises ValueError for targets no puzzle
        can meet, GenerationError when one puzzle cannot be found within ``timeout``.

        ``cluster`` (an address, see :mod:`sudokit.cluster`) makes and rates the puzzles as
        tasks on a Dask cluster instead of ``jobs`` processes; this process only stores them.
        The writes are idempotent by canonical id, so a task run twice changes nothing.
        """
        req = check_fill(count, request, timeout=timeout, **fields)
        accept = req.accept
        assert accept is not None  # a fill's request rates: never None
        key = run_key(req, seed)
        state = self.run_state(key)
        start = 0
        if state is not None:
            seed, start = state
        elif seed is None:
            seed = int.from_bytes(os.urandom(8), "little")
        stream = generator.generate_many(
            (1 << 62) - start,
            req,
            seed=seed,
            start=start,
            jobs=jobs,
            timeout=timeout,
            accept=_KeepPath(accept),
            cluster=cluster,
        )
        new = 0
        try:
            for entries in stream.rendered(_entries_of):
                # Near the end, one puzzle a transaction: exactly ``count`` new ones.
                groups = [entries] if count - new >= len(entries) else [[e] for e in entries]
                for group in groups:
                    if new >= count:
                        return
                    assert group[-1].index is not None  # every generated entry has one
                    for added in self._write(group, run=(key, seed, group[-1].index + 1)):
                        new += added.new
                        yield added
                if new >= count:
                    return
        finally:
            stream.close()

    # Reading ---------------------------------------------------------------------------------

    def count(self, filters: Filters | None = None) -> int:
        """How many stored puzzles match ``filters``."""
        stmt = (
            sa.select(sa.func.count()).select_from(puzzles).where(*(filters or Filters()).where())
        )
        with self._engine.connect() as conn:
            return int(conn.execute(stmt).scalar_one())

    def query(
        self,
        filters: Filters | None = None,
        *,
        limit: int | None = None,
        randomly: bool = False,
        rng: random.Random | None = None,
        hardest: bool = False,
    ) -> list[Stored]:
        """The stored puzzles that match ``filters``: in the order they were added, with
        ``hardest`` by ER from the highest (``sudokit hunt --from-bank`` takes its seeds so),
        or with ``randomly`` a random run of ``limit`` of them (see the module's random
        pick)."""
        keep = filters or Filters()
        base = sa.select(puzzles).where(*keep.where())
        levels = keep.levels()
        with self._engine.connect() as conn:
            if hardest and limit is not None:
                rows = _hardest_first(conn, base, limit, levels)
            elif not randomly:
                order = (puzzles.c.er.desc(),) if hardest else (puzzles.c.added,)
                stmt = base.order_by(*order, puzzles.c.id)
                rows = list(conn.execute(stmt if limit is None else stmt.limit(limit)))
            else:
                want = 1 if limit is None else limit
                r = (rng or self._rng).random()
                rows = _in_key_order(conn, base, puzzles.c.rkey >= r, want, levels)
                if len(rows) < want:
                    more = want - len(rows)
                    rows += _in_key_order(conn, base, puzzles.c.rkey < r, more, levels)
            paths = self._paths(conn, [row.id for row in rows if row.path_known])
        return [_stored(row, paths.get(row.id, ())) for row in rows]

    def held(self, ids: Iterable[str]) -> set[str]:
        """Which of the canonical ids ``ids`` the bank holds (one query per 4096 ids)."""
        wanted = sorted(set(ids))
        if not wanted:
            return set()
        with self._engine.connect() as conn:
            return _held_in(conn, wanted)

    def get(self, id: str) -> Stored | None:
        """The stored puzzle of canonical id ``id``, or None."""
        with self._engine.connect() as conn:
            row = conn.execute(sa.select(puzzles).where(puzzles.c.id == id)).first()
            if row is None:
                return None
            paths = self._paths(conn, [row.id] if row.path_known else [])
        return _stored(row, paths.get(row.id, ()))

    def secret(self, key: str = "secret") -> bytes:
        """A random 32-byte secret kept in the bank's ``meta`` table under ``key``: made on
        the first call (by whichever writer gets there first), the same for every process
        that opens the bank afterwards. The service signs its puzzle ids with it."""
        with self._engine.connect() as conn:
            found = conn.execute(sa.select(meta.c.value).where(meta.c.key == key)).scalar()
        if found is None:
            with writing(self._engine) as conn, conn.begin():
                made = os.urandom(32).hex()
                conn.execute(
                    self._insert(meta).values(key=key, value=made).on_conflict_do_nothing()
                )
                found = conn.execute(sa.select(meta.c.value).where(meta.c.key == key)).scalar()
        return bytes.fromhex(str(found))

    def _paths(self, conn: Connection, ids: list[str]) -> dict[str, tuple[str, ...]]:
        out: dict[str, list[str]] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            stmt = sa.select(techniques.c.id, techniques.c.technique).where(
                techniques.c.id.in_(chunk)
            )
            for i, t in conn.execute(stmt):
                out.setdefault(i, []).append(t)
        return {i: tuple(sorted(ts)) for i, ts in out.items()}

    def stats(self) -> dict[str, Any]:
        """Counts of the stored puzzles: in all, and by shape, level, hardest technique and
        clue count (levels in order of difficulty, the rest by count, then name)."""
        p = puzzles.c
        out: dict[str, Any] = {}
        with self._engine.connect() as conn:
            out["puzzles"] = int(
                conn.execute(sa.select(sa.func.count()).select_from(puzzles)).scalar_one()
            )
            for name, col in (
                ("shape", p.shape),
                ("level", p.level),
                ("hardest", p.hardest),
                ("clues", p.clues),
            ):
                stmt = sa.select(col, sa.func.count()).group_by(col)
                counts = {("unknown" if k is None else k): int(v) for k, v in conn.execute(stmt)}
                if name == "level":
                    order = [str(lv) for lv in Level]
                    out[name] = {k: counts[k] for k in order if k in counts}
                elif name == "clues":
                    out[name] = {str(k): counts[k] for k in sorted(counts)}
                else:
                    out[name] = dict(sorted(counts.items(), key=lambda kv: (-kv[1], str(kv[0]))))
        return out


def _outcomes(entries: Sequence[Entry], distinct: int, held: set[str]) -> list[Added]:
    """What became of each of a batch's ``entries`` (``distinct`` ids among them), in order,
    once the first entry of each id that the bank did not hold (``held``) was stored."""
    make = _new_added
    if distinct == len(entries):  # no id twice in the batch
        if not held:
            return [make((e, True)) for e in entries]
        return [make((e, e[0] not in held)) for e in entries]
    seen = set(held)
    out = []
    for e in entries:  # an id's first entry is the new one; later ones are duplicates
        out.append(make((e, e[0] not in seen)))
        seen.add(e[0])
    return out


def _in_key_order(
    conn: Connection,
    base: sa.Select[Any],
    where: sa.ColumnElement[bool],
    want: int,
    levels: list[Level],
) -> list[Any]:
    """The first ``want`` rows of ``base`` that match ``where``, in ``rkey`` order: one range
    scan of the ``(level, rkey)`` index a level that ``base`` can match, merged: the same rows
    as one scan of all levels would give, without an index of ``rkey`` alone for every
    insert to keep."""
    ordered = base.where(where).order_by(puzzles.c.rkey).limit(want)
    rows = [
        row
        for level in levels
        for row in conn.execute(ordered.where(puzzles.c.level == str(level)))
    ]
    rows.sort(key=lambda row: row.rkey)
    return rows[:want]


def _hardest_first(
    conn: Connection, base: sa.Select[Any], limit: int, levels: list[Level]
) -> list[Any]:
    """The first ``limit`` rows of ``base`` by ER from the highest (then id), level by level
    from the hardest: a level's rows all rate above an easier level's, so only the levels
    that reach the limit are sorted, not the whole bank (there is no index of ER)."""
    rows: list[Any] = []
    for level in reversed(levels):
        if len(rows) >= limit:
            break
        stmt = base.where(puzzles.c.level == str(level)).order_by(puzzles.c.er.desc(), puzzles.c.id)
        rows += conn.execute(stmt.limit(limit - len(rows)))
    return rows


def check_fill(
    count: int,
    request: Dig | None = None,
    *,
    timeout: float | None = 60.0,
    **fields: Unpack[RequestFields],
) -> Request:
    """The request :meth:`Bank.fill` generates for (``request`` with the ``fields`` given,
    rated); ValueError for what no puzzle can meet (an unknown level or technique, an ER
    range outside the level, a bad count, symmetry or timeout). Needs no bank: ``bank fill``
    checks its options with it before it opens (or makes) one."""
    if count < 1:
        raise ValueError(f"count must be at least 1, got {count}")
    generator.check_timeout(timeout)
    return Request.of(request, **{**fields, "rate": True})


def run_key(request: Request, seed: int | None) -> str:
    """The ``runs`` key of a fill of ``request`` (and its seed when one was given)."""
    key = request.key()
    return key if seed is None else f"{key} seed={seed}"


def _stored(row: Any, path: tuple[str, ...]) -> Stored:
    shape = Shape.parse(row.shape)
    grade = None
    if row.hodoku_level is not None and row.hodoku_score is not None:
        from ..logic.hodoku import HodokuGrade

        grade = HodokuGrade(row.hodoku_level, row.hodoku_score)
    rating = Rating(row.er, row.ep, row.ed, row.er < 20.0, row.hardest, hodoku=grade)
    added = row.added if row.added.tzinfo is not None else row.added.replace(tzinfo=UTC)
    return Stored(
        id=row.id,
        shape=shape,
        puzzle=grid_of_line(row.puzzle, shape),
        solution=grid_of_line(row.solution, shape),
        shown=grid_of_line(row.shown, shape),
        symmetry=row.symmetry,
        minimal=row.minimal,
        rating=rating,
        techniques=path if row.path_known else None,
        source=row.source,
        seed=int(row.seed) if row.seed is not None else None,
        index=row.seq,
        added=added,
    )
