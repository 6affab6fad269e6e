"""The exact engine under rules, checked against the pure-Python oracle (tests/rules_oracle.py).

Positions are made from a random complete grid of the rules (the engine's, itself checked by
the oracle) with cells removed at random, some with one clue changed (often no solution);
the engine's count (limit 2) must equal the oracle's, and a unique solution must be the
oracle's. The default run takes a few hundred positions per 9x9 rule set and thousands on the
small shapes; ``-m slow`` runs thousands on 9x9 too.
"""

from __future__ import annotations

import itertools
import random

import pytest

import rules_oracle
from sudokit import _engine
from sudokit._shape import Shape
from sudokit.engine import random_cells
from sudokit.errors import InvalidRulesError
from sudokit.rules import CLASSIC, Geometry, Rules, geometry

JIGSAW4 = "AABBACBBACDDCCDD"
JIGSAW6 = "AAABBBCAAABBCCDDBECCDDEECDDFEEFFFFFE"
JIGSAW9 = "111222333111222333114522333144552666444555666444555966777888996777888999777888999"
SUDOKU, SMALL, SIX, BIG = Shape(3, 3), Shape(2, 2), Shape(2, 3), Shape(4, 4)

NINE = [
    "x",
    "windoku",
    "dg",
    "antiknight",
    "antiking",
    "nc",
    "x+windoku",
    "antiknight+x",
    "antiknight+antiking+nc",
    "jigsaw:" + JIGSAW9,
    "jigsaw:" + JIGSAW9 + "+x",
    "jigsaw:" + JIGSAW9 + "+windoku",
]
SMALLER = [
    (SMALL, "x"),
    (SMALL, "windoku"),
    (SMALL, "dg"),
    (SMALL, "antiknight"),
    (SMALL, "jigsaw:" + JIGSAW4),
    (SIX, "x"),
    (SIX, "dg"),
    (SIX, "antiknight"),
    (SIX, "antiking"),
    (SIX, "nc"),
    (SIX, "jigsaw:" + JIGSAW6),
    (SMALL, "jigsaw:" + JIGSAW4 + "+x"),
]


def _engine_grid(geo: Geometry, seed: int) -> bytes | None:
    shape = geo.shape
    return _engine.random_grid(shape.box_rows, shape.box_cols, seed, geo.blob)


def _check_grid(geo: Geometry, grid: bytes) -> None:
    n = geo.n
    assert len(grid) == geo.size
    for house, name in zip(geo.houses, geo.house_names, strict=True):
        assert sorted(grid[c] for c in house) == list(range(1, n + 1)), name
    assert rules_oracle.breaks(geo.peers, geo.related, grid) is None


