"""Canonical forms (sudokit.canon over the C extension sudokit._canon).

On 4x4 and 6x6 grids the whole group is enumerated by the oracle in ``canon_oracle.py`` (pure
Python, written from the definition) and must agree with C on the canonical text and the
automorphism count, for puzzles, complete grids and the empty grid, on both search paths
(``generic=True`` turns off the complete-grid path). On 9x9 and larger, where the group is
too big to enumerate, the tests check what defines the canonical form: every isomorph gives
the same one, the returned transform produces it, no isomorph has a smaller text, and
distinct puzzles keep distinct forms.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sudokit
from sudokit import (
    Canonical,
    Grid,
    InvalidPuzzleError,
    Shape,
    Transform,
    _canon,
    canonical,
    canonical_id,
    generate,
    random_grid,
    solve,
)
from sudokit.canon import canonical_ids, canonical_many, ids_of_canonical

from canon_oracle import oracle

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
SUDOKU = Shape(3, 3)
SMALL = [Shape(2, 2), Shape(2, 3), Shape(3, 2)]
#: The most canonical grid: the smallest text of all complete 9x9 grids, 648 automorphisms.
MOST_CANONICAL = "123456789456789123789123456231564897564897231897231564312645978645978312978312645"


def _lines(name: str, limit: int | None = None) -> list[str]:
    path = DATA / name
    if not path.is_file():
        pytest.skip(f"{path} is absent (the shared data folder is optional)")
    out = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            if line.strip():
                out.append(line.strip()[:81])
                if limit is not None and len(out) >= limit:
                    break
    return out


def _text(grid: Grid) -> tuple[int, ...]:
    return tuple(grid.cells)


def _relabelled(grid: Grid) -> tuple[int, ...]:
    """The smallest text of this geometry: digits relabelled in order of first appearance."""
    labels: dict[int, int] = {}
    return tuple(labels.setdefault(d, len(labels) + 1) if d else 0 for d in grid.cells)


def _puzzle(shape: Shape, rng: random.Random) -> Grid:
    """A random sub-grid of a random complete grid: empty, sparse, dense or complete."""
    solution = random_grid(shape, seed=rng.randrange(2**32)).cells
    keep = rng.choice([0.0, 0.05, 0.2, 0.35, 0.5, 0.8, 0.95, 1.0])
    return Grid.unchecked(shape, bytes(d if rng.random() < keep else 0 for d in solution))


def _partial(shape: Shape, rng: random.Random) -> Grid:
    """Digits placed at random with no repeat in a row or a column (boxes may repeat, and the
    grid may have no solution: the canonical form is defined all the same)."""
    n = shape.n
    cells = [0] * shape.size
    for _ in range(rng.randrange(shape.size)):
        cell, d = rng.randrange(shape.size), rng.randint(1, n)
        r, c = divmod(cell, n)
        if all(cells[r * n + j] != d for j in range(n)) and all(
            cells[i * n + c] != d for i in range(n)
        ):
            cells[cell] = d
    return Grid.unchecked(shape, bytes(cells))


def _check_against_oracle(grid: Grid) -> None:
    shape = grid.shape
    want, autos = oracle(shape.box_rows, shape.box_cols, grid.cells)
    for generic, cycles, deferred in (
        (False, True, 0),
        (False, False, 0),
        (True, True, 0),
        (False, True, 1),
    ):
        m = _canon.minlex(shape.box_rows, shape.box_cols, grid.cells, generic, cycles, deferred)
        assert tuple(m.cells) == want, (grid.to_line(), generic, cycles, deferred)
        assert m.automorphisms == autos, (grid.to_line(), generic, cycles, deferred)
        t = Transform(shape, m.transpose, tuple(m.rows), tuple(m.cols), tuple(m.digits))
        assert t.apply(grid).cells == m.cells, (grid.to_line(), generic, cycles, deferred)
    c = canonical(grid)
    assert _text(c.grid) == want and c.automorphisms == autos
    assert c.transform.apply(grid) == c.grid
    assert _revalidated(c.transform) == c.transform


# ------------------------------------------------------------------------------------------
# Small shapes: the whole group, enumerated.


@pytest.mark.parametrize("shape", SMALL, ids=str)
def test_small_shapes_agree_with_the_whole_group(shape: Shape) -> None:
    rng = random.Random(2024 + shape.box_rows)
    for _ in range(40):
        _check_against_oracle(_puzzle(shape, rng))
    for _ in range(15):
        _check_against_oracle(_partial(shape, rng))
    _check_against_oracle(Grid.unchecked(shape, bytes(shape.size)))
    _check_against_oracle(random_grid(shape, seed=rng.randrange(1000)))
    _check_against_oracle(Transform.random(shape, rng).apply(_pattern(shape)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SMALL), st.integers(0, 2**32 - 1), st.booleans())
def test_small_shapes_agree_with_the_whole_group_hypothesis(
    shape: Shape, seed: int, partial: bool
) -> None:
    rng = random.Random(seed)
    _check_against_oracle(_partial(shape, rng) if partial else _puzzle(shape, rng))


def test_the_empty_grid_has_the_whole_group_as_automorphisms() -> None:
    for shape, geometry in [
        (Shape(2, 2), 2 * (2 * 2 * 2) ** 2),
        (Shape(2, 3), (math.factorial(3) * 2**3) * (2 * math.factorial(3) ** 2)),
        (SUDOKU, 2 * 6**8),
        (Shape(4, 4), 2 * math.factorial(4) ** 10),
        (Shape(6, 6), 2 * math.factorial(6) ** 14),
        (Shape(2, 18), math.factorial(18) * 2**18 * 2 * math.factorial(18) ** 2),
    ]:
        c = canonical(Grid.unchecked(shape, bytes(shape.size)))
        assert c.automorphisms == geometry * math.factorial(shape.n), shape
        assert c.grid.clue_count == 0


# ------------------------------------------------------------------------------------------
# Transforms.


@pytest.mark.parametrize("shape", [*SMALL, SUDOKU, Shape(3, 4)], ids=str)
def test_transform_algebra(shape: Shape) -> None:
    rng = random.Random(7)
    for _ in range(30):
        g = random_grid(shape, seed=rng.randrange(1000))
        p = _puzzle(shape, rng)
        t, u = Transform.random(shape, rng), Transform.random(shape, rng)
        assert t.inverse().apply(t.apply(g)) == g
        assert t.apply(t.inverse().apply(p)) == p
        assert t.then(u).apply(p) == u.apply(t.apply(p))
        assert t.then(t.inverse()) == Transform.identity(shape)
        assert Transform.identity(shape).apply(p) == p
        image = t.apply(g)
        assert image.is_complete()  # group elements keep a solution a solution
        for cell in rng.sample(range(shape.size), 5):
            assert image.cells[t.map_cell(cell)] == t.digits[g.cells[cell]]


def test_random_transforms_are_uniform_over_the_group() -> None:
    """4x4: 128 geometric maps and 24 relabellings, each drawn about equally often."""
    shape = Shape(2, 2)
    rng = random.Random(1)
    draws = 128 * 60
    geometry: dict[tuple[Any, ...], int] = {}
    digits: dict[tuple[int, ...], int] = {}
    for _ in range(draws):
        t = Transform.random(shape, rng)
        key = (t.transpose, t.rows, t.cols)
        geometry[key] = geometry.get(key, 0) + 1
        digits[t.digits] = digits.get(t.digits, 0) + 1
    assert len(geometry) == 128 and len(digits) == 24
    assert min(geometry.values()) >= 25 and max(geometry.values()) <= 100  # mean 60
    assert min(digits.values()) >= 250 and max(digits.values()) <= 400  # mean 320
    rect = Shape(2, 3)
    assert not any(Transform.random(rect, rng).transpose for _ in range(200))


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"transpose": True, "shape": Shape(2, 3)}, "only in the group of square boxes"),
        ({"rows": (0, 2, 1, 3)}, "keep blocks of 2 together"),
        ({"rows": (0, 1, 2, 2)}, "permutation"),
        ({"cols": (0, 1, 2)}, "permutation"),
        ({"digits": (1, 0, 2, 3, 4)}, "digits"),
        ({"digits": (0, 1, 2, 3)}, "digits"),
        ({"transpose": 1}, "transpose must be a bool"),
        ({"rows": [0, 1, 2, 3]}, "tuple of ints"),
    ],
)
def test_transform_fields_are_checked(kwargs: dict[str, Any], match: str) -> None:
    fields: dict[str, Any] = {
        "shape": Shape(2, 2),
        "transpose": False,
        "rows": (0, 1, 2, 3),
        "cols": (0, 1, 2, 3),
        "digits": (0, 1, 2, 3, 4),
    }
    fields.update(kwargs)
    if fields["shape"] == Shape(2, 3) and "rows" not in kwargs:
        fields.update(rows=tuple(range(6)), cols=tuple(range(6)), digits=tuple(range(7)))
    with pytest.raises(ValueError, match=match):
        Transform(**fields)


def test_transform_refuses_another_shape() -> None:
    t = Transform.identity(Shape(2, 2))
    with pytest.raises(ValueError, match="cannot map a 3x3 grid"):
        t.apply(Grid("." * 81))
    with pytest.raises(ValueError, match="cannot compose"):
        t.then(Transform.identity(SUDOKU))
    with pytest.raises(ValueError, match="not in a 2x2 grid"):
        t.map_cell(16)


# ------------------------------------------------------------------------------------------
# 9x9.


def _revalidated(t: Transform) -> Transform:
    """``t`` built again through the checking constructor (canonical() trusts C's fields)."""
    return Transform(t.shape, t.transpose, t.rows, t.cols, t.digits)


def _check_isomorphs(grid: Grid, rng: random.Random, count: int) -> Canonical:
    c = canonical(grid)
    assert c.transform.apply(grid) == c.grid
    assert _revalidated(c.transform) == c.transform
    assert c.automorphisms >= 1
    for _ in range(count):
        other = Transform.random(grid.shape, rng).apply(grid)
        d = canonical(other)
        assert d.grid == c.grid, (grid.to_line(), other.to_line())
        assert d.automorphisms == c.automorphisms
        assert d.transform.apply(other) == d.grid
    return c


def _generated(count: int, seed: int) -> list[sudokit.Generated]:
    return list(sudokit.generate_many(count, seed=seed))


def test_generated_puzzles_isomorphs_and_solutions() -> None:
    rng = random.Random(5)
    for gen in _generated(150, seed=11):
        c = _check_isomorphs(gen.puzzle, rng, 8)
        # the puzzle's map carries its solution to the canonical puzzle's solution
        assert solve(c.grid) == c.transform.apply(gen.solution)
        s = _check_isomorphs(gen.solution, rng, 2)
        assert s.grid.is_complete()


@pytest.mark.parametrize(
    "name", ["sudoku17.txt", "top1465.txt", "forum_hardest_11plus.txt", "qqwing_easy.txt"]
)
def test_shared_puzzles_isomorphs(name: str) -> None:
    rng = random.Random(name)
    lines = _lines(name, limit=2000)
    sample = rng.sample(lines, 150)
    for line in sample:
        _check_isomorphs(Grid(line), rng, 4)
    grids = [Grid(line) for line in lines]
    many = canonical_many(grids)
    assert many[:50] == [canonical(g).grid for g in grids[:50]]
    # Two puzzles with one canonical form must really be isomorphs: the map of one followed
    # by the inverse map of the other carries the one onto the other (top1465 holds such a
    # pair, lines 300 and 307: the same puzzle with two bands swapped).
    first: dict[Grid, int] = {}
    for i, form in enumerate(many):
        j = first.setdefault(form, i)
        if j != i:
            a, b = canonical(grids[j]), canonical(grids[i])
            assert a.transform.then(b.transform.inverse()).apply(grids[j]) == grids[i]


def test_no_isomorph_has_a_smaller_text() -> None:
    rng = random.Random(3)
    grids = [g.puzzle for g in _generated(12, seed=3)] + [random_grid(SUDOKU, seed=4)]
    for grid in grids:
        best = _text(canonical(grid).grid)
        for _ in range(400):
            image = Transform.random(SUDOKU, rng).apply(grid)
            assert _relabelled(image) >= best


def test_known_automorphism_counts() -> None:
    most = canonical(Grid(MOST_CANONICAL))
    assert most.grid.to_line() == MOST_CANONICAL
    assert most.automorphisms == 648
    # Each automorphism found by the search really fixes the grid: compose the returned map
    # of an isomorph with the inverse of the map that made the isomorph.
    rng = random.Random(8)
    t = Transform.random(SUDOKU, rng)
    c = canonical(t.apply(Grid(MOST_CANONICAL)))
    assert t.then(c.transform).apply(Grid(MOST_CANONICAL)) == Grid(MOST_CANONICAL)
    # Random grids almost never have a non-trivial automorphism.
    assert [canonical(random_grid(SUDOKU, seed=s)).automorphisms for s in range(20)] == [1] * 20
    # A puzzle keeps at least the automorphisms of its solution that fix its clue pattern:
    # here the clues of the first band of the most canonical grid (its rows shift digits).
    band = Grid(MOST_CANONICAL[:27] + "." * 54)
    assert canonical(band).automorphisms % 3 == 0


def test_unused_digits_get_the_last_labels_in_their_order() -> None:
    g = Grid("1.......2" + "." * 72)
    c = canonical(g)
    # empty bands first, then the clue row last, its two stacks sorted after the empty one
    assert c.grid.to_line() == "." * 72 + ".....1..2"
    assert {c.transform.digits[1], c.transform.digits[2]} == {1, 2}
    assert list(c.transform.digits[3:]) == list(range(3, 10))
    # counted by hand: rows 2 (band 0) * 2 (other bands) * 6 * 6; columns 2 * (2 * 2 * 6)
    # (stacks 0 and 2 kept or swapped with the two clues); no transposition (it would put
    # both clues in one column); 7! for the unused digits
    assert c.automorphisms == 2 * 2 * 36 * 2 * 24 * math.factorial(7)


def _pattern(shape: Shape) -> Grid:
    """The most regular complete grid of a shape (rows shifted by a box width, bands by one):
    many automorphisms, so many ties in every search."""
    n, br, bc = shape.n, shape.box_rows, shape.box_cols
    cells = bytes(((r % br) * bc + r // br + c) % n + 1 for r in range(n) for c in range(n))
    return Grid.from_cells(cells, shape)


@pytest.mark.parametrize("shape", [Shape(2, 4), Shape(2, 5), Shape(2, 6)], ids=str)
def test_two_row_cycle_layout_agrees_with_the_position_search(shape: Shape) -> None:
    """Boxes two rows tall: rows 0-1 come from the cycles of f o f, not a search."""
    rng = random.Random(str(shape))
    grids = [random_grid(shape, seed=s) for s in range(4)] + [_pattern(shape)]
    for g in grids:
        cells = Transform.random(shape, rng).apply(g).cells
        fast = _canon.minlex(shape.box_rows, shape.box_cols, cells)
        slow = _canon.minlex(shape.box_rows, shape.box_cols, cells, cycles=False)
        assert (fast.cells, fast.automorphisms, fast.survivors) == (
            slow.cells,
            slow.automorphisms,
            slow.survivors,
        )
    assert canonical(_pattern(shape)).automorphisms == 8 * shape.box_cols


def test_complete_grid_path_agrees_with_the_generic_search_on_9x9() -> None:
    for seed in range(3):
        g = random_grid(SUDOKU, seed=seed).cells
        fast = _canon.minlex(3, 3, g)
        slow = _canon.minlex(3, 3, g, True)
        assert (fast.cells, fast.automorphisms) == (slow.cells, slow.automorphisms)
    m = _canon.minlex(3, 3, Grid(MOST_CANONICAL).cells, True)
    assert m.automorphisms == 648


def test_batch_and_single_calls_agree() -> None:
    grids = [g.puzzle for g in _generated(40, seed=9)] + [random_grid(SUDOKU, seed=1)]
    cells = b"".join(g.cells for g in grids)
    assert _canon.minlex_many(3, 3, cells) == b"".join(
        _canon.minlex(3, 3, g.cells).cells for g in grids
    )
    assert _canon.minlex_many(3, 3, cells, True) == _canon.minlex_many(3, 3, cells)
    assert canonical_ids(grids) == [canonical_id(g) for g in grids]
    assert canonical_many([]) == []
    with pytest.raises(ValueError, match="one shape"):
        canonical_many([Grid("." * 81), Grid("." * 16)])


def test_ids_are_pinned() -> None:
    """Ids are stored in banks: they must never change."""
    assert canonical_id(Grid("." * 81)) == "9x9-bminwzkx4qj7nqfgawpb4wrvc4"
    assert canonical_id(Grid(MOST_CANONICAL)) == "9x9-6kw57452hhs35cs2t34oson3gu"
    assert canonical_id(Grid("." * 16)) == "4x4-3r7l5ixevy4lj52h3f26wd2g6a"
    six = Grid.unchecked(Shape(2, 3), bytes(36))
    assert canonical_id(six) == "6x6-2x3-vnt5l3lnlfhztko32dkgcerwae"
    assert canonical_id(Grid.unchecked(Shape(3, 2), bytes(36))) != canonical_id(six)
    p = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    assert canonical_id(Grid(p)) == "9x9-gppxi6dpzg6rqwn3khcc3qkrbm"


def test_conflicts_are_refused_by_name() -> None:
    bad = Grid("11" + "." * 79, allow_conflicts=True)
    with pytest.raises(InvalidPuzzleError, match="conflicting clues"):
        canonical(bad)
    with pytest.raises(InvalidPuzzleError, match="conflicting clues"):
        canonical_id(bad)


# ------------------------------------------------------------------------------------------
# Other shapes.


@pytest.mark.parametrize("shape", [Shape(3, 4), Shape(4, 3), Shape(4, 4), Shape(2, 4)], ids=str)
def test_other_shapes_isomorphs(shape: Shape) -> None:
    rng = random.Random(str(shape))
    for seed in range(4):
        gen = sudokit.generate(shape=shape, seed=seed)
        c = _check_isomorphs(gen.puzzle, rng, 6)
        assert solve(c.grid) == c.transform.apply(gen.solution)
        _check_isomorphs(gen.solution, rng, 2)
        _check_isomorphs(_partial(shape, rng), rng, 3)


@pytest.mark.parametrize(
    ("shape", "keep"),
    [(Shape(5, 5), 0.45), (Shape(6, 6), 0.2), (Shape(2, 8), 0.4), (Shape(6, 3), 0.4)],
    ids=str,
)
def test_big_grids(shape: Shape, keep: float) -> None:
    rng = random.Random(1)
    g = random_grid(shape, seed=2)
    puzzle = Grid.unchecked(shape, bytes(d if rng.random() < keep else 0 for d in g.cells))
    for grid in (g, puzzle):
        _check_isomorphs(grid, rng, 2)


def test_dense_big_puzzles() -> None:
    """Dense rows of big grids hold many tied new digits: the deferred-label search keeps them
    tied (the other search branched over every order of them and gave up)."""
    rng = random.Random(1)
    g = random_grid(Shape(6, 6), seed=2)
    dense = Grid.unchecked(g.shape, bytes(d if rng.random() < 0.8 else 0 for d in g.cells))
    _check_isomorphs(dense, rng, 3)


def _blanked(shape: Shape, seed: int, keep: float) -> Grid:
    rng = random.Random(seed)
    g = random_grid(shape, seed=seed)
    return Grid.unchecked(shape, bytes(d if rng.random() < keep else 0 for d in g.cells))


#: Shapes whose generated puzzles the search used to give up on (2x16, 3x12, 6x6), and others.
BIG = [Shape(2, 16), Shape(3, 12), Shape(6, 6), Shape(5, 5), Shape(4, 8)]


@pytest.mark.parametrize("shape", BIG, ids=str)
def test_big_puzzles_like_generated_ones(shape: Shape) -> None:
    """Random complete grids with about the generator's share of clues (52% for 36x36) and
    more: isomorphs agree, the transform maps the input onto the result."""
    rng = random.Random(str(shape))
    for seed, keep in ((1, 0.52), (2, 0.45), (3, 0.6), (4, 0.7)):
        _check_isomorphs(_blanked(shape, seed, keep), rng, 3)


@pytest.mark.slow
@pytest.mark.parametrize("shape", BIG, ids=str)
def test_generated_big_puzzles(shape: Shape) -> None:
    """``sudokit.generate`` itself (seed 1; a minute or more for 36x36 grids)."""
    gen = sudokit.generate(shape=shape, seed=1, timeout=None)
    c = _check_isomorphs(gen.puzzle, random.Random(1), 3)
    assert solve(c.grid) == c.transform.apply(gen.solution)


_DIFF_SHAPES = [
    SUDOKU,
    Shape(2, 4),
    Shape(4, 2),
    Shape(3, 4),
    Shape(4, 3),
    Shape(2, 6),
    Shape(4, 4),
    Shape(3, 5),
]


@pytest.mark.parametrize("shape", _DIFF_SHAPES, ids=str)
def test_deferred_search_agrees_with_the_other_one(shape: Shape) -> None:
    """Both searches (deferred=1: labels bound to positions; deferred=0: every order of tied
    new digits branched) give the same text and automorphism count, and their transforms
    both map the input onto it: random puzzles, partial grids with no solution, and
    sub-grids of the most regular grid (many automorphisms, so many ties)."""
    rng = random.Random(str(shape) + "deferred")
    br, bc = shape.box_rows, shape.box_cols
    grids = []
    for i in range(60):
        grids.append(_partial(shape, rng) if i % 2 else _puzzle(shape, rng))
    for keep in (0.2, 0.4, 0.6, 0.8, 1.0):
        cells = Transform.random(shape, rng).apply(_pattern(shape)).cells
        grids.append(Grid.unchecked(shape, bytes(d if rng.random() < keep else 0 for d in cells)))
    grids.append(Grid.unchecked(shape, bytes(shape.size)))
    for g in grids:
        old = _canon.minlex(br, bc, g.cells, deferred=0)
        new = _canon.minlex(br, bc, g.cells, deferred=1)
        assert (new.cells, new.automorphisms) == (old.cells, old.automorphisms), g.to_line()
        for m in (old, new):
            t = Transform(shape, m.transpose, tuple(m.rows), tuple(m.cols), tuple(m.digits))
            assert t.apply(g).cells == m.cells, g.to_line()
    cells = b"".join(g.cells for g in grids)
    assert _canon.minlex_many(br, bc, cells, deferred=1) == _canon.minlex_many(
        br, bc, cells, deferred=0
    )


def test_wide_two_row_complete_grids() -> None:
    for shape in (Shape(2, 12), Shape(2, 18)):
        _check_isomorphs(random_grid(shape, seed=1), random.Random(1), 2)


@pytest.mark.slow
def test_wide_complete_grids_give_up_with_value_error() -> None:
    g = random_grid(Shape(3, 12), seed=1)
    with pytest.raises(ValueError, match="more search steps"):
        canonical(g)


@pytest.mark.slow
def test_sudoku17_has_no_two_isomorphic_puzzles() -> None:
    grids = [Grid(line) for line in _lines("sudoku17.txt")]
    assert len(grids) == 49151
    assert len(set(canonical_ids(grids))) == 49151


# ------------------------------------------------------------------------------------------
# Hostile arguments (as tests/test_c_boundary.py does for the other extensions).

ALLOWED = (ValueError, TypeError, MemoryError, OverflowError)
BAD_SHAPES = [(0, 0), (1, 9), (9, 1), (-3, -3), (65536, 65536), (2**31 - 1, 2), (19, 2), (36, 36)]


def _call(f: Callable[..., Any], *args: Any) -> Any:
    try:
        return f(*args)
    except ALLOWED:
        return None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_hostile_arguments(data: st.DataObject) -> None:
    shape = data.draw(
        st.one_of(st.sampled_from([(2, 2), (2, 3), (3, 2), (3, 3)]), st.sampled_from(BAD_SHAPES))
    )
    br, bc = shape
    n = br * bc if 4 <= br * bc <= 36 else 9
    kind = data.draw(st.integers(0, 3))
    if kind == 0:
        cells = data.draw(st.binary(max_size=3 * n * n))
    else:
        size = n * n * data.draw(st.sampled_from([1, 1, 2, 3]))
        top = n if kind < 3 else 255
        cells = bytes(data.draw(st.lists(st.integers(0, top), min_size=size, max_size=size)))
    generic = data.draw(st.booleans())
    deferred = data.draw(st.sampled_from([-1, 0, 1]))
    one = _call(_canon.minlex, br, bc, cells, generic, True, deferred)
    if one is not None:
        assert len(one.cells) == len(cells) and one.automorphisms >= 1
    many = _call(_canon.minlex_many, br, bc, cells, generic, True, deferred)
    if many is not None:
        assert len(many) == len(cells)
    _call(_canon.minlex, br, bc, data.draw(st.one_of(st.none(), st.integers(), st.text())))


def test_overflowing_shapes_are_refused_before_any_arithmetic() -> None:
    for f in (_canon.minlex, _canon.minlex_many):
        with pytest.raises(ValueError, match="invalid shape 65536x65536"):
            f(65536, 65536, b"\0" * 81)
    with pytest.raises(ValueError, match="out of range"):
        _canon.minlex(3, 3, bytes([10]) + bytes(80))
    with pytest.raises(ValueError, match="repeats in its column"):
        _canon.minlex(3, 3, b"\1" + bytes(8) + b"\1" + bytes(71))
    with pytest.raises(ValueError, match="expected 81 cells"):
        _canon.minlex(3, 3, bytes(80))
    with pytest.raises(ValueError, match="multiple of 81"):
        _canon.minlex_many(3, 3, bytes(80))
    assert _canon.minlex_many(3, 3, b"") == b""
    assert _canon.MAX_SIDE == sudokit.MAX_SIDE


# ------------------------------------------------------------------------------------------
# Memory running out (only in the fault-injection build of tools/sanitize.sh).

FAULT_CALLS: dict[str, Callable[[], object]] = {
    "puzzle": lambda: _canon.minlex(3, 3, Grid(MOST_CANONICAL[:40] + "." * 41).cells),
    "grid": lambda: _canon.minlex(3, 3, Grid(MOST_CANONICAL).cells),
    "generic": lambda: _canon.minlex(2, 3, random_grid(Shape(2, 3), seed=1).cells, True),
    "many": lambda: _canon.minlex_many(3, 3, Grid(MOST_CANONICAL).cells + bytes(81)),
    "deferred": lambda: _canon.minlex_many(
        3, 3, Grid(MOST_CANONICAL[:40] + "." * 41).cells + bytes(81), deferred=1
    ),
}


@pytest.mark.skipif(not hasattr(_canon, "_fail_after"), reason="needs tools/sanitize.sh's build")
@pytest.mark.parametrize("name", FAULT_CALLS)
def test_every_failed_allocation_ends_in_memory_error(name: str) -> None:
    call = FAULT_CALLS[name]
    big = 10**9
    _canon._fail_after(big)
    answer = call()
    total = big - _canon._fail_after(-1)
    assert total >= 1
    for k in range(total):
        _canon._fail_after(k)
        try:
            with pytest.raises(MemoryError):
                call()
        finally:
            _canon._fail_after(-1)
    assert call() == answer


def test_ids_of_canonical_forms_are_their_canonical_ids() -> None:
    rng = random.Random(3)
    grids = [Grid("." * 81), Grid(MOST_CANONICAL)] + [
        generate(shape=shape, seed=rng.randrange(1 << 30)).puzzle
        for shape in (*SMALL, SUDOKU, SUDOKU, Shape(2, 4), Shape(4, 4))
    ]
    forms = [canonical(g).grid for g in grids]  # of several shapes
    assert ids_of_canonical(forms) == [canonical_id(g) for g in grids]
    nines = [g for g in grids if g.shape == SUDOKU]
    assert ids_of_canonical(canonical_many(nines)) == canonical_ids(nines)
    assert ids_of_canonical([]) == []


def test_a_refused_batch_names_the_grid_c_refused() -> None:
    # Grid 0 repeats a digit only in its box (the search takes it); grid 1 repeats one in
    # its row, which C refuses: the error must be about grid 1, not the first conflict found.
    box_only = Grid.unchecked(SUDOKU, bytes([1] + [0] * 9 + [1] + [0] * 70))
    row = Grid.unchecked(SUDOKU, bytes([2, 2] + [0] * 79))
    with pytest.raises(InvalidPuzzleError, match=r"digit 2 at r1c1 and r1c2 \(row 1\)"):
        canonical_many([box_only, row])
    with pytest.raises(TypeError, match="one grid use canonical"):
        canonical_many(row)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="grid 1 of the batch is a int"):
        canonical_many([row, 42])  # type: ignore[list-item]


# The bank's helpers: the clue pattern's symmetry, and ids' base32 text ------------------------

#: The eight maps of the square, written from their definitions (the oracle of symmetry_many).
_SQUARE_MAPS: dict[str, Callable[[int, int, int], tuple[int, int]]] = {
    "rot90": lambda r, c, n: (c, n - 1 - r),
    "rot180": lambda r, c, n: (n - 1 - r, n - 1 - c),
    "rot270": lambda r, c, n: (n - 1 - c, r),
    "mirror-h": lambda r, c, n: (n - 1 - r, c),
    "mirror-v": lambda r, c, n: (r, n - 1 - c),
    "diagonal": lambda r, c, n: (c, r),
    "antidiagonal": lambda r, c, n: (n - 1 - c, n - 1 - r),
}


def _kept_maps(cells: bytes, n: int) -> set[str]:
    """The maps (and the identity) that leave the clue pattern of ``cells`` as it is."""
    kept = {"identity"}
    for name, f in _SQUARE_MAPS.items():
        if all(
            bool(cells[r * n + c]) == bool(cells[f(r, c, n)[0] * n + f(r, c, n)[1]])
            for r in range(n)
            for c in range(n)
        ):
            kept.add(name)
    return kept


@pytest.mark.parametrize("n", [1, 4, 6, 9, 16])
def test_symmetry_many_names_the_group_of_maps_each_pattern_keeps(n: int) -> None:
    """Random patterns closed under a random map, some broken again, n by n (odd and even
    sides): the code names exactly the group of the maps each keeps, checked cell by cell."""
    from sudokit.canon import PATTERN_SYMMETRIES, symmetries_of_cells
    from sudokit.generator import SYMMETRIES

    assert set(PATTERN_SYMMETRIES) == set(SYMMETRIES)
    rng = random.Random(n)
    grids = []
    for trial in range(400):
        cells = bytearray(n * n)
        maps = rng.sample(sorted(_SQUARE_MAPS), rng.randrange(0, 3))
        for cell in rng.sample(range(n * n), rng.randrange(0, n * n // 2 + 1)):
            todo = [divmod(cell, n)]
            while todo:  # the orbit of the cell under the chosen maps
                r, c = todo.pop()
                if not cells[r * n + c]:
                    cells[r * n + c] = rng.randrange(1, 256)
                    todo.extend(_SQUARE_MAPS[m](r, c, n) for m in maps)
        if trial % 4 == 0:
            cells[rng.randrange(n * n)] ^= 1
        grids.append(bytes(cells))
    found = symmetries_of_cells(n, b"".join(grids))
    assert len(found) == len(grids)
    for grid, name in zip(grids, found, strict=True):
        assert set(SYMMETRIES[name]) == _kept_maps(grid, n), (grid, name)


@pytest.mark.parametrize("shape", [Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(3, 3), Shape(3, 4)])
def test_random_isomorphs_keep_the_clue_patterns_symmetry(shape: Shape) -> None:
    """For every symmetry (those transposing swaps included, mirror-h and mirror-v): puzzles
    whose clues are whole orbits of it, each mapped at random many times, keep their pattern's
    largest symmetry, and the transform returned makes the grid returned."""
    from sudokit.canon import random_isomorph, symmetries_of_cells
    from sudokit.generator import SYMMETRIES, orbits

    rng = random.Random(shape.n)
    full = random_grid(shape, seed=shape.n)
    flips = 0
    for symmetry in SYMMETRIES:
        cells = bytearray(shape.size)
        for orbit in rng.sample(orbits(shape, symmetry), len(orbits(shape, symmetry)) // 2):
            for cell in orbit:
                cells[cell] = full[cell]
        grid = Grid.from_cells(bytes(cells), shape)
        (kept,) = symmetries_of_cells(shape.n, grid.cells)
        forms = set()
        for _ in range(30):
            t, made = random_isomorph(grid, rng)
            assert t.apply(grid) == made
            assert symmetries_of_cells(shape.n, made.cells) == [kept], (symmetry, t)
            assert random_isomorph(grid, random.Random(1), kept) == random_isomorph(
                grid, random.Random(1)
            )
            flips += t.transpose
            forms.add(made)
        assert len(forms) > 10  # random copies, not one fixed form
    assert flips > 0 or shape.box_rows != shape.box_cols


def test_base32_keys_are_base64s_text() -> None:
    import base64

    rng = random.Random(5)
    for size in (1, 2, 4, 5, 7, 16, 33, 64):
        digests = rng.randbytes(size * 9)
        expected = [
            "tag-" + base64.b32encode(digests[k : k + size]).decode().lower().rstrip("=")
            for k in range(0, len(digests), size)
        ]
        assert _canon.base32_keys("tag-", digests, size) == expected
    assert _canon.base32_keys("", b"", 16) == []


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_hostile_arguments_to_the_bank_helpers(data: st.DataObject) -> None:
    n = data.draw(st.one_of(st.integers(-3, 40), st.sampled_from([2**31 - 1, -(2**31), 2**40])))
    cells = data.draw(st.binary(max_size=300))
    out = _call(_canon.symmetry_many, n, cells)
    if out is not None:
        assert n >= 1 and len(cells) % (n * n) == 0 and len(out) == len(cells) // (n * n)
        assert all(code < 10 for code in out)
    prefix = data.draw(st.text(max_size=80))
    size = data.draw(st.one_of(st.integers(-2, 70), st.sampled_from([2**31, -(2**63), 2**64])))
    keys = _call(_canon.base32_keys, prefix, cells, size)
    if keys is not None:
        assert len(keys) == len(cells) // size and all(k.startswith(prefix) for k in keys)
    _call(_canon.symmetry_many, data.draw(st.one_of(st.none(), st.text())), cells)
    _call(_canon.base32_keys, prefix, data.draw(st.one_of(st.none(), st.text(), st.integers())), 16)


def test_bank_helpers_refuse_bad_sizes_by_name() -> None:
    with pytest.raises(ValueError, match="side 0 is out of range"):
        _canon.symmetry_many(0, b"")
    with pytest.raises(ValueError, match="multiple of 81"):
        _canon.symmetry_many(9, bytes(80))
    with pytest.raises(ValueError, match="digest size 0"):
        _canon.base32_keys("", b"", 0)
    with pytest.raises(ValueError, match="multiple of 16"):
        _canon.base32_keys("", bytes(15), 16)
    with pytest.raises(ValueError, match="longer than 64"):
        _canon.base32_keys("x" * 65, bytes(16), 16)
