"""The Dask backend's speed against the process pool, printed as JSON lines.

    python benchmarks/bench_cluster.py            # full run
    python benchmarks/bench_cluster.py --quick    # smaller counts, one round
    python benchmarks/bench_cluster.py --postgres URL   # an existing server (admin URL)

Records (every one carries the load average when it was taken: the machine may be shared):

- ``generate``: minimal 9x9 puzzles without symmetry, ``generate_many(count, jobs=2)`` against
  the same on a ``LocalCluster`` of two worker processes started beforehand (the steady
  rate), and the whole ``sudokit generate -n COUNT -j 2`` process against ``--cluster
  ADDRESS`` of that running cluster (``cli_of_jobs``: how a deployment runs, with the
  scheduler and workers up) and ``--cluster local:2`` (``cli_local_of_jobs``: the process
  starts and stops its own cluster, a few seconds that a short run cannot earn back). Each
  round runs the sides one after the other (in turn first); the medians of the rounds'
  ratios are reported (1.0 is as fast as ``--jobs 2``), so a noisy neighbour moves all alike.
- ``tasks``: what one task costs: trivial tasks through ``sudokit.cluster.ordered_map`` (submit,
  the scheduler, a worker, the result back in order, as a run pays them) in tasks a second;
  the time of a chunk of quick puzzles at the cluster's chunk sizes; the share of a task's time
  that is overhead (the aim: under 5%).
- ``fill``: ``Bank.fill(n, level="diabolical")`` into PostgreSQL (a throw-away server started
  by ``bench_bank.py``'s helper) through the local cluster, and with ``jobs=2``, puzzles a
  second.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sudokit import cluster as sudokit_cluster
from sudokit import generate_many
from sudokit._parallel import CHUNKS_CLUSTER
from sudokit.bank import Bank

from bench_bank import _fresh, _postgres
from common import emit, machine


def load() -> float:
    return round(os.getloadavg()[0], 2)


def _rate(count: int, **options: Any) -> float:
    t = time.perf_counter()
    made = sum(1 for _ in generate_many(count, seed=1, symmetry="none", **options))
    assert made == count
    return count / (time.perf_counter() - t)


def _cli(count: int, *how: str) -> float:
    with tempfile.TemporaryDirectory() as d:
        cmd = [sys.executable, "-m", "sudokit", "generate", "-n", str(count), "--seed", "1"]
        cmd += ["--symmetry", "none", *how, "-o", str(Path(d) / "p.txt")]
        t = time.perf_counter()
        subprocess.run(cmd, check=True, stderr=subprocess.DEVNULL)
        return count / (time.perf_counter() - t)


def bench_generate(address: str, count: int, rounds: int) -> None:
    library, cli, cli_local = [], [], []
    jobs_rates, cluster_rates, cli_jobs, cli_cluster, cli_started = [], [], [], [], []
    for k in range(rounds):
        # Each round runs the sides in the other order, so a load that rises or falls during
        # the run favours neither.
        if k % 2:
            b, a = _rate(count, cluster=address), _rate(count, jobs=2)
            e = _cli(count, "--cluster", "local:2")
            d, c = _cli(count, "--cluster", address), _cli(count, "-j", "2")
        else:
            a, b = _rate(count, jobs=2), _rate(count, cluster=address)
            c, d = _cli(count, "-j", "2"), _cli(count, "--cluster", address)
            e = _cli(count, "--cluster", "local:2")
        jobs_rates.append(a)
        cluster_rates.append(b)
        library.append(b / a)
        cli_jobs.append(c)
        cli_cluster.append(d)
        cli_started.append(e)
        cli.append(d / c)
        cli_local.append(e / c)
    emit(
        {
            "bench": "cluster",
            "what": "generate 9x9 minimal, no symmetry",
            "puzzles": count,
            "rounds": rounds,
            "library_per_second_jobs_2": [round(r) for r in jobs_rates],
            "library_per_second_cluster_2": [round(r) for r in cluster_rates],
            "library_of_jobs": round(statistics.median(library), 3),
            "cli_per_second_jobs_2": [round(r) for r in cli_jobs],
            "cli_per_second_cluster_2": [round(r) for r in cli_cluster],
            "cli_of_jobs": round(statistics.median(cli), 3),
            "cli_per_second_cluster_local_2": [round(r) for r in cli_started],
            "cli_local_of_jobs": round(statistics.median(cli_local), 3),
            "load": load(),
        }
    )


def bench_tasks(address: str, tasks: int) -> None:
    list(sudokit_cluster.ordered_map(abs, range(50), address=address))  # warm the workers
    t = time.perf_counter()
    done = sum(1 for _ in sudokit_cluster.ordered_map(abs, range(tasks), address=address))
    per_second = done / (time.perf_counter() - t)
    one_core = _rate(4000)
    smallest, largest = CHUNKS_CLUSTER
    ms = {size: 1000 * size / one_core for size in (smallest, largest)}
    emit(
        {
            "bench": "cluster",
            "what": "task overhead (trivial tasks through ordered_map, 2 workers)",
            "tasks": tasks,
            "tasks_per_second": round(per_second),
            "ms_per_task": round(1000 / per_second, 2),
            "puzzles_per_second_1_core": round(one_core),
            "chunk_sizes": [smallest, largest],
            "chunk_ms": [round(ms[smallest], 1), round(ms[largest], 1)],
            "overhead_pct": [
                round(100 * (1000 / per_second) / (ms[s] + 1000 / per_second), 2)
                for s in (smallest, largest)
            ],
            "load": load(),
        }
    )


def bench_fill(address: str, url: str, count: int) -> None:
    out: dict[str, Any] = {"bench": "cluster", "what": "bank fill --level diabolical, PostgreSQL"}
    for name, how in (("cluster_2", {"cluster": address}), ("jobs_2", {"jobs": 2})):
        with _fresh(url, "postgresql") as db, Bank(db) as bank:
            t = time.perf_counter()
            new = sum(a.new for a in bank.fill(count, level="diabolical", seed=5, **how))
            out[f"per_second_{name}"] = round(new / (time.perf_counter() - t), 1)
            assert new == count == bank.count()
    out["puzzles"] = count
    out["of_jobs"] = round(out["per_second_cluster_2"] / out["per_second_jobs_2"], 3)
    out["load"] = load()
    emit(out)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--quick", action="store_true")
    p.add_argument("--count", type=int, help="puzzles a generation run (default 60000)")
    p.add_argument("--rounds", type=int, help="rounds of the generation pair (default 3)")
    p.add_argument("--fill", type=int, help="diabolical puzzles to fill (default 200)")
    p.add_argument("--postgres", help="postgresql://… of a server to use (else one is started)")
    args = p.parse_args()
    count = args.count or (20000 if args.quick else 60000)
    rounds = args.rounds or (1 if args.quick else 3)
    fill = args.fill or (40 if args.quick else 200)
    emit({"bench": "machine", **machine(), "load": load()})
    import distributed

    local: Any = distributed.LocalCluster
    with local(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        address = str(cluster.scheduler_address)
        bench_tasks(address, 2000 if args.quick else 5000)
        bench_generate(address, count, rounds)
        with _postgres(args.postgres) as url:
            if url is None:
                emit({"bench": "cluster", "what": "fill", "skipped": "no PostgreSQL server"})
            else:
                bench_fill(address, url, fill)


if __name__ == "__main__":
    main()
