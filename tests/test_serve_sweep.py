"""The service as it is deployed: ``sudokit serve`` (uvicorn with the ``[server]`` extra's
event loop, uvloop, and a pool of worker processes) in a subprocess, the session's
``live_service``: large answers come back whole, every endpoint at every level on 9x9 and
16x16, and a bug's 500 is logged with its traceback."""

from __future__ import annotations

import concurrent.futures
import datetime as dt
import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from sudokit import Grid, Shape
from sudokit.bank import Bank, Filters
from sudokit.engine import unique_solution

from procs import children
from service import Service, running_service, slow_puzzle

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
        assert data["solved"] and data["text"] == Grid(str(puzzle)).to_line()
    assert unique_solution(Grid(HARD))


def _workers(server: int) -> list[int]:
    """The pool's worker processes of a ``sudokit serve`` process: the children of its
    forkserver (the server's child whose command line names it)."""
    out = []
    for child in children(server):
        try:
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"forkserver" in cmdline:
            out.extend(children(child))
    return out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds workers in /proc")
def test_a_worker_lost_mid_request_is_a_500_logged_with_its_traceback(live_bank: str) -> None:
    """A worker killed while it works (the OOM killer, a crash in C): the request is answered
    500 with a short message, the server's log has the traceback once, and the pool goes on
    with a new worker."""
    with (
        running_service(live_bank, jobs=1, time_limit=60.0) as srv,
        httpx.Client(base_url=srv.url, timeout=90) as c,
        concurrent.futures.ThreadPoolExecutor(1) as ex,
    ):
        deadline = time.monotonic() + 20
        while not (workers := _workers(srv.process.pid)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(workers) == 1, workers
        slow = ex.submit(c.post, "api/v1/solve", json={"puzzle": slow_puzzle(), "shape": "5x5"})
        while _cpu_seconds(workers[0]) < 0.5 and not slow.done():  # the job is under way
            time.sleep(0.1)
        os.kill(workers[0], signal.SIGKILL)
        r = slow.result()
        assert r.status_code == 500, r.text
        assert r.json() == {"error": "internal error in the sudokit server"}
        time.sleep(0.5)
        log = srv.log()
        assert log.count("Traceback") == 1, log[-3000:]
        assert "a worker process died during solve" in log, log[-3000:]
        assert c.post("api/v1/explain", json={"puzzle": HARD}).status_code == 200


def _cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) process ``pid`` has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _count(bank: str) -> int:
    with Bank(bank) as b:
        return b.count(Filters())


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"shape": "2x2", "level": "diabolical"}, "no 4x4 puzzle rates ER 6.1 or more"),
        ({"shape": "4", "level": "medium"}, "the hardest rate ER 1.2 (easy)"),
        ({"shape": "4", "require": "x-wing"}, "x-wing rates ER 3.2"),
        ({"shape": "9", "level": "easy", "er": "7-9"}, "outside level easy"),
        ({"shape": "9", "er": "99"}, "outside Sudoku Explainer's scale"),
    ],
)
def test_what_cannot_exist_is_refused_at_once(
    client: httpx.Client, params: dict[str, str], words: str
) -> None:
    t = time.monotonic()
    r = client.get("api/v1/puzzle", params=params)
    assert time.monotonic() - t < 2.0  # not the time limit (5 s)
    assert r.status_code == 422 and words in r.json()["error"], r.text


def test_the_easiest_shape_still_serves_what_it_can(client: httpx.Client) -> None:
    r = client.get("api/v1/puzzle", params={"shape": "4", "level": "easy"})
    assert r.status_code == 200 and r.json()["n"] == 4, r.text


def test_er_ranges_and_techniques_are_served_from_the_bank_alone(
    client: httpx.Client, live_bank: str
) -> None:
    """Only the finite choices of level, shape and symmetry make a puzzle on demand: an ER
    range or a technique the bank has none of is a 404, and nothing is stored."""
    before = _count(live_bank)
    for params in (
        {"shape": "6", "er": "1.0-1.5"},
        {"shape": "12", "er": "2.3"},
        {"shape": "6", "require": "hidden-single"},
    ):
        r = client.get("api/v1/puzzle", params=params)
        assert r.status_code == 404 and "bank fill" in r.json()["error"], r.text
    assert _count(live_bank) == before
    r = client.get("api/v1/puzzle", params={"shape": "9", "er": "1.0-1.5"})  # in the bank
    assert r.status_code == 200 and r.json()["er"] <= 1.5, r.text


def test_the_daily_puzzle_has_a_window(client: httpx.Client, live_bank: str) -> None:
    """Each day's puzzle is stored: dates before 2026-01-01 or after today in the earliest
    time zone (UTC+14) are refused, and store nothing."""
    before = _count(live_bank)
    last = dt.datetime.now(dt.timezone(dt.timedelta(hours=14))).date()
    for day in ("0001-01-01", "9999-12-31", "2025-12-31", (last + dt.timedelta(days=1))):
        r = client.get("api/v1/daily", params={"level": "easy", "date": str(day)})
        assert r.status_code == 422, r.text
        assert "from 2026-01-01 to" in r.json()["error"], r.text
    assert _count(live_bank) == before
    for day in ("2026-01-01", str(last)):
        r = client.get("api/v1/daily", params={"level": "easy", "date": day})
        assert r.status_code == 200 and r.json()["date"] == day, r.text


