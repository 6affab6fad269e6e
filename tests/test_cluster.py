"""The Dask backend (sudokit.cluster) against a real cluster: a ``LocalCluster`` of two worker
processes, started once for the module. Its results must be exactly those of ``--jobs``
(byte for byte), in order; a worker killed mid-run must change nothing; bad addresses must
fail fast and clearly; and without ``--cluster`` Dask must not even be imported."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from sudokit import cluster as sudokit_cluster
from sudokit import generate_many
from sudokit._parallel import cluster_session, ordered_map, width_of
from sudokit.bank import Bank
from sudokit.cli import main

distributed = pytest.importorskip("distributed")

Capture = pytest.CaptureFixture[str]

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
TWO = "." * 81  # more than one solution: reported in place, as with --jobs


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    cluster = distributed.LocalCluster(
        n_workers=2,
        processes=True,
        threads_per_worker=1,
        dashboard_address=":0",  # any free port: never a clash with another run
        silence_logs=40,  # logging.ERROR: a killed worker's warnings are expected here
    )
    try:
        yield str(cluster.scheduler_address)
    finally:
        cluster.close()


def _run(capsys: Capture, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


# Same results -------------------------------------------------------------------------------


def test_generate_is_byte_identical_with_jobs_and_on_a_cluster(
    address: str, tmp_path: Path, capsys: Capture
) -> None:
    outputs = {}
    for name, how in [
        ("j1", ["-j", "1"]),
        ("j2", ["-j", "2"]),
        ("cluster", ["--cluster", address]),
        ("local", ["--cluster", "local:2"]),  # started and stopped by the command
    ]:
        path = tmp_path / f"{name}.txt"
        status, _, err = _run(
            capsys, "generate", "-n", "700", "--seed", "41", "--minimal", *how, "-o", str(path)
        )
        assert status == 0, err
        outputs[name] = path.read_bytes()
    assert outputs["j1"].count(b"\n") > 700
    assert outputs["j2"] == outputs["j1"]
    assert outputs["cluster"] == outputs["j1"]
    assert outputs["local"] == outputs["j1"]


def test_rated_generation_on_a_cluster_is_the_same(address: str) -> None:
    options: dict[str, Any] = {"seed": 3, "level": "easy", "symmetry": "none"}
    here = [(g.puzzle, g.index) for g in generate_many(12, **options)]
    there = [(g.puzzle, g.index) for g in generate_many(12, cluster=address, **options)]
    assert there == here


def test_rate_and_solve_keep_input_order(address: str, tmp_path: Path, capsys: Capture) -> None:
    puzzles = [g.puzzle.to_line() for g in generate_many(14, seed=5)]
    lines = [*puzzles[:5], HARD, "not a puzzle", *puzzles[5:9], TWO, *puzzles[9:]]
    source = tmp_path / "in.txt"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    # rate reports the bad line and the puzzle of many solutions; solve the bad line only.
    for command, answers in ((["rate", "--format", "json"], 15), (["solve"], 16)):
        local = _run(capsys, *command, str(source), "-j", "1")
        remote = _run(capsys, *command, str(source), "--cluster", address)
        assert local[0] == 1
        assert remote == local
        assert len(remote[1].splitlines()) == answers


def test_in_flight_tasks_are_bounded(address: str) -> None:
    taken = 0

    def items(width: int) -> Iterator[int]:
        nonlocal taken
        assert width == 2
        for i in range(100):
            taken += 1
            yield i

    results = sudokit_cluster.ordered_map(abs, items, address=address)
    assert next(results) == 0
    assert taken <= sudokit_cluster.AHEAD * 2 + 1
    assert list(results) == list(range(1, 100))


def test_one_session_serves_several_maps(address: str) -> None:
    # A caller with rounds (the hunt) connects once: every map runs on the same client.
    with cluster_session(address) as connection:
        assert isinstance(connection, sudokit_cluster.Connection)
        assert width_of(connection, 7) == 2  # the cluster's, not jobs
        for k in range(3):
            got = list(ordered_map(abs, range(-k * 10, 0), cluster=connection))
            assert got == list(range(k * 10, 0, -1))
            assert connection.client.status == "running"
    assert connection.client.status == "closed"
    with cluster_session(None) as nothing:
        assert nothing is None
        assert width_of(nothing, 7) == 7


def test_tasks_are_pure_keyed_by_seed_and_chunk(address: str) -> None:
    # Two streams of the same seed submit the same keys (a task run twice is one task); another
    # seed, other keys.

    from sudokit.generator import _run as run_chunk

    def keys(seed: int) -> list[str]:
        stream = generate_many(600, seed=seed, chunk=300)
        tasks = stream._plan[1](2)  # type: ignore[index]
        assert tasks is not None
        with distributed.Client(address, timeout=10) as client:
            futures = [client.submit(run_chunk, _task(stream, r), pure=True) for r in list(tasks)]
            found = [str(f.key) for f in futures]
            client.cancel(futures)
        return found

    first, again, other = keys(9), keys(9), keys(10)
    assert first == again and len(set(first)) == 2
    assert not set(first) & set(other)


def _task(stream: Any, indexes: range) -> Any:
    from sudokit.generator import Batch, _Task

    return _Task(indexes, stream._options, Batch)


# The hunt -----------------------------------------------------------------------------------

#: Two of test_hunt's seeds (magictour's top1465, ER 7.1-9.0).
SEEDS = [
    "..84...3....3.....9....157479...8........7..514.....2...9.6...2.5....4......9..56",
    "53..2.9...24.3..5...9..........1.827...7.........981.............64....91.2.5.43.",
]


def test_hunt_on_a_cluster_finds_what_jobs_of_its_width_find(
    address: str, tmp_path: Path, capsys: Capture
) -> None:
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("\n".join(SEEDS) + "\n", encoding="utf-8")
    args = ["hunt", "--min-er", "6.5", "--seeds", str(seeds), "--seed", "6", "-n", "3"]
    args += ["--per-seed", "150"]
    outputs = []
    # Rounds of max(4, 2 x width) seeds: the same 4 for -j 1 and a cluster 2 wide. (-j 2
    # would do too, but its pool, stopped at -n, can leave a thread error behind: a race of
    # concurrent.futures when workers are terminated with a cancelled item pending.)
    for how in (["-j", "1"], ["--cluster", address]):
        out = tmp_path / f"{how[0]}.txt"
        status, _, err = _run(capsys, *args, *how, "-o", str(out))
        assert status == 0, err
        outputs.append(out.read_text(encoding="utf-8"))
    assert outputs[0].count("\n") >= 3
    assert outputs[1] == outputs[0]


# The bank -----------------------------------------------------------------------------------


def _ids(url: str) -> list[str]:
    with Bank(url) as bank:
        return [s.id for s in bank.query()]


def test_bank_fill_on_a_cluster_stores_each_puzzle_once(
    address: str, bank_url: str, tmp_path: Path, capsys: Capture
) -> None:
    args = ["fill", "--level", "easy", "-n", "8", "--seed", "12"]
    status, _, err = _run(capsys, "bank", "--db", bank_url, *args, "--cluster", address)
    assert status == 0, err
    assert "added 8, duplicates 0" in err
    there = _ids(bank_url)
    assert len(there) == len(set(there)) == 8
    # The same puzzles as one process makes.
    alone = str(tmp_path / "alone.db")
    assert _run(capsys, "bank", "--db", alone, *args, "-j", "1")[0] == 0
    assert sorted(_ids(alone)) == sorted(there)
    # Every task run again (the run's progress forgotten): nothing changes, all duplicates.
    with Bank(bank_url) as bank:
        before = bank.count()
        if "://" in bank_url:
            engine = sa.create_engine(bank_url.replace("postgresql://", "postgresql+psycopg://", 1))
        else:
            engine = sa.create_engine(f"sqlite:///{bank_url}")
        with engine.begin() as conn:
            conn.execute(sa.text("DELETE FROM runs"))
        engine.dispose()
        again = list(bank.fill(1, level="easy", seed=12, cluster=address))
        assert [a.new for a in again[:8]] == [False] * 8
        assert {a.entry.id for a in again[:8]} == set(there)
        assert bank.count() == before + 1


# Faults -------------------------------------------------------------------------------------


def test_a_worker_killed_mid_run_changes_nothing(address: str) -> None:

    expected = [g.puzzle for g in generate_many(4000, seed=77, chunk=125, jobs=2)]
    with distributed.Client(address, timeout=10) as client:
        before = sudokit_cluster.worker_pids(client)
        assert len(before) == 2
        stream = generate_many(4000, seed=77, chunk=125, cluster=address)
        got = [next(stream).puzzle]
        os.kill(next(iter(before.values())), signal.SIGKILL)  # with tasks in its hands
        got.extend(g.puzzle for g in stream)
        assert got == expected
        client.wait_for_workers(2, timeout=30)  # the nanny starts another in its place
        assert set(sudokit_cluster.worker_pids(client).values()) != set(before.values())


def _wait_for_lines(path: Path, lines: int, proc: subprocess.Popen[bytes], limit: float) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if path.exists() and path.read_bytes().count(b"\n") >= lines:
            return
        assert proc.poll() is None, "the run ended before it was killed"
        time.sleep(0.05)
    raise AssertionError(f"{path} did not reach {lines} lines in {limit} s")


def test_a_client_killed_mid_run_resumes(address: str, tmp_path: Path, capsys: Capture) -> None:
    path = tmp_path / "p.txt"
    args = ["generate", "-n", "6000", "--seed", "8", "-o", str(path)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudokit", *args, "--cluster", address],
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_for_lines(path, 1200, proc, 60)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        proc.kill()
        proc.wait()
    assert _run(capsys, *args, "--resume", "--cluster", address)[0] == 0
    whole = tmp_path / "whole.txt"
    assert _run(capsys, *args[:-1], str(whole), "-j", "2")[0] == 0
    assert path.read_bytes() == whole.read_bytes()


@pytest.mark.slow  # 10-25 s; the resume from the bank is the same code as with --jobs
def test_a_fill_killed_mid_run_resumes_from_the_bank(
    address: str, tmp_path: Path, capsys: Capture
) -> None:
    db = str(tmp_path / "bank.db")
    fill = ["bank", "--db", db, "fill", "--level", "diabolical", "--seed", "4"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudokit", *fill, "-n", "1000", "--cluster", address],
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and _stored(db) < 3:
            assert proc.poll() is None, "the fill ended before it was killed"
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        proc.kill()
        proc.wait()
    kept = _stored(db)
    assert kept >= 3
    status, _, err = _run(capsys, *fill, "-n", "4", "--cluster", address)
    assert status == 0 and "added 4, duplicates 0" in err, err
    # No gap, no duplicate: the bank holds what one uninterrupted fill of as many makes.
    alone = str(tmp_path / "alone.db")
    assert _run(capsys, "bank", "--db", alone, *fill[3:], "-n", str(kept + 4), "-j", "1")[0] == 0
    assert sorted(_ids(db)) == sorted(_ids(alone))


def _stored(db: str) -> int:
    import sqlite3

    try:
        with contextlib.closing(sqlite3.connect(db, timeout=10)) as conn:
            return int(conn.execute("SELECT count(*) FROM puzzles").fetchone()[0])
    except sqlite3.OperationalError:  # not made yet
        return 0


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


@pytest.mark.parametrize(
    "where, status, says",
    [
        ("tcp://127.0.0.1:{port}", 1, "cannot reach the Dask scheduler at 'tcp://127.0.0.1:"),
        ("tcp://127.0.0.1:notaport", 2, "bad cluster address 'tcp://127.0.0.1:notaport'"),
        ("gopher://host:1", 2, "bad cluster address 'gopher://host:1': unknown address scheme"),
        ("bogus", 2, "bad cluster address 'bogus': expected local, local:N or a scheduler's"),
        ("local:0", 2, "bad cluster address 'local:0': expected local:N"),
        ("", 2, "bad cluster address '': expected local, local:N or a scheduler's address"),
    ],
)
def test_bad_addresses_fail_fast_and_clearly(
    where: str, status: int, says: str, monkeypatch: pytest.MonkeyPatch, capsys: Capture
) -> None:
    monkeypatch.setattr(sudokit_cluster, "CONNECT_TIMEOUT", 1.0)
    address = where.format(port=_closed_port())
    t = time.monotonic()
    code, out, err = _run(capsys, "generate", "-n", "5", "--cluster", address)
    assert time.monotonic() - t < 10
    assert (code, out) == (status, "")
    assert says in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_jobs_and_cluster_do_not_go_together(capsys: Capture) -> None:
    with pytest.raises(SystemExit) as exit:
        main(["generate", "-j", "2", "--cluster", "local"])
    assert exit.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_without_dask_cluster_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: Capture
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if it were not installed
    code, _, err = _run(capsys, "generate", "-n", "2", "--cluster", "local:2")
    assert code == 1  # as for every missing extra (tests/test_extras.py)
    assert err == (
        'sudokit generate: --cluster needs the [cluster] extra: pip install "sudokit[cluster]" '
        "(distributed is not installed)\n"
    )


def test_without_cluster_dask_is_not_imported(tmp_path: Path) -> None:
    out = str(tmp_path / "p.txt")
    code = (
        "import sys\n"
        "from sudokit.cli import main\n"
        f"assert main(['generate', '-n', '20', '-j', '2', '-o', {out!r}]) == 0\n"
        f"assert main(['bank', '--db', {str(tmp_path / 'b.db')!r}, 'fill', '-n', '2']) == 0\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "[]\n"
