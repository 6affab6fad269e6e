"""The exact engine (``sudokit._engine`` behind ``sudokit.engine``), checked against an oracle.

Terms:

- The **reference** is ``tests/reference.py``, a plain Python solver sharing no code with the
  engine; its count (up to 5) and first solution are the expected answers.
- A **case** is a puzzle made from ``random_grid(shape, seed=s)`` by blanking cells at a random
  density, so it has one or many solutions; about one case in four also has one clue changed
  to a digit no peer holds (no conflict), which usually leaves it with **no** solution.
- The **fast path** is the 9x9 bitboard search; the **general path** serves every other shape
  and, with ``generic=True``, 9x9 too, so both can be compared on the same puzzles.

The cases are built once per shape (a few thousand in all; the reference is the slow part).
12x12 cases keep at least 55% of their cells: sparser ones can take the reference minutes.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sudokit
from sudokit import (
    Grid,
    Shape,
    _engine,
    count_many,
    count_solutions,
    is_unique,
    random_grid,
    solve,
    solve_many,
)

import reference
from grid_strategies import puzzle_cells, solution_cells

SUDOKU = Shape(3, 3)
KNOWN = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"

#: Shapes of the differential tests, with how many cases each and the range of kept density.
DIFF: dict[Shape, tuple[int, float, float]] = {
    Shape(2, 2): (400, 0.1, 0.9),
    Shape(2, 3): (400, 0.15, 0.9),
    Shape(3, 2): (400, 0.15, 0.9),
    Shape(2, 4): (300, 0.2, 0.9),
    Shape(4, 2): (300, 0.2, 0.9),
    Shape(3, 3): (500, 0.25, 0.9),
    Shape(3, 4): (150, 0.55, 0.9),
    Shape(4, 3): (150, 0.55, 0.9),
}
DIFF_SHAPES = list(DIFF)
LIMITS = (1, 2, 5)

#: Every shape with box sides 2..5 (random_grid and empty-grid checks).
SMALL_SHAPES = [Shape(r, c) for r in range(2, 6) for c in range(2, 6)]

#: Properties run the same examples every time (fixed seeds) and ignore timing noise.
PROPERTY = settings(max_examples=150, deadline=None, derandomize=True)


@dataclass(frozen=True)
class Case:
    puzzle: bytes
    count: int  # the reference's count, up to 5
    solution: list[int] | None  # the reference's first solution


def _mutate(shape: Shape, cells: bytes, rng: random.Random) -> bytes | None:
    """Change one clue to a digit none of its peers holds; None when no clue allows it."""
    clues = [c for c, d in enumerate(cells) if d]
    rng.shuffle(clues)
    for cell in clues:
        taken = {cells[p] for p in shape.peers[cell]} | {cells[cell]}
        free = [d for d in range(1, shape.n + 1) if d not in taken]
        if free:
            out = bytearray(cells)
            out[cell] = rng.choice(free)
            return bytes(out)
    return None


@cache
def cases(shape: Shape) -> tuple[Case, ...]:
    count, lo, hi = DIFF[shape]
    rng = random.Random(f"engine-diff-{shape}")
    out = []
    for i in range(count):
        solution = random_grid(shape, seed=rng.getrandbits(64)).cells
        mutate = i % 4 == 0
        keep = rng.uniform(max(lo, 0.45) if mutate else lo, hi)
        cells = bytes(d if rng.random() < keep else 0 for d in solution)
        if mutate:
            cells = _mutate(shape, cells, rng) or cells
        found, first = reference.count_solutions(shape, cells, limit=5)
        out.append(Case(cells, found, first))
    return tuple(out)


def _grids(shape: Shape) -> list[Grid]:
    return [Grid.from_cells(c.puzzle, shape) for c in cases(shape)]


def _valid(shape: Shape, solution: bytes | None, puzzle: bytes) -> bool:
    return solution is not None and reference.is_valid_solution(shape, solution, puzzle)


# Differential tests against the reference ------------------------------------------------------


@pytest.mark.parametrize("shape", DIFF_SHAPES, ids=str)
def test_cases_cover_no_one_and_many_solutions(shape: Shape) -> None:
    counts = [c.count for c in cases(shape)]
    assert {0, 1} <= set(counts), f"{shape}: {sorted(set(counts))}"
    assert max(counts) >= 2
    assert counts.count(0) >= len(counts) // 20
    if shape.n <= 9:
        assert 5 in counts and {2, 3, 4} & set(counts)


@pytest.mark.parametrize("shape", DIFF_SHAPES, ids=str)
def test_count_solutions_matches_reference(shape: Shape) -> None:
    for case, grid in zip(cases(shape), _grids(shape), strict=True):
        for k in LIMITS:
            assert count_solutions(grid, limit=k) == min(case.count, k), (grid.to_line(), k)
        assert is_unique(grid) == (case.count == 1), grid.to_line()


@pytest.mark.parametrize("shape", DIFF_SHAPES, ids=str)
def test_solve_matches_reference(shape: Shape) -> None:
    for case, grid in zip(cases(shape), _grids(shape), strict=True):
        solution = solve(grid)
        if case.count == 0:
            assert solution is None, grid.to_line()
            continue
        assert solution is not None and solution.shape == shape, grid.to_line()
        assert _valid(shape, solution.cells, case.puzzle), grid.to_line()
        if case.count == 1:
            assert list(solution.cells) == case.solution, grid.to_line()


@pytest.mark.parametrize("shape", DIFF_SHAPES, ids=str)
def test_unsolvable_puzzles_without_conflicts(shape: Shape) -> None:
    """Changed-clue cases the reference proves unsolvable: valid grids, count 0, no solution."""
    zero = [c.puzzle for c in cases(shape) if c.count == 0]
    assert len(zero) >= 10
    for cells in zero:
        grid = Grid.from_cells(cells, shape)  # raises on a conflict
        assert grid.conflicts() == []
        assert count_solutions(grid, limit=5) == 0 and solve(grid) is None
        assert _engine.solve(shape.box_rows, shape.box_cols, cells, 5) == (None, 0)


@pytest.mark.parametrize("shape", DIFF_SHAPES, ids=str)
def test_batch_forms_agree_with_one_at_a_time(shape: Shape) -> None:
    grids = _grids(shape)
    assert solve_many(grids) == [solve(g) for g in grids]
    assert solve_many(iter(grids[:50])) == [solve(g) for g in grids[:50]]  # any iterable
    # None in its place among solutions (the solutions are made in bulk, then patched).
    none = next(g for g in grids if solve(g) is None)
    mixed = [grids[0], none, grids[1], none]
    assert solve_many(mixed) == [solve(grids[0]), None, solve(grids[1]), None]
    for k in LIMITS:
        assert count_many(grids, limit=k) == [count_solutions(g, limit=k) for g in grids]
    # The raw batch leaves zeros where there is no solution.
    size = shape.size
    sols, counts = _engine.solve_batch(
        shape.box_rows, shape.box_cols, b"".join(g.cells for g in grids), 2
    )
    assert counts == [min(c.count, 2) for c in cases(shape)]
    for i, case in enumerate(cases(shape)):
        chunk = sols[i * size : (i + 1) * size]
        if case.count == 0:
            assert chunk == bytes(size)
        else:
            assert _valid(shape, chunk, case.puzzle)


def test_general_path_agrees_with_fast_path_on_9x9() -> None:
    all_cases = cases(SUDOKU)
    for case in all_cases:
        for k in LIMITS:
            fast = _engine.solve(3, 3, case.puzzle, k)
            general = _engine.solve(3, 3, case.puzzle, k, generic=True)
            assert fast[1] == general[1] == min(case.count, k), (case.puzzle.hex(), k)
            for solution, _ in (fast, general):
                assert (solution is None) == (case.count == 0)
                if case.count:
                    assert _valid(SUDOKU, solution, case.puzzle)
                if case.count == 1:
                    assert solution is not None and list(solution) == case.solution
    joined = b"".join(c.puzzle for c in all_cases)
    assert _engine.solve_batch(3, 3, joined, 5)[1] == _engine.solve_batch(3, 3, joined, 5, True)[1]


# Every 9x9 search path the build can select ----------------------------------------------------


@pytest.fixture(params=_engine.paths())
def engine_path(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each 9x9 search path this machine runs, in turn (the one chosen at import after)."""
    before = _engine.path()
    _engine.use_path(request.param)
    try:
        yield request.param
    finally:
        _engine.use_path(before)


