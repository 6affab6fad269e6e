"""The service as it is deployed: ``sudokit serve`` (uvicorn with the ``[server]`` extra's
event loop, uvloop, and a pool of worker processes) in a subprocess, the session's
``live_service``: large answers come back whole, every endpoint at every level on 9x9 and
16x16, and a bug's 500 is logged with its traceback."""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from sudokit import Grid
from sudokit.engine import unique_solution

from service import Service, running_service

#: The issue's puzzle: its explanation (about 34 KB) came back as a 500 under uvloop.
HARD = "....64...21.....34..51...9.5...29....3.....2....73...1.6...78..19.....62...61...."


@pytest.fixture
def client(live_service: Service) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live_service.url, timeout=60) as c:
        yield c


def _served(client: httpx.Client, level: str, shape: str) -> dict[str, object]:
    r = client.get("api/v1/puzzle", params={"level": level, "shape": shape})
    assert r.status_code == 200, r.text
    data: dict[str, object] = r.json()
    return data


def test_large_answers_come_back_whole(client: httpx.Client, live_service: Service) -> None:
    """The worker's answer is read as its bytes come: an explanation larger than what one
    read of the socket gives (here 30-120 KB) is answered whole, not a 500."""
    sixteen = _served(client, "fiendish", "16")["text"]
    for puzzle in (HARD, sixteen) * 3:
        r = client.post("api/v1/explain", json={"puzzle": puzzle})
        assert r.status_code == 200, (r.text, live_service.log()[-3000:])
        assert len(r.content) > 30_000
        data = r.json()
        assert data["solved"] and data["puzzle"] == Grid(str(puzzle)).to_line()
    assert unique_solution(Grid(HARD))


def _workers(server: int) -> list[int]:
    """The pool's worker processes of a ``sudokit serve`` process: the children of its
    forkserver (the server's child whose command line names it)."""
    out = []
    for child in _children(server):
        try:
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"forkserver" in cmdline:
            out.extend(_children(child))
    return out


def _children(pid: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        if parent == pid:
            out.append(int(stat.parent.name))
    return out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds workers in /proc")
def test_a_lost_worker_is_a_500_logged_with_its_traceback(live_bank: str) -> None:
    """A worker killed from outside (the OOM killer, a crash in C): the request it was given
    is answered 500 with a short message, the server's log has the traceback once, and the
    pool goes on with a new worker."""
    with (
        running_service(live_bank, jobs=1, time_limit=30.0) as srv,
        httpx.Client(base_url=srv.url, timeout=60) as c,
    ):
        deadline = time.monotonic() + 20
        while not (workers := _workers(srv.process.pid)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(workers) == 1, workers
        os.kill(workers[0], signal.SIGKILL)
        time.sleep(0.5)
        r = c.post("api/v1/explain", json={"puzzle": HARD})
        assert r.status_code == 500, r.text
        assert r.json() == {"error": "internal error in the sudokit server"}
        time.sleep(0.5)
        log = srv.log()
        assert log.count("Traceback") == 1, log[-3000:]
        assert "a worker process died during explain" in log, log[-3000:]
        assert c.post("api/v1/explain", json={"puzzle": HARD}).status_code == 200
