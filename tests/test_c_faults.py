"""The C extensions when memory runs out: allocations of a search, made to fail in turn.

Runs only against the build of ``tools/sanitize.sh``, whose extensions are compiled with
``SUDOKIT_FAULT_INJECTION`` (``_faults.h``): ``_fail_after(k)`` makes the allocation after
the next ``k`` fail. Each failure must end the call in MemoryError, with AddressSanitizer
watching for any read or write out of bounds on the way (a failed allocation used to leave
counts that ran past what was stored), and the next call must give the normal answer.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sudokit import Grid, Shape, _engine, _logic, random_grid
from sudokit.layouts import orbit_ids as _orbit_ids
from sudokit.logic import Candidates

pytestmark = pytest.mark.skipif(
    not hasattr(_logic, "_fail_after") or not hasattr(_engine, "_fail_after"),
    reason="needs the fault-injection build (tools/sanitize.sh)",
)

#: Rated 9.0 by Sudoku Explainer: its chains need thousands of nodes and closures.
HARD = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"

#: The chain producers, by their technique ids in the logic engine.
TECH = {row[0]: i for i, row in enumerate(_logic.TECHNIQUES)}
PRODUCERS = [
    "forcing-chains",
    "multiple-forcing-chains",
    "dynamic-forcing-chains",
    "nested-forcing-chains-2",
]


def _call(state: Candidates, spec: str) -> object:
    """The producer through find, and through next_step and path after the singles."""
    position = (3, 3, bytes(state.values), state.cand)
    singles = [TECH["full-house"], TECH["hidden-single"], TECH["naked-single"]]
    return (
        _logic.find(TECH[spec], *position),
        _logic.next_step([*singles, TECH[spec]], -1.0, *position),
        _logic.path([*singles, TECH[spec]], -1.0, 0.0, -1.0, *position),
    )


def _allocations(state: Candidates, spec: str) -> tuple[int, object]:
    """How many allocations one call makes, and its answer (the shape's tables, built once
    and kept, are built before counting)."""
    _call(state, spec)
    big = 10**9
    _logic._fail_after(big)
    answer = _call(state, spec)
    return big - _logic._fail_after(-1), answer


@pytest.mark.parametrize("spec", PRODUCERS)
def test_every_failed_allocation_ends_in_memory_error(spec: str) -> None:
    state = Candidates.from_grid(Grid(HARD))
    total, answer = _allocations(state, spec)
    assert total > 10
    # The first allocations, then a spread through the rest, and the last one.
    points = sorted({*range(min(total, 8)), *range(8, total, max(1, total // 12)), total - 1})
    for k in points:
        _logic._fail_after(k)
        try:
            with pytest.raises(MemoryError):
                _call(state, spec)
        finally:
            _logic._fail_after(-1)
    assert _call(state, spec) == answer  # and the engine is whole afterwards


SIXTEEN = Shape(4, 4)
_FULL = random_grid(SIXTEEN, seed=3).cells
#: Every third cell of a 16x16 grid: a search that goes deep enough to grow its stacks.
_SPARSE = bytes(d if c % 3 == 0 else 0 for c, d in enumerate(_FULL))

ENGINE_CALLS: dict[str, Callable[[], object]] = {
    "solve": lambda: _engine.solve(4, 4, _SPARSE, 2, True),
    "solve_batch": lambda: _engine.solve_batch(4, 4, _SPARSE * 3, 2),
    "random_grid": lambda: _engine.random_grid(5, 5, 11),
    "generate": lambda: _engine.generate(
        3, 4, 7, _orbit_ids(Shape(3, 4), "rot180"), 0, False, 0, 3
    ),
    "removable": lambda: _engine.removable(4, 4, _SPARSE[:128] + _FULL[128:], _FULL, 0, False),
}


@pytest.mark.parametrize("name", ENGINE_CALLS)
def test_every_failed_engine_allocation_ends_in_memory_error(name: str) -> None:
    call = ENGINE_CALLS[name]
    call()  # the shape's tables, built once and kept
    big = 10**9
    _engine._fail_after(big)
    answer = call()
    total = big - _engine._fail_after(-1)
    assert total >= 1
    for k in sorted({*range(min(total, 8)), *range(8, total, max(1, total // 12)), total - 1}):
        _engine._fail_after(k)
        try:
            with pytest.raises(MemoryError):
                call()
        finally:
            _engine._fail_after(-1)
    assert call() == answer
