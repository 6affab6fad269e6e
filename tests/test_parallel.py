"""Worker processes end with the process that started them, however it ends."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from procs import children


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_generate_workers_die_with_their_parent(tmp_path: Path, sig: signal.Signals) -> None:
    out = tmp_path / "p.txt"
    cmd = [sys.executable, "-m", "sudokit", "generate", "-n", "10000000", "-j", "2", "-o", str(out)]
    parent = subprocess.Popen(cmd, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        workers: list[int] = []
        while time.monotonic() < deadline and len(workers) < 2:
            time.sleep(0.2)
            workers = [p for p in children(parent.pid) if _alive(p)]
        assert len(workers) >= 2, "the workers did not start"
        parent.send_signal(sig)
        parent.wait(timeout=30)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and any(_alive(p) for p in workers):
            time.sleep(0.2)
        assert not any(_alive(p) for p in workers)
    finally:
        parent.kill()
        parent.wait()


def test_a_callers_pool_serves_many_maps_in_order_and_stays_up() -> None:
    from sudokit._parallel import ordered_map, worker_pool

    with worker_pool(2) as pool:
        for start in (0, 100):
            got = list(ordered_map(abs, range(-start, -start - 40, -1), jobs=2, pool=pool))
            assert got == list(range(start, start + 40))
        early = ordered_map(abs, range(-1000, 0), jobs=2, pool=pool)
        assert next(early) == 1000
        early.close()  # the pending items stay in the pool, which is left running
        assert list(ordered_map(abs, [-3, -4], jobs=2, pool=pool)) == [3, 4]


def test_stopping_a_callers_pool_after_an_early_stop_leaves_no_thread_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # hunt -j 2 stopped at -n: the map over its pool stops early, then the hunt stops the pool.
    # When the map cancelled its pending items, CPython 3.11's pool manager thread died on
    # them (InvalidStateError) as the terminated workers broke the pool.
    import multiprocessing
    import threading

    from sudokit._parallel import ordered_map, stop_pool, worker_pool

    errors: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: errors.append(args.exc_value))
    for _ in range(3):
        before = set(multiprocessing.active_children())
        pool = worker_pool(2)
        early = ordered_map(time.sleep, [0.05] * 40, jobs=2, pool=pool)
        assert next(early) is None
        early.close()
        stop_pool(pool, before)
        pool.shutdown(wait=True)
    assert errors == []


def test_errors_sent_back_by_workers_keep_their_fields(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # rate reports a puzzle of many solutions in place: its NotUniqueError comes back from a
    # worker process, pickled (once a BrokenProcessPool: the keyword-only field was lost).
    import pickle

    from sudokit.cli import main
    from sudokit.errors import GenerationError, NotUniqueError

    source = tmp_path / "two.txt"
    source.write_text("." * 81 + "\n" + "." * 81 + "\n", encoding="utf-8")  # 2: workers start
    assert main(["rate", str(source), "-j", "2"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert [line.rpartition(", ")[2] for line in err] == [
        f"line {i}: more than one solution" for i in (1, 2)
    ]
    again = pickle.loads(pickle.dumps(NotUniqueError("no", solutions=2)))
    assert (type(again), str(again), again.solutions) == (NotUniqueError, "no", 2)
    closest = pickle.loads(pickle.dumps(GenerationError("gave up", closest=(1, 2))))
    assert (str(closest), closest.closest) == ("gave up", (1, 2))
