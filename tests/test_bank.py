"""The puzzle bank, on SQLite files and on a real PostgreSQL server (tests/conftest.py).

Every test that takes ``bank_url`` runs on both backends. The concurrency and kill tests run
real ``sudokit bank add`` processes.
"""

from __future__ import annotations

import json
import os
import pickle
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from sudokit import Grid, Shape, difficulty, generate_many
from sudokit.bank import SCHEMA_VERSION, Bank, BankError, Entry, Filters, entry_of, from_generated
from sudokit.canon import Transform, canonical_id
from sudokit.cli import main
from sudokit.difficulty import Rated
from sudokit.engine import unique_solution
from sudokit.generator import symmetry_of
from sudokit.output import format_record
from sudokit.rating import Level, rate

Capture = pytest.CaptureFixture[str]

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
#: Four solutions (a published counterexample) and none (r1c1 needs the 1 that r2c1 holds).
SEVERAL = ".74.365.88.6..7..........67...34.6..3...9..41..9..2873.97.2..35.83..971...15...86"
NONE = "." + "23456789" + "1" + "." * 71


@pytest.fixture(scope="session")
def rated() -> list[Rated]:
    """Sixty rated 9x9 puzzles, the same in every run."""
    found = [g for g in generate_many(60, seed=11, with_rating=True) if isinstance(g, Rated)]
    assert len(found) == 60
    return found


def _lines(puzzles: list[Rated]) -> str:
    return "".join(format_record(g, "line") for g in puzzles)


def _write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def _sudokit(*args: str, stdin: int | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "sudokit", *args],
        stdin=stdin,
        stderr=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


def _engine(url: str) -> sa.Engine:
    if "://" not in url:
        return sa.create_engine(f"sqlite:///{url}")
    return sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))


def _scalar(url: str, sql: str) -> Any:
    engine = _engine(url)
    try:
        with engine.connect() as conn:
            return conn.execute(sa.text(sql)).scalar()
    finally:
        engine.dispose()


# Opening -------------------------------------------------------------------------------------


def test_a_new_bank_records_its_schema_version(bank_url: str) -> None:
    with Bank(bank_url) as bank:
        assert bank.count() == 0
    assert _scalar(bank_url, "SELECT value FROM meta WHERE key = 'schema'") == str(SCHEMA_VERSION)
    assert _scalar(bank_url, "SELECT value FROM meta WHERE key = 'application'") == "sudokit"
    with Bank(bank_url) as bank:  # and opens again as it is
        assert bank.count() == 0


def test_a_bank_from_a_newer_sudokit_is_refused_untouched(
    bank_url: str, rated: list[Rated]
) -> None:
    with Bank(bank_url) as bank:
        list(bank.add([from_generated(rated[0])]))
    engine = _engine(bank_url)
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE meta SET value = '99' WHERE key = 'schema'"))
    engine.dispose()
    before = Path(bank_url).read_bytes() if "://" not in bank_url else b""
    with pytest.raises(BankError) as e:
        Bank(bank_url)
    assert f"written by a newer sudokit (schema 99; this one reads up to {SCHEMA_VERSION})" in str(
        e.value
    )
    assert _scalar(bank_url, "SELECT count(*) FROM puzzles") == 1
    if "://" not in bank_url:
        assert Path(bank_url).read_bytes() == before
        assert main(["bank", "--db", bank_url, "stats"]) == 1


def test_files_that_are_not_banks_are_refused_untouched(tmp_path: Path, capsys: Capture) -> None:
    noise = tmp_path / "noise.db"
    noise.write_bytes(random.Random(1).randbytes(5000))
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE customers (name TEXT)")
        conn.execute("INSERT INTO customers VALUES ('ada')")
    conn.close()
    for path, why in ((noise, "not a SQLite database"), (other, "other tables (customers)")):
        before = path.read_bytes()
        with pytest.raises(BankError, match="is not a sudokit bank") as e:
            Bank(str(path))
        assert why in str(e.value)
        assert path.read_bytes() == before
        assert not Path(f"{path}-wal").exists()
        assert main(["bank", "--db", str(path), "add", EASY]) == 1
        err = capsys.readouterr().err
        assert "is not a sudokit bank" in err and "Traceback" not in err
        assert path.read_bytes() == before