def test_paths_name_the_portable_one_first_and_the_one_in_use() -> None:
    paths = _engine.paths()
    assert paths[0] == "portable" and len(set(paths)) == len(paths)
    assert _engine.path() in paths


def test_every_path_matches_the_reference_on_9x9(engine_path: str) -> None:
    assert _engine.path() == engine_path
    all_cases = cases(SUDOKU)
    joined = b"".join(c.puzzle for c in all_cases)
    for k in LIMITS:
        sols, counts = _engine.solve_batch(3, 3, joined, k)
        assert counts == [min(c.count, k) for c in all_cases], (engine_path, k)
        for i, case in enumerate(all_cases):
            chunk = sols[i * 81 : (i + 1) * 81]
            if case.count == 1:
                assert list(chunk) == case.solution, (engine_path, case.puzzle.hex())
            elif case.count:
                assert _valid(SUDOKU, chunk, case.puzzle), (engine_path, case.puzzle.hex())
    assert random_grid(seed=0).to_line() == GOLDEN_9X9_SEED_0
    # The paths differ in instructions only: the same first solution for many-solution puzzles.
    assert _engine.solve_batch(3, 3, joined, 1)[0] == _solutions_on("portable", joined)


def _solutions_on(path: str, joined: bytes) -> bytes:
    before = _engine.path()
    _engine.use_path(path)
    try:
        return bytes(_engine.solve_batch(3, 3, joined, 1)[0])
    finally:
        _engine.use_path(before)