def test_a_hint_at_detail_1_gives_nothing_away(client: httpx.Client) -> None:
    cells = [int(c) if c != "." else 0 for c in HARD]
    for detail in (1, 2, 3):
        body = {"shape": "3x3", "puzzle": cells, "grid": cells, "detail": detail}
        r = client.post("api/v1/hint", json=body)
        assert r.status_code == 200, r.text
        data = r.json()
        step = data["step"]
        assert data["kind"] == "step" and step["text"] == data["text"] and step["units"]
        if detail < 3:
            assert step["placements"] == step["eliminations"] == step["links"] == []
        if detail == 1:
            assert step["cells"] == step["digits"] == [] and "candidates" not in step
        else:
            assert step["cells"] and step["digits"]


# The sweep: every endpoint at every level, on 9x9 and 16x16 ---------------------------------

LEVELS = ("easy", "medium", "hard", "fiendish", "diabolical")
GRID_KEYS = {"shape", "text", "cells"}


def _grid(data: dict[str, Any], shape: str) -> Grid:
    """The grid of an answer, checked to be the one grid schema: text and cells agree."""
    assert set(data) >= GRID_KEYS and data["shape"] == shape, data.keys()
    grid = Grid.from_cells(bytes(data["cells"]), Shape.parse(shape))
    assert grid.to_line() == data["text"]
    return grid


@pytest.mark.parametrize("side", ["9", "16"])
@pytest.mark.parametrize("level", LEVELS)
def test_every_endpoint_at_every_level(client: httpx.Client, side: str, level: str) -> None:
    shape = "3x3" if side == "9" else "4x4"
    r = client.get("api/v1/puzzle", params={"level": level, "shape": side})
    if r.status_code == 503:  # only a 16x16 diabolical one the bank lacks, made too slowly
        assert (side, level) == ("16", "diabolical") and "none was made" in r.json()["error"]
        return
    assert r.status_code == 200, r.text
    served = r.json()
    assert served["level"] == level and served["n"] == int(side)
    puzzle = _grid(served, shape)
    again = client.get(f"api/v1/puzzle/{served['id']}")
    assert again.status_code == 200 and again.json() == served
    r = client.get(f"api/v1/puzzle/{served['id']}/solution")
    assert r.status_code == 200, r.text
    solution = _grid(r.json(), shape)
    assert unique_solution(puzzle) == solution

    # The same puzzle, as text and as digits with its shape, on every call that takes one.
    for form in ({"puzzle": puzzle.to_line()}, {"puzzle": list(puzzle.cells), "shape": shape}):
        r = client.post("api/v1/solve", json=form)
        assert r.status_code == 200 and _grid(r.json(), shape) == solution, r.text
        r = client.post("api/v1/rate", json=form)
        assert r.status_code == 200, r.text
        assert _grid(r.json(), shape) == puzzle and r.json()["level"] == level
        r = client.post("api/v1/explain", json=form)
        assert r.status_code == 200 and r.json()["solved"], r.text
        assert _grid(r.json(), shape) == puzzle
        for detail in (1, 2, 3):
            r = client.post("api/v1/hint", json={**form, "detail": detail})
            assert r.status_code == 200 and r.json()["kind"] == "step", r.text
        r = client.post("api/v1/check", json={**form, "grid": solution.to_line()})
        assert r.status_code == 200 and r.json()["solved"], r.text
        r = client.post("api/v1/check", json={**form, "grid": list(puzzle.cells)})
        empty = puzzle.shape.size - puzzle.clue_count
        assert r.json() == {"wrong": [], "empty": empty, "solved": False}
    if side == "9":
        r = client.get("api/v1/daily", params={"level": level})
        assert r.status_code == 200 and r.json()["level"] == level, r.text
        _grid(r.json(), shape)


def test_the_catalog_and_the_schema(client: httpx.Client) -> None:
    r = client.get("api/v1/catalog")
    assert r.status_code == 200 and {s["n"] for s in r.json()["shapes"]} >= {9, 16}
    schema = client.get("api/v1/openapi.json").json()
    components = schema["components"]["schemas"]
    # One request schema for a puzzle: every POST takes PuzzleIn's 'puzzle' and 'shape'.
    puzzle_in = components["PuzzleIn"]["properties"]
    for path in ("solve", "rate", "explain", "hint", "check"):
        op = schema["paths"][f"/api/v1/{path}"]["post"]
        ref = op["requestBody"]["content"]["application/json"]["schema"]["$ref"]
        props = components[ref.rsplit("/", 1)[1]]["properties"]
        assert props["puzzle"] == puzzle_in["puzzle"] and props["shape"] == puzzle_in["shape"]
        assert {"400", "422", "503"} <= set(op["responses"]), path
    # One answer schema for a grid.
    for name in ("GridOut", "Served", "SolutionOut"):
        assert set(components[name]["properties"]) >= GRID_KEYS, name


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds workers in /proc")
def test_a_worker_lost_while_idle_costs_no_request(live_bank: str) -> None:
    """A worker killed while it waits for work is replaced when a job finds it dead: the job
    goes to the new worker, not to a 500."""
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
        assert r.status_code == 200, (r.text, srv.log()[-3000:])
        assert "died while idle" in srv.log() and "Traceback" not in srv.log()