def test_a_postgres_database_of_something_else_is_refused(postgres_url: str) -> None:
    engine = _engine(postgres_url)
    with engine.begin() as conn:
        conn.execute(sa.text("CREATE TABLE orders (id INTEGER)"))
    engine.dispose()
    with pytest.raises(BankError, match=r"not a sudokit bank: it holds other tables \(orders\)"):
        Bank(postgres_url)
    assert _scalar(postgres_url, "SELECT count(*) FROM pg_tables WHERE tablename = 'meta'") == 0


def test_unknown_schemes_are_named(tmp_path: Path, capsys: Capture) -> None:
    with pytest.raises(BankError) as e:
        Bank("mysql://ada:secret@db.example/puzzles")
    text = str(e.value)
    assert "unknown bank URL scheme 'mysql'" in text and "postgresql://" in text
    assert "secret" not in text
    assert main(["bank", "--db", "redis://x", "stats"]) == 1
    assert "unknown bank URL scheme 'redis'" in capsys.readouterr().err


def test_an_unreachable_server_is_named_without_traceback(capsys: Capture) -> None:
    pytest.importorskip("psycopg")
    with socket_closed_port() as port:
        url = f"postgresql://ada:secret@127.0.0.1:{port}/bank"
        with pytest.raises(BankError) as e:
            Bank(url)
        assert f"cannot reach the PostgreSQL server at 127.0.0.1:{port}" in str(e.value)
        assert "secret" not in str(e.value)
        run = subprocess.run(
            [sys.executable, "-m", "sudokit", "bank", "--db", url, "stats"],
            capture_output=True,
            text=True,
        )
    assert run.returncode == 1
    assert f"127.0.0.1:{port}" in run.stderr and "Traceback" not in run.stderr


class socket_closed_port:
    """A loopback port nothing listens on (bound, never listening, while in use)."""

    def __enter__(self) -> int:
        import socket

        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        return int(self.sock.getsockname()[1])

    def __exit__(self, *exc: object) -> None:
        self.sock.close()


def test_postgres_urls_in_every_spelling(postgres_url: str) -> None:
    for url in (postgres_url, postgres_url.replace("postgresql://", "postgres://", 1)):
        with Bank(url) as bank:
            assert bank.dialect == "postgresql"
            assert "postgresql://postgres@" in bank.name


# Writing -------------------------------------------------------------------------------------


def test_adding_is_idempotent_and_reports_new_and_duplicates(
    bank_url: str, rated: list[Rated]
) -> None:
    entries = [from_generated(g) for g in rated[:12]]
    with Bank(bank_url) as bank:
        first = list(bank.add(entries[:8], batch=3))
        assert [a.new for a in first] == [True] * 8
        again = list(bank.add([entries[0], *entries[6:], entries[11]], batch=5))
        assert [a.new for a in again] == [False, False, False, True, True, True, True, False]
        assert bank.count() == 12


def test_an_isomorph_of_a_stored_puzzle_is_a_duplicate(bank_url: str, rated: list[Rated]) -> None:
    """Needs the real canonical form: fails against the throwaway stand-in."""
    g = rated[0]
    t = Transform.random(g.shape, random.Random(5))
    twin = t.apply(g.puzzle)
    assert twin != g.puzzle
    with Bank(bank_url) as bank:
        list(bank.add([from_generated(g)]))
        r = rate(twin)
        added = list(
            bank.add(
                [
                    entry_of(
                        twin,
                        r,
                        techniques=None,
                        minimal=g.minimal,
                        symmetry=None,
                        source="twin:1",
                    )
                ]
            )
        )
        assert [a.new for a in added] == [False]
        assert bank.count() == 1


