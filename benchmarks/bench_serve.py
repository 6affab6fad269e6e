"""The puzzle service under load, printed as JSON lines (loopback only, bounded).

    python benchmarks/bench_serve.py                 # the issue's run: 100,000 puzzles
    python benchmarks/bench_serve.py --quick         # a smaller bank and fewer requests
    python benchmarks/bench_serve.py --client httpx  # the Python client, not wrk

The bank is ``benchmarks/results/serve-bank-N.db``, built once (``Bank.add`` of
``bank.prepared`` chunks) from ``benchmarks/results/rated-100000.txt`` (``sudokit generate
--rate`` lines; made with ``sudokit generate -n 100000 --seed 2026 --rate`` when missing).
The service is the real one, ``sudokit serve --workers 2`` in a subprocess on a free
loopback port.

The client for the GETs is ``wrk`` (Debian's package: C, HTTP/1.1 keep-alive) when it is on
the PATH, run with one thread (``--wrk-threads``) so that it leaves the server the CPU: it
costs a few hundredths of a millisecond a request, where httpx's async client in Python costs
about 4 ms, which on a two-core machine decides the figures. Its script
(``benchmarks/wrk_puzzle.lua``) asks for the levels in turn, stops after the number of
answers asked for, and counts every answer that is not a 200 with an id as an error. Without
wrk (or with ``--client httpx``) the GETs are sent by httpx in this process. Every
record names the client used.

Records:

- ``bank``: the bank's size, and how long building it took (when it was built now).
- ``get_puzzle``: ``--requests`` (5,000) ``GET /api/v1/puzzle?level=…`` (the levels in turn)
  at ``--concurrency`` (50) connections: errors (any answer but a 200 with an id, or a failed
  request), latency p50/p99/max in milliseconds, requests a second. Target: 0 errors,
  p99 ≤ 50 ms. Also the CPU milliseconds a request cost the client and the server (its
  process tree), and the load average: client and server share the machine's CPUs, and by
  Little's law the latency at 50 connections is 50 / (requests a second), so the p99 target
  needs well over 1,000 requests a second.
- ``get_puzzle_during_rate``: the same GETs while 20 ``POST /api/v1/rate`` of ER 7-9
  puzzles are in flight, sent by httpx from a separate process (the GETs run from when the
  rates are sent until the last is answered): their latency, and the rates' own outcome
  (answered, 503 past the time limit) and times. Target: p99 ≤ 100 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx

from sudokit.bank import Bank, Entry, Filters, prepared
from sudokit.formats import PuzzleSource

from common import emit, machine

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
WRK_SCRIPT = HERE / "wrk_puzzle.lua"
LEVELS = ("easy", "medium", "hard", "fiendish", "diabolical")
_URL = re.compile(r"at (http://127\.0\.0\.1:\d+/)")
#: Seconds any one load run may last at most (wrk's --duration; the rates' own bound).
BOUND = 300


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


def own_cpu() -> float:
    """CPU seconds of this process and of its children waited for (wrk, once it ended)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def cpu_now(server: Server) -> tuple[float, float]:
    """(the client's CPU seconds: this process and wrk, the server's)."""
    return own_cpu(), tree_cpu(server.process.pid)


