"""The puzzle bank's speed, printed as JSON lines.

    python benchmarks/bench_bank.py                     # SQLite, and PostgreSQL if it starts
    python benchmarks/bench_bank.py --quick             # smaller counts, one run each
    python benchmarks/bench_bank.py --add-only          # no random picks
    python benchmarks/bench_bank.py --postgres URL      # an existing server (admin URL)
    python benchmarks/bench_bank.py --queries           # and docs/performance.md's query costs

Records:

- ``add``: adding ``--puzzles`` (default 100,000) pre-rated records (``sudokit generate
  --rate`` lines, made once and kept in ``benchmarks/results/``) to a new bank: puzzles per
  second of the library call (``Bank.add`` of ``bank.prepared`` chunks, in this process) and
  of the whole ``sudokit bank add`` process, with ``-j 1`` (everything in one process) and
  ``-j 2`` (this process stores, one worker reads and prepares), the best of ``--repeats``
  runs (the machine may be shared; every run's time is listed for the CLI). The library
  records also give the CPU time a puzzle of this process (``cpu_us_main``: reading and
  storing, and with one job preparing too) and of the worker (``cpu_us_workers``): on a
  loaded machine these say more than the times. The one-job
  library record also times the stages one after the other, as ``prepared`` runs them:
  ``us_read`` (the lines cut into tasks, plain pieces checked), ``us_prepare`` (the tasks to
  entries: canonical forms, the uniqueness check and canonical solution, ids, stated facts,
  symmetry), ``us_store`` (the transactions), microseconds a puzzle.
- ``pick``: a bank of ``--rows`` puzzles (default 1,000,000) asked for one random puzzle of a
  level. The first rows are real; the rest are copies made by an INSERT ... SELECT that gives
  each copy a new id (the real id and a suffix) and a new random key: synthetic rows, so only
  the query's speed is measured here, not their content. Reports the library call
  (``Bank.query(..., randomly=True, limit=1)``), the SQL query alone, and the whole
  ``sudokit bank query --random`` process, in milliseconds (median of many).
- ``queries`` (with ``--queries``): on that bank, the median time of each query of
  docs/performance.md's query cost table (:data:`QUERIES`, library calls), in milliseconds.

Every timed record carries the load average (the machine may be shared). Before timing the
CLI, sudokit's bytecode is brought up to date (:func:`current_bytecode`).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from sudokit.bank import (
    Bank,
    Entry,
    Filters,
    prepare_many,
    prepare_task,
    prepared,
    read_pending,
    read_tasks,
)
from sudokit.bank._schema import puzzles
from sudokit.formats import PuzzleSource
from sudokit.rating import Level

from common import emit, machine

RESULTS = Path(__file__).resolve().parent / "results"


def rated_input(count: int) -> Path:
    """A file of ``count`` pre-rated puzzle records, made once."""
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"rated-{count}.txt"
    if not path.exists():
        part = path.with_suffix(".part")
        cmd = [sys.executable, "-m", "sudokit", "generate", "-n", str(count), "--rate"]
        subprocess.run([*cmd, "--seed", "2026", "-o", str(part)], check=True)
        part.rename(path)
    return path


def current_bytecode() -> None:
    """Compile sudokit's modules whose bytecode is missing or stale, as installing it does:
    with ``PYTHONDONTWRITEBYTECODE`` set (this machine's shells set it) and sources edited
    since the last compile, every ``sudokit`` process would compile them again at its start
    (0.35 s of a ``bank add`` here), which a user's installed sudokit never does."""
    import compileall

    import sudokit

    compileall.compile_dir(Path(sudokit.__file__).parent, quiet=1)


def bench_add(url: str, backend: str, path: Path, count: int, repeats: int) -> None:
    """The best of ``repeats`` runs (the machine may be shared) of each way of adding."""
    for jobs in (1, 2):
        best: dict[str, Any] = {}
        for _ in range(repeats):
            with _fresh(url, backend) as target:
                run = _library_add(target, path, count, jobs)
            if not best or run["per_second"] > best["per_second"]:
                best = run
        emit({"bench": "bank-add", "backend": backend, "repeats": repeats, **best, **_load()})
    for jobs in (1, 2):
        runs = []
        for _ in range(repeats):
            with _fresh(url, backend) as target:
                cmd = [sys.executable, "-m", "sudokit", "bank", "--db", target, "add", str(path)]
                t = time.perf_counter()
                done = subprocess.run([*cmd, "-q", "-j", str(jobs)], capture_output=True, text=True)
                seconds = time.perf_counter() - t
                if done.returncode != 0:
                    raise SystemExit(done.stderr)
                runs.append((seconds, done.stderr.strip().splitlines()[-1]))
        seconds, summary = min(runs)
        emit(
            {
                "bench": "bank-add",
                "backend": backend,
                "where": "sudokit bank add, whole process",
                "jobs": jobs,
                "puzzles": count,
                "repeats": repeats,
                "seconds": round(seconds, 3),
                "per_second": round(count / seconds),
                "all_seconds": [round(s, 2) for s, _ in runs],
                "summary": summary.split(": ", 1)[1],
                **_load(),
            }
        )


def _library_add(target: str, path: Path, count: int, jobs: int) -> dict[str, Any]:
    """``Bank.add`` of ``prepared`` chunks in this process: the whole call, and for one job the
    time of each stage (read, prepare: canonical form, uniqueness, facts; store)."""
    source = PuzzleSource(str(path))
    with Bank(target) as bank:
        own, workers = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        added = sum(
            a.new
            for a in bank.add(
                e for chunk in prepared(source, jobs=jobs) for e in chunk if isinstance(e, Entry)
            )
        )
        total = time.perf_counter() - t
        own = _cpu(resource.RUSAGE_SELF) - own
    workers = _cpu(resource.RUSAGE_CHILDREN) - workers  # the pool's workers have ended
    out: dict[str, Any] = {
        "where": "library: Bank.add(prepared(...))",
        "jobs": jobs,
        "puzzles": count,
        "added": added,
        "seconds": round(total, 3),
        "per_second": round(count / total),
        # CPU time a puzzle, of this process and of its worker: what a shared machine's
        # load does not change much (the time above is the idle machine's only when idle)
        "cpu_us_main": round(1e6 * own / count, 1),
        "cpu_us_workers": round(1e6 * workers / count, 1),
    }
    if jobs == 1:  # the stages one after the other, on a new bank
        with _fresh_like(target) as again, Bank(again) as bank:
            t = time.perf_counter()
            tasks = list(read_tasks(source))
            t_read = time.perf_counter() - t
            t = time.perf_counter()
            entries = [e for task in tasks for e in prepare_task(task) if isinstance(e, Entry)]
            t_prepare = time.perf_counter() - t
            t = time.perf_counter()
            list(bank.add(entries))
            t_store = time.perf_counter() - t
        out.update(
            us_read=round(1e6 * t_read / count, 1),
            us_prepare=round(1e6 * t_prepare / count, 1),
            us_store=round(1e6 * t_store / count, 1),
        )
    return out


def _load() -> dict[str, float]:
    """The load average of the last minute (the machine may be shared)."""
    return {"load_1min": round(os.getloadavg()[0], 2)}


def _cpu(who: int) -> float:
    """User and system CPU seconds of this process (RUSAGE_SELF) or its ended children."""
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


@contextlib.contextmanager
def _fresh_like(target: str) -> Iterator[str]:
    """Another empty bank of the same backend as ``target``."""
    if "://" not in target:
        with _fresh("", "sqlite") as other:
            yield other
        return
    with _fresh(target, "postgresql") as other:
        yield other


_counter = iter(range(1_000_000))


@contextlib.contextmanager
def _fresh(url: str, backend: str) -> Iterator[str]:
    """An empty bank to write to: a new SQLite file, or a new PostgreSQL database."""
    if backend == "sqlite":
        with tempfile.TemporaryDirectory() as d:
            yield str(Path(d) / "bank.db")
        return
    import psycopg

    name = f"bench_{next(_counter)}"
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield url.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


#: The queries of docs/performance.md's cost table: (filters, query options); None is ``stats``.
QUERIES: dict[str, tuple[Filters | None, dict[str, Any]] | None] = {
    "--level hard --random --limit 1": (Filters(level=Level.HARD), {"randomly": True, "limit": 1}),
    "--er 7.0-7.5 --random --limit 1": (Filters(er=(7.0, 7.5)), {"randomly": True, "limit": 1}),
    "--clues 22-22 --random --limit 1": (Filters(clues=(22, 22)), {"randomly": True, "limit": 1}),
    "--er 8.0-12 --limit 10": (Filters(er=(8.0, 12.0)), {"limit": 10}),
    "hardest first --limit 10": (None, {"limit": 10, "hardest": True}),
    "stats": None,
    "--symmetry none --random --limit 1 (no match)": (
        Filters(symmetry="none"),
        {"randomly": True, "limit": 1},
    ),
}


def bench_queries(target: str, backend: str) -> None:
    """The median time of each of :data:`QUERIES` on the bank at ``target`` (library calls)."""
    out: dict[str, float] = {}
    with Bank(target) as bank:
        for name, case in QUERIES.items():
            times = []
            for _ in range(7 if case is None or "random" not in name or "no match" in name else 31):
                t = time.perf_counter()
                if case is None:
                    bank.stats()
                else:
                    bank.query(case[0], **case[1])
                times.append(time.perf_counter() - t)
            out[name] = round(1000 * statistics.median(times), 2)
    emit({"bench": "bank-queries", "backend": backend, "ms_median": out, **_load()})


def bench_pick(url: str, backend: str, path: Path, rows: int, queries: bool = False) -> None:
    with _fresh(url, backend) as target:
        with Bank(target) as bank:
            made = prepare_many(list(read_pending(PuzzleSource(str(path)))))
            list(bank.add(e for e in made if isinstance(e, Entry)))
            real = bank.count()
        engine = (
            sa.create_engine(f"sqlite:///{target}")
            if backend == "sqlite"
            else sa.create_engine(target.replace("postgresql://", "postgresql+psycopg://", 1))
        )
        t = time.perf_counter()
        _grow(engine, backend, real, rows)
        built = time.perf_counter() - t
        with Bank(target) as bank:
            total = bank.count()
            level = Filters(level=Level.HARD)
            calls = []
            for _ in range(300):
                t = time.perf_counter()
                found = bank.query(level, randomly=True, limit=1)
                calls.append(time.perf_counter() - t)
                assert found and found[0].rating.level == Level.HARD
        sql = (
            sa.select(puzzles)
            .where(puzzles.c.level == "hard", puzzles.c.rkey >= sa.bindparam("r"))
            .order_by(puzzles.c.rkey)
            .limit(1)
        )
        sql_times = []
        import random

        rng = random.Random(1)
        with engine.connect() as conn:
            for _ in range(300):
                t = time.perf_counter()
                conn.execute(sql, {"r": rng.random()}).first()
                sql_times.append(time.perf_counter() - t)
        engine.dispose()
        cli = []
        cmd = [sys.executable, "-m", "sudokit", "bank", "--db", target, "query"]
        for _ in range(5):
            t = time.perf_counter()
            subprocess.run(
                [*cmd, "--level", "hard", "--random", "--limit", "1"],
                check=True,
                capture_output=True,
            )
            cli.append(time.perf_counter() - t)
        emit(
            {
                "bench": "bank-pick",
                "backend": backend,
                "rows": total,
                "real_rows": real,
                "build_seconds": round(built, 1),
                "library_ms_median": round(1000 * statistics.median(calls), 3),
                "library_ms_p95": round(1000 * sorted(calls)[int(0.95 * len(calls))], 3),
                "query_ms_median": round(1000 * statistics.median(sql_times), 3),
                "cli_process_ms_median": round(1000 * statistics.median(cli), 1),
                **_load(),
            }
        )
        if queries:
            bench_queries(target, backend)


def _grow(engine: sa.Engine, backend: str, real: int, rows: int) -> None:
    """Copies of the real rows with new ids and random keys, up to ``rows`` rows."""
    names = [c.name for c in puzzles.columns]
    rkey = "abs(random()) / 9223372036854775808.0" if backend == "sqlite" else "random()"
    copy = 1
    with engine.begin() as conn:
        count = real
        while count < rows:
            take = min(real, rows - count)
            cols = ", ".join(
                f"id || '.{copy}'" if n == "id" else rkey if n == "rkey" else n for n in names
            )
            conn.execute(
                sa.text(
                    f"INSERT INTO puzzles ({', '.join(names)}) SELECT {cols} FROM puzzles "
                    f"WHERE id NOT LIKE '%.%' ORDER BY id LIMIT {take}"
                )
            )
            count += take
            copy += 1
        if backend == "postgresql":
            conn.execute(sa.text("ANALYZE puzzles"))
        else:
            conn.execute(sa.text("ANALYZE"))


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--quick", action="store_true")
    p.add_argument("--postgres", help="postgresql://… of a server to use (else one is started)")
    p.add_argument("--rows", type=int, default=1_000_000)
    p.add_argument("--puzzles", type=int, help="pre-rated puzzles to add (default 100000)")
    p.add_argument("--repeats", type=int, help="runs of each add, best kept (default 3)")
    p.add_argument("--add-only", action="store_true", help="leave out the random picks")
    p.add_argument(
        "--queries", action="store_true", help="time performance.md's queries on the pick's bank"
    )
    p.add_argument("--sqlite-only", action="store_true", help="leave out PostgreSQL")
    args = p.parse_args()
    count = args.puzzles or (10000 if args.quick else 100000)
    repeats = args.repeats or (1 if args.quick else 3)
    rows = 100_000 if args.quick else args.rows
    emit({"bench": "machine", **machine()})
    path = rated_input(count)
    current_bytecode()
    bench_add("", "sqlite", path, count, repeats)
    if not args.add_only:
        bench_pick("", "sqlite", path, rows, args.queries)
    if args.sqlite_only:
        return
    with _postgres(args.postgres) as url:
        if url is None:
            emit({"bench": "bank", "backend": "postgresql", "skipped": "no server"})
            return
        bench_add(url, "postgresql", path, count, repeats)
        if not args.add_only:
            bench_pick(url, "postgresql", path, rows, args.queries)


@contextlib.contextmanager
def _postgres(url: str | None) -> Iterator[str | None]:
    if url is not None:
        yield url
        return
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    try:
        from pg_server import throwaway_postgres
    except ImportError:
        yield None
        return
    try:
        with throwaway_postgres() as server:
            yield server.url("postgres")
    except RuntimeError as e:
        emit({"bench": "bank", "backend": "postgresql", "skipped": str(e)})
        yield None


if __name__ == "__main__":
    main()