def test_add_refuses_puzzles_without_one_solution(
    bank_url: str, tmp_path: Path, capsys: Capture
) -> None:
    path = _write(tmp_path / "mixed.txt", f"{SEVERAL}\n{EASY}\nnot a puzzle\n{NONE}\n")
    assert main(["bank", "--db", bank_url, "add", path, "-j", "1"]) == 1
    err = capsys.readouterr().err
    assert f"{path}, line 1: more than one solution" in err
    assert f"{path}, line 3:" in err
    assert f"{path}, line 4: no solution" in err
    assert err.strip().endswith("added 1, duplicates 0, refused 3")
    with Bank(bank_url) as bank:
        [stored] = bank.query()
    assert stored.shown == Grid(EASY) and stored.rating.er == 1.2
    assert stored.techniques is not None and "hidden-single" in stored.techniques


def test_add_keeps_the_ratings_records_state(
    bank_url: str, tmp_path: Path, rated: list[Rated], capsys: Capture
) -> None:
    """Records of generate --rate (line, json, csv) and of sudokit rate are not rated again."""
    files = {}
    for fmt in ("line", "json", "csv"):
        text = "".join(format_record(g, fmt) for g in rated[:5])
        if fmt == "csv":
            text = (
                "index,seed,shape,symmetry,clues,minimal,orbit_minimal,er,ep,ed,level,puzzle\n"
                + text
            )
        files[fmt] = _write(tmp_path / f"r.{fmt}", text)
    # A rating no rater would give: proof that the stated one is what is stored.
    made_up = rated[5].puzzle.to_line() + " ED=9.9/8.8/7.7\n"
    files["serate"] = _write(tmp_path / "serate.txt", made_up)
    for fmt, path in files.items():
        assert main(["bank", "--db", bank_url, "add", path, "-j", "1", "-q"]) == 0, fmt
    err = capsys.readouterr().err
    assert "added 5, duplicates 0" in err and err.count("added 0, duplicates 5") == 2
    with Bank(bank_url) as bank:
        stored = {s.shown: s for s in bank.query()}
    for g in rated[:5]:
        s = stored[g.puzzle]
        assert g.rating is not None
        assert (s.rating.er, s.rating.ep, s.rating.ed) == (g.rating.er, g.rating.ep, g.rating.ed)
        assert (s.seed, s.index, s.minimal) == (g.seed, g.index, g.minimal)
        assert s.techniques is None  # a stated rating has no path
    s = stored[rated[5].puzzle]
    assert (s.rating.er, s.rating.ep, s.rating.ed, s.rating.level) == (
        9.9,
        8.8,
        7.7,
        Level.DIABOLICAL,
    )


def test_rerate_finds_the_path(bank_url: str, tmp_path: Path, rated: list[Rated]) -> None:
    path = _write(tmp_path / "r.txt", _lines(rated[:3]))
    assert main(["bank", "--db", bank_url, "add", path, "-j", "2", "--rerate", "-q"]) == 0
    with Bank(bank_url) as bank:
        for s in bank.query():
            full = rate(s.shown)
            assert s.techniques == tuple(sorted({step.technique for step in full.steps}))
            assert s.rating.hardest == full.hardest and s.rating.hodoku is not None


# Reading -------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def rated_entries(rated: list[Rated]) -> list[Entry]:
    """The sixty puzzles as entries with their whole paths (as the bank rates them)."""
    entries = []
    for g in rated:
        full = rate(g.puzzle)
        used = tuple(sorted({s.technique for s in full.steps}))
        entries.append(from_generated(difficulty.rated(g, full), used))
    return entries


@pytest.fixture
def filled(bank_url: str, rated_entries: list[Entry]) -> str:
    """A bank of the sixty puzzles, with their paths."""
    with Bank(bank_url) as bank:
        list(bank.add(rated_entries))
    return bank_url


def test_reading_commands_do_not_make_a_bank(tmp_path: Path, capsys: Capture) -> None:
    path = tmp_path / "none.db"
    for command in (["stats"], ["query"], ["export", "--pdf", str(tmp_path / "b.pdf")]):
        assert main(["bank", "--db", str(path), *command]) == 1
        assert f"no bank at {path}" in capsys.readouterr().err
        assert not path.exists()
    assert main(["bank", "--db", str(path), "add", str(tmp_path / "missing.txt")]) == 1
    assert "cannot read" in capsys.readouterr().err and not path.exists()