def cpu_fields(before: tuple[float, float], after: tuple[float, float], n: int) -> dict[str, Any]:
    return {
        "client_cpu_ms_per_request": round((after[0] - before[0]) / max(1, n) * 1000, 3),
        "server_cpu_ms_per_request": round((after[1] - before[1]) / max(1, n) * 1000, 3),
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


# The GETs with wrk ------------------------------------------------------------------------------


class Wrk:
    """``wrk`` with :data:`WRK_SCRIPT`: ``total`` answers (0: until :meth:`stop`) at
    ``concurrency`` connections from ``threads`` threads.

    wrk's main thread sleeps for its whole ``--duration`` even after every thread has
    stopped, so its own duration is no measure: the script prints a ``WRK-STOPPED`` line when
    a thread has its answers, and the run is timed here, from wrk's start to the last of
    those lines (or to :meth:`stop`), then ended with SIGINT (on which wrk prints its
    figures). The time includes wrk's start and its connecting, a few milliseconds."""

    def __init__(self, url: str, total: int, concurrency: int, threads: int) -> None:
        self.threads = max(1, min(threads, concurrency))
        per_thread = -(-total // self.threads) if total else 0
        args = ["wrk", f"-t{self.threads}", f"-c{concurrency}", f"-d{BOUND}s", "--timeout", "60s"]
        args += ["-s", str(WRK_SCRIPT), url.rstrip("/"), "--", str(per_thread)]
        self.started = time.perf_counter()
        self.took = 0.0
        self.process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

    def stop(self) -> None:
        """End the run now (wrk prints its figures on SIGINT)."""
        if not self.took:
            self.took = time.perf_counter() - self.started
        self.process.send_signal(signal.SIGINT)

    def result(self) -> dict[str, Any]:
        """Wait for the run's end (every thread stopped, or :meth:`stop`), then its figures
        (see the script's ``done``). Blocks: call it in a thread."""
        assert self.process.stdout is not None
        lines, stopped = [], 0
        for raw in self.process.stdout:
            line = raw.decode("utf-8", "replace")
            lines.append(line)
            if line.startswith("WRK-STOPPED"):
                stopped += 1
                if stopped == self.threads:
                    self.stop()
        self.process.wait(BOUND + 60)
        done = next((x for x in lines if x.startswith("WRK ")), None)
        if self.process.returncode != 0 or done is None:
            text = "".join(lines)[-3000:]
            raise SystemExit(f"wrk failed ({self.process.returncode}):\n{text}")
        r: dict[str, Any] = json.loads(done[4:])
        socket_errors = sum(r[k] for k in ("connect_errors", "read_errors", "write_errors"))
        made = r["requests"]
        return {
            "requests": made,
            "errors": r["bad"] + socket_errors + r["timeouts"],
            "p50_ms": round(r["p50_us"] / 1000, 2),
            "p99_ms": round(r["p99_us"] / 1000, 2),
            "max_ms": round(r["max_us"] / 1000, 2),
            "rps": round(made / (self.took or r["duration_us"] / 1e6), 1),
        }


def wrk_name(args: argparse.Namespace) -> str:
    return f"wrk -t{max(1, min(args.wrk_threads, args.concurrency))} -c{args.concurrency}"


# The GETs with httpx ----------------------------------------------------------------------------


async def get_load(
    client: httpx.AsyncClient,
    total: int | None,
    concurrency: int,
    until: Callable[[], bool] | None = None,
) -> dict[str, Any]:
    """``total`` GETs (or as many as start before ``until()`` is true) at ``concurrency``:
    the same figures as :meth:`Wrk.result`."""
    latencies: list[float] = []
    errors = 0
    made = 0
    start = time.perf_counter()

    async def one(i: int) -> None:
        nonlocal errors
        level = LEVELS[i % len(LEVELS)]
        t = time.perf_counter()
        try:
            r = await client.get("api/v1/puzzle", params={"level": level})
            ok = r.status_code == 200 and "id" in r.json()
        except httpx.HTTPError:
            ok = False
        latencies.append(time.perf_counter() - t)
        errors += not ok

    async def lane() -> None:
        nonlocal made
        while True:
            if until is not None and until():
                return
            if total is not None and made >= total:
                return
            i = made
            made += 1
            await one(i)

    await asyncio.gather(*(lane() for _ in range(concurrency)))
    took = time.perf_counter() - start
    return {"requests": made, "errors": errors, **summary(latencies), "rps": round(made / took, 1)}


# The rates, from another process ----------------------------------------------------------------


def rate_client(url: str, puzzles: list[str], conn: Connection) -> None:
    """Send every ``POST rate`` at once (httpx), say "sent", then send the outcome."""

    async def go() -> dict[str, Any]:
        times: list[float] = []
        outcomes: dict[str, int] = {}
        limits = httpx.Limits(max_connections=len(puzzles))
        async with httpx.AsyncClient(base_url=url, timeout=BOUND, limits=limits) as client:

            async def rate(puzzle: str) -> None:
                t = time.perf_counter()
                try:
                    r = await client.post("api/v1/rate", json={"puzzle": puzzle})
                    key = str(r.status_code)
                except httpx.HTTPError as e:
                    key = type(e).__name__
                outcomes[key] = outcomes.get(key, 0) + 1
                times.append(time.perf_counter() - t)

            tasks = [asyncio.create_task(rate(p)) for p in puzzles]
            await asyncio.sleep(0.05)  # the requests are on their way
            conn.send("sent")
            await asyncio.gather(*tasks)
        return {
            "rates": len(puzzles),
            "rate_status": outcomes,
            "rate_s": {
                "min": round(min(times), 2),
                "median": round(statistics.median(times), 2),
                "max": round(max(times), 2),
            },
        }

    conn.send(asyncio.run(go()))


class Rates:
    """:func:`rate_client` in a child process."""

    def __init__(self, url: str, puzzles: list[str]) -> None:
        self.conn, child = multiprocessing.Pipe()
        self.process = multiprocessing.Process(target=rate_client, args=(url, puzzles, child))
        self.process.start()
        child.close()

    def sent(self) -> None:
        if not self.conn.poll(60) or self.conn.recv() != "sent":
            raise SystemExit("the rate requests were not sent")

    def done(self) -> bool:
        return self.conn.poll()

    def result(self) -> dict[str, Any]:
        if not self.conn.poll(BOUND):
            raise SystemExit("the rate requests did not finish")
        out: dict[str, Any] = self.conn.recv()
        self.process.join()
        return out


# The runs ---------------------------------------------------------------------------------------


async def bench(args: argparse.Namespace) -> None:
    bank = build_bank(args.puzzles)
    hard = hard_puzzles(bank, args.rates) if args.rates else []
    use_wrk = args.client == "wrk" or (args.client == "auto" and shutil.which("wrk"))
    if args.client == "wrk" and not shutil.which("wrk"):
        raise SystemExit("wrk is not on the PATH (Debian: apt-get install wrk)")
    client = wrk_name(args) if use_wrk else f"httpx -c{args.concurrency}"
    common = {"concurrency": args.concurrency, "workers": args.workers, "client": client}
    server = Server(bank, args.workers, args.jobs)
    try:
        await server.ready()
        limits = httpx.Limits(max_connections=args.concurrency, max_keepalive_connections=64)
        async with httpx.AsyncClient(base_url=server.url, limits=limits, timeout=60) as http:

            async def gets(total: int | None, until: Callable[[], bool] | None) -> Any:
                if not use_wrk:
                    return await get_load(http, total, args.concurrency, until)
                wrk = Wrk(server.url, total or 0, args.concurrency, args.wrk_threads)
                result = asyncio.create_task(asyncio.to_thread(wrk.result))
                if until is not None:
                    while not until() and not result.done():
                        await asyncio.sleep(0.02)
                    wrk.stop()
                return await result

            await gets(500, None)  # warm up: connections, caches
            before = cpu_now(server)
            got = await gets(args.requests, None)
            cpu = cpu_fields(before, cpu_now(server), got["requests"])
            emit({"bench": "get_puzzle", **common, **got, "target_p99_ms": 50, **cpu, **machine()})

            if not hard:  # --rates 0: the GETs alone
                return
            rates = Rates(server.url, hard)
            rates.sent()
            before = cpu_now(server)
            got = await gets(None, rates.done)
            cpu = cpu_fields(before, cpu_now(server), got["requests"])
            cpu.pop("client_cpu_ms_per_request")  # the rates' client is counted with it
            cpu.pop("server_cpu_ms_per_request")  # and the server's rating work
            emit(
                {
                    "bench": "get_puzzle_during_rate",
                    **common,
                    **got,
                    "target_p99_ms": 100,
                    **rates.result(),
                    **cpu,
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
    p.add_argument("--rates", type=int, default=20, help="POST rate in flight (0: none)")
    p.add_argument(
        "--client",
        choices=("auto", "wrk", "httpx"),
        default="auto",
        help="who sends the GETs (auto: wrk when it is on the PATH, else httpx)",
    )
    p.add_argument("--wrk-threads", type=int, default=1, help="wrk's threads (default 1)")
    args = p.parse_args()
    if args.quick:
        args.puzzles, args.requests = 10_000, 1000
    asyncio.run(bench(args))


if __name__ == "__main__":
    main()