def test_unknown_or_unusable_paths_are_refused_by_name() -> None:
    before = _engine.path()
    with pytest.raises(ValueError, match="engine path nonesuch: unknown .*portable"):
        _engine.use_path("nonesuch")
    with pytest.raises(TypeError):
        _engine.use_path(3)  # type: ignore[arg-type]
    assert _engine.path() == before


def test_the_environment_chooses_the_path_at_import() -> None:
    code = "import sudokit._engine as e; print(e.path())"
    env = {**os.environ, "SUDOKIT_ENGINE": "portable"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "portable", out.stderr
    env["SUDOKIT_ENGINE"] = "turbo"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode != 0
    assert "SUDOKIT_ENGINE: engine path turbo: unknown" in out.stderr


# Regressions --------------------------------------------------------------------------------


@pytest.mark.parametrize("generic", [False, True], ids=["default", "generic"])
@pytest.mark.parametrize("shape", [*SMALL_SHAPES, Shape(6, 6)], ids=str)
def test_regression_empty_grid_is_solvable(shape: Shape, generic: bool) -> None:
    """The general path once answered (None, 0) for an empty grid."""
    empty = bytes(shape.size)
    solution, count = _engine.solve(shape.box_rows, shape.box_cols, empty, 1, generic)
    assert count == 1 and _valid(shape, solution, empty)
    sols, counts = _engine.solve_batch(shape.box_rows, shape.box_cols, empty * 2, 3, generic)
    assert counts == [3, 3]
    assert _valid(shape, sols[: shape.size], empty) and _valid(shape, sols[shape.size :], empty)


def test_regression_empty_4x4_has_288_solutions() -> None:
    shape = Shape(2, 2)
    assert reference.count_solutions(shape, bytes(16), limit=1000)[0] == 288
    assert count_solutions(Grid.empty(shape), limit=1000) == 288
    assert count_many([Grid.empty(shape)] * 2, limit=1000) == [288, 288]
    for generic in (False, True):
        assert _engine.solve(2, 2, bytes(16), 1000, generic)[1] == 288


@pytest.mark.parametrize("generic", [False, True])
def test_regression_negative_raw_limit_raises(generic: bool) -> None:
    """A negative limit once wrapped to 2**64-1. These puzzles have 288 and 1 solutions, so a
    regression fails the test quickly instead of hanging it."""
    for br, bc, cells in ((2, 2, bytes(16)), (3, 3, Grid(KNOWN).cells)):
        for limit in (-1, -(2**63)):
            with pytest.raises(ValueError, match=f"limit must be at least 1, got {limit}"):
                _engine.solve(br, bc, cells, limit, generic)
            with pytest.raises(ValueError, match=f"limit must be at least 1, got {limit}"):
                _engine.solve_batch(br, bc, cells, limit, generic)


def test_regression_huge_public_limits_are_clamped() -> None:
    empty = Grid.empty(Shape(2, 2))
    for limit in (2**63 - 1, 2**63, 2**64 - 1, 2**64 + 5, 10**30):
        assert count_solutions(empty, limit=limit) == 288
        assert count_many([empty], limit=limit) == [288]
    with pytest.raises(OverflowError):  # the raw form takes a signed 64-bit limit
        _engine.solve(2, 2, bytes(16), 2**63)


# Properties ---------------------------------------------------------------------------------


@st.composite
def puzzles(draw: st.DrawFn) -> Grid:
    """A puzzle from a solution made without the engine; sometimes a clue is changed."""
    shape = draw(st.sampled_from(DIFF_SHAPES))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    floor = 0.55 if shape.n >= 12 else 0.0  # sparse 12x12 puzzles can take the reference minutes
    keep = draw(st.sampled_from([k for k in (0.0, 0.2, 0.35, 0.5, 0.65, 0.8, 1.0) if k >= floor]))
    cells = puzzle_cells(shape, rng, keep)
    if draw(st.booleans()):
        cells = _mutate(shape, cells, rng) or cells
    return Grid.from_cells(cells, shape)


def _relabel(shape: Shape, cells: bytes, rng: random.Random) -> tuple[Shape, bytes]:
    labels = list(range(1, shape.n + 1))
    rng.shuffle(labels)
    return shape, bytes(labels[d - 1] if d else 0 for d in cells)


def _lines(cells: bytes, n: int, rows: list[int], cols: list[int]) -> bytes:
    """The grid whose row r, column c is the old row rows[r], column cols[c]."""
    return bytes(cells[r * n + c] for r in rows for c in cols)


def _within(group: int, n: int, rng: random.Random) -> list[int]:
    """Lines shuffled inside each group of ``group`` consecutive lines."""
    out: list[int] = []
    for start in range(0, n, group):
        inner = list(range(start, start + group))
        rng.shuffle(inner)
        out += inner
    return out


def _blocks(group: int, n: int, rng: random.Random) -> list[int]:
    """Whole groups of ``group`` consecutive lines shuffled."""
    starts = list(range(0, n, group))
    rng.shuffle(starts)
    return [s + i for s in starts for i in range(group)]


Transform = Callable[[Shape, bytes, random.Random], tuple[Shape, bytes]]

TRANSFORMS: dict[str, Transform] = {
    "relabel": _relabel,
    "rows in a band": lambda s, c, r: (
        s,
        _lines(c, s.n, _within(s.box_rows, s.n, r), list(range(s.n))),
    ),
    "columns in a stack": lambda s, c, r: (
        s,
        _lines(c, s.n, list(range(s.n)), _within(s.box_cols, s.n, r)),
    ),
    "bands": lambda s, c, r: (s, _lines(c, s.n, _blocks(s.box_rows, s.n, r), list(range(s.n)))),
    "stacks": lambda s, c, r: (s, _lines(c, s.n, list(range(s.n)), _blocks(s.box_cols, s.n, r))),
    # Transposing turns r x c boxes into c x r boxes: for square boxes the shape is unchanged;
    # otherwise it also compares the general path on two shapes.
    "transpose": lambda s, c, r: (
        Shape(s.box_cols, s.box_rows),
        bytes(c[col * s.n + row] for row in range(s.n) for col in range(s.n)),
    ),
}


@PROPERTY
@given(puzzles())
def test_solutions_are_valid(grid: Grid) -> None:
    solution = solve(grid)
    if solution is None:
        assert count_solutions(grid, limit=1) == 0
        assert reference.count_solutions(grid.shape, grid.cells, limit=1)[0] == 0
    else:
        assert _valid(grid.shape, solution.cells, grid.cells)
        assert count_solutions(grid, limit=1) == 1


@PROPERTY
@given(puzzles(), st.integers(0, 2**32 - 1))
def test_symmetries_keep_the_count(grid: Grid, seed: int) -> None:
    rng = random.Random(seed)
    expected = count_solutions(grid, limit=5)
    for name, transform in TRANSFORMS.items():
        shape, cells = transform(grid.shape, grid.cells, rng)
        moved = Grid.from_cells(cells, shape)
        assert moved.clue_count == grid.clue_count
        assert count_solutions(moved, limit=5) == expected, (name, grid.to_line())


@PROPERTY
@given(puzzles(), st.data())
def test_adding_a_clue_from_a_solution_keeps_it_solvable(grid: Grid, data: st.DataObject) -> None:
    solution = solve(grid)
    empty = grid.empty_cells()
    if solution is None or not empty:
        return
    cell = data.draw(st.sampled_from(empty))
    more = grid.with_digit(cell, solution[cell])
    before, after = count_solutions(grid, limit=5), count_solutions(more, limit=5)
    assert 1 <= after <= before
    assert _valid(grid.shape, (solve(more) or grid).cells, more.cells)
    if before == 1:
        # Then any other digit there, if it fits, leaves no solution at all.
        for digit in range(1, grid.n + 1):
            if digit != solution[cell] and all(grid[p] != digit for p in grid.shape.peers[cell]):
                assert count_solutions(grid.with_digit(cell, digit), limit=2) == 0


@PROPERTY
@given(st.sampled_from(DIFF_SHAPES), st.integers(1, 40), st.booleans())
def test_empty_grid_count_reaches_small_limits(shape: Shape, limit: int, generic: bool) -> None:
    empty = bytes(shape.size)
    assert count_solutions(Grid.empty(shape), limit=limit) == limit
    assert _engine.solve(shape.box_rows, shape.box_cols, empty, limit, generic)[1] == limit


# Bigger grids -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shape", "blank", "seeds"),
    [(Shape(4, 4), 0.4, range(4)), (Shape(5, 5), 0.35, range(2))],
    ids=["16x16", "25x25"],
)
def test_big_grids_solve_and_verify(shape: Shape, blank: float, seeds: range) -> None:
    for seed in seeds:
        rng = random.Random(seed)
        full = random_grid(shape, seed=seed)
        puzzle = Grid.from_cells(bytes(0 if rng.random() < blank else d for d in full), shape)
        assert 0.25 < 1 - puzzle.clue_count / shape.size < 0.5
        solution = solve(puzzle)
        assert solution is not None and _valid(shape, solution.cells, puzzle.cells)
        assert count_solutions(puzzle, limit=2) >= 1
        general = solve_many([puzzle])[0]
        assert general is not None and _valid(shape, general.cells, puzzle.cells)


