"""Shared helpers for the benchmarks: data files, timing, JSON-lines output."""

from __future__ import annotations

import json
import platform
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import sudokit

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def data_file(name: str) -> Path | None:
    """The path of a shared data file, or None when the data folder is absent."""
    path = DATA / name
    return path if path.exists() else None


def load_grids(name: str, limit: int | None = None) -> list[sudokit.Grid]:
    """Parse a shared data file (one puzzle per line) into grids."""
    path = data_file(name)
    if path is None:
        return []
    grids = []
    with path.open(encoding="utf-8") as f:
        for rec in sudokit.read_puzzles(f, source=str(path)):
            if rec.grid is not None:
                grids.append(rec.grid)
                if limit is not None and len(grids) >= limit:
                    break
    return grids


def best_of(
    repeats: int, fn: Callable[[], object], clock: Callable[[], float] = time.perf_counter
) -> float:
    """The fastest of ``repeats`` runs of ``fn``, in seconds (the least disturbed by noise);
    ``clock`` may be ``time.process_time`` (CPU time, which load moves less)."""
    best = float("inf")
    for _ in range(repeats):
        t = clock()
        fn()
        best = min(best, clock() - t)
    return best


def emit(record: dict[str, Any]) -> None:
    """Print one benchmark result as a JSON line."""
    print(json.dumps(record), flush=True)


def machine() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "sudokit": sudokit.__version__,
        "argv": sys.argv[1:],
    }


def chunks(items: list[Any], size: int) -> Iterator[list[Any]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]
