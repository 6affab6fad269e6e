"""Rating killer sudoku: Simon Tatham's solo's 120 killers rated, as JSON lines.

    python benchmarks/bench_killer_rating.py [--repeats 3]

The puzzles are the 120 killer puzzles of solo kept in tests/data (30 each at its basic
``db``, intermediate ``di``, advanced ``da`` and extreme ``de`` grades, no givens). One line
per solo grade gives sudokit's grade of its puzzles: how many at each killer level, and the
mean and median ER (the table in docs/rating.md, "Killer"); the last line the time, the best
of ``--repeats`` passes on one core (CPU time) of ``rate`` on all 120 (the uniqueness check,
the SE path and the killer level, with each puzzle's rules made once beforehand).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from sudokit import Grid
from sudokit.rating import KillerLevel, rate

from common import emit, machine

TESTS = Path(__file__).resolve().parents[1] / "tests"
sys.path.insert(0, str(TESTS))
from killer_puzzles import GRADES, solo_killers  # noqa: E402  (the tests' solo killers)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3, help="passes; the best is kept")
    args = ap.parse_args()
    emit({"bench": "killer_rating", "event": "start", **machine()})
    puzzles = solo_killers()
    grids: list[Grid] = [grid for _, grid in puzzles]
    ratings = [rate(grid) for grid in grids]
    for grade in GRADES:
        mine = [r for (g, _), r in zip(puzzles, ratings, strict=True) if g == grade]
        ers = [r.er for r in mine]
        emit(
            {
                "bench": "killer_rating",
                "solo_grade": grade,
                "puzzles": len(mine),
                **{str(level): sum(r.killer is level for r in mine) for level in KillerLevel},
                "mean_er": round(statistics.mean(ers), 2),
                "median_er": round(statistics.median(ers), 2),
                "max_er": max(ers),
            }
        )
    best = float("inf")
    for _ in range(args.repeats):
        t = time.process_time()
        for grid in grids:
            rate(grid)
        best = min(best, time.process_time() - t)
    emit(
        {
            "bench": "killer_rating",
            "set": "solo 120, zero givens",
            "ms_per_puzzle": round(best / len(grids) * 1e3, 2),
            "per_second": round(len(grids) / best),
        }
    )


if __name__ == "__main__":
    main()
