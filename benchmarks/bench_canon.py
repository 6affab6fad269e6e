"""Canonical-form throughput: grids/second, single-threaded, printed as JSON lines.

    python benchmarks/bench_canon.py            # all sets (sudoku17 needs ../shared/data)
    python benchmarks/bench_canon.py --quick    # smaller samples

Sets: the 49,151 17-clue puzzles of ``sudoku17.txt``; generated 9x9 puzzles (21-29 clues);
random complete 9x9 grids; 16x16 and 25x25 unique puzzles dug from random grids (as in
bench_engine.py). Each 9x9 figure is given through the batch API (``canonical_many``: one call
into C per batch, no transforms) and the one-grid API (``canonical``: transform and
automorphism count too, in a Python loop); each is the best of a few runs.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import sudokit
from sudokit import Grid, Shape, canonical
from sudokit.canon import canonical_many

from bench_engine import dig
from common import best_of, emit, load_grids, machine


def bench_set(name: str, grids: list[Grid], repeats: int) -> None:
    n = len(grids)
    clues = [g.clue_count for g in grids]
    runs: list[tuple[str, Callable[[], object]]] = [
        ("batch", lambda: canonical_many(grids)),
        ("single", lambda: [canonical(g) for g in grids]),
    ]
    for api, fn in runs:
        secs = best_of(repeats, fn)
        emit(
            {
                "bench": "canon",
                "set": name,
                "grids": n,
                "clues": [min(clues), max(clues)],
                "api": api,
                "per_second": round(n / secs),
                "us_per_grid": round(secs / n * 1e6, 2),
            }
        )


def bench_big(shape: Shape, clues: int, count: int) -> None:
    puzzles = [dig(shape, seed, clues) for seed in range(count)]
    times = []
    for p in puzzles:
        t = time.perf_counter()
        c = canonical(p)
        times.append(time.perf_counter() - t)
        if c.transform.apply(p) != c.grid:
            raise SystemExit(f"wrong transform for {p!r}")
    emit(
        {
            "bench": "canon",
            "set": f"{shape}-unique",
            "grids": count,
            "mean_clues": round(statistics.mean(p.clue_count for p in puzzles), 1),
            "api": "single",
            "per_second": round(count / sum(times)),
            "median_ms": round(statistics.median(times) * 1e3, 3),
            "max_ms": round(max(times) * 1e3, 3),
        }
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller samples, one repeat")
    args = ap.parse_args()
    emit({"bench": "canon", "event": "start", **machine()})
    repeats = 1 if args.quick else 3
    seventeen = load_grids("sudoku17.txt", limit=5000 if args.quick else None)
    if seventeen:
        bench_set("sudoku17", seventeen, repeats)
    else:
        emit({"bench": "canon", "set": "sudoku17", "skipped": "data file absent"})
    count = 2000 if args.quick else 10000
    generated = [g.puzzle for g in sudokit.generate_many(count, seed=1, symmetry="none")]
    bench_set("generated-9x9", generated, repeats)
    grids = [sudokit.random_grid(seed=s) for s in range(count)]
    bench_set("complete-9x9", grids, repeats)
    bench_big(Shape(4, 4), clues=120, count=10 if args.quick else 50)
    bench_big(Shape(5, 5), clues=330, count=3 if args.quick else 10)


if __name__ == "__main__":
    main()
