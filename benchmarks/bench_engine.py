"""Exact-engine throughput: puzzles/second, single-threaded, printed as JSON lines.

    python benchmarks/bench_engine.py            # all data sets (needs ../shared/data)
    python benchmarks/bench_engine.py --quick    # smaller samples
    python benchmarks/bench_engine.py --tdoku    # also side by side with tdoku, the CLI
                                                 # against the batch API, and generation

With ``--tdoku``, tdoku's own benchmark program is built from ``../shared/peers`` (once, into
``--tdoku-dir``, default a temporary folder) and run on the same files in the same minutes,
taking turns with sudokit's batch API over several rounds; each record gives both rates and
their ratio (sudokit / tdoku: the median of the rounds' ratios, so a noisy neighbour moves both
sides alike). Then ``sudokit solve FILE`` and ``sudokit solve --count FILE`` as whole processes
(``--jobs 1``) against the batch API, both in-process (``solve_many`` on parsed grids) and as a
whole process too (a script that imports sudokit, reads the file, calls ``solve_many`` and
writes the solutions); then minimal 9x9 generation on one core, with the clue distribution.

    python benchmarks/bench_engine.py --cli [--baseline DIR]

``--cli`` measures the command line alone, no tdoku: the start-up (``python -c pass``,
``import sudokit``, ``import sudokit.cli``, ``sudokit --version``: wall and CPU, best of 10)
and ``sudokit solve [--count] FILE`` against the batch API on sudoku17 and top1465. With
``--baseline DIR`` (a checkout of another commit whose ``src`` holds built extensions), the
same commands run from it in turns with this tree's, for a before/after in the same minutes.

For each data set: first solution and uniqueness test (count to 2), through the batch API
(``solve_many`` / ``count_many``: one call into C per batch) and the one-puzzle API
(``solve`` / ``is_unique`` in a Python loop). Each figure is the best of a few runs. Then the
median time to solve unique 16x16 and 25x25 puzzles made by the engine itself (random full
grid, clues removed in random order while the puzzle stays unique, down to a clue target).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import sudokit
from sudokit import Grid, Shape

from common import best_of, data_file, emit, load_grids, machine

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


PEERS = Path(__file__).resolve().parents[1].parent / "shared" / "peers"


def build_tdoku(where: Path) -> Path:
    """tdoku's run_benchmark, built into ``where`` unless it is there already."""
    program = where / "build" / "run_benchmark"
    if not program.exists():
        script = PEERS / "build_tdoku.sh"
        subprocess.run(["bash", str(script), str(where)], check=True, stdout=subprocess.DEVNULL)
    return program


