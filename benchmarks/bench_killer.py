"""Killer sudoku: zero-given puzzles counted to 2, and killer puzzles generated, as JSON lines.

    python benchmarks/bench_killer.py [--repeats 3] [--generate 400] [--solo-extreme 3]

The puzzles counted are the 120 killer puzzles of Simon Tatham's solo kept in tests/data (30
each at its basic, intermediate, advanced and extreme grades, no givens). Figures, each on one
core (CPU time):

- ``engine``: counting with each puzzle's rules made once beforehand (the engine's own time,
  plus one call); the best of ``--repeats`` passes;
- ``with_rules``: a puzzle's whole cost as a program reading new puzzles pays it: its rules
  read from text, its grid made, its geometry built and counted. Each pass takes the 120
  layouts under the 8 maps of the square (960 puzzles, more than the geometry cache holds,
  so every one is built anew); the best of ``--repeats`` passes;
- ``generate``: zero-given unique 9x9 killer puzzles (``rules="killer"``, default cage sizes
  1-5 and symmetry), and ``generate_minimal`` (minimal in cages, fewer of them);
- ``level``: killer puzzles generated to each killer level (``--level``; ``--per-level`` of
  each, the extreme ones with the default cages of 2-5 cells that level takes, and with 1-5),
  with the layouts judged per puzzle made (``attempts``: the generator's layouts drawn);
- ``solo``: Tatham's solo making killer puzzles at its basic and extreme grades
  (``sgt-solo --generate N 3x3kdb`` / ``3x3kde``, Debian's sgt-puzzles), timed by the child
  process's CPU time, in the same run so that the ratio is taken in the same minutes.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from sudokit import Grid, Rules, count_solutions, generate_many
from sudokit.cages import Cage, Cages
from sudokit.difficulty import Rated, Request
from sudokit.rating import KillerLevel

from common import emit, machine

TESTS = Path(__file__).resolve().parents[1] / "tests"
sys.path.insert(0, str(TESTS))
from solo_killer import read  # noqa: E402  (the tests' reader of solo's game ids)

SOLO = "/usr/games/sgt-solo"

_MAPS: tuple[Callable[[int, int], tuple[int, int]], ...] = (
    lambda r, c: (r, c),
    lambda r, c: (c, 8 - r),
    lambda r, c: (8 - r, 8 - c),
    lambda r, c: (8 - c, r),
    lambda r, c: (8 - r, c),
    lambda r, c: (r, 8 - c),
    lambda r, c: (c, r),
    lambda r, c: (8 - c, 8 - r),
)


def _layouts() -> list[list[tuple[tuple[int, ...], int]]]:
    found = []
    for line in (TESTS / "data" / "solo_killer.txt").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            _, _, _, cages = read(line)
            found.append([(tuple(c), s) for c, s in cages])
    return found


def _texts(layout: list[tuple[tuple[int, ...], int]]) -> list[str]:
    out = []
    for f in _MAPS:
        moved = [
            Cage(tuple(sorted(r * 9 + c for r, c in (f(*divmod(x, 9)) for x in cells))), s)
            for cells, s in layout
        ]
        out.append(f"killer:{Cages(9, moved, cover=True)}")
    return out


def _solo(spec: str, count: int) -> None:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [SOLO, "--generate", str(count), spec], capture_output=True, text=True, check=True
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    made = len(done.stdout.split())
    emit(
        {
            "bench": "killer",
            "mode": "solo",
            "spec": spec,
            "puzzles": made,
            "seconds": round(cpu, 3),
            "per_second": round(made / cpu, 2),
        }
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3, help="passes; the best is kept")
    ap.add_argument("--generate", type=int, default=400, help="killer puzzles to generate")
    ap.add_argument("--per-level", type=int, default=20, help="killers made to each level")
    ap.add_argument("--solo-basic", type=int, default=20, help="puzzles solo makes at kdb")
    ap.add_argument("--solo-extreme", type=int, default=3, help="puzzles solo makes at kde")
    args = ap.parse_args()
    emit({"bench": "killer", "event": "start", **machine()})
    texts = [t for layout in _layouts() for t in _texts(layout)]
    grids = [Grid("." * 81, rules=t) for t in texts[::8]]
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
    empty = "." * 81
    for _ in range(args.repeats):
        t = time.process_time()
        for text in texts:
            assert count_solutions(Grid(empty, rules=Rules(text)), limit=2) == 1
        best = min(best, time.process_time() - t)
    emit(
        {
            "bench": "killer",
            "set": "solo 120 x 8 maps, zero givens",
            "mode": "with_rules",
            "us_per_puzzle": round(best / len(texts) * 1e6, 1),
            "per_second": round(len(texts) / best),
        }
    )
    for mode, count, minimal in (
        ("generate", args.generate, None),
        ("generate_minimal", max(args.generate // 10, 1), True),
    ):
        t = time.process_time()
        made = list(generate_many(count, rules="killer", seed=1, minimal=minimal))
        spent = time.process_time() - t
        assert all(p.clues == 0 and p.puzzle.rules.cages is not None for p in made)
        cages = sum(len(p.puzzle.rules.cages or ()) for p in made) / len(made)
        emit(
            {
                "bench": "killer",
                "mode": mode,
                "puzzles": count,
                "cages_mean": round(cages, 1),
                "ms_per_puzzle": round(spent / count * 1e3, 3),
                "per_second": round(count / spent, 1),
            }
        )
    for level, sizes in (
        ("easy", None),
        ("medium", None),
        ("hard", None),
        ("extreme", None),
        ("extreme", (1, 5)),
    ):
        if not args.per_level:
            break
        t = time.process_time()
        made = list(
            generate_many(args.per_level, rules="killer", seed=2, level=level, cage_sizes=sizes)
        )
        spent = time.process_time() - t
        rated = [p for p in made if isinstance(p, Rated) and p.rating is not None]
        assert all(p.rating.killer == KillerLevel.parse(level) for p in rated if p.rating)
        emit(
            {
                "bench": "killer",
                "mode": "level",
                "level": level,
                "cage_sizes": "-".join(
                    map(str, sizes or Request.of(rules="killer", level=level).cage_sizes or (1, 5))
                ),
                "puzzles": len(made),
                "unrated": len(made) - len(rated),
                "layouts_per_puzzle": round(sum(p.attempts for p in made) / len(made), 1),
                "ms_per_puzzle": round(spent / len(made) * 1e3, 1),
                "per_second": round(len(made) / spent, 2),
            }
        )
    if shutil.which(SOLO):
        _solo("3x3kdb", args.solo_basic)
        if args.solo_extreme:
            _solo("3x3kde", args.solo_extreme)
    else:
        emit({"bench": "killer", "mode": "solo", "skipped": f"{SOLO} is not installed"})


if __name__ == "__main__":
    main()
