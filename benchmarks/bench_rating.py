"""Agreement with Sudoku Explainer and rating speed, printed as JSON lines.

    python benchmarks/bench_rating.py                  # se_rated_dev.csv, single-threaded
    python benchmarks/bench_rating.py --hardest 60     # also 60 rows of hardest_1106.csv
    python benchmarks/bench_rating.py --repeat 5       # each puzzle's fastest of 5 runs
    python benchmarks/bench_rating.py --no-dev --hardest 100 --limit-seconds 60 --out base.jsonl
    python benchmarks/bench_rating.py --no-dev --hardest 100 --against base.jsonl
    python benchmarks/bench_rating.py --no-dev --hardest 100 --beside ../venv-base/bin/python

The second pair compares two builds on hardest_1106 (run the first with the other build's
interpreter): puzzle by puzzle, a puzzle the other build gave up on counting with the time it
spent, so the speedup over all of them is a lower bound. ``--beside`` compares them in the
same minutes: the other build (its interpreter running this script) rates the rows in a second
process, on the other core, while this build rates them again and again until it is done.

For ``se_rated_dev.csv``: ER exact on all and on ER < 6.5, EP and ED exact, time per puzzle by
ER band (median, 90th percentile) and the total (the sum of the puzzles' times: with
``--repeat``, of each one's fastest run, the steadier figure on a loaded machine). Mismatches
are listed on stderr.

Each time is given twice: wall-clock (``*_ms``, ``total_seconds``) and this process's CPU time
(``*_cpu_ms``, ``cpu_seconds``). On a shared, loaded machine the CPU time is the steadier
figure to compare two builds by; run both in the same minutes either way.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

from sudokit import Grid
from sudokit.rating import rate

from common import data_file, emit, machine

BANDS = [(1.0, 1.5), (1.6, 2.5), (2.6, 3.9), (4.0, 6.4), (6.5, 7.9), (8.0, 20.0)]


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def dev(limit: int | None, repeat: int = 1) -> None:
    path = data_file("se_rated_dev.csv")
    if path is None:
        emit({"bench": "rating", "skipped": "se_rated_dev.csv absent"})
        return
    with path.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))[:limit]
    times: list[tuple[float, float, float]] = []
    er_ok = ep_ok = ed_ok = low = low_ok = 0
    for row in rows:
        dt = dc = float("inf")
        for _ in range(repeat):  # the least disturbed of ``repeat`` runs
            t, c = time.perf_counter(), time.process_time()
            r = rate(Grid(row["puzzle"]))
            dt, dc = min(dt, time.perf_counter() - t), min(dc, time.process_time() - c)
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
    total, cpu = sum(dt for _, dt, _ in times), sum(dc for _, _, dc in times)
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
            "total_seconds": round(total, 3),
            "cpu_seconds": round(cpu, 3),
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


def hardest(
    count: int, limit: float | None, out: str | None, against: str | None, beside: str | None
) -> None:
    """Rate the first ``count`` rated rows of hardest_1106.csv, each given at most ``limit``
    seconds (wall clock, checked between steps); with ``out``, write each puzzle's times to
    that file as JSON lines; with ``against``, compare with such a file from another build;
    with ``beside``, an interpreter of another build, rate them with it meanwhile (``side``)."""
    path = data_file("hardest_1106.csv")
    if path is None:
        return
    with path.open(encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r["er"]][:count]
    if beside:
        side(rows, limit, beside)
        return
    each = rate_rows(rows, limit)
    if out:
        with open(out, "w", encoding="utf-8") as f:
            for record in each:
                print(json.dumps(record), file=f)
    if against:
        compare(each, against)


def rate_rows(rows: list[dict[str, str]], limit: float | None) -> list[dict[str, Any]]:
    """Rate hardest_1106 rows (see ``hardest``), emit the totals and return each one's times."""
    close = done = 0
    each: list[dict[str, object]] = []
    t0, c0 = time.perf_counter(), time.process_time()
    for i, row in enumerate(rows):
        t, c = time.perf_counter(), time.process_time()
        deadline = None if limit is None else time.monotonic() + limit
        try:
            r = rate(Grid(row["puzzle"]), deadline=deadline)
        except TimeoutError:
            er = None
        else:
            er = r.er
            done += 1
            close += abs(r.er - float(row["er"])) <= 0.2 + 1e-9
        each.append(
            {
                "index": i,
                "puzzle": row["puzzle"],
                "finished": er is not None,
                "er": er,
                "seconds": time.perf_counter() - t,
                "cpu_seconds": time.process_time() - c,
            }
        )
    emit(
        {
            "bench": "rating",
            "set": "hardest_1106",
            "puzzles": len(rows),
            "limit_seconds": limit,
            "finished": done,
            "er_within_0.2": round(close / max(done, 1), 4),
            "total_seconds": round(time.perf_counter() - t0, 2),
            "cpu_seconds": round(time.process_time() - c0, 2),
        }
    )
    return each


