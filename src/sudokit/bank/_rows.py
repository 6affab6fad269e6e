"""Writing rows into the bank: the statements compiled once a dialect, the ids it holds,
PostgreSQL's ``COPY``, and what became of each entry of a batch (:class:`Added`)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache, partial
from typing import Any, NamedTuple

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ._entries import ROW_COLUMNS, Entry, Unrated
from ._schema import puzzles

__all__ = [
    "COLUMNS",
    "WRITE_LOCK",
    "Added",
    "bind_of",
    "conversions",
    "copy_rows",
    "dialect_module",
    "held_in",
    "insert_sql",
    "new_added",
    "outcomes",
]


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
new_added = partial(tuple.__new__, Added)
#: An entry's canonical id (its first field).


#: The advisory lock PostgreSQL writers take in turn (another than the schema's).
WRITE_LOCK = 7355609
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


def held_in(conn: Connection, ids: Sequence[str]) -> set[str]:
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
COLUMNS = [*ROW_COLUMNS, "added", "rkey"]


def bind_of(column: sa.Column[Any], dialect: sa.Dialect) -> Any:
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


def dialect_module(name: str) -> Any:
    """SQLAlchemy's module of the dialect ``name`` (for its ``insert … on_conflict``),
    imported when first used: ``bank add`` into SQLite does not import PostgreSQL's at its
    start."""
    if name == "postgresql":
        from sqlalchemy.dialects import postgresql

        return postgresql
    from sqlalchemy.dialects import sqlite

    return sqlite


@lru_cache(maxsize=4)
def insert_sql(dialect: sa.Dialect) -> Any:
    """The ``puzzles`` insert compiled for ``dialect``, once (its SQL text is then the same
    object each batch: the driver's statement cache keeps it prepared)."""
    insert = dialect_module(dialect.name).insert(puzzles)
    stmt = insert.on_conflict_do_nothing(index_elements=["id"])
    return stmt.compile(dialect=dialect, column_keys=COLUMNS)


@lru_cache(maxsize=4)
def conversions(dialect: sa.Dialect) -> list[tuple[int, Any]]:
    """The row positions whose values the dialect's column types convert, with how."""
    return [
        (k, proc)
        for k, name in enumerate(ROW_COLUMNS)
        if (proc := bind_of(puzzles.c[name], dialect)) is not None
        and not _same(proc, name, dialect)
    ]


#: A session's table for the rows of a batch on their way in (PostgreSQL): emptied at
#: every commit, seen by no other session.
_INCOMING = "sudokit_puzzles_in"


def copy_rows(conn: Connection, rows: list[tuple[object, ...]]) -> int:
    """PostgreSQL: ``rows`` (in ``COLUMNS`` order) into ``puzzles`` by ``COPY`` into a
    temporary table, then one ``INSERT … SELECT … ON CONFLICT (id) DO NOTHING``: the same
    idempotent insert as on SQLite, without a protocol round of parameters a row. The values
    go as psycopg adapts them (text, numbers, booleans, the time with its zone)."""
    columns = ", ".join(COLUMNS)
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


def outcomes(entries: Sequence[Entry], distinct: int, held: set[str]) -> list[Added]:
    """What became of each of a batch's ``entries`` (``distinct`` ids among them), in order,
    once the first entry of each id that the bank did not hold (``held``) was stored."""
    make = new_added
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
