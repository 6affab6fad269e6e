"""Type stubs for the C extension ``sudokit._engine`` (private: use :mod:`sudokit.engine`)."""

from typing import Any, TypeVar

from typing_extensions import Buffer

_T = TypeVar("_T")

MAX_SIDE: int
LOGIC_NONE: int
LOGIC_BOX: int
LOGIC_HIDDEN: int
LOGIC_SINGLES: int

def solve(
    box_rows: int,
    box_cols: int,
    cells: Buffer,
    limit: int = 1,
    generic: bool = False,
    geometry: Buffer | None = None,
) -> tuple[bytes | None, int]: ...
def solve_batch(
    box_rows: int,
    box_cols: int,
    cells: Buffer,
    limit: int = 1,
    generic: bool = False,
    geometry: Buffer | None = None,
) -> tuple[bytes, list[int]]: ...
def batch_cells(grids: object, cls: type) -> tuple[Any, bytes] | None: ...
def grids(cls: type[_T], shape: object, cells: Buffer, size: int) -> list[_T]: ...
def solve_lines(text: Buffer, limit: int, counts: bool) -> tuple[bytes, int, int]: ...
def paths() -> list[str]: ...
def path() -> str: ...
def use_path(name: str) -> None: ...
def random_grid(
    box_rows: int, box_cols: int, seed: int, geometry: Buffer | None = None, /
) -> bytes | None: ...
def random_regions(box_rows: int, box_cols: int, maps: Buffer, seed: int, /) -> bytes: ...
def generate(
    box_rows: int,
    box_cols: int,
    seed: int,
    orbits: Buffer,
    target: int,
    exact: bool,
    budget: int,
    logic: int = 0,
    geometry: Buffer | None = None,
    grid_cap: int = 0,
    /,
) -> tuple[bytes, bytes, int, bool, bool] | None: ...
def removable(
    box_rows: int,
    box_cols: int,
    puzzle: Buffer,
    solution: Buffer,
    budget: int,
    first: bool = False,
    geometry: Buffer | None = None,
    /,
) -> tuple[list[int], bool]: ...

# Only in the fault-injection build of tools/sanitize.sh (see tests/test_c_faults.py).
def _fail_after(k: int, /) -> int: ...
def cage_map(text: str, /) -> tuple[int, bytes, int] | tuple[int, int, int, int]: ...
def killer_geometry(
    box_rows: int, box_cols: int, geometry: Buffer, /
) -> tuple[list[tuple[int, ...]], list[tuple[tuple[int, ...], int]], int]: ...
def killer_generate(
    box_rows: int,
    box_cols: int,
    seed: int,
    geometry: Buffer,
    lo: int,
    hi: int,
    maps: bytes,
    clues: int,
    minimal: bool,
    budget: int,
    tries: int,
    /,
) -> tuple[bytes, bytes, bytes, int] | int | None: ...
