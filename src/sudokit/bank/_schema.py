"""The bank's schema, its version, and opening a bank by path or URL (one SQLAlchemy Core code
path for SQLite and PostgreSQL).

Terms:

- The **schema version** is an integer in the ``meta`` table (key ``schema``). A bank of an
  older version is upgraded when opened (:data:`UPGRADES`); one of a newer version is refused
  before anything is written.
- A **URL** is ``postgresql://…`` (also ``postgres://`` and ``postgresql+psycopg://``: psycopg
  3 is the driver) or ``sqlite:///PATH``; anything without ``scheme://`` is a SQLite file path.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import URL, Connection, Engine, make_url

from ..errors import BankError, MissingExtraError

__all__ = ["SCHEMA_VERSION", "UPGRADES", "metadata", "open_engine", "puzzles", "runs", "techniques"]

#: The version of the schema this sudokit writes; it reads banks up to this version.
#: 2: ``puzzles`` keeps one index besides its key, ``(level, rkey)`` (see :data:`UPGRADES`).
#: 3: ``puzzles.rules``, the rules a puzzle keeps (rows of older banks are classic).
SCHEMA_VERSION = 3

APPLICATION = "sudokit"

metadata = sa.MetaData()

meta = sa.Table(
    "meta",
    metadata,
    sa.Column("key", sa.String(64), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)

puzzles = sa.Table(
    "puzzles",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),  # canon.canonical_id
    sa.Column("shape", sa.String(8), nullable=False),  # "3x3": box rows x box columns
    sa.Column("puzzle", sa.Text, nullable=False),  # canonical form, one line, "." empty
    sa.Column("solution", sa.Text, nullable=False),  # its solution, in the same form
    sa.Column("shown", sa.Text, nullable=False),  # the puzzle as it came in (its symmetry)
    sa.Column("clues", sa.Integer, nullable=False),
    sa.Column("symmetry", sa.String(16), nullable=False),  # of the shown clue pattern
    sa.Column("minimal", sa.Boolean, nullable=True),  # None: not established
    sa.Column("er", sa.Float, nullable=False),
    sa.Column("ep", sa.Float, nullable=False),
    sa.Column("ed", sa.Float, nullable=False),
    sa.Column("level", sa.String(16), nullable=False),  # SE level of er: easy ... diabolical
    sa.Column("hodoku_level", sa.String(16), nullable=True),
    sa.Column("hodoku_score", sa.Integer, nullable=True),
    sa.Column("hardest", sa.String(64), nullable=True),  # None: not stated by the record
    sa.Column("path_known", sa.Boolean, nullable=False),  # puzzle_techniques holds its path
    sa.Column("source", sa.Text, nullable=False),  # "seed=S index=I" or "FILE:LINE"
    sa.Column("seed", sa.String(20), nullable=True),  # 64-bit unsigned: text on both engines
    sa.Column("seq", sa.Integer, nullable=True),  # the generator's index
    sa.Column("added", sa.DateTime(timezone=True), nullable=False),  # UTC
    sa.Column("rkey", sa.Float, nullable=False),  # uniform in [0, 1): random picks
    # the rules' text form ("classic", "x+windoku", "jigsaw:<map>+x"): part of the puzzle
    sa.Column("rules", sa.Text, nullable=False, server_default="classic"),
    # The one index a write maintains besides the id's: random picks by level (and, one
    # level at a time, without one). Every index costs each insert a B-tree insert at a
    # random place; docs/bank.md says which were dropped and why.
    sa.Index("ix_puzzles_level_rkey", "level", "rkey"),
)

techniques = sa.Table(
    "puzzle_techniques",
    metadata,
    sa.Column("id", sa.String(64), sa.ForeignKey("puzzles.id"), primary_key=True),
    sa.Column("technique", sa.String(64), primary_key=True),  # a step name of the SE path
    sa.Index("ix_puzzle_techniques_technique", "technique", "id"),
)

runs = sa.Table(
    "runs",
    metadata,
    sa.Column("key", sa.Text, primary_key=True),  # the options of a bank fill
    sa.Column("seed", sa.String(20), nullable=False),
    sa.Column("next_index", sa.Integer, nullable=False),
    sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
)

#: The indexes of schema 1 that schema 2 drops: none serves a query the bank must answer
#: fast (random picks use ``(level, rkey)``; the rest are scans or sorts of the matches), and
#: together they cost half of SQLite's time a stored puzzle.
_DROPPED_IN_2 = (
    "ix_puzzles_rkey",
    "ix_puzzles_er",
    "ix_puzzles_shape_level",
    "ix_puzzles_clues",
    "ix_puzzles_hardest",
)


def _upgrade_1(conn: Connection) -> None:
    for name in _DROPPED_IN_2:
        conn.execute(sa.text(f"DROP INDEX IF EXISTS {name}"))


def _upgrade_2(conn: Connection) -> None:
    # every puzzle of an older bank is classic; ids stay (classic ids do not name rules)
    conn.execute(sa.text("ALTER TABLE puzzles ADD COLUMN rules TEXT NOT NULL DEFAULT 'classic'"))


#: ``UPGRADES[v]`` turns a bank of schema ``v`` into one of ``v + 1`` (in one transaction).
UPGRADES: dict[int, Callable[[Connection], None]] = {1: _upgrade_1, 2: _upgrade_2}

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*)://")
_POSTGRES = ("postgresql", "postgres", "postgresql+psycopg")
ACCEPTED = "a file path, sqlite:///PATH, or postgresql://USER:PASSWORD@HOST:PORT/DATABASE"
_SQLITE_MAGIC = b"SQLite format 3\x00"
#: The SQLite page cache a connection may grow to, in KiB.
_CACHE_KIB = 65536
#: The page size of a new SQLite bank (SQLite's default is 4096): a commit writes a quarter
#: as many pages (WAL frames, each a write), and a 10,000-puzzle batch's commit takes 40%
#: less time (docs/bank.md).
_PAGE_BYTES = 16384


def parse_target(target: str | Path) -> tuple[str, URL | Path]:
    """``("sqlite", path)`` or ``("postgresql", url)`` for what a user gave."""
    if isinstance(target, Path):
        return "sqlite", target
    m = _SCHEME.match(target)
    if m is None:
        return "sqlite", Path(target)
    scheme = m.group(1).lower()
    if scheme == "sqlite":
        rest = target[m.end() :]
        if not rest.startswith("/") or rest == "/":
            raise BankError(f"bank URL {target!r}: give sqlite:///PATH (three slashes)")
        return "sqlite", Path(rest[1:] or ".")
    if scheme in _POSTGRES:
        try:
            url = make_url(target).set(drivername="postgresql+psycopg")
        except sa.exc.ArgumentError as e:
            raise BankError(f"bank URL {_hide(target)!r} cannot be read: {e}") from None
        return "postgresql", url
    raise BankError(f"unknown bank URL scheme {scheme!r} in {_hide(target)!r}; give {ACCEPTED}")


def _hide(text: str) -> str:
    """A URL as it may be shown: without its password."""
    return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", text)


def display(kind: str, where: URL | Path) -> str:
    if isinstance(where, Path):
        return str(where)
    return where.set(drivername="postgresql").render_as_string(hide_password=True)


def open_engine(target: str | Path, *, create: bool = True) -> tuple[Engine, str]:
    """An engine for the bank at ``target``, its schema checked (created, when ``create``,
    or upgraded when needed), and the bank's name for messages. Raises :class:`BankError`."""
    kind, where = parse_target(target)
    name = display(kind, where)
    if isinstance(where, Path):
        if not create and not where.exists():
            raise BankError(f"no bank at {name}: add puzzles first (sudokit bank add or fill)")
        _check_sqlite_file(where, name)
        engine = _sqlite_engine(where)
    else:
        engine = _postgresql_engine(where)
    try:
        _prepare(engine, kind, name, create)
    except sa.exc.OperationalError as e:
        engine.dispose()
        raise BankError(_operational(e, kind, where, name)) from None
    except sa.exc.DatabaseError as e:  # e.g. a file that only looks like SQLite
        engine.dispose()
        raise BankError(f"{name} is not a sudokit bank: {_first_line(e)}") from None
    except BaseException:
        engine.dispose()
        raise
    return engine, name