def tdoku_rate(program: Path, path: Path, seconds: int) -> float:
    """Puzzles/second by tdoku's own benchmark program (the first figure of its row)."""
    cmd = [str(program), "-t", str(seconds), "-w", "1", "-s", "tdoku", str(path)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    m = re.search(r"^\|tdoku[^|]*\|\s*([0-9.]+)", out, re.M)
    if m is None:
        raise SystemExit(f"cannot read tdoku's output:\n{out}")
    return float(m.group(1))


def side_by_side(name: str, path: Path, grids: list[Grid], program: Path, rounds: int) -> None:
    """tdoku and sudokit's batch API taking turns; rates (best of the rounds) and the median of
    the rounds' ratios."""
    n = len(grids)
    seconds = 2 if rounds <= 2 else 3
    rows: dict[str, list[float]] = {"tdoku": [], "solve": [], "unique": []}
    for _ in range(rounds):
        rows["tdoku"].append(tdoku_rate(program, path, seconds))
        rows["solve"].append(n / best_of(3, lambda: sudokit.solve_many(grids)))
        rows["unique"].append(n / best_of(3, lambda: sudokit.count_many(grids, limit=2)))
    for mode in ("solve", "unique"):
        ratios = [ours / peer for ours, peer in zip(rows[mode], rows["tdoku"], strict=True)]
        emit(
            {
                "bench": "engine",
                "set": name,
                "puzzles": n,
                "vs": "tdoku",
                "mode": mode,
                "engine_path": sudokit._engine.path(),
                "tdoku_per_second": round(max(rows["tdoku"])),
                "per_second": round(max(rows[mode])),
                "ratio": round(statistics.median(ratios), 2),
                "ratios": [round(r, 2) for r in ratios],
                "target": 1.0 if mode == "solve" else 0.7,
                "load": round(os.getloadavg()[0], 1),
            }
        )


_BATCH_SCRIPT = """
import sys
import sudokit
with open(sys.argv[1], encoding="utf-8") as f:
    grids = [r.grid for r in sudokit.read_puzzles(f) if r.grid is not None]
solutions = sudokit.solve_many(grids)
sys.stdout.write("".join(s.to_line() + "\\n" for s in solutions if s is not None))
"""


#: The whole processes run as an installed program does: with its compiled bytecode (an
#: environment with PYTHONDONTWRITEBYTECODE set would compile every module at every start,
#: a quarter of a second that no installed sudokit pays).
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def whole_process(cmd: list[str], tree: Path | None = None) -> tuple[float, float]:
    """Wall and CPU seconds of a command run to its end, output thrown away; with ``tree``,
    sudokit is imported from ``tree/src``."""
    env = _ENV if tree is None else {**_ENV, "PYTHONPATH": str(tree / "src")}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def cli_vs_batch(
    name: str,
    path: Path,
    grids: list[Grid],
    rounds: int,
    copies: int = 1,
    baseline: Path | None = None,
) -> None:
    """``sudokit solve [--count] FILE`` (whole process, one job) against the batch API; with
    ``copies``, on a file holding the set that many times (the start-up, importing sudokit,
    is the same whatever the file: on a bigger one it weighs less); with ``baseline``, the
    command run from that tree too, in turns with this one's (``baseline_*`` figures)."""
    if copies > 1:
        with tempfile.NamedTemporaryFile("wb", suffix=".txt", delete=False) as f:
            f.write(path.read_bytes() * copies)
        try:
            cli_vs_batch(f"{name} x{copies}", Path(f.name), grids * copies, rounds, 1, baseline)
        finally:
            os.unlink(f.name)
        return
    n = len(grids)
    exe = [sys.executable, "-m", "sudokit", "solve", "--jobs", "1"]
    api_calls = {
        "solve": lambda: sudokit.solve_many(grids),
        "count": lambda: sudokit.count_many(grids, limit=1000),  # the CLI's default limit
    }
    whole_process([*exe, "--count", str(path)])  # bytecode written, file cached
    if baseline is not None:
        whole_process([*exe, "--count", str(path)], baseline)
    for mode, extra in (("solve", []), ("count", ["--count"])):
        api = best_of(3, api_calls[mode], time.process_time)
        cli, before = [], []
        for _ in range(rounds):
            cli.append(whole_process([*exe, *extra, str(path)]))
            if baseline is not None:
                before.append(whole_process([*exe, *extra, str(path)], baseline))
        batch_script = [sys.executable, "-c", _BATCH_SCRIPT, str(path)]
        script = [whole_process(batch_script) for _ in range(rounds)]
        cli_cpu = min(c for _, c in cli)
        record = {
            "bench": "engine",
            "set": name,
            "puzzles": n,
            "vs": "batch API",
            "mode": mode,
            "cli_per_second_wall": round(n / min(w for w, _ in cli)),
            "cli_per_second_cpu": round(n / cli_cpu),
            "api_per_second_cpu": round(n / api),
            "cli_over_api": round(api / cli_cpu, 2),
            "load": round(os.getloadavg()[0], 1),
        }
        if before:
            record["baseline_cli_per_second_cpu"] = round(n / min(c for _, c in before))
            record["baseline_cli_over_api"] = round(api / min(c for _, c in before), 2)
        if mode == "solve":
            script_cpu = min(c for _, c in script)
            record["api_script_per_second_cpu"] = round(n / script_cpu)
            record["cli_over_api_script"] = round(script_cpu / cli_cpu, 2)
        emit(record)


def startup(baseline: Path | None, repeats: int = 10) -> None:
    """Wall and CPU time (each the best of ``repeats``) of starting Python, importing sudokit
    and its command line, and ``sudokit --version``; from the baseline tree too, in turns."""
    commands = {
        "python -c pass": ["-c", "pass"],
        "import sudokit": ["-c", "import sudokit"],
        "import sudokit.cli": ["-c", "import sudokit.cli"],
        "sudokit --version": ["-m", "sudokit", "--version"],
    }
    trees: dict[str, Path | None] = {"this": None}
    if baseline is not None:
        trees["baseline"] = baseline
    for what, args in commands.items():
        runs: dict[str, list[tuple[float, float]]] = {tree: [] for tree in trees}
        for _ in range(repeats):
            for tree, where in trees.items():
                runs[tree].append(whole_process([sys.executable, *args], where))
        record: dict[str, object] = {"bench": "engine", "startup": what}
        for tree, times in runs.items():
            prefix = "" if tree == "this" else "baseline_"
            record[f"{prefix}wall_ms"] = round(min(w for w, _ in times) * 1000, 1)
            record[f"{prefix}cpu_ms"] = round(min(c for _, c in times) * 1000, 1)
        record["load"] = round(os.getloadavg()[0], 1)
        emit(record)


def bench_generation(count: int) -> None:
    """Minimal 9x9 puzzles (no symmetry) on one core, with the clue distribution."""
    sudokit.generate_many(20, seed=1, jobs=1, symmetry="none")
    t = time.process_time()
    clues = [p.clues for p in sudokit.generate_many(count, seed=1, jobs=1, symmetry="none")]
    secs = time.process_time() - t
    emit(
        {
            "bench": "engine",
            "set": "generate 9x9 minimal none",
            "puzzles": count,
            "jobs": 1,
            "per_second_cpu": round(count / secs),
            "mean_clues": round(statistics.mean(clues), 2),
            "clue_distribution": dict(sorted(Counter(clues).items())),
            "load": round(os.getloadavg()[0], 1),
        }
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller samples, one repeat")
    ap.add_argument(
        "--tdoku", action="store_true", help="side by side with tdoku (built from ../shared/peers)"
    )
    ap.add_argument("--tdoku-dir", type=Path, help="where tdoku is built (kept for next time)")
    ap.add_argument("--rounds", type=int, default=3, help="turns each side takes (--tdoku)")
    ap.add_argument(
        "--cli", action="store_true", help="the command line alone: start-up, solve FILE vs API"
    )
    ap.add_argument("--baseline", type=Path, help="with --cli: a tree to compare with, in turns")
    args = ap.parse_args()
    emit({"bench": "engine", "event": "start", "engine_path": sudokit._engine.path(), **machine()})
    repeats = 1 if args.quick else 3
    if args.cli:
        startup(args.baseline)
        for name in ("sudoku17", "top1465"):
            path = data_file(SETS[name])
            if path is None:
                emit({"bench": "engine", "set": name, "skipped": "data file absent"})
                continue
            cli_vs_batch(name, path, load_grids(SETS[name]), args.rounds, baseline=args.baseline)
        return
    if args.tdoku:
        where = args.tdoku_dir or Path(tempfile.mkdtemp(prefix="tdoku-"))
        program = build_tdoku(where)
        for name, filename in SETS.items():
            path = data_file(filename)
            if path is None:
                emit({"bench": "engine", "set": name, "skipped": "data file absent"})
                continue
            grids = load_grids(filename)
            side_by_side(name, path, grids, program, args.rounds)
            if name == "sudoku17" or not args.quick:
                cli_vs_batch(name, path, grids, args.rounds)
            if name == "sudoku17":
                cli_vs_batch(name, path, grids, args.rounds, copies=4)
        bench_generation(300 if args.quick else 3000)
        return
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