# random_grid --------------------------------------------------------------------------------

#: Changing these is a deliberate, versioned change: seeds must keep making the same grids.
GOLDEN_9X9_SEED_0 = (
    "124596837675328149893147256459713628236984571781265493367451982512879364948632715"
)
GOLDEN_2X3_SEED_0 = "452631163245534162216453341526625314"


def test_random_grid_golden_outputs() -> None:
    assert random_grid(seed=0).to_line() == GOLDEN_9X9_SEED_0
    assert random_grid(Shape(2, 3), seed=0).to_line() == GOLDEN_2X3_SEED_0
    assert _engine.random_grid(3, 3, 0) == Grid(GOLDEN_9X9_SEED_0).cells


@pytest.mark.parametrize("shape", SMALL_SHAPES, ids=str)
def test_random_grid_is_valid_and_deterministic(shape: Shape) -> None:
    for seed in (0, 1, 2**63 + 11):
        grid = random_grid(shape, seed=seed)
        assert grid.shape == shape and grid.is_complete()
        assert _valid(shape, grid.cells, bytes(shape.size))
        assert random_grid(shape, seed=seed) == grid
        assert _engine.random_grid(shape.box_rows, shape.box_cols, seed) == grid.cells


def test_random_grid_36x36_is_valid() -> None:
    shape = Shape(6, 6)
    grid = random_grid(shape, seed=7)
    assert _valid(shape, grid.cells, bytes(shape.size))