def _postgresql_engine(url: URL) -> Engine:
    """An engine for a PostgreSQL URL; MissingExtraError when psycopg (the ``postgres``
    extra) cannot be imported: SQLAlchemy imports the driver here."""
    try:
        return sa.create_engine(url, pool_pre_ping=False, connect_args={"connect_timeout": 10})
    except ImportError as e:
        raise MissingExtraError(
            "postgres", e.name or "psycopg", feature="a PostgreSQL bank"
        ) from None


def _first_line(e: sa.exc.DBAPIError) -> str:
    return str(e.orig).strip().splitlines()[0] if str(e.orig).strip() else type(e.orig).__name__


def _operational(e: sa.exc.OperationalError, kind: str, where: URL | Path, name: str) -> str:
    why = _first_line(e)
    if isinstance(where, URL):
        host = where.host or "the local socket"
        port = where.port or 5432
        if "connect" in why.lower() or "timeout" in why.lower() or "refused" in why.lower():
            return f"cannot reach the PostgreSQL server at {host}:{port} for bank {name}: {why}"
        return f"bank {name} (PostgreSQL at {host}:{port}): {why}"
    return f"bank {name}: {why}"


def _check_sqlite_file(path: Path, name: str) -> None:
    """Refuse, before SQLite touches it, a file that is no SQLite database."""
    if path.is_dir():
        raise BankError(f"{name} is a folder, not a sudokit bank")
    if not path.exists():
        if not path.parent.exists():
            raise BankError(f"cannot create bank {name}: folder {path.parent} does not exist")
        return
    try:
        with path.open("rb") as f:
            head = f.read(len(_SQLITE_MAGIC))
    except OSError as e:
        raise BankError(f"cannot read bank {name}: {e.strerror or e}") from None
    if head and head != _SQLITE_MAGIC:
        raise BankError(f"{name} is not a sudokit bank: it is not a SQLite database")