def test_query_filters(filled: str, rated: list[Rated]) -> None:
    ratings = {g.puzzle: g.rating for g in rated}
    with Bank(filled) as bank:
        everything = bank.query()
        assert len(everything) == 60 and bank.count() == 60
        for level in Level:
            got = bank.query(Filters(level=level))
            assert all(ratings[s.shown].level == level for s in got)  # type: ignore[union-attr]
            assert len(got) == sum(r.level == level for r in ratings.values())  # type: ignore[union-attr]
        got = bank.query(Filters(er=(1.5, 2.6)))
        assert {s.shown for s in got} == {p for p, r in ratings.items() if 1.5 <= r.er <= 2.6}  # type: ignore[union-attr]
        clues = Counter(g.clues for g in rated)
        common = clues.most_common(1)[0][0]
        assert len(bank.query(Filters(clues=(common, common)))) == clues[common]
        assert bank.query(Filters(shape=Shape(2, 2))) == []
        assert len(bank.query(Filters(shape=Shape(3, 3), symmetry="rot180"))) == sum(
            symmetry_of(g.puzzle) == "rot180" for g in rated
        )
        uses = [s for s in everything if s.techniques and "naked-single" in s.techniques]
        got = bank.query(Filters(require=("naked-single",)))
        assert {s.id for s in got} == {s.id for s in uses} and got
        pair = {"naked-single", "hidden-single"}
        level = next(s.rating.level for s in everything if pair <= set(s.techniques or ()))
        both = bank.query(Filters(require=tuple(sorted(pair)), level=level))
        expected = {
            s.id for s in everything if s.rating.level == level and pair <= set(s.techniques or ())
        }
        assert {s.id for s in both} == expected and expected
        assert len(bank.query(limit=7)) == 7


def test_random_picks_stay_in_the_filter_and_spread(filled: str) -> None:
    with Bank(filled) as bank:
        hard = {s.id for s in bank.query(Filters(level=Level.HARD))}
        assert hard
        rng = random.Random(3)
        seen = Counter(
            s.id
            for _ in range(200)
            for s in bank.query(Filters(level=Level.HARD), randomly=True, rng=rng)
        )
        assert set(seen) <= hard and len(seen) >= min(len(hard), 5)
        five = bank.query(randomly=True, limit=5, rng=rng)
        assert len({s.id for s in five}) == 5


