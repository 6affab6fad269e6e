"""Type stub for the logic engine in C (see ``sudokit/logic/_native.py``)."""

from collections.abc import Sequence
from typing import Final

MAX_SIDE: int
#: Step technique names, by kind id.
STEP_KINDS: tuple[str, ...]
#: The technique table, by technique id: (slug, name, rating, best, in Sudoku Explainer, in C).
TECHNIQUES: tuple[tuple[str, str, float, bool, bool, bool], ...]
#: The slugs of the techniques that run on a rules geometry (any houses and peers).
RULES_TECHNIQUES: tuple[str, ...]
KILLER_TECHNIQUES: tuple[str, ...]

class StepData:
    kind: Final[str]
    rating: Final[float]
    complexity: Final[int]
    placements: Final[tuple[tuple[int, int], ...]]
    eliminations: Final[tuple[tuple[int, int], ...]]
    cells: Final[tuple[int, ...]]
    units: Final[tuple[int, ...]]
    digits: Final[tuple[int, ...]]
    links: Final[tuple[tuple[int, int, int, int, bool], ...]]
    info: Final[tuple[int, ...]]

def find(
    technique: int,
    box_rows: int,
    box_cols: int,
    values: bytes,
    cand: Sequence[int] | None,
    geometry: bytes | None = None,
    /,
) -> list[StepData]: ...
def next_step(
    techniques: Sequence[int],
    max_rating: float,
    box_rows: int,
    box_cols: int,
    values: bytes,
    cand: Sequence[int] | None,
    geometry: bytes | None = None,
    /,
) -> StepData | None: ...
def path(
    techniques: Sequence[int],
    max_rating: float,
    stop_above: float,
    deadline: float,
    box_rows: int,
    box_cols: int,
    values: bytes,
    cand: Sequence[int] | None,
    geometry: bytes | None = None,
    /,
) -> tuple[int, list[StepData], bytes, tuple[int, ...]]: ...

# Only in the fault-injection build of tools/sanitize.sh (see tests/test_c_faults.py).
def _fail_after(k: int, /) -> int: ...
