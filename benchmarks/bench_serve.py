"""The puzzle service under load, printed as JSON lines (loopback only, bounded).

    python benchmarks/bench_serve.py                 # the issue's run: 100,000 puzzles
    python benchmarks/bench_serve.py --quick         # a smaller bank and fewer requests

The bank is ``benchmarks/results/serve-bank.db``, built once (``Bank.add`` of
``bank.prepared`` chunks) from ``benchmarks/results/rated-100000.txt`` (``sudokit generate
--rate`` lines; made with ``sudokit generate -n 100000 --seed 2026 --rate`` when missing).
The service is the real one, ``sudokit serve --workers 2`` in a subprocess on a free
loopback port; the client is httpx's async client in this process.

Records:

- ``bank``: the bank's size, and how long building it took (when it was built now).
- ``get_puzzle``: ``--requests`` (5,000) ``GET /api/v1/puzzle?level=…`` (the levels in turn)
  at ``--concurrency`` (50) connections: errors (any answer but 200, or a failed request),
  latency p50/p99/max in milliseconds, requests a second. Target: 0 errors, p99 ≤ 50 ms.
  Also the CPU milliseconds a request cost the client (this process) and the server (its
  process tree), and the load average: client and server share the machine's CPUs, and by
  Little's law the latency at 50 connections is 50 / (requests a second), so the p99 target
  needs well over 1,000 requests a second from the two together.
- ``get_puzzle_during_rate``: the same GETs while 20 ``POST /api/v1/rate`` of ER 7-9
  puzzles are in flight (only the GETs that start while one is): their latency, and the rates'
  own outcome (answered, 503 past the time limit) and times. Target: p99 ≤ 100 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from sudokit.bank import Bank, Entry, Filters, prepared
from sudokit.formats import PuzzleSource

from common import emit, machine

RESULTS = Path(__file__).resolve().parent / "results"
LEVELS = ("easy", "medium", "hard", "fiendish", "diabolical")
_URL = re.compile(r"at (http://127\.0\.0\.1:\d+/)")


def rated_input(count: int) -> Path:
    path = RESULTS / f"rated-{count}.txt"
    full = RESULTS / "rated-100000.txt"
    if not path.exists() and count < 100_000 and full.exists():  # the first lines of it
        with full.open(encoding="utf-8") as f:
            head = [line for _, line in zip(range(count + 1), f, strict=False)]
        path.write_text("".join(head), encoding="utf-8")
    if not path.exists():
        RESULTS.mkdir(parents=True, exist_ok=True)
        args = ["generate", "-n", str(count), "--seed", "2026", "--rate", "-o", str(path)]
        subprocess.run([sys.executable, "-m", "sudokit", *args], check=True)
    return path


def build_bank(count: int) -> Path:
    bank = RESULTS / f"serve-bank-{count}.db"
    if bank.exists():
        with Bank(str(bank)) as b:
            emit({"bench": "bank", "puzzles": b.count(), "built_s": None, **machine()})
        return bank
    source = rated_input(count)
    t = time.perf_counter()
    with Bank(str(bank)) as b:
        entries = (e for chunk in prepared(PuzzleSource(str(source)), jobs=2) for e in chunk)
        for _ in b.add(e for e in entries if isinstance(e, Entry)):
            pass
        size = b.count()
    emit({"bench": "bank", "puzzles": size, "built_s": round(time.perf_counter() - t, 1)})
    return bank


def hard_puzzles(bank: Path, count: int) -> list[str]:
    with Bank(str(bank)) as b:
        found = b.query(Filters(er=(7.0, 9.0)), limit=count)
    if not found:
        raise SystemExit("the bank holds no puzzle of ER 7-9 to rate")
    return [s.shown.to_line() for s in (found * count)[:count]]


class Server:
    def __init__(self, bank: Path, workers: int, jobs: int | None) -> None:
        self.log = tempfile.NamedTemporaryFile(prefix="bench-serve-", suffix=".log")  # noqa: SIM115
        args = [sys.executable, "-m", "sudokit", "serve", "--db", str(bank), "--port", "0"]
        args += ["--workers", str(workers)]
        if jobs is not None:
            args += ["--jobs", str(jobs)]
        self.process = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT)
        self.url = ""

    def text(self) -> str:
        return Path(self.log.name).read_text(encoding="utf-8", errors="replace")

    async def ready(self) -> None:
        deadline = time.monotonic() + 60
        async with httpx.AsyncClient(timeout=2) as c:
            while time.monotonic() < deadline:
                m = _URL.search(self.text())
                if m:
                    self.url = m.group(1)
                    try:
                        if (await c.get(self.url + "api/v1/catalog")).status_code == 200:
                            return
                    except httpx.HTTPError:
                        pass
                await asyncio.sleep(0.2)
        raise SystemExit(f"the server did not start:\n{self.text()}")

    def stop(self) -> None:
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


def tree_cpu(pid: int) -> float:
    """CPU seconds used so far by process ``pid`` and its live descendants (Linux /proc)."""
    stats: dict[int, tuple[int, float]] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        stats[int(entry.name)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / tick)
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        total += stats.get(p, (0, 0.0))[1]
        todo += [c for c, (parent, _) in stats.items() if parent == p]
    return total


def cpu_now(server: Server) -> tuple[float, float]:
    """(this process's CPU seconds, the server's)."""
    return time.process_time(), tree_cpu(server.process.pid)


def cpu_fields(before: tuple[float, float], after: tuple[float, float], n: int) -> dict[str, Any]:
    return {
        "client_cpu_ms_per_request": round((after[0] - before[0]) / n * 1000, 2),
        "server_cpu_ms_per_request": round((after[1] - before[1]) / n * 1000, 2),
        "load_average": os.getloadavg()[0],
        "cpus": len(os.sched_getaffinity(0)),
    }


def summary(latencies: list[float]) -> dict[str, Any]:
    if not latencies:
        return {"p50_ms": None, "p99_ms": None, "max_ms": None}
    ms = sorted(x * 1000 for x in latencies)
    return {
        "p50_ms": round(statistics.median(ms), 2),
        "p99_ms": round(ms[min(len(ms) - 1, int(len(ms) * 0.99))], 2),
        "max_ms": round(ms[-1], 2),
    }


async def get_load(
    client: httpx.AsyncClient,
    total: int | None,
    concurrency: int,
    until: asyncio.Event | None = None,
    counts: Any = None,
) -> tuple[list[float], int, int, float]:
    """``total`` GETs (or as many as start before ``until`` is set) at ``concurrency``:
    (latencies of the counted ones, errors, requests made, seconds)."""
    latencies: list[float] = []
    errors = 0
    made = 0
    start = time.perf_counter()

    async def one(i: int) -> None:
        nonlocal errors
        level = LEVELS[i % len(LEVELS)]
        counted = counts() if counts is not None else True
        t = time.perf_counter()
        try:
            r = await client.get("api/v1/puzzle", params={"level": level})
            ok = r.status_code == 200 and "id" in r.json()
        except httpx.HTTPError:
            ok = False
        if counted:
            latencies.append(time.perf_counter() - t)
            errors += not ok

    async def lane(k: int) -> None:
        nonlocal made
        while True:
            if until is not None and until.is_set():
                return
            if total is not None and made >= total:
                return
            i = made
            made += 1
            await one(i)

    await asyncio.gather(*(lane(k) for k in range(concurrency)))
    return latencies, errors, made, time.perf_counter() - start


async def bench(args: argparse.Namespace) -> None:
    bank = build_bank(args.puzzles)
    hard = hard_puzzles(bank, args.rates)
    server = Server(bank, args.workers, args.jobs)
    try:
        await server.ready()
        limits = httpx.Limits(max_connections=args.concurrency, max_keepalive_connections=64)
        async with httpx.AsyncClient(base_url=server.url, limits=limits, timeout=60) as client:
            await get_load(client, 500, args.concurrency)  # warm up: connections, caches
            before = cpu_now(server)
            lat, errors, made, took = await get_load(client, args.requests, args.concurrency)
            cpu = cpu_fields(before, cpu_now(server), made)
            emit(
                {
                    "bench": "get_puzzle",
                    "requests": made,
                    "concurrency": args.concurrency,
                    "workers": args.workers,
                    "errors": errors,
                    **summary(lat),
                    "rps": round(made / took, 1),
                    "target_p99_ms": 50,
                    **cpu,
                    **machine(),
                }
            )

            in_flight = 0
            done = asyncio.Event()
            rate_times: list[float] = []
            outcomes: dict[str, int] = {}

            async def rate(puzzle: str) -> None:
                nonlocal in_flight
                t = time.perf_counter()
                try:
                    r = await client.post("api/v1/rate", json={"puzzle": puzzle})
                    key = str(r.status_code)
                except httpx.HTTPError as e:
                    key = type(e).__name__
                outcomes[key] = outcomes.get(key, 0) + 1
                rate_times.append(time.perf_counter() - t)
                in_flight -= 1
                if in_flight == 0:
                    done.set()

            in_flight = len(hard)
            rates = [asyncio.create_task(rate(p)) for p in hard]
            await asyncio.sleep(0.05)  # the rates are sent first
            lat, errors, made, took = await get_load(
                client, None, args.concurrency, until=done, counts=lambda: in_flight > 0
            )
            await asyncio.gather(*rates)
            emit(
                {
                    "bench": "get_puzzle_during_rate",
                    "requests": len(lat),
                    "concurrency": args.concurrency,
                    "workers": args.workers,
                    "errors": errors,
                    **summary(lat),
                    "rps": round(made / took, 1),
                    "target_p99_ms": 100,
                    "rates": len(hard),
                    "rate_status": outcomes,
                    "rate_s": {
                        "min": round(min(rate_times), 2),
                        "median": round(statistics.median(rate_times), 2),
                        "max": round(max(rate_times), 2),
                    },
                }
            )
    finally:
        log = server.text()
        server.stop()
    if "Traceback" in log:
        print(log[-4000:], file=sys.stderr)
        raise SystemExit("the server printed a traceback")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="10,000 puzzles, 1,000 requests")
    p.add_argument("--puzzles", type=int, default=100_000)
    p.add_argument("--requests", type=int, default=5000)
    p.add_argument("--concurrency", type=int, default=50)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--jobs", type=int, default=None, help="pool size per server process")
    p.add_argument("--rates", type=int, default=20)
    args = p.parse_args()
    if args.quick:
        args.puzzles, args.requests = 10_000, 1000
    asyncio.run(bench(args))


if __name__ == "__main__":
    main()