def side(rows: list[dict[str, str]], limit: float | None, python: str) -> None:
    """Rate ``rows`` with another build in a second process (``python`` running this script)
    and, meanwhile, with this one again and again until that process ends: both in the same
    minutes, each on a core of its own (the machine's load moves both alike). Then the other
    build's CPU time against each of this build's runs (compare: a lower bound where the other
    gave up on a puzzle)."""
    with tempfile.TemporaryDirectory() as tmp:
        theirs = os.path.join(tmp, "theirs.jsonl")
        argv = [python, __file__, "--no-dev", "--hardest", str(len(rows)), "--out", theirs]
        if limit is not None:
            argv += ["--limit-seconds", str(limit)]
        try:
            other = subprocess.Popen(argv, stdout=subprocess.DEVNULL)
        except OSError as err:
            raise SystemExit(f"--beside {python}: {err}") from None
        runs = []
        while True:
            runs.append(rate_rows(rows, limit))
            if other.poll() is not None:
                break
        if other.wait() != 0:
            raise SystemExit(f"{python} {__file__} failed: exit status {other.returncode}")
        for each in runs:
            compare(each, theirs)
        with open(theirs, encoding="utf-8") as f:
            other_cpu = sum(r["cpu_seconds"] for r in map(json.loads, f))
    mine = [sum(r["cpu_seconds"] for r in each) for each in runs]
    emit(
        {
            "bench": "rating",
            "set": "hardest_1106",
            "beside": python,
            "puzzles": len(rows),
            "runs": len(runs),
            "other_cpu_seconds": round(other_cpu, 2),
            "cpu_seconds_mean": round(statistics.mean(mine), 2),
            "speedup_mean": round(other_cpu / statistics.mean(mine), 2),
            "speedup_by_run": [round(other_cpu / m, 2) for m in mine],
        }
    )


def compare(ours: list[dict[str, Any]], against: str) -> None:
    """Compare per-puzzle CPU times with another build's (a file ``--out`` wrote), puzzle by
    puzzle. A puzzle the other build did not finish counts with the CPU time it spent before
    its limit, which is less than it needed: over all puzzles the ratio is a lower bound (the
    other build's true time is at least that). The ratio over the puzzles both finished
    alone is given too; it leaves out the hardest puzzles, so it is not the figure to judge by."""
    with open(against, encoding="utf-8") as f:
        theirs = {r["puzzle"]: r for r in map(json.loads, f)}
    pairs = [(r, theirs[r["puzzle"]]) for r in ours if r["puzzle"] in theirs]
    both = [(a, b) for a, b in pairs if a["finished"] and b["finished"]]
    mine = sum(a["cpu_seconds"] for a, _ in pairs)
    other = sum(b["cpu_seconds"] for _, b in pairs)
    emit(
        {
            "bench": "rating",
            "set": "hardest_1106",
            "against": against,
            "puzzles": len(pairs),
            "both_finished": len(both),
            "only_other_finished": sum(b["finished"] and not a["finished"] for a, b in pairs),
            "only_this_finished": sum(a["finished"] and not b["finished"] for a, b in pairs),
            "cpu_seconds": round(mine, 2),
            "other_cpu_seconds_at_least": round(other, 2),
            # a lower bound when only the other build has unfinished puzzles
            "speedup_all_at_least": round(other / mine, 2) if mine else None,
            "speedup_both_finished": round(
                sum(b["cpu_seconds"] for _, b in both) / sum(a["cpu_seconds"] for a, _ in both), 2
            )
            if both
            else None,
        }
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, help="only the first N rows of se_rated_dev.csv")
    ap.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="rate each se_rated_dev puzzle this many times and keep its fastest",
    )
    ap.add_argument("--hardest", type=int, default=0, help="rows of hardest_1106.csv to rate")
    ap.add_argument(
        "--limit-seconds", type=float, help="give up on a hardest_1106 puzzle after this long"
    )
    ap.add_argument("--out", help="write each hardest_1106 puzzle's times to this file")
    ap.add_argument("--against", help="compare with another build's --out file")
    ap.add_argument(
        "--beside",
        metavar="PY",
        help="rate the hardest rows with another build's interpreter in the same minutes",
    )
    ap.add_argument("--no-dev", action="store_true", help="skip se_rated_dev.csv")
    args = ap.parse_args()
    if args.beside and (not args.hardest or args.out or args.against):
        ap.error("--beside needs --hardest N, and takes neither --out nor --against")
    emit({"bench": "rating", "event": "start", "loadavg": os.getloadavg()[0], **machine()})
    if not args.no_dev:
        dev(args.limit, args.repeat)
    if args.hardest:
        hardest(args.hardest, args.limit_seconds, args.out, args.against, args.beside)


if __name__ == "__main__":
    main()
