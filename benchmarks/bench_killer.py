"""Killer sudoku on the exact engine: zero-given puzzles counted to 2, as JSON lines.

    python benchmarks/bench_killer.py [--repeats 3]

The puzzles are the 120 killer puzzles of Simon Tatham's solo kept in tests/data (30 each at
its basic, intermediate, advanced and extreme grades, no givens). Two figures, each the best of
``--repeats`` passes on one core (CPU time): ``engine`` counts with each puzzle's rules made
once beforehand (the engine's own time, plus one call), ``with_rules`` makes each puzzle's
rules and geometry anew in every pass, as a program reading new puzzles would.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from sudokit import Grid, Rules, count_solutions
from sudokit.cages import Cage, Cages
from sudokit.rules import Geometry

from common import emit, machine

TESTS = Path(__file__).resolve().parents[1] / "tests"
sys.path.insert(0, str(TESTS))
from solo_killer import read  # noqa: E402  (the tests' reader of solo's game ids)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3, help="passes; the best is kept")
    args = ap.parse_args()
    emit({"bench": "killer", "event": "start", **machine()})
    texts = []
    for line in (TESTS / "data" / "solo_killer.txt").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            _, _, _, cages = read(line)
            layout = Cages(9, [Cage(tuple(c), s) for c, s in cages], cover=True)
            texts.append(f"killer:{layout}")
    grids = [Grid("." * 81, rules=t) for t in texts]
    for g in grids:  # the rules' geometry made and cached
        assert count_solutions(g, limit=2) == 1
    best = float("inf")
    for _ in range(args.repeats):
        t = time.process_time()
        for g in grids:
            count_solutions(g, limit=2)
        best = min(best, time.process_time() - t)
    emit(
        {
            "bench": "killer",
            "set": "solo 120, zero givens",
            "mode": "engine",
            "us_per_puzzle": round(best / len(grids) * 1e6, 1),
            "per_second": round(len(grids) / best),
        }
    )
    best = float("inf")
    for _ in range(args.repeats):
        t = time.process_time()
        for text in texts:
            rules = Rules(text)
            blob = Geometry(grids[0].shape, rules).blob  # what a new puzzle's first use builds
            assert blob and count_solutions(Grid("." * 81, rules=rules), limit=2) == 1
        best = min(best, time.process_time() - t)
    emit(
        {
            "bench": "killer",
            "set": "solo 120, zero givens",
            "mode": "with_rules",
            "us_per_puzzle": round(best / len(grids) * 1e6, 1),
            "per_second": round(len(grids) / best),
        }
    )


if __name__ == "__main__":
    main()