@pytest.mark.parametrize("shape", [Shape(2, 3), Shape(3, 3), Shape(3, 4), Shape(5, 4)], ids=str)
def test_random_grid_variety(shape: Shape) -> None:
    def canonical(cells: bytes) -> bytes:
        """Relabel digits in order of first appearance: equal only if not mere relabelings."""
        label = {d: i + 1 for i, d in enumerate(cells[: shape.n])}
        return bytes(label[d] for d in cells)

    grids = [random_grid(shape, seed=s).cells for s in range(30)]
    assert len({canonical(g) for g in grids}) == 30
    assert len({g[: shape.n] for g in grids}) == 30  # first rows differ too


def test_random_grid_reaches_every_4x4_grid() -> None:
    shape = Shape(2, 2)
    grids = {random_grid(shape, seed=s).cells for s in range(3000)}
    assert len(grids) == 288  # all of them (a uniform draw misses one with p ~ 1%)
    assert all(_valid(shape, g, bytes(16)) for g in grids)


def test_random_grid_seed_is_taken_modulo_2_64() -> None:
    for shape in (SUDOKU, Shape(2, 3)):
        base = random_grid(shape, seed=7)
        assert random_grid(shape, seed=2**64 + 7) == base
        assert random_grid(shape, seed=-(2**64) + 7) == base
        assert random_grid(shape, seed=7 + 5 * 2**64) == base
        assert random_grid(shape, seed=-1) == random_grid(shape, seed=2**64 - 1)
        assert random_grid(shape, seed=2**200) == random_grid(shape, seed=0)
        assert random_grid(shape, seed=8) != base
    # The raw form masks its seed to 64 bits too.
    assert _engine.random_grid(3, 3, -1) == _engine.random_grid(3, 3, 2**64 - 1)
    assert _engine.random_grid(3, 3, 2**64 + 7) == _engine.random_grid(3, 3, 7)


