"""Generator throughput, printed as JSON lines.

    python benchmarks/bench_generate.py           # full run
    python benchmarks/bench_generate.py --quick   # smaller counts

Per configuration: puzzles per second on one core (``jobs=1``) and with every core, and the
ratio; for minimal 9x9 puzzles without symmetry, the clue-count distribution too. 16x16 and
25x25 report seconds per puzzle (median).

The ``cli`` records time ``sudokit generate -o FILE`` as a user runs it, with ``-j 1`` and with
every core, and, in the same rounds, that many independent ``-j 1`` processes sharing the work
(``independent_speedup``): the most this machine gives any set of processes, the ceiling for
``--jobs``. Each round runs the three one after the other; the medians of the rounds' ratios
are reported, so a noisy neighbour on a shared machine moves all three alike, and
``of_independent`` is the median of the rounds' independent time divided by their ``--jobs``
time (1.0: ``--jobs`` costs nothing over separate processes).

    python benchmarks/bench_generate.py --baseline DIR [--baseline-python PY] [--rounds 5]

    python benchmarks/bench_generate.py --rules [x,windoku,...] [--count N]

times unique minimal 9x9 puzzles without symmetry under each rule set (all of them by default;
``jigsaw`` makes a fresh random layout a puzzle) on one core: puzzles a second (CPU time of
this process), the share proven minimal (a search past its budget keeps the clue: see
``sudokit.generator``) and the mean clue count, one JSON line a rule set.

The ``--baseline`` mode compares minimal 9x9 generation (no symmetry, one core, CPU time)
with another checkout (``DIR``, whose ``src`` holds built extensions; ``PY``, its interpreter,
when it needs its own venv): each
round makes the same puzzles in a fresh process of each tree, one after the other, and the
record gives both rates (best round), the median of the rounds' ratios (this tree / baseline)
and both clue distributions, which must be the same when the generator's output is unchanged.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from sudokit import Shape, generate, generate_many
from sudokit._parallel import default_jobs

from common import emit, machine


def rate(count: int, jobs: int, **options: object) -> tuple[float, list[int]]:
    t = time.perf_counter()
    clues = [p.clues for p in generate_many(count, seed=1, jobs=jobs, **options)]  # type: ignore[arg-type]
    return count / (time.perf_counter() - t), clues


def bench_9x9(name: str, count: int, **options: object) -> None:
    one, clues = rate(count, 1, **options)
    cores = default_jobs()
    many, _ = rate(count * cores, cores, **options)
    record = {
        "bench": "generate",
        "config": name,
        "puzzles": count,
        "per_second_1_job": round(one),
        "jobs": cores,
        "per_second_all_jobs": round(many),
        "speedup": round(many / one, 2),
        "mean_clues": round(statistics.mean(clues), 2),
    }
    if options.get("symmetry") == "none" and "clues" not in options:
        record["clue_distribution"] = dict(sorted(Counter(clues).items()))
    emit(record)


def bench_cli(symmetry: str, count: int, rounds: int) -> None:
    cores = default_jobs()
    with tempfile.TemporaryDirectory() as tmp:

        def run(*jobs_and_counts: tuple[int, int]) -> float:
            """Seconds until every ``(jobs, count)`` command, all started at once, is done."""
            t = time.perf_counter()
            procs = [
                subprocess.Popen(
                    [sys.executable, "-m", "sudokit", "generate", "-n", str(n), "-j", str(j),
                     "--symmetry", symmetry, "--seed", str(k), "-o", str(Path(tmp, f"{k}.txt"))],
                    stderr=subprocess.DEVNULL,  # no progress bars over the results
                )
                for k, (j, n) in enumerate(jobs_and_counts)
            ]  # fmt: skip
            if any(p.wait() for p in procs):
                raise SystemExit("sudokit generate failed")
            return time.perf_counter() - t

        one, many, independent, share = [], [], [], []
        for _ in range(rounds):
            t1 = run((1, count))
            t_many = run((cores, count))
            t_independent = run(*[(1, count // cores)] * cores)
            one.append(t1)
            many.append(t1 / t_many)
            independent.append(t1 / t_independent)
            share.append(t_independent / t_many)
    emit(
        {
            "bench": "generate",
            "config": f"cli 9x9 minimal {symmetry}",
            "puzzles": count,
            "rounds": rounds,
            "per_second_1_job": round(count / statistics.median(one)),
            "jobs": cores,
            "speedup": round(statistics.median(many), 2),
            "independent_speedup": round(statistics.median(independent), 2),
            # what --jobs gets of what independent processes get, round by round
            "of_independent": round(statistics.median(share), 3),
            "speedups": [round(x, 2) for x in many],
            "independent_speedups": [round(x, 2) for x in independent],
        }
    )


def bench_big(shape: Shape, count: int, symmetry: str) -> None:
    times, clues = [], []
    for seed in range(count):
        t = time.perf_counter()
        p = generate(shape=shape, symmetry=symmetry, seed=seed, timeout=None)
        times.append(time.perf_counter() - t)
        clues.append(p.clues)
    emit(
        {
            "bench": "generate",
            "config": f"{shape} {symmetry} minimal-or-near",
            "puzzles": count,
            "median_seconds": round(statistics.median(times), 3),
            "max_seconds": round(max(times), 3),
            "per_second_1_job": round(count / sum(times), 2),
            "mean_clues": round(statistics.mean(clues), 1),
        }
    )


#: One tree's minimal 9x9 generation, run in a fresh process: puzzles a CPU second and the
#: clue count of each puzzle (after a warm-up, so imports and caches are not timed).
_ONE_TREE = """
import json, sys, time
import sudokit
count = int(sys.argv[1])
list(sudokit.generate_many(20, seed=7, jobs=1, symmetry="none"))
t = time.process_time()
clues = [p.clues for p in sudokit.generate_many(count, seed=1, jobs=1, symmetry="none")]
print(json.dumps({"per_second": count / (time.process_time() - t), "clues": clues}))
"""


def bench_baseline(baseline: Path, python: str, count: int, rounds: int) -> None:
    """Minimal 9x9 generation on one core, this tree against ``baseline`` in turns."""
    here = Path(__file__).resolve().parents[1]
    trees = {"this": (sys.executable, here), "baseline": (python, baseline.resolve())}
    rates: dict[str, list[float]] = {name: [] for name in trees}
    clues: dict[str, list[int]] = {}
    for _ in range(rounds):
        for name, (exe, tree) in trees.items():
            out = subprocess.run(
                [exe, "-c", _ONE_TREE, str(count)],
                check=True,
                capture_output=True,
                text=True,
                env={**os.environ, "PYTHONPATH": str(tree / "src")},
                cwd=tempfile.gettempdir(),  # not this tree's src by accident
            ).stdout
            result = json.loads(out)
            rates[name].append(result["per_second"])
            clues[name] = result["clues"]
    ratios = [a / b for a, b in zip(rates["this"], rates["baseline"], strict=True)]
    emit(
        {
            "bench": "generate",
            "config": "9x9 minimal none, 1 job, vs baseline",
            "baseline": str(baseline),
            "puzzles": count,
            "rounds": rounds,
            "per_second_cpu": round(max(rates["this"])),
            "baseline_per_second_cpu": round(max(rates["baseline"])),
            "ratio": round(statistics.median(ratios), 2),
            "ratios": [round(r, 2) for r in ratios],
            "mean_clues": round(statistics.mean(clues["this"]), 2),
            "clue_distribution": dict(sorted(Counter(clues["this"]).items())),
            "baseline_clue_distribution": dict(sorted(Counter(clues["baseline"]).items())),
            "same_puzzles_clue_counts": clues["this"] == clues["baseline"],
            "load": round(os.getloadavg()[0], 1),
        }
    )


RULE_SETS = ("x", "windoku", "dg", "antiknight", "antiking", "nc", "jigsaw")


def bench_rules(names: list[str], count: int) -> None:
    for rules in names:
        t = time.process_time()
        made = [generate(rules=rules, symmetry="none", seed=1, index=i) for i in range(count)]
        spent = time.process_time() - t
        emit(
            {
                "bench": "generate-rules",
                "rules": rules,
                "puzzles": count,
                "per_second_1_core": round(count / spent, 1),
                "proven_minimal": round(sum(p.minimal is True for p in made) / count, 3),
                "mean_clues": round(statistics.fmean(p.clues for p in made), 2),
            }
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--baseline", type=Path, help="only: minimal 9x9 against this checkout")
    ap.add_argument("--baseline-python", default=sys.executable, help="the baseline's Python")
    ap.add_argument("--rounds", type=int, default=5, help="turns each tree takes (--baseline)")
    ap.add_argument(
        "--rules",
        nargs="?",
        const=",".join(RULE_SETS),
        help="only: minimal 9x9 puzzles under these rule sets, comma-separated (default: all)",
    )
    ap.add_argument("--count", type=int, default=200, help="puzzles a rule set (--rules)")
    args = ap.parse_args()
    emit({"bench": "generate", "event": "start", **machine()})
    if args.rules is not None:
        bench_rules(args.rules.split(","), args.count)
        return
    if args.baseline is not None:
        bench_baseline(
            args.baseline, args.baseline_python, 1000 if args.quick else 3000, args.rounds
        )
        return
    n = 2000 if args.quick else 20000
    bench_9x9("9x9 minimal none", n, symmetry="none")
    bench_9x9("9x9 minimal rot180", n, symmetry="rot180")
    bench_9x9("9x9 30 clues rot180", n, symmetry="rot180", clues=30)
    for symmetry in ("none", "rot180"):
        bench_cli(symmetry, 8000 if args.quick else 40000, 2 if args.quick else 5)
    bench_big(Shape(4, 4), 5 if args.quick else 30, "none")
    bench_big(Shape(5, 5), 1 if args.quick else 5, "none")


if __name__ == "__main__":
    main()
