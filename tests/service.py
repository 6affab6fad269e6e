"""The real puzzle service for tests and benchmarks: ``sudokit serve`` in a subprocess (uvicorn
on a free loopback port), over a given bank.

:func:`running_service` starts it, waits until it answers, and stops it on exit (Ctrl+C, as a
user would, then a kill if it lingers); the server's output is kept in ``Service.log()`` so a
test can check that nothing was printed that should not be (tracebacks).
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

_URL = re.compile(r"at (http://127\.0\.0\.1:\d+/)")


@dataclass
class Service:
    url: str  # ends with "/"
    process: subprocess.Popen[bytes]
    output: Path

    def log(self) -> str:
        return self.output.read_text(encoding="utf-8", errors="replace")


@contextmanager
def running_service(
    db: str,
    *,
    workers: int = 1,
    jobs: int = 2,
    time_limit: float = 15.0,
    extra: tuple[str, ...] = (),
) -> Iterator[Service]:
    """``sudokit serve`` over ``db`` on a free loopback port, until the ``with`` ends."""
    with tempfile.TemporaryDirectory(prefix="sudokit-serve-") as tmp:
        output = Path(tmp) / "server.log"
        args = [
            sys.executable,
            "-m",
            "sudokit",
            "serve",
            "--db",
            db,
            "--port",
            "0",
            "--workers",
            str(workers),
            "--jobs",
            str(jobs),
            "--time-limit",
            str(time_limit),
            *extra,
        ]
        with output.open("wb") as sink:
            process = subprocess.Popen(args, stdout=sink, stderr=subprocess.STDOUT)
        service = None
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                if process.poll() is not None:
                    raise RuntimeError(f"sudokit serve stopped:\n{output.read_text()}")
                m = _URL.search(output.read_text(encoding="utf-8", errors="replace"))
                if m and _answers(m.group(1)):
                    service = Service(m.group(1), process, output)
                    break
                time.sleep(0.1)
            if service is None:
                raise RuntimeError(f"sudokit serve did not start:\n{output.read_text()}")
            yield service
        finally:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)


def make_bank(
    target: str,
    count: int = 80,
    seed: int = 5,
    *,
    shape: str = "3x3",
    levels: tuple[str, ...] = (),
) -> None:
    """A bank of ``count`` generated 9x9 puzzles of mixed levels (80: every level); with
    ``levels``, one puzzle of ``shape`` for each of them instead."""
    from sudokit import Shape
    from sudokit.bank import Bank
    from sudokit.difficulty import generate, generate_many

    if levels:
        boxes = Shape.parse(shape)
        puzzles = [generate(shape=boxes, level=lv, seed=seed, timeout=120).puzzle for lv in levels]
    else:
        puzzles = [g.puzzle for g in generate_many(count, seed=seed, with_rating=True, jobs=2)]
    with Bank(target) as bank:
        bank.add_puzzles(puzzles, source="test")


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "api/v1/openapi.json", timeout=2) as r:
            return bool(r.status == 200)
    except OSError:
        return False


def slow_puzzle() -> list[int]:
    """A 25x25 grid (shape 5x5) with 62% of its cells emptied at random: whether it has one
    solution takes the solver well over 25 s to settle, so a ``solve`` of it is work that only
    the time limit (or a kill) stops."""
    import random

    from sudokit import Shape
    from sudokit.engine import random_grid

    shape = Shape(5, 5)
    cells = list(random_grid(shape, seed=1).cells)
    for i in random.Random(1).sample(range(shape.size), int(0.62 * shape.size)):
        cells[i] = 0
    return cells
