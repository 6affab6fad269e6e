"""Canonical ids under rules: 9x9 puzzles/second, one ``canonical_id`` call at a time, per rule
set, single-threaded, printed as one line each.

    python benchmarks/bench_canon_rules.py

Each set is 40 puzzles of a random complete grid of the rules (``random_grid``, seeds 1-40)
keeping each cell with probability 0.3; the group of the rules is built before timing. Then
the 120 killer puzzles of Simon Tatham's solo kept in tests/data, each its own cage layout,
so each id's time includes finding the maps that keep its cages (its group).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

from sudokit import Grid, Shape, random_grid
from sudokit.canon import canonical_id

JIGSAW = "111222333111222333114522333144552666444555666444555966777888996777888999777888999"
RULE_SETS = (
    "classic",
    "x",
    "windoku",
    "dg",
    "antiknight",
    "antiking",
    "nc",
    "x+windoku",
    "jigsaw:" + JIGSAW,
    "jigsaw:" + JIGSAW + "+x",
)


def puzzles(rules: str, count: int = 40) -> list[Grid]:
    out = []
    for seed in range(1, count + 1):
        full = random_grid(Shape(3, 3), rules=rules, seed=seed)
        rng = random.Random(seed)
        cells = bytes(d if rng.random() < 0.3 else 0 for d in full.cells)
        out.append(Grid.unchecked(full.shape, cells, rules=full.rules))
    return out


def main() -> None:
    for rules in RULE_SETS:
        grids = puzzles(rules)
        canonical_id(grids[0])  # the group, once
        start = time.perf_counter()
        for g in grids:
            canonical_id(g)
        rate = len(grids) / (time.perf_counter() - start)
        name = rules if not rules.startswith("jigsaw") else rules.replace(JIGSAW, "<map>")
        print(f"{name:18s} {rate:10.0f} puzzles/s")
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from killer_grids import solo_killers  # the tests' reader of solo's game ids

    killers = solo_killers()
    start = time.process_time()
    for g in killers:
        canonical_id(g)
    spent = time.process_time() - start
    print(f"{'killer (solo 120)':18s} {len(killers) / spent:10.0f} puzzles/s", end="")
    print(f"  ({spent / len(killers) * 1e3:.1f} ms an id, its group found anew)")


if __name__ == "__main__":
    main()
