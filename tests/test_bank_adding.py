"""``sudokit bank add`` of puzzles it must rate (no rating stated): they are stored as they are
rated, by every worker, and looked up before they are rated.

The puzzles are hard ones from the public collection ``../shared/data/forum_hardest_11plus.txt``
(skipped when absent): each takes a good part of a second to rate, so what the command does
while it rates can be seen from outside. The command runs as a process, on a SQLite bank;
times are CPU times, not wall times, since the machine may be busy.
"""

from __future__ import annotations

import os
import resource
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import pytest

from procs import children, cpu_seconds

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
#: How many puzzles: each takes about half a second of CPU to rate.
N = 24


@pytest.fixture(scope="module")
def hard(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Hard puzzles, unrated, in a file."""
    source = DATA / "forum_hardest_11plus.txt"
    if not source.is_file():
        pytest.skip(f"{source} is absent (the shared data folder is optional)")
    lines = source.read_text(encoding="utf-8").splitlines()[:N]
    path = tmp_path_factory.mktemp("hard") / "hard.txt"
    path.write_text("".join(line.split()[0] + "\n" for line in lines), encoding="utf-8")
    return path


def _add(db: Path, path: Path, *options: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "sudokit", "bank", "--db", str(db), "add", str(path), *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _count(db: Path) -> int:
    try:
        with closing(sqlite3.connect(db, timeout=10)) as conn:
            return int(conn.execute("SELECT count(*) FROM puzzles").fetchone()[0])
    except sqlite3.OperationalError:  # not made yet
        return 0


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def test_a_killed_add_keeps_what_was_rated(tmp_path: Path, hard: Path) -> None:
    db = tmp_path / "bank.db"
    proc = _add(db, hard, "-j", "1", "-q")
    deadline = time.monotonic() + 300
    while (first := _count(db)) == 0:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.05)
    # The first commit comes about a second after the first puzzle is rated, not after a
    # chunk (of up to a thousand) is: the process is still rating the rest.
    assert first < N and proc.poll() is None
    time.sleep(1.0)
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate()
    kept = _count(db)
    assert first <= kept < N
    rerun = _add(db, hard, "-j", "1", "-q")
    _, err = rerun.communicate(timeout=600)
    assert rerun.returncode == 0, err
    assert err.strip().endswith(f"added {N - kept}, duplicates {kept}, refused 0")
    assert _count(db) == N


def test_commits_come_as_puzzles_are_rated(tmp_path: Path, hard: Path) -> None:
    db = tmp_path / "bank.db"
    proc = _add(db, hard, "-j", "1", "-q")
    counts = []
    while proc.poll() is None:
        counts.append(_count(db))
        time.sleep(0.1)
    _, err = proc.communicate()
    assert proc.returncode == 0, err
    seen = sorted(set(counts) - {0, N})
    assert len(seen) >= 3, seen  # several commits in between, not one at the end


def _cpu_of_children(pid: int) -> dict[int, float]:
    """The CPU seconds so far of each process whose parent is ``pid``."""
    return {child: cpu_seconds(child) for child in children(pid)}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_every_worker_rates(tmp_path: Path, hard: Path) -> None:
    db = tmp_path / "bank.db"
    proc = _add(db, hard, "-j", "2", "-q")
    cpu: dict[int, float] = {}
    while proc.poll() is None:
        for pid, seconds in _cpu_of_children(proc.pid).items():
            cpu[pid] = max(seconds, cpu.get(pid, 0.0))
        time.sleep(0.1)
    _, err = proc.communicate()
    assert proc.returncode == 0, err
    busiest = sorted(cpu.values(), reverse=True)
    total = sum(busiest)
    assert total > 2.0, cpu  # the hard puzzles were rated by the workers
    # Two workers shared the rating (with -j 2 the reading takes one more process, little).
    assert busiest[1] > 0.25 * total, cpu


def test_a_rerun_looks_puzzles_up_before_rating_them(tmp_path: Path, hard: Path) -> None:
    db = tmp_path / "bank.db"
    before = _children_cpu()
    first = subprocess.run(
        [sys.executable, "-m", "sudokit", "bank", "--db", str(db), "add", str(hard), "-j", "1"],
        capture_output=True,
        text=True,
    )
    rating = _children_cpu() - before
    assert first.returncode == 0, first.stderr
    assert first.stderr.endswith(f"added {N}, duplicates 0, refused 0\n")
    # The same puzzles again, as isomorphs: the same canonical ids.
    again = tmp_path / "again.txt"
    again.write_text("".join(line[::-1] + "\n" for line in hard.read_text().split()))
    before = _children_cpu()
    rerun = subprocess.run(
        [sys.executable, "-m", "sudokit", "bank", "--db", str(db), "add", str(again), "-j", "1"],
        capture_output=True,
        text=True,
    )
    lookup = _children_cpu() - before
    assert rerun.returncode == 0, rerun.stderr
    assert rerun.stderr.endswith(f"added 0, duplicates {N}, refused 0\n")
    assert rerun.stderr.count("duplicate of") == N
    # Nothing rated: the start-up of Python and sudokit, and one query.
    assert lookup < 0.3 * rating, (lookup, rating)
