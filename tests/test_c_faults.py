"""The chain engine when memory runs out: every allocation of a search, made to fail in turn.

Runs only against the build of ``tools/sanitize.sh``, whose chain engine is compiled with
``SUDOKIT_FAULT_INJECTION``: ``_chains._fail_after(k)`` makes the allocation after the next
``k`` fail. Each failure must end the call in MemoryError (or, past the last allocation, in the
normal answer), with AddressSanitizer watching for any read or write out of bounds on the way:
a failed allocation used to leave counts that ran past what was stored.
"""

from __future__ import annotations

import pytest

from sudokit import Grid, _chains
from sudokit.logic import Candidates

pytestmark = pytest.mark.skipif(
    not hasattr(_chains, "_fail_after"),
    reason="needs the fault-injection build (tools/sanitize.sh)",
)

#: Rated 9.0 by Sudoku Explainer: its chains need thousands of nodes and closures.
HARD = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"

PRODUCERS = [  # (multiple, dynamic, nishio, nesting)
    (False, False, False, 0),
    (True, False, False, 0),
    (True, True, False, 0),
    (True, True, False, 2),
]


def _call(state: Candidates, spec: tuple[bool, bool, bool, int]) -> object:
    return _chains.hints(3, 3, bytes(state.values), state.cand, *spec, False)


def _allocations(state: Candidates, spec: tuple[bool, bool, bool, int]) -> tuple[int, object]:
    """How many allocations one call makes, and its answer (the shape's tables, built once
    and kept, are built before counting)."""
    _call(state, spec)
    big = 10**9
    _chains._fail_after(big)
    answer = _call(state, spec)
    return big - _chains._fail_after(-1), answer


@pytest.mark.parametrize("spec", PRODUCERS)
def test_every_failed_allocation_ends_in_memory_error(spec: tuple[bool, bool, bool, int]) -> None:
    state = Candidates.from_grid(Grid(HARD))
    total, answer = _allocations(state, spec)
    assert total > 10
    # The first allocations, then a spread through the rest, and the last one.
    points = sorted({*range(min(total, 8)), *range(8, total, max(1, total // 12)), total - 1})
    for k in points:
        _chains._fail_after(k)
        try:
            with pytest.raises(MemoryError):
                _call(state, spec)
        finally:
            _chains._fail_after(-1)
    assert _call(state, spec) == answer  # and the engine is whole afterwards
