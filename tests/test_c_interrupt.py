"""Ctrl+C inside the long C calls: each one checks for a pending signal as it works
(src/sudokit/_interrupt.h), so a KeyboardInterrupt arrives within a fraction of a second
rather than when the call returns, minutes later; and the next call works as before.

A timer thread sends SIGINT to this process while the main thread is inside the C call."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from sudokit import Grid, Shape, generate, solve
from sudokit._engine import solve_batch
from sudokit.engine import count_solutions
from sudokit.logic import solve_path

EMPTY = "." * 81
KNOWN = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"

#: How long after the signal the call may take to end (it polls about 10 times a second).
PROMPT = 1.0


@contextmanager
def sigint_after(delay: float) -> Iterator[None]:
    timer = threading.Timer(delay, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        timer.join()


def interrupted(call: Callable[[], object], delay: float = 0.3) -> float:
    """Seconds from the signal to the KeyboardInterrupt out of ``call``."""
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt), sigint_after(delay):
        call()
        pytest.fail("the call ran to its end")  # pragma: no cover
    return time.monotonic() - start - delay


@pytest.mark.parametrize(
    "call",
    [
        # the 9x9 search (the batch and the one-puzzle bindings), the general search, the
        # generator's dig, and the logic engine's path (chains on an empty grid: minutes)
        lambda: count_solutions(Grid(EMPTY), limit=10**12),
        lambda: solve_batch(3, 3, bytes(81) * 4, limit=10**12),
        lambda: count_solutions(Grid("." * 256), limit=10**15),
        lambda: generate(shape=Shape(5, 5), seed=1),
        lambda: solve_path(Grid(EMPTY)),
    ],
    ids=["9x9-count", "9x9-batch", "16x16-count", "25x25-generate", "logic-path"],
)
def test_ctrl_c_stops_a_long_c_call(call: Callable[[], object]) -> None:
    assert interrupted(call) < PROMPT
    assert solve(Grid(KNOWN)) is not None  # the engines work on after it
    assert solve_path(Grid(KNOWN)).solved


def test_no_signal_no_interrupt() -> None:
    """A signal whose handler does not raise is not an interruption: the call goes on."""
    seen: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, frame: seen.append(number))
    try:
        with sigint_after(0.05):
            start = time.monotonic()
            assert count_solutions(Grid(EMPTY), limit=1_000_000) == 1_000_000
            assert time.monotonic() - start > 0.05  # the signal came during the call
            time.sleep(0.1)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert seen == [signal.SIGINT]
