"""The hunt: new puzzles of ER X or more per core-hour, as JSON lines.

    python benchmarks/bench_hunt.py [--seconds 180] [--jobs 1] [--only hardest|random]

Three runs of about ``--seconds`` each, in one process run so their ratios compare:

- ``hardest``: ``hunt`` from the forum's hardest list (``../shared/data/hardest_1106.csv``)
  as seeds, ER >= 10.0, minimal finds (target: 1,000 per core-hour);
- ``random``: ``hunt`` from random seeds, ER >= 9.0 (target: 100 per core-hour);
- ``generate``: random digging, ``generate(rating=(9.0, 20.0))`` puzzle after puzzle for the
  same time (what ``sudokit generate --er 9.0-20`` does), for comparison.

Each run reports its finds, finds per core-hour (wall-clock time times ``--jobs``) and per
hour of CPU time (what a core-hour gives on an idle machine), the CPU seconds per stage
(neighbours, uniqueness, minimise, canon, filter, exact rating; summed over the workers) and
the load average before and after: the machine is shared, so only ratios measured in one run
compare.
"""

from __future__ import annotations

import argparse
import csv
import os
import time

from sudokit import Grid, Rated, generate
from sudokit.errors import GenerationError
from sudokit.hunting import HuntStats, hunt

from common import data_file, emit, machine


def _load() -> float:
    return round(os.getloadavg()[0], 2)


def _report(name: str, stats: HuntStats, load: float, **more: object) -> None:
    emit(
        {
            "bench": "hunt",
            "run": name,
            "finds": stats.found,
            "seconds": round(stats.elapsed, 1),
            "jobs": stats.jobs,
            "per_core_hour": round(stats.per_core_hour),
            "per_cpu_hour": round(stats.per_cpu_hour),
            "tried": stats.tried,
            "unique": stats.unique,
            "rated": stats.new,
            "survived_screen": stats.survived,
            "bands": dict(sorted(stats.bands.items())),
            "stage_seconds": {k: round(v, 1) for k, v in stats.seconds.items()},
            "load_before": load,
            "load_after": _load(),
            **more,
        }
    )


def hardest(seconds: float, jobs: int) -> None:
    path = data_file("hardest_1106.csv")
    if path is None:
        emit({"bench": "hunt", "run": "hardest", "skipped": "shared data absent"})
        return
    with path.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    seeds = [(Grid(r["puzzle"]), float(r["er"]) if r["er"] else None) for r in rows]
    stats, load = HuntStats(), _load()
    for _ in hunt(seeds, min_er=10.0, seed=1, jobs=jobs, time_limit=seconds, stats=stats):
        pass
    _report("hardest", stats, load, min_er=10.0, seeds=len(seeds), target=1000)


def random_seeds(seconds: float, jobs: int) -> None:
    stats, load = HuntStats(), _load()
    for _ in hunt(None, min_er=9.0, seed=7, jobs=jobs, time_limit=seconds, stats=stats):
        pass
    _report("random", stats, load, min_er=9.0, target=100)


def digging(seconds: float) -> None:
    """``generate --er 9.0-20`` for the same time, one process."""
    load = _load()
    t0 = time.monotonic()
    cpu0 = time.process_time()
    made = 0
    index = 0
    while (left := seconds - (time.monotonic() - t0)) > 0:
        try:
            p = generate(seed=3, index=index, rating=(9.0, 20.0), timeout=left)
        except GenerationError:
            break
        assert isinstance(p, Rated) and p.rating is not None and p.rating.er >= 9.0
        made += 1
        index += 1
    spent = time.monotonic() - t0
    cpu = time.process_time() - cpu0
    emit(
        {
            "bench": "hunt",
            "run": "generate --er 9.0-20",
            "finds": made,
            "seconds": round(spent, 1),
            "jobs": 1,
            "per_core_hour": round(made * 3600 / spent),
            "per_cpu_hour": round(made * 3600 / cpu) if cpu > 0 else 0,
            "load_before": load,
            "load_after": _load(),
        }
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=180.0, help="time per run")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes of the hunts")
    ap.add_argument("--only", choices=("hardest", "random"), help="one run (random: and generate)")
    args = ap.parse_args()
    emit({"bench": "hunt", "event": "start", **machine()})
    if args.only in (None, "hardest"):
        hardest(args.seconds, args.jobs)
    if args.only in (None, "random"):
        random_seeds(args.seconds, args.jobs)
        digging(args.seconds)


if __name__ == "__main__":
    main()
