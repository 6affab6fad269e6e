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
from dataclasses import dataclass, field
from datetime import UTC, datetime
from operator import itemgetter
from pathlib import Path
from typing import Any, Unpack

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from .. import generator
from .._grid import Grid
from ..difficulty import RequestFields, step_names
from ..errors import BankError
from ..formats import Record
from ..generator import Dig
from ..rating import Level
from ._adding import add_rated
from ._entries import (
    KILLER_COLUMNS,
    Entry,
    Lines,
    Pending,
    Refusal,
    Stated,
    Unrated,
    entry_of,
    from_generated,
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
from ._fill import KeepPath, check_fill, entries_of, run_key
from ._query import Filters, Stored, hardest_first, in_key_order, rules_kind, stored_of
from ._rows import (
    COLUMNS,
    WRITE_LOCK,
    Added,
    bind_of,
    conversions,
    copy_rows,
    dialect_module,
    held_in,
    insert_sql,
    new_added,
    outcomes,
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
    "run_key",
    "step_names",
    "triage_task",
    "without_gc",
]


_ID = itemgetter(0)


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
        return dialect_module(self.dialect).insert(table)

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
            yield done if isinstance(done, Added | Refusal) else new_added(done)

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
                        return outcomes(entries, len(order), held)
                finally:
                    if trans.is_active:
                        trans.rollback()
            self._hopeful = False  # a stored puzzle came again: read first for a while
        with writing(self._engine) as conn, conn.begin():
            self._take_turn(conn)
            held = held_in(conn, [e[0] for e in order])
            new = [e for e in order if e[0] not in held] if held else order
            if new:
                self._insert_rows(conn, new)
            self._finish(conn, new, run)
        self._hopeful = not held
        return outcomes(entries, len(order), held)

    def _take_turn(self, conn: Connection) -> None:
        """Wait for this writer's turn (SQLite: its ``BEGIN IMMEDIATE`` did)."""
        if self.dialect == "postgresql":
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": WRITE_LOCK})

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
        compiled = insert_sql(dialect)
        # What the column types make of values before the driver sees them (SQLite: text
        # for times); the time is one for the batch, made once.
        convert = conversions(dialect)
        stamp = bind_of(puzzles.c.added, dialect)
        now: object = datetime.now(UTC)
        added = stamp(now) if stamp is not None else now
        rows: list[Any] = stored_rows(entries, added, self._rng.random)
        if dialect.name == "postgresql":
            return copy_rows(conn, rows)
        if convert:
            for at, row in enumerate(rows):
                values = list(row)
                for k, proc in convert:
                    values[k] = proc(values[k])
                rows[at] = tuple(values)
        if not compiled.positional:
            rows = [dict(zip(COLUMNS, row, strict=True)) for row in rows]
        elif compiled.positiontup != COLUMNS:  # pragma: no cover - Core keeps the table's order
            order = [COLUMNS.index(name) for name in compiled.positiontup or ()]
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
            accept=KeepPath(accept),
            cluster=cluster,
        )
        new = 0
        try:
            for entries in stream.rendered(entries_of):
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
                rows = hardest_first(conn, base, limit, levels)
            elif not randomly:
                order = (puzzles.c.er.desc(),) if hardest else (puzzles.c.added,)
                stmt = base.order_by(*order, puzzles.c.id)
                rows = list(conn.execute(stmt if limit is None else stmt.limit(limit)))
            else:
                want = 1 if limit is None else limit
                r = (rng or self._rng).random()
                scan = [*levels[0], *levels[1]]
                rows = in_key_order(conn, base, puzzles.c.rkey >= r, want, scan)
                if len(rows) < want:
                    more = want - len(rows)
                    rows += in_key_order(conn, base, puzzles.c.rkey < r, more, scan)
            paths = self._paths(conn, [row.id for row in rows if row.path_known])
        return [stored_of(row, paths.get(row.id, ())) for row in rows]

    def held(self, ids: Iterable[str]) -> set[str]:
        """Which of the canonical ids ``ids`` the bank holds (one query per 4096 ids)."""
        wanted = sorted(set(ids))
        if not wanted:
            return set()
        with self._engine.connect() as conn:
            return held_in(conn, wanted)

    def get(self, id: str) -> Stored | None:
        """The stored puzzle of canonical id ``id``, or None."""
        with self._engine.connect() as conn:
            row = conn.execute(sa.select(puzzles).where(puzzles.c.id == id)).first()
            if row is None:
                return None
            paths = self._paths(conn, [row.id] if row.path_known else [])
        return stored_of(row, paths.get(row.id, ()))

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
        """Counts of the stored puzzles: in all, and by rules, shape, level, hardest technique and
        clue count (levels in order of difficulty, the rest by count, then name)."""
        p = puzzles.c
        out: dict[str, Any] = {}
        with self._engine.connect() as conn:
            out["puzzles"] = int(
                conn.execute(sa.select(sa.func.count()).select_from(puzzles)).scalar_one()
            )
            for name, col in (
                ("rules", p.rules),
                ("shape", p.shape),
                ("level", p.level),
                ("hardest", p.hardest),
                ("clues", p.clues),
            ):
                stmt = sa.select(col, sa.func.count()).group_by(col)
                counts = {("unknown" if k is None else k): int(v) for k, v in conn.execute(stmt)}
                if name == "rules":  # killers by kind: each cage layout is its own rules
                    kinds: dict[str, int] = {}
                    for k, v in counts.items():
                        kinds[rules_kind(k)] = kinds.get(rules_kind(k), 0) + v
                    counts = kinds
                if name == "level":
                    order = [*(str(lv) for lv in Level), *KILLER_COLUMNS.values()]
                    out[name] = {k: counts[k] for k in order if k in counts}
                elif name == "clues":
                    out[name] = {str(k): counts[k] for k in sorted(counts)}
                else:
                    out[name] = dict(sorted(counts.items(), key=lambda kv: (-kv[1], str(kv[0]))))
        return out