def test_stats_count_what_is_stored(filled: str, rated: list[Rated], capsys: Capture) -> None:
    assert main(["bank", "--db", filled, "stats", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["puzzles"] == 60 and stats["shape"] == {"3x3": 60}
    levels = Counter(str(g.rating.level) for g in rated if g.rating is not None)
    assert stats["level"] == {str(lv): levels[str(lv)] for lv in Level if levels[str(lv)]}
    assert list(stats["level"]) == [str(lv) for lv in Level if levels[str(lv)]]
    hardest = Counter(rate(g.puzzle).hardest for g in rated)
    assert stats["hardest"] == dict(hardest)
    assert stats["clues"] == {str(k): v for k, v in sorted(Counter(g.clues for g in rated).items())}
    assert main(["bank", "--db", filled, "stats"]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"{filled}: 60 puzzles") or ": 60 puzzles" in text.splitlines()[0]
    assert "by level:" in text and "by hardest:" in text


def test_query_formats_are_generates_records(filled: str, capsys: Capture) -> None:
    for fmt in ("line", "pretty", "json", "csv"):
        assert main(["bank", "--db", filled, "query", "--limit", "3", "--format", fmt]) == 0
        out = capsys.readouterr().out
        records = list(__import__("sudokit").read_puzzles(out.splitlines(keepends=True)))
        assert len(records) == 3 and all(r.ok for r in records), fmt
    assert (
        main(
            [
                "bank",
                "--db",
                filled,
                "query",
                "--level",
                "easy",
                "--format",
                "json",
                "--with-solution",
            ]
        )
        == 0
    )
    lines = capsys.readouterr().out.splitlines()
    assert lines
    for line in lines:
        obj = json.loads(line)
        assert obj["level"] == "easy" and obj["id"].startswith("9x9-")
        assert unique_solution(Grid(obj["puzzle"])) == Grid(obj["solution"])


def test_query_solves_only_when_a_solution_is_written(
    filled: str, capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without --with-solution no served form is solved (the shown one, an isomorph, a
    book's puzzles); with it, each solution is solved once and written."""
    import sudokit.bank._query  # where Stored solves its shown form

    solved: list[Grid] = []

    def counting(grid: Grid) -> Grid:
        solved.append(grid)
        return unique_solution(grid)

    monkeypatch.setattr(sudokit.bank._query, "unique_solution", counting)
    for extra in ([], ["--isomorph"], ["--random"]):
        for fmt in ("line", "pretty", "json", "csv"):
            query = ["query", "--limit", "4", "--format", fmt, *extra]
            assert main(["bank", "--db", filled, *query]) == 0
            assert capsys.readouterr().out
    assert solved == []
    assert main(["bank", "--db", filled, "query", "--limit", "4", "--with-solution"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(solved) == 4 == len(lines)
    assert [line.split()[1] for line in lines] == [
        g.to_line() for g in map(unique_solution, solved)
    ]


def test_isomorph_output_is_the_same_puzzle_in_another_form(filled: str, capsys: Capture) -> None:
    """Same canonical id as the stored puzzle: fails against the throwaway canon stand-in."""
    with Bank(filled) as bank:
        stored = {s.id: s for s in bank.query()}
    assert (
        main(["bank", "--db", filled, "query", "--isomorph", "--format", "json", "--with-solution"])
        == 0
    )
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 60
    texts = {s.shown.to_line() for s in stored.values()} | {
        s.puzzle.to_line() for s in stored.values()
    }
    for line in lines:
        obj = json.loads(line)
        assert "id" not in obj and "seed" not in obj
        puzzle = Grid(obj["puzzle"])
        assert obj["puzzle"] not in texts
        assert unique_solution(puzzle) == Grid(obj["solution"])
        assert canonical_id(puzzle) in stored
        # the same random isomorph as the service's: the clue pattern keeps its symmetry
        assert symmetry_of(puzzle) == stored[canonical_id(puzzle)].symmetry


def test_export_writes_a_book(filled: str, tmp_path: Path, capsys: Capture) -> None:
    pypdf = pytest.importorskip("pypdf")
    book = tmp_path / "book.pdf"
    assert (
        main(
            [
                "bank",
                "--db",
                filled,
                "export",
                "--level",
                "easy",
                "--random",
                "--limit",
                "4",
                "--pdf",
                str(book),
            ]
        )
        == 0
    )
    assert "4 puzzles" in capsys.readouterr().err
    assert len(pypdf.PdfReader(book).pages) >= 2
    assert main(["bank", "--db", filled, "export", "--clues", "80", "--pdf", str(book)]) == 1
    assert "no stored puzzle matches" in capsys.readouterr().err


# Fill ----------------------------------------------------------------------------------------


def test_fill_adds_n_more_and_goes_on_from_its_last_commit(bank_url: str, capsys: Capture) -> None:
    args = ["bank", "--db", bank_url, "fill", "--level", "medium", "-n", "3", "--seed", "7"]
    assert main([*args, "-j", "1"]) == 0
    assert "added 3, duplicates 0" in capsys.readouterr().err
    with Bank(bank_url) as bank:
        first = {(s.seed, s.index or 0) for s in bank.query()}
        assert all(s.rating.level == Level.MEDIUM and s.techniques for s in bank.query())
        key = "shape=3x3 symmetry=rot180 level=medium seed=7"
        state = bank.run_state(key)
        assert state is not None and state[0] == 7 and state[1] > max(i for _, i in first)
    assert main([*args, "-j", "2"]) == 0
    assert "added 3, duplicates 0" in capsys.readouterr().err
    with Bank(bank_url) as bank:
        later = {(s.seed, s.index or 0) for s in bank.query()}
    assert len(later) == 6 and first < later
    assert min(i for _, i in later - first) >= state[1]


def test_fill_refuses_impossible_targets(bank_url: str, capsys: Capture) -> None:
    assert main(["bank", "--db", bank_url, "fill", "--level", "easy", "--er", "7-8"]) == 2
    assert "outside level easy" in capsys.readouterr().err


# Real processes ------------------------------------------------------------------------------


def _wait_for_count(url: str, at_least: int, proc: subprocess.Popen[str], limit: float) -> int:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            count = int(_scalar(url, "SELECT count(*) FROM puzzles"))
        except sa.exc.OperationalError:
            count = 0  # the tables are not there yet
        except sa.exc.ProgrammingError:
            count = 0
        if count >= at_least:
            return count
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    raise AssertionError(f"the bank did not reach {at_least} puzzles in {limit} s")


def test_two_writers_at_once_end_with_the_union(
    bank_url: str, tmp_path: Path, rated: list[Rated]
) -> None:
    a = _write(tmp_path / "a.txt", _lines(rated[:40]))
    b = _write(tmp_path / "b.txt", _lines(rated[20:60]))
    procs = [
        _sudokit("bank", "--db", bank_url, "add", path, "-j", "1", "--batch", "3", "-q")
        for path in (a, b)
    ]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    added = [int(err.rsplit("added ", 1)[1].split(",")[0]) for _, err in outs]
    assert sum(added) == 60
    with Bank(bank_url) as bank:
        assert bank.count() == 60
        assert {s.shown for s in bank.query()} == {g.puzzle for g in rated}


def test_a_killed_add_keeps_its_commits_and_a_rerun_finishes(
    bank_url: str, tmp_path: Path, rated: list[Rated]
) -> None:
    text = _lines(rated[:40])
    path = _write(tmp_path / "all.txt", text)
    proc = _sudokit(
        "bank",
        "--db",
        bank_url,
        "add",
        "-",
        "-j",
        "1",
        "--batch",
        "5",
        "-q",
        stdin=subprocess.PIPE,
    )
    assert proc.stdin is not None
    lines = text.splitlines(keepends=True)
    proc.stdin.write("".join(lines[:22]))
    proc.stdin.flush()
    # Four batches of 5, and the last two within a second although the input has nothing
    # more for now: a batch is committed once its first puzzle has waited a second.
    committed = _wait_for_count(bank_url, 22, proc, 60)
    os.kill(proc.pid, signal.SIGKILL)  # in the middle: waiting for the rest of its input
    proc.communicate()
    assert proc.returncode == -signal.SIGKILL
    assert committed == 22
    assert int(_scalar(bank_url, "SELECT count(*) FROM puzzles")) == 22
    rerun = subprocess.run(
        [sys.executable, "-m", "sudokit", "bank", "--db", bank_url, "add", path, "-j", "1"],
        capture_output=True,
        text=True,
    )
    assert rerun.returncode == 0, rerun.stderr
    assert rerun.stderr.strip().endswith("added 18, duplicates 22, refused 0")
    assert rerun.stderr.count("duplicate of") == 22
    with Bank(bank_url) as bank:
        assert bank.count() == 40


@pytest.mark.slow
def test_a_killed_fill_goes_on_from_its_last_commit(bank_url: str) -> None:
    args = ["bank", "--db", bank_url, "fill", "--level", "easy", "-n", "40", "-j", "1"]
    proc = _sudokit(*args, "--seed", "5")
    _wait_for_count(bank_url, 5, proc, 120)
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate()
    with Bank(bank_url) as bank:
        before = {s.index for s in bank.query()}
        state = bank.run_state("shape=3x3 symmetry=rot180 level=easy seed=5")
    assert state is not None and state[1] == max(i for i in before if i is not None) + 1
    rerun = subprocess.run(
        [sys.executable, "-m", "sudokit", *args, "--seed", "5"], capture_output=True, text=True
    )
    assert rerun.returncode == 0, rerun.stderr
    assert "added 40, duplicates 0" in rerun.stderr
    with Bank(bank_url) as bank:
        after = [s.index for s in bank.query()]
    assert len(after) == len(before) + 40 == len(set(after))
    assert min(i for i in set(after) - before if i is not None) >= state[1]


def test_the_fast_reader_gives_what_read_puzzles_gives(tmp_path: Path, rated: list[Rated]) -> None:
    """Plain 81-cell lines take the fast path (repeated digits left to the exact engine); the
    first line of another kind hands the rest to read_puzzles, with the right line numbers
    and the comment lines just before it. Either way, what prepare_many makes of it is the
    same as from read_puzzles' own records: entries, refusals and their messages."""
    from sudokit.bank import (
        Lines,
        Pending,
        Refusal,
        prepare_many,
        prepare_task,
        read_pending,
        read_pieces,
        read_tasks,
    )
    from sudokit.formats import PuzzleSource, read_puzzles

    row_twice = "3" + EASY[1:]  # r1c1 = 3, as r1c3
    box_twice = EASY[:18] + "3" + EASY[19:]  # r3c1 = 3, in r1c3's box
    lines = [
        "\ufeff# sudokit generate format=line shape=3x3",
        *(format_record(g, "line").rstrip("\n") for g in rated[:3]),
        "",
        "# index=7 seed=5 minimal=yes rating=ED=1.5/1.2/1.2",
        EASY,
        row_twice + "  # minimal=no",
        box_twice,
        SEVERAL,
        NONE,
        "# shape=2x2",
        "1.3...12....4..3",
        EASY + " ED=9.9/8.8/7.7",
        format_record(rated[3], "json").rstrip("\n"),
        *(format_record(g, "line").rstrip("\n") for g in rated[4:6]),
    ]
    path = _write(tmp_path / "mixed.txt", "\n".join(lines) + "\n")
    source = PuzzleSource(path)
    with open(path, encoding="utf-8") as f:
        general = [
            Pending(r, f"{path}:{r.line}") if r.grid is not None else r
            for r in read_puzzles(f, source=path)
        ]
    fast = list(read_pending(source))
    assert [item.line for item in fast] == [item.line for item in general]
    assert [len(p) for p in read_pieces(source, size=4)] == [4, 4, 4, 1]

    def outcome(items: list[Any]) -> list[tuple[Any, ...]]:
        return outcome_of(prepare_many(items))

    def outcome_of(prepared: list[Any]) -> list[tuple[Any, ...]]:
        out: list[tuple[Any, ...]] = []
        for done in prepared:
            if isinstance(done, Refusal):
                out.append((done.line, done.message))
            else:
                out.append(done)  # the whole entry
        return out

    made = outcome(fast)
    assert made == outcome(general)
    # As worker processes get them: plain lines read there, the rest read here.
    for size in (1, 4, 100):
        tasks = list(read_tasks(source, size=size))
        assert any(isinstance(t, Lines) for t in tasks) and isinstance(tasks[-1], list)
        done = [d for t in tasks for d in prepare_task(pickle.loads(pickle.dumps(t)))]
        assert outcome_of(done) == made
    assert f"{path}, line 8: conflicting clues: digit 3 at r1c1 and r1c3 (row 1)" in made[4][1]
    assert f"{path}, line 9: conflicting clues: digit 3 at r1c3 and r3c1 (box 1)" in made[5][1]
    assert made[6:8] == [
        (10, f"{path}, line 10: more than one solution"),
        (11, f"{path}, line 11: no solution"),
    ]
    entry = made[3]
    assert isinstance(entry, Entry)
    assert (entry.er, entry.minimal, entry.seed) == (1.5, True, 5)  # the line above


@pytest.mark.parametrize(
    "options",
    [
        ["--level", "impossible"],
        ["--er", "7-8", "--level", "easy"],
        ["--er", "30-40"],
        ["--require", "no-such-technique"],
        ["--timeout", "0"],
    ],
)
def test_fill_checks_its_options_before_it_makes_a_bank(
    tmp_path: Path, capsys: Capture, options: list[str]
) -> None:
    """A bad option is reported (exit 2) and no bank file is left behind."""
    db = tmp_path / "never.db"
    status: int | str | None
    try:  # the library's refusal, or argparse's for a value no option takes
        status = main(["bank", "--db", str(db), "fill", "-n", "1", *options])
    except SystemExit as e:
        status = e.code
    assert status == 2
    assert "error" in capsys.readouterr().err
    assert not db.exists() and list(tmp_path.iterdir()) == []
