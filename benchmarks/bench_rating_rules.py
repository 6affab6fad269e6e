"""Rating speed under rules beside SukakuExplainer's, printed as JSON lines.

    python benchmarks/bench_rating_rules.py                       # sudokit alone
    python benchmarks/bench_rating_rules.py --sukaku /work/sk/classes --copies 300

The puzzles are the stored SukakuExplainer comparisons (tests/logic/sk_rules_ratings*.txt), by
rule set. sudokit rates each one in this process (one core; each puzzle's fastest of
``--repeat`` runs). With ``--sukaku CLASSES``, SukakuExplainer's rater (``serate``, SE 1.2.1.3's
technique set and the rule set's flags, as the files' headers say) rates the same puzzles,
each rule set's written ``--copies`` times over into one input file so that the JVM is warm,
and once more a file of that rule set's first puzzle alone: its time less that one (the JVM's
start-up) over the extra puzzles is its warm time per puzzle. Its time is the child process's
CPU time (the steadier figure on a shared machine, and one core: ``-XX:ActiveProcessorCount=1
-XX:+UseSerialGC``); sudokit's is this process's CPU time, beside wall-clock. The ratio is
SukakuExplainer's time per puzzle over sudokit's, per rule set and over all.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from sudokit import Grid, Rules
from sudokit.rating import rate

from common import emit, machine

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted((ROOT / "tests" / "logic").glob("sk_rules_ratings*.txt"))
TECHS = "1111111111010111011011011011000010100010111111"
FLAGS = {
    "x": ["--isX=1"],
    "windoku": ["--isWindows=1"],
    "dg": ["--isDG=1"],
    "antiknight": ["--isAntiKnight=1"],
    "antiking": ["--isAntiKing=1"],
}


def puzzles() -> dict[str, list[str]]:
    """The stored puzzles by rule set."""
    out: dict[str, list[str]] = defaultdict(list)
    for path in FILES:
        for line in path.read_text().splitlines():
            if line and not line.startswith("#"):
                rules, puzzle, _ = line.split()
                out[rules].append(puzzle)
    return dict(out)


def ours(rules: str, items: list[str], repeat: int) -> tuple[float, float]:
    """sudokit's CPU and wall seconds for the puzzles (each one's fastest of ``repeat``)."""
    cpu = wall = 0.0
    r = Rules(rules)
    grids = [Grid(p, rules=r) for p in items]
    for g in grids:
        rate(g)  # warm: the rules geometry is built once per rule set
    for g in grids:
        best_cpu = best_wall = float("inf")
        for _ in range(repeat):
            c, w = time.process_time(), time.perf_counter()
            rate(g)
            best_cpu = min(best_cpu, time.process_time() - c)
            best_wall = min(best_wall, time.perf_counter() - w)
        cpu += best_cpu
        wall += best_wall
    return cpu, wall


def sukaku_run(classes: str, rules: str, lines: list[str], folder: Path) -> float:
    """SukakuExplainer's CPU seconds for rating ``lines`` (JVM start-up included)."""
    src, dst = folder / f"{rules}.in", folder / f"{rules}.out"
    src.write_text("".join(p + "\n" for p in lines))
    flags = [f for part in rules.split("+") for f in FLAGS[part]]
    cmd = [
        "java",
        "-XX:ActiveProcessorCount=1",
        "-XX:+UseSerialGC",
        "-Xmx500m",
        "-cp",
        classes,
        "diuf.sudoku.test.serate",
        "--format=%g ED=%r/%p/%d",
        f"--input={src}",
        f"--output={dst}",
        f"--techs={TECHS}",
        "--islkSudokuBUG=0",
        "--islkSudokuURUL=0",
        *flags,
    ]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = len(dst.read_text().splitlines())
    if done != len(lines):
        raise RuntimeError(f"SukakuExplainer rated {done} of {len(lines)} {rules} puzzles")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sukaku", metavar="CLASSES", help="SukakuExplainer's classes folder")
    ap.add_argument("--copies", type=int, default=300, help="puzzles per SukakuExplainer file")
    ap.add_argument("--repeat", type=int, default=3, help="sudokit: fastest of N runs")
    args = ap.parse_args()
    emit({"machine": machine(), "files": [f.name for f in FILES]})
    total_ours = total_sk = 0.0
    count = 0
    with tempfile.TemporaryDirectory() as tmp:
        for rules, items in puzzles().items():
            cpu, wall = ours(rules, items, args.repeat)
            record: dict[str, object] = {
                "rules": rules,
                "puzzles": len(items),
                "sudokit_ms_per_puzzle": round(1000 * cpu / len(items), 4),
                "sudokit_wall_ms_per_puzzle": round(1000 * wall / len(items), 4),
            }
            total_ours += cpu
            count += len(items)
            if args.sukaku:
                lines = (items * (args.copies // len(items) + 1))[: args.copies]
                full = sukaku_run(args.sukaku, rules, lines, Path(tmp))
                start = sukaku_run(args.sukaku, rules, lines[:1], Path(tmp))
                per = max(full - start, 0.0) / (len(lines) - 1)
                record["sukaku_ms_per_puzzle"] = round(1000 * per, 4)
                record["sukaku_startup_s"] = round(start, 3)
                record["ratio"] = round(per / (cpu / len(items)), 1)
                total_sk += per * len(items)
            emit(record)
    summary: dict[str, object] = {
        "all": True,
        "puzzles": count,
        "sudokit_ms_per_puzzle": round(1000 * total_ours / count, 4),
        "pid": os.getpid(),
        "python": sys.version.split()[0],
    }
    if args.sukaku:
        summary["sukaku_ms_per_puzzle"] = round(1000 * total_sk / count, 4)
        summary["ratio"] = round(total_sk / total_ours, 1)
    emit(summary)


if __name__ == "__main__":
    main()
