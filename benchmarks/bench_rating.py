"""Agreement with Sudoku Explainer and rating speed, printed as JSON lines.

    python benchmarks/bench_rating.py                  # se_rated_dev.csv, single-threaded
    python benchmarks/bench_rating.py --hardest 60     # also 60 rows of hardest_1106.csv

For ``se_rated_dev.csv``: ER exact on all and on ER < 6.5, EP and ED exact, time per puzzle by
ER band (median, 90th percentile) and the total. Mismatches are listed on stderr.

Each time is given twice: wall-clock (``*_ms``, ``total_seconds``) and this process's CPU time
(``*_cpu_ms``, ``cpu_seconds``). On a shared, loaded machine the CPU time is the steadier
figure to compare two builds by; run both in the same minutes either way.
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import sys
import time

from sudokit import Grid
from sudokit.rating import rate

from common import data_file, emit, machine

BANDS = [(1.0, 1.5), (1.6, 2.5), (2.6, 3.9), (4.0, 6.4), (6.5, 7.9), (8.0, 20.0)]


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def dev(limit: int | None) -> None:
    path = data_file("se_rated_dev.csv")
    if path is None:
        emit({"bench": "rating", "skipped": "se_rated_dev.csv absent"})
        return
    with path.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))[:limit]
    times: list[tuple[float, float, float]] = []
    er_ok = ep_ok = ed_ok = low = low_ok = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for row in rows:
        t, c = time.perf_counter(), time.process_time()
        r = rate(Grid(row["puzzle"]))
        dt, dc = time.perf_counter() - t, time.process_time() - c
        er, ep, ed = float(row["er"]), float(row["ep"]), float(row["ed"])
        times.append((er, dt, dc))
        er_ok += r.er == er
        ep_ok += r.ep == ep
        ed_ok += r.ed == ed
        if er < 6.5:
            low += 1
            low_ok += r.er == er
        if (r.er, r.ep, r.ed) != (er, ep, ed):
            print(
                f"{row['puzzle']} SE {er}/{ep}/{ed} ours {r} hardest {r.hardest}", file=sys.stderr
            )
    total, cpu = time.perf_counter() - t0, time.process_time() - c0
    n = len(rows)
    emit(
        {
            "bench": "rating",
            "set": "se_rated_dev",
            "puzzles": n,
            "er_exact": round(er_ok / n, 4),
            "er_exact_below_6.5": round(low_ok / max(low, 1), 4),
            "ep_exact": round(ep_ok / n, 4),
            "ed_exact": round(ed_ok / n, 4),
            "total_seconds": round(total, 2),
            "cpu_seconds": round(cpu, 2),
        }
    )
    for lo, hi in BANDS:
        band = [dt for er, dt, _ in times if lo <= er <= hi]
        band_cpu = [dc for er, _, dc in times if lo <= er <= hi]
        if band:
            emit(
                {
                    "bench": "rating",
                    "band": f"{lo}-{hi}",
                    "puzzles": len(band),
                    "median_ms": round(statistics.median(band) * 1e3, 2),
                    "p90_ms": round(pct(band, 0.9) * 1e3, 2),
                    "median_cpu_ms": round(statistics.median(band_cpu) * 1e3, 2),
                    "p90_cpu_ms": round(pct(band_cpu, 0.9) * 1e3, 2),
                }
            )


def hardest(count: int) -> None:
    path = data_file("hardest_1106.csv")
    if path is None:
        return
    with path.open(encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r["er"]][:count]
    close = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for row in rows:
        r = rate(Grid(row["puzzle"]))
        close += abs(r.er - float(row["er"])) <= 0.2 + 1e-9
    emit(
        {
            "bench": "rating",
            "set": "hardest_1106",
            "puzzles": len(rows),
            "er_within_0.2": round(close / max(len(rows), 1), 4),
            "total_seconds": round(time.perf_counter() - t0, 2),
            "cpu_seconds": round(time.process_time() - c0, 2),
        }
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, help="only the first N rows of se_rated_dev.csv")
    ap.add_argument("--hardest", type=int, default=0, help="rows of hardest_1106.csv to rate")
    args = ap.parse_args()
    emit({"bench": "rating", "event": "start", "loadavg": os.getloadavg()[0], **machine()})
    dev(args.limit)
    if args.hardest:
        hardest(args.hardest)


if __name__ == "__main__":
    main()
