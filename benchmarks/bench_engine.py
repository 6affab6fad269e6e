"""Exact-engine throughput: puzzles/second, single-threaded, printed as JSON lines.

    python benchmarks/bench_engine.py            # all data sets (needs ../shared/data)
    python benchmarks/bench_engine.py --quick    # smaller samples

For each data set: first solution and uniqueness test (count to 2), through the batch API
(``solve_many`` / ``count_many``: one call into C per batch) and the one-puzzle API
(``solve`` / ``is_unique`` in a Python loop). Each figure is the best of a few runs. Then the
median time to solve unique 16x16 and 25x25 puzzles made by the engine itself (random full
grid, clues removed in random order while the puzzle stays unique, down to a clue target).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import sudokit
from sudokit import Grid, Shape

from common import best_of, emit, load_grids, machine

SETS = {"sudoku17": "sudoku17.txt", "top1465": "top1465.txt", "hardest": "forum_hardest_11plus.txt"}


def bench_set(name: str, grids: list[Grid], repeats: int) -> None:
    n = len(grids)
    batch_solve = best_of(repeats, lambda: sudokit.solve_many(grids))
    batch_unique = best_of(repeats, lambda: sudokit.count_many(grids, limit=2))
    one_solve = best_of(repeats, lambda: [sudokit.solve(g) for g in grids])
    one_unique = best_of(repeats, lambda: [sudokit.is_unique(g) for g in grids])
    for api, mode, secs in (
        ("batch", "solve", batch_solve),
        ("batch", "unique", batch_unique),
        ("single", "solve", one_solve),
        ("single", "unique", one_unique),
    ):
        emit(
            {
                "bench": "engine",
                "set": name,
                "puzzles": n,
                "api": api,
                "mode": mode,
                "per_second": round(n / secs),
                "us_per_puzzle": round(secs / n * 1e6, 2),
            }
        )


def dig(shape: Shape, seed: int, clues: int) -> Grid:
    """A unique puzzle: a random full grid with clues removed while it stays unique."""
    grid = sudokit.random_grid(shape, seed=seed)
    cells = bytearray(grid.cells)
    order = list(range(shape.size))
    random.Random(seed).shuffle(order)
    left = shape.size
    for cell in order:
        if left <= clues:
            break
        digit = cells[cell]
        cells[cell] = 0
        if sudokit.count_solutions(Grid.unchecked(shape, bytes(cells)), limit=2) == 1:
            left -= 1
        else:
            cells[cell] = digit
    return Grid.unchecked(shape, bytes(cells))


def bench_big(shape: Shape, clues: int, count: int) -> None:
    puzzles = [dig(shape, seed, clues) for seed in range(count)]
    times = []
    for p in puzzles:
        t = time.perf_counter()
        solution = sudokit.solve(p)
        times.append(time.perf_counter() - t)
        if solution is None or not solution.is_complete():
            raise SystemExit(f"engine failed on {p!r}")
    emit(
        {
            "bench": "engine",
            "set": f"{shape}-unique",
            "puzzles": count,
            "mean_clues": round(statistics.mean(p.clue_count for p in puzzles), 1),
            "api": "single",
            "mode": "solve",
            "median_ms": round(statistics.median(times) * 1e3, 3),
            "max_ms": round(max(times) * 1e3, 3),
        }
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller samples, one repeat")
    args = ap.parse_args()
    emit({"bench": "engine", "event": "start", **machine()})
    repeats = 1 if args.quick else 3
    for name, filename in SETS.items():
        grids = load_grids(filename, limit=5000 if args.quick else None)
        if grids:
            bench_set(name, grids, repeats)
        else:
            emit({"bench": "engine", "set": name, "skipped": "data file absent"})
    bench_big(Shape(4, 4), clues=120, count=5 if args.quick else 20)
    bench_big(Shape(5, 5), clues=330, count=3 if args.quick else 10)


if __name__ == "__main__":
    main()
