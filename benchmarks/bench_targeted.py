"""Generation to a target difficulty: puzzles per second on one core, as JSON lines.

    python benchmarks/bench_targeted.py [--seconds 20] [--only diabolical]

Each configuration generates puzzles (distinct indexes of one seed, jobs=1) for about the given
time and reports the rate and the ER range of what it made, by wall clock and by this process's
CPU time (the steadier figure on a shared, loaded machine).
"""

from __future__ import annotations

import argparse
import os
import time

from sudokit import Rated, generate

from common import emit, machine

CONFIGS: list[tuple[str, dict[str, object]]] = [
    ("singles only (allow=singles)", {"allow": ["singles"]}),
    ("level easy", {"level": "easy"}),
    ("level fiendish (ER 2.6-6.0)", {"level": "fiendish"}),
    ("level diabolical (ER >= 6.1)", {"level": "diabolical"}),
    ("requires X-Wing", {"require": ["x-wing"]}),
    ("ER 8.5-9.5 (--er 8.5-9.5)", {"rating": (8.5, 9.5)}),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=20.0, help="time per configuration")
    ap.add_argument("--only", help="only the configurations whose name contains this text")
    args = ap.parse_args()
    emit({"bench": "targeted", "event": "start", "loadavg": os.getloadavg()[0], **machine()})
    for name, options in CONFIGS:
        if args.only and args.only not in name:
            continue
        t0, c0 = time.perf_counter(), time.process_time()
        ers: list[float] = []
        index = 0
        while time.perf_counter() - t0 < args.seconds:
            p = generate(seed=11, index=index, timeout=None, **options)  # type: ignore[arg-type]
            assert isinstance(p, Rated) and p.rating is not None
            ers.append(p.rating.er)
            index += 1
        secs, cpu = time.perf_counter() - t0, time.process_time() - c0
        emit(
            {
                "bench": "targeted",
                "config": name,
                "puzzles": len(ers),
                "per_second_1_job": round(len(ers) / secs, 2),
                "per_cpu_second": round(len(ers) / cpu, 2),
                "er_min": min(ers),
                "er_max": max(ers),
            }
        )


if __name__ == "__main__":
    main()
