"""PDF book speed and memory, printed as JSON lines.

    python benchmarks/bench_pdf.py             # 100 puzzles, 4 a page (target 5 s); 500 for memory
    python benchmarks/bench_pdf.py --big 1000  # the memory run with 1000 puzzles

The puzzles are generated first (not timed); the book is written to a temporary file. Memory is
measured twice for the big book: the growth of the process's peak resident size, and the peak of
Python's own allocations under tracemalloc (a slower run).
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import sudokit
from sudokit.render.pdf import book

from common import best_of, emit, machine


def stream(base: list[sudokit.Generated], count: int) -> Iterator[sudokit.Generated]:
    """``count`` puzzles, cycling through ``base``: a generator, as a real book would read."""
    for i in range(count):
        yield base[i % len(base)]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--count", type=int, default=100, help="puzzles in the timed book")
    p.add_argument("--big", type=int, default=500, help="puzzles in the memory run")
    p.add_argument("--repeats", type=int, default=3)
    args = p.parse_args()

    base = list(sudokit.generate_many(100, seed=2024, with_rating=True))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "book.pdf"
        book(base[:4], path)  # fonts registered, modules imported
        seconds = best_of(args.repeats, lambda: book(stream(base, args.count), path, per_page=4))
        emit(
            {
                "bench": "pdf_book",
                "puzzles": args.count,
                "per_page": 4,
                "page_size": "A4",
                "solutions": True,
                "seconds": round(seconds, 3),
                "target_seconds": 5.0,
                "bytes": path.stat().st_size,
                **machine(),
            }
        )

        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        t = time.perf_counter()
        summary = book(stream(base, args.big), path, per_page=4)
        seconds = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        tracemalloc.start()
        book(stream(base, args.big), path, per_page=4)
        _, traced = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        emit(
            {
                "bench": "pdf_book_memory",
                "puzzles": summary.puzzles,
                "pages": summary.pages,
                "seconds": round(seconds, 3),
                "peak_rss_mib": round(after / 1024, 1),
                "rss_growth_mib": round((after - before) / 1024, 1),
                "traced_peak_mib": round(traced / 2**20, 1),
                "bytes": path.stat().st_size,
            }
        )


if __name__ == "__main__":
    main()