# Errors -------------------------------------------------------------------------------------


@pytest.mark.parametrize("generic", [False, True])
def test_raw_value_errors(generic: bool) -> None:
    singles: list[tuple[int, int, bytes, int, str]] = [
        (3, 3, bytes(80), 1, "expected 81 cells, got 80"),
        (3, 3, bytes(82), 1, "expected 81 cells, got 82"),
        (2, 2, b"", 1, "expected 16 cells, got 0"),
        (3, 3, bytes([10]) + bytes(80), 1, r"cell 0: digit 10 is out of range 0\.\.9"),
        (2, 2, bytes(15) + b"\x05", 1, r"cell 15: digit 5 is out of range 0\.\.4"),
        (1, 4, bytes(16), 1, "invalid shape 1x4"),
        (0, 0, b"", 1, "invalid shape 0x0"),
        (-2, -2, bytes(16), 1, "invalid shape -2x-2"),
        (8, 9, bytes(72 * 72), 1, "invalid shape 8x9"),
        (9, 9, bytes(81 * 81), 1, "invalid shape 9x9"),
        (3, 3, bytes(81), 0, "limit must be at least 1, got 0"),
    ]
    for br, bc, cells, limit, message in singles:
        with pytest.raises(ValueError, match=message):
            _engine.solve(br, bc, cells, limit, generic)
    batch: list[tuple[int, int, bytes, int, str]] = [
        (3, 3, bytes(80), 1, "expected a multiple of 81 cells, got 80 bytes"),
        (3, 3, bytes(163), 1, "expected a multiple of 81 cells, got 163 bytes"),
        (3, 3, b"", 1, "expected a multiple of 81 cells, got 0 bytes"),
        (3, 3, bytes(81) + bytes([10]) + bytes(80), 1, r"puzzle 1, cell 0: digit 10 is out"),
        (1, 4, bytes(16), 1, "invalid shape 1x4"),
        (3, 3, bytes(162), 0, "limit must be at least 1, got 0"),
    ]
    for br, bc, cells, limit, message in batch:
        with pytest.raises(ValueError, match=message):
            _engine.solve_batch(br, bc, cells, limit, generic)


@pytest.mark.parametrize("generic", [False, True])
def test_raw_conflicts_have_no_solution(generic: bool) -> None:
    for br, bc in ((2, 2), (3, 3), (2, 3)):
        n = br * bc
        row = bytes([1, 1]) + bytes(n * n - 2)
        column = bytes([1]) + bytes(n - 1) + bytes([1]) + bytes(n * n - n - 1)
        box = bytes([1]) + bytes(n) + bytes([1]) + bytes(n * n - n - 2)  # r1c1 and r2c2
        for cells in (row, column, box):
            assert _engine.solve(br, bc, cells, 5, generic) == (None, 0)
        sols, counts = _engine.solve_batch(br, bc, row + bytes(n * n) + column, 2, generic)
        assert counts == [0, 2, 0]
        assert sols[: n * n] == bytes(n * n) == sols[2 * n * n :]