def _sqlite_engine(path: Path) -> Engine:
    engine = sa.create_engine(f"sqlite:///{path}", connect_args={"timeout": 60})

    @sa.event.listens_for(engine, "connect")
    def _connect(dbapi: Any, record: Any) -> None:
        # sqlite3's own transaction handling off: writes begin IMMEDIATE (below), so two
        # writers queue on the busy timeout instead of failing on a lock upgrade.
        dbapi.isolation_level = None
        cur = dbapi.cursor()
        cur.execute("PRAGMA busy_timeout = 60000")
        cur.execute("PRAGMA foreign_keys = ON")
        cur.execute("PRAGMA synchronous = NORMAL")  # with WAL: a killed process loses nothing
        # A page cache of up to 64 MiB (the default is 2 MiB): inserts land at random places
        # in the id and rkey indexes, and with the small cache a batch of 10,000 re-reads and
        # rewrites most of their pages; grown only as pages are read.
        cur.execute(f"PRAGMA cache_size = -{_CACHE_KIB}")
        # A new file's pages (no effect on a bank that has tables: it keeps its own).
        cur.execute(f"PRAGMA page_size = {_PAGE_BYTES}")
        cur.close()

    @sa.event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        write = conn.get_execution_options().get("bank_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


def writing(engine: Engine) -> Connection:
    """A connection whose transactions may write (SQLite: ``BEGIN IMMEDIATE``)."""
    return engine.connect().execution_options(bank_write=True)


def _prepare(engine: Engine, kind: str, name: str, create: bool) -> None:
    """Check the schema; create it in an empty database, upgrade an older one."""
    with engine.connect() as conn:
        version = _version(conn, name)
        conn.rollback()
    if version is None and not create:
        raise BankError(f"{name} holds no bank yet: add puzzles first (sudokit bank add or fill)")
    if version == SCHEMA_VERSION:
        if kind == "sqlite":
            _wal(engine)
        return
    with writing(engine) as conn, conn.begin():
        if kind == "postgresql":  # one creator at a time; others wait, then see its schema
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(7355608)"))
        version = _version(conn, name)  # again, now that no one else writes
        if version is None:
            metadata.create_all(conn)
            conn.execute(
                meta.insert(),
                [
                    {"key": "application", "value": APPLICATION},
                    {"key": "schema", "value": str(SCHEMA_VERSION)},
                ],
            )
        else:
            while version < SCHEMA_VERSION:
                UPGRADES[version](conn)
                version += 1
            conn.execute(meta.update().where(meta.c.key == "schema").values(value=str(version)))
    if kind == "sqlite":
        _wal(engine)


def _wal(engine: Engine) -> None:
    with engine.connect() as conn:  # outside a transaction: straight to the driver
        dbapi: Any = conn.connection.dbapi_connection
        if dbapi.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            dbapi.execute("PRAGMA journal_mode = WAL")


def _version(conn: Connection, name: str) -> int | None:
    """The bank's schema version; None for an empty database. Raises BankError for a
    database that is not a bank, or one written by a newer sudokit."""
    tables = set(sa.inspect(conn).get_table_names())
    if not tables:
        return None
    if "meta" not in tables:
        listed = ", ".join(sorted(tables)[:5]) + (" ..." if len(tables) > 5 else "")
        raise BankError(
            f"{name} is not a sudokit bank: it holds other tables ({listed}) and no sudokit "
            "meta table; give a new file or an empty database"
        )
    rows = {str(k): str(v) for k, v in conn.execute(sa.select(meta.c.key, meta.c.value))}
    if rows.get("application") != APPLICATION or "schema" not in rows:
        raise BankError(f"{name} is not a sudokit bank: its meta table is not sudokit's")
    try:
        version = int(rows["schema"])
    except ValueError:
        raise BankError(f"{name}: unreadable schema version {rows['schema']!r}") from None
    if version > SCHEMA_VERSION:
        raise BankError(
            f"{name} was written by a newer sudokit (schema {version}; this one reads up to "
            f"{SCHEMA_VERSION}); upgrade sudokit to use it"
        )
    return version
