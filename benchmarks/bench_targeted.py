"""Generation to a target difficulty: puzzles per second on one core, as JSON lines.

    python benchmarks/bench_targeted.py [--seconds 20]

Each configuration generates puzzles (distinct indexes of one seed, jobs=1) for about the given
time and reports the rate and the ER range of what it made.
"""

from __future__ import annotations

import argparse
import time

from sudokit import Rated, generate

from common import emit, machine

CONFIGS: list[tuple[str, dict[str, object]]] = [
    ("singles only (allow=singles)", {"allow": ["singles"]}),
    ("level easy", {"level": "easy"}),
    ("level fiendish (ER 2.6-6.0)", {"level": "fiendish"}),
    ("level diabolical (ER >= 6.1)", {"level": "diabolical"}),
    ("requires X-Wing", {"require": ["x-wing"]}),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=20.0, help="time per configuration")
    args = ap.parse_args()
    emit({"bench": "targeted", "event": "start", **machine()})
    for name, options in CONFIGS:
        t0 = time.perf_counter()
        ers: list[float] = []
        index = 0
        while time.perf_counter() - t0 < args.seconds:
            p = generate(seed=11, index=index, timeout=None, **options)  # type: ignore[arg-type]
            assert isinstance(p, Rated) and p.rating is not None
            ers.append(p.rating.er)
            index += 1
        secs = time.perf_counter() - t0
        emit(
            {
                "bench": "targeted",
                "config": name,
                "puzzles": len(ers),
                "per_second_1_job": round(len(ers) / secs, 2),
                "er_min": min(ers),
                "er_max": max(ers),
            }
        )


if __name__ == "__main__":
    main()