def test_raw_type_and_overflow_errors() -> None:
    with pytest.raises(TypeError, match="bytes-like object is required, not 'str'"):
        _engine.solve(3, 3, "." * 81)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        _engine.solve_batch(3, 3, "." * 81)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        _engine.random_grid(3, 3, "0")  # type: ignore[arg-type]
    with pytest.raises(OverflowError):
        _engine.solve(2**40, 2, bytes(16))
    with pytest.raises(OverflowError):
        _engine.solve_batch(2, 2**40, bytes(16))
    with pytest.raises(ValueError, match="invalid shape 1x4"):
        _engine.random_grid(1, 4, 0)
    # Any buffer works, not only bytes.
    assert _engine.solve(2, 2, bytearray(16))[1] == 1
    assert _engine.solve(2, 2, memoryview(bytes(16)))[1] == 1


def test_public_api_errors() -> None:
    grid = Grid.empty(SUDOKU)
    for limit in (0, -1):
        with pytest.raises(ValueError, match=f"limit must be at least 1, got {limit}"):
            count_solutions(grid, limit=limit)
        with pytest.raises(ValueError, match=f"limit must be at least 1, got {limit}"):
            count_many([grid], limit=limit)
    mixed = [grid, Grid.empty(Shape(2, 2))]
    with pytest.raises(ValueError, match="grid 0 is 3x3, grid 1 is 2x2"):
        solve_many(mixed)
    with pytest.raises(ValueError, match="one shape"):
        count_many(mixed)
    assert solve_many([]) == [] and count_many([]) == []
    assert solve_many(iter([])) == []


def test_known_solutions() -> None:
    puzzle = Grid(KNOWN)
    solution = solve(puzzle)
    assert solution is not None
    assert solution.to_line() == (
        "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
    )
    assert count_solutions(Grid.empty(SUDOKU), limit=5) == 5
    assert count_solutions(solution) == 1 and solve(solution) == solution


def test_solution_cells_helper_is_valid() -> None:
    """The hypothesis puzzles start from grid_strategies' solutions: check they are sound."""
    for shape in DIFF_SHAPES:
        cells = solution_cells(shape, random.Random(1))
        assert reference.is_valid_solution(shape, cells, bytes(shape.size))


def test_unique_solution_names_what_is_wrong() -> None:
    from sudokit import NotUniqueError, unique_solution

    puzzle = Grid(
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    )
    assert unique_solution(puzzle) == solve(puzzle)
    with pytest.raises(NotUniqueError, match="more than one solution") as several:
        unique_solution(Grid("." * 81))
    assert several.value.solutions == 2
    # No two equal clues in a unit, yet no solution: r1c1 needs the 1 that r2c1 holds.
    with pytest.raises(NotUniqueError, match="no solution") as none:
        unique_solution(Grid("." + "23456789" + "1" + "." * 71))
    assert none.value.solutions == 0
    assert isinstance(none.value, ValueError)


def _every_shape() -> list[Shape]:
    top = sudokit.MAX_SIDE
    return [
        Shape(br, bc)
        for br in range(2, top // 2 + 1)
        for bc in range(2, top // 2 + 1)
        if br * bc <= top
    ]


def test_every_advertised_shape_makes_and_solves_grids() -> None:
    """Every shape up to MAX_SIDE: a random complete grid, and the empty grid solved (about a
    second for all of them; the largest were what once did not finish)."""
    shapes = _every_shape()
    assert max(s.n for s in shapes) == sudokit.MAX_SIDE
    for shape in shapes:
        grid = random_grid(shape, seed=shape.n)
        assert grid.is_complete() and not grid.conflicts(), shape
        solved = solve(Grid.empty(shape))
        assert solved is not None and solved.is_complete() and not solved.conflicts(), shape


@pytest.mark.slow
def test_largest_side_generates_a_unique_puzzle() -> None:
    """A generated puzzle at the largest side (about two minutes here), proven unique."""
    from sudokit import generate

    shape = Shape(6, 6)
    assert shape.n == sudokit.MAX_SIDE
    p = generate(shape=shape, symmetry="none", seed=0, timeout=None)
    assert is_unique(p.puzzle) and solve(p.puzzle) == p.solution
