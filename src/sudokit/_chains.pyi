"""Type stub for the C chaining engine (see ``sudokit/logic/chains.py``)."""

from collections.abc import Sequence

MAX_SIDE: int
MAX_NESTING: int

# (kind, difficulty, complexity, sort_key, removable cands, result key, source, region, value,
#  x, y, absurd, target node indexes, nodes as (key, cause, parent indexes, nested complexity))
HintTuple = tuple[
    int,
    float,
    int,
    int,
    tuple[int, ...],
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    tuple[int, ...],
    tuple[tuple[int, int, tuple[int, ...], int], ...],
]

def hints(
    box_rows: int,
    box_cols: int,
    values: bytes,
    cand: Sequence[int],
    multiple: bool,
    dynamic: bool,
    nishio: bool,
    nesting: int,
    best_only: bool,
    /,
) -> list[HintTuple]: ...

# Only in the fault-injection build of tools/sanitize.sh (see tests/test_c_faults.py).
def _fail_after(k: int, /) -> int: ...