def _positions(geo: Geometry, count: int, seed: int) -> list[list[int]]:
    """Random positions: a random grid of the rules with cells removed, a third of them with
    one clue changed."""
    rng = random.Random(seed)
    size, n = geo.size, geo.n
    grids = [_engine_grid(geo, rng.getrandbits(64)) for _ in range(count // 10 + 1)]
    out = []
    for i in range(count):
        grid = rng.choice(grids)
        assert grid is not None
        cells = list(grid)
        removed = rng.randint(size // 3, size * 3 // 4) if n == 9 else rng.randint(0, size)
        for c in rng.sample(range(size), removed):
            cells[c] = 0
        if i % 3 == 0:
            clues = [c for c in range(size) if cells[c]]
            if clues:
                c = rng.choice(clues)
                cells[c] = rng.choice([d for d in range(1, n + 1) if d != cells[c]])
        out.append(cells)
    return out


def _compare(geo: Geometry, positions: list[list[int]]) -> dict[int, int]:
    shape = geo.shape
    seen = {0: 0, 1: 0, 2: 0}
    for cells in positions:
        solution, count = _engine.solve(
            shape.box_rows, shape.box_cols, bytes(cells), 2, geometry=geo.blob
        )
        want, want_solution = rules_oracle.solve(geo, cells, 2)
        assert count == want, (str(geo.rules), cells)
        seen[count] += 1
        if count:
            assert solution is not None
            _check_grid(geo, solution)
            assert all(v in (0, s) for v, s in zip(cells, solution, strict=True))
        if count == 1:
            assert list(solution or b"") == want_solution
        # the batch call gives the same answers as the single one
    batch, counts = _engine.solve_batch(
        shape.box_rows, shape.box_cols, b"".join(bytes(p) for p in positions), 2, geometry=geo.blob
    )
    assert counts == [
        _engine.solve(shape.box_rows, shape.box_cols, bytes(p), 2, geometry=geo.blob)[1]
        for p in positions
    ]
    return seen


@pytest.mark.parametrize("text", NINE)
def test_random_grids_keep_the_rules_9x9(text: str) -> None:
    geo = geometry(SUDOKU, Rules(text))
    grids = set()
    for seed in range(20):
        grid = _engine_grid(geo, seed)
        assert grid is not None
        _check_grid(geo, grid)
        assert _engine_grid(geo, seed) == grid  # a function of the seed
        grids.add(grid)
    assert len(grids) > 1


@pytest.mark.parametrize(
    ("shape", "text"),
    [*SMALLER, (BIG, "x"), (BIG, "windoku"), (BIG, "dg"), (BIG, "antiknight+antiking")],
    ids=str,
)
def test_random_grids_keep_the_rules_other_shapes(shape: Shape, text: str) -> None:
    geo = geometry(shape, Rules(text))
    for seed in range(30):
        grid = _engine_grid(geo, seed)
        assert grid is not None
        _check_grid(geo, grid)


@pytest.mark.parametrize("text", NINE)
def test_engine_agrees_with_oracle_9x9(text: str) -> None:
    geo = geometry(SUDOKU, Rules(text))
    seen = _compare(geo, _positions(geo, 150, seed=len(text)))
    assert seen[0] and seen[1], seen
    # every outcome met, except that anti-king, anti-knight and nc together leave so few grids
    # that a quarter of the clues already fix one
    assert seen[2] or text == "antiknight+antiking+nc", seen


@pytest.mark.slow
@pytest.mark.parametrize("text", NINE)
def test_engine_agrees_with_oracle_9x9_thousands(text: str) -> None:
    geo = geometry(SUDOKU, Rules(text))
    _compare(geo, _positions(geo, 2000, seed=29 + len(text)))


@pytest.mark.parametrize(("shape", "text"), SMALLER, ids=str)
def test_engine_agrees_with_oracle_small(shape: Shape, text: str) -> None:
    geo = geometry(shape, Rules(text))
    seen = _compare(geo, _positions(geo, 2000, seed=7))
    assert seen[0] and seen[1] and seen[2], seen


def test_classic_geometry_as_data_matches_the_classic_paths() -> None:
    """The classic rules given as a blob take the general path and agree with the 9x9 path."""
    geo = geometry(SUDOKU, CLASSIC)
    rng = random.Random(3)
    for _ in range(200):
        cells = bytearray(_engine.random_grid(3, 3, rng.getrandbits(64)) or b"")
        for c in rng.sample(range(81), rng.randint(40, 64)):
            cells[c] = 0
        solution, count = _engine.solve(3, 3, cells, 2, geometry=geo.blob)
        fast_solution, fast_count = _engine.solve(3, 3, cells, 2)
        assert count == fast_count
        if count == 1:
            assert solution == fast_solution


@pytest.mark.parametrize("shape", [SMALL, SIX], ids=str)
def test_rules_without_a_grid_found_alike(shape: Shape) -> None:
    """Whether the rules have a complete grid at all: the engine's search and the oracle's
    agree, for every rule set of at most two extras that fits the shape."""
    extras = ["x", "windoku", "dg", "antiknight", "antiking", "nc"]
    none = []
    for k in (1, 2):
        for combo in itertools.combinations(extras, k):
            if shape == SIX and "windoku" in combo:
                continue
            if shape == SIX and combo in {("x", "dg"), ("x", "antiking")}:
                continue  # the oracle takes seconds to exhaust these (the engine: no grid)
            geo = geometry(shape, Rules.of(combo))
            mine = _engine_grid(geo, 1)
            theirs = rules_oracle.random_solution(geo, random.Random(1))
            assert (mine is None) == (theirs is None), combo
            if mine is None:
                none.append("+".join(combo))
    assert none  # e.g. antiking and nc have no 4x4 grid


def test_no_grid_is_refused_by_name() -> None:
    with pytest.raises(
        InvalidRulesError, match=r"rules 'antiking' on shape 2x2 have no complete grid"
    ):
        random_cells(SMALL, Rules("antiking"), seed=1)
    with pytest.raises(InvalidRulesError, match=r"'x\+dg' on shape 2x3"):
        random_cells(SIX, Rules("x+dg"), seed=1)
    jigsaw_x = Rules("jigsaw:" + JIGSAW6 + "+x")
    with pytest.raises(InvalidRulesError, match="no complete grid"):
        random_cells(SIX, jigsaw_x, seed=1)
    assert rules_oracle.random_solution(geometry(SIX, jigsaw_x), random.Random(1)) is None
    assert len(random_cells(SUDOKU, Rules("x"), seed=1)) == 81
    assert random_cells(SUDOKU, CLASSIC, seed=1) == _engine.random_grid(3, 3, 1)


def test_bad_geometry_blobs_are_refused() -> None:
    blob = geometry(SUDOKU, Rules("x")).blob
    with pytest.raises(ValueError, match="not a rules geometry"):
        _engine.solve(3, 3, bytes(81), 1, geometry=b"\0\0")
    with pytest.raises(ValueError, match="does not fit"):
        _engine.solve(3, 3, bytes(81), 1, geometry=blob[:-4])
    with pytest.raises(ValueError, match="does not fit"):
        _engine.solve(2, 2, bytes(16), 1, geometry=blob)
    bad = bytearray(blob)
    bad[16:20] = (81).to_bytes(4, "little")
    with pytest.raises(ValueError, match="cell 81 out of range"):
        _engine.solve(3, 3, bytes(81), 1, geometry=bytes(bad))
    with pytest.raises(TypeError):
        _engine.solve(3, 3, bytes(81), 1, geometry=3)  # type: ignore[arg-type]
